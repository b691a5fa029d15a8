//! A scenario's objectives and victory conditions as written, and their check into the
//! `Victory` a battle plays by (`rules::victory`): places by index, every problem at its
//! place in the file.

use super::build::{Checker, pt_ok};
use super::raw::{RawPt, RawScenario};
use crate::rules::battle::Table;
use crate::rules::geometry::Pt;
use crate::rules::model::Side;
use crate::rules::victory::{Clause, Conditions, Edge, Place, Score, Then, Victory, When};
use serde::{Deserialize, Serialize};

/// Deepest nesting of `All`, `Any` and `Not` a condition may have.
pub const MAX_DEPTH: usize = 8;

/// A place on the table that a side holds (BBB's objectives, open to every ruleset).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawObjective {
    pub at: RawPt,
    /// The side that holds it at the start; none: nobody until a side takes it.
    #[serde(
        default,
        serialize_with = "owner_plain",
        skip_serializing_if = "Option::is_none"
    )]
    pub owner: Option<Side>,
    /// A name for the log and the window.
    #[serde(default)]
    pub name: String,
    /// What the conditions call it; from the name where absent ("The Lobosch crest":
    /// "the-lobosch-crest").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// Points to the side that holds it (1 where absent).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub worth: u32,
    /// How a side takes it: the ruleset's own rule, or alone within a distance.
    #[serde(default, skip_serializing_if = "RawHold::is_ruleset")]
    pub hold: RawHold,
}

/// Written as a plain number, as scenarios always wrote it (so saves do not change).
fn owner_plain<S: serde::Serializer>(owner: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
    match owner {
        Some(o) => s.serialize_u64(*o as u64),
        None => s.serialize_none(),
    }
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// How a side takes an objective.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum RawHold {
    /// The ruleset's own holding rule (`Ruleset::holder_near`).
    #[default]
    Ruleset,
    /// The side alone with a unit within this distance (inches or paces, the ruleset's
    /// measure) holds it.
    Within(f32),
}

impl RawHold {
    fn is_ruleset(&self) -> bool {
        *self == RawHold::Ruleset
    }
}

