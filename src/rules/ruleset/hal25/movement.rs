//! Movement in Hal's rules: measured moves with their dice, formation changes, pushing guns,
//! charge declarations and the charge itself (closing, holding, the move into contact).

use super::rolls::{self, HalRoll, MoraleCheck, Need};
use super::tables::{self, MoveFormation};
use super::{Hal25, N, State, TroopClass, this_turn};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, RuleError, Step};
use crate::rules::geometry::Base;
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::ruleset::Roll;
use crate::rules::ruleset::common::{Going, MovePlan, illegal, step_motion};
use crate::rules::ruleset::hal25::Refusal;
use crate::rules::tagged::Tagged;
use crate::rules::terrain::FeatureKind;

/// Why a unit that passed through formed friends stands: it does nothing more that turn,
/// firing included (III.A.10). The kind of its `Halted` event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassedThrough;

impl PassedThrough {
    fn said(self) -> Tagged {
        Tagged::new(
            self,
            "passed through formed friends: nothing more this turn",
        )
    }
}

/// A movement roll made for a unit this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MoveRoll {
    /// A die its moves needed.
    Need(Need),
    /// A formation change (its `Ordered` roll).
    FormationChange,
}

/// A checked move: the plan the window shows, and the dice it still needs.
pub struct HalPlan {
    pub plan: MovePlan,
    pub needs: Vec<Need>,
    /// Formed units passed through (the mover then does nothing more this turn).
    pub through: Vec<UnitId>,
}

const ROUGH: [FeatureKind; 6] = [
    FeatureKind::Rough,
    FeatureKind::Marsh,
    FeatureKind::Woods,
    FeatureKind::Village,
    FeatureKind::Town,
    FeatureKind::Fortification,
];

impl Hal25 {
    /// Movement rolls made for the unit this turn: (which, total, slowest rate if a formation
    /// change).
    fn movement_rolls(&self, b: &Battle, id: &UnitId) -> Vec<(MoveRoll, i32, Option<i32>)> {
        this_turn(b)
            .iter()
            .filter_map(|e| match e {
                Event::Rolled { what, roll } if roll.unit.as_ref() == Some(id) => {
                    match rolls::kind(what) {
                        Some(HalRoll::Movement(n)) => Some((MoveRoll::Need(n), roll.total, None)),
                        _ => None,
                    }
                }
                // A formation change: its die, and the slower formation's rate for the turn.
                Event::Ordered {
                    unit,
                    roll,
                    allowance,
                    ..
                } if unit == id => Some((
                    MoveRoll::FormationChange,
                    // Its die is spent by the change itself (`Reformed`'s cost).
                    0,
                    Some(*allowance as i32),
                )),
                _ => None,
            })
            .collect()
    }

    /// The rate of the unit's formation this turn, in inches (the slower of two formations
    /// after a change), on a road or not. A unit whose troop code the data lacks (refused at
    /// load) has no row in the move table, so no rate.
    pub fn rate(&self, b: &Battle, u: &Unit, road: bool) -> f32 {
        let Some(class) = self.class(u) else {
            return 0.0;
        };
        let mut rate = match class {
            TroopClass::General => self.n(N::GeneralMove),
            TroopClass::Courier => self.n(N::CourierMove),
            TroopClass::Artillery if !u.status.limbered => 0.0,
            _ => {
                let f = self.move_formation(u, u.formation);
                let f = if road && f == MoveFormation::FieldColumn {
                    MoveFormation::RoadColumn
                } else {
                    f
                };
                tables::base_move(&self.d, class, f).unwrap_or(0) as f32
            }
        };
        for (what, _, slowest) in self.movement_rolls(b, &u.id) {
            if what == MoveRoll::FormationChange
                && let Some(s) = slowest
            {
                rate = rate.min(s as f32);
            }
        }
        rate
    }

    /// The unit's allowance this turn with the dice thrown so far.
    pub fn allowance(&self, b: &Battle, u: &Unit, road: bool) -> f32 {
        let dice: i32 = self
            .movement_rolls(b, &u.id)
            .iter()
            .map(|(_, t, _)| *t)
            .sum();
        (self.rate(b, u, road) + dice as f32).max(0.0)
    }

