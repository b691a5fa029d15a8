//! Combat: combat points, dice per eligible stand, the chance to hit by the point difference,
//! a round fought with its losses and recoils, and the pursuits that follow it.

use super::casualties::LossCause;
use super::pursuit::{self, DicePlan, Melee, Orders};
use super::recoil::recoil;
use super::status::own;
use super::{
    DessauerEvent, Forecast, Kind, N, OldDessauer, Opt, OutlookLine, Strike, exactly, grade,
    illegal,
};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event, Factor, RuleError, factor_sum};
use crate::rules::geometry::{Base, Edge};
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::ruleset::old_dessauer::{CLOSE_COMBAT, Flag, Refusal};
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
        .filter(|e| !own(e).frontal_charge)
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
fn defensive_fire(od: &OldDessauer, b: &Battle, u: &Unit) -> Option<(N, i32)> {
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
    let key = match (u.status.disordered, kind == Kind::Artillery, grade(u.class)) {
        (true, _, 0) => N::DefFireDisPoor,
        (true, _, 1) => N::DefFireDisRegular,
        (true, _, _) => N::DefFireDisCrack,
        (false, true, 0) => N::DefFireArtPoor,
        (false, true, 1) => N::DefFireArtRegular,
        (false, true, _) => N::DefFireArtCrack,
        (false, false, 0) => N::DefFireInfPoor,
        (false, false, 1) => N::DefFireInfRegular,
        (false, false, _) => N::DefFireInfCrack,
    };
    let value = od.int(key);
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
        let step = od.factor(N::GradeStep, "");
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
        let n = od.factor(key, "");
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
        f.push(od.factor(N::GrenadiersFirstRound, "Grenadiers, first round"));
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
        f.push(od.factor(N::VsCover, "Against cover"));
    }
    let forced =
        od.kind(u) == Kind::LightInfantry && od.is_skirmishing(b, u) && !od.is_skirmishing(b, e);
    if u.status.disordered || forced {
        f.push(od.factor(N::Disordered, "Disordered"));
    }
    if !flank_attackers(od, b, u).is_empty() {
        f.push(od.factor(N::FlankRear, "Under flank or rear attack"));
    }
    if u.status.shaken {
        f.push(od.factor(N::Shaken, "Shaken"));
    }
    if od.kind(u) == Kind::Cavalry && e.formation == Formation::Square {
        f.push(od.factor(N::CavalryVsSquare, "Cavalry against a square"));
    }
    f.extend(od.leadership(b, u));
    if !od.in_command(b, u) {
        f.push(od.factor(N::OutOfCommand, "Out of command"));
    }
    let total = factor_sum(&f);
    (f, total)
}

/// Score needed to hit with `mine` points against `theirs`.
pub fn need(od: &OldDessauer, mine: i32, theirs: i32) -> u8 {
    let d = mine - theirs;
    if od.opt(Opt::VariableChanceToHit) {
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
        od.int(N::HitAdvantage) as u8
    } else if d == 0 {
        od.int(N::HitEven) as u8
    } else {
        od.int(N::HitDisadvantage) as u8
    }
}

fn above_half(od: &OldDessauer, u: &Unit, figures: u32) -> bool {
    2 * figures > od.troop(u).figures_per_stand
}

