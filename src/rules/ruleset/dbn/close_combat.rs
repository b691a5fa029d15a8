//! Close combat: contact, who fights whom, flank attacks, support and attached generals, and the
//! close combat roll, the divisional commander's die included.

use super::results::PursuitOrders;
use super::{Combat, Dbn, DbnEvent, DbnGame, Follow, N, Setup, Supplement, TroopKind, TroopTrait};
use crate::rules::battle::Battle;
use crate::rules::command::{Effect, Event, Factor, RuleError, Score, Verdict};
use crate::rules::geometry::{Base, CONTACT_EPS, Contact, Edge, norm_deg};
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::common::own_active;
use crate::rules::ruleset::dbn::{CLOSE_COMBAT, Refusal};
use crate::rules::ruleset::view::Roll;

impl Dbn {
    /// Attacked first in flank or rear: an enemy whose front stands against the unit's flank
    /// or rear edge came there by its own move into contact (a charge, or a pursuit, in either
    /// side's bound), and the unit has fought no close combat in an earlier phase since. The
    /// penalty holds for every combat the unit fights in the first close combat phase after
    /// the attack, whoever's bound it is.
    pub fn attacked_first_in_flank(b: &Battle, u: &Unit) -> bool {
        b.alive()
            .filter(|x| x.side != u.side)
            .filter(|x| {
                u.base
                    .touched_by(&x.base)
                    .is_some_and(|c| c.edge != Edge::Front && c.own_edge == Edge::Front)
            })
            .any(|x| Self::flank_attack_fresh(b, &x.id, &u.id))
    }

    /// Whether `x`, against `u`'s flank or rear, came there by its own move into contact since
    /// either last stood elsewhere, with no close combat of `u` in an earlier phase since.
    fn flank_attack_fresh(b: &Battle, x: &UnitId, u: &UnitId) -> bool {
        let mut this_phase = true;
        for e in b.log.iter().rev() {
            if let Some(DbnEvent::CloseCombat {
                attacker, defender, ..
            }) = e.own()
                && !this_phase
                && (attacker == u || defender == u)
            {
                return false;
            }
            match e {
                Event::PhaseBegan { .. } => this_phase = false,
                Event::Moved { unit, contact, .. } if unit == x => return contact.is_some(),
                Event::Pursued { unit, .. } if unit == x => return true,
                Event::Moved { unit, .. }
                | Event::Pursued { unit, .. }
                | Event::Recoiled { unit, .. }
                | Event::Fled { unit, .. }
                | Event::Reformed { unit, .. }
                | Event::Deployed { unit, .. }
                    if unit == x || unit == u =>
                {
                    return false;
                }
                _ => {}
            }
        }
        false
    }

    /// Enemies in edge contact with this unit (either edge touching, by front).
    pub fn contacts(&self, b: &Battle, u: &Unit) -> Vec<(UnitId, Contact)> {
        b.alive()
            .filter(|e| front_contact(u, e))
            .map(|e| {
                (
                    e.id.clone(),
                    u.base.touched_by(&e.base).unwrap_or(Contact {
                        edge: Edge::Front,
                        own_edge: Edge::Front,
                        overlap: 0.0,
                    }),
                )
            })
            .collect()
    }

    pub fn in_close_combat(&self, b: &Battle, u: &Unit) -> bool {
        b.alive().any(|e| front_contact(u, e))
    }

    /// Combats the moving side has to fight: (own unit, enemy) pairs with a front edge in
    /// contact, combats to an enemy's front before those against its flank or rear.
    pub fn pending_combats(&self, b: &Battle) -> Vec<(UnitId, UnitId)> {
        let mut out = Vec::new();
        for u in b.alive().filter(|u| u.side == b.active && !u.bound.fought) {
            for (e, _) in self.contacts(b, u) {
                if b.unit(&e).is_ok_and(|e| !e.bound.fought) {
                    out.push((u.id.clone(), e));
                }
            }
        }
        out.sort_by_key(|(a, e)| {
            // Flank and rear attacks sort after front combats.
            b.unit(e)
                .ok()
                .zip(b.unit(a).ok())
                .and_then(|(e, a)| e.base.touched_by(&a.base))
                .is_some_and(|c| c.edge != Edge::Front)
        });
        out
    }

    /// Friends giving close combat support to `u` against `enemy`.
    pub fn combat_supporters(&self, b: &Battle, u: &Unit, enemy: &Unit) -> Vec<UnitId> {
        b.alive()
            // Foot supports foot and mounted supports mounted; guns, commanders and baggage
            // give no close combat support.
            .filter(|f| {
                f.side == u.side
                    && f.id != u.id
                    && self.kind(f) == self.kind(u)
                    && matches!(self.kind(f), TroopKind::Foot | TroopKind::Mounted)
            })
            .filter(|f| norm_deg(f.base.facing - u.base.facing).abs() < 1.0)
            .filter(|f| {
                u.base
                    .touched_by(&f.base)
                    .is_some_and(|c| c.edge != Edge::Front)
            })
            .filter(|f| self.contacts(b, f).iter().all(|(e, _)| e == &enemy.id))
            .map(|f| f.id.clone())
            .collect()
    }

