//! The BBB turn: command rolls and the moves they allow, formation changes, limbering,
//! evading, generals (their moves, casualties and return), the end of each step and of the
//! turn, and victory by objectives.

use super::tables::{command_odds, command_outcome};
use super::{Arm, Bbb7yw, Moves, illegal, in_phase, layout, quality};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event, Factor, RuleError, Step, factor_sum};
use crate::rules::geometry::{Base, Pt, heading, norm_deg, norm_facing};
use crate::rules::model::{Flag, Formation, Phase, Side, Unit, UnitId};
use crate::rules::ruleset::common::{
    Going, Motion, MovePlan, front_contact, step_motion, sweep_to_contact,
};
use crate::rules::ruleset::view::Roll;
use crate::rules::terrain::FeatureKind;

/// A checked move and what it costs.
#[derive(Clone, Debug)]
pub struct BbbPlan {
    pub plan: MovePlan,
    /// Inches the move counts against the allowance (penalties included).
    pub cost: f32,
    /// The penalties taken, in words.
    pub penalties: Vec<String>,
}

impl Bbb7yw {
    // ----- command rolls -------------------------------------------------------------

    /// The modifiers of a unit's command roll, and whether it reads the disordered column.
    pub fn command_modifiers(&self, b: &Battle, u: &Unit) -> (Vec<Factor>, bool) {
        let disordered = u.status.disordered || u.status.silenced;
        let mut f = Vec::new();
        if self.general_near(b, u).is_some() {
            f.push(self.command_factor("general"));
        }
        if self.marching(u) {
            f.push(self.command_factor("march"));
        }
        let kinds = self.terrain_at(b, u);
        if kinds.iter().any(|k| {
            matches!(
                k,
                FeatureKind::Marsh | FeatureKind::Woods | FeatureKind::Town
            )
        }) {
            f.push(self.command_factor("terrain"));
        }
        if self.arm(u) == Arm::IrregularCavalry || u.has(Flag::Militia) {
            f.push(self.command_factor("irregular"));
        }
        if u.has(Flag::Passive) && !disordered {
            f.push(self.command_factor("passive"));
        }
        if u.has(Flag::Fragile) && disordered {
            f.push(self.command_factor("fragile"));
        }
        if self.is_infantry(u) && u.formation == Formation::Line && self.unsupported(b, u) {
            f.push(self.command_factor("unsupported_line"));
        }
        if self.spent(u) {
            f.push(self.command_factor("spent"));
        }
        (f, disordered)
    }

    /// Infantry in line with no friend facing the same way within 3" of either flank: alone on
    /// both (ruling unsupported_line).
    fn unsupported(&self, b: &Battle, u: &Unit) -> bool {
        let r = b.scale.to_mm(self.num("flank_support_distance"));
        let side_has = |sign: f32| {
            b.alive().any(|f| {
                f.side == u.side
                    && f.id != u.id
                    && !self.is_general(f)
                    && norm_deg(f.base.facing - u.base.facing).abs()
                        < self.num("flank_support_facing")
                    && f.base.within(&u.base, r)
                    && f.base.centre.minus(u.base.centre).dot(u.base.right()) * sign > 0.0
                    && f.base
                        .centre
                        .minus(u.base.centre)
                        .dot(u.base.forward())
                        .abs()
                        <= u.base.depth.max(f.base.depth)
            })
        };
        !side_has(1.0) && !side_has(-1.0)
    }

