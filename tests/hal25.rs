//! Hal's 25mm rules played: the turn, the scenarios to a result, charges, fire and melee with
//! scripted dice, the chips' re-roll.

mod common;
use common::hal25::{battle, disorganised, passed, roll_for, rolls_for, to_phase, words};
use common::id;
use std::path::Path;
use volley::players::autoplay::AutoPlayer;
use volley::rules::ruleset::hal25::{
    ARTILLERY, Band, CHARGES, CLOSE_COMBAT, HalEvent, HalRoll, MOVEMENT, Marker, ROUT, Refusal,
    SMALL_ARMS,
};
use volley::rules::{Game, scenario};

#[test]
fn every_hal25_scenario_plays_to_a_result_and_replays() {
    for f in [
        "scenarios/hal25_tutorial.ron",
        "scenarios/hal25_default.ron",
        "scenarios/hal25_krefeld.ron",
    ] {
        let mut b = scenario::load(Path::new(f)).expect(f);
        AutoPlayer::new(7).play(&mut b, 4000, 12);
        assert!(
            b.is_over(),
            "{f}: no result after {} commands",
            b.commands.len()
        );
        let text = format!(
            "[\n{}]\n",
            b.commands
                .iter()
                .map(|c| format!("    {},\n", ron::to_string(c).unwrap()))
                .collect::<String>()
        );
        let cmds = volley::rules::save::parse_orders(&text, f).expect("orders");
        let mut again = scenario::load(Path::new(f)).expect(f);
        let (_, err) = volley::cli::run_orders(&mut again, cmds);
        assert_eq!(err, None, "{f}");
        assert_eq!(again.log, b.log, "{f}: replay differs");
    }
}

#[test]
#[ignore = "prints a whole game's log"]
fn print_a_game() {
    let f = std::env::var("HAL_SCENARIO").unwrap_or("scenarios/hal25_default.ron".into());
    let mut b = scenario::load(Path::new(&f)).expect("scenario");
    AutoPlayer::new(7).play(&mut b, 4000, 12);
    for e in &b.log {
        let w = volley::text::report::describe(&b, e);
        if !w.is_empty() {
            println!("{w}");
        }
    }
}

use volley::players::opponent::{Opponent, Style};
use volley::rules::command::{Command, Event, Step};
use volley::rules::model::{Formation, UnitId};
use volley::rules::ruleset::Roll;
use volley::rules::ruleset::hal25::status::own;

/// The kind a command was refused for (Hal's own), or the refusal's words where it has none.
fn refused_as(b: &mut Game, c: Command) -> Result<Refusal, String> {
    let log = b.log.len();
    let e = b.execute(c).expect_err("refused");
    assert_eq!(b.log.len(), log, "a refused command changes nothing");
    e.refusal::<Refusal>().cloned().ok_or_else(|| e.to_string())
}

/// The kind of the one range die thrown for firing into a charge, and its dice.
fn charge_range(ev: &[Event]) -> (HalRoll, Vec<u8>) {
    match ev
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { what, roll } => what
                .kind::<HalRoll>()
                .filter(|k| matches!(k, HalRoll::ChargeRange { .. }))
                .map(|k| (*k, roll.dice.clone())),
            _ => None,
        })
        .collect::<Vec<_>>()[..]
    {
        [ref r] => r.clone(),
        ref rs => panic!("{} range dice into the charge: {ev:?}", rs.len()),
    }
}

/// A roll's dice, total and the values of its factors.
fn shape(r: &Roll) -> (Vec<u8>, i32, Vec<i32>) {
    (
        r.dice.clone(),
        r.total,
        r.factors.iter().map(|f| f.value).collect(),
    )
}

/// The figures `unit` lost among `ev`, loss by loss.
fn losses(ev: &[Event], unit: &str) -> Vec<u32> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Losses {
                unit: u, figures, ..
            } if u.as_str() == unit => Some(*figures),
            _ => None,
        })
        .collect()
}

/// Why `unit` was destroyed among `ev`, if it was.
fn destroyed<'a>(ev: &'a [Event], unit: &str) -> Option<&'a str> {
    ev.iter().find_map(|e| match e {
        Event::Destroyed { unit: u, reason } if u.as_str() == unit => Some(reason.as_str()),
        _ => None,
    })
}

/// The last move of `unit` among `ev`: the distance (to a tenth of an inch, as the log shows
/// it) and the allowance, inches.
fn moved(ev: &[Event], unit: &str) -> (f32, f32) {
    ev.iter()
        .rev()
        .find_map(|e| match e {
            Event::Moved {
                unit: u,
                distance,
                allowance,
                ..
            } if u.as_str() == unit => Some(((distance * 10.0).round() / 10.0, *allowance)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{unit} did not move: {ev:?}"))
}

/// The volleys among `ev` that `shooter` fired: dice, factor values, hits.
fn volleys(ev: &[Event], shooter: &str) -> Vec<(Vec<u8>, Vec<i32>, u32)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Volley {
                shooter: s,
                dice,
                factors,
                hits,
                ..
            } if s.as_str() == shooter => Some((
                dice.clone(),
                factors.iter().map(|f| f.value).collect(),
                *hits,
            )),
            _ => None,
        })
        .collect()
}

/// The melees among `ev`: the attacker's total, the defender's, and the difference.
fn melees(ev: &[Event]) -> Vec<(i32, i32, i32)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Assault {
                attacker_roll,
                defender_roll,
                difference,
                ..
            } => Some((attacker_roll.total, defender_roll.total, *difference)),
            _ => None,
        })
        .collect()
}

/// Whether `by` spent a chip among `ev` to throw `unit`'s `die` again, leaving `chips`.
fn rerolled(ev: &[Event], by: &str, unit: &str, die: u8, chips: u32) -> bool {
    ev.iter().any(|e| {
        matches!(e, Event::Rerolled { by: b, unit: u, die: d, chips: c }
            if b.as_str() == by && u.as_str() == unit && *d == die && *c == chips)
    })
}

/// The charge bonus `unit` threw among `ev`, and whether the charge reached its target: it
/// ends in contact with it.
fn charge(ev: &[Event], unit: &str) -> (i32, bool) {
    let bonus = roll_for(ev, unit, "the charge bonus").total;
    let reached = ev
        .iter()
        .any(|e| matches!(e, Event::Moved { unit: u, contact: Some(_), .. } if u.as_str() == unit));
    (bonus, reached)
}

/// A brigade of three line battalions a side, ten inches apart, generals behind.
fn two_brigades() -> Game {
    battle(
        &[
            ("ga", 0, "GEN", "A", 610.0, 150.0, 0.0, ""),
            ("a1", 0, "GR", "A", 300.0, 250.0, 0.0, ""),
            ("a2", 0, "LI", "A", 640.0, 250.0, 0.0, ""),
            ("a3", 0, "LI", "A", 980.0, 250.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 610.0, 700.0, 180.0, ""),
            ("b1", 1, "LI", "B", 300.0, 542.0, 180.0, ""),
            ("b2", 1, "LI", "B", 640.0, 542.0, 180.0, ""),
            (
                "b3",
                1,
                "HC",
                "B",
                1000.0,
                600.0,
                180.0,
                ", formation: Some(Column)",
            ),
        ],
        "",
    )
}

#[test]
fn brigades_move_by_the_activation_throw() {
    let mut b = two_brigades();
    // Chips: four 3s... two generals: one chip each; then declarations; the throw 2 against 4.
    to_phase(&mut b, MOVEMENT, &[3, 3, 2, 4, 6, 6, 6, 6]);
    assert_eq!(b.active, 1, "the higher die moves");
    assert_eq!(
        b.command_points[1], 1,
        "as many brigades as the difference, at most those left"
    );
    let e = refused_as(&mut b, Command::Activate { unit: id("a1") });
    assert_eq!(e, Ok(Refusal::OtherSideMoving));
    let e = refused_as(
        &mut b,
        Command::Move {
            unit: id("b1"),
            steps: vec![Step::Advance(1.0)],
        },
    );
    assert_eq!(e, Ok(Refusal::BrigadeNotMoving));
    b.execute(Command::Activate { unit: id("b2") })
        .expect("activate");
    let e = refused_as(&mut b, Command::Activate { unit: id("b1") });
    assert_eq!(e, Ok(Refusal::BrigadeMoved));
    b.execute(Command::Move {
        unit: id("b2"),
        steps: vec![Step::Advance(2.0)],
    })
    .expect("a move of 2\" in line");
    // A move beyond the 6" of line infantry is refused before any die.
    let e = refused_as(
        &mut b,
        Command::Move {
            unit: id("b1"),
            steps: vec![Step::Advance(7.0)],
        },
    );
    assert_eq!(e, Ok(Refusal::BeyondAllowance { may: 6.0 }));
    // Ending the throw: the other side has brigades left and moves them without a throw.
    b.execute(Command::EndPhase).expect("end throw");
    assert_eq!(b.active, 0);
    assert_eq!(b.command_points[0], 1);
    b.execute(Command::EndPhase).expect("end throw");
    assert_eq!(b.phase, ARTILLERY, "all brigades moved: firing");
}

/// The turn bar adds " phase" to the phase's words: they name the phase bare, and what the
/// side does in it goes with what it has to spend.
#[test]
fn the_turn_bar_names_the_phase_and_the_throw_apart() {
    let mut b = two_brigades();
    to_phase(&mut b, MOVEMENT, &[3, 3, 2, 4, 6, 6, 6, 6]);
    let w = b.rules.turn_words(&b);
    assert_eq!(w.phase, "movement");
    let r = w.resources.unwrap_or_default();
    assert!(
        r.starts_with("B sets 1 more brigade moving (threw 4 against 2)"),
        "{r}"
    );
    assert!(r.contains("Brigades to move: A 1, B 1"), "{r}");
    b.execute(Command::EndPhase).expect("end throw");
    b.execute(Command::EndPhase).expect("end throw");
    let w = b.rules.turn_words(&b);
    assert_eq!((w.phase.as_str(), w.resources), ("artillery fire", None));
}

#[test]
fn formed_troops_keep_out_of_woods_and_cavalry_cannot_back_away() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 300.0, 100.0, 0.0, ""),
            ("a1", 0, "LI", "A", 200.0, 200.0, 0.0, ""),
            (
                "lt",
                0,
                "LT",
                "A",
                800.0,
                200.0,
                0.0,
                ", formation: Some(Skirmish)",
            ),
            ("a2", 0, "LI", "A", 300.0, 700.0, 0.0, ""),
            ("a3", 0, "LI", "A", 850.0, 700.0, 0.0, ""),
            ("gc", 0, "GEN", "C", 600.0, 430.0, 0.0, ""),
            ("c1", 0, "HC", "C", 400.0, 400.0, 0.0, ""),
            (
                "c2",
                0,
                "LC",
                "C",
                1000.0,
                400.0,
                0.0,
                ", formation: Some(Column)",
            ),
            ("gb", 1, "GEN", "B", 100.0, 880.0, 180.0, ""),
            (
                "b1",
                1,
                "LI",
                "B",
                200.0,
                830.0,
                180.0,
                ", formation: Some(Column)",
            ),
            (
                "b2",
                1,
                "LI",
                "B",
                350.0,
                830.0,
                180.0,
                ", formation: Some(Column)",
            ),
            (
                "b3",
                1,
                "LI",
                "B",
                500.0,
                830.0,
                180.0,
                ", formation: Some(Column)",
            ),
        ],
        "(id: \"w\", kind: Woods, name: \"Birkenwald\", points: [(100, 260), (1100, 260), (1100, 330), (100, 330)])",
    );
    // Chips; the throw 5 against 1: side 0 moves both its brigades.
    to_phase(&mut b, MOVEMENT, &[3, 3, 3, 5, 1, 4, 4, 4]);
    b.execute(Command::Activate { unit: id("a1") }).expect("A");
    b.execute(Command::Activate { unit: id("c1") }).expect("C");
    let e = refused_as(
        &mut b,
        Command::Move {
            unit: id("a1"),
            steps: vec![Step::Advance(3.0)],
        },
    );
    assert_eq!(e, Ok(Refusal::FormedThroughWoods));
    // Skirmishers may enter woods and take no rough-terrain die.
    let ev = b
        .execute(Command::Move {
            unit: id("lt"),
            steps: vec![Step::Advance(3.0)],
        })
        .expect("skirmishers in the woods");
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Rolled { .. })),
        "skirmishers throw no die for the woods: {}",
        words(&b, &ev)
    );
    let e = refused_as(
        &mut b,
        Command::Move {
            unit: id("c1"),
            steps: vec![Step::Backstep(2.0)],
        },
    );
    assert_eq!(e, Ok(Refusal::CavalryMayNotMoveBack));
    // Out of command (far from its brigadier), it passes its check (4+4) to move; moving back
    // facing the enemy loses 1D6 (the die: 4, of 6").
    let ev = b
        .execute(Command::Move {
            unit: id("a3"),
            steps: vec![Step::Backstep(2.0)],
        })
        .expect("back");
    let w = words(&b, &ev);
    assert_eq!(
        shape(roll_for(
            &ev,
            "a3",
            "movement: moving back facing the enemy"
        )),
        (vec![4], -4, vec![]),
        "{w}"
    );
    assert_eq!(moved(&ev, "a3"), (2.0, 2.0), "{w}");
}

#[test]
fn a_formation_change_costs_a_die_and_grenadiers_three_inches_more() {
    let mut b = two_brigades();
    to_phase(&mut b, MOVEMENT, &[3, 3, 5, 2, 2]);
    b.execute(Command::Activate { unit: id("a1") }).expect("A");
    let ev = b
        .execute(Command::Form {
            unit: id("a1"),
            formation: Formation::Column,
            turn: 0.0,
        })
        .expect("form column");
    let w = words(&b, &ev);
    let (roll, allowance) = ev
        .iter()
        .find_map(|e| match e {
            Event::Ordered {
                unit,
                roll,
                allowance,
                ..
            } if unit.as_str() == "a1" => Some((roll, *allowance)),
            _ => None,
        })
        .expect("the formation change's die");
    assert_eq!(shape(roll), (vec![2], -5, vec![-3]), "{w}");
    assert_eq!(allowance, 6.0, "{w}");
    // 6" (the slower of line and column) less 5: 1" left.
    let e = refused_as(
        &mut b,
        Command::Move {
            unit: id("a1"),
            steps: vec![Step::Advance(1.5)],
        },
    );
    assert_eq!(e, Ok(Refusal::BeyondAllowance { may: 1.0 }));
}

