//! Every row of every ruleset data file drives the procedures: a number changed in the data is
//! either used by the engine or caught here.
//!
//! The rulesets read their rules numbers and factors by typed key (`rules_keys!` enums, taken
//! into `Keyed` at load): loading refuses, naming the file and line, a row whose key the engine
//! does not know and a key the engine reads that the data lacks. These tests walk that typed
//! data: each keyed table holds exactly the keys of its enum, each typed value is the row's, a
//! misspelt key in any row is a load error, and the numbers kept for the rules reference only
//! change no event of a played game. The DBN family's data files are taken in two: the rows
//! the shared engine reads (`dbn::N`, `dbn::SharedFire`) and each supplement's own
//! (`db7yw::{Num, Fire, Close, Routing}`, `dbfpw::{Num, Fire, Close}`).

mod common;

use common::{U, battle, id, to_phase};
use std::path::Path;
use std::sync::Arc;
use volley::rules::Game;
use volley::rules::command::{Event, Factor, RuleError, Step};
use volley::rules::ruleset::common::{FactorDef, Number, RulesKey};
use volley::rules::ruleset::dbn::{Dbn, TroopKind};
use volley::rules::ruleset::dbn::{FIRING, MOVEMENT};
use volley::rules::ruleset::old_dessauer::{Kind, N, OldDessauer, Opt, REFERENCE_ONLY, Shooting};
use volley::rules::ruleset::{AnyRuleset, Measure, UnitModel};
use volley::rules::{save, scenario};

/// A ruleset data file's text, as the program compiles it in.
fn data_file(id: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/rulesets/{id}.ron")),
    )
    .unwrap()
}

/// The words of every key of `K`, sorted.
fn words<K: RulesKey>() -> Vec<&'static str> {
    let mut w: Vec<&str> = K::ALL.iter().map(|k| k.key()).collect();
    w.sort();
    w
}

/// The keys of a table's rows, sorted.
fn row_keys<'a, T>(rows: &'a [T], key: impl Fn(&'a T) -> &'a str) -> Vec<&'a str> {
    let mut w: Vec<&str> = rows.iter().map(key).collect();
    w.sort();
    w
}

fn number_keys(rows: &[Number]) -> Vec<&str> {
    row_keys(rows, |n| n.key.as_str())
}

fn factor_keys(rows: &[FactorDef]) -> Vec<&str> {
    row_keys(rows, |f| f.key.as_str())
}

/// The value a data file's `numbers` gives `key`.
fn row_value(rows: &[Number], key: &str) -> f32 {
    rows.iter()
        .find(|n| n.key == key)
        .unwrap_or_else(|| panic!("no row {key}"))
        .value
}

/// The data text with every row keyed `key` given the key `key` + "_misspelt" instead.
fn misspelt(text: &str, key: &str) -> String {
    let row = format!("key: \"{key}\"");
    assert!(text.contains(&row), "no row keyed {key}");
    text.replace(&row, &format!("key: \"{key}_misspelt\""))
}

/// Misspelling the key of each row keyed by `K` makes `load` refuse the data, naming the file
/// and the key.
fn each_misspelt_key_is_refused<K: RulesKey, T>(
    text: &str,
    file: &str,
    load: impl Fn(&str) -> Result<T, String>,
) {
    assert!(load(text).is_ok(), "{file} loads as written");
    for k in K::ALL {
        let Err(e) = load(&misspelt(text, k.key())) else {
            panic!("{file}: a misspelt {} still loads", k.key());
        };
        assert!(e.contains(file), "{}: {e}", k.key());
        assert!(e.contains(k.key()), "{}: {e}", k.key());
    }
}

