//! The opponent that plans: every command it gives is accepted and its games end, in every
//! ruleset; the same battle, seed and budget give the same games; its budget is counted in plans
//! judged; each command says what it is for, and its plans' aims are the places and enemies
//! they name; its assessment rises with the enemy's losses and falls with its own, each loss
//! weighing the more the nearer its army stands to breaking; a plan's attacks are judged at
//! their expected worth, whatever dice the planner throws.

use volley::players::batch::{self, Bot, Player};
use volley::players::planner::intent::Intent;
use volley::players::planner::{Planner, assess, candidates, search};
use volley::rules::Game;
use volley::rules::command::{Command, Step};
use volley::rules::model::UnitId;
use volley::rules::ruleset::Figures;
use volley::rules::ruleset::view::MoveRequest;
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
    let units = candidates::for_side(&g, g.active, &[], &Intent::default());
    assert!(!units.is_empty(), "the tutorial's units have choices");
    for budget in [1, 7, 30] {
        let mut rng = search::rng_for(&g, g.active, 0);
        let found = search::evolve(
            &g,
            g.active,
            &Intent::default(),
            &units,
            &[],
            budget,
            &mut rng,
        );
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

#[test]
fn a_loss_weighs_the_more_the_nearer_its_army_stands_to_breaking() {
    // DB7YW's default battle: an army breaks at half its units (000 Victory Conditions). The
    // three Austrian fighting units farthest from every objective, so that none is the
    // nearest to a place and taking them off changes only the losses.
    let g = load("scenarios/default.ron");
    let places: Vec<_> = g.objectives().iter().map(|o| o.at).collect();
    let far = |u: &volley::rules::model::Unit| {
        places
            .iter()
            .map(|p| u.base.centre.dist(*p))
            .fold(f32::INFINITY, f32::min)
    };
    let mut far_off: Vec<(UnitId, f32)> = g
        .alive()
        .filter(|u| u.side == 1 && u.base.width > 0.0)
        .filter(|u| !matches!(g.rules.look(&g, u).arm, Figures::Command | Figures::Train))
        .map(|u| (u.id.clone(), far(u)))
        .collect();
    far_off.sort_by(|a, b| b.1.total_cmp(&a.1));
    let ids: Vec<UnitId> = far_off.into_iter().take(3).map(|(id, _)| id).collect();
    assert_eq!(ids.len(), 3);
    let without = |gone: &[UnitId]| {
        let mut x = g.fork();
        for id in gone {
            x.unit_mut(id).expect("the unit").status.removed = true;
        }
        assert!(!x.is_over(), "three units lost break nothing");
        assess::value(&x, 0)
    };
    // The same unit lost first, and lost after two others.
    let first = without(&ids[2..]) - without(&[]);
    let third = without(&ids) - without(&ids[..2]);
    assert!(first > 0.0, "{first}");
    assert!(third > first + 0.01, "first {first}, third {third}");
}

/// The battle at its first phase of play (past any deployment).
fn in_play(path: &str) -> Game {
    let mut g = load(path);
    while g.rules.deployment(&g).is_some() && !g.is_over() {
        assert!(
            g.execute(Command::EndPhase).is_ok(),
            "{path}: deployment ends"
        );
    }
    g
}

/// A side's fighting units on the table, with their centres' distance from `at`.
fn fighting_from(g: &Game, side: usize, at: volley::rules::geometry::Pt) -> Vec<(UnitId, f32)> {
    g.alive()
        .filter(|u| u.side == side && u.base.width > 0.0)
        .filter(|u| !matches!(g.rules.look(g, u).arm, Figures::Command | Figures::Train))
        .map(|u| (u.id.clone(), u.base.centre.dist(at)))
        .collect()
}

#[test]
fn a_side_that_would_lose_sends_its_nearest_units_to_each_place_it_lacks() {
    // DB7YW default: Austria holds Reichenau and would win at the limit; Prussia holds
    // neither Reichenau nor the Galgenberg.
    let mut g = in_play("scenarios/default.ron");
    let mut prussia = Intent::default();
    prussia.review(&g, 0);
    let names: Vec<&str> = prussia.goals.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names.contains(&"Reichenau") && names.contains(&"Galgenberg"),
        "{names:?}"
    );
    let mut sent = Vec::new();
    for goal in &prussia.goals {
        assert!((2..=4).contains(&goal.units.len()), "{goal:?}");
        assert!(goal.by > g.turn && goal.by <= g.turn_limit, "{goal:?}");
        for (id, _) in &goal.units {
            assert_eq!(g.unit(id).expect("a unit").side, 0, "{goal:?}");
            assert!(!sent.contains(id), "{id} is sent twice");
            sent.push(id.clone());
        }
    }
    // The first place's detachment is the units nearest it.
    let first = prussia.goals[0].clone();
    let all = fighting_from(&g, 0, first.at);
    let is_sent = |id: &UnitId| first.units.iter().any(|(u, _)| u == id);
    let farthest_sent = all
        .iter()
        .filter(|(id, _)| is_sent(id))
        .map(|x| x.1)
        .fold(0.0, f32::max);
    let nearest_left = all
        .iter()
        .filter(|(id, _)| !is_sent(id))
        .map(|x| x.1)
        .fold(f32::INFINITY, f32::min);
    assert!(farthest_sent <= nearest_left, "{first:?}");
    // Reviewed again in the same turn, it is the same.
    let again = prussia.clone();
    prussia.review(&g, 0);
    assert_eq!(prussia, again);
    // Austria would win: it sends nobody.
    let mut austria = Intent::default();
    austria.review(&g, 1);
    assert!(austria.goals.is_empty(), "{:?}", austria.goals);
    // A unit of the detachment set down on its place: the progress rises by its part.
    let before = prussia.progress(&g);
    let (id, _) = first.units[0].clone();
    let on = first.at;
    g.unit_mut(&id).expect("the unit").base.centre = on;
    let after = prussia.progress(&g);
    let part = first.share / first.units.len() as f64;
    assert!(
        after > before && after - before <= part + 1e-9,
        "{before} -> {after}, part {part}"
    );
}

