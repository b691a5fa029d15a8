//! What a side means to do over the coming bounds, kept from bound to bound: for each objective
//! it must take to do better, a detachment of the units that can reach it soonest, and the
//! turn by which they can be there. A plan of one phase cannot see that a march pays only at
//! its end; the intent makes each bound's plan judge its progress along the march
//! (`progress`), so that the attack begun in one bound goes on in the next rather than being
//! weighed afresh, and each command can say what it is for ("marches towards the Galgenberg,
//! to take it by turn 7").
//!
//! The intent is reviewed at a side's first look in each turn. Units lost, and units that can
//! no longer reach their place by the turn limit, leave their detachments; a place taken, or
//! left with nobody, ends its goal. A side that would win were the turn limit reached now
//! recalls its detachments sent to take places; a draw keeps the goals it has. Either guards
//! what it holds (`guard`): each place whose loss alone would turn the result, and that an
//! enemy can reach by the limit, gets guards sent to stand within its holding distance (a
//! place lost ends its guard). A side that would lose reads the scenario's conditions for the
//! places that would turn the result (`needed`), of those its units can still reach, and
//! sends a detachment to each that has none.
//!
//! How far a unit goes in a turn is its move allowance as the rules give it (straight ahead,
//! from where it stands), learnt whenever the side may move it; until then, a long move.

use crate::players::opponent::{fights, long_move};
use crate::rules::battle::Battle;
use crate::rules::game::Game;
use crate::rules::geometry::Pt;
use crate::rules::model::{Side, Unit, UnitId};
use crate::rules::victory::ObjectiveView;
use std::collections::BTreeMap;

/// A detachment's units at most, and at least where the side has them: enough to take a place
/// and hold it against what stands near it, without sending the whole army after one of
/// several places.
const MOST: usize = 4;
const LEAST: usize = 2;

/// A detachment sent to take a place.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal {
    /// The objective's id and name, and where it is.
    pub objective: String,
    pub name: String,
    pub at: Pt,
    /// Its share of the worth of the places the side needed when the goal was set.
    pub share: f64,
    /// The units sent, each with its distance from the place when it was sent (mm, at least a
    /// long move): its progress is measured against that.
    pub units: Vec<(UnitId, f32)>,
    /// The turn by which the last of them can be there.
    pub by: u32,
    /// A place the side holds, sent to be held (a guard standing within its holding
    /// distance, so that the enemy cannot take it unfought), not taken.
    pub hold: bool,
    /// The holding distance (mm): a unit within it is there.
    pub radius: f32,
}

impl Goal {
    /// What the detachment is for, in the log's words ("to take it by turn 5", "to hold it").
    pub fn purpose(&self) -> String {
        if self.hold {
            "to hold it".into()
        } else {
            format!("to take it by turn {}", self.by)
        }
    }

    /// The task in the log's words, the place named ("take the Galgenberg by turn 5",
    /// "hold the Galgenberg").
    pub fn task(&self) -> String {
        if self.hold {
            format!("hold {}", self.name)
        } else {
            format!("take {} by turn {}", self.name, self.by)
        }
    }

    /// How far a unit stands from being there (mm): nothing within the holding distance.
    pub fn short_of(&self, u: &Unit) -> f32 {
        (u.base.distance_to_point(self.at) - self.radius).max(0.0)
    }
}

/// A side's intent: its goals, the turn they were last reviewed, and each unit's pace.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Intent {
    pub goals: Vec<Goal>,
    turn: Option<u32>,
    /// Each unit's move allowance (mm), as the rules last gave it.
    paces: BTreeMap<UnitId, f32>,
}

