//! Replays step a finished or saved game event by event, forwards and backwards: the board
//! always shows the state after the command whose event is shown, and the end is the game.

use std::path::Path;
use volley::app::{Replay, ReplayStep};
use volley::cli::run_orders;
use volley::rules::{Game, save, scenario};

fn played() -> Game {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut b = scenario::load(&root.join("scenarios/tutorial.ron")).unwrap();
    b.script_dice(&[
        4, 5, 2, 3, 6, 1, 4, 4, 5, 3, 2, 6, 5, 1, 3, 4, 6, 2, 2, 5, 1, 6, 3, 3, 4, 5, 6, 1, 2, 4,
        5, 5, 3, 2, 1, 6, 4, 3, 2, 1,
    ]);
    let text = std::fs::read_to_string(root.join("tests/orders/tutorial_two_turns.ron")).unwrap();
    let (_, err) = run_orders(&mut b, save::parse_orders(&text, "o").unwrap());
    assert_eq!(err, None);
    b
}

fn places(b: &Game) -> Vec<String> {
    b.units
        .iter()
        .map(|u| format!("{} {:?} {:?}", u.id, u.base, u.status))
        .collect()
}

#[test]
fn a_replay_steps_forwards_to_the_game_and_back_to_any_event() {
    let game = played();
    let (mut b, mut r) = Replay::start(&game).unwrap();
    assert_eq!(r.commands(), game.commands.len());
    assert_eq!(r.total(), game.log.len());
    let mut states = Vec::new();
    let mut steps = 0;
    while r.step(&mut b, ReplayStep::Forward) {
        steps += 1;
        // The event shown is the game's, and the board has carried out its command.
        assert!(b.log.len() >= r.shown);
        assert_eq!(b.log[r.shown - 1], game.log[r.shown - 1]);
        states.push((r.shown, places(&b)));
    }
    assert_eq!(r.shown, game.log.len());
    assert!(steps > 10);
    assert_eq!(
        places(&b),
        places(&game),
        "the end of the replay is the game"
    );
    assert_eq!(b.log, game.log);
    // Backwards, event by event: the same states as on the way forwards.
    while r.step(&mut b, ReplayStep::Back) {
        let (_, want) = states
            .iter()
            .find(|(s, _)| *s == r.shown)
            .cloned()
            .unwrap_or_default();
        if !want.is_empty() {
            assert_eq!(places(&b), want, "event {}", r.shown);
        }
    }
    assert_eq!(r.done, 0);
    assert!(r.step(&mut b, ReplayStep::ToEnd));
    assert_eq!(b.log, game.log);
    assert!(r.step(&mut b, ReplayStep::ToStart));
    assert_eq!(r.done, 0);
    assert!(
        !r.step(&mut b, ReplayStep::Back),
        "nothing before the start"
    );
}

#[test]
fn a_saved_game_replays_from_its_file() {
    let game = played();
    let dir = std::env::temp_dir().join(format!("volley-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.ron");
    save::write(&game, &path).unwrap();
    let loaded = save::load(&path).unwrap();
    let (mut b, mut r) = Replay::start(&loaded).unwrap();
    r.step(&mut b, ReplayStep::ToEnd);
    assert_eq!(b.log, game.log);
    let _ = std::fs::remove_dir_all(dir);
}
