//! The checked move: its plan, the going, and the rigid motion of each step.

use crate::rules::battle::Battle;
use crate::rules::command::{RuleError, Step};
use crate::rules::geometry::{Base, Contact, Corner, Pt, norm_facing};
use crate::rules::model::UnitId;
use crate::rules::ruleset::common::Refusal;
use crate::rules::tagged::Tagged;

/// The going a move or a unit is in.
#[derive(Clone, Debug, PartialEq)]
pub struct Going {
    pub bad: bool,
    /// The features that made it bad, by name.
    pub why: Vec<String>,
    /// The whole move stayed on a road.
    pub road: bool,
}

/// The going of a checked move, as a rule reads it back from the move's `Moved` event (the
/// kind of its `going`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoingKind {
    /// Some of the move was in bad going.
    Bad,
    /// The whole move stayed on a road, in no bad going.
    Road,
    Good,
}

impl Going {
    /// What a move that stayed on a road, in no bad going, is called (the `going` of its
    /// `Moved` event).
    pub const ROAD: &str = "road";

    /// The going in words, with its kind.
    pub fn describe(&self) -> Tagged {
        if self.bad {
            Tagged::new(
                GoingKind::Bad,
                format!("bad going ({})", self.why.join(", ")),
            )
        } else if self.road {
            Tagged::new(GoingKind::Road, Going::ROAD)
        } else {
            Tagged::new(GoingKind::Good, "good going")
        }
    }
}

/// A checked move: where each unit ends, how far it went and against what allowance.
#[derive(Clone, Debug, PartialEq)]
pub struct MovePlan {
    /// Each moving unit and its final base.
    pub ends: Vec<(UnitId, Base)>,
    /// The start bases, for the log.
    pub starts: Vec<(UnitId, Base)>,
    /// The furthest any corner travelled, in the ruleset's units.
    pub distance: f32,
    pub allowance: f32,
    pub going: Going,
    /// The enemy the (lead) unit contacts, the conformed base it takes, and the contact made
    /// before conforming.
    pub contact: Option<(UnitId, Base, Contact)>,
    pub cost: i32,
    /// A move the rules do not measure, in words ("wheels 90° to the right"): its distance is
    /// not held against the allowance, and the log says what it was instead.
    pub manoeuvre: Option<String>,
}

impl MovePlan {
    /// The ruler's words: "150 of 200 paces · good going", to the measure's precision, or what
    /// a move the rules do not measure is ("about-faces · not measured").
    pub fn ruler(&self, unit: super::super::view::Measure) -> String {
        let p = unit.precision();
        match &self.manoeuvre {
            Some(m) => format!("{m} · not measured"),
            None => format!(
                "{:.p$} of {:.p$} {unit} · {}",
                self.distance,
                self.allowance,
                self.going.describe()
            ),
        }
    }
}

/// A rigid motion: rotate `deg` about `pivot`, then shift.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Motion {
    pub(crate) pivot: Pt,
    pub(crate) deg: f32,
    pub(crate) shift: Pt,
    /// Each base turns about its own centre (about face of a group).
    pub(crate) own_centre: bool,
}

impl Motion {
    pub(crate) fn apply(&self, b: &Base, t: f32) -> Base {
        let mut out = if self.own_centre {
            b.rotated_about(b.centre, self.deg * t)
        } else {
            b.rotated_about(self.pivot, self.deg * t)
        };
        out.centre = out.centre.plus(self.shift.scale(t));
        out
    }
    /// Distance travelled by a point under the motion.
    pub(crate) fn travel(&self, p: Pt, centre: Pt) -> f32 {
        let pivot = if self.own_centre { centre } else { self.pivot };
        let arc = self.deg.abs().to_radians() * p.dist(pivot);
        arc + self.shift.len()
    }
}

/// A turn made as the whole of a move, in words: "wheels 90° to the right", "pivots 30°
/// clockwise", "about-faces". None for anything else.
pub fn manoeuvre_words(steps: &[Step]) -> Option<String> {
    let deg = |d: f32| format!("{}°", (d.abs() * 10.0).round() / 10.0);
    match steps {
        [Step::Wheel { corner, degrees }] => Some(format!(
            "wheels {} to the {}",
            deg(*degrees),
            match corner {
                Corner::Left => "left",
                Corner::Right => "right",
            }
        )),
        [Step::Pivot(d)] => Some(format!(
            "pivots {} {}",
            deg(*d),
            if *d < 0.0 {
                "anticlockwise"
            } else {
                "clockwise"
            }
        )),
        [Step::AboutFace] => Some("about-faces".into()),
        _ => None,
    }
}

