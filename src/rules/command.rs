//! Commands players give, the events they produce, and the errors that refuse them.

use super::geometry::{Base, Corner};
use super::model::{Formation, Phase, Side, UnitId};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::fmt;

use super::own_event::{ErasedEvent, OwnEvent};
use super::roll::Roll;
pub use super::roll::{Factor, Score, factor_sum};

/// One part of a move, in the ruleset's units (paces or inches) and degrees.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Step {
    /// Straight ahead.
    Advance(f32),
    /// Straight back, keeping facing.
    Backstep(f32),
    /// Directly sideways; positive to the right.
    Sidestep(f32),
    /// Wheel forward about a front corner by the given degrees.
    Wheel { corner: Corner, degrees: f32 },
    /// Turn on the spot about the centre; positive clockwise.
    Pivot(f32),
    /// Turn 180 degrees on the spot.
    AboutFace,
    /// Move diagonally: `forward` ahead and `right` to the side at once.
    Oblique { forward: f32, right: f32 },
    /// Straight ahead into contact with this enemy, then conform to it (last step only).
    ToContact(UnitId),
}

/// An order given to the battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Command {
    /// Finish the current phase (rolling the command dice when leaving the command phase).
    EndPhase,
    /// Take a unit touching a table edge off the table by that edge, where a scenario's
    /// `Exited` condition names it for the unit's side, in its side's movement: no loss.
    Exit {
        unit: UnitId,
    },
    /// Move one unit.
    Move {
        unit: UnitId,
        steps: Vec<Step>,
    },
    /// Move one stand of a skirmishing unit on its own (stands counted from 0, the command
    /// stand).
    MoveStand {
        unit: UnitId,
        stand: usize,
        steps: Vec<Step>,
    },
    /// Recoil farther straight on from this bound's recoil, in the ruleset's units.
    RecoilFurther {
        unit: UnitId,
        distance: f32,
    },
    /// Move a formation of units in edge contact together, as one body.
    MoveGroup {
        units: Vec<UnitId>,
        steps: Vec<Step>,
    },
    Limber {
        unit: UnitId,
    },
    Unlimber {
        unit: UnitId,
    },
    /// Fire at a target; `support` names friends adding fire support (they count as having fired).
    /// `defence` names the target's friends that support it against the firer (each gives the
    /// firer -1); left out, every friend of the target able to fire at the firer supports it.
    Fire {
        unit: UnitId,
        target: UnitId,
        #[serde(default)]
        support: Vec<UnitId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        defence: Option<Vec<UnitId>>,
    },
    /// Fight the close combat between a unit in contact and its opponent. `pursue` chooses
    /// whether the victors follow up (default yes; HC always do, artillery never); `pursuits`
    /// orders single units of either side (figure rulesets), overriding `pursue` for them.
    Fight {
        unit: UnitId,
        target: UnitId,
        #[serde(default)]
        pursue: Option<bool>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pursuits: Vec<Pursuit>,
    },
    /// Place a unit in formal deployment: centre in mm and facing in degrees.
    Deploy {
        unit: UnitId,
        x: f32,
        y: f32,
        facing: f32,
    },
    /// The defender fortifies a town or village before the battle.
    Fortify {
        feature: String,
    },
    /// Change formation, then facing by `turn` degrees (0, 90, -90 or 180), about the front
    /// centre stand (figure rulesets).
    Form {
        unit: UnitId,
        formation: Formation,
        #[serde(default)]
        turn: f32,
    },
    /// Attach a general to a unit (figure rulesets, generals rule).
    Attach {
        general: UnitId,
        unit: UnitId,
    },
    /// Detach a general from its unit.
    Detach {
        general: UnitId,
    },
    /// Pull a unit straight back out of danger (voluntary fallback rule), in the ruleset's units.
    Fallback {
        unit: UnitId,
        distance: f32,
    },
    /// Roll for command before moving or rallying (BBB): the result bounds the unit's move.
    Activate {
        unit: UnitId,
    },
    /// Recover a lost base instead of moving, as the command roll allows (BBB).
    Recover {
        unit: UnitId,
    },
    /// Evade an enemy that moved within reach: straight away from it, this far (BBB).
    Evade {
        unit: UnitId,
        from: UnitId,
        distance: f32,
    },
    /// Announce a charge and declare its target (Hal's charge declarations).
    Declare {
        unit: UnitId,
        target: UnitId,
    },
    /// Make the charge declared for this unit: its attempt to close, the target's to hold, the
    /// range the target will fire at, and the move into contact (Hal's pre-melee).
    Charge {
        unit: UnitId,
    },
    /// A general spends a chip to throw again one die of the last command's failed roll for
    /// `unit` (Hal's chips).
    Reroll {
        by: UnitId,
        unit: UnitId,
    },
    /// A courier sets off with written orders for a brigade's commander (Hal's).
    Send {
        courier: UnitId,
        brigade: String,
        order: String,
    },
    /// The owner's standing order for one of his units: pursue if victorious, or hold the
    /// ground (rulesets where the victor chooses). It stands until changed, in either side's
    /// bound, and costs nothing.
    PursuitOrder {
        unit: UnitId,
        pursue: bool,
    },
    /// Take back the last command.
    Undo,
}

