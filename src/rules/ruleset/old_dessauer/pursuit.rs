//! Pursuit: the players' orders, who may pursue whom, and a winner following the enemy it beat,
//! stopping short of others or charging a fresh enemy it runs into.

use super::casualties::LossCause;
use super::generals::carry;
use super::recoil::gaps_crossed;
use super::skirmishers::skirmishers_give_way;
use super::status::own;
use super::{Kind, N, OldDessauer, Strike, frontal_mark, illegal};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event, Pursuit, RuleError};
use crate::rules::geometry::{Base, CONTACT_EPS, Pt};
use crate::rules::model::{Formation, Side, Unit, UnitId};
use crate::rules::ruleset::old_dessauer::Refusal;
use crate::rules::ruleset::view::Choice;
use std::collections::BTreeMap;

/// What the players ordered for pursuit in a fight: the side that gave the Fight command (None
/// for a combat fought when the phase ends), its default for its own winners, and the orders of
/// single units; every other winner follows its owner's standing order.
#[derive(Clone, Copy, Debug)]
pub struct Orders<'a> {
    pub side: Option<Side>,
    pub pursue: Option<bool>,
    pub units: &'a [Pursuit],
}

impl Orders<'_> {
    /// The order for `w`: its own; else the fight's for the commanding side's winners; else its
    /// standing order (pursue unless its owner ordered it to hold its ground).
    pub fn of(&self, w: &Unit) -> Pursuit {
        self.units
            .iter()
            .find(|p| p.unit == w.id)
            .cloned()
            .unwrap_or_else(|| {
                let standing = !w.status.hold_ground;
                let on = match self.side {
                    Some(s) if s == w.side => self.pursue.unwrap_or(standing),
                    _ => standing,
                };
                if on {
                    Pursuit::follow(&w.id)
                } else {
                    Pursuit::hold(&w.id)
                }
            })
    }
}

/// Why the rules leave `u` no pursuit to choose, or None where its owner chooses.
pub fn pursuit_fixed(od: &OldDessauer, u: &Unit) -> Option<String> {
    never_pursues(od, u).then(|| format!("{} never pursues: its rules leave no choice", u.name))
}

/// Gunners and generals never pursue.
fn never_pursues(od: &OldDessauer, u: &Unit) -> bool {
    matches!(
        od.kind(u),
        Kind::Artillery | Kind::RegimentalGun | Kind::General
    )
}

/// Who never pursues whom.
pub fn may_pursue(od: &OldDessauer, w: &Unit, e: &Unit) -> bool {
    let (wk, ek) = (od.kind(w), od.kind(e));
    if never_pursues(od, w) {
        return false;
    }
    // Squares may not move (Movement), nor may a unit in an L or conformed to terrain until it
    // reforms (Maneuver): a pursuit is a move.
    if matches!(w.formation, Formation::Square | Formation::Conformed) {
        return false;
    }
    if od.is_foot(w) && ek == Kind::Cavalry {
        return false;
    }
    if wk == Kind::Cavalry && ek == Kind::Cavalry && od.troop(e).light && !od.troop(w).light {
        return false;
    }
    true
}

/// The enemies `w` rolls most dice against in a round (in table order): whom it may pursue.
fn most_dice(plan: &[(UnitId, UnitId, usize)], w: &UnitId) -> Vec<UnitId> {
    let mine: Vec<&(UnitId, UnitId, usize)> = plan.iter().filter(|x| &x.0 == w).collect();
    let most = mine.iter().map(|x| x.2).max().unwrap_or(0);
    mine.iter()
        .filter(|x| x.2 == most)
        .map(|x| x.1.clone())
        .collect()
}

/// The enemy a winner pursues by default among those it rolled most dice against: the last in
/// table order.
fn default_quarry(candidates: &[UnitId]) -> Option<UnitId> {
    candidates.last().cloned()
}

/// Who rolls how many dice at whom in a round: (striker, target, dice).
pub type DicePlan = Vec<(UnitId, UnitId, usize)>;

