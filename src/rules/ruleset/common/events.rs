//! The door through which a ruleset's own events join the shared log (`rules::own_event`).
//!
//! A ruleset keeps the events only it emits in its own folder (`events.rs`): one enum,
//! internally tagged by `kind` like the shared `Event`, implementing `RulesetEvent`, and
//! registered so that it reads back from JSON:
//!
//! ```text
//! #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
//! #[serde(tag = "kind")]
//! pub enum MyEvent { Drilled { unit: UnitId } }
//! impl RulesetEvent for MyEvent { fn apply(&self, b: &mut Battle) { ... } }
//! inventory::submit!(OwnEventType::of::<MyEvent>());
//! ```
//!
//! It emits them as any event (`b.emit(out, MyEvent::Drilled { .. })`), reads them back from
//! the log with `Event::own::<MyEvent>()`, and words them in its `Ruleset::words`. Its kinds
//! must be its own: not a shared event's, not another ruleset's.

use crate::rules::battle::Battle;
use crate::rules::own_event::ErasedEvent;
use crate::rules::roll::Roll;
use serde::Serialize;
use std::any::Any;
use std::fmt::Debug;

/// A ruleset's own event type (see the module's note).
pub trait RulesetEvent: Debug + PartialEq + Serialize + Send + Sync + 'static {
    /// Changes the battle as the event says. `Battle::apply` calls it for every own event, as
    /// it applies the shared ones: the event is applied where it is emitted and again when a
    /// log is replayed.
    fn apply(&self, b: &mut Battle);
    /// The rolls the event records, for the log's roll panel and the JSON (none by default).
    fn rolls(&self) -> Vec<Roll> {
        Vec::new()
    }
}

impl<E: RulesetEvent> ErasedEvent for E {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same_as(&self, other: &dyn ErasedEvent) -> bool {
        other.as_any().downcast_ref::<E>() == Some(self)
    }
    fn apply_to(&self, battle: &mut dyn Any) {
        // Only a battle applies events (`Battle::apply`).
        if let Some(b) = battle.downcast_mut::<Battle>() {
            self.apply(b);
        }
    }
    fn rolls(&self) -> Vec<Roll> {
        RulesetEvent::rolls(self)
    }
}
