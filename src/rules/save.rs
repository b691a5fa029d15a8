//! Saves and order files: a save is the scenario, the seed (or scripted dice) and the command
//! log; loading replays it, so a loaded game is the same game.

use super::battle::Battle;
use super::command::{Command, Ending, Event};
use super::game::Game;
use super::model::Side;
use super::scenario::{self, Diagnostic, RawScenario, locate};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// Save format version.
pub const SAVE_VERSION: u32 = 1;

/// What a save file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Save {
    pub volley_save: u32,
    pub seed: u64,
    #[serde(default)]
    pub dice: Option<Vec<u8>>,
    pub scenario: RawScenario,
    pub commands: Vec<Command>,
    /// Who sits at the table besides the players: left out, both sides are people (hotseat).
    #[serde(default, skip_serializing_if = "Seats::is_unset")]
    pub seats: Seats,
    /// Where the dice were seeded again partway: after the first `after` commands, the dice
    /// of `seed` (a batch played on from a save). Left out when the game threw one seed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reseed: Vec<Reseed>,
    /// What a list of saves shows without replaying the game (left out in saves made before
    /// slots had names, and in those the command line writes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<About>,
}

/// A save's label: its slot's name, the game's scenario, turn and side to move, and when it
/// was saved. It describes the game; loading never reads it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct About {
    /// The slot's name as the player gave it.
    pub name: String,
    pub scenario: String,
    pub turn: u32,
    /// Whose bound it is, by the side's name.
    pub side: String,
    /// The battle is over.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub over: bool,
    /// Seconds since 1970 (UTC) when it was written.
    pub saved: u64,
    /// How the game ended, as recorded when it was saved (a batch's games): loading refuses a
    /// save whose replay does not reach it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Outcome>,
}

/// How a game came out: the winner (none: a draw), how it was decided (none: not over) and
/// the turn it ended in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub by: Option<Ending>,
    pub turn: u32,
}

impl Outcome {
    /// How `b` stands: its game-over event's winner and ending, and its turn.
    pub fn of(b: &Battle) -> Self {
        let over = b.log.iter().rev().find_map(|e| match e {
            Event::GameOver { winner, by, .. } => Some((*winner, *by)),
            _ => None,
        });
        Outcome {
            winner: over.and_then(|o| o.0),
            by: over.map(|o| o.1),
            turn: b.turn,
        }
    }

    /// The outcome in words, with the sides' names.
    pub fn words(&self, b: &Battle) -> String {
        let side = |s: Side| {
            b.sides
                .get(s)
                .map(|x| x.name.clone())
                .unwrap_or_else(|| format!("side {s}"))
        };
        match (self.by, self.winner) {
            (None, _) => format!("unfinished in turn {}", self.turn),
            (Some(by), Some(w)) => format!("{} wins ({by:?}) in turn {}", side(w), self.turn),
            (Some(by), None) => format!("a draw ({by:?}) in turn {}", self.turn),
        }
    }
}

/// The dice seeded again partway through a game: after its first `after` commands, the dice of
/// `seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reseed {
    pub after: usize,
    pub seed: u64,
}

impl About {
    /// The label of a save of `b` in the slot `name`, written now.
    pub fn of(b: &Battle, name: &str) -> Self {
        About {
            name: name.to_string(),
            scenario: b.info.name.clone(),
            turn: b.turn,
            side: b
                .sides
                .get(b.active)
                .map(|s| s.name.clone())
                .unwrap_or_else(|| format!("side {}", b.active)),
            over: b.is_over(),
            saved: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
            result: None,
        }
    }
}

/// Who gives each side's commands: a saved game against the opponent comes back against it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seats {
    /// The side the window's opponent plays (None: people play both).
    #[serde(default)]
    pub opponent: Option<Side>,
    /// Who played each side, the first side's first, with its settings (a batch's games; left
    /// out in the window's saves). It describes the game; loading replays the commands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<Seat>,
}

