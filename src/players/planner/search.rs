//! The search for a phase's plan: Online Evolutionary Planning (Justesen, Mahlmann, Risi and
//! Togelius, "Playing Multiaction Adversarial Games: Online Evolutionary Planning versus Tree
//! Search", IEEE Transactions on Games 2018). A plan gives each unit one of its choices (or
//! none); a population of plans evolves by crossover and mutation, each plan judged by playing
//! its buttons and moves on a copy of the battle with dice the planner throws itself, counting
//! its attacks at their expected worth by the rules' own previews from where the moves left
//! the units, then looking on through the rest of the bound and the enemy's reply (as Baier
//! and Cowling's flexible horizon looks past the turn) at the attacks each side can make
//! there, counted the same way, and assessing the position. What dice are still thrown (a
//! move's own rolls) are the same for every plan of a generation (common random numbers), and
//! a plan that survives is judged again on each generation's dice, so its score is a mean; the
//! first plan it starts from (the one the planner keeps unless another beats it) stays in
//! every generation, and another is chosen only where it beats it on the same dice
//! (`MARGIN`). The budget is counted in plans judged, so the same battle, seed and budget give
//! the same plan on any machine.

use super::assess;
use super::candidates::{Cand, Kind, UnitChoices, charge_outlook, nearest_enemies};
use super::intent::Intent;
use crate::players::opponent::{long_move, worth};
use crate::rules::battle::Battle;
use crate::rules::command::Command;
use crate::rules::game::Game;
use crate::rules::model::{Side, Unit, UnitId};
use crate::rules::ruleset::common::sweep_to_contact;
use crate::rules::ruleset::view::Outlook;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plans in the population.
const POPULATION: usize = 12;
/// Phases the quick model plays after a plan before it stops and assesses (the rest of the
/// bound and the enemy's whole reply, in every ruleset's sequence of phases).
const HORIZON: usize = 16;
/// How much better than the first seed's plan (the one to keep), on the same dice, a plan must
/// be judged to be chosen instead: a fiftieth of an army, so that a plan that only drew
/// luckier dice in a few trials does not displace it.
const MARGIN: f64 = 0.02;

/// A plan: for each unit (in the order of the choices), 0 to hold, else its choice's index + 1.
pub type Genome = Vec<usize>;

/// The plan found, with its mean score, that of holding every unit, and the plans judged.
pub struct Found {
    pub genome: Genome,
    pub score: f64,
    pub hold: f64,
    pub trials: usize,
}

/// A plan and its judgements so far.
struct Member {
    genome: Genome,
    sum: f64,
    n: usize,
}

impl Member {
    fn mean(&self) -> f64 {
        if self.n == 0 {
            f64::NEG_INFINITY
        } else {
            self.sum / self.n as f64
        }
    }
}

/// The commands of a plan in the order they are given: buttons, then moves, then attacks,
/// each kind in the units' order.
pub fn ordered<'a>(units: &'a [UnitChoices], genome: &[usize]) -> Vec<(usize, &'a Cand)> {
    let mut out: Vec<(usize, &Cand)> = units
        .iter()
        .zip(genome)
        .enumerate()
        .filter(|(_, (_, g))| **g > 0)
        .filter_map(|(i, (u, g))| u.cands.get(g - 1).map(|c| (i, c)))
        .collect();
    out.sort_by_key(|(i, c)| (c.kind, *i));
    out
}

