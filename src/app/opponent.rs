//! Playing one side against the opponent: its commands go through the same door as the
//! player's (an `Intent`), one at a time at a pace the eye can follow, each with its reason in
//! the log; a Skip plays the rest of its bound at once. No handover screen appears for it.

use super::state::{Menu, Screen};
use super::{AppSystems, Game, Intent};
use crate::players::opponent::{Opponent, Style};
use crate::rules::command::Command;
use crate::rules::model::Side;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

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

/// The opponent at the table, and the side it plays.
#[derive(Resource)]
pub struct Computer {
    pub side: Side,
    opponent: Opponent,
    /// Seconds until its next command.
    wait: f32,
    /// Play the rest of this bound at once.
    skip: bool,
    /// The battle's version (`Game::version`) at which it last found nothing to do: it looks
    /// again only once the battle has changed.
    idle_at: Option<u64>,
}

impl Computer {
    /// Seconds between its commands: long enough to watch each move's animation.
    const PACE: f32 = 0.8;

    pub fn new(side: Side) -> Self {
        Computer {
            side,
            opponent: Opponent::new(Style::Odds),
            wait: Self::PACE,
            skip: false,
            idle_at: None,
        }
    }

    /// Plays the rest of its part at once, from the next frame.
    pub fn skip(&mut self) {
        self.skip = true;
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
        self.to_act(&game.play) && !self.alone(&game.play) && self.idle_at == Some(game.version)
    }

    /// Its next command and reason, if it has one now; `EndPhase` when its part is done and
    /// the step is its alone to end (in a step both sides act in, the player ends it: the
    /// opponent never cuts the player's part short).
    fn next(&mut self, play: &crate::rules::Game) -> Option<(Command, String)> {
        if !self.to_act(play) {
            return None;
        }
        if let Some(d) = self.opponent.decide(play, self.side) {
            return Some((d.command, d.reason));
        }
        self.alone(play).then(|| {
            let d = self.opponent.finish(play, self.side);
            (d.command, d.reason)
        })
    }
}

fn computer_plays(
    time: Res<Time>,
    mut computer: ResMut<Computer>,
    game: Option<Res<Game>>,
    replay: Option<Res<super::Replay>>,
    mut intents: MessageWriter<Intent>,
) {
    let Some(game) = game else { return };
    // A replay only shows the game: the opponent's part in it is the one it played.
    if replay.is_some() {
        return;
    }
    if !computer.to_act(&game.play) {
        computer.skip = false;
        computer.wait = Computer::PACE;
        computer.idle_at = None;
        return;
    }
    // Nothing to do until the battle changes: it does not think again meanwhile.
    if computer.idle_at == Some(game.version) {
        computer.skip = false;
        return;
    }
    computer.wait -= time.delta_secs();
    if computer.wait > 0.0 && !computer.skip {
        return;
    }
    computer.wait = Computer::PACE;
    if computer.skip {
        // The rest of its part at once: on a copy, command by command, each sent on.
        let mut b = game.play.fork();
        let mut given = 0;
        for _ in 0..(8 * b.units.len() + 32) {
            let Some((cmd, reason)) = computer.next(&b) else {
                break;
            };
            if b.execute(cmd.clone()).is_err() {
                break;
            }
            intents.write(Intent::Opponent(cmd, reason));
            given += 1;
        }
        computer.skip = false;
        if given == 0 {
            computer.idle_at = Some(game.version);
        }
    } else if let Some((cmd, reason)) = computer.next(&game.play) {
        intents.write(Intent::Opponent(cmd, reason));
    } else {
        computer.idle_at = Some(game.version);
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
                    if game.play.active == computer.side {
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
