//! `volley batch`: plays a scenario many times on all cores with a progress bar, prints what the
//! games say about its balance, and draws it.

use crate::players::batch::{self, Player, Report, saves, shard};
use crate::rules::save;
use indicatif::{ProgressBar, ProgressStyle};
use plotters::prelude::*;
use std::path::Path;

/// What `volley batch` is asked for.
pub struct Args<'a> {
    pub scenario: &'a Path,
    pub games: usize,
    pub seed: u64,
    pub players: &'a [String],
    /// The opponent's budget, plans judged a phase, where a player named `opponent` has none
    /// of its own.
    pub think: Option<usize>,
    pub json: bool,
    pub plot: Option<&'a Path>,
    /// Write every game as a save in this folder.
    pub save_games: Option<&'a Path>,
}

/// Runs the command; returns the exit code.
pub fn main(a: Args) -> i32 {
    let Args {
        scenario,
        games,
        seed,
        players,
        think,
        json,
        plot,
        save_games,
    } = a;
    let loaded = match save::load_any_loaded(scenario) {
        Ok(l) => l,
        Err(d) => {
            for x in d {
                eprintln!("{x}");
            }
            return 1;
        }
    };
    let origin = saves::Origin::of(&loaded);
    let b = loaded.game;
    if think == Some(0) {
        eprintln!("--think: the opponent judges at least one plan a phase");
        return 1;
    }
    let budget = |p: Player, name: &str| match think {
        Some(t) if name.trim() == "opponent" => p.thinking(t),
        _ => p,
    };
    let players = match players {
        [a, c] => match (Player::parse(a), Player::parse(c)) {
            (Ok(pa), Ok(pc)) => [budget(pa, a), budget(pc, c)],
            (Err(e), _) | (_, Err(e)) => {
                eprintln!("--players: {e}");
                return 1;
            }
        },
        _ => {
            eprintln!("--players: name two players, the first side's then the second's");
            return 1;
        }
    };
    if games == 0 {
        eprintln!("--games: play at least one game");
        return 1;
    }
    if let Some(dir) = save_games
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("--save-games: cannot make {}: {e}", dir.display());
        return 1;
    }
    let bar = ProgressBar::new(games as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games, {eta} left") {
        bar.set_style(style);
    }
    let started = std::time::Instant::now();
    let records = match save_games {
        None => batch::run(&b, games, seed, players, &|| bar.inc(1)),
        Some(dir) => {
            let keep =
                |g: &crate::rules::game::Game, s: u64| saves::write(dir, g, s, players).map(|_| ());
            match batch::run_keeping(&b, games, seed, players, &|| bar.inc(1), &keep) {
                Ok(r) => r,
                Err(e) => {
                    bar.finish_and_clear();
                    eprintln!("--save-games: {e}");
                    return 1;
                }
            }
        }
    };
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let report = batch::report(&b, seed, players, &records);
    let header = shard::Header::of(&b, &origin, seed, games, players);
    if let Err(e) = show(&report, &records, &header, json) {
        eprintln!("{e}");
        return 1;
    }
    // Timings change from run to run: they go to the error stream, never into the report.
    eprintln!(
        "{} games in {:.2} s: {:.1} games per second on {} threads",
        games,
        seconds,
        games as f64 / seconds.max(1e-9),
        rayon::current_num_threads()
    );
    if let Some(p) = plot
        && let Err(e) = draw(&report, p)
    {
        eprintln!("--plot: {e}");
        return 1;
    }
    0
}

/// Prints a batch's report: as JSON with its records and header, or in words.
fn show(
    report: &Report,
    records: &[batch::GameRecord],
    header: &shard::Header,
    json: bool,
) -> Result<(), String> {
    if json {
        crate::text::output::say(shard::json(report, records, header)?);
    } else {
        crate::text::output::say_raw(&words(report));
    }
    Ok(())
}

