//! DB7YW procedures beyond single rolls: deployment, fortifying and capturing towns, the
//! objective, breakthrough, galloper guns, army lists, the army break and the turn limit.

mod common;
use common::*;
use volley::rules::command::{Command, Event, Step};
use volley::rules::model::Phase;
use volley::rules::ruleset::dbn;
use volley::rules::ruleset::dbn::{CLOSE_COMBAT, COMMAND, DbnEvent, FIRING, MOVEMENT};
use volley::rules::{Game, scenario};

fn deployment_battle() -> volley::rules::Game {
    let text = r#"(name: "d", ruleset: "db7yw", table: (width: 1000, height: 1000), turn_limit: 5,
        terrain: [(id: "v", kind: Village, name: "Dorf", points: [(450, 450), (550, 450), (550, 550), (450, 550)])],
        sides: [(name: "P", nation: "prussia", colour: (0, 0, 200)), (name: "A", nation: "austria", colour: (200, 200, 200), defender: true)],
        units: [
            (id: "pl", side: 0, type: "HC", division: Some(Left)),
            (id: "pc", side: 0, type: "Ms", division: Some(Centre)),
            (id: "al", side: 1, type: "HC", division: Some(Left)),
            (id: "ac", side: 1, type: "Ms", division: Some(Centre)),
            (id: "ar", side: 1, type: "Jg", division: Some(Reserve)),
        ],
        deployment: [(side: 0, min: (0, 0), max: (1000, 400)), (side: 1, min: (0, 200), max: (1000, 1000))],
    )"#;
    scenario::parse(text, "d").unwrap()
}

fn deploy(u: &str, x: f32, y: f32, f: f32) -> Command {
    Command::Deploy {
        unit: id(u),
        x,
        y,
        facing: f,
    }
}

#[test]
fn formal_deployment_goes_division_by_division() {
    let mut b = deployment_battle();
    assert_eq!(b.phase, Phase::DEPLOYMENT);
    // Prussia's left division first; its centre must wait.
    assert_eq!(
        kind_of(&b.execute(deploy("pc", 500.0, 100.0, 0.0)).unwrap_err()),
        Ok(dbn::Refusal::OtherDivisionDeploying)
    );
    assert_eq!(
        kind_of(&b.execute(deploy("pl", 200.0, 500.0, 0.0)).unwrap_err()),
        Ok(dbn::Refusal::OutsideDeploymentZone)
    );
    b.execute(deploy("pl", 200.0, 100.0, 0.0)).unwrap();
    b.execute(Command::EndPhase).unwrap();
    // Austria's left: at least 600 paces (152.4 mm) from the Prussians already placed.
    let e = b.execute(deploy("al", 200.0, 250.0, 180.0)).unwrap_err();
    assert_eq!(kind_of(&e), Ok(dbn::Refusal::TooCloseToEnemy), "{e}");
    b.execute(deploy("al", 200.0, 800.0, 180.0)).unwrap();
    b.execute(Command::EndPhase).unwrap();
    b.execute(deploy("pc", 500.0, 100.0, 0.0)).unwrap();
    b.execute(Command::EndPhase).unwrap();
    // The defender fortifies the village during deployment.
    b.execute(Command::Fortify {
        feature: "v".into(),
    })
    .unwrap();
    assert!(b.terrain.get("v").unwrap().fortified);
    b.execute(deploy("ac", 500.0, 800.0, 180.0)).unwrap();
    assert!(b.execute(Command::EndPhase).is_ok());
    // Right divisions are empty; the reserve may stand closer.
    b.execute(Command::EndPhase).unwrap(); // Prussia right
    b.execute(Command::EndPhase).unwrap(); // Austria right
    b.execute(Command::EndPhase).unwrap(); // Prussia reserve
    b.execute(deploy("ar", 800.0, 620.0, 180.0)).unwrap();
    b.execute(Command::EndPhase).unwrap();
    assert_eq!((b.phase, b.turn, b.active), (COMMAND, 1, 0));
}

#[test]
fn only_the_defender_fortifies() {
    let mut b = deployment_battle();
    let e = b
        .execute(Command::Fortify {
            feature: "v".into(),
        })
        .unwrap_err();
    assert_eq!(kind_of(&e), Ok(dbn::Refusal::OnlyDefenderFortifies), "{e}");
}

