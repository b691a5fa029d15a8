//! The BBB turn: the bound's order (the moving side's movement, its generals, the other
//! side's defensive fire, offensive fire, assaults, then the other side's turn), and the
//! command roll that bounds each unit's move.

use super::status::own;
use super::tables::{command_odds, command_outcome};
use super::{Arm, Bbb7yw, BbbEvent, CommandMod, Moves, N, illegal, in_phase, quality};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, RuleError, factor_sum};
use crate::rules::geometry::norm_deg;
use crate::rules::model::{Formation, Phase, PhaseInfo, Unit, UnitId};
use crate::rules::phase::Phases;
use crate::rules::ruleset::bbb::{Flag, Refusal};
use crate::rules::ruleset::view::Roll;
use crate::rules::terrain::FeatureKind;

// ----- the phases of a bound -----------------------------------------------------------------

/// The moving side moves its units (each after its command roll).
pub const MOVEMENT: Phase = Phase::new(&PhaseInfo {
    id: "Movement",
    name: "movement",
});
/// The moving side moves its generals.
pub const GENERALS: Phase = Phase::new(&PhaseInfo {
    id: "Generals",
    name: "generals",
});
/// The side not moving fires.
pub const DEFENSIVE_FIRE: Phase = Phase::new(&PhaseInfo {
    id: "DefensiveFire",
    name: "defensive fire",
});
/// The moving side fires.
pub const OFFENSIVE_FIRE: Phase = Phase::new(&PhaseInfo {
    id: "OffensiveFire",
    name: "offensive fire",
});
/// Assaults are resolved.
pub const ASSAULT: Phase = Phase::new(&PhaseInfo {
    id: "Assault",
    name: "assault",
});

/// The phases of a bound, in order.
pub const PHASES: [Phase; 5] = [MOVEMENT, GENERALS, DEFENSIVE_FIRE, OFFENSIVE_FIRE, ASSAULT];

inventory::submit!(Phases(&PHASES));

impl Bbb7yw {
    /// The modifiers of a unit's command roll, and whether it reads the disordered column.
    pub fn command_modifiers(&self, b: &Battle, u: &Unit) -> (Vec<Factor>, bool) {
        let disordered = u.status.disordered || own(u).silenced;
        let mut f = Vec::new();
        if self.general_near(b, u).is_some() {
            f.push(self.command_factor(CommandMod::General));
        }
        if self.marching(u) {
            f.push(self.command_factor(CommandMod::March));
        }
        let kinds = self.terrain_at(b, u);
        if kinds.iter().any(|k| {
            matches!(
                k,
                FeatureKind::Marsh | FeatureKind::Woods | FeatureKind::Town
            )
        }) {
            f.push(self.command_factor(CommandMod::Terrain));
        }
        if self.arm(u) == Some(Arm::IrregularCavalry) || u.has(Flag::Militia) {
            f.push(self.command_factor(CommandMod::Irregular));
        }
        if u.has(Flag::Passive) && !disordered {
            f.push(self.command_factor(CommandMod::Passive));
        }
        if u.has(Flag::Fragile) && disordered {
            f.push(self.command_factor(CommandMod::Fragile));
        }
        if self.is_infantry(u) && u.formation == Formation::Line && self.unsupported(b, u) {
            f.push(self.command_factor(CommandMod::UnsupportedLine));
        }
        if self.spent(u) {
            f.push(self.command_factor(CommandMod::Spent));
        }
        (f, disordered)
    }

    /// Infantry in line with no friend facing the same way within 3" of either flank: alone on
    /// both (ruling unsupported_line).
    fn unsupported(&self, b: &Battle, u: &Unit) -> bool {
        let r = b.scale.to_mm(self.n(N::FlankSupportDistance));
        let side_has = |sign: f32| {
            b.alive().any(|f| {
                f.side == u.side
                    && f.id != u.id
                    && !self.is_general(f)
                    && norm_deg(f.base.facing - u.base.facing).abs() < self.n(N::FlankSupportFacing)
                    && f.base.within(&u.base, r)
                    && f.base.centre.minus(u.base.centre).dot(u.base.right()) * sign > 0.0
                    && f.base
                        .centre
                        .minus(u.base.centre)
                        .dot(u.base.forward())
                        .abs()
                        <= u.base.depth.max(f.base.depth)
            })
        };
        !side_has(1.0) && !side_has(-1.0)
    }

