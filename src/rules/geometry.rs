//! Table geometry: points, oriented bases, edges, arcs, zones and line-of-sight lines, in millimetres.
//!
//! Facings are compass degrees: 0 faces "up" the table (+y), 90 faces +x. Shape queries are
//! answered by parry2d; this module only builds the shapes and names their parts.

use parry2d::math::{Pose, Vector};
use parry2d::query;
use parry2d::shape::{ConvexPolygon, Cuboid, Segment};
use serde::{Deserialize, Serialize};

/// How close two edges must be (mm) to count as touching.
pub const CONTACT_EPS: f32 = 0.6;

/// A point on the table, in millimetres.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Pt {
    pub x: f32,
    pub y: f32,
}

impl Pt {
    pub const fn new(x: f32, y: f32) -> Self {
        Self { x, y }
    }
    pub fn v(self) -> Vector {
        Vector::new(self.x, self.y)
    }
    pub fn from_v(v: Vector) -> Self {
        Self::new(v.x, v.y)
    }
    pub fn plus(self, o: Pt) -> Pt {
        Pt::new(self.x + o.x, self.y + o.y)
    }
    pub fn minus(self, o: Pt) -> Pt {
        Pt::new(self.x - o.x, self.y - o.y)
    }
    pub fn scale(self, k: f32) -> Pt {
        Pt::new(self.x * k, self.y * k)
    }
    pub fn dot(self, o: Pt) -> f32 {
        self.x * o.x + self.y * o.y
    }
    pub fn cross(self, o: Pt) -> f32 {
        self.x * o.y - self.y * o.x
    }
    pub fn len(self) -> f32 {
        self.dot(self).sqrt()
    }
    pub fn dist(self, o: Pt) -> f32 {
        self.minus(o).len()
    }
    pub fn lerp(self, o: Pt, t: f32) -> Pt {
        self.plus(o.minus(self).scale(t))
    }
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
    /// Rotates about the origin by `deg` compass degrees (clockwise).
    pub fn rotate(self, deg: f32) -> Pt {
        let (s, c) = deg.to_radians().sin_cos();
        Pt::new(self.x * c + self.y * s, -self.x * s + self.y * c)
    }
}

/// Unit vector of a compass facing.
pub fn heading(facing_deg: f32) -> Pt {
    let (s, c) = facing_deg.to_radians().sin_cos();
    Pt::new(s, c)
}

/// Normalises an angle to (-180, 180].
pub fn norm_deg(a: f32) -> f32 {
    let mut a = a % 360.0;
    if a > 180.0 {
        a -= 360.0;
    } else if a <= -180.0 {
        a += 360.0;
    }
    a
}

/// Normalises a facing to [0, 360).
pub fn norm_facing(a: f32) -> f32 {
    let a = a % 360.0;
    if a < 0.0 { a + 360.0 } else { a }
}

/// The four edges of a base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Edge {
    Front,
    Right,
    Rear,
    Left,
}

impl Edge {
    pub const ALL: [Edge; 4] = [Edge::Front, Edge::Right, Edge::Rear, Edge::Left];
    pub fn is_flank(self) -> bool {
        matches!(self, Edge::Left | Edge::Right)
    }
    pub fn name(self) -> &'static str {
        match self {
            Edge::Front => "front",
            Edge::Right => "right flank",
            Edge::Rear => "rear",
            Edge::Left => "left flank",
        }
    }
}

/// Which front corner a wheel pivots on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Corner {
    Left,
    Right,
}

/// An oriented rectangular base: centre, facing, frontage (width) and depth, all in mm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Base {
    pub centre: Pt,
    pub facing: f32,
    pub width: f32,
    pub depth: f32,
}

/// Where one base touches another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The edge of the touched base.
    pub edge: Edge,
    /// The edge of the touching base that lies against it.
    pub own_edge: Edge,
    /// Length of the shared edge, mm.
    pub overlap: f32,
}

