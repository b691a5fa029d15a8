//! No game lost: a real `volley run` playing a long game with an autosave after every command is
//! killed (SIGKILL) at moments spread over the game. Every autosave it leaves loads (never a torn
//! file), replays to a prefix of the game, and, resumed with the rest of the orders, ends
//! exactly as the game played whole.
//!
//! `VOLLEY_CRASH_KILLS=N` kills it N times (default 8).

use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::Instant;
use volley::players::batch::{self, Player};
use volley::rules::save;

const SCENARIO: &str = "scenarios/default.ron";
const SEED: u64 = 11;

mod common;

fn kills() -> u32 {
    common::env_count("VOLLEY_CRASH_KILLS", 8) as u32
}

fn volley_run(orders: &Path, autosave: &Path) -> Process {
    let mut p = Process::new(env!("CARGO_BIN_EXE_volley"));
    p.args(["run", SCENARIO, "--seed", &SEED.to_string(), "--orders"])
        .arg(orders)
        .arg("--autosave")
        .arg(autosave)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    p
}

#[test]
fn a_game_killed_at_any_moment_resumes_from_its_autosave() {
    let start = save::load_any(Path::new(SCENARIO)).expect("the default scenario");
    let (game, _) = batch::play_out(&start, SEED, [Player::Random, Player::Random], |_| {});
    let commands = game.commands.to_vec();
    assert!(
        commands.len() > 100,
        "a long game: {} commands",
        commands.len()
    );
    let dir = std::env::temp_dir().join(format!("volley-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let orders = dir.join("orders.ron");
    let text: Vec<String> = commands.iter().map(save::order_text).collect();
    std::fs::write(&orders, format!("[\n{}\n]\n", text.join(",\n"))).expect("orders written");
    let auto = dir.join("autosave.ron");

    // The whole game once, to time it; its last autosave is the game.
    let t = Instant::now();
    let status = volley_run(&orders, &auto).status().expect("volley runs");
    let whole = t.elapsed();
    assert!(status.success(), "the orders play through");
    let last = save::load(&auto).expect("the last autosave loads");
    assert_eq!(last.commands.to_vec(), commands);
    assert_eq!(last.log, game.log);

    let mut resumed_count = 0;
    for i in 0..kills() {
        let _ = std::fs::remove_file(&auto);
        // Moments spread over the game, from its very start to its end.
        let at = whole.mul_f64(f64::from(i) / f64::from(kills().max(2) - 1) * 0.95);
        let mut child = volley_run(&orders, &auto).spawn().expect("volley starts");
        std::thread::sleep(at);
        child.kill().expect("SIGKILL"); // SIGKILL on Unix
        let _ = child.wait();
        let Ok(text) = std::fs::read_to_string(&auto) else {
            continue; // killed before its first command
        };
        let mut b = save::parse(&text, "autosave.ron")
            .unwrap_or_else(|d| panic!("kill {i} after {at:?}: the autosave does not load: {d:?}"));
        let k = b.commands.len();
        assert_eq!(
            b.commands.to_vec(),
            commands[..k].to_vec(),
            "kill {i}: not a prefix of the game"
        );
        for c in &commands[k..] {
            b.execute(c.clone())
                .unwrap_or_else(|e| panic!("kill {i}: the resumed game refuses {c:?}: {e:?}"));
        }
        assert_eq!(
            b.log, game.log,
            "kill {i}: resumed after {k} commands, another game"
        );
        assert_eq!(b.units, game.units);
        resumed_count += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{resumed_count} of {} kills left an autosave, each resumed exactly; the whole game ({} commands) took {whole:?}",
        kills(),
        commands.len()
    );
    assert!(resumed_count > 0, "no kill landed inside the game");
}
