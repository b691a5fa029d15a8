//! The editor's panels: the file and play bar at the top, the tools on the left, the picked
//! thing's fields (or the scenario's) with its problems on the right, the measure and the last
//! word at the bottom; and the objectives' names on the table.

use super::{Editor, EditorPointer, Tool};
use crate::app::Game;
use crate::app::state::BoardCamera;
use crate::editor::{Draft, Thing};
use crate::rules::model::{Class, Formation};
use crate::rules::ruleset::{KNOWN_RULESETS, ScenarioField};
use crate::rules::scenario::{RawHold, RawScenario, RawUnit, ron_options};
use crate::rules::terrain::FeatureKind;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use serde::Serialize;
use serde::de::DeserializeOwned;

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
struct TextEdit {
    thing: Option<Thing>,
    /// The thing as the file wrote it when the text was taken: a change made elsewhere (a
    /// drag, undo) takes the text afresh.
    seen: String,
    text: String,
    error: Option<String>,
    /// A quick batch running: its report when done.
    batch: Option<std::sync::Arc<std::sync::Mutex<Option<String>>>>,
}

const RED: egui::Color32 = egui::Color32::from_rgb(255, 110, 100);

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
                .show(ui, |ui| fields(ui, e, &mut text, game.as_deref()))
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

/// The picked thing's fields and problems, or the scenario's; then every problem.
fn fields(ui: &mut egui::Ui, e: &mut Editor, text: &mut TextEdit, game: Option<&Game>) {
    let thing = e.selected.unwrap_or(Thing::Scenario);
    match thing {
        Thing::Unit(i) => unit_fields(ui, e, i),
        Thing::Feature(i) => feature_fields(ui, e, i),
        Thing::Zone(i) => zone_fields(ui, e, i),
        Thing::Objective(i) => objective_fields(ui, e, i),
        Thing::Scenario | Thing::Side(_) => scenario_fields(ui, e, game),
    }
    if thing != Thing::Scenario {
        as_text(ui, e, text, thing);
        if ui
            .button("Pick nothing: the scenario's fields (Esc)")
            .clicked()
        {
            e.selected = None;
        }
    }
    ui.separator();
    let n = e.checked.problems.len();
    if n == 0 {
        ui.colored_label(
            egui::Color32::LIGHT_GREEN,
            "No problems: it can be saved and played.",
        );
    } else {
        ui.colored_label(
            RED,
            format!("{n} problem{}:", if n == 1 { "" } else { "s" }),
        );
        for p in e.checked.problems.clone() {
            if ui
                .add(
                    egui::Label::new(egui::RichText::new(&p.message).color(RED))
                        .sense(egui::Sense::click()),
                )
                .on_hover_text("Pick the thing it is on")
                .clicked()
            {
                e.selected = Some(p.thing);
            }
        }
    }
    if let Some(b) = &e.batch {
        ui.separator();
        ui.strong("Quick batch");
        ui.monospace(b);
    }
}

/// The problems on one thing, in red.
fn problems_on(ui: &mut egui::Ui, e: &Editor, thing: Thing) {
    for p in e.checked.on(thing) {
        ui.colored_label(RED, &p.message);
    }
}

/// Shows a value's fields on a copy and makes the changes one edit.
fn edit_copy<T: Clone + PartialEq>(
    e: &mut Editor,
    label: &str,
    get: impl Fn(&RawScenario) -> Option<T>,
    put: impl FnOnce(&mut RawScenario, T),
    show: impl FnOnce(&mut T),
) {
    let Some(before) = get(e.draft.raw()) else {
        return;
    };
    let mut now = before.clone();
    show(&mut now);
    if now != before {
        e.draft.edit_merging(label, |r| put(r, now));
    }
}

fn text_field(ui: &mut egui::Ui, label: &str, s: &mut String) {
    ui.horizontal(|ui| {
        ui.label(label);
        ui.add(egui::TextEdit::singleline(s).desired_width(240.0));
    });
}

