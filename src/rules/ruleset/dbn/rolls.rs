//! Opposed rolls: a checked firing or close combat before the dice, its exact odds, and the
//! first die some troop types throw before it (the mitrailleuse's).

use super::{DbnGame, FirstDie, Supplement};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event, Factor, RuleError, Verdict, factor_sum};
use crate::rules::model::{Unit, UnitId};
use crate::rules::odds::{Odds, Quirks};
use crate::rules::ruleset::dbn::{CLOSE_COMBAT, Refusal};
use crate::rules::ruleset::view::Roll;
use crate::rules::tagged::Tagged;

/// A checked firing or close combat before the dice: both units and their factors.
#[derive(Clone, Debug)]
pub struct Setup {
    pub a: Unit,
    pub b: Unit,
    pub a_factors: Vec<Factor>,
    pub b_factors: Vec<Factor>,
    /// Counter-battery fire: either side may suffer the result.
    pub mutual: bool,
    /// First dice to throw before the opposed dice (the mitrailleuse's).
    pub first: Vec<FirstThrow>,
    /// Firing: the target fires back (it could fire at the firer).
    pub responding: bool,
    /// Firing: the target's friends supporting its defence.
    pub defence: Vec<UnitId>,
}

/// One first die to throw before the opposed dice: whose, which side of the setup it is on
/// (a: true), at long range or not, and whether the unit throws it as a supporter.
#[derive(Clone, Debug)]
pub struct FirstThrow {
    pub unit: UnitId,
    pub side_a: bool,
    pub die: FirstDie,
    pub long: bool,
    /// A supporter's die: failing, it gives no fire support (the other side loses that
    /// unit's -1) instead of scoring the failure's factor itself.
    pub supports: bool,
}

impl FirstThrow {
    /// The faces on which it fails: stoppages, and unplotted shots at long range.
    pub fn fails(&self) -> u8 {
        if self.long {
            self.die.long_fail_max
        } else {
            self.die.fail_max
        }
    }
}

/// A roll about to be made: the setup and the exact odds of each outcome. In firing that is
/// not counter-battery, "b wins" means the fire has no effect.
#[derive(Clone, Debug)]
pub struct Preview {
    pub setup: Setup,
    pub odds: Odds,
    pub firing: bool,
}

/// A DBN roll that the rules read back from the log: the kind of its `what`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DbnRoll {
    /// A first die (the mitrailleuse's), thrown before the opposed dice, and how it fell.
    FirstDie(FirstDieOutcome),
}

/// How a first die fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstDieOutcome {
    /// A stoppage: the failure's factor, or no fire support.
    Stoppage,
    /// No stoppage, but the shot at long range could not be plotted: as a stoppage.
    Unplotted,
    /// No stoppage: it fires (or fights) normally.
    Clear,
}

/// The unit threw a first die this phase and it failed (a stoppage, or a shot it could not
/// plot): it cannot support fire this phase.
pub(super) fn first_die_failed_this_phase(b: &Battle, id: &UnitId) -> bool {
    b.log
        .iter()
        .rev()
        .take_while(|e| !matches!(e, Event::PhaseBegan { .. }))
        .any(|e| {
            matches!(e, Event::Rolled { what, roll }
                if matches!(what.kind::<DbnRoll>(), Some(DbnRoll::FirstDie(_)))
                    && roll.unit.as_ref() == Some(id)
                    && roll.need.zip(roll.dice.first()).is_some_and(|(n, d)| i32::from(*d) < n))
        })
}

/// A unit's part in a firing: the firer (both guns in counter-battery fire, `mutual`), or the
/// target, which may or may not be able to fire back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireRole {
    Firer { mutual: bool },
    Target { responding: bool },
}

/// Firing or close combat: which table and factors apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combat {
    Firing,
    Close,
}