    /// A commander in full edge contact with the unit's rear or flank.
    pub fn general_attached(&self, b: &Battle, u: &Unit) -> Option<UnitId> {
        b.alive()
            .filter(|g| g.side == u.side && self.is_commander(g) && g.id != u.id)
            // A divisional commander supports only its own troops.
            .filter(|g| {
                !self.has_trait(g, TroopTrait::Divisional)
                    || (g.division.is_some() && g.division == u.division)
            })
            .find(|g| {
                u.base.touched_by(&g.base).is_some_and(|c| {
                    c.edge != Edge::Front
                        && c.overlap
                            >= edge_len(&u.base, c.edge).min(edge_len(&g.base, c.own_edge))
                                - 2.0 * CONTACT_EPS
                })
            })
            .map(|g| g.id.clone())
    }
}

fn edge_len(b: &Base, e: Edge) -> f32 {
    if e.is_flank() { b.depth } else { b.width }
}

impl<S: Supplement> DbnGame<S> {
    /// The close combat factors of `u` (the supplement's).
    pub fn combat_factors(&self, b: &Battle, u: &Unit, e: &Unit, is_attacker: bool) -> Vec<Factor> {
        self.sup.combat_factors(self, b, u, e, is_attacker)
    }

    /// Whether the moving side's `a` is the attacker in its close combat with `e`: a unit
    /// holding ground (a garrison, a fortification) defends in every bound against one that
    /// does not; otherwise the moving side attacks.
    pub fn attacks(&self, b: &Battle, a: &Unit, e: &Unit) -> bool {
        let (ha, he) = (
            self.sup.holds_ground(self, b, a),
            self.sup.holds_ground(self, b, e),
        );
        !ha || he
    }

    /// Checks a close combat and works out both sides' factors, without rolling. `extra` is
    /// the pursuing cavalry's extra combat, fought out of turn.
    pub fn fight_setup(
        &self,
        b: &Battle,
        aid: &UnitId,
        did: &UnitId,
        extra: bool,
    ) -> Result<Setup, RuleError> {
        let d = &self.dbn;
        if b.phase != CLOSE_COMBAT {
            return Err(RuleError::WrongPhase {
                command: "fight".into(),
                phase: b.phase,
            });
        }
        let a = b.unit(aid)?.clone();
        let e = b.unit(did)?.clone();
        if !extra {
            own_active(b, &a)?;
        }
        if !d.contacts(b, &a).iter().any(|(x, _)| x == did) {
            return Err(RuleError::refused(
                Refusal::NotInCloseCombat,
                format!("{} is not in close combat with {}", a.name, e.name),
            ));
        }
        // A flank or rear attacker waits for the combat to the enemy's front.
        let on_flank = e
            .base
            .touched_by(&a.base)
            .is_some_and(|c| c.edge != Edge::Front);
        if !extra && on_flank {
            let front = b.alive().find(|x| {
                x.side == a.side
                    && e.base
                        .touched_by(&x.base)
                        .is_some_and(|c| c.edge == Edge::Front && c.own_edge == Edge::Front)
            });
            if let Some(f) = front
                && !f.bound.fought
                && !e.bound.fought
            {
                return Err(RuleError::refused(
                    Refusal::FrontCombatFirst,
                    format!(
                        "fight the combat to the front of {} first ({})",
                        e.name, f.name
                    ),
                ));
            }
        }
        if !extra && (a.bound.fought || e.bound.fought) {
            let who = if a.bound.fought { &a } else { &e };
            return Err(RuleError::AlreadyActed {
                unit: who.id.clone(),
                what: "fought".into(),
            });
        }
        let a_attacks = self.attacks(b, &a, &e);
        let af = self.combat_factors(b, &a, &e, a_attacks);
        let ef = self.combat_factors(b, &e, &a, !a_attacks);
        let first = self.first_dice(b, &a, &e, None);
        Ok(Setup {
            a,
            b: e,
            a_factors: af,
            b_factors: ef,
            mutual: false,
            first,
            responding: false,
            defence: Vec::new(),
        })
    }

