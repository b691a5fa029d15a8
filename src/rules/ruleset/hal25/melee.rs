//! Melee in Hal's rules: stand against stand, the difference of the dice in casualties,
//! unanswered dice, the totals compared, the loser to the failed morale chart.

use super::procedures::{self, MeleeSide, Morale};
use super::rolls::HalRoll;
use super::status::own;
use super::{Hal25, HalEvent, MeleeKey, N, State, TroopClass};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, RuleError, factor_sum};
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::Roll;
use crate::rules::ruleset::common::{illegal, in_phase, two_d6};
use crate::rules::ruleset::hal25::{CLOSE_COMBAT, Refusal};

/// What becomes of a melee's loser, in the order of `MeleeOdds::fate`.
pub const LOSER_FATES: [&str; 4] = [
    "routs",
    "is disorganised and falls back",
    "recovers",
    "surrenders",
];

/// A melee's odds: each side's chance to win (attacker first), a draw, the casualty points each
/// side may expect to suffer, and each side's chance to lose and then rout, be disorganised
/// (falling back), recover or surrender.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeleeOdds {
    pub wins: [f64; 2],
    pub draw: f64,
    pub lost: [f64; 2],
    /// By side, then by `LOSER_FATES`.
    pub fate: [[f64; 4]; 2],
}

/// One side of a melee, worked out before the dice.
#[derive(Clone, Debug)]
pub struct Side {
    pub unit: UnitId,
    pub factors: Vec<Factor>,
    pub melee: MeleeSide,
    pub cavalry: bool,
    /// The unit's stand fighting at each place of `melee` (none for a battery's crews).
    pub stands: Vec<usize>,
    /// Gun crews left over (fewer than six): they test 1D6 against their number and throw
    /// the last die of `melee` only if they pass (II.A.1.a, "Same for melee purposes").
    pub left_over: u32,
}

impl Hal25 {
    /// Pairs of enemies in contact that have not fought each other this phase, chargers
    /// first: a unit in contact with two enemies fights each of them (ruling several_melees).
    pub fn melees(&self, b: &Battle) -> Vec<(UnitId, UnitId)> {
        let mut v: Vec<(UnitId, UnitId)> = Vec::new();
        for u in b.alive().filter(|u| self.is_unit(u)) {
            for e in self.enemies_in_contact(b, u) {
                if self.pair_fought_this_phase(b, &u.id, &e.id) {
                    continue;
                }
                let pair = if !self.attacks(b, &u.id, &e.id) {
                    (e.id.clone(), u.id.clone())
                } else {
                    (u.id.clone(), e.id.clone())
                };
                if !v
                    .iter()
                    .any(|(a, c)| (a == &pair.0 && c == &pair.1) || (a == &pair.1 && c == &pair.0))
                {
                    v.push(pair);
                }
            }
        }
        v
    }

    /// The unit whose charge brought `a` and `e` into contact (the last such charge): it is
    /// the attacker for as long as the melee lasts, whatever the turn.
    pub fn charger(&self, b: &Battle, a: &UnitId, e: &UnitId) -> Option<UnitId> {
        b.log.iter().rev().find_map(|ev| match ev {
            Event::Moved {
                unit,
                contact: Some(t),
                ..
            } if (unit == a && t == e) || (unit == e && t == a) => Some(unit.clone()),
            _ => None,
        })
    }

    /// `a` attacks `e` in their melee: it charged `e`; with no charge between them (a
    /// scenario that sets them in contact), the one that declared a charge, else the one
    /// named first.
    pub fn attacks(&self, b: &Battle, a: &UnitId, e: &UnitId) -> bool {
        match self.charger(b, a, e) {
            Some(c) => &c == a,
            None => b
                .unit(e)
                .map_or(true, |u| own(u).declared.as_ref() != Some(a)),
        }
    }

