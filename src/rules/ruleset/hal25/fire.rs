//! Firing in Hal's rules: artillery (with counter-battery fire and towns), then small arms,
//! simultaneously; saves; casualties.

use super::procedures::{self, Receiving, Volley};
use super::rolls::{self, HalRoll};
use super::status::own;
use super::tables::{self, Target};
use super::{Band, Hal25, HalEvent, Marker, N, State, TroopClass, lost_in, this_phase};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, RuleError};
use crate::rules::geometry::{Base, Pt, point_segment_distance};
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::ruleset::Roll;
use crate::rules::ruleset::common::{exactly, illegal};
use crate::rules::ruleset::hal25::{ARTILLERY, Refusal, SMALL_ARMS};
use crate::rules::terrain::FeatureKind;

/// Everything a volley needs, checked.
#[derive(Clone, Debug)]
pub struct FireSetup {
    pub shooter: UnitId,
    pub target: UnitId,
    pub artillery: bool,
    pub counter_battery: bool,
    pub band: Band,
    /// Range in inches (or the range the charge die gave).
    pub range: f32,
    /// Figures firing (small arms) or guns served (artillery).
    pub strength: u32,
    pub first_volley: bool,
    pub line_firing: bool,
    pub moved: bool,
    pub light_gun: bool,
    pub receiving: Receiving,
    pub notes: Vec<String>,
}

impl Hal25 {
    /// True when a point lies in the unit's arc: ahead of its front and within 45 degrees out
    /// from either end.
    pub fn in_arc(&self, s: &Base, p: Pt) -> bool {
        let d = p.minus(s.front_centre());
        let ahead = d.dot(s.forward());
        if ahead < -1e-3 {
            return false;
        }
        let half = self.n(N::ArcHalfAngle).to_radians();
        d.dot(s.right()).abs() <= s.width / 2.0 + ahead * half.tan() + 1e-3
    }

    fn target_in_arc(&self, s: &Base, t: &Base) -> bool {
        t.corners().iter().any(|&c| self.in_arc(s, c)) || self.in_arc(s, t.centre)
    }

    /// Sight: woods, towns and other units between block it. The line is tried at points 10 mm
    /// apart; only the woods, towns and units that can lie on it are tried at each point.
    pub fn sight(&self, b: &Battle, s: &Unit, t: &Unit) -> Result<(), String> {
        let from = s.base.front_centre();
        let to = crate::rules::ruleset::old_dessauer::nearest_point(&t.base, from);
        let blocking = [FeatureKind::Woods, FeatureKind::Town, FeatureKind::Village];
        let features: Vec<_> = b
            .terrain
            .features
            .iter()
            .filter(|f| blocking.contains(&f.kind) && f.may_cross(from, to))
            .filter(|f| !f.touches(&s.base) && !f.touches(&t.base))
            .collect();
        let units: Vec<&Unit> = b
            .alive()
            .filter(|o| !std::ptr::eq(*o, s) && !std::ptr::eq(*o, t))
            .filter(|o| point_segment_distance(o.base.centre, from, to) <= o.base.radius() + 1e-3)
            .filter(|o| o.id != s.id && o.id != t.id && !self.is_officer(o))
            .collect();
        if features.is_empty() && units.is_empty() {
            return Ok(());
        }
        let n = ((from.dist(to) / 10.0).ceil() as usize).clamp(2, 400);
        for k in 1..n {
            let p = from.plus(to.minus(from).scale(k as f32 / n as f32));
            if let Some(f) = features.iter().find(|f| f.contains(p)) {
                return Err(format!("{} blocks the sight", f.name));
            }
            if let Some(o) = units.iter().find(|o| o.base.contains(p)) {
                return Err(format!("{} stands in the way", o.name));
            }
        }
        Ok(())
    }

    /// The enemies a unit may fire at now, nearest first (small arms: only the nearest).
    pub fn targets(&self, b: &Battle, s: &Unit, reach: f32) -> Vec<(UnitId, f32)> {
        let mut v: Vec<(UnitId, f32)> = b
            .alive()
            .filter(|t| t.side != s.side && self.is_unit(t))
            .filter(|t| s.base.near(&t.base, b.scale.to_mm(reach) + 1.0))
            .filter(|t| self.target_in_arc(&s.base, &t.base))
            .map(|t| (t.id.clone(), self.inches(b, s.base.distance(&t.base))))
            .filter(|(_, d)| *d <= reach + 1e-3)
            .filter(|(id, _)| b.unit(id).is_ok_and(|t| self.sight(b, s, t).is_ok()))
            .collect();
        v.sort_by(|a, c| a.1.partial_cmp(&c.1).unwrap_or(std::cmp::Ordering::Equal));
        v
    }

