//! The log's words for Hal's events.

use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor};
use crate::rules::model::{Side, UnitId};
use crate::rules::roll::Roll;
use crate::rules::ruleset::hal25::rolls::{self, HalRoll, MoraleCheck};
use crate::rules::ruleset::hal25::{Hal25, HalEvent, Marker};
use crate::rules::tagged::Tagged;

/// A roll's factors in the log's words: " +1 Elite, -1 Disordered".
fn modifiers(fs: &[Factor]) -> String {
    fs.iter()
        .map(|f| format!(" {:+} {}", f.value, f.name))
        .collect::<Vec<_>>()
        .join(",")
}

/// The morale check a roll was, if it was one.
fn morale_check(what: &Tagged) -> Option<MoraleCheck> {
    match rolls::kind(what)? {
        HalRoll::Morale { check, .. } => Some(check),
        _ => None,
    }
}

impl Hal25 {
    pub(super) fn event_words(&self, b: &Battle, e: &Event) -> Option<String> {
        let name = |id: &UnitId| b.name_of(id);
        if let Some(own) = e.own::<HalEvent>() {
            return Some(Self::own_words(b, own));
        }
        if let Event::Rolled { what, roll } = e
            && let Some(words) = Self::rolled_words(b, what, roll)
        {
            return Some(words);
        }
        Some(match e {
            Event::Ordered { unit, roll, .. } => format!(
                "{} changes formation: throws {:?}{} = {}",
                name(unit),
                roll.dice,
                modifiers(&roll.factors),
                roll.outcome
            ),
            Event::Rerolled {
                by,
                unit,
                die,
                chips,
            } => format!(
                "{} spends a chip ({chips} left) to throw {}'s {die} again",
                name(by),
                name(unit)
            ),
            _ => return self.more_event_words(b, e),
        })
    }

    /// The log's words for Hal's own events (`HalEvent`).
    fn own_words(b: &Battle, e: &HalEvent) -> String {
        let name = |id: &UnitId| b.name_of(id);
        let side = |s: Side| {
            b.sides
                .get(s)
                .map_or(format!("side {s}"), |x| x.name.clone())
        };
        match e {
            HalEvent::Initiative {
                dice,
                side: s,
                brigades,
            } => match (s, dice.len()) {
                (Some(s), 2) => format!(
                    "Both sides throw for the move: {} against {}: {} moves {brigades} brigade{}",
                    dice[0],
                    dice[1],
                    side(*s),
                    if *brigades == 1 { "" } else { "s" }
                ),
                (Some(s), _) => format!("{} moves its last {brigades} brigade(s)", side(*s)),
                (None, _) => format!("Both sides throw for the move: {dice:?}, a tie: throw again"),
            },
            HalEvent::BrigadeActivated { side: s, brigade } => {
                format!("{} sets brigade {brigade} moving", side(*s))
            }
            HalEvent::Chips { general, roll, .. } => format!(
                "{} throws {:?}{} for chips: {}",
                name(general),
                roll.dice,
                modifiers(&roll.factors),
                roll.outcome
            ),
            HalEvent::Orders {
                courier,
                brigade,
                order,
                delivered,
                lost,
            } => match (delivered, lost) {
                (true, _) => format!(
                    "{} delivers to brigade {brigade}: \"{order}\"",
                    name(courier)
                ),
                (_, true) => format!("{}'s message to brigade {brigade} is lost", name(courier)),
                _ => format!(
                    "{} rides with orders for brigade {brigade}: \"{order}\"",
                    name(courier)
                ),
            },
            HalEvent::Declared { unit, target } => {
                format!("{} declares a charge on {}", name(unit), name(target))
            }
            HalEvent::Braced {
                unit,
                against,
                range,
            } => match range {
                Some(r) => format!(
                    "{} holds and will fire into {}'s charge at {r:.0}\"",
                    name(unit),
                    name(against)
                ),
                None => format!("{} holds against {}", name(unit), name(against)),
            },
            HalEvent::Marked {
                unit,
                marker,
                count,
            } => match (marker, *count > 0) {
                (Marker::MustCheck, true) => format!("{} must check morale", name(unit)),
                (Marker::MustCheck, false) => format!("{} takes its check", name(unit)),
                (Marker::VolleySpent, _) => format!(
                    "{} has spent its first volley: the command stand moves to the middle",
                    name(unit)
                ),
                (Marker::RecoveryFailed, true) => {
                    format!("{} fails to recover from rout: one chance left", name(unit))
                }
                (Marker::RecoveryFailed, false) => format!(
                    "{}'s failed attempt to recover is cleared: it has recovered",
                    name(unit)
                ),
                (Marker::CheckedStrength, _) => {
                    format!("{} has made its one check for strength", name(unit))
                }
                (Marker::Declaration, _) => {
                    format!("{}'s charge declaration lapses", name(unit))
                }
            },
            HalEvent::TownDamaged {
                feature,
                points,
                left,
            } => format!(
                "{} loses {points} point{} to the guns: {left} left{}",
                b.terrain
                    .get(feature)
                    .map_or(feature.clone(), |f| f.name.clone()),
                if *points == 1 { "" } else { "s" },
                if *left == 0 { ": it is in flames" } else { "" }
            ),
        }
    }

