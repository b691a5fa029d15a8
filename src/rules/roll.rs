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

impl Roll {
    /// One unit's roll: its dice, factors and total, with nothing against it yet.
    pub fn of_unit(unit: &UnitId, dice: Vec<u8>, factors: &[Factor], total: i32) -> Roll {
        Roll {
            unit: Some(unit.clone()),
            side: None,
            dice,
            factors: factors.to_vec(),
            total,
            against: None,
            need: None,
            outcome: String::new(),
            first_die: None,
            dice_at: Vec::new(),
        }
    }
}

/// A roll's factors in the log's words, " (+1 Elite, -1 Disordered)"; nothing for none.
pub fn factor_list(factors: &[Factor]) -> String {
    if factors.is_empty() {
        return String::new();
    }
    let fs: Vec<String> = factors
        .iter()
        .map(|f| format!("{:+} {}", f.value, f.name))
        .collect();
    format!(" ({})", fs.join(", "))
}

/// Hits scored, in words: "no hits", "1 hit", "3 hits".
pub fn hits_text(h: u32) -> String {
    match h {
        0 => "no hits".into(),
        1 => "1 hit".into(),
        n => format!("{n} hits"),
    }
}

/// What a roll needs, in words, where `most` is the highest the dice can throw (6 for one D6,
/// 12 for 2D6).
pub fn need_text(need: i32, most: i32) -> String {
    if need <= 1 {
        "any roll".into()
    } else if need > most {
        format!("more than {most}")
    } else if need == most {
        format!("{most}")
    } else {
        format!("{need}-{most}")
    }
}

#[cfg(test)]
mod tests {
    use super::need_text;

    #[test]
    fn a_need_reads_against_the_dice_thrown() {
        // 2D6 throws up to 12: needing 11 is "11-12", not "more than 6".
        assert_eq!(need_text(11, 12), "11-12");
        assert_eq!(need_text(12, 12), "12");
        assert_eq!(need_text(13, 12), "more than 12");
        assert_eq!(need_text(7, 6), "more than 6");
        assert_eq!(need_text(4, 6), "4-6");
        assert_eq!(need_text(6, 6), "6");
        assert_eq!(need_text(1, 12), "any roll");
    }
}
