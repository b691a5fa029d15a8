//! A DBN-family ruleset as the rules' one door: the engine, its data and the supplement, and
//! the `Ruleset` methods that dispatch to each topic.

use super::movement::check_group_contact;
use super::results::PursuitOrders;
use super::{Dbn, N, Supplement};
use crate::rules::battle::{Battle, Objective, Zone};
use crate::rules::command::{Command, Event, Factor, RuleError};
use crate::rules::geometry::Pt;
use crate::rules::model::{Class, Formation, Phase, SideInfo, Unit, UnitId};
use crate::rules::ruleset::common::{MovePlan, fire_or_fight};
use crate::rules::ruleset::dbn::{CLOSE_COMBAT, FIRING, Flag, MOVEMENT, Refusal};
use crate::rules::ruleset::view::{
    ActionGroup, Card, Deployment, Layer, Look, Mark, Measure, MoveRequest, Outlook, Reference,
    TurnWords, UnitModel,
};
use crate::rules::ruleset::{Ruleset, Ruling, UnitSetup, UnitState};
use crate::rules::scenario::RawUnit;
use crate::rules::terrain::Terrain;

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
    if let Some(f) = u.flags.iter().find(|f| {
        !matches!(
            f.read::<Flag>(),
            Some(Flag::Guard | Flag::Grenadier | Flag::Stoic | Flag::Fixed)
        )
    }) {
        return Err(format!(
            "unit '{}': the flag {f:?} means nothing in {} (Guard, Grenadier, Stoic, Fixed)",
            u.id, g.dbn.data.id
        ));
    }
    Ok(())
}

impl<S: Supplement> DbnGame<S> {
    /// The engine on the supplement's data file: the shared rows read by the engine's keys,
    /// the supplement's own by its keys, and every trait's numbers present.
    pub fn load() -> Result<Self, String> {
        Self::from_ron(S::DATA)
    }

