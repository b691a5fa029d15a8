//! The command line as users script it: check and run, with words and JSON.

use std::path::PathBuf;
use std::process::Command;

fn volley() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_volley"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("volley-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn check_accepts_the_shipped_files() {
    let out = volley()
        .args([
            "check",
            "scenarios/default.ron",
            "scenarios/tutorial.ron",
            "scenarios/lobositz_1756.ron",
            "tests/orders/tutorial_two_turns.ron",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn check_prints_each_armys_points_and_verdict() {
    let out = volley()
        .args(["check", "scenarios/dbfpw_default.ron"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("scenarios/dbfpw_default.ron: ok\n  army of Prussia: 15 points, legal by its army list\n  army of France: 15 points, legal by its army list"),
        "{text}"
    );
}

#[test]
fn check_reports_file_line_col_and_fails() {
    let bad = tmp(
        "bad.ron",
        "(\n  name: \"x\",\n  ruleset: \"db7yw\",\n  table: (width: 100, height: 100),\n  turn_limit: 3,\n  sides: [],\n  units: [(id: \"a\", side: 0, type: \"Zulu\", at: Some((50, 50)))],\n)\n",
    );
    let out = volley().arg("check").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("bad.ron:7:"), "{text}");
    assert!(text.contains("unknown troop type 'Zulu'"), "{text}");
    let trunc = tmp("trunc.ron", "(name: \"x\", ruleset: ");
    let out = volley().arg("check").arg(&trunc).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("trunc.ron:1:"));
}

#[test]
fn run_json_explains_every_roll() {
    let out = volley()
        .args([
            "run",
            "scenarios/tutorial.ron",
            "--orders",
            "tests/orders/tutorial_two_turns.ron",
            "--json",
            "--dice",
        ])
        .arg("4,5,2,3,6,1,4,4,5,3,2,6,5,1,3,4,6,2,2,5,1,6,3,3,4,5,6,1,2,4,5,5,3,2,1,6,4,3,2,1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ruleset"], "db7yw");
    let events = v["events"].as_array().unwrap();
    let rolls: Vec<_> = events
        .iter()
        .filter(|e| e["kind"] == "Fire" || e["kind"] == "CloseCombat")
        .collect();
    assert!(!rolls.is_empty());
    for r in rolls {
        for score in [
            "shooter_score",
            "target_score",
            "attacker_score",
            "defender_score",
        ] {
            if let Some(s) = r.get(score) {
                let total: i64 = s["factors"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f["value"].as_i64().unwrap())
                    .sum::<i64>()
                    + s["die"].as_i64().unwrap();
                assert_eq!(total, s["total"].as_i64().unwrap());
                assert!(
                    s["factors"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|f| !f["source"].as_str().unwrap().is_empty())
                );
            }
        }
        assert!(r["text"].as_str().unwrap().contains("die"));
    }
    assert!(
        v["units"]
            .as_array()
            .unwrap()
            .iter()
            .all(|u| u["position_mm"].is_array())
    );
}

#[test]
fn run_plays_to_an_army_break() {
    let out = volley()
        .args([
            "run",
            "scenarios/tutorial.ron",
            "--orders",
            "tests/orders/tutorial_to_break.ron",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["phase"], "GameOver");
    assert!(
        v["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["kind"] == "ArmyBroken")
    );
    assert!(v["result"]["reason"].as_str().unwrap().contains("broke"));
}

#[test]
fn run_refuses_an_illegal_order_with_its_reason() {
    let orders = tmp(
        "o.ron",
        "[EndPhase, Move(unit: \"pr-ms1\", steps: [Advance(900)])]",
    );
    let out = volley()
        .args(["run", "scenarios/tutorial.ron", "--orders"])
        .arg(&orders)
        .args(["--dice", "6"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("order 2") && err.contains("900 paces of 200"),
        "{err}"
    );
}

#[test]
fn running_out_of_dice_is_an_error() {
    let orders = tmp("o2.ron", "[EndPhase]");
    let out = volley()
        .args(["run", "scenarios/tutorial.ron", "--orders"])
        .arg(&orders)
        .args(["--dice", ""])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("order 1") && err.contains("ran out"), "{err}");
}

#[test]
fn an_empty_dice_list_is_a_run_with_no_dice() {
    // Old Dessauer rolls nothing for a move: no dice are needed.
    let orders = tmp("o3.ron", "[Move(unit: \"pr-ir\", steps: [Advance(2)])]");
    let out = volley()
        .args(["run", "scenarios/od_tutorial.ron", "--orders"])
        .arg(&orders)
        .args(["--dice", ""])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn one_firing_takes_the_command_die_then_the_firer_and_the_target() {
    let orders = tmp(
        "o4.ron",
        "[EndPhase, EndPhase, Fire(unit: \"pr-fa\", target: \"au-fa\")]",
    );
    let out = volley()
        .args(["run", "scenarios/tutorial.ron", "--json", "--orders"])
        .arg(&orders)
        .args(["--dice", "6, 5, 2"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fire = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "Fire")
        .unwrap();
    assert_eq!(fire["shooter_score"]["die"], 5);
    assert_eq!(fire["target_score"]["die"], 2);
    assert_eq!(v["command_points"][0], 6);
}

#[test]
fn the_help_says_in_which_order_scripted_dice_are_taken() {
    let out = volley().args(["run", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for words in [
        "command roll",
        "firer",
        "target",
        "order of the units in the scenario",
        "end of the shooting phase",
        "--dice \"\"",
    ] {
        assert!(help.contains(words), "{words}: {help}");
    }
}

#[test]
fn a_refusal_shows_the_order_as_the_order_file_writes_it() {
    let orders = tmp(
        "o5.ron",
        "[EndPhase, Move(unit: \"pr-ms1\", steps: [Wheel(corner: Left, degrees: 10), Advance(900)])]",
    );
    let out = volley()
        .args(["run", "scenarios/tutorial.ron", "--orders"])
        .arg(&orders)
        .args(["--dice", "6"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "order 2 (Move(unit: \"pr-ms1\", steps: [Wheel(corner: Left, degrees: 10), Advance(900)])) refused"
        ),
        "{err}"
    );
    assert!(!err.contains("UnitId"), "{err}");
}

#[test]
fn a_move_too_far_in_inches_keeps_its_tenths() {
    // Backing is at half speed: 3.2 inches back use 6.4 of the battalion's 6.
    let orders = tmp("o6.ron", "[Move(unit: \"pr-ir\", steps: [Backstep(3.2)])]");
    let out = volley()
        .args(["run", "scenarios/od_tutorial.ron", "--orders"])
        .arg(&orders)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("6.4 inches of 6.0"), "{err}");
}

/// Coats: a unit's own, else its side's, reach the battle; one that is not "#" and six hex
/// digits is refused by `volley check` at its line, and an old scenario without coats loads.
#[test]
fn coats_are_checked_and_a_bad_one_is_named_at_its_line() {
    let scenario = |side_coat: &str, unit_coat: &str| {
        format!(
            "(\n  name: \"x\",\n  ruleset: \"db7yw\",\n  table: (width: 400, height: 400),\n  turn_limit: 3,\n  sides: [\n    (name: \"A\", colour: (40, 62, 140){side_coat}),\n    (name: \"B\", colour: (228, 226, 212)),\n  ],\n  units: [\n    (id: \"a\", side: 0, type: \"Ms\", at: Some((100, 100))),\n    (id: \"b\", side: 0, type: \"Ms\", at: Some((200, 100)){unit_coat}),\n    (id: \"c\", side: 1, type: \"Ms\", at: Some((100, 300))),\n  ],\n)\n"
        )
    };
    let good = tmp(
        "coats.ron",
        &scenario(", coat: Some(\"#1F2a55\")", ", coat: Some(\"#e4d8b0\")"),
    );
    let b = volley::rules::scenario::load(&good).unwrap();
    let coat = |id: &str| {
        b.unit(&volley::rules::model::UnitId(id.into()))
            .unwrap()
            .extra
            .coat
    };
    assert_eq!(coat("a"), Some([0x1f, 0x2a, 0x55]), "the side's coat");
    assert_eq!(coat("b"), Some([0xe4, 0xd8, 0xb0]), "the regiment's own");
    assert_eq!(coat("c"), None, "no coat: the side's colour");
    for (side, unit, line, bad) in [
        ("", ", coat: Some(\"#e4d8b\")", 12, "#e4d8b"),
        ("", ", coat: Some(\"white\")", 12, "white"),
        (", coat: Some(\"#12345g\")", "", 7, "#12345g"),
    ] {
        let p = tmp("bad-coat.ron", &scenario(side, unit));
        let out = volley().arg("check").arg(&p).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{bad}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(&format!("bad-coat.ron:{line}:")), "{text}");
        assert!(
            text.contains(&format!("coat \"{bad}\" is not a colour")),
            "{text}"
        );
    }
    let out = volley()
        .args([
            "check",
            "scenarios/lobositz_1756.ron",
            "scenarios/lobosch_1756.ron",
            "scenarios/bbb_rossbach.ron",
            "scenarios/hal25_krefeld.ron",
            "scenarios/dbfpw_spicheren.ron",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_reader_that_goes_early_ends_the_output_quietly() {
    // `volley batch ... --json | head -c 100`: the reader has gone before the report is
    // written; the command still ends well, with no panic.
    use std::process::Stdio;
    let mut child = volley()
        .args([
            "batch",
            "scenarios/default.ron",
            "--games",
            "1",
            "--players",
            "random,random",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("volley starts");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("volley ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?}: {err}", out.status);
}
