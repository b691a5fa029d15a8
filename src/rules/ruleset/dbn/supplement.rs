//! What a DBN supplement makes its own: the questions DB7YW and DBFPW each answer.

use super::{Combat, DbnData, DbnGame, Extras, FireRole, Follow, prepare_plain};
use crate::rules::battle::{Battle, Objective, Zone};
use crate::rules::command::{Effect, Event, Factor, RuleError, Step, Verdict};
use crate::rules::model::{Class, Formation, Side, SideInfo, Unit, UnitId};
use crate::rules::odds::Quirks;
use crate::rules::ruleset::UnitState;
use crate::rules::ruleset::common::MovePlan;
use crate::rules::ruleset::dbn::Refusal;
use crate::rules::ruleset::view::ActionGroup;
use crate::rules::scenario::RawUnit;
use crate::rules::terrain::Terrain;

/// What a DBN supplement makes its own. Every procedure the supplements share lives in
/// `DbnGame`; a supplement answers only these questions.
pub trait Supplement: Clone + std::fmt::Debug + Send + Sync + Sized + 'static {
    /// The supplement's data file.
    const DATA: &'static str;
    /// Its optional rules: key and what it does.
    const OPTIONS: &'static [(&'static str, &'static str)] = &[];

    /// Reads the supplement's own rows of its data file (`DATA`, read as `data`) by its own
    /// typed keys: every number and factor the shared engine does not read, each refused with
    /// the file and key when missing, unknown or given twice; and gives the shared engine the
    /// rules only this supplement has.
    fn load(data: &DbnData, text: &str) -> Result<(Self, Extras), String>;
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
    /// Whether a unit able to support a defence is left out of it where the defender has not
    /// chosen (DBFPW: a gun on its last round keeps it for its own fire).
    fn spares_from_defence(&self, g: &DbnGame<Self>, u: &Unit) -> bool {
        let _ = (g, u);
        false
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
        Err(RuleError::refused(
            Refusal::NoFormations,
            "units of this ruleset have no formations to change".into(),
        ))
    }
    /// Fortifying a town or village before the battle, against the side's army points.
    fn fortify(
        &self,
        g: &DbnGame<Self>,
        b: &mut Battle,
        out: &mut Vec<Event>,
        feature: &str,
    ) -> Result<(), RuleError> {
        let army_cost = |b: &Battle, side: Side| -> f32 {
            let Some(info) = b.sides.get(side) else {
                return 0.0;
            };
            b.units
                .iter()
                .filter(|u| u.side == side)
                .map(|u| self.unit_cost(g, u, info))
                .sum()
        };
        g.dbn.fortify(b, out, feature, &army_cost)
    }
    /// A unit's points cost in its side's army.
    fn unit_cost(&self, g: &DbnGame<Self>, u: &Unit, side: &SideInfo) -> f32;
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
