//! DBFPW's firing: breech-loaders and long range, German artillery, the firing factors and
//! results, and what firing leaves behind (ammunition spent, a second move under artillery).

use super::data::TroopType::{
    FootArtilleryPrussian, Guerrillas, InfantryBlr2, InfantryRm, Mitrailleuse, SharpshootersBlr2,
    SkirmishingCavalry,
};
use super::data::troop;
use super::data::{Fire, Num};
use super::{Dbfpw, Fpw, is_french, is_german, is_infantry, is_ss};
use crate::rules::battle::Battle;
use crate::rules::command::{Effect, Event, Factor, RuleError, Verdict};
use crate::rules::model::{Ammo, Class, Unit, UnitId};
use crate::rules::ruleset::dbn::FireRole;
use crate::rules::ruleset::dbn::Flag;
use crate::rules::ruleset::dbn::N;

impl Fpw {
    /// German artillery: any artillery of a German side (not the Mitrailleuse).
    fn is_german_artillery(g: &Dbfpw, b: &Battle, u: &Unit) -> bool {
        g.dbn.is_artillery(u) && troop(u) != Mitrailleuse && is_german(b, u)
    }

    /// At long range: beyond effective range.
    fn at_long_range(g: &Dbfpw, b: &Battle, u: &Unit, other: &Unit) -> bool {
        let dist = b.scale.from_mm(u.base.front_edge_distance(&other.base));
        g.dbn.range(u).is_some_and(|r| dist > r + 0.5)
    }

    pub(super) fn fire_factors(
        &self,
        g: &Dbfpw,
        b: &Battle,
        u: &Unit,
        other: &Unit,
        role: FireRole,
        enemy_supporters: usize,
    ) -> Vec<Factor> {
        let d = &g.dbn;
        let mut f = vec![g.troop_factor(u)];
        let firing = matches!(role, FireRole::Firer { .. })
            || matches!(role, FireRole::Target { responding: true });
        let german_art = Self::is_german_artillery(g, b, u);
        if firing
            && (matches!(troop(u), InfantryBlr2 | SharpshootersBlr2)
                || troop(u) == FootArtilleryPrussian
                || german_art
                || troop(u) == Mitrailleuse)
        {
            f.push(g.sup.fire(Fire::Blr2PrussianMit));
        }
        if u.class == Class::Elite {
            f.push(g.sup.fire(Fire::Elite));
        }
        if u.class == Class::Militia {
            f.push(g.sup.fire(Fire::Poor));
        }
        if u.status.shaken {
            f.push(g.sup.fire(Fire::Shaken));
        }
        for _ in 0..enemy_supporters {
            f.push(d.fire_support());
        }
        if troop(u) == InfantryRm && firing {
            f.push(g.sup.fire(Fire::LongArtOrRm));
        }
        // Fired at: the target, and both guns of a counter-battery exchange.
        let fired_at = matches!(
            role,
            FireRole::Target { .. } | FireRole::Firer { mutual: true }
        );
        if fired_at {
            let dist = other.base.front_edge_distance(&u.base);
            let near = |paces: f32| dist <= b.scale.to_mm(paces) + 0.5;
            let german_or_mit =
                troop(other) == Mitrailleuse || Self::is_german_artillery(g, b, other);
            if (german_or_mit && near(g.sup.n(Num::GermanArtilleryClose)))
                || (d.is_artillery(other) && near(d.n(N::ArtilleryClose)))
            {
                f.push(g.sup.fire(Fire::FiredAtClose));
            }
        }
        if matches!(role, FireRole::Target { responding: false }) && d.is_artillery(u) {
            f.push(g.sup.fire(Fire::ArtilleryNotResponding));
        }
        // The factors of firing apply to each side that fires: the firer, and a target
        // firing back.
        if firing {
            if other.behind_front_line_of(u) {
                f.push(g.sup.fire(Fire::FlankRear));
            }
            let long = Self::at_long_range(g, b, u, other);
            if long && d.is_artillery(u) {
                f.push(g.sup.fire(Fire::LongArtOrRm));
            }
            if long && is_infantry(u) && is_french(b, u) {
                f.push(g.sup.fire(Fire::FrenchInfLong));
            }
            if (d.in_bad_going(b, u) || d.in_bad_going(b, other)) && !is_ss(u) {
                f.push(g.sup.fire(Fire::Bg));
            }
            if d.in_built_up_or_works(b, other) {
                if is_ss(u) {
                    f.push(g.sup.fire(Fire::IntoCoverSs));
                } else {
                    f.push(g.sup.fire(Fire::IntoCover));
                }
            }
            if b.terrain.on_bridge(&u.base) {
                f.push(g.sup.fire(Fire::Bridge));
            }
        }
        f
    }

