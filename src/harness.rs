//! The hardening harness: volley's doors driven by arbitrary bytes (what the fuzz targets in
//! `tests/fuzz` call, and what `tests/fuzzed.rs` replays from their corpora), and the invariants
//! a battle keeps after every command (what the fuzz targets and the soak check).
//!
//! Each door either refuses its input with a located diagnostic or accepts it; none may panic,
//! hang or grow without bound. A broken promise is a panic here, which the fuzzer reports.

use crate::players::autoplay::AutoPlayer;
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Pursuit, Step};
use crate::rules::game::Game;
use crate::rules::geometry::{CONTACT_EPS, Corner};
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::save;
use crate::rules::scenario::{self, Diagnostic};
use crate::text::{lesson, report};
use std::sync::OnceLock;

/// A measuring error allowed beyond the rules' contact tolerance, mm.
const SLACK_MM: f32 = 0.01;

/// The most commands one input may give (a bound on the work one input can ask for).
const MAX_COMMANDS: usize = 64;

/// A scenario of `scenarios/` (every one, in name order; the byte picks which), loaded once per
/// process.
fn game(pick: u8) -> Game {
    static LOADED: OnceLock<Vec<Game>> = OnceLock::new();
    let all = LOADED.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|f| f.extension().is_some_and(|x| x == "ron"));
        files.sort();
        let all: Vec<Game> = files
            .iter()
            .filter_map(|f| scenario::load(f).ok())
            .collect();
        assert!(!all.is_empty(), "no scenario loads from {}", dir.display());
        all
    });
    all[pick as usize % all.len()].fork()
}

/// Every rejection names its place: a file, a line and a column from 1, and a message.
fn located(diags: &[Diagnostic]) {
    assert!(!diags.is_empty(), "a rejection without a diagnostic");
    for d in diags {
        assert!(
            d.line >= 1 && d.col >= 1 && !d.file.is_empty() && !d.message.trim().is_empty(),
            "a rejection without its place: {d:?}"
        );
    }
}

/// Any file `volley check` reads, as text: sniffed, then parsed as what it says it is.
pub fn file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match save::sniff(text) {
        save::FileKind::Orders => orders_text(0, text),
        save::FileKind::Save => save_text(text),
        save::FileKind::Scenario => scenario_text(text),
        save::FileKind::Lesson => {
            if let Err(d) = lesson::parse(text, "fuzz.ron") {
                located(&d);
            }
        }
    }
}

/// A scenario file. One that loads is saved, loaded again (the same units) and played a little.
fn scenario_text(text: &str) {
    let b = match scenario::parse(text, "fuzz.ron") {
        Ok(b) => b,
        Err(d) => return located(&d),
    };
    let saved = match save::to_string(&b) {
        Ok(s) => s,
        Err(e) => panic!("a loaded scenario does not save: {e}"),
    };
    match save::parse(&saved, "fuzz-save.ron") {
        Ok(again) => assert_eq!(again.units, b.units, "a saved scenario loads other units"),
        Err(d) => panic!("a loaded scenario's save does not load: {d:?}"),
    }
    // A short game, where the scenario is small enough for the fuzzer's pace.
    if b.units.len() <= 40 {
        let mut g = b.fork();
        let mut player = AutoPlayer::new(7);
        for _ in 0..3 {
            if g.is_over() {
                break;
            }
            for e in player.play_phase(&mut g, 6) {
                let _ = report::describe(&g, &e);
            }
        }
    }
}

/// A save file: it loads (its commands replay) or is refused with its place.
pub fn save(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        save_text(text);
    }
}

fn save_text(text: &str) {
    match save::parse(text, "fuzz.ron") {
        Ok(b) => {
            // Saved again, it loads to the same game.
            let again = save::to_string(&b).map(|s| save::parse(&s, "again.ron"));
            match again {
                Ok(Ok(c)) => assert_eq!(c.log, b.log, "a save saved again replays otherwise"),
                other => panic!("a loaded save does not save and load again: {other:?}"),
            }
        }
        Err(d) => located(&d),
    }
}

