//! BBB movement: the move a command roll allows, measured with its penalties (front arc,
//! difficult terrain, rivers, roads, the minimum move), formation changes, limbering and the
//! moves a unit has made this turn.

use super::{Arm, Bbb7yw, N, illegal, in_phase, layout};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event, RuleError, Step};
use crate::rules::geometry::{Base, Contact, Pt, norm_deg};
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::ruleset::bbb::{Flag, GENERALS, MOVEMENT, Refusal};
use crate::rules::ruleset::common::{
    Going, Motion, MovePlan, front_contact, step_motion, sweep_to_contact,
};
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

/// A move's way, traced step by step from where the unit stands.
struct Walk {
    /// Where it ends (squared up against the enemy it contacts).
    base: Base,
    /// The ground covered, inches (an about face covers none).
    plain: f32,
    /// The bases along the way, from where it began.
    samples: Vec<Base>,
    /// It turned about: an about face, or a pivot past the about-turn angle.
    about: bool,
    /// The enemy it contacts, the base it takes against it and the contact made.
    contact: Option<(UnitId, Base, Contact)>,
}

impl Bbb7yw {
    /// The move a unit may still make this turn, inches: what its roll allowed (generals their
    /// full move in their step), less what it has used.
    pub fn remaining(&self, b: &Battle, u: &Unit) -> Result<f32, RuleError> {
        if self.is_general(u) {
            if b.phase != GENERALS {
                return illegal(
                    Refusal::GeneralsMoveInOwnStep,
                    format!("{} is a general: generals move in their own step", u.name),
                );
            }
            return Ok((self.full_move(u)? - u.bound.spent).max(0.0));
        }
        if b.phase != MOVEMENT {
            return Err(RuleError::WrongPhase {
                command: "move".into(),
                phase: b.phase,
            });
        }
        match u.bound.allowance {
            None => illegal(
                Refusal::MustRollForCommand,
                format!(
                    "{} must roll for command before it moves (Roll for command)",
                    u.name
                ),
            ),
            Some(a) if a <= 0.0 => illegal(
                Refusal::RollAllowsNoMove,
                format!("{}'s command roll allows no move this turn", u.name),
            ),
            Some(a) => Ok((a - u.bound.spent).max(0.0)),
        }
    }

    /// Checks a move of one unit and measures it with its penalties.
    pub fn plan(&self, b: &Battle, id: &UnitId, steps: &[Step]) -> Result<BbbPlan, RuleError> {
        let u = b.unit(id)?.clone();
        let left = self.may_plan(b, &u, steps)?;
        let walk = self.walk(b, &u, steps)?;
        let mut penalties = Vec::new();
        let mut cost = walk.plain;
        if let Some((p, words)) = self.arc_penalty(&u, &walk) {
            cost += p;
            penalties.push(words);
        }
        let (why, river) = self.ground(b, &u, &walk.samples);
        self.terrain_penalties(&u, &why, river, left, &mut cost, &mut penalties)?;
        let (plan_cost, road) = self.count_move(b, &u, &walk, left, river, cost, &mut penalties)?;
        // The table, other units and the enemy's zones of control.
        self.end_clear(b, &u, &walk)?;
        self.passes_no_enemy(b, &u, &walk.samples, walk.contact.as_ref())?;
        self.zone_stop(b, &u, &walk.samples, walk.contact.is_some())?;
        let going = Going {
            bad: !why.is_empty(),
            why,
            road,
        };
        Ok(BbbPlan {
            plan: MovePlan {
                ends: vec![(id.clone(), walk.base)],
                starts: vec![(id.clone(), u.base)],
                distance: walk.plain,
                allowance: left,
                going,
                contact: walk.contact,
                cost: 0,
                manoeuvre: None,
            },
            cost: plan_cost,
            penalties,
        })
    }

    /// Whether the unit may make a move of these steps at all, and what it has left to move.
    fn may_plan(&self, b: &Battle, u: &Unit, steps: &[Step]) -> Result<f32, RuleError> {
        if u.side != b.active {
            return illegal(
                Refusal::NotOfMovingSide,
                format!("{} is not the moving side's", u.name),
            );
        }
        let left = self.remaining(b, u)?;
        if u.formation == Formation::Deep && !(self.is_infantry(u) && u.has(Flag::Aggressive)) {
            return illegal(
                Refusal::OnlyAggressiveInDepth,
                format!(
                    "{}: only Aggressive infantry may move in depth; it may change formation",
                    u.name
                ),
            );
        }
        if self.is_artillery(u) && !u.status.limbered {
            let only_pivots = steps.iter().all(|s| matches!(s, Step::Pivot(_)));
            if only_pivots {
                return illegal(
                    Refusal::PivotByForm,
                    format!(
                        "{} pivots by Form with a turn (half a move), not by a move",
                        u.name
                    ),
                );
            }
        }
        if steps.is_empty() {
            return illegal(Refusal::NoSteps, "a move needs at least one step".into());
        }
        Ok(left)
    }

