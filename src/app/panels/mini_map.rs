//! The mini-map: the whole table and the camera's view of it, clicked to move the view.

use crate::app::colours::{side_colour, to_egui};
use crate::app::state::Docks;
use crate::app::{Game, PanelSystems};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        mini_map.in_set(PanelSystems::MiniMap),
    );
}

/// A mini-map of the whole table when zoomed in: terrain, units, and the part on the screen;
/// a click there moves the view.
fn mini_map(
    mut ctx: EguiContexts,
    game: Res<Game>,
    docks: Res<Docks>,
    mut cams: Query<(&mut Transform, &Projection), With<crate::app::state::BoardCamera>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let Some((mut cam, Projection::Orthographic(o))) = cams.iter_mut().next() else {
        return Ok(());
    };
    let b = &game.play;
    let screen = ctx.viewport_rect();
    // World size of the view.
    let view = egui::vec2(screen.width() * o.scale, screen.height() * o.scale);
    if view.x >= b.table.width * 0.95 && view.y >= b.table.height * 0.95 {
        return Ok(());
    }
    let w = 200.0;
    let k = w / b.table.width;
    let h = b.table.height * k;
    let mut go = None;
    egui::Area::new(egui::Id::new("mini_map"))
        .anchor(
            egui::Align2::RIGHT_TOP,
            [-(docks.right + 8.0), docks.top + 4.0],
        )
        .order(egui::Order::Middle)
        .show(ctx, |ui| {
            let (rect, resp) =
                ui.allocate_exact_size(egui::vec2(w, h), egui::Sense::click_and_drag());
            let p = ui.painter_at(rect);
            let at = |x: f32, y: f32| egui::pos2(rect.left() + x * k, rect.bottom() - y * k);
            p.rect_filled(
                rect,
                2.0,
                to_egui(crate::app::terrain_art::rgb(0.50, 0.60, 0.35)),
            );
            for f in b.terrain.features.iter() {
                let col = to_egui(crate::app::terrain_art::colour(f.kind));
                if f.kind.is_linear() {
                    let pts: Vec<egui::Pos2> = f.points.iter().map(|q| at(q.x, q.y)).collect();
                    p.add(egui::Shape::line(pts, egui::Stroke::new(2.0, col)));
                } else {
                    for t in f.triangles() {
                        p.add(egui::Shape::convex_polygon(
                            t.iter().map(|q| at(q.x, q.y)).collect(),
                            col,
                            egui::Stroke::NONE,
                        ));
                    }
                }
            }
            for u in b.alive() {
                p.circle_filled(
                    at(u.base.centre.x, u.base.centre.y),
                    2.0,
                    side_colour(&game, u.side),
                );
            }
            let c = cam.translation;
            let lo = at(c.x - view.x / 2.0, c.y - view.y / 2.0);
            let hi = at(c.x + view.x / 2.0, c.y + view.y / 2.0);
            p.rect_stroke(
                egui::Rect::from_two_pos(lo, hi),
                0.0,
                egui::Stroke::new(1.5, egui::Color32::WHITE),
                egui::StrokeKind::Inside,
            );
            p.rect_stroke(
                rect,
                2.0,
                egui::Stroke::new(1.0, egui::Color32::BLACK),
                egui::StrokeKind::Inside,
            );
            if (resp.clicked() || resp.dragged())
                && let Some(pos) = resp.interact_pointer_pos()
            {
                go = Some(Vec2::new(
                    (pos.x - rect.left()) / k,
                    (rect.bottom() - pos.y) / k,
                ));
            }
        });
    if let Some(g) = go {
        cam.translation = g.extend(cam.translation.z);
    }
    Ok(())
}
