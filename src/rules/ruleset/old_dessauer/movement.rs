//! Moves: steps measured by the corner that travels furthest, half-speed manoeuvres and
//! terrain, roads, passing through friends, zones of control, a charge's move, skirmish stands
//! moving alone and regimental guns shifting along their regiment.

use super::charge::{charged, contact, may_charge};
use super::generals::{carried, carry};
use super::layout::{arms, stand_bases};
use super::skirmishers::{command_stand, skirmishers_give_way};
use super::status::own;
use super::{DessauerEvent, Kind, N, OldDessauer, frontal_mark, illegal, in_phase, standing_still};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError, Step};
use crate::rules::geometry::{Base, Bounds, CONTACT_EPS, Pt};
use crate::rules::model::{Formation, Stand, Unit, UnitId};
use crate::rules::ruleset::common::{
    Going, GoingKind, MovePlan, own_active, step_motion, sweep_to_contact,
};
use crate::rules::ruleset::old_dessauer::{MOVEMENT, Refusal};
use crate::rules::terrain::FeatureKind;

/// A checked move with what it does besides moving.
#[derive(Clone, Debug)]
pub struct OdPlan {
    pub plan: MovePlan,
    /// Friends it passes through (skirmishers aside): they stand still for the rest of the turn.
    pub through: Vec<UnitId>,
    /// Why the unit ends disordered (terrain, charging an obstacle), if it does.
    pub disorder: Vec<String>,
    /// Friends it ends intermixed with.
    pub intermixed: Vec<UnitId>,
    pub charge: Option<UnitId>,
    /// A charge that meets the target's flank or rear without having begun the turn behind
    /// its front line: it counts as a frontal attack.
    pub frontal: bool,
}

pub(super) fn movement_phase(b: &Battle, what: &str) -> Result<(), RuleError> {
    in_phase(b, MOVEMENT, what)
}

fn half_speed_terrain(b: &Battle, p: Pt) -> Option<String> {
    if let Some(f) = b
        .terrain
        .at(p, &[FeatureKind::Woods, FeatureKind::Marsh])
        .next()
    {
        return Some(f.name.clone());
    }
    b.terrain
        .at(p, &[FeatureKind::Hill])
        .find(|f| f.steep)
        .map(|f| format!("{} (steep)", f.name))
}

/// Checks a move of one unit: steps in inches, measured by the corner that travels furthest.
pub fn plan(
    od: &OldDessauer,
    b: &Battle,
    id: &UnitId,
    steps: &[Step],
) -> Result<OdPlan, RuleError> {
    let u = b.unit(id)?.clone();
    plan_unit(od, b, &u, steps)
}

/// Other units along the way: friends passed through or ended among (skirmishers aside),
/// enemies never passed through, and the inch of every enemy's zone of control.
fn pass_others(
    od: &OldDessauer,
    b: &Battle,
    u: &Unit,
    samples: &[Base],
    charge: Option<&Unit>,
) -> Result<(Vec<UnitId>, Vec<UnitId>), RuleError> {
    let kind = od.kind(u);
    let mine = carried(b, &u.id);
    let mut through_friends = Vec::new();
    let mut intermixed = Vec::new();
    let final_base = samples.last().copied().unwrap_or(u.base);
    // A unit none of whose shapes comes near the box round the way overlaps no sample of it.
    let way = Bounds::of(samples);
    for o in b.alive() {
        if o.id == u.id || mine.contains(&o.id) || od.kind(o) == Kind::General {
            continue;
        }
        let is_target = charge.is_some_and(|t| t.id == o.id);
        let shapes = o.shapes();
        let near = way.is_none_or(|w| shapes.iter().any(|x| w.meets(x, 0.0)));
        let overlaps = |s: &Base| near && shapes.iter().any(|o| s.overlaps(o));
        if o.side == u.side {
            if kind == Kind::General {
                continue;
            }
            let skirm = kind == Kind::LightInfantry || od.kind(o) == Kind::LightInfantry;
            if samples[1..].iter().any(overlaps) && !skirm {
                // The friend passed through must stand still: not one that moved this turn.
                if stood_not_still(b, o) {
                    return illegal(
                        Refusal::FriendMovedMayNotPass,
                        format!(
                            "{} cannot pass through {}: it has moved this turn, and a friend passed through must stand still",
                            u.name, o.name
                        ),
                    );
                }
                through_friends.push(o.id.clone());
            }
            if overlaps(&final_base) && !skirm {
                intermixed.push(o.id.clone());
            }
            continue;
        }
        if is_target {
            continue;
        }
        if samples[1..].iter().any(overlaps) {
            return illegal(
                Refusal::WouldPassThrough,
                format!("{} would pass through {}", u.name, o.name),
            );
        }
    }
    zones(od, b, u, &samples[1..], charge)?;
    Ok((through_friends, intermixed))
}

