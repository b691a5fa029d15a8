//! Rulesets: one trait, one enum for runtime choice, one module per ruleset (DBN family shared).

pub mod bbb;
pub mod books;
pub mod common;
pub mod dbn;
pub mod doctrine;
pub mod hal25;
pub mod old_dessauer;
pub mod view;

pub use common::{Going, MovePlan};
pub use view::{
    Action, ActionGroup, Card, Chance, Choice, Deployment, Figures, Ink, Layer, Look, Mark,
    Measure, MoveRequest, Outlook, OutlookPart, RefRow, RefSection, Reference, Roll, Ruling,
    ScenarioField, StateView, TurnWords, UnitModel, UnitState,
};

use super::battle::Battle;
use super::command::{Command, Event, RuleError};
use super::dice::{Throw, name_throws};
use super::geometry::{Base, Pt};
use super::log::Events;
use super::model::{Class, Flags, Formation, Own, Phase, Side, SideInfo, Unit, UnitId};
use super::scenario::raw::RawUnit;
use super::terrain::Terrain;
use crate::rules::command::RerollRefusal;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One line of a results table, for the rules reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultRow {
    pub table: String,
    pub situation: String,
    pub outcome: String,
    pub source: String,
}

/// A unit as the scenario leaves it to the ruleset: its footprint, formation, stands and state.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitSetup {
    /// Frontage and depth in mm.
    pub size: (f32, f32),
    pub formation: Formation,
    /// Figures in each stand (empty for single-base units).
    pub stands: Vec<u32>,
    pub shaken: bool,
    /// Ammunition packs carried at the start.
    pub packs: u32,
    /// What the ruleset alone records of the unit at the start (`Status::own`).
    pub own: Own,
    /// The scenario's flags, read as the ruleset's own.
    pub flags: Flags,
}

/// What every ruleset does: the whole of what the window, the command line, the log and the
/// players may know of it.
pub trait Ruleset: doctrine::Doctrine {
    // ----- identity and the table -------------------------------------------------------

    /// Short id used in scenarios ("db7yw").
    fn id(&self) -> &str;
    fn name(&self) -> &str;
    /// The text of the ruleset's data file as compiled in (a batch's digest reads it).
    fn data_text(&self) -> &'static str;
    fn measure(&self) -> Measure;
    fn unit_model(&self) -> UnitModel;
    /// Millimetres per measuring unit when the scenario does not say.
    fn default_mm_per_unit(&self) -> f32;
    /// Millimetres per unit for a scenario's `paces_per_inch`, or why it does not apply.
    fn mm_per_unit(&self, paces_per_inch: Option<f32>) -> Result<f32, String> {
        match paces_per_inch {
            None => Ok(self.default_mm_per_unit()),
            Some(_) if self.measure() != Measure::Paces => Err(format!(
                "{} measures in {}: paces_per_inch does not apply",
                self.id(),
                self.measure()
            )),
            Some(p) if p.is_finite() && p > 0.0 && p <= 10_000.0 => Ok(25.4 / p),
            Some(_) => Err("paces_per_inch must be a positive number up to 10000".into()),
        }
    }

    // ----- units and armies -------------------------------------------------------------

