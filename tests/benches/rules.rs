//! Benchmarks: a move check on a crowded table, line of sight to 200 enemies, whole headless
//! games of random legal commands (in games a second on each ruleset's default scenario), the
//! opponent's games and bounds, and the scenario editor's checks after an edit.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;
use volley::players::autoplay::AutoPlayer;
use volley::rules::command::Step;
use volley::rules::model::UnitId;
use volley::rules::ruleset::AnyRuleset;
use volley::rules::ruleset::dbn::MOVEMENT;
use volley::rules::{Command, Game, scenario};

/// 400 units in 20 rows and 60 terrain features on a 4000 x 3000 mm table.
fn crowded() -> Game {
    let mut terrain = String::new();
    for i in 0..60 {
        let (x, y) = (
            100.0 + (i % 10) as f32 * 390.0,
            100.0 + (i / 10) as f32 * 470.0,
        );
        let kind = ["Woods", "Marsh", "Rough", "Village", "Hill", "Town"][i % 6];
        terrain += &format!(
            "(id: \"t{i}\", kind: {kind}, points: [({x}, {y}), ({}, {y}), ({}, {}), ({x}, {})]),\n",
            x + 120.0,
            x + 140.0,
            y + 90.0,
            y + 80.0
        );
    }
    let mut units = String::new();
    for i in 0..400 {
        let side = i / 200;
        let row = (i % 200) / 20;
        let col = i % 20;
        let y = if side == 0 {
            300.0 + row as f32 * 60.0
        } else {
            2700.0 - row as f32 * 60.0
        };
        let facing = if side == 0 { 0 } else { 180 };
        units += &format!(
            "(id: \"u{i}\", side: {side}, type: \"{}\", at: Some(({}, {y})), facing: {facing}),\n",
            ["Ms", "HC", "Jg", "FA"][i % 4],
            150.0 + col as f32 * 190.0
        );
    }
    let text = format!(
        "(name: \"bench\", ruleset: \"db7yw\", table: (width: 4000, height: 3000), turn_limit: 10, terrain: [{terrain}],
          sides: [(name: \"A\", colour: (0,0,200)), (name: \"B\", colour: (200,200,200))], units: [{units}])"
    );
    let mut b = scenario::parse(&text, "bench").expect("bench scenario");
    b.execute(Command::EndPhase).unwrap();
    assert_eq!(b.phase, MOVEMENT);
    b.command_points = [100, 100];
    b
}

fn move_check(c: &mut Criterion) {
    let b = crowded();
    let AnyRuleset::Db7yw(r) = &b.rules else {
        panic!("a DB7YW battle")
    };
    let dbn = &r.dbn;
    let id = UnitId("u105".into());
    c.bench_function("check one move (400 units, 60 features)", |bench| {
        bench.iter(|| {
            let r = dbn.plan_move(
                &b,
                std::slice::from_ref(&id),
                black_box(&[
                    Step::Wheel {
                        corner: volley::rules::geometry::Corner::Left,
                        degrees: 20.0,
                    },
                    Step::Advance(150.0),
                ]),
                None,
                true,
            );
            black_box(r.is_ok())
        })
    });
}

fn line_of_sight(c: &mut Criterion) {
    let b = crowded();
    let AnyRuleset::Db7yw(r) = &b.rules else {
        panic!("a DB7YW battle")
    };
    let dbn = &r.dbn;
    let from = b.unit(&UnitId("u190".into())).unwrap().clone();
    let enemies: Vec<_> = b.units.iter().filter(|u| u.side == 1).cloned().collect();
    assert_eq!(enemies.len(), 200);
    c.bench_function("line of sight to 200 enemies", |bench| {
        bench.iter(|| {
            enemies
                .iter()
                .filter(|e| dbn.line_of_sight(&b, &from, e).is_ok())
                .count()
        })
    });
}

fn whole_game(c: &mut Criterion) {
    let mut g = c.benchmark_group("headless game");
    g.sample_size(10);
    for (file, name) in [
        ("scenarios/default.ron", "default scenario (DB7YW)"),
        ("scenarios/lobosch_1756.ron", "The Lobosch (Old Dessauer)"),
        (
            "scenarios/dbfpw_default.ron",
            "default 15-point game (DBFPW)",
        ),
        (
            "scenarios/dbfpw_spicheren.ron",
            "Spicheren (DBFPW, ammunition, DSCs)",
        ),
        ("scenarios/bbb_default.ron", "default game (BBB)"),
        ("scenarios/bbb_rossbach.ron", "Rossbach (BBB)"),
        ("scenarios/hal25_default.ron", "default game (Hal's 25mm)"),
        ("scenarios/hal25_krefeld.ron", "Krefeld (Hal's 25mm)"),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let start = scenario::load(&path).unwrap();
        g.bench_function(
            format!("{name}, random legal commands to the end"),
            |bench| {
                bench.iter(|| {
                    let mut b = start.clone();
                    AutoPlayer::new(3).play(&mut b, 400, 16);
                    black_box(b.log.len())
                })
            },
        );
    }
    g.finish();
}

/// Each ruleset's default scenario.
const DEFAULTS: [(&str, &str); 5] = [
    ("scenarios/default.ron", "DB7YW default"),
    ("scenarios/dbfpw_default.ron", "DBFPW default"),
    ("scenarios/bbb_default.ron", "BBB default"),
    ("scenarios/hal25_default.ron", "Hal's 25mm default"),
    ("scenarios/lobosch_1756.ron", "Old Dessauer, The Lobosch"),
];

/// The seeds of the random games measured: one game's length varies much with its dice, so
/// each iteration plays the same eight, and the measure is given in games a second.
const RANDOM_SEEDS: u64 = 8;

/// Whole games of random legal commands on each ruleset's default scenario, as a batch plays
/// them (the battle forked, every command through `Game::execute`): what a search that plays
/// games out to their end pays for each.
fn random_games(c: &mut Criterion) {
    use volley::players::batch::{Player, play_game};
    let mut g = c.benchmark_group("random games");
    g.sample_size(10);
    g.throughput(Throughput::Elements(RANDOM_SEEDS));
    for (file, name) in DEFAULTS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let start = scenario::load(&path).unwrap();
        g.bench_function(name, |bench| {
            bench.iter(|| {
                (1..=RANDOM_SEEDS)
                    .map(|seed| play_game(&start, seed, [Player::Random, Player::Random]).commands)
                    .sum::<usize>()
            })
        });
    }
    g.finish();
}

fn batch_games(c: &mut Criterion) {
    use volley::players::batch::{Player, play_game};
    let mut g = c.benchmark_group("batch game");
    g.sample_size(10);
    for (file, name) in DEFAULTS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let start = scenario::load(&path).unwrap();
        let players = [Player::Veteran, Player::Veteran];
        g.bench_function(format!("{name}, veteran against veteran"), |bench| {
            bench.iter(|| black_box(play_game(&start, 3, players).commands))
        });
    }
    g.finish();
}

