//! The panels (egui), each its own file and plugin: the turn bar, the notices, the side dock
//! (tutor, dice, unit card), the log, the hotseat handover, the game over, the replay controls,
//! the briefing, the rules reference, the drag tip, the scale bar, the hover card, the legend
//! and the mini-map. Their order each frame is `PanelSystems`'.

mod banners;
mod briefing;
mod drag_tip;
mod game_over;
mod handover;
mod hover_card;
mod legend;
mod log;
mod mini_map;
mod reference;
mod replay;
mod rolls;
mod scale_bar;
mod side_dock;
mod turn_bar;
mod unit_card;

pub use handover::HandoverShown;

use super::state::{Docks, Selection};
use bevy::prelude::*;
use bevy_egui::egui;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Docks>().add_plugins((
        turn_bar::plugin,
        banners::plugin,
        side_dock::plugin,
        log::plugin,
        handover::plugin,
        game_over::plugin,
        reference::plugin,
        drag_tip::plugin,
        scale_bar::plugin,
        hover_card::plugin,
        replay::plugin,
        briefing::plugin,
        legend::plugin,
        mini_map::plugin,
    ));
}

/// A folded panel's strip.
const FOLDED: f32 = 26.0;

/// A root for a docked panel: the window less the turn bar and, for the log, the side panel.
fn dock_root(ctx: &egui::Context, docks: &Docks, beside_side: bool) -> egui::Ui {
    let mut rect = ctx.viewport_rect();
    // The turn bar floats at the top: the docks begin under it.
    let top = ctx
        .memory(|m| m.area_rect(egui::Id::new("turn")))
        .map_or(docks.top, |r| r.bottom());
    rect.min.y = top.max(rect.min.y);
    if beside_side {
        rect.max.x -= docks.right;
    }
    egui::Ui::new(
        ctx.clone(),
        egui::Id::new(("dock_root", beside_side)),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(rect),
    )
}

/// Whether the pointer is over a docked panel now (not while a base is dragged from the table).
fn claim_pointer(ctx: &egui::Context, docks: &mut Docks, sel: &Selection) {
    let view = ctx.viewport_rect();
    docks.has_pointer = sel.drag.is_none()
        && ctx.input(|i| i.pointer.latest_pos()).is_some_and(|p| {
            p.y >= docks.top
                && (p.x >= view.right() - docks.right || p.y >= view.bottom() - docks.bottom)
        });
}
