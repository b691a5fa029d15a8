//! DBN-family national army lists: a unit's cost by the data's cost rules, and the lines of
//! a nation's list.

use super::{Dbn, ListLine};
use crate::rules::model::{Class, SideInfo, Unit};
use crate::rules::terrain::Terrain;

/// Whether a cost rule or list line's qualifiers fit a unit.
fn fits(
    troops: &[String],
    class: Option<Class>,
    flag: Option<crate::rules::model::Flag>,
    u: &Unit,
) -> bool {
    (troops.is_empty() || troops.contains(&u.troop))
        && class.is_none_or(|c| c == u.class)
        && flag.is_none_or(|f| u.has(f))
}

/// A national list's line counts the unit: its type, its class (any, when the line names
/// none) and its flag.
fn line_counts(l: &ListLine, u: &Unit) -> bool {
    fits(&l.troops, l.class, l.flag, u) && (l.classes.is_empty() || l.classes.contains(&u.class))
}

/// A national list's line allows the unit at all: it names the type without a flag, and names
/// the unit's class, or names no class and the unit is Regular (the lists name every Elite and
/// Poor unit they allow).
fn line_allows(l: &ListLine, u: &Unit) -> bool {
    let named = l.class == Some(u.class) || l.classes.contains(&u.class);
    let plain = l.class.is_none() && l.classes.is_empty() && u.class == Class::Regular;
    l.troops.contains(&u.troop) && l.flag.is_none() && (named || plain)
}

/// Points cost of one unit by the data's cost rules: the base cost adjusted by every rule that
/// fits, unless a rule that fits sets the cost outright (the last such rule wins).
pub fn listed_cost(dbn: &Dbn, u: &Unit, nation: &str) -> f32 {
    let a = &dbn.data.army;
    if a.free.contains(&u.troop) {
        return 0.0;
    }
    let mut c = a.base_cost;
    let mut set = None;
    for r in &a.costs {
        if !fits(&r.troops, r.class, r.flag, u)
            || !(r.nations.is_empty() || r.nations.iter().any(|n| n == nation))
        {
            continue;
        }
        if r.absolute {
            set = Some(r.cost);
        } else {
            c += r.cost;
        }
    }
    set.unwrap_or(c)
}

/// Every reason a side's army breaks its national list: points (with prepared
/// fortifications at `works_cost` per unit inside one), each line's minimum and maximum, and
/// units that fit no line.
pub fn validate_lists(
    dbn: &Dbn,
    units: &[&Unit],
    side: &SideInfo,
    terrain: &Terrain,
    works_cost: f32,
    class_name: &dyn Fn(Class) -> String,
) -> Vec<String> {
    let a = &dbn.data.army;
    let mut errs = Vec::new();
    let Some(list) = a.lists.iter().find(|l| l.nations.contains(&side.nation)) else {
        let known: Vec<&str> = a
            .lists
            .iter()
            .flat_map(|l| l.nations.iter().map(String::as_str))
            .collect();
        return vec![format!(
            "no army list for the nation '{}' (lists: {})",
            side.nation,
            known.join(", ")
        )];
    };
    let works = units
        .iter()
        .filter(|u| terrain.fortified_at(u.base.centre))
        .count() as f32
        * works_cost;
    let cost: f32 = units
        .iter()
        .map(|u| listed_cost(dbn, u, &side.nation))
        .sum::<f32>()
        + works;
    if cost > a.points + 1e-3 {
        errs.push(format!(
            "the army costs {cost:.2} points (prepared fortifications {works:.1}); the {} list allows {}",
            list.name, a.points
        ));
    }
    for line in &list.lines {
        let n = units.iter().filter(|u| line_counts(line, u)).count() as u32;
        if n < line.min || n > line.max {
            errs.push(format!(
                "{}: {} has {n} ({})",
                list.name, line.words, list.source
            ));
        }
    }
    for u in units {
        let covered = list.lines.iter().any(|l| line_allows(l, u));
        if !covered {
            errs.push(format!(
                "'{}' ({} {}) is not in the {} list",
                u.id,
                class_name(u.class),
                u.troop,
                list.name
            ));
        }
    }
    errs
}