/// `volley batch merge`: merges shards into the report one run over their seeds prints, as
/// JSON (itself a shard) or in words, and draws it; returns the exit code.
pub fn merge(files: &[std::path::PathBuf], json: bool, plot: Option<&Path>) -> i32 {
    let mut shards = Vec::new();
    for f in files {
        match shard::read(f) {
            Ok((h, r)) => shards.push((f.display().to_string(), h, r)),
            Err(e) => {
                eprintln!("{e}");
                return 1;
            }
        }
    }
    let (header, records) = match shard::merge(shards) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let report = batch::report_named(
        &header.scenario,
        header.sides.clone(),
        header.seed,
        header.players,
        &records,
    );
    if let Err(e) = show(&report, &records, &header, json) {
        eprintln!("{e}");
        return 1;
    }
    if let Some(p) = plot
        && let Err(e) = draw(&report, p)
    {
        eprintln!("--plot: {e}");
        return 1;
    }
    0
}

/// The report in words.
pub fn words(r: &Report) -> String {
    let mut out = format!(
        "{}: {} games from seed {}, {} ({}) against {} ({})\n",
        r.scenario,
        r.games,
        r.seed,
        r.players[0].name(),
        r.sides[0],
        r.players[1].name(),
        r.sides[1]
    );
    for s in 0..2 {
        let w = &r.wins[s];
        out.push_str(&format!(
            "  {:<24} wins {:>5}  {:5.1}%  (95% interval {:.1}% to {:.1}%)\n",
            r.sides[s],
            w.count,
            w.rate * 100.0,
            w.low * 100.0,
            w.high * 100.0
        ));
    }
    out.push_str(&format!(
        "  no winner {}; ended by the turn limit {}\n  turns played: mean {:.1}, standard deviation {:.1}\n",
        r.draws, r.turn_limit, r.turns_mean, r.turns_sd
    ));
    if r.unfinished > 0 || r.refused > 0 {
        out.push_str(&format!(
            "  unfinished games {}; commands refused {}\n",
            r.unfinished, r.refused
        ));
    }
    out.push_str("  units lost per game, by troop type:\n");
    for s in 0..2 {
        let list: Vec<String> = r.losses[s]
            .iter()
            .map(|(t, n)| format!("{t} {n:.2}"))
            .collect();
        out.push_str(&format!(
            "    {:<22} {}\n",
            r.sides[s],
            if list.is_empty() {
                "none".into()
            } else {
                list.join(", ")
            }
        ));
    }
    let f = &r.fought;
    out.push_str(&format!(
        "  strength lost per game (as the ruleset counts an army's strength: BBB's bases, Old Dessauer's\n  figures, DBN's weighted count, else units):\n    {} {:.0}%, {} {:.0}%; both together {:.0}% of the smaller army; games with nothing lost {}\n",
        r.sides[0],
        100.0 * f.share_lost[0],
        r.sides[1],
        100.0 * f.share_lost[1],
        100.0 * f.of_smaller,
        f.bloodless
    ));
    out.push_str(&decided_words(r));
    if !r.decisive.is_empty() {
        out.push_str("  losses that decided games (the beaten side's last unit lost):\n");
        for (name, n) in &r.decisive {
            out.push_str(&format!("    {name:<30} {n} game(s)\n"));
        }
    }
    out
}

/// How the games were decided, and the objectives held at the end, in words.
fn decided_words(r: &Report) -> String {
    let side = |s: usize| r.sides.get(s).map(String::as_str).unwrap_or("?");
    let mut out = String::from("  how the games were decided:\n");
    for d in &r.decided {
        let how = d.by.map_or("unfinished", batch::way);
        let who = match d.winner {
            Some(w) => format!("{} wins", side(w)),
            None => "no winner".into(),
        };
        out.push_str(&format!(
            "    {:<46} {:>5} game(s), mean turn {:.1}\n",
            format!("{how}: {who}"),
            d.games,
            d.turns_mean
        ));
        if let Some(c) = &d.condition {
            out.push_str(&format!("      met: {c}\n"));
        }
    }
    if !r.objectives.is_empty() {
        out.push_str("  objectives held at the end, share of games:\n");
        for s in 0..2 {
            let list: Vec<String> = r
                .objectives
                .iter()
                .map(|o| format!("{} {:.0}%", o.objective, o.share[s] * 100.0))
                .collect();
            out.push_str(&format!("    {:<22} {}\n", side(s), list.join(", ")));
        }
    }
    out
}

