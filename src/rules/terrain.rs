//! Terrain features (areas and linear features) and what they do to going, sight and cover.

use super::geometry::{Base, Bounds, Pt, point_segment_distance};
use parry2d::bounding_volume::BoundingVolume;
use parry2d::math::{Pose, Vector};
use parry2d::query::{self, PointQuery, Ray, RayCast};
use parry2d::shape::{Polyline, Segment, TriMesh};
use serde::{Deserialize, Serialize};

/// What a terrain feature is. Areas are closed polygons; linear features are polylines with a width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FeatureKind {
    Woods,
    Hill,
    /// A built-up area (town).
    Town,
    /// A village: a non-linear feature (NLF).
    Village,
    Marsh,
    Rough,
    Fortification,
    River,
    Stream,
    Road,
    Bridge,
    Causeway,
}

impl FeatureKind {
    pub const ALL: [FeatureKind; 12] = [
        FeatureKind::Woods,
        FeatureKind::Hill,
        FeatureKind::Town,
        FeatureKind::Village,
        FeatureKind::Marsh,
        FeatureKind::Rough,
        FeatureKind::Fortification,
        FeatureKind::River,
        FeatureKind::Stream,
        FeatureKind::Road,
        FeatureKind::Bridge,
        FeatureKind::Causeway,
    ];

    pub fn is_linear(self) -> bool {
        matches!(
            self,
            Self::River | Self::Stream | Self::Road | Self::Bridge | Self::Causeway
        )
    }
    pub fn is_road_like(self) -> bool {
        matches!(self, Self::Road | Self::Bridge | Self::Causeway)
    }
    pub fn name(self) -> &'static str {
        match self {
            Self::Woods => "woods",
            Self::Hill => "hill",
            Self::Town => "town (BUA)",
            Self::Village => "village (NLF)",
            Self::Marsh => "marsh",
            Self::Rough => "rough ground",
            Self::Fortification => "fortification",
            Self::River => "river",
            Self::Stream => "stream",
            Self::Road => "road",
            Self::Bridge => "bridge",
            Self::Causeway => "causeway",
        }
    }
}

/// One terrain feature as placed on the table.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Feature {
    pub id: String,
    pub kind: FeatureKind,
    pub name: String,
    /// Polygon outline (areas) or centre line (linear features), mm.
    pub points: Vec<Pt>,
    /// Width of a linear feature, mm.
    pub width: f32,
    /// Height level of a hill (1 = a low hill).
    pub level: u8,
    /// A steep or rough hill is bad going.
    pub steep: bool,
    /// A town or village prepared for defence.
    pub fortified: bool,
    /// The points of artillery fire a town takes before it burns, where the scenario sets them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub town_points: Option<u32>,
    #[serde(skip)]
    shape: Option<Shape>,
}

#[derive(Clone)]
enum Shape {
    Area(TriMesh, Vec<(Pt, Pt)>),
    Line(Polyline),
}

impl std::fmt::Debug for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Shape")
    }
}

impl Feature {
    /// Builds a feature, checking its outline. Errors are in words for the scenario author.
    pub fn new(
        id: &str,
        kind: FeatureKind,
        name: &str,
        points: Vec<Pt>,
        width: f32,
    ) -> Result<Self, String> {
        let mut f = Feature {
            id: id.to_string(),
            kind,
            name: name.to_string(),
            points,
            width,
            level: 1,
            steep: false,
            fortified: false,
            town_points: None,
            shape: None,
        };
        f.build()?;
        Ok(f)
    }