    /// Traces the steps from where the unit stands: the way, the ground covered, whether it
    /// turned about, and the enemy it meets (squared up against it).
    fn walk(&self, b: &Battle, u: &Unit, steps: &[Step]) -> Result<Walk, RuleError> {
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
                        return illegal(
                            Refusal::ContactNotLastStep,
                            "a move into contact must be the last step".into(),
                        );
                    }
                    self.to_contact(b, u, &base, tid)?
                }
                Step::AboutFace => {
                    about = true;
                    step_motion(b, &base, step)?
                }
                Step::Pivot(d) => {
                    if d.abs() > self.n(N::AboutTurnPivot) {
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
                    RuleError::refused(
                        Refusal::NotSquarely,
                        format!("{} does not meet {} squarely", u.name, t.name),
                    )
                })?;
                // Squared up against the face it meets, keeping its place along it (several
                // units may assault one).
                let (conformed, c) = crate::rules::ruleset::common::square_up(&base, &t.base);
                contact = Some((tid.clone(), conformed, c));
                base = conformed;
            }
        }
        Ok(Walk {
            base,
            plain,
            samples,
            about,
            contact,
        })
    }

    /// The motion of a step into contact with `tid`: straight ahead until it meets it.
    fn to_contact(
        &self,
        b: &Battle,
        u: &Unit,
        base: &Base,
        tid: &UnitId,
    ) -> Result<Motion, RuleError> {
        let t = b.unit(tid)?;
        if t.side == u.side {
            return illegal(Refusal::TargetIsAFriend, format!("{} is a friend", t.name));
        }
        if self.is_general(u) {
            return illegal(
                Refusal::GeneralsDoNotAssault,
                "generals do not assault".into(),
            );
        }
        if self.is_artillery(u) {
            return illegal(
                Refusal::ArtilleryDoesNotAssault,
                format!(
                    "{}: artillery does not move into contact; only infantry and cavalry assault",
                    u.name
                ),
            );
        }
        let Some(d) = sweep_to_contact(base, &t.base, 45.0) else {
            return illegal(
                Refusal::CannotReachStraightAhead,
                format!("{} cannot reach {} by going straight ahead", u.name, t.name),
            );
        };
        step_motion(b, base, &Step::Advance(b.scale.from_mm(d)))
    }

    /// The front-arc penalty, in inches and words, if the move takes the unit outside its
    /// front arc or turns it about.
    fn arc_penalty(&self, u: &Unit, walk: &Walk) -> Option<(f32, String)> {
        let arm = self.arm(u);
        let exempt_arc = self.marching(u)
            || matches!(
                arm,
                Some(Arm::Artillery | Arm::General | Arm::IrregularCavalry)
            );
        // The arc and an about turn are judged from where the unit stood when the turn began,
        // so a move split in several goes no farther round than one move would: a move is
        // penalised when it takes the unit outside the arc (or about) from inside it.
        let first = u.bound.turn_start.unwrap_or(u.base);
        let cos = self.n(N::FrontArc).to_radians().cos();
        let outside = |at: &Base| {
            let disp = at.front_centre().minus(first.front_centre());
            disp.len() > 0.5 && disp.dot(first.forward()) < disp.len() * cos
        };
        let turned =
            |at: &Base| norm_deg(at.facing - first.facing).abs() > self.n(N::AboutTurnPivot) + 1e-3;
        let off_arc = outside(&walk.base) && !outside(&u.base);
        let about = walk.about || (turned(&walk.base) && !turned(&u.base));
        if !self.is_general(u) && (about || (off_arc && !exempt_arc)) {
            Some((
                self.n(N::OutsideArcPenalty),
                format!(
                    "outside the front arc{} -{:.0}\"",
                    if about { " (about turn)" } else { "" },
                    self.n(N::OutsideArcPenalty)
                ),
            ))
        } else {
            None
        }
    }

    /// The ground along the way: the difficult terrain and obstacles crossed (by name), and
    /// whether it fords a river.
    fn ground(&self, b: &Battle, u: &Unit, samples: &[Base]) -> (Vec<String>, bool) {
        const DIFFICULT: [FeatureKind; 3] =
            [FeatureKind::Marsh, FeatureKind::Woods, FeatureKind::Town];
        let mut why: Vec<String> = Vec::new();
        let mut river = false;
        let mut bridge = false;
        // Only the features near the way can hold or be crossed by any part of it.
        let near = b.terrain.near(samples);
        let at = |p: Pt, kinds: &'static [FeatureKind]| {
            near.iter()
                .copied()
                .filter(move |f| kinds.contains(&f.kind) && f.contains(p))
        };
        let level_at = |p: Pt| {
            at(p, &[FeatureKind::Hill])
                .map(|f| f.level)
                .max()
                .unwrap_or(0)
        };
        for w in samples.windows(2) {
            for f in at(w[1].centre, &DIFFICULT) {
                if !why.contains(&f.name) {
                    why.push(f.name.clone());
                }
            }
            for f in near.iter() {
                if !f.crossed_by(w[0].centre, w[1].centre) {
                    continue;
                }
                let on_bridge = at(w[1].centre, &[FeatureKind::Bridge]).next().is_some()
                    || at(w[0].centre, &[FeatureKind::Bridge]).next().is_some();
                match f.kind {
                    FeatureKind::River if on_bridge && self.marching(u) => bridge = true,
                    FeatureKind::River => river = true,
                    FeatureKind::Stream if on_bridge && self.marching(u) => bridge = true,
                    FeatureKind::Stream if !why.contains(&f.name) => why.push(f.name.clone()),
                    _ => {}
                }
            }
            let (l0, l1) = (level_at(w[0].centre), level_at(w[1].centre));
            if l1 > l0 && at(w[1].centre, &[FeatureKind::Hill]).any(|h| h.steep) {
                let name = "a steep slope (going up)".to_string();
                if !why.contains(&name) {
                    why.push(name);
                }
            }
        }
        if bridge && !self.marching(u) {
            why.push("a bridge (not in column of march or limbered)".into());
        }
        (why, river)
    }

    /// A river forded takes the whole move (and guns cannot); difficult terrain or an obstacle
    /// costs 3" (foot and guns) or 6" (cavalry).
    fn terrain_penalties(
        &self,
        u: &Unit,
        why: &[String],
        river: bool,
        left: f32,
        cost: &mut f32,
        penalties: &mut Vec<String>,
    ) -> Result<(), RuleError> {
        if river {
            if self.is_artillery(u) {
                return illegal(
                    Refusal::RiverImpassableToArtillery,
                    format!("{}: rivers are impassable to artillery", u.name),
                );
            }
            let full = self.full_move(u)?;
            if u.bound.allowance.is_some_and(|a| a < full) || u.bound.spent > 0.0 {
                return illegal(
                    Refusal::RiverTakesFullMove,
                    format!(
                        "{}: crossing a river takes a full move, and ends it",
                        u.name
                    ),
                );
            }
            *cost = cost.max(left);
            penalties.push("crossing a river: the whole move".into());
        }
        if !why.is_empty() && !self.is_general(u) && !river {
            let p = if self.is_cavalry(u) {
                self.n(N::DifficultCavalry)
            } else {
                self.n(N::DifficultFoot)
            };
            *cost += p;
            penalties.push(format!(
                "difficult terrain or obstacle ({}) -{p:.0}\"",
                why.join(", ")
            ));
        }
        Ok(())
    }

    /// Holds the move's cost against what the unit may still move, `left`: a column or
    /// limbered guns keeping to a road go twice as far without penalties, unlimbered guns are
    /// manhandled, and the minimum move is always allowed. Returns what the move counts and
    /// whether it kept to a road.
    #[expect(
        clippy::too_many_arguments,
        reason = "the steps of one move's count, each read once"
    )]
    fn count_move(
        &self,
        b: &Battle,
        u: &Unit,
        walk: &Walk,
        left: f32,
        river: bool,
        mut cost: f32,
        penalties: &mut Vec<String>,
    ) -> Result<(f32, bool), RuleError> {
        let plain = walk.plain;
        // Roads double the pace of a column or limbered guns that keep to them.
        // A river forded (not bridged) halts the move whatever road leads to it.
        let road =
            self.marching(u) && !river && walk.samples.iter().all(|s| b.terrain.on_road(s.centre));
        let mut allowance = left;
        // Unlimbered guns are manhandled: 3" at most.
        if self.is_artillery(u) && !u.status.limbered {
            let most = (self.n(N::Manhandle) - u.bound.spent).max(0.0);
            allowance = allowance.min(most);
            penalties.push(format!(
                "manhandled ({:.0}\" at most; no offensive fire)",
                self.n(N::Manhandle)
            ));
        }
        if road {
            allowance *= self.n(N::RoadFactor);
            cost = plain;
            penalties.clear();
        }
        // The minimum move is always 3" (when the roll allowed a move at all and nothing of it
        // is used yet): penalties never take a unit below it.
        let min = self.n(N::MinimumMove).min(allowance.max(0.0));
        let within_minimum = !road && u.bound.spent <= 0.0 && left > 0.0 && plain <= min + 0.01;
        let plan_cost = if road {
            cost / self.n(N::RoadFactor)
        } else if within_minimum {
            cost.min(left)
        } else {
            cost
        };
        if cost > allowance + 0.01 && !within_minimum {
            return illegal(
                Refusal::BeyondAllowance { more: allowance },
                format!(
                    "{} may move {allowance:.1}\" more; this move counts {cost:.1}\"{}",
                    u.name,
                    if penalties.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", penalties.join("; "))
                    }
                ),
            );
        }
        if road {
            penalties.push(format!("{plain:.1}\" on the road at double pace"));
        }
        Ok((plan_cost, road))
    }

    /// The move ends on the table and on no other unit (but the enemy it contacts).
    fn end_clear(&self, b: &Battle, u: &Unit, walk: &Walk) -> Result<(), RuleError> {
        let base = walk.base;
        let inside = base
            .corners()
            .iter()
            .all(|p| p.x >= 0.0 && p.y >= 0.0 && p.x <= b.table.width && p.y <= b.table.height);
        if !inside {
            return illegal(
                Refusal::WouldLeaveTable,
                format!("{} would leave the table", u.name),
            );
        }
        for o in b.alive().filter(|o| o.id != u.id) {
            if self.is_general(o) || self.is_general(u) {
                continue;
            }
            let contacted = walk.contact.as_ref().is_some_and(|c| c.0 == o.id);
            if !contacted && o.base.overlaps(&base) {
                return illegal(
                    Refusal::WouldEndOnUnit,
                    format!("{} would end on {}", u.name, o.name),
                );
            }
        }
        Ok(())
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
                going: going.into(),
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
        in_phase(b, MOVEMENT, "change formation")?;
        let u = b.unit(id)?.clone();
        crate::rules::ruleset::common::own_active(b, &u)?;
        if self.is_general(&u) {
            return illegal(
                Refusal::GeneralsHaveNoFormation,
                "generals have no formation".into(),
            );
        }
        let left = self.remaining(b, &u)?;
        if !turn.is_finite() || ![0.0, 90.0, -90.0, 180.0].contains(&turn) {
            return illegal(
                Refusal::NotAQuarterTurn,
                "a turn is 0, 90, -90 or 180 degrees".into(),
            );
        }
        let full = self.full_move(&u)?;
        let (cost, what) = self.form_cost(&u, formation, turn, full)?;
        if u.bound.spent > 0.0 || left + 1e-3 < cost.min(u.bound.allowance.unwrap_or(0.0)) {
            return illegal(
                Refusal::NotEnoughMoveLeft,
                format!(
                    "{} {what} for {cost:.0}\" of its move: it has {left:.1}\" left",
                    u.name
                ),
            );
        }
        if self.is_artillery(&u) && left + 1e-3 < cost {
            return illegal(
                Refusal::PivotNeedsHalfMove,
                format!(
                    "{}: a pivot takes half a move ({cost:.0}\"); it has {left:.1}\"",
                    u.name
                ),
            );
        }
        if !self.is_artillery(&u) && u.bound.allowance.is_some_and(|a| a + 1e-3 < full) {
            return illegal(
                Refusal::FormationNeedsFullMove,
                format!(
                    "{}: a formation change takes a full move; its roll allowed {left:.1}\"",
                    u.name
                ),
            );
        }
        let size = self.base_of(&u)?;
        let to = layout::rebuild(&u, size, formation, u.stands.len(), turn);
        if !b.table.holds(&to) {
            return illegal(
                Refusal::WouldLeaveTable,
                format!("{} would leave the table", u.name),
            );
        }
        for o in b.alive().filter(|o| o.id != u.id && !self.is_general(o)) {
            if o.base.overlaps(&to) {
                return illegal(
                    Refusal::WouldEndOnUnit,
                    format!("{} would end on {}", u.name, o.name),
                );
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

    /// What a change of formation costs of the move, and the words for it: a pivot of guns
    /// half a move, a change of formation (or an about turn) the full move; or why the unit
    /// may not take that formation.
    fn form_cost(
        &self,
        u: &Unit,
        formation: Formation,
        turn: f32,
        full: f32,
    ) -> Result<(f32, &'static str), RuleError> {
        Ok(if self.is_artillery(u) {
            if formation != Formation::Line {
                return illegal(
                    Refusal::ArtilleryLimbersInstead,
                    format!(
                        "{}: artillery limbers and unlimbers instead of changing formation",
                        u.name
                    ),
                );
            }
            if turn == 0.0 {
                return illegal(
                    Refusal::ArtilleryPivotNeedsTurn,
                    "an artillery pivot needs a turn".into(),
                );
            }
            (full / 2.0, "pivots")
        } else {
            if formation == Formation::Deep && !(self.is_infantry(u) && u.has(Flag::Aggressive)) {
                return illegal(
                    Refusal::OnlyAggressiveInDepth,
                    format!("{}: only Aggressive infantry may move in depth", u.name),
                );
            }
            if !matches!(
                formation,
                Formation::Line | Formation::Column | Formation::Deep
            ) {
                return illegal(
                    Refusal::NotABbbFormation,
                    format!(
                        "{}: BBB units stand in line, column of march or in depth",
                        u.name
                    ),
                );
            }
            if formation == u.formation && turn == 0.0 {
                return illegal(
                    Refusal::AlreadyInFormation,
                    format!("{} is already in that formation", u.name),
                );
            }
            (full, "changes formation")
        })
    }

    /// Limbers or unlimbers: half a move.
    pub fn limber(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        limber: bool,
    ) -> Result<(), RuleError> {
        in_phase(b, MOVEMENT, if limber { "limber" } else { "unlimber" })?;
        let u = b.unit(id)?.clone();
        crate::rules::ruleset::common::own_active(b, &u)?;
        if !self.is_artillery(&u) {
            return illegal(
                Refusal::NotArtillery,
                format!("{} is not artillery", u.name),
            );
        }
        if u.status.limbered == limber {
            return illegal(
                Refusal::AlreadyLimberedSo,
                format!(
                    "{} is already {}",
                    u.name,
                    if limber { "limbered" } else { "unlimbered" }
                ),
            );
        }
        let left = self.remaining(b, &u)?;
        // Horse artillery may unlimber at the end of its move (up to 6") at no further cost,
        // and fire at half rate (ruling horse_artillery_move).
        let horse_after_move = !limber
            && self.troop(&u)?.gun == Some(super::Gun::Horse)
            && u.bound.moved
            && self.moved_inches(b, &u) <= self.n(N::HorseUnlimberMove) + 0.01;
        let half = if horse_after_move {
            0.0
        } else {
            self.full_move(&u)? / 2.0
        };
        if left + 1e-3 < half {
            return illegal(
                Refusal::LimberingNeedsHalfMove,
                format!(
                    "{}: limbering or unlimbering takes half a move ({half:.0}\"); it has {left:.1}\"",
                    u.name
                ),
            );
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
                    phase: MOVEMENT, ..
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
}

/// Samples a motion from `base` as a move measures it: pushes the bases along the way and
/// returns the ground covered, mm (the farthest any corner goes, piece by piece).
fn sample_motion(motion: &Motion, base: &Base, samples: &mut Vec<Base>) -> f32 {
    let n = (motion.deg.abs() / 5.0)
        .max(motion.shift.len() / 2.0)
        .ceil()
        .clamp(1.0, 400.0) as usize;
    let mut ground = 0.0;
    // Each piece's start is the last piece's end: placed and cornered once.
    let mut was = motion.apply(base, 0.0).corners();
    for k in 1..=n {
        let b1 = motion.apply(base, k as f32 / n as f32);
        let now = b1.corners();
        ground += was
            .iter()
            .zip(now.iter())
            .map(|(p, q)| p.dist(*q))
            .fold(0.0, f32::max);
        was = now;
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
