//! Who gives commands besides a person: the opponent that plans (`planner`), the veteran of
//! hand rules before it (`opponent`), the random player, and batch runs that set them against
//! each other. They play through the rules' door like a person does: they read
//! the battle and its previews, and send commands.

pub mod autoplay;
pub mod batch;
pub mod opponent;
pub mod planner;
