//! BBB generals: the command radius, casualties among generals nearer the enemy than their
//! own troops, and their return.

use super::{Bbb7yw, N};
use crate::rules::battle::Battle;
use crate::rules::command::Event;
use crate::rules::geometry::{Base, QUICK_ROOM};
use crate::rules::model::{Unit, UnitId};

impl Bbb7yw {
    /// Friendly general within the command radius.
    pub fn general_near(&self, b: &Battle, u: &Unit) -> Option<UnitId> {
        let r = b.scale.to_mm(self.n(N::GeneralRadius));
        b.alive()
            .filter(|g| g.side == u.side && g.id != u.id && self.is_general(g))
            .find(|g| g.base.within(&u.base, r + 0.5))
            .map(|g| g.id.clone())
    }

    /// Whether a general stands nearer an enemy unit than any of his own, were the enemy
    /// `margin` mm nearer.
    pub fn general_nearer_enemy(&self, b: &Battle, g: &Unit, margin: f32) -> bool {
        let near = |side_own: bool| {
            // The nearest unit's distance: a unit whose bounding circle stays farther than the
            // nearest found so far (by more than the quick rejections' room) is not measured
            // exactly.
            let mut nearest = f32::INFINITY;
            for u in b
                .alive()
                .filter(|u| (u.side == g.side) == side_own && !self.is_general(u))
            {
                let least = u.base.centre.dist(g.base.centre) - u.base.radius() - g.base.radius();
                if least - QUICK_ROOM < nearest {
                    nearest = nearest.min(u.base.distance(&g.base));
                }
            }
            nearest
        };
        near(false) - margin < near(true)
    }

    /// Generals nearer an enemy unit than any of their own become casualties.
    pub fn general_casualties(&self, b: &mut Battle, out: &mut Vec<Event>) {
        let hit: Vec<UnitId> = b
            .alive()
            .filter(|g| self.is_general(g) && self.general_nearer_enemy(b, g, 0.0))
            .map(|g| g.id.clone())
            .collect();
        for id in hit {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id,
                    reason:
                        "a casualty: nearer the enemy than his own troops (he returns next turn)"
                            .into(),
                },
            );
        }
    }

    /// Generals of the moving side who were casualties return behind (or beside, or before)
    /// the own unit nearest where they fell, at the first such place where they are not
    /// nearer the enemy than their own troops, trying units farther off in turn; where there
    /// is none, at the first place on the table.
    pub fn generals_return(&self, b: &mut Battle, out: &mut Vec<Event>) {
        let side = b.active;
        let gap = b.scale.to_mm(self.n(N::GeneralReturn)) / 2.0;
        let back: Vec<(UnitId, Base)> = b
            .units
            .iter()
            .filter(|g| g.side == side && g.status.removed && self.is_general(g))
            .filter_map(|g| {
                let mut own: Vec<&Unit> = b
                    .alive()
                    .filter(|u| u.side == side && !self.is_general(u))
                    .collect();
                own.sort_by(|x, y| {
                    x.base
                        .distance(&g.base)
                        .total_cmp(&y.base.distance(&g.base))
                });
                // Behind each unit; where its rear is the table's edge, beside it or before it.
                let places = own.iter().flat_map(|near| {
                    let back = near.base.depth / 2.0 + g.base.depth / 2.0 + gap;
                    let beside = near.base.width / 2.0 + g.base.width / 2.0 + gap;
                    [(0.0, -back), (-beside, 0.0), (beside, 0.0), (0.0, back)]
                        .into_iter()
                        .map(|(x, y)| Base {
                            centre: near.base.local(x, y),
                            facing: near.base.facing,
                            ..g.base
                        })
                        .filter(|p| b.table.holds(p))
                });
                let safe = |p: &Base| {
                    let mut there = g.clone();
                    there.base = *p;
                    !self.general_nearer_enemy(b, &there, 0.0)
                };
                let mut first = None;
                for p in places {
                    if safe(&p) {
                        return Some((g.id.clone(), p));
                    }
                    first.get_or_insert(p);
                }
                first.map(|p| (g.id.clone(), p))
            })
            .collect();
        for (id, to) in back {
            b.emit(out, Event::Deployed { unit: id, to });
        }
    }
}
