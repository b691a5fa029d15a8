//! DB7YW close combat playsheet: every tactical factor and every result row, with scripted dice.

mod common;
use common::*;
use volley::rules::Game;
use volley::rules::command::{Command, Effect, Event, RuleError, Step, Verdict};
use volley::rules::ruleset::common::Refusal as Shared;
use volley::rules::ruleset::dbn;
use volley::rules::ruleset::dbn::{CLOSE_COMBAT, DbnEvent, MOVEMENT};
/// Prussian "p" at (500, 500) facing north in front contact with Austrian "a"; extra units and
/// terrain as given. Starts in Prussia's close combat phase.
fn melee(p: (&str, &str, &str), a: (&str, &str, &str), more: &[U], terrain: &str) -> Game {
    let ay = 500.0 + depth(p.0) / 2.0 + depth(a.0) / 2.0;
    let mut units = vec![
        U("p", 0, p.0, p.1, 500.0, 500.0, 0.0, p.2),
        U("a", 1, a.0, a.1, 500.0, ay, 180.0, a.2),
    ];
    for u in more {
        units.push(U(u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7));
    }
    let mut b = battle(&units, terrain);
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b
}

/// Woods covering the defender's side of the line only.
fn woods_a() -> &'static str {
    r#"(id: "w", kind: Woods, name: "Wood", points: [(400, 509), (600, 509), (600, 700), (400, 700)]),"#
}

fn factors(b: &mut Game) -> (Vec<String>, Vec<String>) {
    // Rolled dice cannot be undone: the combat is fought on a copy.
    let mut b = b.clone();
    b.script_dice(&[1, 1, 1, 1, 1, 1, 1, 1]);
    let ev = b.execute(fight("p", "a")).expect("fight accepted");
    let DbnEvent::CloseCombat {
        attacker_score,
        defender_score,
        ..
    } = combat_event(&ev)
    else {
        unreachable!()
    };
    (
        names(&attacker_score.factors),
        names(&defender_score.factors),
    )
}

/// Tries every pair of dice until the combat comes out as wanted; returns its events.
fn fight_for(b: &mut Game, verdict: Verdict, loser: Option<&str>) -> Vec<Event> {
    for pd in 1..=6u8 {
        for ad in 1..=6u8 {
            let before = b.clone();
            b.script_dice(&[pd, ad, 1, 1, 1, 1, 1, 1, 1, 1]);
            let ev = b.execute(fight("p", "a")).expect("fight accepted");
            if let DbnEvent::CloseCombat {
                verdict: v,
                loser: l,
                stoic: false,
                ..
            } = combat_event(&ev)
                && v == verdict
                && l.as_ref().map(|x| x.as_str()) == loser
            {
                return ev;
            }
            *b = before;
        }
    }
    panic!("no dice give {verdict:?} with loser {loser:?}");
}

fn has(list: &[String], f: &str) -> bool {
    list.iter().any(|x| x == f)
}

#[test]
fn plain_muskets() {
    let mut b = melee(("Ms", "Regular", ""), ("Ms", "Regular", ""), &[], "");
    assert_eq!(
        factors(&mut b),
        (
            vec!["+4 Muskets".to_string()],
            vec!["+4 Muskets".to_string()]
        )
    );
}

#[test]
fn uphill_general_elite() {
    let hill = r#"(id: "h", kind: Hill, name: "Hill", points: [(300, 300), (700, 300), (700, 505), (300, 505)]),"#;
    let mut b = melee(
        ("Ms", "Elite", ""),
        ("Ms", "Regular", ""),
        &[U("g", 0, "CinC", "Regular", 500.0, 472.5, 0.0, "")],
        hill,
    );
    let (p, _) = factors(&mut b);
    assert_eq!(
        p,
        [
            "+4 Muskets",
            "+1 Uphill advantage",
            "+1 Supported by CinC or commander in full edge contact",
            "+1 Elite class, or Heavy Cavalry against mounted"
        ]
    );
}

