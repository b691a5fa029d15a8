//! Old Dessauer (Wes Rogers): units of stands and figures in formations, shooting by the die per
//! front-rank stand, morale against shooting, combat points and rounds of combat with recoils and
//! pursuit, the turn of an active and a passive side, and the optional rules as switches.
//!
//! Where each rule lives: `data` (the data file), `units` (a scenario's units), `turn` (phases,
//! the turn's end, victory), `movement` (moves), `formations` (formation and facing, the L,
//! unlimbering), `charge`, `skirmishers`, `shooting`, `morale` (morale tests, rally), `combat`,
//! `recoil` (recoils, fallback), `pursuit`, `casualties`, `generals` (and what a unit carries),
//! `layout` (where the stands stand) and `view` (what the window and the log are told).

mod casualties;
mod charge;
pub mod combat;
mod data;
mod events;
mod formations;
mod generals;
pub mod layout;
mod morale;
pub mod movement;
pub mod pursuit;
mod recoil;
mod refusal;
pub mod shooting;
mod skirmishers;
pub mod status;
mod turn;
mod units;
mod view;

pub use data::{
    DATA, FILE, HitStep, INCH, Kind, N, OdData, OldDessauer, Opt, OptionDef, REFERENCE_ONLY,
    Shooting, Troop, grade, grade_name,
};
pub use events::{DessauerEvent, Strike, TestKind};
pub use layout::{footprint, stand_bases};
pub use refusal::{NoShot, Refusal};
pub use turn::{CLOSE_COMBAT, FIRING, MOVEMENT};
pub use units::Flag;

use super::common::{self, MovePlan, fire_or_fight};
pub use super::common::{at_least, exactly};
use super::view::{
    ActionGroup, Card, Layer, Look, Mark, Measure, MoveRequest, Outlook, Reference, TurnWords,
    UnitModel,
};
use super::{Ruleset, Ruling, UnitSetup, UnitState};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event, Factor, RuleError};
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Class, Formation, Phase, Side, Unit, UnitId};
use crate::rules::ruleset::doctrine::Tuning;
use crate::rules::scenario::RawUnit;
use crate::rules::terrain::FeatureKind;

impl OldDessauer {
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

    /// How far a unit shoots, in inches; None for those that do not shoot.
    pub fn range(&self, u: &Unit) -> Option<f32> {
        match self.kind(u) {
            Kind::Artillery => Some(self.num(N::GunRange)),
            Kind::RegimentalGun => Some(self.num(N::RegimentalGunRange)),
            Kind::Infantry | Kind::LightInfantry => Some(self.num(N::MusketRange)),
            Kind::Cavalry | Kind::General => None,
        }
    }

    /// Total figures at the start, for the shattered test.
    pub fn strength(&self, u: &Unit) -> u32 {
        u.extra.strength.max(u.figures())
    }