/// Refuses orders for units outside the combat `g`, twice for one unit, of a distance that is no
/// distance, or naming an enemy the unit does not roll most dice against (by `plan`).
pub fn check_orders(
    b: &Battle,
    g: &[UnitId],
    plan: &DicePlan,
    orders: &Orders,
) -> Result<(), RuleError> {
    for (i, p) in orders.units.iter().enumerate() {
        let name = b.name_of(&p.unit);
        if !g.contains(&p.unit) {
            return illegal(
                Refusal::NotInThisCombat,
                format!("{name} is not in this combat"),
            );
        }
        if orders.units[..i].iter().any(|q| q.unit == p.unit) {
            return illegal(
                Refusal::TwoPursuitOrders,
                format!("{name} has two pursuit orders"),
            );
        }
        if p.distance.is_some_and(|d| !(d.is_finite() && d >= 0.0)) {
            return illegal(
                Refusal::NegativePursuit,
                format!("{name}: a pursuit distance is 0 or more"),
            );
        }
        if let Some(t) = &p.target
            && !most_dice(plan, &p.unit).contains(t)
        {
            let tn = b.name_of(t);
            return illegal(
                Refusal::PursuesWrongEnemy,
                format!(
                    "{name} may not pursue {tn}: a winner pursues the enemy it rolls most dice against"
                ),
            );
        }
    }
    Ok(())
}

/// The pursuit choices of a fight before the dice, for the units of its combat `g` rolling dice
/// by `plan`: for each unit that could pursue, whether it does, whom among those it rolls most
/// dice against, and whether it stops short.
pub fn choices(
    od: &OldDessauer,
    b: &Battle,
    cmd: &Command,
    g: &[UnitId],
    plan: &DicePlan,
) -> Vec<Choice> {
    let Command::Fight {
        unit,
        target,
        pursue,
        pursuits,
    } = cmd
    else {
        return Vec::new();
    };
    let orders = Orders {
        side: Some(b.active),
        pursue: *pursue,
        units: pursuits,
    };
    let with = |order: Pursuit| {
        let mut list: Vec<Pursuit> = pursuits
            .iter()
            .filter(|p| p.unit != order.unit)
            .cloned()
            .collect();
        list.push(order);
        list.sort_by_key(|p| b.index_of(&p.unit));
        Command::Fight {
            unit: unit.clone(),
            target: target.clone(),
            pursue: *pursue,
            pursuits: list,
        }
    };
    let name = |id: &UnitId| b.name_of(id);
    let mut out = Vec::new();
    for w in g {
        let Ok(wu) = b.unit(w) else { continue };
        let candidates: Vec<UnitId> = most_dice(plan, w)
            .into_iter()
            .filter(|e| b.unit(e).is_ok_and(|e| may_pursue(od, wu, e)))
            .collect();
        // The other side's winners follow their owner's standing orders.
        if wu.side != b.active || wu.status.shaken || candidates.is_empty() {
            continue;
        }
        let order = orders.of(wu);
        let wn = name(w);
        out.push(Choice {
            label: format!("{wn} pursues if it wins"),
            on: order.pursue,
            flipped: with(Pursuit {
                pursue: !order.pursue,
                ..order.clone()
            }),
        });
        if !order.pursue {
            continue;
        }
        if candidates.len() > 1 {
            let chosen = order
                .target
                .clone()
                .filter(|t| candidates.contains(t))
                .or_else(|| default_quarry(&candidates));
            for c in &candidates {
                let on = chosen.as_ref() == Some(c);
                out.push(Choice {
                    label: format!("{wn} pursues {}", name(c)),
                    on,
                    flipped: with(Pursuit {
                        target: (!on).then(|| c.clone()),
                        ..order.clone()
                    }),
                });
            }
        }
        let step = od.num(N::RecoilMove);
        for k in 1..=2 {
            let d = step * k as f32;
            let on = order.distance.is_some_and(|x| (x - d).abs() < 1e-3);
            out.push(Choice {
                label: format!("{wn} pursues at most {d:.0} in"),
                on,
                flipped: with(Pursuit {
                    distance: (!on).then_some(d),
                    ..order.clone()
                }),
            });
        }
    }
    out
}