impl Intent {
    /// Reviews the intent: learns the paces of the units the side may move now, and at the
    /// first look in a turn reviews the goals (once a turn; the same battle gives the same
    /// intent).
    pub fn review(&mut self, game: &Game, side: Side) {
        let b: &Battle = game;
        self.learn_paces(game, side);
        if self.turn == Some(b.turn) {
            return;
        }
        self.turn = Some(b.turn);
        let objectives = game.objectives();
        // Units lost, no longer fighting or too far to arrive leave; a goal taken, or left
        // with nobody, ends.
        for g in &mut self.goals {
            let at = g.at;
            g.units.retain(|(id, _)| {
                b.unit(id).is_ok_and(|u| {
                    u.alive()
                        && u.base.width > 0.0
                        && fights(game, u)
                        && arrival(b, &self.paces, u, at) <= b.turn_limit
                })
            });
            if let Some(by) = g
                .units
                .iter()
                .filter_map(|(id, _)| b.unit(id).ok())
                .map(|u| arrival(b, &self.paces, u, at))
                .max()
            {
                g.by = by;
            }
        }
        self.goals.retain(|g| {
            !g.units.is_empty()
                && objectives
                    .iter()
                    .any(|o| o.id == g.objective && (o.holder == Some(side)) == g.hold)
        });
        let unsent = |goals: &[Goal]| -> Vec<&Unit> {
            fighting(game, side)
                .filter(|u| {
                    !goals
                        .iter()
                        .any(|g| g.units.iter().any(|(id, _)| *id == u.id))
                })
                .collect()
        };
        match game.result_at_limit().0 {
            // The position wins as it stands: the detachments sent to take places are
            // recalled, and the places whose loss would turn the result are guarded.
            Some(s) if s == side => {
                self.goals.retain(|g| g.hold);
                self.guard(game, side, unsent(&self.goals));
                return;
            }
            // A draw keeps the goals it has, and guards what it holds.
            None => {
                self.guard(game, side, unsent(&self.goals));
                return;
            }
            // A side that would lose looks for more.
            Some(_) => {}
        }
        let mut free = unsent(&self.goals);
        let reachable = |at: Pt, units: &[&Unit]| {
            units
                .iter()
                .any(|u| arrival(b, &self.paces, u, at) <= b.turn_limit)
        };
        let needed: Vec<_> = needed(game, side, |at| reachable(at, &free))
            .into_iter()
            .filter_map(|i| objectives.get(i))
            .collect();
        let total: f64 = needed.iter().map(|o| f64::from(o.worth.max(1))).sum();
        let mut wanted: Vec<_> = needed
            .into_iter()
            .filter(|o| !self.goals.iter().any(|g| g.objective == o.id))
            .collect();
        let fighting = free.len() + self.goals.iter().map(|g| g.units.len()).sum::<usize>();
        // The most valuable place first, so that it gets the soonest units.
        wanted.sort_by_key(|o| std::cmp::Reverse(o.worth));
        for o in wanted {
            let share = f64::from(o.worth.max(1)) / total.max(1.0);
            let n = ((fighting as f64 * share / 2.0).round() as usize).clamp(LEAST, MOST);
            // Soonest there first, the nearest of those arriving together.
            free.retain(|u| arrival(b, &self.paces, u, o.at) <= b.turn_limit);
            free.sort_by(|a, c| {
                arrival(b, &self.paces, a, o.at)
                    .cmp(&arrival(b, &self.paces, c, o.at))
                    .then(
                        a.base
                            .centre
                            .dist(o.at)
                            .total_cmp(&c.base.centre.dist(o.at)),
                    )
            });
            let sent: Vec<&Unit> = free.drain(..n.min(free.len())).collect();
            if let Some(goal) = self.send(b, o, share, &sent, false) {
                self.goals.push(goal);
            }
        }
    }