    /// Frontage and depth (mm) of a unit of this troop type, or None if the type is unknown.
    fn base_size(&self, troop: &str) -> Option<(f32, f32)>;
    /// Troop codes this ruleset knows.
    fn troop_codes(&self) -> Vec<String>;
    /// The ruleset's troop table: each code with its name ("Ms", "Musketeers"), in the data's
    /// order (what a scenario designer picks units from).
    fn troop_table(&self) -> Vec<(String, String)> {
        self.troop_codes()
            .into_iter()
            .map(|c| (c.clone(), c))
            .collect()
    }
    /// Units small enough to share ground with others (generals, regimental guns).
    fn shares_ground(&self, troop: &str) -> bool {
        let _ = troop;
        false
    }
    /// Whether friendly units may end a move on each other's ground (and are disordered for
    /// it) rather than be refused.
    fn friends_intermix(&self) -> bool {
        false
    }
    /// The side that takes a scenario's objective at `at` now by this ruleset's holding rule,
    /// if one does (`within`: the scenario's own distance, in this ruleset's measure, in place
    /// of the rule's). A side keeps a place it took until the enemy takes it
    /// (`rules::victory::record_holders`).
    fn holder_near(&self, b: &Battle, at: Pt, within: Option<f32>) -> Option<Side>;
    /// The distance of the holding rule, in this ruleset's measure (the board's ring).
    fn holding_radius(&self) -> f32;
    /// What a side has lost and had at the start, as this ruleset counts its losses (a
    /// scenario's `Lost` condition); a unit that left the table by `Command::Exit` is no loss.
    fn units_lost(&self, b: &Battle, side: Side) -> (f32, f32);
    /// What a side has lost of its strength and had at the start, counted in what its ruleset
    /// counts strength in: the bases a BBB brigade loses before it goes, else as
    /// `units_lost`. What an assessment of a position and a batch report weigh losses by.
    fn strength_lost(&self, b: &Battle, side: Side) -> (f32, f32) {
        self.units_lost(b, side)
    }
    /// What a side has lost and had at the start, counted in the smallest thing its rules take
    /// as casualties: an Old Dessauer unit's figures, else as `strength_lost`. How hard a
    /// batch's battles were fought: a battle in which battalions were worn to a third of their
    /// men but none was shattered was fought. The planner's assessment keeps `strength_lost`
    /// (counted in figures there, it made the planner's Prussians at the Lobosch win fewer
    /// games against every other player).
    fn casualties(&self, b: &Battle, side: Side) -> (f32, f32) {
        self.strength_lost(b, side)
    }
    /// The losses, as `units_lost` counts them, at which the side's army breaks by the
    /// ruleset's own rule (or, where the rule is a test, begins to test whether it goes);
    /// None where the ruleset has no such rule. What an assessment of a position reads the
    /// progress to breaking each army by.
    fn break_point(&self, b: &Battle, side: Side) -> Option<f32>;
    /// The states beyond hits, shaken, disordered and limbered that a scenario may set for a
    /// unit of this troop type (`volley check` refuses the others, naming these). None by
    /// default.
    fn unit_states(&self, troop: &str) -> Vec<UnitState> {
        let _ = troop;
        Vec::new()
    }
    /// The unit's state in this ruleset's words (`volley run --json`): the shared status read
    /// plainly by default.
    fn state_of(&self, u: &Unit) -> StateView {
        StateView::plain(u)
    }
    /// Checks a scenario's unit of a known troop type and fills in what the scenario left out.
    fn prepare_unit(&self, u: &RawUnit) -> Result<UnitSetup, String>;
    /// Where a scenario's unit's stands start when they stand apart from its one base (an
    /// Old Dessauer L), one base per stand; None for a unit standing as its base. `base` is
    /// the base `prepare_unit`'s size gives at the scenario's place.
    fn starting_stands(&self, u: &RawUnit, base: &Base) -> Result<Option<Vec<Base>>, String> {
        let _ = (u, base);
        Ok(None)
    }
    /// A scenario's deployment zones and objective checked against the ruleset's deployment
    /// rules: each problem in words.
    fn check_deployment(
        &self,
        zones: &[crate::rules::battle::Zone],
        objective: Option<&crate::rules::battle::Objective>,
        sides: &[SideInfo],
        mm_per_unit: f32,
    ) -> Vec<String> {
        let _ = (zones, objective, sides, mm_per_unit);
        Vec::new()
    }
    /// A scenario that claims the ruleset's standard table (`standard: true`), checked: each
    /// problem in words.
    fn check_standard(
        &self,
        table_mm: (f32, f32),
        terrain: &Terrain,
        units: &[Unit],
        zones: &[crate::rules::battle::Zone],
        mm_per_unit: f32,
    ) -> Vec<String> {
        let _ = (table_mm, terrain, units, zones, mm_per_unit);
        vec![format!("{} has no standard table to claim", self.id())]
    }
    /// An army checked against the ruleset's army list: each problem in words.
    fn validate_army(&self, units: &[&Unit], side: &SideInfo, terrain: &Terrain) -> Vec<String> {
        let _ = (units, side, terrain);
        Vec::new()
    }
    /// What `volley check` tells of a side's army besides its errors: its points and the army
    /// list's verdict where the rules have lists (`listed`: the scenario asks for the check),
    /// and warnings the rules give (a brigade with no general in command of it). Nothing by
    /// default.
    fn army_notes(
        &self,
        units: &[&Unit],
        side: &SideInfo,
        listed: bool,
        terrain: &Terrain,
    ) -> Vec<String> {
        let _ = (units, side, listed, terrain);
        Vec::new()
    }
    /// The name of a quality class in this ruleset's words.
    fn class_name(&self, class: Class) -> String {
        format!("{class:?}")
    }

    // ----- the turn ---------------------------------------------------------------------

