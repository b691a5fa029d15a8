//! Charges in Hal's rules: declaring them, the reach and the closing, holding or failing, and the
//! move into contact.

use super::rolls::{self, HalRoll, MoraleCheck, Need};
use super::status::own;
use super::tables::{self};
use super::{ChargeFrom, Hal25, HalEvent, N, State, this_turn};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::Base;
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::ruleset::Roll;
use crate::rules::ruleset::common::{heading_deg, illegal, in_phase, own_active};
use crate::rules::ruleset::hal25::{CHARGES, Refusal};
use crate::rules::terrain::FeatureKind;

impl Hal25 {
    /// The dice a charge to `to` throws before its bonus die, those not thrown this turn yet:
    /// the commander's chips, disorganised, rough going on the way (not in skirmish order).
    pub fn charge_needs(&self, b: &Battle, u: &Unit, to: &Base) -> Vec<Need> {
        let mut needs = vec![Need::Chips(self.chips_dice(b, u))];
        needs.retain(|n| *n != Need::Chips(0));
        if self.state(u) == State::Disorganised {
            needs.push(Need::Disorganised);
        }
        let samples: Vec<Base> = (0..=24)
            .map(|k| Base {
                centre: u
                    .base
                    .centre
                    .plus(to.centre.minus(u.base.centre).scale(k as f32 / 24.0)),
                ..*to
            })
            .collect();
        if u.formation != Formation::Skirmish && !self.rough_going(b, &samples).is_empty() {
            needs.push(Need::Rough);
        }
        needs.retain(|n| !self.rolled(b, &u.id, *n));
        needs
    }

    /// A unit charged this turn (its attempt to close was made).
    pub fn charged(&self, b: &Battle, id: &UnitId) -> bool {
        this_turn(b).iter().any(|e| {
            matches!(e, Event::Rolled { what, roll }
                if matches!(rolls::kind(what), Some(HalRoll::Morale { check: MoraleCheck::Closing, .. }))
                    && roll.unit.as_ref() == Some(id))
        })
    }

    // ----- charges ------------------------------------------------------------------------

    /// The most a unit could move on a charge, in inches (its rate, the charge die at best).
    pub fn charge_reach(&self, b: &Battle, u: &Unit) -> f32 {
        let chips = self.chips_dice(b, u).max(0) as f32 * 6.0;
        self.rate(b, u, false) + self.n(N::ChargeDiceMost) + chips
    }

    /// Where a charger ends in contact with the face of the target its centre faces, and the
    /// distance from the centre of its front.
    pub fn contact_place(&self, a: &Unit, t: &Unit) -> (Base, f32) {
        let tb = &t.base;
        let d = a.base.centre.minus(tb.centre);
        let (x, y) = (d.dot(tb.right()), d.dot(tb.forward()));
        let (hw, hd) = (tb.width / 2.0, tb.depth / 2.0);
        let (aw, ad) = (a.base.width, a.base.depth);
        // Which face: by the attacker's centre against the target's diagonals.
        let (centre, facing) = if y >= hd && y.abs() / hd.max(1.0) >= x.abs() / hw.max(1.0) {
            (tb.local(x.clamp(-hw, hw), hd + ad / 2.0), tb.facing + 180.0)
        } else if y <= -hd && y.abs() / hd.max(1.0) >= x.abs() / hw.max(1.0) {
            (tb.local(x.clamp(-hw, hw), -hd - ad / 2.0), tb.facing)
        } else if x >= 0.0 {
            (tb.local(hw + ad / 2.0, y.clamp(-hd, hd)), tb.facing - 90.0)
        } else {
            (tb.local(-hw - ad / 2.0, y.clamp(-hd, hd)), tb.facing + 90.0)
        };
        let to = Base::new(centre, crate::rules::geometry::norm_facing(facing), aw, ad);
        let dist = to.front_centre().dist(a.base.front_centre());
        (to, dist)
    }

