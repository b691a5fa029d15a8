//! What the log says of BBB's own events.

use super::Bbb7yw;
use super::BbbEvent;
use crate::rules::battle::Battle;
use crate::rules::command::Event;
use crate::rules::model::UnitId;
use crate::rules::roll::Roll;

/// A roll's factors in the log's words: ", +1 Elite, Disordered".
fn mods(r: &Roll) -> String {
    r.factors
        .iter()
        .map(|f| {
            if f.value == 0 {
                format!(", {}", f.name)
            } else {
                format!(", {:+} {}", f.value, f.name)
            }
        })
        .collect()
}

impl Bbb7yw {
    /// Words for BBB's events: its own here, its rolls here, the rest by `state_words`.
    pub(super) fn event_words(&self, b: &Battle, e: &Event) -> Option<String> {
        let name = |id: &UnitId| b.name_of(id);
        if let Some(own) = e.own::<BbbEvent>() {
            return Some(Self::own_words(b, own));
        }
        Some(match e {
            Event::Ordered { unit, roll, .. } => format!(
                "{} rolls {:?} for command{} = {}: {}",
                name(unit),
                roll.dice,
                mods(roll),
                roll.total,
                roll.outcome
            ),
            Event::Assault {
                attacker,
                defender,
                attacker_roll,
                defender_roll,
                difference,
                outcome,
            } => format!(
                "{} assaults {}. {}: die {}{} = {} against {}: die {}{} = {}; difference {difference:+}: {outcome}",
                name(attacker),
                name(defender),
                name(attacker),
                attacker_roll.dice.first().copied().unwrap_or(0),
                mods(attacker_roll),
                attacker_roll.total,
                name(defender),
                defender_roll.dice.first().copied().unwrap_or(0),
                mods(defender_roll),
                defender_roll.total
            ),
            _ => return self.state_words(b, e),
        })
    }

    /// Words for BBB's events that change a unit's state or place.
    fn state_words(&self, b: &Battle, e: &Event) -> Option<String> {
        let name = |id: &UnitId| b.name_of(id);
        Some(match e {
            Event::Halted { unit, why } => format!("{} is halted ({why})", name(unit)),
            Event::Losses {
                unit, figures, why, ..
            } => format!("{} loses {figures} base(s) to {why}", name(unit)),
            Event::Hit { unit, .. } => format!("{} is reduced", name(unit)),
            Event::Recoiled {
                unit,
                voluntary: true,
                from,
                to,
            } => format!(
                "{} moves {:.1}\"",
                name(unit),
                b.scale.from_mm(from.centre.dist(to.centre))
            ),
            Event::Recoiled { unit, from, to, .. } => format!(
                "{} retires {:.1}\"",
                name(unit),
                b.scale.from_mm(from.centre.dist(to.centre))
            ),
            Event::Deployed { unit, .. } => format!("{} returns to his troops", name(unit)),
            Event::Disordered { unit, why } => format!("{} is disrupted ({why})", name(unit)),
            Event::Steadied { unit } => format!("{} rallies", name(unit)),
            Event::Supply {
                unit, ammo, why, ..
            } => match ammo {
                crate::rules::model::Ammo::Low => {
                    format!("{} is low on ammunition ({why})", name(unit))
                }
                _ => format!("{} recovers its ammunition ({why})", name(unit)),
            },
            Event::Reformed {
                unit,
                formation,
                cost,
                from,
                to,
            } if *cost > 0.0 => {
                if from == to {
                    // Limbering or unlimbering: its own event says which.
                    format!("{}: {cost:.0}\" of its move used", name(unit))
                } else if b.unit(unit).is_ok_and(|u| self.is_artillery(u)) {
                    format!(
                        "{} pivots {:.0} degrees ({cost:.0}\")",
                        name(unit),
                        crate::rules::geometry::norm_deg(to.facing - from.facing)
                    )
                } else {
                    format!(
                        "{} changes to {} ({cost:.0}\")",
                        name(unit),
                        crate::rules::model::Formation::name(*formation)
                    )
                }
            }
            Event::Reformed { unit, .. } => format!("{} closes up", name(unit)),
            Event::Moved {
                unit,
                distance,
                allowance,
                going,
                contact,
                manoeuvre: None,
                ..
            } => format!(
                "{} moves {going}{}: it counts {distance:.1}\" of the {allowance:.1}\" it had",
                name(unit),
                contact
                    .as_ref()
                    .map(|c| format!(" into contact with {}", name(c)))
                    .unwrap_or_default()
            ),
            _ => return None,
        })
    }

    /// Words for BBB's own events (`BbbEvent`).
    fn own_words(b: &Battle, e: &BbbEvent) -> String {
        let name = |id: &UnitId| b.name_of(id);
        match e {
            BbbEvent::Salvo {
                shooter,
                target,
                roll,
                ..
            } => format!(
                "{} fires at {}{}; 2D6 {:?} = {}: {}",
                name(shooter),
                name(target),
                mods(roll),
                roll.dice,
                roll.total,
                roll.outcome
            ),
            BbbEvent::Silenced {
                unit,
                silenced,
                why,
            } => {
                if *silenced {
                    format!("{} is silenced ({why})", name(unit))
                } else {
                    format!("{} is no longer silenced ({why})", name(unit))
                }
            }
            BbbEvent::Recovered { unit, stands } => {
                format!("{} recovers a base: {} now", name(unit), stands.len())
            }
        }
    }
}
