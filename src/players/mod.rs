//! Who gives commands besides a person: the opponent that plans (`planner`), the veteran of
//! hand rules before it (`opponent`), the random player, and batch runs that set them against
//! each other. They play through the rules' door like a person does: they read
//! the battle and its previews, and send commands.

pub mod autoplay;
pub mod batch;
pub mod opponent;
pub mod planner;

use crate::rules::battle::Battle;
use crate::rules::game::Game;
use crate::rules::model::Side;
use opponent::Decision;

/// A player that gives a side's commands one at a time, each with its reason: the planner and
/// the veteran.
pub trait Commander {
    /// The next command for `side` in this phase, if it has one worth giving.
    fn decide(&mut self, game: &Game, side: Side) -> Option<Decision>;
    /// The command that ends the phase.
    fn finish(&mut self, game: &Game, side: Side) -> Decision;
    /// Counts a command of its own that the battle refused.
    fn refused_one(&mut self);

    /// Plays `side`'s commands in this phase, and ends it if `end`; returns what it did.
    fn play_phase(&mut self, b: &mut Game, side: Side, end: bool) -> Vec<Decision> {
        let start = (b.turn, b.phase, b.active, b.deployment_step);
        let same = |b: &Battle| (b.turn, b.phase, b.active, b.deployment_step) == start;
        let mut out = Vec::new();
        while same(b) {
            let Some(d) = self.decide(b, side) else { break };
            if b.execute(d.command.clone()).is_err() {
                self.refused_one();
                break;
            }
            out.push(d);
        }
        if end && same(b) && !b.is_over() {
            let d = self.finish(b, side);
            if b.execute(d.command.clone()).is_ok() {
                out.push(d);
            } else {
                self.refused_one();
            }
        }
        out
    }
}
