//! Old Dessauer (Wes Rogers): units of stands and figures in formations, shooting by the die per
//! front-rank stand, morale against shooting, combat points and rounds of combat with recoils and
//! pursuit, the turn of an active and a passive side, and the optional rules as switches.

pub mod combat;
pub mod layout;
pub mod movement;
pub mod shooting;
mod view;

pub use layout::{footprint, stand_bases};

use super::common::{
    self, FactorDef, MovePlan, Number, factor_in, fire_or_fight, number, own_active,
    require_numbers,
};
pub use super::common::{at_least, exactly};
use super::view::{
    ActionGroup, Card, Layer, Look, Mark, Measure, MoveRequest, Outlook, Reference, TurnWords,
    UnitModel,
};
use super::{Ruleset, Ruling, UnitSetup, UnitState};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event, Factor, RuleError, TestKind, factor_sum};
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Class, Formation, Phase, Side, Unit, UnitId};
use crate::rules::ruleset::doctrine::Tuning;
use crate::rules::scenario::RawUnit;
use crate::rules::terrain::FeatureKind;
use serde::{Deserialize, Serialize};

pub const DATA: &str = include_str!("../../../../assets/rulesets/old_dessauer.ron");

/// Millimetres per inch.
pub const INCH: f32 = 25.4;

/// What a troop type is, for the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Infantry,
    LightInfantry,
    Cavalry,
    Artillery,
    RegimentalGun,
    General,
}

/// A troop type with its stand and its movement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Troop {
    pub code: String,
    pub name: String,
    pub kind: Kind,
    /// Stands of a typical unit when a scenario does not give them.
    pub stands: u32,
    pub figures_per_stand: u32,
    /// Inches of frontage per figure (guns: per crew figure, 4 to the inch).
    pub figure_frontage: f32,
    pub stand_depth: f32,
    /// Inches per turn in line (guns manhandled) and in column (guns limbered).
    pub line: f32,
    pub column: f32,
    pub combat: i32,
    /// Light horse: heavy and medium cavalry never pursue it.
    #[serde(default)]
    pub light: bool,
    pub source: String,
}

/// An optional rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionDef {
    pub key: String,
    pub name: String,
    pub source: String,
}

/// A row of the variable chance to hit: at this difference or more, hit on `need`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HitStep {
    pub difference: i32,
    pub need: u8,
}

/// The data file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OdData {
    pub id: String,
    pub name: String,
    pub seed: String,
    pub troops: Vec<Troop>,
    pub numbers: Vec<Number>,
    pub shooting_factors: Vec<FactorDef>,
    pub options: Vec<OptionDef>,
    pub variable_hit: Vec<HitStep>,
    pub rulings: Vec<Ruling>,
}

/// Numbers the engine reads: a data file lacking one is refused at load.
pub const REQUIRED_NUMBERS: &[&str] = &[
    "half_speed",
    "zone_of_control",
    "charge_straight_foot",
    "charge_straight_horse",
    "form_cost",
    "min_figures_to_shoot",
    "arc_half_angle",
    "musket_range",
    "gun_range",
    "regimental_gun_range",
    "shoot_need",
    "regimental_gun_need",
    "dense_dice",
    "ranks_striking",
    "square_faces_striking",
    "enfilade_angle",
    "fire_gap",
    "hanging_flank_foot",
    "hanging_flank_horse",
    "hanging_flank_guns",
    "woods_visibility",
    "morale_need_crack",
    "morale_need_regular",
    "morale_need_poor",
    "morale_per_hit",
    "recoils_per_hits",
    "rally_need_crack",
    "rally_need_regular",
    "rally_need_poor",
    "rally_no_enemy",
    "out_of_command",
    "grade_step",
    "def_fire_inf_poor",
    "def_fire_inf_regular",
    "def_fire_inf_crack",
    "def_fire_art_poor",
    "def_fire_art_regular",
    "def_fire_art_crack",
    "def_fire_dis_poor",
    "def_fire_dis_regular",
    "def_fire_dis_crack",
    "grenadiers_first_round",
    "vs_cover",
    "disordered",
    "flank_rear",
    "shaken",
    "cavalry_vs_square",
    "hit_advantage",
    "hit_even",
    "hit_disadvantage",
    "pursuit_multiplier",
    "gunner_multiplier",
    "crew_per_die",
    "recoil_move",
    "recoil_gap_enemy",
    "recoil_gap_friend",
    "recoil_max",
    "recoil_half_angle",
    "shatter_fraction",
    "road_multiplier",
    "town_fire_fraction",
    "town_attack_multiple",
    "army_break_fraction",
    "general_move",
    "command_need",
    "general_danger_hits",
    "general_danger_need",
    "drill_bonus",
    "skirmish_fallback",
    "skirmish_evade_need",
    "fallback_segment",
    "fallback_general",
    "var_def_fire_crack",
    "var_def_fire_regular",
    "var_def_fire_poor",
    "var_def_fire_guns",
    "var_def_fire_disordered",
    "l_refused_share",
];

/// The optional rules a scenario may switch on.
pub const OPTIONS: &[&str] = &[
    "generals",
    "drill",
    "light_infantry",
    "skirmish_defend",
    "voluntary_fallback",
    "regimental_guns",
    "variable_defensive_fire",
    "variable_chance_to_hit",
];

/// Old Dessauer with the optional rules in use.
#[derive(Clone, Debug)]
pub struct OldDessauer {
    pub data: OdData,
    pub options: Vec<String>,
}

