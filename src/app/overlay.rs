//! Overlays drawn with gizmos: selection and hover, the drag ghost and ruler, fire arcs and
//! ranges, threat zones, line of sight, reach, eligible targets and hill contours.

use super::input::{Overlays, Pointer, Selection};
use super::{AppSystems, Game};
use crate::rules::geometry::{Base, Edge, Pt};
use crate::rules::model::Phase;
use crate::rules::terrain::FeatureKind;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, draw.in_set(AppSystems::Draw));
}

fn v(p: Pt) -> Vec2 {
    Vec2::new(p.x, p.y)
}

fn outline(g: &mut Gizmos, b: &Base, c: Color) {
    let cs = b.corners();
    g.linestrip_2d([v(cs[0]), v(cs[1]), v(cs[2]), v(cs[3]), v(cs[0])], c);
}

fn draw(
    mut g: Gizmos,
    game: Res<Game>,
    sel: Res<Selection>,
    ptr: Res<Pointer>,
    overlays: Res<Overlays>,
) {
    let b = &game.battle;
    let Some(dbn) = b.rules.dbn() else { return };
    // Hill contours: each level's outline, darker as it climbs.
    for f in b
        .terrain
        .features
        .iter()
        .filter(|f| f.kind == FeatureKind::Hill)
    {
        let c = Color::srgba(0.35, 0.25, 0.1, 0.35 + 0.15 * f.level.min(4) as f32);
        let mut pts: Vec<Vec2> = f.points.iter().map(|p| v(*p)).collect();
        if let Some(first) = pts.first().copied() {
            pts.push(first);
        }
        g.linestrip_2d(pts, c);
    }
    // Fortified towns and villages: a heavy dark outline.
    for f in b.terrain.features.iter().filter(|f| f.fortified) {
        let mut pts: Vec<Vec2> = f.points.iter().map(|p| v(*p)).collect();
        if let Some(first) = pts.first().copied() {
            pts.push(first);
        }
        g.linestrip_2d(pts.clone(), Color::srgb(0.35, 0.05, 0.05));
        g.linestrip_2d(
            pts.iter().map(|p| *p + Vec2::splat(0.8)),
            Color::srgb(0.35, 0.05, 0.05),
        );
    }
    // Table edge.
    g.rect_2d(
        Isometry2d::from_translation(Vec2::new(b.table.width / 2.0, b.table.height / 2.0)),
        Vec2::new(b.table.width, b.table.height),
        Color::srgb(0.1, 0.1, 0.1),
    );
    for id in &game.highlight {
        if let Ok(u) = b.unit(id) {
            outline(&mut g, &u.base, Color::srgb(1.0, 0.5, 0.0));
        }
    }
    if let Some(id) = &ptr.hover
        && let Ok(u) = b.unit(id)
    {
        outline(&mut g, &u.base, Color::srgba(1.0, 1.0, 1.0, 0.8));
    }
    if overlays.zones {
        for e in b
            .alive()
            .filter(|e| e.side != b.active && !dbn.is_commander(e) && e.troop != "Bg")
        {
            if dbn.in_close_combat(b, e) {
                continue;
            }
            let tz = e
                .base
                .threat_zone(e.base.width * dbn.num("threat_zone_depth_bw"));
            outline(&mut g, &tz, Color::srgba(0.9, 0.2, 0.1, 0.7));
        }
    }
    let Some(sid) = &sel.unit else { return };
    let Ok(s) = b.unit(sid) else { return };
    outline(&mut g, &s.base, Color::srgb(1.0, 0.9, 0.1));
    for id in &sel.group {
        if let Ok(u) = b.unit(id) {
            outline(&mut g, &u.base, Color::srgb(1.0, 0.75, 0.1));
        }
    }
    let troop = dbn.troop_of(s);
    if overlays.arcs
        && let Some(range) = troop.range
    {
        let reach = b.scale.to_mm(range);
        let half = dbn.num("arc_half_angle");
        let (fl, fr) = (s.base.front_left(), s.base.front_right());
        let left = fl.plus(s.base.forward().rotate(-half).scale(reach));
        let right = fr.plus(s.base.forward().rotate(half).scale(reach));
        let c = Color::srgba(1.0, 0.85, 0.2, 0.8);
        g.line_2d(v(fl), v(left), c);
        g.line_2d(v(fr), v(right), c);
        // The range as an arc of points at `reach` from the front edge.
        let mut pts = Vec::new();
        for k in 0..=24 {
            let a = -half + 2.0 * half * k as f32 / 24.0;
            let origin = if a < 0.0 {
                fl
            } else if a > 0.0 {
                fr
            } else {
                s.base.front_centre()
            };
            pts.push(v(origin.plus(s.base.forward().rotate(a).scale(reach))));
        }
        g.linestrip_2d(pts, c);
    }
    if overlays.reach
        && let Some(gg) = troop.gg
    {
        let r = b.scale.to_mm(gg);
        g.circle_2d(
            Isometry2d::from_translation(v(s.base.centre)),
            r,
            Color::srgba(0.3, 0.9, 1.0, 0.7),
        );
        if let Some(bg) = troop.bg {
            g.circle_2d(
                Isometry2d::from_translation(v(s.base.centre)),
                b.scale.to_mm(bg),
                Color::srgba(0.3, 0.6, 1.0, 0.5),
            );
        }
    }
    for e in b.alive().filter(|e| e.side != s.side) {
        if overlays.sight {
            let from = s.base.front_centre();
            let to = e.base.centre;
            let c = match dbn.line_of_sight(b, s, e) {
                Ok(()) => Color::srgba(0.2, 0.9, 0.3, 0.7),
                Err(why) => {
                    // Mark what blocks: a unit or a terrain feature, by the name given.
                    let blocker = why.rsplit("blocked by ").next().unwrap_or("");
                    let mark = Color::srgb(0.9, 0.2, 0.9);
                    for u in b.alive().filter(|u| u.name == blocker) {
                        outline(&mut g, &u.base, mark);
                    }
                    for f in b
                        .terrain
                        .features
                        .iter()
                        .filter(|f| f.name == blocker && !f.kind.is_linear())
                    {
                        let mut pts: Vec<Vec2> = f.points.iter().map(|p| v(*p)).collect();
                        if let Some(first) = pts.first().copied() {
                            pts.push(first);
                        }
                        g.linestrip_2d(pts, mark);
                    }
                    Color::srgba(0.9, 0.2, 0.2, 0.5)
                }
            };
            g.line_2d(v(from), v(to), c);
        }
        // Eligible targets this phase.
        let eligible = match b.phase {
            Phase::Firing if s.side == b.active => dbn.fire_check(b, s, e, false).is_ok(),
            Phase::CloseCombat if s.side == b.active => {
                dbn.contacts(b, s).iter().any(|(x, _)| x == &e.id)
            }
            _ => false,
        };
        if eligible {
            let grown = Base {
                width: e.base.width + 3.0,
                depth: e.base.depth + 3.0,
                ..e.base
            };
            outline(&mut g, &grown, Color::srgb(0.2, 1.0, 0.3));
        }
    }
    // The drag: ghost where the base would end, and a ruler from where it starts.
    if let Some(drag) = &sel.drag {
        let ok = drag.plan.is_ok();
        let c = if ok {
            Color::srgb(0.2, 1.0, 0.3)
        } else {
            Color::srgb(1.0, 0.2, 0.2)
        };
        let ends: Vec<Base> = match &drag.plan {
            Ok(p) => p.ends.iter().map(|(_, b)| *b).collect(),
            Err(_) => ptr
                .world
                .map(|w| {
                    vec![Base {
                        centre: s
                            .base
                            .centre
                            .plus(Pt::new(w.x - drag.start.x, w.y - drag.start.y)),
                        ..s.base
                    }]
                })
                .unwrap_or_default(),
        };
        for e in &ends {
            outline(&mut g, e, c);
            let (a, bb) = e.edge(Edge::Front);
            g.line_2d(v(a), v(bb), c);
            g.line_2d(v(s.base.centre), v(e.centre), c);
        }
    }
}