#[test]
fn bbbs_keyed_tables_hold_exactly_the_typed_keys() {
    use volley::rules::ruleset::bbb::{
        AssaultMod, Bbb7yw, BbbData, CommandMod, Firing, HalvingKey, Keys, N as BbbN, ShiftKey,
    };
    let d = BbbData::load().unwrap();
    assert_eq!(number_keys(&d.numbers), words::<BbbN>(), "numbers");
    assert_eq!(
        row_keys(&d.fire_values, |v| v.key.as_str()),
        words::<Firing>()
    );
    assert_eq!(
        row_keys(&d.fire_shifts, |v| v.key.as_str()),
        words::<ShiftKey>()
    );
    assert_eq!(
        row_keys(&d.fire_halvings, |v| v.key.as_str()),
        words::<HalvingKey>()
    );
    assert_eq!(factor_keys(&d.assault_modifiers), words::<AssaultMod>());
    assert_eq!(factor_keys(&d.command_modifiers), words::<CommandMod>());
    let r = Bbb7yw::load().unwrap();
    for k in BbbN::ALL {
        assert_eq!(r.n(*k), row_value(&d.numbers, k.key()), "{}", k.key());
    }
    for k in AssaultMod::ALL {
        let row = d
            .assault_modifiers
            .iter()
            .find(|f| f.key == k.key())
            .unwrap();
        assert_eq!(
            r.keys.assault_modifiers.get(*k).value,
            row.value,
            "{}",
            k.key()
        );
    }
    for k in CommandMod::ALL {
        let row = d
            .command_modifiers
            .iter()
            .find(|f| f.key == k.key())
            .unwrap();
        assert_eq!(
            r.keys.command_modifiers.get(*k).value,
            row.value,
            "{}",
            k.key()
        );
    }
    for k in ShiftKey::ALL {
        let row = d.fire_shifts.iter().find(|f| f.key == k.key()).unwrap();
        assert_eq!(r.keys.fire_shifts.get(*k).value, row.shift, "{}", k.key());
    }
    let file = "assets/rulesets/bbb7yw.ron";
    let load = |t: &str| BbbData::from_ron(t).and_then(|d| Keys::take(&d, file, t));
    let text = data_file("bbb7yw");
    each_misspelt_key_is_refused::<BbbN, _>(&text, file, load);
    each_misspelt_key_is_refused::<Firing, _>(&text, file, load);
    each_misspelt_key_is_refused::<ShiftKey, _>(&text, file, load);
    each_misspelt_key_is_refused::<HalvingKey, _>(&text, file, load);
    each_misspelt_key_is_refused::<AssaultMod, _>(&text, file, load);
    each_misspelt_key_is_refused::<CommandMod, _>(&text, file, load);
}

#[test]
fn hals_keyed_tables_hold_exactly_the_typed_keys() {
    use volley::rules::ruleset::hal25::{
        DeductionKey, HalData, MeleeKey, MoraleKey, N as HalN, Shown,
    };
    let d = HalData::load().unwrap();
    let mut both: Vec<&str> = words::<HalN>()
        .into_iter()
        .chain(words::<Shown>())
        .collect();
    both.sort();
    assert_eq!(
        number_keys(&d.numbers),
        both,
        "numbers: read or shown, none twice"
    );
    assert_eq!(factor_keys(&d.melee_modifiers), words::<MeleeKey>());
    assert_eq!(factor_keys(&d.morale_modifiers), words::<MoraleKey>());
    assert_eq!(
        row_keys(&d.small_arms_deductions, |x| x.key.as_str()),
        words::<DeductionKey>()
    );
    for k in HalN::ALL {
        assert_eq!(d.n(*k), row_value(&d.numbers, k.key()), "{}", k.key());
    }
    for k in Shown::ALL {
        assert_eq!(
            *d.shown.get(*k),
            row_value(&d.numbers, k.key()),
            "{}",
            k.key()
        );
    }
    for k in MeleeKey::ALL {
        let row = d.melee_modifiers.iter().find(|f| f.key == k.key()).unwrap();
        assert_eq!(d.melee.get(*k).value, row.value, "{}", k.key());
    }
    for k in MoraleKey::ALL {
        let row = d
            .morale_modifiers
            .iter()
            .find(|f| f.key == k.key())
            .unwrap();
        assert_eq!(d.morale.get(*k).value, row.value, "{}", k.key());
    }
    let file = "assets/rulesets/hal25.ron";
    let text = data_file("hal25");
    each_misspelt_key_is_refused::<HalN, _>(&text, file, HalData::from_ron);
    each_misspelt_key_is_refused::<Shown, _>(&text, file, HalData::from_ron);
    each_misspelt_key_is_refused::<MeleeKey, _>(&text, file, HalData::from_ron);
    each_misspelt_key_is_refused::<MoraleKey, _>(&text, file, HalData::from_ron);
    each_misspelt_key_is_refused::<DeductionKey, _>(&text, file, HalData::from_ron);
}

