//! The DBN family's data file as the engine reads it: troop types with their kinds and traits,
//! the army lists, the rules numbers and factors, and the lookups every topic asks (a unit's
//! troop row, kind, ranges and first die).

use crate::rules::command::Factor;
use crate::rules::model::{Class, Formation, Unit};
use crate::rules::ruleset::common::{FactorDef, Keyed, Number, RulesKey, factor_in, number};
use crate::rules::ruleset::{ResultRow, Ruling};
use serde::{Deserialize, Serialize};

/// What kind of troop a type is, for the rules that ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TroopKind {
    Commander,
    Artillery,
    Mounted,
    Foot,
    Baggage,
}

/// What a troop type does beyond its kind, for the rules that ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TroopTrait {
    /// The commander-in-chief: its loss weighs more towards the army's break.
    CommanderInChief,
    /// Its presence adds to the side's command roll (Irregular Cavalry's CAP bonus).
    CommandBonus,
    /// Artillery that may move or fire in a bound it limbered or unlimbered (galloper, horse).
    QuickLimber,
    /// Its loss weighs less towards the army's break (Irregular Cavalry's special victory
    /// conditions): the data's `irregular_loss_weight`.
    IrregularLoss,
    /// Artillery that may move and fire in the same bound (the mitrailleuse).
    MoveAndFire,
    /// In bad going inside an unfortified village (DB7YW's Muskets).
    VillageBadGoing,
    /// Foot that gains the data's `charge_bonus` in good going when moving into close combat.
    ChargeBonus,
    /// A divisional sub-commander: the data's `dsc_caps` command points instead of a die,
    /// command over its own division within `dsc_command_range`, supports only its own
    /// division's close combats, cannot be fired at, and meets a close combat with one die
    /// (up to `dsc_flee_max` it flees, else it is destroyed).
    Divisional,
    /// Carries ammunition packs for others (baggage train, caisson): resupplies by contact, or
    /// within the data's `supply_radius` when it has the `SupplyRadius` trait too.
    Supplier,
    /// Resupplies every friend within the data's `supply_radius` by a path clear of enemies and
    /// bad going (the Prussian caisson unit).
    SupplyRadius,
    /// Throws a first die before each firing or close combat (the mitrailleuse): see the data's
    /// `first_die_*` numbers.
    FirstDie,
    /// Moves directly backwards at half speed: each pace back counts two against its allowance
    /// (DB7YW's Muskets). A group holding one moves so.
    BackwardHalfSpeed,
}

/// How a troop type's first die may fail (the mitrailleuse): the faces that fail always, and
/// those that fail only at long range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstDie {
    pub fail_max: u8,
    pub long_fail_max: u8,
}

/// One row of the troop table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Troop {
    pub code: String,
    pub name: String,
    /// Firing range in paces; None cannot fire.
    pub range: Option<f32>,
    /// Long range in paces: only from raised ground, stationary, at a target in the open.
    #[serde(default)]
    pub long_range: Option<f32>,
    /// The troop type whose movement and range it takes when dismounted (skirmishing cavalry).
    #[serde(default)]
    pub dismounted: Option<String>,
    /// Movement in good going, bad going and on roads (paces); None cannot.
    pub gg: Option<f32>,
    pub bg: Option<f32>,
    pub road: Option<f32>,
    pub combat: i32,
    pub kind: TroopKind,
    /// Foot skirmishers (SkInf).
    pub skirmisher: bool,
    /// Frontage and depth, mm.
    pub base: (f32, f32),
    pub source: String,
    #[serde(default)]
    pub traits: Vec<TroopTrait>,
}

/// A composition line of the army list: how many of these types.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Allowance {
    pub troops: Vec<String>,
    pub min: u32,
    pub max: u32,
}

/// A cost change in the army list: a troop type, class or flag and what it adds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostRule {
    /// Troop codes it applies to (empty: any).
    #[serde(default)]
    pub troops: Vec<String>,
    #[serde(default)]
    pub class: Option<Class>,
    #[serde(default)]
    pub flag: Option<crate::rules::model::Flag>,
    /// Applies only to a side of these nations (empty: any).
    #[serde(default)]
    pub nations: Vec<String>,
    pub cost: f32,
    /// Replaces the cost instead of adding to it (RM Poor at 0.25).
    #[serde(default)]
    pub absolute: bool,
    pub source: String,
}

