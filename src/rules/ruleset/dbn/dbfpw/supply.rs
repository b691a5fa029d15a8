//! DBFPW's ammunition (the optional rule): packs carried, suppliers (baggage and caissons) and
//! their reach, the Prussian caisson's clear path, and resupply at the start of a bound and
//! after a move.

use super::data::Num;
use super::data::TroopType;
use super::{AMMUNITION, Dbfpw, Fpw, LARGER_BATTLES};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::{Base, Bounds, Pt};
use crate::rules::model::{Ammo, Unit, UnitId};
use crate::rules::ruleset::dbn::troop_type_of_code;
use crate::rules::ruleset::dbn::{Troop, TroopKind, TroopTrait};
use crate::rules::terrain::{Feature, FeatureKind};
use std::collections::HashMap;

impl Fpw {
    /// The packs a unit of this type starts with and may carry in an army list (002 Ammunition
    /// Supply): baggage trains and caissons 4, horse artillery 1 (2 in larger battles), other
    /// artillery and Mitrailleuses 1 in larger battles, everyone else none.
    pub(super) fn pack_allowance(g: &Dbfpw, t: &Troop) -> u32 {
        let larger = g.has_option(LARGER_BATTLES);
        let n = if t.traits.contains(&TroopTrait::Supplier) {
            g.sup.n(Num::PacksSupplier)
        } else if troop_type_of_code(&t.code) == Some(TroopType::HorseArtillery) {
            g.sup.n(if larger {
                Num::PacksHaLarger
            } else {
                Num::PacksHa
            })
        } else if t.kind == TroopKind::Artillery && larger {
            g.sup.n(Num::PacksGunsLarger)
        } else {
            0.0
        };
        n as u32
    }

    /// Whether a unit uses ammunition under the optional rule.
    pub(super) fn uses_ammo(g: &Dbfpw, u: &Unit) -> bool {
        g.has_option(AMMUNITION) && g.dbn.is_artillery(u)
    }

    pub(super) fn supply(
        b: &mut Battle,
        out: &mut Vec<Event>,
        u: &UnitId,
        ammo: Ammo,
        packs: u32,
        why: String,
    ) {
        b.emit(
            out,
            Event::Supply {
                unit: u.clone(),
                ammo,
                packs,
                why,
            },
        );
    }

    /// A friend that can send a pack to `u` now: any friend carrying one in edge contact (its
    /// baggage train, or an adjacent unit: adjacent units exchange packs freely), or a caisson
    /// whose supply path reaches it.
    fn supplier_for(g: &Dbfpw, b: &Battle, u: &Unit) -> Option<UnitId> {
        let d = &g.dbn;
        b.alive()
            .filter(|s| s.side == u.side && s.id != u.id && s.status.packs > 0)
            .find(|s| {
                let contact =
                    u.base.touched_by(&s.base).is_some() || s.base.touched_by(&u.base).is_some();
                contact
                    || (d.has_trait(s, TroopTrait::Supplier)
                        && d.has_trait(s, TroopTrait::SupplyRadius)
                        && Self::supply_path(g, b, s, u))
            })
            .map(|s| s.id.clone())
    }

    /// A caisson's supply radius in mm: the data's, by the shaken fraction when it is shaken.
    pub(super) fn supply_radius(g: &Dbfpw, b: &Battle, cu: &Unit) -> f32 {
        let fraction = if cu.status.shaken {
            g.sup.n(Num::SupplyShakenFraction)
        } else {
            1.0
        };
        b.scale.to_mm(g.sup.n(Num::SupplyRadius) * fraction)
    }

