//! Rulesets: one trait, one enum for runtime choice, one module per ruleset (DBN family shared).

pub mod army;
pub mod db7yw;
pub mod dbn;

use super::battle::Battle;
use super::command::{Command, Event, RuleError};
use super::model::{Phase, Unit};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A ruling: where a seed is silent or ambiguous, what the program does and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ruling {
    pub key: String,
    pub topic: String,
    pub ruling: String,
    pub reason: String,
}

/// One line of a results table, for the rules reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultRow {
    pub table: String,
    pub situation: String,
    pub outcome: String,
    pub source: String,
}

/// What every ruleset does.
pub trait Ruleset {
    /// Short id used in scenarios ("db7yw").
    fn id(&self) -> &str;
    fn name(&self) -> &str;
    /// "paces" or "inches".
    fn measure(&self) -> &str;
    /// Millimetres per measuring unit when the scenario does not say.
    fn default_mm_per_unit(&self) -> f32;
    /// Frontage and depth (mm) of a unit of this troop type, or None if the type is unknown.
    fn base_size(&self, troop: &str) -> Option<(f32, f32)>;
    /// Troop codes this ruleset knows.
    fn troop_codes(&self) -> Vec<String>;
    /// The phase a new battle starts in.
    fn first_phase(&self, units: &[Unit]) -> Phase;
    /// Resolves a command, emitting events through `battle.emit`.
    fn execute(
        &self,
        battle: &mut Battle,
        cmd: &Command,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError>;
    /// Checks that follow every command: army break, objectives, turn limit.
    fn after_command(&self, battle: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError>;
    fn rulings(&self) -> &[Ruling];
}

/// The rulesets volley knows, and those it recognises but does not play yet.
pub const KNOWN_RULESETS: [&str; 5] = ["db7yw", "dbfpw", "bbb7yw", "old_dessauer", "hal25"];

/// The ruleset chosen at run time.
#[derive(Clone, Debug)]
pub enum AnyRuleset {
    Db7yw(Arc<db7yw::Db7yw>),
}

impl AnyRuleset {
    /// Loads a ruleset by id from the data compiled into the program.
    pub fn load(id: &str) -> Result<Self, String> {
        match id {
            "db7yw" => Ok(AnyRuleset::Db7yw(Arc::new(db7yw::Db7yw::load()?))),
            other if KNOWN_RULESETS.contains(&other) => Err(format!(
                "ruleset '{other}' is not playable in this version (playable: db7yw)"
            )),
            other => Err(format!(
                "unknown ruleset '{other}' (known: {})",
                KNOWN_RULESETS.join(", ")
            )),
        }
    }

    pub fn get(&self) -> &dyn Ruleset {
        match self {
            AnyRuleset::Db7yw(r) => r.as_ref(),
        }
    }

    pub fn first_phase(&self, units: &[Unit]) -> Phase {
        self.get().first_phase(units)
    }

    pub fn execute(
        &self,
        battle: &mut Battle,
        cmd: &Command,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.get().execute(battle, cmd, out)
    }

    pub fn after_command(
        &self,
        battle: &mut Battle,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.get().after_command(battle, out)
    }

    /// Checks a move of one unit or a group without making it (the window calls this every
    /// frame of a drag).
    pub fn check_move(
        &self,
        b: &Battle,
        ids: &[crate::rules::UnitId],
        steps: &[crate::rules::Step],
    ) -> Result<dbn::MovePlan, RuleError> {
        match self {
            AnyRuleset::Db7yw(r) => r.check_move(b, ids, steps),
        }
    }

    /// Factors and exact odds of a Fire or Fight command before the dice.
    pub fn preview(&self, b: &Battle, cmd: &Command) -> Result<db7yw::Preview, RuleError> {
        match self {
            AnyRuleset::Db7yw(r) => r.preview(b, cmd),
        }
    }

    /// The DBN-family engine, where the ruleset is one.
    pub fn dbn(&self) -> Option<&dbn::Dbn> {
        match self {
            AnyRuleset::Db7yw(r) => Some(&r.dbn),
        }
    }
}