/// Draws the share of games each side has won by each turn, and the units each side lost in
/// each turn per game, as SVG or PNG by the file's extension.
fn draw(r: &Report, path: &Path) -> Result<(), String> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let size = (900, 640);
    // Both backends measure the words with this font.
    plotters::style::register_font(
        "sans-serif",
        FontStyle::Normal,
        epaint_default_fonts::UBUNTU_LIGHT,
    )
    .map_err(|_| "the plot's font would not load".to_string())?;
    match ext.as_str() {
        "svg" => chart(r, SVGBackend::new(path, size).into_drawing_area()),
        "png" => chart(r, BitMapBackend::new(path, size).into_drawing_area()),
        _ => Err(format!("{}: name an .svg or a .png file", path.display())),
    }
}

fn chart<DB: DrawingBackend>(
    r: &Report,
    root: DrawingArea<DB, plotters::coord::Shift>,
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    root.fill(&WHITE).map_err(e)?;
    let root = root
        .titled(
            &format!("{}: {} games", r.scenario, r.games),
            ("sans-serif", 22),
        )
        .map_err(e)?;
    let (top, bottom) = root.split_vertically(300);
    let n = r.games.max(1) as f64;
    // Wins so far, by turn.
    let won = [0, 1].map(|s| {
        let mut sum = 0usize;
        let pts: Vec<(u32, f64)> = std::iter::once((0, 0.0))
            .chain(r.by_turn.iter().map(|t| {
                sum += t.won[s];
                (t.turn, sum as f64 / n * 100.0)
            }))
            .collect();
        (pts, format!("{} ({})", r.sides[s], r.players[s].name()))
    });
    panel(
        r,
        &top,
        "Games won by the end of each turn",
        "% of games",
        100.0,
        won,
    )?;
    // Units lost in each turn, per game.
    let lost = [0, 1].map(|s| {
        let pts: Vec<(u32, f64)> = r
            .by_turn
            .iter()
            .map(|t| (t.turn, t.lost[s] as f64 / n))
            .collect();
        (pts, r.sides[s].clone())
    });
    let most = lost
        .iter()
        .flat_map(|(pts, _)| pts.iter().map(|p| p.1))
        .fold(0.5, f64::max);
    panel(
        r,
        &bottom,
        "Units lost in each turn, per game",
        "units",
        most * 1.1,
        lost,
    )?;
    root.present().map_err(e)?;
    Ok(())
}

/// One chart: a line for each side by turn, with its legend.
fn panel<DB: DrawingBackend>(
    r: &Report,
    area: &DrawingArea<DB, plotters::coord::Shift>,
    caption: &str,
    y_desc: &str,
    y_max: f64,
    lines: [(Vec<(u32, f64)>, String); 2],
) -> Result<(), String> {
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| x.to_string();
    let last = r.by_turn.last().map(|t| t.turn).unwrap_or(1).max(1);
    let mut c = ChartBuilder::on(area)
        .margin(12)
        .caption(caption, ("sans-serif", 16))
        .x_label_area_size(30)
        .y_label_area_size(44)
        .build_cartesian_2d(0u32..last, 0f64..y_max)
        .map_err(e)?;
    c.configure_mesh()
        .x_desc("turn")
        .y_desc(y_desc)
        .draw()
        .map_err(e)?;
    let colours = [RGBColor(40, 80, 200), RGBColor(200, 50, 40)];
    for ((pts, label), colour) in lines.into_iter().zip(colours) {
        c.draw_series(LineSeries::new(pts, colour.stroke_width(2)))
            .map_err(e)?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour));
    }
    c.configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(e)?;
    Ok(())
}
