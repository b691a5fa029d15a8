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
            // What each side lost: units, and its strength as the rules count it where that
            // differs (bases, figures, a weighted count).
            for side in 0..b.sides.len().min(2) {
                let (lost, had) = rules.units_lost(b, side);
                let (cut, whole) = rules.casualties(b, side);
                let share = |a: f32, h: f32| if h > 0.0 { a / h * 100.0 } else { 0.0 };
                let mut line = format!(
                    "{} lost {lost:.0} of {had:.0} units ({:.0}%)",
                    b.sides[side].name,
                    share(lost, had)
                );
                if (share(cut, whole) - share(lost, had)).abs() >= 0.5 {
                    line += &format!(
                        "; {:.0}% of its strength as the rules count it",
                        share(cut, whole)
                    );
                }
                ui.colored_label(side_ink(&game, side), line);
            }
            losses_chart(ui, &game);
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

/// Units lost by the end of each turn: a bar per side per turn, over a scale of units lost
/// and the turns, with each side's colour named.
fn losses_chart(ui: &mut egui::Ui, game: &Game) {
    let b = &game.play.battle;
    let rows = crate::rules::ruleset::common::losses_by_turn(b);
    let most = rows
        .iter()
        .flat_map(|r| r.iter())
        .copied()
        .max()
        .unwrap_or(1)
        .max(1);
    ui.label("Units lost by the end of each turn");
    let (whole, _) = ui.allocate_exact_size(egui::vec2(380.0, 110.0), egui::Sense::hover());
    let painter = ui.painter_at(whole);
    let font = egui::FontId::proportional(10.0);
    let ink = egui::Color32::GRAY;
    // The plot, right of the scale and above the turns.
    let rect = egui::Rect::from_min_max(
        whole.min + egui::vec2(26.0, 4.0),
        whole.max - egui::vec2(0.0, 16.0),
    );
    let y_of = |n: u32| rect.bottom() - n as f32 / most as f32 * rect.height();
    // The scale: nothing, half and the most, with a faint line across at each.
    for n in [0, most / 2, most] {
        let y = y_of(n);
        painter.line_segment(
            [egui::pos2(rect.left(), y), egui::pos2(rect.right(), y)],
            egui::Stroke::new(0.5, egui::Color32::from_gray(70)),
        );
        painter.text(
            egui::pos2(rect.left() - 4.0, y),
            egui::Align2::RIGHT_CENTER,
            n.to_string(),
            font.clone(),
            ink,
        );
    }
    painter.line_segment(
        [rect.left_top(), rect.left_bottom()],
        egui::Stroke::new(1.0, ink),
    );
    let w = rect.width() / rows.len().max(1) as f32;
    for (t, row) in rows.iter().enumerate() {
        for (side, lost) in row.iter().enumerate() {
            let x = rect.left() + t as f32 * w + side as f32 * w * 0.45 + 2.0;
            let r = egui::Rect::from_min_max(
                egui::pos2(x, y_of(*lost)),
                egui::pos2(x + w * 0.4, rect.bottom()),
            );
            painter.rect_filled(r, 1.0, side_colour(game, side));
        }
        painter.text(
            egui::pos2(rect.left() + t as f32 * w + w / 2.0, whole.bottom()),
            egui::Align2::CENTER_BOTTOM,
            format!("{}", t + 1),
            font.clone(),
            ink,
        );
    }
    ui.horizontal(|ui| {
        ui.small("Turn below; colours:");
        for side in 0..b.sides.len().min(2) {
            let (r, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
            ui.painter().rect_filled(r, 1.0, side_colour(game, side));
            ui.small(&b.sides[side].name);
        }
    });
    ui.small("The whole log is in the log window.");
}
