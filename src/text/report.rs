//! Events and state in words and in JSON, for the log, the command line and tests.

use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError, factor_sum};
use crate::rules::game::Game;
use crate::rules::model::{Side, UnitId};
use crate::rules::roll::{Roll, factor_list, hits_text, need_text};
use crate::rules::terrain::FeatureKind;
use serde_json::{Value, json};

fn name(b: &Battle, id: &UnitId) -> String {
    b.name_of(id)
}

/// Where the battle stands in its turns, the same way in every ruleset (a turn is both sides'
/// bounds): "Turn 1 of 8 · Prussia's bound".
pub fn turn_line(game: &Game) -> String {
    let b: &Battle = game;
    let side = b
        .sides
        .get(b.active)
        .map(|s| s.name.clone())
        .unwrap_or_else(|| format!("side {}", b.active));
    let acting = game
        .rules
        .turn_words(b)
        .acting
        .unwrap_or_else(|| format!("{side}'s bound"));
    format!("Turn {} of {} · {acting}", b.turn, b.turn_limit)
}

/// A refusal in words a player reads, naming units by their names.
pub fn refusal(b: &Battle, e: &RuleError) -> String {
    e.words(|id| name(b, id))
}

/// One event in words a player reads in the log: the ruleset's own words where it has them
/// (a ruleset's own events have no others: `Ruleset::words` words them).
pub fn describe(game: &Game, e: &Event) -> String {
    let b: &Battle = game;
    game.rules
        .words(b, e)
        .or_else(|| roll_words(b, e))
        .or_else(|| move_words(b, e))
        .unwrap_or_else(|| other_words(b, e))
}

/// Rolls in words: every die, factor and total.
fn roll_words(b: &Battle, e: &Event) -> Option<String> {
    let u = |id: &UnitId| name(b, id);
    Some(match e {
        Event::Volley {
            shooter,
            target,
            stands,
            dice,
            factors,
            need,
            hits,
            ..
        } => format!(
            "{} shoots at {}: {} stand{}, {} {} needing {}{}: {dice:?}, {}",
            u(shooter),
            u(target),
            stands,
            if *stands == 1 { "" } else { "s" },
            dice.len(),
            if dice.len() == 1 { "die" } else { "dice" },
            need_text(*need as i32, 6),
            factor_list(factors),
            hits_text(*hits)
        ),
        _ => return None,
    })
}

/// Moves, recoils, flight and pursuit in words.
fn move_words(b: &Battle, e: &Event) -> Option<String> {
    let u = |id: &UnitId| name(b, id);
    Some(match e {
        Event::Moved {
            unit,
            distance,
            allowance,
            going,
            contact,
            manoeuvre,
            ..
        } => {
            let c = contact
                .as_ref()
                .map(|c| format!(" into contact with {}", u(c)))
                .unwrap_or_default();
            let p = b.scale.unit.precision();
            if let Some(m) = manoeuvre {
                // Not measured: what it was, with no allowance to compare.
                format!("{} {m}{c}", u(unit))
            } else if *allowance <= 0.0 && *distance <= 0.0 {
                // Carried along (a general or regimental gun with its unit).
                format!("{} moves {going}{c}", u(unit))
            } else {
                format!(
                    "{} moves {:.p$} of {:.p$} {} in {going}{c}",
                    u(unit),
                    distance,
                    allowance,
                    b.scale.unit
                )
            }
        }
        Event::Recoiled {
            unit,
            from,
            to,
            voluntary,
        } => {
            let d = b.scale.from_mm(from.centre.dist(to.centre));
            let verb = if *voluntary { "falls back" } else { "recoils" };
            let p = b.scale.unit.precision();
            format!("{} {verb} {d:.p$} {}", u(unit), b.scale.unit)
        }
        Event::StandsOverrun { unit, stands, by } => format!(
            "{} overruns {} skirmish stand(s) of {}",
            u(by),
            stands.len(),
            u(unit)
        ),
        Event::Fled { unit, .. } => format!("{} flees", u(unit)),
        Event::Pursued {
            unit, continuing, ..
        } => match continuing {
            Some(c) => format!("{} pursues into continuing combat with {}", u(unit), u(c)),
            None => format!("{} pursues", u(unit)),
        },
        _ => return None,
    })
}

