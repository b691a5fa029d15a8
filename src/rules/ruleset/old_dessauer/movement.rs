//! Moves, charges, formation changes, recoils, fallbacks and skirmishers getting out of the way.

use super::layout::{arms, l_bases, rebuild, stand_bases};
use super::{Kind, OldDessauer, illegal, in_phase};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError, Step, TestKind};
use crate::rules::geometry::{Base, CONTACT_EPS, Pt, norm_deg, norm_facing};
use crate::rules::model::{Formation, Phase, Stand, Unit, UnitId};
use crate::rules::ruleset::common::{
    Going, MovePlan, own_active, square_up, step_motion, sweep_to_contact,
};
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

fn movement_phase(b: &Battle, what: &str) -> Result<(), RuleError> {
    in_phase(b, Phase::Movement, what)
}

/// Units carried with a unit: its attached general and regimental guns.
fn carried(b: &Battle, id: &UnitId) -> Vec<UnitId> {
    b.alive()
        .filter(|c| c.extra.attached.as_ref() == Some(id) || c.extra.parent.as_ref() == Some(id))
        .map(|c| c.id.clone())
        .collect()
}

/// Moves what a unit carries rigidly with it from `from` to `to`.
pub fn carry(b: &mut Battle, out: &mut Vec<Event>, id: &UnitId, from: &Base, to: &Base) {
    for cid in carried(b, id) {
        let Ok(c) = b.unit(&cid).map(|c| c.base) else {
            continue;
        };
        let rel = c.centre.minus(from.centre);
        let (x, y) = (rel.dot(from.right()), rel.dot(from.forward()));
        // An attached general or a regimental gun stays on the table where the unit's turn
        // would carry it over the edge.
        let mut moved = Base {
            centre: to.local(x, y),
            facing: norm_facing(c.facing + norm_deg(to.facing - from.facing)),
            ..c
        };
        // A regimental gun always touches its parent: one left off it by a new formation's
        // footprint closes up to the parent's nearest stand, on the same side of it.
        if b.unit(&cid)
            .is_ok_and(|g| g.extra.parent.as_ref() == Some(id))
            && let Ok(p) = b.unit(id)
        {
            let shapes = p.shapes();
            let gap = |g: &Base, s: &Base| g.distance(s);
            let on = shapes.iter().find(|s| moved.overlaps(s));
            if (on.is_some() || !shapes.iter().any(|s| gap(&moved, s) <= CONTACT_EPS))
                && let Some(s) = on.or_else(|| {
                    shapes
                        .iter()
                        .min_by(|a, c| gap(&moved, a).total_cmp(&gap(&moved, c)))
                })
            {
                moved.centre = touching_spot(&moved, s);
            }
        }
        let moved = b.table.pull_in(&moved);
        b.emit(
            out,
            Event::Moved {
                unit: cid,
                from: c,
                to: moved,
                distance: 0.0,
                allowance: 0.0,
                going: "with its regiment".into(),
                contact: None,
                manoeuvre: None,
            },
        );
    }
}

/// Where `g`'s centre goes to touch `s` from the side of `s` it stands on, moved straight
/// in (or out, where it overlaps): across the nearest edge, kept within that edge's length.
fn touching_spot(g: &Base, s: &Base) -> Pt {
    let (r, f) = (s.right(), s.forward());
    // The half extents of `g` along the frame of `s`.
    let (mut gx, mut gy) = (0.0f32, 0.0f32);
    for c in g.corners() {
        let d = c.minus(g.centre);
        gx = gx.max(d.dot(r).abs());
        gy = gy.max(d.dot(f).abs());
    }
    let d = g.centre.minus(s.centre);
    let (mut x, mut y) = (d.dot(r), d.dot(f));
    let (w, h) = (s.width / 2.0, s.depth / 2.0);
    // Out beyond which edge, in proportion to the room on that side.
    let out_x = (x.abs() - w) / (w + gx).max(1e-3);
    let out_y = (y.abs() - h) / (h + gy).max(1e-3);
    if out_x >= out_y {
        x = x.signum() * (w + gx);
        y = y.clamp(-h, h);
    } else {
        y = y.signum() * (h + gy);
        x = x.clamp(-w, w);
    }
    s.local(x, y)
}

