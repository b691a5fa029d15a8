//! A simple seeded player that gives random legal commands: for solo testing, benchmarks and
//! property tests. It only proposes; the game decides what is legal.

use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event, Step};
use crate::rules::game::Game;
use crate::rules::geometry::Corner;
use crate::rules::model::Unit;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A command to try, or where one may come from, asked only when the draw reaches it. Own
/// units and enemies are by their places in the lists `candidates` builds: there are as many
/// of these as own units times enemies, and most are never drawn.
enum Cand {
    /// One of a unit's moves (`MOVES` kinds: a charge, a stand alone, an advance, a wheel).
    Move(usize, usize),
    /// A click of an own unit on an enemy.
    Target(usize, usize),
    /// One of a unit's buttons, by its place among the units on the table.
    Buttons(usize),
}

/// The kinds of move each unit may be given: a charge at a random enemy, a stand moving alone,
/// an advance, a wheel.
const MOVES: usize = 4;

/// Proposes commands for the side to move.
pub struct AutoPlayer {
    rng: ChaCha8Rng,
}

impl AutoPlayer {
    pub fn new(seed: u64) -> Self {
        AutoPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    fn pick(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        let x = self.rng.next_u32();
        // The same remainder in 32 bits where n fits, a division that costs less.
        match u32::try_from(n) {
            Ok(n) => (x % n) as usize,
            Err(_) => x as usize % n,
        }
    }

    /// The move of kind `kind` (see `MOVES`) for unit `u`, if it has one.
    fn one_move(&mut self, g: &Game, u: &Unit, kind: usize, enemies: &[&Unit]) -> Option<Command> {
        match kind {
            0 => enemies
                .get(self.pick(enemies.len()))
                .map(|e| Command::Move {
                    unit: u.id.clone(),
                    steps: vec![Step::ToContact(e.id.clone())],
                }),
            1 => g.rules.loose_stands(g, u).then(|| Command::MoveStand {
                unit: u.id.clone(),
                stand: 1 + self.pick(u.stands.len()),
                steps: vec![Step::Advance(g.scale.unit.sample_moves()[self.pick(5)])],
            }),
            2 => Some(Command::Move {
                unit: u.id.clone(),
                steps: vec![Step::Advance(g.scale.unit.sample_moves()[self.pick(5)])],
            }),
            _ => {
                let corner = if self.pick(2) == 0 {
                    Corner::Left
                } else {
                    Corner::Right
                };
                Some(Command::Move {
                    unit: u.id.clone(),
                    steps: vec![Step::Wheel {
                        corner,
                        degrees: 30.0,
                    }],
                })
            }
        }
    }

    /// Commands to try, at least `limit` where the units have them (all of them in formal
    /// deployment: each waiting unit's places).
    fn candidates(&mut self, g: &Game, limit: usize) -> Vec<Command> {
        let b: &Battle = g;
        let own: Vec<&Unit> = b.alive().filter(|u| u.side == b.active).collect();
        let enemies: Vec<&Unit> = b.alive().filter(|u| u.side != b.active).collect();
        let mut out = Vec::new();
        // Formal deployment: each waiting unit beside a unit of its division already placed
        // (so that a division stands as one body), else anywhere in the side's zone; the player
        // places one unit at a time and asks again.
        if let Some(d) = g.rules.deployment(b) {
            for (id, _) in &d.waiting {
                let Ok(u) = b.unit(id) else { continue };
                for f in b.units.iter().filter(|f| {
                    f.side == u.side
                        && f.division == u.division
                        && !f.status.undeployed
                        && f.base.width > 0.0
                }) {
                    let along = (f.base.width + u.base.width) / 2.0;
                    let right = f.base.right().scale(along);
                    for side in [right, right.scale(-1.0)] {
                        let at = f.base.centre.plus(side);
                        out.push(Command::Deploy {
                            unit: id.clone(),
                            x: at.x,
                            y: at.y,
                            facing: d.facing,
                        });
                    }
                }
                for z in b.zones.iter().filter(|z| z.side == d.side) {
                    for _ in 0..3 {
                        let fx = self.pick(101) as f32 / 100.0;
                        let fy = self.pick(101) as f32 / 100.0;
                        out.push(Command::Deploy {
                            unit: id.clone(),
                            x: z.min.x + (z.max.x - z.min.x) * fx,
                            y: z.min.y + (z.max.y - z.min.y) * fy,
                            facing: d.facing,
                        });
                    }
                }
            }
            return out;
        }
        // Each unit's moves; fire or fight, whatever a click on each enemy would give now; one
        // of each unit's buttons, at random (formations, limbering, attaching, recoiling
        // farther ...), drawn in a random order without repeats until `limit` give a command.
        // The draw is a Fisher-Yates shuffle stopped early: only the candidates reached are
        // made, and the rules are asked about those alone.
        let alive: Vec<&Unit> = b.alive().collect();
        let (n_moves, n_targets) = (own.len() * MOVES, own.len() * enemies.len());
        let n = n_moves + n_targets + alive.len();
        let cand = |k: usize| {
            if k < n_moves {
                Cand::Move(k / MOVES, k % MOVES)
            } else if k < n_moves + n_targets {
                let t = k - n_moves;
                Cand::Target(t / enemies.len(), t % enemies.len())
            } else {
                Cand::Buttons(k - n_moves - n_targets)
            }
        };
        let mut order: Vec<u32> = (0..n as u32).collect();
        // Whether each own unit may move, asked once it is first drawn.
        let mut may_move: Vec<Option<bool>> = vec![None; own.len()];
        for i in 0..n {
            if out.len() >= limit {
                break;
            }
            let j = i + self.pick(n - i);
            order.swap(i, j);
            match cand(order[i] as usize) {
                Cand::Move(u, kind) => {
                    let x = own[u];
                    let may = *may_move[u].get_or_insert_with(|| g.rules.may_move(b, x));
                    if may {
                        out.extend(self.one_move(g, x, kind, &enemies));
                    }
                }
                Cand::Target(u, e) => {
                    out.extend(g.rules.target_command(b, &own[u].id, &enemies[e].id));
                }
                Cand::Buttons(i) => {
                    let Some(u) = alive.get(i) else { continue };
                    let mut all: Vec<Command> = g
                        .rules
                        .actions(b, u)
                        .into_iter()
                        .flat_map(|g| g.actions.into_iter().map(|a| a.command))
                        .collect();
                    if !all.is_empty() {
                        let k = self.pick(all.len());
                        out.push(all.swap_remove(k));
                    }
                }
            }
        }
        out
    }

    /// Plays one phase: tries up to `tries` random commands, then ends the phase.
    pub fn play_phase(&mut self, g: &mut Game, tries: usize) -> Vec<Event> {
        let mut events = Vec::new();
        let phase = (g.turn, g.phase, g.active);
        let given = g.commands.len();
        // Deployment's candidates (each waiting unit's places) are all tried: a division left
        // unplaced would stop the game.
        let keep = |g: &Game| {
            if g.rules.deployment(g).is_some() {
                usize::MAX
            } else {
                tries
            }
        };
        let mut cands = self.candidates(g, keep(g));
        cands.truncate(keep(g));
        // In deployment the candidates are one unit's places: after each unit placed, the
        // next unit's (bounded by the units waiting).
        let mut rounds = g.units.len() + 1;
        while rounds > 0 {
            rounds -= 1;
            let mut placed = false;
            for c in std::mem::take(&mut cands) {
                if g.is_over() || (g.turn, g.phase, g.active) != phase {
                    break;
                }
                let deploying = matches!(c, Command::Deploy { .. });
                if let Ok(ev) = g.execute(c) {
                    events.extend(ev);
                    if deploying {
                        placed = true;
                        break;
                    }
                }
            }
            if !placed || g.rules.deployment(g).is_none() {
                break;
            }
            cands = self.candidates(g, keep(g));
            cands.truncate(keep(g));
        }
        // A second look: what the first commands opened up (a command roll's move). Where none
        // was accepted, nothing has changed to look at again.
        if !g.is_over()
            && (g.turn, g.phase, g.active) == phase
            && g.commands.len() > given
            && g.rules.deployment(g).is_none()
        {
            let mut again = self.candidates(g, tries);
            again.truncate(tries);
            for c in again {
                if g.is_over() || (g.turn, g.phase, g.active) != phase {
                    break;
                }
                if let Ok(ev) = g.execute(c) {
                    events.extend(ev);
                }
            }
        }
        if !g.is_over()
            && (g.turn, g.phase, g.active) == phase
            && let Ok(ev) = g.execute(Command::EndPhase)
        {
            events.extend(ev);
        }
        events
    }

    /// Plays until the battle ends or `max_phases` phases pass.
    pub fn play(&mut self, g: &mut Game, max_phases: usize, tries: usize) -> Vec<Event> {
        let mut events = Vec::new();
        for _ in 0..max_phases {
            if g.is_over() {
                break;
            }
            // Progress is a command accepted (a re-roll can leave the log as long as before).
            let before = g.commands.len();
            events.extend(self.play_phase(g, tries));
            if g.commands.len() == before {
                break;
            }
        }
        events
    }
}
