//! DB7YW: musket movement, firing and close combat factors and results, stoic units, pursuit,
//! breakthrough and routing troops, on the shared DBN engine.

use super::common::{MovePlan, chance, fire_or_fight, manoeuvre_words, own_active};
use super::dbn::{Dbn, TroopKind, TroopTrait};
use super::view::{
    ActionGroup, Card, Choice, Deployment, Layer, Look, Mark, Measure, MoveRequest, Outlook,
    OutlookPart, Reference, TurnWords, UnitModel,
};
use super::{Ruleset, Ruling, UnitSetup};
use crate::rules::battle::Battle;
use crate::rules::command::{
    Command, Effect, Event, Factor, RuleError, Score, Step, Verdict, factor_sum,
};
use crate::rules::geometry::{Edge, Pt};
use crate::rules::model::SideInfo;
use crate::rules::model::{Class, Flag, Phase, Unit, UnitId};
use crate::rules::scenario::RawUnit;
use crate::rules::terrain::Terrain;

/// The ruleset's data, compiled into the program.
pub const DATA: &str = include_str!("../../../assets/rulesets/db7yw.ron");

/// The optional rule of the free Special ADC.
const FREE_ADC: &str = "free_adc";

/// DB7YW's optional rules: key and what it does.
const OPTIONS: &[(&str, &str)] = &[(
    FREE_ADC,
    "Free Special ADC: each army's CinC has an ADC who adds 1 to its command roll while the CinC is on the table",
)];

/// A checked firing or close combat before the dice: both units and their factors.
#[derive(Clone, Debug)]
pub struct Setup {
    pub a: Unit,
    pub b: Unit,
    pub a_factors: Vec<Factor>,
    pub b_factors: Vec<Factor>,
    /// Counter-battery fire: either side may suffer the result.
    pub mutual: bool,
}

/// A roll about to be made: the setup and the exact odds of each outcome. In firing that is
/// not counter-battery, "b wins" means the fire has no effect.
#[derive(Clone, Debug)]
pub struct Preview {
    pub setup: Setup,
    pub odds: crate::rules::odds::Odds,
    pub firing: bool,
}

/// A unit's part in a firing: the firer (both guns in counter-battery fire, `mutual`), or the
/// target, which may or may not be able to fire back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireRole {
    Firer { mutual: bool },
    Target { responding: bool },
}

/// Firing or close combat: which table and factors apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combat {
    Firing,
    Close,
}

/// DB7YW on the DBN engine.
#[derive(Clone, Debug)]
pub struct Db7yw {
    pub dbn: Dbn,
    /// The optional rules in use.
    pub options: Vec<String>,
}

impl Db7yw {
    pub fn load() -> Result<Self, String> {
        Ok(Db7yw {
            dbn: Dbn::from_ron(DATA)?,
            options: Vec::new(),
        })
    }

    fn has_option(&self, key: &str) -> bool {
        self.options.iter().any(|o| o == key)
    }

    fn troop_factor(&self, b: &Battle, u: &Unit) -> Vec<Factor> {
        let d = &self.dbn;
        let t = d.troop_of(u);
        let mut f = vec![Factor {
            name: t.name.clone(),
            value: t.combat,
            source: t.source.clone(),
        }];
        if u.troop == "II" && d.in_nlf_or_fort(b, u) {
            f.push(d.combat_factor("ii_occupying"));
        }
        f
    }

    /// A count of hits from the results tables.
    fn hits(&self, key: &str) -> u32 {
        self.dbn.num(key) as u32
    }

    /// Stoic for this kind of combat: guards, Prussian grenadiers, named units; Russian
    /// Muskets when firing.
    pub fn is_stoic(&self, b: &Battle, u: &Unit, kind: Combat) -> bool {
        let nation = b.sides.get(u.side).map(|s| s.nation.as_str()).unwrap_or("");
        u.has(Flag::Guard)
            || u.has(Flag::Stoic)
            || (u.has(Flag::Grenadier) && nation == "prussia")
            || (kind == Combat::Firing && u.troop == "Ms" && nation == "russia")
    }

    /// Decides an opposed roll for `a` against `b`: who lost, and how.
    pub fn verdict(a: i32, b: i32) -> (Option<bool>, Verdict) {
        crate::rules::odds::verdict(a, b)
    }

    /// The factors and exact odds of a Fire or Fight command, before any die is thrown.
    pub fn forecast(&self, b: &Battle, cmd: &Command) -> Result<Preview, RuleError> {
        let (setup, kind) = match cmd {
            Command::Fire {
                unit,
                target,
                support,
                defence,
            } => (
                self.fire_setup(b, unit, target, support, defence.as_deref())?,
                Combat::Firing,
            ),
            Command::Fight { unit, target, .. } => {
                (self.fight_setup(b, unit, target, false)?, Combat::Close)
            }
            _ => {
                return Err(RuleError::Illegal(
                    "only firing and close combat have odds".into(),
                ));
            }
        };
        let a_stoic = self.is_stoic(b, &setup.a, kind) && (kind == Combat::Close || setup.mutual);
        let b_stoic = self.is_stoic(b, &setup.b, kind);
        let odds = crate::rules::odds::opposed(
            factor_sum(&setup.a_factors),
            factor_sum(&setup.b_factors),
            a_stoic,
            b_stoic,
        );
        Ok(Preview {
            setup,
            odds,
            firing: kind == Combat::Firing,
        })
    }

    // ----- movement ------------------------------------------------------------------