/// Has the unit moved, changed formation or fallen back this turn (it did not stand still)?
fn stood_not_still(b: &Battle, o: &Unit) -> bool {
    o.bound.moved
        || o.bound.formed
        || o.bound.fell_back
        || super::this_turn(b)
            .iter()
            .any(|e| matches!(e, Event::Moved { unit, .. } if unit == &o.id))
}

/// Zones of control: `u` may not come within the inch of an enemy, nor, starting within it,
/// any closer, unless charging it. No zone from units in combat or being charged, and
/// skirmishers give way to formed troops. A charge, once within the inch of its own target,
/// may come within the inch of the target's neighbours (the ruling `zones_of_control`).
pub(super) fn zones(
    od: &OldDessauer,
    b: &Battle,
    u: &Unit,
    bases: &[Base],
    charge: Option<&Unit>,
) -> Result<(), RuleError> {
    let kind = od.kind(u);
    if kind == Kind::General {
        return Ok(());
    }
    let zoc = b.scale.to_mm(od.num(N::ZoneOfControl));
    // The final approach of a charge: within the inch of the unit it charges.
    let target = charge.map(|t| t.shapes()).unwrap_or_default();
    let approaching = |s: &Base| target.iter().any(|x| s.distance(x) < zoc - 0.5);
    for o in b.alive() {
        if o.side == u.side || charge.is_some_and(|t| t.id == o.id) || !od.is_fighting_unit(o) {
            continue;
        }
        let shapes = o.shapes();
        // A base whose bounding circle stays farther than the zone from every shape of the
        // enemy cannot come within it: the exact distances, and whether the enemy's zone
        // counts at all (its contacts, its skirmishing), are asked only of the near ones.
        let near = |s: &Base| shapes.iter().any(|x| s.near(x, zoc));
        if !bases.iter().any(near)
            || od.in_contact(b, o)
            || (od.is_skirmishing(b, o) && kind != Kind::LightInfantry)
        {
            continue;
        }
        let gap = |s: &Base| {
            shapes
                .iter()
                .filter(|x| s.near(x, zoc))
                .map(|x| s.distance(x))
                .fold(f32::MAX, f32::min)
        };
        let limit = (zoc - 0.5).min(
            shapes
                .iter()
                .map(|x| u.base.distance(x))
                .fold(f32::MAX, f32::min)
                - 0.5,
        );
        if bases.iter().any(|s| gap(s) < limit && !approaching(s)) {
            return illegal(
                Refusal::ZoneOfControl,
                format!(
                    "{} would come within {} inch of {} (zone of control)",
                    u.name,
                    od.num(N::ZoneOfControl),
                    o.name
                ),
            );
        }
    }
    Ok(())
}

/// Where a move's steps take a unit, sampled along the way, and what they cost.
struct Walk {
    base: Base,
    /// Allowance used, half-speed manoeuvres and terrain counted double.
    cost: f32,
    /// Inches travelled by the furthest corner.
    plain: f32,
    /// Inches straight ahead at the end of the move.
    straight_tail: f32,
    samples: Vec<Base>,
    /// Half-speed terrain crossed.
    why: Vec<String>,
    on_road: bool,
}

