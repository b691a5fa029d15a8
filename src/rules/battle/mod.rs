//! The battle: table, terrain, sides, units, turn and phase, dice, log and undo history; the
//! state the rules read and change, which knows nothing of them (`game.rs` joins the two).

use super::command::{Command, Event, RuleError};
use super::dice::{Dice, Throw, hand_back};
use super::geometry::{Base, Pt};
use super::log::{Commands, Events, Log};
use super::model::{Division, IdIndex, Phase, Side, SideInfo, Unit, UnitId, Units};
use super::scenario::raw::RawScenario;
use super::terrain::Terrain;
use crate::rules::command::RerollRefusal;
use parry2d::bounding_volume::Aabb;
use parry2d::math::Vector;
use parry2d::partitioning::{Bvh, BvhBuildStrategy};
use std::sync::{Arc, OnceLock};

mod apply;
mod table;

pub use super::measure::Scale;
pub use table::{Info, Objective, Table, Zone};

/// How many commands can be taken back.
pub const UNDO_DEPTH: usize = 64;

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

/// The whole state of a game on the table; the rules it is played by are the `Game`'s.
#[derive(Clone, Debug)]
pub struct Battle {
    /// The scenario as written: saves carry it so that they replay anywhere.
    pub scenario: Arc<RawScenario>,
    /// Scripted dice given at the start, if any (saved so the replay uses them too).
    pub scripted: Option<Arc<Vec<u8>>>,
    pub info: Arc<Info>,
    pub table: Table,
    pub scale: Scale,
    pub terrain: Terrain,
    pub sides: Arc<Vec<SideInfo>>,
    /// Shared with the undo history and copies until changed (`units_mut`), and each unit
    /// within until it changes: a command copies the units it changes, and no other.
    pub units: Arc<Units>,
    /// Each unit's index by its id, as the units stood at the start: a unit's id and place in
    /// the list never change, and a unit found there is checked to be the one sought.
    ids: Arc<IdIndex>,
    /// The units' places, for area queries (`units_near`); cleared by `units_mut`.
    places: Places,
    pub zones: Arc<Vec<Zone>>,
    pub objective: Option<Objective>,
    /// The scenario's objectives and victory conditions.
    pub victory: Arc<crate::rules::victory::Victory>,
    /// Who holds each of the victory's objectives, as last recorded (`ObjectiveHeld`).
    pub held: Vec<Option<Side>>,
    pub turn_limit: u32,
    /// The seed the dice began with.
    pub seed: u64,
    /// Where the dice were seeded again after the game began (a batch played on from a save):
    /// after how many commands, and the seed. A save records them, so that loading replays
    /// the same dice.
    pub reseeds: Vec<(usize, u64)>,
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
    undo: History,
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

/// The undo history, oldest first: a ring, so that dropping the oldest past `UNDO_DEPTH` moves
/// none of the others (shifting the whole list down was a tenth of a random game's time).
#[derive(Clone, Debug, Default)]
struct History(std::collections::VecDeque<Snapshot>);

impl History {
    fn push(&mut self, snap: Snapshot) {
        self.0.push_back(snap);
        if self.0.len() > UNDO_DEPTH {
            self.0.pop_front();
        }
    }
    fn pop(&mut self) -> Option<Snapshot> {
        self.0.pop_back()
    }
    fn last(&self) -> Option<&Snapshot> {
        self.0.back()
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Battle {
    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per part of the table, each checked by the caller"
    )]
    pub(crate) fn assemble(
        scenario: RawScenario,
        info: Info,
        phase: Phase,
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
        let ids = IdIndex::new(units.iter());
        Battle {
            ids: Arc::new(ids),
            scenario: Arc::new(scenario),
            scripted: None,
            info: Arc::new(info),
            table,
            scale,
            terrain,
            sides: Arc::new(sides),
            units: Arc::new(units.into()),
            places: Places::default(),
            zones: Arc::new(zones),
            objective,
            victory: Arc::default(),
            held: Vec::new(),
            turn_limit,
            seed,
            reseeds: Vec::new(),
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
            undo: History::default(),
        }
    }

