//! BBB's tables against the playsheet (seed 001): every cell of the fire table, the firing
//! values, each shift and halving, every row of the assault and command tables, and the odds
//! read from them.

use volley::rules::ruleset::bbb::tables::{
    FireResult, assault_odds, assault_row, band, command_odds, command_outcome, fire_column,
    fire_odds, low_ammo_chance, ratio_key, read_fire, two_d6,
};
use volley::rules::ruleset::bbb::{After, BbbData, Disrupts, Moves, Quality, Retire};

fn data() -> BbbData {
    BbbData::load().expect("bbb7yw.ron loads")
}

/// The fire table as printed on the playsheet, rows 12* down to 2, columns 0.25 to 50+.
const SHEET: [(i32, &str); 11] = [
    (12, "R T V 1 1 1 2 2 2 3 3 3 3 3 3 3"),
    (11, "- R T V 1 1 1 2 2 2 3 3 3 3 3 3"),
    (10, "- - R T V 1 1 1 2 2 2 3 3 3 3 3"),
    (9, "- - - R T V 1 1 1 2 2 2 3 3 3 3"),
    (8, "- - - - R T V 1 1 1 2 2 2 3 3 3"),
    (7, "- - - - - R T V 1 1 1 2 2 2 3 3"),
    (6, "- - - - - - R T V 1 1 1 2 2 2 3"),
    (5, "- - - - - - - R T V 1 1 1 2 2 2"),
    (4, "- - - - - - - - R T V 1 1 1 2 2"),
    (3, "- - - - - - - - - R T V 1 1 1 2"),
    (2, "- - - - - - - - - - R T V 1 1 1"),
];

#[test]
fn every_cell_of_the_fire_table() {
    let d = data();
    assert_eq!(
        d.fire_columns,
        [
            0.25, 0.5, 1.0, 2.0, 4.0, 6.0, 9.0, 12.0, 16.0, 20.0, 25.0, 30.0, 36.0, 42.0, 49.0,
            50.0
        ]
    );
    let mut cells = 0;
    for (roll, line) in SHEET {
        let want: Vec<&str> = line.split(' ').collect();
        assert_eq!(want.len(), 16);
        for (col, w) in want.iter().enumerate() {
            let (got, low) = read_fire(&d, Some(col), roll);
            assert_eq!(got.code(), *w, "row {roll}, column {}", d.fire_columns[col]);
            assert_eq!(
                low,
                roll >= 11,
                "row {roll}: low ammunition only on 12* and 11*"
            );
            cells += 1;
        }
    }
    assert_eq!(cells, 11 * 16);
}

#[test]
fn a_fire_value_picks_the_highest_column_at_or_below_it() {
    let d = data();
    let col = |v: f32| fire_column(&d, v, 0, 0).map(|c| d.fire_columns[c]);
    assert_eq!(col(0.2), None);
    assert_eq!(col(0.25), Some(0.25));
    assert_eq!(col(0.75), Some(0.5));
    assert_eq!(col(4.0), Some(4.0));
    assert_eq!(col(5.5), Some(4.0));
    assert_eq!(col(49.5), Some(49.0));
    assert_eq!(col(50.0), Some(50.0));
    assert_eq!(col(120.0), Some(50.0));
    // Halvings are cumulative and come before the column.
    let at = |v: f32, h: u32, s: i32| fire_column(&d, v, h, s).map(|c| d.fire_columns[c]);
    assert_eq!(at(16.0, 1, 0), Some(6.0));
    assert_eq!(at(16.0, 2, 0), Some(4.0));
    assert_eq!(at(16.0, 3, 0), Some(2.0));
    // Shifts: left off the table is no effect; right stays in 50+.
    assert_eq!(at(4.0, 0, -2), Some(1.0));
    assert_eq!(at(0.5, 0, -1), Some(0.25));
    assert_eq!(at(0.5, 0, -2), None);
    assert_eq!(at(42.0, 0, 3), Some(50.0));
    assert_eq!(at(0.3, 1, 0), None);
    // Below the table a right shift does not bring it on (ruling fire_off_table).
    assert_eq!(at(0.5, 2, 1), None);
    assert_eq!(at(0.2, 0, 3), None);
}