/// Grade on the crack / regular / poor ladder: poor 0, regular 1, crack 2.
pub fn grade(c: Class) -> i32 {
    match c {
        Class::Militia => 0,
        Class::Regular => 1,
        Class::Superior | Class::Elite => 2,
    }
}

pub fn grade_name(c: Class) -> &'static str {
    match grade(c) {
        0 => "poor",
        1 => "regular",
        _ => "crack",
    }
}

impl OldDessauer {
    pub fn load() -> Result<Self, String> {
        Self::from_ron(DATA)
    }

    pub fn from_ron(text: &str) -> Result<Self, String> {
        let data: OdData = ron::from_str(text).map_err(|e| format!("ruleset data: {e}"))?;
        require_numbers(&data.numbers, REQUIRED_NUMBERS)?;
        for k in ["disordered", "moved", "cover", "skirmish_target"] {
            if !data.shooting_factors.iter().any(|f| f.key == k) {
                return Err(format!("ruleset data: shooting factor '{k}' is missing"));
            }
        }
        if data.troops.is_empty() {
            return Err("ruleset data: no troop types".into());
        }
        // An L refuses some of its stands and keeps some on the line's front.
        let share = number(&data.numbers, "l_refused_share");
        if !(share > 0.0 && share < 1.0) {
            return Err(format!(
                "ruleset data: an L refuses a share of its stands between 0 and 1, not {share}"
            ));
        }
        // The variable chance to hit never hits better than its ruling says.
        let best = number(&data.numbers, "variable_hit_best");
        if data.variable_hit.iter().any(|r| f32::from(r.need) < best) {
            return Err(format!(
                "ruleset data: the variable chance to hit needs {best} at best"
            ));
        }
        Ok(OldDessauer {
            data,
            options: Vec::new(),
        })
    }

    /// Switches these optional rules on and all others off, refusing unknown ones.
    fn choose_options(&mut self, options: &[String]) -> Result<(), String> {
        self.options = super::common::choose_options(OPTIONS, options)?;
        Ok(())
    }

    pub fn opt(&self, key: &str) -> bool {
        self.options.iter().any(|o| o == key)
    }

    pub fn num(&self, key: &str) -> f32 {
        number(&self.data.numbers, key)
    }

    pub fn int(&self, key: &str) -> i32 {
        self.num(key).round() as i32
    }

    /// A rules number as a factor with its source.
    pub fn factor(&self, key: &str, name: &str) -> Factor {
        let n = self.data.numbers.iter().find(|n| n.key == key);
        Factor {
            name: name.to_string(),
            value: n.map(|n| n.value.round() as i32).unwrap_or(0),
            source: n.map(|n| n.source.clone()).unwrap_or_default(),
        }
    }

    pub fn shooting_factor(&self, key: &str) -> Factor {
        factor_in(&self.data.shooting_factors, key)
    }

    pub fn troop_code(&self, code: &str) -> Option<&Troop> {
        self.data.troops.iter().find(|t| t.code == code)
    }

    pub fn troop(&self, u: &Unit) -> &Troop {
        self.troop_code(&u.troop).unwrap_or(&self.data.troops[0])
    }

    pub fn kind(&self, u: &Unit) -> Kind {
        self.troop(u).kind
    }

    /// Infantry in close order or skirmishing (inside a town skirmishers are line infantry).
    pub fn is_foot(&self, u: &Unit) -> bool {
        matches!(self.kind(u), Kind::Infantry | Kind::LightInfantry)
    }

    pub fn is_skirmishing(&self, b: &Battle, u: &Unit) -> bool {
        self.kind(u) == Kind::LightInfantry && !self.in_town(b, u)
    }

    /// A unit that fights and counts for victory (not a general or a regimental gun).
    pub fn is_fighting_unit(&self, u: &Unit) -> bool {
        !matches!(self.kind(u), Kind::General | Kind::RegimentalGun)
    }

    pub fn in_town(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain
            .at(u.base.centre, &[FeatureKind::Town, FeatureKind::Village])
            .next()
            .is_some()
    }

    /// In cover against shooting: woods, towns, villages, fortifications.
    pub fn in_cover(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain
            .at(
                u.base.centre,
                &[
                    FeatureKind::Woods,
                    FeatureKind::Town,
                    FeatureKind::Village,
                    FeatureKind::Fortification,
                ],
            )
            .next()
            .is_some()
    }

    /// On rough ground or a steep hill (not woods): cover for foot and guns against cavalry.
    pub fn on_rough_ground(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain
            .at(u.base.centre, &[FeatureKind::Rough])
            .next()
            .is_some()
            || b.terrain
                .at(u.base.centre, &[FeatureKind::Hill])
                .any(|f| f.steep)
    }

    /// In woods, rough ground or on a steep hill: broken ground for skirmishers.
    pub fn in_rough(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain
            .at(u.base.centre, &[FeatureKind::Woods, FeatureKind::Rough])
            .next()
            .is_some()
            || b.terrain
                .at(u.base.centre, &[FeatureKind::Hill])
                .any(|f| f.steep)
    }

    /// Total figures at the start, for the shattered test.
    /// How far a unit shoots, in inches; None for those that do not shoot.
    pub fn range(&self, u: &Unit) -> Option<f32> {
        match self.kind(u) {
            Kind::Artillery => Some(self.num("gun_range")),
            Kind::RegimentalGun => Some(self.num("regimental_gun_range")),
            Kind::Infantry | Kind::LightInfantry => Some(self.num("musket_range")),
            Kind::Cavalry | Kind::General => None,
        }
    }

