//! The DBN-family game shared by DB7YW and DBFPW: the bound, measured moves, firing and close
//! combat as opposed rolls with their factors, support, results, pursuit and the window's view.
//! Each supplement (`Supplement`) gives only what its playsheets make different: its factors,
//! its results tables, its movement restrictions and its special rules.

use super::common::{MovePlan, chance, fire_or_fight, manoeuvre_words, own_active};
use super::dbn::{Dbn, FirstDie, TroopKind, TroopTrait};
use super::view::{
    ActionGroup, Card, Choice, Deployment, Layer, Look, Mark, Measure, MoveRequest, Outlook,
    OutlookPart, Reference, Roll, TurnWords, UnitModel,
};
use super::{Ruleset, Ruling, UnitSetup, UnitState};
use crate::rules::battle::{Battle, Objective, Zone};
use crate::rules::command::{
    Command, Effect, Event, Factor, Pursuit, RuleError, Score, Step, Verdict, factor_sum,
};
use crate::rules::geometry::{Edge, Pt};
use crate::rules::model::{Class, Flag, Formation, Phase, Side, SideInfo, Unit, UnitId};
use crate::rules::odds::{Odds, Quirks};
use crate::rules::scenario::RawUnit;
use crate::rules::terrain::Terrain;

/// A checked firing or close combat before the dice: both units and their factors.
#[derive(Clone, Debug)]
pub struct Setup {
    pub a: Unit,
    pub b: Unit,
    pub a_factors: Vec<Factor>,
    pub b_factors: Vec<Factor>,
    /// Counter-battery fire: either side may suffer the result.
    pub mutual: bool,
    /// First dice to throw before the opposed dice (the mitrailleuse's).
    pub first: Vec<FirstThrow>,
    /// Firing: the target fires back (it could fire at the firer).
    pub responding: bool,
    /// Firing: the target's friends supporting its defence.
    pub defence: Vec<UnitId>,
}

/// One first die to throw before the opposed dice: whose, which side of the setup it is on
/// (a: true), at long range or not, and whether the unit throws it as a supporter.
#[derive(Clone, Debug)]
pub struct FirstThrow {
    pub unit: UnitId,
    pub side_a: bool,
    pub die: FirstDie,
    pub long: bool,
    /// A supporter's die: failing, it gives no fire support (the other side loses that
    /// unit's -1) instead of scoring the failure's factor itself.
    pub supports: bool,
}

impl FirstThrow {
    /// The faces on which it fails: stoppages, and unplotted shots at long range.
    pub fn fails(&self) -> u8 {
        if self.long {
            self.die.long_fail_max
        } else {
            self.die.fail_max
        }
    }
}

/// A roll about to be made: the setup and the exact odds of each outcome. In firing that is
/// not counter-battery, "b wins" means the fire has no effect.
#[derive(Clone, Debug)]
pub struct Preview {
    pub setup: Setup,
    pub odds: Odds,
    pub firing: bool,
}

/// What the log calls a first die (the mitrailleuse's).
const FIRST_DIE: &str = "its first die";

/// The unit threw a first die this phase and it failed (a stoppage, or a shot it could not
/// plot): it cannot support fire this phase.
fn first_die_failed_this_phase(b: &Battle, id: &UnitId) -> bool {
    b.log
        .iter()
        .rev()
        .take_while(|e| !matches!(e, Event::PhaseBegan { .. }))
        .any(|e| {
            matches!(e, Event::Rolled { what, roll }
                if what == FIRST_DIE
                    && roll.unit.as_ref() == Some(id)
                    && roll.need.zip(roll.dice.first()).is_some_and(|(n, d)| i32::from(*d) < n))
        })
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

/// Who orders each victor's pursuit after a close combat: the side that gave the Fight command
/// for its own units (`pursue`), an order in `each` for a unit of either side (its owner's
/// choice, as for the defender's fire support), else each unit's standing order, given by its
/// owner (`Command::PursuitOrder`); no one pursues from a combat left unfought.
#[derive(Clone, Copy, Debug)]
struct PursuitOrders<'a> {
    /// The side that gave the Fight command; None for combats left unfought.
    side: Option<Side>,
    pursue: Option<bool>,
    each: &'a [Pursuit],
}

impl PursuitOrders<'_> {
    /// Whether the victor `w`, free to choose, pursues: by its own order; by its side's
    /// choice when its side gave the command (else its standing order); by its standing order
    /// for the other side's victor, whose owner gave it before the dice; no one pursues from a
    /// combat nobody fought.
    fn wants(&self, w: &Unit) -> bool {
        if let Some(p) = self.each.iter().find(|p| p.unit == w.id) {
            return p.pursue;
        }
        let standing = !w.status.hold_ground;
        match self.side {
            Some(s) if s == w.side => self.pursue.unwrap_or(standing),
            Some(_) => standing,
            None => false,
        }
    }
}

/// Whether a victorious unit follows up its beaten enemy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Follow {
    Never,
    May,
    Must,
}

