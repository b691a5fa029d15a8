//! Movement: measured moves of a unit or a group by the furthest corner, going and allowance,
//! collisions, threat zones (`zones`), moving into contact and conforming, limbering, and the move
//! command as the game carries it out.

use super::{Dbn, DbnGame, N, Supplement, TroopKind, TroopTrait};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError, Step};
use crate::rules::geometry::{Base, Bounds, Contact, Edge, norm_deg};
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::ruleset::common::{
    Going, GoingKind, Motion, MovePlan, conform, front_contact, manoeuvre_words, no_contact_words,
    own_active, step_motion, sweep_to_contact,
};
use crate::rules::ruleset::dbn::{Flag, MOVEMENT, Refusal};
use crate::rules::tagged::Tagged;
use crate::rules::terrain::FeatureKind;

impl Dbn {
    fn motion(&self, b: &Battle, frame: &Base, step: &Step) -> Result<Motion, RuleError> {
        step_motion(b, frame, step)
    }

    /// The contact a move ends in: the lead's front edge against the charged enemy, or any
    /// enemy edge a member's front touches; with the conformed base where there is room.
    fn end_contact(
        &self,
        b: &Battle,
        units: &[Unit],
        bases: &[Base],
        charge_target: Option<&UnitId>,
    ) -> Result<Option<(UnitId, Base, Contact)>, RuleError> {
        let lead = &units[0];
        let mut contact = None;
        if let Some(tid) = charge_target {
            let target = b.unit(tid)?;
            let c = front_contact(&bases[0], &target.base, self.n(N::SquareUpMax)).ok_or_else(
                || {
                    RuleError::refused(
                        Refusal::DoesNotReachFront,
                        format!(
                            "{} does not reach the front edge contact with {}",
                            lead.name, target.name
                        ),
                    )
                },
            )?;
            let conformed = conform(&bases[0], &target.base, c);
            let conformed_ok = b
                .alive()
                .all(|o| o.id == lead.id || o.id == target.id || !conformed.overlaps(&o.base))
                && b.table.holds(&conformed);
            contact = Some((
                tid.clone(),
                if conformed_ok { conformed } else { bases[0] },
                c,
            ));
        } else {
            for (i, base) in bases.iter().enumerate() {
                if let Some(e) = b.alive().find(|e| {
                    e.side != units[i].side
                        && e.base
                            .touched_by(base)
                            .is_some_and(|c| c.own_edge == Edge::Front)
                }) {
                    let c = e.base.touched_by(base).unwrap_or(Contact {
                        edge: Edge::Front,
                        own_edge: Edge::Front,
                        overlap: 0.0,
                    });
                    let conformed = conform(base, &e.base, c);
                    let conformed_ok = b.alive().all(|o| {
                        o.id == units[i].id || o.id == e.id || !conformed.overlaps(&o.base)
                    }) && b.table.holds(&conformed);
                    if i == 0 {
                        contact = Some((
                            e.id.clone(),
                            if conformed_ok { conformed } else { *base },
                            c,
                        ));
                    }
                }
            }
        }
        Ok(contact)
    }

    /// The enemy each unit of a move meets with its own front edge where the move ends (`ends`,
    /// conformed): the lead's is the move's contact; each other member of a group has its own.
    pub fn member_contacts(
        &self,
        b: &Battle,
        ends: &[(UnitId, Base)],
        lead: Option<&(UnitId, Base, Contact)>,
    ) -> Vec<Option<(UnitId, Contact)>> {
        ends.iter()
            .enumerate()
            .map(|(i, (id, end))| {
                if i == 0 {
                    return lead.map(|(t, _, c)| (t.clone(), *c));
                }
                let side = b.unit(id).ok()?.side;
                b.alive()
                    .filter(|e| e.side != side)
                    .filter_map(|e| {
                        e.base
                            .touched_by(end)
                            .filter(|c| c.own_edge == Edge::Front)
                            .map(|c| (e.id.clone(), c))
                    })
                    .max_by(|x, y| x.1.overlap.total_cmp(&y.1.overlap))
            })
            .collect()
    }

