//! volley: a 2D hotseat tabletop for horse-and-musket miniature wargames.

#[cfg(feature = "window")]
pub mod app;
#[cfg(feature = "window")]
pub mod cli;
pub mod editor;
pub mod harness;
pub mod players;
pub mod rules;
pub mod text;

/// The allocator for every build: a game's commands make and drop many small values (ids,
/// commands, log lines, the undo snapshot), and mimalloc serves those faster than the system's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
