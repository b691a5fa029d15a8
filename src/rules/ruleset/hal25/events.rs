//! Hal's own events: the throw for the move and the brigades set moving, generals' chips,
//! charges declared and braced for, the markers a unit carries, couriers' orders and towns
//! burning. The shared events are `rules::command::Event`; these join the log through
//! `Event::Own` (see `ruleset::common::RulesetEvent`).

use super::status::own_mut;
use crate::rules::battle::Battle;
use crate::rules::model::{Side, UnitId};
use crate::rules::own_event::OwnEventType;
use crate::rules::roll::Roll;
use crate::rules::ruleset::common::RulesetEvent;
use serde::{Deserialize, Serialize};

/// Something that happened that only Hal's rules make happen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum HalEvent {
    /// Both sides threw for the move (Hal's): the side that moves next and how many brigades it
    /// moves; no side on a tie.
    Initiative {
        dice: Vec<u8>,
        side: Option<Side>,
        brigades: u32,
    },
    /// A side sets one of its brigades moving (Hal's).
    BrigadeActivated { side: Side, brigade: String },
    /// A general's pre-game roll for chips (Hal's): chips, command radius (the ruleset's
    /// units), dice to movement, and command-control bonus.
    Chips {
        general: UnitId,
        roll: Roll,
        chips: u32,
        radius: f32,
        move_dice: i32,
        command: i32,
    },
    /// A charge announced with its target (Hal's).
    Declared { unit: UnitId, target: UnitId },
    /// A marker of a unit's state set (count above 0) or cleared (Hal's casualty figures, the
    /// command stand's place, a declared charge).
    Marked {
        unit: UnitId,
        marker: Marker,
        count: u32,
    },
    /// The target of a charge holds (Hal's): it fires into the charge at this range, in the
    /// ruleset's units (None: it does not fire).
    Braced {
        unit: UnitId,
        against: UnitId,
        range: Option<f32>,
    },
    /// A courier carries written orders to a brigade (Hal's); `delivered` when he reaches its
    /// commander, `lost` when the message goes astray, otherwise just sent.
    Orders {
        courier: UnitId,
        brigade: String,
        order: String,
        delivered: bool,
        lost: bool,
    },
    /// A town loses points to artillery; at none left it burns and may not be occupied.
    TownDamaged {
        feature: String,
        points: u32,
        left: u32,
    },
}

/// A marker a unit carries (Hal's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Marker {
    /// Must check morale ("falling casualty figure").
    MustCheck,
    /// Its first volley is spent: the command stand stands in the middle.
    VolleySpent,
    /// It has made its one strength check (a battery half lost, a unit down to two stands).
    CheckedStrength,
    /// Failed attempts to recover from rout.
    RecoveryFailed,
    /// Its charge declaration (cleared at the end of the turn).
    Declaration,
}

inventory::submit!(OwnEventType::of::<HalEvent>());

impl RulesetEvent for HalEvent {
    fn apply(&self, b: &mut Battle) {
        match self {
            HalEvent::Initiative {
                side: Some(s),
                brigades,
                ..
            } if *s < 2 => {
                b.active = *s;
                b.command_points[*s] = *brigades as i32;
            }
            HalEvent::BrigadeActivated { side, .. } if *side < 2 => {
                b.command_points[*side] = (b.command_points[*side] - 1).max(0);
            }
            HalEvent::Declared { unit, target } => {
                let target = target.clone();
                b.with_unit(unit, |u| own_mut(u).declared = Some(target))
            }
            HalEvent::Marked {
                unit,
                marker,
                count,
            } => b.with_unit(unit, |u| {
                let s = own_mut(u);
                let on = *count > 0;
                match marker {
                    Marker::MustCheck => s.must_check = on,
                    Marker::VolleySpent => s.volley_spent = on,
                    Marker::CheckedStrength => s.checked_half = on,
                    Marker::RecoveryFailed => s.recovery_failed = *count,
                    Marker::Declaration => {
                        if !on {
                            s.declared = None
                        }
                    }
                }
            }),
            HalEvent::Braced { unit, range, .. } => {
                b.with_unit(unit, |u| u.bound.fire_range = *range)
            }
            HalEvent::Chips {
                general,
                chips,
                radius,
                move_dice,
                command,
                ..
            } => b.with_unit(general, |g| {
                g.extra.chips = *chips;
                g.extra.command_radius = *radius;
                g.extra.move_dice = *move_dice;
                g.extra.leadership = *command;
            }),
            // Records only (a tie for the move, a side with no brigade left, couriers, a
            // town's damage): the rules read them back from the log.
            HalEvent::Initiative { .. }
            | HalEvent::BrigadeActivated { .. }
            | HalEvent::Orders { .. }
            | HalEvent::TownDamaged { .. } => {}
        }
    }
}