    /// The going over every sampled position of a move; refused off the table or across a
    /// river but by a bridge.
    fn going_of(
        &self,
        b: &Battle,
        units: &[Unit],
        samples: &[Vec<Base>],
    ) -> Result<Going, RuleError> {
        let mut why: Vec<&str> = Vec::new();
        let mut road = true;
        for (i, s) in samples.iter().enumerate() {
            // Open ground all the way: no feature's box meets the way's, so none is touched.
            let open = b.terrain.near(s).is_empty();
            for base in s {
                if !open {
                    why.extend(self.bad_going_crossed(b, base));
                }
                if open || !b.terrain.on_road(base.centre) {
                    road = false;
                }
                if !b.table.holds(base) {
                    return Err(RuleError::refused(
                        Refusal::WouldLeaveTable,
                        format!("{} would leave the table", units[i].name),
                    ));
                }
                if open {
                    continue;
                }
                for river in b.terrain.touching(base, &[FeatureKind::River]) {
                    if !b.terrain.on_bridge(base) {
                        return Err(RuleError::refused(
                            Refusal::RiverWithoutBridge,
                            format!(
                                "{} cannot cross {} except by a bridge",
                                units[i].name, river.name
                            ),
                        ));
                    }
                }
            }
        }
        why.sort();
        why.dedup();
        // A move wholly along a road, bridge or causeway goes at the road rate through
        // whatever the road crosses (ruling going).
        if road {
            why.clear();
        }
        let going = Going {
            bad: !why.is_empty(),
            road,
            why: why.into_iter().map(str::to_string).collect(),
        };
        Ok(going)
    }

    /// Why a move's allowance is what it is, in a player's words: the going, and where the
    /// move meets the bad going that set it ("bad going: the move ends in Reichenau, a
    /// village").
    fn allowance_words(&self, b: &Battle, going: &Going, ends: &[Base], bonus: bool) -> String {
        let kind = |name: &str| {
            b.terrain
                .features
                .iter()
                .find(|f| f.name == name)
                .map_or("", |f| match f.kind {
                    FeatureKind::Woods => ", a wood",
                    FeatureKind::Hill => ", a steep hill",
                    FeatureKind::Town => ", a town",
                    FeatureKind::Village => ", a village",
                    FeatureKind::Marsh => ", a marsh",
                    FeatureKind::Rough => ", rough ground",
                    FeatureKind::Fortification => ", a fortification",
                    FeatureKind::River => ", a river",
                    FeatureKind::Stream => ", a stream",
                    FeatureKind::Road | FeatureKind::Bridge | FeatureKind::Causeway => "",
                })
        };
        let mut words = if going.bad {
            let at_end: Vec<&str> = ends
                .iter()
                .flat_map(|e| self.bad_going_crossed(b, e))
                .collect();
            let (ending, crossed): (Vec<&String>, Vec<&String>) =
                going.why.iter().partition(|n| at_end.contains(&n.as_str()));
            let mut parts = Vec::new();
            if !ending.is_empty() {
                let names: Vec<String> = ending.iter().map(|n| format!("{n}{}", kind(n))).collect();
                parts.push(format!("the move ends in {}", names.join(" and ")));
            }
            if !crossed.is_empty() {
                let names: Vec<String> =
                    crossed.iter().map(|n| format!("{n}{}", kind(n))).collect();
                parts.push(format!("it passes through {}", names.join(" and ")));
            }
            format!("the bad going rate: {}", parts.join("; "))
        } else if going.road {
            "the road rate: the whole move is along a road".to_string()
        } else {
            "the good going rate".to_string()
        };
        if bonus {
            words += ", with the charge bonus";
        }
        words
    }

    /// The allowance of a group in this going: its slowest member's.
    fn allowance_of(&self, units: &[Unit], going: &Going) -> Result<f32, RuleError> {
        let mut allowance = f32::INFINITY;
        for u in units {
            let t = self.acting_troop(u);
            let rate = if going.bad {
                t.bg
            } else if going.road {
                t.road
            } else {
                t.gg
            };
            let Some(rate) = rate else {
                return Err(RuleError::refused(
                    Refusal::CannotEnterGoing,
                    format!("{} cannot enter {}", t.name, going.describe()),
                ));
            };
            allowance = allowance.min(rate);
        }
        if allowance <= 0.0 {
            return Err(RuleError::refused(
                Refusal::CannotMove,
                format!("{} cannot move", units[0].name),
            ));
        }
        Ok(allowance)
    }

