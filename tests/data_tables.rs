//! Every row of every ruleset data file drives the procedures: a number changed in the data is
//! either used by the engine or caught here.

mod common;

use common::{U, battle, id, to_phase};
use std::path::Path;
use volley::rules::command::{RuleError, Step};
use volley::rules::model::Phase;
use volley::rules::ruleset::common::RulesKey;
use volley::rules::ruleset::dbn::{Dbn, TroopKind};
use volley::rules::ruleset::old_dessauer::{Kind, N, OldDessauer, Opt, REFERENCE_ONLY, Shooting};
use volley::rules::ruleset::{AnyRuleset, Measure, UnitModel};
use volley::rules::scenario;

/// Every Rust source of the rulesets, as one text.
fn ruleset_sources() -> String {
    sources_under("src/rules/ruleset")
}

/// Every Rust source under a folder of the crate, as one text.
fn sources_under(folder: &str) -> String {
    fn walk(dir: &Path, out: &mut String) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push_str(&std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    let mut s = String::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(folder), &mut s);
    s
}

/// A key is read by name, or as one of a family the engine names with a suffix ("x_{grade}").
fn read_by_engine(src: &str, key: &str) -> bool {
    if src.contains(&format!("\"{key}\"")) {
        return true;
    }
    key.rsplit_once('_')
        .is_some_and(|(stem, _)| src.contains(&format!("\"{stem}_{{")))
}

/// Numbers of the data files that no procedure reads, each with why: facts of the table shown
/// in the rules reference. A procedure that starts to read one must take it off this list.
const FACTS_ONLY: &[(&str, &str)] = &[
    ("figure_men", "the figure scale: shown, no rule counts men"),
    (
        "paces_per_inch",
        "the ground scale: Old Dessauer measures in inches",
    ),
    (
        "command_radius",
        "the typical radius: each general's radius comes from its scenario",
    ),
];

fn unread<'a>(src: &str, keys: impl Iterator<Item = &'a String>) -> Vec<&'a String> {
    keys.filter(|k| !read_by_engine(src, k) && !FACTS_ONLY.iter().any(|(f, _)| f == k))
        .collect()
}

#[test]
fn the_facts_only_numbers_are_really_unread() {
    let src = ruleset_sources();
    for (k, why) in FACTS_ONLY {
        // Old Dessauer's are typed keys: see old_dessauers_reference_only_numbers_are_unread.
        if REFERENCE_ONLY.iter().any(|n| n.key() == *k) {
            continue;
        }
        assert!(
            !read_by_engine(&src, k),
            "{k} is read now; take it off the list ({why})"
        );
    }
}

/// Old Dessauer's numbers that no procedure reads are named once, in the list that says so.
#[test]
fn old_dessauers_reference_only_numbers_are_unread() {
    let src = sources_under("src/rules/ruleset/old_dessauer");
    for n in REFERENCE_ONLY {
        assert_eq!(
            src.matches(&format!("N::{n:?}")).count(),
            1,
            "{} is read",
            n.key()
        );
        assert!(FACTS_ONLY.iter().any(|(k, _)| *k == n.key()), "{}", n.key());
    }
}

