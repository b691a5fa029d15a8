//! A simple seeded player that gives random legal commands: for solo testing, benchmarks and
//! property tests. It only proposes; the game decides what is legal.

use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event, Step};
use crate::rules::game::Game;
use crate::rules::geometry::Corner;
use crate::rules::model::{Unit, UnitId};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A command to try, or where one may come from (asked only when its turn comes): a click of
/// a unit on an enemy, a unit's buttons.
enum Cand {
    /// A command already made, by its place in the list of them (kept apart: the shuffle
    /// moves these small tokens, not the commands).
    Ready(usize),
    /// Own unit and enemy, by their places in the lists `candidates` builds (no ids copied:
    /// there are as many of these as own units times enemies).
    Target(usize, usize),
    /// A unit, by its place among the units on the table.
    Buttons(usize),
}

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

    /// A charge at a random enemy, an advance, a stand moving alone, a wheel.
    fn moves(&mut self, g: &Game, u: &Unit, enemies: &[UnitId], out: &mut Vec<Command>) {
        if let Some(e) = enemies.get(self.pick(enemies.len())) {
            out.push(Command::Move {
                unit: u.id.clone(),
                steps: vec![Step::ToContact(e.clone())],
            });
        }
        let d = g.scale.unit.sample_moves()[self.pick(5)];
        if g.rules.loose_stands(g, u) {
            out.push(Command::MoveStand {
                unit: u.id.clone(),
                stand: 1 + self.pick(u.stands.len()),
                steps: vec![Step::Advance(d)],
            });
        }
        out.push(Command::Move {
            unit: u.id.clone(),
            steps: vec![Step::Advance(d)],
        });
        let corner = if self.pick(2) == 0 {
            Corner::Left
        } else {
            Corner::Right
        };
        out.push(Command::Move {
            unit: u.id.clone(),
            steps: vec![Step::Wheel {
                corner,
                degrees: 30.0,
            }],
        });
    }

    /// Commands to try, at least `limit` where the units have them (all of them in formal
    /// deployment: each waiting unit's places).
    fn candidates(&mut self, g: &Game, limit: usize) -> Vec<Command> {
        let b: &Battle = g;
        let own: Vec<UnitId> = b
            .alive()
            .filter(|u| u.side == b.active)
            .map(|u| u.id.clone())
            .collect();
        let enemies: Vec<UnitId> = b
            .alive()
            .filter(|u| u.side != b.active)
            .map(|u| u.id.clone())
            .collect();
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
        // farther ...). The rules are asked for a click or the buttons only where the shuffle
        // reaches them: skipping those that give nothing leaves the rest in a fair order.
        let mut moves = Vec::new();
        for u in &own {
            let Ok(x) = b.unit(u) else { continue };
            if g.rules.may_move(b, x) {
                self.moves(g, x, &enemies, &mut moves);
            }
        }
        let mut cands: Vec<Cand> = (0..moves.len()).map(Cand::Ready).collect();
        let mut moves: Vec<Option<Command>> = moves.into_iter().map(Some).collect();
        for u in 0..own.len() {
            cands.extend((0..enemies.len()).map(|e| Cand::Target(u, e)));
        }
        let alive: Vec<&Unit> = b.alive().collect();
        cands.extend((0..alive.len()).map(Cand::Buttons));
        self.shuffle(&mut cands);
        for c in cands {
            if out.len() >= limit {
                break;
            }
            match c {
                Cand::Ready(i) => out.extend(moves.get_mut(i).and_then(Option::take)),
                Cand::Target(u, e) => out.extend(g.rules.target_command(b, &own[u], &enemies[e])),
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

    /// Shuffles by the player's own generator.
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.pick(i + 1);
            v.swap(i, j);
        }
    }

    /// Plays one phase: tries up to `tries` random commands, then ends the phase.
    pub fn play_phase(&mut self, g: &mut Game, tries: usize) -> Vec<Event> {
        let mut events = Vec::new();
        let phase = (g.turn, g.phase, g.active);
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
        // A second look: what the first commands opened up (a command roll's move).
        if !g.is_over() && (g.turn, g.phase, g.active) == phase && g.rules.deployment(g).is_none() {
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
