//! Moving into contact and conforming to the enemy met.

use super::*;
use crate::rules::geometry::{Base, CONTACT_EPS, Contact, Edge, Pt, norm_facing};
use parry2d::query::{self, ShapeCastOptions};

/// The turn in degrees (clockwise positive) that squares `mover` up to `edge` of `target`.
fn off_square(mover: &Base, target: &Base, edge: Edge) -> f32 {
    let want = target.normal(edge).scale(-1.0);
    let square = want.x.atan2(want.y).to_degrees();
    crate::rules::geometry::norm_deg(square - mover.facing)
}

/// A front corner of `mover` lying on an edge of `target` that its front faces: that edge, the
/// turn that would square it up, and the shadow of its front on the edge (what conforming makes
/// of the contact).
fn corner_touch(mover: &Base, target: &Base) -> Option<(Edge, f32, f32)> {
    let (fl, fr) = (mover.front_left(), mover.front_right());
    Edge::ALL
        .into_iter()
        .filter_map(|edge| {
            let (a, e) = target.edge(edge);
            let n = target.normal(edge);
            let len = e.minus(a).len();
            if len <= 0.0 || n.dot(mover.forward()) >= 0.0 {
                return None;
            }
            let dir = e.minus(a).scale(1.0 / len);
            let on_edge = |p: Pt| {
                p.minus(a).dot(n).abs() <= CONTACT_EPS
                    && (-CONTACT_EPS..=len + CONTACT_EPS).contains(&p.minus(a).dot(dir))
            };
            if !(on_edge(fl) || on_edge(fr)) {
                return None;
            }
            let (s, t) = (fl.minus(a).dot(dir), fr.minus(a).dot(dir));
            let shadow = s.max(t).min(len) - s.min(t).max(0.0);
            Some((edge, off_square(mover, target, edge), shadow))
        })
        .filter(|x| x.2 > CONTACT_EPS)
        .min_by(|x, y| x.1.abs().total_cmp(&y.1.abs()))
}

/// The contact `mover`'s front makes with `target`: its front edge flat against an edge of the
/// target, or a front corner against an edge no more than `max_off` degrees off square (the
/// shared length is then the front's shadow on that edge, what conforming makes of it). A front
/// corner arriving first is the usual way a charge meets the enemy; the most it may be off
/// square and still be conformed is each ruleset's data (`square_up_max`): beyond it the move
/// would be a slide round to the side, and the player is told to wheel first.
pub fn front_contact(mover: &Base, target: &Base, max_off: f32) -> Option<Contact> {
    if let Some(c) = target.touched_by(mover) {
        return (c.own_edge == Edge::Front).then_some(c);
    }
    if mover.overlaps(target) {
        return None;
    }
    corner_touch(mover, target)
        .filter(|t| t.1.abs() <= max_off)
        .map(|(edge, _, overlap)| Contact {
            edge,
            own_edge: Edge::Front,
            overlap,
        })
}

/// Why `mover` cannot go straight ahead into contact with `target`, and what to do about it.
pub fn no_contact_words(
    mover: &Base,
    target: &Base,
    mover_name: &str,
    target_name: &str,
    max_off: f32,
) -> String {
    // Its front would meet the enemy's edge, only too obliquely to conform: say how to square up.
    let oblique = sweep_to_contact(mover, target, 90.0).and_then(|d| {
        let moved = Base {
            centre: mover.centre.plus(mover.forward().scale(d)),
            ..*mover
        };
        corner_touch(&moved, target).map(|t| t.1)
    });
    match oblique {
        Some(off) if off.abs() > max_off => format!(
            "{mover_name} meets {target_name} {:.0} degrees off square: wheel {:.0} degrees to the {} to square up first",
            off.abs(),
            off.abs(),
            if off < 0.0 { "left" } else { "right" }
        ),
        _ => format!("{target_name} is not straight ahead of {mover_name}"),
    }
}

/// How far `mover` must go straight ahead for its front edge to meet `target` (None if it never
/// does, or meets it too far off square to conform). Uses parry's shape cast.
pub fn sweep_to_contact(mover: &Base, target: &Base, max_off: f32) -> Option<f32> {
    let vel = mover.forward().v();
    let hit = query::cast_shapes(
        &mover.pose(),
        vel,
        &mover.cuboid(),
        &target.pose(),
        parry2d::math::Vector::ZERO,
        &target.cuboid(),
        ShapeCastOptions::with_max_time_of_impact(1.0e5),
    )
    .ok()??;
    let d = hit.time_of_impact;
    let moved = Base {
        centre: mover.centre.plus(mover.forward().scale(d)),
        ..*mover
    };
    // Touching only corner to corner is not a legal contact.
    front_contact(&moved, target, max_off).map(|_| d)
}