#[test]
fn every_keyed_row_of_the_data_files_is_read_by_the_engine() {
    let src = ruleset_sources();
    let d = Dbn::from_ron(volley::rules::ruleset::dbn::db7yw::DATA)
        .unwrap()
        .data;
    let keys = d
        .numbers
        .iter()
        .map(|n| &n.key)
        .chain(d.firing_factors.iter().map(|f| &f.key))
        .chain(d.combat_factors.iter().map(|f| &f.key))
        .chain(d.routing_factors.iter().map(|f| &f.key));
    assert_eq!(unread(&src, keys), Vec::<&String>::new(), "db7yw.ron");
    // Old Dessauer reads its data by typed key: loading proves that every keyed row is a key
    // of N, Shooting or Opt and that each of them is in the data; each is read where the
    // engine names it.
    OldDessauer::load().unwrap();
    let od_src = sources_under("src/rules/ruleset/old_dessauer");
    let typed = N::ALL
        .iter()
        .filter(|k| !REFERENCE_ONLY.contains(k))
        .map(|k| (format!("N::{k:?}"), k.key()))
        .chain(
            Shooting::ALL
                .iter()
                .map(|k| (format!("Shooting::{k:?}"), k.key())),
        )
        .chain(Opt::ALL.iter().map(|k| (format!("Opt::{k:?}"), k.key())));
    let unread_od: Vec<&str> = typed
        .filter(|(name, _)| !od_src.contains(name.as_str()))
        .map(|(_, key)| key)
        .collect();
    assert_eq!(unread_od, Vec::<&str>::new(), "old_dessauer.ron");
    let bbb = volley::rules::ruleset::bbb::BbbData::load().unwrap();
    let keys = bbb
        .numbers
        .iter()
        .map(|n| &n.key)
        .chain(bbb.fire_values.iter().map(|f| &f.key))
        .chain(bbb.fire_shifts.iter().map(|f| &f.key))
        .chain(bbb.fire_halvings.iter().map(|f| &f.key))
        .chain(bbb.assault_modifiers.iter().map(|f| &f.key))
        .chain(bbb.command_modifiers.iter().map(|f| &f.key));
    assert_eq!(unread(&src, keys), Vec::<&String>::new(), "bbb7yw.ron");
    // Hal's keys are typed: loading proves every keyed row of hal25.ron is a variant of the
    // engine's key enums (and every variant a row); each variant the engine reads must be named
    // by it as `Enum::Variant`.
    volley::rules::ruleset::hal25::HalData::load().unwrap();
    assert_eq!(hal25_unread(&src), Vec::<String>::new(), "hal25.ron");
}

/// Hal's typed keys that no procedure names.
fn hal25_unread(src: &str) -> Vec<String> {
    use volley::rules::ruleset::common::RulesKey;
    use volley::rules::ruleset::hal25::{DeductionKey, MeleeKey, MoraleKey, N};
    fn walk<K: RulesKey>(src: &str, name: &str, out: &mut Vec<String>) {
        for k in K::ALL {
            if !src.contains(&format!("{name}::{k:?}")) {
                out.push(k.key().to_string());
            }
        }
    }
    let mut out = Vec::new();
    walk::<N>(src, "N", &mut out);
    walk::<MeleeKey>(src, "MeleeKey", &mut out);
    walk::<MoraleKey>(src, "MoraleKey", &mut out);
    walk::<DeductionKey>(src, "DeductionKey", &mut out);
    out
}

/// Hal's numbers that no procedure reads are a typed set of their own, each a fact of the
/// table shown in the rules reference: named by no procedure.
#[test]
fn hal25_shown_numbers_are_facts_only() {
    use volley::rules::ruleset::common::RulesKey;
    use volley::rules::ruleset::hal25::Shown;
    let why = [
        "firing two ranks deep is how every figure of a line fires (ruling firing_figures)",
        "the town base's size; scenarios draw their towns",
        "the town base's size; scenarios draw their towns",
        "the time scale, shown",
        "the figure scale, shown",
    ];
    let keys: Vec<&str> = Shown::ALL.iter().map(|k| k.key()).collect();
    assert_eq!(
        keys,
        [
            "two_ranks",
            "town_width",
            "town_depth",
            "minutes_per_turn",
            "men_per_figure"
        ]
    );
    let src = ruleset_sources();
    for (k, why) in Shown::ALL.iter().zip(why) {
        assert!(
            !src.contains(&format!("Shown::{k:?}")),
            "{} is read now; make it a rules number ({why})",
            k.key()
        );
    }
}

