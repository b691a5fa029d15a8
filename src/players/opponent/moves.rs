//! The opponent's moves and buttons: deployment, command rolls and the other buttons a player
//! takes, which unit moves next (the move that turns the result in the last bound, a first
//! move, a second), generals following their troops and keeping out of danger, supplies.

use super::*;
use crate::rules::battle::Battle;
use crate::rules::command::Command;
use crate::rules::game::Game;
use crate::rules::geometry::{Pt, heading};
use crate::rules::model::{Formation, Unit};
use crate::rules::ruleset::Figures;

impl Opponent {
    /// Formal deployment: each waiting unit beside a placed unit of its division, else spread
    /// along the front of its side's zone.
    pub(super) fn deploy(&mut self, game: &Game) -> Option<Decision> {
        let b: &Battle = game;
        let d = game.rules.deployment(b)?;
        for (i, (id, label)) in d.waiting.iter().enumerate() {
            let Ok(u) = b.unit(id) else { continue };
            let mut spots: Vec<Pt> = Vec::new();
            for f in b.units.iter().filter(|f| {
                f.side == u.side
                    && f.division == u.division
                    && !f.status.undeployed
                    && f.base.width > 0.0
            }) {
                let along = (f.base.width + u.base.width) / 2.0 + 1.0;
                let right = f.base.right().scale(along);
                spots.push(f.base.centre.plus(right));
                spots.push(f.base.centre.plus(right.scale(-1.0)));
            }
            let n = d.waiting.len().max(1) as f32;
            for z in b.zones.iter().filter(|z| z.side == d.side) {
                for depth in [0.3, 0.6, 0.85, 0.5] {
                    let x = z.min.x + (z.max.x - z.min.x) * ((i as f32 + 0.5) / n);
                    // The front of the zone is the edge the placed units face.
                    let y = if heading(d.facing).y >= 0.0 {
                        z.max.y - (z.max.y - z.min.y) * (1.0 - depth)
                    } else {
                        z.min.y + (z.max.y - z.min.y) * (1.0 - depth)
                    };
                    spots.push(Pt::new(x, y));
                }
            }
            for at in spots {
                let cmd = Command::Deploy {
                    unit: id.clone(),
                    x: at.x,
                    y: at.y,
                    facing: d.facing,
                };
                if probe(game, &cmd).is_some() {
                    return Some(Decision {
                        command: cmd,
                        reason: format!("deploys {label} in line"),
                    });
                }
            }
        }
        None
    }

    /// The buttons a player takes: command rolls, recovering bases, making declared charges,
    /// fortifying; limbering to march and unlimbering within two long moves of the enemy
    /// (`Tuning::unlimber`); forming line out of the column of march within reach of the enemy.
    pub(super) fn buttons(&self, game: &Game) -> Option<Decision> {
        let b: &Battle = game;
        let reach = long_move(b);
        for u in self.own(b) {
            let near = self.nearest(b, u);
            for g in game.rules.actions(b, u) {
                for a in g.actions {
                    let take = match &a.command {
                        // A command roll whose lowest throw loses the unit (retiring it off
                        // the table) is not worth its move.
                        Command::Activate { .. } => {
                            self.wants_to_move(game, u) && !lowest_throw_loses(game, &a.command, u)
                        }
                        Command::Recover { .. }
                        | Command::Charge { .. }
                        | Command::Fortify { .. } => true,
                        Command::Unlimber { .. } => near <= self.tune.unlimber * reach,
                        // Out of the column of march into line within reach of the enemy: a
                        // column neither fires nor fights as a line does.
                        Command::Form {
                            formation: Formation::Line,
                            ..
                        } => {
                            u.formation == Formation::Column
                                && !self.beyond_reach(b, near)
                                && !self.in_attack_formation(game, u)
                        }
                        // Guns limber only to march from far away: limbered, they cannot fire.
                        Command::Limber { .. } => near > 10.0 * reach,
                        _ => false,
                    };
                    let kind = a.command.kind();
                    if take
                        && !self.did(&u.id, kind)
                        && a.command.unit() == Some(&u.id)
                        && probe(game, &a.command).is_some()
                    {
                        return Some(Decision {
                            reason: format!("{}: {}", u.name, a.label),
                            command: a.command,
                        });
                    }
                }
            }
        }
        None
    }

