//! The scenario editor's screen: the draft laid on the table as the board draws a game, with
//! tools to draw terrain, place units, objectives and deployment zones, and move, turn, reshape,
//! copy and delete them; every problem the checks find shown on its thing at once; undo and
//! redo; save, and play from here. The scenario itself is `crate::editor`'s: this file only
//! turns the mouse and keys into its edits.

mod draw;
mod fields;
mod panels;

use super::Game;
use super::state::{BoardCamera, Screen};
use crate::editor::{Checked, Draft, Thing, edge_near, hit, vertex_near};
use crate::rules::scenario::{RawFeature, RawPt, RawTable, RawZone};
use crate::rules::terrain::FeatureKind;
use bevy::prelude::*;
use std::path::PathBuf;

/// What a click on the table does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Pick a thing; drag it, or a corner of the picked feature.
    Select,
    /// Click the corners of a terrain feature; Enter finishes it.
    Terrain,
    /// Click to place units of the chosen troop type for the chosen side.
    Units,
    /// Click to place an objective.
    Objective,
    /// Drag a side's deployment zone.
    Zone,
}

impl Tool {
    pub const ALL: [Tool; 5] = [
        Tool::Select,
        Tool::Terrain,
        Tool::Units,
        Tool::Objective,
        Tool::Zone,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Tool::Select => "Select and move",
            Tool::Terrain => "Draw terrain",
            Tool::Units => "Place units",
            Tool::Objective => "Place objectives",
            Tool::Zone => "Deployment zones",
        }
    }
    /// The number key that picks it.
    pub fn key(self) -> usize {
        Tool::ALL.iter().position(|t| *t == self).unwrap_or(0) + 1
    }
}

/// A drag begun on the table.
#[derive(Clone, Debug, PartialEq)]
pub struct EditDrag {
    pub thing: Thing,
    /// A corner of a feature being moved.
    pub vertex: Option<usize>,
    pub from: RawPt,
    pub to: RawPt,
}

/// How units are placed: one at a time, or a body of them in a line or a column.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    pub count: usize,
    pub column: bool,
}

/// The editor's state: the draft, its checks, and the tools.
#[derive(Resource)]
pub struct Editor {
    pub draft: Draft,
    pub checked: Checked,
    pub tool: Tool,
    pub selected: Option<Thing>,
    /// The side units and zones are placed for.
    pub side: usize,
    /// The troop type units are placed as.
    pub troop: String,
    pub kind: FeatureKind,
    pub body: Body,
    /// The corners of the feature being drawn.
    pub sketch: Vec<RawPt>,
    pub drag: Option<EditDrag>,
    /// What went wrong last, and what was done last, for the status line.
    pub message: Option<String>,
    pub notice: Option<String>,
    /// Where a new scenario is saved when it has no file yet.
    pub scenario_dir: PathBuf,
    /// The draft as last laid on the table: its terrain, zones and table.
    laid: Option<(Vec<RawFeature>, Vec<RawZone>, RawTable)>,
    /// The draft as last checked.
    checked_raw: Option<crate::rules::scenario::RawScenario>,
    /// A playtest to start (the side the opponent plays; none: hotseat).
    pub play: Option<Option<usize>>,
    /// Back to the title.
    pub leave: bool,
    /// The last quick batch's report.
    pub batch: Option<String>,
    /// The view is to be fitted to the table between the panels.
    pub fit_pending: bool,
    /// Points clicked and drags snap to the grid (`grid`).
    pub snap: bool,
}

/// The cursor on the table in mm, and whether the editor's panels have it.
#[derive(Resource, Default)]
pub struct EditorPointer {
    pub world: Option<Vec2>,
    pub over_panels: bool,
}

impl Editor {
    /// An editor on a draft; new scenarios go in `scenario_dir`.
    pub fn new(draft: Draft, scenario_dir: PathBuf) -> Editor {
        let troop = draft
            .rules()
            .ok()
            .and_then(|r| r.troop_codes().first().cloned())
            .unwrap_or_default();
        let checked = draft.check();
        Editor {
            checked_raw: Some(draft.raw().clone()),
            draft,
            checked,
            tool: Tool::Select,
            selected: None,
            side: 0,
            troop,
            kind: FeatureKind::Woods,
            body: Body {
                count: 1,
                column: false,
            },
            sketch: Vec::new(),
            drag: None,
            message: None,
            notice: None,
            scenario_dir,
            laid: None,
            play: None,
            leave: false,
            batch: None,
            fit_pending: true,
            snap: false,
        }
    }

