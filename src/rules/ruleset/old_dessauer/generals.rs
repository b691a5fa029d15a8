//! Generals (optional): attaching, command radius and the command test, leadership, danger to
//! an attached general; and what a unit carries with it (its general and regimental guns).

use super::{DessauerEvent, Kind, N, OldDessauer, Opt, TestKind};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, RuleError};
use crate::rules::geometry::{Base, CONTACT_EPS, Pt, norm_deg, norm_facing};
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::common::own_active;
use crate::rules::ruleset::old_dessauer::{MOVEMENT, Refusal};

impl OldDessauer {
    /// The general attached to a unit, if any.
    pub fn attached_general<'a>(&self, b: &'a Battle, u: &Unit) -> Option<&'a Unit> {
        if !self.opt(Opt::Generals) {
            return None;
        }
        b.alive()
            .find(|g| g.side == u.side && g.extra.attached.as_ref() == Some(&u.id))
    }

    /// Within a friendly general's command radius (always, without the generals rule or radii).
    pub fn in_command(&self, b: &Battle, u: &Unit) -> bool {
        if !self.opt(Opt::Generals) || self.kind(u) == Kind::General {
            return true;
        }
        let generals: Vec<&Unit> = b
            .alive()
            .filter(|g| {
                g.side == u.side && self.kind(g) == Kind::General && g.extra.command_radius > 0.0
            })
            .collect();
        if generals.is_empty() {
            return true;
        }
        generals.iter().any(|g| {
            g.extra.attached.as_ref() == Some(&u.id)
                || u.base.distance_to_point(g.base.centre)
                    <= b.scale.to_mm(g.extra.command_radius) + 0.01
        })
    }

    /// Needs a 4-6 when out of command; emits the test. Returns false when the unit halts.
    pub(super) fn command_test(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        u: &Unit,
    ) -> Result<bool, RuleError> {
        if self.in_command(b, u) {
            return Ok(true);
        }
        let die = b.d6()?;
        let need = self.int(N::CommandNeed);
        let passed = die as i32 >= need;
        b.emit(
            out,
            DessauerEvent::Test {
                unit: u.id.clone(),
                test: TestKind::Command,
                die,
                factors: vec![],
                need,
                passed,
            },
        );
        Ok(passed)
    }

    /// Danger to a general attached to a unit that took `hits` in one shooting or combat.
    pub(super) fn general_danger(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        hits: u32,
    ) -> Result<(), RuleError> {
        if hits < self.num(N::GeneralDangerHits) as u32 {
            return Ok(());
        }
        let u = b.unit(id)?.clone();
        let Some(g) = self.attached_general(b, &u).map(|g| g.id.clone()) else {
            return Ok(());
        };
        let die = b.d6()?;
        let killed = die as i32 <= self.int(N::GeneralDangerNeed);
        b.emit(
            out,
            DessauerEvent::Test {
                unit: g.clone(),
                test: TestKind::GeneralDanger,
                die,
                factors: vec![],
                need: self.int(N::GeneralDangerNeed) + 1,
                passed: !killed,
            },
        );
        if killed {
            b.emit(
                out,
                Event::Destroyed {
                    unit: g,
                    reason: format!("killed at the head of {}", u.name),
                },
            );
        }
        Ok(())
    }

    /// An attached general's leadership as a factor.
    pub fn leadership(&self, b: &Battle, u: &Unit) -> Vec<Factor> {
        match self.attached_general(b, u) {
            Some(g) if g.extra.leadership != 0 => vec![Factor {
                name: format!("{} attached", g.name),
                value: g.extra.leadership,
                source: "003 Optional Rules: Generals, leadership".into(),
            }],
            _ => vec![],
        }
    }

    pub(super) fn attach(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        general: &UnitId,
        unit: Option<&UnitId>,
    ) -> Result<(), RuleError> {
        if !self.opt(Opt::Generals) {
            return Err(RuleError::refused(
                Refusal::GeneralsNotInUse,
                "generals are an optional rule not in use in this battle".into(),
            ));
        }
        if b.phase != MOVEMENT {
            return Err(RuleError::WrongPhase {
                command: "attach or detach a general".into(),
                phase: b.phase,
            });
        }
        let g = b.unit(general)?.clone();
        own_active(b, &g)?;
        if self.kind(&g) != Kind::General {
            return Err(RuleError::refused(
                Refusal::NotAGeneral,
                format!("{} is not a general", g.name),
            ));
        }
        let Some(uid) = unit else {
            if g.extra.attached.is_none() {
                return Err(RuleError::refused(
                    Refusal::NotAttached,
                    format!("{} is not attached", g.name),
                ));
            }
            b.emit(
                out,
                DessauerEvent::Attached {
                    general: general.clone(),
                    unit: None,
                },
            );
            return Ok(());
        };
        let u = b.unit(uid)?.clone();
        if u.side != g.side || !u.alive() || !self.is_fighting_unit(&u) {
            return Err(RuleError::refused(
                Refusal::AttachOnlyToFriend,
                format!(
                    "{} can only attach to a friendly regiment or battery",
                    g.name
                ),
            ));
        }
        if let Some(other) = b
            .alive()
            .find(|o| o.id != g.id && o.extra.attached.as_ref() == Some(uid))
        {
            return Err(RuleError::refused(
                Refusal::AlreadyHasGeneral,
                format!("{} already has {} attached", u.name, other.name),
            ));
        }
        // Behind the unit's rear, or as near it as the table's edge allows.
        let to = b.table.pull_in(&general_spot(&u, &g));
        let dist = b.scale.from_mm(g.base.centre.dist(to.centre));
        let left = self.allowance(&g) - g.bound.spent;
        if dist > left + 0.01 {
            return Err(RuleError::TooFar {
                unit: g.id.clone(),
                name: g.name.clone(),
                distance: dist,
                allowance: left,
                units: "inches".into(),
                why: "what is left of the general's move".into(),
            });
        }
        b.emit(
            out,
            Event::Moved {
                unit: g.id.clone(),
                from: g.base,
                to,
                distance: dist,
                allowance: self.allowance(&g),
                going: "good going, to attach".into(),
                contact: None,
                manoeuvre: None,
            },
        );
        b.emit(
            out,
            DessauerEvent::Attached {
                general: general.clone(),
                unit: Some(uid.clone()),
            },
        );
        Ok(())
    }
}

