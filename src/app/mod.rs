//! The window: the battlefield, measured movement, overlays and explained combat. The screen
//! only shows the battle and sends commands; every decision and number comes from the rules.

mod board;
mod camera;
mod colours;
pub mod editor;
pub mod input;
pub mod lesson;
pub mod menu;
pub mod opponent;
mod overlay;
mod panels;
mod replay;
pub mod screens;
mod seats;
pub mod slots;
pub mod state;
mod terrain_art;
mod title;

pub use opponent::OPPONENTS_COMMAND;
pub use panels::HandoverShown;
pub use replay::{Replay, ReplayStep};
pub use title::TitleScreen;

use crate::rules::command::Command;
use crate::rules::{UnitId, save};
use crate::text::report;
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

/// The order of the table's egui layer each frame (in `EguiPrimaryContextPass`, at a table
/// only): docked panels take their room in the order they are shown (the turn bar first, the
/// side dock before the log beside it), and what is drawn later lies over what came before
/// (the board's labels under the hover card, the legend and the mini-map over the rest).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PanelSystems {
    /// The turn bar over the table.
    TurnBar,
    /// The notices between the docks.
    Banners,
    /// The side dock: tutor, dice, unit card.
    SideDock,
    /// The log, docked at the bottom beside the side dock.
    Log,
    /// The hotseat handover.
    Handover,
    /// The battle's result.
    GameOver,
    /// The rules reference.
    Reference,
    /// The tip beside a dragged base.
    DragTip,
    /// The scale bar.
    ScaleBar,
    /// The names and counters the board draws on the table.
    BoardLabels,
    /// The card of the unit under the pointer.
    HoverCard,
    /// The replay's controls.
    Replay,
    /// The scenario's briefing.
    Briefing,
    /// The legend.
    Legend,
    /// The mini-map.
    MiniMap,
}

/// Orders the panels and the board's labels, all at a table only.
fn order_the_panels(app: &mut App) {
    use PanelSystems::*;
    app.configure_sets(
        bevy_egui::EguiPrimaryContextPass,
        (
            TurnBar,
            Banners,
            SideDock,
            Log,
            Handover,
            GameOver,
            Reference,
            DragTip,
            ScaleBar,
            BoardLabels,
            HoverCard,
            Replay,
            Briefing,
            Legend,
            MiniMap,
        )
            .chain()
            .distributive_run_if(in_state(screens::InGame)),
    );
}

/// The game being played and what the screen knows about it.
#[derive(Resource)]
pub struct Game {
    /// The game in play: the battle and the rules it is played by.
    pub play: crate::rules::Game,
    /// Bumped whenever the battle changes, so drawing knows to refresh.
    pub version: u64,
    /// Which table is laid: a new one for every game and every save loaded over the last, so
    /// that the terrain is painted and the camera fitted afresh.
    pub table: u64,
    /// The last refusal, shown to the player in the refusal colour.
    pub message: Option<String>,
    /// A confirmation ("saved to ..."), shown in a neutral colour.
    pub notice: Option<String>,
    /// The save to load once the player confirms: the game in play would be lost.
    pub confirm_load: Option<PathBuf>,
    /// The slot (its file and name) to save over once the player confirms: it holds a game.
    pub confirm_save: Option<(PathBuf, String)>,
    /// The quicksave slot.
    pub save_path: PathBuf,
    /// Where the save slots and the autosave after every command go.
    pub save_dir: PathBuf,
    /// The side whose player has taken the seat (hotseat handover).
    pub seated: Option<usize>,
    /// A Fire or Fight waiting in the preview panel.
    pub pending: Option<Command>,
    /// Units highlighted from the log.
    pub highlight: Vec<UnitId>,
    /// The opponent's reasons: each with the length of the log before its command.
    pub reasons: Vec<(usize, String)>,
    /// The commands given when the opponent gave its latest (or when a game against it was
    /// loaded): Undo takes back the player's own commands since, never the opponent's.
    pub opponent_upto: usize,
    /// In a step the sides play in turn (`Ruleset::in_turns`) at a hotseat table: the turn,
    /// the step and the side that has played its part, while the other plays its own.
    pub passed: Option<(u32, crate::rules::model::Phase, usize)>,
    /// A new table leaves the camera where it is (the editor lays one at every change of its
    /// terrain, and fits the view itself).
    pub keep_view: bool,
}

