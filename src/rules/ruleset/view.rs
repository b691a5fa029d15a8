//! What the window, the command line, the log and the players learn of a ruleset: plain data
//! they show or use without knowing which ruleset made it.

use crate::rules::command::{Command, Factor, Step};
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Side, Unit, UnitId};
use serde::{Deserialize, Serialize};

pub use crate::rules::measure::Measure;
pub use crate::rules::roll::Roll;

/// A ruling: where a seed is silent or ambiguous, what the program does and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ruling {
    pub key: String,
    pub topic: String,
    pub ruling: String,
    pub reason: String,
}

/// What a unit is made of on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnitModel {
    /// One element, one base (DBN family).
    SingleBase,
    /// Several bases that move and fight together and are lost one at a time.
    Bases,
    /// Stands carrying figures that are lost one by one.
    Stands,
}

/// A move asked for: of one unit, of a group in contact, or of one loose stand of a unit.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRequest {
    pub units: Vec<UnitId>,
    /// A stand of the (single) unit moving on its own, counted from 1.
    pub stand: Option<usize>,
    pub steps: Vec<Step>,
}

impl MoveRequest {
    pub fn unit(unit: UnitId, steps: Vec<Step>) -> Self {
        MoveRequest {
            units: vec![unit],
            stand: None,
            steps,
        }
    }
    /// The command that makes this move.
    pub fn command(self) -> Command {
        let MoveRequest {
            mut units,
            stand,
            steps,
        } = self;
        match (stand, units.len()) {
            (Some(stand), _) if !units.is_empty() => Command::MoveStand {
                unit: units.remove(0),
                stand,
                steps,
            },
            (_, 1) => Command::Move {
                unit: units.remove(0),
                steps,
            },
            _ => Command::MoveGroup { units, steps },
        }
    }
}

/// One side of a roll about to be made: who rolls, with what, needing what.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutlookPart {
    /// "IR 13" or "IR 13 against IR 20".
    pub heading: String,
    pub factors: Vec<Factor>,
    /// Dice thrown.
    pub dice: u32,
    /// Score each die needs (None: an opposed roll, totals compared).
    pub need: Option<i32>,
    /// The sum in words: "= +5 + die" or "5 points against 4: 4 dice hitting on 5-6".
    pub summary: String,
}

/// One outcome and its exact chance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Chance {
    pub outcome: String,
    pub chance: f64,
    /// What the outcome is worth to the side that gives the command, from -1 (its own unit
    /// lost) through 0 (nothing changes) to +1 (the enemy's unit lost): the opponent weighs
    /// commands by it, and "to win" is the chance of the outcomes above 0.
    pub edge: f64,
}

/// A choice the player may change before the dice: ticking it gives `command`.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub label: String,
    pub on: bool,
    /// The command with this choice flipped.
    pub flipped: Command,
}

/// Factors, dice and the exact chance of every outcome before the dice: one shape for every
/// kind of roll (opposed d6, dice pools, table columns, saves).
#[derive(Clone, Debug, PartialEq)]
pub struct Outlook {
    pub parts: Vec<OutlookPart>,
    /// The parts roll against each other (show them side by side).
    pub opposed: bool,
    /// Rules the chances take in that the factors do not show (a first die).
    pub notes: Vec<String>,
    pub chances: Vec<Chance>,
    pub choices: Vec<Choice>,
}

/// The lines of a unit's card.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    pub title: String,
    pub side: Side,
    pub lines: Vec<String>,
}

impl Card {
    /// The card of a unit the ruleset cannot read (a troop code its data lacks, which loading
    /// refuses): the unit's name and why.
    pub fn unreadable(u: &Unit, why: impl std::fmt::Display) -> Card {
        Card {
            title: u.name.clone(),
            side: u.side,
            lines: vec![why.to_string()],
        }
    }
}

/// A button: its words and the command it sends.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    pub label: String,
    pub command: Command,
}

/// A row of buttons under a title, with a note to read.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ActionGroup {
    pub title: String,
    pub note: String,
    pub actions: Vec<Action>,
}

/// What the formal deployment asks of the side placing now.
#[derive(Clone, Debug, PartialEq)]
pub struct Deployment {
    pub side: Side,
    pub title: String,
    /// Units to place: id and label.
    pub waiting: Vec<(UnitId, String)>,
    pub note: String,
    /// Other things the side may do now (fortify).
    pub actions: Vec<Action>,
    /// The facing a unit placed now takes.
    pub facing: f32,
}

