//! The ground as DBN reads it: bad going, cover, raised ground and open ground, towns (BUA) and
//! villages (NLF) with their garrisons, occupation, capture and fortification.

use super::{Dbn, DbnEvent, N, TroopKind, TroopTrait};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Phase, Side, Unit, UnitId};
use crate::rules::ruleset::dbn::Refusal;
use crate::rules::terrain::{Feature, FeatureKind};

impl Dbn {
    /// Area and linear features that are bad going for this unit.
    pub fn bad_going_kinds(&self) -> [FeatureKind; 6] {
        [
            FeatureKind::Woods,
            FeatureKind::Marsh,
            FeatureKind::Rough,
            FeatureKind::Town,
            FeatureKind::Village,
            FeatureKind::Stream,
        ]
    }

    /// The bad going a base touches, by name.
    pub fn bad_going_at<'a>(&self, b: &'a Battle, base: &Base) -> Vec<&'a str> {
        Self::bad_going_named(b, base, &self.bad_going_kinds())
    }

    /// The features of these kinds a base touches, and the steep hills, by name.
    fn bad_going_named<'a>(b: &'a Battle, base: &Base, kinds: &[FeatureKind]) -> Vec<&'a str> {
        let mut why: Vec<&str> = b
            .terrain
            .features
            .iter()
            .filter(|f| {
                (kinds.contains(&f.kind) || (f.kind == FeatureKind::Hill && f.steep))
                    && f.touches(base)
            })
            .map(|f| f.name.as_str())
            .collect();
        why.sort_unstable();
        why.dedup();
        why
    }

    /// The bad going a moving base passes over: a stream or marsh is not bad going where a
    /// bridge or causeway carries the base over it.
    pub(super) fn bad_going_crossed<'a>(&self, b: &'a Battle, base: &Base) -> Vec<&'a str> {
        let carried = b
            .terrain
            .touching(base, &[FeatureKind::Bridge, FeatureKind::Causeway])
            .next()
            .is_some();
        if !carried {
            return self.bad_going_at(b, base);
        }
        let kinds: Vec<FeatureKind> = self
            .bad_going_kinds()
            .into_iter()
            .filter(|k| !matches!(k, FeatureKind::Stream | FeatureKind::Marsh))
            .collect();
        Self::bad_going_named(b, base, &kinds)
    }

    /// Whether the point is bad going to this unit for firing and combat factors: woods,
    /// marsh, rough ground, a stream or a steep hill; for Muskets also an unfortified village.
    /// Towns are not: only close combat inside one is (see `in_bad_going_for_combat`).
    pub(super) fn bad_going_point(&self, b: &Battle, u: &Unit, p: Pt) -> bool {
        // A bridge or causeway carries the unit over the stream or marsh beneath it.
        let carried = b
            .terrain
            .at(p, &[FeatureKind::Bridge, FeatureKind::Causeway])
            .next()
            .is_some();
        let kinds: &[FeatureKind] = if carried {
            &[FeatureKind::Woods, FeatureKind::Rough]
        } else {
            &[
                FeatureKind::Woods,
                FeatureKind::Marsh,
                FeatureKind::Rough,
                FeatureKind::Stream,
            ]
        };
        b.terrain.at(p, kinds).next().is_some()
            || b.terrain.at(p, &[FeatureKind::Hill]).any(|f| f.steep)
            || (self.has_trait(u, TroopTrait::VillageBadGoing)
                && b.terrain
                    .at(p, &[FeatureKind::Village])
                    .any(|f| !f.fortified))
    }

    /// True when the unit is in bad going for firing factors and firing out of bad going.
    pub fn in_bad_going(&self, b: &Battle, u: &Unit) -> bool {
        self.bad_going_point(b, u, u.base.centre)
    }

    /// True when the unit fights a close combat in bad going: its own bad going, or inside a
    /// town it does not hold as a garrison of a fortified town.
    pub fn in_bad_going_for_combat(&self, b: &Battle, u: &Unit) -> bool {
        self.in_bad_going(b, u) || (self.in_town(b, u) && !self.is_garrison(b, u))
    }

    /// A garrison: foot inside a town that held it before any enemy foot it is in close combat
    /// with there came in (`intruder_in_town`); where the data's `garrison_fortified_only` is
    /// set, only the defending side's, inside a fortified town.
    pub fn is_garrison(&self, b: &Battle, u: &Unit) -> bool {
        let strict = self.n(N::GarrisonFortifiedOnly) > 0.0;
        if strict {
            b.sides.get(u.side).is_some_and(|s| s.defender)
                && b.terrain
                    .at(u.base.centre, &[FeatureKind::Town])
                    .any(|t| t.fortified)
        } else {
            self.kind(u) == TroopKind::Foot
                && b.terrain
                    .at(u.base.centre, &[FeatureKind::Town])
                    .any(|t| !self.intruder_in_town(b, u, t))
        }
    }

    /// Whether foot `u` inside town `t` came into it after an enemy foot unit inside the same
    /// town that it is now in close combat with: it fights its way into a town another holds.
    /// Who came in last is read from the log: the last event that carried each unit's centre
    /// from outside the town to inside it; one that has stood there since the battle began
    /// came in first. Two placed there from the start both hold it.
    fn intruder_in_town(&self, b: &Battle, u: &Unit, t: &Feature) -> bool {
        let holders: Vec<UnitId> = self
            .contacts(b, u)
            .into_iter()
            .filter_map(|(id, _)| b.unit(&id).ok())
            .filter(|e| self.kind(e) == TroopKind::Foot && t.contains(e.base.centre))
            .map(|e| e.id.clone())
            .collect();
        if holders.is_empty() {
            return false;
        }
        let mine = Self::entered_town(b, &u.id, t);
        mine.is_some()
            && holders
                .iter()
                .any(|e| Self::entered_town(b, e, t).is_none_or(|theirs| Some(theirs) < mine))
    }

    /// The log position of the last event that brought the unit's centre into town `t` from
    /// outside it (a placement counts as coming in); None when it has stood there since the
    /// log began.
    fn entered_town(b: &Battle, id: &UnitId, t: &Feature) -> Option<usize> {
        let n = b.log.len();
        b.log.iter().rev().enumerate().find_map(|(back, e)| {
            let (unit, from, to) = match e {
                Event::Moved { unit, from, to, .. }
                | Event::Recoiled { unit, from, to, .. }
                | Event::Fled { unit, from, to }
                | Event::Pursued { unit, from, to, .. }
                | Event::Reformed { unit, from, to, .. } => (unit, Some(from), to),
                Event::Deployed { unit, to } => (unit, None, to),
                _ => return None,
            };
            (unit == id && t.contains(to.centre) && !from.is_some_and(|f| t.contains(f.centre)))
                .then_some(n - 1 - back)
        })
    }

    /// In a town, a village or a fortification (DBFPW's "BUA/NLF or fortification").
    pub fn in_built_up_or_works(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain
            .at(
                u.base.centre,
                &[
                    FeatureKind::Town,
                    FeatureKind::Village,
                    FeatureKind::Fortification,
                ],
            )
            .next()
            .is_some()
    }

    /// In a fortification or fortified town or village.
    pub fn in_fortification(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain.fortified_at(u.base.centre)
    }

    /// On a hill (raised ground, for long-range fire).
    pub fn on_raised_ground(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain
            .at(u.base.centre, &[FeatureKind::Hill])
            .next()
            .is_some()
    }

    /// A unit's long range where it may fire at that range now, as far as the firer goes:
    /// from raised ground, having not moved this bound (the target must still stand in the
    /// open, which is the target's to say).
    pub fn long_range_now(&self, b: &Battle, u: &Unit) -> Option<f32> {
        self.long_range(u)
            .filter(|_| !u.bound.moved && self.on_raised_ground(b, u))
    }

    /// In the open: in no bad going, town, village or fortification.
    pub fn in_open(&self, b: &Battle, u: &Unit) -> bool {
        self.bad_going_at(b, &u.base).is_empty()
            && b.terrain
                .touching(&u.base, &[FeatureKind::Fortification])
                .next()
                .is_none()
    }

    /// In a town, fortification or fortified village (cover, and -2 for firing into it).
    pub fn in_cover(&self, b: &Battle, u: &Unit) -> bool {
        let c = u.base.centre;
        b.terrain
            .at(c, &[FeatureKind::Town, FeatureKind::Fortification])
            .next()
            .is_some()
            || b.terrain
                .at(c, &[FeatureKind::Village])
                .any(|f| f.fortified)
    }

    /// Occupying a village (NLF) or a fortification.
    /// Occupying a village (NLF) or fortification: anyone in a fortification or fortified
    /// village; in an unfortified village only Irregular Infantry, Jagers and Guerrillas occupy
    /// it (others merely stand in it).
    pub fn in_nlf_or_fort(&self, b: &Battle, u: &Unit) -> bool {
        let c = u.base.centre;
        b.terrain
            .at(c, &[FeatureKind::Fortification])
            .next()
            .is_some()
            || b.terrain
                .at(c, &[FeatureKind::Village])
                .any(|f| f.fortified || self.is_skirmisher(u))
    }

    /// In good going for the close combat results' "in GG": in no bad going for close combat
    /// and inside no town or village. A garrison or occupier is spared the bad going of its
    /// town or village, but the ground it holds is not good going either.
    pub fn in_good_going_for_results(&self, b: &Battle, u: &Unit) -> bool {
        !self.in_bad_going_for_combat(b, u)
            && b.terrain
                .at(u.base.centre, &[FeatureKind::Town, FeatureKind::Village])
                .next()
                .is_none()
    }

    pub fn in_town(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain
            .at(u.base.centre, &[FeatureKind::Town])
            .next()
            .is_some()
    }

    /// Who may end a move in a town or village: foot only; a town only once fortified (or to
    /// take it from a defender who has left it).
    pub fn check_occupation(&self, b: &Battle, u: &Unit, end: &Base) -> Result<(), RuleError> {
        for f in b
            .terrain
            .at(end.centre, &[FeatureKind::Town, FeatureKind::Village])
        {
            if self.kind(u) != TroopKind::Foot {
                return Err(RuleError::refused(
                    Refusal::OnlyFootOccupy,
                    format!("only foot may occupy {}", f.name),
                ));
            }
            let defender = b.sides.get(u.side).is_some_and(|s| s.defender);
            // DB7YW: no one garrisons a town that is not fortified, attacker or defender.
            let strict = self.n(N::GarrisonFortifiedOnly) > 0.0;
            if f.kind == FeatureKind::Town && !f.fortified && (defender || strict) {
                return Err(RuleError::refused(
                    Refusal::NotFortified,
                    format!(
                        "{} is not fortified: a BUA must be fortified before it can be garrisoned",
                        f.name
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A non-defending foot unit standing in a fortified town or village that no defender
    /// holds captures it.
    pub fn check_capture(&self, b: &mut Battle, out: &mut Vec<Event>, id: &UnitId) {
        let Ok(u) = b.unit(id) else { return };
        if !u.alive()
            || b.sides.get(u.side).is_some_and(|s| s.defender)
            || self.kind(u) != TroopKind::Foot
        {
            return;
        }
        let side = u.side;
        let by = u.id.clone();
        let taken: Vec<String> = b
            .terrain
            .at(u.base.centre, &[FeatureKind::Town, FeatureKind::Village])
            .filter(|f| f.fortified)
            .filter(|f| {
                !b.alive()
                    .any(|d| d.side != side && f.contains(d.base.centre))
            })
            .map(|f| f.id.clone())
            .collect();
        for feature in taken {
            b.emit(
                out,
                DbnEvent::Captured {
                    feature,
                    by: by.clone(),
                },
            );
        }
    }

    /// Fortify a town (BUA) or village (NLF) before the battle: the defender only, within the
    /// army's points (`army_cost`: what a side's army costs).
    pub fn fortify(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        feature: &str,
        army_cost: &dyn Fn(&Battle, Side) -> f32,
    ) -> Result<(), RuleError> {
        let Some(costs) = self.extras.fortify else {
            return Err(RuleError::refused(
                Refusal::NoFortifyingInPlay,
                format!("{} has no fortifying during play", self.data.id),
            ));
        };
        if b.phase != Phase::DEPLOYMENT {
            return Err(RuleError::WrongPhase {
                command: "fortify".into(),
                phase: b.phase,
            });
        }
        let Some((side, _)) = self.deployment_turn(b) else {
            return Err(RuleError::refused(
                Refusal::DeploymentOver,
                "deployment is over".into(),
            ));
        };
        if !b.sides.get(side).is_some_and(|s| s.defender) {
            return Err(RuleError::refused(
                Refusal::OnlyDefenderFortifies,
                "only the defending army may fortify".into(),
            ));
        }
        let f = b
            .terrain
            .get(feature)
            .ok_or_else(|| RuleError::UnknownFeature(feature.to_string()))?;
        let cost = match f.kind {
            FeatureKind::Town => costs.town,
            FeatureKind::Village => costs.village,
            _ => {
                return Err(RuleError::refused(
                    Refusal::NotATown,
                    format!("{} is not a town or village", f.name),
                ));
            }
        };
        if f.fortified {
            return Err(RuleError::refused(
                Refusal::AlreadyFortified,
                format!("{} is already fortified", f.name),
            ));
        }
        let spent: f32 = b
            .terrain
            .features
            .iter()
            .filter(|f| f.fortified)
            .map(|f| {
                if f.kind == FeatureKind::Town {
                    costs.town
                } else {
                    costs.village
                }
            })
            .sum();
        let army = army_cost(b, side);
        if army > 0.0 && army + spent + cost > self.data.army.points + 1e-3 {
            return Err(RuleError::refused(
                Refusal::FortifyingOverPoints,
                format!(
                    "fortifying costs {cost} army points; the army already costs {:.2} of {}",
                    army + spent,
                    self.data.army.points
                ),
            ));
        }
        b.emit(
            out,
            DbnEvent::Fortified {
                feature: feature.to_string(),
            },
        );
        Ok(())
    }
}