    /// Computes a move of one unit or a group: final bases, distance by the furthest corner,
    /// going and allowance, collisions, table edge, rivers, threat zones and contact.
    /// Nothing changes: the caller applies the plan.
    /// `measured` is false for moves whose distance the rules do not measure (a Musket wheel or
    /// about face made instead of moving).
    pub fn plan_move(
        &self,
        b: &Battle,
        ids: &[UnitId],
        steps: &[Step],
        charge_target: Option<&UnitId>,
        measured: bool,
    ) -> Result<MovePlan, RuleError> {
        let units = Self::moving_group(b, ids, steps, charge_target)?;
        let lead = units[0].clone();
        let mut sweep = self.sweep_steps(b, &units, steps)?;
        // Moving into contact: straight ahead until the front edge meets the target.
        if let Some(tid) = charge_target {
            self.sweep_into_contact(b, &lead, tid, &mut sweep)?;
        }
        let distance_mm = sweep
            .travel
            .iter()
            .flat_map(|t| t.iter())
            .fold(0f32, |a, x| a.max(*x))
            + b.scale.to_mm(sweep.half_speed);
        let distance = b.scale.from_mm(distance_mm);

        let going = self.going_of(b, &units, &sweep.samples)?;
        let (allowance, bonus_taken) =
            self.allowance_with_bonus(&units, &going, distance, charge_target.is_some())?;
        if measured && distance > allowance + 0.5 {
            return Err(RuleError::TooFar {
                unit: lead.id.clone(),
                name: lead.name.clone(),
                distance,
                allowance,
                units: b.scale.unit.to_string(),
                why: self.allowance_words(b, &going, &sweep.bases, bonus_taken),
            });
        }
        self.check_collisions(b, ids, &units, &sweep.samples)?;

        let bases = sweep.bases;
        let contact = self.end_contact(b, &units, &bases, charge_target)?;
        let starts = units.iter().map(|u| (u.id.clone(), u.base)).collect();
        let mut ends: Vec<(UnitId, Base)> = units.iter().map(|u| u.id.clone()).zip(bases).collect();
        if let Some((target, conformed, _)) = &contact {
            conform_group(b, &mut ends, ids, target, conformed);
        }
        // Each unit of a group is checked against the enemy its own front meets.
        let own: Vec<Option<UnitId>> = self
            .member_contacts(b, &ends, contact.as_ref())
            .into_iter()
            .map(|c| c.map(|(t, _)| t))
            .collect();
        self.check_threat_zones(b, &units, steps, &sweep.samples, &own)?;
        let cost = self.group_move_cost(b, &units);
        Ok(MovePlan {
            ends,
            starts,
            distance,
            allowance,
            going,
            contact,
            cost,
            manoeuvre: None,
        })
    }

    /// The units of a move, checked: at least one, each named once, all facing the same way,
    /// with at least one step (or a target to move into contact with) and at most 16.
    fn moving_group(
        b: &Battle,
        ids: &[UnitId],
        steps: &[Step],
        charge_target: Option<&UnitId>,
    ) -> Result<Vec<Unit>, RuleError> {
        if ids.is_empty() {
            return Err(RuleError::refused(
                Refusal::GroupNeedsAUnit,
                "a group move needs at least one unit".into(),
            ));
        }
        if steps.is_empty() && charge_target.is_none() {
            return Err(RuleError::refused(
                Refusal::NoSteps,
                "a move needs at least one step".into(),
            ));
        }
        if steps.len() > 16 {
            return Err(RuleError::refused(
                Refusal::TooManySteps,
                "a move has at most 16 steps".into(),
            ));
        }
        let mut units: Vec<Unit> = Vec::new();
        for id in ids {
            let u = b.unit(id)?.clone();
            if units.iter().any(|x| x.id == u.id) {
                return Err(RuleError::refused(
                    Refusal::NamedTwice,
                    format!("{} is named twice in the group", u.name),
                ));
            }
            units.push(u);
        }
        let lead = &units[0];
        if units
            .iter()
            .any(|u| norm_deg(u.base.facing - lead.base.facing).abs() > 1.0)
        {
            return Err(RuleError::refused(
                Refusal::GroupFacesDiffer,
                "a group must all face the same way".into(),
            ));
        }
        Ok(units)
    }