/// What the player asked for.
#[derive(Message, Clone, Debug)]
pub enum Intent {
    Do(Command),
    Undo,
    /// Save to the quicksave slot (asking first if it holds a game).
    Save,
    /// Save to the slot of this name (asking first if it holds a game).
    SaveAs(String),
    /// Save over the slot asked about.
    OverwriteConfirmed,
    /// Keep the slot asked about as it is.
    CancelSave,
    /// Ask to load this save (the game in play would be lost).
    Load(PathBuf),
    /// Load the save asked about, replacing the game in play.
    LoadConfirmed,
    /// Keep the game in play.
    CancelLoad,
    /// Next, on a tutorial's reading step.
    Next,
    /// Do what the tutorial's step asks (its expected command).
    ShowMe,
    /// The opponent's command, with its reason for the log.
    Opponent(Command, String),
}

/// Where to save a screenshot before exiting, and after how many frames.
#[derive(Resource)]
struct ScreenshotRequest {
    path: PathBuf,
    frames: u32,
    taken: bool,
}

/// Where scenarios made in the editor go: beside the default scenario.
pub fn scenario_dir() -> PathBuf {
    crate::rules::scenario::default_path()
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("scenarios"))
}

/// Where saves go: `saves/` in the working directory.
pub fn default_save_dir() -> PathBuf {
    PathBuf::from("saves")
}

/// How the window starts.
pub enum Start {
    /// The title screen, with this scenario selected (and a screenshot to take, if any).
    Title(PathBuf, Option<PathBuf>),
    /// Straight into a game (a scenario or a save given on the command line).
    Play(crate::rules::Game),
    /// Render the game as staged, save a screenshot there and exit.
    Screenshot(crate::rules::Game, PathBuf, Stage),
    /// Render this many frames of the game (or of an empty window) and print frame times.
    Measure(Option<crate::rules::Game>, u32),
    /// The scenario editor on a draft; new scenarios are saved beside the default scenario.
    Edit(Box<crate::editor::Draft>),
}

/// What a screenshot shows besides the board: a selected unit, a unit under the pointer (its
/// card, and the selected unit's preview against it), and overlays switched on.
#[derive(Resource, Clone, Debug, Default)]
pub struct Stage {
    pub select: Option<UnitId>,
    pub hover: Option<UnitId>,
    /// Overlay names: arcs, zones, sight, reach, rules.
    pub overlays: Vec<String>,
    /// Zoom in this many times from the fitted table, about the selected unit (or the table's
    /// centre).
    pub zoom: Option<f32>,
}

impl Stage {
    /// The overlays switched on, or the name that is none of them.
    fn apply(&self, o: &mut input::Overlays) -> Result<(), String> {
        for name in &self.overlays {
            o.switch_on(name)?;
        }
        Ok(())
    }
}

/// Holds the staged selection and hover every frame, whatever the pointer does; a selected unit
/// and a hovered enemy open the preview of firing at or fighting it, as a click would.
fn stage_screenshot(
    stage: Res<Stage>,
    mut sel: ResMut<input::Selection>,
    mut ptr: ResMut<input::Pointer>,
    mut game: ResMut<Game>,
    mut opened: Local<bool>,
    mut frames: Local<u32>,
    mut cams: Query<(&mut Transform, &mut Projection), With<state::BoardCamera>>,
) {
    *frames += 1;
    if *frames == 5
        && let Some(z) = stage.zoom
    {
        let b = &game.play;
        let at = stage
            .select
            .as_ref()
            .and_then(|id| b.unit(id).ok())
            .map(|u| Vec2::new(u.base.centre.x, u.base.centre.y))
            .unwrap_or(Vec2::new(b.table.width / 2.0, b.table.height / 2.0));
        for (mut t, mut p) in &mut cams {
            if let Projection::Orthographic(o) = &mut *p {
                o.scale /= z.max(0.1);
            }
            t.translation = at.extend(t.translation.z);
        }
    }
    if stage.select.is_some() {
        sel.unit = stage.select.clone();
    }
    if stage.hover.is_some() {
        ptr.hover = stage.hover.clone();
    }
    if !*opened && let (Some(s), Some(h)) = (&stage.select, &stage.hover) {
        *opened = true;
        let (b, rules) = (&game.play.battle, &game.play.rules);
        game.pending = rules.target_command(b, s, h);
    }
}

