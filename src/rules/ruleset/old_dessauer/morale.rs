//! Morale: the passive side's tests against the hits of shooting, and shaken units rallying at
//! the start of their side's turn.

use super::{DessauerEvent, TestKind};
use super::{Kind, N, OldDessauer, grade, nearest_stand_point, recoil, shooting};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, RuleError, factor_sum};
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::terrain::FeatureKind;

impl OldDessauer {
    /// Shaken active units not in contact test to rally.
    pub(super) fn rally(&self, b: &mut Battle, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let ids: Vec<UnitId> = b
            .alive()
            .filter(|u| u.side == b.active && u.status.shaken && self.is_fighting_unit(u))
            .map(|u| u.id.clone())
            .collect();
        for id in ids {
            let u = b.unit(&id)?.clone();
            if self.in_contact(b, &u) {
                continue;
            }
            let need = match grade(u.class) {
                2 => self.int(N::RallyNeedCrack),
                1 => self.int(N::RallyNeedRegular),
                _ => self.int(N::RallyNeedPoor),
            };
            let mut factors = Vec::new();
            if !self.enemy_able_to_charge(b, &u) {
                factors.push(self.factor(N::RallyNoEnemy, "No visible enemy able to charge"));
            }
            factors.extend(self.leadership(b, &u));
            if !self.in_command(b, &u) {
                factors.push(self.factor(N::OutOfCommand, "Out of command"));
            }
            let die = b.d6()?;
            let sum = factor_sum(&factors);
            let passed = die as i32 + sum >= need;
            b.emit(
                out,
                DessauerEvent::Test {
                    unit: id.clone(),
                    test: TestKind::Rally,
                    die,
                    factors,
                    need: need - sum,
                    passed,
                },
            );
            if passed {
                b.emit(out, Event::Rallied { unit: id });
            }
        }
        Ok(())
    }

    /// A visible enemy able to charge the unit: horse or formed foot, not shaken, free to move
    /// (not in combat, not in square or an L), whose charge rate would reach it, and horse only
    /// where the unit does not stand in woods, marsh or a town (only infantry may enter or
    /// attack them). Visible: the rallying unit sees it (woods hide it beyond 4 inches unless
    /// it fired).
    pub fn enemy_able_to_charge(&self, b: &Battle, u: &Unit) -> bool {
        b.alive().any(|e| {
            e.side != u.side
                && matches!(self.kind(e), Kind::Infantry | Kind::Cavalry)
                && !e.status.shaken
                && !matches!(e.formation, Formation::Square | Formation::Conformed)
                && !self.in_contact(b, e)
                && (self.kind(e) != Kind::Cavalry || !self.foot_only_ground(b, u))
                // Measured stand to stand: an L by its arms' stands, not the box round them.
                && e.shapes().iter().any(|x| {
                    u.shapes()
                        .iter()
                        .any(|y| x.within(y, b.scale.to_mm(self.charge_rate(e))))
                })
                // Seen from the rallying unit: the enemy is the one seen at 4 inches in woods
                // unless it fired.
                && shooting::sight_clear(
                    self,
                    b,
                    nearest_stand_point(u, e.base.front_centre()),
                    e,
                    u,
                )
        })
    }

    /// Does `u` stand in woods, marsh or a town, which only infantry may enter or attack?
    pub(super) fn foot_only_ground(&self, b: &Battle, u: &Unit) -> bool {
        b.terrain
            .at(
                u.base.centre,
                &[
                    FeatureKind::Woods,
                    FeatureKind::Marsh,
                    FeatureKind::Town,
                    FeatureKind::Village,
                ],
            )
            .next()
            .is_some()
    }
}

/// The passive side's units shot at this turn each test once against all their hits.
pub fn morale_tests(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let ids: Vec<UnitId> = b
        .alive()
        .filter(|u| {
            u.side != b.active
                && matches!(
                    od.kind(u),
                    Kind::Infantry | Kind::LightInfantry | Kind::Cavalry | Kind::Artillery
                )
                && u.bound.shot_by.iter().map(|x| x.1).sum::<u32>() > 0
        })
        .map(|u| u.id.clone())
        .collect();
    for id in ids {
        let u = b.unit(&id)?.clone();
        if !u.alive() {
            continue;
        }
        let hits: u32 = u.bound.shot_by.iter().map(|x| x.1).sum();
        let base = match grade(u.class) {
            2 => od.int(N::MoraleNeedCrack),
            1 => od.int(N::MoraleNeedRegular),
            _ => od.int(N::MoraleNeedPoor),
        };
        let per = od.factor(N::MoralePerHit, "");
        let mut factors = vec![Factor {
            name: if hits == 1 {
                "1 hit".into()
            } else {
                format!("{hits} hits")
            },
            value: per.value * hits as i32,
            source: per.source,
        }];
        factors.extend(od.leadership(b, &u));
        if !od.in_command(b, &u) {
            factors.push(od.factor(N::OutOfCommand, "Out of command"));
        }
        let sum = factor_sum(&factors);
        let die = b.d6()?;
        let need = base - sum;
        let passed = die as i32 >= need;
        b.emit(
            out,
            DessauerEvent::Test {
                unit: id.clone(),
                test: TestKind::Morale,
                die,
                factors,
                need,
                passed,
            },
        );
        if passed {
            continue;
        }
        if !u.status.shaken {
            b.emit(out, Event::Shaken { unit: id.clone() });
        }
        let moves = hits / od.num(N::RecoilsPerHits).max(1.0) as u32;
        let cause = u
            .bound
            .shot_by
            .iter()
            .max_by_key(|x| x.1)
            .and_then(|x| b.unit(&x.0).ok())
            .map(|s| s.base.centre)
            .unwrap_or(u.base.front_centre().plus(u.base.forward()));
        recoil::recoil(od, b, out, &id, cause, moves)?;
    }
    Ok(())
}
