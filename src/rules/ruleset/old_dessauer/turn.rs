//! The turn: an active and a passive side, the phases (movement, shooting, combat) and their
//! ends, reforming and shattering at the turn's end, and victory.

use super::DessauerEvent;
use super::{Kind, N, OldDessauer, combat, morale, pursuit, this_turn};
use crate::rules::battle::Battle;
use crate::rules::command::{Ending, Event, RuleError};
use crate::rules::model::{Phase, PhaseInfo, Side, UnitId};
use crate::rules::phase::Phases;

// ----- the phases of a turn ------------------------------------------------------------------

/// The active side moves.
pub const MOVEMENT: Phase = Phase::new(&PhaseInfo {
    id: "Movement",
    name: "movement",
});
/// Both sides shoot.
pub const FIRING: Phase = Phase::new(&PhaseInfo {
    id: "Firing",
    name: "firing",
});
/// Combats are fought.
pub const CLOSE_COMBAT: Phase = Phase::new(&PhaseInfo {
    id: "CloseCombat",
    name: "close combat",
});

/// The phases of a turn, in order.
pub const PHASES: [Phase; 3] = [MOVEMENT, FIRING, CLOSE_COMBAT];

inventory::submit!(Phases(&PHASES));

impl OldDessauer {
    pub(super) fn begin_turn(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        turn: u32,
        side: Side,
    ) -> Result<(), RuleError> {
        b.emit(
            out,
            Event::PhaseBegan {
                turn,
                phase: MOVEMENT,
                side,
            },
        );
        self.rally(b, out)
    }

    pub(super) fn end_phase(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        match b.phase {
            MOVEMENT => {
                b.begin_phase(out, FIRING);
                Ok(())
            }
            FIRING => {
                morale::morale_tests(self, b, out)?;
                b.begin_phase(out, CLOSE_COMBAT);
                Ok(())
            }
            CLOSE_COMBAT => {
                // Every combat fights its round: those not fought yet are fought now.
                for _ in 0..b.units.len() {
                    let Some((a, t)) = combat::unfought(self, b).into_iter().next() else {
                        break;
                    };
                    let orders = pursuit::Orders {
                        side: None,
                        pursue: None,
                        units: &[],
                    };
                    combat::fight(self, b, out, &a, &t, &orders)?;
                }
                self.end_turn(b, out)
            }
            p => Err(RuleError::WrongPhase {
                command: "end the phase".into(),
                phase: p,
            }),
        }
    }