/// Walks a move's steps (refusing pivots and backward obliques), measuring each piece.
fn walk(
    od: &OldDessauer,
    b: &Battle,
    u: &Unit,
    steps: &[Step],
    free: bool,
) -> Result<Walk, RuleError> {
    // Half speed: each inch counts as 1 / half_speed.
    let slow = 1.0 / od.num(N::HalfSpeed);
    let inch = b.scale.to_mm(1.0);
    let mut base = u.base;
    let mut cost = 0.0f32;
    let mut plain = 0.0f32;
    let mut straight_tail = 0.0f32;
    let mut samples: Vec<Base> = vec![base];
    let mut why: Vec<String> = Vec::new();
    let mut on_road = true;
    for (i, step) in steps.iter().enumerate() {
        let motion = match step {
            Step::ToContact(tid) => {
                if i + 1 != steps.len() {
                    return illegal(
                        Refusal::ChargeContactNotLast,
                        "a charge into contact must be the last step".into(),
                    );
                }
                let t = b.unit(tid)?;
                // An L is met on one of its arms, whichever the charge reaches first.
                let Some(d) = arms(t)
                    .iter()
                    .filter_map(|a| sweep_to_contact(&base, a, od.num(N::SquareUpMax)))
                    .reduce(f32::min)
                else {
                    return illegal(
                        Refusal::CannotReachStraightAhead,
                        format!("{} cannot reach {} by going straight ahead", u.name, t.name),
                    );
                };
                step_motion(b, &base, &Step::Advance(b.scale.from_mm(d)))?
            }
            Step::Pivot(_) | Step::AboutFace => {
                return illegal(
                    Refusal::PivotByFacing,
                    "turn by a change of facing (90 or 180 degrees) instead of pivoting".into(),
                );
            }
            Step::Oblique { forward, .. } if *forward < 0.0 => {
                return illegal(
                    Refusal::ObliqueForwardOnly,
                    "an oblique goes forward only".into(),
                );
            }
            s => step_motion(b, &base, s)?,
        };
        let mult = match step {
            Step::Backstep(_) | Step::Sidestep(_) | Step::Oblique { .. } if !free => slow,
            _ => 1.0,
        };
        let n = (motion.deg.abs() / 5.0)
            .max(motion.shift.len() / 2.0)
            .ceil()
            .clamp(1.0, 400.0) as usize;
        let mut step_len = 0.0;
        for k in 1..=n {
            let b0 = motion.apply(&base, (k - 1) as f32 / n as f32);
            let b1 = motion.apply(&base, k as f32 / n as f32);
            let piece = b0
                .corners()
                .iter()
                .zip(b1.corners().iter())
                .map(|(p, q)| p.dist(*q))
                .fold(0.0, f32::max)
                / inch;
            let terr = if free {
                1.0
            } else if let Some(name) = half_speed_terrain(b, b1.centre) {
                if !why.contains(&name) {
                    why.push(name);
                }
                slow
            } else {
                1.0
            };
            step_len += piece;
            cost += piece * mult * terr;
            if !b.terrain.on_road(b1.centre) {
                on_road = false;
            }
            samples.push(b1);
        }
        plain += step_len;
        if matches!(step, Step::Advance(_) | Step::ToContact(_)) {
            straight_tail += step_len;
        } else {
            straight_tail = 0.0;
        }
        base = motion.apply(&base, 1.0);
    }
    Ok(Walk {
        base,
        cost,
        plain,
        straight_tail,
        samples,
        why,
        on_road,
    })
}

/// Refuses a move the unit may not make at all, and names the enemy it charges, if any.
fn may_move(
    od: &OldDessauer,
    b: &Battle,
    u: &Unit,
    steps: &[Step],
) -> Result<Option<Unit>, RuleError> {
    let kind = od.kind(u);
    if u.bound.fell_back {
        return illegal(
            Refusal::FellBack,
            format!("{} fell back this turn instead of moving", u.name),
        );
    }
    standing_still(b, u)?;
    if kind == Kind::General && u.extra.attached.is_some() {
        return illegal(
            Refusal::AttachedDetachFirst,
            format!("{} is attached: detach first", u.name),
        );
    }
    if od.in_contact(b, u) {
        return illegal(
            Refusal::InCombatMayNotMove,
            format!("{} is in combat and may not move", u.name),
        );
    }
    match u.formation {
        Formation::Square => {
            return illegal(
                Refusal::SquaresMayNotMove,
                format!("{}: squares may not move", u.name),
            );
        }
        Formation::Conformed => {
            return illegal(
                Refusal::InLMayNotMove,
                format!(
                    "{} is in an L or conformed to terrain: change formation before moving",
                    u.name
                ),
            );
        }
        _ => {}
    }
    if u.bound.limber_changed {
        return illegal(
            Refusal::UnlimberedThisTurn,
            format!("{} unlimbered this turn", u.name),
        );
    }
    if steps.is_empty() || steps.len() > 16 {
        return illegal(Refusal::StepCount, "a move has 1 to 16 steps".into());
    }
    let charge = match steps.last() {
        Some(Step::ToContact(t)) => Some(b.unit(t)?.clone()),
        _ => None,
    };
    if let Some(t) = &charge {
        may_charge(od, b, u, t)?;
    }
    Ok(charge)
}

