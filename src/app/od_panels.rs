//! Old Dessauer's panels: the unit card with stands, figures and formation buttons, the outlook
//! before the dice, and the rules reference with its numbers, options and rulings.

use super::{Game, Intent};
use crate::rules::command::Command;
use crate::rules::model::{Formation, Phase, Unit};
use crate::rules::report::formation_name;
use crate::rules::ruleset::old_dessauer::{Kind, OldDessauer, Outlook, grade_name};
use bevy::prelude::*;
use bevy_egui::egui;

/// The unit card: type, grade, stands and figures, formation, state, allowance.
pub fn unit_card(ui: &mut egui::Ui, game: &Game, od: &OldDessauer, u: &Unit) {
    let b = &game.battle;
    let t = od.troop(u);
    ui.strong(&u.name);
    ui.label(format!("{} ({}) · {}", t.name, t.code, grade_name(u.class)));
    if !u.flags.is_empty() {
        ui.label(format!("{:?}", u.flags));
    }
    let stands: Vec<String> = u.stands.iter().map(|s| s.figures.to_string()).collect();
    ui.label(format!(
        "{} figures of {} · stands [{}]",
        u.figures(),
        od.strength(u),
        stands.join(", ")
    ));
    ui.label(format!("Formation: {}", formation_name(u.formation)));
    let mut state = Vec::new();
    if u.status.removed {
        state.push("gone");
    }
    if u.status.shaken {
        state.push("shaken");
    }
    if u.status.disordered {
        state.push("disordered");
    }
    if u.status.limbered {
        state.push("limbered");
    }
    if od.in_contact(b, u) {
        state.push("in combat");
    }
    if !od.in_command(b, u) {
        state.push("out of command");
    }
    ui.label(if state.is_empty() {
        "Steady".to_string()
    } else {
        state.join(", ")
    });
    let spent = if u.bound.halted {
        "halted".to_string()
    } else {
        format!("{:.1}", u.bound.used())
    };
    ui.label(format!(
        "Move {:.0} inches ({} used) · combat points {}",
        od.allowance(u),
        spent,
        t.combat
    ));
    if let Some(g) = od.attached_general(b, u) {
        ui.label(format!("{} attached ({:+})", g.name, g.extra.leadership));
    }
}

/// Formation and facing buttons for the selected unit in its movement phase.
pub fn formation_buttons(
    ui: &mut egui::Ui,
    game: &Game,
    od: &OldDessauer,
    u: &Unit,
    intents: &mut MessageWriter<Intent>,
) {
    let b = &game.battle;
    // A unit that recoiled this turn may go farther in the close combat phase.
    if b.phase == Phase::CloseCombat
        && u.alive()
        && let Some((_, done)) = u.bound.recoil
        && !od.in_contact(b, u)
    {
        let left = od.num("recoil_max") - b.scale.from_mm(done);
        if left >= 1.0 {
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                ui.label(format!(
                    "Recoiled {:.1} in; recoil farther:",
                    b.scale.from_mm(done)
                ));
                for d in [2.0f32, 4.0, 6.0, left.floor()] {
                    if d <= left && ui.small_button(format!("{d:.0} in")).clicked() {
                        intents.write(Intent::Do(Command::RecoilFurther {
                            unit: u.id.clone(),
                            distance: d,
                        }));
                    }
                }
            });
        }
    }
    if b.phase != Phase::Movement || u.side != b.active || !u.alive() {
        return;
    }
    if od.is_skirmishing(b, u) {
        ui.small(format!(
            "Ctrl+drag a stand to move it alone ({} in each, within {} in of the command stand, stand {}).",
            od.allowance(u),
            od.num("skirmish_leash"),
            crate::rules::ruleset::old_dessauer::movement::command_stand(u) + 1
        ));
    }
    let forms: &[(Formation, &str)] = match od.kind(u) {
        Kind::Infantry => &[
            (Formation::Line, "Line"),
            (Formation::Column, "Column"),
            (Formation::Square, "Square"),
            (Formation::Conformed, "L"),
        ],
        Kind::Cavalry => &[
            (Formation::Line, "Line"),
            (Formation::Column, "Column"),
            (Formation::Conformed, "L"),
        ],
        Kind::LightInfantry => &[(Formation::Skirmish, "Skirmish")],
        Kind::Artillery if !u.status.limbered => &[(Formation::Line, "Line")],
        _ => &[],
    };
    if !forms.is_empty()
        && !u.bound.formed
        && !u.bound.halted
        && !u.bound.fell_back
        && !od.in_contact(b, u)
    {
        ui.separator();
        ui.label("Change formation (half the move), then facing:");
        for turn in [0.0f32, 90.0, -90.0, 180.0] {
            ui.horizontal(|ui| {
                ui.small(match turn as i32 {
                    0 => "ahead",
                    90 => "right",
                    -90 => "left",
                    _ => "about",
                });
                for (f, name) in forms {
                    if (*f != u.formation || turn != 0.0) && ui.small_button(*name).clicked() {
                        intents.write(Intent::Do(Command::Form {
                            unit: u.id.clone(),
                            formation: *f,
                            turn,
                        }));
                    }
                }
            });
        }
    }
    if u.status.limbered && ui.button("Unlimber").clicked() {
        intents.write(Intent::Do(Command::Unlimber { unit: u.id.clone() }));
    }
    if od.kind(u) == Kind::General {
        match &u.extra.attached {
            Some(_) => {
                if ui.button("Detach").clicked() {
                    intents.write(Intent::Do(Command::Detach {
                        general: u.id.clone(),
                    }));
                }
            }
            None => {
                for f in b
                    .alive()
                    .filter(|f| f.side == u.side && od.is_fighting_unit(f))
                    .filter(|f| {
                        f.base.distance_to_point(u.base.centre)
                            <= b.scale.to_mm(od.num("general_move"))
                    })
                {
                    if ui.small_button(format!("Attach to {}", f.name)).clicked() {
                        intents.write(Intent::Do(Command::Attach {
                            general: u.id.clone(),
                            unit: f.id.clone(),
                        }));
                    }
                }
            }
        }
    }
    if od.opt("voluntary_fallback")
        && od.is_fighting_unit(u)
        && !u.bound.moved
        && !u.bound.fell_back
    {
        ui.horizontal(|ui| {
            ui.label("Fall back:");
            for d in [6.0f32, 12.0, 18.0] {
                if ui.small_button(format!("{d:.0} in")).clicked() {
                    intents.write(Intent::Do(Command::Fallback {
                        unit: u.id.clone(),
                        distance: d,
                    }));
                }
            }
        });
    }
}

