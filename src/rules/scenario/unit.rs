//! One unit of a scenario checked against the ruleset, the table and the units before it, and
//! built.

use super::*;
use crate::rules::battle::Table;
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Ammo, BoundState, Stand, Status, Unit, UnitExtra, UnitId};
use crate::rules::ruleset::{Ruleset, ScenarioField, UnitSetup};

/// One unit of the scenario checked against the ruleset, the table and the units before it.
pub(super) fn build_unit(
    ck: &mut Checker,
    raw: &RawScenario,
    rs: &dyn Ruleset,
    table: &Table,
    i: usize,
    units: &[Unit],
) -> Option<Unit> {
    let u = &raw.units[i];
    let needle = format!("\"{}\"", u.id);
    let dup = raw.units[..i].iter().filter(|v| v.id == u.id).count();
    let pos = ck.at(&needle, dup + 1);
    check_identity(ck, raw, rs, u, dup, pos)?;
    let (centre, undeployed) = check_position(ck, raw, u, pos)?;
    check_ruleset_fields(ck, rs, u, pos)?;
    // The ruleset's own checks, after the table's (as before the ruleset held them).
    let setup = match rs.prepare_unit(u) {
        Ok(setup) => setup,
        Err(m) => {
            ck.push(pos, m);
            return None;
        }
    };
    if let Err(m) = check_states(rs, u) {
        ck.push(pos, m);
        return None;
    }
    if setup.stands.is_empty() && u.figures_lost > 0 {
        ck.push(
            pos,
            format!(
                "unit '{}' is a single base; 'figures_lost' applies to units of stands",
                u.id
            ),
        );
        return None;
    }
    let (w, d) = setup.size;
    let base = Base::new(centre, u.facing, w, d);
    let placed = place_stands(ck, rs, u, &base, undeployed, pos)?;
    let shapes = placed.clone().unwrap_or_else(|| vec![base]);
    check_ground(ck, rs, u, table, units, &shapes, undeployed, pos)?;
    let coat = unit_coat(ck, raw, u);
    let mut unit = new_unit(u, setup, base, undeployed, coat);
    if let Some(bases) = placed {
        unit.settle(&bases);
    }
    Some(unit)
}

/// The unit's id, side, troop type, facing and hits: each refused in words, with `None`.
fn check_identity(
    ck: &mut Checker,
    raw: &RawScenario,
    rs: &dyn Ruleset,
    u: &RawUnit,
    dup: usize,
    pos: (usize, usize),
) -> Option<()> {
    if u.id.is_empty() || u.id.len() > 64 {
        ck.push(pos, "a unit id must be 1 to 64 characters".into());
        return None;
    }
    if dup > 0 {
        ck.push(pos, format!("duplicate unit id '{}'", u.id));
        return None;
    }
    if u.side >= raw.sides.len().max(2) {
        ck.push(
            pos,
            format!("unit '{}' has side {} but sides are 0 and 1", u.id, u.side),
        );
        return None;
    }
    if rs.base_size(&u.troop).is_none() {
        ck.push(
            ck.at(&format!("\"{}\"", u.troop), 1),
            format!(
                "unit '{}': unknown troop type '{}' for {} (known: {})",
                u.id,
                u.troop,
                rs.id(),
                rs.troop_codes().join(", ")
            ),
        );
        return None;
    };
    if !u.facing.is_finite() || u.facing.abs() > 3600.0 {
        ck.push(
            pos,
            format!("unit '{}' has a facing that is not a sensible number", u.id),
        );
        return None;
    }
    if u.hits > 10 {
        ck.push(pos, format!("unit '{}' starts with {} hits", u.id, u.hits));
        return None;
    }
    Some(())
}

