//! Old Dessauer: the seed's two worked examples through `volley run`, a case per modifier and
//! table row, movement, shooting, morale, and the scenarios played to a result.

use std::process::Command as Proc;
use volley::rules::command::{Command, Event, Pursuit, RuleError, Step};
use volley::rules::geometry::{Base, Pt};
use volley::rules::model::{Formation, Phase, UnitId};
use volley::rules::ruleset::AnyRuleset;
use volley::rules::ruleset::old_dessauer::{
    CLOSE_COMBAT, DessauerEvent, FIRING, MOVEMENT, NoShot, OldDessauer, Opt, Refusal, TestKind,
    combat, pursuit, shooting,
};
use volley::rules::{Game, scenario};

mod common;
use common::kind_of;

fn volley(args: &[&str]) -> serde_json::Value {
    let out = Proc::new(env!("CARGO_BIN_EXE_volley"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn unit<'a>(v: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    v["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == id)
        .unwrap()
}

fn events<'a>(v: &'a serde_json::Value, kind: &str) -> Vec<&'a serde_json::Value> {
    v["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == kind)
        .collect()
}

/// Seed, Example of Fire: 11 figures roll 4 dice, disordered needs 6s, 2 hits; crack grenadiers
/// need 3-6 against two hits, roll a 1: shaken, one 2-inch recoil, one rout hit.
#[test]
fn example_of_fire_reproduces_every_number() {
    let v = volley(&[
        "run",
        "tests/old_dessauer/fire_example.ron",
        "--orders",
        "tests/old_dessauer/fire_example_orders.ron",
        "--dice",
        "6,6,2,3,1",
        "--json",
    ]);
    let volley = events(&v, "Volley")[0];
    assert_eq!(volley["stands"], 4);
    assert_eq!(volley["dice"].as_array().unwrap().len(), 4);
    assert_eq!(volley["need"], 6);
    assert_eq!(volley["factors"][0]["value"], -1);
    assert_eq!(volley["hits"], 2);
    let test = events(&v, "Test")[0];
    assert_eq!(test["test"], "Morale");
    assert_eq!(test["need"], 3, "crack need 1-6, -2 for two hits: 3-6");
    assert_eq!(test["die"], 1);
    assert_eq!(test["passed"], false);
    assert_eq!(events(&v, "Shaken").len(), 1);
    let r = events(&v, "Recoiled")[0];
    let dy = r["to"]["centre"]["y"].as_f64().unwrap() - r["from"]["centre"]["y"].as_f64().unwrap();
    assert!((dy - 50.8).abs() < 0.1, "one recoil move of 2 inches: {dy}");
    let losses = events(&v, "Losses");
    assert_eq!(losses[0]["figures"], 2);
    assert_eq!(losses[1]["figures"], 1);
    assert_eq!(losses[1]["why"], "rout hits");
    let g = unit(&v, "au-gren");
    assert_eq!(g["figures"], 9);
    assert_eq!(g["shaken"], true);
}

/// Seed, Example of Combat: cuirassiers 4 + 1 grade = 5, musketeers 2 + 3 steady regular
/// defensive fire = 5, even: 5-6 each. 4 dice score 2, 6 dice score 1: the infantry lose, are
/// shaken, recoil once and take a rout hit; the cavalry pursue and will strike double.
#[test]
fn example_of_combat_reproduces_every_number() {
    let v = volley(&[
        "run",
        "tests/old_dessauer/combat_example.ron",
        "--orders",
        "tests/old_dessauer/combat_example_orders.ron",
        "--dice",
        "5,6,1,2,6,1,2,3,4,2",
        "--json",
    ]);
    let m = events(&v, "Melee")[0];
    let s = m["strikes"].as_array().unwrap();
    let cav = s.iter().find(|x| x["unit"] == "pr-cuir").unwrap();
    let inf = s.iter().find(|x| x["unit"] == "au-ir").unwrap();
    assert_eq!(cav["points"], 5);
    assert_eq!(inf["points"], 5);
    assert_eq!(cav["factors"][0]["value"], 4);
    assert_eq!(cav["factors"][1]["value"], 1);
    assert_eq!(inf["factors"][1]["value"], 3);
    assert_eq!(
        (cav["need"].clone(), inf["need"].clone()),
        (5.into(), 5.into())
    );
    assert_eq!(cav["dice"].as_array().unwrap().len(), 4);
    assert_eq!(inf["dice"].as_array().unwrap().len(), 6);
    assert_eq!(
        (cav["hits"].clone(), inf["hits"].clone()),
        (2.into(), 1.into())
    );
    let i = unit(&v, "au-ir");
    assert_eq!(i["shaken"], true);
    assert_eq!(i["figures"], 15, "18 - 2 hits - 1 rout hit");
    let p = events(&v, "Pursued")[0];
    assert_eq!(p["continuing"], "au-ir");
}

/// The golden logs of both examples and of three whole turns (the scenario's seeded dice), in
/// words and as events (see `tests/golden.rs`).
#[test]
fn example_and_whole_turn_logs_are_golden() {
    for (scen, orders, dice, golden) in [
        (
            "fire_example.ron",
            "fire_example_orders.ron",
            Some("6,6,2,3,1"),
            "fire_example.txt",
        ),
        (
            "combat_example.ron",
            "combat_example_orders.ron",
            Some("5,6,1,2,6,1,2,3,4,2"),
            "combat_example.txt",
        ),
        (
            "three_turns.ron",
            "three_turns_orders.ron",
            None,
            "od_three_turns.txt",
        ),
    ] {
        let mut args = vec![
            "run".to_string(),
            format!("tests/old_dessauer/{scen}"),
            "--orders".to_string(),
            format!("tests/old_dessauer/{orders}"),
        ];
        if let Some(d) = dice {
            args.extend(["--dice".to_string(), d.to_string()]);
        }
        let out = Proc::new(env!("CARGO_BIN_EXE_volley"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(&args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = String::from_utf8_lossy(&out.stdout).to_string();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let path = root.join("tests/golden").join(golden);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &got).unwrap();
        }
        assert_eq!(got, std::fs::read_to_string(&path).unwrap(), "{golden}");
        // The same run in-process, its events against the golden events beside the log.
        let mut b = volley::rules::save::load_any(&root.join(format!("tests/old_dessauer/{scen}")))
            .unwrap();
        if let Some(d) = dice {
            let d: Vec<u8> = d.split(',').map(|x| x.parse().unwrap()).collect();
            b.script_dice(&d);
        }
        let text =
            std::fs::read_to_string(root.join(format!("tests/old_dessauer/{orders}"))).unwrap();
        let cmds = volley::rules::save::parse_orders(&text, orders).unwrap();
        let (events, err) = volley::cli::run_orders(&mut b, cmds);
        assert_eq!(err, None, "{golden}: every order is accepted");
        let events_file = golden.strip_suffix(".txt").unwrap();
        common::golden_events(&format!("tests/golden/{events_file}.events.json"), &events);
    }
}

// ----- a small table to test single rules on ------------------------------------------------

/// A battle from unit lines (RON) and optional rules.
fn battle(units: &str, options: &[&str]) -> Game {
    battle_on("", units, options)
}

/// A battle with more terrain (RON feature lines) besides the wood and the town.
fn battle_on(terrain: &str, units: &str, options: &[&str]) -> Game {
    let terrain = format!(
        r#"(id: "wood", kind: Woods, points: [(900, 900), (1200, 900), (1200, 1200), (900, 1200)]),
            (id: "town", kind: Town, points: [(20, 900), (200, 900), (200, 1100), (20, 1100)]),
            {terrain}"#
    );
    common::old_dessauer(&terrain, units, options)
}

fn od(b: &Game) -> &OldDessauer {
    match &b.rules {
        AnyRuleset::OldDessauer(r) => r,
        _ => panic!("an Old Dessauer battle"),
    }
}

fn u(id: &str) -> UnitId {
    UnitId(id.into())
}

fn to(b: &mut Game, phase: Phase) {
    while b.phase != phase {
        b.execute(Command::EndPhase).unwrap();
    }
}

fn points(b: &Game, a: &str, e: &str, first: bool) -> i32 {
    combat::points(
        od(b),
        b,
        b.unit(&u(a)).unwrap(),
        b.unit(&u(e)).unwrap(),
        first,
    )
    .1
}

const FACE_OFF: &str = r#"
    (id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
    (id: "b", side: 1, type: "Inf", at: (600, 338.1), facing: 180),"#;

#[test]
fn basic_combat_points_by_type() {
    for (t, want) in [("HC", 4), ("MC", 3), ("LC", 2), ("Inf", 2), ("Gun", 0)] {
        let b = battle(
            &format!(
                r#"(id: "a", side: 0, type: "{t}", at: (600, 300), facing: 0),
                   (id: "b", side: 1, type: "Inf", at: (600, 500), facing: 180),"#
            ),
            &[],
        );
        assert_eq!(points(&b, "a", "b", false), want, "{t}");
    }
}

#[test]
fn each_grade_above_the_enemy_adds_one() {
    for (a, e, want) in [
        ("Elite", "Militia", 4),
        ("Elite", "Regular", 3),
        ("Regular", "Militia", 3),
        ("Militia", "Elite", 2),
    ] {
        let b = battle(
            &format!(
                r#"(id: "a", side: 0, type: "Inf", class: {a}, at: (600, 300), facing: 0),
                   (id: "b", side: 1, type: "Inf", class: {e}, at: (600, 500), facing: 180),"#
            ),
            &[],
        );
        assert_eq!(points(&b, "a", "b", false), want, "{a} against {e}");
    }
}

/// Steady infantry +2/+3/+4, artillery +1/+2/+3, disordered +0/+1/+2, for a passive unit charged
/// this turn, in the first round.
#[test]
fn defensive_fire_by_grade_and_state() {
    // (type, grade, disordered, basic points, defensive fire points from the seed's table)
    for (t, class, dis, basic, def) in [
        ("Inf", "Militia", false, 2, 2),
        ("Inf", "Regular", false, 2, 3),
        ("Inf", "Elite", false, 2, 4),
        ("Gun", "Militia", false, 0, 1),
        ("Gun", "Regular", false, 0, 2),
        ("Gun", "Elite", false, 0, 3),
        ("Inf", "Militia", true, 2, 0),
        ("Inf", "Regular", true, 2, 1),
        ("Inf", "Elite", true, 2, 2),
    ] {
        let mut b = battle(
            &format!(
                r#"(id: "a", side: 0, type: "Inf", class: Militia, at: (600, 300), facing: 0),
                   (id: "b", side: 1, type: "{t}", class: {class}, at: (600, 400), facing: 180, disordered: {dis}),"#
            ),
            &[],
        );
        b.execute(Command::Move {
            unit: u("a"),
            steps: vec![Step::ToContact(u("b"))],
        })
        .unwrap();
        // Grades above the poor attackers, and -1 when disordered.
        let grade = match class {
            "Elite" => 2,
            "Regular" => 1,
            _ => 0,
        };
        let without = basic + grade - i32::from(dis);
        let label = format!("{t} {class} disordered {dis}");
        assert_eq!(
            points(&b, "b", "a", true),
            without + def,
            "{label}: first round"
        );
        assert_eq!(
            points(&b, "b", "a", false),
            without,
            "{label}: later rounds"
        );
    }
}

#[test]
fn combat_penalties() {
    let mut b = battle(FACE_OFF, &[]);
    let base = points(&b, "a", "b", false);
    b.units_mut()[0].status.disordered = true;
    assert_eq!(points(&b, "a", "b", false), base - 1, "disordered -1");
    b.units_mut()[0].status.disordered = false;
    b.units_mut()[0].status.shaken = true;
    assert_eq!(points(&b, "a", "b", false), base - 2, "shaken -2");
    b.units_mut()[0].status.shaken = false;
    b.units_mut()[0]
        .flags
        .push(volley::rules::ruleset::old_dessauer::Flag::Grenadier);
    assert_eq!(
        points(&b, "a", "b", true),
        base + 1,
        "grenadiers first round +1"
    );
    assert_eq!(
        points(&b, "a", "b", false),
        base,
        "grenadiers only in the first round"
    );
}

#[test]
fn cavalry_against_a_square_and_flank_attack() {
    let b = battle(
        r#"(id: "a", side: 0, type: "HC", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 600), facing: 180, formation: Square),"#,
        &[],
    );
    assert_eq!(points(&b, "a", "b", false), 4 - 3);
    // A unit touched on its flank is under flank attack: -2.
    let b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (666.675, 300), facing: 270),"#,
        &[],
    );
    let a = b.unit(&u("a")).unwrap();
    assert_eq!(combat::flank_attackers(od(&b), &b, a), vec![u("b")]);
    assert_eq!(points(&b, "a", "b", false), 2 - 2);
}

#[test]
fn chance_to_hit_by_points() {
    let b = battle(FACE_OFF, &[]);
    assert_eq!(combat::need(od(&b), 5, 5), 5, "even: 5-6");
    assert_eq!(combat::need(od(&b), 6, 5), 4, "advantage: 4-6");
    assert_eq!(combat::need(od(&b), 4, 5), 6, "disadvantage: 6");
    let b = battle(FACE_OFF, &["variable_chance_to_hit"]);
    for (d, want) in [(4, 2), (3, 2), (2, 3), (1, 4), (0, 5), (-1, 6), (-3, 6)] {
        assert_eq!(combat::need(od(&b), 5 + d, 5), want, "difference {d}");
    }
}

#[test]
fn combat_dice_by_formation_and_strength() {
    let b = battle(
        r#"(id: "line", side: 0, type: "Inf", at: (300, 300), facing: 0),
           (id: "col", side: 0, type: "Inf", formation: Column, at: (600, 300), facing: 0),
           (id: "weak", side: 0, type: "Inf", stands: [3, 3, 1, 1], at: (800, 300), facing: 0),
           (id: "sq", side: 0, type: "Inf", formation: Square, at: (1000, 300), facing: 0),
           (id: "guns", side: 0, type: "Gun", stands: [4, 4, 4], at: (300, 600), facing: 0),"#,
        &[],
    );
    let d = |id: &str| combat::dice_count(od(&b), &b, b.unit(&u(id)).unwrap());
    assert_eq!(d("line"), 4, "one per stand of the first two ranks");
    assert_eq!(d("col"), 2, "a column's first two stands");
    assert_eq!(d("weak"), 2, "a stand must be above half strength");
    assert_eq!(
        d("sq"),
        3,
        "a square: the side in contact and the two beside it"
    );
    assert_eq!(d("guns"), 2, "one die per six crew");
}

#[test]
fn shooting_dice_per_front_rank_stand() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", stands: [3, 3, 3, 1], at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 395.25), facing: 180),"#,
        &[],
    );
    to(&mut b, FIRING);
    let s = shooting::setup(od(&b), &b, &u("a"), &u("b")).unwrap();
    assert_eq!(
        (s.stands, s.dice, s.need),
        (3, 3, 5),
        "a 1-figure stand cannot shoot"
    );
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", formation: Column, at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 430), facing: 180),"#,
        &[],
    );
    to(&mut b, FIRING);
    assert_eq!(
        shooting::setup(od(&b), &b, &u("a"), &u("b")).unwrap().dice,
        1,
        "column: front stand"
    );
}

#[test]
fn guns_roll_two_dice_per_stand_at_a_dense_target() {
    let mut b = battle(
        r#"(id: "g", side: 0, type: "Gun", at: (600, 300), facing: 0),
           (id: "col", side: 1, type: "Inf", formation: Column, at: (600, 700), facing: 180),
           (id: "line", side: 1, type: "Inf", at: (300, 700), facing: 180),"#,
        &[],
    );
    to(&mut b, FIRING);
    assert_eq!(
        shooting::setup(od(&b), &b, &u("g"), &u("col"))
            .unwrap()
            .dice,
        4
    );
    assert_eq!(
        shooting::setup(od(&b), &b, &u("g"), &u("line"))
            .unwrap()
            .dice,
        2
    );
}

#[test]
fn who_may_not_shoot() {
    let mut b = battle(
        r#"(id: "cav", side: 0, type: "MC", at: (300, 300), facing: 0),
           (id: "sh", side: 0, type: "Inf", at: (600, 300), facing: 0, shaken: true),
           (id: "far", side: 0, type: "Inf", at: (900, 300), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 395.25), facing: 180),
           (id: "e2", side: 1, type: "Inf", at: (900, 500), facing: 180),"#,
        &[],
    );
    to(&mut b, FIRING);
    let err = |b: &Game, s: &str, t: &str| shooting::setup(od(b), b, &u(s), &u(t)).unwrap_err();
    assert_eq!(
        kind_of(&err(&b, "cav", "e")),
        Ok(Refusal::CavalryMayNotShoot)
    );
    assert_eq!(kind_of(&err(&b, "sh", "e")), Ok(Refusal::ShakenMayNotShoot));
    assert_eq!(
        kind_of(&err(&b, "far", "e2")),
        Ok(Refusal::NoStandCanShoot(NoShot::OutOfRange))
    );
}

#[test]
fn infantry_may_move_half_and_shoot_at_a_penalty() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 460), facing: 180),"#,
        &[],
    );
    b.execute(Command::Move {
        unit: u("a"),
        steps: vec![Step::Advance(3.0)],
    })
    .unwrap();
    to(&mut b, FIRING);
    let s = shooting::setup(od(&b), &b, &u("a"), &u("b")).unwrap();
    assert_eq!(s.need, 6, "moved: -1");
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 500), facing: 180),"#,
        &[],
    );
    b.execute(Command::Move {
        unit: u("a"),
        steps: vec![Step::Advance(4.0)],
    })
    .unwrap();
    to(&mut b, FIRING);
    assert!(
        shooting::setup(od(&b), &b, &u("a"), &u("b")).is_err(),
        "more than half: no shooting"
    );
}

#[test]
fn a_unit_blocks_fire_but_enemy_guns_do_not() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", stands: [3], at: (600, 300), facing: 0),
           (id: "f", side: 0, type: "Inf", at: (600, 340), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 390), facing: 180),"#,
        &[],
    );
    to(&mut b, FIRING);
    let e = shooting::setup(od(&b), &b, &u("a"), &u("b")).unwrap_err();
    assert_eq!(
        kind_of(&e),
        Ok(Refusal::NoStandCanShoot(NoShot::Blocked)),
        "{e}"
    );
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", stands: [3], at: (600, 300), facing: 0),
           (id: "g", side: 1, type: "Gun", at: (600, 340), facing: 180),
           (id: "b", side: 1, type: "Inf", at: (600, 390), facing: 180),"#,
        &[],
    );
    to(&mut b, FIRING);
    assert!(
        shooting::setup(od(&b), &b, &u("a"), &u("b")).is_ok(),
        "a unit may fire through enemy guns at a rearward target"
    );
}

#[test]
fn movement_allowance_half_speed_manoeuvres_and_squares() {
    let mut b = battle(FACE_OFF.replace("338.1", "900").as_str(), &[]);
    let r = od(&b).plan(&b, &[u("a")], &[Step::Advance(6.0)]).unwrap();
    assert!((r.distance - 6.0).abs() < 0.05 && (r.allowance - 6.0).abs() < 0.01);
    assert!(od(&b).plan(&b, &[u("a")], &[Step::Advance(6.5)]).is_err());
    let r = od(&b).plan(&b, &[u("a")], &[Step::Sidestep(2.0)]).unwrap();
    assert!(
        (r.distance - 4.0).abs() < 0.05,
        "sidestep at half speed: {}",
        r.distance
    );
    b.execute(Command::Form {
        unit: u("a"),
        formation: Formation::Square,
        turn: 0.0,
    })
    .unwrap();
    assert_eq!(
        kind_of(
            &od(&b)
                .plan(&b, &[u("a")], &[Step::Advance(1.0)])
                .unwrap_err()
        ),
        Ok(Refusal::SquaresMayNotMove)
    );
}

