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
