//! The opponent and batch runs: every command the opponent gives is accepted, games end, and a
//! batch's report is the same every time.

use volley::rules::batch::{self, Player};
use volley::rules::save;

mod common;
use common::DEFAULTS;

/// Games per scenario and pairing; `VOLLEY_OPPONENT_GAMES` raises it for a long run.
fn games() -> usize {
    common::env_count("VOLLEY_OPPONENT_GAMES", 2) as usize
}

#[test]
fn the_opponent_is_never_refused_and_its_games_end() {
    let n = games();
    for path in DEFAULTS {
        let b = save::load_any(std::path::Path::new(path)).expect(path);
        for players in [
            [Player::Opponent, Player::Random],
            [Player::Straight, Player::Opponent],
        ] {
            for g in batch::run(&b, n, 100, players, &|| {}) {
                assert_eq!(g.refused, 0, "{path} {players:?} seed {}: refused", g.seed);
                assert!(g.finished, "{path} {players:?} seed {}: unfinished", g.seed);
            }
        }
    }
}

#[test]
fn a_batch_reports_the_same_every_time() {
    let b = save::load_any(std::path::Path::new("scenarios/tutorial.ron")).expect("tutorial");
    let players = [Player::Opponent, Player::Straight];
    let one = batch::run(&b, 6, 7, players, &|| {});
    let two = batch::run(&b, 6, 7, players, &|| {});
    assert_eq!(one, two);
    let r1 = batch::report(&b, 7, players, &one);
    let r2 = batch::report(&b, 7, players, &two);
    assert_eq!(r1, r2);
    assert_eq!(r1.games, 6);
    // Every game is counted once: won by a side or by neither.
    assert_eq!(r1.wins[0].count + r1.wins[1].count + r1.draws, 6);
    // The seed changes the dice, and so the games.
    let other = batch::run(&b, 6, 8, players, &|| {});
    assert_ne!(one, other);
}
