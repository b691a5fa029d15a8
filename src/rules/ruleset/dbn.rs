//! The DBN-family engine shared by DB7YW and DBFPW: data tables, the bound, command points,
//! measured moves with going and threat zones, eligibility to fire, line of sight, contact,
//! recoil, flight and pursuit, and the army break.

use super::common::{
    FactorDef, Going, Motion, MovePlan, Number, conform, factor_in, front_contact,
    no_contact_words, number, own_active, require_numbers, step_motion, sweep_to_contact,
};
use super::{ResultRow, Ruling};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, RuleError, Step, factor_sum};
use crate::rules::geometry::{
    Base, CONTACT_EPS, Contact, Edge, Pt, norm_deg, norm_facing, segment_hits_base,
};
use crate::rules::model::{Ammo, Class, Division, Formation, Phase, Side, Unit, UnitId};
use crate::rules::terrain::{Feature, FeatureKind};
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
    pub unit: super::view::Measure,
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

/// Numbers every DBN-family data file must give.
pub const REQUIRED_NUMBERS: &[&str] = &[
    "result_hit",
    "result_double_hits",
    "shaken_hits",
    "destroyed_hits",
    "flee_distance",
    "woods_visibility",
    "artillery_close",
    "limber_cost",
    "unlimber_cost",
    "fa_pivot_cost",
    "fa_pivot_max",
    "break_fraction",
    "baggage_weight",
    "cinc_weight",
    "objective_weight",
    "deploy_distance",
    "move_cost",
    "out_of_range_cost",
    "command_range",
    "arc_half_angle",
    "threat_zone_depth_bw",
    "fire_edge_depth",
    "objective_radius",
    "los_friends_block",
    "los_enemies_block",
    "los_clearance",
];

/// The DBN-family engine with its data.
#[derive(Clone, Debug)]
pub struct Dbn {
    pub data: DbnData,
}

/// What a line of sight is judged by: the higher of the two units' levels, how far one sees
/// into woods and the clearance a line needs past a base (mm).
struct Sight {
    level: u8,
    woods: f32,
    clearance: f32,
}

