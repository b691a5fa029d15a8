//! The one door: every scenario of every ruleset, played by the seeded player, answers the
//! window's questions through the `Ruleset` trait alone: cards, buttons that work, overlays,
//! outlooks whose chances sum to one, and one roll record for every roll.

use std::path::Path;
use volley::players::autoplay::AutoPlayer;
use volley::rules::Game;
use volley::rules::command::{Command, RuleError};
use volley::rules::ruleset::{Layer, MoveRequest};
use volley::rules::scenario;
use volley::text::report;

const LAYERS: [Layer; 5] = [
    Layer::Arcs,
    Layer::Zones,
    Layer::Sight,
    Layer::Reach,
    Layer::Targets,
];

fn scenarios() -> Vec<Game> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| scenario::load(p).unwrap_or_else(|e| panic!("{p:?}: {e:?}")))
        .collect()
}

/// Asks the trait everything the window asks of a battle, and checks the answers.
fn ask_everything(b: &Game) {
    let words = b.rules.turn_words(b);
    assert!(!words.phase.is_empty());
    assert!(!words.controls.is_empty());
    for u in b.alive() {
        let card = b.rules.unit_card(b, u);
        assert_eq!(card.title, u.name);
        assert!(!card.lines.is_empty(), "{}: an empty card", u.name);
        assert!(!b.rules.look(b, u).label.is_empty());
        // Every button the window shows is for now and for this side: the rules may still
        // refuse it for the ground (no room to form), never for its phase, side or unit.
        for g in b.rules.actions(b, u) {
            for a in g.actions {
                let mut try_it = b.clone();
                if let Err(
                    e @ (RuleError::WrongPhase { .. }
                    | RuleError::NotYourUnit(_)
                    | RuleError::UnknownUnit(_)
                    | RuleError::UnknownFeature(_)
                    | RuleError::GameOver),
                ) = try_it.execute(a.command.clone())
                {
                    panic!("{}: the button '{}' is refused: {e}", u.name, a.label);
                }
            }
        }
        for e in b.alive().filter(|e| e.side != u.side) {
            let Some(cmd) = b.rules.target_command(b, &u.id, &e.id) else {
                continue;
            };
            if let Ok(o) = b.rules.preview(b, &cmd) {
                let sum: f64 = o.chances.iter().map(|c| c.chance).sum();
                assert!((sum - 1.0).abs() < 1e-9, "{cmd:?}: chances sum to {sum}");
                assert!(!o.parts.is_empty());
                for c in &o.choices {
                    assert!(b.rules.preview(b, &c.flipped).is_ok(), "{}", c.label);
                }
            }
        }
    }
    if let Some(u) = b.alive().find(|u| u.side == b.active) {
        let marks = b.rules.overlays(b, Some(u), &LAYERS);
        assert!(
            marks
                .iter()
                .all(|m| m.points.iter().all(|p| p.x.is_finite() && p.y.is_finite()))
        );
        if b.rules.may_move(b, u) {
            let plan = b
                .rules
                .check_move(b, &MoveRequest::unit(u.id.clone(), vec![]));
            assert!(plan.is_err(), "a move of no steps is refused");
        }
    }
    assert!(!b.rules.reference().sections.is_empty());
}

#[test]
fn every_scenario_answers_the_window_through_the_trait_in_every_phase() {
    for mut b in scenarios() {
        let mut player = AutoPlayer::new(3);
        for _ in 0..24 {
            if b.is_over() {
                break;
            }
            ask_everything(&b);
            player.play_phase(&mut b, 6);
        }
    }
}

#[test]
fn every_roll_is_one_record_with_its_dice_factors_and_total() {
    for start in scenarios() {
        // Some seeds never bring the armies to blows before the turn limit: try a few.
        let mut rolled = 0;
        for seed in 1..=8 {
            let mut b = start.clone();
            AutoPlayer::new(seed).play(&mut b, 120, 8);
            rolled += check_rolls(&b);
            if rolled > 0 {
                break;
            }
        }
        assert!(
            rolled > 0,
            "{}: no roll in eight whole games",
            start.info.name
        );
    }
}