    /// The charger a defender that held fires at, and the range its die gave.
    pub(super) fn braced_against(&self, b: &Battle, id: &UnitId) -> Option<(UnitId, Option<f32>)> {
        super::this_turn(b)
            .iter()
            .rev()
            .find_map(|e| match e.own() {
                Some(HalEvent::Braced {
                    unit,
                    against,
                    range,
                }) if unit == id => Some((against.clone(), *range)),
                _ => None,
            })
    }

    pub fn fire_setup(
        &self,
        b: &Battle,
        sid: &UnitId,
        tid: &UnitId,
    ) -> Result<FireSetup, RuleError> {
        let s = b.unit(sid)?;
        let t = b.unit(tid)?;
        let artillery = self.is_artillery(s);
        self.may_fire(b, s, t, artillery)?;
        let mut notes = Vec::new();
        let (band, range) = self.band_and_range(b, s, t, artillery, &mut notes)?;
        let receiving = Receiving {
            target: Target {
                // A battery, limbered or not, is no column of troops: its crew and drivers
                // save as artillery crew and mounted (II.A.1.c, II.B.2.b; ruling
                // limbered_saves).
                in_column: t.formation == Formation::Column && !self.is_artillery(t),
                covered: self.covered(b, t)
                    || t.formation == Formation::Skirmish
                    || self.is_cavalry(t)
                    || self.is_artillery(t),
            },
            cavalry: self.is_cavalry(t),
        };
        let strength = if artillery {
            if s.status.limbered {
                return illegal(Refusal::Limbered, format!("{} is limbered", s.name));
            }
            let g = self.guns_served(s);
            if g == 0 {
                return illegal(
                    Refusal::NoGunWithTwoCrew,
                    format!("{}: no gun has two crew", s.name),
                );
            }
            g
        } else {
            self.firing_figures(b, s)
        };
        // A formation or facing change is movement (III: its own column of the movement
        // table, "move at slowest of the two formation rates"): the firer moved (ruling
        // moving_firer_save).
        let moved = s.bound.moved || s.bound.formed;
        if moved && !artillery {
            notes.push("moved this turn: the target's save is one number harder".into());
        }
        Ok(FireSetup {
            shooter: sid.clone(),
            target: tid.clone(),
            artillery,
            counter_battery: artillery && self.is_artillery(t),
            band,
            range,
            strength,
            first_volley: !artillery && !own(s).volley_spent,
            line_firing: matches!(
                self.class(s),
                Some(TroopClass::Line | TroopClass::Grenadier)
            ),
            moved: moved && !artillery,
            light_gun: self.troop_def(s)?.light_gun,
            receiving,
            notes,
        })
    }
    /// Whether the unit may fire now at all: the step, the target, and what it did this turn.
    fn may_fire(&self, b: &Battle, s: &Unit, t: &Unit, artillery: bool) -> Result<(), RuleError> {
        self.fires_now(b, s, artillery)?;
        if !s.alive() || !t.alive() || t.side == s.side || self.is_officer(t) {
            return illegal(
                Refusal::CannotFireAt,
                format!("{} cannot fire at {}", s.name, t.name),
            );
        }
        self.ready_to_fire(b, s, artillery)
    }

    /// Whether this phase is the firing step of `s`'s arm (artillery first, small arms next).
    pub(super) fn fires_now(&self, b: &Battle, s: &Unit, artillery: bool) -> Result<(), RuleError> {
        match b.phase {
            ARTILLERY if !artillery => {
                return illegal(
                    Refusal::ArtilleryFiresFirst,
                    format!("{}: artillery fires first; small arms next", s.name),
                );
            }
            SMALL_ARMS if artillery => {
                return illegal(
                    Refusal::FiredInArtilleryStep,
                    format!("{} fired in the artillery step", s.name),
                );
            }
            ARTILLERY | SMALL_ARMS => {}
            p => {
                return Err(RuleError::WrongPhase {
                    command: "fire".into(),
                    phase: p,
                });
            }
        }
        Ok(())
    }

