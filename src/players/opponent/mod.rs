//! The veteran (the player `veteran`): the opponent of hand rules that came before the planning
//! opponent (`players::planner`), kept as it was, as a yardstick and as the planner's first
//! plan and deployment. A player for solo games and batch runs that plays any ruleset through
//! the same door as a person. It weighs fire and combat by the exact odds of the rules' own previews
//! (each outcome's `Chance::edge`), charges only where the odds favour it (in the formation
//! the rules reward the charge in, where they do: `Ruleset::attack_formation`), keeps its units in
//! line within reach of the enemy and marches at its best pace (with second moves, where the
//! rules allow them) while far off, keeps its generals up with their troops, holds a reserve
//! back, guards the places it keeps once the enemy comes near them, steps its generals back
//! where the rules strike down a general left forward, advances on the objective or the nearest
//! enemy, and takes the buttons a player would (rally, recover, limber and unlimber, command
//! rolls). Every command it gives is tried first on a copy of the battle, so the battle never
//! refuses one. It knows no ruleset: what differs comes through the `Ruleset` trait.
//!
//! A second style, `Style::Straight`, ignores the odds: it attacks whatever it can and moves
//! straight at the nearest enemy. It is the yardstick the opponent is measured against.

use crate::players::Commander;
use crate::rules::battle::Battle;
use crate::rules::command::Command;
use crate::rules::game::Game;
use crate::rules::model::{Phase, Side, UnitId};
use crate::rules::ruleset::Outlook;

mod advance;
mod attack;
mod moves;
mod reading;

use advance::ways;
pub(crate) use advance::{walk_towards, walks};
use attack::{MEETS, lowest_throw_loses};
pub(crate) use attack::{combat_ahead, contact_move};
use reading::{centre, exposed, in_cover, nearest_to, off_line};
pub(crate) use reading::{fights, long_move};

/// How an opponent plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Weighs every attack by its odds; keeps its line and a reserve.
    Odds,
    /// Ignores the odds: attacks whatever it can and moves straight at the nearest enemy.
    Straight,
}

/// One command and why the opponent gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub command: Command,
    /// A short reason for the log ("fires at IR 20: 0.41 expected").
    pub reason: String,
}

/// A command weighed: its worth, its chance to win, and its reason.
struct Weighed {
    value: f64,
    /// The chance of an outcome above nothing.
    win: f64,
    command: Command,
    reason: String,
}

/// What the opponent remembers within one phase: which units have done what, so that it never
/// repeats itself.
#[derive(Default)]
struct PhaseMemory {
    key: Option<(u32, Phase, Side, usize)>,
    done: Vec<(UnitId, &'static str)>,
    given: usize,
    /// The pairs (own unit, enemy) worth attacking, best first, weighed when first asked.
    attacks: Option<Vec<(UnitId, UnitId)>>,
    /// Units another has dressed on this phase: they stand, so the line they anchor holds.
    anchors: Vec<UnitId>,
    /// Every first move is given: units far from the enemy now march on with a second, where
    /// the rules allow one.
    second: bool,
    /// Units weighed for a charge this phase that found none worth making: a unit that cannot
    /// advance either is asked again after each command, and a charge is weighed a bound
    /// ahead on copies of the battle, so it is weighed once a phase.
    no_charge: Vec<UnitId>,
    /// No move that turns the result was found this phase (see `Opponent::decisive_move`):
    /// every unit's way onto every place is tried once, after the command rolls.
    no_decisive: bool,
    /// Units whose move was found dear this phase (see `Opponent::dear`): they wait for the
    /// cheaper moves without being weighed again for each.
    dear: Vec<UnitId>,
}

pub use crate::rules::ruleset::doctrine::Tuning;

/// What the opponent plays for in its last bound, by the result were the turn limit reached
/// now. A side that wins so keeps its lead: no charge, no advance but a guard's, fire only at
/// the usual odds. A side that loses so risks everything: any fire or charge with a chance to
/// win, since the game left as it stands is lost; but no hopeless charge (worth no more than
/// `Tuning::all_in`), which turns nothing and, where its other charges win, gives back the
/// unit they took. Measured over the nine scenarios, 60 games a cell: against the straight
/// player 761 of 1,080 won on seeds 1-60 (753 without) and 742 on seeds 61-120 (739); against
/// the random player 1,027 and 1,015 (1,029 and 1,016). Looking two turns ahead so won 747
/// against straight on seeds 1-60.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stakes {
    Keep,
    AllIn,
}

