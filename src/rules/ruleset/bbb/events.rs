//! BBB's own events: a unit's fire on the fire table, guns silenced, bases recovered. The
//! shared events are `rules::command::Event`; these join the log through `Event::Own` (see
//! `ruleset::common::RulesetEvent`).

use super::status::own_mut;
use crate::rules::battle::Battle;
use crate::rules::model::{Stand, UnitId};
use crate::rules::own_event::OwnEventType;
use crate::rules::roll::Roll;
use crate::rules::ruleset::common::RulesetEvent;
use serde::{Deserialize, Serialize};

/// Something that happened that only BBB's rules make happen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum BbbEvent {
    /// A unit fires on the fire table (BBB); the roll holds the fire value, shifts, halvings,
    /// column and result. Its effects follow.
    Salvo {
        shooter: UnitId,
        target: UnitId,
        roll: Roll,
        /// The column of the fire table it was read on (`FireColumn`), in memory only: the
        /// roll's outcome says it in words.
        #[serde(skip)]
        column: crate::rules::tagged::Kind,
    },
    /// Artillery silenced, or recovered from it (BBB).
    Silenced {
        unit: UnitId,
        silenced: bool,
        why: String,
    },
    /// Bases recovered; `stands` is what the unit has now.
    Recovered { unit: UnitId, stands: Vec<u32> },
}

inventory::submit!(OwnEventType::of::<BbbEvent>());

impl RulesetEvent for BbbEvent {
    fn apply(&self, b: &mut Battle) {
        match self {
            BbbEvent::Salvo { shooter, .. } => b.with_unit(shooter, |u| u.bound.fired = true),
            BbbEvent::Silenced { unit, silenced, .. } => {
                b.with_unit(unit, |u| own_mut(u).silenced = *silenced)
            }
            BbbEvent::Recovered { unit, stands } => b.with_unit(unit, |u| {
                u.stands = stands.iter().map(|&f| Stand::new(f)).collect();
                u.bound.may_recover = false;
                u.bound.allowance = Some(0.0);
            }),
        }
    }

    fn rolls(&self) -> Vec<Roll> {
        match self {
            BbbEvent::Salvo { roll, .. } => vec![roll.clone()],
            _ => Vec::new(),
        }
    }
}
