//! The data file of BBB (`assets/rulesets/bbb7yw.ron`): its types, read and checked at load.
//! Every number the rules use lives there with its source.

use super::tables;
use crate::rules::command::Factor;
use crate::rules::model::Class;
use crate::rules::ruleset::Ruling;
use crate::rules::ruleset::common::{FactorDef as Modifier, Keyed, Number};
use serde::{Deserialize, Serialize};

pub(super) const DATA: &str = include_str!("../../../../assets/rulesets/bbb7yw.ron");

/// The data file, as load errors name it.
pub(super) const FILE: &str = "assets/rulesets/bbb7yw.ron";

crate::rules_keys! {
    /// A rules number of the data file (`numbers`).
    pub enum N {
        FrontArc = "front_arc",
        OutsideArcPenalty = "outside_arc_penalty",
        DifficultFoot = "difficult_foot",
        DifficultCavalry = "difficult_cavalry",
        ZoneOfControl = "zone_of_control",
        Manhandle = "manhandle",
        HorseUnlimberMove = "horse_unlimber_move",
        MinimumMove = "minimum_move",
        RoadFactor = "road_factor",
        EvadeRadius = "evade_radius",
        GeneralRadius = "general_radius",
        GeneralReturn = "general_return",
        AmmoRecoverDistance = "ammo_recover_distance",
        SilencedRecoverDistance = "silenced_recover_distance",
        StreamAssaultDistance = "stream_assault_distance",
        HillFireGap = "hill_fire_gap",
        CoverSight = "cover_sight",
        SpentFraction = "spent_fraction",
        ObjectiveRadius = "objective_radius",
        FlankSupportDistance = "flank_support_distance",
        FlankSupportFacing = "flank_support_facing",
        AboutTurnPivot = "about_turn_pivot",
        ZocSettle = "zoc_settle",
        HaltedFallBack = "halted_fall_back",
        ExploitFraction = "exploit_fraction",
        DefaultBases = "default_bases",
        MaxBases = "max_bases",
        ArtilleryReducedHits = "artillery_reduced_hits",
        ArtilleryDestroyedHits = "artillery_destroyed_hits",
    }
}

crate::rules_keys! {
    /// A row of the firing values (`fire_values`).
    pub enum Firing {
        MusketVCav = "musket_v_cav",
        MusketVFoot = "musket_v_foot",
        SkVFoot = "sk_v_foot",
        CavalryMusket = "cavalry_musket",
        IneffectiveMusket = "ineffective_musket",
        FootArtillery = "foot_artillery",
        HorseArtillery = "horse_artillery",
        HeavyArtillery = "heavy_artillery",
    }
}

crate::rules_keys! {
    /// A column shift of the fire table (`fire_shifts`).
    pub enum ShiftKey {
        Ragged = "ragged",
        WoodVillage = "wood_village",
        TownEntrenched = "town_entrenched",
        Fort = "fort",
        Devastating = "devastating",
        EliteCompanies = "elite_companies",
        IneptTarget = "inept_target",
        TargetExposed = "target_exposed",
    }
}

crate::rules_keys! {
    /// A halving of the fire value (`fire_halvings`).
    pub enum HalvingKey {
        Disrupted = "disrupted",
        LowAmmo = "low_ammo",
        Reduced = "reduced",
        Pivoted = "pivoted",
        HorseMoved = "horse_moved",
    }
}

crate::rules_keys! {
    /// An advantage or penalty in an assault (`assault_modifiers`).
    pub enum AssaultMod {
        Ratio32 = "ratio_3_2",
        Ratio21 = "ratio_2_1",
        Ratio31 = "ratio_3_1",
        Veteran = "veteran",
        HeavyCavalry = "heavy_cavalry",
        Aggressive = "aggressive",
        InDepth = "in_depth",
        Lancers = "lancers",
        Outflanking = "outflanking",
        Disrupted = "disrupted",
        Raw = "raw",
        Fragile = "fragile",
        Spent = "spent",
        LightCavalry = "light_cavalry",
        VillageWoodMarsh = "village_wood_marsh",
        TownBridgeTrench = "town_bridge_trench",
        Fort = "fort",
        StreamOrSlope = "stream_or_slope",
        SteepSlope = "steep_slope",
    }
}

