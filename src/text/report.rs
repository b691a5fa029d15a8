//! Events and state in words and in JSON, for the log, the command line and tests.

use crate::rules::battle::Battle;
use crate::rules::command::{Effect, Event, Factor, RuleError, Score, Verdict, factor_sum};
use crate::rules::game::Game;
use crate::rules::model::{Side, UnitId};
use crate::rules::ruleset::Roll;
use crate::rules::terrain::FeatureKind;
use serde_json::{Value, json};

fn name(b: &Battle, id: &UnitId) -> String {
    b.name_of(id)
}

fn effect_text(e: &Effect) -> String {
    match e {
        Effect::NoEffect => "no effect".into(),
        Effect::Hits(1) => "1 hit".into(),
        Effect::Hits(n) => format!("{n} hits"),
        Effect::Recoil => "recoils".into(),
        Effect::HitAndRecoil => "1 hit and recoils".into(),
        Effect::Flee { hits } => format!("{hits} hit and flees"),
        Effect::Destroyed => "destroyed".into(),
    }
}

fn verdict_text(v: Verdict) -> &'static str {
    match v {
        Verdict::Draw => "draw",
        Verdict::Outscored => "outscored",
        Verdict::Beaten => "beaten",
        Verdict::BeatenByDouble => "beaten by double",
    }
}

fn score_text(b: &Battle, s: &Score) -> String {
    format!("{}: {}", name(b, &s.unit), s.explain())
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

/// One event in words a player reads in the log: the ruleset's own words where it has them.
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
    let side = |s: usize| {
        b.sides
            .get(s)
            .map(|x| x.name.clone())
            .unwrap_or_else(|| format!("side {s}"))
    };
    let u = |id: &UnitId| name(b, id);
    Some(match e {
        Event::CommandRoll {
            side: s,
            dice,
            factors,
            total,
            divisions,
        } => {
            let fs: String = factors
                .iter()
                .map(|f| format!(", {:+} {}", f.value, f.name))
                .collect();
            format!(
                "{} rolls {:?} for command{fs}: {total} command points{}",
                side(*s),
                dice,
                division_words(divisions)
            )
        }
        Event::Fire {
            shooter,
            target,
            shooter_score,
            target_score,
            loser,
            verdict,
            stoic,
            effect,
            ..
        } => {
            let res = match loser {
                Some(l) => format!(
                    "{} {}: {}",
                    u(l),
                    verdict_text(*verdict),
                    effect_text(effect)
                ),
                None if *stoic => "stoic: the result becomes a draw".into(),
                None if *verdict == Verdict::Outscored => {
                    "outscored by the target: no effect".into()
                }
                None => "no effect".into(),
            };
            format!(
                "{} fires at {}. {} against {}. {res}",
                u(shooter),
                u(target),
                score_text(b, shooter_score),
                score_text(b, target_score)
            )
        }
        Event::CloseCombat {
            attacker,
            defender,
            attacker_score,
            defender_score,
            loser,
            verdict,
            stoic,
            attacker_effect,
            defender_effect,
        } => {
            let res = match loser {
                Some(l) => {
                    let eff = if l == attacker {
                        attacker_effect
                    } else {
                        defender_effect
                    };
                    format!("{} {}: {}", u(l), verdict_text(*verdict), effect_text(eff))
                }
                None => format!(
                    "{}draw: {} {}, {} {}",
                    if *stoic { "stoic, " } else { "" },
                    u(attacker),
                    effect_text(attacker_effect),
                    u(defender),
                    effect_text(defender_effect)
                ),
            };
            format!(
                "{} fights {}. {} against {}. {res}",
                u(attacker),
                u(defender),
                score_text(b, attacker_score),
                score_text(b, defender_score)
            )
        }
        Event::RoutingTest {
            unit,
            destroyed,
            die,
            factors,
            total,
            need,
            hit,
        } => {
            let fs: String = factors
                .iter()
                .map(|f| format!(" {:+} {}", f.value, f.name))
                .collect();
            format!(
                "{} tests for the rout of {}: die {die}{fs} = {total}, needs {need}: {}",
                u(unit),
                u(destroyed),
                if *hit { "1 hit" } else { "holds" }
            )
        }
        _ => return figure_roll_words(b, e),
    })
}