/// Where the unit stands, and whether it waits to be deployed (it has no position and its
/// side a deployment zone).
fn check_position(
    ck: &mut Checker,
    raw: &RawScenario,
    u: &RawUnit,
    pos: (usize, usize),
) -> Option<(Pt, bool)> {
    let (centre, undeployed) = match u.at {
        Some(p) if pt_ok(p) => (Pt::new(p.0, p.1), false),
        Some(_) => {
            ck.push(
                pos,
                format!(
                    "unit '{}' has a position that is not a sensible number",
                    u.id
                ),
            );
            return None;
        }
        None => (Pt::default(), true),
    };
    if undeployed && raw.deployment.iter().all(|z| z.side != u.side) {
        ck.push(
            pos,
            format!(
                "unit '{}' has no position and its side has no deployment zone",
                u.id
            ),
        );
        return None;
    }
    Some((centre, undeployed))
}

/// The fields that apply only to some rulesets: several bases, brigades.
fn check_ruleset_fields(
    ck: &mut Checker,
    rs: &dyn Ruleset,
    u: &RawUnit,
    pos: (usize, usize),
) -> Option<()> {
    if (u.bases.is_some() || u.base.is_some())
        && rs.unit_model() != crate::rules::ruleset::UnitModel::Bases
    {
        ck.push(
            pos,
            format!(
                "unit '{}': 'bases' and 'base' apply to rulesets whose units are several bases",
                u.id
            ),
        );
        return None;
    }
    if u.brigade.is_some() && !rs.scenario_fields().contains(&ScenarioField::Brigade) {
        ck.push(
            pos,
            format!(
                "unit '{}': 'brigade' applies to rulesets that organise units in brigades",
                u.id
            ),
        );
        return None;
    }
    Some(())
}

/// Stands that start at places of their own (an Old Dessauer L's refused arm): `Some(None)`
/// where there are none.
fn place_stands(
    ck: &mut Checker,
    rs: &dyn Ruleset,
    u: &RawUnit,
    base: &Base,
    undeployed: bool,
    pos: (usize, usize),
) -> Option<Option<Vec<Base>>> {
    let placed = match rs.starting_stands(u, base) {
        Ok(None) if u.refused.is_some() => {
            ck.push(
                pos,
                format!(
                    "unit '{}': 'refused' applies to rulesets whose units may form an L",
                    u.id
                ),
            );
            return None;
        }
        Ok(p) => p,
        Err(m) => {
            ck.push(pos, m);
            return None;
        }
    };
    if undeployed && placed.is_some() {
        ck.push(
            pos,
            format!("unit '{}': a unit in an L needs its position ('at')", u.id),
        );
        return None;
    }
    Some(placed)
}

/// A deployed unit lies on the table and overlaps no unit before it (but those that share
/// ground).
#[expect(
    clippy::too_many_arguments,
    reason = "the unit, where it stands, and the checker's place for it"
)]
fn check_ground(
    ck: &mut Checker,
    rs: &dyn Ruleset,
    u: &RawUnit,
    table: &Table,
    units: &[Unit],
    shapes: &[Base],
    undeployed: bool,
    pos: (usize, usize),
) -> Option<()> {
    if !undeployed && !shapes.iter().all(|s| table.holds(s)) {
        ck.push(pos, format!("unit '{}' is (partly) off the table", u.id));
        return None;
    }
    // Friends may stand on each other's ground where the ruleset lets them intermix in play
    // (a position a game reaches, as a scenario made of one sets it down); enemies never.
    let intermixed = |o: &Unit| rs.friends_intermix() && o.side == u.side;
    if !undeployed
        && !rs.shares_ground(&u.troop)
        && let Some(o) = units.iter().find(|o| {
            let apart = o.status.undeployed || rs.shares_ground(&o.troop) || intermixed(o);
            !apart
                && o.shapes()
                    .iter()
                    .any(|x| shapes.iter().any(|s| s.overlaps(x)))
        })
    {
        ck.push(pos, format!("unit '{}' overlaps '{}'", u.id, o.id));
        return None;
    }
    Some(())
}

/// Its coat: its own, else its side's (a bad side's coat was named with the sides).
fn unit_coat(ck: &mut Checker, raw: &RawScenario, u: &RawUnit) -> Option<[u8; 3]> {
    match u.coat.as_deref().map(coat_colour) {
        Some(Ok(c)) => Some(c),
        Some(Err(m)) => {
            ck.push(
                ck.at(&format!("\"{}\"", u.coat.as_deref().unwrap_or_default()), 1),
                m,
            );
            None
        }
        None => raw
            .sides
            .get(u.side)
            .and_then(|s| s.coat.as_deref())
            .and_then(|c| coat_colour(c).ok()),
    }
}