#[test]
fn old_dessauers_keyed_tables_hold_exactly_the_typed_keys() {
    let od = OldDessauer::load().unwrap();
    assert_eq!(number_keys(&od.data.numbers), words::<N>(), "numbers");
    assert_eq!(factor_keys(&od.data.shooting_factors), words::<Shooting>());
    assert_eq!(
        row_keys(&od.data.options, |o| o.key.as_str()),
        words::<Opt>()
    );
    for k in N::ALL {
        assert_eq!(
            od.num(*k),
            row_value(&od.data.numbers, k.key()),
            "{}",
            k.key()
        );
    }
    for k in Shooting::ALL {
        let row = od
            .data
            .shooting_factors
            .iter()
            .find(|f| f.key == k.key())
            .unwrap();
        assert_eq!(od.shooting_factor(*k).value, row.value, "{}", k.key());
    }
    let file = "assets/rulesets/old_dessauer.ron";
    let text = data_file("old_dessauer");
    each_misspelt_key_is_refused::<N, _>(&text, file, OldDessauer::from_ron);
    each_misspelt_key_is_refused::<Shooting, _>(&text, file, OldDessauer::from_ron);
    each_misspelt_key_is_refused::<Opt, _>(&text, file, OldDessauer::from_ron);
}

/// The DBN family's shared numbers: every data file of the family gives each once, the engine
/// holds the row's value, and a misspelt one is refused.
#[test]
fn the_dbn_familys_shared_numbers_are_typed_keys() {
    use volley::rules::ruleset::dbn::N as DbnN;
    for id in ["db7yw", "dbfpw"] {
        let text = data_file(id);
        let d = Dbn::from_ron(&text).unwrap();
        for k in DbnN::ALL {
            assert_eq!(
                d.n(*k),
                row_value(&d.data.numbers, k.key()),
                "{id}: {}",
                k.key()
            );
        }
        let file = format!("assets/rulesets/{id}.ron");
        each_misspelt_key_is_refused::<DbnN, _>(&text, &file, Dbn::from_ron);
    }
}

// ----- the numbers kept for the rules reference -------------------------------------------

/// The data text with the value of the number keyed `key` raised by 7.
fn changed_number(text: &str, key: &str) -> String {
    let row = format!("(key: \"{key}\", value: ");
    let at = text.find(&row).unwrap_or_else(|| panic!("no number {key}")) + row.len();
    let len = text[at..].find(',').unwrap();
    let value: f64 = text[at..at + len].trim().parse().unwrap();
    format!("{}{}{}", &text[..at], value + 7.0, &text[at + len..])
}

/// Plays `b` under `rules` (with the scenario's optional rules): the orders of `orders` after
/// `dice`, if any, else 40 phases of the seeded random player; returns every event.
fn play_under(mut b: Game, rules: &AnyRuleset, orders: Option<&str>, dice: &[u8]) -> Vec<Event> {
    let options = b.rules.get().options().to_vec();
    b.rules = rules.clone().with_options(&options).unwrap();
    if !dice.is_empty() {
        b.script_dice(dice);
    }
    match orders {
        Some(path) => {
            let text =
                std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
            let cmds = save::parse_orders(&text, path).unwrap();
            let (events, err) = volley::cli::run_orders(&mut b, cmds);
            assert_eq!(err, None, "{path}");
            events
        }
        None => volley::players::autoplay::AutoPlayer::new(1).play(&mut b, 40, 8),
    }
}

