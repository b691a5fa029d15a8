//! The opponent that plans: every command it gives is accepted and its games end, in every
//! ruleset; the same battle, seed and budget give the same games; its budget is counted in plans
//! judged; each command says what it is for, and its plans' aims are the places and enemies
//! they name; its assessment rises with the enemy's losses and
//! falls with its own.

use volley::players::batch::{self, Player};
use volley::players::planner::{Planner, assess, candidates, search};
use volley::rules::Game;
use volley::rules::ruleset::Figures;
use volley::rules::save;

mod common;
use common::DEFAULTS;

/// Games per scenario and pairing; `VOLLEY_PLANNER_GAMES` raises it for a long run.
fn games() -> usize {
    common::env_count("VOLLEY_PLANNER_GAMES", 1) as usize
}

/// A small budget: the tests check the planner's door and its bookkeeping, not its strength.
const THINK: usize = 4;

fn load(path: &str) -> Game {
    save::load_any(std::path::Path::new(path)).expect(path)
}

#[test]
fn the_planner_is_never_refused_and_its_games_end() {
    let n = games();
    let planner = Player::Opponent { think: THINK };
    for path in DEFAULTS {
        let b = load(path);
        for players in [[planner, Player::Random], [Player::Veteran, planner]] {
            for g in batch::run(&b, n, 300, players, &|| {}) {
                assert_eq!(g.refused, 0, "{path} {players:?} seed {}: refused", g.seed);
                assert!(g.finished, "{path} {players:?} seed {}: unfinished", g.seed);
            }
        }
    }
}

#[test]
fn the_same_battle_seed_and_budget_give_the_same_games() {
    let b = load("scenarios/tutorial.ron");
    let players = [Player::Opponent { think: THINK }, Player::Veteran];
    let one = batch::run(&b, 2, 11, players, &|| {});
    let two = batch::run(&b, 2, 11, players, &|| {});
    assert_eq!(one, two);
}

#[test]
fn a_search_judges_exactly_its_budget_and_keeps_the_best_plan_it_judged() {
    let mut g = load("scenarios/tutorial.ron");
    // The player's first movement: every unit has moves to choose from.
    let phase = g.phase;
    while g.phase == phase && g.rules.deployment(&g).is_some() {
        let _ = g.execute(volley::rules::command::Command::EndPhase);
    }
    let units = candidates::for_side(&g, g.active, &[]);
    assert!(!units.is_empty(), "the tutorial's units have choices");
    for budget in [1, 7, 30] {
        let mut rng = search::rng_for(&g, g.active, 0);
        let found = search::evolve(&g, g.active, &units, &[], budget, &mut rng);
        assert_eq!(found.trials, budget);
        assert_eq!(found.genome.len(), units.len());
        for (u, gene) in units.iter().zip(&found.genome) {
            assert!(*gene <= u.cands.len());
        }
    }
}

#[test]
fn every_command_says_what_it_is_for() {
    // The first bounds of a DB7YW battle, both sides planned, phase by phase.
    let mut g = load("scenarios/default.ron");
    let mut planners = [Planner::new(THINK), Planner::new(THINK)];
    let mut said = Vec::new();
    for _ in 0..16 {
        if g.is_over() {
            break;
        }
        let side = g.active.min(1);
        said.extend(planners[side].play_phase(&mut g, side, true));
    }
    let planned: Vec<_> = said
        .iter()
        .filter(|d| d.command != volley::rules::command::Command::EndPhase)
        .collect();
    assert!(!planned.is_empty(), "{said:?}");
    for d in planned {
        assert!(
            d.reason.contains("part of a plan judged") && d.reason.contains("trials"),
            "{}",
            d.reason
        );
    }
}

#[test]
fn its_plans_aim_at_the_places_and_enemies_their_words_name() {
    // The first bounds of the Lobosch (Old Dessauer, objectives to take), both sides planned
    // command by command: a plan's aims are checked against the battle it was made on.
    let mut g = load("scenarios/lobosch_1756.ron");
    let mut planners = [Planner::new(THINK), Planner::new(THINK)];
    let mut checked = 0;
    for _ in 0..400 {
        if g.is_over() || g.turn > 3 {
            break;
        }
        let side = g.active.min(1);
        let before = planners[side].aims().to_vec();
        let Some(d) = planners[side].decide(&g, side) else {
            let end = planners[side].finish(&g, side);
            assert!(g.execute(end.command).is_ok());
            continue;
        };
        for a in planners[side].aims().iter().filter(|a| !before.contains(a)) {
            let unit = g.unit(&a.unit).expect("an aim's unit is on the table");
            assert_eq!(unit.side, side, "{a:?}");
            let place = g
                .objectives()
                .into_iter()
                .find(|o| o.at.dist(a.at) < 0.5)
                .map(|o| o.name);
            let enemy = g
                .alive()
                .find(|e| e.side != side && e.base.centre.dist(a.at) < 0.5)
                .map(|e| e.name.clone());
            let name = place
                .or(enemy)
                .unwrap_or_else(|| panic!("{a:?} aims at neither an objective nor an enemy"));
            assert!(a.why.contains(&name), "{a:?} does not name {name}");
            checked += 1;
        }
        assert!(g.execute(d.command).is_ok());
    }
    assert!(checked > 0, "the planner's plans aim at something");
}

#[test]
fn the_assessment_rises_with_the_enemys_losses_and_falls_with_ones_own() {
    for path in DEFAULTS {
        let g = load(path);
        let before = [assess::value(&g, 0), assess::value(&g, 1)];
        // A fighting unit of side 1 taken off the table as lost.
        let mut lost = g.fork();
        let id = lost
            .alive()
            .find(|u| {
                u.side == 1
                    && u.base.width > 0.0
                    && !matches!(
                        lost.rules.look(&lost, u).arm,
                        Figures::Command | Figures::Train
                    )
            })
            .map(|u| u.id.clone())
            .expect("a unit of side 1");
        lost.unit_mut(&id).expect("the unit").status.removed = true;
        let after = [assess::value(&lost, 0), assess::value(&lost, 1)];
        assert!(after[0] > before[0], "{path}: {before:?} -> {after:?}");
        assert!(after[1] < before[1], "{path}: {before:?} -> {after:?}");
    }
}