    /// The file a playable save goes to: the draft's own, else one named for the scenario in
    /// `scenario_dir` (a draft's own file less its `.draft`).
    pub fn save_path(&self) -> PathBuf {
        match &self.draft.path {
            Some(p) => {
                let s = p.to_string_lossy();
                PathBuf::from(s.replace(".draft.ron", ".ron"))
            }
            None => self
                .scenario_dir
                .join(format!("{}.ron", file_stem(&self.draft.raw().name))),
        }
    }

    /// The file a draft is saved to: beside the scenario, marked `.draft.ron`.
    pub fn draft_path(&self) -> PathBuf {
        self.save_path().with_extension("draft.ron")
    }

    /// Saves as a playable scenario, or says what stands in the way.
    pub fn save(&mut self, playable: bool) {
        let path = if playable {
            self.save_path()
        } else {
            self.draft_path()
        };
        match self.draft.save(&path, playable) {
            Ok(()) => {
                self.message = None;
                self.notice = Some(format!(
                    "saved {} to {}",
                    if playable { "the scenario" } else { "a draft" },
                    path.display()
                ));
            }
            Err(m) => self.message = Some(m),
        }
    }

    pub fn undo(&mut self) {
        self.drag = None;
        match self.draft.undo() {
            Some(l) => self.notice = Some(format!("undid: {l}")),
            None => self.message = Some("nothing to undo".into()),
        }
        self.forget_missing();
    }

    pub fn redo(&mut self) {
        self.drag = None;
        match self.draft.redo() {
            Some(l) => self.notice = Some(format!("redid: {l}")),
            None => self.message = Some("nothing to redo".into()),
        }
        self.forget_missing();
    }

    /// Drops a selection that the last change took away.
    fn forget_missing(&mut self) {
        let r = self.draft.raw();
        let exists = match self.selected {
            Some(Thing::Unit(i)) => i < r.units.len(),
            Some(Thing::Feature(i)) => i < r.terrain.len(),
            Some(Thing::Zone(i)) => i < r.deployment.len(),
            Some(Thing::Objective(i)) => i < r.objectives.len(),
            Some(Thing::Side(i)) => i < r.sides.len(),
            Some(Thing::Scenario) | None => true,
        };
        if !exists {
            self.selected = None;
        }
    }

    /// The grid things snap to, in mm: an inch, or 50 paces at the scenario's scale.
    pub fn grid(&self) -> f32 {
        let unit = self.draft.rules().map(|r| r.measure());
        let step = match unit {
            Ok(crate::rules::ruleset::Measure::Paces) => 50.0,
            _ => 1.0,
        };
        step * self.draft.mm_per_unit()
    }

    /// A point of the table on the grid, where snapping is on.
    fn snapped(&self, at: RawPt) -> RawPt {
        if !self.snap {
            return at;
        }
        let g = self.grid().max(0.1);
        ((at.0 / g).round() * g, (at.1 / g).round() * g)
    }

    /// The facing a side's units are placed with: towards the other side's half of the table
    /// (the first side's from the bottom edge up, the second's down).
    pub fn facing(&self) -> f32 {
        if self.side == 0 { 0.0 } else { 180.0 }
    }

    /// Finishes the feature being drawn, where it has corners enough.
    pub fn finish_sketch(&mut self) {
        let least = if self.kind.is_linear() { 2 } else { 3 };
        if self.sketch.len() < least {
            self.message = Some(format!(
                "a {} needs at least {least} corners: click on the table to add them",
                self.kind.name()
            ));
            return;
        }
        let pts = std::mem::take(&mut self.sketch);
        let i = self.draft.add_feature(self.kind, pts);
        self.selected = Some(Thing::Feature(i));
        self.notice = Some(format!("drew {}", self.draft.raw().terrain[i].id));
    }

    /// Deletes the thing picked.
    pub fn delete_selected(&mut self) {
        if let Some(t) = self.selected.take() {
            self.draft.delete(t);
            self.notice = Some("deleted".into());
        }
    }

    /// Copies the thing picked, a little aside, and picks the copy.
    pub fn copy_selected(&mut self) {
        if let Some(t) = self.selected {
            let by = 20.0;
            if let Some(c) = self.draft.copy(t, (by, -by)) {
                self.selected = Some(c);
                self.notice = Some("copied".into());
            }
        }
    }

    /// Turns the picked unit by `by` degrees.
    pub fn turn_selected(&mut self, by: f32) {
        if let Some(Thing::Unit(i)) = self.selected
            && let Some(u) = self.draft.raw().units.get(i)
        {
            let f = u.facing + by;
            self.draft.face(i, f);
        }
    }

