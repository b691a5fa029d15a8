//! Charges: who may charge whom, the straight final approach, meeting an arm and squaring up,
//! and gunners evading.

use super::layout::arms;
use super::{Kind, N, OldDessauer, combat, illegal};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::{Base, CONTACT_EPS, Contact, Edge};
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::ruleset::common::square_up;
use crate::rules::ruleset::old_dessauer::Refusal;

/// Refuses a charge by `u` at `t`: not after a failed command test, nor by gunners, generals or
/// shaken units, nor at friends or units that do not fight, nor by skirmishers at formed troops.
pub(super) fn may_charge(
    od: &OldDessauer,
    b: &Battle,
    u: &Unit,
    t: &Unit,
) -> Result<(), RuleError> {
    let kind = od.kind(u);
    if u.bound.halted {
        return illegal(
            Refusal::FailedCommandTestNoCharge,
            format!("{} failed its command test: no charge this turn", u.name),
        );
    }
    if !matches!(kind, Kind::Infantry | Kind::LightInfantry | Kind::Cavalry) {
        return illegal(
            Refusal::GunnersAndGeneralsDoNotCharge,
            format!("{}: gunners and generals may not charge", u.name),
        );
    }
    if u.status.shaken {
        return illegal(
            Refusal::ShakenMayNotCharge,
            format!("{} is shaken and may not charge", u.name),
        );
    }
    if t.side == u.side || !t.alive() || !od.is_fighting_unit(t) {
        return illegal(
            Refusal::CannotCharge,
            format!("{} cannot charge {}", u.name, t.name),
        );
    }
    if kind == Kind::LightInfantry && od.is_skirmishing(b, u) && !od.is_skirmishing(b, t) {
        return illegal(
            Refusal::SkirmishersDoNotChargeFormed,
            format!(
                "{}: skirmishers never charge formed troops or artillery",
                u.name
            ),
        );
    }
    Ok(())
}

/// A charge of `u` reaching `t` at `base` (after `plain` inches, the last `straight_tail`
/// straight ahead): it squares up to the arm it meets (`base` becomes that place), its final
/// inches must be straight ahead, and a flank or rear attack by a charger that did not begin
/// the turn behind the target's front line counts as frontal. The contact, and whether so.
pub(super) fn contact(
    od: &OldDessauer,
    u: &Unit,
    t: &Unit,
    base: &mut Base,
    plain: f32,
    straight_tail: f32,
) -> Result<(Contact, bool), RuleError> {
    let met = met_arm(base, t);
    let (sq, c) = square_up(base, &met);
    *base = sq;
    let mut frontal = false;
    // To count as a flank or rear attack the charger must begin the turn behind the
    // target's front line; one that does not attacks frontally wherever it meets it.
    if c.edge != Edge::Front && t.formation != Formation::Square {
        let start = u.bound.turn_start.unwrap_or(u.base);
        frontal = !start.corners().iter().any(|p| met.behind_front_line(*p));
    }
    let need = if od.kind(u) == Kind::Cavalry {
        od.num(N::ChargeStraightHorse)
    } else {
        od.num(N::ChargeStraightFoot)
    };
    if straight_tail + 0.01 < need.min(plain) {
        return illegal(
            Refusal::ChargeTailNotStraight,
            format!(
                "the final {need} inches of a charge must be straight ahead ({straight_tail:.1} were)"
            ),
        );
    }
    Ok((c, frontal))
}

/// The arm of `t` (its one base unless it stands in an L) that a charger at `base` meets: the
/// nearest.
/// Where it meets two at once (the refused arm's front runs on from the other arm's end), it
/// meets the front that faces it.
pub fn met_arm(base: &Base, t: &Unit) -> Base {
    let arms = arms(t);
    let near = arms
        .iter()
        .map(|a| base.distance(a))
        .fold(f32::MAX, f32::min);
    let close: Vec<&Base> = arms
        .iter()
        .filter(|a| base.distance(a) <= near + CONTACT_EPS)
        .collect();
    close
        .iter()
        .find(|a| a.edge_facing(base.centre) == Edge::Front)
        .or(close.first())
        .map(|a| **a)
        .unwrap_or(t.base)
}

/// A charge has reached its target: gunners may evade, skirmishers fall back.
pub(super) fn charged(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    id: &UnitId,
    target: &UnitId,
) -> Result<(), RuleError> {
    let c = b.unit(id)?.clone();
    let t = b.unit(target)?.clone();
    if od.kind(&t) == Kind::Artillery {
        let theirs = combat::points(od, b, &t, &c, true).1;
        let mine = combat::points(od, b, &c, &t, true).1;
        if od.kind(&c) == Kind::Cavalry || mine > theirs {
            b.emit(
                out,
                Event::Destroyed {
                    unit: target.clone(),
                    reason: format!("the gunners evade {} and abandon their guns", c.name),
                },
            );
        }
    }
    Ok(())
}
