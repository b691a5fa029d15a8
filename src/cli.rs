//! The headless command line: `check`, `run`, `play`, and the window by default.

use crate::rules::save::{self, FileKind};
use crate::rules::scenario::{self, Diagnostic};
use crate::rules::{Command, Game, UnitId};
use crate::text::output::say;
use crate::text::report;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};

#[derive(Parser, Debug)]
#[command(
    name = "volley",
    version,
    about = "A 2D hotseat tabletop for horse-and-musket miniature wargames"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Cmd>,
    /// With no command: render the title screen, save a screenshot here and exit.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Open the window on a scenario or a save.
    Play {
        file: PathBuf,
        /// Render a few frames, save a screenshot here and exit.
        #[arg(long)]
        screenshot: Option<PathBuf>,
        /// With --screenshot: the unit shown selected (an id from the scenario).
        #[arg(long, requires = "screenshot")]
        select: Option<String>,
        /// With --screenshot: the unit shown under the pointer (its card; with --select, the
        /// preview of firing at or fighting it).
        #[arg(long, requires = "screenshot")]
        hover: Option<String>,
        /// With --screenshot: overlays to switch on (arcs, zones, sight, reach, rules, legend,
        /// symbols, names).
        #[arg(long, requires = "screenshot", value_delimiter = ',')]
        overlay: Vec<String>,
        /// With --screenshot: zoom in this many times from the fitted table.
        #[arg(long, requires = "screenshot")]
        zoom: Option<f32>,
        /// Replay the game from its start, event by event, forwards and backwards.
        #[arg(long)]
        replay: bool,
        /// With a tutorial and --screenshot: play its first steps by their expected commands.
        #[arg(long, requires = "screenshot", default_value_t = 0)]
        step: usize,
        /// Play against the opponent, which takes this side (0: the first side, 1: the second).
        #[arg(long, value_parser = clap::value_parser!(u8).range(0..=1), conflicts_with = "replay")]
        opponent: Option<u8>,
        /// With --opponent: the plans it judges a phase (its thinking budget; the game menu
        /// changes it too).
        #[arg(long, requires = "opponent")]
        think: Option<usize>,
    },
    /// Render frames of a scenario (or, without one, of an empty window) and print frame times.
    #[command(hide = true)]
    Measure {
        file: Option<PathBuf>,
        #[arg(long, default_value_t = 300)]
        frames: u32,
    },
    /// Open the scenario editor on a scenario (or a draft), or on a new scenario for a ruleset.
    Edit {
        /// The scenario to edit; without one, a new scenario.
        file: Option<PathBuf>,
        /// The ruleset of a new scenario, by its id (`volley check` names them); the default
        /// scenario's when absent.
        #[arg(long)]
        ruleset: Option<String>,
    },
    /// Validate scenarios, saves and order files; prints file:line:col: message per problem.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Play a scenario many times headless and report its balance: win rates with 95% Wilson
    /// intervals, game lengths, losses by troop type, the losses that decide games.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Batch {
        #[command(subcommand)]
        merge: Option<BatchCmd>,
        #[arg(required = true)]
        scenario: Option<PathBuf>,
        /// Games to play.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Game i throws the dice of seed S + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Who plays the first and the second side: opponent (plans each phase; opponent:N
        /// judges N plans a phase), veteran (the opponent of hand rules), straight (attacks
        /// anything, straight at the nearest enemy) or random.
        #[arg(long, value_delimiter = ',', default_value = "opponent,opponent")]
        players: Vec<String>,
        /// Plans the opponent judges a phase (its thinking budget, counted so that a report
        /// repeats on any machine); for `opponent` without a budget of its own.
        #[arg(long)]
        think: Option<usize>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Draw win rate and losses by turn here (.svg or .png).
        #[arg(long)]
        plot: Option<PathBuf>,
        /// Write every game as a save in this folder, named by its seed and result
        /// (seed-0017-prussia-wins-t06.ron), to replay with `volley play SAVE --replay`.
        #[arg(long)]
        save_games: Option<PathBuf>,
    },
    /// Apply an order file to a scenario and print the events and the final state.
    #[command(after_long_help = DICE_ORDER)]
    Run {
        scenario: PathBuf,
        #[arg(long)]
        orders: PathBuf,
        /// Seed for the dice (default: the scenario's).
        #[arg(long, conflicts_with = "dice")]
        seed: Option<u64>,
        /// Die results to use in order instead of the seed, e.g. 4,2,6 ("" for none); see below
        /// for the order the rules take them in.
        #[arg(long)]
        dice: Option<String>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Write a save of the final state here.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Save the game here after every command (atomically, as the window's autosave).
        #[arg(long)]
        autosave: Option<PathBuf>,
    },
}

