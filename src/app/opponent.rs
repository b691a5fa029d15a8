//! Playing one side against the opponent: its commands go through the same door as the
//! player's (an `Intent`), one at a time at a pace the eye can follow, each with its reason in
//! the log; a Skip plays the rest of its bound at once. No handover screen appears for it.
//!
//! The opponent plans on a copy of the battle in a background task ("thinking…"), never on
//! the frame: the task works out the whole of its part of the step on the copy (the copy
//! throws the battle's own dice, so the commands it finds are the ones the battle will
//! take), and the window sends them on at its pace. Where the battle changes otherwise
//! meanwhile (the player acts in a step both sides play, or takes a command back) the
//! commands left are dropped and it thinks again.

use super::state::{Menu, Screen};
use super::{AppSystems, Game, Intent};
use crate::players::planner::{Aim, DEFAULT_THINK, Planner};
use crate::rules::command::Command;
use crate::rules::model::Side;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, TaskPool, futures::check_ready};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::collections::VecDeque;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        computer_plays
            .before(super::apply_intents)
            .in_set(AppSystems::Apply)
            .run_if(resource_exists::<Computer>)
            // It waits while the briefing or the game menu is open.
            .run_if(in_state(Menu::Closed))
            .run_if(in_state(Screen::Playing)),
    )
    .add_systems(
        EguiPrimaryContextPass,
        skip_panel
            .run_if(resource_exists::<Computer>)
            .run_if(in_state(Screen::Playing)),
    );
}

/// What the background task brings back: the planner, and its part of the step worked out on
/// a copy of the battle as it stood with `commands` commands given.
struct Thought {
    planner: Planner,
    commands: usize,
    moves: Vec<(Command, String)>,
    aims: Vec<Aim>,
}

/// The opponent at the table, and the side it plays.
#[derive(Resource)]
pub struct Computer {
    pub side: Side,
    /// Plans it judges a phase (the window's setting; `volley batch --think`).
    pub think: usize,
    /// The planner, while no task holds it.
    planner: Option<Planner>,
    /// The task thinking now, if one is.
    thinking: Option<Task<Thought>>,
    /// Its commands worked out and not yet sent, and the battle's count of commands given at
    /// which the next of them is due.
    ready: VecDeque<(Command, String)>,
    due_at: usize,
    /// Seconds until its next command.
    wait: f32,
    /// Play the rest of this bound at once.
    skip: bool,
    /// The battle's version (`Game::version`) at which it last found nothing to do: it looks
    /// again only once the battle has changed.
    idle_at: Option<u64>,
    /// What its units go for by its latest plan (kept until it plans again).
    aims: Vec<Aim>,
    /// The battle's version at which it ended a step both sides act in (never twice for one).
    ended_at: Option<u64>,
}

/// Why Undo refuses to take back the opponent's command.
pub const OPPONENTS_COMMAND: &str = "that was the opponent's command: only your own are taken back";

impl Game {
    /// After a load: the opponent seated where the save says it played (none, else), the
    /// last game's reasons forgotten (they were placed by its log), and, against the
    /// opponent, whose commands the save does not mark, nothing from before the load to take
    /// back.
    pub(super) fn seat_opponent_loaded(&mut self, opponent: Option<Side>, commands: &mut Commands) {
        match opponent {
            Some(side) => commands.insert_resource(Computer::new(side)),
            None => commands.remove_resource::<Computer>(),
        };
        self.reasons.clear();
        self.opponent_upto = if opponent.is_some() {
            self.play.commands.len()
        } else {
            0
        };
    }

    /// Whether the last command to take back was the opponent's (or, against it, came before
    /// the load): Undo takes back only the player's own.
    pub fn opponents_last(&self) -> bool {
        self.play.can_undo() && self.play.commands.len() <= self.opponent_upto
    }
}

impl Computer {
    /// Why the player may not give `intent`: a command for one of the opponent's units. The
    /// player orders only their own side's units, in a step both sides act in too (a click on
    /// the opponent's unit shows its card, never its orders).
    pub fn not_yours(&self, game: &Game, intent: &Intent) -> Option<String> {
        let Intent::Do(c) = intent else { return None };
        let u = c.unit().and_then(|u| game.play.unit(u).ok())?;
        (u.side == self.side)
            .then(|| format!("{} is the opponent's: it gives its own orders", u.name))
    }

    /// Seconds between its commands: long enough to watch each move's animation.
    const PACE: f32 = 0.8;