    /// The firer's own refusals, whatever its target: its arm, its fire spent, its turn's
    /// moves and charges, its state and a melee.
    pub(super) fn ready_to_fire(
        &self,
        b: &Battle,
        s: &Unit,
        artillery: bool,
    ) -> Result<(), RuleError> {
        if self.is_cavalry(s) || self.is_officer(s) {
            return illegal(
                Refusal::CavalryDoNotFire,
                format!("{}: cavalry do not fire small arms", s.name),
            );
        }
        // A battery whose counter-battery fire removed its target has fired too.
        let fired_guns = this_phase(b).iter().any(|e| {
            matches!(e, Event::Rolled { what, roll }
                if matches!(rolls::kind(what), Some(HalRoll::CounterBattery { .. }))
                    && roll.unit.as_ref() == Some(&s.id))
        });
        if s.bound.fired || fired_guns {
            return illegal(
                Refusal::AlreadyFired,
                format!("{} has fired this turn", s.name),
            );
        }
        let passed_through = super::this_turn(b).iter().any(|e| {
            matches!(e, Event::Halted { unit, why }
                if *unit == s.id && why.kind::<super::movement::PassedThrough>().is_some())
        });
        if passed_through {
            return illegal(
                Refusal::PassedThroughFriends,
                format!(
                    "{} passed through formed friends: it does nothing more this turn (III.A.10)",
                    s.name
                ),
            );
        }
        if self.state(s) == State::Routed {
            return illegal(Refusal::Routed, format!("{} is routed", s.name));
        }
        if self.charged(b, &s.id) {
            return illegal(
                Refusal::ChargedMayNotFire,
                format!("{} charged this turn: it may not fire", s.name),
            );
        }
        if !self.enemies_in_contact(b, s).is_empty()
            && !artillery
            && self.braced_against(b, &s.id).is_none()
        {
            return illegal(Refusal::InMelee, format!("{} is in melee", s.name));
        }
        Ok(())
    }

    /// The range band and the range: into a charge it braced against, at the range its die gave;
    /// otherwise measured, the target in arc, sight and reach (small arms at the nearest threat).
    fn band_and_range(
        &self,
        b: &Battle,
        s: &Unit,
        t: &Unit,
        artillery: bool,
        notes: &mut Vec<String>,
    ) -> Result<(Band, f32), RuleError> {
        let braced = self.braced_against(b, &s.id);
        match &braced {
            Some((against, Some(r))) if *against == t.id => {
                notes.push(format!("fires into {}'s charge", t.name));
                let bands = if artillery {
                    &self.d.artillery_bands
                } else {
                    &self.d.small_arms_bands
                };
                Ok((tables::band(bands, *r).unwrap_or(Band::Long), *r))
            }
            Some((against, _)) if *against != t.id && !artillery => {
                let a = b.unit(against).map(|a| a.name.clone()).unwrap_or_default();
                illegal(
                    Refusal::MustFireIntoCharge,
                    format!("{} must fire into {a}'s charge", s.name),
                )
            }
            _ => {
                if !self.target_in_arc(&s.base, &t.base) {
                    return illegal(
                        Refusal::OutsideArc,
                        format!("{} is outside {}'s arc", t.name, s.name),
                    );
                }
                let range = self.inches(b, s.base.distance(&t.base));
                let bands = if artillery {
                    &self.d.artillery_bands
                } else {
                    &self.d.small_arms_bands
                };
                let Some(band) = tables::band(bands, range) else {
                    return illegal(
                        Refusal::BeyondRange,
                        format!("{} is {range:.1}\" away: beyond {}\"", t.name, bands[2]),
                    );
                };
                if let Err(why) = self.sight(b, s, t) {
                    return illegal(
                        Refusal::CannotSee,
                        format!("{} cannot see {}: {why}", s.name, t.name),
                    );
                }
                if !artillery {
                    let nearest = self.targets(b, s, bands[2]);
                    if let Some((n, d)) = nearest.first()
                        && *n != t.id
                        && *d + 1e-3 < range
                    {
                        let nn = b.unit(n).map(|x| x.name.clone()).unwrap_or_default();
                        return illegal(
                            Refusal::MustFireAtNearestThreat,
                            format!(
                                "{} fires at the nearest enemy threat: {nn} at {d:.1}\"",
                                s.name
                            ),
                        );
                    }
                }
                Ok((band, range))
            }
        }
    }

