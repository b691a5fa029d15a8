//! The opponent that plans. For each phase its side acts in, it gathers each unit's sensible
//! commands (`candidates`), searches for the best plan of the whole phase by evolving plans and
//! judging each on a copy of the battle through the enemy's reply (`search`), by one
//! assessment of the position from what decides the battle (`assess`), and gives the plan's
//! commands one at a time, each with what it is for. Once its plan is given it plans again
//! from the battle as it now stands (the dice may have gone otherwise), a few times a phase.
//!
//! Its budget (`think`) is counted in plans judged a phase, so the same battle, seed and budget
//! give the same commands on any machine. Placing its units in deployment, and the plan it
//! starts each search from, are the veteran's (`players::opponent`, frozen as it was before
//! the planner): the search keeps the veteran's plan where it finds nothing better.

pub mod assess;
pub mod candidates;
pub mod intent;
pub mod search;

use crate::players::Commander;
use crate::players::opponent::{Decision, Opponent, Style, probe};
use crate::rules::battle::Battle;
use crate::rules::command::Command;
use crate::rules::game::Game;
use crate::rules::geometry::Pt;
use crate::rules::model::{Phase, Side, UnitId};
use candidates::gap_to_enemy;
use intent::Intent;
use std::collections::VecDeque;

/// Plans judged a phase unless told otherwise: about 200 ms a bound on one core of a
/// release build on the largest shipped scenario.
pub const DEFAULT_THINK: usize = 24;
/// Nearer than this to an enemy (mm) a unit is in contact with it: the plan that closes up
/// on the enemy stops short of it.
const CONTACT: f32 = 0.5;
/// Plans made in one phase at most: after its first plan is given, the planner looks again
/// (a command roll may have given more to do, the dice may have gone otherwise).
const ROUNDS: usize = 3;

/// What a unit of a plan goes for: the place (an objective, an enemy) and why, in the log's
/// words. The window draws them on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Aim {
    pub unit: UnitId,
    pub at: Pt,
    pub why: String,
}

/// The opponent that plans.
pub struct Planner {
    think: usize,
    /// Places the units in deployment, ends phases the rules will not let end, and proposes
    /// the plan each search starts from.
    veteran: Opponent,
    key: Option<(u32, Phase, Side, usize)>,
    plan: VecDeque<Decision>,
    rounds: usize,
    given: usize,
    /// What it has given each unit this phase (by kind of command, moves as one): a later
    /// plan of the phase gives no unit the same kind again (no order sent twice, no move
    /// after a move but where the rules' own buttons offer one).
    done: Vec<(UnitId, &'static str)>,
    /// What the units of this phase's plans go for.
    aims: Vec<Aim>,
    /// What the side means to do over the coming bounds (kept from bound to bound).
    intent: Intent,
    refused: usize,
}

impl Planner {
    /// A planner judging `think` plans a phase.
    pub fn new(think: usize) -> Self {
        Planner {
            think: think.max(1),
            veteran: Opponent::new(Style::Odds),
            key: None,
            plan: VecDeque::new(),
            rounds: 0,
            given: 0,
            done: Vec::new(),
            aims: Vec::new(),
            intent: Intent::default(),
            refused: 0,
        }
    }

    /// Judges `think` plans a phase from the next plan on.
    pub fn set_think(&mut self, think: usize) {
        self.think = think.max(1);
    }

    /// What the units of the plans made this phase go for (the latest plan's last).
    pub fn aims(&self) -> &[Aim] {
        &self.aims
    }

    /// What the side means to do over the coming bounds: the places it sends detachments to.
    pub fn intent(&self) -> &Intent {
        &self.intent
    }

    /// Commands it gave that the battle refused (there should be none: each is tried first).
    pub fn refused(&self) -> usize {
        self.refused
    }

    /// The next command for `side` in this phase, if it has one worth giving (always one the
    /// battle accepts).
    pub fn decide(&mut self, game: &Game, side: Side) -> Option<Decision> {
        let b: &Battle = game;
        let key = (b.turn, b.phase, side, b.deployment_step);
        if self.key != Some(key) {
            self.key = Some(key);
            self.plan.clear();
            self.rounds = 0;
            self.given = 0;
            self.done.clear();
            self.aims.clear();
        }
        if b.is_over() || self.given >= 4 * b.units.len() + 8 {
            return None;
        }
        if game.rules.deployment(b).is_some() {
            return self.veteran.decide(game, side);
        }
        self.intent.review(game, side);
        loop {
            while let Some(d) = self.plan.pop_front() {
                if probe(game, &d.command).is_some() {
                    self.given += 1;
                    self.remember(&d.command);
                    return Some(d);
                }
            }
            if self.rounds >= ROUNDS {
                return None;
            }
            self.rounds += 1;
            self.plan = self.make_plan(game, side);
            if self.plan.is_empty() {
                self.rounds = ROUNDS;
                return None;
            }
        }
    }

    /// Notes the units a command is given to, by its kind.
    fn remember(&mut self, cmd: &Command) {
        let kind = kind_of(cmd);
        match cmd {
            Command::MoveGroup { units, .. } => {
                self.done.extend(units.iter().map(|u| (u.clone(), kind)));
            }
            c => self.done.extend(c.unit().map(|u| (u.clone(), kind))),
        }
    }

