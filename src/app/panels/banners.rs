//! The notices over the table, between the docks: the refusal, the confirmation and what
//! waits to be confirmed.

use crate::app::state::{Docks, banner_at};
use crate::app::{Game, PanelSystems};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        banners.in_set(PanelSystems::Banners),
    );
}

/// A banner floating over the table under the turn bar, in slot `slot` (0 the first): it
/// covers a strip of the table while shown and never moves the board.
pub(super) fn banner(
    ctx: &egui::Context,
    docks: &Docks,
    id: &str,
    slot: usize,
    colour: egui::Color32,
    text: &str,
) -> bool {
    let mut closed = false;
    egui::Area::new(egui::Id::new(("banner", id)))
        .anchor(egui::Align2::CENTER_TOP, banner_at(docks, slot))
        .order(egui::Order::Foreground)
        .interactable(true)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                let width = (ctx.viewport_rect().width() - docks.right - 40.0).max(200.0);
                ui.set_max_width(width);
                ui.horizontal_top(|ui| {
                    // A long refusal wraps within the table, its close button beside it.
                    ui.scope(|ui| {
                        ui.set_max_width((width - 60.0).max(140.0));
                        ui.add(egui::Label::new(egui::RichText::new(text).color(colour)).wrap());
                    });
                    closed = ui.small_button("close").clicked();
                });
            });
        });
    closed
}

/// The last refusal (red) and the last word from the game (a save, a load), each in its own
/// slot over the table; a command carried out clears both.
fn banners(mut ctx: EguiContexts, mut game: ResMut<Game>, docks: Res<Docks>) -> Result {
    let ctx = ctx.ctx_mut()?;
    if let Some(m) = game.message.clone()
        && banner(
            ctx,
            &docks,
            "refusal",
            0,
            egui::Color32::from_rgb(230, 90, 70),
            &m,
        )
    {
        game.message = None;
    }
    if let Some(m) = game.notice.clone()
        && banner(
            ctx,
            &docks,
            "notice",
            1,
            egui::Color32::from_rgb(200, 210, 190),
            &m,
        )
    {
        game.notice = None;
    }
    Ok(())
}