    /// Figures that fire: all in line or skirmish order, the front row in column, as they were
    /// when the small-arms step began.
    pub fn firing_figures(&self, b: &Battle, s: &Unit) -> u32 {
        let back = lost_in(this_phase(b), &s.id);
        if s.formation == Formation::Column {
            // The front row as it stood when the step began: losses come off the rear, so the
            // figures lost this step are given back where they were lost, not to the front.
            let mut then = s.clone();
            then.stands = self
                .stands_at_step_start(b, s, back)
                .into_iter()
                .map(crate::rules::model::Stand::new)
                .collect();
            let p = self.places(&then, then.formation, own(&then).volley_spent);
            let front = p.iter().map(|q| q.back).fold(f32::MAX, f32::min);
            p.iter()
                .zip(&then.stands)
                .filter(|(q, _)| (q.back - front).abs() < 1e-3)
                .map(|(_, st)| st.figures)
                .sum()
        } else {
            s.figures() + back
        }
    }

    /// The figures on each of the unit's stands when this step began, `back` figures having
    /// been lost in it: the stands its last losses before the step left, or (none lost before)
    /// the figures put back on the rear stands, each up to its full number.
    fn stands_at_step_start(&self, b: &Battle, s: &Unit, back: u32) -> Vec<u32> {
        let now: Vec<u32> = s.stands.iter().map(|x| x.figures).collect();
        if back == 0 {
            return now;
        }
        let start = b
            .log
            .iter()
            .rposition(|e| matches!(e, Event::PhaseBegan { .. }))
            .unwrap_or(0);
        let earlier = (0..start)
            .rev()
            .filter_map(|i| b.log.get(i))
            .find_map(|e| match e {
                Event::Losses { unit, stands, .. } if unit == &s.id => Some(stands.clone()),
                _ => None,
            });
        if let Some(v) = earlier {
            return v;
        }
        let full = self.org(s).map(|o| o.stands.clone()).unwrap_or_default();
        let mut v = now;
        let mut left = back;
        let mut i = v.len().saturating_sub(1);
        while left > 0 && i < full.len().max(v.len()) {
            if i >= v.len() {
                v.push(0);
            }
            let cap = full.get(i).copied().unwrap_or(self.full_stand(s));
            let put = cap.saturating_sub(v[i]).min(left);
            v[i] += put;
            left -= put;
            i += 1;
        }
        v
    }

    fn volley(&self, setup: &FireSetup, roll: &mut dyn FnMut() -> u8) -> Volley {
        if setup.artillery {
            procedures::artillery(
                &self.d,
                setup.strength,
                setup.band,
                setup.light_gun,
                setup.receiving,
                roll,
            )
        } else {
            procedures::small_arms(
                &self.d,
                setup.strength,
                setup.band,
                setup.first_volley,
                setup.line_firing,
                setup.moved,
                setup.receiving,
                roll,
            )
        }
    }

    pub fn fire(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        sid: &UnitId,
        tid: &UnitId,
    ) -> Result<(), RuleError> {
        let setup = self.fire_setup(b, sid, tid)?;
        let s = b.unit(sid)?.clone();
        let t = b.unit(tid)?.clone();
        let mut knocked = 0;
        if setup.counter_battery {
            knocked = self.counter_battery_fire(b, out, &setup, sid, &t)?;
            if b.unit(tid)?.status.removed {
                // The battery lost its last gun: the fire was effective, and an officer with
                // it throws for his risk (VI.C).
                self.officer_risk(b, out, tid)?;
                return Ok(());
            }
        }
        let first = b.cmd_dice.len();
        let v = b.with_dice(|roll| self.volley(&setup, roll))?;
        self.volley_rolls(b, out, &setup, &v, first);
        if setup.first_volley {
            b.emit(
                out,
                HalEvent::Marked {
                    unit: sid.clone(),
                    marker: Marker::VolleySpent,
                    count: 1,
                },
            );
        }
        let why = format!(
            "{} from {}",
            if setup.artillery {
                "artillery fire"
            } else {
                "musketry"
            },
            s.name
        );
        self.take_losses(b, out, tid, v.casualties, &why)?;
        if knocked > 0 && v.casualties == 0 && b.unit(tid)?.alive() {
            // The gun knocked out was effective fire: the officer's risk, once (VI.C).
            self.officer_risk(b, out, tid)?;
        }
        if setup.artillery && v.casualties > 0 {
            self.damage_town(b, out, &t, v.casualties)?;
        }
        Ok(())
    }