/// Units carried with a unit: its attached general and regimental guns.
pub(super) fn carried(b: &Battle, id: &UnitId) -> Vec<UnitId> {
    b.alive()
        .filter(|c| c.extra.attached.as_ref() == Some(id) || c.extra.parent.as_ref() == Some(id))
        .map(|c| c.id.clone())
        .collect()
}

/// Moves what a unit carries rigidly with it from `from` to `to`.
pub fn carry(b: &mut Battle, out: &mut Vec<Event>, id: &UnitId, from: &Base, to: &Base) {
    for cid in carried(b, id) {
        let Ok(c) = b.unit(&cid).map(|c| c.base) else {
            continue;
        };
        let rel = c.centre.minus(from.centre);
        let (x, y) = (rel.dot(from.right()), rel.dot(from.forward()));
        // An attached general or a regimental gun stays on the table where the unit's turn
        // would carry it over the edge.
        let mut moved = Base {
            centre: to.local(x, y),
            facing: norm_facing(c.facing + norm_deg(to.facing - from.facing)),
            ..c
        };
        // A regimental gun always touches its parent: one left off it by a new formation's
        // footprint closes up to the parent's nearest stand, on the same side of it.
        if b.unit(&cid)
            .is_ok_and(|g| g.extra.parent.as_ref() == Some(id))
            && let Ok(p) = b.unit(id)
        {
            let shapes = p.shapes();
            let gap = |g: &Base, s: &Base| g.distance(s);
            let on = shapes.iter().find(|s| moved.overlaps(s));
            if (on.is_some() || !shapes.iter().any(|s| gap(&moved, s) <= CONTACT_EPS))
                && let Some(s) = on.or_else(|| {
                    shapes
                        .iter()
                        .min_by(|a, c| gap(&moved, a).total_cmp(&gap(&moved, c)))
                })
            {
                moved.centre = touching_spot(&moved, s);
            }
        }
        let moved = b.table.pull_in(&moved);
        b.emit(
            out,
            Event::Moved {
                unit: cid,
                from: c,
                to: moved,
                distance: 0.0,
                allowance: 0.0,
                going: "with its regiment".into(),
                contact: None,
                manoeuvre: None,
            },
        );
    }
}

/// Where `g`'s centre goes to touch `s` from the side of `s` it stands on, moved straight
/// in (or out, where it overlaps): across the nearest edge, kept within that edge's length.
fn touching_spot(g: &Base, s: &Base) -> Pt {
    let (r, f) = (s.right(), s.forward());
    // The half extents of `g` along the frame of `s`.
    let (mut gx, mut gy) = (0.0f32, 0.0f32);
    for c in g.corners() {
        let d = c.minus(g.centre);
        gx = gx.max(d.dot(r).abs());
        gy = gy.max(d.dot(f).abs());
    }
    let d = g.centre.minus(s.centre);
    let (mut x, mut y) = (d.dot(r), d.dot(f));
    let (w, h) = (s.width / 2.0, s.depth / 2.0);
    // Out beyond which edge, in proportion to the room on that side.
    let out_x = (x.abs() - w) / (w + gx).max(1e-3);
    let out_y = (y.abs() - h) / (h + gy).max(1e-3);
    if out_x >= out_y {
        x = x.signum() * (w + gx);
        y = y.clamp(-h, h);
    } else {
        y = y.signum() * (h + gy);
        x = x.clamp(-w, w);
    }
    s.local(x, y)
}

/// Where an attached general stands: behind the centre of the unit's rear.
pub fn general_spot(u: &Unit, g: &Unit) -> Base {
    Base {
        centre: u
            .base
            .local(0.0, -(u.base.depth / 2.0 + g.base.depth / 2.0)),
        facing: u.base.facing,
        ..g.base
    }
}