/// Every other event in words.
fn other_words(b: &Battle, e: &Event) -> String {
    if let Event::Rolled { what, roll } = e {
        return rolled_words(b, what, roll);
    }
    battle_words(b, e)
        .or_else(|| unit_words(b, e))
        .unwrap_or_default()
}

/// A side's name ("side 2" for one the scenario does not name).
fn side_name(b: &Battle, s: usize) -> String {
    b.sides
        .get(s)
        .map(|x| x.name.clone())
        .unwrap_or_else(|| format!("side {s}"))
}

/// The course of the battle: phases, an army breaking, the end, an undo.
fn battle_words(b: &Battle, e: &Event) -> Option<String> {
    let side = |s: usize| side_name(b, s);
    Some(match e {
        Event::PhaseBegan {
            turn,
            phase,
            side: s,
        } => format!("Turn {turn}: {} {} phase", side(*s), phase.name()),
        Event::ArmyBroken {
            side: s,
            losses,
            of,
        } => format!(
            "{} breaks: its losses ({losses}) have reached its break point ({of})",
            side(*s)
        ),
        Event::GameOver { winner, reason, .. } => match winner {
            Some(w) => format!("{} wins: {reason}", side(*w)),
            None => format!("Drawn battle: {reason}"),
        },
        Event::Undone { events } => format!("undone ({events} events)"),
        Event::ObjectiveHeld { objective, side: s } => format!(
            "{} now holds {}",
            b.sides.get(*s).map_or("?", |x| x.name.as_str()),
            b.victory
                .objectives
                .get(*objective)
                .map_or("an objective", |o| o.name.as_str())
        ),
        Event::ConditionMet { condition, .. } => format!("Condition met: {condition}"),
        Event::Exited { unit, edge } => {
            format!(
                "{} leaves the table by the {} edge",
                name(b, unit),
                edge.name()
            )
        }
        _ => return None,
    })
}

/// What befalls a unit outside the rolls: deploying, limbering, hits and losses, its
/// formation and order.
fn unit_words(b: &Battle, e: &Event) -> Option<String> {
    let u = |id: &UnitId| name(b, id);
    Some(match e {
        Event::Deployed { unit, .. } => format!("{} deploys", u(unit)),
        Event::Limbered { unit } => format!("{} limbers", u(unit)),
        Event::Unlimbered { unit } => format!("{} unlimbers", u(unit)),
        Event::Hit { unit, hits, total } => {
            format!("{} takes {hits} hit(s), {total} in all", u(unit))
        }
        Event::Shaken { unit } => format!("{} is shaken", u(unit)),
        Event::Destroyed { unit, reason } => format!("{} is destroyed ({reason})", u(unit)),
        Event::Losses {
            unit,
            figures,
            stands,
            why,
        } => format!(
            "{} loses {} figure{} ({why}): {} left",
            u(unit),
            figures,
            if *figures == 1 { "" } else { "s" },
            stands.iter().sum::<u32>()
        ),
        Event::Reformed {
            unit,
            formation,
            cost,
            ..
        } => {
            if *cost > 0.0 {
                format!("{} forms {}", u(unit), formation.name())
            } else {
                format!("{} closes up its ranks", u(unit))
            }
        }
        Event::Disordered { unit, why } => format!("{} is disordered ({why})", u(unit)),
        Event::Steadied { unit } => format!("{} reforms: no longer disordered", u(unit)),
        Event::Rallied { unit } => format!("{} rallies: no longer shaken", u(unit)),
        Event::PursuitOrdered { unit, pursue } => format!(
            "{} is ordered to {} if victorious",
            u(unit),
            if *pursue { "pursue" } else { "hold its ground" }
        ),
        _ => return None,
    })
}

