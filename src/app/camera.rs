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
            follow_the_room
                .run_if(resource_exists::<Game>)
                .run_if(resource_exists::<Docks>),
        )
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

/// The room the table has: the window's size and the docks' edges.
type Room = (f32, f32, f32, f32, f32);

/// A table shown fitted stays fitted when its room changes (the log or the side panel folded,
/// opened or resized, the window resized): where the camera stands at the fit for the room it
/// had, it takes the fit for the room it has. A view the player has panned or zoomed is left
/// where it is.
fn follow_the_room(
    game: Res<Game>,
    docks: Res<Docks>,
    windows: Query<&Window>,
    mut cams: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
    mut last: Local<Option<Room>>,
) {
    let Some(w) = windows.iter().next() else {
        return;
    };
    let (ww, wh) = (w.width(), w.height());
    let room: Room = (ww, wh, docks.top, docks.right, docks.bottom);
    let Some(before) = last.replace(room) else {
        return;
    };
    if before == room {
        return;
    }
    let was = Docks {
        top: before.2,
        right: before.3,
        bottom: before.4,
        ..*docks
    };
    let (old_at, old_scale) = fit(&game, before.0, before.1, Some(&was));
    let (at, scale) = fit(&game, ww, wh, Some(&docks));
    for (mut t, mut p) in &mut cams {
        let Projection::Orthographic(o) = p.as_mut() else {
            continue;
        };
        let fitted = (o.scale - old_scale).abs() <= old_scale * 1e-3
            && t.translation.truncate().distance(old_at.truncate()) <= old_scale * 2.0;
        if fitted {
            t.translation = at;
            o.scale = scale;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A fitted table takes the fit for its new room when the log is folded; a view zoomed
    /// by the player stays where it is.
    #[test]
    fn a_fitted_table_follows_the_log_and_a_zoomed_one_stays() {
        let b = crate::rules::scenario::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/default.ron"),
        )
        .expect("the default battle loads");
        let mut app = App::new();
        app.insert_resource(Game::new(b, true, std::env::temp_dir()))
            .insert_resource(Docks::default())
            .add_systems(Update, follow_the_room);
        app.world_mut().spawn(Window::default());
        let (ww, wh) = (1280.0, 720.0);
        let (at, scale) = fit(
            app.world().resource::<Game>(),
            ww,
            wh,
            Some(&Docks::default()),
        );
        let cam = app
            .world_mut()
            .spawn((
                Transform::from_translation(at),
                Projection::Orthographic(OrthographicProjection {
                    scale,
                    ..OrthographicProjection::default_2d()
                }),
                BoardCamera,
            ))
            .id();
        app.update();
        let view = |app: &App| {
            let t = app
                .world()
                .get::<Transform>(cam)
                .expect("camera")
                .translation;
            let Some(Projection::Orthographic(o)) = app.world().get::<Projection>(cam) else {
                panic!("orthographic");
            };
            (t, o.scale)
        };
        // The log folded: the table grows into its room.
        app.world_mut().resource_mut::<Docks>().bottom = 30.0;
        app.update();
        let folded = Docks {
            bottom: 30.0,
            ..Docks::default()
        };
        let (want_at, want_scale) = fit(app.world().resource::<Game>(), ww, wh, Some(&folded));
        let (t, s) = view(&app);
        assert!(
            (s - want_scale).abs() < 1e-4 && t.distance(want_at) < 1e-3,
            "refitted"
        );
        assert!(s < scale, "a larger table on screen");
        // Zoomed in by the player: the log opened again leaves the view alone.
        if let Some(mut p) = app.world_mut().get_mut::<Projection>(cam)
            && let Projection::Orthographic(o) = p.as_mut()
        {
            o.scale *= 0.5;
        }
        app.world_mut().resource_mut::<Docks>().bottom = LOG;
        app.update();
        assert!(
            (view(&app).1 - want_scale * 0.5).abs() < 1e-4,
            "the zoom kept"
        );
    }

    const LOG: f32 = crate::app::state::LOG_HEIGHT;
}