/// How one unit follows up if it wins a round of combat, as its owner orders it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pursuit {
    pub unit: UnitId,
    /// Follow the beaten enemy at all (false: hold the ground).
    #[serde(default = "yes")]
    pub pursue: bool,
    /// At most this far, in the ruleset's units (None: as far as the rules allow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<f32>,
    /// The beaten enemy to follow, where the rules leave the choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<UnitId>,
}

fn yes() -> bool {
    true
}

impl Pursuit {
    /// The order to hold the ground.
    pub fn hold(unit: &UnitId) -> Self {
        Pursuit {
            unit: unit.clone(),
            pursue: false,
            distance: None,
            target: None,
        }
    }
    /// The order to pursue as the rules allow.
    pub fn follow(unit: &UnitId) -> Self {
        Pursuit {
            pursue: true,
            ..Pursuit::hold(unit)
        }
    }
}

impl Command {
    /// The command's kind, as order files name it ("Move", "Fire", "EndPhase").
    pub fn kind(&self) -> &'static str {
        match self {
            Command::EndPhase => "EndPhase",
            Command::Move { .. } => "Move",
            Command::MoveStand { .. } => "MoveStand",
            Command::RecoilFurther { .. } => "RecoilFurther",
            Command::MoveGroup { .. } => "MoveGroup",
            Command::Limber { .. } => "Limber",
            Command::Unlimber { .. } => "Unlimber",
            Command::Fire { .. } => "Fire",
            Command::Fight { .. } => "Fight",
            Command::Deploy { .. } => "Deploy",
            Command::Fortify { .. } => "Fortify",
            Command::Form { .. } => "Form",
            Command::Attach { .. } => "Attach",
            Command::Detach { .. } => "Detach",
            Command::Fallback { .. } => "Fallback",
            Command::Activate { .. } => "Activate",
            Command::Recover { .. } => "Recover",
            Command::Evade { .. } => "Evade",
            Command::Declare { .. } => "Declare",
            Command::Charge { .. } => "Charge",
            Command::Reroll { .. } => "Reroll",
            Command::Send { .. } => "Send",
            Command::PursuitOrder { .. } => "PursuitOrder",
            Command::Undo => "Undo",
            Command::Exit { .. } => "Exit",
        }
    }

    /// The unit the command acts with, if it names one (a group's first unit; a general's).
    pub fn unit(&self) -> Option<&UnitId> {
        match self {
            Command::Move { unit, .. }
            | Command::MoveStand { unit, .. }
            | Command::RecoilFurther { unit, .. }
            | Command::Limber { unit }
            | Command::Unlimber { unit }
            | Command::Fire { unit, .. }
            | Command::Fight { unit, .. }
            | Command::Deploy { unit, .. }
            | Command::Form { unit, .. }
            | Command::Fallback { unit, .. }
            | Command::Activate { unit }
            | Command::Recover { unit }
            | Command::Evade { unit, .. }
            | Command::Declare { unit, .. }
            | Command::Charge { unit }
            | Command::Reroll { unit, .. }
            | Command::PursuitOrder { unit, .. }
            | Command::Exit { unit } => Some(unit),
            Command::MoveGroup { units, .. } => units.first(),
            Command::Attach { general, .. } | Command::Detach { general } => Some(general),
            Command::Send { courier, .. } => Some(courier),
            Command::EndPhase | Command::Fortify { .. } | Command::Undo => None,
        }
    }

    /// What the command does to its target, in words ("fire at").
    pub fn verb(&self) -> &'static str {
        match self {
            Command::Fire { .. } => "fire at",
            Command::Fight { .. } => "fight",
            Command::Activate { .. } => "roll for command for",
            Command::Declare { .. } => "declare a charge on",
            _ => "act on",
        }
    }
}