/// A roll of a kind no other event records: who threw what for it, and what came of it.
fn rolled_words(b: &Battle, what: &str, roll: &Roll) -> String {
    let side = |s: usize| side_name(b, s);
    let u = |id: &UnitId| name(b, id);
    let who = match (&roll.unit, roll.side) {
        (Some(id), _) => u(id),
        (None, Some(s)) => side(s),
        _ => String::new(),
    };
    let against = match (roll.against, roll.need) {
        (Some(a), _) => format!(" against {a}"),
        // A need a die can show is each die's; a greater one is the total of all the
        // dice thrown (2D6 runs to 12).
        (None, Some(n)) => format!(
            ", needs {}",
            need_text(
                n,
                if n > 6 {
                    6 * roll.dice.len().max(1) as i32
                } else {
                    6
                }
            )
        ),
        _ => String::new(),
    };
    format!(
        "{who} rolls {:?} for {what}{} = {}{against}: {}",
        roll.dice,
        factor_list(&roll.factors),
        roll.total,
        roll.outcome
    )
}

/// The units an event concerns (for highlighting from the log).
pub fn event_units(e: &Event) -> Vec<UnitId> {
    let v = serde_json::to_value(e).unwrap_or(Value::Null);
    let mut out = Vec::new();
    if let Value::Object(m) = v {
        for key in [
            "unit",
            "shooter",
            "target",
            "attacker",
            "defender",
            "by",
            "destroyed",
            "contact",
            "continuing",
            "general",
        ] {
            if let Some(Value::String(s)) = m.get(key) {
                out.push(UnitId::from(s.as_str()));
            }
        }
    }
    out
}

/// The rolls an event records, each in the one shape every ruleset shares.
pub fn rolls(e: &Event) -> Vec<Roll> {
    match e {
        Event::Volley {
            shooter,
            dice,
            factors,
            need,
            hits,
            ..
        } => vec![Roll {
            need: Some(*need as i32),
            outcome: hits_text(*hits),
            ..Roll::of_unit(shooter, dice.clone(), factors, factor_sum(factors))
        }],
        Event::Rolled { roll, .. } | Event::Ordered { roll, .. } => vec![roll.clone()],
        Event::Assault {
            attacker_roll,
            defender_roll,
            difference,
            outcome,
            ..
        } => assault_rolls(attacker_roll, defender_roll, *difference, outcome),
        Event::Own(own) => own.rolls(),
        _ => Vec::new(),
    }
}

/// Both sides' rolls of an assault, each against the other's total, with the difference as
/// its side sees it.
fn assault_rolls(attacker: &Roll, defender: &Roll, difference: i32, outcome: &str) -> Vec<Roll> {
    vec![
        Roll {
            against: Some(defender.total),
            outcome: format!("difference {difference:+}: {outcome}"),
            ..attacker.clone()
        },
        Roll {
            against: Some(attacker.total),
            outcome: format!("difference {:+}: {outcome}", -difference),
            ..defender.clone()
        },
    ]
}

/// An event as JSON with its words and its rolls attached.
pub fn event_json(game: &Game, e: &Event) -> Value {
    let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.insert("text".into(), Value::String(describe(game, e)));
        let rolls = rolls(e);
        if !rolls.is_empty() {
            m.insert(
                "rolls".into(),
                serde_json::to_value(rolls).unwrap_or(Value::Null),
            );
        }
    }
    v
}

/// How `--json` writes an ammunition state.
fn ammunition_word(a: crate::rules::model::Ammo) -> &'static str {
    match a {
        crate::rules::model::Ammo::Full => "full",
        crate::rules::model::Ammo::Low => "low",
        crate::rules::model::Ammo::Out => "out",
    }
}