/// A round's outcome that pursuit reads: the units as they were, whom each touched, who
/// recoiled, and every strike.
pub struct Melee {
    pub before: Vec<Unit>,
    pub contacts: BTreeMap<UnitId, Vec<UnitId>>,
    pub recoiled: Vec<UnitId>,
    pub strikes: Vec<Strike>,
    /// The bases each loser passed through as it recoiled, its turn included.
    pub paths: BTreeMap<UnitId, Vec<Base>>,
}

/// Where a unit that recoiled this round was shattered by its rout hits (one a recoil move):
/// the recoil moves it had made when they left it a quarter of its strength or less (or no
/// figure), if it was not so before them. Read from the round's `Losses` to rout hits.
fn shattered_at(od: &OldDessauer, b: &Battle, out: &[Event], id: &UnitId) -> Option<u32> {
    let (lost, left) = out.iter().rev().find_map(|e| match e {
        Event::Losses {
            unit,
            figures,
            stands,
            why,
        } if unit == id && why.kind::<LossCause>() == Some(&LossCause::Rout) => {
            Some((*figures, stands.iter().sum::<u32>()))
        }
        _ => None,
    })?;
    let u = b.unit(id).ok()?;
    let shattered = od.strength(u) as f32 * od.num(N::ShatterFraction);
    let before = left + lost;
    if before as f32 <= shattered || left as f32 > shattered {
        return None;
    }
    // The first rout hit that leaves it shattered.
    Some((before as f32 - shattered).ceil().max(1.0) as u32)
}

/// A winner of the round `m` pursues if its order says so, it is on the table, neither recoiled
/// nor shaken, and every enemy it touched recoiled or left the table. It follows the enemy it
/// beat (see `quarry`) as far as that enemy went (see `shift`), and returns the fresh formed
/// enemy it ran into, which it fights a new round.
pub fn pursue(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    m: &Melee,
    w: &Unit,
    orders: &Orders,
) -> Result<Option<UnitId>, RuleError> {
    let order = orders.of(w);
    if !order.pursue {
        return Ok(None);
    }
    let Ok(now) = b.unit(&w.id).cloned() else {
        return Ok(None);
    };
    if !now.alive() || m.recoiled.contains(&w.id) || now.status.shaken {
        return Ok(None);
    }
    let enemies = &m.contacts[&w.id];
    if enemies.is_empty()
        || !enemies
            .iter()
            .all(|e| m.recoiled.contains(e) || b.unit(e).map(|x| !x.alive()).unwrap_or(true))
    {
        return Ok(None);
    }
    let Some(target) = quarry(od, b, out, m, &w.id, &order) else {
        return Ok(None);
    };
    let e_before = m.before.iter().find(|x| x.id == target).map(|x| x.base);
    let e_now = b.unit(&target)?.clone();
    if !may_pursue(od, &now, &e_now) {
        return Ok(None);
    }
    let Some(from) = e_before else {
        return Ok(None);
    };
    let shift = shift(od, b, out, &now, &e_now, &from, &order);
    let (to, fresh) = follow(od, b, m, &now, &e_now, shift);
    // The enemy is pursued only if the pursuer stays in contact with it.
    let touching = e_now.shapes().iter().any(|x| to.within(x, CONTACT_EPS));
    b.emit(
        out,
        Event::Pursued {
            unit: w.id.clone(),
            from: now.base,
            to,
            continuing: (fresh.is_none() && touching).then(|| target.clone()),
        },
    );
    carry(b, out, &w.id, &now.base, &to);
    if own(&now).frontal_charge {
        frontal_mark(b, out, &w.id, false);
    }
    // Skirmishers it runs into give way or are overrun; formed enemies fight a fresh round.
    skirmishers_give_way(od, b, out, &w.id)?;
    Ok(fresh.filter(|x| {
        b.unit(x)
            .is_ok_and(|x| x.alive() && !od.is_skirmishing(b, x))
    }))
}

