//! BBB morale and losses: disruption (and rallying from it), silenced guns, bases lost and
//! recovered, Spent units and reduced guns, and the end of turn's recovery of low ammunition
//! and silenced guns.

use super::status::own;
use super::{Bbb7yw, BbbEvent, N, illegal, in_phase, layout};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::Base;
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::bbb::{MOVEMENT, Refusal};

impl Bbb7yw {
    /// Bases at the start.
    pub fn strength(&self, u: &Unit) -> u32 {
        u.extra.strength.max(u.stands.len() as u32)
    }

    /// Bases lost so far.
    pub fn lost(&self, u: &Unit) -> u32 {
        self.strength(u).saturating_sub(u.stands.len() as u32)
    }

    /// Spent: half or more of its bases lost (ruling spent).
    pub fn spent(&self, u: &Unit) -> bool {
        !self.is_general(u)
            && !self.is_artillery(u)
            && self.lost(u) as f32 >= self.strength(u) as f32 * self.n(N::SpentFraction) - 1e-4
            && self.lost(u) > 0
    }

    /// Artillery reduced (one hit).
    pub fn reduced(&self, u: &Unit) -> bool {
        self.is_artillery(u) && u.status.hits as f32 >= self.n(N::ArtilleryReducedHits)
    }

    /// Recovers a lost base instead of moving, as the command roll allows.
    pub fn recover(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        in_phase(b, MOVEMENT, "recover a base")?;
        let u = b.unit(id)?.clone();
        crate::rules::ruleset::common::own_active(b, &u)?;
        if !u.bound.may_recover {
            return illegal(
                Refusal::RollLetsNoRecovery,
                format!(
                    "{}'s command roll does not let it recover a base this turn",
                    u.name
                ),
            );
        }
        if u.bound.moved || u.bound.spent > 0.0 {
            return illegal(
                Refusal::MovedInsteadOfRecovering,
                format!(
                    "{} has moved: a base is recovered instead of moving",
                    u.name
                ),
            );
        }
        let mut stands: Vec<u32> = u.stands.iter().map(|s| s.figures).collect();
        stands.push(1);
        b.emit(
            out,
            BbbEvent::Recovered {
                unit: id.clone(),
                stands: stands.clone(),
            },
        );
        self.refit(b, out, id)?;
        // Ruling: the base comes back into the unit's line only where the line has room.
        let now = b.unit(id)?;
        if let Some(o) = b
            .alive()
            .find(|o| o.id != now.id && !self.is_general(o) && o.base.overlaps(&now.base))
        {
            return illegal(
                Refusal::NoRoomToRecover,
                format!(
                    "{} has no room to take a base back: {} stands there",
                    now.name, o.name
                ),
            );
        }
        Ok(())
    }

    /// Disrupts a unit, artillery too (a fire result also silences guns: `silence`).
    pub fn disrupt(&self, b: &mut Battle, out: &mut Vec<Event>, id: &UnitId, why: &str) {
        let Ok(u) = b.unit(id) else { return };
        if !u.alive() {
            return;
        }
        if !u.status.disordered {
            b.emit(
                out,
                Event::Disordered {
                    unit: id.clone(),
                    why: why.to_string(),
                },
            );
        }
    }

    /// Silences artillery (the fire table's "artillery silenced").
    pub fn silence(&self, b: &mut Battle, out: &mut Vec<Event>, id: &UnitId, why: &str) {
        let Ok(u) = b.unit(id) else { return };
        if u.alive() && self.is_artillery(u) && !own(u).silenced {
            b.emit(
                out,
                BbbEvent::Silenced {
                    unit: id.clone(),
                    silenced: true,
                    why: why.to_string(),
                },
            );
        }
    }

