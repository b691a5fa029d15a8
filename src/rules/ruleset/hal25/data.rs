//! The data of Hal's rules (`assets/rulesets/hal25.ron`): its tables' types, read and checked at
//! load.

use crate::rules::command::Factor;
use crate::rules::ruleset::Ruling;
use crate::rules::ruleset::common::{CodeIndex, Keyed, RulesKey};
pub use crate::rules::ruleset::common::{FactorDef as Modifier, Number};
use serde::{Deserialize, Serialize};

pub(crate) const DATA: &str = include_str!("../../../../assets/rulesets/hal25.ron");
const FILE: &str = "assets/rulesets/hal25.ron";

crate::rules_keys! {
    /// The rules numbers the engine reads, by their words in hal25.ron's `numbers`.
    pub enum N {
        FiguresPerDie = "figures_per_die",
        ArcHalfAngle = "arc_half_angle",
        SaveLineFiring = "save_line_firing",
        SaveCover = "save_cover",
        SaveLightGun = "save_light_gun",
        SaveLightGunLong = "save_light_gun_long",
        CavalryHitsPerFigure = "cavalry_hits_per_figure",
        OddHitNeed = "odd_hit_need",
        LightGunCounterBattery = "light_gun_counter_battery",
        ChipLowDie = "chip_low_die",
        ChipHighDie = "chip_high_die",
        KnockOutNeed = "knock_out_need",
        TownPoints = "town_points",
        CrewToServe = "crew_to_serve",
        BatteryFigures = "battery_figures",
        GeneralMove = "general_move",
        CourierMove = "courier_move",
        PushLight = "push_light",
        PushHeavy = "push_heavy",
        GrenadierChangeInches = "grenadier_change_inches",
        LightChangeInches = "light_change_inches",
        BrigadeRadius = "brigade_radius",
        OfficerRiskNeed = "officer_risk_need",
        CourierLostNeed = "courier_lost_need",
        CincCouriers = "cinc_couriers",
        BrigadierCouriers = "brigadier_couriers",
        ChipsCincBonus = "chips_cinc_bonus",
        SurrenderPoints = "surrender_points",
        FallBackDice = "fall_back_dice",
        FallBackFacingNeed = "fall_back_facing_need",
        TwoStandNeed = "two_stand_need",
        RoutRecoveryAttempts = "rout_recovery_attempts",
        BatteryCheckCrew = "battery_check_crew",
        ArmyWithdrawalShare = "army_withdrawal_share",
        SkirmishGap = "skirmish_gap",
        ChargeDiceMost = "charge_dice_most",
        ContactTolerance = "contact_tolerance",
        AttachedTolerance = "attached_tolerance",
        InitiativeTries = "initiative_tries",
        ObjectiveRadius = "objective_radius",
    }
}
crate::rules_keys! {
    /// Numbers of hal25.ron that no procedure reads: facts of the table (scales, the town base) shown in the rules reference.
    pub enum Shown {
        TwoRanks = "two_ranks",
        TownWidth = "town_width",
        TownDepth = "town_depth",
        MinutesPerTurn = "minutes_per_turn",
        MenPerFigure = "men_per_figure",
    }
}
crate::rules_keys! {
    /// The melee modifiers (hal25.ron `melee_modifiers`).
    pub enum MeleeKey {
        Grenadiers = "grenadiers",
        Formed = "formed",
        AttackingDisorganised = "attacking_disorganised",
        HeavyVsLight = "heavy_vs_light",
        LightCavVsNonGrenadiers = "light_cav_vs_non_grenadiers",
        HeavyCavVsGrenadiers = "heavy_cav_vs_grenadiers",
        DefendingTown = "defending_town",
        FlankRear = "flank_rear",
        AttackingRouted = "attacking_routed",
        HeavyCavVsNonGrenadiers = "heavy_cav_vs_non_grenadiers",
        MovingCavVsStationary = "moving_cav_vs_stationary",
    }
}
crate::rules_keys! {
    /// The morale modifiers (hal25.ron `morale_modifiers`).
    pub enum MoraleKey {
        StandLost = "stand_lost",
        OutOfCommand = "out_of_command",
        Disorganised = "disorganised",
        Rout = "rout",
        LightVsCavalry = "light_vs_cavalry",
        CrewLost = "crew_lost",
        Works = "works",
        CommanderAttached = "commander_attached",
        Grenadiers = "grenadiers",
        HeavyVsCavalry = "heavy_vs_cavalry",
        LightCavClosing = "light_cav_closing",
        HeavyCavClosing = "heavy_cav_closing",
    }
}
crate::rules_keys! {
    /// The rows of small arms deductions (hal25.ron `small_arms_deductions`).
    pub enum DeductionKey {
        Regular = "regular",
        FirstVolley = "first_volley",
    }
}

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
    /// A general who commands the army, not a brigade: the code `CIC` (VI.D), resolved when
    /// the data loads.
    #[serde(skip)]
    pub army_commander: bool,
}

/// The seed's troop code for the commander in chief (VI.D); every other general commands a
/// brigade.
const COMMANDER_IN_CHIEF: &str = "CIC";