/// Games of a ruleset to play under changed data: scenario, orders, dice.
type Games = &'static [(&'static str, Option<&'static str>, &'static [u8])];

/// The events of every game of `games` under `rules`.
fn games_under(games: Games, rules: &AnyRuleset) -> Vec<Vec<Event>> {
    games
        .iter()
        .map(|(file, orders, dice)| {
            let b = save::load_any(&Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
            play_under(b, rules, *orders, dice)
        })
        .collect()
}

const OD_GAMES: Games = &[
    (
        "tests/old_dessauer/three_turns.ron",
        Some("tests/old_dessauer/three_turns_orders.ron"),
        &[],
    ),
    (
        "tests/old_dessauer/fire_example.ron",
        Some("tests/old_dessauer/fire_example_orders.ron"),
        &[6, 6, 2, 3, 1],
    ),
    (
        "tests/old_dessauer/combat_example.ron",
        Some("tests/old_dessauer/combat_example_orders.ron"),
        &[5, 6, 1, 2, 6, 1, 2, 3, 4, 2],
    ),
    ("scenarios/lobosch_1756.ron", None, &[]),
];

/// Old Dessauer's numbers that no procedure reads (the figure and ground scales, the typical
/// command radius): each changed in the data changes no event of the games played, where
/// changing a number the rules read does.
#[test]
fn old_dessauers_reference_only_numbers_change_no_game() {
    let text = data_file("old_dessauer");
    let od = |t: &str| AnyRuleset::OldDessauer(Arc::new(OldDessauer::from_ron(t).unwrap()));
    let as_written = games_under(OD_GAMES, &od(&text));
    for k in REFERENCE_ONLY {
        let changed = games_under(OD_GAMES, &od(&changed_number(&text, k.key())));
        assert!(
            changed == as_written,
            "{} changes a game: a procedure reads it",
            k.key()
        );
    }
    // The same games tell a number the rules read.
    let read = N::ALL.iter().find(|k| {
        !REFERENCE_ONLY.contains(k)
            && games_under(OD_GAMES, &od(&changed_number(&text, k.key()))) != as_written
    });
    assert!(read.is_some(), "no rules number changes these games");
}

const HAL_GAMES: Games = &[
    (
        "scenarios/hal25_tutorial.ron",
        Some("tests/orders/hal25_tutorial_turn.ron"),
        &[
            3, 3, 3, 3, 5, 2, 4, 3, 5, 4, 5, 5, 2, 6, 5, 4, 3, 2, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 6,
            3, 3, 6, 2, 5, 3, 4, 4, 3, 5, 2, 1, 3, 4, 3, 3, 2, 5, 6, 5,
        ],
    ),
    ("scenarios/hal25_default.ron", None, &[]),
    ("scenarios/hal25_krefeld.ron", None, &[]),
];

/// Hal's numbers shown in the rules reference only are a typed set of their own, apart from
/// the numbers the engine reads; each changed in the data changes no event of the games
/// played, where changing a number the rules read does.
#[test]
fn hal25_shown_numbers_are_facts_only() {
    use volley::rules::ruleset::hal25::{Hal25, N as HalN, Shown};
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
    assert!(
        Shown::ALL
            .iter()
            .all(|s| HalN::ALL.iter().all(|n| n.key() != s.key())),
        "a shown number is also one the engine reads"
    );
    let text = data_file("hal25");
    let hal = |t: &str| AnyRuleset::Hal25(Arc::new(Hal25::from_ron(t).unwrap()));
    let as_written = games_under(HAL_GAMES, &hal(&text));
    for k in Shown::ALL {
        let changed = games_under(HAL_GAMES, &hal(&changed_number(&text, k.key())));
        assert!(
            changed == as_written,
            "{} changes a game: make it a rules number",
            k.key()
        );
    }
    let read = HalN::ALL
        .iter()
        .any(|k| games_under(HAL_GAMES, &hal(&changed_number(&text, k.key()))) != as_written);
    assert!(read, "no rules number changes these games");
}

// ----- DBN's supplements: their own rows by their own keys --------------------------------

/// The words of every key of `A` and of `B` together, sorted: a table the shared engine and a
/// supplement each take their own keys of.
fn words_of_both<A: RulesKey, B: RulesKey>() -> Vec<&'static str> {
    let mut w: Vec<&str> = words::<A>().into_iter().chain(words::<B>()).collect();
    w.sort();
    w
}

