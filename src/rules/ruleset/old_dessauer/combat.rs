//! Combat: combat points, dice per eligible stand, the chance to hit by the point difference,
//! losing by hits, recoils and pursuit.

use super::movement::{carry, recoil};
use super::{Forecast, Kind, OldDessauer, OutlookLine, exactly, grade, illegal};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event, Factor, Pursuit, RuleError, Strike, factor_sum};
use crate::rules::geometry::{Base, CONTACT_EPS, Edge};
use crate::rules::model::{Flag, Formation, Phase, Side, Unit, UnitId};
use crate::rules::ruleset::view::Choice;
use std::collections::BTreeMap;

/// Enemies touching `u` on its flank or rear (squares have none), except those whose charge
/// counts as frontal.
pub fn flank_attackers(od: &OldDessauer, b: &Battle, u: &Unit) -> Vec<UnitId> {
    if u.formation == Formation::Square {
        return Vec::new();
    }
    od.enemies_in_contact(b, u)
        .into_iter()
        .filter(|e| !e.status.frontal_charge)
        .filter(|e| {
            // An L presents a front on each arm: an enemy touching either front meets a front.
            let arms = super::layout::arms(u);
            let touched: Vec<Edge> = arms
                .iter()
                .filter_map(|a| a.touched_by(&e.base).map(|c| c.edge))
                .collect();
            if touched.is_empty() {
                arms.iter().all(|a| a.behind_front_line(e.base.centre))
            } else {
                !touched.contains(&Edge::Front)
            }
        })
        .map(|e| e.id.clone())
        .collect()
}

/// The first round of a combat between two units: one of them charged the other this turn, or
/// pursued into it (a pursuer running into a fresh enemy charges it).
fn first_round(u: &Unit, e: &Unit) -> bool {
    charging(u) || charging(e)
}

fn charging(u: &Unit) -> bool {
    u.bound.charged || u.bound.pursuing
}

/// May `u` add defensive fire points: passive foot or guns, charged this turn by every enemy
/// touching it, not shaken, not under flank or rear attack.
fn defensive_fire(od: &OldDessauer, b: &Battle, u: &Unit) -> Option<(String, i32)> {
    let kind = od.kind(u);
    let eligible = (kind == Kind::Infantry
        || kind == Kind::Artillery
        || (kind == Kind::LightInfantry && od.in_town(b, u)))
        && u.side != b.active
        && !u.status.shaken
        && flank_attackers(od, b, u).is_empty();
    let enemies = od.enemies_in_contact(b, u);
    if !eligible || enemies.is_empty() || !enemies.iter().all(|e| charging(e)) {
        return None;
    }
    let g = ["poor", "regular", "crack"][grade(u.class) as usize];
    let key = if u.status.disordered {
        format!("def_fire_dis_{g}")
    } else if kind == Kind::Artillery {
        format!("def_fire_art_{g}")
    } else {
        format!("def_fire_inf_{g}")
    };
    let value = od.int(&key);
    Some((key, value))
}

/// Combat points of `u` striking at `e`, factor by factor. `first` is the first round.
pub fn points(od: &OldDessauer, b: &Battle, u: &Unit, e: &Unit, first: bool) -> (Vec<Factor>, i32) {
    points_with(od, b, u, e, first, None)
}