    /// A path from the caisson to the unit within its radius, around bad going and clear of
    /// every enemy by the data's clearance, found on a grid.
    pub fn supply_path(g: &Dbfpw, b: &Battle, cu: &Unit, to: &Unit) -> bool {
        let d = &g.dbn;
        let radius = Self::supply_radius(g, b, cu);
        let step = b.scale.to_mm(g.sup.n(Num::SupplyGrid)).max(1.0);
        let clearance = b.scale.to_mm(g.sup.n(Num::SupplyEnemyClearance));
        if cu.base.distance(&to.base) > radius {
            return false;
        }
        let enemies: Vec<&Unit> = b.alive().filter(|e| e.side != cu.side).collect();
        // The radius reaches the unit it supplies: a unit within the clearance of an enemy
        // lies where the radius may not pass.
        if enemies
            .iter()
            .any(|e| e.base.distance(&to.base) + 0.5 < clearance)
        {
            return false;
        }
        let bad = d.bad_going_kinds();
        let origin = cu.base.centre;
        let n = (radius / step).ceil() as i32 + 1;
        // The search keeps to the square of `n` cells about the caisson: an enemy beyond the
        // clearance of that square bars none of its cells.
        let reach = n as f32 * step + clearance;
        let square = Bounds {
            lo: Pt::new(origin.x - reach, origin.y - reach),
            hi: Pt::new(origin.x + reach, origin.y + reach),
        };
        let enemies: Vec<&Unit> = enemies
            .into_iter()
            .filter(|e| square.meets(&e.base, 0.0))
            .collect();
        // No cell of a way short enough lies farther than the radius from the caisson and
        // the unit together: a way's cost is at least 0.997 of its length (a diagonal costs
        // 141 for 141.4), and it ends within a cell of the unit. Cells beyond are not asked.
        let within_reach = |p: Pt| {
            origin.dist(p) + to.base.distance_to_point(p) <= (radius + 0.5) / 0.997 + step + 1.0
        };
        let at =
            |p: (i32, i32)| Pt::new(origin.x + p.0 as f32 * step, origin.y + p.1 as f32 * step);
        // A road, bridge or causeway is good going wherever it runs (ruling going): a cell it
        // passes through is not bad going, though only a bridge or causeway carries the way
        // over a river.
        let ways: Vec<&Feature> = b
            .terrain
            .features
            .iter()
            .filter(|f| f.kind.is_road_like())
            .collect();
        let water: Vec<&Feature> = b
            .terrain
            .features
            .iter()
            .filter(|f| matches!(f.kind, FeatureKind::Stream | FeatureKind::River))
            .collect();
        let free = |p: Pt| {
            if !b.table.contains(p)
                || enemies
                    .iter()
                    .any(|e| e.base.distance_to_point(p) < clearance)
            {
                return false;
            }
            let cell = Base::new(p, 0.0, step, step);
            let on_way = |bridges_only: bool| {
                ways.iter()
                    .any(|f| (!bridges_only || f.kind != FeatureKind::Road) && f.touches(&cell))
            };
            if b.terrain.at(p, &[FeatureKind::River]).next().is_some() {
                return on_way(true);
            }
            on_way(false)
                || (b.terrain.at(p, &bad).next().is_none()
                    && !b.terrain.at(p, &[FeatureKind::Hill]).any(|f| f.steep))
        };
        // A step between two cells that crosses a stream or river crosses it by a bridge or
        // causeway (or, over a stream, a road) that the step crosses too: a stream narrower
        // than the grid is not hopped over.
        let crossing = |a: Pt, c: Pt| {
            water.iter().filter(|w| w.crossed_by(a, c)).all(|w| {
                ways.iter().any(|r| {
                    (r.kind != FeatureKind::Road || w.kind == FeatureKind::Stream)
                        && r.crossed_by(a, c)
                })
            })
        };
        // Each cell is tested once: the search asks about a cell from each of its neighbours.
        let mut tested: HashMap<(i32, i32), bool> = HashMap::new();
        let found = pathfinding::prelude::astar(
            &(0i32, 0i32),
            |&(x, y)| {
                let mut next = Vec::with_capacity(8);
                for (dx, dy) in [
                    (1, 0),
                    (-1, 0),
                    (0, 1),
                    (0, -1),
                    (1, 1),
                    (1, -1),
                    (-1, 1),
                    (-1, -1),
                ] {
                    let q = (x + dx, y + dy);
                    if q.0.abs() > n
                        || q.1.abs() > n
                        || !*tested
                            .entry(q)
                            .or_insert_with(|| within_reach(at(q)) && free(at(q)))
                        || !crossing(at((x, y)), at(q))
                    {
                        continue;
                    }
                    let cost = if dx != 0 && dy != 0 { 141 } else { 100 };
                    next.push((q, cost));
                }
                next
            },
            |&p| (at(p).minus(to.base.centre).len() / step * 100.0) as i32 / 2,
            |&p| to.base.distance_to_point(at(p)) <= step,
        );
        found.is_some_and(|(_, cost)| cost as f32 / 100.0 * step <= radius + 0.5)
    }

