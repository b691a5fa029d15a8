//! Scenario files: raw RON, then a validated game ready to play. Every error names
//! file:line:col.

use super::game::Game;
use super::model::Unit;
use serde::Serialize;
use std::fmt;
use std::path::Path;

mod build;
pub mod raw;
mod unit;
pub mod victory;

use build::{Checker, pt_ok};
pub use build::{build, build_preview};
pub use raw::{
    Flank, RawFeature, RawPt, RawScenario, RawSide, RawTable, RawUnit, RawZone, coat_colour,
};
use unit::build_unit;
pub use victory::{RawConditions, RawHold, RawObjective};

/// The scenario the program opens when given none.
pub const DEFAULT_SCENARIO: &str = "scenarios/default.ron";

/// The default scenario: beside the working directory, or in the source tree.
pub fn default_path() -> std::path::PathBuf {
    let here = std::path::PathBuf::from(DEFAULT_SCENARIO);
    if here.exists() {
        return here;
    }
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_SCENARIO)
}

/// Largest scenario or save file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;
/// Largest coordinate or size accepted, in mm (100 m).
pub const MAX_MM: f32 = 100_000.0;
const MAX_UNITS: usize = 5_000;
const MAX_FEATURES: usize = 5_000;
const MAX_POINTS: usize = 10_000;

/// One problem in a file, at a place in it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl Diagnostic {
    /// One problem at a place in a file, as the loaders return it.
    pub fn one(file: &str, line: usize, col: usize, message: String) -> Vec<Diagnostic> {
        vec![Diagnostic {
            file: file.to_string(),
            line,
            col,
            message,
        }]
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

/// Finds the line and column of the `nth` occurrence of `needle` (1-based), or 1:1.
pub fn locate(text: &str, needle: &str, nth: usize) -> (usize, usize) {
    let mut from = 0;
    let mut found = None;
    for _ in 0..nth.max(1) {
        match text[from..].find(needle) {
            Some(i) => {
                found = Some(from + i);
                from += i + needle.len().max(1);
            }
            None => break,
        }
    }
    let Some(pos) = found else { return (1, 1) };
    let before = &text[..pos];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

/// Parses and validates a scenario. `file` names it in diagnostics.
pub fn parse(text: &str, file: &str) -> Result<Game, Vec<Diagnostic>> {
    build(&parse_raw(text, file)?, text, file)
}

/// Reads the RON of a scenario without checking it.
pub fn parse_raw(text: &str, file: &str) -> Result<RawScenario, Vec<Diagnostic>> {
    ron_options().from_str(text).map_err(|e| {
        vec![Diagnostic {
            file: file.to_string(),
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        }]
    })
}

/// What `volley check` tells of a scenario that loads, side by side: each army's points and
/// list verdict and the rules' warnings (`Ruleset::army_notes`); then its objectives and
/// victory conditions in words.
pub fn notes(text: &str, file: &str) -> Vec<String> {
    let Ok(raw) = parse_raw(text, file) else {
        return Vec::new();
    };
    let Ok(game) = build(&raw, text, file) else {
        return Vec::new();
    };
    let (b, rs) = (&game.battle, game.rules.get());
    let mut out = Vec::new();
    for (s, side) in b.sides.iter().enumerate() {
        let members: Vec<&Unit> = b.units.iter().filter(|u| u.side == s).collect();
        let listed = raw.sides.get(s).is_some_and(|r| r.army_list);
        for n in rs.army_notes(&members, side, listed, &b.terrain) {
            out.push(format!("army of {}: {n}", side.name));
        }
    }
    out.extend(
        game.victory_words()
            .into_iter()
            .map(|w| format!("victory: {w}")),
    );
    out
}

/// Reads a scenario file from disk.
pub fn load(path: &Path) -> Result<Game, Vec<Diagnostic>> {
    let text = read_text(path)?;
    parse(&text, &path.display().to_string())
}

/// Reads a scenario file from disk with these optional rules in place of its own.
pub fn load_with_options(path: &Path, options: &[String]) -> Result<Game, Vec<Diagnostic>> {
    let text = read_text(path)?;
    let file = path.display().to_string();
    let mut raw = parse_raw(&text, &file)?;
    raw.options = options.to_vec();
    build(&raw, &text, &file)
}

/// Reads a text file, refusing huge or unreadable ones with a diagnostic.
pub fn read_text(path: &Path) -> Result<String, Vec<Diagnostic>> {
    let file = path.display().to_string();
    let d = |m: String| {
        vec![Diagnostic {
            file: file.clone(),
            line: 1,
            col: 1,
            message: m,
        }]
    };
    let meta = std::fs::metadata(path).map_err(|e| d(format!("cannot read: {e}")))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(d(format!(
            "file is {} bytes; the limit is {}",
            meta.len(),
            MAX_FILE_BYTES
        )));
    }
    std::fs::read_to_string(path).map_err(|e| d(format!("cannot read: {e}")))
}

/// RON as volley reads it: optional fields may be written without `Some(...)`.
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}
