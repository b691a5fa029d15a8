//! The unit card in the side dock: the ruleset's card of a unit, its orders as buttons, and
//! the units waiting to be deployed.

use crate::app::colours::side_colour;
use crate::app::state::{Pointer, Selection};
use crate::app::{Game, Intent};
use crate::rules::command::Command;
use crate::rules::model::Unit;
use crate::rules::ruleset::ActionGroup;
use crate::text::report;
use bevy::prelude::*;
use bevy_egui::egui;

pub(super) fn unit_card(ui: &mut egui::Ui, game: &Game, u: &Unit) {
    let card = game.play.rules.unit_card(&game.play, u);
    ui.colored_label(
        side_colour(game, card.side),
        egui::RichText::new(&card.title).strong(),
    );
    if u.status.exited {
        ui.label("Left the table: it counts for the scenario's victory, not as a loss");
    }
    for line in &card.lines {
        ui.label(line);
    }
}

/// The unit's buttons: each sends its command.
/// The unit's buttons. A button for a command with dice to preview (fire, fight, declare)
/// opens the preview, as a click on the target does; the others act at once. Returns the
/// command to preview.
fn action_buttons(
    ui: &mut egui::Ui,
    groups: &[ActionGroup],
    intents: &mut MessageWriter<Intent>,
) -> Option<Command> {
    let mut preview = None;
    if groups.is_empty() {
        return None;
    }
    ui.separator();
    for g in groups {
        if !g.note.is_empty() {
            ui.small(&g.note);
        }
        if g.actions.is_empty() {
            continue;
        }
        ui.horizontal_wrapped(|ui| {
            if !g.title.is_empty() {
                ui.label(&g.title);
            }
            for a in &g.actions {
                if ui.small_button(&a.label).clicked() {
                    if previewed(&a.command) {
                        preview = Some(a.command.clone());
                    } else {
                        intents.write(Intent::Do(a.command.clone()));
                    }
                }
            }
        });
    }
    preview
}

/// A command whose dice the player sees before they are thrown.
fn previewed(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Fire { .. } | Command::Fight { .. } | Command::Declare { .. }
    )
}

/// The selected or hovered unit: its buttons (none for a unit of the side the opponent plays,
/// `opponent`: it gives its own orders), its card, and whether it may fire at or fight the
/// hovered enemy.
pub(super) fn unit_section(
    ui: &mut egui::Ui,
    game: &Game,
    sel: &mut Selection,
    ptr: &Pointer,
    intents: &mut MessageWriter<Intent>,
    opponent: Option<usize>,
) -> Option<Command> {
    let (b, rules) = (&game.play.battle, &game.play.rules);
    deployment_list(ui, game, sel, intents);
    let mut preview = None;

    let shown = sel.card(ptr.hover.as_ref());
    // The buttons belong to the unit the card names: a hovered unit's card has none.
    if let Some(u) = shown
        .as_ref()
        .filter(|c| c.buttons)
        .and_then(|c| b.unit(&c.unit).ok())
    {
        if opponent == Some(u.side) {
            ui.small("The opponent's unit: it gives its own orders.");
        } else {
            preview = action_buttons(ui, &game.play.actions(u), intents);
        }
    }
    match shown.and_then(|c| b.unit(&c.unit).ok()) {
        Some(u) => unit_card(ui, game, u),
        None => {
            ui.label("Click a unit to select it; drag to move it.");
        }
    }
    // Why the selected unit can or cannot fire at or fight the hovered enemy, in words.
    if let (Some(sid), Some(hid)) = (&sel.unit, &ptr.hover)
        && let (Ok(s), Ok(h)) = (b.unit(sid), b.unit(hid))
        && s.side != h.side
        && let Some(cmd) = rules.target_command(b, sid, hid)
    {
        ui.separator();
        match rules.preview(b, &cmd) {
            Ok(_) => {
                ui.colored_label(
                    egui::Color32::LIGHT_GREEN,
                    format!("{} may {} {}: click it", s.name, cmd.verb(), h.name),
                );
            }
            Err(e) => {
                ui.colored_label(egui::Color32::LIGHT_RED, report::refusal(b, &e));
            }
        }
    }
    ui.separator();
    ui.small(rules.turn_words(b).controls);
    ui.small("Right drag or WASD: pan · wheel: zoom · Home: fit");
    ui.small("Firing / close combat: select your unit, click an enemy");
    preview
}

/// Formal deployment: the units of the division now deploying, to pick and place, and what
/// else the side may do (fortify).
fn deployment_list(
    ui: &mut egui::Ui,
    game: &Game,
    sel: &mut Selection,
    intents: &mut MessageWriter<Intent>,
) {
    let (b, rules) = (&game.play.battle, &game.play.rules);
    let Some(d) = rules.deployment(b) else {
        return;
    };
    ui.colored_label(
        side_colour(game, d.side),
        egui::RichText::new(&d.title).strong(),
    );
    for (id, label) in &d.waiting {
        let picked = sel.placing.as_ref() == Some(id);
        if ui.selectable_label(picked, label).clicked() {
            sel.placing = Some(id.clone());
        }
    }
    ui.small(&d.note);
    for a in &d.actions {
        if ui.button(&a.label).clicked() {
            intents.write(Intent::Do(a.command.clone()));
        }
    }
    ui.separator();
}