    /// Rolls for command: the result bounds the unit's move this turn; rally, disruption,
    /// retiring, a lost base or a rout follow at once.
    pub fn activate(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        in_phase(b, Phase::Movement, "roll for command")?;
        let u = b.unit(id)?.clone();
        crate::rules::ruleset::common::own_active(b, &u)?;
        if self.is_general(&u) {
            return illegal(format!(
                "{} is a general: generals move in their own step without a roll",
                u.name
            ));
        }
        if u.bound.allowance.is_some() {
            return illegal(format!(
                "{} has already rolled for command this turn",
                u.name
            ));
        }
        let (factors, disordered) = self.command_modifiers(b, &u);
        let dice = vec![b.d6()?, b.d6()?];
        let score = dice.iter().map(|d| i32::from(*d)).sum::<i32>() + factor_sum(&factors);
        let o = command_outcome(&self.data, score, disordered);
        let full = self.full_move(&u);
        let allowance = match o.moves {
            Moves::Full => full,
            Moves::Half => full / 2.0,
            _ => 0.0,
        };
        let recover = o.recover.is_some_and(|q| quality(u.class) >= q) && self.lost(&u) > 0;
        let words = self.outcome_words(&o, disordered, recover);
        b.emit(
            out,
            Event::Ordered {
                unit: id.clone(),
                roll: Roll {
                    unit: Some(id.clone()),
                    side: Some(u.side),
                    dice,
                    factors,
                    total: score,
                    against: None,
                    need: None,
                    outcome: words,
                    first_die: None,
                    dice_at: Vec::new(),
                },
                allowance,
                recover,
            },
        );
        if o.rally {
            if u.status.disordered {
                b.emit(out, Event::Steadied { unit: id.clone() });
            }
            if u.status.silenced {
                b.emit(
                    out,
                    Event::Silenced {
                        unit: id.clone(),
                        silenced: false,
                        why: "rallied on the command roll".into(),
                    },
                );
            }
        }
        if o.disrupted {
            self.disrupt(b, out, id, "the command roll");
        }
        if o.lose_base {
            self.lose_bases(b, out, id, 1, "the command roll")?;
        }
        match o.moves {
            Moves::RetireHalf => self.retire(b, out, id, full / 2.0, None, "the command roll")?,
            Moves::RetireFull => self.retire(b, out, id, full, None, "the command roll")?,
            Moves::Rout => b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: "routed on the command roll: every base removed".into(),
                },
            ),
            _ => {}
        }
        Ok(())
    }

    /// A command roll's outcome in words.
    pub fn outcome_words(
        &self,
        o: &super::CommandOutcome,
        disordered: bool,
        recover: bool,
    ) -> String {
        let mv = match o.moves {
            Moves::Full => "full move",
            Moves::Half => "half move",
            Moves::Still => "no move",
            Moves::RetireHalf => "retire a half move (ignoring terrain)",
            Moves::RetireFull => "retire a full move (ignoring terrain)",
            Moves::Rout => "routed: every base removed",
        };
        let mut s = String::new();
        if o.rally {
            s.push_str("rally & ");
        }
        if o.disrupted {
            s.push_str("disrupted & ");
        }
        if o.lose_base {
            s.push_str("lose a base & ");
        }
        s.push_str(mv);
        if recover {
            s.push_str(", or recover a base");
        }
        if disordered {
            s.push_str(" (disordered column)");
        }
        s
    }

    /// The chance of each outcome of a unit's command roll now, in words.
    pub fn command_chances(&self, b: &Battle, u: &Unit) -> Vec<(String, f64)> {
        let (factors, disordered) = self.command_modifiers(b, u);
        let m = factor_sum(&factors);
        let odds = command_odds(&self.data, m);
        let mut out: Vec<(String, f64)> = Vec::new();
        for (row, p) in self.data.command_table.iter().zip(odds) {
            if p <= 0.0 {
                continue;
            }
            let o = if disordered { row.disordered } else { row.good };
            let recover = o.recover.is_some_and(|q| quality(u.class) >= q) && self.lost(u) > 0;
            let w = self.outcome_words(&o, false, recover);
            match out.iter_mut().find(|x| x.0 == w) {
                Some(x) => x.1 += p,
                None => out.push((w, p)),
            }
        }
        out
    }

    /// Recovers a lost base instead of moving, as the command roll allows.
    pub fn recover(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        in_phase(b, Phase::Movement, "recover a base")?;
        let u = b.unit(id)?.clone();
        crate::rules::ruleset::common::own_active(b, &u)?;
        if !u.bound.may_recover {
            return illegal(format!(
                "{}'s command roll does not let it recover a base this turn",
                u.name
            ));
        }
        if u.bound.moved || u.bound.spent > 0.0 {
            return illegal(format!(
                "{} has moved: a base is recovered instead of moving",
                u.name
            ));
        }
        let mut stands: Vec<u32> = u.stands.iter().map(|s| s.figures).collect();
        stands.push(1);
        b.emit(
            out,
            Event::Recovered {
                unit: id.clone(),
                stands: stands.clone(),
            },
        );
        self.refit(b, out, id)?;
        // Ruling: the base comes back into the unit's line only where the line has room.
        let now = b.unit(id)?;
        if let Some(o) = b
            .alive()
            .find(|o| o.id != now.id && !self.is_general(o) && o.base.overlaps(&now.base))
        {
            return illegal(format!(
                "{} has no room to take a base back: {} stands there",
                now.name, o.name
            ));
        }
        Ok(())
    }

    // ----- losses and retiring -----------------------------------------------------------

    /// Disrupts a unit, artillery too (a fire result also silences guns: `silence`).
    pub fn disrupt(&self, b: &mut Battle, out: &mut Vec<Event>, id: &UnitId, why: &str) {
        let Ok(u) = b.unit(id) else { return };
        if !u.alive() {
            return;
        }
        if !u.status.disordered {
            b.emit(
                out,
                Event::Disordered {
                    unit: id.clone(),
                    why: why.to_string(),
                },
            );
        }
    }

    /// Silences artillery (the fire table's "artillery silenced").
    pub fn silence(&self, b: &mut Battle, out: &mut Vec<Event>, id: &UnitId, why: &str) {
        let Ok(u) = b.unit(id) else { return };
        if u.alive() && self.is_artillery(u) && !u.status.silenced {
            b.emit(
                out,
                Event::Silenced {
                    unit: id.clone(),
                    silenced: true,
                    why: why.to_string(),
                },
            );
        }
    }

    /// Takes bases off a unit (artillery: reduced by one hit, destroyed by two); a unit left
    /// with none is destroyed.
    pub fn lose_bases(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        n: u32,
        why: &str,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() || n == 0 {
            return Ok(());
        }
        if self.is_artillery(&u) {
            let total = u.status.hits + n;
            if total as f32 >= self.num("artillery_destroyed_hits") {
                b.emit(
                    out,
                    Event::Destroyed {
                        unit: id.clone(),
                        reason: format!("artillery destroyed by {why}"),
                    },
                );
            } else {
                b.emit(
                    out,
                    Event::Hit {
                        unit: id.clone(),
                        hits: n,
                        total,
                    },
                );
            }
            return Ok(());
        }
        let left = u.stands.len().saturating_sub(n as usize);
        if left == 0 {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: format!("its last base lost to {why}"),
                },
            );
            return Ok(());
        }
        b.emit(
            out,
            Event::Losses {
                unit: id.clone(),
                figures: n,
                stands: vec![1; left],
                why: why.to_string(),
            },
        );
        self.refit(b, out, id)
    }

    /// Closes the unit's footprint up (or out) to the bases it has, front centre kept.
    fn refit(&self, b: &mut Battle, out: &mut Vec<Event>, id: &UnitId) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        let base = self.troop(&u).base;
        let size = self.scenario_base(b, &u).unwrap_or(base);
        // (Widened by a base recovered at the table's edge, it steps in off the edge.)
        let to = b
            .table
            .pull_in(&layout::rebuild(&u, size, u.formation, u.stands.len(), 0.0));
        if to != u.base {
            b.emit(
                out,
                Event::Reformed {
                    unit: id.clone(),
                    formation: u.formation,
                    from: u.base,
                    to,
                    cost: 0.0,
                },
            );
        }
        Ok(())
    }

    /// The base size the scenario gave this unit, if any.
    pub fn scenario_base(&self, b: &Battle, u: &Unit) -> Option<(f32, f32)> {
        b.scenario
            .units
            .iter()
            .find(|r| r.id == u.id.as_str())
            .and_then(|r| r.base)
    }

    /// Retires straight back `inches`, ignoring passable terrain (away from `from` if given,
    /// else behind its own rear; guns stop at a river); passing through friends disrupts them
    /// (not those in base contact when it starts); off the table it is lost.
    pub fn retire(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        inches: f32,
        from: Option<&UnitId>,
        why: &str,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() || inches <= 0.0 {
            return Ok(());
        }
        let dir = match from.and_then(|f| b.unit(f).ok()) {
            Some(e) => {
                let d = u.base.centre.minus(e.base.centre);
                if d.len() > 1e-3 {
                    d.scale(1.0 / d.len())
                } else {
                    u.base.forward().scale(-1.0)
                }
            }
            None => u.base.forward().scale(-1.0),
        };
        let full = b.scale.to_mm(inches);
        // Retiring ignores passable terrain only: a river is impassable to artillery (a bridge
        // excepted), so guns stop on its bank (ruling after_assault).
        let steps = 40;
        let river = |p: Pt, q: Pt| {
            self.is_artillery(&u)
                && b.terrain
                    .features
                    .iter()
                    .any(|f| f.kind == FeatureKind::River && f.crossed_by(p, q))
                && b.terrain.at(p, &[FeatureKind::Bridge]).next().is_none()
                && b.terrain.at(q, &[FeatureKind::Bridge]).next().is_none()
        };
        let dist = (1..=steps)
            .map(|k| full * k as f32 / steps as f32)
            .find(|d| river(u.base.centre, u.base.centre.plus(dir.scale(*d))))
            .map_or(full, |d| d - full / steps as f32);
        let mut to = u.base;
        to.centre = u.base.centre.plus(dir.scale(dist));
        // Off the table: lost.
        let inside = to
            .corners()
            .iter()
            .all(|p| p.x >= 0.0 && p.y >= 0.0 && p.x <= b.table.width && p.y <= b.table.height);
        if !inside {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: format!("retired off the table ({why})"),
                },
            );
            return Ok(());
        }
        // Sweep the whole footprint: stop short of an enemy in the way.
        let at = |k: f32| {
            let mut t = u.base;
            t.centre = u.base.centre.plus(dir.scale(dist * k));
            t
        };
        let mut path: Vec<Base> = Vec::new();
        for k in 1..=steps {
            let t = at(k as f32 / steps as f32);
            if b.alive()
                .any(|e| e.side != u.side && !self.is_general(e) && e.base.overlaps(&t))
            {
                break;
            }
            path.push(t);
        }
        let friend_on = |t: &Base| {
            b.alive().any(|f| {
                f.side == u.side && f.id != u.id && !self.is_general(f) && f.base.overlaps(t)
            })
        };
        // Not ending on a friend: on past it if the way is clear, else back to the last clear
        // place (ruling after_assault).
        let mut to = path.last().copied().unwrap_or(u.base);
        if friend_on(&to) {
            let beyond = (steps + 1..=2 * steps)
                .map(|k| at(k as f32 / steps as f32))
                .take_while(|t| {
                    !river(u.base.centre, t.centre)
                        && t.corners().iter().all(|p| {
                            p.x >= 0.0
                                && p.y >= 0.0
                                && p.x <= b.table.width
                                && p.y <= b.table.height
                        })
                        && !b
                            .alive()
                            .any(|e| e.side != u.side && !self.is_general(e) && e.base.overlaps(t))
                })
                .find(|t| !friend_on(t));
            to = beyond.unwrap_or_else(|| {
                path.iter()
                    .rev()
                    .find(|t| !friend_on(t))
                    .copied()
                    .unwrap_or(u.base)
            });
            if let Some(p) = beyond {
                path.push(p);
            }
        }
        let touching: Vec<UnitId> = b
            .alive()
            .filter(|f| f.side == u.side && f.id != u.id && f.base.distance(&u.base) < 1.0)
            .map(|f| f.id.clone())
            .collect();
        let passed: Vec<UnitId> = b
            .alive()
            .filter(|f| {
                f.side == u.side
                    && f.id != u.id
                    && !self.is_general(f)
                    && !touching.contains(&f.id)
                    && path.iter().any(|t| t.overlaps(&f.base))
            })
            .map(|f| f.id.clone())
            .collect();
        b.emit(
            out,
            Event::Recoiled {
                unit: id.clone(),
                from: u.base,
                to,
                voluntary: false,
            },
        );
        for f in passed {
            self.disrupt(b, out, &f, &format!("{} retired through it", u.name));
        }
        Ok(())
    }

    // ----- movement ----------------------------------------------------------------------

    /// The move a unit may still make this turn, inches: what its roll allowed (generals their
    /// full move in their step), less what it has used.
    pub fn remaining(&self, b: &Battle, u: &Unit) -> Result<f32, RuleError> {
        if self.is_general(u) {
            if b.phase != Phase::Generals {
                return illegal(format!(
                    "{} is a general: generals move in their own step",
                    u.name
                ));
            }
            return Ok((self.full_move(u) - u.bound.spent).max(0.0));
        }
        if b.phase != Phase::Movement {
            return Err(RuleError::WrongPhase {
                command: "move".into(),
                phase: b.phase,
            });
        }
        match u.bound.allowance {
            None => illegal(format!(
                "{} must roll for command before it moves (Roll for command)",
                u.name
            )),
            Some(a) if a <= 0.0 => illegal(format!(
                "{}'s command roll allows no move this turn",
                u.name
            )),
            Some(a) => Ok((a - u.bound.spent).max(0.0)),
        }
    }

    /// Checks a move of one unit and measures it with its penalties.
    pub fn plan(&self, b: &Battle, id: &UnitId, steps: &[Step]) -> Result<BbbPlan, RuleError> {
        let u = b.unit(id)?.clone();
        if u.side != b.active {
            return illegal(format!("{} is not the moving side's", u.name));
        }
        let left = self.remaining(b, &u)?;
        if u.formation == Formation::Deep && !(self.is_infantry(&u) && u.has(Flag::Aggressive)) {
            return illegal(format!(
                "{}: only Aggressive infantry may move in depth; it may change formation",
                u.name
            ));
        }
        if self.is_artillery(&u) && !u.status.limbered {
            let only_pivots = steps.iter().all(|s| matches!(s, Step::Pivot(_)));
            if only_pivots {
                return illegal(format!(
                    "{} pivots by Form with a turn (half a move), not by a move",
                    u.name
                ));
            }
        }
        if steps.is_empty() {
            return illegal("a move needs at least one step".into());
        }
        let inch = b.scale.to_mm(1.0);
        let mut base = u.base;
        let mut plain = 0.0f32;
        let mut samples: Vec<Base> = vec![base];
        let mut about = false;
        let mut contact = None;
        for (i, step) in steps.iter().enumerate() {
            let motion = match step {
                Step::ToContact(tid) => {
                    if i + 1 != steps.len() {
                        return illegal("a move into contact must be the last step".into());
                    }
                    let t = b.unit(tid)?;
                    if t.side == u.side {
                        return illegal(format!("{} is a friend", t.name));
                    }
                    if self.is_general(&u) {
                        return illegal("generals do not assault".into());
                    }
                    if self.is_artillery(&u) {
                        return illegal(format!(
                            "{}: artillery does not move into contact; only infantry and cavalry assault",
                            u.name
                        ));
                    }
                    let Some(d) = sweep_to_contact(&base, &t.base, 45.0) else {
                        return illegal(format!(
                            "{} cannot reach {} by going straight ahead",
                            u.name, t.name
                        ));
                    };
                    step_motion(b, &base, &Step::Advance(b.scale.from_mm(d)))?
                }
                Step::AboutFace => {
                    about = true;
                    step_motion(b, &base, step)?
                }
                Step::Pivot(d) => {
                    if d.abs() > self.num("about_turn_pivot") {
                        about = true;
                    }
                    step_motion(b, &base, step)?
                }
                s => step_motion(b, &base, s)?,
            };
            let ground = sample_motion(&motion, &base, &mut samples);
            if !matches!(step, Step::AboutFace) {
                plain += ground / inch;
            }
            base = motion.apply(&base, 1.0);
            if let Step::ToContact(tid) = step {
                let t = b.unit(tid)?;
                front_contact(&base, &t.base, 45.0).ok_or_else(|| {
                    RuleError::Illegal(format!("{} does not meet {} squarely", u.name, t.name))
                })?;
                // Squared up against the face it meets, keeping its place along it (several
                // units may assault one).
                let (conformed, c) = crate::rules::ruleset::common::square_up(&base, &t.base);
                contact = Some((tid.clone(), conformed, c));
                base = conformed;
            }
        }
        // Penalties.
        let mut penalties = Vec::new();
        let mut cost = plain;
        let arm = self.arm(&u);
        let exempt_arc = self.marching(&u)
            || matches!(arm, Arm::Artillery | Arm::General | Arm::IrregularCavalry);
        // The arc and an about turn are judged from where the unit stood when the turn began,
        // so a move split in several goes no farther round than one move would: a move is
        // penalised when it takes the unit outside the arc (or about) from inside it.
        let first = u.bound.turn_start.unwrap_or(u.base);
        let cos = self.num("front_arc").to_radians().cos();
        let outside = |at: &Base| {
            let disp = at.front_centre().minus(first.front_centre());
            disp.len() > 0.5 && disp.dot(first.forward()) < disp.len() * cos
        };
        let turned = |at: &Base| {
            norm_deg(at.facing - first.facing).abs() > self.num("about_turn_pivot") + 1e-3
        };
        let off_arc = outside(&base) && !outside(&u.base);
        let about = about || (turned(&base) && !turned(&u.base));
        if !self.is_general(&u) && (about || (off_arc && !exempt_arc)) {
            cost += self.num("outside_arc_penalty");
            penalties.push(format!(
                "outside the front arc{} -{:.0}\"",
                if about { " (about turn)" } else { "" },
                self.num("outside_arc_penalty")
            ));
        }
        let mut why: Vec<String> = Vec::new();
        let difficult = [FeatureKind::Marsh, FeatureKind::Woods, FeatureKind::Town];
        let mut river = false;
        let mut bridge = false;
        for w in samples.windows(2) {
            for f in b.terrain.at(w[1].centre, &difficult) {
                if !why.contains(&f.name) {
                    why.push(f.name.clone());
                }
            }
            for f in b.terrain.features.iter() {
                if !f.crossed_by(w[0].centre, w[1].centre) {
                    continue;
                }
                let on_bridge = b
                    .terrain
                    .at(w[1].centre, &[FeatureKind::Bridge])
                    .next()
                    .is_some()
                    || b.terrain
                        .at(w[0].centre, &[FeatureKind::Bridge])
                        .next()
                        .is_some();
                match f.kind {
                    FeatureKind::River if on_bridge && self.marching(&u) => bridge = true,
                    FeatureKind::River => river = true,
                    FeatureKind::Stream if on_bridge && self.marching(&u) => bridge = true,
                    FeatureKind::Stream if !why.contains(&f.name) => why.push(f.name.clone()),
                    _ => {}
                }
            }
            let (l0, l1) = (
                b.terrain.level_at(w[0].centre),
                b.terrain.level_at(w[1].centre),
            );
            if l1 > l0
                && b.terrain
                    .at(w[1].centre, &[FeatureKind::Hill])
                    .any(|h| h.steep)
            {
                let name = "a steep slope (going up)".to_string();
                if !why.contains(&name) {
                    why.push(name);
                }
            }
        }
        if bridge && !self.marching(&u) {
            why.push("a bridge (not in column of march or limbered)".into());
        }
        if river {
            if self.is_artillery(&u) {
                return illegal(format!("{}: rivers are impassable to artillery", u.name));
            }
            if u.bound.allowance.is_some_and(|a| a < self.full_move(&u)) || u.bound.spent > 0.0 {
                return illegal(format!(
                    "{}: crossing a river takes a full move, and ends it",
                    u.name
                ));
            }
            cost = cost.max(left);
            penalties.push("crossing a river: the whole move".into());
        }
        if !why.is_empty() && !self.is_general(&u) && !river {
            let p = if self.is_cavalry(&u) {
                self.num("difficult_cavalry")
            } else {
                self.num("difficult_foot")
            };
            cost += p;
            penalties.push(format!(
                "difficult terrain or obstacle ({}) -{p:.0}\"",
                why.join(", ")
            ));
        }
        // Roads double the pace of a column or limbered guns that keep to them.
        // A river forded (not bridged) halts the move whatever road leads to it.
        let road =
            self.marching(&u) && !river && samples.iter().all(|s| b.terrain.on_road(s.centre));
        let mut allowance = left;
        // Unlimbered guns are manhandled: 3" at most.
        if self.is_artillery(&u) && !u.status.limbered {
            let most = (self.num("manhandle") - u.bound.spent).max(0.0);
            allowance = allowance.min(most);
            penalties.push(format!(
                "manhandled ({:.0}\" at most; no offensive fire)",
                self.num("manhandle")
            ));
        }
        if road {
            allowance *= self.num("road_factor");
            cost = plain;
            penalties.clear();
        }
        // The minimum move is always 3" (when the roll allowed a move at all and nothing of it
        // is used yet): penalties never take a unit below it.
        let min = self.num("minimum_move").min(allowance.max(0.0));
        let within_minimum = !road && u.bound.spent <= 0.0 && left > 0.0 && plain <= min + 0.01;
        let plan_cost = if road {
            cost / self.num("road_factor")
        } else if within_minimum {
            cost.min(left)
        } else {
            cost
        };
        if cost > allowance + 0.01 && !within_minimum {
            return illegal(format!(
                "{} may move {allowance:.1}\" more; this move counts {cost:.1}\"{}",
                u.name,
                if penalties.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", penalties.join("; "))
                }
            ));
        }
        if road {
            penalties.push(format!("{plain:.1}\" on the road at double pace"));
        }
        let allowed = left;
        // The table, other units and the enemy's zones of control.
        let inside = base
            .corners()
            .iter()
            .all(|p| p.x >= 0.0 && p.y >= 0.0 && p.x <= b.table.width && p.y <= b.table.height);
        if !inside {
            return illegal(format!("{} would leave the table", u.name));
        }
        for o in b.alive().filter(|o| o.id != u.id) {
            if self.is_general(o) || self.is_general(&u) {
                continue;
            }
            let contacted = contact.as_ref().is_some_and(|c| c.0 == o.id);
            if !contacted && o.base.overlaps(&base) {
                return illegal(format!("{} would end on {}", u.name, o.name));
            }
        }
        // No move passes through an enemy: an assault meets the first enemy in its way (ruling
        // zone_of_control). Only what the move adds to an overlap it started with counts.
        if !self.is_general(&u) {
            for e in b
                .alive()
                .filter(|e| e.side != u.side && !self.is_general(e))
            {
                let start = u.base.overlap_depth(&e.base);
                if samples[1..]
                    .iter()
                    .any(|s| s.overlap_depth(&e.base) > start + crate::rules::geometry::CONTACT_EPS)
                {
                    return illegal(match &contact {
                        Some((t, ..)) if *t != e.id => format!(
                            "{} would pass through {}: an assault meets the first enemy in its way",
                            u.name, e.name
                        ),
                        _ => format!("{} would pass through {}", u.name, e.name),
                    });
                }
            }
        }
        // A zone entered stops the unit for the rest of the turn, unless it assaults: judged
        // along the turn's whole way (where it began, its earlier moves, then this one), so a
        // unit that leaves a zone it began in and comes back into it has entered it too
        // (ruling zone_of_control).
        if !self.is_general(&u) && contact.is_none() {
            let zoc = b.scale.to_mm(self.num("zone_of_control"));
            let first = u.bound.turn_start.unwrap_or(u.base);
            let mut earlier: Vec<Base> = match u.bound.turn_start {
                Some(_) => self
                    .moves_this_turn(b, &u)
                    .into_iter()
                    .flat_map(|m| m.0)
                    .collect(),
                None => Vec::new(),
            };
            earlier.push(u.base);
            for e in b
                .alive()
                .filter(|e| e.side != u.side && !self.is_general(e))
            {
                let inside = |s: &Base| s.within(&e.base, zoc);
                // Whether it has been outside the zone this turn, up to each point.
                let mut was_out = !inside(&first);
                if earlier.iter().any(|s| {
                    let entered = was_out && inside(s);
                    was_out |= !inside(s);
                    entered
                }) {
                    return illegal(format!(
                        "{} entered the 3\" zone of control of {} this turn: it stopped there, and may go on only to assault",
                        u.name, e.name
                    ));
                }
                let entry = samples.iter().position(|s| {
                    let entered = was_out && inside(s);
                    was_out |= !inside(s);
                    entered
                });
                if let Some(i) = entry {
                    let after = samples[i..]
                        .windows(2)
                        .map(|w| w[0].centre.dist(w[1].centre))
                        .sum::<f32>();
                    if after > inch * self.num("zoc_settle") {
                        return illegal(format!(
                            "{} enters the 3\" zone of control of {}: it must stop there unless it assaults",
                            u.name, e.name
                        ));
                    }
                }
            }
        }
        let going = Going {
            bad: !why.is_empty(),
            why,
            road,
        };
        Ok(BbbPlan {
            plan: MovePlan {
                ends: vec![(id.clone(), base)],
                starts: vec![(id.clone(), u.base)],
                distance: plain,
                allowance: allowed,
                going,
                contact,
                cost: 0,
                manoeuvre: None,
            },
            cost: plan_cost,
            penalties,
        })
    }

    pub fn do_move(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        steps: &[Step],
    ) -> Result<(), RuleError> {
        let p = self.plan(b, id, steps)?;
        let (_, to) = p.plan.ends[0];
        let from = p.plan.starts[0].1;
        // The words say how far it went; the event's distance is what the move counts.
        let mut going = format!("{:.1}\" in {}", p.plan.distance, p.plan.going.describe());
        if !p.penalties.is_empty() {
            going = format!("{going}; {}", p.penalties.join("; "));
        }
        b.emit(
            out,
            Event::Moved {
                unit: id.clone(),
                from,
                to,
                distance: p.cost,
                allowance: p.plan.allowance,
                going,
                contact: p.plan.contact.as_ref().map(|c| c.0.clone()),
                manoeuvre: None,
            },
        );
        Ok(())
    }

    /// A formation change (a full move), an artillery pivot (half a move), or an about turn.
    pub fn form(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        formation: Formation,
        turn: f32,
    ) -> Result<(), RuleError> {
        in_phase(b, Phase::Movement, "change formation")?;
        let u = b.unit(id)?.clone();
        crate::rules::ruleset::common::own_active(b, &u)?;
        if self.is_general(&u) {
            return illegal("generals have no formation".into());
        }
        let left = self.remaining(b, &u)?;
        if !turn.is_finite() || ![0.0, 90.0, -90.0, 180.0].contains(&turn) {
            return illegal("a turn is 0, 90, -90 or 180 degrees".into());
        }
        let full = self.full_move(&u);
        let (cost, what) = if self.is_artillery(&u) {
            if formation != Formation::Line {
                return illegal(format!(
                    "{}: artillery limbers and unlimbers instead of changing formation",
                    u.name
                ));
            }
            if turn == 0.0 {
                return illegal("an artillery pivot needs a turn".into());
            }
            (full / 2.0, "pivots")
        } else {
            if formation == Formation::Deep && !(self.is_infantry(&u) && u.has(Flag::Aggressive)) {
                return illegal(format!(
                    "{}: only Aggressive infantry may move in depth",
                    u.name
                ));
            }
            if !matches!(
                formation,
                Formation::Line | Formation::Column | Formation::Deep
            ) {
                return illegal(format!(
                    "{}: BBB units stand in line, column of march or in depth",
                    u.name
                ));
            }
            if formation == u.formation && turn == 0.0 {
                return illegal(format!("{} is already in that formation", u.name));
            }
            (full, "changes formation")
        };
        if u.bound.spent > 0.0 || left + 1e-3 < cost.min(u.bound.allowance.unwrap_or(0.0)) {
            return illegal(format!(
                "{} {what} for {cost:.0}\" of its move: it has {left:.1}\" left",
                u.name
            ));
        }
        if self.is_artillery(&u) && left + 1e-3 < cost {
            return illegal(format!(
                "{}: a pivot takes half a move ({cost:.0}\"); it has {left:.1}\"",
                u.name
            ));
        }
        if !self.is_artillery(&u) && u.bound.allowance.is_some_and(|a| a + 1e-3 < full) {
            return illegal(format!(
                "{}: a formation change takes a full move; its roll allowed {left:.1}\"",
                u.name
            ));
        }
        let size = self.base_of(&u);
        let to = layout::rebuild(&u, size, formation, u.stands.len(), turn);
        if !b.table.holds(&to) {
            return illegal(format!("{} would leave the table", u.name));
        }
        for o in b.alive().filter(|o| o.id != u.id && !self.is_general(o)) {
            if o.base.overlaps(&to) {
                return illegal(format!("{} would end on {}", u.name, o.name));
            }
        }
        b.emit(
            out,
            Event::Reformed {
                unit: id.clone(),
                formation,
                from: u.base,
                to,
                cost,
            },
        );
        Ok(())
    }

    /// Limbers or unlimbers: half a move.
    pub fn limber(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        limber: bool,
    ) -> Result<(), RuleError> {
        in_phase(
            b,
            Phase::Movement,
            if limber { "limber" } else { "unlimber" },
        )?;
        let u = b.unit(id)?.clone();
        crate::rules::ruleset::common::own_active(b, &u)?;
        if !self.is_artillery(&u) {
            return illegal(format!("{} is not artillery", u.name));
        }
        if u.status.limbered == limber {
            return illegal(format!(
                "{} is already {}",
                u.name,
                if limber { "limbered" } else { "unlimbered" }
            ));
        }
        let left = self.remaining(b, &u)?;
        // Horse artillery may unlimber at the end of its move (up to 6") at no further cost,
        // and fire at half rate (ruling horse_artillery_move).
        let horse_after_move = !limber
            && self.troop(&u).gun == Some(super::Gun::Horse)
            && u.bound.moved
            && self.moved_inches(b, &u) <= self.num("horse_unlimber_move") + 0.01;
        let half = if horse_after_move {
            0.0
        } else {
            self.full_move(&u) / 2.0
        };
        if left + 1e-3 < half {
            return illegal(format!(
                "{}: limbering or unlimbering takes half a move ({half:.0}\"); it has {left:.1}\"",
                u.name
            ));
        }
        b.emit(
            out,
            if limber {
                Event::Limbered { unit: id.clone() }
            } else {
                Event::Unlimbered { unit: id.clone() }
            },
        );
        // Half a move used: recorded as a formation change of no footprint.
        if half > 0.0 {
            b.emit(
                out,
                Event::Reformed {
                    unit: id.clone(),
                    formation: u.formation,
                    from: u.base,
                    to: u.base,
                    cost: half,
                },
            );
        }
        Ok(())
    }

    /// How far the unit has gone this turn, inches: the ground each move covered along its
    /// way (a road's bends included, not the straight line from where it began to where it
    /// ended, nor the penalties it counted).
    pub fn moved_inches(&self, b: &Battle, u: &Unit) -> f32 {
        self.moves_this_turn(b, u).iter().map(|m| m.1).sum()
    }

    /// The unit's moves this turn, oldest first: each one's way, sampled as a move's check
    /// samples it from where the move began, and the ground it covered, inches. Each is traced
    /// again from the unit's own Move command; a move no such command accounts for (an evade)
    /// is taken as the straight line it went.
    pub fn moves_this_turn(&self, b: &Battle, u: &Unit) -> Vec<(Vec<Base>, f32)> {
        let mut moved: Vec<(Base, Base)> = Vec::new();
        for e in b.log.iter().rev() {
            match e {
                Event::PhaseBegan {
                    phase: Phase::Movement,
                    ..
                } => break,
                Event::Moved { unit, from, to, .. } if *unit == u.id => moved.push((*from, *to)),
                _ => {}
            }
        }
        if moved.is_empty() {
            return Vec::new();
        }
        // This movement step's commands of the unit, newest first (the step began with the
        // last phase's end).
        let steps: Vec<&Vec<Step>> = b
            .commands
            .iter()
            .rev()
            .take_while(|c| !matches!(c, Command::EndPhase))
            .filter_map(|c| match c {
                Command::Move { unit, steps } if *unit == u.id => Some(steps),
                _ => None,
            })
            .collect();
        let inch = b.scale.to_mm(1.0);
        let mut k = 0;
        let mut out: Vec<(Vec<Base>, f32)> = moved
            .into_iter()
            .map(|(from, to)| {
                let traced = steps
                    .get(k)
                    .and_then(|s| trace(b, from, s))
                    .filter(|(_, _, end)| {
                        end.centre.dist(to.centre) < 1.0
                            && norm_deg(end.facing - to.facing).abs() < 1.0
                    });
                match traced {
                    Some((way, ground, _)) => {
                        k += 1;
                        (way, ground / inch)
                    }
                    None => {
                        let n = (from.centre.dist(to.centre) / 2.0).ceil().clamp(1.0, 400.0);
                        let way = (0..=n as usize)
                            .map(|i| Base {
                                centre: from
                                    .centre
                                    .plus(to.centre.minus(from.centre).scale(i as f32 / n)),
                                ..from
                            })
                            .chain(std::iter::once(to))
                            .collect();
                        (way, from.centre.dist(to.centre) / inch)
                    }
                }
            })
            .collect();
        out.reverse();
        out
    }

    // ----- evading -------------------------------------------------------------------------

    /// Who may evade whom: cavalry, limbered foot artillery and horse artillery evade
    /// infantry; light and irregular cavalry also heavy cavalry; irregular cavalry all but
    /// light and irregular cavalry.
    pub fn may_evade(&self, evader: &Unit, enemy: &Unit) -> bool {
        let e = self.arm(enemy);
        let me = self.arm(evader);
        let gun = self.troop(evader).gun;
        let base = match me {
            Arm::HeavyCavalry | Arm::Cavalry | Arm::LightCavalry | Arm::IrregularCavalry => true,
            Arm::Artillery => {
                gun == Some(super::Gun::Horse)
                    || (gun == Some(super::Gun::Foot) && evader.status.limbered)
            }
            _ => false,
        };
        match e {
            Arm::Infantry => base,
            Arm::HeavyCavalry => matches!(me, Arm::LightCavalry | Arm::IrregularCavalry),
            Arm::Cavalry | Arm::Artillery => me == Arm::IrregularCavalry,
            _ => false,
        }
    }

    /// Evades an enemy that moved within 12" this turn: straight away from it, between half
    /// and a full move, and ends disrupted.
    pub fn evade(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        from: &UnitId,
        distance: f32,
    ) -> Result<(), RuleError> {
        in_phase(b, Phase::Movement, "evade")?;
        let u = b.unit(id)?.clone();
        let e = b.unit(from)?.clone();
        if u.side == b.active {
            return illegal(format!(
                "{} belongs to the moving side: only the other side's units evade",
                u.name
            ));
        }
        if e.side != b.active {
            return illegal(format!("{} is not of the moving side", e.name));
        }
        if u.status.disordered {
            return illegal(format!("{} is disrupted and cannot evade", u.name));
        }
        if u.bound.moved {
            return illegal(format!("{} has already evaded this turn", u.name));
        }
        if !e.bound.moved {
            return illegal(format!("{} has not moved this turn", e.name));
        }
        let r = b.scale.to_mm(self.num("evade_radius"));
        if !e.base.within(&u.base, r) {
            return illegal(format!(
                "{} is more than {:.0}\" away",
                e.name,
                self.num("evade_radius")
            ));
        }
        if !self.may_evade(&u, &e) {
            return illegal(format!(
                "{} may not evade {} (playsheet: Evade)",
                u.name, e.name
            ));
        }
        let full = self.full_move(&u);
        if !distance.is_finite() || distance <= 0.0 {
            return illegal(format!("{} evades a distance in inches", u.name));
        }
        let away = u.base.centre.minus(e.base.centre);
        let facing = norm_facing(away.x.atan2(away.y).to_degrees());
        let turned = Base { facing, ..u.base };
        let mut to = turned;
        to.centre = turned
            .centre
            .plus(heading(facing).scale(b.scale.to_mm(distance)));
        let inside = to
            .corners()
            .iter()
            .all(|p| p.x >= 0.0 && p.y >= 0.0 && p.x <= b.table.width && p.y <= b.table.height);
        if !inside {
            return illegal(format!("{} would evade off the table", u.name));
        }
        if let Some(o) = b
            .alive()
            .find(|o| o.id != u.id && !self.is_general(o) && o.base.overlaps(&to))
        {
            return illegal(format!("{} would end on {}", u.name, o.name));
        }
        // An evade is a move: it passes through no enemy, and guns cross no river.
        let path: Vec<Base> = (1..=40)
            .map(|k| Base {
                centre: turned.centre.lerp(to.centre, k as f32 / 40.0),
                ..turned
            })
            .collect();
        // The move's penalties count against it (ruling evade): difficult terrain, a stream or
        // a steep slope going up once; a river halts a move, so no evade fords one; unlimbered
        // guns are manhandled 3" at most. The turn away is part of the evade, not an arc
        // penalty. Every evade may still go 3".
        let mut why: Vec<String> = Vec::new();
        let difficult = [FeatureKind::Marsh, FeatureKind::Woods, FeatureKind::Town];
        let mut prev = turned.centre;
        for t in &path {
            let on_bridge = |p: Pt| b.terrain.at(p, &[FeatureKind::Bridge]).next().is_some();
            let bridged = (on_bridge(prev) || on_bridge(t.centre)) && self.marching(&u);
            for f in b.terrain.at(t.centre, &difficult) {
                if !why.contains(&f.name) {
                    why.push(f.name.clone());
                }
            }
            for f in b
                .terrain
                .features
                .iter()
                .filter(|f| f.crossed_by(prev, t.centre))
            {
                match f.kind {
                    FeatureKind::River if !bridged => {
                        return illegal(format!(
                            "{} would evade across {}: a river halts a move (rivers are impassable to artillery)",
                            u.name, f.name
                        ));
                    }
                    FeatureKind::Stream if !bridged && !why.contains(&f.name) => {
                        why.push(f.name.clone())
                    }
                    _ => {}
                }
            }
            if b.terrain.level_at(t.centre) > b.terrain.level_at(prev)
                && b.terrain
                    .at(t.centre, &[FeatureKind::Hill])
                    .any(|h| h.steep)
            {
                let name = "a steep slope (going up)".to_string();
                if !why.contains(&name) {
                    why.push(name);
                }
            }
            prev = t.centre;
        }
        let penalty = if why.is_empty() {
            0.0
        } else if self.is_cavalry(&u) {
            self.num("difficult_cavalry")
        } else {
            self.num("difficult_foot")
        };
        let mut most = (full - penalty).max(self.num("minimum_move"));
        if self.is_artillery(&u) && !u.status.limbered {
            most = most.min(self.num("manhandle"));
        }
        let least = (full / 2.0).min(most);
        if distance < least - 1e-3 || distance > most + 1e-3 {
            let mut notes = Vec::new();
            if !why.is_empty() {
                notes.push(format!(
                    "difficult terrain or obstacle ({}) -{penalty:.0}\"",
                    why.join(", ")
                ));
            }
            if self.is_artillery(&u) && !u.status.limbered {
                notes.push(format!("manhandled {:.0}\" at most", self.num("manhandle")));
            }
            return illegal(format!(
                "{} evades between {least:.1}\" and {most:.1}\"{}",
                u.name,
                if notes.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", notes.join("; "))
                }
            ));
        }
        for o in b
            .alive()
            .filter(|o| o.side != u.side && !self.is_general(o))
        {
            let start = turned.overlap_depth(&o.base);
            if path
                .iter()
                .any(|t| t.overlap_depth(&o.base) > start + crate::rules::geometry::CONTACT_EPS)
            {
                return illegal(format!("{} would pass through {}", u.name, o.name));
            }
        }
        // Entering an enemy's 3" zone stops it there (it may settle a quarter inch).
        let zoc = b.scale.to_mm(self.num("zone_of_control"));
        for o in b
            .alive()
            .filter(|o| o.side != u.side && !self.is_general(o))
        {
            if u.base.within(&o.base, zoc) || turned.within(&o.base, zoc) {
                continue;
            }
            if let Some(i) = path.iter().position(|t| t.within(&o.base, zoc)) {
                let after = path[i..]
                    .windows(2)
                    .map(|w| w[0].centre.dist(w[1].centre))
                    .sum::<f32>();
                if after > b.scale.to_mm(self.num("zoc_settle")) {
                    return illegal(format!(
                        "{} would evade into the 3\" zone of control of {}: it must stop there",
                        u.name, o.name
                    ));
                }
            }
        }
        b.emit(
            out,
            Event::Moved {
                unit: id.clone(),
                from: u.base,
                to,
                distance,
                allowance: full,
                going: format!("evading {}", e.name),
                contact: None,
                manoeuvre: Some(format!("evades {distance:.1}\" away from {}", e.name)),
            },
        );
        // Evading cavalry becomes disrupted (001 Evade); guns that evade do not.
        if self.is_cavalry(&u) {
            self.disrupt(b, out, id, "evaded");
        }
        Ok(())
    }

    // ----- generals ------------------------------------------------------------------------

    /// Whether a general stands nearer an enemy unit than any of his own, were the enemy
    /// `margin` mm nearer.
    pub fn general_nearer_enemy(&self, b: &Battle, g: &Unit, margin: f32) -> bool {
        let near = |side_own: bool| {
            b.alive()
                .filter(|u| (u.side == g.side) == side_own && !self.is_general(u))
                .map(|u| u.base.distance(&g.base))
                .fold(f32::INFINITY, f32::min)
        };
        near(false) - margin < near(true)
    }

    /// Generals nearer an enemy unit than any of their own become casualties.
    pub fn general_casualties(&self, b: &mut Battle, out: &mut Vec<Event>) {
        let hit: Vec<UnitId> = b
            .alive()
            .filter(|g| self.is_general(g) && self.general_nearer_enemy(b, g, 0.0))
            .map(|g| g.id.clone())
            .collect();
        for id in hit {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id,
                    reason:
                        "a casualty: nearer the enemy than his own troops (he returns next turn)"
                            .into(),
                },
            );
        }
    }

    /// Generals of the moving side who were casualties return beside the own unit nearest
    /// where they fell.
    pub fn generals_return(&self, b: &mut Battle, out: &mut Vec<Event>) {
        let side = b.active;
        let back: Vec<(UnitId, Base)> = b
            .units
            .iter()
            .filter(|g| g.side == side && g.status.removed && self.is_general(g))
            .filter_map(|g| {
                let near = b
                    .alive()
                    .filter(|u| u.side == side && !self.is_general(u))
                    .min_by(|x, y| {
                        x.base
                            .distance(&g.base)
                            .total_cmp(&y.base.distance(&g.base))
                    })?;
                let gap = b.scale.to_mm(self.num("general_return")) / 2.0;
                // Behind the unit; where its rear is the table's edge, beside it or before it.
                let back = near.base.depth / 2.0 + g.base.depth / 2.0 + gap;
                let side = near.base.width / 2.0 + g.base.width / 2.0 + gap;
                let place = |x: f32, y: f32| Base {
                    centre: near.base.local(x, y),
                    facing: near.base.facing,
                    ..g.base
                };
                let spots = [(0.0, -back), (-side, 0.0), (side, 0.0), (0.0, back)];
                let to = spots
                    .iter()
                    .map(|&(x, y)| place(x, y))
                    .find(|p| b.table.holds(p))?;
                Some((g.id.clone(), to))
            })
            .collect();
        for (id, to) in back {
            b.emit(out, Event::Deployed { unit: id, to });
        }
    }

    // ----- the turn ------------------------------------------------------------------------

    pub fn end_phase(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        match b.phase {
            Phase::Movement => {
                b.begin_phase(out, Phase::Generals);
                self.generals_return(b, out);
            }
            Phase::Generals => {
                self.general_casualties(b, out);
                b.begin_phase(out, Phase::DefensiveFire);
            }
            Phase::DefensiveFire => {
                self.general_casualties(b, out);
                b.begin_phase(out, Phase::OffensiveFire);
            }
            Phase::OffensiveFire => {
                self.general_casualties(b, out);
                b.begin_phase(out, Phase::Assault);
            }
            Phase::Assault => {
                for _ in 0..(b.units.len() * 2 + 4) {
                    let Some((a, d)) = self.pending_assaults(b).into_iter().next() else {
                        break;
                    };
                    // No choice made: the attacker occupies where the table leaves it the choice
                    // (ruling after_assault).
                    self.assault(b, out, &a, &d, Some(false))?;
                    if b.is_over() {
                        return Ok(());
                    }
                }
                self.general_casualties(b, out);
                self.end_of_turn(b, out);
                self.next_turn(b, out);
            }
            Phase::GameOver => return Err(RuleError::GameOver),
            other => {
                return illegal(format!("a BBB turn has no {} step", other.name()));
            }
        }
        Ok(())
    }

    /// Low ammunition and silenced guns recover at the end of a turn: low ammunition by not
    /// moving and not firing in its own turn; either by retiring outside 6" of every enemy
    /// (a move or retire this turn, after the fire that left it so, that took it farther from
    /// the enemy than it began the turn and ended more than 6" from every enemy).
    fn end_of_turn(&self, b: &mut Battle, out: &mut Vec<Event>) {
        let side = b.active;
        let ammo_far = self.num("ammo_recover_distance");
        let gun_far = self.num("silenced_recover_distance");
        // Both sides: the other side's units may have retired too (evading, or retired by an
        // assault); only the moving side's units can miss their fire phase.
        let units: Vec<Unit> = b.alive().filter(|u| !self.is_general(u)).cloned().collect();
        for u in units {
            let far = self.nearest_enemy(b, &u);
            let still = u.side == side && !u.bound.moved && !u.bound.fired;
            let went_low = |e: &Event| matches!(e, Event::Supply { unit, ammo: crate::rules::model::Ammo::Low, .. } if *unit == u.id);
            let silenced = |e: &Event| matches!(e, Event::Silenced { unit, silenced: true, .. } if *unit == u.id);
            if u.status.ammo == crate::rules::model::Ammo::Low {
                let retired = far > ammo_far && self.retired_since(b, &u, went_low);
                if retired || still {
                    b.emit(
                        out,
                        Event::Supply {
                            unit: u.id.clone(),
                            ammo: crate::rules::model::Ammo::Full,
                            packs: u.status.packs,
                            why: if retired {
                                "retired outside 6\" of every enemy".into()
                            } else {
                                "did not move and missed a fire phase".into()
                            },
                        },
                    );
                }
            }
            if u.status.silenced && far > gun_far && self.retired_since(b, &u, silenced) {
                b.emit(
                    out,
                    Event::Silenced {
                        unit: u.id.clone(),
                        silenced: false,
                        why: "retired outside 6\" of every enemy".into(),
                    },
                );
            }
        }
    }

    /// Whether the unit moved or retired this turn after the last event that `made` it low or
    /// silenced (if that came this turn), and now stands farther from the enemy than it stood
    /// when the turn began: it retired.
    fn retired_since(&self, b: &Battle, u: &Unit, made: impl Fn(&Event) -> bool) -> bool {
        let mut moved = false;
        for e in b.log.iter().rev() {
            match e {
                Event::PhaseBegan {
                    phase: Phase::Movement,
                    ..
                } => break,
                Event::Moved { unit, .. } | Event::Recoiled { unit, .. } if *unit == u.id => {
                    moved = true
                }
                e if made(e) => break,
                _ => {}
            }
        }
        if !moved {
            return false;
        }
        let start = match (u.bound.turn_start, u.bound.recoil) {
            (Some(s), _) => s,
            (None, Some((dir, mm))) => Base {
                centre: u.base.centre.minus(dir.scale(mm)),
                ..u.base
            },
            (None, None) => return false,
        };
        let began = Unit {
            base: start,
            ..u.clone()
        };
        self.nearest_enemy(b, u) > self.nearest_enemy(b, &began) + 1e-3
    }

    fn next_turn(&self, b: &mut Battle, out: &mut Vec<Event>) {
        let next = Battle::enemy(b.active);
        let turn = if next == 0 { b.turn + 1 } else { b.turn };
        if turn > b.turn_limit {
            let (winner, reason) = self.result(b);
            b.emit(out, Event::GameOver { winner, reason });
            return;
        }
        b.emit(
            out,
            Event::PhaseBegan {
                turn,
                phase: Phase::Movement,
                side: next,
            },
        );
    }

    /// Who holds objective `i` (of the scenario's list) now: a side with a fighting unit within
    /// 3" and no enemy within 3"; otherwise its last holder (ruling objectives).
    pub fn holder(&self, b: &Battle, i: usize, at: Pt, owner: Side) -> Side {
        self.near_holder(b, at)
            .unwrap_or_else(|| self.last_holder(b, i).unwrap_or(owner))
    }

    /// The side alone within 3" of a place with a fighting unit, if one is.
    fn near_holder(&self, b: &Battle, at: Pt) -> Option<Side> {
        let r = b.scale.to_mm(self.num("objective_radius"));
        let near = |s: Side| {
            b.alive()
                .any(|u| u.side == s && !self.is_general(u) && u.base.distance_to_point(at) <= r)
        };
        match (near(0), near(1)) {
            (true, false) => Some(0),
            (false, true) => Some(1),
            _ => None,
        }
    }

    /// The side that last took objective `i`, as the log records it; none if it has not
    /// changed hands since the start.
    fn last_holder(&self, b: &Battle, i: usize) -> Option<Side> {
        b.log.iter().rev().find_map(|e| match e {
            Event::ObjectiveHeld { objective, side } if *objective == i => Some(*side),
            _ => None,
        })
    }

    /// Records each objective that changed hands with the last command: it stays with its new
    /// holder until the enemy takes it.
    pub fn record_holders(&self, b: &mut Battle, out: &mut Vec<Event>) {
        if b.is_over() {
            return;
        }
        let taken: Vec<(usize, Side)> = b
            .scenario
            .objectives
            .iter()
            .enumerate()
            .filter_map(|(i, o)| {
                let now = self.near_holder(b, Pt::new(o.at.0, o.at.1))?;
                (now != self.last_holder(b, i).unwrap_or(o.owner)).then_some((i, now))
            })
            .collect();
        for (objective, side) in taken {
            b.emit(out, Event::ObjectiveHeld { objective, side });
        }
    }

    /// The result at the turn limit: objectives held, then the share of bases lost.
    pub fn result(&self, b: &Battle) -> (Option<Side>, String) {
        let obj = &b.scenario.objectives;
        if !obj.is_empty() {
            let mut held = [0u32; 2];
            for (i, o) in obj.iter().enumerate() {
                held[self.holder(b, i, Pt::new(o.at.0, o.at.1), o.owner)] += 1;
            }
            if held[0] != held[1] {
                let w = if held[0] > held[1] { 0 } else { 1 };
                return (
                    Some(w),
                    format!(
                        "turn limit reached: {} holds {} of {} objectives",
                        b.sides[w].name,
                        held[w],
                        obj.len()
                    ),
                );
            }
        }
        let share = |s: Side| {
            let (lost, all) = self.bases_lost(b, s);
            lost as f32 / all.max(1) as f32
        };
        let (a, c) = (share(0), share(1));
        if (a - c).abs() < 1e-6 {
            return (
                None,
                "turn limit reached: objectives and losses even".into(),
            );
        }
        let w = if a < c { 0 } else { 1 };
        (
            Some(w),
            format!(
                "turn limit reached: {} lost {:.0}% of its bases, {} {:.0}%",
                b.sides[0].name,
                a * 100.0,
                b.sides[1].name,
                c * 100.0
            ),
        )
    }

    /// Bases lost and bases at the start, of a side's fighting units.
    pub fn bases_lost(&self, b: &Battle, side: Side) -> (u32, u32) {
        let mut lost = 0;
        let mut all = 0;
        for u in b
            .units
            .iter()
            .filter(|u| u.side == side && !self.is_general(u))
        {
            let n = self.strength(u);
            all += n;
            lost += if u.status.removed { n } else { self.lost(u) };
        }
        (lost, all)
    }

    /// A side with no fighting units left has lost.
    pub fn check_victory(&self, b: &mut Battle, out: &mut Vec<Event>) {
        if b.is_over() {
            return;
        }
        for s in 0..2 {
            let any = b.alive().any(|u| u.side == s && !self.is_general(u));
            if !any {
                let w = Battle::enemy(s);
                let reason = format!("{} has no units left", b.sides[s].name);
                b.emit(
                    out,
                    Event::GameOver {
                        winner: Some(w),
                        reason,
                    },
                );
                return;
            }
        }
    }
}

