//! The opponent's advance: wheeling to face the goal, advancing alone or a line as one body,
//! stopping short of the enemy and keeping the line by the odds, dressing on a neighbour, and
//! the ways of walking towards a place.

use super::*;
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Step};
use crate::rules::game::Game;
use crate::rules::geometry::{Corner, Pt, norm_deg};
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::common::heading_deg;

/// Two ways for a unit to walk `mm` along `way` (any length): obliquely, keeping its facing;
/// else turning to face the way and advancing.
pub(crate) fn walks(b: &Battle, u: &Unit, way: Pt, mm: f32) -> [Vec<Step>; 2] {
    let dir = way.scale(1.0 / way.len().max(1e-3));
    let (fwd, right) = (u.base.forward(), u.base.right());
    let turn = norm_deg(heading_deg(dir) - heading_deg(fwd));
    [
        vec![Step::Oblique {
            forward: b.scale.from_mm(dir.dot(fwd) * mm),
            right: b.scale.from_mm(dir.dot(right) * mm),
        }],
        vec![Step::Pivot(turn), Step::Advance(b.scale.from_mm(mm))],
    ]
}

/// The first move of `u` the rules accept, and `keep` approves of the battle after it, that
/// walks (`walks`) towards one of `aims` (a way, and how far along it in mm), the first aim
/// first: as far as wanted or the longest sample move, else shorter ones.
pub(crate) fn walk_towards(
    game: &Game,
    u: &Unit,
    aims: &[(Pt, f32)],
    keep: impl Fn(&Battle) -> bool,
) -> Option<Command> {
    let b: &Battle = game;
    let lengths: Vec<f32> = b
        .scale
        .unit
        .sample_moves()
        .iter()
        .rev()
        .map(|d| b.scale.to_mm(*d))
        .collect();
    for &(way, wanted) in aims {
        for mm in &lengths {
            for steps in walks(b, u, way, mm.min(wanted)) {
                let cmd = Command::Move {
                    unit: u.id.clone(),
                    steps,
                };
                if probe(game, &cmd).is_some_and(|after| keep(&after)) {
                    return Some(cmd);
                }
            }
        }
    }
    None
}

/// The way `by` (in mm, on the table) for troops that move only straight ahead or sideways:
/// forward and then sideways, or sideways alone where there is nothing forward of it.
pub(super) fn square_steps(b: &Battle, u: &Unit, by: Pt) -> Vec<Step> {
    let (ahead, aside) = (by.dot(u.base.forward()), by.dot(u.base.right()));
    let r = Step::Sidestep(b.scale.from_mm(aside));
    if ahead.abs() > 0.5 {
        vec![Step::Advance(b.scale.from_mm(ahead)), r]
    } else {
        vec![r]
    }
}

/// Every way for a unit to go `mm` along `way`: the two `walks`, and the `square_steps`.
pub(super) fn ways(b: &Battle, u: &Unit, way: Pt, mm: f32) -> Vec<Vec<Step>> {
    let mut out: Vec<Vec<Step>> = walks(b, u, way, mm).into();
    out.push(square_steps(b, u, way.scale(mm / way.len().max(1e-3))));
    out
}

impl Opponent {
    /// Towards the goal: wheel to face it, then advance as far as the rules allow, stopping
    /// short of the enemy (by the odds) so as not to walk into its fire piecemeal, and (by the
    /// odds) never into contact: only a charge, weighed first, goes there.
    pub(super) fn advance(&mut self, game: &Game, u: &Unit) -> Option<Decision> {
        let b: &Battle = game;
        if self.last_bound(game) == Some(Stakes::Keep) && self.guarding(game, u).is_none() {
            return None;
        }
        if self.holds_ground(game, u) {
            return None;
        }
        let (to, name, onto) = self.goal(game, u)?;
        if off_line(u, to) > 25.0
            && let Some(d) = self.wheel_towards(game, u, to, &name)
        {
            return Some(d);
        }
        // Late in the game it presses on (`Tuning::press`): no halting short, no waiting for
        // the line (a game left level at the turn limit is not won).
        let pressing = self.pressing(b);
        // A guard goes to its place whatever the line does.
        let guard = self.guarding(game, u).is_some();
        let allowed = self.advance_lengths(b, u, to, onto, pressing, guard);
        // A line of units side by side advances as one body, where the rules allow it.
        let line = if guard {
            vec![u.id.clone()]
        } else {
            self.line_of(game, u)
        };
        if line.len() == 1
            && !pressing
            && !guard
            && let Some(d) = self.dress(game, u)
        {
            return Some(d);
        }
        if self.style == Style::Odds
            && line.len() > 1
            && let Some(d) = self.advance_in_line(game, u, &line, &allowed, &name)
        {
            return Some(d);
        }
        self.advance_alone(game, u, &allowed, &name)
    }