impl Base {
    /// The smallest rectangle facing `facing` that holds all of `bases` (a unit's frame
    /// about its loose stands).
    pub fn enclosing(facing: f32, bases: &[Base]) -> Base {
        let origin = bases.first().map(|b| b.centre).unwrap_or_default();
        let probe = Base::new(origin, facing, 0.0, 0.0);
        let (mut x0, mut x1, mut y0, mut y1) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
        for p in bases.iter().flat_map(|b| b.corners()) {
            let d = p.minus(probe.centre);
            let (x, y) = (d.dot(probe.right()), d.dot(probe.forward()));
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if bases.is_empty() {
            return probe;
        }
        Base::new(
            probe.local((x0 + x1) / 2.0, (y0 + y1) / 2.0),
            facing,
            x1 - x0,
            y1 - y0,
        )
    }

    pub fn new(centre: Pt, facing: f32, width: f32, depth: f32) -> Self {
        Self {
            centre,
            facing: norm_facing(facing),
            width,
            depth,
        }
    }
    pub fn forward(&self) -> Pt {
        heading(self.facing)
    }
    pub fn right(&self) -> Pt {
        heading(self.facing + 90.0)
    }
    pub fn local(&self, across: f32, ahead: f32) -> Pt {
        self.centre
            .plus(self.right().scale(across))
            .plus(self.forward().scale(ahead))
    }
    pub fn front_left(&self) -> Pt {
        self.local(-self.width / 2.0, self.depth / 2.0)
    }
    pub fn front_right(&self) -> Pt {
        self.local(self.width / 2.0, self.depth / 2.0)
    }
    pub fn rear_left(&self) -> Pt {
        self.local(-self.width / 2.0, -self.depth / 2.0)
    }
    pub fn rear_right(&self) -> Pt {
        self.local(self.width / 2.0, -self.depth / 2.0)
    }
    /// Corners in order front-left, front-right, rear-right, rear-left.
    pub fn corners(&self) -> [Pt; 4] {
        // The heading once for all four (each `local` would take its sine and cosine again).
        let (f, r) = (self.forward(), self.right());
        let (w, d) = (self.width / 2.0, self.depth / 2.0);
        let at = |across: f32, ahead: f32| self.centre.plus(r.scale(across)).plus(f.scale(ahead));
        [at(-w, d), at(w, d), at(w, -d), at(-w, -d)]
    }
    pub fn front_centre(&self) -> Pt {
        self.local(0.0, self.depth / 2.0)
    }
    /// The edge as a segment, left to right as seen from outside... precisely: clockwise order.
    pub fn edge(&self, e: Edge) -> (Pt, Pt) {
        let edges = self.edges();
        match e {
            Edge::Front => edges[0],
            Edge::Right => edges[1],
            Edge::Rear => edges[2],
            Edge::Left => edges[3],
        }
    }
    /// Every edge as `edge` gives it, in the order of `Edge::ALL`, from one placing of the
    /// corners.
    pub fn edges(&self) -> [(Pt, Pt); 4] {
        let [fl, fr, rr, rl] = self.corners();
        [(fl, fr), (fr, rr), (rr, rl), (rl, fl)]
    }
    /// Outward unit normal of an edge.
    pub fn normal(&self, e: Edge) -> Pt {
        match e {
            Edge::Front => self.forward(),
            Edge::Right => self.right(),
            Edge::Rear => self.forward().scale(-1.0),
            Edge::Left => self.right().scale(-1.0),
        }
    }
    pub fn pose(&self) -> Pose {
        Pose::new(self.centre.v(), -self.facing.to_radians())
    }
    pub fn cuboid(&self) -> Cuboid {
        Cuboid::new(Vector::new(self.width / 2.0, self.depth / 2.0))
    }
    pub fn is_finite(&self) -> bool {
        self.centre.is_finite()
            && self.facing.is_finite()
            && self.width.is_finite()
            && self.depth.is_finite()
    }

    /// Shortest distance between two bases (0 when touching or overlapping).
    pub fn distance(&self, other: &Base) -> f32 {
        query::distance(&self.pose(), &self.cuboid(), &other.pose(), &other.cuboid())
            .map(|d| d.distance)
            .unwrap_or(f32::INFINITY)
    }

    /// Half the diagonal: no point of the base lies farther from its centre.
    pub fn radius(&self) -> f32 {
        0.5 * (self.width * self.width + self.depth * self.depth).sqrt()
    }

    /// Whether the bounding circles come within `margin` of each other: a cheap test that
    /// rules out most pairs before the exact ones.
    pub fn near(&self, other: &Base, margin: f32) -> bool {
        let reach = self.radius() + other.radius() + margin;
        let (dx, dy) = (
            self.centre.x - other.centre.x,
            self.centre.y - other.centre.y,
        );
        dx * dx + dy * dy <= reach * reach
    }

    /// Whether the bases come within `d` of each other: bounding circles first, the exact
    /// distance only for near pairs.
    pub fn within(&self, other: &Base, d: f32) -> bool {
        self.near(other, d) && self.distance(other) <= d
    }

    /// True when the interiors overlap by more than the contact tolerance: the depth by which
    /// one base would have to move to clear the other. The same both ways round (a shrunk
    /// base tested against the other was not: a corner pushed into an edge passed one way).
    pub fn overlaps(&self, other: &Base) -> bool {
        self.overlap_depth(other) > CONTACT_EPS
    }

    /// How far the interiors overlap: the distance one base would have to move to clear the
    /// other (0 where they do not meet).
    pub fn overlap_depth(&self, other: &Base) -> f32 {
        if !self.near(other, 0.0) {
            return 0.0;
        }
        // Always measured in one order, so that a depth of exactly the tolerance gives one
        // answer whichever way round the pair is asked.
        let key = |b: &Base| (b.centre.x, b.centre.y, b.facing, b.width, b.depth);
        let (p, q) = if key(self) <= key(other) {
            (self, other)
        } else {
            (other, self)
        };
        query::contact(&p.pose(), &p.cuboid(), &q.pose(), &q.cuboid(), 0.0)
            .ok()
            .flatten()
            .map_or(0.0, |c| (-c.dist).max(0.0))
    }

    /// Whether the base comes within `r` of a point (`distance_to_point(p) <= r`), its
    /// bounding circle asked first: a base whose circle stays a millimetre clear is farther.
    pub fn reaches(&self, p: Pt, r: f32) -> bool {
        let reach = self.radius() + r + 1.0;
        let (dx, dy) = (self.centre.x - p.x, self.centre.y - p.y);
        (dx * dx + dy * dy <= reach * reach || !reach.is_finite()) && self.distance_to_point(p) <= r
    }

    /// Distance from a point to this base (0 inside).
    pub fn distance_to_point(&self, p: Pt) -> f32 {
        use parry2d::query::PointQuery;
        self.cuboid().distance_to_point(&self.pose(), p.v(), true)
    }

    pub fn contains(&self, p: Pt) -> bool {
        let d = p.minus(self.centre);
        // Outside the bounding circle (with room to spare) is outside the base.
        let reach = self.radius() + QUICK_ROOM;
        if d.dot(d) > reach * reach {
            return false;
        }
        d.dot(self.right()).abs() <= self.width / 2.0 + 1e-3
            && d.dot(self.forward()).abs() <= self.depth / 2.0 + 1e-3
    }

    /// Which edge of `self` the base `other` touches, if it lies flat against one.
    /// Corner-to-corner touches (no shared length) are not edge contact.
    pub fn touched_by(&self, other: &Base) -> Option<Contact> {
        if !self.near(other, CONTACT_EPS) {
            return None;
        }
        let mut best: Option<Contact> = None;
        // Each base's corners once (each costs a sine and a cosine), not once an edge.
        let oc = other.corners();
        for (e, (a, b)) in Edge::ALL.into_iter().zip(self.edges()) {
            let n = self.normal(e);
            let along = b.minus(a);
            let len = along.len();
            if len <= 0.0 {
                continue;
            }
            let dir = along.scale(1.0 / len);
            let off = oc.map(|p| p.minus(a).dot(n));
            let s_min = off.into_iter().fold(f32::INFINITY, f32::min);
            if s_min.abs() > CONTACT_EPS {
                continue;
            }
            // Corners of `other` lying on the edge line give the shared stretch.
            let (mut on_line, mut lo, mut hi) = (0, f32::INFINITY, f32::NEG_INFINITY);
            for (p, s) in oc.iter().zip(off) {
                if (s - s_min).abs() <= CONTACT_EPS {
                    let t = p.minus(a).dot(dir);
                    on_line += 1;
                    lo = lo.min(t);
                    hi = hi.max(t);
                }
            }
            if on_line < 2 {
                continue;
            }
            let (lo, hi) = (lo.max(0.0), hi.min(len));
            let overlap = hi - lo;
            if overlap <= CONTACT_EPS {
                continue;
            }
            let own_edge = Edge::ALL
                .into_iter()
                .max_by(|x, y| {
                    other
                        .normal(*x)
                        .dot(n.scale(-1.0))
                        .total_cmp(&other.normal(*y).dot(n.scale(-1.0)))
                })
                .unwrap_or(Edge::Front);
            if best.is_none_or(|b| overlap > b.overlap) {
                best = Some(Contact {
                    edge: e,
                    own_edge,
                    overlap,
                });
            }
        }
        best
    }

    /// Front-to-front contact: each touches the other with its front edge.
    pub fn front_to_front(&self, other: &Base) -> Option<f32> {
        let c = self.touched_by(other)?;
        (c.edge == Edge::Front && c.own_edge == Edge::Front).then_some(c.overlap)
    }

    /// The widest half angle an arc is drawn and tested with (90 degrees would never meet
    /// the far edge).
    pub const MAX_ARC_HALF_ANGLE: f32 = 89.0;

    /// The fire or movement arc: the area ahead of the front edge, widening at `half_angle`
    /// degrees either side of straight ahead, out to `reach` mm.
    pub fn arc_polygon(&self, half_angle: f32, reach: f32) -> Option<ConvexPolygon> {
        let fl = self.front_left();
        let fr = self.front_right();
        let a = half_angle.clamp(0.0, Self::MAX_ARC_HALF_ANGLE);
        let far = reach.max(1.0);
        let side = far * a.to_radians().tan();
        let pts = [
            fl,
            fr,
            fr.plus(self.forward().scale(far))
                .plus(self.right().scale(side)),
            fl.plus(self.forward().scale(far))
                .minus(self.right().scale(side)),
        ];
        ConvexPolygon::from_convex_hull(&pts.map(|p| p.v()))
    }

    /// True when any part of `target` lies within `half_angle` of straight ahead of the front edge.
    pub fn in_arc(&self, target: &Base, half_angle: f32) -> bool {
        // A target wholly behind the front edge's line, or wholly beyond one side of the arc,
        // clear of it by more than rounding: out, without building the arc's polygon.
        const CLEAR: f32 = 0.01;
        let (f, r) = (self.forward(), self.right());
        let front = self.centre.plus(f.scale(self.depth / 2.0));
        let t = half_angle
            .clamp(0.0, Self::MAX_ARC_HALF_ANGLE)
            .to_radians()
            .tan();
        let half = self.width / 2.0;
        let corners = target.corners().map(|p| {
            let v = p.minus(front);
            (v.dot(r), v.dot(f))
        });
        let all = |out: &dyn Fn(f32, f32) -> bool| corners.iter().all(|&(x, y)| out(x, y));
        // The sides' lines as the polygon has them: through each front corner, leaning out by
        // the half angle (outward normals (1, -t) and (-1, -t), unnormalised: scaled here).
        let n = (1.0 + t * t).sqrt();
        if all(&|_, y| y < -CLEAR)
            || all(&|x, y| (x - half - y * t) / n > CLEAR)
            || all(&|x, y| (-x - half - y * t) / n > CLEAR)
        {
            return false;
        }
        let reach = self.centre.dist(target.centre) + target.width + target.depth + 1.0;
        match self.arc_polygon(half_angle, reach) {
            Some(poly) => {
                query::intersection_test(&Pose::IDENTITY, &poly, &target.pose(), &target.cuboid())
                    .map(|i| i.intersecting)
                    .unwrap_or(false)
            }
            None => false,
        }
    }

    /// Distance from the front edge to the nearest point of `target` (the DBx range convention).
    pub fn front_edge_distance(&self, target: &Base) -> f32 {
        let (a, b) = self.edge(Edge::Front);
        let seg = Segment::new(a.v(), b.v());
        query::distance(&Pose::IDENTITY, &seg, &target.pose(), &target.cuboid())
            .map(|d| d.distance)
            .unwrap_or(f32::INFINITY)
    }

    /// The threat zone: a rectangle as wide as the base and `depth` deep ahead of its front edge.
    pub fn threat_zone(&self, depth: f32) -> Base {
        Base {
            centre: self.local(0.0, self.depth / 2.0 + depth / 2.0),
            facing: self.facing,
            width: self.width,
            depth,
        }
    }

    /// True when `other` lies within an all-round zone of control of radius `r` (mm).
    pub fn in_zone_of_control(&self, other: &Base, r: f32) -> bool {
        self.distance(other) <= r
    }

    /// Points spread evenly along an edge (both corners included).
    pub fn edge_points(&self, e: Edge, n: usize) -> Vec<Pt> {
        let (a, b) = self.edge(e);
        let n = n.max(2);
        (0..n)
            .map(|i| a.lerp(b, i as f32 / (n - 1) as f32))
            .collect()
    }

    /// The edge of this base that faces `p` most directly.
    pub fn edge_facing(&self, p: Pt) -> Edge {
        let d = p.minus(self.centre);
        let f = d.dot(self.forward()) / (self.depth / 2.0).max(1e-3);
        let r = d.dot(self.right()) / (self.width / 2.0).max(1e-3);
        if f.abs() >= r.abs() {
            if f >= 0.0 { Edge::Front } else { Edge::Rear }
        } else if r >= 0.0 {
            Edge::Right
        } else {
            Edge::Left
        }
    }

    /// True when `p` lies behind the line of this base's front edge.
    pub fn behind_front_line(&self, p: Pt) -> bool {
        p.minus(self.front_centre()).dot(self.forward()) < -CONTACT_EPS
    }

    /// The base moved `ahead` mm forward and `across` mm to the right.
    pub fn translated(&self, across: f32, ahead: f32) -> Base {
        Base {
            centre: self.local(across, ahead),
            ..*self
        }
    }

    /// The base turned by `deg` (clockwise positive) about point `pivot`.
    pub fn rotated_about(&self, pivot: Pt, deg: f32) -> Base {
        let c = self.centre.minus(pivot).rotate(deg).plus(pivot);
        Base {
            centre: c,
            facing: norm_facing(self.facing + deg),
            ..*self
        }
    }
}

/// The box round some bases' bounding circles, with the quick rejections' room: what lies
/// outside it by more than a margin is farther than that margin from every one of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub lo: Pt,
    pub hi: Pt,
}