/// The factor `get` gives each key of `K` is the row of that key in `rows`: its name and value.
fn factors_hold<K: RulesKey>(rows: &[FactorDef], get: impl Fn(K) -> Factor, table: &str) {
    for k in K::ALL {
        let row = rows
            .iter()
            .find(|f| f.key == k.key())
            .unwrap_or_else(|| panic!("{table}: no row {}", k.key()));
        let f = get(*k);
        assert_eq!(
            (f.name.as_str(), f.value),
            (row.name.as_str(), row.value),
            "{table}: {}",
            k.key()
        );
    }
}

/// The data text with the troop type `code` written `code` + "_misspelt" in the troop table.
fn misspelt_code(text: &str, code: &str) -> String {
    let row = format!("code: \"{code}\"");
    assert!(text.contains(&row), "no troop {code}");
    text.replace(&row, &format!("code: \"{code}_misspelt\""))
}

/// Misspelling each troop code of `T` in the troop table makes `load` refuse the data, naming
/// the file and the code.
fn each_misspelt_code_is_refused<T: RulesKey, G>(
    text: &str,
    file: &str,
    load: impl Fn(&str) -> Result<G, String>,
) {
    for t in T::ALL {
        let Err(e) = load(&misspelt_code(text, t.key())) else {
            panic!("{file}: a misspelt troop {} still loads", t.key());
        };
        assert!(e.contains(file), "{}: {e}", t.key());
        assert!(e.contains(t.key()), "{}: {e}", t.key());
    }
}

/// DB7YW: every row of its numbers, firing, close combat and routing tables is a key of the
/// shared engine's enums or of DB7YW's own (no row is kept for the rules reference only), the
/// troop table is exactly its troop types, the engine holds each row's value, and a misspelt
/// key or troop code in any row is refused with the file and the key.
#[test]
fn db7yws_keyed_tables_hold_exactly_the_typed_keys() {
    use volley::rules::ruleset::dbn::db7yw::{Close, Db7yw, Fire, Num, Routing, TroopType};
    use volley::rules::ruleset::dbn::{N as DbnN, SharedFire};
    let g = Db7yw::load().unwrap();
    let d = &g.dbn.data;
    assert_eq!(
        number_keys(&d.numbers),
        words_of_both::<DbnN, Num>(),
        "numbers: the shared engine's or DB7YW's, none twice"
    );
    assert_eq!(
        factor_keys(&d.firing_factors),
        words_of_both::<SharedFire, Fire>(),
        "firing factors: the shared engine's or DB7YW's, none twice"
    );
    assert_eq!(factor_keys(&d.combat_factors), words::<Close>());
    assert_eq!(factor_keys(&d.routing_factors), words::<Routing>());
    assert_eq!(
        row_keys(&d.troops, |t| t.code.as_str()),
        words::<TroopType>()
    );
    for k in Num::ALL {
        assert_eq!(g.sup.n(*k), row_value(&d.numbers, k.key()), "{}", k.key());
    }
    factors_hold::<SharedFire>(
        &d.firing_factors,
        |k| match k {
            SharedFire::EnemySupport => g.dbn.fire_support(),
        },
        "firing",
    );
    factors_hold::<Fire>(&d.firing_factors, |k| g.sup.fire(k), "firing");
    factors_hold::<Close>(&d.combat_factors, |k| g.sup.close(k), "close combat");
    factors_hold::<Routing>(&d.routing_factors, |k| g.sup.routing(k), "routing");
    let file = "assets/rulesets/db7yw.ron";
    let text = data_file("db7yw");
    let load = Db7yw::from_ron;
    each_misspelt_key_is_refused::<DbnN, _>(&text, file, load);
    each_misspelt_key_is_refused::<Num, _>(&text, file, load);
    each_misspelt_key_is_refused::<SharedFire, _>(&text, file, load);
    each_misspelt_key_is_refused::<Fire, _>(&text, file, load);
    each_misspelt_key_is_refused::<Close, _>(&text, file, load);
    each_misspelt_key_is_refused::<Routing, _>(&text, file, load);
    each_misspelt_code_is_refused::<TroopType, _>(&text, file, load);
}