    /// A move for one unit: in its last bound one that turns the result (`decisive_move`); else
    /// a charge worth making, else towards its goal.
    pub(super) fn manoeuvre(&mut self, game: &Game) -> Option<Decision> {
        let b: &Battle = game;
        if !self.memory.no_decisive {
            if let Some(d) = self.decisive_move(game) {
                return Some(d);
            }
            self.memory.no_decisive = true;
        }
        // The fighting troops first, those nearest the enemy first: where moves are paid for,
        // they are what the points are for. Generals and trains do not march on the enemy.
        let mut own: Vec<(f32, &Unit)> = self
            .own(b)
            .into_iter()
            .filter(|u| fights(game, u))
            .map(|u| (self.nearest(b, u), u))
            .collect();
        own.sort_by(|a, c| a.0.total_cmp(&c.0).then_with(|| a.1.id.0.cmp(&c.1.id.0)));
        if !self.memory.second {
            if let Some(d) = self
                .shelter(game)
                .or_else(|| self.follow(game))
                .or_else(|| self.supply(game))
            {
                return Some(d);
            }
            if let Some(d) = self.first_move(game, &own) {
                return Some(d);
            }
            if self.style != Style::Odds {
                return None;
            }
            self.memory.second = true;
        }
        // Every first move given, units still far from the enemy march on again where the rules
        // allow it (they refuse a second move within reach of the enemy's guns).
        for (_, u) in &own {
            if !self.far_off(b, u)
                || self.on_guard(game, u)
                || self.moved(&u.id)
                || !game.rules.may_move(b, u)
                || !self.wants_to_move(game, u)
            {
                continue;
            }
            if let Some(mut d) = self.advance(game, u) {
                d.reason.push_str(" (a second move)");
                return Some(d);
            }
        }
        self.form_for_next_bound(game)
    }

    /// In its last bound, a side that would not win were the turn limit reached now moves a
    /// unit onto a place that decides the battle where that alone turns the result (a place
    /// the enemy holds, taken or contested): tried on copies of the battle, each unit that may
    /// still move and stands within a long move and a half of the place, by each sample move and
    /// to the place itself.
    pub(super) fn decisive_move(&self, game: &Game) -> Option<Decision> {
        let b: &Battle = game;
        if self.style != Style::Odds || b.turn_limit == 0 || b.turn < b.turn_limit {
            return None;
        }
        let rank = |x: &Game| match x.result_at_limit().0 {
            Some(s) if s == self.side => 2,
            Some(_) => 0,
            None => 1,
        };
        let now = rank(game);
        // Winning, it keeps its lead (`Stakes::Keep`).
        if now == 2 {
            return None;
        }
        let reach = 1.5 * long_move(b);
        for (at, name) in &self.places(game, false) {
            for u in self.own(b) {
                if !fights(game, u)
                    || self.moved(&u.id)
                    || !game.rules.may_move(b, u)
                    || u.base.distance_to_point(*at) > reach
                {
                    continue;
                }
                let way = at.minus(u.base.centre);
                let gap = way.len();
                let mut lengths: Vec<f32> = vec![gap];
                lengths.extend(
                    b.scale
                        .unit
                        .sample_moves()
                        .iter()
                        .rev()
                        .map(|d| b.scale.to_mm(*d))
                        .filter(|mm| *mm < gap),
                );
                for mm in lengths {
                    for steps in ways(b, u, way, mm) {
                        let cmd = Command::Move {
                            unit: u.id.clone(),
                            steps,
                        };
                        if probe(game, &cmd).is_some_and(|after| rank(&after) > now) {
                            return Some(Decision {
                                command: cmd,
                                reason: format!(
                                    "{} makes for {name}: holding it turns the result",
                                    u.name
                                ),
                            });
                        }
                    }
                }
            }
        }
        None
    }