/// An order file against a scenario of `scenarios/` (the first byte picks which): parsed, then every
/// order given; a refused order is described, as `volley run` reports it.
pub fn orders(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if let Ok(text) = std::str::from_utf8(rest) {
        orders_text(pick, text);
    }
}

fn orders_text(pick: u8, text: &str) {
    let cmds = match save::parse_orders(text, "fuzz.ron") {
        Ok(c) => c,
        Err(d) => return located(&d),
    };
    let mut b = game(pick);
    let start = b.fork();
    for c in cmds.into_iter().take(MAX_COMMANDS) {
        given(&mut b, c, &start);
    }
}

/// Gives one command; checks the invariants after an accepted one and describes what followed.
fn given(game: &mut Game, c: Command, start: &Battle) {
    let before = game.fork();
    match game.execute(c.clone()) {
        Ok(events) => {
            if let Err(e) = invariants(&before, game, &c, start) {
                panic!("{e}");
            }
            for e in &events {
                let _ = report::describe(game, e);
            }
        }
        Err(e) => {
            let _ = report::refusal(game, &e);
        }
    }
}

/// Reads the input as a stream of choices.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&x, rest)) => {
                self.0 = rest;
                x
            }
            None => 0,
        }
    }
    /// Heads or tails.
    fn coin(&mut self) -> bool {
        self.byte() & 1 == 0
    }
    fn done(&self) -> bool {
        self.0.is_empty()
    }
    /// A number: mostly the sizes a player uses, sometimes the edges of what a float holds.
    fn number(&mut self) -> f32 {
        const EDGES: [f32; 12] = [
            0.0,
            -0.0,
            -1.0,
            0.5,
            1e-30,
            1e30,
            -1e30,
            f32::MAX,
            f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        match self.byte() {
            x if x < 200 => f32::from(x) - 40.0,
            x if x < 212 => EDGES[(x - 200) as usize],
            _ => f32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()]),
        }
    }
    /// A unit of the battle, or now and then one that is not there.
    fn unit(&mut self, b: &Battle) -> UnitId {
        let n = b.units.len().max(1);
        match self.byte() as usize {
            255 => UnitId::from("no-such-unit".to_string()),
            x => b
                .units
                .get(x % n)
                .map(|u| u.id.clone())
                .unwrap_or_else(|| UnitId::from(String::new())),
        }
    }
    fn units(&mut self, b: &Battle) -> Vec<UnitId> {
        let n = self.byte() % 4;
        (0..n).map(|_| self.unit(b)).collect()
    }
    fn step(&mut self, b: &Battle) -> Step {
        match self.byte() % 8 {
            0 => Step::Advance(self.number()),
            1 => Step::Backstep(self.number()),
            2 => Step::Sidestep(self.number()),
            3 => Step::Wheel {
                corner: if self.coin() {
                    Corner::Left
                } else {
                    Corner::Right
                },
                degrees: self.number(),
            },
            4 => Step::Pivot(self.number()),
            5 => Step::AboutFace,
            6 => Step::Oblique {
                forward: self.number(),
                right: self.number(),
            },
            _ => Step::ToContact(self.unit(b)),
        }
    }
    fn steps(&mut self, b: &Battle) -> Vec<Step> {
        let n = 1 + self.byte() % 3;
        (0..n).map(|_| self.step(b)).collect()
    }
    fn text(&mut self) -> String {
        ["", "1", "A", "attack", "hold", "x".repeat(300).as_str()][self.byte() as usize % 6]
            .to_string()
    }
}

