//! Helpers shared by the integration tests: small battles written inline.
#![allow(dead_code, reason = "each test file uses some of these helpers")]

pub mod hal25;

use volley::rules::command::{Command, Event, RuleError, Step};
use volley::rules::model::{Phase, UnitId};
use volley::rules::ruleset::dbn::DbnEvent;
use volley::rules::{Game, scenario};

/// Each playable ruleset's default scenario.
pub const DEFAULTS: [&str; 5] = [
    "scenarios/default.ron",
    "scenarios/dbfpw_default.ron",
    "scenarios/bbb_default.ron",
    "scenarios/hal25_default.ron",
    "scenarios/lobosch_1756.ron",
];

/// Each ruleset and a troop type of its line infantry.
pub const FOOT: [(&str, &str); 5] = [
    ("db7yw", "Ms"),
    ("dbfpw", "Inf"),
    ("bbb7yw", "Inf"),
    ("hal25", "LI"),
    ("old_dessauer", "Inf"),
];

/// A file of this name in a folder of the test's own under the system's temporary folder
/// (tests run side by side).
pub fn scratch(tag: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("volley-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir.join(name)
}

/// The shipped scenarios, in order.
pub fn shipped() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the scenarios folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
}

/// A count for a long run from the environment variable `var`, else `short`.
pub fn env_count(var: &str, short: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(short)
}

/// A unit line for `battle`: id, side, type, class, x, y, facing, extra RON fields.
pub struct U<'a>(
    pub &'a str,
    pub usize,
    pub &'a str,
    pub &'a str,
    pub f32,
    pub f32,
    pub f32,
    pub &'a str,
);

/// Builds a DB7YW game on a 1000 x 1000 mm table with the given units and terrain lines.
pub fn battle(units: &[U], terrain: &str) -> Game {
    battle_with(units, terrain, "")
}

pub fn battle_with(units: &[U], terrain: &str, extra: &str) -> Game {
    let us: Vec<String> = units
        .iter()
        .map(|U(id, side, t, class, x, y, f, more)| format!("(id: \"{id}\", side: {side}, type: \"{t}\", class: {class}, at: Some(({x}, {y})), facing: {f}{more}),"))
        .collect();
    let text = format!(
        "(name: \"t\", ruleset: \"db7yw\", table: (width: 1000, height: 1000), seed: 1, turn_limit: 20, {extra}
          terrain: [{terrain}],
          sides: [(name: \"Prussia\", nation: \"prussia\", colour: (0, 0, 200)), (name: \"Austria\", nation: \"austria\", colour: (220, 220, 220), defender: true)],
          units: [{}])",
        us.join("\n")
    );
    match scenario::parse(&text, "inline") {
        Ok(b) => b,
        Err(d) => panic!("inline scenario invalid: {:?}", d),
    }
}

/// Builds an Old Dessauer game on a 4-foot table (turn limit 20) from terrain and unit lines
/// (RON) and optional rules.
pub fn old_dessauer(terrain: &str, units: &str, options: &[&str]) -> Game {
    let opts: Vec<String> = options.iter().map(|o| format!("\"{o}\"")).collect();
    let text = format!(
        r#"(name: "t", ruleset: "old_dessauer", table: (width: 1219.0, height: 1219.0), turn_limit: 20,
        options: [{}],
        terrain: [{terrain}],
        sides: [(name: "A", colour: (0, 0, 200)), (name: "B", colour: (200, 0, 0))],
        units: [{units}])"#,
        opts.join(",")
    );
    scenario::parse(&text, "t.ron").unwrap_or_else(|e| panic!("{e:?}"))
}

/// Base width and depth of a DB7YW troop type (mm), from the ruleset's data.
pub fn base_size(troop: &str) -> (f32, f32) {
    let rules = volley::rules::ruleset::AnyRuleset::load("db7yw").expect("db7yw loads");
    rules
        .get()
        .base_size(troop)
        .unwrap_or_else(|| panic!("unknown troop type {troop}"))
}

/// Base depth of a DB7YW troop type (mm), from the ruleset's data.
pub fn depth(troop: &str) -> f32 {
    base_size(troop).1
}

pub fn id(s: &str) -> UnitId {
    UnitId::from(s)
}

/// Advances to the given phase of side `side`'s bound with scripted command dice of 6.
pub fn to_phase(b: &mut Game, side: usize, phase: Phase) {
    for _ in 0..40 {
        if b.active == side && b.phase == phase {
            return;
        }
        b.execute(Command::EndPhase).expect("end phase");
    }
    panic!("never reached {phase:?} of side {side}");
}

