//! Changing formation and facing (line, column, square, the L, skirmish order) and unlimbering.

use super::generals::{carried, carry};
use super::layout::{l_bases, rebuild};
use super::movement::{intermix, movement_phase, zones};
use super::{DessauerEvent, Kind, N, OldDessauer, illegal, standing_still};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::{Base, norm_deg};
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::ruleset::common::own_active;
use crate::rules::ruleset::old_dessauer::Refusal;

/// The formations a unit of this kind may take, with the buttons' words.
pub(super) fn formations(kind: Kind, limbered: bool) -> &'static [(Formation, &'static str)] {
    match kind {
        Kind::Infantry => &[
            (Formation::Line, "Line"),
            (Formation::Column, "Column"),
            (Formation::Square, "Square"),
            (Formation::Conformed, "L"),
        ],
        Kind::Cavalry => &[
            (Formation::Line, "Line"),
            (Formation::Column, "Column"),
            (Formation::Conformed, "L"),
        ],
        Kind::LightInfantry => &[(Formation::Skirmish, "Skirmish")],
        Kind::Artillery if !limbered => &[(Formation::Line, "Line")],
        Kind::Artillery => &[(Formation::Column, "Limbered")],
        _ => &[],
    }
}

/// Change formation, then facing.
pub fn form(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    id: &UnitId,
    formation: Formation,
    turn: f32,
) -> Result<(), RuleError> {
    movement_phase(b, "change formation")?;
    let u = b.unit(id)?.clone();
    own_active(b, &u)?;
    let (turn, refuse, cost) = may_form(od, b, &u, formation, turn)?;
    let to = rebuild(od, &u, formation, if refuse.is_some() { 0.0 } else { turn });
    let shapes = match refuse {
        Some(right) => l_bases(od, od.troop(&u), &to, u.stands.len(), right),
        None => vec![to],
    };
    if !shapes.iter().all(|s| b.table.holds(s)) {
        return illegal(
            Refusal::NoRoomToForm,
            format!("no room on the table for {} to form so", u.name),
        );
    }
    let intermixed = room(od, b, &u, &shapes)?;
    if !od.command_test(b, out, &u)? {
        return Ok(());
    }
    // An L is one step: its stands take their places in the new formation.
    let e = match refuse {
        Some(right) => DessauerEvent::StandsPlaced {
            unit: id.clone(),
            bases: shapes,
            why: format!(
                "forms an L refusing its {} flank: {} stand(s) wheel back to face it",
                if right { "right" } else { "left" },
                super::layout::refused_count(od, u.stands.len())
            ),
            formed: Some((formation, cost)),
        }
        .into(),
        None => Event::Reformed {
            unit: id.clone(),
            formation,
            from: u.base,
            to,
            cost,
        },
    };
    b.emit(out, e);
    carry(b, out, id, &u.base, &to);
    intermix(b, out, id, &intermixed);
    Ok(())
}

