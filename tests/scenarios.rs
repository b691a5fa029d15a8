//! Every shipped scenario validates; malformed scenarios, saves and order files give errors that
//! name file:line:col, never panics.

use proptest::prelude::*;
use std::path::Path;
use volley::rules::save;
use volley::rules::scenario::{self, Diagnostic};

fn shipped() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    v.sort();
    v
}

fn errs(text: &str) -> Vec<Diagnostic> {
    match scenario::parse(text, "bad.ron") {
        Ok(_) => panic!("accepted a bad scenario:\n{text}"),
        Err(d) => d,
    }
}

const GOOD: &str = r#"(
    name: "t",
    ruleset: "db7yw",
    table: (width: 600, height: 400),
    turn_limit: 5,
    sides: [(name: "P", nation: "prussia", colour: (0, 0, 200)), (name: "A", nation: "austria", colour: (200, 200, 200))],
    units: [
        (id: "p1", side: 0, type: "Ms", at: Some((100, 100)), facing: 0),
        (id: "a1", side: 1, type: "HC", at: Some((100, 300)), facing: 180),
    ],
)"#;

#[test]
fn every_shipped_scenario_validates() {
    let files = shipped();
    assert!(
        files.len() >= 3,
        "default, tutorial and a historical battle"
    );
    for f in files {
        if let Err(d) = scenario::load(&f) {
            panic!("{}: {:?}", f.display(), d);
        }
    }
}

#[test]
fn the_good_example_loads() {
    let b = scenario::parse(GOOD, "good.ron").unwrap();
    assert_eq!(b.units.len(), 2);
}

#[test]
fn truncated_ron_names_the_place() {
    let d = errs(&GOOD[..GOOD.len() / 2]);
    assert_eq!(d.len(), 1);
    assert!(d[0].line > 1, "{:?}", d[0]);
    assert!(d[0].to_string().starts_with("bad.ron:"));
}

#[test]
fn wrong_types_and_unknown_fields() {
    let d = errs(&GOOD.replace("turn_limit: 5", "turn_limit: \"five\""));
    assert_eq!(d[0].line, 5, "{:?}", d[0]);
    let d = errs(&GOOD.replace("facing: 0)", "facing: 0, colour: 3)"));
    assert!(d[0].message.contains("colour"), "{:?}", d[0]);
    assert_eq!(d[0].line, 8);
}

#[test]
fn unknown_troop_type() {
    let d = errs(&GOOD.replace("\"HC\"", "\"Hussar\""));
    assert!(
        d[0].message.contains("unknown troop type 'Hussar'"),
        "{:?}",
        d
    );
    // Column 35 is the opening quote of "Hussar".
    assert_eq!((d[0].line, d[0].col), (9, 35));
}

#[test]
fn duplicate_ids() {
    let d = errs(&GOOD.replace("\"a1\"", "\"p1\""));
    assert!(d[0].message.contains("duplicate unit id 'p1'"));
    assert_eq!(d[0].line, 9);
}

#[test]
fn overlapping_and_off_table() {
    let d = errs(&GOOD.replace("(100, 300)", "(110, 105)"));
    assert!(d[0].message.contains("overlaps"), "{d:?}");
    let d = errs(&GOOD.replace("(100, 300)", "(590, 300)"));
    assert!(d[0].message.contains("off the table"), "{d:?}");
}

