//! BBB evading: who may evade whom, and the evade itself (straight away from an enemy that
//! moved within 12", half to a full move, keeping the move's rules).

use super::{Arm, Bbb7yw, N, illegal, in_phase};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::{Base, Pt, heading, norm_facing};
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::bbb::{MOVEMENT, Refusal};
use crate::rules::terrain::FeatureKind;

impl Bbb7yw {
    /// Who may evade whom: cavalry, limbered foot artillery and horse artillery evade
    /// infantry; light and irregular cavalry also heavy cavalry; irregular cavalry all but
    /// light and irregular cavalry. Total: a unit whose troop code the data lacks (refused at
    /// load) is of no arm, so it neither evades nor is evaded.
    pub fn may_evade(&self, evader: &Unit, enemy: &Unit) -> bool {
        let (Ok(t), Some(e)) = (self.troop(evader), self.arm(enemy)) else {
            return false;
        };
        let (me, gun) = (t.arm, t.gun);
        let base = match me {
            Arm::HeavyCavalry | Arm::Cavalry | Arm::LightCavalry | Arm::IrregularCavalry => true,
            Arm::Artillery => {
                gun == Some(super::Gun::Horse)
                    || (gun == Some(super::Gun::Foot) && evader.status.limbered)
            }
            _ => false,
        };
        match e {
            Arm::Infantry => base,
            Arm::HeavyCavalry => matches!(me, Arm::LightCavalry | Arm::IrregularCavalry),
            Arm::Cavalry | Arm::Artillery => me == Arm::IrregularCavalry,
            _ => false,
        }
    }

    /// Evades an enemy that moved within 12" this turn: straight away from it, between half
    /// and a full move, and ends disrupted.
    pub fn evade(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        from: &UnitId,
        distance: f32,
    ) -> Result<(), RuleError> {
        in_phase(b, MOVEMENT, "evade")?;
        let u = b.unit(id)?.clone();
        let e = b.unit(from)?.clone();
        self.may_evade_now(b, &u, &e)?;
        let full = self.full_move(&u)?;
        if !distance.is_finite() || distance <= 0.0 {
            return illegal(
                Refusal::EvadeNotADistance,
                format!("{} evades a distance in inches", u.name),
            );
        }
        let (turned, to, path) = self.evade_way(b, &u, &e, distance)?;
        let why = self.evade_ground(b, &u, &turned, &path)?;
        self.evade_reach(&u, &why, distance)?;
        self.evade_zones(b, &u, &turned, &path)?;
        b.emit(
            out,
            Event::Moved {
                unit: id.clone(),
                from: u.base,
                to,
                distance,
                allowance: full,
                going: format!("evading {}", e.name).into(),
                contact: None,
                manoeuvre: Some(format!("evades {distance:.1}\" away from {}", e.name)),
            },
        );
        // Evading cavalry becomes disrupted (001 Evade); guns that evade do not.
        if self.is_cavalry(&u) {
            self.disrupt(b, out, id, "evaded");
        }
        Ok(())
    }

    /// Whether `u` may evade `e` now: the side not moving, undisrupted, not evaded yet, from
    /// an enemy that moved within 12" and that the playsheet lets it evade.
    fn may_evade_now(&self, b: &Battle, u: &Unit, e: &Unit) -> Result<(), RuleError> {
        if u.side == b.active {
            return illegal(
                Refusal::EvaderOfMovingSide,
                format!(
                    "{} belongs to the moving side: only the other side's units evade",
                    u.name
                ),
            );
        }
        if e.side != b.active {
            return illegal(
                Refusal::NotOfMovingSide,
                format!("{} is not of the moving side", e.name),
            );
        }
        if u.status.disordered {
            return illegal(
                Refusal::DisruptedCannotEvade,
                format!("{} is disrupted and cannot evade", u.name),
            );
        }
        if u.bound.moved {
            return illegal(
                Refusal::AlreadyEvaded,
                format!("{} has already evaded this turn", u.name),
            );
        }
        if !e.bound.moved {
            return illegal(
                Refusal::EnemyHasNotMoved,
                format!("{} has not moved this turn", e.name),
            );
        }
        let r = b.scale.to_mm(self.n(N::EvadeRadius));
        if !e.base.within(&u.base, r) {
            return illegal(
                Refusal::EnemyTooFarToEvade,
                format!(
                    "{} is more than {:.0}\" away",
                    e.name,
                    self.n(N::EvadeRadius)
                ),
            );
        }
        if !self.may_evade(u, e) {
            return illegal(
                Refusal::MayNotEvade,
                format!("{} may not evade {} (playsheet: Evade)", u.name, e.name),
            );
        }
        Ok(())
    }

