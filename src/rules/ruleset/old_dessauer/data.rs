//! Old Dessauer's data file (assets/rulesets/old_dessauer.ron): its troop types, rules numbers,
//! shooting factors, optional rules and rulings, read and checked at load, and the grades.

use super::common::{FactorDef, Keyed, Number, RulesKey};
use crate::rules::command::Factor;
use crate::rules::model::{Class, Unit};
use crate::rules::ruleset::Ruling;
use crate::rules_keys;
use serde::{Deserialize, Serialize};

pub const DATA: &str = include_str!("../../../../assets/rulesets/old_dessauer.ron");

/// Millimetres per inch.
pub const INCH: f32 = 25.4;

/// What a troop type is, for the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Infantry,
    LightInfantry,
    Cavalry,
    Artillery,
    RegimentalGun,
    General,
}

/// A troop type with its stand and its movement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Troop {
    pub code: String,
    pub name: String,
    pub kind: Kind,
    /// Stands of a typical unit when a scenario does not give them.
    pub stands: u32,
    pub figures_per_stand: u32,
    /// Inches of frontage per figure (guns: per crew figure, 4 to the inch).
    pub figure_frontage: f32,
    pub stand_depth: f32,
    /// Inches per turn in line (guns manhandled) and in column (guns limbered).
    pub line: f32,
    pub column: f32,
    pub combat: i32,
    /// Light horse: heavy and medium cavalry never pursue it.
    #[serde(default)]
    pub light: bool,
    pub source: String,
}

/// An optional rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionDef {
    pub key: String,
    pub name: String,
    pub source: String,
}

/// A row of the variable chance to hit: at this difference or more, hit on `need`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HitStep {
    pub difference: i32,
    pub need: u8,
}

/// The data file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OdData {
    pub id: String,
    pub name: String,
    pub seed: String,
    pub troops: Vec<Troop>,
    pub numbers: Vec<Number>,
    pub shooting_factors: Vec<FactorDef>,
    pub options: Vec<OptionDef>,
    pub variable_hit: Vec<HitStep>,
    pub rulings: Vec<Ruling>,
}

/// The data file this engine reads, for load errors.
pub const FILE: &str = "assets/rulesets/old_dessauer.ron";