    /// Checks a declaration of a charge.
    pub fn check_declare(&self, b: &Battle, id: &UnitId, target: &UnitId) -> Result<(), RuleError> {
        in_phase(b, CHARGES, "declare a charge")?;
        let u = b.unit(id)?;
        let t = b.unit(target)?;
        if t.side == u.side || !t.alive() {
            return illegal(
                Refusal::NotAnEnemyOnTable,
                format!("{} is not an enemy on the table", t.name),
            );
        }
        if !(self.is_infantry(u) || self.is_cavalry(u)) || u.formation == Formation::Skirmish {
            return illegal(
                Refusal::MayNotCharge,
                format!(
                    "{}: only infantry and cavalry not skirmishing charge",
                    u.name
                ),
            );
        }
        if self.state(u) == State::Routed {
            return illegal(Refusal::Routed, format!("{} is routed", u.name));
        }
        if let Some(d) = &own(u).declared {
            return illegal(
                Refusal::AlreadyDeclared,
                format!(
                    "{} has declared its charge on {} already",
                    u.name,
                    b.name_of(d)
                ),
            );
        }
        if self.is_officer(t) {
            return illegal(
                Refusal::OfficerNotChargeable,
                format!("{} is an officer, not a unit to charge", t.name),
            );
        }
        if u.base.behind_front_line(t.base.centre) {
            return illegal(
                Refusal::NotAheadOfFront,
                format!("{} is not ahead of {}'s front", t.name, u.name),
            );
        }
        let (_, dist) = self.contact_place(u, t);
        let inches = self.inches(b, dist);
        let reach = self.charge_reach(b, u);
        if inches > reach + 0.01 {
            return illegal(
                Refusal::BeyondChargeReach,
                format!(
                    "{} is {inches:.1}\" away: {} could charge {reach:.1}\" at most",
                    t.name, u.name
                ),
            );
        }
        Ok(())
    }

    pub fn declare(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        target: &UnitId,
    ) -> Result<(), RuleError> {
        self.check_declare(b, id, target)?;
        b.emit(
            out,
            HalEvent::Declared {
                unit: id.clone(),
                target: target.clone(),
            },
        );
        Ok(())
    }

    /// Checks that a unit may make its declared charge now; gives its target and the way in.
    pub fn check_charge(&self, b: &Battle, id: &UnitId) -> Result<(UnitId, Base, f32), RuleError> {
        self.may_act(b, id)?;
        let u = b.unit(id)?;
        let Some(tid) = own(u).declared.clone() else {
            return illegal(
                Refusal::NoChargeDeclared,
                format!("{} declared no charge this turn", u.name),
            );
        };
        if u.bound.moved || self.charged(b, id) {
            return illegal(
                Refusal::MovedOrCharged,
                format!("{} has moved or charged this turn", u.name),
            );
        }
        let t = b.unit(&tid)?;
        if !t.alive() {
            return illegal(
                Refusal::NotOnTable,
                format!("{} is no longer on the table", t.name),
            );
        }
        let (to, dist) = self.charge_way(b, u, t)?;
        Ok((tid, to, dist))
    }

    /// The way a charge of `u` on `t` would go now: its place in contact and the distance in
    /// inches, or why it could not be made (an enemy or woods in the way, off the table, a
    /// second enemy met, a town in flames).
    pub fn charge_way(&self, b: &Battle, u: &Unit, t: &Unit) -> Result<(Base, f32), RuleError> {
        let tid = t.id.clone();
        let (to, dist) = self.contact_place(u, t);
        // The way in: no enemies but the target, no woods.
        let n = 24;
        for k in 1..=n {
            let f = k as f32 / n as f32;
            let s = Base {
                centre: u.base.centre.plus(to.centre.minus(u.base.centre).scale(f)),
                ..to
            };
            for o in b
                .alive()
                .filter(|o| o.id != u.id && o.id != tid && !self.is_officer(o))
            {
                if o.side != u.side && s.overlaps(&o.base) {
                    return illegal(
                        Refusal::WayBlocked,
                        format!("{} blocks the way to {}", o.name, t.name),
                    );
                }
            }
            if let Some(w) = b.terrain.touching(&s, &[FeatureKind::Woods]).next() {
                return illegal(
                    Refusal::WayThroughWoods,
                    format!("the way to {} goes through {} (woods)", t.name, w.name),
                );
            }
        }
        if !b.table.holds(&to) {
            return illegal(
                Refusal::WouldLeaveTable,
                format!("{} would leave the table", u.name),
            );
        }
        // Every enemy a charge meets must have taken its check to hold (IV.A.2): one charge,
        // one target, so a charge that would end touching a second enemy is not made.
        let tol = b.scale.to_mm(self.n(N::ContactTolerance));
        if let Some(o) = b.alive().find(|o| {
            o.side != u.side
                && o.id != tid
                && !self.is_officer(o)
                && to.within(&o.base, tol)
                && !u.base.within(&o.base, tol)
        }) {
            return illegal(
                Refusal::ContactWithUncharged,
                format!(
                    "{} would end in contact with {} too, which was not charged and made no check to hold",
                    u.name, o.name
                ),
            );
        }
        // Not into a town in flames (a charger fights at the town, it does not occupy it).
        if let Some(t) = b
            .terrain
            .touching(&to, &[FeatureKind::Town, FeatureKind::Village])
            .find(|t| self.town_left(b, &t.id) == 0)
        {
            return illegal(
                Refusal::InFlames,
                format!("{} is in flames: no unit may enter it", t.name),
            );
        }
        Ok((to, self.inches(b, dist)))
    }