    /// A click (press) on the table at `at`, with Ctrl held or not.
    pub fn press(&mut self, at: RawPt, ctrl: bool) {
        self.message = None;
        // Picking and corners are found where the pointer is; what is set down, on the grid.
        let put = self.snapped(at);
        let reach = 8.0;
        match self.tool {
            Tool::Select => {
                if let Some(Thing::Feature(f)) = self.selected {
                    let raw = self.draft.raw();
                    if let Some(v) = vertex_near(raw, f, at, reach) {
                        if ctrl {
                            self.draft.remove_vertex(f, v);
                        } else {
                            self.drag = Some(EditDrag {
                                thing: Thing::Feature(f),
                                vertex: Some(v),
                                from: at,
                                to: at,
                            });
                        }
                        return;
                    }
                    if ctrl && let Some(e) = edge_near(raw, f, at, reach) {
                        self.draft.insert_vertex(f, e, at);
                        return;
                    }
                }
                let game = self.checked.game.as_ref();
                self.selected = hit(self.draft.raw(), game, at, 2.0);
                if let Some(thing) = self.selected {
                    self.drag = Some(EditDrag {
                        thing,
                        vertex: None,
                        from: at,
                        to: at,
                    });
                }
            }
            Tool::Terrain => self.sketch.push(crate::editor::tidy_pt(put)),
            Tool::Units => {
                let troop = self.troop.clone();
                let placed = self.draft.add_body(
                    self.side,
                    &troop,
                    self.body.count,
                    put,
                    self.facing(),
                    self.body.column,
                );
                self.selected = placed.first().map(|i| Thing::Unit(*i));
            }
            Tool::Objective => {
                let i = self.draft.add_objective(put);
                self.selected = Some(Thing::Objective(i));
            }
            Tool::Zone => {
                self.drag = Some(EditDrag {
                    thing: Thing::Side(self.side),
                    vertex: None,
                    from: put,
                    to: put,
                });
            }
        }
    }

    /// The pointer moved to `at` with the button held.
    pub fn drag_to(&mut self, at: RawPt) {
        let Some(d) = &self.drag else { return };
        // A drag moves by whole steps of the grid; a corner or a zone's corner goes onto it.
        let to = if !self.snap {
            at
        } else if d.vertex.is_some() || matches!(d.thing, Thing::Side(_)) {
            self.snapped(at)
        } else {
            let g = self.grid().max(0.1);
            let (dx, dy) = (at.0 - d.from.0, at.1 - d.from.1);
            (
                d.from.0 + (dx / g).round() * g,
                d.from.1 + (dy / g).round() * g,
            )
        };
        if let Some(d) = &mut self.drag {
            d.to = to;
        }
    }

    /// The button let go: a drag becomes its edit.
    pub fn release(&mut self) {
        let Some(d) = self.drag.take() else { return };
        let (dx, dy) = (d.to.0 - d.from.0, d.to.1 - d.from.1);
        let moved = dx.abs() > 0.5 || dy.abs() > 0.5;
        match (d.thing, d.vertex) {
            (Thing::Feature(f), Some(v)) if moved => {
                // The corner dragged may be gone (deleted mid-drag): nothing to set.
                let Some(p) = self
                    .draft
                    .raw()
                    .terrain
                    .get(f)
                    .and_then(|x| x.points.get(v))
                else {
                    return;
                };
                let p = *p;
                let to = if self.snap {
                    d.to
                } else {
                    (p.0 + dx, p.1 + dy)
                };
                self.draft.set_vertex(f, v, to);
            }
            (Thing::Side(side), None) if moved => {
                let i = self.draft.add_zone(side, d.from, d.to);
                self.selected = Some(Thing::Zone(i));
            }
            (Thing::Side(_), None) => {}
            (thing, None) if moved => self.draft.move_by(thing, dx, dy),
            _ => {}
        }
    }

