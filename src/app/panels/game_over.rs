//! The battle's end: its result, each side's standing, the losses by turn and a replay.

use crate::app::colours::{side_colour, side_ink};
use crate::app::state::Screen;
use crate::app::{Game, PanelSystems};
use crate::rules::command::Event;
use crate::text::report;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        game_over
            .run_if(in_state(Screen::GameOver))
            .in_set(PanelSystems::GameOver),
    );
}

fn game_over(
    mut ctx: EguiContexts,
    game: Res<Game>,
    mut commands: Commands,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let (b, rules) = (&game.play.battle, &game.play.rules);
    egui::Window::new("The battle is over")
        .collapsible(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            if let Some(e) = b
                .log
                .iter()
                .rev()
                .find(|e| matches!(e, Event::GameOver { .. }))
            {
                ui.heading(report::describe(&game.play, e));
            }
            // The conditions met, then where each side stood by the objectives and by the
            // rules' own measure.
            for e in b.log.iter().rev() {
                if let Event::ConditionMet { condition, .. } = e {
                    ui.label(egui::RichText::new(format!("Met: {condition}")).strong());
                    break;
                }
            }
            for (side, line) in game.play.standing().into_iter().enumerate() {
                ui.colored_label(side_ink(&game, side), line);
            }
            for line in rules.standing(b) {
                ui.label(line);
            }
            // Units lost by the end of each turn: a bar per side per turn.
            let rows = crate::rules::ruleset::common::losses_by_turn(b);
            let most = rows
                .iter()
                .flat_map(|r| r.iter())
                .copied()
                .max()
                .unwrap_or(1)
                .max(1) as f32;
            let (rect, _) = ui.allocate_exact_size(egui::vec2(360.0, 90.0), egui::Sense::hover());
            let painter = ui.painter_at(rect);
            let w = rect.width() / rows.len().max(1) as f32;
            for (t, row) in rows.iter().enumerate() {
                for (side, lost) in row.iter().enumerate() {
                    let h = *lost as f32 / most * (rect.height() - 14.0);
                    let x = rect.left() + t as f32 * w + side as f32 * w * 0.45 + 2.0;
                    let r = egui::Rect::from_min_max(
                        egui::pos2(x, rect.bottom() - 12.0 - h),
                        egui::pos2(x + w * 0.4, rect.bottom() - 12.0),
                    );
                    painter.rect_filled(r, 1.0, side_colour(&game, side));
                }
                painter.text(
                    egui::pos2(rect.left() + t as f32 * w + w / 2.0, rect.bottom()),
                    egui::Align2::CENTER_BOTTOM,
                    format!("{}", t + 1),
                    egui::FontId::proportional(9.0),
                    egui::Color32::GRAY,
                );
            }
            ui.small("Units lost by the end of each turn. The whole log is in the log window.");
            if ui.button("Replay the battle").clicked() {
                match crate::app::Replay::start(b) {
                    Ok((fresh, mut replay)) => {
                        replay.playing = true;
                        commands.insert_resource(replay);
                        commands.insert_resource(Game::new(fresh, true, game.save_dir.clone()));
                        screen.set(Screen::Playing);
                    }
                    Err(e) => warn!("cannot replay: {e}"),
                }
            }
            if ui.button("Back to the title screen").clicked() {
                screen.set(Screen::Title);
            }
        });
    Ok(())
}
