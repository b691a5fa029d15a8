//! The objectives and conditions as the window and the reports read them: each objective and
//! its holder, each side's standing in the turn bar's words, the conditions in plain words
//! for the briefing.

use super::{Clause, Edge, Reading, Then, When};
use crate::rules::battle::Battle;
use crate::rules::geometry::Pt;
use crate::rules::model::Side;
use crate::rules::ruleset::Ruleset;
use serde::Serialize;

/// An objective as the window shows it: where it is, what it is worth, who holds it now, and
/// the radius of its holding rule (mm).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ObjectiveView {
    pub id: String,
    pub name: String,
    pub at: Pt,
    pub worth: u32,
    pub holder: Option<Side>,
    pub radius_mm: f32,
}

pub(super) fn side_name(b: &Battle, s: Side) -> String {
    b.sides
        .get(s)
        .map_or_else(|| format!("side {s}"), |x| x.name.clone())
}

/// Each objective, with its holder now.
pub fn objectives(rules: &dyn Ruleset, b: &Battle) -> Vec<ObjectiveView> {
    let held = super::holders(rules, b);
    b.victory
        .objectives
        .iter()
        .zip(held)
        .map(|(p, holder)| ObjectiveView {
            id: p.id.clone(),
            name: p.name.clone(),
            at: p.at,
            worth: p.worth,
            holder,
            radius_mm: b
                .scale
                .to_mm(p.within.unwrap_or_else(|| rules.holding_radius())),
        })
        .collect()
}

/// Each side's standing in the turn bar's words: "Prussia: 2 of 3 objectives, 3 points; the
/// Lobosch crest held by Austria". Empty where the scenario has no objectives and states no
/// conditions.
pub fn standing(rules: &dyn Ruleset, b: &Battle) -> Vec<String> {
    let v = &b.victory;
    if v.objectives.is_empty() && v.conditions.is_none() {
        return Vec::new();
    }
    let r = Reading::new(rules, b);
    (0..2)
        .map(|s| {
            let name = side_name(b, s);
            if v.objectives.is_empty() {
                let (lost, of) = rules.units_lost(b, s);
                return format!("{name}: {lost} of {of} units lost");
            }
            let mine = r.held.iter().filter(|h| **h == Some(s)).count();
            let points = r.points(s);
            let mut line = format!(
                "{name}: {mine} of {} objectives, {points} point{}",
                v.objectives.len(),
                if points == 1 { "" } else { "s" }
            );
            let theirs: Vec<String> = v
                .objectives
                .iter()
                .zip(&r.held)
                .filter(|(_, h)| **h == Some(1 - s))
                .map(|(p, _)| in_sentence(&p.name))
                .collect();
            if !theirs.is_empty() {
                line.push_str(&format!(
                    "; {} held by {}",
                    theirs.join(", "),
                    side_name(b, 1 - s)
                ));
            }
            line
        })
        .collect()
}

fn place_name(b: &Battle, i: usize) -> String {
    b.victory
        .objectives
        .get(i)
        .map_or_else(|| "an objective".into(), |p| in_sentence(&p.name))
}

/// A place's name within a sentence: "The Lobosch crest" reads "the Lobosch crest".
fn in_sentence(name: &str) -> String {
    match name.strip_prefix("The ") {
        Some(rest) => format!("the {rest}"),
        None => name.to_string(),
    }
}

/// A condition in plain words: "Prussia holds the Lobosch crest and Lobosch vineyards".
pub fn when_words(b: &Battle, w: &When) -> String {
    let side = |s: &Side| side_name(b, *s);
    match w {
        When::Always => "in any case".into(),
        When::Holds { side: s, place } => format!("{} holds {}", side(s), place_name(b, *place)),
        When::Took { side: s, place } => {
            format!("{} has taken {}", side(s), place_name(b, *place))
        }
        When::Points { side: s, at_least } => {
            format!("{} has {at_least} points or more", side(s))
        }
        When::Lost {
            side: s,
            units,
            share,
        } => match (units, share) {
            (Some(n), _) => format!("{} has lost {n} units", side(s)),
            (None, Some(x)) => format!("{} has lost {:.0}% of its units", side(s), x * 100.0),
            (None, None) => format!("{} has lost", side(s)),
        },
        When::Exited {
            side: s,
            edge,
            at_least,
            units,
        } => {
            let (count, verb) = match at_least {
                1 => ("a unit".to_string(), "has"),
                n => (format!("{n} units"), "have"),
            };
            // Of the units named, by their names; else of the side's.
            let of = if units.is_empty() {
                side(s)
            } else {
                let names: Vec<String> = units
                    .iter()
                    .map(|id| {
                        b.units
                            .iter()
                            .find(|u| &*u.id.0 == id.as_str())
                            .map_or_else(|| id.clone(), |u| u.name.clone())
                    })
                    .collect();
                names.join(", ")
            };
            format!(
                "{count} of {of} {verb} left by the {} edge",
                edge_words(*edge)
            )
        }
        When::All(v) => match held_by_one(v) {
            Some((s, places)) => {
                let names: Vec<String> = places.iter().map(|p| place_name(b, *p)).collect();
                format!("{} holds {}", side(&s), names.join(" and "))
            }
            None => join(b, v, " and "),
        },
        When::Any(v) => join(b, v, " or "),
        When::Not(x) => match x.as_ref() {
            When::Holds { side: s, place } => {
                format!("{} does not hold {}", side(s), place_name(b, *place))
            }
            other => format!("not ({})", when_words(b, other)),
        },
    }
}

