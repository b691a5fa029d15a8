//! The scale bar in the table's corner, in the ruleset's units.

use crate::app::{Game, PanelSystems};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        scale_bar.in_set(PanelSystems::ScaleBar),
    );
}

/// A scale bar in the ruleset's units, sized to the current zoom.
fn scale_bar(
    mut ctx: EguiContexts,
    game: Res<Game>,
    cams: Query<&Projection, With<crate::app::state::BoardCamera>>,
    docks: Option<Res<crate::app::state::Docks>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let Some(Projection::Orthographic(o)) = cams.iter().next() else {
        return Ok(());
    };
    let b = &game.play;
    // Logical pixels per mm on screen.
    let px_per_mm =
        1.0 / o.scale.max(1e-3) / ctx.pixels_per_point().max(1e-3) * ctx.pixels_per_point();
    let target_px = 120.0;
    let units = b.scale.from_mm(target_px / px_per_mm);
    let nice = [
        10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0, 2000.0, 5000.0,
    ];
    let len_units = nice.iter().copied().rfind(|n| *n <= units).unwrap_or(10.0);
    let len_px = b.scale.to_mm(len_units) * px_per_mm;
    // Just above the log, wherever its top edge is (folded, opened or resized).
    let log = docks.map_or(crate::app::state::LOG_HEIGHT, |d| d.bottom);
    let bottom = ctx.viewport_rect().bottom();
    egui::Area::new(egui::Id::new("scale_bar"))
        .order(egui::Order::Background)
        .fixed_pos(egui::pos2(12.0, bottom - log - 60.0))
        .show(ctx, |ui| {
            let (rect, _) =
                ui.allocate_exact_size(egui::vec2(len_px + 4.0, 22.0), egui::Sense::hover());
            let p = ui.painter();
            let y = rect.top() + 14.0;
            let stroke = egui::Stroke::new(2.0, egui::Color32::WHITE);
            p.line_segment(
                [
                    egui::pos2(rect.left(), y),
                    egui::pos2(rect.left() + len_px, y),
                ],
                stroke,
            );
            p.line_segment(
                [
                    egui::pos2(rect.left(), y - 4.0),
                    egui::pos2(rect.left(), y + 4.0),
                ],
                stroke,
            );
            p.line_segment(
                [
                    egui::pos2(rect.left() + len_px, y - 4.0),
                    egui::pos2(rect.left() + len_px, y + 4.0),
                ],
                stroke,
            );
            p.text(
                egui::pos2(rect.left(), rect.top()),
                egui::Align2::LEFT_TOP,
                format!("{len_units:.0} {}", b.scale.unit),
                egui::FontId::proportional(11.0),
                egui::Color32::WHITE,
            );
        });
    Ok(())
}
