//! The turn of Hal's rules: chips before the battle, charge declarations, movement by
//! brigades, artillery and small arms, melee, morale, rout movement; losses and morale checks.

use super::N;
use super::procedures::{self, Morale, MoraleSituation};
use super::rolls::{self, HalRoll, MoraleCheck};
use super::status::own;
use super::tables::{self, MoveFormation};
use super::{Hal25, State, TroopClass, this_turn};
use super::{HalEvent, Marker};
use crate::rules::battle::Battle;
use crate::rules::command::{Ending, Event, Factor, RuleError, factor_sum};
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Side, Unit, UnitId};
use crate::rules::ruleset::Roll;
use crate::rules::ruleset::common::heading_deg;

/// How a morale roll came out.
pub struct Check {
    pub passed: bool,
}

impl Hal25 {
    // ----- morale ---------------------------------------------------------------------------

    /// The unit's morale factors (base 4 first) against an enemy, closing with it or not.
    pub fn morale_factors(
        &self,
        b: &Battle,
        id: &UnitId,
        vs: Option<&UnitId>,
        closing: bool,
    ) -> Vec<Factor> {
        let Ok(u) = b.unit(id) else {
            return Vec::new();
        };
        let vs = vs.and_then(|v| b.unit(v).ok());
        let class = self.class(u);
        let artillery = self.is_artillery(u);
        let light = matches!(class, Some(TroopClass::Light | TroopClass::LightCavalry));
        let vs_cav = vs.is_some_and(|v| self.is_cavalry(v));
        let formed_inf = vs.is_some_and(|v| self.is_infantry(v) && self.formed(v));
        let situation = MoraleSituation {
            stands_lost: if artillery {
                0
            } else {
                self.stands_at_start(u).saturating_sub(u.stands.len()) as u32
            },
            out_of_command: !self.in_command(b, u),
            light,
            // Unformed (skirmishing) or disorganised: one +1 (ruling unformed).
            disorganised: self.state(u) == State::Disorganised
                || (u.formation == crate::rules::model::Formation::Skirmish
                    && self.state(u) == State::Good),
            in_rout: self.state(u) == State::Routed,
            light_vs_cavalry: light && vs_cav,
            crew_lost: if artillery {
                self.crew_at_start(u).saturating_sub(self.crew(u))
            } else {
                0
            },
            defending_works: self.in_works(b, u),
            commander_attached: self
                .attached_general(b, u)
                .is_some_and(|g| g.extra.brigade == u.extra.brigade),
            grenadiers: class == Some(TroopClass::Grenadier),
            heavy_vs_cavalry: class == Some(TroopClass::HeavyCavalry) && vs_cav,
            light_cav_closing_formed_infantry: closing
                && class == Some(TroopClass::LightCavalry)
                && formed_inf,
            heavy_cav_closing_formed_infantry: closing
                && class == Some(TroopClass::HeavyCavalry)
                && formed_inf,
        };
        let mut f = vec![Factor {
            name: "Base morale".into(),
            value: self.d.morale_base,
            source: "004 V.B".into(),
        }];
        f.extend(
            procedures::morale_factors(&self.d, &situation)
                .into_iter()
                .cloned(),
        );
        f
    }

    /// Throws 2D6 against the morale number: below it fails.
    pub fn morale_check(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        check: MoraleCheck,
        factors: Vec<Factor>,
        bonus: i32,
    ) -> Result<Check, RuleError> {
        let number = factor_sum(&factors);
        let first = b.cmd_dice.len();
        let (x, y) = (b.d6()?, b.d6()?);
        let total = i32::from(x) + i32::from(y) + bonus;
        let passed = !tables::morale_fails(number, total);
        b.emit(
            out,
            Event::Rolled {
                what: HalRoll::morale(check, !passed),
                roll: Roll {
                    unit: Some(id.clone()),
                    dice: vec![x, y],
                    factors,
                    total,
                    need: Some(number),
                    outcome: match (passed, bonus) {
                        (true, 0) => "passes".into(),
                        (false, 0) => "fails".into(),
                        (p, n) => format!(
                            "{} ({n:+} command control in the total)",
                            if p { "passes" } else { "fails" }
                        ),
                    },
                    first_die: Some(first),
                    ..Roll::default()
                },
            },
        );
        Ok(Check { passed })
    }

