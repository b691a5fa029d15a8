//! Every state a unit can be in during a game can be set by a scenario, is refused with its
//! place where the unit's rules do not have it or where two states contradict each other, and
//! is reported truly by `volley run --json` in the unit's ruleset's words.

use serde_json::Value;
use volley::rules::Game;
use volley::rules::model::Ammo;
use volley::rules::ruleset::hal25::status::own;
use volley::rules::scenario::{self, Diagnostic};
use volley::text::report::units_json;

/// A scenario of one ruleset with these units (RON unit lines) on a 2000 x 2000 mm table.
fn text(ruleset: &str, extra: &str, units: &str) -> String {
    format!(
        "(name: \"states\", ruleset: \"{ruleset}\", table: (width: 2000, height: 2000), seed: 1,
          turn_limit: 10, {extra}
          sides: [(name: \"Blue\", nation: \"german\", colour: (0, 0, 200)),
                  (name: \"Red\", nation: \"imperial_french\", colour: (200, 0, 0))],
          units: [
{units}
          ])"
    )
}

fn load(ruleset: &str, extra: &str, units: &str) -> Result<Game, Vec<Diagnostic>> {
    scenario::parse(&text(ruleset, extra, units), "states.ron")
}

fn ok(ruleset: &str, extra: &str, units: &str) -> Game {
    match load(ruleset, extra, units) {
        Ok(b) => b,
        Err(d) => panic!("scenario refused: {d:?}"),
    }
}

/// The one diagnostic a refused scenario gives.
fn refused(ruleset: &str, extra: &str, units: &str) -> Diagnostic {
    match load(ruleset, extra, units) {
        Ok(_) => panic!("scenario accepted"),
        Err(mut d) => {
            assert_eq!(d.len(), 1, "{d:?}");
            d.remove(0)
        }
    }
}

/// The `--json` record of one unit.
fn json_of(b: &Game, id: &str) -> Value {
    match units_json(b) {
        Value::Array(units) => units
            .into_iter()
            .find(|u| u["id"] == id)
            .unwrap_or_else(|| panic!("no unit {id}")),
        other => panic!("units_json gave {other}"),
    }
}

const BBB: &str = "
    (id: \"inf\", side: 0, type: \"Inf\", class: Trained, at: (500, 500), facing: 0, bases: 3, bases_lost: 2, disrupted: true, moved: true),
    (id: \"gun\", side: 1, type: \"HvA\", class: Trained, at: (500, 1500), facing: 180, silenced: true, disrupted: true, ammunition: Low),";

#[test]
fn bbb_bases_lost_disrupted_silenced_and_spent() {
    let b = ok("bbb7yw", "", BBB);
    let inf = b.unit(&"inf".into()).expect("inf");
    assert_eq!(inf.stands.len(), 3);
    assert_eq!(
        inf.extra.strength, 5,
        "three bases and two lost before the battle"
    );
    assert!(
        inf.status.disordered,
        "BBB's disruption is the disordered mark"
    );
    assert!(inf.bound.moved);
    let j = json_of(&b, "inf");
    assert_eq!(j["disrupted"], true);
    assert_eq!(j["bases_lost"], 2);
    assert_eq!(j["spent"], false, "two of five lost is less than half");
    assert_eq!(j["moved"], true);
    let g = json_of(&b, "gun");
    assert_eq!(g["silenced"], true);
    assert_eq!(g["disrupted"], true, "a silenced battery is disrupted");
    assert_eq!(g["ammunition"], "low");

    // Three of five lost is half or more: spent.
    let b = ok(
        "bbb7yw",
        "",
        &BBB.replace("bases: 3, bases_lost: 2", "bases: 2, bases_lost: 3"),
    );
    assert_eq!(json_of(&b, "inf")["spent"], true);
}

#[test]
fn bbb_counts_strength_in_bases_and_its_scenario_losses_in_units() {
    let b = ok("bbb7yw", "", BBB);
    assert_eq!(
        b.rules.strength_lost(&b, 0),
        (2.0, 5.0),
        "two of the brigade's five bases lost before the battle"
    );
    assert_eq!(
        b.rules.units_lost(&b, 0),
        (0.0, 1.0),
        "no unit lost: a scenario's Lost condition counts BBB's units"
    );
}

#[test]
fn bbb_refuses_states_its_units_cannot_have() {
    let d = refused(
        "bbb7yw",
        "",
        &BBB.replace("bases_lost: 2, ", "silenced: true, "),
    );
    assert!(
        d.message.contains("'silenced' is not a state"),
        "{}",
        d.message
    );
    assert_eq!((d.line, d.col > 1), (7, true), "{d}");
    let d = refused(
        "bbb7yw",
        "",
        &BBB.replace(
            "disrupted: true, moved",
            "disrupted: true, disordered: true, moved",
        ),
    );
    assert!(d.message.contains("one state"), "{}", d.message);
    let d = refused(
        "bbb7yw",
        "",
        &BBB.replace("silenced: true", "bases_lost: 1"),
    );
    assert!(d.message.contains("'bases_lost'"), "{}", d.message);
    // "R, T, V = Unit disrupted, Artillery Silenced": a silenced battery is disrupted too.
    let d = refused(
        "bbb7yw",
        "",
        &BBB.replace("silenced: true, disrupted: true", "silenced: true"),
    );
    assert!(d.message.contains("disrupted too"), "{}", d.message);
    let d = refused(
        "bbb7yw",
        "",
        &BBB.replace("ammunition: Low", "ammunition: Out"),
    );
    assert!(d.message.contains("never out"), "{}", d.message);
    let d = refused(
        "bbb7yw",
        "",
        &BBB.replace("silenced: true, ", "routed: true, "),
    );
    assert!(d.message.contains("'routed'"), "{}", d.message);
}

const HAL: &str = "
    (id: \"gen\", side: 0, type: \"GEN\", brigade: \"A\", at: (300, 300), facing: 0),
    (id: \"ir\", side: 0, type: \"LI\", brigade: \"A\", at: (600, 600), facing: 0, volley_fired: true, disorganised: true, moved: true, figures_lost: 4),
    (id: \"gr\", side: 1, type: \"GR\", brigade: \"B\", at: (600, 1500), facing: 180, routed: true),
    (id: \"gen2\", side: 1, type: \"GEN\", brigade: \"B\", at: (900, 1800), facing: 180),";

#[test]
fn hals_routed_disorganised_first_volley_and_moved() {
    let b = ok("hal25", "", HAL);
    let ir = b.unit(&"ir".into()).expect("ir");
    assert!(own(ir).volley_spent && ir.status.disordered && ir.bound.moved);
    let j = json_of(&b, "ir");
    assert_eq!(j["disorganised"], true);
    assert_eq!(j["volley_fired"], true);
    assert_eq!(j["moved"], true);
    assert_eq!(j["figures_lost"], 4);
    assert_eq!(j["routed"], false);
    let gr = json_of(&b, "gr");
    assert_eq!(gr["routed"], true, "a routed Hal's unit is routed");
    assert_eq!(gr["shaken"], false, "Hal's has no shaken state");
}

#[test]
fn hals_refuses_contradictions_and_moves_out_of_turn() {
    let d = refused(
        "hal25",
        "",
        &HAL.replace("routed: true", "routed: true, disorganised: true"),
    );
    assert!(
        d.message.contains("routed unit is not also disorganised"),
        "{}",
        d.message
    );
    // Side 1 does not move in the bound the battle opens with.
    let d = refused("hal25", "", &HAL.replace("routed: true", "moved: true"));
    assert!(d.message.contains("only side 0"), "{}", d.message);
    // A general fires no volleys.
    let d = refused(
        "hal25",
        "",
        &HAL.replace(
            "brigade: \"A\", at: (300, 300), facing: 0",
            "brigade: \"A\", at: (300, 300), facing: 0, volley_fired: true",
        ),
    );
    assert!(d.message.contains("'volley_fired'"), "{}", d.message);
}

const FPW: &str = "
    (id: \"gun\", side: 0, type: \"FAPr\", class: Regular, at: (500, 500), facing: 0, ammunition: Low),
    (id: \"inf\", side: 1, type: \"Inf\", class: Regular, at: (500, 1500), facing: 180),";

#[test]
fn dbfpw_ammunition_low_or_out() {
    let b = ok("dbfpw", "options: [\"ammunition\"],", FPW);
    assert_eq!(b.unit(&"gun".into()).expect("gun").status.ammo, Ammo::Low);
    assert_eq!(json_of(&b, "gun")["ammunition"], "low");
    assert_eq!(json_of(&b, "inf")["ammunition"], "full");
    let b = ok(
        "dbfpw",
        "options: [\"ammunition\"],",
        &FPW.replace("Low", "Out"),
    );
    assert_eq!(json_of(&b, "gun")["ammunition"], "out");
    // Without the optional rule there is no ammunition to run low.
    let d = refused("dbfpw", "", FPW);
    assert!(
        d.message.contains("'ammunition' is not a state"),
        "{}",
        d.message
    );
    // Infantry fire without counting rounds.
    let d = refused(
        "dbfpw",
        "options: [\"ammunition\"],",
        &FPW.replace("facing: 180)", "facing: 180, ammunition: Out)"),
    );
    assert!(d.message.contains("'ammunition'"), "{}", d.message);
}

#[test]
fn the_old_fields_read_as_before() {
    // Hits, shaken and disordered keep their meaning where a ruleset has them.
    let b = ok("dbfpw", "options: [\"ammunition\"],", FPW);
    let j = json_of(&b, "gun");
    for key in [
        "hits",
        "shaken",
        "disordered",
        "disrupted",
        "routed",
        "limbered",
        "packs",
    ] {
        assert!(j.get(key).is_some(), "{key} missing from {j}");
    }
}

#[test]
fn check_tells_each_armys_points_and_verdict() {
    let path = "scenarios/dbfpw_default.ron";
    let text = std::fs::read_to_string(path).expect("scenario");
    // The armies' notes (the conditions in words follow them).
    let armies = |notes: Vec<String>| -> Vec<String> {
        notes
            .into_iter()
            .filter(|n| n.starts_with("army of "))
            .collect()
    };
    let notes = armies(scenario::notes(&text, path));
    // Both armies are the seed's 15-point armies, checked against their lists.
    assert_eq!(
        notes,
        vec![
            "army of Prussia: 15 points, legal by its army list".to_string(),
            "army of France: 15 points, legal by its army list".to_string(),
        ]
    );
    // A DB7YW army not asked to be checked is still costed, and its verdict given.
    let path = "scenarios/lobositz_1756.ron";
    let text = std::fs::read_to_string(path).expect("scenario");
    let notes = armies(scenario::notes(&text, path));
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes.iter().all(|n| n.contains(" points, ")), "{notes:?}");
}

#[test]
fn check_warns_of_a_hals_brigade_without_its_general() {
    let t = text(
        "hal25",
        "",
        &HAL.replace(
            "(id: \"gen2\", side: 1, type: \"GEN\", brigade: \"B\", at: (900, 1800), facing: 180),",
            "",
        ),
    );
    let notes = scenario::notes(&t, "states.ron");
    assert_eq!(
        notes,
        vec![
            "army of Red: warning: brigade 'B' has no general in command of it (VIII.A)"
                .to_string()
        ]
    );
    assert!(scenario::notes(&text("hal25", "", HAL), "states.ron").is_empty());
}

#[test]
fn a_scenario_sets_a_standing_order_to_hold_the_ground() {
    // The owner's standing order not to pursue is a state a scenario can set (DBN and Old
    // Dessauer), reported by --json; BBB's rules leave the victor no such choice: refused.
    let b = ok(
        "dbfpw",
        "options: [\"ammunition\"],",
        &FPW.replace("facing: 180)", "facing: 180, hold_ground: true)"),
    );
    let held: Vec<&str> = b
        .units
        .iter()
        .filter(|u| u.status.hold_ground)
        .map(|u| u.id.as_str())
        .collect();
    assert_eq!(held.len(), 1, "{held:?}");
    assert_eq!(json_of(&b, held[0])["hold_ground"], true);
    let d = refused(
        "bbb7yw",
        "",
        &BBB.replace("moved: true", "moved: true, hold_ground: true"),
    );
    assert!(d.message.contains("hold_ground"), "{d:?}");
}