fn unit_fields(ui: &mut egui::Ui, e: &mut Editor, i: usize) {
    let codes = e.draft.rules().map(|r| r.troop_codes()).unwrap_or_default();
    let sides: Vec<String> = e.draft.raw().sides.iter().map(|s| s.name.clone()).collect();
    let mm = e.draft.mm_per_unit();
    let unit = e.draft.rules().map(|r| r.measure().name()).unwrap_or("mm");
    let rules = e.draft.rules().ok();
    // A ruleset that grades by troop type names no class: the rung's own name then.
    let class_name = |c: Class| {
        rules
            .as_ref()
            .map(|r| r.class_name(c))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| format!("{c:?}"))
    };
    let classes: Vec<(Class, String)> = [
        Class::Militia,
        Class::Regular,
        Class::Superior,
        Class::Elite,
    ]
    .into_iter()
    .map(|c| (c, class_name(c)))
    .collect();
    let decimals = e.draft.rules().map_or(1, |r| r.measure().precision() + 1);
    let Some(id) = e.draft.raw().units.get(i).map(|u| u.id.clone()) else {
        return;
    };
    ui.heading(format!("Unit {id}"));
    problems_on(ui, e, Thing::Unit(i));
    edit_copy(
        e,
        &format!("unit {id}"),
        |r| r.units.get(i).cloned(),
        |r, u| set(&mut r.units, i, u),
        |u| {
            text_field(ui, "id", &mut u.id);
            text_field(ui, "name", &mut u.name);
            egui::ComboBox::from_label("side")
                .selected_text(sides.get(u.side).cloned().unwrap_or_default())
                .show_ui(ui, |ui| {
                    for (s, n) in sides.iter().enumerate() {
                        ui.selectable_value(&mut u.side, s, n);
                    }
                });
            egui::ComboBox::from_label("troop type")
                .selected_text(u.troop.clone())
                .show_ui(ui, |ui| {
                    for c in &codes {
                        ui.selectable_value(&mut u.troop, c.clone(), c);
                    }
                });
            egui::ComboBox::from_label("class")
                .selected_text(class_name(u.class))
                .show_ui(ui, |ui| {
                    for (c, n) in &classes {
                        ui.selectable_value(&mut u.class, *c, n);
                    }
                });
            if let Some(at) = &mut u.at {
                ui.horizontal(|ui| {
                    ui.label(format!("at ({unit})"));
                    let (mut x, mut y) = (at.0 / mm, at.1 / mm);
                    ui.add(
                        egui::DragValue::new(&mut x)
                            .speed(0.1)
                            .max_decimals(decimals),
                    );
                    ui.add(
                        egui::DragValue::new(&mut y)
                            .speed(0.1)
                            .max_decimals(decimals),
                    );
                    *at = crate::editor::tidy_pt((x * mm, y * mm));
                });
            }
            ui.horizontal(|ui| {
                ui.label("facing (°)");
                ui.add(
                    egui::DragValue::new(&mut u.facing)
                        .speed(1.0)
                        .range(0.0..=359.9),
                );
            });
            egui::ComboBox::from_label("formation")
                .selected_text(
                    u.formation
                        .map_or("as the rules place it".to_string(), |f| format!("{f:?}")),
                )
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut u.formation, None, "as the rules place it");
                    for f in [
                        Formation::Line,
                        Formation::Column,
                        Formation::Square,
                        Formation::Skirmish,
                        Formation::Deep,
                        Formation::Dismounted,
                    ] {
                        ui.selectable_value(&mut u.formation, Some(f), format!("{f:?}"));
                    }
                });
            ui.horizontal(|ui| {
                ui.label("hits");
                ui.add(egui::DragValue::new(&mut u.hits).range(0..=10));
            });
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut u.shaken, "shaken");
                ui.checkbox(&mut u.disordered, "disordered");
                ui.checkbox(&mut u.limbered, "limbered");
            });
            if let Some(r) = &rules {
                ruleset_fields(ui, r.get(), u);
            }
            ui.label("Flags, attachments and a coat: in the text below.");
        },
    );
}

