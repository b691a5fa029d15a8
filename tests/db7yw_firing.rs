//! DB7YW firing playsheet: every tactical factor and every result row, with scripted dice.

mod common;
use common::*;
use volley::rules::command::{Command, Effect, Event, Verdict};
use volley::rules::ruleset::dbn;
use volley::rules::ruleset::dbn::{DbnEvent, FIRING};

/// A Prussian shooter "p" at (500, 500) facing north, an Austrian target "a" 20 mm (79 paces)
/// ahead of its front edge, facing it.
fn duel(p: (&str, &str, &str), a: (&str, &str, &str), terrain: &str) -> volley::rules::Game {
    let ty = 500.0 + depth(p.0) / 2.0 + 20.0 + depth(a.0) / 2.0;
    let mut b = battle(
        &[
            U("p", 0, p.0, p.1, 500.0, 500.0, 0.0, p.2),
            U("a", 1, a.0, a.1, 500.0, ty, 180.0, a.2),
        ],
        terrain,
    );
    to_phase(&mut b, 0, FIRING);
    b
}

fn shoot(
    b: &mut volley::rules::Game,
    dice: &[u8],
) -> (Vec<String>, Vec<String>, DbnEvent, Vec<Event>) {
    b.script_dice(dice);
    let ev = b.execute(fire("p", "a")).expect("fire accepted");
    let e = fire_event(&ev);
    match &e {
        DbnEvent::Fire {
            shooter_score,
            target_score,
            ..
        } => (
            names(&shooter_score.factors),
            names(&target_score.factors),
            e.clone(),
            ev,
        ),
        _ => unreachable!(),
    }
}

fn effect(e: &DbnEvent) -> (Option<String>, Verdict, Effect) {
    match e {
        DbnEvent::Fire {
            loser,
            verdict,
            effect,
            ..
        } => (
            loser.as_ref().map(|l| l.to_string()),
            *verdict,
            effect.clone(),
        ),
        _ => unreachable!(),
    }
}

#[test]
fn muskets_against_muskets_plain() {
    let mut b = duel(("Ms", "Regular", ""), ("Ms", "Regular", ""), "");
    let (s, t, e, _) = shoot(&mut b, &[5, 2]);
    assert_eq!(s, ["+4 Muskets"]);
    assert_eq!(t, ["+4 Muskets"]);
    assert_eq!(
        effect(&e),
        (Some("a".into()), Verdict::Beaten, Effect::Hits(1))
    );
    assert_eq!(b.unit(&id("a")).unwrap().status.hits, 1);
}

#[test]
fn beaten_by_double_gives_two_hits_and_shaken() {
    let mut b = duel(("Ms", "Regular", ""), ("Ms", "Regular", ""), "");
    // 4+6 = 10 against 4+1 = 5.
    let (_, _, e, ev) = shoot(&mut b, &[6, 1]);
    assert_eq!(
        effect(&e),
        (Some("a".into()), Verdict::BeatenByDouble, Effect::Hits(2))
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Shaken { unit } if unit.as_str() == "a"))
    );
}

#[test]
fn draw_and_target_winning_have_no_effect() {
    let mut b = duel(("Ms", "Regular", ""), ("Ms", "Regular", ""), "");
    let (_, _, e, _) = shoot(&mut b, &[3, 3]);
    assert_eq!(effect(&e), (None, Verdict::Draw, Effect::NoEffect));
    let mut b = duel(("Ms", "Regular", ""), ("Ms", "Regular", ""), "");
    let (_, _, e, _) = shoot(&mut b, &[1, 6]);
    assert_eq!(effect(&e).0, None);
    assert_eq!(b.unit(&id("p")).unwrap().status.hits, 0);
}

#[test]
fn elite_superior_and_militia() {
    let mut b = duel(("Ms", "Elite", ""), ("Ms", "Militia", ""), "");
    let (s, t, _, _) = shoot(&mut b, &[1, 1]);
    assert_eq!(s, ["+4 Muskets", "+1 Elite"]);
    assert_eq!(t, ["+4 Muskets", "-1 Militia"]);
    // Ms(S) fire as Elite.
    let mut b = duel(("Ms", "Superior", ""), ("Ms", "Regular", ""), "");
    let (s, _, _, _) = shoot(&mut b, &[1, 1]);
    assert_eq!(s, ["+4 Muskets", "+1 Elite"]);
}

#[test]
fn shaken_firer() {
    let mut b = duel(("Ms", "Regular", ", hits: 2"), ("Ms", "Regular", ""), "");
    let (s, _, _, _) = shoot(&mut b, &[1, 1]);
    assert_eq!(s, ["+4 Muskets", "-1 Shaken"]);
}

