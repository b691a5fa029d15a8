//! Why DB7YW's own rules refuse a command: the kind each refusal is made with, kept beside its words.
//!
//! The words a player reads are written where the refusal is made, as before; the kind is
//! what a test or a caller checks, so that rewording a message changes no check. Each
//! variant's note quotes the words it is made with (… for a name or a number).

/// What a refusal was for (see the module's note).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// "only Prussian Muskets may move sideways as a formation"
    OnlyPrussianSidestep,
    /// "Muskets may wheel at most … degrees"
    WheelTooFar,
    /// "shape.into()"
    MoveShape,
    /// "… may move into close combat only straight forward: no wheel, sidestep or step back before
    /// the contact"
    OnlyStraightIntoContact,
    /// "Muskets may move at most … … into close combat (… …)"
    TooFarIntoContact,
    /// "… must meet … face to face: front edge to its front edge, never its flank or rear"
    NotFaceToFace,
    /// "… must contact … with at least half their front"
    HalfFrontContact,
}