    /// The charge: the attempt to close, the attempt to hold, the range the target will fire
    /// at, and the move into contact.
    pub fn charge(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        let (tid, to, dist) = self.check_charge(b, id)?;
        own_active(b, b.unit(id)?)?;
        if !self.command_control(b, out, id)? {
            return Ok(());
        }
        let u = b.unit(id)?.clone();
        let t = b.unit(&tid)?.clone();
        let from = if dist > self.d.small_arms_bands[1] {
            ChargeFrom::Long
        } else {
            ChargeFrom::Medium
        };
        let short = dist <= self.d.small_arms_bands[0];
        let Some(holds) = self.close_and_hold(b, out, &u, &t)? else {
            return Ok(());
        };
        // The target, holding (or shaken but standing), fires into the charge.
        let t_now = b.unit(&tid)?.clone();
        if self.state(&t_now) == State::Good || holds {
            self.fire_into_charge(b, out, id, &t_now, short, from)?;
        }
        self.charge_home(b, out, &u, &t, to, dist)
    }

    /// The charger's check to close and the target's to hold: whether the target held, or
    /// `None` when the charge ends there (the charger failed, or the target broke).
    fn close_and_hold(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        u: &Unit,
        t: &Unit,
    ) -> Result<Option<bool>, RuleError> {
        let (id, tid) = (&u.id, &t.id);
        let factors = self.morale_factors(b, id, Some(tid), true);
        if !self
            .morale_check(b, out, id, MoraleCheck::Closing, factors, 0)?
            .passed
        {
            if self.state(u) != State::Good {
                // "Disorganized units failing morale drop to rout status" (V Failed Morale
                // Notes 4): a disorganised charger that fails to close routs, and runs in the
                // pre-melee rout movement (I.2.A.a), as a target that breaks does.
                self.rout(b, out, id)?;
                self.rout_move(b, out, id)?;
                return Ok(None);
            }
            b.emit(
                out,
                Event::Disordered {
                    unit: id.clone(),
                    why: "failed to close".into(),
                },
            );
            b.emit(
                out,
                Event::Halted {
                    unit: id.clone(),
                    why: "failed to close: it does not move this turn".into(),
                },
            );
            return Ok(None);
        }
        let factors = self.morale_factors(b, tid, Some(id), false);
        let holds = self
            .morale_check(b, out, tid, MoraleCheck::Holding, factors, 0)?
            .passed;
        if !holds {
            self.failed(b, out, tid, None)?;
            let t2 = b.unit(tid)?.clone();
            if t2.status.removed || self.state(&t2) == State::Routed {
                if !t2.status.removed {
                    self.rout_move(b, out, tid)?;
                }
                b.emit(
                    out,
                    Event::Halted {
                        unit: id.clone(),
                        why: format!("{} broke before the charge", t.name).into(),
                    },
                );
                return Ok(None);
            }
        }
        Ok(Some(holds))
    }

    /// The target's range for firing into the charge (infantry throw for it, guns fire at
    /// half their short range), braced against the charger.
    fn fire_into_charge(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        t_now: &Unit,
        short: bool,
        from: ChargeFrom,
    ) -> Result<(), RuleError> {
        let tid = &t_now.id;
        let range = if self.is_infantry(t_now) {
            let first = b.cmd_dice.len();
            let die = b.d6()?;
            let band = if short {
                Some(super::Band::Short)
            } else {
                tables::charge_range(&self.d, self.troop_def(t_now)?.troop, from, die)
            };
            let inches = band.map(|bd| match bd {
                super::Band::Short => self.d.small_arms_bands[0] / 2.0,
                super::Band::Medium => {
                    (self.d.small_arms_bands[0] + self.d.small_arms_bands[1]) / 2.0
                }
                super::Band::Long => {
                    (self.d.small_arms_bands[1] + self.d.small_arms_bands[2]) / 2.0
                }
            });
            b.emit(
                out,
                Event::Rolled {
                    what: HalRoll::ChargeRange {
                        band,
                        within_six: short,
                    }
                    .said("the range to fire into the charge"),
                    roll: Roll {
                        unit: Some(tid.clone()),
                        dice: vec![die],
                        total: i32::from(die),
                        outcome: format!(
                            "{} range{}",
                            band.map_or("no", |bd| match bd {
                                super::Band::Short => "short",
                                super::Band::Medium => "medium",
                                super::Band::Long => "long",
                            }),
                            if short {
                                " (the charge began within 6\")"
                            } else {
                                ""
                            }
                        ),
                        first_die: Some(first),
                        ..Roll::default()
                    },
                },
            );
            inches
        } else if self.is_artillery(t_now) {
            Some(self.d.artillery_bands[0] / 2.0)
        } else {
            None
        };
        b.emit(
            out,
            HalEvent::Braced {
                unit: tid.clone(),
                against: id.clone(),
                range,
            },
        );
        Ok(())
    }