#[test]
fn its_detachments_march_on_from_bound_to_bound() {
    // The planner as Prussia against the veteran, DB7YW default, three turns: the units it
    // sends stay sent, they close on their places, and its commands say so.
    let mut g = in_play("scenarios/default.ron");
    let mut bots = [
        Bot::new(Player::Opponent { think: THINK }, 1),
        Bot::new(Player::Veteran, 2),
    ];
    let mut planner = Planner::new(THINK);
    let mut first: Option<Intent> = None;
    let mut said = Vec::new();
    let start_turn = g.turn;
    while !g.is_over() && g.turn < start_turn + 3 {
        if g.active == 0 && g.rules.acting_sides(&g) == vec![0] {
            said.extend(
                planner
                    .play_phase(&mut g, 0, true)
                    .into_iter()
                    .map(|d| d.reason),
            );
            if first.is_none() {
                first = Some(planner.intent().clone());
            }
        } else {
            batch::play_phase(&mut g, &mut bots);
        }
    }
    let first = first.expect("Prussia planned");
    let now = planner.intent();
    assert!(!first.goals.is_empty());
    let mean = |intent: &Intent, g: &Game| {
        let ds: Vec<f32> = intent
            .goals
            .iter()
            .flat_map(|x| x.units.iter().map(move |(id, _)| (id, x.at)))
            .filter_map(|(id, at)| g.unit(id).ok().map(|u| u.base.distance_to_point(at)))
            .collect();
        ds.iter().sum::<f32>() / ds.len().max(1) as f32
    };
    for goal in &now.goals {
        let Some(was) = first.goals.iter().find(|x| x.objective == goal.objective) else {
            continue;
        };
        assert!(
            goal.units.iter().all(|u| was.units.contains(u)),
            "{goal:?} / {was:?}"
        );
    }
    let from = first
        .goals
        .iter()
        .flat_map(|x| x.units.iter().map(|(_, d)| *d))
        .sum::<f32>()
        / first.goals.iter().map(|x| x.units.len()).sum::<usize>() as f32;
    assert!(mean(now, &g) < from, "{} of {from}", mean(now, &g));
    assert!(said.iter().any(|r| r.contains("by turn")), "{said:?}");
}

