//! Events applied to the battle, by kind: the only place where state changes.

use super::*;
use crate::rules::command::Event;
use crate::rules::geometry::Pt;
use crate::rules::model::{BoundState, Phase, Stand, Unit, UnitId};

impl Battle {
    /// The only place where state changes. The events that only record (the army broken, an
    /// undo, a roll) change nothing. A ruleset's own event changes what its ruleset says
    /// (`ruleset::common::RulesetEvent::apply`), handed this battle type-erased.
    pub fn apply(&mut self, e: &Event) {
        if let Event::Own(own) = e {
            own.apply_to(self);
            return;
        }
        let _changed = self.apply_move(e)
            || self.apply_stands(e)
            || self.apply_roll(e)
            || self.apply_turn(e)
            || self.apply_status(e)
            || self.apply_orders(e);
    }

    /// The turn: phases and the end. False for any other event.
    pub(super) fn apply_turn(&mut self, e: &Event) -> bool {
        match e {
            Event::PhaseBegan { turn, phase, side } => {
                let new_bound = *side != self.active || *turn != self.turn;
                self.turn = *turn;
                self.phase = *phase;
                self.active = *side;
                let stale = |u: &Unit| {
                    if new_bound {
                        u.bound != BoundState::default()
                    } else {
                        u.bound.recoiled
                    }
                };
                if self.units.iter().any(stale) {
                    for u in self.units_mut() {
                        if new_bound {
                            u.bound = BoundState::default();
                        } else {
                            u.bound.recoiled = false;
                        }
                    }
                }
                if new_bound {
                    self.command_points = [0, 0];
                    self.division_points.clear();
                }
            }
            Event::GameOver { .. } => self.phase = Phase::GAME_OVER,
            Event::ObjectiveHeld { objective, side } => {
                if let Some(h) = self.held.get_mut(*objective) {
                    *h = Some(*side);
                }
            }
            _ => return false,
        }
        true
    }

    /// A unit's standing state: limbered, hits, shaken, disordered, its ammunition. False for
    /// any other event.
    pub(super) fn apply_status(&mut self, e: &Event) -> bool {
        match e {
            Event::Limbered { unit } => self.with_unit(unit, |u| {
                u.status.limbered = true;
                u.bound.limber_changed = true;
            }),
            Event::Unlimbered { unit } => self.with_unit(unit, |u| {
                u.status.limbered = false;
                u.bound.limber_changed = true;
            }),
            Event::Hit { unit, total, .. } => self.with_unit(unit, |u| u.status.hits = *total),
            Event::Shaken { unit } => self.with_unit(unit, |u| u.status.shaken = true),
            Event::Destroyed { unit, .. } => self.with_unit(unit, |u| u.status.removed = true),
            Event::Exited { unit, .. } => self.with_unit(unit, |u| {
                u.status.removed = true;
                u.status.exited = true;
            }),
            Event::Disordered { unit, .. } => self.with_unit(unit, |u| u.status.disordered = true),
            Event::Steadied { unit } => self.with_unit(unit, |u| u.status.disordered = false),
            Event::Rallied { unit } => self.with_unit(unit, |u| u.status.shaken = false),
            Event::Supply {
                unit, ammo, packs, ..
            } => self.with_unit(unit, |u| {
                u.status.ammo = *ammo;
                u.status.packs = *packs;
            }),
            _ => return false,
        }
        true
    }

    /// What a unit did this bound (ordered, fought, halted) and a general's chips after a
    /// re-roll. False for any other event.
    pub(super) fn apply_orders(&mut self, e: &Event) -> bool {
        match e {
            Event::Ordered {
                unit,
                allowance,
                recover,
                ..
            } => self.with_unit(unit, |u| {
                u.bound.allowance = Some(*allowance);
                u.bound.may_recover = *recover;
            }),
            Event::Assault {
                attacker, defender, ..
            } => {
                for id in [attacker, defender] {
                    self.with_unit(id, |u| u.bound.fought = true);
                }
            }
            Event::Halted { unit, .. } => self.with_unit(unit, |u| u.bound.halted = true),
            Event::Rerolled { by, chips, .. } => self.with_unit(by, |g| g.extra.chips = *chips),
            _ => return false,
        }
        true
    }