impl Dbn {
    pub fn from_ron(text: &str) -> Result<Self, String> {
        let data: DbnData = ron::from_str(text).map_err(|e| format!("ruleset data: {e}"))?;
        require_numbers(&data.numbers, REQUIRED_NUMBERS)?;
        Ok(Dbn { data })
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

    // ----- the bound -------------------------------------------------------------------

    /// Phases of a bound in order.
    pub const BOUND: [Phase; 4] = [
        Phase::Command,
        Phase::Movement,
        Phase::Firing,
        Phase::CloseCombat,
    ];

    pub fn first_phase(units: &[Unit]) -> Phase {
        if units.iter().any(|u| u.status.undeployed) {
            Phase::Deployment
        } else {
            Phase::Command
        }
    }

    /// Dice for the command roll: one per commander on the table, at least one.
    /// `extra` are the factors of optional rules in use (a supplement's free ADC).
    pub fn command_roll(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        extra: Vec<Factor>,
    ) -> Result<(), RuleError> {
        let side = b.active;
        let generals = b
            .alive()
            .filter(|u| {
                u.side == side && self.is_commander(u) && !self.has_trait(u, TroopTrait::Divisional)
            })
            .count()
            .max(1);
        let mut dice = Vec::new();
        for _ in 0..generals {
            dice.push(b.d6()?);
        }
        let mut factors = extra;
        // A DSC's intrinsic CAPs are its division's own; one without a division adds them to
        // the side's.
        let mut divisions: Vec<(Division, i32)> = Vec::new();
        let caps = self.num("dsc_caps") as i32;
        for g in b
            .alive()
            .filter(|u| u.side == side && self.has_trait(u, TroopTrait::Divisional))
        {
            match g.division {
                Some(d) => match divisions.iter_mut().find(|p| p.0 == d) {
                    Some(p) => p.1 += caps,
                    None => divisions.push((d, caps)),
                },
                None => factors.push(Factor {
                    name: format!("{}: intrinsic command points", g.name),
                    value: caps,
                    source: "002 Larger Battles: the DSC has an intrinsic 2 CAPs".into(),
                }),
            }
        }
        if b.alive()
            .any(|u| u.side == side && self.has_trait(u, TroopTrait::CommandBonus))
        {
            factors.push(Factor {
                name: "Irregular Cavalry CAP bonus".into(),
                value: self.num("ic_cap_bonus") as i32,
                source: "ruling ic_cap_bonus".into(),
            });
        }
        let total = dice.iter().map(|d| *d as i32).sum::<i32>() + factor_sum(&factors);
        b.emit(
            out,
            Event::CommandRoll {
                side,
                dice,
                factors,
                total,
                divisions,
            },
        );
        Ok(())
    }

    /// Pays command points, or refuses: a division's own points first (a DSC's), then the
    /// side's.
    pub fn spend(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        amount: i32,
        reason: String,
        division: Option<Division>,
    ) -> Result<(), RuleError> {
        let side = b.active;
        let own = division
            .and_then(|d| b.division_points.iter().find(|p| p.0 == d).copied())
            .filter(|p| p.1 > 0);
        let have = b.command_points[side];
        let from_own = own.map_or(0, |p| p.1.min(amount));
        if amount - from_own > have {
            return Err(RuleError::NotEnoughCommandPoints {
                need: amount,
                have: have + from_own,
            });
        }
        if let Some((d, pool)) = own {
            b.emit(
                out,
                Event::CommandPointsSpent {
                    side,
                    amount: from_own,
                    left: pool - from_own,
                    reason: reason.clone(),
                    division: Some(d),
                },
            );
        }
        if amount - from_own > 0 || own.is_none() {
            b.emit(
                out,
                Event::CommandPointsSpent {
                    side,
                    amount: amount - from_own,
                    left: have - (amount - from_own),
                    reason,
                    division: None,
                },
            );
        }
        Ok(())
    }

    /// The division whose own command points pay for moving these units: theirs, when they
    /// all share one.
    pub fn paying_division(b: &Battle, ids: &[UnitId]) -> Option<Division> {
        let mut divs = ids.iter().map(|i| b.unit(i).ok().and_then(|u| u.division));
        let first = divs.next()??;
        divs.all(|d| d == Some(first)).then_some(first)
    }

    /// Cost of moving a unit: the move, plus the out-of-command-range charge.
    pub fn move_cost(&self, b: &Battle, u: &Unit) -> i32 {
        let base = self.num("move_cost") as i32;
        if self.is_commander(u) {
            return base;
        }
        let range = b.scale.to_mm(self.num("command_range"));
        let dsc_range = b.scale.to_mm(self.num("dsc_command_range"));
        let in_range = b.alive().any(|g| {
            g.side == u.side
                && self.is_commander(g)
                && if self.has_trait(g, TroopTrait::Divisional) {
                    g.division.is_some()
                        && g.division == u.division
                        && g.base.within(&u.base, dsc_range)
                } else {
                    g.base.within(&u.base, range)
                }
        });
        if in_range {
            base
        } else {
            base + self.num("out_of_range_cost") as i32
        }
    }

    /// Starts the next bound (or ends the game at the turn limit).
    pub fn next_bound(&self, b: &mut Battle, out: &mut Vec<Event>) {
        let next_side = Battle::enemy(b.active);
        let turn = if next_side == 0 { b.turn + 1 } else { b.turn };
        if turn > b.turn_limit {
            let (winner, reason) = self.turn_limit_result(b);
            b.emit(out, Event::GameOver { winner, reason });
            return;
        }
        b.emit(
            out,
            Event::PhaseBegan {
                turn,
                phase: Phase::Command,
                side: next_side,
            },
        );
    }

    pub(crate) fn turn_limit_result(&self, b: &Battle) -> (Option<Side>, String) {
        let share = |s: Side| self.losses(b, s) / (b.starting_units[s].max(1) as f32);
        let (a, c) = (share(0), share(1));
        if (a - c).abs() < 1e-6 {
            (
                None,
                format!(
                    "turn limit reached with equal losses: {:.0}% each",
                    a * 100.0
                ),
            )
        } else {
            let w = if a < c { 0 } else { 1 };
            (
                Some(w),
                format!(
                    "turn limit reached: {} lost {:.0}% of its army, {} lost {:.0}%",
                    b.sides[0].name,
                    a * 100.0,
                    b.sides[1].name,
                    c * 100.0
                ),
            )
        }
    }

    /// Losses by the army break count: destroyed units weighted, and the objective.
    pub fn losses(&self, b: &Battle, side: Side) -> f32 {
        let mut l = 0.0;
        for u in b
            .units
            .iter()
            .filter(|u| u.side == side && u.status.removed)
        {
            l += if self.has_trait(u, TroopTrait::CommanderInChief) {
                self.num("cinc_weight")
            } else if self.kind(u) == TroopKind::Baggage {
                self.num("baggage_weight")
            } else if self.has_trait(u, TroopTrait::IrregularLoss) {
                self.num("irregular_loss_weight")
            } else {
                1.0
            };
        }
        if let Some(o) = &b.objective
            && o.taken
            && o.owner == side
        {
            l += self.num("objective_weight");
        }
        l
    }

    /// Army break, checked after every command.
    pub fn check_break(&self, b: &mut Battle, out: &mut Vec<Event>) {
        if b.is_over() {
            return;
        }
        for side in 0..b.sides.len().min(2) {
            let of = b.starting_units[side] as f32 * self.num("break_fraction");
            let losses = self.losses(b, side);
            if of > 0.0 && losses >= of {
                b.emit(out, Event::ArmyBroken { side, losses, of });
                let winner = Battle::enemy(side);
                let reason = format!(
                    "{} broke: lost {} against a break point of {}",
                    b.sides[side].name, losses, of
                );
                b.emit(
                    out,
                    Event::GameOver {
                        winner: Some(winner),
                        reason,
                    },
                );
                return;
            }
        }
    }

    /// The attacker takes the objective by standing on it with no defender near.
    pub fn check_objective(&self, b: &mut Battle, out: &mut Vec<Event>, mover: &UnitId) {
        let Some(o) = b.objective.clone() else { return };
        if o.taken {
            return;
        }
        let Ok(u) = b.unit(mover) else { return };
        if u.side == o.owner || !u.base.contains(o.at) || self.is_commander(u) {
            return;
        }
        let r = b.scale.to_mm(self.num("objective_radius"));
        if b.alive()
            .any(|d| d.side == o.owner && d.base.distance_to_point(o.at) <= r)
        {
            return;
        }
        let side = u.side;
        b.emit(
            out,
            Event::ObjectiveTaken {
                side,
                by: mover.clone(),
            },
        );
    }

    // ----- going ---------------------------------------------------------------------

    /// Area and linear features that are bad going for this unit.
    pub fn bad_going_kinds(&self) -> [FeatureKind; 6] {
        [
            FeatureKind::Woods,
            FeatureKind::Marsh,
            FeatureKind::Rough,
            FeatureKind::Town,
            FeatureKind::Village,
            FeatureKind::Stream,
        ]
    }

    /// The bad going a base touches, by name.
    pub fn bad_going_at(&self, b: &Battle, base: &Base) -> Vec<String> {
        Self::bad_going_named(b, base, &self.bad_going_kinds())
    }

    /// The features of these kinds a base touches, and the steep hills, by name.
    fn bad_going_named(b: &Battle, base: &Base, kinds: &[FeatureKind]) -> Vec<String> {
        let mut why: Vec<String> = b
            .terrain
            .touching(base, kinds)
            .map(|f| f.name.clone())
            .collect();
        why.extend(
            b.terrain
                .touching(base, &[FeatureKind::Hill])
                .filter(|f| f.steep)
                .map(|f| f.name.clone()),
        );
        why.sort();
        why.dedup();
        why
    }

    /// The bad going a moving base passes over: a stream or marsh is not bad going where a
    /// bridge or causeway carries the base over it.
    fn bad_going_crossed(&self, b: &Battle, base: &Base) -> Vec<String> {
        let carried = b
            .terrain
            .touching(base, &[FeatureKind::Bridge, FeatureKind::Causeway])
            .next()
            .is_some();
        if !carried {
            return self.bad_going_at(b, base);
        }
        let kinds: Vec<FeatureKind> = self
            .bad_going_kinds()
            .into_iter()
            .filter(|k| !matches!(k, FeatureKind::Stream | FeatureKind::Marsh))
            .collect();
        Self::bad_going_named(b, base, &kinds)
    }

    /// Whether the point is bad going to this unit for firing and combat factors: woods,
    /// marsh, rough ground, a stream or a steep hill; for Muskets also an unfortified village.
    /// Towns are not: only close combat inside one is (see `in_bad_going_for_combat`).
    fn bad_going_point(&self, b: &Battle, u: &Unit, p: Pt) -> bool {
        // A bridge or causeway carries the unit over the stream or marsh beneath it.
        let carried = b
            .terrain
            .at(p, &[FeatureKind::Bridge, FeatureKind::Causeway])
            .next()
            .is_some();
        let kinds: &[FeatureKind] = if carried {
            &[FeatureKind::Woods, FeatureKind::Rough]
        } else {
            &[
                FeatureKind::Woods,
                FeatureKind::Marsh,
                FeatureKind::Rough,
                FeatureKind::Stream,
            ]
        };
        b.terrain.at(p, kinds).next().is_some()
            || b.terrain.at(p, &[FeatureKind::Hill]).any(|f| f.steep)
            || (self.has_trait(u, TroopTrait::VillageBadGoing)
                && b.terrain
                    .at(p, &[FeatureKind::Village])
                    .any(|f| !f.fortified))
    }

    /// True when the unit is in bad going for firing factors and firing out of bad going.
    pub fn in_bad_going(&self, b: &Battle, u: &Unit) -> bool {
        self.bad_going_point(b, u, u.base.centre)
    }

    /// True when the unit fights a close combat in bad going: its own bad going, or inside a
    /// town it does not hold as a garrison of a fortified town.
    pub fn in_bad_going_for_combat(&self, b: &Battle, u: &Unit) -> bool {
        self.in_bad_going(b, u) || (self.in_town(b, u) && !self.is_garrison(b, u))
    }

    /// A garrison: foot inside a town that held it before any enemy foot it is in close combat
    /// with there came in (`intruder_in_town`); where the data's `garrison_fortified_only` is
    /// set, only the defending side's, inside a fortified town.
    pub fn is_garrison(&self, b: &Battle, u: &Unit) -> bool {
        let strict = self.num("garrison_fortified_only") > 0.0;
        if strict {
            b.sides.get(u.side).is_some_and(|s| s.defender)
                && b.terrain
                    .at(u.base.centre, &[FeatureKind::Town])
                    .any(|t| t.fortified)
        } else {
            self.kind(u) == TroopKind::Foot
                && b.terrain
                    .at(u.base.centre, &[FeatureKind::Town])
                    .any(|t| !self.intruder_in_town(b, u, t))
        }
    }

    /// Whether foot `u` inside town `t` came into it after an enemy foot unit inside the same
    /// town that it is now in close combat with: it fights its way into a town another holds.
    /// Who came in last is read from the log: the last event that carried each unit's centre
    /// from outside the town to inside it; one that has stood there since the battle began
    /// came in first. Two placed there from the start both hold it.
    fn intruder_in_town(&self, b: &Battle, u: &Unit, t: &Feature) -> bool {
        let holders: Vec<UnitId> = self
            .contacts(b, u)
            .into_iter()
            .filter_map(|(id, _)| b.unit(&id).ok())
            .filter(|e| self.kind(e) == TroopKind::Foot && t.contains(e.base.centre))
            .map(|e| e.id.clone())
            .collect();
        if holders.is_empty() {
            return false;
        }
        let mine = Self::entered_town(b, &u.id, t);
        mine.is_some()
            && holders
                .iter()
                .any(|e| Self::entered_town(b, e, t).is_none_or(|theirs| Some(theirs) < mine))
    }

    /// The log position of the last event that brought the unit's centre into town `t` from
    /// outside it (a placement counts as coming in); None when it has stood there since the
    /// log began.
    fn entered_town(b: &Battle, id: &UnitId, t: &Feature) -> Option<usize> {
        let n = b.log.len();
        b.log.iter().rev().enumerate().find_map(|(back, e)| {
            let (unit, from, to) = match e {
                Event::Moved { unit, from, to, .. }
                | Event::Recoiled { unit, from, to, .. }
                | Event::Fled { unit, from, to }
                | Event::Pursued { unit, from, to, .. }
                | Event::Reformed { unit, from, to, .. } => (unit, Some(from), to),
                Event::Deployed { unit, to } => (unit, None, to),
                _ => return None,
            };
            (unit == id && t.contains(to.centre) && !from.is_some_and(|f| t.contains(f.centre)))
                .then_some(n - 1 - back)
        })
    }

    /// In a town, a village or a fortification (DBFPW's "BUA/NLF or fortification").
    pub fn in_built_up_or_works(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain
            .at(
                u.base.centre,
                &[
                    FeatureKind::Town,
                    FeatureKind::Village,
                    FeatureKind::Fortification,
                ],
            )
            .next()
            .is_some()
    }

    /// In a fortification or fortified town or village.
    pub fn in_fortification(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain.fortified_at(u.base.centre)
    }

    /// On a hill (raised ground, for long-range fire).
    pub fn on_raised_ground(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain
            .at(u.base.centre, &[FeatureKind::Hill])
            .next()
            .is_some()
    }

    /// In the open: in no bad going, town, village or fortification.
    pub fn in_open(&self, b: &Battle, u: &Unit) -> bool {
        self.bad_going_at(b, &u.base).is_empty()
            && b.terrain
                .touching(&u.base, &[FeatureKind::Fortification])
                .next()
                .is_none()
    }

    /// In a town, fortification or fortified village (cover, and -2 for firing into it).
    pub fn in_cover(&self, b: &Battle, u: &Unit) -> bool {
        let c = u.base.centre;
        b.terrain
            .at(c, &[FeatureKind::Town, FeatureKind::Fortification])
            .next()
            .is_some()
            || b.terrain
                .at(c, &[FeatureKind::Village])
                .any(|f| f.fortified)
    }

    /// Occupying a village (NLF) or a fortification.
    /// Occupying a village (NLF) or fortification: anyone in a fortification or fortified
    /// village; in an unfortified village only Irregular Infantry, Jagers and Guerrillas occupy
    /// it (others merely stand in it).
    pub fn in_nlf_or_fort(&self, b: &Battle, u: &Unit) -> bool {
        let c = u.base.centre;
        b.terrain
            .at(c, &[FeatureKind::Fortification])
            .next()
            .is_some()
            || b.terrain
                .at(c, &[FeatureKind::Village])
                .any(|f| f.fortified || self.is_skirmisher(u))
    }

    /// In good going for the close combat results' "in GG": in no bad going for close combat
    /// and inside no town or village. A garrison or occupier is spared the bad going of its
    /// town or village, but the ground it holds is not good going either.
    pub fn in_good_going_for_results(&self, b: &Battle, u: &Unit) -> bool {
        !self.in_bad_going_for_combat(b, u)
            && b.terrain
                .at(u.base.centre, &[FeatureKind::Town, FeatureKind::Village])
                .next()
                .is_none()
    }

    /// Attacked first in flank or rear: an enemy whose front stands against the unit's flank
    /// or rear edge came there by its own move into contact (a charge, or a pursuit, in either
    /// side's bound), and the unit has fought no close combat in an earlier phase since. The
    /// penalty holds for every combat the unit fights in the first close combat phase after
    /// the attack, whoever's bound it is.
    pub fn attacked_first_in_flank(b: &Battle, u: &Unit) -> bool {
        b.alive()
            .filter(|x| x.side != u.side)
            .filter(|x| {
                u.base
                    .touched_by(&x.base)
                    .is_some_and(|c| c.edge != Edge::Front && c.own_edge == Edge::Front)
            })
            .any(|x| Self::flank_attack_fresh(b, &x.id, &u.id))
    }

    /// Whether `x`, against `u`'s flank or rear, came there by its own move into contact since
    /// either last stood elsewhere, with no close combat of `u` in an earlier phase since.
    fn flank_attack_fresh(b: &Battle, x: &UnitId, u: &UnitId) -> bool {
        let mut this_phase = true;
        for e in b.log.iter().rev() {
            match e {
                Event::PhaseBegan { .. } => this_phase = false,
                Event::CloseCombat {
                    attacker, defender, ..
                } if !this_phase && (attacker == u || defender == u) => return false,
                Event::Moved { unit, contact, .. } if unit == x => return contact.is_some(),
                Event::Pursued { unit, .. } if unit == x => return true,
                Event::Moved { unit, .. }
                | Event::Pursued { unit, .. }
                | Event::Recoiled { unit, .. }
                | Event::Fled { unit, .. }
                | Event::Reformed { unit, .. }
                | Event::Deployed { unit, .. }
                    if unit == x || unit == u =>
                {
                    return false;
                }
                _ => {}
            }
        }
        false
    }

    pub fn in_town(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain
            .at(u.base.centre, &[FeatureKind::Town])
            .next()
            .is_some()
    }

    // ----- movement ------------------------------------------------------------------

    fn motion(&self, b: &Battle, frame: &Base, step: &Step) -> Result<Motion, RuleError> {
        step_motion(b, frame, step)
    }

    /// The contact a move ends in: the lead's front edge against the charged enemy, or any
    /// enemy edge a member's front touches; with the conformed base where there is room.
    fn end_contact(
        &self,
        b: &Battle,
        units: &[Unit],
        bases: &[Base],
        charge_target: Option<&UnitId>,
    ) -> Result<Option<(UnitId, Base, Contact)>, RuleError> {
        let lead = &units[0];
        let mut contact = None;
        if let Some(tid) = charge_target {
            let target = b.unit(tid)?;
            let c = front_contact(&bases[0], &target.base, self.num("square_up_max")).ok_or_else(
                || {
                    RuleError::Illegal(format!(
                        "{} does not reach the front edge contact with {}",
                        lead.name, target.name
                    ))
                },
            )?;
            let conformed = conform(&bases[0], &target.base, c);
            let conformed_ok = b
                .alive()
                .all(|o| o.id == lead.id || o.id == target.id || !conformed.overlaps(&o.base))
                && b.table.holds(&conformed);
            contact = Some((
                tid.clone(),
                if conformed_ok { conformed } else { bases[0] },
                c,
            ));
        } else {
            for (i, base) in bases.iter().enumerate() {
                if let Some(e) = b.alive().find(|e| {
                    e.side != units[i].side
                        && e.base
                            .touched_by(base)
                            .is_some_and(|c| c.own_edge == Edge::Front)
                }) {
                    let c = e.base.touched_by(base).unwrap_or(Contact {
                        edge: Edge::Front,
                        own_edge: Edge::Front,
                        overlap: 0.0,
                    });
                    let conformed = conform(base, &e.base, c);
                    let conformed_ok = b.alive().all(|o| {
                        o.id == units[i].id || o.id == e.id || !conformed.overlaps(&o.base)
                    }) && b.table.holds(&conformed);
                    if i == 0 {
                        contact = Some((
                            e.id.clone(),
                            if conformed_ok { conformed } else { *base },
                            c,
                        ));
                    }
                }
            }
        }
        Ok(contact)
    }

    /// The enemy each unit of a move meets with its own front edge where the move ends (`ends`,
    /// conformed): the lead's is the move's contact; each other member of a group has its own.
    pub fn member_contacts(
        &self,
        b: &Battle,
        ends: &[(UnitId, Base)],
        lead: Option<&(UnitId, Base, Contact)>,
    ) -> Vec<Option<(UnitId, Contact)>> {
        ends.iter()
            .enumerate()
            .map(|(i, (id, end))| {
                if i == 0 {
                    return lead.map(|(t, _, c)| (t.clone(), *c));
                }
                let side = b.unit(id).ok()?.side;
                b.alive()
                    .filter(|e| e.side != side)
                    .filter_map(|e| {
                        e.base
                            .touched_by(end)
                            .filter(|c| c.own_edge == Edge::Front)
                            .map(|c| (e.id.clone(), c))
                    })
                    .max_by(|x, y| x.1.overlap.total_cmp(&y.1.overlap))
            })
            .collect()
    }

    /// The threat zone of `e`: one base width (by the data) ahead of its front edge, cut short
    /// across each stretch of its front where one of its own side stands in it (a unit behind
    /// a friend threatens nothing through that friend). Returns the zone as strips.
    pub(crate) fn threat_zone_of(&self, b: &Battle, e: &Unit) -> Vec<Base> {
        let depth = e.base.width * self.num("threat_zone_depth_bw");
        let full = e.base.threat_zone(depth);
        let screens: Vec<&Unit> = b
            .alive()
            .filter(|f| f.side == e.side && f.id != e.id && full.overlaps(&f.base))
            .collect();
        if screens.is_empty() {
            return vec![full];
        }
        const STRIPS: usize = 8;
        const STEPS: usize = 16;
        let w = e.base.width / STRIPS as f32;
        let front = e.base.depth / 2.0;
        let strip = |k: usize, from: f32, to: f32| Base {
            centre: e.base.local(
                -e.base.width / 2.0 + (k as f32 + 0.5) * w,
                front + (from + to) / 2.0,
            ),
            facing: e.base.facing,
            width: w,
            depth: to - from,
        };
        (0..STRIPS)
            .filter_map(|k| {
                let step = depth / STEPS as f32;
                let cut = (0..STEPS)
                    .find(|j| {
                        let piece = strip(k, *j as f32 * step, (*j + 1) as f32 * step);
                        screens.iter().any(|f| piece.overlaps(&f.base))
                    })
                    .map_or(depth, |j| j as f32 * step);
                (cut > 0.5).then(|| strip(k, 0.0, cut))
            })
            .collect()
    }

    /// Threat zones of enemies not in close combat: a move may not enter one, but to advance
    /// straight towards the unit, to contact it, or (from inside) to go directly away. Each
    /// unit of a group is judged by its own contact (`contacts`, by the group's order).
    fn check_threat_zones(
        &self,
        b: &Battle,
        units: &[Unit],
        steps: &[Step],
        samples: &[Vec<Base>],
        contacts: &[Option<UnitId>],
    ) -> Result<(), RuleError> {
        for e in b.alive().filter(|e| e.side != units[0].side) {
            if self.in_close_combat(b, e)
                || matches!(self.kind(e), TroopKind::Commander | TroopKind::Baggage)
            {
                continue;
            }
            let tz = self.threat_zone_of(b, e);
            let inside = |x: &Base| tz.iter().any(|z| z.overlaps(x));
            for (i, s) in samples.iter().enumerate() {
                let started_in = inside(&s[0]);
                let entered = s.iter().any(inside);
                let contacts_it = contacts.get(i).is_some_and(|c| c.as_ref() == Some(&e.id));
                if !entered || contacts_it {
                    continue;
                }
                // A straight advance directly towards the unit exerting the zone, with that unit
                // across its path, is allowed to stop short of contact (DB7YW Muskets fire and
                // charge at 100 paces, inside a one-base-width zone); passing it obliquely is not.
                let towards = matches!(steps, [Step::Advance(_)])
                    && sweep_to_contact(&s[0], &e.base, self.num("square_up_max")).is_some();
                if towards {
                    continue;
                }
                if started_in {
                    let away = steps.iter().all(|st| matches!(st, Step::Backstep(_))) || {
                        let d0 = s[0].distance(&e.base);
                        s.windows(2)
                            .all(|w| w[1].distance(&e.base) >= w[0].distance(&e.base) - 0.01)
                            && s.last().is_some_and(|l| l.distance(&e.base) > d0)
                    };
                    if !away {
                        return Err(RuleError::Illegal(format!(
                            "{} is in the threat zone of {}: it may only advance towards it, move into contact or move directly away",
                            units[i].name, e.name
                        )));
                    }
                } else {
                    return Err(RuleError::Illegal(format!(
                        "{} enters the threat zone of {}",
                        units[i].name, e.name
                    )));
                }
            }
        }
        Ok(())
    }

    /// The going over every sampled position of a move; refused off the table or across a
    /// river but by a bridge.
    fn going_of(
        &self,
        b: &Battle,
        units: &[Unit],
        samples: &[Vec<Base>],
    ) -> Result<Going, RuleError> {
        let mut why = Vec::new();
        let mut road = true;
        for (i, s) in samples.iter().enumerate() {
            for base in s {
                why.extend(self.bad_going_crossed(b, base));
                if !b.terrain.on_road(base.centre) {
                    road = false;
                }
                if !b.table.holds(base) {
                    return Err(RuleError::Illegal(format!(
                        "{} would leave the table",
                        units[i].name
                    )));
                }
                for river in b.terrain.touching(base, &[FeatureKind::River]) {
                    if !b.terrain.on_bridge(base) {
                        return Err(RuleError::Illegal(format!(
                            "{} cannot cross {} except by a bridge",
                            units[i].name, river.name
                        )));
                    }
                }
            }
        }
        why.sort();
        why.dedup();
        // A move wholly along a road, bridge or causeway goes at the road rate through
        // whatever the road crosses (ruling going).
        if road {
            why.clear();
        }
        let going = Going {
            bad: !why.is_empty(),
            road,
            why,
        };
        Ok(going)
    }

    /// Why a move's allowance is what it is, in a player's words: the going, and where the
    /// move meets the bad going that set it ("bad going: the move ends in Reichenau, a
    /// village").
    fn allowance_words(&self, b: &Battle, going: &Going, ends: &[Base], bonus: bool) -> String {
        let kind = |name: &str| {
            b.terrain
                .features
                .iter()
                .find(|f| f.name == name)
                .map_or("", |f| match f.kind {
                    FeatureKind::Woods => ", a wood",
                    FeatureKind::Hill => ", a steep hill",
                    FeatureKind::Town => ", a town",
                    FeatureKind::Village => ", a village",
                    FeatureKind::Marsh => ", a marsh",
                    FeatureKind::Rough => ", rough ground",
                    FeatureKind::Fortification => ", a fortification",
                    FeatureKind::River => ", a river",
                    FeatureKind::Stream => ", a stream",
                    FeatureKind::Road | FeatureKind::Bridge | FeatureKind::Causeway => "",
                })
        };
        let mut words = if going.bad {
            let at_end: Vec<String> = ends
                .iter()
                .flat_map(|e| self.bad_going_crossed(b, e))
                .collect();
            let (ending, crossed): (Vec<&String>, Vec<&String>) =
                going.why.iter().partition(|n| at_end.contains(n));
            let mut parts = Vec::new();
            if !ending.is_empty() {
                let names: Vec<String> = ending.iter().map(|n| format!("{n}{}", kind(n))).collect();
                parts.push(format!("the move ends in {}", names.join(" and ")));
            }
            if !crossed.is_empty() {
                let names: Vec<String> =
                    crossed.iter().map(|n| format!("{n}{}", kind(n))).collect();
                parts.push(format!("it passes through {}", names.join(" and ")));
            }
            format!("the bad going rate: {}", parts.join("; "))
        } else if going.road {
            "the road rate: the whole move is along a road".to_string()
        } else {
            "the good going rate".to_string()
        };
        if bonus {
            words += ", with the charge bonus";
        }
        words
    }

    /// The allowance of a group in this going: its slowest member's.
    fn allowance_of(&self, units: &[Unit], going: &Going) -> Result<f32, RuleError> {
        let mut allowance = f32::INFINITY;
        for u in units {
            let t = self.acting_troop(u);
            let rate = if going.bad {
                t.bg
            } else if going.road {
                t.road
            } else {
                t.gg
            };
            let Some(rate) = rate else {
                return Err(RuleError::Illegal(format!(
                    "{} cannot enter {}",
                    t.name,
                    going.describe()
                )));
            };
            allowance = allowance.min(rate);
        }
        if allowance <= 0.0 {
            return Err(RuleError::Illegal(format!("{} cannot move", units[0].name)));
        }
        Ok(allowance)
    }

    /// Computes a move of one unit or a group: final bases, distance by the furthest corner,
    /// going and allowance, collisions, table edge, rivers, threat zones and contact.
    /// Nothing changes: the caller applies the plan.
    /// `measured` is false for moves whose distance the rules do not measure (a Musket wheel or
    /// about face made instead of moving).
    pub fn plan_move(
        &self,
        b: &Battle,
        ids: &[UnitId],
        steps: &[Step],
        charge_target: Option<&UnitId>,
        measured: bool,
    ) -> Result<MovePlan, RuleError> {
        if ids.is_empty() {
            return Err(RuleError::Illegal(
                "a group move needs at least one unit".into(),
            ));
        }
        if steps.is_empty() && charge_target.is_none() {
            return Err(RuleError::Illegal("a move needs at least one step".into()));
        }
        if steps.len() > 16 {
            return Err(RuleError::Illegal("a move has at most 16 steps".into()));
        }
        let mut units: Vec<Unit> = Vec::new();
        for id in ids {
            let u = b.unit(id)?.clone();
            if units.iter().any(|x| x.id == u.id) {
                return Err(RuleError::Illegal(format!(
                    "{} is named twice in the group",
                    u.name
                )));
            }
            units.push(u);
        }
        let lead = units[0].clone();
        if units
            .iter()
            .any(|u| norm_deg(u.base.facing - lead.base.facing).abs() > 1.0)
        {
            return Err(RuleError::Illegal(
                "a group must all face the same way".into(),
            ));
        }
        let mut frame = group_frame(&units);
        let mut bases: Vec<Base> = units.iter().map(|u| u.base).collect();
        let mut travel = vec![[0f32; 4]; units.len()];
        let mut samples: Vec<Vec<Base>> = bases.iter().map(|x| vec![*x]).collect();
        let mut half_speed = 0.0f32;
        let slow_back = units
            .iter()
            .any(|u| self.has_trait(u, TroopTrait::BackwardHalfSpeed));
        for step in steps {
            let m = self.motion(b, &frame, step)?;
            let n = (m.deg.abs() / 5.0)
                .max(m.shift.len() / 4.0)
                .ceil()
                .clamp(1.0, 400.0) as usize;
            for (i, base) in bases.iter_mut().enumerate() {
                for (k, c) in base.corners().iter().enumerate() {
                    travel[i][k] += m.travel(*c, base.centre);
                }
                for j in 1..=n {
                    samples[i].push(m.apply(base, j as f32 / n as f32));
                }
                *base = m.apply(base, 1.0);
            }
            if let Step::Backstep(d) = step
                && slow_back
            {
                half_speed += d;
            }
            frame = m.apply(&frame, 1.0);
        }
        // Moving into contact: straight ahead until the front edge meets the target.
        if let Some(tid) = charge_target {
            let target = b.unit(tid)?;
            if target.side == lead.side {
                return Err(RuleError::Illegal(format!("{} is a friend", target.name)));
            }
            if !target.alive() {
                return Err(RuleError::Illegal(format!(
                    "{} is no longer on the table",
                    target.name
                )));
            }
            let start = bases[0];
            let max_off = self.num("square_up_max");
            let dist = sweep_to_contact(&start, &target.base, max_off).ok_or_else(|| {
                RuleError::Illegal(no_contact_words(
                    &start,
                    &target.base,
                    &lead.name,
                    &target.name,
                    max_off,
                ))
            })?;
            let shift = start.forward().scale(dist);
            let n = (dist / 4.0).ceil().clamp(1.0, 400.0) as usize;
            for (i, base) in bases.iter_mut().enumerate() {
                for t in travel[i].iter_mut() {
                    *t += dist;
                }
                for j in 1..=n {
                    samples[i].push(Base {
                        centre: base.centre.plus(shift.scale(j as f32 / n as f32)),
                        ..*base
                    });
                }
                base.centre = base.centre.plus(shift);
            }
        }
        let distance_mm = travel
            .iter()
            .flat_map(|t| t.iter())
            .fold(0f32, |a, x| a.max(*x))
            + b.scale.to_mm(half_speed);
        let distance = b.scale.from_mm(distance_mm);

        let going = self.going_of(b, &units, &samples)?;
        let mut allowance = self.allowance_of(&units, &going)?;
        // Foot in line moving into close combat in good going may go the data's charge bonus
        // further (not in attack column, nor dismounted).
        let bonus = self.num("charge_bonus");
        let mut bonus_taken = false;
        if charge_target.is_some()
            && bonus > 0.0
            && !going.bad
            && !going.road
            && units.iter().all(|u| {
                self.has_trait(u, TroopTrait::ChargeBonus) && u.formation == Formation::Line
            })
            && distance > allowance + 0.5
        {
            allowance += bonus;
            bonus_taken = true;
        }
        if measured && distance > allowance + 0.5 {
            return Err(RuleError::TooFar {
                unit: lead.id.clone(),
                name: lead.name.clone(),
                distance,
                allowance,
                units: b.scale.unit.to_string(),
                why: self.allowance_words(b, &going, &bases, bonus_taken),
            });
        }

        // Collisions with every other unit along the way: friends that may be passed through
        // (skirmishers, commanders) only where the move ends.
        for (i, s) in samples.iter().enumerate() {
            for other in b.alive() {
                if ids.contains(&other.id) {
                    continue;
                }
                let passable =
                    other.side == units[i].side && self.may_pass_through(&units[i], other);
                let hit = if passable {
                    s.last().is_some_and(|base| base.overlaps(&other.base))
                } else {
                    s.iter().skip(1).any(|base| base.overlaps(&other.base))
                };
                if hit {
                    let verb = if passable {
                        "would end on"
                    } else {
                        "would pass through"
                    };
                    return Err(RuleError::Illegal(format!(
                        "{} {verb} {}",
                        units[i].name, other.name
                    )));
                }
            }
        }

        let contact = self.end_contact(b, &units, &bases, charge_target)?;
        let starts = units.iter().map(|u| (u.id.clone(), u.base)).collect();
        let mut ends: Vec<(UnitId, Base)> = units.iter().map(|u| u.id.clone()).zip(bases).collect();
        if let Some((target, conformed, _)) = &contact {
            conform_group(b, &mut ends, ids, target, conformed);
        }
        // Each unit of a group is checked against the enemy its own front meets.
        let own: Vec<Option<UnitId>> = self
            .member_contacts(b, &ends, contact.as_ref())
            .into_iter()
            .map(|c| c.map(|(t, _)| t))
            .collect();
        self.check_threat_zones(b, &units, steps, &samples, &own)?;
        let cost = units
            .iter()
            .map(|u| self.move_cost(b, u))
            .max()
            .unwrap_or(1);
        Ok(MovePlan {
            ends,
            starts,
            distance,
            allowance,
            going,
            contact,
            cost,
            manoeuvre: None,
        })
    }

    // ----- contact and close combat -------------------------------------------------

    /// Enemies in edge contact with this unit (either edge touching, by front).
    pub fn contacts(&self, b: &Battle, u: &Unit) -> Vec<(UnitId, Contact)> {
        b.alive()
            .filter(|e| e.side != u.side)
            .filter_map(|e| {
                let theirs = u
                    .base
                    .touched_by(&e.base)
                    .filter(|c| c.own_edge == Edge::Front);
                let ours = e
                    .base
                    .touched_by(&u.base)
                    .filter(|c| c.own_edge == Edge::Front);
                theirs.or(ours).map(|_| {
                    (
                        e.id.clone(),
                        u.base.touched_by(&e.base).unwrap_or(Contact {
                            edge: Edge::Front,
                            own_edge: Edge::Front,
                            overlap: 0.0,
                        }),
                    )
                })
            })
            .collect()
    }

    pub fn in_close_combat(&self, b: &Battle, u: &Unit) -> bool {
        !self.contacts(b, u).is_empty()
    }

    /// Combats the moving side has to fight: (own unit, enemy) pairs with a front edge in
    /// contact, combats to an enemy's front before those against its flank or rear.
    pub fn pending_combats(&self, b: &Battle) -> Vec<(UnitId, UnitId)> {
        let mut out = Vec::new();
        for u in b.alive().filter(|u| u.side == b.active && !u.bound.fought) {
            for (e, _) in self.contacts(b, u) {
                if b.unit(&e).is_ok_and(|e| !e.bound.fought) {
                    out.push((u.id.clone(), e));
                }
            }
        }
        out.sort_by_key(|(a, e)| {
            // Flank and rear attacks sort after front combats.
            b.unit(e)
                .ok()
                .zip(b.unit(a).ok())
                .and_then(|(e, a)| e.base.touched_by(&a.base))
                .is_some_and(|c| c.edge != Edge::Front)
        });
        out
    }

    /// Friends giving close combat support to `u` against `enemy`.
    pub fn combat_supporters(&self, b: &Battle, u: &Unit, enemy: &Unit) -> Vec<UnitId> {
        b.alive()
            // Foot supports foot and mounted supports mounted; guns, commanders and baggage
            // give no close combat support.
            .filter(|f| {
                f.side == u.side
                    && f.id != u.id
                    && self.kind(f) == self.kind(u)
                    && matches!(self.kind(f), TroopKind::Foot | TroopKind::Mounted)
            })
            .filter(|f| norm_deg(f.base.facing - u.base.facing).abs() < 1.0)
            .filter(|f| {
                u.base
                    .touched_by(&f.base)
                    .is_some_and(|c| c.edge != Edge::Front)
            })
            .filter(|f| self.contacts(b, f).iter().all(|(e, _)| e == &enemy.id))
            .map(|f| f.id.clone())
            .collect()
    }

    /// A commander in full edge contact with the unit's rear or flank.
    pub fn general_attached(&self, b: &Battle, u: &Unit) -> Option<UnitId> {
        b.alive()
            .filter(|g| g.side == u.side && self.is_commander(g) && g.id != u.id)
            // A divisional commander supports only its own troops.
            .filter(|g| {
                !self.has_trait(g, TroopTrait::Divisional)
                    || (g.division.is_some() && g.division == u.division)
            })
            .find(|g| {
                u.base.touched_by(&g.base).is_some_and(|c| {
                    c.edge != Edge::Front
                        && c.overlap
                            >= edge_len(&u.base, c.edge).min(edge_len(&g.base, c.own_edge))
                                - 2.0 * CONTACT_EPS
                })
            })
            .map(|g| g.id.clone())
    }

    // ----- firing --------------------------------------------------------------------

    /// Why `shooter` cannot fire at `target`, or Ok with the range in ruleset units.
    pub fn fire_check(
        &self,
        b: &Battle,
        shooter: &Unit,
        target: &Unit,
        for_support: bool,
    ) -> Result<f32, String> {
        let t = self.troop_of(shooter);
        let Some(range) = self.range(shooter) else {
            return Err(format!("{} cannot fire", t.name));
        };
        if !shooter.alive() || !target.alive() {
            return Err("not on the table".into());
        }
        if shooter.side == target.side {
            return Err(format!("{} is a friend", target.name));
        }
        if !for_support && shooter.bound.fired {
            return Err(format!("{} has already fired", shooter.name));
        }
        if shooter.status.ammo == Ammo::Out {
            return Err(format!("{} is out of ammunition", shooter.name));
        }
        if self.has_trait(target, TroopTrait::Divisional) {
            return Err(format!(
                "{} is a divisional commander: attacked only in close combat",
                target.name
            ));
        }
        if self.is_artillery(shooter) && shooter.status.limbered {
            return Err(format!("{} is limbered", shooter.name));
        }
        if self.is_artillery(shooter) && !self.has_trait(shooter, TroopTrait::MoveAndFire) {
            let ga_like = self.has_trait(shooter, TroopTrait::QuickLimber);
            if shooter.bound.limber_changed && !ga_like {
                return Err(format!(
                    "{} limbered or unlimbered this bound",
                    shooter.name
                ));
            }
            if shooter.bound.moved {
                return Err(format!(
                    "{} moved this bound: artillery may move or fire",
                    shooter.name
                ));
            }
        }
        if self.in_close_combat(b, shooter) {
            return Err(format!("{} is in close combat", shooter.name));
        }
        if self.in_close_combat(b, target) {
            return Err(format!("{} is in close combat", target.name));
        }
        if !self.on_bg_edge(b, shooter) {
            return Err(format!(
                "{} is inside bad going, not on its edge",
                shooter.name
            ));
        }
        if !shooter
            .base
            .in_arc(&target.base, self.num("arc_half_angle"))
        {
            return Err(format!("{} is out of arc", target.name));
        }
        let dist = b
            .scale
            .from_mm(shooter.base.front_edge_distance(&target.base));
        let mut limit = range;
        // Long range: from raised ground, stationary, at a target in the open.
        if let Some(long) = self.long_range(shooter)
            && dist > range + 0.5
        {
            let why = if !self.on_raised_ground(b, shooter) {
                Some("not on raised ground")
            } else if shooter.bound.moved {
                Some("it moved this bound")
            } else if !self.in_open(b, target) {
                Some("the target is not in the open")
            } else {
                None
            };
            match why {
                None => limit = long,
                Some(w) if dist <= long + 0.5 => {
                    return Err(format!(
                        "{} is beyond effective range ({:.0} of {range:.0} {}) and long range needs raised ground, a stationary firer and a target in the open: {w}",
                        target.name, dist, b.scale.unit
                    ));
                }
                Some(_) => {}
            }
        }
        // "The maximum visibility for Firing into and within" the ground is limited: a target
        // in it. A firer in it fires out from its edge (`on_bg_edge`) at the full range; firing
        // within it, the target is in it too. With `visibility_all_bad_going` the ground is
        // all bad going that hides troops (woods, marsh, rough), otherwise woods alone.
        let all_bg = self.num("visibility_all_bad_going") > 0.0;
        let blinding: Vec<FeatureKind> = if all_bg {
            vec![FeatureKind::Woods, FeatureKind::Marsh, FeatureKind::Rough]
        } else {
            vec![FeatureKind::Woods]
        };
        if b.terrain.touching(&target.base, &blinding).next().is_some() {
            limit = limit.min(self.num("woods_visibility"));
        }
        if dist > limit + 0.5 {
            return Err(format!(
                "{} is out of range: {:.0} {} of {:.0}",
                target.name, dist, b.scale.unit, limit
            ));
        }
        self.line_of_sight(b, shooter, target)?;
        Ok(dist)
    }

    /// A unit in bad going fires only from its edge.
    fn on_bg_edge(&self, b: &Battle, u: &Unit) -> bool {
        if !self.in_bad_going(b, u) {
            return true;
        }
        let probe = u.base.depth * self.num("fire_edge_depth");
        u.base.edge_points(Edge::Front, 3).iter().any(|p| {
            let q = p.plus(u.base.forward().scale(probe));
            !self.bad_going_point(b, u, q)
        })
    }

    /// Line of sight by lines from the shooter's front edge to the target's nearest edge.
    /// Err names what blocks.
    pub fn line_of_sight(&self, b: &Battle, from: &Unit, to: &Unit) -> Result<(), String> {
        let src = from.base.edge_points(Edge::Front, 3);
        let dst = to
            .base
            .edge_points(to.base.edge_facing(from.base.centre), 3);
        let s_level = b.terrain.level_at(from.base.centre);
        let t_level = b.terrain.level_at(to.base.centre);
        let sight = Sight {
            level: s_level.max(t_level),
            woods: b.scale.to_mm(self.num("woods_visibility")),
            clearance: b.scale.to_mm(self.num("los_clearance")),
        };
        // What can stand on any of the lines: the units (of the sides the options say block)
        // and features that reach the box around both edges; each line tries only these.
        let ends: Vec<Pt> = src.iter().chain(dst.iter()).copied().collect();
        let lo = ends.iter().fold(Pt::new(f32::MAX, f32::MAX), |m, p| {
            Pt::new(m.x.min(p.x), m.y.min(p.y))
        });
        let hi = ends.iter().fold(Pt::new(f32::MIN, f32::MIN), |m, p| {
            Pt::new(m.x.max(p.x), m.y.max(p.y))
        });
        let friends_block = self.num("los_friends_block") > 0.0;
        let enemies_block = self.num("los_enemies_block") > 0.0;
        // A base grown by the clearance on every side reaches past its own box by at most
        // the clearance times the square root of two.
        let margin = sight.clearance * std::f32::consts::SQRT_2 + CONTACT_EPS;
        let units: Vec<&Unit> = b
            .units_near(
                Pt::new(lo.x - margin, lo.y - margin),
                Pt::new(hi.x + margin, hi.y + margin),
            )
            .into_iter()
            .filter(|u| u.alive() && u.id != from.id && u.id != to.id)
            .filter(|u| {
                if u.side == from.side {
                    friends_block
                } else {
                    enemies_block
                }
            })
            .collect();
        let features: Vec<&Feature> = b
            .terrain
            .features
            .iter()
            .filter(|f| {
                matches!(
                    f.kind,
                    FeatureKind::Town
                        | FeatureKind::Village
                        | FeatureKind::Hill
                        | FeatureKind::Woods
                ) && f.may_cross(lo, hi)
            })
            .collect();
        let mut first_block = String::new();
        for a in &src {
            for c in &dst {
                match self.line_blocker(from, to, (*a, *c), &units, &features, &sight) {
                    None => return Ok(()),
                    Some(w) if first_block.is_empty() => first_block = w,
                    Some(_) => {}
                }
            }
        }
        Err(format!(
            "no line of sight to {}: blocked by {}",
            to.name, first_block
        ))
    }

    /// What blocks the line from `a` to `c`, among the units and features that may.
    fn line_blocker(
        &self,
        from: &Unit,
        to: &Unit,
        (a, c): (Pt, Pt),
        units: &[&Unit],
        features: &[&Feature],
        sight: &Sight,
    ) -> Option<String> {
        // Trim the ends so that units touching the firer or target at a corner do not block
        // lines that start there; a line grazing a base's edge is blocked.
        let len = a.dist(c);
        let trim = CONTACT_EPS.min(len / 4.0);
        let (ta, tc) = if len > 0.0 {
            (a.lerp(c, trim / len), c.lerp(a, trim / len))
        } else {
            (a, c)
        };
        let clearance = sight.clearance;
        for u in units {
            // Cheap rejection first: the line passes outside the base's circumscribed circle.
            let radius = u.base.radius() + clearance + CONTACT_EPS;
            if crate::rules::geometry::point_segment_distance(u.base.centre, ta, tc) > radius {
                continue;
            }
            let hit = if clearance > 0.0 {
                let grown = Base {
                    width: u.base.width + 2.0 * clearance,
                    depth: u.base.depth + 2.0 * clearance,
                    ..u.base
                };
                segment_hits_base(ta, tc, &grown)
            } else {
                segment_hits_base(ta, tc, &u.base)
            };
            if hit {
                return Some(u.name.clone());
            }
        }
        for f in features {
            if !f.may_cross(a, c) {
                continue;
            }
            match f.kind {
                FeatureKind::Town | FeatureKind::Village => {
                    if f.contains(from.base.centre) || f.contains(to.base.centre) {
                        continue;
                    }
                    if f.inside_length(a, c) > 1.0 {
                        return Some(f.name.clone());
                    }
                }
                FeatureKind::Hill if f.level > sight.level && f.inside_length(a, c) > 0.5 => {
                    return Some(f.name.clone());
                }
                FeatureKind::Woods if f.inside_length(a, c) > sight.woods => {
                    return Some(f.name.clone());
                }
                _ => {}
            }
        }
        None
    }

    // ----- recoil, flight, pursuit ---------------------------------------------------

    /// Friends a unit may pass through: skirmish foot and commanders, which open or step aside;
    /// skirmish foot themselves pass through any friend.
    pub fn may_pass_through(&self, mover: &Unit, friend: &Unit) -> bool {
        self.is_skirmisher(mover)
            || self.is_skirmisher(friend)
            || self.kind(friend) == TroopKind::Commander
    }

    /// The facing a unit beaten by `enemy` recoils or flees from: its own facing when the
    /// enemy is to its front (or not touching it and ahead), else turned to face the enemy
    /// across the edge it touches or that lies towards it.
    fn facing_towards(&self, u: &Unit, enemy: Option<&Unit>) -> f32 {
        let Some(e) = enemy else {
            return u.base.facing;
        };
        let edge = match u.base.touched_by(&e.base) {
            Some(c) => c.edge,
            None => {
                let to = e.base.centre.minus(u.base.centre);
                [Edge::Front, Edge::Right, Edge::Rear, Edge::Left]
                    .into_iter()
                    .max_by(|x, y| {
                        u.base
                            .normal(*x)
                            .dot(to)
                            .total_cmp(&u.base.normal(*y).dot(to))
                    })
                    .unwrap_or(Edge::Front)
            }
        };
        let turn = match edge {
            Edge::Front => 0.0,
            Edge::Right => 90.0,
            Edge::Rear => 180.0,
            Edge::Left => -90.0,
        };
        norm_facing(u.base.facing + turn)
    }

    /// Whether a base stands off the table or on a river away from a bridge.
    fn impassable(&self, b: &Battle, base: &Base) -> bool {
        !b.table.holds(base)
            || (b
                .terrain
                .touching(base, &[FeatureKind::River])
                .next()
                .is_some()
                && !b.terrain.on_bridge(base))
    }

    /// Moves `who` from `start` along `dir` up to `dist` mm, as `how` says it treats the units
    /// in its way (see `Give`). The table edge, a river or (but in pursuit) an enemy block it
    /// (`blocked`); a unit it passes through it ends clear of, going on by up to the margin.
    fn path(
        &self,
        b: &Battle,
        who: &Unit,
        start: &Base,
        dir: Pt,
        dist: f32,
        how: Give,
    ) -> RecoilPath {
        let mut path = RecoilPath::default();
        // Room to go on past friends passed through: their depth and its own, with some to
        // spare (a search bound, not a rule distance).
        let limit = match how {
            Give::Pursue => dist,
            Give::Recoil | Give::Shove => dist + who.base.depth + 60.0,
            Give::Flee => dist + 2.0 * who.base.depth + 60.0,
        };
        let n = limit.ceil().max(1.0) as usize;
        for j in 1..=n {
            let d = limit * j as f32 / n as f32;
            let base = Base {
                centre: start.centre.plus(dir.scale(d)),
                ..*start
            };
            if self.impassable(b, &base) {
                path.blocked = true;
                return path;
            }
            let mut on_friend = false;
            for o in b.alive().filter(|o| o.id != who.id) {
                // A friend pushed back stands where the push put it: going on past a commander
                // must not carry the recoil onto it there.
                if let Some(push) = path.pushed.iter().find(|p| p.id == o.id) {
                    if base.overlaps(&push.to) {
                        return path;
                    }
                    continue;
                }
                if !base.overlaps(&o.base) {
                    continue;
                }
                if how == Give::Pursue {
                    return path;
                }
                if o.side != who.side {
                    path.blocked = true;
                    return path;
                }
                if how == Give::Flee || self.may_pass_through(who, o) {
                    on_friend = true;
                    continue;
                }
                let same = self.kind(o) == self.kind(who)
                    && norm_deg(o.base.facing - who.base.facing).abs() < 1.0
                    && !self.in_close_combat(b, o);
                if how == Give::Recoil && same && d <= dist + 1e-3 {
                    // Pushed back by what is left of the recoil.
                    let shove = dist - path.moved;
                    let friend = self.path(b, o, &o.base, dir, shove, Give::Shove);
                    if !friend.blocked && friend.moved + 0.5 >= shove {
                        path.pushed.push(Push {
                            id: o.id.clone(),
                            to: Base {
                                centre: o.base.centre.plus(dir.scale(friend.moved)),
                                ..o.base
                            },
                            at: path.moved,
                            shove,
                        });
                        continue;
                    }
                }
                return path;
            }
            if on_friend {
                continue;
            }
            path.moved = d;
            if d >= dist - 1e-3 {
                return path;
            }
        }
        path
    }

    /// Recoil one base depth directly away from `enemy` (the unit that beat it): a unit beaten
    /// on its flank or rear first turns to face that enemy. Destroyed when blocked by enemy,
    /// the table edge or impassable ground; it passes through skirmishers and commanders,
    /// pushes back friends of its own kind facing its way, and stops against any other friend.
    pub fn recoil(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        enemy: Option<&UnitId>,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() {
            return Ok(());
        }
        let e = enemy.and_then(|e| b.unit(e).ok()).cloned();
        let facing = self.facing_towards(&u, e.as_ref());
        // Turned to face the enemy where there is room to turn where it stands; else it
        // recoils as it faces (turning would put it on a unit beside it).
        let turned = Some(Base { facing, ..u.base })
            .filter(|t| {
                !b.alive().any(|o| {
                    o.id != u.id
                        && !(o.side == u.side && self.may_pass_through(&u, o))
                        && t.overlaps(&o.base)
                })
            })
            .unwrap_or(u.base);
        let back = turned.forward().scale(-1.0);
        let path = self.path(b, &u, &turned, back, turned.depth, Give::Recoil);
        if path.blocked {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: "could not recoil: blocked by the enemy, the table edge or impassable ground".into(),
                },
            );
            return Ok(());
        }
        // A recoil that stops short (a commander where it would end) pushes its friends only
        // as far as it went.
        let mut pushes = Vec::with_capacity(path.pushed.len());
        for p in path.pushed {
            let from = b.unit(&p.id)?.clone();
            let need = (path.moved - p.at).clamp(0.0, p.shove);
            let to = if need + 1e-3 >= p.shove {
                p.to
            } else if need <= 1e-3 {
                from.base
            } else {
                let gone = self
                    .path(b, &from, &from.base, back, need, Give::Shove)
                    .moved;
                Base {
                    centre: from.base.centre.plus(back.scale(gone)),
                    ..from.base
                }
            };
            pushes.push((p.id, from.base, to));
        }
        for (f, from, to) in pushes {
            if from == to {
                continue;
            }
            b.emit(
                out,
                Event::Recoiled {
                    unit: f,
                    from,
                    to,
                    voluntary: false,
                },
            );
        }
        let to = Base {
            centre: turned.centre.plus(back.scale(path.moved)),
            ..turned
        };
        b.emit(
            out,
            Event::Recoiled {
                unit: id.clone(),
                from: u.base,
                to,
                voluntary: false,
            },
        );
        Ok(())
    }

    /// Flee: turn directly away from `enemy` and move the flee distance, passing through any
    /// friend; off the table or into the enemy is destruction.
    pub fn flee(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        enemy: Option<&UnitId>,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() {
            return Ok(());
        }
        let e = enemy.and_then(|e| b.unit(e).ok()).cloned();
        // Troops that dismount (DBFPW's SC) mount to flee.
        if u.formation == Formation::Dismounted && self.troop_of(&u).dismounted.is_some() {
            b.emit(
                out,
                Event::Reformed {
                    unit: id.clone(),
                    formation: Formation::Line,
                    from: u.base,
                    to: u.base,
                    cost: 0.0,
                },
            );
        }
        let turned = Base {
            facing: norm_facing(self.facing_towards(&u, e.as_ref()) + 180.0),
            ..u.base
        };
        let dist = b.scale.to_mm(self.num("flee_distance"));
        // Fleeing troops burst through their own.
        let path = self.path(b, &u, &turned, turned.forward(), dist, Give::Flee);
        if path.blocked {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: "fled off the table or into the enemy".into(),
                },
            );
            return Ok(());
        }
        let to = Base {
            centre: turned.centre.plus(turned.forward().scale(path.moved)),
            ..turned
        };
        b.emit(
            out,
            Event::Fled {
                unit: id.clone(),
                from: u.base,
                to,
            },
        );
        Ok(())
    }

    /// Advance straight ahead up to one base depth, stopping at contact. Returns the enemy
    /// contacted, if any.
    pub fn follow_up(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        recoiled: Option<&UnitId>,
    ) -> Result<Option<UnitId>, RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() {
            return Ok(None);
        }
        let Some((to, hit)) = self.follow_up_end(b, &u) else {
            return Ok(None);
        };
        let continuing = hit
            .as_ref()
            .map(|h| h.0.clone())
            .filter(|h| Some(h) == recoiled);
        b.emit(
            out,
            Event::Pursued {
                unit: id.clone(),
                from: u.base,
                to,
                continuing,
            },
        );
        Ok(hit.map(|h| h.0))
    }

    /// Where a follow-up of `u` would end, and the enemy it would contact there; None when it
    /// cannot advance.
    pub fn follow_up_end(&self, b: &Battle, u: &Unit) -> Option<(Base, Option<(UnitId, Base)>)> {
        let got = self
            .path(b, u, &u.base, u.base.forward(), u.base.depth, Give::Pursue)
            .moved;
        if got <= 0.0 {
            return None;
        }
        let mut to = Base {
            centre: u.base.centre.plus(u.base.forward().scale(got)),
            ..u.base
        };
        let hit = b
            .alive()
            .find(|e| {
                e.side != u.side
                    && e.base
                        .touched_by(&to)
                        .is_some_and(|c| c.own_edge == Edge::Front)
            })
            .map(|e| (e.id.clone(), e.base));
        if let Some((_, eb)) = &hit
            && let Some(c) = eb.touched_by(&to)
        {
            let conformed = conform(&to, eb, c);
            if b.alive()
                .all(|o| o.id == u.id || o.base == *eb || !conformed.overlaps(&o.base))
                && b.table.holds(&conformed)
            {
                to = conformed;
            }
        }
        Some((to, hit))
    }

    /// Adds hits and their consequences (shaken, destroyed).
    pub fn add_hits(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        n: u32,
    ) -> Result<bool, RuleError> {
        if n == 0 {
            return Ok(false);
        }
        let u = b.unit(id)?.clone();
        if !u.alive() {
            return Ok(false);
        }
        let total = u.status.hits + n;
        b.emit(
            out,
            Event::Hit {
                unit: id.clone(),
                hits: n,
                total,
            },
        );
        if total as f32 >= self.num("destroyed_hits") {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: format!("{total} hits"),
                },
            );
            return Ok(true);
        }
        if total as f32 >= self.num("shaken_hits") && !u.status.shaken {
            b.emit(out, Event::Shaken { unit: id.clone() });
        }
        Ok(false)
    }

    // ----- deployment ----------------------------------------------------------------

    /// The (side, division) placing now, skipping steps with nobody to place.
    pub fn deployment_turn(&self, b: &Battle) -> Option<(Side, Division)> {
        let step = b.deployment_step;
        if step >= 8 {
            return None;
        }
        Some((step % 2, Division::ORDER[step / 2]))
    }

    pub fn deploy(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        centre: Pt,
        facing: f32,
    ) -> Result<(), RuleError> {
        let Some((side, div)) = self.deployment_turn(b) else {
            return Err(RuleError::Illegal("deployment is over".into()));
        };
        let u = b.unit(id)?.clone();
        if u.side != side {
            return Err(RuleError::NotYourUnit(id.clone()));
        }
        if !u.status.undeployed {
            return Err(RuleError::Illegal(format!(
                "{} is already deployed",
                u.name
            )));
        }
        let udiv = u.division.unwrap_or(Division::Centre);
        if udiv != div {
            return Err(RuleError::Illegal(format!(
                "{} belongs to the {:?} division; the {:?} division is deploying",
                u.name, udiv, div
            )));
        }
        if !(centre.is_finite() && facing.is_finite()) {
            return Err(RuleError::Illegal(
                "deployment position must be numbers".into(),
            ));
        }
        let base = Base::new(centre, facing, u.base.width, u.base.depth);
        if !b.table.holds(&base) {
            return Err(RuleError::Illegal(format!(
                "{} would be off the table",
                u.name
            )));
        }
        let zones: Vec<_> = b.zones.iter().filter(|z| z.side == side).collect();
        if !zones.is_empty() && !zones.iter().any(|z| z.holds(&base)) {
            return Err(RuleError::Illegal(format!(
                "{} must deploy inside its deployment zone",
                u.name
            )));
        }
        if let Some(o) = b.alive().find(|o| o.id != u.id && base.overlaps(&o.base)) {
            return Err(RuleError::Illegal(format!(
                "{} would overlap {}",
                u.name, o.name
            )));
        }
        if div != Division::Reserve {
            let min = b.scale.to_mm(self.num("deploy_distance"));
            if let Some(e) = b.alive().find(|e| {
                e.side != side
                    && e.division != Some(Division::Reserve)
                    && e.base.distance(&base) < min - 0.5
            }) {
                return Err(RuleError::Illegal(format!(
                    "{} must deploy at least {:.0} {} from {}",
                    u.name,
                    self.num("deploy_distance"),
                    b.scale.unit,
                    e.name
                )));
            }
        }
        b.emit(
            out,
            Event::Deployed {
                unit: id.clone(),
                to: base,
            },
        );
        Ok(())
    }

    /// Ends the current deployment step.
    pub fn end_deployment_step(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Some((side, div)) = self.deployment_turn(b) else {
            return Err(RuleError::Illegal("deployment is over".into()));
        };
        if let Some(u) = b.units.iter().find(|u| {
            u.side == side && u.status.undeployed && u.division.unwrap_or(Division::Centre) == div
        }) {
            return Err(RuleError::Illegal(format!(
                "{} of the {:?} division is not yet deployed",
                u.name, div
            )));
        }
        let bodies = self.formations(b, side, div);
        let most = self.num("division_formations_max") as usize;
        if bodies > most {
            return Err(RuleError::Illegal(format!(
                "the {div:?} division stands in {bodies} bodies: a division deploys as 1 or {most} formations, each of units in edge contact"
            )));
        }
        b.emit(
            out,
            Event::DeploymentStep {
                side,
                division: div,
            },
        );
        if b.deployment_step >= 8 {
            b.emit(
                out,
                Event::PhaseBegan {
                    turn: 1,
                    phase: Phase::Command,
                    side: 0,
                },
            );
        }
        Ok(())
    }

    /// How many formations (bodies of units in edge contact) a side's division stands in;
    /// commanders and baggage are no part of one.
    pub fn formations(&self, b: &Battle, side: Side, div: Division) -> usize {
        let members: Vec<&Unit> = b
            .units
            .iter()
            .filter(|u| {
                u.side == side
                    && !u.status.undeployed
                    && u.alive()
                    && u.division.unwrap_or(Division::Centre) == div
                    && !matches!(self.kind(u), TroopKind::Commander | TroopKind::Baggage)
            })
            .collect();
        let mut body: Vec<usize> = (0..members.len()).collect();
        fn root(body: &mut [usize], mut i: usize) -> usize {
            while body[i] != i {
                body[i] = body[body[i]];
                i = body[i];
            }
            i
        }
        for i in 0..members.len() {
            for j in i + 1..members.len() {
                let (x, y) = (&members[i].base, &members[j].base);
                if x.touched_by(y).is_some() || y.touched_by(x).is_some() {
                    let (ri, rj) = (root(&mut body, i), root(&mut body, j));
                    body[ri] = rj;
                }
            }
        }
        (0..members.len())
            .filter(|i| root(&mut body, *i) == *i)
            .count()
    }

    /// Who may end a move in a town or village: foot only; a town only once fortified (or to
    /// take it from a defender who has left it).
    pub fn check_occupation(&self, b: &Battle, u: &Unit, end: &Base) -> Result<(), RuleError> {
        for f in b
            .terrain
            .at(end.centre, &[FeatureKind::Town, FeatureKind::Village])
        {
            if self.kind(u) != TroopKind::Foot {
                return Err(RuleError::Illegal(format!(
                    "only foot may occupy {}",
                    f.name
                )));
            }
            let defender = b.sides.get(u.side).is_some_and(|s| s.defender);
            // DB7YW: no one garrisons a town that is not fortified, attacker or defender.
            let strict = self.num("garrison_fortified_only") > 0.0;
            if f.kind == FeatureKind::Town && !f.fortified && (defender || strict) {
                return Err(RuleError::Illegal(format!(
                    "{} is not fortified: a BUA must be fortified before it can be garrisoned",
                    f.name
                )));
            }
        }
        Ok(())
    }

    /// A non-defending foot unit standing in a fortified town or village that no defender
    /// holds captures it.
    pub fn check_capture(&self, b: &mut Battle, out: &mut Vec<Event>, id: &UnitId) {
        let Ok(u) = b.unit(id) else { return };
        if !u.alive()
            || b.sides.get(u.side).is_some_and(|s| s.defender)
            || self.kind(u) != TroopKind::Foot
        {
            return;
        }
        let side = u.side;
        let by = u.id.clone();
        let taken: Vec<String> = b
            .terrain
            .at(u.base.centre, &[FeatureKind::Town, FeatureKind::Village])
            .filter(|f| f.fortified)
            .filter(|f| {
                !b.alive()
                    .any(|d| d.side != side && f.contains(d.base.centre))
            })
            .map(|f| f.id.clone())
            .collect();
        for feature in taken {
            b.emit(
                out,
                Event::Captured {
                    feature,
                    by: by.clone(),
                },
            );
        }
    }

    /// Fortify a town (BUA) or village (NLF) before the battle: the defender only.
    pub fn fortify(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        feature: &str,
    ) -> Result<(), RuleError> {
        if b.phase != Phase::Deployment {
            return Err(RuleError::WrongPhase {
                command: "fortify".into(),
                phase: b.phase,
            });
        }
        let Some((side, _)) = self.deployment_turn(b) else {
            return Err(RuleError::Illegal("deployment is over".into()));
        };
        if !b.sides.get(side).is_some_and(|s| s.defender) {
            return Err(RuleError::Illegal(
                "only the defending army may fortify".into(),
            ));
        }
        let f = b
            .terrain
            .get(feature)
            .ok_or_else(|| RuleError::UnknownFeature(feature.to_string()))?;
        let cost = match f.kind {
            FeatureKind::Town => self.num("fortify_bua_cost"),
            FeatureKind::Village => self.num("fortify_nlf_cost"),
            _ => {
                return Err(RuleError::Illegal(format!(
                    "{} is not a town or village",
                    f.name
                )));
            }
        };
        if f.fortified {
            return Err(RuleError::Illegal(format!(
                "{} is already fortified",
                f.name
            )));
        }
        let spent: f32 = b
            .terrain
            .features
            .iter()
            .filter(|f| f.fortified)
            .map(|f| {
                if f.kind == FeatureKind::Town {
                    self.num("fortify_bua_cost")
                } else {
                    self.num("fortify_nlf_cost")
                }
            })
            .sum();
        let army = super::army::army_cost(self, b, side);
        if army > 0.0 && army + spent + cost > self.data.army.points + 1e-3 {
            return Err(RuleError::Illegal(format!(
                "fortifying costs {cost} army points; the army already costs {:.2} of {}",
                army + spent,
                self.data.army.points
            )));
        }
        b.emit(
            out,
            Event::Fortified {
                feature: feature.to_string(),
            },
        );
        Ok(())
    }

    /// Limber or unlimber artillery.
    pub fn limber(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        limber: bool,
    ) -> Result<(), RuleError> {
        if b.phase != Phase::Movement {
            return Err(RuleError::WrongPhase {
                command: if limber { "limber" } else { "unlimber" }.into(),
                phase: b.phase,
            });
        }
        let u = b.unit(id)?.clone();
        own_active(b, &u)?;
        if !self.is_artillery(&u) {
            return Err(RuleError::Illegal(format!("{} is not artillery", u.name)));
        }
        if u.status.limbered == limber {
            return Err(RuleError::Illegal(format!(
                "{} is already {}",
                u.name,
                if limber { "limbered" } else { "unlimbered" }
            )));
        }
        if u.bound.limber_changed {
            return Err(RuleError::AlreadyActed {
                unit: id.clone(),
                what: "limbered or unlimbered".into(),
            });
        }
        if u.bound.moved {
            return Err(RuleError::AlreadyActed {
                unit: id.clone(),
                what: "moved".into(),
            });
        }
        if self.in_close_combat(b, &u) {
            return Err(RuleError::Illegal(format!("{} is in close combat", u.name)));
        }
        let cost = self.num(if limber {
            "limber_cost"
        } else {
            "unlimber_cost"
        }) as i32;
        self.spend(
            b,
            out,
            cost,
            format!("{} {}", if limber { "limber" } else { "unlimber" }, u.name),
            u.division,
        )?;
        b.emit(
            out,
            if limber {
                Event::Limbered { unit: id.clone() }
            } else {
                Event::Unlimbered { unit: id.clone() }
            },
        );
        Ok(())
    }
}