impl<S: Supplement> DbnGame<S> {
    /// Decides an opposed roll for `a` against `b`: who lost, and how.
    pub fn verdict(a: i32, b: i32) -> (Option<bool>, Verdict) {
        crate::rules::odds::verdict(a, b)
    }

    /// The factors and exact odds of a Fire or Fight command, before any die is thrown; a first
    /// die (the mitrailleuse's) is folded into the odds.
    pub fn forecast(&self, b: &Battle, cmd: &Command) -> Result<Preview, RuleError> {
        let (setup, kind) = match cmd {
            Command::Fire {
                unit,
                target,
                support,
                defence,
            } => (
                self.fire_setup(b, unit, target, support, defence.as_deref())?,
                Combat::Firing,
            ),
            Command::Fight { unit, target, .. } => {
                (self.fight_setup(b, unit, target, false)?, Combat::Close)
            }
            _ => {
                return Err(RuleError::refused(
                    Refusal::NoOddsForThisCommand,
                    "only firing and close combat have odds".into(),
                ));
            }
        };
        let qa = self.quirks_of(b, &setup, true, kind);
        let qb = self.quirks_of(b, &setup, false, kind);
        let (sa, sb) = (factor_sum(&setup.a_factors), factor_sum(&setup.b_factors));
        // Each first die fails with its own chance; enumerate the failures.
        let mut cases: Vec<(f64, i32, i32)> = vec![(1.0, sa, sb)];
        for t in &setup.first {
            let fail = f64::from(t.fails()) / 6.0;
            let (own, other) = self.first_die_change(t);
            cases = cases
                .into_iter()
                .flat_map(|(w, x, y)| {
                    let (fx, fy) = if t.side_a {
                        (x + own, y + other)
                    } else {
                        (x + other, y + own)
                    };
                    [(w * fail, fx, fy), (w * (1.0 - fail), x, y)]
                })
                .filter(|c| c.0 > 0.0)
                .collect();
        }
        let mixed: Vec<(f64, Odds)> = cases
            .into_iter()
            .map(|(w, x, y)| (w, crate::rules::odds::opposed_with(x, y, qa, qb)))
            .collect();
        Ok(Preview {
            setup,
            odds: Odds::mix(&mixed),
            firing: kind == Combat::Firing,
        })
    }

    /// The quirks of side a (`first`) or b of a setup. In firing other than counter-battery
    /// only the target can be beaten, so only it can be stoic.
    pub(super) fn quirks_of(&self, b: &Battle, s: &Setup, first: bool, kind: Combat) -> Quirks {
        let (u, o) = if first { (&s.a, &s.b) } else { (&s.b, &s.a) };
        let mut q = self.sup.quirks(self, b, u, o, kind);
        if first && kind == Combat::Firing && !s.mutual {
            q.stoic = false;
        }
        q
    }

    /// What a failed first die changes: (its own side's score, the other side's score). Its
    /// own failure costs the data's factor; a supporter's failure takes its -1 from the other
    /// side.
    fn first_die_change(&self, t: &FirstThrow) -> (i32, i32) {
        if t.supports {
            (0, -self.dbn.fire_support().value)
        } else {
            (t.die.failed.value, 0)
        }
    }

