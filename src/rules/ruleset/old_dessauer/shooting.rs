//! Shooting: a die per front-rank stand in range, arc and clear line, the line of fire and its
//! gaps, hanging flanks, and the chance of each number of hits.

use super::casualties::LossCause;
use super::layout::stand_bases;
use super::{
    Forecast, Kind, N, OldDessauer, OutlookLine, Shooting, exactly, illegal, nearest_point,
};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, RuleError, factor_sum};
use crate::rules::geometry::{CONTACT_EPS, Pt, point_segment_distance, segment_hits_base};
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::ruleset::common::own_active;
use crate::rules::ruleset::old_dessauer::{FIRING, MOVEMENT, NoShot, Refusal};
use crate::rules::terrain::FeatureKind;

/// A shooting about to happen.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub stands: u32,
    pub dice: u32,
    pub need: u8,
    pub factors: Vec<Factor>,
}

fn is_gun(od: &OldDessauer, u: &Unit) -> bool {
    matches!(od.kind(u), Kind::Artillery | Kind::RegimentalGun)
}

/// Terrain lets a line from `from` reach `target`: woods at most 4 inches deep, no town or
/// village between, no hill higher than both ends.
pub fn sight_clear(od: &OldDessauer, b: &Battle, from: Pt, target: &Unit, shooter: &Unit) -> bool {
    let to = nearest_point(&target.base, from);
    let mut woods = 0.0;
    let (lf, lt) = (b.terrain.level_at(from), b.terrain.level_at(to));
    for f in b.terrain.features.iter() {
        match f.kind {
            FeatureKind::Woods => woods += f.inside_length(from, to),
            FeatureKind::Town | FeatureKind::Village
                if f.inside_length(from, to) > 0.5
                    && !f.contains(shooter.base.centre)
                    && !f.contains(target.base.centre) =>
            {
                return false;
            }
            FeatureKind::Hill if f.level > lf.max(lt) && f.inside_length(from, to) > 0.5 => {
                return false;
            }
            _ => {}
        }
    }
    woods <= b.scale.to_mm(od.num(N::WoodsVisibility)) + 0.01 || has_fired(b, target)
}

/// Has `u` fired since its side's last turn began? Troops in woods that fire are seen normally.
fn has_fired(b: &Battle, u: &Unit) -> bool {
    let began = b
        .log
        .iter()
        .rposition(
            |e| matches!(e, Event::PhaseBegan { phase: MOVEMENT, side, .. } if *side == u.side),
        )
        .unwrap_or(0);
    b.log
        .since(began)
        .any(|e| matches!(e, Event::Volley { shooter, .. } if shooter == &u.id))
}

/// Dense: two or more stands deep, or shot from within 22.5 degrees of its frontage line.
fn dense(od: &OldDessauer, target: &Unit, from: Pt, to: Pt) -> bool {
    let deep = match target.formation {
        Formation::Column => od.kind(target) != Kind::LightInfantry && target.stands.len() >= 2,
        Formation::Square => true,
        _ => false,
    };
    let d = to.minus(from);
    let len = d.len();
    if deep || len < 1e-3 {
        return deep;
    }
    // An L is enfiladed along the frontage of the arm the shot reaches.
    let arm = super::layout::arms(target)
        .into_iter()
        .min_by(|x, y| x.distance_to_point(to).total_cmp(&y.distance_to_point(to)))
        .unwrap_or(target.base);
    let cos = (d.dot(arm.right()) / len).abs();
    cos >= od.num(N::EnfiladeAngle).to_radians().cos()
}

/// Does anything block the line from `a` to `p`? Returns the blocker's name, or the gap used.
enum Line {
    Clear,
    /// Between these two units, admitting this many stands (one per 2 inches of its width).
    Gap(UnitId, UnitId, u32),
    /// Blocked, why (a unit in the way, or a gap too narrow) and by what in words.
    Blocked(NoShot, String),
}

