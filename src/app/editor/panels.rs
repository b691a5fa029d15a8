//! The editor's panels: the file and play bar at the top, the tools on the left, the picked
//! thing's fields (or the scenario's) with its problems on the right, the measure and the last
//! word at the bottom; and the objectives' names on the table.

use super::{Editor, EditorPointer, Tool};
use crate::app::Game;
use crate::app::state::BoardCamera;
use crate::editor::{Draft, Thing};
use crate::rules::ruleset::{KNOWN_RULESETS, ScenarioField};
use crate::rules::terrain::FeatureKind;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TextEdit>().add_systems(
        EguiPrimaryContextPass,
        (panels, names_on_table)
            .chain()
            .run_if(in_state(crate::app::state::Screen::Editor))
            .run_if(resource_exists::<Editor>),
    );
}

/// A thing's RON being edited by hand in the fields panel: the thing, the text, and why it
/// does not read.
#[derive(Resource, Default)]
pub(super) struct TextEdit {
    pub(super) thing: Option<Thing>,
    /// The thing as the file wrote it when the text was taken: a change made elsewhere (a
    /// drag, undo) takes the text afresh.
    pub(super) seen: String,
    pub(super) text: String,
    pub(super) error: Option<String>,
    /// A quick batch running: its report when done.
    batch: Option<std::sync::Arc<std::sync::Mutex<Option<String>>>>,
}

pub(super) const RED: egui::Color32 = egui::Color32::from_rgb(255, 110, 100);

fn panels(
    mut ctx: EguiContexts,
    mut editor: ResMut<Editor>,
    mut ptr: ResMut<EditorPointer>,
    mut text: ResMut<TextEdit>,
    game: Option<Res<Game>>,
    mut cams: Query<(&mut Transform, &mut Projection), With<BoardCamera>>,
    mut settling: Local<(u8, Option<egui::Rect>)>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let e = editor.as_mut();
    let view = ctx.viewport_rect();
    let mut root = egui::Ui::new(
        ctx.clone(),
        egui::Id::new("editor_root"),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(view),
    );
    let top = egui::Panel::top("editor_top")
        .show(&mut root, |ui| top_bar(ui, e, &mut text))
        .response
        .rect;
    let bottom = egui::Panel::bottom("editor_status")
        .show(&mut root, |ui| status(ui, e, &ptr))
        .response
        .rect;
    let left = egui::Panel::left("editor_tools")
        .resizable(false)
        .default_size(220.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("tools")
                .show(ui, |ui| tools(ui, e))
        })
        .response
        .rect;
    let right = egui::Panel::right("editor_fields")
        .resizable(true)
        .default_size(330.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("fields")
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    super::fields::fields(ui, e, &mut text, game.as_deref())
                })
        })
        .response
        .rect;
    poll_batch(e, &mut text);
    // The table fitted between the panels, again each frame until the room between them has
    // held still for a few frames (the panels take their widths from what they show).
    let room = egui::Rect::from_min_max(
        egui::pos2(left.right(), top.bottom()),
        egui::pos2(right.left(), bottom.top()),
    );
    if e.fit_pending
        && let Some(g) = game.as_deref()
        && let Ok((mut t, mut proj)) = cams.single_mut()
        && let Projection::Orthographic(o) = proj.as_mut()
    {
        let (tw, th) = (g.play.table.width, g.play.table.height);
        let scale =
            (tw / (room.width() - 16.0).max(200.0)).max(th / (room.height() - 16.0).max(200.0));
        let centre = view.center();
        t.translation.x = tw / 2.0 - (room.center().x - centre.x) * scale;
        t.translation.y = th / 2.0 + (room.center().y - centre.y) * scale;
        o.scale = scale;
        let (held, last) = &mut *settling;
        *held = if *last == Some(room) { *held + 1 } else { 0 };
        *last = Some(room);
        if *held >= 3 {
            e.fit_pending = false;
            *held = 0;
        }
    }
    ptr.over_panels = ctx.input(|i| i.pointer.latest_pos()).is_some_and(|p| {
        top.contains(p) || bottom.contains(p) || left.contains(p) || right.contains(p)
    }) || ctx
        .input(|i| i.pointer.latest_pos())
        .and_then(|p| ctx.layer_id_at(p))
        .is_some_and(|l| l.order != egui::Order::Background);
    Ok(())
}

