//! volley: a 2D hotseat tabletop for horse-and-musket miniature wargames.

pub mod app;
pub mod batch;
pub mod cli;
pub mod rules;