    /// Carries the group's bases through its steps, noting each corner's travel, the bases
    /// passed on the way and the paces a slow unit goes back.
    fn sweep_steps(&self, b: &Battle, units: &[Unit], steps: &[Step]) -> Result<Sweep, RuleError> {
        let mut frame = group_frame(units);
        let bases: Vec<Base> = units.iter().map(|u| u.base).collect();
        let mut sweep = Sweep {
            travel: vec![[0f32; 4]; units.len()],
            samples: bases.iter().map(|x| vec![*x]).collect(),
            bases,
            half_speed: 0.0,
        };
        let slow_back = units
            .iter()
            .any(|u| self.has_trait(u, TroopTrait::BackwardHalfSpeed));
        for step in steps {
            let m = self.motion(b, &frame, step)?;
            let n = (m.deg.abs() / 5.0)
                .max(m.shift.len() / 4.0)
                .ceil()
                .clamp(1.0, 400.0) as usize;
            for (i, base) in sweep.bases.iter_mut().enumerate() {
                for (k, c) in base.corners().iter().enumerate() {
                    sweep.travel[i][k] += m.travel(*c, base.centre);
                }
                for j in 1..=n {
                    sweep.samples[i].push(m.apply(base, j as f32 / n as f32));
                }
                *base = m.apply(base, 1.0);
            }
            if let Step::Backstep(d) = step
                && slow_back
            {
                sweep.half_speed += d;
            }
            frame = m.apply(&frame, 1.0);
        }
        Ok(sweep)
    }

    /// Carries the group on straight ahead until the lead's front edge meets the target.
    fn sweep_into_contact(
        &self,
        b: &Battle,
        lead: &Unit,
        tid: &UnitId,
        sweep: &mut Sweep,
    ) -> Result<(), RuleError> {
        let target = b.unit(tid)?;
        if target.side == lead.side {
            return Err(RuleError::refused(
                Refusal::TargetIsAFriend,
                format!("{} is a friend", target.name),
            ));
        }
        if !target.alive() {
            return Err(RuleError::refused(
                Refusal::TargetNotOnTable,
                format!("{} is no longer on the table", target.name),
            ));
        }
        let start = sweep.bases[0];
        let max_off = self.n(N::SquareUpMax);
        let dist = sweep_to_contact(&start, &target.base, max_off).ok_or_else(|| {
            RuleError::refused(
                Refusal::NoContact,
                no_contact_words(&start, &target.base, &lead.name, &target.name, max_off),
            )
        })?;
        let shift = start.forward().scale(dist);
        let n = (dist / 4.0).ceil().clamp(1.0, 400.0) as usize;
        for (i, base) in sweep.bases.iter_mut().enumerate() {
            for t in sweep.travel[i].iter_mut() {
                *t += dist;
            }
            for j in 1..=n {
                sweep.samples[i].push(Base {
                    centre: base.centre.plus(shift.scale(j as f32 / n as f32)),
                    ..*base
                });
            }
            base.centre = base.centre.plus(shift);
        }
        Ok(())
    }

    /// The group's allowance for this going, with the charge bonus where it is taken (and
    /// whether it was).
    fn allowance_with_bonus(
        &self,
        units: &[Unit],
        going: &Going,
        distance: f32,
        charging: bool,
    ) -> Result<(f32, bool), RuleError> {
        let mut allowance = self.allowance_of(units, going)?;
        // Foot in line moving into close combat in good going may go the data's charge bonus
        // further (not in attack column, nor dismounted).
        let mut bonus_taken = false;
        if let Some(bonus) = self.extras.charge_bonus
            && charging
            && bonus > 0.0
            && !going.bad
            && !going.road
            && units.iter().all(|u| {
                self.has_trait(u, TroopTrait::ChargeBonus) && u.formation == Formation::Line
            })
            && distance > allowance + 0.5
        {
            allowance += bonus;
            bonus_taken = true;
        }
        Ok((allowance, bonus_taken))
    }