/// How an opposed roll came out, for the side it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    Draw,
    /// In firing that is not counter-battery, the firer scored lower: the fire has no effect
    /// and nobody is beaten.
    Outscored,
    Beaten,
    BeatenByDouble,
}

/// What happened to a unit as the result of a roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Effect {
    NoEffect,
    Hits(u32),
    Recoil,
    HitAndRecoil,
    Flee { hits: u32 },
    Destroyed,
}

/// How a game ended: the turn limit reached, or a side beaten by one of the rules' ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ending {
    /// The last turn was played; the rules' result at the limit decided it.
    TurnLimit,
    /// A side's army broke: its losses reached its break point.
    Broken,
    /// A side's army withdrew (Hal's army withdrawal test).
    Withdrew,
    /// A side has no fighting units left on the table.
    NoUnits,
    /// One of the scenario's victory conditions was met (`ConditionMet` says which).
    Condition,
}

/// Something that happened. Applying the events in order rebuilds the battle.
///
/// The events here are those more than one ruleset emits, or the battle itself; an event only
/// one ruleset emits is its own type in its folder, carried by `Own`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Event {
    PhaseBegan {
        turn: u32,
        phase: Phase,
        side: Side,
    },
    Moved {
        unit: UnitId,
        from: Base,
        to: Base,
        distance: f32,
        allowance: f32,
        /// The going in words; a ruleset that looks back at its moves reads its kind (the
        /// road bonus: the rulesets' common `GoingKind`).
        going: crate::rules::tagged::Tagged,
        contact: Option<UnitId>,
        /// A move the rules do not measure, in words ("about-faces"); the log says it instead of
        /// the distance against the allowance.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        manoeuvre: Option<String>,
    },
    Deployed {
        unit: UnitId,
        to: Base,
    },
    Limbered {
        unit: UnitId,
    },
    Unlimbered {
        unit: UnitId,
    },
    Hit {
        unit: UnitId,
        hits: u32,
        total: u32,
    },
    Shaken {
        unit: UnitId,
    },
    Recoiled {
        unit: UnitId,
        from: Base,
        to: Base,
        /// A voluntary fallback made by the rules of a recoil: not a recoil forced this turn.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        voluntary: bool,
    },
    /// Skirmish stands reached by formed troops and eliminated (indices before removal).
    StandsOverrun {
        unit: UnitId,
        stands: Vec<usize>,
        by: UnitId,
    },
    Fled {
        unit: UnitId,
        from: Base,
        to: Base,
    },
    Pursued {
        unit: UnitId,
        from: Base,
        to: Base,
        continuing: Option<UnitId>,
    },
    Destroyed {
        unit: UnitId,
        reason: String,
    },
    ArmyBroken {
        side: Side,
        losses: f32,
        of: f32,
    },
    GameOver {
        winner: Option<Side>,
        reason: String,
        /// How the game was decided, for counting endings without reading the reason's words.
        by: Ending,
    },
    Undone {
        events: usize,
    },
    /// Figure rulesets: a unit shoots, one die per eligible stand.
    Volley {
        shooter: UnitId,
        target: UnitId,
        /// Stands that shot.
        stands: u32,
        dice: Vec<u8>,
        factors: Vec<Factor>,
        /// Score needed on each die.
        need: u8,
        hits: u32,
        /// Where its first die stands among the dice of the command that threw it (for a
        /// re-roll).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_die: Option<usize>,
    },
    /// Figures lost; `stands` is what is left of each stand.
    Losses {
        unit: UnitId,
        figures: u32,
        stands: Vec<u32>,
        why: crate::rules::tagged::Tagged,
    },
    /// A unit takes a new formation or footprint.
    Reformed {
        unit: UnitId,
        formation: Formation,
        from: Base,
        to: Base,
        /// Movement allowance it uses (0 when closing up after losses).
        #[serde(default)]
        cost: f32,
    },
    Disordered {
        unit: UnitId,
        why: String,
    },
    /// Disorder removed.
    Steadied {
        unit: UnitId,
    },
    /// Shaken removed.
    Rallied {
        unit: UnitId,
    },
    /// A unit's ammunition changes: it runs low or out, is resupplied, or packs change hands.
    Supply {
        unit: UnitId,
        ammo: crate::rules::model::Ammo,
        packs: u32,
        why: String,
    },
    /// A roll of a kind no other event records, in the one shape every ruleset shares: what it
    /// was for, and the roll. Its consequences follow as their own events.
    Rolled {
        what: crate::rules::tagged::Tagged,
        roll: Roll,
    },
    /// A unit's command roll (BBB): the move it allows this turn (in the ruleset's units) and
    /// whether it may recover a base instead. Rally, disruption, retiring and losses follow.
    Ordered {
        unit: UnitId,
        roll: Roll,
        allowance: f32,
        recover: bool,
    },
    /// An assault resolved on the assault table (BBB): both rolls, the difference and the
    /// row's words. Its effects follow.
    Assault {
        attacker: UnitId,
        defender: UnitId,
        attacker_roll: Box<Roll>,
        defender_roll: Box<Roll>,
        difference: i32,
        outcome: String,
    },
    /// A unit moving to assault is halted (BBB, by defensive fire).
    Halted {
        unit: UnitId,
        why: crate::rules::tagged::Tagged,
    },
    /// A general spent a chip to throw one die again: the command before it runs again with the
    /// new die; its events follow.
    Rerolled {
        by: UnitId,
        unit: UnitId,
        die: u8,
        chips: u32,
    },
    /// The unit's owner orders it to pursue if victorious (`pursue`), or to hold the ground.
    PursuitOrdered {
        unit: UnitId,
        pursue: bool,
    },
    /// One of the scenario's objectives (its place in the scenario's list) changes hands: the
    /// side that holds it from now on, until the other side takes it.
    ObjectiveHeld {
        objective: usize,
        side: Side,
    },
    /// One of the scenario's victory conditions is met: the winner it gives (None: a draw)
    /// and the condition in words. The game over follows.
    ConditionMet {
        winner: Option<Side>,
        condition: String,
    },
    /// A unit leaves the table by an edge a victory condition names: removed, and no loss.
    Exited {
        unit: UnitId,
        edge: crate::rules::victory::Edge,
    },
    /// An event of one ruleset's own (its salvo, its chips, its command roll), kept in its
    /// folder and written as it writes itself (see `own_event`). Read back from JSON it is the
    /// ruleset's own type again, found among the registered ones by its `kind`.
    #[serde(untagged)]
    Own(OwnEvent),
}

