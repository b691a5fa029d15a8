//! Chips (VI.F.b): a general turns in a chip to throw again one die of a roll that went badly
//! for a unit within his command radius; the second result stands.
//!
//! Which die, and when a roll has gone badly, is the ruling `chips_reroll`: the die of the
//! roll that hurt the unit most (the lower die of a failed 2D6 check, the higher of a penalty
//! die, the lower of a bonus die, a failed save, a volley's or a melee's lowest die). The roll
//! is the unit's first such roll in the last command. "Only one die": the command is played
//! again with every other die as it fell, handed back by the throw it was (`throws_of`: the
//! unit or side, the roll by name, which such roll, the die's place in it), so a later unit's
//! check keeps its dice; a throw the first play did not make takes a new die.

use super::rolls::{self, HalRoll};
use super::tables::{self};
use super::{Band, Hal25, HalEvent, N, TroopClass};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, RuleError, factor_sum};
use crate::rules::dice::{Throw, ThrowRecord, name_throws};
use crate::rules::log::Events;
use crate::rules::model::UnitId;
use crate::rules::ruleset::Roll;
use crate::rules::tagged::Tagged;

/// A die a chip may throw again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rethrow {
    /// Its place among the dice of the last command.
    pub at: usize,
    /// The roll, in words.
    pub what: String,
}

/// The index of the lowest (or highest) die, the first of equals.
fn pick(dice: &[u8], highest: bool) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, &d) in dice.iter().enumerate() {
        let better = best.is_none_or(|j| if highest { d > dice[j] } else { d < dice[j] });
        if better {
            best = Some(i);
        }
    }
    best
}

/// Die `i` of a roll thrown one die after another from `first`.
fn in_sequence(first: usize, i: usize, name: String) -> Rethrow {
    Rethrow {
        at: first + i,
        what: name,
    }
}

/// Where each die of a roll stands among the dice of its command (none where it does not say:
/// a roll that shows dice thrown before, as the measure of a move).
fn places(roll: &Roll) -> Vec<usize> {
    match roll.first_die {
        _ if !roll.dice_at.is_empty() => roll.dice_at.clone(),
        Some(f) => (f..f + roll.dice.len()).collect(),
        None => Vec::new(),
    }
}

impl Hal25 {
    /// The die of this roll a chip would throw again for the unit, if the roll went badly.
    fn rethrow_of(&self, what: &Tagged, roll: &Roll) -> Option<Rethrow> {
        let kind = rolls::kind(what)?;
        let f = roll.first_die?;
        let d = &roll.dice;
        let n = d.len();
        let seq = |i: usize| Some(in_sequence(f, i, kind.button_name(what)));
        match kind {
            HalRoll::Morale { failed, .. } => {
                if failed && n == 2 {
                    seq(pick(d, false)?)
                } else {
                    None
                }
            }
            HalRoll::Movement(_) => {
                // A penalty die: the highest, if it cost chip_high_die or more; a bonus die: the
                // lowest, if it gave chip_low_die or less.
                let dice_total = roll.total - crate::rules::command::factor_sum(&roll.factors);
                if dice_total < 0 {
                    let i = pick(d, true)?;
                    (f32::from(d[i]) >= self.n(N::ChipHighDie))
                        .then(|| seq(i))
                        .flatten()
                } else {
                    let i = pick(d, false)?;
                    (f32::from(d[i]) <= self.n(N::ChipLowDie))
                        .then(|| seq(i))
                        .flatten()
                }
            }
            HalRoll::Saves => {
                let need = u8::try_from(roll.need?).ok()?;
                let i = d.iter().position(|&x| x < need)?;
                seq(i)
            }
            HalRoll::FailedMoraleChart { recovered: false } => seq(pick(d, false)?),
            HalRoll::TwoStandCheck { removed: true }
            | HalRoll::ChargeBonus { falls_short: true }
            | HalRoll::ChargeRange {
                band: None | Some(Band::Medium | Band::Long),
                ..
            }
            | HalRoll::OddOnHorse { falls: true }
            | HalRoll::CounterBattery { knocked_out: None } => seq(0),
            // The facing die, thrown last.
            HalRoll::FallingBack {
                back_to_enemy: true,
            } => seq(n.checked_sub(1)?),
            HalRoll::CourierRide { lost: true } | HalRoll::OfficerRisk { falls: true } => {
                seq(pick(d, true)?)
            }
            // The knock-out dice, after the die to hit.
            HalRoll::CounterBattery {
                knocked_out: Some(false),
            } if n == 3 => seq(1 + pick(&d[1..], false)?),
            _ => None,
        }
    }

    /// A melee roll's lowest die, if it is chip_low_die or less.
    fn rethrow_melee(&self, roll: &Roll) -> Option<Rethrow> {
        let i = pick(&roll.dice, false)?;
        if f32::from(roll.dice[i]) > self.n(N::ChipLowDie) {
            return None;
        }
        Some(Rethrow {
            at: *roll.dice_at.get(i)?,
            what: "the melee".into(),
        })
    }

