//! Reading BBB's three tables: the fire table (a fire value, halved and shifted, picks a
//! column; 2D6 picks the row), the assault table (the difference of two scores picks a row)
//! and the command table (2D6 plus modifiers, read in the good-order or disordered column).
//! Each also gives the exact chance of each of its results.

use super::{AssaultMod, AssaultRow, BbbData, CommandOutcome, CommandRow, Quality};
use crate::rules::ruleset::common::RulesKey;
pub use crate::rules::ruleset::common::{band, two_d6};
use serde::{Deserialize, Serialize};

/// A cell of the fire table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FireResult {
    /// An empty cell: no effect.
    Nothing,
    /// The target is disrupted (artillery silenced); Raw units are halted in an assault.
    R,
    /// As R; Raw and Trained units are halted.
    T,
    /// As R; every unit is halted.
    V,
    /// Bases lost (1-3), the unit disrupted and halted; artillery reduced by 1, destroyed by 2+.
    Bases(u8),
}

impl FireResult {
    /// What the result is worth to the firer (see `Chance::edge`): a halt or disruption a
    /// little, each base lost much.
    pub fn worth(self) -> f64 {
        match self {
            FireResult::Nothing => 0.0,
            FireResult::R => 0.15,
            FireResult::T => 0.2,
            FireResult::V => 0.25,
            FireResult::Bases(n) => (0.35 * f64::from(n)).min(1.0),
        }
    }

    /// A cell's text: "", R, T, V, 1, 2 or 3.
    pub fn parse(s: &str) -> Result<Self, String> {
        Ok(match s {
            "" => FireResult::Nothing,
            "R" => FireResult::R,
            "T" => FireResult::T,
            "V" => FireResult::V,
            "1" => FireResult::Bases(1),
            "2" => FireResult::Bases(2),
            "3" => FireResult::Bases(3),
            other => return Err(format!("'{other}' is not a fire result (R, T, V, 1-3)")),
        })
    }

    /// The cell as the table prints it ("-" for an empty one).
    pub fn code(self) -> String {
        match self {
            FireResult::Nothing => "-".into(),
            FireResult::R => "R".into(),
            FireResult::T => "T".into(),
            FireResult::V => "V".into(),
            FireResult::Bases(n) => n.to_string(),
        }
    }

    /// The target is disrupted (and artillery silenced).
    pub fn disrupts(self) -> bool {
        self != FireResult::Nothing
    }

    /// Bases lost.
    pub fn bases(self) -> u32 {
        match self {
            FireResult::Bases(n) => u32::from(n),
            _ => 0,
        }
    }

    /// A unit of this quality moving to assault is halted by this result (R: Raw; T: Raw and
    /// Trained; V and bases lost: all).
    pub fn halts(self, q: Quality) -> bool {
        match self {
            FireResult::Nothing => false,
            FireResult::R => q == Quality::Raw,
            FireResult::T => q <= Quality::Trained,
            FireResult::V | FireResult::Bases(_) => true,
        }
    }
}

/// The fire table's column for a fire value after `halvings` (cumulative) and `shift` columns
/// (right positive): the highest heading at or below the halved value, then shifted. None when
/// the value is below the first column, or shifts carry it off the left of the table; shifts
/// beyond the right edge stay in the last column.
pub fn fire_column(d: &BbbData, value: f32, halvings: u32, shift: i32) -> Option<usize> {
    let v = value * 0.5f32.powi(halvings as i32);
    // Below the first column there is no column for a shift to move (ruling fire_off_table).
    let base = d.fire_columns.iter().rposition(|c| *c <= v + 1e-4)?;
    let col = base as i32 + shift;
    if col < 0 {
        return None;
    }
    Some((col as usize).min(d.fire_columns.len() - 1))
}