#[test]
fn a_chip_throws_a_failed_holding_check_again() {
    let mut b = scenario::load(Path::new("scenarios/hal25_tutorial.ron")).expect("tutorial");
    b.script_dice(&[3, 3, 3, 3, 5, 2, 4, 3, 1, 2, 4, 4, 5]);
    b.execute(Command::EndPhase).expect("chips");
    b.execute(Command::Declare {
        unit: id("pr-gr"),
        target: id("au-kaiser"),
    })
    .expect("declare");
    b.execute(Command::EndPhase).expect("to movement");
    b.execute(Command::Activate { unit: id("pr-gr") })
        .expect("activate");
    // Closing 4+3 passes; holding 1+2 = 3 fails (needs 4); the chart's 4+4 disorganises; the
    // charge bonus 5.
    let ev = b
        .execute(Command::Charge { unit: id("pr-gr") })
        .expect("charge");
    let holding = roll_for(&ev, "au-kaiser", "morale: holding");
    assert_eq!(
        shape(holding),
        (vec![1, 2], 3, vec![4]),
        "{}",
        words(&b, &ev)
    );
    assert!(!passed(holding), "{}", words(&b, &ev));
    // The Prussian brigadier cannot spend for an Austrian; Lacy can, once.
    assert!(
        b.execute(Command::Reroll {
            by: id("pr-gen"),
            unit: id("au-kaiser")
        })
        .is_err()
    );
    // The lower die (1) is thrown again: a 5; the 2 stands; then the range die, a throw not
    // made before: 6, new; the charge bonus keeps its 5.
    b.script_dice(&[5, 6, 1]);
    let mut again = b.clone();
    let ev = again
        .execute(Command::Reroll {
            by: id("au-gen"),
            unit: id("au-kaiser"),
        })
        .expect("re-roll");
    let w = words(&again, &ev);
    assert!(rerolled(&ev, "au-gen", "au-kaiser", 1, 0), "{w}");
    let closing = roll_for(&ev, "pr-gr", "morale: closing");
    assert_eq!(shape(closing), (vec![4, 3], 7, vec![4, -1]), "{w}");
    assert!(passed(closing), "{w}");
    let holding = roll_for(&ev, "au-kaiser", "morale: holding");
    assert_eq!(shape(holding), (vec![5, 2], 7, vec![4]), "{w}");
    assert!(passed(holding), "{w}");
    assert_eq!(again.unit(&id("au-gen")).unwrap().extra.chips, 0);
    let e = again
        .execute(Command::Reroll {
            by: id("au-cic"),
            unit: id("au-kaiser"),
        })
        .expect_err("one re-roll a roll");
    assert_eq!(e.refusal::<Refusal>(), Some(&Refusal::NoNewRoll), "{e}");
}

#[test]
fn a_courier_carries_written_orders_or_loses_them() {
    let units = [
        ("cic", 0, "CIC", "", 610.0, 50.0, 0.0, ""),
        (
            "cou",
            0,
            "COU",
            "",
            700.0,
            50.0,
            0.0,
            ", parent: Some(\"cic\")",
        ),
        ("ga", 0, "GEN", "A", 610.0, 150.0, 0.0, ""),
        ("a1", 0, "LI", "A", 300.0, 250.0, 0.0, ""),
        ("a2", 0, "LI", "A", 640.0, 250.0, 0.0, ""),
        ("a3", 0, "LI", "A", 980.0, 250.0, 0.0, ""),
        ("gb", 1, "GEN", "B", 610.0, 700.0, 180.0, ""),
        ("b1", 1, "LI", "B", 300.0, 542.0, 180.0, ""),
        ("b2", 1, "LI", "B", 640.0, 542.0, 180.0, ""),
        ("b3", 1, "LI", "B", 980.0, 542.0, 180.0, ""),
    ];
    let send = Command::Send {
        courier: id("cou"),
        brigade: "A".into(),
        order: "Hold your ground".into(),
    };
    // Chips (three generals); the orders written; the ride (3+4) and the throw (5 against 2).
    let mut b = battle(&units, "");
    to_phase(&mut b, CHARGES, &[3, 3, 3, 3, 4, 5, 2]);
    b.execute(send.clone()).expect("send");
    let e = refused_as(&mut b, send.clone());
    assert_eq!(e, Ok(Refusal::AlreadyCarriesOrders));
    b.execute(Command::EndPhase).expect("movement");
    let ev: Vec<Event> = b.last_events().cloned().collect();
    assert_eq!(
        shape(roll_for(&ev, "cou", "the courier's ride")),
        (vec![3, 4], 7, vec![]),
        "{}",
        words(&b, &ev)
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e.own(), Some(HalEvent::Orders { lost: true, .. }))),
        "{}",
        words(&b, &ev)
    );
    b.execute(Command::Activate { unit: id("a1") }).expect("A");
    let ev = b
        .execute(Command::Move {
            unit: id("cou"),
            steps: vec![Step::Oblique {
                forward: 61.9 / 25.4,
                right: -90.0 / 25.4,
            }],
        })
        .expect("ride to the brigadier");
    assert!(
        ev.iter().any(
            |e| matches!(e.own(), Some(HalEvent::Orders { courier, brigade, order, delivered: true, lost: false })
            if courier.as_str() == "cou" && brigade == "A" && order == "Hold your ground")
        ),
        "{}",
        words(&b, &ev)
    );
    let card = b.rules.unit_card(&b, b.unit(&id("ga")).unwrap());
    assert!(
        card.lines
            .iter()
            .any(|l| l.contains("orders: Hold your ground"))
    );
    // A 12 on the ride loses the message.
    let mut b = battle(&units, "");
    to_phase(&mut b, CHARGES, &[3, 3, 3, 6, 6, 5, 2]);
    b.execute(send).expect("send");
    b.execute(Command::EndPhase).expect("movement");
    let ev: Vec<Event> = b.last_events().cloned().collect();
    let w = words(&b, &ev);
    assert_eq!(
        shape(roll_for(&ev, "cou", "the courier's ride")),
        (vec![6, 6], 12, vec![]),
        "{w}"
    );
    assert!(
        ev.iter().any(
            |e| matches!(e.own(), Some(HalEvent::Orders { courier, brigade, delivered: false, lost: true, .. })
            if courier.as_str() == "cou" && brigade == "A")
        ),
        "{w}"
    );
}

fn hal(b: &Game) -> &volley::rules::ruleset::hal25::Hal25 {
    match &b.rules {
        volley::rules::ruleset::AnyRuleset::Hal25(r) => r,
        _ => panic!("not Hal's rules"),
    }
}

fn keys(fs: &[volley::rules::command::Factor]) -> Vec<(String, i32)> {
    fs.iter().map(|f| (f.name.clone(), f.value)).collect()
}

/// Every melee modifier of IV.A.6 and the displaced V.A.1 list, each in the case it names.
#[test]
fn every_melee_modifier_applies_where_it_says() {
    let units = [
        ("g0", 0, "GEN", "A", 600.0, 60.0, 0.0, ""),
        ("gr", 0, "GR", "A", 200.0, 150.0, 0.0, ""),
        ("li", 0, "LI", "A", 550.0, 150.0, 0.0, ""),
        ("l2", 0, "LI", "A", 900.0, 150.0, 0.0, ""),
        ("gc", 0, "GEN", "C", 600.0, 300.0, 0.0, ""),
        ("hc", 0, "HC", "C", 300.0, 350.0, 0.0, ""),
        ("lc", 0, "LC", "C", 900.0, 350.0, 0.0, ""),
        ("g1", 1, "GEN", "B", 600.0, 880.0, 180.0, ""),
        ("xgr", 1, "GR", "B", 200.0, 700.0, 180.0, ""),
        ("xli", 1, "LI", "B", 550.0, 700.0, 180.0, ""),
        ("xl2", 1, "LI", "B", 900.0, 700.0, 180.0, ""),
        ("gd", 1, "GEN", "D", 600.0, 520.0, 180.0, ""),
        ("xhc", 1, "HC", "D", 300.0, 560.0, 180.0, ""),
        ("xlc", 1, "LC", "D", 900.0, 560.0, 180.0, ""),
    ];
    let mut b = battle(
        &units,
        "(id: \"t\", kind: Town, name: \"Dorf\", points: [(450, 650), (650, 650), (650, 760), (450, 760)])",
    );
    let m = |b: &Game, a: &str, e: &str, att: bool| {
        let h = hal(b);
        keys(&h.melee_factors(b, b.unit(&id(a)).unwrap(), b.unit(&id(e)).unwrap(), att))
    };
    let has = |v: &[(String, i32)], name: &str, value: i32| {
        v.iter().any(|(n, x)| n.contains(name) && *x == value)
    };
    // Grenadiers against non-grenadiers +1; not against grenadiers.
    assert!(has(
        &m(&b, "gr", "xli", true),
        "Grenadiers against non-grenadiers",
        1
    ));
    assert!(!has(&m(&b, "gr", "xgr", true), "Grenadiers against", 1));
    // Heavy against light cavalry +1, and heavy cavalry against non-grenadiers +2.
    let v = m(&b, "hc", "xlc", true);
    assert!(
        has(&v, "Heavy against light cavalry", 1)
            && has(&v, "Heavy cavalry against non-grenadiers", 2),
        "{v:?}"
    );
    // Heavy cavalry against grenadiers +1 (and not the +2).
    let v = m(&b, "hc", "xgr", true);
    assert!(
        has(&v, "Heavy cavalry against grenadiers", 1) && !has(&v, "non-grenadiers", 2),
        "{v:?}"
    );
    // Light cavalry against non-grenadiers +1.
    assert!(has(
        &m(&b, "lc", "xli", true),
        "Light cavalry against non-grenadiers",
        1
    ));
    // The defender of a town +2 (the attacker does not get it).
    assert!(has(&m(&b, "xli", "li", false), "Defending a town", 2));
    assert!(!has(&m(&b, "xli", "li", true), "Defending a town", 2));
    // A disorganised or routed unit is not formed (V.C "Unformed/Disorganized"): formed
    // against non-formed +1 is the same for attacker and defender, and the attacker of such a
    // unit adds IV.A.6's +1 Attacking disorganized unit, or +2 Attacking routed unit, besides
    // (ruling unformed): +2 and +3 in all, against +1 for a defender.
    b.unit_mut(&id("xl2")).unwrap().status.disordered = true;
    let v = m(&b, "l2", "xl2", true);
    assert!(
        has(&v, "Formed against non-formed", 1) && has(&v, "Attacking a disorganised unit", 1),
        "{v:?}"
    );
    let sum = |v: &[(String, i32)]| v.iter().map(|x| x.1).sum::<i32>();
    assert_eq!(sum(&v), 2, "{v:?}");
    let v = m(&b, "l2", "xl2", false);
    assert!(
        has(&v, "Formed against non-formed", 1) && !has(&v, "Attacking a disorganised unit", 1),
        "{v:?}"
    );
    assert_eq!(sum(&v), 1, "{v:?}");
    // The disorganised unit itself is not formed: no +1 either way.
    assert!(!has(
        &m(&b, "xl2", "l2", true),
        "Formed against non-formed",
        1
    ));
    assert!(!has(
        &m(&b, "xl2", "l2", false),
        "Formed against non-formed",
        1
    ));
    b.unit_mut(&id("xl2")).unwrap().status.shaken = true;
    let v = m(&b, "l2", "xl2", true);
    assert!(
        has(&v, "Attacking a routed unit", 2) && has(&v, "Formed against non-formed", 1),
        "{v:?}"
    );
    assert_eq!(sum(&v), 3, "{v:?}");
    // Against skirmishers, formed against non-formed +1.
    b.unit_mut(&id("xl2")).unwrap().status.shaken = false;
    b.unit_mut(&id("xl2")).unwrap().status.disordered = false;
    b.unit_mut(&id("xl2")).unwrap().formation = Formation::Skirmish;
    assert!(has(
        &m(&b, "l2", "xl2", true),
        "Formed against non-formed",
        1
    ));
    // Flank or rear +2: the attacker behind the target's front line.
    let behind = b.unit(&id("xli")).unwrap().base.local(0.0, -200.0);
    b.unit_mut(&id("li")).unwrap().base.centre = behind;
    assert!(has(&m(&b, "li", "xli", true), "Attacking flank or rear", 2));
    // Moving cavalry against stationary cavalry +2.
    b.unit_mut(&id("lc")).unwrap().bound.moved = true;
    assert!(has(
        &m(&b, "lc", "xlc", true),
        "Moving cavalry against stationary cavalry",
        2
    ));
    assert!(!has(&m(&b, "xlc", "lc", false), "Moving cavalry", 2));
}