/// What a DBN supplement makes its own. Every procedure the supplements share lives in
/// `DbnGame`; a supplement answers only these questions.
pub trait Supplement: Clone + Default + std::fmt::Debug + Send + Sync + Sized + 'static {
    /// The supplement's data file.
    const DATA: &'static str;
    /// Its optional rules: key and what it does.
    const OPTIONS: &'static [(&'static str, &'static str)] = &[];

    /// The name of a class in the supplement's words.
    fn class_name(&self, class: Class) -> String {
        format!("{class:?}")
    }
    /// The states beyond the engine's that a scenario may set for a unit of this troop type.
    fn unit_states(&self, g: &DbnGame<Self>, troop: &str) -> Vec<UnitState> {
        let _ = (g, troop);
        Vec::new()
    }
    /// The firing factors of `u` when it fires at (or is fired at by) `other`.
    fn fire_factors(
        &self,
        g: &DbnGame<Self>,
        b: &Battle,
        u: &Unit,
        other: &Unit,
        role: FireRole,
        enemy_supporters: usize,
    ) -> Vec<Factor>;
    /// Whether `u` holds ground an enemy outside it attacks: a garrison or a unit in a
    /// fortification. Such a unit defends in every close combat against an enemy that does
    /// not hold ground too, whoever's bound it is.
    fn holds_ground(&self, g: &DbnGame<Self>, b: &Battle, u: &Unit) -> bool {
        g.dbn.is_garrison(b, u) || g.dbn.in_fortification(b, u)
    }
    /// The close combat factors of `u` fighting `e`; `is_attacker` for the unit attacking in
    /// this combat: the one not holding ground against an enemy that does, else the moving
    /// side's unit (`DbnGame::attacks`).
    fn combat_factors(
        &self,
        g: &DbnGame<Self>,
        b: &Battle,
        u: &Unit,
        e: &Unit,
        is_attacker: bool,
    ) -> Vec<Factor>;
    /// The firing result for the loser.
    fn firing_effect(
        &self,
        g: &DbnGame<Self>,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect;
    /// The close combat result for the loser (or for each side on a draw).
    fn combat_effect(
        &self,
        g: &DbnGame<Self>,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect;
    /// What a side does with a close result: stoic, or beaten on a draw.
    fn quirks(
        &self,
        g: &DbnGame<Self>,
        b: &Battle,
        u: &Unit,
        other: &Unit,
        kind: Combat,
    ) -> Quirks {
        let _ = (g, b, u, other, kind);
        Quirks::default()
    }
    /// Whether the unit may move again after moving this bound.
    fn may_move_again(&self, g: &DbnGame<Self>, b: &Battle, u: &Unit) -> Result<(), RuleError> {
        let _ = (g, b);
        Err(RuleError::AlreadyActed {
            unit: u.id.clone(),
            what: "moved".into(),
        })
    }
    /// Movement restrictions before the move is measured: returns whether it is measured
    /// against the allowance at all (a DB7YW Musket wheel instead of moving is not).
    fn before_move(
        &self,
        g: &DbnGame<Self>,
        b: &Battle,
        ids: &[UnitId],
        body: &[Step],
        charge: Option<&UnitId>,
    ) -> Result<bool, RuleError> {
        let _ = (g, b, ids, body, charge);
        Ok(true)
    }
    /// Movement restrictions on the measured plan.
    fn check_plan(
        &self,
        g: &DbnGame<Self>,
        b: &Battle,
        ids: &[UnitId],
        body: &[Step],
        plan: &MovePlan,
    ) -> Result<(), RuleError> {
        let _ = (g, b, ids, body, plan);
        Ok(())
    }
    /// Who may end a move in a town or village: the engine's rule unless the supplement has
    /// its own.
    fn check_occupation(
        &self,
        g: &DbnGame<Self>,
        b: &Battle,
        u: &Unit,
        end: &crate::rules::geometry::Base,
    ) -> Result<(), RuleError> {
        g.dbn.check_occupation(b, u, end)
    }
    /// Whether a victor pursues only where it may end a move (`check_occupation`): a pursuit
    /// that would end in a town or village it may not stop in is not made.
    fn pursuit_keeps_to_occupation(&self) -> bool {
        false
    }
    /// After a unit moved (resupply by reaching a supplier).
    fn after_move(
        &self,
        g: &DbnGame<Self>,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        let _ = (g, b, out, id);
        Ok(())
    }
    /// After a unit fired with this die (ammunition); None for fire support, which throws
    /// no firing die.
    fn after_fire(
        &self,
        g: &DbnGame<Self>,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        die: Option<u8>,
    ) -> Result<(), RuleError> {
        let _ = (g, b, out, id, die);
        Ok(())
    }
    /// After a unit was destroyed by a result (DB7YW's routing tests).
    fn after_destroyed(
        &self,
        g: &DbnGame<Self>,
        b: &mut Battle,
        out: &mut Vec<Event>,
        dead: &UnitId,
    ) -> Result<(), RuleError> {
        let _ = (g, b, out, dead);
        Ok(())
    }
    /// Whether the victor follows a recoiling enemy (`destroyed` false) or advances into the
    /// space of a destroyed one.
    fn follow(&self, g: &DbnGame<Self>, w: &Unit, destroyed: bool) -> Follow;
    /// Factors added to the command roll (optional rules).
    fn command_factors(&self, g: &DbnGame<Self>, b: &Battle) -> Vec<Factor> {
        let _ = (g, b);
        Vec::new()
    }
    /// At the start of the active side's bound, after the command roll (resupply).
    fn start_bound(
        &self,
        g: &DbnGame<Self>,
        b: &mut Battle,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let _ = (g, b, out);
        Ok(())
    }
    /// A change of formation (dismounting).
    fn form(
        &self,
        g: &DbnGame<Self>,
        b: &mut Battle,
        out: &mut Vec<Event>,
        unit: &UnitId,
        formation: Formation,
    ) -> Result<(), RuleError> {
        let _ = (g, b, out, unit, formation);
        Err(RuleError::Illegal(
            "units of this ruleset have no formations to change".into(),
        ))
    }
    /// Fortifying a town or village before the battle.
    fn fortify(
        &self,
        g: &DbnGame<Self>,
        b: &mut Battle,
        out: &mut Vec<Event>,
        feature: &str,
    ) -> Result<(), RuleError> {
        g.dbn.fortify(b, out, feature)
    }
    fn validate_army(
        &self,
        g: &DbnGame<Self>,
        units: &[&Unit],
        side: &SideInfo,
        terrain: &Terrain,
    ) -> Vec<String>;
    fn check_deployment(
        &self,
        g: &DbnGame<Self>,
        zones: &[Zone],
        objective: Option<&Objective>,
        sides: &[SideInfo],
        mm_per_unit: f32,
    ) -> Vec<String> {
        let _ = (g, zones, objective, sides, mm_per_unit);
        Vec::new()
    }
    /// The friend a supplier should carry packs to, and how near (`Ruleset::supplies`).
    fn supplies(&self, g: &DbnGame<Self>, b: &Battle, u: &Unit) -> Option<(UnitId, f32)> {
        let _ = (g, b, u);
        None
    }
    /// A formation to take before charging `e` (`Ruleset::attack_formation`).
    fn attack_formation(
        &self,
        g: &DbnGame<Self>,
        b: &Battle,
        u: &Unit,
        e: &Unit,
    ) -> Option<Formation> {
        let _ = (g, b, u, e);
        None
    }
    /// Lines the unit card adds (ammunition, packs).
    fn card_lines(&self, g: &DbnGame<Self>, b: &Battle, u: &Unit) -> Vec<String> {
        let _ = (g, b, u);
        Vec::new()
    }
    /// Buttons the unit adds (dismount, mount).
    fn actions(&self, g: &DbnGame<Self>, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        let _ = (g, b, u);
        Vec::new()
    }
    /// Checks a scenario unit beyond the engine's checks and gives its starting packs.
    fn prepare(&self, g: &DbnGame<Self>, u: &RawUnit, packs: &mut u32) -> Result<(), String> {
        prepare_plain(g, u, packs)
    }
    /// A scenario claiming the standard table, checked.
    fn check_standard(
        &self,
        g: &DbnGame<Self>,
        table_mm: (f32, f32),
        terrain: &Terrain,
        units: &[Unit],
        zones: &[Zone],
        mm_per_unit: f32,
    ) -> Vec<String> {
        let _ = (table_mm, terrain, units, zones, mm_per_unit);
        vec![format!("{} has no standard table to claim", g.dbn.data.id)]
    }
    /// The supplement's own words for an event (mounting, ammunition).
    fn words(&self, g: &DbnGame<Self>, b: &Battle, e: &Event) -> Option<String> {
        let _ = (g, b, e);
        None
    }
    /// Markers on the unit's base (LOW, OUT).
    fn markers(&self, g: &DbnGame<Self>, u: &Unit) -> Vec<String> {
        let _ = (g, u);
        Vec::new()
    }
}

/// A DBN-family ruleset: the engine, its data and the supplement's own rules.
#[derive(Clone, Debug)]
pub struct DbnGame<S> {
    pub dbn: Dbn,
    /// The optional rules in use.
    pub options: Vec<String>,
    pub sup: S,
}

/// A supplement's unit checked as the engine's DBN has it: no packs, and only the flags DBN
/// knows (Guard, Grenadier, Stoic, Fixed).
pub fn prepare_plain<S: Supplement>(
    g: &DbnGame<S>,
    u: &RawUnit,
    packs: &mut u32,
) -> Result<(), String> {
    let _ = packs;
    if u.packs.is_some() {
        return Err(format!(
            "unit '{}': 'packs' does not apply to {}",
            u.id, g.dbn.data.id
        ));
    }
    use crate::rules::model::Flag;
    if let Some(f) = u
        .flags
        .iter()
        .find(|f| !matches!(f, Flag::Guard | Flag::Grenadier | Flag::Stoic | Flag::Fixed))
    {
        return Err(format!(
            "unit '{}': the flag {f:?} means nothing in {} (Guard, Grenadier, Stoic, Fixed)",
            u.id, g.dbn.data.id
        ));
    }
    Ok(())
}

impl<S: Supplement> DbnGame<S> {
    pub fn load() -> Result<Self, String> {
        Ok(DbnGame {
            dbn: Dbn::from_ron(S::DATA)?,
            options: Vec::new(),
            sup: S::default(),
        })
    }

    pub fn has_option(&self, key: &str) -> bool {
        self.options.iter().any(|o| o == key)
    }

    /// The unit's basic combat factor from the troop table.
    pub fn troop_factor(&self, u: &Unit) -> Factor {
        let t = self.dbn.troop_of(u);
        Factor {
            name: t.name.clone(),
            value: t.combat,
            source: t.source.clone(),
        }
    }

    /// A count of hits from the results tables.
    pub fn hits(&self, key: &str) -> u32 {
        self.dbn.num(key) as u32
    }

    /// Decides an opposed roll for `a` against `b`: who lost, and how.
    pub fn verdict(a: i32, b: i32) -> (Option<bool>, Verdict) {
        crate::rules::odds::verdict(a, b)
    }

    /// The firing factors of `u` (the supplement's).
    pub fn fire_factors(
        &self,
        b: &Battle,
        u: &Unit,
        other: &Unit,
        role: FireRole,
        enemy_supporters: usize,
    ) -> Vec<Factor> {
        self.sup
            .fire_factors(self, b, u, other, role, enemy_supporters)
    }

    /// Each "enemy unit providing fire support" factor names its unit, in the order given.
    fn name_supporters(&self, b: &Battle, fs: &mut [Factor], supporters: &[UnitId]) {
        let generic = self.dbn.fire_factor("enemy_support");
        let mut names = supporters
            .iter()
            .filter_map(|id| b.unit(id).ok().map(|u| u.name.clone()));
        for f in fs.iter_mut().filter(|f| f.name == generic.name) {
            if let Some(n) = names.next() {
                f.name = format!("{} ({n})", generic.name);
            }
        }
    }

    /// The close combat factors of `u` (the supplement's).
    pub fn combat_factors(&self, b: &Battle, u: &Unit, e: &Unit, is_attacker: bool) -> Vec<Factor> {
        self.sup.combat_factors(self, b, u, e, is_attacker)
    }

    /// The firing result for the loser (the supplement's table).
    pub fn firing_effect(
        &self,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        self.sup.firing_effect(self, b, loser, winner, verdict)
    }

    /// The close combat result for the loser (the supplement's table).
    pub fn combat_effect(
        &self,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        self.sup.combat_effect(self, b, loser, winner, verdict)
    }

    /// The factor a failed first die costs.
    fn first_die_factor(&self) -> Factor {
        self.dbn.fire_factor("first_die_failed")
    }

    /// The factors and exact odds of a Fire or Fight command, before any die is thrown; a first
    /// die (the mitrailleuse's) is folded into the odds.
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
        let qa = self.quirks_of(b, &setup, true, kind);
        let qb = self.quirks_of(b, &setup, false, kind);
        let (sa, sb) = (factor_sum(&setup.a_factors), factor_sum(&setup.b_factors));
        // Each first die fails with its own chance; enumerate the failures.
        let mut cases: Vec<(f64, i32, i32)> = vec![(1.0, sa, sb)];
        for t in &setup.first {
            let fail = f64::from(t.fails()) / 6.0;
            let (own, other) = self.first_die_change(t);
            cases = cases
                .into_iter()
                .flat_map(|(w, x, y)| {
                    let (fx, fy) = if t.side_a {
                        (x + own, y + other)
                    } else {
                        (x + other, y + own)
                    };
                    [(w * fail, fx, fy), (w * (1.0 - fail), x, y)]
                })
                .filter(|c| c.0 > 0.0)
                .collect();
        }
        let mixed: Vec<(f64, Odds)> = cases
            .into_iter()
            .map(|(w, x, y)| (w, crate::rules::odds::opposed_with(x, y, qa, qb)))
            .collect();
        Ok(Preview {
            setup,
            odds: Odds::mix(&mixed),
            firing: kind == Combat::Firing,
        })
    }

    /// The quirks of side a (`first`) or b of a setup. In firing other than counter-battery
    /// only the target can be beaten, so only it can be stoic.
    fn quirks_of(&self, b: &Battle, s: &Setup, first: bool, kind: Combat) -> Quirks {
        let (u, o) = if first { (&s.a, &s.b) } else { (&s.b, &s.a) };
        let mut q = self.sup.quirks(self, b, u, o, kind);
        if first && kind == Combat::Firing && !s.mutual {
            q.stoic = false;
        }
        q
    }

    /// What a failed first die changes: (its own side's score, the other side's score). Its
    /// own failure costs the data's factor; a supporter's failure takes its -1 from the other
    /// side.
    fn first_die_change(&self, t: &FirstThrow) -> (i32, i32) {
        if t.supports {
            (0, -self.dbn.fire_factor("enemy_support").value)
        } else {
            (self.first_die_factor().value, 0)
        }
    }

    /// Throws the first dice of a setup: a failed die adds its factor to its side, or for a
    /// supporter takes its fire support away.
    fn throw_first_dice(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        setup: &mut Setup,
    ) -> Result<(), RuleError> {
        let close = b.phase == Phase::CloseCombat;
        let pen = self.first_die_factor().value;
        for t in setup.first.clone() {
            let die = b.d6()?;
            let fd = t.die;
            let stoppage = die <= fd.fail_max;
            let unplotted = !stoppage && t.long && die <= fd.long_fail_max;
            let (side, name) = b
                .unit(&t.unit)
                .map(|u| (u.side, u.name.clone()))
                .unwrap_or_default();
            let outcome = match (close, t.supports, stoppage, unplotted) {
                (true, _, true, _) => format!("stoppage: {pen:+}"),
                (true, _, false, _) => "no stoppage".to_string(),
                (false, true, true, _) => "stoppage: gives no fire support this phase".to_string(),
                (false, true, _, true) => {
                    "cannot plot the shot at long range: gives no fire support this phase".into()
                }
                (false, false, true, _) => {
                    format!("stoppage: {pen:+} and no fire support this phase")
                }
                (false, false, _, true) => format!(
                    "cannot plot the shot at long range: {pen:+} and no fire support this phase"
                ),
                (false, _, false, false) => "fires normally".to_string(),
            };
            b.emit(
                out,
                Event::Rolled {
                    what: FIRST_DIE.into(),
                    roll: Roll {
                        unit: Some(t.unit.clone()),
                        side: Some(side),
                        dice: vec![die],
                        factors: Vec::new(),
                        total: die as i32,
                        against: None,
                        need: Some(i32::from(t.fails()) + 1),
                        outcome,
                        first_die: None,
                        dice_at: Vec::new(),
                    },
                },
            );
            if !(stoppage || unplotted) {
                continue;
            }
            let (own, other) = if t.side_a {
                (&mut setup.a_factors, &mut setup.b_factors)
            } else {
                (&mut setup.b_factors, &mut setup.a_factors)
            };
            if t.supports {
                // The supporter's -1 on the other side, named for it, is withdrawn.
                let generic = self.dbn.fire_factor("enemy_support").name;
                let named = format!("{generic} ({name})");
                if let Some(i) = other.iter().position(|f| f.name == named) {
                    other.remove(i);
                }
            } else {
                own.push(self.first_die_factor());
            }
        }
        Ok(())
    }

    /// The first dice a firing or close combat throws: each unit of a type that throws one,
    /// when it fires (the target too when it fires back, `responding`) or fights.
    fn first_dice(
        &self,
        b: &Battle,
        a: &Unit,
        t: &Unit,
        responding: Option<bool>,
    ) -> Vec<FirstThrow> {
        let d = &self.dbn;
        let long = |u: &Unit, o: &Unit| {
            let dist = b.scale.from_mm(u.base.front_edge_distance(&o.base));
            d.range(u).is_some_and(|r| dist > r + 0.5)
        };
        let throw = |u: &Unit, side_a: bool, long: bool| {
            d.first_die(u).map(|die| FirstThrow {
                unit: u.id.clone(),
                side_a,
                die,
                long,
                supports: false,
            })
        };
        let mut v = Vec::new();
        match responding {
            // Firing: the firer, and the target when it fires back.
            Some(r) => {
                v.extend(throw(a, true, long(a, t)));
                if r {
                    v.extend(throw(t, false, long(t, a)));
                }
            }
            // Close combat: a stoppage only, never "cannot plot".
            None => {
                v.extend(throw(a, true, false));
                v.extend(throw(t, false, false));
            }
        }
        v
    }

    /// The first dice of supporters in a firing: each friend of a type that throws one,
    /// supporting side a (the firer, `side_a`) or side b against `enemy`.
    fn support_first_dice(
        &self,
        b: &Battle,
        supporters: &[UnitId],
        side_a: bool,
        enemy: &Unit,
    ) -> Vec<FirstThrow> {
        let d = &self.dbn;
        supporters
            .iter()
            .filter_map(|id| b.unit(id).ok())
            .filter_map(|u| {
                let dist = b.scale.from_mm(u.base.front_edge_distance(&enemy.base));
                d.first_die(u).map(|die| FirstThrow {
                    unit: u.id.clone(),
                    side_a,
                    die,
                    long: d.range(u).is_some_and(|r| dist > r + 0.5),
                    supports: true,
                })
            })
            .collect()
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
                self.sup.may_move_again(self, b, u)?;
            }
            if d.in_close_combat(b, u) {
                return Err(RuleError::Illegal(format!(
                    "{} is in close combat and cannot move",
                    u.name
                )));
            }
            if d.kind(u) == TroopKind::Baggage && d.troop_of(u).gg.unwrap_or(0.0) <= 0.0 {
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
            if d.is_artillery(u) && !d.has_trait(u, TroopTrait::MoveAndFire) {
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
        let measured = self.sup.before_move(self, b, ids, body, charge)?;
        let mut plan = d.plan_move(b, ids, body, charge, measured)?;
        self.sup.check_plan(self, b, ids, body, &plan)?;
        if plan.contact.is_some() && d.is_commander(lead) {
            return Err(RuleError::Illegal("commanders do not charge".into()));
        }
        for (id, end) in &plan.ends {
            self.sup.check_occupation(self, b, b.unit(id)?, end)?;
        }
        if pivot_only {
            plan.cost = d.num("fa_pivot_cost") as i32;
        }
        if !measured || pivot_only {
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
        let names: Vec<String> = ids.iter().map(|i| b.name_of(i)).collect();
        self.dbn.spend(
            b,
            out,
            plan.cost,
            format!("move {}", names.join(", ")),
            Dbn::paying_division(b, ids),
        )?;
        // Every unit of a group that ends with its front against an enemy has charged it.
        let contacts = self
            .dbn
            .member_contacts(b, &plan.ends, plan.contact.as_ref());
        for (((id, to), (_, from)), contact) in
            plan.ends.iter().zip(plan.starts.iter()).zip(contacts)
        {
            let contact = contact.map(|c| c.0);
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
        for id in ids {
            self.sup.after_move(self, b, out, id)?;
        }
        Ok(())
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
        if first_die_failed_this_phase(b, &friend.id) {
            return Err(RuleError::Illegal(format!(
                "{} failed its first die this phase and cannot support fire",
                friend.name
            )));
        }
        // A type that throws a first die (the mitrailleuse) is no gun for support: the
        // supplement's note gives it fire support, lost only by a failed first die.
        let gun = |u: &Unit| d.is_artillery(u) && !d.has_trait(u, TroopTrait::FirstDie);
        if gun(friend) && gun(shooter) {
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
            // Beaten by double destroys most troops; beaten recoils or (against some) destroys.
            chance(format!("{bn} beaten by double"), o.a_wins_by_double, 0.9),
            chance(format!("{bn} beaten"), o.a_wins, 0.4),
            chance("Draw", o.draw, 0.0),
        ];
        if p.firing && !p.setup.mutual {
            chances.push(chance(
                format!("No effect ({a} outscored)"),
                o.b_wins + o.b_wins_by_double,
                0.0,
            ));
        } else {
            chances.push(chance(format!("{a} beaten"), o.b_wins, -0.4));
            chances.push(chance(
                format!("{a} beaten by double"),
                o.b_wins_by_double,
                -0.9,
            ));
        }
        let pen = self.first_die_factor().value;
        let close = !p.firing;
        let notes = p
            .setup
            .first
            .iter()
            .map(|t| {
                let (fd, long) = (&t.die, &t.long);
                let name = b.name_of(&t.unit);
                let fails = t.fails();
                let plot = if *long && fd.long_fail_max > fd.fail_max {
                    format!(
                        ", {}-{} cannot plot the shot at long range",
                        fd.fail_max + 1,
                        fd.long_fail_max
                    )
                } else {
                    String::new()
                };
                let stop = match fd.fail_max {
                    1 => "1".to_string(),
                    n => format!("1-{n}"),
                };
                let cost = if close {
                    format!("it scores {pen:+}")
                } else if t.supports {
                    "its fire support is lost".to_string()
                } else {
                    format!("it scores {pen:+} and gives no fire support")
                };
                format!(
                    "{name} throws a first die: {stop} is a stoppage{plot}. On {fails} face(s) in 6 {cost}; the chances below include it."
                )
            })
            .collect();
        Ok(Outlook {
            parts: vec![
                part(&p.setup.a, &p.setup.a_factors),
                part(&p.setup.b, &p.setup.b_factors),
            ],
            opposed: true,
            notes,
            chances,
            choices: self.choices(b, cmd, &p.setup),
        })
    }

    /// Why the rules leave `u` no pursuit to choose (it must pursue, or never does, whether its
    /// enemy is beaten or destroyed), or None where its owner chooses.
    fn pursuit_fixed(&self, u: &Unit) -> Option<String> {
        let beaten = self.sup.follow(self, u, false);
        let destroyed = self.sup.follow(self, u, true);
        if beaten == Follow::May || destroyed == Follow::May {
            return None;
        }
        Some(if beaten == Follow::Must {
            format!("{} must pursue: its rules leave no choice", u.name)
        } else {
            format!("{} never pursues: its rules leave no choice", u.name)
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
                pursuits,
            } => {
                let on = pursue.unwrap_or(!setup.a.status.hold_ground);
                vec![Choice {
                    label: "Pursue if victorious (Heavy Cavalry always do, artillery never)".into(),
                    on,
                    flipped: Command::Fight {
                        unit: unit.clone(),
                        target: target.clone(),
                        pursue: Some(!on),
                        pursuits: pursuits.clone(),
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
        let mut first = self.first_dice(b, &shooter, &target, Some(responding));
        first.extend(self.support_first_dice(b, support, true, &target));
        first.extend(self.support_first_dice(b, &def_support, false, &shooter));
        let (mut sf, mut tf) = (sf, tf);
        self.name_supporters(b, &mut sf, &def_support);
        self.name_supporters(b, &mut tf, support);
        Ok(Setup {
            a: shooter,
            b: target,
            a_factors: sf,
            b_factors: tf,
            mutual,
            first,
            responding,
            defence: def_support,
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
        let mut setup = self.fire_setup(b, sid, tid, support, defence)?;
        self.throw_first_dice(b, out, &mut setup)?;
        let qa = self.quirks_of(b, &setup, true, Combat::Firing);
        let qb = self.quirks_of(b, &setup, false, Combat::Firing);
        let Setup {
            a: shooter,
            b: target,
            a_factors: sf,
            b_factors: tf,
            mutual,
            responding,
            defence,
            ..
        } = setup;
        let sdie = b.d6()?;
        let tdie = b.d6()?;
        let ss = Score::new(sid, sdie, sf);
        let ts = Score::new(tid, tdie, tf);
        let (shooter_won, mut verdict, stoic) =
            crate::rules::odds::decide(ss.total, ts.total, qa, qb);
        let loser = match shooter_won {
            Some(true) => Some(target.clone()),
            Some(false) if mutual => Some(shooter.clone()),
            _ => None,
        };
        if shooter_won == Some(false) && !mutual {
            verdict = Verdict::Outscored;
        }
        let effect = match &loser {
            Some(l) => {
                let w = if l.id == target.id { &shooter } else { &target };
                self.firing_effect(b, l, w, verdict)
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
        // Each unit that fired spends its round: the firer and a target firing back with
        // their dice; supporters with none (a supporter whose first die failed gave none).
        self.sup.after_fire(self, b, out, sid, Some(sdie))?;
        if responding {
            self.sup.after_fire(self, b, out, tid, Some(tdie))?;
        }
        for s in support.iter().chain(&defence) {
            if !first_die_failed_this_phase(b, s) {
                self.sup.after_fire(self, b, out, s, None)?;
            }
        }
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
            self.sup.after_destroyed(self, b, out, &dead)?;
        }
        Ok(())
    }

    /// Whether the moving side's `a` is the attacker in its close combat with `e`: a unit
    /// holding ground (a garrison, a fortification) defends in every bound against one that
    /// does not; otherwise the moving side attacks.
    pub fn attacks(&self, b: &Battle, a: &Unit, e: &Unit) -> bool {
        let (ha, he) = (
            self.sup.holds_ground(self, b, a),
            self.sup.holds_ground(self, b, e),
        );
        !ha || he
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
        let a_attacks = self.attacks(b, &a, &e);
        let af = self.combat_factors(b, &a, &e, a_attacks);
        let ef = self.combat_factors(b, &e, &a, !a_attacks);
        let first = self.first_dice(b, &a, &e, None);
        Ok(Setup {
            a,
            b: e,
            a_factors: af,
            b_factors: ef,
            mutual: false,
            first,
            responding: false,
            defence: Vec::new(),
        })
    }

    fn fight(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        aid: &UnitId,
        did: &UnitId,
        orders: PursuitOrders<'_>,
        extra: bool,
    ) -> Result<(), RuleError> {
        let d = &self.dbn;
        if let Ok(e) = b.unit(did)
            && d.has_trait(e, TroopTrait::Divisional)
        {
            return self.fight_divisional(b, out, aid, did);
        }
        let mut setup = self.fight_setup(b, aid, did, extra)?;
        self.throw_first_dice(b, out, &mut setup)?;
        let qa = self.quirks_of(b, &setup, true, Combat::Close);
        let qb = self.quirks_of(b, &setup, false, Combat::Close);
        let Setup {
            a,
            b: e,
            a_factors: af,
            b_factors: ef,
            ..
        } = setup;
        let adie = b.d6()?;
        let edie = b.d6()?;
        let as_ = Score::new(aid, adie, af);
        let es = Score::new(did, edie, ef);
        let (a_won, verdict, stoic) = crate::rules::odds::decide(as_.total, es.total, qa, qb);
        let loser = a_won.map(|w| if w { e.clone() } else { a.clone() });
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
        if !w.alive() {
            return Ok(());
        }
        // "All victorious units ... can immediately Pursue": each victor by its own owner's
        // choice.
        let wants = |f: Follow| match f {
            Follow::Never => false,
            Follow::May => orders.wants(&w),
            Follow::Must => true,
        };
        let follow = if lnow.alive() {
            let moved_back = lnow.base != l.base;
            moved_back && wants(self.sup.follow(self, &w, false))
        } else {
            wants(self.sup.follow(self, &w, true))
        };
        if !follow {
            return Ok(());
        }
        // A pursuit that would end where the victor may not stop (where the supplement says
        // so) is not made.
        if self.sup.pursuit_keeps_to_occupation()
            && d.follow_up_end(b, &w)
                .is_some_and(|(to, _)| self.sup.check_occupation(self, b, &w, &to).is_err())
        {
            return Ok(());
        }
        let recoiled = lnow.alive().then_some(&l.id);
        let hit = d.follow_up(b, out, &w.id, recoiled)?;
        if let Some(h) = hit {
            // Pursuing cavalry that makes contact fights once more at once, once per phase.
            if d.is_mounted(&w) && !extra {
                return self.fight(b, out, &w.id, &h, orders, true);
            }
        }
        Ok(())
    }

    /// A divisional commander attacked in close combat throws one die alone: low it flees,
    /// high it is destroyed; the attacker's factors do not count.
    fn fight_divisional(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        aid: &UnitId,
        did: &UnitId,
    ) -> Result<(), RuleError> {
        let d = &self.dbn;
        // The same checks as any close combat (phase, side, contact, order, fought); the
        // factors are not used.
        let Setup { a, b: g, .. } = self.fight_setup(b, aid, did, false)?;
        let die = b.d6()?;
        let flee_max = d.num("dsc_flee_max") as u8;
        let flees = die <= flee_max;
        b.emit(
            out,
            Event::Rolled {
                what: format!(
                    "{} attacked by {}: the divisional commander's die",
                    g.name, a.name
                ),
                roll: Roll {
                    unit: Some(did.clone()),
                    side: Some(g.side),
                    dice: vec![die],
                    factors: Vec::new(),
                    total: die as i32,
                    against: None,
                    need: Some(i32::from(flee_max) + 1),
                    outcome: if flees {
                        format!("flees {:.0} {}", d.num("flee_distance"), b.scale.unit)
                    } else {
                        "destroyed".into()
                    },
                    first_die: None,
                    dice_at: Vec::new(),
                },
            },
        );
        let effect = if flees {
            Effect::Flee { hits: 0 }
        } else {
            Effect::Destroyed
        };
        self.apply_effect(b, out, did, &effect, aid)
    }

    fn end_phase(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let d = &self.dbn;
        match b.phase {
            Phase::Deployment => d.end_deployment_step(b, out),
            Phase::Command => {
                let extra = self.sup.command_factors(self, b);
                d.command_roll(b, out, extra)?;
                self.sup.start_bound(self, b, out)?;
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
                    let unordered = PursuitOrders {
                        side: None,
                        pursue: None,
                        each: &[],
                    };
                    self.fight(b, out, &a, &e, unordered, false)?;
                    if b.is_over() {
                        return Ok(());
                    }
                }
                d.next_bound(b, out);
                Ok(())
            }
            Phase::GameOver => Err(RuleError::GameOver),
            Phase::Morale
            | Phase::Generals
            | Phase::Charges
            | Phase::Artillery
            | Phase::SmallArms
            | Phase::Rout
            | Phase::DefensiveFire
            | Phase::OffensiveFire
            | Phase::Assault => Err(RuleError::Illegal(format!(
                "a DBN bound has no {} phase",
                b.phase.name()
            ))),
        }
    }
}

impl<S: Supplement> Ruleset for DbnGame<S> {
    fn id(&self) -> &str {
        &self.dbn.data.id
    }
    fn name(&self) -> &str {
        &self.dbn.data.name
    }
    fn measure(&self) -> Measure {
        self.dbn.data.unit
    }
    fn moves_in_groups(&self) -> bool {
        true
    }
    fn supplies(&self, b: &Battle, u: &Unit) -> Option<(UnitId, f32)> {
        self.sup.supplies(self, b, u)
    }
    fn attack_formation(&self, b: &Battle, u: &Unit, e: &Unit) -> Option<Formation> {
        self.sup.attack_formation(self, b, u, e)
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
    fn unit_states(&self, troop: &str) -> Vec<UnitState> {
        // The engine reads a move made this bound (artillery that moved may not shoot).
        // Victors may be ordered to hold their ground (the rules compel or forbid some).
        let mut states = vec![UnitState::Moved, UnitState::HoldGround];
        states.extend(self.sup.unit_states(self, troop));
        states
    }
    fn prepare_unit(&self, u: &RawUnit) -> Result<UnitSetup, String> {
        let mut setup = self.dbn.prepare_unit(self.id(), u)?;
        self.sup.prepare(self, u, &mut setup.packs)?;
        Ok(setup)
    }
    fn check_standard(
        &self,
        table_mm: (f32, f32),
        terrain: &Terrain,
        units: &[Unit],
        zones: &[Zone],
        mm_per_unit: f32,
    ) -> Vec<String> {
        self.sup
            .check_standard(self, table_mm, terrain, units, zones, mm_per_unit)
    }
    fn validate_army(&self, units: &[&Unit], side: &SideInfo, terrain: &Terrain) -> Vec<String> {
        self.sup.validate_army(self, units, side, terrain)
    }
    fn army_notes(
        &self,
        units: &[&Unit],
        side: &SideInfo,
        listed: bool,
        terrain: &Terrain,
    ) -> Vec<String> {
        let costed = !self.dbn.data.army.costs.is_empty();
        let points: f32 = units
            .iter()
            .map(|u| {
                if costed {
                    super::army::listed_cost(&self.dbn, u, &side.nation)
                } else {
                    super::army::unit_cost(&self.dbn, u)
                }
            })
            .sum();
        let errs = self.sup.validate_army(self, units, side, terrain);
        let verdict = match (errs.is_empty(), listed) {
            (true, true) => "legal by its army list".to_string(),
            (true, false) => "legal by its army list (not asked: 'army_list: false')".to_string(),
            // A listed army with problems is refused: its errors are printed instead.
            (false, _) => format!(
                "not checked against its army list ('army_list: false'); it breaks it {} way(s): {}",
                errs.len(),
                errs.join("; ")
            ),
        };
        vec![format!("{points} points, {verdict}")]
    }
    fn class_name(&self, class: Class) -> String {
        self.sup.class_name(class)
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
                pursuits,
            } => {
                let orders = PursuitOrders {
                    side: Some(b.active),
                    pursue: *pursue,
                    each: pursuits,
                };
                self.fight(b, out, unit, target, orders, false)
            }
            Command::PursuitOrder { unit, pursue } => {
                let u = b.unit(unit)?;
                let no_choice = self.pursuit_fixed(u);
                super::common::order_pursuit(b, out, unit, *pursue, no_choice)
            }
            Command::Deploy { unit, x, y, facing } => {
                if b.phase != Phase::Deployment {
                    return Err(RuleError::WrongPhase {
                        command: "deploy".into(),
                        phase: b.phase,
                    });
                }
                // A unit deployed into a town or village occupies it as one that moved there
                // would: DB7YW's "must firstly be 'Fortified' before it can be 'Garrisoned'",
                // and only foot in towns.
                let u = b.unit(unit)?;
                let end = crate::rules::geometry::Base::new(
                    Pt::new(*x, *y),
                    *facing,
                    u.base.width,
                    u.base.depth,
                );
                if x.is_finite() && y.is_finite() && facing.is_finite() {
                    self.sup.check_occupation(self, b, u, &end)?;
                }
                d.deploy(b, out, unit, Pt::new(*x, *y), *facing)
            }
            Command::Fortify { feature } => self.sup.fortify(self, b, out, feature),
            Command::Form {
                unit, formation, ..
            } => self.sup.form(self, b, out, unit, *formation),
            Command::Attach { .. }
            | Command::Detach { .. }
            | Command::Fallback { .. }
            | Command::MoveStand { .. }
            | Command::RecoilFurther { .. } => Err(RuleError::Illegal(
                "units of this ruleset are single elements: no loose stands, attached \
                 generals, fallbacks or chosen recoils"
                    .into(),
            )),
            Command::Activate { .. }
            | Command::Recover { .. }
            | Command::Evade { .. }
            | Command::Declare { .. }
            | Command::Charge { .. }
            | Command::Reroll { .. }
            | Command::Send { .. } => Err(RuleError::Illegal(
                "DBN units move by the side's command points: no unit command rolls, \
                     recovered bases or evasion"
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
                "units of this ruleset are single elements: no stand moves alone".into(),
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
            || (b.phase == Phase::Movement
                && u.bound.moved
                && !u.has(Flag::Fixed)
                && self.sup.may_move_again(self, b, u).is_ok())
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
        let mut c = self.dbn.card(b, u);
        c.lines.extend(self.sup.card_lines(self, b, u));
        if self.pursuit_fixed(u).is_none() {
            c.lines.push(super::common::pursuit_order_line(u));
        }
        c
    }
    fn actions(&self, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        let mut a = self.dbn.actions(b, u);
        a.extend(self.sup.actions(self, b, u));
        if u.side == b.active && u.alive() && self.pursuit_fixed(u).is_none() {
            a.push(super::common::pursuit_order_action(u));
        }
        a
    }
    fn deployment(&self, b: &Battle) -> Option<Deployment> {
        self.dbn.deployment_view(b)
    }
    fn overlays(&self, b: &Battle, selected: Option<&Unit>, layers: &[Layer]) -> Vec<Mark> {
        self.dbn.overlays(b, selected, layers)
    }
    fn look(&self, _b: &Battle, u: &Unit) -> Look {
        let mut l = self.dbn.look(u);
        l.markers.extend(self.sup.markers(self, u));
        l
    }
    fn reference(&self) -> Reference {
        self.dbn.reference()
    }
    fn result_at_limit(&self, b: &Battle) -> (Option<crate::rules::model::Side>, String) {
        self.dbn.turn_limit_result(b)
    }
    fn standing(&self, b: &Battle) -> Vec<String> {
        self.dbn.standing(b)
    }
    fn check_deployment(
        &self,
        zones: &[Zone],
        objective: Option<&Objective>,
        sides: &[SideInfo],
        mm_per_unit: f32,
    ) -> Vec<String> {
        self.sup
            .check_deployment(self, zones, objective, sides, mm_per_unit)
    }
    fn optional_rules(&self) -> Vec<(String, String)> {
        S::OPTIONS
            .iter()
            .map(|(k, d)| (k.to_string(), d.to_string()))
            .collect()
    }
    fn options(&self) -> &[String] {
        &self.options
    }
    fn set_options(&mut self, options: &[String]) -> Result<(), String> {
        let known: Vec<&str> = S::OPTIONS.iter().map(|(k, _)| *k).collect();
        self.options = super::common::choose_options(&known, options)?;
        Ok(())
    }
    fn words(&self, b: &Battle, e: &Event) -> Option<String> {
        self.sup.words(self, b, e)
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