#[test]
fn zone_of_control_of_one_inch() {
    let b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 420), facing: 180),"#,
        &[],
    );
    // Fronts are 101 mm apart (about 4 inches): 3.5 inches ends inside the zone.
    let e = od(&b)
        .plan(&b, &[u("a")], &[Step::Advance(3.5)])
        .unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::ZoneOfControl), "{e}");
    assert!(od(&b).plan(&b, &[u("a")], &[Step::Advance(2.5)]).is_ok());
    assert!(
        od(&b)
            .plan(&b, &[u("a")], &[Step::ToContact(u("b"))])
            .is_ok(),
        "a charge may"
    );
}

#[test]
fn final_inches_of_a_cavalry_charge_are_straight() {
    use volley::rules::geometry::Corner;
    // Light horse wheel 10 degrees left, then charge straight in: the target is placed square
    // to the wheeled front, `gap` inches ahead.
    let charge = |gap: f32| {
        let mut b = battle(
            r#"(id: "a", side: 0, type: "LC", at: (600, 300), facing: 10),
               (id: "b", side: 1, type: "Inf", at: (600, 800), facing: 180),"#,
            &[],
        );
        let a = b.units[0].base;
        let wheeled = a.rotated_about(a.front_left(), -10.0);
        let t = &mut b.units_mut()[1].base;
        t.centre = wheeled.local(0.0, wheeled.depth / 2.0 + gap * 25.4 + t.depth / 2.0);
        t.facing = 180.0;
        let steps = [
            Step::Wheel {
                corner: Corner::Left,
                degrees: 10.0,
            },
            Step::ToContact(u("b")),
        ];
        od(&b).plan(&b, &[u("a")], &steps).map(|_| ())
    };
    let e = charge(2.5).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::ChargeTailNotStraight), "{e}");
    assert!(charge(6.0).is_ok(), "{:?}", charge(6.0));
}

#[test]
fn only_infantry_enter_woods_and_towns() {
    let b = battle(
        r#"(id: "c", side: 0, type: "MC", at: (1000, 800), facing: 0),
           (id: "i", side: 0, type: "Inf", at: (1000, 850), facing: 0),"#,
        &[],
    );
    let e = od(&b)
        .plan(&b, &[u("c")], &[Step::Advance(6.0)])
        .unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::OnlyInfantryEnter), "{e}");
}

#[test]
fn woods_cost_double_and_disorder() {
    let mut b = battle(
        r#"(id: "i", side: 0, type: "Inf", at: (1000, 880), facing: 0),"#,
        &[],
    );
    let r = od(&b).plan(&b, &[u("i")], &[Step::Advance(2.0)]).unwrap();
    assert!(
        r.distance > 2.5,
        "part of the move in woods counts double: {}",
        r.distance
    );
    let ev = b
        .execute(Command::Move {
            unit: u("i"),
            steps: vec![Step::Advance(2.0)],
        })
        .unwrap();
    assert!(ev.iter().any(|e| matches!(e, Event::Disordered { .. })));
}

/// Regular battalion "a" shoots at "b", 3.75 inches off, with these dice (its four, then b's
/// morale test), and the shooting ends: the battle and the events of ending it.
fn shot_at(dice: &[u8]) -> (Game, Vec<Event>) {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 395.25), facing: 180),"#,
        &[],
    );
    to(&mut b, FIRING);
    b.script_dice(dice);
    b.execute(Command::Fire {
        unit: u("a"),
        target: u("b"),
        support: vec![],
        defence: None,
    })
    .unwrap();
    let ev = b.execute(Command::EndPhase).unwrap();
    (b, ev)
}

#[test]
fn morale_test_against_shooting_by_grade_and_hits() {
    // A regular battalion takes 1 hit: it needs 2-6, +1 for the hit: 3-6.
    let (b, ev) = shot_at(&[5, 1, 1, 1, 2]);
    let t = ev.iter().find_map(|e| match e.own() {
        Some(DessauerEvent::Test {
            test: TestKind::Morale,
            need,
            die,
            passed,
            ..
        }) => Some((*need, *die, *passed)),
        _ => None,
    });
    assert_eq!(t, Some((3, 2, false)));
    // One hit, failed: shaken but no recoil (one recoil move per two hits).
    assert!(!ev.iter().any(|e| matches!(e, Event::Recoiled { .. })));
    assert!(b.unit(&u("b")).unwrap().status.shaken);
}

#[test]
fn shattered_at_a_quarter_strength_at_the_end_of_the_turn() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", stands: [3, 1], at: (600, 600), facing: 180),
           (id: "c", side: 1, type: "Inf", at: (300, 600), facing: 180),"#,
        &[],
    );
    b.units_mut()[1].extra.strength = 16;
    to(&mut b, CLOSE_COMBAT);
    let ev = b.execute(Command::EndPhase).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Destroyed { unit, .. } if unit == &u("b")))
    );
    assert!(b.unit(&u("c")).unwrap().alive());
}

#[test]
fn rally_test_needs_by_grade_with_no_enemy_near() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 1100), facing: 180, shaken: true),"#,
        &[],
    );
    b.script_dice(&[3]);
    to(&mut b, CLOSE_COMBAT);
    let ev = b.execute(Command::EndPhase).unwrap();
    let t = ev.iter().find_map(|e| match e.own() {
        Some(DessauerEvent::Test {
            test: TestKind::Rally,
            need,
            passed,
            ..
        }) => Some((*need, *passed)),
        _ => None,
    });
    assert_eq!(
        t,
        Some((3, true)),
        "regular 5-6, +2 no visible enemy able to charge"
    );
    assert!(!b.unit(&u("b")).unwrap().status.shaken);
}

#[test]
fn guns_never_limber_again_and_may_not_move_and_shoot() {
    let mut b = battle(
        r#"(id: "g", side: 0, type: "Gun", at: (600, 300), facing: 0, limbered: true),
           (id: "e", side: 1, type: "Inf", at: (600, 900), facing: 180),"#,
        &[],
    );
    b.execute(Command::Move {
        unit: u("g"),
        steps: vec![Step::Advance(8.0)],
    })
    .unwrap();
    assert!(b.execute(Command::Unlimber { unit: u("g") }).is_ok());
    assert!(b.execute(Command::Limber { unit: u("g") }).is_err());
    to(&mut b, FIRING);
    let e = shooting::setup(od(&b), &b, &u("g"), &u("e")).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::GunsMovedMayNotShoot), "{e}");
}

#[test]
fn variable_defensive_fire_is_rolled() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", class: Militia, at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", class: Elite, at: (600, 400), facing: 180),"#,
        &["variable_defensive_fire"],
    );
    b.execute(Command::Move {
        unit: u("a"),
        steps: vec![Step::ToContact(u("b"))],
    })
    .unwrap();
    to(&mut b, CLOSE_COMBAT);
    // Def fire die 6: crack 6 - 1 = 5.
    b.script_dice(&[6, 1, 1, 1, 1, 1, 1, 1, 1]);
    let ev = b
        .execute(Command::Fight {
            unit: u("a"),
            target: u("b"),
            pursue: None,
            pursuits: Vec::new(),
        })
        .unwrap();
    let Some(DessauerEvent::Melee { strikes }) = ev
        .iter()
        .filter_map(Event::own)
        .find(|e| matches!(e, DessauerEvent::Melee { .. }))
    else {
        panic!()
    };
    let s = strikes.iter().find(|s| s.unit == u("b")).unwrap();
    assert_eq!(
        s.points,
        2 + 2 + 5,
        "infantry, two grades above, defensive fire 6-1"
    );
}

#[test]
fn generals_attach_lead_and_command() {
    let mut b = battle(
        r#"(id: "g", side: 0, type: "Gen", at: (600, 200), facing: 0, leadership: 2, command_radius: 4),
           (id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "far", side: 0, type: "Inf", at: (100, 300), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 800), facing: 180),"#,
        &["generals"],
    );
    assert!(od(&b).in_command(&b, b.unit(&u("a")).unwrap()));
    assert!(!od(&b).in_command(&b, b.unit(&u("far")).unwrap()));
    b.execute(Command::Attach {
        general: u("g"),
        unit: u("a"),
    })
    .unwrap();
    assert_eq!(points(&b, "a", "e", false), 2 + 2, "leadership +2");
    assert_eq!(points(&b, "far", "e", false), 2 - 1, "out of command -1");
}

/// Seed, Command Radius: "Units outside of CR must roll a 4-6 to charge or change
/// formation/facing. Wheeling is still allowed". A unit out of command that fails its test to
/// charge may not charge or change formation or facing that turn, but may still move otherwise,
/// and shoots as one that stood when it does not.
#[test]
fn a_failed_command_test_stops_only_charges_and_formation_changes() {
    let mut b = battle(
        r#"(id: "g", side: 0, type: "Gen", at: (100, 100), facing: 0, command_radius: 4),
           (id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 395.25), facing: 180),"#,
        &["generals"],
    );
    b.script_dice(&[1]);
    let ev = b
        .execute(Command::Move {
            unit: u("a"),
            steps: vec![Step::ToContact(u("e"))],
        })
        .unwrap();
    assert!(matches!(
        ev.iter().map(Event::own).collect::<Vec<_>>().as_slice(),
        [Some(DessauerEvent::Test {
            test: TestKind::Command,
            passed: false,
            ..
        })]
    ));
    assert!(plan(&b, "a", &[Step::Advance(0.5)]).is_ok());
    assert!(
        plan(
            &b,
            "a",
            &[Step::Wheel {
                corner: volley::rules::geometry::Corner::Left,
                degrees: 20.0
            }]
        )
        .is_ok()
    );
    let e = plan(&b, "a", &[Step::ToContact(u("e"))]).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::FailedCommandTestNoCharge), "{e}");
    let e = b
        .execute(Command::Form {
            unit: u("a"),
            formation: Formation::Column,
            turn: 0.0,
        })
        .unwrap_err();
    assert_eq!(
        kind_of(&e),
        Ok(Refusal::FailedCommandTestNoFormation),
        "{e}"
    );
    to(&mut b, FIRING);
    let s = shooting::setup(od(&b), &b, &u("a"), &u("e")).unwrap();
    assert_eq!((s.dice, s.need), (4, 5));
}

#[test]
fn scenarios_play_to_a_result_through_volley_run() {
    use volley::players::autoplay::AutoPlayer;
    for file in [
        "scenarios/lobosch_1756.ron",
        "scenarios/reichenberg_1757.ron",
        "scenarios/od_tutorial.ron",
    ] {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut b = scenario::load(&root.join(file)).unwrap();
        AutoPlayer::new(3).play(&mut b, 2000, 12);
        assert!(b.is_over(), "{file} reaches a result");
        let orders = ron::ser::to_string_pretty(&b.commands, Default::default()).unwrap();
        let path = std::env::temp_dir().join(format!(
            "volley-od-orders-{}-{}.ron",
            std::process::id(),
            file.replace('/', "_")
        ));
        std::fs::write(&path, orders).unwrap();
        let v = volley(&["run", file, "--orders", path.to_str().unwrap(), "--json"]);
        let _ = std::fs::remove_file(&path);
        assert!(v["result"]["reason"].is_string(), "{file}: {}", v["result"]);
        assert!(v["error"].is_null(), "{}", v["error"]);
    }
}

// ----- light infantry: loose stands, falling back, overrun; recoiling farther ---------------

fn stands_of(b: &Game, id: &str) -> Vec<volley::rules::geometry::Base> {
    volley::rules::ruleset::old_dessauer::stand_bases(od(b), b.unit(&u(id)).unwrap())
}

fn move_stand(b: &mut Game, id: &str, stand: usize, step: Step) -> Result<Vec<Event>, RuleError> {
    b.execute(Command::MoveStand {
        unit: u(id),
        stand,
        steps: vec![step],
    })
}

/// A move the unit has no allowance left for.
fn too_far(r: Result<Vec<Event>, RuleError>) -> bool {
    matches!(r, Err(RuleError::TooFar { .. }))
}

fn advance(b: &mut Game, id: &str, step: Step) -> Result<Vec<Event>, RuleError> {
    b.execute(Command::Move {
        unit: u(id),
        steps: vec![step],
    })
}

#[test]
fn skirmish_stands_move_on_their_own_within_four_inches_of_the_command_stand() {
    let mut b = battle(
        r#"(id: "s", side: 0, type: "LI", at: (600, 300), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 1100), facing: 180),"#,
        &["light_infantry"],
    );
    let before = stands_of(&b, "s");
    assert_eq!(before.len(), 4);
    move_stand(&mut b, "s", 3, Step::Advance(4.0)).unwrap();
    let after = stands_of(&b, "s");
    assert!((after[2].centre.y - before[2].centre.y - 101.6).abs() < 0.1);
    for i in [0, 1, 3] {
        assert!(
            after[i].centre.dist(before[i].centre) < 0.01,
            "stand {i} stays"
        );
    }
    // Its 4 inches are spent; another stand still has its own.
    let e = move_stand(&mut b, "s", 3, Step::Advance(0.5)).unwrap_err();
    assert!(
        matches!(e, RuleError::TooFar { allowance, .. } if allowance.abs() < 0.05),
        "{e}"
    );
    move_stand(&mut b, "s", 4, Step::Sidestep(1.0)).unwrap();
    // Skirmishers sidestep at the full rate: 1 inch costs 1.
    assert!((b.unit(&u("s")).unwrap().bound.stand_spent[3] - 1.0).abs() < 0.05);
    // Stand 4 may not go more than 4 inches from the command stand (stand 2)...
    let e = move_stand(&mut b, "s", 4, Step::Sidestep(1.0)).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::StandTooFarFromCommand), "{e}");
    // ... nor may the command stand leave stand 3 more than 4 inches ahead.
    let e = move_stand(&mut b, "s", 2, Step::Backstep(3.0)).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::StandTooFarFromCommand), "{e}");
    // The whole unit has what its busiest stand left: nothing.
    assert!(too_far(advance(&mut b, "s", Step::Advance(0.5))));
    let e = move_stand(&mut b, "s", 5, Step::Advance(1.0)).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::NoSuchStand), "{e}");
    assert_eq!(
        kind_of(&move_stand(&mut b, "s", 1, Step::ToContact(u("e"))).unwrap_err()),
        Ok(Refusal::SkirmishStandDoesNotCharge)
    );
}

#[test]
fn loose_stands_go_with_their_unit_and_pay_no_terrain_penalty() {
    let mut b = battle(
        r#"(id: "s", side: 0, type: "LI", at: (1000, 850), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (300, 1100), facing: 180),"#,
        &["light_infantry"],
    );
    // Stand 3 walks 3 inches, the last inch of it in the wood, at the full rate (formed foot
    // would pay 4), and is not disordered.
    let ev = move_stand(&mut b, "s", 3, Step::Advance(3.0)).unwrap();
    let d = ev.iter().find_map(|e| match e.own() {
        Some(DessauerEvent::StandMoved { distance, .. }) => Some(*distance),
        _ => None,
    });
    assert!((d.unwrap() - 3.0).abs() < 0.05);
    assert!(!ev.iter().any(|e| matches!(e, Event::Disordered { .. })));
    let loose = stands_of(&b, "s");
    assert!(
        loose[2].centre.y > 920.0,
        "in the wood: {:?}",
        loose[2].centre
    );
    // The whole unit moves its last inch, its loose stand with it.
    advance(&mut b, "s", Step::Backstep(1.0)).unwrap();
    let moved = stands_of(&b, "s");
    for (x, y) in loose.iter().zip(&moved) {
        assert!((x.centre.y - y.centre.y - 25.4).abs() < 0.1);
        assert!((x.centre.x - y.centre.x).abs() < 0.1);
    }
    assert!(too_far(advance(&mut b, "s", Step::Backstep(0.5))));
}

#[test]
fn skirmish_stands_keep_an_inch_from_formed_enemies() {
    let mut b = battle(
        r#"(id: "s", side: 0, type: "LI", at: (600, 300), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 420), facing: 180),"#,
        &["light_infantry"],
    );
    let e = move_stand(&mut b, "s", 2, Step::Advance(3.5)).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::ZoneOfControl), "{e}");
    move_stand(&mut b, "s", 2, Step::Advance(2.5)).unwrap();
}

/// Formed troops coming within an inch of skirmish stands: before infantry the stands reached
/// fall back; before cavalry in the open they roll 4-6, and those that fail are overrun.
#[test]
fn stands_reached_by_formed_troops_fall_back_or_are_overrun() {
    let setup = |mover: &str| {
        battle(
            &format!(
                r#"(id: "a", side: 0, {mover}, at: (514, 300), facing: 0),
                   (id: "s", side: 1, type: "LI", at: (600, 470), facing: 180),"#
            ),
            &["light_infantry"],
        )
    };
    let mut b = setup(r#"type: "Inf""#);
    let before = stands_of(&b, "s");
    let ev = b
        .execute(Command::Move {
            unit: u("a"),
            steps: vec![Step::Advance(5.5)],
        })
        .unwrap();
    let fled: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e.own() {
            Some(DessauerEvent::StandMoved { stand, .. }) => Some(*stand),
            _ => None,
        })
        .collect();
    assert_eq!(fled, vec![2, 3], "the two stands in front of the battalion");
    let after = stands_of(&b, "s");
    assert!(after[0].centre.dist(before[0].centre) < 0.01);
    assert!(after[3].centre.y > before[3].centre.y + 10.0);
    let a = b.unit(&u("a")).unwrap().base;
    assert!(after[3].distance(&a) >= 25.0);

    let mut b = setup(r#"type: "HC", stands: [2, 2]"#);
    b.script_dice(&[3]);
    let ev = b
        .execute(Command::Move {
            unit: u("a"),
            steps: vec![Step::Advance(5.3)],
        })
        .unwrap();
    assert!(ev.iter().any(|e| matches!(
        e.own(),
        Some(DessauerEvent::Test {
            test: TestKind::Evade,
            die: 3,
            need: 4,
            passed: false,
            ..
        })
    )));
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::StandsOverrun { stands, .. } if stands == &vec![2, 3]))
    );
    let s = b.unit(&u("s")).unwrap();
    assert!(s.alive());
    assert_eq!((s.stands.len(), s.figures(), s.status.hits), (2, 6, 6));
}

/// A unit may recoil farther than it must, up to 18 inches in all, with no more rout hits.
#[test]
fn a_recoiling_unit_may_go_farther_up_to_eighteen_inches() {
    let (mut b, ev) = shot_at(&[5, 6, 1, 1, 1]);
    assert!(ev.iter().any(|e| matches!(e, Event::Recoiled { .. })));
    assert_eq!(b.phase, CLOSE_COMBAT);
    let y0 = b.unit(&u("b")).unwrap().base.centre.y;
    let figures = b.unit(&u("b")).unwrap().figures();
    let further = |b: &mut Game, id: &str, d: f32| {
        b.execute(Command::RecoilFurther {
            unit: u(id),
            distance: d,
        })
    };
    assert_eq!(
        kind_of(&further(&mut b, "b", 17.0).unwrap_err()),
        Ok(Refusal::RecoilLimit)
    );
    assert_eq!(
        kind_of(&further(&mut b, "a", 2.0).unwrap_err()),
        Ok(Refusal::HasNotRecoiled)
    );
    let ev = further(&mut b, "b", 4.0).unwrap();
    assert!(!ev.iter().any(|e| matches!(e, Event::Losses { .. })));
    let unit_b = b.unit(&u("b")).unwrap();
    assert!((unit_b.base.centre.y - y0 - 101.6).abs() < 0.1);
    assert_eq!(unit_b.figures(), figures);
    further(&mut b, "b", 12.0).unwrap();
    assert_eq!(
        kind_of(&further(&mut b, "b", 0.5).unwrap_err()),
        Ok(Refusal::RecoilLimit)
    );
}

/// The title screen's switches: a game may start with other optional rules than its scenario's;
/// units that need a rule switched off are refused with the reason.
#[test]
fn optional_rules_may_be_switched_for_a_game() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/lobosch_1756.ron");
    let plain = scenario::load(&path).unwrap();
    let mut opts: Vec<String> = plain.rules.options().to_vec();
    assert!(opts.contains(&"light_infantry".to_string()));
    assert_eq!(plain.rules.optional_rules().len(), 8);
    opts.push("variable_chance_to_hit".into());
    let b = scenario::load_with_options(&path, &opts).unwrap();
    assert!(od(&b).opt(Opt::VariableChanceToHit));
    assert_eq!(b.scenario.options, opts, "the save keeps the game's rules");
    opts.retain(|o| o != "light_infantry");
    let e = scenario::load_with_options(&path, &opts).unwrap_err();
    assert!(
        e[0].message
            .contains("needs the optional rule 'light_infantry'"),
        "{}",
        e[0].message
    );
}

