//! Batch runs: a scenario played many times headless by chosen players, and what the games
//! say about its balance (win rates with Wilson intervals, game lengths, losses by troop type,
//! the units whose loss decides games). Games run on all cores; each game's dice come from its
//! own seed, so the same arguments always give the same report.

pub mod print;
pub mod saves;
pub mod shard;

use crate::players::autoplay::AutoPlayer;
use crate::players::opponent::{Opponent, Style};
use crate::players::planner::{DEFAULT_THINK, Planner};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Ending, Event};
use crate::rules::game::Game;
use crate::rules::model::Side;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Player {
    /// The opponent that plans, judging `think` plans a phase (`players::planner`).
    Opponent { think: usize },
    /// The opponent of hand rules, weighing every attack by its odds, frozen as it was before
    /// the planner (`players::opponent`).
    Veteran,
    /// The veteran's yardstick: attacks anything, moves straight at the nearest enemy.
    Straight,
    /// The seeded random player.
    Random,
}

impl Player {
    /// The planning opponent at its usual budget.
    pub const OPPONENT: Player = Player::Opponent {
        think: DEFAULT_THINK,
    };

    /// A player by name: `opponent` (at the usual budget, or `opponent:N` judging N plans a
    /// phase), `veteran`, `straight`, `random`.
    pub fn parse(s: &str) -> Result<Player, String> {
        let s = s.trim();
        if let Some(n) = s.strip_prefix("opponent:") {
            return match n.trim().parse::<usize>() {
                Ok(think) if think > 0 => Ok(Player::Opponent { think }),
                _ => Err(format!(
                    "{s:?}: after \"opponent:\" give the plans it judges a phase, a whole number above 0"
                )),
            };
        }
        match s {
            "opponent" => Ok(Player::OPPONENT),
            "veteran" => Ok(Player::Veteran),
            "straight" => Ok(Player::Straight),
            "random" => Ok(Player::Random),
            x => Err(format!(
                "unknown player {x:?}: the players are opponent (or opponent:N, judging N plans a phase), veteran, straight and random"
            )),
        }
    }

    /// Its name as `parse` reads it: the opponent's budget only where it is not the usual.
    pub fn name(self) -> String {
        match self {
            Player::Opponent { think } if think == DEFAULT_THINK => "opponent".into(),
            Player::Opponent { think } => format!("opponent:{think}"),
            Player::Veteran => "veteran".into(),
            Player::Straight => "straight".into(),
            Player::Random => "random".into(),
        }
    }

    /// The same player with the opponent's budget set to `think` (the others unchanged).
    pub fn thinking(self, think: usize) -> Player {
        match self {
            Player::Opponent { .. } => Player::Opponent { think },
            p => p,
        }
    }
}

impl From<Player> for String {
    fn from(p: Player) -> String {
        p.name()
    }
}

impl TryFrom<String> for Player {
    type Error = String;
    fn try_from(s: String) -> Result<Player, String> {
        Player::parse(&s)
    }
}

/// A player at the table.
pub enum Bot {
    Planner(Planner),
    Opponent(Opponent),
    Random(AutoPlayer),
}

impl Bot {
    pub fn new(p: Player, seed: u64) -> Bot {
        match p {
            Player::Opponent { think } => Bot::Planner(Planner::new(think)),
            Player::Veteran => Bot::Opponent(Opponent::new(Style::Odds)),
            Player::Straight => Bot::Opponent(Opponent::new(Style::Straight)),
            Player::Random => Bot::Random(AutoPlayer::new(seed)),
        }
    }

    /// Plays `side`'s part of this phase, ending it if `end` (the random player always ends
    /// the phase it plays).
    fn play_phase(&mut self, g: &mut Game, side: Side, end: bool) {
        match self {
            Bot::Planner(p) => {
                p.play_phase(g, side, end);
            }
            Bot::Opponent(o) => {
                o.play_phase(g, side, end);
            }
            Bot::Random(r) => {
                if end {
                    r.play_phase(g, RANDOM_TRIES);
                }
            }
        }
    }

    /// Commands it gave that the battle refused.
    fn refused(&self) -> usize {
        match self {
            Bot::Planner(p) => p.refused(),
            Bot::Opponent(o) => o.refused(),
            Bot::Random(_) => 0,
        }
    }
}

/// Commands the random player tries in a phase before it ends it.
pub const RANDOM_TRIES: usize = 12;

