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

/// Outlines a unit: its base, or each of its loose stands.
fn outline_unit(g: &mut Gizmos, u: &crate::rules::model::Unit, c: Color) {
    for s in u.shapes() {
        outline(g, &s, c);
    }
}

/// How far the selected unit's centre can go in each of 32 directions with the going, the
/// table edge, other units and threat zones taken into account; cached per selection and
/// battle version.
#[derive(Default)]
struct ReachCache {
    key: Option<(crate::rules::UnitId, u64)>,
    outline: Vec<Vec2>,
}

/// Whether a move of a distance along a direction (forward, right) is allowed.
type MoveOk<'a> = dyn Fn(f32, f32, f32) -> bool + 'a;

fn reach_outline(b: &crate::rules::Battle, id: &crate::rules::UnitId) -> Vec<Vec2> {
    use crate::rules::command::Step;
    let Ok(u) = b.unit(id) else { return Vec::new() };
    let ids = std::slice::from_ref(id);
    // The farthest any step may go, and whether a move of `d` in a direction is allowed.
    let (most, ok): (f32, Box<MoveOk>) = if let Some(dbn) = b.rules.dbn() {
        let t = dbn.troop_of(u);
        let most = t
            .road
            .unwrap_or(0.0)
            .max(t.gg.unwrap_or(0.0))
            .max(t.bg.unwrap_or(0.0));
        let ok = move |fwd: f32, right: f32, d: f32| {
            dbn.plan_move(
                b,
                ids,
                &[Step::Oblique {
                    forward: fwd * d,
                    right: right * d,
                }],
                None,
                true,
            )
            .is_ok()
        };
        (most, Box::new(ok))
    } else if let Some(od) = b.rules.old_dessauer() {
        let most = od.allowance(u) * od.num("road_multiplier");
        // Forward on an oblique; straight sideways or back by sidestep or backstep.
        let ok = move |fwd: f32, right: f32, d: f32| {
            let step = if fwd > 0.05 {
                Step::Oblique {
                    forward: fwd * d,
                    right: right * d,
                }
            } else if fwd.abs() <= 0.05 {
                Step::Sidestep(right.signum() * d)
            } else if right.abs() <= 0.05 {
                Step::Backstep(d)
            } else {
                return false;
            };
            od.check_move(b, ids, &[step]).is_ok()
        };
        (most, Box::new(ok))
    } else {
        return Vec::new();
    };
    if most <= 0.0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for k in 0..32 {
        let a = (k as f32 / 32.0) * std::f32::consts::TAU;
        let (fwd, right) = (a.cos(), a.sin());
        if !ok(fwd, right, 0.01) {
            continue;
        }
        let (mut lo, mut hi) = (0.0f32, most);
        if ok(fwd, right, hi) {
            lo = hi;
        } else {
            for _ in 0..7 {
                let mid = (lo + hi) / 2.0;
                if ok(fwd, right, mid) {
                    lo = mid
                } else {
                    hi = mid
                }
            }
        }
        let d = b.scale.to_mm(lo);
        let p = u
            .base
            .centre
            .plus(u.base.forward().scale(fwd * d))
            .plus(u.base.right().scale(right * d));
        out.push(v(p));
    }
    if out.len() > 1 {
        out.insert(0, v(u.base.centre));
        out.push(v(u.base.centre));
    }
    out
}

/// A fire arc: rays at the half angle from the front corners out to `reach` mm, joined by the
/// range line.
fn arc(g: &mut Gizmos, base: &Base, half: f32, reach: f32, c: Color) {
    let (fl, fr) = (base.front_left(), base.front_right());
    let left = fl.plus(base.forward().rotate(-half).scale(reach));
    let right = fr.plus(base.forward().rotate(half).scale(reach));
    g.line_2d(v(fl), v(left), c);
    g.line_2d(v(fr), v(right), c);
    let mut pts = Vec::new();
    for k in 0..=24 {
        let a = -half + 2.0 * half * k as f32 / 24.0;
        let origin = if a < 0.0 {
            fl
        } else if a > 0.0 {
            fr
        } else {
            base.front_centre()
        };
        pts.push(v(origin.plus(base.forward().rotate(a).scale(reach))));
    }
    g.linestrip_2d(pts, c);
}