#[test]
fn it_goes_for_the_places_that_turn_the_result_and_no_others() {
    // The Lobosch: Austria wins at the limit unless Prussia holds the crest (2 points against
    // the vineyards' 1): Prussia sends a detachment to take the crest alone; Austria sends
    // guards to hold the crest, and none to the vineyards (losing them alone turns nothing).
    let g = in_play("scenarios/lobosch_1756.ron");
    let mut prussia = Intent::default();
    prussia.review(&g, 0);
    let names: Vec<&str> = prussia.goals.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["The Lobosch crest"]);
    assert!(!prussia.goals[0].hold);
    assert!(
        (prussia.goals[0].share - 1.0).abs() < 1e-9,
        "{:?}",
        prussia.goals
    );
    // Austria guards the crest only once an enemy could reach it before guards sent a turn
    // later could: not at the start, with the Prussian line 580 mm off.
    let mut austria = Intent::default();
    austria.review(&g, 1);
    assert!(austria.goals.is_empty(), "{:?}", austria.goals);
    // With the grenadiers 130 mm below the crest, it sends two guards to hold the crest, the
    // units nearest it (the two line battalions; Lacy, nearer, is a general), and none to the
    // vineyards (losing them alone turns nothing).
    let mut g = g;
    g.unit_mut(&UnitId("pr-gren".into()))
        .expect("grenadiers")
        .base
        .centre = volley::rules::geometry::Pt::new(860.0, 700.0);
    let mut austria = Intent::default();
    austria.review(&g, 1);
    let guards: Vec<(&str, bool, usize)> = austria
        .goals
        .iter()
        .map(|x| (x.name.as_str(), x.hold, x.units.len()))
        .collect();
    assert_eq!(guards, [("The Lobosch crest", true, 2)]);
    let mut sent: Vec<&str> = austria.goals[0]
        .units
        .iter()
        .map(|(id, _)| id.as_str())
        .collect();
    sent.sort_unstable();
    assert_eq!(sent, ["au-ir-a", "au-ir-b"]);
    assert_eq!(austria.goals[0].purpose(), "to hold it");
    // BBB default: each side holds one place and nothing is lost, a draw. Taking a place
    // is not looked for; losing its own would lose the battle, and in this encounter the
    // enemy can reach each before guards sent a turn later could: each side guards its own
    // place, and nothing else.
    let g = in_play("scenarios/bbb_default.ron");
    let mut guarded = Vec::new();
    for side in 0..2 {
        let mut intent = Intent::default();
        intent.review(&g, side);
        let own: Vec<_> = g
            .objectives()
            .into_iter()
            .filter(|o| o.holder == Some(side))
            .map(|o| o.name)
            .collect();
        for x in &intent.goals {
            assert!(x.hold && own.contains(&x.name), "side {side}: {x:?}");
            guarded.push(x.name.clone());
        }
    }
    assert_eq!(guarded, ["Weinberg", "Lohdorf"]);
}

#[test]
fn its_guards_step_into_the_ring_of_the_place_they_hold() {
    // The Lobosch, the Prussian grenadiers 130 mm below the crest: Austria's line battalions
    // stand 7 mm outside the crest's 3-inch ring, facing the enemy, where they hold nothing.
    // In its movement Austria's planner steps a guard into the ring (sideways: a line facing
    // the enemy cannot march off towards a place beside it), and says why.
    let mut g = in_play("scenarios/lobosch_1756.ron");
    g.unit_mut(&UnitId("pr-gren".into()))
        .expect("grenadiers")
        .base
        .centre = volley::rules::geometry::Pt::new(860.0, 700.0);
    let crest = g
        .objectives()
        .into_iter()
        .find(|o| o.id == "crest")
        .expect("the crest");
    let within = |g: &Game| {
        g.alive()
            .filter(|u| u.side == 1 && u.id.as_str().starts_with("au-ir"))
            .filter(|u| u.base.distance_to_point(crest.at) <= crest.radius_mm)
            .count()
    };
    assert_eq!(within(&g), 0);
    while g.active != 1 {
        assert!(g.execute(Command::EndPhase).is_ok());
    }
    let mut planner = Planner::new(THINK);
    let said = planner.play_phase(&mut g, 1, false);
    assert!(within(&g) >= 1, "{said:?}");
    assert!(
        said.iter()
            .any(|d| d.reason.contains("The Lobosch crest, to hold it")),
        "{said:?}"
    );
}

#[test]
fn a_plans_attacks_are_judged_at_their_expected_worth_not_by_its_dice() {
    // The veteran against itself on DB7YW's default battle until a side has attacks to plan:
    // a plan of attacks alone is judged the same whatever dice the planner throws (thrown, a
    // plan would be chosen for its luck).
    let mut g = in_play("scenarios/default.ron");
    let mut bots = [Bot::new(Player::Veteran, 1), Bot::new(Player::Veteran, 2)];
    let mut checked = 0;
    while !g.is_over() && checked < 3 {
        let side = g.active;
        let units = candidates::for_side(&g, side, &[], &Intent::default());
        let genome: search::Genome = units
            .iter()
            .map(|u| {
                u.cands
                    .iter()
                    .position(|c| c.kind == candidates::Kind::Attack)
                    .map_or(0, |i| i + 1)
            })
            .collect();
        if genome.iter().any(|x| *x > 0) {
            let judged: Vec<f64> = [1u64, 2, 3]
                .iter()
                .map(|dice| search::judge(&g, side, &Intent::default(), &units, &genome, *dice))
                .collect();
            assert!(
                judged.iter().all(|v| (v - judged[0]).abs() < 1e-9),
                "turn {} {:?}: {judged:?}",
                g.turn,
                g.phase
            );
            checked += 1;
        }
        batch::play_phase(&mut g, &mut bots);
    }
    assert!(checked > 0, "the battle came to attacks");
}

