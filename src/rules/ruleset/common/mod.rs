//! Machinery every ruleset shares: rules numbers and factors read from data with their sources
//! (`data`), the checked move (`moves`), moving into contact and conforming (`contact`), the
//! marks every ruleset draws alike (`marks`), the chances of dice (`chances`), the door for a
//! ruleset's own events (`events`), and here whose unit it is, standing orders and what a click
//! on an enemy means.

mod chances;
mod contact;
mod data;
mod events;
mod marks;
mod moves;
mod refusal;
mod table;

pub use chances::*;
pub use contact::*;
pub use data::*;
pub use events::*;
pub use marks::*;
pub use moves::*;
pub use refusal::Refusal;
pub use table::*;

use super::Ruleset;
use super::view::{Action, ActionGroup};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event, RuleError};
use crate::rules::model::{Phase, Unit, UnitId};

/// Refuses a unit removed from the table: it no longer acts.
pub fn on_table(u: &Unit) -> Result<(), RuleError> {
    if u.alive() {
        Ok(())
    } else {
        Err(RuleError::refused(
            Refusal::NotOnTable,
            format!("{} is no longer on the table", u.name),
        ))
    }
}

/// Refuses units of the wrong side or off the table.
pub fn own_active(b: &Battle, u: &Unit) -> Result<(), RuleError> {
    on_table(u)?;
    if u.side != b.active {
        return Err(RuleError::NotYourUnit(u.id.clone()));
    }
    Ok(())
}

/// The owner's standing pursuit order for a unit of the side at the seat (`no_choice` says why
/// the rules leave the unit none): free, in any phase, and it stands until changed.
pub fn order_pursuit(
    b: &mut Battle,
    out: &mut Vec<Event>,
    unit: &UnitId,
    pursue: bool,
    no_choice: Option<String>,
) -> Result<(), RuleError> {
    let u = b.unit(unit)?;
    own_active(b, u)?;
    if let Some(why) = no_choice {
        return Err(RuleError::refused(Refusal::NoPursuitChoice, why));
    }
    if pursue != u.status.hold_ground {
        return Err(RuleError::refused(
            Refusal::AlreadyOrderedSo,
            format!(
                "{} is already ordered to {} if victorious",
                u.name,
                if pursue { "pursue" } else { "hold its ground" }
            ),
        ));
    }
    b.emit(
        out,
        Event::PursuitOrdered {
            unit: unit.clone(),
            pursue,
        },
    );
    Ok(())
}

/// The card's line with a unit's standing pursuit order.
pub fn pursuit_order_line(u: &Unit) -> String {
    if u.status.hold_ground {
        "If victorious: holds its ground (standing order)".into()
    } else {
        "If victorious: pursues (standing order)".into()
    }
}

/// The button that changes a unit's standing pursuit order; its owner gives it in his bound,
/// and it holds in the enemy's bound too.
pub fn pursuit_order_action(u: &Unit) -> ActionGroup {
    let (label, pursue) = if u.status.hold_ground {
        ("Pursue if victorious", true)
    } else {
        ("Hold ground if victorious", false)
    };
    ActionGroup {
        title: "Standing order".into(),
        note: "What the unit does if it wins a close combat: the order holds in either side's \
               bound until changed, and costs nothing."
            .into(),
        actions: vec![Action {
            label: label.into(),
            command: Command::PursuitOrder {
                unit: u.id.clone(),
                pursue,
            },
        }],
    }
}

/// The command a click on an enemy gives in the ruleset's phases of `firing` and
/// `close_combat`.
pub fn fire_or_fight(
    b: &Battle,
    own: &UnitId,
    enemy: &UnitId,
    firing: Phase,
    close_combat: Phase,
) -> Option<Command> {
    match b.phase {
        p if p == firing => Some(Command::Fire {
            unit: own.clone(),
            target: enemy.clone(),
            support: vec![],
            defence: None,
        }),
        p if p == close_combat => Some(Command::Fight {
            unit: own.clone(),
            target: enemy.clone(),
            pursue: None,
            pursuits: Vec::new(),
        }),
        _ => None,
    }
}

/// What a click on `clicked` gives while `selected` is selected, as the window and the lesson
/// checks both read it: the ruleset's command on a target (fire, fight, a declared charge) when
/// the two are enemies, or None where the click selects `clicked` instead. A unit of a side that
/// acts now (both sides declare charges and fire in Hal's) is a target only for a command its
/// enemy may give: clicking it otherwise selects it.
pub fn click_command(
    rules: &dyn Ruleset,
    b: &Battle,
    selected: &UnitId,
    clicked: &UnitId,
) -> Option<Command> {
    let (s, c) = (b.unit(selected).ok()?, b.unit(clicked).ok()?);
    if s.side == c.side {
        return None;
    }
    let cmd = rules.target_command(b, selected, clicked)?;
    let acting = rules.acting_sides(b).contains(&c.side);
    (!acting || rules.preview(b, &cmd).is_ok()).then_some(cmd)
}

/// Refuses a command: the reason in words, and its kind (the refusing ruleset's `Refusal`).
pub(crate) fn illegal<T, K: std::any::Any + Send + Sync>(
    kind: K,
    s: String,
) -> Result<T, RuleError> {
    Err(RuleError::refused(kind, s))
}

/// Refuses a command given outside its phase.
pub(crate) fn in_phase(b: &Battle, phase: Phase, what: &str) -> Result<(), RuleError> {
    if b.phase != phase {
        return Err(RuleError::WrongPhase {
            command: what.into(),
            phase: b.phase,
        });
    }
    Ok(())
}