fn points_with(
    od: &OldDessauer,
    b: &Battle,
    u: &Unit,
    e: &Unit,
    first: bool,
    def_roll: Option<i32>,
) -> (Vec<Factor>, i32) {
    let t = od.troop(u);
    let mut f = vec![Factor {
        name: t.name.clone(),
        value: t.combat,
        source: t.source.clone(),
    }];
    let diff = grade(u.class) - grade(e.class);
    if diff > 0 {
        let step = od.factor("grade_step", "");
        f.push(Factor {
            name: format!(
                "{} grade{} above the enemy",
                diff,
                if diff > 1 { "s" } else { "" }
            ),
            value: step.value * diff,
            source: step.source,
        });
    }
    if first && let Some((key, fixed)) = defensive_fire(od, b, u) {
        let n = od.factor(&key, "");
        f.push(Factor {
            name: format!(
                "{} defensive fire ({})",
                if u.status.disordered {
                    "Disordered"
                } else {
                    "Steady"
                },
                super::grade_name(u.class)
            ),
            value: def_roll.unwrap_or(fixed),
            source: if def_roll.is_some() {
                "003 Optional Rules: Variable Defensive Fires".into()
            } else {
                n.source
            },
        });
    }
    if first && u.has(Flag::Grenadier) {
        f.push(od.factor("grenadiers_first_round", "Grenadiers, first round"));
    }
    let e_cover = od.in_town(b, e)
        || b.terrain
            .at(
                e.base.centre,
                &[crate::rules::terrain::FeatureKind::Fortification],
            )
            .next()
            .is_some()
        || (od.kind(u) == Kind::Cavalry
            && matches!(
                od.kind(e),
                Kind::Infantry | Kind::Artillery | Kind::LightInfantry
            )
            && od.on_rough_ground(b, e));
    if e_cover {
        f.push(od.factor("vs_cover", "Against cover"));
    }
    let forced =
        od.kind(u) == Kind::LightInfantry && od.is_skirmishing(b, u) && !od.is_skirmishing(b, e);
    if u.status.disordered || forced {
        f.push(od.factor("disordered", "Disordered"));
    }
    if !flank_attackers(od, b, u).is_empty() {
        f.push(od.factor("flank_rear", "Under flank or rear attack"));
    }
    if u.status.shaken {
        f.push(od.factor("shaken", "Shaken"));
    }
    if od.kind(u) == Kind::Cavalry && e.formation == Formation::Square {
        f.push(od.factor("cavalry_vs_square", "Cavalry against a square"));
    }
    f.extend(od.leadership(b, u));
    if !od.in_command(b, u) {
        f.push(od.factor("out_of_command", "Out of command"));
    }
    let total = factor_sum(&f);
    (f, total)
}

/// Score needed to hit with `mine` points against `theirs`.
pub fn need(od: &OldDessauer, mine: i32, theirs: i32) -> u8 {
    let d = mine - theirs;
    if od.opt("variable_chance_to_hit") {
        let mut rows = od.data.variable_hit.clone();
        rows.sort_by_key(|r| -r.difference);
        for r in &rows {
            if d >= r.difference {
                return r.need;
            }
        }
        return rows.last().map(|r| r.need).unwrap_or(6);
    }
    if d > 0 {
        od.int("hit_advantage") as u8
    } else if d == 0 {
        od.int("hit_even") as u8
    } else {
        od.int("hit_disadvantage") as u8
    }
}

fn above_half(od: &OldDessauer, u: &Unit, figures: u32) -> bool {
    2 * figures > od.troop(u).figures_per_stand
}

/// Dice a unit rolls in combat.
pub fn dice_count(od: &OldDessauer, b: &Battle, u: &Unit) -> u32 {
    let kind = od.kind(u);
    if kind == Kind::Artillery {
        return u.figures() / od.num("crew_per_die").max(1.0) as u32;
    }
    let live = |n: usize| {
        u.stands
            .iter()
            .take(n)
            .filter(|s| above_half(od, u, s.figures))
            .count() as u32
    };
    if od.in_town(b, u) {
        return live(usize::MAX);
    }
    // Attackers of a town count every stand, up to 1.5 times the garrison's figures on each
    // side of the block: the attackers on one side share it, the first in table order first.
    if let Some(g) = od
        .enemies_in_contact(b, u)
        .into_iter()
        .find(|e| od.in_town(b, e) && od.is_foot(e))
    {
        let side_of = |x: &Unit| {
            g.base
                .touched_by(&x.base)
                .map(|c| c.edge)
                .unwrap_or_else(|| g.base.edge_facing(x.base.centre))
        };
        let mine = side_of(u);
        let cap = g.figures() as f32 * od.num("town_attack_multiple");
        let mut figs = 0u32;
        let mut attackers: Vec<&Unit> = od
            .enemies_in_contact(b, g)
            .into_iter()
            .filter(|x| x.side == u.side && !od.in_town(b, x) && side_of(x) == mine)
            .collect();
        attackers.sort_by_key(|x| b.index_of(&x.id));
        for x in attackers {
            let mut n = 0u32;
            for s in &x.stands {
                if (figs + s.figures) as f32 > cap {
                    break;
                }
                figs += s.figures;
                if above_half(od, x, s.figures) {
                    n += 1;
                }
            }
            if x.id == u.id {
                return n;
            }
        }
        return 0;
    }
    match u.formation {
        Formation::Column if kind != Kind::LightInfantry => live(od.num("ranks_striking") as usize),
        Formation::Square => {
            live((u.stands.len() * od.num("square_faces_striking") as usize).div_ceil(4))
        }
        _ => live(usize::MAX),
    }
}