/// Refuses a change of formation or facing `u` may not make; else the turn (normalised), the
/// flank an L refuses (right: true), if it forms one, and the cost in inches.
fn may_form(
    od: &OldDessauer,
    b: &Battle,
    u: &Unit,
    formation: Formation,
    turn: f32,
) -> Result<(f32, Option<bool>, f32), RuleError> {
    let kind = od.kind(u);
    if u.bound.halted {
        return illegal(
            Refusal::FailedCommandTestNoFormation,
            format!(
                "{} failed its command test: no change of formation or facing this turn",
                u.name
            ),
        );
    }
    if u.bound.fell_back {
        return illegal(
            Refusal::FellBack,
            format!("{} fell back this turn instead of moving", u.name),
        );
    }
    standing_still(b, u)?;
    if od.in_contact(b, u) {
        return illegal(
            Refusal::InCombatNoFormation,
            format!("{} is in combat: no change of frontage or facing", u.name),
        );
    }
    if u.bound.formed {
        return illegal(
            Refusal::AlreadyChangedFormation,
            format!("{} has already changed formation this turn", u.name),
        );
    }
    let allowed: &[Formation] = match kind {
        Kind::Infantry => &[
            Formation::Line,
            Formation::Column,
            Formation::Square,
            Formation::Conformed,
        ],
        Kind::Cavalry => &[Formation::Line, Formation::Column, Formation::Conformed],
        Kind::Artillery if !u.status.limbered => &[Formation::Line],
        Kind::Artillery => &[Formation::Column],
        Kind::LightInfantry => &[Formation::Skirmish],
        _ => &[],
    };
    if !allowed.contains(&formation) {
        return illegal(
            Refusal::CannotForm,
            format!("{} cannot form {:?}", u.name, formation),
        );
    }
    let turn = norm_deg(turn);
    if ![0.0f32, 90.0, -90.0, 180.0]
        .iter()
        .any(|t| (turn - t).abs() < 0.01)
    {
        return illegal(
            Refusal::NotAFacingChange,
            "a change of facing is 90 or 180 degrees".into(),
        );
    }
    if formation == u.formation && turn.abs() < 0.01 {
        return illegal(
            Refusal::AlreadyInFormation,
            format!("{} is already in that formation and facing", u.name),
        );
    }
    // An L's turn says which flank it refuses: the arm on that side wheels back to face it
    // (the ruling `l_formation`); ahead or about, the unit conforms in the line's place.
    let refuse = (formation == Formation::Conformed && (turn.abs() - 90.0).abs() < 0.01)
        .then_some(turn > 0.0);
    if formation == Formation::Conformed && u.formation == Formation::Conformed {
        return illegal(
            Refusal::AlreadyInL,
            format!(
                "{} is already in an L or conformed to terrain: reform into line or column first",
                u.name
            ),
        );
    }
    if refuse.is_some() && u.stands.len() < 2 {
        return illegal(
            Refusal::TooFewStandsForL,
            format!("{} has too few stands to form an L", u.name),
        );
    }
    let allowance = od.allowance(u);
    let cost = allowance * od.num(N::FormCost);
    if u.bound.used() + cost > allowance + 0.01 {
        return illegal(
            Refusal::MovedTooFarToForm,
            format!(
                "{} has moved too far to change formation ({:.1} of {:.0} inches used)",
                u.name,
                u.bound.used(),
                allowance
            ),
        );
    }
    Ok((turn, refuse, cost))
}

/// Refuses a formation whose stands (`shapes`) would overlap an enemy or come within its zone of
/// control; else the friends it ends intermixed with.
fn room(od: &OldDessauer, b: &Battle, u: &Unit, shapes: &[Base]) -> Result<Vec<UnitId>, RuleError> {
    let mine = carried(b, &u.id);
    let mut intermixed = Vec::new();
    for o in b.alive() {
        if o.id == u.id || mine.contains(&o.id) || od.kind(o) == Kind::General {
            continue;
        }
        // (A unit's loose skirmishers by their own stands.)
        if o.shapes()
            .iter()
            .any(|s| shapes.iter().any(|x| x.overlaps(s)))
        {
            if o.side != u.side {
                return illegal(
                    Refusal::WouldOverlap,
                    format!("{} would overlap {}", u.name, o.name),
                );
            }
            intermixed.push(o.id.clone());
        }
    }
    zones(od, b, u, shapes, None)?;
    Ok(intermixed)
}

/// Guns unlimber: they stand in line and never limber again.
pub fn unlimber(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    id: &UnitId,
) -> Result<(), RuleError> {
    movement_phase(b, "unlimber")?;
    let u = b.unit(id)?.clone();
    own_active(b, &u)?;
    if od.kind(&u) != Kind::Artillery || !u.status.limbered {
        return illegal(
            Refusal::NotLimberedGuns,
            format!("{} is not limbered guns", u.name),
        );
    }
    let to = rebuild(od, &u, Formation::Line, 0.0);
    if !b.table.holds(&to) || b.alive().any(|o| o.id != u.id && to.overlaps(&o.base)) {
        return illegal(
            Refusal::NoRoomToUnlimber,
            format!("no room for {} to unlimber", u.name),
        );
    }
    b.emit(
        out,
        DessauerEvent::UnlimberedTo {
            unit: id.clone(),
            formation: Formation::Line,
            from: u.base,
            to,
            cost: od.allowance(&u),
        },
    );
    Ok(())
}
