//! The phases of a turn: a name each ruleset gives its steps, with the two every game has
//! (deployment and game over) declared here and the rest where each ruleset declares its turn.
//!
//! A phase is a small value over a static description. A ruleset declares its phases as
//! constants (`pub const ASSAULT: Phase = Phase::new(&PhaseInfo { .. })`), matches on them like
//! enum variants, and registers them with `inventory::submit!(Phases(&[..]))`, so that a phase
//! read back from an event's JSON is found by its id without this file naming any ruleset. Two
//! rulesets whose turns share a step by name ("Movement") declare it each with the same id and
//! words, and the two are equal, as they were when phases were one enum.
//!
//! A phase is written as its id, as a unit variant of `Phase`: `"DefensiveFire"` in JSON,
//! `DefensiveFire` in RON, exactly what the enum of every ruleset's phases wrote.

use serde::de::{self, Deserializer, EnumAccess, VariantAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use std::sync::OnceLock;

/// What a phase is: the id it is written with and its name in words.
#[derive(PartialEq, Eq, Hash)]
pub struct PhaseInfo {
    /// Written in events and the JSON (`"DefensiveFire"`): one word, in the style of a variant.
    pub id: &'static str,
    /// In words, for the turn bar and the log ("defensive fire").
    pub name: &'static str,
}

/// A phase of a turn. Equal when id and words are (two declarations of one id must agree:
/// the registry's test checks it), so constants of it serve as match patterns.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Phase(&'static PhaseInfo);

/// The phases a ruleset's turn has, registered where the ruleset declares them.
pub struct Phases(pub &'static [Phase]);

inventory::collect!(Phases);

impl Phase {
    /// Before the first turn, while the sides place their units.
    pub const DEPLOYMENT: Phase = Phase(&PhaseInfo {
        id: "Deployment",
        name: "deployment",
    });
    /// After the battle has ended: no command is taken.
    pub const GAME_OVER: Phase = Phase(&PhaseInfo {
        id: "GameOver",
        name: "game over",
    });

    pub const fn new(info: &'static PhaseInfo) -> Phase {
        Phase(info)
    }

    /// The phase in words ("defensive fire").
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// The id it is written with ("DefensiveFire").
    pub fn id(self) -> &'static str {
        self.0.id
    }

    /// Every phase a ruleset has registered, and the two shared ones, each id once.
    pub fn all() -> &'static [Phase] {
        static ALL: OnceLock<Vec<Phase>> = OnceLock::new();
        ALL.get_or_init(|| {
            let mut all = vec![Phase::DEPLOYMENT, Phase::GAME_OVER];
            for p in inventory::iter::<Phases>.into_iter().flat_map(|r| r.0) {
                if !all.iter().any(|a| a.id() == p.id()) {
                    all.push(*p);
                }
            }
            all.sort_by_key(|p| p.id());
            all
        })
    }

    /// The registered phase of this id.
    pub fn from_id(id: &str) -> Option<Phase> {
        Phase::all().iter().copied().find(|p| p.id() == id)
    }

    fn ids() -> &'static [&'static str] {
        static IDS: OnceLock<Vec<&'static str>> = OnceLock::new();
        IDS.get_or_init(|| Phase::all().iter().map(|p| p.id()).collect())
    }
}

/// As the id: what the enum of phases printed.
impl fmt::Debug for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.id)
    }
}

impl Serialize for Phase {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The index is not written by JSON or RON, the only formats phases are written in.
        s.serialize_unit_variant("Phase", 0, self.0.id)
    }
}

impl<'de> Deserialize<'de> for Phase {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_enum("Phase", Phase::ids(), PhaseVisitor)
    }
}

struct PhaseVisitor;

impl<'de> Visitor<'de> for PhaseVisitor {
    type Value = Phase;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a phase")
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Phase, A::Error> {
        let (phase, variant) = data.variant_seed(PhaseId)?;
        variant.unit_variant()?;
        Ok(phase)
    }

    /// JSON hands a unit variant over as a bare string.
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Phase, E> {
        PhaseId.visit_str(v)
    }
}

struct PhaseId;

impl<'de> de::DeserializeSeed<'de> for PhaseId {
    type Value = Phase;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Phase, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for PhaseId {
    type Value = Phase;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a phase's id")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Phase, E> {
        Phase::from_id(v).ok_or_else(|| E::unknown_variant(v, Phase::ids()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phase_is_written_as_its_id_and_read_back_by_it() {
        let json = serde_json::to_string(&Phase::GAME_OVER).unwrap();
        assert_eq!(json, "\"GameOver\"");
        let back: Phase = serde_json::from_str(&json).unwrap();
        assert_eq!(back, Phase::GAME_OVER);
        assert_eq!(ron::to_string(&Phase::DEPLOYMENT).unwrap(), "Deployment");
        let back: Phase = ron::from_str("Deployment").unwrap();
        assert_eq!(back, Phase::DEPLOYMENT);
        assert!(serde_json::from_str::<Phase>("\"Nap\"").is_err());
    }

    #[test]
    fn every_registered_id_has_one_name() {
        let all: Vec<Phase> = inventory::iter::<Phases>
            .into_iter()
            .flat_map(|r| r.0.iter().copied())
            .collect();
        assert!(all.len() > 2, "the rulesets register their phases");
        for p in &all {
            assert_eq!(Phase::from_id(p.id()), Some(*p), "{} has one name", p.id());
        }
    }
}
