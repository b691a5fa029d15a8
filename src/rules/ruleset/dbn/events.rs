//! The DBN family's own events (DB7YW and DBFPW): formal deployment, the command roll and its
//! points, towns fortified and captured, the opposed rolls of fire and close combat, the
//! routing test and the objective. The shared events are `rules::command::Event`; these join
//! the log through `Event::Own` (see `ruleset::common::RulesetEvent`).

use crate::rules::battle::Battle;
use crate::rules::command::{Effect, Factor, Score, Verdict};
use crate::rules::model::{Division, Side, UnitId};
use crate::rules::own_event::OwnEventType;
use crate::rules::roll::Roll;
use crate::rules::ruleset::common::RulesetEvent;
use serde::{Deserialize, Serialize};

/// Something that happened that only the DBN rules make happen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum DbnEvent {
    DeploymentStep {
        side: Side,
        division: Division,
    },
    CommandRoll {
        side: Side,
        dice: Vec<u8>,
        factors: Vec<Factor>,
        total: i32,
        /// Command points that only one division's units may use (DBFPW's DSCs).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        divisions: Vec<(Division, i32)>,
    },
    CommandPointsSpent {
        side: Side,
        amount: i32,
        left: i32,
        reason: String,
        /// Paid from this division's own points rather than the side's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        division: Option<Division>,
    },
    Fortified {
        feature: String,
    },
    /// The enemy took a fortified town or village: it loses its fortification.
    Captured {
        feature: String,
        by: UnitId,
    },
    Fire {
        shooter: UnitId,
        target: UnitId,
        support: Vec<UnitId>,
        shooter_score: Score,
        target_score: Score,
        loser: Option<UnitId>,
        verdict: Verdict,
        stoic: bool,
        effect: Effect,
        mutual: bool,
    },
    CloseCombat {
        attacker: UnitId,
        defender: UnitId,
        attacker_score: Score,
        defender_score: Score,
        loser: Option<UnitId>,
        verdict: Verdict,
        stoic: bool,
        attacker_effect: Effect,
        defender_effect: Effect,
    },
    RoutingTest {
        unit: UnitId,
        destroyed: UnitId,
        die: u8,
        factors: Vec<Factor>,
        total: i32,
        need: i32,
        hit: bool,
    },
    ObjectiveTaken {
        side: Side,
        by: UnitId,
    },
}

inventory::submit!(OwnEventType::of::<DbnEvent>());

impl RulesetEvent for DbnEvent {
    fn apply(&self, b: &mut Battle) {
        match self {
            DbnEvent::DeploymentStep { .. } => b.deployment_step += 1,
            DbnEvent::CommandRoll {
                side,
                total,
                divisions,
                ..
            } => {
                b.command_points[*side] = *total;
                b.division_points = divisions.clone();
            }
            DbnEvent::CommandPointsSpent {
                side,
                left,
                division,
                ..
            } => match division {
                Some(d) => {
                    if let Some(p) = b.division_points.iter_mut().find(|p| p.0 == *d) {
                        p.1 = *left;
                    }
                }
                None => b.command_points[*side] = *left,
            },
            DbnEvent::Captured { feature, .. } => fortify(b, feature, false),
            DbnEvent::Fortified { feature } => fortify(b, feature, true),
            DbnEvent::ObjectiveTaken { .. } => {
                if let Some(o) = &mut b.objective {
                    o.taken = true;
                }
            }
            DbnEvent::Fire {
                shooter, support, ..
            } => {
                b.with_unit(shooter, |u| u.bound.fired = true);
                for s in support {
                    b.with_unit(s, |u| u.bound.fired = true);
                }
            }
            DbnEvent::CloseCombat {
                attacker, defender, ..
            } => {
                for id in [attacker, defender] {
                    b.with_unit(id, |u| {
                        u.bound.fought = true;
                        u.status.continuing = false;
                    });
                }
            }
            // A record only: its hit follows as its own event.
            DbnEvent::RoutingTest { .. } => {}
        }
    }

    fn rolls(&self) -> Vec<Roll> {
        match self {
            DbnEvent::Fire {
                shooter_score,
                target_score,
                loser,
                verdict,
                ..
            } => opposed_rolls(shooter_score, target_score, loser, *verdict),
            DbnEvent::CloseCombat {
                attacker_score,
                defender_score,
                loser,
                verdict,
                ..
            } => opposed_rolls(attacker_score, defender_score, loser, *verdict),
            DbnEvent::CommandRoll {
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
            DbnEvent::RoutingTest {
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
                ..Roll::of_unit(unit, vec![*die], factors, *total)
            }],
            _ => Vec::new(),
        }
    }
}

/// A town or village fortified, or no longer.
fn fortify(b: &mut Battle, feature: &str, fortified: bool) {
    if let Some(f) = std::sync::Arc::make_mut(&mut b.terrain.features)
        .iter_mut()
        .find(|f| f.id == feature)
    {
        f.fortified = fortified;
    }
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
    format!("{}: {}", b.name_of(&s.unit), s.explain())
}

/// A side's name ("side 2" for one the scenario does not name).
fn side_name(b: &Battle, s: usize) -> String {
    b.sides
        .get(s)
        .map(|x| x.name.clone())
        .unwrap_or_else(|| format!("side {s}"))
}

/// A town's name as the terrain gives it (its id where it has none).
fn feature_name(b: &Battle, feature: &str) -> String {
    b.terrain
        .get(feature)
        .map_or_else(|| feature.to_string(), |f| f.name.clone())
}

/// A command roll's points that only divisions may use: "; the Left division's DSC adds 2 of
/// its own".
fn division_words(divisions: &[(Division, i32)]) -> String {
    divisions
        .iter()
        .map(|(d, n)| format!("; the {} division's DSC adds {n} of its own", d.name()))
        .collect()
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
            ..Roll::of_unit(&s.unit, vec![s.die], &s.factors, s.total)
        })
        .collect()
}

/// The event in the log's words.
pub(super) fn words(b: &Battle, e: &DbnEvent) -> String {
    let side = |s: usize| side_name(b, s);
    let u = |id: &UnitId| b.name_of(id);
    match e {
        DbnEvent::CommandRoll {
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
        DbnEvent::Fire { .. } | DbnEvent::CloseCombat { .. } => opposed_words(b, e),
        DbnEvent::RoutingTest {
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
        DbnEvent::DeploymentStep { side: s, division } => {
            format!("{} has deployed its {:?} division", side(*s), division)
        }
        DbnEvent::CommandPointsSpent {
            amount,
            left,
            reason,
            division: None,
            ..
        } => format!("{amount} command point(s) to {reason}, {left} left"),
        DbnEvent::CommandPointsSpent {
            amount,
            left,
            reason,
            division: Some(d),
            ..
        } => format!(
            "{amount} of the {} division's own command point(s) to {reason}, {left} left to it",
            d.name()
        ),
        DbnEvent::Captured { feature, by } => format!(
            "{} captures {}: it is no longer fortified",
            u(by),
            feature_name(b, feature)
        ),
        DbnEvent::Fortified { feature } => format!("{} is fortified", feature_name(b, feature)),
        DbnEvent::ObjectiveTaken { side: s, by } => {
            format!("{} takes the objective with {}", side(*s), u(by))
        }
    }
}

/// Fire and close combat in words: both scores, and who lost what.
fn opposed_words(b: &Battle, e: &DbnEvent) -> String {
    let u = |id: &UnitId| b.name_of(id);
    match e {
        DbnEvent::Fire {
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
        DbnEvent::CloseCombat {
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
        _ => String::new(),
    }
}
