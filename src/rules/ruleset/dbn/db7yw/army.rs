//! DB7YW's army lists: points costs, composition, and what each nation may field.

use super::data::{Nation, TroopType, TypedArmy, nation_named, troop};
use crate::rules::model::{Class, Division, SideInfo, Unit};
use crate::rules::ruleset::dbn::Flag;
use crate::rules::ruleset::dbn::{ArmyRules, Dbn, FortifyCosts};
use crate::rules::terrain::{FeatureKind, Terrain};
use TroopType::{
    Dragoons, FootArtillery, GalloperArtillery, HeavyCavalry, HeavyFootArtillery, IrregularCavalry,
    LightCavalry, Muskets,
};

/// Points cost of one unit (the CinC and baggage are free).
pub(super) fn unit_cost(dbn: &Dbn, typed: &TypedArmy, u: &Unit) -> f32 {
    let a = &dbn.data.army;
    if typed.free.contains(&troop(u)) {
        return 0.0;
    }
    let mut c = a.base_cost;
    match u.class {
        Class::Elite => c += a.elite_cost,
        Class::Militia => c += a.militia_cost,
        Class::Superior if matches!(troop(u), Muskets | Dragoons) => c += a.superior_cost,
        _ => {}
    }
    if troop(u) == IrregularCavalry {
        c += a.ic_cost;
    }
    c
}

/// Every reason a side's army breaks the army list, counting the defender's fortifications
/// at what fortifying costs.
pub(super) fn validate_side(
    dbn: &Dbn,
    typed: &TypedArmy,
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
    validate_army(dbn, typed, units, &side.nation, fort)
}

/// Every reason the army list is invalid; empty when it is a legal 16-point army.
fn validate_army(
    dbn: &Dbn,
    typed: &TypedArmy,
    units: &[&Unit],
    nation: &str,
    fortify_points: f32,
) -> Vec<String> {
    let a = &dbn.data.army;
    let mut errs = Vec::new();
    for (line, types) in a.composition.iter().zip(&typed.composition) {
        let n = count(units, types);
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
    let points: f32 = units.iter().map(|u| unit_cost(dbn, typed, u)).sum::<f32>() + fortify_points;
    if (points - a.points).abs() > 1e-3 {
        errs.push(format!("the army costs {points} points, not {}", a.points));
    }
    let nation = nation_named(nation);
    let named = |list: &[Nation]| nation.is_some_and(|n| list.contains(&n));
    let major = named(&typed.major);
    errs.extend(artillery_errors(
        a,
        units,
        named(&typed.galloper),
        named(&typed.heavy_foot_artillery),
    ));
    errs.extend(musket_errors(a, units, major));
    errs.extend(cavalry_errors(
        a,
        units,
        named(&typed.elite_light_cavalry),
        major,
    ));
    errs.extend(superior_musket_errors(
        a,
        units,
        named(&typed.superior_muskets),
    ));
    let divided = units.iter().any(|u| u.division.is_some());
    for div in [Division::Left, Division::Right] {
        let cavalry = units.iter().any(|u| {
            u.division == Some(div)
                && matches!(
                    troop(u),
                    HeavyCavalry | Dragoons | LightCavalry | IrregularCavalry
                )
        });
        if divided && !cavalry {
            errs.push(format!("the {div:?} flank division must include cavalry"));
        }
    }
    if units
        .iter()
        .any(|u| u.class == Class::Superior && !matches!(troop(u), Muskets | Dragoons))
    {
        errs.push("only Ms and DC may be Superior (S)".into());
    }
    errs
}

fn count(units: &[&Unit], types: &[TroopType]) -> u32 {
    units.iter().filter(|u| types.contains(&troop(u))).count() as u32
}

/// Galloper guns and horse artillery: who may field them, and how many.
/// `galloper` and `heavy`: the nation may field GA and FA(H).
fn artillery_errors(a: &ArmyRules, units: &[&Unit], galloper: bool, heavy: bool) -> Vec<String> {
    let mut errs = Vec::new();
    let count = |types: &[TroopType]| count(units, types);
    let ga = count(&[GalloperArtillery]);
    if ga > 0 && !galloper {
        errs.push(format!(
            "only {} may exchange FA for GA",
            a.ga_nations.join(" and ")
        ));
    }
    if ga > 1 {
        errs.push("only one FA may be exchanged for GA".into());
    }
    let fah = count(&[HeavyFootArtillery]);
    if fah > 0 && !heavy {
        errs.push(format!(
            "only {} may field FA(H)",
            a.fah_nations.join(" and ")
        ));
    }
    if fah > 0 && count(&[FootArtillery, GalloperArtillery]) == 0 {
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
    let ms: Vec<&&Unit> = units.iter().filter(|u| troop(u) == Muskets).collect();
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
/// `allowed`: the nation may field Ms(S).
fn superior_musket_errors(a: &ArmyRules, units: &[&Unit], allowed: bool) -> Vec<String> {
    let mut errs = Vec::new();
    let ms: Vec<&&Unit> = units.iter().filter(|u| troop(u) == Muskets).collect();
    let ms_n = ms.len() as f32;
    let ms_s = ms.iter().filter(|u| u.class == Class::Superior).count() as f32;
    if ms_s > 0.0 && !allowed {
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
/// `elite_light`: the nation may field LC(E).
fn cavalry_errors(a: &ArmyRules, units: &[&Unit], elite_light: bool, major: bool) -> Vec<String> {
    let mut errs = Vec::new();
    let count = |types: &[TroopType]| count(units, types);
    let cav = count(&[HeavyCavalry, Dragoons, LightCavalry, IrregularCavalry]) as f32;
    let hc = count(&[HeavyCavalry]) as f32;
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
        .any(|u| troop(u) == HeavyCavalry && u.class == Class::Elite)
    {
        errs.push("Heavy Cavalry cannot be classed as Elite".into());
    }
    let dc = units.iter().filter(|u| troop(u) == Dragoons).count() as u32;
    let dc_s = units
        .iter()
        .filter(|u| troop(u) == Dragoons && u.class == Class::Superior)
        .count() as u32;
    if dc_s > 0 && (!major || dc_s > dc / a.dc_superior_every.max(1)) {
        errs.push(format!(
            "only every {} DC of a major nation may be DC(S)",
            ordinal(a.dc_superior_every)
        ));
    }
    if units
        .iter()
        .any(|u| troop(u) == LightCavalry && u.class == Class::Elite)
        && !elite_light
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