fn draw(
    mut g: Gizmos,
    game: Res<Game>,
    sel: Res<Selection>,
    ptr: Res<Pointer>,
    overlays: Res<Overlays>,
    mut reach: Local<ReachCache>,
) {
    let b = &game.battle;
    let dbn = b.rules.dbn();
    let od = b.rules.old_dessauer();
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
            outline_unit(&mut g, u, Color::srgb(1.0, 0.5, 0.0));
        }
    }
    if let Some(id) = &ptr.hover
        && let Ok(u) = b.unit(id)
    {
        outline_unit(&mut g, u, Color::srgba(1.0, 1.0, 1.0, 0.8));
    }
    if overlays.zones {
        let zone = Color::srgba(0.9, 0.2, 0.1, 0.7);
        if let Some(dbn) = dbn {
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
                outline(&mut g, &tz, zone);
            }
        }
        if let Some(od) = od {
            // The inch round each enemy unit that no one may enter but to charge.
            let z = b.scale.to_mm(od.num("zone_of_control"));
            for e in b
                .alive()
                .filter(|e| e.side != b.active && od.is_fighting_unit(e) && !od.in_contact(b, e))
            {
                for shape in e.shapes() {
                    let grown = Base {
                        width: shape.width + 2.0 * z,
                        depth: shape.depth + 2.0 * z,
                        ..shape
                    };
                    outline(&mut g, &grown, zone);
                }
            }
        }
    }
    // Placing a unit in deployment: its base at the cursor, and the side's zones.
    if let (Some(id), Some(w)) = (&sel.placing, ptr.world)
        && let Ok(u) = b.unit(id)
    {
        let facing = super::input::deploy_facing(&game, u.side);
        let ghost = Base::new(Pt::new(w.x, w.y), facing, u.base.width, u.base.depth);
        outline(&mut g, &ghost, Color::srgb(1.0, 0.9, 0.1));
        for z in b.zones.iter().filter(|z| z.side == u.side) {
            let size = Vec2::new(z.max.x - z.min.x, z.max.y - z.min.y);
            g.rect_2d(
                Isometry2d::from_translation(Vec2::new(
                    z.min.x + size.x / 2.0,
                    z.min.y + size.y / 2.0,
                )),
                size,
                Color::srgb(1.0, 0.9, 0.1),
            );
        }
    }
    let Some(sid) = &sel.unit else { return };
    let Ok(s) = b.unit(sid) else { return };
    // A unit destroyed or not yet placed shows nothing.
    if !s.alive() {
        return;
    }
    outline_unit(&mut g, s, Color::srgb(1.0, 0.9, 0.1));
    for id in &sel.group {
        if let Ok(u) = b.unit(id) {
            outline_unit(&mut g, u, Color::srgb(1.0, 0.75, 0.1));
        }
    }
    if overlays.arcs {
        let c = Color::srgba(1.0, 0.85, 0.2, 0.8);
        if let Some(dbn) = dbn
            && let Some(range) = dbn.troop_of(s).range
        {
            arc(
                &mut g,
                &s.base,
                dbn.num("arc_half_angle"),
                b.scale.to_mm(range),
                c,
            );
        }
        if let Some(od) = od
            && let Some(range) = od.range(s)
        {
            // Each stand shoots 45 degrees either side of its own front centre.
            let half = od.num("arc_half_angle");
            let reach = b.scale.to_mm(range);
            for st in crate::rules::ruleset::old_dessauer::stand_bases(od, s) {
                let fc = st.front_centre();
                let mut pts = vec![v(fc)];
                for k in 0..=16 {
                    let a = -half + 2.0 * half * k as f32 / 16.0;
                    pts.push(v(fc.plus(st.forward().rotate(a).scale(reach))));
                }
                pts.push(v(fc));
                g.linestrip_2d(pts, c.with_alpha(0.45));
            }
        }
    }
    if overlays.reach {
        // Straight-line reach with the going (Musket move shapes aside).
        let key = Some((sid.clone(), game.version));
        if reach.key != key {
            reach.outline = reach_outline(b, sid);
            reach.key = key;
        }
        g.linestrip_2d(
            reach.outline.iter().copied(),
            Color::srgba(0.3, 0.9, 1.0, 0.8),
        );
    }
    for e in b.alive().filter(|e| e.side != s.side) {
        if overlays.sight {
            let from = s.base.front_centre();
            let to = e.base.centre;
            let seen = match (dbn, od) {
                (Some(dbn), _) => dbn.line_of_sight(b, s, e),
                (None, Some(od)) => {
                    if crate::rules::ruleset::old_dessauer::shooting::sight_clear(od, b, from, e, s)
                    {
                        Ok(())
                    } else {
                        Err("cannot be seen".to_string())
                    }
                }
                _ => Ok(()),
            };
            let c = match seen {
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
        let eligible = match (b.phase, dbn, od) {
            (Phase::Firing, Some(dbn), _) if s.side == b.active => {
                dbn.fire_check(b, s, e, false).is_ok()
            }
            (Phase::CloseCombat, Some(dbn), _) if s.side == b.active => {
                dbn.contacts(b, s).iter().any(|(x, _)| x == &e.id)
            }
            (Phase::Firing, None, Some(od)) if s.side == b.active => {
                crate::rules::ruleset::old_dessauer::shooting::setup(od, b, &s.id, &e.id).is_ok()
            }
            (Phase::CloseCombat, None, Some(od)) => {
                od.enemies_in_contact(b, s).iter().any(|x| x.id == e.id)
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
    if let Some(drag) = &sel.drag
        && let Some(start) = drag.moving_base(b)
    {
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
                        centre: start
                            .centre
                            .plus(Pt::new(w.x - drag.start.x, w.y - drag.start.y)),
                        ..start
                    }]
                })
                .unwrap_or_default(),
        };
        for e in &ends {
            outline(&mut g, e, c);
            let (a, bb) = e.edge(Edge::Front);
            g.line_2d(v(a), v(bb), c);
            g.line_2d(v(start.centre), v(e.centre), c);
        }
    }
}