    /// Sends guards to the places `side` holds whose loss alone would turn the result were
    /// the turn limit reached (a win to a draw or a loss, a draw to a loss), that an enemy
    /// can reach by then, and sooner than a turn after the guards could (later, there is
    /// time to send them at a later review), and that have none: the `free` units that can
    /// stand within the holding distance soonest, `LEAST` of them, the most valuable place
    /// first. A place with a guard standing on it cannot be taken unfought: by the holding
    /// rules of every ruleset, the enemy must drive it off first.
    fn guard(&mut self, game: &Game, side: Side, mut free: Vec<&Unit>) {
        let b: &Battle = game;
        let objectives = game.objectives();
        let start: Vec<Option<Side>> = objectives.iter().map(|o| o.holder).collect();
        let rank = |held| rank(game, side, held);
        let now = rank(start.clone());
        let enemy = Battle::enemy(side);
        let mut risky: Vec<_> = objectives
            .iter()
            .enumerate()
            .filter(|(i, o)| {
                o.holder == Some(side) && !self.goals.iter().any(|g| g.objective == o.id) && {
                    let mut held = start.clone();
                    if let Some(h) = held.get_mut(*i) {
                        *h = Some(enemy);
                    }
                    rank(held) < now
                }
            })
            .filter_map(|(_, o)| {
                let soonest = fighting(game, enemy)
                    .map(|e| arrival(b, &BTreeMap::new(), e, o.at))
                    .min()?;
                (soonest <= b.turn_limit).then_some((o, soonest))
            })
            .collect();
        let total: f64 = risky.iter().map(|(o, _)| f64::from(o.worth.max(1))).sum();
        risky.sort_by_key(|(o, _)| std::cmp::Reverse(o.worth));
        for (o, enemy_there) in risky {
            let soonest = |u: &Unit| {
                let short = (u.base.distance_to_point(o.at) - o.radius_mm).max(0.0);
                (arrival(b, &self.paces, u, o.at), short.to_bits())
            };
            free.sort_by_key(|u| soonest(u));
            // Not yet threatened: the guards could still be there before the enemy's
            // soonest unit, were they sent next turn (the intent is reviewed every turn).
            if free
                .first()
                .is_some_and(|u| arrival(b, &self.paces, u, o.at) + 1 < enemy_there)
            {
                continue;
            }
            let sent: Vec<&Unit> = free.drain(..LEAST.min(free.len())).collect();
            let share = f64::from(o.worth.max(1)) / total.max(1.0);
            if let Some(goal) = self.send(b, o, share, &sent, true) {
                self.goals.push(goal);
            }
        }
    }

    /// The goal of `sent` going to `o` (to take it, or to `hold` it), with its `share` of the
    /// places' worth: by the turn the last of them can be there; None if nobody is sent.
    fn send(
        &self,
        b: &Battle,
        o: &ObjectiveView,
        share: f64,
        sent: &[&Unit],
        hold: bool,
    ) -> Option<Goal> {
        let by = sent
            .iter()
            .map(|u| arrival(b, &self.paces, u, o.at))
            .max()?;
        let step = long_move(b).max(1.0);
        Some(Goal {
            objective: o.id.clone(),
            name: o.name.clone(),
            at: o.at,
            share,
            units: sent
                .iter()
                .map(|u| (u.id.clone(), u.base.centre.dist(o.at).max(step)))
                .collect(),
            by,
            hold,
            radius: o.radius_mm,
        })
    }

    /// Learns the move allowance of each of `side`'s units the rules let it move now.
    fn learn_paces(&mut self, game: &Game, side: Side) {
        let b: &Battle = game;
        for u in b.alive().filter(|u| u.side == side && u.base.width > 0.0) {
            if let Some(mm) = super::candidates::pace(game, u) {
                self.paces.insert(u.id.clone(), mm);
            }
        }
    }

    /// The goal a unit is sent to, if any.
    pub fn goal_of(&self, unit: &UnitId) -> Option<&Goal> {
        self.goals
            .iter()
            .find(|g| g.units.iter().any(|(id, _)| id == unit))
    }

    /// The enemy's units standing within the holding distance of a place the side sends a
    /// detachment to take: the units it must drive off to take it (by every ruleset's holding
    /// rule a place with an enemy on it is not taken unfought). Each comes with its part of
    /// the goals' worth: a goal's share split evenly among its place's defenders.
    pub fn defenders<'a>(&self, game: &'a Game, side: Side) -> Vec<(&'a UnitId, f64)> {
        let mut out: Vec<(&UnitId, f64)> = Vec::new();
        for g in self.goals.iter().filter(|g| !g.hold) {
            let there: Vec<&Unit> = fighting(game, Battle::enemy(side))
                .filter(|e| e.base.reaches(g.at, g.radius))
                .collect();
            let part = g.share / there.len().max(1) as f64;
            for e in there {
                match out.iter_mut().find(|(id, _)| **id == e.id) {
                    Some((_, p)) => *p += part,
                    None => out.push((&e.id, part)),
                }
            }
        }
        out
    }

    /// How far along their marches the detachments stand, each goal weighed by its share: for
    /// each unit, the part of its distance when sent that it has covered (all of it on the
    /// place; nothing if it is lost or has gone back), the mean over the goal's units. A
    /// guard counts all of it within the place's holding distance, and at most a half short
    /// of it: a guard just outside the ring holds nothing.
    pub fn progress(&self, game: &Game) -> f64 {
        let b: &Battle = game;
        self.goals
            .iter()
            .map(|g| {
                let covered: f64 = g
                    .units
                    .iter()
                    .map(|(id, from)| match b.unit(id) {
                        Ok(u) if u.alive() && g.hold => {
                            // A guard holds only within the ring: standing there counts
                            // all, its way there at most a half.
                            let d = g.short_of(u);
                            if d <= 0.0 {
                                1.0
                            } else {
                                0.5 * f64::from((1.0 - d / from).clamp(0.0, 1.0))
                            }
                        }
                        Ok(u) if u.alive() => {
                            let d = u.base.distance_to_point(g.at);
                            f64::from((1.0 - d / from).clamp(0.0, 1.0))
                        }
                        _ => 0.0,
                    })
                    .sum();
                g.share * covered / g.units.len().max(1) as f64
            })
            .sum()
    }
}

