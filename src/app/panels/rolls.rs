//! The rolls as the side panel shows them: "Before the dice" (every factor of each side, the
//! chance of each outcome, the choices that are the player's, and "Why?" for any factor) and the
//! last roll thrown, with its dice and what came of it.

use crate::app::colours::side_colour;
use crate::app::{Game, Intent};
use crate::rules::command::Factor;
use crate::rules::command::{Command, Event};
use crate::rules::ruleset::{Outlook, OutlookPart, books};
use crate::text::report;
use bevy::prelude::*;
use bevy_egui::egui;

/// One side of the outlook: its factors with their sources on hover, and the sum; its lines
/// wrap to the dock's width rather than widen it.
pub(super) fn outlook_part(ui: &mut egui::Ui, p: &OutlookPart) {
    ui.strong(&p.heading);
    for f in &p.factors {
        ui.horizontal_wrapped(|ui| {
            // A factor of no value is a line of the working (a base's fire value, a halving).
            if f.value != 0 {
                ui.label(format!("{:+}", f.value));
            }
            ui.add(egui::Label::new(&f.name).wrap())
                .on_hover_text(books::cite(&f.source));
            if !f.source.is_empty()
                && ui
                    .small_button("Why?")
                    .on_hover_text("Open the rules reference at this factor's source")
                    .clicked()
            {
                ask_why(ui.ctx(), &f.name, vec![f.clone()]);
            }
        });
    }
    ui.add(egui::Label::new(egui::RichText::new(&p.summary).strong()).wrap());
}

/// What a "Why?" asked about: a title and the factors whose sources to show.
#[derive(Clone, Default)]
pub(super) struct Why {
    pub(super) title: String,
    pub(super) factors: Vec<Factor>,
}

pub(super) fn why_id() -> egui::Id {
    egui::Id::new("why_asked")
}

/// Opens the rules reference at these factors' sources (next frame).
pub(super) fn ask_why(ctx: &egui::Context, title: &str, factors: Vec<Factor>) {
    let why = Why {
        title: title.to_string(),
        factors,
    };
    ctx.data_mut(|d| d.insert_temp(why_id(), why));
}

/// The answer to a "Why?": each factor's source in words, the rulings it names with their
/// reasons, and the reference's rows from the same source.
pub(super) fn why_answer(ui: &mut egui::Ui, why: &Why, r: &crate::rules::ruleset::Reference) {
    ui.heading(format!("Why? {}", why.title));
    for f in &why.factors {
        ui.add_space(4.0);
        let value = if f.value != 0 {
            format!("{:+} ", f.value)
        } else {
            String::new()
        };
        ui.strong(format!("{value}{}", f.name));
        ui.label(format!("Source: {}", books::cite(&f.source)));
        for key in books::rulings_named(&f.source) {
            if let Some(rule) = r.rulings.iter().find(|x| x.key == key) {
                ui.label(egui::RichText::new(format!(
                    "Ruling, {}: {}",
                    rule.topic, rule.ruling
                )));
                ui.small(format!("Its reason: {}", rule.reason));
            }
        }
        for sec in &r.sections {
            for row in sec.rows.iter().filter(|row| row.source == f.source) {
                ui.small(format!("{}: {}", sec.title, row.cells.join("  ")));
            }
        }
    }
    ui.separator();
}

/// The side whose choice a box of the preview is, where that is a side other than the one
/// giving the command: whether a shot's target is supported in its defence is the
/// defender's choice.
pub(super) fn chooser(
    b: &crate::rules::battle::Battle,
    cmd: &Command,
    flipped: &Command,
) -> Option<crate::rules::model::Side> {
    match (cmd, flipped) {
        (
            Command::Fire {
                unit,
                target,
                defence,
                ..
            },
            Command::Fire { defence: d, .. },
        ) if defence != d => {
            let (u, t) = (b.unit(unit).ok()?, b.unit(target).ok()?);
            (u.side != t.side).then_some(t.side)
        }
        _ => None,
    }
}

/// The preview's choices first, so that ticking one never moves the others (the factors
/// under them change with it); a choice that is another side's is shown, not offered. Then
/// each side's factors, one under the other to fit the dock, the notes and the odds.
pub(super) fn outlook(
    ui: &mut egui::Ui,
    game: &Game,
    cmd: &Command,
    o: &Outlook,
) -> Option<Command> {
    let b = &game.play;
    let mut changed = None;
    for c in &o.choices {
        let mut on = c.on;
        match chooser(b, cmd, &c.flipped).filter(|side| Some(*side) != game.seated) {
            Some(side) => {
                let whose = b
                    .sides
                    .get(side)
                    .map_or("the other side", |s| s.name.as_str());
                ui.add_enabled(false, egui::Checkbox::new(&mut on, &c.label))
                    .on_disabled_hover_text(format!("{whose} decides this, not the firer"));
                ui.small(format!("{whose}'s choice: not yours to change"));
            }
            None => {
                if ui.checkbox(&mut on, &c.label).changed() {
                    changed = Some(c.flipped.clone());
                }
            }
        }
    }
    if !o.choices.is_empty() {
        ui.separator();
    }
    for (i, p) in o.parts.iter().enumerate() {
        if i > 0 {
            if o.opposed {
                ui.label(egui::RichText::new("against").italics());
            } else {
                ui.add_space(4.0);
            }
        }
        outlook_part(ui, p);
    }
    ui.separator();
    for n in &o.notes {
        ui.add(egui::Label::new(egui::RichText::new(n).italics()).wrap());
    }
    for c in &o.chances {
        ui.label(format!("{}: {:.1}%", c.outcome, c.chance * 100.0));
    }
    changed
}