    /// Resupplies every low or out unit of a side that a supplier can reach.
    fn resupply_side(
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        side: usize,
    ) -> Result<(), RuleError> {
        let needy: Vec<UnitId> = b
            .alive()
            .filter(|u| u.side == side && u.status.ammo != Ammo::Full)
            .map(|u| u.id.clone())
            .collect();
        for n in needy {
            Self::resupply(g, b, out, &n)?;
        }
        Ok(())
    }

    /// Resupplies a low or out unit from a supplier that can reach it.
    pub(super) fn resupply(
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() || u.status.ammo == Ammo::Full || !Self::uses_ammo(g, &u) {
            return Ok(());
        }
        if let Some(s) = Self::supplier_for(g, b, &u) {
            let su = b.unit(&s)?.clone();
            Self::supply(
                b,
                out,
                &s,
                su.status.ammo,
                su.status.packs - 1,
                format!("sends a pack to {}", u.name),
            );
            Self::supply(
                b,
                out,
                id,
                Ammo::Full,
                u.status.packs,
                format!("resupplied by {}", su.name),
            );
        }
        Ok(())
    }

    /// Mounted or dismounted, or formed attack column or line, this bound (the log, not a
    /// stored flag).
    pub(super) fn changed_mount(b: &Battle, u: &Unit) -> bool {
        b.log_since_bound()
            .iter()
            .any(|e| matches!(e, Event::Reformed { unit, .. } if unit == &u.id))
    }

    pub(super) fn start_bound(
        &self,
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if !g.has_option(AMMUNITION) {
            return Ok(());
        }
        Self::resupply_side(g, b, out, b.active)
    }

    pub(super) fn after_move(
        &self,
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        if !g.has_option(AMMUNITION) {
            return Ok(());
        }
        // The mover may have reached a supplier, or a supplier may have come up to others.
        let side = b.unit(id)?.side;
        Self::resupply_side(g, b, out, side)
    }

    /// A baggage train or caisson with packs goes to the nearest friend low or out of
    /// ammunition that no supplier reaches now: into contact, or for a caisson within its
    /// supply radius (halved when shaken).
    pub(super) fn supplies(&self, g: &Dbfpw, b: &Battle, u: &Unit) -> Option<(UnitId, f32)> {
        let d = &g.dbn;
        if !g.has_option(AMMUNITION) || !d.has_trait(u, TroopTrait::Supplier) || u.status.packs == 0
        {
            return None;
        }
        let needy = b
            .alive()
            .filter(|f| f.side == u.side && f.id != u.id && Self::uses_ammo(g, f))
            .filter(|f| f.status.ammo != Ammo::Full && Self::supplier_for(g, b, f).is_none())
            .min_by(|a, c| {
                a.base
                    .distance(&u.base)
                    .total_cmp(&c.base.distance(&u.base))
                    .then_with(|| a.id.0.cmp(&c.id.0))
            })?;
        let within = if d.has_trait(u, TroopTrait::SupplyRadius) {
            Self::supply_radius(g, b, u)
        } else {
            0.0
        };
        Some((needy.id.clone(), within))
    }
}