#[test]
fn every_ruleset_says_how_it_measures_and_what_a_unit_is() {
    let db = AnyRuleset::load("db7yw").unwrap();
    assert_eq!(db.measure(), Measure::Paces);
    assert_eq!(db.unit_model(), UnitModel::SingleBase);
    assert!(!db.phases().is_empty());
    let od = AnyRuleset::load("old_dessauer").unwrap();
    assert_eq!(od.measure(), Measure::Inches);
    assert_eq!(od.unit_model(), UnitModel::Stands);
    let bbb = AnyRuleset::load("bbb7yw").unwrap();
    assert_eq!(bbb.measure(), Measure::Inches);
    assert_eq!(bbb.unit_model(), UnitModel::Bases);
    for r in [&db, &od, &bbb] {
        let reference = r.reference();
        assert!(!reference.sections.is_empty());
        assert_eq!(reference.rulings, r.rulings());
        // Every row of the troop table is in the rules reference.
        assert_eq!(reference.sections[0].rows.len(), r.troop_codes().len());
    }
}

/// A wood covering the mover's path, and a road along it (the mover starts at (500, 200)
/// facing up the table).
const WOOD: &str = r#"(id: "w", kind: Woods, name: "Wood", points: [(300, 100), (700, 100), (700, 700), (300, 700)]),"#;
const ROAD: &str =
    r#"(id: "r", kind: Road, name: "Road", points: [(500, 50), (500, 950)], width: 60),"#;

/// A DB7YW battle in its movement phase with one unit of `code` to move over `terrain`.
fn movement_table(code: &str, limbered: &str, terrain: &str) -> volley::rules::battle::Battle {
    let mut b = battle(
        &[
            U("a", 0, code, "Regular", 500.0, 200.0, 0.0, limbered),
            U("z", 1, "Ms", "Regular", 100.0, 950.0, 180.0, ""),
        ],
        terrain,
    );
    to_phase(&mut b, 0, Phase::Movement);
    b.command_points = [100, 100];
    b
}

/// Plans a straight advance of unit "a".
fn advance(
    d: &Dbn,
    b: &volley::rules::battle::Battle,
    paces: f32,
) -> Result<volley::rules::ruleset::MovePlan, RuleError> {
    d.plan_move(b, &[id("a")], &[Step::Advance(paces)], None, true)
}

/// DB7YW: each row of the troop table gives the base, the move in good going, bad going and on
/// a road, the range and the combat factor the procedures use.
#[test]
fn db7yw_troop_table_rows_drive_base_move_range_and_combat() {
    let AnyRuleset::Db7yw(r) = AnyRuleset::load("db7yw").unwrap() else {
        panic!("db7yw")
    };
    let d = &r.dbn;
    for t in &d.data.troops {
        let code = t.code.as_str();
        assert_eq!(
            volley::rules::ruleset::Ruleset::base_size(r.as_ref(), code),
            Some(t.base),
            "{code}"
        );
        let limbered = if t.kind == TroopKind::Artillery {
            ", limbered: true"
        } else {
            ""
        };
        // Movement in each going: the allowance and no more (artillery limbered); a type
        // with no allowance in a going may not enter it.
        if t.kind != TroopKind::Baggage {
            for (going, rate, terrain) in [
                ("good going", t.gg, ""),
                ("bad going", t.bg, WOOD),
                ("road", t.road, ROAD),
            ] {
                let b = movement_table(code, limbered, terrain);
                let ok = advance(d, &b, rate.unwrap_or(100.0));
                match rate {
                    Some(r) if r > 0.0 => {
                        assert!(ok.is_ok(), "{code} moves {r} in {going}: {ok:?}");
                        let far = advance(d, &b, r + 10.0);
                        assert!(
                            matches!(far, Err(RuleError::TooFar { .. })),
                            "{code} may not move {} in {going}: {far:?}",
                            r + 10.0
                        );
                        let how = ok.map(|p| p.going.describe()).unwrap_or_default();
                        assert!(how.starts_with(going), "{code}: {how} is not {going}");
                    }
                    _ => assert!(ok.is_err(), "{code} may not move in {going}"),
                }
            }
        }
        // Range: a target just inside is in range, one just beyond is not.
        if let Some(range) = t.range {
            let mm = |paces: f32| paces * 25.4 / d.data.paces_per_inch;
            let front = 300.0 + t.base.1 / 2.0;
            let depth = common::depth("Ms");
            for (paces, inside) in [(range - 10.0, true), (range + 10.0, false)] {
                let y = front + mm(paces) + depth / 2.0;
                let mut b = battle(
                    &[
                        U("a", 0, code, "Regular", 500.0, 300.0, 0.0, ""),
                        U("t", 1, "Ms", "Regular", 500.0, y, 180.0, ""),
                    ],
                    "",
                );
                to_phase(&mut b, 0, Phase::Firing);
                let (s, e) = (b.unit(&id("a")).unwrap(), b.unit(&id("t")).unwrap());
                let got = d.fire_check(&b, s, e, false);
                assert_eq!(got.is_ok(), inside, "{code} at {paces} paces: {got:?}");
            }
        }
        // Combat: the troop's own factor heads its close combat factors.
        let b = battle(
            &[
                U("a", 0, code, "Regular", 500.0, 300.0, 0.0, limbered),
                U("t", 1, "Ms", "Regular", 500.0, 700.0, 180.0, ""),
            ],
            "",
        );
        let (s, e) = (b.unit(&id("a")).unwrap(), b.unit(&id("t")).unwrap());
        let f = r.combat_factors(&b, s, e, true);
        assert_eq!(
            (f[0].name.as_str(), f[0].value),
            (t.name.as_str(), t.combat),
            "{code}"
        );
    }
}