    pub fn new(side: Side) -> Self {
        Computer::thinking_for(side, DEFAULT_THINK)
    }

    /// The opponent at `side`, judging `think` plans a phase.
    pub fn thinking_for(side: Side, think: usize) -> Self {
        Computer {
            side,
            think,
            planner: Some(Planner::new(think)),
            thinking: None,
            ready: VecDeque::new(),
            due_at: 0,
            wait: Self::PACE,
            skip: false,
            idle_at: None,
            aims: Vec::new(),
            ended_at: None,
        }
    }

    /// Where it has played its part of a step both sides act in and the player's side has
    /// none to play (`Ruleset::part_to_play` says it has none),
    /// why it ends the step rather than wait for the player.
    fn ends_for_both(&self, game: &Game) -> Option<String> {
        let play = &game.play;
        if self.alone(play) || self.ended_at == Some(game.version) {
            return None;
        }
        let mut why = Vec::new();
        for s in play
            .rules
            .acting_sides(play)
            .into_iter()
            .filter(|s| *s != self.side)
        {
            why.push(play.rules.part_to_play(play, s).err()?);
        }
        (!why.is_empty()).then(|| format!("ends the step: {}", why.join("; ")))
    }

    /// What its units go for by its latest plan.
    pub fn aims(&self) -> &[Aim] {
        &self.aims
    }

    /// Plays the rest of its part at once, from the next frame.
    pub fn skip(&mut self) {
        self.skip = true;
    }

    /// Whether a task is thinking now.
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Whether it is the opponent's part to act now: placing its units, or its units acting.
    pub fn to_act(&self, play: &crate::rules::Game) -> bool {
        let b: &crate::rules::Battle = play;
        if b.is_over() {
            return false;
        }
        match play.rules.deployment(b) {
            Some(d) => d.side == self.side,
            None => play.rules.acting_sides(b).contains(&self.side),
        }
    }

    /// Whether it acts alone now (placing its units, or a step only its side acts in): the
    /// player then waits for it. In a step both sides act in, each plays its part as it likes
    /// and the player ends the step.
    pub fn alone(&self, play: &crate::rules::Game) -> bool {
        let b: &crate::rules::Battle = play;
        match play.rules.deployment(b) {
            Some(d) => d.side == self.side,
            None => play.rules.acting_sides(b) == vec![self.side],
        }
    }

    /// Whether the player must wait for it: it is its part alone to play now.
    pub fn busy(&self, play: &crate::rules::Game) -> bool {
        self.to_act(play) && self.alone(play)
    }

    /// Whether it has played its part of a step both sides act in, and waits for the player
    /// to play theirs and end the step.
    pub fn done_in(&self, game: &Game) -> bool {
        self.to_act(&game.play)
            && !self.alone(&game.play)
            && self.thinking.is_none()
            && self.ready.is_empty()
            && self.idle_at == Some(game.version)
    }

    /// Starts a task working out its part of the step from the battle as it stands: command
    /// by command on a copy, and the end of the step where the step is its alone to end (in a
    /// step both sides act in the player ends it: the opponent never cuts the player's part
    /// short).
    fn start_thinking(&mut self, play: &crate::rules::Game) {
        let Some(mut planner) = self.planner.take() else {
            return;
        };
        planner.set_think(self.think);
        let side = self.side;
        let alone = self.alone(play);
        let mut copy = play.fork();
        let commands = play.commands.len();
        let pool = AsyncComputeTaskPool::get_or_init(TaskPool::default);
        self.thinking = Some(pool.spawn(async move {
            let moves = part_of_step(&mut planner, &mut copy, side, alone);
            let aims = planner.aims().to_vec();
            Thought {
                planner,
                commands,
                moves,
                aims,
            }
        }));
    }

    /// Takes back what a finished task thought; true when one finished this frame.
    fn collect(&mut self, commands_now: usize) -> bool {
        let Some(task) = self.thinking.as_mut() else {
            return false;
        };
        let Some(thought) = check_ready(task) else {
            return false;
        };
        self.thinking = None;
        self.planner = Some(thought.planner);
        if thought.commands == commands_now {
            self.ready = thought.moves.into();
            self.due_at = commands_now;
            if !thought.aims.is_empty() {
                self.aims = thought.aims;
            }
        } else {
            self.ready.clear();
        }
        true
    }
}