    /// A unit that failed morale: a disorganised unit routs, a routed one stays routed, a unit
    /// in good order reads the failed morale chart (with the melee-loss modifier).
    pub fn failed(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        lost_by: Option<(u32, UnitId)>,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if u.status.removed {
            return Ok(());
        }
        let by = lost_by.as_ref().map_or(0, |l| l.0);
        let now = self.morale(&u);
        // Only a unit in good order that does not surrender reads the chart.
        let reads_chart = now == Morale::Good && (by as f32) < self.n(N::SurrenderPoints);
        let mut chart = None;
        if reads_chart {
            let first = b.cmd_dice.len();
            let (x, y) = (b.d6()?, b.d6()?);
            chart = Some((first, x, y));
        }
        let total = chart.map_or(0, |(_, x, y)| i32::from(x) + i32::from(y));
        let after = procedures::after_failed_check(&self.d, now, total, by);
        if let Some((first, x, y)) = chart {
            let mut factors = Vec::new();
            if let Some(m) = tables::melee_loss_modifier(&self.d, by).filter(|m| *m != 0)
                && let Some(r) = self
                    .d
                    .melee_loss_modifiers
                    .iter()
                    .find(|r| r.min <= by && by <= r.max)
            {
                factors.push(Factor {
                    name: format!("lost the melee by {by}"),
                    value: m,
                    source: r.source.clone(),
                });
            }
            let words = match after {
                Morale::Rout(_) => "rout",
                Morale::Disorganised => "disorganised",
                Morale::Good => "automatic recovery",
                Morale::Surrendered | Morale::Removed => "surrenders",
            };
            b.emit(
                out,
                Event::Rolled {
                    what: HalRoll::FailedMoraleChart {
                        recovered: matches!(after, Morale::Good),
                    }
                    .said("the failed morale chart"),
                    roll: Roll {
                        unit: Some(id.clone()),
                        dice: vec![x, y],
                        total: total + factor_sum(&factors),
                        factors,
                        outcome: words.into(),
                        first_die: Some(first),
                        ..Roll::default()
                    },
                },
            );
        }
        match after {
            Morale::Surrendered => {
                let reason = if reads_chart {
                    "surrenders".to_string()
                } else {
                    format!("surrenders, the melee lost by {by}")
                };
                b.emit(
                    out,
                    Event::Destroyed {
                        unit: id.clone(),
                        reason,
                    },
                );
                Ok(())
            }
            Morale::Rout(_) => self.rout(b, out, id),
            Morale::Disorganised => {
                b.emit(
                    out,
                    Event::Disordered {
                        unit: id.clone(),
                        why: "failed morale".into(),
                    },
                );
                if let Some((_, enemy)) = lost_by {
                    self.fall_back(b, out, id, &enemy)?;
                }
                Ok(())
            }
            Morale::Good | Morale::Removed => Ok(()),
        }
    }

    /// A unit's state of morale, with its failed attempts to recover from rout.
    pub fn morale(&self, u: &Unit) -> Morale {
        if u.status.removed {
            return Morale::Removed;
        }
        match self.state(u) {
            State::Good => Morale::Good,
            State::Disorganised => Morale::Disorganised,
            State::Routed => Morale::Rout(own(u).recovery_failed),
        }
    }

    /// The unit routs (and, if it has not already, will run in the rout movement).
    pub fn rout(&self, b: &mut Battle, out: &mut Vec<Event>, id: &UnitId) -> Result<(), RuleError> {
        if b.unit(id)?.status.shaken {
            return Ok(());
        }
        b.emit(out, Event::Shaken { unit: id.clone() });
        Ok(())
    }

