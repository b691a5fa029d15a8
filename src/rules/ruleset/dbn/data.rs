//! The DBN family's data file as the engine reads it: troop types with their kinds and traits,
//! the army lists, the rules numbers and factors, and the lookups every topic asks (a unit's
//! troop row, kind, ranges and first die).

use crate::rules::command::Factor;
use crate::rules::model::{Class, Formation, Unit};
use crate::rules::ruleset::common::{CodeIndex, FactorDef, Keyed, Number, RulesKey};
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

/// How a troop type's first die may fail (the mitrailleuse): the faces that fail always, those
/// that fail only at long range, and the factor a failure costs.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstDie {
    pub fail_max: u8,
    pub long_fail_max: u8,
    pub failed: Factor,
}

/// A divisional sub-commander's numbers (DBFPW's larger battles).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DivisionalRules {
    /// Its intrinsic command points, instead of a die.
    pub caps: i32,
    /// How far it commands its own division, in paces.
    pub command_range: f32,
    /// Attacked in close combat, the faces of its one die on which it flees (else destroyed).
    pub flee_max: u8,
}

/// What fortifying a town or village before the battle costs in army points (DB7YW).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FortifyCosts {
    pub town: f32,
    pub village: f32,
}

/// The shared engine's rules that only some supplements have, each filled by the supplement
/// whose data file gives its numbers (`Supplement::load`); None where the supplement has no
/// such rule. A troop type whose trait needs one of them is refused at load without it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extras {
    /// Paces foot with the `ChargeBonus` trait go further into close combat in good going.
    pub charge_bonus: Option<f32>,
    /// Divisional sub-commanders, for troop types with the `Divisional` trait.
    pub divisional: Option<DivisionalRules>,
    /// What a lost unit with the `IrregularLoss` trait weighs towards the army's break.
    pub irregular_loss_weight: Option<f32>,
    /// What the Fortify command costs; None: the supplement has no fortifying in play.
    pub fortify: Option<FortifyCosts>,
    /// The first die of troop types with the `FirstDie` trait.
    pub first_die: Option<FirstDie>,
    /// Whether all bad going that hides troops (woods, marsh, rough) limits visibility, or
    /// woods alone.
    pub all_bad_going_hides: bool,
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
    pub flag: Option<super::Flag>,
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
    pub flag: Option<super::Flag>,
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

crate::rules_keys! {
    /// The firing factors every DBN-family data file gives, read by the shared engine.
    pub enum SharedFire {
        EnemySupport = "enemy_support",
    }
}

/// The rows of a data list whose keys the shared engine does not read (not keys of `K`): the
/// supplement's own, which it checks against its own keys (`Supplement::load`).
pub fn own_rows<K: RulesKey, T: Clone>(list: &[T], key_of: impl Fn(&T) -> &str) -> Vec<T> {
    list.iter()
        .filter(|x| !K::ALL.iter().any(|k| k.key() == key_of(x)))
        .cloned()
        .collect()
}

/// A supplement's troop type of a code: its enum `T`, made by `rules_keys!` with the codes the
/// data file and scenarios write (`Ms`, `HC`).
pub fn troop_type_of_code<T: RulesKey>(code: &str) -> Option<T> {
    T::ALL.iter().copied().find(|t| t.key() == code)
}

/// A supplement's troop type of a unit. Loading refuses a data file whose troop table is not
/// exactly the codes of `T` (`check_troop_types`), and a scenario naming a code the table
/// lacks, so every unit has one: a missing one is a fault of the program, never read as
/// another troop type.
pub fn troop_type<T: RulesKey>(u: &Unit) -> T {
    troop_type_of_code(&u.troop).unwrap_or_else(|| {
        panic!(
            "unit '{}' has the troop code '{}', which its ruleset lacks",
            u.id, u.troop
        )
    })
}

/// Refuses, naming the file, a troop table that is not exactly the supplement's troop types
/// `T`: a row of a code `T` lacks, a type without a row, or a code given twice.
pub fn check_troop_types<T: RulesKey>(data: &DbnData, text: &str) -> Result<(), String> {
    Keyed::<T, ()>::take(
        &data.troops,
        |t| &t.code,
        |_| (),
        &data.file(),
        text,
        "troop type",
    )
    .map(|_| ())
}