/// Plays one phase with the two players: the side placing units in deployment; else each
/// side whose units act but which is not the side to move, then the side to move, which ends
/// the phase. Returns the commands accepted.
pub fn play_phase(g: &mut Game, bots: &mut [Bot; 2]) -> usize {
    let before = g.commands.len();
    if let Some(d) = g.rules.deployment(g) {
        let side = d.side.min(1);
        bots[side].play_phase(g, side, true);
        return g.commands.len() - before;
    }
    let active = g.active.min(1);
    for s in g.rules.acting_sides(g) {
        if s != active && s < 2 {
            bots[s].play_phase(g, s, false);
        }
    }
    bots[active].play_phase(g, active, true);
    g.commands.len() - before
}

/// One game's story.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub seed: u64,
    pub winner: Option<Side>,
    pub reason: String,
    /// Turns begun.
    pub turns: u32,
    /// Ended by the turn limit rather than a side's collapse (or not ended at all).
    pub turn_limit: bool,
    /// Units lost: side, troop type, turn.
    pub losses: Vec<(Side, String, u32)>,
    /// The beaten side's last unit lost before the end: the loss that decided the game.
    pub decisive: Option<String>,
    pub commands: usize,
    /// The battle reached its end (a side beaten or the turn limit).
    pub finished: bool,
    /// Commands an opponent gave that the battle refused.
    pub refused: usize,
    /// How the game was decided, as its game-over event says (none: it did not end).
    #[serde(default)]
    pub ending: Option<Ending>,
    /// Where a scenario's condition decided it (at once or at the turn limit), that condition
    /// in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// The objectives at the end, each with the side that held it.
    #[serde(default)]
    pub held: Vec<(String, Side)>,
    /// Each side's strength lost and had at the start, in what its ruleset takes as
    /// casualties (`Ruleset::casualties`: BBB's bases, Old Dessauer's figures, else units or
    /// DBN's weighted count).
    #[serde(default)]
    pub strength: [(f32, f32); 2],
}

impl GameRecord {
    /// Both sides' strength lost together, as a share of the smaller army.
    pub fn lost_of_smaller(&self) -> f64 {
        let [(a, had_a), (c, had_c)] = self.strength;
        let smaller = had_a.min(had_c);
        if smaller > 0.0 {
            (f64::from(a) + f64::from(c)) / f64::from(smaller)
        } else {
            0.0
        }
    }
}

/// How a game that ended `by` is named in a report.
pub fn way(by: Ending) -> &'static str {
    match by {
        Ending::TurnLimit => "the turn limit",
        Ending::Broken => "an army broke",
        Ending::Withdrew => "an army withdrew",
        Ending::NoUnits => "a side had no units left",
        Ending::Condition => "a condition of the scenario",
    }
}

/// Plays one game from the battle as set up, with the dice of `seed`.
pub fn play_game(start: &Game, seed: u64, players: [Player; 2]) -> GameRecord {
    let (game, refused) = play_out(start, seed, players, |_| {});
    record(&game, seed, refused)
}

/// The seed of the choices of the player at `side` in the game thrown with `seed`.
pub fn bot_seed(seed: u64, side: Side) -> u64 {
    seed.wrapping_mul(2).wrapping_add(1 + side.min(1) as u64)
}

/// Plays one game from `start` to its end (or until nobody can move it on), throwing `seed`;
/// `watch` sees the battle after every phase the players play. Also says how many commands the
/// opponents gave that the battle refused.
pub fn play_out(
    start: &Game,
    seed: u64,
    players: [Player; 2],
    mut watch: impl FnMut(&Game),
) -> (Game, usize) {
    let mut game = start.fork();
    game.reseed(seed);
    let mut bots = [
        Bot::new(players[0], bot_seed(seed, 0)),
        Bot::new(players[1], bot_seed(seed, 1)),
    ];
    // Bounded: every phase of every turn, with room for deployment.
    let phases = (game.turn_limit.max(1) as usize + 2) * 16 + game.units.len();
    for _ in 0..phases {
        if game.is_over() {
            break;
        }
        let given = play_phase(&mut game, &mut bots);
        watch(&game);
        if given == 0 && !game.is_over() && game.execute(Command::EndPhase).is_err() {
            // Nobody can move the game on: it ends where it stands.
            break;
        }
    }
    let refused = bots.iter().map(Bot::refused).sum();
    (game, refused)
}