    /// A first move for one of `own` (in their order): a charge worth making, else towards
    /// its goal. By the odds the attacker marches the most troops for its points: a move that
    /// costs more than a point a unit (a unit beyond its general's reach, where the rules
    /// charge for it) waits until every cheaper one is given. The defender pays what it takes
    /// to hold its ground. Measured on the two DBFPW scenarios (elsewhere no cell of 60 games
    /// on seeds 1-60 moved by more than one), 60 games a cell: against random 228 and 224 of
    /// 240 won on seeds 1-60 and 61-120 (227 and 220 before), against straight 161 and 153
    /// (158 and 154). Waiting so on both sides: random 229 and 229, straight 151 and 151; only
    /// units far from the enemy waiting: 232 and 224, 139 and 141.
    pub(super) fn first_move(&mut self, game: &Game, own: &[(f32, &Unit)]) -> Option<Decision> {
        let b: &Battle = game;
        let sweeps: &[bool] = if self.style == Style::Odds && !self.defends(b) {
            &[true, false]
        } else {
            &[false]
        };
        for &cheap in sweeps {
            for (_, u) in own {
                if self.moved(&u.id)
                    || !game.rules.may_move(b, u)
                    || !self.wants_to_move(game, u)
                    || self.on_guard(game, u)
                {
                    continue;
                }
                // A guard goes to its place: it does not charge off on the way.
                if self.guarding(game, u).is_none()
                    && let Some(d) = self.charge_once(game, u)
                {
                    return Some(d);
                }
                if cheap && self.memory.dear.contains(&u.id) {
                    continue;
                }
                let anchors = self.memory.anchors.len();
                let Some(d) = self.advance(game, u) else {
                    continue;
                };
                if cheap && self.dear(game, &d.command) {
                    // It waits: a friend it would have dressed on is free to move.
                    self.memory.anchors.truncate(anchors);
                    self.memory.dear.push(u.id.clone());
                    continue;
                }
                return Some(d);
            }
        }
        None
    }

    /// While his troops march from far off (their middle more than `Tuning::march` long moves
    /// from the enemy), a general left more than `Tuning::follow` long moves from his place,
    /// half a long move behind their middle, moves up to it, so that they stay in his command
    /// (or within his reach, where the rules count it). Within reach of the enemy he stays:
    /// measured on Lobositz as side 1 against the straight player over 60 games, following
    /// there too won 42, not following 48.
    pub(super) fn follow(&self, game: &Game) -> Option<Decision> {
        let b: &Battle = game;
        if self.style != Style::Odds {
            return None;
        }
        let reach = long_move(b);
        let own = self.own(b);
        let enemies = self.enemies(b, self.side);
        if enemies.is_empty() {
            return None;
        }
        let foe = centre(&enemies);
        let commands = |u: &Unit| matches!(game.rules.look(b, u).arm, Figures::Command);
        for g in own.iter().filter(|g| commands(g)) {
            if self.moved(&g.id) || !game.rules.may_move(b, g) {
                continue;
            }
            let mine: Vec<&Unit> = own
                .iter()
                .copied()
                .filter(|u| fights(game, u) && (g.division.is_none() || u.division == g.division))
                .collect();
            if mine.is_empty() {
                continue;
            }
            let middle = centre(&mine);
            // Within reach of the enemy he stays where he is: moving him there costs the
            // points the troops need, and puts him where the fire is.
            let from_enemy = enemies
                .iter()
                .map(|e| e.base.centre.dist(middle))
                .fold(f32::INFINITY, f32::min);
            if !self.beyond_reach(b, from_enemy) {
                continue;
            }
            let way_to_foe = foe.minus(middle);
            if way_to_foe.len() < 1e-3 {
                continue;
            }
            let back = way_to_foe.scale(-0.5 * reach / way_to_foe.len());
            let to = middle.plus(back);
            let way = to.minus(g.base.centre);
            let gap = way.len();
            if gap < self.tune.follow * reach {
                continue;
            }
            if let Some(command) = walk_towards(game, g, &[(way, gap)], |_| true) {
                return Some(Decision {
                    command,
                    reason: format!("{} follows his troops to keep them in hand", g.name),
                });
            }
        }
        None
    }

