//! Same scenario, seed and commands give the same events; save, load and continue gives the same
//! log as never saving.

use std::path::Path;
use volley::players::autoplay::AutoPlayer;
use volley::rules::{Command, Game, Step, UnitId, save, scenario};

fn tutorial() -> Game {
    scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/tutorial.ron")).unwrap()
}

fn log_text(b: &Game) -> String {
    ron::to_string(&b.log).unwrap()
}

#[test]
fn same_seed_same_log() {
    let mut a = tutorial();
    let mut b = tutorial();
    AutoPlayer::new(9).play(&mut a, 200, 12);
    AutoPlayer::new(9).play(&mut b, 200, 12);
    assert!(a.log.len() > 20);
    assert_eq!(log_text(&a), log_text(&b));
    // Replaying the accepted commands alone gives the same log again.
    let mut c = tutorial();
    for cmd in a.commands.to_vec() {
        c.execute(cmd).unwrap();
    }
    assert_eq!(log_text(&a), log_text(&c));
}

#[test]
fn different_seeds_differ() {
    let mut a = tutorial();
    let mut b = tutorial();
    a.reseed(1);
    b.reseed(2);
    AutoPlayer::new(9).play(&mut a, 40, 12);
    AutoPlayer::new(9).play(&mut b, 40, 12);
    assert_ne!(log_text(&a), log_text(&b));
}

#[test]
fn save_load_continue_equals_never_saving() {
    let mut straight = tutorial();
    AutoPlayer::new(4).play(&mut straight, 30, 12);
    let cut = straight.commands.len() / 2;
    let mut first = tutorial();
    for c in straight.commands.iter().take(cut).cloned() {
        first.execute(c).unwrap();
    }
    let dir = std::env::temp_dir().join(format!("volley-det-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.ron");
    save::write(&first, &path).unwrap();
    let mut loaded = save::load(&path).unwrap();
    assert_eq!(log_text(&loaded), log_text(&first));
    for c in straight.commands.since(cut).cloned() {
        loaded.execute(c).unwrap();
    }
    assert_eq!(log_text(&loaded), log_text(&straight));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn undo_then_redo_gives_the_same_log() {
    let mut b = tutorial();
    b.execute(Command::EndPhase).unwrap();
    let before = log_text(&b);
    let step = Command::Move {
        unit: UnitId("pr-hc".into()),
        steps: vec![Step::Advance(100.0)],
    };
    b.execute(step.clone()).unwrap();
    let tail = log_text(&b);
    b.execute(Command::Undo).unwrap();
    assert_eq!(log_text(&b), before);
    b.execute(step).unwrap();
    assert_eq!(log_text(&b), tail);
}

/// A battle in the firing phase whose last command rolled dice.
fn after_a_volley(file: &str, moves: Vec<Command>, fire: Command) -> Game {
    let mut b = scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(file),
    )
    .unwrap();
    for c in moves {
        b.execute(c).unwrap();
    }
    b.execute(fire).unwrap();
    b
}

#[test]
fn undo_never_takes_back_rolled_dice_in_either_ruleset() {
    let fire = |unit: &str, target: &str| Command::Fire {
        unit: UnitId(unit.into()),
        target: UnitId(target.into()),
        support: vec![],
        defence: None,
    };
    let db7yw = after_a_volley(
        "tutorial.ron",
        vec![Command::EndPhase, Command::EndPhase],
        fire("pr-fa", "au-fa"),
    );
    let od = after_a_volley(
        "od_tutorial.ron",
        vec![
            Command::Move {
                unit: UnitId("pr-ir".into()),
                steps: vec![Step::Advance(3.0)],
            },
            Command::EndPhase,
        ],
        fire("pr-ir", "au-ir"),
    );
    for mut b in [db7yw, od] {
        let log = log_text(&b);
        let err = b.execute(Command::Undo).unwrap_err();
        assert!(err.to_string().contains("dice"), "{err}");
        assert_eq!(log_text(&b), log, "nothing taken back");
        assert!(b.last_command_rolled());
    }
    // The command roll that ends DB7YW's command phase is dice too.
    let mut b = tutorial();
    b.execute(Command::EndPhase).unwrap();
    assert!(b.execute(Command::Undo).is_err());
}

#[test]
fn a_save_keeps_who_plays_each_side() {
    let mut b = tutorial();
    AutoPlayer::new(4).play(&mut b, 30, 4);
    let seats = save::Seats {
        opponent: Some(1),
        ..Default::default()
    };
    let text = save::to_string_seated(&b, &seats).unwrap();
    let (loaded, back) = save::parse_seated(&text, "seated.ron").unwrap();
    assert_eq!(back, seats);
    assert_eq!(log_text(&loaded), log_text(&b));
    // A hotseat save says nothing of seats, and reads as hotseat (as every older save does).
    let text = save::to_string(&b).unwrap();
    assert!(!text.contains("seats"));
    assert_eq!(
        save::parse_seated(&text, "s.ron").unwrap().1,
        save::Seats::default()
    );
    // An opponent for a side the battle lacks is refused with its place.
    let bad = save::to_string_seated(
        &b,
        &save::Seats {
            opponent: Some(2),
            ..Default::default()
        },
    )
    .unwrap();
    let d = save::parse_seated(&bad, "bad.ron").unwrap_err();
    assert!(d[0].message.contains("side 0 or 1"), "{d:?}");
    assert!(d[0].line > 1);
}
