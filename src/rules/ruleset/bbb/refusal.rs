//! Why BBB refuses a command: the kind each refusal is made with, kept beside its words.
//!
//! The words a player reads are written where the refusal is made, as before; the kind is
//! what a test or a caller checks, so that rewording a message changes no check. Each
//! variant's note quotes the words it is made with (… for a name or a number).

/// What a refusal was for (see the module's note).
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// "… is not of the moving side"
    /// "… is not the moving side's"
    NotOfMovingSide,
    /// "… did not move into contact this turn: only units that did assault", and for one in
    /// contact ": one that began the turn in contact assaults by its command roll and 'Assault
    /// … where it stands' in the movement step"
    NoContactMoveThisTurn,
    /// "…: artillery does not assault"
    /// "…: artillery does not move into contact; only infantry and cavalry assault"
    ArtilleryDoesNotAssault,
    /// "… was halted by defensive fire"
    HaltedByDefensiveFire,
    /// "… has already assaulted this turn"
    AlreadyAssaulted,
    /// "… is not in contact with …"
    NotInContact,
    /// "BBB units move one at a time, each on its own command roll"
    /// "BBB units move one at a time"
    NoGroupMoves,
    /// "BBB has no loose stands, chosen recoils, formal deployment, fortifying, attached generals,
    /// fallbacks, declared charges or re-rolls"
    NotInTheseRules,
    /// "these rules leave a victor no pursuit to choose"
    NoPursuitToChoose,
    /// "undo is handled by the battle"
    UndoByTheBattle,
    /// "only firing and assaults have odds here; a command roll's are on its button"
    NoOddsForThisCommand,
    /// "… evades a distance in inches"
    EvadeNotADistance,
    /// "… belongs to the moving side: only the other side's units evade"
    EvaderOfMovingSide,
    /// "… is disrupted and cannot evade"
    DisruptedCannotEvade,
    /// "… has already evaded this turn"
    AlreadyEvaded,
    /// "… has not moved this turn"
    EnemyHasNotMoved,
    /// "… is more than …" away"
    EnemyTooFarToEvade,
    /// "… may not evade … (playsheet: Evade)"
    MayNotEvade,
    /// "… would evade off the table"
    /// "… would leave the table"
    WouldLeaveTable,
    /// "… would end on …"
    WouldEndOnUnit,
    /// "… would evade across …: a river halts a move (rivers are impassable to artillery)"
    RiverHalts,
    /// "… evades between …" and …"…"
    EvadeDistanceOutsideRange,
    /// "… fires in the … fire step"
    NotItsFireStep,
    /// "… has already fired this turn"
    AlreadyFiredThisTurn,
    /// "… has already fired this step"
    AlreadyFiredThisStep,
    /// "generals do not fire"
    GeneralsDoNotFire,
    /// "… is limbered"
    Limbered,
    /// "… is silenced"
    Silenced,
    /// "… moved this turn: only horse artillery that moved up to 6" and unlimbered may fire, and
    /// manhandled guns never"
    MovedAndMayNotFire,
    /// "… is in contact with the enemy: it assaults instead", and for one that has not moved
    /// into contact " (by its command roll and 'Assault … where it stands' in the movement step)"
    InContactAssaultsInstead,
    /// "both units must be on the table"
    NotOnTable,
    /// "… has no fire against …"
    NoFireAgainst,
    /// "… is a friend"
    TargetIsAFriend,
    /// "… is a general: generals are not fired at"
    GeneralsAreNotFiredAt,
    /// "defensive fire is at units that moved or assault: … has not moved"
    TargetHasNotMoved,
    /// "… cannot fire at …: …", for the first reason a base of its front rank cannot.
    CannotFireAt(NoFire),
    /// "unit '…' has the troop type '…', which BBB's data lacks"
    UnknownTroopType,
    /// "…'s command roll does not let it recover a base this turn"
    RollLetsNoRecovery,
    /// "… has moved: a base is recovered instead of moving"
    MovedInsteadOfRecovering,
    /// "… has no room to take a base back: … stands there"
    NoRoomToRecover,
    /// "… is a general: generals move in their own step"
    GeneralsMoveInOwnStep,
    /// "… must roll for command before it moves (Roll for command)"
    MustRollForCommand,
    /// "…'s command roll allows no move this turn"
    RollAllowsNoMove,
    /// "…: only Aggressive infantry may move in depth; it may change formation"
    /// "…: only Aggressive infantry may move in depth"
    OnlyAggressiveInDepth,
    /// "… pivots by Form with a turn (half a move), not by a move"
    PivotByForm,
    /// "a move needs at least one step"
    NoSteps,
    /// "a move into contact must be the last step"
    ContactNotLastStep,
    /// "… does not meet … squarely"
    NotSquarely,
    /// "generals do not assault"
    GeneralsDoNotAssault,
    /// "… cannot reach … by going straight ahead"
    CannotReachStraightAhead,
    /// "…: rivers are impassable to artillery"
    RiverImpassableToArtillery,
    /// "…: crossing a river takes a full move, and ends it"
    RiverTakesFullMove,
    /// "… may move …" more; this move counts …"…"
    BeyondAllowance {
        /// The inches it may still move (the words give them to a tenth).
        more: f32,
    },
    /// "generals have no formation"
    GeneralsHaveNoFormation,
    /// "a turn is 0, 90, -90 or 180 degrees"
    NotAQuarterTurn,
    /// "…: artillery limbers and unlimbers instead of changing formation"
    ArtilleryLimbersInstead,
    /// "an artillery pivot needs a turn"
    ArtilleryPivotNeedsTurn,
    /// "…: BBB units stand in line, column of march or in depth"
    NotABbbFormation,
    /// "… is already in that formation"
    AlreadyInFormation,
    /// "… … for …" of its move: it has …" left"
    NotEnoughMoveLeft,
    /// "…: a pivot takes half a move (…"); it has …""
    PivotNeedsHalfMove,
    /// "…: a formation change takes a full move; its roll allowed …""
    FormationNeedsFullMove,
    /// "… is not artillery"
    NotArtillery,
    /// "… is already …"
    AlreadyLimberedSo,
    /// "…: limbering or unlimbering takes half a move (…"); it has …""
    LimberingNeedsHalfMove,
    /// "… is a general: generals move in their own step without a roll"
    GeneralsMoveWithoutRoll,
    /// "… has already rolled for command this turn"
    AlreadyRolledForCommand,
    /// "a BBB turn has no … step"
    NoSuchStep,
    /// "… would pass through …: an assault meets the first enemy in its way"
    PassesEnemyBeforeContact,
    /// "… would pass through …" (an enemy, on a move)
    WouldPassThroughEnemy,
    /// "… entered the 3" zone of control of … this turn: it stopped there, and may go on only to
    /// assault"
    StoppedInZoneOfControl,
    /// "… enters the 3" zone of control of …: it must stop there unless it assaults"
    EntersZoneOfControl,
    /// "… would pass through …" (an enemy, on an evade)
    EvadesThroughEnemy,
    /// "… would evade into the 3" zone of control of …: it must stop there"
    EvadesIntoZoneOfControl,
}

/// Why no base of a firer's front rank can fire at a target: the first reason found, which the
/// refusal's words give after the colon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoFire {
    /// "out of range (…")"
    OutOfRange,
    /// "outside the front arc"
    OutsideFrontArc,
    /// "a slope between blocks the view"
    Slope,
    /// "… blocks the view beyond 3" inside it" (woods or a town)
    Cover,
    /// "… is in the way"
    UnitInTheWay,
    /// "no fire value at …""
    NoFireValue,
    /// "no base can"
    NoBase,
}