/// Names of the data file (nations, troop codes) read as a supplement's enum `T`, refusing
/// with the file a name `T` lacks.
pub fn typed_names<T: RulesKey>(
    names: &[String],
    file: &str,
    what: &str,
) -> Result<Vec<T>, String> {
    names
        .iter()
        .map(|n| {
            T::ALL
                .iter()
                .copied()
                .find(|t| t.key() == n)
                .ok_or_else(|| format!("{file}: the {what} '{n}' is not one the rules know"))
        })
        .collect()
}

/// A supplement's own rules numbers: the rows of its data file's numbers that the shared
/// engine does not read, by the supplement's keys `K`.
pub fn own_numbers<K: RulesKey>(data: &DbnData, text: &str) -> Result<Keyed<K, f32>, String> {
    Keyed::numbers(
        &own_rows::<N, _>(&data.numbers, |n| &n.key),
        &data.file(),
        text,
    )
}

/// A supplement's own firing factors: those of its data file's firing list that the shared
/// engine does not read, by the supplement's keys `K`.
pub fn own_firing_factors<K: RulesKey>(
    data: &DbnData,
    text: &str,
) -> Result<Keyed<K, Factor>, String> {
    let own = own_rows::<SharedFire, _>(&data.firing_factors, |f| &f.key);
    Keyed::factors(&own, &data.file(), text)
}

/// A supplement's factors of a list of its data file that the shared engine does not read
/// (close combat, routing), by the supplement's keys `K`.
pub fn own_factors<K: RulesKey>(
    list: &[FactorDef],
    data: &DbnData,
    text: &str,
) -> Result<Keyed<K, Factor>, String> {
    Keyed::factors(list, &data.file(), text)
}

/// The DBN-family engine with its data.
#[derive(Clone, Debug)]
pub struct Dbn {
    pub data: DbnData,
    /// The shared rules numbers by key (the supplement's own are its own, by its own keys).
    numbers: Keyed<N, f32>,
    /// The shared firing factors by key.
    fire: Keyed<SharedFire, Factor>,
    /// The rules only some supplements have: none until the supplement fills them
    /// (`DbnGame::load`).
    pub extras: Extras,
    /// Each troop code's first row in `data.troops`.
    index: CodeIndex,
}

impl Dbn {
    /// The shared engine on a data file: its shared numbers and factors each refused when
    /// missing or given twice. The supplement's own rows are checked by the supplement.
    pub fn from_ron(text: &str) -> Result<Self, String> {
        let data: DbnData = ron::from_str(text).map_err(|e| format!("ruleset data: {e}"))?;
        let file = data.file();
        let shared = |list: &[Number]| -> Vec<Number> {
            list.iter()
                .filter(|x| N::ALL.iter().any(|k| k.key() == x.key))
                .cloned()
                .collect()
        };
        let numbers = Keyed::numbers(&shared(&data.numbers), &file, text)?;
        let fire: Vec<FactorDef> = data
            .firing_factors
            .iter()
            .filter(|x| SharedFire::ALL.iter().any(|k| k.key() == x.key))
            .cloned()
            .collect();
        let fire = Keyed::factors(&fire, &file, text)?;
        Ok(Dbn {
            data,
            numbers,
            fire,
            extras: Extras::default(),
            index: CodeIndex::default(),
        })
    }

    /// Refuses, naming the file and the troop type, a troop type whose trait needs rules
    /// numbers that the supplement's data file does not give.
    pub fn check_extras(&self) -> Result<(), String> {
        let x = &self.extras;
        for t in &self.data.troops {
            for tr in &t.traits {
                let lacking = match tr {
                    TroopTrait::ChargeBonus => x.charge_bonus.is_none().then_some("charge_bonus"),
                    TroopTrait::Divisional => x.divisional.is_none().then_some("dsc_caps"),
                    TroopTrait::IrregularLoss => x
                        .irregular_loss_weight
                        .is_none()
                        .then_some("irregular_loss_weight"),
                    TroopTrait::FirstDie => x.first_die.is_none().then_some("first_die_stoppage"),
                    _ => None,
                };
                if let Some(key) = lacking {
                    return Err(format!(
                        "{}: the troop type '{}' has the trait {tr:?}, which needs the rules number '{key}'",
                        self.data.file(),
                        t.code
                    ));
                }
            }
        }
        Ok(())
    }