/// Frame times gathered by `Start::Measure`.
#[derive(Resource)]
struct FrameStats {
    launched: std::time::Instant,
    first_frame: Option<std::time::Duration>,
    times: Vec<f32>,
    frames: u32,
}

fn measure_frames(
    mut stats: ResMut<FrameStats>,
    time: Res<Time>,
    mut exit: MessageWriter<AppExit>,
) {
    if stats.first_frame.is_none() {
        stats.first_frame = Some(stats.launched.elapsed());
        return;
    }
    stats.times.push(time.delta_secs() * 1000.0);
    if stats.times.len() as u32 >= stats.frames {
        // Skip the first frames, while pipelines compile.
        let mut t: Vec<f32> = stats.times.iter().copied().skip(20).collect();
        t.sort_by(f32::total_cmp);
        let median = t.get(t.len() / 2).copied().unwrap_or(0.0);
        let worst = t.last().copied().unwrap_or(0.0);
        println!(
            "frames {} median {:.2} ms worst {:.2} ms first frame after {:.0} ms",
            t.len(),
            median,
            worst,
            stats
                .first_frame
                .map(|d| d.as_secs_f32() * 1000.0)
                .unwrap_or(0.0)
        );
        exit.write(AppExit::Success);
    }
}

/// Opens the window.
pub fn run(start: Start) {
    run_with(start, Extras::default());
}

/// A window needs a display: on Linux, an X11 or Wayland one named in the environment. Without
/// one the player is told so plainly, rather than the windowing library failing.
fn display_present() -> Result<(), String> {
    if cfg!(target_os = "linux")
        && ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
            .iter()
            .all(|v| std::env::var_os(v).is_none_or(|x| x.is_empty()))
    {
        return Err(
            "no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is \
                    set); `volley run`, `volley check` and `volley batch` need none"
                .into(),
        );
    }
    Ok(())
}