/// The opponent. Deterministic: the same battle gives the same decisions.
pub struct Opponent {
    /// The ruleset's numbers (`Ruleset::opponent_tuning`), read again at each decision: the
    /// same opponent may play battles of different rules.
    tune: Tuning,
    style: Style,
    /// The side it is deciding for.
    side: Side,
    memory: PhaseMemory,
    /// Commands of its own the battle refused (there should be none: each is tried first).
    refused: usize,
}

/// The worth and the chance to win of an outlook: the sum of its outcomes' edges weighed by
/// their chances, and the chance of the outcomes above nothing.
pub fn worth(o: &Outlook) -> (f64, f64) {
    let value = o.chances.iter().map(|c| c.chance * c.edge).sum();
    let win = o
        .chances
        .iter()
        .filter(|c| c.edge > 0.0)
        .map(|c| c.chance)
        .sum();
    (value, win)
}

/// The battle after `cmd`, if the battle accepts it (the battle itself is unchanged).
pub fn probe(game: &Game, cmd: &Command) -> Option<Game> {
    let mut copy = game.fork();
    copy.execute(cmd.clone()).ok().map(|_| copy)
}

impl Opponent {
    pub fn new(style: Style) -> Self {
        Opponent {
            tune: Tuning::default(),
            style,
            side: 0,
            memory: PhaseMemory::default(),
            refused: 0,
        }
    }

    /// Commands it gave that the battle refused.
    pub fn refused(&self) -> usize {
        self.refused
    }

    fn did(&self, u: &UnitId, what: &'static str) -> bool {
        self.memory.done.iter().any(|(x, w)| x == u && *w == what)
            || (what.starts_with("Move") && self.memory.anchors.contains(u))
    }