/// New, save, undo and redo, play and leave.
fn top_bar(ui: &mut egui::Ui, e: &mut Editor, text: &mut TextEdit) {
    ui.horizontal_wrapped(|ui| {
        ui.strong(format!(
            "Scenario editor: {}{}",
            e.draft.raw().name,
            if e.draft.dirty() { " *" } else { "" }
        ));
        ui.separator();
        ui.menu_button("New", |ui| {
            for id in KNOWN_RULESETS {
                let name = crate::rules::ruleset::AnyRuleset::load(id)
                    .map(|r| r.name().to_string())
                    .unwrap_or_else(|_| id.to_string());
                if ui.button(name).clicked()
                    && let Ok(d) = Draft::new(id)
                {
                    *e = Editor::new(d, e.scenario_dir.clone());
                    ui.close();
                }
            }
        });
        ui.menu_button("Open", |ui| {
            let mut files: Vec<_> = std::fs::read_dir(&e.scenario_dir)
                .map(|r| {
                    r.filter_map(|x| x.ok().map(|x| x.path()))
                        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                        .collect()
                })
                .unwrap_or_default();
            files.sort();
            egui::ScrollArea::vertical()
                .max_height(400.0)
                .show(ui, |ui| {
                    for f in files {
                        let name = f.file_name().map(|n| n.to_string_lossy().to_string());
                        if ui.button(name.unwrap_or_default()).clicked() {
                            match Draft::open(&f) {
                                Ok(d) => *e = Editor::new(d, e.scenario_dir.clone()),
                                Err(d) => {
                                    e.message = d.first().map(|x| x.to_string());
                                }
                            }
                            ui.close();
                        }
                    }
                });
        });
        let ok = e.checked.problems.is_empty();
        if ui
            .add_enabled(ok, egui::Button::new("Save"))
            .on_hover_text(format!("Ctrl+S: to {}", e.save_path().display()))
            .on_disabled_hover_text("Problems stand: put them right, or save a draft")
            .clicked()
        {
            e.save(true);
        }
        if ui
            .button("Save draft")
            .on_hover_text(format!(
                "Ctrl+Shift+S: problems and all, to {}",
                e.draft_path().display()
            ))
            .clicked()
        {
            e.save(false);
        }
        ui.separator();
        let undo = e.draft.undo_label().map(str::to_string);
        if ui
            .add_enabled(undo.is_some(), egui::Button::new("Undo"))
            .on_hover_text(format!("Ctrl+Z: {}", undo.unwrap_or_default()))
            .clicked()
        {
            e.undo();
        }
        let redo = e.draft.redo_label().map(str::to_string);
        if ui
            .add_enabled(redo.is_some(), egui::Button::new("Redo"))
            .on_hover_text(format!("Ctrl+Y: {}", redo.unwrap_or_default()))
            .clicked()
        {
            e.redo();
        }
        ui.separator();
        if ui
            .add_enabled(ok, egui::Button::new("Play hotseat"))
            .on_hover_text("Play it here, two at one computer; the game menu brings you back")
            .clicked()
        {
            e.play = Some(None);
        }
        let sides: Vec<String> = e.draft.raw().sides.iter().map(|s| s.name.clone()).collect();
        for (s, name) in sides.iter().enumerate().take(2) {
            if ui
                .add_enabled(ok, egui::Button::new(format!("Play {name}")))
                .on_hover_text("Against the opponent, which plays the other side")
                .clicked()
            {
                e.play = Some(Some(1 - s));
            }
        }
        if ui
            .add_enabled(ok && text.batch.is_none(), egui::Button::new("Quick batch"))
            .on_hover_text("20 games, the veteran against itself, as `volley batch` plays them")
            .clicked()
        {
            start_batch(e, text);
        }
        ui.separator();
        if ui.button("Title").clicked() {
            e.leave = true;
        }
    });
}