#[test]
fn towns_need_fortifying_to_be_garrisoned_and_capture_removes_it() {
    let town = r#"(id: "t", kind: Town, name: "Lobositz", points: [(450, 520), (560, 520), (560, 600), (450, 600)]),"#;
    let mut b = battle(
        &[
            U("a", 1, "Ms", "Regular", 500.0, 505.0, 0.0, ""),
            U("p", 0, "Ms", "Regular", 100.0, 100.0, 0.0, ""),
        ],
        town,
    );
    to_phase(&mut b, 1, MOVEMENT);
    b.command_points[1] = 10;
    let e = b.execute(mv("a", vec![Step::Advance(100.0)])).unwrap_err();
    assert_eq!(kind_of(&e), Ok(dbn::Refusal::NotFortified), "{e}");
    // Fortified, the defender garrisons it; the attacker then takes it when the garrison leaves.
    let town_f = town.replace("(450, 600)])", "(450, 600)], fortified: true)");
    let mut b = battle(
        &[
            U("a", 1, "HC", "Regular", 700.0, 700.0, 0.0, ""),
            U("p", 0, "Ms", "Regular", 500.0, 505.0, 0.0, ""),
        ],
        &town_f,
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 10;
    let ev = b.execute(mv("p", vec![Step::Advance(100.0)])).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e.own(), Some(DbnEvent::Captured { feature, .. }) if feature == "t")),
        "{ev:?}"
    );
    assert!(!b.terrain.get("t").unwrap().fortified);
    // Cavalry may not occupy a town.
    let mut b = battle(
        &[U("p", 0, "HC", "Regular", 500.0, 500.0, 0.0, "")],
        &town_f,
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 10;
    assert_eq!(
        kind_of(&b.execute(mv("p", vec![Step::Advance(100.0)])).unwrap_err()),
        Ok(dbn::Refusal::OnlyFootOccupy)
    );
}

#[test]
fn taking_the_objective_counts_two_lost_units() {
    let text = r#"(name: "o", ruleset: "db7yw", table: (width: 1000, height: 1000), turn_limit: 5,
        sides: [(name: "P", colour: (0, 0, 200)), (name: "A", colour: (200, 200, 200), defender: true)],
        units: [(id: "p", side: 0, type: "HC", at: Some((500, 400)), facing: 0), (id: "c", side: 0, type: "CinC", at: Some((300, 400)), facing: 0),
                (id: "a1", side: 1, type: "Ms", at: Some((100, 900)), facing: 180), (id: "a2", side: 1, type: "Ms", at: Some((200, 900)), facing: 180),
                (id: "a3", side: 1, type: "Ms", at: Some((300, 900)), facing: 180), (id: "a4", side: 1, type: "Ms", at: Some((400, 900)), facing: 180)],
        objective: Some((at: (500, 480), owner: 1)))"#;
    let mut b = scenario::parse(text, "o").unwrap();
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 5;
    let ev = b.execute(mv("p", vec![Step::Advance(300.0)])).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e.own(), Some(DbnEvent::ObjectiveTaken { side: 0, .. })))
    );
    // 2 of a break point of 2 (half of 4): Austria breaks.
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::ArmyBroken { side: 1, .. })),
        "{ev:?}"
    );
    assert!(b.is_over());
}

/// Austria's CinC in front of an elite Prussian Ms, with three units far off, in Prussia's close
/// combat.
fn cinc_and_three() -> Game {
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Elite", 500.0, 500.0, 0.0, ""),
            U("a", 1, "CinC", "Regular", 500.0, 527.5, 180.0, ""),
            U("a2", 1, "Ms", "Regular", 100.0, 900.0, 180.0, ""),
            U("a3", 1, "Ms", "Regular", 200.0, 900.0, 180.0, ""),
            U("a4", 1, "Ms", "Regular", 300.0, 900.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b
}

#[test]
fn a_destroyed_cinc_counts_two() {
    let mut b = cinc_and_three();
    // 5+6 = 11 against 1+1 = 2: the CinC is destroyed, 2 losses of a break point of 2.
    b.script_dice(&[6, 1]);
    let ev = b.execute(fight("p", "a")).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::ArmyBroken { side: 1, losses, .. } if *losses == 2.0)),
        "{ev:?}"
    );
}

