//! Old Dessauer's own events: stands moved one by one, single-die tests, rounds of combat,
//! generals attached, charges that count as frontal, stands placed in an L, units passed
//! through, guns unlimbered into a formation. The shared events are `rules::command::Event`;
//! these join the log through `Event::Own` (see `ruleset::common::RulesetEvent`).

use super::status::own_mut;
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, factor_sum};
use crate::rules::geometry::Base;
use crate::rules::model::{Formation, UnitId};
use crate::rules::own_event::OwnEventType;
use crate::rules::roll::{Roll, factor_list, hits_text, need_text};
use crate::rules::ruleset::common::RulesetEvent;
use serde::{Deserialize, Serialize};

/// Something that happened that only Old Dessauer's rules make happen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum DessauerEvent {
    /// One loose stand moved on its own.
    StandMoved {
        unit: UnitId,
        stand: usize,
        from: Base,
        to: Base,
        distance: f32,
        allowance: f32,
    },
    /// Figure rulesets: a single-die test (morale, rally, command, evading, a general's danger).
    Test {
        unit: UnitId,
        test: TestKind,
        die: u8,
        factors: Vec<Factor>,
        /// Score needed to pass.
        need: i32,
        passed: bool,
    },
    /// Figure rulesets: one round of combat, every unit striking.
    Melee { strikes: Vec<Strike> },
    Attached {
        general: UnitId,
        unit: Option<UnitId>,
    },
    /// A unit's charge into an enemy's flank or rear counts as frontal (`on`), or no longer
    /// does (Old Dessauer: it did not begin the turn behind that flank).
    FrontalCharge { unit: UnitId, on: bool },
    /// The unit's stands take these places, one base per stand, on the table (Old Dessauer:
    /// an L's refused arm); `why` says what they form.
    StandsPlaced {
        unit: UnitId,
        bases: Vec<Base>,
        why: String,
        /// The formation the unit takes with these places, and the movement allowance it uses
        /// (Old Dessauer: forming an L); None where it keeps its formation.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        formed: Option<(Formation, f32)>,
    },
    /// A unit moved through a friend, which stands still for the rest of the bound (Old
    /// Dessauer: 'The other unit must stand still while you move through it').
    PassedThrough { unit: UnitId, friend: UnitId },
    /// Guns unlimber and take this formation and footprint in one step (Old Dessauer): what
    /// `Unlimbered` and `Reformed` do together.
    UnlimberedTo {
        unit: UnitId,
        formation: Formation,
        from: Base,
        to: Base,
        cost: f32,
    },
}

/// What a single-die test was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TestKind {
    /// Morale against shooting hits.
    Morale,
    Rally,
    /// An out-of-command unit trying to charge or change formation.
    Command,
    /// Skirmishers evading cavalry.
    Evade,
    /// A general in danger.
    GeneralDanger,
}

impl TestKind {
    pub fn name(self) -> &'static str {
        match self {
            TestKind::Morale => "morale test against shooting",
            TestKind::Rally => "rally test",
            TestKind::Command => "command test",
            TestKind::Evade => "evade test",
            TestKind::GeneralDanger => "danger to the general",
        }
    }
}

/// One unit's strike in a round of combat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Strike {
    pub unit: UnitId,
    pub target: UnitId,
    /// Its combat points against this target, factor by factor.
    pub factors: Vec<Factor>,
    pub points: i32,
    /// The target's points against it.
    pub enemy_points: i32,
    pub dice: Vec<u8>,
    pub need: u8,
    /// Hits scored, after the multiplier.
    pub hits: u32,
    /// 2 against a unit being pursued, 3 against gun crews.
    pub multiplier: u32,
}

inventory::submit!(OwnEventType::of::<DessauerEvent>());

