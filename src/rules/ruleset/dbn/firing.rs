//! Distant shooting: who may fire at whom (range, arc, line of sight), fire support, and the
//! firing roll and its result.

use super::rolls::first_die_failed_this_phase;
use super::{Combat, Dbn, DbnEvent, DbnGame, FireRole, N, Setup, Supplement, TroopTrait};
use crate::rules::battle::Battle;
use crate::rules::command::{Effect, Event, Factor, RuleError, Score, Verdict};
use crate::rules::geometry::{Base, CONTACT_EPS, Edge, Pt, segment_hits_base};
use crate::rules::model::{Ammo, Unit, UnitId};
use crate::rules::ruleset::common::own_active;
use crate::rules::ruleset::dbn::{FIRING, LongRange, Refusal};
use crate::rules::tagged::Tagged;
use crate::rules::terrain::{Feature, FeatureKind};

/// What a line of sight is judged by: the higher of the two units' levels, how far one sees
/// into woods and the clearance a line needs past a base (mm).
struct Sight {
    level: u8,
    woods: f32,
    clearance: f32,
}

impl Dbn {
    /// Why `shooter` cannot fire at `target`, or Ok with the range in ruleset units.
    pub fn fire_check(
        &self,
        b: &Battle,
        shooter: &Unit,
        target: &Unit,
        for_support: bool,
    ) -> Result<f32, Tagged> {
        let range = self.may_fire_at(b, shooter, target, for_support)?;
        self.within_range(b, shooter, target, range)
    }

    /// Whether `shooter` stands near enough `target` that any fire of its might reach it: a
    /// cheap test (the bounding circles against its longest range) that `fire_check` can pass
    /// only where it holds, so that a search of many possible firers skips the far ones.
    pub fn may_reach(&self, b: &Battle, shooter: &Unit, target: &Unit) -> bool {
        let Some(range) = self.range(shooter) else {
            return false;
        };
        let longest = self.long_range(shooter).map_or(range, |l| l.max(range));
        // `within_range`'s tolerance, half a unit, and a little more for rounding.
        shooter
            .base
            .near(&target.base, b.scale.to_mm(longest + 1.0))
    }

    /// Why `shooter` may not fire at `target` wherever it stands (its troop type, the table,
    /// sides, ammunition, limbers, close combat, bad going, arc), or Ok with its effective range.
    fn may_fire_at(
        &self,
        b: &Battle,
        shooter: &Unit,
        target: &Unit,
        for_support: bool,
    ) -> Result<f32, Tagged> {
        let t = self.troop_of(shooter);
        let Some(range) = self.range(shooter) else {
            return Err(Tagged::new(
                Refusal::CannotFire,
                format!("{} cannot fire", t.name),
            ));
        };
        if !shooter.alive() || !target.alive() {
            return Err(Tagged::new(
                Refusal::NotOnTable,
                "not on the table".to_string(),
            ));
        }
        if shooter.side == target.side {
            return Err(Tagged::new(
                Refusal::TargetIsAFriend,
                format!("{} is a friend", target.name),
            ));
        }
        if !for_support && shooter.bound.fired {
            return Err(Tagged::new(
                Refusal::AlreadyFired,
                format!("{} has already fired", shooter.name),
            ));
        }
        if shooter.status.ammo == Ammo::Out {
            return Err(Tagged::new(
                Refusal::OutOfAmmunition,
                format!("{} is out of ammunition", shooter.name),
            ));
        }
        if self.has_trait(target, TroopTrait::Divisional) {
            return Err(Tagged::new(
                Refusal::DivisionalNotFiredAt,
                format!(
                    "{} is a divisional commander: attacked only in close combat",
                    target.name
                ),
            ));
        }
        if self.is_artillery(shooter) && shooter.status.limbered {
            return Err(Tagged::new(
                Refusal::Limbered,
                format!("{} is limbered", shooter.name),
            ));
        }
        if self.is_artillery(shooter) && !self.has_trait(shooter, TroopTrait::MoveAndFire) {
            let ga_like = self.has_trait(shooter, TroopTrait::QuickLimber);
            if shooter.bound.limber_changed && !ga_like {
                return Err(Tagged::new(
                    Refusal::LimberedThisBound,
                    format!("{} limbered or unlimbered this bound", shooter.name),
                ));
            }
            if shooter.bound.moved {
                return Err(Tagged::new(
                    Refusal::MovedArtilleryMayNotFire,
                    format!(
                        "{} moved this bound: artillery may move or fire",
                        shooter.name
                    ),
                ));
            }
        }
        if self.in_close_combat(b, shooter) {
            return Err(Tagged::new(
                Refusal::InCloseCombat,
                format!("{} is in close combat", shooter.name),
            ));
        }
        if self.in_close_combat(b, target) {
            return Err(Tagged::new(
                Refusal::TargetInCloseCombat,
                format!("{} is in close combat", target.name),
            ));
        }
        if !self.on_bg_edge(b, shooter) {
            return Err(Tagged::new(
                Refusal::InsideBadGoing,
                format!("{} is inside bad going, not on its edge", shooter.name),
            ));
        }
        if !shooter.base.in_arc(&target.base, self.n(N::ArcHalfAngle)) {
            return Err(Tagged::new(
                Refusal::OutOfArc,
                format!("{} is out of arc", target.name),
            ));
        }
        Ok(range)
    }

