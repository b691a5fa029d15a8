//! The camera: pan with the right or middle button or WASD/arrows, zoom to the cursor with the
//! wheel, fit the table with Home.

use super::state::BoardCamera;
use super::state::Docks;
use super::{AppSystems, Game};
use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_pointer_input;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera)
        .add_systems(Update, fit_new_game.run_if(super::new_table))
        .add_systems(
            Update,
            (
                keys_pan,
                mouse_pan.run_if(not(egui_wants_any_pointer_input)),
            )
                .in_set(AppSystems::Input),
        )
        // The editor pans the same way (its table takes no game input).
        .add_systems(
            Update,
            (
                keys_pan.run_if(resource_exists::<Game>),
                mouse_pan.run_if(not(egui_wants_any_pointer_input)),
            )
                .run_if(in_state(super::state::Screen::Editor)),
        );
}

/// Zooms by `dy` wheel notches, keeping the point under the cursor fixed.
pub fn zoom_at_cursor(
    dy: f32,
    windows: &Query<&Window>,
    cams: &mut Query<
        (&Camera, &GlobalTransform, &mut Transform, &mut Projection),
        With<BoardCamera>,
    >,
) {
    if dy == 0.0 {
        return;
    }
    let Some(cursor) = windows.iter().next().and_then(|w| w.cursor_position()) else {
        return;
    };
    let Ok((cam, gt, mut t, mut proj)) = cams.single_mut() else {
        return;
    };
    let Projection::Orthographic(o) = proj.as_mut() else {
        return;
    };
    let Ok(before) = cam.viewport_to_world_2d(gt, cursor) else {
        return;
    };
    let factor = 0.85f32.powf(dy);
    let new_scale = (o.scale * factor).clamp(0.05, 20.0);
    let k = new_scale / o.scale;
    let centre = t.translation.truncate();
    let after_centre = before + (centre - before) * k;
    t.translation = after_centre.extend(t.translation.z);
    o.scale = new_scale;
}

/// World position of the cursor, when over the window.
pub fn cursor_world(
    windows: &Query<&Window>,
    cams: &Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
) -> Option<Vec2> {
    let w = windows.iter().next()?;
    let pos = w.cursor_position()?;
    let (cam, t) = cams.iter().next()?;
    cam.viewport_to_world_2d(t, pos).ok()
}

pub(super) fn fit(game: &Game, ww: f32, wh: f32, docks: Option<&Docks>) -> (Vec3, f32) {
    let b = &game.play;
    // The table fills the window between the turn bar (top), the docked log (bottom) and side
    // panel (right), so that no panel covers a unit at the fitted zoom.
    let d = docks.copied().unwrap_or_default();
    let (left, right, top, bottom) = (8.0, d.right + 8.0, d.top + 4.0, d.bottom + 8.0);
    let scale = (b.table.width / (ww - left - right).max(200.0))
        .max(b.table.height / (wh - top - bottom).max(200.0))
        * 1.02;
    // The window's centre, in world terms, sits off the table's by half the margins' difference.
    (
        Vec3::new(
            b.table.width / 2.0 + (right - left) / 2.0 * scale,
            b.table.height / 2.0 + (top - bottom) / 2.0 * scale,
            0.0,
        ),
        scale,
    )
}

fn spawn_camera(mut commands: Commands) {
    // No multisampling: a software renderer pays for every sample of every pixel, and the
    // terrain image is smooth already.
    commands.spawn((Camera2d, Msaa::Off, BoardCamera));
}

fn fit_new_game(
    game: Res<Game>,
    docks: Option<Res<Docks>>,
    windows: Query<&Window>,
    mut cams: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    if game.keep_view {
        return;
    }
    let (ww, wh) = windows
        .iter()
        .next()
        .map(|w| (w.width(), w.height()))
        .unwrap_or((1280.0, 720.0));
    let (pos, scale) = fit(&game, ww, wh, docks.as_deref());
    for (mut t, mut p) in &mut cams {
        t.translation = pos;
        *p = Projection::Orthographic(OrthographicProjection {
            scale,
            ..OrthographicProjection::default_2d()
        });
    }
}

fn keys_pan(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    game: Res<Game>,
    windows: Query<&Window>,
    mut cams: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    docks: Option<Res<Docks>>,
) {
    if egui.is_some_and(|e| e.wants_any_keyboard_input()) {
        return;
    }
    let Ok((mut t, mut proj)) = cams.single_mut() else {
        return;
    };
    let Projection::Orthographic(o) = proj.as_mut() else {
        return;
    };
    let mut d = Vec2::ZERO;
    if keys.pressed(KeyCode::KeyW) || keys.pressed(KeyCode::ArrowUp) {
        d.y += 1.0;
    }
    if keys.pressed(KeyCode::KeyS)
        && !keys.pressed(KeyCode::ControlLeft)
        && !keys.pressed(KeyCode::ControlRight)
        || keys.pressed(KeyCode::ArrowDown)
    {
        d.y -= 1.0;
    }
    if keys.pressed(KeyCode::KeyA) || keys.pressed(KeyCode::ArrowLeft) {
        d.x -= 1.0;
    }
    if (keys.pressed(KeyCode::KeyD)
        && !keys.pressed(KeyCode::ControlLeft)
        && !keys.pressed(KeyCode::ControlRight))
        || keys.pressed(KeyCode::ArrowRight)
    {
        d.x += 1.0;
    }
    let speed = 600.0 * o.scale * time.delta_secs();
    t.translation += (d * speed).extend(0.0);
    if keys.just_pressed(KeyCode::Home) {
        let (ww, wh) = windows
            .iter()
            .next()
            .map(|w| (w.width(), w.height()))
            .unwrap_or((1280.0, 720.0));
        let (pos, scale) = fit(&game, ww, wh, docks.as_deref());
        t.translation = pos;
        o.scale = scale;
    }
}

fn mouse_pan(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    mut cams: Query<(&mut Transform, &Projection), With<BoardCamera>>,
) {
    if !(buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle)) {
        return;
    }
    let Ok((mut t, proj)) = cams.single_mut() else {
        return;
    };
    let Projection::Orthographic(o) = proj else {
        return;
    };
    t.translation.x -= motion.delta.x * o.scale;
    t.translation.y += motion.delta.y * o.scale;
}