/// Checks a move of `u` as given (a whole unit, or one loose stand standing in for it).
fn plan_unit(od: &OldDessauer, b: &Battle, u: &Unit, steps: &[Step]) -> Result<OdPlan, RuleError> {
    movement_phase(b, "move")?;
    let u = u.clone();
    own_active(b, &u)?;
    let kind = od.kind(&u);
    let charge = may_move(od, b, &u, steps)?;
    let free = matches!(kind, Kind::LightInfantry | Kind::General);
    let slow = 1.0 / od.num(N::HalfSpeed);
    let Walk {
        mut base,
        cost,
        plain,
        straight_tail,
        mut samples,
        why,
        on_road,
    } = walk(od, b, &u, steps, free)?;
    let mut contact_made = None;
    let mut frontal = false;
    if let Some(t) = &charge {
        let (c, counts_frontal) = contact(od, &u, t, &mut base, plain, straight_tail)?;
        samples.push(base);
        contact_made = Some((t.id.clone(), base, c));
        frontal = counts_frontal;
    }
    // Terrain, table, other units.
    let (crosses_stream, crosses_obstacle) = crossings(od, b, &u, &samples)?;
    if samples.iter().any(|s| !b.table.holds(s)) {
        return illegal(
            Refusal::WouldLeaveTable,
            format!("{} would leave the table", u.name),
        );
    }
    let (through_friends, intermixed) = pass_others(od, b, &u, &samples, charge.as_ref())?;
    let final_base = base;
    let allowance = move_allowance(od, b, &u, on_road, charge.is_none() && !free);
    let left = (allowance - u.bound.used()).max(0.0);
    // Skirmishers and generals pay no terrain penalties: streams cost them nothing extra.
    let crosses_stream = crosses_stream && !free;
    let doubled = !through_friends.is_empty() || crosses_stream;
    let total = cost * if doubled { slow } else { 1.0 };
    if total > left + 0.01 {
        return Err(RuleError::TooFar {
            unit: u.id.clone(),
            name: u.name.clone(),
            distance: total,
            allowance: left,
            units: "inches".into(),
            why: if crosses_stream {
                "counted double: it crosses a stream".into()
            } else if !through_friends.is_empty() {
                "counted double: it passes through friends".into()
            } else {
                String::new()
            },
        });
    }
    let mut disorder = Vec::new();
    if !free && !why.is_empty() {
        disorder.push(format!("entered {}", why.join(", ")));
    }
    if charge.is_some() && !free && (crosses_stream || crosses_obstacle) {
        disorder.push("charged across an obstacle".into());
    }
    let mut going_why = why.clone();
    if crosses_stream {
        going_why.push("stream crossing".into());
    }
    if !through_friends.is_empty() {
        going_why.push("through friends".into());
    }
    Ok(OdPlan {
        plan: MovePlan {
            ends: vec![(u.id.clone(), final_base)],
            starts: vec![(u.id.clone(), u.base)],
            distance: total,
            allowance: left,
            going: Going {
                bad: !going_why.is_empty(),
                why: going_why,
                road: on_road && allowance > od.allowance(&u),
            },
            contact: contact_made,
            cost: 0,
            manoeuvre: None,
        },
        through: through_friends,
        disorder,
        intermixed,
        charge: charge.map(|c| c.id),
        frontal,
    })
}