    /// The move a unit may make now: its first, or in the second pass its second.
    fn this_move(&self) -> &'static str {
        if self.memory.second {
            "Move again"
        } else {
            "Move"
        }
    }

    /// Whether a unit has made the move it may make now.
    fn moved(&self, u: &UnitId) -> bool {
        self.did(u, self.this_move())
    }

    fn remember(&mut self, cmd: &Command) {
        let moved = self.this_move();
        if let Command::MoveGroup { units, .. } = cmd {
            for u in units {
                self.memory.done.push((u.clone(), moved));
            }
        } else if let Some(u) = cmd.unit() {
            let what = match cmd {
                // A unit moves once, whichever move it makes (twice where it marches on).
                Command::Move { .. } | Command::MoveStand { .. } => moved,
                c => c.kind(),
            };
            self.memory.done.push((u.clone(), what));
        }
        self.memory.given += 1;
    }

    /// The next command for `side`'s units in this phase, if it has one worth giving (always
    /// one the battle accepts).
    pub fn decide(&mut self, game: &Game, side: Side) -> Option<Decision> {
        let b: &Battle = game;
        let key = (b.turn, b.phase, side, b.deployment_step);
        if self.memory.key != Some(key) {
            self.memory = PhaseMemory {
                key: Some(key),
                ..PhaseMemory::default()
            };
        }
        self.side = side;
        self.tune = game.rules.opponent_tuning(Tuning::default());
        // A phase never takes more commands than a few per unit.
        if b.is_over() || self.memory.given >= 4 * b.units.len() + 8 {
            return None;
        }
        let d = if game.rules.deployment(b).is_some() {
            self.deploy(game)
        } else {
            self.rescue(game)
                .or_else(|| self.attack(game))
                .or_else(|| self.buttons(game))
                .or_else(|| self.manoeuvre(game))
        }?;
        let d = self.flank_aim(game, d);
        self.remember(&d.command);
        Some(d)
    }

    /// A move that brings a unit, facing it, within a long move of an enemy's flank or rear
    /// says so: "..., and to reach the flank of IR 20 Alt-Colloredo" (the nearest such enemy).
    fn flank_aim(&self, game: &Game, mut d: Decision) -> Decision {
        let b: &Battle = game;
        let movers = match &d.command {
            Command::Move { unit, .. } => std::slice::from_ref(unit),
            Command::MoveGroup { units, .. } => units.as_slice(),
            _ => return d,
        };
        let Some(after) = probe(game, &d.command) else {
            return d;
        };
        let mut best: Option<(f32, &str, &str)> = None;
        for u in movers.iter().filter_map(|id| after.unit(id).ok()) {
            if !fights(&after, u) {
                continue;
            }
            for e in self.enemies(&after, u.side) {
                let gap = e.base.distance(&u.base);
                // A unit in contact fights: its charge's words say so.
                if gap < MEETS || gap > long_move(b) || off_line(u, e.base.centre) > 45.0 {
                    continue;
                }
                if let Some(part) = exposed(e, u.base.centre)
                    && best.is_none_or(|(g, ..)| gap < g)
                {
                    best = Some((gap, part, e.name.as_str()));
                }
            }
        }
        if let Some((_, part, name)) = best {
            d.reason = format!("{}, and to reach the {part} of {name}", d.reason);
        }
        d
    }

    /// The command that ends the phase: `EndPhase`, or, where the rules want something done
    /// first, anything they accept.
    pub fn finish(&mut self, game: &Game, side: Side) -> Decision {
        let b: &Battle = game;
        self.side = side;
        // Where the end of the phase is a roll or a placing ("Roll command dice"), the log's
        // own lines say what came of it: the opponent has no reason to add before them.
        let reason = match game.rules.turn_words(b).end {
            Some(end) if !end.starts_with("End") => String::new(),
            _ => format!(
                "ends the {} phase: nothing more is worth doing in it",
                b.phase.name()
            ),
        };
        let end = Decision {
            command: Command::EndPhase,
            reason,
        };
        if b.is_over() || probe(game, &Command::EndPhase).is_some() {
            return end;
        }
        self.forced(game).unwrap_or(end)
    }

    /// Anything the rules accept, for a phase they will not let end yet.
    fn forced(&self, game: &Game) -> Option<Decision> {
        let b: &Battle = game;
        for (w, ..) in self.weigh_attacks(game) {
            if probe(game, &w.command).is_some() {
                return Some(Decision {
                    command: w.command,
                    reason: format!("{} (the rules require it)", w.reason),
                });
            }
        }
        for u in b.alive() {
            for g in game.rules.actions(b, u) {
                for a in g.actions {
                    if probe(game, &a.command).is_some() {
                        return Some(Decision {
                            reason: format!("{}: {} (the rules require it)", u.name, a.label),
                            command: a.command,
                        });
                    }
                }
            }
        }
        None
    }

    /// Plays `side`'s commands in this phase, and ends it if `end`; returns what it did.
    pub fn play_phase(&mut self, b: &mut Game, side: Side, end: bool) -> Vec<Decision> {
        <Self as Commander>::play_phase(self, b, side, end)
    }
}

impl Commander for Opponent {
    fn decide(&mut self, game: &Game, side: Side) -> Option<Decision> {
        Opponent::decide(self, game, side)
    }
    fn finish(&mut self, game: &Game, side: Side) -> Decision {
        Opponent::finish(self, game, side)
    }
    fn refused_one(&mut self) {
        self.refused += 1;
    }
}