    /// The engine and supplement on the text of a data file (`load` reads `S::DATA`).
    pub fn from_ron(text: &str) -> Result<Self, String> {
        let mut dbn = Dbn::from_ron(text)?;
        let (sup, extras) = S::load(&dbn.data, text)?;
        dbn.extras = extras;
        dbn.check_extras()?;
        Ok(DbnGame {
            dbn,
            options: Vec::new(),
            sup,
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
    pub fn hits(&self, key: N) -> u32 {
        self.dbn.n(key) as u32
    }
}

impl<S: Supplement> Ruleset for DbnGame<S> {
    fn data_text(&self) -> &'static str {
        S::DATA
    }
    fn id(&self) -> &str {
        &self.dbn.data.id
    }
    fn name(&self) -> &str {
        &self.dbn.data.name
    }
    fn measure(&self) -> Measure {
        self.dbn.data.unit
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
    fn troop_table(&self) -> Vec<(String, String)> {
        let troops = self.dbn.data.troops.iter();
        troops.map(|t| (t.code.clone(), t.name.clone())).collect()
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
        let points: f32 = units
            .iter()
            .map(|u| self.sup.unit_cost(self, u, side))
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
                crate::rules::ruleset::common::order_pursuit(b, out, unit, *pursue, no_choice)
            }
            Command::Deploy { unit, x, y, facing } => {
                if b.phase != Phase::DEPLOYMENT {
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
            | Command::RecoilFurther { .. } => Err(RuleError::refused(
                Refusal::SingleElements,
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
            | Command::Send { .. } => Err(RuleError::refused(
                Refusal::MoveByCommandPoints,
                "DBN units move by the side's command points: no unit command rolls, \
                     recovered bases or evasion"
                    .into(),
            )),
            Command::Undo => Err(RuleError::refused(
                Refusal::UndoByTheBattle,
                "undo is handled by the battle".into(),
            )),
            Command::Exit { .. } => Err(RuleError::refused(
                crate::rules::ruleset::common::Refusal::ExitByTheGame,
                "leaving the table is handled by the game".into(),
            )),
        }
    }
    fn after_command(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.dbn.check_break(b, out);
        Ok(())
    }
    fn check_move(&self, b: &Battle, req: &MoveRequest) -> Result<MovePlan, RuleError> {
        if req.stand.is_some() {
            return Err(RuleError::refused(
                Refusal::NoStandMovesAlone,
                "units of this ruleset are single elements: no stand moves alone".into(),
            ));
        }
        if req.units.is_empty() {
            return Err(RuleError::refused(
                Refusal::MoveNeedsAUnit,
                "a move needs a unit".into(),
            ));
        }
        if req.units.len() > 1 {
            check_group_contact(b, &req.units)?;
        }
        self.plan(b, &req.units, &req.steps)
    }
    fn may_move(&self, b: &Battle, u: &Unit) -> bool {
        self.dbn.may_move(b, u)
            || (b.phase == MOVEMENT
                && u.bound.moved
                && !u.has(Flag::Fixed)
                && self.sup.may_move_again(self, b, u).is_ok())
    }
    fn plan_note(&self, plan: &MovePlan) -> Option<String> {
        Some(format!("{} command point(s)", plan.cost))
    }
    fn target_command(&self, b: &Battle, own: &UnitId, enemy: &UnitId) -> Option<Command> {
        fire_or_fight(b, own, enemy, FIRING, CLOSE_COMBAT)
    }
    fn preview(&self, b: &Battle, cmd: &Command) -> Result<Outlook, RuleError> {
        self.outlook(b, cmd)
    }
    fn unit_card(&self, b: &Battle, u: &Unit) -> Card {
        let mut c = self.dbn.card(b, u);
        c.lines.extend(self.sup.card_lines(self, b, u));
        if self.pursuit_fixed(u).is_none() {
            c.lines
                .push(crate::rules::ruleset::common::pursuit_order_line(u));
        }
        c
    }
    fn actions(&self, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        let mut a = self.dbn.actions(b, u);
        a.extend(self.sup.actions(self, b, u));
        if u.side == b.active && u.alive() && self.pursuit_fixed(u).is_none() {
            a.push(crate::rules::ruleset::common::pursuit_order_action(u));
        }
        a
    }
    fn deployment(&self, b: &Battle) -> Option<Deployment> {
        self.dbn.deployment_view(b)
    }
    fn overlays(&self, b: &Battle, selected: Option<&Unit>, layers: &[Layer]) -> Vec<Mark> {
        self.dbn.overlays(b, selected, layers)
    }
    fn look(&self, b: &Battle, u: &Unit) -> Look {
        let mut l = self.dbn.look(b, u);
        l.markers.extend(self.sup.markers(self, u));
        l
    }
    fn reference(&self) -> Reference {
        self.dbn.reference()
    }
    fn result_at_limit(&self, b: &Battle) -> (Option<crate::rules::model::Side>, String) {
        self.dbn.turn_limit_result(b)
    }
    /// A base not a commander's over the spot with no enemy within the objective radius (the
    /// DB7YW objective ruling, for either side); with the scenario's own distance, the side
    /// alone within it.
    fn holder_near(
        &self,
        b: &Battle,
        at: Pt,
        within: Option<f32>,
    ) -> Option<crate::rules::model::Side> {
        let counts = |u: &Unit| !self.dbn.is_commander(u);
        if let Some(r) = within {
            return crate::rules::victory::side_alone_within(b, at, b.scale.to_mm(r), counts);
        }
        let over = b
            .alive()
            .find(|u| u.base.contains(at) && counts(u))
            .map(|u| u.side)?;
        let r = b.scale.to_mm(self.dbn.n(N::ObjectiveRadius));
        let contested = b.alive().any(|u| u.side != over && u.base.reaches(at, r));
        (!contested).then_some(over)
    }
    fn holding_radius(&self) -> f32 {
        self.dbn.n(N::ObjectiveRadius)
    }
    /// The army break's count: destroyed units weighted (a CinC 2), and the objective.
    fn units_lost(&self, b: &Battle, side: crate::rules::model::Side) -> (f32, f32) {
        let of = b.starting_units.get(side).copied().unwrap_or(0) as f32;
        (self.dbn.losses(b, side), of)
    }
    fn break_point(&self, b: &Battle, side: crate::rules::model::Side) -> Option<f32> {
        Some(self.dbn.break_point(b, side))
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
        self.options = crate::rules::ruleset::common::choose_options(&known, options)?;
        Ok(())
    }
    fn words(&self, b: &Battle, e: &Event) -> Option<String> {
        match e.own::<super::DbnEvent>() {
            Some(own) => Some(super::events::words(b, own)),
            None => self.sup.words(self, b, e),
        }
    }
    fn rulings(&self) -> &[Ruling] {
        &self.dbn.data.rulings
    }
}

impl<S: Supplement> crate::rules::ruleset::doctrine::Doctrine for DbnGame<S> {
    fn moves_in_groups(&self) -> bool {
        true
    }
    fn supplies(&self, b: &Battle, u: &Unit) -> Option<(UnitId, f32)> {
        self.sup.supplies(self, b, u)
    }
    fn attack_formation(&self, b: &Battle, u: &Unit, e: &Unit) -> Option<Formation> {
        self.sup.attack_formation(self, b, u, e)
    }
}
