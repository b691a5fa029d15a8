//! The turn of Hal's rules: the brigades' activation throw, the phases in order, the turn's end and
//! the battle's end.

use super::procedures::activation;
use super::status::own;
use super::{Hal25, HalEvent, Marker, N, State, begin, this_turn};
use crate::rules::battle::Battle;
use crate::rules::command::{Ending, Event, RuleError};
use crate::rules::model::{Phase, PhaseInfo, Side, UnitId};
use crate::rules::phase::Phases;
use crate::rules::ruleset::common::{illegal, in_phase, on_table};
use crate::rules::ruleset::hal25::Refusal;

// ----- the phases of a turn ------------------------------------------------------------------

/// Both commanders throw for chips (the turn's first step; not on the turn bar's list).
pub const COMMAND: Phase = Phase::new(&PhaseInfo {
    id: "Command",
    name: "command",
});
/// Charges are announced and their targets declared.
pub const CHARGES: Phase = Phase::new(&PhaseInfo {
    id: "Charges",
    name: "charge declarations",
});
/// The brigades the activation throw gives move.
pub const MOVEMENT: Phase = Phase::new(&PhaseInfo {
    id: "Movement",
    name: "movement",
});
/// Artillery fires.
pub const ARTILLERY: Phase = Phase::new(&PhaseInfo {
    id: "Artillery",
    name: "artillery fire",
});
/// Small arms fire, simultaneously.
pub const SMALL_ARMS: Phase = Phase::new(&PhaseInfo {
    id: "SmallArms",
    name: "small arms fire",
});
/// Melees are fought.
pub const CLOSE_COMBAT: Phase = Phase::new(&PhaseInfo {
    id: "CloseCombat",
    name: "close combat",
});
/// Morale checks are made.
pub const MORALE: Phase = Phase::new(&PhaseInfo {
    id: "Morale",
    name: "morale",
});
/// Routed units run.
pub const ROUT: Phase = Phase::new(&PhaseInfo {
    id: "Rout",
    name: "rout movement",
});

/// The phases of a turn on the turn bar, in order.
pub const PHASES: [Phase; 7] = [
    CHARGES,
    MOVEMENT,
    ARTILLERY,
    SMALL_ARMS,
    CLOSE_COMBAT,
    MORALE,
    ROUT,
];

inventory::submit!(Phases(&[
    COMMAND,
    CHARGES,
    MOVEMENT,
    ARTILLERY,
    SMALL_ARMS,
    CLOSE_COMBAT,
    MORALE,
    ROUT
]));

impl Hal25 {
    // ----- brigades -------------------------------------------------------------------------

