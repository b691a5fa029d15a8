//! Towns and villages under fire in Hal's rules: their points, set alight, and the occupants
//! leaving a burning town.

use super::Hal25;
use super::HalEvent;
use super::N;
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::terrain::FeatureKind;

impl Hal25 {
    /// Points a town has left.
    pub fn town_left(&self, b: &Battle, feature: &str) -> u32 {
        b.log
            .iter()
            .rev()
            .find_map(|e| match e.own() {
                Some(HalEvent::TownDamaged {
                    feature: f, left, ..
                }) if f == feature => Some(*left),
                _ => None,
            })
            .unwrap_or_else(|| self.town_points(b, feature))
    }

    /// The points a town starts with: the scenario's, else 25 (II.B.4.b).
    pub fn town_points(&self, b: &Battle, feature: &str) -> u32 {
        b.terrain
            .get(feature)
            .and_then(|f| f.town_points)
            .unwrap_or(self.n(N::TownPoints) as u32)
    }

    pub(super) fn damage_town(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        t: &Unit,
        points: u32,
    ) -> Result<(), RuleError> {
        let towns: Vec<String> = self
            .towns_held(b, t)
            .into_iter()
            .map(|f| f.id.clone())
            .collect();
        for f in towns {
            let before = self.town_left(b, &f);
            if before == 0 {
                continue;
            }
            let left = before.saturating_sub(points);
            b.emit(
                out,
                HalEvent::TownDamaged {
                    feature: f.clone(),
                    points: before - left,
                    left,
                },
            );
            if left == 0 {
                let inside: Vec<UnitId> = b
                    .alive()
                    .filter(|u| !self.is_officer(u))
                    .filter(|u| b.terrain.get(&f).is_some_and(|x| x.touches(&u.base)))
                    .map(|u| u.id.clone())
                    .collect();
                for id in inside {
                    self.leave_burning_town(b, out, &id, &f)?;
                }
            }
        }
        Ok(())
    }

    /// A unit in a town that has just burnt leaves it at once, the town being one that "can
    /// not be occupied" (II.B.4.b): keeping its facing, by the shortest way out (straight away
    /// from the nearest enemy, back, to either side or forward, a quarter inch at a time) to a
    /// place on the table clear of the town, of other units and of the enemy's contact, and
    /// formed troops out of woods. It keeps its order: the seed disorganises no one for it.
    /// With no way out it stays, and may move only out of the town (ruling burnt_town).
    pub(super) fn leave_burning_town(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        town: &str,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        let Some(feature) = b.terrain.get(town).cloned() else {
            return Ok(());
        };
        let enemies: Vec<Pt> = b
            .alive()
            .filter(|e| e.side != u.side && self.is_unit(e))
            .map(|e| e.base.centre)
            .collect();
        let away = super::morale::away_from(&u.base, &enemies);
        let (fwd, right) = (u.base.forward(), u.base.right());
        let dirs = [away, fwd.scale(-1.0), right, right.scale(-1.0), fwd];
        let tol = b.scale.to_mm(self.n(N::ContactTolerance));
        let step = b.scale.to_mm(0.25);
        // Never farther than across the town and the unit's own size.
        let across = feature
            .points
            .iter()
            .flat_map(|p| feature.points.iter().map(move |q| p.dist(*q)))
            .fold(0.0_f32, f32::max);
        let most = across + u.base.width.hypot(u.base.depth);
        let free = |to: &Base| {
            b.table.holds(to)
                && !feature.touches(to)
                && !b.alive().any(|o| {
                    o.id != u.id
                        && !self.is_officer(o)
                        && (o.shapes().iter().any(|s| s.overlaps(to))
                            || (o.side != u.side && to.within(&o.base, tol)))
                })
                && (u.formation == Formation::Skirmish
                    || b.terrain
                        .touching(to, &[FeatureKind::Woods])
                        .next()
                        .is_none())
        };
        let mut best: Option<(f32, Base)> = None;
        for dir in dirs {
            let mut d = step;
            while d <= most && best.is_none_or(|(bd, _)| d < bd) {
                let to = Base {
                    centre: u.base.centre.plus(dir.scale(d)),
                    ..u.base
                };
                if free(&to) {
                    best = Some((d, to));
                    break;
                }
                d += step;
            }
        }
        let Some((d, to)) = best else {
            return Ok(());
        };
        b.emit(
            out,
            Event::Moved {
                unit: id.clone(),
                from: u.base,
                to,
                distance: self.inches(b, d),
                allowance: self.inches(b, d),
                going: "out of a burning town".into(),
                contact: None,
                manoeuvre: Some(format!(
                    "leaves {}, in flames, by {:.1}\"",
                    feature.name,
                    self.inches(b, d)
                )),
            },
        );
        Ok(())
    }
}