#[test]
fn heavy_cavalry_against_mounted_and_superior_dragoons() {
    let mut b = melee(("HC", "Regular", ""), ("DC", "Superior", ""), &[], "");
    let (p, a) = factors(&mut b);
    assert!(
        has(&p, "+1 Elite class, or Heavy Cavalry against mounted"),
        "{p:?}"
    );
    assert!(
        has(&a, "+1 Elite class, or Heavy Cavalry against mounted"),
        "DC(S) are elite in close combat: {a:?}"
    );
    // HC against foot get no bonus.
    let mut b = melee(("HC", "Regular", ""), ("Ms", "Regular", ""), &[], "");
    assert_eq!(factors(&mut b).0, ["+3 Heavy Cavalry"]);
}

#[test]
fn defending_villages_and_fortifications() {
    let fortified = r#"(id: "v", kind: Village, name: "Village", points: [(400, 509), (600, 509), (600, 700), (400, 700)], fortified: true),"#;
    let mut b = melee(("Ms", "Regular", ""), ("Ms", "Regular", ""), &[], fortified);
    assert_eq!(
        factors(&mut b).1,
        ["+4 Muskets", "+1 Defending a NLF or fortification"]
    );
    // Muskets in an unfortified village do not occupy it and count as in bad going.
    let open = r#"(id: "v", kind: Village, name: "Village", points: [(400, 509), (600, 509), (600, 700), (400, 700)]),"#;
    let mut b = melee(("Ms", "Regular", ""), ("Ms", "Regular", ""), &[], open);
    assert_eq!(factors(&mut b).1, ["+4 Muskets", "-2 Within bad going"]);
    // Irregular Infantry occupying a village fight at +3 and ignore bad going.
    let mut b = melee(("Ms", "Regular", ""), ("II", "Regular", ""), &[], open);
    assert_eq!(
        factors(&mut b).1,
        [
            "+2 Irregular Infantry",
            "+1 Irregular Infantry occupying a NLF or fortification",
            "+1 Defending a NLF or fortification"
        ]
    );
}

#[test]
fn militia_jagers_shaken() {
    let mut b = melee(
        ("Ms", "Militia", ", hits: 2"),
        ("Jg", "Regular", ""),
        &[],
        "",
    );
    let (p, a) = factors(&mut b);
    assert_eq!(p, ["+4 Muskets", "-1 Militia or Jagers", "-1 Shaken"]);
    assert_eq!(a, ["+2 Jagers", "-1 Militia or Jagers"]);
}

#[test]
fn enemy_support_beside_and_behind() {
    let mut b = melee(
        ("Ms", "Regular", ""),
        ("Ms", "Regular", ""),
        &[
            U("a2", 1, "Ms", "Regular", 540.0, 515.0, 180.0, ""),
            U("a3", 1, "Ms", "Regular", 500.0, 530.0, 180.0, ""),
        ],
        "",
    );
    let (p, _) = factors(&mut b);
    assert_eq!(
        p,
        [
            "+4 Muskets",
            "-1 Enemy unit providing close combat support",
            "-1 Enemy unit providing close combat support"
        ]
    );
}

#[test]
fn recoiled_unit_in_continuing_combat() {
    let mut b = melee(("Ms", "Regular", ""), ("Ms", "Regular", ""), &[], "");
    let ev = fight_for(&mut b, Verdict::Beaten, Some("a"));
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Recoiled { unit, .. } if unit.as_str() == "a")),
        "{ev:?}"
    );
    assert!(ev.iter().any(|e| matches!(e, Event::Pursued { unit, continuing: Some(c), .. } if unit.as_str() == "p" && c.as_str() == "a")), "{ev:?}");
    assert!(b.unit(&id("a")).unwrap().status.continuing);
    // Austria's close combat: the recoiled unit fights at -1.
    to_phase(&mut b, 1, CLOSE_COMBAT);
    b.script_dice(&[3, 3, 1, 1, 1, 1]);
    let ev = b.execute(fight("a", "p")).unwrap();
    let DbnEvent::CloseCombat { attacker_score, .. } = combat_event(&ev) else {
        unreachable!()
    };
    assert!(has(
        &names(&attacker_score.factors),
        "-1 Recoiled and in continuing combat"
    ));
}

