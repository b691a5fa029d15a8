//! DBFPW's armies: the units a scenario may field (packs and flags), the national army lists
//! and the standard table.

use super::data::Num;
use super::data::TroopType::{
    Caisson, FootArtilleryFrench, FootArtilleryPrussian, HorseArtillery, Infantry, InfantryBlr2,
    InfantryRm, LightCavalry, Mitrailleuse, Sharpshooters, SharpshootersBlr2, SkirmishingCavalry,
};
use super::data::{Nation, TroopType, nation_named, troop};
use super::{AMMUNITION, Dbfpw, Fpw, LARGER_BATTLES, is_infantry, is_ss};
use crate::rules::battle::Zone;
use crate::rules::model::{Class, SideInfo, Unit};
use crate::rules::ruleset::dbn::Flag;
use crate::rules::ruleset::dbn::troop_type_of_code;
use crate::rules::ruleset::dbn::{Supplement, TroopKind, TroopTrait};
use crate::rules::scenario::RawUnit;
use crate::rules::terrain::{FeatureKind, Terrain};

impl Fpw {
    pub(super) fn prepare(&self, g: &Dbfpw, u: &RawUnit, packs: &mut u32) -> Result<(), String> {
        let d = &g.dbn;
        let t = d
            .troop(&u.troop)
            .ok_or_else(|| format!("unknown troop type '{}'", u.troop))?;
        let kind = troop_type_of_code::<TroopType>(&u.troop);
        let default = Self::pack_allowance(g, t);
        *packs = u.packs.unwrap_or(default);
        if *packs > 0 && !g.has_option(AMMUNITION) && u.packs.is_some() {
            return Err(format!(
                "unit '{}': packs need the optional rule 'ammunition'",
                u.id
            ));
        }
        if *packs > 99 {
            return Err(format!("unit '{}': at most 99 packs", u.id));
        }
        for f in &u.flags {
            let ok = match f.read::<Flag>() {
                Some(Flag::Lancer) => kind == Some(LightCavalry),
                Some(Flag::Zouave) => matches!(
                    kind,
                    Some(Infantry | InfantryRm | InfantryBlr2 | LightCavalry)
                ),
                Some(Flag::Bavarian) => matches!(
                    kind,
                    Some(Infantry | InfantryRm | InfantryBlr2 | Sharpshooters | SharpshootersBlr2)
                ),
                Some(Flag::Fixed) => t.kind == TroopKind::Artillery,
                Some(Flag::Guard) => true,
                _ => false,
            };
            if !ok {
                return Err(format!(
                    "unit '{}': the flag {f:?} does not apply to {}",
                    u.id, t.name
                ));
            }
        }
        // Bavarian infantry are classed as Poor (002 Special rules).
        if u.flags
            .iter()
            .any(|f| f.read::<Flag>() == Some(Flag::Bavarian))
            && matches!(kind, Some(Infantry | InfantryRm | InfantryBlr2))
            && u.class != Class::Militia
        {
            return Err(format!(
                "unit '{}': Bavarian infantry are classed as Poor (002 Special rules)",
                u.id
            ));
        }
        Ok(())
    }

