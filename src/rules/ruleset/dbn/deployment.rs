//! Deployment: the order sides and divisions place their units, placing them, and the bodies
//! of units (formations) a division stands in.

use super::{Dbn, DbnEvent, N, TroopKind};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Division, Side, Unit, UnitId};
use crate::rules::ruleset::dbn::{COMMAND, Refusal};

impl Dbn {
    /// The (side, division) placing now, skipping steps with nobody to place.
    pub fn deployment_turn(&self, b: &Battle) -> Option<(Side, Division)> {
        let step = b.deployment_step;
        if step >= 8 {
            return None;
        }
        Some((step % 2, Division::ORDER[step / 2]))
    }

    pub fn deploy(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        centre: Pt,
        facing: f32,
    ) -> Result<(), RuleError> {
        let Some((side, div)) = self.deployment_turn(b) else {
            return Err(RuleError::refused(
                Refusal::DeploymentOver,
                "deployment is over".into(),
            ));
        };
        let u = b.unit(id)?.clone();
        if u.side != side {
            return Err(RuleError::NotYourUnit(id.clone()));
        }
        if !u.status.undeployed {
            return Err(RuleError::refused(
                Refusal::AlreadyDeployed,
                format!("{} is already deployed", u.name),
            ));
        }
        let udiv = u.division.unwrap_or(Division::Centre);
        if udiv != div {
            return Err(RuleError::refused(
                Refusal::OtherDivisionDeploying,
                format!(
                    "{} belongs to the {:?} division; the {:?} division is deploying",
                    u.name, udiv, div
                ),
            ));
        }
        if !(centre.is_finite() && facing.is_finite()) {
            return Err(RuleError::refused(
                Refusal::PositionNotNumbers,
                "deployment position must be numbers".into(),
            ));
        }
        let base = Base::new(centre, facing, u.base.width, u.base.depth);
        if !b.table.holds(&base) {
            return Err(RuleError::refused(
                Refusal::WouldBeOffTable,
                format!("{} would be off the table", u.name),
            ));
        }
        let zones: Vec<_> = b.zones.iter().filter(|z| z.side == side).collect();
        if !zones.is_empty() && !zones.iter().any(|z| z.holds(&base)) {
            return Err(RuleError::refused(
                Refusal::OutsideDeploymentZone,
                format!("{} must deploy inside its deployment zone", u.name),
            ));
        }
        if let Some(o) = b.alive().find(|o| o.id != u.id && base.overlaps(&o.base)) {
            return Err(RuleError::refused(
                Refusal::WouldOverlap,
                format!("{} would overlap {}", u.name, o.name),
            ));
        }
        if div != Division::Reserve {
            let min = b.scale.to_mm(self.n(N::DeployDistance));
            if let Some(e) = b.alive().find(|e| {
                e.side != side
                    && e.division != Some(Division::Reserve)
                    && e.base.distance(&base) < min - 0.5
            }) {
                return Err(RuleError::refused(
                    Refusal::TooCloseToEnemy,
                    format!(
                        "{} must deploy at least {:.0} {} from {}",
                        u.name,
                        self.n(N::DeployDistance),
                        b.scale.unit,
                        e.name
                    ),
                ));
            }
        }
        b.emit(
            out,
            Event::Deployed {
                unit: id.clone(),
                to: base,
            },
        );
        Ok(())
    }

    /// Ends the current deployment step.
    pub fn end_deployment_step(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Some((side, div)) = self.deployment_turn(b) else {
            return Err(RuleError::refused(
                Refusal::DeploymentOver,
                "deployment is over".into(),
            ));
        };
        if let Some(u) = b.units.iter().find(|u| {
            u.side == side && u.status.undeployed && u.division.unwrap_or(Division::Centre) == div
        }) {
            return Err(RuleError::refused(
                Refusal::DivisionNotDeployed,
                format!("{} of the {:?} division is not yet deployed", u.name, div),
            ));
        }
        let bodies = self.formations(b, side, div);
        let most = self.n(N::DivisionFormationsMax) as usize;
        if bodies > most {
            return Err(RuleError::refused(
                Refusal::TooManyBodies,
                format!(
                    "the {div:?} division stands in {bodies} bodies: a division deploys as 1 or {most} formations, each of units in edge contact"
                ),
            ));
        }
        b.emit(
            out,
            DbnEvent::DeploymentStep {
                side,
                division: div,
            },
        );
        if b.deployment_step >= 8 {
            b.emit(
                out,
                Event::PhaseBegan {
                    turn: 1,
                    phase: COMMAND,
                    side: 0,
                },
            );
        }
        Ok(())
    }

    /// How many formations (bodies of units in edge contact) a side's division stands in;
    /// commanders and baggage are no part of one.
    pub fn formations(&self, b: &Battle, side: Side, div: Division) -> usize {
        let members: Vec<&Unit> = b
            .units
            .iter()
            .filter(|u| {
                u.side == side
                    && !u.status.undeployed
                    && u.alive()
                    && u.division.unwrap_or(Division::Centre) == div
                    && !matches!(self.kind(u), TroopKind::Commander | TroopKind::Baggage)
            })
            .collect();
        let mut body: Vec<usize> = (0..members.len()).collect();
        fn root(body: &mut [usize], mut i: usize) -> usize {
            while body[i] != i {
                body[i] = body[body[i]];
                i = body[i];
            }
            i
        }
        for i in 0..members.len() {
            for j in i + 1..members.len() {
                let (x, y) = (&members[i].base, &members[j].base);
                if x.touched_by(y).is_some() || y.touched_by(x).is_some() {
                    let (ri, rj) = (root(&mut body, i), root(&mut body, j));
                    body[ri] = rj;
                }
            }
        }
        (0..members.len())
            .filter(|i| root(&mut body, *i) == *i)
            .count()
    }
}
