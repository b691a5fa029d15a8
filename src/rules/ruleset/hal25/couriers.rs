//! Couriers carrying written orders (Hal's VI.D-E): sent, carried, delivered or lost.

use super::rolls::HalRoll;
use super::{Hal25, HalEvent, N, TroopClass};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::model::UnitId;
use crate::rules::ruleset::Roll;
use crate::rules::ruleset::common::illegal;
use crate::rules::ruleset::hal25::{CHARGES, MOVEMENT, Refusal};

impl Hal25 {
    /// The orders a courier carries now: (brigade, order).
    pub fn carrying(&self, b: &Battle, courier: &UnitId) -> Option<(String, String)> {
        b.log.iter().rev().find_map(|e| match e.own() {
            Some(HalEvent::Orders {
                courier: c,
                brigade,
                order,
                delivered,
                lost,
            }) if c == courier => {
                Some((!delivered && !lost).then(|| (brigade.clone(), order.clone())))
            }
            _ => None,
        })?
    }

    /// The last orders delivered to a brigade.
    pub fn orders_of(&self, b: &Battle, brigade: &str) -> Option<String> {
        b.log.iter().rev().find_map(|e| match e.own() {
            Some(HalEvent::Orders {
                brigade: x,
                order,
                delivered: true,
                ..
            }) if x == brigade => Some(order.clone()),
            _ => None,
        })
    }

    /// A courier sets off with orders.
    pub fn send(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        courier: &UnitId,
        brigade: &str,
        order: &str,
    ) -> Result<(), RuleError> {
        if !matches!(b.phase, CHARGES | MOVEMENT) {
            return Err(RuleError::WrongPhase {
                command: "send a courier".into(),
                phase: b.phase,
            });
        }
        let c = b.unit(courier)?;
        if self.class(c) != Some(TroopClass::Courier) || !c.alive() {
            return illegal(
                Refusal::NotACourier,
                format!("{} is not a courier on the table", c.name),
            );
        }
        if b.phase == MOVEMENT && c.side != b.active {
            return illegal(
                Refusal::OtherSideMoving,
                format!("{}: the other side is moving", c.name),
            );
        }
        if self.carrying(b, courier).is_some() {
            return illegal(
                Refusal::AlreadyCarriesOrders,
                format!("{} already carries orders", c.name),
            );
        }
        if self.brigadier(b, c.side, brigade).is_none() {
            return illegal(
                Refusal::NoCommander,
                format!("brigade {brigade} has no commander on the table"),
            );
        }
        if order.trim().is_empty() || order.len() > 200 {
            return illegal(
                Refusal::OrdersLength,
                "written orders are 1 to 200 characters".into(),
            );
        }
        b.emit(
            out,
            HalEvent::Orders {
                courier: courier.clone(),
                brigade: brigade.into(),
                order: order.trim().into(),
                delivered: false,
                lost: false,
            },
        );
        Ok(())
    }

    /// A courier whose move ends touching the brigade's commander delivers his orders.
    pub fn deliver(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        courier: &UnitId,
    ) -> Result<(), RuleError> {
        let Some((brigade, order)) = self.carrying(b, courier) else {
            return Ok(());
        };
        let c = b.unit(courier)?;
        let tol = b.scale.to_mm(self.n(N::AttachedTolerance));
        let arrived = self
            .brigadier(b, c.side, &brigade)
            .is_some_and(|g| g.base.within(&c.base, tol));
        if arrived {
            b.emit(
                out,
                HalEvent::Orders {
                    courier: courier.clone(),
                    brigade,
                    order,
                    delivered: true,
                    lost: false,
                },
            );
        }
        Ok(())
    }

    /// Each turn every courier carrying orders throws 2D6: a 12 loses the message.
    pub fn courier_risks(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let riding: Vec<UnitId> = b
            .alive()
            .filter(|c| self.class(c) == Some(TroopClass::Courier))
            .map(|c| c.id.clone())
            .collect();
        for id in riding {
            let Some((brigade, order)) = self.carrying(b, &id) else {
                continue;
            };
            let first = b.cmd_dice.len();
            let (x, y) = (b.d6()?, b.d6()?);
            let lost = f32::from(x + y) >= self.n(N::CourierLostNeed);
            b.emit(
                out,
                Event::Rolled {
                    what: HalRoll::CourierRide { lost }.said("the courier's ride"),
                    roll: Roll {
                        unit: Some(id.clone()),
                        dice: vec![x, y],
                        total: i32::from(x + y),
                        outcome: if lost {
                            format!(
                                "{} or more: the message is lost",
                                self.n(N::CourierLostNeed)
                            )
                        } else {
                            "rides on".into()
                        },
                        first_die: Some(first),
                        ..Roll::default()
                    },
                },
            );
            if lost {
                b.emit(
                    out,
                    HalEvent::Orders {
                        courier: id,
                        brigade,
                        order,
                        delivered: false,
                        lost: true,
                    },
                );
            }
        }
        Ok(())
    }
}