    /// A disorganised loser of a melee falls back 2D6, facing the enemy on 5-6, its back to it
    /// on 1-4.
    fn fall_back(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        enemy: &UnitId,
    ) -> Result<(), RuleError> {
        let first = b.cmd_dice.len();
        let mut dice = Vec::new();
        for _ in 0..self.n(N::FallBackDice).max(1.0) as u32 {
            dice.push(b.d6()?);
        }
        let face = b.d6()?;
        let (dist, facing_enemy) = procedures::fall_back(&self.d, dice.iter().sum::<u8>(), face);
        dice.push(face);
        b.emit(
            out,
            Event::Rolled {
                what: HalRoll::FallingBack {
                    back_to_enemy: !facing_enemy,
                }
                .said("falling back"),
                roll: Roll {
                    unit: Some(id.clone()),
                    dice,
                    total: dist as i32,
                    outcome: format!(
                        "{dist}\" {}",
                        if facing_enemy {
                            "facing the enemy"
                        } else {
                            "with its back to the enemy"
                        }
                    ),
                    first_die: Some(first),
                    ..Roll::default()
                },
            },
        );
        let u = b.unit(id)?.clone();
        let e = b.unit(enemy)?.clone();
        let away = away_from(&u.base, &[e.base.centre]);
        self.run(b, out, id, away, dist as f32, !facing_enemy, false)
    }