/// Every unit linked to `id` by contacts between enemies.
pub fn group(od: &OldDessauer, b: &Battle, id: &UnitId) -> Vec<UnitId> {
    let mut out = vec![id.clone()];
    let mut i = 0;
    while i < out.len() {
        if let Ok(u) = b.unit(&out[i]) {
            for e in od.enemies_in_contact(b, u) {
                if !out.contains(&e.id) {
                    out.push(e.id.clone());
                }
            }
        }
        i += 1;
    }
    // Table order, so the dice fall the same way whichever unit is named.
    out.sort_by_key(|x| b.index_of(x));
    out
}

/// Combats that have not fought their round this turn: (a unit, an enemy it touches).
pub fn unfought(od: &OldDessauer, b: &Battle) -> Vec<(UnitId, UnitId)> {
    let mut out: Vec<(UnitId, UnitId)> = Vec::new();
    let mut seen: Vec<UnitId> = Vec::new();
    for u in b.alive() {
        if seen.contains(&u.id) {
            continue;
        }
        let enemies = od.enemies_in_contact(b, u);
        let Some(e) = enemies.first() else { continue };
        let g = group(od, b, &u.id);
        seen.extend(g.iter().cloned());
        if g.iter().all(|x| b.unit(x).is_ok_and(|x| !x.bound.fought)) {
            out.push((u.id.clone(), e.id.clone()));
        }
    }
    out
}

/// The planned strikes of a round, without dice: (striker, target, dice).
fn allot(od: &OldDessauer, b: &Battle, ids: &[UnitId]) -> Vec<(Unit, Unit, u32)> {
    let mut out = Vec::new();
    for id in ids {
        let Ok(u) = b.unit(id) else { continue };
        let flankers = flank_attackers(od, b, u);
        let mut targets: Vec<&Unit> = od
            .enemies_in_contact(b, u)
            .into_iter()
            .filter(|e| !(flankers.contains(&e.id) && first_round(u, e)))
            .collect();
        targets.sort_by_key(|e| (flankers.contains(&e.id), b.index_of(&e.id)));
        if targets.is_empty() {
            continue;
        }
        let d = dice_count(od, b, u);
        let k = targets.len() as u32;
        for (i, e) in targets.iter().enumerate() {
            let n = d / k + u32::from((i as u32) < d % k);
            out.push((u.clone(), (*e).clone(), n));
        }
    }
    out
}

fn multiplier(od: &OldDessauer, u: &Unit, e: &Unit) -> u32 {
    let mut m = 1;
    if e.status.pursued_by.as_ref() == Some(&u.id) {
        m *= od.num("pursuit_multiplier") as u32;
    }
    if od.kind(e) == Kind::Artillery {
        m *= od.num("gunner_multiplier") as u32;
    }
    m
}

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

