//! The opponent and batch runs: every command the opponent gives is accepted, games end, and a
//! batch's report is the same every time.

use volley::players::batch::{self, Player};
use volley::rules::ruleset::{bbb, dbn};
use volley::rules::save;

mod common;
use common::{DEFAULTS, U, battle, id, to_phase};
use volley::players::opponent::{Decision, Opponent, Style};
use volley::rules::Game;
use volley::rules::command::{Command, Step};
use volley::rules::model::Formation;
use volley::rules::scenario;

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
            [Player::Veteran, Player::Random],
            [Player::Straight, Player::Veteran],
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
    let players = [Player::Veteran, Player::Straight];
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

#[test]
fn the_opponent_closes_up_a_line_and_then_moves_it_as_one_group() {
    // Two Prussian Musket battalions 5 mm apart, far from the Austrians.
    let mut b = battle(
        &[
            U("g", 0, "CinC", "Regular", 480.0, 150.0, 0.0, ""),
            U("m1", 0, "Ms", "Regular", 455.0, 200.0, 0.0, ""),
            U("m2", 0, "Ms", "Regular", 500.0, 200.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 480.0, 900.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, dbn::MOVEMENT);
    let mut o = Opponent::new(Style::Odds);
    let said = o.play_phase(&mut b, 0, true);
    assert!(
        said.iter().any(|d| d.reason.contains("closes up")),
        "{said:?}"
    );
    let (m1, m2) = (b.unit(&id("m1")).unwrap(), b.unit(&id("m2")).unwrap());
    assert!(
        m1.base.touched_by(&m2.base).is_some(),
        "flank to flank: {:?} {:?}",
        m1.base,
        m2.base
    );
    // The next bound they advance together, for one command.
    to_phase(&mut b, 0, dbn::MOVEMENT);
    let said = o.play_phase(&mut b, 0, true);
    assert!(
        said.iter()
            .any(|d| matches!(&d.command, Command::MoveGroup { units, .. } if units.len() == 2)),
        "{said:?}"
    );
}

#[test]
fn a_general_left_behind_moves_up_first_while_his_troops_march_but_not_within_reach_of_the_enemy() {
    // The CinC 300 mm (1,500 paces) behind his two battalions, the enemy at `enemy_y`.
    let general_and_battalions = |enemy_y: f32| {
        let mut b = battle(
            &[
                U("g", 0, "CinC", "Regular", 480.0, 60.0, 0.0, ""),
                U("m1", 0, "Ms", "Regular", 455.0, 360.0, 0.0, ""),
                U("m2", 0, "Ms", "Regular", 500.0, 360.0, 0.0, ""),
                U("a", 1, "Ms", "Regular", 480.0, enemy_y, 180.0, ""),
            ],
            "",
        );
        to_phase(&mut b, 0, dbn::MOVEMENT);
        b
    };
    // The enemy far off (590 mm): he moves up first.
    let mut b = general_and_battalions(950.0);
    let before = b.unit(&id("g")).unwrap().base.centre;
    let said = Opponent::new(Style::Odds).play_phase(&mut b, 0, true);
    assert!(
        said.first().is_some_and(|d| d.reason.contains("follows")),
        "{said:?}"
    );
    let after = b.unit(&id("g")).unwrap().base.centre;
    assert!(after.y > before.y + 1.0, "{before:?} -> {after:?}");
    // The enemy within reach of the battalions (140 mm, 700 paces): he stays where he is, and
    // the points go to the troops.
    let mut b = general_and_battalions(500.0);
    let said = Opponent::new(Style::Odds).play_phase(&mut b, 0, true);
    assert!(
        !said.iter().any(|d| d.reason.contains("follows")),
        "{said:?}"
    );
    assert_eq!(b.unit(&id("g")).unwrap().base.centre, before);
}

/// A DBFPW battle on a 2000 x 2000 mm table, turn limit 20: France and Prussia (Prussia first
/// where `prussia_first`), with the scenario's `extra` fields and these unit lines.
fn dbfpw_battle(prussia_first: bool, extra: &str, units: &str) -> Game {
    let france = r#"(name: "France", nation: "imperial_french", colour: (0, 0, 200))"#;
    let prussia = r#"(name: "Prussia", nation: "german", colour: (20, 20, 20))"#;
    let (a, c) = if prussia_first {
        (prussia, france)
    } else {
        (france, prussia)
    };
    let text = format!(
        r#"(name: "t", ruleset: "dbfpw", table: (width: 2000, height: 2000), seed: 1, turn_limit: 20,
        {extra} terrain: [], sides: [{a}, {c}], units: [{units}])"#
    );
    scenario::parse(&text, "inline").expect("scenario")
}

#[test]
fn far_from_the_enemy_a_unit_marches_on_with_a_second_move_where_the_rules_allow_it() {
    // DBFPW allows a second move out of the enemy guns' reach; a French battalion 1,700 mm
    // (8,500 paces) from the Prussians, its CinC beside it.
    let mut b = dbfpw_battle(
        false,
        "",
        r#"(id: "c", side: 0, type: "CinC", class: Regular, at: Some((1080, 200)), facing: 0),
        (id: "f", side: 0, type: "Inf", class: Regular, at: Some((1000, 200)), facing: 0),
        (id: "p", side: 1, type: "Inf", class: Regular, at: Some((1000, 1900)), facing: 180)"#,
    );
    to_phase(&mut b, 0, dbn::MOVEMENT);
    let mut o = Opponent::new(Style::Odds);
    let said = o.play_phase(&mut b, 0, true);
    let moves: Vec<_> = said
        .iter()
        .filter(|d| d.command.unit() == Some(&id("f")))
        .collect();
    assert_eq!(moves.len(), 2, "{said:?}");
    assert!(moves[1].reason.contains("a second move"), "{said:?}");
}

/// The first reason the opponent of `style` gives for the French battalion, marching from far
/// off: one Prussian battalion dead ahead 1,700 mm (8,500 paces) off, another 1,500 mm off and
/// 53 degrees to its right.
fn far_off_march(style: Style) -> String {
    let mut b = dbfpw_battle(
        false,
        "",
        r#"(id: "c", side: 0, type: "CinC", class: Regular, at: Some((480, 200)), facing: 0),
        (id: "f", side: 0, type: "Inf", class: Regular, at: Some((400, 200)), facing: 0),
        (id: "p", side: 1, type: "Inf", class: Regular, name: "Ahead", at: Some((400, 1900)), facing: 180),
        (id: "q", side: 1, type: "Inf", class: Regular, name: "Aside", at: Some((1600, 1100)), facing: 180)"#,
    );
    to_phase(&mut b, 0, dbn::MOVEMENT);
    let said = Opponent::new(style).play_phase(&mut b, 0, true);
    said.iter()
        .find(|d| d.command.unit() == Some(&id("f")))
        .map(|d| d.reason.clone())
        .unwrap_or_else(|| panic!("the battalion does not move: {said:?}"))
}

#[test]
fn far_from_the_enemy_a_unit_marches_on_the_enemy_ahead_rather_than_turn_to_one_a_little_nearer() {
    // By the odds an enemy 53 degrees off counts 1,500 x (1 + 53/90) = 2,380 mm away: the one
    // ahead, 1,700 mm off, is nearer so. The straight player turns to the nearest.
    let odds = far_off_march(Style::Odds);
    assert!(odds.contains("advance") && odds.contains("Ahead"), "{odds}");
    let straight = far_off_march(Style::Straight);
    assert!(straight.contains("Aside"), "{straight}");
}

/// DBFPW with the ammunition rule: a Prussian battery out of ammunition, its supplier
/// (`kind`, at `at`) behind it, the French far off. Each player brings the supplier up, one
/// move a bound, until the battery is resupplied: in exactly the bounds `need` says.
fn supplier_brought_up(kind: &str, at: (f32, f32), need: impl Fn(&Game) -> usize) {
    let units = format!(
        r#"(id: "c", side: 0, type: "CinC", class: Regular, at: Some((1000, 600)), facing: 0),
        (id: "a", side: 0, type: "FAPr", class: Regular, at: Some((1000, 700)), facing: 0),
        (id: "s", side: 0, type: "{kind}", class: Regular, at: Some(({}, {})), facing: 0),
        (id: "f", side: 1, type: "Inf", class: Regular, at: Some((1000, 1900)), facing: 180)"#,
        at.0, at.1
    );
    for style in [Style::Odds, Style::Straight] {
        let mut b = dbfpw_battle(true, r#"options: ["ammunition"],"#, &units);
        b.unit_mut(&id("a")).unwrap().status.ammo = volley::rules::model::Ammo::Out;
        let need = need(&b);
        assert!(need >= 2, "{need}");
        let mut o = Opponent::new(style);
        let mut bounds = 0;
        while b.unit(&id("a")).unwrap().status.ammo != volley::rules::model::Ammo::Full {
            assert!(
                bounds < need,
                "{kind} {style:?}: still out after {bounds} bounds"
            );
            to_phase(&mut b, 0, dbn::MOVEMENT);
            let said = o.play_phase(&mut b, 0, true);
            let up = said
                .iter()
                .find(|d| d.command.unit() == Some(&id("s")))
                .unwrap_or_else(|| panic!("{kind} {style:?}: the supplier stays: {said:?}"));
            assert!(up.reason.contains("takes supplies up to"), "{}", up.reason);
            bounds += 1;
        }
        assert_eq!(bounds, need, "{kind} {style:?}");
    }
}

#[test]
fn a_caisson_takes_its_packs_up_to_a_battery_out_of_ammunition_until_they_reach_it() {
    // Some 1,700 paces behind: it comes within its supply radius of 1,200 paces, 300 paces a
    // move in good going.
    supplier_brought_up("CU", (1000.0, 260.0), |b| {
        let (s, a) = (b.unit(&id("s")).unwrap(), b.unit(&id("a")).unwrap());
        let gap = s.base.distance(&a.base) - b.scale.to_mm(1200.0);
        (gap / b.scale.to_mm(300.0)).ceil() as usize
    });
}

#[test]
fn a_baggage_train_goes_to_the_flank_of_a_battery_out_of_ammunition_and_touches_it() {
    // Behind and to its right: it goes to the nearer flank of the battery, 200 paces a move,
    // and resupplies it in contact.
    supplier_brought_up("BT", (1100.0, 620.0), |b| {
        let (s, a) = (b.unit(&id("s")).unwrap(), b.unit(&id("a")).unwrap());
        let aside = a.base.right().scale((a.base.width + s.base.width) / 2.0);
        let spot = [a.base.centre.plus(aside), a.base.centre.minus(aside)]
            .iter()
            .map(|p| p.dist(s.base.centre))
            .fold(f32::INFINITY, f32::min);
        (spot / b.scale.to_mm(200.0)).ceil() as usize
    });
}

/// A BBB battle on a 4 x 3 foot table, Prussia against Austria, with these unit lines.
fn bbb_battle(units: &str) -> Game {
    let text = format!(
        r#"(name: "t", ruleset: "bbb7yw", table: (width: 1220, height: 915), seed: 1, turn_limit: 10, terrain: [],
        sides: [(name: "Prussia", nation: "prussia", colour: (0, 0, 200)), (name: "Austria", nation: "austria", colour: (220, 220, 220))],
        units: [{units}])"#
    );
    scenario::parse(&text, "inline").expect("scenario")
}

#[test]
fn near_the_enemy_a_column_of_march_forms_line_and_far_off_it_marches_on() {
    // A BBB brigade in column of march, the enemy 10 inches off (within three long moves of 6):
    // it forms line. Its command roll is scripted to pass.
    let play = |y: u32| {
        let mut b = bbb_battle(&format!(
            r#"(id: "c", side: 0, type: "Inf", class: Trained, at: Some((600, 300)), facing: 0, formation: Some(Column)),
            (id: "e", side: 1, type: "Inf", class: Trained, at: Some((600, {y})), facing: 180),"#
        ));
        to_phase(&mut b, 0, dbn::MOVEMENT);
        b.script_dice(&[6; 20]);
        let said = Opponent::new(Style::Odds).play_phase(&mut b, 0, true);
        (said, b.unit(&id("c")).expect("c").formation)
    };
    let (said, formation) = play(560);
    assert!(
        said.iter().any(|d| matches!(
            d.command,
            Command::Form {
                formation: Formation::Line,
                ..
            }
        )),
        "{said:?}"
    );
    assert_eq!(formation, Formation::Line);
    // The enemy 23 inches off: it stays in column and marches.
    let (said, formation) = play(900);
    assert_eq!(formation, Formation::Column, "{said:?}");
    assert!(
        said.iter()
            .any(|d| matches!(d.command, Command::Move { .. })),
        "{said:?}"
    );
}

/// Cuirassiers 60 mm (300 paces, centre to centre) from light horse facing `facing`, with a
/// general at hand, in the cuirassiers' movement phase; and the opponent's decisions there, with
/// the charge among them.
fn cuirassiers_charge_light_horse(facing: f32) -> (Game, Decision) {
    let mut b = battle(
        &[
            U("g", 0, "CinC", "Regular", 480.0, 230.0, 0.0, ""),
            U("h", 0, "HC", "Regular", 480.0, 300.0, 0.0, ""),
            U("a", 1, "LC", "Regular", 480.0, 360.0, facing, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, dbn::MOVEMENT);
    let before = b.fork();
    let said = Opponent::new(Style::Odds).play_phase(&mut b, 0, false);
    let charge = said
        .iter()
        .find(|d| d.reason.contains("charges"))
        .cloned()
        .unwrap_or_else(|| panic!("{said:?}"));
    (before, charge)
}

#[test]
fn the_opponent_charges_where_the_rules_fight_the_combat_in_a_later_phase() {
    // DB7YW fights close combat in its own phase, after the move: the opponent weighs the fight
    // as it will stand then (the light horse facing the cuirassiers: worth 0.35, 72% to win).
    let (_, charge) = cuirassiers_charge_light_horse(180.0);
    assert!(
        matches!(&charge.command, Command::Move { unit, .. } if unit == &id("h")),
        "{charge:?}"
    );
    assert!(charge.reason.contains("% to win"), "{charge:?}");
}

#[test]
fn the_opponent_wheels_to_square_up_before_it_charges() {
    // The light horse stand 30 degrees off square to the cuirassiers: straight on, the rules
    // refuse the contact ("wheel first to square up"); the opponent wheels and charges in one
    // move.
    let (b, charge) = cuirassiers_charge_light_horse(150.0);
    let straight = Command::Move {
        unit: id("h"),
        steps: vec![Step::ToContact(id("a"))],
    };
    assert!(volley::players::opponent::probe(&b, &straight).is_none());
    assert!(
        matches!(&charge.command, Command::Move { steps, .. }
            if matches!(steps.as_slice(), [Step::Wheel { .. }, Step::ToContact(_)])),
        "{charge:?}"
    );
}

/// A DB7YW battle with Austria's objective at (500, 500): a Prussian battalion 60 mm (about
/// 240 paces) short of it, within a long move; an Austrian battalion at `(x, y)`, another far
/// off on the flank; Austria's movement phase played in `style`.
fn austria_guards_its_objective(x: f32, y: f32, style: Style) -> (Game, Vec<Decision>) {
    let mut b = common::battle_with(
        &[
            U("pc", 0, "CinC", "Regular", 500.0, 200.0, 0.0, ""),
            U("p", 0, "Ms", "Regular", 500.0, 440.0, 0.0, ""),
            U("ac", 1, "CinC", "Regular", 800.0, 900.0, 180.0, ""),
            U("a", 1, "Ms", "Regular", x, y, 180.0, ""),
            U("far", 1, "Ms", "Regular", 900.0, 800.0, 180.0, ""),
        ],
        "",
        "objective: Some((at: (500, 500), owner: 1)),",
    );
    to_phase(&mut b, 1, dbn::MOVEMENT);
    let said = Opponent::new(style).play_phase(&mut b, 1, true);
    (b, said)
}

#[test]
fn the_enemy_near_its_objective_the_nearest_unit_goes_onto_it_and_then_stays() {
    // The Austrian battalion 100 mm behind the objective: it goes to hold it, closer than it
    // stood, and not at the Prussians.
    let (b, said) = austria_guards_its_objective(500.0, 600.0, Style::Odds);
    let a = said
        .iter()
        .find(|d| d.command.unit() == Some(&id("a")))
        .unwrap_or_else(|| panic!("{said:?}"));
    assert!(a.reason.contains("to hold it"), "{said:?}");
    let at = volley::rules::geometry::Pt::new(500.0, 500.0);
    assert!(
        b.unit(&id("a")).unwrap().base.centre.dist(at) < 100.0 - 1.0,
        "{said:?}"
    );
    // Standing on it, it stays there.
    let (b, said) = austria_guards_its_objective(500.0, 510.0, Style::Odds);
    assert!(
        !said.iter().any(|d| d.command.unit() == Some(&id("a"))),
        "{said:?}"
    );
    assert_eq!(
        b.unit(&id("a")).unwrap().base.centre,
        volley::rules::geometry::Pt::new(500.0, 510.0)
    );
    // The straight player, the yardstick, guards nothing: it marches on the enemy.
    let (_, said) = austria_guards_its_objective(500.0, 600.0, Style::Straight);
    assert!(
        !said.iter().any(|d| d.reason.contains("to hold it")),
        "{said:?}"
    );
}

#[test]
fn a_bbb_general_nearer_the_enemy_than_his_troops_steps_back_behind_them() {
    // BBB strikes down a general nearer an enemy unit than any of his own. Ferdinand stands
    // between his brigade and the Austrians, 8 inches from them.
    let mut b = bbb_battle(
        r#"(id: "g", side: 0, type: "Gen", class: Veteran, at: Some((600, 380)), facing: 0),
        (id: "i", side: 0, type: "Inf", class: Trained, at: Some((600, 300)), facing: 0),
        (id: "e", side: 1, type: "Inf", class: Trained, at: Some((600, 600)), facing: 180),"#,
    );
    to_phase(&mut b, 0, bbb::GENERALS);
    b.script_dice(&[6; 20]);
    let rules = b.rules.clone();
    let g = b.unit(&id("g")).unwrap().clone();
    let long = b.scale.to_mm(6.0);
    // Where he stands the rules spare him (his brigade is nearer), but not were the Austrians
    // a long move nearer.
    assert!(!rules.general_exposed(&b, &g, 0.0));
    assert!(rules.general_exposed(&b, &g, long));
    let said = Opponent::new(Style::Odds).play_phase(&mut b, 0, false);
    assert!(
        said.iter().any(|d| d.reason.contains("falls back behind")),
        "{said:?}"
    );
    let after = b.unit(&id("g")).unwrap().clone();
    assert!(
        after.base.centre.y < 300.0,
        "behind his brigade: {:?}",
        after.base
    );
    assert!(!rules.general_exposed(&b, &after, 0.0));
}

#[test]
fn a_bbb_brigade_that_the_lowest_command_roll_would_retire_off_the_table_does_not_roll() {
    // A brigade with its back to the table's edge: the lowest command roll retires it a half
    // move, off the table. Further in, the same retreat leaves it on the table, and it rolls.
    let play = |y: u32| {
        let mut b = bbb_battle(&format!(
            r#"(id: "c", side: 0, type: "Inf", class: Trained, at: Some((600, {y})), facing: 0),
            (id: "e", side: 1, type: "Inf", class: Trained, at: Some((600, 800)), facing: 180),"#
        ));
        to_phase(&mut b, 0, dbn::MOVEMENT);
        let said = Opponent::new(Style::Odds).play_phase(&mut b, 0, true);
        said.iter()
            .any(|d| matches!(d.command, Command::Activate { .. }))
    };
    assert!(!play(20));
    assert!(play(400));
}

#[test]
fn an_advance_never_ends_in_contact_with_the_enemy() {
    // Only a charge, weighed by its odds, goes into contact. An advance that ended touching an
    // enemy brought a fight nobody weighed: at Lobosch an Old Dessauer battalion, disordered
    // in bad going, advanced an inch onto Grenzer skirmishers and lost a quarter of its men.
    // Each side in turn plays the opponent against the random player; every advance, a unit's
    // or a line's ("... and 2 more advance ..."), is checked on the battle it leaves.
    use volley::players::autoplay::AutoPlayer;
    use volley::rules::geometry::CONTACT_EPS;
    let mut advances = 0;
    for name in ["lobosch_1756", "bbb_default", "hal25_default", "default"] {
        let start = save::load_any(std::path::Path::new(&format!("scenarios/{name}.ron")))
            .expect("scenario");
        for (seed, me) in (1..=2 * games() as u64).map(|s| (s, (s % 2) as usize)) {
            let mut b = start.fork();
            b.reseed(seed);
            let mut opponent = Opponent::new(Style::Odds);
            let mut random = AutoPlayer::new(seed);
            for _ in 0..(b.turn_limit as usize + 2) * 16 {
                if b.is_over() {
                    break;
                }
                if b.active.min(1) != me {
                    let before = b.commands.len();
                    random.play_phase(&mut b, batch::RANDOM_TRIES);
                    if b.commands.len() == before && b.execute(Command::EndPhase).is_err() {
                        break;
                    }
                    continue;
                }
                let phase = (b.turn, b.phase, b.active);
                while (b.turn, b.phase, b.active) == phase && !b.is_over() {
                    let d = match opponent.decide(&b, me) {
                        Some(d) => d,
                        None => opponent.finish(&b, me),
                    };
                    b.execute(d.command.clone()).expect("accepted");
                    if !d.reason.contains(" advance") {
                        continue;
                    }
                    advances += 1;
                    let moved: Vec<_> = match &d.command {
                        Command::Move { unit, .. } => vec![unit.clone()],
                        Command::MoveGroup { units, .. } => units.clone(),
                        _ => Vec::new(),
                    };
                    for u in moved.iter().filter_map(|id| b.unit(id).ok()) {
                        let touching = b.alive().find(|e| {
                            e.side != u.side
                                && e.base.width > 0.0
                                && e.base.within(&u.base, CONTACT_EPS)
                        });
                        assert!(
                            touching.is_none(),
                            "{name} seed {seed}: {} ({touching:?})",
                            d.reason
                        );
                    }
                }
            }
        }
    }
    assert!(advances > 100, "{advances} advances");
}

#[test]
fn limbered_guns_march_on_until_the_enemy_is_within_two_long_moves() {
    // A limbered BBB battery (a long move is 6 inches): with the enemy 17 inches off it stays
    // limbered and marches (unlimbered, BBB manhandles guns 3 inches a bound), 3 inches, the
    // most BBB's opponent stands ahead of its line, so that it ends 14 inches off; at 9 inches
    // it unlimbers. Its command roll is scripted to pass.
    let play = |y: u32| {
        let mut b = bbb_battle(&format!(
            r#"(id: "g", side: 0, type: "FA", class: Trained, at: Some((600, 300)), facing: 0, limbered: true),
            (id: "e", side: 1, type: "Inf", class: Trained, at: Some((600, {y})), facing: 180),"#
        ));
        to_phase(&mut b, 0, dbn::MOVEMENT);
        b.script_dice(&[6; 20]);
        let said = Opponent::new(Style::Odds).play_phase(&mut b, 0, true);
        (said, b.unit(&id("g")).expect("g").status.limbered)
    };
    let (said, limbered) = play(300 + 432);
    assert!(limbered, "{said:?}");
    assert!(
        said.iter()
            .any(|d| matches!(d.command, Command::Move { .. })),
        "{said:?}"
    );
    let (said, limbered) = play(300 + 229);
    assert!(!limbered, "{said:?}");
    assert!(
        said.iter()
            .any(|d| matches!(d.command, Command::Unlimber { .. })),
        "{said:?}"
    );
}

#[test]
fn a_bbb_charge_is_weighed_at_the_assault_four_phases_after_the_move() {
    // BBB fights an assault in the assault phase, after the generals', the defensive and the
    // offensive fire phases. The opponent weighs a charge by the fight it brings, played on to
    // that phase on a copy; weighed only three phases on, it found no fight and never charged.
    // Veteran heavy horse five inches from the flank of a Trained brigade charges it.
    let mut b = bbb_battle(
        r#"(id: "hc", side: 0, type: "HC", class: Veteran, at: Some((600, 300)), facing: 0),
        (id: "e", side: 1, type: "Inf", class: Trained, at: Some((600, 430)), facing: 90),"#,
    );
    to_phase(&mut b, 0, dbn::MOVEMENT);
    b.script_dice(&[6; 20]);
    let said = Opponent::new(Style::Odds).play_phase(&mut b, 0, false);
    assert!(
        said.iter()
            .any(|d| d.reason.contains("charges") && d.reason.contains("% to win")),
        "{said:?}"
    );
}

/// Horse of side 0 (`own`) 60 mm from horse of side 1 (`enemy`) facing it, in side 0's movement
/// phase of the last turn, each side with a unit behind its line lost: side `ahead`'s only
/// (None: both, a level game); and the opponent's decisions there.
fn last_turn_charge(own: &str, enemy: &str, ahead: Option<usize>) -> Vec<Decision> {
    let mut b = battle(
        &[
            U("g", 0, "CinC", "Regular", 480.0, 230.0, 0.0, ""),
            U("h", 0, own, "Regular", 480.0, 300.0, 0.0, ""),
            U("a", 1, enemy, "Regular", 480.0, 360.0, 180.0, ""),
            U("x0", 0, "LC", "Regular", 480.0, 120.0, 0.0, ""),
            U("y0", 0, "LC", "Regular", 380.0, 120.0, 0.0, ""),
            U("z0", 0, "LC", "Regular", 580.0, 120.0, 0.0, ""),
            U("x1", 1, "LC", "Regular", 480.0, 540.0, 180.0, ""),
            U("y1", 1, "LC", "Regular", 380.0, 540.0, 180.0, ""),
            U("z1", 1, "LC", "Regular", 580.0, 540.0, 180.0, ""),
            U("g1", 1, "CinC", "Regular", 480.0, 640.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, dbn::MOVEMENT);
    b.turn = b.turn_limit;
    let lost = [id("x0"), id("x1")];
    for u in b.units_mut().iter_mut() {
        if lost
            .iter()
            .enumerate()
            .any(|(s, x)| *x == u.id && ahead != Some(s))
        {
            u.status.removed = true;
        }
    }
    assert!(!b.is_over(), "{:?}", b.log.last());
    Opponent::new(Style::Odds).play_phase(&mut b, 0, false)
}

fn charged(said: &[Decision]) -> bool {
    said.iter().any(|d| d.reason.contains("charges"))
}

#[test]
fn in_its_last_bound_a_side_that_would_win_keeps_its_lead() {
    // Cuirassiers charge light horse facing them at 72% to win, in a level game or behind; in
    // the last bound, ahead (the side wins at the turn limit as it stands), they stand (their
    // general may still move up behind them).
    assert!(charged(&last_turn_charge("HC", "LC", None)));
    assert!(charged(&last_turn_charge("HC", "LC", Some(1))));
    let said = last_turn_charge("HC", "LC", Some(0));
    assert!(!charged(&said), "{said:?}");
    assert!(
        !said
            .iter()
            .any(|d| matches!(&d.command, Command::Move { unit, .. } if unit == &id("h"))),
        "{said:?}"
    );
}

#[test]
fn in_its_last_bound_a_side_that_would_lose_charges_at_poor_odds_but_not_hopeless_ones() {
    // Dragoons do not charge cuirassiers facing them (3 against 4: 28% to win, worth -0.18),
    // level or ahead; behind in the last bound, they do: their one chance to turn the result.
    let said = last_turn_charge("DC", "HC", None);
    assert!(!charged(&said), "{said:?}");
    assert!(!charged(&last_turn_charge("DC", "HC", Some(0))));
    let said = last_turn_charge("DC", "HC", Some(1));
    assert!(charged(&said), "{said:?}");
    // Light horse against them (2 against 4: 17% to win, worth -0.35) do not, even behind: a
    // hopeless charge would only add a unit to the enemy's count.
    let said = last_turn_charge("LC", "HC", Some(1));
    assert!(!charged(&said), "{said:?}");
}

/// Infantry of side `side` on a hill (`on_hill`) or in the open, the enemy's infantry 220 mm
/// off (within reach), in its movement phase of turn 1 (Austria, side 1, is the defender);
/// and the opponent's decisions there.
fn on_good_ground(side: usize, on_hill: bool) -> Vec<Decision> {
    let (own, enemy) = if side == 1 {
        (600.0, 380.0)
    } else {
        (380.0, 600.0)
    };
    let hill = format!(
        r#"(id: "h", kind: Hill, name: "Hill", points: [(300, {a}), (700, {a}), (700, {c}), (300, {c})], level: 1),"#,
        a = own - 100.0,
        c = own + 100.0
    );
    let facing = |y: f32| if y < 400.0 { 0.0 } else { 180.0 };
    let mut b = battle(
        &[
            U("g0", 0, "CinC", "Regular", 200.0, 40.0, 0.0, ""),
            U("g1", 1, "CinC", "Regular", 200.0, 960.0, 180.0, ""),
            U("i", side, "Ms", "Regular", 480.0, own, facing(own), ""),
            U(
                "e",
                1 - side,
                "Ms",
                "Regular",
                480.0,
                enemy,
                facing(enemy),
                "",
            ),
        ],
        if on_hill { &hill } else { "" },
    );
    to_phase(&mut b, side, dbn::MOVEMENT);
    Opponent::new(Style::Odds).play_phase(&mut b, side, false)
}

/// Whether unit "i" moves, alone or in a group.
fn moves_i(said: &[Decision]) -> bool {
    said.iter().any(|d| match &d.command {
        Command::Move { unit, .. } => unit == &id("i"),
        Command::MoveGroup { units, .. } => units.contains(&id("i")),
        _ => false,
    })
}

#[test]
fn the_defender_holds_good_ground_with_the_enemy_within_reach() {
    // The defender's infantry on a hill stands; in the open it advances. The attacker's
    // advances from the hill too.
    let said = on_good_ground(1, true);
    assert!(!moves_i(&said), "{said:?}");
    let said = on_good_ground(1, false);
    assert!(moves_i(&said), "{said:?}");
    let said = on_good_ground(0, true);
    assert!(moves_i(&said), "{said:?}");
}

#[test]
fn a_defender_on_good_ground_is_not_taken_off_it_by_its_line() {
    // Two of the defender's foot flank to flank, one on a hill, one in the open beside it: the
    // one in the open may advance, but not as a line with the one holding the hill.
    let (width, _) = common::base_size("Ms");
    let hill = r#"(id: "h", kind: Hill, name: "Hill", points: [(300, 500), (480, 500), (480, 700), (300, 700)], level: 1),"#;
    let mut b = battle(
        &[
            U("g0", 0, "CinC", "Regular", 200.0, 40.0, 0.0, ""),
            U("g1", 1, "CinC", "Regular", 200.0, 960.0, 180.0, ""),
            U(
                "i",
                1,
                "Ms",
                "Regular",
                480.0 - width / 2.0,
                600.0,
                180.0,
                "",
            ),
            U(
                "j",
                1,
                "Ms",
                "Regular",
                480.0 + width / 2.0,
                600.0,
                180.0,
                "",
            ),
            U("e", 0, "Ms", "Regular", 480.0, 380.0, 0.0, ""),
        ],
        hill,
    );
    to_phase(&mut b, 1, dbn::MOVEMENT);
    let said = Opponent::new(Style::Odds).play_phase(&mut b, 1, false);
    assert!(!moves_i(&said), "{said:?}");
}

#[test]
fn the_attacker_spends_its_points_on_the_most_troops_a_point_moves_first() {
    // Two points. A battalion out of the CinC's command range (two points to move) stands
    // nearer the enemy than two battalions flank to flank within it (one point for both).
    let w = common::base_size("Ms").0;
    let setup = |defends: bool| {
        let mut b = battle(
            &[
                U("g", 0, "CinC", "Regular", 600.0, 260.0, 0.0, ""),
                U("m1", 0, "Ms", "Regular", 460.0, 200.0, 0.0, ""),
                U("m2", 0, "Ms", "Regular", 460.0 + w, 200.0, 0.0, ""),
                U("lone", 0, "Ms", "Regular", 950.0, 600.0, 0.0, ""),
                U("a", 1, "Ms", "Regular", 700.0, 980.0, 180.0, ""),
            ],
            "",
        );
        let sides = std::sync::Arc::make_mut(&mut b.sides);
        sides[0].defender = defends;
        sides[1].defender = !defends;
        to_phase(&mut b, 0, dbn::MOVEMENT);
        b.command_points[0] = 2;
        let lone = b.unit(&id("lone")).unwrap().base;
        let said = Opponent::new(Style::Odds).play_phase(&mut b, 0, true);
        let moved = b.unit(&id("lone")).unwrap().base != lone;
        (said, moved)
    };
    // The attacker moves the pair first, for one point: one is left, too few for the other.
    let (said, moved) = setup(false);
    assert!(
        said.first().is_some_and(
            |d| matches!(&d.command, Command::MoveGroup { units, .. } if units.len() == 2)
        ),
        "{said:?}"
    );
    assert!(!moved, "{said:?}");
    // The defender pays what the unit nearest the enemy takes.
    let (said, moved) = setup(true);
    assert!(
        said.first()
            .is_some_and(|d| d.command.unit() == Some(&id("lone"))),
        "{said:?}"
    );
    assert!(moved, "{said:?}");
}

#[test]
fn each_ruleset_gives_the_opponent_the_numbers_measured_for_it() {
    use volley::players::opponent::Tuning;
    use volley::rules::ruleset::AnyRuleset;
    let base = Tuning::default();
    let tuned = |id: &str| {
        AnyRuleset::load(id)
            .expect(id)
            .opponent_tuning(Tuning::default())
    };
    // BBB: a brigade stands no more than the third sample move (3") ahead of its line.
    assert_eq!(tuned("bbb7yw").line, 2);
    assert_eq!(base.line, 3);
    // Hal's: fire and declared charges only worth 0.05 or more.
    assert!((tuned("hal25").attack - 0.05).abs() < 1e-9);
    assert!((base.attack - 0.02).abs() < 1e-9);
    // Old Dessauer's: units march at their best pace until four long moves from the enemy.
    assert!((tuned("old_dessauer").march - 4.0).abs() < 1e-6);
    assert!((base.march - 3.0).abs() < 1e-6);
    // The others play the defaults.
    for id in ["db7yw", "dbfpw"] {
        let t = tuned(id);
        assert_eq!(
            (t.line, t.attack, t.charge),
            (base.line, base.attack, base.charge),
            "{id}"
        );
    }
}

/// A DB7YW battle in Prussia's movement phase, in the last turn or not (`last`): a Prussian
/// battalion facing up the table 40 mm (157 paces) to the left of Austria's objective, the Austrians far
/// off; and what the opponent does there.
fn beside_the_objective(last: bool) -> (Game, Vec<Decision>) {
    let mut b = common::battle_with(
        &[
            U("pc", 0, "CinC", "Regular", 440.0, 300.0, 0.0, ""),
            U("p", 0, "Ms", "Regular", 460.0, 500.0, 0.0, ""),
            U("ac", 1, "CinC", "Regular", 800.0, 950.0, 180.0, ""),
            U("a", 1, "Ms", "Regular", 900.0, 900.0, 180.0, ""),
        ],
        "",
        "objective: Some((at: (500, 500), owner: 1)),",
    );
    to_phase(&mut b, 0, dbn::MOVEMENT);
    b.turn = if last { b.turn_limit } else { 2 };
    let said = Opponent::new(Style::Odds).play_phase(&mut b, 0, false);
    (b, said)
}

#[test]
fn in_its_last_bound_a_side_that_would_not_win_moves_onto_the_place_that_turns_the_result() {
    // The game level in the last bound: the battalion steps sideways onto the objective (a
    // wheel towards it would not reach it), and Prussia now wins at the limit.
    let (b, said) = beside_the_objective(true);
    assert!(
        said.iter().any(|d| d.reason.contains("turns the result")),
        "{said:?}"
    );
    assert!(b.objective.as_ref().is_some_and(|o| o.taken), "{said:?}");
    assert_eq!(b.rules.result_at_limit(&b).0, Some(0));
    // Before the last turn it plays as usual.
    let (_, said) = beside_the_objective(false);
    assert!(
        !said.iter().any(|d| d.reason.contains("turns the result")),
        "{said:?}"
    );
}

/// Old Dessauer: battalion `y` behind battalion `x`, which stands in square (squares may not
/// move, and a friend moved through must stand still), the enemy far ahead; and the battle
/// after `style` plays side 0's movement phase.
fn behind_a_friend(style: Style) -> Game {
    let mut b = common::old_dessauer(
        "",
        r#"(id: "x", side: 0, type: "Inf", formation: Square, at: (300, 300), facing: 0),
           (id: "y", side: 0, type: "Inf", at: (300, 220), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (300, 1000), facing: 180),"#,
        &[],
    );
    to_phase(&mut b, 0, dbn::MOVEMENT);
    Opponent::new(style).play_phase(&mut b, 0, false);
    b
}

#[test]
fn an_advance_does_not_march_into_a_friend_and_disorder_both() {
    // Straight on, y marches its full move into x's ground: both are disordered (intermixed).
    let b = behind_a_friend(Style::Straight);
    assert!(b.unit(&id("x")).unwrap().status.disordered);
    // By the odds it goes no farther than keeps both in order.
    let b = behind_a_friend(Style::Odds);
    let (x, y) = (b.unit(&id("x")).unwrap(), b.unit(&id("y")).unwrap());
    assert!(
        !x.status.disordered && !y.status.disordered,
        "{:?}",
        b.log.last()
    );
    assert!(y.base.centre.y > 220.0, "y stood still");
}

/// A DBFPW French battalion (with its CinC beside it, 6 CAPs) in its movement phase,
/// `gap` paces in front of a Prussian unit of type `enemy` facing it, in line; and the
/// opponent's decisions for that phase.
fn battalion_before(enemy: &str, gap: f32) -> (Game, Vec<Decision>) {
    // 100 paces are 25.4 mm; DBFPW infantry and cavalry bases are 20 mm deep (tests/dbfpw.rs).
    let y = 500.0 + 20.0 + gap * 0.254;
    let mut b = dbfpw_battle(
        true,
        "",
        &format!(
            r#"(id: "p", side: 0, type: "{enemy}", class: Regular, at: Some((1000, {y})), facing: 180),
            (id: "c", side: 1, type: "CinC", class: Regular, at: Some((1100, 420)), facing: 0),
            (id: "f", side: 1, type: "Inf", class: Regular, at: Some((1000, 500)), facing: 0)"#
        ),
    );
    b.script_dice(&[6, 6, 6, 6]);
    to_phase(&mut b, 1, dbn::MOVEMENT);
    let said = Opponent::new(Style::Odds).play_phase(&mut b, 1, false);
    (b, said)
}

#[test]
fn infantry_forms_attack_column_before_it_charges_foot_and_keeps_it() {
    // DBFPW's attack column (a formation taken for 1 CAP) fights at +2 against foot: 150
    // paces from a Prussian battalion the French one forms it first, then charges in it.
    let (b, said) = battalion_before("Inf", 150.0);
    let f: Vec<&Decision> = said
        .iter()
        .filter(|d| d.command.unit() == Some(&id("f")))
        .collect();
    assert!(
        matches!(
            f.first().map(|d| &d.command),
            Some(Command::Form {
                formation: Formation::Column,
                ..
            })
        ),
        "{said:?}"
    );
    assert!(
        f.get(1).is_some_and(
            |d| matches!(&d.command, Command::Move { .. }) && d.reason.contains("charges")
        ),
        "{said:?}"
    );
    assert_eq!(b.unit(&id("f")).unwrap().formation, Formation::Column);
    // Against cavalry the column gains nothing: it charges (or not) in line.
    let (b, said) = battalion_before("LC", 150.0);
    assert!(
        !said
            .iter()
            .any(|d| matches!(d.command, Command::Form { .. })),
        "{said:?}"
    );
    assert_eq!(b.unit(&id("f")).unwrap().formation, Formation::Line);
}

#[test]
fn infantry_that_halts_short_of_enemy_foot_forms_attack_column_for_the_next_bound() {
    // 400 paces off, beyond a charge's reach: the battalion advances, halts short, and with
    // the points its moves left forms attack column to charge next bound.
    let (b, said) = battalion_before("Inf", 400.0);
    let last = said.last().expect("decisions");
    assert!(
        matches!(
            last.command,
            Command::Form {
                formation: Formation::Column,
                ..
            }
        ) && last.reason.contains("next bound"),
        "{said:?}"
    );
    assert!(
        said.iter().any(
            |d| matches!(d.command, Command::Move { .. }) && d.command.unit() == Some(&id("f"))
        ),
        "{said:?}"
    );
    let f = b.unit(&id("f")).unwrap();
    assert_eq!(f.formation, Formation::Column);
    // Next bound it stays in column near the enemy's foot: not a column of march to leave.
    let mut b = b;
    b.script_dice(&[6, 6, 6, 6, 6, 6]);
    b.execute(Command::EndPhase).expect("end phase");
    to_phase(&mut b, 1, dbn::MOVEMENT);
    let said = Opponent::new(Style::Odds).play_phase(&mut b, 1, false);
    assert!(
        !said.iter().any(|d| matches!(
            d.command,
            Command::Form {
                formation: Formation::Line,
                ..
            }
        )),
        "{said:?}"
    );
}

/// The French battalion's first move and its reason, marching on one Prussian battalion 130 mm
/// (about 510 paces) dead ahead of it, that faces `facing`: beyond a charge's reach, within a
/// long move (300 paces) once it has advanced its 200.
fn march_on_a_battalion_facing(facing: f32) -> String {
    let mut b = dbfpw_battle(
        false,
        "",
        &format!(
            r#"(id: "c", side: 0, type: "CinC", class: Regular, at: Some((480, 200)), facing: 0),
        (id: "f", side: 0, type: "Inf", class: Regular, at: Some((400, 200)), facing: 0),
        (id: "p", side: 1, type: "Inf", class: Regular, name: "IR 20 Alt-Colloredo", at: Some((400, 330)), facing: {facing})"#
        ),
    );
    to_phase(&mut b, 0, dbn::MOVEMENT);
    let said = Opponent::new(Style::Odds).play_phase(&mut b, 0, true);
    said.iter()
        .find(|d| d.command.unit() == Some(&id("f")) && matches!(d.command, Command::Move { .. }))
        .map(|d| d.reason.clone())
        .unwrap_or_else(|| panic!("the battalion does not move: {said:?}"))
}

#[test]
fn a_move_that_brings_a_unit_in_reach_of_an_enemys_flank_or_rear_says_so() {
    // The Prussians face across the French advance (their flank towards it), or away from it
    // (their rear): the advance says which it comes on. Faced, it says neither.
    let flank = march_on_a_battalion_facing(90.0);
    assert!(
        flank.contains("towards IR 20 Alt-Colloredo")
            && flank.ends_with(", and to reach the flank of IR 20 Alt-Colloredo"),
        "{flank}"
    );
    let rear = march_on_a_battalion_facing(0.0);
    assert!(
        rear.ends_with(", and to reach the rear of IR 20 Alt-Colloredo"),
        "{rear}"
    );
    let front = march_on_a_battalion_facing(180.0);
    assert!(
        !front.contains("flank") && !front.contains("rear"),
        "{front}"
    );
}
