//! Why Old Dessauer refuses a command: the kind each refusal is made with, kept beside its words.
//!
//! The words a player reads are written where the refusal is made, as before; the kind is
//! what a test or a caller checks, so that rewording a message changes no check. Each
//! variant's note quotes the words it is made with (… for a name or a number).

/// What a refusal was for (see the module's note).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// "… failed its command test: no charge this turn"
    FailedCommandTestNoCharge,
    /// "…: gunners and generals may not charge"
    GunnersAndGeneralsDoNotCharge,
    /// "… is shaken and may not charge"
    ShakenMayNotCharge,
    /// "… cannot charge …"
    CannotCharge,
    /// "…: skirmishers never charge formed troops or artillery"
    SkirmishersDoNotChargeFormed,
    /// "the final … inches of a charge must be straight ahead (… were)"
    ChargeTailNotStraight,
    /// "… is not in contact with …"
    /// "… is not in contact with that enemy"
    NotInContact,
    /// "the combat of … has fought its round this turn"
    CombatFought,
    /// "no room on the table for … to form so"
    NoRoomToForm,
    /// "… failed its command test: no change of formation or facing this turn"
    FailedCommandTestNoFormation,
    /// "… fell back this turn instead of moving"
    FellBack,
    /// "… is in combat: no change of frontage or facing"
    InCombatNoFormation,
    /// "… has already changed formation this turn"
    AlreadyChangedFormation,
    /// "… cannot form …"
    CannotForm,
    /// "a change of facing is 90 or 180 degrees"
    NotAFacingChange,
    /// "… is already in that formation and facing"
    AlreadyInFormation,
    /// "… is already in an L or conformed to terrain: reform into line or column first"
    AlreadyInL,
    /// "… has too few stands to form an L"
    TooFewStandsForL,
    /// "… has moved too far to change formation (… of … inches used)"
    MovedTooFarToForm,
    /// "… would overlap …"
    WouldOverlap,
    /// "… is not limbered guns"
    NotLimberedGuns,
    /// "no room for … to unlimber"
    NoRoomToUnlimber,
    /// "generals are an optional rule not in use in this battle"
    GeneralsNotInUse,
    /// "… is not a general"
    NotAGeneral,
    /// "… is not attached"
    NotAttached,
    /// "… can only attach to a friendly regiment or battery"
    AttachOnlyToFriend,
    /// "… already has … attached"
    AlreadyHasGeneral,
    /// "Old Dessauer moves one unit at a time"
    NoGroupMoves,
    /// "nothing to preview"
    NothingToPreview,
    /// "…: once guns unlimber they may not limber up again"
    GunsMayNotLimberAgain,
    /// "Old Dessauer has no unit command rolls, recovered bases or evasion orders"
    NotInTheseRules,
    /// "Old Dessauer has no formal deployment or fortifying"
    NoDeploymentOrFortifying,
    /// "undo is handled by the battle"
    UndoByTheBattle,
    /// "one stand of one unit moves alone"
    OneStandMovesAlone,
    /// "… stands still this turn: … moved through it"
    StandsStillPassedThrough,
    /// "… cannot pass through …: it has moved this turn, and a friend passed through must stand
    /// still"
    FriendMovedMayNotPass,
    /// "… would pass through …"
    WouldPassThrough,
    /// "… would come within … inch of … (zone of control)"
    ZoneOfControl,
    /// "a charge into contact must be the last step"
    ChargeContactNotLast,
    /// "… cannot reach … by going straight ahead"
    CannotReachStraightAhead,
    /// "turn by a change of facing (90 or 180 degrees) instead of pivoting"
    PivotByFacing,
    /// "an oblique goes forward only"
    ObliqueForwardOnly,
    /// "… is attached: detach first"
    AttachedDetachFirst,
    /// "… is in combat and may not move"
    InCombatMayNotMove,
    /// "…: squares may not move"
    SquaresMayNotMove,
    /// "… is in an L or conformed to terrain: change formation before moving"
    InLMayNotMove,
    /// "… unlimbered this turn"
    UnlimberedThisTurn,
    /// "a move has 1 to 16 steps"
    StepCount,
    /// "… would leave the table"
    WouldLeaveTable,
    /// "… cannot cross … except at a bridge"
    RiverWithoutBridge,
    /// "only infantry may enter …"
    OnlyInfantryEnter,
    /// "…: only skirmishers move stand by stand"
    OnlySkirmishersByStand,
    /// "a skirmish stand does not charge alone: charge with the whole unit"
    SkirmishStandDoesNotCharge,
    /// "… has stands 1 to …, not …"
    NoSuchStand,
    /// "stand … of … would be more than … inches from its command stand (stand …)"
    StandTooFarFromCommand,
    /// "… has no parent regiment"
    NoParentRegiment,
    /// "regimental guns take no part in combat"
    RegimentalGunsDoNotFight,
    /// "… must stay touching …"
    MustTouchParent,
    /// "no room for … there"
    NoRoomThere,
    /// "… is not in this combat"
    NotInThisCombat,
    /// "… has two pursuit orders"
    TwoPursuitOrders,
    /// "…: a pursuit distance is 0 or more"
    NegativePursuit,
    /// "… may not pursue …: a winner pursues the enemy it rolls most dice against"
    PursuesWrongEnemy,
    /// "… has not recoiled this turn"
    HasNotRecoiled,
    /// "… is in combat again and may not recoil farther"
    InCombatAgain,
    /// "… has recoiled … inches this turn; a unit recoils at most … in all"
    RecoilLimit,
    /// "… cannot recoil so far: …"
    CannotRecoilSoFar,
    /// "voluntary fallback is an optional rule not in use in this battle"
    FallbackNotInUse,
    /// "… cannot fall back"
    CannotFallBack,
    /// "… is in combat and may not fall back"
    InCombatMayNotFallBack,
    /// "… has already moved this turn"
    AlreadyMoved,
    /// "a fallback is more than 0 and at most … inches"
    FallbackDistance,
    /// "… needs a general within … inches to fall back"
    FallbackNeedsGeneral,
    /// "… cannot fall back so far: …"
    CannotFallBackSoFar,
    /// "…: cavalry may not shoot"
    CavalryMayNotShoot,
    /// "… is a general"
    GeneralsDoNotShoot,
    /// "… charged this turn and may not shoot"
    ChargedMayNotShoot,
    /// "… is shaken and may not shoot"
    ShakenMayNotShoot,
    /// "… is in combat"
    InCombat,
    /// "… is limbered"
    Limbered,
    /// "…: guns may not move and shoot"
    GunsMovedMayNotShoot,
    /// "… moved more than half speed and may not shoot"
    MovedOverHalfSpeed,
    /// "… cannot shoot at …"
    CannotShootAt,
    /// "… is in combat without a hanging flank: no shooting into the melee"
    TargetInMelee,
    /// "no stand of … can shoot at …"
    NoStandCanShoot(NoShot),
}

/// Why no stand of a unit may shoot at a target: the reason found for the last stand tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoShot {
    /// No reason given: "no stand of … can shoot at …"
    NoStand,
    /// "… is out of range"
    OutOfRange,
    /// "… is not within 45 degrees of the front"
    OutsideArc,
    /// "… cannot be seen (terrain)"
    CannotBeSeen,
    /// "the line of fire is blocked by …" (a unit)
    Blocked,
    /// "the line of fire is blocked by the gap between … and … is under … inches"
    NarrowGap,
    /// "only one stand may shoot through each … inches of a gap"
    GapFull,
}