/// Every morale modifier of V.C, each in the case it names.
#[test]
fn every_morale_modifier_applies_where_it_says() {
    let units = [
        ("g0", 0, "GEN", "A", 180.0, 110.0, 0.0, ""),
        ("gr", 0, "GR", "A", 180.0, 150.0, 0.0, ""),
        ("li", 0, "LI", "A", 500.0, 150.0, 0.0, ""),
        ("lt", 0, "LT", "A", 900.0, 150.0, 0.0, ""),
        ("fa", 0, "FA", "A", 1160.0, 150.0, 0.0, ""),
        ("gc", 0, "GEN", "C", 600.0, 300.0, 0.0, ""),
        ("hc", 0, "HC", "C", 300.0, 350.0, 0.0, ""),
        ("lc", 0, "LC", "C", 900.0, 350.0, 0.0, ""),
        ("g1", 1, "GEN", "B", 600.0, 880.0, 180.0, ""),
        ("xli", 1, "LI", "B", 250.0, 700.0, 180.0, ""),
        ("xl2", 1, "LI", "B", 600.0, 700.0, 180.0, ""),
        ("xl3", 1, "LI", "B", 950.0, 700.0, 180.0, ""),
        ("gd", 1, "GEN", "D", 600.0, 520.0, 180.0, ""),
        ("xhc", 1, "HC", "D", 300.0, 560.0, 180.0, ""),
        ("xlc", 1, "LC", "D", 900.0, 560.0, 180.0, ""),
    ];
    let mut b = battle(
        &units,
        "(id: \"t\", kind: Town, name: \"Dorf\", points: [(450, 100), (650, 100), (650, 200), (450, 200)])",
    );
    let f = |b: &Game, u: &str, vs: Option<&str>, closing: bool| {
        let vs = vs.map(id);
        keys(&hal(b).morale_factors(b, &id(u), vs.as_ref(), closing))
    };
    let has = |v: &[(String, i32)], name: &str, value: i32| {
        v.iter().any(|(n, x)| n.contains(name) && *x == value)
    };
    // Base 4; grenadiers -1; the brigade commander attached -1.
    let v = f(&b, "gr", None, false);
    assert!(
        has(&v, "Base morale", 4)
            && has(&v, "Grenadiers", -1)
            && has(&v, "Brigade commander attached", -1),
        "{v:?}"
    );
    // Defending works (a town) -2.
    assert!(has(&f(&b, "li", None, false), "Defending works", -2));
    // Light infantry and cavalry against other cavalry +1; heavy cavalry against cavalry -1.
    assert!(has(
        &f(&b, "lt", Some("xhc"), false),
        "Light infantry or cavalry against other cavalry",
        1
    ));
    assert!(has(
        &f(&b, "hc", Some("xlc"), false),
        "Heavy cavalry against other cavalry",
        -1
    ));
    // Closing with formed infantry: light cavalry +3, heavy +2; not against cavalry.
    assert!(has(
        &f(&b, "lc", Some("xl3"), true),
        "Light cavalry attempting to close",
        3
    ));
    assert!(has(
        &f(&b, "hc", Some("xli"), true),
        "Heavy cavalry attempting to close",
        2
    ));
    assert!(!has(
        &f(&b, "hc", Some("xlc"), true),
        "attempting to close",
        2
    ));
    // Skirmishers are unformed: +1, once even when disorganised too (ruling unformed).
    b.unit_mut(&id("lt")).unwrap().formation = Formation::Skirmish;
    let count = |v: &[(String, i32)]| {
        v.iter()
            .filter(|(n, x)| n.contains("Unformed or disorganised") && *x == 1)
            .count()
    };
    assert_eq!(count(&f(&b, "lt", None, false)), 1);
    b.unit_mut(&id("lt")).unwrap().status.disordered = true;
    assert_eq!(count(&f(&b, "lt", None, false)), 1);
    assert_eq!(count(&f(&b, "li", None, false)), 0);
    // Each stand lost +1; disorganised +1; in rout +2.
    {
        let u = b.unit_mut(&id("xl2")).unwrap();
        u.stands.truncate(4);
        u.status.disordered = true;
    }
    let v = f(&b, "xl2", None, false);
    assert_eq!(
        v.iter()
            .filter(|(n, x)| n.contains("Each stand lost") && *x == 1)
            .count(),
        2,
        "{v:?}"
    );
    assert!(has(&v, "Unformed or disorganised", 1));
    b.unit_mut(&id("xl2")).unwrap().status.shaken = true;
    assert!(has(&f(&b, "xl2", None, false), "In rout", 2));
    // Out of brigade command +1, but not for light troops.
    b.unit_mut(&id("g1")).unwrap().status.removed = true;
    assert!(has(&f(&b, "xli", None, false), "Out of brigade command", 1));
    b.unit_mut(&id("gc")).unwrap().status.removed = true;
    assert!(!has(&f(&b, "lc", None, false), "Out of brigade command", 1));
    // Each six artillery crew lost +1 (drivers do not count).
    b.unit_mut(&id("fa")).unwrap().stands[0].figures = 0;
    b.unit_mut(&id("fa")).unwrap().stands[1].figures = 2;
    b.unit_mut(&id("fa")).unwrap().stands[2].figures = 0;
    let v = f(&b, "fa", None, false);
    assert_eq!(
        v.iter()
            .filter(|(n, _)| n.contains("artillery crew"))
            .count(),
        1,
        "{v:?}"
    );
}

/// The morale phase: a unit down to two stands makes the special check (anything but a 6
/// removes it), and an army below half its units checks to withdraw.
#[test]
fn the_two_stand_check_and_army_withdrawal() {
    let mut b = two_brigades();
    for x in ["b1", "b2"] {
        b.unit_mut(&id(x)).unwrap().status.removed = true;
    }
    b.unit_mut(&id("a2")).unwrap().stands.truncate(2);
    // Chips (two generals); the throw (6 against 1: side 0 moves its brigade, then side 1
    // moves its last without a throw); the morale phase: a2's two-stand check (5: removed);
    // army withdrawal for side 1 (one unit of three): Prussia's commander throws 6+6, Austria's
    // own 2+3: it withdraws.
    to_phase(&mut b, CLOSE_COMBAT, &[3, 3, 6, 1, 5, 6, 6, 2, 3]);
    let ev = b.execute(Command::EndPhase).expect("to morale");
    let w = words(&b, &ev);
    let check = roll_for(&ev, "a2", "the two-stand check");
    assert_eq!((check.dice.clone(), check.need), (vec![5], Some(6)), "{w}");
    assert!(destroyed(&ev, "a2").is_some(), "{w}");
    assert!(b.unit(&id("a2")).unwrap().status.removed, "{w}");
    let withdrawal = ev
        .iter()
        .find_map(|e| match e {
            Event::Rolled { roll, .. } if roll.side == Some(1) => Some(roll),
            _ => None,
        })
        .expect("side 1's withdrawal roll");
    assert_eq!(
        (
            withdrawal.dice.clone(),
            withdrawal.total,
            withdrawal.against
        ),
        (vec![6, 6, 2, 3], 5, Some(12)),
        "{w}"
    );
    assert!(b.is_over(), "{w}");
}

/// A unit removed by a failed two-stand check cannot be chosen on the table: its general offers
/// the chip that throws the check again, and a 6 keeps the unit.
#[test]
fn a_general_offers_the_chip_for_a_unit_the_two_stand_check_removed() {
    let mut b = two_brigades();
    b.unit_mut(&id("a2")).unwrap().stands.truncate(2);
    // Chips (3 and 3: a chip each); the throw (6 against 1); the morale phase: a2's two-stand
    // check, 5: removed.
    to_phase(&mut b, CLOSE_COMBAT, &[3, 3, 6, 1, 5]);
    let ev = b.execute(Command::EndPhase).expect("to morale");
    assert!(
        b.unit(&id("a2")).unwrap().status.removed,
        "{}",
        words(&b, &ev)
    );
    assert!(b.rules.actions(&b, b.unit(&id("a2")).unwrap()).is_empty());
    let ga = b.unit(&id("ga")).unwrap();
    let chip = b
        .rules
        .actions(&b, ga)
        .into_iter()
        .flat_map(|g| g.actions)
        .find(|a| matches!(&a.command, Command::Reroll { unit, .. } if unit == &id("a2")))
        .expect("ga offers the chip for a2");
    assert!(
        chip.label
            .contains("the two-stand check again for a2, removed by it"),
        "{}",
        chip.label
    );
    // The general of the other side has no such button.
    let gb = b.unit(&id("gb")).unwrap();
    assert!(
        b.rules
            .actions(&b, gb)
            .into_iter()
            .flat_map(|g| g.actions)
            .all(|a| !matches!(a.command, Command::Reroll { .. }))
    );
    // The opponent spends it at once, whichever way it plays (its copy of the battle throws
    // the scripted 6 too).
    b.script_dice(&[6]);
    for style in [Style::Odds, Style::Straight] {
        let d = Opponent::new(style).decide(&b, 0).expect("a decision");
        assert_eq!(d.command, chip.command, "{style:?}: {}", d.reason);
    }
    let ev = b.execute(chip.command).expect("the chip");
    assert!(
        !b.unit(&id("a2")).unwrap().status.removed,
        "{}",
        words(&b, &ev)
    );
    assert_eq!(b.unit(&id("ga")).unwrap().extra.chips, 0);
}

/// Counter-battery fire: a hit on the range's score, 11-12 on 2D6 knocks out a gun, then the
/// casualty dice; drivers go first; the brigadier with the battery risks a 12; the battery
/// checks once for half its figures lost.
#[test]
fn counter_battery_fire_knocks_out_a_gun_and_risks_the_officer() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 300.0, 60.0, 0.0, ""),
            ("fa", 0, "FA", "A", 600.0, 150.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 600.0, 695.0, 180.0, ""),
            ("xfa", 1, "FA", "B", 600.0, 600.0, 180.0, ""),
        ],
        "",
    );
    to_phase(
        &mut b,
        ARTILLERY,
        &[3, 3, 6, 1, 4, 6, 5, 2, 2, 2, 1, 1, 6, 6, 2, 2, 6, 6],
    );
    let ev = b
        .execute(Command::Fire {
            unit: id("fa"),
            target: id("xfa"),
            support: Vec::new(),
            defence: None,
        })
        .expect("counter-battery");
    let w = words(&b, &ev);
    // The first gun hits and knocks out a gun (11 of 11-12), with its four crew; the second
    // misses; the drivers save on 5-6.
    let shots = rolls_for(&ev, "fa", "counter-battery fire");
    assert_eq!(
        shots
            .iter()
            .map(|r| (shape(r), passed(r)))
            .collect::<Vec<_>>(),
        [
            ((vec![4, 6, 5], 11, vec![]), true),
            ((vec![2], 2, vec![]), false)
        ],
        "{w}"
    );
    assert_eq!(losses(&ev, "xfa"), [4, 2], "{w}");
    assert_eq!(roll_for(&ev, "xfa", "saves (on 5-6)").need, Some(5), "{w}");
    let risk = roll_for(&ev, "gb", "the risk to the officer with xfa");
    assert_eq!(shape(risk), (vec![6, 6], 12, vec![]), "{w}");
    assert!(destroyed(&ev, "gb").is_some(), "{w}");
    let x = b.unit(&id("xfa")).unwrap();
    assert_eq!(
        x.stands.iter().map(|s| s.figures).collect::<Vec<_>>(),
        vec![4, 0, 0, 0],
        "a gun lost with its crew, then the two drivers"
    );
    assert!(own(x).must_check && own(x).checked_half, "{w}");
    assert!(
        b.unit(&id("gb")).unwrap().status.removed,
        "a 12: the officer falls"
    );
    // The check at the end of the step: 4, +1 out of command (its brigadier fallen) = 5;
    // 2+2 fails; the chart's 6+6 recovers.
    let ev = b.execute(Command::EndPhase).expect("end artillery");
    let w = words(&b, &ev);
    let check = roll_for(&ev, "xfa", "morale: losses");
    assert_eq!(shape(check), (vec![2, 2], 4, vec![4, 1]), "{w}");
    assert!(!passed(check), "{w}");
    assert_eq!(
        shape(roll_for(&ev, "xfa", "the failed morale chart")),
        (vec![6, 6], 12, vec![]),
        "{w}"
    );
    let x = b.unit(&id("xfa")).unwrap();
    assert!(
        !disorganised(&ev, "xfa") && !x.status.disordered && !x.status.shaken,
        "{w}"
    );
}

/// A gun knocked out is lost as any other casualties of fire: where it takes the battery past
/// half its figures it checks (once, V.A.1), and an attached officer throws for his risk
/// (VI.C), though the casualty dice that follow take nobody.
#[test]
fn a_gun_knocked_out_marks_the_half_check_and_risks_the_officer() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 300.0, 60.0, 0.0, ""),
            ("fa", 0, "FA", "A", 600.0, 150.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 600.0, 695.0, 180.0, ""),
            ("xfa", 1, "FA", "B", 600.0, 600.0, 180.0, ""),
        ],
        "",
    );
    // Its drivers already lost: 8 of 10 figures.
    for (i, f) in [4, 4, 0, 0].into_iter().enumerate() {
        b.unit_mut(&id("xfa")).unwrap().stands[i].figures = f;
    }
    to_phase(&mut b, ARTILLERY, &[3, 3, 6, 1]);
    // The first gun hits (4) and knocks out (6+5); the second misses (2); the casualty dice
    // 1, 1 less 1 hit nobody; the officer's risk 6+6.
    b.script_dice(&[4, 6, 5, 2, 1, 1, 6, 6]);
    let ev = b
        .execute(Command::Fire {
            unit: id("fa"),
            target: id("xfa"),
            support: Vec::new(),
            defence: None,
        })
        .expect("counter-battery");
    let w = words(&b, &ev);
    assert!(
        passed(rolls_for(&ev, "fa", "counter-battery fire")[0]),
        "{w}"
    );
    assert_eq!(losses(&ev, "xfa"), [4], "{w}");
    let x = b.unit(&id("xfa")).unwrap();
    assert_eq!(
        x.stands.iter().map(|s| s.figures).collect::<Vec<_>>(),
        vec![4, 0, 0, 0],
        "{w}"
    );
    assert!(own(x).must_check && own(x).checked_half, "{w}");
    assert_eq!(
        shape(roll_for(&ev, "gb", "the risk to the officer with xfa")),
        (vec![6, 6], 12, vec![]),
        "{w}"
    );
    assert!(b.unit(&id("gb")).unwrap().status.removed, "{w}");
}

