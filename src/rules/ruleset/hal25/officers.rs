//! Losses in Hal's rules: figures taken off stand by stand, the checks they call for, and the risk
//! to officers with the unit.

use super::Hal25;
use super::N;
use super::rolls::HalRoll;
use super::status::own;
use super::{HalEvent, Marker};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::Roll;

impl Hal25 {
    // ----- losses -----------------------------------------------------------------------------

    /// Takes figures off a unit, last stand first; marks the checks the losses call for, and
    /// risks an attached officer.
    pub fn take_losses(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        figures: u32,
        why: &str,
    ) -> Result<(), RuleError> {
        self.lose(b, out, id, figures, why, true)
    }

    /// Takes figures off; `mark`: mark the check that losing a stand calls for (a melee's
    /// loser goes to the failed morale chart instead).
    pub fn lose(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        figures: u32,
        why: &str,
        mark: bool,
    ) -> Result<(), RuleError> {
        self.lose_at(b, out, id, figures, &[], why, mark)
    }

    /// Takes figures off, first from the stands named (a melee's stand casualties, IV.A.4),
    /// the rest from the last stand forward.
    #[expect(clippy::too_many_arguments, reason = "lose with the stands hit")]
    pub fn lose_at(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        figures: u32,
        at: &[(usize, u32)],
        why: &str,
        mark: bool,
    ) -> Result<(), RuleError> {
        self.lose_risking(b, out, id, figures, at, why, mark, true)
    }

    /// `lose_at`; `risk`: an attached officer throws for his risk now (false where the same
    /// fire goes on to casualties that throw it once for all: a gun knocked out, VI.C).
    #[expect(clippy::too_many_arguments, reason = "lose with the stands hit")]
    pub(crate) fn lose_risking(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        figures: u32,
        at: &[(usize, u32)],
        why: &str,
        mark: bool,
        risk: bool,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if figures == 0 || u.status.removed {
            return Ok(());
        }
        let (mut stands, taken) = figures_off(&u, figures, at);
        let artillery = self.is_artillery(&u);
        if !artillery {
            stands.retain(|&f| f > 0);
        }
        let before = u.stands.len();
        b.emit(
            out,
            Event::Losses {
                unit: id.clone(),
                figures: taken,
                stands: stands.clone(),
                why: why.into(),
            },
        );
        let now = b.unit(id)?.clone();
        let gone = if artillery {
            self.guns_served(&now) == 0
        } else {
            stands.is_empty()
        };
        if gone {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: if artillery {
                        "no gun has crew to serve it".into()
                    } else {
                        "every figure lost".into()
                    },
                },
            );
            // The unit is gone, but the fire or melee that took it was effective: an officer
            // with it throws for his risk all the same (VI.C).
            if risk {
                self.officer_risk(b, out, id)?;
            }
            return Ok(());
        }
        let lost_stand = !artillery && stands.len() < before;
        if lost_stand {
            self.close_up(b, out, &now);
        }
        let half = artillery
            && !own(&now).checked_half
            && now.extra.strength.saturating_sub(now.figures()) as f32
                >= self.n(N::BatteryCheckCrew);
        if half {
            b.emit(
                out,
                HalEvent::Marked {
                    unit: id.clone(),
                    marker: Marker::CheckedStrength,
                    count: 1,
                },
            );
        }
        if mark && (lost_stand || half) && !own(&now).must_check {
            b.emit(
                out,
                HalEvent::Marked {
                    unit: id.clone(),
                    marker: Marker::MustCheck,
                    count: 1,
                },
            );
        }
        if risk {
            self.officer_risk(b, out, id)?;
        }
        Ok(())
    }
    /// The survivors close up on the front.
    fn close_up(&self, b: &mut Battle, out: &mut Vec<Event>, now: &Unit) {
        let (w, d) = self.footprint(b, now, now.formation);
        let to = crate::rules::geometry::Base::new(
            now.base.local(0.0, now.base.depth / 2.0 - d / 2.0),
            now.base.facing,
            w,
            d,
        );
        b.emit(
            out,
            Event::Reformed {
                unit: now.id.clone(),
                formation: now.formation,
                from: now.base,
                to,
                cost: 0.0,
            },
        );
    }

    /// An officer attached to a unit that took losses throws 2D6: a 12 fells him.
    pub(crate) fn officer_risk(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        let Some(g) = self.attached_general(b, &u).map(|g| g.id.clone()) else {
            return Ok(());
        };
        let first = b.cmd_dice.len();
        let (x, y) = (b.d6()?, b.d6()?);
        let falls = f32::from(x + y) >= self.n(N::OfficerRiskNeed);
        b.emit(
            out,
            Event::Rolled {
                what: HalRoll::OfficerRisk { falls }
                    .said(format!("the risk to the officer with {}", u.name)),
                roll: Roll {
                    unit: Some(g.clone()),
                    dice: vec![x, y],
                    total: i32::from(x + y),
                    need: Some(self.n(N::OfficerRiskNeed) as i32),
                    outcome: if falls { "falls" } else { "unhurt" }.into(),
                    first_die: Some(first),
                    ..Roll::default()
                },
            },
        );
        if falls {
            b.emit(
                out,
                Event::Destroyed {
                    unit: g,
                    reason: "a casualty with the unit he led".into(),
                },
            );
        }
        Ok(())
    }
}

/// The figures left on each stand once `figures` are taken off, those at `at` first (stand,
/// figures), then from the last stand forward; and how many were taken.
fn figures_off(u: &Unit, figures: u32, at: &[(usize, u32)]) -> (Vec<u32>, u32) {
    let mut stands: Vec<u32> = u.stands.iter().map(|s| s.figures).collect();
    let mut left = figures;
    for &(i, n) in at {
        if let Some(f) = stands.get_mut(i) {
            let take = n.min(*f).min(left);
            *f -= take;
            left -= take;
        }
    }
    for f in stands.iter_mut().rev() {
        let take = left.min(*f);
        *f -= take;
        left -= take;
        if left == 0 {
            break;
        }
    }
    let taken = figures - left;
    (stands, taken)
}