    /// (Re)builds the query shape after deserialising.
    pub fn build(&mut self) -> Result<(), String> {
        if self.points.iter().any(|p| !p.is_finite()) {
            return Err(format!(
                "feature '{}' has a coordinate that is not a number",
                self.id
            ));
        }
        if self.kind.is_linear() {
            if self.points.len() < 2 {
                return Err(format!(
                    "linear feature '{}' needs at least 2 points",
                    self.id
                ));
            }
            if !(self.width.is_finite() && self.width > 0.0) {
                return Err(format!(
                    "linear feature '{}' needs a positive width",
                    self.id
                ));
            }
            let verts: Vec<Vector> = self.points.iter().map(|p| p.v()).collect();
            self.shape = Some(Shape::Line(Polyline::new(verts, None)));
        } else {
            if self.points.len() < 3 {
                return Err(format!(
                    "area feature '{}' needs at least 3 points",
                    self.id
                ));
            }
            let mut pts = self.points.clone();
            if signed_area(&pts) < 0.0 {
                pts.reverse();
            }
            if signed_area(&pts).abs() < 1.0 {
                return Err(format!("area feature '{}' has no area", self.id));
            }
            let verts: Vec<Vector> = pts.iter().map(|p| p.v()).collect();
            let mesh = TriMesh::from_polygon(verts)
                .ok_or_else(|| format!("area feature '{}' outline crosses itself", self.id))?;
            let n = pts.len();
            let edges = (0..n).map(|i| (pts[i], pts[(i + 1) % n])).collect();
            self.shape = Some(Shape::Area(mesh, edges));
        }
        Ok(())
    }

    /// True when the point lies inside an area or on a linear feature.
    pub fn contains(&self, p: Pt) -> bool {
        if !self.may_meet(p, p) {
            return false;
        }
        match &self.shape {
            Some(Shape::Area(mesh, _)) => mesh.contains_point(&Pose::IDENTITY, p.v()),
            Some(Shape::Line(_)) => self.distance_to_line(p) <= self.width / 2.0,
            None => false,
        }
    }

    /// The box around the built shape (a linear feature's with its width), kept by its BVH.
    fn aabb(&self) -> Option<parry2d::bounding_volume::Aabb> {
        match &self.shape {
            Some(Shape::Area(mesh, _)) => Some(mesh.local_aabb()),
            Some(Shape::Line(line)) => Some(line.local_aabb().loosened(self.width / 2.0)),
            None => None,
        }
    }

    /// Whether the box from `lo` to `hi` meets the feature's box: a cheap test that rules out
    /// most features before the exact ones.
    fn may_meet(&self, lo: Pt, hi: Pt) -> bool {
        self.aabb().is_some_and(|b| {
            lo.x <= b.maxs.x && hi.x >= b.mins.x && lo.y <= b.maxs.y && hi.y >= b.mins.y
        })
    }

    /// Whether the box from `lo` to `hi` meets the box of any segment of a linear feature,
    /// loosened by its half width: what comes within the line's width meets one of them (a
    /// road across the table has a box as wide as the table, its segments do not).
    fn line_may_meet(&self, lo: Pt, hi: Pt) -> bool {
        let h = self.width / 2.0 + crate::rules::geometry::QUICK_ROOM;
        self.points.windows(2).any(|w| {
            lo.x <= w[0].x.max(w[1].x) + h
                && hi.x >= w[0].x.min(w[1].x) - h
                && lo.y <= w[0].y.max(w[1].y) + h
                && hi.y >= w[0].y.min(w[1].y) - h
        })
    }

    /// Whether the segment `a`-`c` comes within the feature's box.
    pub fn may_cross(&self, a: Pt, c: Pt) -> bool {
        self.may_meet(
            Pt::new(a.x.min(c.x), a.y.min(c.y)),
            Pt::new(a.x.max(c.x), a.y.max(c.y)),
        )
    }

    fn distance_to_line(&self, p: Pt) -> f32 {
        self.points
            .windows(2)
            .map(|w| point_segment_distance(p, w[0], w[1]))
            .fold(f32::INFINITY, f32::min)
    }

    /// True when any part of the base touches the feature.
    pub fn touches(&self, base: &Base) -> bool {
        let r = base.radius();
        let c = base.centre;
        if !self.may_meet(Pt::new(c.x - r, c.y - r), Pt::new(c.x + r, c.y + r)) {
            return false;
        }
        match &self.shape {
            Some(Shape::Area(mesh, _)) => {
                query::intersection_test(&Pose::IDENTITY, mesh, &base.pose(), &base.cuboid())
                    .map(|i| i.intersecting)
                    .unwrap_or(false)
            }
            Some(Shape::Line(_))
                if !self.line_may_meet(Pt::new(c.x - r, c.y - r), Pt::new(c.x + r, c.y + r)) =>
            {
                false
            }
            Some(Shape::Line(line)) => {
                query::distance(&Pose::IDENTITY, line, &base.pose(), &base.cuboid())
                    .map(|d| d.distance <= self.width / 2.0)
                    .unwrap_or(false)
            }
            None => false,
        }
    }