/// DB7YW's default battle in Prussia's first movement, IR 3 Anhalt stepped out of the line
/// and the Austrian grenadiers set down ahead of it (facing `facing`, at `y` mm down the
/// table; IR 3 stands at 300): each unit's choices
/// the planner offers.
fn grenadiers_ahead(facing: f32, y: f32) -> (Game, Vec<candidates::UnitChoices>) {
    let mut g = in_play("scenarios/default.ron");
    g.unit_mut(&UnitId("pr-ir3".into()))
        .expect("IR 3")
        .base
        .centre = volley::rules::geometry::Pt::new(700.0, 300.0);
    {
        let gr = g.unit_mut(&UnitId("au-gr".into())).expect("grenadiers");
        gr.base.centre = volley::rules::geometry::Pt::new(700.0, y);
        gr.base.facing = facing;
    }
    while g.active != 0 || !g.phase.name().to_lowercase().contains("move") {
        assert!(g.execute(Command::EndPhase).is_ok());
    }
    let units = candidates::for_side(&g, 0, &[], &Intent::default());
    (g, units)
}

#[test]
fn it_offers_the_charge_the_rules_make_by_a_move_and_the_turn_that_squares_up_for_one() {
    // DBN makes a charge by a move straight ahead into contact: with the enemy's front
    // squarely ahead within a Musket's 100 paces, IR 3 is offered the move into contact,
    // with the odds of the fight it brings; with the enemy turned 30 degrees, farther off
    // (outside its threat zone, where a unit may turn), the turn that squares up to it for
    // next bound, since no move into contact may wheel first.
    let ir3 = |units: &[candidates::UnitChoices]| {
        units
            .iter()
            .find(|u| u.unit.as_str() == "pr-ir3")
            .expect("IR 3's choices")
            .cands
            .clone()
    };
    let (_, square) = grenadiers_ahead(180.0, 335.0);
    let closing = ir3(&square)
        .into_iter()
        .find(|c| c.why.contains("closes with Grenadier companies"))
        .expect("a move into contact");
    assert!(
        closing.why.contains("% to come out ahead"),
        "{}",
        closing.why
    );
    assert!(
        matches!(&closing.command, Command::Move { steps, .. }
            if matches!(steps.last(), Some(volley::rules::command::Step::ToContact(e)) if e.as_str() == "au-gr")),
        "{:?}",
        closing.command
    );
    let (g, turned) = grenadiers_ahead(150.0, 375.0);
    let cands = ir3(&turned);
    assert!(
        !cands
            .iter()
            .any(|c| c.why.contains("closes with Grenadier companies")),
        "no move into contact meets it square"
    );
    let squaring = cands
        .iter()
        .find(|c| c.why.contains("squares up to Grenadier companies"))
        .expect("a turn to square up");
    let mut after = g.fork();
    assert!(after.execute(squaring.command.clone()).is_ok());
    let facing = after
        .unit(&UnitId("pr-ir3".into()))
        .expect("IR 3")
        .base
        .facing;
    assert!(
        volley::rules::geometry::norm_deg(facing - 330.0).abs() < 0.5,
        "squared up: {facing}"
    );
}

/// Lobositz at Prussia's first movement: the command roll made, its units to move.
fn lobositz_movement() -> Game {
    let mut g = in_play("scenarios/lobositz_1756.ron");
    for _ in 0..8 {
        if g.active == 0 && g.phase.id() == "Movement" {
            return g;
        }
        assert!(g.execute(Command::EndPhase).is_ok(), "{:?}", g.phase);
    }
    panic!("Lobositz comes to Prussia's movement");
}