/// What `volley batch` does besides playing.
#[derive(Subcommand, Debug)]
pub enum BatchCmd {
    /// Merge shards (`volley batch ... --json` over seed ranges) into the report one run over
    /// all their seeds prints; refuses shards of other scenarios, rules or players, and seeds
    /// missing or played twice.
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print one JSON object (itself a shard of the whole range).
        #[arg(long)]
        json: bool,
        /// Draw win rate and losses by turn here (.svg or .png).
        #[arg(long)]
        plot: Option<PathBuf>,
    },
}

/// In which order the rules take scripted dice (`volley run --help`).
const DICE_ORDER: &str = "\
Scripted dice (--dice) are taken one at a time, in the order the rules roll them:
  DB7YW: ending the command phase is the command roll, one die per commander on the table
  (at least one). A firing takes the firer's die, then the target's; a close combat the
  attacker's, then the defender's (combats left unfought when the phase ends are fought then).
  A unit destroyed brings routing tests, one die per unit tested. One bound with one firing
  needs three dice: --dice 6,5,2 (command roll 6, firer 5, target 2).
  DBFPW: as DB7YW (one command die per CinC and sub-commander; a DSC adds 2 without a die),
  but a Mitrailleuse throws its first die before the opposed dice: in a firing the firing Mit's
  first (and in counter-battery fire the target Mit's next), in a close combat the attacker's
  then the defender's. A DSC attacked in close combat throws one die alone. No routing tests.
  BBB: no army-wide roll. A unit's command roll (Activate) takes two dice; a fire two; an
  assault the attacker's die then the defender's, each round (a 0 refights: two more).
  Assaults left unfought when the step ends are fought then, in unit order.
  Old Dessauer: no command roll. A volley takes its dice (the preview shows how many); a charge
  by a unit out of command first takes its command test; skirmishers that cavalry comes within
  an inch of roll one die each to evade; a round of combat takes each unit's dice in the order of the units in the
  scenario (with variable defensive fire, each entitled unit's roll first); a general attached
  to a unit hit hard enough takes one die. Shaken units test to rally when their side's turn
  begins, and the passive side's morale tests are rolled at the end of the shooting phase, one
  die per unit shot at, in the order of the units in the scenario.
  Hal's 25mm: the pre-game EndPhase throws one die per general for chips. The movement phase
  begins with 2D6 per courier carrying orders; each throw for the move is side 0's die then
  side 1's (ties throw again). A unit out of command throws 2D6 before
  it first acts. A move throws its dice as it first needs them (disorganised, chips, rough,
  moving back, push); a formation change one die. A Charge: closing 2D6, holding 2D6 (failing:
  the chart 2D6), the range die, the charge bonus. A volley: the remainder test, one die per six
  figures (artillery: per gun), one save die per hit, the odd-hit die against horse. A melee:
  the pairs (attacker's die, then defender's), the unanswered dice, odd points, the loser's
  chart 2D6 and fall back (2D6 and the facing die). Checks take 2D6 each, in unit order. A
  Reroll replays the last command: its dice up to the one thrown again, one new die, the rest
  of that roll as it fell, then new dice.
Running out of dice refuses the order that needed one. --dice \"\" gives no dice at all.";

/// Die results from `--dice`: numbers 1 to 6 separated by commas (an empty list for \"\").
pub fn parse_dice(text: &str) -> Result<Vec<u8>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| match t.parse::<u8>() {
            Ok(d) if (1..=6).contains(&d) => Ok(d),
            _ => Err(format!("--dice: {t} is not a result of a six-sided die")),
        })
        .collect()
}

fn print_diags(d: &[Diagnostic]) {
    for x in d {
        eprintln!("{x}");
    }
}

/// Checks one file of any kind.
pub fn check_file(path: &Path) -> Vec<Diagnostic> {
    let text = match scenario::read_text(path) {
        Ok(t) => t,
        Err(d) => return d,
    };
    let file = path.display().to_string();
    match save::sniff(&text) {
        FileKind::Orders => save::parse_orders(&text, &file).err().unwrap_or_default(),
        FileKind::Save => save::parse(&text, &file).err().unwrap_or_default(),
        FileKind::Scenario => scenario::parse(&text, &file).err().unwrap_or_default(),
        FileKind::Lesson => crate::text::lesson::check_file(path),
    }
}

