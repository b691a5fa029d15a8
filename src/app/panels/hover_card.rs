//! The card of the unit under the pointer, beside it on the table.

use super::unit_card::unit_card;
use crate::app::state::{Docks, Pointer, Selection};
use crate::app::{Game, PanelSystems};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        hover_card.in_set(PanelSystems::HoverCard),
    );
}

/// The unit card as a tooltip beside the pointer while hovering a unit.
fn hover_card(
    mut ctx: EguiContexts,
    game: Res<Game>,
    ptr: Res<Pointer>,
    sel: Res<Selection>,
    docks: Res<Docks>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    if sel.drag.is_some() {
        return Ok(());
    }
    let Some(id) = &ptr.hover else { return Ok(()) };
    // The selected unit's card is in the side panel already.
    if sel.unit.as_ref() == Some(id) {
        return Ok(());
    }
    let Ok(u) = game.play.unit(id) else {
        return Ok(());
    };
    let Some(pos) = ctx.pointer_hover_pos() else {
        return Ok(());
    };
    // At the board's left edge (below the legend's corner), never over the units round the
    // pointer.
    let _ = pos;
    egui::Area::new(egui::Id::new("hover_card"))
        .anchor(egui::Align2::LEFT_BOTTOM, [8.0, -(docks.bottom + 8.0)])
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(260.0);
                unit_card(ui, &game, u);
            });
        });
    Ok(())
}