/// Where the ruleset lets friends intermix in play (Old Dessauer), a scenario may set friends
/// on each other's ground, as a game reaches it; enemies never, and nor do friends elsewhere.
#[test]
fn friends_share_ground_only_where_the_rules_let_them_intermix() {
    let od = |second_side: usize| {
        format!(
            r#"(name: "t", ruleset: "old_dessauer", table: (width: 1219, height: 914), turn_limit: 5,
            options: ["light_infantry"],
            sides: [(name: "A", colour: (0, 0, 200)), (name: "B", colour: (200, 0, 0))],
            units: [
                (id: "a1", side: 0, type: "Inf", at: (300, 300), facing: 0),
                (id: "a2", side: {second_side}, type: "LI", at: (310, 305), facing: 90, formation: Skirmish),
                (id: "b1", side: 1, type: "Inf", at: (900, 700), facing: 180),
            ])"#
        )
    };
    assert!(scenario::parse(&od(0), "friends.ron").is_ok());
    let d = scenario::parse(&od(1), "enemies.ron")
        .err()
        .unwrap_or_default();
    assert!(d.iter().any(|x| x.message.contains("overlaps")), "{d:?}");
    // DB7YW's friends do not intermix: the same overlap of friends is refused (above).
    let d = errs(
        &GOOD
            .replace("(id: \"a1\", side: 1", "(id: \"a1\", side: 0")
            .replace("(100, 300)", "(110, 105)"),
    );
    assert!(d[0].message.contains("overlaps"), "{d:?}");
}

#[test]
fn nan_and_huge_numbers() {
    let d = errs(&GOOD.replace("(100, 300)", "(NaN, 300)"));
    assert!(d[0].message.contains("not a sensible number"), "{d:?}");
    let d = errs(&GOOD.replace("width: 600", "width: 1e30"));
    assert!(d[0].message.contains("table size"), "{d:?}");
    let d = errs(&GOOD.replace("facing: 0)", "facing: inf)"));
    assert!(d[0].message.contains("facing"), "{d:?}");
    let d = errs(&GOOD.replace("turn_limit: 5", "turn_limit: 99999999999"));
    assert!(!d.is_empty());
}

#[test]
fn fields_the_ruleset_does_not_know() {
    let d = errs(&GOOD.replace("facing: 0)", "facing: 0, stands: Some([3, 3]))"));
    assert!(d[0].message.contains("'stands' does not apply"), "{d:?}");
    let d = errs(&GOOD.replace("facing: 0)", "facing: 0, formation: Some(Square))"));
    assert!(d[0].message.contains("'formation' does not apply"), "{d:?}");
    let d = errs(&GOOD.replace("\"db7yw\"", "\"warhammer\""));
    assert!(d[0].message.contains("unknown ruleset"), "{d:?}");
}

#[test]
fn army_lists_are_checked_with_reasons() {
    let text = GOOD.replace(
        "colour: (0, 0, 200))",
        "colour: (0, 0, 200), army_list: true)",
    );
    let d = errs(&text);
    let all: Vec<String> = d.iter().map(|x| x.message.clone()).collect();
    assert!(all.iter().any(|m| m.contains("exactly 1 CinC")), "{all:?}");
    assert!(
        all.iter()
            .any(|m| m.contains("Ms: 4 to 6 allowed, the army has 1")),
        "{all:?}"
    );
    assert!(
        all.iter().any(|m| m.contains("costs 1 points, not 16")),
        "{all:?}"
    );
}

#[test]
fn order_files_and_saves_report_positions() {
    let d = save::parse_orders(
        "[EndPhase, Move(unit: \"x\", steps: [Advance(\"far\")])]",
        "o.ron",
    )
    .unwrap_err();
    assert_eq!(d[0].line, 1);
    assert!(d[0].col > 20);
    let d = save::parse("(volley_save: 1, seed: 3)", "s.ron").unwrap_err();
    assert!(
        d[0].message.contains("missing") || d[0].message.contains("scenario"),
        "{d:?}"
    );
    let d = save::parse(
        "(volley_save: 9, seed: 3, scenario: (), commands: [])",
        "s.ron",
    )
    .unwrap_err();
    assert!(!d.is_empty());
}