/// The unit as the battle holds it, from the scenario's unit and the ruleset's setup.
fn new_unit(
    u: &RawUnit,
    setup: UnitSetup,
    base: Base,
    undeployed: bool,
    coat: Option<[u8; 3]>,
) -> Unit {
    let formation = setup.formation;
    let stands = setup.stands;
    Unit {
        id: UnitId::from(u.id.as_str()),
        name: if u.name.is_empty() {
            u.id.clone()
        } else {
            u.name.clone()
        },
        side: u.side,
        troop: u.troop.clone(),
        class: u.class,
        flags: setup.flags,
        base,
        formation,
        stands: stands.iter().map(|&figures| Stand::new(figures)).collect(),
        division: u.division,
        status: Status {
            limbered: u.limbered,
            undeployed,
            hits: u.hits,
            shaken: setup.shaken || u.routed,
            packs: setup.packs,
            disordered: u.disordered || u.disrupted || u.disorganised,
            ammo: u.ammunition.unwrap_or_default(),
            hold_ground: u.hold_ground,
            own: setup.own,
            ..Status::default()
        },
        bound: BoundState {
            moved: u.moved,
            ..BoundState::default()
        },
        extra: UnitExtra {
            strength: stands
                .iter()
                .sum::<u32>()
                .saturating_add(u.figures_lost)
                .saturating_add(u.bases_lost),
            leadership: u.leadership.unwrap_or(0),
            command_radius: u.command_radius.unwrap_or(0.0),
            attached: u.attached.clone().map(UnitId::from),
            parent: u.parent.clone().map(UnitId::from),
            brigade: u.brigade.clone(),
            coat,
            ..UnitExtra::default()
        },
    }
}

/// A unit's starting states checked against what its ruleset knows of them, and against each
/// other: each problem in words.
pub(super) fn check_states(rs: &dyn Ruleset, u: &RawUnit) -> Result<(), String> {
    let known = rs.unit_states(&u.troop);
    if let Some(s) = u.states().into_iter().find(|s| !known.contains(s)) {
        let names: Vec<&str> = known.iter().map(|k| k.field()).collect();
        return Err(format!(
            "unit '{}': '{}' is not a state of {} units in {} (theirs: {})",
            u.id,
            s.field(),
            u.troop,
            rs.name(),
            if names.is_empty() {
                "hits, shaken, disordered and limbered only where the rules have them".to_string()
            } else {
                names.join(", ")
            }
        ));
    }
    let clash = |a: bool, b: bool, what: &str| {
        if a && b {
            Err(format!("unit '{}': {what}", u.id))
        } else {
            Ok(())
        }
    };
    clash(
        u.routed,
        u.disorganised || u.disordered,
        "a routed unit is not also disorganised: give 'routed' alone",
    )?;
    clash(
        u.routed,
        u.shaken,
        "'routed' and 'shaken' are one state here: give 'routed' alone",
    )?;
    clash(
        u.disrupted,
        u.disordered,
        "'disrupted' and 'disordered' are one state here: give 'disrupted' alone",
    )?;
    clash(
        u.disorganised,
        u.disordered,
        "'disorganised' and 'disordered' are one state here: give 'disorganised' alone",
    )?;
    clash(
        u.ammunition.is_some_and(|a| a != Ammo::Full),
        u.packs.is_some_and(|p| p > 0),
        "a unit low on or out of ammunition carries no packs of its own to give",
    )?;
    if u.moved {
        if u.at.is_none() {
            return Err(format!(
                "unit '{}' cannot have moved before it is deployed",
                u.id
            ));
        }
        // Every battle opens with side 0's bound (`Battle::new`); side 1's units start afresh
        // when theirs begins, so a mark of having moved could only be lost.
        if u.side != 0 {
            return Err(format!(
                "unit '{}': only side 0's units, whose bound the battle opens with, can have moved in it",
                u.id
            ));
        }
    }
    Ok(())
}