/// Opens the window on a tutorial or a replay.
pub fn run_with(start: Start, extras: Extras) {
    if let Err(why) = display_present() {
        eprintln!("volley: {why}");
        std::process::exit(1);
    }
    let launched = std::time::Instant::now();
    let mut app = App::new();
    if let Start::Measure(None, frames) = start {
        // The baseline: an empty Bevy 2D window.
        app.add_plugins(DefaultPlugins)
            .insert_resource(FrameStats {
                launched,
                first_frame: None,
                times: Vec::new(),
                frames,
            })
            .add_systems(Startup, |mut commands: Commands| {
                commands.spawn(Camera2d);
            })
            .add_systems(Update, measure_frames);
        app.run();
        return;
    }
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "volley".into(),
            resolution: WindowResolution::from((1280u32, 720u32)),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .insert_resource(ClearColor(Color::srgb(0.16, 0.17, 0.19)))
    .add_plugins((core, order_the_panels))
    .add_plugins((
        camera::plugin,
        board::plugin,
        overlay::plugin,
        panels::plugin,
        title::plugin,
        editor::plugin,
    ));
    // A tutorial's first step is its briefing; a replay only shows the game.
    let briefed = extras.lesson.is_none() && extras.replay.is_none();
    if let Some((lesson, step)) = extras.lesson {
        let mut t = lesson::Tutoring::new(lesson);
        t.tutor.step = step;
        app.insert_resource(t);
    }
    if let Some(r) = extras.replay {
        app.insert_resource(r);
    }
    if let Some(side) = extras.opponent {
        let think = extras
            .think
            .unwrap_or(crate::players::planner::DEFAULT_THINK);
        app.insert_resource(opponent::Computer::thinking_for(side, think));
    }
    match start {
        Start::Edit(draft) => {
            app.insert_resource(editor::Editor::new(*draft, scenario_dir()))
                .insert_state(screens::Screen::Editor);
        }
        Start::Title(default, shot) => {
            app.insert_resource(title::TitleScreen::scan(&default, &default_save_dir()));
            if let Some(path) = shot {
                app.insert_resource(ScreenshotRequest {
                    path,
                    frames: 0,
                    taken: false,
                })
                .add_systems(Update, take_screenshot);
            }
        }
        Start::Play(battle) => {
            app.insert_resource(Game::new(battle, false, default_save_dir()))
                .insert_state(if briefed {
                    screens::Screen::Briefing
                } else {
                    screens::Screen::Playing
                });
        }
        Start::Measure(battle, frames) => {
            if let Some(b) = battle {
                app.insert_resource(Game::new(b, true, default_save_dir()))
                    .insert_state(screens::Screen::Playing);
            }
            app.insert_resource(FrameStats {
                launched,
                first_frame: None,
                times: Vec::new(),
                frames,
            })
            .add_systems(Update, measure_frames);
        }
        Start::Screenshot(battle, path, stage) => {
            let mut overlays = input::Overlays::default();
            if let Err(e) = stage.apply(&mut overlays) {
                eprintln!("{e}");
                return;
            }
            app.insert_resource(Game::new(battle, true, default_save_dir()))
                .insert_state(screens::Screen::Playing)
                .insert_resource(overlays)
                .insert_resource(stage)
                .add_systems(
                    Update,
                    stage_screenshot
                        .after(input::track_pointer)
                        .in_set(AppSystems::Input),
                )
                .insert_resource(ScreenshotRequest {
                    path,
                    frames: 0,
                    taken: false,
                })
                .add_systems(Update, take_screenshot);
        }
    }
    app.run();
}

impl Game {
    /// A game ready to play; `seated` skips the first handover screen.
    pub fn new(play: crate::rules::Game, seated: bool, save_dir: PathBuf) -> Self {
        let seat = if seated { Some(play.active) } else { None };
        Game {
            play,
            version: 1,
            table: next_table(),
            message: None,
            notice: None,
            confirm_load: None,
            confirm_save: None,
            save_path: save_dir.join("quicksave.ron"),
            save_dir,
            seated: seat,
            pending: None,
            highlight: Vec::new(),
            reasons: Vec::new(),
            opponent_upto: 0,
            passed: None,
            keep_view: false,
        }
    }
}