    /// The chips dice of the commander whose chips move this unit, if any (none for a unit
    /// whose troop code the data lacks, refused at load).
    pub fn chips_dice(&self, b: &Battle, u: &Unit) -> i32 {
        match self.class(u) {
            None => 0,
            Some(TroopClass::General) => u.extra.move_dice,
            Some(TroopClass::Courier) => u
                .extra
                .parent
                .as_ref()
                .and_then(|p| b.unit(p).ok())
                .map_or(0, |g| g.extra.move_dice),
            _ => match u.extra.brigade.as_deref() {
                Some(br) if self.in_command(b, u) => self
                    .brigadier(b, u.side, br)
                    .map_or(0, |g| g.extra.move_dice),
                _ => 0,
            },
        }
    }

    pub(super) fn rolled(&self, b: &Battle, id: &UnitId, need: Need) -> bool {
        self.movement_rolls(b, id)
            .iter()
            .any(|(w, _, _)| matches!(w, MoveRoll::Need(n) if n.same_die(need)))
    }

    /// Throws the dice a move needs, each once a turn.
    pub(super) fn throw_needs(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        needs: &[Need],
    ) -> Result<(), RuleError> {
        for &n in needs {
            if self.rolled(b, id, n) {
                continue;
            }
            let u = b.unit(id)?.clone();
            let (count, sign, less) = match n {
                Need::Disorganised | Need::Rough | Need::Back => (1, -1, 0),
                Need::Chips(k) => (k.unsigned_abs(), k.signum(), 0),
                Need::Push => (
                    1,
                    1,
                    if self.troop_def(&u)?.light_gun {
                        self.n(N::PushLight) as i32
                    } else {
                        self.n(N::PushHeavy) as i32
                    },
                ),
            };
            let first = b.cmd_dice.len();
            let mut dice = Vec::new();
            for _ in 0..count {
                dice.push(b.d6()?);
            }
            let total = sign * dice.iter().map(|&d| i32::from(d)).sum::<i32>() - less;
            b.emit(
                out,
                Event::Rolled {
                    what: HalRoll::Movement(n).said(n.key()),
                    roll: Roll {
                        unit: Some(id.clone()),
                        dice,
                        factors: if less > 0 {
                            vec![Factor {
                                name: "pushing the guns".into(),
                                value: -less,
                                source: "004 III.A.2".into(),
                            }]
                        } else {
                            Vec::new()
                        },
                        total,
                        outcome: format!("{total:+}\" to the move"),
                        first_die: Some(first),
                        ..Roll::default()
                    },
                },
            );
        }
        Ok(())
    }