/// The refusal of a command, which changes nothing, in words.
pub fn refused(b: &mut Game, c: Command) -> String {
    refusal(b, c).to_string()
}

/// The refusal of a command, which changes nothing.
pub fn refusal(b: &mut Game, c: Command) -> RuleError {
    let before = b.units.clone();
    let e = b.execute(c).expect_err("refused");
    assert_eq!(b.units, before, "a refused command changes nothing");
    e
}

/// The distance asked and the allowance of a refusal for going too far.
pub fn too_far(e: &RuleError) -> Option<(f32, f32)> {
    match e {
        RuleError::TooFar {
            distance,
            allowance,
            ..
        } => Some((*distance, *allowance)),
        _ => None,
    }
}

pub fn mv(unit: &str, steps: Vec<Step>) -> Command {
    Command::Move {
        unit: id(unit),
        steps,
    }
}

pub fn fire(unit: &str, target: &str) -> Command {
    Command::Fire {
        unit: id(unit),
        target: id(target),
        support: vec![],
        defence: None,
    }
}

pub fn fight(unit: &str, target: &str) -> Command {
    Command::Fight {
        unit: id(unit),
        target: id(target),
        pursue: None,
        pursuits: Vec::new(),
    }
}

/// The factor names of a score, sorted by appearance.
pub fn names(f: &[volley::rules::command::Factor]) -> Vec<String> {
    f.iter()
        .map(|x| format!("{:+} {}", x.value, x.name))
        .collect()
}

/// The first Fire event.
pub fn fire_event(ev: &[Event]) -> DbnEvent {
    ev.iter()
        .filter_map(Event::own)
        .find(|e| matches!(e, DbnEvent::Fire { .. }))
        .cloned()
        .expect("a Fire event")
}

pub fn combat_event(ev: &[Event]) -> DbnEvent {
    ev.iter()
        .filter_map(Event::own)
        .find(|e| matches!(e, DbnEvent::CloseCombat { .. }))
        .cloned()
        .expect("a CloseCombat event")
}

/// A headless app (MinimalPlugins, the game's own systems, no window) on a game, seated for
/// the side to move; its autosaves go to a temporary folder named by `tag`. Not yet updated:
/// insert any further resources first.
#[cfg(feature = "window")]
pub fn headless(b: Game, tag: &str) -> bevy::app::App {
    use bevy::prelude::*;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<ButtonInput<KeyCode>>()
        .add_plugins(volley::app::plugin(
            b,
            true,
            std::env::temp_dir().join(format!("volley-{tag}-{}", std::process::id())),
        ));
    app
}

/// Compares `events` with the golden event file `path` (relative to the crate): a JSON array,
/// one event a line, as the events serialise (`kind` and the event's fields), so a rule that
/// changes what happened fails even when the words stay the same. With UPDATE_GOLDEN set, the
/// file is written first, as the golden text logs are.
pub fn golden_events(path: &str, events: &[Event]) {
    let lines: Vec<String> = events
        .iter()
        .map(|e| serde_json::to_string(e).expect("an event serialises"))
        .collect();
    let got = format!("[\n{}\n]\n", lines.join(",\n"));
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&full, &got).unwrap();
    }
    let want = std::fs::read_to_string(&full)
        .unwrap_or_else(|e| panic!("{path}: {e} (UPDATE_GOLDEN=1 writes it)"));
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "{path}: line {} differs (event {i})", i + 1);
    }
    assert_eq!(
        got.lines().count(),
        want.lines().count(),
        "{path}: the number of events differs"
    );
    let parsed: Vec<Event> = serde_json::from_str(&want).expect("the golden events parse");
    assert_eq!(parsed, events, "{path}: the events read back differ");
}

/// The kind a command was refused for, as `K` (the refusing ruleset's `Refusal`), or the
/// refusal's words where it has no kind of that type.
pub fn refused_as<K: std::any::Any + Clone>(b: &mut Game, c: Command) -> Result<K, String> {
    kind_of(&refusal(b, c))
}

/// The kind of a refusal in hand, as `K`, or its words where it has no kind of that type.
pub fn kind_of<K: std::any::Any + Clone>(e: &RuleError) -> Result<K, String> {
    e.refusal::<K>().cloned().ok_or_else(|| e.to_string())
}
