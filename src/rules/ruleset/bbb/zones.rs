//! BBB zones of control: an enemy fighting unit's 3" zone stops a unit that enters it for the
//! rest of the turn unless it assaults, and no move or evade passes through an enemy (ruling
//! zone_of_control).

use super::{Bbb7yw, N, illegal};
use crate::rules::battle::Battle;
use crate::rules::command::RuleError;
use crate::rules::geometry::{Base, CONTACT_EPS, Contact};
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::bbb::Refusal;

impl Bbb7yw {
    /// No move passes through an enemy: an assault meets the first enemy in its way (ruling
    /// zone_of_control). Only what the move adds to an overlap it started with counts.
    pub(super) fn passes_no_enemy(
        &self,
        b: &Battle,
        u: &Unit,
        samples: &[Base],
        contact: Option<&(UnitId, Base, Contact)>,
    ) -> Result<(), RuleError> {
        if self.is_general(u) {
            return Ok(());
        }
        for e in b
            .alive()
            .filter(|e| e.side != u.side && !self.is_general(e))
        {
            let start = u.base.overlap_depth(&e.base);
            if samples[1..]
                .iter()
                .any(|s| s.overlap_depth(&e.base) > start + CONTACT_EPS)
            {
                return match contact {
                    Some((t, ..)) if *t != e.id => illegal(
                        Refusal::PassesEnemyBeforeContact,
                        format!(
                            "{} would pass through {}: an assault meets the first enemy in its way",
                            u.name, e.name
                        ),
                    ),
                    _ => illegal(
                        Refusal::WouldPassThroughEnemy,
                        format!("{} would pass through {}", u.name, e.name),
                    ),
                };
            }
        }
        Ok(())
    }

    /// A zone entered stops the unit for the rest of the turn, unless it assaults: judged
    /// along the turn's whole way (where it began, its earlier moves, then this one), so a
    /// unit that leaves a zone it began in and comes back into it has entered it too (ruling
    /// zone_of_control).
    pub(super) fn zone_stop(
        &self,
        b: &Battle,
        u: &Unit,
        samples: &[Base],
        assaults: bool,
    ) -> Result<(), RuleError> {
        if self.is_general(u) || assaults {
            return Ok(());
        }
        let inch = b.scale.to_mm(1.0);
        let zoc = b.scale.to_mm(self.n(N::ZoneOfControl));
        let first = u.bound.turn_start.unwrap_or(u.base);
        let mut earlier: Vec<Base> = match u.bound.turn_start {
            Some(_) => self
                .moves_this_turn(b, u)
                .into_iter()
                .flat_map(|m| m.0)
                .collect(),
            None => Vec::new(),
        };
        earlier.push(u.base);
        for e in b
            .alive()
            .filter(|e| e.side != u.side && !self.is_general(e))
        {
            let inside = |s: &Base| s.within(&e.base, zoc);
            // Whether it has been outside the zone this turn, up to each point.
            let mut was_out = !inside(&first);
            if earlier.iter().any(|s| {
                let entered = was_out && inside(s);
                was_out |= !inside(s);
                entered
            }) {
                return illegal(
                    Refusal::StoppedInZoneOfControl,
                    format!(
                        "{} entered the 3\" zone of control of {} this turn: it stopped there, and may go on only to assault",
                        u.name, e.name
                    ),
                );
            }
            let entry = samples.iter().position(|s| {
                let entered = was_out && inside(s);
                was_out |= !inside(s);
                entered
            });
            if let Some(i) = entry {
                let after = samples[i..]
                    .windows(2)
                    .map(|w| w[0].centre.dist(w[1].centre))
                    .sum::<f32>();
                if after > inch * self.n(N::ZocSettle) {
                    return illegal(
                        Refusal::EntersZoneOfControl,
                        format!(
                            "{} enters the 3\" zone of control of {}: it must stop there unless it assaults",
                            u.name, e.name
                        ),
                    );
                }
            }
        }
        Ok(())
    }

    /// An evade passes through no enemy, and entering an enemy's 3" zone (one it was not in
    /// before it turned away) stops it there: it may settle a quarter inch.
    pub(super) fn evade_zones(
        &self,
        b: &Battle,
        u: &Unit,
        turned: &Base,
        path: &[Base],
    ) -> Result<(), RuleError> {
        for o in b
            .alive()
            .filter(|o| o.side != u.side && !self.is_general(o))
        {
            let start = turned.overlap_depth(&o.base);
            if path
                .iter()
                .any(|t| t.overlap_depth(&o.base) > start + CONTACT_EPS)
            {
                return illegal(
                    Refusal::EvadesThroughEnemy,
                    format!("{} would pass through {}", u.name, o.name),
                );
            }
        }
        let zoc = b.scale.to_mm(self.n(N::ZoneOfControl));
        for o in b
            .alive()
            .filter(|o| o.side != u.side && !self.is_general(o))
        {
            if u.base.within(&o.base, zoc) || turned.within(&o.base, zoc) {
                continue;
            }
            if let Some(i) = path.iter().position(|t| t.within(&o.base, zoc)) {
                let after = path[i..]
                    .windows(2)
                    .map(|w| w[0].centre.dist(w[1].centre))
                    .sum::<f32>();
                if after > b.scale.to_mm(self.n(N::ZocSettle)) {
                    return illegal(
                        Refusal::EvadesIntoZoneOfControl,
                        format!(
                            "{} would evade into the 3\" zone of control of {}: it must stop there",
                            u.name, o.name
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}
