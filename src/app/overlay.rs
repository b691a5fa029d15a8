//! Overlays drawn with gizmos: selection and hover, the drag ghost and ruler, fire arcs and
//! ranges, threat zones, line of sight, reach, eligible targets and hill contours.

use super::input::{Overlays, Pointer, Selection};
use super::{AppSystems, Game};
use crate::rules::geometry::{Base, Edge, Pt};
use crate::rules::ruleset::{Ink, Layer, Mark};
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

/// A ghost's front, so that a wheeled or pivoted ghost shows which way it will face: the front
/// edge doubled just inside it, and an arrowhead on it pointing ahead.
fn front_mark(g: &mut Gizmos, b: &Base, c: Color) {
    let (a, e) = b.edge(Edge::Front);
    let inset = (b.depth * 0.12).min(2.0);
    let back = b.forward().scale(-inset);
    g.line_2d(v(a.plus(back)), v(e.plus(back)), c);
    let size = (b.width.min(b.depth) * 0.3).min(8.0);
    let tip = b.front_centre().plus(b.forward().scale(size * 0.6));
    let base = b.front_centre().plus(b.forward().scale(-size * 0.4));
    let side = b.right().scale(size * 0.5);
    g.linestrip_2d(
        [
            v(base.minus(side)),
            v(tip),
            v(base.plus(side)),
            v(base.minus(side)),
        ],
        c,
    );
}

/// Outlines a unit: its base, or each of its loose stands.
fn outline_unit(g: &mut Gizmos, u: &crate::rules::model::Unit, c: Color) {
    for s in u.shapes() {
        outline(g, &s, c);
    }
}

/// The ruleset's overlay marks, cached per selection, layers and battle version (the reach
/// alone runs a few hundred move checks).
#[derive(Default)]
struct MarkCache {
    /// Selection, layers, battle version and the battle's identity (a new game restarts its
    /// versions).
    key: Option<(Option<crate::rules::UnitId>, Vec<Layer>, u64, usize)>,
    marks: Vec<Mark>,
}

pub(super) fn ink(i: Ink) -> Color {
    match i {
        Ink::Arc => Color::srgba(1.0, 0.85, 0.2, 0.8),
        Ink::StandArc => Color::srgba(1.0, 0.85, 0.2, 0.45),
        Ink::Zone => Color::srgba(0.9, 0.2, 0.1, 0.7),
        Ink::Clear => Color::srgba(0.2, 0.9, 0.3, 0.7),
        Ink::Blocked => Color::srgba(0.9, 0.2, 0.2, 0.5),
        Ink::Blocker => Color::srgb(0.9, 0.2, 0.9),
        Ink::Reach => Color::srgba(0.3, 0.9, 1.0, 0.8),
        Ink::Target => Color::srgb(0.2, 1.0, 0.3),
    }
}

/// A polyline's points, back to the first when it is closed.
fn strip(points: &[Pt], closed: bool) -> Vec<Vec2> {
    let mut pts: Vec<Vec2> = points.iter().map(|p| v(*p)).collect();
    if closed && let Some(first) = pts.first().copied() {
        pts.push(first);
    }
    pts
}

fn mark(g: &mut Gizmos, m: &Mark) {
    g.linestrip_2d(strip(&m.points, m.closed), ink(m.ink));
}

#[allow(clippy::too_many_arguments)] // a Bevy system: its parameters are its queries
fn draw(
    mut g: Gizmos,
    game: Res<Game>,
    sel: Res<Selection>,
    ptr: Res<Pointer>,
    overlays: Res<Overlays>,
    mut cache: Local<MarkCache>,
    tutoring: Option<Res<super::lesson::Tutoring>>,
    time: Res<Time>,
) {
    let b = &game.battle;
    // A tutorial step's places: pulsing rings the newcomer cannot miss.
    if let Some(step) = tutoring.as_ref().and_then(|t| t.tutor.current()) {
        let pulse = 1.0 + 0.15 * (time.elapsed_secs() * 4.0).sin();
        let gold = Color::srgb(1.0, 0.85, 0.1);
        for (x, y) in &step.places {
            let at = Vec2::new(*x, *y);
            g.circle_2d(Isometry2d::from_translation(at), 10.0 * pulse, gold);
            g.circle_2d(Isometry2d::from_translation(at), 6.0 * pulse, gold);
            g.line_2d(at - Vec2::X * 14.0, at + Vec2::X * 14.0, gold);
            g.line_2d(at - Vec2::Y * 14.0, at + Vec2::Y * 14.0, gold);
        }
        for id in &step.highlight {
            if let Ok(u) = b.unit(id) {
                let r = u.base.width.max(u.base.depth) * 0.75 * pulse;
                g.circle_2d(
                    Isometry2d::from_translation(Vec2::new(u.base.centre.x, u.base.centre.y)),
                    r,
                    gold,
                );
            }
        }
    }
    // Hill contours: each level's outline, darker as it climbs.
    for f in b
        .terrain
        .features
        .iter()
        .filter(|f| f.kind == FeatureKind::Hill)
    {
        let c = Color::srgba(0.35, 0.25, 0.1, 0.35 + 0.15 * f.level.min(4) as f32);
        g.linestrip_2d(strip(&f.points, true), c);
    }
    // Fortified towns and villages: a heavy dark outline.
    for f in b.terrain.features.iter().filter(|f| f.fortified) {
        let pts = strip(&f.points, true);
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
    // Placing a unit in deployment: its base at the cursor, and the side's zones.
    if let (Some(id), Some(w)) = (&sel.placing, ptr.world)
        && let Ok(u) = b.unit(id)
    {
        let facing = b.rules.deployment(b).map(|d| d.facing).unwrap_or(0.0);
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
    // The ruleset's marks: zones, and the selected unit's arcs, reach, sight and targets.
    let layers: Vec<Layer> = [
        (overlays.arcs, Layer::Arcs),
        (overlays.zones, Layer::Zones),
        (overlays.sight, Layer::Sight),
        (overlays.reach, Layer::Reach),
        (true, Layer::Targets),
    ]
    .into_iter()
    .filter(|x| x.0)
    .map(|x| x.1)
    .collect();
    let selected = sel
        .unit
        .as_ref()
        .and_then(|id| b.unit(id).ok())
        .filter(|s| s.alive());
    let key = Some((
        selected.map(|s| s.id.clone()),
        layers.clone(),
        game.version,
        std::ptr::from_ref(&game.battle) as usize,
    ));
    if cache.key != key {
        cache.marks = b.rules.overlays(b, selected, &layers);
        cache.key = key;
    }
    for m in &cache.marks {
        mark(&mut g, m);
    }
    // A unit destroyed or not yet placed shows nothing more.
    let Some(s) = selected else { return };
    outline_unit(&mut g, s, Color::srgb(1.0, 0.9, 0.1));
    for id in &sel.group {
        if let Ok(u) = b.unit(id) {
            outline_unit(&mut g, u, Color::srgb(1.0, 0.75, 0.1));
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
        let ends: Vec<Base> = match ptr.world {
            Some(w) => drag.ghost(b, w),
            None => drag.ghost(b, drag.start),
        };
        for e in &ends {
            outline(&mut g, e, c);
            front_mark(&mut g, e, c);
            g.line_2d(v(start.centre), v(e.centre), c);
        }
    }
}
