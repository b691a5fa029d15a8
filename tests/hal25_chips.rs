//! Hal's chips throw again only one die (004 VI.F.b): the command is played again with every
//! other die as it fell, each handed back to the throw it was made for; a throw the first play
//! did not make takes a new die, and old dice no longer thrown are not used.

mod common;
use common::hal25::{battle, disorganised, passed, roll_for, rolls_for, to_phase, words};
use common::id;
use std::path::Path;
use volley::rules::command::{Command, Event};
use volley::rules::ruleset::Roll;
use volley::rules::ruleset::hal25::status::own_mut;
use volley::rules::ruleset::hal25::{ARTILLERY, SMALL_ARMS};
use volley::rules::{Game, scenario};

/// A brigade of three line battalions a side on a 48" x 36" table, generals behind.
fn two_brigades() -> Game {
    let units = [
        ("ga", 0, "GEN", "A", 610.0, 150.0, 0.0, ""),
        ("a1", 0, "GR", "A", 300.0, 250.0, 0.0, ""),
        ("a2", 0, "LI", "A", 640.0, 250.0, 0.0, ""),
        ("a3", 0, "LI", "A", 980.0, 250.0, 0.0, ""),
        ("gb", 1, "GEN", "B", 610.0, 700.0, 180.0, ""),
        ("b1", 1, "LI", "B", 300.0, 542.0, 180.0, ""),
        ("b2", 1, "LI", "B", 640.0, 542.0, 180.0, ""),
    ];
    battle(&units, "")
}

/// A roll as it fell: dice, total, need and outcome (not where its dice stand among the
/// command's, which a roll no longer thrown before it changes).
fn fell(r: &Roll) -> (Vec<u8>, i32, Option<i32>, String) {
    (r.dice.clone(), r.total, r.need, r.outcome.clone())
}

/// General `by` spends a chip to throw `unit`'s die again, the dice after it scripted: the
/// events and their words.
fn chip(b: &mut Game, by: &str, unit: &str, dice: &[u8]) -> (Vec<Event>, String) {
    b.script_dice(dice);
    let ev = b
        .execute(Command::Reroll {
            by: id(by),
            unit: id(unit),
        })
        .expect("the chip");
    let w = words(b, &ev);
    (ev, w)
}

/// The two-brigade battle at the end of its artillery phase, a2 and a3 marked to check; the
/// end of the phase throws a2's check (1, 2: fails), its failed morale chart (4, 4), then a3's
/// check (3, 4). The events of that command.
fn two_checks() -> (Game, Vec<Event>) {
    let mut b = two_brigades();
    // Chips 3 and 3 (a chip each); the throw 6 against 1.
    to_phase(&mut b, ARTILLERY, &[3, 3, 6, 1]);
    for x in ["a2", "a3"] {
        own_mut(b.unit_mut(&id(x)).unwrap()).must_check = true;
    }
    b.script_dice(&[1, 2, 4, 4, 3, 4]);
    let ev = b.execute(Command::EndPhase).expect("the checks");
    assert_eq!(b.phase, SMALL_ARMS);
    let w = words(&b, &ev);
    let a2 = roll_for(&ev, "a2", "morale: losses");
    assert_eq!(a2.dice, [1, 2], "{w}");
    assert!(!passed(a2), "{w}");
    assert_eq!(
        roll_for(&ev, "a2", "the failed morale chart").dice,
        [4, 4],
        "{w}"
    );
    assert_eq!(roll_for(&ev, "a3", "morale: losses").dice, [3, 4], "{w}");
    (b, ev)
}

/// The chip for the first unit's check throws its lower die again: the check passes, so its
/// chart is not thrown and its dice go unused; the second unit's check keeps its dice and its
/// result, and no die is taken after the new one.
#[test]
fn a_chip_for_the_first_check_leaves_the_second_units_dice() {
    let (mut b, ev) = two_checks();
    let a3_before = fell(roll_for(&ev, "a3", "morale: losses"));
    // The 1 is thrown again: a 6. The dice after it would be a3's were they thrown.
    let (ev, w) = chip(&mut b, "ga", "a2", &[6, 1, 1, 2]);
    let a2 = roll_for(&ev, "a2", "morale: losses");
    assert_eq!(a2.dice, [6, 2], "{w}");
    assert!(passed(a2), "{w}");
    assert!(
        rolls_for(&ev, "a2", "the failed morale chart").is_empty(),
        "{w}"
    );
    assert!(!disorganised(&ev, "a2"), "{w}");
    assert_eq!(
        fell(roll_for(&ev, "a3", "morale: losses")),
        a3_before,
        "{w}"
    );
    assert_eq!(b.cmd_dice, [6, 2, 3, 4], "{w}");
    // The dice go on after the new one.
    assert_eq!(b.dice.d6(), Ok(1));
    assert_eq!(b.unit(&id("ga")).unwrap().extra.chips, 0);
}

