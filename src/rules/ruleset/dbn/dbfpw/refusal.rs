//! Why DBFPW's own rules refuse a command: the kind each refusal is made with, kept beside its words.
//!
//! The words a player reads are written where the refusal is made, as before; the kind is
//! what a test or a caller checks, so that rewording a message changes no check. Each
//! variant's note quotes the words it is made with (… for a name or a number).

/// What a refusal was for (see the module's note).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// "… is already in attack column"
    AlreadyInAttackColumn,
    /// "… is already in line"
    AlreadyInLine,
    /// "… may form attack column (Column) or line (Line), not …"
    NotADbfpwFormation,
    /// "… is in close combat"
    InCloseCombat,
    /// "… moved into close combat this bound"
    MovedIntoCloseCombat,
    /// "… moved this bound and is within range of enemy artillery (…): no second move"
    NoSecondMoveUnderGuns,
    /// "… dismounted this bound: it may dismount after moving, not move after dismounting"
    DismountedThisBound,
    /// "… mounted this bound: it may move, but not into close combat"
    MountedNoCloseCombat,
    /// "… cannot dismount: only Skirmishing Cavalry dismount (and infantry form attack column)"
    CannotDismount,
    /// "… is already dismounted"
    AlreadyDismounted,
    /// "… is already mounted"
    AlreadyMounted,
    /// "… moved this bound: skirmishing cavalry mount and then move, not the reverse"
    MovedBeforeMounting,
    /// "… may only dismount (Dismounted) or mount (Line), not …"
    NotMountOrDismount,
    /// "… has already mounted or dismounted this bound"
    AlreadyMountedOrDismounted,
    /// "only foot may end a move in …: … may not stop in it (ruling occupation)"
    OnlyFootStopIn,
    /// "DBFPW buys prepared fortifications in the army list: the scenario places them"
    FortificationsFromArmyList,
}