/// The fields of a unit that only some rulesets read: its organisation (bases, stands of
/// figures, a general's leadership and reach, a brigade, a DBN division) and the states its
/// troop type may start in.
fn ruleset_fields(ui: &mut egui::Ui, rs: &dyn crate::rules::ruleset::Ruleset, u: &mut RawUnit) {
    use crate::rules::model::{Ammo, Division};
    use crate::rules::ruleset::{UnitModel, UnitState};
    let number = |ui: &mut egui::Ui, label: &str, v: &mut u32, most: u32| {
        ui.horizontal(|ui| {
            ui.label(label);
            ui.add(egui::DragValue::new(v).range(0..=most));
        });
    };
    match rs.unit_model() {
        UnitModel::Bases => {
            let mut n = u.bases.unwrap_or(0);
            ui.horizontal(|ui| {
                ui.label("bases");
                ui.add(
                    egui::DragValue::new(&mut n)
                        .range(0..=12)
                        .custom_formatter(|v, _| {
                            if v == 0.0 {
                                "as the rules give".into()
                            } else {
                                format!("{v}")
                            }
                        }),
                );
            });
            u.bases = (n > 0).then_some(n);
        }
        UnitModel::Stands => {
            let written = u
                .stands
                .as_ref()
                .map(|s| s.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            let mut text = written.clone();
            ui.horizontal(|ui| {
                ui.label("figures in each stand");
                ui.add(egui::TextEdit::singleline(&mut text).desired_width(120.0))
                    .on_hover_text("e.g. 4, 4, 4; empty: as the rules give");
            });
            if text != written {
                let parsed: Option<Vec<u32>> =
                    text.split(',').map(|x| x.trim().parse().ok()).collect();
                match parsed {
                    _ if text.trim().is_empty() => u.stands = None,
                    Some(v) if !v.is_empty() => u.stands = Some(v),
                    _ => {}
                }
            }
            number(
                ui,
                "figures lost before the battle",
                &mut u.figures_lost,
                200,
            );
            // A general's: his leadership and the reach of his command.
            let mut l = u.leadership.unwrap_or(0);
            let mut r = u.command_radius.unwrap_or(0.0);
            ui.horizontal(|ui| {
                ui.label("general: leadership");
                ui.add(egui::DragValue::new(&mut l).range(0..=2));
                ui.label("command radius (in)");
                ui.add(egui::DragValue::new(&mut r).range(0.0..=48.0).speed(0.25));
            });
            u.leadership = (l > 0 || u.leadership.is_some()).then_some(l);
            u.command_radius = (r > 0.0).then_some(r);
        }
        UnitModel::SingleBase => {
            egui::ComboBox::from_label("division")
                .selected_text(u.division.map_or("none".to_string(), |d| format!("{d:?}")))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut u.division, None, "none");
                    for d in [
                        Division::Left,
                        Division::Centre,
                        Division::Right,
                        Division::Reserve,
                    ] {
                        ui.selectable_value(&mut u.division, Some(d), format!("{d:?}"));
                    }
                });
        }
    }
    if rs.scenario_fields().contains(&ScenarioField::Brigade) {
        let mut b = u.brigade.clone().unwrap_or_default();
        text_field(ui, "brigade", &mut b);
        u.brigade = (!b.trim().is_empty()).then(|| b.trim().to_string());
    }
    let states = rs.unit_states(&u.troop);
    if states.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for st in states {
            match st {
                UnitState::BasesLost => number(ui, "bases lost", &mut u.bases_lost, 12),
                UnitState::Ammunition => {
                    let mut a = u.ammunition.unwrap_or_default();
                    egui::ComboBox::from_label("ammunition")
                        .selected_text(format!("{a:?}"))
                        .show_ui(ui, |ui| {
                            for x in [Ammo::Full, Ammo::Low, Ammo::Out] {
                                ui.selectable_value(&mut a, x, format!("{x:?}"));
                            }
                        });
                    u.ammunition = (a != Ammo::Full).then_some(a);
                }
                UnitState::Silenced => _ = ui.checkbox(&mut u.silenced, "silenced"),
                UnitState::Disrupted => _ = ui.checkbox(&mut u.disrupted, "disrupted"),
                UnitState::Disorganised => _ = ui.checkbox(&mut u.disorganised, "disorganised"),
                UnitState::Routed => _ = ui.checkbox(&mut u.routed, "routed"),
                UnitState::VolleyFired => _ = ui.checkbox(&mut u.volley_fired, "volley fired"),
                UnitState::Moved => _ = ui.checkbox(&mut u.moved, "moved this bound"),
                UnitState::HoldGround => _ = ui.checkbox(&mut u.hold_ground, "holds its ground"),
            }
        }
    });
}

