//! The turn of Hal's rules: chips before the battle, charge declarations, movement by
//! brigades, artillery and small arms, melee, morale, rout movement; losses and morale checks.

use super::procedures::{self, Morale, MoraleSituation, activation};
use super::tables::{self, MoveFormation};
use super::{Hal25, State, TroopClass, begin, this_turn};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, Marker, RuleError, factor_sum};
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Phase, Side, Unit, UnitId};
use crate::rules::ruleset::Roll;
use crate::rules::ruleset::common::{heading_deg, illegal, in_phase, on_table};

/// What a routed unit's run is called in its roll: the rout movement phase knows by it that a
/// unit has made this turn's run already.
const ROUT_MOVE: &str = "rout movement";

/// How a morale roll came out.
pub struct Check {
    pub passed: bool,
}

impl Hal25 {
    // ----- brigades -------------------------------------------------------------------------

    /// A side's brigades with a unit on the table, in the scenario's order.
    pub fn brigades(&self, b: &Battle, side: Side) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for u in b.alive().filter(|u| u.side == side && self.is_unit(u)) {
            if let Some(br) = &u.extra.brigade
                && !v.contains(br)
            {
                v.push(br.clone());
            }
        }
        v
    }

    /// Brigades set moving this turn, by side.
    pub fn moved_brigades(&self, b: &Battle) -> Vec<(Side, String)> {
        this_turn(b)
            .iter()
            .filter_map(|e| match e {
                Event::BrigadeActivated { side, brigade } => Some((*side, brigade.clone())),
                _ => None,
            })
            .collect()
    }

    /// Brigades set moving since the last throw.
    pub fn throw_brigades(&self, b: &Battle) -> Vec<String> {
        let t = this_turn(b);
        let from = t
            .iter()
            .rposition(|e| matches!(e, Event::Initiative { .. }))
            .map_or(t.len(), |i| i + 1);
        t.skip(from)
            .filter_map(|e| match e {
                Event::BrigadeActivated { brigade, .. } => Some(brigade.clone()),
                _ => None,
            })
            .collect()
    }

    /// A side's brigades not yet moved this turn.
    pub fn unmoved(&self, b: &Battle, side: Side) -> Vec<String> {
        let moved = self.moved_brigades(b);
        self.brigades(b, side)
            .into_iter()
            .filter(|br| !moved.iter().any(|(s, m)| *s == side && m == br))
            .collect()
    }

    /// Both sides throw for the move; or, all brigades moved, the firing begins.
    pub(super) fn throw(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let left = [self.unmoved(b, 0).len(), self.unmoved(b, 1).len()];
        if left == [0, 0] {
            begin(b, out, Phase::Artillery);
            return Ok(());
        }
        if left[0] == 0 || left[1] == 0 {
            let s = usize::from(left[0] == 0);
            b.emit(
                out,
                Event::Initiative {
                    dice: Vec::new(),
                    side: Some(s),
                    brigades: left[s] as u32,
                },
            );
            return Ok(());
        }
        let tries = self.num("initiative_tries").max(1.0) as u32;
        for _ in 0..tries {
            let (x, y) = (b.d6()?, b.d6()?);
            match activation(x, y) {
                Some((s, n)) => {
                    b.emit(
                        out,
                        Event::Initiative {
                            dice: vec![x, y],
                            side: Some(s),
                            brigades: n.min(left[s] as u32),
                        },
                    );
                    return Ok(());
                }
                None => b.emit(
                    out,
                    Event::Initiative {
                        dice: vec![x, y],
                        side: None,
                        brigades: 0,
                    },
                ),
            }
        }
        let s = usize::from(left[1] > left[0]);
        b.emit(
            out,
            Event::Initiative {
                dice: Vec::new(),
                side: Some(s),
                brigades: 1,
            },
        );
        Ok(())
    }

    /// Sets a brigade moving (any of its units, or its commander, names it).
    pub fn activate(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        in_phase(b, Phase::Movement, "set a brigade moving")?;
        let u = b.unit(id)?.clone();
        on_table(&u)?;
        if u.side != b.active {
            return illegal(format!("{}: the other side is moving", u.name));
        }
        let Some(brigade) = u.extra.brigade.clone() else {
            return illegal(format!(
                "{} belongs to no brigade: it moves with any of its side's brigades",
                u.name
            ));
        };
        if !self.unmoved(b, u.side).contains(&brigade) {
            return illegal(format!("brigade {brigade} has moved this turn"));
        }
        if b.command_points[u.side] <= 0 {
            return illegal("the throw gave no more brigades to move: end the throw".into());
        }
        b.emit(
            out,
            Event::BrigadeActivated {
                side: u.side,
                brigade,
            },
        );
        Ok(())
    }

    /// The unit may act in the movement now: its brigade moves in this throw (commanders in
    /// chief and couriers with any brigade of their side).
    pub fn may_act(&self, b: &Battle, id: &UnitId) -> Result<(), RuleError> {
        in_phase(b, Phase::Movement, "move")?;
        let u = b.unit(id)?;
        on_table(u)?;
        if u.side != b.active {
            return illegal(format!("{}: the other side is moving", u.name));
        }
        let throw = self.throw_brigades(b);
        match &u.extra.brigade {
            Some(br) if !self.is_officer(u) || self.is_brigadier(u) => {
                if !throw.contains(br) {
                    return illegal(format!(
                        "{}: brigade {br} is not moving now (set it moving first)",
                        u.name
                    ));
                }
            }
            _ => {
                if throw.is_empty() {
                    return illegal(format!(
                        "{} moves with one of its side's brigades: set one moving first",
                        u.name
                    ));
                }
            }
        }
        if u.bound.halted {
            return illegal(format!("{} stands this turn", u.name));
        }
        if self.state(u) == State::Routed {
            return illegal(format!(
                "{} is routed: it runs in the rout movement",
                u.name
            ));
        }
        Ok(())
    }

    // ----- the turn -------------------------------------------------------------------------

    pub fn end_phase(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        match b.phase {
            Phase::Command => {
                self.chips(b, out)?;
                begin(b, out, Phase::Charges);
                Ok(())
            }
            Phase::Charges => {
                begin(b, out, Phase::Movement);
                self.courier_risks(b, out)?;
                self.throw(b, out)
            }
            Phase::Movement => {
                // Brigades the throw gave and the side did not set moving stand.
                let side = b.active;
                let mut n = b.command_points[side].max(0) as usize;
                for brigade in self.unmoved(b, side) {
                    if n == 0 {
                        break;
                    }
                    b.emit(out, Event::BrigadeActivated { side, brigade });
                    n -= 1;
                }
                self.throw(b, out)
            }
            Phase::Artillery => {
                self.check_marked(b, out)?;
                begin(b, out, Phase::SmallArms);
                Ok(())
            }
            Phase::SmallArms => {
                self.check_marked(b, out)?;
                begin(b, out, Phase::CloseCombat);
                Ok(())
            }
            Phase::CloseCombat => {
                // Melees nobody called are fought now, in the order of the table (each pair
                // once: a unit may fight several enemies).
                for _ in 0..b.units.len() * b.units.len() {
                    let Some((a, e)) = self.melees(b).into_iter().next() else {
                        break;
                    };
                    self.fight(b, out, &a, &e)?;
                    if b.is_over() {
                        return Ok(());
                    }
                }
                begin(b, out, Phase::Morale);
                self.morale_phase(b, out)
            }
            Phase::Morale => {
                begin(b, out, Phase::Rout);
                self.rout_phase(b, out)
            }
            Phase::Rout => self.next_turn(b, out),
            Phase::GameOver => Err(RuleError::GameOver),
            other => illegal(format!("Hal's rules have no {} phase", other.name())),
        }
    }

    fn next_turn(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let declared: Vec<UnitId> = b
            .units
            .iter()
            .filter(|u| u.status.declared.is_some())
            .map(|u| u.id.clone())
            .collect();
        for unit in declared {
            b.emit(
                out,
                Event::Marked {
                    unit,
                    marker: Marker::Declaration,
                    count: 0,
                },
            );
        }
        if b.turn >= b.turn_limit {
            let (winner, reason) = self.turn_limit_result(b);
            b.emit(out, Event::GameOver { winner, reason });
            return Ok(());
        }
        b.emit(
            out,
            Event::PhaseBegan {
                turn: b.turn + 1,
                phase: Phase::Charges,
                side: 0,
            },
        );
        Ok(())
    }

    /// Each general throws for chips before the battle.
    fn chips(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let generals: Vec<(UnitId, bool)> = b
            .alive()
            .filter(|g| self.class(g) == TroopClass::General)
            .map(|g| (g.id.clone(), self.is_cic(g)))
            .collect();
        for (id, cic) in generals {
            let first = b.cmd_dice.len();
            let die = b.d6()?;
            let row = tables::chips(&self.d, die, cic).clone();
            let mut factors = Vec::new();
            if cic {
                factors.push(Factor {
                    name: "Commander in chief".into(),
                    value: self.num("chips_cinc_bonus") as i32,
                    source: "004 VI.F.a".into(),
                });
            }
            let total = i32::from(die) + factor_sum(&factors);
            b.emit(
                out,
                Event::Chips {
                    general: id.clone(),
                    roll: Roll {
                        unit: Some(id),
                        dice: vec![die],
                        factors,
                        total,
                        outcome: format!(
                            "{} chip{}, command radius {}\", {}",
                            row.chips,
                            if row.chips == 1 { "" } else { "s" },
                            row.radius,
                            match row.move_dice {
                                0 => "moves as the rules give".to_string(),
                                n => format!(
                                    "{n:+}D6 to movement, {:+} command control",
                                    row.command
                                ),
                            }
                        ),
                        first_die: Some(first),
                        ..Roll::default()
                    },
                    chips: row.chips,
                    radius: row.radius as f32,
                    move_dice: row.move_dice,
                    command: row.command,
                },
            );
        }
        Ok(())
    }

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
        let light = matches!(class, TroopClass::Light | TroopClass::LightCavalry);
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
            grenadiers: class == TroopClass::Grenadier,
            heavy_vs_cavalry: class == TroopClass::HeavyCavalry && vs_cav,
            light_cav_closing_formed_infantry: closing
                && class == TroopClass::LightCavalry
                && formed_inf,
            heavy_cav_closing_formed_infantry: closing
                && class == TroopClass::HeavyCavalry
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
                .map(|m| self.factor(m)),
        );
        f
    }

    /// Throws 2D6 against the morale number: below it fails.
    pub fn morale_check(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        what: &str,
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
                what: format!("morale: {what}"),
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
        let reads_chart = now == Morale::Good && (by as f32) < self.num("surrender_points");
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
                    what: "the failed morale chart".into(),
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
            State::Routed => Morale::Rout(u.status.recovery_failed),
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
        for _ in 0..self.num("fall_back_dice").max(1.0) as u32 {
            dice.push(b.d6()?);
        }
        let face = b.d6()?;
        let (dist, facing_enemy) = procedures::fall_back(&self.d, dice.iter().sum::<u8>(), face);
        dice.push(face);
        b.emit(
            out,
            Event::Rolled {
                what: "falling back".into(),
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
        let tol = b.scale.to_mm(self.num("contact_tolerance"));
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
            .filter(|u| u.status.must_check)
            .map(|u| u.id.clone())
            .collect();
        for id in marked {
            b.emit(
                out,
                Event::Marked {
                    unit: id.clone(),
                    marker: Marker::MustCheck,
                    count: 0,
                },
            );
            let factors = self.morale_factors(b, &id, None, false);
            if !self.morale_check(b, out, &id, "losses", factors, 0)?.passed {
                self.failed(b, out, &id, None)?;
            }
        }
        Ok(())
    }

    /// The morale phase: recovery, this turn's checks, under-strength checks, army withdrawal.
    fn morale_phase(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        // A. Units that failed before this turn try to recover.
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
                .morale_check(b, out, &id, "recovery", factors, 0)?
                .passed;
            match procedures::rout_recovery(&self.d, self.morale(&u), passed) {
                Morale::Disorganised if self.state(&u) == State::Routed => {
                    b.emit(out, Event::Rallied { unit: id.clone() });
                    if u.status.recovery_failed > 0 {
                        b.emit(
                            out,
                            Event::Marked {
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
                Morale::Rout(n) if n > u.status.recovery_failed => b.emit(
                    out,
                    Event::Marked {
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
        // B. This turn's checks.
        self.check_marked(b, out)?;
        // C. Units down to two stands.
        let weak: Vec<UnitId> = b
            .alive()
            .filter(|u| {
                !self.is_officer(u)
                    && !self.is_artillery(u)
                    && !u.status.checked_half
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
                    what: "the two-stand check".into(),
                    roll: Roll {
                        unit: Some(id.clone()),
                        dice: vec![die],
                        total: i32::from(die),
                        need: Some(self.num("two_stand_need") as i32),
                        outcome: if stays { "stays" } else { "is removed" }.into(),
                        first_die: Some(first),
                        ..Roll::default()
                    },
                },
            );
            if stays {
                b.emit(
                    out,
                    Event::Marked {
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
        // D. Army withdrawal.
        self.army_withdrawal(b, out)
    }

    /// Units of a side at the start and on the table now (battalions, regiments, batteries).
    pub fn strength(&self, b: &Battle, side: Side) -> (u32, u32) {
        let all = b.units.iter().filter(|u| u.side == side && self.is_unit(u));
        let start = all.clone().count() as u32;
        let now = all.filter(|u| !u.status.removed).count() as u32;
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
                    what: format!(
                        "army withdrawal morale ({now} of {start} units left; the enemy's 2D6 first)"
                    ),
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
                    },
                );
                return Ok(());
            }
        }
        Ok(())
    }

    /// Routed units run: their formation's move and their rout dice, backs to the enemy.
    fn rout_phase(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        // A unit that ran in this turn's pre-melee rout movement (I.2.A.a) has made this turn's
        // rout move: it does not run again in the rout movement phase (I.6).
        let ran: Vec<UnitId> = super::this_turn(b)
            .filter_map(|e| match e {
                Event::Rolled { what, roll } if what == ROUT_MOVE => roll.unit.clone(),
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
        let class = self.class(&u);
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
                what: ROUT_MOVE.into(),
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

    // ----- losses -----------------------------------------------------------------------------

    /// Takes figures off a unit, last stand first; marks the checks the losses call for, and
    /// risks an attached officer.
    pub fn take_losses(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        figures: u32,
        why: &str,
    ) -> Result<(), RuleError> {
        self.lose(b, out, id, figures, why, true)
    }

    /// Takes figures off; `mark`: mark the check that losing a stand calls for (a melee's
    /// loser goes to the failed morale chart instead).
    pub fn lose(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        figures: u32,
        why: &str,
        mark: bool,
    ) -> Result<(), RuleError> {
        self.lose_at(b, out, id, figures, &[], why, mark)
    }

    /// Takes figures off, first from the stands named (a melee's stand casualties, IV.A.4),
    /// the rest from the last stand forward.
    #[expect(clippy::too_many_arguments, reason = "lose with the stands hit")]
    pub fn lose_at(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        figures: u32,
        at: &[(usize, u32)],
        why: &str,
        mark: bool,
    ) -> Result<(), RuleError> {
        self.lose_risking(b, out, id, figures, at, why, mark, true)
    }

    /// `lose_at`; `risk`: an attached officer throws for his risk now (false where the same
    /// fire goes on to casualties that throw it once for all: a gun knocked out, VI.C).
    #[expect(clippy::too_many_arguments, reason = "lose with the stands hit")]
    pub(crate) fn lose_risking(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        figures: u32,
        at: &[(usize, u32)],
        why: &str,
        mark: bool,
        risk: bool,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if figures == 0 || u.status.removed {
            return Ok(());
        }
        let mut stands: Vec<u32> = u.stands.iter().map(|s| s.figures).collect();
        let mut left = figures;
        for &(i, n) in at {
            if let Some(f) = stands.get_mut(i) {
                let take = n.min(*f).min(left);
                *f -= take;
                left -= take;
            }
        }
        for f in stands.iter_mut().rev() {
            let take = left.min(*f);
            *f -= take;
            left -= take;
            if left == 0 {
                break;
            }
        }
        let taken = figures - left;
        let artillery = self.is_artillery(&u);
        if !artillery {
            stands.retain(|&f| f > 0);
        }
        let before = u.stands.len();
        b.emit(
            out,
            Event::Losses {
                unit: id.clone(),
                figures: taken,
                stands: stands.clone(),
                why: why.into(),
            },
        );
        let now = b.unit(id)?.clone();
        let gone = if artillery {
            self.guns_served(&now) == 0
        } else {
            stands.is_empty()
        };
        if gone {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: if artillery {
                        "no gun has crew to serve it".into()
                    } else {
                        "every figure lost".into()
                    },
                },
            );
            // The unit is gone, but the fire or melee that took it was effective: an officer
            // with it throws for his risk all the same (VI.C).
            if risk {
                self.officer_risk(b, out, id)?;
            }
            return Ok(());
        }
        let lost_stand = !artillery && stands.len() < before;
        if lost_stand {
            // The survivors close up on the front.
            let (w, d) = self.footprint(b, &now, now.formation);
            let to = crate::rules::geometry::Base::new(
                now.base.local(0.0, now.base.depth / 2.0 - d / 2.0),
                now.base.facing,
                w,
                d,
            );
            b.emit(
                out,
                Event::Reformed {
                    unit: id.clone(),
                    formation: now.formation,
                    from: now.base,
                    to,
                    cost: 0.0,
                },
            );
        }
        let half = artillery
            && !now.status.checked_half
            && now.extra.strength.saturating_sub(now.figures()) as f32
                >= self.num("battery_check_crew");
        if half {
            b.emit(
                out,
                Event::Marked {
                    unit: id.clone(),
                    marker: Marker::CheckedStrength,
                    count: 1,
                },
            );
        }
        if mark && (lost_stand || half) && !now.status.must_check {
            b.emit(
                out,
                Event::Marked {
                    unit: id.clone(),
                    marker: Marker::MustCheck,
                    count: 1,
                },
            );
        }
        if risk {
            self.officer_risk(b, out, id)?;
        }
        Ok(())
    }

    /// An officer attached to a unit that took losses throws 2D6: a 12 fells him.
    pub(crate) fn officer_risk(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        let Some(g) = self.attached_general(b, &u).map(|g| g.id.clone()) else {
            return Ok(());
        };
        let first = b.cmd_dice.len();
        let (x, y) = (b.d6()?, b.d6()?);
        let falls = f32::from(x + y) >= self.num("officer_risk_need");
        b.emit(
            out,
            Event::Rolled {
                what: format!("the risk to the officer with {}", u.name),
                roll: Roll {
                    unit: Some(g.clone()),
                    dice: vec![x, y],
                    total: i32::from(x + y),
                    need: Some(self.num("officer_risk_need") as i32),
                    outcome: if falls { "falls" } else { "unhurt" }.into(),
                    first_die: Some(first),
                    ..Roll::default()
                },
            },
        );
        if falls {
            b.emit(
                out,
                Event::Destroyed {
                    unit: g,
                    reason: "a casualty with the unit he led".into(),
                },
            );
        }
        Ok(())
    }

    // ----- the end ---------------------------------------------------------------------------

    pub fn check_victory(&self, b: &mut Battle, out: &mut Vec<Event>) {
        if b.is_over() {
            return;
        }
        for side in 0..2 {
            let (start, now) = self.strength(b, side);
            if start > 0 && now == 0 {
                b.emit(
                    out,
                    Event::GameOver {
                        winner: Some(1 - side),
                        reason: "the enemy has no units left on the table".into(),
                    },
                );
                return;
            }
        }
    }

    pub(crate) fn turn_limit_result(&self, b: &Battle) -> (Option<usize>, String) {
        let share = |s: Side| {
            let (start, now) = self.strength(b, s);
            if start == 0 {
                0.0
            } else {
                (start - now) as f32 / start as f32
            }
        };
        let (a, c) = (share(0), share(1));
        let text = format!(
            "the turns are played: {:.0}% and {:.0}% of the units lost",
            a * 100.0,
            c * 100.0
        );
        if (a - c).abs() < 1e-6 {
            (None, text)
        } else if a < c {
            (Some(0), text)
        } else {
            (Some(1), text)
        }
    }

    /// Charges and melees of this phase that are still to be fought.
    pub fn fought_this_phase(&self, b: &Battle, id: &UnitId) -> bool {
        b.phase == Phase::CloseCombat && b.unit(id).is_ok_and(|u| u.bound.fought)
    }

    /// `a` and `e` have fought each other this melee phase (either one may still fight
    /// another enemy it is in contact with: ruling several_melees).
    pub fn pair_fought_this_phase(&self, b: &Battle, a: &UnitId, e: &UnitId) -> bool {
        b.phase == Phase::CloseCombat
            && super::this_phase(b).any(|ev| {
                matches!(ev, Event::Assault { attacker, defender, .. }
                    if (attacker == a && defender == e) || (attacker == e && defender == a))
            })
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