    /// The die a chip would throw again for `unit` in the last command: its first roll there
    /// that went badly. The army's withdrawal roll belongs to its commander in chief.
    pub fn rethrow(&self, b: &Battle, unit: &UnitId) -> Option<Rethrow> {
        let cic_side = b.unit(unit).ok().filter(|u| self.is_cic(u)).map(|u| u.side);
        b.last_events().iter().find_map(|e| match e {
            Event::Rolled { what, roll } if roll.unit.as_ref() == Some(unit) => {
                self.rethrow_of(what, roll)
            }
            Event::Rolled { what, roll }
                if roll.unit.is_none()
                    && cic_side.is_some()
                    && roll.side == cic_side
                    && rolls::kind(what) == Some(HalRoll::ArmyWithdrawal { withdraws: true })
                    && roll.dice.len() == 4 =>
            {
                // The enemy's 2D6 were thrown (and are shown) first, then the side's own.
                let f = roll.first_die?;
                let i = pick(&roll.dice[2..], false)?;
                Some(in_sequence(f + 2, i, what.to_string()))
            }
            Event::Volley {
                shooter,
                dice,
                need,
                first_die: Some(f),
                ..
            } if shooter == unit => {
                let i = pick(dice, false)?;
                (dice[i] < *need).then(|| in_sequence(*f, i, "the volley".into()))
            }
            Event::Assault {
                attacker_roll,
                defender_roll,
                ..
            } => [attacker_roll, defender_roll]
                .into_iter()
                .find(|r| r.unit.as_ref() == Some(unit))
                .and_then(|r| self.rethrow_melee(r)),
            _ => None,
        })
    }

    /// Which throw each of a command's `dice` was, from its roll records (ruling
    /// `chips_reroll`): each roll of Hal's by the unit or side it was for and its name, the
    /// volley by its shooter, a melee by each side's unit, the chips by the general. The
    /// initiative's dice name no place and are known by their order among the dice no record
    /// names.
    pub fn throws_of(&self, events: Events<'_>, dice: usize) -> Vec<Throw> {
        let records = events.filter_map(|e| -> Option<Vec<ThrowRecord>> {
            let of = |roll: &Roll, name: &'static str| {
                (roll.unit.clone(), roll.side, name, places(roll))
            };
            Some(match e {
                Event::Rolled { what, roll } => vec![of(roll, rolls::kind(what)?.throw_name())],
                Event::Volley {
                    shooter,
                    dice,
                    first_die: Some(f),
                    ..
                } => vec![(
                    Some(shooter.clone()),
                    None,
                    "the volley",
                    (*f..f + dice.len()).collect(),
                )],
                Event::Assault {
                    attacker_roll,
                    defender_roll,
                    ..
                } => vec![
                    of(attacker_roll.as_ref(), "the melee"),
                    of(defender_roll.as_ref(), "the melee"),
                ],
                _ => match e.own::<HalEvent>()? {
                    HalEvent::Chips { roll, .. } => vec![of(roll, "chips")],
                    _ => return None,
                },
            })
        });
        name_throws(records.flatten(), dice)
    }
}

impl Hal25 {
    /// Each general throws for chips before the battle.
    pub(super) fn chips(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let generals: Vec<(UnitId, bool)> = b
            .alive()
            .filter(|g| self.class(g) == Some(TroopClass::General))
            .map(|g| (g.id.clone(), self.is_cic(g)))
            .collect();
        for (id, cic) in generals {
            let first = b.cmd_dice.len();
            let die = b.d6()?;
            let row = tables::chips(&self.d, die, cic).clone();
            let mut factors = Vec::new();
            if cic {
                factors.push(Factor {
                    name: "Commander in chief".into(),
                    value: self.n(N::ChipsCincBonus) as i32,
                    source: "004 VI.F.a".into(),
                });
            }
            let total = i32::from(die) + factor_sum(&factors);
            b.emit(
                out,
                HalEvent::Chips {
                    general: id.clone(),
                    roll: Roll {
                        unit: Some(id),
                        dice: vec![die],
                        factors,
                        total,
                        outcome: format!(
                            "{} chip{}, command radius {}\", {}",
                            row.chips,
                            if row.chips == 1 { "" } else { "s" },
                            row.radius,
                            match row.move_dice {
                                0 => "moves as the rules give".to_string(),
                                n => format!(
                                    "{n:+}D6 to movement, {:+} command control",
                                    row.command
                                ),
                            }
                        ),
                        first_die: Some(first),
                        ..Roll::default()
                    },
                    chips: row.chips,
                    radius: row.radius as f32,
                    move_dice: row.move_dice,
                    command: row.command,
                },
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::pick;

    #[test]
    fn rolls_are_named_for_the_button() {
        use super::super::rolls::{HalRoll, MoraleCheck, Need};
        let morale = HalRoll::morale(MoraleCheck::Holding, true);
        assert_eq!(
            super::super::rolls::kind(&morale)
                .unwrap()
                .button_name(&morale),
            "the holding check"
        );
        assert_eq!(
            HalRoll::Movement(Need::Rough).button_name("movement: rough terrain"),
            "the rough terrain die"
        );
        assert_eq!(
            HalRoll::Movement(Need::Chips(1)).button_name("movement: the commander's chips"),
            "the commander's chips die"
        );
        assert_eq!(HalRoll::Saves.button_name("saves (on 6)"), "saves (on 6)");
    }

    #[test]
    fn the_lowest_and_highest_die_first_of_equals() {
        assert_eq!(pick(&[3, 1, 1], false), Some(1));
        assert_eq!(pick(&[6, 2, 6], true), Some(0));
        assert_eq!(pick(&[], true), None);
    }
}