    /// Checks the draft again where it changed, and lays it on the table: the game resource
    /// takes what passed; a new table is laid where the terrain, the zones or the table
    /// changed (the camera stays where it is).
    fn recheck(&mut self, game: Option<&mut Game>) -> Option<Game> {
        if self.checked_raw.as_ref() == Some(self.draft.raw()) && game.is_some() {
            return None;
        }
        self.checked = self.draft.check();
        self.checked_raw = Some(self.draft.raw().clone());
        // The table is painted afresh only where what it shows changed: not for a name (the
        // names are written over it), so typing one stays quick.
        let r = self.draft.raw();
        let mut ground = r.terrain.clone();
        ground.iter_mut().for_each(|f| f.name.clear());
        let lay = (ground, r.deployment.clone(), r.table.clone());
        let relay = self.laid.as_ref() != Some(&lay);
        self.laid = Some(lay);
        let play = self.checked.game.clone()?;
        match game {
            Some(g) => {
                g.play = play;
                g.version += 1;
                if relay {
                    g.table = super::next_table();
                }
                g.keep_view = true;
                None
            }
            None => {
                let mut g = Game::new(play, true, super::default_save_dir());
                g.keep_view = true;
                Some(g)
            }
        }
    }
}

/// A file name made of a scenario's name.
fn file_stem(name: &str) -> String {
    crate::editor::joined(name, '_').unwrap_or_else(|| "scenario".into())
}

/// The editor without its drawing and panels: usable headless (MinimalPlugins, StatesPlugin
/// and input resources), as the window uses it.
pub fn core(app: &mut App) {
    app.init_resource::<EditorPointer>()
        .add_systems(OnEnter(Screen::Editor), enter)
        .add_systems(
            Update,
            (track_pointer, keys, wheel, mouse, lay, leave)
                .chain()
                .run_if(in_state(Screen::Editor))
                .run_if(resource_exists::<Editor>),
        );
}

/// The window's editor: the core, the drawing over the board and the panels.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((core, draw::plugin, panels::plugin));
}

/// The editor opened headless on a draft (tests).
pub fn headless(draft: Draft, scenario_dir: PathBuf) -> impl Fn(&mut App) {
    let once = std::sync::Mutex::new(Some(draft));
    move |app: &mut App| {
        let Some(draft) = once.lock().ok().and_then(|mut d| d.take()) else {
            return;
        };
        app.add_plugins(super::core)
            .add_plugins(core)
            .insert_resource(Editor::new(draft, scenario_dir.clone()))
            .insert_state(Screen::Editor);
    }
}

/// On entering the editor (from the title, the command line or a playtest): the table shows
/// the draft, and the game's own selection is forgotten.
fn enter(
    mut commands: Commands,
    editor: Option<ResMut<Editor>>,
    mut game: Option<ResMut<Game>>,
    sel: Option<ResMut<super::state::Selection>>,
) {
    let Some(mut editor) = editor else { return };
    if let Some(mut s) = sel {
        *s = Default::default();
    }
    // The playtest's game leaves; the draft is laid afresh.
    editor.checked_raw = None;
    editor.laid = None;
    editor.fit_pending = true;
    commands.remove_resource::<super::opponent::Computer>();
    if let Some(new) = editor.recheck(game.as_deref_mut()) {
        commands.insert_resource(new);
    }
}

/// The cursor's place on the table (a headless app sets it itself).
fn track_pointer(
    windows: Query<&Window>,
    cams: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mut ptr: ResMut<EditorPointer>,
) {
    if windows.is_empty() {
        return;
    }
    ptr.world = super::camera::cursor_world(&windows, &cams);
}

fn ctrl(keys: &ButtonInput<KeyCode>) -> bool {
    keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight])
}

/// The keys: tools by number, Enter finishes a feature, Esc lets go, Delete deletes, Q and E
/// turn a unit, Tab changes side, [ and ] step through troop types or terrain kinds, G snaps
/// to the grid, Ctrl+Z undo, Ctrl+Y redo, Ctrl+D copy, Ctrl+S save.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut editor: ResMut<Editor>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    if egui.is_some_and(|e| e.wants_any_keyboard_input()) {
        return;
    }
    let e = editor.as_mut();
    let c = ctrl(&keys);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let digits = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
    ];
    for (i, k) in digits.iter().enumerate() {
        if keys.just_pressed(*k) && !c {
            e.tool = Tool::ALL[i];
            e.sketch.clear();
            e.drag = None;
        }
    }
    if c && keys.just_pressed(KeyCode::KeyZ) {
        if shift { e.redo() } else { e.undo() }
    }
    if c && keys.just_pressed(KeyCode::KeyY) {
        e.redo();
    }
    if c && keys.just_pressed(KeyCode::KeyS) {
        e.save(!shift);
    }
    if c && keys.just_pressed(KeyCode::KeyD) {
        e.copy_selected();
    }
    if keys.just_pressed(KeyCode::Enter) && e.tool == Tool::Terrain {
        e.finish_sketch();
    }
    if keys.just_pressed(KeyCode::Escape) {
        if e.sketch.is_empty() && e.drag.is_none() {
            e.selected = None;
        }
        e.sketch.clear();
        e.drag = None;
    }
    if keys.any_just_pressed([KeyCode::Delete, KeyCode::Backspace]) {
        if e.tool == Tool::Terrain && !e.sketch.is_empty() {
            e.sketch.pop();
        } else {
            e.delete_selected();
        }
    }
    let step = if shift { 5.0 } else { 15.0 };
    if keys.just_pressed(KeyCode::KeyQ) {
        e.turn_selected(-step);
    }
    if keys.just_pressed(KeyCode::KeyE) {
        e.turn_selected(step);
    }
    if keys.just_pressed(KeyCode::Tab) {
        e.side = 1 - e.side.min(1);
    }
    if keys.just_pressed(KeyCode::Home) {
        e.fit_pending = true;
    }
    if keys.just_pressed(KeyCode::KeyG) && !c {
        e.snap = !e.snap;
    }
    let by: isize = if keys.just_pressed(KeyCode::BracketRight) {
        1
    } else if keys.just_pressed(KeyCode::BracketLeft) {
        -1
    } else {
        0
    };
    if by != 0 {
        step_choice(e, by);
    }
}