    /// The plan for the rest of this phase, its commands in order with their reasons.
    fn make_plan(&mut self, game: &Game, side: Side) -> VecDeque<Decision> {
        // The veteran's commands for this phase, played on a copy: offered to the units they
        // name, and the first plan the search judges.
        let mut rng = search::rng_for(game, side, self.rounds);
        let mut copy = game.fork();
        // Its own dice: the veteran's attacks on the copy must not read the battle's.
        copy.reseed(rand::RngExt::random(&mut rng));
        let advice = Opponent::new(Style::Odds).play_phase(&mut copy, side, false);
        let mut units = candidates::for_side(game, side, &advice, &self.intent);
        // The veteran's own command stays (its second move for a unit far off, where the
        // rules allow one).
        for u in &mut units {
            let advised = advice.iter().find(|d| d.command.unit() == Some(&u.unit));
            u.cands.retain(|c| {
                advised.is_some_and(|d| d.command == c.command)
                    || !self.done.contains(&(u.unit.clone(), kind_of(&c.command)))
            });
        }
        units.retain(|u| !u.cands.is_empty());
        if units.is_empty() {
            return VecDeque::new();
        }
        let veteran: search::Genome = units
            .iter()
            .map(|u| {
                advice
                    .iter()
                    .find(|d| d.command.unit() == Some(&u.unit))
                    .and_then(|d| u.cands.iter().position(|c| c.command == d.command))
                    .map_or(0, |i| i + 1)
            })
            .collect();
        // The veteran's plan with every unit the intent sends somewhere marching there: the
        // second plan the search starts from. The veteran's stays the one kept unless another
        // is judged better by the margin (measured: a march kept by default cost the attacker
        // at Spicheren more than it gained elsewhere).
        let marching: search::Genome = units
            .iter()
            .zip(&veteran)
            .map(|(u, v)| u.cands.iter().position(|c| c.march).map_or(*v, |i| i + 1))
            .collect();
        let b: &Battle = game;
        // The marching plan with every other unit closing up on the enemy as far as its moves
        // take it short of contact: the third plan the search starts from. A side that must go
        // and fight finds it among the first plans judged; changing one or two units' choices
        // at a time from the veteran's, a search of tens of plans never comes to it.
        let advancing: search::Genome = units
            .iter()
            .zip(veteran.iter().zip(&marching))
            .map(|(u, (v, m))| {
                let now = b
                    .unit(&u.unit)
                    .map_or(f32::INFINITY, |x| gap_to_enemy(b, x));
                let closest = u
                    .cands
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| Some((i, c.gap?)))
                    .filter(|(_, g)| *g > CONTACT && *g < now - CONTACT)
                    .min_by(|a, c| a.1.total_cmp(&c.1));
                match closest {
                    Some((i, _)) if m == v => i + 1,
                    _ => *m,
                }
            })
            .collect();
        let found = search::evolve(
            game,
            side,
            &self.intent,
            &units,
            &[veteran, marching, advancing],
            self.think,
            &mut rng,
        );
        let gain = found.score - found.hold;
        let plan = search::ordered(&units, &found.genome);
        for (i, c) in &plan {
            if let (Some(at), Some(u)) = (c.aim, units.get(*i)) {
                self.aims.retain(|a| a.unit != u.unit);
                self.aims.push(Aim {
                    unit: u.unit.clone(),
                    at,
                    why: c.why.clone(),
                });
            }
        }
        plan.into_iter()
            .map(|(_, c)| Decision {
                command: c.command.clone(),
                reason: format!(
                    "{}: part of a plan judged {:+.2} after the enemy's reply ({:+.2} against standing still, {} trials)",
                    c.why,
                    shown(found.score),
                    shown(gain),
                    found.trials
                ),
            })
            .collect()
    }

    /// The command that ends the phase (the veteran's: `EndPhase`, or what the rules want done
    /// first).
    pub fn finish(&mut self, game: &Game, side: Side) -> Decision {
        self.veteran.finish(game, side)
    }

    /// Plays `side`'s commands in this phase, and ends it if `end`; returns what it did.
    pub fn play_phase(&mut self, b: &mut Game, side: Side, end: bool) -> Vec<Decision> {
        <Self as Commander>::play_phase(self, b, side, end)
    }
}

impl Default for Planner {
    fn default() -> Self {
        Planner::new(DEFAULT_THINK)
    }
}

/// A command's kind for `Planner::done`: every move one kind.
fn kind_of(cmd: &Command) -> &'static str {
    match cmd {
        Command::Move { .. } | Command::MoveGroup { .. } | Command::MoveStand { .. } => "Move",
        c => c.kind(),
    }
}

impl Commander for Planner {
    fn decide(&mut self, game: &Game, side: Side) -> Option<Decision> {
        Planner::decide(self, game, side)
    }
    fn finish(&mut self, game: &Game, side: Side) -> Decision {
        Planner::finish(self, game, side)
    }
    fn refused_one(&mut self) {
        self.refused += 1;
    }
}

/// A score as the log gives it, to two places: one that rounds to nothing reads "+0.00", never
/// "-0.00".
fn shown(x: f64) -> f64 {
    (x * 100.0).round() / 100.0 + 0.0
}

#[cfg(test)]
mod shown_tests {
    #[test]
    fn a_score_that_rounds_to_nothing_has_no_minus() {
        assert_eq!(format!("{:+.2}", super::shown(-0.001)), "+0.00");
        assert_eq!(format!("{:+.2}", super::shown(-0.456)), "-0.46");
        assert_eq!(format!("{:+.2}", super::shown(0.9)), "+0.90");
    }
}