/// Refuses orders for units outside the combat, twice for one unit, of a distance that is no
/// distance, or naming an enemy the unit does not roll most dice against.
fn check_orders(
    od: &OldDessauer,
    b: &Battle,
    g: &[UnitId],
    orders: &Orders,
) -> Result<(), RuleError> {
    let plan: Vec<(UnitId, UnitId, usize)> = allot(od, b, g)
        .into_iter()
        .map(|(u, e, n)| (u.id, e.id, n as usize))
        .collect();
    for (i, p) in orders.units.iter().enumerate() {
        let name = b.name_of(&p.unit);
        if !g.contains(&p.unit) {
            return illegal(format!("{name} is not in this combat"));
        }
        if orders.units[..i].iter().any(|q| q.unit == p.unit) {
            return illegal(format!("{name} has two pursuit orders"));
        }
        if p.distance.is_some_and(|d| !(d.is_finite() && d >= 0.0)) {
            return illegal(format!("{name}: a pursuit distance is 0 or more"));
        }
        if let Some(t) = &p.target
            && !most_dice(&plan, &p.unit).contains(t)
        {
            let tn = b.name_of(t);
            return illegal(format!(
                "{name} may not pursue {tn}: a winner pursues the enemy it rolls most dice against"
            ));
        }
    }
    Ok(())
}