    /// Whether `target` is within `range` (or long range) and in sight of `shooter`, with the
    /// distance in ruleset units.
    fn within_range(
        &self,
        b: &Battle,
        shooter: &Unit,
        target: &Unit,
        range: f32,
    ) -> Result<f32, Tagged> {
        let dist = b
            .scale
            .from_mm(shooter.base.front_edge_distance(&target.base));
        let mut limit = range;
        // Long range: from raised ground, stationary, at a target in the open.
        if let Some(long) = self.long_range(shooter)
            && dist > range + 0.5
        {
            let why = if !self.on_raised_ground(b, shooter) {
                Some((LongRange::NotOnRaisedGround, "not on raised ground"))
            } else if shooter.bound.moved {
                Some((LongRange::Moved, "it moved this bound"))
            } else if !self.in_open(b, target) {
                Some((LongRange::TargetNotInOpen, "the target is not in the open"))
            } else {
                None
            };
            match why {
                None => limit = long,
                Some((why, w)) if dist <= long + 0.5 => {
                    return Err(Tagged::new(
                        Refusal::BeyondEffectiveRange(why),
                        format!(
                            "{} is beyond effective range ({:.0} of {range:.0} {}) and long range needs raised ground, a stationary firer and a target in the open: {w}",
                            target.name, dist, b.scale.unit
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
        // "The maximum visibility for Firing into and within" the ground is limited: a target
        // in it. A firer in it fires out from its edge (`on_bg_edge`) at the full range; firing
        // within it, the target is in it too. With `visibility_all_bad_going` the ground is
        // all bad going that hides troops (woods, marsh, rough), otherwise woods alone.
        let all_bg = self.extras.all_bad_going_hides;
        let blinding: Vec<FeatureKind> = if all_bg {
            vec![FeatureKind::Woods, FeatureKind::Marsh, FeatureKind::Rough]
        } else {
            vec![FeatureKind::Woods]
        };
        // The ground that limits the sight, named in a refusal it causes.
        let mut hidden_by = None;
        if let Some(f) = b.terrain.touching(&target.base, &blinding).next() {
            let seen = self.n(N::WoodsVisibility);
            if seen < limit {
                limit = seen;
                hidden_by = Some(if f.name.is_empty() {
                    f.kind.name().to_string()
                } else {
                    f.name.clone()
                });
            }
        }
        if dist > limit + 0.5 {
            let why = match hidden_by {
                Some(ground) => format!(
                    " (in {ground} it can be seen only within {limit:.0} {})",
                    b.scale.unit
                ),
                None => String::new(),
            };
            return Err(Tagged::new(
                Refusal::OutOfRange,
                format!(
                    "{} is out of range: {:.0} {} of {:.0}{why}",
                    target.name, dist, b.scale.unit, limit
                ),
            ));
        }
        self.line_of_sight(b, shooter, target)
            .map_err(|why| Tagged::new(Refusal::NoLineOfSight, why))?;
        Ok(dist)
    }

    /// A unit in bad going fires only from its edge.
    fn on_bg_edge(&self, b: &Battle, u: &Unit) -> bool {
        if !self.in_bad_going(b, u) {
            return true;
        }
        let probe = u.base.depth * self.n(N::FireEdgeDepth);
        u.base.edge_points(Edge::Front, 3).iter().any(|p| {
            let q = p.plus(u.base.forward().scale(probe));
            !self.bad_going_point(b, u, q)
        })
    }

    /// Line of sight by lines from the shooter's front edge to the target's nearest edge.
    /// Err names what blocks.
    pub fn line_of_sight(&self, b: &Battle, from: &Unit, to: &Unit) -> Result<(), String> {
        let src = from.base.edge_points(Edge::Front, 3);
        let dst = to
            .base
            .edge_points(to.base.edge_facing(from.base.centre), 3);
        let s_level = b.terrain.level_at(from.base.centre);
        let t_level = b.terrain.level_at(to.base.centre);
        let sight = Sight {
            level: s_level.max(t_level),
            woods: b.scale.to_mm(self.n(N::WoodsVisibility)),
            clearance: b.scale.to_mm(self.n(N::LosClearance)),
        };
        // What can stand on any of the lines: the units (of the sides the options say block)
        // and features that reach the box around both edges; each line tries only these.
        let ends: Vec<Pt> = src.iter().chain(dst.iter()).copied().collect();
        let lo = ends.iter().fold(Pt::new(f32::MAX, f32::MAX), |m, p| {
            Pt::new(m.x.min(p.x), m.y.min(p.y))
        });
        let hi = ends.iter().fold(Pt::new(f32::MIN, f32::MIN), |m, p| {
            Pt::new(m.x.max(p.x), m.y.max(p.y))
        });
        let friends_block = self.n(N::LosFriendsBlock) > 0.0;
        let enemies_block = self.n(N::LosEnemiesBlock) > 0.0;
        // A base grown by the clearance on every side reaches past its own box by at most
        // the clearance times the square root of two.
        let margin = sight.clearance * std::f32::consts::SQRT_2 + CONTACT_EPS;
        let units: Vec<&Unit> = b
            .units_near(
                Pt::new(lo.x - margin, lo.y - margin),
                Pt::new(hi.x + margin, hi.y + margin),
            )
            .into_iter()
            .filter(|u| u.alive() && u.id != from.id && u.id != to.id)
            .filter(|u| {
                if u.side == from.side {
                    friends_block
                } else {
                    enemies_block
                }
            })
            .collect();
        let features: Vec<&Feature> = b
            .terrain
            .features
            .iter()
            .filter(|f| {
                matches!(
                    f.kind,
                    FeatureKind::Town
                        | FeatureKind::Village
                        | FeatureKind::Hill
                        | FeatureKind::Woods
                ) && f.may_cross(lo, hi)
            })
            .collect();
        let mut first_block = String::new();
        for a in &src {
            for c in &dst {
                match self.line_blocker(from, to, (*a, *c), &units, &features, &sight) {
                    None => return Ok(()),
                    Some(w) if first_block.is_empty() => first_block = w,
                    Some(_) => {}
                }
            }
        }
        Err(format!(
            "no line of sight to {}: blocked by {}",
            to.name, first_block
        ))
    }

    /// What blocks the line from `a` to `c`, among the units and features that may.
    fn line_blocker(
        &self,
        from: &Unit,
        to: &Unit,
        (a, c): (Pt, Pt),
        units: &[&Unit],
        features: &[&Feature],
        sight: &Sight,
    ) -> Option<String> {
        // Trim the ends so that units touching the firer or target at a corner do not block
        // lines that start there; a line grazing a base's edge is blocked.
        let len = a.dist(c);
        let trim = CONTACT_EPS.min(len / 4.0);
        let (ta, tc) = if len > 0.0 {
            (a.lerp(c, trim / len), c.lerp(a, trim / len))
        } else {
            (a, c)
        };
        let clearance = sight.clearance;
        for u in units {
            // Cheap rejection first: the line passes outside the base's circumscribed circle.
            let radius = u.base.radius() + clearance + CONTACT_EPS;
            if crate::rules::geometry::point_segment_distance(u.base.centre, ta, tc) > radius {
                continue;
            }
            let hit = if clearance > 0.0 {
                let grown = Base {
                    width: u.base.width + 2.0 * clearance,
                    depth: u.base.depth + 2.0 * clearance,
                    ..u.base
                };
                segment_hits_base(ta, tc, &grown)
            } else {
                segment_hits_base(ta, tc, &u.base)
            };
            if hit {
                return Some(u.name.clone());
            }
        }
        for f in features {
            if !f.may_cross(a, c) {
                continue;
            }
            match f.kind {
                FeatureKind::Town | FeatureKind::Village => {
                    if f.contains(from.base.centre) || f.contains(to.base.centre) {
                        continue;
                    }
                    if f.inside_length(a, c) > 1.0 {
                        return Some(f.name.clone());
                    }
                }
                FeatureKind::Hill if f.level > sight.level && f.inside_length(a, c) > 0.5 => {
                    return Some(f.name.clone());
                }
                FeatureKind::Woods if f.inside_length(a, c) > sight.woods => {
                    return Some(f.name.clone());
                }
                _ => {}
            }
        }
        None
    }
}

impl<S: Supplement> DbnGame<S> {
    /// The firing factors of `u` (the supplement's).
    pub fn fire_factors(
        &self,
        b: &Battle,
        u: &Unit,
        other: &Unit,
        role: FireRole,
        enemy_supporters: usize,
    ) -> Vec<Factor> {
        self.sup
            .fire_factors(self, b, u, other, role, enemy_supporters)
    }

    /// Each "enemy unit providing fire support" factor names its unit, in the order given.
    fn name_supporters(&self, b: &Battle, fs: &mut [Factor], supporters: &[UnitId]) {
        let generic = self.dbn.fire_support();
        let mut names = supporters
            .iter()
            .filter_map(|id| b.unit(id).ok().map(|u| u.name.clone()));
        for f in fs.iter_mut().filter(|f| f.name == generic.name) {
            if let Some(n) = names.next() {
                f.name = format!("{} ({n})", generic.name);
            }
        }
    }

    /// Whether `friend` may give `shooter` fire support against `target`.
    pub fn may_support(
        &self,
        b: &Battle,
        shooter: &Unit,
        friend: &Unit,
        target: &Unit,
    ) -> Result<(), RuleError> {
        let d = &self.dbn;
        if first_die_failed_this_phase(b, &friend.id) {
            return Err(RuleError::refused(
                Refusal::SupportFailedFirstDie,
                format!(
                    "{} failed its first die this phase and cannot support fire",
                    friend.name
                ),
            ));
        }
        // A type that throws a first die (the mitrailleuse) is no gun for support: the
        // supplement's note gives it fire support, lost only by a failed first die.
        let gun = |u: &Unit| d.is_artillery(u) && !d.has_trait(u, TroopTrait::FirstDie);
        if gun(friend) && gun(shooter) {
            return Err(RuleError::refused(
                Refusal::ArtilleryCannotSupportArtillery,
                "artillery cannot support artillery in firing".into(),
            ));
        }
        d.fire_check(b, friend, target, true)
            .map(|_| ())
            .map_err(|e| {
                RuleError::refused(
                    Refusal::CannotSupport,
                    format!("{} cannot support: {e}", friend.name),
                )
            })
    }

    /// Friends of `target` that could support it against `shooter` (each gives the shooter
    /// -1 when the defender chooses it): those able to fire at the shooter, no gun supporting
    /// a gun.
    pub(super) fn defensive_support(
        &self,
        b: &Battle,
        shooter: &Unit,
        target: &Unit,
    ) -> Vec<UnitId> {
        b.alive()
            .filter(|f| f.side == target.side && f.id != target.id)
            .filter(|f| self.dbn.may_reach(b, f, shooter))
            .filter(|f| self.may_support(b, target, f, shooter).is_ok())
            .map(|f| f.id.clone())
            .collect()
    }

    /// The defence a target has where its side has not chosen one: every friend able to
    /// support it, but those the supplement spares (a gun's last round).
    pub(super) fn default_defence(&self, b: &Battle, shooter: &Unit, target: &Unit) -> Vec<UnitId> {
        let mut eligible = self.defensive_support(b, shooter, target);
        eligible.retain(|f| {
            b.unit(f)
                .is_ok_and(|u| !self.sup.spares_from_defence(self, u))
        });
        eligible
    }

    /// Checks a firing and works out both sides' factors, without rolling.
    pub fn fire_setup(
        &self,
        b: &Battle,
        sid: &UnitId,
        tid: &UnitId,
        support: &[UnitId],
        defence: Option<&[UnitId]>,
    ) -> Result<Setup, RuleError> {
        let d = &self.dbn;
        if b.phase != FIRING {
            return Err(RuleError::WrongPhase {
                command: "fire".into(),
                phase: b.phase,
            });
        }
        let shooter = b.unit(sid)?.clone();
        let target = b.unit(tid)?.clone();
        own_active(b, &shooter)?;
        d.fire_check(b, &shooter, &target, false)
            .map_err(RuleError::Illegal)?;
        let mut seen = vec![sid.clone()];
        for s in support {
            let su = b.unit(s)?;
            own_active(b, su)?;
            if seen.contains(s) {
                return Err(RuleError::refused(
                    Refusal::NamedTwice,
                    format!("{} is named twice", su.name),
                ));
            }
            seen.push(s.clone());
            if su.bound.fired {
                return Err(RuleError::AlreadyActed {
                    unit: s.clone(),
                    what: "fired".into(),
                });
            }
            self.may_support(b, &shooter, su, &target)?;
        }
        let responding = d.fire_check(b, &target, &shooter, true).is_ok();
        let mutual = responding && d.is_artillery(&shooter) && d.is_artillery(&target);
        let eligible = self.defensive_support(b, &shooter, &target);
        let def_support = match defence {
            None => self.default_defence(b, &shooter, &target),
            Some(list) => {
                for (i, f) in list.iter().enumerate() {
                    let fu = b.unit(f)?;
                    if list[..i].contains(f) {
                        return Err(RuleError::refused(
                            Refusal::NamedTwice,
                            format!("{} is named twice", fu.name),
                        ));
                    }
                    if !eligible.contains(f) {
                        let why = self
                            .may_support(b, &target, fu, &shooter)
                            .err()
                            .map(|e| e.to_string())
                            .unwrap_or_else(|| {
                                format!("{} is not a friend of the target", fu.name)
                            });
                        return Err(RuleError::refused(
                            Refusal::CannotSupportDefence,
                            format!("{} cannot support the defence: {why}", fu.name),
                        ));
                    }
                }
                list.to_vec()
            }
        };
        let sf = self.fire_factors(
            b,
            &shooter,
            &target,
            FireRole::Firer { mutual },
            def_support.len(),
        );
        let tf = if mutual {
            self.fire_factors(
                b,
                &target,
                &shooter,
                FireRole::Firer { mutual },
                support.len(),
            )
        } else {
            self.fire_factors(
                b,
                &target,
                &shooter,
                FireRole::Target { responding },
                support.len(),
            )
        };
        let mut first = self.first_dice(b, &shooter, &target, Some(responding));
        first.extend(self.support_first_dice(b, support, true, &target));
        first.extend(self.support_first_dice(b, &def_support, false, &shooter));
        let (mut sf, mut tf) = (sf, tf);
        self.name_supporters(b, &mut sf, &def_support);
        self.name_supporters(b, &mut tf, support);
        Ok(Setup {
            a: shooter,
            b: target,
            a_factors: sf,
            b_factors: tf,
            mutual,
            first,
            responding,
            defence: def_support,
        })
    }

    pub(super) fn fire(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        sid: &UnitId,
        tid: &UnitId,
        support: &[UnitId],
        defence: Option<&[UnitId]>,
    ) -> Result<(), RuleError> {
        let mut setup = self.fire_setup(b, sid, tid, support, defence)?;
        self.throw_first_dice(b, out, &mut setup)?;
        let qa = self.quirks_of(b, &setup, true, Combat::Firing);
        let qb = self.quirks_of(b, &setup, false, Combat::Firing);
        let Setup {
            a: shooter,
            b: target,
            a_factors: sf,
            b_factors: tf,
            mutual,
            responding,
            defence,
            ..
        } = setup;
        let sdie = b.d6()?;
        let tdie = b.d6()?;
        let ss = Score::new(sid, sdie, sf);
        let ts = Score::new(tid, tdie, tf);
        let (shooter_won, mut verdict, stoic) =
            crate::rules::odds::decide(ss.total, ts.total, qa, qb);
        let loser = match shooter_won {
            Some(true) => Some(target.clone()),
            Some(false) if mutual => Some(shooter.clone()),
            _ => None,
        };
        if shooter_won == Some(false) && !mutual {
            verdict = Verdict::Outscored;
        }
        let effect = match &loser {
            Some(l) => {
                let w = if l.id == target.id { &shooter } else { &target };
                self.firing_effect(b, l, w, verdict)
            }
            None => Effect::NoEffect,
        };
        b.emit(
            out,
            DbnEvent::Fire {
                shooter: sid.clone(),
                target: tid.clone(),
                support: support.to_vec(),
                shooter_score: ss,
                target_score: ts,
                loser: loser.as_ref().map(|l| l.id.clone()),
                verdict,
                stoic,
                effect: effect.clone(),
                mutual,
            },
        );
        // Each unit that fired spends its round: the firer and a target firing back with
        // their dice; supporters with none (a supporter whose first die failed gave none).
        self.sup.after_fire(self, b, out, sid, Some(sdie))?;
        if responding {
            self.sup.after_fire(self, b, out, tid, Some(tdie))?;
        }
        for s in support.iter().chain(&defence) {
            if !first_die_failed_this_phase(b, s) {
                self.sup.after_fire(self, b, out, s, None)?;
            }
        }
        if let Some(l) = loser {
            let by = if l.id == *sid { tid } else { sid };
            self.apply_effect(b, out, &l.id, &effect, by)?;
        }
        Ok(())
    }
}