    /// Checks the Musket movement restrictions for a move that is not wholly on a road.
    fn musket_shape(
        &self,
        b: &Battle,
        u: &Unit,
        steps: &[Step],
        group: bool,
    ) -> Result<(), RuleError> {
        let d = &self.dbn;
        let prussian = b.sides.get(u.side).is_some_and(|s| s.nation == "prussia");
        let max_wheel = if prussian && !group {
            d.num("prussian_ms_wheel_max")
        } else {
            d.num("ms_wheel_max")
        };
        let shape = "Muskets may move only straight forward, directly sideways or directly backwards, or wheel or about face instead of moving";
        match steps {
            [] | [Step::Advance(_)] | [Step::Backstep(_)] | [Step::AboutFace] => Ok(()),
            [Step::Sidestep(_)] if !group || prussian => Ok(()),
            [Step::Sidestep(_)] => Err(RuleError::Illegal(
                "only Prussian Muskets may move sideways as a formation".into(),
            )),
            [Step::Wheel { degrees, .. }] => {
                if *degrees > max_wheel + 1e-3 {
                    Err(RuleError::Illegal(format!(
                        "Muskets may wheel at most {max_wheel:.0} degrees"
                    )))
                } else {
                    Ok(())
                }
            }
            _ => Err(RuleError::Illegal(shape.into())),
        }
    }