/// What a batch keeps of a game played out.
fn record(g: &Game, seed: u64, refused: usize) -> GameRecord {
    let b = &g.battle;
    // The losses, read from the log as it stands (a re-roll rewrites its command's events).
    let mut losses = Vec::new();
    let mut turn = 1;
    for e in &b.log {
        match e {
            Event::PhaseBegan { turn: t, .. } => turn = *t,
            Event::Destroyed { unit, .. } => {
                if let Ok(u) = b.unit(unit) {
                    losses.push((u.side, u.troop.clone(), turn, u.name.clone(), unit.clone()));
                }
            }
            // A unit back on the table (BBB's general who fell and returns) was not lost.
            Event::Deployed { unit, .. } => {
                if let Some(i) = losses.iter().rposition(|l| &l.4 == unit) {
                    losses.remove(i);
                }
            }
            _ => {}
        }
    }
    let ending = b.log.iter().rev().find_map(|e| match e {
        Event::GameOver { by, .. } => Some(*by),
        _ => None,
    });
    let (winner, reason) = crate::text::report::outcome(b)
        .map(|(w, r)| (w, r.to_string()))
        .unwrap_or((None, "unfinished".into()));
    let decisive = winner.and_then(|w| {
        losses
            .iter()
            .rev()
            .find(|(s, ..)| *s != w)
            .map(|(.., name, _)| name.clone())
    });
    GameRecord {
        seed,
        winner,
        turn_limit: winner.is_none() || ending == Some(Ending::TurnLimit) || !b.is_over(),
        reason: reason.clone(),
        turns: b.turn,
        losses: losses
            .into_iter()
            .map(|(s, troop, turn, ..)| (s, troop, turn))
            .collect(),
        decisive,
        commands: b.commands.len(),
        finished: b.is_over(),
        refused,
        ending,
        // The scenario's condition met, at once or at the turn limit, as the scenario words it.
        condition: b.log.iter().rev().find_map(|e| match e {
            Event::ConditionMet { condition, .. } => Some(condition.clone()),
            _ => None,
        }),
        held: g
            .objectives()
            .into_iter()
            .filter_map(|o| Some((o.name, o.holder?)))
            .collect(),
        strength: [0, 1].map(|s| g.rules.casualties(b, s)),
    }
}

/// A share and its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rate {
    pub count: usize,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// The Wilson score interval of `k` successes in `n` trials at 95% (z = 1.96).