/// A charge that overlaps only part of the enemy's front still meets its front, and the loser
/// of the combat recoils straight back from the enemy's front, not towards its corner.
#[test]
fn an_offset_charge_meets_the_front_and_the_loser_recoils_straight_back() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (660, 420), facing: 180),"#,
        &[],
    );
    b.execute(Command::Move {
        unit: u("a"),
        steps: vec![Step::ToContact(u("b"))],
    })
    .unwrap();
    let a = b.unit(&u("a")).unwrap().base;
    assert!(
        (a.facing - 0.0).abs() < 0.01,
        "square to the front: {}",
        a.facing
    );
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[6, 6, 6, 6, 1, 1, 1, 1]);
    let ev = b
        .execute(Command::Fight {
            unit: u("a"),
            target: u("b"),
            pursue: Some(false),
            pursuits: Vec::new(),
        })
        .unwrap();
    let (from, to) = ev
        .iter()
        .find_map(|e| match e {
            Event::Recoiled { from, to, .. } => Some((*from, *to)),
            _ => None,
        })
        .expect("someone lost and recoiled");
    assert!(
        (to.centre.x - from.centre.x).abs() < 0.5,
        "{from:?} -> {to:?}"
    );
    assert!((to.centre.y - from.centre.y).abs() > 40.0);
    assert!(
        !ev.iter().any(
            |e| matches!(e.own(), Some(DessauerEvent::Melee { strikes }) if strikes.is_empty())
        )
    );
}

/// Voluntary fallback: only with a general within 2 inches, at most 18 inches, straight back,
/// shaken, one rout hit per 6-inch segment past the first. It is not a recoil: the unit may not
/// "recoil farther" after it.
#[test]
fn voluntary_fallback_near_a_general() {
    let mut b = battle(
        r#"(id: "g", side: 0, type: "Gen", at: (600, 560), facing: 0),
           (id: "a", side: 0, type: "Inf", at: (600, 600), facing: 0),
           (id: "c", side: 0, type: "Inf", at: (200, 600), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 1100), facing: 180),"#,
        &["generals", "voluntary_fallback"],
    );
    let back = |b: &mut Game, id: &str, d: f32| {
        b.execute(Command::Fallback {
            unit: u(id),
            distance: d,
        })
    };
    let e = back(&mut b, "c", 6.0).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::FallbackNeedsGeneral), "{e}");
    let e = back(&mut b, "a", 19.0).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::FallbackDistance), "{e}");
    let ev = back(&mut b, "a", 12.0).unwrap();
    assert!(ev.iter().any(|e| matches!(e, Event::Shaken { .. })));
    let (start, end) = ev
        .iter()
        .find_map(|e| match e {
            Event::Recoiled {
                from,
                to,
                voluntary: true,
                ..
            } => Some((*from, *to)),
            _ => None,
        })
        .unwrap();
    assert!(
        (start.centre.y - end.centre.y - 304.8).abs() < 0.1,
        "12 inches straight back"
    );
    assert!((start.centre.x - end.centre.x).abs() < 0.01);
    let rout: u32 = ev
        .iter()
        .filter_map(|e| match e {
            Event::Losses { figures, why, .. } if why == "rout hits" => Some(*figures),
            _ => None,
        })
        .sum();
    assert_eq!(rout, 1, "two 6-inch segments: one rout hit");
    // Instead of a move: no move, fallback or formation change after it, general or not.
    let e = back(&mut b, "a", 1.0).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::AlreadyMoved), "{e}");
    let e = advance(&mut b, "a", Step::Advance(1.0)).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::FellBack), "{e}");
    to(&mut b, CLOSE_COMBAT);
    let e = b
        .execute(Command::RecoilFurther {
            unit: u("a"),
            distance: 2.0,
        })
        .unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::HasNotRecoiled), "{e}");
}

// ----- pursuit: each winner's choice ---------------------------------------------------------

/// FACE_OFF with the two fronts touching.
static TOUCHING: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| FACE_OFF.replace("338.1", "319.05"));

fn fight_cmd(a: &str, t: &str, pursue: Option<bool>, pursuits: Vec<Pursuit>) -> Command {
    Command::Fight {
        unit: u(a),
        target: u(t),
        pursue,
        pursuits,
    }
}

fn pursued(
    ev: &[Event],
) -> Vec<(
    UnitId,
    volley::rules::geometry::Base,
    volley::rules::geometry::Base,
    Option<UnitId>,
)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Pursued {
                unit,
                from,
                to,
                continuing,
            } => Some((unit.clone(), *from, *to, continuing.clone())),
            _ => None,
        })
        .collect()
}

/// Seed, Pursuit Moves: "you may choose to pursue". The outlook before the dice offers each unit
/// of the moving side that could pursue its own choice (the other side's follow their standing
/// orders); the choice flipped holds that unit alone; a shorter pursuit stops short and so does
/// not mark the enemy pursued.
#[test]
fn each_winner_chooses_its_pursuit_before_the_dice() {
    let mut b = battle(&TOUCHING, &[]);
    to(&mut b, CLOSE_COMBAT);
    let cmd = fight_cmd("a", "b", None, vec![]);
    let o = b.rules.preview(&b, &cmd).unwrap();
    let pick = |o: &volley::rules::ruleset::Outlook, label: &str| {
        o.choices
            .iter()
            .find(|c| c.label == label)
            .unwrap_or_else(|| panic!("no choice '{label}' in {:?}", o.choices))
            .clone()
    };
    let a = pick(&o, "a pursues if it wins");
    assert!(a.on);
    // Held: a wins (4 hits to none) and stays where it is.
    let mut held = b.clone();
    held.script_dice(&[6, 6, 6, 6, 1, 1, 1, 1]);
    let ev = held.execute(a.flipped.clone()).unwrap();
    assert!(ev.iter().any(|e| matches!(e, Event::Recoiled { .. })));
    assert!(pursued(&ev).is_empty(), "a holds its ground: {ev:?}");
    // A shorter pursuit: the choice of 2 inches at most, offered while a pursues.
    let short = pick(&o, "a pursues at most 2 in");
    assert!(!short.on);
    let mut b2 = b.clone();
    b2.script_dice(&[6, 6, 6, 6, 1, 1, 1, 1]);
    let ev = b2.execute(short.flipped.clone()).unwrap();
    let p = pursued(&ev);
    assert_eq!(p.len(), 1, "{ev:?}");
    assert!(
        (p[0].2.centre.dist(p[0].1.centre) - 50.8).abs() < 0.2,
        "2 inches: {:?}",
        p[0]
    );
    assert_eq!(
        p[0].3, None,
        "stopped short of the enemy: no continuing combat"
    );
    assert_eq!(b2.unit(&u("b")).unwrap().status.pursued_by, None);
    // By default it pursues as far as the enemy recoiled, into continuing combat.
    let mut b3 = b.clone();
    b3.script_dice(&[6, 6, 6, 6, 1, 1, 1, 1]);
    let ev = b3.execute(cmd).unwrap();
    assert_eq!(pursued(&ev)[0].3, Some(u("b")));
}

/// An order file may order each unit of either side; `pursue: Some(false)` holds every winner
/// of the commanding side without an order of its own, and a unit's order overrides it.
#[test]
fn pursuit_orders_per_unit_in_an_order_file() {
    let cmds: Vec<Command> = ron::from_str(
        r#"[
            Fight(unit: "a", target: "b", pursue: Some(false)),
            Fight(unit: "a", target: "b", pursue: None),
            Fight(unit: "a", target: "b"),
            Fight(unit: "a", target: "b", pursue: Some(false), pursuits: [(unit: "a")]),
            Fight(unit: "a", target: "b", pursuits: [(unit: "a", distance: Some(1.0)), (unit: "b", pursue: false)]),
        ]"#,
    )
    .unwrap();
    assert_eq!(
        cmds[3],
        fight_cmd("a", "b", Some(false), vec![Pursuit::follow(&u("a"))])
    );
    let run = |c: &Command| {
        let mut b = battle(&TOUCHING, &[]);
        to(&mut b, CLOSE_COMBAT);
        b.script_dice(&[6, 6, 6, 6, 1, 1, 1, 1]);
        pursued(&b.execute(c.clone()).unwrap())
    };
    assert!(run(&cmds[0]).is_empty());
    assert_eq!(run(&cmds[1]).len(), 1);
    assert_eq!(run(&cmds[2]).len(), 1);
    assert_eq!(
        run(&cmds[3]).len(),
        1,
        "a's own order overrides Some(false)"
    );
    let p = run(&cmds[4]);
    assert!((p[0].2.centre.dist(p[0].1.centre) - 25.4).abs() < 0.2);
    // An order for a unit not in the combat is refused before any die is rolled.
    let mut b = battle(&TOUCHING, &[]);
    to(&mut b, CLOSE_COMBAT);
    let e = b
        .execute(fight_cmd("a", "b", None, vec![Pursuit::hold(&u("zz"))]))
        .unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::NotInThisCombat), "{e}");
}

/// Seed: "If you were fighting several enemies, you must pursue the one you rolled the most
/// dice against." Where dice are split evenly the winner chooses among those; naming another is
/// refused.
#[test]
fn a_winner_chooses_whom_to_pursue_among_equal_dice() {
    let two = r#"
        (id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
        (id: "b", side: 1, type: "Inf", stands: [3, 3], at: (571.4, 319.05), facing: 180),
        (id: "c", side: 1, type: "Inf", stands: [3, 3], at: (628.6, 319.05), facing: 180),"#;
    let mut b = battle(two, &[]);
    to(&mut b, CLOSE_COMBAT);
    let o = b
        .rules
        .preview(&b, &fight_cmd("a", "b", None, vec![]))
        .unwrap();
    let labels: Vec<&str> = o.choices.iter().map(|c| c.label.as_str()).collect();
    assert!(labels.contains(&"a pursues b"), "{labels:?}");
    assert!(labels.contains(&"a pursues c"), "{labels:?}");
    for target in ["b", "c"] {
        let mut x = b.clone();
        x.script_dice(&[6, 6, 6, 6, 1, 1, 1, 1]);
        let order = Pursuit {
            target: Some(u(target)),
            ..Pursuit::follow(&u("a"))
        };
        let ev = x.execute(fight_cmd("a", "b", None, vec![order])).unwrap();
        assert_eq!(pursued(&ev)[0].3, Some(u(target)), "{ev:?}");
    }
    // b and c roll two dice each at a: neither may name a unit it does not touch.
    let e = b
        .execute(fight_cmd(
            "a",
            "b",
            None,
            vec![Pursuit {
                target: Some(u("c")),
                ..Pursuit::follow(&u("b"))
            }],
        ))
        .unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::PursuesWrongEnemy), "{e}");
}

/// A pursuit stopped short by a friend leaves the enemy out of contact: it is not pursued and
/// will not be struck double.
#[test]
fn a_pursuit_stopped_by_a_friend_marks_no_one_pursued() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "f", side: 0, type: "Inf", stands: [3], at: (645, 369.85), facing: 0),
           (id: "b", side: 1, type: "Inf", stands: [3, 3], at: (571.4, 319.05), facing: 180),"#,
        &[],
    );
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[6, 6, 1, 1, 1, 1]);
    let ev = b.execute(fight_cmd("a", "b", None, vec![])).unwrap();
    let p = pursued(&ev);
    assert_eq!(p.len(), 1, "{ev:?}");
    let went = p[0].2.centre.dist(p[0].1.centre);
    assert!(
        went < 60.0,
        "stopped by the friend after about 2 inches: {went}"
    );
    assert_eq!(p[0].3, None);
    assert_eq!(b.unit(&u("b")).unwrap().status.pursued_by, None);
}

// ----- recoils: the 45-degree choice and the gaps between enemies and between friends -------

/// `a` (side 0) beats `b` (side 1, touching its front, `b_stands` stands) by two hits: `b`
/// recoils two moves (4 inches) up the table unless something stops it. `extra` adds units.
fn beaten(b_stands: &str, extra: &str) -> (Game, Vec<Event>) {
    let mut b = battle(
        &format!(
            r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
               (id: "b", side: 1, type: "Inf", stands: {b_stands}, at: (600, 319.05), facing: 180),
               {extra}"#
        ),
        &[],
    );
    to(&mut b, CLOSE_COMBAT);
    let n = b.unit(&u("b")).unwrap().stands.len();
    let mut dice = vec![6, 6, 1, 1];
    dice.extend(std::iter::repeat_n(1, n));
    b.script_dice(&dice);
    let ev = b.execute(fight_cmd("a", "b", Some(false), vec![])).unwrap();
    (b, ev)
}

fn destroyed(ev: &[Event], id: &str) -> bool {
    ev.iter()
        .any(|e| matches!(e, Event::Destroyed { unit, .. } if unit.as_str() == id))
}

fn disordered_by_recoil(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Disordered { unit, why } if why.contains("recoiled") => Some(unit.to_string()),
            _ => None,
        })
        .collect()
}

/// Seed, Recoil Moves: "within a 45 degree angle to either side of that line". An enemy squarely
/// behind a narrow unit is avoided by recoiling at an angle; a unit with no way out within 45
/// degrees is still eliminated.
#[test]
fn a_recoil_may_turn_up_to_45_degrees_to_get_away() {
    let (b, ev) = beaten(
        "[3, 3]",
        r#"(id: "e", side: 0, type: "Inf", stands: [3], at: (600, 388.9), facing: 0),"#,
    );
    assert!(!destroyed(&ev, "b"), "{ev:?}");
    let r = ev
        .iter()
        .find_map(|e| match e {
            Event::Recoiled { from, to, .. } => Some((*from, *to)),
            _ => None,
        })
        .unwrap();
    let d = r.1.centre.minus(r.0.centre);
    let angle = d.x.atan2(d.y).to_degrees().abs();
    assert!(angle > 1.0 && angle <= 45.01, "turned {angle} degrees");
    assert!((d.len() - 101.6).abs() < 0.5, "still 4 inches: {}", d.len());
    assert!(b.unit(&u("b")).unwrap().alive());
    // A wide unit cannot turn enough: eliminated.
    let (_, ev) = beaten(
        "[3, 3, 3, 3]",
        r#"(id: "e", side: 0, type: "HC", at: (600, 375), facing: 0),"#,
    );
    assert!(destroyed(&ev, "b"), "{ev:?}");
}

/// Seed: "It needs a 2 inch gap to recoil between enemy units, or it is eliminated." The gap is
/// between the two enemies, whatever the recoiling unit's width; one enemy passed close by is no
/// gap at all.
#[test]
fn a_recoil_between_enemies_needs_a_2_inch_gap() {
    // Two wide enemy regiments of horse 1.5 inches behind b, a gap of `gap` inches between them.
    let wall = |gap: f32| {
        let half = gap * 25.4 / 2.0 + 114.3;
        format!(
            r#"(id: "e1", side: 0, type: "HC", at: ({}, 382.55), facing: 0),
               (id: "e2", side: 0, type: "HC", at: ({}, 382.55), facing: 0),"#,
            600.0 - half,
            600.0 + half
        )
    };
    let (_, ev) = beaten("[3, 3, 3, 3]", &wall(2.5));
    assert!(!destroyed(&ev, "b"), "a 2.5-inch gap is enough: {ev:?}");
    let (_, ev) = beaten("[3, 3, 3, 3]", &wall(1.5));
    assert!(destroyed(&ev, "b"), "a 1.5-inch gap is not: {ev:?}");
    // One enemy half an inch beside the path.
    let (_, ev) = beaten(
        "[3, 3, 3, 3]",
        r#"(id: "e", side: 0, type: "Inf", stands: [3], at: (684.45, 400), facing: 0),"#,
    );
    assert!(!destroyed(&ev, "b"), "{ev:?}");
}

/// Seed: "It needs a 1 inch gap to recoil between friendly units, or the friendly units are
/// disordered"; and a friend it recoils through is disordered.
#[test]
fn a_recoil_between_friends_needs_a_1_inch_gap() {
    let pair = |gap: f32| {
        let half = gap * 25.4 / 2.0 + 57.15;
        format!(
            r#"(id: "f1", side: 1, type: "Inf", at: ({}, 360), facing: 180),
               (id: "f2", side: 1, type: "Inf", at: ({}, 360), facing: 180),"#,
            600.0 - half,
            600.0 + half
        )
    };
    let (_, ev) = beaten("[3, 3, 3, 3]", &pair(1.5));
    assert!(disordered_by_recoil(&ev).is_empty(), "{ev:?}");
    let (_, ev) = beaten("[3, 3, 3, 3]", &pair(0.75));
    assert_eq!(disordered_by_recoil(&ev), vec!["f1", "f2"], "{ev:?}");
    // Through one friend: it is disordered.
    let (_, ev) = beaten(
        "[3, 3, 3, 3]",
        r#"(id: "f", side: 1, type: "Inf", stands: [3], at: (600, 360), facing: 180),"#,
    );
    assert_eq!(disordered_by_recoil(&ev), vec!["f"], "{ev:?}");
    // One friend three quarters of an inch beside the path is not passed through.
    let (_, ev) = beaten(
        "[3, 3, 3, 3]",
        r#"(id: "f", side: 1, type: "Inf", stands: [3], at: (690.5, 360), facing: 180),"#,
    );
    assert!(disordered_by_recoil(&ev).is_empty(), "{ev:?}");
}

// ----- reforming -------------------------------------------------------------------------------

fn steadied(ev: &[Event], id: &str) -> bool {
    ev.iter()
        .any(|e| matches!(e, Event::Steadied { unit } if unit.as_str() == id))
}

/// Seed: "A unit must stand for one active turn to reform from disorder." A unit that stood all
/// its turn reforms at its end, shooting or not; one disordered during that turn (a friend ends
/// intermixed with it) has not stood a whole turn disordered and reforms only after its next.
#[test]
fn reforming_needs_a_whole_active_turn_standing() {
    let mut b = battle(
        r#"(id: "x", side: 0, type: "Inf", at: (300, 300), facing: 0),
           (id: "y", side: 0, type: "Inf", at: (300, 220), facing: 0),
           (id: "s", side: 0, type: "Inf", at: (700, 300), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (700, 1000), facing: 180),"#,
        &[],
    );
    b.units_mut()[2].status.disordered = true;
    // y moves up into x's ground: both disordered.
    let ev = b
        .execute(Command::Move {
            unit: u("y"),
            steps: vec![Step::Advance(3.0)],
        })
        .unwrap();
    assert!(ev.iter().any(
        |e| matches!(e, Event::Disordered { unit, why } if unit.as_str() == "x" && why.contains("intermixed"))
    ));
    to(&mut b, CLOSE_COMBAT);
    let ev = b.execute(Command::EndPhase).unwrap();
    assert!(steadied(&ev, "s"), "s stood its whole turn disordered");
    assert!(!steadied(&ev, "x"), "x was disordered this turn: {ev:?}");
    assert!(!steadied(&ev, "y"), "y moved");
    // The enemy's turn, then x's next turn standing: it reforms.
    to(&mut b, CLOSE_COMBAT);
    let ev = b.execute(Command::EndPhase).unwrap();
    assert!(!steadied(&ev, "x"), "not in the enemy's turn");
    to(&mut b, CLOSE_COMBAT);
    let ev = b.execute(Command::EndPhase).unwrap();
    assert!(steadied(&ev, "x"), "{ev:?}");
}

// ----- skirmishers in broken terrain -----------------------------------------------------------