/// Plays 20 games of the draft off the frame, as `volley batch --players veteran,veteran`.
fn start_batch(e: &mut Editor, text: &mut TextEdit) {
    let Some(game) = e.checked.game.clone() else {
        return;
    };
    let out = std::sync::Arc::new(std::sync::Mutex::new(None));
    text.batch = Some(out.clone());
    e.batch = Some("playing 20 games…".into());
    std::thread::spawn(move || {
        use crate::players::batch::{Player, report, run};
        let players = [Player::Veteran, Player::Veteran];
        let games = run(&game, 20, 1, players, &|| {});
        let words = crate::players::batch::print::words(&report(&game, 1, players, &games));
        if let Ok(mut o) = out.lock() {
            *o = Some(words);
        }
    });
}

fn poll_batch(e: &mut Editor, text: &mut TextEdit) {
    let done = text
        .batch
        .as_ref()
        .and_then(|b| b.lock().ok().and_then(|mut o| o.take()));
    if let Some(words) = done {
        e.batch = Some(words);
        text.batch = None;
    }
}

/// The pointer's place and a drag's length in the ruleset's measure; the last word.
fn status(ui: &mut egui::Ui, e: &Editor, ptr: &EditorPointer) {
    ui.horizontal(|ui| {
        let mm = e.draft.mm_per_unit();
        let unit = e.draft.rules().map(|r| r.measure().name()).unwrap_or("mm");
        if let Some(w) = ptr.world {
            ui.label(format!("at {:.1}, {:.1} {unit}", w.x / mm, w.y / mm));
        }
        if let Some(d) = &e.drag {
            let len = ((d.to.0 - d.from.0).powi(2) + (d.to.1 - d.from.1).powi(2)).sqrt();
            ui.label(format!("· dragged {:.1} {unit}", len / mm));
        }
        ui.separator();
        match (&e.message, &e.notice) {
            (Some(m), _) => {
                ui.colored_label(RED, m);
            }
            (None, Some(n)) => {
                ui.label(n);
            }
            _ => {
                ui.label(hint(e.tool));
            }
        }
    });
}

/// What to do with the tool in hand.
fn hint(t: Tool) -> &'static str {
    match t {
        Tool::Select => {
            "Click a thing to pick it, drag to move it; Q/E turn a unit; drag a feature's corner; \
             Ctrl+click an edge adds a corner, a corner takes it off; Ctrl+D copies; Delete deletes"
        }
        Tool::Terrain => {
            "Click the corners; Enter finishes, Backspace takes the last back, Esc drops it; \
             [ and ] change the kind"
        }
        Tool::Units => "Click to place; Tab changes side; [ and ] change the troop type",
        Tool::Objective => "Click to place an objective",
        Tool::Zone => "Drag a rectangle: the side's deployment zone; Tab changes side",
    }
}