    /// A unit that carries supplies for its friends (`Ruleset::supplies`: ammunition packs)
    /// goes towards the friend that needs them, as far as it may, until they reach it; never to
    /// within a long move of the enemy. The straight player too: it is not a matter of odds.
    /// Measured on the two DBFPW scenarios, 60 games a cell, on seeds 1-60, 61-120, 121-180
    /// and 181-240: against random 236, 235, 236 and 237 of 240 won (228, 224, 222 and 224
    /// with guns left out of ammunition); against straight 148, 158, 149 and 153 (155, 158,
    /// 151 and 156). Where only the opponent brought up its supplies, 179, 186, 178 and 178
    /// against straight: the gain is the rules' procedure, not judgement. A train that made
    /// for the battery's middle rather than its flank (coming in at an angle it ends beside a
    /// corner, short of touching): 239, 237, 235 and 237; 153, 155, 157 and 158. One that
    /// kept two long moves from the enemy: the same games.
    pub(super) fn supply(&self, game: &Game) -> Option<Decision> {
        let b: &Battle = game;
        let reach = long_move(b);
        for u in self.own(b) {
            if self.moved(&u.id) || !game.rules.may_move(b, u) {
                continue;
            }
            let Some((to, within)) = game.rules.supplies(b, u) else {
                continue;
            };
            let Ok(f) = b.unit(&to) else {
                continue;
            };
            let gap = u.base.distance(&f.base) - within;
            if gap <= 0.0 {
                continue;
            }
            // Into the reach of its supplies by a tenth of it, where it reaches at a distance;
            // where it must touch, to a flank of the friend (the nearer first), flank to flank.
            let mut aims: Vec<(Pt, f32)> = Vec::new();
            if within > 0.0 {
                aims.push((f.base.centre.minus(u.base.centre), gap + 0.1 * within));
            } else {
                let side = f.base.right().scale((f.base.width + u.base.width) / 2.0);
                let mut spots = [f.base.centre.plus(side), f.base.centre.minus(side)];
                spots.sort_by(|a, c| a.dist(u.base.centre).total_cmp(&c.dist(u.base.centre)));
                aims.extend(spots.map(|p| (p.minus(u.base.centre), p.dist(u.base.centre))));
            }
            let safe = |after: &Battle| {
                after
                    .unit(&u.id)
                    .is_ok_and(|v| self.nearest(after, v) >= reach)
            };
            if let Some(command) = walk_towards(game, u, &aims, safe) {
                return Some(Decision {
                    command,
                    reason: format!("{} takes supplies up to {}", u.name, f.name),
                });
            }
        }
        None
    }

    /// A general the rules would strike down were the enemy a long move nearer
    /// (`Ruleset::general_exposed`) steps back behind his nearest own unit, on its side away
    /// from the enemy, as far as he may go towards it.
    pub(super) fn shelter(&self, game: &Game) -> Option<Decision> {
        let b: &Battle = game;
        if self.style != Style::Odds {
            return None;
        }
        let reach = long_move(b);
        let own = self.own(b);
        let enemies: Vec<&Unit> = self
            .enemies(b, self.side)
            .into_iter()
            .filter(|e| fights(game, e))
            .collect();
        let commands = |u: &Unit| matches!(game.rules.look(b, u).arm, Figures::Command);
        for g in own.iter().filter(|g| commands(g)) {
            if self.moved(&g.id)
                || !game.rules.may_move(b, g)
                || !game.rules.general_exposed(b, g, reach)
            {
                continue;
            }
            let (Some(foe), Some(cover)) = (
                nearest_to(enemies.iter().copied(), g),
                nearest_to(own.iter().copied().filter(|u| fights(game, u)), g),
            ) else {
                continue;
            };
            // Behind the unit, away from the enemy.
            let away = cover.base.centre.minus(foe.base.centre);
            let len = away.len();
            if len < 1e-3 {
                continue;
            }
            let gap = (cover.base.width.max(cover.base.depth) + g.base.depth) / 2.0 + 1.0;
            let to = cover.base.centre.plus(away.scale(gap / len));
            let way = to.minus(g.base.centre);
            let dist = way.len();
            if dist < 1.0 {
                continue;
            }
            for frac in [1.0, 0.75, 0.5, 0.25] {
                for steps in walks(b, g, way, dist * frac) {
                    let cmd = Command::Move {
                        unit: g.id.clone(),
                        steps,
                    };
                    if let Some(after) = probe(game, &cmd)
                        && after
                            .unit(&g.id)
                            .is_ok_and(|v| v.base.distance(&foe.base) > g.base.distance(&foe.base))
                    {
                        return Some(Decision {
                            command: cmd,
                            reason: format!(
                                "{} falls back behind {}, out of {}'s reach",
                                g.name, cover.name, foe.name
                            ),
                        });
                    }
                }
            }
        }
        None
    }
}