impl Bounds {
    /// The box round these bases; None where there are none, or one is not a number.
    pub fn of(bases: &[Base]) -> Option<Bounds> {
        let mut lo = Pt::new(f32::INFINITY, f32::INFINITY);
        let mut hi = Pt::new(f32::NEG_INFINITY, f32::NEG_INFINITY);
        for b in bases {
            let r = b.radius() + QUICK_ROOM;
            lo = Pt::new(lo.x.min(b.centre.x - r), lo.y.min(b.centre.y - r));
            hi = Pt::new(hi.x.max(b.centre.x + r), hi.y.max(b.centre.y + r));
        }
        (lo.is_finite() && hi.is_finite() && bases.iter().all(Base::is_finite))
            .then_some(Bounds { lo, hi })
    }

    /// Whether a base's bounding circle comes within `margin` of the box (its own box meets
    /// the box grown by the margin): a base that does not is farther than `margin` from
    /// every base the box was made round.
    pub fn meets(&self, b: &Base, margin: f32) -> bool {
        let r = b.radius() + margin;
        b.centre.x + r >= self.lo.x
            && b.centre.x - r <= self.hi.x
            && b.centre.y + r >= self.lo.y
            && b.centre.y - r <= self.hi.y
    }
}

/// The room (mm) a quick rejection leaves beyond the edge of what it rules out, so that it never
/// answers where the exact test would answer otherwise: far above the exact tests' rounding
/// (parry's f32 queries report a segment meeting a base across a gap of a hundredth of a
/// millimetre at the table's coordinates), far below any base.
pub const QUICK_ROOM: f32 = 1.0;