#[test]
fn firing_into_flank() {
    // Target faces east; the firer stands behind its front line.
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 530.0, 90.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, _) = shoot(&mut b, &[1, 1]);
    assert!(
        s.contains(&"+1 Firing into enemy flank or rear".to_string()),
        "{s:?}"
    );
}

#[test]
fn fire_support_both_ways() {
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
            U("p2", 0, "Ms", "Regular", 460.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 527.5, 180.0, ""),
            U("a2", 1, "Ms", "Regular", 540.0, 527.5, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    b.script_dice(&[1, 1]);
    let ev = b
        .execute(Command::Fire {
            unit: id("p"),
            target: id("a"),
            support: vec![id("p2")],
            defence: None,
        })
        .unwrap();
    let DbnEvent::Fire {
        shooter_score,
        target_score,
        ..
    } = fire_event(&ev)
    else {
        unreachable!()
    };
    // Each support factor names the unit giving it.
    assert_eq!(
        names(&shooter_score.factors),
        ["+4 Muskets", "-1 Enemy unit providing fire support (a2)"]
    );
    assert_eq!(
        names(&target_score.factors),
        ["+4 Muskets", "-1 Enemy unit providing fire support (p2)"]
    );
    // The supporter has fired.
    assert!(b.execute(fire("p2", "a")).is_err());
}

#[test]
fn artillery_within_200_paces_and_not_responding() {
    // FA 40 mm deep; target 30 mm (118 paces) ahead, in good going.
    let mut b = battle(
        &[
            U("p", 0, "FA", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 557.5, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, t, _, _) = shoot(&mut b, &[1, 1]);
    assert_eq!(s, ["+3 Foot Artillery"]);
    assert_eq!(
        t,
        [
            "+4 Muskets",
            "-1 In GG and fired at by artillery within 200 paces"
        ]
    );
    // Muskets fire at guns facing away: the guns cannot respond.
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "FA", "Regular", 500.0, 535.0, 0.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (_, t, _, _) = shoot(&mut b, &[1, 1]);
    assert_eq!(
        t,
        [
            "+3 Foot Artillery",
            "-1 Artillery not responding to enemy firing"
        ]
    );
}

#[test]
fn jagers_in_bad_going_and_skirmishers_in_gg() {
    let wood = r#"(id: "w", kind: Woods, name: "Wood", points: [(400, 530), (600, 530), (600, 700), (400, 700)]),"#;
    // Ms at Jagers in woods, 20 mm (79 paces: within woods visibility).
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Jg", "Regular", 500.0, 537.5, 180.0, ""),
        ],
        wood,
    );
    to_phase(&mut b, 0, FIRING);
    let (s, t, _, _) = shoot(&mut b, &[1, 1]);
    assert_eq!(
        s,
        [
            "+4 Muskets",
            "-1 Firing at Jagers in bad going",
            "-2 Firing from within or into bad going"
        ]
    );
    assert_eq!(t, ["+2 Jagers"]);
    // Artillery at Jagers in good going.
    let mut b = battle(
        &[
            U("p", 0, "FA", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Jg", "Regular", 500.0, 600.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, _) = shoot(&mut b, &[1, 1]);
    assert_eq!(
        s,
        [
            "+3 Foot Artillery",
            "-1 Artillery firing at foot skirmishers in GG"
        ]
    );
}

#[test]
fn skirmishers_ignore_the_bad_going_penalty() {
    let wood = r#"(id: "w", kind: Woods, name: "Wood", points: [(400, 530), (600, 530), (600, 700), (400, 700)]),"#;
    let mut b = battle(
        &[
            U("p", 0, "Jg", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 537.5, 180.0, ""),
        ],
        wood,
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, _) = shoot(&mut b, &[1, 1]);
    assert_eq!(s, ["+2 Jagers"]);
}

#[test]
fn firing_into_a_town_and_from_a_bridge() {
    let town = r#"(id: "t", kind: Town, name: "Town", points: [(450, 530), (550, 530), (550, 600), (450, 600)]),"#;
    let mut b = duel(("Ms", "Regular", ""), ("Ms", "Regular", ""), town);
    let (s, _, _, _) = shoot(&mut b, &[1, 1]);
    assert_eq!(
        s,
        ["+4 Muskets", "-2 Firing into BUA or fortifications"],
        "a town is not bad going for firing (ruling towns)"
    );
    let bridge = r#"(id: "r", kind: River, name: "River", points: [(0, 500), (1000, 500)], width: 30), (id: "br", kind: Bridge, name: "Bridge", points: [(500, 470), (500, 530)], width: 45),"#;
    let mut b = duel(("Ms", "Regular", ""), ("Ms", "Regular", ""), bridge);
    let (s, _, _, _) = shoot(&mut b, &[1, 1]);
    assert_eq!(
        s,
        ["+4 Muskets", "-2 Firing whilst on a bridge or causeway"]
    );
}

#[test]
fn results_by_troop_type_beaten_by_double() {
    // (target type, class, extra fields, shooter type, expected effect)
    let rows: &[(&str, &str, &str, &str, Effect)] = &[
        ("CinC", "Regular", "", "Ms", Effect::Destroyed),
        ("Gs", "Regular", "", "Ms", Effect::Destroyed),
        ("FA", "Regular", ", flags: [Fixed]", "Ms", Effect::Destroyed),
        // A deployed battery is not fixed artillery (ruling fixed_artillery).
        ("FA", "Regular", "", "Ms", Effect::Hits(2)),
        ("FA", "Regular", ", limbered: true", "Ms", Effect::Hits(2)),
        ("IC", "Regular", "", "Ms", Effect::Flee { hits: 1 }),
        ("Jg", "Regular", "", "Jg", Effect::Destroyed),
        ("Jg", "Regular", "", "Ms", Effect::Flee { hits: 1 }),
        ("Ms", "Regular", "", "Ms", Effect::Hits(2)),
        ("HC", "Regular", "", "Ms", Effect::Hits(2)),
    ];
    for (t, c, extra, s, want) in rows {
        let mut b = duel((s, "Regular", ""), (t, c, extra), "");
        // Die 6 for the firer and 1 for the target; target factors at most +4.
        b.script_dice(&[6, 1, 6, 6, 6, 6]);
        let ev = b
            .execute(fire("p", "a"))
            .unwrap_or_else(|e| panic!("{t} by {s}: {e}"));
        let (loser, verdict, effect) = effect(&fire_event(&ev));
        if verdict == Verdict::BeatenByDouble {
            assert_eq!(loser.as_deref(), Some("a"));
            assert_eq!(&effect, want, "{t} beaten by double by {s}");
        } else {
            panic!("{t} by {s}: expected beaten by double, got {verdict:?} ({ev:?})");
        }
    }
}

#[test]
fn results_beaten_commander_recoils_without_hit() {
    let mut b = duel(("Ms", "Regular", ""), ("CinC", "Regular", ""), "");
    // 4+5 = 9 against 1+5 = 6: beaten, not by double.
    let (_, _, e, ev) = shoot(&mut b, &[5, 5]);
    assert_eq!(
        effect(&e),
        (Some("a".into()), Verdict::Beaten, Effect::Recoil)
    );
    assert!(ev.iter().any(|e| matches!(e, Event::Recoiled { .. })));
    assert_eq!(b.unit(&id("a")).unwrap().status.hits, 0);
}

#[test]
fn stoic_guard_beaten_by_one_is_a_draw() {
    let mut b = duel(
        ("Ms", "Regular", ""),
        ("Ms", "Regular", ", flags: [Guard]"),
        "",
    );
    let (_, _, e, _) = shoot(&mut b, &[4, 3]);
    let DbnEvent::Fire {
        stoic,
        verdict,
        loser,
        ..
    } = e
    else {
        unreachable!()
    };
    assert!(stoic && verdict == Verdict::Draw && loser.is_none());
}

#[test]
fn russian_muskets_are_stoic_when_firing_only() {
    let text = |side_nation: &str| {
        format!(
            "(name: \"t\", ruleset: \"db7yw\", table: (width: 1000, height: 1000), turn_limit: 5,
              sides: [(name: \"P\", nation: \"prussia\", colour: (0,0,200)), (name: \"R\", nation: \"{side_nation}\", colour: (0,150,0))],
              units: [(id: \"p\", side: 0, type: \"Ms\", at: Some((500, 500)), facing: 0), (id: \"a\", side: 1, type: \"Ms\", at: Some((500, 535)), facing: 180)])"
        )
    };
    let mut b = volley::rules::scenario::parse(&text("russia"), "t").unwrap();
    to_phase(&mut b, 0, FIRING);
    let (_, _, e, _) = shoot(&mut b, &[4, 3]);
    assert!(matches!(e, DbnEvent::Fire { stoic: true, .. }));
    let mut b = volley::rules::scenario::parse(&text("austria"), "t").unwrap();
    to_phase(&mut b, 0, FIRING);
    let (_, _, e, _) = shoot(&mut b, &[4, 3]);
    assert!(matches!(
        e,
        DbnEvent::Fire {
            stoic: false,
            verdict: Verdict::Beaten,
            ..
        }
    ));
}

#[test]
fn counter_battery_fire_is_mutual() {
    let mut b = battle(
        &[
            U("p", 0, "FA", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "FA", "Regular", 500.0, 700.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    b.script_dice(&[1, 6]);
    let ev = b.execute(fire("p", "a")).unwrap();
    let DbnEvent::Fire {
        loser,
        mutual,
        effect,
        ..
    } = fire_event(&ev)
    else {
        unreachable!()
    };
    assert!(mutual);
    // 3+1 = 4 against 3+6 = 9: the firing battery is beaten by double; deployed, not fixed,
    // it takes 2 hits like all others.
    assert_eq!(loser.map(|l| l.to_string()), Some("p".to_string()));
    assert_eq!(effect, Effect::Hits(2));
}

#[test]
fn ineligible_targets_say_why() {
    // Out of range: Muskets at 200 paces.
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 565.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let e = b.execute(fire("p", "a")).unwrap_err();
    assert_eq!(kind_of(&e), Ok(dbn::Refusal::OutOfRange), "{e}");
    // Out of arc: directly behind.
    let mut b = battle(
        &[
            U("p", 0, "FA", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 400.0, 0.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    assert_eq!(
        kind_of(&b.execute(fire("p", "a")).unwrap_err()),
        Ok(dbn::Refusal::OutOfArc)
    );
    // Blocked by a unit between.
    let mut b = battle(
        &[
            U("p", 0, "FA", "Regular", 500.0, 500.0, 0.0, ""),
            U("x", 0, "HC", "Regular", 500.0, 600.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 700.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let e = b.execute(fire("p", "a")).unwrap_err();
    assert_eq!(kind_of(&e), Ok(dbn::Refusal::NoLineOfSight), "{e}");
    // What blocks the line is named in the words only.
    assert!(e.to_string().contains('x'), "{e}");
    // Refused commands change nothing.
    assert!(
        b.log
            .iter()
            .all(|e| !matches!(e.own(), Some(DbnEvent::Fire { .. })))
    );
}

#[test]
fn woods_limit_visibility_to_100_paces() {
    let wood = r#"(id: "w", kind: Woods, name: "Wood", points: [(300, 520), (700, 520), (700, 800), (300, 800)]),"#;
    // Jagers inside the wood 60 mm (236 paces) away: beyond woods visibility.
    let mut b = battle(
        &[
            U("p", 0, "Jg", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 577.5, 180.0, ""),
        ],
        wood,
    );
    to_phase(&mut b, 0, FIRING);
    let e = b.execute(fire("p", "a")).unwrap_err();
    assert_eq!(kind_of(&e), Ok(dbn::Refusal::OutOfRange), "{e}");
    // The refusal names the ground that limits the sight.
    assert!(
        e.to_string()
            .contains("(in Wood it can be seen only within 100 paces)"),
        "{e}"
    );
}

#[test]
fn foot_artillery_moves_or_fires() {
    let mut b = battle(
        &[
            U(
                "p",
                0,
                "FA",
                "Regular",
                500.0,
                500.0,
                0.0,
                ", limbered: true",
            ),
            U("a", 1, "Ms", "Regular", 500.0, 700.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    assert_eq!(
        kind_of(&b.execute(fire("p", "a")).unwrap_err()),
        Ok(dbn::Refusal::Limbered)
    );
}

#[test]
fn the_preview_shows_the_factors_the_roll_will_use_and_exact_odds() {
    use volley::rules::ruleset::AnyRuleset;
    let mut b = duel(
        ("Ms", "Elite", ""),
        ("Ms", "Regular", ", flags: [Guard]"),
        "",
    );
    let AnyRuleset::Db7yw(r) = b.rules.clone() else {
        panic!("a DB7YW battle")
    };
    let p = r.forecast(&b, &fire("p", "a")).unwrap();
    let o = p.odds;
    let total = o.a_wins + o.a_wins_by_double + o.draw + o.b_wins + o.b_wins_by_double;
    assert!((total - 1.0).abs() < 1e-9);
    // +5 against +4, target stoic: 15 throws win for the firer (by 2 or more), 5 become draws.
    assert!(
        (o.a_wins + o.a_wins_by_double - 15.0 / 36.0).abs() < 1e-9,
        "{o:?}"
    );
    let (s, t, _, _) = shoot(&mut b, &[3, 3]);
    assert_eq!(s, names(&p.setup.a_factors));
    assert_eq!(t, names(&p.setup.b_factors));
}

#[test]
fn a_target_on_a_bridge_takes_no_minus_two_for_firing_from_it() {
    // 000 Firing tactical factors: "-2 Firing whilst on a Bridge or Causeway" is the firer's.
    let bridge = r#"(id: "r", kind: River, name: "River", points: [(0, 540), (1000, 540)], width: 30), (id: "br", kind: Bridge, name: "Bridge", points: [(500, 530), (500, 545)], width: 45),"#;
    let mut b = duel(("Ms", "Regular", ""), ("Ms", "Regular", ""), bridge);
    let (s, t, _, _) = shoot(&mut b, &[1, 1]);
    assert_eq!(s, ["+4 Muskets"]);
    assert_eq!(t, ["+4 Muskets"]);
}
