//! Old Dessauer's data file (assets/rulesets/old_dessauer.ron): its troop types, rules numbers,
//! shooting factors, optional rules and rulings, read and checked at load, and the grades.

use super::common::{FactorDef, Number, factor_in, number, require_numbers};
use crate::rules::command::Factor;
use crate::rules::model::{Class, Unit};
use crate::rules::ruleset::Ruling;
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

/// Numbers the engine reads: a data file lacking one is refused at load.
pub const REQUIRED_NUMBERS: &[&str] = &[
    "half_speed",
    "zone_of_control",
    "charge_straight_foot",
    "charge_straight_horse",
    "form_cost",
    "min_figures_to_shoot",
    "arc_half_angle",
    "musket_range",
    "gun_range",
    "regimental_gun_range",
    "shoot_need",
    "regimental_gun_need",
    "dense_dice",
    "ranks_striking",
    "square_faces_striking",
    "enfilade_angle",
    "fire_gap",
    "hanging_flank_foot",
    "hanging_flank_horse",
    "hanging_flank_guns",
    "woods_visibility",
    "morale_need_crack",
    "morale_need_regular",
    "morale_need_poor",
    "morale_per_hit",
    "recoils_per_hits",
    "rally_need_crack",
    "rally_need_regular",
    "rally_need_poor",
    "rally_no_enemy",
    "out_of_command",
    "grade_step",
    "def_fire_inf_poor",
    "def_fire_inf_regular",
    "def_fire_inf_crack",
    "def_fire_art_poor",
    "def_fire_art_regular",
    "def_fire_art_crack",
    "def_fire_dis_poor",
    "def_fire_dis_regular",
    "def_fire_dis_crack",
    "grenadiers_first_round",
    "vs_cover",
    "disordered",
    "flank_rear",
    "shaken",
    "cavalry_vs_square",
    "hit_advantage",
    "hit_even",
    "hit_disadvantage",
    "pursuit_multiplier",
    "gunner_multiplier",
    "crew_per_die",
    "recoil_move",
    "recoil_gap_enemy",
    "recoil_gap_friend",
    "recoil_max",
    "recoil_half_angle",
    "shatter_fraction",
    "road_multiplier",
    "town_fire_fraction",
    "town_attack_multiple",
    "army_break_fraction",
    "general_move",
    "command_need",
    "general_danger_hits",
    "general_danger_need",
    "drill_bonus",
    "skirmish_fallback",
    "skirmish_evade_need",
    "fallback_segment",
    "fallback_general",
    "var_def_fire_crack",
    "var_def_fire_regular",
    "var_def_fire_poor",
    "var_def_fire_guns",
    "var_def_fire_disordered",
    "l_refused_share",
];

/// The optional rules a scenario may switch on.
pub const OPTIONS: &[&str] = &[
    "generals",
    "drill",
    "light_infantry",
    "skirmish_defend",
    "voluntary_fallback",
    "regimental_guns",
    "variable_defensive_fire",
    "variable_chance_to_hit",
];

/// Old Dessauer with the optional rules in use.
#[derive(Clone, Debug)]
pub struct OldDessauer {
    pub data: OdData,
    pub options: Vec<String>,
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
        require_numbers(&data.numbers, REQUIRED_NUMBERS)?;
        for k in ["disordered", "moved", "cover", "skirmish_target"] {
            if !data.shooting_factors.iter().any(|f| f.key == k) {
                return Err(format!("ruleset data: shooting factor '{k}' is missing"));
            }
        }
        if data.troops.is_empty() {
            return Err("ruleset data: no troop types".into());
        }
        // An L refuses some of its stands and keeps some on the line's front.
        let share = number(&data.numbers, "l_refused_share");
        if !(share > 0.0 && share < 1.0) {
            return Err(format!(
                "ruleset data: an L refuses a share of its stands between 0 and 1, not {share}"
            ));
        }
        // The variable chance to hit never hits better than its ruling says.
        let best = number(&data.numbers, "variable_hit_best");
        if data.variable_hit.iter().any(|r| f32::from(r.need) < best) {
            return Err(format!(
                "ruleset data: the variable chance to hit needs {best} at best"
            ));
        }
        Ok(OldDessauer {
            data,
            options: Vec::new(),
        })
    }

    /// Switches these optional rules on and all others off, refusing unknown ones.
    pub(super) fn choose_options(&mut self, options: &[String]) -> Result<(), String> {
        self.options = super::common::choose_options(OPTIONS, options)?;
        Ok(())
    }

    pub fn opt(&self, key: &str) -> bool {
        self.options.iter().any(|o| o == key)
    }

    pub fn num(&self, key: &str) -> f32 {
        number(&self.data.numbers, key)
    }

    pub fn int(&self, key: &str) -> i32 {
        self.num(key).round() as i32
    }

    /// A rules number as a factor with its source.
    pub fn factor(&self, key: &str, name: &str) -> Factor {
        let n = self.data.numbers.iter().find(|n| n.key == key);
        Factor {
            name: name.to_string(),
            value: n.map(|n| n.value.round() as i32).unwrap_or(0),
            source: n.map(|n| n.source.clone()).unwrap_or_default(),
        }
    }

    pub fn shooting_factor(&self, key: &str) -> Factor {
        factor_in(&self.data.shooting_factors, key)
    }

    pub fn troop_code(&self, code: &str) -> Option<&Troop> {
        self.data.troops.iter().find(|t| t.code == code)
    }

    pub fn troop(&self, u: &Unit) -> &Troop {
        self.troop_code(&u.troop).unwrap_or(&self.data.troops[0])
    }

    pub fn kind(&self, u: &Unit) -> Kind {
        self.troop(u).kind
    }
}