    /// The move: the rate, the charge die and every other die the move needs; into contact,
    /// or as far as it reaches.
    fn charge_home(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        u: &Unit,
        t: &Unit,
        to: Base,
        dist: f32,
    ) -> Result<(), RuleError> {
        let (id, tid) = (&u.id, &t.id);
        let needs = self.charge_needs(b, u, &to);
        self.throw_needs(b, out, id, &needs)?;
        let first = b.cmd_dice.len();
        let die = b.d6()?;
        let allowance = self.allowance(b, u, false) + f32::from(die) - u.bound.spent;
        let reaches = dist <= allowance + 0.01;
        b.emit(
            out,
            Event::Rolled {
                what: HalRoll::ChargeBonus {
                    falls_short: !reaches,
                }
                .said("the charge bonus"),
                roll: Roll {
                    unit: Some(id.clone()),
                    dice: vec![die],
                    total: allowance.round() as i32,
                    outcome: if reaches {
                        format!("{allowance:.1}\" reaches {} at {dist:.1}\"", t.name)
                    } else {
                        format!("{allowance:.1}\" falls short of {} at {dist:.1}\"", t.name)
                    },
                    first_die: Some(first),
                    ..Roll::default()
                },
            },
        );

        let end = if reaches {
            to
        } else {
            self.charge_short(b, u, t, to, allowance, dist)
        };
        let blocked = b
            .alive()
            .any(|o| o.id != u.id && o.id != *tid && !self.is_officer(o) && o.base.overlaps(&end));
        if blocked || !b.table.holds(&end) {
            b.emit(
                out,
                Event::Halted {
                    unit: id.clone(),
                    why: if blocked {
                        "its charge is blocked short of the target"
                    } else {
                        "its charge would carry it off the table"
                    }
                    .into(),
                },
            );
            return Ok(());
        }
        // Friends passed through are disordered, as is the charger.
        let passed: Vec<UnitId> = b
            .alive()
            .filter(|o| o.side == u.side && o.id != u.id && !self.is_officer(o) && self.formed(o))
            .filter(|o| {
                (1..=24).any(|k| {
                    let f = k as f32 / 24.0;
                    Base {
                        centre: u.base.centre.plus(end.centre.minus(u.base.centre).scale(f)),
                        ..end
                    }
                    .overlaps(&o.base)
                })
            })
            .map(|o| o.id.clone())
            .collect();
        b.emit(
            out,
            Event::Moved {
                unit: id.clone(),
                from: u.base,
                to: end,
                distance: if reaches { dist } else { allowance },
                allowance,
                going: "good going, charging".into(),
                contact: reaches.then(|| tid.clone()),
                manoeuvre: None,
            },
        );
        for o in passed {
            for x in [&o, id] {
                b.emit(
                    out,
                    Event::Disordered {
                        unit: x.clone(),
                        why: "a charge passed through formed troops".into(),
                    },
                );
            }
        }
        Ok(())
    }

    /// As far as it can go, straight at the target, and short of touching it (turned to face
    /// it, a base can reach it before its front has covered the distance): more than the
    /// contact tolerance away, so that it is not in contact (ruling charge_short).
    fn charge_short(
        &self,
        b: &Battle,
        u: &Unit,
        t: &Unit,
        to: Base,
        allowance: f32,
        dist: f32,
    ) -> Base {
        let tid = &t.id;
        // As far as it can go, straight at the target, and short of touching it (turned to
        // face it, a base can reach it before its front has covered the distance): more
        // than the contact tolerance away, so that it is not in contact (ruling
        // charge_short).
        let facing = heading_deg(to.centre.minus(u.base.centre));
        let place = |f: f32| Base {
            centre: u.base.centre.plus(to.centre.minus(u.base.centre).scale(f)),
            facing,
            ..u.base
        };
        let tol = b.scale.to_mm(self.n(N::ContactTolerance));
        // Short of the target and of every other enemy: none of them was charged.
        let others: Vec<Base> = b
            .alive()
            .filter(|o| {
                o.side != u.side
                    && o.id != *tid
                    && !self.is_officer(o)
                    && !u.base.within(&o.base, tol)
            })
            .map(|o| o.base)
            .collect();
        let touches = |f: f32| {
            let p = place(f);
            p.within(&t.base, tol) || others.iter().any(|o| p.within(o, tol))
        };
        let mut f = (allowance / dist.max(0.01)).clamp(0.0, 1.0);
        if touches(f) {
            let mut lo = 0.0;
            for _ in 0..24 {
                let mid = (lo + f) / 2.0;
                if touches(mid) {
                    f = mid;
                } else {
                    lo = mid;
                }
            }
            f = lo;
        }
        if touches(f) { u.base } else { place(f) }
    }
}