/// Tables laid so far in this program.
static TABLES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn next_table() -> u64 {
    TABLES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// True once for each new table: a game begun, or a save loaded over the game in play.
fn new_table(game: Option<Res<Game>>, mut laid: Local<u64>) -> bool {
    match game {
        Some(g) if g.table != *laid => {
            *laid = g.table;
            true
        }
        _ => false,
    }
}

/// Intents, their application and the input that makes them; no drawing.
fn core(app: &mut App) {
    // The wheel is read while dragging; registering it again is harmless where InputPlugin did.
    app.add_message::<Intent>()
        .add_message::<bevy::input::mouse::MouseWheel>()
        .configure_sets(
            Update,
            (AppSystems::Input, AppSystems::Apply, AppSystems::Draw).chain(),
        )
        // The table takes input only while the menu is closed; the menu exists at the table
        // and over a finished battle, not on the title or over the briefing.
        .configure_sets(
            Update,
            AppSystems::Input.run_if(in_state(screens::Menu::Closed)),
        )
        .configure_sets(Update, AppSystems::Apply.run_if(in_state(screens::InGame)))
        // The board is drawn at a table and in the editor.
        .configure_sets(
            Update,
            AppSystems::Draw
                .run_if(in_state(screens::InGame).or_else(in_state(screens::Screen::Editor))),
        )
        .add_systems(
            Update,
            (
                replay::replay_step
                    .run_if(resource_exists::<Replay>)
                    .run_if(in_state(screens::Menu::Closed)),
                apply_intents,
            )
                .chain()
                .in_set(AppSystems::Apply),
        )
        .add_plugins((
            screens::plugin,
            input::plugin,
            lesson::plugin,
            opponent::plugin,
            menu::plugin,
            slots::plugin,
        ));
}

/// The game, its intents and the input that makes them, without drawing: usable headless with
/// MinimalPlugins and StatesPlugin.
pub fn plugin(battle: crate::rules::Game, seated: bool, save_dir: PathBuf) -> impl Fn(&mut App) {
    let battle = std::sync::Mutex::new(Some(battle));
    move |app: &mut App| {
        let Some(battle) = battle.lock().ok().and_then(|mut b| b.take()) else {
            return;
        };
        app.add_plugins(core)
            .insert_resource(Game::new(battle, seated, save_dir.clone()))
            .insert_state(if seated {
                screens::Screen::Playing
            } else {
                screens::Screen::Briefing
            });
    }
}

/// Where a window's start puts a tutorial or a replay.
#[derive(Default)]
pub struct Extras {
    /// A tutorial, already played to this step.
    pub lesson: Option<(crate::text::lesson::Lesson, usize)>,
    /// A replay of the battle given.
    pub replay: Option<Replay>,
    /// The side the opponent plays (None: hotseat).
    pub opponent: Option<usize>,
    /// The plans the opponent judges a phase (None: its usual budget).
    pub think: Option<usize>,
}

/// What one player had on the screen: forgotten when the seat changes hands or a game is loaded,
/// so that nobody sees the other side's selection, arcs or targets.
fn forget_the_screen(game: &mut Game, sel: &mut input::Selection) {
    *sel = input::Selection::default();
    game.message = None;
    game.highlight.clear();
    game.pending = None;
}

/// Executes intents; a refusal changes nothing and is shown to the player.
fn apply_intents(
    mut intents: MessageReader<Intent>,
    mut game: ResMut<Game>,
    mut sel: ResMut<input::Selection>,
    mut tutoring: Option<ResMut<lesson::Tutoring>>,
    // The replay shown, and the handover screen.
    (replay, handover): (Option<Res<Replay>>, Option<Res<panels::HandoverShown>>),
    computer: Option<Res<opponent::Computer>>,
    mut commands: Commands,
) {
    // Who plays each side, as a save records it.
    let seats = save::Seats {
        opponent: computer.as_deref().map(|c| c.side),
        ..Default::default()
    };
    for intent in intents.read() {
        let busy = computer.as_deref().is_some_and(|c| c.busy(&game.play));
        let seat_empty = handover.as_deref().is_some_and(|h| h.0);
        if let Some(why) = not_now(intent, busy, seat_empty, replay.is_some()) {
            game.message = Some(why.into());
            continue;
        }
        if let Some(why) = computer.as_deref().and_then(|c| c.not_yours(&game, intent)) {
            game.message = Some(why);
            continue;
        }
        // The opponent's reason goes to the log beside its command's events.
        let reason = match intent {
            Intent::Opponent(_, why) if !why.is_empty() => Some((game.play.log.len(), why.clone())),
            _ => None,
        };
        // A tutorial judges every command before the battle sees it.
        let Some(intent) = tutor_judges(intent, tutoring.as_deref_mut(), &mut game) else {
            continue;
        };
        if file_intent(&intent, &mut game, &mut sel, &seats, &mut commands) {
            continue;
        }
        // At a hotseat table the first side's end of a step the sides play in turn hands the
        // seat on.
        if matches!(intent, Intent::Do(Command::EndPhase))
            && computer.is_none()
            && tutoring.is_none()
            && game.pass_in_turn()
        {
            forget_the_screen(&mut game, &mut sel);
            continue;
        }
        let active = game.acting_side();
        let Some(res) = carry_out(&intent, &mut game) else {
            continue;
        };
        if let (Intent::Do(_), Some(t)) = (&intent, tutoring.as_deref_mut()) {
            t.tutor.tried(&game.play, &res);
        }
        match res {
            Ok(()) => {
                if let Some(r) = reason {
                    game.reasons.push(r);
                }
                if matches!(intent, Intent::Opponent(..)) {
                    game.opponent_upto = game.play.commands.len();
                }
                done(&mut game, &mut sel, active, &seats, tutoring.is_some());
            }
            Err(e) => {
                game.notice = None;
                game.message = Some(report::refusal(&game.play, &e));
            }
        }
    }
}

/// Why an intent is not for now, if it is not: while the opponent plays its part the player's
/// hands are off the table; while the handover screen is up the seat is empty; a replay only
/// shows the game.
fn not_now(intent: &Intent, busy: bool, seat_empty: bool, replay: bool) -> Option<&'static str> {
    let plays = matches!(intent, Intent::Do(_) | Intent::Undo | Intent::ShowMe);
    if busy && plays {
        Some("the opponent is playing its part: wait, or press Skip")
    } else if seat_empty && plays {
        Some("take the seat first")
    } else if replay
        && matches!(
            intent,
            Intent::Do(_)
                | Intent::Opponent(..)
                | Intent::Undo
                | Intent::Load(_)
                | Intent::LoadConfirmed
                | Intent::ShowMe
        )
    {
        Some("a replay only shows the game: close it to play")
    } else {
        None
    }
}