crate::rules_keys! {
    /// A modifier of the command roll (`command_modifiers`).
    pub enum CommandMod {
        General = "general",
        March = "march",
        Terrain = "terrain",
        Irregular = "irregular",
        Passive = "passive",
        Fragile = "fragile",
        UnsupportedLine = "unsupported_line",
        Spent = "spent",
    }
}

/// The arm of a troop type: what moves, fires, evades and fights as what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Arm {
    Infantry,
    HeavyCavalry,
    Cavalry,
    LightCavalry,
    IrregularCavalry,
    Artillery,
    General,
}

impl Arm {
    pub fn is_cavalry(self) -> bool {
        matches!(
            self,
            Arm::HeavyCavalry | Arm::Cavalry | Arm::LightCavalry | Arm::IrregularCavalry
        )
    }
}

/// The guns of an artillery type, each with its own row of firing values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Gun {
    Foot,
    Horse,
    Heavy,
}

/// The small arms a troop type fires with (attributes may change them: see `Attribute`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Musket {
    Musket,
    NoMusket,
}

/// A troop type of the data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Troop {
    pub code: String,
    pub name: String,
    pub arm: Arm,
    /// Full move, inches.
    pub move_in: f32,
    #[serde(default)]
    pub gun: Option<Gun>,
    pub musket: Musket,
    /// Base frontage and depth, mm.
    pub base: (f32, f32),
    pub source: String,
}

/// A row of firing values by range band.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireValues {
    pub key: String,
    pub name: String,
    /// Per base, for each band of `bands`.
    pub values: Vec<f32>,
    /// With battalion guns (BG), where the table gives a second figure.
    #[serde(default)]
    pub with_bg: Option<Vec<f32>>,
    pub source: String,
}

/// A row of the fire table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireRow {
    /// The 2D6 score (2-12).
    pub roll: u8,
    /// The firer runs low on ammunition on this score (12*, 11*).
    #[serde(default)]
    pub low_ammo: bool,
    /// One cell per column: "", R, T, V, 1, 2 or 3.
    pub cells: Vec<String>,
    pub source: String,
}

/// A column shift of the fire table (left negative, right positive).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shift {
    pub key: String,
    pub name: String,
    pub shift: i32,
    pub source: String,
}

/// A halving of the fire value (cumulative).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Halving {
    pub key: String,
    pub name: String,
    pub source: String,
}

/// How far a side of an assault retires.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Retire {
    Stay,
    Inches(f32),
    /// Its full move.
    Full,
}

/// Who is disrupted by an assault result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Disrupts {
    Attacker,
    Defender,
    Both,
}

/// What the attacker does after an assault result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum After {
    MustExploit,
    MayExploitOrOccupy,
    MustOccupy,
    /// Fight again at once, if both still stand.
    Refight,
    Hold,
}

/// A row of the assault table: attacker's score minus defender's, from `min` to `max`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssaultRow {
    pub min: i32,
    pub max: i32,
    pub defender_loses: u32,
    pub defender_retires: Retire,
    pub attacker_loses: u32,
    pub attacker_retires: Retire,
    pub disrupted: Disrupts,
    pub after: After,
    pub source: String,
}

impl AssaultRow {
    /// What the row is worth to the attacker (see `Chance::edge`): bases lost on either side,
    /// and a side made to retire.
    pub fn worth(&self) -> f64 {
        let bases = 0.35 * (f64::from(self.defender_loses) - f64::from(self.attacker_loses));
        let retire = |r: &Retire| if *r == Retire::Stay { 0.0 } else { 0.2 };
        (bases + retire(&self.defender_retires) - retire(&self.attacker_retires)).clamp(-1.0, 1.0)
    }
}

/// Quality: Raw, Trained, Veteran, in that order.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub enum Quality {
    Raw,
    #[default]
    Trained,
    Veteran,
}

/// How far a command roll lets a unit move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Moves {
    Full,
    Half,
    /// No move.
    Still,
    /// Retire half a move, ignoring terrain.
    RetireHalf,
    /// Retire a full move, ignoring terrain.
    RetireFull,
    /// Routed: every base removed.
    Rout,
}

