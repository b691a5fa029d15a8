//! The game itself, in pure Rust: geometry, terrain, dice, the battle, commands and events,
//! scenarios, saves and the rulesets. Nothing here knows about drawing or windows.

pub mod battle;
pub mod command;
pub mod dice;
pub mod flag;
pub mod game;
pub mod geometry;
pub mod log;
pub mod measure;
pub mod model;
pub mod odds;
pub mod own_event;
pub mod phase;
pub mod roll;
pub mod ruleset;
pub mod save;
pub mod scenario;
pub mod tagged;
pub mod terrain;
pub mod victory;

pub use battle::Battle;
pub use command::{Command, Event, RuleError, Step};
pub use game::Game;
pub use model::{Phase, Side, Unit, UnitId};
