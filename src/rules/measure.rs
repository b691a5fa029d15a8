//! The units a ruleset measures in (paces or inches) and their size on the table.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The unit a ruleset measures in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Measure {
    Paces,
    Inches,
}

impl Measure {
    pub fn name(self) -> &'static str {
        match self {
            Measure::Paces => "paces",
            Measure::Inches => "inches",
        }
    }
    /// A distance in words, as a player writes it: "1 inch", "2.5 inches", "100 paces".
    pub fn amount(self, v: f32) -> String {
        let one = match self {
            Measure::Paces => "pace",
            Measure::Inches => "inch",
        };
        let unit = if v == 1.0 { one } else { self.name() };
        format!("{v} {unit}")
    }
    /// The measure of this name ("inches").
    pub fn named(name: &str) -> Option<Measure> {
        [Measure::Paces, Measure::Inches]
            .into_iter()
            .find(|m| m.name() == name)
    }
    /// Decimal places a distance is written with.
    pub fn precision(self) -> usize {
        match self {
            Measure::Paces => 0,
            Measure::Inches => 1,
        }
    }
    /// The step a dragged distance snaps to: 5 paces or a quarter inch.
    pub fn snap(self) -> f32 {
        match self {
            Measure::Paces => 5.0,
            Measure::Inches => 0.25,
        }
    }
    /// Move lengths a player commonly orders (the seeded player picks among them).
    pub fn sample_moves(self) -> [f32; 5] {
        match self {
            Measure::Paces => [50.0, 100.0, 150.0, 200.0, 300.0],
            Measure::Inches => [1.0, 2.0, 3.0, 4.0, 6.0],
        }
    }
}

impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The measuring unit of the ruleset and its size on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scale {
    pub unit: Measure,
    /// Millimetres per unit.
    pub mm_per_unit: f32,
}

impl Scale {
    pub fn to_mm(&self, v: f32) -> f32 {
        v * self.mm_per_unit
    }
    pub fn from_mm(&self, mm: f32) -> f32 {
        mm / self.mm_per_unit
    }
}

#[cfg(test)]
mod tests {
    use super::Measure;

    #[test]
    fn a_distance_in_words() {
        assert_eq!(Measure::Inches.amount(1.0), "1 inch");
        assert_eq!(Measure::Inches.amount(2.5), "2.5 inches");
        assert_eq!(Measure::Paces.amount(1.0), "1 pace");
        assert_eq!(Measure::Paces.amount(150.0), "150 paces");
    }
}