/// A side's fighting units on the table (not its generals or trains, nor units off it).
fn fighting(game: &Game, side: Side) -> impl Iterator<Item = &Unit> {
    game.alive()
        .filter(move |u| u.side == side && u.base.width > 0.0 && fights(game, u))
}

/// The turn by which `u` can stand on `at`, at its pace (a long move a turn where the rules
/// have not yet given it).
fn arrival(b: &Battle, paces: &BTreeMap<UnitId, f32>, u: &Unit, at: Pt) -> u32 {
    let pace = paces
        .get(&u.id)
        .copied()
        .unwrap_or_else(|| long_move(b))
        .max(1.0);
    let turns = (u.base.distance_to_point(at) / pace).ceil();
    b.turn.saturating_add(turns.min(1000.0) as u32)
}

/// The result for `side` were the turn limit reached now with each objective held as `held`
/// says: 2 a win, 1 a draw, 0 a loss.
fn rank(game: &Game, side: Side, held: Vec<Option<Side>>) -> u8 {
    match game.result_at_limit_holding(held) {
        Some(s) if s == side => 2,
        None => 1,
        Some(_) => 0,
    }
}

/// The objectives `side` must take to do better were the turn limit reached (a draw from a
/// loss, a win from either), by the scenario's own conditions read with the places held
/// otherwise, of those its units can still reach (`reachable`): taken one by one, nearest
/// first, as far as the best result they give; then each that bettered nothing when it was
/// taken is left out again where the result holds without it. Empty where taking places
/// would change nothing.
fn needed(game: &Game, side: Side, reachable: impl Fn(Pt) -> bool) -> Vec<usize> {
    let objectives = game.objectives();
    let start: Vec<Option<Side>> = objectives.iter().map(|o| o.holder).collect();
    let rank = |taken: &[usize]| {
        let mut held = start.clone();
        for i in taken {
            if let Some(h) = held.get_mut(*i) {
                *h = Some(side);
            }
        }
        rank(game, side, held)
    };
    let near = |at: Pt| {
        fighting(game, side)
            .map(|u| u.base.centre.dist(at))
            .fold(f32::INFINITY, f32::min)
    };
    let mut order: Vec<usize> = (0..objectives.len())
        .filter(|i| start[*i] != Some(side) && reachable(objectives[*i].at))
        .collect();
    order.sort_by(|a, c| near(objectives[*a].at).total_cmp(&near(objectives[*c].at)));
    let mut best = rank(&[]);
    let mut upto = 0;
    let mut bettered = vec![false; order.len()];
    for n in 1..=order.len() {
        let r = rank(&order[..n]);
        if r > best {
            best = r;
            upto = n;
            bettered[n - 1] = true;
        }
    }
    // A place that bettered nothing when it was taken is left out again where the result
    // holds without it.
    let mut taken: Vec<(usize, bool)> = order[..upto].iter().copied().zip(bettered).collect();
    let mut k = 0;
    while k < taken.len() {
        let without: Vec<usize> = taken
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != k)
            .map(|(_, (i, _))| *i)
            .collect();
        if !taken[k].1 && rank(&without) >= best {
            taken.remove(k);
        } else {
            k += 1;
        }
    }
    taken.into_iter().map(|(i, _)| i).collect()
}