/// Small arms at horse: saves on 5-6 (mounted), two hits a horseman and the odd hit on 4-6; at
/// a column: no saves; a unit that fired spends its first volley.
#[test]
fn musketry_at_horse_and_at_a_column() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 600.0, 60.0, 0.0, ""),
            ("a1", 0, "LI", "A", 300.0, 200.0, 0.0, ""),
            ("a2", 0, "LI", "A", 900.0, 200.0, 0.0, ""),
            ("a3", 0, "LT", "A", 600.0, 100.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 600.0, 880.0, 180.0, ""),
            ("hc", 1, "HC", "B", 300.0, 420.0, 180.0, ""),
            (
                "col",
                1,
                "LI",
                "B",
                900.0,
                420.0,
                180.0,
                ", formation: Some(Column)",
            ),
        ],
        "",
    );
    // Chips; the throw; a1's volley: the odd figure's test (1: it fires), seven dice at medium
    // range less 3 (first volley): six hits; saves on 5-6 (three); three hits: one horseman and
    // the odd hit on 4 (a second).
    to_phase(
        &mut b,
        SMALL_ARMS,
        &[3, 3, 6, 1, 1, 6, 5, 4, 3, 2, 1, 1, 5, 6, 5, 1, 1, 1, 4],
    );
    let ev = b
        .execute(Command::Fire {
            unit: id("a1"),
            target: id("hc"),
            support: Vec::new(),
            defence: None,
        })
        .expect("fire at horse");
    let w = words(&b, &ev);
    assert_eq!(
        volleys(&ev, "a1"),
        [(vec![6, 5, 4, 3, 2, 1, 1], vec![-3], 6)],
        "{w}"
    );
    let saves = roll_for(&ev, "hc", "saves (on 5-6)");
    assert_eq!((saves.total, saves.need), (3, Some(5)), "{w}");
    let odd = roll_for(&ev, "hc", "the odd hit on horse");
    assert_eq!((odd.dice.clone(), odd.need), (vec![4], Some(4)), "{w}");
    assert_eq!(losses(&ev, "hc"), [2], "{w}");
    assert!(own(b.unit(&id("a1")).unwrap()).volley_spent);
    // At a column: no save dice at all.
    b.script_dice(&[1, 6, 6, 6, 6, 6, 6, 6]);
    let ev = b
        .execute(Command::Fire {
            unit: id("a2"),
            target: id("col"),
            support: Vec::new(),
            defence: None,
        })
        .expect("fire at a column");
    let w = words(&b, &ev);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Rolled { roll, .. } if roll.unit == Some(id("col")))),
        "a column throws no saves: {w}"
    );
}

/// A town holds one battalion (and one battery); horse does not occupy one.
#[test]
fn a_town_holds_one_battalion() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 600.0, 60.0, 0.0, ""),
            ("a1", 0, "LI", "A", 300.0, 250.0, 0.0, ""),
            ("a2", 0, "LI", "A", 700.0, 200.0, 0.0, ""),
            ("a3", 0, "LI", "A", 750.0, 420.0, 0.0, ""),
            ("gc", 0, "GEN", "C", 1000.0, 60.0, 0.0, ""),
            (
                "c1",
                0,
                "LC",
                "C",
                1000.0,
                300.0,
                0.0,
                ", formation: Some(Column)",
            ),
            (
                "c2",
                0,
                "LC",
                "C",
                1140.0,
                300.0,
                0.0,
                ", formation: Some(Column)",
            ),
            ("gb", 1, "GEN", "B", 600.0, 880.0, 180.0, ""),
            ("b1", 1, "LI", "B", 300.0, 800.0, 180.0, ""),
        ],
        "(id: \"t\", kind: Town, name: \"Dorf\", points: [(300, 380), (1100, 380), (1100, 560), (300, 560)])",
    );
    to_phase(&mut b, MOVEMENT, &[3, 3, 3, 6, 1, 4, 4, 4, 4]);
    b.execute(Command::Activate { unit: id("a1") }).expect("A");
    b.execute(Command::Activate { unit: id("c1") }).expect("C");
    // a3 holds the town: a second battalion may not enter it.
    let e = refused_as(
        &mut b,
        Command::Move {
            unit: id("a1"),
            steps: vec![Step::Advance(5.0)],
        },
    );
    assert_eq!(e, Ok(Refusal::TownFull));
    let e = refused_as(
        &mut b,
        Command::Move {
            unit: id("c1"),
            steps: vec![Step::Advance(3.0)],
        },
    );
    assert_eq!(e, Ok(Refusal::HorseDoesNotOccupy));
}

/// Only one battalion holds a town: an enemy battalion pressed against it from outside fights
/// at the town and does not hold it, and horse beside it never does (ruling town_room).
#[test]
fn a_town_is_held_by_its_garrison_not_by_the_enemy_at_its_edge_nor_by_horse() {
    let b = battle(
        &[
            ("ga", 0, "GEN", "A", 540.0, 100.0, 0.0, ""),
            ("p1", 0, "LI", "A", 540.0, 590.0, 0.0, ""),
            ("gc", 0, "GEN", "C", 200.0, 100.0, 0.0, ""),
            ("c1", 0, "LC", "C", 400.0, 500.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 540.0, 880.0, 180.0, ""),
            ("x1", 1, "LI", "B", 540.0, 790.0, 180.0, ""),
        ],
        "(id: \"t\", kind: Town, name: \"Dorf\", points: [(400, 400), (680, 400), (680, 780), (400, 780)])",
    );
    let h = hal(&b);
    let u = |name: &str| b.unit(&id(name)).unwrap();
    let card = |name: &str| b.rules.unit_card(&b, u(name)).lines.join("\n");
    let touches = |name: &str| b.terrain.get("t").unwrap().touches(&u(name).base);
    assert!(
        touches("p1") && touches("x1") && touches("c1"),
        "all three touch the town"
    );
    // The garrison holds it: works and cover.
    assert!(h.in_town(&b, u("p1")) && h.in_works(&b, u("p1")) && h.covered(&b, u("p1")));
    assert!(card("p1").contains("In Dorf"), "{}", card("p1"));
    // The enemy battalion at its edge does not.
    assert!(!h.in_town(&b, u("x1")) && !h.in_works(&b, u("x1")) && !h.covered(&b, u("x1")));
    assert!(
        card("x1").contains("At the edge of Dorf: the enemy holds it"),
        "{}",
        card("x1")
    );
    // Nor does the horse beside it.
    assert!(!h.in_town(&b, u("c1")) && !h.in_works(&b, u("c1")) && !h.covered(&b, u("c1")));
    assert!(
        card("c1").contains("Beside Dorf: horse does not occupy a town"),
        "{}",
        card("c1")
    );
}

/// A chip throws again the die that went worst for the unit: the firer's lowest volley die, the
/// target's first failed save.
#[test]
fn a_chip_throws_a_volley_die_or_a_save_again() {
    let units = [
        ("ga", 0, "GEN", "A", 600.0, 150.0, 0.0, ""),
        ("a1", 0, "LI", "A", 600.0, 250.0, 0.0, ""),
        ("gb", 1, "GEN", "B", 600.0, 700.0, 180.0, ""),
        ("b1", 1, "LI", "B", 600.0, 500.0, 180.0, ""),
    ];
    let fire = Command::Fire {
        unit: id("a1"),
        target: id("b1"),
        support: Vec::new(),
        defence: None,
    };
    // Chips 3 and 3 (a chip each); the throw 6 against 1. The volley: the odd figure's die 2
    // (no die), six 1s at medium range less 3: no hit.
    let mut b = battle(&units, "");
    to_phase(&mut b, SMALL_ARMS, &[3, 3, 6, 1, 2, 1, 1, 1, 1, 1, 1]);
    // The target is outlined while a1 may fire at it, and not once it has fired.
    let targets = |b: &Game| {
        let a1 = b.unit(&id("a1")).unwrap();
        b.rules
            .overlays(b, Some(a1), &[volley::rules::ruleset::view::Layer::Targets])
            .iter()
            .filter(|m| m.layer == volley::rules::ruleset::view::Layer::Targets)
            .count()
    };
    assert_eq!(targets(&b), 1, "b1 outlined");
    let ev = b.execute(fire.clone()).expect("fire");
    assert_eq!(volleys(&ev, "a1")[0].2, 0, "{}", words(&b, &ev));
    assert_eq!(targets(&b), 0, "fired: no target outlined");
    let e = refused_as(
        &mut b,
        Command::Reroll {
            by: id("gb"),
            unit: id("b1"),
        },
    );
    assert_eq!(e, Ok(Refusal::NoBadRoll));
    // The first 1 is thrown again: a 6 (3 hits); the other five stand; then three saves, new.
    b.script_dice(&[6, 1, 1, 1]);
    let ev = b
        .execute(Command::Reroll {
            by: id("ga"),
            unit: id("a1"),
        })
        .expect("re-roll a volley die");
    let w = words(&b, &ev);
    assert!(rerolled(&ev, "ga", "a1", 1, 0), "{w}");
    assert_eq!(
        volleys(&ev, "a1"),
        [(vec![6, 1, 1, 1, 1, 1], vec![-3], 3)],
        "{w}"
    );
    assert_eq!(losses(&ev, "b1"), [3], "{w}");
    assert_eq!(b.unit(&id("ga")).unwrap().extra.chips, 0);

    // Six hits, five saves failed: the defender's general throws the first failed save again.
    let mut b = battle(&units, "");
    to_phase(
        &mut b,
        SMALL_ARMS,
        &[3, 3, 6, 1, 2, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6],
    );
    let ev = b.execute(fire).expect("fire");
    assert_eq!(losses(&ev, "b1"), [5], "{}", words(&b, &ev));
    b.script_dice(&[6]);
    let ev = b
        .execute(Command::Reroll {
            by: id("gb"),
            unit: id("b1"),
        })
        .expect("re-roll a save");
    let w = words(&b, &ev);
    let saves = roll_for(&ev, "b1", "saves (on 6)");
    assert_eq!(shape(saves), (vec![6, 1, 1, 1, 1, 6], 2, vec![]), "{w}");
    assert_eq!(losses(&ev, "b1"), [4], "{w}");
}

/// Artillery fire into a town takes its casualties off the town's points (the scenario's 3
/// here): at none left the town burns, the battalion in it is disorganised, and no unit may
/// enter it.
#[test]
fn a_town_burns_under_artillery_fire() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 300.0, 60.0, 0.0, ""),
            ("fa", 0, "FA", "A", 600.0, 150.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 600.0, 880.0, 180.0, ""),
            ("b1", 1, "LI", "B", 600.0, 560.0, 180.0, ""),
            ("b2", 1, "LI", "B", 600.0, 760.0, 180.0, ""),
        ],
        "(id: \"t\", kind: Town, name: \"Dorf\", town_points: Some(3), points: [(400, 500), (800, 500), (800, 640), (400, 640)])",
    );
    let card = |b: &Game| {
        b.rules
            .unit_card(b, b.unit(&id("b1")).unwrap())
            .lines
            .join("\n")
    };
    assert!(card(&b).contains("In Dorf: 3 of 3 points against artillery left"));
    // Chips; the throw 6 against 1. Two guns at medium range (less 2): 6 and 4, six hits; six
    // saves in cover (5-6), none saved.
    to_phase(
        &mut b,
        ARTILLERY,
        &[3, 3, 6, 1, 6, 4, 1, 1, 1, 1, 1, 1, 1, 1],
    );
    let ev = b
        .execute(Command::Fire {
            unit: id("fa"),
            target: id("b1"),
            support: Vec::new(),
            defence: None,
        })
        .expect("fire into the town");
    let w = words(&b, &ev);
    assert_eq!(volleys(&ev, "fa")[0].2, 6, "{w}");
    assert_eq!(roll_for(&ev, "b1", "saves (on 5-6)").need, Some(5), "{w}");
    assert!(
        ev.iter().any(
            |e| matches!(e.own(), Some(HalEvent::TownDamaged { feature, points: 3, left: 0 })
            if feature == "t")
        ),
        "{w}"
    );
    // A burnt town "can not be occupied" (II.B.4.b): b1 leaves it at once by the shortest way
    // out, forward to just before the town (its front edge at 500 mm, b1 0.75" deep: 3.25"
    // against 4" back), in good order: the seed disorganises no one for it (ruling
    // burnt_town).
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::Moved { unit, manoeuvre: Some(_), .. }
            if unit.as_str() == "b1")
        ),
        "{w}"
    );
    assert!(!disorganised(&ev, "b1"), "{w}");
    {
        let b1 = b.unit(&id("b1")).unwrap();
        assert!(!b.terrain.get("t").unwrap().touches(&b1.base), "{w}");
        assert!(
            b1.base.centre.y > 470.0 && b1.base.centre.y < 481.0,
            "{:?}",
            b1.base
        );
        assert!((b1.base.centre.x - 600.0).abs() < 0.5, "{:?}", b1.base);
        assert!(!b1.status.disordered && !b1.status.shaken);
    }
    {
        let h = hal(&b);
        let b1 = b.unit(&id("b1")).unwrap();
        assert!(!h.covered(&b, b1) && !h.in_works(&b, b1) && !h.in_town(&b, b1));
        let v = keys(&h.morale_factors(&b, &id("b1"), None, false));
        assert!(
            !v.iter().any(|(n, _)| n.contains("Defending works")),
            "{v:?}"
        );
    }
    // Next turn b2 may not enter the burning town.
    to_phase(&mut b, MOVEMENT, &[4, 4, 4, 4, 4, 4, 1, 6, 4, 4]);
    if b.active != 1 {
        b.execute(Command::EndPhase).expect("side 0's throw");
    }
    b.execute(Command::Activate { unit: id("b2") })
        .expect("activate B");
    let e = refused_as(
        &mut b,
        Command::Move {
            unit: id("b2"),
            steps: vec![Step::Advance(5.0)],
        },
    );
    assert_eq!(e, Ok(Refusal::InFlames));
}

/// A town's points are a field of towns and villages in rulesets whose towns burn.
#[test]
fn town_points_are_refused_where_they_do_not_apply() {
    let text = std::fs::read_to_string("scenarios/hal25_default.ron").expect("default");
    let wood = text.replacen("kind: Woods,", "kind: Woods, town_points: Some(5),", 1);
    assert_ne!(wood, text, "the default scenario has woods");
    let e = format!("{:?}", scenario::parse(&wood, "x").expect_err("woods"));
    assert!(
        e.contains("'town_points' applies to towns and villages"),
        "{e}"
    );
    let text = std::fs::read_to_string("scenarios/default.ron").expect("db7yw");
    let town = text.replacen("kind: Village,", "kind: Village, town_points: Some(5),", 1);
    assert_ne!(town, text, "the DB7YW default scenario has a village");
    let e = format!("{:?}", scenario::parse(&town, "x").expect_err("db7yw"));
    assert!(e.contains("towns burn under artillery"), "{e}");
}

