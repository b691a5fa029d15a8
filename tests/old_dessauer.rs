//! Old Dessauer: the seed's two worked examples through `volley run`, a case per modifier and
//! table row, movement, shooting, morale, and the scenarios played to a result.

use std::process::Command as Proc;
use volley::rules::battle::Battle;
use volley::rules::command::{Command, Event, RuleError, Step, TestKind};
use volley::rules::model::{Formation, Phase, UnitId};
use volley::rules::ruleset::AnyRuleset;
use volley::rules::ruleset::old_dessauer::{OldDessauer, combat, shooting};
use volley::rules::scenario;

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
/// words.
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
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(golden);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &got).unwrap();
        }
        assert_eq!(got, std::fs::read_to_string(&path).unwrap(), "{golden}");
    }
}

// ----- a small table to test single rules on ------------------------------------------------

/// A battle from unit lines (RON) and optional rules.
fn battle(units: &str, options: &[&str]) -> Battle {
    let opts: Vec<String> = options.iter().map(|o| format!("\"{o}\"")).collect();
    let text = format!(
        r#"(name: "t", ruleset: "old_dessauer", table: (width: 1219.0, height: 1219.0), turn_limit: 20,
        options: [{}],
        terrain: [
            (id: "wood", kind: Woods, points: [(900, 900), (1200, 900), (1200, 1200), (900, 1200)]),
            (id: "town", kind: Town, points: [(20, 900), (200, 900), (200, 1100), (20, 1100)]),
        ],
        sides: [(name: "A", colour: (0, 0, 200)), (name: "B", colour: (200, 0, 0))],
        units: [{units}])"#,
        opts.join(",")
    );
    scenario::parse(&text, "t.ron").unwrap_or_else(|e| panic!("{e:?}"))
}

fn od(b: &Battle) -> &OldDessauer {
    match &b.rules {
        AnyRuleset::OldDessauer(r) => r,
        _ => panic!("an Old Dessauer battle"),
    }
}

fn u(id: &str) -> UnitId {
    UnitId(id.into())
}

fn to(b: &mut Battle, phase: Phase) {
    while b.phase != phase {
        b.execute(Command::EndPhase).unwrap();
    }
}

