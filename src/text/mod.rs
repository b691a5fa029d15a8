//! The game in words: the log's sentences and the JSON of events and state, and the tutorials
//! that teach the rules step by step.

pub mod lesson;
pub mod output;
pub mod report;
