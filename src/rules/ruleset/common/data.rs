//! Rules numbers and factors read from data with their sources, by typed key, and the
//! optional rules a scenario switches on.

use super::super::view::RefRow;
use crate::rules::command::Factor;
use serde::{Deserialize, Serialize};

/// A tactical factor with its value and source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FactorDef {
    pub key: String,
    pub name: String,
    pub value: i32,
    pub source: String,
}

/// A rules number with its source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Number {
    pub key: String,
    pub value: f32,
    pub source: String,
}

/// The keys of one ruleset's rules numbers or factors, each named once in the engine: made by
/// `rules_keys!`. A key the engine reads that its data lacks, or one the data gives that the
/// engine does not know, is a load error: a rules number is never read as 0 by mistake.
pub trait RulesKey: Copy + std::fmt::Debug + 'static {
    /// Every key, in the enum's order.
    const ALL: &'static [Self];
    /// The key as the data file writes it.
    fn key(self) -> &'static str;
    /// Its place in `ALL`.
    fn index(self) -> usize;
}

/// An enum of rules keys with the words the data file uses for each:
/// `rules_keys! { pub enum N { MoveGg = "move_gg", Range = "range" } }`.
#[macro_export]
macro_rules! rules_keys {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name { $($(#[$vm])* $v),* }
        impl $crate::rules::ruleset::common::RulesKey for $name {
            const ALL: &'static [Self] = &[$(Self::$v),*];
            fn key(self) -> &'static str {
                match self { $(Self::$v => $s),* }
            }
            fn index(self) -> usize {
                self as usize
            }
        }
    };
}

/// The line (from 1) of a data file that gives `key`, for load errors.
pub fn line_of(text: &str, key: &str) -> Option<usize> {
    let quoted = format!("\"{key}\"");
    text.lines()
        .position(|l| l.contains("key:") && l.contains(&quoted))
        .map(|i| i + 1)
}

/// Values by typed key, every key present: built at load from a data list.
#[derive(Clone, Debug, PartialEq)]
pub struct Keyed<K, V> {
    values: Vec<V>,
    keys: std::marker::PhantomData<K>,
}

impl<K: RulesKey, V> Keyed<K, V> {
    /// Takes every key of `K` from `list` (each entry's key by `key_of`), refusing, with the
    /// file and line, a key the list lacks, gives twice, or that `K` does not know.
    pub fn take<T>(
        list: &[T],
        key_of: impl Fn(&T) -> &str,
        value: impl Fn(&T) -> V,
        file: &str,
        text: &str,
        what: &str,
    ) -> Result<Self, String> {
        for (i, t) in list.iter().enumerate() {
            let k = key_of(t);
            let at = line_of(text, k)
                .map(|l| format!("{file}:{l}"))
                .unwrap_or(file.to_string());
            if !K::ALL.iter().any(|x| x.key() == k) {
                return Err(format!("{at}: the {what} '{k}' is not one the rules read"));
            }
            if list[..i].iter().any(|o| key_of(o) == k) {
                return Err(format!("{at}: the {what} '{k}' is given twice"));
            }
        }
        let values = K::ALL
            .iter()
            .map(|k| {
                list.iter()
                    .find(|t| key_of(t) == k.key())
                    .map(&value)
                    .ok_or_else(|| format!("{file}: the {what} '{}' is missing", k.key()))
            })
            .collect::<Result<Vec<V>, String>>()?;
        Ok(Keyed {
            values,
            keys: std::marker::PhantomData,
        })
    }

    pub fn get(&self, k: K) -> &V {
        &self.values[k.index()]
    }
}

impl<K: RulesKey> Keyed<K, f32> {
    /// The rules numbers of a data file.
    pub fn numbers(list: &[Number], file: &str, text: &str) -> Result<Self, String> {
        Self::take(list, |n| &n.key, |n| n.value, file, text, "rules number")
    }
}

impl<K: RulesKey> Keyed<K, Factor> {
    /// A data file's list of factors.
    pub fn factors(list: &[FactorDef], file: &str, text: &str) -> Result<Self, String> {
        Self::take(
            list,
            |f| &f.key,
            |f| Factor {
                name: f.name.clone(),
                value: f.value,
                source: f.source.clone(),
            },
            file,
            text,
            "factor",
        )
    }
}

/// A rules number's value (0 when absent: loading refuses data lacking a required one).
pub fn number(list: &[Number], key: &str) -> f32 {
    list.iter()
        .find(|n| n.key == key)
        .map(|n| n.value)
        .unwrap_or(0.0)
}

/// Refuses ruleset data lacking any of the `required` numbers.
pub fn require_numbers(list: &[Number], required: &[&str]) -> Result<(), String> {
    match required.iter().find(|k| !list.iter().any(|n| n.key == **k)) {
        Some(k) => Err(format!("ruleset data lacks the number '{k}'")),
        None => Ok(()),
    }
}

/// A factor of a data list as a roll factor with its source.
pub fn factor_in(list: &[FactorDef], key: &str) -> Factor {
    match list.iter().find(|f| f.key == key) {
        Some(f) => Factor {
            name: f.name.clone(),
            value: f.value,
            source: f.source.clone(),
        },
        None => Factor {
            name: key.to_string(),
            value: 0,
            source: "missing from data".to_string(),
        },
    }
}

/// Rows of a factor list for the rules reference.
pub fn factor_rows(list: &[FactorDef]) -> Vec<RefRow> {
    list.iter()
        .map(|f| RefRow {
            cells: vec![format!("{:+}  {}", f.value, f.name)],
            source: f.source.clone(),
        })
        .collect()
}

/// Rows of a numbers list for the rules reference.
pub fn number_rows(list: &[Number]) -> Vec<RefRow> {
    list.iter()
        .map(|n| RefRow {
            cells: vec![format!("{} = {}", n.key, n.value)],
            source: n.source.clone(),
        })
        .collect()
}

/// The optional rules asked for, checked against those the ruleset knows: each once, in the
/// order asked; an unknown one refused with the known ones named.
pub fn choose_options(known: &[&str], asked: &[String]) -> Result<Vec<String>, String> {
    let mut chosen: Vec<String> = Vec::new();
    for o in asked {
        if !known.contains(&o.as_str()) {
            return Err(format!(
                "unknown optional rule '{o}' (known: {})",
                known.join(", ")
            ));
        }
        if !chosen.contains(o) {
            chosen.push(o.clone());
        }
    }
    Ok(chosen)
}

#[cfg(test)]
mod keyed_tests {
    use super::*;

    crate::rules_keys! {
        enum K { Move = "move", Range = "range" }
    }

    fn n(key: &str, value: f32) -> Number {
        Number {
            key: key.into(),
            value,
            source: "s".into(),
        }
    }

    #[test]
    fn every_key_is_read_and_none_is_unknown_or_missing() {
        let text = "numbers: [\n  (key: \"move\", value: 4.0),\n  (key: \"range\", value: 9.0),\n  (key: \"rnage\", value: 1.0),\n]";
        let t = Keyed::<K, f32>::numbers(&[n("move", 4.0), n("range", 9.0)], "f.ron", text);
        let t = t.expect("both keys given");
        assert_eq!((*t.get(K::Move), *t.get(K::Range)), (4.0, 9.0));
        let missing = Keyed::<K, f32>::numbers(&[n("move", 4.0)], "f.ron", text);
        assert_eq!(
            missing,
            Err("f.ron: the rules number 'range' is missing".into())
        );
        let typo = Keyed::<K, f32>::numbers(
            &[n("move", 4.0), n("range", 9.0), n("rnage", 1.0)],
            "f.ron",
            text,
        );
        assert_eq!(
            typo,
            Err("f.ron:4: the rules number 'rnage' is not one the rules read".into())
        );
        let twice = Keyed::<K, f32>::numbers(
            &[n("move", 4.0), n("range", 9.0), n("move", 3.0)],
            "f.ron",
            text,
        );
        assert_eq!(
            twice,
            Err("f.ron:2: the rules number 'move' is given twice".into())
        );
    }
}

/// A data file's rows found by their code (a troop type's), the index made on first use: every
/// rule asks a unit's row by its code, and comparing the code with each row's text was a tenth
/// of a game's time. Made from the rows, so it takes no part in comparing two tables.
#[derive(Clone, Debug, Default)]
pub struct CodeIndex(
    std::sync::OnceLock<
        std::collections::HashMap<
            String,
            usize,
            std::hash::BuildHasherDefault<crate::rules::model::Fnv>,
        >,
    >,
);

impl PartialEq for CodeIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl CodeIndex {
    /// The first of `rows` whose code (`code_of`) is `code`. The row the index gives is checked
    /// against the code; were the rows changed after the index was made, the code is searched
    /// for as without one.
    pub fn find<'a, T>(
        &self,
        rows: &'a [T],
        code: &str,
        code_of: impl Fn(&T) -> &str,
    ) -> Option<&'a T> {
        let index = self.0.get_or_init(|| {
            let mut m = std::collections::HashMap::default();
            for (i, t) in rows.iter().enumerate() {
                m.entry(code_of(t).to_string()).or_insert(i);
            }
            m
        });
        match index.get(code).and_then(|&i| rows.get(i)) {
            Some(t) if code_of(t) == code => Some(t),
            _ => rows.iter().find(|t| code_of(t) == code),
        }
    }
}