    pub(super) fn validate_army(
        &self,
        g: &Dbfpw,
        units: &[&Unit],
        side: &SideInfo,
        terrain: &Terrain,
    ) -> Vec<String> {
        let d = &g.dbn;
        let mut errs = crate::rules::ruleset::dbn::army::validate_lists(
            d,
            &self.keys.lists,
            units,
            side,
            nation_named(&side.nation),
            terrain,
            self.n(Num::FortificationCost),
            &|c| self.class_name(c),
        );
        let count = |f: &dyn Fn(&Unit) -> bool| units.iter().filter(|u| f(u)).count();
        let french = nation_named(&side.nation).is_some_and(Nation::is_french);
        // Every third French LC may be Lancers; every second German LC.
        let lc = count(&|u| troop(u) == LightCavalry);
        let lancers = count(&|u| u.has(Flag::Lancer));
        let per = g
            .sup
            .n(if french {
                Num::LancersEveryFrench
            } else {
                Num::LancersEveryGerman
            })
            .max(1.0) as usize;
        if lancers > lc / per {
            errs.push(format!(
                "{lancers} Lancers among {lc} LC: one LC in {per} may be Lancers (002 Suggested Armies, note *)"
            ));
        }
        // Two units in eight of German infantry may be Bavarian.
        let inf = count(&|u| is_infantry(u));
        let bav = count(&|u| is_infantry(u) && u.has(Flag::Bavarian));
        let share = g.sup.n(Num::BavarianShare);
        if bav as f32 > inf as f32 * share + 1e-3 {
            errs.push(format!(
                "{bav} Bavarian infantry among {inf}: two in eight may be Bavarian (002 Suggested Armies)"
            ));
        }
        if bav > 0 && french {
            errs.push("Bavarians serve only in German armies".into());
        }
        // German SS carry BLR1; the one with BLR2 is the Bavarian one.
        if !french && count(&|u| troop(u) == SharpshootersBlr2 && !u.has(Flag::Bavarian)) > 0 {
            errs.push(
                "German SS carry BLR1: only the Bavarian SS may have BLR2 (002 Suggested Armies)"
                    .into(),
            );
        }
        if !french && count(&|u| u.has(Flag::Zouave)) > 0 {
            errs.push("Zouaves, North Africans and Chasseurs d'Afrique are French".into());
        }
        if french && count(&|u| troop(u) == Caisson) > 0 {
            errs.push("caisson units are Prussian (002 Prussian Caisson Unit)".into());
        }
        if !french && count(&|u| d.is_commander(u) && u.class == Class::Militia) > 0 {
            errs.push("only the French can have Poor commanders (002 Special rules)".into());
        }
        // Guard artillery: one FA if two Guard infantry, one HA if two Guard cavalry.
        let guard_inf = count(&|u| is_infantry(u) && u.has(Flag::Guard));
        let guard_cav = count(&|u| d.is_mounted(u) && u.has(Flag::Guard));
        let guard_fa = count(&|u| {
            matches!(troop(u), FootArtilleryPrussian | FootArtilleryFrench) && u.has(Flag::Guard)
        });
        let guard_ha = count(&|u| troop(u) == HorseArtillery && u.has(Flag::Guard));
        if guard_fa > usize::from(guard_inf >= 2) || guard_ha > usize::from(guard_cav >= 2) {
            errs.push(
                "Guard artillery: one foot artillery if two or more Guard infantry, one horse artillery if two or more Guard cavalry (002 Special rules)".into(),
            );
        }
        let elite_guns =
            count(&|u| d.is_artillery(u) && u.class == Class::Elite && !u.has(Flag::Guard));
        if elite_guns > 0 {
            errs.push("only Guard artillery is elite (ruling guard_artillery)".into());
        }
        // Packs: no more than the type's allowance.
        for u in units {
            let t = d.troop_of(u);
            let allowed = Self::pack_allowance(g, t);
            if u.status.packs > allowed {
                errs.push(format!(
                    "'{}' carries {} pack(s): {} may carry {allowed} (002 Ammunition Supply)",
                    u.id, u.status.packs, t.name
                ));
            }
        }
        // Larger battles: infantry (and French Mit and SS, German SC) under a DSC's command.
        if g.has_option(LARGER_BATTLES) {
            for u in units {
                let needs = is_infantry(u)
                    || (french && (troop(u) == Mitrailleuse || is_ss(u)))
                    || (!french && troop(u) == SkirmishingCavalry);
                if !needs {
                    continue;
                }
                let has_dsc = units.iter().any(|x| {
                    d.has_trait(x, TroopTrait::Divisional)
                        && x.division.is_some()
                        && x.division == u.division
                });
                if !has_dsc {
                    errs.push(format!(
                        "'{}' must be under the direct command of a DSC: give it the division of one (002 Larger Battles)",
                        u.id
                    ));
                }
            }
        }
        errs
    }

    pub(super) fn check_standard(
        &self,
        g: &Dbfpw,
        table_mm: (f32, f32),
        terrain: &Terrain,
        units: &[Unit],
        zones: &[Zone],
        mm_per_unit: f32,
    ) -> Vec<String> {
        let paces = |mm: f32| mm / mm_per_unit.max(1e-6);
        let mut errs = Vec::new();
        let side = g.sup.n(Num::StandardTable);
        if paces(table_mm.0) + 0.5 < side || paces(table_mm.1) + 0.5 < side {
            errs.push(format!(
                "the standard table is at least {side:.0} paces square; this one is {:.0} x {:.0}",
                paces(table_mm.0),
                paces(table_mm.1)
            ));
        }
        let gap = g.sup.n(Num::StandardGap) * mm_per_unit;
        for a in units.iter().filter(|u| u.side == 0 && !u.status.undeployed) {
            if let Some(e) = units
                .iter()
                .filter(|u| u.side != 0 && !u.status.undeployed)
                .find(|e| a.base.distance(&e.base) + 0.5 < gap)
            {
                errs.push(format!(
                    "'{}' and '{}' deploy {:.0} paces apart: opposing units deploy at least {:.0} apart",
                    a.id,
                    e.id,
                    paces(a.base.distance(&e.base)),
                    g.sup.n(Num::StandardGap)
                ));
                break;
            }
        }
        for z in zones.iter().filter(|z| z.side == 0) {
            for o in zones.iter().filter(|o| o.side != 0) {
                let dx = (o.min.x - z.max.x).max(z.min.x - o.max.x).max(0.0);
                let dy = (o.min.y - z.max.y).max(z.min.y - o.max.y).max(0.0);
                if dx.hypot(dy) + 0.5 < gap {
                    errs.push(format!(
                        "deployment zones lie {:.0} paces apart: at least {:.0}",
                        paces(dx.hypot(dy)),
                        g.sup.n(Num::StandardGap)
                    ));
                }
            }
        }
        let significant = terrain
            .features
            .iter()
            .filter(|f| {
                // Roads, and the bridges and causeways that carry them over water and marsh, are
                // the road network, not pieces of their own; a river is (ruling standard_table).
                !f.kind.is_road_like()
            })
            .count();
        let bua = terrain
            .features
            .iter()
            .filter(|f| f.kind == FeatureKind::Town)
            .count();
        let nlf = terrain
            .features
            .iter()
            .filter(|f| matches!(f.kind, FeatureKind::Village | FeatureKind::Fortification))
            .count();
        for (have, key, what) in [
            (
                significant,
                Num::StandardPieces,
                "significant terrain pieces (roads, bridges and causeways not counted)",
            ),
            (bua, Num::StandardBua, "BUA (towns)"),
            (nlf, Num::StandardNlf, "NLF (villages or fortifications)"),
        ] {
            let need = g.sup.n(key) as usize;
            if have < need {
                errs.push(format!(
                    "the standard table has at least {need} {what}; this one has {have}"
                ));
            }
        }
        errs
    }
}