/// Arbitrary command sequences against a scenario of `scenarios/` (the first byte picks which): the
/// random player's phases (to reach every part of the game) mixed with commands built from the
/// bytes, any unit, any number (NaN, infinities, the largest floats), any step.
pub fn commands(data: &[u8]) {
    let mut r = Bytes(data);
    let mut b = game(r.byte());
    b.reseed(u64::from(r.byte()));
    let start = b.fork();
    for _ in 0..MAX_COMMANDS {
        if r.done() || b.is_over() {
            break;
        }
        let op = r.byte();
        if op < 40 {
            // The random player plays the phase out (a few of its commands, then the end).
            let mut p = AutoPlayer::new(u64::from(op));
            let mut g = b.fork();
            let _ = p.play_phase(&mut g, 1 + usize::from(op % 4));
            // Its commands replayed one by one, each checked.
            for c in g.commands.since(b.commands.len()).cloned() {
                given(&mut b, c, &start);
            }
            continue;
        }
        let c = command(op, &mut r, &b);
        given(&mut b, c, &start);
    }
}

fn command(op: u8, r: &mut Bytes, b: &Battle) -> Command {
    let formations = [
        Formation::Line,
        Formation::Column,
        Formation::Square,
        Formation::Skirmish,
        Formation::Conformed,
        Formation::Dismounted,
        Formation::Deep,
    ];
    match op % 24 {
        0 => Command::EndPhase,
        1..=3 => Command::Move {
            unit: r.unit(b),
            steps: r.steps(b),
        },
        4 => Command::MoveStand {
            unit: r.unit(b),
            stand: usize::from(r.byte() % 12),
            steps: r.steps(b),
        },
        5 => Command::RecoilFurther {
            unit: r.unit(b),
            distance: r.number(),
        },
        6 => Command::MoveGroup {
            units: r.units(b),
            steps: r.steps(b),
        },
        7 => Command::Limber { unit: r.unit(b) },
        8 => Command::Unlimber { unit: r.unit(b) },
        9 | 10 => Command::Fire {
            unit: r.unit(b),
            target: r.unit(b),
            support: r.units(b),
            defence: if r.coin() { None } else { Some(r.units(b)) },
        },
        11 | 12 => {
            let unit = r.unit(b);
            let target = r.unit(b);
            let pursuits = (0..r.byte() % 3)
                .map(|_| Pursuit {
                    unit: r.unit(b),
                    pursue: r.coin(),
                    distance: (r.coin()).then(|| r.number()),
                    target: (r.coin()).then(|| r.unit(b)),
                })
                .collect();
            Command::Fight {
                unit,
                target,
                pursue: [None, Some(true), Some(false)][usize::from(r.byte() % 3)],
                pursuits,
            }
        }
        13 => Command::Deploy {
            unit: r.unit(b),
            x: r.number() * 10.0,
            y: r.number() * 10.0,
            facing: r.number(),
        },
        14 => Command::Fortify { feature: r.text() },
        15 => Command::Form {
            unit: r.unit(b),
            formation: formations[usize::from(r.byte()) % formations.len()],
            turn: r.number(),
        },
        16 => Command::Attach {
            general: r.unit(b),
            unit: r.unit(b),
        },
        17 => Command::Detach { general: r.unit(b) },
        18 => Command::Fallback {
            unit: r.unit(b),
            distance: r.number(),
        },
        19 => Command::Activate { unit: r.unit(b) },
        20 => Command::Recover { unit: r.unit(b) },
        21 => Command::Evade {
            unit: r.unit(b),
            from: r.unit(b),
            distance: r.number(),
        },
        22 => match r.byte() % 5 {
            0 => Command::Declare {
                unit: r.unit(b),
                target: r.unit(b),
            },
            1 => Command::Charge { unit: r.unit(b) },
            2 => Command::Reroll {
                by: r.unit(b),
                unit: r.unit(b),
            },
            3 => Command::Send {
                courier: r.unit(b),
                brigade: r.text(),
                order: r.text(),
            },
            _ => Command::PursuitOrder {
                unit: r.unit(b),
                pursue: r.coin(),
            },
        },
        _ => Command::Undo,
    }
}

/// Units that stand on the table: placed, not removed, with a base.
fn standing(b: &Battle) -> impl Iterator<Item = &Unit> {
    b.alive()
        .filter(|u| !u.status.undeployed && u.base.width > 0.0)
}