/// A tutorial's judgement of an intent: the intent to carry out (Show me becomes the step's
/// example), or None where the tutor has dealt with it (read on, a wrong command, a lesson's
/// refusal to go back).
fn tutor_judges(
    intent: &Intent,
    tutoring: Option<&mut lesson::Tutoring>,
    game: &mut Game,
) -> Option<Intent> {
    use crate::text::lesson::{Expect, Verdict, advance};
    let Some(t) = tutoring else {
        return match intent {
            Intent::Next | Intent::ShowMe => None,
            _ => Some(intent.clone()),
        };
    };
    match intent {
        Intent::Next => {
            // The refusal a step showed has been read: it does not follow to the next.
            game.message = None;
            t.tutor.read_on();
            None
        }
        Intent::ShowMe => {
            let Some(c) = t.tutor.current().and_then(|s| s.expect.example()) else {
                t.tutor.read_on();
                return None;
            };
            // The tutor judges its own example too: a try that has become legal is not
            // carried out.
            if let Verdict::Wrong(words) = t.tutor.judge(&game.play, c) {
                t.tutor.said = Some(words);
                return None;
            }
            // A step that allowed any command of a kind may have left the lesson's path: Show
            // me puts the battle back on it, as the steps so far played it.
            let doable = game.play.clone().execute(c.clone()).is_ok();
            let is_do = matches!(
                t.tutor.current().map(|s| &s.expect),
                Some(Expect::Do { .. })
            );
            if !doable
                && is_do
                && let Some(mut again) = t.start.clone()
                && advance(&t.tutor.lesson, &mut again, t.tutor.step).is_ok()
            {
                game.play = again;
                game.version += 1;
            }
            Some(Intent::Do(c.clone()))
        }
        Intent::Undo | Intent::Load(_) | Intent::LoadConfirmed => {
            t.tutor.said = Some("A lesson goes forwards only: its dice are set.".into());
            None
        }
        Intent::Do(c) => {
            if let Verdict::Wrong(words) = t.tutor.judge(&game.play, c) {
                t.tutor.said = Some(words);
                return None;
            }
            Some(intent.clone())
        }
        _ => Some(intent.clone()),
    }
}

