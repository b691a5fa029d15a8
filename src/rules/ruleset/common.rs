//! Machinery every ruleset shares: rules numbers and factors read from data with their sources,
//! the checked move (plan, going, rigid motions of each step), moving into contact and
//! conforming, and whose unit it is.

use super::view::{Action, ActionGroup, Chance, Ink, Layer, Mark, RefRow};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event, Factor, RuleError, Step};
use crate::rules::geometry::{Base, CONTACT_EPS, Contact, Corner, Edge, Pt, norm_facing};
use crate::rules::model::{Phase, Unit, UnitId};
use parry2d::query::{self, ShapeCastOptions};
use serde::{Deserialize, Serialize};

/// A tactical factor with its value and source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FactorDef {
    pub key: String,
    pub name: String,
    pub value: i32,
    pub source: String,
}

/// A rules number with its source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Number {
    pub key: String,
    pub value: f32,
    pub source: String,
}

/// The going a move or a unit is in.
#[derive(Clone, Debug, PartialEq)]
pub struct Going {
    pub bad: bool,
    /// The features that made it bad, by name.
    pub why: Vec<String>,
    /// The whole move stayed on a road.
    pub road: bool,
}

impl Going {
    pub fn describe(&self) -> String {
        if self.bad {
            format!("bad going ({})", self.why.join(", "))
        } else if self.road {
            "road".to_string()
        } else {
            "good going".to_string()
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
    pub fn ruler(&self, unit: super::view::Measure) -> String {
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

/// The keys of one ruleset's rules numbers or factors, each named once in the engine: made by
/// `rules_keys!`. A key the engine reads that its data lacks, or one the data gives that the
/// engine does not know, is a load error: a rules number is never read as 0 by mistake.
pub trait RulesKey: Copy + std::fmt::Debug + 'static {
    /// Every key, in the enum's order.
    const ALL: &'static [Self];
    /// The key as the data file writes it.
    fn key(self) -> &'static str;
    /// Its place in `ALL`.
    fn index(self) -> usize;
}

/// An enum of rules keys with the words the data file uses for each:
/// `rules_keys! { pub enum N { MoveGg = "move_gg", Range = "range" } }`.
#[macro_export]
macro_rules! rules_keys {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name { $($(#[$vm])* $v),* }
        impl $crate::rules::ruleset::common::RulesKey for $name {
            const ALL: &'static [Self] = &[$(Self::$v),*];
            fn key(self) -> &'static str {
                match self { $(Self::$v => $s),* }
            }
            fn index(self) -> usize {
                self as usize
            }
        }
    };
}

/// The line (from 1) of a data file that gives `key`, for load errors.
pub fn line_of(text: &str, key: &str) -> Option<usize> {
    let quoted = format!("\"{key}\"");
    text.lines()
        .position(|l| l.contains("key:") && l.contains(&quoted))
        .map(|i| i + 1)
}

/// Values by typed key, every key present: built at load from a data list.
#[derive(Clone, Debug, PartialEq)]
pub struct Keyed<K, V> {
    values: Vec<V>,
    keys: std::marker::PhantomData<K>,
}

impl<K: RulesKey, V> Keyed<K, V> {
    /// Takes every key of `K` from `list` (each entry's key by `key_of`), refusing, with the
    /// file and line, a key the list lacks, gives twice, or that `K` does not know.
    pub fn take<T>(
        list: &[T],
        key_of: impl Fn(&T) -> &str,
        value: impl Fn(&T) -> V,
        file: &str,
        text: &str,
        what: &str,
    ) -> Result<Self, String> {
        for (i, t) in list.iter().enumerate() {
            let k = key_of(t);
            let at = line_of(text, k)
                .map(|l| format!("{file}:{l}"))
                .unwrap_or(file.to_string());
            if !K::ALL.iter().any(|x| x.key() == k) {
                return Err(format!("{at}: the {what} '{k}' is not one the rules read"));
            }
            if list[..i].iter().any(|o| key_of(o) == k) {
                return Err(format!("{at}: the {what} '{k}' is given twice"));
            }
        }
        let values = K::ALL
            .iter()
            .map(|k| {
                list.iter()
                    .find(|t| key_of(t) == k.key())
                    .map(&value)
                    .ok_or_else(|| format!("{file}: the {what} '{}' is missing", k.key()))
            })
            .collect::<Result<Vec<V>, String>>()?;
        Ok(Keyed {
            values,
            keys: std::marker::PhantomData,
        })
    }

    pub fn get(&self, k: K) -> &V {
        &self.values[k.index()]
    }
}

impl<K: RulesKey> Keyed<K, f32> {
    /// The rules numbers of a data file.
    pub fn numbers(list: &[Number], file: &str, text: &str) -> Result<Self, String> {
        Self::take(list, |n| &n.key, |n| n.value, file, text, "rules number")
    }
}

impl<K: RulesKey> Keyed<K, Factor> {
    /// A data file's list of factors.
    pub fn factors(list: &[FactorDef], file: &str, text: &str) -> Result<Self, String> {
        Self::take(
            list,
            |f| &f.key,
            |f| Factor {
                name: f.name.clone(),
                value: f.value,
                source: f.source.clone(),
            },
            file,
            text,
            "factor",
        )
    }
}

/// A rules number's value (0 when absent: loading refuses data lacking a required one).
pub fn number(list: &[Number], key: &str) -> f32 {
    list.iter()
        .find(|n| n.key == key)
        .map(|n| n.value)
        .unwrap_or(0.0)
}

/// Refuses ruleset data lacking any of the `required` numbers.
pub fn require_numbers(list: &[Number], required: &[&str]) -> Result<(), String> {
    match required.iter().find(|k| !list.iter().any(|n| n.key == **k)) {
        Some(k) => Err(format!("ruleset data lacks the number '{k}'")),
        None => Ok(()),
    }
}

/// A factor of a data list as a roll factor with its source.
pub fn factor_in(list: &[FactorDef], key: &str) -> Factor {
    match list.iter().find(|f| f.key == key) {
        Some(f) => Factor {
            name: f.name.clone(),
            value: f.value,
            source: f.source.clone(),
        },
        None => Factor {
            name: key.to_string(),
            value: 0,
            source: "missing from data".to_string(),
        },
    }
}

/// Refuses a unit removed from the table: it no longer acts.
pub fn on_table(u: &Unit) -> Result<(), RuleError> {
    if u.alive() {
        Ok(())
    } else {
        Err(RuleError::Illegal(format!(
            "{} is no longer on the table",
            u.name
        )))
    }
}

/// Refuses units of the wrong side or off the table.
pub fn own_active(b: &Battle, u: &Unit) -> Result<(), RuleError> {
    on_table(u)?;
    if u.side != b.active {
        return Err(RuleError::NotYourUnit(u.id.clone()));
    }
    Ok(())
}

/// The owner's standing pursuit order for a unit of the side at the seat (`no_choice` says why
/// the rules leave the unit none): free, in any phase, and it stands until changed.
pub fn order_pursuit(
    b: &mut Battle,
    out: &mut Vec<Event>,
    unit: &UnitId,
    pursue: bool,
    no_choice: Option<String>,
) -> Result<(), RuleError> {
    let u = b.unit(unit)?;
    own_active(b, u)?;
    if let Some(why) = no_choice {
        return Err(RuleError::Illegal(why));
    }
    if pursue != u.status.hold_ground {
        return Err(RuleError::Illegal(format!(
            "{} is already ordered to {} if victorious",
            u.name,
            if pursue { "pursue" } else { "hold its ground" }
        )));
    }
    b.emit(
        out,
        Event::PursuitOrdered {
            unit: unit.clone(),
            pursue,
        },
    );
    Ok(())
}

/// The card's line with a unit's standing pursuit order.
pub fn pursuit_order_line(u: &Unit) -> String {
    if u.status.hold_ground {
        "If victorious: holds its ground (standing order)".into()
    } else {
        "If victorious: pursues (standing order)".into()
    }
}

/// The button that changes a unit's standing pursuit order; its owner gives it in his bound,
/// and it holds in the enemy's bound too.
pub fn pursuit_order_action(u: &Unit) -> ActionGroup {
    let (label, pursue) = if u.status.hold_ground {
        ("Pursue if victorious", true)
    } else {
        ("Hold ground if victorious", false)
    };
    ActionGroup {
        title: "Standing order".into(),
        note: "What the unit does if it wins a close combat: the order holds in either side's \
               bound until changed, and costs nothing."
            .into(),
        actions: vec![Action {
            label: label.into(),
            command: Command::PursuitOrder {
                unit: u.id.clone(),
                pursue,
            },
        }],
    }
}

/// The optional rules asked for, checked against those the ruleset knows: each once, in the
/// order asked; an unknown one refused with the known ones named.
pub fn choose_options(known: &[&str], asked: &[String]) -> Result<Vec<String>, String> {
    let mut chosen: Vec<String> = Vec::new();
    for o in asked {
        if !known.contains(&o.as_str()) {
            return Err(format!(
                "unknown optional rule '{o}' (known: {})",
                known.join(", ")
            ));
        }
        if !chosen.contains(o) {
            chosen.push(o.clone());
        }
    }
    Ok(chosen)
}

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
        RuleError::Illegal(format!("a {what} must be a finite, non-negative distance"))
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
                return Err(RuleError::Illegal(
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
                return Err(RuleError::Illegal(
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
            return Err(RuleError::Illegal(
                "a move into contact must be the last step".into(),
            ));
        }
    })
}

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

/// The command a click on an enemy gives in the firing and close combat phases.
pub fn fire_or_fight(b: &Battle, own: &UnitId, enemy: &UnitId) -> Option<Command> {
    match b.phase {
        Phase::Firing => Some(Command::Fire {
            unit: own.clone(),
            target: enemy.clone(),
            support: vec![],
            defence: None,
        }),
        Phase::CloseCombat => Some(Command::Fight {
            unit: own.clone(),
            target: enemy.clone(),
            pursue: None,
            pursuits: Vec::new(),
        }),
        _ => None,
    }
}

/// What a click on `clicked` gives while `selected` is selected, as the window and the lesson
/// checks both read it: the ruleset's command on a target (fire, fight, a declared charge) when
/// the two are enemies, or None where the click selects `clicked` instead. A unit of a side that
/// acts now (both sides declare charges and fire in Hal's) is a target only for a command its
/// enemy may give: clicking it otherwise selects it.
pub fn click_command(b: &Battle, selected: &UnitId, clicked: &UnitId) -> Option<Command> {
    let (s, c) = (b.unit(selected).ok()?, b.unit(clicked).ok()?);
    if s.side == c.side {
        return None;
    }
    let cmd = b.rules.target_command(b, selected, clicked)?;
    let acting = b.rules.acting_sides(b).contains(&c.side);
    (!acting || b.rules.preview(b, &cmd).is_ok()).then_some(cmd)
}

/// The exact chance of each outcome as a line of the outlook.
pub fn chance(outcome: impl Into<String>, chance: f64, edge: f64) -> Chance {
    Chance {
        outcome: outcome.into(),
        chance,
        edge,
    }
}

/// Rows of a factor list for the rules reference.
pub fn factor_rows(list: &[FactorDef]) -> Vec<RefRow> {
    list.iter()
        .map(|f| RefRow {
            cells: vec![format!("{:+}  {}", f.value, f.name)],
            source: f.source.clone(),
        })
        .collect()
}

/// Rows of a numbers list for the rules reference.
pub fn number_rows(list: &[Number]) -> Vec<RefRow> {
    list.iter()
        .map(|n| RefRow {
            cells: vec![format!("{} = {}", n.key, n.value)],
            source: n.source.clone(),
        })
        .collect()
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

/// Compass facing of a direction.
pub fn heading_deg(v: Pt) -> f32 {
    norm_facing(v.x.atan2(v.y).to_degrees())
}

/// Refuses a command with the reason in words.
pub(crate) fn illegal<T>(s: String) -> Result<T, RuleError> {
    Err(RuleError::Illegal(s))
}

/// Refuses a command given outside its phase.
pub(crate) fn in_phase(b: &Battle, phase: Phase, what: &str) -> Result<(), RuleError> {
    if b.phase != phase {
        return Err(RuleError::WrongPhase {
            command: what.into(),
            phase: b.phase,
        });
    }
    Ok(())
}

/// The chance of each 2D6 total, 2 to 12.
pub fn two_d6() -> [(i32, f64); 11] {
    let mut out = [(0, 0.0); 11];
    for (i, slot) in out.iter_mut().enumerate() {
        let s = i as i32 + 2;
        let ways = 6 - (s - 7).abs();
        *slot = (s, f64::from(ways) / 36.0);
    }
    out
}

/// The chance that 2D6 is at least `n`.
pub fn two_d6_at_least(n: i32) -> f64 {
    two_d6()
        .iter()
        .filter(|(t, _)| *t >= n)
        .map(|(_, p)| p)
        .sum()
}

/// The range band of a distance in inches (index into `bands`), or None beyond the last.
pub fn band(bands: &[f32], distance: f32) -> Option<usize> {
    bands.iter().position(|b| distance <= *b + 1e-3)
}

/// Probability of at least `k` successes in `n` dice needing `need`.
pub fn at_least(n: u32, need: u8, k: u32) -> f64 {
    (k..=n).map(|i| exactly(n, need, i)).sum()
}

/// Probability of exactly `k` successes.
pub fn exactly(n: u32, need: u8, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    // The chance of one die scoring `need` or more (7: never).
    let p = ((7 - need.clamp(1, 7) as i32).max(0) as f64) / 6.0;
    binom(n, k) * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

fn binom(n: u32, k: u32) -> f64 {
    let mut r = 1.0;
    for i in 0..k {
        r = r * (n - i) as f64 / (i + 1) as f64;
    }
    r
}

#[cfg(test)]
mod keyed_tests {
    use super::*;

    crate::rules_keys! {
        enum K { Move = "move", Range = "range" }
    }

    fn n(key: &str, value: f32) -> Number {
        Number {
            key: key.into(),
            value,
            source: "s".into(),
        }
    }

    #[test]
    fn every_key_is_read_and_none_is_unknown_or_missing() {
        let text = "numbers: [\n  (key: \"move\", value: 4.0),\n  (key: \"range\", value: 9.0),\n  (key: \"rnage\", value: 1.0),\n]";
        let t = Keyed::<K, f32>::numbers(&[n("move", 4.0), n("range", 9.0)], "f.ron", text);
        let t = t.expect("both keys given");
        assert_eq!((*t.get(K::Move), *t.get(K::Range)), (4.0, 9.0));
        let missing = Keyed::<K, f32>::numbers(&[n("move", 4.0)], "f.ron", text);
        assert_eq!(
            missing,
            Err("f.ron: the rules number 'range' is missing".into())
        );
        let typo = Keyed::<K, f32>::numbers(
            &[n("move", 4.0), n("range", 9.0), n("rnage", 1.0)],
            "f.ron",
            text,
        );
        assert_eq!(
            typo,
            Err("f.ron:4: the rules number 'rnage' is not one the rules read".into())
        );
        let twice = Keyed::<K, f32>::numbers(
            &[n("move", 4.0), n("range", 9.0), n("move", 3.0)],
            "f.ron",
            text,
        );
        assert_eq!(
            twice,
            Err("f.ron:2: the rules number 'move' is given twice".into())
        );
    }
}