/// Dice a unit rolls in combat.
pub fn dice_count(od: &OldDessauer, b: &Battle, u: &Unit) -> u32 {
    let kind = od.kind(u);
    if kind == Kind::Artillery {
        return u.figures() / od.num(N::CrewPerDie).max(1.0) as u32;
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
        let cap = g.figures() as f32 * od.num(N::TownAttackMultiple);
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
        Formation::Column if kind != Kind::LightInfantry => live(od.num(N::RanksStriking) as usize),
        Formation::Square => {
            live((u.stands.len() * od.num(N::SquareFacesStriking) as usize).div_ceil(4))
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

/// Who rolls how many dice at whom in a round of the combat `g`.
fn dice_plan(od: &OldDessauer, b: &Battle, g: &[UnitId]) -> DicePlan {
    allot(od, b, g)
        .into_iter()
        .map(|(u, e, n)| (u.id, e.id, n as usize))
        .collect()
}

/// The pursuit choices of a fight before the dice (see `pursuit::choices`).
pub fn pursuit_choices(od: &OldDessauer, b: &Battle, cmd: &Command) -> Vec<Choice> {
    let Command::Fight { unit, .. } = cmd else {
        return Vec::new();
    };
    let g = group(od, b, unit);
    pursuit::choices(od, b, cmd, &g, &dice_plan(od, b, &g))
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
    for w in &m.before {
        let fresh = pursuit::pursue(od, b, out, m, w, orders)?;
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

fn multiplier(od: &OldDessauer, u: &Unit, e: &Unit) -> u32 {
    let mut m = 1;
    if e.status.pursued_by.as_ref() == Some(&u.id) {
        m *= od.num(N::PursuitMultiplier) as u32;
    }
    if od.kind(e) == Kind::Artillery {
        m *= od.num(N::GunnerMultiplier) as u32;
    }
    m
}

pub fn fight(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    unit: &UnitId,
    target: &UnitId,
    orders: &Orders,
) -> Result<(), RuleError> {
    if b.phase != CLOSE_COMBAT {
        return Err(RuleError::WrongPhase {
            command: "fight".into(),
            phase: b.phase,
        });
    }
    let u = b.unit(unit)?.clone();
    let t = b.unit(target)?.clone();
    if !u.alive() || !od.enemies_in_contact(b, &u).iter().any(|e| e.id == t.id) {
        return illegal(
            Refusal::NotInContact,
            format!("{} is not in contact with {}", u.name, t.name),
        );
    }
    let g = group(od, b, unit);
    if g.iter().any(|x| b.unit(x).is_ok_and(|x| x.bound.fought)) {
        return illegal(
            Refusal::CombatFought,
            format!("the combat of {} has fought its round this turn", u.name),
        );
    }
    pursuit::check_orders(b, &g, &dice_plan(od, b, &g), orders)?;
    round(od, b, out, &g, orders, 0)
}

/// Variable defensive fire: one roll per unit entitled to it.
fn defensive_fire_rolls(
    od: &OldDessauer,
    b: &mut Battle,
    ids: &[UnitId],
) -> Result<BTreeMap<UnitId, i32>, RuleError> {
    let mut def_rolls: BTreeMap<UnitId, i32> = BTreeMap::new();
    if od.opt(Opt::VariableDefensiveFire) {
        for id in ids {
            let u = b.unit(id)?.clone();
            if defensive_fire(od, b, &u).is_some() {
                let mut minus = od.num(match grade(u.class) {
                    0 => N::VarDefFirePoor,
                    1 => N::VarDefFireRegular,
                    _ => N::VarDefFireCrack,
                });
                if od.kind(&u) == Kind::Artillery {
                    minus += od.num(N::VarDefFireGuns);
                }
                if u.status.disordered {
                    minus += od.num(N::VarDefFireDisordered);
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
        DessauerEvent::Melee {
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
        od.take_losses(b, out, &u.id, h, LossCause::Combat)?;
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

/// Points, dice and chances of the combat between `unit` and `target` before the dice.
pub fn outlook(
    od: &OldDessauer,
    b: &Battle,
    unit: &UnitId,
    target: &UnitId,
) -> Result<Forecast, RuleError> {
    if b.phase != CLOSE_COMBAT {
        return Err(RuleError::WrongPhase {
            command: "fight".into(),
            phase: b.phase,
        });
    }
    let u = b.unit(unit)?;
    if !od.enemies_in_contact(b, u).iter().any(|e| &e.id == target) {
        return illegal(
            Refusal::NotInContact,
            format!("{} is not in contact with that enemy", u.name),
        );
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