    /// Sets the objectives and conditions played by, each objective with its owner at the
    /// start (before any command).
    pub fn set_victory(&mut self, v: crate::rules::victory::Victory) {
        self.held = v.objectives.iter().map(|p| p.owner).collect();
        self.victory = Arc::new(v);
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
            table: self.table,
            scale: self.scale.clone(),
            terrain: self.terrain.clone(),
            sides: self.sides.clone(),
            units: self.units.clone(),
            ids: self.ids.clone(),
            places: self.places.clone(),
            zones: self.zones.clone(),
            objective: self.objective.clone(),
            victory: self.victory.clone(),
            held: self.held.clone(),
            turn_limit: self.turn_limit,
            seed: self.seed,
            reseeds: self.reseeds.clone(),
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
            undo: History::default(),
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
    pub fn units_mut(&mut self) -> &mut Units {
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
        let holds = |i: &usize| {
            self.units
                .get(*i)
                .is_some_and(|u| Arc::ptr_eq(&u.id.0, &id.0))
        };
        // The first unit holding the id itself, found by the address of its text; else by a
        // walk (a unit not indexed); else the first unit with its text.
        self.ids
            .by_address(id)
            .filter(holds)
            .or_else(|| (0..self.units.len()).find(holds))
            .or_else(|| {
                self.ids
                    .by_text(id)
                    .filter(|i| self.units.get(*i).is_some_and(|u| u.id == *id))
            })
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
        self.phase == Phase::GAME_OVER
    }

    /// Runs one command as a single step: `resolve` (the rules' procedure) works on the battle
    /// itself; a refusal puts back the state before it, an accepted command is kept in the
    /// commands and the undo history. The door is `Game::execute`, which knows the rules.
    pub(crate) fn run(
        &mut self,
        cmd: Command,
        resolve: impl FnOnce(&mut Battle, &Command, &mut Vec<Event>) -> Result<(), RuleError>,
    ) -> Result<Vec<Event>, RuleError> {
        let before = self.snapshot();
        self.cmd_dice.clear();
        let mut events = Vec::new();
        if let Err(e) = resolve(self, &cmd, &mut events) {
            self.restore(before);
            return Err(e);
        }
        self.commands.push(cmd);
        self.remember(before);
        Ok(events)
    }

    /// A general's re-roll (`cmd`) of die `at` of the last command, which the rules allow: the
    /// last command runs again through `resolve` from the state before it, with a new die for
    /// that one and every other die as it fell. Dice are handed back by throw, not by place:
    /// `throws` names the throw each die of a command was from its events (unit, roll, die);
    /// a throw the first resolution made keeps its die, one it did not make (the new die
    /// changed what is thrown) takes a new die, and old dice no longer thrown are not used.
    /// What a run throws is known only once it has run, so the first run has the old dice in
    /// their places, and the command runs again with the dice its own throws call for until
    /// the two agree (at most `REPLAYS` runs; the last stands).
    pub(crate) fn throw_again(
        &mut self,
        by: &UnitId,
        unit: &UnitId,
        at: usize,
        cmd: &Command,
        throws: impl Fn(Events<'_>, usize) -> Vec<Throw>,
        resolve: impl Fn(&mut Battle, &Command, &mut Vec<Event>) -> Result<(), RuleError>,
    ) -> Result<Vec<Event>, RuleError> {
        /// Runs of the command before the last stands (two where the new die changed what is
        /// thrown, one where it did not).
        const REPLAYS: usize = 8;
        let (Some(prev), Some(last)) = (self.undo.last(), self.commands.last()) else {
            return Err(RuleError::refused(
                RerollRefusal::NoRollToThrowAgain,
                "there is no roll to throw again".into(),
            ));
        };
        if matches!(last, Command::Reroll { .. }) {
            return Err(RuleError::refused(
                RerollRefusal::ThrownAgainAlready,
                "that roll has been thrown again already".into(),
            ));
        }
        let old = throws(self.last_events(), self.cmd_dice.len());
        let (Some(&die), Some(again)) = (self.cmd_dice.get(at), old.get(at)) else {
            return Err(RuleError::refused(
                RerollRefusal::NoSuchDie,
                "there is no such die to throw again".into(),
            ));
        };
        let (last, log_len) = (last.clone(), prev.log_len);
        let chips = self.unit(by)?.extra.chips.saturating_sub(1);
        let mut stream = self.dice.clone();
        let new = stream.d6()?;
        // A run with these dice (`None`: the next new one).
        let run = |plan: &[Option<u8>]| -> Result<(Battle, Vec<Event>), RuleError> {
            let mut fresh = stream.clone();
            let mut given = std::collections::VecDeque::with_capacity(plan.len());
            for d in plan {
                given.push_back(match d {
                    Some(d) => *d,
                    None => fresh.d6()?,
                });
            }
            let mut next = prev.state.clone();
            next.log = self.log.cut(log_len);
            next.dice = Dice::Chain(given, Box::new(fresh));
            next.dice_rolled = self.dice_rolled;
            next.cmd_dice.clear();
            let mut events = Vec::new();
            let (by, unit) = (by.clone(), unit.clone());
            next.emit(
                &mut events,
                Event::Rerolled {
                    by,
                    unit,
                    die,
                    chips,
                },
            );
            resolve(&mut next, &last, &mut events)?;
            Ok((next, events))
        };
        let mut plan: Vec<Option<u8>> = self.cmd_dice.iter().copied().map(Some).collect();
        plan[at] = Some(new);
        let mut runs = 0;
        let (mut next, events, used) = loop {
            runs += 1;
            let (next, events) = run(&plan)?;
            // The dice this run threw as the plan gave them (new ones past its end).
            let n = next.cmd_dice.len();
            let mut used = plan;
            used.resize(n, None);
            let thrown = throws(next.log.since(log_len), n);
            let wanted = hand_back(&old, &self.cmd_dice, again, new, &thrown);
            if wanted == used || runs == REPLAYS {
                break (next, events, used);
            }
            plan = wanted;
        };
        // The dice go on after the new ones the replay threw.
        for _ in used.iter().filter(|d| d.is_none()) {
            stream.d6()?;
        }
        next.dice = stream;
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
    pub fn emit(&mut self, out: &mut Vec<Event>, e: impl Into<Event>) {
        let e = e.into();
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

    /// Restarts the dice from a seed: before any command (and any scripted dice) the seed the
    /// game begins with; after, a reseed the battle records (`reseeds`) for its save.
    pub fn reseed(&mut self, seed: u64) {
        if self.commands.is_empty() && self.reseeds.is_empty() && self.scripted.is_none() {
            self.seed = seed;
        } else {
            self.reseeds.push((self.commands.len(), seed));
        }
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