/// A die thrown again that leaves the throws as they were changes that die alone: the chart
/// and the second unit's check keep theirs.
#[test]
fn a_chip_that_changes_nothing_else_keeps_every_other_die() {
    let (mut b, ev) = two_checks();
    let a3_before = fell(roll_for(&ev, "a3", "morale: losses"));
    let chart_before = roll_for(&ev, "a2", "the failed morale chart").clone();
    // The 1 is thrown again: a 1; the check fails as before.
    let (ev, w) = chip(&mut b, "ga", "a2", &[1, 6, 6, 6]);
    let a2 = roll_for(&ev, "a2", "morale: losses");
    assert_eq!(a2.dice, [1, 2], "{w}");
    assert!(!passed(a2), "{w}");
    assert_eq!(
        roll_for(&ev, "a2", "the failed morale chart"),
        &chart_before,
        "{w}"
    );
    assert_eq!(
        fell(roll_for(&ev, "a3", "morale: losses")),
        a3_before,
        "{w}"
    );
    assert_eq!(b.dice.d6(), Ok(6));
}

/// A re-throw that makes a throw needed that the first play did not make takes a new die for
/// it alone: the holding check passed at the second throw, so the chart's dice go unused, the
/// range die into the charge (not thrown before) is new, and the charge bonus keeps its die.
#[test]
fn a_throw_the_first_play_did_not_make_takes_a_new_die_and_no_other() {
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
    // Closing 4+3 passes; holding 1+2 fails; the chart's 4+4; the charge bonus 5.
    let ev = b
        .execute(Command::Charge { unit: id("pr-gr") })
        .expect("charge");
    let w = words(&b, &ev);
    assert!(
        !passed(roll_for(&ev, "au-kaiser", "morale: holding")),
        "{w}"
    );
    assert_eq!(roll_for(&ev, "pr-gr", "the charge bonus").dice, [5], "{w}");
    // The 1 is thrown again: a 5, and the check passes; the range die is the 6 after it.
    let (ev, w) = chip(&mut b, "au-gen", "au-kaiser", &[5, 6, 1, 1]);
    let holding = roll_for(&ev, "au-kaiser", "morale: holding");
    assert_eq!(holding.dice, [5, 2], "{w}");
    assert!(passed(holding), "{w}");
    assert!(
        rolls_for(&ev, "au-kaiser", "the failed morale chart").is_empty(),
        "{w}"
    );
    assert_eq!(
        roll_for(&ev, "au-kaiser", "the range to fire into the charge").dice,
        [6],
        "{w}"
    );
    assert_eq!(roll_for(&ev, "pr-gr", "the charge bonus").dice, [5], "{w}");
    assert_eq!(b.dice.d6(), Ok(1));
}

/// A melee's dice are thrown in pairs (attacker's, then defender's): a chip for the loser throws
/// its lowest die again, and every other die of the melee and the loser's failed morale chart
/// after it keep theirs.
#[test]
fn a_melee_die_thrown_again_leaves_the_pairs_and_the_chart() {
    let hal = |b: &Game| match &b.rules {
        volley::rules::ruleset::AnyRuleset::Hal25(r) => r.clone(),
        _ => panic!("not Hal's rules"),
    };
    let units = [
        ("ga", 0, "GEN", "A", 400.0, 200.0, 0.0, ""),
        ("a1", 0, "LI", "A", 600.0, 300.0, 0.0, ""),
        ("gb", 1, "GEN", "B", 400.0, 700.0, 180.0, ""),
        ("b1", 1, "LI", "B", 600.0, 500.0, 180.0, ""),
    ];
    let mut b = battle(&units, "");
    let to = hal(&b)
        .contact_place(b.unit(&id("b1")).unwrap(), b.unit(&id("a1")).unwrap())
        .0;
    b.unit_mut(&id("b1")).unwrap().base = to;
    to_phase(
        &mut b,
        volley::rules::ruleset::hal25::CLOSE_COMBAT,
        &[3, 3, 6, 1],
    );
    let fight = Command::Fight {
        unit: id("a1"),
        target: id("b1"),
        pursue: None,
        pursuits: Vec::new(),
    };
    // Pairs a1 4, b1 3 (b1's first a 1): b1 loses by 16; its chart 2, 5 routs it.
    b.script_dice(&[4, 1, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 2, 5, 6, 6, 6, 6]);
    let ev = b.execute(fight).expect("fight");
    let w = words(&b, &ev);
    let melee = |ev: &[Event]| {
        ev.iter()
            .find_map(|e| match e {
                Event::Assault {
                    attacker_roll,
                    defender_roll,
                    ..
                } => Some((attacker_roll.dice.clone(), defender_roll.dice.clone())),
                _ => None,
            })
            .expect("a melee")
    };
    let (a_dice, b_dice) = melee(&ev);
    assert_eq!(b_dice[0], 1, "{w}");
    let chart = fell(roll_for(&ev, "b1", "the failed morale chart"));
    let thrown = b.cmd_dice.clone();
    // b1's 1 is thrown again: a 2; b1 loses by 14 and reads the chart with the same dice.
    b.script_dice(&[2, 1, 1, 1, 1, 1]);
    let ev = b
        .execute(Command::Reroll {
            by: id("gb"),
            unit: id("b1"),
        })
        .expect("the chip");
    let w2 = words(&b, &ev);
    let (a_again, b_again) = melee(&ev);
    assert_eq!(a_again, a_dice, "{w}\n{w2}");
    assert_eq!(b_again[0], 2, "{w2}");
    assert_eq!(b_again[1..], b_dice[1..], "{w2}");
    assert_eq!(
        roll_for(&ev, "b1", "the failed morale chart").dice,
        chart.0,
        "{w}\n{w2}"
    );
    let mut expected = thrown;
    expected[1] = 2;
    assert_eq!(b.cmd_dice, expected, "{w}\n{w2}");
}
