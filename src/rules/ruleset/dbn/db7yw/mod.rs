//! DB7YW on the DBN engine: Musket movement, its firing and close combat factors and results,
//! stoic units, pursuit and breakthrough, routing troops, the free ADC and its army lists.
//!
//! - `data`: DB7YW's own numbers and factors by typed key, its troop types and nations.
//! - `army`: points costs, composition and what each nation may field.

mod army;
mod data;
mod refusal;

use super::{
    Combat, Dbn, DbnData, DbnEvent, DbnGame, Extras, FireRole, Follow, N, Supplement, TroopKind,
    TroopTrait, troop_type_of_code,
};
use crate::rules::battle::{Battle, Objective, Zone};
use crate::rules::command::{Effect, Event, Factor, RuleError, Step, Verdict, factor_sum};
use crate::rules::geometry::Edge;
use crate::rules::model::{Class, SideInfo, Unit, UnitId};
use crate::rules::odds::Quirks;
use crate::rules::ruleset::common::MovePlan;
use crate::rules::ruleset::dbn::Flag;
use crate::rules::terrain::Terrain;
use TroopType::{
    Dragoons, Guerrillas, HeavyCavalry, IrregularCavalry, IrregularInfantry, Jagers, LightCavalry,
    Muskets,
};
pub use data::{Close, Fire, Nation, Num, Routing, TroopType};
use data::{nation, troop};
pub use refusal::Refusal;

/// The ruleset's data, compiled into the program.
pub const DATA: &str = include_str!("../../../../../assets/rulesets/db7yw.ron");

/// The optional rule of the free Special ADC.
const FREE_ADC: &str = "free_adc";

/// DB7YW on the DBN engine.
pub type Db7yw = DbnGame<Seven>;

/// What DB7YW makes its own on the DBN engine: its own numbers and factors by key.
#[derive(Clone, Debug)]
pub struct Seven {
    keys: data::Keys,
}

/// Where a Superior unit takes the Elite factor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Firing,
    Fighting,
}

impl Seven {
    /// Superior is an army list's class; the factors give it "+1 Elite" only where the rules
    /// say: Superior Muskets when firing, Superior Dragoons in close combat.
    fn superior_as_elite(u: &Unit) -> Option<Role> {
        match (u.class, troop(u)) {
            (Class::Superior, Muskets) => Some(Role::Firing),
            (Class::Superior, Dragoons) => Some(Role::Fighting),
            _ => None,
        }
    }

    /// Stoic for this kind of combat: guards, Prussian grenadiers, named units; Russian
    /// Muskets when firing.
    pub fn is_stoic(&self, b: &Battle, u: &Unit, kind: Combat) -> bool {
        let nation = nation(b, u.side);
        u.has(Flag::Guard)
            || u.has(Flag::Stoic)
            || (u.has(Flag::Grenadier) && nation == Some(Nation::Prussia))
            || (kind == Combat::Firing && troop(u) == Muskets && nation == Some(Nation::Russia))
    }

    fn troop_factor(&self, g: &Db7yw, b: &Battle, u: &Unit) -> Vec<Factor> {
        let mut f = vec![g.troop_factor(u)];
        if troop(u) == IrregularInfantry && g.dbn.in_nlf_or_fort(b, u) {
            f.push(self.close(Close::IiOccupying));
        }
        f
    }

