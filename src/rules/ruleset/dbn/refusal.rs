//! Why the DBN engine (both DBN rulesets) refuses a command: the kind each refusal is made
//! with, kept beside its words.
//!
//! The words a player reads are written where the refusal is made, as before; the kind is
//! what a test or a caller checks, so that rewording a message changes no check. Each
//! variant's note quotes the words it is made with (… for a name or a number).

/// What a refusal was for (see the module's note).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// "… is not in close combat with …"
    NotInCloseCombat,
    /// "fight the combat to the front of … first (…)"
    FrontCombatFirst,
    /// "… is no divisional commander"
    NotADivisionalCommander,
    /// "a DBN bound has no … phase"
    NoSuchPhase,
    /// "deployment is over"
    DeploymentOver,
    /// "… is already deployed"
    AlreadyDeployed,
    /// "… belongs to the … division; the … division is deploying"
    OtherDivisionDeploying,
    /// "deployment position must be numbers"
    PositionNotNumbers,
    /// "… would be off the table"
    WouldBeOffTable,
    /// "… must deploy inside its deployment zone"
    OutsideDeploymentZone,
    /// "… would overlap …"
    WouldOverlap,
    /// "… must deploy at least … … from …"
    TooCloseToEnemy,
    /// "… of the … division is not yet deployed"
    DivisionNotDeployed,
    /// "the … division stands in … bodies: a division deploys as 1 or … formations, each of units
    /// in edge contact"
    TooManyBodies,
    /// "… failed its first die this phase and cannot support fire"
    SupportFailedFirstDie,
    /// "artillery cannot support artillery in firing"
    ArtilleryCannotSupportArtillery,
    /// "… cannot support: …"
    CannotSupport,
    /// "… is named twice"
    /// "… is named twice in the group"
    NamedTwice,
    /// "… cannot support the defence: …"
    CannotSupportDefence,
    /// "units of this ruleset are single elements: no loose stands, attached generals, fallbacks or
    /// chosen recoils"
    SingleElements,
    /// "DBN units move by the side's command points: no unit command rolls, recovered bases or
    /// evasion"
    MoveByCommandPoints,
    /// "undo is handled by the battle"
    UndoByTheBattle,
    /// "units of this ruleset are single elements: no stand moves alone"
    NoStandMovesAlone,
    /// "a move needs a unit"
    MoveNeedsAUnit,
    /// "… does not reach the front edge contact with …"
    DoesNotReachFront,
    /// "… is in the threat zone of …: it may only advance towards it, move into contact or move
    /// directly away"
    InThreatZone,
    /// "… enters the threat zone of …"
    EntersThreatZone,
    /// "… would leave the table"
    WouldLeaveTable,
    /// "… cannot cross … except by a bridge"
    RiverWithoutBridge,
    /// "… cannot enter …"
    CannotEnterGoing,
    /// "… cannot move"
    CannotMove,
    /// "a group move needs at least one unit"
    /// "a group move needs units"
    GroupNeedsAUnit,
    /// "a move needs at least one step"
    NoSteps,
    /// "a move has at most 16 steps"
    TooManySteps,
    /// "a group must all face the same way"
    GroupFacesDiffer,
    /// "… is a friend"
    TargetIsAFriend,
    /// "… is no longer on the table"
    TargetNotOnTable,
    /// "no_contact_words( &start, &target.base, &lead.name, &target.name, max_off, )"
    NoContact,
    /// "… would end on …" (a friend it may pass through, not stop on)
    WouldEndOn,
    /// "… would pass through …"
    WouldPassThrough,
    /// "… is not artillery"
    NotArtillery,
    /// "… is already …"
    AlreadyLimberedSo,
    /// "… is in close combat"
    /// "… is in close combat and cannot move"
    InCloseCombat,
    /// "… (baggage) does not move"
    BaggageDoesNotMove,
    /// "… is fixed artillery and may not move"
    FixedArtillery,
    /// "… limbered or unlimbered this bound and cannot move"
    /// "… limbered or unlimbered this bound"
    LimberedThisBound,
    /// "unlimbered artillery may only pivot up to … degrees; limber it to move", and for a move
    /// "… is unlimbered: it may only pivot where it stands (up to … degrees); limber it to move"
    UnlimberedPivotTooFar,
    /// "commanders do not charge"
    CommandersDoNotCharge,
    /// "… is not in edge contact with the rest of the group"
    NotInEdgeContact,
    /// "only firing and close combat have odds"
    NoOddsForThisCommand,
    /// "units of this ruleset have no formations to change"
    NoFormations,
    /// "only foot may occupy …"
    OnlyFootOccupy,
    /// "… is not fortified: a BUA must be fortified before it can be garrisoned"
    NotFortified,
    /// "… has no fortifying during play"
    NoFortifyingInPlay,
    /// "only the defending army may fortify"
    OnlyDefenderFortifies,
    /// "… is not a town or village"
    NotATown,
    /// "… is already fortified"
    AlreadyFortified,
    /// "fortifying costs … army points; the army already costs … of …"
    FortifyingOverPoints,
    /// "… cannot fire"
    CannotFire,
    /// "not on the table"
    NotOnTable,
    /// "… has already fired"
    AlreadyFired,
    /// "… is out of ammunition"
    OutOfAmmunition,
    /// "… is a divisional commander: attacked only in close combat"
    DivisionalNotFiredAt,
    /// "… is limbered"
    Limbered,
    /// "… moved this bound: artillery may move or fire"
    MovedArtilleryMayNotFire,
    /// "… is in close combat"
    TargetInCloseCombat,
    /// "… is inside bad going, not on its edge"
    InsideBadGoing,
    /// "… is out of arc"
    OutOfArc,
    /// "… is beyond effective range (…) and long range needs raised ground, a stationary firer and
    /// a target in the open: …"
    BeyondEffectiveRange(LongRange),
    /// "… is out of range: …"
    OutOfRange,
    /// "(the reason the line of sight is blocked)"
    NoLineOfSight,
}

/// Why a target beyond effective range but within long range may not be fired at: the first
/// condition of long range the firing fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LongRange {
    /// "not on raised ground"
    NotOnRaisedGround,
    /// "it moved this bound"
    Moved,
    /// "the target is not in the open"
    TargetNotInOpen,
}