/// 000 Victory Conditions: "An army breaks and leaves the field if it loses 50% of all its
/// units. ... Destroyed CinC's as 2 units": the result and the standing say that the lost CinC
/// counts 2, and what the break point is.
#[test]
fn the_army_break_says_the_lost_cinc_counts_two() {
    let mut b = cinc_and_three();
    // 5+6 = 11 against 1+1 = 2: the CinC is destroyed; one unit lost, counting 2, of 4 at the
    // start, whose half is 2.
    b.script_dice(&[6, 1]);
    b.execute(fight("p", "a")).unwrap();
    let Some(Event::GameOver { reason, .. }) = b.log.last() else {
        panic!("the game goes on: {:?}", b.log.last());
    };
    assert_eq!(
        reason,
        "Austria broke: lost 2 (the Commander-in-Chief counting 2) against a break point of 2"
    );
    assert_eq!(
        b.rules.standing(&b),
        vec![
            "Prussia: losses 0 against a break point of 0.5 (1 unit at the start)".to_string(),
            "Austria: losses 2 (the Commander-in-Chief counting 2) against a break point of 2 \
             (4 units at the start)"
                .to_string(),
        ]
    );
}

#[test]
fn the_turn_limit_ends_the_game() {
    let text = r#"(name: "o", ruleset: "db7yw", table: (width: 1000, height: 1000), turn_limit: 1,
        sides: [(name: "P", colour: (0, 0, 200)), (name: "A", colour: (200, 200, 200))],
        units: [(id: "p", side: 0, type: "HC", at: Some((500, 100)), facing: 0), (id: "a", side: 1, type: "HC", at: Some((500, 900)), facing: 180)])"#;
    let mut b = scenario::parse(text, "t").unwrap();
    for _ in 0..8 {
        b.execute(Command::EndPhase).unwrap();
    }
    assert!(b.is_over());
    assert!(matches!(
        b.log.last(),
        Some(Event::GameOver { winner: None, .. })
    ));
    assert!(b.execute(Command::EndPhase).is_err());
}

#[test]
fn dragoons_break_through_heavy_cavalry_stand() {
    let mut b = battle(
        &[
            U("p", 0, "DC", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Gs", "Regular", 500.0, 525.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b.script_dice(&[6, 1]);
    let ev = b.execute(fight("p", "a")).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Destroyed { unit, .. } if unit.as_str() == "a"))
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Pursued { unit, .. } if unit.as_str() == "p")),
        "DC break through: {ev:?}"
    );
    let mut b = battle(
        &[
            U("p", 0, "HC", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Gs", "Regular", 500.0, 525.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b.script_dice(&[6, 1]);
    let ev = b.execute(fight("p", "a")).unwrap();
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Pursued { .. })),
        "HC do not break through: {ev:?}"
    );
}