/// The next (or previous) troop type with the units tool, terrain kind with the terrain tool.
fn step_choice(e: &mut Editor, by: isize) {
    let turn = |i: usize, n: usize| (i as isize + by).rem_euclid(n.max(1) as isize) as usize;
    if e.tool == Tool::Terrain {
        let all = FeatureKind::ALL;
        let i = all.iter().position(|k| *k == e.kind).unwrap_or(0);
        e.kind = all[turn(i, all.len())];
        e.sketch.clear();
    } else if let Ok(r) = e.draft.rules() {
        let codes = r.troop_codes();
        let i = codes.iter().position(|c| *c == e.troop).unwrap_or(0);
        if let Some(c) = codes.get(turn(i, codes.len())) {
            e.troop = c.clone();
        }
    }
}

/// The wheel zooms to the cursor over the table.
fn wheel(
    mut wheel: MessageReader<bevy::input::mouse::MouseWheel>,
    ptr: Res<EditorPointer>,
    windows: Query<&Window>,
    mut cams: Query<
        (&Camera, &GlobalTransform, &mut Transform, &mut Projection),
        With<BoardCamera>,
    >,
) {
    let dy: f32 = wheel
        .read()
        .map(|w| match w.unit {
            bevy::input::mouse::MouseScrollUnit::Line => w.y,
            bevy::input::mouse::MouseScrollUnit::Pixel => w.y / 100.0,
        })
        .sum();
    if !ptr.over_panels {
        super::camera::zoom_at_cursor(dy, &windows, &mut cams);
    }
}

/// The left button on the table: press, drag, release.
fn mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    ptr: Res<EditorPointer>,
    mut editor: ResMut<Editor>,
) {
    let Some(w) = ptr.world else { return };
    let at = (w.x, w.y);
    if buttons.just_pressed(MouseButton::Left) && !ptr.over_panels {
        editor.press(at, ctrl(&keys));
    } else if buttons.pressed(MouseButton::Left) {
        editor.drag_to(at);
    }
    if buttons.just_released(MouseButton::Left) {
        editor.drag_to(at);
        editor.release();
    }
}

/// After each change: the checks again, and the table laid with what passed.
fn lay(mut commands: Commands, mut editor: ResMut<Editor>, game: Option<ResMut<Game>>) {
    let mut game = game;
    if let Some(new) = editor.recheck(game.as_deref_mut()) {
        commands.insert_resource(new);
    }
}

/// Leaves the editor: for a playtest of the draft (back to it from the game menu), or for the
/// title.
fn leave(mut commands: Commands, mut editor: ResMut<Editor>, mut next: ResMut<NextState<Screen>>) {
    if editor.leave {
        editor.leave = false;
        commands.remove_resource::<Editor>();
        next.set(Screen::Title);
        return;
    }
    let Some(against) = editor.play.take() else {
        return;
    };
    let checked = editor.draft.check();
    match (checked.game, checked.problems.first()) {
        (Some(play), None) => {
            if let Some(side) = against {
                commands.insert_resource(super::opponent::Computer::new(side));
            }
            commands.insert_resource(Game::new(play, false, super::default_save_dir()));
            next.set(Screen::Briefing);
        }
        (_, first) => {
            editor.message = Some(format!(
                "it cannot be played while problems stand: {}",
                first.map_or("the scenario does not load", |p| p.message.as_str())
            ));
        }
    }
}
