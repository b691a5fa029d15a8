//! volley: a 2D hotseat tabletop for horse-and-musket miniature wargames.

#[cfg(feature = "window")]
pub mod app;
pub mod batch;
#[cfg(feature = "window")]
pub mod cli;
pub mod harness;
pub mod rules;