    /// Length (mm) of segment a-b that lies inside an area feature.
    pub fn inside_length(&self, a: Pt, b: Pt) -> f32 {
        let Some(Shape::Area(mesh, edges)) = &self.shape else {
            return 0.0;
        };
        let len = a.dist(b);
        if len <= 0.0 || !self.may_cross(a, b) {
            return 0.0;
        }
        let dir = b.minus(a).scale(1.0 / len);
        let ray = Ray::new(a.v(), dir.v());
        let mut ts: Vec<f32> = vec![0.0];
        for (p, q) in edges {
            let seg = Segment::new(p.v(), q.v());
            if let Some(t) = seg.cast_ray(&Pose::IDENTITY, &ray, len, false) {
                ts.push(t);
            }
        }
        ts.push(len);
        ts.sort_by(f32::total_cmp);
        let mut inside = 0.0;
        for w in ts.windows(2) {
            if w[1] - w[0] <= 1e-4 {
                continue;
            }
            let mid = a.plus(dir.scale((w[0] + w[1]) / 2.0));
            if mesh.contains_point(&Pose::IDENTITY, mid.v()) {
                inside += w[1] - w[0];
            }
        }
        inside
    }

    /// True when segment a-b crosses a linear feature.
    pub fn crossed_by(&self, a: Pt, b: Pt) -> bool {
        match &self.shape {
            // A segment within the half width of the line meets its box loosened by as much.
            Some(Shape::Line(_))
                if !self.line_may_meet(
                    Pt::new(a.x.min(b.x), a.y.min(b.y)),
                    Pt::new(a.x.max(b.x), a.y.max(b.y)),
                ) =>
            {
                false
            }
            Some(Shape::Line(line)) => {
                let seg = Segment::new(a.v(), b.v());
                query::distance(&Pose::IDENTITY, line, &Pose::IDENTITY, &seg)
                    .map(|d| d.distance <= self.width / 2.0)
                    .unwrap_or(false)
            }
            Some(Shape::Area(..)) => self.inside_length(a, b) > 0.0,
            None => false,
        }
    }

    /// Triangles covering the feature, for drawing: areas by their triangulation, linear
    /// features as a quad per segment of their width.
    pub fn triangles(&self) -> Vec<[Pt; 3]> {
        match &self.shape {
            Some(Shape::Area(mesh, _)) => mesh
                .triangles()
                .map(|t| [Pt::from_v(t.a), Pt::from_v(t.b), Pt::from_v(t.c)])
                .collect(),
            Some(Shape::Line(_)) => {
                let h = self.width / 2.0;
                let mut out = Vec::new();
                for w in self.points.windows(2) {
                    let d = w[1].minus(w[0]);
                    let l = d.len().max(1e-6);
                    let n = Pt::new(-d.y / l * h, d.x / l * h);
                    let (a, b, c, e) = (w[0].plus(n), w[1].plus(n), w[1].minus(n), w[0].minus(n));
                    out.push([a, b, c]);
                    out.push([a, c, e]);
                }
                out
            }
            None => Vec::new(),
        }
    }

    /// Axis-aligned bounds (min, max), widened by half the width of linear features.
    pub fn bounds(&self) -> (Pt, Pt) {
        let pad = if self.kind.is_linear() {
            self.width / 2.0
        } else {
            0.0
        };
        let mut lo = Pt::new(f32::INFINITY, f32::INFINITY);
        let mut hi = Pt::new(f32::NEG_INFINITY, f32::NEG_INFINITY);
        for p in &self.points {
            lo = Pt::new(lo.x.min(p.x - pad), lo.y.min(p.y - pad));
            hi = Pt::new(hi.x.max(p.x + pad), hi.y.max(p.y + pad));
        }
        (lo, hi)
    }
}

fn signed_area(p: &[Pt]) -> f32 {
    let n = p.len();
    (0..n).map(|i| p[i].cross(p[(i + 1) % n])).sum::<f32>() / 2.0
}

/// All the terrain on the table. The features are shared between copies of a battle (every
/// command's undo state is one); the few changes in play (a town fortified or taken) copy them.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Terrain {
    pub features: std::sync::Arc<Vec<Feature>>,
}

impl Terrain {
    pub fn rebuild(&mut self) -> Result<(), String> {
        std::sync::Arc::make_mut(&mut self.features)
            .iter_mut()
            .try_for_each(Feature::build)
    }

