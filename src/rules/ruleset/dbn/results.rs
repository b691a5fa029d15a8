//! Results of firing and close combat: hits, shaken and destroyed, recoil (pushing friends
//! back), flight, follow-up and pursuit, and who orders a pursuit.

use super::N;
use super::{Dbn, DbnGame, Supplement, TroopKind};
use crate::rules::battle::Battle;
use crate::rules::command::{Effect, Event, Pursuit, RuleError, Verdict};
use crate::rules::geometry::{Base, Edge, Pt, norm_deg, norm_facing};
use crate::rules::model::{Formation, Side, Unit, UnitId};
use crate::rules::ruleset::common::conform;
use crate::rules::terrain::FeatureKind;

impl Dbn {
    /// Friends a unit may pass through: skirmish foot and commanders, which open or step aside;
    /// skirmish foot themselves pass through any friend.
    pub fn may_pass_through(&self, mover: &Unit, friend: &Unit) -> bool {
        self.is_skirmisher(mover)
            || self.is_skirmisher(friend)
            || self.kind(friend) == TroopKind::Commander
    }

    /// The facing a unit beaten by `enemy` recoils or flees from: its own facing when the
    /// enemy is to its front (or not touching it and ahead), else turned to face the enemy
    /// across the edge it touches or that lies towards it.
    fn facing_towards(&self, u: &Unit, enemy: Option<&Unit>) -> f32 {
        let Some(e) = enemy else {
            return u.base.facing;
        };
        let edge = match u.base.touched_by(&e.base) {
            Some(c) => c.edge,
            None => {
                let to = e.base.centre.minus(u.base.centre);
                [Edge::Front, Edge::Right, Edge::Rear, Edge::Left]
                    .into_iter()
                    .max_by(|x, y| {
                        u.base
                            .normal(*x)
                            .dot(to)
                            .total_cmp(&u.base.normal(*y).dot(to))
                    })
                    .unwrap_or(Edge::Front)
            }
        };
        let turn = match edge {
            Edge::Front => 0.0,
            Edge::Right => 90.0,
            Edge::Rear => 180.0,
            Edge::Left => -90.0,
        };
        norm_facing(u.base.facing + turn)
    }

    /// Whether a base stands off the table or on a river away from a bridge.
    fn impassable(&self, b: &Battle, base: &Base) -> bool {
        !b.table.holds(base)
            || (b
                .terrain
                .touching(base, &[FeatureKind::River])
                .next()
                .is_some()
                && !b.terrain.on_bridge(base))
    }

    /// Moves `who` from `start` along `dir` up to `dist` mm, as `how` says it treats the units
    /// in its way (see `Give`). The table edge, a river or (but in pursuit) an enemy block it
    /// (`blocked`); a unit it passes through it ends clear of, going on by up to the margin.
    fn path(
        &self,
        b: &Battle,
        who: &Unit,
        start: &Base,
        dir: Pt,
        dist: f32,
        how: Give,
    ) -> RecoilPath {
        let mut path = RecoilPath::default();
        // Room to go on past friends passed through: their depth and its own, with some to
        // spare (a search bound, not a rule distance).
        let limit = match how {
            Give::Pursue => dist,
            Give::Recoil | Give::Shove => dist + who.base.depth + 60.0,
            Give::Flee => dist + 2.0 * who.base.depth + 60.0,
        };
        let n = limit.ceil().max(1.0) as usize;
        for j in 1..=n {
            let d = limit * j as f32 / n as f32;
            let base = Base {
                centre: start.centre.plus(dir.scale(d)),
                ..*start
            };
            if self.impassable(b, &base) {
                path.blocked = true;
                return path;
            }
            let mut on_friend = false;
            for o in b.alive().filter(|o| o.id != who.id) {
                // A friend pushed back stands where the push put it: going on past a commander
                // must not carry the recoil onto it there.
                if let Some(push) = path.pushed.iter().find(|p| p.id == o.id) {
                    if base.overlaps(&push.to) {
                        return path;
                    }
                    continue;
                }
                if !base.overlaps(&o.base) {
                    continue;
                }
                if how == Give::Pursue {
                    return path;
                }
                if o.side != who.side {
                    path.blocked = true;
                    return path;
                }
                if how == Give::Flee || self.may_pass_through(who, o) {
                    on_friend = true;
                    continue;
                }
                let same = self.kind(o) == self.kind(who)
                    && norm_deg(o.base.facing - who.base.facing).abs() < 1.0
                    && !self.in_close_combat(b, o);
                if how == Give::Recoil && same && d <= dist + 1e-3 {
                    // Pushed back by what is left of the recoil.
                    let shove = dist - path.moved;
                    let friend = self.path(b, o, &o.base, dir, shove, Give::Shove);
                    if !friend.blocked && friend.moved + 0.5 >= shove {
                        path.pushed.push(Push {
                            id: o.id.clone(),
                            to: Base {
                                centre: o.base.centre.plus(dir.scale(friend.moved)),
                                ..o.base
                            },
                            at: path.moved,
                            shove,
                        });
                        continue;
                    }
                }
                return path;
            }
            if on_friend {
                continue;
            }
            path.moved = d;
            if d >= dist - 1e-3 {
                return path;
            }
        }
        path
    }