/// The enemy a winner pursues: the one it rolled most dice against (its owner's choice among
/// equals), among those still on the table or shattered by their rout hits (ruling
/// pursuit_to_shatter).
fn quarry(
    od: &OldDessauer,
    b: &Battle,
    out: &[Event],
    m: &Melee,
    w: &UnitId,
    order: &Pursuit,
) -> Option<UnitId> {
    let plan: DicePlan = m
        .strikes
        .iter()
        .map(|s| (s.unit.clone(), s.target.clone(), s.dice.len()))
        .collect();
    let candidates: Vec<UnitId> = most_dice(&plan, w)
        .into_iter()
        .filter(|e| b.unit(e).is_ok_and(|x| x.alive()) || shattered_at(od, b, out, e).is_some())
        .collect();
    order
        .target
        .clone()
        .filter(|t| candidates.contains(t))
        .or_else(|| default_quarry(&candidates))
}

/// How far and which way the pursuer `now` follows the enemy `e_now` that stood at `from`: as
/// far as the enemy recoiled, on to contact where it turned to face its pursuer, and no farther
/// than its owner says or than where the enemy shattered.
fn shift(
    od: &OldDessauer,
    b: &Battle,
    out: &[Event],
    now: &Unit,
    e_now: &Unit,
    from: &Base,
    order: &Pursuit,
) -> Pt {
    let target = &e_now.id;
    // As far as the enemy recoiled (its recoil move, not where closing up its ranks left
    // its centre), or less if its owner says so.
    let mut shift = out
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Recoiled {
                unit,
                from,
                to,
                voluntary: false,
            } if unit == target => Some(to.centre.minus(from.centre)),
            _ => None,
        })
        .unwrap_or_else(|| e_now.base.centre.minus(from.centre));
    // An enemy beaten from the flank turned to face its pursuer as it went back: its new
    // front may stand short of or beyond where its centre's move would bring the pursuer,
    // so the pursuer follows on along that line to contact with it (the pursued enemy
    // stops it where they meet, sooner).
    if e_now.base.facing != from.facing && shift.len() > 1e-3 {
        let dir = shift.scale(1.0 / shift.len());
        let most = shift.len() + e_now.base.width.max(e_now.base.depth);
        let steps = most.ceil() as usize;
        if let Some(s) = (0..=steps)
            .map(|k| most * k as f32 / steps.max(1) as f32)
            .find(|s| {
                let at = Base {
                    centre: now.base.centre.plus(dir.scale(*s)),
                    ..now.base
                };
                e_now.shapes().iter().any(|x| at.within(x, CONTACT_EPS))
            })
            && s > shift.len()
        {
            shift = dir.scale(s);
        }
    }
    // An enemy shattered by its rout hits is pursued no farther than the point where it
    // shattered (ruling pursuit_to_shatter).
    let shatter = shattered_at(od, b, out, target)
        .map(|moves| b.scale.to_mm(od.num(N::RecoilMove) * moves as f32));
    for most in order
        .distance
        .map(|d| b.scale.to_mm(d))
        .into_iter()
        .chain(shatter)
    {
        if shift.len() > most {
            shift = shift.scale(most / shift.len().max(1e-6));
        }
    }
    shift
}

/// Where the pursuer `now` ends following `shift` after `e_now`, and the fresh enemy it charges
/// on the way, if any. It charges a fresh enemy only where the enemy recoiled through it, or
/// between it and another friend less than half the pursuer's width apart; others it stops an
/// inch short of. (Skirmishers it runs into give way or are overrun, as before any formed
/// troops.)
fn follow(
    od: &OldDessauer,
    b: &Battle,
    m: &Melee,
    now: &Unit,
    e_now: &Unit,
    shift: Pt,
) -> (Base, Option<UnitId>) {
    let target = &e_now.id;
    let path = m.paths.get(target).map(Vec::as_slice).unwrap_or_default();
    let chargeable = recoiled_through(od, b, path, target, now.base.width / 2.0);
    let may_meet =
        |x: &UnitId| chargeable.contains(x) || b.unit(x).is_ok_and(|x| od.is_skirmishing(b, x));
    let mut keep_off: Vec<UnitId> = Vec::new();
    loop {
        let (to, fresh) = pursue_path(od, b, now, &e_now.id, shift, &keep_off);
        match fresh {
            Some(x) if !may_meet(&x) && !keep_off.contains(&x) => keep_off.push(x),
            _ => break (to, fresh.filter(|x| may_meet(x))),
        }
    }
}

