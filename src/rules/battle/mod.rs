//! The battle: table, terrain, sides, units, turn and phase, dice and log; one door for change.

use super::command::{Command, Event, RuleError, TestKind};
use super::dice::Dice;
use super::geometry::{Base, Pt};
use super::log::{Commands, Events, Log};
use super::model::{BoundState, Division, Phase, Side, SideInfo, Stand, Unit, UnitId};
use super::ruleset::{AnyRuleset, Measure};
use super::scenario::RawScenario;
use super::terrain::Terrain;
use parry2d::bounding_volume::Aabb;
use parry2d::math::Vector;
use parry2d::partitioning::{Bvh, BvhBuildStrategy};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// How many commands can be taken back.
pub const UNDO_DEPTH: usize = 64;

/// Table size in mm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub width: f32,
    pub height: f32,
}

impl Table {
    /// True when the whole base lies on the table.
    pub fn holds(&self, base: &Base) -> bool {
        base.corners().iter().all(|p| {
            p.x >= -0.01 && p.y >= -0.01 && p.x <= self.width + 0.01 && p.y <= self.height + 0.01
        })
    }

    /// True when the point lies on the table.
    pub fn contains(&self, p: Pt) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= self.width && p.y <= self.height
    }

    /// The base moved straight in just far enough to lie on the table (as it is where it does).
    pub fn pull_in(&self, base: &Base) -> Base {
        let corners = base.corners();
        let over = |lo: f32, hi: f32, min: f32, max: f32| {
            if lo < min {
                min - lo
            } else if hi > max {
                max - hi
            } else {
                0.0
            }
        };
        let xs = corners.iter().map(|p| p.x);
        let ys = corners.iter().map(|p| p.y);
        let dx = over(
            xs.clone().fold(f32::INFINITY, f32::min),
            xs.fold(f32::NEG_INFINITY, f32::max),
            0.0,
            self.width,
        );
        let dy = over(
            ys.clone().fold(f32::INFINITY, f32::min),
            ys.fold(f32::NEG_INFINITY, f32::max),
            0.0,
            self.height,
        );
        Base {
            centre: Pt::new(base.centre.x + dx, base.centre.y + dy),
            ..*base
        }
    }
}

/// The measuring unit of the ruleset and its size on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scale {
    pub unit: Measure,
    /// Millimetres per unit.
    pub mm_per_unit: f32,
}

impl Scale {
    pub fn to_mm(&self, v: f32) -> f32 {
        v * self.mm_per_unit
    }
    pub fn from_mm(&self, mm: f32) -> f32 {
        mm / self.mm_per_unit
    }
}

/// A rectangle of the table where a side may deploy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub side: Side,
    pub min: Pt,
    pub max: Pt,
}

impl Zone {
    pub fn holds(&self, base: &Base) -> bool {
        base.corners().iter().all(|p| {
            p.x >= self.min.x && p.y >= self.min.y && p.x <= self.max.x && p.y <= self.max.y
        })
    }
}

/// The defender's objective: taken by the attacker, it counts as lost units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Objective {
    pub at: Pt,
    /// The side that holds it at the start.
    pub owner: Side,
    pub taken: bool,
}

/// Names and dates shown to players.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Info {
    pub name: String,
    pub date: String,
    pub description: String,
}

/// Where the units stand, for the rules that look for what lies in an area (line of sight): a
/// bounding-volume hierarchy over the units' bases, built on first use after the units change
/// and kept with the units it was built for (the address of their list).
#[derive(Clone, Debug, Default)]
pub struct Places(OnceLock<(usize, Arc<Bvh>)>);

/// The box around a base (an empty one at its centre where the base is not a number).
fn base_box(b: &Base) -> Aabb {
    let c = b.corners();
    let (mut lo, mut hi) = (
        Vector::new(f32::MAX, f32::MAX),
        Vector::new(f32::MIN, f32::MIN),
    );
    for p in c.iter().filter(|p| p.is_finite()) {
        lo = lo.min(Vector::new(p.x, p.y));
        hi = hi.max(Vector::new(p.x, p.y));
    }
    if lo.x > hi.x {
        let v = Vector::new(0.0, 0.0);
        return Aabb::new(v, v);
    }
    Aabb::new(lo, hi)
}

