//! What the table shows alike in every ruleset: a garrisoned town, the objectives and who
//! holds them, the units each side has lost turn by turn.

use crate::rules::battle::Battle;
use crate::rules::geometry::Pt;
use crate::rules::model::UnitId;
use crate::rules::ruleset::Ruleset;

/// Whether a unit garrisons a fortified town or village: its centre stands inside one.
pub fn garrisons(b: &Battle, u: &crate::rules::model::Unit) -> bool {
    use crate::rules::terrain::FeatureKind;
    b.terrain
        .at(u.base.centre, &[FeatureKind::Town, FeatureKind::Village])
        .any(|f| f.fortified)
}

/// The objectives to name on the table, with the side that holds each: the scenario's
/// objectives that a side holds (`rules::victory::objectives`), or the scenario's objective
/// named by the place it stands in (else the nearest named town or village), held by its owner
/// until taken.
pub fn objectives_on_table(rules: &dyn Ruleset, b: &Battle) -> Vec<(Pt, String, usize)> {
    use crate::rules::terrain::{Feature, FeatureKind};
    let mut out: Vec<(Pt, String, usize)> = crate::rules::victory::objectives(rules, b)
        .into_iter()
        .filter_map(|o| Some((o.at, o.name, o.holder?)))
        .collect();
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
        out.push((o.at, place, holder));
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

    /// The default battle's objective is named by the village it stands by, and held by Austria.
    #[test]
    fn the_objective_is_named_by_its_place() {
        let game = crate::rules::scenario::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/default.ron"),
        )
        .expect("the default battle loads");
        let names: Vec<(String, usize)> = objectives_on_table(game.rules.get(), &game.battle)
            .into_iter()
            .map(|(_, n, s)| (n, s))
            .collect();
        assert_eq!(names, vec![("Reichenau".to_string(), 1)]);
    }
}
