//! A unit's flags: the names a scenario writes (`flags: [Guard, Stoic]`) and the typed flags
//! of the ruleset that reads them.
//!
//! Each ruleset declares its flags as an enum of its own with `flags!`, which also registers
//! their names (`inventory::submit!`), and turns the scenario's names into its flags when it
//! prepares a unit (`Flags::read`), refusing those it has no use for. A scenario file is
//! checked against every registered name as it is read, so a misspelt flag is an error at its
//! line and column whatever the ruleset. No shared type lists the flags, and the rules test a
//! typed flag (`u.has(Flag::Guard)`), never a name.

use serde::de::{self, Deserializer, EnumAccess, VariantAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::any::Any;
use std::fmt;
use std::sync::OnceLock;

/// One ruleset's flags: an enum declared with `flags!`.
pub trait FlagSet: Any + Copy + Eq + fmt::Debug + Send + Sync {
    /// Every flag of the set.
    const ALL: &'static [Self];
    /// The name a scenario writes it with (the variant's).
    fn name(self) -> &'static str;
}

/// The names one ruleset's flags are written with, registered by `flags!`.
pub struct FlagNames(pub &'static [&'static str]);

inventory::collect!(FlagNames);

/// Declares a ruleset's flags: an enum whose variants are the names scenarios write, with
/// `FlagSet` and the registration of its names.
macro_rules! flags {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $($(#[$vm:meta])* $v:ident),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vm])* $v),*
        }

        impl $crate::rules::flag::FlagSet for $name {
            const ALL: &'static [Self] = &[$($name::$v),*];
            fn name(self) -> &'static str {
                match self {
                    $($name::$v => stringify!($v)),*
                }
            }
        }

        ::inventory::submit!($crate::rules::flag::FlagNames(&[$(stringify!($v)),*]));
    };
}
pub(crate) use flags;

/// A flag's name as a scenario writes it: one of the names the rulesets register.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FlagName(&'static str);

impl FlagName {
    /// Every registered name, in alphabetical order, each once.
    pub fn all() -> &'static [&'static str] {
        static ALL: OnceLock<Vec<&'static str>> = OnceLock::new();
        ALL.get_or_init(|| {
            let mut all: Vec<&'static str> = inventory::iter::<FlagNames>
                .into_iter()
                .flat_map(|r| r.0.iter().copied())
                .collect();
            all.sort_unstable();
            all.dedup();
            all
        })
    }

    /// The registered name spelt so.
    pub fn known(name: &str) -> Option<FlagName> {
        FlagName::all()
            .iter()
            .find(|n| **n == name)
            .map(|n| FlagName(n))
    }

    /// The name of a ruleset's flag.
    pub fn of<F: FlagSet>(f: F) -> FlagName {
        FlagName(f.name())
    }

    /// The flag of `F` of this name, if `F` has one.
    pub fn read<F: FlagSet>(self) -> Option<F> {
        F::ALL.iter().copied().find(|f| f.name() == self.0)
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }
}

/// As the name, bare: what the enum of every ruleset's flags printed.
impl fmt::Debug for FlagName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Display for FlagName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// As a unit variant of `Flag`: RON writes the bare name (`Guard`), as the enum did.
impl Serialize for FlagName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_unit_variant("Flag", 0, self.0)
    }
}

impl<'de> Deserialize<'de> for FlagName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_enum("Flag", FlagName::all(), NameVisitor)
    }
}

struct NameVisitor;

impl<'de> Visitor<'de> for NameVisitor {
    type Value = FlagName;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a flag")
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<FlagName, A::Error> {
        let (name, variant) = data.variant_seed(NameId)?;
        variant.unit_variant()?;
        Ok(name)
    }
}

struct NameId;

impl<'de> de::DeserializeSeed<'de> for NameId {
    type Value = FlagName;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<FlagName, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for NameId {
    type Value = FlagName;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a flag's name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<FlagName, E> {
        FlagName::known(v).ok_or_else(|| E::unknown_variant(v, FlagName::all()))
    }
}

/// One flag a unit carries: its name and, where the unit's ruleset has a flag of that name,
/// that flag.
#[derive(Clone, Copy)]
struct Carried {
    name: FlagName,
    flag: Option<&'static (dyn Any + Send + Sync)>,
}

/// The flags a unit carries, in the scenario's order.
#[derive(Clone, Default)]
pub struct Flags(Vec<Carried>);

impl Flags {
    /// The scenario's names, each typed as the flag of `F` of that name; a name `F` has no
    /// flag of is kept as a name only, for the unit's card.
    pub fn read<F: FlagSet>(names: &[FlagName]) -> Flags {
        Flags(
            names
                .iter()
                .map(|&name| Carried {
                    name,
                    flag: F::ALL
                        .iter()
                        .find(|f| f.name() == name.0)
                        .map(|f| f as &'static (dyn Any + Send + Sync)),
                })
                .collect(),
        )
    }

    /// Whether the unit carries `f`.
    pub fn has<F: FlagSet>(&self, f: F) -> bool {
        self.0
            .iter()
            .any(|c| c.flag.and_then(|k| k.downcast_ref::<F>()) == Some(&f))
    }

    /// Gives the unit `f` as well.
    pub fn push<F: FlagSet>(&mut self, f: F) {
        let flag = F::ALL.iter().find(|x| **x == f);
        self.0.push(Carried {
            name: FlagName::of(f),
            flag: flag.map(|f| f as &'static (dyn Any + Send + Sync)),
        });
    }

    /// The names, in the scenario's order.
    pub fn names(&self) -> impl Iterator<Item = FlagName> + '_ {
        self.0.iter().map(|c| c.name)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// As the list of names: `[Guard, Stoic]`, what a unit's card showed of the enum's list.
impl fmt::Debug for Flags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

/// Equal when the names are: the flags are the ruleset's reading of them.
impl PartialEq for Flags {
    fn eq(&self, other: &Self) -> bool {
        self.names().eq(other.names())
    }
}

/// Written as the names; read back as names only (no ruleset reads them then).
impl Serialize for Flags {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.names())
    }
}

impl<'de> Deserialize<'de> for Flags {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let names = Vec::<FlagName>::deserialize(d)?;
        Ok(Flags(
            names
                .into_iter()
                .map(|name| Carried { name, flag: None })
                .collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    flags! {
        enum Test { Steady, Shaky }
    }

    #[test]
    fn names_read_into_typed_flags_and_write_back_as_they_were() {
        let names: Vec<FlagName> = ron::from_str("[Steady, Shaky]").expect("registered");
        assert_eq!(ron::to_string(&names).unwrap(), "[Steady,Shaky]");
        let flags = Flags::read::<Test>(&names[..1]);
        assert!(flags.has(Test::Steady));
        assert!(!flags.has(Test::Shaky));
        assert_eq!(format!("{flags:?}"), "[Steady]");
        let err = ron::from_str::<Vec<FlagName>>("[Steddy]").unwrap_err();
        assert!(err.to_string().contains("`Steddy` in enum `Flag`"), "{err}");
    }
}