#[test]
fn a_side_that_stands_to_lose_goes_to_fight_and_risks_more_the_nearer_the_limit() {
    // Lobositz: Austria holds 3 points to Prussia's 1 and would win were the limit reached.
    let mut g = in_play("scenarios/lobositz_1756.ron");
    assert_eq!(g.result_at_limit().0, Some(1));
    // Austria, winning, weighs its own harm in full; Prussia a little less at the start and
    // a quarter at the limit.
    assert_eq!(assess::stake(&g, 1), 1.0);
    let start = assess::stake(&g, 0);
    assert!(start < 1.0 && start > 0.9, "{start}");
    let turn = g.turn;
    g.turn = g.turn_limit;
    assert!((assess::stake(&g, 0) - 0.25).abs() < 1e-9);
    g.turn = turn;
    // A Prussian battalion far from the enemy set down a long way nearer the nearest
    // Austrian: Prussia, which must go and fight, judges the position better; Austria worse.
    let before = [0, 1].map(|s| assess::value(&g, s));
    let ir = UnitId::from("pr-ir27");
    let at = g.unit(&ir).expect("IR 27").base.centre;
    let enemy = g
        .alive()
        .filter(|e| e.side == 1 && e.base.width > 0.0)
        .map(|e| e.base.centre)
        .min_by(|a, c| a.dist(at).total_cmp(&c.dist(at)))
        .expect("an Austrian");
    g.unit_mut(&ir).expect("IR 27").base.centre = at.plus(enemy.minus(at).scale(0.5));
    assert_eq!(g.result_at_limit().0, Some(1), "no place changes hands");
    let after = [0, 1].map(|s| assess::value(&g, s));
    assert!(after[0] > before[0], "Prussia {before:?} -> {after:?}");
    assert!(after[1] < before[1], "Austria {before:?} -> {after:?}");
}

#[test]
fn a_battalion_in_line_is_offered_its_own_move_straight_ahead() {
    // Before, every unit was offered walks of the battle's longest move (a cavalry move)
    // and half of it: a battalion in the Prussian line was offered no move at all.
    let g = lobositz_movement();
    let units = candidates::for_side(&g, 0, &[], &Intent::default());
    let ir = UnitId::from("pr-ir21");
    let choices = units
        .iter()
        .find(|u| u.unit == ir)
        .expect("IR 21 has choices");
    let nudge = g.scale.from_mm(0.5);
    let request = MoveRequest::unit(ir.clone(), vec![Step::Advance(nudge)]);
    let allowance = g
        .rules
        .check_move(&g, &request)
        .expect("IR 21 may move")
        .allowance;
    let full = |c: &&candidates::Cand| match &c.command {
        Command::Move { unit, steps } => {
            *unit == ir
                && matches!(steps.as_slice(), [Step::Advance(d)] if (d - allowance).abs() < 0.01 * allowance)
        }
        _ => false,
    };
    let ahead = choices
        .cands
        .iter()
        .find(full)
        .unwrap_or_else(|| panic!("IR 21's choices: {:?}", choices.cands));
    assert!(
        ahead.why.contains("straight ahead towards"),
        "{}",
        ahead.why
    );
    assert!(g.fork().execute(ahead.command.clone()).is_ok());
    let from = g.unit(&ir).expect("IR 21").base.centre;
    let gap = ahead.gap.expect("a move's gap to the enemy");
    assert!(
        gap < candidates::gap_to_enemy(&g, g.unit(&ir).expect("IR 21")),
        "IR 21 at {from:?} closes up: {gap}"
    );
}

#[test]
fn a_places_defenders_are_the_enemies_standing_on_it_each_with_its_part_of_the_goal() {
    let g = in_play("scenarios/lobositz_1756.ron");
    let mut prussia = Intent::default();
    prussia.review(&g, 0);
    let takes: Vec<_> = prussia.goals.iter().filter(|x| !x.hold).collect();
    assert!(!takes.is_empty(), "{:?}", prussia.goals);
    let defenders = prussia.defenders(&g, 0);
    assert!(
        !defenders.is_empty(),
        "Austria stands on the places Prussia goes for"
    );
    let mut expected = 0.0;
    for goal in &takes {
        let on: Vec<_> = g
            .alive()
            .filter(|e| e.side == 1 && e.base.width > 0.0 && e.base.reaches(goal.at, goal.radius))
            .filter(|e| !matches!(g.rules.look(&g, e).arm, Figures::Command | Figures::Train))
            .collect();
        for e in &on {
            assert!(
                defenders.iter().any(|(id, _)| **id == e.id),
                "{} defends {}",
                e.name,
                goal.name
            );
        }
        if !on.is_empty() {
            expected += goal.share;
        }
    }
    let total: f64 = defenders.iter().map(|(_, part)| part).sum();
    assert!(
        (total - expected).abs() < 1e-9,
        "{total} against {expected}"
    );
    for (id, _) in &defenders {
        assert_eq!(g.unit(id).expect("a defender").side, 1);
    }
}