/// `hal25.ron` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHal {
    id: String,
    name: String,
    seed: String,
    troops: Vec<TroopDef>,
    /// Written orders a courier may carry.
    orders: Vec<String>,
    small_arms_bands: Vec<f32>,
    small_arms_deductions: Vec<Deduction>,
    artillery_bands: Vec<f32>,
    artillery_deductions: Vec<i32>,
    counter_battery_need: Vec<i32>,
    charge_ranges: Vec<ChargeRange>,
    movement: Vec<MoveRow>,
    melee_modifiers: Vec<Modifier>,
    morale_base: i32,
    morale_modifiers: Vec<Modifier>,
    failed_morale: Vec<FailedRow>,
    melee_loss_modifiers: Vec<LossRow>,
    chips: Vec<ChipRow>,
    organisation: Vec<Organisation>,
    numbers: Vec<Number>,
    rulings: Vec<Ruling>,
}

/// Everything `hal25.ron` holds, its keyed rows also by typed key (every key the engine reads
/// present, none it does not know).
#[derive(Clone, Debug, PartialEq)]
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
    /// The numbers the engine reads.
    pub n: Keyed<N, f32>,
    /// The numbers shown only.
    pub shown: Keyed<Shown, f32>,
    pub melee: Keyed<MeleeKey, Factor>,
    pub morale: Keyed<MoraleKey, Factor>,
    /// Each row's deduction by band.
    pub deductions: Keyed<DeductionKey, Vec<i32>>,
    /// Each troop code's first row in `troops`.
    troop_index: CodeIndex,
}

impl HalData {
    pub fn load() -> Result<Self, String> {
        Self::from_ron(DATA)
    }

    /// Parses and checks the tables' shapes: three bands each, a deduction per band, every
    /// 1D6 face of each charge-range row read once, every failed-morale and chips score read
    /// by one row.
    pub fn from_ron(text: &str) -> Result<Self, String> {
        let r: RawHal = ron::from_str(text).map_err(|e| format!("ruleset data: {e}"))?;
        let (shown, read): (Vec<Number>, Vec<Number>) = r
            .numbers
            .iter()
            .cloned()
            .partition(|n| Shown::ALL.iter().any(|s| s.key() == n.key));
        let mut d = HalData {
            n: Keyed::numbers(&read, FILE, text)?,
            shown: Keyed::numbers(&shown, FILE, text)?,
            melee: Keyed::factors(&r.melee_modifiers, FILE, text)?,
            morale: Keyed::factors(&r.morale_modifiers, FILE, text)?,
            deductions: Keyed::take(
                &r.small_arms_deductions,
                |x| &x.key,
                |x| x.deduct.clone(),
                FILE,
                text,
                "small arms deduction",
            )?,
            id: r.id,
            name: r.name,
            seed: r.seed,
            troop_index: CodeIndex::default(),
            troops: r.troops,
            orders: r.orders,
            small_arms_bands: r.small_arms_bands,
            small_arms_deductions: r.small_arms_deductions,
            artillery_bands: r.artillery_bands,
            artillery_deductions: r.artillery_deductions,
            counter_battery_need: r.counter_battery_need,
            charge_ranges: r.charge_ranges,
            movement: r.movement,
            melee_modifiers: r.melee_modifiers,
            morale_base: r.morale_base,
            morale_modifiers: r.morale_modifiers,
            failed_morale: r.failed_morale,
            melee_loss_modifiers: r.melee_loss_modifiers,
            chips: r.chips,
            organisation: r.organisation,
            numbers: r.numbers,
            rulings: r.rulings,
        };
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
            && o.figures() as f32 != d.n(N::BatteryFigures)
        {
            return Err("ruleset data: a battery's stands hold battery_figures figures".into());
        }
        d.resolve_troops()?;
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

    /// Checks the troop codes, each with an organisation, and marks the commander in chief's.
    fn resolve_troops(&mut self) -> Result<(), String> {
        if self.troops.is_empty() {
            return Err("ruleset data: no troop codes".into());
        }
        for t in &mut self.troops {
            t.army_commander = t.troop == TroopClass::General && t.code == COMMANDER_IN_CHIEF;
        }
        if !self.troops.iter().any(|t| t.army_commander) {
            return Err(format!(
                "ruleset data: no general has the commander in chief's code '{COMMANDER_IN_CHIEF}'"
            ));
        }
        for t in &self.troops {
            if self.organisation.iter().all(|o| o.troop != t.troop) {
                return Err(format!(
                    "ruleset data: troop {} has no organisation",
                    t.code
                ));
            }
        }
        Ok(())
    }

    /// A rules number the engine reads.
    pub fn n(&self, k: N) -> f32 {
        *self.n.get(k)
    }

    /// The number the data file gives under `key`, as written (for the reference and its
    /// checks); NaN where it gives none, so that no absent number reads as a value.
    pub fn num(&self, key: &str) -> f32 {
        self.numbers
            .iter()
            .find(|n| n.key == key)
            .map_or(f32::NAN, |n| n.value)
    }

    /// The troop type of a troop code, if the data has it.
    pub fn troop(&self, code: &str) -> Option<&TroopDef> {
        self.troop_index.find(&self.troops, code, |t| &t.code)
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