/// `side`'s part of the step, worked out on `copy` (which it plays on): each command the
/// planner gives, with its reason, and the end of the step where `alone`.
pub fn part_of_step(
    planner: &mut Planner,
    copy: &mut crate::rules::Game,
    side: Side,
    alone: bool,
) -> Vec<(Command, String)> {
    let start = (copy.turn, copy.phase, copy.active, copy.deployment_step);
    let same = |b: &crate::rules::Battle| (b.turn, b.phase, b.active, b.deployment_step) == start;
    let mut moves = Vec::new();
    for _ in 0..(8 * copy.units.len() + 32) {
        if !same(copy) {
            break;
        }
        let Some(d) = planner.decide(copy, side) else {
            break;
        };
        if copy.execute(d.command.clone()).is_err() {
            break;
        }
        moves.push((d.command, d.reason));
    }
    if alone && same(copy) && !copy.is_over() {
        let d = planner.finish(copy, side);
        if copy.execute(d.command.clone()).is_ok() {
            moves.push((d.command, d.reason));
        }
    }
    moves
}

fn computer_plays(
    time: Res<Time>,
    mut computer: ResMut<Computer>,
    game: Option<Res<Game>>,
    replay: Option<Res<super::Replay>>,
    mut intents: MessageWriter<Intent>,
) {
    let Some(game) = game else { return };
    let given = game.play.commands.len();
    computer.collect(given);
    // A replay only shows the game: the opponent's part in it is the one it played.
    if replay.is_some() || !computer.to_act(&game.play) {
        computer.skip = false;
        computer.wait = Computer::PACE;
        computer.idle_at = None;
        computer.ready.clear();
        return;
    }
    if computer.is_thinking() {
        return;
    }
    // Commands worked out for another state of the battle are dropped.
    if !computer.ready.is_empty() && computer.due_at != given {
        computer.ready.clear();
    }
    if computer.ready.is_empty() {
        // Nothing to do until the battle changes: it does not think again meanwhile.
        if computer.idle_at == Some(game.version) {
            computer.skip = false;
            if let Some(why) = computer.ends_for_both(&game) {
                computer.ended_at = Some(game.version);
                intents.write(Intent::Opponent(Command::EndPhase, why));
            }
            return;
        }
        computer.idle_at = Some(game.version);
        computer.start_thinking(&game.play);
        return;
    }
    computer.wait -= time.delta_secs();
    if computer.wait > 0.0 && !computer.skip {
        return;
    }
    computer.wait = Computer::PACE;
    let n = if computer.skip {
        computer.ready.len()
    } else {
        1
    };
    computer.skip = false;
    for _ in 0..n {
        if let Some((cmd, reason)) = computer.ready.pop_front() {
            intents.write(Intent::Opponent(cmd, reason));
            computer.due_at += 1;
        }
    }
}

fn skip_panel(
    mut ctx: EguiContexts,
    mut computer: ResMut<Computer>,
    game: Res<Game>,
    replay: Option<Res<super::Replay>>,
    docks: Res<super::state::Docks>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    if !computer.to_act(&game.play) || replay.is_some() {
        return Ok(());
    }
    let done = computer.done_in(&game);
    let name = game
        .play
        .sides
        .get(computer.side)
        .map(|s| s.name.clone())
        .unwrap_or_default();
    // Where the other notices go: under the turn bar, between the docks, in the slot of the
    // game's word (a refusal keeps the first).
    egui::Area::new(egui::Id::new("opponent"))
        .anchor(egui::Align2::CENTER_TOP, super::state::banner_at(&docks, 1))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    // Where the rules let the side not moving act in the mover's phase (BBB's
                    // movement), the opponent plays its part there too: say so, or it reads as
                    // moving out of turn.
                    if done {
                        ui.label(format!(
                            "The opponent has played {name}'s part: play yours, then end the step"
                        ));
                        return;
                    }
                    if computer.is_thinking() {
                        ui.label(format!("The opponent is thinking for {name}…"));
                    } else if game.play.active == computer.side {
                        ui.label(format!("The opponent is playing {name}…"));
                    } else {
                        ui.label(format!(
                            "The opponent is playing {name}'s part in the enemy's bound…"
                        ));
                    }
                    if ui
                        .button("Skip")
                        .on_hover_text("Play the rest of its bound at once (K)")
                        .clicked()
                        || ui.input(|i| i.key_pressed(egui::Key::K))
                    {
                        computer.skip = true;
                    }
                });
            });
        });
    Ok(())
}