    /// Takes bases off a unit (artillery: reduced by one hit, destroyed by two); a unit left
    /// with none is destroyed.
    pub fn lose_bases(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        n: u32,
        why: &str,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() || n == 0 {
            return Ok(());
        }
        if self.is_artillery(&u) {
            let total = u.status.hits + n;
            if total as f32 >= self.n(N::ArtilleryDestroyedHits) {
                b.emit(
                    out,
                    Event::Destroyed {
                        unit: id.clone(),
                        reason: format!("artillery destroyed by {why}"),
                    },
                );
            } else {
                b.emit(
                    out,
                    Event::Hit {
                        unit: id.clone(),
                        hits: n,
                        total,
                    },
                );
            }
            return Ok(());
        }
        let left = u.stands.len().saturating_sub(n as usize);
        if left == 0 {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: format!("its last base lost to {why}"),
                },
            );
            return Ok(());
        }
        b.emit(
            out,
            Event::Losses {
                unit: id.clone(),
                figures: n,
                stands: vec![1; left],
                why: why.into(),
            },
        );
        self.refit(b, out, id)
    }

    /// Closes the unit's footprint up (or out) to the bases it has, front centre kept.
    fn refit(&self, b: &mut Battle, out: &mut Vec<Event>, id: &UnitId) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        let base = self.troop(&u)?.base;
        let size = self.scenario_base(b, &u).unwrap_or(base);
        // (Widened by a base recovered at the table's edge, it steps in off the edge.)
        let to = b
            .table
            .pull_in(&layout::rebuild(&u, size, u.formation, u.stands.len(), 0.0));
        if to != u.base {
            b.emit(
                out,
                Event::Reformed {
                    unit: id.clone(),
                    formation: u.formation,
                    from: u.base,
                    to,
                    cost: 0.0,
                },
            );
        }
        Ok(())
    }

    /// The base size the scenario gave this unit, if any.
    pub fn scenario_base(&self, b: &Battle, u: &Unit) -> Option<(f32, f32)> {
        b.scenario
            .units
            .iter()
            .find(|r| r.id == u.id.as_str())
            .and_then(|r| r.base)
    }

    /// Low ammunition and silenced guns recover at the end of a turn: low ammunition by not
    /// moving and not firing in its own turn; either by retiring outside 6" of every enemy
    /// (a move or retire this turn, after the fire that left it so, that took it farther from
    /// the enemy than it began the turn and ended more than 6" from every enemy).
    pub(super) fn end_of_turn(&self, b: &mut Battle, out: &mut Vec<Event>) {
        let side = b.active;
        let ammo_far = self.n(N::AmmoRecoverDistance);
        let gun_far = self.n(N::SilencedRecoverDistance);
        // Both sides: the other side's units may have retired too (evading, or retired by an
        // assault); only the moving side's units can miss their fire phase. Only a unit low on
        // ammunition or silenced has anything to recover.
        let units: Vec<Unit> = b
            .alive()
            .filter(|u| {
                !self.is_general(u)
                    && (u.status.ammo == crate::rules::model::Ammo::Low || own(u).silenced)
            })
            .cloned()
            .collect();
        for u in units {
            let far = self.nearest_enemy(b, &u);
            let still = u.side == side && !u.bound.moved && !u.bound.fired;
            let went_low = |e: &Event| matches!(e, Event::Supply { unit, ammo: crate::rules::model::Ammo::Low, .. } if *unit == u.id);
            let silenced = |e: &Event| matches!(e.own(), Some(BbbEvent::Silenced { unit, silenced: true, .. }) if *unit == u.id);
            if u.status.ammo == crate::rules::model::Ammo::Low {
                let retired = far > ammo_far && self.retired_since(b, &u, went_low);
                if retired || still {
                    b.emit(
                        out,
                        Event::Supply {
                            unit: u.id.clone(),
                            ammo: crate::rules::model::Ammo::Full,
                            packs: u.status.packs,
                            why: if retired {
                                "retired outside 6\" of every enemy".into()
                            } else {
                                "did not move and missed a fire phase".into()
                            },
                        },
                    );
                }
            }
            if own(&u).silenced && far > gun_far && self.retired_since(b, &u, silenced) {
                b.emit(
                    out,
                    BbbEvent::Silenced {
                        unit: u.id.clone(),
                        silenced: false,
                        why: "retired outside 6\" of every enemy".into(),
                    },
                );
            }
        }
    }

    /// Whether the unit moved or retired this turn after the last event that `made` it low or
    /// silenced (if that came this turn), and now stands farther from the enemy than it stood
    /// when the turn began: it retired.
    fn retired_since(&self, b: &Battle, u: &Unit, made: impl Fn(&Event) -> bool) -> bool {
        let mut moved = false;
        for e in b.log.iter().rev() {
            match e {
                Event::PhaseBegan {
                    phase: MOVEMENT, ..
                } => break,
                Event::Moved { unit, .. } | Event::Recoiled { unit, .. } if *unit == u.id => {
                    moved = true
                }
                e if made(e) => break,
                _ => {}
            }
        }
        if !moved {
            return false;
        }
        let start = match (u.bound.turn_start, u.bound.recoil) {
            (Some(s), _) => s,
            (None, Some((dir, mm))) => Base {
                centre: u.base.centre.minus(dir.scale(mm)),
                ..u.base
            },
            (None, None) => return false,
        };
        let began = Unit {
            base: start,
            ..u.clone()
        };
        self.nearest_enemy(b, u) > self.nearest_enemy(b, &began) + 1e-3
    }
}
