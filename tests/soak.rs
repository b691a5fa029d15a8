//! A soak of every playable ruleset: random legal games, replayed command by command with the
//! invariants checked after each: bases do not overlap where the rules do not let them, units are
//! on the table or removed, removed units never act, strengths stay within their limits, the
//! turn never goes back, the log replays to the same state, and a game saved, loaded and
//! continued ends exactly as one never saved.
//!
//! The invariants are `volley::harness::invariants`, which the fuzz targets check too.
//!
//! Short here; `VOLLEY_SOAK_GAMES=N` plays N games per scenario (the note's long run).

use std::path::Path;
use volley::players::batch::{self, Player};
use volley::rules::Game;
use volley::rules::save;

mod common;
use common::DEFAULTS as SCENARIOS;

fn games() -> u64 {
    common::env_count("VOLLEY_SOAK_GAMES", 1)
}

fn load(file: &str) -> Game {
    save::load_any(Path::new(file)).unwrap_or_else(|d| panic!("{file}: {d:?}"))
}

/// Everything a player can see of the state, for comparing two battles.
fn state(b: &Game) -> String {
    format!(
        "{:?} {:?} {} {:?} {:?} {:?}",
        b.units, b.phase, b.turn, b.active, b.command_points, b.objective
    )
}

/// The log applied to the starting battle gives the same state.
fn replays(start: &Game, b: &Game) -> bool {
    let mut again = start.fork();
    for e in &b.log {
        again.apply(e);
    }
    state(&again) == state(b)
}

fn soak(file: &str, seed: u64) -> usize {
    let start = load(file);
    let (played, refused) = batch::play_out(&start, seed, [Player::Random, Player::Random], |_| {});
    assert_eq!(refused, 0);
    replay(file, seed, &start, &played)
}

/// Replays a played game command by command from its start, checking the invariants after
/// each, the log every 25 commands, and a save, load and continue every 97. Returns its turns.
fn replay(file: &str, seed: u64, start: &Game, played: &Game) -> usize {
    let mut b = start.fork();
    b.reseed(seed);
    let fresh = b.fork();
    let n = played.commands.len();
    for (k, cmd) in played.commands.iter().enumerate() {
        let before = b.fork();
        if let Err(e) = b.execute(cmd.clone()) {
            panic!("{file}, seed {seed}: command {k} ({cmd:?}) refused on replay: {e:?}");
        }
        if let Err(e) = volley::harness::invariants(&before, &b, cmd, &fresh) {
            panic!("{file}, seed {seed}, command {k}: {e}");
        }
        if k % 25 == 0 || k + 1 == n {
            assert!(
                replays(&fresh, &b),
                "{file}, seed {seed}: the log after command {k} replays to another state"
            );
        }
        // Saved, loaded and continued: the same game as never saved.
        if k % 97 == 0 {
            let text = save::to_string(&b).expect("a save");
            let mut resumed = save::parse(&text, "soak").expect("the save loads");
            for c in played.commands.since(k + 1) {
                resumed
                    .execute(c.clone())
                    .expect("the rest of the game plays on");
            }
            assert_eq!(
                state(&resumed),
                state(played),
                "{file}, seed {seed}: saved after command {k}"
            );
            assert_eq!(
                resumed.log, played.log,
                "{file}, seed {seed}: saved after command {k}"
            );
        }
    }
    assert_eq!(state(&b), state(played));
    assert_eq!(b.log, played.log);
    played.turn as usize
}

