//! Threat zones: the ground ahead of an enemy's front that a move may enter only to close with
//! it, cut short where the enemy's own side stands in it.

use super::{Dbn, N, TroopKind};
use crate::rules::battle::Battle;
use crate::rules::command::{RuleError, Step};
use crate::rules::geometry::Base;
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::common::sweep_to_contact;
use crate::rules::ruleset::dbn::Refusal;

impl Dbn {
    /// The threat zone of `e`: one base width (by the data) ahead of its front edge, cut short
    /// across each stretch of its front where one of its own side stands in it (a unit behind
    /// a friend threatens nothing through that friend). Returns the zone as strips.
    pub(crate) fn threat_zone_of(&self, b: &Battle, e: &Unit) -> Vec<Base> {
        let full = self.full_threat_zone(e);
        let depth = full.depth;
        let screens: Vec<&Unit> = b
            .alive()
            .filter(|f| f.side == e.side && f.id != e.id && full.overlaps(&f.base))
            .collect();
        if screens.is_empty() {
            return vec![full];
        }
        const STRIPS: usize = 8;
        const STEPS: usize = 16;
        let w = e.base.width / STRIPS as f32;
        let front = e.base.depth / 2.0;
        let strip = |k: usize, from: f32, to: f32| Base {
            centre: e.base.local(
                -e.base.width / 2.0 + (k as f32 + 0.5) * w,
                front + (from + to) / 2.0,
            ),
            facing: e.base.facing,
            width: w,
            depth: to - from,
        };
        (0..STRIPS)
            .filter_map(|k| {
                let step = depth / STEPS as f32;
                let cut = (0..STEPS)
                    .find(|j| {
                        let piece = strip(k, *j as f32 * step, (*j + 1) as f32 * step);
                        screens.iter().any(|f| piece.overlaps(&f.base))
                    })
                    .map_or(depth, |j| j as f32 * step);
                (cut > 0.5).then(|| strip(k, 0.0, cut))
            })
            .collect()
    }

    /// The threat zone of a unit before friends screen it: every part of its zone lies within.
    fn full_threat_zone(&self, e: &Unit) -> Base {
        e.base
            .threat_zone(e.base.width * self.n(N::ThreatZoneDepthBw))
    }

    /// Threat zones of enemies not in close combat: a move may not enter one, but to advance
    /// straight towards the unit, to contact it, or (from inside) to go directly away. Each
    /// unit of a group is judged by its own contact (`contacts`, by the group's order).
    pub(super) fn check_threat_zones(
        &self,
        b: &Battle,
        units: &[Unit],
        steps: &[Step],
        samples: &[Vec<Base>],
        contacts: &[Option<UnitId>],
    ) -> Result<(), RuleError> {
        for e in b.alive().filter(|e| e.side != units[0].side) {
            // A move whose places all lie clear of the unit's full zone enters no part of it:
            // the screened parts are found only for the enemies it comes near.
            let full = self.full_threat_zone(e);
            if !samples.iter().flatten().any(|x| x.near(&full, 1.0)) {
                continue;
            }
            if self.in_close_combat(b, e)
                || matches!(self.kind(e), TroopKind::Commander | TroopKind::Baggage)
            {
                continue;
            }
            let tz = self.threat_zone_of(b, e);
            let inside = |x: &Base| tz.iter().any(|z| z.overlaps(x));
            for (i, s) in samples.iter().enumerate() {
                let started_in = inside(&s[0]);
                let entered = s.iter().any(inside);
                let contacts_it = contacts.get(i).is_some_and(|c| c.as_ref() == Some(&e.id));
                if !entered || contacts_it {
                    continue;
                }
                // A straight advance directly towards the unit exerting the zone, with that unit
                // across its path, is allowed to stop short of contact (DB7YW Muskets fire and
                // charge at 100 paces, inside a one-base-width zone); passing it obliquely is not.
                let towards = matches!(steps, [Step::Advance(_)])
                    && sweep_to_contact(&s[0], &e.base, self.n(N::SquareUpMax)).is_some();
                if towards {
                    continue;
                }
                if started_in {
                    let away = steps.iter().all(|st| matches!(st, Step::Backstep(_))) || {
                        let d0 = s[0].distance(&e.base);
                        s.windows(2)
                            .all(|w| w[1].distance(&e.base) >= w[0].distance(&e.base) - 0.01)
                            && s.last().is_some_and(|l| l.distance(&e.base) > d0)
                    };
                    if !away {
                        return Err(RuleError::refused(
                            Refusal::InThreatZone,
                            format!(
                                "{} is in the threat zone of {}: it may only advance towards it, move into contact or move directly away",
                                units[i].name, e.name
                            ),
                        ));
                    }
                } else {
                    return Err(RuleError::refused(
                        Refusal::EntersThreatZone,
                        format!("{} enters the threat zone of {}", units[i].name, e.name),
                    ));
                }
            }
        }
        Ok(())
    }
}