/// Seed, Light Infantry: "You may allow skirmishers to defend against (but not charge) formed
/// troops if in woods or rough ground; in this case, treat the skirmishers as disordered infantry
/// who get no defensive fire." With that optional rule, skirmishers in the wood charged by a
/// battalion stand and fight, even with their way back blocked; without it they fall back, or,
/// their way back blocked, are overrun.
#[test]
fn skirmishers_may_defend_woods_and_rough_ground() {
    let setup = |options: &[&str]| {
        let mut b = battle(
            r#"(id: "a", side: 0, type: "Inf", at: (1050, 940), facing: 0),
               (id: "x", side: 0, type: "Inf", at: (1050, 1029.05), facing: 0),
               (id: "s", side: 1, type: "LI", at: (1050, 1000), facing: 180),"#,
            options,
        );
        let ev = b
            .execute(Command::Move {
                unit: u("a"),
                steps: vec![Step::ToContact(u("s"))],
            })
            .unwrap();
        (b, ev)
    };
    let (b, ev) = setup(&["light_infantry"]);
    assert!(destroyed(&ev, "s"), "way back blocked: overrun: {ev:?}");
    assert!(!b.unit(&u("s")).unwrap().alive());
    let (mut b, ev) = setup(&["light_infantry", "skirmish_defend"]);
    assert!(
        !ev.iter().any(|e| matches!(
            e,
            Event::Destroyed { .. } | Event::StandsOverrun { .. } | Event::Fled { .. }
        ) || matches!(e.own(), Some(DessauerEvent::StandMoved { .. }))),
        "{ev:?}"
    );
    assert!(od(&b).in_contact(&b, b.unit(&u("s")).unwrap()));
    to(&mut b, CLOSE_COMBAT);
    let o = od(&b)
        .forecast(&b, &fight_cmd("a", "s", None, vec![]))
        .unwrap();
    let line = o.lines.iter().find(|l| l.unit == "s").unwrap();
    let names: Vec<&str> = line.factors.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"Disordered"), "{names:?}");
    assert!(
        !names.iter().any(|n| n.contains("defensive fire")),
        "{names:?}"
    );
}

// ----- zones of control -------------------------------------------------------------------------

/// Seed, Zones of Control: "You may not move within 1 inch of an enemy unit unless charging it."
/// A unit that starts within the inch may move away or along, but not closer.
#[test]
fn a_unit_starting_in_a_zone_may_not_close_on_that_enemy() {
    // Fronts half an inch apart.
    let b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 331.75), facing: 180),"#,
        &[],
    );
    let e = od(&b)
        .plan(&b, &[u("a")], &[Step::Advance(0.25)])
        .unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::ZoneOfControl), "{e}");
    assert!(od(&b).plan(&b, &[u("a")], &[Step::Backstep(1.0)]).is_ok());
    assert!(od(&b).plan(&b, &[u("a")], &[Step::Sidestep(1.0)]).is_ok());
    assert!(
        od(&b)
            .plan(&b, &[u("a")], &[Step::ToContact(u("e"))])
            .is_ok()
    );
}

/// A change of formation may not bring the unit within an inch of an enemy either.
#[test]
fn a_formation_change_respects_zones_of_control() {
    // A column 1.5 inches left of an enemy's flank: forming line would reach within the inch.
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", formation: Column, at: (600, 300), facing: 0),
           (id: "e", side: 1, type: "Inf", stands: [3], at: (661.9, 300), facing: 0),"#,
        &[],
    );
    let e = b
        .execute(Command::Form {
            unit: u("a"),
            formation: Formation::Line,
            turn: 0.0,
        })
        .unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::ZoneOfControl), "{e}");
    // Facing about in column stays clear: allowed.
    b.execute(Command::Form {
        unit: u("a"),
        formation: Formation::Column,
        turn: 180.0,
    })
    .unwrap();
}

// ----- roads and guns -----------------------------------------------------------------------------

const ROAD: &str = r#"(id: "road", kind: Road, points: [(600, 0), (600, 1219)], width: 40),"#;

fn mv(b: &mut Game, id: &str, steps: Vec<Step>) -> Result<Vec<Event>, RuleError> {
    b.execute(Command::Move { unit: u(id), steps })
}

/// Seed, Roads: "A column spending its entire turn on a road moves at 2X speed." A column that
/// first moved off the road this turn does not double what is left.
#[test]
fn the_road_doubles_only_a_whole_turn_on_it() {
    let mut b = battle_on(
        ROAD,
        r#"(id: "c", side: 0, type: "Inf", formation: Column, at: (600, 200), facing: 0),
           (id: "d", side: 0, type: "Inf", formation: Column, at: (650, 200), facing: 0),"#,
        &[],
    );
    // c stays on the road: 2 then 12 of 16 inches.
    mv(&mut b, "c", vec![Step::Advance(2.0)]).unwrap();
    mv(&mut b, "c", vec![Step::Advance(12.0)]).unwrap();
    // d sidesteps onto the road (2 inches at half speed: 4 of 8), then may go only 4 more.
    mv(&mut b, "d", vec![Step::Sidestep(-2.0)]).unwrap();
    assert!(b.terrain.on_road(b.unit(&u("d")).unwrap().base.centre));
    assert!(too_far(mv(&mut b, "d", vec![Step::Advance(10.0)])));
    mv(&mut b, "d", vec![Step::Advance(4.0)]).unwrap();
}

/// Limbered guns move at column rate "in other respects like any other unit": they may change
/// facing; they cannot take another formation.
#[test]
fn limbered_guns_change_facing() {
    let mut b = battle(
        r#"(id: "g", side: 0, type: "Gun", at: (600, 300), facing: 0, limbered: true),"#,
        &[],
    );
    b.execute(Command::Form {
        unit: u("g"),
        formation: Formation::Column,
        turn: 90.0,
    })
    .unwrap();
    let g = b.unit(&u("g")).unwrap();
    assert!((g.base.facing - 90.0).abs() < 0.01);
    assert!(g.status.limbered);
    assert!(
        b.execute(Command::Form {
            unit: u("g"),
            formation: Formation::Line,
            turn: 0.0,
        })
        .is_err()
    );
}

/// Seed, Regimental Guns: a regimental gun must always touch its parent and may be manhandled 4
/// inches a turn, so a regiment with its guns moves no farther than that.
#[test]
fn a_regiment_with_its_guns_moves_at_the_manhandling_rate() {
    let mut b = battle(
        r#"(id: "p", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "rg", side: 0, type: "RG", parent: "p", at: (600, 320), facing: 0),
           (id: "q", side: 0, type: "Inf", at: (300, 300), facing: 0),"#,
        &["regimental_guns"],
    );
    assert!(too_far(mv(&mut b, "p", vec![Step::Advance(5.0)])));
    mv(&mut b, "p", vec![Step::Advance(4.0)]).unwrap();
    mv(&mut b, "q", vec![Step::Advance(6.0)]).unwrap();
    let (p, g) = (b.unit(&u("p")).unwrap(), b.unit(&u("rg")).unwrap());
    assert!(
        p.base.distance(&g.base) < 1.0,
        "the gun still touches its parent"
    );
}

// ----- minor rules ------------------------------------------------------------------------------

/// Seed, Terrain Effects, Woods: "Troops seen at 4 inches unless they fire, then seen normally."
/// A battalion deep in a wood is hidden from a battery until it fires; then it is seen.
#[test]
fn troops_in_woods_are_seen_once_they_fire() {
    let mut b = battle(
        r#"(id: "g", side: 0, type: "Gun", at: (600, 925), facing: 90),
           (id: "bait", side: 0, type: "Inf", stands: [3], at: (1100, 860), facing: 0),
           (id: "w", side: 1, type: "Inf", stands: [3], at: (1100, 925), facing: 180),"#,
        &[],
    );
    to(&mut b, FIRING);
    let e = shooting::setup(od(&b), &b, &u("g"), &u("w")).unwrap_err();
    assert_eq!(
        kind_of(&e),
        Ok(Refusal::NoStandCanShoot(NoShot::CannotBeSeen)),
        "{e}"
    );
    // Side 1's turn: w fires at the bait.
    to(&mut b, MOVEMENT);
    to(&mut b, FIRING);
    b.execute(Command::Fire {
        unit: u("w"),
        target: u("bait"),
        support: vec![],
        defence: None,
    })
    .unwrap();
    // Side 0's next turn: the battery sees it.
    to(&mut b, MOVEMENT);
    to(&mut b, FIRING);
    assert_eq!(b.active, 0);
    shooting::setup(od(&b), &b, &u("g"), &u("w")).unwrap();
}

/// Seed, Terrain Effects: woods are "cover vs. shooting but not combat"; infantry or guns on
/// rough ground may claim cover against cavalry.
#[test]
fn woods_are_no_cover_in_combat_but_rough_ground_is_against_cavalry() {
    let b = battle_on(
        r#"(id: "rough", kind: Rough, points: [(300, 300), (500, 300), (500, 500), (300, 500)]),"#,
        r#"(id: "c", side: 0, type: "HC", at: (600, 600), facing: 0),
           (id: "inwood", side: 1, type: "Inf", stands: [3], at: (1000, 1000), facing: 180),
           (id: "inrough", side: 1, type: "Inf", stands: [3], at: (400, 400), facing: 180),"#,
        &[],
    );
    let names = |e: &str| {
        combat::points(
            od(&b),
            &b,
            b.unit(&u("c")).unwrap(),
            b.unit(&u(e)).unwrap(),
            false,
        )
        .0
        .into_iter()
        .map(|f| f.name)
        .collect::<Vec<_>>()
    };
    assert!(!names("inwood").contains(&"Against cover".to_string()));
    assert!(names("inrough").contains(&"Against cover".to_string()));
}

/// Seed, Pursuit Moves: "the pursuing unit charges into the new target(s), and a normal combat
/// round is fought the same turn, with all parties disordered." The fresh enemy a pursuer runs
/// into was charged: it makes its defensive fire (disordered) and grenadiers have their bonus.
#[test]
fn the_fresh_round_after_a_pursuit_is_a_first_round() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 319.05), facing: 180),
           (id: "f", side: 1, type: "Inf", flags: [Grenadier], at: (600, 376.2), facing: 180),"#,
        &[],
    );
    to(&mut b, CLOSE_COMBAT);
    let mut dice = vec![6, 6, 1, 1, 1, 1, 1, 1];
    dice.extend([1; 8]);
    b.script_dice(&dice);
    let ev = b.execute(fight_cmd("a", "b", None, vec![])).unwrap();
    let rounds: Vec<&Vec<volley::rules::ruleset::old_dessauer::Strike>> = ev
        .iter()
        .filter_map(|e| match e.own() {
            Some(DessauerEvent::Melee { strikes }) => Some(strikes),
            _ => None,
        })
        .collect();
    assert_eq!(rounds.len(), 2, "{ev:?}");
    let f = rounds[1].iter().find(|s| s.unit.as_str() == "f").unwrap();
    let names: Vec<&str> = f.factors.iter().map(|x| x.name.as_str()).collect();
    assert!(
        names
            .iter()
            .any(|n| n.contains("Disordered defensive fire")),
        "{names:?}"
    );
    assert!(names.contains(&"Grenadiers, first round"), "{names:?}");
}

/// Heavy and medium cavalry never pursue light cavalry: the troop row says which horse is light,
/// whatever its code.
#[test]
fn light_cavalry_is_a_trait_of_the_troop_row() {
    let b = battle(
        r#"(id: "h", side: 0, type: "HC", at: (300, 300), facing: 0),
           (id: "l", side: 1, type: "LC", at: (700, 300), facing: 0),
           (id: "m", side: 1, type: "MC", at: (700, 700), facing: 0),"#,
        &[],
    );
    let mut od2 = od(&b).clone();
    for t in &mut od2.data.troops {
        if t.code == "LC" {
            t.code = "Hus".into();
        }
    }
    let mut l = b.unit(&u("l")).unwrap().clone();
    l.troop = "Hus".into();
    let h = b.unit(&u("h")).unwrap();
    assert!(!pursuit::may_pursue(&od2, h, &l));
    assert!(pursuit::may_pursue(&od2, h, b.unit(&u("m")).unwrap()));
    assert!(pursuit::may_pursue(&od2, &l, h));
}

/// One more figure lost by `id`, left at a quarter of its strength: it shatters at the end of
/// the turn.
fn loses_its_last_quarter(b: &mut Game, id: &str) {
    let rules = od(b).clone();
    rules
        .take_losses(b, &mut Vec::new(), &u(id), 1, "test")
        .unwrap();
    to(b, CLOSE_COMBAT);
    let ev = b.execute(Command::EndPhase).unwrap();
    assert!(destroyed(&ev, id), "{ev:?}");
}

/// Casualties are counted in figures (the rules take hits as figures): a unit worn down
/// counts the figures it lost, one shattered all it began with, while the army break (and the
/// planner's measure of strength) still counts whole units.
#[test]
fn casualties_are_counted_in_figures() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", stands: [3, 1], figures_lost: 8, at: (600, 300), facing: 0),
           (id: "b", side: 0, type: "Inf", at: (300, 300), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 900), facing: 180),"#,
        &[],
    );
    let rules = od(&b).clone();
    let strength = |b: &Game, s| b.rules.casualties(b, s);
    assert_eq!(strength(&b, 0), (8.0, 24.0));
    assert_eq!(strength(&b, 1), (0.0, 12.0));
    rules
        .take_losses(&mut b, &mut Vec::new(), &u("b"), 2, "test")
        .unwrap();
    assert_eq!(strength(&b, 0), (10.0, 24.0));
    assert_eq!(b.rules.units_lost(&b, 0), (0.0, 2.0));
    // One more figure leaves "a" at a quarter: shattered at the end of the turn, it counts
    // all 12 of its figures, and one unit towards the army break.
    loses_its_last_quarter(&mut b, "a");
    assert_eq!(strength(&b, 0), (14.0, 24.0));
    assert_eq!(b.rules.units_lost(&b, 0), (1.0, 2.0));
    assert_eq!(b.rules.strength_lost(&b, 0), (1.0, 2.0));
}

// ----- scenarios -------------------------------------------------------------------------------

/// A unit may start under strength: `figures_lost` counts figures lost before the battle, so
/// the quarter-strength test and the losses at the turn limit count from the full strength.
#[test]
fn a_unit_may_start_under_strength() {
    let b = battle(
        r#"(id: "a", side: 0, type: "Inf", stands: [3, 3, 3], figures_lost: 3, at: (600, 300), facing: 0),"#,
        &[],
    );
    let a = b.unit(&u("a")).unwrap();
    assert_eq!((a.figures(), od(&b).strength(a)), (9, 12));
    // 4 of 12 figures: one more lost leaves a quarter, and it shatters at the end of the turn
    // (3 of 4 would not have).
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", stands: [3, 1], figures_lost: 8, at: (600, 300), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 900), facing: 180),"#,
        &[],
    );
    loses_its_last_quarter(&mut b, "a");
    // Losses that leave no figure, or units that are single bases, are refused.
    let text = r#"(name: "t", ruleset: "old_dessauer", table: (width: 1219.0, height: 1219.0), turn_limit: 20,
        sides: [(name: "A", colour: (0, 0, 200)), (name: "B", colour: (200, 0, 0))],
        units: [(id: "a", side: 0, type: "Inf", stands: [3], figures_lost: 100000, at: (600, 300))])"#;
    let e = scenario::parse(text, "t.ron").unwrap_err();
    assert!(e[0].message.contains("figures_lost"), "{}", e[0].message);
}

// ----- rules that had no test ------------------------------------------------------------------

fn plan(b: &Game, id: &str, steps: &[Step]) -> Result<volley::rules::ruleset::MovePlan, RuleError> {
    od(b).plan(b, &[u(id)], steps)
}

/// Seed, Moving Through Friends: "You may move through a friendly unit at half speed ... If you
/// end movement intermixed with a friend, both units are disordered."
#[test]
fn moving_through_friends_is_half_speed() {
    let b = battle(
        r#"(id: "x", side: 0, type: "Inf", at: (300, 300), facing: 0),
           (id: "y", side: 0, type: "Inf", at: (300, 220), facing: 0),"#,
        &[],
    );
    let p = plan(&b, "y", &[Step::Advance(2.9)]).unwrap();
    assert!((p.distance - 5.8).abs() < 0.05, "{}", p.distance);
    assert!(p.going.why.iter().any(|w| w.contains("through friends")));
    assert!(matches!(
        plan(&b, "y", &[Step::Advance(4.7)]),
        Err(RuleError::TooFar { .. })
    ));
    assert!((plan(&b, "y", &[Step::Backstep(1.0)]).unwrap().distance - 2.0).abs() < 0.05);
}

/// Seed, Terrain Effects: streams "usually cost double distance to cross and disorder chargers".
#[test]
fn streams_cost_double_to_cross_and_disorder_chargers() {
    let stream = r#"(id: "s", kind: Stream, points: [(0, 400), (1219, 400)], width: 10),"#;
    let mut b = battle_on(
        stream,
        r#"(id: "a", side: 0, type: "Inf", at: (600, 350), facing: 0),
           (id: "c", side: 0, type: "Inf", at: (200, 350), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (200, 440), facing: 180),"#,
        &[],
    );
    let p = plan(&b, "a", &[Step::Advance(2.5)]).unwrap();
    assert!((p.distance - 5.0).abs() < 0.05, "{}", p.distance);
    let ev = mv(&mut b, "c", vec![Step::ToContact(u("e"))]).unwrap();
    assert!(ev.iter().any(
        |e| matches!(e, Event::Disordered { unit, why } if unit.as_str() == "c" && why.contains("obstacle"))
    ));
}

/// Seed, Town Blocks: the garrison fires out of any side with up to half its size, all of it
/// fights, and it is cover against shooting.
#[test]
fn a_town_garrison_fires_with_half_fights_with_all_and_is_in_cover() {
    let mut b = battle(
        r#"(id: "g", side: 0, type: "Inf", formation: Column, at: (110, 1000), facing: 90),
           (id: "e", side: 1, type: "Inf", at: (205, 1000), facing: 270),"#,
        &[],
    );
    let g = b.unit(&u("g")).unwrap();
    assert_eq!(
        combat::dice_count(od(&b), &b, g),
        4,
        "a column garrison fights with all"
    );
    to(&mut b, FIRING);
    let s = shooting::setup(od(&b), &b, &u("g"), &u("e")).unwrap();
    assert_eq!(s.stands, 2, "half of four stands, out of the side");
    let mut b = battle(
        r#"(id: "g", side: 1, type: "Inf", at: (110, 1000), facing: 0),
           (id: "e", side: 0, type: "Inf", at: (110, 1105), facing: 180),"#,
        &[],
    );
    to(&mut b, FIRING);
    let s = shooting::setup(od(&b), &b, &u("e"), &u("g")).unwrap();
    assert!(
        s.factors.iter().any(|f| f.name == "Target in cover"),
        "{:?}",
        s.factors
    );
}

/// Seed, Overhead Fire: guns on higher ground shoot over friends when the target is at least as
/// far beyond them again as the friend's far side is from the gun.
#[test]
fn guns_fire_overhead_from_higher_ground() {
    let hill = r#"(id: "h", kind: Hill, points: [(450, 100), (750, 100), (750, 300), (450, 300)], level: 1),"#;
    let with_target = |y: f32| {
        let mut b = battle_on(
            hill,
            &format!(
                r#"(id: "g", side: 0, type: "Gun", at: (600, 200), facing: 0),
                   (id: "f", side: 0, type: "Inf", at: (600, 400), facing: 0),
                   (id: "t", side: 1, type: "Inf", at: (600, {y}), facing: 180),"#
            ),
            &[],
        );
        to(&mut b, FIRING);
        shooting::setup(od(&b), &b, &u("g"), &u("t"))
    };
    assert!(with_target(800.0).is_ok(), "{:?}", with_target(800.0));
    let e = with_target(480.0).unwrap_err();
    assert_eq!(
        kind_of(&e),
        Ok(Refusal::NoStandCanShoot(NoShot::Blocked)),
        "{e}"
    );
}