/// Checks every roll of the log; returns how many there were.
fn check_rolls(b: &Game) -> usize {
    let mut rolled = 0;
    for e in &b.log {
        for r in report::rolls(e) {
            rolled += 1;
            assert!(!r.dice.is_empty(), "{e:?}");
            assert!(r.dice.iter().all(|d| (1..=6).contains(d)), "{e:?}");
            assert!(r.unit.is_some() || r.side.is_some());
            assert!(!r.outcome.is_empty(), "{e:?}");
            let sum: i32 = r.factors.iter().map(|f| f.value).sum();
            // An opposed roll of one die totals its die and its factors (Hal's melee throws a
            // die a stand and totals them less the casualties suffered).
            if r.against.is_some() && r.need.is_none() && r.dice.len() == 1 {
                assert_eq!(r.total, sum + r.dice[0] as i32, "{e:?}");
            }
        }
        // The JSON of an event that rolled carries its rolls.
        let v = report::event_json(b, e);
        assert_eq!(
            v.get("rolls").is_some(),
            !report::rolls(e).is_empty(),
            "{e:?}"
        );
    }
    rolled
}

#[test]
fn a_move_request_makes_the_command_the_drag_gives() {
    let u = volley::rules::model::UnitId("a".into());
    let one = MoveRequest::unit(u.clone(), vec![]).command();
    assert!(matches!(one, Command::Move { .. }));
    let stand = MoveRequest {
        units: vec![u.clone()],
        stand: Some(2),
        steps: vec![],
    }
    .command();
    assert!(matches!(stand, Command::MoveStand { stand: 2, .. }));
    let group = MoveRequest {
        units: vec![u.clone(), u],
        stand: None,
        steps: vec![],
    }
    .command();
    assert!(matches!(group, Command::MoveGroup { .. }));
}

/// Dice once seen stay seen, whatever the ruleset: an Old Dessauer volley, like a DB7YW firing,
/// marks the last command as rolled, so the window refuses to take it back.
#[test]
fn a_volley_of_any_ruleset_cannot_be_taken_back_in_the_window() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut b = scenario::load(&root.join("tests/old_dessauer/fire_example.ron")).unwrap();
    b.execute(Command::EndPhase).unwrap();
    b.execute(Command::Fire {
        unit: "pr-ir".into(),
        target: "au-gren".into(),
        support: vec![],
        defence: None,
    })
    .unwrap();
    assert!(
        b.log
            .iter()
            .any(|e| matches!(e, volley::rules::command::Event::Volley { .. }))
    );
    assert!(b.last_command_rolled());
}

/// The loader checks the table's rules (facing, hits, position) before the ruleset's own, and
/// words a limbered non-gun alike in every ruleset.
#[test]
fn the_loader_reports_the_tables_problems_first_and_words_them_alike() {
    let text = |ruleset: &str, unit: &str| {
        format!(
            r#"(name: "t", ruleset: "{ruleset}", table: (width: 1000, height: 1000), turn_limit: 5,
            sides: [(name: "A", colour: (0, 0, 200)), (name: "B", colour: (200, 0, 0))],
            units: [{unit}, (id: "z", side: 1, type: "Inf", at: (500, 900), facing: 180)])"#
        )
    };
    let first = |t: String| match scenario::parse(&t, "t.ron") {
        Ok(_) => panic!("accepted"),
        Err(d) => d[0].message.clone(),
    };
    let od = text(
        "old_dessauer",
        r#"(id: "a", side: 0, type: "Inf", at: (500, 100), hits: 11)"#,
    );
    assert_eq!(first(od), "unit 'a' starts with 11 hits");
    let od = text(
        "old_dessauer",
        r#"(id: "a", side: 0, type: "Inf", at: (500, 100), limbered: true)"#,
    );
    assert_eq!(
        first(od),
        "unit 'a' is not artillery and cannot be limbered"
    );
    let db = text(
        "db7yw",
        r#"(id: "a", side: 0, type: "Ms", at: (500, 100), limbered: true)"#,
    )
    .replace("type: \"Inf\"", "type: \"Ms\"");
    assert_eq!(
        first(db),
        "unit 'a' is not artillery and cannot be limbered"
    );
}

