//! DBN-family national army lists: a unit's cost by the data's cost rules, and the lines of
//! a nation's list, with their troop types and nations read as the supplement's types at load.

use super::{Dbn, DbnData, ListLine, troop_type, typed_names};
use crate::rules::model::{Class, SideInfo, Unit};
use crate::rules::ruleset::common::RulesKey;
use crate::rules::terrain::Terrain;

crate::rules::flag::flags! {
    /// The flags a DBN-family unit may carry (DB7YW takes the first four, DBFPW Guard, Fixed
    /// and its own three), as scenarios and the army lists write them.
    #[derive(serde::Serialize, serde::Deserialize)]
    pub enum Flag {
        /// Guard: stoic in all combat (DB7YW); the guard of the army lists (DBFPW).
        Guard,
        /// Grenadiers (Prussian grenadiers are stoic in all combat).
        Grenadier,
        /// Stoic by scenario (a named historical unit).
        Stoic,
        /// Fixed artillery: emplaced guns that may not move at all.
        Fixed,
        /// Lancers (DBFPW light cavalry that fight as heavy).
        Lancer,
        /// Zouaves, North Africans, Chasseurs d'Afrique (DBFPW: close combat as elite).
        Zouave,
        /// Bavarian infantry (DBFPW: Poor, but close combat as regular line).
        Bavarian,
    }
}

/// A data file's cost rules and national lists with their troop types (`T`) and nations
/// (`Nat`) read at load, rule for rule and line for line with the data's `army`, whose words
/// the errors quote.
#[derive(Clone, Debug)]
pub struct TypedLists<T, Nat> {
    /// Types that cost no points.
    free: Vec<T>,
    /// Each cost rule's troop types and nations.
    costs: Vec<(Vec<T>, Vec<Nat>)>,
    /// Each list's nations, and the troop types of each of its lines.
    lists: Vec<(Vec<Nat>, Vec<Vec<T>>)>,
}

impl<T: RulesKey + PartialEq, Nat: RulesKey + PartialEq> TypedLists<T, Nat> {
    /// Reads the data's cost rules and lists, refusing with the file a troop code or nation
    /// the supplement does not know.
    pub fn read(data: &DbnData) -> Result<Self, String> {
        let file = data.file();
        let troops = |codes: &[String]| typed_names::<T>(codes, &file, "troop type");
        let nations = |names: &[String]| typed_names::<Nat>(names, &file, "nation");
        let a = &data.army;
        Ok(TypedLists {
            free: troops(&a.free)?,
            costs: a
                .costs
                .iter()
                .map(|r| Ok((troops(&r.troops)?, nations(&r.nations)?)))
                .collect::<Result<_, String>>()?,
            lists: a
                .lists
                .iter()
                .map(|l| {
                    let lines = l.lines.iter().map(|x| troops(&x.troops));
                    Ok((nations(&l.nations)?, lines.collect::<Result<_, _>>()?))
                })
                .collect::<Result<_, String>>()?,
        })
    }
}

/// Whether a cost rule or list line's qualifiers fit a unit of type `t`.
fn fits<T: PartialEq>(
    troops: &[T],
    class: Option<Class>,
    flag: Option<Flag>,
    u: &Unit,
    t: T,
) -> bool {
    (troops.is_empty() || troops.contains(&t))
        && class.is_none_or(|c| c == u.class)
        && flag.is_none_or(|f| u.has(f))
}

/// A national list's line (of these troop types) counts the unit: its type, its class (any,
/// when the line names none) and its flag.
fn line_counts<T: PartialEq>(l: &ListLine, types: &[T], u: &Unit, t: T) -> bool {
    fits(types, l.class, l.flag, u, t) && (l.classes.is_empty() || l.classes.contains(&u.class))
}

/// A national list's line (of these troop types) allows the unit at all: it names the type
/// without a flag, and names the unit's class, or names no class and the unit is Regular (the
/// lists name every Elite and Poor unit they allow).
fn line_allows<T: PartialEq>(l: &ListLine, types: &[T], u: &Unit, t: T) -> bool {
    let named = l.class == Some(u.class) || l.classes.contains(&u.class);
    let plain = l.class.is_none() && l.classes.is_empty() && u.class == Class::Regular;
    types.contains(&t) && l.flag.is_none() && (named || plain)
}

/// Points cost of one unit of a side of this nation (None: one the supplement does not name)
/// by the data's cost rules: the base cost adjusted by every rule that fits, unless a rule
/// that fits sets the cost outright (the last such rule wins).
pub fn listed_cost<T: RulesKey + PartialEq, Nat: RulesKey + PartialEq>(
    dbn: &Dbn,
    typed: &TypedLists<T, Nat>,
    u: &Unit,
    nation: Option<Nat>,
) -> f32 {
    let a = &dbn.data.army;
    let t = troop_type::<T>(u);
    if typed.free.contains(&t) {
        return 0.0;
    }
    let mut c = a.base_cost;
    let mut set = None;
    for (r, (types, nations)) in a.costs.iter().zip(&typed.costs) {
        let of_nation = nations.is_empty() || nation.is_some_and(|n| nations.contains(&n));
        if !fits(types, r.class, r.flag, u, t) || !of_nation {
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

/// Every reason a side's army (of this nation, None where the supplement does not name it)
/// breaks its national list: points (with prepared fortifications at `works_cost` per unit
/// inside one), each line's minimum and maximum, and units that fit no line.
#[expect(
    clippy::too_many_arguments,
    reason = "the side's army, its nation, the table and the supplement's prices and words"
)]
pub fn validate_lists<T: RulesKey + PartialEq, Nat: RulesKey + PartialEq>(
    dbn: &Dbn,
    typed: &TypedLists<T, Nat>,
    units: &[&Unit],
    side: &SideInfo,
    nation: Option<Nat>,
    terrain: &Terrain,
    works_cost: f32,
    class_name: &dyn Fn(Class) -> String,
) -> Vec<String> {
    let a = &dbn.data.army;
    let mut errs = Vec::new();
    let found = a
        .lists
        .iter()
        .zip(&typed.lists)
        .find(|(_, (nations, _))| nation.is_some_and(|n| nations.contains(&n)));
    let Some((list, (_, line_types))) = found else {
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
        .map(|u| listed_cost(dbn, typed, u, nation))
        .sum::<f32>()
        + works;
    if cost > a.points + 1e-3 {
        errs.push(format!(
            "the army costs {cost:.2} points (prepared fortifications {works:.1}); the {} list allows {}",
            list.name, a.points
        ));
    }
    for (line, types) in list.lines.iter().zip(line_types) {
        let n = units
            .iter()
            .filter(|u| line_counts(line, types, u, troop_type::<T>(u)))
            .count() as u32;
        if n < line.min || n > line.max {
            errs.push(format!(
                "{}: {} has {n} ({})",
                list.name, line.words, list.source
            ));
        }
    }
    for u in units {
        let t = troop_type::<T>(u);
        let covered = list
            .lines
            .iter()
            .zip(line_types)
            .any(|(l, types)| line_allows(l, types, u, t));
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
