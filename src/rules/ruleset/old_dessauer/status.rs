//! What Old Dessauer alone records of a unit beyond the shared status: a charge into a flank
//! or rear that counts as frontal.

use crate::rules::model::Unit;

/// Old Dessauer's own status of a unit, held in the shared status's `own` part.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OwnStatus {
    /// Its charge into an enemy's flank or rear counts as a frontal attack: it did not begin the
    /// turn behind that flank.
    pub frontal_charge: bool,
}

/// The status of a unit that has none of its own yet.
static FRESH: OwnStatus = OwnStatus {
    frontal_charge: false,
};

/// A unit's Old Dessauer status.
pub fn own(u: &Unit) -> &OwnStatus {
    u.status.own.get().unwrap_or(&FRESH)
}

/// A unit's Old Dessauer status to change (copied first if a copy of the battle shares it).
pub fn own_mut(u: &mut Unit) -> &mut OwnStatus {
    u.status.own.get_mut()
}
