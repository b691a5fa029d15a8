//! The bound and command: the order of a bound's phases, the command roll and its points, what
//! a move costs, the end of a bound, the turn limit, losses and the army's break, objectives.

use super::results::PursuitOrders;
use super::{Dbn, DbnEvent, DbnGame, N, Supplement, TroopKind, TroopTrait};
use crate::rules::battle::Battle;
use crate::rules::command::{Ending, Event, Factor, RuleError, factor_sum};
use crate::rules::model::{Division, Phase, PhaseInfo, Side, Unit, UnitId};
use crate::rules::phase::Phases;
use crate::rules::ruleset::dbn::Refusal;

// ----- the phases of a bound -----------------------------------------------------------------

/// The side throws its command dice for points.
pub const COMMAND: Phase = Phase::new(&PhaseInfo {
    id: "Command",
    name: "command",
});
/// The side moves, paying points.
pub const MOVEMENT: Phase = Phase::new(&PhaseInfo {
    id: "Movement",
    name: "movement",
});
/// Distant shooting.
pub const FIRING: Phase = Phase::new(&PhaseInfo {
    id: "Firing",
    name: "firing",
});
/// Close combat, then the bound ends.
pub const CLOSE_COMBAT: Phase = Phase::new(&PhaseInfo {
    id: "CloseCombat",
    name: "close combat",
});

inventory::submit!(Phases(&Dbn::BOUND));

impl Dbn {
    /// Phases of a bound in order.
    pub const BOUND: [Phase; 4] = [COMMAND, MOVEMENT, FIRING, CLOSE_COMBAT];

    pub fn first_phase(units: &[Unit]) -> Phase {
        if units.iter().any(|u| u.status.undeployed) {
            Phase::DEPLOYMENT
        } else {
            COMMAND
        }
    }

    /// Dice for the command roll: one per commander on the table, at least one.
    /// `extra` are the factors of optional rules in use (a supplement's free ADC).
    pub fn command_roll(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        extra: Vec<Factor>,
    ) -> Result<(), RuleError> {
        let side = b.active;
        let generals = b
            .alive()
            .filter(|u| {
                u.side == side && self.is_commander(u) && !self.has_trait(u, TroopTrait::Divisional)
            })
            .count()
            .max(1);
        let mut dice = Vec::new();
        for _ in 0..generals {
            dice.push(b.d6()?);
        }
        let mut factors = extra;
        // A DSC's intrinsic CAPs are its division's own; one without a division adds them to
        // the side's.
        let mut divisions: Vec<(Division, i32)> = Vec::new();
        for (g, dsc) in b
            .alive()
            .filter(|u| u.side == side)
            .filter_map(|u| self.divisional(u).map(|dsc| (u, dsc)))
        {
            let caps = dsc.caps;
            match g.division {
                Some(d) => match divisions.iter_mut().find(|p| p.0 == d) {
                    Some(p) => p.1 += caps,
                    None => divisions.push((d, caps)),
                },
                None => factors.push(Factor {
                    name: format!("{}: intrinsic command points", g.name),
                    value: caps,
                    source: "002 Larger Battles: the DSC has an intrinsic 2 CAPs".into(),
                }),
            }
        }
        if b.alive()
            .any(|u| u.side == side && self.has_trait(u, TroopTrait::CommandBonus))
        {
            factors.push(Factor {
                name: "Irregular Cavalry CAP bonus".into(),
                value: self.n(N::IcCapBonus) as i32,
                source: "ruling ic_cap_bonus".into(),
            });
        }
        let total = dice.iter().map(|d| *d as i32).sum::<i32>() + factor_sum(&factors);
        b.emit(
            out,
            DbnEvent::CommandRoll {
                side,
                dice,
                factors,
                total,
                divisions,
            },
        );
        Ok(())
    }

