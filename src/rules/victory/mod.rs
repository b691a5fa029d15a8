//! A scenario's victory conditions in play: who holds each objective (recorded after every
//! command), the points, the `ends` clauses checked after every command or at the close of
//! their turn, and the result at the turn limit (`at_limit`, else the ruleset's own). The
//! scenario states them (`scenario::victory`); the ruleset says who holds a place
//! (`Ruleset::holder_near`) and what a side has lost (`Ruleset::units_lost`).

use crate::rules::battle::{Battle, Table};
use crate::rules::command::{Ending, Event, RuleError};
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Side, Unit};
use crate::rules::ruleset::Ruleset;
use serde::{Deserialize, Serialize};

mod words;
pub use words::{ObjectiveView, objectives, standing, victory_words, when_words};

/// The objectives and the conditions a battle is played by (the scenario's, checked).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Victory {
    pub objectives: Vec<Place>,
    /// None: the scenario states no conditions, and the ruleset's own decide.
    pub conditions: Option<Conditions>,
}

/// An objective: a place a side holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub id: String,
    pub name: String,
    pub at: Pt,
    /// The side holding it at the start.
    pub owner: Option<Side>,
    pub worth: u32,
    /// The side alone within this distance (the ruleset's measure) holds it; None: the
    /// ruleset's own rule.
    pub within: Option<f32>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conditions {
    pub ends: Vec<Clause>,
    pub at_limit: Vec<Clause>,
    pub scores: Vec<Score>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Clause {
    pub then: Then,
    pub when: When,
    /// Checked at the close of this turn only.
    pub turn: Option<u32>,
}

/// What a clause met decides.
#[derive(Clone, Debug, PartialEq)]
pub enum Then {
    Win(Side),
    Draw,
    /// The side with more points wins; a tie decides nothing.
    MorePoints,
    /// The ruleset's own result at the limit; a draw decides nothing.
    Ruleset,
}

/// A condition, its places by their index among the objectives.
#[derive(Clone, Debug, PartialEq)]
pub enum When {
    Always,
    Holds {
        side: Side,
        place: usize,
    },
    /// The side has taken the place at some time (it changed hands to it).
    Took {
        side: Side,
        place: usize,
    },
    Points {
        side: Side,
        at_least: u32,
    },
    Lost {
        side: Side,
        units: Option<u32>,
        share: Option<f32>,
    },
    Exited {
        side: Side,
        edge: Edge,
        at_least: u32,
        /// Only these units count (all of the side's where empty).
        units: Vec<String>,
    },
    All(Vec<When>),
    Any(Vec<When>),
    Not(Box<When>),
}

/// A score: points to a side while a condition holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    pub side: Side,
    pub worth: u32,
    pub when: When,
}

/// A table edge, as the window shows the table: `Bottom` is y = 0, `Top` y = the table's
/// height, `Left` x = 0, `Right` x = its width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Edge {
    Top,
    Bottom,
    Left,
    Right,
}

impl Edge {
    /// Whether a base touches this edge (within a millimetre).
    pub fn touches(self, base: &Base, table: &Table) -> bool {
        const TOUCH: f32 = 1.0;
        base.corners().iter().any(|c| match self {
            Edge::Bottom => c.y <= TOUCH,
            Edge::Top => c.y >= table.height - TOUCH,
            Edge::Left => c.x <= TOUCH,
            Edge::Right => c.x >= table.width - TOUCH,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Edge::Top => "top",
            Edge::Bottom => "bottom",
            Edge::Left => "left",
            Edge::Right => "right",
        }
    }
}

/// The side alone with a unit that `counts` within `r_mm` of a place, if one is.
pub fn side_alone_within(
    b: &Battle,
    at: Pt,
    r_mm: f32,
    counts: impl Fn(&Unit) -> bool,
) -> Option<Side> {
    let near = |s: Side| {
        b.alive()
            .any(|u| u.side == s && u.base.reaches(at, r_mm) && counts(u))
    };
    match (near(0), near(1)) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        _ => None,
    }
}

/// Who holds each objective now: the side the ruleset's rule gives it to, else the last
/// side that held it.
pub fn holders(rules: &dyn Ruleset, b: &Battle) -> Vec<Option<Side>> {
    b.victory
        .objectives
        .iter()
        .enumerate()
        .map(|(i, p)| {
            rules
                .holder_near(b, p.at, p.within)
                .or_else(|| b.held.get(i).copied().flatten())
        })
        .collect()
}