/// Which overlay a mark belongs to (each switched on by its own key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layer {
    /// Fire arcs and ranges.
    Arcs,
    /// Threat zones and zones of control.
    Zones,
    /// Lines of sight and what blocks them.
    Sight,
    /// How far the unit can go.
    Reach,
    /// Enemies it may fire at or fight now (always shown).
    Targets,
}

/// How a mark is inked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    Arc,
    /// A fainter arc (one of several stands).
    StandArc,
    Zone,
    Clear,
    Blocked,
    Blocker,
    Reach,
    /// Reach before the roll that decides the move: where the best roll would let it go.
    ReachIf,
    Target,
}

/// A line on the table: an open or closed polyline in mm.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub layer: Layer,
    pub ink: Ink,
    pub points: Vec<Pt>,
    pub closed: bool,
}

impl Mark {
    pub fn base(layer: Layer, ink: Ink, b: &Base) -> Self {
        Mark {
            layer,
            ink,
            points: b.corners().to_vec(),
            closed: true,
        }
    }
    pub fn line(layer: Layer, ink: Ink, points: Vec<Pt>) -> Self {
        Mark {
            layer,
            ink,
            points,
            closed: false,
        }
    }
}

/// How a unit is drawn beyond its base.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Look {
    /// Each stand's base and figures (empty: the unit is its base).
    pub stands: Vec<(Base, u32)>,
    /// Figures a full stand carries (spacing of the figure dots).
    pub figures_per_stand: u32,
    /// A general or commander: drawn with a gold disc.
    pub general: bool,
    /// The label is written dark (on a commander's gold disc) rather than in the side's contrast.
    pub label_dark: bool,
    /// The words on the unit.
    pub label: String,
    /// The label goes behind the rear edge, clear of the figures.
    pub label_behind: bool,
    /// Hits shown as pips behind the base (figure units show their figures instead).
    pub pips: u32,
    /// Markers beside the base ("LOW", "OUT").
    pub markers: Vec<String>,
    /// What the figures on the base are, for drawing them from above.
    pub arm: Figures,
    /// The states signalled on the base, its counter and its name tag, in the ruleset's sense.
    pub signs: Vec<Sign>,
    /// It garrisons a fortified place: a dark square in its base's corner.
    pub garrison: bool,
    /// It has taken hits: its name and state are shown at every zoom.
    pub hit: bool,
}

impl Look {
    /// The words on its name tag, each in the colour of a sign: the ruleset's markers where it
    /// has any (in the shaken colour), else the words of its signs.
    pub fn badges(&self) -> Vec<(String, Sign)> {
        if self.markers.is_empty() {
            self.signs
                .iter()
                .map(|s| (s.word().to_string(), *s))
                .collect()
        } else {
            self.markers
                .iter()
                .map(|m| (m.clone(), Sign::Shaken))
                .collect()
        }
    }

    /// Whether it has a state to show (hits, a sign, a marker, pips): its name is shown at
    /// every zoom.
    pub fn shows_state(&self) -> bool {
        self.hit || !self.signs.is_empty() || !self.markers.is_empty() || self.pips > 0
    }

    /// The sign that colours its counter's edge: shaken over disordered.
    pub fn worst_sign(&self) -> Option<Sign> {
        [Sign::Shaken, Sign::Disordered]
            .into_iter()
            .find(|s| self.signs.contains(s))
    }
}

/// A state of a unit that the table signals: a sign behind its base, the colour of its counter's
/// edge and a word on its name tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// Shaken, or the ruleset's state of broken morale: a yellow ring.
    Shaken,
    /// Disordered, or the ruleset's state of broken order: an orange diamond.
    Disordered,
}

impl Sign {
    /// The word on a name tag where the ruleset has no markers of its own.
    pub fn word(self) -> &'static str {
        match self {
            Sign::Shaken => "SHAKEN",
            Sign::Disordered => "DISORDERED",
        }
    }

    /// The shared status read plainly: shaken is shaken, disordered disordered.
    pub fn plain(u: &crate::rules::model::Unit) -> Vec<Sign> {
        let mut out = Vec::new();
        if u.status.shaken {
            out.push(Sign::Shaken);
        }
        if u.status.disordered {
            out.push(Sign::Disordered);
        }
        out
    }
}

/// The figures a base carries, as drawn from above.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Figures {
    /// Foot in ranks.
    #[default]
    Foot,
    /// Horsemen.
    Horse,
    /// Guns with their crews (and limbers when limbered).
    Guns,
    /// A general and his staff.
    Command,
    /// Wagons.
    Train,
}

