//! A roll as every ruleset records it: its factors, dice, totals and outcome; one side's score in
//! an opposed roll. Plain data that events carry and the rulesets fill in.

use super::model::{Side, UnitId};
use serde::{Deserialize, Serialize};

/// A factor in a roll: its name, value and where the rule comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Factor {
    pub name: String,
    pub value: i32,
    pub source: String,
}

/// The sum of a roll's factors ("+4 Muskets, +1 Elite" is +5).
pub fn factor_sum(fs: &[Factor]) -> i32 {
    fs.iter().map(|f| f.value).sum()
}

/// One side's score in an opposed roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub unit: UnitId,
    pub die: u8,
    pub factors: Vec<Factor>,
    pub total: i32,
}

impl Score {
    pub fn new(unit: &UnitId, die: u8, factors: Vec<Factor>) -> Self {
        let total = die as i32 + factor_sum(&factors);
        Score {
            unit: unit.clone(),
            die,
            factors,
            total,
        }
    }
    /// "+4 Muskets, +1 Elite = 5 + die 3 = 8".
    pub fn explain(&self) -> String {
        let parts: Vec<String> = self
            .factors
            .iter()
            .map(|f| format!("{:+} {}", f.value, f.name))
            .collect();
        let sum = factor_sum(&self.factors);
        format!(
            "{} = {} + die {} = {}",
            parts.join(", "),
            sum,
            self.die,
            self.total
        )
    }
}

/// One roll as every ruleset records it: who rolled which dice with what factors, the total,
/// what it was against or needed, and the outcome.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Roll {
    pub unit: Option<UnitId>,
    pub side: Option<Side>,
    pub dice: Vec<u8>,
    pub factors: Vec<Factor>,
    pub total: i32,
    /// The opposing total of an opposed roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub against: Option<i32>,
    /// The score each die or the total needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub need: Option<i32>,
    pub outcome: String,
    /// Where its first die stands among the dice of the command that threw it (for a re-roll).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_die: Option<usize>,
    /// Where each die stands among the command's dice, when they were not thrown one after
    /// another (a melee's pairs); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice_at: Vec<usize>,
}