    /// Checks the Musket movement restrictions for a move that is not wholly on a road.
    fn musket_shape(
        &self,
        b: &Battle,
        u: &Unit,
        steps: &[Step],
        group: bool,
    ) -> Result<(), RuleError> {
        let prussian = nation(b, u.side) == Some(Nation::Prussia);
        let max_wheel = if prussian && !group {
            self.n(Num::PrussianMsWheelMax)
        } else {
            self.n(Num::MsWheelMax)
        };
        let shape = "Muskets may move only straight forward, directly sideways or directly backwards, or wheel or about face instead of moving";
        match steps {
            [] | [Step::Advance(_)] | [Step::Backstep(_)] | [Step::AboutFace] => Ok(()),
            [Step::Sidestep(_)] if !group || prussian => Ok(()),
            [Step::Sidestep(_)] => Err(RuleError::refused(
                Refusal::OnlyPrussianSidestep,
                "only Prussian Muskets may move sideways as a formation".into(),
            )),
            [Step::Wheel { degrees, .. }] => {
                if *degrees > max_wheel + 1e-3 {
                    Err(RuleError::refused(
                        Refusal::WheelTooFar,
                        format!("Muskets may wheel at most {max_wheel:.0} degrees"),
                    ))
                } else {
                    Ok(())
                }
            }
            _ => Err(RuleError::refused(Refusal::MoveShape, shape.into())),
        }
    }

    /// The Muskets of a group, which move under the Musket rules whoever leads it.
    fn muskets<'a>(b: &'a Battle, ids: &[UnitId]) -> Vec<&'a Unit> {
        ids.iter()
            .filter_map(|i| b.unit(i).ok())
            .filter(|u| troop(u) == Muskets)
            .collect()
    }
}

impl Supplement for Seven {
    /// A Superior unit's card says where it counts as Elite, so that the card's "Superior"
    /// and the factor's "+1 Elite" read as one.
    fn card_lines(&self, g: &Db7yw, b: &Battle, u: &Unit) -> Vec<String> {
        let _ = (g, b);
        match Seven::superior_as_elite(u) {
            Some(Role::Firing) => vec!["Superior: fires as Elite (+1 Elite)".to_string()],
            Some(Role::Fighting) => vec!["Superior: fights as Elite (+1 Elite)".to_string()],
            None => Vec::new(),
        }
    }

    const DATA: &'static str = DATA;

    fn load(data: &DbnData, text: &str) -> Result<(Self, Extras), String> {
        Seven::read(data, text)
    }