    /// Checks and plans a move of one unit or a group, without changing anything.
    pub fn plan(&self, b: &Battle, ids: &[UnitId], steps: &[Step]) -> Result<MovePlan, RuleError> {
        let d = &self.dbn;
        if b.phase != Phase::Movement {
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
                return Err(RuleError::AlreadyActed {
                    unit: id.clone(),
                    what: "moved".into(),
                });
            }
            if d.in_close_combat(b, u) {
                return Err(RuleError::Illegal(format!(
                    "{} is in close combat and cannot move",
                    u.name
                )));
            }
            if u.troop == "Bg" {
                return Err(RuleError::Illegal(format!(
                    "{} (baggage) does not move",
                    u.name
                )));
            }
            if u.has(Flag::Fixed) {
                return Err(RuleError::Illegal(format!(
                    "{} is fixed artillery and may not move",
                    u.name
                )));
            }
            if d.is_artillery(u) {
                if u.bound.limber_changed
                    && (!d.has_trait(u, TroopTrait::QuickLimber) || !u.status.limbered)
                {
                    return Err(RuleError::Illegal(format!(
                        "{} limbered or unlimbered this bound and cannot move",
                        u.name
                    )));
                }
                if !u.status.limbered {
                    pivot_only = true;
                    let max = d.num("fa_pivot_max");
                    match body {
                        [Step::Pivot(p)] if p.abs() <= max + 1e-3 && charge.is_none() && !group => {
                        }
                        _ => {
                            return Err(RuleError::Illegal(format!(
                                "unlimbered artillery may only pivot up to {max:.0} degrees; limber it to move"
                            )));
                        }
                    }
                }
            }
        }
        let lead = b.unit(&ids[0])?;
        let mut muskets = Vec::new();
        for id in ids {
            let u = b.unit(id)?;
            if u.troop == "Ms" {
                muskets.push(u);
            }
        }
        // A Musket wheel or about face made instead of moving is the whole move, unmeasured,
        // whoever leads the group.
        let instead = !muskets.is_empty()
            && charge.is_none()
            && matches!(body, [Step::Wheel { .. }] | [Step::AboutFace]);
        // Into contact the whole move is one straight advance, on a road or not: no sidestep,
        // wheel or backward step before it.
        if let Some(u) = muskets.first()
            && charge.is_some()
            && !matches!(body, [] | [Step::Advance(_)])
        {
            return Err(RuleError::Illegal(format!(
                "{} may move into close combat only straight forward: no wheel, sidestep or step back before the contact",
                u.name
            )));
        }
        let mut plan = d.plan_move(b, ids, body, charge, !instead)?;
        if !plan.going.road {
            for u in &muskets {
                self.musket_shape(b, u, body, group)?;
            }
        }
        if let Some((target, _, c)) = &plan.contact {
            let t = b.unit(target)?;
            if !muskets.is_empty() {
                let max = d.num("ms_charge_max");
                if plan.distance > max + 0.5 {
                    return Err(RuleError::Illegal(format!(
                        "Muskets may move at most {max:.0} {} into close combat ({:.0} {})",
                        b.scale.unit, plan.distance, b.scale.unit
                    )));
                }
            }
            if lead.troop == "Ms" {
                if c.edge != Edge::Front {
                    return Err(RuleError::Illegal(format!(
                        "Muskets must meet {} face to face: front edge to its front edge, never its flank or rear",
                        t.name
                    )));
                }
                let need = d.num("ms_contact_fraction") * lead.base.width;
                if c.overlap + 0.5 < need {
                    return Err(RuleError::Illegal(format!(
                        "Muskets must contact {} with at least half their front",
                        t.name
                    )));
                }
            }
            if d.is_commander(lead) {
                return Err(RuleError::Illegal("commanders do not charge".into()));
            }
        }
        for (id, end) in &plan.ends {
            d.check_occupation(b, b.unit(id)?, end)?;
        }
        if pivot_only {
            plan.cost = d.num("fa_pivot_cost") as i32;
        }
        if instead || pivot_only {
            plan.manoeuvre = manoeuvre_words(body);
        }
        Ok(plan)
    }

    fn do_move(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        ids: &[UnitId],
        steps: &[Step],
    ) -> Result<(), RuleError> {
        let plan = self.plan(b, ids, steps)?;
        let names: Vec<String> = ids
            .iter()
            .map(|i| b.unit(i).map_or_else(|_| i.0.clone(), |u| u.name.clone()))
            .collect();
        self.dbn
            .spend(b, out, plan.cost, format!("move {}", names.join(", ")))?;
        for ((id, to), (_, from)) in plan.ends.iter().zip(plan.starts.iter()) {
            let contact = plan
                .contact
                .as_ref()
                .filter(|_| id == &ids[0])
                .map(|c| c.0.clone());
            b.emit(
                out,
                Event::Moved {
                    unit: id.clone(),
                    from: *from,
                    to: *to,
                    distance: plan.distance,
                    allowance: plan.allowance,
                    going: plan.going.describe(),
                    contact,
                    manoeuvre: plan.manoeuvre.clone(),
                },
            );
            self.dbn.check_objective(b, out, id);
            self.dbn.check_capture(b, out, id);
        }
        Ok(())
    }

    // ----- firing --------------------------------------------------------------------

    /// The firing factors of `u` when it fires at (or is fired at by) `other`.
    /// `firing` is true for the unit doing the firing.
    pub fn fire_factors(
        &self,
        b: &Battle,
        u: &Unit,
        other: &Unit,
        role: FireRole,
        enemy_supporters: usize,
    ) -> Vec<Factor> {
        let d = &self.dbn;
        let mut f = self.troop_factor(b, u);
        let elite = u.class == Class::Elite || (u.class == Class::Superior && u.troop == "Ms");
        if elite {
            f.push(d.fire_factor("elite"));
        }
        if u.class == Class::Militia {
            f.push(d.fire_factor("militia"));
        }
        if u.status.shaken {
            f.push(d.fire_factor("shaken"));
        }
        for _ in 0..enemy_supporters {
            f.push(d.fire_factor("enemy_support"));
        }
        let u_bg = d.in_bad_going(b, u);
        let o_bg = d.in_bad_going(b, other);
        // Fired at: the target, and both guns of a counter-battery exchange.
        let fired_at = matches!(
            role,
            FireRole::Target { .. } | FireRole::Firer { mutual: true }
        );
        if fired_at {
            let close = b.scale.to_mm(d.num("artillery_close"));
            if !u_bg
                && d.is_artillery(other)
                && other.base.front_edge_distance(&u.base) <= close + 0.5
            {
                f.push(d.fire_factor("gg_artillery_close"));
            }
        }
        if let FireRole::Target { responding } = role {
            if d.is_artillery(u) && !responding {
                f.push(d.fire_factor("artillery_not_responding"));
            }
        } else {
            if other.behind_front_line_of(u) {
                f.push(d.fire_factor("flank_rear"));
            }
            if other.troop == "Jg" && o_bg {
                f.push(d.fire_factor("at_jagers_bg"));
            }
            if d.is_artillery(u) && d.is_skirmisher(other) && !o_bg {
                f.push(d.fire_factor("artillery_at_skirmishers_gg"));
            }
            if d.in_cover(b, other) {
                f.push(d.fire_factor("into_bua_fort"));
            }
            if (u_bg || o_bg) && !d.is_skirmisher(u) {
                f.push(d.fire_factor("bg"));
            }
        }
        if b.terrain.on_bridge(&u.base) {
            f.push(d.fire_factor("bridge"));
        }
        f
    }

    /// Whether `friend` may give `shooter` fire support against `target`.
    pub fn may_support(
        &self,
        b: &Battle,
        shooter: &Unit,
        friend: &Unit,
        target: &Unit,
    ) -> Result<(), RuleError> {
        let d = &self.dbn;
        if d.is_artillery(friend) && d.is_artillery(shooter) {
            return Err(RuleError::Illegal(
                "artillery cannot support artillery in firing".into(),
            ));
        }
        d.fire_check(b, friend, target, true)
            .map(|_| ())
            .map_err(|e| RuleError::Illegal(format!("{} cannot support: {e}", friend.name)))
    }

    /// The outlook of a firing or close combat: both sides' factors, the exact chance of each
    /// result, and the choices of fire support and pursuit.
    fn outlook(&self, b: &Battle, cmd: &Command) -> Result<Outlook, RuleError> {
        let p = self.forecast(b, cmd)?;
        let part = |u: &Unit, fs: &[Factor]| OutlookPart {
            heading: u.name.clone(),
            factors: fs.to_vec(),
            dice: 1,
            need: None,
            summary: format!("= {:+} + die", factor_sum(fs)),
        };
        let o = p.odds;
        let (a, bn) = (&p.setup.a.name, &p.setup.b.name);
        let mut chances = vec![
            chance(format!("{bn} beaten by double"), o.a_wins_by_double),
            chance(format!("{bn} beaten"), o.a_wins),
            chance("Draw", o.draw),
        ];
        if p.firing && !p.setup.mutual {
            chances.push(chance(
                format!("No effect ({a} outscored)"),
                o.b_wins + o.b_wins_by_double,
            ));
        } else {
            chances.push(chance(format!("{a} beaten"), o.b_wins));
            chances.push(chance(format!("{a} beaten by double"), o.b_wins_by_double));
        }
        Ok(Outlook {
            parts: vec![
                part(&p.setup.a, &p.setup.a_factors),
                part(&p.setup.b, &p.setup.b_factors),
            ],
            opposed: true,
            chances,
            choices: self.choices(b, cmd, &p.setup),
        })
    }

    /// Fire support by friends that could also fire at the target; pursuit after a win.
    fn choices(&self, b: &Battle, cmd: &Command, setup: &Setup) -> Vec<Choice> {
        match cmd {
            Command::Fire {
                unit,
                target,
                support,
                defence,
            } => {
                let flip = |list: &[UnitId], f: &UnitId| {
                    let mut s = list.to_vec();
                    if s.contains(f) {
                        s.retain(|x| x != f);
                    } else {
                        s.push(f.clone());
                    }
                    s
                };
                let mut out: Vec<Choice> = b
                    .alive()
                    .filter(|f| f.side == b.active && f.id != *unit && !f.bound.fired)
                    .filter(|f| self.may_support(b, &setup.a, f, &setup.b).is_ok())
                    .map(|f| Choice {
                        label: format!("{} supports (counts as having fired)", f.name),
                        on: support.contains(&f.id),
                        flipped: Command::Fire {
                            unit: unit.clone(),
                            target: target.clone(),
                            support: flip(support, &f.id),
                            defence: defence.clone(),
                        },
                    })
                    .collect();
                let eligible = self.defensive_support(b, &setup.a, &setup.b);
                let chosen = defence.clone().unwrap_or_else(|| eligible.clone());
                for f in &eligible {
                    let name = b.unit(f).map(|u| u.name.clone()).unwrap_or_default();
                    out.push(Choice {
                        label: format!("{name} supports the defence (the defender's choice)"),
                        on: chosen.contains(f),
                        flipped: Command::Fire {
                            unit: unit.clone(),
                            target: target.clone(),
                            support: support.clone(),
                            defence: Some(flip(&chosen, f)),
                        },
                    });
                }
                out
            }
            Command::Fight {
                unit,
                target,
                pursue,
                ..
            } => {
                let on = pursue.unwrap_or(true);
                vec![Choice {
                    label: "Pursue if victorious (Heavy Cavalry always do, artillery never)".into(),
                    on,
                    flipped: Command::Fight {
                        unit: unit.clone(),
                        target: target.clone(),
                        pursue: Some(!on),
                        pursuits: Vec::new(),
                    },
                }]
            }
            _ => Vec::new(),
        }
    }

    /// Friends of `target` that could support it against `shooter` (each gives the shooter
    /// -1 when the defender chooses it): those able to fire at the shooter, no gun supporting
    /// a gun.
    fn defensive_support(&self, b: &Battle, shooter: &Unit, target: &Unit) -> Vec<UnitId> {
        b.alive()
            .filter(|f| f.side == target.side && f.id != target.id)
            .filter(|f| self.may_support(b, target, f, shooter).is_ok())
            .map(|f| f.id.clone())
            .collect()
    }

    /// Firing result for the loser, by the playsheet.
    pub fn firing_effect(&self, loser: &Unit, winner: &Unit, verdict: Verdict) -> Effect {
        let d = &self.dbn;
        match verdict {
            Verdict::Draw | Verdict::Outscored => Effect::NoEffect,
            Verdict::Beaten => {
                if d.is_commander(loser) {
                    Effect::Recoil
                } else {
                    Effect::Hits(self.hits("result_hit"))
                }
            }
            Verdict::BeatenByDouble => {
                if d.is_commander(loser)
                    || loser.troop == "Gs"
                    || (d.is_artillery(loser) && loser.has(Flag::Fixed))
                {
                    Effect::Destroyed
                } else if loser.troop == "IC" {
                    Effect::Flee {
                        hits: self.hits("result_hit"),
                    }
                } else if loser.troop == "Jg" {
                    if d.is_skirmisher(winner) {
                        Effect::Destroyed
                    } else {
                        Effect::Flee {
                            hits: self.hits("result_hit"),
                        }
                    }
                } else {
                    Effect::Hits(self.hits("result_double_hits"))
                }
            }
        }
    }

    /// Checks a firing and works out both sides' factors, without rolling.
    pub fn fire_setup(
        &self,
        b: &Battle,
        sid: &UnitId,
        tid: &UnitId,
        support: &[UnitId],
        defence: Option<&[UnitId]>,
    ) -> Result<Setup, RuleError> {
        let d = &self.dbn;
        if b.phase != Phase::Firing {
            return Err(RuleError::WrongPhase {
                command: "fire".into(),
                phase: b.phase,
            });
        }
        let shooter = b.unit(sid)?.clone();
        let target = b.unit(tid)?.clone();
        own_active(b, &shooter)?;
        d.fire_check(b, &shooter, &target, false)
            .map_err(RuleError::Illegal)?;
        let mut seen = vec![sid.clone()];
        for s in support {
            let su = b.unit(s)?;
            own_active(b, su)?;
            if seen.contains(s) {
                return Err(RuleError::Illegal(format!("{} is named twice", su.name)));
            }
            seen.push(s.clone());
            if su.bound.fired {
                return Err(RuleError::AlreadyActed {
                    unit: s.clone(),
                    what: "fired".into(),
                });
            }
            self.may_support(b, &shooter, su, &target)?;
        }
        let responding = d.fire_check(b, &target, &shooter, true).is_ok();
        let mutual = responding && d.is_artillery(&shooter) && d.is_artillery(&target);
        let eligible = self.defensive_support(b, &shooter, &target);
        let def_support = match defence {
            None => eligible,
            Some(list) => {
                for (i, f) in list.iter().enumerate() {
                    let fu = b.unit(f)?;
                    if list[..i].contains(f) {
                        return Err(RuleError::Illegal(format!("{} is named twice", fu.name)));
                    }
                    if !eligible.contains(f) {
                        let why = self
                            .may_support(b, &target, fu, &shooter)
                            .err()
                            .map(|e| e.to_string())
                            .unwrap_or_else(|| {
                                format!("{} is not a friend of the target", fu.name)
                            });
                        return Err(RuleError::Illegal(format!(
                            "{} cannot support the defence: {why}",
                            fu.name
                        )));
                    }
                }
                list.to_vec()
            }
        };
        let sf = self.fire_factors(
            b,
            &shooter,
            &target,
            FireRole::Firer { mutual },
            def_support.len(),
        );
        let tf = if mutual {
            self.fire_factors(
                b,
                &target,
                &shooter,
                FireRole::Firer { mutual },
                support.len(),
            )
        } else {
            self.fire_factors(
                b,
                &target,
                &shooter,
                FireRole::Target { responding },
                support.len(),
            )
        };
        Ok(Setup {
            a: shooter,
            b: target,
            a_factors: sf,
            b_factors: tf,
            mutual,
        })
    }

    fn fire(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        sid: &UnitId,
        tid: &UnitId,
        support: &[UnitId],
        defence: Option<&[UnitId]>,
    ) -> Result<(), RuleError> {
        let Setup {
            a: shooter,
            b: target,
            a_factors: sf,
            b_factors: tf,
            mutual,
        } = self.fire_setup(b, sid, tid, support, defence)?;
        let sdie = b.d6()?;
        let tdie = b.d6()?;
        let ss = Score::new(sid, sdie, sf);
        let ts = Score::new(tid, tdie, tf);
        let (shooter_won, mut verdict) = Self::verdict(ss.total, ts.total);
        let mut loser = match shooter_won {
            Some(true) => Some(target.clone()),
            Some(false) if mutual => Some(shooter.clone()),
            _ => None,
        };
        if shooter_won == Some(false) && !mutual {
            verdict = Verdict::Outscored;
        }
        let mut stoic = false;
        if let Some(l) = &loser
            && verdict == Verdict::Beaten
            && (ss.total - ts.total).abs() == 1
            && self.is_stoic(b, l, Combat::Firing)
        {
            stoic = true;
            verdict = Verdict::Draw;
            loser = None;
        }
        let effect = match &loser {
            Some(l) => {
                let w = if l.id == target.id { &shooter } else { &target };
                self.firing_effect(l, w, verdict)
            }
            None => Effect::NoEffect,
        };
        b.emit(
            out,
            Event::Fire {
                shooter: sid.clone(),
                target: tid.clone(),
                support: support.to_vec(),
                shooter_score: ss,
                target_score: ts,
                loser: loser.as_ref().map(|l| l.id.clone()),
                verdict,
                stoic,
                effect: effect.clone(),
                mutual,
            },
        );
        if let Some(l) = loser {
            let by = if l.id == *sid { tid } else { sid };
            self.apply_effect(b, out, &l.id, &effect, by)?;
        }
        Ok(())
    }

    /// Applies a result to a unit: hits, recoil, flight or destruction, then routing tests.
    fn apply_effect(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        effect: &Effect,
        by: &UnitId,
    ) -> Result<(), RuleError> {
        let d = &self.dbn;
        let before = out.len();
        match effect {
            Effect::NoEffect => {}
            Effect::Hits(n) => {
                d.add_hits(b, out, id, *n)?;
            }
            Effect::Recoil => d.recoil(b, out, id, Some(by))?,
            Effect::HitAndRecoil => {
                if !d.add_hits(b, out, id, self.hits("result_hit"))? {
                    d.recoil(b, out, id, Some(by))?;
                }
            }
            Effect::Flee { hits } => {
                if !d.add_hits(b, out, id, *hits)? {
                    d.flee(b, out, id, Some(by))?;
                }
            }
            Effect::Destroyed => b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: "destroyed by the combat result".into(),
                },
            ),
        }
        let destroyed: Vec<UnitId> = out[before..]
            .iter()
            .filter_map(|e| {
                if let Event::Destroyed { unit, .. } = e {
                    Some(unit.clone())
                } else {
                    None
                }
            })
            .collect();
        for dead in destroyed {
            self.routing_tests(b, out, &dead)?;
        }
        Ok(())
    }

    /// Units of the destroyed unit's type up to 200 paces behind it may take a hit.
    fn routing_tests(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        dead: &UnitId,
    ) -> Result<(), RuleError> {
        let d = &self.dbn;
        let mut queue = vec![dead.clone()];
        while let Some(did) = queue.pop() {
            let du = b.unit(&did)?.clone();
            let range = b.scale.to_mm(d.num("routing_range"));
            let rear = du.base.local(0.0, -du.base.depth / 2.0);
            let behind: Vec<Unit> = b
                .alive()
                .filter(|f| f.side == du.side && f.troop == du.troop && f.id != du.id)
                .filter(|f| {
                    f.base.centre.minus(rear).dot(du.base.forward()) < 0.0
                        && f.base.distance(&du.base) <= range + 0.5
                })
                .cloned()
                .collect();
            for f in behind {
                let die = b.d6()?;
                let mut factors = Vec::new();
                if matches!(f.class, Class::Elite | Class::Superior) {
                    factors.push(d.routing_factor("elite"));
                }
                if f.class == Class::Militia {
                    factors.push(d.routing_factor("militia"));
                }
                if du
                    .base
                    .touched_by(&f.base)
                    .is_some_and(|c| c.overlap >= du.base.width.min(f.base.width) - 1.0)
                {
                    factors.push(d.routing_factor("full_contact"));
                }
                let total = die as i32 + factor_sum(&factors);
                let need = d.num("routing_need") as i32;
                let hit = total >= need;
                b.emit(
                    out,
                    Event::RoutingTest {
                        unit: f.id.clone(),
                        destroyed: did.clone(),
                        die,
                        factors,
                        total,
                        need,
                        hit,
                    },
                );
                if hit && d.add_hits(b, out, &f.id, 1)? {
                    queue.push(f.id.clone());
                }
            }
        }
        Ok(())
    }

    // ----- close combat --------------------------------------------------------------

    /// The close combat factors of `u` fighting `e`. `attacker` is the moving side's unit.
    pub fn combat_factors(&self, b: &Battle, u: &Unit, e: &Unit, is_attacker: bool) -> Vec<Factor> {
        let d = &self.dbn;
        let mut f = self.troop_factor(b, u);
        if b.terrain.uphill_of(u.base.centre, e.base.centre) {
            f.push(d.combat_factor("uphill"));
        }
        if d.general_attached(b, u).is_some() {
            f.push(d.combat_factor("general"));
        }
        let elite = u.class == Class::Elite || (u.troop == "DC" && u.class == Class::Superior);
        if elite || (u.troop == "HC" && d.is_mounted(e)) {
            f.push(d.combat_factor("elite_or_hc_vs_mounted"));
        }
        if !is_attacker && d.in_nlf_or_fort(b, u) {
            f.push(d.combat_factor("defending_nlf_fort"));
        }
        if u.class == Class::Militia || u.troop == "Jg" {
            f.push(d.combat_factor("militia_or_jagers"));
        }
        if u.status.shaken {
            f.push(d.combat_factor("shaken"));
        }
        for _ in d.combat_supporters(b, e, u) {
            f.push(d.combat_factor("enemy_support"));
        }
        if u.status.continuing {
            f.push(d.combat_factor("recoiled_continuing"));
        }
        if is_attacker
            && d.is_mounted(u)
            && u.bound.charged
            && !u.bound.pursuing
            && e.troop == "Ms"
            && e.base
                .touched_by(&u.base)
                .is_some_and(|c| c.edge == Edge::Front)
        {
            f.push(d.combat_factor("cavalry_charging_muskets"));
        }
        // Any enemy that charged this bound and stands against its flank or rear.
        let flanked = b
            .alive()
            .filter(|x| x.side != u.side && x.bound.charged)
            .any(|x| {
                u.base
                    .touched_by(&x.base)
                    .is_some_and(|c| c.edge != Edge::Front && c.own_edge == Edge::Front)
            });
        if flanked {
            if d.is_mounted(u) || d.is_skirmisher(u) {
                f.push(d.combat_factor("first_flank_rear_light"));
            } else {
                f.push(d.combat_factor("first_flank_rear"));
            }
        }
        if d.is_artillery(u)
            && (u.status.limbered
                || !u.base.in_arc(&e.base, d.num("arc_half_angle"))
                || u.base
                    .touched_by(&e.base)
                    .is_some_and(|c| c.edge != Edge::Front))
        {
            f.push(d.combat_factor("artillery_cannot_fire"));
        }
        let in_bg = d.in_bad_going_for_combat(b, u);
        if in_bg && u.troop != "Jg" && u.troop != "II" {
            f.push(d.combat_factor("bg"));
        }
        if b.terrain.on_bridge(&u.base) {
            f.push(d.combat_factor("bridge"));
        }
        let garrison = |x: &Unit, attacking: bool| !attacking && d.is_garrison(b, x);
        if garrison(u, is_attacker) {
            f.push(d.combat_factor("garrison"));
        }
        if u.troop == "Ms" && garrison(e, !is_attacker) {
            f.push(d.combat_factor("attack_column"));
        }
        f
    }

    /// Close combat result for the loser, by the playsheet.
    pub fn combat_effect(
        &self,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        let d = &self.dbn;
        let bg = d.in_bad_going_for_combat(b, loser);
        let by_mounted = d.is_mounted(winner);
        match verdict {
            Verdict::Draw | Verdict::Outscored => {
                if d.is_mounted(loser) {
                    Effect::HitAndRecoil
                } else {
                    Effect::Hits(self.hits("result_hit"))
                }
            }
            Verdict::Beaten => match d.kind(loser) {
                TroopKind::Commander => Effect::Recoil,
                TroopKind::Mounted => {
                    if bg && loser.troop != "IC" {
                        Effect::Destroyed
                    } else {
                        Effect::HitAndRecoil
                    }
                }
                TroopKind::Artillery | TroopKind::Baggage => Effect::Destroyed,
                TroopKind::Foot => match loser.troop.as_str() {
                    "Gs" => Effect::Destroyed,
                    "Jg" | "II" => {
                        if by_mounted && !bg {
                            Effect::Destroyed
                        } else if loser.troop == "II" {
                            Effect::HitAndRecoil
                        } else {
                            Effect::Flee {
                                hits: self.hits("result_hit"),
                            }
                        }
                    }
                    _ => {
                        if winner.troop == "HC" && !bg {
                            Effect::Destroyed
                        } else {
                            Effect::HitAndRecoil
                        }
                    }
                },
            },
            Verdict::BeatenByDouble => match loser.troop.as_str() {
                "IC" | "LC" => {
                    if by_mounted || bg {
                        Effect::Destroyed
                    } else {
                        Effect::Flee {
                            hits: self.hits("result_hit"),
                        }
                    }
                }
                "Jg" => {
                    if by_mounted || d.is_skirmisher(winner) {
                        Effect::Destroyed
                    } else {
                        Effect::Flee {
                            hits: self.hits("result_hit"),
                        }
                    }
                }
                _ => Effect::Destroyed,
            },
        }
    }

    /// Checks a close combat and works out both sides' factors, without rolling. `extra` is
    /// the pursuing cavalry's extra combat, fought out of turn.
    pub fn fight_setup(
        &self,
        b: &Battle,
        aid: &UnitId,
        did: &UnitId,
        extra: bool,
    ) -> Result<Setup, RuleError> {
        let d = &self.dbn;
        if b.phase != Phase::CloseCombat {
            return Err(RuleError::WrongPhase {
                command: "fight".into(),
                phase: b.phase,
            });
        }
        let a = b.unit(aid)?.clone();
        let e = b.unit(did)?.clone();
        if !extra {
            own_active(b, &a)?;
        }
        if !d.contacts(b, &a).iter().any(|(x, _)| x == did) {
            return Err(RuleError::Illegal(format!(
                "{} is not in close combat with {}",
                a.name, e.name
            )));
        }
        // A flank or rear attacker waits for the combat to the enemy's front.
        let on_flank = e
            .base
            .touched_by(&a.base)
            .is_some_and(|c| c.edge != Edge::Front);
        if !extra && on_flank {
            let front = b.alive().find(|x| {
                x.side == a.side
                    && e.base
                        .touched_by(&x.base)
                        .is_some_and(|c| c.edge == Edge::Front && c.own_edge == Edge::Front)
            });
            if let Some(f) = front
                && !f.bound.fought
                && !e.bound.fought
            {
                return Err(RuleError::Illegal(format!(
                    "fight the combat to the front of {} first ({})",
                    e.name, f.name
                )));
            }
        }
        if !extra && (a.bound.fought || e.bound.fought) {
            let who = if a.bound.fought { &a } else { &e };
            return Err(RuleError::AlreadyActed {
                unit: who.id.clone(),
                what: "fought".into(),
            });
        }
        let af = self.combat_factors(b, &a, &e, true);
        let ef = self.combat_factors(b, &e, &a, false);
        Ok(Setup {
            a,
            b: e,
            a_factors: af,
            b_factors: ef,
            mutual: false,
        })
    }

    fn fight(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        aid: &UnitId,
        did: &UnitId,
        pursue: Option<bool>,
        extra: bool,
    ) -> Result<(), RuleError> {
        let d = &self.dbn;
        let Setup {
            a,
            b: e,
            a_factors: af,
            b_factors: ef,
            ..
        } = self.fight_setup(b, aid, did, extra)?;
        let adie = b.d6()?;
        let edie = b.d6()?;
        let as_ = Score::new(aid, adie, af);
        let es = Score::new(did, edie, ef);
        let (a_won, mut verdict) = Self::verdict(as_.total, es.total);
        let mut loser = a_won.map(|w| if w { e.clone() } else { a.clone() });
        let mut stoic = false;
        if let Some(l) = &loser
            && verdict == Verdict::Beaten
            && (as_.total - es.total).abs() == 1
            && self.is_stoic(b, l, Combat::Close)
        {
            stoic = true;
            verdict = Verdict::Draw;
            loser = None;
        }
        let (ae, ee) = match &loser {
            None => (
                self.combat_effect(b, &a, &e, Verdict::Draw),
                self.combat_effect(b, &e, &a, Verdict::Draw),
            ),
            Some(l) if l.id == a.id => (self.combat_effect(b, &a, &e, verdict), Effect::NoEffect),
            Some(_) => (Effect::NoEffect, self.combat_effect(b, &e, &a, verdict)),
        };
        b.emit(
            out,
            Event::CloseCombat {
                attacker: aid.clone(),
                defender: did.clone(),
                attacker_score: as_,
                defender_score: es,
                loser: loser.as_ref().map(|l| l.id.clone()),
                verdict,
                stoic,
                attacker_effect: ae.clone(),
                defender_effect: ee.clone(),
            },
        );
        self.apply_effect(b, out, aid, &ae, did)?;
        self.apply_effect(b, out, did, &ee, aid)?;

        // Pursuit and breakthrough by the victor.
        let Some(l) = loser else { return Ok(()) };
        let winner = if l.id == a.id { e.clone() } else { a.clone() };
        let Ok(w) = b.unit(&winner.id).cloned() else {
            return Ok(());
        };
        let Ok(lnow) = b.unit(&l.id).cloned() else {
            return Ok(());
        };
        if !w.alive() || d.is_artillery(&w) || w.troop == "Bg" {
            return Ok(());
        }
        let follow = if lnow.alive() {
            let moved_back = lnow.base != l.base;
            let wants = w.troop == "HC" || pursue.unwrap_or(true);
            moved_back && wants
        } else {
            matches!(w.troop.as_str(), "DC" | "LC" | "IC" | "II") && pursue.unwrap_or(true)
        };
        if !follow {
            return Ok(());
        }
        let recoiled = lnow.alive().then_some(&l.id);
        let hit = d.follow_up(b, out, &w.id, recoiled)?;
        if let Some(h) = hit {
            // Pursuing cavalry that makes contact fights once more at once, once per phase.
            if d.is_mounted(&w) && !extra {
                return self.fight(b, out, &w.id, &h, pursue, true);
            }
        }
        Ok(())
    }

    fn end_phase(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let d = &self.dbn;
        match b.phase {
            Phase::Deployment => d.end_deployment_step(b, out),
            Phase::Command => {
                let adc = self.has_option(FREE_ADC)
                    && b.alive().any(|u| {
                        u.side == b.active && d.has_trait(u, TroopTrait::CommanderInChief)
                    });
                let extra = if adc {
                    vec![Factor {
                        name: "Special ADC (optional rule)".into(),
                        value: d.num("adc_cap_bonus") as i32,
                        source: "000 Army Composition: advanced optional rule; ruling free_adc"
                            .into(),
                    }]
                } else {
                    Vec::new()
                };
                d.command_roll(b, out, extra)?;
                b.begin_phase(out, Phase::Movement);
                Ok(())
            }
            Phase::Movement => {
                b.begin_phase(out, Phase::Firing);
                Ok(())
            }
            Phase::Firing => {
                b.begin_phase(out, Phase::CloseCombat);
                Ok(())
            }
            Phase::CloseCombat => {
                // Fight what the player left unfought, in unit order.
                for _ in 0..(b.units.len() * 2 + 4) {
                    let Some((a, e)) = d.pending_combats(b).into_iter().next() else {
                        break;
                    };
                    self.fight(b, out, &a, &e, None, false)?;
                    if b.is_over() {
                        return Ok(());
                    }
                }
                d.next_bound(b, out);
                Ok(())
            }
            Phase::Morale | Phase::GameOver => Err(RuleError::GameOver),
        }
    }
}