/// What a move's path crosses: refuses a river but at a bridge and ground only infantry may
/// enter, and says whether it crosses a stream and an obstacle.
fn crossings(
    od: &OldDessauer,
    b: &Battle,
    u: &Unit,
    samples: &[Base],
) -> Result<(bool, bool), RuleError> {
    let foot = matches!(
        od.kind(u),
        Kind::Infantry | Kind::LightInfantry | Kind::General
    );
    let mut crosses_stream = false;
    let mut crosses_obstacle = false;
    for w in samples.windows(2) {
        let (p, q) = (w[0].centre, w[1].centre);
        for f in b.terrain.features.iter() {
            match f.kind {
                FeatureKind::River if f.crossed_by(p, q) && !b.terrain.on_bridge(&w[1]) => {
                    return illegal(
                        Refusal::RiverWithoutBridge,
                        format!("{} cannot cross {} except at a bridge", u.name, f.name),
                    );
                }
                FeatureKind::Stream if f.crossed_by(p, q) => crosses_stream = true,
                FeatureKind::Fortification if f.touches(&w[1]) => crosses_obstacle = true,
                FeatureKind::Woods
                | FeatureKind::Marsh
                | FeatureKind::Town
                | FeatureKind::Village
                    if !foot && f.touches(&w[1]) =>
                {
                    return illegal(
                        Refusal::OnlyInfantryEnter,
                        format!("only infantry may enter {}", f.name),
                    );
                }
                _ => {}
            }
        }
    }
    Ok((crosses_stream, crosses_obstacle))
}

/// The allowance of `u` for this move: doubled for a column whose every move this turn stayed
/// on the road (`road_ok`: not a charge, nor skirmishers or a general), a general's own, and
/// no more than its regimental guns are manhandled.
fn move_allowance(od: &OldDessauer, b: &Battle, u: &Unit, on_road: bool, road_ok: bool) -> f32 {
    let mut allowance = od.allowance(u);
    // The whole turn on the road: this move and every earlier one.
    let off_road_before = super::this_turn(b).iter().any(
        |e| matches!(e, Event::Moved { unit, going, .. } if unit == &u.id && going.kind() != Some(&GoingKind::Road)),
    );
    if on_road && !off_road_before && u.formation == Formation::Column && road_ok {
        allowance *= od.num(N::RoadMultiplier);
    }
    if od.kind(u) == Kind::General {
        allowance = od.num(N::GeneralMove);
    }
    // Regimental guns must keep touching their parent and are manhandled at their own rate.
    if let Some(rate) = b
        .alive()
        .filter(|g| g.extra.parent.as_ref() == Some(&u.id))
        .map(|g| od.allowance(g))
        .reduce(f32::min)
    {
        allowance = allowance.min(rate);
    }
    allowance
}

pub fn do_move(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    id: &UnitId,
    steps: &[Step],
) -> Result<(), RuleError> {
    let u = b.unit(id)?.clone();
    if od.kind(&u) == Kind::RegimentalGun {
        return shift_regimental_gun(b, out, &u, steps);
    }
    let p = plan(od, b, id, steps)?;
    if p.charge.is_some() && !od.command_test(b, out, &u)? {
        return Ok(());
    }
    let to = p.plan.ends[0].1;
    b.emit(
        out,
        Event::Moved {
            unit: id.clone(),
            from: u.base,
            to,
            distance: p.plan.distance,
            allowance: p.plan.allowance,
            going: p.plan.going.describe(),
            contact: p.charge.clone(),
            manoeuvre: None,
        },
    );
    for f in &p.through {
        b.emit(
            out,
            DessauerEvent::PassedThrough {
                unit: id.clone(),
                friend: f.clone(),
            },
        );
    }
    carry(b, out, id, &u.base, &to);
    if own(&u).frontal_charge != p.frontal {
        frontal_mark(b, out, id, p.frontal);
    }
    if !u.status.disordered
        && let Some(why) = p.disorder.first()
    {
        b.emit(
            out,
            Event::Disordered {
                unit: id.clone(),
                why: why.clone(),
            },
        );
    }
    intermix(b, out, id, &p.intermixed);
    if let Some(t) = &p.charge {
        charged(od, b, out, id, t)?;
    }
    skirmishers_give_way(od, b, out, id)?;
    Ok(())
}

/// Moves one stand of a skirmishing unit on its own (stands counted from 1, left to right as
/// the unit was set up), never ending more than the leash from the command stand.
pub fn move_stand(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    id: &UnitId,
    stand: usize,
    steps: &[Step],
) -> Result<(), RuleError> {
    let (p, from) = plan_stand(od, b, id, stand, steps)?;
    b.emit(
        out,
        DessauerEvent::StandMoved {
            unit: id.clone(),
            stand: stand - 1,
            from,
            to: p.plan.ends[0].1,
            distance: p.plan.distance,
            allowance: p.plan.allowance,
        },
    );
    Ok(())
}