/// The turn bar's words for the moment.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TurnWords {
    pub phase: String,
    /// Who acts now, for the turn line ("both sides"); None: the active side's bound.
    pub acting: Option<String>,
    /// What the side has to spend ("3 command points").
    pub resources: Option<String>,
    /// The button that ends the phase ("End bound"); None: no button.
    pub end: Option<String>,
    /// The controls in a line.
    pub controls: String,
}

/// A row of the rules reference: its cells and where it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct RefRow {
    pub cells: Vec<String>,
    pub source: String,
}

/// A section of the rules reference: a table with column heads, or a list of lines.
#[derive(Clone, Debug, PartialEq)]
pub struct RefSection {
    pub title: String,
    pub open: bool,
    /// Column heads; empty for a list.
    pub columns: Vec<String>,
    pub rows: Vec<RefRow>,
}

impl RefSection {
    /// A table under its column heads, shown open.
    pub fn table(title: &str, columns: &[&str], rows: Vec<RefRow>) -> Self {
        RefSection {
            title: title.to_string(),
            open: true,
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows,
        }
    }
    pub fn list(title: &str, rows: Vec<RefRow>) -> Self {
        RefSection {
            title: title.to_string(),
            open: false,
            columns: Vec::new(),
            rows,
        }
    }
}

/// The rules reference: the ruleset's tables and its rulings.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    pub title: String,
    pub source: String,
    pub sections: Vec<RefSection>,
    pub rulings_title: String,
    pub rulings: Vec<Ruling>,
}

/// A scenario field that only some rulesets read: a scenario that sets one for a ruleset that
/// does not read it is refused when it loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScenarioField {
    /// A unit's `brigade`: the ruleset organises units in brigades.
    Brigade,
    /// A town's or village's `town_points`: the fire it takes before it burns.
    TownPoints,
}

/// A state a unit may be in during a game that a scenario may set (each names a field of a
/// scenario's unit), so that a battle can start where a game would have left it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnitState {
    /// `bases_lost`: bases lost before the battle (the unit's strength is its bases and these).
    BasesLost,
    /// `ammunition: Low` or `Out`.
    Ammunition,
    /// `silenced: true`: artillery that may not fire until it recovers.
    Silenced,
    /// `disrupted: true`.
    Disrupted,
    /// `disorganised: true`.
    Disorganised,
    /// `routed: true`.
    Routed,
    /// `volley_fired: true`: the unit's first volley has been delivered.
    VolleyFired,
    /// `moved: true`: the unit has moved in the bound the battle starts in.
    Moved,
    /// `hold_ground: true`: its owner's standing order to hold the ground if victorious rather
    /// than pursue (where the rules leave the victor the choice).
    HoldGround,
}

impl UnitState {
    /// The scenario field that sets it.
    pub fn field(self) -> &'static str {
        match self {
            UnitState::BasesLost => "bases_lost",
            UnitState::Ammunition => "ammunition",
            UnitState::Silenced => "silenced",
            UnitState::Disrupted => "disrupted",
            UnitState::Disorganised => "disorganised",
            UnitState::Routed => "routed",
            UnitState::VolleyFired => "volley_fired",
            UnitState::Moved => "moved",
            UnitState::HoldGround => "hold_ground",
        }
    }
}

/// A unit's state in its ruleset's words (`volley run --json`): each field true only where the
/// ruleset has that state and the unit is in it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StateView {
    pub shaken: bool,
    pub disordered: bool,
    pub disrupted: bool,
    pub disorganised: bool,
    pub routed: bool,
    pub silenced: bool,
    /// BBB: half or more of its bases lost.
    pub spent: bool,
    pub ammunition: crate::rules::model::Ammo,
    pub packs: u32,
    pub volley_fired: bool,
    pub moved: bool,
    /// Figures lost since the start (units of stands), counting those lost before the battle.
    pub figures_lost: u32,
    /// Bases lost since the start (BBB), counting those lost before the battle.
    pub bases_lost: u32,
}

impl StateView {
    /// The state as the shared status records it, read plainly: shaken is shaken, disordered
    /// disordered (a ruleset whose words differ, or that records a state in its own part of the
    /// status, says so in `Ruleset::state_of`).
    pub fn plain(u: &crate::rules::model::Unit) -> StateView {
        StateView {
            shaken: u.status.shaken,
            disordered: u.status.disordered,
            ammunition: u.status.ammo,
            packs: u.status.packs,
            moved: u.bound.moved,
            figures_lost: if u.stands.is_empty() {
                0
            } else {
                u.extra.strength.saturating_sub(u.figures())
            },
            ..StateView::default()
        }
    }
}