/// Saving and loading: asked, confirmed or let go. Returns whether the intent was one of them.
fn file_intent(
    intent: &Intent,
    game: &mut Game,
    sel: &mut input::Selection,
    seats: &save::Seats,
    commands: &mut Commands,
) -> bool {
    match intent {
        Intent::Load(path) => game.confirm_load = Some(path.clone()),
        Intent::CancelLoad => game.confirm_load = None,
        Intent::Save => {
            let path = game.save_path.clone();
            save_or_ask(game, seats, path, "quicksave".into());
        }
        Intent::SaveAs(name) => {
            let path = slots::slot_path(&game.save_dir, name);
            save_or_ask(game, seats, path, name.trim().to_string());
        }
        Intent::CancelSave => game.confirm_save = None,
        Intent::OverwriteConfirmed => {
            if let Some((path, name)) = game.confirm_save.take() {
                save_to(game, seats, &path, &name);
            }
        }
        Intent::LoadConfirmed => {
            if let Some(path) = game.confirm_load.take() {
                load_over(game, sel, &path, commands);
            }
        }
        _ => return false,
    }
    true
}

/// Loads the save at `path` over the game in play, with the seats it was saved with (against
/// the opponent, or hotseat); a save that does not load leaves the game as it was and says why.
fn load_over(
    game: &mut Game,
    sel: &mut input::Selection,
    path: &std::path::Path,
    commands: &mut Commands,
) {
    match save::load_seated(path) {
        Ok((b, saved)) => {
            game.play = b;
            game.version += 1;
            game.table = next_table();
            game.seat_opponent_loaded(saved.opponent, commands);
            forget_the_screen(game, sel);
            game.message = None;
            game.notice = Some(format!("loaded {}", path.display()));
        }
        Err(d) => {
            game.notice = None;
            game.message = Some(
                d.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("; "),
            )
        }
    }
}

/// A command given to the battle, or taken back: its result, or None for an intent that is
/// neither (or an undo refused because dice were rolled, said to the player).
fn carry_out(
    intent: &Intent,
    game: &mut Game,
) -> Option<Result<(), crate::rules::command::RuleError>> {
    match intent {
        Intent::Do(c) | Intent::Opponent(c, _) => Some(game.play.execute(c.clone()).map(|_| ())),
        Intent::Undo if game.play.last_command_rolled() => {
            game.message = Some(
                "dice have been rolled or the phase has ended: that cannot be taken back".into(),
            );
            None
        }
        Intent::Undo if game.opponents_last() => {
            game.message = Some(OPPONENTS_COMMAND.into());
            None
        }
        Intent::Undo => {
            let r = game.play.undo().map(|_| ());
            let len = game.play.log.len();
            game.reasons.retain(|(at, _)| *at < len);
            Some(r)
        }
        _ => None,
    }
}

/// After a command carried out: the battle has changed, the words of the last refusal go, the
/// screen is forgotten if the seat changed hands, and the game is autosaved (not a lesson, which
/// is no game to resume, nor a finished battle, which is not offered for resuming; failing to
/// write it is not fatal).
fn done(
    game: &mut Game,
    sel: &mut input::Selection,
    active: usize,
    seats: &save::Seats,
    lesson: bool,
) {
    game.version += 1;
    game.message = None;
    game.notice = None;
    game.pending = None;
    if game.acting_side() != active {
        forget_the_screen(game, sel);
    }
    let auto = game.save_dir.join("autosave.ron");
    if lesson {
        // A lesson is not a game to resume: the player's autosave stays as it was.
    } else if game.play.is_over() {
        let _ = std::fs::remove_file(&auto);
    } else if std::fs::create_dir_all(&game.save_dir).is_ok() {
        let _ = save::write_seated(&game.play, seats, &auto);
    }
}

/// Saves to the slot at `path`, or, where it holds a game, asks first.
fn save_or_ask(game: &mut Game, seats: &save::Seats, path: PathBuf, name: String) {
    if path.exists() {
        game.confirm_save = Some((path, name));
    } else {
        save_to(game, seats, &path, &name);
    }
}

/// Writes the game in play into the slot `name` at `path`, and says so.
fn save_to(game: &mut Game, seats: &save::Seats, path: &std::path::Path, name: &str) {
    let res = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .map_err(|e| e.to_string())
        .and_then(|_| save::write_named(&game.play, seats, name, path));
    match res {
        Ok(()) => {
            game.message = None;
            game.notice = Some(format!("saved \"{name}\" ({})", path.display()));
        }
        Err(e) => {
            game.notice = None;
            game.message = Some(e);
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