/// A declared charge from `gap` inches by `attacker` on a battalion of `defender`, with these
/// dice after the chips (3, 3) and the throw (6, 1): the events of the charge, and their words.
fn charge_with(
    attacker: &str,
    defender: &str,
    gap: f32,
    terrain: &str,
    dice: &[u8],
) -> (Vec<Event>, String) {
    let (_, ev, w) = charge_battle(attacker, defender, gap, terrain, dice);
    (ev, w)
}

/// `charge_with`, with the battle after the charge.
fn charge_battle(
    attacker: &str,
    defender: &str,
    gap: f32,
    terrain: &str,
    dice: &[u8],
) -> (Game, Vec<Event>, String) {
    let place = |y: f32| {
        battle(
            &[
                ("ga", 0, "GEN", "A", 400.0, y - 100.0, 0.0, ""),
                ("a1", 0, attacker, "A", 600.0, y, 0.0, ""),
                ("gb", 1, "GEN", "B", 300.0, 880.0, 180.0, ""),
                ("b1", 1, defender, "B", 600.0, 800.0, 180.0, ""),
            ],
            terrain,
        )
    };
    // Place the charger `gap` inches from its contact place.
    let probe = place(400.0);
    let (a, t) = (
        probe.unit(&id("a1")).unwrap(),
        probe.unit(&id("b1")).unwrap(),
    );
    let now = hal(&probe).contact_place(a, t).1 / 25.4;
    let mut b = place(400.0 + (now - gap) * 25.4);
    to_phase(&mut b, CHARGES, &[3, 3]);
    b.execute(Command::Declare {
        unit: id("a1"),
        target: id("b1"),
    })
    .expect("declare");
    b.script_dice(&[6, 1]);
    b.execute(Command::EndPhase).expect("to movement");
    b.execute(Command::Activate { unit: id("a1") })
        .expect("activate");
    b.script_dice(dice);
    let ev = b
        .execute(Command::Charge { unit: id("a1") })
        .expect("charge");
    let w = words(&b, &ev);
    (b, ev, w)
}

/// A charge that falls short stops out of contact (IV.A.3: into contact only with the
/// movement distance), even where it falls short by less than the contact tolerance.
#[test]
fn a_charge_short_by_a_hair_ends_out_of_contact() {
    // Closing, holding, the range die 2, the charge bonus 1: 6 + 1 = 7" of 7.05".
    let (b, ev, w) = charge_battle("LI", "LI", 7.05, "", &[6, 6, 6, 6, 2, 1]);
    assert_eq!(charge(&ev, "a1"), (7, false), "falls short: {w}");
    let h = hal(&b);
    let (a, t) = (b.unit(&id("a1")).unwrap(), b.unit(&id("b1")).unwrap());
    assert!(!h.contact(&b, a, t), "{w}");
    assert!(
        a.base.distance(&t.base) > b.scale.to_mm(0.1),
        "{}",
        a.base.distance(&t.base)
    );
    assert!(
        a.base.centre.dist(t.base.centre) < 400.0,
        "it still charged: {w}"
    );
    assert!(h.melees(&b).is_empty());
}

/// The range die of a charge, each row of Firing into Charges (II.A) played: the defender's type
/// and the range the charge began at (numbers from the seed's table).
#[test]
fn the_range_die_into_a_charge_follows_every_row_of_the_table() {
    // (defender, from long range?, the faces for short, medium, long)
    type Row<'a> = (&'a str, bool, &'a [u8], &'a [u8], &'a [u8]);
    let rows: [Row; 6] = [
        ("GR", true, &[4, 5, 6], &[2, 3], &[1]),
        ("LI", true, &[5, 6], &[3, 4], &[1, 2]),
        ("LT", true, &[6], &[4, 5], &[1, 2, 3]),
        ("GR", false, &[3, 4, 5, 6], &[1, 2], &[]),
        ("LI", false, &[4, 5, 6], &[1, 2, 3], &[]),
        ("LT", false, &[5, 6], &[1, 2, 3, 4], &[]),
    ];
    for (defender, long, short, medium, far) in rows {
        // Horse from 13" (long range), foot from 9" (medium).
        let (attacker, gap) = if long { ("HC", 13.0) } else { ("LI", 9.0) };
        for die in 1..=6u8 {
            // Closing 6+6, holding 6+6, the range die, the charge bonus 6.
            let (ev, w) = charge_with(attacker, defender, gap, "", &[6, 6, 6, 6, die, 6]);
            let band = if short.contains(&die) {
                Some(Band::Short)
            } else if medium.contains(&die) {
                Some(Band::Medium)
            } else if far.contains(&die) {
                Some(Band::Long)
            } else {
                None
            };
            assert_eq!(
                charge_range(&ev),
                (
                    HalRoll::ChargeRange {
                        band,
                        within_six: false
                    },
                    vec![die]
                ),
                "{defender} from {gap}\", die {die}: {w}"
            );
            assert!(charge(&ev, "a1").1, "reaches: {w}");
        }
    }
    // Within 6" the target fires at short range whatever the die.
    let (ev, w) = charge_with("LI", "LI", 5.0, "", &[6, 6, 6, 6, 1, 6]);
    assert_eq!(
        charge_range(&ev),
        (
            HalRoll::ChargeRange {
                band: Some(Band::Short),
                within_six: true
            },
            vec![1]
        ),
        "{w}"
    );
}

/// A charge over rough ground throws the rough-terrain die before its bonus.
#[test]
fn a_charge_over_rough_ground_loses_a_die() {
    let rough = "(id: \"r\", kind: Rough, name: \"Heide\", points: [(300, 560), (900, 560), (900, 620), (300, 620)])";
    // Closing, holding, the range die 2, the rough die 3, the charge bonus 6: 6 - 3 + 6 = 9".
    let (ev, w) = charge_with("LI", "LI", 8.5, rough, &[6, 6, 6, 6, 2, 3, 6]);
    assert_eq!(
        shape(roll_for(&ev, "a1", "movement: rough terrain")),
        (vec![3], -3, vec![]),
        "{w}"
    );
    assert_eq!(charge(&ev, "a1"), (9, true), "9\" reaches: {w}");
    // With the rough die 5 it falls short.
    let (ev, w) = charge_with("LI", "LI", 8.5, rough, &[6, 6, 6, 6, 2, 5, 6]);
    assert_eq!(charge(&ev, "a1"), (7, false), "falls short: {w}");
}

/// A routed unit has two attempts to recover, one each morale phase: the first failure marks
/// it, the second removes it; passing leaves it disorganised (Failed Morale Notes).
#[test]
fn a_routed_unit_has_two_attempts_to_recover() {
    let units = [
        ("ga", 0, "GEN", "A", 600.0, 380.0, 0.0, ""),
        ("a1", 0, "LI", "A", 600.0, 300.0, 0.0, ", shaken: true"),
        ("gb", 1, "GEN", "B", 600.0, 880.0, 180.0, ""),
        ("b1", 1, "LI", "B", 600.0, 800.0, 180.0, ""),
    ];
    let log_words = |b: &Game| words(b, &b.log);
    // Turn 1: chips 3, 3; the throw 6 against 1; recovery 1+1 fails (4, +2 in rout = 6); the
    // rout move's die 1.
    let mut b = battle(&units, "");
    to_phase(&mut b, ROUT, &[3, 3, 6, 1, 1, 1, 1]);
    let w = log_words(&b);
    let log: Vec<Event> = b.log.iter().cloned().collect();
    let recovery = roll_for(&log, "a1", "morale: recovery");
    assert_eq!(shape(recovery), (vec![1, 1], 2, vec![4, 2]), "{w}");
    assert!(!passed(recovery), "{w}");
    assert!(
        log.iter().any(
            |e| matches!(e.own(), Some(HalEvent::Marked { unit, marker: Marker::RecoveryFailed, count: 1 })
            if unit.as_str() == "a1")
        ),
        "one chance left: {w}"
    );
    assert_eq!(own(b.unit(&id("a1")).unwrap()).recovery_failed, 1, "{w}");
    let to_turn_2_rout = |b: &mut Game, dice: &[u8]| {
        b.script_dice(dice);
        while !(b.is_over() || b.turn == 2 && b.phase == ROUT) {
            b.execute(Command::EndPhase).expect("on");
        }
    };
    // Turn 2: the throw 6 against 1, and the second failure (1+1): removed; its army, with
    // none of its one unit left, throws for withdrawal (3+3 against 3+3: it withdraws).
    let mut lost = b.clone();
    to_turn_2_rout(&mut lost, &[6, 1, 1, 1, 3, 3, 3, 3]);
    let w = log_words(&lost);
    let since: Vec<Event> = lost.log.since(b.log.len()).cloned().collect();
    assert!(!passed(roll_for(&since, "a1", "morale: recovery")), "{w}");
    assert!(destroyed(&since, "a1").is_some(), "{w}");
    assert!(lost.unit(&id("a1")).unwrap().status.removed);
    // Passing the second attempt (6+6): it recovers, disorganised.
    let mut rallied = b.clone();
    to_turn_2_rout(&mut rallied, &[6, 1, 6, 6]);
    let w = words(&rallied, rallied.log.since(b.log.len()));
    let since: Vec<Event> = rallied.log.since(b.log.len()).cloned().collect();
    assert!(passed(roll_for(&since, "a1", "morale: recovery")), "{w}");
    assert!(
        since.iter().any(
            |e| matches!(e.own(), Some(HalEvent::Marked { unit, marker: Marker::RecoveryFailed, count: 0 })
            if unit.as_str() == "a1")
        ),
        "its failed attempt cleared: {w}"
    );
    let a1 = rallied.unit(&id("a1")).unwrap();
    assert!(
        !a1.status.removed && !a1.status.shaken && a1.status.disordered,
        "{}",
        log_words(&rallied)
    );
    assert_eq!(own(a1).recovery_failed, 0);
}

/// A move's dice from the movement table: disorganised -1D6, a good commander's chips +1D6,
/// rough ground -1D6 (III and its notes, VI.F.a), each thrown as the move first needs it.
#[test]
fn a_move_throws_its_table_dice() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 600.0, 150.0, 0.0, ""),
            (
                "a1",
                0,
                "LI",
                "A",
                300.0,
                250.0,
                0.0,
                ", formation: Some(Column), disordered: true",
            ),
            ("a2", 0, "LI", "A", 800.0, 250.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 600.0, 880.0, 180.0, ""),
            ("b1", 1, "LI", "B", 600.0, 800.0, 180.0, ""),
        ],
        "(id: \"r\", kind: Rough, name: \"Heide\", points: [(150, 330), (450, 330), (450, 420), (150, 420)])",
    );
    // Chips: 6 (two chips, +1D6 movement) and 3; the throw 6 against 1.
    to_phase(&mut b, MOVEMENT, &[6, 3, 6, 1]);
    b.execute(Command::Activate { unit: id("a1") }).expect("A");
    // Field column 9", disorganised -2, chips +1, rough -3: 5".
    b.script_dice(&[2, 1, 3]);
    let ev = b
        .execute(Command::Move {
            unit: id("a1"),
            steps: vec![Step::Advance(4.0)],
        })
        .expect("a move over rough ground");
    let w = words(&b, &ev);
    for (what, die, total) in [
        ("movement: disorganised", 2, -2),
        ("movement: the commander's chips", 1, 1),
        ("movement: rough terrain", 3, -3),
    ] {
        assert_eq!(
            shape(roll_for(&ev, "a1", what)),
            (vec![die], total, vec![]),
            "{w}"
        );
    }
    assert_eq!(moved(&ev, "a1"), (4.0, 5.0), "{w}");
    // Line 6" and the chips' 5: 11".
    b.script_dice(&[5]);
    let ev = b
        .execute(Command::Move {
            unit: id("a2"),
            steps: vec![Step::Advance(10.0)],
        })
        .expect("a long move with the chips' die");
    let w = words(&b, &ev);
    assert_eq!(moved(&ev, "a2"), (10.0, 11.0), "{w}");
}

/// Gun crews fight with 1D6 per six figures (IV.A.9.d); the crew left over throw as a short
/// stand, their missing figures off the die (ruling crew_melee).
#[test]
fn gun_crews_fight_a_die_per_six_and_a_short_die_for_the_rest() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 300.0, 60.0, 0.0, ""),
            ("fa", 0, "FA", "A", 600.0, 200.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 300.0, 880.0, 180.0, ""),
            ("x", 1, "LI", "B", 600.0, 600.0, 180.0, ""),
        ],
        "",
    );
    let to = {
        let h = hal(&b);
        h.contact_place(b.unit(&id("x")).unwrap(), b.unit(&id("fa")).unwrap())
            .0
    };
    b.unit_mut(&id("x")).unwrap().base = to;
    let missing = |b: &Game| {
        hal(b)
            .melee_sides(b, &id("fa"), &id("x"))
            .expect("in melee")
            .0
            .melee
            .missing
    };
    let left_over = |b: &Game| {
        hal(b)
            .melee_sides(b, &id("fa"), &id("x"))
            .expect("in melee")
            .0
            .left_over
    };
    // Eight crew: a full die, and the two left over test for a second full die.
    assert_eq!(missing(&b), vec![0, 0]);
    assert_eq!(left_over(&b), 2);
    // In the melee the test die 3 is more than 2: the crew fight with one die.
    to_phase(&mut b, CLOSE_COMBAT, &[3, 3, 6, 1]);
    b.script_dice(&[3, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6]);
    let ev = b
        .execute(Command::Fight {
            unit: id("x"),
            target: id("fa"),
            pursue: None,
            pursuits: Vec::new(),
        })
        .expect("fight");
    let w = words(&b, &ev);
    assert_eq!(
        shape(roll_for(&ev, "fa", "the 2 crew left over")),
        (vec![3], 3, vec![]),
        "{w}"
    );
    let crew_dice = ev.iter().find_map(|e| match e {
        Event::Assault {
            attacker_roll,
            defender_roll,
            ..
        } => Some(
            [attacker_roll, defender_roll]
                .into_iter()
                .find(|r| r.unit == Some(id("fa")))
                .map(|r| r.dice.len()),
        ),
        _ => None,
    });
    assert_eq!(crew_dice, Some(Some(1)), "{w}");
}

