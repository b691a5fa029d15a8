//! Words an event shows with the typed kind the ruleset that wrote them decides by: what a roll
//! was for, why a unit took losses or halted, the going of a move.
//!
//! The log, the report and the JSON read the words; a ruleset that looks back at its own events
//! (a chip throwing a die again, the road bonus, a pursuit to where rout hits shattered a unit)
//! reads the kind, a type of its own set where the roll, loss or move was made. So rewording a
//! message changes no rule, and no shared type grows a variant for each ruleset.
//!
//! Only the words are serialized: an event written out and read back has the same words and no
//! kind. The rules never read such an event: a save is the scenario and its commands, and
//! loading one replays them, making every event again with its kind.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// Words with the kind they were written for (see the module's note).
#[derive(Clone, Default)]
pub struct Tagged {
    words: String,
    kind: Option<Arc<dyn Any + Send + Sync>>,
}

impl Tagged {
    /// `words`, written for `kind`.
    pub fn new<K: Any + Send + Sync>(kind: K, words: impl Into<String>) -> Self {
        Tagged {
            words: words.into(),
            kind: Some(Arc::new(kind)),
        }
    }

    /// The kind these words were written for, if it is a `K`.
    pub fn kind<K: Any>(&self) -> Option<&K> {
        self.kind.as_deref()?.downcast_ref()
    }

    pub fn as_str(&self) -> &str {
        &self.words
    }
}

/// Words with no kind: a ruleset whose rules never read them back, or an event read from JSON.
impl From<String> for Tagged {
    fn from(words: String) -> Self {
        Tagged { words, kind: None }
    }
}

impl From<&str> for Tagged {
    fn from(words: &str) -> Self {
        words.to_string().into()
    }
}

impl std::ops::Deref for Tagged {
    type Target = str;
    fn deref(&self) -> &str {
        &self.words
    }
}

impl fmt::Display for Tagged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words)
    }
}

/// As the words: an event's debug form is what it was before kinds were kept.
impl fmt::Debug for Tagged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.words, f)
    }
}

/// Two are equal when their words are: what every reader of an event sees, and all that an
/// event read back from JSON keeps.
impl PartialEq for Tagged {
    fn eq(&self, other: &Self) -> bool {
        self.words == other.words
    }
}

impl PartialEq<str> for Tagged {
    fn eq(&self, other: &str) -> bool {
        self.words == other
    }
}

impl PartialEq<&str> for Tagged {
    fn eq(&self, other: &&str) -> bool {
        self.words == *other
    }
}

impl Serialize for Tagged {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.words)
    }
}

impl<'de> Deserialize<'de> for Tagged {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Tagged::from)
    }
}

/// A kind with no words: what a ruleset decided an outcome was (the column a firing was read
/// on), kept beside an event whose words already say it. Kept in memory only, as `Tagged`'s
/// kind is: a field of this type is left out of the JSON (`#[serde(skip)]`), and it is no part
/// of an event's equality, so an event read back (with none) equals the one written.
#[derive(Clone, Default)]
pub struct Kind(Option<Arc<dyn Any + Send + Sync>>);

impl Kind {
    pub fn new<K: Any + Send + Sync>(kind: K) -> Self {
        Kind(Some(Arc::new(kind)))
    }

    /// The kind, if it is a `K`.
    pub fn get<K: Any>(&self) -> Option<&K> {
        self.0.as_deref()?.downcast_ref()
    }
}

impl PartialEq for Kind {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "Kind(..)" } else { "Kind" })
    }
}

#[cfg(test)]
mod tests {
    use super::{Kind, Tagged};

    #[derive(Debug, PartialEq)]
    enum Why {
        RoutHits,
    }

    #[test]
    fn the_kind_is_kept_in_memory_and_the_words_alone_are_written() {
        let t = Tagged::new(Why::RoutHits, "rout hits");
        assert_eq!(t.kind::<Why>(), Some(&Why::RoutHits));
        assert_eq!(t.kind::<u8>(), None);
        assert_eq!(serde_json::to_string(&t).unwrap(), "\"rout hits\"");
        assert_eq!(format!("{t:?}"), format!("{:?}", "rout hits"));
        let back: Tagged = serde_json::from_str("\"rout hits\"").unwrap();
        assert_eq!(back, t);
        assert_eq!(back.kind::<Why>(), None);
        assert!(t == "rout hits");
    }

    #[test]
    fn a_kind_is_read_back_by_its_type_and_equal_to_any_other() {
        let k = Kind::new(Why::RoutHits);
        assert_eq!(k.get::<Why>(), Some(&Why::RoutHits));
        assert_eq!(k.get::<u8>(), None);
        assert_eq!(Kind::default().get::<Why>(), None);
        assert_eq!(k, Kind::default());
    }
}