    /// A side's brigades with a unit on the table, in the scenario's order.
    pub fn brigades(&self, b: &Battle, side: Side) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for u in b.alive().filter(|u| u.side == side && self.is_unit(u)) {
            if let Some(br) = &u.extra.brigade
                && !v.contains(br)
            {
                v.push(br.clone());
            }
        }
        v
    }

    /// Brigades set moving this turn, by side.
    pub fn moved_brigades(&self, b: &Battle) -> Vec<(Side, String)> {
        this_turn(b)
            .iter()
            .filter_map(|e| match e.own() {
                Some(HalEvent::BrigadeActivated { side, brigade }) => {
                    Some((*side, brigade.clone()))
                }
                _ => None,
            })
            .collect()
    }

    /// Brigades set moving since the last throw.
    pub fn throw_brigades(&self, b: &Battle) -> Vec<String> {
        let t = this_turn(b);
        let from = t
            .iter()
            .rposition(|e| matches!(e.own(), Some(HalEvent::Initiative { .. })))
            .map_or(t.len(), |i| i + 1);
        t.skip(from)
            .filter_map(|e| match e.own() {
                Some(HalEvent::BrigadeActivated { brigade, .. }) => Some(brigade.clone()),
                _ => None,
            })
            .collect()
    }

    /// A side's brigades not yet moved this turn.
    pub fn unmoved(&self, b: &Battle, side: Side) -> Vec<String> {
        let moved = self.moved_brigades(b);
        self.brigades(b, side)
            .into_iter()
            .filter(|br| !moved.iter().any(|(s, m)| *s == side && m == br))
            .collect()
    }

    /// Both sides throw for the move; or, all brigades moved, the firing begins.
    pub(super) fn throw(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let left = [self.unmoved(b, 0).len(), self.unmoved(b, 1).len()];
        if left == [0, 0] {
            begin(b, out, ARTILLERY);
            return Ok(());
        }
        if left[0] == 0 || left[1] == 0 {
            let s = usize::from(left[0] == 0);
            b.emit(
                out,
                HalEvent::Initiative {
                    dice: Vec::new(),
                    side: Some(s),
                    brigades: left[s] as u32,
                },
            );
            return Ok(());
        }
        let tries = self.n(N::InitiativeTries).max(1.0) as u32;
        for _ in 0..tries {
            let (x, y) = (b.d6()?, b.d6()?);
            match activation(x, y) {
                Some((s, n)) => {
                    b.emit(
                        out,
                        HalEvent::Initiative {
                            dice: vec![x, y],
                            side: Some(s),
                            brigades: n.min(left[s] as u32),
                        },
                    );
                    return Ok(());
                }
                None => b.emit(
                    out,
                    HalEvent::Initiative {
                        dice: vec![x, y],
                        side: None,
                        brigades: 0,
                    },
                ),
            }
        }
        let s = usize::from(left[1] > left[0]);
        b.emit(
            out,
            HalEvent::Initiative {
                dice: Vec::new(),
                side: Some(s),
                brigades: 1,
            },
        );
        Ok(())
    }

    /// Sets a brigade moving (any of its units, or its commander, names it).
    pub fn activate(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        in_phase(b, MOVEMENT, "set a brigade moving")?;
        let u = b.unit(id)?.clone();
        on_table(&u)?;
        if u.side != b.active {
            return illegal(
                Refusal::OtherSideMoving,
                format!("{}: the other side is moving", u.name),
            );
        }
        let Some(brigade) = u.extra.brigade.clone() else {
            return illegal(
                Refusal::NoBrigade,
                format!(
                    "{} belongs to no brigade: it moves with any of its side's brigades",
                    u.name
                ),
            );
        };
        if !self.unmoved(b, u.side).contains(&brigade) {
            return illegal(
                Refusal::BrigadeMoved,
                format!("brigade {brigade} has moved this turn"),
            );
        }
        if b.command_points[u.side] <= 0 {
            return illegal(
                Refusal::NoMoreBrigades,
                "the throw gave no more brigades to move: end the throw".into(),
            );
        }
        b.emit(
            out,
            HalEvent::BrigadeActivated {
                side: u.side,
                brigade,
            },
        );
        Ok(())
    }

    /// The unit may act in the movement now: its brigade moves in this throw (commanders in
    /// chief and couriers with any brigade of their side).
    pub fn may_act(&self, b: &Battle, id: &UnitId) -> Result<(), RuleError> {
        in_phase(b, MOVEMENT, "move")?;
        let u = b.unit(id)?;
        on_table(u)?;
        if u.side != b.active {
            return illegal(
                Refusal::OtherSideMoving,
                format!("{}: the other side is moving", u.name),
            );
        }
        let throw = self.throw_brigades(b);
        match &u.extra.brigade {
            Some(br) if !self.is_officer(u) || self.is_brigadier(u) => {
                if !throw.contains(br) {
                    return illegal(
                        Refusal::BrigadeNotMoving,
                        format!(
                            "{}: brigade {br} is not moving now (set it moving first)",
                            u.name
                        ),
                    );
                }
            }
            _ => {
                if throw.is_empty() {
                    return illegal(
                        Refusal::NoBrigadeMoving,
                        format!(
                            "{} moves with one of its side's brigades: set one moving first",
                            u.name
                        ),
                    );
                }
            }
        }
        if u.bound.halted {
            return illegal(
                Refusal::StandsThisTurn,
                format!("{} stands this turn", u.name),
            );
        }
        if self.state(u) == State::Routed {
            return illegal(
                Refusal::RoutedRunsInRout,
                format!("{} is routed: it runs in the rout movement", u.name),
            );
        }
        Ok(())
    }

    // ----- the turn -------------------------------------------------------------------------

    pub fn end_phase(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        match b.phase {
            COMMAND => {
                self.chips(b, out)?;
                begin(b, out, CHARGES);
                Ok(())
            }
            CHARGES => {
                begin(b, out, MOVEMENT);
                self.courier_risks(b, out)?;
                self.throw(b, out)
            }
            MOVEMENT => {
                // Brigades the throw gave and the side did not set moving stand.
                let side = b.active;
                let mut n = b.command_points[side].max(0) as usize;
                for brigade in self.unmoved(b, side) {
                    if n == 0 {
                        break;
                    }
                    b.emit(out, HalEvent::BrigadeActivated { side, brigade });
                    n -= 1;
                }
                self.throw(b, out)
            }
            ARTILLERY => {
                self.check_marked(b, out)?;
                begin(b, out, SMALL_ARMS);
                Ok(())
            }
            SMALL_ARMS => {
                self.check_marked(b, out)?;
                begin(b, out, CLOSE_COMBAT);
                Ok(())
            }
            CLOSE_COMBAT => {
                // Melees nobody called are fought now, in the order of the table (each pair
                // once: a unit may fight several enemies).
                for _ in 0..b.units.len() * b.units.len() {
                    let Some((a, e)) = self.melees(b).into_iter().next() else {
                        break;
                    };
                    self.fight(b, out, &a, &e)?;
                    if b.is_over() {
                        return Ok(());
                    }
                }
                begin(b, out, MORALE);
                self.morale_phase(b, out)
            }
            MORALE => {
                begin(b, out, ROUT);
                self.rout_phase(b, out)
            }
            ROUT => self.next_turn(b, out),
            Phase::GAME_OVER => Err(RuleError::GameOver),
            other => illegal(
                Refusal::NoSuchPhase,
                format!("Hal's rules have no {} phase", other.name()),
            ),
        }
    }

    pub(super) fn next_turn(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let declared: Vec<UnitId> = b
            .units
            .iter()
            .filter(|u| own(u).declared.is_some())
            .map(|u| u.id.clone())
            .collect();
        for unit in declared {
            b.emit(
                out,
                HalEvent::Marked {
                    unit,
                    marker: Marker::Declaration,
                    count: 0,
                },
            );
        }
        if b.turn >= b.turn_limit {
            crate::rules::victory::end_at_limit(self, b, out);
            return Ok(());
        }
        b.emit(
            out,
            Event::PhaseBegan {
                turn: b.turn + 1,
                phase: CHARGES,
                side: 0,
            },
        );
        Ok(())
    }

    // ----- the end ---------------------------------------------------------------------------

    pub fn check_victory(&self, b: &mut Battle, out: &mut Vec<Event>) {
        if b.is_over() {
            return;
        }
        for side in 0..2 {
            let (start, now) = self.strength(b, side);
            if start > 0 && now == 0 {
                b.emit(
                    out,
                    Event::GameOver {
                        winner: Some(1 - side),
                        reason: "the enemy has no units left on the table".into(),
                        by: Ending::NoUnits,
                    },
                );
                return;
            }
        }
    }

    pub(crate) fn turn_limit_result(&self, b: &Battle) -> (Option<usize>, String) {
        let share = |s: Side| {
            let (start, now) = self.strength(b, s);
            if start == 0 {
                0.0
            } else {
                (start - now) as f32 / start as f32
            }
        };
        let (a, c) = (share(0), share(1));
        let text = format!(
            "the turns are played: {:.0}% and {:.0}% of the units lost",
            a * 100.0,
            c * 100.0
        );
        if (a - c).abs() < 1e-6 {
            (None, text)
        } else if a < c {
            (Some(0), text)
        } else {
            (Some(1), text)
        }
    }

    /// Charges and melees of this phase that are still to be fought.
    pub fn fought_this_phase(&self, b: &Battle, id: &UnitId) -> bool {
        b.phase == CLOSE_COMBAT && b.unit(id).is_ok_and(|u| u.bound.fought)
    }

    /// `a` and `e` have fought each other this melee phase (either one may still fight
    /// another enemy it is in contact with: ruling several_melees).
    pub fn pair_fought_this_phase(&self, b: &Battle, a: &UnitId, e: &UnitId) -> bool {
        b.phase == CLOSE_COMBAT
            && super::this_phase(b).any(|ev| {
                matches!(ev, Event::Assault { attacker, defender, .. }
                    if (attacker == a && defender == e) || (attacker == e && defender == a))
            })
    }
}
