//! Batch runs a designer can look into and spread over machines: every game written as a save
//! that replays to its recorded result, and shards merged into the report one run prints.

use std::path::{Path, PathBuf};
use std::process::Command as Process;
use volley::app::{Replay, ReplayStep};
use volley::players::batch::{self, GameRecord, Player, print, saves, shard};
use volley::rules::command::{Ending, Event};
use volley::rules::save::{self, Outcome, Reseed, Save, Seat};
use volley::rules::{Game, scenario};

fn tutorial() -> Game {
    save::load_any(Path::new("scenarios/tutorial.ron")).expect("tutorial")
}

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("volley-batch-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Plays a batch from `start`, writing each game into `dir`; the records and the games.
fn batch_saving(
    start: &Game,
    dir: &Path,
    games: usize,
    seed: u64,
    players: [Player; 2],
) -> Vec<GameRecord> {
    let keep = |g: &Game, s: u64| saves::write(dir, g, s, players).map(|_| ());
    batch::run_keeping(start, games, seed, players, &|| {}, &keep).unwrap()
}

fn saved_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

fn game_over(g: &Game) -> Option<Event> {
    g.log
        .iter()
        .rev()
        .find(|e| matches!(e, Event::GameOver { .. }))
        .cloned()
}

#[test]
fn each_saved_batch_game_replays_to_its_recorded_result() {
    let start = tutorial();
    let dir = folder("replays");
    let players = [Player::Veteran, Player::Random];
    let records = batch_saving(&start, &dir, 4, 11, players);
    let files = saved_files(&dir);
    assert_eq!(files.len(), 4, "{files:?}");
    for (r, path) in records.iter().zip(&files) {
        let text = std::fs::read_to_string(path).unwrap();
        let loaded = save::parse_loaded(&text, &path.display().to_string()).unwrap();
        let g = &loaded.game;
        // Named by its seed and result, and holding that result.
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert_eq!(name, saves::file_name(g, r.seed));
        assert!(name.starts_with(&format!("seed-{:04}-", r.seed)), "{name}");
        let outcome = Outcome::of(g);
        assert_eq!(outcome.winner, r.winner, "{name}");
        assert_eq!(outcome.turn, r.turns, "{name}");
        assert!(outcome.by.is_some(), "{name}: the game ended");
        assert_eq!(g.commands.len(), r.commands, "{name}");
        let s: Save = scenario::ron_options().from_str(&text).unwrap();
        assert_eq!(s.about.and_then(|a| a.result), Some(outcome));
        // One seed from the scenario: the batch's, and no reseed.
        assert_eq!((s.seed, s.reseed.len()), (r.seed, 0));
        // Who sat at each side, with the random player's seed.
        assert_eq!(
            loaded.seats.players,
            vec![
                Seat::Veteran,
                Seat::Random {
                    seed: batch::bot_seed(r.seed, 1)
                }
            ]
        );
        // The window's opponent takes no side: `volley play` opens it as it stands.
        assert_eq!(loaded.seats.opponent, None);
        // The game replayed is the game played, and so is the window's replay to its end.
        let (replayed, _) = batch::play_out(&start, r.seed, players, |_| {});
        assert!(g.log == replayed.log, "{name}: the save is the game played");
        let (mut shown, mut replay) =
            Replay::start_reseeded(g, loaded.seed, &loaded.reseed).unwrap();
        replay.step(&mut shown, ReplayStep::ToEnd);
        assert_eq!(game_over(&shown), game_over(g), "{name}");
        assert!(shown.log == g.log, "{name}: the replay is the game");
    }
}

#[test]
fn a_batch_played_on_from_a_save_reseeds_where_the_save_ends() {
    let loaded = save::load_any_loaded(Path::new("tests/saves/old_hotseat.ron")).unwrap();
    let start = loaded.game;
    let before = start.commands.len();
    assert!(before > 0);
    let dir = folder("reseed");
    let players = [Player::Random, Player::Straight];
    let records = batch_saving(&start, &dir, 3, 40, players);
    for (r, path) in records.iter().zip(saved_files(&dir)) {
        let text = std::fs::read_to_string(&path).unwrap();
        let s: Save = scenario::ron_options().from_str(&text).unwrap();
        // The save's own seed throws its first commands; the batch's the rest.
        assert_eq!(s.seed, 5);
        assert_eq!(
            s.reseed,
            vec![Reseed {
                after: before,
                seed: r.seed
            }]
        );
        let again = save::parse_loaded(&text, "reseeded").unwrap();
        assert_eq!(Outcome::of(&again.game).winner, r.winner);
        let (mut shown, mut replay) =
            Replay::start_reseeded(&again.game, again.seed, &again.reseed).unwrap();
        replay.step(&mut shown, ReplayStep::ToEnd);
        assert!(shown.log == again.game.log, "the replay is the game");
        // The game keeps its reseeds: saved again as the window saves it, it loads to the same
        // game, and the game-over window's replay (from the game alone) replays it.
        assert_eq!(again.game.reseeds, vec![(before, r.seed)]);
        let resaved = save::to_string(&again.game).unwrap();
        let back = save::parse_loaded(&resaved, "resaved").unwrap();
        assert!(
            back.game.log == again.game.log,
            "saved again, the same game"
        );
        let (mut shown, mut replay) = Replay::start(&again.game).unwrap();
        replay.step(&mut shown, ReplayStep::ToEnd);
        assert!(shown.log == again.game.log, "replayed from the game alone");
    }
}

#[test]
fn a_save_whose_replay_misses_its_recorded_result_is_refused() {
    let start = tutorial();
    let dir = folder("tampered");
    let records = batch_saving(&start, &dir, 1, 3, [Player::Straight, Player::Veteran]);
    let path = &saved_files(&dir)[0];
    let text = std::fs::read_to_string(path).unwrap();
    let mut s: Save = scenario::ron_options().from_str(&text).unwrap();
    let about = s.about.as_mut().unwrap();
    let result = about.result.as_mut().unwrap();
    // The other side written in as the winner, then a later turn.
    result.winner = Some(records[0].winner.map_or(0, |w| 1 - w));
    let bad = save::save_text(&s).unwrap();
    let d = save::parse_loaded(&bad, "bad.ron").err().expect("refused");
    assert!(d[0].message.contains("replay"), "{d:?}");
    let (line, _) = scenario::locate(&bad, "result", 1);
    assert_eq!(d[0].line, line);
    let mut s: Save = scenario::ron_options().from_str(&text).unwrap();
    s.about.as_mut().unwrap().result.as_mut().unwrap().turn += 1;
    assert!(save::parse_loaded(&save::save_text(&s).unwrap(), "late.ron").is_err());
    // A reseed past the save's commands, and seats for one side only, are refused at their
    // lines.
    let mut s: Save = scenario::ron_options().from_str(&text).unwrap();
    s.reseed = vec![Reseed {
        after: s.commands.len() + 1,
        seed: 9,
    }];
    let bad = save::save_text(&s).unwrap();
    let d = save::parse_loaded(&bad, "reseed.ron")
        .err()
        .expect("refused");
    assert_eq!(d[0].line, scenario::locate(&bad, "reseed", 1).0, "{d:?}");
    let mut s: Save = scenario::ron_options().from_str(&text).unwrap();
    s.seats.players.pop();
    let bad = save::save_text(&s).unwrap();
    let d = save::parse_loaded(&bad, "seats.ron")
        .err()
        .expect("refused");
    assert_eq!(d[0].line, scenario::locate(&bad, "players", 1).0, "{d:?}");
    // Untouched, it loads.
    assert!(save::parse_loaded(&text, "good.ron").is_ok());
}

#[test]
fn saves_written_before_batch_saves_load_and_write_back_unchanged() {
    let text = std::fs::read_to_string("tests/saves/old_hotseat.ron").unwrap();
    let l = save::parse_loaded(&text, "old_hotseat.ron").unwrap();
    assert_eq!(l.game.commands.len(), 3);
    assert!(l.seats.is_unset() && l.reseed.is_empty());
    // Nothing new is written where nothing new is known.
    assert_eq!(save::to_string(&l.game).unwrap(), text);
    let text = std::fs::read_to_string("tests/saves/old_against_opponent.ron").unwrap();
    let l = save::parse_loaded(&text, "old_against_opponent.ron").unwrap();
    assert_eq!(l.seats.opponent, Some(1));
    assert!(l.seats.players.is_empty());
    let s: Save = scenario::ron_options().from_str(&text).unwrap();
    assert_eq!(s.about.map(|a| (a.turn, a.result)), Some((1, None)));
}

fn volley() -> Process {
    Process::new(env!("CARGO_BIN_EXE_volley"))
}

#[test]
fn volley_batch_saves_every_game_and_volley_check_holds_each_to_its_result() {
    let dir = folder("cli");
    let out = volley()
        .args([
            "batch",
            "scenarios/tutorial.ron",
            "--games",
            "3",
            "--seed",
            "21",
        ])
        .args(["--players", "opponent,random", "--save-games"])
        .arg(dir.join("games"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let files = saved_files(&dir.join("games"));
    assert_eq!(files.len(), 3);
    let out = volley().arg("check").args(&files).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    // A save written over with the other result is refused.
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let mut s: Save = scenario::ron_options().from_str(&text).unwrap();
    let r = s.about.as_mut().unwrap().result.as_mut().unwrap();
    r.winner = match r.winner {
        Some(w) => Some(1 - w),
        None => Some(0),
    };
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, save::save_text(&s).unwrap()).unwrap();
    let out = volley().arg("check").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("bad.ron:") && said.contains("replay"),
        "{said}"
    );
}

/// A shard as `volley batch --seed S --games N --json` makes it: its header and records.
fn shard_of(
    start: &Game,
    seed: u64,
    games: usize,
    players: [Player; 2],
) -> (String, shard::Header, Vec<GameRecord>) {
    let records = batch::run(start, games, seed, players, &|| {});
    let header = shard::Header::of(start, &saves::Origin::default(), seed, games, players);
    (format!("shard-{seed}.json"), header, records)
}

const PAIR: [Player; 2] = [Player::Veteran, Player::Random];

#[test]
fn seeds_1_to_5_merged_with_6_to_12_are_the_run_of_12() {
    let start = tutorial();
    let whole = batch::run(&start, 12, 1, PAIR, &|| {});
    let one = batch::report(&start, 1, PAIR, &whole);
    let whole_header = shard::Header::of(&start, &saves::Origin::default(), 1, 12, PAIR);
    // Given out of order, as a shell's glob may.
    let (header, records) = shard::merge(vec![
        shard_of(&start, 6, 7, PAIR),
        shard_of(&start, 1, 5, PAIR),
    ])
    .unwrap();
    assert_eq!(header, whole_header);
    assert_eq!(records, whole);
    let merged = batch::report_named(
        &header.scenario,
        header.sides.clone(),
        header.seed,
        header.players,
        &records,
    );
    assert_eq!(merged, one);
    assert_eq!(print::words(&merged), print::words(&one));
    assert_eq!(
        shard::json(&merged, &records, &header).unwrap(),
        shard::json(&one, &whole, &whole_header).unwrap()
    );
    // The games are not all alike, so the sums are not trivially equal.
    assert!(whole.iter().any(|g| g.turns != whole[0].turns), "{whole:?}");
}

#[test]
fn merging_refuses_a_gap_an_overlap_and_another_battle() {
    let start = tutorial();
    let err = |shards| shard::merge(shards).expect_err("refused");
    let e = err(vec![
        shard_of(&start, 1, 5, PAIR),
        shard_of(&start, 7, 6, PAIR),
    ]);
    assert!(e.contains("seeds 6 to 6 are missing"), "{e}");
    let e = err(vec![
        shard_of(&start, 1, 5, PAIR),
        shard_of(&start, 5, 8, PAIR),
    ]);
    assert!(e.contains("overlap: seeds 5 to 5"), "{e}");
    // Another scenario, the same scenario with another option, other players.
    let other = save::load_any(Path::new("scenarios/dbfpw_tutorial.ron")).unwrap();
    let e = err(vec![
        shard_of(&start, 1, 2, PAIR),
        shard_of(&other, 3, 2, PAIR),
    ]);
    assert!(e.contains("another scenario or rules"), "{e}");
    let text = std::fs::read_to_string("scenarios/tutorial.ron").unwrap();
    let mut raw: scenario::RawScenario = scenario::ron_options().from_str(&text).unwrap();
    raw.turn_limit += 1;
    let longer = scenario::build(&raw, &text, "longer").unwrap();
    let e = err(vec![
        shard_of(&start, 1, 2, PAIR),
        shard_of(&longer, 3, 2, PAIR),
    ]);
    assert!(e.contains("another scenario or rules"), "{e}");
    let e = err(vec![
        shard_of(&start, 1, 2, PAIR),
        shard_of(&start, 3, 2, [Player::Straight, Player::Random]),
    ]);
    assert!(e.contains("played by straight against random"), "{e}");
    // A shard of another version of the format.
    let (name, mut h, records) = shard_of(&start, 3, 2, PAIR);
    h.version = shard::SHARD_VERSION + 1;
    let e = err(vec![shard_of(&start, 1, 2, PAIR), (name, h, records)]);
    assert!(e.contains("shard version 2"), "{e}");
    // A shard whose records are not its header's seeds.
    let (name, h, mut records) = shard_of(&start, 1, 3, PAIR);
    records.pop();
    let e = err(vec![(name, h, records)]);
    assert!(e.contains("not the games of seeds 1 to 3"), "{e}");
}

#[test]
fn volley_batch_merge_prints_what_one_run_prints_byte_for_byte() {
    let dir = folder("merge");
    let run = |seed: &str, games: &str, json: bool| {
        let mut c = volley();
        c.args([
            "batch",
            "scenarios/tutorial.ron",
            "--players",
            "opponent,random",
        ])
        .args(["--seed", seed, "--games", games]);
        if json {
            c.arg("--json");
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        out.stdout
    };
    std::fs::write(dir.join("a.json"), run("1", "5", true)).unwrap();
    std::fs::write(dir.join("b.json"), run("6", "7", true)).unwrap();
    std::fs::write(dir.join("c.json"), run("8", "5", true)).unwrap();
    let merge = |files: &[&str], json: bool| {
        let mut c = volley();
        c.args(["batch", "merge"])
            .args(files.iter().map(|f| dir.join(f)));
        if json {
            c.arg("--json");
        }
        c.output().unwrap()
    };
    let out = merge(&["b.json", "a.json"], true);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&run("1", "12", true))
    );
    let out = merge(&["a.json", "b.json"], false);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&run("1", "12", false))
    );
    // The merged JSON is itself a shard.
    std::fs::write(
        dir.join("ab.json"),
        merge(&["a.json", "b.json"], true).stdout,
    )
    .unwrap();
    std::fs::write(dir.join("d.json"), run("13", "2", true)).unwrap();
    let out = merge(&["ab.json", "d.json"], true);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&run("1", "14", true))
    );
    // Overlapping shards are refused, naming both, with nothing on the standard output.
    let out = merge(&["a.json", "b.json", "c.json"], false);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("b.json and") && said.contains("c.json overlap"),
        "{said}"
    );
    // A report without records (as a batch printed before shards) is no shard.
    std::fs::write(dir.join("bare.json"), "{\"scenario\": \"x\", \"games\": 1}").unwrap();
    let out = merge(&["bare.json"], false);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a batch shard"));
}

