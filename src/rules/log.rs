//! The battle's log: every event in order, shared between a battle and its copies.
//!
//! The opponent tries each command on a copy of the battle (`Battle::fork`), hundreds of times
//! a bound. Copying a long game's log event by event was most of that work (at Rossbach's turn
//! 7, 72 of the 82 microseconds of a copy). So the log keeps its older events in one shared
//! block (`Arc`): a copy shares it and owns only the few events written since, and a copy
//! that writes more leaves the block alone. The block takes in the newer events once nothing
//! else shares it, so they stay few.

use super::command::Event;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

/// Events written since the shared block last took them in, above which it takes them in
/// (where nothing else shares it).
const OWN_AT_MOST: usize = 32;

/// The events of a battle, oldest first.
#[derive(Clone, Default)]
pub struct Log {
    /// The older events, shared with copies of the battle.
    shared: Arc<Vec<Event>>,
    /// The events after them.
    own: Vec<Event>,
}

impl Log {
    pub fn new() -> Self {
        Log::default()
    }

    pub fn len(&self) -> usize {
        self.shared.len() + self.own.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The event at `i`, oldest first.
    pub fn get(&self, i: usize) -> Option<&Event> {
        match i.checked_sub(self.shared.len()) {
            None => self.shared.get(i),
            Some(j) => self.own.get(j),
        }
    }

    pub fn last(&self) -> Option<&Event> {
        self.own.last().or_else(|| self.shared.last())
    }

    /// Every event, oldest first.
    pub fn iter(&self) -> Iter<'_> {
        self.since(0)
    }

    /// The events from `i` on (none where `i` is past the end).
    pub fn since(&self, i: usize) -> Iter<'_> {
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

    /// Writes an event at the end.
    pub fn push(&mut self, e: Event) {
        self.own.push(e);
        if self.own.len() <= OWN_AT_MOST {
            return;
        }
        if let Some(shared) = Arc::get_mut(&mut self.shared) {
            shared.append(&mut self.own);
        } else if self.own.len() > self.shared.len() {
            // Shared with a battle that lives on beside this one (a game played from a copy of
            // the scenario's battle): a block of its own, copied once its own events are as
            // many as the shared ones, so the copying costs each event a copy at most.
            let mut all = Vec::with_capacity(2 * self.len());
            all.extend(self.shared.iter().cloned());
            all.append(&mut self.own);
            self.shared = Arc::new(all);
        }
    }

    /// Keeps the first `len` events.
    pub fn truncate(&mut self, len: usize) {
        match len.checked_sub(self.shared.len()) {
            Some(j) => self.own.truncate(j),
            None => {
                Arc::make_mut(&mut self.shared).truncate(len);
                self.own.clear();
            }
        }
    }

    /// The first `len` events, as a log of their own (sharing the block).
    pub fn cut(&self, len: usize) -> Log {
        let mut log = self.clone();
        log.truncate(len);
        log
    }

    pub fn to_vec(&self) -> Vec<Event> {
        self.iter().cloned().collect()
    }
}

impl From<Vec<Event>> for Log {
    fn from(events: Vec<Event>) -> Self {
        Log {
            shared: Arc::new(events),
            own: Vec::new(),
        }
    }
}

impl std::ops::Index<usize> for Log {
    type Output = Event;
    fn index(&self, i: usize) -> &Event {
        match self.get(i) {
            Some(e) => e,
            None => panic!("log index {i} out of range for {} events", self.len()),
        }
    }
}

impl PartialEq for Log {
    fn eq(&self, other: &Log) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Log {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Log {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<Event>::deserialize(d).map(Log::from)
    }
}

impl<'a> IntoIterator for &'a Log {
    type Item = &'a Event;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The events of a log in order: the shared block's, then the log's own.
#[derive(Clone)]
pub struct Iter<'a> {
    a: std::slice::Iter<'a, Event>,
    b: std::slice::Iter<'a, Event>,
}

impl<'a> Iter<'a> {
    /// These events again, from the first not yet taken (as a slice's `iter`).
    pub fn iter(&self) -> Iter<'a> {
        self.clone()
    }
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Event;
    fn next(&mut self) -> Option<&'a Event> {
        self.a.next().or_else(|| self.b.next())
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.a.len() + self.b.len();
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.b.next_back().or_else(|| self.a.next_back())
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::model::Phase;

    fn ev(turn: u32) -> Event {
        Event::PhaseBegan {
            turn,
            phase: Phase::Movement,
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