    /// The phase a new battle starts in.
    fn first_phase(&self, units: &[Unit]) -> Phase;
    /// The phases of a turn, in order.
    fn phases(&self) -> Vec<Phase>;
    /// The turn bar's words now.
    fn turn_words(&self, b: &Battle) -> TurnWords;
    /// Resolves a command, emitting events through `battle.emit`.
    fn execute(
        &self,
        battle: &mut Battle,
        cmd: &Command,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError>;
    /// Checks that follow every command: army break, objectives, turn limit.
    fn after_command(&self, battle: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError>;

    // ----- moving -----------------------------------------------------------------------

    /// Checks a move of a unit, a group or one stand without making it (the window calls this
    /// every frame of a drag).
    fn check_move(&self, b: &Battle, req: &MoveRequest) -> Result<MovePlan, RuleError>;
    /// The unit may start a move now (by drag).
    fn may_move(&self, b: &Battle, u: &Unit) -> bool;
    /// The sides whose units may be given commands now, the one at the seat first (BBB's
    /// defensive fire is the side not moving; evading answers the moving side).
    fn acting_sides(&self, b: &Battle) -> Vec<crate::rules::model::Side> {
        vec![b.active]
    }
    /// Whether the sides acting now play their parts one after the other rather than at once:
    /// at a hotseat table the first side's end of its part hands the seat to the other, whose
    /// end ends the step. The rules see one step either way (one `EndPhase`), so order files
    /// and saves do not change. None by default.
    fn in_turns(&self, b: &Battle) -> bool {
        let _ = b;
        false
    }
    /// Whether `side` has a part to play now besides ending the phase; if not, the words that
    /// say why ("no unit of Austria can fire: none of Prussia's moved within reach"). A hotseat
    /// window hands the seat to a side only when it has.
    fn part_to_play(&self, b: &Battle, side: crate::rules::model::Side) -> Result<(), String> {
        let _ = (b, side);
        Ok(())
    }
    /// The unit's stands may move one by one (Ctrl+drag).
    fn loose_stands(&self, b: &Battle, u: &Unit) -> bool {
        let _ = (b, u);
        false
    }
    /// A word on a checked move beyond distance and going ("1 command point").
    fn plan_note(&self, plan: &MovePlan) -> Option<String> {
        let _ = plan;
        None
    }

    // ----- rolls ------------------------------------------------------------------------

    /// The command a click on an enemy gives now, if any.
    fn target_command(&self, b: &Battle, own: &UnitId, enemy: &UnitId) -> Option<Command>;
    /// Factors, dice and exact odds of a command that rolls, before the dice.
    fn preview(&self, b: &Battle, cmd: &Command) -> Result<Outlook, RuleError>;

    // ----- what the window shows ----------------------------------------------------------

    fn unit_card(&self, b: &Battle, u: &Unit) -> Card;
    /// The buttons the unit has now.
    fn actions(&self, b: &Battle, u: &Unit) -> Vec<ActionGroup>;
    /// The formal deployment step now under way, if any.
    fn deployment(&self, b: &Battle) -> Option<Deployment> {
        let _ = b;
        None
    }
    /// Overlays of these layers: zones of the side not moving, and for the selected unit its
    /// arcs, sight, reach and eligible targets.
    fn overlays(&self, b: &Battle, selected: Option<&Unit>, layers: &[Layer]) -> Vec<Mark>;
    /// How a unit is drawn beyond its base.
    fn look(&self, b: &Battle, u: &Unit) -> Look;
    fn reference(&self) -> Reference;
    /// The winner were the turn limit reached now, by the scenario's victory conditions at
    /// the limit (None: a draw), with the reason in words. The opponent plays its last bound
    /// by it: keeping a lead, or risking everything to turn a loss or a draw.
    fn result_at_limit(&self, b: &Battle) -> (Option<Side>, String);
    /// Lines for the game-over screen (losses against strength).
    fn standing(&self, b: &Battle) -> Vec<String> {
        let _ = b;
        Vec::new()
    }
    /// The ruleset's own words for an event, where the common ones do not fit.
    fn words(&self, b: &Battle, e: &Event) -> Option<String> {
        let _ = (b, e);
        None
    }

    // ----- optional rules -----------------------------------------------------------------

    /// The optional rules a game may switch on: key and name.
    fn optional_rules(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The optional rules in use.
    fn options(&self) -> &[String] {
        &[]
    }
    /// Switches on these optional rules (and off all others).
    fn set_options(&mut self, options: &[String]) -> Result<(), String> {
        if options.is_empty() {
            Ok(())
        } else {
            Err(format!("{} has no optional rules", self.id()))
        }
    }
    fn rulings(&self) -> &[Ruling];

    // ----- brigades and re-rolls -------------------------------------------------------------

    /// The scenario fields only some rulesets read that this one does (units' brigades, towns'
    /// points of fire); a scenario setting another is refused. None by default.
    fn scenario_fields(&self) -> &'static [ScenarioField] {
        &[]
    }
    /// Checks that `by` may throw again a die of the last command's failed roll for `unit`, and
    /// says which of that command's dice (counted from 0) is thrown again.
    fn reroll(&self, b: &Battle, by: &UnitId, unit: &UnitId) -> Result<usize, RuleError> {
        let _ = (b, by, unit);
        Err(RuleError::refused(
            RerollRefusal::NoRerolls,
            format!("{} has no re-rolls", self.name()),
        ))
    }
    /// Which throw each of a command's `dice` was, read from its events: a re-roll's replay
    /// hands each throw its old die. By default no die is named, and each is known by its place.
    fn throws(&self, events: Events<'_>, dice: usize) -> Vec<Throw> {
        let _ = events;
        name_throws([], dice)
    }
}

/// The rulesets volley knows, and those it recognises but does not play yet.
pub const KNOWN_RULESETS: [&str; 5] = ["db7yw", "dbfpw", "bbb7yw", "old_dessauer", "hal25"];

/// The ruleset chosen at run time.
#[derive(Clone, Debug)]
pub enum AnyRuleset {
    Bbb7yw(Arc<bbb::Bbb7yw>),
    Db7yw(Arc<dbn::db7yw::Db7yw>),
    Dbfpw(Arc<dbn::dbfpw::Dbfpw>),
    Hal25(Arc<hal25::Hal25>),
    OldDessauer(Arc<old_dessauer::OldDessauer>),
}

impl AnyRuleset {
    /// Loads a ruleset by id from the data compiled into the program.
    pub fn load(id: &str) -> Result<Self, String> {
        match id {
            "bbb7yw" => Ok(AnyRuleset::Bbb7yw(Arc::new(bbb::Bbb7yw::load()?))),
            "db7yw" => Ok(AnyRuleset::Db7yw(Arc::new(dbn::db7yw::Db7yw::load()?))),
            "dbfpw" => Ok(AnyRuleset::Dbfpw(Arc::new(dbn::dbfpw::Dbfpw::load()?))),
            "hal25" => Ok(AnyRuleset::Hal25(Arc::new(hal25::Hal25::load()?))),
            "old_dessauer" => Ok(AnyRuleset::OldDessauer(Arc::new(
                old_dessauer::OldDessauer::load()?,
            ))),
            other => Err(format!(
                "unknown ruleset '{other}' (known: {})",
                KNOWN_RULESETS.join(", ")
            )),
        }
    }

    /// Switches on a scenario's optional rules.
    pub fn with_options(self, options: &[String]) -> Result<Self, String> {
        fn set<R: Ruleset + Clone>(r: Arc<R>, options: &[String]) -> Result<Arc<R>, String> {
            let mut r = r.as_ref().clone();
            r.set_options(options)?;
            Ok(Arc::new(r))
        }
        if options == self.get().options() {
            return Ok(self);
        }
        Ok(match self {
            AnyRuleset::Bbb7yw(r) => AnyRuleset::Bbb7yw(set(r, options)?),
            AnyRuleset::Db7yw(r) => AnyRuleset::Db7yw(set(r, options)?),
            AnyRuleset::Dbfpw(r) => AnyRuleset::Dbfpw(set(r, options)?),
            AnyRuleset::Hal25(r) => AnyRuleset::Hal25(set(r, options)?),
            AnyRuleset::OldDessauer(r) => AnyRuleset::OldDessauer(set(r, options)?),
        })
    }

    pub fn get(&self) -> &(dyn Ruleset + 'static) {
        match self {
            AnyRuleset::Bbb7yw(r) => r.as_ref(),
            AnyRuleset::Db7yw(r) => r.as_ref(),
            AnyRuleset::Dbfpw(r) => r.as_ref(),
            AnyRuleset::Hal25(r) => r.as_ref(),
            AnyRuleset::OldDessauer(r) => r.as_ref(),
        }
    }
}

impl std::ops::Deref for AnyRuleset {
    type Target = dyn Ruleset;
    fn deref(&self) -> &Self::Target {
        self.get()
    }
}