fn feature_fields(ui: &mut egui::Ui, e: &mut Editor, i: usize) {
    let Some(id) = e.draft.raw().terrain.get(i).map(|f| f.id.clone()) else {
        return;
    };
    let mm = e.draft.mm_per_unit();
    let unit = e.draft.rules().map(|r| r.measure().name()).unwrap_or("mm");
    ui.heading(format!("Terrain {id}"));
    problems_on(ui, e, Thing::Feature(i));
    edit_copy(
        e,
        &format!("feature {id}"),
        |r| r.terrain.get(i).cloned(),
        |r, f| set(&mut r.terrain, i, f),
        |f| {
            text_field(ui, "id", &mut f.id);
            text_field(ui, "name", &mut f.name);
            egui::ComboBox::from_label("kind")
                .selected_text(f.kind.name())
                .show_ui(ui, |ui| {
                    for k in FeatureKind::ALL {
                        if k.is_linear() == f.kind.is_linear() {
                            ui.selectable_value(&mut f.kind, k, k.name());
                        }
                    }
                });
            if f.kind.is_linear() {
                ui.horizontal(|ui| {
                    ui.label(format!("width ({unit})"));
                    let mut w = f.width / mm;
                    ui.add(egui::DragValue::new(&mut w).speed(0.05).range(0.0..=1000.0));
                    f.width = crate::editor::tidy(w * mm);
                });
            }
            if f.kind == FeatureKind::Hill {
                ui.horizontal(|ui| {
                    ui.label("level");
                    ui.add(egui::DragValue::new(&mut f.level).range(1..=5));
                });
                ui.checkbox(&mut f.steep, "steep");
            }
            if matches!(
                f.kind,
                FeatureKind::Town | FeatureKind::Village | FeatureKind::Fortification
            ) {
                ui.checkbox(&mut f.fortified, "fortified");
            }
            ui.label(format!(
                "{} corners: drag them; Ctrl+click to add or take off",
                f.points.len()
            ));
        },
    );
}

fn zone_fields(ui: &mut egui::Ui, e: &mut Editor, i: usize) {
    let sides: Vec<String> = e.draft.raw().sides.iter().map(|s| s.name.clone()).collect();
    ui.heading(format!("Deployment zone {}", i + 1));
    problems_on(ui, e, Thing::Zone(i));
    edit_copy(
        e,
        &format!("zone {i}"),
        |r| r.deployment.get(i).cloned(),
        |r, z| set(&mut r.deployment, i, z),
        |z| {
            egui::ComboBox::from_label("side")
                .selected_text(sides.get(z.side).cloned().unwrap_or_default())
                .show_ui(ui, |ui| {
                    for (s, n) in sides.iter().enumerate() {
                        ui.selectable_value(&mut z.side, s, n);
                    }
                });
        },
    );
}

fn objective_fields(ui: &mut egui::Ui, e: &mut Editor, i: usize) {
    let sides: Vec<String> = e.draft.raw().sides.iter().map(|s| s.name.clone()).collect();
    let unit = e.draft.rules().map(|r| r.measure().name()).unwrap_or("mm");
    ui.heading(format!("Objective {}", i + 1));
    problems_on(ui, e, Thing::Objective(i));
    edit_copy(
        e,
        &format!("objective {i}"),
        |r| r.objectives.get(i).cloned(),
        |r, o| set(&mut r.objectives, i, o),
        |o| {
            text_field(ui, "name", &mut o.name);
            text_field(ui, "id", &mut o.id);
            egui::ComboBox::from_label("held at the start by")
                .selected_text(
                    o.owner
                        .and_then(|s| sides.get(s).cloned())
                        .unwrap_or("nobody".into()),
                )
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut o.owner, None, "nobody");
                    for (s, n) in sides.iter().enumerate() {
                        ui.selectable_value(&mut o.owner, Some(s as _), n);
                    }
                });
            ui.horizontal(|ui| {
                ui.label("worth");
                ui.add(egui::DragValue::new(&mut o.worth).range(0..=100));
            });
            let mut within = matches!(o.hold, RawHold::Within(_));
            ui.checkbox(
                &mut within,
                format!("held by a side alone within a distance ({unit})"),
            );
            o.hold = match (within, o.hold) {
                (true, RawHold::Within(d)) => {
                    let mut d = d;
                    ui.add(
                        egui::DragValue::new(&mut d)
                            .speed(0.1)
                            .range(0.0..=10_000.0),
                    );
                    RawHold::Within(d)
                }
                (true, RawHold::Ruleset) => RawHold::Within(3.0),
                (false, _) => RawHold::Ruleset,
            };
        },
    );
}