    /// The log's words for a morale check, and for a 2D6 roll that needs more than a die can
    /// show; None for another roll.
    fn rolled_words(b: &Battle, what: &Tagged, roll: &Roll) -> Option<String> {
        let name = |id: &UnitId| b.name_of(id);
        Some(match () {
            _ if morale_check(what).is_some() => format!(
                "{} checks morale ({}): number{} = {}; throws {:?}{} = {}: {}",
                roll.unit.as_ref().map(name).unwrap_or_default(),
                morale_check(what).map_or("", MoraleCheck::words),
                modifiers(&roll.factors),
                roll.need.unwrap_or(0),
                roll.dice,
                roll.against
                    .map_or(String::new(), |x| format!(" {x:+} command control")),
                roll.total,
                roll.outcome
            ),
            // A 2D6 roll that needs more than a die can show (11-12 to knock a gun out, 12
            // to fell an officer): the need in its own words.
            _ if roll.need.is_some_and(|n| n > 6) => format!(
                "{} rolls {:?} for {what}{} = {}, needs {}: {}",
                roll.unit.as_ref().map(name).unwrap_or_default(),
                roll.dice,
                if roll.factors.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", modifiers(&roll.factors).trim_start())
                },
                roll.total,
                match roll.need.unwrap_or(0) {
                    12 => "12".to_string(),
                    n => format!("{n}-12"),
                },
                roll.outcome
            ),
            _ => return None,
        })
    }

    /// The log's words for the events `event_words` leaves: moves and morale, volleys and
    /// melees.
    fn more_event_words(&self, b: &Battle, e: &Event) -> Option<String> {
        let name = |id: &UnitId| b.name_of(id);
        Some(match e {
            Event::Shaken { unit } => format!("{} routs", name(unit)),
            Event::PhaseBegan { turn, phase, .. } => format!("Turn {turn}: {}", phase.name()),
            Event::Fled { unit, from, to } => format!(
                "{} runs {:.1}\"",
                name(unit),
                b.scale.from_mm(from.centre.dist(to.centre))
            ),
            Event::Recoiled { unit, from, to, .. } => format!(
                "{} falls back {:.1}\"",
                name(unit),
                b.scale.from_mm(from.centre.dist(to.centre))
            ),
            Event::Rallied { unit } => format!("{} recovers from rout", name(unit)),
            Event::Steadied { unit } => format!("{} recovers its good order", name(unit)),
            Event::Disordered { unit, why } => format!("{} is disorganised ({why})", name(unit)),
            Event::Halted { unit, why } => format!("{}: {why}", name(unit)),
            Event::Volley {
                shooter,
                target,
                dice,
                factors,
                hits,
                stands,
                ..
            } => format!(
                "{} fires at {} with {stands} {}: {dice:?},{} = {hits} hit{}",
                name(shooter),
                name(target),
                if b.unit(shooter).is_ok_and(|s| self.is_artillery(s)) {
                    "guns"
                } else {
                    "figures"
                },
                modifiers(factors),
                if *hits == 1 { "" } else { "s" }
            ),
            Event::Assault {
                attacker,
                defender,
                attacker_roll,
                defender_roll,
                outcome,
                ..
            } => format!(
                "Melee: {} throws {:?}{} (total {}), {} throws {:?}{} (total {}): {outcome}",
                name(attacker),
                attacker_roll.dice,
                modifiers(&attacker_roll.factors),
                attacker_roll.total,
                name(defender),
                defender_roll.dice,
                modifiers(&defender_roll.factors),
                defender_roll.total,
            ),
            _ => return None,
        })
    }
}