/// The whole state of a game.
#[derive(Clone, Debug)]
pub struct Battle {
    /// The scenario as written: saves carry it so that they replay anywhere.
    pub scenario: Arc<RawScenario>,
    /// Scripted dice given at the start, if any (saved so the replay uses them too).
    pub scripted: Option<Arc<Vec<u8>>>,
    pub info: Arc<Info>,
    pub rules: AnyRuleset,
    pub table: Table,
    pub scale: Scale,
    pub terrain: Terrain,
    pub sides: Arc<Vec<SideInfo>>,
    /// Shared with the undo history and copies until changed (`units_mut`): a command that
    /// changes nothing, or is refused before it does, copies no unit.
    pub units: Arc<Vec<Unit>>,
    /// The units' places, for area queries (`units_near`); cleared by `units_mut`.
    places: Places,
    pub zones: Arc<Vec<Zone>>,
    pub objective: Option<Objective>,
    pub turn_limit: u32,
    pub seed: u64,
    pub turn: u32,
    pub phase: Phase,
    pub active: Side,
    pub command_points: [i32; 2],
    /// Command points of the active side that only a division's units may use.
    pub division_points: Vec<(Division, i32)>,
    /// Index into the formal deployment sequence.
    pub deployment_step: usize,
    /// Units each side had at the start (the army break is a share of these).
    pub starting_units: [u32; 2],
    pub dice: Dice,
    /// Dice taken from `dice` so far: undo refuses to take back a command that moved it.
    dice_rolled: u64,
    /// The dice thrown by the command now running (or the last one), in order.
    pub cmd_dice: Vec<u8>,
    pub log: Log,
    /// Commands accepted so far: with the scenario and seed they replay the game.
    pub commands: Commands,
    undo: Vec<Snapshot>,
}

/// The state before an accepted command, for undo: the battle without its log and commands,
/// which only grow, so the lengths they had are enough to take them back. (Copying the whole
/// log for every command made a long game's commands ever slower.)
#[derive(Clone, Debug)]
struct Snapshot {
    state: Battle,
    log_len: usize,
    commands_len: usize,
}