fn scenario_fields(ui: &mut egui::Ui, e: &mut Editor, game: Option<&Game>) {
    let rules = e.draft.rules();
    let unit = rules.as_ref().map(|r| r.measure().name()).unwrap_or("mm");
    let mm = e.draft.mm_per_unit();
    ui.heading("Scenario");
    if let Ok(r) = &rules {
        ui.label(format!("Ruleset: {}", r.name()));
    }
    problems_on(ui, e, Thing::Scenario);
    let optional = rules
        .as_ref()
        .map(|r| r.optional_rules())
        .unwrap_or_default();
    edit_copy(
        e,
        "scenario",
        |r| Some(r.clone()),
        |r, s| *r = s,
        |s| {
            text_field(ui, "name", &mut s.name);
            text_field(ui, "date", &mut s.date);
            ui.label("Briefing (with its sources)");
            ui.add(egui::TextEdit::multiline(&mut s.description).desired_rows(4));
            ui.horizontal(|ui| {
                ui.label(format!("table ({unit})"));
                let decimals = rules.as_ref().map_or(1, |r| r.measure().precision() + 1);
                let (mut w, mut h) = (s.table.width / mm, s.table.height / mm);
                ui.add(
                    egui::DragValue::new(&mut w)
                        .speed(0.5)
                        .range(1.0..=100_000.0)
                        .max_decimals(decimals),
                );
                ui.label("×");
                ui.add(
                    egui::DragValue::new(&mut h)
                        .speed(0.5)
                        .range(1.0..=100_000.0)
                        .max_decimals(decimals),
                );
                s.table.width = crate::editor::tidy(w * mm);
                s.table.height = crate::editor::tidy(h * mm);
            });
            ui.horizontal(|ui| {
                ui.label("turn limit");
                ui.add(egui::DragValue::new(&mut s.turn_limit).range(1..=1000));
                ui.label("seed");
                ui.add(egui::DragValue::new(&mut s.seed));
            });
            ui.label("How it is won, in words");
            ui.add(egui::TextEdit::multiline(&mut s.victory).desired_rows(2));
            if !optional.is_empty() {
                ui.strong("Optional rules");
                for (key, name) in &optional {
                    let mut on = s.options.contains(key);
                    if ui.checkbox(&mut on, name).changed() {
                        if on {
                            s.options.push(key.clone());
                        } else {
                            s.options.retain(|k| k != key);
                        }
                    }
                }
            }
            for (i, side) in s.sides.iter_mut().enumerate() {
                ui.separator();
                ui.strong(format!("Side {i}"));
                text_field(ui, "name", &mut side.name);
                text_field(ui, "nation", &mut side.nation);
                text_field(ui, "commander", &mut side.commander);
                ui.horizontal(|ui| {
                    ui.label("colour");
                    let mut c = [side.colour.0, side.colour.1, side.colour.2];
                    ui.color_edit_button_srgb(&mut c);
                    side.colour = (c[0], c[1], c[2]);
                    ui.checkbox(&mut side.defender, "defender");
                    ui.checkbox(&mut side.army_list, "checked against the army list");
                });
            }
        },
    );
    // Each army's points and the list's verdict, live.
    if let Some(g) = game {
        let (b, rs) = (&g.play.battle, g.play.rules.get());
        for (s, side) in b.sides.iter().enumerate() {
            let members: Vec<_> = b.units.iter().filter(|u| u.side == s).collect();
            let listed = e.draft.raw().sides.get(s).is_some_and(|x| x.army_list);
            for n in rs.army_notes(&members, side, listed, &b.terrain) {
                ui.label(format!("{}: {n}", side.name));
            }
        }
        for w in g.play.victory_words() {
            ui.label(format!("Victory: {w}"));
        }
    }
    ui.separator();
    ui.strong("Victory conditions (RON, as the README writes them; empty: the ruleset's)");
    conditions(ui, e);
}

