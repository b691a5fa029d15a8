//! A scenario file as written: the RON it is read into before any check.

use super::victory::RawObjective;
use crate::rules::model::{Ammo, Class, Division, FlagName, Formation};
use crate::rules::ruleset::view::UnitState;
use crate::rules::terrain::FeatureKind;
use serde::{Deserialize, Serialize};

/// A point as written in files: (x, y) in mm.
pub type RawPt = (f32, f32);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    pub width: f32,
    pub height: f32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFeature {
    pub id: String,
    pub kind: FeatureKind,
    #[serde(default)]
    pub name: String,
    pub points: Vec<RawPt>,
    #[serde(default)]
    pub width: f32,
    #[serde(default = "one")]
    pub level: u8,
    #[serde(default)]
    pub steep: bool,
    #[serde(default)]
    pub fortified: bool,
    /// The points of artillery fire a town takes before it burns (Hal's 25mm; the ruleset's
    /// figure when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub town_points: Option<u32>,
}

pub(super) fn one() -> u8 {
    1
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSide {
    pub name: String,
    #[serde(default)]
    pub nation: String,
    pub colour: (u8, u8, u8),
    #[serde(default)]
    pub commander: String,
    #[serde(default)]
    pub defender: bool,
    /// Check this side against the ruleset's army list.
    #[serde(default)]
    pub army_list: bool,
    /// The coat its figures are painted in where a unit gives none, as "#rrggbb".
    #[serde(default)]
    pub coat: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawUnit {
    pub id: String,
    #[serde(default)]
    pub name: String,
    pub side: usize,
    #[serde(rename = "type")]
    pub troop: String,
    #[serde(default)]
    pub class: Class,
    #[serde(default)]
    pub flags: Vec<FlagName>,
    /// Centre in mm; None waits for formal deployment.
    #[serde(default)]
    pub at: Option<RawPt>,
    #[serde(default)]
    pub facing: f32,
    #[serde(default)]
    pub formation: Option<Formation>,
    /// Figures in each stand (figure rulesets only).
    #[serde(default)]
    pub stands: Option<Vec<u32>>,
    #[serde(default)]
    pub division: Option<Division>,
    #[serde(default)]
    pub limbered: bool,
    #[serde(default)]
    pub hits: u32,
    /// A general's leadership, +0 to +2 (figure rulesets, generals rule).
    #[serde(default)]
    pub leadership: Option<i32>,
    /// A general's command radius in inches.
    #[serde(default)]
    pub command_radius: Option<f32>,
    /// The unit a general starts attached to.
    #[serde(default)]
    pub attached: Option<String>,
    /// A regimental gun's parent regiment.
    #[serde(default)]
    pub parent: Option<String>,
    /// Starts disordered.
    #[serde(default)]
    pub disordered: bool,
    /// Starts shaken.
    #[serde(default)]
    pub shaken: bool,
    /// Figures lost before the battle (figure rulesets): the unit's strength is its stands'
    /// figures plus these.
    #[serde(default)]
    pub figures_lost: u32,
    /// Ammunition packs carried (DBFPW's ammunition supply); the ruleset's default if absent.
    #[serde(default)]
    pub packs: Option<u32>,
    /// Bases in the unit (BBB); the ruleset's default if absent.
    #[serde(default)]
    pub bases: Option<u32>,
    /// Base frontage and depth in mm (BBB lets a scenario choose its basing).
    #[serde(default)]
    pub base: Option<(f32, f32)>,
    /// The brigade it belongs to; for a brigadier, the brigade he commands (Hal's).
    #[serde(default)]
    pub brigade: Option<String>,
    /// Bases lost before the battle (BBB): the unit's strength is its bases and these.
    #[serde(default)]
    pub bases_lost: u32,
    /// Ammunition `Low` or `Out` (DBFPW's ammunition supply); full if absent.
    #[serde(default)]
    pub ammunition: Option<Ammo>,
    /// Starts silenced (BBB artillery).
    #[serde(default)]
    pub silenced: bool,
    /// Starts disrupted (BBB).
    #[serde(default)]
    pub disrupted: bool,
    /// Starts disorganised (Hal's).
    #[serde(default)]
    pub disorganised: bool,
    /// Starts routed (Hal's).
    #[serde(default)]
    pub routed: bool,
    /// Its first volley already delivered (Hal's).
    #[serde(default)]
    pub volley_fired: bool,
    /// Has moved in the bound the battle starts in (its side must move first).
    #[serde(default)]
    pub moved: bool,
    /// Its owner's standing order: hold the ground if victorious rather than pursue.
    #[serde(default)]
    pub hold_ground: bool,
    /// Starts in an L refusing this flank (Old Dessauer): `at` and `facing` are those of the
    /// line it formed from.
    #[serde(default)]
    pub refused: Option<Flank>,
    /// The regiment's coat, as "#rrggbb": its painted figures wear it (its side's coat, or the
    /// side's colour, where absent).
    #[serde(default)]
    pub coat: Option<String>,
}

/// A coat's colour as a scenario writes it: "#" and six hex digits.
pub fn coat_colour(s: &str) -> Result<[u8; 3], String> {
    let hex = s.strip_prefix('#').unwrap_or("");
    let byte = |i: usize| {
        hex.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
    };
    match (hex.len(), byte(0), byte(2), byte(4)) {
        (6, Some(r), Some(g), Some(b)) if hex.bytes().all(|c| c.is_ascii_hexdigit()) => {
            Ok([r, g, b])
        }
        _ => Err(format!(
            "coat \"{s}\" is not a colour: write \"#\" and six hex digits, e.g. \"#f0ece0\""
        )),
    }
}

/// A unit's left or right flank, as its own front sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Flank {
    Left,
    Right,
}

impl RawUnit {
    /// The states this unit sets beyond hits, shaken, disordered and limbered.
    pub fn states(&self) -> Vec<UnitState> {
        [
            (self.bases_lost > 0, UnitState::BasesLost),
            (
                self.ammunition.is_some_and(|a| a != Ammo::Full),
                UnitState::Ammunition,
            ),
            (self.silenced, UnitState::Silenced),
            (self.disrupted, UnitState::Disrupted),
            (self.disorganised, UnitState::Disorganised),
            (self.routed, UnitState::Routed),
            (self.volley_fired, UnitState::VolleyFired),
            (self.moved, UnitState::Moved),
            (self.hold_ground, UnitState::HoldGround),
        ]
        .into_iter()
        .filter_map(|(set, s)| set.then_some(s))
        .collect()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawZone {
    pub side: usize,
    pub min: RawPt,
    pub max: RawPt,
}

/// A scenario as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub name: String,
    #[serde(default)]
    pub date: String,
    #[serde(default)]
    pub description: String,
    pub ruleset: String,
    pub table: RawTable,
    /// Paces per inch for paced rulesets (default: the ruleset's).
    #[serde(default)]
    pub paces_per_inch: Option<f32>,
    #[serde(default)]
    pub seed: u64,
    pub turn_limit: u32,
    #[serde(default)]
    pub victory: String,
    #[serde(default)]
    pub terrain: Vec<RawFeature>,
    pub sides: Vec<RawSide>,
    pub units: Vec<RawUnit>,
    #[serde(default)]
    pub deployment: Vec<RawZone>,
    #[serde(default)]
    pub objective: Option<RawObjective>,
    /// Places a side holds (every ruleset; BBB's decide its result at the limit): each with
    /// its starting owner, worth and holding rule.
    #[serde(default)]
    pub objectives: Vec<RawObjective>,
    /// What ends the battle and decides it at the turn limit, in place of the ruleset's own
    /// result at the limit (which decides where this is absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory_conditions: Option<super::victory::RawConditions>,
    /// Optional rules in use, by the keys of the ruleset's data file.
    #[serde(default)]
    pub options: Vec<String>,
    /// The scenario claims the ruleset's standard table: checked.
    #[serde(default)]
    pub standard: bool,
}
