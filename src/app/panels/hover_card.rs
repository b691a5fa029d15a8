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

/// Where the card stands: at the board's bottom left corner, or at its bottom right while
/// the pointer is in that corner (the unit hovered is under it there). The anchor, and the
/// offset from it in points.
fn place(pointer: egui::Pos2, screen: egui::Rect, docks: &Docks) -> (egui::Align2, [f32; 2]) {
    let in_corner = pointer.x < screen.left() + CARD_SPAN
        && pointer.y > screen.bottom() - docks.bottom - CARD_SPAN;
    if in_corner {
        (
            egui::Align2::RIGHT_BOTTOM,
            [-(docks.right + 8.0), -(docks.bottom + 8.0)],
        )
    } else {
        (egui::Align2::LEFT_BOTTOM, [8.0, -(docks.bottom + 8.0)])
    }
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
    // It only shows: it never takes the pointer, so a click goes through to the unit even
    // where the card stands over it.
    let (corner, offset) = place(pos, ctx.content_rect(), &docks);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_card_leaves_the_corner_the_pointer_is_in() {
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 720.0));
        let docks = Docks {
            bottom: 170.0,
            right: 330.0,
            ..Docks::default()
        };
        // IR 23 in the table's bottom left corner (as in Hal's default): the card goes right.
        let (corner, offset) = place(egui::pos2(110.0, 436.0), screen, &docks);
        assert_eq!(corner, egui::Align2::RIGHT_BOTTOM);
        assert_eq!(
            offset,
            [-338.0, -178.0],
            "clear of the side panel and the log"
        );
        // Anywhere else it stands in that corner.
        for at in [egui::pos2(600.0, 436.0), egui::pos2(110.0, 150.0)] {
            assert_eq!(
                place(at, screen, &docks).0,
                egui::Align2::LEFT_BOTTOM,
                "{at:?}"
            );
        }
    }
}