    pub(super) fn fight(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        aid: &UnitId,
        did: &UnitId,
        orders: PursuitOrders<'_>,
        extra: bool,
    ) -> Result<(), RuleError> {
        let d = &self.dbn;
        if let Ok(e) = b.unit(did)
            && d.has_trait(e, TroopTrait::Divisional)
        {
            return self.fight_divisional(b, out, aid, did);
        }
        let mut setup = self.fight_setup(b, aid, did, extra)?;
        self.throw_first_dice(b, out, &mut setup)?;
        let qa = self.quirks_of(b, &setup, true, Combat::Close);
        let qb = self.quirks_of(b, &setup, false, Combat::Close);
        let Setup {
            a,
            b: e,
            a_factors: af,
            b_factors: ef,
            ..
        } = setup;
        let adie = b.d6()?;
        let edie = b.d6()?;
        let as_ = Score::new(aid, adie, af);
        let es = Score::new(did, edie, ef);
        let (a_won, verdict, stoic) = crate::rules::odds::decide(as_.total, es.total, qa, qb);
        let loser = a_won.map(|w| if w { e.clone() } else { a.clone() });
        let (ae, ee) = match &loser {
            None => (
                self.combat_effect(b, &a, &e, Verdict::Draw),
                self.combat_effect(b, &e, &a, Verdict::Draw),
            ),
            Some(l) if l.id == a.id => (self.combat_effect(b, &a, &e, verdict), Effect::NoEffect),
            Some(_) => (Effect::NoEffect, self.combat_effect(b, &e, &a, verdict)),
        };
        b.emit(
            out,
            DbnEvent::CloseCombat {
                attacker: aid.clone(),
                defender: did.clone(),
                attacker_score: as_,
                defender_score: es,
                loser: loser.as_ref().map(|l| l.id.clone()),
                verdict,
                stoic,
                attacker_effect: ae.clone(),
                defender_effect: ee.clone(),
            },
        );
        self.apply_effect(b, out, aid, &ae, did)?;
        self.apply_effect(b, out, did, &ee, aid)?;

        // Pursuit and breakthrough by the victor.
        let Some(l) = loser else { return Ok(()) };
        let winner = if l.id == a.id { e.clone() } else { a.clone() };
        let Ok(w) = b.unit(&winner.id).cloned() else {
            return Ok(());
        };
        let Ok(lnow) = b.unit(&l.id).cloned() else {
            return Ok(());
        };
        if !w.alive() {
            return Ok(());
        }
        // "All victorious units ... can immediately Pursue": each victor by its own owner's
        // choice.
        let wants = |f: Follow| match f {
            Follow::Never => false,
            Follow::May => orders.wants(&w),
            Follow::Must => true,
        };
        let follow = if lnow.alive() {
            let moved_back = lnow.base != l.base;
            moved_back && wants(self.sup.follow(self, &w, false))
        } else {
            wants(self.sup.follow(self, &w, true))
        };
        if !follow {
            return Ok(());
        }
        // A pursuit that would end where the victor may not stop (where the supplement says
        // so) is not made.
        if self.sup.pursuit_keeps_to_occupation()
            && d.follow_up_end(b, &w)
                .is_some_and(|(to, _)| self.sup.check_occupation(self, b, &w, &to).is_err())
        {
            return Ok(());
        }
        let recoiled = lnow.alive().then_some(&l.id);
        let hit = d.follow_up(b, out, &w.id, recoiled)?;
        if let Some(h) = hit {
            // Pursuing cavalry that makes contact fights once more at once, once per phase.
            if d.is_mounted(&w) && !extra {
                return self.fight(b, out, &w.id, &h, orders, true);
            }
        }
        Ok(())
    }

    /// A divisional commander attacked in close combat throws one die alone: low it flees,
    /// high it is destroyed; the attacker's factors do not count.
    fn fight_divisional(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        aid: &UnitId,
        did: &UnitId,
    ) -> Result<(), RuleError> {
        let d = &self.dbn;
        // The same checks as any close combat (phase, side, contact, order, fought); the
        // factors are not used.
        let Setup { a, b: g, .. } = self.fight_setup(b, aid, did, false)?;
        let Some(dsc) = d.divisional(&g) else {
            return Err(RuleError::refused(
                Refusal::NotADivisionalCommander,
                format!("{} is no divisional commander", g.name),
            ));
        };
        let die = b.d6()?;
        let flee_max = dsc.flee_max;
        let flees = die <= flee_max;
        b.emit(
            out,
            Event::Rolled {
                what: format!(
                    "{} attacked by {}: the divisional commander's die",
                    g.name, a.name
                )
                .into(),
                roll: Roll {
                    unit: Some(did.clone()),
                    side: Some(g.side),
                    dice: vec![die],
                    factors: Vec::new(),
                    total: die as i32,
                    against: None,
                    need: Some(i32::from(flee_max) + 1),
                    outcome: if flees {
                        format!("flees {:.0} {}", d.n(N::FleeDistance), b.scale.unit)
                    } else {
                        "destroyed".into()
                    },
                    first_die: None,
                    dice_at: Vec::new(),
                },
            },
        );
        let effect = if flees {
            Effect::Flee { hits: 0 }
        } else {
            Effect::Destroyed
        };
        self.apply_effect(b, out, did, &effect, aid)
    }
}

/// Whether an enemy `e` is in close combat with `u`: a front edge of either against the other.
fn front_contact(u: &Unit, e: &Unit) -> bool {
    let front = |a: &Unit, b: &Unit| {
        a.base
            .touched_by(&b.base)
            .is_some_and(|c| c.own_edge == Edge::Front)
    };
    e.side != u.side && (front(u, e) || front(e, u))
}