/// What a file that checks clean adds: for a scenario, each army's points, its list's verdict
/// and the rules' warnings.
pub fn check_notes(path: &Path) -> Vec<String> {
    let Ok(text) = scenario::read_text(path) else {
        return Vec::new();
    };
    match save::sniff(&text) {
        FileKind::Scenario => scenario::notes(&text, &path.display().to_string()),
        _ => Vec::new(),
    }
}

/// Runs orders against a battle; returns the events and the first refusal, if any.
pub fn run_orders(
    game: &mut Game,
    orders: Vec<Command>,
) -> (Vec<crate::rules::Event>, Option<String>) {
    play_orders(game, orders, None)
}

/// Runs the orders; with `autosave`, the game is saved there (atomically) after every command,
/// as the window does.
fn play_orders(
    game: &mut Game,
    orders: Vec<Command>,
    autosave: Option<&Path>,
) -> (Vec<crate::rules::Event>, Option<String>) {
    let mut events = Vec::new();
    for (i, c) in orders.into_iter().enumerate() {
        let shown = save::order_text(&c);
        match game.execute(c) {
            Ok(ev) => {
                events.extend(ev);
                if let Some(path) = autosave
                    && let Err(e) = save::write(game, path)
                {
                    return (events, Some(e));
                }
            }
            Err(e) => {
                let why = report::refusal(game, &e);
                return (
                    events,
                    Some(format!("order {} ({shown}) refused: {why}", i + 1)),
                );
            }
        }
    }
    (events, None)
}

fn run(
    scenario_path: &Path,
    orders_path: &Path,
    seed: Option<u64>,
    dice: Option<String>,
    json: bool,
    save_to: Option<PathBuf>,
    autosave: Option<PathBuf>,
) -> i32 {
    let mut b = match save::load_any(scenario_path) {
        Ok(b) => b,
        Err(d) => {
            print_diags(&d);
            return 1;
        }
    };
    let orders = match scenario::read_text(orders_path)
        .and_then(|t| save::parse_orders(&t, &orders_path.display().to_string()))
    {
        Ok(o) => o,
        Err(d) => {
            print_diags(&d);
            return 1;
        }
    };
    if let Some(d) = dice {
        match parse_dice(&d) {
            Ok(d) => b.script_dice(&d),
            Err(e) => {
                eprintln!("{e}");
                return 1;
            }
        }
    } else if let Some(s) = seed {
        b.reseed(s);
    }
    let (events, error) = play_orders(&mut b, orders, autosave.as_deref());
    if json {
        say(
            serde_json::to_string_pretty(&report::run_json(&b, &events, error.clone()))
                .unwrap_or_default(),
        );
    } else {
        for e in &events {
            say(report::describe(&b, e));
        }
        say(format_args!(
            "-- turn {}, {} phase, {} to move",
            b.turn,
            b.phase.name(),
            b.sides
                .get(b.active)
                .map(|s| s.name.as_str())
                .unwrap_or("?")
        ));
        for u in b.units.iter() {
            let status = if u.status.removed {
                "destroyed".to_string()
            } else {
                format!(
                    "{} hit(s){}",
                    u.status.hits,
                    if u.status.shaken { ", shaken" } else { "" }
                )
            };
            say(format_args!(
                "{:<12} {:<28} {:<4} ({:7.1}, {:7.1}) facing {:5.1}  {}",
                u.id.0, u.name, u.troop, u.base.centre.x, u.base.centre.y, u.base.facing, status
            ));
        }
        if let Some(e) = &error {
            eprintln!("{e}");
        }
    }
    if let Some(p) = save_to
        && let Err(e) = save::write(&b, &p)
    {
        eprintln!("{e}");
        return 1;
    }
    if error.is_some() { 1 } else { 0 }
}

