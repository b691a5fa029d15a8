//! What BBB alone records of a unit beyond the shared status: a silenced battery.

use crate::rules::model::Unit;

/// BBB's own status of a unit, held in the shared status's `own` part.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OwnStatus {
    /// Artillery silenced: it cannot fire until it recovers.
    pub silenced: bool,
}

/// The status of a unit that has none of its own yet.
static FRESH: OwnStatus = OwnStatus { silenced: false };

/// A unit's BBB status.
pub fn own(u: &Unit) -> &OwnStatus {
    u.status.own.get().unwrap_or(&FRESH)
}

/// A unit's BBB status to change (copied first if a copy of the battle shares it).
pub fn own_mut(u: &mut Unit) -> &mut OwnStatus {
    u.status.own.get_mut()
}