#[test]
fn cavalry_charging_muskets_in_front() {
    let mut b = battle(
        &[
            U("p", 0, "HC", "Regular", 500.0, 450.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 520.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.execute(mv("p", vec![Step::ToContact(id("a"))]))
        .expect("charge");
    to_phase(&mut b, 0, CLOSE_COMBAT);
    let (p, _) = factors(&mut b);
    assert_eq!(
        p,
        [
            "+3 Heavy Cavalry",
            "-1 Cavalry charging Muskets in the front"
        ]
    );
}

#[test]
fn first_attacked_in_flank() {
    // Muskets face east; the cuirassiers charge their right flank from the south.
    let mut b = battle(
        &[
            U("p", 0, "HC", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 600.0, 90.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    let ev = b
        .execute(mv("p", vec![Step::ToContact(id("a"))]))
        .expect("flank charge");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Moved {
            contact: Some(_),
            ..
        }
    )));
    to_phase(&mut b, 0, CLOSE_COMBAT);
    let (p, a) = factors(&mut b);
    assert_eq!(p, ["+3 Heavy Cavalry"]);
    assert_eq!(a, ["+4 Muskets", "-2 Attacked first in flank or rear"]);
    // Light cavalry suffer only -1.
    let mut b = battle(
        &[
            U("p", 0, "HC", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "LC", "Regular", 500.0, 600.0, 90.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.execute(mv("p", vec![Step::ToContact(id("a"))]))
        .expect("flank charge");
    to_phase(&mut b, 0, CLOSE_COMBAT);
    let (_, a) = factors(&mut b);
    assert!(
        has(
            &a,
            "-1 Cavalry or skirmish infantry attacked first in flank or rear"
        ),
        "{a:?}"
    );
}

#[test]
fn artillery_unable_to_fire_and_bad_going_and_bridges() {
    let mut b = melee(
        ("Ms", "Regular", ""),
        ("FA", "Regular", ", limbered: true"),
        &[],
        "",
    );
    assert!(has(
        &factors(&mut b).1,
        "-2 Artillery unable to fire at its attacker"
    ));
    let mut b = melee(("Ms", "Regular", ""), ("HC", "Regular", ""), &[], woods_a());
    assert!(has(&factors(&mut b).1, "-2 Within bad going"));
    // Jagers and Irregulars do not suffer in bad going.
    let mut b = melee(("Ms", "Regular", ""), ("Jg", "Regular", ""), &[], woods_a());
    assert!(!has(&factors(&mut b).1, "-2 Within bad going"));
    let bridge = r#"(id: "r", kind: River, name: "River", points: [(0, 490), (1000, 490)], width: 20), (id: "br", kind: Bridge, name: "Bridge", points: [(500, 470), (500, 505)], width: 45),"#;
    let mut b = melee(("Ms", "Regular", ""), ("Ms", "Regular", ""), &[], bridge);
    assert!(has(&factors(&mut b).0, "-2 On a bridge or causeway"));
}

#[test]
fn town_garrison_and_attack_column() {
    let town = r#"(id: "t", kind: Town, name: "Town", points: [(400, 509), (600, 509), (600, 700), (400, 700)], fortified: true),"#;
    let mut b = melee(("Ms", "Regular", ""), ("Ms", "Regular", ""), &[], town);
    let (p, a) = factors(&mut b);
    assert_eq!(p, ["+4 Muskets", "+2 Attack column against a BUA garrison"]);
    assert_eq!(
        a,
        ["+4 Muskets", "+4 BUA garrison attacked"],
        "a fortified town's garrison is not in bad going (ruling towns)"
    );
}

/// (attacker, defender, defender extra fields, terrain, verdict, loser effect)
type Row = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    Verdict,
    Effect,
);

fn check_rows(rows: &[Row]) {
    for (p, a, extra, terrain, verdict, want) in rows {
        let mut b = melee((p, "Regular", ""), (a, "Regular", extra), &[], terrain);
        let ev = fight_for(&mut b, *verdict, Some("a"));
        let DbnEvent::CloseCombat {
            defender_effect, ..
        } = combat_event(&ev)
        else {
            unreachable!()
        };
        assert_eq!(
            &defender_effect,
            want,
            "{a} {verdict:?} by {p} in {}",
            if terrain.is_empty() { "GG" } else { "BG" }
        );
    }
}

#[test]
fn results_beaten() {
    let w = woods_a();
    check_rows(&[
        ("Ms", "CinC", "", "", Verdict::Beaten, Effect::Recoil),
        ("Ms", "HC", "", "", Verdict::Beaten, Effect::HitAndRecoil),
        ("Ms", "HC", "", w, Verdict::Beaten, Effect::Destroyed),
        ("Ms", "IC", "", w, Verdict::Beaten, Effect::HitAndRecoil),
        ("Ms", "FA", "", "", Verdict::Beaten, Effect::Destroyed),
        ("Ms", "Gs", "", "", Verdict::Beaten, Effect::Destroyed),
        ("HC", "Jg", "", "", Verdict::Beaten, Effect::Destroyed),
        ("HC", "II", "", "", Verdict::Beaten, Effect::Destroyed),
        (
            "Ms",
            "Jg",
            "",
            "",
            Verdict::Beaten,
            Effect::Flee { hits: 1 },
        ),
        ("Ms", "II", "", "", Verdict::Beaten, Effect::HitAndRecoil),
        ("HC", "II", "", w, Verdict::Beaten, Effect::HitAndRecoil),
        ("HC", "Ms", "", "", Verdict::Beaten, Effect::Destroyed),
        ("DC", "Ms", "", "", Verdict::Beaten, Effect::HitAndRecoil),
        ("HC", "Ms", "", w, Verdict::Beaten, Effect::HitAndRecoil),
    ]);
}

#[test]
fn results_beaten_by_double() {
    let w = woods_a();
    check_rows(&[
        (
            "Ms",
            "CinC",
            "",
            "",
            Verdict::BeatenByDouble,
            Effect::Destroyed,
        ),
        (
            "HC",
            "LC",
            "",
            "",
            Verdict::BeatenByDouble,
            Effect::Destroyed,
        ),
        (
            "Ms",
            "LC",
            "",
            "",
            Verdict::BeatenByDouble,
            Effect::Flee { hits: 1 },
        ),
        (
            "Ms",
            "IC",
            "",
            w,
            Verdict::BeatenByDouble,
            Effect::Destroyed,
        ),
        (
            "Ms",
            "IC",
            "",
            "",
            Verdict::BeatenByDouble,
            Effect::Flee { hits: 1 },
        ),
        (
            "HC",
            "Jg",
            "",
            "",
            Verdict::BeatenByDouble,
            Effect::Destroyed,
        ),
        (
            "Gs",
            "Jg",
            "",
            "",
            Verdict::BeatenByDouble,
            Effect::Destroyed,
        ),
        (
            "Ms",
            "Jg",
            "",
            "",
            Verdict::BeatenByDouble,
            Effect::Flee { hits: 1 },
        ),
        (
            "Ms",
            "Ms",
            "",
            "",
            Verdict::BeatenByDouble,
            Effect::Destroyed,
        ),
        (
            "Ms",
            "HC",
            "",
            "",
            Verdict::BeatenByDouble,
            Effect::Destroyed,
        ),
    ]);
}

#[test]
fn draws_hit_both_and_mounted_recoil() {
    let mut b = melee(("Ms", "Regular", ""), ("Ms", "Regular", ""), &[], "");
    let ev = fight_for(&mut b, Verdict::Draw, None);
    let DbnEvent::CloseCombat {
        attacker_effect,
        defender_effect,
        ..
    } = combat_event(&ev)
    else {
        unreachable!()
    };
    assert_eq!(
        (attacker_effect, defender_effect),
        (Effect::Hits(1), Effect::Hits(1))
    );
    let mut b = melee(("HC", "Regular", ""), ("DC", "Regular", ""), &[], "");
    let ev = fight_for(&mut b, Verdict::Draw, None);
    let DbnEvent::CloseCombat {
        attacker_effect,
        defender_effect,
        ..
    } = combat_event(&ev)
    else {
        unreachable!()
    };
    assert_eq!(
        (attacker_effect, defender_effect),
        (Effect::HitAndRecoil, Effect::HitAndRecoil)
    );
}

#[test]
fn stoic_grenadiers_of_prussia() {
    let mut b = melee(
        ("Ms", "Regular", ", flags: [Grenadier]"),
        ("Ms", "Regular", ""),
        &[],
        "",
    );
    // 4+3 = 7 against 4+4 = 8: the grenadiers are beaten by 1, which becomes a draw.
    b.script_dice(&[3, 4, 1, 1, 1, 1]);
    let ev = b.execute(fight("p", "a")).unwrap();
    assert!(matches!(
        combat_event(&ev),
        DbnEvent::CloseCombat {
            stoic: true,
            verdict: Verdict::Draw,
            ..
        }
    ));
}

#[test]
fn heavy_cavalry_must_pursue_artillery_never() {
    let mut b = melee(("HC", "Regular", ""), ("DC", "Regular", ""), &[], "");
    // 3+1+3 = 7 against 3+3 = 6: the dragoons recoil; the cuirassiers follow, and fight again.
    b.script_dice(&[3, 3, 1, 1, 1, 1]);
    let ev = b
        .execute(Command::Fight {
            unit: id("p"),
            target: id("a"),
            pursue: Some(false),
            pursuits: Vec::new(),
        })
        .unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Pursued { unit, .. } if unit.as_str() == "p")),
        "HC must pursue: {ev:?}"
    );
    let mut b = melee(("FA", "Regular", ""), ("Ms", "Regular", ""), &[], "");
    let ev = fight_for(&mut b, Verdict::Beaten, Some("a"));
    assert!(!ev.iter().any(|e| matches!(e, Event::Pursued { .. })));
}

#[test]
fn routing_troops_test() {
    // Two Austrian Muskets in column: the front one is destroyed by double, the one behind tests.
    let mut b = melee(
        ("Ms", "Elite", ""),
        ("Ms", "Regular", ""),
        &[U("a2", 1, "Ms", "Militia", 500.0, 530.0, 180.0, "")],
        "",
    );
    // 4+1-1 (rear support) +6 = 10 against 4+1 = 5: destroyed; then the routing test die 3.
    b.script_dice(&[6, 1, 3]);
    let ev = b.execute(fight("p", "a")).unwrap();
    let rt = ev.iter().find_map(|e| {
        if let Some(DbnEvent::RoutingTest {
            unit,
            die,
            total,
            hit,
            factors,
            ..
        }) = e.own()
        {
            Some((unit.to_string(), *die, *total, *hit, names(factors)))
        } else {
            None
        }
    });
    // Militia +1 and in full contact +1: 3 + 2 = 5, needs 4: a hit.
    assert_eq!(
        rt,
        Some((
            "a2".into(),
            3,
            5,
            true,
            vec!["+1 Militia".into(), "+1 In full contact".into()]
        ))
    );
}

#[test]
fn front_and_flank_attack_together() {
    let mut b = battle(
        &[
            U("p1", 0, "Ms", "Regular", 500.0, 585.0, 0.0, ""),
            U("p2", 0, "HC", "Regular", 400.0, 610.0, 90.0, ""),
            U("c", 0, "CinC", "Regular", 300.0, 300.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 600.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 5;
    b.execute(mv("p2", vec![Step::ToContact(id("a"))]))
        .expect("flank charge");
    to_phase(&mut b, 0, CLOSE_COMBAT);
    let e = b.execute(fight("p2", "a")).unwrap_err();
    assert_eq!(kind_of(&e), Ok(dbn::Refusal::FrontCombatFirst), "{e}");
    b.script_dice(&[3, 3, 1, 1, 1, 1, 1, 1]);
    let ev = b.execute(fight("p1", "a")).unwrap();
    let DbnEvent::CloseCombat { defender_score, .. } = combat_event(&ev) else {
        unreachable!()
    };
    assert!(
        has(
            &names(&defender_score.factors),
            "-2 Attacked first in flank or rear"
        ),
        "{:?}",
        defender_score.factors
    );
}

#[test]
fn the_garrison_defends_in_its_own_bound_too() {
    // 000 BUA's & NLF's: "Attacking a BUA Garrison ... the Garrison gains +4" and the Muskets
    // attacking it fight in attack column; "+1 Defending a NLF or Fortification". A draw leaves
    // both in contact; the next round, in Austria's bound, the garrison still defends (ruling
    // defending).
    let town = r#"(id: "t", kind: Town, name: "Town", points: [(400, 509), (600, 509), (600, 700), (400, 700)], fortified: true),"#;
    let mut b = melee(("Ms", "Regular", ""), ("Ms", "Regular", ""), &[], town);
    fight_for(&mut b, Verdict::Draw, None);
    to_phase(&mut b, 1, CLOSE_COMBAT);
    let mut c = b.clone();
    c.script_dice(&[1, 1, 1, 1, 1, 1, 1, 1]);
    let ev = c.execute(fight("a", "p")).expect("the garrison's round");
    let DbnEvent::CloseCombat {
        attacker_score,
        defender_score,
        ..
    } = combat_event(&ev)
    else {
        unreachable!()
    };
    assert_eq!(
        names(&attacker_score.factors),
        ["+4 Muskets", "+4 BUA garrison attacked"]
    );
    assert_eq!(
        names(&defender_score.factors),
        ["+4 Muskets", "+2 Attack column against a BUA garrison"]
    );
    // The same in a fortified village: +1 for defending it in its own bound.
    let village = r#"(id: "v", kind: Village, name: "Village", points: [(400, 509), (600, 509), (600, 700), (400, 700)], fortified: true),"#;
    let mut b = melee(("Ms", "Regular", ""), ("Ms", "Regular", ""), &[], village);
    fight_for(&mut b, Verdict::Draw, None);
    to_phase(&mut b, 1, CLOSE_COMBAT);
    b.script_dice(&[1, 1, 1, 1, 1, 1, 1, 1]);
    let ev = b.execute(fight("a", "p")).expect("the village's round");
    let DbnEvent::CloseCombat { attacker_score, .. } = combat_event(&ev) else {
        unreachable!()
    };
    assert_eq!(
        names(&attacker_score.factors),
        ["+4 Muskets", "+1 Defending a NLF or fortification"]
    );
}

#[test]
fn irregular_cavalry_fight_in_bad_going_without_the_minus_two() {
    // 000: "-2 Within BG except if Jagers or Irregulars" (ruling bg_irregulars).
    let mut b = melee(("Ms", "Regular", ""), ("IC", "Regular", ""), &[], woods_a());
    assert_eq!(factors(&mut b).1, ["+1 Irregular Cavalry"]);
}

#[test]
fn a_stoic_unit_beaten_by_one_draws_even_when_that_is_double() {
    // 000 A Stoic Unit: "beaten in Combat by a Final Score of 1 ... becomes a 'Draw'". Shaken
    // stoic Jagers at 2-1-1 = 0 throw 1 against Jagers at 2-1 = 1 throwing 1: 1 against 2.
    let mut b = melee(
        ("Jg", "Regular", ", flags: [Stoic], hits: 2"),
        ("Jg", "Regular", ""),
        &[],
        "",
    );
    b.script_dice(&[1, 1, 1, 1, 1, 1]);
    let ev = b.execute(fight("p", "a")).unwrap();
    let DbnEvent::CloseCombat {
        attacker_score,
        defender_score,
        verdict,
        stoic,
        loser,
        ..
    } = combat_event(&ev)
    else {
        unreachable!()
    };
    assert_eq!((attacker_score.total, defender_score.total), (1, 2));
    assert_eq!((verdict, stoic, loser), (Verdict::Draw, true, None));
}

#[test]
fn each_victor_chooses_its_own_pursuit() {
    // 000: "All victorious units ... can immediately 'Pursue'": the choice is the victor's.
    // Prussia fights and orders its own units to hold; Austria's dragoons beat Prussia's and,
    // given no order of Austria's, follow (ruling pursuit).
    let base = melee(("DC", "Regular", ""), ("DC", "Regular", ""), &[], "");
    let fight_with = |pursuits: Vec<volley::rules::command::Pursuit>| {
        for pd in 1..=6u8 {
            for ad in 1..=6u8 {
                let mut b = base.clone();
                b.script_dice(&[pd, ad, 1, 1, 1, 1, 1, 1, 1, 1]);
                let ev = b
                    .execute(Command::Fight {
                        unit: id("p"),
                        target: id("a"),
                        pursue: Some(false),
                        pursuits: pursuits.clone(),
                    })
                    .expect("fight");
                if let DbnEvent::CloseCombat {
                    verdict: Verdict::Beaten,
                    loser: Some(l),
                    ..
                } = combat_event(&ev)
                    && l.as_str() == "p"
                {
                    return ev;
                }
            }
        }
        panic!("no dice beat p");
    };
    let pursued = |ev: &[Event]| {
        ev.iter()
            .any(|e| matches!(e, Event::Pursued { unit, .. } if unit.as_str() == "a"))
    };
    assert!(pursued(&fight_with(Vec::new())), "Austria's victor follows");
    let held = fight_with(vec![volley::rules::command::Pursuit::hold(&id("a"))]);
    assert!(!pursued(&held), "Austria ordered its dragoons to hold");
    // Austria's standing order, given in its own bound, holds in Prussia's: the dragoons stay.
    let standing = {
        let mut b = base.clone();
        b.units_mut()[1].status.hold_ground = true;
        b
    };
    for pd in 1..=6u8 {
        for ad in 1..=6u8 {
            let mut b = standing.clone();
            b.script_dice(&[pd, ad, 1, 1, 1, 1, 1, 1, 1, 1]);
            let ev = b.execute(fight("p", "a")).expect("fight");
            assert!(!pursued(&ev), "dice {pd} {ad}: {ev:?}");
        }
    }
    // A combat left unfought at the end of the phase: no one chose to pursue (ruling
    // fight_order); 3+4 = 7 against 3+3 = 6 beats Austria's dragoons, and Prussia's stand.
    let mut b = base.clone();
    b.script_dice(&[4, 3, 1, 1, 1, 1, 1, 1]);
    let ev = b.execute(Command::EndPhase).expect("end of the phase");
    assert!(
        ev.iter().any(|e| matches!(
            e.own(),
            Some(DbnEvent::CloseCombat { loser: Some(l), .. }) if l.as_str() == "a"
        )),
        "{ev:?}"
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Pursued { .. })),
        "{ev:?}"
    );
}

#[test]
fn a_unit_on_a_bridge_over_a_stream_is_not_also_in_bad_going() {
    // 000: "-2 On a Bridge or Causeway"; the bridge carries the unit over the stream, so the
    // "-2 Within BG" of the stream beneath it is not added (ruling going).
    let bridge = r#"(id: "s", kind: Stream, name: "Brook", points: [(0, 500), (1000, 500)], width: 20), (id: "br", kind: Bridge, name: "Bridge", points: [(500, 470), (500, 480)], width: 45),"#;
    let mut b = melee(("Ms", "Regular", ""), ("Ms", "Regular", ""), &[], bridge);
    assert_eq!(
        factors(&mut b).0,
        ["+4 Muskets", "-2 On a bridge or causeway"]
    );
}

#[test]
fn a_standing_pursuit_order_is_its_owners_to_give() {
    // 000: "All victorious units ... can immediately 'Pursue'": the owner orders his own units,
    // in his bound, before the dice; Heavy Cavalry always pursue, artillery never.
    let mut b = melee(("DC", "Regular", ""), ("DC", "Regular", ""), &[], "");
    let order = |unit: &str, pursue: bool| Command::PursuitOrder {
        unit: id(unit),
        pursue,
    };
    let ev = b.execute(order("p", false)).expect("Prussia's own unit");
    assert_eq!(
        ev,
        [Event::PursuitOrdered {
            unit: id("p"),
            pursue: false
        }]
    );
    assert!(b.unit(&id("p")).expect("p").status.hold_ground);
    assert!(refused_as(&mut b, order("p", false)) == Ok(Shared::AlreadyOrderedSo));
    assert!(matches!(
        refusal(&mut b, order("a", false)),
        RuleError::NotYourUnit(u) if u == id("a")
    ));
    b.execute(order("p", true)).expect("back to pursuing");
    assert!(!b.unit(&id("p")).expect("p").status.hold_ground);
    let mut hc = melee(("HC", "Regular", ""), ("DC", "Regular", ""), &[], "");
    assert!(refused_as(&mut hc, order("p", false)) == Ok(Shared::NoPursuitChoice));
    // Ordered to hold, the victor holds when its own side fights too (no order in the Fight).
    let mut b = melee(("DC", "Regular", ""), ("DC", "Regular", ""), &[], "");
    b.execute(order("p", false)).expect("hold");
    for pd in 1..=6u8 {
        for ad in 1..=6u8 {
            let mut c = b.clone();
            c.script_dice(&[pd, ad, 1, 1, 1, 1, 1, 1, 1, 1]);
            let ev = c.execute(fight("p", "a")).expect("fight");
            assert!(
                !ev.iter()
                    .any(|e| matches!(e, Event::Pursued { unit, .. } if unit.as_str() == "p")),
                "{ev:?}"
            );
        }
    }
}

/// The effect on Austria's "a" when Prussia's "p" beats it (not by double).
fn beaten_effect(p: (&str, &str, &str), a: (&str, &str, &str), terrain: &str) -> Effect {
    let mut b = melee(p, a, &[], terrain);
    let ev = fight_for(&mut b, Verdict::Beaten, Some("a"));
    let DbnEvent::CloseCombat {
        defender_effect, ..
    } = combat_event(&ev)
    else {
        unreachable!()
    };
    defender_effect
}

#[test]
fn a_town_or_village_is_never_good_going_in_the_results() {
    // 000 BUA's & NLF's: fortifying lets Muskets garrison a BUA or occupy a NLF "without being
    // classed as in Bad Going", and "Any Close Combat inside a BUA is classed as in Bad Going";
    // neither puts a town or village in good going, where the results destroy Muskets beaten
    // by HC and Jagers or Irregular Infantry beaten by mounted (ruling results_going).
    let village = |fortified: bool| {
        format!(
            r#"(id: "v", kind: Village, name: "Village", points: [(400, 509), (600, 509), (600, 700), (400, 700)], fortified: {fortified}),"#
        )
    };
    let town = r#"(id: "t", kind: Town, name: "Town", points: [(400, 509), (600, 509), (600, 700), (400, 700)], fortified: true),"#;
    let fortified = village(true);
    let open = village(false);
    // Muskets occupying a fortified village, and the shaken militia garrison of a fortified
    // town: beaten by HC they take a hit and recoil.
    assert_eq!(
        beaten_effect(("HC", "Regular", ""), ("Ms", "Regular", ""), &fortified),
        Effect::HitAndRecoil
    );
    assert_eq!(
        beaten_effect(("HC", "Regular", ""), ("Ms", "Militia", ", hits: 2"), town),
        Effect::HitAndRecoil
    );
    // Jagers and Irregular Infantry holding a village beaten by horse: a hit and flee, or
    // recoil.
    assert_eq!(
        beaten_effect(("HC", "Regular", ""), ("Jg", "Regular", ""), &open),
        Effect::Flee { hits: 1 }
    );
    assert_eq!(
        beaten_effect(("DC", "Regular", ""), ("II", "Regular", ""), &open),
        Effect::HitAndRecoil
    );
    // In the open the same are destroyed.
    assert_eq!(
        beaten_effect(("HC", "Regular", ""), ("Ms", "Regular", ""), ""),
        Effect::Destroyed
    );
    assert_eq!(
        beaten_effect(("DC", "Regular", ""), ("Jg", "Regular", ""), ""),
        Effect::Destroyed
    );
}

#[test]
fn a_pursuer_that_hits_a_flank_attacked_it_first_in_either_bound() {
    // Prussia's bound: Austrian dragoons destroy the Guerrillas that attacked them and break
    // through one base depth into the left flank of Prussian Muskets facing east. Austria
    // attacked the Muskets first in the flank, though it is not Austria's bound: "-2 Attacked
    // First in Flank/Rear" (ruling front_and_flank).
    let gs = depth("Gs");
    let dc = depth("DC");
    let (w, _) = base_size("Ms");
    let a_y = 500.0 + gs / 2.0 + dc / 2.0;
    // The Muskets' left flank edge lies 25 mm short of the dragoons' front, inside their
    // breakthrough of one base depth.
    let m_y = a_y - dc / 2.0 - 25.0 - w / 2.0;
    let mut b = battle(
        &[
            U("p", 0, "Gs", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "DC", "Regular", 500.0, a_y, 180.0, ""),
            U("m", 0, "Ms", "Regular", 500.0, m_y, 90.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b.script_dice(&[1, 6, 1, 1, 1, 1, 1, 1]);
    let ev = b.execute(fight("p", "a")).expect("fight accepted");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Pursued { unit, .. } if unit.as_str() == "a")),
        "{ev:#?}"
    );
    let flank = ev
        .iter()
        .find_map(|e| match e.own() {
            Some(DbnEvent::CloseCombat {
                attacker,
                defender,
                defender_score,
                ..
            }) if attacker.as_str() == "a" && defender.as_str() == "m" => {
                Some(names(&defender_score.factors))
            }
            _ => None,
        })
        .expect("the dragoons fight the Muskets at once");
    assert_eq!(flank, ["+4 Muskets", "-2 Attacked first in flank or rear"]);
}