/// Who played a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seat {
    /// A person at the table.
    Person,
    /// The opponent of hand rules, as saves made before the planning opponent name it: the
    /// player now called the veteran.
    Opponent,
    /// The opponent of hand rules, weighing every attack by its odds (`veteran`).
    Veteran,
    /// The opponent that plans, judging `think` plans a phase.
    Planner { think: usize },
    /// The opponent's yardstick: attacks anything, straight at the nearest enemy.
    Straight,
    /// The random player, with the seed of its choices.
    Random { seed: u64 },
}

impl Seats {
    /// Both sides played by people.
    pub fn is_hotseat(&self) -> bool {
        self.opponent.is_none()
    }
    /// Nothing to record: people at both sides, as a save without seats says.
    pub fn is_unset(&self) -> bool {
        self.opponent.is_none() && self.players.is_empty()
    }
}

impl Save {
    pub fn of(b: &Battle) -> Self {
        Save {
            volley_save: SAVE_VERSION,
            seed: b.seed,
            dice: b.scripted.as_deref().cloned(),
            scenario: (*b.scenario).clone(),
            commands: b.commands.to_vec(),
            seats: Seats::default(),
            reseed: b
                .reseeds
                .iter()
                .map(|&(after, seed)| Reseed { after, seed })
                .collect(),
            about: None,
        }
    }
}

/// Serialises a battle as a save.
pub fn to_string(b: &Battle) -> Result<String, String> {
    to_string_seated(b, &Seats::default())
}

/// Serialises a battle as a save, with who plays each side.
pub fn to_string_seated(b: &Battle, seats: &Seats) -> Result<String, String> {
    to_string_about(b, seats, None)
}

fn to_string_about(b: &Battle, seats: &Seats, about: Option<About>) -> Result<String, String> {
    save_text(&Save {
        seats: seats.clone(),
        about,
        ..Save::of(b)
    })
}

/// Writes a save atomically: to a temporary file beside it, then renamed over.
pub fn write(b: &Battle, path: &Path) -> Result<(), String> {
    write_seated(b, &Seats::default(), path)
}

/// Writes a save, with who plays each side, atomically: to a temporary file beside it, then
/// renamed over.
pub fn write_seated(b: &Battle, seats: &Seats, path: &Path) -> Result<(), String> {
    write_text(&to_string_seated(b, seats)?, path)
}

/// Writes a save into the slot `name` at `path`, labelled for the list of saves, with who
/// plays each side; atomically, as `write_seated`.
pub fn write_named(b: &Battle, seats: &Seats, name: &str, path: &Path) -> Result<(), String> {
    write_text(&to_string_about(b, seats, Some(About::of(b, name)))?, path)
}

/// Serialises a save as its file holds it.
pub fn save_text(save: &Save) -> Result<String, String> {
    ron::ser::to_string_pretty(save, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("cannot write save: {e}"))
}

/// Writes a text file atomically: to a temporary file beside it, then renamed over.
pub fn write_text(text: &str, path: &Path) -> Result<(), String> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "save".into());
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let res = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        // The rename reaches the disk with the directory's entry (where the system lets a
        // directory be synced; the save is in place either way).
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if let Err(e) = res {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot save to {}: {e}", path.display()));
    }
    Ok(())
}

/// Rebuilds a game from save text by replaying its commands.
pub fn parse(text: &str, file: &str) -> Result<Game, Vec<Diagnostic>> {
    parse_seated(text, file).map(|(b, _)| b)
}

/// Rebuilds a game from save text by replaying its commands, with who plays each side.
pub fn parse_seated(text: &str, file: &str) -> Result<(Game, Seats), Vec<Diagnostic>> {
    parse_loaded(text, file).map(|l| (l.game, l.seats))
}

/// A save loaded: the game replayed to where it was saved, who plays each side, and where its
/// dice were seeded again (which a replay from the start needs).
pub struct Loaded {
    pub game: Game,
    pub seats: Seats,
    /// The seed the save's dice began with (a scenario's own), before any reseed.
    pub seed: u64,
    pub reseed: Vec<Reseed>,
}

