//! The battle's records, its log (every event in order) and its commands, shared between a
//! battle and its copies.
//!
//! The opponent tries each command on a copy of the battle (`Game::fork`), hundreds of times
//! a bound. Copying a long game's records entry by entry was most of that work (at Rossbach's
//! turn 7, 72 of the 82 microseconds of a copy went on the log, 8 on the commands). So a
//! record keeps its older entries in one shared block (`Arc`): a copy shares it and owns only
//! the few entries written since, and a copy that writes more leaves the block alone. The
//! block takes in the newer entries once nothing else shares it, so they stay few.

use super::command::{Command, Event};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

/// Entries written since the shared block last took them in, above which it takes them in
/// (where nothing else shares it).
const OWN_AT_MOST: usize = 32;

/// Entries in the order written, oldest first.
#[derive(Clone)]
pub struct Record<T> {
    /// The older entries, shared with copies of the battle.
    shared: Arc<Vec<T>>,
    /// The entries after them.
    own: Vec<T>,
}

/// The events of a battle.
pub type Log = Record<Event>;
/// The commands a battle accepted.
pub type Commands = Record<Command>;
/// Some of a log's events, in order.
pub type Events<'a> = Iter<'a, Event>;

impl<T> Default for Record<T> {
    fn default() -> Self {
        Record {
            shared: Arc::new(Vec::new()),
            own: Vec::new(),
        }
    }
}

impl<T: Clone> Record<T> {
    pub fn new() -> Self {
        Record::default()
    }

    pub fn len(&self) -> usize {
        self.shared.len() + self.own.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entry at `i`, oldest first.
    pub fn get(&self, i: usize) -> Option<&T> {
        match i.checked_sub(self.shared.len()) {
            None => self.shared.get(i),
            Some(j) => self.own.get(j),
        }
    }

    pub fn last(&self) -> Option<&T> {
        self.own.last().or_else(|| self.shared.last())
    }

    /// Every entry, oldest first.
    pub fn iter(&self) -> Iter<'_, T> {
        self.since(0)
    }

    /// The entries from `i` on (none where `i` is past the end).
    pub fn since(&self, i: usize) -> Iter<'_, T> {
        let n = self.shared.len();
        let (a, b) = if i < n {
            (&self.shared[i..], &self.own[..])
        } else {
            (&[][..], &self.own[(i - n).min(self.own.len())..])
        };
        Iter {
            a: a.iter(),
            b: b.iter(),
        }
    }

    /// Writes an entry at the end.
    pub fn push(&mut self, e: T) {
        self.own.push(e);
        if self.own.len() <= OWN_AT_MOST {
            return;
        }
        if let Some(shared) = Arc::get_mut(&mut self.shared) {
            shared.append(&mut self.own);
        } else if self.own.len() > self.shared.len() {
            // Shared with a battle that lives on beside this one (a game played from a copy of
            // the scenario's battle): a block of its own, copied once its own entries are as
            // many as the shared ones, so the copying costs each entry a copy at most.
            let mut all = Vec::with_capacity(2 * self.len());
            all.extend(self.shared.iter().cloned());
            all.append(&mut self.own);
            self.shared = Arc::new(all);
        }
    }

    /// Keeps the first `len` entries.
    pub fn truncate(&mut self, len: usize) {
        match len.checked_sub(self.shared.len()) {
            Some(j) => self.own.truncate(j),
            None => {
                match Arc::get_mut(&mut self.shared) {
                    Some(shared) => shared.truncate(len),
                    None => self.shared = Arc::new(self.shared[..len].to_vec()),
                }
                self.own.clear();
            }
        }
    }

    /// The first `len` entries, as a record of their own (sharing the block).
    pub fn cut(&self, len: usize) -> Record<T> {
        let mut log = self.clone();
        log.truncate(len);
        log
    }

    pub fn to_vec(&self) -> Vec<T> {
        self.iter().cloned().collect()
    }
}

impl<T> From<Vec<T>> for Record<T> {
    fn from(entries: Vec<T>) -> Self {
        Record {
            shared: Arc::new(entries),
            own: Vec::new(),
        }
    }
}

impl<T: Clone> std::ops::Index<usize> for Record<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        match self.get(i) {
            Some(e) => e,
            None => panic!("record index {i} out of range for {} entries", self.len()),
        }
    }
}

