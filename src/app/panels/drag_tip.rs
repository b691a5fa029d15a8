//! The tip beside a dragged base: the distance used against the allowance, or why the move
//! is refused.

use crate::app::state::{Pointer, Selection};
use crate::app::{Game, PanelSystems};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        drag_tip.in_set(PanelSystems::DragTip),
    );
}

/// The ruler's words beside the cursor while dragging: distance against allowance and going,
/// or why the move is illegal. The box keeps clear of where the move ends (the ghost and the
/// enemy it meets), on the side towards where the drag began where there is room.
fn drag_tip(
    mut ctx: EguiContexts,
    game: Res<Game>,
    sel: Res<Selection>,
    ptr: Res<Pointer>,
    cams: Query<(&Camera, &GlobalTransform), With<crate::app::state::BoardCamera>>,
    mut last_size: Local<Option<egui::Vec2>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let Some(drag) = &sel.drag else { return Ok(()) };
    if drag.steps.is_empty() && drag.refused.is_none() {
        return Ok(());
    }
    let Some(pos) = ctx.pointer_hover_pos() else {
        return Ok(());
    };
    let b = &game.play;
    let unit = &b.scale.unit;
    // The table's places on the screen, in egui's points.
    let screen = |p: crate::rules::geometry::Pt| {
        let (cam, gt) = cams.single().ok()?;
        let s = cam.world_to_viewport(gt, Vec3::new(p.x, p.y, 0.0)).ok()?;
        Some(egui::pos2(s.x, s.y) / ctx.zoom_factor().max(1e-3))
    };
    let mut ends = drag.ghost(b, ptr.world.unwrap_or(drag.start));
    let met = match (&drag.plan, drag.steps.last()) {
        (Ok(p), _) => p.contact.as_ref().map(|(t, _, _)| t.clone()),
        (Err(_), Some(crate::rules::command::Step::ToContact(t))) => Some(t.clone()),
        _ => None,
    };
    if let Some(t) = met.and_then(|t| b.unit(&t).ok()) {
        ends.push(t.base);
    }
    let corners: Vec<egui::Pos2> = ends
        .iter()
        .flat_map(|e| e.corners())
        .filter_map(screen)
        .collect();
    let keep_out = (!corners.is_empty()).then(|| egui::Rect::from_points(&corners).expand(6.0));
    let from = drag.moving_base(b).and_then(|s| screen(s.centre));
    let size = last_size.unwrap_or(egui::vec2(240.0, 36.0));
    let place = tip_place(pos, size, keep_out, from, ctx.viewport_rect());
    let shown = egui::Area::new(egui::Id::new("drag_tip"))
        .pivot(egui::Align2::LEFT_TOP)
        .fixed_pos(place)
        .show(ctx, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            egui::Frame::popup(ui.style()).show(ui, |ui| match &drag.plan {
                Ok(p) => {
                    ui.colored_label(egui::Color32::LIGHT_GREEN, p.ruler(*unit));
                    if let Some((t, _, _)) = &p.contact {
                        ui.label(format!(
                            "into contact with {}",
                            game.play
                                .unit(t)
                                .map(|u| u.name.clone())
                                .unwrap_or_default()
                        ));
                    }
                    if let Some(note) = game.play.rules.plan_note(p) {
                        ui.small(note);
                    }
                }
                Err(e) => {
                    // A refusal may run to a paragraph (the contact tried, the lining-up
                    // wheel's own refusal, the hint): wrapped, never cut by the window's edge.
                    ui.set_max_width(REFUSAL_WIDTH.min(ctx.viewport_rect().width() - 32.0));
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
                    ui.colored_label(egui::Color32::LIGHT_RED, e);
                }
            });
        });
    *last_size = Some(shown.response.rect.size());
    Ok(())
}

/// The widest a refusal's words run beside the cursor before they wrap, in points.
const REFUSAL_WIDTH: f32 = 420.0;

/// Where the ruler's box goes (its top left corner): beside the cursor where that leaves
/// `keep_out` clear, else just outside `keep_out` on the side nearest the cursor, preferring
/// the sides towards `from` (where the drag began), and always inside `view`.
fn tip_place(
    cursor: egui::Pos2,
    size: egui::Vec2,
    keep_out: Option<egui::Rect>,
    from: Option<egui::Pos2>,
    view: egui::Rect,
) -> egui::Pos2 {
    let inside = |p: egui::Pos2| {
        let max = (view.max - size).max(view.min);
        p.clamp(view.min, max)
    };
    let beside = inside(if cursor.x > view.center().x {
        cursor + egui::vec2(-16.0 - size.x, 16.0)
    } else {
        cursor + egui::vec2(16.0, 16.0)
    });
    let Some(r) = keep_out else { return beside };
    let clear = |p: egui::Pos2| !egui::Rect::from_min_size(p, size).intersects(r);
    if clear(beside) {
        return beside;
    }
    let onward = from.map(|f| cursor - f).unwrap_or(egui::Vec2::ZERO);
    let gap = 4.0;
    [
        egui::pos2(cursor.x - size.x / 2.0, r.max.y + gap),
        egui::pos2(cursor.x - size.x / 2.0, r.min.y - gap - size.y),
        egui::pos2(r.min.x - gap - size.x, cursor.y - size.y / 2.0),
        egui::pos2(r.max.x + gap, cursor.y - size.y / 2.0),
    ]
    .into_iter()
    .map(inside)
    .filter(|p| clear(*p))
    .min_by(|a, b| {
        let score = |p: &egui::Pos2| {
            let centre = *p + size / 2.0;
            let ahead = (centre - cursor).dot(onward) > 0.0;
            (centre - cursor).length() + if ahead { 1000.0 } else { 0.0 }
        };
        score(a).total_cmp(&score(b))
    })
    .unwrap_or(beside)
}
