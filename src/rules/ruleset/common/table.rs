//! What the table shows alike in every ruleset: a garrisoned town, the objectives and who
//! holds them, the units each side has lost turn by turn.

use crate::rules::battle::Battle;
use crate::rules::model::UnitId;
use crate::rules::ruleset::Ruleset;
use crate::rules::victory::ObjectiveView;

/// Whether a unit garrisons a fortified town or village: its centre stands inside one.
pub fn garrisons(b: &Battle, u: &crate::rules::model::Unit) -> bool {
    use crate::rules::terrain::FeatureKind;
    b.terrain
        .at(u.base.centre, &[FeatureKind::Town, FeatureKind::Village])
        .any(|f| f.fortified)
}

/// The objectives to mark on the table, each with the side that holds it (None: nobody yet):
/// the scenario's objectives (`rules::victory::objectives`), or else the scenario's objective
/// named by the place it stands in (else the nearest named town or village), held by its owner
/// until taken.
pub fn objectives_on_table(rules: &dyn Ruleset, b: &Battle) -> Vec<ObjectiveView> {
    use crate::rules::terrain::{Feature, FeatureKind};
    let mut out = crate::rules::victory::objectives(rules, b);
    if out.is_empty()
        && let Some(o) = &b.objective
    {
        let near = |f: &&Feature| {
            let (lo, hi) = f.bounds();
            let (x, y) = ((lo.x + hi.x) / 2.0 - o.at.x, (lo.y + hi.y) / 2.0 - o.at.y);
            x * x + y * y
        };
        let named = b.terrain.features.iter().filter(|f| !f.name.is_empty());
        let place = b
            .terrain
            .at(
                o.at,
                &[FeatureKind::Town, FeatureKind::Village, FeatureKind::Hill],
            )
            .find(|f| !f.name.is_empty())
            .or_else(|| {
                named
                    .filter(|f| matches!(f.kind, FeatureKind::Town | FeatureKind::Village))
                    .min_by(|a, c| near(a).total_cmp(&near(c)))
            })
            .map_or_else(|| "Objective".to_string(), |f| f.name.clone());
        let holder = if o.taken {
            Battle::enemy(o.owner)
        } else {
            o.owner
        };
        out.push(ObjectiveView {
            id: "objective".into(),
            name: place,
            at: o.at,
            worth: 1,
            holder: Some(holder),
            radius_mm: 0.0,
        });
    }
    out
}

/// Units lost by each side by the end of each turn, read from the log: those destroyed, and
/// those whose last stands were overrun (lost with them, without an event of their own).
pub fn losses_by_turn(b: &Battle) -> Vec<[u32; 2]> {
    use crate::rules::command::Event;
    let mut turn = 1usize;
    let mut out = vec![[0u32; 2]];
    // The turn of its last overrun, for the units lost that way.
    let mut overrun: Vec<(UnitId, usize)> = Vec::new();
    let mut destroyed: Vec<UnitId> = Vec::new();
    for e in &b.log {
        match e {
            Event::PhaseBegan { turn: t, .. } if *t as usize > turn => {
                let last = *out.last().unwrap_or(&[0, 0]);
                while out.len() < *t as usize {
                    out.push(last);
                }
                turn = *t as usize;
            }
            Event::Destroyed { unit, .. } => {
                destroyed.push(unit.clone());
                if let Ok(u) = b.unit(unit)
                    && u.side < 2
                    && let Some(row) = out.last_mut()
                {
                    row[u.side] += 1;
                }
            }
            // A unit back on the table (BBB's general who fell and returns) is lost no more.
            Event::Deployed { unit, .. } if destroyed.contains(unit) => {
                destroyed.retain(|d| d != unit);
                if let Ok(u) = b.unit(unit)
                    && u.side < 2
                    && let Some(row) = out.last_mut()
                {
                    row[u.side] = row[u.side].saturating_sub(1);
                }
            }
            Event::StandsOverrun { unit, .. } => {
                overrun.retain(|(u, _)| u != unit);
                overrun.push((unit.clone(), out.len() - 1));
            }
            _ => {}
        }
    }
    for (id, at) in overrun {
        if let Ok(u) = b.unit(&id)
            && u.side < 2
            && u.status.removed
            && !destroyed.contains(&id)
        {
            for row in out.iter_mut().skip(at) {
                row[u.side] += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scenario with a defender's objective and no objectives list (the formal deployment
    /// at Reichenau) marks that objective, named by the village it stands in, held by Austria.
    #[test]
    fn the_objective_is_named_by_its_place() {
        let game = crate::rules::scenario::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scenarios/formal_deployment.ron"),
        )
        .expect("the formal deployment loads");
        let names: Vec<(String, Option<usize>)> =
            objectives_on_table(game.rules.get(), &game.battle)
                .into_iter()
                .map(|o| (o.name, o.holder))
                .collect();
        assert_eq!(names, vec![("Reichenau".to_string(), Some(1))]);
    }
}