/// Figure rulesets' rolls in words: volleys, tests and rounds of combat.
fn figure_roll_words(b: &Battle, e: &Event) -> Option<String> {
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
        Event::Test {
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
        Event::Melee { strikes } => {
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
        Event::StandMoved {
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

/// The course of the battle: phases, deployment, command points, ground taken or fortified,
/// the objective, an army breaking, the end, an undo.
fn battle_words(b: &Battle, e: &Event) -> Option<String> {
    let side = |s: usize| side_name(b, s);
    let u = |id: &UnitId| name(b, id);
    Some(match e {
        Event::PhaseBegan {
            turn,
            phase,
            side: s,
        } => format!("Turn {turn}: {} {} phase", side(*s), phase.name()),
        Event::DeploymentStep { side: s, division } => {
            format!("{} has deployed its {:?} division", side(*s), division)
        }
        Event::CommandPointsSpent {
            amount,
            left,
            reason,
            division: None,
            ..
        } => format!("{amount} command point(s) to {reason}, {left} left"),
        Event::CommandPointsSpent {
            amount,
            left,
            reason,
            division: Some(d),
            ..
        } => format!(
            "{amount} of the {} division's own command point(s) to {reason}, {left} left to it",
            d.name()
        ),
        Event::Captured { feature, by } => format!(
            "{} captures {}: it is no longer fortified",
            u(by),
            b.terrain
                .get(feature)
                .map(|f| f.name.clone())
                .unwrap_or(feature.clone())
        ),
        Event::Fortified { feature } => format!(
            "{} is fortified",
            b.terrain
                .get(feature)
                .map(|f| f.name.clone())
                .unwrap_or(feature.clone())
        ),
        Event::ObjectiveTaken { side: s, by } => {
            format!("{} takes the objective with {}", side(*s), u(by))
        }
        Event::ArmyBroken {
            side: s,
            losses,
            of,
        } => format!(
            "{} breaks: its losses ({losses}) have reached its break point ({of})",
            side(*s)
        ),
        Event::GameOver { winner, reason } => match winner {
            Some(w) => format!("{} wins: {reason}", side(*w)),
            None => format!("Drawn battle: {reason}"),
        },
        Event::Undone { events } => format!("undone ({events} events)"),
        _ => return None,
    })
}

/// What befalls a unit outside the rolls: deploying, limbering, hits and losses, its
/// formation and order, its general.
fn unit_words(b: &Battle, e: &Event) -> Option<String> {
    let u = |id: &UnitId| name(b, id);
    Some(match e {
        Event::Deployed { unit, .. } => format!("{} deploys", u(unit)),
        Event::Limbered { unit } => format!("{} limbers", u(unit)),
        Event::Unlimbered { unit } => format!("{} unlimbers", u(unit)),
        Event::UnlimberedTo {
            unit, formation, ..
        } => format!("{} unlimbers in {}", u(unit), formation.name()),
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
        Event::Attached { general, unit } => match unit {
            Some(x) => format!("{} attaches to {}", u(general), u(x)),
            None => format!("{} detaches", u(general)),
        },
        Event::StandsPlaced { unit, why, .. } => format!("{} {why}", u(unit)),
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

fn factor_list(factors: &[Factor]) -> String {
    if factors.is_empty() {
        return String::new();
    }
    let fs: Vec<String> = factors
        .iter()
        .map(|f| format!("{:+} {}", f.value, f.name))
        .collect();
    format!(" ({})", fs.join(", "))
}

fn hits_text(h: u32) -> String {
    match h {
        0 => "no hits".into(),
        1 => "1 hit".into(),
        n => format!("{n} hits"),
    }
}

/// What a roll needs, in words, where `most` is the highest the dice can throw (6 for one D6,
/// 12 for 2D6).
fn need_text(need: i32, most: i32) -> String {
    if need <= 1 {
        "any roll".into()
    } else if need > most {
        format!("more than {most}")
    } else if need == most {
        format!("{most}")
    } else {
        format!("{need}-{most}")
    }
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
        Event::Fire {
            shooter_score,
            target_score,
            loser,
            verdict,
            ..
        } => opposed_rolls(shooter_score, target_score, loser, *verdict),
        Event::CloseCombat {
            attacker_score,
            defender_score,
            loser,
            verdict,
            ..
        } => opposed_rolls(attacker_score, defender_score, loser, *verdict),
        Event::CommandRoll {
            side,
            dice,
            factors,
            total,
            divisions,
        } => vec![Roll {
            unit: None,
            side: Some(*side),
            dice: dice.clone(),
            factors: factors.clone(),
            total: *total,
            against: None,
            need: None,
            outcome: format!("{total} command points{}", division_words(divisions)),
            first_die: None,
            dice_at: Vec::new(),
        }],
        Event::RoutingTest {
            unit,
            die,
            factors,
            total,
            need,
            hit,
            ..
        } => vec![Roll {
            need: Some(*need),
            outcome: if *hit { "1 hit" } else { "holds" }.into(),
            ..unit_roll(unit, vec![*die], factors, *total)
        }],
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
            ..unit_roll(shooter, dice.clone(), factors, factor_sum(factors))
        }],
        Event::Test {
            unit,
            die,
            factors,
            need,
            passed,
            ..
        } => vec![Roll {
            need: Some(*need),
            outcome: if *passed { "passes" } else { "fails" }.into(),
            ..unit_roll(unit, vec![*die], factors, *die as i32 + factor_sum(factors))
        }],
        Event::Rolled { roll, .. } | Event::Ordered { roll, .. } | Event::Salvo { roll, .. } => {
            vec![roll.clone()]
        }
        Event::Assault {
            attacker_roll,
            defender_roll,
            difference,
            outcome,
            ..
        } => assault_rolls(attacker_roll, defender_roll, *difference, outcome),
        Event::Melee { strikes } => strikes
            .iter()
            .map(|s| Roll {
                against: Some(s.enemy_points),
                need: Some(s.need as i32),
                outcome: hits_text(s.hits),
                ..unit_roll(&s.unit, s.dice.clone(), &s.factors, s.points)
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// One unit's roll: its dice, factors and total, with nothing against it yet.
fn unit_roll(unit: &UnitId, dice: Vec<u8>, factors: &[Factor], total: i32) -> Roll {
    Roll {
        unit: Some(unit.clone()),
        side: None,
        dice,
        factors: factors.to_vec(),
        total,
        against: None,
        need: None,
        outcome: String::new(),
        first_die: None,
        dice_at: Vec::new(),
    }
}

/// Both sides' rolls of an opposed roll (fire, close combat), each against the other's total,
/// with its outcome for that side.
fn opposed_rolls(a: &Score, d: &Score, loser: &Option<UnitId>, verdict: Verdict) -> Vec<Roll> {
    [(a, d), (d, a)]
        .into_iter()
        .map(|(s, o)| Roll {
            against: Some(o.total),
            outcome: match loser {
                Some(l) if *l == s.unit => verdict_text(verdict).to_string(),
                Some(_) => "wins".into(),
                None if verdict == Verdict::Outscored && s.unit == a.unit => {
                    "outscored: no effect".into()
                }
                None if verdict == Verdict::Outscored => "outscores the firer".into(),
                None => "draw".into(),
            },
            ..unit_roll(&s.unit, vec![s.die], &s.factors, s.total)
        })
        .collect()
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
        Event::GameOver { winner, reason } => Some((*winner, reason.as_str())),
        _ => None,
    })
}

/// The whole result of a run: where the battle stands, the events and the units.
pub fn run_json(game: &Game, events: &[Event], error: Option<String>) -> Value {
    let b: &Battle = game;
    let rs = game.rules.get();
    let winner = outcome(b).map(|(winner, reason)| json!({"winner": winner, "reason": reason}));
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

/// A command roll's points that only divisions may use: "; the Left division's DSC adds 2 of
/// its own".
fn division_words(divisions: &[(crate::rules::model::Division, i32)]) -> String {
    divisions
        .iter()
        .map(|(d, n)| format!("; the {} division's DSC adds {n} of its own", d.name()))
        .collect()
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

#[cfg(test)]
mod tests {
    use super::need_text;

    #[test]
    fn a_need_reads_against_the_dice_thrown() {
        // 2D6 throws up to 12: needing 11 is "11-12", not "more than 6".
        assert_eq!(need_text(11, 12), "11-12");
        assert_eq!(need_text(12, 12), "12");
        assert_eq!(need_text(13, 12), "more than 12");
        assert_eq!(need_text(7, 6), "more than 6");
        assert_eq!(need_text(4, 6), "4-6");
        assert_eq!(need_text(6, 6), "6");
        assert_eq!(need_text(1, 12), "any roll");
    }
}