/// Records each objective that changed hands with the last command: it stays with its new
/// holder until the enemy takes it.
pub fn record_holders(rules: &dyn Ruleset, b: &mut Battle, out: &mut Vec<Event>) {
    if b.is_over() || b.victory.objectives.is_empty() {
        return;
    }
    record(rules, b, out);
}

/// Records the objectives that changed hands and gives who holds each now: what `holders`
/// reads after the record (the units are as they were, and each objective's last holder is
/// now the one the rule gives it to, where the rule gives one), read once.
fn record(rules: &dyn Ruleset, b: &mut Battle, out: &mut Vec<Event>) -> Vec<Option<Side>> {
    let now = holders(rules, b);
    for (objective, side) in now.iter().enumerate() {
        if let Some(side) = *side
            && Some(side) != b.held.get(objective).copied().flatten()
        {
            b.emit(out, Event::ObjectiveHeld { objective, side });
        }
    }
    now
}

/// The least losses, as `Ruleset::units_lost` counts them, that end the battle against `side`:
/// the ruleset's army break (`Ruleset::break_point`), or an `ends` clause (of any turn) that
/// gives the enemy the battle on the side's losses alone, or on any of several conditions one
/// of which is those losses. None where neither has such a point.
pub fn break_point(rules: &dyn Ruleset, b: &Battle, side: Side) -> Option<f32> {
    let (_, of) = rules.units_lost(b, side);
    let on_losses = |w: &When| match w {
        When::Lost {
            side: s,
            units,
            share,
        } if *s == side => match (units, share) {
            (Some(n), _) => Some(*n as f32),
            (None, Some(x)) => Some(x * of),
            (None, None) => None,
        },
        _ => None,
    };
    let clauses = b
        .victory
        .conditions
        .iter()
        .flat_map(|c| &c.ends)
        .filter(|cl| matches!(cl.then, Then::Win(w) if w != side))
        .filter_map(|cl| match &cl.when {
            When::Any(v) => v.iter().filter_map(on_losses).reduce(f32::min),
            w => on_losses(w),
        });
    rules
        .break_point(b, side)
        .into_iter()
        .chain(clauses)
        .filter(|x| x.is_finite() && *x > 0.0)
        .reduce(f32::min)
}

/// The battle read for the conditions: its rules, and who holds each place.
pub struct Reading<'a> {
    pub rules: &'a dyn Ruleset,
    pub b: &'a Battle,
    pub held: Vec<Option<Side>>,
}

impl<'a> Reading<'a> {
    pub fn new(rules: &'a dyn Ruleset, b: &'a Battle) -> Self {
        Reading {
            rules,
            b,
            held: holders(rules, b),
        }
    }

    /// A side's points: the worth of the objectives it holds, and its scores met.
    pub fn points(&self, side: Side) -> u32 {
        let v = &self.b.victory;
        let held: u32 = v
            .objectives
            .iter()
            .zip(&self.held)
            .filter(|(_, h)| **h == Some(side))
            .map(|(p, _)| p.worth)
            .sum();
        let scored: u32 = v.conditions.as_ref().map_or(0, |c| {
            c.scores
                .iter()
                .filter(|s| s.side == side && self.met(&s.when))
                .map(|s| s.worth)
                .sum()
        });
        held + scored
    }

    /// Units of `side` that have left the table by `edge` (of `only`, where it names some).
    pub fn exited(&self, side: Side, edge: Edge, only: &[String]) -> u32 {
        self.b
            .log
            .iter()
            .filter(|e| match e {
                Event::Exited { unit, edge: by } => {
                    *by == edge
                        && (only.is_empty() || only.iter().any(|o| **o == *unit.0))
                        && self.b.unit(unit).is_ok_and(|u| u.side == side)
                }
                _ => false,
            })
            .count() as u32
    }

