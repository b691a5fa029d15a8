//! How the opponent reads the table: its units and the enemy's, where each unit heads, the
//! places it guards, its reserve and its line, and what it plays for in its last bound.

use super::*;
use crate::rules::battle::Battle;
use crate::rules::command::Command;
use crate::rules::game::Game;
use crate::rules::geometry::{Edge, Pt};
use crate::rules::model::{Side, Unit, UnitId};
use crate::rules::ruleset::Figures;
use crate::rules::terrain::FeatureKind;

/// Ground that gives cover: a unit halting short of the enemy prefers it.
pub(super) const COVER: [FeatureKind; 4] = [
    FeatureKind::Woods,
    FeatureKind::Town,
    FeatureKind::Village,
    FeatureKind::Fortification,
];

/// The middle of some units.
pub(super) fn centre(us: &[&Unit]) -> Pt {
    let n = us.len().max(1) as f32;
    us.iter()
        .fold(Pt::new(0.0, 0.0), |p, x| p.plus(x.base.centre))
        .scale(1.0 / n)
}

/// The ruleset's longest sample move, in mm: the yardstick of "near" and "far".
pub(crate) fn long_move(b: &Battle) -> f32 {
    b.scale.to_mm(b.scale.unit.sample_moves()[4])
}

/// Whether a unit is fighting troops (not a general or a train), by the ruleset's look.
pub(crate) fn fights(game: &Game, u: &Unit) -> bool {
    let b: &Battle = game;
    !matches!(game.rules.look(b, u).arm, Figures::Command | Figures::Train)
}

/// Whether a place lies in terrain that gives cover.
pub(super) fn in_cover(b: &Battle, at: Pt) -> bool {
    b.terrain.at(at, &COVER).next().is_some()
}

/// The unit nearest `to`, base to base.
pub(super) fn nearest_to<'a>(us: impl Iterator<Item = &'a Unit>, to: &Unit) -> Option<&'a Unit> {
    us.min_by(|a, c| {
        a.base
            .distance(&to.base)
            .total_cmp(&c.base.distance(&to.base))
    })
}

/// The side of `e` a unit standing at `p` comes on: its flank where `p` is beside it and not
/// ahead of its front edge, its rear where `p` is behind it; none where `p` is before its front.
pub(super) fn exposed(e: &Unit, p: Pt) -> Option<&'static str> {
    let rel = p.minus(e.base.centre);
    let (ahead, aside) = (rel.dot(e.base.forward()), rel.dot(e.base.right()));
    if ahead >= e.base.depth / 2.0 {
        None
    } else if aside.abs() > e.base.width / 2.0 {
        Some("flank")
    } else if ahead <= -e.base.depth / 2.0 {
        Some("rear")
    } else {
        None
    }
}

/// The angle in degrees between a unit's front and the way to `to`.
pub(super) fn off_line(u: &Unit, to: Pt) -> f32 {
    let way = to.minus(u.base.centre);
    let len = way.len();
    if len < 1e-3 {
        return 0.0;
    }
    let f = u.base.forward();
    (f.dot(way) / len).clamp(-1.0, 1.0).acos().to_degrees()
}

