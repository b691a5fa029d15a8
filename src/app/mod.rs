//! The window: the battlefield, measured movement, overlays and explained combat. The screen
//! only shows the battle and sends commands; every decision and number comes from the rules.

mod board;
mod camera;
pub mod input;
mod overlay;
mod panels;

use crate::rules::command::Command;
use crate::rules::{Battle, UnitId, save};
use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;
use std::path::PathBuf;

/// The order of the frame: read input into intents, apply them to the battle, then draw.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Mouse and keys become intents and drag previews.
    Input,
    /// Intents are executed against the battle.
    Apply,
    /// The board and overlays follow the battle.
    Draw,
}

/// The game being played and what the screen knows about it.
#[derive(Resource)]
pub struct Game {
    pub battle: Battle,
    /// Bumped whenever the battle changes, so drawing knows to refresh.
    pub version: u64,
    /// The last refusal or notice, shown to the player.
    pub message: Option<String>,
    pub save_path: PathBuf,
    /// Where the autosave after every command goes.
    pub save_dir: PathBuf,
    /// The side whose player has taken the seat (hotseat handover).
    pub seated: Option<usize>,
    /// A Fire or Fight waiting in the preview panel.
    pub pending: Option<Command>,
    /// Units highlighted from the log.
    pub highlight: Vec<UnitId>,
}

/// What the player asked for.
#[derive(Message, Clone, Debug)]
pub enum Intent {
    Do(Command),
    Undo,
    Save,
}

/// Where to save a screenshot before exiting, and after how many frames.
#[derive(Resource)]
struct ScreenshotRequest {
    path: PathBuf,
    frames: u32,
    taken: bool,
}

/// Where saves go: `saves/` in the working directory.
pub fn default_save_dir() -> PathBuf {
    PathBuf::from("saves")
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
    .add_plugins(EguiPlugin::default())
    .insert_resource(ClearColor(Color::srgb(0.16, 0.17, 0.19)));
    let shot = screenshot.is_some();
    app.add_plugins(plugin(battle, shot, default_save_dir()))
        .add_plugins((
            camera::plugin,
            board::plugin,
            overlay::plugin,
            panels::plugin,
        ));
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

/// The game, its intents and the input that makes them, without drawing: usable headless with
/// MinimalPlugins, StatesPlugin and InputPlugin.
pub fn plugin(battle: Battle, seated: bool, save_dir: PathBuf) -> impl Fn(&mut App) {
    let battle = std::sync::Mutex::new(Some(battle));
    move |app: &mut App| {
        let Some(battle) = battle.lock().ok().and_then(|mut b| b.take()) else {
            return;
        };
        let seat = if seated { Some(battle.active) } else { None };
        let save_path = save_dir.join("quicksave.ron");
        app.insert_resource(Game {
            battle,
            version: 1,
            message: None,
            save_path,
            save_dir: save_dir.clone(),
            seated: seat,
            pending: None,
            highlight: Vec::new(),
        })
        .add_message::<Intent>()
        .configure_sets(
            Update,
            (AppSystems::Input, AppSystems::Apply, AppSystems::Draw).chain(),
        )
        .add_systems(Update, apply_intents.in_set(AppSystems::Apply));
        app.add_plugins(input::plugin);
    }
}

/// Executes intents; a refusal changes nothing and is shown to the player.
fn apply_intents(mut intents: MessageReader<Intent>, mut game: ResMut<Game>) {
    for intent in intents.read() {
        let res = match intent {
            Intent::Do(c) => game.battle.execute(c.clone()).map(|_| ()),
            Intent::Undo => game.battle.undo().map(|_| ()),
            Intent::Save => {
                let path = game.save_path.clone();
                let res = std::fs::create_dir_all(&game.save_dir)
                    .map_err(|e| e.to_string())
                    .and_then(|_| save::write(&game.battle, &path));
                game.message = Some(match res {
                    Ok(()) => format!("saved to {}", path.display()),
                    Err(e) => e,
                });
                continue;
            }
        };
        match res {
            Ok(()) => {
                game.version += 1;
                game.message = None;
                game.pending = None;
                // An autosave after every command; failure to write it is not fatal.
                if std::fs::create_dir_all(&game.save_dir).is_ok() {
                    let _ = save::write(&game.battle, &game.save_dir.join("autosave.ron"));
                }
            }
            Err(e) => game.message = Some(e.to_string()),
        }
    }
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
