//! DBN-family army lists: points costs, composition and national options.

use super::{ArmyRules, Dbn, FortifyCosts, ListLine};
use crate::rules::battle::Battle;
use crate::rules::model::{Class, Division, Flag, Side, SideInfo, Unit};
use crate::rules::terrain::{FeatureKind, Terrain};

/// Points cost of one unit (the CinC and baggage are free).
pub fn unit_cost(dbn: &Dbn, u: &Unit) -> f32 {
    let a = &dbn.data.army;
    if a.free.contains(&u.troop) {
        return 0.0;
    }
    let mut c = a.base_cost;
    match u.class {
        Class::Elite => c += a.elite_cost,
        Class::Militia => c += a.militia_cost,
        Class::Superior if matches!(u.troop.as_str(), "Ms" | "DC") => c += a.superior_cost,
        _ => {}
    }
    if u.troop == "IC" {
        c += a.ic_cost;
    }
    c
}

/// Points cost of a side's army as it stands in the battle.
pub fn army_cost(dbn: &Dbn, b: &Battle, side: Side) -> f32 {
    b.units
        .iter()
        .filter(|u| u.side == side)
        .map(|u| unit_cost(dbn, u))
        .sum()
}

/// Every reason a side's army breaks the army list, counting the defender's fortifications
/// at what fortifying costs.
pub fn validate_side(
    dbn: &Dbn,
    units: &[&Unit],
    side: &SideInfo,
    terrain: &Terrain,
    costs: FortifyCosts,
) -> Vec<String> {
    let fort: f32 = terrain
        .features
        .iter()
        .filter(|f| f.fortified && side.defender)
        .map(|f| {
            if f.kind == FeatureKind::Town {
                costs.town
            } else {
                costs.village
            }
        })
        .sum();
    validate_army(dbn, units, &side.nation, fort)
}

/// Every reason the army list is invalid; empty when it is a legal 16-point army.
pub fn validate_army(dbn: &Dbn, units: &[&Unit], nation: &str, fortify_points: f32) -> Vec<String> {
    let a = &dbn.data.army;
    let mut errs = Vec::new();
    for line in &a.composition {
        let codes: Vec<&str> = line.troops.iter().map(String::as_str).collect();
        let n = count(units, &codes);
        if line.min == line.max && n != line.min {
            errs.push(format!(
                "an army has exactly {} {} (has {n})",
                line.min,
                line.troops.join("/")
            ));
        } else if n < line.min || n > line.max {
            errs.push(format!(
                "{}: {} to {} allowed, the army has {}",
                line.troops.join("/"),
                line.min,
                line.max,
                n
            ));
        }
    }
    let points: f32 = units.iter().map(|u| unit_cost(dbn, u)).sum::<f32>() + fortify_points;
    if (points - a.points).abs() > 1e-3 {
        errs.push(format!("the army costs {points} points, not {}", a.points));
    }
    let major = a.major_nations.iter().any(|n| n == nation);
    errs.extend(artillery_errors(a, units, nation));
    errs.extend(musket_errors(a, units, major));
    errs.extend(cavalry_errors(a, units, nation, major));
    errs.extend(superior_musket_errors(a, units, nation));
    let divided = units.iter().any(|u| u.division.is_some());
    for div in [Division::Left, Division::Right] {
        let cavalry = units.iter().any(|u| {
            u.division == Some(div) && matches!(u.troop.as_str(), "HC" | "DC" | "LC" | "IC")
        });
        if divided && !cavalry {
            errs.push(format!("the {div:?} flank division must include cavalry"));
        }
    }
    if units
        .iter()
        .any(|u| u.class == Class::Superior && !matches!(u.troop.as_str(), "Ms" | "DC"))
    {
        errs.push("only Ms and DC may be Superior (S)".into());
    }
    errs
}

fn count(units: &[&Unit], codes: &[&str]) -> u32 {
    units
        .iter()
        .filter(|u| codes.contains(&u.troop.as_str()))
        .count() as u32
}

/// Galloper guns and horse artillery: who may field them, and how many.
fn artillery_errors(a: &ArmyRules, units: &[&Unit], nation: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let count = |codes: &[&str]| count(units, codes);
    let ga = count(&["GA"]);
    if ga > 0 && !a.ga_nations.iter().any(|n| n == nation) {
        errs.push(format!(
            "only {} may exchange FA for GA",
            a.ga_nations.join(" and ")
        ));
    }
    if ga > 1 {
        errs.push("only one FA may be exchanged for GA".into());
    }
    let fah = count(&["FAH"]);
    if fah > 0 && !a.fah_nations.iter().any(|n| n == nation) {
        errs.push(format!(
            "only {} may field FA(H)",
            a.fah_nations.join(" and ")
        ));
    }
    if fah > 0 && count(&["FA", "GA"]) == 0 {
        errs.push(
            "FA(H) replaces a second unit of FA: the army needs another artillery unit".into(),
        );
    }
    if fah > 1 {
        errs.push("at most one FA(H)".into());
    }
    errs
}