/// The pursuer follows `shift`, stopping against anything in the way, and an inch short of the
/// enemies in `keep_off` (those it may not charge: its zone of control); a fresh enemy met is
/// returned.
fn pursue_path(
    od: &OldDessauer,
    b: &Battle,
    w: &Unit,
    pursued: &UnitId,
    shift: Pt,
    keep_off: &[UnitId],
) -> (Base, Option<UnitId>) {
    let at = |t: f32| Base {
        centre: w.base.centre.plus(shift.scale(t)),
        ..w.base
    };
    let zoc = b.scale.to_mm(od.num(N::ZoneOfControl));
    // The pursued enemy stops it too: it follows to contact, never onto it.
    let blocker = |base: &Base| {
        b.alive()
            .filter(|o| {
                o.id != w.id
                    && od.kind(o) != Kind::General
                    && o.extra.parent.as_ref() != Some(&w.id)
            })
            .find(|o| {
                // An L by its arms' stands, not the box round them.
                let shapes = o.shapes();
                let gap = |x: &Base| {
                    shapes
                        .iter()
                        .map(|s| x.distance(s))
                        .fold(f32::MAX, f32::min)
                };
                shapes.iter().any(|s| base.overlaps(s))
                    || (keep_off.contains(&o.id) && gap(base) < zoc.min(gap(&w.base)) - 0.5)
            })
            .map(|o| o.id.clone())
    };
    let mut hit = None;
    let n = 40;
    let mut clear = 0.0f32;
    for k in 1..=n {
        let t = k as f32 / n as f32;
        if let Some(x) = blocker(&at(t)) {
            hit = Some(x);
            break;
        }
        clear = t;
    }
    let Some(x) = hit else {
        let end = at(1.0);
        return (if b.table.holds(&end) { end } else { w.base }, None);
    };
    // Close up exactly against what stopped it.
    let (mut lo, mut hi) = (clear, clear + 1.0 / n as f32);
    for _ in 0..20 {
        let mid = (lo + hi) / 2.0;
        if blocker(&at(mid)).is_some() {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    // Closed up against what stopped it, but never over the table's edge.
    let end = Some(at(lo)).filter(|e| b.table.holds(e)).unwrap_or(w.base);
    let fresh = b
        .unit(&x)
        .ok()
        .filter(|o| &o.id != pursued && o.side != w.side && od.is_fighting_unit(o))
        .map(|o| o.id.clone());
    (end, fresh)
}

/// The friends of `id` that it recoiled through this round, judged along the way it went
/// (`path`, its turn included), or between which it recoiled through a gap narrower than
/// `gap_mm`: the fresh targets a pursuer charges.
fn recoiled_through(
    od: &OldDessauer,
    b: &Battle,
    path: &[Base],
    id: &UnitId,
    gap_mm: f32,
) -> Vec<UnitId> {
    let (Some(first), Some(last), Ok(now)) = (path.first(), path.last(), b.unit(id)) else {
        return Vec::new();
    };
    let friends: Vec<&Unit> = b
        .alive()
        .filter(|f| f.side == now.side && f.id != now.id && od.is_fighting_unit(f))
        .collect();
    let mut out: Vec<UnitId> = Vec::new();
    for f in &friends {
        if path[1..]
            .iter()
            .any(|s| f.shapes().iter().any(|x| s.overlaps(x)))
        {
            out.push(f.id.clone());
        }
    }
    for (x, y, g) in gaps_crossed(&friends, first.centre, last.centre) {
        if g < gap_mm {
            for z in [x, y] {
                if !out.contains(&z.id) {
                    out.push(z.id.clone());
                }
            }
        }
    }
    out
}