    /// A unit out of command passes a morale check before its first move of the turn.
    pub(super) fn command_control(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<bool, RuleError> {
        let u = b.unit(id)?.clone();
        if self.is_officer(&u) || self.in_command(b, &u) {
            return Ok(true);
        }
        let tested = this_turn(b).iter().any(|e| {
            matches!(e, Event::Rolled { what, roll }
                if matches!(rolls::kind(what), Some(HalRoll::Morale { check: MoraleCheck::CommandControl, .. }))
                    && roll.unit.as_ref() == Some(id))
        });
        if tested {
            return Ok(true);
        }
        let bonus = u
            .extra
            .brigade
            .as_deref()
            .and_then(|br| self.brigadier(b, u.side, br))
            .map_or(0, |g| g.extra.leadership);
        let factors = self.morale_factors(b, id, None, false);
        let passed = self
            .morale_check(b, out, id, MoraleCheck::CommandControl, factors, bonus)?
            .passed;
        if !passed {
            b.emit(
                out,
                Event::Halted {
                    unit: id.clone(),
                    why: "out of command: it stands this turn".into(),
                },
            );
        }
        Ok(passed)
    }

    /// Checks a move and measures it; the dice it needs are named, not thrown.
    /// The rough ground (woods, towns and works included) and the streams a unit's way,
    /// sampled base by base, touches or crosses: their names.
    pub(super) fn rough_going(&self, b: &Battle, samples: &[Base]) -> Vec<String> {
        let mut why: Vec<String> = Vec::new();
        for s in samples {
            for f in b.terrain.touching(s, &ROUGH) {
                if !why.contains(&f.name) {
                    why.push(f.name.clone());
                }
            }
        }
        for w in samples.windows(2) {
            for f in b.terrain.features.iter().filter(|f| {
                matches!(f.kind, FeatureKind::Stream | FeatureKind::River)
                    && f.crossed_by(w[0].centre, w[1].centre)
            }) {
                if !b.terrain.on_bridge(&w[1]) && !why.contains(&f.name) {
                    why.push(f.name.clone());
                }
            }
        }
        why
    }

    pub fn plan(&self, b: &Battle, id: &UnitId, steps: &[Step]) -> Result<HalPlan, RuleError> {
        self.may_act(b, id)?;
        let u = b.unit(id)?.clone();
        if steps.is_empty() {
            return illegal(Refusal::NoSteps, "a move needs at least one step".into());
        }
        if u.bound.charged || self.charged(b, id) {
            return illegal(
                Refusal::Charged,
                format!("{} has charged this turn", u.name),
            );
        }
        if self.is_artillery(&u) && self.guns_served(&u) == 0 {
            return illegal(
                Refusal::NoGunWithTwoCrew,
                format!("{}: no gun has two crew to move it", u.name),
            );
        }
        let (base, samples, dist, back) = self.trace(b, &u, steps)?;
        let officer = self.is_officer(&u);
        let (needs, why) = self.move_needs(b, &u, back, &samples)?;
        // Columns, and limbered batteries ("Artillery/Wagons" 12" in road column, III).
        let column =
            u.formation == Formation::Column || (self.is_artillery(&u) && u.status.limbered);
        let road = column && samples.iter().all(|s| b.terrain.on_road(s.centre));
        let allowance = self.allowance(b, &u, road) - u.bound.spent;
        // The best the dice still to throw could give.
        let best = self.best_of_dice(&u, &needs);
        if dist > allowance + best + 0.01 {
            return illegal(
                Refusal::BeyondAllowance {
                    may: (allowance + best).max(0.0),
                },
                format!(
                    "{} may move {:.1}\" this turn{}; this move is {dist:.1}\"",
                    u.name,
                    (allowance + best).max(0.0),
                    if needs.is_empty() {
                        String::new()
                    } else {
                        " at best with the dice still to throw".into()
                    }
                ),
            );
        }
        if !b.table.holds(&base) {
            return illegal(
                Refusal::WouldLeaveTable,
                format!("{} would leave the table", u.name),
            );
        }
        // Other units: friends may be passed through, enemies not; none may be ended on.
        let through = if officer {
            Vec::new()
        } else {
            self.passes_through(b, &u, &base, &samples)?
        };
        Ok(HalPlan {
            plan: MovePlan {
                ends: vec![(id.clone(), base)],
                starts: vec![(id.clone(), u.base)],
                distance: dist,
                allowance: allowance.max(0.0),
                going: Going {
                    bad: !why.is_empty(),
                    why,
                    road,
                },
                contact: None,
                cost: 0,
                manoeuvre: None,
            },
            needs,
            through,
        })
    }
    /// The move's path, step by step: where it ends, the bases along it, the furthest any corner
    /// went (inches), and whether it went back.
    fn trace(
        &self,
        b: &Battle,
        u: &Unit,
        steps: &[Step],
    ) -> Result<(Base, Vec<Base>, f32, bool), RuleError> {
        let inch = b.scale.to_mm(1.0);
        let mut base = u.base;
        let mut samples = vec![base];
        let mut dist = 0.0f32;
        let mut back = false;
        for step in steps {
            if matches!(step, Step::ToContact(_)) {
                return illegal(
                    Refusal::ContactOnlyByCharge,
                    "Hal's units meet the enemy only by a declared charge (Charge)".into(),
                );
            }
            if matches!(step, Step::Backstep(_)) {
                back = true;
            }
            let m = step_motion(b, &base, step)?;
            let n = (m.deg.abs() / 5.0)
                .max(m.shift.len() / 2.0)
                .ceil()
                .clamp(1.0, 400.0) as usize;
            for k in 1..=n {
                let b0 = m.apply(&base, (k - 1) as f32 / n as f32);
                let b1 = m.apply(&base, k as f32 / n as f32);
                dist += b0
                    .corners()
                    .iter()
                    .zip(b1.corners().iter())
                    .map(|(p, q)| p.dist(*q))
                    .fold(0.0, f32::max)
                    / inch;
                samples.push(b1);
            }
            base = m.apply(&base, 1.0);
        }
        let disp = base.centre.minus(u.base.centre);
        if disp.dot(u.base.forward()) < -0.1 * inch {
            back = true;
        }
        Ok((base, samples, dist, back))
    }

    /// The dice the move needs before it is measured, in the order they are thrown, and the rough
    /// going it crosses.
    fn move_needs(
        &self,
        b: &Battle,
        u: &Unit,
        back: bool,
        samples: &[Base],
    ) -> Result<(Vec<Need>, Vec<String>), RuleError> {
        let officer = self.is_officer(u);
        let mut needs = Vec::new();
        let first_move = !u.bound.moved && !self.rolled(b, &u.id, Need::Disorganised);
        if !officer && self.state(u) == State::Disorganised && first_move {
            needs.push(Need::Disorganised);
        }
        let chips = self.chips_dice(b, u);
        if chips != 0 && !u.bound.moved {
            needs.push(Need::Chips(chips));
        }
        let mut why = Vec::new();
        if !officer {
            if back {
                if self.is_cavalry(u) {
                    return illegal(
                        Refusal::CavalryMayNotMoveBack,
                        format!(
                            "{}: cavalry may not move back facing the enemy (III.A.3); turn about first",
                            u.name
                        ),
                    );
                }
                needs.push(Need::Back);
            }
            let skirmish = u.formation == Formation::Skirmish;
            if !skirmish
                && let Some(w) = samples
                    .iter()
                    .find_map(|s| b.terrain.touching(s, &[FeatureKind::Woods]).next())
            {
                return illegal(
                    Refusal::FormedThroughWoods,
                    format!(
                        "{}: formed units may not move through woods ({})",
                        u.name, w.name
                    ),
                );
            }
            why = self.rough_going(b, samples);
            if !why.is_empty() && !skirmish {
                needs.push(Need::Rough);
            }
            if self.is_artillery(u) && !u.status.limbered {
                needs.push(Need::Push);
            }
        }
        needs.retain(|n| !self.rolled(b, &u.id, *n));
        // In the order the dice are thrown: disorganised, chips, rough, back, push.
        needs.sort_by_key(|n| match n {
            Need::Disorganised => 0,
            Need::Chips(_) => 1,
            Need::Rough => 2,
            Need::Back => 3,
            Need::Push => 4,
        });
        Ok((needs, why))
    }

    /// The best the dice still to throw could give.
    fn best_of_dice(&self, u: &Unit, needs: &[Need]) -> f32 {
        needs
            .iter()
            .map(|n| match n {
                Need::Chips(k) if *k > 0 => 6.0 * *k as f32,
                Need::Chips(k) => *k as f32,
                Need::Push => {
                    6.0 - if self.troop_def(u).is_ok_and(|t| t.light_gun) {
                        self.n(N::PushLight)
                    } else {
                        self.n(N::PushHeavy)
                    }
                }
                _ => -1.0,
            })
            .sum()
    }

    /// Other units: friends may be passed through (the formed ones passed are returned), enemies
    /// not; none may be ended on, nor a burning town entered.
    fn passes_through(
        &self,
        b: &Battle,
        u: &Unit,
        base: &Base,
        samples: &[Base],
    ) -> Result<Vec<UnitId>, RuleError> {
        let mut through = Vec::new();
        for o in b.alive().filter(|o| o.id != u.id && !self.is_officer(o)) {
            if o.base.overlaps(base) {
                return illegal(
                    Refusal::WouldEndOnUnit,
                    format!("{} would end on {}", u.name, o.name),
                );
            }
            if samples.iter().any(|s| s.overlaps(&o.base)) {
                if o.side != u.side {
                    return illegal(
                        Refusal::MayNotPassThrough,
                        format!("{} may not pass through {}", u.name, o.name),
                    );
                }
                if self.formed(u) && self.formed(o) {
                    through.push(o.id.clone());
                }
            }
        }
        if let Some(t) = b
            .terrain
            .touching(base, &[FeatureKind::Town, FeatureKind::Village])
            .find(|t| self.town_left(b, &t.id) == 0)
        {
            return illegal(
                Refusal::InFlames,
                format!("{} is in flames: no unit may enter it", t.name),
            );
        }
        self.town_room(b, u, base)?;
        self.no_new_contact(b, u, base)?;
        Ok(through)
    }

    /// Only a charge makes contact (I.1, IV.A.1-3): a move or a change of formation may not
    /// end touching an enemy it was not touching already.
    fn no_new_contact(&self, b: &Battle, u: &Unit, at: &Base) -> Result<(), RuleError> {
        let tol = b.scale.to_mm(self.n(N::ContactTolerance));
        if let Some(e) = b.alive().find(|e| {
            e.side != u.side
                && !self.is_officer(e)
                && at.within(&e.base, tol)
                && !u.base.within(&e.base, tol)
        }) {
            return illegal(
                Refusal::ContactOnlyByCharge,
                format!(
                    "{} would end in contact with {}: only a declared charge meets the enemy",
                    u.name, e.name
                ),
            );
        }
        Ok(())
    }

    /// A town holds one battalion and one battery at most (VII.A.3); horse does not occupy one.
    fn town_room(&self, b: &Battle, u: &Unit, at: &Base) -> Result<(), RuleError> {
        for t in b
            .terrain
            .touching(at, &[FeatureKind::Town, FeatureKind::Village])
        {
            if t.touches(&u.base) {
                continue;
            }
            if self.is_cavalry(u) {
                return illegal(
                    Refusal::HorseDoesNotOccupy,
                    format!("{}: horse does not occupy {}", u.name, t.name),
                );
            }
            let gun = self.is_artillery(u);
            if let Some(o) = b.alive().find(|o| {
                o.id != u.id
                    && self.is_artillery(o) == gun
                    && self.towns_held(b, o).iter().any(|h| h.id == t.id)
            }) {
                return illegal(
                    Refusal::TownFull,
                    format!(
                        "{} holds one battalion and one battery: {} is there",
                        t.name, o.name
                    ),
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
        if !self.command_control(b, out, id)? {
            return Ok(());
        }
        self.throw_needs(b, out, id, &p.needs)?;
        let u = b.unit(id)?.clone();
        let left = self.allowance(b, &u, p.plan.going.road) - u.bound.spent;
        if p.plan.distance > left + 0.01 {
            b.emit(
                out,
                Event::Rolled {
                    what: HalRoll::Measure.said("the measure"),
                    roll: Roll {
                        unit: Some(id.clone()),
                        dice: b.cmd_dice.clone(),
                        total: left.max(0.0).round() as i32,
                        outcome: format!(
                            "the dice leave {:.1}\": the move of {:.1}\" is not made",
                            left.max(0.0),
                            p.plan.distance
                        ),
                        ..Roll::default()
                    },
                },
            );
            return Ok(());
        }
        let (_, to) = p.plan.ends[0];
        b.emit(
            out,
            Event::Moved {
                unit: id.clone(),
                from: u.base,
                to,
                distance: p.plan.distance,
                allowance: left,
                going: p.plan.going.describe(),
                contact: None,
                manoeuvre: None,
            },
        );
        if self.class(&u) == Some(TroopClass::Courier) {
            self.deliver(b, out, id)?;
        }
        if !p.through.is_empty() {
            b.emit(
                out,
                Event::Halted {
                    unit: id.clone(),
                    why: PassedThrough.said(),
                },
            );
        }
        Ok(())
    }

    /// The formations a unit may take.
    pub fn formations(&self, u: &Unit) -> Vec<Formation> {
        match self.class(u) {
            Some(TroopClass::Line | TroopClass::Grenadier | TroopClass::HeavyCavalry) => {
                vec![Formation::Line, Formation::Column]
            }
            Some(TroopClass::Light | TroopClass::LightCavalry) => {
                vec![Formation::Line, Formation::Column, Formation::Skirmish]
            }
            _ => Vec::new(),
        }
    }

    /// A change of formation or facing, about the command stand, for 1D6 of the move.
    pub fn form(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        formation: Formation,
        turn: f32,
    ) -> Result<(), RuleError> {
        self.may_act(b, id)?;
        let u = b.unit(id)?.clone();
        if !self.formations(&u).contains(&formation) {
            return illegal(
                Refusal::CannotTakeFormation,
                format!(
                    "{} cannot take that formation{}",
                    u.name,
                    if self.is_artillery(&u) {
                        " (batteries limber and unlimber)"
                    } else {
                        ""
                    }
                ),
            );
        }
        if !turn.is_finite() || ![0.0, 90.0, -90.0, 180.0].contains(&turn) {
            return illegal(
                Refusal::NotAQuarterTurn,
                "a turn is 0, 90, -90 or 180 degrees".into(),
            );
        }
        if formation == u.formation && turn == 0.0 {
            return illegal(
                Refusal::AlreadyInFormation,
                format!("{} is already in that formation", u.name),
            );
        }
        if self.charged(b, id) {
            return illegal(
                Refusal::Charged,
                format!("{} has charged this turn", u.name),
            );
        }
        let to = self.reformed_base(b, &u, formation, turn)?;
        if !self.command_control(b, out, id)? {
            return Ok(());
        }
        let class = self.troop_def(&u)?.troop;
        let row = self.d.moves(class);
        let n = row.map_or(-1, |r| r.change_dice);
        let first = b.cmd_dice.len();
        let mut dice = Vec::new();
        for _ in 0..n.unsigned_abs() {
            dice.push(b.d6()?);
        }
        let mut factors = Vec::new();
        if class == TroopClass::Grenadier {
            factors.push(Factor {
                name: "grenadiers' formation change".into(),
                value: -(self.n(N::GrenadierChangeInches) as i32),
                source: "004 III *a".into(),
            });
        }
        if class == TroopClass::Light
            && (formation == Formation::Line || u.formation == Formation::Line)
        {
            factors.push(Factor {
                name: "half the battalion in line".into(),
                value: -(self.n(N::LightChangeInches) as i32),
                source: "004 III *c".into(),
            });
        }
        let total = n.signum() * dice.iter().map(|&d| i32::from(d)).sum::<i32>()
            + factors.iter().map(|f| f.value).sum::<i32>();
        let rate = |f: Formation| {
            tables::base_move(&self.d, class, self.move_formation(&u, f)).unwrap_or(0) as i32
        };
        let slowest = rate(u.formation).min(rate(formation));
        b.emit(
            out,
            Event::Ordered {
                unit: id.clone(),
                roll: Roll {
                    unit: Some(id.clone()),
                    dice,
                    factors,
                    total,
                    outcome: format!("{total:+}\" to the move; moves at {slowest}\" this turn"),
                    first_die: Some(first),
                    ..Roll::default()
                },
                allowance: slowest as f32,
                recover: false,
            },
        );
        b.emit(
            out,
            Event::Reformed {
                unit: id.clone(),
                formation,
                from: u.base,
                to,
                cost: (-total).max(0) as f32,
            },
        );
        Ok(())
    }
    /// Where the unit stands in its new formation (the command stand keeps its place), refused off
    /// the table, on another unit, in new contact or, formed, in woods.
    fn reformed_base(
        &self,
        b: &Battle,
        u: &Unit,
        formation: Formation,
        turn: f32,
    ) -> Result<Base, RuleError> {
        // The command stand keeps its place.
        let mut after = u.clone();
        after.formation = formation;
        let (w, d) = self.footprint(b, &after, formation);
        let pivot = self
            .stand_bases(b, u)
            .first()
            .map_or(u.base.centre, |s| s.centre);
        let facing = crate::rules::geometry::norm_facing(u.base.facing + turn);
        after.base = Base::new(u.base.centre, facing, w, d);
        let now = self
            .stand_bases(b, &after)
            .first()
            .map_or(after.base.centre, |s| s.centre);
        after.base.centre = after.base.centre.plus(pivot.minus(now));
        let to = after.base;
        if !b.table.holds(&to) {
            return illegal(
                Refusal::WouldLeaveTable,
                format!("{} would leave the table", u.name),
            );
        }
        // (A unit's loose skirmishers by their own stands.)
        for o in b.alive().filter(|o| o.id != u.id && !self.is_officer(o)) {
            if o.shapes().iter().any(|s| s.overlaps(&to)) {
                return illegal(
                    Refusal::WouldEndOnUnit,
                    format!("{} would end on {}", u.name, o.name),
                );
            }
        }
        self.no_new_contact(b, u, &to)?;
        if formation != Formation::Skirmish
            && b.terrain
                .touching(&to, &[FeatureKind::Woods])
                .next()
                .is_some()
        {
            return illegal(
                Refusal::FormedInWoods,
                format!("{}: formed units may not stand in woods", u.name),
            );
        }
        Ok(to)
    }

    pub fn limber(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        limber: bool,
    ) -> Result<(), RuleError> {
        self.may_act(b, id)?;
        let u = b.unit(id)?.clone();
        if !self.is_artillery(&u) {
            return illegal(Refusal::NotABattery, format!("{} is not a battery", u.name));
        }
        if u.status.limbered == limber {
            return illegal(
                Refusal::AlreadyLimberedSo,
                format!(
                    "{} is {} already",
                    u.name,
                    if limber { "limbered" } else { "unlimbered" }
                ),
            );
        }
        if self.guns_served(&u) == 0 {
            return illegal(
                Refusal::NoGunWithTwoCrew,
                format!("{}: no gun has two crew", u.name),
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
        Ok(())
    }
}