/// Seed, Firing: "A unit may shoot through a 2 inch or wider gap between units. One stand per 2
/// inch gap may shoot."
#[test]
fn one_stand_shoots_through_a_2_inch_gap() {
    // A gun of these stands behind a gap this wide between two friends, the target beyond.
    let through = |stands: &str, gap: f32| {
        let half = gap * 25.4 / 2.0 + 57.15;
        let mut b = battle(
            &format!(
                r#"(id: "g", side: 0, type: "Gun"{stands}, at: (600, 200), facing: 0),
                   (id: "f1", side: 0, type: "Inf", at: ({}, 400), facing: 0),
                   (id: "f2", side: 0, type: "Inf", at: ({}, 400), facing: 0),
                   (id: "t", side: 1, type: "Inf", at: (600, 700), facing: 180),"#,
                600.0 - half,
                600.0 + half
            ),
            &[],
        );
        to(&mut b, FIRING);
        shooting::setup(od(&b), &b, &u("g"), &u("t"))
    };
    assert_eq!(through("", 2.5).unwrap().stands, 1);
    let e = through("", 1.5).unwrap_err();
    assert_eq!(
        kind_of(&e),
        Ok(Refusal::NoStandCanShoot(NoShot::NarrowGap)),
        "{e}"
    );
    // One stand per 2 inches of gap: a battery of two guns shoots through a 4.5 inch gap with
    // both, through a 3 inch gap with one (ruling line_of_fire).
    let two = ", stands: [2, 2]";
    assert_eq!(through(two, 4.5).expect("4.5 inch gap").stands, 2);
    assert_eq!(through(two, 3.0).expect("3 inch gap").stands, 1);
}

/// Seed, Light Infantry: skirmishers "block small arms fire, but not artillery fire", and "enemy
/// guns do not block shooting": what cannot block a line of fire cannot narrow a gap in it
/// either. A gun shoots past a skirmisher 1.5 inches from a formed friend; a musket may not.
#[test]
fn skirmishers_narrow_a_gap_for_muskets_but_not_for_guns() {
    let half = 1.5 * 25.4 / 2.0;
    let b = |shooter: &str, target_y: f32| {
        let mut b = battle(
            &format!(
                r#"{shooter}
                   (id: "f", side: 0, type: "Inf", at: ({}, 400), facing: 0),
                   (id: "s", side: 0, type: "LI", at: ({}, 400), facing: 0),
                   (id: "t", side: 1, type: "Inf", at: (600, {target_y}), facing: 180),"#,
                600.0 - half - 57.15,
                600.0 + half + 114.3
            ),
            &["light_infantry"],
        );
        to(&mut b, FIRING);
        b
    };
    let g = b(
        r#"(id: "x", side: 0, type: "Gun", at: (600, 200), facing: 0),"#,
        700.0,
    );
    assert!(od(&g).is_skirmishing(&g, g.unit(&u("s")).unwrap()));
    let shot =
        shooting::setup(od(&g), &g, &u("x"), &u("t")).expect("a gun shoots past skirmishers");
    // The line is clear: the whole battery fires, not one gun through a gap.
    assert_eq!(shot.stands as usize, g.unit(&u("x")).unwrap().stands.len());
    assert!(shot.stands > 1);
    let m = b(
        r#"(id: "x", side: 0, type: "Inf", at: (600, 360), facing: 0),"#,
        450.0,
    );
    let e = shooting::setup(od(&m), &m, &u("x"), &u("t")).unwrap_err();
    assert!(
        matches!(kind_of(&e), Ok(Refusal::NoStandCanShoot(_))),
        "{e}"
    );
}

/// Seed, Firing into a Combat: only a unit with a hanging flank of 6 foot figures not touching
/// the enemy may be shot at.
#[test]
fn only_a_hanging_flank_is_shot_at_in_a_combat() {
    let mut b = battle(
        r#"(id: "s", side: 0, type: "Inf", at: (300, 300), facing: 0),
           (id: "m", side: 0, type: "Inf", stands: [3], at: (757.15, 376.2), facing: 0),
           (id: "t", side: 1, type: "Inf", at: (700, 395.25), facing: 180),"#,
        &[],
    );
    to(&mut b, FIRING);
    let t = b.unit(&u("t")).unwrap().clone();
    assert!(od(&b).in_contact(&b, &t));
    let ok = shooting::setup(od(&b), &b, &u("s"), &u("t"));
    assert!(
        ok.as_ref()
            .map_or_else(|e| kind_of(e) != Ok(Refusal::TargetInMelee), |_| true),
        "{ok:?}"
    );
    // Three stands of m cover three of t's four: 3 figures hang, too few.
    b.units_mut()[1].stands = vec![volley::rules::model::Stand::new(3); 3];
    b.units_mut()[1].base.width = 3.0 * 28.575;
    b.units_mut()[1].base.centre.x = 700.0 + 28.575 * 0.5;
    let e = shooting::setup(od(&b), &b, &u("s"), &u("t")).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::TargetInMelee), "{e}");
}

/// Seed, Firing: a target "enfiladed at 22.5 degrees onto its flank" is dense: guns roll 2 dice
/// a stand.
#[test]
fn guns_roll_two_dice_a_stand_at_an_enfiladed_line() {
    let mut b = battle(
        r#"(id: "g", side: 0, type: "Gun", at: (600, 200), facing: 0),
           (id: "side", side: 1, type: "Inf", at: (600, 700), facing: 90),"#,
        &[],
    );
    to(&mut b, FIRING);
    assert_eq!(
        shooting::setup(od(&b), &b, &u("g"), &u("side"))
            .unwrap()
            .dice,
        4
    );
}

/// Seed, Flank/Rear Attacks: "A unit may not strike to its flank or rear the first round of a
/// combat, the enemy gets a free strike", and it strikes at -2 while under the flank attack. "To
/// count as a flank or rear attack, the charger must begin the turn at least partly behind the
/// target unit's flank": one that does not may still charge there, but attacks frontally (no
/// free strike, no -2, and the target makes its defensive fire).
#[test]
fn a_flank_charge_counts_only_from_behind_the_front() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", stands: [3, 3], at: (760, 580), facing: 270),
           (id: "t", side: 1, type: "Inf", at: (600, 600), facing: 0),"#,
        &[],
    );
    mv(&mut b, "a", vec![Step::ToContact(u("t"))]).unwrap();
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[1, 1]);
    let ev = b.execute(fight_cmd("a", "t", None, vec![])).unwrap();
    let strikes = ev
        .iter()
        .find_map(|e| match e.own() {
            Some(DessauerEvent::Melee { strikes }) => Some(strikes.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(strikes.len(), 1, "t does not strike back: {strikes:?}");
    assert_eq!(strikes[0].unit.as_str(), "a");
    let t = b.unit(&u("t")).unwrap();
    let a = b.unit(&u("a")).unwrap();
    let f = combat::points(od(&b), &b, t, a, false).0;
    assert!(f.iter().any(|x| x.name == "Under flank or rear attack"));
    // x starts wholly ahead of t's front line and sidesteps round onto its flank.
    let mut b = battle(
        r#"(id: "t", side: 1, type: "Inf", at: (600, 600), facing: 0),
           (id: "x", side: 0, type: "Inf", stands: [3, 3], at: (720, 640), facing: 270),"#,
        &[],
    );
    let ev = mv(
        &mut b,
        "x",
        vec![Step::Sidestep(-1.5), Step::ToContact(u("t"))],
    )
    .unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e.own(), Some(DessauerEvent::FrontalCharge { unit, on: true }) if unit.as_str() == "x"))
    );
    let t = b.unit(&u("t")).unwrap();
    assert_eq!(
        t.base
            .touched_by(&b.unit(&u("x")).unwrap().base)
            .map(|c| c.edge.is_flank()),
        Some(true)
    );
    assert!(combat::flank_attackers(od(&b), &b, t).is_empty());
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[1; 6]);
    let ev = b.execute(fight_cmd("x", "t", None, vec![])).unwrap();
    let strikes = ev
        .iter()
        .find_map(|e| match e.own() {
            Some(DessauerEvent::Melee { strikes }) => Some(strikes.clone()),
            _ => None,
        })
        .unwrap();
    let ts = strikes
        .iter()
        .find(|s| s.unit.as_str() == "t")
        .expect("t strikes back");
    let names: Vec<&str> = ts.factors.iter().map(|f| f.name.as_str()).collect();
    assert!(
        names.iter().any(|n| n.contains("defensive fire")),
        "{names:?}"
    );
    assert!(!names.contains(&"Under flank or rear attack"), "{names:?}");
}

/// Seed, Eligible Stands: a unit attacked by several enemies divides its dice as evenly as
/// possible among them.
#[test]
fn dice_are_split_evenly_among_enemies() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", stands: [3], at: (557.15, 319.05), facing: 180),
           (id: "c", side: 1, type: "Inf", stands: [3], at: (600, 319.05), facing: 180),
           (id: "d", side: 1, type: "Inf", stands: [3], at: (642.85, 319.05), facing: 180),"#,
        &[],
    );
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[1; 7]);
    let ev = b.execute(fight_cmd("a", "b", Some(false), vec![])).unwrap();
    let mine: Vec<usize> = ev
        .iter()
        .find_map(|e| match e.own() {
            Some(DessauerEvent::Melee { strikes }) => Some(
                strikes
                    .iter()
                    .filter(|s| s.unit.as_str() == "a")
                    .map(|s| s.dice.len())
                    .collect(),
            ),
            _ => None,
        })
        .unwrap();
    assert_eq!(mine, vec![2, 1, 1]);
}

/// Seed, Pursuit Moves: "Gunners and shaken units never pursue. Infantry never pursues cavalry."
#[test]
fn pursuit_restrictions() {
    let b = battle(
        r#"(id: "i", side: 0, type: "Inf", at: (300, 300), facing: 0),
           (id: "g", side: 0, type: "Gun", at: (600, 300), facing: 0),
           (id: "c", side: 1, type: "MC", at: (300, 800), facing: 180),
           (id: "j", side: 1, type: "Inf", at: (800, 800), facing: 180),"#,
        &[],
    );
    let un = |id: &str| b.unit(&u(id)).unwrap();
    assert!(!pursuit::may_pursue(od(&b), un("i"), un("c")));
    assert!(pursuit::may_pursue(od(&b), un("c"), un("i")));
    assert!(!pursuit::may_pursue(od(&b), un("g"), un("j")));
    // A shaken unit is offered no pursuit.
    let mut b = battle(&TOUCHING, &[]);
    b.units_mut()[0].status.shaken = true;
    to(&mut b, CLOSE_COMBAT);
    let o = b
        .rules
        .preview(&b, &fight_cmd("a", "b", None, vec![]))
        .unwrap();
    assert!(
        o.choices.iter().all(|c| !c.label.starts_with("a ")),
        "{:?}",
        o.choices
    );
}

/// Seed: "If a unit is striking at an enemy it is pursuing, it scores double hits"; "All hits
/// against gun crews are tripled."
#[test]
fn double_hits_on_the_pursued_and_triple_on_gunners() {
    let mut b = battle(&TOUCHING, &[]);
    b.units_mut()[1].status.pursued_by = Some(u("a"));
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[6, 1, 1, 1, 1, 1, 1, 1]);
    let ev = b.execute(fight_cmd("a", "b", Some(false), vec![])).unwrap();
    let s = ev
        .iter()
        .find_map(|e| match e.own() {
            Some(DessauerEvent::Melee { strikes }) => {
                strikes.iter().find(|s| s.unit.as_str() == "a").cloned()
            }
            _ => None,
        })
        .unwrap();
    assert_eq!((s.multiplier, s.hits), (2, 2));
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "g", side: 1, type: "Gun", at: (600, 328.575), facing: 180),"#,
        &[],
    );
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[6, 1, 1, 1, 1]);
    let ev = b.execute(fight_cmd("a", "g", Some(false), vec![])).unwrap();
    let s = ev
        .iter()
        .find_map(|e| match e.own() {
            Some(DessauerEvent::Melee { strikes }) => {
                strikes.iter().find(|s| s.unit.as_str() == "a").cloned()
            }
            _ => None,
        })
        .unwrap();
    assert_eq!((s.multiplier, s.hits), (3, 3));
}

/// Seed, Evading: "Gunners may evade an enemy charge ... They abandon their guns." (ruling
/// gunners_evade: before cavalry, or infantry with more points.)
#[test]
fn gunners_evade_cavalry_and_abandon_their_guns() {
    let charge = |t: &str| {
        let mut b = battle(
            &format!(
                r#"(id: "a", side: 0, type: "{t}", at: (600, 300), facing: 0),
                   (id: "g", side: 1, type: "Gun", at: (600, 420), facing: 180),"#
            ),
            &[],
        );
        let ev = mv(&mut b, "a", vec![Step::ToContact(u("g"))]).unwrap();
        destroyed(&ev, "g")
    };
    assert!(charge("MC"), "before horse they run");
    assert!(
        !charge("Inf"),
        "2 points against 0 + 2 defensive fire: they stand"
    );
}

/// Seed, Charging: "The final 2 inches of an infantry charge must be straight forward."
#[test]
fn the_final_2_inches_of_an_infantry_charge_are_straight() {
    use volley::rules::geometry::Corner;
    let charge = |gap: f32| {
        let mut b = battle(
            r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
               (id: "b", side: 1, type: "Inf", at: (600, 800), facing: 180),"#,
            &[],
        );
        let a = b.units[0].base;
        let wheeled = a.rotated_about(a.front_left(), -10.0);
        let t = &mut b.units_mut()[1].base;
        t.centre = wheeled.local(0.0, wheeled.depth / 2.0 + gap * 25.4 + t.depth / 2.0);
        t.facing = 350.0 + 180.0 - 360.0;
        let steps = [
            Step::Wheel {
                corner: Corner::Left,
                degrees: 10.0,
            },
            Step::ToContact(u("b")),
        ];
        plan(&b, "a", &steps).map(|_| ())
    };
    let e = charge(1.5).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::ChargeTailNotStraight), "{e}");
    assert!(charge(2.5).is_ok(), "{:?}", charge(2.5));
}

/// Seed, Movement and Drill: crack troops move 2 inches faster, poor 2 slower; not skirmishers.
#[test]
fn drill_by_grade() {
    let b = battle(
        r#"(id: "c", side: 0, type: "Inf", class: Elite, at: (300, 300), facing: 0),
           (id: "r", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "p", side: 0, type: "Inf", class: Militia, at: (900, 300), facing: 0),
           (id: "s", side: 0, type: "LI", class: Elite, at: (600, 600), facing: 0),"#,
        &["drill", "light_infantry"],
    );
    let a = |id: &str| od(&b).allowance(b.unit(&u(id)).unwrap());
    assert_eq!((a("c"), a("r"), a("p"), a("s")), (8.0, 6.0, 4.0, 4.0));
}

/// Seed, Danger to Generals: after two or more hits on its unit, a 1 kills the general.
#[test]
fn a_general_may_fall_with_two_hits_on_his_unit() {
    let run = |die: u8| {
        let mut b = battle(
            r#"(id: "s", side: 1, type: "Inf", at: (600, 300), facing: 0),
               (id: "g", side: 0, type: "Gen", at: (600, 480), facing: 180, attached: "t"),
               (id: "t", side: 0, type: "Inf", at: (600, 395.25), facing: 180),"#,
            &["generals"],
        );
        to(&mut b, MOVEMENT);
        to(&mut b, CLOSE_COMBAT);
        b.execute(Command::EndPhase).unwrap();
        to(&mut b, FIRING);
        b.script_dice(&[6, 6, 1, 1, die]);
        let ev = b
            .execute(Command::Fire {
                unit: u("s"),
                target: u("t"),
                support: vec![],
                defence: None,
            })
            .unwrap();
        (
            ev.iter().any(|e| {
                matches!(
                    e.own(),
                    Some(DessauerEvent::Test {
                        test: TestKind::GeneralDanger,
                        ..
                    })
                )
            }),
            destroyed(&ev, "g"),
        )
    };
    assert_eq!(run(1), (true, true));
    assert_eq!(run(2), (true, false));
}

/// Seed, Regimental Guns: 4-inch range hitting on 4-6, one enemy die per unit at it, removed
/// when one hit leaves fewer than 2 crew; a gun that shifted may not fire.
#[test]
fn regimental_guns_shoot_and_are_shot() {
    let mut b = battle(
        r#"(id: "p", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "rg", side: 0, type: "RG", parent: "p", at: (600, 319.05), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 395.25), facing: 180),"#,
        &["regimental_guns"],
    );
    to(&mut b, FIRING);
    let s = shooting::setup(od(&b), &b, &u("rg"), &u("e")).unwrap();
    assert_eq!((s.dice, s.need), (1, 4));
    // The enemy's turn: four stands in range, one die at the gun; one hit removes it.
    to(&mut b, MOVEMENT);
    to(&mut b, FIRING);
    let s = shooting::setup(od(&b), &b, &u("e"), &u("rg")).unwrap();
    assert_eq!(s.dice, 1);
    b.script_dice(&[6]);
    let ev = b
        .execute(Command::Fire {
            unit: u("e"),
            target: u("rg"),
            support: vec![],
            defence: None,
        })
        .unwrap();
    assert!(destroyed(&ev, "rg"), "{ev:?}");
    // A gun that shifts along its parent may not fire that turn.
    let mut b = battle(
        r#"(id: "p", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "rg", side: 0, type: "RG", parent: "p", at: (600, 319.05), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 395.25), facing: 180),"#,
        &["regimental_guns"],
    );
    mv(&mut b, "rg", vec![Step::Sidestep(1.0)]).unwrap();
    to(&mut b, FIRING);
    let e = shooting::setup(od(&b), &b, &u("rg"), &u("e")).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::GunsMovedMayNotShoot), "{e}");
}

/// Seed, Recoil Moves: a unit driven off the table is eliminated.
#[test]
fn a_unit_recoiling_off_the_table_is_eliminated() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 1150), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 1169.05), facing: 180),"#,
        &[],
    );
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[6, 6, 6, 6, 1, 1, 1, 1]);
    let ev = b.execute(fight_cmd("a", "b", Some(false), vec![])).unwrap();
    assert!(ev.iter().any(
        |e| matches!(e, Event::Destroyed { unit, reason } if unit.as_str() == "b" && reason.contains("off the table"))
    ), "{ev:?}");
}

// ----- zones of control, recoil facing, fallback, skirmishers, towns, pursuit ------------------

/// Seed, Zones of Control: "unless the unit you wish to bypass is in combat or being charged by
/// another friendly unit". Two battalions half an inch apart may both be charged, one after the
/// other; a wide regiment of horse may charge the middle of a closed line; an ordinary move
/// still keeps the inch.
#[test]
fn two_units_may_charge_neighbouring_enemies() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (500, 400), facing: 0),
           (id: "c", side: 0, type: "Inf", at: (627, 400), facing: 0),
           (id: "x", side: 1, type: "Inf", at: (500, 500), facing: 180),
           (id: "y", side: 1, type: "Inf", at: (627, 500), facing: 180),"#,
        &[],
    );
    let e = plan(&b, "a", &[Step::Advance(2.9)]).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::ZoneOfControl), "{e}");
    mv(&mut b, "a", vec![Step::ToContact(u("x"))]).unwrap();
    mv(&mut b, "c", vec![Step::ToContact(u("y"))]).unwrap();
    let o = od(&b);
    assert!(o.in_contact(&b, b.unit(&u("x")).unwrap()));
    assert!(o.in_contact(&b, b.unit(&u("y")).unwrap()));
    // Before the final approach the inch of every other enemy still holds.
    let b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (500, 400), facing: 0),
           (id: "x", side: 1, type: "Inf", at: (500, 500), facing: 180),
           (id: "z", side: 1, type: "Inf", at: (380, 445), facing: 180),"#,
        &[],
    );
    let e = plan(&b, "a", &[Step::ToContact(u("x"))]).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::ZoneOfControl), "{e}");
    // Whose zone is named in the words only.
    assert!(e.to_string().contains("of z"), "{e}");
    // Horse nine inches wide at the middle of three battalions closed up half an inch apart.
    let mut b = battle(
        r#"(id: "h", side: 0, type: "HC", at: (600, 380), facing: 0),
           (id: "l", side: 1, type: "Inf", at: (473, 500), facing: 180),
           (id: "m", side: 1, type: "Inf", at: (600, 500), facing: 180),
           (id: "r", side: 1, type: "Inf", at: (727, 500), facing: 180),"#,
        &[],
    );
    let ev = mv(&mut b, "h", vec![Step::ToContact(u("m"))]).unwrap();
    assert!(ev.iter().any(
        |e| matches!(e, Event::Moved { unit, contact: Some(t), .. } if unit.as_str() == "h" && t.as_str() == "m")
    ));
}