/// One column's outcome of a command roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandOutcome {
    pub moves: Moves,
    /// Instead of moving, a unit of at least this quality may recover a lost base.
    #[serde(default)]
    pub recover: Option<Quality>,
    /// A disrupted unit rallies.
    #[serde(default)]
    pub rally: bool,
    /// The unit becomes disrupted.
    #[serde(default)]
    pub disrupted: bool,
    /// The unit loses a base.
    #[serde(default)]
    pub lose_base: bool,
}

/// A row of the command table, for a score from `min` to `max`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandRow {
    pub min: i32,
    pub max: i32,
    pub good: CommandOutcome,
    pub disordered: CommandOutcome,
    pub source: String,
}

/// Everything `bbb7yw.ron` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BbbData {
    pub id: String,
    pub name: String,
    pub seed: String,
    pub troops: Vec<Troop>,
    /// Upper limits of the range bands, inches.
    pub bands: Vec<f32>,
    pub fire_values: Vec<FireValues>,
    pub fire_columns: Vec<f32>,
    pub fire_table: Vec<FireRow>,
    pub fire_shifts: Vec<Shift>,
    pub fire_halvings: Vec<Halving>,
    pub assault_table: Vec<AssaultRow>,
    pub assault_modifiers: Vec<Modifier>,
    pub command_table: Vec<CommandRow>,
    pub command_modifiers: Vec<Modifier>,
    pub numbers: Vec<Number>,
    pub rulings: Vec<Ruling>,
}

impl BbbData {
    /// The data compiled into the program, checked.
    pub fn load() -> Result<Self, String> {
        Self::from_ron(DATA)
    }

    /// Parses and checks the tables' shapes: every fire row as wide as the columns, every
    /// score of the command and assault tables read by exactly one row.
    pub fn from_ron(text: &str) -> Result<Self, String> {
        let d: BbbData = ron::from_str(text).map_err(|e| format!("ruleset data: {e}"))?;
        let cols = d.fire_columns.len();
        if cols == 0 || d.fire_columns.windows(2).any(|w| w[0] >= w[1]) {
            return Err("ruleset data: fire columns must rise".into());
        }
        for r in &d.fire_table {
            if r.cells.len() != cols {
                return Err(format!(
                    "ruleset data: fire table row {} has {} cells for {cols} columns",
                    r.roll,
                    r.cells.len()
                ));
            }
            for c in &r.cells {
                tables::FireResult::parse(c)
                    .map_err(|e| format!("ruleset data: fire table row {}: {e}", r.roll))?;
            }
        }
        for roll in 2..=12u8 {
            if d.fire_table.iter().filter(|r| r.roll == roll).count() != 1 {
                return Err(format!("ruleset data: the fire table needs one row {roll}"));
            }
        }
        for v in &d.fire_values {
            let bg = v.with_bg.as_ref().map_or(d.bands.len(), Vec::len);
            if v.values.len() != d.bands.len() || bg != d.bands.len() {
                return Err(format!(
                    "ruleset data: firing values '{}' need one value per band",
                    v.key
                ));
            }
        }
        for score in -20..=20 {
            let n = d
                .command_table
                .iter()
                .filter(|r| r.min <= score && score <= r.max)
                .count();
            if n != 1 {
                return Err(format!(
                    "ruleset data: command score {score} reads {n} rows"
                ));
            }
            let n = d
                .assault_table
                .iter()
                .filter(|r| r.min <= score && score <= r.max)
                .count();
            if n != 1 {
                return Err(format!(
                    "ruleset data: assault difference {score} reads {n} rows"
                ));
            }
        }
        Ok(d)
    }

    pub fn troop(&self, code: &str) -> Option<&Troop> {
        self.troops.iter().find(|t| t.code == code)
    }

    /// A firing values row by the data's word (the rules read them by `Firing`, in `Keys`).
    pub fn fire_values(&self, key: &str) -> Option<&FireValues> {
        self.fire_values.iter().find(|v| v.key == key)
    }