    pub(super) fn end_turn(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        // The active side's disordered units that stood all turn reform: not those disordered
        // during it (a friend ending among them or recoiling through them).
        let fresh: Vec<&UnitId> = this_turn(b)
            .iter()
            .chain(out.iter())
            .filter_map(|e| match e {
                Event::Disordered { unit, .. } => Some(unit),
                _ => None,
            })
            .collect();
        let ids: Vec<UnitId> = b
            .alive()
            .filter(|u| {
                u.side == b.active
                    && u.status.disordered
                    && !fresh.contains(&&u.id)
                    && !u.bound.moved
                    && !u.bound.formed
                    && !u.bound.fought
                    && !u.bound.recoiled
                    && !u.bound.fell_back
            })
            .map(|u| u.id.clone())
            .collect();
        for id in ids {
            let u = b.unit(&id)?.clone();
            if !self.in_contact(b, &u) {
                b.emit(out, Event::Steadied { unit: id });
            }
        }
        // Shattered units of both sides leave the table.
        let frac = self.num(N::ShatterFraction);
        let shattered: Vec<UnitId> = b
            .alive()
            .filter(|u| {
                matches!(
                    self.kind(u),
                    Kind::Infantry | Kind::LightInfantry | Kind::Cavalry | Kind::Artillery
                ) && (u.figures() as f32) <= self.strength(u) as f32 * frac
            })
            .map(|u| u.id.clone())
            .collect();
        for id in shattered {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id,
                    reason: "shattered: reduced to a quarter of its strength".into(),
                },
            );
        }
        self.orphans(b, out);
        self.check_victory(b, out);
        if b.is_over() {
            return Ok(());
        }
        // A turn is both sides' (as in every ruleset): the first side's turn begins the next.
        let next = Battle::enemy(b.active);
        let turn = if next == 0 { b.turn + 1 } else { b.turn };
        if turn > b.turn_limit {
            crate::rules::victory::end_at_limit(self, b, out);
            return Ok(());
        }
        self.begin_turn(b, out, turn, next)
    }

    /// Regimental guns whose parent is gone leave; generals of a lost unit detach.
    pub(super) fn orphans(&self, b: &mut Battle, out: &mut Vec<Event>) {
        let gone = |b: &Battle, id: &UnitId| b.unit(id).map(|p| !p.alive()).unwrap_or(true);
        let guns: Vec<UnitId> = b
            .alive()
            .filter(|u| u.extra.parent.as_ref().is_some_and(|p| gone(b, p)))
            .map(|u| u.id.clone())
            .collect();
        for id in guns {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id,
                    reason: "its parent regiment is gone".into(),
                },
            );
        }
        let generals: Vec<UnitId> = b
            .alive()
            .filter(|u| u.extra.attached.as_ref().is_some_and(|p| gone(b, p)))
            .map(|u| u.id.clone())
            .collect();
        for general in generals {
            b.emit(
                out,
                DessauerEvent::Attached {
                    general,
                    unit: None,
                },
            );
        }
    }

    /// Units counted for victory: (lost, all) of a side.
    pub fn losses(&self, b: &Battle, side: Side) -> (u32, u32) {
        let mine = b
            .units
            .iter()
            .filter(|u| u.side == side && self.is_fighting_unit(u));
        let all = mine.clone().count() as u32;
        let lost = mine
            .filter(|u| u.status.removed && !u.status.exited)
            .count() as u32;
        (lost, all)
    }

    /// Figures counted as the army's strength: (lost, at the start) of a side's fighting
    /// units. The rules take their hits as figures (a figure is 50 men or 5 gunners) and
    /// remove a unit shattered at a quarter of its strength, so a shattered or eliminated unit
    /// counts all the figures it began with; one that left the table by an exit, none.
    pub fn figures_lost(&self, b: &Battle, side: Side) -> (u32, u32) {
        let mut lost = 0;
        let mut all = 0;
        for u in b
            .units
            .iter()
            .filter(|u| u.side == side && self.is_fighting_unit(u))
        {
            let n = self.strength(u);
            all += n;
            lost += match (u.status.exited, u.status.removed) {
                (true, _) => 0,
                (false, true) => n,
                (false, false) => n.saturating_sub(u.figures()),
            };
        }
        (lost, all)
    }

    /// The fighting units lost at which a side's army breaks: its units at the start times
    /// the army break fraction.
    pub(super) fn break_point(&self, b: &Battle, side: Side) -> f32 {
        self.losses(b, side).1 as f32 * self.num(N::ArmyBreakFraction)
    }

    pub(super) fn check_victory(&self, b: &mut Battle, out: &mut Vec<Event>) {
        if b.is_over() {
            return;
        }
        for side in 0..2 {
            let (lost, all) = self.losses(b, side);
            let of = self.break_point(b, side);
            if all > 0 && lost as f32 >= of {
                b.emit(
                    out,
                    Event::ArmyBroken {
                        side,
                        losses: lost as f32,
                        // The break point, as every ruleset reports it: the share of its units
                        // whose loss breaks the army.
                        of,
                    },
                );
                let name = b
                    .sides
                    .get(side)
                    .map(|s| s.name.clone())
                    .unwrap_or_default();
                b.emit(
                    out,
                    Event::GameOver {
                        winner: Some(Battle::enemy(side)),
                        reason: format!("{name} has lost {lost} of its {all} units"),
                        by: Ending::Broken,
                    },
                );
                return;
            }
        }
    }

    /// Share of figures lost by each side; the smaller share wins at the turn limit.
    pub(crate) fn turn_limit_result(&self, b: &Battle) -> (Option<Side>, String) {
        let share = |side: Side| {
            let (mut lost, mut all) = (0u32, 0u32);
            for u in b
                .units
                .iter()
                .filter(|u| u.side == side && self.is_fighting_unit(u))
            {
                let s = self.strength(u);
                all += s;
                lost += if u.status.removed {
                    s
                } else {
                    s.saturating_sub(u.figures())
                };
            }
            if all == 0 {
                0.0
            } else {
                lost as f32 / all as f32
            }
        };
        let (a, c) = (share(0), share(1));
        let pct = |x: f32| format!("{:.0}%", x * 100.0);
        if (a - c).abs() < 1e-6 {
            (
                None,
                format!("turn limit: both sides lost {} of their figures", pct(a)),
            )
        } else {
            let w = if a < c { 0 } else { 1 };
            (
                Some(w),
                format!(
                    "turn limit: losses {} against {}",
                    pct(a.min(c)),
                    pct(a.max(c))
                ),
            )
        }
    }
}