    /// Moves, deployment, recoils, flight and pursuit; false for any other event.
    pub(super) fn apply_move(&mut self, e: &Event) -> bool {
        match e {
            Event::Moved {
                unit,
                to,
                contact,
                from,
                distance,
                ..
            } => self.with_unit(unit, |u| {
                u.base = *to;
                u.status.continuing = false;
                u.bound.moved = true;
                u.bound.spent += *distance;
                if u.bound.turn_start.is_none() {
                    u.bound.turn_start = Some(*from);
                }
                if contact.is_some() {
                    u.bound.charged = true;
                }
            }),
            Event::Deployed { unit, to } => self.with_unit(unit, |u| {
                u.base = *to;
                u.status.undeployed = false;
                // A general who fell returns (BBB).
                u.status.removed = false;
            }),
            Event::Recoiled {
                unit,
                to,
                from,
                voluntary,
            } => self.with_unit(unit, |u| {
                u.base = *to;
                u.bound.recoiled = true;
                if *voluntary {
                    u.bound.fell_back = true;
                    return;
                }
                let d = to.centre.minus(from.centre);
                let (dir, total) = u.bound.recoil.unwrap_or((Pt::new(0.0, 0.0), 0.0));
                let dir = if d.len() > 1e-3 {
                    d.scale(1.0 / d.len())
                } else {
                    dir
                };
                u.bound.recoil = Some((dir, total + d.len()));
            }),
            Event::Fled { unit, to, .. } => self.with_unit(unit, |u| u.base = *to),
            Event::PursuitOrdered { unit, pursue } => {
                self.with_unit(unit, |u| u.status.hold_ground = !*pursue)
            }
            Event::Pursued {
                unit,
                to,
                continuing,
                ..
            } => {
                self.with_unit(unit, |u| {
                    u.base = *to;
                    u.bound.pursuing = true;
                });
                if let Some(c) = continuing {
                    let by = unit.clone();
                    self.with_unit(c, |u| {
                        u.status.continuing = true;
                        u.status.pursued_by = Some(by);
                    });
                }
            }
            _ => return false,
        }
        true
    }

    /// Skirmish stands overrun; false for any other event.
    pub(super) fn apply_stands(&mut self, e: &Event) -> bool {
        match e {
            Event::StandsOverrun { unit, stands, .. } => self.with_unit(unit, |u| {
                let bases = u.loose_bases();
                let mut keep_stands = Vec::new();
                let mut keep_bases = Vec::new();
                for (i, (st, b)) in u.stands.iter().zip(bases).enumerate() {
                    if stands.contains(&i) {
                        u.status.hits += st.figures;
                    } else {
                        keep_stands.push(st.clone());
                        keep_bases.push(b);
                    }
                }
                u.stands = keep_stands;
                if u.stands.is_empty() {
                    u.status.removed = true;
                } else {
                    u.settle(&keep_bases);
                }
            }),
            _ => return false,
        }
        true
    }

    /// The results of rolls: volleys, losses, re-formed ranks; false for any other event.
    pub(super) fn apply_roll(&mut self, e: &Event) -> bool {
        match e {
            Event::Volley {
                shooter,
                target,
                hits,
                ..
            } => {
                self.with_unit(shooter, |u| u.bound.fired = true);
                let (shooter, hits) = (shooter.clone(), *hits);
                self.with_unit(target, |u| {
                    if let Some(e) = u.bound.shot_by.iter_mut().find(|e| e.0 == shooter) {
                        e.1 += hits;
                    } else {
                        u.bound.shot_by.push((shooter, hits));
                    }
                });
            }
            Event::Losses {
                unit,
                figures,
                stands,
                ..
            } => self.with_unit(unit, |u| {
                u.status.hits += *figures;
                let loose = u.is_loose().then(|| u.loose_bases());
                let old = std::mem::take(&mut u.stands);
                u.stands = stands
                    .iter()
                    .enumerate()
                    .map(|(i, &f)| Stand {
                        figures: f,
                        at: old.get(i).and_then(|s| s.at),
                    })
                    .collect();
                if let Some(mut bases) = loose {
                    bases.truncate(u.stands.len());
                    u.settle(&bases);
                }
            }),
            Event::Reformed {
                unit,
                formation,
                to,
                cost,
                ..
            } => self.with_unit(unit, |u| {
                // A new formation or facing gathers the stands that moved loose into their places
                // in it (closing up after losses leaves them where they stand).
                if u.formation != *formation || u.base.facing != to.facing {
                    for s in &mut u.stands {
                        s.at = None;
                    }
                }
                u.formation = *formation;
                u.base = *to;
                if *cost > 0.0 {
                    u.bound.formed = true;
                    u.bound.spent += *cost;
                }
            }),
            _ => return false,
        }
        true
    }

    /// Changes the unit with this id, if there is one (an event naming no unit changes nothing).
    pub fn with_unit(&mut self, id: &UnitId, f: impl FnOnce(&mut Unit)) {
        if let Some(i) = self.index_of(id) {
            f(&mut self.units_mut()[i]);
        }
    }
}
