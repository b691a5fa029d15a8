//! The data of Hal's rules (`assets/rulesets/hal25.ron`): its tables' types, read and checked at
//! load.

use crate::rules::ruleset::Ruling;
pub use crate::rules::ruleset::common::{FactorDef as Modifier, Number};
use serde::{Deserialize, Serialize};

const DATA: &str = include_str!("../../../../assets/rulesets/hal25.ron");

/// The troop classes the tables distinguish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TroopClass {
    Grenadier,
    Line,
    Light,
    HeavyCavalry,
    LightCavalry,
    Artillery,
    General,
    Courier,
}

/// The range band an attacker started its charge from (II.A, Firing into Charges).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChargeFrom {
    Long,
    Medium,
}

/// A range band of small arms or artillery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Band {
    Short,
    Medium,
    Long,
}

impl Band {
    pub const ALL: [Band; 3] = [Band::Short, Band::Medium, Band::Long];
    pub fn index(self) -> usize {
        match self {
            Band::Short => 0,
            Band::Medium => 1,
            Band::Long => 2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deduction {
    pub key: String,
    pub name: String,
    pub deduct: Vec<i32>,
    pub source: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeRange {
    pub troop: TroopClass,
    pub from: ChargeFrom,
    /// Faces (low, high) of 1D6 giving short range.
    pub short: (u8, u8),
    pub medium: Option<(u8, u8)>,
    pub long: Option<(u8, u8)>,
    pub source: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRow {
    pub troop: TroopClass,
    pub line: Option<u32>,
    pub field_column: Option<u32>,
    pub road_column: Option<u32>,
    pub skirmish: Option<u32>,
    /// D6 added (positive) or taken off (negative) in rough terrain.
    pub rough_dice: i32,
    /// D6 for a formation change (negative: taken off).
    pub change_dice: i32,
    pub change_inches: i32,
    /// D6 added to a rout move.
    pub rout_dice: i32,
    pub source: String,
}

/// What a failed morale roll does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Failed {
    Rout,
    Disorganised,
    Recover,
    /// Lost a melee by 20 or more points.
    Surrender,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailedRow {
    pub min: i32,
    pub max: i32,
    pub outcome: Failed,
    pub source: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LossRow {
    pub min: u32,
    pub max: u32,
    pub value: i32,
    pub source: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChipRow {
    pub min: i32,
    pub max: i32,
    pub chips: u32,
    /// Command radius, inches.
    pub radius: u32,
    /// D6 added to (or taken off) movement, couriers included.
    pub move_dice: i32,
    /// Command control modifier.
    pub command: i32,
    pub source: String,
}

/// A unit type's stands: figures on each (the command stand first) and each stand's size in
/// inches (frontage, depth).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Organisation {
    pub troop: TroopClass,
    pub name: String,
    pub stands: Vec<u32>,
    pub stand_sizes: Vec<(f32, f32)>,
    pub mounted_officer: bool,
    pub source: String,
}

impl Organisation {
    pub fn figures(&self) -> u32 {
        self.stands.iter().sum()
    }
}

/// A troop code of the scenarios and the class it plays as.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TroopDef {
    pub code: String,
    pub troop: TroopClass,
    pub name: String,
    pub light_gun: bool,
    pub source: String,
}

/// Everything `hal25.ron` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HalData {
    pub id: String,
    pub name: String,
    pub seed: String,
    pub troops: Vec<TroopDef>,
    /// Written orders a courier may carry.
    pub orders: Vec<String>,
    pub small_arms_bands: Vec<f32>,
    pub small_arms_deductions: Vec<Deduction>,
    pub artillery_bands: Vec<f32>,
    pub artillery_deductions: Vec<i32>,
    pub counter_battery_need: Vec<i32>,
    pub charge_ranges: Vec<ChargeRange>,
    pub movement: Vec<MoveRow>,
    pub melee_modifiers: Vec<Modifier>,
    pub morale_base: i32,
    pub morale_modifiers: Vec<Modifier>,
    pub failed_morale: Vec<FailedRow>,
    pub melee_loss_modifiers: Vec<LossRow>,
    pub chips: Vec<ChipRow>,
    pub organisation: Vec<Organisation>,
    pub numbers: Vec<Number>,
    pub rulings: Vec<Ruling>,
}

impl HalData {
    pub fn load() -> Result<Self, String> {
        Self::from_ron(DATA)
    }

    /// Parses and checks the tables' shapes: three bands each, a deduction per band, every
    /// 1D6 face of each charge-range row read once, every failed-morale and chips score read
    /// by one row.
    pub fn from_ron(text: &str) -> Result<Self, String> {
        let d: HalData = ron::from_str(text).map_err(|e| format!("ruleset data: {e}"))?;
        if d.small_arms_bands.len() != 3 || d.artillery_bands.len() != 3 {
            return Err("ruleset data: small arms and artillery have three bands each".into());
        }
        if d.artillery_deductions.len() != 3 || d.counter_battery_need.len() != 3 {
            return Err(
                "ruleset data: one artillery deduction and counter-battery score per band".into(),
            );
        }
        for x in &d.small_arms_deductions {
            if x.deduct.len() != 3 {
                return Err(format!(
                    "ruleset data: deductions '{}' need three bands",
                    x.key
                ));
            }
        }
        for r in &d.charge_ranges {
            for face in 1..=6u8 {
                let n = [Some(r.short), r.medium, r.long]
                    .iter()
                    .flatten()
                    .filter(|(lo, hi)| *lo <= face && face <= *hi)
                    .count();
                if n != 1 {
                    return Err(format!(
                        "ruleset data: charge range {:?} from {:?}: face {face} reads {n} bands",
                        r.troop, r.from
                    ));
                }
            }
        }
        if let Some(o) = d.organisation(TroopClass::Artillery)
            && o.figures() as f32 != d.num("battery_figures")
        {
            return Err("ruleset data: a battery's stands hold battery_figures figures".into());
        }
        if d.troops.is_empty() {
            return Err("ruleset data: no troop codes".into());
        }
        for t in &d.troops {
            if d.organisation.iter().all(|o| o.troop != t.troop) {
                return Err(format!(
                    "ruleset data: troop {} has no organisation",
                    t.code
                ));
            }
        }
        for o in &d.organisation {
            if o.stands.len() != o.stand_sizes.len() || o.stands.is_empty() {
                return Err(format!("ruleset data: {} needs one size per stand", o.name));
            }
        }
        for score in -20..=20 {
            for (what, n) in [
                (
                    "failed morale",
                    d.failed_morale
                        .iter()
                        .filter(|r| r.min <= score && score <= r.max)
                        .count(),
                ),
                (
                    "chips",
                    d.chips
                        .iter()
                        .filter(|r| r.min <= score && score <= r.max)
                        .count(),
                ),
            ] {
                if n != 1 {
                    return Err(format!("ruleset data: {what} score {score} reads {n} rows"));
                }
            }
        }
        Ok(d)
    }

    pub fn num(&self, key: &str) -> f32 {
        crate::rules::ruleset::common::number(&self.numbers, key)
    }

    pub fn organisation(&self, t: TroopClass) -> Option<&Organisation> {
        self.organisation.iter().find(|o| o.troop == t)
    }

    pub fn deduction(&self, key: &str) -> Option<&Deduction> {
        self.small_arms_deductions.iter().find(|d| d.key == key)
    }

    pub fn melee_modifier(&self, key: &str) -> Option<&Modifier> {
        self.melee_modifiers.iter().find(|m| m.key == key)
    }

    pub fn morale_modifier(&self, key: &str) -> Option<&Modifier> {
        self.morale_modifiers.iter().find(|m| m.key == key)
    }

    pub fn moves(&self, t: TroopClass) -> Option<&MoveRow> {
        // Grenadiers move as line infantry (their formation change aside).
        let t = if t == TroopClass::Grenadier {
            TroopClass::Line
        } else {
            t
        };
        self.movement.iter().find(|m| m.troop == t)
    }
}
