//! The things on the table: ids, sides, units with their bases, stands and status, and phases.

use super::geometry::Base;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A unit's id as written in the scenario (e.g. "pr-ir1").
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitId(pub String);

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for UnitId {
    fn from(s: &str) -> Self {
        UnitId(s.to_string())
    }
}

/// A side's index in the scenario's list of sides (0 or 1).
pub type Side = usize;

/// Quality class or grade. DBN uses Militia/Regular/Elite/Superior; figure rulesets use
/// Poor/Regular/Crack, mapped onto the same ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Class {
    Militia,
    #[default]
    Regular,
    /// Superior: Ms(S) fire as Elite; DC(S) fight as Elite in close combat.
    Superior,
    Elite,
}

/// Formation of a unit. DBN units are a single base and stay in `Line` unless they limber.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Formation {
    #[default]
    Line,
    Column,
    Square,
    Skirmish,
    /// Conformed to terrain (Old Dessauer's "L"); must reform before moving.
    Conformed,
}

/// Special flags a unit may carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Flag {
    /// Guard: stoic in all combat.
    Guard,
    /// Grenadiers (Prussian grenadiers are stoic in all combat).
    Grenadier,
    /// Stoic by scenario (a named historical unit).
    Stoic,
}

/// Army division for the formal deployment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Division {
    Left,
    Centre,
    Right,
    Reserve,
}

impl Division {
    pub const ORDER: [Division; 4] = [
        Division::Left,
        Division::Centre,
        Division::Right,
        Division::Reserve,
    ];
}

/// A stand of figures (figure rulesets). DBN units have none: the unit is its base.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stand {
    pub figures: u32,
}

/// Everything that can change about a unit during play.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Status {
    pub hits: u32,
    pub shaken: bool,
    pub disordered: bool,
    pub disrupted: bool,
    pub routed: bool,
    /// Artillery limbered to move.
    pub limbered: bool,
    pub low_ammo: bool,
    pub out_of_ammo: bool,
    pub removed: bool,
    /// Not yet placed on the table (formal deployment).
    pub undeployed: bool,
    /// Recoiled and followed up by its enemy: in continuing combat.
    pub continuing: bool,
    /// The unit pursuing this one (figure rulesets: it strikes double).
    #[serde(default)]
    pub pursued_by: Option<UnitId>,
}

/// What a unit did this bound or phase; cleared at the start of each bound.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BoundState {
    pub moved: bool,
    pub fired: bool,
    pub fought: bool,
    /// Limbered or unlimbered this bound: cannot move or fire.
    pub limber_changed: bool,
    /// Recoiled in this close combat phase.
    pub recoiled: bool,
    /// Moved into contact this bound (a charge).
    pub charged: bool,
    /// Pursuing this phase.
    pub pursuing: bool,
    /// Movement allowance used this bound, in the ruleset's units (figure rulesets).
    #[serde(default)]
    pub spent: f32,
    /// Where the unit stood when the bound began, once it has moved.
    #[serde(default)]
    pub turn_start: Option<Base>,
    /// Shooting hits taken this bound, by shooter (figure rulesets test morale against them).
    #[serde(default)]
    pub shot_by: Vec<(UnitId, u32)>,
    /// Changed formation or facing this bound.
    #[serde(default)]
    pub formed: bool,
    /// Failed its command test: does nothing more this bound.
    #[serde(default)]
    pub halted: bool,
}

/// One unit on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    pub name: String,
    pub side: Side,
    /// Troop code of the ruleset (Ms, HC, FA ...).
    pub troop: String,
    pub class: Class,
    pub flags: Vec<Flag>,
    pub base: Base,
    pub formation: Formation,
    pub stands: Vec<Stand>,
    pub division: Option<Division>,
    pub status: Status,
    pub bound: BoundState,
    /// Figure-ruleset details: starting strength, generals, regimental guns.
    #[serde(default)]
    pub extra: UnitExtra,
}

/// What figure rulesets add to a unit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UnitExtra {
    /// Figures at the start (strength for the shattered test).
    pub strength: u32,
    /// A general's leadership (+0, +1, +2).
    pub leadership: i32,
    /// A general's command radius in the ruleset's units (0: none).
    pub command_radius: f32,
    /// The unit a general is attached to.
    pub attached: Option<UnitId>,
    /// A regimental gun's parent unit.
    pub parent: Option<UnitId>,
}

impl Unit {
    pub fn has(&self, f: Flag) -> bool {
        self.flags.contains(&f)
    }
    pub fn alive(&self) -> bool {
        !self.status.removed && !self.status.undeployed
    }
    /// True when `other` stands behind this unit's front line (in its flank or rear).
    pub fn behind_front_line_of(&self, other: &Unit) -> bool {
        self.base.behind_front_line(other.base.centre)
    }
    pub fn figures(&self) -> u32 {
        self.stands.iter().map(|s| s.figures).sum()
    }
}

/// A side as the scenario gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideInfo {
    pub name: String,
    /// Nation for national rules ("prussia", "austria", "russia", "france", "britain", ...).
    pub nation: String,
    /// RGB colour of its bases.
    pub colour: [u8; 3],
    pub commander: String,
    /// The side that defends (fortifies, places the objective).
    pub defender: bool,
}

/// Phases of a bound. Each ruleset uses the ones it needs, in its own order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    Deployment,
    Command,
    Movement,
    Firing,
    CloseCombat,
    Morale,
    GameOver,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Deployment => "deployment",
            Phase::Command => "command",
            Phase::Movement => "movement",
            Phase::Firing => "firing",
            Phase::CloseCombat => "close combat",
            Phase::Morale => "morale",
            Phase::GameOver => "game over",
        }
    }
}