    /// Recoil one base depth directly away from `enemy` (the unit that beat it): a unit beaten
    /// on its flank or rear first turns to face that enemy. Destroyed when blocked by enemy,
    /// the table edge or impassable ground; it passes through skirmishers and commanders,
    /// pushes back friends of its own kind facing its way, and stops against any other friend.
    pub fn recoil(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        enemy: Option<&UnitId>,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() {
            return Ok(());
        }
        let e = enemy.and_then(|e| b.unit(e).ok()).cloned();
        let facing = self.facing_towards(&u, e.as_ref());
        // Turned to face the enemy where there is room to turn where it stands; else it
        // recoils as it faces (turning would put it on a unit beside it).
        let turned = Some(Base { facing, ..u.base })
            .filter(|t| {
                !b.alive().any(|o| {
                    o.id != u.id
                        && !(o.side == u.side && self.may_pass_through(&u, o))
                        && t.overlaps(&o.base)
                })
            })
            .unwrap_or(u.base);
        let back = turned.forward().scale(-1.0);
        let path = self.path(b, &u, &turned, back, turned.depth, Give::Recoil);
        if path.blocked {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: "could not recoil: blocked by the enemy, the table edge or impassable ground".into(),
                },
            );
            return Ok(());
        }
        // A recoil that stops short (a commander where it would end) pushes its friends only
        // as far as it went.
        let mut pushes = Vec::with_capacity(path.pushed.len());
        for p in path.pushed {
            let from = b.unit(&p.id)?.clone();
            let need = (path.moved - p.at).clamp(0.0, p.shove);
            let to = if need + 1e-3 >= p.shove {
                p.to
            } else if need <= 1e-3 {
                from.base
            } else {
                let gone = self
                    .path(b, &from, &from.base, back, need, Give::Shove)
                    .moved;
                Base {
                    centre: from.base.centre.plus(back.scale(gone)),
                    ..from.base
                }
            };
            pushes.push((p.id, from.base, to));
        }
        for (f, from, to) in pushes {
            if from == to {
                continue;
            }
            b.emit(
                out,
                Event::Recoiled {
                    unit: f,
                    from,
                    to,
                    voluntary: false,
                },
            );
        }
        let to = Base {
            centre: turned.centre.plus(back.scale(path.moved)),
            ..turned
        };
        b.emit(
            out,
            Event::Recoiled {
                unit: id.clone(),
                from: u.base,
                to,
                voluntary: false,
            },
        );
        Ok(())
    }

    /// Flee: turn directly away from `enemy` and move the flee distance, passing through any
    /// friend; off the table or into the enemy is destruction.
    pub fn flee(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        enemy: Option<&UnitId>,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() {
            return Ok(());
        }
        let e = enemy.and_then(|e| b.unit(e).ok()).cloned();
        // Troops that dismount (DBFPW's SC) mount to flee.
        if u.formation == Formation::Dismounted && self.troop_of(&u).dismounted.is_some() {
            b.emit(
                out,
                Event::Reformed {
                    unit: id.clone(),
                    formation: Formation::Line,
                    from: u.base,
                    to: u.base,
                    cost: 0.0,
                },
            );
        }
        let turned = Base {
            facing: norm_facing(self.facing_towards(&u, e.as_ref()) + 180.0),
            ..u.base
        };
        let dist = b.scale.to_mm(self.n(N::FleeDistance));
        // Fleeing troops burst through their own.
        let path = self.path(b, &u, &turned, turned.forward(), dist, Give::Flee);
        if path.blocked {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: "fled off the table or into the enemy".into(),
                },
            );
            return Ok(());
        }
        let to = Base {
            centre: turned.centre.plus(turned.forward().scale(path.moved)),
            ..turned
        };
        b.emit(
            out,
            Event::Fled {
                unit: id.clone(),
                from: u.base,
                to,
            },
        );
        Ok(())
    }

    /// Advance straight ahead up to one base depth, stopping at contact. Returns the enemy
    /// contacted, if any.
    pub fn follow_up(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        recoiled: Option<&UnitId>,
    ) -> Result<Option<UnitId>, RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() {
            return Ok(None);
        }
        let Some((to, hit)) = self.follow_up_end(b, &u) else {
            return Ok(None);
        };
        let continuing = hit
            .as_ref()
            .map(|h| h.0.clone())
            .filter(|h| Some(h) == recoiled);
        b.emit(
            out,
            Event::Pursued {
                unit: id.clone(),
                from: u.base,
                to,
                continuing,
            },
        );
        Ok(hit.map(|h| h.0))
    }

    /// Where a follow-up of `u` would end, and the enemy it would contact there; None when it
    /// cannot advance.
    pub fn follow_up_end(&self, b: &Battle, u: &Unit) -> Option<(Base, Option<(UnitId, Base)>)> {
        let got = self
            .path(b, u, &u.base, u.base.forward(), u.base.depth, Give::Pursue)
            .moved;
        if got <= 0.0 {
            return None;
        }
        let mut to = Base {
            centre: u.base.centre.plus(u.base.forward().scale(got)),
            ..u.base
        };
        let hit = b
            .alive()
            .find(|e| {
                e.side != u.side
                    && e.base
                        .touched_by(&to)
                        .is_some_and(|c| c.own_edge == Edge::Front)
            })
            .map(|e| (e.id.clone(), e.base));
        if let Some((_, eb)) = &hit
            && let Some(c) = eb.touched_by(&to)
        {
            let conformed = conform(&to, eb, c);
            if b.alive()
                .all(|o| o.id == u.id || o.base == *eb || !conformed.overlaps(&o.base))
                && b.table.holds(&conformed)
            {
                to = conformed;
            }
        }
        Some((to, hit))
    }

    /// Adds hits and their consequences (shaken, destroyed).
    pub fn add_hits(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        n: u32,
    ) -> Result<bool, RuleError> {
        if n == 0 {
            return Ok(false);
        }
        let u = b.unit(id)?.clone();
        if !u.alive() {
            return Ok(false);
        }
        let total = u.status.hits + n;
        b.emit(
            out,
            Event::Hit {
                unit: id.clone(),
                hits: n,
                total,
            },
        );
        if total as f32 >= self.n(N::DestroyedHits) {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: format!("{total} hits"),
                },
            );
            return Ok(true);
        }
        if total as f32 >= self.n(N::ShakenHits) && !u.status.shaken {
            b.emit(out, Event::Shaken { unit: id.clone() });
        }
        Ok(false)
    }
}