/// Judges a plan once: plays its buttons and moves on a copy of the battle thrown with `dice`,
/// counts its attacks at their expected worth by the rules' own previews from where its moves
/// left the units (not thrown: a plan judged on lucky dice would be chosen for its luck, and
/// more plans judged would only find luckier ones), then looks on to the horizon (`reply`),
/// and assesses the position for `side` with the attacks each side can expect to make there,
/// and the progress of its `intent`'s marches.
pub fn judge(
    game: &Game,
    side: Side,
    intent: &Intent,
    units: &[UnitChoices],
    genome: &[usize],
    dice: u64,
) -> f64 {
    let valuer = Valuer {
        stake: assess::stake(game, side),
        defenders: intent.defenders(game, side),
    };
    let mut g = game.fork();
    g.reseed(dice);
    let phase = (g.turn, g.phase);
    let mut attacks = Vec::new();
    for (_, c) in ordered(units, genome) {
        if g.is_over() || (g.turn, g.phase) != phase {
            break;
        }
        if c.kind == Kind::Attack {
            attacks.push(&c.command);
        } else {
            let _ = g.execute(c.command.clone());
        }
    }
    let mut taken = 0.0;
    if !g.is_over() && (g.turn, g.phase) == phase {
        let of = enemies_of(&g, side);
        for cmd in attacks {
            if let Ok(o) = g.rules.preview(&g, cmd) {
                taken += valuer.attack(&o, target_of(cmd), of);
            }
        }
    }
    let (gain, loss) = reply(&mut g, side, &valuer);
    let threats = taken + gain - valuer.stake * loss;
    let w = &assess::WEIGHTS;
    assess::value(&g, side) + w.lost * threats + w.goal * intent.progress(&g)
}

/// The quick model of the rest of the bound and the enemy's reply: in each phase until
/// `side`'s next bound (or the horizon), every acting side's units' best attacks by the
/// rules' own previews (and where the rules make a charge by a move, the move straight ahead
/// into contact: `charge_worth`) are counted at their expected worth, not thrown (their dice
/// would only add noise to the judgement), and the phase ends; then, at the start of `side`'s
/// next bound, its own charges by a move (`own_charges`), so that a charge the plan makes
/// ready (a line squared up to an enemy) counts as the enemy's would. Returns what `side` may
/// expect to take and what it may expect to lose, each as a share of the army that loses
/// it. The side that planned has given its plan in the phase it is in.
fn reply(g: &mut Game, side: Side, valuer: &Valuer) -> (f64, f64) {
    let mut first = true;
    let mut enemy_moved = false;
    let (mut gain, mut loss) = (0.0, 0.0);
    for _ in 0..HORIZON {
        if g.is_over() || g.rules.deployment(g).is_some() {
            break;
        }
        if g.active != side {
            enemy_moved = true;
        } else if enemy_moved {
            gain += own_charges(g, side, valuer);
            break;
        }
        for s in g.rules.acting_sides(g) {
            if first && s == side {
                continue;
            }
            if s == side {
                gain += expected(g, s, Some(valuer));
            } else {
                loss += expected(g, s, None);
            }
        }
        first = false;
        if g.is_over() || g.execute(Command::EndPhase).is_err() {
            break;
        }
    }
    (gain, loss)
}

/// What `side`'s charges by a move may take at the start of its next bound (`g` there): in
/// its first phase in which its units may move, their moves into contact.
fn own_charges(g: &mut Game, side: Side, valuer: &Valuer) -> f64 {
    for _ in 0..g.rules.phases().len() {
        if g.is_over() || g.active != side {
            return 0.0;
        }
        let b: &Battle = g;
        if b.alive().any(|u| u.side == side && g.rules.may_move(b, u)) {
            return expected(g, side, Some(valuer));
        }
        if g.execute(Command::EndPhase).is_err() {
            return 0.0;
        }
    }
    0.0
}

/// The number of `side`'s enemies' units on the table (at least one): what the worth of its
/// attacks is a share of.
fn enemies_of(b: &Battle, side: Side) -> f64 {
    b.alive()
        .filter(|u| u.base.width > 0.0 && u.side != side)
        .count()
        .max(1) as f64
}

/// What a side's attacks are worth to it in a plan's judgement.
struct Valuer<'a> {
    /// What its own risk weighs (`assess::stake`): less for a side that stands to lose.
    stake: f64,
    /// The enemy's units on the places its intent sends detachments to take, each with its
    /// part of the goals' worth (`Intent::defenders`).
    defenders: Vec<(&'a UnitId, f64)>,
}

