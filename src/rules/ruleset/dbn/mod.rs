//! The DBN family: the engine DB7YW and DBFPW share ("all DBN rules are extant"), cut by the
//! rules' own topics, with each supplement inside it.
//!
//! - `data`: the data file's troop types, army lists, the shared numbers and factors by
//!   typed key, the rules only some supplements have (`Extras`), and the helpers each
//!   supplement reads its own keys, troop types and nations with.
//! - `command`: the bound's phases, command points, move costs, the army's break.
//! - `movement`: measured moves, going, threat zones, moving into contact, limbering.
//! - `firing`: who may fire at whom, line of sight, fire support, the firing roll.
//! - `close_combat`: contact, support, generals, the close combat roll.
//! - `results`: hits, recoil, flight, follow-up and pursuit.
//! - `terrain`: bad going, cover, towns (BUA) and villages (NLF), garrisons, fortification.
//! - `deployment`: placing the armies before the battle.
//! - `rolls`: an opposed roll's setup and odds, the first die (the mitrailleuse's).
//! - `army`: national army lists (cost rules and list lines, typed at load); `view`: what
//!   the window and log are told.
//! - `supplement`: what each supplement answers; `game`: the ruleset's one door.
//! - `db7yw`, `dbfpw`: the supplements.

pub mod army;
mod close_combat;
mod command;
mod data;
pub mod db7yw;
pub mod dbfpw;
mod deployment;
mod events;
mod firing;
mod game;
mod movement;
mod refusal;
mod results;
mod rolls;
mod supplement;
mod terrain;
mod view;
mod zones;

pub use army::Flag;
pub use command::{CLOSE_COMBAT, COMMAND, FIRING, MOVEMENT};
pub use data::{
    Allowance, ArmyRules, CostRule, Dbn, DbnData, DivisionalRules, Extras, FirstDie, FortifyCosts,
    ListLine, N, NationalList, SharedFire, Troop, TroopKind, TroopTrait, check_troop_types,
    own_factors, own_firing_factors, own_numbers, own_rows, troop_type, troop_type_of_code,
    typed_names,
};
pub use events::DbnEvent;
pub use game::{DbnGame, prepare_plain};
pub use refusal::{LongRange, Refusal};
pub use results::Follow;
pub use rolls::{Combat, DbnRoll, FireRole, FirstDieOutcome, FirstThrow, Preview, Setup};
pub use supplement::Supplement;