/// The dice, needs, points and chances before a shooting or a combat.
pub fn outlook(ui: &mut egui::Ui, o: &Outlook) {
    for l in &o.lines {
        ui.strong(format!("{} → {}", l.unit, l.target));
        for f in &l.factors {
            ui.label(format!("{:+}  {}", f.value, f.name))
                .on_hover_text(&f.source);
        }
        let points = l
            .points
            .map(|(a, b)| format!("{a} points against {b}: "))
            .unwrap_or_default();
        ui.label(format!(
            "{points}{} dice hitting on {}{}",
            l.dice,
            l.need,
            if l.need < 6 { "-6" } else { "" }
        ));
        ui.add_space(4.0);
    }
    ui.separator();
    for (what, p) in &o.chances {
        ui.label(format!("{what}: {:.1}%", p * 100.0));
    }
}

/// The rules reference: troops, numbers with sources, optional rules, rulings.
pub fn reference(ui: &mut egui::Ui, od: &OldDessauer) {
    let d = &od.data;
    ui.label(format!("Source: {}", d.seed));
    egui::CollapsingHeader::new("Troop types")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("od-troops").striped(true).show(ui, |ui| {
                for h in ["Type", "Stand", "Line", "Column", "Combat"] {
                    ui.strong(h);
                }
                ui.end_row();
                for t in &d.troops {
                    ui.label(format!("{} ({})", t.name, t.code))
                        .on_hover_text(&t.source);
                    ui.label(format!("{} figures", t.figures_per_stand));
                    ui.label(format!("{:.0} in", t.line));
                    ui.label(format!("{:.0} in", t.column));
                    ui.label(t.combat.to_string());
                    ui.end_row();
                }
            });
        });
    egui::CollapsingHeader::new("Numbers").show(ui, |ui| {
        for n in &d.numbers {
            ui.label(format!("{} = {}", n.key, n.value))
                .on_hover_text(&n.source);
        }
    });
    egui::CollapsingHeader::new("Shooting factors").show(ui, |ui| {
        for f in &d.shooting_factors {
            ui.label(format!("{:+}  {}", f.value, f.name))
                .on_hover_text(&f.source);
        }
    });
    egui::CollapsingHeader::new("Optional rules").show(ui, |ui| {
        for o in &d.options {
            let on = od.opt(&o.key);
            ui.label(format!(
                "{} {}",
                if on { "[in use]" } else { "[off]" },
                o.name
            ))
            .on_hover_text(&o.source);
        }
    });
    super::panels::rulings_list(
        ui,
        "Rulings (where the text was lost or is silent)",
        &d.rulings,
    );
}
