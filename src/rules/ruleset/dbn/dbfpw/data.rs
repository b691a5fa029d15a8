//! DBFPW's own rows of its data file, by typed key: the numbers and factors the shared DBN
//! engine does not read, each checked at load (missing, unknown or given twice is refused).

use super::Fpw;
use crate::rules::battle::Battle;
use crate::rules::command::Factor;
use crate::rules::model::Unit;
use crate::rules::ruleset::common::{Keyed, RulesKey};
use crate::rules::ruleset::dbn::army::TypedLists;
use crate::rules::ruleset::dbn::{
    DbnData, DivisionalRules, Extras, FirstDie, check_troop_types, own_factors, own_firing_factors,
    own_numbers, troop_type,
};

crate::rules_keys! {
    /// DBFPW's own rules numbers.
    pub enum Num {
        ChargeBonus = "charge_bonus",
        AttackColumnCost = "attack_column_cost",
        VisibilityAllBadGoing = "visibility_all_bad_going",
        GermanArtilleryClose = "german_artillery_close",
        FirstDieStoppage = "first_die_stoppage",
        FirstDieLongFail = "first_die_long_fail",
        DscCommandRange = "dsc_command_range",
        DscCaps = "dsc_caps",
        DscFleeMax = "dsc_flee_max",
        SupplyRadius = "supply_radius",
        SupplyEnemyClearance = "supply_enemy_clearance",
        SupplyShakenFraction = "supply_shaken_fraction",
        SupplyGrid = "supply_grid",
        PacksSupplier = "packs_supplier",
        PacksHa = "packs_ha",
        PacksHaLarger = "packs_ha_larger",
        PacksGunsLarger = "packs_guns_larger",
        StandardTable = "standard_table",
        StandardGap = "standard_gap",
        StandardPieces = "standard_pieces",
        StandardBua = "standard_bua",
        StandardNlf = "standard_nlf",
        LancersEveryFrench = "lancers_every_french",
        LancersEveryGerman = "lancers_every_german",
        BavarianShare = "bavarian_share",
        FortificationCost = "fortification_cost",
    }
}

crate::rules_keys! {
    /// DBFPW's firing factors (beside the shared engine's enemy support).
    pub enum Fire {
        Blr2PrussianMit = "blr2_prussian_mit",
        FlankRear = "flank_rear",
        Elite = "elite",
        LongArtOrRm = "long_art_or_rm",
        ArtilleryNotResponding = "artillery_not_responding",
        FiredAtClose = "fired_at_close",
        Poor = "poor",
        Shaken = "shaken",
        Bg = "bg",
        IntoCover = "into_cover",
        IntoCoverSs = "into_cover_ss",
        Bridge = "bridge",
        FrenchInfLong = "french_inf_long",
        FirstDieFailed = "first_die_failed",
    }
}

crate::rules_keys! {
    /// DBFPW's close combat factors.
    pub enum Close {
        Garrison = "garrison",
        AttackColumn = "attack_column",
        HcVsMounted = "hc_vs_mounted",
        Uphill = "uphill",
        General = "general",
        Elite = "elite",
        DefendingFort = "defending_fort",
        PoorOrSs = "poor_or_ss",
        CavVsInf = "cav_vs_inf",
        EnemySupport = "enemy_support",
        Shaken = "shaken",
        FirstFlankRear = "first_flank_rear",
        Bg = "bg",
        OutOfAmmo = "out_of_ammo",
        BridgeOrRoad = "bridge_or_road",
    }
}

crate::rules_keys! {
    /// DBFPW's troop types, by the codes its data file and scenarios write.
    pub enum TroopType {
        CommanderInChief = "CinC",
        SubCommander = "Sub",
        Divisional = "DSC",
        Infantry = "Inf",
        InfantryRm = "InfRM",
        InfantryBlr2 = "InfBLR2",
        Sharpshooters = "SS",
        SharpshootersBlr2 = "SSBLR2",
        FootArtilleryPrussian = "FAPr",
        FootArtilleryFrench = "FAFr",
        HorseArtillery = "HA",
        Mitrailleuse = "Mit",
        HeavyCavalry = "HC",
        LightCavalry = "LC",
        SkirmishingCavalry = "SC",
        SkirmishingCavalryDismounted = "SCD",
        Guerrillas = "Gs",
        BaggageTrain = "BT",
        Caisson = "CU",
    }
}