    /// A shared rules number.
    pub fn n(&self, key: N) -> f32 {
        *self.numbers.get(key)
    }

    /// The firing factor for each enemy unit providing fire support.
    pub fn fire_support(&self) -> Factor {
        self.fire.get(SharedFire::EnemySupport).clone()
    }

    pub fn troop(&self, code: &str) -> Option<&Troop> {
        self.index.find(&self.data.troops, code, |t| &t.code)
    }

    /// The troop row of a unit. A scenario naming a troop code the data file lacks is refused
    /// when it loads, so every unit has one: a missing one is a fault of the program, never
    /// read as another troop type.
    pub fn troop_of(&self, u: &Unit) -> &Troop {
        self.troop(&u.troop).unwrap_or_else(|| {
            panic!(
                "unit '{}' has the troop code '{}', which {} lacks",
                u.id,
                u.troop,
                self.data.file()
            )
        })
    }

    /// The rules of a trait only some supplements have, for a unit of a type with that trait.
    fn trait_rules<T: Clone>(&self, u: &Unit, t: TroopTrait, rules: &Option<T>) -> Option<T> {
        if !self.has_trait(u, t) {
            return None;
        }
        Some(rules.clone().unwrap_or_else(|| {
            panic!(
                "unit '{}' has the trait {t:?} without its rules numbers, which loading refuses",
                u.id
            )
        }))
    }

    /// A divisional sub-commander's numbers, for a unit of a type with the `Divisional` trait.
    pub fn divisional(&self, u: &Unit) -> Option<DivisionalRules> {
        self.trait_rules(u, TroopTrait::Divisional, &self.extras.divisional)
    }

    /// What the unit's loss weighs towards the break, for a type with `IrregularLoss`.
    pub fn irregular_loss(&self, u: &Unit) -> Option<f32> {
        self.trait_rules(
            u,
            TroopTrait::IrregularLoss,
            &self.extras.irregular_loss_weight,
        )
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
        self.trait_rules(u, TroopTrait::FirstDie, &self.extras.first_die)
    }
}