    /// Counter-battery fire: each gun's die to hit, and 2D6 to knock a gun out; the guns knocked
    /// out.
    fn counter_battery_fire(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        setup: &FireSetup,
        sid: &UnitId,
        t: &Unit,
    ) -> Result<u32, RuleError> {
        let tid = &t.id;
        let mut knocked = 0;
        let mut at = b.cmd_dice.len();
        let shots = b.with_dice(|roll| {
            procedures::counter_battery(&self.d, setup.strength, setup.band, setup.light_gun, roll)
        })?;
        // Light guns take -1 on the die to hit (II.B.3.b).
        let light = if setup.light_gun {
            vec![Factor {
                name: "light gun".into(),
                value: self.n(N::LightGunCounterBattery) as i32,
                source: "004 II.B.3.b".into(),
            }]
        } else {
            Vec::new()
        };
        let to_hit = self.d.counter_battery_need.get(setup.band.index()).copied();
        for shot in shots {
            let first_die = Some(at);
            at += if shot.knock_dice.is_some() { 3 } else { 1 };
            let scored = i32::from(shot.die) + light.iter().map(|f| f.value).sum::<i32>();
            let roll = match shot.knock_dice {
                Some((x, y)) => Roll {
                    unit: Some(sid.clone()),
                    dice: vec![shot.die, x, y],
                    total: i32::from(x + y),
                    need: Some(self.n(N::KnockOutNeed) as i32),
                    outcome: format!(
                        "hits{} with {scored} (needs {}); {}",
                        if light.is_empty() {
                            ""
                        } else {
                            " (-1 light gun)"
                        },
                        to_hit.unwrap_or(0),
                        if shot.knocks_out {
                            format!("knocks out a gun of {}", t.name)
                        } else {
                            "the gun is not knocked out".into()
                        }
                    ),
                    first_die,
                    ..Roll::default()
                },
                None => Roll {
                    unit: Some(sid.clone()),
                    dice: vec![shot.die],
                    factors: light.clone(),
                    total: scored,
                    need: to_hit,
                    outcome: "misses".into(),
                    first_die,
                    ..Roll::default()
                },
            };
            b.emit(
                out,
                Event::Rolled {
                    what: HalRoll::CounterBattery {
                        knocked_out: shot.knock_dice.map(|_| shot.knocks_out),
                    }
                    .said("counter-battery fire"),
                    roll,
                },
            );
            knocked += u32::from(shot.knocks_out);
        }
        for _ in 0..knocked {
            self.knock_out(b, out, tid)?;
        }
        Ok(knocked)
    }

    /// The volley's rolls in the log: the figures left over, the volley, the saves and the odd hit
    /// on horse.
    fn volley_rolls(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        setup: &FireSetup,
        v: &Volley,
        mut first: usize,
    ) {
        let (sid, tid) = (&setup.shooter, &setup.target);
        let deduction = Factor {
            name: if setup.artillery {
                "artillery range deduction".into()
            } else if setup.first_volley {
                "first volley range deduction".into()
            } else {
                "range deduction".into()
            },
            value: -v.deduction,
            source: if setup.artillery {
                "004 II.B ranges and deductions".into()
            } else {
                "004 II.A.1.b".into()
            },
        };
        if let Some(t) = v.remainder_test {
            let left = tables::dice_for(&self.d, setup.strength).1;
            let fires = tables::remainder_fires(left, t);
            b.emit(
                out,
                Event::Rolled {
                    what: HalRoll::FiguresLeftOver.said(if left == 1 {
                        "the figure left over".to_string()
                    } else {
                        format!("the {left} figures left over")
                    }),
                    roll: Roll {
                        unit: Some(sid.clone()),
                        dice: vec![t],
                        total: i32::from(t),
                        outcome: format!(
                            "{} ({left} or less fires a die)",
                            if fires { "a die more" } else { "no die" }
                        ),
                        first_die: Some(first),
                        ..Roll::default()
                    },
                },
            );
            first += 1;
        }
        let dice = v.dice.clone();
        b.emit(
            out,
            Event::Volley {
                shooter: sid.clone(),
                target: tid.clone(),
                stands: setup.strength,
                dice,
                factors: vec![deduction],
                need: (v.deduction + 1).clamp(1, 7) as u8,
                hits: v.hits,
                first_die: Some(first),
            },
        );
        if let Some(need) = v.save_need.filter(|_| !v.saves.is_empty()) {
            let saved = v.saves.iter().filter(|&&x| x >= need).count() as i32;
            b.emit(
                out,
                Event::Rolled {
                    what: HalRoll::Saves.said(if need >= 6 {
                        "saves (on 6)".to_string()
                    } else {
                        format!("saves (on {need}-6)")
                    }),
                    roll: Roll {
                        unit: Some(tid.clone()),
                        dice: v.saves.clone(),
                        total: saved,
                        need: Some(i32::from(need)),
                        outcome: format!("{saved} saved"),
                        first_die: Some(first + v.dice.len()),
                        ..Roll::default()
                    },
                },
            );
        }
        if let Some(odd) = v.odd_die {
            b.emit(
                out,
                Event::Rolled {
                    what: HalRoll::OddOnHorse {
                        falls: f32::from(odd) >= self.n(N::OddHitNeed),
                    }
                    .said("the odd hit on horse"),
                    roll: Roll {
                        unit: Some(tid.clone()),
                        dice: vec![odd],
                        total: i32::from(odd),
                        need: Some(self.n(N::OddHitNeed) as i32),
                        outcome: if f32::from(odd) >= self.n(N::OddHitNeed) {
                            "a horseman falls".into()
                        } else {
                            "no casualty".into()
                        },
                        first_die: Some(first + v.dice.len() + v.saves.len()),
                        ..Roll::default()
                    },
                },
            );
        }
    }