/// Seed, Recoil Moves: "A unit retreats 2" per recoil move, facing the enemy". Beaten from the
/// flank, it turns to face the enemy that beat it as it goes back; beaten from the front it
/// keeps its facing.
#[test]
fn a_recoil_retreats_facing_the_enemy() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (533.325, 600), facing: 90),
           (id: "b", side: 1, type: "Inf", at: (600, 600), facing: 180),"#,
        &[],
    );
    assert_eq!(
        combat::flank_attackers(od(&b), &b, b.unit(&u("b")).unwrap()),
        vec![u("a")]
    );
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[6, 6, 1, 1, 1, 1, 1, 1]);
    let ev = b.execute(fight_cmd("a", "b", Some(false), vec![])).unwrap();
    let (from, to_) = ev
        .iter()
        .find_map(|e| match e {
            Event::Recoiled { unit, from, to, .. } if unit.as_str() == "b" => Some((*from, *to)),
            _ => None,
        })
        .expect("b recoils");
    assert!(
        (to_.centre.x - from.centre.x - 101.6).abs() < 0.5,
        "{to_:?}"
    );
    assert!((to_.facing - 270.0).abs() < 0.01, "faces a: {}", to_.facing);
    assert!((b.unit(&u("b")).unwrap().base.facing - 270.0).abs() < 0.01);
    // From the front: straight back, facing as before.
    let (b2, ev) = beaten("[3, 3, 3, 3]", "");
    let to_ = ev
        .iter()
        .find_map(|e| match e {
            Event::Recoiled { to, .. } => Some(*to),
            _ => None,
        })
        .unwrap();
    assert_eq!(to_.facing, 180.0);
    assert_eq!(b2.unit(&u("b")).unwrap().base.facing, 180.0);
}

/// Seed: "A unit must stand for one active turn to reform". A disordered unit that falls back
/// voluntarily has not stood: it does not reform at the end of that turn.
#[test]
fn a_voluntary_fallback_does_not_reform_that_turn() {
    let mut b = battle(
        r#"(id: "g", side: 0, type: "Gen", at: (600, 560), facing: 0),
           (id: "a", side: 0, type: "Inf", at: (600, 600), facing: 0),
           (id: "s", side: 0, type: "Inf", at: (200, 600), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 1100), facing: 180),"#,
        &["generals", "voluntary_fallback"],
    );
    b.units_mut()[1].status.disordered = true;
    b.units_mut()[2].status.disordered = true;
    b.execute(Command::Fallback {
        unit: u("a"),
        distance: 4.0,
    })
    .unwrap();
    to(&mut b, CLOSE_COMBAT);
    let ev = b.execute(Command::EndPhase).unwrap();
    assert!(steadied(&ev, "s"), "s stood: {ev:?}");
    assert!(!steadied(&ev, "a"), "a fell back: {ev:?}");
    assert!(b.unit(&u("a")).unwrap().status.disordered);
}

/// Seed, Light Infantry: "They move the same in all terrain types, and pay no terrain
/// penalties": a stream costs skirmishers nothing extra, though it doubles line infantry's move.
#[test]
fn skirmishers_cross_streams_without_penalty() {
    let stream = r#"(id: "s", kind: Stream, points: [(0, 400), (1219, 400)], width: 10),"#;
    let b = battle_on(
        stream,
        r#"(id: "a", side: 0, type: "Inf", at: (300, 350), facing: 0),
           (id: "l", side: 0, type: "LI", at: (700, 350), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 1100), facing: 180),"#,
        &["light_infantry"],
    );
    let p = plan(&b, "a", &[Step::Advance(2.5)]).unwrap();
    assert!((p.distance - 5.0).abs() < 0.05, "{}", p.distance);
    let p = plan(&b, "l", &[Step::Advance(2.5)]).unwrap();
    assert!((p.distance - 2.5).abs() < 0.05, "{}", p.distance);
    assert!(
        !p.going.why.iter().any(|w| w.contains("stream")),
        "{:?}",
        p.going
    );
}

/// Seed, Town Blocks: "Attackers may attack each side with up to 1.5X the garrison size, count
/// all stands". Two battalions against one side of a 12-figure garrison share 18 figures: the
/// first counts its 4 stands, the second 2.
#[test]
fn town_attackers_share_one_and_a_half_garrisons_per_side() {
    let b = battle(
        r#"(id: "g", side: 0, type: "Inf", at: (189.5, 1000), facing: 90),
           (id: "p", side: 1, type: "Inf", formation: Column, at: (237.1, 970), facing: 270),
           (id: "q", side: 1, type: "Inf", formation: Column, at: (237.1, 1030), facing: 270),"#,
        &[],
    );
    let o = od(&b);
    let g = b.unit(&u("g")).unwrap();
    assert!(o.in_town(&b, g));
    assert_eq!(o.enemies_in_contact(&b, g).len(), 2);
    let dice = |id: &str| combat::dice_count(o, &b, b.unit(&u(id)).unwrap());
    assert_eq!((dice("p"), dice("q")), (4, 2));
    assert_eq!(dice("g"), 4);
}

/// Seed, Pursuit Moves: "If the enemy recoiled through a friend, or through a gap between friends
/// that was less than half the width of the pursuing unit, the pursuing unit charges into the new
/// target(s)". A column recoiling through a 3-inch gap between two friends is followed by a
/// 4.5-inch battalion only to an inch from them; through a 1.5-inch gap the battalion charges
/// them and fights a fresh round.
#[test]
fn a_pursuer_charges_fresh_enemies_only_through_a_narrow_gap() {
    let run = |gap: f32| {
        let half = gap * 25.4 / 2.0 + 14.2875;
        let mut b = battle(
            &format!(
                r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
                   (id: "b", side: 1, type: "Inf", formation: Column, at: (600, 347.625), facing: 180),
                   (id: "f1", side: 1, type: "Inf", stands: [3], at: ({}, 415), facing: 180),
                   (id: "f2", side: 1, type: "Inf", stands: [3], at: ({}, 415), facing: 180),"#,
                600.0 - half,
                600.0 + half
            ),
            &[],
        );
        to(&mut b, CLOSE_COMBAT);
        let mut dice = vec![6, 6, 1, 1, 1, 1];
        dice.extend([1; 12]);
        b.script_dice(&dice);
        let ev = b.execute(fight_cmd("a", "b", None, vec![])).unwrap();
        (b, ev)
    };
    let melees = |ev: &[Event]| {
        ev.iter()
            .filter(|e| matches!(e.own(), Some(DessauerEvent::Melee { .. })))
            .count()
    };
    let (b, ev) = run(3.0);
    assert_eq!(melees(&ev), 1, "{ev:?}");
    let p = pursued(&ev);
    assert_eq!(p.len(), 1, "{ev:?}");
    let a = b.unit(&u("a")).unwrap();
    for f in ["f1", "f2"] {
        let d = a.base.distance(&b.unit(&u(f)).unwrap().base);
        assert!(d > 25.4 - 1.0 && d < 30.0, "an inch short of {f}: {d}");
    }
    let (_, ev) = run(1.5);
    assert_eq!(melees(&ev), 2, "{ev:?}");
}

// ----- rulings: charge rate, moving through friends, manoeuvre, pursuit at the phase's end, woods

/// Seed, Rallying: "No visible enemy units able to charge the unit: +2" (ruling charge_rate): an
/// enemy in square, or in combat, may not move and so is not able to charge; a battalion in
/// line within its rate is.
#[test]
fn only_an_enemy_free_to_move_is_able_to_charge() {
    let able = |enemy: &str| {
        let b = battle(
            &format!(
                r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
                   {enemy}"#
            ),
            &[],
        );
        od(&b).enemy_able_to_charge(&b, b.unit(&u("a")).unwrap())
    };
    assert!(able(
        r#"(id: "e", side: 1, type: "Inf", at: (600, 420), facing: 180),"#
    ));
    assert!(!able(
        r#"(id: "e", side: 1, type: "Inf", formation: Square, at: (600, 420), facing: 180),"#
    ));
    assert!(!able(
        r#"(id: "e", side: 1, type: "Inf", at: (600, 420), facing: 180),
           (id: "f", side: 0, type: "Inf", at: (600, 439.05), facing: 180),"#
    ));
    assert!(
        !able(r#"(id: "e", side: 1, type: "Inf", at: (600, 500), facing: 180),"#),
        "beyond its 6 inches"
    );
}

/// Seed, Moving Through Friends: "The other unit must stand still while you move through it"
/// (ruling moving_through): the friend passed through stands for the whole turn. It may not
/// move, change formation or fall back afterwards, and a friend that has moved this turn may
/// not be passed through. Skirmishers pass freely.
#[test]
fn a_friend_moved_through_stands_still_all_turn() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "f", side: 0, type: "Inf", at: (600, 340), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 1100), facing: 180),"#,
        &[],
    );
    let ev = mv(&mut b, "a", vec![Step::Advance(2.9)]).unwrap();
    assert!(ev.iter().any(
        |e| matches!(e, Event::Moved { unit, distance, .. } if unit.as_str() == "a" && (*distance - 5.8).abs() < 0.05)
    ), "{ev:?}");
    assert!(
        !b.unit(&u("f")).unwrap().status.disordered,
        "not intermixed"
    );
    assert!(ev.iter().any(
        |e| matches!(e.own(), Some(DessauerEvent::PassedThrough { unit, friend }) if unit.as_str() == "a" && friend.as_str() == "f")
    ));
    let e = mv(&mut b, "f", vec![Step::Sidestep(1.0)]).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::StandsStillPassedThrough), "{e}");
    let e = b
        .execute(Command::Form {
            unit: u("f"),
            formation: Formation::Column,
            turn: 0.0,
        })
        .unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::StandsStillPassedThrough), "{e}");
    // Next turn it moves again.
    to(&mut b, CLOSE_COMBAT);
    to(&mut b, MOVEMENT);
    to(&mut b, CLOSE_COMBAT);
    to(&mut b, MOVEMENT);
    assert_eq!(b.active, 0);
    mv(&mut b, "f", vec![Step::Sidestep(1.0)]).unwrap();
    // A friend that has moved this turn may not be passed through.
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "f", side: 0, type: "Inf", at: (600, 340), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 1100), facing: 180),"#,
        &[],
    );
    mv(&mut b, "f", vec![Step::Sidestep(0.5)]).unwrap();
    let e = mv(&mut b, "a", vec![Step::Advance(2.9)]).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::FriendMovedMayNotPass), "{e}");
}

/// Seed, Disordered Units: "2) Due to maneuver" (ruling disorder_causes): a formation change
/// that ends among a friend disorders both; one that does not, disorders nobody.
#[test]
fn a_manoeuvre_disorders_only_when_it_ends_among_a_friend() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "f", side: 0, type: "Inf", at: (600, 250), facing: 0),
           (id: "c", side: 0, type: "Inf", at: (200, 300), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (600, 1100), facing: 180),"#,
        &[],
    );
    let form = |b: &mut Game, id: &str| {
        b.execute(Command::Form {
            unit: u(id),
            formation: Formation::Column,
            turn: 0.0,
        })
        .unwrap()
    };
    let ev = form(&mut b, "c");
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Disordered { .. })),
        "{ev:?}"
    );
    let ev = form(&mut b, "a");
    let dis: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Disordered { unit, why } if why.contains("intermixed") => Some(unit.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(dis, vec!["a", "f"], "{ev:?}");
}

/// Ruling pursuit: a combat left unfought when the close combat phase ends is fought then, and
/// its winner pursues as far as the enemy recoiled (two hits to none: two recoil moves).
#[test]
fn a_combat_fought_at_the_phase_end_pursues() {
    let mut b = battle(&TOUCHING, &[]);
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[6, 6, 1, 1, 1, 1, 1, 1]);
    let ev = b.execute(Command::EndPhase).unwrap();
    let p = pursued(&ev);
    assert_eq!(p.len(), 1, "{ev:?}");
    assert_eq!(p[0].0, u("a"));
    assert_eq!(p[0].3, Some(u("b")));
    assert!(
        (p[0].2.centre.y - p[0].1.centre.y - 101.6).abs() < 0.5,
        "two recoil moves: 4 inches"
    );
}

/// Seed, Woods: "Visibility 4. Troops seen at 4 unless they fire" (ruling woods_visibility):
/// measured as wood along the line of sight, a battalion on the wood's edge is seen from the
/// open 7 inches away, one deep inside is not.
#[test]
fn woods_hide_what_is_behind_more_than_4_inches_of_wood() {
    let b = battle(
        r#"(id: "s", side: 0, type: "Inf", at: (1050, 700), facing: 0),
           (id: "t", side: 1, type: "Inf", at: (1050, 910), facing: 180),
           (id: "d", side: 1, type: "Inf", at: (1050, 1100), facing: 180),"#,
        &[],
    );
    let o = od(&b);
    let s = b.unit(&u("s")).unwrap();
    let from = s.base.front_centre();
    assert!(shooting::sight_clear(
        o,
        &b,
        from,
        b.unit(&u("t")).unwrap(),
        s
    ));
    assert!(!shooting::sight_clear(
        o,
        &b,
        from,
        b.unit(&u("d")).unwrap(),
        s
    ));
}

// ----- a recoil turning to face the enemy, and the pursuit after it ----------------------------

/// Seed, Pursuit Moves: "You may pursue as far as the enemy recoils. Another round of combat is
/// fought next turn." A line beaten in its flank turns to face its beater as it recoils: the
/// pursuer follows it to contact with its new front, and it is pursued (double hits next round).
#[test]
fn a_pursuer_follows_a_line_beaten_in_the_flank_to_contact() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (533.325, 600), facing: 90),
           (id: "b", side: 1, type: "Inf", at: (600, 600), facing: 180),"#,
        &[],
    );
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[6, 6, 1, 1, 1, 1, 1, 1]);
    let ev = b.execute(fight_cmd("a", "b", None, vec![])).unwrap();
    let e = b.unit(&u("b")).unwrap().clone();
    assert!(e.alive(), "{ev:?}");
    assert!(
        (e.base.facing - 270.0).abs() < 0.01,
        "b faces a: {:?}",
        e.base
    );
    let p = pursued(&ev);
    assert_eq!(p.len(), 1, "{ev:?}");
    assert_eq!(p[0].3, Some(u("b")), "a follows b into contact: {p:?}");
    let a = b.unit(&u("a")).unwrap();
    // a's front meets b's new front (b is one stand deep, now facing west).
    let b_front = e.base.centre.x - e.base.depth / 2.0;
    let a_front = a.base.centre.x + a.base.depth / 2.0;
    assert!((a_front - b_front).abs() < 1.0, "{a_front} vs {b_front}");
    assert!(!a.base.overlaps(&e.base));
    assert_eq!(e.status.pursued_by, Some(u("a")));
}

/// A column beaten in its flank turns to face its beater: its length now points back at the
/// pursuer, whose move as far as the column's centre went would end on it. The pursuer stops in
/// contact with it, not on it.
#[test]
fn a_pursuer_follows_a_column_beaten_in_the_flank_to_contact_not_onto_it() {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (576.19, 600), facing: 90),
           (id: "b", side: 1, type: "Inf", formation: Column, at: (600, 600), facing: 180),"#,
        &[],
    );
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[6, 6, 1, 1, 1, 1, 1, 1]);
    let ev = b.execute(fight_cmd("a", "b", None, vec![])).unwrap();
    let e = b.unit(&u("b")).unwrap().clone();
    assert!(e.alive(), "{ev:?}");
    assert!(
        (e.base.facing - 270.0).abs() < 0.01,
        "b faces a: {:?}",
        e.base
    );
    let p = pursued(&ev);
    assert_eq!(p.len(), 1, "{ev:?}");
    assert_eq!(p[0].3, Some(u("b")), "{p:?}");
    let a = b.unit(&u("a")).unwrap();
    assert!(!a.base.overlaps(&e.base), "{:?} on {:?}", a.base, e.base);
    let b_front = e.base.centre.x - e.base.depth / 2.0;
    let a_front = a.base.centre.x + a.base.depth / 2.0;
    assert!((a_front - b_front).abs() < 1.0, "{a_front} vs {b_front}");
    assert_eq!(e.status.pursued_by, Some(u("a")));
}

/// Seed, Recoil Moves: "It needs a 2" gap to recoil between enemy units, or it is eliminated. It
/// needs a 1" gap to recoil between friendly units, or the friendly units are disordered." A line
/// beaten in its flank turns where it has room as it goes back: a friend 1.9 inches off its old
/// place is not recoiled through, and an enemy 1.5 inches off does not eliminate it.
#[test]
fn a_recoil_turns_where_it_has_room() {
    let fight = |extra: &str| {
        let mut b = battle(
            &format!(
                r#"(id: "a", side: 0, type: "Inf", at: (533.325, 600), facing: 90),
                   (id: "b", side: 1, type: "Inf", at: (600, 600), facing: 180),
                   {extra}"#
            ),
            &[],
        );
        to(&mut b, CLOSE_COMBAT);
        b.script_dice(&[6, 6, 1, 1, 1, 1, 1, 1]);
        let ev = b.execute(fight_cmd("a", "b", Some(false), vec![])).unwrap();
        (b, ev)
    };
    // A friend behind b: 1.87 inches from b's rear.
    let (b1, ev) = fight(r#"(id: "f", side: 1, type: "Inf", at: (605, 533.3), facing: 180),"#);
    assert!(disordered_by_recoil(&ev).is_empty(), "{ev:?}");
    assert!(!b1.unit(&u("f")).unwrap().status.disordered);
    let e = b1.unit(&u("b")).unwrap();
    assert!(e.alive());
    assert!((e.base.facing - 270.0).abs() < 0.01, "{:?}", e.base);
    // An enemy behind b's old place, 1.5 inches off: b goes back, then turns clear of it.
    let (b2, ev) = fight(
        r#"(id: "c", side: 0, type: "Inf", stands: [3, 3], at: (600, 657.15), facing: 180),"#,
    );
    assert!(!destroyed(&ev, "b"), "{ev:?}");
    let e = b2.unit(&u("b")).unwrap();
    assert!(e.alive());
    assert!((e.base.facing - 270.0).abs() < 0.01, "{:?} {ev:?}", e.base);
    assert!(!e.base.overlaps(&b2.unit(&u("c")).unwrap().base));
    // A wide enemy there that its turn would strike wherever it made it: b survives, going back
    // with its facing kept (ruling recoil).
    let (b3, ev) = fight(r#"(id: "c", side: 0, type: "Inf", at: (620, 657.15), facing: 180),"#);
    assert!(!destroyed(&ev, "b"), "{ev:?}");
    let e = b3.unit(&u("b")).unwrap();
    assert!(e.alive());
    assert_eq!(e.base.facing, 180.0);
    assert!((e.base.centre.x - 701.6).abs() < 0.5, "{:?}", e.base);
}

/// Seed, Movement: "Units in combat may not move, nor may squares"; Square: "Squares may not
/// move". A square that wins its combat holds its ground: it never pursues.
#[test]
fn a_square_never_pursues() {
    let mut b = battle(
        r#"(id: "s", side: 0, type: "Inf", formation: Square, at: (600, 600), facing: 0),
           (id: "e", side: 1, type: "Inf", stands: [3, 3], at: (600, 900), facing: 180),
           (id: "z", side: 1, type: "Inf", at: (100, 1100), facing: 180),"#,
        &[],
    );
    let (sq, eb) = (b.unit(&u("s")).unwrap().base, b.unit(&u("e")).unwrap().base);
    b.units_mut()[1].base.centre.y = sq.centre.y + sq.depth / 2.0 + eb.depth / 2.0;
    assert!(!pursuit::may_pursue(
        od(&b),
        b.unit(&u("s")).unwrap(),
        b.unit(&u("e")).unwrap()
    ));
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[6; 20]);
    let ev = b.execute(fight_cmd("s", "e", None, vec![])).unwrap();
    assert!(
        ev.iter()
            .any(|x| matches!(x, Event::Recoiled { unit, .. } if unit.as_str() == "e")),
        "{ev:?}"
    );
    assert!(pursued(&ev).is_empty(), "{ev:?}");
    assert_eq!(b.unit(&u("s")).unwrap().base, sq);
}

/// Ruling reform: a unit "disordered anew (a friend ending intermixed with it or recoiling
/// through it)" does not reform that turn, though it was disordered already.
#[test]
fn a_disordered_unit_disordered_anew_does_not_reform() {
    // A friend ends intermixed with it.
    let mut b = battle(
        r#"(id: "x", side: 0, type: "Inf", at: (300, 300), facing: 0),
           (id: "y", side: 0, type: "Inf", at: (300, 220), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (700, 1000), facing: 180),"#,
        &[],
    );
    b.units_mut()[0].status.disordered = true;
    b.execute(Command::Move {
        unit: u("y"),
        steps: vec![Step::Advance(3.0)],
    })
    .unwrap();
    to(&mut b, CLOSE_COMBAT);
    let ev = b.execute(Command::EndPhase).unwrap();
    assert!(!steadied(&ev, "x"), "x was intermixed this turn: {ev:?}");
    // A friend recoils through it.
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 319.05), facing: 180),
           (id: "x", side: 0, type: "Inf", at: (600, 280), facing: 0),"#,
        &[],
    );
    b.units_mut()[2].status.disordered = true;
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[1, 1, 1, 1, 6, 6, 6, 6]);
    let ev = b
        .execute(fight_cmd("a", "b", None, vec![Pursuit::hold(&u("b"))]))
        .unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Recoiled { unit, .. } if unit.as_str() == "a")),
        "{ev:?}"
    );
    let ev = b.execute(Command::EndPhase).unwrap();
    assert!(!steadied(&ev, "x"), "a recoiled through x: {ev:?}");
    assert!(b.unit(&u("x")).unwrap().status.disordered);
}

