//! Where things are on a draft's table: what lies under a point, and the corner of a feature
//! near one; and what a newly drawn feature is given.

use super::{Thing, pt};
use crate::rules::Game;
use crate::rules::geometry::{Base, Pt};
use crate::rules::scenario::{RawPt, RawScenario};
use crate::rules::terrain::FeatureKind;

/// What a feature drawn in the editor starts with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeatureDefaults {
    /// Width in mm, for the linear features.
    pub width: f32,
}

impl FeatureDefaults {
    pub fn of(kind: FeatureKind) -> FeatureDefaults {
        let width = match kind {
            FeatureKind::River => 25.0,
            FeatureKind::Stream => 8.0,
            FeatureKind::Road | FeatureKind::Causeway => 12.0,
            FeatureKind::Bridge => 15.0,
            _ => 0.0,
        };
        FeatureDefaults { width }
    }
}

/// How near a point must be to an objective, a line or a corner to touch it, in mm.
const REACH: f32 = 8.0;

/// The thing under a point: a unit (its bases as the preview game holds them, else one base of
/// its troop type's size), then an objective, a feature, a deployment zone. The topmost first:
/// the last drawn of each list.
pub fn hit(raw: &RawScenario, game: Option<&Game>, at: RawPt, reach: f32) -> Option<Thing> {
    let p = pt(at);
    let reach = reach.max(0.1);
    let rules = game.map(|g| g.rules.get());
    for (i, u) in raw.units.iter().enumerate().rev() {
        let Some(c) = u.at else { continue };
        let built = game.and_then(|g| g.battle.units.iter().find(|x| x.id.as_str() == u.id));
        let shapes = match built {
            Some(b) => b.shapes(),
            None => {
                let (w, d) = rules
                    .and_then(|r| r.base_size(&u.troop))
                    .unwrap_or((40.0, 20.0));
                vec![Base::new(pt(c), u.facing, w, d)]
            }
        };
        if shapes.iter().any(|s| s.contains(p)) {
            return Some(Thing::Unit(i));
        }
    }
    for (i, o) in raw.objectives.iter().enumerate().rev() {
        if pt(o.at).dist(p) <= REACH.max(reach) {
            return Some(Thing::Objective(i));
        }
    }
    // Linear features over areas: a road across a wood is picked before the wood.
    let mut order: Vec<usize> = (0..raw.terrain.len()).rev().collect();
    order.sort_by_key(|i| !raw.terrain[*i].kind.is_linear());
    for i in order {
        let f = &raw.terrain[i];
        let pts: Vec<Pt> = f.points.iter().copied().map(pt).collect();
        let inside = if f.kind.is_linear() {
            near_line(&pts, p, (f.width / 2.0).max(reach))
        } else {
            contains(&pts, p) || near_line(&closed(&pts), p, reach)
        };
        if inside {
            return Some(Thing::Feature(i));
        }
    }
    for (i, z) in raw.deployment.iter().enumerate().rev() {
        if (z.min.0..=z.max.0).contains(&at.0) && (z.min.1..=z.max.1).contains(&at.1) {
            return Some(Thing::Zone(i));
        }
    }
    None
}

/// The corner of a feature within `reach` mm of a point, the nearest.
pub fn vertex_near(raw: &RawScenario, feature: usize, at: RawPt, reach: f32) -> Option<usize> {
    let f = raw.terrain.get(feature)?;
    f.points
        .iter()
        .enumerate()
        .map(|(i, q)| (i, pt(*q).dist(pt(at))))
        .filter(|(_, d)| *d <= reach)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// The edge of a feature nearest a point (the corner it starts from), within `reach` mm.
pub fn edge_near(raw: &RawScenario, feature: usize, at: RawPt, reach: f32) -> Option<usize> {
    let f = raw.terrain.get(feature)?;
    let pts: Vec<Pt> = f.points.iter().copied().map(pt).collect();
    let edges = if f.kind.is_linear() {
        pts.clone()
    } else {
        closed(&pts)
    };
    edges
        .windows(2)
        .enumerate()
        .map(|(i, e)| (i, seg_dist(pt(at), e[0], e[1])))
        .filter(|(_, d)| *d <= reach)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

fn closed(pts: &[Pt]) -> Vec<Pt> {
    let mut v = pts.to_vec();
    if let Some(first) = pts.first() {
        v.push(*first);
    }
    v
}

fn near_line(pts: &[Pt], p: Pt, reach: f32) -> bool {
    pts.windows(2).any(|e| seg_dist(p, e[0], e[1]) <= reach)
}

/// Distance from a point to a segment.
fn seg_dist(p: Pt, a: Pt, b: Pt) -> f32 {
    let (abx, aby) = (b.x - a.x, b.y - a.y);
    let len2 = abx * abx + aby * aby;
    let t = if len2 > 0.0 {
        (((p.x - a.x) * abx + (p.y - a.y) * aby) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    Pt::new(a.x + abx * t, a.y + aby * t).dist(p)
}

/// Even-odd point in polygon.
fn contains(poly: &[Pt], p: Pt) -> bool {
    let mut inside = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + n - 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
    }
    inside
}