fn game_record(winner: Option<usize>, by: Ending, turns: u32, hill: usize) -> GameRecord {
    GameRecord {
        seed: 0,
        winner,
        reason: String::new(),
        turns,
        turn_limit: by == Ending::TurnLimit,
        losses: Vec::new(),
        decisive: None,
        commands: 0,
        finished: true,
        refused: 0,
        ending: Some(by),
        condition: None,
        held: vec![("Hill".into(), hill), ("Mill".into(), 1)],
        strength: [(0.0, 10.0), (0.0, 8.0)],
    }
}

#[test]
fn the_report_says_how_hard_the_battles_were_fought_by_each_rulesets_count() {
    let mut games = [
        game_record(Some(0), Ending::Broken, 4, 0),
        game_record(None, Ending::TurnLimit, 8, 1),
    ];
    // Ten of side 0's and eight of side 1's: 2 and 4 lost, 6 against the smaller army's 8.
    games[0].strength = [(2.0, 10.0), (4.0, 8.0)];
    let sides = ["Prussia".to_string(), "Austria".to_string()];
    let r = batch::report_named("t", sides, 1, PAIR, &games);
    assert_eq!(
        r.fought.share_lost,
        [0.1, 0.25],
        "0.2 and 0.5 over two games"
    );
    assert_eq!(
        r.fought.of_smaller, 0.375,
        "6 of 8 in one game, none in the other"
    );
    assert_eq!(r.fought.bloodless, 1);
    let words = batch::print::words(&r);
    assert!(
        words.contains("both together 38% of the smaller army; games with nothing lost 1"),
        "{words}"
    );
}

