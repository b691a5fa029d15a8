//! What each of Hal's rolls is for, set where the roll is made with the facts of how it fell
//! that the rules read back: the chips (which die went badly), the rout movement phase (who ran
//! already), the movement dice thrown this turn, a charge's closing check, a battery's
//! counter-battery fire. The log shows the roll's words; no rule reads them.

use super::Band;
use crate::rules::tagged::Tagged;

/// A die a move needs before it is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    Disorganised,
    Chips(i32),
    Rough,
    Back,
    Push,
}

impl Need {
    /// What the log calls its roll.
    pub(super) fn key(self) -> &'static str {
        match self {
            Need::Disorganised => "movement: disorganised",
            Need::Chips(_) => "movement: the commander's chips",
            Need::Rough => "movement: rough terrain",
            Need::Back => "movement: moving back facing the enemy",
            Need::Push => "movement: pushing the guns",
        }
    }

    /// Its die's name on a chip's button.
    pub(super) fn die_name(self) -> &'static str {
        match self {
            Need::Disorganised => "the disorganised die",
            Need::Chips(_) => "the commander's chips die",
            Need::Rough => "the rough terrain die",
            Need::Back => "the moving back facing the enemy die",
            Need::Push => "the pushing the guns die",
        }
    }

    /// The same die, whatever the number of chips dice: each is thrown once a turn.
    pub(super) fn same_die(self, other: Need) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }
}

/// A morale check (V), by what called for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoraleCheck {
    /// Losses this turn (V.A).
    Losses,
    /// A routed or disorganised unit's recovery.
    Recovery,
    /// A charger's attempt to close (IV.A).
    Closing,
    /// The charged unit's stand (IV.A).
    Holding,
    /// A unit out of command before its first move (VI.B).
    CommandControl,
}

impl MoraleCheck {
    /// The check's name in the log: "morale: holding".
    pub fn words(self) -> &'static str {
        match self {
            MoraleCheck::Losses => "losses",
            MoraleCheck::Recovery => "recovery",
            MoraleCheck::Closing => "closing",
            MoraleCheck::Holding => "holding",
            MoraleCheck::CommandControl => "command control",
        }
    }
}

/// A roll of Hal's rules and how it fell, as far as a rule reads it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalRoll {
    /// A 2D6 morale check.
    Morale { check: MoraleCheck, failed: bool },
    /// A die a move needs (III.A).
    Movement(Need),
    /// The failed morale chart after a lost melee; `recovered`: automatic recovery.
    FailedMoraleChart { recovered: bool },
    /// A disorganised loser falling back; its facing die put its back to the enemy.
    FallingBack { back_to_enemy: bool },
    /// A unit of two stands or fewer tests to stay (V.A.1).
    TwoStandCheck { removed: bool },
    /// The army's withdrawal roll (VII.B), thrown for a side.
    ArmyWithdrawal { withdraws: bool },
    /// A routed unit's run.
    RoutMovement,
    /// The risk to an officer with a unit that took losses (VI.C).
    OfficerRisk { falls: bool },
    /// The range band at which infantry fires into a charge (`None`: it does not), and whether
    /// the charge began within 6", which makes it short whatever the die.
    ChargeRange {
        band: Option<Band>,
        within_six: bool,
    },
    /// The charge die: whether the charger falls short of its target.
    ChargeBonus { falls_short: bool },
    /// A gun's counter-battery shot: `None` a miss, else whether it knocked a gun out.
    CounterBattery { knocked_out: Option<bool> },
    /// The figures left over after the volley's whole dice.
    FiguresLeftOver,
    /// The target's saves.
    Saves,
    /// The odd hit of fire, or odd point of melee, on horse: whether a horseman falls.
    OddOnHorse { falls: bool },
    /// A battery's crew left over in melee.
    CrewLeftOver,
    /// The move measured against the dice thrown for it, when it is not made.
    Measure,
    /// A courier's ride: whether the message is lost.
    CourierRide { lost: bool },
}

impl HalRoll {
    /// These words, written for this roll.
    pub fn said(self, words: impl Into<String>) -> Tagged {
        Tagged::new(self, words)
    }

    /// A morale check's words and kind.
    pub fn morale(check: MoraleCheck, failed: bool) -> Tagged {
        HalRoll::Morale { check, failed }.said(format!("morale: {}", check.words()))
    }

    /// The roll by name, whatever how it fell: a re-roll's replay hands each throw of it its
    /// old die.
    pub fn throw_name(self) -> &'static str {
        match self {
            HalRoll::Morale { check, .. } => match check {
                MoraleCheck::Losses => "morale: losses",
                MoraleCheck::Recovery => "morale: recovery",
                MoraleCheck::Closing => "morale: closing",
                MoraleCheck::Holding => "morale: holding",
                MoraleCheck::CommandControl => "morale: command control",
            },
            HalRoll::Movement(need) => need.key(),
            HalRoll::FailedMoraleChart { .. } => "the failed morale chart",
            HalRoll::FallingBack { .. } => "falling back",
            HalRoll::TwoStandCheck { .. } => "the two-stand check",
            HalRoll::ArmyWithdrawal { .. } => "army withdrawal",
            HalRoll::RoutMovement => "rout movement",
            HalRoll::OfficerRisk { .. } => "the risk to the officer",
            HalRoll::ChargeRange { .. } => "the range to fire into the charge",
            HalRoll::ChargeBonus { .. } => "the charge bonus",
            HalRoll::CounterBattery { .. } => "counter-battery fire",
            HalRoll::FiguresLeftOver => "the figures left over",
            HalRoll::Saves => "saves",
            HalRoll::OddOnHorse { .. } => "the odd hit or point on horse",
            HalRoll::CrewLeftOver => "the crew left over",
            HalRoll::Measure => "the measure",
            HalRoll::CourierRide { .. } => "the courier's ride",
        }
    }

    /// The roll's name on a chip's button: "the holding check", "the rough terrain die", or
    /// its words.
    pub fn button_name(self, words: &str) -> String {
        match self {
            HalRoll::Morale { check, .. } => format!("the {} check", check.words()),
            HalRoll::Movement(need) => need.die_name().to_string(),
            _ => words.to_string(),
        }
    }
}

/// The kind of one of Hal's rolls, read from what it was for.
pub fn kind(what: &Tagged) -> Option<HalRoll> {
    what.kind::<HalRoll>().copied()
}
