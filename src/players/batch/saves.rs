//! A batch's games written as saves, each named by its seed and result: the window replays
//! them (`volley play SAVE --replay`) and `volley check` holds each to the result it records.

use super::{Player, bot_seed};
use crate::rules::game::Game;
use crate::rules::save::{self, About, Outcome, Reseed, Save, Seat, Seats};
use std::path::{Path, PathBuf};

/// Where a batch began: the seed its start's dice began with and where they were seeded again
/// (a batch played on from a save), read from what it was loaded from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    pub seed: u64,
    pub reseed: Vec<Reseed>,
}

impl Origin {
    pub fn of(loaded: &save::Loaded) -> Self {
        Origin {
            seed: loaded.seed,
            reseed: loaded.reseed.clone(),
        }
    }
}

/// The seat a batch's player took at `side`, with the seed of its choices where it has one.
pub fn seat(p: Player, seed: u64, side: usize) -> Seat {
    match p {
        Player::Opponent { think } => Seat::Planner { think },
        Player::Veteran => Seat::Veteran,
        Player::Straight => Seat::Straight,
        Player::Random => Seat::Random {
            seed: bot_seed(seed, side),
        },
    }
}

/// The save of game `game`, played with the dice of `seed` by `players`: the scenario, the
/// commands, who sat at each side, its result, and where its dice were seeded (a batch seeds
/// them afresh where its start stands: from a scenario, the game's one seed; from a save, a
/// reseed after the save's commands, which the battle records).
pub fn save_of(game: &Game, seed: u64, players: [Player; 2]) -> Save {
    let mut s = Save::of(game);
    s.seats = Seats {
        opponent: None,
        players: vec![seat(players[0], seed, 0), seat(players[1], seed, 1)],
    };
    let name = file_name(game, seed);
    s.about = Some(About {
        result: Some(Outcome::of(game)),
        ..About::of(game, name.trim_end_matches(".ron"))
    });
    s
}

/// A game's file name by its seed and result: `seed-0017-prussia-wins-t06.ron`,
/// `seed-0018-draw-t12.ron`, `seed-0019-unfinished-t03.ron`.
pub fn file_name(game: &Game, seed: u64) -> String {
    let o = Outcome::of(game);
    let what = match (o.by, o.winner) {
        (None, _) => "unfinished".to_string(),
        (Some(_), None) => "draw".to_string(),
        (Some(_), Some(w)) => format!(
            "{}-wins",
            slug(game.sides.get(w).map(|s| s.name.as_str()).unwrap_or("side"))
        ),
    };
    format!("seed-{seed:04}-{what}-t{:02}.ron", o.turn)
}

/// A name for a file: lower-case letters and digits, runs of anything else one hyphen.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() { "side".into() } else { out }
}

/// Writes the save of a game into `dir` (atomically); returns its path.
pub fn write(dir: &Path, game: &Game, seed: u64, players: [Player; 2]) -> Result<PathBuf, String> {
    let path = dir.join(file_name(game, seed));
    let text = save::save_text(&save_of(game, seed, players))?;
    save::write_text(&text, &path)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn a_side_is_named_in_letters_digits_and_hyphens() {
        assert_eq!(slug("Prussia"), "prussia");
        assert_eq!(slug("Reichsarmee & French"), "reichsarmee-french");
        assert_eq!(slug("  Roßbach (1757) "), "ro-bach-1757");
        assert_eq!(slug("---"), "side");
    }
}