impl Opponent {
    pub(super) fn own<'a>(&self, b: &'a Battle) -> Vec<&'a Unit> {
        b.alive()
            .filter(|u| u.side == self.side && u.base.width > 0.0)
            .collect()
    }

    pub(super) fn enemies<'a>(&self, b: &'a Battle, side: Side) -> Vec<&'a Unit> {
        b.alive()
            .filter(|u| u.side != side && u.base.width > 0.0)
            .collect()
    }

    /// The distance from a unit to the nearest enemy, in mm.
    pub(super) fn nearest(&self, b: &Battle, u: &Unit) -> f32 {
        self.enemies(b, u.side)
            .iter()
            .map(|e| e.base.distance(&u.base))
            .fold(f32::INFINITY, f32::min)
    }

    /// Whether a unit is far from the enemy (`Tuning::march`): it marches at its best pace (and
    /// on with a second move), and the line forms again within reach.
    pub(super) fn far_off(&self, b: &Battle, u: &Unit) -> bool {
        self.beyond_reach(b, self.nearest(b, u))
    }

    /// Whether a distance from the enemy, in mm, is beyond its reach (`Tuning::march` long
    /// moves): the one measure of "far off" for units, generals and the buttons.
    pub(super) fn beyond_reach(&self, b: &Battle, mm: f32) -> bool {
        mm > self.tune.march * long_move(b)
    }

    /// Where a unit heads: the objective while the enemy holds it and the unit can reach it
    /// in the turns left, else the nearest enemy (far off, the nearest allowing for the turn
    /// to face it: `Tuning::ahead`). Also whether it is a place to walk onto (an
    /// objective) rather than an enemy to halt short of.
    pub(super) fn goal(&self, game: &Game, u: &Unit) -> Option<(Pt, String, bool)> {
        let b: &Battle = game;
        if let Some((at, name)) = self.guarding(game, u) {
            return Some((at, format!("{name}, to hold it"), true));
        }
        let pace = b.scale.to_mm(b.scale.unit.sample_moves()[3]);
        let turns_left = self.turns_left(b);
        if self.style == Style::Odds
            && let Some(o) = &b.objective
            && o.owner != u.side
            && !o.taken
            && o.at.dist(u.base.centre) <= pace * turns_left
        {
            // The objective by the name of the place it stands in, where it stands in one.
            let place = b
                .terrain
                .features
                .iter()
                .find(|f| !f.kind.is_linear() && f.contains(o.at))
                .map_or_else(|| "the objective".to_string(), |f| f.name.clone());
            return Some((o.at, format!("{place}, to take it"), true));
        }
        // Of the places that decide the battle, the nearest the enemy holds that it can reach:
        // from the start where the enemy holds more of them, else once it presses the attack
        // (`Tuning::press`).
        let held = game.objectives();
        let ours = held.iter().filter(|o| o.holder == Some(u.side)).count();
        let behind = self.style == Style::Odds && 2 * ours < held.len();
        if (behind || self.pressing(b))
            && let Some(o) = held
                .into_iter()
                .filter(|o| {
                    o.holder != Some(u.side) && o.at.dist(u.base.centre) <= pace * turns_left
                })
                .min_by(|a, c| {
                    a.at.dist(u.base.centre)
                        .total_cmp(&c.at.dist(u.base.centre))
                })
        {
            return Some((o.at, format!("{}, to take it", o.name), true));
        }
        // Far off, the enemy most nearly ahead: one off its front counts as farther
        // (`Tuning::ahead`), since turning to face it costs the march.
        let ahead = if self.style == Style::Odds && self.far_off(b, u) {
            self.tune.ahead
        } else {
            0.0
        };
        let far = |e: &Unit| {
            e.base.centre.dist(u.base.centre) * (1.0 + ahead * off_line(u, e.base.centre) / 90.0)
        };
        self.enemies(b, u.side)
            .into_iter()
            .min_by(|a, c| far(a).total_cmp(&far(c)))
            .map(|e| {
                (
                    e.base.centre,
                    format!("{}, to close with it", e.name),
                    false,
                )
            })
    }

    /// The places this side keeps if it still holds them at the end (the defender's objective
    /// not yet taken; the places that decide the battle that it holds now), each with the unit
    /// that guards it: where an enemy fighting unit stands within `Tuning::guard` long moves of
    /// the place (and could reach it in the turns left), the side's nearest fighting unit goes
    /// onto it and stays there. One unit guards one place.
    pub(super) fn guards(&self, game: &Game) -> Vec<(Pt, String, UnitId)> {
        let b: &Battle = game;
        if self.style != Style::Odds {
            return Vec::new();
        }
        let places = self.places(game, true);
        if places.is_empty() {
            return Vec::new();
        }
        let pace = b.scale.to_mm(b.scale.unit.sample_moves()[3]);
        let reach = (pace * self.turns_left(b)).min(self.tune.guard * long_move(b));
        let enemies = self.enemies(b, self.side);
        let mut free: Vec<&Unit> = self
            .own(b)
            .into_iter()
            .filter(|u| fights(game, u))
            .collect();
        let mut out = Vec::new();
        for (at, name) in places {
            let threat = enemies
                .iter()
                .filter(|e| fights(game, e))
                .any(|e| e.base.distance_to_point(at) <= reach);
            if !threat {
                continue;
            }
            let nearest = free
                .iter()
                .enumerate()
                .min_by(|(_, a), (_, c)| {
                    a.base
                        .distance_to_point(at)
                        .total_cmp(&c.base.distance_to_point(at))
                        .then_with(|| a.id.0.cmp(&c.id.0))
                })
                .map(|(i, _)| i);
            if let Some(i) = nearest {
                let g = free.remove(i);
                out.push((at, name, g.id.clone()));
            }
        }
        out
    }

    /// The places that decide the battle which its side holds now (`ours`), or which the enemy
    /// does, or nobody yet: the scenario's objective while not taken, and its objectives
    /// (`Game::objectives`).
    pub(super) fn places(&self, game: &Game, ours: bool) -> Vec<(Pt, String)> {
        let b: &Battle = game;
        let mut places: Vec<(Pt, String)> = Vec::new();
        if let Some(o) = &b.objective
            && (o.owner == self.side) == ours
            && !o.taken
        {
            places.push((o.at, "the objective".into()));
        }
        for o in game.objectives() {
            if (o.holder == Some(self.side)) == ours {
                places.push((o.at, o.name));
            }
        }
        places
    }

    /// The place a unit guards, if it guards one (see `guards`).
    pub(super) fn guarding(&self, game: &Game, u: &Unit) -> Option<(Pt, String)> {
        self.guards(game)
            .into_iter()
            .find(|(.., g)| *g == u.id)
            .map(|(at, name, _)| (at, name))
    }

    /// Whether a guard stands on its place: within a short move of it. It stays there.
    pub(super) fn on_guard(&self, game: &Game, u: &Unit) -> bool {
        let b: &Battle = game;
        self.guarding(game, u).is_some_and(|(at, _)| {
            u.base.distance_to_point(at) <= b.scale.to_mm(b.scale.unit.sample_moves()[1])
        })
    }

    /// The turns left to play, counting this one (unbounded without a turn limit).
    pub(super) fn turns_left(&self, b: &Battle) -> f32 {
        if b.turn_limit > 0 {
            (b.turn_limit + 1).saturating_sub(b.turn) as f32
        } else {
            f32::INFINITY
        }
    }

    /// Whether a unit means to move this bound: not a reserve while the fight is far off.
    pub(super) fn wants_to_move(&self, game: &Game, u: &Unit) -> bool {
        let b: &Battle = game;
        if self.style == Style::Straight {
            return true;
        }
        !self.is_reserve(b, u)
            || !self.far_off(b, u)
            || b.turn >= self.tune.reserve_turn
            || self.guarding(game, u).is_some()
    }

    /// The reserve: the rearmost quarter of the side, away from the enemy.
    pub(super) fn is_reserve(&self, b: &Battle, u: &Unit) -> bool {
        let enemies = self.enemies(b, u.side);
        if enemies.is_empty() {
            return false;
        }
        let foe = centre(&enemies);
        let mut mine: Vec<&Unit> = b.alive().filter(|x| x.side == u.side).collect();
        mine.sort_by(|a, c| {
            c.base
                .centre
                .dist(foe)
                .total_cmp(&a.base.centre.dist(foe))
                .then_with(|| a.id.0.cmp(&c.id.0))
        });
        let rear = mine.len().checked_div(self.tune.reserve).unwrap_or(0);
        mine.iter().take(rear).any(|x| x.id == u.id)
    }

    /// Whether its side is the scenario's defender.
    pub(super) fn defends(&self, b: &Battle) -> bool {
        b.sides.get(self.side).is_some_and(|s| s.defender)
    }

    /// Whether a move costs its side more than one command point for each unit it moves
    /// (where the rules pay for moves with points).
    pub(super) fn dear(&self, game: &Game, cmd: &Command) -> bool {
        let b: &Battle = game;
        let points = |x: &Battle| {
            x.command_points.get(self.side).copied().unwrap_or(0)
                + x.division_points.iter().map(|d| d.1).sum::<i32>()
        };
        let units = match cmd {
            Command::MoveGroup { units, .. } => units.len().max(1),
            _ => 1,
        };
        probe(game, cmd).is_some_and(|after| points(b) - points(&after) > units as i32)
    }

    /// What its side plays for in its last bound (by the odds), from the result were the
    /// turn limit reached now (`Game::result_at_limit`): None before the last turn, and in
    /// a level game, which it plays as it was pressing the attack (a charge worth more than
    /// nothing; at any chance, it would as likely turn the draw into a loss).
    pub(super) fn last_bound(&self, game: &Game) -> Option<Stakes> {
        let b: &Battle = game;
        if self.style != Style::Odds || b.turn_limit == 0 || b.turn < b.turn_limit {
            return None;
        }
        match game.result_at_limit().0 {
            Some(s) if s == self.side => Some(Stakes::Keep),
            Some(_) => Some(Stakes::AllIn),
            None => None,
        }
    }

    /// Whether `u` holds its ground rather than advance (by the odds): a unit of the
    /// scenario's defending side, in cover or on a hill, with the enemy within reach, until it
    /// presses the attack (a guard goes to its place whatever). Measured over the six
    /// scenarios with a defender, as the defender, 60 games a cell: against the straight player
    /// 236 of 360 won on seeds 1-60 (226 advancing) and 225 on seeds 61-120 (220); against
    /// the random player 343 and 338 (343 and 331). Every defending unit holding, wherever it
    /// stood, won 235 against straight and 333 against random on seeds 1-60; the attacker's
    /// units holding good ground too, 745 of 1,080 over all nine scenarios against straight
    /// (771 the defender's only).
    pub(super) fn holds_ground(&self, game: &Game, u: &Unit) -> bool {
        let b: &Battle = game;
        // The guards last: they are weighed for the whole side.
        self.style == Style::Odds
            && self.defends(b)
            && !self.pressing(b)
            && (in_cover(b, u.base.centre) || b.terrain.level_at(u.base.centre) > 0)
            && !self.far_off(b, u)
            && self.guarding(game, u).is_none()
    }

    /// Whether the game is past `Tuning::press` of its turn limit: the opponent then presses
    /// the attack.
    pub(super) fn pressing(&self, b: &Battle) -> bool {
        self.style == Style::Odds
            && b.turn_limit > 0
            && b.turn as f32 > self.tune.press * b.turn_limit as f32
    }

    /// The unit and the units of its side standing beside it, flank to flank and facing the
    /// same way, that have not moved yet this phase and neither guard a place nor hold good
    /// ground (`holds_ground`): a line that can advance as one body.
    pub(super) fn line_of(&self, game: &Game, u: &Unit) -> Vec<UnitId> {
        let b: &Battle = game;
        let own = self.own(b);
        let guards: Vec<UnitId> = self.guards(game).into_iter().map(|g| g.2).collect();
        let mut line = vec![u];
        let mut k = 0;
        while k < line.len() {
            let x = line[k];
            for y in &own {
                if line.iter().any(|l| l.id == y.id)
                    || guards.contains(&y.id)
                    || self.holds_ground(game, y)
                    || self.moved(&y.id)
                    || (y.base.facing - x.base.facing).abs() > 1.0
                    || !fights(game, y)
                {
                    continue;
                }
                let flank = x.base.touched_by(&y.base).is_some_and(|c| {
                    matches!(c.edge, Edge::Left | Edge::Right)
                        && matches!(c.own_edge, Edge::Left | Edge::Right)
                });
                if flank {
                    line.push(y);
                }
            }
            k += 1;
        }
        line.into_iter().map(|x| x.id.clone()).collect()
    }

    /// How far a unit stands ahead of the middle of its division (its side, without one),
    /// measured towards the enemy's centre, in mm.
    pub(super) fn ahead_of_line(&self, b: &Battle, u: &Unit) -> f32 {
        let enemies = self.enemies(b, u.side);
        let mine: Vec<&Unit> = self
            .own(b)
            .into_iter()
            .filter(|x| u.division.is_none() || x.division == u.division)
            .collect();
        let (own, foe) = (centre(&mine), centre(&enemies));
        let way = foe.minus(own);
        let len = way.len();
        if len < 1e-3 || mine.len() < 2 {
            return 0.0;
        }
        let dir = way.scale(1.0 / len);
        let mut along: Vec<f32> = mine.iter().map(|x| x.base.centre.dot(dir)).collect();
        along.sort_by(f32::total_cmp);
        u.base.centre.dot(dir) - along[along.len() / 2]
    }

    /// Whether a move of `movers` leaves a friend of theirs disordered that was not (asked by
    /// the odds only): where the rules disorder units that end intermixed (Old Dessauer), marching
    /// through a friend costs both their order, and their fire and combat with it. Measured on
    /// the nine scenarios, 60 games a cell on seeds 1-60, with the least worth of a charge
    /// made all in (`Tuning::all_in`): against random 1,036 of 1,080 (1,035 without), against
    /// straight 787 (787); only Lobosch as Prussia against random moved (51 to 52).
    pub(super) fn disorders_friends(&self, b: &Battle, after: &Battle, movers: &[UnitId]) -> bool {
        self.own(after).iter().any(|v| {
            v.status.disordered
                && !movers.contains(&v.id)
                && b.unit(&v.id).is_ok_and(|w| !w.status.disordered)
        })
    }

    /// Whether any of `units` stands in contact with an enemy in `after`: an advance that ends
    /// so brings a fight whose odds it has not weighed (that is a charge's business).
    pub(super) fn meets_enemy(&self, after: &Battle, units: &[UnitId]) -> bool {
        units.iter().filter_map(|id| after.unit(id).ok()).any(|v| {
            self.enemies(after, v.side)
                .iter()
                .any(|e| e.base.within(&v.base, MEETS))
        })
    }
}