    pub fn shift(&self, key: &str) -> Option<&Shift> {
        self.fire_shifts.iter().find(|s| s.key == key)
    }

    pub fn halving(&self, key: &str) -> Option<&Halving> {
        self.fire_halvings.iter().find(|s| s.key == key)
    }

    pub fn assault_modifier(&self, key: &str) -> Option<&Modifier> {
        self.assault_modifiers.iter().find(|m| m.key == key)
    }

    pub fn command_modifier(&self, key: &str) -> Option<&Modifier> {
        self.command_modifiers.iter().find(|m| m.key == key)
    }
}

/// A unit's quality from its class: Raw (Militia), Trained (Regular), Veteran (Elite or
/// Superior).
pub fn quality(c: Class) -> Quality {
    match c {
        Class::Militia => Quality::Raw,
        Class::Regular => Quality::Trained,
        Class::Superior | Class::Elite => Quality::Veteran,
    }
}

pub fn quality_name(q: Quality) -> &'static str {
    match q {
        Quality::Raw => "Raw",
        Quality::Trained => "Trained",
        Quality::Veteran => "Veteran",
    }
}

/// The data file's keyed rows, each read by its typed key: taken at load, every key the rules
/// read present once and no other (see `Keyed::take`).
#[derive(Clone, Debug, PartialEq)]
pub struct Keys {
    pub numbers: Keyed<N, f32>,
    pub fire_values: Keyed<Firing, FireValues>,
    /// Each shift as a fire factor: its name, columns (left negative) and source.
    pub fire_shifts: Keyed<ShiftKey, Factor>,
    /// Each halving as a fire factor ("halved: ..."), of no value.
    pub fire_halvings: Keyed<HalvingKey, Factor>,
    pub assault_modifiers: Keyed<AssaultMod, Factor>,
    pub command_modifiers: Keyed<CommandMod, Factor>,
}

impl Keys {
    /// Takes every keyed row of `d`, read from `text` (the file `file`), by its typed key.
    pub fn take(d: &BbbData, file: &str, text: &str) -> Result<Self, String> {
        Ok(Keys {
            numbers: Keyed::numbers(&d.numbers, file, text)?,
            fire_values: Keyed::take(
                &d.fire_values,
                |v| &v.key,
                Clone::clone,
                file,
                text,
                "firing values row",
            )?,
            fire_shifts: Keyed::take(
                &d.fire_shifts,
                |s| &s.key,
                |s| Factor {
                    name: s.name.clone(),
                    value: s.shift,
                    source: s.source.clone(),
                },
                file,
                text,
                "fire shift",
            )?,
            fire_halvings: Keyed::take(
                &d.fire_halvings,
                |h| &h.key,
                |h| Factor {
                    name: format!("halved: {}", h.name),
                    value: 0,
                    source: h.source.clone(),
                },
                file,
                text,
                "fire halving",
            )?,
            assault_modifiers: Keyed::factors(&d.assault_modifiers, file, text)?,
            command_modifiers: Keyed::factors(&d.command_modifiers, file, text)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyed_row_is_one_the_rules_read_and_none_is_missing() {
        let d = BbbData::load().expect("bbb7yw.ron loads");
        assert!(Keys::take(&d, FILE, DATA).is_ok());
        let typo = DATA.replace("\"zoc_settle\"", "\"zoc_setle\"");
        let d = BbbData::from_ron(&typo).expect("the tables keep their shapes");
        let e = Keys::take(&d, FILE, &typo).unwrap_err();
        assert!(
            e.starts_with("assets/rulesets/bbb7yw.ron:")
                && e.ends_with("the rules number 'zoc_setle' is not one the rules read"),
            "{e}"
        );
        let gone: String = DATA
            .lines()
            .filter(|l| !l.contains("(key: \"steep_slope\""))
            .map(|l| format!("{l}\n"))
            .collect();
        let d = BbbData::from_ron(&gone).expect("the tables keep their shapes");
        assert_eq!(
            Keys::take(&d, FILE, &gone).unwrap_err(),
            "assets/rulesets/bbb7yw.ron: the factor 'steep_slope' is missing"
        );
    }
}