fn points(b: &Battle, a: &str, e: &str, first: bool) -> i32 {
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
    b.units[0].status.disordered = true;
    assert_eq!(points(&b, "a", "b", false), base - 1, "disordered -1");
    b.units[0].status.disordered = false;
    b.units[0].status.shaken = true;
    assert_eq!(points(&b, "a", "b", false), base - 2, "shaken -2");
    b.units[0].status.shaken = false;
    b.units[0].flags.push(volley::rules::model::Flag::Grenadier);
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
    to(&mut b, Phase::Firing);
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
    to(&mut b, Phase::Firing);
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
    to(&mut b, Phase::Firing);
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
    to(&mut b, Phase::Firing);
    let err = |b: &Battle, s: &str, t: &str| {
        shooting::setup(od(b), b, &u(s), &u(t))
            .unwrap_err()
            .to_string()
    };
    assert!(err(&b, "cav", "e").contains("cavalry may not shoot"));
    assert!(err(&b, "sh", "e").contains("shaken"));
    assert!(
        err(&b, "far", "e2").contains("out of range"),
        "{}",
        err(&b, "far", "e2")
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
    to(&mut b, Phase::Firing);
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
    to(&mut b, Phase::Firing);
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
    to(&mut b, Phase::Firing);
    let e = shooting::setup(od(&b), &b, &u("a"), &u("b"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("blocked"), "{e}");
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", stands: [3], at: (600, 300), facing: 0),
           (id: "g", side: 1, type: "Gun", at: (600, 340), facing: 180),
           (id: "b", side: 1, type: "Inf", at: (600, 390), facing: 180),"#,
        &[],
    );
    to(&mut b, Phase::Firing);
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
    assert!(
        od(&b)
            .plan(&b, &[u("a")], &[Step::Advance(1.0)])
            .unwrap_err()
            .to_string()
            .contains("squares may not move")
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
        .unwrap_err()
        .to_string();
    assert!(e.contains("zone of control"), "{e}");
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
        let t = &mut b.units[1].base;
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
    let e = charge(2.5).unwrap_err().to_string();
    assert!(
        e.contains("final 4 inches of a charge must be straight"),
        "{e}"
    );
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
        .unwrap_err()
        .to_string();
    assert!(e.contains("only infantry"), "{e}");
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
fn shot_at(dice: &[u8]) -> (Battle, Vec<Event>) {
    let mut b = battle(
        r#"(id: "a", side: 0, type: "Inf", at: (600, 300), facing: 0),
           (id: "b", side: 1, type: "Inf", at: (600, 395.25), facing: 180),"#,
        &[],
    );
    to(&mut b, Phase::Firing);
    b.script_dice(dice);
    b.execute(Command::Fire {
        unit: u("a"),
        target: u("b"),
        support: vec![],
    })
    .unwrap();
    let ev = b.execute(Command::EndPhase).unwrap();
    (b, ev)
}

#[test]
fn morale_test_against_shooting_by_grade_and_hits() {
    // A regular battalion takes 1 hit: it needs 2-6, +1 for the hit: 3-6.
    let (b, ev) = shot_at(&[5, 1, 1, 1, 2]);
    let t = ev.iter().find_map(|e| match e {
        Event::Test {
            test: TestKind::Morale,
            need,
            die,
            passed,
            ..
        } => Some((*need, *die, *passed)),
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
    b.units[1].extra.strength = 16;
    to(&mut b, Phase::CloseCombat);
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
    to(&mut b, Phase::CloseCombat);
    let ev = b.execute(Command::EndPhase).unwrap();
    let t = ev.iter().find_map(|e| match e {
        Event::Test {
            test: TestKind::Rally,
            need,
            passed,
            ..
        } => Some((*need, *passed)),
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
    to(&mut b, Phase::Firing);
    let e = shooting::setup(od(&b), &b, &u("g"), &u("e"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("guns may not move and shoot"), "{e}");
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
    to(&mut b, Phase::CloseCombat);
    // Def fire die 6: crack 6 - 1 = 5.
    b.script_dice(&[6, 1, 1, 1, 1, 1, 1, 1, 1]);
    let ev = b
        .execute(Command::Fight {
            unit: u("a"),
            target: u("b"),
            pursue: None,
        })
        .unwrap();
    let Some(Event::Melee { strikes }) = ev.iter().find(|e| matches!(e, Event::Melee { .. }))
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

/// A unit out of command that fails its test to charge halts, but may still shoot as one that
/// stood.
#[test]
fn a_halted_unit_still_shoots() {
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
        ev.as_slice(),
        [Event::Test {
            test: TestKind::Command,
            passed: false,
            ..
        }]
    ));
    assert!(
        b.execute(Command::Move {
            unit: u("a"),
            steps: vec![Step::Advance(0.5)]
        })
        .is_err()
    );
    to(&mut b, Phase::Firing);
    let s = shooting::setup(od(&b), &b, &u("a"), &u("e")).unwrap();
    assert_eq!((s.dice, s.need), (4, 5));
}

#[test]
fn scenarios_play_to_a_result_through_volley_run() {
    use volley::rules::autoplay::AutoPlayer;
    for file in ["scenarios/lobosch_1756.ron", "scenarios/od_tutorial.ron"] {
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

fn stands_of(b: &Battle, id: &str) -> Vec<volley::rules::geometry::Base> {
    volley::rules::ruleset::old_dessauer::stand_bases(od(b), b.unit(&u(id)).unwrap())
}

fn move_stand(b: &mut Battle, id: &str, stand: usize, step: Step) -> Result<Vec<Event>, String> {
    b.execute(Command::MoveStand {
        unit: u(id),
        stand,
        steps: vec![step],
    })
    .map_err(|e| e.to_string())
}

/// A move the unit has no allowance left for.
fn too_far(r: Result<Vec<Event>, RuleError>) -> bool {
    matches!(r, Err(RuleError::TooFar { .. }))
}

fn advance(b: &mut Battle, id: &str, step: Step) -> Result<Vec<Event>, RuleError> {
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
    assert!(e.ends_with("inches of 0.0"), "{e}");
    move_stand(&mut b, "s", 4, Step::Sidestep(1.0)).unwrap();
    // Skirmishers sidestep at the full rate: 1 inch costs 1.
    assert!((b.unit(&u("s")).unwrap().bound.stand_spent[3] - 1.0).abs() < 0.05);
    // Stand 4 may not go more than 4 inches from the command stand (stand 2)...
    let e = move_stand(&mut b, "s", 4, Step::Sidestep(1.0)).unwrap_err();
    assert!(e.contains("command stand (stand 2)"), "{e}");
    // ... nor may the command stand leave stand 3 more than 4 inches ahead.
    let e = move_stand(&mut b, "s", 2, Step::Backstep(3.0)).unwrap_err();
    assert!(e.contains("command stand"), "{e}");
    // The whole unit has what its busiest stand left: nothing.
    assert!(too_far(advance(&mut b, "s", Step::Advance(0.5))));
    let e = move_stand(&mut b, "s", 5, Step::Advance(1.0)).unwrap_err();
    assert!(e.contains("stands 1 to 4"), "{e}");
    assert!(
        move_stand(&mut b, "s", 1, Step::ToContact(u("e")))
            .unwrap_err()
            .contains("charge with the whole unit")
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
    let d = ev.iter().find_map(|e| match e {
        Event::StandMoved { distance, .. } => Some(*distance),
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
    assert!(e.contains("zone of control"), "{e}");
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
        .filter_map(|e| match e {
            Event::StandMoved { stand, .. } => Some(*stand),
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
        e,
        Event::Test {
            test: TestKind::Evade,
            die: 3,
            need: 4,
            passed: false,
            ..
        }
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
    assert_eq!(b.phase, Phase::CloseCombat);
    let y0 = b.unit(&u("b")).unwrap().base.centre.y;
    let figures = b.unit(&u("b")).unwrap().figures();
    let further = |b: &mut Battle, id: &str, d: f32| {
        b.execute(Command::RecoilFurther {
            unit: u(id),
            distance: d,
        })
        .map_err(|e| e.to_string())
    };
    assert!(
        further(&mut b, "b", 17.0)
            .unwrap_err()
            .contains("at most 18")
    );
    assert!(
        further(&mut b, "a", 2.0)
            .unwrap_err()
            .contains("has not recoiled")
    );
    let ev = further(&mut b, "b", 4.0).unwrap();
    assert!(!ev.iter().any(|e| matches!(e, Event::Losses { .. })));
    let unit_b = b.unit(&u("b")).unwrap();
    assert!((unit_b.base.centre.y - y0 - 101.6).abs() < 0.1);
    assert_eq!(unit_b.figures(), figures);
    further(&mut b, "b", 12.0).unwrap();
    assert!(
        further(&mut b, "b", 0.5)
            .unwrap_err()
            .contains("at most 18")
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
    assert_eq!(plain.rules.optional_rules().len(), 7);
    opts.push("variable_chance_to_hit".into());
    let b = scenario::load_with_options(&path, &opts).unwrap();
    assert!(od(&b).opt("variable_chance_to_hit"));
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
    to(&mut b, Phase::CloseCombat);
    b.script_dice(&[6, 6, 6, 6, 1, 1, 1, 1]);
    let ev = b
        .execute(Command::Fight {
            unit: u("a"),
            target: u("b"),
            pursue: Some(false),
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
        !ev.iter()
            .any(|e| matches!(e, Event::Melee { strikes } if strikes.is_empty()))
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
    let back = |b: &mut Battle, id: &str, d: f32| {
        b.execute(Command::Fallback {
            unit: u(id),
            distance: d,
        })
        .map_err(|e| e.to_string())
    };
    let e = back(&mut b, "c", 6.0).unwrap_err();
    assert!(e.contains("needs a general within 2 inches"), "{e}");
    let e = back(&mut b, "a", 19.0).unwrap_err();
    assert!(e.contains("at most 18 inches"), "{e}");
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
    assert!(e.contains("already moved"), "{e}");
    let e = advance(&mut b, "a", Step::Advance(1.0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("fell back this turn"), "{e}");
    to(&mut b, Phase::CloseCombat);
    let e = b
        .execute(Command::RecoilFurther {
            unit: u("a"),
            distance: 2.0,
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("has not recoiled"), "{e}");
}
