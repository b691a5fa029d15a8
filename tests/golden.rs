//! Golden event logs: scenario + scripted dice + orders give exactly the expected events, in
//! words (`tests/golden/NAME.txt`, with each unit's state at the end) and as the events
//! themselves (`tests/golden/NAME.events.json`: one serialised `Event` a line, see
//! `common::golden_events`), so a rule change that keeps the words still fails. Set
//! UPDATE_GOLDEN=1 to rewrite both after a deliberate change.

use std::path::{Path, PathBuf};
use volley::cli::run_orders;
use volley::rules::{save, scenario};
use volley::text::report;

mod common;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn golden(scenario_file: &str, orders: &str, dice: &[u8], expected: &str) {
    let mut b = scenario::load(&root().join(scenario_file)).unwrap();
    b.script_dice(dice);
    let text = std::fs::read_to_string(root().join(orders)).unwrap();
    let cmds = save::parse_orders(&text, orders).unwrap();
    let (events, err) = run_orders(&mut b, cmds);
    assert_eq!(err, None, "every order is accepted");
    let mut got: Vec<String> = events.iter().map(|e| report::describe(&b, e)).collect();
    got.push(format!(
        "-- turn {}, {} phase, side {}",
        b.turn,
        b.phase.name(),
        b.active
    ));
    for u in b.units.iter() {
        got.push(format!(
            "{} ({:.1}, {:.1}) {:.1} hits {} shaken {} removed {}",
            u.id,
            u.base.centre.x,
            u.base.centre.y,
            u.base.facing,
            u.status.hits,
            u.status.shaken,
            u.status.removed
        ));
    }
    let got = got.join("\n") + "\n";
    let path = root().join(expected);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    if got != want {
        for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
            assert_eq!(g, w, "{expected}: line {} differs", i + 1);
        }
        assert_eq!(
            got.lines().count(),
            want.lines().count(),
            "{expected}: length differs"
        );
    }
    assert!(Path::new(&path).exists());
    let events_file = expected
        .strip_suffix(".txt")
        .expect("a golden log is a .txt file");
    common::golden_events(&format!("{events_file}.events.json"), &events);
}

#[test]
fn tutorial_two_turns() {
    golden(
        "scenarios/tutorial.ron",
        "tests/orders/tutorial_two_turns.ron",
        &TUTORIAL_DICE,
        "tests/golden/tutorial_two_turns.txt",
    );
}

/// Command rolls, then firing and combat dice, in the order the orders use them.
const TUTORIAL_DICE: [u8; 40] = [
    4, 5, 2, 3, 6, 1, 4, 4, 5, 3, 2, 6, 5, 1, 3, 4, 6, 2, 2, 5, 1, 6, 3, 3, 4, 5, 6, 1, 2, 4, 5, 5,
    3, 2, 1, 6, 4, 3, 2, 1,
];

/// Three DBFPW bounds: a cavalry charge destroyed by breech-loaders, long-range Krupp fire and a
/// caisson's resupply, the mitrailleuse's first die, and a battery running low then out.
#[test]
fn dbfpw_tutorial_three_bounds() {
    golden(
        "scenarios/dbfpw_tutorial.ron",
        "tests/orders/dbfpw_tutorial_three_bounds.ron",
        &DBFPW_TUTORIAL_DICE,
        "tests/golden/dbfpw_tutorial_three_bounds.txt",
    );
}

/// Prussia's command die; the battery's firing pair; the charge's pair; France's command die;
/// the mitrailleuse's first die and firing pair (a 1: low); the 4-pounders' pair; Prussia's
/// command die, the battery's pair (a 1, resupplied by the caisson); France's command die, the
/// mitrailleuse's first die and pair (its last round); Prussia's command die.
const DBFPW_TUTORIAL_DICE: [u8; 19] = [4, 5, 2, 3, 6, 1, 4, 1, 5, 3, 2, 6, 1, 2, 3, 4, 5, 2, 3];