rules_keys! {
    /// The rules numbers of the data file, each by its key (`numbers`): every one is in the
    /// data and the data holds no other.
    pub enum N {
        SquareUpMax = "square_up_max",
        /// A side holds a scenario's objective alone within this distance (ruling objectives).
        ObjectiveRadius = "objective_radius",
        /// Reference only: the figure scale: shown; no rule counts men.
        FigureMen = "figure_men",
        /// Reference only: the ground scale: shown; Old Dessauer measures in inches.
        PacesPerInch = "paces_per_inch",
        HalfSpeed = "half_speed",
        ZoneOfControl = "zone_of_control",
        ChargeStraightFoot = "charge_straight_foot",
        ChargeStraightHorse = "charge_straight_horse",
        FormCost = "form_cost",
        MinFiguresToShoot = "min_figures_to_shoot",
        ArcHalfAngle = "arc_half_angle",
        MusketRange = "musket_range",
        GunRange = "gun_range",
        RegimentalGunRange = "regimental_gun_range",
        ShootNeed = "shoot_need",
        RegimentalGunNeed = "regimental_gun_need",
        RanksStriking = "ranks_striking",
        SquareFacesStriking = "square_faces_striking",
        DenseDice = "dense_dice",
        EnfiladeAngle = "enfilade_angle",
        FireGap = "fire_gap",
        HangingFlankFoot = "hanging_flank_foot",
        HangingFlankHorse = "hanging_flank_horse",
        HangingFlankGuns = "hanging_flank_guns",
        WoodsVisibility = "woods_visibility",
        MoraleNeedCrack = "morale_need_crack",
        MoraleNeedRegular = "morale_need_regular",
        MoraleNeedPoor = "morale_need_poor",
        MoralePerHit = "morale_per_hit",
        RecoilsPerHits = "recoils_per_hits",
        RallyNeedCrack = "rally_need_crack",
        RallyNeedRegular = "rally_need_regular",
        RallyNeedPoor = "rally_need_poor",
        RallyNoEnemy = "rally_no_enemy",
        OutOfCommand = "out_of_command",
        GradeStep = "grade_step",
        DefFireInfPoor = "def_fire_inf_poor",
        DefFireInfRegular = "def_fire_inf_regular",
        DefFireInfCrack = "def_fire_inf_crack",
        DefFireArtPoor = "def_fire_art_poor",
        DefFireArtRegular = "def_fire_art_regular",
        DefFireArtCrack = "def_fire_art_crack",
        DefFireDisPoor = "def_fire_dis_poor",
        DefFireDisRegular = "def_fire_dis_regular",
        DefFireDisCrack = "def_fire_dis_crack",
        GrenadiersFirstRound = "grenadiers_first_round",
        VsCover = "vs_cover",
        Disordered = "disordered",
        FlankRear = "flank_rear",
        Shaken = "shaken",
        CavalryVsSquare = "cavalry_vs_square",
        HitAdvantage = "hit_advantage",
        HitEven = "hit_even",
        HitDisadvantage = "hit_disadvantage",
        PursuitMultiplier = "pursuit_multiplier",
        GunnerMultiplier = "gunner_multiplier",
        CrewPerDie = "crew_per_die",
        RecoilMove = "recoil_move",
        RecoilGapEnemy = "recoil_gap_enemy",
        RecoilGapFriend = "recoil_gap_friend",
        RecoilMax = "recoil_max",
        RecoilHalfAngle = "recoil_half_angle",
        ShatterFraction = "shatter_fraction",
        LRefusedShare = "l_refused_share",
        RoadMultiplier = "road_multiplier",
        TownFireFraction = "town_fire_fraction",
        TownAttackMultiple = "town_attack_multiple",
        ArmyBreakFraction = "army_break_fraction",
        GeneralMove = "general_move",
        /// Reference only: the typical radius: shown; each general's radius comes from its scenario.
        CommandRadius = "command_radius",
        CommandNeed = "command_need",
        GeneralDangerHits = "general_danger_hits",
        GeneralDangerNeed = "general_danger_need",
        DrillBonus = "drill_bonus",
        SkirmishFallback = "skirmish_fallback",
        SkirmishEvadeNeed = "skirmish_evade_need",
        SkirmishLeash = "skirmish_leash",
        FallbackSegment = "fallback_segment",
        FallbackGeneral = "fallback_general",
        VarDefFireCrack = "var_def_fire_crack",
        VarDefFireRegular = "var_def_fire_regular",
        VarDefFirePoor = "var_def_fire_poor",
        VarDefFireGuns = "var_def_fire_guns",
        VarDefFireDisordered = "var_def_fire_disordered",
        VariableHitBest = "variable_hit_best",
    }
}

/// Numbers of the data file no procedure reads: facts of the game's scales shown in the rules
/// reference.
pub const REFERENCE_ONLY: &[N] = &[N::FigureMen, N::PacesPerInch, N::CommandRadius];

rules_keys! {
    /// The shooting factors of the data file (`shooting_factors`).
    pub enum Shooting {
        Disordered = "disordered",
        Moved = "moved",
        Cover = "cover",
        SkirmishTarget = "skirmish_target",
    }
}

rules_keys! {
    /// The optional rules a scenario may switch on (`options`), in the data file's order.
    pub enum Opt {
        Generals = "generals",
        Drill = "drill",
        LightInfantry = "light_infantry",
        SkirmishDefend = "skirmish_defend",
        VoluntaryFallback = "voluntary_fallback",
        RegimentalGuns = "regimental_guns",
        VariableDefensiveFire = "variable_defensive_fire",
        VariableChanceToHit = "variable_chance_to_hit",
    }
}

/// Old Dessauer with the optional rules in use.
#[derive(Clone, Debug)]
pub struct OldDessauer {
    pub data: OdData,
    /// The optional rules in use, as the scenario names them and as typed.
    pub options: Vec<String>,
    on: Vec<Opt>,
    numbers: Keyed<N, Number>,
    shooting: Keyed<Shooting, Factor>,
    option_defs: Keyed<Opt, OptionDef>,
}

/// Grade on the crack / regular / poor ladder: poor 0, regular 1, crack 2.
pub fn grade(c: Class) -> i32 {
    match c {
        Class::Militia => 0,
        Class::Regular => 1,
        Class::Superior | Class::Elite => 2,
    }
}

pub fn grade_name(c: Class) -> &'static str {
    match grade(c) {
        0 => "poor",
        1 => "regular",
        _ => "crack",
    }
}

impl OldDessauer {
    pub fn load() -> Result<Self, String> {
        Self::from_ron(DATA)
    }