fn line_of_fire(od: &OldDessauer, b: &Battle, s: &Unit, t: &Unit, a: Pt, p: Pt) -> Line {
    let gun = is_gun(od, s);
    let lvl = b.terrain.level_at(s.base.centre);
    let range = a.dist(p);
    let others: Vec<&Unit> = b
        .alive()
        .filter(|o| {
            o.id != s.id
                && o.id != t.id
                && od.kind(o) != Kind::General
                && o.extra.parent.as_ref() != Some(&s.id)
        })
        .collect();
    // Whether a unit stops this fire where it stands across the line: enemy guns never do,
    // skirmishers not a gun's, units below a gun not where it shoots over them.
    let screens = |o: &Unit| {
        if o.side != s.side && is_gun(od, o) {
            return false;
        }
        if gun && od.is_skirmishing(b, o) {
            return false;
        }
        if gun && b.terrain.level_at(o.base.centre) < lvl {
            if o.side != s.side {
                return false;
            }
            let far = o
                .base
                .corners()
                .iter()
                .map(|c| a.dist(*c))
                .fold(0.0, f32::max);
            if range >= 2.0 * far {
                return false;
            }
        }
        true
    };
    let others: Vec<&Unit> = others.into_iter().filter(|o| screens(o)).collect();
    if let Some(o) = others
        .iter()
        .find(|o| o.shapes().iter().any(|x| segment_hits_base(a, p, x)))
    {
        return Line::Blocked(NoShot::Blocked, o.name.clone());
    }
    // Gaps: two units straddling the middle of the line (only units that would stop the fire
    // make a gap: a gun shoots past a skirmisher however near a friend it stands).
    let gap_need = b.scale.to_mm(od.num(N::FireGap));
    let dir = p.minus(a);
    let len2 = dir.dot(dir).max(1e-6);
    let mid = |o: &Unit| {
        let q = super::nearest_point(&o.base, a.lerp(p, 0.5));
        let t = q.minus(a).dot(dir) / len2;
        (t, dir.cross(o.base.centre.minus(a)).signum())
    };
    let near: Vec<(&Unit, f32, f32)> = others
        .iter()
        .filter(|o| {
            point_segment_distance(super::nearest_point(&o.base, a.lerp(p, 0.5)), a, p) < gap_need
        })
        .map(|o| {
            let (t, side) = mid(o);
            (*o, t, side)
        })
        .filter(|(_, t, _)| (0.1..=0.9).contains(t))
        .collect();
    let mut best: Option<(f32, &Unit, &Unit)> = None;
    for (i, (x, _, sx)) in near.iter().enumerate() {
        for (y, _, sy) in near.iter().skip(i + 1) {
            if sx == sy {
                continue;
            }
            let g = x.base.distance(&y.base);
            if best.is_none_or(|(bg, _, _)| g < bg) {
                best = Some((g, x, y));
            }
        }
    }
    match best {
        Some((g, x, y)) if g < gap_need - 0.01 => Line::Blocked(
            NoShot::NarrowGap,
            format!(
                "the gap between {} and {} is under {} inches",
                x.name,
                y.name,
                od.num(N::FireGap)
            ),
        ),
        Some((g, x, y)) => {
            let (m, n) = if x.id < y.id { (x, y) } else { (y, x) };
            let admits = ((g + 0.01) / gap_need).floor().max(1.0) as u32;
            Line::Gap(m.id.clone(), n.id.clone(), admits)
        }
        None => Line::Clear,
    }
}

/// Refuses a shooter that may not shoot now, or a target it may not shoot at; says whether the
/// shooter moved this turn.
fn may_shoot(od: &OldDessauer, b: &Battle, s: &Unit, t: &Unit) -> Result<bool, RuleError> {
    let kind = od.kind(s);
    match kind {
        Kind::Cavalry => {
            return illegal(
                Refusal::CavalryMayNotShoot,
                format!("{}: cavalry may not shoot", s.name),
            );
        }
        Kind::General => {
            return illegal(
                Refusal::GeneralsDoNotShoot,
                format!("{} is a general", s.name),
            );
        }
        _ => {}
    }
    if s.bound.fired {
        return Err(RuleError::AlreadyActed {
            unit: s.id.clone(),
            what: "shot".into(),
        });
    }
    if s.bound.charged {
        return illegal(
            Refusal::ChargedMayNotShoot,
            format!("{} charged this turn and may not shoot", s.name),
        );
    }
    if s.status.shaken {
        return illegal(
            Refusal::ShakenMayNotShoot,
            format!("{} is shaken and may not shoot", s.name),
        );
    }
    if od.in_contact(b, s) {
        return illegal(Refusal::InCombat, format!("{} is in combat", s.name));
    }
    let allowance = od.allowance(s);
    let moved = s.bound.moved || s.bound.formed || s.bound.used() > 0.0;
    match kind {
        Kind::Artillery if s.status.limbered => {
            return illegal(Refusal::Limbered, format!("{} is limbered", s.name));
        }
        Kind::Artillery | Kind::RegimentalGun if moved || s.bound.limber_changed => {
            return illegal(
                Refusal::GunsMovedMayNotShoot,
                format!("{}: guns may not move and shoot", s.name),
            );
        }
        Kind::Infantry | Kind::LightInfantry
            if s.bound.used() > allowance * od.num(N::HalfSpeed) + 0.01 =>
        {
            return illegal(
                Refusal::MovedOverHalfSpeed,
                format!("{} moved more than half speed and may not shoot", s.name),
            );
        }
        _ => {}
    }
    if t.side == s.side || !t.alive() || od.kind(t) == Kind::General {
        return illegal(
            Refusal::CannotShootAt,
            format!("{} cannot shoot at {}", s.name, t.name),
        );
    }
    if od.in_contact(b, t) && !hanging_flank(od, b, t) {
        return illegal(
            Refusal::TargetInMelee,
            format!(
                "{} is in combat without a hanging flank: no shooting into the melee",
                t.name
            ),
        );
    }
    Ok(moved)
}