/// How a moving unit treats the units in its way.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Give {
    /// A recoil: passes skirmishers and commanders, pushes friends of its own kind.
    Recoil,
    /// A friend pushed back by a recoil: passes skirmishers and commanders, pushes no one.
    Shove,
    /// A flight: through every friend.
    Flee,
    /// A pursuit: stops at any unit.
    Pursue,
}

/// Where a recoil or flight ends: how far the unit moves, whether it is blocked (destroyed),
/// and the friends it pushes back with their new bases.
#[derive(Default)]
struct RecoilPath {
    moved: f32,
    blocked: bool,
    pushed: Vec<Push>,
}

/// A friend pushed back by a recoil: its new base, how far the recoil had gone when it met it,
/// and what was left of the recoil then.
struct Push {
    id: UnitId,
    to: Base,
    at: f32,
    shove: f32,
}

/// Who orders each victor's pursuit after a close combat: the side that gave the Fight command
/// for its own units (`pursue`), an order in `each` for a unit of either side (its owner's
/// choice, as for the defender's fire support), else each unit's standing order, given by its
/// owner (`Command::PursuitOrder`); no one pursues from a combat left unfought.
#[derive(Clone, Copy, Debug)]
pub(super) struct PursuitOrders<'a> {
    /// The side that gave the Fight command; None for combats left unfought.
    pub(super) side: Option<Side>,
    pub(super) pursue: Option<bool>,
    pub(super) each: &'a [Pursuit],
}