/// Samples a motion from `base` as a move measures it: pushes the bases along the way and
/// returns the ground covered, mm (the farthest any corner goes, piece by piece).
fn sample_motion(motion: &Motion, base: &Base, samples: &mut Vec<Base>) -> f32 {
    let n = (motion.deg.abs() / 5.0)
        .max(motion.shift.len() / 2.0)
        .ceil()
        .clamp(1.0, 400.0) as usize;
    let mut ground = 0.0;
    for k in 1..=n {
        let b0 = motion.apply(base, (k - 1) as f32 / n as f32);
        let b1 = motion.apply(base, k as f32 / n as f32);
        ground += b0
            .corners()
            .iter()
            .zip(b1.corners().iter())
            .map(|(p, q)| p.dist(*q))
            .fold(0.0, f32::max);
        samples.push(b1);
    }
    ground
}

/// A move's steps traced again from `from`, as its check traced them: the way (sampled), the
/// ground covered (mm; an about face covers none) and where it ended. None where a step no
/// longer makes sense (its target gone).
fn trace(b: &Battle, from: Base, steps: &[Step]) -> Option<(Vec<Base>, f32, Base)> {
    let mut base = from;
    let mut samples = vec![from];
    let mut ground = 0.0;
    for step in steps {
        let motion = match step {
            Step::ToContact(t) => {
                let t = b.unit(t).ok()?;
                let d = sweep_to_contact(&base, &t.base, 45.0)?;
                step_motion(b, &base, &Step::Advance(b.scale.from_mm(d))).ok()?
            }
            s => step_motion(b, &base, s).ok()?,
        };
        let g = sample_motion(&motion, &base, &mut samples);
        if !matches!(step, Step::AboutFace) {
            ground += g;
        }
        base = motion.apply(&base, 1.0);
        if let Step::ToContact(t) = step {
            let t = b.unit(t).ok()?;
            base = crate::rules::ruleset::common::square_up(&base, &t.base).0;
        }
    }
    Some((samples, ground, base))
}