impl RulesetEvent for DessauerEvent {
    fn apply(&self, b: &mut Battle) {
        match self {
            DessauerEvent::UnlimberedTo {
                unit,
                formation,
                from,
                to,
                cost,
            } => {
                b.apply(&Event::Unlimbered { unit: unit.clone() });
                b.apply(&Event::Reformed {
                    unit: unit.clone(),
                    formation: *formation,
                    from: *from,
                    to: *to,
                    cost: *cost,
                });
            }
            DessauerEvent::FrontalCharge { unit, on } => {
                b.with_unit(unit, |u| own_mut(u).frontal_charge = *on)
            }
            DessauerEvent::StandMoved {
                unit,
                stand,
                to,
                distance,
                ..
            } => b.with_unit(unit, |u| {
                let mut bases = u.loose_bases();
                if let Some(at) = bases.get_mut(*stand) {
                    *at = *to;
                    u.settle(&bases);
                    let n = u.stands.len();
                    u.bound.stand_spent.resize(n, 0.0);
                    u.bound.stand_spent[*stand] += *distance;
                    u.bound.moved = true;
                }
            }),
            DessauerEvent::StandsPlaced {
                unit,
                bases,
                formed,
                ..
            } => b.with_unit(unit, |u| {
                if let Some((formation, cost)) = formed {
                    u.formation = *formation;
                    if *cost > 0.0 {
                        u.bound.formed = true;
                        u.bound.spent += *cost;
                    }
                }
                u.settle(bases)
            }),
            DessauerEvent::Test {
                unit, test, passed, ..
            } => {
                if *test == TestKind::Command && !passed {
                    b.with_unit(unit, |u| u.bound.halted = true);
                }
            }
            DessauerEvent::Melee { strikes } => {
                for s in strikes {
                    for id in [&s.unit, &s.target] {
                        b.with_unit(id, |u| u.bound.fought = true);
                    }
                }
                for s in strikes {
                    b.with_unit(&s.target, |u| {
                        u.status.continuing = false;
                        u.status.pursued_by = None;
                    });
                }
            }
            DessauerEvent::Attached { general, unit } => {
                let unit = unit.clone();
                b.with_unit(general, |g| g.extra.attached = unit);
            }
            // Read back from the log: the friend stands still for the rest of the turn.
            DessauerEvent::PassedThrough { .. } => {}
        }
    }

    fn rolls(&self) -> Vec<Roll> {
        match self {
            DessauerEvent::Test {
                unit,
                die,
                factors,
                need,
                passed,
                ..
            } => vec![Roll {
                need: Some(*need),
                outcome: if *passed { "passes" } else { "fails" }.into(),
                ..Roll::of_unit(unit, vec![*die], factors, *die as i32 + factor_sum(factors))
            }],
            DessauerEvent::Melee { strikes } => strikes
                .iter()
                .map(|s| Roll {
                    against: Some(s.enemy_points),
                    need: Some(s.need as i32),
                    outcome: hits_text(s.hits),
                    ..Roll::of_unit(&s.unit, s.dice.clone(), &s.factors, s.points)
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The event in the log's words.
pub(super) fn words(b: &Battle, e: &DessauerEvent) -> String {
    let u = |id: &UnitId| b.name_of(id);
    match e {
        DessauerEvent::Test {
            unit,
            test,
            die,
            factors,
            need,
            passed,
        } => format!(
            "{} {}: needs {}{}, rolls {die}: {}",
            u(unit),
            test.name(),
            need_text(*need, 6),
            factor_list(factors),
            if *passed { "passes" } else { "fails" }
        ),
        DessauerEvent::Melee { strikes } => melee_words(b, strikes),
        DessauerEvent::StandMoved {
            unit,
            stand,
            distance,
            allowance,
            ..
        } => {
            if *allowance <= 0.0 {
                format!("{}: stand {} falls back out of reach", u(unit), stand + 1)
            } else {
                format!(
                    "{} moves stand {} on its own, {distance:.1} of {allowance:.1} {}",
                    u(unit),
                    stand + 1,
                    b.scale.unit
                )
            }
        }
        DessauerEvent::UnlimberedTo {
            unit, formation, ..
        } => format!("{} unlimbers in {}", u(unit), formation.name()),
        DessauerEvent::Attached { general, unit } => match unit {
            Some(x) => format!("{} attaches to {}", u(general), u(x)),
            None => format!("{} detaches", u(general)),
        },
        DessauerEvent::StandsPlaced { unit, why, .. } => format!("{} {why}", u(unit)),
        DessauerEvent::PassedThrough { unit, friend } => format!(
            "{} passes through {}, which stands still for the rest of the turn",
            u(unit),
            u(friend)
        ),
        DessauerEvent::FrontalCharge { unit, on } => {
            if *on {
                format!(
                    "{} did not begin the turn behind its enemy's flank: its attack counts as frontal",
                    u(unit)
                )
            } else {
                format!("{} no longer holds a frontal attack on a flank", u(unit))
            }
        }
    }
}

/// A round of combat in words: every strike, its points and dice.
fn melee_words(b: &Battle, strikes: &[Strike]) -> String {
    let u = |id: &UnitId| b.name_of(id);
    let parts: Vec<String> = strikes
        .iter()
        .map(|s| {
            let fs: Vec<String> = s
                .factors
                .iter()
                .map(|f| format!("{:+} {}", f.value, f.name))
                .collect();
            format!(
                "{} strikes {}: {} = {} points against {}, needs {}, {} {}: {:?}, {}{}",
                u(&s.unit),
                u(&s.target),
                fs.join(", "),
                s.points,
                s.enemy_points,
                need_text(s.need as i32, 6),
                s.dice.len(),
                if s.dice.len() == 1 { "die" } else { "dice" },
                s.dice,
                hits_text(s.hits),
                match s.multiplier {
                    1 => String::new(),
                    m => format!(" (x{m})"),
                }
            )
        })
        .collect();
    format!("Combat. {}", parts.join(". "))
}