/// Games in which the soak found a fault, kept as regressions in `tests/soak_games` as
/// order files named `SCENARIO-SEED.ron` (the scenario in `scenarios/`, or as it was when the
/// game was found in `tests/soak_games/scenarios/`; the seed of its dice):
/// a wheel pushing a corner into a friend, a recoiling unit turning onto one, and a recoil
/// going on past its general onto the friend it had pushed back (DB7YW); a
/// general returning off the table, a formation change and a recovered base over its edge, a
/// recovered base onto a battery (BBB); a general attached or carried over the edge, loose
/// skirmishers left where their old frame put them, a square formed onto loose skirmishers,
/// loose skirmishers pulled into a line's frame when closing up after losses, a pursuit
/// closing up against a fresh enemy over the table's edge, skirmishers falling back onto the
/// enemy they gave way to (Old Dessauer); a
/// charge falling short onto its target and one over the edge, a line formed onto loose
/// skirmishers (Hal's). Recorded as orders, they stay the same games whatever the random
/// player does.
fn found() -> Vec<(String, u64, Vec<volley::rules::command::Command>)> {
    let mut files: Vec<_> = std::fs::read_dir("tests/soak_games")
        .expect("tests/soak_games")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|f| f.is_file())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            let (scenario, seed) = stem.rsplit_once('-').expect("SCENARIO-SEED.ron");
            let text = std::fs::read_to_string(f).expect("an order file");
            let orders = save::parse_orders(&text, &f.display().to_string())
                .unwrap_or_else(|d| panic!("{d:?}"));
            // A scenario since changed is kept as it was, beside its games.
            let kept = format!("tests/soak_games/scenarios/{scenario}.ron");
            (
                if Path::new(&kept).exists() {
                    kept
                } else {
                    format!("scenarios/{scenario}.ron")
                },
                seed.parse().expect("a seed"),
                orders,
            )
        })
        .collect()
}

#[test]
fn random_games_of_every_ruleset_keep_the_invariants() {
    use rayon::prelude::*;
    let games: Vec<(&str, u64)> = SCENARIOS
        .iter()
        .flat_map(|f| (0..games()).map(move |s| (*f, 1000 + s)))
        .collect();
    // Every game is played to its end or its first fault; the faults are listed together.
    let results: Vec<Result<usize, String>> = games
        .par_iter()
        .map(|(f, s)| {
            std::panic::catch_unwind(|| soak(f, *s)).map_err(|e| {
                e.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| format!("{f}, seed {s}: a fault"))
            })
        })
        .collect();
    let turns: usize = results.iter().filter_map(|r| r.as_ref().ok()).sum();
    let faults: Vec<&str> = results
        .iter()
        .filter_map(|r| r.as_ref().err().map(String::as_str))
        .collect();
    eprintln!(
        "soak: {turns} turns over {} games, {} with a fault",
        games.len(),
        faults.len()
    );
    assert!(faults.is_empty(), "faults:\n{}", faults.join("\n"));
}

#[test]
fn the_games_that_found_faults_keep_the_invariants() {
    let games = found();
    assert!(games.len() >= 20);
    for (file, seed, orders) in games {
        let start = load(&file);
        let mut played = start.fork();
        played.reseed(seed);
        for (k, c) in orders.into_iter().enumerate() {
            if let Err(e) = played.execute(c) {
                panic!(
                    "{file}, seed {seed}: order {k} is refused ({e:?}): the rules changed the game; record it again"
                );
            }
        }
        replay(&file, seed, &start, &played);
    }
}

/// Keeps what the rules still allow of a kept game, where a change of the rules has made one of
/// its orders illegal: `VOLLEY_SOAK_KEEP=SCENARIO-SEED cargo test --test soak keep -- --ignored`
/// cuts `tests/soak_games/SCENARIO-SEED.ron` before its first order refused, so that the game
/// stays the one that was found as far as the rules now let it go.
#[test]
#[ignore = "rewrites a kept game's orders"]
fn keep() {
    let Ok(name) = std::env::var("VOLLEY_SOAK_KEEP") else {
        return;
    };
    let (file, seed, orders) = found()
        .into_iter()
        .find(|(f, s, _)| {
            let stem = Path::new(f)
                .file_stem()
                .and_then(|x| x.to_str())
                .unwrap_or("");
            format!("{stem}-{s}") == name
        })
        .expect("a kept game of that name");
    let mut b = load(&file);
    b.reseed(seed);
    let mut kept = Vec::new();
    for c in orders {
        if b.execute(c.clone()).is_err() {
            break;
        }
        kept.push(format!("    {},\n", save::order_text(&c)));
    }
    std::fs::write(
        format!("tests/soak_games/{name}.ron"),
        format!("[\n{}]\n", kept.concat()),
    )
    .expect("written");
}
