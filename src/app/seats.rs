//! Who sits at the table: the side that gives the next command, the sides that may act now,
//! and, in a step the sides play in turn at a hotseat table, the seat passed from one to the
//! other.

use super::Game;

impl Game {
    /// The side that gives the next command: the one at the seat.
    pub fn acting_side(&self) -> usize {
        let b = &self.play.battle;
        self.acting_sides().first().copied().unwrap_or(b.active)
    }

    /// The sides whose units may be given commands now, the one at the seat first: the rules'
    /// (`Ruleset::acting_sides`), less a side that has played its part of a step the sides
    /// play in turn.
    pub fn acting_sides(&self) -> Vec<usize> {
        let (b, rules) = (&self.play.battle, &self.play.rules);
        let mut sides = rules.acting_sides(b);
        if let Some(side) = self.passed_now() {
            sides.retain(|s| *s != side);
        }
        sides
    }

    /// The sides whose units the player at the table may command now: at a hotseat table, in
    /// a step the sides play in turn, only the one at the seat (neither declares for the
    /// other); else `acting_sides`.
    pub fn commanding_sides(&self, hotseat: bool) -> Vec<usize> {
        let mut sides = self.acting_sides();
        if hotseat && self.play.rules.in_turns(&self.play.battle) {
            sides.truncate(1);
        }
        sides
    }

    /// The side that has played its part of this step, where the sides play it in turn.
    fn passed_now(&self) -> Option<usize> {
        let b = &self.play.battle;
        self.passed
            .filter(|(turn, phase, _)| *turn == b.turn && *phase == b.phase)
            .map(|(.., side)| side)
    }

    /// At a hotseat table, in a step the sides play in turn: the first side's end of its part
    /// hands the seat to the other (which has a part to play) rather than end the step. True
    /// where it did.
    pub(super) fn pass_in_turn(&mut self) -> bool {
        let (b, rules) = (&self.play.battle, &self.play.rules);
        let sides = self.acting_sides();
        if !rules.in_turns(b) || self.passed_now().is_some() || sides.len() < 2 {
            return false;
        }
        let (done, next) = (sides[0], sides[1]);
        if rules.part_to_play(b, next).is_err() {
            return false;
        }
        let name = |s: usize| {
            b.sides
                .get(s)
                .map_or_else(|| format!("side {s}"), |x| x.name.clone())
        };
        self.notice = Some(format!(
            "{} has played its part of the {}: {} plays its own, then ends the step",
            name(done),
            b.phase.name(),
            name(next)
        ));
        self.passed = Some((b.turn, b.phase, done));
        self.version += 1;
        true
    }

    /// Where the seat goes now at a hotseat table: `Ok(Some(side))` when it passes to a side
    /// with a part to play, `Ok(None)` when it stays, and `Err(words)` when the side that acts
    /// has nothing to do but end the phase (the seat stays with the player there, who ends it).
    pub fn hand_over_to(&self) -> Result<Option<usize>, String> {
        let acting = self.acting_side();
        if self.seated == Some(acting) || self.play.is_over() {
            return Ok(None);
        }
        // Nobody has sat down yet: the first side takes the seat, whatever it has to do.
        if self.seated.is_none() {
            return Ok(Some(acting));
        }
        self.play
            .rules
            .part_to_play(&self.play, acting)
            .map(|()| Some(acting))
    }
}