/// DBFPW: every row of its numbers, firing and close combat tables is a key of the shared
/// engine's enums or of DBFPW's own (no row is kept for the rules reference only), it has no
/// routing test (a routing row is refused), the troop table is exactly its troop types, the
/// engine holds each row's value, and a misspelt key or troop code in any row is refused with
/// the file and the key.
#[test]
fn dbfpws_keyed_tables_hold_exactly_the_typed_keys() {
    use volley::rules::ruleset::dbn::dbfpw::{Close, Dbfpw, Fire, Num, TroopType};
    use volley::rules::ruleset::dbn::{N as DbnN, SharedFire};
    let g = Dbfpw::load().unwrap();
    let d = &g.dbn.data;
    assert_eq!(
        number_keys(&d.numbers),
        words_of_both::<DbnN, Num>(),
        "numbers: the shared engine's or DBFPW's, none twice"
    );
    assert_eq!(
        factor_keys(&d.firing_factors),
        words_of_both::<SharedFire, Fire>(),
        "firing factors: the shared engine's or DBFPW's, none twice"
    );
    assert_eq!(factor_keys(&d.combat_factors), words::<Close>());
    assert!(d.routing_factors.is_empty(), "DBFPW has no routing test");
    assert_eq!(
        row_keys(&d.troops, |t| t.code.as_str()),
        words::<TroopType>()
    );
    for k in Num::ALL {
        assert_eq!(g.sup.n(*k), row_value(&d.numbers, k.key()), "{}", k.key());
    }
    factors_hold::<SharedFire>(
        &d.firing_factors,
        |k| match k {
            SharedFire::EnemySupport => g.dbn.fire_support(),
        },
        "firing",
    );
    factors_hold::<Fire>(&d.firing_factors, |k| g.sup.fire(k), "firing");
    factors_hold::<Close>(&d.combat_factors, |k| g.sup.close(k), "close combat");
    let file = "assets/rulesets/dbfpw.ron";
    let text = data_file("dbfpw");
    let load = Dbfpw::from_ron;
    each_misspelt_key_is_refused::<DbnN, _>(&text, file, load);
    each_misspelt_key_is_refused::<Num, _>(&text, file, load);
    each_misspelt_key_is_refused::<SharedFire, _>(&text, file, load);
    each_misspelt_key_is_refused::<Fire, _>(&text, file, load);
    each_misspelt_key_is_refused::<Close, _>(&text, file, load);
    each_misspelt_code_is_refused::<TroopType, _>(&text, file, load);
    let routed = text.replacen(
        "routing_factors: [],",
        r#"routing_factors: [(key: "elite", name: "Elite", value: 1, source: "")],"#,
        1,
    );
    assert_ne!(routed, text);
    let Err(e) = load(&routed) else {
        panic!("{file}: a routing factor still loads");
    };
    assert!(e.contains(file) && e.contains("'elite'"), "{e}");
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
fn movement_table(code: &str, limbered: &str, terrain: &str) -> volley::rules::Game {
    let mut b = battle(
        &[
            U("a", 0, code, "Regular", 500.0, 200.0, 0.0, limbered),
            U("z", 1, "Ms", "Regular", 100.0, 950.0, 180.0, ""),
        ],
        terrain,
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points = [100, 100];
    b
}

/// Plans a straight advance of unit "a".
fn advance(
    d: &Dbn,
    b: &volley::rules::Game,
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
                to_phase(&mut b, 0, FIRING);
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