#[test]
fn pursuing_cavalry_against_muskets_lose_no_point() {
    use volley::rules::ruleset::AnyRuleset;
    let mut b = battle(
        &[
            U("p", 0, "HC", "Regular", 500.0, 500.0, 0.0, ""),
            U("m", 1, "Ms", "Regular", 500.0, 522.5, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    let AnyRuleset::Db7yw(r) = b.rules.clone() else {
        panic!("a DB7YW battle")
    };
    let m = b.unit(&id("m")).unwrap().clone();
    let mut p = b.unit(&id("p")).unwrap().clone();
    p.bound.charged = true;
    let charging = names(&r.combat_factors(&b, &p, &m, true));
    assert!(
        charging.contains(&"-1 Cavalry charging Muskets in the front".to_string()),
        "{charging:?}"
    );
    p.bound.pursuing = true;
    let pursuing = names(&r.combat_factors(&b, &p, &m, true));
    assert!(
        !pursuing.iter().any(|f| f.contains("charging Muskets")),
        "{pursuing:?}"
    );
}

#[test]
fn galloper_guns_unlimber_and_fire_foot_guns_cannot() {
    let mut b = battle(
        &[
            U(
                "g",
                0,
                "GA",
                "Regular",
                500.0,
                500.0,
                0.0,
                ", limbered: true",
            ),
            U("c", 0, "CinC", "Regular", 300.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 600.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 5;
    b.execute(Command::Unlimber { unit: id("g") }).unwrap();
    to_phase(&mut b, 0, FIRING);
    b.script_dice(&[3, 3]);
    b.execute(fire("g", "a")).unwrap();
    let mut b = battle(
        &[
            U(
                "g",
                0,
                "FA",
                "Regular",
                500.0,
                500.0,
                0.0,
                ", limbered: true",
            ),
            U("c", 0, "CinC", "Regular", 300.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 600.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 5;
    b.execute(Command::Unlimber { unit: id("g") }).unwrap();
    assert_eq!(b.command_points[0], 4, "unlimbering costs 1");
    to_phase(&mut b, 0, FIRING);
    assert_eq!(
        kind_of(&b.execute(fire("g", "a")).unwrap_err()),
        Ok(dbn::Refusal::LimberedThisBound)
    );
}

#[test]
fn the_recommended_standard_army_is_valid_and_changes_are_refused() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/default.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(scenario::parse(&text, "default").is_ok());
    // A third elite Muskets breaks the 20% limit and the points total.
    let t = text.replacen(
        "class: Regular, at: Some((480, 260))",
        "class: Elite, at: Some((480, 260))",
        1,
    );
    assert_ne!(t, text);
    let d = scenario::parse(&t, "default").unwrap_err();
    let all: Vec<String> = d.iter().map(|x| x.message.clone()).collect();
    assert!(
        all.iter()
            .any(|m| m.contains("20% of Muskets may be elite")),
        "{all:?}"
    );
    assert!(all.iter().any(|m| m.contains("16.5 points")), "{all:?}");
    // Heavy cavalry cannot be elite.
    let t = text.replacen(
        "type: \"HC\", class: Regular",
        "type: \"HC\", class: Elite",
        1,
    );
    let d = scenario::parse(&t, "default").unwrap_err();
    assert!(
        d.iter()
            .any(|x| x.message.contains("cannot be classed as Elite")),
        "{d:?}"
    );
    // Galloper guns only for Prussia and Austria: fine here; FA(H) is not Austrian.
    let t = text.replacen(
        "type: \"FA\", class: Regular, at: Some((760, 535))",
        "type: \"FAH\", class: Regular, at: Some((760, 535))",
        1,
    );
    assert_ne!(t, text);
    let d = scenario::parse(&t, "default").unwrap_err();
    assert!(d.iter().any(|x| x.message.contains("FA(H)")), "{d:?}");
}

#[test]
fn superior_muskets_are_prussian_or_british() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/default.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    // An Austrian Ms(S) (and the quarter point it costs) is refused.
    let t = text.replacen(
        "type: \"Ms\", class: Regular, at: Some((580, 540))",
        "type: \"Ms\", class: Superior, at: Some((580, 540))",
        1,
    );
    assert_ne!(t, text);
    let d = scenario::parse(&t, "default").unwrap_err();
    assert!(
        d.iter().any(|x| x
            .message
            .contains("only prussia and britain Muskets may be Ms(S)")),
        "{d:?}"
    );
    // Flank divisions must include cavalry once divisions are given.
    let t = text.replacen("(id: \"pr-ir3\", name: \"IR 3 Anhalt\", side: 0, type: \"Ms\", class: Regular,", "(id: \"pr-ir3\", name: \"IR 3 Anhalt\", side: 0, type: \"Ms\", class: Regular, division: Some(Left),", 1);
    assert_ne!(t, text);
    let d = scenario::parse(&t, "default").unwrap_err();
    assert!(
        d.iter().any(|x| x
            .message
            .contains("Left flank division must include cavalry")),
        "{d:?}"
    );
}

#[test]
fn deployment_occupies_towns_and_villages_by_the_rules_of_moving() {
    // Only foot occupy a town or village (ruling occupation); a unit placed in deployment is
    // held to it as one that moved there.
    let mut b = deployment_battle();
    b.execute(deploy("pl", 200.0, 100.0, 0.0)).unwrap();
    b.execute(Command::EndPhase).unwrap();
    let e = b.execute(deploy("al", 500.0, 500.0, 180.0)).unwrap_err();
    assert_eq!(kind_of(&e), Ok(dbn::Refusal::OnlyFootOccupy), "{e}");
    b.execute(deploy("al", 200.0, 800.0, 180.0)).unwrap();
}

fn default_text() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/default.ron");
    std::fs::read_to_string(path).unwrap()
}

fn list_errors(text: &str) -> Vec<String> {
    match scenario::parse(text, "default") {
        Ok(_) => Vec::new(),
        Err(d) => d.into_iter().map(|x| x.message).collect(),
    }
}

#[test]
fn only_prussian_hussars_are_elite_light_cavalry() {
    // 000 Army Composition: "For most of the war, Prussian Hussars would be classed as LC(E)";
    // no other army's light cavalry is named elite (ruling national_classes).
    let text = default_text();
    assert!(list_errors(&text).is_empty());
    // Prussia: the Zieten Hussars elite, paid for by a grenadier battalion made regular.
    let t = text
        .replacen(
            "type: \"LC\", class: Regular, at: Some((180, 250))",
            "type: \"LC\", class: Elite, at: Some((180, 250))",
            1,
        )
        .replacen(
            "type: \"Ms\", class: Elite, flags: [Grenadier], at: Some((440, 260))",
            "type: \"Ms\", class: Regular, flags: [Grenadier], at: Some((440, 260))",
            1,
        );
    assert_eq!(list_errors(&t), Vec::<String>::new());
    // Austria: the same exchange is refused, for the hussars alone.
    let t = text
        .replacen(
            "type: \"LC\", class: Regular, at: Some((930, 560))",
            "type: \"LC\", class: Elite, at: Some((930, 560))",
            1,
        )
        .replacen(
            "type: \"Ms\", class: Elite, at: Some((540, 540))",
            "type: \"Ms\", class: Regular, at: Some((540, 540))",
            1,
        );
    assert_ne!(t, text);
    let e = list_errors(&t);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("only prussia hussars are LC(E)"), "{e:?}");
    // The ruling gives the seed's own words as its reason.
    let rules = volley::rules::ruleset::AnyRuleset::load("db7yw").expect("db7yw loads");
    let ruling = rules
        .get()
        .rulings()
        .iter()
        .find(|r| r.key == "national_classes")
        .expect("ruling national_classes")
        .clone();
    assert!(
        ruling
            .reason
            .contains("For most of the war, Prussian Hussars would be classed as LC(E)"),
        "{}",
        ruling.reason
    );
}

#[test]
fn the_army_costs_sixteen_points_not_less() {
    // 000 Army Composition: "Each 16 Point Army has 1 free CinC and Baggage, and the
    // following" (ruling army_points). A Prussian army of 15.5 points (an elite grenadier
    // battalion made regular) is refused; the default army's 16 is legal, and the check's
    // army note says so.
    let text = default_text();
    assert!(list_errors(&text).is_empty());
    let t = text.replacen(
        "type: \"Ms\", class: Elite, flags: [Grenadier], at: Some((440, 260))",
        "type: \"Ms\", class: Regular, flags: [Grenadier], at: Some((440, 260))",
        1,
    );
    assert_ne!(t, text);
    let e = list_errors(&t);
    assert!(
        e.iter().any(|m| m.contains("costs 15.5 points, not 16")),
        "{e:?}"
    );
    let b = scenario::parse(&text, "default").expect("the default army is legal");
    let side = &b.sides[0];
    let units: Vec<&volley::rules::model::Unit> = b.units.iter().filter(|u| u.side == 0).collect();
    let notes = b.rules.get().army_notes(&units, side, true, &b.terrain);
    assert_eq!(notes, ["16 points, legal by its army list"]);
}

#[test]
fn only_muskets_move_backwards_at_half_speed() {
    // 000 Musket Unit Movement: Ms move "directly backwards (at half speed)"; the seed says it
    // of no other troops (ruling backward).
    let mut b = battle(
        &[
            U("m", 0, "Ms", "Regular", 300.0, 500.0, 0.0, ""),
            U("d", 0, "DC", "Regular", 700.0, 500.0, 0.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    // Muskets: 120 paces back counts 240 of their 200.
    let e = refusal(&mut b, mv("m", vec![Step::Backstep(120.0)]));
    assert_eq!(too_far(&e), Some((240.0, 200.0)), "{e}");
    b.execute(mv("m", vec![Step::Backstep(100.0)]))
        .expect("100 paces back is the Muskets' 200");
    // Dragoons go back 400 paces, their full rate in good going.
    let ev = b
        .execute(mv("d", vec![Step::Backstep(400.0)]))
        .expect("dragoons back at their full rate");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Moved { unit, distance, .. } if unit.as_str() == "d" && (*distance - 400.0).abs() < 1.0
    )));
}
