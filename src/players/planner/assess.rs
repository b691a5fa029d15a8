//! One assessment of a position for a side, from what decides the battle: the end itself where
//! it has come; the share of each army's strength lost as its ruleset counts it (units, a
//! DBN army's weighted count, BBB's bases); each army's progress to breaking (its losses
//! against the least that ends the battle against it), weighing each loss the more the
//! nearer its army stands to breaking; the harm short of loss (shaken, disordered,
//! routed ...); the scenario's objectives held and the result were the turn limit reached
//! now, weighed the more the nearer that limit is; and how near each side's fighting units
//! stand to the objectives it does not hold. A side that would lose were the limit reached
//! now weighs its own harm the less the nearer the limit (its stake), and counts how near
//! every one of its units stands to the enemy: it must go and fight. Positive is good for the
//! side.

use crate::players::opponent::{fights, long_move};
use crate::rules::battle::Battle;
use crate::rules::game::Game;
use crate::rules::geometry::Pt;
use crate::rules::model::{Side, Unit};
use crate::rules::victory;

/// The weights of the assessment's terms. A won battle outweighs everything; an army's share
/// lost is the measure the rest is scaled to (losing all of it is -1).
pub struct Weights {
    /// A battle won (lost: the negative).
    pub won: f64,
    /// The enemy's share lost less one's own.
    pub lost: f64,
    /// The enemy's progress to breaking, squared, less one's own: nothing at the start, this
    /// weight just short of the break (which is then a battle won or lost).
    pub breaking: f64,
    /// Harm short of loss, each army's as a share of its units.
    pub harm: f64,
    /// The objectives' worth held, one's share less the enemy's, at the turn limit; less
    /// before it (`early`).
    pub held: f64,
    /// The scenario's result were the turn limit reached now, at the limit.
    pub at_limit: f64,
    /// The share of the objective terms that counts at the first turn (rising to all of it
    /// at the limit): places taken early can be lost again.
    pub early: f64,
    /// Nearness of the fighting units to the objectives their side does not hold.
    pub near: f64,
    /// More weight on that nearness for a side that loses were the turn limit reached now,
    /// rising from nothing at the first turn to all of it at the limit.
    pub behind: f64,
    /// The progress of the side's detachments towards the places it sends them to take
    /// (`Intent::progress`: all of it with every detachment there).
    pub goal: f64,
    /// How much less a side's own harm (its losses, its progress to breaking, its units
    /// shaken) weighs where it would lose were the turn limit reached now, rising from nothing
    /// at the first turn to all of this at the limit: a loss is a loss, at the limit or by
    /// breaking, so a side that stands to lose risks its units to turn the result.
    pub stake: f64,
    /// How near a side's fighting units stand to the enemy, each its nearest enemy's
    /// nearness, the mean over the units, where the side would lose were the turn limit
    /// reached now: a side that stands to lose must go and fight, every unit of it, and
    /// a plan of one bound sees only the cost of coming within the enemy's reach.
    pub engage: f64,
}

/// The planner's weights. The terms are shares of an army, so that one scale serves every
/// ruleset: a quarter of the enemy's army lost is worth as much as a quarter of the
/// objectives' worth held at the end, and a won battle outweighs any position.
pub const WEIGHTS: Weights = Weights {
    won: 4.0,
    lost: 1.0,
    breaking: 2.0,
    harm: 0.4,
    held: 1.0,
    at_limit: 0.5,
    early: 0.3,
    near: 0.15,
    behind: 0.5,
    goal: 0.4,
    stake: 0.75,
    engage: 0.5,
};

/// The assessment of the battle for `side`.
pub fn value(game: &Game, side: Side) -> f64 {
    let w = &WEIGHTS;
    let b: &Battle = game;
    let other = 1 - side.min(1);
    if b.is_over() {
        return match crate::text::report::outcome(b).and_then(|(winner, _)| winner) {
            Some(s) if s == side => w.won,
            Some(_) => -w.won,
            None => 0.0,
        };
    }
    let share = |s: Side| {
        let (lost, had) = game.rules.strength_lost(b, s);
        if had > 0.0 {
            f64::from(lost / had)
        } else {
            0.0
        }
    };
    let objectives = game.objectives();
    let decided = !objectives.is_empty() || !game.victory_words().is_empty();
    let late = lateness(b);
    let limit_winner = winner_at_limit(game);
    let own = own_weight(b, side, limit_winner);
    let behind = |s: Side| limit_winner.is_some_and(|x| x != s);
    let mut v = w.lost * (share(other) - own * share(side));
    v += w.breaking * (breaking(game, other).powi(2) - own * breaking(game, side).powi(2));
    v += w.harm * (harm(game, other) - own * harm(game, side));
    if behind(side) {
        v += w.engage * engagement(game, side);
    }
    if behind(other) {
        v -= w.engage * engagement(game, other);
    }
    if decided {
        let weight = w.early + (1.0 - w.early) * late;
        let total: f64 = objectives.iter().map(|o| f64::from(o.worth.max(1))).sum();
        if total > 0.0 {
            let held = |s: Side| {
                objectives
                    .iter()
                    .filter(|o| o.holder == Some(s))
                    .map(|o| f64::from(o.worth.max(1)))
                    .sum::<f64>()
                    / total
            };
            v += weight * w.held * (held(side) - held(other));
            // A side that loses were the limit reached now can only win by going for the
            // places: their nearness counts the more the nearer the limit.
            let near = |s: Side| w.near + if behind(s) { w.behind * late } else { 0.0 };
            v += near(side) * nearness(game, side) - near(other) * nearness(game, other);
        }
        v += weight
            * w.at_limit
            * match limit_winner {
                Some(s) if s == side => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            };
    }
    v
}