/// Who may shoot, with how many dice and needing what; or why not.
pub fn setup(od: &OldDessauer, b: &Battle, sid: &UnitId, tid: &UnitId) -> Result<Setup, RuleError> {
    if b.phase != FIRING {
        return Err(RuleError::WrongPhase {
            command: "shoot".into(),
            phase: b.phase,
        });
    }
    let s = b.unit(sid)?.clone();
    let t = b.unit(tid)?.clone();
    own_active(b, &s)?;
    let kind = od.kind(&s);
    let moved = may_shoot(od, b, &s, &t)?;
    let (stands, mut dice) = stands_shooting(od, b, &s, &t)?;
    if od.kind(&t) == Kind::RegimentalGun {
        dice = dice.min(1);
    }
    let mut factors = Vec::new();
    if s.status.disordered && !od.is_skirmishing(b, &s) {
        factors.push(od.shooting_factor(Shooting::Disordered));
    }
    if od.is_foot(&s) && moved {
        factors.push(od.shooting_factor(Shooting::Moved));
    }
    if od.in_cover(b, &t) {
        factors.push(od.shooting_factor(Shooting::Cover));
    } else if od.is_skirmishing(b, &t) {
        factors.push(od.shooting_factor(Shooting::SkirmishTarget));
    }
    let base = if kind == Kind::RegimentalGun {
        od.int(N::RegimentalGunNeed)
    } else {
        od.int(N::ShootNeed)
    };
    let sum = factor_sum(&factors);
    let need = (base - sum).clamp(1, 6) as u8;
    Ok(Setup {
        stands,
        dice,
        need,
        factors,
    })
}