    /// The lengths of advance open to `u` towards `to`, the longest first: by the odds, those
    /// that neither end too near the enemy nor leave the line behind; straight on, any.
    pub(super) fn advance_lengths(
        &self,
        b: &Battle,
        u: &Unit,
        to: Pt,
        onto: bool,
        pressing: bool,
        guard: bool,
    ) -> Vec<f32> {
        let moves = b.scale.unit.sample_moves();
        let gap = u.base.centre.dist(to);
        // By the odds a unit halts a short move from the enemy, in line, and lets it come on
        // or charges next bound; the objective itself is walked onto.
        let stand_off = match self.style {
            _ if pressing => 0.0,
            Style::Odds if !onto => self
                .tune
                .stand_off
                .and_then(|i| moves.get(i))
                .map_or(0.0, |d| b.scale.to_mm(*d)),
            _ => 0.0,
        };
        // By the odds a unit keeps its line within reach of the enemy: it goes no more than a
        // short move ahead of the middle of its division (or its side), towards the enemy.
        // Far from the enemy it marches at its best pace: the line forms again within reach.
        let ahead_of_line = if pressing || guard || self.far_off(b, u) {
            f32::NEG_INFINITY
        } else {
            self.ahead_of_line(b, u)
        };
        let line_limit = b.scale.to_mm(moves[self.tune.line.min(4)]);
        moves
            .iter()
            .rev()
            .copied()
            .filter(|d| {
                let mm = b.scale.to_mm(*d);
                self.style == Style::Straight
                    || (gap - mm >= stand_off && ahead_of_line + mm <= line_limit)
            })
            .collect()
    }

    /// The longest of `allowed` that `line` (`u` and the units beside it) advances as one
    /// body without meeting the enemy or disordering a friend.
    pub(super) fn advance_in_line(
        &self,
        game: &Game,
        u: &Unit,
        line: &[UnitId],
        allowed: &[f32],
        name: &str,
    ) -> Option<Decision> {
        let b: &Battle = game;
        for d in allowed {
            let cmd = Command::MoveGroup {
                units: line.to_vec(),
                steps: vec![Step::Advance(*d)],
            };
            if probe(game, &cmd).is_some_and(|after| {
                !self.meets_enemy(&after, line) && !self.disorders_friends(b, &after, line)
            }) {
                return Some(Decision {
                    command: cmd,
                    reason: format!(
                        "{} and {} more advance {d} {} in line towards {name}",
                        u.name,
                        line.len() - 1,
                        b.scale.unit
                    ),
                });
            }
        }
        None
    }

    /// `u` advancing on its own: straight on, the longest move the rules accept; by the odds,
    /// the longest that ends in cover, else the longest, of those that neither meet the enemy
    /// nor disorder a friend.
    pub(super) fn advance_alone(
        &self,
        game: &Game,
        u: &Unit,
        allowed: &[f32],
        name: &str,
    ) -> Option<Decision> {
        let b: &Battle = game;
        let mut found: Option<(bool, f32, Command)> = None;
        for d in allowed {
            let cmd = Command::Move {
                unit: u.id.clone(),
                steps: vec![Step::Advance(*d)],
            };
            let Some(after) = probe(game, &cmd) else {
                continue;
            };
            if self.style == Style::Straight {
                found = Some((false, *d, cmd));
                break;
            }
            let movers = std::slice::from_ref(&u.id);
            if self.meets_enemy(&after, movers) || self.disorders_friends(b, &after, movers) {
                continue;
            }
            // By the odds the longest move that ends in cover, else the longest.
            let covered = after
                .unit(&u.id)
                .is_ok_and(|v| in_cover(&after, v.base.centre));
            if found.as_ref().is_none_or(|(c, ..)| covered && !c) {
                found = Some((covered, *d, cmd));
            }
        }
        found.map(|(covered, d, cmd)| Decision {
            command: cmd,
            reason: format!(
                "{} advances {}{} towards {name}",
                u.name,
                b.scale.unit.amount(d),
                if covered { " into cover" } else { "" }
            ),
        })
    }