    /// Where the evade goes: the unit turned straight away from the enemy, where it ends, and
    /// its way there; on the table and on no other unit.
    fn evade_way(
        &self,
        b: &Battle,
        u: &Unit,
        e: &Unit,
        distance: f32,
    ) -> Result<(Base, Base, Vec<Base>), RuleError> {
        let away = u.base.centre.minus(e.base.centre);
        let facing = norm_facing(away.x.atan2(away.y).to_degrees());
        let turned = Base { facing, ..u.base };
        let mut to = turned;
        to.centre = turned
            .centre
            .plus(heading(facing).scale(b.scale.to_mm(distance)));
        let inside = to
            .corners()
            .iter()
            .all(|p| p.x >= 0.0 && p.y >= 0.0 && p.x <= b.table.width && p.y <= b.table.height);
        if !inside {
            return illegal(
                Refusal::WouldLeaveTable,
                format!("{} would evade off the table", u.name),
            );
        }
        if let Some(o) = b
            .alive()
            .find(|o| o.id != u.id && !self.is_general(o) && o.base.overlaps(&to))
        {
            return illegal(
                Refusal::WouldEndOnUnit,
                format!("{} would end on {}", u.name, o.name),
            );
        }
        // An evade is a move: it passes through no enemy, and guns cross no river.
        let path: Vec<Base> = (1..=40)
            .map(|k| Base {
                centre: turned.centre.lerp(to.centre, k as f32 / 40.0),
                ..turned
            })
            .collect();
        Ok((turned, to, path))
    }

    /// The difficult terrain and obstacles the evade crosses, by name: the move's penalties
    /// count against it (ruling evade).
    fn evade_ground(
        &self,
        b: &Battle,
        u: &Unit,
        turned: &Base,
        path: &[Base],
    ) -> Result<Vec<String>, RuleError> {
        // The move's penalties count against it (ruling evade): difficult terrain, a stream or
        // a steep slope going up once; a river halts a move, so no evade fords one; unlimbered
        // guns are manhandled 3" at most. The turn away is part of the evade, not an arc
        // penalty. Every evade may still go 3".
        let mut why: Vec<String> = Vec::new();
        let difficult = [FeatureKind::Marsh, FeatureKind::Woods, FeatureKind::Town];
        let mut prev = turned.centre;
        for t in path {
            let on_bridge = |p: Pt| b.terrain.at(p, &[FeatureKind::Bridge]).next().is_some();
            let bridged = (on_bridge(prev) || on_bridge(t.centre)) && self.marching(u);
            for f in b.terrain.at(t.centre, &difficult) {
                if !why.contains(&f.name) {
                    why.push(f.name.clone());
                }
            }
            for f in b
                .terrain
                .features
                .iter()
                .filter(|f| f.crossed_by(prev, t.centre))
            {
                match f.kind {
                    FeatureKind::River if !bridged => {
                        return illegal(
                            Refusal::RiverHalts,
                            format!(
                                "{} would evade across {}: a river halts a move (rivers are impassable to artillery)",
                                u.name, f.name
                            ),
                        );
                    }
                    FeatureKind::Stream if !bridged && !why.contains(&f.name) => {
                        why.push(f.name.clone())
                    }
                    _ => {}
                }
            }
            if b.terrain.level_at(t.centre) > b.terrain.level_at(prev)
                && b.terrain
                    .at(t.centre, &[FeatureKind::Hill])
                    .any(|h| h.steep)
            {
                let name = "a steep slope (going up)".to_string();
                if !why.contains(&name) {
                    why.push(name);
                }
            }
            prev = t.centre;
        }
        Ok(why)
    }

    /// Refuses a distance the evade may not go: half to a full move, less the penalty for
    /// difficult ground, never under the 3" minimum; unlimbered guns are manhandled 3" at most.
    fn evade_reach(&self, u: &Unit, why: &[String], distance: f32) -> Result<(), RuleError> {
        let full = self.full_move(u)?;
        let penalty = if why.is_empty() {
            0.0
        } else if self.is_cavalry(u) {
            self.n(N::DifficultCavalry)
        } else {
            self.n(N::DifficultFoot)
        };
        let mut most = (full - penalty).max(self.n(N::MinimumMove));
        if self.is_artillery(u) && !u.status.limbered {
            most = most.min(self.n(N::Manhandle));
        }
        let least = (full / 2.0).min(most);
        if distance < least - 1e-3 || distance > most + 1e-3 {
            let mut notes = Vec::new();
            if !why.is_empty() {
                notes.push(format!(
                    "difficult terrain or obstacle ({}) -{penalty:.0}\"",
                    why.join(", ")
                ));
            }
            if self.is_artillery(u) && !u.status.limbered {
                notes.push(format!("manhandled {:.0}\" at most", self.n(N::Manhandle)));
            }
            return illegal(
                Refusal::EvadeDistanceOutsideRange,
                format!(
                    "{} evades between {least:.1}\" and {most:.1}\"{}",
                    u.name,
                    if notes.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", notes.join("; "))
                    }
                ),
            );
        }
        Ok(())
    }
}