impl<T: Clone + PartialEq> PartialEq for Record<T> {
    fn eq(&self, other: &Record<T>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<T: Clone + std::fmt::Debug> std::fmt::Debug for Record<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Clone + Serialize> Serialize for Record<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Record<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(d).map(Record::from)
    }
}

impl<'a, T: Clone> IntoIterator for &'a Record<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

/// The entries of a record in order: the shared block's, then the record's own.
pub struct Iter<'a, T> {
    a: std::slice::Iter<'a, T>,
    b: std::slice::Iter<'a, T>,
}

impl<T> Clone for Iter<'_, T> {
    fn clone(&self) -> Self {
        Iter {
            a: self.a.clone(),
            b: self.b.clone(),
        }
    }
}

impl<'a, T> Iter<'a, T> {
    /// These entries again, from the first not yet taken (as a slice's `iter`).
    pub fn iter(&self) -> Iter<'a, T> {
        self.clone()
    }
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;
    fn next(&mut self) -> Option<&'a T> {
        self.a.next().or_else(|| self.b.next())
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.a.len() + self.b.len();
        (n, Some(n))
    }
}

impl<T> DoubleEndedIterator for Iter<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.b.next_back().or_else(|| self.a.next_back())
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::model::Phase;

    fn ev(turn: u32) -> Event {
        Event::PhaseBegan {
            turn,
            phase: Phase::DEPLOYMENT,
            side: 0,
        }
    }

    fn turns<'a>(it: impl Iterator<Item = &'a Event>) -> Vec<u32> {
        it.map(|e| match e {
            Event::PhaseBegan { turn, .. } => *turn,
            _ => 0,
        })
        .collect()
    }

    #[test]
    fn a_copy_shares_the_older_events_and_each_writes_its_own() {
        let mut log = Log::new();
        for t in 0..100 {
            log.push(ev(t));
        }
        // Alone, the block took in all but the last few.
        assert!(log.own.len() <= OWN_AT_MOST);
        let mut copy = log.clone();
        for t in 100..150 {
            copy.push(ev(t));
        }
        // Shared, the block is left alone: the copy keeps what it wrote.
        assert_eq!(copy.shared.len(), log.shared.len());
        assert_eq!(log.len(), 100);
        assert_eq!(copy.len(), 150);
        assert_eq!(turns(copy.iter()), (0..150).collect::<Vec<_>>());
        assert_eq!(turns(log.iter()), (0..100).collect::<Vec<_>>());
        assert_eq!(turns(copy.since(95)), (95..150).collect::<Vec<_>>());
        assert_eq!(
            turns(copy.since(140).rev()),
            (140..150).rev().collect::<Vec<_>>()
        );
        assert_eq!(copy.since(150).count(), 0);
        assert_eq!(copy.since(999).count(), 0);
        assert_eq!(copy.get(120), Some(&ev(120)));
        assert_eq!(copy.last(), Some(&ev(149)));
        assert_eq!(copy.iter().rposition(|e| *e == ev(10)), Some(10));
        // Shared with a log that lives on, a copy that writes as many events as the block
        // holds takes a block of its own.
        for t in 150..300 {
            copy.push(ev(t));
        }
        assert!(copy.own.len() <= OWN_AT_MOST);
        assert!(copy.shared.len() > log.shared.len());
        assert_eq!(turns(copy.iter()), (0..300).collect::<Vec<_>>());
        assert_eq!(turns(log.iter()), (0..100).collect::<Vec<_>>());
        // Cut back into the shared block, the copy leaves the original whole.
        copy.truncate(40);
        assert_eq!(turns(copy.iter()), (0..40).collect::<Vec<_>>());
        assert_eq!(log.len(), 100);
        assert_eq!(log.cut(60), Log::from((0..60).map(ev).collect::<Vec<_>>()));
    }

    #[test]
    fn a_log_reads_back_as_the_list_it_was_written_as() {
        let mut log = Log::new();
        for t in 0..70 {
            log.push(ev(t));
        }
        let text = ron::to_string(&log).expect("written");
        let plain = ron::to_string(&(0..70).map(ev).collect::<Vec<_>>()).expect("written");
        assert_eq!(text, plain);
        let back: Log = ron::from_str(&text).expect("read");
        assert_eq!(back, log);
    }
}