/// Four crew: no full die, and the four test 1D6 for one (II.A.1.a "Same for melee
/// purposes").
#[test]
fn four_gun_crew_test_for_their_die() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 300.0, 60.0, 0.0, ""),
            ("fa", 0, "FA", "A", 600.0, 200.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 300.0, 880.0, 180.0, ""),
            ("x", 1, "LI", "B", 600.0, 600.0, 180.0, ""),
        ],
        "",
    );
    let to = {
        let h = hal(&b);
        h.contact_place(b.unit(&id("x")).unwrap(), b.unit(&id("fa")).unwrap())
            .0
    };
    b.unit_mut(&id("x")).unwrap().base = to;
    for s in b.unit_mut(&id("fa")).unwrap().stands.iter_mut().take(2) {
        s.figures = 2;
    }
    let (a, _) = hal(&b).melee_sides(&b, &id("fa"), &id("x")).expect("melee");
    assert_eq!((a.melee.missing, a.left_over), (vec![0], 4));
}

/// Only a charge makes contact (I.1, IV.A.1-3): an ordinary move may not end touching an
/// enemy, nor within the tenth of an inch that counts as contact.
#[test]
fn an_ordinary_move_may_not_end_in_contact() {
    // a1's front 3" from b1's front (line stands 1 1/2" deep).
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 200.0, 100.0, 0.0, ""),
            ("a1", 0, "LI", "A", 600.0, 300.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 200.0, 880.0, 180.0, ""),
            ("b1", 1, "LI", "B", 600.0, 414.3, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, MOVEMENT, &[3, 3, 6, 1]);
    b.execute(Command::Activate { unit: id("a1") })
        .expect("activate");
    for inches in [3.0, 2.95] {
        let e = refused_as(
            &mut b,
            Command::Move {
                unit: id("a1"),
                steps: vec![Step::Advance(inches)],
            },
        );
        assert_eq!(e, Ok(Refusal::ContactOnlyByCharge), "{inches}");
    }
    b.execute(Command::Move {
        unit: id("a1"),
        steps: vec![Step::Advance(2.5)],
    })
    .expect("a move that stops short");
}

/// IV.A.4: each stand throws against the stand it faces and the difference falls on that
/// stand, not on the unit's rear stand.
#[test]
fn melee_casualties_fall_on_the_stand_that_lost_its_pair() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 100.0, 60.0, 0.0, ""),
            ("a1", 0, "LI", "A", 600.0, 300.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 100.0, 880.0, 180.0, ""),
            ("b1", 1, "LI", "B", 600.0, 500.0, 180.0, ""),
        ],
        "",
    );
    let to = {
        let h = hal(&b);
        h.contact_place(b.unit(&id("b1")).unwrap(), b.unit(&id("a1")).unwrap())
            .0
    };
    b.unit_mut(&id("b1")).unwrap().base = to;
    to_phase(&mut b, CLOSE_COMBAT, &[3, 3, 6, 1]);
    // a1's stand at the left end of its frontage (first along its right) faces b1's nearest.
    let (a_first, b_victim) = {
        let h = hal(&b);
        let a = b.unit(&id("a1")).unwrap();
        let e = b.unit(&id("b1")).unwrap();
        let sa = h.stand_bases(&b, a);
        let se = h.stand_bases(&b, e);
        let r = a.base.right();
        let first = (0..sa.len())
            .min_by(|&i, &j| {
                sa[i]
                    .centre
                    .dot(r)
                    .partial_cmp(&sa[j].centre.dot(r))
                    .unwrap()
            })
            .unwrap();
        let victim = (0..se.len())
            .min_by(|&i, &j| {
                se[i]
                    .centre
                    .dist(sa[first].centre)
                    .partial_cmp(&se[j].centre.dist(sa[first].centre))
                    .unwrap()
            })
            .unwrap();
        (first, victim)
    };
    assert_ne!(b_victim, 5, "the pair is not at the rear stand");
    let _ = a_first;
    // Six pairs: the first 6 against 1 (5 casualties), the rest 1 against 1; b1 loses by 10
    // and reads the chart (3+3 - 2 = 4: rout).
    b.script_dice(&[6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3]);
    let ev = b
        .execute(Command::Fight {
            unit: id("a1"),
            target: id("b1"),
            pursue: None,
            pursuits: Vec::new(),
        })
        .expect("fight");
    let w = words(&b, &ev);
    let figs: Vec<u32> = b
        .unit(&id("b1"))
        .unwrap()
        .stands
        .iter()
        .map(|s| s.figures)
        .collect();
    let mut want = vec![7, 6, 6, 6, 6, 6];
    want[b_victim] -= 5;
    assert_eq!(figs, want, "{w}");
}

/// A charger starting a melee attacks for as long as the melee lasts: after a drawn round the
/// next turn's melee has the same attacker, whichever unit the command names first.
#[test]
fn the_charger_attacks_for_as_long_as_the_melee_lasts() {
    let mut b = charged_battle("LI", "LI", 5.0, &[6, 6, 6, 6, 6, 6]);
    to_phase(&mut b, CLOSE_COMBAT, &[]);
    // Turn 1: twelve 3s, a drawn melee; then turn 2's throw 6 against 1.
    let mut dice = vec![3; 12];
    dice.extend([6, 1]);
    b.script_dice(&dice);
    while !(b.turn == 2 && b.phase == CLOSE_COMBAT) {
        b.execute(Command::EndPhase).expect("on");
    }
    let w = words(&b, &b.log);
    let log: Vec<Event> = b.log.iter().cloned().collect();
    assert_eq!(melees(&log), [(18, 18, 0)], "a drawn melee: {w}");
    b.script_dice(&[3; 12]);
    let ev = b
        .execute(Command::Fight {
            unit: id("b1"),
            target: id("a1"),
            pursue: None,
            pursuits: Vec::new(),
        })
        .expect("fight");
    let attacker = ev.iter().find_map(|e| match e {
        Event::Assault { attacker, .. } => Some(attacker.clone()),
        _ => None,
    });
    assert_eq!(attacker, Some(id("a1")), "{}", words(&b, &ev));
}

/// A battle in which `attacker` (a1) has charged a battalion of `defender` (b1) from `gap`
/// inches with these dice after the chips and the throw.
fn charged_battle(attacker: &str, defender: &str, gap: f32, dice: &[u8]) -> Game {
    let place = |y: f32| {
        battle(
            &[
                ("ga", 0, "GEN", "A", 400.0, y - 100.0, 0.0, ""),
                ("a1", 0, attacker, "A", 600.0, y, 0.0, ""),
                ("gb", 1, "GEN", "B", 300.0, 880.0, 180.0, ""),
                ("b1", 1, defender, "B", 600.0, 800.0, 180.0, ""),
            ],
            "",
        )
    };
    let probe = place(400.0);
    let (a, t) = (
        probe.unit(&id("a1")).unwrap(),
        probe.unit(&id("b1")).unwrap(),
    );
    let now = hal(&probe).contact_place(a, t).1 / 25.4;
    let mut b = place(400.0 + (now - gap) * 25.4);
    to_phase(&mut b, CHARGES, &[3, 3]);
    b.execute(Command::Declare {
        unit: id("a1"),
        target: id("b1"),
    })
    .expect("declare");
    b.script_dice(&[6, 1]);
    b.execute(Command::EndPhase).expect("to movement");
    b.execute(Command::Activate { unit: id("a1") })
        .expect("activate");
    b.script_dice(dice);
    let ev = b
        .execute(Command::Charge { unit: id("a1") })
        .expect("charge");
    assert!(charge(&ev, "a1").1, "reaches: {}", words(&b, &ev));
    b
}

/// "Artillery/Wagons" move 9" in field column and 12" in road column (III): a limbered
/// battery keeping to a road moves 12".
#[test]
fn a_limbered_battery_on_a_road_moves_twelve_inches() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 700.0, 150.0, 0.0, ""),
            ("fa", 0, "FA", "A", 600.0, 150.0, 0.0, ", limbered: true"),
            ("gb", 1, "GEN", "B", 300.0, 880.0, 180.0, ""),
            ("b1", 1, "LI", "B", 1000.0, 850.0, 180.0, ""),
        ],
        "(id: \"road\", kind: Road, name: \"Chaussee\", points: [(600, 0), (600, 914)], width: 10)",
    );
    to_phase(&mut b, MOVEMENT, &[3, 3, 6, 1]);
    b.execute(Command::Activate { unit: id("fa") })
        .expect("activate");
    let ev = b
        .execute(Command::Move {
            unit: id("fa"),
            steps: vec![Step::Advance(11.5)],
        })
        .expect("11.5\" along the road");
    let w = words(&b, &ev);
    assert_eq!(moved(&ev, "fa"), (11.5, 12.0), "{w}");
}

/// Interpenetration (III.A.10): a formed unit that passed through formed friends does nothing
/// else that turn: it may not fire.
#[test]
fn a_unit_that_passed_through_friends_does_not_fire() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 200.0, 100.0, 0.0, ""),
            ("a1", 0, "LI", "A", 600.0, 200.0, 0.0, ""),
            ("a2", 0, "LI", "A", 600.0, 263.5, 0.0, ""),
            ("gb", 1, "GEN", "B", 200.0, 880.0, 180.0, ""),
            ("b1", 1, "LI", "B", 600.0, 600.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, MOVEMENT, &[3, 3, 6, 1]);
    b.execute(Command::Activate { unit: id("a1") })
        .expect("activate");
    let ev = b
        .execute(Command::Move {
            unit: id("a1"),
            steps: vec![Step::Advance(4.5)],
        })
        .expect("through a2");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Halted { unit, .. } if unit.as_str() == "a1")),
        "passed through formed friends: {}",
        words(&b, &ev)
    );
    to_phase(&mut b, SMALL_ARMS, &[]);
    let e = refused_as(
        &mut b,
        Command::Fire {
            unit: id("a1"),
            target: id("b1"),
            support: Vec::new(),
            defence: None,
        },
    );
    assert_eq!(e, Ok(Refusal::PassedThroughFriends));
}

/// A battery whose counter-battery fire knocks out every gun of its target has fired: it may
/// not fire again at another target.
#[test]
fn a_battery_that_knocked_out_its_target_has_fired() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 300.0, 60.0, 0.0, ""),
            ("fa", 0, "FA", "A", 600.0, 150.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 100.0, 880.0, 180.0, ""),
            ("xfa", 1, "FA", "B", 600.0, 600.0, 180.0, ""),
            ("xli", 1, "LI", "B", 900.0, 600.0, 180.0, ""),
        ],
        "",
    );
    // Chips; the throw; both guns hit (6) and knock out (6+6).
    to_phase(&mut b, ARTILLERY, &[3, 3, 6, 1, 6, 6, 6, 6, 6, 6]);
    let ev = b
        .execute(Command::Fire {
            unit: id("fa"),
            target: id("xfa"),
            support: Vec::new(),
            defence: None,
        })
        .expect("counter-battery");
    let w = words(&b, &ev);
    assert!(b.unit(&id("xfa")).unwrap().status.removed, "{w}");
    assert!(
        rolls_for(&ev, "fa", "counter-battery fire")
            .iter()
            .all(|r| r.need == Some(11)),
        "{w}"
    );
    let e = refused_as(
        &mut b,
        Command::Fire {
            unit: id("fa"),
            target: id("xli"),
            support: Vec::new(),
            defence: None,
        },
    );
    assert_eq!(e, Ok(Refusal::AlreadyFired));
}

/// A column fires with its front row as it stood when the small-arms step began: the
/// figures it lost in the step came off its rear, and are not given back to the front.
#[test]
fn a_column_fires_with_its_front_row_only() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 100.0, 60.0, 0.0, ""),
            ("a1", 0, "LI", "A", 600.0, 300.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 100.0, 880.0, 180.0, ""),
            (
                "col",
                1,
                "LI",
                "B",
                600.0,
                560.0,
                180.0,
                ", formation: Some(Column)",
            ),
        ],
        "",
    );
    // a1's volley: the odd figure's test 6 (no die), six dice 6, 5, 1, 1, 1, 1 less 3: five
    // hits, no saves for a column.
    to_phase(&mut b, SMALL_ARMS, &[3, 3, 6, 1, 6, 6, 5, 1, 1, 1, 1]);
    let ev = b
        .execute(Command::Fire {
            unit: id("a1"),
            target: id("col"),
            support: Vec::new(),
            defence: None,
        })
        .expect("fire at the column");
    assert_eq!(losses(&ev, "col"), [5], "{}", words(&b, &ev));
    // The column's front row before its first volley: two stands of six, the command stand
    // standing second from the front (behind them).
    b.script_dice(&[1, 1]);
    let ev = b
        .execute(Command::Fire {
            unit: id("col"),
            target: id("a1"),
            support: Vec::new(),
            defence: None,
        })
        .expect("the column fires");
    let stands = ev.iter().find_map(|e| match e {
        Event::Volley { stands, .. } => Some(*stands),
        _ => None,
    });
    assert_eq!(stands, Some(12), "{}", words(&b, &ev));
}

