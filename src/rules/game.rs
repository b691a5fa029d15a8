//! A game: the battle and the rules it is played by, and the one door for change.

use super::battle::Battle;
use super::command::{Command, Event, RuleError};
use super::log::Events;
use super::model::{Side, UnitId};
use super::ruleset::AnyRuleset;
use super::victory::{self, ObjectiveView};
use std::ops::{Deref, DerefMut};

/// A battle and the ruleset it is played by. The battle is the state on the table and knows
/// nothing of its rules, which read and change it; what needs both lives here: the door for
/// commands (re-rolls and undo among them) and copies to try commands on. Scenarios and saves
/// load into a game.
///
/// A game reads as its battle (`Deref`, `DerefMut`): the window, the players and the tests read
/// the table far more often than they ask the rules, and `game.units` says no less than
/// `game.battle.units`. Changing the battle through it is for setting up before play (dice,
/// seed) and for tests; play goes through `execute`, which `Battle` does not have.
#[derive(Clone, Debug)]
pub struct Game {
    pub battle: Battle,
    pub rules: AnyRuleset,
}

impl Game {
    pub fn new(battle: Battle, rules: AnyRuleset) -> Self {
        Game { battle, rules }
    }

    /// The one door for change: check the command, resolve it, and apply its events.
    /// A refused command changes nothing.
    pub fn execute(&mut self, cmd: Command) -> Result<Vec<Event>, RuleError> {
        if cmd == Command::Undo {
            return self.battle.undo();
        }
        if self.battle.is_over() {
            return Err(RuleError::GameOver);
        }
        let rules = &self.rules;
        let resolve = |b: &mut Battle, cmd: &Command, out: &mut Vec<Event>| {
            let turn_before = b.turn;
            rules
                .execute(b, cmd, out)
                .and_then(|()| rules.after_command(b, out))
                .map(|()| victory::after_command(rules.get(), b, out, turn_before))
        };
        if let Command::Exit { unit } = &cmd {
            let unit = unit.clone();
            return self.battle.run(cmd, |b, _, out| {
                let turn_before = b.turn;
                let edge = victory::exit_edge(rules.get(), b, &unit)?;
                b.emit(out, Event::Exited { unit, edge });
                rules.after_command(b, out)?;
                victory::after_command(rules.get(), b, out, turn_before);
                Ok(())
            });
        }
        if let Command::Reroll { by, unit } = &cmd {
            // Which die the rules let the general throw again; the battle replays the last
            // command with it, handing every other throw, as the rules name it, its old die.
            let at = rules.reroll(&self.battle, by, unit)?;
            let throws = |events: Events<'_>, dice| rules.throws(events, dice);
            return self.battle.throw_again(by, unit, at, &cmd, throws, resolve);
        }
        self.battle.run(cmd, resolve)
    }

    /// The scenario's objectives, each with where it is, its worth, its holder now and the
    /// radius of its holding rule in mm (the board marks them).
    pub fn objectives(&self) -> Vec<ObjectiveView> {
        victory::objectives(self.rules.get(), &self.battle)
    }

    /// Each side's standing in the turn bar's words ("Prussia: 2 of 3 objectives, 3 points;
    /// the Lobosch crest held by Austria"); empty where the scenario has no objectives and
    /// states no conditions.
    pub fn standing(&self) -> Vec<String> {
        victory::standing(self.rules.get(), &self.battle)
    }

    /// The objectives and victory conditions in plain words, for the briefing; empty where
    /// the scenario states neither.
    pub fn victory_words(&self) -> Vec<String> {
        victory::victory_words(self.rules.get(), &self.battle)
    }

    /// The winner were the turn limit reached now (None: a draw) and why: the scenario's
    /// conditions at the limit, else the ruleset's own result.
    pub fn result_at_limit(&self) -> (Option<Side>, String) {
        let v = victory::at_limit(self.rules.get(), &self.battle);
        (v.winner, v.reason)
    }

    /// The winner were the turn limit reached now with each objective held as `held` says
    /// (in the order of `objectives`; None: a draw).
    pub fn result_at_limit_holding(&self, held: Vec<Option<Side>>) -> Option<Side> {
        victory::at_limit_holding(self.rules.get(), &self.battle, held).winner
    }

    /// The buttons a unit has now: its ruleset's, and leaving the table where a victory
    /// condition of the scenario takes its side off by an edge it touches.
    pub fn actions(&self, u: &super::model::Unit) -> Vec<super::ruleset::ActionGroup> {
        let mut groups = self.rules.actions(&self.battle, u);
        if let Ok(edge) = victory::exit_edge(self.rules.get(), &self.battle, &u.id) {
            groups.push(super::ruleset::ActionGroup {
                title: String::new(),
                note: format!(
                    "{} touches the {} edge: leaving the table there counts for the scenario's victory, not as a loss",
                    u.name,
                    edge.name()
                ),
                actions: vec![super::ruleset::Action {
                    label: format!("Leave by the {} edge", edge.name()),
                    command: Command::Exit { unit: u.id.clone() },
                }],
            });
        }
        groups
    }

    /// The units of the sides acting now that could still attack now (fire, fight, charge:
    /// whatever a click on an enemy gives in this phase), each with the first such command
    /// found among its eight nearest enemies, nearest first: its preview allows it, and a
    /// copy of the battle accepts it. For a word before a phase is ended with attacks left
    /// unmade.
    pub fn ready_to_attack(&self) -> Vec<(UnitId, Command)> {
        let b = &self.battle;
        if b.is_over() {
            return Vec::new();
        }
        let sides = self.rules.acting_sides(b);
        let mut out = Vec::new();
        for u in b.alive().filter(|u| sides.contains(&u.side)) {
            let mut enemies: Vec<&super::model::Unit> =
                b.alive().filter(|e| e.side != u.side).collect();
            enemies.sort_by(|x, y| {
                x.base
                    .distance(&u.base)
                    .total_cmp(&y.base.distance(&u.base))
            });
            // The nearest eight: a word to the player, not a search, kept cheap on a large
            // table.
            let found = enemies.iter().take(8).find_map(|e| {
                let cmd = self.rules.target_command(b, &u.id, &e.id)?;
                self.rules.preview(b, &cmd).ok()?;
                self.fork().execute(cmd.clone()).ok().map(|_| cmd)
            });
            if let Some(cmd) = found {
                out.push((u.id.clone(), cmd));
            }
        }
        out
    }

    /// A copy to try commands on: everything but the undo history.
    pub fn fork(&self) -> Game {
        Game {
            battle: self.battle.fork(),
            rules: self.rules.clone(),
        }
    }
}

impl Deref for Game {
    type Target = Battle;
    fn deref(&self) -> &Battle {
        &self.battle
    }
}

impl DerefMut for Game {
    fn deref_mut(&mut self) -> &mut Battle {
        &mut self.battle
    }
}