impl Event {
    /// The event as one ruleset's own event type `E`, if it is one.
    pub fn own<E: Any>(&self) -> Option<&E> {
        match self {
            Event::Own(e) => e.get(),
            _ => None,
        }
    }
}

/// A ruleset's own event in the shared log.
impl<E: ErasedEvent> From<E> for Event {
    fn from(e: E) -> Self {
        Event::Own(OwnEvent::new(e))
    }
}

/// Why a command was refused, in words a player understands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RuleError {
    UnknownUnit(UnitId),
    UnknownFeature(String),
    NotYourUnit(UnitId),
    WrongPhase {
        command: String,
        phase: Phase,
    },
    AlreadyActed {
        unit: UnitId,
        what: String,
    },
    NotEnoughCommandPoints {
        need: i32,
        have: i32,
        /// What they would pay for ("move IR 8"), and why it costs what it does.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        what: String,
    },
    TooFar {
        unit: UnitId,
        /// The unit's name, for the message.
        name: String,
        distance: f32,
        allowance: f32,
        units: String,
        /// Why the allowance is what it is ("bad going: the move ends in Reichenau, a
        /// village"), or empty.
        #[serde(default)]
        why: String,
    },
    /// Refused by the rules, in the words the ruleset wrote, with the kind it made them for
    /// (its own `Refusal`; see `refusal`).
    Illegal(crate::rules::tagged::Tagged),
    OutOfDice,
    NothingToUndo,
    /// The command to take back rolled dice.
    DiceRolled,
    GameOver,
}