    /// Pays command points, or refuses: a division's own points first (a DSC's), then the
    /// side's.
    pub fn spend(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        amount: i32,
        reason: String,
        division: Option<Division>,
    ) -> Result<(), RuleError> {
        let side = b.active;
        let own = Self::own_points(b, division);
        let have = b.command_points[side];
        let from_own = own.map_or(0, |p| p.1.min(amount));
        self.can_pay(b, amount, || reason.clone(), division)?;
        if let Some((d, pool)) = own {
            b.emit(
                out,
                DbnEvent::CommandPointsSpent {
                    side,
                    amount: from_own,
                    left: pool - from_own,
                    reason: reason.clone(),
                    division: Some(d),
                },
            );
        }
        if amount - from_own > 0 || own.is_none() {
            b.emit(
                out,
                DbnEvent::CommandPointsSpent {
                    side,
                    amount: amount - from_own,
                    left: have - (amount - from_own),
                    reason,
                    division: None,
                },
            );
        }
        Ok(())
    }

    /// Refuses, saying what for (`what`, asked only then), a price in command points that the
    /// division's own points and the side's cannot meet together.
    pub fn can_pay(
        &self,
        b: &Battle,
        amount: i32,
        what: impl FnOnce() -> String,
        division: Option<Division>,
    ) -> Result<(), RuleError> {
        if !self.affords(b, amount, division) {
            let own = Self::own_points(b, division).map_or(0, |p| p.1.min(amount));
            return Err(RuleError::NotEnoughCommandPoints {
                need: amount,
                have: b.command_points[b.active] + own,
                what: what(),
            });
        }
        Ok(())
    }

    /// Whether the division's own command points and the side's together meet a price.
    pub fn affords(&self, b: &Battle, amount: i32, division: Option<Division>) -> bool {
        let from_own = Self::own_points(b, division).map_or(0, |p| p.1.min(amount));
        amount - from_own <= b.command_points[b.active]
    }

    /// A division's own command points, where it has some left.
    fn own_points(b: &Battle, division: Option<Division>) -> Option<(Division, i32)> {
        division
            .and_then(|d| b.division_points.iter().find(|p| p.0 == d).copied())
            .filter(|p| p.1 > 0)
    }

    /// The division whose own command points pay for moving these units: theirs, when they
    /// all share one.
    pub fn paying_division(b: &Battle, ids: &[UnitId]) -> Option<Division> {
        let mut divs = ids.iter().map(|i| b.unit(i).ok().and_then(|u| u.division));
        let first = divs.next()??;
        divs.all(|d| d == Some(first)).then_some(first)
    }

    /// Cost of moving a unit: the move, plus the out-of-command-range charge.
    pub fn move_cost(&self, b: &Battle, u: &Unit) -> i32 {
        let base = self.n(N::MoveCost) as i32;
        if self.in_command_range(b, u) {
            base
        } else {
            base + self.n(N::OutOfRangeCost) as i32
        }
    }

    /// Cost of moving a group (or a unit) in one move: its dearest unit's.
    pub fn group_move_cost<U: std::borrow::Borrow<Unit>>(&self, b: &Battle, units: &[U]) -> i32 {
        units
            .iter()
            .map(|u| self.move_cost(b, u.borrow()))
            .max()
            .unwrap_or(1)
    }

    /// Whether a unit is within command range of a general of its side (its own division's
    /// sub-commander's range, where he has one); a general always is.
    fn in_command_range(&self, b: &Battle, u: &Unit) -> bool {
        if self.is_commander(u) {
            return true;
        }
        let range = b.scale.to_mm(self.n(N::CommandRange));
        b.alive().any(|g| {
            g.side == u.side
                && self.is_commander(g)
                && if let Some(dsc) = self.divisional(g) {
                    g.division.is_some()
                        && g.division == u.division
                        && g.base.within(&u.base, b.scale.to_mm(dsc.command_range))
                } else {
                    g.base.within(&u.base, range)
                }
        })
    }