/// True when segment `a`-`b` passes through the base.
pub fn segment_hits_base(a: Pt, b: Pt, base: &Base) -> bool {
    // A segment that meets the base comes within its bounding circle: one that passes the
    // circle by more than the room cannot (the exact test is asked only of the others).
    let ab = b.minus(a);
    let len2 = ab.dot(ab);
    let t = if len2 > 0.0 {
        (base.centre.minus(a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let reach = base.radius() + QUICK_ROOM;
    let off = base.centre.minus(a.plus(ab.scale(t)));
    if off.dot(off) > reach * reach {
        return false;
    }
    let seg = Segment::new(a.v(), b.v());
    query::intersection_test(&Pose::IDENTITY, &seg, &base.pose(), &base.cuboid())
        .map(|i| i.intersecting)
        .unwrap_or(false)
}

/// Distance from point `p` to segment `a`-`b`.
pub fn point_segment_distance(p: Pt, a: Pt, b: Pt) -> f32 {
    use parry2d::query::PointQuery;
    Segment::new(a.v(), b.v()).distance_to_point(&Pose::IDENTITY, p.v(), true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

        /// The bounding circles that rule a base out first never change an answer: a segment
        /// past a base, a point in it, and what a box round bases says of a base near them.
        #[test]
        fn quick_rejections_agree_with_the_exact_tests(
            cx in -100f32..100.0, cy in -100f32..100.0, f in 0f32..360.0,
            w in 1f32..80.0, d in 1f32..40.0,
            ax in -150f32..150.0, ay in -150f32..150.0, bx in -150f32..150.0, by in -150f32..150.0,
        ) {
            let base = Base::new(Pt::new(cx, cy), f, w, d);
            let (a, b) = (Pt::new(ax, ay), Pt::new(bx, by));
            let seg = Segment::new(a.v(), b.v());
            let hits = query::intersection_test(&Pose::IDENTITY, &seg, &base.pose(), &base.cuboid())
                .map(|i| i.intersecting)
                .unwrap_or(false);
            prop_assert_eq!(segment_hits_base(a, b, &base), hits);
            let off = a.minus(base.centre);
            let inside = off.dot(base.right()).abs() <= w / 2.0 + 1e-3
                && off.dot(base.forward()).abs() <= d / 2.0 + 1e-3;
            prop_assert_eq!(base.contains(a), inside);
            let other = Base::new(a, f + 30.0, w, d);
            let way = Bounds::of(&[base]).unwrap();
            if !way.meets(&other, 5.0) {
                prop_assert!(base.distance(&other) > 5.0);
            }
        }
    }

    #[test]
    fn a_point_on_a_corner_or_a_segment_grazing_one_is_still_found() {
        let base = Base::new(Pt::new(0.0, 0.0), 30.0, 40.0, 20.0);
        let corner = base.front_left();
        assert!(base.contains(corner));
        let out = corner.plus(corner.minus(base.centre).scale(0.01));
        assert!(!base.contains(out));
        // A segment ending a hair inside the corner meets the base; one stopping short does not.
        let far = out.plus(corner.minus(base.centre));
        assert!(segment_hits_base(
            far,
            corner.lerp(base.centre, 0.001),
            &base
        ));
        assert!(!segment_hits_base(far, out, &base));
        assert_eq!(Bounds::of(&[]), None);
        let nan = Base::new(Pt::new(f32::NAN, 0.0), 0.0, 10.0, 10.0);
        assert_eq!(Bounds::of(&[base, nan]), None);
    }

    fn b(x: f32, y: f32, f: f32) -> Base {
        Base::new(Pt::new(x, y), f, 40.0, 15.0)
    }

    #[test]
    fn overlap_is_the_same_both_ways_round() {
        // Two 40 x 30 bases wheeled towards each other: a corner of one 0.65 mm into the
        // other's edge, past the 0.6 mm tolerance (a shrunk-base test passed one way only).
        let x = Base::new(Pt::new(894.8205, 497.1904), 210.0, 40.0, 30.0);
        let y = Base::new(Pt::new(919.8205, 527.99036), 150.0, 40.0, 30.0);
        assert!(x.overlaps(&y));
        assert!(y.overlaps(&x));
        // Edge to edge, within the tolerance: touching, not overlapping.
        let p = b(100.0, 100.0, 0.0);
        let q = b(139.5, 100.0, 0.0);
        assert!(!p.overlaps(&q) && !q.overlaps(&p));
        let r = b(139.0, 100.0, 0.0);
        assert!(p.overlaps(&r) && r.overlaps(&p));
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 0.01
    }

    #[test]
    fn corners_of_a_base_facing_north() {
        let base = b(0.0, 0.0, 0.0);
        assert!(close(base.front_left().x, -20.0) && close(base.front_left().y, 7.5));
        assert!(close(base.rear_right().x, 20.0) && close(base.rear_right().y, -7.5));
    }

    #[test]
    fn corners_of_a_base_facing_east() {
        let base = b(0.0, 0.0, 90.0);
        // Facing +x: front-left corner is at (+7.5, +20).
        assert!(close(base.front_left().x, 7.5) && close(base.front_left().y, 20.0));
    }

    #[test]
    fn distance_between_bases_in_line() {
        let a = b(0.0, 0.0, 0.0);
        let c = b(0.0, 115.0, 180.0);
        assert!(close(a.distance(&c), 100.0));
        assert!(close(a.front_edge_distance(&c), 100.0));
    }

    #[test]
    fn front_to_front_contact_is_classified() {
        let a = b(0.0, 0.0, 0.0);
        let e = b(0.0, 15.0, 180.0);
        let c = e.touched_by(&a).expect("touching");
        assert_eq!((c.edge, c.own_edge), (Edge::Front, Edge::Front));
        assert!(close(c.overlap, 40.0));
        assert!(a.front_to_front(&e).is_some());
    }

    #[test]
    fn flank_and_rear_contact_are_classified() {
        let target = b(0.0, 0.0, 0.0);
        // Attacker facing west, front against target's right flank.
        let att = Base::new(Pt::new(20.0 + 7.5, 0.0), 270.0, 40.0, 15.0);
        let c = target.touched_by(&att).expect("flank");
        assert_eq!((c.edge, c.own_edge), (Edge::Right, Edge::Front));
        assert!(close(c.overlap, 15.0));
        let rear = b(0.0, -15.0, 0.0);
        let c = target.touched_by(&rear).expect("rear");
        assert_eq!((c.edge, c.own_edge), (Edge::Rear, Edge::Front));
    }

    #[test]
    fn corner_touch_is_not_edge_contact() {
        let a = b(0.0, 0.0, 0.0);
        let c = b(40.0, 15.0, 0.0);
        assert!(a.touched_by(&c).is_none());
        assert!(!a.overlaps(&c));
    }

    #[test]
    fn arc_boundary_at_45_degrees() {
        let a = b(0.0, 0.0, 0.0);
        // Tiny target just inside the 45-degree line from the front-right corner.
        let inside = Base::new(Pt::new(20.0 + 99.0, 7.5 + 100.0), 0.0, 1.0, 1.0);
        let outside = Base::new(Pt::new(20.0 + 102.0, 7.5 + 100.0), 0.0, 1.0, 1.0);
        assert!(a.in_arc(&inside, 45.0));
        assert!(!a.in_arc(&outside, 45.0));
        // Straight behind is never in arc.
        assert!(!a.in_arc(&b(0.0, -100.0, 0.0), 45.0));
    }

    #[test]
    fn threat_zone_is_one_base_width_ahead() {
        let a = b(0.0, 0.0, 0.0);
        let tz = a.threat_zone(40.0);
        assert!(tz.contains(Pt::new(0.0, 7.5 + 39.0)));
        assert!(!tz.contains(Pt::new(0.0, 7.5 + 41.0)));
        assert!(!tz.contains(Pt::new(0.0, -5.0 - 7.5)));
    }

    #[test]
    fn all_round_zone_of_control() {
        let a = b(0.0, 0.0, 0.0);
        // 25 mm to the side of the right flank, 25 mm behind.
        assert!(a.in_zone_of_control(&b(20.0 + 20.0 + 25.0, 0.0, 0.0), 25.4));
        assert!(!a.in_zone_of_control(&b(20.0 + 20.0 + 26.0, 0.0, 0.0), 25.4));
        assert!(a.in_zone_of_control(&b(0.0, -15.0 - 25.0, 0.0), 25.4));
    }

    #[test]
    fn overlap_detection() {
        let a = b(0.0, 0.0, 0.0);
        assert!(a.overlaps(&b(10.0, 5.0, 30.0)));
        assert!(!a.overlaps(&b(40.0, 0.0, 0.0)));
    }

    #[test]
    fn wheel_about_left_corner_keeps_corner() {
        let a = b(0.0, 0.0, 0.0);
        let w = a.rotated_about(a.front_left(), -45.0);
        assert!(
            close(w.front_left().x, a.front_left().x) && close(w.front_left().y, a.front_left().y)
        );
        assert!(close(w.facing, 315.0));
    }
}