crate::rules_keys! {
    /// The nations DBFPW's rules name (ruling nations); any other is neither French nor
    /// German.
    pub enum Nation {
        ImperialFrench = "imperial_french",
        RepublicFrench = "republic_french",
        German = "german",
        Prussia = "prussia",
    }
}

impl Nation {
    pub fn is_french(self) -> bool {
        matches!(self, Nation::ImperialFrench | Nation::RepublicFrench)
    }

    pub fn is_german(self) -> bool {
        matches!(self, Nation::German | Nation::Prussia)
    }
}

/// A unit's DBFPW troop type.
pub fn troop(u: &Unit) -> TroopType {
    troop_type(u)
}

/// A nation's name as a scenario writes it, where DBFPW names it.
pub fn nation_named(name: &str) -> Option<Nation> {
    Nation::ALL.iter().copied().find(|n| n.key() == name)
}

/// The nation of a unit's side, where DBFPW names it.
pub fn nation(b: &Battle, u: &Unit) -> Option<Nation> {
    b.sides.get(u.side).and_then(|s| nation_named(&s.nation))
}

/// DBFPW's own numbers and factors, by key.
#[derive(Clone, Debug)]
pub struct Keys {
    num: Keyed<Num, f32>,
    fire: Keyed<Fire, Factor>,
    close: Keyed<Close, Factor>,
    /// The cost rules and national lists with their troop types and nations.
    pub(super) lists: TypedLists<TroopType, Nation>,
}

impl Fpw {
    /// Reads DBFPW's own rows of its data file (it has no routing test: its routing list must
    /// be empty), and gives the shared engine the rules only DBFPW has: the charge bonus,
    /// divisional sub-commanders, the mitrailleuse's first die and visibility in all bad going.
    pub(super) fn read(data: &DbnData, text: &str) -> Result<(Self, Extras), String> {
        if let Some(f) = data.routing_factors.first() {
            return Err(format!(
                "{}: the routing factor '{}' is not one the rules read (DBFPW has no routing test)",
                data.file(),
                f.key
            ));
        }
        check_troop_types::<TroopType>(data, text)?;
        let keys = Keys {
            lists: TypedLists::read(data)?,
            num: own_numbers(data, text)?,
            fire: own_firing_factors(data, text)?,
            close: own_factors(&data.combat_factors, data, text)?,
        };
        let fpw = Fpw { keys };
        let n = |k: Num| fpw.n(k);
        let extras = Extras {
            charge_bonus: Some(n(Num::ChargeBonus)),
            divisional: Some(DivisionalRules {
                caps: n(Num::DscCaps) as i32,
                command_range: n(Num::DscCommandRange),
                flee_max: n(Num::DscFleeMax) as u8,
            }),
            first_die: Some(FirstDie {
                fail_max: n(Num::FirstDieStoppage) as u8,
                long_fail_max: n(Num::FirstDieLongFail) as u8,
                failed: fpw.fire(Fire::FirstDieFailed),
            }),
            all_bad_going_hides: n(Num::VisibilityAllBadGoing) > 0.0,
            // DBFPW buys prepared fortifications in the army list: no Fortify command.
            fortify: None,
            irregular_loss_weight: None,
        };
        Ok((fpw, extras))
    }

    /// One of DBFPW's own rules numbers.
    pub fn n(&self, k: Num) -> f32 {
        *self.keys.num.get(k)
    }

    pub fn fire(&self, k: Fire) -> Factor {
        self.keys.fire.get(k).clone()
    }

    pub fn close(&self, k: Close) -> Factor {
        self.keys.close.get(k).clone()
    }
}