#[test]
fn a_save_whose_commands_do_not_replay_is_refused() {
    let b = scenario::parse(GOOD, "g").unwrap();
    let mut text = save::to_string(&b).unwrap();
    text = text.replace(
        "commands: []",
        "commands: [Fire(unit: \"p1\", target: \"a1\")]",
    );
    let d = save::parse(&text, "s.ron").unwrap_err();
    assert!(d[0].message.contains("does not replay"), "{d:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    /// Cutting, splicing and replacing characters of a valid scenario never panics.
    #[test]
    fn mutated_scenarios_never_panic(cut in 0usize..2000, pos in 0usize..2000, ch in prop::sample::select(vec!["", "(", ")", ",", "\"", "9e99", "-1", "NaN", "[", "]", ":", "Some(", "x"])) {
        let files = shipped();
        let text = std::fs::read_to_string(&files[pos % files.len()]).unwrap();
        let mut t: String = text.chars().collect();
        let n = t.chars().count();
        let at = pos % n.max(1);
        let byte = t.char_indices().nth(at).map(|(i, _)| i).unwrap_or(0);
        t.insert_str(byte, ch);
        let c = (cut % n.max(1)).min(t.len());
        let c = (0..=c).rev().find(|i| t.is_char_boundary(*i)).unwrap_or(0);
        let _ = scenario::parse(&t, "m.ron");
        let _ = scenario::parse(&t[..c], "m.ron");
        let _ = save::parse_orders(&t, "m.ron");
    }

    /// Numbers anywhere in the good scenario: no panic, and either a battle or diagnostics.
    #[test]
    fn any_numbers_never_panic(x in prop::num::f32::ANY, y in prop::num::f32::ANY, f in prop::num::f32::ANY) {
        let t = GOOD.replace("(100, 100)", &format!("({x:?}, {y:?})")).replace("facing: 0)", &format!("facing: {f:?})"));
        match scenario::parse(&t, "n.ron") {
            Ok(b) => prop_assert!(b.units.iter().all(|u| u.base.is_finite())),
            Err(d) => prop_assert!(!d.is_empty()),
        }
    }
}

#[test]
fn the_dragoon_rule_names_its_ordinal_in_words() {
    let text = GOOD
        .replace(
            "colour: (0, 0, 200))",
            "colour: (0, 0, 200), army_list: true)",
        )
        .replace(
            "(id: \"p1\", side: 0, type: \"Ms\"",
            "(id: \"p1\", side: 0, type: \"DC\", class: Superior",
        );
    let all: Vec<String> = errs(&text).iter().map(|x| x.message.clone()).collect();
    assert!(all.iter().any(|m| m.contains("every 3rd DC")), "{all:?}");
    assert!(all.iter().all(|m| !m.contains("3th")), "{all:?}");
}

/// A DB7YW unit may start worn, as the README says: hits already taken (2 make it shaken) or
/// shaken; hits that would destroy it are refused.
#[test]
fn a_db7yw_unit_may_start_with_hits_or_shaken() {
    let with = |more: &str| GOOD.replace("facing: 0)", &format!("facing: 0{more})"));
    let state = |more: &str| {
        let b = scenario::parse(&with(more), "t.ron").unwrap();
        let u = b.units[0].clone();
        (u.status.hits, u.status.shaken)
    };
    assert_eq!(state(", hits: 1"), (1, false));
    assert_eq!(state(", hits: 2"), (2, true));
    assert_eq!(state(", shaken: true"), (0, true));
    let d = errs(&with(", hits: 3"));
    assert!(
        d[0].message.contains("starts with 3 hits") && d[0].message.contains("at most 2"),
        "{d:?}"
    );
}

/// A unit is found by its own id (the shared text, found by its address) and by a copy of its
/// text alike, on every shipped scenario; an id no unit has is not found.
#[test]
fn every_unit_is_found_by_its_id_or_a_copy_of_its_text() {
    use volley::rules::model::UnitId;
    for file in [
        "default.ron",
        "dbfpw_spicheren.ron",
        "bbb_rossbach.ron",
        "hal25_krefeld.ron",
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(file);
        let g = scenario::load(&path).unwrap();
        for (i, u) in g.units.iter().enumerate() {
            assert_eq!(g.index_of(&u.id), Some(i), "{file}: {}", u.id);
            let copy = UnitId::from(u.id.as_str());
            assert!(!std::sync::Arc::ptr_eq(&copy.0, &u.id.0));
            assert_eq!(g.index_of(&copy), Some(i), "{file}: a copy of {}", u.id);
        }
        assert_eq!(g.index_of(&UnitId::from("no-such-unit")), None);
    }
}