#[test]
fn firing_values_by_type_and_band() {
    let d = data();
    assert_eq!(d.bands, [3.0, 6.0, 12.0, 18.0, 24.0]);
    let row = |k: &str| d.fire_values(k).expect(k).values.clone();
    let bg = |k: &str| d.fire_values(k).expect(k).with_bg.clone().expect(k);
    assert_eq!(row("musket_v_cav"), [2.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(bg("musket_v_cav"), [2.5, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(row("musket_v_foot"), [2.0, 0.5, 0.0, 0.0, 0.0]);
    assert_eq!(bg("musket_v_foot"), [2.5, 0.75, 0.0, 0.0, 0.0]);
    assert_eq!(row("sk_v_foot"), [2.0, 1.0, 0.0, 0.0, 0.0]);
    assert_eq!(row("cavalry_musket"), [0.5, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(row("ineffective_musket"), [1.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(row("foot_artillery"), [8.0, 3.0, 2.0, 0.0, 0.0]);
    assert_eq!(row("horse_artillery"), [6.0, 3.0, 0.0, 0.0, 0.0]);
    assert_eq!(row("heavy_artillery"), [8.0, 5.0, 3.0, 1.0, 0.0]);
    // Bands are upper limits.
    assert_eq!(band(&d.bands, 0.5), Some(0));
    assert_eq!(band(&d.bands, 3.0), Some(0));
    assert_eq!(band(&d.bands, 3.1), Some(1));
    assert_eq!(band(&d.bands, 12.0), Some(2));
    assert_eq!(band(&d.bands, 17.9), Some(3));
    assert_eq!(band(&d.bands, 24.0), Some(4));
    assert_eq!(band(&d.bands, 24.5), None);
}

#[test]
fn shifts_and_halvings_are_the_sheets() {
    let d = data();
    let s = |k: &str| d.shift(k).expect(k).shift;
    assert_eq!(
        [
            s("ragged"),
            s("wood_village"),
            s("town_entrenched"),
            s("fort"),
            s("devastating"),
            s("elite_companies"),
            s("inept_target"),
            s("target_exposed")
        ],
        [-1, -1, -2, -3, 1, 1, 1, 1]
    );
    for k in ["disrupted", "low_ammo", "reduced", "pivoted", "horse_moved"] {
        assert!(d.halving(k).is_some(), "{k}");
    }
}

#[test]
fn fire_results_halt_assaults_by_quality() {
    use FireResult::*;
    use Quality::*;
    let halted = |r: FireResult| [Raw, Trained, Veteran].map(|q| r.halts(q));
    assert_eq!(halted(Nothing), [false, false, false]);
    assert_eq!(halted(R), [true, false, false]);
    assert_eq!(halted(T), [true, true, false]);
    assert_eq!(halted(V), [true, true, true]);
    assert_eq!(halted(Bases(1)), [true, true, true]);
    assert!(R.disrupts() && T.disrupts() && V.disrupts() && Bases(3).disrupts());
    assert!(!Nothing.disrupts());
    assert_eq!((Bases(2).bases(), V.bases()), (2, 0));
}

#[test]
fn fire_odds_read_down_a_column() {
    let d = data();
    let total: f64 = two_d6().iter().map(|x| x.1).sum();
    assert!((total - 1.0).abs() < 1e-12);
    // The 4 column: 12 and 11 lose a base, 10 V, 9 T, 8 R, 7 or less nothing.
    let odds = fire_odds(&d, fire_column(&d, 4.0, 0, 0));
    let p = |r: FireResult| odds.iter().find(|x| x.0 == r).map_or(0.0, |x| x.1);
    assert!((p(FireResult::Nothing) - 21.0 / 36.0).abs() < 1e-12);
    assert!((p(FireResult::R) - 5.0 / 36.0).abs() < 1e-12);
    assert!((p(FireResult::T) - 4.0 / 36.0).abs() < 1e-12);
    assert!((p(FireResult::V) - 3.0 / 36.0).abs() < 1e-12);
    assert!((p(FireResult::Bases(1)) - 3.0 / 36.0).abs() < 1e-12);
    // Off the table: nothing, always.
    let none = fire_odds(&d, None);
    assert_eq!(none.len(), 1);
    assert_eq!(none[0].0, FireResult::Nothing);
    assert!((none[0].1 - 1.0).abs() < 1e-12);
    assert!((low_ammo_chance(&d) - 3.0 / 36.0).abs() < 1e-12);
}

#[test]
fn every_row_of_the_assault_table() {
    let d = data();
    use After::*;
    use Disrupts::*;
    // (difference, defender loses, defender retires, attacker loses, attacker retires,
    // disrupted, after)
    let rows = [
        (9, 2, Retire::Full, 0, Retire::Stay, Defender, MustExploit),
        (7, 2, Retire::Full, 0, Retire::Stay, Defender, MustExploit),
        (
            6,
            1,
            Retire::Inches(9.0),
            0,
            Retire::Stay,
            Both,
            MayExploitOrOccupy,
        ),
        (
            4,
            1,
            Retire::Inches(9.0),
            0,
            Retire::Stay,
            Both,
            MayExploitOrOccupy,
        ),
        (3, 0, Retire::Inches(3.0), 0, Retire::Stay, Both, MustOccupy),
        (1, 0, Retire::Inches(3.0), 0, Retire::Stay, Both, MustOccupy),
        (0, 1, Retire::Stay, 1, Retire::Stay, Both, Refight),
        (-1, 0, Retire::Stay, 0, Retire::Inches(3.0), Both, Hold),
        (-3, 0, Retire::Stay, 0, Retire::Inches(3.0), Both, Hold),
        (-4, 0, Retire::Stay, 1, Retire::Inches(6.0), Both, Hold),
        (-6, 0, Retire::Stay, 1, Retire::Inches(6.0), Both, Hold),
        (-7, 0, Retire::Stay, 2, Retire::Full, Attacker, Hold),
        (-12, 0, Retire::Stay, 2, Retire::Full, Attacker, Hold),
    ];
    for (diff, dl, dr, al, ar, dis, after) in rows {
        let r = assault_row(&d, diff);
        assert_eq!(
            (
                r.defender_loses,
                r.defender_retires,
                r.attacker_loses,
                r.attacker_retires,
                r.disrupted,
                r.after
            ),
            (dl, dr, al, ar, dis, after),
            "difference {diff}"
        );
    }
    // Level scores: a 0 one time in six.
    let odds = assault_odds(&d, 0, 0);
    assert!((odds.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!((odds[3] - 6.0 / 36.0).abs() < 1e-12);
    // +3 against nothing: +7 or more needs 6 against 1, 6 against 2... (a - b >= 4): 3 ways.
    let odds = assault_odds(&d, 3, 0);
    assert!((odds[0] - 3.0 / 36.0).abs() < 1e-12);
}

#[test]
fn assault_modifiers_are_the_sheets() {
    let d = data();
    let v = |k: &str| d.assault_modifier(k).expect(k).value;
    let adv = [
        "ratio_3_2",
        "ratio_2_1",
        "ratio_3_1",
        "veteran",
        "heavy_cavalry",
        "aggressive",
        "in_depth",
        "lancers",
        "outflanking",
    ]
    .map(v);
    assert_eq!(adv, [1, 2, 3, 1, 1, 1, 1, 1, 3]);
    let pen = [
        "disrupted",
        "raw",
        "fragile",
        "spent",
        "light_cavalry",
        "village_wood_marsh",
        "town_bridge_trench",
        "fort",
        "stream_or_slope",
        "steep_slope",
    ]
    .map(v);
    assert_eq!(pen, [-1, -1, -1, -2, -1, -1, -2, -3, -1, -2]);
    // Base ratios: 3:2, 2:1, 3:1 and below.
    assert_eq!(ratio_key(3, 2), Some("ratio_3_2"));
    assert_eq!(ratio_key(5, 4), None);
    assert_eq!(ratio_key(4, 2), Some("ratio_2_1"));
    assert_eq!(ratio_key(5, 2), Some("ratio_2_1"));
    assert_eq!(ratio_key(6, 2), Some("ratio_3_1"));
    assert_eq!(ratio_key(2, 2), None);
}

/// A command score; the good-order column's move, recovery and disruption; the disordered
/// column's move, rally and base lost.
type CommandCase = (i32, Moves, Option<Quality>, bool, Moves, bool, bool);

#[test]
fn every_row_of_the_command_table_in_both_columns() {
    let d = data();
    use Moves::*;
    // (score, good: moves, recover, disrupted; disordered: moves, rally, lose base)
    let rows: [CommandCase; 14] = [
        (13, Full, Some(Quality::Raw), false, Full, true, false),
        (11, Full, Some(Quality::Raw), false, Full, true, false),
        (10, Full, Some(Quality::Trained), false, Full, true, false),
        (9, Full, Some(Quality::Veteran), false, Full, true, false),
        (8, Full, None, false, Half, true, false),
        (7, Full, None, false, Half, true, false),
        (6, Half, None, false, Still, true, false),
        (5, Half, None, false, Still, true, false),
        (4, Still, None, false, Still, false, false),
        (2, Still, None, false, Still, false, false),
        (1, RetireHalf, None, false, RetireFull, false, true),
        (0, RetireHalf, None, false, RetireFull, false, true),
        (-1, RetireFull, None, true, Rout, false, false),
        (-3, RetireFull, None, true, Rout, false, false),
    ];
    for (score, gm, rec, dis, dm, rally, lose) in rows {
        let g = command_outcome(&d, score, false);
        let o = command_outcome(&d, score, true);
        assert_eq!(
            (g.moves, g.recover, g.disrupted, g.rally, g.lose_base),
            (gm, rec, dis, false, false),
            "good order, score {score}"
        );
        assert_eq!(
            (o.moves, o.rally, o.lose_base, o.recover),
            (dm, rally, lose, None),
            "disordered, score {score}"
        );
    }
    // With no modifier 2D6 never scores below 2: the retire rows never come up.
    let odds = command_odds(&d, 0);
    assert!((odds.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert_eq!(odds[6] + odds[7], 0.0);
    // 7 or 8 with no modifier: 11 in 36.
    assert!((odds[3] - 11.0 / 36.0).abs() < 1e-12);
}

#[test]
fn command_modifiers_are_the_sheets() {
    let d = data();
    let v = |k: &str| d.command_modifier(k).expect(k).value;
    assert_eq!(
        [
            "general",
            "march",
            "terrain",
            "irregular",
            "passive",
            "fragile",
            "unsupported_line",
            "spent"
        ]
        .map(v),
        [1, 1, -1, -1, -1, -1, -1, -2]
    );
}

#[test]
fn malformed_tables_are_refused() {
    let text = include_str!("../assets/rulesets/bbb7yw.ron");
    let short = text.replacen(
        "cells: [\"R\", \"T\", \"V\", \"1\", \"1\", \"1\", \"2\", \"2\", \"2\", \"3\", \"3\", \"3\", \"3\", \"3\", \"3\", \"3\"]",
        "cells: [\"R\"]",
        1,
    );
    assert_ne!(short, text);
    assert!(BbbData::from_ron(&short).unwrap_err().contains("row 12"));
    let gap = text.replacen("(min: 5, max: 6, good", "(min: 6, max: 6, good", 1);
    assert_ne!(gap, text);
    assert!(
        BbbData::from_ron(&gap)
            .unwrap_err()
            .contains("command score 5")
    );
    let bad = text.replacen(
        "\"R\", \"T\", \"V\", \"1\"",
        "\"X\", \"T\", \"V\", \"1\"",
        1,
    );
    assert!(BbbData::from_ron(&bad).unwrap_err().contains("'X'"));
}