    pub(super) fn firing_effect(
        &self,
        g: &Dbfpw,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        let d = &g.dbn;
        let hit = g.hits(N::ResultHit);
        // Garrisons: infantry and guerrillas inside a BUA (sharpshooters have their own row).
        let garrison =
            (is_infantry(loser) || troop(loser) == Guerrillas) && d.is_garrison(b, loser);
        match verdict {
            Verdict::Draw | Verdict::Outscored => Effect::NoEffect,
            Verdict::Beaten => {
                if d.is_commander(loser) {
                    Effect::Recoil
                } else if troop(loser) == SkirmishingCavalry {
                    Effect::Flee { hits: 0 }
                } else if garrison {
                    Effect::NoEffect
                } else if is_ss(loser) {
                    let covered = d.in_town(b, loser) || d.in_fortification(b, loser);
                    if covered {
                        Effect::Hits(hit)
                    } else {
                        Effect::HitAndRecoil
                    }
                } else {
                    Effect::Hits(hit)
                }
            }
            Verdict::BeatenByDouble => {
                if d.is_commander(loser)
                    || troop(loser) == Guerrillas
                    || (d.is_artillery(loser) && loser.has(Flag::Fixed))
                {
                    Effect::Destroyed
                } else if troop(loser) == SkirmishingCavalry {
                    if Self::in_bad_going_for_results(g, b, loser) {
                        Effect::Destroyed
                    } else {
                        Effect::Flee { hits: hit }
                    }
                } else if is_ss(loser) {
                    if d.is_skirmisher(winner) || troop(winner) == SkirmishingCavalry {
                        Effect::Destroyed
                    } else {
                        Effect::Flee { hits: hit }
                    }
                } else if garrison {
                    Effect::NoEffect
                } else {
                    Effect::Hits(g.hits(N::ResultDoubleHits))
                }
            }
        }
    }

    pub(super) fn after_fire(
        &self,
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        die: Option<u8>,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() || !Self::uses_ammo(g, &u) {
            return Ok(());
        }
        match u.status.ammo {
            Ammo::Low => {
                Self::supply(
                    b,
                    out,
                    id,
                    Ammo::Out,
                    u.status.packs,
                    "fired its last round".into(),
                );
                Self::resupply(g, b, out, id)?;
            }
            Ammo::Full if die == Some(1) => {
                if u.status.packs > 0 {
                    Self::supply(
                        b,
                        out,
                        id,
                        Ammo::Full,
                        u.status.packs - 1,
                        "threw a 1 firing and uses its own pack".into(),
                    );
                    return Ok(());
                }
                let friend = b
                    .alive()
                    .filter(|f| f.side == u.side && f.id != u.id && f.status.packs > 0)
                    .find(|f| {
                        u.base.touched_by(&f.base).is_some() || f.base.touched_by(&u.base).is_some()
                    })
                    .cloned();
                match friend {
                    Some(f) => {
                        Self::supply(
                            b,
                            out,
                            &f.id,
                            f.status.ammo,
                            f.status.packs - 1,
                            format!("passes a pack to {}", u.name),
                        );
                    }
                    None => {
                        Self::supply(
                            b,
                            out,
                            id,
                            Ammo::Low,
                            0,
                            "threw a 1 firing: low on ammunition".into(),
                        );
                        Self::resupply(g, b, out, id)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}