impl Battle {
    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per part of the table, each checked by the caller"
    )]
    pub(crate) fn assemble(
        scenario: RawScenario,
        info: Info,
        rules: AnyRuleset,
        table: Table,
        scale: Scale,
        terrain: Terrain,
        sides: Vec<SideInfo>,
        units: Vec<Unit>,
        zones: Vec<Zone>,
        objective: Option<Objective>,
        turn_limit: u32,
        seed: u64,
    ) -> Self {
        let mut starting_units = [0u32; 2];
        for u in &units {
            if u.side < 2 {
                starting_units[u.side] += 1;
            }
        }
        let phase = rules.first_phase(&units);
        Battle {
            scenario: Arc::new(scenario),
            scripted: None,
            info: Arc::new(info),
            rules,
            table,
            scale,
            terrain,
            sides: Arc::new(sides),
            units: Arc::new(units),
            places: Places::default(),
            zones: Arc::new(zones),
            objective,
            turn_limit,
            seed,
            turn: 1,
            phase,
            active: 0,
            command_points: [0, 0],
            division_points: Vec::new(),
            deployment_step: 0,
            starting_units,
            dice: Dice::seeded(seed),
            dice_rolled: 0,
            cmd_dice: Vec::new(),
            log: Log::new(),
            commands: Commands::new(),
            undo: Vec::new(),
        }
    }

    /// A copy to try commands on: everything but the undo history.
    pub fn fork(&self) -> Battle {
        let mut b = self.bare();
        b.log = self.log.clone();
        b.commands = self.commands.clone();
        b
    }

    /// A copy without the log, the commands or the undo history.
    fn bare(&self) -> Battle {
        Battle {
            scenario: self.scenario.clone(),
            scripted: self.scripted.clone(),
            info: self.info.clone(),
            rules: self.rules.clone(),
            table: self.table,
            scale: self.scale.clone(),
            terrain: self.terrain.clone(),
            sides: self.sides.clone(),
            units: self.units.clone(),
            places: self.places.clone(),
            zones: self.zones.clone(),
            objective: self.objective.clone(),
            turn_limit: self.turn_limit,
            seed: self.seed,
            turn: self.turn,
            phase: self.phase,
            active: self.active,
            command_points: self.command_points,
            division_points: self.division_points.clone(),
            deployment_step: self.deployment_step,
            starting_units: self.starting_units,
            dice: self.dice.clone(),
            dice_rolled: self.dice_rolled,
            cmd_dice: self.cmd_dice.clone(),
            log: Log::new(),
            commands: Commands::new(),
            undo: Vec::new(),
        }
    }

    /// This battle's state as it was when `snap` was taken: its log and commands cut back to
    /// their lengths then; the undo history stays.
    fn restore(&mut self, snap: Snapshot) {
        let mut log = std::mem::take(&mut self.log);
        log.truncate(snap.log_len);
        let mut commands = std::mem::take(&mut self.commands);
        commands.truncate(snap.commands_len);
        let undo = std::mem::take(&mut self.undo);
        *self = snap.state;
        self.log = log;
        self.commands = commands;
        self.undo = undo;
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            state: self.bare(),
            log_len: self.log.len(),
            commands_len: self.commands.len(),
        }
    }

    fn remember(&mut self, snap: Snapshot) {
        self.undo.push(snap);
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
    }

    pub fn unit(&self, id: &UnitId) -> Result<&Unit, RuleError> {
        self.index_of(id)
            .map(|i| &self.units[i])
            .ok_or_else(|| RuleError::UnknownUnit(id.clone()))
    }

    pub fn unit_mut(&mut self, id: &UnitId) -> Result<&mut Unit, RuleError> {
        let i = self
            .index_of(id)
            .ok_or_else(|| RuleError::UnknownUnit(id.clone()))?;
        Ok(&mut self.units_mut()[i])
    }

    /// The units to change: copied first if the undo history or a copy shares them.
    pub fn units_mut(&mut self) -> &mut Vec<Unit> {
        self.places = Places::default();
        Arc::make_mut(&mut self.units)
    }

    /// The units whose bases reach into the box from `lo` to `hi` (or may: a base is judged
    /// by the box around it), removed ones included, in the battle's order.
    pub fn units_near(&self, lo: Pt, hi: Pt) -> Vec<&Unit> {
        let here = Arc::as_ptr(&self.units) as usize;
        let bvh = match self.places.0.get() {
            Some((at, bvh)) if *at == here => bvh.clone(),
            _ => {
                let leaves: Vec<Aabb> = self.units.iter().map(|u| base_box(&u.base)).collect();
                let bvh = Arc::new(Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves));
                // Kept where no other list was kept first (a copy's own list is never this one).
                let _ = self.places.0.set((here, bvh.clone()));
                bvh
            }
        };
        let query = Aabb::new(Vector::new(lo.x, lo.y), Vector::new(hi.x, hi.y));
        let mut found: Vec<usize> = bvh.intersect_aabb(&query).map(|i| i as usize).collect();
        found.sort_unstable();
        found.iter().filter_map(|&i| self.units.get(i)).collect()
    }

    /// A unit's name, or its id where no unit has it (an id from an old event or a file).
    pub fn name_of(&self, id: &UnitId) -> String {
        self.unit(id)
            .map_or_else(|_| id.to_string(), |u| u.name.clone())
    }

    /// Ids are nearly always clones of the unit's own (shared) id, so the pointers are compared
    /// first, the text only where no pointer matches.
    pub fn index_of(&self, id: &UnitId) -> Option<usize> {
        self.units
            .iter()
            .position(|u| Arc::ptr_eq(&u.id.0, &id.0))
            .or_else(|| self.units.iter().position(|u| &u.id == id))
    }

    /// Units on the table and not removed.
    pub fn alive(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| u.alive())
    }

    /// A side's colour, grey for a side the scenario does not name.
    pub fn side_colour(&self, side: Side) -> [u8; 3] {
        self.sides
            .get(side)
            .map(|s| s.colour)
            .unwrap_or([200, 200, 200])
    }

    pub fn enemy(side: Side) -> Side {
        1 - side
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }

    /// The one door for change: check the command, resolve it, and apply its events.
    /// A refused command changes nothing.
    pub fn execute(&mut self, cmd: Command) -> Result<Vec<Event>, RuleError> {
        if cmd == Command::Undo {
            return self.undo();
        }
        if self.is_over() {
            return Err(RuleError::GameOver);
        }
        if let Command::Reroll { by, unit } = &cmd {
            return self.reroll(by, unit, &cmd);
        }
        // The command runs on the battle itself; a refusal puts back the state before it.
        let before = self.snapshot();
        self.cmd_dice.clear();
        let mut events = Vec::new();
        let rules = self.rules.clone();
        let done = rules
            .execute(self, &cmd, &mut events)
            .and_then(|()| rules.after_command(self, &mut events));
        if let Err(e) = done {
            self.restore(before);
            return Err(e);
        }
        self.commands.push(cmd);
        self.remember(before);
        Ok(events)
    }

    /// A general's re-roll: the last command runs again from the state before it, with the same
    /// dice up to the one thrown again, which is new, as is every die after it.
    fn reroll(
        &mut self,
        by: &UnitId,
        unit: &UnitId,
        cmd: &Command,
    ) -> Result<Vec<Event>, RuleError> {
        let rules = self.rules.clone();
        let (at, keep) = rules.reroll(self, by, unit)?;
        let (Some(prev), Some(last)) = (self.undo.last(), self.commands.last()) else {
            return Err(RuleError::Illegal("there is no roll to throw again".into()));
        };
        if matches!(last, Command::Reroll { .. }) {
            return Err(RuleError::Illegal(
                "that roll has been thrown again already".into(),
            ));
        }
        let Some(&old) = self.cmd_dice.get(at) else {
            return Err(RuleError::Illegal(
                "there is no such die to throw again".into(),
            ));
        };
        let last = last.clone();
        let mut next = prev.state.clone();
        next.log = self.log.cut(prev.log_len);
        // The dice before the one thrown again, a new die, the rest of its roll as thrown; then
        // new dice.
        let mut stream = self.dice.clone();
        let new = stream.d6()?;
        let end = (at + 1 + keep).min(self.cmd_dice.len());
        let mut kept: std::collections::VecDeque<u8> =
            self.cmd_dice[..at].iter().copied().collect();
        kept.push_back(new);
        kept.extend(self.cmd_dice[at + 1..end].iter().copied());
        next.dice = super::dice::Dice::Chain(kept, Box::new(stream));
        next.dice_rolled = self.dice_rolled;
        next.cmd_dice.clear();
        let mut events = Vec::new();
        let chips = self.unit(by)?.extra.chips.saturating_sub(1);
        next.emit(
            &mut events,
            Event::Rerolled {
                by: by.clone(),
                unit: unit.clone(),
                die: old,
                chips,
            },
        );
        rules.execute(&mut next, &last, &mut events)?;
        rules.after_command(&mut next, &mut events)?;
        // The replay counts as new dice for undo, whatever it threw.
        next.dice_rolled += 1;
        next.commands = self.commands.clone();
        next.commands.push(cmd.clone());
        // (Undo refuses to take the re-roll back: it threw a new die.)
        let before = self.snapshot();
        next.undo = std::mem::take(&mut self.undo);
        *self = next;
        self.remember(before);
        Ok(events)
    }

    /// The state before the last accepted command, if it can be had: its units, phase and
    /// dice (its log and commands are this battle's, cut back; they are not kept in it).
    pub fn before_last(&self) -> Option<&Battle> {
        self.undo.last().map(|s| &s.state)
    }

    /// Takes back the last accepted command, unless it rolled dice: no ruleset lets a player
    /// see the dice and then take the command back.
    pub fn undo(&mut self) -> Result<Vec<Event>, RuleError> {
        match self.undo.last() {
            None => return Err(RuleError::NothingToUndo),
            Some(prev) if prev.state.dice_rolled != self.dice_rolled => {
                return Err(RuleError::DiceRolled);
            }
            Some(_) => {}
        }
        let Some(prev) = self.undo.pop() else {
            return Err(RuleError::NothingToUndo);
        };
        let undone = self.log.len().saturating_sub(prev.log_len);
        self.restore(prev);
        Ok(vec![Event::Undone { events: undone }])
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// The events of the last accepted command (empty if there is none to undo).
    pub fn last_events(&self) -> Events<'_> {
        match self.undo.last() {
            Some(prev) if prev.log_len <= self.log.len() => self.log.since(prev.log_len),
            _ => self.log.since(self.log.len()),
        }
    }

    /// True when taking back the last command would take back dice already seen, or a change
    /// of phase: the hotseat screen refuses that, so nobody rolls again.
    pub fn last_command_rolled(&self) -> bool {
        // Any die taken by any ruleset, or a new phase.
        self.undo
            .last()
            .is_some_and(|prev| prev.state.dice_rolled != self.dice_rolled)
            || self
                .last_events()
                .iter()
                .any(|e| matches!(e, Event::PhaseBegan { .. }))
    }

    /// Applies an event to the state and records it in `out`.
    /// Applies an event and writes it in the log at once, so that the rest of the command
    /// reads it there (dice thrown, units moved). Every event of a command passes through
    /// here: a refused command's are dropped with the copy of the battle that made them.
    pub fn emit(&mut self, out: &mut Vec<Event>, e: Event) {
        self.apply(&e);
        self.log.push(e.clone());
        out.push(e);
    }

    /// The events of the active side's bound so far (from its first phase).
    pub fn log_since_bound(&self) -> Events<'_> {
        let began = self
            .log
            .iter()
            .rposition(|e| {
                matches!(e, Event::PhaseBegan { turn, side, .. } if *turn != self.turn || *side != self.active)
            })
            .map_or(0, |i| i + 1);
        self.log.since(began)
    }

    /// Begins `phase` of the current turn for the side to move.
    pub fn begin_phase(&mut self, out: &mut Vec<Event>, phase: Phase) {
        let (turn, side) = (self.turn, self.active);
        self.emit(out, Event::PhaseBegan { turn, phase, side });
    }

    /// The only place where state changes.
    pub fn apply(&mut self, e: &Event) {
        if self.apply_move(e) || self.apply_roll(e) {
            return;
        }
        match e {
            Event::PhaseBegan { turn, phase, side } => {
                let new_bound = *side != self.active || *turn != self.turn;
                self.turn = *turn;
                self.phase = *phase;
                self.active = *side;
                let stale = |u: &Unit| {
                    if new_bound {
                        u.bound != BoundState::default()
                    } else {
                        u.bound.recoiled
                    }
                };
                if self.units.iter().any(stale) {
                    for u in self.units_mut() {
                        if new_bound {
                            u.bound = BoundState::default();
                        } else {
                            u.bound.recoiled = false;
                        }
                    }
                }
                if new_bound {
                    self.command_points = [0, 0];
                    self.division_points.clear();
                }
            }
            Event::DeploymentStep { .. } => self.deployment_step += 1,
            Event::CommandRoll {
                side,
                total,
                divisions,
                ..
            } => {
                self.command_points[*side] = *total;
                self.division_points = divisions.clone();
            }
            Event::CommandPointsSpent {
                side,
                left,
                division,
                ..
            } => match division {
                Some(d) => {
                    if let Some(p) = self.division_points.iter_mut().find(|p| p.0 == *d) {
                        p.1 = *left;
                    }
                }
                None => self.command_points[*side] = *left,
            },
            Event::Limbered { unit } => self.with_unit(unit, |u| {
                u.status.limbered = true;
                u.bound.limber_changed = true;
            }),
            Event::Unlimbered { unit } => self.with_unit(unit, |u| {
                u.status.limbered = false;
                u.bound.limber_changed = true;
            }),
            Event::Captured { feature, .. } => {
                if let Some(f) = std::sync::Arc::make_mut(&mut self.terrain.features)
                    .iter_mut()
                    .find(|f| &f.id == feature)
                {
                    f.fortified = false;
                }
            }
            Event::Fortified { feature } => {
                if let Some(f) = std::sync::Arc::make_mut(&mut self.terrain.features)
                    .iter_mut()
                    .find(|f| &f.id == feature)
                {
                    f.fortified = true;
                }
            }
            Event::Hit { unit, total, .. } => self.with_unit(unit, |u| u.status.hits = *total),
            Event::Shaken { unit } => self.with_unit(unit, |u| u.status.shaken = true),
            Event::Destroyed { unit, .. } => self.with_unit(unit, |u| u.status.removed = true),
            Event::RoutingTest { .. } => {}
            Event::ObjectiveTaken { .. } => {
                if let Some(o) = &mut self.objective {
                    o.taken = true;
                }
            }
            Event::ArmyBroken { .. } => {}
            Event::GameOver { .. } => self.phase = Phase::GameOver,
            Event::Undone { .. } => {}
            Event::Disordered { unit, .. } => self.with_unit(unit, |u| u.status.disordered = true),
            Event::Steadied { unit } => self.with_unit(unit, |u| u.status.disordered = false),
            Event::Rallied { unit } => self.with_unit(unit, |u| u.status.shaken = false),
            Event::Rolled { .. } => {}
            Event::Ordered {
                unit,
                allowance,
                recover,
                ..
            } => self.with_unit(unit, |u| {
                u.bound.allowance = Some(*allowance);
                u.bound.may_recover = *recover;
            }),
            Event::Salvo { shooter, .. } => self.with_unit(shooter, |u| u.bound.fired = true),
            Event::Assault {
                attacker, defender, ..
            } => {
                for id in [attacker, defender] {
                    self.with_unit(id, |u| u.bound.fought = true);
                }
            }
            Event::Halted { unit, .. } => self.with_unit(unit, |u| u.bound.halted = true),
            Event::Silenced { unit, silenced, .. } => {
                self.with_unit(unit, |u| u.status.silenced = *silenced)
            }
            Event::Recovered { unit, stands } => self.with_unit(unit, |u| {
                u.stands = stands.iter().map(|&f| Stand::new(f)).collect();
                u.bound.may_recover = false;
                u.bound.allowance = Some(0.0);
            }),
            Event::Initiative {
                side: Some(s),
                brigades,
                ..
            } if *s < 2 => {
                self.active = *s;
                self.command_points[*s] = *brigades as i32;
            }
            Event::BrigadeActivated { side, .. } if *side < 2 => {
                self.command_points[*side] = (self.command_points[*side] - 1).max(0);
            }
            Event::Chips {
                general,
                chips,
                radius,
                move_dice,
                command,
                ..
            } => self.with_unit(general, |g| {
                g.extra.chips = *chips;
                g.extra.command_radius = *radius;
                g.extra.move_dice = *move_dice;
                g.extra.leadership = *command;
            }),
            Event::Rerolled { by, chips, .. } => self.with_unit(by, |g| g.extra.chips = *chips),
            Event::Declared { unit, target } => {
                let target = target.clone();
                self.with_unit(unit, |u| u.status.declared = Some(target))
            }
            Event::TownDamaged { .. } => {}
            Event::Marked {
                unit,
                marker,
                count,
            } => self.with_unit(unit, |u| {
                use super::command::Marker;
                let on = *count > 0;
                match marker {
                    Marker::MustCheck => u.status.must_check = on,
                    Marker::VolleySpent => u.status.volley_spent = on,
                    Marker::CheckedStrength => u.status.checked_half = on,
                    Marker::RecoveryFailed => u.status.recovery_failed = *count,
                    Marker::Declaration => {
                        if !on {
                            u.status.declared = None
                        }
                    }
                }
            }),
            Event::Braced { unit, range, .. } => {
                self.with_unit(unit, |u| u.bound.fire_range = *range)
            }
            Event::Supply {
                unit, ammo, packs, ..
            } => self.with_unit(unit, |u| {
                u.status.ammo = *ammo;
                u.status.packs = *packs;
            }),
            Event::Attached { general, unit } => {
                let unit = unit.clone();
                self.with_unit(general, |g| g.extra.attached = unit);
            }
            _ => {}
        }
    }

    /// Moves, recoils, flight and pursuit; false for any other event.
    fn apply_move(&mut self, e: &Event) -> bool {
        match e {
            Event::Moved {
                unit,
                to,
                contact,
                from,
                distance,
                ..
            } => self.with_unit(unit, |u| {
                u.base = *to;
                u.status.continuing = false;
                u.bound.moved = true;
                u.bound.spent += *distance;
                if u.bound.turn_start.is_none() {
                    u.bound.turn_start = Some(*from);
                }
                if contact.is_some() {
                    u.bound.charged = true;
                }
            }),
            Event::Deployed { unit, to } => self.with_unit(unit, |u| {
                u.base = *to;
                u.status.undeployed = false;
                // A general who fell returns (BBB).
                u.status.removed = false;
            }),
            Event::Recoiled {
                unit,
                to,
                from,
                voluntary,
            } => self.with_unit(unit, |u| {
                u.base = *to;
                u.bound.recoiled = true;
                if *voluntary {
                    u.bound.fell_back = true;
                    return;
                }
                let d = to.centre.minus(from.centre);
                let (dir, total) = u.bound.recoil.unwrap_or((Pt::new(0.0, 0.0), 0.0));
                let dir = if d.len() > 1e-3 {
                    d.scale(1.0 / d.len())
                } else {
                    dir
                };
                u.bound.recoil = Some((dir, total + d.len()));
            }),
            Event::StandsOverrun { unit, stands, .. } => self.with_unit(unit, |u| {
                let bases = u.loose_bases();
                let mut keep_stands = Vec::new();
                let mut keep_bases = Vec::new();
                for (i, (st, b)) in u.stands.iter().zip(bases).enumerate() {
                    if stands.contains(&i) {
                        u.status.hits += st.figures;
                    } else {
                        keep_stands.push(st.clone());
                        keep_bases.push(b);
                    }
                }
                u.stands = keep_stands;
                if u.stands.is_empty() {
                    u.status.removed = true;
                } else {
                    u.settle(&keep_bases);
                }
            }),
            Event::StandMoved {
                unit,
                stand,
                to,
                distance,
                ..
            } => self.with_unit(unit, |u| {
                let mut bases = u.loose_bases();
                if let Some(b) = bases.get_mut(*stand) {
                    *b = *to;
                    u.settle(&bases);
                    let n = u.stands.len();
                    u.bound.stand_spent.resize(n, 0.0);
                    u.bound.stand_spent[*stand] += *distance;
                    u.bound.moved = true;
                }
            }),
            Event::Fled { unit, to, .. } => self.with_unit(unit, |u| u.base = *to),
            Event::StandsPlaced {
                unit,
                bases,
                formed,
                ..
            } => self.with_unit(unit, |u| {
                if let Some((formation, cost)) = formed {
                    u.formation = *formation;
                    if *cost > 0.0 {
                        u.bound.formed = true;
                        u.bound.spent += *cost;
                    }
                }
                u.settle(bases)
            }),
            Event::UnlimberedTo {
                unit,
                formation,
                from,
                to,
                cost,
            } => {
                self.apply(&Event::Unlimbered { unit: unit.clone() });
                self.apply(&Event::Reformed {
                    unit: unit.clone(),
                    formation: *formation,
                    from: *from,
                    to: *to,
                    cost: *cost,
                });
            }
            Event::FrontalCharge { unit, on } => {
                self.with_unit(unit, |u| u.status.frontal_charge = *on)
            }
            Event::PursuitOrdered { unit, pursue } => {
                self.with_unit(unit, |u| u.status.hold_ground = !*pursue)
            }
            Event::Pursued {
                unit,
                to,
                continuing,
                ..
            } => {
                self.with_unit(unit, |u| {
                    u.base = *to;
                    u.bound.pursuing = true;
                });
                if let Some(c) = continuing {
                    let by = unit.clone();
                    self.with_unit(c, |u| {
                        u.status.continuing = true;
                        u.status.pursued_by = Some(by);
                    });
                }
            }
            _ => return false,
        }
        true
    }

    /// The results of rolls: hits, losses, re-formed ranks; false for any other event.
    fn apply_roll(&mut self, e: &Event) -> bool {
        match e {
            Event::Fire {
                shooter, support, ..
            } => {
                self.with_unit(shooter, |u| u.bound.fired = true);
                for s in support {
                    self.with_unit(s, |u| u.bound.fired = true);
                }
            }
            Event::CloseCombat {
                attacker, defender, ..
            } => {
                for id in [attacker, defender] {
                    self.with_unit(id, |u| {
                        u.bound.fought = true;
                        u.status.continuing = false;
                    });
                }
            }
            Event::Volley {
                shooter,
                target,
                hits,
                ..
            } => {
                self.with_unit(shooter, |u| u.bound.fired = true);
                let (shooter, hits) = (shooter.clone(), *hits);
                self.with_unit(target, |u| {
                    if let Some(e) = u.bound.shot_by.iter_mut().find(|e| e.0 == shooter) {
                        e.1 += hits;
                    } else {
                        u.bound.shot_by.push((shooter, hits));
                    }
                });
            }
            Event::Test {
                unit, test, passed, ..
            } => {
                if *test == TestKind::Command && !passed {
                    self.with_unit(unit, |u| u.bound.halted = true);
                }
            }
            Event::Melee { strikes } => {
                for s in strikes {
                    for id in [&s.unit, &s.target] {
                        self.with_unit(id, |u| u.bound.fought = true);
                    }
                }
                for s in strikes {
                    self.with_unit(&s.target, |u| {
                        u.status.continuing = false;
                        u.status.pursued_by = None;
                    });
                }
            }
            Event::Losses {
                unit,
                figures,
                stands,
                ..
            } => self.with_unit(unit, |u| {
                u.status.hits += *figures;
                let loose = u.is_loose().then(|| u.loose_bases());
                let old = std::mem::take(&mut u.stands);
                u.stands = stands
                    .iter()
                    .enumerate()
                    .map(|(i, &f)| Stand {
                        figures: f,
                        at: old.get(i).and_then(|s| s.at),
                    })
                    .collect();
                if let Some(mut bases) = loose {
                    bases.truncate(u.stands.len());
                    u.settle(&bases);
                }
            }),
            Event::Reformed {
                unit,
                formation,
                to,
                cost,
                ..
            } => self.with_unit(unit, |u| {
                // A new formation or facing gathers the stands that moved loose into their places
                // in it (closing up after losses leaves them where they stand).
                if u.formation != *formation || u.base.facing != to.facing {
                    for s in &mut u.stands {
                        s.at = None;
                    }
                }
                u.formation = *formation;
                u.base = *to;
                if *cost > 0.0 {
                    u.bound.formed = true;
                    u.bound.spent += *cost;
                }
            }),
            _ => return false,
        }
        true
    }

    fn with_unit(&mut self, id: &UnitId, f: impl FnOnce(&mut Unit)) {
        if let Some(i) = self.index_of(id) {
            f(&mut self.units_mut()[i]);
        }
    }

    /// Restarts the dice from a seed (before any command).
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.dice = Dice::seeded(seed);
    }

    /// Uses the given results instead of the seeded generator (before any command).
    pub fn script_dice(&mut self, results: &[u8]) {
        self.scripted = Some(Arc::new(results.to_vec()));
        self.dice = Dice::scripted(results);
    }

    /// Rolls one die, failing cleanly when scripted dice run out.
    pub fn d6(&mut self) -> Result<u8, RuleError> {
        let die = self.dice.d6()?;
        self.dice_rolled += 1;
        self.cmd_dice.push(die);
        Ok(die)
    }

    /// Runs a procedure that throws its own dice (`roll`) with the battle's dice; running out
    /// of dice refuses the command (the procedure's result is dropped).
    pub fn with_dice<T>(
        &mut self,
        procedure: impl FnOnce(&mut dyn FnMut() -> u8) -> T,
    ) -> Result<T, RuleError> {
        let mut err = None;
        let out = procedure(&mut || match self.d6() {
            Ok(d) => d,
            Err(e) => {
                err.get_or_insert(e);
                1
            }
        });
        match err {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }
}