/// The side and places of a list of conditions that are all one side holding places.
fn held_by_one(v: &[When]) -> Option<(Side, Vec<usize>)> {
    let mut side = None;
    let mut places = Vec::new();
    for w in v {
        let When::Holds { side: s, place } = w else {
            return None;
        };
        if side.is_some_and(|x| x != *s) {
            return None;
        }
        side = Some(*s);
        places.push(*place);
    }
    side.map(|s| (s, places))
}

fn edge_words(e: Edge) -> &'static str {
    e.name()
}

fn join(b: &Battle, v: &[When], sep: &str) -> String {
    let parts: Vec<String> = v
        .iter()
        .map(|x| match x {
            When::All(_) | When::Any(_) => format!("({})", when_words(b, x)),
            _ => when_words(b, x),
        })
        .collect();
    parts.join(sep)
}

/// What the side with more points means: each objective's worth.
fn worths(b: &Battle) -> String {
    let v = &b.victory;
    let mut parts: Vec<String> = v
        .objectives
        .iter()
        .map(|p| format!("{} {}", in_sentence(&p.name), p.worth))
        .collect();
    if let Some(c) = &v.conditions {
        for s in &c.scores {
            parts.push(format!(
                "{} {} when {}",
                side_name(b, s.side),
                s.worth,
                when_words(b, &s.when)
            ));
        }
    }
    parts.join(", ")
}

/// A clause in plain words: "Prussia wins at once by holding ..." (`at_limit`: a step at the
/// turn limit).
pub(crate) fn clause_words(b: &Battle, c: &Clause, at_limit: bool) -> String {
    let result = match c.then {
        Then::Win(s) => format!("{} wins", side_name(b, s)),
        Then::Draw => "the battle is drawn".into(),
        Then::MorePoints => format!("the side with more points wins ({})", worths(b)),
        Then::Ruleset => "the rules' own result at the limit decides".into(),
    };
    let when = if c.when == When::Always {
        String::new()
    } else {
        format!(" if {}", when_words(b, &c.when))
    };
    match (at_limit, c.turn) {
        (true, _) => format!("{result}{when}"),
        (false, Some(t)) => format!("{result} at the close of turn {t}{when}"),
        (false, None) if c.when == When::Always => format!("{result} at once"),
        (false, None) => format!("{result} at once when {}", when_words(b, &c.when)),
    }
}

fn capital(s: String) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => s,
    }
}

/// The objectives and conditions in plain words, for the briefing: "Objectives: ...",
/// "Prussia wins at once when Prussia holds the Lobosch crest and Lobosch vineyards", "At the
/// turn limit: the side with more points wins (the Lobosch crest 2, Lobosch vineyards 1)".
/// Empty where the scenario states neither.
pub fn victory_words(rules: &dyn Ruleset, b: &Battle) -> Vec<String> {
    let v = &b.victory;
    let mut out = Vec::new();
    if !v.objectives.is_empty() {
        let list: Vec<String> = v
            .objectives
            .iter()
            .map(|p| {
                let held = p.owner.map_or_else(
                    || "nobody's".to_string(),
                    |s| format!("{}'s", side_name(b, s)),
                );
                format!("{} (worth {}, {held} at the start)", p.name, p.worth)
            })
            .collect();
        out.push(format!("Objectives: {}", list.join("; ")));
    }
    let Some(c) = &v.conditions else {
        return out;
    };
    for cl in &c.ends {
        out.push(capital(clause_words(b, cl, false)));
    }
    if c.at_limit.is_empty() {
        out.push(format!(
            "At the turn limit: the result by the rules of {}",
            rules.name()
        ));
    } else {
        let steps: Vec<String> = c
            .at_limit
            .iter()
            .map(|cl| clause_words(b, cl, true))
            .collect();
        let last_decides = c
            .at_limit
            .last()
            .is_some_and(|cl| cl.when == When::Always && cl.then == Then::Draw);
        let tail = if last_decides { "" } else { "; else a draw" };
        out.push(format!(
            "At the turn limit: {}{tail}",
            steps.join("; else ")
        ));
    }
    if !c.scores.is_empty() {
        out.push(format!("Points: {}", worths(b)));
    }
    out
}