    /// Moves a unit straight along `dir` up to `inches`, stopping short of other units; off the
    /// table it leaves the battle (if `may_leave`).
    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per part of the run"
    )]
    pub fn run(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        dir: Pt,
        inches: f32,
        turn_back: bool,
        may_leave: bool,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        let facing = if turn_back {
            heading_deg(dir)
        } else {
            u.base.facing
        };
        let step = b.scale.to_mm(0.5);
        let tol = b.scale.to_mm(self.n(N::ContactTolerance));
        let mut d = b.scale.to_mm(inches.max(0.0));
        loop {
            let to = Base {
                centre: u.base.centre.plus(dir.scale(d)),
                facing,
                ..u.base
            };
            if !b.table.holds(&to) {
                if may_leave {
                    b.emit(
                        out,
                        Event::Destroyed {
                            unit: id.clone(),
                            reason: "runs off the table".into(),
                        },
                    );
                    return Ok(());
                }
            } else if !b.alive().any(|o| {
                o.id != u.id
                    && !self.is_officer(o)
                    && (o.base.overlaps(&to)
                        // Only a charge makes contact: a run stops short of the enemy.
                        || (o.side != u.side && to.within(&o.base, tol)))
            }) {
                let e = if may_leave {
                    Event::Fled {
                        unit: id.clone(),
                        from: u.base,
                        to,
                    }
                } else {
                    Event::Recoiled {
                        unit: id.clone(),
                        from: u.base,
                        to,
                        voluntary: false,
                    }
                };
                b.emit(out, e);
                return Ok(());
            }
            if d <= 0.0 {
                return Ok(());
            }
            d = (d - step).max(0.0);
        }
    }

    /// Units marked to check morale check now.
    pub(super) fn check_marked(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let marked: Vec<UnitId> = b
            .alive()
            .filter(|u| own(u).must_check)
            .map(|u| u.id.clone())
            .collect();
        for id in marked {
            b.emit(
                out,
                HalEvent::Marked {
                    unit: id.clone(),
                    marker: Marker::MustCheck,
                    count: 0,
                },
            );
            let factors = self.morale_factors(b, &id, None, false);
            if !self
                .morale_check(b, out, &id, MoraleCheck::Losses, factors, 0)?
                .passed
            {
                self.failed(b, out, &id, None)?;
            }
        }
        Ok(())
    }

    /// The morale phase: recovery, this turn's checks, under-strength checks, army withdrawal.
    pub(super) fn morale_phase(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        // A. Units that failed before this turn try to recover.
        self.recovery(b, out)?;
        // B. This turn's checks.
        self.check_marked(b, out)?;
        // C. Units down to two stands.
        self.two_stand_checks(b, out)?;
        // D. Army withdrawal.
        self.army_withdrawal(b, out)
    }
    /// Units that failed before this turn try to recover: a routed unit rallies to disorganised, a
    /// disorganised one steadies; a second failure from rout removes it.
    fn recovery(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let failed_now: Vec<UnitId> = this_turn(b)
            .iter()
            .filter_map(|e| match e {
                Event::Shaken { unit } | Event::Disordered { unit, .. } => Some(unit.clone()),
                _ => None,
            })
            .collect();
        let recovering: Vec<UnitId> = b
            .alive()
            .filter(|u| self.state(u) != State::Good && !failed_now.contains(&u.id))
            .map(|u| u.id.clone())
            .collect();
        for id in recovering {
            let u = b.unit(&id)?.clone();
            let factors = self.morale_factors(b, &id, None, false);
            let passed = self
                .morale_check(b, out, &id, MoraleCheck::Recovery, factors, 0)?
                .passed;
            match procedures::rout_recovery(&self.d, self.morale(&u), passed) {
                Morale::Disorganised if self.state(&u) == State::Routed => {
                    b.emit(out, Event::Rallied { unit: id.clone() });
                    if own(&u).recovery_failed > 0 {
                        b.emit(
                            out,
                            HalEvent::Marked {
                                unit: id.clone(),
                                marker: Marker::RecoveryFailed,
                                count: 0,
                            },
                        );
                    }
                    if !u.status.disordered {
                        b.emit(
                            out,
                            Event::Disordered {
                                unit: id.clone(),
                                why: "recovering from rout".into(),
                            },
                        );
                    }
                }
                Morale::Removed => b.emit(
                    out,
                    Event::Destroyed {
                        unit: id.clone(),
                        reason: "failed its second attempt to recover from rout".into(),
                    },
                ),
                Morale::Rout(n) if n > own(&u).recovery_failed => b.emit(
                    out,
                    HalEvent::Marked {
                        unit: id.clone(),
                        marker: Marker::RecoveryFailed,
                        count: n,
                    },
                ),
                Morale::Good => b.emit(out, Event::Steadied { unit: id.clone() }),
                // Disorganised units failing morale drop to rout (Failed Morale Notes 4).
                Morale::Rout(_) if self.state(&u) == State::Disorganised => {
                    self.rout(b, out, &id)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Units down to two stands throw to stay on the table.
    fn two_stand_checks(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let weak: Vec<UnitId> = b
            .alive()
            .filter(|u| {
                !self.is_officer(u)
                    && !self.is_artillery(u)
                    && !own(u).checked_half
                    && u.stands.len() <= 2
            })
            .map(|u| u.id.clone())
            .collect();
        for id in weak {
            let first = b.cmd_dice.len();
            let die = b.d6()?;
            let stays = procedures::two_stand_check(&self.d, die);
            b.emit(
                out,
                Event::Rolled {
                    what: HalRoll::TwoStandCheck { removed: !stays }.said("the two-stand check"),
                    roll: Roll {
                        unit: Some(id.clone()),
                        dice: vec![die],
                        total: i32::from(die),
                        need: Some(self.n(N::TwoStandNeed) as i32),
                        outcome: if stays { "stays" } else { "is removed" }.into(),
                        first_die: Some(first),
                        ..Roll::default()
                    },
                },
            );
            if stays {
                b.emit(
                    out,
                    HalEvent::Marked {
                        unit: id.clone(),
                        marker: Marker::CheckedStrength,
                        count: 1,
                    },
                );
            } else {
                b.emit(
                    out,
                    Event::Destroyed {
                        unit: id,
                        reason: "down to two stands".into(),
                    },
                );
            }
        }
        Ok(())
    }

    /// Units of a side at the start and on the table now (battalions, regiments, batteries).
    pub fn strength(&self, b: &Battle, side: Side) -> (u32, u32) {
        let all = b.units.iter().filter(|u| u.side == side && self.is_unit(u));
        let start = all.clone().count() as u32;
        let now = all.filter(|u| !u.status.removed || u.status.exited).count() as u32;
        (start, now)
    }

    fn army_withdrawal(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        for side in 0..2usize {
            let (start, now) = self.strength(b, side);
            if start == 0 || !procedures::must_check_withdrawal(&self.d, now, start) {
                continue;
            }
            let bonus = |s: Side| self.cic(b, s).map_or(0, |g| g.extra.leadership);
            let (own_bonus, enemy_bonus) = (bonus(side), bonus(1 - side));
            let first = b.cmd_dice.len();
            let (e1, e2) = (b.d6()?, b.d6()?);
            let (o1, o2) = (b.d6()?, b.d6()?);
            let enemy = i32::from(e1 + e2) + enemy_bonus;
            let own = i32::from(o1 + o2) + own_bonus;
            let holds = procedures::army_holds(
                i32::from(o1 + o2),
                own_bonus,
                i32::from(e1 + e2),
                enemy_bonus,
            );
            let name = b.sides.get(side).map_or("side".into(), |s| s.name.clone());
            b.emit(
                out,
                Event::Rolled {
                    what: HalRoll::ArmyWithdrawal { withdraws: !holds }.said(format!(
                        "army withdrawal morale ({now} of {start} units left; the enemy's 2D6 first)"
                    )),
                    roll: Roll {
                        side: Some(side),
                        // In the order thrown: the enemy commander's, then the side's own.
                        dice: vec![e1, e2, o1, o2],
                        factors: if own_bonus != 0 {
                            vec![Factor {
                                name: "commander in chief's command control".into(),
                                value: own_bonus,
                                source: "004 VII.B; VI.F.a".into(),
                            }]
                        } else {
                            Vec::new()
                        },
                        total: own,
                        against: Some(enemy),
                        outcome: if holds {
                            format!("{name} holds")
                        } else {
                            format!("{name} withdraws")
                        },
                        first_die: Some(first),
                        ..Roll::default()
                    },
                },
            );
            if !holds {
                b.emit(
                    out,
                    Event::GameOver {
                        winner: Some(1 - side),
                        reason: format!(
                            "{name}'s army withdraws with {now} of its {start} units left"
                        ),
                        by: Ending::Withdrew,
                    },
                );
                return Ok(());
            }
        }
        Ok(())
    }

    /// Routed units run: their formation's move and their rout dice, backs to the enemy.
    pub(super) fn rout_phase(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        // A unit that ran in this turn's pre-melee rout movement (I.2.A.a) has made this turn's
        // rout move: it does not run again in the rout movement phase (I.6).
        let ran: Vec<UnitId> = super::this_turn(b)
            .filter_map(|e| match e {
                Event::Rolled { what, roll }
                    if rolls::kind(what) == Some(HalRoll::RoutMovement) =>
                {
                    roll.unit.clone()
                }
                _ => None,
            })
            .collect();
        let routed: Vec<UnitId> = b
            .alive()
            .filter(|u| self.state(u) == State::Routed && !ran.contains(&u.id))
            .map(|u| u.id.clone())
            .collect();
        for id in routed {
            self.rout_move(b, out, &id)?;
        }
        Ok(())
    }

    /// One routed unit runs.
    pub fn rout_move(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if u.status.removed {
            return Ok(());
        }
        let class = self.troop_def(&u)?.troop;
        let f = self.move_formation(&u, u.formation);
        let base = tables::base_move(&self.d, class, f)
            .or_else(|| tables::base_move(&self.d, class, MoveFormation::FieldColumn))
            .unwrap_or(6) as i32;
        let n = self.d.moves(class).map_or(1, |r| r.rout_dice);
        let first = b.cmd_dice.len();
        let mut dice = Vec::new();
        for _ in 0..n.max(0) {
            dice.push(b.d6()?);
        }
        let dist = base + dice.iter().map(|&d| i32::from(d)).sum::<i32>();
        b.emit(
            out,
            Event::Rolled {
                what: HalRoll::RoutMovement.said("rout movement"),
                roll: Roll {
                    unit: Some(id.clone()),
                    dice,
                    factors: vec![Factor {
                        name: "formation's move".into(),
                        value: base,
                        source: "004 III".into(),
                    }],
                    total: dist,
                    outcome: format!("runs {dist}\""),
                    first_die: Some(first),
                    ..Roll::default()
                },
            },
        );
        let enemies: Vec<Pt> = b
            .alive()
            .filter(|e| e.side != u.side && self.is_unit(e))
            .map(|e| e.base.centre)
            .collect();
        let nearest: Vec<Pt> = enemies
            .iter()
            .copied()
            .min_by(|p, q| {
                p.dist(u.base.centre)
                    .partial_cmp(&q.dist(u.base.centre))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .into_iter()
            .collect();
        let dir = if nearest.is_empty() {
            u.base.forward().scale(-1.0)
        } else {
            away_from(&u.base, &nearest)
        };
        self.run(b, out, id, dir, dist as f32, true, true)
    }
}

/// The direction straight away from the nearest of these points.
pub fn away_from(base: &Base, from: &[Pt]) -> Pt {
    let c = base.centre;
    let p = from.iter().copied().min_by(|p, q| {
        p.dist(c)
            .partial_cmp(&q.dist(c))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    match p {
        Some(p) if p.dist(c) > 1e-3 => {
            let d = c.minus(p);
            d.scale(1.0 / d.len())
        }
        _ => base.forward().scale(-1.0),
    }
}
