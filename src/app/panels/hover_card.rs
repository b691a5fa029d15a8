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

/// How far from the board's bottom left corner the card may reach (its width and a margin;
/// its height is less).
const CARD_SPAN: f32 = 290.0;

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
    // At the board's bottom left corner; where the pointer is in that corner (the unit
    // hovered is under it), at the bottom right instead. It only shows: it never takes the
    // pointer, so a click goes through to the unit even where the card stands over it.
    let screen = ctx.content_rect();
    let in_corner =
        pos.x < screen.left() + CARD_SPAN && pos.y > screen.bottom() - docks.bottom - CARD_SPAN;
    let (corner, offset) = if in_corner {
        (
            egui::Align2::RIGHT_BOTTOM,
            [-(docks.right + 8.0), -(docks.bottom + 8.0)],
        )
    } else {
        (egui::Align2::LEFT_BOTTOM, [8.0, -(docks.bottom + 8.0)])
    };
    egui::Area::new(egui::Id::new("hover_card"))
        .anchor(corner, offset)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(260.0);
                unit_card(ui, &game, u);
            });
        });
    Ok(())
}