/// One line of a national army list: how many units of these types (of a class, or with a
/// flag) a side may field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ListLine {
    pub troops: Vec<String>,
    #[serde(default)]
    pub class: Option<Class>,
    /// Several classes counted together (instead of `class`).
    #[serde(default)]
    pub classes: Vec<Class>,
    #[serde(default)]
    pub flag: Option<crate::rules::model::Flag>,
    pub min: u32,
    pub max: u32,
    pub words: String,
}

/// A national army list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NationalList {
    pub name: String,
    pub nations: Vec<String>,
    pub lines: Vec<ListLine>,
    pub source: String,
}

/// Army list rules: points and composition. The share rules are DB7YW's; `costs` and
/// `lists` serve supplements with national lists.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ArmyRules {
    pub points: f32,
    pub base_cost: f32,
    #[serde(default)]
    pub elite_cost: f32,
    #[serde(default)]
    pub militia_cost: f32,
    #[serde(default)]
    pub ic_cost: f32,
    #[serde(default)]
    pub superior_cost: f32,
    #[serde(default)]
    pub costs: Vec<CostRule>,
    #[serde(default)]
    pub lists: Vec<NationalList>,
    #[serde(default)]
    pub composition: Vec<Allowance>,
    #[serde(default)]
    pub major_nations: Vec<String>,
    #[serde(default)]
    pub ga_nations: Vec<String>,
    #[serde(default)]
    pub fah_nations: Vec<String>,
    #[serde(default)]
    pub lc_elite_nations: Vec<String>,
    #[serde(default)]
    pub ms_elite_max_share: f32,
    #[serde(default)]
    pub major_hc_max_share: f32,
    #[serde(default)]
    pub minor_hc_max_share: f32,
    #[serde(default)]
    pub major_ms_militia_max_share: f32,
    #[serde(default)]
    pub minor_ms_militia_min_share: f32,
    /// Minor nations "usually" field no Ms(E): the exceptions allowed.
    #[serde(default)]
    pub minor_ms_elite_max: f32,
    #[serde(default)]
    pub dc_superior_every: u32,
    /// Types that cost no points (the free CinC and baggage).
    pub free: Vec<String>,
    #[serde(default)]
    pub ms_superior_nations: Vec<String>,
    #[serde(default)]
    pub ms_superior_max_share: f32,
    pub source: String,
    /// The recommended standard army: (type, class, count).
    #[serde(default)]
    pub standard: Vec<(String, Class, u32)>,
}

/// A DBN-family ruleset's data file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DbnData {
    pub id: String,
    pub name: String,
    pub seed: String,
    pub unit: crate::rules::ruleset::view::Measure,
    pub paces_per_inch: f32,
    pub troops: Vec<Troop>,
    pub firing_factors: Vec<FactorDef>,
    pub combat_factors: Vec<FactorDef>,
    /// Factors of the test for units behind a destroyed unit.
    pub routing_factors: Vec<FactorDef>,
    pub numbers: Vec<Number>,
    pub army: ArmyRules,
    pub results: Vec<ResultRow>,
    pub rulings: Vec<Ruling>,
}

crate::rules_keys! {
    /// The rules numbers every DBN-family data file gives (both DB7YW's and DBFPW's), read by
    /// the shared engine: loading refuses a file lacking one.
    pub enum N {
        SquareUpMax = "square_up_max",
        GarrisonFortifiedOnly = "garrison_fortified_only",
        ResultHit = "result_hit",
        ResultDoubleHits = "result_double_hits",
        ShakenHits = "shaken_hits",
        DestroyedHits = "destroyed_hits",
        FleeDistance = "flee_distance",
        WoodsVisibility = "woods_visibility",
        ArtilleryClose = "artillery_close",
        FaPivotMax = "fa_pivot_max",
        LimberCost = "limber_cost",
        UnlimberCost = "unlimber_cost",
        FaPivotCost = "fa_pivot_cost",
        BreakFraction = "break_fraction",
        BaggageWeight = "baggage_weight",
        CincWeight = "cinc_weight",
        ObjectiveWeight = "objective_weight",
        DivisionFormationsMax = "division_formations_max",
        DeployDistance = "deploy_distance",
        MoveCost = "move_cost",
        OutOfRangeCost = "out_of_range_cost",
        CommandRange = "command_range",
        IcCapBonus = "ic_cap_bonus",
        ArcHalfAngle = "arc_half_angle",
        ThreatZoneDepthBw = "threat_zone_depth_bw",
        FireEdgeDepth = "fire_edge_depth",
        ObjectiveRadius = "objective_radius",
        LosFriendsBlock = "los_friends_block",
        LosEnemiesBlock = "los_enemies_block",
        LosClearance = "los_clearance",
    }
}