/// A ruleset whose roll fits no other event records it as `Rolled`: the log, "Last roll" and the
/// JSON read it like any other roll, with no code of their own.
#[test]
fn a_roll_of_a_new_kind_is_logged_and_read_like_any_other() {
    use volley::rules::command::{Event, Factor};
    use volley::rules::ruleset::Roll;
    let b = scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/tutorial.ron"))
        .unwrap();
    let unit = b.units[0].id.clone();
    let roll = Roll {
        unit: Some(unit),
        side: None,
        dice: vec![4, 3],
        factors: vec![Factor {
            name: "Veteran".into(),
            value: 1,
            source: "a table row".into(),
        }],
        total: 8,
        against: None,
        need: Some(7),
        outcome: "moves".into(),
        first_die: None,
        dice_at: Vec::new(),
    };
    let e = Event::Rolled {
        what: "a command roll".into(),
        roll: roll.clone(),
    };
    assert_eq!(report::rolls(&e), vec![roll]);
    let text = report::describe(&b, &e);
    assert!(
        text.contains("rolls [4, 3] for a command roll (+1 Veteran) = 8"),
        "{text}"
    );
    assert!(text.ends_with(": moves"), "{text}");
    let v = report::event_json(&b, &e);
    assert_eq!(v["rolls"][0]["total"], 8);
    // Events are saved and read back whole.
    let back: Event = serde_json::from_value(serde_json::to_value(&e).unwrap()).unwrap();
    assert_eq!(back, e);
}

/// One convention in every ruleset: a turn is both sides' bounds, and the turn bar says whose
/// bound of which turn it is.
#[test]
fn a_turn_is_both_sides_bounds_in_every_ruleset() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    for (file, limit) in [("tutorial.ron", 8), ("od_tutorial.ron", 5)] {
        let mut b = scenario::load(&dir.join(file)).unwrap();
        b.script_dice(&[6; 40]);
        assert_eq!(b.turn_limit, limit, "{file}");
        let mut seen = Vec::new();
        for _ in 0..12 {
            let line = report::turn_line(&b);
            if seen.last() != Some(&line) {
                seen.push(line);
            }
            b.execute(Command::EndPhase).unwrap();
        }
        assert_eq!(
            seen[..3],
            [
                format!("Turn 1 of {limit} · Prussia's bound"),
                format!("Turn 1 of {limit} · Austria's bound"),
                format!("Turn 2 of {limit} · Prussia's bound"),
            ],
            "{file}"
        );
    }
}

/// Hovering an enemy says in a player's words why a unit may not fire at or fight it: never
/// words meant for a programmer.
#[test]
fn why_a_target_is_refused_is_said_in_a_players_words() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut said = 0;
    for file in ["tutorial.ron", "od_tutorial.ron", "lobosch_1756.ron"] {
        let mut b = scenario::load(&dir.join(file)).unwrap();
        for _ in 0..8 {
            if b.is_over() {
                break;
            }
            for own in b.alive().filter(|u| u.side == b.active) {
                for enemy in b.alive().filter(|u| u.side != b.active) {
                    let Some(cmd) = b.rules.target_command(&b, &own.id, &enemy.id) else {
                        continue;
                    };
                    if let Err(e) = b.rules.preview(&b, &cmd) {
                        let words = report::refusal(&b, &e);
                        said += 1;
                        for dev in ["::", "AnyRuleset", "outlook", "preview", "Some(", "UnitId"] {
                            assert!(!words.contains(dev), "{file}: {words}");
                        }
                    }
                }
            }
            b.execute(Command::EndPhase).unwrap();
        }
    }
    assert!(said > 10, "refusals were met: {said}");
}

/// A charge a few degrees off square, the enemy directly ahead, goes in and is squared up in
/// every ruleset.
#[test]
fn a_charge_a_few_degrees_off_square_goes_in_in_every_ruleset() {
    use volley::rules::command::Step;
    use volley::rules::model::UnitId;
    for (ruleset, mover, enemy) in [("db7yw", "HC", "Ms"), ("old_dessauer", "Inf", "Inf")] {
        let text = format!(
            r#"(name: "t", ruleset: "{ruleset}", table: (width: 1000, height: 1000), turn_limit: 5,
            sides: [(name: "A", colour: (0, 0, 200)), (name: "B", colour: (200, 0, 0))],
            units: [(id: "a", side: 0, type: "{mover}", at: Some((500, 400)), facing: 5),
                    (id: "z", side: 1, type: "{enemy}", at: Some((505, 470)), facing: 180)])"#
        );
        let mut b = scenario::parse(&text, "t.ron").unwrap();
        b.script_dice(&[6; 10]);
        while b.phase != volley::rules::ruleset::dbn::MOVEMENT {
            b.execute(Command::EndPhase).unwrap();
        }
        b.command_points = [10, 10];
        b.execute(Command::Move {
            unit: UnitId("a".into()),
            steps: vec![Step::ToContact(UnitId("z".into()))],
        })
        .unwrap_or_else(|e| panic!("{ruleset}: {e}"));
        let a = b.unit(&UnitId("a".into())).unwrap().base;
        assert!(a.facing.abs() < 0.01, "{ruleset}: squared up, {}", a.facing);
    }
}
