//! Same scenario, seed and commands give the same events; save, load and continue gives the same
//! log as never saving.

use std::path::Path;
use volley::rules::autoplay::AutoPlayer;
use volley::rules::{Battle, Command, save, scenario};

fn tutorial() -> Battle {
    scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/tutorial.ron")).unwrap()
}

fn log_text(b: &Battle) -> String {
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
    for cmd in a.commands.clone() {
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
    for c in straight.commands[..cut].iter().cloned() {
        first.execute(c).unwrap();
    }
    let dir = std::env::temp_dir().join(format!("volley-det-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.ron");
    save::write(&first, &path).unwrap();
    let mut loaded = save::load(&path).unwrap();
    assert_eq!(log_text(&loaded), log_text(&first));
    for c in straight.commands[cut..].iter().cloned() {
        loaded.execute(c).unwrap();
    }
    assert_eq!(log_text(&loaded), log_text(&straight));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn undo_then_redo_gives_the_same_dice() {
    let mut a = tutorial();
    AutoPlayer::new(5).play(&mut a, 12, 12);
    let n = a.log.len();
    let last = a.commands.last().cloned().unwrap();
    let tail = a.log.clone();
    a.execute(Command::Undo).unwrap();
    assert!(a.log.len() < n);
    a.execute(last).unwrap();
    assert_eq!(
        ron::to_string(&a.log).unwrap(),
        ron::to_string(&tail).unwrap()
    );
}

#[test]
fn random_games_keep_units_on_the_table_and_apart() {
    for seed in 0..6 {
        let mut b = tutorial();
        b.reseed(seed);
        AutoPlayer::new(seed).play(&mut b, 300, 12);
        for u in b.alive() {
            assert!(
                b.table.holds(&u.base),
                "seed {seed}: {} off the table",
                u.id
            );
            for v in b.alive() {
                assert!(
                    u.id == v.id || !u.base.overlaps(&v.base),
                    "seed {seed}: {} overlaps {}",
                    u.id,
                    v.id
                );
            }
        }
    }
}