    pub fn met(&self, w: &When) -> bool {
        match w {
            When::Always => true,
            When::Holds { side, place } => self.held.get(*place) == Some(&Some(*side)),
            When::Took { side, place } => self.b.log.iter().any(|e| {
                matches!(e, Event::ObjectiveHeld { objective, side: s }
                    if objective == place && s == side)
            }),
            When::Points { side, at_least } => self.points(*side) >= *at_least,
            When::Lost { side, units, share } => {
                let (lost, of) = self.rules.units_lost(self.b, *side);
                match (units, share) {
                    (Some(n), _) => lost >= *n as f32,
                    (None, Some(s)) => of > 0.0 && lost / of >= *s - 1e-6,
                    (None, None) => false,
                }
            }
            When::Exited {
                side,
                edge,
                at_least,
                units,
            } => self.exited(*side, *edge, units) >= *at_least,
            When::All(v) => v.iter().all(|x| self.met(x)),
            When::Any(v) => v.iter().any(|x| self.met(x)),
            When::Not(x) => !self.met(x),
        }
    }

    /// What a clause decides now: None where its condition is not met or its result decides
    /// nothing (a tie on points, the ruleset's draw); else the winner (None: a draw) and why.
    pub fn decide(&self, c: &Clause) -> Option<(Option<Side>, String)> {
        if !self.met(&c.when) {
            return None;
        }
        let because = || when_words(self.b, &c.when);
        match c.then {
            Then::Win(s) => Some((Some(s), because())),
            Then::Draw => Some((None, because())),
            Then::MorePoints => {
                let (a, d) = (self.points(0), self.points(1));
                let name = |s: Side| words::side_name(self.b, s);
                (a != d).then(|| {
                    let w = if a > d { 0 } else { 1 };
                    (
                        Some(w),
                        format!("more points: {} {a}, {} {d}", name(0), name(1)),
                    )
                })
            }
            Then::Ruleset => {
                let (w, reason) = self.rules.result_at_limit(self.b);
                w.map(|w| (Some(w), reason))
            }
        }
    }
}

/// How a game ends at the turn limit, or by a condition: the winner (None: a draw), the
/// reason, how it was decided, and the condition met, in words, if one decided it.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub winner: Option<Side>,
    pub reason: String,
    pub by: Ending,
    pub met: Option<String>,
}

/// After every command (`Game::execute`): the objectives' holders recorded, then the `ends`
/// clauses tested, those with no turn and those whose turn closed with this command (the
/// battle was in `turn_before`); the first met ends the game.
pub fn after_command(rules: &dyn Ruleset, b: &mut Battle, out: &mut Vec<Event>, turn_before: u32) {
    if b.is_over() {
        return;
    }
    let held = record(rules, b, out);
    let closed = turn_before..b.turn;
    let decided = {
        let b: &Battle = b;
        let Some(c) = &b.victory.conditions else {
            return;
        };
        let r = Reading { rules, b, held };
        c.ends
            .iter()
            .filter(|cl| cl.turn.is_none_or(|t| closed.contains(&t)))
            .find_map(|cl| {
                r.decide(cl)
                    .map(|(winner, reason)| (winner, reason, words::clause_words(b, cl, false)))
            })
    };
    if let Some((winner, reason, condition)) = decided {
        end(
            b,
            out,
            Verdict {
                winner,
                reason,
                by: Ending::Condition,
                met: Some(condition),
            },
        );
    }
}

/// Emits the end of the game: the condition met, if one, then the game over.
fn end(b: &mut Battle, out: &mut Vec<Event>, v: Verdict) {
    if let Some(condition) = v.met {
        b.emit(
            out,
            Event::ConditionMet {
                winner: v.winner,
                condition,
            },
        );
    }
    b.emit(
        out,
        Event::GameOver {
            winner: v.winner,
            reason: v.reason,
            by: v.by,
        },
    );
}

/// The result were the turn limit reached now: with no conditions stated, or none at the
/// limit, the ruleset's own (`Ruleset::result_at_limit`); else the `ends` clauses of the last
/// turn, then the `at_limit` steps in order, and a draw where none decides (the ruleset's own
/// where the scenario gives no `at_limit`).
pub fn at_limit(rules: &dyn Ruleset, b: &Battle) -> Verdict {
    at_limit_holding(rules, b, holders(rules, b))
}

