//! What Hal's rules alone record of a unit beyond the shared status: its first volley spent,
//! its morale markers (a falling casualty figure, a battery's half-strength check, a failed
//! rally from rout) and the charge it has declared.

use crate::rules::model::{Unit, UnitId};

/// Hal's own status of a unit, held in the shared status's `own` part.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OwnStatus {
    /// Its first volley has been delivered: the command stand moves to the middle.
    pub volley_spent: bool,
    /// Failed attempts to recover from rout: a second failure removes the unit.
    pub recovery_failed: u32,
    /// Must check morale (the "falling casualty figure").
    pub must_check: bool,
    /// A battery that has made its one check for losing half its figures.
    pub checked_half: bool,
    /// The enemy it has declared a charge on this turn.
    pub declared: Option<UnitId>,
}

/// The status of a unit that has none of its own yet.
static FRESH: OwnStatus = OwnStatus {
    volley_spent: false,
    recovery_failed: 0,
    must_check: false,
    checked_half: false,
    declared: None,
};

/// A unit's status in Hal's rules.
pub fn own(u: &Unit) -> &OwnStatus {
    u.status.own.get().unwrap_or(&FRESH)
}

/// A unit's status in Hal's rules to change (copied first if a copy of the battle shares it).
pub fn own_mut(u: &mut Unit) -> &mut OwnStatus {
    u.status.own.get_mut()
}