#[test]
fn the_report_counts_each_way_a_game_was_decided_and_each_objective_held() {
    let games = [
        game_record(Some(0), Ending::Broken, 4, 0),
        game_record(None, Ending::TurnLimit, 8, 1),
        game_record(Some(0), Ending::Broken, 7, 0),
        game_record(Some(1), Ending::Broken, 5, 0),
    ];
    let sides = ["Prussia".to_string(), "Austria".to_string()];
    let r = batch::report_named("t", sides, 1, PAIR, &games);
    let rows: Vec<_> = r
        .decided
        .iter()
        .map(|d| (d.by, d.winner, d.games, d.turns_mean))
        .collect();
    // Most games first; then by way, then by winner.
    assert_eq!(
        rows,
        vec![
            (Some(Ending::Broken), Some(0), 2, 5.5),
            (Some(Ending::Broken), Some(1), 1, 5.0),
            (Some(Ending::TurnLimit), None, 1, 8.0),
        ]
    );
    assert!(r.decided.iter().all(|d| d.condition.is_none()));
    let held: Vec<_> = r
        .objectives
        .iter()
        .map(|o| (o.objective.as_str(), o.games, o.share))
        .collect();
    assert_eq!(
        held,
        vec![("Hill", [3, 1], [0.75, 0.25]), ("Mill", [0, 4], [0.0, 1.0])]
    );
    let words = print::words(&r);
    assert!(
        words.contains("an army broke: Prussia wins") && words.contains("mean turn 5.5"),
        "{words}"
    );
    assert!(words.contains("the turn limit: no winner"), "{words}");
    assert!(
        words.contains("Prussia                Hill 75%, Mill 0%"),
        "{words}"
    );
}