    pub fn from_ron(text: &str) -> Result<Self, String> {
        let data: OdData = ron::from_str(text).map_err(|e| format!("ruleset data: {e}"))?;
        let numbers = Keyed::take(
            &data.numbers,
            |n| &n.key,
            Number::clone,
            FILE,
            text,
            "rules number",
        )?;
        let shooting = Keyed::factors(&data.shooting_factors, FILE, text)?;
        let option_defs = Keyed::take(
            &data.options,
            |o| &o.key,
            OptionDef::clone,
            FILE,
            text,
            "optional rule",
        )?;
        if data.troops.is_empty() {
            return Err("ruleset data: no troop types".into());
        }
        let od = OldDessauer {
            data,
            options: Vec::new(),
            on: Vec::new(),
            numbers,
            shooting,
            option_defs,
        };
        // An L refuses some of its stands and keeps some on the line's front.
        let share = od.num(N::LRefusedShare);
        if !(share > 0.0 && share < 1.0) {
            return Err(format!(
                "ruleset data: an L refuses a share of its stands between 0 and 1, not {share}"
            ));
        }
        // The variable chance to hit never hits better than its ruling says.
        let best = od.num(N::VariableHitBest);
        if od
            .data
            .variable_hit
            .iter()
            .any(|r| f32::from(r.need) < best)
        {
            return Err(format!(
                "ruleset data: the variable chance to hit needs {best} at best"
            ));
        }
        Ok(od)
    }

    /// Switches these optional rules on and all others off, refusing unknown ones.
    pub(super) fn choose_options(&mut self, options: &[String]) -> Result<(), String> {
        let known: Vec<&str> = Opt::ALL.iter().map(|o| o.key()).collect();
        self.options = super::common::choose_options(&known, options)?;
        self.on = Opt::ALL
            .iter()
            .copied()
            .filter(|o| self.options.iter().any(|x| x == o.key()))
            .collect();
        Ok(())
    }

    /// Is this optional rule in use?
    pub fn opt(&self, o: Opt) -> bool {
        self.on.contains(&o)
    }

    /// An optional rule as the data file gives it.
    pub fn option_def(&self, o: Opt) -> &OptionDef {
        self.option_defs.get(o)
    }

    /// A rules number.
    pub fn num(&self, k: N) -> f32 {
        self.numbers.get(k).value
    }

    /// A rules number, rounded to a whole one.
    pub fn int(&self, k: N) -> i32 {
        self.num(k).round() as i32
    }

    /// A rules number as a factor with its source.
    pub fn factor(&self, k: N, name: &str) -> Factor {
        let n = self.numbers.get(k);
        Factor {
            name: name.to_string(),
            value: n.value.round() as i32,
            source: n.source.clone(),
        }
    }

    pub fn shooting_factor(&self, k: Shooting) -> Factor {
        self.shooting.get(k).clone()
    }

    pub fn troop_code(&self, code: &str) -> Option<&Troop> {
        self.data.troops.iter().find(|t| t.code == code)
    }

    /// The troop type of a unit on the table. A scenario naming a troop code the data file lacks
    /// is refused when it loads, so every unit has one: a missing one is a fault of the program,
    /// never read as another troop type.
    pub fn troop(&self, u: &Unit) -> &Troop {
        self.troop_code(&u.troop).unwrap_or_else(|| {
            panic!(
                "unit '{}' has the troop code '{}', which {FILE} lacks",
                u.id, u.troop
            )
        })
    }

    pub fn kind(&self, u: &Unit) -> Kind {
        self.troop(u).kind
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A number misspelt, given twice or missing is refused at load with the file and line,
    /// never read as 0.
    #[test]
    fn a_number_misspelt_twice_or_missing_is_a_load_error() {
        let misspelt = DATA.replace("key: \"half_speed\"", "key: \"half_sped\"");
        let e = OldDessauer::from_ron(&misspelt).unwrap_err();
        assert!(
            e.contains("old_dessauer.ron:22:") && e.contains("'half_sped'"),
            "{e}"
        );
        let twice = DATA.replace("key: \"shoot_need\"", "key: \"half_speed\"");
        let e = OldDessauer::from_ron(&twice).unwrap_err();
        assert!(e.contains("'half_speed' is given twice"), "{e}");
        let missing = DATA
            .lines()
            .filter(|l| !l.contains("key: \"moved\""))
            .collect::<Vec<_>>()
            .join("\n");
        let e = OldDessauer::from_ron(&missing).unwrap_err();
        assert!(e.contains("the factor 'moved' is missing"), "{e}");
        let unknown = DATA.replace("key: \"drill\"", "key: \"drilling\"");
        let e = OldDessauer::from_ron(&unknown).unwrap_err();
        assert!(e.contains("optional rule 'drilling'"), "{e}");
    }
}