/// The dice about to be thrown: factors, odds, choices and the Roll button; it stays open
/// until rolled or closed, whatever the tutor says next.
pub(super) fn preview_section(
    ui: &mut egui::Ui,
    game: &mut Game,
    intents: &mut MessageWriter<Intent>,
) {
    let Some(cmd) = game.pending.clone() else {
        return;
    };
    let preview = game.play.rules.preview(&game.play, &cmd);
    let mut close = false;
    let mut changed: Option<Command> = None;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        // The button that throws goes at the top, beside the heading: with supports ticked
        // the factors run taller than the window, and the button stays in sight above them.
        ui.horizontal(|ui| {
            ui.strong("Before the dice");
            if preview.is_ok() && ui.button(go_words(&cmd)).clicked() {
                intents.write(Intent::Do(cmd.clone()));
            }
            close = ui.small_button("close").clicked();
        });
        match &preview {
            Err(e) => {
                ui.colored_label(egui::Color32::LIGHT_RED, report::refusal(&game.play, e));
            }
            Ok(o) => {
                changed = outlook(ui, game, &cmd, o);
            }
        }
    });
    ui.add_space(4.0);
    if close {
        game.pending = None;
    } else if let Some(c) = changed {
        game.pending = Some(c);
    }
}

/// The words of the preview's button: a declaration only declares; other commands throw.
pub(super) fn go_words(cmd: &Command) -> &'static str {
    match cmd {
        Command::Declare { .. } => "Declare the charge",
        _ => "Roll the dice",
    }
}

/// Draws a die face with pips.
pub(super) fn die_face(ui: &mut egui::Ui, n: u8, colour: egui::Color32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(34.0, 34.0), egui::Sense::hover());
    let p = ui.painter();
    p.rect_filled(rect, 5.0, egui::Color32::from_gray(245));
    p.rect_stroke(
        rect,
        5.0,
        egui::Stroke::new(2.0, colour),
        egui::StrokeKind::Inside,
    );
    let c = rect.center();
    let d = 9.0;
    let at = |dx: f32, dy: f32| egui::pos2(c.x + dx * d, c.y + dy * d);
    let pips: &[(f32, f32)] = match n {
        1 => &[(0.0, 0.0)],
        2 => &[(-1.0, -1.0), (1.0, 1.0)],
        3 => &[(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
        4 => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
        5 => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (0.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
        _ => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (-1.0, 0.0),
            (1.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
    };
    for (dx, dy) in pips {
        p.circle_filled(at(*dx, *dy), 3.2, egui::Color32::from_gray(20));
    }
}

/// The dice of the latest roll of this phase, shown as dice, with the outcome in words.
pub(super) fn last_roll_section(
    ui: &mut egui::Ui,
    game: &Game,
    time: &Time,
    rolling: &mut (usize, f32),
) {
    let b = &game.play;
    // The latest roll of this phase.
    let Some((at, e, rolls)) = b
        .log
        .iter()
        .enumerate()
        .rev()
        .take_while(|(_, e)| !matches!(e, Event::PhaseBegan { .. }))
        .map(|(i, e)| (i, e, report::rolls(e)))
        .find(|(_, _, r)| !r.is_empty())
    else {
        return;
    };
    // A new roll tumbles for a moment before the dice settle.
    if rolling.0 != at + 1 {
        *rolling = (at + 1, 0.6);
    }
    rolling.1 = (rolling.1 - time.delta_secs()).max(0.0);
    let tumbling = rolling.1 > 0.0;
    let spin = (time.elapsed_secs() * 17.0) as u32;
    let face = |die: u8, salt: u32| {
        if tumbling {
            ((spin + salt * 3) % 6 + 1) as u8
        } else {
            die
        }
    };
    egui::CollapsingHeader::new(egui::RichText::new("Last roll").strong())
        .id_salt("last_roll")
        .default_open(true)
        .show(ui, |ui| {
            for (k, r) in rolls.iter().take(6).enumerate() {
                let side = r
                    .side
                    .or_else(|| {
                        r.unit
                            .as_ref()
                            .and_then(|id| b.unit(id).ok())
                            .map(|u| u.side)
                    })
                    .unwrap_or(0);
                let who = match (&r.unit, r.side) {
                    (Some(id), _) => b.unit(id).map(|u| u.name.clone()).unwrap_or_default(),
                    (None, Some(s)) => b.sides.get(s).map(|x| x.name.clone()).unwrap_or_default(),
                    _ => String::new(),
                };
                ui.horizontal_wrapped(|ui| {
                    for (i, d) in r.dice.iter().take(12).enumerate() {
                        die_face(
                            ui,
                            face(*d, (k * 12 + i) as u32 + 1),
                            side_colour(game, side),
                        );
                    }
                    let result = if tumbling {
                        "…".to_string()
                    } else if r.need.is_some() {
                        r.outcome.clone()
                    } else {
                        r.total.to_string()
                    };
                    ui.label(format!("{who} = {result}"));
                });
            }
            if !tumbling {
                ui.label(report::roll_result(b, e));
                // What the roll came to in the end, as the log says it: a unit beaten that
                // could not recoil is destroyed.
                for then in report::roll_aftermath(b, at) {
                    ui.strong(then);
                }
            }
        });
}