impl RuleError {
    /// A refusal by the rules: `words` for the player, `kind` for whatever checks why (the
    /// refusing ruleset's own `Refusal`).
    pub fn refused<K: Any + Send + Sync>(kind: K, words: String) -> Self {
        RuleError::Illegal(crate::rules::tagged::Tagged::new(kind, words))
    }

    /// The kind a refusal by the rules was made with, if it is a `K`: for example
    /// `err.refusal::<bbb::Refusal>() == Some(&bbb::Refusal::MustRollForCommand)`.
    pub fn refusal<K: Any>(&self) -> Option<&K> {
        match self {
            RuleError::Illegal(t) => t.kind(),
            _ => None,
        }
    }

    /// The refusal in words, naming units as `name` gives them (the log's names; the ids
    /// without a battle at hand).
    pub fn words(&self, name: impl Fn(&UnitId) -> String) -> String {
        match self {
            RuleError::NotYourUnit(u) => {
                format!("{} belongs to the side that is not moving", name(u))
            }
            RuleError::AlreadyActed { unit, what } => {
                format!("{} has already {what} this bound", name(unit))
            }
            other => other.to_string(),
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::UnknownUnit(u) => write!(f, "there is no unit '{u}'"),
            RuleError::UnknownFeature(t) => write!(f, "there is no terrain feature '{t}'"),
            RuleError::NotYourUnit(_) | RuleError::AlreadyActed { .. } => {
                f.write_str(&self.words(|u| u.to_string()))
            }
            RuleError::WrongPhase { command, phase } => {
                write!(f, "cannot {command} in the {} phase", phase.name())
            }
            RuleError::NotEnoughCommandPoints { need, have, what } => {
                if what.is_empty() {
                    write!(f, "needs {need} command points, {have} left")
                } else {
                    write!(f, "needs {need} command points to {what}, {have} left")
                }
            }
            RuleError::TooFar {
                name,
                distance,
                allowance,
                units,
                why,
                ..
            } => {
                // Written to the precision of the measure: tenths of an inch, whole paces.
                let p = super::measure::Measure::named(units).map_or(0, |m| m.precision());
                write!(f, "{name}: {distance:.p$} {units} of {allowance:.p$}")?;
                if !why.is_empty() {
                    write!(f, " ({why})")?;
                }
                Ok(())
            }
            RuleError::Illegal(s) => f.write_str(s),
            RuleError::OutOfDice => f.write_str("the scripted dice ran out"),
            RuleError::NothingToUndo => f.write_str("there is nothing to undo"),
            RuleError::DiceRolled => {
                f.write_str("dice have been rolled: that command cannot be taken back")
            }
            RuleError::GameOver => f.write_str("the battle is over"),
        }
    }
}

impl std::error::Error for RuleError {}

/// Why the battle refuses a general's re-roll, whichever ruleset grants it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RerollRefusal {
    /// "there is no roll to throw again"
    NoRollToThrowAgain,
    /// "that roll has been thrown again already"
    ThrownAgainAlready,
    /// "there is no such die to throw again"
    NoSuchDie,
    /// "… has no re-rolls": the ruleset grants none.
    NoRerolls,
}

impl From<super::dice::OutOfDice> for RuleError {
    fn from(_: super::dice::OutOfDice) -> Self {
        RuleError::OutOfDice
    }
}