fn rally_factors(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .find_map(|e| match e.own() {
            Some(DessauerEvent::Test {
                test: TestKind::Rally,
                factors,
                ..
            }) => Some(factors.iter().map(|f| f.name.clone()).collect()),
            _ => None,
        })
        .expect("a rally test")
}

/// Seed, Rallying: "No visible enemy units able to charge the unit: +2"; Woods: "Troops seen at
/// 4 inches unless they fire, then seen normally". An enemy deep in the wood that fired in its
/// turn is seen; horse cannot charge a unit in the wood ("Only infantry may enter").
#[test]
fn the_rally_sees_an_enemy_that_fired_and_ignores_horse_that_cannot_enter() {
    let mut b = battle(
        r#"(id: "e", side: 0, type: "Inf", at: (1050, 1090), facing: 180),
           (id: "c", side: 1, type: "Inf", at: (1050, 1040), facing: 0),
           (id: "r", side: 1, type: "Inf", at: (1050, 950), facing: 0, shaken: true),"#,
        &[],
    );
    to(&mut b, FIRING);
    b.script_dice(&[1, 1, 1, 1]);
    b.execute(Command::Fire {
        unit: u("e"),
        target: u("c"),
        support: vec![],
        defence: None,
    })
    .unwrap();
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[1]);
    let ev = b.execute(Command::EndPhase).unwrap();
    let f = rally_factors(&ev);
    assert!(
        !f.iter().any(|n| n.contains("No visible enemy")),
        "e fired, so is seen: {f:?}"
    );
    // Horse 3 inches off, outside the wood: it cannot charge r in the wood.
    let mut b = battle(
        r#"(id: "h", side: 0, type: "HC", at: (1050, 850), facing: 0),
           (id: "r", side: 1, type: "Inf", at: (1050, 950), facing: 0, shaken: true),"#,
        &[],
    );
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[1]);
    let ev = b.execute(Command::EndPhase).unwrap();
    let f = rally_factors(&ev);
    assert!(f.iter().any(|n| n.contains("No visible enemy")), "{f:?}");
}

/// Seed, Pursuit Moves: "If a unit is shattered as a result of its rout hits, you may choose to
/// pursue to the point where it shatters." `b` (12 figures strong, `figures` left) loses by
/// `hits` to none and recoils one move a hit, one rout hit a move: the pursuit.
fn pursue_shattered(stands: &str, lost: u32, dice: &[u8]) -> (Game, Vec<Event>) {
    let units = TOUCHING.replace(
        r#"(id: "b", side: 1, type: "Inf","#,
        &format!(r#"(id: "b", side: 1, type: "Inf", stands: {stands}, figures_lost: {lost},"#),
    );
    let mut b = battle(&units, &[]);
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(dice);
    let ev = b.execute(fight_cmd("a", "b", None, vec![])).unwrap();
    (b, ev)
}

#[test]
fn a_unit_shattered_by_its_rout_hits_is_pursued_to_the_point_where_it_shatters() {
    // 6 of 12 figures; 2 hits leave 4, above a quarter (3); its 2 recoil moves' rout hits
    // shatter it at the first: pursued 2 inches, not the 4 it recoiled, and not into combat.
    let (_, ev) = pursue_shattered("[3, 3]", 6, &[6, 6, 1, 1, 1, 1, 1, 1]);
    let recoil = ev
        .iter()
        .find_map(|e| match e {
            Event::Recoiled { from, to, .. } => Some(to.centre.dist(from.centre)),
            _ => None,
        })
        .expect("b recoils");
    assert!((recoil - 101.6).abs() < 0.5, "two recoil moves: {recoil}");
    let p = pursued(&ev);
    assert_eq!(p.len(), 1, "{ev:?}");
    assert!(
        (p[0].2.centre.dist(p[0].1.centre) - 50.8).abs() < 0.5,
        "to the point where it shattered, 2 inches: {:?}",
        p[0]
    );
    assert_eq!(p[0].3, None);
    // 8 of 12 figures; 4 hits leave 4; its 4 rout hits take the last figure: it is pursued
    // still, to where the first left it shattered.
    let (b, ev) = pursue_shattered("[3, 3, 2]", 4, &[6, 6, 6, 6, 1, 1, 1, 1, 1, 1]);
    assert!(!b.unit(&u("b")).unwrap().alive(), "{ev:?}");
    let p = pursued(&ev);
    assert_eq!(p.len(), 1, "{ev:?}");
    assert!(
        (p[0].2.centre.dist(p[0].1.centre) - 50.8).abs() < 0.5,
        "{:?}",
        p[0]
    );
}

/// Seed, Maneuver: "A unit may form an 'L' or conform itself to terrain features, such a unit
/// may not move until it reforms into a normal line or column." Turned right, an L refuses its
/// right flank (the ruling `l_formation`): of a 4-stand line the two stands right of the front
/// centre stand wheel back to face right, their front flush with the end of the two that keep
/// the line's front; the board draws each stand where it stands. The refused arm shoots to its
/// own front (Firing: "45 degrees to either side of each firing figure's front center"); the
/// other arm cannot see a target off the refused flank.
#[test]
fn an_l_refuses_a_flank_with_its_own_arm() {
    let mut b = battle(
        r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0),
           (id: "s", side: 1, type: "Inf", at: (700, 562), facing: 270),"#,
        &[],
    );
    b.execute(Command::Form {
        unit: u("l"),
        formation: Formation::Conformed,
        turn: 90.0,
    })
    .unwrap();
    let l = b.unit(&u("l")).unwrap();
    let look = od(&b).look(l);
    let facings: Vec<f32> = look.stands.iter().map(|(s, _)| s.facing).collect();
    assert_eq!(facings, vec![0.0, 0.0, 90.0, 90.0]);
    // Stand size: 3 figures at 3/8 inch = 28.575 mm wide, 3/4 inch = 19.05 mm deep.
    let want = [
        (557.1375, 600.0),
        (585.7125, 600.0),
        (590.475, 576.1875),
        (590.475, 547.6125),
    ];
    for ((s, _), (x, y)) in look.stands.iter().zip(want) {
        assert!(
            (s.centre.x - x).abs() < 0.01 && (s.centre.y - y).abs() < 0.01,
            "{:?} should be at ({x}, {y})",
            s.centre
        );
    }
    assert_eq!(
        l.shapes().len(),
        4,
        "the stands stand apart, not as one base"
    );
    // "such a unit may not move until it reforms"
    let e = mv(&mut b, "l", vec![Step::Advance(1.0)]).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::InLMayNotMove), "{e}");
    to(&mut b, FIRING);
    let s = shooting::setup(od(&b), &b, &u("l"), &u("s")).unwrap();
    assert_eq!(
        (s.stands, s.dice),
        (2, 2),
        "the refused arm's two stands shoot"
    );
    // Next turn it reforms into line (the stands gather into the line's frame) and may move.
    to(&mut b, CLOSE_COMBAT);
    to(&mut b, MOVEMENT);
    to(&mut b, CLOSE_COMBAT);
    to(&mut b, MOVEMENT);
    assert_eq!(b.active, 0);
    let e = mv(&mut b, "l", vec![Step::Advance(1.0)]).unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::InLMayNotMove), "{e}");
    // Nor does it take another L without reforming first.
    let e = b
        .execute(Command::Form {
            unit: u("l"),
            formation: Formation::Conformed,
            turn: -90.0,
        })
        .unwrap_err();
    assert_eq!(kind_of(&e), Ok(Refusal::AlreadyInL), "{e}");
    b.execute(Command::Form {
        unit: u("l"),
        formation: Formation::Line,
        turn: 0.0,
    })
    .unwrap();
    let l = b.unit(&u("l")).unwrap();
    assert!(!l.is_loose());
    assert!((l.base.width - 114.3).abs() < 0.01, "{}", l.base.width);
    assert!(od(&b).plan(&b, &[u("l")], &[Step::Advance(1.0)]).is_ok());
}

/// Seed, Eligible Stands in Combat: "If a unit has been placed into an 'L' or similar
/// formation, count the entire 'L'"; an enemy charging the refused arm meets its front: no
/// flank penalty, no free strike, and the L makes its defensive fire (Steady inf. def. fire,
/// regular: +3, so 2 + 3 = 5 points on 4 dice); the L may not pursue, as it may not move. An
/// enemy charging the other arm's open end from
/// behind its front line still attacks a flank.
#[test]
fn a_charge_on_the_refused_arm_meets_a_front_and_the_whole_l_fights() {
    let mut b = battle(
        r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0),
           (id: "c", side: 1, type: "Inf", at: (720, 562), facing: 270),"#,
        &[],
    );
    b.execute(Command::Form {
        unit: u("l"),
        formation: Formation::Conformed,
        turn: 90.0,
    })
    .unwrap();
    to(&mut b, CLOSE_COMBAT);
    to(&mut b, MOVEMENT);
    assert_eq!(b.active, 1);
    let ev = mv(&mut b, "c", vec![Step::ToContact(u("l"))]).unwrap();
    assert!(
        !ev.iter()
            .any(|e| matches!(e.own(), Some(DessauerEvent::FrontalCharge { on: true, .. }))),
        "{ev:?}"
    );
    let l = b.unit(&u("l")).unwrap();
    let c = b.unit(&u("c")).unwrap();
    assert!(
        (c.base.front_centre().x - 600.0).abs() < 0.7,
        "c meets the refused arm's front at x = 600: {:?}",
        c.base.front_centre()
    );
    assert_eq!(
        od(&b).enemies_in_contact(&b, l).len(),
        1,
        "the L is in contact"
    );
    assert!(combat::flank_attackers(od(&b), &b, l).is_empty());
    assert_eq!(combat::dice_count(od(&b), &b, l), 4, "the entire L counts");
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[1; 8]);
    let ev = b.execute(fight_cmd("c", "l", None, vec![])).unwrap();
    let strikes = ev
        .iter()
        .find_map(|e| match e.own() {
            Some(DessauerEvent::Melee { strikes }) => Some(strikes.clone()),
            _ => None,
        })
        .unwrap();
    let ls = strikes
        .iter()
        .find(|s| s.unit.as_str() == "l")
        .expect("the L strikes back in the first round");
    assert_eq!(ls.dice.len(), 4);
    assert_eq!(ls.points, 5, "{:?}", ls.factors);
    let names: Vec<&str> = ls.factors.iter().map(|f| f.name.as_str()).collect();
    assert!(
        names.iter().any(|n| n.contains("defensive fire")),
        "{names:?}"
    );
    assert!(!names.contains(&"Under flank or rear attack"), "{names:?}");
    // Nor does it pursue: it may not move until it reforms.
    let (l, c) = (b.unit(&u("l")).unwrap(), b.unit(&u("c")).unwrap());
    assert!(!pursuit::may_pursue(od(&b), l, c));
    assert!(pursuit::may_pursue(od(&b), c, l));

    // The open end of the arm that kept the front is still a flank.
    let mut b = battle(
        r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0),
           (id: "f", side: 1, type: "Inf", stands: [3, 3], at: (440, 600), facing: 90),"#,
        &[],
    );
    b.execute(Command::Form {
        unit: u("l"),
        formation: Formation::Conformed,
        turn: 90.0,
    })
    .unwrap();
    to(&mut b, CLOSE_COMBAT);
    to(&mut b, MOVEMENT);
    mv(&mut b, "f", vec![Step::ToContact(u("l"))]).unwrap();
    let l = b.unit(&u("l")).unwrap();
    assert_eq!(combat::flank_attackers(od(&b), &b, l), vec![u("f")]);
}

/// Turned left, the L refuses its left flank; ahead, the unit conforms to the ground in its
/// line's place (the ruling `l_formation`).
#[test]
fn an_l_refuses_the_left_flank_or_conforms_in_place() {
    let mut b = battle(
        r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0),"#,
        &[],
    );
    let mut c = b.fork();
    b.execute(Command::Form {
        unit: u("l"),
        formation: Formation::Conformed,
        turn: -90.0,
    })
    .unwrap();
    let l = b.unit(&u("l")).unwrap();
    let stands = od(&b).look(l).stands;
    let facings: Vec<f32> = stands.iter().map(|(s, _)| s.facing).collect();
    assert_eq!(facings, vec![270.0, 270.0, 0.0, 0.0]);
    // Stand 2 is nearest the corner, stand 1 farthest back; the refused front at x = 600.
    assert!((stands[1].0.centre.x - 609.525).abs() < 0.01);
    assert!((stands[1].0.centre.y - 576.1875).abs() < 0.01);
    assert!((stands[0].0.centre.y - 547.6125).abs() < 0.01);
    c.execute(Command::Form {
        unit: u("l"),
        formation: Formation::Conformed,
        turn: 0.0,
    })
    .unwrap();
    let l = c.unit(&u("l")).unwrap();
    assert!(!l.is_loose());
    assert!((l.base.width - 114.3).abs() < 0.01 && l.base.facing == 0.0);
}

/// Seed, Firing: "A dense target is a unit two or more stands deep, or enfiladed at 22.5 degrees
/// onto its flank." Guns shooting straight at an L's refused arm shoot at its front, not along
/// the other arm's frontage: 1 die a gun, 2 guns (the ruling `l_formation`).
#[test]
fn an_l_shot_at_its_refused_front_is_not_enfiladed() {
    let mut b = battle(
        r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0),
           (id: "g", side: 1, type: "Gun", at: (1000, 562), facing: 270),"#,
        &[],
    );
    b.execute(Command::Form {
        unit: u("l"),
        formation: Formation::Conformed,
        turn: 90.0,
    })
    .unwrap();
    to(&mut b, CLOSE_COMBAT);
    to(&mut b, FIRING);
    assert_eq!(b.active, 1);
    assert_eq!(
        shooting::setup(od(&b), &b, &u("g"), &u("l")).unwrap().dice,
        2
    );
}

/// Seed, Recoil Moves: "A unit retreats 2" per recoil move, facing the enemy". An L beaten by an
/// enemy at its refused arm's front already faces it: it goes back 2 inches straight away from
/// that enemy keeping its facing, its stands still in their L (the ruling `l_formation`).
#[test]
fn an_l_beaten_at_its_refused_front_recoils_as_it_stands() {
    let mut b = battle(
        r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0),
           (id: "c", side: 1, type: "Inf", at: (720, 562), facing: 270),"#,
        &[],
    );
    b.execute(Command::Form {
        unit: u("l"),
        formation: Formation::Conformed,
        turn: 90.0,
    })
    .unwrap();
    to(&mut b, CLOSE_COMBAT);
    to(&mut b, MOVEMENT);
    mv(&mut b, "c", vec![Step::ToContact(u("l"))]).unwrap();
    to(&mut b, CLOSE_COMBAT);
    let fc = fight_cmd("c", "l", Some(false), vec![]);
    // The L's 4 dice miss, one of c's hits (needs 6): one recoil move and one rout hit, two
    // figures lost from the last stand.
    b.script_dice(&[1, 1, 1, 1, 6, 1, 1, 1]);
    let ev = b.execute(fc).unwrap();
    let r = ev
        .iter()
        .find_map(|e| match e {
            Event::Recoiled { unit, to, .. } if unit.as_str() == "l" => Some(*to),
            _ => None,
        })
        .expect("the L recoils");
    assert_eq!(r.facing, 0.0, "it keeps its facing: {ev:?}");
    let from = ev
        .iter()
        .find_map(|e| match e {
            Event::Recoiled { unit, from, .. } if unit.as_str() == "l" => Some(*from),
            _ => None,
        })
        .unwrap();
    assert!(
        (from.centre.x - r.centre.x - 50.8).abs() < 0.1 && (from.centre.y - r.centre.y).abs() < 0.1,
        "one recoil move of 2 inches straight away from c: {from:?} to {r:?}"
    );
    let l = b.unit(&u("l")).unwrap();
    let facings: Vec<f32> = od(&b)
        .look(l)
        .stands
        .iter()
        .map(|(s, _)| s.facing)
        .collect();
    assert_eq!(facings, vec![0.0, 0.0, 90.0, 90.0]);
}

/// Seed: "you may choose to pursue": the winner's owner chooses. The side that fights orders
/// its own winners; the other side's winners follow their owner's standing order, given in his
/// own turn, and the preview offers the moving player no choice for them.
#[test]
fn the_other_sides_winner_follows_its_owners_standing_order() {
    let mut b = battle(&TOUCHING, &[]);
    to(&mut b, CLOSE_COMBAT);
    let b_wins = [1, 1, 1, 1, 6, 6, 6, 6, 1, 1, 1, 1];
    let run = |b: &Game, c: Command| {
        let mut x = b.clone();
        x.script_dice(&b_wins);
        pursued(&x.execute(c).unwrap())
    };
    let by_b = |p: &[(
        UnitId,
        volley::rules::geometry::Base,
        volley::rules::geometry::Base,
        Option<UnitId>,
    )]| p.iter().any(|x| x.0 == u("b"));
    assert!(
        by_b(&run(&b, fight_cmd("a", "b", None, vec![]))),
        "b pursues by default"
    );
    assert!(
        by_b(&run(&b, fight_cmd("a", "b", Some(false), vec![]))),
        "the moving side's 'hold' is not b's owner's order"
    );
    let o = b
        .rules
        .preview(&b, &fight_cmd("a", "b", None, vec![]))
        .unwrap();
    assert!(
        !o.choices.iter().any(|c| c.label.starts_with("b ")),
        "{:?}",
        o.choices
    );
    // b's owner ordered it to hold its ground.
    let mut held = b.clone();
    held.units_mut()[1].status.hold_ground = true;
    assert!(!by_b(&run(&held, fight_cmd("a", "b", None, vec![]))));
    // The order is given by the unit's owner: a's owner may give it now, not b's.
    let e = b
        .execute(Command::PursuitOrder {
            unit: u("b"),
            pursue: false,
        })
        .unwrap_err();
    assert!(matches!(e, RuleError::NotYourUnit(_)), "{e}");
    b.execute(Command::PursuitOrder {
        unit: u("a"),
        pursue: false,
    })
    .unwrap();
    assert!(b.unit(&u("a")).unwrap().status.hold_ground);
}