/// IV.A.4: every stand in contact fights this turn. A battalion charged in front and flank
/// fights both melees in the same melee phase, each pair once.
#[test]
fn a_unit_in_contact_with_two_enemies_fights_both() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 100.0, 60.0, 0.0, ""),
            ("a1", 0, "LI", "A", 600.0, 300.0, 0.0, ""),
            ("a2", 0, "LI", "A", 1000.0, 500.0, 270.0, ""),
            ("gb", 1, "GEN", "B", 100.0, 880.0, 180.0, ""),
            ("b1", 1, "LI", "B", 600.0, 500.0, 180.0, ""),
            ("b2", 1, "LI", "B", 300.0, 850.0, 180.0, ""),
        ],
        "",
    );
    let (front, flank) = {
        let h = hal(&b);
        let t = b.unit(&id("b1")).unwrap();
        (
            h.contact_place(b.unit(&id("a1")).unwrap(), t).0,
            h.contact_place(b.unit(&id("a2")).unwrap(), t).0,
        )
    };
    b.unit_mut(&id("a1")).unwrap().base = front;
    b.unit_mut(&id("a2")).unwrap().base = flank;
    to_phase(&mut b, CLOSE_COMBAT, &[3, 3, 6, 1]);
    let pairs = hal(&b).melees(&b);
    assert_eq!(pairs.len(), 2, "{pairs:?}");
    // The front melee: six pairs of 3s, a draw; b1 stays in contact with both.
    b.script_dice(&[3; 12]);
    let ev = b
        .execute(Command::Fight {
            unit: id("a1"),
            target: id("b1"),
            pursue: None,
            pursuits: Vec::new(),
        })
        .expect("the front melee");
    assert_eq!(
        melees(&ev).iter().map(|m| m.2).collect::<Vec<_>>(),
        [0],
        "a drawn melee: {}",
        words(&b, &ev)
    );
    let pairs = hal(&b).melees(&b);
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert!(
        [&pairs[0].0, &pairs[0].1].contains(&&id("a2"))
            && [&pairs[0].0, &pairs[0].1].contains(&&id("b1")),
        "{pairs:?}"
    );
    b.script_dice(&[3; 30]);
    let ev = b
        .execute(Command::Fight {
            unit: id("b1"),
            target: id("a2"),
            pursue: None,
            pursuits: Vec::new(),
        })
        .expect("the flank melee is fought this turn");
    let fought: Vec<(UnitId, UnitId)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Assault {
                attacker, defender, ..
            } => Some((attacker.clone(), defender.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(fought.len(), 1, "{}", words(&b, &ev));
    assert!(
        fought[0] == (id("a2"), id("b1")) || fought[0] == (id("b1"), id("a2")),
        "{fought:?}"
    );
    // Each pair once.
    let e = refused_as(
        &mut b,
        Command::Fight {
            unit: id("a1"),
            target: id("b1"),
            pursue: None,
            pursuits: Vec::new(),
        },
    );
    assert_eq!(e, Ok(Refusal::MeleeFought));
    assert!(hal(&b).melees(&b).is_empty());
}

/// The same front-and-flank contact left to the end of the phase: both melees are fought.
#[test]
fn melees_nobody_called_are_all_fought() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 100.0, 60.0, 0.0, ""),
            ("a1", 0, "LI", "A", 600.0, 300.0, 0.0, ""),
            ("a2", 0, "LI", "A", 1000.0, 500.0, 270.0, ""),
            ("gb", 1, "GEN", "B", 100.0, 880.0, 180.0, ""),
            ("b1", 1, "LI", "B", 600.0, 500.0, 180.0, ""),
            ("b2", 1, "LI", "B", 300.0, 850.0, 180.0, ""),
        ],
        "",
    );
    let (front, flank) = {
        let h = hal(&b);
        let t = b.unit(&id("b1")).unwrap();
        (
            h.contact_place(b.unit(&id("a1")).unwrap(), t).0,
            h.contact_place(b.unit(&id("a2")).unwrap(), t).0,
        )
    };
    b.unit_mut(&id("a1")).unwrap().base = front;
    b.unit_mut(&id("a2")).unwrap().base = flank;
    to_phase(&mut b, CLOSE_COMBAT, &[3, 3, 6, 1]);
    let from = b.log.len();
    // Draws throughout: every die a 3.
    b.script_dice(&[3; 80]);
    b.execute(Command::EndPhase).expect("the melees");
    let fought: Vec<UnitId> = b
        .log
        .since(from)
        .filter_map(|e| match e {
            Event::Assault {
                attacker, defender, ..
            } if defender == &id("b1") || attacker == &id("b1") => Some(if attacker == &id("b1") {
                defender.clone()
            } else {
                attacker.clone()
            }),
            _ => None,
        })
        .collect();
    assert!(
        fought.contains(&id("a1")) && fought.contains(&id("a2")),
        "{fought:?}: {}",
        words(&b, b.log.since(from))
    );
}

/// IV.A.9.e: flank and rear by the attacker's frontage crossing the lines carried on from the
/// target's flank (its front and rear edges) or rear (its flank edges).
#[test]
fn flank_and_rear_by_the_frontage_lines() {
    use volley::rules::geometry::{Base, Pt};
    use volley::rules::ruleset::hal25::flank_or_rear;
    let (w, d) = (317.5, 38.1);
    let t = Base::new(Pt::new(600.0, 400.0), 0.0, w, d);
    let at = |x: f32, y: f32, facing: f32| Base::new(t.local(x, y), facing, w, d);
    let (hw, hd) = (w / 2.0, d / 2.0);
    // Square on the front: not a flank attack.
    assert!(!flank_or_rear(&at(0.0, hd + d / 2.0, 180.0), &t));
    // Square on the right flank, and on the rear.
    assert!(flank_or_rear(&at(hw + d / 2.0, 0.0, -90.0), &t));
    assert!(flank_or_rear(&at(0.0, -hd - d / 2.0, 0.0), &t));
    // Beside the target, facing the same way, flank to flank: its frontage crosses no line.
    assert!(!flank_or_rear(&at(hw + w / 2.0, 0.0, 0.0), &t));
    // Turned on the flank but forward of the front line: its frontage crosses the front line
    // carried on beyond the flank.
    assert!(flank_or_rear(&at(hw + d / 2.0, hd + 40.0, -90.0), &t));
}

/// A disorganised loser of a melee routs at once (IV.A.8 with Failed Morale Notes 4; ruling
/// disorganised_failing): it does not read the failed morale chart.
#[test]
fn a_disorganised_melee_loser_routs_without_the_chart() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 100.0, 60.0, 0.0, ""),
            ("a1", 0, "LI", "A", 600.0, 300.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 100.0, 880.0, 180.0, ""),
            (
                "b1",
                1,
                "LI",
                "B",
                600.0,
                500.0,
                180.0,
                ", disordered: true",
            ),
        ],
        "",
    );
    let to = {
        let h = hal(&b);
        h.contact_place(b.unit(&id("b1")).unwrap(), b.unit(&id("a1")).unwrap())
            .0
    };
    b.unit_mut(&id("b1")).unwrap().base = to;
    to_phase(&mut b, CLOSE_COMBAT, &[3, 3, 6, 1]);
    // Six pairs, a1 2s and b1 3s, a1's +1 formed against non-formed and +1 for attacking a
    // disorganised unit: 4 against 3, b1 loses by 12.
    b.script_dice(&[2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3]);
    let ev = b
        .execute(Command::Fight {
            unit: id("a1"),
            target: id("b1"),
            pursue: None,
            pursuits: Vec::new(),
        })
        .expect("fight");
    let w = words(&b, &ev);
    assert_eq!(melees(&ev), [(24, 12, 12)], "a1 wins by 12: {w}");
    assert!(
        rolls_for(&ev, "b1", "the failed morale chart").is_empty(),
        "{w}"
    );
    assert!(b.unit(&id("b1")).unwrap().status.shaken, "{w}");
}

/// Counter-battery fire by light guns names their -1 to the die to hit (II.B.3.b).
#[test]
fn light_guns_counter_battery_roll_names_the_minus_one() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 300.0, 60.0, 0.0, ""),
            ("la", 0, "LA", "A", 600.0, 150.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 100.0, 880.0, 180.0, ""),
            ("xfa", 1, "FA", "B", 600.0, 600.0, 180.0, ""),
        ],
        "",
    );
    // Two light guns throw 4 and 4: each 3 with the -1, a miss at any range.
    to_phase(&mut b, ARTILLERY, &[3, 3, 6, 1, 4, 4, 1, 1]);
    let ev = b
        .execute(Command::Fire {
            unit: id("la"),
            target: id("xfa"),
            support: Vec::new(),
            defence: None,
        })
        .expect("counter-battery");
    let w = words(&b, &ev);
    let shots = rolls_for(&ev, "la", "counter-battery fire");
    assert_eq!(shape(shots[0]), (vec![4], 3, vec![-1]), "{w}");
    assert!(!passed(shots[0]), "{w}");
}

/// Every town and village of Hal's scenarios is one base of at most 11" x 15" (VII.A;
/// ruling town_size).
#[test]
fn hal25_towns_are_bases_of_eleven_by_fifteen_inches() {
    use volley::rules::terrain::FeatureKind;
    for f in [
        "scenarios/hal25_tutorial.ron",
        "scenarios/hal25_default.ron",
        "scenarios/hal25_krefeld.ron",
    ] {
        let b = scenario::load(Path::new(f)).expect(f);
        let (w, d) = {
            let h = hal(&b);
            (h.num("town_width"), h.num("town_depth"))
        };
        for t in b
            .terrain
            .features
            .iter()
            .filter(|t| matches!(t.kind, FeatureKind::Town | FeatureKind::Village))
        {
            let n = t.points.len();
            let mut sides: Vec<f32> = (0..n)
                .map(|i| b.scale.from_mm(t.points[i].dist(t.points[(i + 1) % n])))
                .collect();
            sides.sort_by(|a, c| a.partial_cmp(c).unwrap());
            assert!(
                n == 4 && sides[1] <= w + 0.05 && sides[3] <= d + 0.05,
                "{f}: {} is {sides:?}",
                t.name
            );
        }
    }
}

#[test]
fn the_close_combat_phase_ends_with_units_at_the_edge_of_contact() {
    // Two units a float's last digit either side of the 0.1" contact tolerance were in
    // contact measured from one and not from the other: the melee the phase's end found was
    // refused, and the game could go no further (the straight player against the opponent on
    // the default battle, seeds 5 and 49).
    use volley::players::batch::{Player, play_out};
    let start = scenario::load(Path::new("scenarios/hal25_default.ron")).expect("scenario");
    for seed in [5, 49] {
        let (b, refused) = play_out(&start, seed, [Player::Straight, Player::Veteran], |_| {});
        assert_eq!(refused, 0, "seed {seed}");
        assert!(b.is_over(), "seed {seed}: the game ended");
    }
}

/// A limbered battery has no formation: its crew and drivers save as artillery crew and
/// mounted (5-6), not as troops in column (II.A.1.c; ruling limbered_saves).
#[test]
fn a_limbered_battery_saves_as_artillery_crew() {
    use volley::rules::ruleset::hal25::tables::save_need;
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 600.0, 60.0, 0.0, ""),
            ("a1", 0, "LI", "A", 600.0, 200.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 600.0, 880.0, 180.0, ""),
            ("fa", 1, "FA", "B", 600.0, 420.0, 180.0, ", limbered: true"),
        ],
        "",
    );
    to_phase(&mut b, SMALL_ARMS, &[3, 3, 6, 1]);
    let h = hal(&b);
    let s = h.fire_setup(&b, &id("a1"), &id("fa")).expect("a1 at fa");
    assert!(b.unit(&id("fa")).unwrap().status.limbered);
    assert!(!s.receiving.target.in_column && s.receiving.target.covered);
    let d = volley::rules::ruleset::hal25::HalData::load().expect("data");
    assert_eq!(
        save_need(&d, s.receiving.target, s.line_firing, None, s.moved),
        Some(5)
    );
    assert!(h.d.rulings.iter().any(|r| r.key == "limbered_saves"));
}

/// A formation change is movement (III; III.A.6-9): the target of a unit that changed its
/// formation this turn saves one number harder (II.A.1.c "Firing unit moved").
#[test]
fn a_formation_change_counts_as_the_firer_moving() {
    use volley::rules::ruleset::hal25::tables::save_need;
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 600.0, 60.0, 0.0, ""),
            ("a1", 0, "LI", "A", 600.0, 200.0, 0.0, ""),
            ("a2", 0, "LI", "A", 1000.0, 200.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 600.0, 880.0, 180.0, ""),
            ("fa", 1, "FA", "B", 600.0, 450.0, 180.0, ""),
            ("fb", 1, "FA", "B", 1000.0, 450.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, MOVEMENT, &[3, 3, 6, 1]);
    assert_eq!(b.active, 0);
    b.execute(Command::Activate { unit: id("a1") }).expect("A");
    b.script_dice(&[2]);
    b.execute(Command::Form {
        unit: id("a1"),
        formation: Formation::Column,
        turn: 0.0,
    })
    .expect("form column");
    assert!(
        !b.unit(&id("a1")).unwrap().bound.moved,
        "no move but the change"
    );
    to_phase(&mut b, SMALL_ARMS, &[]);
    let d = volley::rules::ruleset::hal25::HalData::load().expect("data");
    let h = hal(&b);
    // a1 changed formation: the battery's crew save on 6, not 5-6.
    let s = h.fire_setup(&b, &id("a1"), &id("fa")).expect("a1 at fa");
    assert!(s.moved);
    assert_eq!(
        save_need(&d, s.receiving.target, s.line_firing, None, s.moved),
        Some(6)
    );
    // a2 stood: 5-6.
    let s = h.fire_setup(&b, &id("a2"), &id("fb")).expect("a2 at fb");
    assert!(!s.moved);
    assert_eq!(
        save_need(&d, s.receiving.target, s.line_firing, None, s.moved),
        Some(5)
    );
}