    /// A gun knocked out: the last gun with crew is lost with them.
    fn knock_out(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        let stands: Vec<u32> = u.stands.iter().map(|s| s.figures).collect();
        let Some(i) = (0..stands.len().min(2)).rev().find(|&i| stands[i] > 0) else {
            return Ok(());
        };
        // Lost as any other casualties of fire: the once-only check at half a battery's
        // figures (V.A.1) follows; the risk to an attached officer (VI.C) is thrown once for
        // the whole fire, with its casualties (or alone, where they are none).
        let lost = stands[i];
        self.lose_risking(
            b,
            out,
            id,
            lost,
            &[(i, lost)],
            "a gun knocked out with its crew",
            true,
            false,
        )
    }

    /// Casualties a volley would inflict: (chance of each count), by exact enumeration.
    pub fn fire_odds(&self, setup: &FireSetup) -> Vec<f64> {
        let (n, rem) = if setup.artillery {
            (setup.strength, 0)
        } else {
            tables::dice_for(&self.d, setup.strength)
        };
        let deduction = if setup.artillery {
            tables::artillery_deduction(&self.d, setup.band)
        } else {
            tables::small_arms_deduction(&self.d, setup.first_volley, setup.band)
        };
        let one: Vec<f64> = {
            let mut v = vec![0.0; 7];
            for face in 1..=6u8 {
                v[tables::die_hits(face, deduction) as usize] += 1.0 / 6.0;
            }
            v
        };
        let conv = |a: &[f64], c: &[f64]| {
            let mut r = vec![0.0; a.len() + c.len() - 1];
            for (i, x) in a.iter().enumerate() {
                for (j, y) in c.iter().enumerate() {
                    r[i + j] += x * y;
                }
            }
            r
        };
        let pow = |k: u32| (0..k).fold(vec![1.0], |acc, _| conv(&acc, &one));
        let mut hits = pow(n);
        if rem > 0 {
            let p = f64::from(rem) / 6.0;
            let more = pow(n + 1);
            let mut mix = vec![0.0; more.len()];
            for (i, x) in hits.iter().enumerate() {
                mix[i] += x * (1.0 - p);
            }
            for (i, x) in more.iter().enumerate() {
                mix[i] += x * p;
            }
            hits = mix;
        }
        let light = setup.artillery.then_some(setup.band == Band::Long);
        let need = if setup.artillery && !setup.light_gun {
            tables::save_need(&self.d, setup.receiving.target, false, None, false)
        } else {
            tables::save_need(
                &self.d,
                setup.receiving.target,
                setup.line_firing,
                if setup.light_gun { light } else { None },
                setup.moved,
            )
        };
        // Each hit is kept unless its save die makes the save (7: no save).
        let need = need.unwrap_or(7);
        let mut kept = vec![0.0; hits.len()];
        for (h, p) in hits.iter().enumerate() {
            for (k, slot) in kept.iter_mut().enumerate().take(h + 1) {
                *slot += p * exactly(h as u32, need, (h - k) as u32);
            }
        }
        if !setup.receiving.cavalry {
            return kept;
        }
        let per = self.n(N::CavalryHitsPerFigure).max(1.0) as usize;
        let odd = (7.0 - f64::from(self.n(N::OddHitNeed))) / 6.0;
        let mut cas = vec![0.0; kept.len() / per + 2];
        for (k, p) in kept.iter().enumerate() {
            let whole = k / per;
            if k % per == 0 {
                cas[whole] += p;
            } else {
                cas[whole + 1] += p * odd;
                cas[whole] += p * (1.0 - odd);
            }
        }
        cas
    }
}