/// The L's refused arm is a rules number in the data file beside its ruling (`l_refused_share`,
/// half the stands rounded down: the stands beyond the front centre stand); a data file without
/// it, or with a share that leaves an arm empty, is refused at load, never read as 0.
#[test]
fn the_l_refused_share_is_a_required_number() {
    use volley::rules::ruleset::old_dessauer::{DATA, layout};
    let line = DATA
        .lines()
        .find(|l| l.contains("key: \"l_refused_share\""))
        .expect("the data file gives the L's refused share");
    assert!(line.contains("value: 0.5") && line.contains("ruling l_formation"));
    let e = OldDessauer::from_ron(&DATA.replace(line, "")).unwrap_err();
    assert!(e.contains("l_refused_share"), "{e}");
    let e = OldDessauer::from_ron(&DATA.replace(
        "value: 0.5, source: \"ruling l_formation",
        "value: 0, source: \"ruling l_formation",
    ))
    .unwrap_err();
    assert!(e.contains("L refuses"), "{e}");
    let od = OldDessauer::load().unwrap();
    let counts: Vec<usize> = (2..=7).map(|n| layout::refused_count(&od, n)).collect();
    assert_eq!(counts, vec![1, 1, 2, 2, 3, 3]);
    // A third would refuse 1 stand of 4 and 2 of 6.
    let third = OldDessauer::from_ron(&DATA.replace(
        "value: 0.5, source: \"ruling l_formation",
        "value: 0.34, source: \"ruling l_formation",
    ))
    .unwrap();
    assert_eq!(
        (
            layout::refused_count(&third, 4),
            layout::refused_count(&third, 6)
        ),
        (1, 2)
    );
}

/// A scenario may start a unit in an L: `refused: Right` (or `Left`) on a unit whose `at` and
/// `facing` are those of the line it formed from stands exactly as `Form(Conformed, turn: 90)`
/// would leave it (the ruling `l_formation`), and may not move until it reforms. `volley check`
/// refuses an L that is not a line of two or more foot or horse stands, with the unit's place.
#[test]
fn a_scenario_may_start_a_unit_in_an_l() {
    for (flank, turn) in [("Right", 90.0), ("Left", -90.0)] {
        let mut formed = battle(
            r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0),"#,
            &[],
        );
        formed
            .execute(Command::Form {
                unit: u("l"),
                formation: Formation::Conformed,
                turn,
            })
            .unwrap();
        let mut b = battle(
            &format!(
                r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0, refused: Some({flank})),"#
            ),
            &[],
        );
        let (want, got) = (formed.unit(&u("l")).unwrap(), b.unit(&u("l")).unwrap());
        assert_eq!(got.formation, Formation::Conformed);
        let (w, g) = (want.loose_bases(), got.loose_bases());
        assert_eq!(g.len(), 4);
        for (x, y) in w.iter().zip(&g) {
            assert!(
                x.centre.dist(y.centre) < 0.01 && (x.facing - y.facing).abs() < 0.01,
                "{flank}: {x:?} / {y:?}"
            );
        }
        let e = mv(&mut b, "l", vec![Step::Advance(1.0)]).unwrap_err();
        assert_eq!(kind_of(&e), Ok(Refusal::InLMayNotMove), "{e}");
    }
    // Refused combinations, each at its unit's line in the file.
    for (unit, says) in [
        (
            r#"(id: "g", side: 0, type: "Gun", at: (600, 600), refused: Some(Left)),"#,
            "cannot form an L",
        ),
        (
            r#"(id: "c", side: 0, type: "Inf", at: (600, 600), formation: Some(Column), refused: Some(Left)),"#,
            "formed from a line",
        ),
        (
            r#"(id: "s", side: 0, type: "Inf", stands: Some([3]), at: (600, 600), refused: Some(Right)),"#,
            "at least 2 stands",
        ),
        (
            r#"(id: "e", side: 0, type: "Inf", at: (600, 20), facing: 0, refused: Some(Right)),"#,
            "off the table",
        ),
    ] {
        let text = format!(
            "(name: \"t\", ruleset: \"old_dessauer\", table: (width: 1219.0, height: 1219.0), turn_limit: 20,\n sides: [(name: \"A\", colour: (0, 0, 200)), (name: \"B\", colour: (200, 0, 0))],\n units: [\n {unit}\n])"
        );
        let Err(d) = scenario::parse(&text, "t.ron") else {
            panic!("{unit} should be refused");
        };
        assert!(d[0].message.contains(says), "{unit}: {:?}", d);
        assert_eq!(d[0].line, 4, "{d:?}");
    }
    // Another ruleset has no L.
    let text = r#"(name: "t", ruleset: "db7yw", table: (width: 1000, height: 1000), turn_limit: 20,
        sides: [(name: "A", colour: (0, 0, 200)), (name: "B", colour: (200, 0, 0))],
        units: [(id: "m", side: 0, type: "Ms", at: Some((500, 500)), refused: Some(Left))])"#;
    let Err(d) = scenario::parse(text, "t.ron") else {
        panic!("DB7YW has no L");
    };
    assert!(d[0].message.contains("'refused'"), "{d:?}");
}

/// Losses from an L (the ruling `casualties`): the seed leaves the grouping of figures free ("the
/// rules do not depend on a particular physical grouping of the figures"), so an L keeps its
/// arms: an L of 4 loses a refused stand, then a front one, then the last refused one, alike
/// whichever flank it refused; the stands left stand where they stood.
#[test]
fn an_l_loses_stands_keeping_both_arms() {
    for (turn, after_one, after_two) in [
        (90.0, vec![0.0, 0.0, 90.0], vec![0.0, 90.0]),
        (-90.0, vec![270.0, 0.0, 0.0], vec![270.0, 0.0]),
    ] {
        let mut b = battle(
            r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0),"#,
            &[],
        );
        b.execute(Command::Form {
            unit: u("l"),
            formation: Formation::Conformed,
            turn,
        })
        .unwrap();
        let before = b.unit(&u("l")).unwrap().loose_bases();
        let r = od(&b).clone();
        let facings = |b: &Game| -> Vec<f32> {
            b.unit(&u("l"))
                .unwrap()
                .loose_bases()
                .iter()
                .map(|s| s.facing)
                .collect()
        };
        let mut out = Vec::new();
        r.take_losses(&mut b, &mut out, &u("l"), 3, "test").unwrap();
        assert_eq!(facings(&b), after_one, "{turn}: {out:?}");
        r.take_losses(&mut b, &mut out, &u("l"), 3, "test").unwrap();
        assert_eq!(facings(&b), after_two, "{turn}: {out:?}");
        // The two left are the corner's stands, where they stood.
        let l = b.unit(&u("l")).unwrap();
        assert!(layout_is_l(l));
        for s in l.loose_bases() {
            assert!(
                before.iter().any(|x| x.centre.dist(s.centre) < 0.01),
                "{turn}: {s:?} stood in the L"
            );
        }
        // A figure more comes off the refused stand left: no share of a last two.
        r.take_losses(&mut b, &mut out, &u("l"), 1, "test").unwrap();
        let figs: Vec<u32> = b
            .unit(&u("l"))
            .unwrap()
            .stands
            .iter()
            .map(|s| s.figures)
            .collect();
        assert_eq!(
            figs,
            if turn > 0.0 { vec![3, 2] } else { vec![2, 3] },
            "{turn}"
        );
    }
}

fn layout_is_l(l: &volley::rules::model::Unit) -> bool {
    volley::rules::ruleset::old_dessauer::layout::is_l(l)
}

/// A pursuit meets an L at its arms' stands, not at the box round them: c, pursuing e 2 inches,
/// runs toward the inside of an enemy L it may not charge (e did not recoil through it) and
/// stops an inch short of the refused arm's back, not an inch short of the empty corner of
/// the box round both arms, which it starts 3 mm from (the ruling `pursuit`).
#[test]
fn a_pursuit_toward_an_l_meets_its_arms_not_its_box() {
    let mut b = battle(
        r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0, refused: Some(Right)),
           (id: "e", side: 0, type: "Inf", stands: [1, 1], at: (549.525, 500), facing: 270),
           (id: "c", side: 1, type: "Inf", at: (500, 507), facing: 90),"#,
        &[],
    );
    let l = b.unit(&u("l")).unwrap();
    let box_left = l.base.centre.x - l.base.width / 2.0;
    let arm_back = l
        .loose_bases()
        .iter()
        .filter(|s| s.facing == 90.0)
        .map(|s| s.centre.x - s.depth / 2.0)
        .fold(f32::MAX, f32::min);
    assert!((box_left - 543.0).abs() < 0.5 && (arm_back - 581.0).abs() < 0.5);
    to(&mut b, CLOSE_COMBAT);
    to(&mut b, MOVEMENT);
    assert_eq!(b.active, 1);
    mv(&mut b, "c", vec![Step::ToContact(u("e"))]).unwrap();
    assert!((b.unit(&u("c")).unwrap().base.front_centre().x - 540.0).abs() < 0.5);
    to(&mut b, CLOSE_COMBAT);
    // e's half-strength stands strike no dice; c hits once with 6s: e recoils 2 inches.
    b.script_dice(&[6, 1, 1, 1]);
    let ev = b.execute(fight_cmd("c", "e", None, vec![])).unwrap();
    let p = pursued(&ev);
    assert_eq!(p.len(), 1, "{ev:?}");
    let front = p[0].2.centre.x + p[0].2.depth / 2.0;
    assert!(
        (front - (arm_back - 25.4)).abs() < 1.0,
        "c's front stops an inch short of the refused arm at {arm_back}: {front}"
    );
}

/// Forming an L is one step and one line in the log (its stands wheel back as it takes the
/// formation); unlimbering is one step and one line too, the guns standing in line at once.
#[test]
fn forming_an_l_and_unlimbering_each_log_one_line() {
    use volley::text::report::describe;
    let mut b = battle(
        r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0),
           (id: "g", side: 0, type: "Gun", at: (300, 300), facing: 0, limbered: true),"#,
        &[],
    );
    let ev = b
        .execute(Command::Form {
            unit: u("l"),
            formation: Formation::Conformed,
            turn: 90.0,
        })
        .unwrap();
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(
        describe(&b, &ev[0]),
        "l forms an L refusing its right flank: 2 stand(s) wheel back to face it"
    );
    let l = b.unit(&u("l")).unwrap();
    assert_eq!(l.formation, Formation::Conformed);
    assert!(l.bound.formed && l.bound.spent > 2.9, "{:?}", l.bound);
    assert_eq!(l.shapes().len(), 4);
    let ev = b.execute(Command::Unlimber { unit: u("g") }).unwrap();
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(describe(&b, &ev[0]), "g unlimbers in line");
    let g = b.unit(&u("g")).unwrap();
    assert!(!g.status.limbered && g.formation == Formation::Line);
    assert!(
        g.bound.formed && g.bound.used() >= 8.0 - 0.01,
        "{:?}",
        g.bound
    );
    // A save replays to the same units.
    let text = volley::rules::save::to_string(&b).unwrap();
    let again = volley::rules::save::parse(&text, "save.ron").unwrap();
    for id in ["l", "g"] {
        let (x, y) = (b.unit(&u(id)).unwrap(), again.unit(&u(id)).unwrap());
        assert_eq!(
            (x.formation, x.status.limbered, x.loose_bases()),
            (y.formation, y.status.limbered, y.loose_bases())
        );
    }
}

/// Seed, Pursuit Moves: "If the enemy recoiled through a friend ... the pursuing unit charges
/// into the new target(s)". Whether it did is judged along the way it went: e, beaten in its
/// left flank by c, goes back 2 inches keeping its facing until its turn to face c no longer
/// sweeps f1 (behind it) or f2 (beside it), and turns there (the ruling `recoil`). Turned
/// from the start it would have swept f2, but it went past f2 still facing ahead, so c, following
/// it, runs into f2 without charging it: it stops an inch short of f2 (the ruling `pursuit`).
#[test]
fn a_pursuit_charges_a_friend_only_if_the_recoil_went_through_it_as_moved() {
    let mut b = battle(
        r#"(id: "e", side: 0, type: "Inf", at: (600, 600), facing: 0),
           (id: "f2", side: 0, type: "Inf", stands: [3], at: (605, 624.5), facing: 0),
           (id: "f1", side: 0, type: "Inf", stands: [3], at: (570, 556), facing: 0),
           (id: "c", side: 1, type: "Inf", stands: [3, 3], at: (499.3, 600), facing: 90),"#,
        &[],
    );
    to(&mut b, CLOSE_COMBAT);
    to(&mut b, MOVEMENT);
    assert_eq!(b.active, 1);
    mv(&mut b, "c", vec![Step::ToContact(u("e"))]).unwrap();
    to(&mut b, CLOSE_COMBAT);
    b.script_dice(&[6, 1, 1, 1, 1, 1, 1, 1]);
    let ev = b.execute(fight_cmd("c", "e", None, vec![])).unwrap();
    let (from, to_) = ev
        .iter()
        .find_map(|x| match x {
            Event::Recoiled { unit, from, to, .. } if unit.as_str() == "e" => Some((*from, *to)),
            _ => None,
        })
        .expect("e recoils");
    assert_eq!(to_.facing, 270.0, "e turned to face c: {ev:?}");
    assert!((to_.centre.x - from.centre.x - 50.8).abs() < 0.5, "{to_:?}");
    let melees = ev
        .iter()
        .filter(|x| matches!(x.own(), Some(DessauerEvent::Melee { .. })))
        .count();
    assert_eq!(melees, 1, "c fights no fresh round with f2: {ev:?}");
    let p = pursued(&ev);
    assert_eq!(p.len(), 1, "{ev:?}");
    let front = p[0].2.centre.x + p[0].2.depth / 2.0;
    let f2_left = 605.0 - 28.575 / 2.0;
    assert!(
        (front - (f2_left - 25.4)).abs() < 1.0,
        "c stops an inch short of f2: front {front}"
    );
    assert!(!b.unit(&u("f2")).unwrap().status.disordered);
}

/// Seed, Regimental Guns: "A regt. gun has a parent unit, and must always touch the parent." A
/// regiment that changes formation keeps its gun touching it, on the same side: one at the
/// right of a line closes up to the column's right, one in front of a line stays in front of
/// the column's head, one at the right of a line that forms an L refusing its right stays by
/// the refused arm.
#[test]
fn a_regimental_gun_keeps_touching_its_parent_through_formation_changes() {
    let eps = 0.2;
    for (gun, formation, turn, side) in [
        ("(666.675, 300)", Formation::Column, 0.0, "right"),
        ("(600, 319.05)", Formation::Column, 0.0, "front"),
        ("(666.675, 300)", Formation::Conformed, 90.0, "refused arm"),
        ("(666.675, 300)", Formation::Line, 180.0, "about"),
    ] {
        let mut b = battle(
            &format!(
                r#"(id: "p", side: 0, type: "Inf", at: (600, 300), facing: 0),
                   (id: "rg", side: 0, type: "RG", parent: "p", at: {gun}, facing: 0),"#
            ),
            &["regimental_guns"],
        );
        b.execute(Command::Form {
            unit: u("p"),
            formation,
            turn,
        })
        .unwrap();
        let p = b.unit(&u("p")).unwrap();
        let g = b.unit(&u("rg")).unwrap();
        let d = p
            .shapes()
            .iter()
            .map(|s| g.base.distance(s))
            .fold(f32::MAX, f32::min);
        assert!(
            d <= eps,
            "{side}: the gun is {d} mm off its parent: {:?}",
            g.base
        );
        assert!(
            !p.shapes().iter().any(|s| s.overlaps(&g.base)),
            "{side}: the gun stands on its parent"
        );
        match side {
            "right" => assert!(g.base.centre.x > p.base.centre.x + p.base.width / 2.0),
            "front" => assert!(g.base.centre.y > p.base.centre.y + p.base.depth / 2.0),
            _ => {}
        }
    }
}

/// Seed, Recoil Moves: "It needs a 1" gap to recoil between friendly units, or the friendly
/// units are disordered", and Disordered Units: "If a friend recoils through the unit". An L
/// (the ruling `l_formation`) recoils as its stands, carried along in their L: a friend in the
/// open corner of the box round its two arms, which no stand passes over, is not recoiled
/// through, and the L goes straight back.
#[test]
fn an_l_recoils_by_its_stands_not_the_box_round_its_arms() {
    let mut b = battle(
        r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0),
           (id: "f", side: 0, type: "Inf", at: (470, 560), facing: 0),
           (id: "c", side: 1, type: "Inf", at: (720, 562), facing: 270),"#,
        &[],
    );
    b.execute(Command::Form {
        unit: u("l"),
        formation: Formation::Conformed,
        turn: 90.0,
    })
    .unwrap();
    // Two inches straight back (away from c, to -x): the box would cover f, no stand does.
    let l = b.unit(&u("l")).unwrap().clone();
    let f = b.unit(&u("f")).unwrap().base;
    let back = |s: &Base| Base {
        centre: Pt {
            x: s.centre.x - 50.8,
            y: s.centre.y,
        },
        ..*s
    };
    assert!(back(&l.base).overlaps(&f), "the box would pass over f");
    assert!(
        l.shapes().iter().all(|s| !back(s).overlaps(&f)),
        "no stand passes over f: {:?} {:?} {:?}",
        l.base,
        l.shapes(),
        f
    );
    to(&mut b, CLOSE_COMBAT);
    to(&mut b, MOVEMENT);
    mv(&mut b, "c", vec![Step::ToContact(u("l"))]).unwrap();
    to(&mut b, CLOSE_COMBAT);
    let fc = fight_cmd("c", "l", Some(false), vec![]);
    b.script_dice(&[1, 1, 1, 1, 6, 1, 1, 1]);
    let ev = b.execute(fc).unwrap();
    let (from, r) = ev
        .iter()
        .find_map(|e| match e {
            Event::Recoiled { unit, from, to, .. } if unit.as_str() == "l" => Some((*from, *to)),
            _ => None,
        })
        .expect("the L recoils");
    assert!(
        (from.centre.x - r.centre.x - 50.8).abs() < 0.1 && (from.centre.y - r.centre.y).abs() < 0.1,
        "straight back 2 inches, f not in its way: {from:?} to {r:?}; {ev:?}"
    );
    assert!(
        !b.unit(&u("f")).unwrap().status.disordered,
        "f is not recoiled through: {ev:?}"
    );
}

/// Seed, Rallying: "No visible enemy units able to charge the unit: +2". The distance is
/// measured to an L's stands, not to the box round its two arms: an enemy within its charge
/// of the box's empty corner but beyond it from every stand is not able to charge the L.
#[test]
fn an_enemy_able_to_charge_an_l_is_measured_to_its_stands() {
    let mut b = battle(
        r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (385.8, 423.5), facing: 0),"#,
        &[],
    );
    b.execute(Command::Form {
        unit: u("l"),
        formation: Formation::Conformed,
        turn: 90.0,
    })
    .unwrap();
    let l = b.unit(&u("l")).unwrap();
    let e = b.unit(&u("e")).unwrap();
    let rate = 6.0 * 25.4;
    assert!(e.base.within(&l.base, rate), "within a charge of the box");
    assert!(
        l.shapes().iter().all(|s| !e.base.within(s, rate)),
        "beyond a charge of every stand"
    );
    assert!(!od(&b).enemy_able_to_charge(&b, l));
    // Nearer, the same enemy is within a charge of the refused arm's stands.
    let mut b2 = battle(
        r#"(id: "l", side: 0, type: "Inf", at: (600, 600), facing: 0),
           (id: "e", side: 1, type: "Inf", at: (445.8, 453.5), facing: 0),"#,
        &[],
    );
    b2.execute(Command::Form {
        unit: u("l"),
        formation: Formation::Conformed,
        turn: 90.0,
    })
    .unwrap();
    assert!(od(&b2).enemy_able_to_charge(&b2, b2.unit(&u("l")).unwrap()));
}
