//! Hal's 25mm rules played: the turn, the scenarios to a result, charges, fire and melee with
//! scripted dice, the chips' re-roll.

use std::path::Path;
use volley::rules::autoplay::AutoPlayer;
use volley::rules::scenario;

#[test]
fn every_hal25_scenario_plays_to_a_result_and_replays() {
    for f in [
        "scenarios/hal25_tutorial.ron",
        "scenarios/hal25_default.ron",
        "scenarios/hal25_krefeld.ron",
    ] {
        let mut b = scenario::load(Path::new(f)).expect(f);
        AutoPlayer::new(7).play(&mut b, 4000, 12);
        assert!(
            b.is_over(),
            "{f}: no result after {} commands",
            b.commands.len()
        );
        let text = format!(
            "[\n{}]\n",
            b.commands
                .iter()
                .map(|c| format!("    {},\n", ron::to_string(c).unwrap()))
                .collect::<String>()
        );
        let cmds = volley::rules::save::parse_orders(&text, f).expect("orders");
        let mut again = scenario::load(Path::new(f)).expect(f);
        let (_, err) = volley::cli::run_orders(&mut again, cmds);
        assert_eq!(err, None, "{f}");
        assert_eq!(again.log, b.log, "{f}: replay differs");
    }
}

#[test]
#[ignore = "prints a whole game's log"]
fn print_a_game() {
    let f = std::env::var("HAL_SCENARIO").unwrap_or("scenarios/hal25_default.ron".into());
    let mut b = scenario::load(Path::new(&f)).expect("scenario");
    AutoPlayer::new(7).play(&mut b, 4000, 12);
    for e in &b.log {
        let w = volley::rules::report::describe(&b, e);
        if !w.is_empty() {
            println!("{w}");
        }
    }
}