    pub fn strength(&self, u: &Unit) -> u32 {
        u.extra.strength.max(u.figures())
    }

    /// The general attached to a unit, if any.
    pub fn attached_general<'a>(&self, b: &'a Battle, u: &Unit) -> Option<&'a Unit> {
        if !self.opt("generals") {
            return None;
        }
        b.alive()
            .find(|g| g.side == u.side && g.extra.attached.as_ref() == Some(&u.id))
    }

    /// Within a friendly general's command radius (always, without the generals rule or radii).
    pub fn in_command(&self, b: &Battle, u: &Unit) -> bool {
        if !self.opt("generals") || self.kind(u) == Kind::General {
            return true;
        }
        let generals: Vec<&Unit> = b
            .alive()
            .filter(|g| {
                g.side == u.side && self.kind(g) == Kind::General && g.extra.command_radius > 0.0
            })
            .collect();
        if generals.is_empty() {
            return true;
        }
        generals.iter().any(|g| {
            g.extra.attached.as_ref() == Some(&u.id)
                || u.base.distance_to_point(g.base.centre)
                    <= b.scale.to_mm(g.extra.command_radius) + 0.01
        })
    }

    /// Enemies whose bases touch this unit's (generals and regimental guns never fight).
    pub fn enemies_in_contact<'a>(&self, b: &'a Battle, u: &Unit) -> Vec<&'a Unit> {
        if !self.is_fighting_unit(u) {
            return Vec::new();
        }
        b.alive()
            .filter(|e| e.side != u.side && self.is_fighting_unit(e) && touching(u, e))
            .collect()
    }

    pub fn in_contact(&self, b: &Battle, u: &Unit) -> bool {
        !self.enemies_in_contact(b, u).is_empty()
    }

    /// Movement allowance in inches this turn.
    pub fn allowance(&self, u: &Unit) -> f32 {
        let t = self.troop(u);
        let mut a = match (t.kind, u.formation) {
            (Kind::Artillery, _) if u.status.limbered => t.column,
            (Kind::Artillery, _) => t.line,
            (_, Formation::Column) => t.column,
            _ => t.line,
        };
        if self.opt("drill") && matches!(t.kind, Kind::Infantry | Kind::Cavalry | Kind::Artillery) {
            match grade(u.class) {
                2 => a += self.num("drill_bonus"),
                0 => a -= self.num("drill_bonus"),
                _ => {}
            }
        }
        if u.status.shaken {
            a *= self.num("half_speed");
        }
        a.max(0.0)
    }

    /// Needs a 4-6 when out of command; emits the test. Returns false when the unit halts.
    fn command_test(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        u: &Unit,
    ) -> Result<bool, RuleError> {
        if self.in_command(b, u) {
            return Ok(true);
        }
        let die = b.d6()?;
        let need = self.int("command_need");
        let passed = die as i32 >= need;
        b.emit(
            out,
            Event::Test {
                unit: u.id.clone(),
                test: TestKind::Command,
                die,
                factors: vec![],
                need,
                passed,
            },
        );
        Ok(passed)
    }

    /// The stand (its index in `kept`) an L loses figures from next: the far end of the refused
    /// arm while that arm holds more than its share of the stands that would be left, else the
    /// open end of the arm that kept the line's front (the ruling `casualties`).
    fn l_next_loss(&self, kept: &[usize], refused: &[bool]) -> usize {
        let m = kept.len();
        let arm: Vec<usize> = (0..m).filter(|&i| refused[kept[i]]).collect();
        let front: Vec<usize> = (0..m).filter(|&i| !refused[kept[i]]).collect();
        let (Some(&r_first), Some(&r_last)) = (arm.first(), arm.last()) else {
            return m - 1;
        };
        let (Some(&f_first), Some(&f_last)) = (front.first(), front.last()) else {
            return m - 1;
        };
        // Refusing the right, the refused arm follows the front arm in the stands' order.
        let right = r_first > f_last;
        let share = if m > 2 {
            layout::refused_count(self, m - 1)
        } else {
            0
        };
        match (arm.len() > share, right) {
            (true, true) => r_last,
            (true, false) => r_first,
            (false, true) => f_first,
            (false, false) => f_last,
        }
    }

    /// Removes `n` figures from the last stands, closing up the unit if a stand empties; an L
    /// loses them so that it keeps its arms (the ruling `casualties`).
    pub fn take_losses(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        n: u32,
        why: &str,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if n == 0 || !u.alive() {
            return Ok(());
        }
        let l = layout::is_l(&u);
        let refused: Vec<bool> = u
            .stands
            .iter()
            .map(|s| s.at.is_some_and(|a| a.facing.abs() > 0.5))
            .collect();
        let mut figures: Vec<u32> = u.stands.iter().map(|s| s.figures).collect();
        let mut kept: Vec<usize> = (0..figures.len()).collect();
        let mut left = n;
        while left > 0 && !kept.is_empty() {
            let k = if l {
                self.l_next_loss(&kept, &refused)
            } else {
                kept.len() - 1
            };
            let f = &mut figures[kept[k]];
            if *f > left {
                *f -= left;
                left = 0;
            } else {
                left -= *f;
                kept.remove(k);
            }
        }
        let stands: Vec<u32> = kept.iter().map(|&i| figures[i]).collect();
        let lost = n - left;
        let before = u.stands.len();
        let places = u.loose_bases();
        b.emit(
            out,
            Event::Losses {
                unit: id.clone(),
                figures: lost,
                stands: stands.clone(),
                why: why.to_string(),
            },
        );
        // The stands an L keeps stand where they stood.
        if l && !stands.is_empty() && kept.iter().enumerate().any(|(i, &k)| i != k) {
            b.emit(
                out,
                Event::StandsPlaced {
                    unit: id.clone(),
                    bases: kept.iter().map(|&i| places[i]).collect(),
                    why: "keeps its L: the stands left stand where they stood".into(),
                    formed: None,
                },
            );
        }
        if stands.is_empty() {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: "every figure lost".into(),
                },
            );
            return Ok(());
        }
        if self.kind(&u) == Kind::RegimentalGun
            && stands.iter().sum::<u32>() < self.num("min_figures_to_shoot") as u32
        {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: "its crew is too few to serve the gun".into(),
                },
            );
            return Ok(());
        }
        // A unit closes up its ranks; one whose stands stand loose has none to close: the stands
        // left stay where they stand (the ruling `loose_gathered`).
        if stands.len() != before && !u.is_loose() {
            let u = b.unit(id)?.clone();
            let to = layout::rebuild(self, &u, u.formation, 0.0);
            b.emit(
                out,
                Event::Reformed {
                    unit: id.clone(),
                    formation: u.formation,
                    from: u.base,
                    to,
                    cost: 0.0,
                },
            );
        }
        Ok(())
    }

    /// Danger to a general attached to a unit that took `hits` in one shooting or combat.
    fn general_danger(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        hits: u32,
    ) -> Result<(), RuleError> {
        if hits < self.num("general_danger_hits") as u32 {
            return Ok(());
        }
        let u = b.unit(id)?.clone();
        let Some(g) = self.attached_general(b, &u).map(|g| g.id.clone()) else {
            return Ok(());
        };
        let die = b.d6()?;
        let killed = die as i32 <= self.int("general_danger_need");
        b.emit(
            out,
            Event::Test {
                unit: g.clone(),
                test: TestKind::GeneralDanger,
                die,
                factors: vec![],
                need: self.int("general_danger_need") + 1,
                passed: !killed,
            },
        );
        if killed {
            b.emit(
                out,
                Event::Destroyed {
                    unit: g,
                    reason: format!("killed at the head of {}", u.name),
                },
            );
        }
        Ok(())
    }

    fn begin_turn(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        turn: u32,
        side: Side,
    ) -> Result<(), RuleError> {
        b.emit(
            out,
            Event::PhaseBegan {
                turn,
                phase: Phase::Movement,
                side,
            },
        );
        self.rally(b, out)
    }

    /// Shaken active units not in contact test to rally.
    fn rally(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let ids: Vec<UnitId> = b
            .alive()
            .filter(|u| u.side == b.active && u.status.shaken && self.is_fighting_unit(u))
            .map(|u| u.id.clone())
            .collect();
        for id in ids {
            let u = b.unit(&id)?.clone();
            if self.in_contact(b, &u) {
                continue;
            }
            let need = match grade(u.class) {
                2 => self.int("rally_need_crack"),
                1 => self.int("rally_need_regular"),
                _ => self.int("rally_need_poor"),
            };
            let mut factors = Vec::new();
            if !self.enemy_able_to_charge(b, &u) {
                factors.push(self.factor("rally_no_enemy", "No visible enemy able to charge"));
            }
            factors.extend(self.leadership(b, &u));
            if !self.in_command(b, &u) {
                factors.push(self.factor("out_of_command", "Out of command"));
            }
            let die = b.d6()?;
            let sum = factor_sum(&factors);
            let passed = die as i32 + sum >= need;
            b.emit(
                out,
                Event::Test {
                    unit: id.clone(),
                    test: TestKind::Rally,
                    die,
                    factors,
                    need: need - sum,
                    passed,
                },
            );
            if passed {
                b.emit(out, Event::Rallied { unit: id });
            }
        }
        Ok(())
    }

    /// An attached general's leadership as a factor.
    pub fn leadership(&self, b: &Battle, u: &Unit) -> Vec<Factor> {
        match self.attached_general(b, u) {
            Some(g) if g.extra.leadership != 0 => vec![Factor {
                name: format!("{} attached", g.name),
                value: g.extra.leadership,
                source: "003 Optional Rules: Generals, leadership".into(),
            }],
            _ => vec![],
        }
    }

    /// A visible enemy able to charge the unit: horse or formed foot, not shaken, free to move
    /// (not in combat, not in square or an L), whose charge rate would reach it, and horse only
    /// where the unit does not stand in woods, marsh or a town (only infantry may enter or
    /// attack them). Visible: the rallying unit sees it (woods hide it beyond 4 inches unless
    /// it fired).
    pub fn enemy_able_to_charge(&self, b: &Battle, u: &Unit) -> bool {
        b.alive().any(|e| {
            e.side != u.side
                && matches!(self.kind(e), Kind::Infantry | Kind::Cavalry)
                && !e.status.shaken
                && !matches!(e.formation, Formation::Square | Formation::Conformed)
                && !self.in_contact(b, e)
                && (self.kind(e) != Kind::Cavalry || !self.foot_only_ground(b, u))
                // Measured stand to stand: an L by its arms' stands, not the box round them.
                && e.shapes().iter().any(|x| {
                    u.shapes()
                        .iter()
                        .any(|y| x.within(y, b.scale.to_mm(self.charge_rate(e))))
                })
                // Seen from the rallying unit: the enemy is the one seen at 4 inches in woods
                // unless it fired.
                && shooting::sight_clear(
                    self,
                    b,
                    nearest_stand_point(u, e.base.front_centre()),
                    e,
                    u,
                )
        })
    }

    /// Does `u` stand in woods, marsh or a town, which only infantry may enter or attack?
    fn foot_only_ground(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain
            .at(
                u.base.centre,
                &[
                    FeatureKind::Woods,
                    FeatureKind::Marsh,
                    FeatureKind::Town,
                    FeatureKind::Village,
                ],
            )
            .next()
            .is_some()
    }

    /// How far a unit charges, in inches: its rate in its formation (the ruling `charge_rate`).
    pub fn charge_rate(&self, u: &Unit) -> f32 {
        self.allowance(u)
    }

    fn end_phase(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        match b.phase {
            Phase::Movement => {
                b.begin_phase(out, Phase::Firing);
                Ok(())
            }
            Phase::Firing => {
                shooting::morale_tests(self, b, out)?;
                b.begin_phase(out, Phase::CloseCombat);
                Ok(())
            }
            Phase::CloseCombat => {
                // Every combat fights its round: those not fought yet are fought now.
                for _ in 0..b.units.len() {
                    let Some((a, t)) = combat::unfought(self, b).into_iter().next() else {
                        break;
                    };
                    let orders = combat::Orders {
                        side: None,
                        pursue: None,
                        units: &[],
                    };
                    combat::fight(self, b, out, &a, &t, &orders)?;
                }
                self.end_turn(b, out)
            }
            p => Err(RuleError::WrongPhase {
                command: "end the phase".into(),
                phase: p,
            }),
        }
    }

    fn end_turn(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        // The active side's disordered units that stood all turn reform: not those disordered
        // during it (a friend ending among them or recoiling through them).
        let fresh: Vec<&UnitId> = this_turn(b)
            .iter()
            .chain(out.iter())
            .filter_map(|e| match e {
                Event::Disordered { unit, .. } => Some(unit),
                _ => None,
            })
            .collect();
        let ids: Vec<UnitId> = b
            .alive()
            .filter(|u| {
                u.side == b.active
                    && u.status.disordered
                    && !fresh.contains(&&u.id)
                    && !u.bound.moved
                    && !u.bound.formed
                    && !u.bound.fought
                    && !u.bound.recoiled
                    && !u.bound.fell_back
            })
            .map(|u| u.id.clone())
            .collect();
        for id in ids {
            let u = b.unit(&id)?.clone();
            if !self.in_contact(b, &u) {
                b.emit(out, Event::Steadied { unit: id });
            }
        }
        // Shattered units of both sides leave the table.
        let frac = self.num("shatter_fraction");
        let shattered: Vec<UnitId> = b
            .alive()
            .filter(|u| {
                matches!(
                    self.kind(u),
                    Kind::Infantry | Kind::LightInfantry | Kind::Cavalry | Kind::Artillery
                ) && (u.figures() as f32) <= self.strength(u) as f32 * frac
            })
            .map(|u| u.id.clone())
            .collect();
        for id in shattered {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id,
                    reason: "shattered: reduced to a quarter of its strength".into(),
                },
            );
        }
        self.orphans(b, out);
        self.check_victory(b, out);
        if b.is_over() {
            return Ok(());
        }
        // A turn is both sides' (as in every ruleset): the first side's turn begins the next.
        let next = Battle::enemy(b.active);
        let turn = if next == 0 { b.turn + 1 } else { b.turn };
        if turn > b.turn_limit {
            let (winner, reason) = self.turn_limit_result(b);
            b.emit(out, Event::GameOver { winner, reason });
            return Ok(());
        }
        self.begin_turn(b, out, turn, next)
    }

    /// Regimental guns whose parent is gone leave; generals of a lost unit detach.
    fn orphans(&self, b: &mut Battle, out: &mut Vec<Event>) {
        let gone = |b: &Battle, id: &UnitId| b.unit(id).map(|p| !p.alive()).unwrap_or(true);
        let guns: Vec<UnitId> = b
            .alive()
            .filter(|u| u.extra.parent.as_ref().is_some_and(|p| gone(b, p)))
            .map(|u| u.id.clone())
            .collect();
        for id in guns {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id,
                    reason: "its parent regiment is gone".into(),
                },
            );
        }
        let generals: Vec<UnitId> = b
            .alive()
            .filter(|u| u.extra.attached.as_ref().is_some_and(|p| gone(b, p)))
            .map(|u| u.id.clone())
            .collect();
        for general in generals {
            b.emit(
                out,
                Event::Attached {
                    general,
                    unit: None,
                },
            );
        }
    }

    /// Units counted for victory: (lost, all) of a side.
    pub fn losses(&self, b: &Battle, side: Side) -> (u32, u32) {
        let mine = b
            .units
            .iter()
            .filter(|u| u.side == side && self.is_fighting_unit(u));
        let all = mine.clone().count() as u32;
        let lost = mine.filter(|u| u.status.removed).count() as u32;
        (lost, all)
    }

    fn check_victory(&self, b: &mut Battle, out: &mut Vec<Event>) {
        if b.is_over() {
            return;
        }
        let frac = self.num("army_break_fraction");
        for side in 0..2 {
            let (lost, all) = self.losses(b, side);
            if all > 0 && lost as f32 >= all as f32 * frac {
                b.emit(
                    out,
                    Event::ArmyBroken {
                        side,
                        losses: lost as f32,
                        of: all as f32,
                    },
                );
                let name = b
                    .sides
                    .get(side)
                    .map(|s| s.name.clone())
                    .unwrap_or_default();
                b.emit(
                    out,
                    Event::GameOver {
                        winner: Some(Battle::enemy(side)),
                        reason: format!("{name} has lost {lost} of its {all} units"),
                    },
                );
                return;
            }
        }
    }

    /// Share of figures lost by each side; the smaller share wins at the turn limit.
    pub(crate) fn turn_limit_result(&self, b: &Battle) -> (Option<Side>, String) {
        let share = |side: Side| {
            let (mut lost, mut all) = (0u32, 0u32);
            for u in b
                .units
                .iter()
                .filter(|u| u.side == side && self.is_fighting_unit(u))
            {
                let s = self.strength(u);
                all += s;
                lost += if u.status.removed {
                    s
                } else {
                    s.saturating_sub(u.figures())
                };
            }
            if all == 0 {
                0.0
            } else {
                lost as f32 / all as f32
            }
        };
        let (a, c) = (share(0), share(1));
        let pct = |x: f32| format!("{:.0}%", x * 100.0);
        if (a - c).abs() < 1e-6 {
            (
                None,
                format!("turn limit: both sides lost {} of their figures", pct(a)),
            )
        } else {
            let w = if a < c { 0 } else { 1 };
            (
                Some(w),
                format!(
                    "turn limit: losses {} against {}",
                    pct(a.min(c)),
                    pct(a.max(c))
                ),
            )
        }
    }

    fn attach(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        general: &UnitId,
        unit: Option<&UnitId>,
    ) -> Result<(), RuleError> {
        if !self.opt("generals") {
            return Err(RuleError::Illegal(
                "generals are an optional rule not in use in this battle".into(),
            ));
        }
        if b.phase != Phase::Movement {
            return Err(RuleError::WrongPhase {
                command: "attach or detach a general".into(),
                phase: b.phase,
            });
        }
        let g = b.unit(general)?.clone();
        own_active(b, &g)?;
        if self.kind(&g) != Kind::General {
            return Err(RuleError::Illegal(format!("{} is not a general", g.name)));
        }
        let Some(uid) = unit else {
            if g.extra.attached.is_none() {
                return Err(RuleError::Illegal(format!("{} is not attached", g.name)));
            }
            b.emit(
                out,
                Event::Attached {
                    general: general.clone(),
                    unit: None,
                },
            );
            return Ok(());
        };
        let u = b.unit(uid)?.clone();
        if u.side != g.side || !u.alive() || !self.is_fighting_unit(&u) {
            return Err(RuleError::Illegal(format!(
                "{} can only attach to a friendly regiment or battery",
                g.name
            )));
        }
        if let Some(other) = b
            .alive()
            .find(|o| o.id != g.id && o.extra.attached.as_ref() == Some(uid))
        {
            return Err(RuleError::Illegal(format!(
                "{} already has {} attached",
                u.name, other.name
            )));
        }
        // Behind the unit's rear, or as near it as the table's edge allows.
        let to = b.table.pull_in(&movement::general_spot(&u, &g));
        let dist = b.scale.from_mm(g.base.centre.dist(to.centre));
        let left = self.allowance(&g) - g.bound.spent;
        if dist > left + 0.01 {
            return Err(RuleError::TooFar {
                unit: g.id.clone(),
                name: g.name.clone(),
                distance: dist,
                allowance: left,
                units: "inches".into(),
                why: "what is left of the general's move".into(),
            });
        }
        b.emit(
            out,
            Event::Moved {
                unit: g.id.clone(),
                from: g.base,
                to,
                distance: dist,
                allowance: self.allowance(&g),
                going: "good going, to attach".into(),
                contact: None,
                manoeuvre: None,
            },
        );
        b.emit(
            out,
            Event::Attached {
                general: general.clone(),
                unit: Some(uid.clone()),
            },
        );
        Ok(())
    }

    /// Checks a move without making it (the window calls this while dragging).
    pub fn plan(
        &self,
        b: &Battle,
        ids: &[UnitId],
        steps: &[crate::rules::command::Step],
    ) -> Result<MovePlan, RuleError> {
        let [id] = ids else {
            return Err(RuleError::Illegal(
                "Old Dessauer moves one unit at a time".into(),
            ));
        };
        movement::plan(self, b, id, steps).map(|p| p.plan)
    }

    /// Checks a move of one skirmish stand (counted from 1) without making it.
    pub fn check_stand_move(
        &self,
        b: &Battle,
        id: &UnitId,
        stand: usize,
        steps: &[crate::rules::command::Step],
    ) -> Result<MovePlan, RuleError> {
        movement::plan_stand(self, b, id, stand, steps).map(|(p, _)| p.plan)
    }

    /// Factors and chances of a shooting or a combat before the dice.
    pub fn forecast(&self, b: &Battle, cmd: &Command) -> Result<Forecast, RuleError> {
        match cmd {
            Command::Fire { unit, target, .. } => shooting::outlook(self, b, unit, target),
            Command::Fight { unit, target, .. } => combat::outlook(self, b, unit, target),
            _ => Err(RuleError::Illegal("nothing to preview".into())),
        }
    }
}

