//! The replay's controls: step, play and pause through a game, event by event.

use crate::app::state::{Docks, Screen};
use crate::app::{Game, PanelSystems};
use crate::text::report;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        replay_panel.in_set(PanelSystems::Replay),
    );
}

/// The replay's controls: step event by event, forwards and backwards, or play on.
fn replay_panel(
    mut ctx: EguiContexts,
    mut game: ResMut<Game>,
    replay: Option<ResMut<crate::app::Replay>>,
    mut screen: ResMut<NextState<Screen>>,
    docks: Res<Docks>,
) -> Result {
    use crate::app::ReplayStep;
    let ctx = ctx.ctx_mut()?;
    let Some(mut r) = replay else { return Ok(()) };
    let mut how = None;
    // In the table's bottom right corner, clear of the docked side panel and the log.
    egui::Window::new("Replay")
        .anchor(
            egui::Align2::RIGHT_BOTTOM,
            [-(docks.right + 8.0), -(docks.bottom + 8.0)],
        )
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(format!(
                "Event {} of {} · command {} of {}",
                r.shown,
                r.total(),
                r.done,
                r.commands()
            ));
            if let Some(e) = r.shown.checked_sub(1).and_then(|i| game.play.log.get(i)) {
                ui.strong(report::describe(&game.play, e));
            }
            ui.horizontal(|ui| {
                if ui.button("|<").on_hover_text("To the start").clicked() {
                    how = Some(ReplayStep::ToStart);
                }
                if ui
                    .button("<")
                    .on_hover_text("One event back (comma)")
                    .clicked()
                {
                    how = Some(ReplayStep::Back);
                }
                let play = if r.playing { "Pause" } else { "Play" };
                if ui.button(play).on_hover_text("P").clicked() {
                    r.playing = !r.playing;
                }
                if ui
                    .button(">")
                    .on_hover_text("One event on (period)")
                    .clicked()
                {
                    how = Some(ReplayStep::Forward);
                }
                if ui.button(">|").on_hover_text("To the end").clicked() {
                    how = Some(ReplayStep::ToEnd);
                }
                if ui.button("Close").clicked() {
                    screen.set(Screen::Title);
                }
            });
        });
    if let Some(h) = how {
        let before = r.done;
        if r.step(&mut game.play, h) && r.done != before {
            game.version += 1;
        }
    }
    Ok(())
}
