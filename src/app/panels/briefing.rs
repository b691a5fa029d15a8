//! The scenario's briefing over the table before the first command.

use crate::app::colours::side_ink;
use crate::app::state::Screen;
use crate::app::{Game, PanelSystems};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        briefing
            .run_if(in_state(Screen::Briefing))
            .in_set(PanelSystems::Briefing),
    );
}

/// The scenario's briefing, shown when a game opens (not for a tutorial, whose first step is
/// its briefing, nor a replay).
fn briefing(
    mut ctx: EguiContexts,
    game: Res<Game>,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let (b, rules) = (&game.play.battle, &game.play.rules);
    let mut close = false;
    egui::Window::new(format!("Briefing: {}", b.info.name))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .default_width(520.0)
        .show(ctx, |ui| {
            ui.set_max_width(520.0);
            ui.label(
                egui::RichText::new(format!("{} · {}", b.info.date, rules.get().name())).small(),
            );
            ui.add_space(4.0);
            ui.label(egui::RichText::new(&b.info.description).size(15.0));
            if !b.scenario.victory.is_empty() {
                ui.add_space(4.0);
                ui.label(format!("Victory: {}", b.scenario.victory));
            }
            // The conditions as the game will judge them, in the same words as its end.
            let conditions = game.play.victory_words();
            if !conditions.is_empty() {
                ui.add_space(4.0);
                ui.label(egui::RichText::new("How the battle is decided").strong());
                for line in conditions {
                    ui.label(format!("• {line}"));
                }
            }
            ui.add_space(4.0);
            for (i, s) in b.sides.iter().enumerate() {
                ui.colored_label(side_ink(&game, i), &s.name);
            }
            ui.add_space(6.0);
            if ui.button("To the table").clicked() {
                close = true;
            }
        });
    if close {
        screen.set(Screen::Playing);
    }
    Ok(())
}