    /// Why a move of `units` costs more than a move, in words to follow what it pays for:
    /// " (1 + 1 out of command range: no general within 1200 paces)", naming the units out of
    /// range where several move; empty where it costs the move alone. A unit with a
    /// divisional commander is out of his range, which is his own.
    pub fn move_cost_words(&self, b: &Battle, units: &[&Unit]) -> String {
        let out: Vec<&Unit> = units
            .iter()
            .copied()
            .filter(|u| !self.in_command_range(b, u))
            .collect();
        if out.is_empty() {
            return String::new();
        }
        let divisional = out.iter().any(|u| {
            b.alive().any(|g| {
                g.side == u.side
                    && g.division.is_some()
                    && g.division == u.division
                    && self.divisional(g).is_some()
            })
        });
        // A unit moving alone is named already; of a group, those out of range are named.
        let of = if units.len() > 1 {
            let names: Vec<&str> = out.iter().map(|u| u.name.as_str()).collect();
            format!(" ({})", names.join(", "))
        } else {
            String::new()
        };
        let (cost, extra) = (self.n(N::MoveCost), self.n(N::OutOfRangeCost));
        if divisional {
            format!(" ({cost} + {extra} out of its divisional commander's range{of})")
        } else {
            format!(
                " ({cost} + {extra} out of command range{of}: no general within {:.0} {})",
                self.n(N::CommandRange),
                b.scale.unit.name()
            )
        }
    }

    /// Starts the next bound (or ends the game at the turn limit).
    pub fn next_bound(
        &self,
        rules: &dyn crate::rules::ruleset::Ruleset,
        b: &mut Battle,
        out: &mut Vec<Event>,
    ) {
        let next_side = Battle::enemy(b.active);
        let turn = if next_side == 0 { b.turn + 1 } else { b.turn };
        if turn > b.turn_limit {
            crate::rules::victory::end_at_limit(rules, b, out);
            return;
        }
        b.emit(
            out,
            Event::PhaseBegan {
                turn,
                phase: COMMAND,
                side: next_side,
            },
        );
    }

    pub(crate) fn turn_limit_result(&self, b: &Battle) -> (Option<Side>, String) {
        let share = |s: Side| self.losses(b, s) / (b.starting_units[s].max(1) as f32);
        let (a, c) = (share(0), share(1));
        if (a - c).abs() < 1e-6 {
            (
                None,
                format!(
                    "turn limit reached with equal losses: {:.0}% each",
                    a * 100.0
                ),
            )
        } else {
            let w = if a < c { 0 } else { 1 };
            (
                Some(w),
                format!(
                    "turn limit reached: {} lost {:.0}% of its army, {} lost {:.0}%",
                    b.sides[0].name,
                    a * 100.0,
                    b.sides[1].name,
                    c * 100.0
                ),
            )
        }
    }

    /// What a destroyed unit weighs in the army break count: a commander-in-chief and baggage
    /// their own weights, a type with the irregular loss its own, any other unit 1.
    fn loss_weight(&self, u: &Unit) -> f32 {
        if self.has_trait(u, TroopTrait::CommanderInChief) {
            self.n(N::CincWeight)
        } else if self.kind(u) == TroopKind::Baggage {
            self.n(N::BaggageWeight)
        } else {
            self.irregular_loss(u).unwrap_or(1.0)
        }
    }

    /// Losses by the army break count: destroyed units weighted, and the objective.
    pub fn losses(&self, b: &Battle, side: Side) -> f32 {
        let mut l = 0.0;
        for u in b
            .units
            .iter()
            .filter(|u| u.side == side && u.status.removed && !u.status.exited)
        {
            l += self.loss_weight(u);
        }
        if let Some(o) = &b.objective
            && o.taken
            && o.owner == side
        {
            l += self.n(N::ObjectiveWeight);
        }
        l
    }