/// Rebuilds a game from save text by replaying its commands (seeding the dice again where the
/// save says), and checks it reaches the result the save records.
pub fn parse_loaded(text: &str, file: &str) -> Result<Loaded, Vec<Diagnostic>> {
    let d = |line: usize, col: usize, message: String| Diagnostic::one(file, line, col, message);
    let save: Save = super::scenario::ron_options()
        .from_str(text)
        .map_err(|e| d(e.span.start.line, e.span.start.col, e.code.to_string()))?;
    if save.volley_save != SAVE_VERSION {
        return Err(d(
            1,
            1,
            format!(
                "save version {} is not supported (this program reads {SAVE_VERSION})",
                save.volley_save
            ),
        ));
    }
    if save
        .seats
        .opponent
        .is_some_and(|s| s >= save.scenario.sides.len().max(2))
    {
        let (line, col) = locate(text, "opponent", 1);
        return Err(d(line, col, "the opponent plays side 0 or 1".to_string()));
    }
    if !save.seats.players.is_empty() && save.seats.players.len() != 2 {
        let (line, col) = locate(text, "players", 1);
        return Err(d(
            line,
            col,
            "name two players, the first side's then the second's".into(),
        ));
    }
    if let Some(i) = (1..save.reseed.len())
        .find(|&i| save.reseed[i].after < save.reseed[i - 1].after)
        .or_else(|| {
            save.reseed
                .iter()
                .position(|r| r.after > save.commands.len())
        })
    {
        let (line, col) = locate(text, "reseed", 1);
        return Err(d(
            line,
            col,
            format!(
                "reseed {} comes after {} commands: the reseeds go in order, within the save's {} commands",
                i + 1,
                save.reseed[i].after,
                save.commands.len()
            ),
        ));
    }
    let mut b = scenario::build(&save.scenario, text, file)?;
    match &save.dice {
        Some(dice) => b.script_dice(dice),
        None => b.reseed(save.seed),
    }
    let mut reseeds = save.reseed.iter().peekable();
    for (i, c) in save.commands.into_iter().enumerate() {
        while let Some(r) = reseeds.next_if(|r| r.after == i) {
            b.reseed(r.seed);
        }
        if let Err(e) = b.execute(c) {
            let (line, col) = locate(text, "commands", 1);
            return Err(d(
                line,
                col,
                format!("command {} of the save does not replay: {e}", i + 1),
            ));
        }
    }
    for r in reseeds {
        b.reseed(r.seed);
    }
    if let Some(recorded) = save.about.as_ref().and_then(|a| a.result) {
        let replayed = Outcome::of(&b);
        if replayed != recorded {
            let (line, col) = locate(text, "result", 1);
            return Err(d(
                line,
                col,
                format!(
                    "the save records {}, but its commands replay to {}",
                    recorded.words(&b),
                    replayed.words(&b)
                ),
            ));
        }
    }
    Ok(Loaded {
        game: b,
        seats: save.seats,
        seed: save.seed,
        reseed: save.reseed,
    })
}

/// Loads a save from disk.
pub fn load(path: &Path) -> Result<Game, Vec<Diagnostic>> {
    load_seated(path).map(|(b, _)| b)
}

/// Loads a save from disk, with who plays each side.
pub fn load_seated(path: &Path) -> Result<(Game, Seats), Vec<Diagnostic>> {
    let text = scenario::read_text(path)?;
    parse_seated(&text, &path.display().to_string())
}

/// What the list of saves shows of one save: its label, read from the file, or for a save
/// written without one, learnt by replaying it (its name is then the file's, its time the
/// file's).
pub fn header(path: &Path) -> Result<About, Vec<Diagnostic>> {
    let text = scenario::read_text(path)?;
    let file = path.display().to_string();
    let save: Save = super::scenario::ron_options()
        .from_str(&text)
        .map_err(|e| {
            Diagnostic::one(
                &file,
                e.span.start.line,
                e.span.start.col,
                e.code.to_string(),
            )
        })?;
    if let Some(about) = save.about {
        return Ok(about);
    }
    let b = parse(&text, &file)?;
    let saved = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_secs())
        .unwrap_or(0);
    Ok(About {
        name: path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default(),
        saved,
        ..About::of(&b, "")
    })
}