/// The result were the turn limit reached now with each objective held as `held` says (in
/// the scenario's order of objectives): what taking or losing places would make of it. The
/// ruleset's own result, where the scenario states no conditions, reads the battle itself.
pub fn at_limit_holding(rules: &dyn Ruleset, b: &Battle, held: Vec<Option<Side>>) -> Verdict {
    let own = || {
        let (winner, reason) = rules.result_at_limit(b);
        Verdict {
            winner,
            reason,
            by: Ending::TurnLimit,
            met: None,
        }
    };
    let Some(c) = &b.victory.conditions else {
        return own();
    };
    let last: Vec<&Clause> = c
        .ends
        .iter()
        .filter(|cl| cl.turn == Some(b.turn_limit))
        .collect();
    if last.is_empty() && c.at_limit.is_empty() {
        return own();
    }
    let r = Reading { rules, b, held };
    for (cl, ends) in last
        .into_iter()
        .map(|cl| (cl, true))
        .chain(c.at_limit.iter().map(|cl| (cl, false)))
    {
        if let Some((winner, reason)) = r.decide(cl) {
            let by = if ends {
                Ending::Condition
            } else {
                Ending::TurnLimit
            };
            let reason = if cl.then == Then::Ruleset {
                reason
            } else {
                format!("turn limit reached: {reason}")
            };
            return Verdict {
                winner,
                reason,
                by,
                met: (cl.then != Then::Ruleset).then(|| words::clause_words(b, cl, !ends)),
            };
        }
    }
    if c.at_limit.is_empty() {
        return own();
    }
    Verdict {
        winner: None,
        reason: "turn limit reached: no condition decides the battle".into(),
        by: Ending::TurnLimit,
        met: None,
    }
}

/// The edges a scenario's `Exited` conditions name for a unit of `side` (with its id).
fn exit_edges(w: &When, side: Side, unit: &str, out: &mut Vec<Edge>) {
    match w {
        When::Exited {
            side: s,
            edge,
            units,
            ..
        } if *s == side
            && (units.is_empty() || units.iter().any(|u| u == unit))
            && !out.contains(edge) =>
        {
            out.push(*edge);
        }
        When::All(v) | When::Any(v) => v.iter().for_each(|x| exit_edges(x, side, unit, out)),
        When::Not(x) => exit_edges(x, side, unit, out),
        _ => {}
    }
}

/// The edge a unit leaves the table by (`Command::Exit`): one that an `Exited` condition names
/// for its side and that it touches, in its side's movement while it may move; else why not.
pub fn exit_edge(
    rules: &dyn Ruleset,
    b: &Battle,
    id: &crate::rules::model::UnitId,
) -> Result<Edge, RuleError> {
    use crate::rules::ruleset::common::Refusal;
    let u = b.unit(id)?;
    if u.status.removed {
        return Err(RuleError::refused(
            Refusal::NotOnTable,
            format!("{} is no longer on the table", u.name),
        ));
    }
    let mut edges = Vec::new();
    if let Some(c) = &b.victory.conditions {
        let whens = c.ends.iter().chain(&c.at_limit).map(|cl| &cl.when);
        for w in whens.chain(c.scores.iter().map(|s| &s.when)) {
            exit_edges(w, u.side, &u.id.0, &mut edges);
        }
    }
    if edges.is_empty() {
        return Err(RuleError::refused(
            Refusal::NoExitCondition,
            format!(
                "no victory condition of this scenario takes {}'s side off the table",
                u.name
            ),
        ));
    }
    if u.side != b.active || !rules.may_move(b, u) {
        return Err(RuleError::refused(
            Refusal::ExitNotNow,
            format!(
                "{} may leave the table only in its side's movement, when it may move",
                u.name
            ),
        ));
    }
    edges
        .iter()
        .copied()
        .find(|e| e.touches(&u.base, &b.table))
        .ok_or_else(|| {
            let names: Vec<&str> = edges.iter().map(|e| e.name()).collect();
            RuleError::refused(
                Refusal::NotAtExitEdge,
                format!(
                    "{} must touch the {} edge to leave the table by it",
                    u.name,
                    names.join(" or ")
                ),
            )
        })
}

/// Ends the game at the turn limit by `at_limit`: every ruleset's turn ends here.
pub fn end_at_limit(rules: &dyn Ruleset, b: &mut Battle, out: &mut Vec<Event>) {
    let v = at_limit(rules, b);
    end(b, out, v);
}