impl PursuitOrders<'_> {
    /// Whether the victor `w`, free to choose, pursues: by its own order; by its side's
    /// choice when its side gave the command (else its standing order); by its standing order
    /// for the other side's victor, whose owner gave it before the dice; no one pursues from a
    /// combat nobody fought.
    pub(super) fn wants(&self, w: &Unit) -> bool {
        if let Some(p) = self.each.iter().find(|p| p.unit == w.id) {
            return p.pursue;
        }
        let standing = !w.status.hold_ground;
        match self.side {
            Some(s) if s == w.side => self.pursue.unwrap_or(standing),
            Some(_) => standing,
            None => false,
        }
    }
}

/// Whether a victorious unit follows up its beaten enemy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Follow {
    Never,
    May,
    Must,
}

impl<S: Supplement> DbnGame<S> {
    /// The firing result for the loser (the supplement's table).
    pub fn firing_effect(
        &self,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        self.sup.firing_effect(self, b, loser, winner, verdict)
    }

    /// The close combat result for the loser (the supplement's table).
    pub fn combat_effect(
        &self,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        self.sup.combat_effect(self, b, loser, winner, verdict)
    }

    /// Applies a result to a unit: hits, recoil, flight or destruction, then routing tests.
    pub(super) fn apply_effect(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        effect: &Effect,
        by: &UnitId,
    ) -> Result<(), RuleError> {
        let d = &self.dbn;
        let before = out.len();
        match effect {
            Effect::NoEffect => {}
            Effect::Hits(n) => {
                d.add_hits(b, out, id, *n)?;
            }
            Effect::Recoil => d.recoil(b, out, id, Some(by))?,
            Effect::HitAndRecoil => {
                if !d.add_hits(b, out, id, self.hits(N::ResultHit))? {
                    d.recoil(b, out, id, Some(by))?;
                }
            }
            Effect::Flee { hits } => {
                if !d.add_hits(b, out, id, *hits)? {
                    d.flee(b, out, id, Some(by))?;
                }
            }
            Effect::Destroyed => b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: "destroyed by the combat result".into(),
                },
            ),
        }
        let destroyed: Vec<UnitId> = out[before..]
            .iter()
            .filter_map(|e| {
                if let Event::Destroyed { unit, .. } = e {
                    Some(unit.clone())
                } else {
                    None
                }
            })
            .collect();
        for dead in destroyed {
            self.sup.after_destroyed(self, b, out, &dead)?;
        }
        Ok(())
    }
}