impl Valuer<'_> {
    /// The worth of an attack on `target` with outlook `o`, as a share of the `of` enemy
    /// units it is taken from: each outcome's edge weighed by its chance, the side's own
    /// losses by its stake; a gain on a defender of a place the side goes to take counts its
    /// part of that goal's progress too (driving the defenders off is what takes it).
    fn attack(&self, o: &Outlook, target: Option<&UnitId>, of: f64) -> f64 {
        let place = target
            .and_then(|t| self.defenders.iter().find(|(d, _)| *d == t))
            .map_or(0.0, |(_, part)| assess::WEIGHTS.goal * part);
        o.chances
            .iter()
            .map(|c| {
                if c.edge > 0.0 {
                    c.chance * c.edge * (1.0 / of + place)
                } else {
                    c.chance * c.edge * self.stake / of
                }
            })
            .sum()
    }
}

/// The unit an attack is made on, where the command names it.
fn target_of(cmd: &Command) -> Option<&UnitId> {
    match cmd {
        Command::Fire { target, .. } | Command::Fight { target, .. } => Some(target),
        _ => None,
    }
}

/// The expected worth of `side`'s units' best attacks on the nearest enemies (each above
/// nothing by the rules' preview), as a share of the enemy's units on the table: valued by
/// `valuer` for the side that plans, else at their worth to the side that makes them.
fn expected(g: &Game, side: Side, valuer: Option<&Valuer>) -> f64 {
    let b: &Battle = g;
    let of = enemies_of(b, side);
    let value = |o: &Outlook, e: &Unit| match valuer {
        Some(v) => v.attack(o, Some(&e.id), of),
        None => worth(o).0 / of,
    };
    let mut sum = 0.0;
    for u in b.alive().filter(|u| u.base.width > 0.0 && u.side == side) {
        let mut best = 0.0f64;
        for e in nearest_enemies(b, u) {
            match g.rules.target_command(b, &u.id, &e.id) {
                Some(cmd) => {
                    if let Ok(o) = g.rules.preview(b, &cmd) {
                        best = best.max(value(&o, e));
                    }
                }
                None => {
                    if let Some(o) = charge_worth(g, u, e) {
                        best = best.max(value(&o, e));
                    }
                }
            }
        }
        sum += best;
    }
    sum
}

/// The outlook of the fight a move straight ahead into contact with `e` brings, where
/// the rules make a charge by a move (DBN's movement phase: no attack command then) and `u`
/// may make it now: the enemy's front met within a long move, the contact tried on a copy of
/// the battle and the fight previewed as it will stand in the close combat phase.
fn charge_worth(g: &Game, u: &Unit, e: &Unit) -> Option<Outlook> {
    let b: &Battle = g;
    if !g.rules.may_move(b, u) {
        return None;
    }
    let reach = sweep_to_contact(&u.base, &e.base, 90.0)?;
    if reach > long_move(b) {
        return None;
    }
    charge_outlook(g, u, e, false).map(|(_, o)| o)
}