    const OPTIONS: &'static [(&'static str, &'static str)] = &[(
        FREE_ADC,
        "Free Special ADC: each army's CinC has an ADC who adds 1 to its command roll while the CinC is on the table",
    )];

    /// The firing factors of `u` when it fires at (or is fired at by) `other`.
    /// `firing` is true for the unit doing the firing.
    fn fire_factors(
        &self,
        g: &Db7yw,
        b: &Battle,
        u: &Unit,
        other: &Unit,
        role: FireRole,
        enemy_supporters: usize,
    ) -> Vec<Factor> {
        let d = &g.dbn;
        let mut f = self.troop_factor(g, b, u);
        let elite = u.class == Class::Elite || Seven::superior_as_elite(u) == Some(Role::Firing);
        if elite {
            f.push(self.fire(Fire::Elite));
        }
        if u.class == Class::Militia {
            f.push(self.fire(Fire::Militia));
        }
        if u.status.shaken {
            f.push(self.fire(Fire::Shaken));
        }
        for _ in 0..enemy_supporters {
            f.push(d.fire_support());
        }
        let u_bg = d.in_bad_going(b, u);
        let o_bg = d.in_bad_going(b, other);
        // Fired at: the target, and both guns of a counter-battery exchange.
        let fired_at = matches!(
            role,
            FireRole::Target { .. } | FireRole::Firer { mutual: true }
        );
        if fired_at {
            let close = b.scale.to_mm(d.n(N::ArtilleryClose));
            if !u_bg
                && d.is_artillery(other)
                && other.base.front_edge_distance(&u.base) <= close + 0.5
            {
                f.push(self.fire(Fire::GgArtilleryClose));
            }
        }
        if let FireRole::Target { responding } = role {
            if d.is_artillery(u) && !responding {
                f.push(self.fire(Fire::ArtilleryNotResponding));
            }
        } else {
            if other.behind_front_line_of(u) {
                f.push(self.fire(Fire::FlankRear));
            }
            if troop(other) == Jagers && o_bg {
                f.push(self.fire(Fire::AtJagersBg));
            }
            if d.is_artillery(u) && d.is_skirmisher(other) && !o_bg {
                f.push(self.fire(Fire::ArtilleryAtSkirmishersGg));
            }
            if d.in_cover(b, other) {
                f.push(self.fire(Fire::IntoBuaFort));
            }
            if (u_bg || o_bg) && !d.is_skirmisher(u) {
                f.push(self.fire(Fire::Bg));
            }
            // "Firing whilst on a Bridge or Causeway": the firer's, never the target's.
            if b.terrain.on_bridge(&u.base) {
                f.push(self.fire(Fire::Bridge));
            }
        }
        f
    }

    /// Firing result for the loser, by the playsheet.
    fn firing_effect(
        &self,
        g: &Db7yw,
        _b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        let d = &g.dbn;
        match verdict {
            Verdict::Draw | Verdict::Outscored => Effect::NoEffect,
            Verdict::Beaten => {
                if d.is_commander(loser) {
                    Effect::Recoil
                } else {
                    Effect::Hits(g.hits(N::ResultHit))
                }
            }
            Verdict::BeatenByDouble => {
                if d.is_commander(loser)
                    || troop(loser) == Guerrillas
                    || (d.is_artillery(loser) && loser.has(Flag::Fixed))
                {
                    Effect::Destroyed
                } else if troop(loser) == IrregularCavalry {
                    Effect::Flee {
                        hits: g.hits(N::ResultHit),
                    }
                } else if troop(loser) == Jagers {
                    if d.is_skirmisher(winner) {
                        Effect::Destroyed
                    } else {
                        Effect::Flee {
                            hits: g.hits(N::ResultHit),
                        }
                    }
                } else {
                    Effect::Hits(g.hits(N::ResultDoubleHits))
                }
            }
        }
    }

    /// A garrison of a fortified town, or a unit occupying a village or fortification: it
    /// defends there in every bound.
    fn holds_ground(&self, g: &Db7yw, b: &Battle, u: &Unit) -> bool {
        g.dbn.is_garrison(b, u) || g.dbn.in_nlf_or_fort(b, u)
    }

    /// The close combat factors of `u` fighting `e`. `is_attacker`: `u` attacks in this
    /// combat, not defending ground its enemy attacks (`DbnGame::attacks`).
    fn combat_factors(
        &self,
        g: &Db7yw,
        b: &Battle,
        u: &Unit,
        e: &Unit,
        is_attacker: bool,
    ) -> Vec<Factor> {
        let d = &g.dbn;
        let mut f = self.troop_factor(g, b, u);
        if b.terrain.uphill_of(u.base.centre, e.base.centre) {
            f.push(self.close(Close::Uphill));
        }
        if d.general_attached(b, u).is_some() {
            f.push(self.close(Close::General));
        }
        let elite = u.class == Class::Elite || Seven::superior_as_elite(u) == Some(Role::Fighting);
        if elite || (troop(u) == HeavyCavalry && d.is_mounted(e)) {
            f.push(self.close(Close::EliteOrHcVsMounted));
        }
        if !is_attacker && d.in_nlf_or_fort(b, u) {
            f.push(self.close(Close::DefendingNlfFort));
        }
        if u.class == Class::Militia || troop(u) == Jagers {
            f.push(self.close(Close::MilitiaOrJagers));
        }
        if u.status.shaken {
            f.push(self.close(Close::Shaken));
        }
        for _ in d.combat_supporters(b, e, u) {
            f.push(self.close(Close::EnemySupport));
        }
        if u.status.continuing {
            f.push(self.close(Close::RecoiledContinuing));
        }
        if is_attacker
            && d.is_mounted(u)
            && u.bound.charged
            && !u.bound.pursuing
            && troop(e) == Muskets
            && e.base
                .touched_by(&u.base)
                .is_some_and(|c| c.edge == Edge::Front)
        {
            f.push(self.close(Close::CavalryChargingMuskets));
        }
        // An enemy that attacked it first in flank or rear, by a charge or a pursuit, in
        // either side's bound (ruling front_and_flank).
        if Dbn::attacked_first_in_flank(b, u) {
            if d.is_mounted(u) || d.is_skirmisher(u) {
                f.push(self.close(Close::FirstFlankRearLight));
            } else {
                f.push(self.close(Close::FirstFlankRear));
            }
        }
        if d.is_artillery(u)
            && (u.status.limbered
                || !u.base.in_arc(&e.base, d.n(N::ArcHalfAngle))
                || u.base
                    .touched_by(&e.base)
                    .is_some_and(|c| c.edge != Edge::Front))
        {
            f.push(self.close(Close::ArtilleryCannotFire));
        }
        // "Except if Jagers or Irregulars": Irregular Infantry and Irregular Cavalry alike.
        let in_bg = d.in_bad_going_for_combat(b, u);
        if in_bg && !matches!(troop(u), Jagers | IrregularInfantry | IrregularCavalry) {
            f.push(self.close(Close::Bg));
        }
        if b.terrain.on_bridge(&u.base) {
            f.push(self.close(Close::Bridge));
        }
        let garrison = |x: &Unit, attacking: bool| !attacking && d.is_garrison(b, x);
        if garrison(u, is_attacker) {
            f.push(self.close(Close::Garrison));
        }
        if troop(u) == Muskets && garrison(e, !is_attacker) {
            f.push(self.close(Close::AttackColumn));
        }
        f
    }

    /// Close combat result for the loser, by the playsheet.
    fn combat_effect(
        &self,
        g: &Db7yw,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        let d = &g.dbn;
        let bg = d.in_bad_going_for_combat(b, loser);
        // "In GG": good going, never a town or village, held or not (ruling results_going).
        let gg = d.in_good_going_for_results(b, loser);
        let by_mounted = d.is_mounted(winner);
        match verdict {
            Verdict::Draw | Verdict::Outscored => {
                if d.is_mounted(loser) {
                    Effect::HitAndRecoil
                } else {
                    Effect::Hits(g.hits(N::ResultHit))
                }
            }
            Verdict::Beaten => match d.kind(loser) {
                TroopKind::Commander => Effect::Recoil,
                TroopKind::Mounted => {
                    if bg && troop(loser) != IrregularCavalry {
                        Effect::Destroyed
                    } else {
                        Effect::HitAndRecoil
                    }
                }
                TroopKind::Artillery | TroopKind::Baggage => Effect::Destroyed,
                TroopKind::Foot => match troop(loser) {
                    Guerrillas => Effect::Destroyed,
                    Jagers | IrregularInfantry => {
                        if by_mounted && gg {
                            Effect::Destroyed
                        } else if troop(loser) == IrregularInfantry {
                            Effect::HitAndRecoil
                        } else {
                            Effect::Flee {
                                hits: g.hits(N::ResultHit),
                            }
                        }
                    }
                    _ => {
                        if troop(winner) == HeavyCavalry && gg {
                            Effect::Destroyed
                        } else {
                            Effect::HitAndRecoil
                        }
                    }
                },
            },
            Verdict::BeatenByDouble => match troop(loser) {
                IrregularCavalry | LightCavalry => {
                    if by_mounted || bg {
                        Effect::Destroyed
                    } else {
                        Effect::Flee {
                            hits: g.hits(N::ResultHit),
                        }
                    }
                }
                Jagers => {
                    if by_mounted || d.is_skirmisher(winner) {
                        Effect::Destroyed
                    } else {
                        Effect::Flee {
                            hits: g.hits(N::ResultHit),
                        }
                    }
                }
                _ => Effect::Destroyed,
            },
        }
    }

    fn quirks(&self, _g: &Db7yw, b: &Battle, u: &Unit, _other: &Unit, kind: Combat) -> Quirks {
        Quirks {
            stoic: self.is_stoic(b, u, kind),
            loses_draws: false,
        }
    }

    fn before_move(
        &self,
        _g: &Db7yw,
        b: &Battle,
        ids: &[UnitId],
        body: &[Step],
        charge: Option<&UnitId>,
    ) -> Result<bool, RuleError> {
        let muskets = Self::muskets(b, ids);
        // Into contact the whole move is one straight advance, on a road or not: no sidestep,
        // wheel or backward step before it.
        if let Some(u) = muskets.first()
            && charge.is_some()
            && !matches!(body, [] | [Step::Advance(_)])
        {
            return Err(RuleError::refused(
                Refusal::OnlyStraightIntoContact,
                format!(
                    "{} may move into close combat only straight forward: no wheel, sidestep or step back before the contact",
                    u.name
                ),
            ));
        }
        // A Musket wheel or about face made instead of moving is the whole move, unmeasured,
        // whoever leads the group.
        let instead = !muskets.is_empty()
            && charge.is_none()
            && matches!(body, [Step::Wheel { .. }] | [Step::AboutFace]);
        Ok(!instead)
    }

    fn check_plan(
        &self,
        g: &Db7yw,
        b: &Battle,
        ids: &[UnitId],
        body: &[Step],
        plan: &MovePlan,
    ) -> Result<(), RuleError> {
        let d = &g.dbn;
        let muskets = Self::muskets(b, ids);
        let group = ids.len() > 1;
        if !plan.going.road {
            for u in &muskets {
                self.musket_shape(b, u, body, group)?;
            }
        }
        // Every unit of the group that ends in contact has charged: each Musket among them
        // meets its own enemy face to face.
        let contacts = d.member_contacts(b, &plan.ends, plan.contact.as_ref());
        if !muskets.is_empty() && contacts.iter().any(Option::is_some) {
            let max = self.n(Num::MsChargeMax);
            if plan.distance > max + 0.5 {
                return Err(RuleError::refused(
                    Refusal::TooFarIntoContact,
                    format!(
                        "Muskets may move at most {max:.0} {} into close combat ({:.0} {})",
                        b.scale.unit, plan.distance, b.scale.unit
                    ),
                ));
            }
        }
        for (id, contact) in ids.iter().zip(&contacts) {
            let Some((target, c)) = contact else {
                continue;
            };
            let (u, t) = (b.unit(id)?, b.unit(target)?);
            if troop(u) != Muskets {
                continue;
            }
            if c.edge != Edge::Front {
                return Err(RuleError::refused(
                    Refusal::NotFaceToFace,
                    format!(
                        "{} must meet {} face to face: front edge to its front edge, never its flank or rear",
                        u.name, t.name
                    ),
                ));
            }
            let need = self.n(Num::MsContactFraction) * u.base.width;
            if c.overlap + 0.5 < need {
                return Err(RuleError::refused(
                    Refusal::HalfFrontContact,
                    format!(
                        "{} must contact {} with at least half their front",
                        u.name, t.name
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Units of the destroyed unit's type up to 200 paces behind it may take a hit.
    fn after_destroyed(
        &self,
        g: &Db7yw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        dead: &UnitId,
    ) -> Result<(), RuleError> {
        let d = &g.dbn;
        let mut queue = vec![dead.clone()];
        while let Some(did) = queue.pop() {
            let du = b.unit(&did)?.clone();
            let range = b.scale.to_mm(self.n(Num::RoutingRange));
            let rear = du.base.local(0.0, -du.base.depth / 2.0);
            let behind: Vec<Unit> = b
                .alive()
                .filter(|f| f.side == du.side && troop(f) == troop(&du) && f.id != du.id)
                .filter(|f| {
                    f.base.centre.minus(rear).dot(du.base.forward()) < 0.0
                        && f.base.within(&du.base, range + 0.5)
                })
                .cloned()
                .collect();
            for f in behind {
                let die = b.d6()?;
                let mut factors = Vec::new();
                if matches!(f.class, Class::Elite | Class::Superior) {
                    factors.push(self.routing(Routing::Elite));
                }
                if f.class == Class::Militia {
                    factors.push(self.routing(Routing::Militia));
                }
                if du
                    .base
                    .touched_by(&f.base)
                    .is_some_and(|c| c.overlap >= du.base.width.min(f.base.width) - 1.0)
                {
                    factors.push(self.routing(Routing::FullContact));
                }
                let total = die as i32 + factor_sum(&factors);
                let need = self.n(Num::RoutingNeed) as i32;
                let hit = total >= need;
                b.emit(
                    out,
                    DbnEvent::RoutingTest {
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

    fn follow(&self, g: &Db7yw, w: &Unit, destroyed: bool) -> Follow {
        let d = &g.dbn;
        if d.is_artillery(w) || d.kind(w) == TroopKind::Baggage {
            Follow::Never
        } else if destroyed {
            // Breakthrough: only DC, LC, IC and II advance into the space.
            if matches!(
                troop(w),
                Dragoons | LightCavalry | IrregularCavalry | IrregularInfantry
            ) {
                Follow::May
            } else {
                Follow::Never
            }
        } else if troop(w) == HeavyCavalry {
            Follow::Must
        } else {
            Follow::May
        }
    }

    fn command_factors(&self, g: &Db7yw, b: &Battle) -> Vec<Factor> {
        let d = &g.dbn;
        let adc = g.has_option(FREE_ADC)
            && b.alive()
                .any(|u| u.side == b.active && d.has_trait(u, TroopTrait::CommanderInChief));
        if adc {
            vec![Factor {
                name: "Special ADC (optional rule)".into(),
                value: self.n(Num::AdcCapBonus) as i32,
                source: "000 Army Composition: advanced optional rule; ruling free_adc".into(),
            }]
        } else {
            Vec::new()
        }
    }

    fn prepare(
        &self,
        g: &DbnGame<Self>,
        u: &crate::rules::scenario::RawUnit,
        packs: &mut u32,
    ) -> Result<(), String> {
        // 000 Heavy Cavalry: "cannot be classed as 'Elite' (they already consider themselves
        // to be elite)": refused in every scenario, not only in a checked army list.
        let heavy = g
            .dbn
            .troop(&u.troop)
            .is_some_and(|t| t.kind == TroopKind::Mounted)
            && troop_type_of_code(&u.troop) == Some(HeavyCavalry);
        if heavy && u.class == Class::Elite {
            return Err(format!(
                "unit '{}': Heavy Cavalry cannot be classed as Elite (000 Heavy Cavalry); \
                 a famous regiment may be Stoic",
                u.id
            ));
        }
        super::prepare_plain(g, u, packs)
    }

    fn validate_army(
        &self,
        g: &Db7yw,
        units: &[&Unit],
        side: &SideInfo,
        terrain: &Terrain,
    ) -> Vec<String> {
        let costs = super::FortifyCosts {
            town: self.n(Num::FortifyBuaCost),
            village: self.n(Num::FortifyNlfCost),
        };
        army::validate_side(&g.dbn, &self.keys.army, units, side, terrain, costs)
    }

    fn unit_cost(&self, g: &Db7yw, u: &Unit, _side: &SideInfo) -> f32 {
        army::unit_cost(&g.dbn, &self.keys.army, u)
    }

    fn check_deployment(
        &self,
        g: &Db7yw,
        zones: &[Zone],
        objective: Option<&Objective>,
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
        let radius = g.dbn.n(N::ObjectiveRadius) * mm_per_unit;
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
}