    /// Throws the first dice of a setup: a failed die adds its factor to its side, or for a
    /// supporter takes its fire support away.
    pub(super) fn throw_first_dice(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        setup: &mut Setup,
    ) -> Result<(), RuleError> {
        let close = b.phase == CLOSE_COMBAT;
        for t in setup.first.clone() {
            let die = b.d6()?;
            let fd = &t.die;
            let pen = fd.failed.value;
            let stoppage = die <= fd.fail_max;
            let unplotted = !stoppage && t.long && die <= fd.long_fail_max;
            let (side, name) = b
                .unit(&t.unit)
                .map(|u| (u.side, u.name.clone()))
                .unwrap_or_default();
            let fell = if stoppage {
                FirstDieOutcome::Stoppage
            } else if unplotted {
                FirstDieOutcome::Unplotted
            } else {
                FirstDieOutcome::Clear
            };
            let outcome = match (close, t.supports, stoppage, unplotted) {
                (true, _, true, _) => format!("stoppage: {pen:+}"),
                (true, _, false, _) => "no stoppage".to_string(),
                (false, true, true, _) => "stoppage: gives no fire support this phase".to_string(),
                (false, true, _, true) => {
                    "cannot plot the shot at long range: gives no fire support this phase".into()
                }
                (false, false, true, _) => {
                    format!("stoppage: {pen:+} and no fire support this phase")
                }
                (false, false, _, true) => format!(
                    "cannot plot the shot at long range: {pen:+} and no fire support this phase"
                ),
                (false, _, false, false) => "fires normally".to_string(),
            };
            b.emit(
                out,
                Event::Rolled {
                    what: Tagged::new(DbnRoll::FirstDie(fell), "its first die"),
                    roll: Roll {
                        unit: Some(t.unit.clone()),
                        side: Some(side),
                        dice: vec![die],
                        factors: Vec::new(),
                        total: die as i32,
                        against: None,
                        need: Some(i32::from(t.fails()) + 1),
                        outcome,
                        first_die: None,
                        dice_at: Vec::new(),
                    },
                },
            );
            if !(stoppage || unplotted) {
                continue;
            }
            let (own, other) = if t.side_a {
                (&mut setup.a_factors, &mut setup.b_factors)
            } else {
                (&mut setup.b_factors, &mut setup.a_factors)
            };
            if t.supports {
                // The supporter's -1 on the other side, named for it, is withdrawn.
                let generic = self.dbn.fire_support().name;
                let named = format!("{generic} ({name})");
                if let Some(i) = other.iter().position(|f| f.name == named) {
                    other.remove(i);
                }
            } else {
                own.push(t.die.failed.clone());
            }
        }
        Ok(())
    }

    /// The first dice a firing or close combat throws: each unit of a type that throws one,
    /// when it fires (the target too when it fires back, `responding`) or fights.
    pub(super) fn first_dice(
        &self,
        b: &Battle,
        a: &Unit,
        t: &Unit,
        responding: Option<bool>,
    ) -> Vec<FirstThrow> {
        let d = &self.dbn;
        let long = |u: &Unit, o: &Unit| {
            let dist = b.scale.from_mm(u.base.front_edge_distance(&o.base));
            d.range(u).is_some_and(|r| dist > r + 0.5)
        };
        let throw = |u: &Unit, side_a: bool, long: bool| {
            d.first_die(u).map(|die| FirstThrow {
                unit: u.id.clone(),
                side_a,
                die,
                long,
                supports: false,
            })
        };
        let mut v = Vec::new();
        match responding {
            // Firing: the firer, and the target when it fires back.
            Some(r) => {
                v.extend(throw(a, true, long(a, t)));
                if r {
                    v.extend(throw(t, false, long(t, a)));
                }
            }
            // Close combat: a stoppage only, never "cannot plot".
            None => {
                v.extend(throw(a, true, false));
                v.extend(throw(t, false, false));
            }
        }
        v
    }

    /// The first dice of supporters in a firing: each friend of a type that throws one,
    /// supporting side a (the firer, `side_a`) or side b against `enemy`.
    pub(super) fn support_first_dice(
        &self,
        b: &Battle,
        supporters: &[UnitId],
        side_a: bool,
        enemy: &Unit,
    ) -> Vec<FirstThrow> {
        let d = &self.dbn;
        supporters
            .iter()
            .filter_map(|id| b.unit(id).ok())
            .filter_map(|u| {
                let dist = b.scale.from_mm(u.base.front_edge_distance(&enemy.base));
                d.first_die(u).map(|die| FirstThrow {
                    unit: u.id.clone(),
                    side_a,
                    die,
                    long: d.range(u).is_some_and(|r| dist > r + 0.5),
                    supports: true,
                })
            })
            .collect()
    }
}