/// What a shooting or combat will be: each unit's factors and the chance of each outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Forecast {
    /// One line per striking unit: name, dice, need and factors.
    pub lines: Vec<OutlookLine>,
    /// Outcomes, their probabilities and their worth to the side that strikes (see `Chance`).
    pub chances: Vec<(String, f64, f64)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OutlookLine {
    pub unit: String,
    pub target: String,
    pub dice: u32,
    pub need: u8,
    pub factors: Vec<Factor>,
    pub points: Option<(i32, i32)>,
}

impl Ruleset for OldDessauer {
    fn id(&self) -> &str {
        &self.data.id
    }
    /// Units march at their best pace until four long moves (24") from the enemy, not three:
    /// Old Dessauer's battles are short (Lobosch has six turns), and a line formed 18" out
    /// leaves too few of them to fight. Measured on Lobosch, 60 games a cell, both seats:
    /// against the random player 108, 111 and 111 of 120 won on seeds 1-60, 61-120 and
    /// 121-180 (104, 112 and 106 at three), against the straight player 100, 91 and 94 (the
    /// same at three).
    fn opponent_tuning(&self, defaults: Tuning) -> Tuning {
        Tuning {
            march: 4.0,
            ..defaults
        }
    }
    fn name(&self) -> &str {
        &self.data.name
    }
    fn measure(&self) -> Measure {
        Measure::Inches
    }
    fn unit_model(&self) -> UnitModel {
        UnitModel::Stands
    }
    fn default_mm_per_unit(&self) -> f32 {
        INCH
    }
    fn base_size(&self, troop: &str) -> Option<(f32, f32)> {
        let t = self.troop_code(troop)?;
        Some(layout::stand_size(t))
    }
    fn troop_codes(&self) -> Vec<String> {
        self.data.troops.iter().map(|t| t.code.clone()).collect()
    }
    /// Friends passed through or ended among are disordered, not refused (skirmishers freely).
    fn friends_intermix(&self) -> bool {
        true
    }
    fn shares_ground(&self, troop: &str) -> bool {
        self.troop_code(troop)
            .is_some_and(|t| matches!(t.kind, Kind::General | Kind::RegimentalGun))
    }
    fn unit_states(&self, troop: &str) -> Vec<UnitState> {
        // Shooting reads whether the firer (or its target) moved this turn.
        // Winners may be ordered to hold their ground (guns and generals never pursue).
        let _ = troop;
        vec![UnitState::Moved, UnitState::HoldGround]
    }
    fn prepare_unit(&self, u: &RawUnit) -> Result<UnitSetup, String> {
        OldDessauer::prepare_unit(self, u)
    }
    fn starting_stands(&self, u: &RawUnit, base: &Base) -> Result<Option<Vec<Base>>, String> {
        OldDessauer::starting_stands(self, u, base)
    }
    fn class_name(&self, class: Class) -> String {
        grade_name(class).to_string()
    }
    fn first_phase(&self, _units: &[Unit]) -> Phase {
        Phase::Movement
    }
    fn phases(&self) -> Vec<Phase> {
        vec![Phase::Movement, Phase::Firing, Phase::CloseCombat]
    }
    fn turn_words(&self, b: &Battle) -> TurnWords {
        OldDessauer::turn_words(self, b)
    }
    fn execute(
        &self,
        b: &mut Battle,
        cmd: &Command,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        match cmd {
            Command::EndPhase => self.end_phase(b, out),
            Command::Move { unit, steps } => movement::do_move(self, b, out, unit, steps),
            Command::MoveStand { unit, stand, steps } => {
                movement::move_stand(self, b, out, unit, *stand, steps)
            }
            Command::RecoilFurther { unit, distance } => {
                movement::recoil_further(self, b, out, unit, *distance)
            }
            Command::MoveGroup { .. } => Err(RuleError::Illegal(
                "Old Dessauer moves one unit at a time".into(),
            )),
            Command::Form {
                unit,
                formation,
                turn,
            } => movement::form(self, b, out, unit, *formation, *turn),
            Command::Limber { unit } => {
                let u = b.unit(unit)?;
                Err(RuleError::Illegal(format!(
                    "{}: once guns unlimber they may not limber up again",
                    u.name
                )))
            }
            Command::Unlimber { unit } => movement::unlimber(self, b, out, unit),
            Command::Fire { unit, target, .. } => shooting::fire(self, b, out, unit, target),
            Command::Fight {
                unit,
                target,
                pursue,
                pursuits,
            } => combat::fight(
                self,
                b,
                out,
                unit,
                target,
                &combat::Orders {
                    side: Some(b.active),
                    pursue: *pursue,
                    units: pursuits,
                },
            ),
            Command::PursuitOrder { unit, pursue } => {
                let no_choice = combat::pursuit_fixed(self, b.unit(unit)?);
                common::order_pursuit(b, out, unit, *pursue, no_choice)
            }
            Command::Attach { general, unit } => self.attach(b, out, general, Some(unit)),
            Command::Detach { general } => self.attach(b, out, general, None),
            Command::Fallback { unit, distance } => {
                movement::fallback(self, b, out, unit, *distance)
            }
            Command::Activate { .. }
            | Command::Recover { .. }
            | Command::Evade { .. }
            | Command::Declare { .. }
            | Command::Charge { .. }
            | Command::Reroll { .. }
            | Command::Send { .. } => Err(RuleError::Illegal(
                "Old Dessauer has no unit command rolls, recovered bases or evasion orders".into(),
            )),
            Command::Deploy { .. } | Command::Fortify { .. } => Err(RuleError::Illegal(
                "Old Dessauer has no formal deployment or fortifying".into(),
            )),
            Command::Undo => Err(RuleError::Illegal("undo is handled by the battle".into())),
        }
    }
    fn after_command(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.orphans(b, out);
        self.check_victory(b, out);
        Ok(())
    }
    fn check_move(&self, b: &Battle, req: &MoveRequest) -> Result<MovePlan, RuleError> {
        match (req.stand, req.units.as_slice()) {
            (Some(k), [id]) => {
                movement::plan_stand(self, b, id, k, &req.steps).map(|(p, _)| p.plan)
            }
            (None, ids) => self.plan(b, ids, &req.steps),
            _ => Err(RuleError::Illegal(
                "one stand of one unit moves alone".into(),
            )),
        }
    }
    fn may_move(&self, b: &Battle, _u: &Unit) -> bool {
        // A unit moves again while it has allowance left.
        b.phase == Phase::Movement
    }
    fn loose_stands(&self, b: &Battle, u: &Unit) -> bool {
        self.is_skirmishing(b, u)
    }
    fn target_command(&self, b: &Battle, own: &UnitId, enemy: &UnitId) -> Option<Command> {
        fire_or_fight(b, own, enemy)
    }
    fn preview(&self, b: &Battle, cmd: &Command) -> Result<Outlook, RuleError> {
        let mut o = self.forecast(b, cmd).map(OldDessauer::outlook)?;
        o.choices = combat::pursuit_choices(self, b, cmd);
        Ok(o)
    }
    fn unit_card(&self, b: &Battle, u: &Unit) -> Card {
        self.card(b, u)
    }
    fn actions(&self, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        OldDessauer::actions(self, b, u)
    }
    fn overlays(&self, b: &Battle, selected: Option<&Unit>, layers: &[Layer]) -> Vec<Mark> {
        OldDessauer::overlays(self, b, selected, layers)
    }
    fn look(&self, _b: &Battle, u: &Unit) -> Look {
        OldDessauer::look(self, u)
    }
    fn result_at_limit(&self, b: &Battle) -> (Option<Side>, String) {
        self.turn_limit_result(b)
    }
    fn reference(&self) -> Reference {
        OldDessauer::reference(self)
    }
    fn words(&self, b: &Battle, e: &Event) -> Option<String> {
        match e {
            Event::Fled { unit, .. } => {
                Some(format!("{} falls back out of reach", b.name_of(unit)))
            }
            Event::PassedThrough { unit, friend } => Some(format!(
                "{} passes through {}, which stands still for the rest of the turn",
                b.name_of(unit),
                b.name_of(friend)
            )),
            Event::FrontalCharge { unit, on } => Some(if *on {
                format!(
                    "{} did not begin the turn behind its enemy's flank: its attack counts as frontal",
                    b.name_of(unit)
                )
            } else {
                format!(
                    "{} no longer holds a frontal attack on a flank",
                    b.name_of(unit)
                )
            }),
            _ => None,
        }
    }
    fn optional_rules(&self) -> Vec<(String, String)> {
        self.data
            .options
            .iter()
            .map(|o| (o.key.clone(), o.name.clone()))
            .collect()
    }
    fn options(&self) -> &[String] {
        &self.options
    }
    fn set_options(&mut self, options: &[String]) -> Result<(), String> {
        self.choose_options(options)
    }
    fn rulings(&self) -> &[Ruling] {
        &self.data.rulings
    }
}