    /// Collisions with every other unit along the way: friends that may be passed through
    /// (skirmishers, commanders) only where the move ends.
    fn check_collisions(
        &self,
        b: &Battle,
        ids: &[UnitId],
        units: &[Unit],
        samples: &[Vec<Base>],
    ) -> Result<(), RuleError> {
        for (i, s) in samples.iter().enumerate() {
            // Only a base whose circle meets the box round the way can touch it.
            let way = Bounds::of(s);
            for other in b.alive() {
                if way.as_ref().is_some_and(|w| !w.meets(&other.base, 0.0))
                    || ids.contains(&other.id)
                {
                    continue;
                }
                let passable =
                    other.side == units[i].side && self.may_pass_through(&units[i], other);
                let hit = if passable {
                    s.last().is_some_and(|base| base.overlaps(&other.base))
                } else {
                    s.iter().skip(1).any(|base| base.overlaps(&other.base))
                };
                if hit {
                    let (kind, verb) = if passable {
                        (Refusal::WouldEndOn, "would end on")
                    } else {
                        (Refusal::WouldPassThrough, "would pass through")
                    };
                    return Err(RuleError::refused(
                        kind,
                        format!("{} {verb} {}", units[i].name, other.name),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Limber or unlimber artillery.
    pub fn limber(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        limber: bool,
    ) -> Result<(), RuleError> {
        if b.phase != MOVEMENT {
            return Err(RuleError::WrongPhase {
                command: if limber { "limber" } else { "unlimber" }.into(),
                phase: b.phase,
            });
        }
        let u = b.unit(id)?.clone();
        own_active(b, &u)?;
        if !self.is_artillery(&u) {
            return Err(RuleError::refused(
                Refusal::NotArtillery,
                format!("{} is not artillery", u.name),
            ));
        }
        if u.status.limbered == limber {
            return Err(RuleError::refused(
                Refusal::AlreadyLimberedSo,
                format!(
                    "{} is already {}",
                    u.name,
                    if limber { "limbered" } else { "unlimbered" }
                ),
            ));
        }
        if u.bound.limber_changed {
            return Err(RuleError::AlreadyActed {
                unit: id.clone(),
                what: "limbered or unlimbered".into(),
            });
        }
        if u.bound.moved {
            return Err(RuleError::AlreadyActed {
                unit: id.clone(),
                what: "moved".into(),
            });
        }
        if self.in_close_combat(b, &u) {
            return Err(RuleError::refused(
                Refusal::InCloseCombat,
                format!("{} is in close combat", u.name),
            ));
        }
        let cost = self.n(if limber {
            N::LimberCost
        } else {
            N::UnlimberCost
        }) as i32;
        self.spend(
            b,
            out,
            cost,
            format!("{} {}", if limber { "limber" } else { "unlimber" }, u.name),
            u.division,
        )?;
        b.emit(
            out,
            if limber {
                Event::Limbered { unit: id.clone() }
            } else {
                Event::Unlimbered { unit: id.clone() }
            },
        );
        Ok(())
    }
}

/// The lead conforms to the enemy it contacts; the same free adjustment carries the rest of the
/// group unless it would overlap or leave the table.
fn conform_group(
    b: &Battle,
    ends: &mut [(UnitId, Base)],
    ids: &[UnitId],
    target: &UnitId,
    conformed: &Base,
) {
    // (The flank supporting unit of a DB7YW charge moves with it this way.)
    let from = ends[0].1;
    let turn = conformed.facing - from.facing;
    let moved: Vec<Base> = ends
        .iter()
        .map(|(_, base)| {
            let mut x = base.rotated_about(from.centre, turn);
            x.centre = x.centre.plus(conformed.centre.minus(from.centre));
            x
        })
        .collect();
    let clear = moved.iter().skip(1).all(|m| {
        b.table.holds(m)
            && b.alive()
                .all(|o| ids.contains(&o.id) || &o.id == target || !m.overlaps(&o.base))
    });
    ends[0].1 = *conformed;
    if clear {
        for (end, m) in ends.iter_mut().zip(moved).skip(1) {
            end.1 = m;
        }
    }
}

/// The oriented box around a group facing one way: its front line and frontage.
fn group_frame(units: &[Unit]) -> Base {
    let lead = units[0].base;
    let (mut lo_x, mut hi_x, mut lo_y, mut hi_y) = (
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::INFINITY,
        f32::NEG_INFINITY,
    );
    for u in units {
        for c in u.base.corners() {
            let d = c.minus(lead.centre);
            let (x, y) = (d.dot(lead.right()), d.dot(lead.forward()));
            lo_x = lo_x.min(x);
            hi_x = hi_x.max(x);
            lo_y = lo_y.min(y);
            hi_y = hi_y.max(y);
        }
    }
    Base {
        centre: lead.local((lo_x + hi_x) / 2.0, (lo_y + hi_y) / 2.0),
        facing: lead.facing,
        width: hi_x - lo_x,
        depth: hi_y - lo_y,
    }
}

impl<S: Supplement> DbnGame<S> {
    /// Checks and plans a move of one unit or a group, without changing anything.
    pub fn plan(&self, b: &Battle, ids: &[UnitId], steps: &[Step]) -> Result<MovePlan, RuleError> {
        let pivot_only = self.may_set_out(b, ids, steps)?;
        self.plan_way(b, ids, steps, pivot_only)
    }

    /// The checks of a move on its units alone, before its way is measured: the phase, each
    /// unit's side and state (moved, in close combat, baggage, fixed or unlimbered guns).
    /// Whether the move is an unlimbered gun's pivot where it stands, which has a price of
    /// its own.
    fn may_set_out(&self, b: &Battle, ids: &[UnitId], steps: &[Step]) -> Result<bool, RuleError> {
        let d = &self.dbn;
        if b.phase != MOVEMENT {
            return Err(RuleError::WrongPhase {
                command: "move".into(),
                phase: b.phase,
            });
        }
        let (charge, body): (Option<&UnitId>, &[Step]) = match steps.split_last() {
            Some((Step::ToContact(t), rest)) => (Some(t), rest),
            _ => (None, steps),
        };
        let group = ids.len() > 1;
        let mut pivot_only = false;
        for id in ids {
            let u = b.unit(id)?;
            own_active(b, u)?;
            if u.bound.moved {
                self.sup.may_move_again(self, b, u)?;
            }
            if d.in_close_combat(b, u) {
                return Err(RuleError::refused(
                    Refusal::InCloseCombat,
                    format!("{} is in close combat and cannot move", u.name),
                ));
            }
            if d.kind(u) == TroopKind::Baggage && d.troop_of(u).gg.unwrap_or(0.0) <= 0.0 {
                return Err(RuleError::refused(
                    Refusal::BaggageDoesNotMove,
                    format!("{} (baggage) does not move", u.name),
                ));
            }
            if u.has(Flag::Fixed) {
                return Err(RuleError::refused(
                    Refusal::FixedArtillery,
                    format!("{} is fixed artillery and may not move", u.name),
                ));
            }
            if d.is_artillery(u) && !d.has_trait(u, TroopTrait::MoveAndFire) {
                if u.bound.limber_changed
                    && (!d.has_trait(u, TroopTrait::QuickLimber) || !u.status.limbered)
                {
                    return Err(RuleError::refused(
                        Refusal::LimberedThisBound,
                        format!(
                            "{} limbered or unlimbered this bound and cannot move",
                            u.name
                        ),
                    ));
                }
                if !u.status.limbered {
                    pivot_only = true;
                    let max = d.n(N::FaPivotMax);
                    match body {
                        [Step::Pivot(p)] if p.abs() <= max + 1e-3 && charge.is_none() && !group => {
                        }
                        // A pivot too far, or a move: the words say which was asked.
                        [Step::Pivot(_)] if charge.is_none() && !group => {
                            return Err(RuleError::refused(
                                Refusal::UnlimberedPivotTooFar,
                                format!(
                                    "unlimbered artillery may only pivot up to {max:.0} degrees; limber it to move"
                                ),
                            ));
                        }
                        _ => {
                            return Err(RuleError::refused(
                                Refusal::UnlimberedPivotTooFar,
                                format!(
                                    "{} is unlimbered: it may only pivot where it stands (up to {max:.0} degrees); limber it to move",
                                    u.name
                                ),
                            ));
                        }
                    }
                }
            }
        }
        Ok(pivot_only)
    }

    /// The move's way, measured and checked, once its units may set out (`may_set_out`).
    fn plan_way(
        &self,
        b: &Battle,
        ids: &[UnitId],
        steps: &[Step],
        pivot_only: bool,
    ) -> Result<MovePlan, RuleError> {
        let d = &self.dbn;
        let (charge, body): (Option<&UnitId>, &[Step]) = match steps.split_last() {
            Some((Step::ToContact(t), rest)) => (Some(t), rest),
            _ => (None, steps),
        };
        let lead = b.unit(&ids[0])?;
        let measured = self.sup.before_move(self, b, ids, body, charge)?;
        let mut plan = d.plan_move(b, ids, body, charge, measured)?;
        self.sup.check_plan(self, b, ids, body, &plan)?;
        if plan.contact.is_some() && d.is_commander(lead) {
            return Err(RuleError::refused(
                Refusal::CommandersDoNotCharge,
                "commanders do not charge".into(),
            ));
        }
        for (id, end) in &plan.ends {
            self.sup.check_occupation(self, b, b.unit(id)?, end)?;
        }
        if pivot_only {
            plan.cost = self.price::<Unit>(b, &[], true);
        }
        if !measured || pivot_only {
            plan.manoeuvre = manoeuvre_words(body);
        }
        Ok(plan)
    }

    /// What a move of `units` costs: an unlimbered gun's pivot its own price, else the move's
    /// with the out-of-range charge of the dearest unit.
    fn price<U: std::borrow::Borrow<Unit>>(
        &self,
        b: &Battle,
        units: &[U],
        pivot_only: bool,
    ) -> i32 {
        if pivot_only {
            self.dbn.n(N::FaPivotCost) as i32
        } else {
            self.dbn.group_move_cost(b, units)
        }
    }

    pub(super) fn do_move(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        ids: &[UnitId],
        steps: &[Step],
    ) -> Result<(), RuleError> {
        let pivot_only = self.may_set_out(b, ids, steps)?;
        // What it costs, with the out-of-range charge explained (a gun's pivot has a price of
        // its own). A move the side cannot pay for is refused before its way is measured.
        let units: Vec<&Unit> = ids.iter().filter_map(|i| b.unit(i).ok()).collect();
        let cost = self.price(b, &units, pivot_only);
        let what = || {
            let names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
            let why = if pivot_only {
                String::new()
            } else {
                self.dbn.move_cost_words(b, &units)
            };
            format!("move {}{why}", names.join(", "))
        };
        let division = Dbn::paying_division(b, ids);
        self.dbn.can_pay(b, cost, what, division)?;
        let what = what();
        let plan = self.plan_way(b, ids, steps, pivot_only)?;
        debug_assert_eq!(plan.cost, cost, "a move's price is known before its way");
        self.dbn.spend(b, out, plan.cost, what, division)?;
        // Every unit of a group that ends with its front against an enemy has charged it.
        let contacts = self
            .dbn
            .member_contacts(b, &plan.ends, plan.contact.as_ref());
        // A group goes at its worst going: each unit's line says the going is the group's,
        // not that every unit stood in it.
        let mut going = plan.going.describe();
        if ids.len() > 1 && plan.going.bad {
            going = Tagged::new(GoingKind::Bad, format!("the group's {}", going.as_str()));
        }
        for (((id, to), (_, from)), contact) in
            plan.ends.iter().zip(plan.starts.iter()).zip(contacts)
        {
            let contact = contact.map(|c| c.0);
            b.emit(
                out,
                Event::Moved {
                    unit: id.clone(),
                    from: *from,
                    to: *to,
                    distance: plan.distance,
                    allowance: plan.allowance,
                    going: going.clone(),
                    contact,
                    manoeuvre: plan.manoeuvre.clone(),
                },
            );
            self.dbn.check_objective(b, out, id);
            self.dbn.check_capture(b, out, id);
        }
        for id in ids {
            self.sup.after_move(self, b, out, id)?;
        }
        Ok(())
    }
}

/// A group must be a chain of units in edge contact.
pub(super) fn check_group_contact(b: &Battle, ids: &[UnitId]) -> Result<(), RuleError> {
    let units: Vec<&Unit> = ids.iter().map(|i| b.unit(i)).collect::<Result<_, _>>()?;
    let mut reached = vec![false; units.len()];
    if units.is_empty() {
        return Err(RuleError::refused(
            Refusal::GroupNeedsAUnit,
            "a group move needs units".into(),
        ));
    }
    reached[0] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..units.len() {
            if reached[i] {
                continue;
            }
            if (0..units.len())
                .any(|j| reached[j] && units[j].base.touched_by(&units[i].base).is_some())
            {
                reached[i] = true;
                changed = true;
            }
        }
    }
    match reached.iter().position(|r| !r) {
        Some(i) => Err(RuleError::refused(
            Refusal::NotInEdgeContact,
            format!(
                "{} is not in edge contact with the rest of the group",
                units[i].name
            ),
        )),
        None => Ok(()),
    }
}

/// A move's bases as its steps carry them: each unit's base, the travel of its four corners,
/// the bases it stands on along the way, and the paces gone back at half speed (counted twice).
struct Sweep {
    bases: Vec<Base>,
    travel: Vec<[f32; 4]>,
    samples: Vec<Vec<Base>>,
    half_speed: f32,
}