/// The result of a 2D6 score on a column, and whether the score leaves the firer low on
/// ammunition (12*, 11*: whatever the column).
pub fn read_fire(d: &BbbData, column: Option<usize>, roll: i32) -> (FireResult, bool) {
    let Some(row) = d.fire_table.iter().find(|r| i32::from(r.roll) == roll) else {
        return (FireResult::Nothing, false);
    };
    let result = column
        .and_then(|c| row.cells.get(c))
        .and_then(|c| FireResult::parse(c).ok())
        .unwrap_or(FireResult::Nothing);
    (result, row.low_ammo)
}

/// The exact chance of each result on a column, worst for the target last.
pub fn fire_odds(d: &BbbData, column: Option<usize>) -> Vec<(FireResult, f64)> {
    let mut out: Vec<(FireResult, f64)> = Vec::new();
    for (roll, p) in two_d6() {
        let (r, _) = read_fire(d, column, roll);
        match out.iter_mut().find(|(x, _)| *x == r) {
            Some(slot) => slot.1 += p,
            None => out.push((r, p)),
        }
    }
    out.sort_by_key(|(r, _)| *r);
    out
}

/// The chance that a firing leaves the firer low on ammunition.
pub fn low_ammo_chance(d: &BbbData) -> f64 {
    two_d6()
        .iter()
        .filter(|(roll, _)| {
            d.fire_table
                .iter()
                .any(|r| i32::from(r.roll) == *roll && r.low_ammo)
        })
        .map(|(_, p)| p)
        .sum()
}

/// The assault table's row for a difference (attacker's score minus defender's).
pub fn assault_row(d: &BbbData, difference: i32) -> &AssaultRow {
    d.assault_table
        .iter()
        .find(|r| r.min <= difference && difference <= r.max)
        .unwrap_or(&d.assault_table[0])
}

/// The chance of each assault row (by index) when the attacker adds `attacker` to 1D6 and the
/// defender `defender` to theirs.
pub fn assault_odds(d: &BbbData, attacker: i32, defender: i32) -> Vec<f64> {
    let mut out = vec![0.0; d.assault_table.len()];
    for a in 1..=6 {
        for b in 1..=6 {
            let diff = (a + attacker) - (b + defender);
            if let Some(i) = d
                .assault_table
                .iter()
                .position(|r| r.min <= diff && diff <= r.max)
            {
                out[i] += 1.0 / 36.0;
            }
        }
    }
    out
}

/// The command table's row for a score (2D6 plus modifiers).
pub fn command_row(d: &BbbData, score: i32) -> &CommandRow {
    d.command_table
        .iter()
        .find(|r| r.min <= score && score <= r.max)
        .unwrap_or(&d.command_table[0])
}

/// What a score lets a unit do, in the good-order or the disordered column.
pub fn command_outcome(d: &BbbData, score: i32, disordered: bool) -> CommandOutcome {
    let row = command_row(d, score);
    if disordered { row.disordered } else { row.good }
}

/// The chance of each command row (by index) with this total modifier.
pub fn command_odds(d: &BbbData, modifier: i32) -> Vec<f64> {
    let mut out = vec![0.0; d.command_table.len()];
    for (roll, p) in two_d6() {
        let score = roll + modifier;
        if let Some(i) = d
            .command_table
            .iter()
            .position(|r| r.min <= score && score <= r.max)
        {
            out[i] += p;
        }
    }
    out
}

/// The assault advantage of a base ratio (own bases against the enemy's): 3:2, 2:1, 3:1 give
/// the data's `ratio_3_2`, `ratio_2_1`, `ratio_3_1`; the best that applies, else none.
pub fn ratio(own: u32, enemy: u32) -> Option<AssaultMod> {
    let (o, e) = (own as u64, enemy.max(1) as u64);
    if o >= 3 * e {
        Some(AssaultMod::Ratio31)
    } else if o >= 2 * e {
        Some(AssaultMod::Ratio21)
    } else if 2 * o >= 3 * e {
        Some(AssaultMod::Ratio32)
    } else {
        None
    }
}

/// The data's word for the advantage of a base ratio (see `ratio`).
pub fn ratio_key(own: u32, enemy: u32) -> Option<&'static str> {
    ratio(own, enemy).map(RulesKey::key)
}