/// One bound of each opponent's on the largest scenario, every phase until the other side
/// moves: the veteran's, and the planning opponent's at its usual budget (the time a player
/// waits for it).
fn opponent_bound(c: &mut Criterion) {
    use volley::players::batch::{Bot, Player, play_phase};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/dbfpw_spicheren.ron");
    let start = scenario::load(&path).unwrap();
    let mut g = c.benchmark_group("one bound of Spicheren (74 units)");
    g.sample_size(10);
    for (name, player) in [("veteran", Player::Veteran), ("opponent", Player::OPPONENT)] {
        g.bench_function(name, |bench| {
            bench.iter(|| {
                let mut b = start.fork();
                let mut bots = [Bot::new(player, 1), Bot::new(player, 2)];
                let side = b.active;
                for _ in 0..12 {
                    if b.active != side || b.is_over() {
                        break;
                    }
                    play_phase(&mut b, &mut bots);
                }
                black_box(b.commands.len())
            })
        });
    }
    g.finish();
}

/// What the editor does after every edit of the largest battle: check the whole draft (write it,
/// build what passes, put each problem on its thing), and write the file.
fn editor_check(c: &mut Criterion) {
    use volley::editor::{Draft, Thing, write};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/dbfpw_spicheren.ron");
    let mut d = Draft::open(&path).unwrap();
    let mut g = c.benchmark_group("the editor on Spicheren (53 units, 21 features)");
    g.bench_function("check the draft after an edit", |bench| {
        bench.iter(|| {
            d.move_by(Thing::Unit(0), 0.1, 0.0);
            black_box(d.check().problems.len())
        })
    });
    g.bench_function("write the file", |bench| {
        bench.iter(|| black_box(write(d.raw()).unwrap().text.len()))
    });
    g.finish();
}

criterion_group!(
    benches,
    editor_check,
    move_check,
    line_of_sight,
    whole_game,
    random_games,
    batch_games,
    opponent_bound
);
criterion_main!(benches);