/// The `victory_conditions` block.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConditions {
    /// Checked after every command (or at the close of `turn`): the first met ends the game.
    #[serde(default)]
    pub ends: Vec<RawClause>,
    /// Tried in order at the turn limit; none deciding: a draw.
    #[serde(default)]
    pub at_limit: Vec<RawClause>,
    /// Points on top of the objectives' worth.
    #[serde(default)]
    pub scores: Vec<RawScore>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawClause {
    pub then: RawThen,
    #[serde(default)]
    pub when: RawWhen,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RawThen {
    Win(Side),
    Draw,
    MorePoints,
    Ruleset,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum RawWhen {
    #[default]
    Always,
    Holds {
        side: Side,
        place: String,
    },
    Took {
        side: Side,
        place: String,
    },
    Points {
        side: Side,
        at_least: u32,
    },
    Lost {
        side: Side,
        #[serde(default)]
        units: Option<u32>,
        #[serde(default)]
        share: Option<f32>,
    },
    Exited {
        side: Side,
        edge: Edge,
        #[serde(default = "one")]
        at_least: u32,
        #[serde(default)]
        units: Vec<String>,
    },
    All(Vec<RawWhen>),
    Any(Vec<RawWhen>),
    Not(Box<RawWhen>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScore {
    pub side: Side,
    pub worth: u32,
    pub when: RawWhen,
}

/// An objective's id: its own, else made from its name, else its place in the list.
pub fn objective_id(o: &RawObjective, i: usize) -> String {
    if !o.id.is_empty() {
        return o.id.clone();
    }
    let mut id = String::new();
    for c in o.name.to_lowercase().chars() {
        if c.is_alphanumeric() {
            id.push(c);
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    let id = id.trim_end_matches('-').to_string();
    if id.is_empty() {
        format!("objective-{}", i + 1)
    } else {
        id
    }
}

/// The scenario's objectives and conditions checked into the battle's `Victory`.
pub(super) fn check(ck: &mut Checker, raw: &RawScenario, table: &Table) -> Victory {
    let mut places: Vec<Place> = Vec::new();
    for (i, o) in raw.objectives.iter().enumerate() {
        let id = objective_id(o, i);
        let needle = if !o.id.is_empty() {
            format!("\"{}\"", o.id)
        } else if !o.name.is_empty() {
            format!("\"{}\"", o.name)
        } else {
            "objectives".to_string()
        };
        let pos = ck.at(&needle, 1);
        if places.iter().any(|p| p.id == id) {
            ck.push(ck.at(&needle, 2), format!("duplicate objective id '{id}'"));
            continue;
        }
        let on_table = pt_ok(o.at)
            && (0.0..=table.width).contains(&o.at.0)
            && (0.0..=table.height).contains(&o.at.1);
        if !on_table {
            ck.push(
                pos,
                format!(
                    "objective '{id}' at ({}, {}) is off the table ({} by {} mm)",
                    o.at.0, o.at.1, table.width, table.height
                ),
            );
        }
        if o.owner.is_some_and(|s| s >= 2) {
            ck.push(pos, format!("objective '{id}': owner must be 0 or 1"));
        }
        let within = match o.hold {
            RawHold::Ruleset => None,
            RawHold::Within(r) if r.is_finite() && r > 0.0 && r <= 10_000.0 => Some(r),
            RawHold::Within(_) => {
                ck.push(
                    pos,
                    format!("objective '{id}': Within needs a positive distance"),
                );
                None
            }
        };
        places.push(Place {
            id,
            name: if o.name.is_empty() {
                format!("objective {}", i + 1)
            } else {
                o.name.clone()
            },
            at: Pt::new(o.at.0, o.at.1),
            owner: o.owner.filter(|s| *s < 2),
            worth: o.worth,
            within,
        });
    }
    let conditions = raw.victory_conditions.as_ref().map(|c| {
        let mut w = Walk {
            ck,
            raw,
            places: &places,
            counts: Vec::new(),
            list: "",
        };
        w.conditions(c)
    });
    Victory {
        objectives: places,
        conditions,
    }
}

/// A walk through the conditions, counting each word met in each list so that a problem is
/// placed at the word that has it (the n-th `Lost` of `at_limit`).
struct Walk<'a, 'b, 'c> {
    ck: &'a mut Checker<'b>,
    raw: &'c RawScenario,
    places: &'c [Place],
    counts: Vec<(&'static str, usize)>,
    list: &'static str,
}

impl Walk<'_, '_, '_> {
    /// Where the next `word` of the list now walked stands.
    fn at(&mut self, word: &'static str) -> (usize, usize) {
        let k = match self.counts.iter_mut().find(|(w, _)| *w == word) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.counts.push((word, 1));
                1
            }
        };
        let text = self.ck.text();
        let anchor = text.find("victory_conditions").unwrap_or(0);
        let list = text[anchor..]
            .find(self.list)
            .map_or(anchor, |i| anchor + i);
        let before = text[..list].matches(word).count();
        self.ck.at(word, before + k)
    }

    fn conditions(&mut self, c: &RawConditions) -> Conditions {
        let turn_limit = self.raw.turn_limit;
        let mut lists = [Vec::new(), Vec::new()];
        for (n, (name, raw)) in [("ends", &c.ends), ("at_limit", &c.at_limit)]
            .into_iter()
            .enumerate()
        {
            self.list = name;
            self.counts.clear();
            for cl in raw {
                let then = self.then(&cl.then, n == 1);
                if let Some(t) = cl.turn {
                    let pos = self.at("turn");
                    if n == 1 {
                        let m = "a clause of at_limit is read at the turn limit: it takes no turn";
                        self.ck.push(pos, m.into());
                    } else if t == 0 || t > turn_limit {
                        self.ck.push(
                            pos,
                            format!("turn {t} is not a turn of this battle (1 to {turn_limit})"),
                        );
                    }
                }
                let when = self.when(&cl.when, 0, false);
                lists[n].push(Clause {
                    then,
                    when,
                    turn: cl.turn,
                });
            }
        }
        self.list = "scores";
        self.counts.clear();
        let scores = c
            .scores
            .iter()
            .map(|s| {
                let side = self.score_side(s.side);
                Score {
                    side,
                    worth: s.worth,
                    when: self.when(&s.when, 0, true),
                }
            })
            .collect();
        let [ends, at_limit] = lists;
        Conditions {
            ends,
            at_limit,
            scores,
        }
    }

    /// A score's side, refused at its `worth` (each score has one) where it is not 0 or 1.
    fn score_side(&mut self, s: Side) -> Side {
        let pos = self.at("worth");
        if s >= 2 {
            self.ck.push(pos, format!("side {s}: a side is 0 or 1"));
            return 0;
        }
        s
    }

    fn then(&mut self, t: &RawThen, at_limit: bool) -> Then {
        match t {
            RawThen::Win(s) => {
                let pos = self.at("Win");
                if *s >= 2 {
                    self.ck.push(pos, format!("Win({s}): a side is 0 or 1"));
                }
                Then::Win((*s).min(1))
            }
            RawThen::Draw => Then::Draw,
            RawThen::MorePoints => Then::MorePoints,
            RawThen::Ruleset => {
                let pos = self.at("Ruleset");
                if !at_limit {
                    let m = "Ruleset (the rules' own result at the turn limit) belongs in at_limit, not in ends";
                    self.ck.push(pos, m.into());
                }
                Then::Ruleset
            }
        }
    }

    fn place(&mut self, word: &'static str, side: Side, place: &str) -> usize {
        let pos = self.at(word);
        if side >= 2 {
            self.ck.push(pos, format!("side {side}: a side is 0 or 1"));
        }
        match self.places.iter().position(|p| p.id == place) {
            Some(i) => i,
            None => {
                let ids: Vec<&str> = self.places.iter().map(|p| p.id.as_str()).collect();
                let known = if ids.is_empty() {
                    "the scenario has no objectives".to_string()
                } else {
                    format!("its objectives are {}", ids.join(", "))
                };
                self.ck
                    .push(pos, format!("no objective '{place}': {known}"));
                0
            }
        }
    }

    fn when(&mut self, w: &RawWhen, depth: usize, in_score: bool) -> When {
        match w {
            RawWhen::Always => When::Always,
            RawWhen::Holds { side, place } => {
                let place = self.place("Holds", *side, place);
                When::Holds {
                    side: (*side).min(1),
                    place,
                }
            }
            RawWhen::Took { side, place } => {
                let place = self.place("Took", *side, place);
                When::Took {
                    side: (*side).min(1),
                    place,
                }
            }
            RawWhen::Points { side, at_least } => {
                let pos = self.at("Points");
                if in_score {
                    self.ck.push(pos, "a score cannot depend on points".into());
                }
                if *side >= 2 {
                    self.ck.push(pos, format!("side {side}: a side is 0 or 1"));
                }
                When::Points {
                    side: (*side).min(1),
                    at_least: *at_least,
                }
            }
            RawWhen::Lost { side, units, share } => self.lost(*side, *units, *share),
            RawWhen::Exited {
                side,
                edge,
                at_least,
                units,
            } => self.exited(*side, *edge, *at_least, units),
            RawWhen::All(v) | RawWhen::Any(v) => {
                let word = if matches!(w, RawWhen::All(_)) {
                    "All"
                } else {
                    "Any"
                };
                let pos = self.at(word);
                if depth >= MAX_DEPTH {
                    self.ck
                        .push(pos, format!("conditions nest at most {MAX_DEPTH} deep"));
                    return When::Always;
                }
                let inner: Vec<When> = v
                    .iter()
                    .map(|x| self.when(x, depth + 1, in_score))
                    .collect();
                if word == "All" {
                    When::All(inner)
                } else {
                    When::Any(inner)
                }
            }
            RawWhen::Not(x) => {
                let pos = self.at("Not");
                if depth >= MAX_DEPTH {
                    self.ck
                        .push(pos, format!("conditions nest at most {MAX_DEPTH} deep"));
                    return When::Always;
                }
                When::Not(Box::new(self.when(x, depth + 1, in_score)))
            }
        }
    }

    fn lost(&mut self, side: Side, units: Option<u32>, share: Option<f32>) -> When {
        let pos = self.at("Lost");
        if side >= 2 {
            self.ck.push(pos, format!("side {side}: a side is 0 or 1"));
        }
        match (units, share) {
            (Some(_), Some(_)) | (None, None) => self.ck.push(
                pos,
                "Lost takes either units (a count) or share (a part of the army), not both nor neither"
                    .into(),
            ),
            (None, Some(s)) if !(s > 0.0 && s <= 1.0) => self.ck.push(
                pos,
                format!("Lost share {s}: a share is above 0 and at most 1"),
            ),
            _ => {}
        }
        When::Lost {
            side: side.min(1),
            units,
            share,
        }
    }

    fn exited(&mut self, side: Side, edge: Edge, at_least: u32, units: &[String]) -> When {
        let pos = self.at("Exited");
        if side >= 2 {
            self.ck.push(pos, format!("side {side}: a side is 0 or 1"));
        }
        if at_least == 0 {
            self.ck.push(pos, "Exited at_least: at least 1 unit".into());
        }
        for id in units {
            let ok = self.raw.units.iter().any(|u| &u.id == id && u.side == side);
            if !ok {
                self.ck.push(
                    pos,
                    format!("Exited names '{id}', not a unit of side {side}"),
                );
            }
        }
        When::Exited {
            side: side.min(1),
            edge,
            at_least,
            units: units.to_vec(),
        }
    }
}