    /// The losses by the army break count in words, each loss that weighs more or less than a
    /// unit named with its weight: "5 (3 units, the Commander-in-Chief counting 2)".
    pub fn loss_words(&self, b: &Battle, side: Side) -> String {
        let total = self.losses(b, side);
        let mut plain = 0;
        let mut weighted = Vec::new();
        for u in b
            .units
            .iter()
            .filter(|u| u.side == side && u.status.removed && !u.status.exited)
        {
            let weight = self.loss_weight(u);
            if weight == 1.0 {
                plain += 1;
            } else {
                weighted.push(format!("the {} counting {weight}", self.troop_of(u).name));
            }
        }
        if let Some(o) = &b.objective
            && o.taken
            && o.owner == side
        {
            weighted.push(format!(
                "the objective counting {}",
                self.n(N::ObjectiveWeight)
            ));
        }
        if weighted.is_empty() {
            return total.to_string();
        }
        let mut parts = Vec::new();
        if plain > 0 {
            parts.push(format!("{plain} unit{}", if plain == 1 { "" } else { "s" }));
        }
        parts.extend(weighted);
        format!("{total} ({})", parts.join(", "))
    }

    /// The losses at which a side's army breaks: its units at the start times the break
    /// fraction.
    pub fn break_point(&self, b: &Battle, side: Side) -> f32 {
        b.starting_units.get(side).copied().unwrap_or(0) as f32 * self.n(N::BreakFraction)
    }

    /// Army break, checked after every command.
    pub fn check_break(&self, b: &mut Battle, out: &mut Vec<Event>) {
        if b.is_over() {
            return;
        }
        for side in 0..b.sides.len().min(2) {
            let of = self.break_point(b, side);
            let losses = self.losses(b, side);
            if of > 0.0 && losses >= of {
                b.emit(out, Event::ArmyBroken { side, losses, of });
                let winner = Battle::enemy(side);
                let reason = format!(
                    "{} broke: lost {} against a break point of {}",
                    b.sides[side].name,
                    self.loss_words(b, side),
                    of
                );
                b.emit(
                    out,
                    Event::GameOver {
                        winner: Some(winner),
                        reason,
                        by: Ending::Broken,
                    },
                );
                return;
            }
        }
    }

    /// The attacker takes the objective by standing on it with no defender near.
    pub fn check_objective(&self, b: &mut Battle, out: &mut Vec<Event>, mover: &UnitId) {
        let Some(o) = b.objective.clone() else { return };
        if o.taken {
            return;
        }
        let Ok(u) = b.unit(mover) else { return };
        if u.side == o.owner || !u.base.contains(o.at) || self.is_commander(u) {
            return;
        }
        let r = b.scale.to_mm(self.n(N::ObjectiveRadius));
        if b.alive()
            .any(|d| d.side == o.owner && d.base.distance_to_point(o.at) <= r)
        {
            return;
        }
        let side = u.side;
        b.emit(
            out,
            DbnEvent::ObjectiveTaken {
                side,
                by: mover.clone(),
            },
        );
    }
}

impl<S: Supplement> DbnGame<S> {
    pub(super) fn end_phase(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let d = &self.dbn;
        match b.phase {
            Phase::DEPLOYMENT => d.end_deployment_step(b, out),
            COMMAND => {
                let extra = self.sup.command_factors(self, b);
                d.command_roll(b, out, extra)?;
                self.sup.start_bound(self, b, out)?;
                b.begin_phase(out, MOVEMENT);
                Ok(())
            }
            MOVEMENT => {
                b.begin_phase(out, FIRING);
                Ok(())
            }
            FIRING => {
                b.begin_phase(out, CLOSE_COMBAT);
                Ok(())
            }
            CLOSE_COMBAT => {
                // Fight what the player left unfought, in unit order.
                for _ in 0..(b.units.len() * 2 + 4) {
                    let Some((a, e)) = d.pending_combats(b).into_iter().next() else {
                        break;
                    };
                    let unordered = PursuitOrders {
                        side: None,
                        pursue: None,
                        each: &[],
                    };
                    self.fight(b, out, &a, &e, unordered, false)?;
                    if b.is_over() {
                        return Ok(());
                    }
                }
                d.next_bound(self, b, out);
                Ok(())
            }
            Phase::GAME_OVER => Err(RuleError::GameOver),
            _ => Err(RuleError::refused(
                Refusal::NoSuchPhase,
                format!("a DBN bound has no {} phase", b.phase.name()),
            )),
        }
    }
}