/// How a moving unit treats the units in its way.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Give {
    /// A recoil: passes skirmishers and commanders, pushes friends of its own kind.
    Recoil,
    /// A friend pushed back by a recoil: passes skirmishers and commanders, pushes no one.
    Shove,
    /// A flight: through every friend.
    Flee,
    /// A pursuit: stops at any unit.
    Pursue,
}

/// Where a recoil or flight ends: how far the unit moves, whether it is blocked (destroyed),
/// and the friends it pushes back with their new bases.
#[derive(Default)]
struct RecoilPath {
    moved: f32,
    blocked: bool,
    pushed: Vec<Push>,
}

/// A friend pushed back by a recoil: its new base, how far the recoil had gone when it met it,
/// and what was left of the recoil then.
struct Push {
    id: UnitId,
    to: Base,
    at: f32,
    shove: f32,
}

fn edge_len(b: &Base, e: Edge) -> f32 {
    if e.is_flank() { b.depth } else { b.width }
}

/// The lead conforms to the enemy it contacts; the same free adjustment carries the rest of the
/// group unless it would overlap or leave the table.
fn conform_group(
    b: &Battle,
    ends: &mut [(UnitId, Base)],
    ids: &[UnitId],
    target: &UnitId,
    conformed: &Base,
) {
    // (The flank supporting unit of a DB7YW charge moves with it this way.)
    let from = ends[0].1;
    let turn = conformed.facing - from.facing;
    let moved: Vec<Base> = ends
        .iter()
        .map(|(_, base)| {
            let mut x = base.rotated_about(from.centre, turn);
            x.centre = x.centre.plus(conformed.centre.minus(from.centre));
            x
        })
        .collect();
    let clear = moved.iter().skip(1).all(|m| {
        b.table.holds(m)
            && b.alive()
                .all(|o| ids.contains(&o.id) || &o.id == target || !m.overlaps(&o.base))
    });
    ends[0].1 = *conformed;
    if clear {
        for (end, m) in ends.iter_mut().zip(moved).skip(1) {
            end.1 = m;
        }
    }
}

/// The oriented box around a group facing one way: its front line and frontage.
fn group_frame(units: &[Unit]) -> Base {
    let lead = units[0].base;
    let (mut lo_x, mut hi_x, mut lo_y, mut hi_y) = (
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::INFINITY,
        f32::NEG_INFINITY,
    );
    for u in units {
        for c in u.base.corners() {
            let d = c.minus(lead.centre);
            let (x, y) = (d.dot(lead.right()), d.dot(lead.forward()));
            lo_x = lo_x.min(x);
            hi_x = hi_x.max(x);
            lo_y = lo_y.min(y);
            hi_y = hi_y.max(y);
        }
    }
    Base {
        centre: lead.local((lo_x + hi_x) / 2.0, (lo_y + hi_y) / 2.0),
        facing: lead.facing,
        width: hi_x - lo_x,
        depth: hi_y - lo_y,
    }
}