pub fn wilson(k: usize, n: usize) -> Rate {
    if n == 0 {
        return Rate {
            count: k,
            rate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let (k, n) = (k as f64, n as f64);
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    Rate {
        count: k as usize,
        rate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// What a batch of games says.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub scenario: String,
    pub games: usize,
    pub seed: u64,
    pub players: [Player; 2],
    pub sides: [String; 2],
    pub wins: [Rate; 2],
    pub draws: usize,
    pub turn_limit: usize,
    pub turns_mean: f64,
    pub turns_sd: f64,
    /// Mean units lost per game, by side and troop type.
    pub losses: [BTreeMap<String, f64>; 2],
    /// Units whose loss most often decided a game, most often first (at most ten).
    pub decisive: Vec<(String, usize)>,
    /// By turn: games won by each side that turn, and units each side lost that turn.
    pub by_turn: Vec<TurnRow>,
    /// Games that did not reach their end (none should).
    pub unfinished: usize,
    /// Commands the opponents gave that the battle refused (none should).
    pub refused: usize,
    /// How the games were decided: each way (and condition) with each winner, most games
    /// first.
    pub decided: Vec<Decided>,
    /// Each objective (in the order the games name them) and the games each side ended
    /// holding it.
    pub objectives: Vec<HeldAtEnd>,
    /// How hard the battles were fought: the mean share of each side's strength lost per
    /// game, of both together against the smaller army, and the games nothing was lost in.
    pub fought: Fought,
}

/// How hard a batch's battles were fought, by each ruleset's count of strength
/// (`GameRecord::strength`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fought {
    /// The mean share of each side's strength lost per game.
    pub share_lost: [f64; 2],
    /// The mean of both sides' losses together as a share of the smaller army.
    pub of_smaller: f64,
    /// Games in which neither side lost anything.
    pub bloodless: usize,
}

/// Games decided one way with one winner.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decided {
    /// None: the games did not end.
    pub by: Option<Ending>,
    /// The scenario's condition that decided them, in words.
    pub condition: Option<String>,
    /// None: no winner.
    pub winner: Option<Side>,
    pub games: usize,
    /// The mean of the turns they ended in.
    pub turns_mean: f64,
}

/// An objective and who held it at the end.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeldAtEnd {
    pub objective: String,
    /// Games each side ended holding it.
    pub games: [usize; 2],
    /// The share of all games each side ended holding it.
    pub share: [f64; 2],
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnRow {
    pub turn: u32,
    pub won: [usize; 2],
    pub lost: [usize; 2],
}

/// Sums the games up.
pub fn report(b: &Battle, seed: u64, players: [Player; 2], games: &[GameRecord]) -> Report {
    let side = |s: Side| b.sides.get(s).map(|x| x.name.clone()).unwrap_or_default();
    report_named(&b.info.name, [side(0), side(1)], seed, players, games)
}

/// Sums the games of the scenario `scenario` up, its sides named `sides` (what a shard's
/// header gives where the battle is not at hand).
pub fn report_named(
    scenario: &str,
    sides: [String; 2],
    seed: u64,
    players: [Player; 2],
    games: &[GameRecord],
) -> Report {
    let n = games.len();
    let won = |s: Side| games.iter().filter(|g| g.winner == Some(s)).count();
    let turns: Vec<f64> = games.iter().map(|g| f64::from(g.turns)).collect();
    let mean = turns.iter().sum::<f64>() / n.max(1) as f64;
    let var = turns.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n.max(2) - 1) as f64;
    let mut losses = [BTreeMap::new(), BTreeMap::new()];
    for g in games {
        for (s, troop, _) in &g.losses {
            *losses[(*s).min(1)].entry(troop.clone()).or_insert(0.0) += 1.0 / n as f64;
        }
    }
    let mut decisive: BTreeMap<String, usize> = BTreeMap::new();
    for g in games {
        if let Some(d) = &g.decisive {
            *decisive.entry(d.clone()).or_default() += 1;
        }
    }
    let mut decisive: Vec<(String, usize)> = decisive.into_iter().collect();
    decisive.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    decisive.truncate(10);
    let last = games.iter().map(|g| g.turns).max().unwrap_or(0);
    let by_turn = (1..=last)
        .map(|t| {
            let mut row = TurnRow {
                turn: t,
                won: [0, 0],
                lost: [0, 0],
            };
            for g in games {
                if g.turns == t
                    && let Some(w) = g.winner
                {
                    row.won[w.min(1)] += 1;
                }
                for (s, _, lt) in &g.losses {
                    if *lt == t {
                        row.lost[(*s).min(1)] += 1;
                    }
                }
            }
            row
        })
        .collect();
    Report {
        scenario: scenario.to_string(),
        games: n,
        seed,
        players,
        sides,
        wins: [wilson(won(0), n), wilson(won(1), n)],
        draws: games.iter().filter(|g| g.winner.is_none()).count(),
        turn_limit: games.iter().filter(|g| g.turn_limit).count(),
        turns_mean: mean,
        turns_sd: var.sqrt(),
        losses,
        decisive,
        by_turn,
        unfinished: games.iter().filter(|g| !g.finished).count(),
        refused: games.iter().map(|g| g.refused).sum(),
        decided: decided(games),
        objectives: held_at_end(games),
        fought: fought(games),
    }
}

/// How hard the games were fought.
fn fought(games: &[GameRecord]) -> Fought {
    let n = games.len().max(1) as f64;
    let share = |s: usize| {
        games
            .iter()
            .map(|g| {
                let (lost, had) = g.strength[s];
                if had > 0.0 {
                    f64::from(lost) / f64::from(had)
                } else {
                    0.0
                }
            })
            .sum::<f64>()
            / n
    };
    Fought {
        share_lost: [share(0), share(1)],
        of_smaller: games.iter().map(GameRecord::lost_of_smaller).sum::<f64>() / n,
        bloodless: games
            .iter()
            .filter(|g| g.strength.iter().all(|(lost, _)| *lost <= 0.0))
            .count(),
    }
}