impl Ruleset for Db7yw {
    fn id(&self) -> &str {
        &self.dbn.data.id
    }
    fn name(&self) -> &str {
        &self.dbn.data.name
    }
    fn measure(&self) -> Measure {
        self.dbn.data.unit
    }
    fn unit_model(&self) -> UnitModel {
        UnitModel::SingleBase
    }
    fn default_mm_per_unit(&self) -> f32 {
        25.4 / self.dbn.data.paces_per_inch
    }
    fn base_size(&self, troop: &str) -> Option<(f32, f32)> {
        self.dbn.troop(troop).map(|t| t.base)
    }
    fn troop_codes(&self) -> Vec<String> {
        self.dbn
            .data
            .troops
            .iter()
            .map(|t| t.code.clone())
            .collect()
    }
    fn prepare_unit(&self, u: &RawUnit) -> Result<UnitSetup, String> {
        self.dbn.prepare_unit(self.id(), u)
    }
    fn validate_army(&self, units: &[&Unit], side: &SideInfo, terrain: &Terrain) -> Vec<String> {
        super::army::validate_side(&self.dbn, units, side, terrain)
    }
    fn first_phase(&self, units: &[Unit]) -> Phase {
        Dbn::first_phase(units)
    }
    fn phases(&self) -> Vec<Phase> {
        Dbn::BOUND.to_vec()
    }
    fn turn_words(&self, b: &Battle) -> TurnWords {
        self.dbn.turn_words(b)
    }
    fn execute(
        &self,
        b: &mut Battle,
        cmd: &Command,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let d = &self.dbn;
        match cmd {
            Command::EndPhase => self.end_phase(b, out),
            Command::Move { unit, steps } => {
                self.do_move(b, out, std::slice::from_ref(unit), steps)
            }
            Command::MoveGroup { units, steps } => {
                check_group_contact(b, units)?;
                self.do_move(b, out, units, steps)
            }
            Command::Limber { unit } => d.limber(b, out, unit, true),
            Command::Unlimber { unit } => d.limber(b, out, unit, false),
            Command::Fire {
                unit,
                target,
                support,
                defence,
            } => self.fire(b, out, unit, target, support, defence.as_deref()),
            Command::Fight {
                unit,
                target,
                pursue,
                ..
            } => self.fight(b, out, unit, target, *pursue, false),
            Command::Deploy { unit, x, y, facing } => {
                if b.phase != Phase::Deployment {
                    return Err(RuleError::WrongPhase {
                        command: "deploy".into(),
                        phase: b.phase,
                    });
                }
                d.deploy(b, out, unit, Pt::new(*x, *y), *facing)
            }
            Command::Fortify { feature } => d.fortify(b, out, feature),
            Command::Form { .. }
            | Command::Attach { .. }
            | Command::Detach { .. }
            | Command::Fallback { .. }
            | Command::MoveStand { .. }
            | Command::RecoilFurther { .. } => Err(RuleError::Illegal(
                "DB7YW units are single elements: no formations, loose stands, attached \
                 generals, fallbacks or chosen recoils"
                    .into(),
            )),
            Command::Undo => Err(RuleError::Illegal("undo is handled by the battle".into())),
        }
    }
    fn after_command(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.dbn.check_break(b, out);
        Ok(())
    }
    fn check_move(&self, b: &Battle, req: &MoveRequest) -> Result<MovePlan, RuleError> {
        if req.stand.is_some() {
            return Err(RuleError::Illegal(
                "DB7YW units are single elements: no stand moves alone".into(),
            ));
        }
        if req.units.is_empty() {
            return Err(RuleError::Illegal("a move needs a unit".into()));
        }
        if req.units.len() > 1 {
            check_group_contact(b, &req.units)?;
        }
        self.plan(b, &req.units, &req.steps)
    }
    fn may_move(&self, b: &Battle, u: &Unit) -> bool {
        self.dbn.may_move(b, u)
    }
    fn plan_note(&self, plan: &MovePlan) -> Option<String> {
        Some(format!("{} command point(s)", plan.cost))
    }
    fn target_command(&self, b: &Battle, own: &UnitId, enemy: &UnitId) -> Option<Command> {
        fire_or_fight(b, own, enemy)
    }
    fn preview(&self, b: &Battle, cmd: &Command) -> Result<Outlook, RuleError> {
        self.outlook(b, cmd)
    }
    fn unit_card(&self, b: &Battle, u: &Unit) -> Card {
        self.dbn.card(b, u)
    }
    fn actions(&self, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        self.dbn.actions(b, u)
    }
    fn deployment(&self, b: &Battle) -> Option<Deployment> {
        self.dbn.deployment_view(b)
    }
    fn overlays(&self, b: &Battle, selected: Option<&Unit>, layers: &[Layer]) -> Vec<Mark> {
        self.dbn.overlays(b, selected, layers)
    }
    fn look(&self, _b: &Battle, u: &Unit) -> Look {
        self.dbn.look(u)
    }
    fn reference(&self) -> Reference {
        self.dbn.reference()
    }
    fn standing(&self, b: &Battle) -> Vec<String> {
        self.dbn.standing(b)
    }
    fn check_deployment(
        &self,
        zones: &[crate::rules::battle::Zone],
        objective: Option<&crate::rules::battle::Objective>,
        sides: &[SideInfo],
        mm_per_unit: f32,
    ) -> Vec<String> {
        // 000 Deployment: the objective is positioned by the defender on its forward
        // deployment line: the edge of its zone that faces the enemy's.
        let Some(o) = objective else {
            return Vec::new();
        };
        let Some(def) = sides.iter().position(|s| s.defender) else {
            return Vec::new();
        };
        let (Some(dz), Some(ez)) = (
            zones.iter().find(|z| z.side == def),
            zones.iter().find(|z| z.side != def),
        ) else {
            return Vec::new();
        };
        let line = if dz.min.y >= ez.max.y {
            Some((dz.min.y, o.at.y, (dz.min.x, dz.max.x, o.at.x)))
        } else if dz.max.y <= ez.min.y {
            Some((dz.max.y, o.at.y, (dz.min.x, dz.max.x, o.at.x)))
        } else if dz.min.x >= ez.max.x {
            Some((dz.min.x, o.at.x, (dz.min.y, dz.max.y, o.at.y)))
        } else if dz.max.x <= ez.min.x {
            Some((dz.max.x, o.at.x, (dz.min.y, dz.max.y, o.at.y)))
        } else {
            None
        };
        let Some((at, got, (lo, hi, along))) = line else {
            return Vec::new();
        };
        let radius = self.dbn.num("objective_radius") * mm_per_unit;
        let off = (got - at).abs();
        if off > radius + 0.5 || along < lo - 0.5 || along > hi + 0.5 {
            vec![format!(
                "the objective stands {:.0} paces from the defender's forward deployment line ({at:.0} mm): the defender places it on that line",
                off / mm_per_unit.max(1e-6)
            )]
        } else {
            Vec::new()
        }
    }
    fn optional_rules(&self) -> Vec<(String, String)> {
        OPTIONS
            .iter()
            .map(|(k, d)| (k.to_string(), d.to_string()))
            .collect()
    }
    fn options(&self) -> &[String] {
        &self.options
    }
    fn set_options(&mut self, options: &[String]) -> Result<(), String> {
        let known: Vec<&str> = OPTIONS.iter().map(|(k, _)| *k).collect();
        self.options = super::common::choose_options(&known, options)?;
        Ok(())
    }
    fn rulings(&self) -> &[Ruling] {
        &self.dbn.data.rulings
    }
}

/// A group must be a chain of units in edge contact.
fn check_group_contact(b: &Battle, ids: &[UnitId]) -> Result<(), RuleError> {
    let units: Vec<&Unit> = ids.iter().map(|i| b.unit(i)).collect::<Result<_, _>>()?;
    let mut reached = vec![false; units.len()];
    if units.is_empty() {
        return Err(RuleError::Illegal("a group move needs units".into()));
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
        Some(i) => Err(RuleError::Illegal(format!(
            "{} is not in edge contact with the rest of the group",
            units[i].name
        ))),
        None => Ok(()),
    }
}