/// Two units' bases touch: an L by the stands of its arms, any other unit by its base.
pub fn touching(u: &Unit, e: &Unit) -> bool {
    let eps = crate::rules::geometry::CONTACT_EPS;
    layout::arms(u)
        .iter()
        .any(|a| layout::arms(e).iter().any(|x| a.within(x, eps)))
}

/// The events of the active side's turn so far (those of the command being resolved aside).
pub(crate) fn this_turn(b: &Battle) -> crate::rules::log::Events<'_> {
    let began = b
        .log
        .iter()
        .rposition(|e| {
            matches!(e, Event::PhaseBegan { turn, phase: Phase::Movement, side }
                if *turn == b.turn && *side == b.active)
        })
        .unwrap_or(0);
    b.log.since(began)
}

pub(crate) use super::common::{illegal, in_phase};

/// The point of `u`'s stands nearest `p`: an L by its arms' stands.
pub fn nearest_stand_point(u: &Unit, p: Pt) -> Pt {
    u.shapes()
        .iter()
        .map(|s| nearest_point(s, p))
        .min_by(|a, c| a.dist(p).total_cmp(&c.dist(p)))
        .unwrap_or_else(|| nearest_point(&u.base, p))
}

/// The point of `base` nearest to `p`.
pub fn nearest_point(base: &Base, p: Pt) -> Pt {
    let d = p.minus(base.centre);
    let x = d
        .dot(base.right())
        .clamp(-base.width / 2.0, base.width / 2.0);
    let y = d
        .dot(base.forward())
        .clamp(-base.depth / 2.0, base.depth / 2.0);
    base.local(x, y)
}