/// Elite and militia Muskets by the nation's size.
fn musket_errors(a: &ArmyRules, units: &[&Unit], major: bool) -> Vec<String> {
    let mut errs = Vec::new();
    let ms: Vec<&&Unit> = units.iter().filter(|u| u.troop == "Ms").collect();
    let ms_n = ms.len() as f32;
    // "Up to 20% ... can be Elite (this includes Guard & Grenadiers)": Guard and Grenadier
    // Muskets count in the elite share whatever their class; Stoic is no class ("'Stoic' can be
    // in addition to Elite Class") and does not (ruling elite_share).
    let ms_elite = ms
        .iter()
        .filter(|u| u.class == Class::Elite || u.has(Flag::Guard) || u.has(Flag::Grenadier))
        .count() as f32;
    let ms_militia = ms.iter().filter(|u| u.class == Class::Militia).count() as f32;
    if major {
        if ms_n > 0.0 && ms_elite > (a.ms_elite_max_share * ms_n).ceil() + 1e-3 {
            errs.push(format!(
                "at most {:.0}% of Muskets may be elite, Guard and Grenadier Muskets included",
                a.ms_elite_max_share * 100.0
            ));
        }
        if ms_n > 0.0 && ms_militia > (a.major_ms_militia_max_share * ms_n).ceil() + 1e-3 {
            errs.push(format!(
                "a major nation has at most {:.0}% Ms(M)",
                a.major_ms_militia_max_share * 100.0
            ));
        }
    } else {
        if ms_elite > a.minor_ms_elite_max + 1e-3 {
            errs.push(format!(
                "minor nations usually field no Ms(E): at most {:.0} as the exception",
                a.minor_ms_elite_max
            ));
        }
        if ms_n > 0.0 && ms_militia < (a.minor_ms_militia_min_share * ms_n).ceil() - 1e-3 {
            errs.push(format!(
                "a minor nation has at least {:.0}% Ms(M)",
                a.minor_ms_militia_min_share * 100.0
            ));
        }
    }
    errs
}

/// Superior Muskets: which nations, and how many.
fn superior_musket_errors(a: &ArmyRules, units: &[&Unit], nation: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let ms: Vec<&&Unit> = units.iter().filter(|u| u.troop == "Ms").collect();
    let ms_n = ms.len() as f32;
    let ms_s = ms.iter().filter(|u| u.class == Class::Superior).count() as f32;
    if ms_s > 0.0 && !a.ms_superior_nations.iter().any(|n| n == nation) {
        errs.push(format!(
            "only {} Muskets may be Ms(S)",
            a.ms_superior_nations.join(" and ")
        ));
    } else if ms_s > (a.ms_superior_max_share * ms_n).ceil() + 1e-3 {
        errs.push(format!(
            "at most {:.0}% of Muskets may be Ms(S)",
            a.ms_superior_max_share * 100.0
        ));
    }
    errs
}

/// The heavy cavalry's share, elite and superior horse, and cavalry on each flank.
fn cavalry_errors(a: &ArmyRules, units: &[&Unit], nation: &str, major: bool) -> Vec<String> {
    let mut errs = Vec::new();
    let count = |codes: &[&str]| count(units, codes);
    let cav = count(&["HC", "DC", "LC", "IC"]) as f32;
    let hc = count(&["HC"]) as f32;
    let share = if major {
        a.major_hc_max_share
    } else {
        a.minor_hc_max_share
    };
    if cav > 0.0 && hc > (share * cav).ceil() + 1e-3 {
        errs.push(format!(
            "at most {:.0}% of the cavalry may be HC",
            share * 100.0
        ));
    }
    if units
        .iter()
        .any(|u| u.troop == "HC" && u.class == Class::Elite)
    {
        errs.push("Heavy Cavalry cannot be classed as Elite".into());
    }
    let dc = units.iter().filter(|u| u.troop == "DC").count() as u32;
    let dc_s = units
        .iter()
        .filter(|u| u.troop == "DC" && u.class == Class::Superior)
        .count() as u32;
    if dc_s > 0 && (!major || dc_s > dc / a.dc_superior_every.max(1)) {
        errs.push(format!(
            "only every {} DC of a major nation may be DC(S)",
            ordinal(a.dc_superior_every)
        ));
    }
    if units
        .iter()
        .any(|u| u.troop == "LC" && u.class == Class::Elite)
        && !a.lc_elite_nations.iter().any(|n| n == nation)
    {
        errs.push(format!(
            "only {} hussars are LC(E)",
            a.lc_elite_nations.join(", ")
        ));
    }
    errs
}

/// A count as an ordinal in words: 1st, 2nd, 3rd, 4th, 11th, 22nd.
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

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

#[cfg(test)]
mod tests {
    use super::ordinal;

    #[test]
    fn ordinals_in_words() {
        let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            words,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th"
            ]
        );
    }
}
