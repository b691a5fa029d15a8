//! A game replayed from its start, event by event, forwards and backwards, by the keys or by
//! itself.

use super::Game;
use crate::rules::Battle;
use crate::rules::command::Command;
use bevy::prelude::*;

/// Replays a game from its start, event by event, forwards and backwards: the board shows the
/// state after the command whose event is shown, and animates each command as it is reached.
#[derive(Resource)]
pub struct Replay {
    /// The game at its start.
    start: crate::rules::Game,
    commands: Vec<Command>,
    /// Where the dice were seeded again: before command `after` (counting from 0), `seed`.
    reseed: Vec<crate::rules::save::Reseed>,
    /// The log's length at the start and after each command.
    ends: Vec<usize>,
    /// Commands carried out on the board.
    pub done: usize,
    /// Events shown in the log (the last one is the event being shown).
    pub shown: usize,
    /// Stepping forwards by itself.
    pub playing: bool,
    timer: Timer,
}

/// What the replay controls ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayStep {
    Forward,
    Back,
    ToStart,
    ToEnd,
}

impl Replay {
    /// A fresh game at the start of `b`'s, and the replay of its commands.
    pub fn start(b: &Battle) -> Result<(crate::rules::Game, Replay), String> {
        let reseed: Vec<crate::rules::save::Reseed> = b
            .reseeds
            .iter()
            .map(|&(after, seed)| crate::rules::save::Reseed { after, seed })
            .collect();
        Replay::start_reseeded(b, b.seed, &reseed)
    }

    /// A fresh game at the start of `b`'s, and the replay of its commands: the dice of `seed`
    /// (unless scripted), seeded again where `reseed` says (a save a batch played on from
    /// another, as `save::Loaded` gives them).
    pub fn start_reseeded(
        b: &Battle,
        seed: u64,
        reseed: &[crate::rules::save::Reseed],
    ) -> Result<(crate::rules::Game, Replay), String> {
        let mut fresh = crate::rules::scenario::build(&b.scenario, "", "replay").map_err(|d| {
            d.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        match &b.scripted {
            Some(d) => fresh.script_dice(d),
            None => fresh.reseed(seed),
        }
        let mut whole = fresh.clone();
        let mut ends = vec![whole.log.len()];
        for (i, c) in b.commands.iter().enumerate() {
            reseed_before(&mut whole, reseed, i);
            whole
                .execute(c.clone())
                .map_err(|e| format!("command {} does not replay: {e:?}", i + 1))?;
            ends.push(whole.log.len());
        }
        let shown = ends[0];
        Ok((
            fresh.clone(),
            Replay {
                start: fresh,
                commands: b.commands.to_vec(),
                reseed: reseed.to_vec(),
                ends,
                done: 0,
                shown,
                playing: false,
                timer: Timer::from_seconds(0.5, TimerMode::Repeating),
            },
        ))
    }

    /// Events in the whole game.
    pub fn total(&self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }

    /// Commands in the whole game.
    pub fn commands(&self) -> usize {
        self.commands.len()
    }

    /// Moves the replay one step; the game in play follows. Returns whether anything changed.
    pub fn step(&mut self, play: &mut crate::rules::Game, how: ReplayStep) -> bool {
        let target = match how {
            ReplayStep::Forward => self.shown + 1,
            ReplayStep::Back => self.shown.saturating_sub(1),
            ReplayStep::ToStart => 0,
            ReplayStep::ToEnd => self.total(),
        }
        .clamp(self.ends[0], self.total());
        if target == self.shown && !(how == ReplayStep::ToEnd && self.done < self.commands.len()) {
            return false;
        }
        // The commands whose events reach the target (at the end: every command, even one
        // that added no event or a re-roll that left the log no longer).
        let need = if target >= self.total() {
            self.commands.len()
        } else {
            self.ends.iter().position(|e| *e >= target).unwrap_or(0)
        };
        if need < self.done {
            *play = self.start.clone();
            self.done = 0;
        }
        while self.done < need {
            reseed_before(play, &self.reseed, self.done);
            if play.execute(self.commands[self.done].clone()).is_err() {
                break;
            }
            self.done += 1;
        }
        self.shown = target;
        true
    }
}

/// Seeds the dice again where a reseed falls before command `i`.
fn reseed_before(game: &mut crate::rules::Game, reseed: &[crate::rules::save::Reseed], i: usize) {
    for r in reseed.iter().filter(|r| r.after == i) {
        game.reseed(r.seed);
    }
}

pub(super) fn replay_step(
    time: Res<Time>,
    mut replay: ResMut<Replay>,
    mut game: ResMut<Game>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
) {
    let mut how = None;
    if let Some(k) = keys {
        // Period and comma step (the arrows pan the camera); P plays or pauses.
        if k.just_pressed(KeyCode::Period) {
            how = Some(ReplayStep::Forward);
        } else if k.just_pressed(KeyCode::Comma) {
            how = Some(ReplayStep::Back);
        } else if k.just_pressed(KeyCode::KeyP) {
            replay.playing = !replay.playing;
        }
    }
    if replay.playing && replay.timer.tick(time.delta()).just_finished() {
        how = Some(ReplayStep::Forward);
        if replay.shown >= replay.total() {
            replay.playing = false;
        }
    }
    if let Some(h) = how {
        let before = replay.done;
        if replay.step(&mut game.play, h) && replay.done != before {
            game.version += 1;
        }
    }
}
