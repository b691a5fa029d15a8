//! DB7YW's own rows of its data file, by typed key: the numbers and factors the shared DBN
//! engine does not read, each checked at load (missing, unknown or given twice is refused).

use super::Seven;
use crate::rules::battle::Battle;
use crate::rules::command::Factor;
use crate::rules::model::{Side, Unit};
use crate::rules::ruleset::common::{Keyed, RulesKey};
use crate::rules::ruleset::dbn::{
    DbnData, Extras, FortifyCosts, check_troop_types, own_factors, own_firing_factors, own_numbers,
    troop_type, typed_names,
};

crate::rules_keys! {
    /// DB7YW's own rules numbers.
    pub enum Num {
        MsChargeMax = "ms_charge_max",
        MsWheelMax = "ms_wheel_max",
        PrussianMsWheelMax = "prussian_ms_wheel_max",
        MsContactFraction = "ms_contact_fraction",
        RoutingRange = "routing_range",
        RoutingNeed = "routing_need",
        FortifyBuaCost = "fortify_bua_cost",
        FortifyNlfCost = "fortify_nlf_cost",
        IrregularLossWeight = "irregular_loss_weight",
        AdcCapBonus = "adc_cap_bonus",
    }
}

crate::rules_keys! {
    /// DB7YW's firing factors (beside the shared engine's enemy support).
    pub enum Fire {
        Elite = "elite",
        FlankRear = "flank_rear",
        Militia = "militia",
        Shaken = "shaken",
        GgArtilleryClose = "gg_artillery_close",
        AtJagersBg = "at_jagers_bg",
        ArtilleryAtSkirmishersGg = "artillery_at_skirmishers_gg",
        ArtilleryNotResponding = "artillery_not_responding",
        IntoBuaFort = "into_bua_fort",
        Bg = "bg",
        Bridge = "bridge",
    }
}

crate::rules_keys! {
    /// DB7YW's close combat factors.
    pub enum Close {
        Uphill = "uphill",
        General = "general",
        EliteOrHcVsMounted = "elite_or_hc_vs_mounted",
        DefendingNlfFort = "defending_nlf_fort",
        MilitiaOrJagers = "militia_or_jagers",
        Shaken = "shaken",
        EnemySupport = "enemy_support",
        RecoiledContinuing = "recoiled_continuing",
        CavalryChargingMuskets = "cavalry_charging_muskets",
        FirstFlankRear = "first_flank_rear",
        FirstFlankRearLight = "first_flank_rear_light",
        ArtilleryCannotFire = "artillery_cannot_fire",
        Bg = "bg",
        Bridge = "bridge",
        Garrison = "garrison",
        AttackColumn = "attack_column",
        IiOccupying = "ii_occupying",
    }
}

crate::rules_keys! {
    /// The factors of the test for units behind a destroyed unit (routing troops).
    pub enum Routing {
        Elite = "elite",
        Militia = "militia",
        FullContact = "full_contact",
    }
}

crate::rules_keys! {
    /// DB7YW's troop types, by the codes its data file and scenarios write.
    pub enum TroopType {
        CommanderInChief = "CinC",
        SubCommander = "Sub",
        FootArtillery = "FA",
        HeavyFootArtillery = "FAH",
        GalloperArtillery = "GA",
        HeavyCavalry = "HC",
        Dragoons = "DC",
        LightCavalry = "LC",
        IrregularCavalry = "IC",
        Jagers = "Jg",
        IrregularInfantry = "II",
        Muskets = "Ms",
        Guerrillas = "Gs",
        Baggage = "Bg",
    }
}

crate::rules_keys! {
    /// The nations DB7YW's rules and army lists name; any other nation a scenario gives is a
    /// minor one that none of them names.
    pub enum Nation {
        Prussia = "prussia",
        Austria = "austria",
        Russia = "russia",
        France = "france",
        Britain = "britain",
    }
}