/// Evolves plans for `side` within `budget` judgements, from `seeds` (plans to start from:
/// holding, another player's) and random plans.
pub fn evolve(
    game: &Game,
    side: Side,
    intent: &Intent,
    units: &[UnitChoices],
    seeds: &[Genome],
    budget: usize,
    rng: &mut ChaCha8Rng,
) -> Found {
    let hold: Genome = vec![0; units.len()];
    let incumbent = seeds.first().unwrap_or(&hold);
    let mut pop: Vec<Member> = Vec::new();
    let add = |pop: &mut Vec<Member>, genome: Genome| {
        if !pop.iter().any(|m| m.genome == genome) {
            pop.push(Member {
                genome,
                sum: 0.0,
                n: 0,
            });
        }
    };
    // The seeds first, so that the smallest budget judges the plan to keep.
    for s in seeds {
        add(&mut pop, s.clone());
    }
    add(&mut pop, hold.clone());
    // The rest of the first generation: each seed's plan with one or two units' choices
    // changed (with a budget of tens of plans a search near a good plan finds more than one
    // among random plans); random plans where there is no seed.
    let mut tries = 0;
    while pop.len() < POPULATION && tries < 4 * POPULATION {
        tries += 1;
        let g = match seeds.get(tries % seeds.len().max(1)) {
            Some(seed) if !units.is_empty() => {
                let mut g = seed.clone();
                for _ in 0..=rng.random_range(0..2usize) {
                    let i = rng.random_range(0..units.len());
                    g[i] = rng.random_range(0..=units[i].cands.len());
                }
                g
            }
            _ => units
                .iter()
                .map(|u| rng.random_range(0..=u.cands.len()))
                .collect(),
        };
        add(&mut pop, g);
    }
    let mut trials = 0;
    let mut hold_score = (0.0, 0usize);
    while trials < budget.max(1) {
        let dice: u64 = rng.random();
        for m in pop.iter_mut() {
            if trials >= budget.max(1) {
                break;
            }
            let v = judge(game, side, intent, units, &m.genome, dice);
            m.sum += v;
            m.n += 1;
            trials += 1;
            if m.genome == hold {
                hold_score = (hold_score.0 + v, hold_score.1 + 1);
            }
        }
        // The better half stays (judged on every generation's dice); children of two of them
        // fill the rest, each with one unit's choice changed.
        pop.sort_by(|a, c| c.mean().total_cmp(&a.mean()));
        if units.is_empty() {
            break;
        }
        let keep = (pop.len() / 2).max(1);
        // The first seed (the plan to keep) stays, judged on every generation's dice: the
        // plan chosen must beat it on the same dice.
        if let Some(i) = pop.iter().position(|m| &m.genome == incumbent)
            && i >= keep
        {
            pop.swap(i, keep - 1);
        }
        pop.truncate(keep);
        let mut tries = 0;
        while pop.len() < POPULATION && tries < 4 * POPULATION {
            tries += 1;
            let a = rng.random_range(0..keep);
            let c = rng.random_range(0..keep);
            let mut child: Genome = pop[a]
                .genome
                .iter()
                .zip(&pop[c].genome)
                .map(|(x, y)| if rng.random_bool(0.5) { *x } else { *y })
                .collect();
            let i = rng.random_range(0..units.len());
            child[i] = rng.random_range(0..=units[i].cands.len());
            add(&mut pop, child);
        }
    }
    // The best of the plans judged as often as the most judged one: a plan judged once on
    // lucky dice does not beat one that held its place over every generation's dice.
    let most = pop.iter().map(|m| m.n).max().unwrap_or(0);
    let kept = pop.iter().find(|m| &m.genome == incumbent && m.n == most);
    let best = pop
        .iter()
        .filter(|m| m.n > 0 && m.n == most)
        .max_by(|a, c| a.mean().total_cmp(&c.mean()))
        .map(|m| match kept {
            Some(k) if m.mean() < k.mean() + MARGIN => k,
            _ => m,
        })
        .or_else(|| pop.first());
    let hold_mean = if hold_score.1 > 0 {
        hold_score.0 / hold_score.1 as f64
    } else {
        0.0
    };
    match best {
        Some(m) => Found {
            genome: m.genome.clone(),
            score: m.mean(),
            hold: hold_mean,
            trials,
        },
        None => Found {
            genome: hold,
            score: hold_mean,
            hold: hold_mean,
            trials,
        },
    }
}

/// The planner's generator for a phase: from the battle's seed, the bound and the side, so
/// that the same battle and budget give the same plan.
pub fn rng_for(b: &Battle, side: Side, round: usize) -> ChaCha8Rng {
    let phase = b.phase.id().bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, c| {
        (h ^ u64::from(c)).wrapping_mul(0x0100_0000_01b3)
    });
    let key = b
        .seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(u64::from(b.turn) << 32)
        ^ phase
            .wrapping_add((side as u64) << 8)
            .wrapping_add(round as u64)
            .wrapping_add(b.commands.len() as u64 * 0x1000_0000_0000);
    ChaCha8Rng::seed_from_u64(key)
}
