//! Why the machinery every ruleset shares refuses a command: the kind each refusal is made
//! with, kept beside its words.
//!
//! The words a player reads are written where the refusal is made, as before; the kind is
//! what a test or a caller checks, so that rewording a message changes no check. Each
//! variant's note quotes the words it is made with (… for a name or a number).

/// What a refusal was for (see the module's note).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// "… is no longer on the table"
    NotOnTable,
    /// "… is already ordered to … if victorious"
    AlreadyOrderedSo,
    /// "a … must be a finite, non-negative distance"
    BadDistance,
    /// "a wheel must be between 0 and 180 degrees"
    BadWheel,
    /// "a pivot must be between -360 and 360 degrees"
    BadPivot,
    /// "a move into contact must be the last step"
    ContactNotLastStep,
    /// "(the ruleset's words for why the unit has no choice of pursuit)"
    NoPursuitChoice,
    /// "leaving the table is handled by the game"
    ExitByTheGame,
    /// "no victory condition of this scenario takes …'s side off the table"
    NoExitCondition,
    /// "… may leave the table only in its side's movement, when it may move"
    ExitNotNow,
    /// "… must touch the … edge to leave the table by it"
    NotAtExitEdge,
}