/// The conforming position: the mover's front edge flush against the touched edge of the
/// target, lined up with it (front to front centred; flank contact front corners level).
pub fn conform(mover: &Base, target: &Base, c: Contact) -> Base {
    let n = target.normal(c.edge);
    let facing = norm_facing(
        target.facing
            + match c.edge {
                Edge::Front => 180.0,
                Edge::Right => 270.0,
                Edge::Rear => 0.0,
                Edge::Left => 90.0,
            },
    );
    let (a, e) = target.edge(c.edge);
    let mid = a.lerp(e, 0.5);
    let along = match c.edge {
        Edge::Front | Edge::Rear => {
            // Slide along the edge to line up centres.
            0.0
        }
        Edge::Right | Edge::Left => {
            // Front corners level: the mover's side edge continues the target's front edge.
            let half_len = target.depth / 2.0;
            half_len - mover.width / 2.0
        }
    };
    let dir_to_front = target.forward();
    let centre = mid
        .plus(n.scale(mover.depth / 2.0))
        .plus(dir_to_front.scale(if c.edge.is_flank() { along } else { 0.0 }));
    Base {
        centre,
        facing,
        width: mover.width,
        depth: mover.depth,
    }
}

/// The mover's front edge laid flush against the face of `target` it reached, keeping its
/// place along that face.
pub fn square_up(mover: &Base, target: &Base) -> (Base, Contact) {
    // The face it meets is the one turned most squarely towards it, wherever its centre
    // overhangs the target's corner.
    let fwd = mover.forward();
    let edge = Edge::ALL
        .into_iter()
        .max_by(|a, b| (-target.normal(*a).dot(fwd)).total_cmp(&(-target.normal(*b).dot(fwd))))
        .unwrap_or_else(|| target.edge_facing(mover.front_centre()));
    let n = target.normal(edge);
    let (a, e) = target.edge(edge);
    let along = e.minus(a);
    let len = along.len().max(1e-3);
    let dir = along.scale(1.0 / len);
    let t = mover.front_centre().minus(a).dot(dir).clamp(0.0, len);
    let facing = norm_facing(heading_deg(n.scale(-1.0)));
    let centre = a.plus(dir.scale(t)).plus(n.scale(mover.depth / 2.0));
    let to = Base {
        centre,
        facing,
        ..*mover
    };
    let c = target.touched_by(&to).unwrap_or(Contact {
        edge,
        own_edge: Edge::Front,
        overlap: 0.0,
    });
    (to, c)
}

#[cfg(test)]
mod contact_tests {
    use super::*;

    /// The rulesets' `square_up_max`.
    const MAX: f32 = 45.0;

    fn base(x: f32, y: f32, facing: f32) -> Base {
        Base::new(Pt::new(x, y), facing, 40.0, 30.0)
    }

    #[test]
    fn a_front_corner_on_an_edge_is_contact_when_nearly_square() {
        let enemy = base(500.0, 500.0, 180.0);
        // Flat, front to front.
        let flat = front_contact(&base(500.0, 470.0, 0.0), &enemy, MAX).unwrap();
        assert_eq!((flat.edge, flat.own_edge), (Edge::Front, Edge::Front));
        // 5 degrees off: carried straight ahead, the left front corner meets the front edge.
        let off = base(500.0, 400.0, 5.0);
        let d = sweep_to_contact(&off, &enemy, MAX).expect("meets it");
        let moved = Base {
            centre: off.centre.plus(off.forward().scale(d)),
            ..off
        };
        let c = front_contact(&moved, &enemy, MAX).expect("conformable");
        assert_eq!((c.edge, c.own_edge), (Edge::Front, Edge::Front));
        // The front's shadow on the enemy's edge, the part of the edge it covers once squared up.
        assert!(c.overlap > 30.0 && c.overlap < 40.0, "{}", c.overlap);
        // A rear corner on the edge is no front contact.
        let backwards = base(500.0, 470.0, 180.0);
        assert!(front_contact(&backwards, &enemy, MAX).is_none());
        // 60 degrees off is refused, with what to do.
        let oblique = base(390.0, 400.0, 60.0);
        assert!(sweep_to_contact(&oblique, &enemy, MAX).is_none());
        assert_eq!(
            no_contact_words(&oblique, &enemy, "Cuirassiers", "IR 20", MAX),
            "Cuirassiers meets IR 20 60 degrees off square: wheel 60 degrees to the left to square up first"
        );
        // An enemy off to the side is simply not ahead.
        assert_eq!(
            no_contact_words(
                &base(100.0, 400.0, 0.0),
                &enemy,
                "Cuirassiers",
                "IR 20",
                MAX
            ),
            "IR 20 is not straight ahead of Cuirassiers"
        );
    }
}
