//! Recoils: a beaten or shaken unit going back facing the enemy, through gaps and friends, with
//! its rout hits; recoiling farther; and the voluntary fallback (optional), checked as a recoil.

use super::casualties::LossCause;
use super::generals::{carried, carry};
use super::layout::arms;
use super::status::own;
use super::{Kind, N, OldDessauer, Opt, frontal_mark, illegal, in_phase, standing_still};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::{Base, CONTACT_EPS, Pt, norm_deg, norm_facing};
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::common::own_active;
use crate::rules::ruleset::old_dessauer::{CLOSE_COMBAT, MOVEMENT, Refusal};

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
    let gap_enemy = b.scale.to_mm(od.num(N::RecoilGapEnemy));
    let gap_friend = b.scale.to_mm(od.num(N::RecoilGapFriend));
    let max = b.scale.to_mm(od.num(N::RecoilMax));
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
#[expect(
    clippy::too_many_arguments,
    reason = "a way back is the unit, the table's three kinds of unit around it and the line it walks"
)]
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
                od.num(N::RecoilGapEnemy),
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
        .any(|a| norm_deg(towards - a.facing).abs() <= od.num(N::ArcHalfAngle) + 0.01);
    let facing = if d.len() > 1e-3 && !faces {
        towards
    } else {
        u.base.facing
    };
    let dist = b.scale.to_mm(od.num(N::RecoilMove) * moves as f32);
    let half = od.num(N::RecoilHalfAngle).max(0.0);
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
    if own(u).frontal_charge {
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
    od.take_losses(b, out, &u.id, rout_hits, LossCause::Rout)
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
    in_phase(b, CLOSE_COMBAT, "recoil farther")?;
    let u = b.unit(id)?.clone();
    let Some((dir, done)) = u.bound.recoil.filter(|_| u.alive()) else {
        return illegal(
            Refusal::HasNotRecoiled,
            format!("{} has not recoiled this turn", u.name),
        );
    };
    if od.in_contact(b, &u) {
        return illegal(
            Refusal::InCombatAgain,
            format!("{} is in combat again and may not recoil farther", u.name),
        );
    }
    let max = od.num(N::RecoilMax);
    let done = b.scale.from_mm(done);
    if !(distance.is_finite() && distance > 0.0 && done + distance <= max + 0.01) {
        return illegal(
            Refusal::RecoilLimit,
            format!(
                "{} has recoiled {done:.1} inches this turn; a unit recoils at most {max} in all",
                u.name
            ),
        );
    }
    let r = retreat(od, b, &u, dir, b.scale.to_mm(distance), u.base.facing);
    if let Some(why) = &r.eliminated {
        return illegal(
            Refusal::CannotRecoilSoFar,
            format!("{} cannot recoil so far: {why}", u.name),
        );
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
    if !od.opt(Opt::VoluntaryFallback) {
        return illegal(
            Refusal::FallbackNotInUse,
            "voluntary fallback is an optional rule not in use in this battle".into(),
        );
    }
    in_phase(b, MOVEMENT, "fall back")?;
    let u = b.unit(id)?.clone();
    own_active(b, &u)?;
    if !od.is_fighting_unit(&u) {
        return illegal(
            Refusal::CannotFallBack,
            format!("{} cannot fall back", u.name),
        );
    }
    if od.in_contact(b, &u) {
        return illegal(
            Refusal::InCombatMayNotFallBack,
            format!("{} is in combat and may not fall back", u.name),
        );
    }
    if u.bound.moved || u.bound.formed || u.bound.fell_back {
        return illegal(
            Refusal::AlreadyMoved,
            format!("{} has already moved this turn", u.name),
        );
    }
    standing_still(b, &u)?;
    if !(distance.is_finite() && distance > 0.0 && distance <= od.num(N::RecoilMax)) {
        return illegal(
            Refusal::FallbackDistance,
            format!(
                "a fallback is more than 0 and at most {} inches",
                od.num(N::RecoilMax)
            ),
        );
    }
    let reach = b.scale.to_mm(od.num(N::FallbackGeneral));
    if !b.alive().any(|g| {
        g.side == u.side
            && od.kind(g) == Kind::General
            && u.base.distance_to_point(g.base.centre) <= reach
    }) {
        return illegal(
            Refusal::FallbackNeedsGeneral,
            format!(
                "{} needs a general within {} inches to fall back",
                u.name,
                od.num(N::FallbackGeneral)
            ),
        );
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
        return illegal(
            Refusal::CannotFallBackSoFar,
            format!("{} cannot fall back so far: {why}", u.name),
        );
    }
    let segments = (distance / od.num(N::FallbackSegment)).ceil() as u32;
    if !u.status.shaken {
        b.emit(out, Event::Shaken { unit: id.clone() });
    }
    move_back(od, b, out, &u, r, segments.saturating_sub(1), true)
}