/// The DBN-family engine with its data.
#[derive(Clone, Debug)]
pub struct Dbn {
    pub data: DbnData,
    /// The shared rules numbers by key (the supplement's own are still read from `data`).
    numbers: Keyed<N, f32>,
}

impl Dbn {
    pub fn from_ron(text: &str) -> Result<Self, String> {
        let data: DbnData = ron::from_str(text).map_err(|e| format!("ruleset data: {e}"))?;
        let file = format!("assets/rulesets/{}.ron", data.id);
        // The numbers the shared engine reads, each refused when missing or given twice; a
        // supplement's own numbers are read by name until they are keyed too.
        let shared: Vec<Number> = data
            .numbers
            .iter()
            .filter(|x| N::ALL.iter().any(|k| k.key() == x.key))
            .cloned()
            .collect();
        let numbers = Keyed::numbers(&shared, &file, text)?;
        Ok(Dbn { data, numbers })
    }

    /// A shared rules number.
    pub fn n(&self, key: N) -> f32 {
        *self.numbers.get(key)
    }

    pub fn troop(&self, code: &str) -> Option<&Troop> {
        self.data.troops.iter().find(|t| t.code == code)
    }

    /// The troop row of a unit (validated at scenario load, so always present in play).
    pub fn troop_of(&self, u: &Unit) -> &Troop {
        self.troop(&u.troop).unwrap_or(&self.data.troops[0])
    }

    pub fn num(&self, key: &str) -> f32 {
        number(&self.data.numbers, key)
    }

    pub fn fire_factor(&self, key: &str) -> Factor {
        factor_in(&self.data.firing_factors, key)
    }

    pub fn combat_factor(&self, key: &str) -> Factor {
        factor_in(&self.data.combat_factors, key)
    }

    pub fn routing_factor(&self, key: &str) -> Factor {
        factor_in(&self.data.routing_factors, key)
    }

    /// The unit's kind as it stands: a dismounted unit is of its dismounted row's kind.
    pub fn kind(&self, u: &Unit) -> TroopKind {
        self.acting_troop(u).kind
    }

    pub fn is_mounted(&self, u: &Unit) -> bool {
        self.kind(u) == TroopKind::Mounted
    }

    pub fn is_artillery(&self, u: &Unit) -> bool {
        self.kind(u) == TroopKind::Artillery
    }

    pub fn is_commander(&self, u: &Unit) -> bool {
        self.kind(u) == TroopKind::Commander
    }

    /// The unit's type has this trait.
    pub fn has_trait(&self, u: &Unit, t: TroopTrait) -> bool {
        self.troop_of(u).traits.contains(&t)
    }

    pub fn is_skirmisher(&self, u: &Unit) -> bool {
        self.troop_of(u).skirmisher
    }

    /// The troop row a unit moves and fires by: its own, or when dismounted the row it takes.
    pub fn acting_troop(&self, u: &Unit) -> &Troop {
        let t = self.troop_of(u);
        if u.formation == Formation::Dismounted
            && let Some(d) = t.dismounted.as_deref().and_then(|c| self.troop(c))
        {
            return d;
        }
        t
    }

    /// Effective range in the ruleset's units, if the unit can fire.
    pub fn range(&self, u: &Unit) -> Option<f32> {
        self.acting_troop(u).range
    }

    /// Long range, if the unit has one.
    pub fn long_range(&self, u: &Unit) -> Option<f32> {
        self.troop_of(u).long_range
    }

    /// The first die of a troop type that throws one (the mitrailleuse).
    pub fn first_die(&self, u: &Unit) -> Option<FirstDie> {
        self.has_trait(u, TroopTrait::FirstDie).then(|| FirstDie {
            fail_max: self.num("first_die_stoppage") as u8,
            long_fail_max: self.num("first_die_long_fail") as u8,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_file_lacking_a_shared_number_is_refused_naming_it() {
        for data in [super::super::db7yw::DATA, super::super::dbfpw::DATA] {
            assert!(Dbn::from_ron(data).is_ok());
            let typo = data.replace("key: \"shaken_hits\"", "key: \"shaken_hitz\"");
            let err = Dbn::from_ron(&typo).unwrap_err();
            assert!(
                err.ends_with(".ron: the rules number 'shaken_hits' is missing"),
                "{err}"
            );
            let twice = data.replace("key: \"shaken_hits\"", "key: \"destroyed_hits\"");
            let err = Dbn::from_ron(&twice).unwrap_err();
            assert!(err.contains("'destroyed_hits' is given twice"), "{err}");
        }
    }
}