    /// The stands of `u` that fight `e`: those in contact and one more at each end, in order
    /// along `axis` (so that stands facing each other pair); each with how many figures it is
    /// short.
    fn fighting_stands(&self, b: &Battle, u: &Unit, e: &Unit, axis: Pt) -> Vec<(usize, u32)> {
        let bases = self.stand_bases(b, u);
        let tol = b.scale.to_mm(self.n(N::ContactTolerance) * 2.0);
        // A stand of six infantry figures, or a full stand of horse weighed against six
        // infantry figures (IV.A.9.a, c): a horseman counts as two.
        let six = self.n(N::FiguresPerDie) as u32;
        let full = if self.is_cavalry(u) {
            self.full_stand(u)
        } else {
            six
        };
        let weight = (six / full.max(1)).max(1);
        let live: Vec<usize> = (0..bases.len().min(u.stands.len()))
            .filter(|&i| u.stands[i].figures > 0)
            .collect();
        let touching: Vec<usize> = live
            .iter()
            .copied()
            .filter(|&i| bases[i].within(&e.base, tol))
            .collect();
        if touching.is_empty() {
            return Vec::new();
        }
        // One more at each end: the nearest stands not touching, in the same rank.
        let line = |i: usize| bases[i].centre.minus(e.base.centre).dot(u.base.forward());
        let rank = line(touching[0]);
        let mut near: Vec<(usize, f32)> = live
            .iter()
            .copied()
            .filter(|i| !touching.contains(i))
            .filter(|&i| (line(i) - rank).abs() < b.scale.to_mm(0.3))
            .map(|i| (i, bases[i].distance(&e.base)))
            .collect();
        near.sort_by(|a, c| a.1.partial_cmp(&c.1).unwrap_or(std::cmp::Ordering::Equal));
        let mut chosen = touching.clone();
        let step = bases[touching[0]].width + tol;
        chosen.extend(
            near.iter()
                .take(2)
                .filter(|(_, d)| *d <= step + tol)
                .map(|(i, _)| *i),
        );
        chosen.sort_by(|&i, &j| {
            bases[i]
                .centre
                .dot(axis)
                .partial_cmp(&bases[j].centre.dot(axis))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        chosen
            .iter()
            .map(|&i| {
                (
                    i,
                    full.saturating_sub(u.stands[i].figures.min(full)) * weight,
                )
            })
            .collect()
    }

    /// The melee modifiers of `u` fighting `e`; `attacking`: `u` charged `e`.
    pub fn melee_factors(&self, b: &Battle, u: &Unit, e: &Unit, attacking: bool) -> Vec<Factor> {
        let mut f = Vec::new();
        let mut add = |key: MeleeKey, on: bool| {
            if on {
                f.push(self.d.melee.get(key).clone());
            }
        };
        let (cu, ce) = (self.class(u), self.class(e));
        let gren = |c| c == Some(TroopClass::Grenadier);
        add(MeleeKey::Grenadiers, gren(cu) && !gren(ce));
        // Formed against non-formed, attacker or defender alike: the enemy skirmishing,
        // disorganised or routed is not formed; attacking such a unit adds its own modifier
        // besides (ruling unformed).
        add(MeleeKey::Formed, self.formed(u) && !self.formed(e));
        add(
            MeleeKey::AttackingDisorganised,
            attacking && self.state(e) == State::Disorganised,
        );
        add(
            MeleeKey::HeavyVsLight,
            cu == Some(TroopClass::HeavyCavalry) && ce == Some(TroopClass::LightCavalry),
        );
        add(
            MeleeKey::LightCavVsNonGrenadiers,
            cu == Some(TroopClass::LightCavalry) && !gren(ce),
        );
        add(
            MeleeKey::HeavyCavVsGrenadiers,
            cu == Some(TroopClass::HeavyCavalry) && gren(ce),
        );
        add(MeleeKey::DefendingTown, !attacking && self.in_town(b, u));
        add(
            MeleeKey::FlankRear,
            attacking && flank_or_rear(&u.base, &e.base),
        );
        add(
            MeleeKey::AttackingRouted,
            attacking && self.state(e) == State::Routed,
        );
        add(
            MeleeKey::HeavyCavVsNonGrenadiers,
            cu == Some(TroopClass::HeavyCavalry) && !gren(ce),
        );
        add(
            MeleeKey::MovingCavVsStationary,
            self.is_cavalry(u) && self.is_cavalry(e) && u.bound.moved && !e.bound.moved,
        );
        f
    }

    /// Both sides of a melee, before the dice.
    pub fn melee_sides(
        &self,
        b: &Battle,
        aid: &UnitId,
        eid: &UnitId,
    ) -> Result<(Side, Side), RuleError> {
        let a = b.unit(aid)?;
        let e = b.unit(eid)?;
        if !a.alive()
            || !e.alive()
            || !self.contact(b, a, e)
            || a.side == e.side
            || !self.is_unit(a)
            || !self.is_unit(e)
        {
            return illegal(
                Refusal::NotInMelee,
                format!("{} and {} are not in melee", a.name, e.name),
            );
        }
        let attacking = self.attacks(b, aid, eid);
        // Stands pair along the attacker's frontage.
        let axis = if attacking {
            a.base.right()
        } else {
            e.base.right()
        };
        let side = |u: &Unit, o: &Unit, att: bool| {
            let factors = self.melee_factors(b, u, o, att);
            let (stands, missing, left_over) = if self.is_artillery(u) {
                // A die per six crew; the crew left over test 1D6 against their number and
                // throw a full die if they pass ("Same for melee purposes", II.A.1.a).
                let (full, rem) = super::tables::dice_for(&self.d, self.crew(u));
                let n = full as usize + usize::from(rem > 0);
                (Vec::new(), vec![0; n], rem)
            } else {
                let v = self.fighting_stands(b, u, o, axis);
                (
                    v.iter().map(|x| x.0).collect(),
                    v.iter().map(|x| x.1).collect::<Vec<u32>>(),
                    0,
                )
            };
            Side {
                unit: u.id.clone(),
                melee: MeleeSide {
                    facing: missing.len(),
                    unanswered: 0,
                    missing,
                    modifier: factor_sum(&factors),
                },
                factors,
                cavalry: self.is_cavalry(u),
                stands,
                left_over,
            }
        };
        Ok((side(a, e, attacking), side(e, a, !attacking)))
    }

    /// Where a side's melee casualties fall: each fighting stand loses the points it suffered
    /// (a horseman for two points; the odd horseman of the whole, if it fell, from the first
    /// stand with an odd point), as (stand, figures).
    fn stand_casualties(&self, s: &Side, points: &[u32], figures: u32) -> Vec<(usize, u32)> {
        let per = if s.cavalry {
            self.n(N::CavalryHitsPerFigure).max(1.0) as u32
        } else {
            1
        };
        let mut at: Vec<(usize, u32)> = s
            .stands
            .iter()
            .zip(points)
            .map(|(&i, &p)| (i, p / per))
            .collect();
        let mut left = figures.saturating_sub(at.iter().map(|x| x.1).sum());
        for (k, &p) in points.iter().enumerate() {
            if left == 0 {
                break;
            }
            if p % per != 0
                && let Some(x) = at.get_mut(k)
            {
                x.1 += 1;
                left -= 1;
            }
        }
        at
    }

    /// Casualties in figures from melee points: two points a horseman; a single point, all the
    /// melee inflicted, fells one on 4-6 (IV.A.9.b); an odd point beside whole horsemen
    /// fells none (ruling melee_horse_points).
    fn figures_from_points(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        on: &Side,
        points: u32,
    ) -> Result<u32, RuleError> {
        if !on.cavalry {
            return Ok(points);
        }
        let odd = if points == 1 {
            let first = b.cmd_dice.len();
            let die = b.d6()?;
            b.emit(
                out,
                Event::Rolled {
                    what: HalRoll::OddOnHorse {
                        falls: f32::from(die) >= self.n(N::OddHitNeed),
                    }
                    .said("the odd point on horse"),
                    roll: Roll {
                        unit: Some(on.unit.clone()),
                        dice: vec![die],
                        total: i32::from(die),
                        need: Some(self.n(N::OddHitNeed) as i32),
                        outcome: if f32::from(die) >= self.n(N::OddHitNeed) {
                            "a horseman falls".into()
                        } else {
                            "no casualty".into()
                        },
                        first_die: Some(first),
                        ..Roll::default()
                    },
                },
            );
            Some(die)
        } else {
            None
        };
        Ok(super::tables::melee_horse_casualties(&self.d, points, odd))
    }

    pub fn fight(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        aid: &UnitId,
        eid: &UnitId,
    ) -> Result<(), RuleError> {
        in_phase(b, CLOSE_COMBAT, "fight a melee")?;
        if self.pair_fought_this_phase(b, aid, eid) {
            return illegal(
                Refusal::MeleeFought,
                "that melee has been fought this turn".into(),
            );
        }
        // The charger's dice come first, whichever unit the command names.
        let (aid, eid) = if self.attacks(b, aid, eid) {
            (aid, eid)
        } else {
            (eid, aid)
        };
        let (mut sa, mut se) = self.melee_sides(b, aid, eid)?;
        // Gun crews left over test for their die first.
        for s in [&mut sa, &mut se] {
            if s.left_over == 0 {
                continue;
            }
            self.crews_left_over(b, out, s)?;
        }
        let first = b.cmd_dice.len();
        let m = b.with_dice(|roll| procedures::melee(&sa.melee, &se.melee, roll))?;
        let (a_name, e_name) = self.log_melee(b, out, &sa, &se, &m, first)?;
        let winner = m.winner;
        let a_cas = self.figures_from_points(b, out, &sa, m.a_lost)?;
        let e_cas = self.figures_from_points(b, out, &se, m.b_lost)?;
        let a_at = self.stand_casualties(&sa, &m.a_stand_lost, a_cas);
        let e_at = self.stand_casualties(&se, &m.b_stand_lost, e_cas);
        let loser = |id: &UnitId| match winner {
            Some(0) => id == eid,
            Some(_) => id == aid,
            None => false,
        };
        self.lose_at(
            b,
            out,
            aid,
            a_cas,
            &a_at,
            &format!("melee with {e_name}"),
            !loser(aid),
        )?;
        self.lose_at(
            b,
            out,
            eid,
            e_cas,
            &e_at,
            &format!("melee with {a_name}"),
            !loser(eid),
        )?;
        self.melee_result(b, out, aid, eid, winner, m.lost_by)
    }

    /// Gun crews left over test for their die (one fewer die if it fails).
    fn crews_left_over(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        s: &mut Side,
    ) -> Result<(), RuleError> {
        let first = b.cmd_dice.len();
        let die = b.d6()?;
        let fights = super::tables::remainder_fires(s.left_over, die);
        b.emit(
            out,
            Event::Rolled {
                what: HalRoll::CrewLeftOver.said(format!("the {} crew left over", s.left_over)),
                roll: Roll {
                    unit: Some(s.unit.clone()),
                    dice: vec![die],
                    total: i32::from(die),
                    outcome: format!(
                        "{} ({} or less fights with a die)",
                        if fights { "a die more" } else { "no die" },
                        s.left_over
                    ),
                    first_die: Some(first),
                    ..Roll::default()
                },
            },
        );
        if !fights {
            s.melee.missing.pop();
            s.melee.facing = s.melee.missing.len();
        }
        Ok(())
    }

    /// The melee in the log, each side's dice where they were thrown; the two sides' names.
    fn log_melee(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        sa: &Side,
        se: &Side,
        m: &procedures::Melee,
        first: usize,
    ) -> Result<(String, String), RuleError> {
        let (aid, eid) = (&sa.unit, &se.unit);
        let a_name = b.unit(aid)?.name.clone();
        let e_name = b.unit(eid)?.name.clone();
        // The pairs were thrown attacker, defender; then the attacker's unanswered dice, then
        // the defender's.
        let pairs = sa.melee.facing.min(se.melee.facing);
        let a_extra = m.a_dice.len().saturating_sub(pairs);
        let a_at: Vec<usize> = (0..m.a_dice.len())
            .map(|k| {
                if k < pairs {
                    first + 2 * k
                } else {
                    first + pairs + k
                }
            })
            .collect();
        let e_at: Vec<usize> = (0..m.b_dice.len())
            .map(|k| {
                if k < pairs {
                    first + 2 * k + 1
                } else {
                    first + pairs + a_extra + k
                }
            })
            .collect();
        let roll = |s: &Side, dice: &[u8], total: i32, inflicted: u32, at: Vec<usize>| Roll {
            unit: Some(s.unit.clone()),
            dice: dice.to_vec(),
            factors: s.factors.clone(),
            total,
            outcome: format!(
                "{inflicted} point{} of casualties",
                if inflicted == 1 { "" } else { "s" }
            ),
            first_die: at.first().copied(),
            dice_at: at,
            ..Roll::default()
        };
        let winner = m.winner;
        let outcome = match winner {
            Some(0) => format!("{a_name} wins by {}", m.lost_by),
            Some(_) => format!("{e_name} wins by {}", m.lost_by),
            None => "a drawn melee".into(),
        };
        b.emit(
            out,
            Event::Assault {
                attacker: aid.clone(),
                defender: eid.clone(),
                attacker_roll: Box::new(roll(sa, &m.a_dice, m.a_total, m.b_lost, a_at)),
                defender_roll: Box::new(roll(se, &m.b_dice, m.b_total, m.a_lost, e_at)),
                difference: m.a_total - m.b_total,
                outcome,
            },
        );
        Ok((a_name, e_name))
    }

    /// After the melee: the loser reads the failed morale chart, the winner (or both, if drawn) is
    /// disorganised.
    fn melee_result(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        aid: &UnitId,
        eid: &UnitId,
        winner: Option<usize>,
        lost_by: u32,
    ) -> Result<(), RuleError> {
        match winner {
            Some(w) => {
                let (win, lose) = if w == 0 { (aid, eid) } else { (eid, aid) };
                if b.unit(lose)?.alive() {
                    // The loser goes straight to the chart: that is its check.
                    if own(b.unit(lose)?).must_check {
                        b.emit(
                            out,
                            HalEvent::Marked {
                                unit: lose.clone(),
                                marker: super::Marker::MustCheck,
                                count: 0,
                            },
                        );
                    }
                    self.failed(b, out, lose, Some((lost_by, win.clone())))?;
                }
                if b.unit(win)?.alive() && !b.unit(win)?.status.disordered {
                    b.emit(
                        out,
                        Event::Disordered {
                            unit: win.clone(),
                            why: "won the melee".into(),
                        },
                    );
                }
            }
            None => {
                for id in [aid, eid] {
                    if b.unit(id)?.alive() && !b.unit(id)?.status.disordered {
                        b.emit(
                            out,
                            Event::Disordered {
                                unit: id.clone(),
                                why: "a drawn melee".into(),
                            },
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// The odds of a melee from 4000 seeded simulations: who wins, the casualty points each
    /// side may expect, and what becomes of a loser (the failed morale chart, read exactly for
    /// each margin of loss), given each side's state of morale.
    pub fn melee_odds(&self, a: &Side, e: &Side, morale: [Morale; 2]) -> MeleeOdds {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(25);
        let n = 4000;
        let f = f64::from(n);
        let mut odds = MeleeOdds::default();
        for _ in 0..n {
            let mut roll = || rng.random_range(1..=6u8);
            // Gun crews left over test for their die first, as in the melee.
            let mut sides = [a.melee.clone(), e.melee.clone()];
            for (s, side) in [a, e].into_iter().zip(sides.iter_mut()) {
                if s.left_over > 0 && !super::tables::remainder_fires(s.left_over, roll()) {
                    side.missing.pop();
                    side.facing = side.missing.len();
                }
            }
            let m = procedures::melee(&sides[0], &sides[1], &mut roll);
            odds.lost[0] += f64::from(m.a_lost) / f;
            odds.lost[1] += f64::from(m.b_lost) / f;
            let Some(w) = m.winner else {
                odds.draw += 1.0 / f;
                continue;
            };
            odds.wins[w] += 1.0 / f;
            let l = 1 - w.min(1);
            for (total, p) in two_d6() {
                let after = procedures::after_failed_check(&self.d, morale[l], total, m.lost_by);
                let k = match after {
                    Morale::Rout(_) => 0,
                    Morale::Disorganised => 1,
                    Morale::Good => 2,
                    Morale::Surrendered | Morale::Removed => 3,
                };
                odds.fate[l][k] += p / f;
            }
        }
        odds
    }
}

/// IV.A.9.e: an attack is on the flank or rear when the attacker's frontage crosses the lines
/// extended out from the target's flank (its front and rear edges carried on past its ends)
/// or from its rear (its flank edges carried on behind it). An attacker square to the target's
/// front crosses neither: its frontage lies along the front line.
pub fn flank_or_rear(attacker: &Base, target: &Base) -> bool {
    let right = attacker.right().scale(attacker.width / 2.0);
    let front = attacker.front_centre();
    let local = |p: Pt| {
        let d = p.minus(target.centre);
        (d.dot(target.right()), d.dot(target.forward()))
    };
    let (p, q) = (local(front.minus(right)), local(front.plus(right)));
    let (hw, hd) = (target.width / 2.0, target.depth / 2.0);
    // Crossing or reaching a line (a frontage lying along the line does not cross it).
    let eps = 0.02 * target.width.min(target.depth).max(1.0);
    let crosses = |a: f32, c: f32| {
        !(a.abs() <= eps && c.abs() <= eps) && ((a <= eps && c >= -eps) || (a >= -eps && c <= eps))
    };
    // The front and rear lines, beyond either flank.
    for y in [hd, -hd] {
        let (a, c) = (p.1 - y, q.1 - y);
        if crosses(a, c) {
            let x = p.0 + (q.0 - p.0) * a / (a - c);
            if x.abs() >= hw - eps {
                return true;
            }
        }
    }
    // The flank lines, behind the rear.
    for x in [hw, -hw] {
        let (a, c) = (p.0 - x, q.0 - x);
        if crosses(a, c) {
            let y = p.1 + (q.1 - p.1) * a / (a - c);
            if y <= -hd + eps {
                return true;
            }
        }
    }
    false
}
