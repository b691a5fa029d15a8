//! The planning opponent's strength, measured (ignored by default: minutes in a release build).
//! Over the nine scenarios (each ruleset's default battle and its historical one), the
//! opponent plays each side against each of the other players, games from a seed, and the
//! games it wins are counted by scenario, side and opponent. Repeat with:
//!
//! ```text
//! N=10 SEED=101 OPPS=veteran,straight,random THINK=24 \
//!   cargo test --release --no-default-features --test strength -- --ignored --nocapture
//! ```
//!
//! (`ONLY=krefeld` keeps the scenarios whose file names contain it.)

use rayon::prelude::*;
use volley::players::batch::{self, Player};
use volley::rules::Game;
use volley::rules::save;

mod common;

/// The nine scenarios the strength is measured on.
const SCENARIOS: [&str; 9] = [
    "scenarios/default.ron",
    "scenarios/lobositz_1756.ron",
    "scenarios/dbfpw_default.ron",
    "scenarios/dbfpw_spicheren.ron",
    "scenarios/bbb_default.ron",
    "scenarios/bbb_rossbach.ron",
    "scenarios/hal25_default.ron",
    "scenarios/hal25_krefeld.ron",
    "scenarios/lobosch_1756.ron",
];

fn var(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

#[test]
#[ignore = "minutes in a release build: run it by name with --ignored"]
fn strength() {
    let n = common::env_count("N", 4);
    let seed = common::env_count("SEED", 101);
    let think = common::env_count("THINK", 24) as usize;
    let only = var("ONLY", "");
    let opps: Vec<Player> = var("OPPS", "veteran,straight,random")
        .split(',')
        .map(|s| Player::parse(s).expect("a player"))
        .collect();
    let me = Player::Opponent { think };
    let scenarios: Vec<(&str, Game)> = SCENARIOS
        .iter()
        .filter(|p| p.contains(only.as_str()))
        .map(|p| (*p, save::load_any(std::path::Path::new(p)).expect(p)))
        .collect();
    // Every game: scenario, opponent, the side the planner plays, seed.
    let mut jobs = Vec::new();
    for (si, _) in scenarios.iter().enumerate() {
        for (oi, _) in opps.iter().enumerate() {
            for side in 0..2usize {
                for k in 0..n {
                    jobs.push((si, oi, side, seed + k));
                }
            }
        }
    }
    let results: Vec<((usize, usize, usize), bool, bool)> = jobs
        .par_iter()
        .map(|&(si, oi, side, s)| {
            let players = if side == 0 {
                [me, opps[oi]]
            } else {
                [opps[oi], me]
            };
            let r = batch::play_game(&scenarios[si].1, s, players);
            assert_eq!(
                r.refused, 0,
                "{} seed {s}: a command refused",
                scenarios[si].0
            );
            ((si, oi, side), r.winner == Some(side), r.winner.is_none())
        })
        .collect();
    let mut totals = vec![(0usize, 0usize, 0usize); opps.len()];
    println!(
        "{:<34} {}",
        "scenario (side)",
        opps.iter()
            .map(|o| format!("{:>10}", o.name()))
            .collect::<String>()
    );
    for (si, (path, _)) in scenarios.iter().enumerate() {
        for side in 0..2 {
            let mut line = format!("{:<34}", format!("{path} ({side})"));
            for (oi, t) in totals.iter_mut().enumerate() {
                let cell: Vec<_> = results.iter().filter(|r| r.0 == (si, oi, side)).collect();
                let won = cell.iter().filter(|r| r.1).count();
                let drawn = cell.iter().filter(|r| r.2).count();
                t.0 += won;
                t.1 += drawn;
                t.2 += cell.len();
                line += &format!("{:>10}", format!("{won}/{drawn}d"));
            }
            println!("{line}");
        }
    }
    for (o, (won, drawn, all)) in opps.iter().zip(&totals) {
        println!(
            "against {:<9} won {won}/{all} ({:.1}%), drawn {drawn}",
            o.name(),
            100.0 * *won as f64 / (*all).max(1) as f64
        );
    }
}
