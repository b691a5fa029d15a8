//! Why Hal's rules refuse a command: the kind each refusal is made with, kept beside its words.
//!
//! The words a player reads are written where the refusal is made, as before; the kind is
//! what a test or a caller checks, so that rewording a message changes no check. Each
//! variant's note quotes the words it is made with (… for a name or a number).

/// What a refusal was for (see the module's note).
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// "… is not an enemy on the table"
    NotAnEnemyOnTable,
    /// "…: only infantry and cavalry not skirmishing charge"
    MayNotCharge,
    /// "… is routed"
    Routed,
    /// "… has declared its charge on … already"
    AlreadyDeclared,
    /// "… is an officer, not a unit to charge"
    OfficerNotChargeable,
    /// "… is not ahead of …'s front"
    NotAheadOfFront,
    /// "… is …" away: … could charge …" at most"
    BeyondChargeReach,
    /// "… declared no charge this turn"
    NoChargeDeclared,
    /// "… has moved or charged this turn"
    MovedOrCharged,
    /// "… is no longer on the table"
    NotOnTable,
    /// "… blocks the way to …"
    WayBlocked,
    /// "the way to … goes through … (woods)"
    WayThroughWoods,
    /// "… would leave the table"
    WouldLeaveTable,
    /// "… would end in contact with … too, which was not charged and made no check to hold"
    ContactWithUncharged,
    /// "… is in flames: no unit may enter it"
    InFlames,
    /// "… is not a courier on the table"
    NotACourier,
    /// "…: the other side is moving"
    OtherSideMoving,
    /// "… already carries orders"
    AlreadyCarriesOrders,
    /// "brigade … has no commander on the table"
    NoCommander,
    /// "written orders are 1 to 200 characters"
    OrdersLength,
    /// "… is limbered"
    Limbered,
    /// "…: no gun has two crew"
    /// "…: no gun has two crew to move it"
    NoGunWithTwoCrew,
    /// "…: artillery fires first; small arms next"
    ArtilleryFiresFirst,
    /// "… fired in the artillery step"
    FiredInArtilleryStep,
    /// "… cannot fire at …"
    CannotFireAt,
    /// "… has fired this turn"
    AlreadyFired,
    /// "…: cavalry do not fire small arms"
    CavalryDoNotFire,
    /// "… passed through formed friends: it does nothing more this turn (III.A.10)"
    PassedThroughFriends,
    /// "… charged this turn: it may not fire"
    ChargedMayNotFire,
    /// "… is in melee"
    InMelee,
    /// "… must fire into …'s charge"
    MustFireIntoCharge,
    /// "… is outside …'s arc"
    OutsideArc,
    /// "… is …" away: beyond …""
    BeyondRange,
    /// "… cannot see …: …"
    CannotSee,
    /// "… fires at the nearest enemy threat: … at …""
    MustFireAtNearestThreat,
    /// "… and … are not in melee"
    NotInMelee,
    /// "that melee has been fought this turn"
    MeleeFought,
    /// "unit '…' has the troop type '…', which Hal's data lacks"
    UnknownTroopType,
    /// "a move needs at least one step"
    NoSteps,
    /// "… has charged this turn"
    Charged,
    /// "… may move …" this turn…; this move is …""
    BeyondAllowance {
        /// The inches it may move this turn, the dice still to throw at their best (the words
        /// give them to a tenth).
        may: f32,
    },
    /// "Hal's units meet the enemy only by a declared charge (Charge)"
    /// "… would end in contact with …: only a declared charge meets the enemy"
    ContactOnlyByCharge,
    /// "…: cavalry may not move back facing the enemy (III.A.3); turn about first"
    CavalryMayNotMoveBack,
    /// "…: formed units may not move through woods (…)"
    FormedThroughWoods,
    /// "… would end on …"
    WouldEndOnUnit,
    /// "… may not pass through …"
    MayNotPassThrough,
    /// "…: horse does not occupy …"
    HorseDoesNotOccupy,
    /// "… holds one battalion and one battery: … is there"
    TownFull,
    /// "… cannot take that formation…"
    CannotTakeFormation,
    /// "a turn is 0, 90, -90 or 180 degrees"
    NotAQuarterTurn,
    /// "… is already in that formation"
    AlreadyInFormation,
    /// "…: formed units may not stand in woods"
    FormedInWoods,
    /// "… is not a battery"
    NotABattery,
    /// "… is … already"
    AlreadyLimberedSo,
    /// "… belongs to no brigade: it moves with any of its side's brigades"
    NoBrigade,
    /// "brigade … has moved this turn"
    BrigadeMoved,
    /// "the throw gave no more brigades to move: end the throw"
    NoMoreBrigades,
    /// "…: brigade … is not moving now (set it moving first)"
    BrigadeNotMoving,
    /// "… moves with one of its side's brigades: set one moving first"
    NoBrigadeMoving,
    /// "… stands this turn"
    StandsThisTurn,
    /// "… is routed: it runs in the rout movement"
    RoutedRunsInRout,
    /// "Hal's rules have no … phase"
    NoSuchPhase,
    /// "re-rolls are handled by the battle"
    RerollsByTheBattle,
    /// "these rules leave a victor no pursuit to choose"
    NoPursuitToChoose,
    /// "undo is handled by the battle"
    UndoByTheBattle,
    /// "Hal's rules move units one at a time, by brigades; officers attach by standing against a
    /// unit"
    NotInTheseRules,
    /// "Hal's units move one at a time"
    NoGroupMoves,
    /// "… is not a general on the table"
    NotAGeneral,
    /// "… has no chips left"
    NoChipsLeft,
    /// "there is no new roll to throw again"
    NoNewRoll,
    /// "… is not …'s"
    NotTheGeneralsUnit,
    /// "… is beyond …'s command radius"
    BeyondCommandRadius,
    /// "… has no roll in the last command that went badly"
    NoBadRoll,
    /// "nothing to preview"
    NothingToPreview,
}