/// Parses an order file: a RON list of commands.
pub fn parse_orders(text: &str, file: &str) -> Result<Vec<Command>, Vec<Diagnostic>> {
    super::scenario::ron_options()
        .from_str::<Vec<Command>>(text)
        .map_err(|e| {
            vec![Diagnostic {
                file: file.to_string(),
                line: e.span.start.line,
                col: e.span.start.col,
                message: e.code.to_string(),
            }]
        })
}

/// A command as an order file writes it: `Move(unit: "pr-ms1", steps: [Advance(200)])`.
pub fn order_text(c: &Command) -> String {
    let config = ron::ser::PrettyConfig::new()
        .new_line("")
        .indentor("")
        .compact_arrays(true)
        .compact_structs(true);
    match ron::ser::to_string_pretty(c, config) {
        Ok(text) => whole_numbers(&text),
        Err(_) => format!("{c:?}"),
    }
}

/// Writes `200.0` as `200` outside string literals, as a player writes a whole distance.
fn whole_numbers(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            in_string = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if c == '"' {
            in_string = true;
        } else if c == '.'
            && i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1) == Some(&'0')
            && !chars
                .get(i + 2)
                .is_some_and(|d| d.is_ascii_digit() || *d == 'e')
        {
            i += 2;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// What kind of file a text is, by its first significant token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Scenario,
    Save,
    Orders,
    /// A guided tutorial.
    Lesson,
}

/// The word that marks a file as a lesson (a tutorial's steps over a scenario).
pub const LESSON_MARK: &str = "volley_lesson";

pub fn sniff(text: &str) -> FileKind {
    let body: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let t = body.trim_start();
    if t.starts_with('[') {
        FileKind::Orders
    } else if t.contains(LESSON_MARK) {
        FileKind::Lesson
    } else if t.contains("volley_save") {
        FileKind::Save
    } else {
        FileKind::Scenario
    }
}

/// Loads a scenario or a save, whichever the file is.
pub fn load_any(path: &Path) -> Result<Game, Vec<Diagnostic>> {
    load_any_seated(path).map(|(b, _)| b)
}

/// Loads a scenario or a save, whichever the file is, with who plays each side (a scenario:
/// people both).
pub fn load_any_seated(path: &Path) -> Result<(Game, Seats), Vec<Diagnostic>> {
    load_any_loaded(path).map(|l| (l.game, l.seats))
}

/// Loads a scenario or a save, whichever the file is, with who plays each side and where the
/// dice were seeded again (a scenario: people both, one seed).
pub fn load_any_loaded(path: &Path) -> Result<Loaded, Vec<Diagnostic>> {
    let text = scenario::read_text(path)?;
    let file = path.display().to_string();
    match sniff(&text) {
        FileKind::Save => parse_loaded(&text, &file),
        FileKind::Scenario => scenario::parse(&text, &file).map(|game| Loaded {
            seats: Seats::default(),
            seed: game.seed,
            reseed: Vec::new(),
            game,
        }),
        FileKind::Orders => Err(vec![Diagnostic {
            file,
            line: 1,
            col: 1,
            message: "this is an order file, not a scenario or save".into(),
        }]),
        FileKind::Lesson => Err(vec![Diagnostic {
            file,
            line: 1,
            col: 1,
            message: "this is a tutorial: open it with `volley play`".into(),
        }]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::command::Step;
    use crate::rules::geometry::Corner;
    use crate::rules::model::UnitId;

    #[test]
    fn an_order_is_written_as_the_order_file_writes_it_and_reads_back() {
        let c = Command::Move {
            unit: UnitId("a.0\"b".into()),
            steps: vec![
                Step::Wheel {
                    corner: Corner::Left,
                    degrees: 10.0,
                },
                Step::Advance(2.5),
                Step::Sidestep(-100.0),
            ],
        };
        let text = order_text(&c);
        assert_eq!(
            text,
            r#"Move(unit: "a.0\"b", steps: [Wheel(corner: Left, degrees: 10), Advance(2.5), Sidestep(-100)])"#
        );
        assert_eq!(parse_orders(&format!("[{text}]"), "o").unwrap(), vec![c]);
        assert_eq!(order_text(&Command::EndPhase), "EndPhase");
    }
}