/// The stands of `s` that may shoot at `t` (in range, arc and sight, the line of fire clear or
/// through a gap wide enough), and the dice they roll; or why none may.
fn stands_shooting(
    od: &OldDessauer,
    b: &Battle,
    s: &Unit,
    t: &Unit,
) -> Result<(u32, u32), RuleError> {
    let kind = od.kind(s);
    let inch = b.scale.to_mm(1.0);
    let range = od.range(s).unwrap_or(0.0) * inch;
    let garrison = od.is_foot(s) && od.in_town(b, s);
    let bases = stand_bases(od, s);
    let shapes = t.shapes();
    let cap = if garrison {
        ((s.stands.len() as f32) * od.num(N::TownFireFraction)).ceil() as usize
    } else if s.formation == Formation::Square {
        s.stands.len().div_ceil(4).max(1)
    } else if s.formation == Formation::Column && kind != Kind::LightInfantry {
        1
    } else {
        usize::MAX
    };
    let min = od.num(N::MinFiguresToShoot) as u32;
    let half = od.num(N::ArcHalfAngle);
    let mut gaps: Vec<(UnitId, UnitId)> = Vec::new();
    let mut stands = 0u32;
    let mut dice = 0u32;
    let mut why = String::new();
    let mut no_shot = NoShot::NoStand;
    for (i, sb) in bases.iter().enumerate() {
        if stands as usize >= cap {
            break;
        }
        if s.formation == Formation::Column && kind != Kind::LightInfantry && !garrison && i > 0 {
            break;
        }
        if s.stands.get(i).map(|x| x.figures).unwrap_or(0) < min {
            continue;
        }
        let a = if garrison {
            sb.centre
        } else {
            sb.front_centre()
        };
        let shape = shapes
            .iter()
            .min_by(|x, y| {
                nearest_point(x, a)
                    .dist(a)
                    .total_cmp(&nearest_point(y, a).dist(a))
            })
            .copied()
            .unwrap_or(t.base);
        let p = nearest_point(&shape, a);
        if a.dist(p) > range + 0.01 {
            (no_shot, why) = (NoShot::OutOfRange, format!("{} is out of range", t.name));
            continue;
        }
        if !garrison && !shapes.iter().any(|x| sb.in_arc(x, half)) {
            (no_shot, why) = (
                NoShot::OutsideArc,
                format!("{} is not within 45 degrees of the front", t.name),
            );
            continue;
        }
        if !sight_clear(od, b, a, t, s) {
            (no_shot, why) = (
                NoShot::CannotBeSeen,
                format!("{} cannot be seen (terrain)", t.name),
            );
            continue;
        }
        match line_of_fire(od, b, s, t, a, p) {
            Line::Blocked(k, n) => {
                (no_shot, why) = (k, format!("the line of fire is blocked by {n}"));
                continue;
            }
            Line::Gap(x, y, admits) => {
                let used = gaps
                    .iter()
                    .filter(|g| **g == (x.clone(), y.clone()))
                    .count();
                if used as u32 >= admits {
                    (no_shot, why) = (
                        NoShot::GapFull,
                        format!(
                            "only one stand may shoot through each {} inches of a gap",
                            od.num(N::FireGap)
                        ),
                    );
                    continue;
                }
                gaps.push((x, y));
            }
            Line::Clear => {}
        }
        stands += 1;
        dice += if is_gun(od, s) && dense(od, t, a, p) {
            od.num(N::DenseDice) as u32
        } else {
            1
        };
    }
    if stands == 0 {
        return illegal(
            Refusal::NoStandCanShoot(no_shot),
            if why.is_empty() {
                format!("no stand of {} can shoot at {}", s.name, t.name)
            } else {
                format!("{} cannot shoot: {why}", s.name)
            },
        );
    }
    Ok((stands, dice))
}

/// A unit in combat may be shot at only with a hanging flank of enough figures or guns.
fn hanging_flank(od: &OldDessauer, b: &Battle, t: &Unit) -> bool {
    let enemies = od.enemies_in_contact(b, t);
    let free: Vec<u32> = stand_bases(od, t)
        .iter()
        .zip(t.stands.iter())
        .filter(|(sb, _)| enemies.iter().all(|e| sb.distance(&e.base) > CONTACT_EPS))
        .map(|(_, st)| st.figures)
        .collect();
    match od.kind(t) {
        Kind::Artillery => free.len() as f32 >= od.num(N::HangingFlankGuns),
        Kind::Cavalry => free.iter().sum::<u32>() as f32 >= od.num(N::HangingFlankHorse),
        _ => free.iter().sum::<u32>() as f32 >= od.num(N::HangingFlankFoot),
    }
}

pub fn fire(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    sid: &UnitId,
    tid: &UnitId,
) -> Result<(), RuleError> {
    let st = setup(od, b, sid, tid)?;
    let mut dice = Vec::new();
    for _ in 0..st.dice {
        dice.push(b.d6()?);
    }
    let hits = dice.iter().filter(|&&d| d >= st.need).count() as u32;
    b.emit(
        out,
        Event::Volley {
            shooter: sid.clone(),
            target: tid.clone(),
            stands: st.stands,
            dice,
            factors: st.factors,
            need: st.need,
            hits,
            first_die: None,
        },
    );
    od.take_losses(b, out, tid, hits, LossCause::Shooting)?;
    od.general_danger(b, out, tid, hits)
}

/// The dice, need and chance of each number of hits.
pub fn outlook(
    od: &OldDessauer,
    b: &Battle,
    sid: &UnitId,
    tid: &UnitId,
) -> Result<Forecast, RuleError> {
    let st = setup(od, b, sid, tid)?;
    let (s, t) = (b.unit(sid)?, b.unit(tid)?);
    let chances = (0..=st.dice)
        .map(|k| {
            (
                if k == 1 {
                    "1 hit".to_string()
                } else {
                    format!("{k} hits")
                },
                exactly(st.dice, st.need, k),
                // Each hit wears the target down; five or more ruin it.
                (k as f64 * 0.2).min(1.0),
            )
        })
        .collect();
    Ok(Forecast {
        lines: vec![OutlookLine {
            unit: s.name.clone(),
            target: t.name.clone(),
            dice: st.dice,
            need: st.need,
            factors: st.factors,
            points: None,
        }],
        chances,
    })
}
