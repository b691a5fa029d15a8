//! The window: draws the table, its terrain and the units' bases from the battle state.

mod board;

use crate::rules::Battle;
use bevy::prelude::*;
use bevy::window::WindowResolution;
use std::path::PathBuf;

/// The battle shown in the window.
#[derive(Resource)]
pub struct BattleState(pub Battle);

/// Where to save a screenshot before exiting, and after how many frames.
#[derive(Resource)]
struct ScreenshotRequest {
    path: PathBuf,
    frames: u32,
    taken: bool,
}

/// Opens the window on a battle. With `screenshot`, renders, saves the image and exits.
pub fn run(battle: Battle, screenshot: Option<PathBuf>) {
    let title = format!("volley — {}", battle.info.name);
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title,
            resolution: WindowResolution::from((1280u32, 720u32)),
            ..default()
        }),
        ..default()
    }))
    .insert_resource(ClearColor(Color::srgb(0.16, 0.17, 0.19)))
    .insert_resource(BattleState(battle))
    .add_plugins(board::plugin);
    if let Some(path) = screenshot {
        app.insert_resource(ScreenshotRequest {
            path,
            frames: 0,
            taken: false,
        })
        .add_systems(Update, take_screenshot);
    }
    app.run();
}

fn take_screenshot(
    mut commands: Commands,
    mut req: ResMut<ScreenshotRequest>,
    mut exit: MessageWriter<AppExit>,
) {
    use bevy::render::view::screenshot::{Screenshot, save_to_disk};
    req.frames += 1;
    if req.frames == 40 && !req.taken {
        req.taken = true;
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(req.path.clone()));
    }
    if req.frames >= 70 {
        exit.write(AppExit::Success);
    }
}