    /// Rolls for command: the result bounds the unit's move this turn; rally, disruption,
    /// retiring, a lost base or a rout follow at once.
    pub fn activate(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        in_phase(b, MOVEMENT, "roll for command")?;
        let u = b.unit(id)?.clone();
        crate::rules::ruleset::common::own_active(b, &u)?;
        if self.is_general(&u) {
            return illegal(
                Refusal::GeneralsMoveWithoutRoll,
                format!(
                    "{} is a general: generals move in their own step without a roll",
                    u.name
                ),
            );
        }
        if u.bound.allowance.is_some() {
            return illegal(
                Refusal::AlreadyRolledForCommand,
                format!("{} has already rolled for command this turn", u.name),
            );
        }
        let (factors, disordered) = self.command_modifiers(b, &u);
        let dice = vec![b.d6()?, b.d6()?];
        let score = dice.iter().map(|d| i32::from(*d)).sum::<i32>() + factor_sum(&factors);
        let o = command_outcome(&self.data, score, disordered);
        let full = self.full_move(&u)?;
        let allowance = match o.moves {
            Moves::Full => full,
            Moves::Half => full / 2.0,
            _ => 0.0,
        };
        let recover = o.recover.is_some_and(|q| quality(u.class) >= q) && self.lost(&u) > 0;
        let words = self.outcome_words(&o, disordered, recover);
        b.emit(
            out,
            Event::Ordered {
                unit: id.clone(),
                roll: Roll {
                    unit: Some(id.clone()),
                    side: Some(u.side),
                    dice,
                    factors,
                    total: score,
                    against: None,
                    need: None,
                    outcome: words,
                    first_die: None,
                    dice_at: Vec::new(),
                },
                allowance,
                recover,
            },
        );
        if o.rally {
            if u.status.disordered {
                b.emit(out, Event::Steadied { unit: id.clone() });
            }
            if own(&u).silenced {
                b.emit(
                    out,
                    BbbEvent::Silenced {
                        unit: id.clone(),
                        silenced: false,
                        why: "rallied on the command roll".into(),
                    },
                );
            }
        }
        if o.disrupted {
            self.disrupt(b, out, id, "the command roll");
        }
        if o.lose_base {
            self.lose_bases(b, out, id, 1, "the command roll")?;
        }
        match o.moves {
            Moves::RetireHalf => self.retire(b, out, id, full / 2.0, None, "the command roll")?,
            Moves::RetireFull => self.retire(b, out, id, full, None, "the command roll")?,
            Moves::Rout => b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: "routed on the command roll: every base removed".into(),
                },
            ),
            _ => {}
        }
        Ok(())
    }

    /// A command roll's outcome in words.
    pub fn outcome_words(
        &self,
        o: &super::CommandOutcome,
        disordered: bool,
        recover: bool,
    ) -> String {
        let mv = match o.moves {
            Moves::Full => "full move",
            Moves::Half => "half move",
            Moves::Still => "no move",
            Moves::RetireHalf => "retire a half move (ignoring terrain)",
            Moves::RetireFull => "retire a full move (ignoring terrain)",
            Moves::Rout => "routed: every base removed",
        };
        let mut s = String::new();
        if o.rally {
            s.push_str("rally & ");
        }
        if o.disrupted {
            s.push_str("disrupted & ");
        }
        if o.lose_base {
            s.push_str("lose a base & ");
        }
        s.push_str(mv);
        if recover {
            s.push_str(", or recover a base");
        }
        if disordered {
            s.push_str(" (disordered column)");
        }
        s
    }

    /// The chance of each outcome of a unit's command roll now, in words.
    pub fn command_chances(&self, b: &Battle, u: &Unit) -> Vec<(String, f64)> {
        let (factors, disordered) = self.command_modifiers(b, u);
        let m = factor_sum(&factors);
        let odds = command_odds(&self.data, m);
        let mut out: Vec<(String, f64)> = Vec::new();
        for (row, p) in self.data.command_table.iter().zip(odds) {
            if p <= 0.0 {
                continue;
            }
            let o = if disordered { row.disordered } else { row.good };
            let recover = o.recover.is_some_and(|q| quality(u.class) >= q) && self.lost(u) > 0;
            let w = self.outcome_words(&o, false, recover);
            match out.iter_mut().find(|x| x.0 == w) {
                Some(x) => x.1 += p,
                None => out.push((w, p)),
            }
        }
        out
    }

    pub fn end_phase(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        match b.phase {
            MOVEMENT => {
                b.begin_phase(out, GENERALS);
                self.generals_return(b, out);
            }
            GENERALS => {
                self.general_casualties(b, out);
                b.begin_phase(out, DEFENSIVE_FIRE);
            }
            DEFENSIVE_FIRE => {
                self.general_casualties(b, out);
                b.begin_phase(out, OFFENSIVE_FIRE);
            }
            OFFENSIVE_FIRE => {
                self.general_casualties(b, out);
                b.begin_phase(out, ASSAULT);
            }
            ASSAULT => {
                for _ in 0..(b.units.len() * 2 + 4) {
                    let Some((a, d)) = self.pending_assaults(b).into_iter().next() else {
                        break;
                    };
                    // No choice made: the attacker occupies where the table leaves it the choice
                    // (ruling after_assault).
                    self.assault(b, out, &a, &d, Some(false))?;
                    if b.is_over() {
                        return Ok(());
                    }
                }
                self.general_casualties(b, out);
                self.end_of_turn(b, out);
                self.next_turn(b, out);
            }
            Phase::GAME_OVER => return Err(RuleError::GameOver),
            other => {
                return illegal(
                    Refusal::NoSuchStep,
                    format!("a BBB turn has no {} step", other.name()),
                );
            }
        }
        Ok(())
    }

    fn next_turn(&self, b: &mut Battle, out: &mut Vec<Event>) {
        let next = Battle::enemy(b.active);
        let turn = if next == 0 { b.turn + 1 } else { b.turn };
        if turn > b.turn_limit {
            crate::rules::victory::end_at_limit(self, b, out);
            return;
        }
        b.emit(
            out,
            Event::PhaseBegan {
                turn,
                phase: MOVEMENT,
                side: next,
            },
        );
    }
}