    /// Enemies whose bases touch this unit's (generals and regimental guns never fight).
    pub fn enemies_in_contact<'a>(&self, b: &'a Battle, u: &Unit) -> Vec<&'a Unit> {
        if !self.is_fighting_unit(u) {
            return Vec::new();
        }
        let fronts = layout::arms(u);
        b.alive()
            .filter(|e| e.side != u.side && self.is_fighting_unit(e) && touches(&fronts, e))
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
        if self.opt(Opt::Drill)
            && matches!(t.kind, Kind::Infantry | Kind::Cavalry | Kind::Artillery)
        {
            match grade(u.class) {
                2 => a += self.num(N::DrillBonus),
                0 => a -= self.num(N::DrillBonus),
                _ => {}
            }
        }
        if u.status.shaken {
            a *= self.num(N::HalfSpeed);
        }
        a.max(0.0)
    }

    /// How far a unit charges, in inches: its rate in its formation (the ruling `charge_rate`).
    pub fn charge_rate(&self, u: &Unit) -> f32 {
        self.allowance(u)
    }

    /// Checks a move without making it (the window calls this while dragging).
    pub fn plan(
        &self,
        b: &Battle,
        ids: &[UnitId],
        steps: &[crate::rules::command::Step],
    ) -> Result<MovePlan, RuleError> {
        let [id] = ids else {
            return Err(RuleError::refused(
                Refusal::NoGroupMoves,
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
            _ => Err(RuleError::refused(
                Refusal::NothingToPreview,
                "nothing to preview".into(),
            )),
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
    fn data_text(&self) -> &'static str {
        data::DATA
    }
    fn id(&self) -> &str {
        &self.data.id
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
    fn troop_table(&self) -> Vec<(String, String)> {
        let troops = self.data.troops.iter();
        troops.map(|t| (t.code.clone(), t.name.clone())).collect()
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
        MOVEMENT
    }
    fn phases(&self) -> Vec<Phase> {
        turn::PHASES.to_vec()
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
                recoil::recoil_further(self, b, out, unit, *distance)
            }
            Command::MoveGroup { .. } => Err(RuleError::refused(
                Refusal::NoGroupMoves,
                "Old Dessauer moves one unit at a time".into(),
            )),
            Command::Form {
                unit,
                formation,
                turn,
            } => formations::form(self, b, out, unit, *formation, *turn),
            Command::Limber { unit } => {
                let u = b.unit(unit)?;
                Err(RuleError::refused(
                    Refusal::GunsMayNotLimberAgain,
                    format!(
                        "{}: once guns unlimber they may not limber up again",
                        u.name
                    ),
                ))
            }
            Command::Unlimber { unit } => formations::unlimber(self, b, out, unit),
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
                &pursuit::Orders {
                    side: Some(b.active),
                    pursue: *pursue,
                    units: pursuits,
                },
            ),
            Command::PursuitOrder { unit, pursue } => {
                let no_choice = pursuit::pursuit_fixed(self, b.unit(unit)?);
                common::order_pursuit(b, out, unit, *pursue, no_choice)
            }
            Command::Attach { general, unit } => self.attach(b, out, general, Some(unit)),
            Command::Detach { general } => self.attach(b, out, general, None),
            Command::Fallback { unit, distance } => recoil::fallback(self, b, out, unit, *distance),
            Command::Activate { .. }
            | Command::Recover { .. }
            | Command::Evade { .. }
            | Command::Declare { .. }
            | Command::Charge { .. }
            | Command::Reroll { .. }
            | Command::Send { .. } => Err(RuleError::refused(
                Refusal::NotInTheseRules,
                "Old Dessauer has no unit command rolls, recovered bases or evasion orders".into(),
            )),
            Command::Deploy { .. } | Command::Fortify { .. } => Err(RuleError::refused(
                Refusal::NoDeploymentOrFortifying,
                "Old Dessauer has no formal deployment or fortifying".into(),
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
            _ => Err(RuleError::refused(
                Refusal::OneStandMovesAlone,
                "one stand of one unit moves alone".into(),
            )),
        }
    }
    fn may_move(&self, b: &Battle, _u: &Unit) -> bool {
        // A unit moves again while it has allowance left.
        b.phase == MOVEMENT
    }
    fn loose_stands(&self, b: &Battle, u: &Unit) -> bool {
        self.is_skirmishing(b, u)
    }
    fn target_command(&self, b: &Battle, own: &UnitId, enemy: &UnitId) -> Option<Command> {
        fire_or_fight(b, own, enemy, FIRING, CLOSE_COMBAT)
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
    fn look(&self, b: &Battle, u: &Unit) -> Look {
        Look {
            garrison: crate::rules::ruleset::common::garrisons(b, u),
            ..OldDessauer::look(self, u)
        }
    }
    fn result_at_limit(&self, b: &Battle) -> (Option<Side>, String) {
        self.turn_limit_result(b)
    }
    /// Ruling objectives: the side alone within the objective radius with a fighting unit
    /// (not a general or regimental gun) that is not shaken.
    fn holder_near(&self, b: &Battle, at: Pt, within: Option<f32>) -> Option<Side> {
        let r = b
            .scale
            .to_mm(within.unwrap_or_else(|| self.holding_radius()));
        crate::rules::victory::side_alone_within(b, at, r, |u| {
            self.is_fighting_unit(u) && !u.status.shaken
        })
    }
    fn holding_radius(&self) -> f32 {
        self.num(N::ObjectiveRadius)
    }
    /// Fighting units lost, as the army break counts them.
    fn units_lost(&self, b: &Battle, side: Side) -> (f32, f32) {
        let (lost, all) = self.losses(b, side);
        (lost as f32, all as f32)
    }
    /// Figures lost: the rules take their hits as figures, so a battalion worn down to 4 of
    /// its 12 has lost two thirds of its men though the army break counts it whole.
    fn casualties(&self, b: &Battle, side: Side) -> (f32, f32) {
        let (lost, all) = self.figures_lost(b, side);
        (lost as f32, all as f32)
    }
    fn break_point(&self, b: &Battle, side: Side) -> Option<f32> {
        Some(OldDessauer::break_point(self, b, side))
    }
    fn reference(&self) -> Reference {
        OldDessauer::reference(self)
    }
    fn words(&self, b: &Battle, e: &Event) -> Option<String> {
        if let Some(own) = e.own::<DessauerEvent>() {
            return Some(events::words(b, own));
        }
        match e {
            Event::Fled { unit, .. } => {
                Some(format!("{} falls back out of reach", b.name_of(unit)))
            }
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
    touches(&layout::arms(u), e)
}

/// Whether any of these fronts (a unit's `layout::arms`) touches the unit `e`.
fn touches(fronts: &[Base], e: &Unit) -> bool {
    let eps = crate::rules::geometry::CONTACT_EPS;
    let near = |x: &Base| fronts.iter().any(|a| a.within(x, eps));
    if layout::is_l(e) {
        layout::arms(e).iter().any(near)
    } else {
        near(&e.base)
    }
}

pub(crate) use super::common::{illegal, in_phase};

/// The events of the active side's turn so far (those of the command being resolved aside).
pub(crate) fn this_turn(b: &Battle) -> crate::rules::log::Events<'_> {
    let began = b
        .log
        .iter()
        .rposition(|e| {
            matches!(e, Event::PhaseBegan { turn, phase: MOVEMENT, side }
                if *turn == b.turn && *side == b.active)
        })
        .unwrap_or(0);
    b.log.since(began)
}

/// Refuses any move, formation change or fallback of a unit a friend passed through this
/// turn: it stands still for the rest of the turn (the ruling `moving_through`).
pub(crate) fn standing_still(b: &Battle, u: &Unit) -> Result<(), RuleError> {
    let by = this_turn(b).iter().find_map(|e| match e.own() {
        Some(DessauerEvent::PassedThrough { unit, friend }) if friend == &u.id => {
            Some(unit.clone())
        }
        _ => None,
    });
    match by {
        Some(by) => illegal(
            Refusal::StandsStillPassedThrough,
            format!(
                "{} stands still this turn: {} moved through it",
                u.name,
                b.name_of(&by)
            ),
        ),
        None => Ok(()),
    }
}

/// Sets or clears the mark of a charge into a flank or rear that counts as frontal.
pub(crate) fn frontal_mark(b: &mut Battle, out: &mut Vec<Event>, id: &UnitId, on: bool) {
    b.emit(
        out,
        DessauerEvent::FrontalCharge {
            unit: id.clone(),
            on,
        },
    );
}

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

impl crate::rules::ruleset::doctrine::Doctrine for OldDessauer {
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
}