/// What a side's own harm weighs in its assessment (`Weights::stake`): all of it, but where it
/// would lose were the turn limit reached now, less the nearer the limit.
pub fn stake(game: &Game, side: Side) -> f64 {
    own_weight(game, side, winner_at_limit(game))
}

/// `stake` with the winner at the limit known.
fn own_weight(b: &Battle, side: Side, limit_winner: Option<Side>) -> f64 {
    if limit_winner.is_some_and(|x| x != side) {
        1.0 - WEIGHTS.stake * lateness(b)
    } else {
        1.0
    }
}

/// The winner were the turn limit reached now, where the scenario says what decides it (its
/// objectives or its conditions); None for a draw, or where nothing does.
fn winner_at_limit(game: &Game) -> Option<Side> {
    let decided = !game.objectives().is_empty() || !game.victory_words().is_empty();
    if decided {
        game.result_at_limit().0
    } else {
        None
    }
}

/// How far the battle has come towards its turn limit: nothing before the first turn, 1 at
/// the limit.
fn lateness(b: &Battle) -> f64 {
    (f64::from(b.turn.min(b.turn_limit)) / b.turn_limit.max(1) as f64).clamp(0.0, 1.0)
}

/// A side's progress to breaking: its losses as a share of the least that ends the battle
/// against it (`victory::break_point`), from nothing to 1; nothing where no loss ends it.
fn breaking(game: &Game, side: Side) -> f64 {
    let b: &Battle = game;
    match victory::break_point(game.rules.get(), b, side) {
        Some(at) => f64::from(game.rules.units_lost(b, side).0 / at).clamp(0.0, 1.0),
        None => 0.0,
    }
}

/// A side's harm short of loss, as a share of its fighting units: each unit shaken,
/// disordered, disrupted or disorganised counts a quarter, routed or spent a half.
fn harm(game: &Game, side: Side) -> f64 {
    let units = fighting(game, side);
    if units.is_empty() {
        return 0.0;
    }
    let sum: f64 = units
        .iter()
        .map(|u| {
            let s = game.rules.state_of(u);
            let shaken = s.shaken || s.disordered || s.disrupted || s.disorganised;
            let broken = s.routed || s.spent;
            0.25 * f64::from(u8::from(shaken)) + 0.5 * f64::from(u8::from(broken))
        })
        .sum();
    sum / units.len() as f64
}

/// How near a side's fighting units stand to the objectives it does not hold: for each, the
/// nearest unit's nearness, 1 on the place, a half at three long moves, a quarter at nine,
/// never quite nothing (so that a march from far off gains with every step); the mean over
/// those objectives (1 where it holds them all).
fn nearness(game: &Game, side: Side) -> f64 {
    let units = fighting(game, side);
    let wanted: Vec<_> = game
        .objectives()
        .into_iter()
        .filter(|o| o.holder != Some(side))
        .collect();
    if wanted.is_empty() {
        return 1.0;
    }
    let sum: f64 = wanted.iter().map(|o| closeness(game, &units, o.at)).sum();
    sum / wanted.len() as f64
}

/// How near the nearest of `units` stands to `at`: 1 on it, a half at three long moves, a
/// quarter at nine, never quite nothing (centre to centre).
fn closeness(game: &Game, units: &[&Unit], at: Pt) -> f64 {
    let reach = 3.0 * long_move(game).max(1.0);
    let d = units
        .iter()
        .map(|u| u.base.centre.dist(at))
        .fold(f32::INFINITY, f32::min);
    f64::from(reach / (reach + d))
}

/// How near a side's fighting units stand to the enemy: for each, its nearest enemy's
/// nearness (1 in contact, a half at three long moves, as `nearness`), the mean over them.
fn engagement(game: &Game, side: Side) -> f64 {
    let units = fighting(game, side);
    let enemies = fighting(game, Battle::enemy(side));
    if units.is_empty() || enemies.is_empty() {
        return 0.0;
    }
    let sum: f64 = units
        .iter()
        .map(|u| closeness(game, &enemies, u.base.centre))
        .sum();
    sum / units.len() as f64
}

/// A side's fighting units on the table (not its generals or trains).
fn fighting(game: &Game, side: Side) -> Vec<&Unit> {
    game.alive()
        .filter(|u| u.side == side && fights(game, u))
        .collect()
}