/// "Disorganized units failing morale drop to rout status" (V Failed Morale Notes 4): a
/// disorganised charger that fails its check to close routs and runs at once (I.2.A.a
/// pre-melee rout movement), where one in good order is only disorganised (IV.A.1).
#[test]
fn a_disorganised_charger_failing_to_close_routs() {
    let place = |y: f32, extra: &str| {
        battle(
            &[
                ("ga", 0, "GEN", "A", 400.0, y - 100.0, 0.0, ""),
                ("a1", 0, "LI", "A", 600.0, y, 0.0, extra),
                ("gb", 1, "GEN", "B", 300.0, 880.0, 180.0, ""),
                ("b1", 1, "LI", "B", 600.0, 800.0, 180.0, ""),
            ],
            "",
        )
    };
    for disorganised in [false, true] {
        let extra = if disorganised {
            ", disordered: true"
        } else {
            ""
        };
        let probe = place(400.0, extra);
        let now = hal(&probe)
            .contact_place(
                probe.unit(&id("a1")).unwrap(),
                probe.unit(&id("b1")).unwrap(),
            )
            .1
            / 25.4;
        let mut b = place(400.0 + (now - 5.0) * 25.4, extra);
        assert_eq!(b.unit(&id("a1")).unwrap().status.disordered, disorganised);
        to_phase(&mut b, CHARGES, &[3, 3]);
        b.execute(Command::Declare {
            unit: id("a1"),
            target: id("b1"),
        })
        .expect("declare");
        b.script_dice(&[6, 1]);
        b.execute(Command::EndPhase).expect("to movement");
        b.execute(Command::Activate { unit: id("a1") })
            .expect("activate");
        let from = b.unit(&id("a1")).unwrap().base.centre;
        // The check to close 1+1 fails; the rout die 3: 6" + 3 = 9".
        b.script_dice(&[1, 1, 3]);
        let ev = b
            .execute(Command::Charge { unit: id("a1") })
            .expect("charge");
        let w = words(&b, &ev);
        assert!(!passed(roll_for(&ev, "a1", "morale: closing")), "{w}");
        assert!(rolls_for(&ev, "b1", "morale: holding").is_empty(), "{w}");
        let a = b.unit(&id("a1")).unwrap();
        if disorganised {
            assert!(a.status.shaken, "routed: {w}");
            assert_eq!(
                roll_for(&ev, "a1", "rout movement").total,
                9,
                "runs 9\": {w}"
            );
            assert!(
                (from.y - a.base.centre.y - 9.0 * 25.4).abs() < 1.0,
                "ran 9\" away from b1: {w}"
            );
            // Its pre-melee rout movement was this turn's: the rout movement phase (I.6) does
            // not move it again.
            let ran = b.log.len();
            to_phase(&mut b, ROUT, &[6; 60]);
            let again = b.log.iter().skip(ran).any(|e| {
                matches!(e, Event::Rolled { what, roll }
                    if what == "rout movement" && roll.unit == Some(id("a1")))
            });
            assert!(
                !again,
                "{}",
                words(&b, &b.log.iter().skip(ran).cloned().collect::<Vec<_>>())
            );
        } else {
            assert!(a.status.disordered && !a.status.shaken, "{w}");
            assert_eq!(a.base.centre, from, "{w}");
        }
    }
}

/// A charge meets the one enemy it was declared on, which took its check to hold (IV.A.2): a
/// charge whose place in contact would touch a second enemy as well is refused before any die.
#[test]
fn a_charge_may_not_end_touching_a_second_enemy() {
    let place = |y: f32, x2: f32| {
        battle(
            &[
                ("ga", 0, "GEN", "A", 400.0, y - 100.0, 0.0, ""),
                ("a1", 0, "LI", "A", 600.0, y, 0.0, ""),
                ("gb", 1, "GEN", "B", 300.0, 880.0, 180.0, ""),
                ("b1", 1, "LI", "B", 600.0, 800.0, 180.0, ""),
                ("b2", 1, "LI", "B", x2, 800.0, 180.0, ""),
            ],
            "",
        )
    };
    let probe = place(400.0, 1000.0);
    let (a, t) = (
        probe.unit(&id("a1")).unwrap(),
        probe.unit(&id("b1")).unwrap(),
    );
    let (to, d) = hal(&probe).contact_place(a, t);
    let now = d / 25.4;
    // b2 beside b1, a millimetre (0.04") off the end of a1's place in contact: touching it.
    let x2 = to.centre.x + to.width / 2.0 + 1.0 + t.base.width / 2.0;
    for (x2, touching) in [(x2, true), (x2 + 10.0, false)] {
        let mut b = place(400.0 + (now - 3.0) * 25.4, x2);
        to_phase(&mut b, CHARGES, &[3, 3]);
        let declare = Command::Declare {
            unit: id("a1"),
            target: id("b1"),
        };
        // The declaration's preview says the way is shut as the table stands.
        let notes = b.rules.preview(&b, &declare).expect("preview").notes;
        assert_eq!(
            notes
                .iter()
                .any(|n| n.contains("could not be made") && n.contains("b2")),
            touching,
            "{notes:?}"
        );
        b.execute(declare).expect("declare");
        b.script_dice(&[6, 1]);
        b.execute(Command::EndPhase).expect("to movement");
        b.execute(Command::Activate { unit: id("a1") })
            .expect("activate");
        if touching {
            // The card says why the declared charge cannot be made, and offers no button.
            let groups = b.rules.actions(&b, b.unit(&id("a1")).unwrap());
            let g = groups
                .iter()
                .find(|g| g.title == "Charge")
                .expect("a Charge group");
            assert!(
                g.actions.is_empty() && g.note.contains("cannot be made") && g.note.contains("b2"),
                "{}",
                g.note
            );
            let e = refused_as(&mut b, Command::Charge { unit: id("a1") });
            assert_eq!(e, Ok(Refusal::ContactWithUncharged));
        } else {
            b.script_dice(&[6, 6, 6, 6, 2, 6]);
            let ev = b
                .execute(Command::Charge { unit: id("a1") })
                .expect("charge");
            let w = words(&b, &ev);
            assert!(charge(&ev, "a1").1, "reaches: {w}");
            let h = hal(&b);
            let a = b.unit(&id("a1")).unwrap();
            assert!(!h.contact(&b, a, b.unit(&id("b2")).unwrap()), "{w}");
        }
    }
}

/// An officer with a unit that fire wipes out throws for his risk all the same (VI.C): the
/// fire was effective, whether by musketry or by knocking out the battery's last gun.
#[test]
fn an_officer_with_a_unit_wiped_out_throws_for_his_risk() {
    // Musketry: b1, one figure left, loses it.
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 600.0, 60.0, 0.0, ""),
            ("a1", 0, "LI", "A", 600.0, 200.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 600.0, 460.0, 180.0, ""),
            ("b1", 1, "LI", "B", 600.0, 420.0, 180.0, ""),
        ],
        "",
    );
    {
        let u = b.unit_mut(&id("b1")).unwrap();
        u.stands.truncate(1);
        u.stands[0].figures = 1;
    }
    to_phase(&mut b, SMALL_ARMS, &[3, 3, 6, 1]);
    assert_eq!(
        hal(&b)
            .attached_general(&b, b.unit(&id("b1")).unwrap())
            .map(|g| g.id.clone()),
        Some(id("gb"))
    );
    // The odd figure fires (1); seven dice at medium range less 3: one hit (4); its save 1
    // fails; the officer's risk 6+6.
    b.script_dice(&[1, 4, 1, 1, 1, 1, 1, 1, 1, 6, 6]);
    let ev = b
        .execute(Command::Fire {
            unit: id("a1"),
            target: id("b1"),
            support: Vec::new(),
            defence: None,
        })
        .expect("fire");
    let w = words(&b, &ev);
    assert!(b.unit(&id("b1")).unwrap().status.removed, "{w}");
    assert_eq!(
        shape(roll_for(&ev, "gb", "the risk to the officer with b1")),
        (vec![6, 6], 12, vec![]),
        "{w}"
    );
    assert!(b.unit(&id("gb")).unwrap().status.removed, "{w}");

    // Counter-battery: the battery's last gun knocked out.
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 300.0, 60.0, 0.0, ""),
            ("fa", 0, "FA", "A", 600.0, 150.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 600.0, 695.0, 180.0, ""),
            ("xfa", 1, "FA", "B", 600.0, 600.0, 180.0, ""),
        ],
        "",
    );
    for (i, f) in [4, 0, 0, 0].into_iter().enumerate() {
        b.unit_mut(&id("xfa")).unwrap().stands[i].figures = f;
    }
    to_phase(&mut b, ARTILLERY, &[3, 3, 6, 1]);
    // The first gun hits (4) and knocks out (6+5); the second misses (2); the risk 6+6.
    b.script_dice(&[4, 6, 5, 2, 6, 6]);
    let ev = b
        .execute(Command::Fire {
            unit: id("fa"),
            target: id("xfa"),
            support: Vec::new(),
            defence: None,
        })
        .expect("counter-battery");
    let w = words(&b, &ev);
    assert!(
        passed(rolls_for(&ev, "fa", "counter-battery fire")[0]),
        "knocks out a gun: {w}"
    );
    assert!(b.unit(&id("xfa")).unwrap().status.removed, "{w}");
    assert_eq!(
        shape(roll_for(&ev, "gb", "the risk to the officer with xfa")),
        (vec![6, 6], 12, vec![]),
        "{w}"
    );
    assert!(b.unit(&id("gb")).unwrap().status.removed, "{w}");
}

/// IV.A.9.b: "Units inflicting a single (I) point on horse units roll 1D6": three points on
/// horse remove one horseman (two points a horseman, IV.A.9.a) and throw no die for the third;
/// a single point throws it (ruling melee_horse_points).
#[test]
fn only_a_single_melee_point_on_horse_throws_the_die() {
    for single in [false, true] {
        let mut b = battle(
            &[
                ("ga", 0, "GEN", "A", 100.0, 60.0, 0.0, ""),
                ("a1", 0, "LI", "A", 600.0, 300.0, 0.0, ""),
                ("gb", 1, "GEN", "B", 100.0, 880.0, 180.0, ""),
                ("b1", 1, "HC", "B", 600.0, 500.0, 180.0, ""),
            ],
            "",
        );
        let to = {
            let h = hal(&b);
            h.contact_place(b.unit(&id("b1")).unwrap(), b.unit(&id("a1")).unwrap())
                .0
        };
        b.unit_mut(&id("b1")).unwrap().base = to;
        to_phase(&mut b, CLOSE_COMBAT, &[3, 3, 6, 1]);
        let (na, ne, ma, me) = {
            let (sa, se) = hal(&b)
                .melee_sides(&b, &id("a1"), &id("b1"))
                .expect("sides");
            (
                sa.melee.facing,
                se.melee.facing,
                sa.melee.modifier,
                se.melee.modifier,
            )
        };
        assert!(na <= ne, "{na} {ne}");
        // The first pair: a1 beats b1's stand by 3 (or 1); every other pair and b1's extra
        // dice go b1's way; then the loser's chart and anything after: 3s.
        let gap = if single { 1 } else { 3 };
        let da = (1 + me + gap - ma) as u8;
        assert!((1..=6).contains(&da), "{da}");
        let mut dice = vec![da, 1];
        for _ in 1..na {
            dice.extend([1, 6]);
        }
        dice.extend(std::iter::repeat_n(6, ne - na));
        if single {
            dice.push(4);
        }
        dice.extend([3; 12]);
        b.script_dice(&dice);
        let ev = b
            .execute(Command::Fight {
                unit: id("a1"),
                target: id("b1"),
                pursue: None,
                pursuits: Vec::new(),
            })
            .expect("fight");
        let w = words(&b, &ev);
        let lost: u32 = 24 - b.unit(&id("b1")).unwrap().figures();
        assert_eq!(lost, 1, "{w}");
        assert_eq!(
            rolls_for(&ev, "b1", "the odd point on horse").len(),
            usize::from(single),
            "{w}"
        );
    }
}

/// I.1: a charge is announced once, with its target; a unit that has declared has no more
/// declarations to make (its card says on whom it is declared), and a second one is refused.
#[test]
fn a_charge_is_declared_once() {
    let mut b = battle(
        &[
            ("ga", 0, "GEN", "A", 400.0, 300.0, 0.0, ""),
            ("a1", 0, "LI", "A", 600.0, 400.0, 0.0, ""),
            ("gb", 1, "GEN", "B", 300.0, 880.0, 180.0, ""),
            ("b1", 1, "LI", "B", 600.0, 600.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, CHARGES, &[3, 3]);
    b.execute(Command::Declare {
        unit: id("a1"),
        target: id("b1"),
    })
    .expect("declare");
    let e = refused_as(
        &mut b,
        Command::Declare {
            unit: id("a1"),
            target: id("b1"),
        },
    );
    assert_eq!(e, Ok(Refusal::AlreadyDeclared));
    let a1 = b.unit(&id("a1")).unwrap().clone();
    let groups = b.rules.actions(&b, &a1);
    assert!(
        groups.iter().all(|g| g
            .actions
            .iter()
            .all(|a| !matches!(a.command, Command::Declare { .. }))),
        "{groups:?}"
    );
}

/// A game decided at the turn limit by the share of units lost ("the turns are played: ...")
/// counts as ended by the turn limit in a batch report, by the game-over event's `by`, not by
/// its words (which say "turns", not "turn limit").
#[test]
fn a_game_decided_at_the_turn_limit_counts_as_ended_by_it() {
    use volley::players::batch::{Player, play_game};
    use volley::rules::command::Ending;
    // The default battle as the rules alone decide it: without its victory conditions.
    let text = std::fs::read_to_string("scenarios/hal25_default.ron").expect("default");
    let from = text.find("    victory_conditions: (").expect("conditions");
    let to = from + text[from..].find("\n    ),\n").expect("their end") + "\n    ),\n".len();
    let text = format!("{}{}", &text[..from], &text[to..]);
    let start = scenario::parse(&text, "hal25_default.ron").expect("scenario");
    let mut at_limit_with_winner = 0;
    for seed in 1..=3 {
        let (g, _) = volley::players::batch::play_out(
            &start,
            seed,
            [Player::Veteran, Player::Veteran],
            |_| {},
        );
        let by = g.log.iter().rev().find_map(|e| match e {
            Event::GameOver { by, winner, .. } => Some((*by, *winner)),
            _ => None,
        });
        let record = play_game(&start, seed, [Player::Veteran, Player::Veteran]);
        if let Some((Ending::TurnLimit, Some(_))) = by {
            at_limit_with_winner += 1;
            assert!(
                record.reason.starts_with("the turns are played"),
                "{}",
                record.reason
            );
        }
        assert_eq!(
            record.turn_limit,
            !matches!(
                by,
                Some((Ending::Broken | Ending::Withdrew | Ending::NoUnits, Some(_)))
            ),
            "seed {seed}: {}",
            record.reason
        );
    }
    assert!(
        at_limit_with_winner > 0,
        "no game of seeds 1-3 was won at the turn limit"
    );
}