fn strength(u: &Unit) -> (usize, u32) {
    (u.stands.len(), u.stands.iter().map(|s| s.figures).sum())
}

/// The invariants a battle keeps after an accepted command `cmd` (`before` is the state it ran
/// on, `start` the battle's start): a removed unit never acts; the turn never goes back nor
/// passes the limit; every unit (a loose skirmisher's every stand) is on the table (to a
/// millimetre) or removed, at a finite place;
/// no unit has more stands or figures than at the start; no two bases overlap where the rules
/// do not let them share ground (never enemies; friends only where the rules let them
/// intermix), a loose skirmisher judged by its stands. A pair that already overlapped before the
/// command is left to the command that made it.
pub fn invariants(
    before: &Battle,
    game: &Game,
    cmd: &Command,
    start: &Battle,
) -> Result<(), String> {
    let b: &Battle = game;
    let fail = |what: String| Err(format!("after {cmd:?}: {what}"));
    // The unit that acts (a re-roll's is the general who spends the chip; the unit whose roll
    // is thrown again may have been removed by it).
    let actor = match cmd {
        Command::Reroll { by, .. } => Some(by),
        _ => cmd.unit(),
    };
    if let Some(id) = actor
        && let Ok(u) = before.unit(id)
        && u.status.removed
        && !matches!(cmd, Command::Undo)
    {
        return fail(format!("{} acts, removed", u.name));
    }
    if b.turn < before.turn && !matches!(cmd, Command::Undo) {
        return fail(format!(
            "the turn went from {} back to {}",
            before.turn, b.turn
        ));
    }
    if b.turn > b.turn_limit.max(1) + 1 {
        return fail(format!("turn {} is past the limit", b.turn));
    }
    let tol = 1.0;
    for u in standing(b) {
        if !(u.base.centre.x.is_finite()
            && u.base.centre.y.is_finite()
            && u.base.facing.is_finite())
        {
            return fail(format!("{} stands at {:?}", u.name, u.base));
        }
        // A loose skirmisher's frame is only the box round its stands: its stands are judged.
        for c in u.shapes().iter().flat_map(|s| s.corners()) {
            if !(c.x >= -tol
                && c.y >= -tol
                && c.x <= b.table.width + tol
                && c.y <= b.table.height + tol)
            {
                return fail(format!("{} stands off the table at {c:?}", u.name));
            }
        }
    }
    for (u, s) in b.units.iter().zip(start.units.iter()) {
        let (now, first) = (strength(u), strength(s));
        if now.0 > first.0 || now.1 > first.1 {
            return fail(format!(
                "{} has {now:?} stands and figures, more than its {first:?} at the start",
                u.name
            ));
        }
        if u.status.hits > 64 {
            return fail(format!("{} has {} hits", u.name, u.status.hits));
        }
    }
    let solid: Vec<&Unit> = standing(b)
        .filter(|u| !game.rules.shares_ground(&u.troop))
        .collect();
    // Deeper than the rules' contact tolerance by more than a measuring error (a base closed
    // up against another stops at the tolerance, give or take a float's last digit).
    let meet = |p: &Unit, q: &Unit| {
        p.shapes().iter().any(|s| {
            q.shapes()
                .iter()
                .any(|t| s.overlap_depth(t) > CONTACT_EPS + SLACK_MM)
        })
    };
    for (i, x) in solid.iter().enumerate() {
        for y in &solid[i + 1..] {
            if x.side == y.side && game.rules.friends_intermix() {
                continue;
            }
            if !x.base.within(&y.base, 1.0)
                && !game.rules.loose_stands(b, x)
                && !game.rules.loose_stands(b, y)
            {
                continue;
            }
            let was = before
                .unit(&x.id)
                .ok()
                .zip(before.unit(&y.id).ok())
                .is_some_and(|(p, q)| meet(p, q));
            if meet(x, y) && !was {
                return fail(format!("{} and {} overlap", x.name, y.name));
            }
        }
    }
    Ok(())
}
