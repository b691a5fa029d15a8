//! Marks every ruleset draws alike: arcs, targets, sight lines and reach.

use super::super::view::{Ink, Layer, Mark};
use crate::rules::battle::Battle;
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::Unit;

/// A fire arc as marks: rays at the half angle from the front corners out to `reach` mm,
/// joined by the range line.
pub fn arc_marks(base: &Base, half: f32, reach: f32) -> Vec<Mark> {
    let (fl, fr) = (base.front_left(), base.front_right());
    let left = fl.plus(base.forward().rotate(-half).scale(reach));
    let right = fr.plus(base.forward().rotate(half).scale(reach));
    let range = (0..=24)
        .map(|k| {
            let a = -half + 2.0 * half * k as f32 / 24.0;
            let origin = if a < 0.0 {
                fl
            } else if a > 0.0 {
                fr
            } else {
                base.front_centre()
            };
            origin.plus(base.forward().rotate(a).scale(reach))
        })
        .collect();
    vec![
        Mark::line(Layer::Arcs, Ink::Arc, vec![fl, left]),
        Mark::line(Layer::Arcs, Ink::Arc, vec![fr, right]),
        Mark::line(Layer::Arcs, Ink::Arc, range),
    ]
}

/// A target's outline, a little larger than its base.
pub fn target_mark(base: &Base) -> Mark {
    let grown = Base {
        width: base.width + 3.0,
        depth: base.depth + 3.0,
        ..*base
    };
    Mark::base(Layer::Targets, Ink::Target, &grown)
}

/// The sight line from `from` to `to`, and what blocks it when `blocked` names a unit or an
/// area feature ("... blocked by NAME").
pub fn sight_marks(b: &Battle, from: Pt, to: Pt, blocked: Option<&str>) -> Vec<Mark> {
    let Some(why) = blocked else {
        return vec![Mark::line(Layer::Sight, Ink::Clear, vec![from, to])];
    };
    let mut out = vec![Mark::line(Layer::Sight, Ink::Blocked, vec![from, to])];
    let blocker = why.rsplit("blocked by ").next().unwrap_or("");
    for u in b.alive().filter(|u| u.name == blocker) {
        out.push(Mark::base(Layer::Sight, Ink::Blocker, &u.base));
    }
    for f in b
        .terrain
        .features
        .iter()
        .filter(|f| f.name == blocker && !f.kind.is_linear())
    {
        out.push(Mark {
            layer: Layer::Sight,
            ink: Ink::Blocker,
            points: f.points.clone(),
            closed: true,
        });
    }
    out
}

/// How far a unit's centre can go in each of 32 directions: `most` is the farthest any move
/// may go (the ruleset's units) and `ok(forward, right, d)` says whether a move of `d` in the
/// direction (a unit vector in the unit's frame) is allowed.
pub fn reach_mark(b: &Battle, u: &Unit, most: f32, ok: impl Fn(f32, f32, f32) -> bool) -> Mark {
    let mut out = Vec::new();
    if most > 0.0 {
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
            out.push(
                u.base
                    .centre
                    .plus(u.base.forward().scale(fwd * d))
                    .plus(u.base.right().scale(right * d)),
            );
        }
    }
    if out.len() > 1 {
        out.insert(0, u.base.centre);
        out.push(u.base.centre);
    } else {
        out.clear();
    }
    Mark::line(Layer::Reach, Ink::Reach, out)
}