    /// A wheel about whichever front corner turns `u` most towards `to` (no more than 45
    /// degrees), if the rules allow one that turns it at all.
    pub(super) fn wheel_towards(
        &self,
        game: &Game,
        u: &Unit,
        to: Pt,
        name: &str,
    ) -> Option<Decision> {
        let off = off_line(u, to);
        let mut best: Option<(f32, Command)> = None;
        for corner in [Corner::Left, Corner::Right] {
            for degrees in [off.min(45.0), off.min(30.0), off.min(15.0)] {
                let cmd = Command::Move {
                    unit: u.id.clone(),
                    steps: vec![Step::Wheel { corner, degrees }],
                };
                let Some(after) = probe(game, &cmd) else {
                    continue;
                };
                let Ok(v) = after.unit(&u.id) else { continue };
                let left = off_line(v, to);
                if left < off && best.as_ref().is_none_or(|(l, _)| left < *l) {
                    best = Some((left, cmd));
                }
                break;
            }
        }
        best.map(|(_, cmd)| Decision {
            command: cmd,
            reason: format!("{} wheels towards {name}", u.name),
        })
    }

    /// Where the rules move units in edge contact as one group for one command, a unit standing
    /// alone a little apart from a friend of its line, far from the enemy, spends its move
    /// closing up to it: flank to flank, front edges level. From the next bound the two move as
    /// one. It dresses on a friend already in a group or already moved, else the nearest; that
    /// friend then stands for the phase.
    pub(super) fn dress(&mut self, game: &Game, u: &Unit) -> Option<Decision> {
        let b: &Battle = game;
        if self.style != Style::Odds
            || !game.rules.moves_in_groups()
            || self.nearest(b, u) < 2.0 * long_move(b)
        {
            return None;
        }
        let (fwd, right) = (u.base.forward(), u.base.right());
        // (moved already, the size of its group, the gap, the friend, the side it stands on)
        let mut anchors: Vec<(bool, usize, f32, &Unit, f32)> = Vec::new();
        for n in self.own(b) {
            if n.id == u.id || !fights(game, n) || (n.base.facing - u.base.facing).abs() > 1.0 {
                continue;
            }
            let rel = n.base.centre.minus(u.base.centre);
            let across = rel.dot(right);
            let gap = across.abs() - (u.base.width + n.base.width) / 2.0;
            if gap <= 0.5 || gap > u.base.width || rel.dot(fwd).abs() > long_move(b) {
                continue;
            }
            let moved = self.moved(&n.id);
            let group = if moved {
                1
            } else {
                self.line_of(game, n).len()
            };
            anchors.push((moved, group, gap, n, across.signum()));
        }
        // A friend that has moved costs nothing to dress on; else the larger group, the
        // nearer friend.
        anchors.sort_by(|a, c| c.0.cmp(&a.0).then(c.1.cmp(&a.1)).then(a.2.total_cmp(&c.2)));
        for (moved, _, _, n, sign) in anchors {
            let front = n.base.centre.plus(fwd.scale(n.base.depth / 2.0));
            let to = front
                .minus(fwd.scale(u.base.depth / 2.0))
                .minus(right.scale(sign * (u.base.width + n.base.width) / 2.0));
            let way = to.minus(u.base.centre);
            let ahead = way.dot(fwd);
            // Obliquely; troops that move only straight ahead or sideways, forward and then
            // sideways.
            let mut tries = Vec::new();
            if ahead.abs() > 0.5 {
                tries.push(vec![Step::Oblique {
                    forward: b.scale.from_mm(ahead),
                    right: b.scale.from_mm(way.dot(right)),
                }]);
            }
            tries.push(square_steps(b, u, way));
            for steps in tries {
                let cmd = Command::Move {
                    unit: u.id.clone(),
                    steps,
                };
                if probe(game, &cmd).is_none() {
                    continue;
                }
                // A friend that has not moved stands, with its group, to be dressed on.
                if !moved {
                    let group = self.line_of(game, n);
                    self.memory.anchors.extend(group);
                }
                return Some(Decision {
                    command: cmd,
                    reason: format!("{} closes up on {} to move with it", u.name, n.name),
                });
            }
        }
        None
    }
}