/// The pursuit choices of a fight before the dice: for each unit that could pursue, whether it
/// does, whom among those it rolls most dice against, and whether it stops short.
pub fn pursuit_choices(od: &OldDessauer, b: &Battle, cmd: &Command) -> Vec<Choice> {
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
    let g = group(od, b, unit);
    let plan: Vec<(UnitId, UnitId, usize)> = allot(od, b, &g)
        .into_iter()
        .map(|(u, e, n)| (u.id, e.id, n as usize))
        .collect();
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
    for w in &g {
        let Ok(wu) = b.unit(w) else { continue };
        let candidates: Vec<UnitId> = most_dice(&plan, w)
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
        let step = od.num("recoil_move");
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

pub fn fight(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    unit: &UnitId,
    target: &UnitId,
    orders: &Orders,
) -> Result<(), RuleError> {
    if b.phase != Phase::CloseCombat {
        return Err(RuleError::WrongPhase {
            command: "fight".into(),
            phase: b.phase,
        });
    }
    let u = b.unit(unit)?.clone();
    let t = b.unit(target)?.clone();
    if !u.alive() || !od.enemies_in_contact(b, &u).iter().any(|e| e.id == t.id) {
        return illegal(format!("{} is not in contact with {}", u.name, t.name));
    }
    let g = group(od, b, unit);
    if g.iter().any(|x| b.unit(x).is_ok_and(|x| x.bound.fought)) {
        return illegal(format!(
            "the combat of {} has fought its round this turn",
            u.name
        ));
    }
    check_orders(od, b, &g, orders)?;
    round(od, b, out, &g, orders, 0)
}

/// Variable defensive fire: one roll per unit entitled to it.
fn defensive_fire_rolls(
    od: &OldDessauer,
    b: &mut Battle,
    ids: &[UnitId],
) -> Result<BTreeMap<UnitId, i32>, RuleError> {
    let mut def_rolls: BTreeMap<UnitId, i32> = BTreeMap::new();
    if od.opt("variable_defensive_fire") {
        for id in ids {
            let u = b.unit(id)?.clone();
            if defensive_fire(od, b, &u).is_some() {
                let g = ["poor", "regular", "crack"][grade(u.class) as usize];
                let mut minus = od.num(&format!("var_def_fire_{g}"));
                if od.kind(&u) == Kind::Artillery {
                    minus += od.num("var_def_fire_guns");
                }
                if u.status.disordered {
                    minus += od.num("var_def_fire_disordered");
                }
                let die = b.d6()?;
                def_rolls.insert(u.id.clone(), (die as i32 - minus as i32).max(0));
            }
        }
    }
    Ok(def_rolls)
}

/// Every unit's strike of the round: points, need, dice and hits.
fn strike_all(
    od: &OldDessauer,
    b: &mut Battle,
    plan: &[(Unit, Unit, u32)],
    def_rolls: &BTreeMap<UnitId, i32>,
) -> Result<Vec<Strike>, RuleError> {
    let mut strikes = Vec::new();
    for (u, e, n) in plan {
        let first = first_round(u, e);
        let (factors, mine) = points_with(od, b, u, e, first, def_rolls.get(&u.id).copied());
        let (_, theirs) = points_with(od, b, e, u, first, def_rolls.get(&e.id).copied());
        let need = need(od, mine, theirs);
        let mut dice = Vec::new();
        for _ in 0..*n {
            dice.push(b.d6()?);
        }
        let m = multiplier(od, u, e);
        let hits = dice.iter().filter(|&&d| d >= need).count() as u32 * m;
        strikes.push(Strike {
            unit: u.id.clone(),
            target: e.id.clone(),
            factors,
            points: mine,
            enemy_points: theirs,
            dice,
            need,
            hits,
            multiplier: m,
        });
    }
    Ok(strikes)
}

fn round(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    ids: &[UnitId],
    orders: &Orders,
    depth: u32,
) -> Result<(), RuleError> {
    let plan = allot(od, b, ids);
    if plan.is_empty() {
        return Ok(());
    }
    let def_rolls = defensive_fire_rolls(od, b, ids)?;
    let strikes = strike_all(od, b, &plan, &def_rolls)?;
    let before: Vec<Unit> = ids.iter().filter_map(|i| b.unit(i).ok().cloned()).collect();
    let contacts: BTreeMap<UnitId, Vec<UnitId>> = before
        .iter()
        .map(|u| {
            (
                u.id.clone(),
                od.enemies_in_contact(b, u)
                    .iter()
                    .map(|e| e.id.clone())
                    .collect(),
            )
        })
        .collect();
    b.emit(
        out,
        Event::Melee {
            strikes: strikes.clone(),
        },
    );
    let taken = |id: &UnitId| -> u32 {
        strikes
            .iter()
            .filter(|s| &s.target == id)
            .map(|s| s.hits)
            .sum()
    };
    let made = |id: &UnitId| -> u32 {
        strikes
            .iter()
            .filter(|s| &s.unit == id)
            .map(|s| s.hits)
            .sum()
    };
    for u in &before {
        let h = taken(&u.id);
        od.take_losses(b, out, &u.id, h, "combat hits")?;
        od.general_danger(b, out, &u.id, h)?;
    }
    for u in &before {
        if b.unit(&u.id)
            .is_ok_and(|x| x.alive() && !x.status.disordered)
        {
            b.emit(
                out,
                Event::Disordered {
                    unit: u.id.clone(),
                    why: "after a round of combat".into(),
                },
            );
        }
    }
    // Losers recoil, one move per excess hit.
    let mut recoiled: Vec<UnitId> = Vec::new();
    let mut paths: BTreeMap<UnitId, Vec<Base>> = BTreeMap::new();
    for u in &before {
        let (t, m) = (taken(&u.id), made(&u.id));
        if t <= m || !b.unit(&u.id).is_ok_and(|x| x.alive()) {
            continue;
        }
        if !b.unit(&u.id)?.status.shaken {
            b.emit(out, Event::Shaken { unit: u.id.clone() });
        }
        // Straight on in the direction the enemy that hit it hardest faces: a frontal fight
        // drives it straight back, a flank attack sideways.
        let now = b.unit(&u.id)?.base;
        let cause = strikes
            .iter()
            .filter(|s| s.target == u.id)
            .max_by_key(|s| s.hits)
            .and_then(|s| b.unit(&s.unit).ok())
            .map(|c| now.centre.minus(c.base.forward()))
            .unwrap_or(now.front_centre().plus(now.forward()));
        let path = recoil(od, b, out, &u.id, cause, t - m)?;
        paths.insert(u.id.clone(), path);
        recoiled.push(u.id.clone());
    }
    pursuits(
        od,
        b,
        out,
        &Melee {
            before,
            contacts,
            recoiled,
            strikes,
            paths,
        },
        orders,
        depth,
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

/// The pursuer follows `shift`, stopping against anything in the way, and an inch short of the
/// enemies in `keep_off` (those it may not charge: its zone of control); a fresh enemy met is
/// returned.
fn pursue_path(
    od: &OldDessauer,
    b: &Battle,
    w: &Unit,
    pursued: &UnitId,
    shift: crate::rules::geometry::Pt,
    keep_off: &[UnitId],
) -> (Base, Option<UnitId>) {
    let at = |t: f32| Base {
        centre: w.base.centre.plus(shift.scale(t)),
        ..w.base
    };
    let zoc = b.scale.to_mm(od.num("zone_of_control"));
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
    for (x, y, g) in super::movement::gaps_crossed(&friends, first.centre, last.centre) {
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

/// Points, dice and chances of the combat between `unit` and `target` before the dice.
pub fn outlook(
    od: &OldDessauer,
    b: &Battle,
    unit: &UnitId,
    target: &UnitId,
) -> Result<Forecast, RuleError> {
    if b.phase != Phase::CloseCombat {
        return Err(RuleError::WrongPhase {
            command: "fight".into(),
            phase: b.phase,
        });
    }
    let u = b.unit(unit)?;
    if !od.enemies_in_contact(b, u).iter().any(|e| &e.id == target) {
        return illegal(format!("{} is not in contact with that enemy", u.name));
    }
    let g = group(od, b, unit);
    let plan = allot(od, b, &g);
    let mut lines = Vec::new();
    let mut pair = [(0u32, 6u8, 1u32), (0, 6, 1)];
    for (x, e, n) in &plan {
        let first = first_round(x, e);
        let (factors, mine) = points(od, b, x, e, first);
        let (_, theirs) = points(od, b, e, x, first);
        let nd = need(od, mine, theirs);
        if &x.id == unit && &e.id == target {
            pair[0] = (*n, nd, multiplier(od, x, e));
        }
        if &x.id == target && &e.id == unit {
            pair[1] = (*n, nd, multiplier(od, x, e));
        }
        lines.push(OutlookLine {
            unit: x.name.clone(),
            target: e.name.clone(),
            dice: *n,
            need: nd,
            factors,
            points: Some((mine, theirs)),
        });
    }
    // Between the two named units: who takes more hits.
    let (mut a_wins, mut b_wins, mut even) = (0.0, 0.0, 0.0);
    for i in 0..=pair[0].0 {
        let pi = exactly(pair[0].0, pair[0].1, i);
        for j in 0..=pair[1].0 {
            let pj = exactly(pair[1].0, pair[1].1, j);
            let (ha, hb) = (i * pair[0].2, j * pair[1].2);
            if ha > hb {
                a_wins += pi * pj;
            } else if hb > ha {
                b_wins += pi * pj;
            } else {
                even += pi * pj;
            }
        }
    }
    let (un, tn) = (u.name.clone(), b.unit(target)?.name.clone());
    Ok(Forecast {
        lines,
        chances: vec![
            (format!("{tn} loses and recoils"), a_wins, 0.5),
            ("Equal hits: nobody recoils".into(), even, 0.0),
            (format!("{un} loses and recoils"), b_wins, -0.5),
        ],
    })
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
        } if unit == id && why == "rout hits" => Some((*figures, stands.iter().sum::<u32>())),
        _ => None,
    })?;
    let u = b.unit(id).ok()?;
    let shattered = od.strength(u) as f32 * od.num("shatter_fraction");
    let before = left + lost;
    if before as f32 <= shattered || left as f32 > shattered {
        return None;
    }
    // The first rout hit that leaves it shattered.
    Some((before as f32 - shattered).ceil().max(1.0) as u32)
}

/// A round's outcome that pursuit reads: the units as they were, whom each touched, who
/// recoiled, and every strike.
struct Melee {
    before: Vec<Unit>,
    contacts: BTreeMap<UnitId, Vec<UnitId>>,
    recoiled: Vec<UnitId>,
    strikes: Vec<Strike>,
    /// The bases each loser passed through as it recoiled, its turn included.
    paths: BTreeMap<UnitId, Vec<Base>>,
}

/// Winners whose enemies all recoiled may pursue; a pursuit that runs into a fresh enemy fights
/// a new round (at most two deep).
fn pursuits(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    m: &Melee,
    orders: &Orders,
    depth: u32,
) -> Result<(), RuleError> {
    let plan: Vec<(UnitId, UnitId, usize)> = m
        .strikes
        .iter()
        .map(|s| (s.unit.clone(), s.target.clone(), s.dice.len()))
        .collect();
    for w in &m.before {
        let order = orders.of(w);
        if !order.pursue {
            continue;
        }
        let Ok(now) = b.unit(&w.id).cloned() else {
            continue;
        };
        if !now.alive() || m.recoiled.contains(&w.id) || now.status.shaken {
            continue;
        }
        let enemies = &m.contacts[&w.id];
        if enemies.is_empty()
            || !enemies
                .iter()
                .all(|e| m.recoiled.contains(e) || b.unit(e).map(|x| !x.alive()).unwrap_or(true))
        {
            continue;
        }
        // The one it rolled most dice against (its owner's choice among equals), among those
        // still on the table or shattered by their rout hits (ruling pursuit_to_shatter).
        let candidates: Vec<UnitId> = most_dice(&plan, &w.id)
            .into_iter()
            .filter(|e| b.unit(e).is_ok_and(|x| x.alive()) || shattered_at(od, b, out, e).is_some())
            .collect();
        let Some(target) = order
            .target
            .clone()
            .filter(|t| candidates.contains(t))
            .or_else(|| default_quarry(&candidates))
        else {
            continue;
        };
        let e_before = m.before.iter().find(|x| x.id == target).map(|x| x.base);
        let e_now = b.unit(&target)?.clone();
        if !may_pursue(od, &now, &e_now) {
            continue;
        }
        let Some(from) = e_before else { continue };
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
                } if unit == &target => Some(to.centre.minus(from.centre)),
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
        let shatter = shattered_at(od, b, out, &target)
            .map(|moves| b.scale.to_mm(od.num("recoil_move") * moves as f32));
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
        // It charges a fresh enemy only where the enemy recoiled through it, or between it and
        // another friend less than half the pursuer's width apart; others it stops an inch short
        // of.
        // (Skirmishers it runs into give way or are overrun, as before any formed troops.)
        let path = m.paths.get(&target).map(Vec::as_slice).unwrap_or_default();
        let chargeable = recoiled_through(od, b, path, &target, now.base.width / 2.0);
        let may_meet =
            |x: &UnitId| chargeable.contains(x) || b.unit(x).is_ok_and(|x| od.is_skirmishing(b, x));
        let mut keep_off: Vec<UnitId> = Vec::new();
        let (to, fresh) = loop {
            let (to, fresh) = pursue_path(od, b, &now, &e_now.id, shift, &keep_off);
            match fresh {
                Some(x) if !may_meet(&x) && !keep_off.contains(&x) => keep_off.push(x),
                _ => break (to, fresh.filter(|x| may_meet(x))),
            }
        };
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
        if now.status.frontal_charge {
            super::movement::frontal_mark(b, out, &w.id, false);
        }
        // Skirmishers it runs into give way or are overrun; formed enemies fight a fresh round.
        super::movement::skirmishers_give_way(od, b, out, &w.id)?;
        let fresh = fresh.filter(|x| {
            b.unit(x)
                .is_ok_and(|x| x.alive() && !od.is_skirmishing(b, x))
        });
        if let Some(x) = fresh
            && depth < 2
        {
            for id in [&w.id, &x] {
                if b.unit(id).is_ok_and(|u| !u.status.disordered) {
                    b.emit(
                        out,
                        Event::Disordered {
                            unit: id.clone(),
                            why: "pursuit ran into a fresh enemy".into(),
                        },
                    );
                }
            }
            let g = group(od, b, &w.id);
            round(od, b, out, &g, orders, depth + 1)?;
        }
    }
    Ok(())
}