/// Every unit and its status.
pub fn units_json(game: &Game) -> Value {
    let b: &Battle = game;
    let rs = game.rules.get();
    Value::Array(
        b.units
            .iter()
            .map(|u| {
                let state = rs.state_of(u);
                json!({
                    "id": u.id.0, "name": u.name, "side": u.side, "type": u.troop, "class": u.class,
                    "position_mm": [u.base.centre.x, u.base.centre.y], "facing": u.base.facing,
                    "width_mm": u.base.width, "depth_mm": u.base.depth,
                    "hits": u.status.hits, "stands": u.stands.len(), "figures": u.figures(),
                    "stand_figures": u.stands.iter().map(|s| s.figures).collect::<Vec<_>>(),
                    "formation": u.formation,
                    // Each state in the unit's ruleset's words (`Ruleset::state_of`): a
                    // routed Hal's unit is routed, not shaken; BBB's disruption is disrupted.
                    "shaken": state.shaken, "disordered": state.disordered,
                    "disrupted": state.disrupted, "routed": state.routed,
                    "disorganised": state.disorganised, "silenced": state.silenced,
                    "spent": state.spent, "ammunition": ammunition_word(state.ammunition),
                    "packs": state.packs, "volley_fired": state.volley_fired,
                    "moved": state.moved, "figures_lost": state.figures_lost,
                    "bases_lost": state.bases_lost,
                    "hold_ground": u.status.hold_ground,
                    "limbered": u.status.limbered,
                    "garrison": b.terrain.at(u.base.centre, &[FeatureKind::Town, FeatureKind::Village]).any(|f| f.fortified), "removed": u.status.removed, "undeployed": u.status.undeployed,
                })
            })
            .collect(),
    )
}

/// How the battle ended, if it has: the winner (None: neither side) and why.
pub fn outcome(b: &Battle) -> Option<(Option<Side>, &str)> {
    b.log.iter().rev().find_map(|e| match e {
        Event::GameOver { winner, reason, .. } => Some((*winner, reason.as_str())),
        _ => None,
    })
}

/// How the battle was decided, once it is over: the winner (null: a draw), the reason, how it
/// was decided (`Ending`), the turn it ended in and the scenario's conditions met.
fn result_json(b: &Battle) -> Option<Value> {
    let (winner, reason, by) = b.log.iter().rev().find_map(|e| match e {
        Event::GameOver { winner, reason, by } => Some((*winner, reason.as_str(), *by)),
        _ => None,
    })?;
    let met: Vec<&str> = b
        .log
        .iter()
        .filter_map(|e| match e {
            Event::ConditionMet { condition, .. } => Some(condition.as_str()),
            _ => None,
        })
        .collect();
    Some(json!({
        "winner": winner,
        "reason": reason,
        "by": by,
        "turn": b.turn,
        "conditions": met,
    }))
}

/// The whole result of a run: where the battle stands, the events and the units.
pub fn run_json(game: &Game, events: &[Event], error: Option<String>) -> Value {
    let b: &Battle = game;
    let rs = game.rules.get();
    let winner = result_json(b);
    json!({
        "ruleset": rs.id(),
        "scenario": b.info.name,
        "turn": b.turn,
        "phase": b.phase,
        "active_side": b.active,
        "command_points": b.command_points,
        "events": events.iter().map(|e| event_json(game, e)).collect::<Vec<_>>(),
        "units": units_json(game),
        "result": winner,
        "error": error,
    })
}

/// What a roll came to, in a few words (the caption of the last roll): the words of a roll end
/// with its result, after its scores.
pub fn roll_result(game: &Game, e: &Event) -> String {
    describe(game, e)
        .rsplit(". ")
        .next()
        .unwrap_or("")
        .to_string()
}

/// What the roll at `at` in the log came to in the end, in the log's words: the units destroyed
/// or shaken after it, before the next roll or phase (a unit beaten that could not recoil is
/// destroyed).
pub fn roll_aftermath(game: &Game, at: usize) -> Vec<String> {
    let b: &Battle = game;
    b.log
        .iter()
        .skip(at + 1)
        .take_while(|e| rolls(e).is_empty() && !matches!(e, Event::PhaseBegan { .. }))
        .filter(|e| matches!(e, Event::Destroyed { .. } | Event::Shaken { .. }))
        .map(|e| format!("Then {}", describe(game, e)))
        .collect()
}