/// Old Dessauer: each row of the troop table gives the stands and figures of a unit the
/// scenario leaves whole, its stand size, and its move in line and in column.
#[test]
fn old_dessauer_troop_table_rows_drive_stands_and_moves() {
    let od = OldDessauer::load().unwrap();
    let all = [
        "generals",
        "light_infantry",
        "regimental_guns",
        "voluntary_fallback",
    ];
    for t in &od.data.troops {
        let extra = match t.kind {
            Kind::RegimentalGun => ", parent: \"host\"",
            Kind::General => ", leadership: 1",
            _ => "",
        };
        let opts: Vec<String> = all.iter().map(|o| format!("\"{o}\"")).collect();
        let text = format!(
            r#"(name: "t", ruleset: "old_dessauer", table: (width: 1219.0, height: 1219.0), turn_limit: 20,
            options: [{}],
            sides: [(name: "A", colour: (0, 0, 200)), (name: "B", colour: (200, 0, 0))],
            units: [
                (id: "host", side: 0, type: "Inf", at: (200, 200)),
                (id: "a", side: 0, type: "{}", at: (600, 600){extra}),
                (id: "z", side: 1, type: "Inf", at: (600, 1100), facing: 180),
            ])"#,
            opts.join(","),
            t.code
        );
        let b = scenario::parse(&text, "t.ron").unwrap_or_else(|e| panic!("{}: {e:?}", t.code));
        let u = b.unit(&id("a")).unwrap();
        assert_eq!(u.stands.len(), t.stands as usize, "{}", t.code);
        assert!(
            u.stands.iter().all(|s| s.figures == t.figures_per_stand),
            "{}",
            t.code
        );
        let look = b.rules.look(&b, u);
        if let Some((stand, _)) = look.stands.first() {
            assert!(
                (stand.width - t.figures_per_stand as f32 * t.figure_frontage * 25.4).abs() < 0.01,
                "{}",
                t.code
            );
            assert!(
                (stand.depth - t.stand_depth * 25.4).abs() < 0.01,
                "{}",
                t.code
            );
        }
        assert_eq!(od.allowance(u), t.line, "{} in line", t.code);
        if matches!(t.kind, Kind::Infantry | Kind::Cavalry) {
            let mut col = u.clone();
            col.formation = volley::rules::model::Formation::Column;
            assert_eq!(od.allowance(&col), t.column, "{} in column", t.code);
        }
    }
}