/// Entry point; returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match cli.command {
        None => {
            crate::app::run(crate::app::Start::Title(
                scenario::default_path(),
                cli.screenshot,
            ));
            0
        }
        Some(Cmd::Play {
            file,
            screenshot,
            select,
            hover,
            overlay,
            replay,
            step,
            zoom,
            opponent,
            think,
        }) => play(
            &file,
            screenshot,
            crate::app::Stage {
                select: select.map(UnitId::from),
                hover: hover.map(UnitId::from),
                overlays: overlay,
                zoom,
            },
            replay,
            step,
            opponent.map(usize::from),
            think,
        ),
        Some(Cmd::Measure { file, frames }) => match file.map(|f| save::load_any(&f)).transpose() {
            Ok(b) => {
                crate::app::run(crate::app::Start::Measure(b, frames));
                0
            }
            Err(d) => {
                print_diags(&d);
                1
            }
        },
        Some(Cmd::Edit { file, ruleset }) => {
            let ruleset = ruleset.unwrap_or_else(|| {
                let default = scenario::default_path();
                scenario::read_text(&default)
                    .ok()
                    .and_then(|t| scenario::parse_raw(&t, "").ok())
                    .map(|r| r.ruleset)
                    .unwrap_or_default()
            });
            let draft = match &file {
                Some(f) if f.exists() => crate::editor::Draft::open(f).map_err(|d| {
                    d.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join("\n")
                }),
                // A file not there yet: a new scenario, saved to it.
                Some(f) => crate::editor::Draft::new(&ruleset).map(|mut d| {
                    d.path = Some(f.clone());
                    d
                }),
                None => crate::editor::Draft::new(&ruleset),
            };
            match draft {
                Ok(d) => {
                    crate::app::run(crate::app::Start::Edit(Box::new(d)));
                    0
                }
                Err(e) => {
                    eprintln!("{e}");
                    1
                }
            }
        }
        Some(Cmd::Check { files }) => {
            let mut bad = false;
            for f in &files {
                let d = check_file(f);
                if d.is_empty() {
                    say(format_args!("{}: ok", f.display()));
                    for n in check_notes(f) {
                        say(format_args!("  {n}"));
                    }
                } else {
                    bad = true;
                    for x in d {
                        say(x);
                    }
                }
            }
            if bad { 1 } else { 0 }
        }
        Some(Cmd::Batch {
            merge: Some(BatchCmd::Merge { files, json, plot }),
            ..
        }) => crate::players::batch::print::merge(&files, json, plot.as_deref()),
        Some(Cmd::Batch {
            merge: None,
            scenario: Some(scenario),
            games,
            seed,
            players,
            think,
            json,
            plot,
            save_games,
        }) => crate::players::batch::print::main(crate::players::batch::print::Args {
            scenario: &scenario,
            games,
            seed,
            players: &players,
            think,
            json,
            plot: plot.as_deref(),
            save_games: save_games.as_deref(),
        }),
        Some(Cmd::Batch { scenario: None, .. }) => {
            eprintln!("volley batch: name a scenario or a save, or merge and the shards");
            2
        }
        Some(Cmd::Run {
            scenario,
            orders,
            seed,
            dice,
            json,
            save,
            autosave,
        }) => run(&scenario, &orders, seed, dice, json, save, autosave),
    }
}

fn play(
    file: &Path,
    screenshot: Option<PathBuf>,
    stage: crate::app::Stage,
    replay: bool,
    step: usize,
    opponent: Option<usize>,
    think: Option<usize>,
) -> i32 {
    let mut saved_opponent = None;
    let mut reseed = (0, Vec::new());
    let is_lesson = scenario::read_text(file)
        .map(|t| save::sniff(&t) == FileKind::Lesson)
        .unwrap_or(false);
    let loaded = if is_lesson {
        crate::text::lesson::load(file).and_then(|(l, mut b)| {
            crate::text::lesson::advance(&l, &mut b, step)
                .map_err(|m| Diagnostic::one(&file.display().to_string(), 1, 1, m))?;
            Ok((Some((l, step)), b))
        })
    } else {
        save::load_any_loaded(file).map(|l| {
            // A save made against the opponent is played against it again unless told
            // otherwise (a replay only shows the game).
            if opponent.is_none() && !replay {
                saved_opponent = l.seats.opponent;
            }
            reseed = (l.seed, l.reseed);
            (None, l.game)
        })
    };
    let opponent = opponent.or(saved_opponent);
    let loaded = match loaded {
        Ok((Some(_), _)) if replay => {
            Err("a tutorial is not replayed: open it without --replay".to_string())
        }
        Ok((Some(_), _)) if opponent.is_some() => {
            Err("a tutorial is played by its steps: open it without --opponent".to_string())
        }
        Ok((lesson, b)) if replay => crate::app::Replay::start_reseeded(&b, reseed.0, &reseed.1)
            .map(|(fresh, r)| (lesson, fresh, Some(r))),
        Ok((lesson, b)) => Ok((lesson, b, None)),
        Err(d) => Err(d
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join("\n")),
    };
    match loaded {
        Ok((lesson, b, replay)) => {
            for id in stage.select.iter().chain(&stage.hover) {
                if b.unit(id).is_err() {
                    eprintln!("{}: no unit '{}'", file.display(), id.0);
                    return 1;
                }
            }
            crate::app::run_with(
                match screenshot {
                    Some(p) => crate::app::Start::Screenshot(b, p, stage),
                    None => crate::app::Start::Play(b),
                },
                crate::app::Extras {
                    lesson,
                    replay,
                    opponent,
                    think,
                },
            );
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}