/// Checks a move of one skirmish stand (counted from 1): the plan and where the stand starts.
pub fn plan_stand(
    od: &OldDessauer,
    b: &Battle,
    id: &UnitId,
    stand: usize,
    steps: &[Step],
) -> Result<(OdPlan, Base), RuleError> {
    let u = b.unit(id)?.clone();
    if od.kind(&u) != Kind::LightInfantry || !od.is_skirmishing(b, &u) {
        return illegal(
            Refusal::OnlySkirmishersByStand,
            format!("{}: only skirmishers move stand by stand", u.name),
        );
    }
    if matches!(steps.last(), Some(Step::ToContact(_))) {
        return illegal(
            Refusal::SkirmishStandDoesNotCharge,
            "a skirmish stand does not charge alone: charge with the whole unit".into(),
        );
    }
    let bases = stand_bases(od, &u);
    let k = stand.wrapping_sub(1);
    let (Some(&from), Some(st)) = (bases.get(k), u.stands.get(k)) else {
        return illegal(
            Refusal::NoSuchStand,
            format!("{} has stands 1 to {}, not {stand}", u.name, u.stands.len()),
        );
    };
    let mut alone = u.clone();
    alone.base = from;
    alone.stands = vec![Stand::new(st.figures)];
    alone.bound.spent = u.bound.spent + u.bound.stand_spent.get(k).copied().unwrap_or(0.0);
    alone.bound.stand_spent.clear();
    let p = plan_unit(od, b, &alone, steps)?;
    let to = p.plan.ends[0].1;
    let mut after = bases.clone();
    after[k] = to;
    let leash = od.num(N::SkirmishLeash);
    let leash_mm = b.scale.to_mm(leash);
    let c = command_stand(&u);
    // No stand may end beyond the leash unless it already stood there and comes no farther.
    if let Some(far) = (0..after.len()).find(|&i| {
        let d = after[i].distance(&after[c]);
        d > leash_mm + 0.5 && d > bases[i].distance(&bases[c]) + 0.01
    }) {
        return illegal(
            Refusal::StandTooFarFromCommand,
            format!(
                "stand {} of {} would be more than {leash} inches from its command stand (stand {})",
                far + 1,
                u.name,
                c + 1
            ),
        );
    }
    Ok((p, from))
}

/// Both are disordered, an already disordered unit anew: it has not stood this turn and does
/// not reform at its end.
pub(super) fn intermix(b: &mut Battle, out: &mut Vec<Event>, id: &UnitId, with: &[UnitId]) {
    for f in with {
        for x in [id, f] {
            if b.unit(x).is_ok_and(|u| u.alive()) {
                b.emit(
                    out,
                    Event::Disordered {
                        unit: x.clone(),
                        why: "intermixed with a friend".into(),
                    },
                );
            }
        }
    }
}

/// A regimental gun shifts along its parent, freely, and may not fire this turn.
fn shift_regimental_gun(
    b: &mut Battle,
    out: &mut Vec<Event>,
    u: &Unit,
    steps: &[Step],
) -> Result<(), RuleError> {
    movement_phase(b, "move")?;
    own_active(b, u)?;
    let Some(pid) = &u.extra.parent else {
        return illegal(
            Refusal::NoParentRegiment,
            format!("{} has no parent regiment", u.name),
        );
    };
    let parent = b.unit(pid)?.clone();
    let mut base = u.base;
    for s in steps {
        if matches!(s, Step::ToContact(_)) {
            return illegal(
                Refusal::RegimentalGunsDoNotFight,
                "regimental guns take no part in combat".into(),
            );
        }
        base = step_motion(b, &base, s)?.apply(&base, 1.0);
    }
    if base.distance(&parent.base) > CONTACT_EPS * 2.0 {
        return illegal(
            Refusal::MustTouchParent,
            format!("{} must stay touching {}", u.name, parent.name),
        );
    }
    if !b.table.holds(&base)
        || b.alive()
            .any(|o| o.id != u.id && o.id != parent.id && base.overlaps(&o.base))
    {
        return illegal(
            Refusal::NoRoomThere,
            format!("no room for {} there", u.name),
        );
    }
    b.emit(
        out,
        Event::Moved {
            unit: u.id.clone(),
            from: u.base,
            to: base,
            distance: 0.0,
            allowance: 0.0,
            going: "shifted along its regiment".into(),
            contact: None,
            manoeuvre: None,
        },
    );
    Ok(())
}