/// The games counted by how they were decided and who won, with their mean length.
fn decided(games: &[GameRecord]) -> Vec<Decided> {
    let mut rows: Vec<(Decided, f64)> = Vec::new();
    for g in games {
        let same =
            |d: &Decided| d.by == g.ending && d.condition == g.condition && d.winner == g.winner;
        let i = match rows.iter().position(|(d, _)| same(d)) {
            Some(i) => i,
            None => {
                rows.push((
                    Decided {
                        by: g.ending,
                        condition: g.condition.clone(),
                        winner: g.winner,
                        games: 0,
                        turns_mean: 0.0,
                    },
                    0.0,
                ));
                rows.len() - 1
            }
        };
        rows[i].0.games += 1;
        rows[i].1 += f64::from(g.turns);
    }
    let mut rows: Vec<Decided> = rows
        .into_iter()
        .map(|(d, turns)| Decided {
            turns_mean: turns / d.games as f64,
            ..d
        })
        .collect();
    let name = |d: &Decided| d.by.map_or("unfinished", way);
    rows.sort_by(|a, b| {
        b.games
            .cmp(&a.games)
            .then_with(|| name(a).cmp(name(b)))
            .then_with(|| a.condition.cmp(&b.condition))
            .then_with(|| a.winner.cmp(&b.winner))
    });
    rows
}

/// Each objective the games name, with the games each side ended holding it.
fn held_at_end(games: &[GameRecord]) -> Vec<HeldAtEnd> {
    let mut rows: Vec<HeldAtEnd> = Vec::new();
    for g in games {
        for (name, side) in &g.held {
            let i = match rows.iter().position(|r| &r.objective == name) {
                Some(i) => i,
                None => {
                    rows.push(HeldAtEnd {
                        objective: name.clone(),
                        games: [0, 0],
                        share: [0.0, 0.0],
                    });
                    rows.len() - 1
                }
            };
            if *side < 2 {
                rows[i].games[*side] += 1;
            }
        }
    }
    let n = games.len().max(1) as f64;
    for r in &mut rows {
        r.share = r.games.map(|k| k as f64 / n);
    }
    rows
}

/// Plays `games` games on all cores, game `i` with the dice of `seed + i`; `done` is called as
/// each game ends (for a progress bar). The records come back in game order.
pub fn run(
    game: &Game,
    games: usize,
    seed: u64,
    players: [Player; 2],
    done: &(dyn Fn() + Sync),
) -> Vec<GameRecord> {
    (0..games)
        .into_par_iter()
        .map(|i| {
            let g = play_game(game, seed.wrapping_add(i as u64), players);
            done();
            g
        })
        .collect()
}

/// As `run`, and `keep` is given each game as it ends with its seed (to write it as a save);
/// the first error it returns ends the batch with that error.
pub fn run_keeping(
    game: &Game,
    games: usize,
    seed: u64,
    players: [Player; 2],
    done: &(dyn Fn() + Sync),
    keep: &(dyn Fn(&Game, u64) -> Result<(), String> + Sync),
) -> Result<Vec<GameRecord>, String> {
    (0..games)
        .into_par_iter()
        .map(|i| {
            let s = seed.wrapping_add(i as u64);
            let (played, refused) = play_out(game, s, players, |_| {});
            keep(&played, s)?;
            done();
            Ok(record(&played, s, refused))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_textbook() {
        // 8 of 10: 0.4902 to 0.9433 (Wilson 1927; Newcombe 1998, table I).
        let r = wilson(8, 10);
        assert!((r.low - 0.4902).abs() < 1e-3, "{r:?}");
        assert!((r.high - 0.9433).abs() < 1e-3, "{r:?}");
        // 0 of 10: 0 to 0.2775.
        let r = wilson(0, 10);
        assert_eq!(r.low, 0.0);
        assert!((r.high - 0.2775).abs() < 1e-3, "{r:?}");
        // No games: nothing known.
        let r = wilson(0, 0);
        assert_eq!((r.low, r.high), (0.0, 1.0));
    }

    #[test]
    fn players_parse() {
        assert_eq!(Player::parse("opponent"), Ok(Player::OPPONENT));
        assert_eq!(
            Player::parse("opponent:9"),
            Ok(Player::Opponent { think: 9 })
        );
        assert_eq!(Player::parse("veteran"), Ok(Player::Veteran));
        assert!(Player::parse("opponent:0").is_err());
        assert_eq!(Player::parse(" random"), Ok(Player::Random));
        assert!(Player::parse("genius").is_err());
    }
}