impl DbnData {
    /// The data file, as load errors name it.
    pub fn file(&self) -> String {
        format!("assets/rulesets/{}.ron", self.id)
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

    /// A supplement's own number or factor misspelt, given twice or missing is refused at load
    /// naming the file and key, in each supplement.
    #[test]
    fn a_supplements_own_keys_are_checked_exactly() {
        use super::super::db7yw::Db7yw;
        use super::super::dbfpw::Dbfpw;
        fn refused(
            load: fn(&str) -> Result<(), String>,
            data: &str,
            from: &str,
            to: &str,
        ) -> String {
            let text = data.replacen(from, to, 1);
            assert_ne!(text, data, "{from}");
            load(&text).unwrap_err()
        }
        let seven = |t: &str| Db7yw::from_ron(t).map(|_| ());
        let fpw = |t: &str| Dbfpw::from_ron(t).map(|_| ());
        let (d7, df) = (super::super::db7yw::DATA, super::super::dbfpw::DATA);
        assert!(seven(d7).is_ok() && fpw(df).is_ok());
        let err = refused(seven, d7, "key: \"routing_need\"", "key: \"routing_nede\"");
        assert!(
            err.contains("db7yw.ron:") && err.contains("'routing_nede' is not one the rules read"),
            "{err}"
        );
        let err = refused(
            seven,
            d7,
            "key: \"ms_wheel_max\"",
            "key: \"prussian_ms_wheel_max\"",
        );
        assert!(
            err.contains("db7yw.ron:") && err.contains("'prussian_ms_wheel_max' is given twice"),
            "{err}"
        );
        let err = refused(seven, d7, "key: \"full_contact\"", "key: \"full_contacts\"");
        assert!(
            err.contains("'full_contacts' is not one the rules read"),
            "{err}"
        );
        let err = refused(fpw, df, "key: \"into_cover_ss\"", "key: \"into_cover_sss\"");
        assert!(
            err.contains("dbfpw.ron:")
                && err.contains("'into_cover_sss' is not one the rules read"),
            "{err}"
        );
        let err = refused(
            fpw,
            df,
            "routing_factors: [],",
            "routing_factors: [(key: \"elite\", name: \"Elite\", value: -1, source: \"s\")],",
        );
        assert!(
            err.contains("dbfpw.ron: the routing factor 'elite' is not one the rules read"),
            "{err}"
        );
        // A number only the other supplement gives is unknown to this one.
        let err = refused(seven, d7, "key: \"routing_need\"", "key: \"dsc_caps\"");
        assert!(
            err.contains("'dsc_caps' is not one the rules read"),
            "{err}"
        );
        let missing = d7
            .lines()
            .filter(|l| !l.contains("key: \"adc_cap_bonus\""))
            .collect::<Vec<_>>()
            .join("\n");
        let err = seven(&missing).unwrap_err();
        assert!(
            err.ends_with("db7yw.ron: the rules number 'adc_cap_bonus' is missing"),
            "{err}"
        );
        let missing = df
            .lines()
            .filter(|l| !l.contains("key: \"bavarian_share\""))
            .collect::<Vec<_>>()
            .join("\n");
        let err = fpw(&missing).unwrap_err();
        assert!(
            err.ends_with("dbfpw.ron: the rules number 'bavarian_share' is missing"),
            "{err}"
        );
    }

    /// A troop table, army list or national list naming a troop code or nation the
    /// supplement's types lack is refused at load naming the file and the name.
    #[test]
    fn troop_codes_and_nations_of_the_data_are_the_supplements_types() {
        use super::super::db7yw::Db7yw;
        use super::super::dbfpw::Dbfpw;
        let (d7, df) = (super::super::db7yw::DATA, super::super::dbfpw::DATA);
        let err = Db7yw::from_ron(&d7.replacen("code: \"Jg\"", "code: \"Jgr\"", 1)).unwrap_err();
        assert!(err.contains("db7yw.ron") && err.contains("'Jgr'"), "{err}");
        let err = Dbfpw::from_ron(&df.replacen("code: \"CU\"", "code: \"HA\"", 1)).unwrap_err();
        assert!(
            err.contains("dbfpw.ron") && err.contains("'HA' is given twice"),
            "{err}"
        );
        let err =
            Db7yw::from_ron(&d7.replacen("ga_nations: [\"prussia\"", "ga_nations: [\"prusia\"", 1))
                .unwrap_err();
        assert_eq!(
            err,
            "assets/rulesets/db7yw.ron: the nation 'prusia' is not one the rules know"
        );
        let err = Dbfpw::from_ron(&df.replacen("nations: [\"german\"", "nations: [\"germany\"", 1))
            .unwrap_err();
        assert_eq!(
            err,
            "assets/rulesets/dbfpw.ron: the nation 'germany' is not one the rules know"
        );
        let err = Dbfpw::from_ron(&df.replacen(
            "(troops: [\"FAPr\"], cost",
            "(troops: [\"FAPR\"], cost",
            1,
        ))
        .unwrap_err();
        assert_eq!(
            err,
            "assets/rulesets/dbfpw.ron: the troop type 'FAPR' is not one the rules know"
        );
    }

    /// A troop type whose trait needs numbers only another supplement gives is refused at
    /// load, never played with a 0.
    #[test]
    fn a_trait_without_its_numbers_is_refused() {
        let d7 = super::super::db7yw::DATA;
        let text = d7.replacen(
            "traits: [VillageBadGoing, BackwardHalfSpeed]",
            "traits: [VillageBadGoing, BackwardHalfSpeed, ChargeBonus]",
            1,
        );
        assert_ne!(text, d7);
        let err = super::super::db7yw::Db7yw::from_ron(&text).unwrap_err();
        assert_eq!(
            err,
            "assets/rulesets/db7yw.ron: the troop type 'Ms' has the trait ChargeBonus, which needs the rules number 'charge_bonus'"
        );
    }
}
