//! The editor's fields panel: the picked thing's fields (a unit's, a feature's, a zone's, an
//! objective's) or the scenario's, each thing's whole line as the file writes it, and the
//! problems that stand.

use super::Editor;
use super::panels::{RED, TextEdit};
use crate::app::Game;
use crate::editor::Thing;
use crate::rules::model::{Class, Formation};
use crate::rules::ruleset::ScenarioField;
use crate::rules::scenario::{RawHold, RawScenario, RawUnit, ron_options};
use crate::rules::terrain::FeatureKind;
use bevy_egui::egui;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The picked thing's fields and problems, or the scenario's; then every problem.
pub(super) fn fields(ui: &mut egui::Ui, e: &mut Editor, text: &mut TextEdit, game: Option<&Game>) {
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