/// The rigid motion of one step of a move, in the frame of `frame`.
pub(crate) fn step_motion(b: &Battle, frame: &Base, step: &Step) -> Result<Motion, RuleError> {
    let s = |v: f32| b.scale.to_mm(v);

    let none = Motion {
        pivot: frame.centre,
        deg: 0.0,
        shift: Pt::default(),
        own_centre: false,
    };
    let bad = |what: &str| {
        RuleError::refused(
            Refusal::BadDistance,
            format!("a {what} must be a finite, non-negative distance"),
        )
    };
    Ok(match *step {
        Step::Advance(d) => {
            if !(d.is_finite() && d >= 0.0) {
                return Err(bad("advance"));
            }
            Motion {
                shift: frame.forward().scale(s(d)),
                ..none
            }
        }
        Step::Backstep(d) => {
            if !(d.is_finite() && d >= 0.0) {
                return Err(bad("backstep"));
            }
            Motion {
                shift: frame.forward().scale(-s(d)),
                ..none
            }
        }
        Step::Sidestep(d) => {
            if !d.is_finite() {
                return Err(bad("sidestep"));
            }
            Motion {
                shift: frame.right().scale(s(d)),
                ..none
            }
        }
        Step::Oblique { forward, right } => {
            if !(forward.is_finite() && right.is_finite()) {
                return Err(bad("oblique move"));
            }
            Motion {
                shift: frame
                    .forward()
                    .scale(s(forward))
                    .plus(frame.right().scale(s(right))),
                ..none
            }
        }
        Step::Wheel { corner, degrees } => {
            if !(degrees.is_finite() && (0.0..=180.0).contains(&degrees)) {
                return Err(RuleError::refused(
                    Refusal::BadWheel,
                    "a wheel must be between 0 and 180 degrees".into(),
                ));
            }
            match corner {
                Corner::Left => Motion {
                    pivot: frame.front_left(),
                    deg: -degrees,
                    ..none
                },
                Corner::Right => Motion {
                    pivot: frame.front_right(),
                    deg: degrees,
                    ..none
                },
            }
        }
        Step::Pivot(deg) => {
            if !(deg.is_finite() && deg.abs() <= 360.0) {
                return Err(RuleError::refused(
                    Refusal::BadPivot,
                    "a pivot must be between -360 and 360 degrees".into(),
                ));
            }
            Motion {
                pivot: frame.centre,
                deg,
                ..none
            }
        }
        Step::AboutFace => Motion {
            pivot: frame.centre,
            deg: 180.0,
            own_centre: true,
            ..none
        },
        Step::ToContact(_) => {
            return Err(RuleError::refused(
                Refusal::ContactNotLastStep,
                "a move into contact must be the last step".into(),
            ));
        }
    })
}

/// Compass facing of a direction.
pub fn heading_deg(v: Pt) -> f32 {
    norm_facing(v.x.atan2(v.y).to_degrees())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ruleset::Measure;

    fn plan(distance: f32, allowance: f32, manoeuvre: Option<&str>) -> MovePlan {
        MovePlan {
            ends: vec![],
            starts: vec![],
            distance,
            allowance,
            going: Going {
                bad: false,
                why: vec![],
                road: false,
            },
            contact: None,
            cost: 1,
            manoeuvre: manoeuvre.map(String::from),
        }
    }

    #[test]
    fn the_ruler_reads_to_the_measure_and_names_unmeasured_moves() {
        assert_eq!(
            plan(150.2, 200.0, None).ruler(Measure::Paces),
            "150 of 200 paces · good going"
        );
        assert_eq!(
            plan(3.5, 6.0, None).ruler(Measure::Inches),
            "3.5 of 6.0 inches · good going"
        );
        assert_eq!(
            plan(264.0, 200.0, Some("about-faces")).ruler(Measure::Paces),
            "about-faces · not measured"
        );
        assert_eq!(
            manoeuvre_words(&[Step::Pivot(-30.0)]).as_deref(),
            Some("pivots 30° anticlockwise")
        );
        assert_eq!(manoeuvre_words(&[Step::Advance(3.0)]), None);
    }
}