    pub fn get(&self, id: &str) -> Option<&Feature> {
        self.features.iter().find(|f| f.id == id)
    }

    /// The features that may touch one of these bases, in order (their boxes meet the box
    /// round the bases): no other touches, holds or is crossed between any of them, so the
    /// exact tests of a move need ask only these.
    pub fn near(&self, bases: &[Base]) -> Vec<&Feature> {
        // Bases not numbers are asked of every feature, as before.
        let bounds = Bounds::of(bases);
        self.features
            .iter()
            .filter(|f| bounds.is_none_or(|b| f.may_meet(b.lo, b.hi)))
            .collect()
    }

    /// Features of the given kinds that the base touches.
    pub fn touching<'a>(
        &'a self,
        base: &'a Base,
        kinds: &'a [FeatureKind],
    ) -> impl Iterator<Item = &'a Feature> + 'a {
        self.features
            .iter()
            .filter(move |f| kinds.contains(&f.kind) && f.touches(base))
    }

    /// In a fortification, or a fortified town or village.
    pub fn fortified_at(&self, p: Pt) -> bool {
        self.at(p, &[FeatureKind::Fortification]).next().is_some()
            || self
                .at(p, &[FeatureKind::Town, FeatureKind::Village])
                .any(|f| f.fortified)
    }

    /// Features of the given kinds containing the point.
    pub fn at<'a>(
        &'a self,
        p: Pt,
        kinds: &'a [FeatureKind],
    ) -> impl Iterator<Item = &'a Feature> + 'a {
        self.features
            .iter()
            .filter(move |f| kinds.contains(&f.kind) && f.contains(p))
    }

    /// Height level at a point: the highest hill containing it, 0 on the plain.
    pub fn level_at(&self, p: Pt) -> u8 {
        self.at(p, &[FeatureKind::Hill])
            .map(|f| f.level)
            .max()
            .unwrap_or(0)
    }

    /// True when `a` stands higher than `b`.
    pub fn uphill_of(&self, a: Pt, b: Pt) -> bool {
        self.level_at(a) > self.level_at(b)
    }

    /// True when the point lies on a road, bridge or causeway.
    pub fn on_road(&self, p: Pt) -> bool {
        self.at(
            p,
            &[
                FeatureKind::Road,
                FeatureKind::Bridge,
                FeatureKind::Causeway,
            ],
        )
        .next()
        .is_some()
    }

    /// True when the base's centre is on a bridge or causeway.
    pub fn on_bridge(&self, base: &Base) -> bool {
        self.at(base.centre, &[FeatureKind::Bridge, FeatureKind::Causeway])
            .next()
            .is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

        /// A linear feature is asked exactly only where a box round one of its segments meets
        /// the base's or the step's; the answers are those of the exact tests everywhere, and
        /// the features near a way hold every feature touching it.
        #[test]
        fn a_line_is_tested_exactly_wherever_it_may_touch(
            ys in prop::collection::vec(-100f32..100.0, 3..6),
            cx in -50f32..350.0, cy in -150f32..150.0, f in 0f32..360.0,
            dx in -60f32..60.0, dy in -60f32..60.0, width in 2f32..30.0,
        ) {
            let points: Vec<Pt> = ys.iter().enumerate().map(|(i, y)| Pt::new(i as f32 * 80.0, *y)).collect();
            let road = Feature::new("r", FeatureKind::Road, "r", points, width).unwrap();
            let Some(Shape::Line(line)) = &road.shape else { panic!("a road is a line") };
            let base = Base::new(Pt::new(cx, cy), f, 40.0, 15.0);
            let touches = query::distance(&Pose::IDENTITY, line, &base.pose(), &base.cuboid())
                .map(|d| d.distance <= width / 2.0)
                .unwrap_or(false);
            prop_assert_eq!(road.touches(&base), touches);
            let (a, b) = (base.centre, base.centre.plus(Pt::new(dx, dy)));
            let seg = Segment::new(a.v(), b.v());
            let crossed = query::distance(&Pose::IDENTITY, line, &Pose::IDENTITY, &seg)
                .map(|d| d.distance <= width / 2.0)
                .unwrap_or(false);
            prop_assert_eq!(road.crossed_by(a, b), crossed);
            let terrain = Terrain { features: std::sync::Arc::new(vec![road]) };
            let moved = base.translated(dx, dy);
            let near = terrain.near(&[base, moved]);
            if terrain.features[0].touches(&base) || terrain.features[0].touches(&moved) {
                prop_assert_eq!(near.len(), 1);
            }
        }
    }

    fn square(kind: FeatureKind, x0: f32, y0: f32, s: f32) -> Feature {
        Feature::new(
            "f",
            kind,
            "f",
            vec![
                Pt::new(x0, y0),
                Pt::new(x0 + s, y0),
                Pt::new(x0 + s, y0 + s),
                Pt::new(x0, y0 + s),
            ],
            0.0,
        )
        .unwrap()
    }

    #[test]
    fn point_in_concave_polygon() {
        // An L shape.
        let pts = vec![
            Pt::new(0.0, 0.0),
            Pt::new(100.0, 0.0),
            Pt::new(100.0, 40.0),
            Pt::new(40.0, 40.0),
            Pt::new(40.0, 100.0),
            Pt::new(0.0, 100.0),
        ];
        let f = Feature::new("l", FeatureKind::Woods, "L", pts, 0.0).unwrap();
        assert!(f.contains(Pt::new(20.0, 80.0)));
        assert!(f.contains(Pt::new(80.0, 20.0)));
        assert!(!f.contains(Pt::new(80.0, 80.0)));
    }

    #[test]
    fn inside_length_through_a_square() {
        let f = square(FeatureKind::Woods, 0.0, 0.0, 100.0);
        let l = f.inside_length(Pt::new(-50.0, 50.0), Pt::new(150.0, 50.0));
        assert!((l - 100.0).abs() < 0.01, "{l}");
        let l = f.inside_length(Pt::new(50.0, 50.0), Pt::new(150.0, 50.0));
        assert!((l - 50.0).abs() < 0.01, "{l}");
        assert_eq!(
            f.inside_length(Pt::new(-50.0, 150.0), Pt::new(150.0, 150.0)),
            0.0
        );
    }

    #[test]
    fn base_touching_area_and_line() {
        let f = square(FeatureKind::Marsh, 0.0, 0.0, 100.0);
        assert!(f.touches(&Base::new(Pt::new(-10.0, 50.0), 0.0, 40.0, 15.0)));
        assert!(!f.touches(&Base::new(Pt::new(-30.0, 50.0), 0.0, 40.0, 15.0)));
        let s = Feature::new(
            "s",
            FeatureKind::Stream,
            "s",
            vec![Pt::new(0.0, 0.0), Pt::new(0.0, 200.0)],
            6.0,
        )
        .unwrap();
        assert!(s.touches(&Base::new(Pt::new(22.0, 50.0), 0.0, 40.0, 15.0)));
        assert!(!s.touches(&Base::new(Pt::new(24.0, 50.0), 0.0, 40.0, 15.0)));
        assert!(s.crossed_by(Pt::new(-10.0, 10.0), Pt::new(10.0, 10.0)));
    }

    #[test]
    fn degenerate_outlines_are_refused() {
        assert!(
            Feature::new(
                "x",
                FeatureKind::Woods,
                "x",
                vec![Pt::new(0.0, 0.0), Pt::new(1.0, 1.0)],
                0.0
            )
            .is_err()
        );
        assert!(
            Feature::new(
                "x",
                FeatureKind::Woods,
                "x",
                vec![Pt::new(0.0, 0.0), Pt::new(1.0, 1.0), Pt::new(2.0, 2.0)],
                0.0
            )
            .is_err()
        );
        assert!(
            Feature::new(
                "x",
                FeatureKind::Road,
                "x",
                vec![Pt::new(f32::NAN, 0.0), Pt::new(1.0, 1.0)],
                5.0
            )
            .is_err()
        );
    }

    #[test]
    fn hills_give_levels() {
        let mut t = Terrain::default();
        let mut h = square(FeatureKind::Hill, 0.0, 0.0, 100.0);
        h.level = 2;
        std::sync::Arc::make_mut(&mut t.features).push(h);
        assert_eq!(t.level_at(Pt::new(50.0, 50.0)), 2);
        assert!(t.uphill_of(Pt::new(50.0, 50.0), Pt::new(150.0, 50.0)));
    }
}