/// Where an attached general stands: behind the centre of the unit's rear.
pub fn general_spot(u: &Unit, g: &Unit) -> Base {
    Base {
        centre: u
            .base
            .local(0.0, -(u.base.depth / 2.0 + g.base.depth / 2.0)),
        facing: u.base.facing,
        ..g.base
    }
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

/// Checks a move of `u` as given (a whole unit, or one loose stand standing in for it).
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
    for o in b.alive() {
        if o.id == u.id || mine.contains(&o.id) || od.kind(o) == Kind::General {
            continue;
        }
        let is_target = charge.is_some_and(|t| t.id == o.id);
        let shapes = o.shapes();
        let overlaps = |s: &Base| shapes.iter().any(|o| s.overlaps(o));
        if o.side == u.side {
            if kind == Kind::General {
                continue;
            }
            let skirm = kind == Kind::LightInfantry || od.kind(o) == Kind::LightInfantry;
            if samples[1..].iter().any(overlaps) && !skirm {
                // The friend passed through must stand still: not one that moved this turn.
                if stood_not_still(b, o) {
                    return illegal(format!(
                        "{} cannot pass through {}: it has moved this turn, and a friend passed through must stand still",
                        u.name, o.name
                    ));
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
            return illegal(format!("{} would pass through {}", u.name, o.name));
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

/// Refuses any move, formation change or fallback of a unit a friend passed through this
/// turn: it stands still for the rest of the turn (the ruling `moving_through`).
pub(crate) fn standing_still(b: &Battle, u: &Unit) -> Result<(), RuleError> {
    let by = super::this_turn(b).iter().find_map(|e| match e {
        Event::PassedThrough { unit, friend } if friend == &u.id => Some(unit.clone()),
        _ => None,
    });
    match by {
        Some(by) => illegal(format!(
            "{} stands still this turn: {} moved through it",
            u.name,
            b.name_of(&by)
        )),
        None => Ok(()),
    }
}

/// Zones of control: `u` may not come within the inch of an enemy, nor, starting within it,
/// any closer, unless charging it. No zone from units in combat or being charged, and
/// skirmishers give way to formed troops. A charge, once within the inch of its own target,
/// may come within the inch of the target's neighbours (the ruling `zones_of_control`).
fn zones(
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
    let zoc = b.scale.to_mm(od.num("zone_of_control"));
    // The final approach of a charge: within the inch of the unit it charges.
    let target = charge.map(|t| t.shapes()).unwrap_or_default();
    let approaching = |s: &Base| target.iter().any(|x| s.distance(x) < zoc - 0.5);
    for o in b.alive() {
        if o.side == u.side
            || charge.is_some_and(|t| t.id == o.id)
            || !od.is_fighting_unit(o)
            || od.in_contact(b, o)
            || (od.is_skirmishing(b, o) && kind != Kind::LightInfantry)
        {
            continue;
        }
        let shapes = o.shapes();
        let gap = |s: &Base| {
            shapes
                .iter()
                .map(|x| s.distance(x))
                .fold(f32::MAX, f32::min)
        };
        let limit = (zoc - 0.5).min(gap(&u.base) - 0.5);
        if bases.iter().any(|s| gap(s) < limit && !approaching(s)) {
            return illegal(format!(
                "{} would come within {} inch of {} (zone of control)",
                u.name,
                od.num("zone_of_control"),
                o.name
            ));
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
    let slow = 1.0 / od.num("half_speed");
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
                    return illegal("a charge into contact must be the last step".into());
                }
                let t = b.unit(tid)?;
                // An L is met on one of its arms, whichever the charge reaches first.
                let Some(d) = arms(t)
                    .iter()
                    .filter_map(|a| sweep_to_contact(&base, a, od.num("square_up_max")))
                    .reduce(f32::min)
                else {
                    return illegal(format!(
                        "{} cannot reach {} by going straight ahead",
                        u.name, t.name
                    ));
                };
                step_motion(b, &base, &Step::Advance(b.scale.from_mm(d)))?
            }
            Step::Pivot(_) | Step::AboutFace => {
                return illegal(
                    "turn by a change of facing (90 or 180 degrees) instead of pivoting".into(),
                );
            }
            Step::Oblique { forward, .. } if *forward < 0.0 => {
                return illegal("an oblique goes forward only".into());
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
        .find(|a| a.edge_facing(base.centre) == crate::rules::geometry::Edge::Front)
        .or(close.first())
        .map(|a| **a)
        .unwrap_or(t.base)
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
        return illegal(format!("{} fell back this turn instead of moving", u.name));
    }
    standing_still(b, u)?;
    if kind == Kind::General && u.extra.attached.is_some() {
        return illegal(format!("{} is attached: detach first", u.name));
    }
    if od.in_contact(b, u) {
        return illegal(format!("{} is in combat and may not move", u.name));
    }
    match u.formation {
        Formation::Square => return illegal(format!("{}: squares may not move", u.name)),
        Formation::Conformed => {
            return illegal(format!(
                "{} is in an L or conformed to terrain: change formation before moving",
                u.name
            ));
        }
        _ => {}
    }
    if u.bound.limber_changed {
        return illegal(format!("{} unlimbered this turn", u.name));
    }
    if steps.is_empty() || steps.len() > 16 {
        return illegal("a move has 1 to 16 steps".into());
    }
    let charge = match steps.last() {
        Some(Step::ToContact(t)) => Some(b.unit(t)?.clone()),
        _ => None,
    };
    if let Some(t) = &charge {
        if u.bound.halted {
            return illegal(format!(
                "{} failed its command test: no charge this turn",
                u.name
            ));
        }
        if !matches!(kind, Kind::Infantry | Kind::LightInfantry | Kind::Cavalry) {
            return illegal(format!("{}: gunners and generals may not charge", u.name));
        }
        if u.status.shaken {
            return illegal(format!("{} is shaken and may not charge", u.name));
        }
        if t.side == u.side || !t.alive() || !od.is_fighting_unit(t) {
            return illegal(format!("{} cannot charge {}", u.name, t.name));
        }
        if kind == Kind::LightInfantry && od.is_skirmishing(b, u) && !od.is_skirmishing(b, t) {
            return illegal(format!(
                "{}: skirmishers never charge formed troops or artillery",
                u.name
            ));
        }
    }
    Ok(charge)
}

fn plan_unit(od: &OldDessauer, b: &Battle, u: &Unit, steps: &[Step]) -> Result<OdPlan, RuleError> {
    movement_phase(b, "move")?;
    let u = u.clone();
    own_active(b, &u)?;
    let kind = od.kind(&u);
    let charge = may_move(od, b, &u, steps)?;
    let free = matches!(kind, Kind::LightInfantry | Kind::General);
    let slow = 1.0 / od.num("half_speed");
    let Walk {
        mut base,
        cost,
        plain,
        straight_tail,
        mut samples,
        why,
        on_road,
    } = walk(od, b, &u, steps, free)?;
    let mut contact = None;
    let mut frontal = false;
    if let Some(t) = &charge {
        let met = met_arm(&base, t);
        let (sq, c) = square_up(&base, &met);
        base = sq;
        samples.push(base);
        contact = Some((t.id.clone(), base, c));
        // To count as a flank or rear attack the charger must begin the turn behind the
        // target's front line; one that does not attacks frontally wherever it meets it.
        if c.edge != crate::rules::geometry::Edge::Front && t.formation != Formation::Square {
            let start = u.bound.turn_start.unwrap_or(u.base);
            frontal = !start.corners().iter().any(|p| met.behind_front_line(*p));
        }
        let need = if kind == Kind::Cavalry {
            od.num("charge_straight_horse")
        } else {
            od.num("charge_straight_foot")
        };
        if straight_tail + 0.01 < need.min(plain) {
            return illegal(format!(
                "the final {need} inches of a charge must be straight ahead ({straight_tail:.1} were)"
            ));
        }
    }
    // Terrain, table, other units.
    let mut crosses_stream = false;
    let mut crosses_obstacle = false;
    let foot = matches!(kind, Kind::Infantry | Kind::LightInfantry | Kind::General);
    for w in samples.windows(2) {
        let (p, q) = (w[0].centre, w[1].centre);
        for f in b.terrain.features.iter() {
            match f.kind {
                FeatureKind::River if f.crossed_by(p, q) && !b.terrain.on_bridge(&w[1]) => {
                    return illegal(format!(
                        "{} cannot cross {} except at a bridge",
                        u.name, f.name
                    ));
                }
                FeatureKind::Stream if f.crossed_by(p, q) => crosses_stream = true,
                FeatureKind::Fortification if f.touches(&w[1]) => crosses_obstacle = true,
                FeatureKind::Woods
                | FeatureKind::Marsh
                | FeatureKind::Town
                | FeatureKind::Village
                    if !foot && f.touches(&w[1]) =>
                {
                    return illegal(format!("only infantry may enter {}", f.name));
                }
                _ => {}
            }
        }
    }
    if samples.iter().any(|s| !b.table.holds(s)) {
        return illegal(format!("{} would leave the table", u.name));
    }
    let (through_friends, intermixed) = pass_others(od, b, &u, &samples, charge.as_ref())?;
    let final_base = base;
    let mut allowance = od.allowance(&u);
    // The whole turn on the road: this move and every earlier one.
    let off_road_before = super::this_turn(b)
        .iter()
        .any(|e| matches!(e, Event::Moved { unit, going, .. } if unit == &u.id && going != "road"));
    if on_road && !off_road_before && u.formation == Formation::Column && charge.is_none() && !free
    {
        allowance *= od.num("road_multiplier");
    }
    if kind == Kind::General {
        allowance = od.num("general_move");
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
            contact,
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
            Event::PassedThrough {
                unit: id.clone(),
                friend: f.clone(),
            },
        );
    }
    carry(b, out, id, &u.base, &to);
    if u.status.frontal_charge != p.frontal {
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

/// A skirmishing unit's command stand: the centre stand of its line (the left one of the two
/// in the middle).
pub fn command_stand(u: &Unit) -> usize {
    u.stands.len().saturating_sub(1) / 2
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
        Event::StandMoved {
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
        return illegal(format!("{}: only skirmishers move stand by stand", u.name));
    }
    if matches!(steps.last(), Some(Step::ToContact(_))) {
        return illegal(
            "a skirmish stand does not charge alone: charge with the whole unit".into(),
        );
    }
    let bases = stand_bases(od, &u);
    let k = stand.wrapping_sub(1);
    let (Some(&from), Some(st)) = (bases.get(k), u.stands.get(k)) else {
        return illegal(format!(
            "{} has stands 1 to {}, not {stand}",
            u.name,
            u.stands.len()
        ));
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
    let leash = od.num("skirmish_leash");
    let leash_mm = b.scale.to_mm(leash);
    let c = command_stand(&u);
    // No stand may end beyond the leash unless it already stood there and comes no farther.
    if let Some(far) = (0..after.len()).find(|&i| {
        let d = after[i].distance(&after[c]);
        d > leash_mm + 0.5 && d > bases[i].distance(&bases[c]) + 0.01
    }) {
        return illegal(format!(
            "stand {} of {} would be more than {leash} inches from its command stand (stand {})",
            far + 1,
            u.name,
            c + 1
        ));
    }
    Ok((p, from))
}

/// Sets or clears the mark of a charge into a flank or rear that counts as frontal.
pub(crate) fn frontal_mark(b: &mut Battle, out: &mut Vec<Event>, id: &UnitId, on: bool) {
    b.emit(
        out,
        Event::FrontalCharge {
            unit: id.clone(),
            on,
        },
    );
}

/// Both are disordered, an already disordered unit anew: it has not stood this turn and does
/// not reform at its end.
fn intermix(b: &mut Battle, out: &mut Vec<Event>, id: &UnitId, with: &[UnitId]) {
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
        return illegal(format!("{} has no parent regiment", u.name));
    };
    let parent = b.unit(pid)?.clone();
    let mut base = u.base;
    for s in steps {
        if matches!(s, Step::ToContact(_)) {
            return illegal("regimental guns take no part in combat".into());
        }
        base = step_motion(b, &base, s)?.apply(&base, 1.0);
    }
    if base.distance(&parent.base) > CONTACT_EPS * 2.0 {
        return illegal(format!("{} must stay touching {}", u.name, parent.name));
    }
    if !b.table.holds(&base)
        || b.alive()
            .any(|o| o.id != u.id && o.id != parent.id && base.overlaps(&o.base))
    {
        return illegal(format!("no room for {} there", u.name));
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

/// A charge has reached its target: gunners may evade, skirmishers fall back.
fn charged(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    id: &UnitId,
    target: &UnitId,
) -> Result<(), RuleError> {
    let c = b.unit(id)?.clone();
    let t = b.unit(target)?.clone();
    if od.kind(&t) == Kind::Artillery {
        let theirs = super::combat::points(od, b, &t, &c, true).1;
        let mine = super::combat::points(od, b, &c, &t, true).1;
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

/// Enemy skirmishers the unit charged or came within 1 inch of fall back, or are overrun.
pub(crate) fn skirmishers_give_way(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    id: &UnitId,
) -> Result<(), RuleError> {
    let m = b.unit(id)?.clone();
    let mk = od.kind(&m);
    if !matches!(mk, Kind::Infantry | Kind::Cavalry) || !m.alive() {
        return Ok(());
    }
    let zoc = b.scale.to_mm(od.num("skirmish_fallback"));
    let shapes = m.shapes();
    let close = |x: &Base| shapes.iter().any(|o| x.distance(o) < zoc - 0.5);
    let near: Vec<(UnitId, Vec<usize>)> = b
        .alive()
        .filter(|s| s.side != m.side && od.is_skirmishing(b, s))
        .map(|s| {
            let hit: Vec<usize> = stand_bases(od, s)
                .iter()
                .enumerate()
                .filter(|(_, x)| close(x))
                .map(|(i, _)| i)
                .collect();
            (s.id.clone(), hit)
        })
        .filter(|(_, hit)| !hit.is_empty())
        .collect();
    for (sid, hit) in near {
        let s = b.unit(&sid)?.clone();
        // With the broken-terrain rule, skirmishers in woods or rough ground stand and defend.
        if od.opt("skirmish_defend") && od.in_rough(b, &s) {
            continue;
        }
        let free = mk == Kind::Infantry || od.in_rough(b, &s);
        let escapes = if free {
            true
        } else {
            let die = b.d6()?;
            let need = od.int("skirmish_evade_need");
            let passed = die as i32 >= need;
            b.emit(
                out,
                Event::Test {
                    unit: sid.clone(),
                    test: TestKind::Evade,
                    die,
                    factors: vec![],
                    need,
                    passed,
                },
            );
            passed
        };
        // Each stand reached steps straight away from the mover to 1 inch off.
        let bases = stand_bases(od, &s);
        let whole = hit.len() == bases.len();
        let away = |x: &Base| {
            let dir = x.centre.minus(m.base.centre);
            let dir = if dir.len() > 1e-3 {
                dir.scale(1.0 / dir.len())
            } else {
                m.base.forward()
            };
            let gap = shapes
                .iter()
                .map(|o| x.distance(o))
                .fold(f32::MAX, f32::min);
            Base {
                centre: x.centre.plus(dir.scale(zoc - gap + 1.0)),
                ..*x
            }
        };
        // Its way is blocked by the edge or by any enemy it would end on, the one it gives
        // way to included (a fall back that does not clear it is no escape).
        let blocked = |to: &Base| {
            !b.table.holds(to)
                || b.alive().any(|o| {
                    o.id != sid
                        && o.side != s.side
                        && od.kind(o) != Kind::General
                        && o.shapes().iter().any(|x| to.overlaps(x))
                })
        };
        let moves: Vec<(usize, Base, Base)> = if whole {
            vec![(usize::MAX, s.base, away(&s.base))]
        } else {
            hit.iter()
                .map(|&i| (i, bases[i], away(&bases[i])))
                .collect()
        };
        if escapes && !moves.iter().any(|(_, _, to)| blocked(to)) {
            for (i, from, to) in moves {
                let e = if i == usize::MAX {
                    Event::Fled {
                        unit: sid.clone(),
                        from,
                        to,
                    }
                } else {
                    Event::StandMoved {
                        unit: sid.clone(),
                        stand: i,
                        from,
                        to,
                        distance: 0.0,
                        allowance: 0.0,
                    }
                };
                b.emit(out, e);
            }
        } else if whole {
            b.emit(
                out,
                Event::Destroyed {
                    unit: sid,
                    reason: format!("skirmishers overrun by {}", m.name),
                },
            );
        } else {
            b.emit(
                out,
                Event::StandsOverrun {
                    unit: sid,
                    stands: hit,
                    by: m.id.clone(),
                },
            );
        }
    }
    Ok(())
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
    let kind = od.kind(&u);
    if u.bound.halted {
        return illegal(format!(
            "{} failed its command test: no change of formation or facing this turn",
            u.name
        ));
    }
    if u.bound.fell_back {
        return illegal(format!("{} fell back this turn instead of moving", u.name));
    }
    standing_still(b, &u)?;
    if od.in_contact(b, &u) {
        return illegal(format!(
            "{} is in combat: no change of frontage or facing",
            u.name
        ));
    }
    if u.bound.formed {
        return illegal(format!(
            "{} has already changed formation this turn",
            u.name
        ));
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
        return illegal(format!("{} cannot form {:?}", u.name, formation));
    }
    let turn = norm_deg(turn);
    if ![0.0f32, 90.0, -90.0, 180.0]
        .iter()
        .any(|t| (turn - t).abs() < 0.01)
    {
        return illegal("a change of facing is 90 or 180 degrees".into());
    }
    if formation == u.formation && turn.abs() < 0.01 {
        return illegal(format!(
            "{} is already in that formation and facing",
            u.name
        ));
    }
    // An L's turn says which flank it refuses: the arm on that side wheels back to face it
    // (the ruling `l_formation`); ahead or about, the unit conforms in the line's place.
    let refuse = (formation == Formation::Conformed && (turn.abs() - 90.0).abs() < 0.01)
        .then_some(turn > 0.0);
    if formation == Formation::Conformed && u.formation == Formation::Conformed {
        return illegal(format!(
            "{} is already in an L or conformed to terrain: reform into line or column first",
            u.name
        ));
    }
    if refuse.is_some() && u.stands.len() < 2 {
        return illegal(format!("{} has too few stands to form an L", u.name));
    }
    let allowance = od.allowance(&u);
    let cost = allowance * od.num("form_cost");
    if u.bound.used() + cost > allowance + 0.01 {
        return illegal(format!(
            "{} has moved too far to change formation ({:.1} of {:.0} inches used)",
            u.name,
            u.bound.used(),
            allowance
        ));
    }
    let to = rebuild(od, &u, formation, if refuse.is_some() { 0.0 } else { turn });
    let shapes = match refuse {
        Some(right) => l_bases(od, od.troop(&u), &to, u.stands.len(), right),
        None => vec![to],
    };
    if !shapes.iter().all(|s| b.table.holds(s)) {
        return illegal(format!("no room on the table for {} to form so", u.name));
    }
    let mine = carried(b, id);
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
                return illegal(format!("{} would overlap {}", u.name, o.name));
            }
            intermixed.push(o.id.clone());
        }
    }
    zones(od, b, &u, &shapes, None)?;
    if !od.command_test(b, out, &u)? {
        return Ok(());
    }
    // An L is one step: its stands take their places in the new formation.
    let e = match refuse {
        Some(right) => Event::StandsPlaced {
            unit: id.clone(),
            bases: shapes,
            why: format!(
                "forms an L refusing its {} flank: {} stand(s) wheel back to face it",
                if right { "right" } else { "left" },
                super::layout::refused_count(od, u.stands.len())
            ),
            formed: Some((formation, cost)),
        },
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
        return illegal(format!("{} is not limbered guns", u.name));
    }
    let to = rebuild(od, &u, Formation::Line, 0.0);
    if !b.table.holds(&to) || b.alive().any(|o| o.id != u.id && to.overlaps(&o.base)) {
        return illegal(format!("no room for {} to unlimber", u.name));
    }
    b.emit(
        out,
        Event::UnlimberedTo {
            unit: id.clone(),
            formation: Formation::Line,
            from: u.base,
            to,
            cost: od.allowance(&u),
        },
    );
    Ok(())
}

/// Where a unit pushed `dist_mm` along `dir` ends up, and what it met on the way.
struct Retreat {
    to: Base,
    /// Why it is eliminated, if it is.
    eliminated: Option<String>,
    disordered_friends: Vec<UnitId>,
    /// The bases it passes through on its way, in order: going back, and its turn where it
    /// makes it.
    path: Vec<Base>,
}

/// The closest points of two bases (for rectangles one of them is a corner).
fn closest_points(a: &Base, b: &Base) -> (Pt, Pt) {
    let mut best = (a.centre, b.centre, f32::MAX);
    for c in a.corners() {
        let q = super::nearest_point(b, c);
        if c.dist(q) < best.2 {
            best = (c, q, c.dist(q));
        }
    }
    for c in b.corners() {
        let q = super::nearest_point(a, c);
        if c.dist(q) < best.2 {
            best = (q, c, c.dist(q));
        }
    }
    (best.0, best.1)
}

/// Do the segments p-q and r-s cross?
fn segments_cross(p: Pt, q: Pt, r: Pt, s: Pt) -> bool {
    let d1 = q.minus(p).cross(r.minus(p));
    let d2 = q.minus(p).cross(s.minus(p));
    let d3 = s.minus(r).cross(p.minus(r));
    let d4 = s.minus(r).cross(q.minus(r));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// Pairs of `units` the line from `p` to `q` passes between, with the gap between them in mm.
pub(crate) fn gaps_crossed<'a>(units: &[&'a Unit], p: Pt, q: Pt) -> Vec<(&'a Unit, &'a Unit, f32)> {
    let mut out = Vec::new();
    for (i, x) in units.iter().enumerate() {
        for y in &units[i + 1..] {
            let (c1, c2) = closest_points(&x.base, &y.base);
            if segments_cross(p, q, c1, c2) {
                out.push((*x, *y, c1.dist(c2)));
            }
        }
    }
    out
}

/// A recoil, fallback or recoil farther of `dist_mm` along `dir`. Passing between two enemies
/// needs a 2-inch gap between them, or the unit is eliminated, as it is when it runs into an
/// enemy it does not pass between; passing between two friends with less than a 1-inch gap,
/// or through a friend, disorders them. A unit that would end on others goes on an inch at a
/// time up to the most a unit recoils.
fn retreat(od: &OldDessauer, b: &Battle, u: &Unit, dir: Pt, dist_mm: f32, facing: f32) -> Retreat {
    let gap_enemy = b.scale.to_mm(od.num("recoil_gap_enemy"));
    let gap_friend = b.scale.to_mm(od.num("recoil_gap_friend"));
    let max = b.scale.to_mm(od.num("recoil_max"));
    let inch = b.scale.to_mm(1.0);
    let mine = carried(b, &u.id);
    let others: Vec<&Unit> = b
        .alive()
        .filter(|o| {
            o.id != u.id
                && !mine.contains(&o.id)
                && !matches!(od.kind(o), Kind::General | Kind::RegimentalGun)
        })
        .collect();
    // Enemies it touches at the start are what it recoils from, not a gap it passes.
    let enemies: Vec<&Unit> = others
        .iter()
        .copied()
        .filter(|o| o.side != u.side && u.base.distance(&o.base) > CONTACT_EPS)
        .collect();
    let friends: Vec<&Unit> = others
        .iter()
        .copied()
        .filter(|o| o.side == u.side)
        .collect();
    // Where it turns to its new facing, as a fraction of the way (it turns on its centre
    // there, sweeping the ground between): the first place that clears it, so a unit beaten
    // in the flank goes back until it has room to turn; if no place does, it goes back
    // keeping its facing rather than be eliminated by its own turn.
    let turns = norm_deg(facing - u.base.facing);
    let plans: Vec<Option<f32>> = if turns.abs() < 0.01 {
        vec![None]
    } else {
        (0..=10)
            .map(|i| Some(i as f32 / 10.0))
            .chain(std::iter::once(None))
            .collect()
    };
    let mut dist = dist_mm;
    loop {
        // (eliminated, not turned, friends disordered, plan): least first.
        type Key = (bool, bool, usize, usize);
        let mut best: Option<(Key, Retreat, bool)> = None;
        for (i, plan) in plans.iter().enumerate() {
            let (res, stuck) = walk_back(
                od, b, u, &others, &enemies, &friends, dir, dist, *plan, turns, gap_enemy,
                gap_friend,
            );
            let key = (
                res.eliminated.is_some(),
                plan.is_none() && turns.abs() >= 0.01,
                res.disordered_friends.len(),
                i,
            );
            if best.as_ref().is_none_or(|(bk, _, _)| key < *bk) {
                let done = !key.0 && key.2 == 0;
                best = Some((key, res, stuck));
                if done {
                    break;
                }
            }
        }
        let Some((_, mut res, stuck)) = best else {
            return Retreat {
                to: u.base,
                eliminated: None,
                disordered_friends: Vec::new(),
                path: Vec::new(),
            };
        };
        if res.eliminated.is_some() || !stuck || dist + inch > max {
            if od.kind(u) == Kind::LightInfantry {
                res.disordered_friends.clear();
            }
            return res;
        }
        dist += inch;
    }
}

/// One way back of `dist` along `dir`: kept facing until the fraction `turn` of the way, where
/// it turns `turns` degrees on its centre (never, for `None`); and whether it ends on another.
#[allow(clippy::too_many_arguments)]
fn walk_back(
    od: &OldDessauer,
    b: &Battle,
    u: &Unit,
    others: &[&Unit],
    enemies: &[&Unit],
    friends: &[&Unit],
    dir: Pt,
    dist: f32,
    turn: Option<f32>,
    turns: f32,
    gap_enemy: f32,
    gap_friend: f32,
) -> (Retreat, bool) {
    let at = |f: f32, turned: f32| Base {
        centre: u.base.centre.plus(dir.scale(dist * f)),
        facing: norm_facing(u.base.facing + turned),
        ..u.base
    };
    let end = at(1.0, if turn.is_some() { turns } else { 0.0 });
    let mut res = Retreat {
        to: u.base,
        eliminated: None,
        disordered_friends: Vec::new(),
        path: vec![u.base],
    };
    // Gaps between enemies and between friends that the unit passes.
    let mut squeezed: Vec<UnitId> = Vec::new();
    for (x, y, g) in gaps_crossed(enemies, u.base.centre, end.centre) {
        if g < gap_enemy - 0.01 {
            res.eliminated = Some(format!(
                "no {}-inch gap to recoil between {} and {}",
                od.num("recoil_gap_enemy"),
                x.name,
                y.name
            ));
        }
        squeezed.extend([x.id.clone(), y.id.clone()]);
    }
    let mut touched: Vec<UnitId> = Vec::new();
    for (x, y, g) in gaps_crossed(friends, u.base.centre, end.centre) {
        if g < gap_friend - 0.01 {
            touched.extend([x.id.clone(), y.id.clone()]);
        } else {
            squeezed.extend([x.id.clone(), y.id.clone()]);
        }
    }
    // The bases it passes through, in order: going back, and its turn where it makes it.
    let n = (dist / 2.0).ceil().clamp(1.0, 500.0) as usize;
    let sweep = (turns.abs() / 5.0).ceil().max(1.0) as usize;
    let mut path: Vec<Base> = Vec::new();
    let mut turned = false;
    for k in 0..=n {
        let f = k as f32 / n as f32;
        if let Some(t) = turn.filter(|t| !turned && f >= *t - 1e-6) {
            // It turns where it stands at the fraction t of the way.
            let g = t.clamp(0.0, 1.0);
            for j in 1..=sweep {
                path.push(at(g, turns * j as f32 / sweep as f32));
            }
            turned = true;
        }
        if k > 0 {
            path.push(at(f, if turned { turns } else { 0.0 }));
        }
    }
    // The unit's own stands where it stands at `s`: an L by its arms' stands, carried along
    // with its frame, not the box round them.
    let stands_at = |s: &Base| -> Vec<Base> {
        let mut v = u.clone();
        v.base = *s;
        v.shapes()
    };
    let mut last = u.base;
    for s in path {
        if res.eliminated.is_some() {
            break;
        }
        let mine = stands_at(&s);
        if !mine.iter().all(|m| b.table.holds(m)) {
            res.eliminated = Some("driven off the table".to_string());
            break;
        }
        for o in others {
            if squeezed.contains(&o.id)
                || !o
                    .shapes()
                    .iter()
                    .any(|x| mine.iter().any(|m| m.overlaps(x)))
            {
                continue;
            }
            if o.side != u.side {
                res.eliminated = Some(format!("its way back is blocked by {}", o.name));
            } else if !touched.contains(&o.id) {
                touched.push(o.id.clone());
            }
        }
        if res.eliminated.is_none() {
            last = s;
            res.path.push(s);
        }
    }
    res.to = last;
    // Skirmishers are passed through freely, and pass through freely.
    res.disordered_friends = friends
        .iter()
        .filter(|f| touched.contains(&f.id) && !od.is_skirmishing(b, f))
        .map(|f| f.id.clone())
        .collect();
    let end_stands = stands_at(&last);
    let stuck = others.iter().any(|o| {
        o.shapes()
            .iter()
            .any(|x| end_stands.iter().any(|m| m.overlaps(x)))
    });
    (res, stuck)
}

/// Recoil moves away from `cause`, facing it, with their rout hits. The unit goes straight away unless
/// that would eliminate it or disorder friends; then it turns as little as it must, within the
/// data's angle either side (the owner's sensible choice: survive first, then spare friends).
/// Returns the bases the unit passed through on its way, in order (none where it did not go).
pub fn recoil(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    id: &UnitId,
    cause: Pt,
    moves: u32,
) -> Result<Vec<Base>, RuleError> {
    let u = b.unit(id)?.clone();
    if moves == 0 || !u.alive() {
        return Ok(Vec::new());
    }
    let d = u.base.centre.minus(cause);
    let dir = if d.len() > 1e-3 {
        d.scale(1.0 / d.len())
    } else {
        u.base.forward().scale(-1.0)
    };
    // It retreats facing the enemy: a unit whose front arc (45 degrees either side) holds the
    // cause keeps its facing; one beaten from a flank or the rear turns to face the cause.
    // An L faces the cause when either arm's front arc holds it.
    let towards = norm_facing((-d.x).atan2(-d.y).to_degrees());
    let faces = arms(&u)
        .iter()
        .any(|a| norm_deg(towards - a.facing).abs() <= od.num("arc_half_angle") + 0.01);
    let facing = if d.len() > 1e-3 && !faces {
        towards
    } else {
        u.base.facing
    };
    let dist = b.scale.to_mm(od.num("recoil_move") * moves as f32);
    let half = od.num("recoil_half_angle").max(0.0);
    let steps = (half / 5.0).floor() as i32;
    let mut best: Option<((bool, usize, i32), Retreat)> = None;
    for k in 0..=2 * steps {
        // 0, -5, +5, -10, +10 ... degrees.
        let mag = (k + 1) / 2;
        let deg = if k % 2 == 1 { -mag } else { mag } as f32 * 5.0;
        let deg = deg.clamp(-half, half);
        let r = retreat(od, b, &u, dir.rotate(deg), dist, facing);
        let key = (r.eliminated.is_some(), r.disordered_friends.len(), k);
        if best.as_ref().is_none_or(|(bk, _)| key < *bk) {
            let done = !key.0 && key.1 == 0;
            best = Some((key, r));
            if done {
                break;
            }
        }
    }
    let Some((_, r)) = best else {
        return Ok(Vec::new());
    };
    let path = r.path.clone();
    move_back(od, b, out, &u, r, moves, false)?;
    Ok(path)
}

fn move_back(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    u: &Unit,
    r: Retreat,
    rout_hits: u32,
    voluntary: bool,
) -> Result<(), RuleError> {
    b.emit(
        out,
        Event::Recoiled {
            unit: u.id.clone(),
            from: u.base,
            to: r.to,
            voluntary,
        },
    );
    carry(b, out, &u.id, &u.base, &r.to);
    if u.status.frontal_charge {
        frontal_mark(b, out, &u.id, false);
    }
    // An already disordered friend is disordered anew: it does not reform this turn.
    for f in &r.disordered_friends {
        if b.unit(f).is_ok_and(|f| f.alive()) {
            b.emit(
                out,
                Event::Disordered {
                    unit: f.clone(),
                    why: format!("{} recoiled through it", u.name),
                },
            );
        }
    }
    if let Some(why) = r.eliminated {
        b.emit(
            out,
            Event::Destroyed {
                unit: u.id.clone(),
                reason: why,
            },
        );
        return Ok(());
    }
    od.take_losses(b, out, &u.id, rout_hits, "rout hits")
}

/// Recoil farther than required, straight on from this turn's recoil, up to the most a unit
/// may recoil in all; no more rout hits.
pub fn recoil_further(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    id: &UnitId,
    distance: f32,
) -> Result<(), RuleError> {
    in_phase(b, Phase::CloseCombat, "recoil farther")?;
    let u = b.unit(id)?.clone();
    let Some((dir, done)) = u.bound.recoil.filter(|_| u.alive()) else {
        return illegal(format!("{} has not recoiled this turn", u.name));
    };
    if od.in_contact(b, &u) {
        return illegal(format!(
            "{} is in combat again and may not recoil farther",
            u.name
        ));
    }
    let max = od.num("recoil_max");
    let done = b.scale.from_mm(done);
    if !(distance.is_finite() && distance > 0.0 && done + distance <= max + 0.01) {
        return illegal(format!(
            "{} has recoiled {done:.1} inches this turn; a unit recoils at most {max} in all",
            u.name
        ));
    }
    let r = retreat(od, b, &u, dir, b.scale.to_mm(distance), u.base.facing);
    if let Some(why) = &r.eliminated {
        return illegal(format!("{} cannot recoil so far: {why}", u.name));
    }
    move_back(od, b, out, &u, r, 0, false)
}

/// Voluntary fallback: straight back, shaken, a rout hit per 6-inch segment past the first.
pub fn fallback(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    id: &UnitId,
    distance: f32,
) -> Result<(), RuleError> {
    if !od.opt("voluntary_fallback") {
        return illegal("voluntary fallback is an optional rule not in use in this battle".into());
    }
    movement_phase(b, "fall back")?;
    let u = b.unit(id)?.clone();
    own_active(b, &u)?;
    if !od.is_fighting_unit(&u) {
        return illegal(format!("{} cannot fall back", u.name));
    }
    if od.in_contact(b, &u) {
        return illegal(format!("{} is in combat and may not fall back", u.name));
    }
    if u.bound.moved || u.bound.formed || u.bound.fell_back {
        return illegal(format!("{} has already moved this turn", u.name));
    }
    standing_still(b, &u)?;
    if !(distance.is_finite() && distance > 0.0 && distance <= od.num("recoil_max")) {
        return illegal(format!(
            "a fallback is more than 0 and at most {} inches",
            od.num("recoil_max")
        ));
    }
    let reach = b.scale.to_mm(od.num("fallback_general"));
    if !b.alive().any(|g| {
        g.side == u.side
            && od.kind(g) == Kind::General
            && u.base.distance_to_point(g.base.centre) <= reach
    }) {
        return illegal(format!(
            "{} needs a general within {} inches to fall back",
            u.name,
            od.num("fallback_general")
        ));
    }
    let r = retreat(
        od,
        b,
        &u,
        u.base.forward().scale(-1.0),
        b.scale.to_mm(distance),
        u.base.facing,
    );
    if let Some(why) = &r.eliminated {
        return illegal(format!("{} cannot fall back so far: {why}", u.name));
    }
    let segments = (distance / od.num("fallback_segment")).ceil() as u32;
    if !u.status.shaken {
        b.emit(out, Event::Shaken { unit: id.clone() });
    }
    move_back(od, b, out, &u, r, segments.saturating_sub(1), true)
}