/// DB7YW's army rules with their troop types and nations read at load, line for line with
/// the data's `army` (whose words the errors quote).
#[derive(Clone, Debug)]
pub struct TypedArmy {
    /// Types that cost no points.
    pub free: Vec<TroopType>,
    /// The types of each composition line.
    pub composition: Vec<Vec<TroopType>>,
    pub major: Vec<Nation>,
    pub galloper: Vec<Nation>,
    pub heavy_foot_artillery: Vec<Nation>,
    pub elite_light_cavalry: Vec<Nation>,
    pub superior_muskets: Vec<Nation>,
}

/// DB7YW's own numbers and factors, by key.
#[derive(Clone, Debug)]
pub struct Keys {
    num: Keyed<Num, f32>,
    fire: Keyed<Fire, Factor>,
    close: Keyed<Close, Factor>,
    routing: Keyed<Routing, Factor>,
    pub(super) army: TypedArmy,
}

impl Seven {
    /// Reads DB7YW's own rows of its data file, and gives the shared engine the rules only
    /// DB7YW has: the Irregular Cavalry's loss weight and the Fortify command's costs.
    pub(super) fn read(data: &DbnData, text: &str) -> Result<(Self, Extras), String> {
        check_troop_types::<TroopType>(data, text)?;
        let file = data.file();
        let a = &data.army;
        let troops = |codes: &[String]| typed_names::<TroopType>(codes, &file, "troop type");
        let nations = |names: &[String]| typed_names::<Nation>(names, &file, "nation");
        let army = TypedArmy {
            free: troops(&a.free)?,
            composition: a
                .composition
                .iter()
                .map(|l| troops(&l.troops))
                .collect::<Result<_, _>>()?,
            major: nations(&a.major_nations)?,
            galloper: nations(&a.ga_nations)?,
            heavy_foot_artillery: nations(&a.fah_nations)?,
            elite_light_cavalry: nations(&a.lc_elite_nations)?,
            superior_muskets: nations(&a.ms_superior_nations)?,
        };
        let keys = Keys {
            army,
            num: own_numbers(data, text)?,
            fire: own_firing_factors(data, text)?,
            close: own_factors(&data.combat_factors, data, text)?,
            routing: own_factors(&data.routing_factors, data, text)?,
        };
        let n = |k: Num| *keys.num.get(k);
        let extras = Extras {
            irregular_loss_weight: Some(n(Num::IrregularLossWeight)),
            fortify: Some(FortifyCosts {
                town: n(Num::FortifyBuaCost),
                village: n(Num::FortifyNlfCost),
            }),
            // DB7YW's data gives no `visibility_all_bad_going`: woods alone limit visibility
            // (ruling line_of_sight).
            all_bad_going_hides: false,
            ..Extras::default()
        };
        Ok((Seven { keys }, extras))
    }

    /// One of DB7YW's own rules numbers.
    pub fn n(&self, k: Num) -> f32 {
        *self.keys.num.get(k)
    }

    pub fn fire(&self, k: Fire) -> Factor {
        self.keys.fire.get(k).clone()
    }

    pub fn close(&self, k: Close) -> Factor {
        self.keys.close.get(k).clone()
    }

    pub fn routing(&self, k: Routing) -> Factor {
        self.keys.routing.get(k).clone()
    }
}

/// A unit's DB7YW troop type.
pub fn troop(u: &Unit) -> TroopType {
    troop_type(u)
}

/// A side's nation, where DB7YW's rules or lists name it; None for any other (minor) nation.
pub fn nation(b: &Battle, side: Side) -> Option<Nation> {
    b.sides.get(side).and_then(|s| nation_named(&s.nation))
}

/// A nation's name as a scenario writes it, where DB7YW names it.
pub fn nation_named(name: &str) -> Option<Nation> {
    Nation::ALL.iter().copied().find(|n| n.key() == name)
}