/// A whole BBB turn, both sides: command rolls, an assault in depth, the general's move,
/// defensive and offensive fire on the fire table, the assault table, a rally on the
/// disordered column.
#[test]
fn bbb_tutorial_turn() {
    golden(
        "scenarios/bbb_tutorial.ron",
        "tests/orders/bbb_tutorial_turn.ron",
        &BBB_TUTORIAL_DICE,
        "tests/golden/bbb_tutorial_turn.txt",
    );
}

/// Two dice for each command roll and each fire, one for each side of an assault, in the order
/// the orders use them.
const BBB_TUTORIAL_DICE: [u8; 24] = [
    6, 5, 4, 4, 3, 2, 5, 5, 4, 3, 6, 2, 3, 4, 4, 4, 3, 4, 5, 5, 2, 3, 4, 4,
];

/// The order file that plays the tutorial to an army break under the scenario's own seed; made
/// by the seeded random player and kept as a regression file (regenerate with UPDATE_GOLDEN=1).
#[test]
fn tutorial_to_break_orders_still_break_an_army() {
    use volley::players::autoplay::AutoPlayer;
    use volley::rules::command::Event;
    let path = root().join("tests/orders/tutorial_to_break.ron");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let mut found = None;
        for seed in 0..200 {
            let mut b = scenario::load(&root().join("scenarios/tutorial.ron")).unwrap();
            AutoPlayer::new(seed).play(&mut b, 400, 16);
            if b.log.iter().any(|e| matches!(e, Event::ArmyBroken { .. })) {
                found = Some(b.commands.to_vec());
                break;
            }
        }
        let cmds = found.expect("some seed breaks an army");
        let mut text = String::from(
            "// The tutorial played to an army break by the seeded random player (scenario seed).\n[\n",
        );
        for c in cmds {
            text += &format!("    {},\n", ron::to_string(&c).unwrap());
        }
        text += "]\n";
        std::fs::write(&path, text).unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let cmds = save::parse_orders(&text, "tutorial_to_break.ron").unwrap();
    let mut b = scenario::load(&root().join("scenarios/tutorial.ron")).unwrap();
    let (events, err) = run_orders(&mut b, cmds);
    assert_eq!(err, None);
    assert!(events.iter().any(|e| matches!(e, Event::ArmyBroken { .. })));
    assert!(b.is_over());
}

/// The log names units by their names, never by the ids scenario files use.
#[test]
fn the_log_names_units_not_ids() {
    use volley::players::autoplay::AutoPlayer;
    for file in [
        "scenarios/tutorial.ron",
        "scenarios/default.ron",
        "scenarios/od_tutorial.ron",
    ] {
        let mut b = scenario::load(&root().join(file)).unwrap();
        AutoPlayer::new(3).play(&mut b, 120, 12);
        let ids: Vec<String> = b.units.iter().map(|u| u.id.to_string()).collect();
        for e in &b.log {
            let text = report::describe(&b, e);
            let words: Vec<&str> = text
                .split(|c: char| c.is_whitespace() || ",.:;()".contains(c))
                .collect();
            assert!(
                !ids.iter().any(|id| words.contains(&id.as_str())),
                "{file}: {text}"
            );
        }
    }
}

/// Hal's 25mm tutorial, the whole of turn 1 (see the order file for what happens).
#[test]
fn hal25_tutorial_turn() {
    golden(
        "scenarios/hal25_tutorial.ron",
        "tests/orders/hal25_tutorial_turn.ron",
        &HAL25_TUTORIAL_DICE,
        "tests/golden/hal25_tutorial_turn.txt",
    );
}

/// Chips (one die a commander, in unit order); the activation throw (Prussia's die, then
/// Austria's); closing 2D6; holding 2D6; the range die; the charge bonus; the volley: the die for
/// the odd figure, six dice, ten saves; the grenadiers' check; the melee's pairs (attacker's
/// die, then defender's) and the unanswered die; the failed morale chart; falling back 2D6 and
/// the facing die; the morale phase's check.
const HAL25_TUTORIAL_DICE: [u8; 49] = [
    3, 3, 3, 3, 5, 2, 4, 3, 5, 4, 5, 5, 2, 6, 5, 4, 3, 2, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 6, 3, 3, 6,
    2, 5, 3, 4, 4, 3, 5, 2, 1, 3, 4, 3, 3, 2, 5, 6, 5,
];
