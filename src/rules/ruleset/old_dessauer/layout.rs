//! Where the stands of a unit stand: a formation's footprint and each stand's own base.

use super::{INCH, Kind, N, OldDessauer, Troop};
use crate::rules::geometry::{Base, heading, norm_facing};
use crate::rules::model::{Formation, Unit};

/// Frontage and depth of one stand, mm.
pub fn stand_size(t: &Troop) -> (f32, f32) {
    (
        t.figures_per_stand as f32 * t.figure_frontage * INCH,
        t.stand_depth * INCH,
    )
}

/// Stands on each face of a square.
fn square_face(n: usize) -> usize {
    n.div_ceil(4).max(1)
}

/// The footprint (frontage, depth) of `n` stands in a formation, mm.
pub fn footprint(t: &Troop, formation: Formation, n: usize) -> (f32, f32) {
    let (w, d) = stand_size(t);
    let n = n.max(1) as f32;
    match formation {
        Formation::Column if t.kind != Kind::LightInfantry => (w, n * d),
        Formation::Square => {
            let side = square_face(n as usize) as f32 * w + d;
            (side, side)
        }
        _ => (n * w, d),
    }
}

/// Each stand's base, in order (left to right in line, front to rear in column, front face
/// first in square).
pub fn stand_bases(od: &OldDessauer, u: &Unit) -> Vec<Base> {
    if u.is_loose() {
        return u.loose_bases();
    }
    let t = od.troop(u);
    let (w, d) = stand_size(t);
    let n = u.stands.len().max(1);
    let b = &u.base;
    match u.formation {
        Formation::Column if t.kind != Kind::LightInfantry => (0..n)
            .map(|i| {
                Base::new(
                    b.local(0.0, b.depth / 2.0 - d * (i as f32 + 0.5)),
                    b.facing,
                    w,
                    d,
                )
            })
            .collect(),
        Formation::Square => {
            let k = square_face(n);
            let side = b.width;
            (0..n)
                .map(|i| {
                    let face = i % 4;
                    let slot = i / 4;
                    let facing = norm_facing(b.facing + 90.0 * face as f32);
                    let dir = heading(facing);
                    let right = heading(facing + 90.0);
                    let across = (slot as f32 + 0.5) * w - k as f32 * w / 2.0;
                    let centre = b
                        .centre
                        .plus(dir.scale(side / 2.0 - d / 2.0))
                        .plus(right.scale(across));
                    Base::new(centre, facing, w, d)
                })
                .collect()
        }
        _ => (0..n)
            .map(|i| {
                Base::new(
                    b.local(-b.width / 2.0 + w * (i as f32 + 0.5), 0.0),
                    b.facing,
                    w,
                    b.depth,
                )
            })
            .collect(),
    }
}

/// The unit rebuilt in `formation` and turned `turn` degrees about its front centre stand.
pub fn rebuild(od: &OldDessauer, u: &Unit, formation: Formation, turn: f32) -> Base {
    let t = od.troop(u);
    let (_, sd) = stand_size(t);
    let old = &u.base;
    let pivot = old
        .front_centre()
        .minus(old.forward().scale(sd.min(old.depth) / 2.0));
    let facing = norm_facing(old.facing + turn);
    let fwd = heading(facing);
    let (w, d) = footprint(t, formation, u.stands.len());
    let front = pivot.plus(fwd.scale(sd.min(d) / 2.0));
    Base::new(front.minus(fwd.scale(d / 2.0)), facing, w, d)
}

/// Stands in the refused arm of an L of `n` stands: those beyond its front centre stand, which
/// keeps its place: the data's share of the stands, rounded down, and always at least one stand
/// in each arm (the ruling `l_formation`).
pub fn refused_count(od: &OldDessauer, n: usize) -> usize {
    let r = (n as f32 * od.num(N::LRefusedShare) + 1e-4).floor() as usize;
    r.clamp(1, n.saturating_sub(1).max(1))
}

/// The stands of an L formed from the line `line` of `n` stands (left to right), refusing its
/// right flank (`right`) or its left: the arm on that side wheels back to face that way, its
/// front flush with the end of the arm that keeps the line's front, its stands running back
/// from the corner.
pub fn l_bases(od: &OldDessauer, t: &Troop, line: &Base, n: usize, right: bool) -> Vec<Base> {
    let (w, d) = stand_size(t);
    let r = refused_count(od, n);
    let k = n - r;
    let left_edge = -line.width / 2.0;
    let back = |j: usize| -line.depth / 2.0 - w * (j as f32 + 0.5);
    (0..n)
        .map(|i| {
            if right && i >= k {
                let x = left_edge + k as f32 * w - d / 2.0;
                Base::new(
                    line.local(x, back(i - k)),
                    norm_facing(line.facing + 90.0),
                    w,
                    d,
                )
            } else if !right && i < r {
                let x = left_edge + r as f32 * w + d / 2.0;
                Base::new(
                    line.local(x, back(r - 1 - i)),
                    norm_facing(line.facing - 90.0),
                    w,
                    d,
                )
            } else {
                Base::new(
                    line.local(left_edge + w * (i as f32 + 0.5), 0.0),
                    line.facing,
                    w,
                    line.depth,
                )
            }
        })
        .collect()
}

/// True when the unit stands in an L: conformed, its stands at their own places.
pub fn is_l(u: &Unit) -> bool {
    u.formation == Formation::Conformed && u.is_loose()
}

/// The fronts a unit presents: an L's two arms, each the rectangle round its stands at their
/// facing; any other unit's one base.
pub fn arms(u: &Unit) -> Vec<Base> {
    if !is_l(u) {
        return vec![u.base];
    }
    let mut groups: Vec<Vec<Base>> = Vec::new();
    for s in u.loose_bases() {
        match groups
            .iter_mut()
            .find(|g| crate::rules::geometry::norm_deg(g[0].facing - s.facing).abs() < 1.0)
        {
            Some(g) => g.push(s),
            None => groups.push(vec![s]),
        }
    }
    groups
        .iter()
        .map(|g| Base::enclosing(g[0].facing, g))
        .collect()
}
