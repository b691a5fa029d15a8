//! A ruleset's own events, carried by the shared `Event` without it naming them.
//!
//! An event that only one ruleset emits (BBB's salvo, Hal's chips, DBN's command roll) is a type
//! of that ruleset's, kept in its folder (`ruleset/<id>/events.rs`). The shared `Event` carries
//! it in one variant, `Event::Own`, as an `OwnEvent`: the event behind a pointer to this
//! module's `ErasedEvent`, which the rulesets' event types implement through the rulesets'
//! typed door (`ruleset::common::RulesetEvent`). So a new ruleset adds its events in its own
//! folder and no shared type changes.
//!
//! What the outside sees of an own event is what it saw when the event was a variant of
//! `Event`: it is written as its own type writes it (`{"kind":"Salvo",...}`, the same keys in
//! the same order), its debug form is its own, and two are equal when they are of one type and
//! equal as that type. Read back from JSON (or any format that describes itself), it is the
//! ruleset's own type again: each ruleset registers its event type here (`OwnEventType`), and
//! the one type that reads the event takes it.
//!
//! This module names no ruleset and not the battle (the rulesets and the battle import the
//! events): an own event changes the battle through `ErasedEvent::apply_to`, which is handed
//! the battle type-erased and gives it to the ruleset's typed `apply`.

use super::roll::Roll;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// A ruleset's own event, type-erased. Implemented for every ruleset's event type by the
/// rulesets' typed door (`ruleset::common::RulesetEvent`); nothing else implements it.
pub trait ErasedEvent: Any + fmt::Debug + Send + Sync + erased_serde::Serialize {
    /// The event as `Any`, to read it back as its own type.
    fn as_any(&self) -> &dyn Any;
    /// Whether `other` is of this event's type and equal to it.
    fn same_as(&self, other: &dyn ErasedEvent) -> bool;
    /// Changes `battle` (the `Battle` the event happened in, type-erased because this module
    /// may not name it) as the event says.
    fn apply_to(&self, battle: &mut dyn Any);
    /// The rolls the event records, in the one shape every ruleset shares.
    fn rolls(&self) -> Vec<Roll>;
}

/// A ruleset's own event in the shared log (see the module's note).
#[derive(Clone)]
pub struct OwnEvent(Arc<dyn ErasedEvent>);

impl OwnEvent {
    pub fn new<E: ErasedEvent>(event: E) -> Self {
        OwnEvent(Arc::new(event))
    }

    /// The event, if it is an `E`.
    pub fn get<E: Any>(&self) -> Option<&E> {
        self.0.as_any().downcast_ref()
    }

    /// Changes `battle` as the event says (see `ErasedEvent::apply_to`).
    pub fn apply_to(&self, battle: &mut dyn Any) {
        self.0.apply_to(battle);
    }

    /// The rolls the event records.
    pub fn rolls(&self) -> Vec<Roll> {
        self.0.rolls()
    }
}

/// As the event's own: `Salvo { shooter: .. }`.
impl fmt::Debug for OwnEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl PartialEq for OwnEvent {
    fn eq(&self, other: &Self) -> bool {
        self.0.same_as(&*other.0)
    }
}

/// Written as the event's own type writes itself.
impl Serialize for OwnEvent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        erased_serde::serialize(&*self.0, s)
    }
}

/// A ruleset's event type, registered (`inventory::submit!(OwnEventType::of::<MyEvent>())`
/// beside the type) so that its events read back from JSON as that type.
pub struct OwnEventType {
    read: fn(&serde_json::Value) -> Option<OwnEvent>,
}

inventory::collect!(OwnEventType);

impl OwnEventType {
    /// The registration of `E`.
    pub const fn of<E>() -> Self
    where
        E: ErasedEvent + serde::de::DeserializeOwned,
    {
        OwnEventType { read: read::<E> }
    }
}

fn read<E: ErasedEvent + serde::de::DeserializeOwned>(v: &serde_json::Value) -> Option<OwnEvent> {
    E::deserialize(v).ok().map(OwnEvent::new)
}

/// The registered type that reads it. An event two types would read is refused rather than
/// guessed: two rulesets must not give one kind of event different meanings.
impl<'de> Deserialize<'de> for OwnEvent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        let mut read = inventory::iter::<OwnEventType>
            .into_iter()
            .filter_map(|t| (t.read)(&v));
        match (read.next(), read.next()) {
            (Some(e), None) => Ok(e),
            (Some(_), Some(_)) => Err(D::Error::custom(format!(
                "two rulesets' events read {}",
                kind_of(&v)
            ))),
            (None, _) => Err(D::Error::custom(format!(
                "no ruleset's event reads {}",
                kind_of(&v)
            ))),
        }
    }
}

/// "an event of kind 'Salvo'", for a refusal.
fn kind_of(v: &serde_json::Value) -> String {
    match v.get("kind") {
        Some(k) => format!("an event of kind {k}"),
        None => "an event without a kind".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "kind")]
    enum Sample {
        Tested {
            unit: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            note: Option<u32>,
        },
    }

    impl ErasedEvent for Sample {
        fn as_any(&self) -> &dyn Any {
            self
        }
        fn same_as(&self, other: &dyn ErasedEvent) -> bool {
            other.as_any().downcast_ref::<Self>() == Some(self)
        }
        fn apply_to(&self, battle: &mut dyn Any) {
            if let Some(n) = battle.downcast_mut::<u32>() {
                *n += 1;
            }
        }
        fn rolls(&self) -> Vec<Roll> {
            Vec::new()
        }
    }

    inventory::submit!(OwnEventType::of::<Sample>());

    #[test]
    fn an_own_event_is_written_as_its_type_and_read_back_as_it() {
        let e = OwnEvent::new(Sample::Tested {
            unit: "a".into(),
            note: None,
        });
        let text = serde_json::to_string(&e).unwrap();
        assert_eq!(text, r#"{"kind":"Tested","unit":"a"}"#);
        assert_eq!(format!("{e:?}"), r#"Tested { unit: "a", note: None }"#);
        let back: OwnEvent = serde_json::from_str(&text).unwrap();
        assert_eq!(back, e);
        assert!(back.get::<Sample>().is_some());
        assert!(back.get::<u32>().is_none());
        let other = OwnEvent::new(Sample::Tested {
            unit: "b".into(),
            note: None,
        });
        assert_ne!(other, e);
        let mut applied = 0u32;
        e.apply_to(&mut applied);
        assert_eq!(applied, 1);
        let unknown = serde_json::from_str::<OwnEvent>(r#"{"kind":"Nothing"}"#).unwrap_err();
        assert!(unknown.to_string().contains("\"Nothing\""), "{unknown}");
    }
}
