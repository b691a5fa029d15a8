//! Rulesets: one trait, one enum for runtime choice, one module per ruleset (DBN family shared).

pub mod army;
pub mod db7yw;
pub mod dbn;
pub mod old_dessauer;

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
    /// Guns that may start the game limbered.
    fn limbers(&self, troop: &str) -> bool;
    /// Units small enough to share ground with others (generals, regimental guns).
    fn shares_ground(&self, troop: &str) -> bool {
        let _ = troop;
        false
    }
    /// Footprint (mm) of a unit of `stands` stands in a formation (figure rulesets); single-base
    /// rulesets answer with the base.
    fn unit_size(
        &self,
        troop: &str,
        formation: crate::rules::model::Formation,
        stands: usize,
    ) -> Option<(f32, f32)> {
        let _ = (formation, stands);
        self.base_size(troop)
    }
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
    OldDessauer(Arc<old_dessauer::OldDessauer>),
}

impl AnyRuleset {
    /// Loads a ruleset by id from the data compiled into the program.
    pub fn load(id: &str) -> Result<Self, String> {
        match id {
            "db7yw" => Ok(AnyRuleset::Db7yw(Arc::new(db7yw::Db7yw::load()?))),
            "old_dessauer" => Ok(AnyRuleset::OldDessauer(Arc::new(
                old_dessauer::OldDessauer::load()?,
            ))),
            other if KNOWN_RULESETS.contains(&other) => Err(format!(
                "ruleset '{other}' is not playable in this version (playable: db7yw, old_dessauer)"
            )),
            other => Err(format!(
                "unknown ruleset '{other}' (known: {})",
                KNOWN_RULESETS.join(", ")
            )),
        }
    }

    /// Switches on a scenario's optional rules.
    pub fn with_options(self, options: &[String]) -> Result<Self, String> {
        if options.is_empty() {
            return Ok(self);
        }
        match self {
            AnyRuleset::OldDessauer(r) => Ok(AnyRuleset::OldDessauer(Arc::new(
                r.as_ref().clone().with_options(options)?,
            ))),
            AnyRuleset::Db7yw(_) => Err("db7yw has no optional rules".into()),
        }
    }

    /// The optional rules a game may switch on: key and name.
    pub fn optional_rules(&self) -> Vec<(String, String)> {
        match self {
            AnyRuleset::OldDessauer(r) => r
                .data
                .options
                .iter()
                .map(|o| (o.key.clone(), o.name.clone()))
                .collect(),
            AnyRuleset::Db7yw(_) => Vec::new(),
        }
    }

    /// The optional rules in use.
    pub fn options(&self) -> &[String] {
        match self {
            AnyRuleset::OldDessauer(r) => &r.options,
            AnyRuleset::Db7yw(_) => &[],
        }
    }

    pub fn get(&self) -> &dyn Ruleset {
        match self {
            AnyRuleset::Db7yw(r) => r.as_ref(),
            AnyRuleset::OldDessauer(r) => r.as_ref(),
        }
    }

    /// Old Dessauer, where the ruleset is it.
    pub fn old_dessauer(&self) -> Option<&old_dessauer::OldDessauer> {
        match self {
            AnyRuleset::OldDessauer(r) => Some(r),
            _ => None,
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
            AnyRuleset::OldDessauer(r) => r.check_move(b, ids, steps),
        }
    }

    /// Factors and exact odds of a Fire or Fight command before the dice.
    pub fn preview(&self, b: &Battle, cmd: &Command) -> Result<db7yw::Preview, RuleError> {
        match self {
            AnyRuleset::Db7yw(r) => r.preview(b, cmd),
            AnyRuleset::OldDessauer(_) => Err(RuleError::Illegal(
                "Old Dessauer previews are outlooks (see AnyRuleset::outlook)".into(),
            )),
        }
    }

    /// Old Dessauer's dice, needs and chances of a shooting or combat before the dice.
    pub fn outlook(
        &self,
        b: &Battle,
        cmd: &Command,
    ) -> Option<Result<old_dessauer::Outlook, RuleError>> {
        self.old_dessauer().map(|r| r.preview(b, cmd))
    }

    /// The DBN-family engine, where the ruleset is one.
    pub fn dbn(&self) -> Option<&dbn::Dbn> {
        match self {
            AnyRuleset::Db7yw(r) => Some(&r.dbn),
            AnyRuleset::OldDessauer(_) => None,
        }
    }
}