/// The tools and what each places.
fn tools(ui: &mut egui::Ui, e: &mut Editor) {
    ui.strong("Tools");
    for t in Tool::ALL {
        if ui
            .selectable_label(e.tool == t, format!("{}  {}", t.key(), t.name()))
            .clicked()
        {
            e.tool = t;
            e.sketch.clear();
        }
    }
    let grid = match e.draft.rules().map(|r| r.measure()) {
        Ok(crate::rules::ruleset::Measure::Paces) => "50 paces",
        _ => "an inch",
    };
    ui.checkbox(&mut e.snap, format!("Snap to {grid} (G)"));
    ui.separator();
    let sides: Vec<String> = e.draft.raw().sides.iter().map(|s| s.name.clone()).collect();
    match e.tool {
        Tool::Terrain => {
            ui.strong("Kind");
            for k in FeatureKind::ALL {
                let line = if k.is_linear() { " (a line)" } else { "" };
                if ui
                    .selectable_label(e.kind == k, format!("{}{line}", k.name()))
                    .clicked()
                {
                    e.kind = k;
                    e.sketch.clear();
                }
            }
            if !e.sketch.is_empty() && ui.button("Finish (Enter)").clicked() {
                e.finish_sketch();
            }
        }
        Tool::Units | Tool::Zone => {
            ui.strong("Side (Tab)");
            for (s, name) in sides.iter().enumerate() {
                if ui.selectable_label(e.side == s, name).clicked() {
                    e.side = s;
                }
            }
        }
        _ => {}
    }
    if e.tool == Tool::Units {
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("Place");
            ui.add(egui::DragValue::new(&mut e.body.count).range(1..=20));
            ui.radio_value(&mut e.body.column, false, "line");
            ui.radio_value(&mut e.body.column, true, "column");
        });
        if let Ok(r) = e.draft.rules()
            && r.scenario_fields().contains(&ScenarioField::Brigade)
        {
            let mut b = e.draft.brigade.clone().unwrap_or_default();
            ui.horizontal(|ui| {
                ui.label("brigade");
                ui.text_edit_singleline(&mut b)
                    .on_hover_text("Empty: the side's first (\"blue-1\")");
            });
            e.draft.brigade = (!b.trim().is_empty()).then(|| b.trim().to_string());
        }
        ui.strong("Troop type ([ ])");
        if let Ok(r) = e.draft.rules() {
            let unit = r.measure().name();
            let mm = e.draft.mm_per_unit();
            for (code, name) in r.troop_table() {
                let size = r
                    .base_size(&code)
                    .map(|(w, d)| format!("base {:.1} × {:.1} {unit}", w / mm, d / mm))
                    .unwrap_or_default();
                if ui
                    .selectable_label(e.troop == code, format!("{code}  {name}"))
                    .on_hover_text(size)
                    .clicked()
                {
                    e.troop = code;
                }
            }
        }
    }
}

/// The objectives' and the features' names on the table, and each unit's id where its bases are
/// big enough on screen to carry it.
fn names_on_table(
    mut ctx: EguiContexts,
    editor: Res<Editor>,
    cams: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let Some((cam, gt)) = cams.iter().next() else {
        return Ok(());
    };
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("editor_names"),
    ));
    let to_screen = |x: f32, y: f32| {
        cam.world_to_viewport(gt, Vec3::new(x, y, 0.0))
            .ok()
            .map(|v| egui::pos2(v.x, v.y))
    };
    let raw = editor.draft.raw();
    let font = egui::FontId::proportional(12.0);
    for (i, o) in raw.objectives.iter().enumerate() {
        if let Some(p) = to_screen(o.at.0, o.at.1) {
            let name = if o.name.is_empty() {
                format!("objective {}", i + 1)
            } else {
                o.name.clone()
            };
            painter.text(
                p + egui::vec2(0.0, -16.0),
                egui::Align2::CENTER_BOTTOM,
                name,
                font.clone(),
                egui::Color32::from_rgb(250, 220, 120),
            );
        }
    }
    for f in &raw.terrain {
        if f.name.is_empty() {
            continue;
        }
        let n = f.points.len().max(1) as f32;
        let (x, y) = f
            .points
            .iter()
            .fold((0.0, 0.0), |a, p| (a.0 + p.0 / n, a.1 + p.1 / n));
        if let Some(p) = to_screen(x, y) {
            painter.text(
                p,
                egui::Align2::CENTER_CENTER,
                &f.name,
                font.clone(),
                egui::Color32::from_rgba_unmultiplied(255, 255, 255, 200),
            );
        }
    }
    Ok(())
}
