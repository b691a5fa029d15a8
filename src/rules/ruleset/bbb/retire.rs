//! BBB retiring: straight back (or away from the enemy) a distance, ignoring passable
//! terrain, by a command roll or an assault result; friends passed through are disrupted.

use super::Bbb7yw;
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Unit, UnitId};
use crate::rules::terrain::FeatureKind;

/// The pieces a retire's way is measured in.
const STEPS: usize = 40;

impl Bbb7yw {
    /// Retires straight back `inches`, ignoring passable terrain (away from `from` if given,
    /// else behind its own rear; guns stop at a river); passing through friends disrupts them
    /// (not those in base contact when it starts); off the table it is lost.
    pub fn retire(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        inches: f32,
        from: Option<&UnitId>,
        why: &str,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() || inches <= 0.0 {
            return Ok(());
        }
        let dir = match from.and_then(|f| b.unit(f).ok()) {
            Some(e) => {
                let d = u.base.centre.minus(e.base.centre);
                if d.len() > 1e-3 {
                    d.scale(1.0 / d.len())
                } else {
                    u.base.forward().scale(-1.0)
                }
            }
            None => u.base.forward().scale(-1.0),
        };
        let full = b.scale.to_mm(inches);
        // Retiring ignores passable terrain only: a river is impassable to artillery (a bridge
        // excepted), so guns stop on its bank (ruling after_assault).
        let dist = (1..=STEPS)
            .map(|k| full * k as f32 / STEPS as f32)
            .find(|d| self.river_stops(b, &u, u.base.centre, u.base.centre.plus(dir.scale(*d))))
            .map_or(full, |d| d - full / STEPS as f32);
        let mut to = u.base;
        to.centre = u.base.centre.plus(dir.scale(dist));
        // Off the table: lost.
        if !on_table(b, &to) {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: format!("retired off the table ({why})"),
                },
            );
            return Ok(());
        }
        let (to, path) = self.retire_way(b, &u, dir, dist);
        let passed = self.passed_through(b, &u, &path);
        b.emit(
            out,
            Event::Recoiled {
                unit: id.clone(),
                from: u.base,
                to,
                voluntary: false,
            },
        );
        for f in passed {
            self.disrupt(b, out, &f, &format!("{} retired through it", u.name));
        }
        Ok(())
    }

    /// Guns retiring from `p` to `q` would cross a river by no bridge.
    fn river_stops(&self, b: &Battle, u: &Unit, p: Pt, q: Pt) -> bool {
        self.is_artillery(u)
            && b.terrain
                .features
                .iter()
                .any(|f| f.kind == FeatureKind::River && f.crossed_by(p, q))
            && b.terrain.at(p, &[FeatureKind::Bridge]).next().is_none()
            && b.terrain.at(q, &[FeatureKind::Bridge]).next().is_none()
    }

    /// Where a retire of `dist` mm along `dir` ends, and its way: swept with the whole
    /// footprint, it stops short of an enemy in the way; it does not end on a friend, but goes
    /// on past it if the way is clear, else back to the last clear place (ruling
    /// after_assault).
    fn retire_way(&self, b: &Battle, u: &Unit, dir: Pt, dist: f32) -> (Base, Vec<Base>) {
        let at = |k: f32| {
            let mut t = u.base;
            t.centre = u.base.centre.plus(dir.scale(dist * k));
            t
        };
        let enemy_on = |t: &Base| {
            b.alive()
                .any(|e| e.side != u.side && !self.is_general(e) && e.base.overlaps(t))
        };
        let mut path: Vec<Base> = Vec::new();
        for k in 1..=STEPS {
            let t = at(k as f32 / STEPS as f32);
            if enemy_on(&t) {
                break;
            }
            path.push(t);
        }
        let friend_on = |t: &Base| {
            b.alive().any(|f| {
                f.side == u.side && f.id != u.id && !self.is_general(f) && f.base.overlaps(t)
            })
        };
        let mut to = path.last().copied().unwrap_or(u.base);
        if friend_on(&to) {
            let beyond = (STEPS + 1..=2 * STEPS)
                .map(|k| at(k as f32 / STEPS as f32))
                .take_while(|t| {
                    !self.river_stops(b, u, u.base.centre, t.centre)
                        && on_table(b, t)
                        && !enemy_on(t)
                })
                .find(|t| !friend_on(t));
            to = beyond.unwrap_or_else(|| {
                path.iter()
                    .rev()
                    .find(|t| !friend_on(t))
                    .copied()
                    .unwrap_or(u.base)
            });
            if let Some(p) = beyond {
                path.push(p);
            }
        }
        (to, path)
    }

    /// The friends a retire's way passes through, but those in base contact when it began.
    fn passed_through(&self, b: &Battle, u: &Unit, path: &[Base]) -> Vec<UnitId> {
        let touching: Vec<UnitId> = b
            .alive()
            .filter(|f| f.side == u.side && f.id != u.id && f.base.distance(&u.base) < 1.0)
            .map(|f| f.id.clone())
            .collect();
        b.alive()
            .filter(|f| {
                f.side == u.side
                    && f.id != u.id
                    && !self.is_general(f)
                    && !touching.contains(&f.id)
                    && path.iter().any(|t| t.overlaps(&f.base))
            })
            .map(|f| f.id.clone())
            .collect()
    }
}

/// Every corner of the base is on the table.
fn on_table(b: &Battle, t: &Base) -> bool {
    t.corners()
        .iter()
        .all(|p| p.x >= 0.0 && p.y >= 0.0 && p.x <= b.table.width && p.y <= b.table.height)
}