#[test]
fn each_record_keeps_how_its_game_ended_and_who_held_each_objective() {
    let start = save::load_any(Path::new("scenarios/bbb_tutorial.ron")).unwrap();
    let places: Vec<String> = start.objectives().into_iter().map(|o| o.name).collect();
    assert!(!places.is_empty());
    let players = [Player::Veteran, Player::Straight];
    let records = batch::run(&start, 4, 3, players, &|| {});
    for r in &records {
        let (g, _) = batch::play_out(&start, r.seed, players, |_| {});
        let Some(Event::GameOver { by, .. }) = game_over(&g) else {
            panic!("seed {}: the game did not end", r.seed);
        };
        assert_eq!(r.ending, Some(by));
        let held: Vec<(String, usize)> = g
            .objectives()
            .into_iter()
            .filter_map(|o| Some((o.name, o.holder?)))
            .collect();
        assert_eq!(r.held, held);
    }
    let report = batch::report(&start, 3, players, &records);
    assert_eq!(report.decided.iter().map(|d| d.games).sum::<usize>(), 4);
    let names: Vec<&str> = report
        .objectives
        .iter()
        .map(|o| o.objective.as_str())
        .collect();
    assert_eq!(names, places.iter().map(String::as_str).collect::<Vec<_>>());
    for o in &report.objectives {
        // Every place is held by one side or the other at every end.
        assert_eq!(o.games[0] + o.games[1], 4, "{o:?}");
    }
}