/// The victory conditions as text, read back on Apply.
fn conditions(ui: &mut egui::Ui, e: &mut Editor) {
    let id = egui::Id::new("editor_conditions");
    let written = e
        .draft
        .raw()
        .victory_conditions
        .as_ref()
        .map(one_line)
        .unwrap_or_default();
    let mut buf: (String, String, Option<String>) = ui
        .data_mut(|d| d.get_temp(id))
        .unwrap_or_else(|| (written.clone(), written.clone(), None));
    if buf.1 != written {
        buf = (written.clone(), written.clone(), None);
    }
    // Starting points for the common cases, to apply or to change first.
    ui.horizontal_wrapped(|ui| {
        ui.label("Start from:");
        let raw = e.draft.raw();
        let places: Vec<String> = (0..raw.objectives.len())
            .map(|i| crate::rules::scenario::victory::objective_id(&raw.objectives[i], i))
            .collect();
        let attacker = usize::from(raw.sides.first().is_some_and(|s| s.defender));
        if ui
            .button("the ruleset's own")
            .on_hover_text("No conditions: the ruleset decides")
            .clicked()
        {
            buf.0.clear();
        }
        if ui
            .button("more points at the limit")
            .on_hover_text("The objectives' worth decides at the turn limit, else the ruleset")
            .clicked()
        {
            buf.0 = "(at_limit: [(then: MorePoints), (then: Ruleset)])".into();
        }
        if !places.is_empty()
            && ui
                .button("the attacker wins holding every place")
                .on_hover_text("The side that is not the defender wins at once holding them all")
                .clicked()
        {
            let holds: Vec<String> = places
                .iter()
                .map(|p| format!("Holds(side: {attacker}, place: \"{p}\")"))
                .collect();
            buf.0 = format!(
                "(ends: [(then: Win({attacker}), when: All([{}]))], at_limit: [(then: MorePoints)])",
                holds.join(", ")
            );
        }
    });
    ui.add(
        egui::TextEdit::multiline(&mut buf.0)
            .desired_rows(3)
            .code_editor(),
    );
    if ui.button("Apply the conditions").clicked() {
        let t = buf.0.trim();
        if t.is_empty() {
            e.draft
                .edit("victory conditions", |r| r.victory_conditions = None);
            buf.2 = None;
        } else {
            match ron_options().from_str(t) {
                Ok(c) => {
                    e.draft
                        .edit("victory conditions", |r| r.victory_conditions = Some(c));
                    buf.2 = None;
                }
                Err(err) => buf.2 = Some(err.to_string()),
            }
        }
    }
    if let Some(err) = &buf.2 {
        ui.colored_label(RED, err);
    }
    ui.data_mut(|d| d.insert_temp(id, buf));
}

fn one_line<T: Serialize>(v: &T) -> String {
    crate::editor::one_line(v).unwrap_or_default()
}

/// Any thing's every field, as the file writes it: edited by hand and read back on Apply.
fn as_text(ui: &mut egui::Ui, e: &mut Editor, text: &mut TextEdit, thing: Thing) {
    let Some(Ok(written)) = crate::editor::member(e.draft.raw(), thing) else {
        return;
    };
    if text.thing != Some(thing) || text.seen != written {
        text.thing = Some(thing);
        text.seen = written.clone();
        text.text = written.clone();
        text.error = None;
    }
    ui.separator();
    // The buttons above the text, so that they stay where they are as it grows.
    ui.horizontal(|ui| {
        ui.label("Every field, as the file writes it:");
        if ui
            .button("Apply")
            .on_hover_text("Ctrl+Enter in the text")
            .clicked()
        {
            text.error = apply_text(e, thing, &text.text).err();
        }
        if ui.button("Revert").clicked() {
            text.text = written.clone();
            text.error = None;
        }
    });
    if let Some(err) = &text.error {
        ui.colored_label(RED, err);
    }
    let r = ui.add(
        egui::TextEdit::multiline(&mut text.text)
            .desired_rows(4)
            .code_editor(),
    );
    if r.has_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter) && i.modifiers.ctrl) {
        text.error = apply_text(e, thing, text.text.trim()).err();
    }
}

/// Puts a member of a list in its place, where the place is still there.
fn set<T>(list: &mut [T], i: usize, v: T) {
    if let Some(x) = list.get_mut(i) {
        *x = v;
    }
}

fn read<T: DeserializeOwned>(s: &str) -> Result<T, String> {
    ron_options().from_str(s).map_err(|e| e.to_string())
}

fn apply_text(e: &mut Editor, thing: Thing, s: &str) -> Result<(), String> {
    match thing {
        Thing::Unit(i) => {
            let u = read(s)?;
            e.draft
                .edit("edit a unit as text", |r| set(&mut r.units, i, u));
        }
        Thing::Feature(i) => {
            let f = read(s)?;
            e.draft
                .edit("edit a feature as text", |r| set(&mut r.terrain, i, f));
        }
        Thing::Zone(i) => {
            let z = read(s)?;
            e.draft
                .edit("edit a zone as text", |r| set(&mut r.deployment, i, z));
        }
        Thing::Objective(i) => {
            let o = read(s)?;
            e.draft.edit("edit an objective as text", |r| {
                set(&mut r.objectives, i, o)
            });
        }
        _ => {}
    }
    Ok(())
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
