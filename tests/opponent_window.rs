//! Playing against the opponent through the app loop (headless): its commands go through the
//! same door as the player's, each accepted and with its reason; the player's hands are off
//! the table while it plays; Skip plays its part at once.

use bevy::prelude::*;

mod common;
use std::path::Path;
use volley::app::opponent::Computer;
use volley::app::{Game, Intent};
use volley::rules::command::Command;
use volley::rules::save;

/// Updates the app until the opponent's background task has finished (a frame at a time, as
/// the window does; bounded).
fn settle(app: &mut App) {
    for _ in 0..20_000 {
        if !app.world().resource::<Computer>().is_thinking() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
        app.update();
    }
}

/// The player ends every phase until the opponent's part comes (bounded).
fn to_its_part(app: &mut App) {
    for _ in 0..12 {
        let b = &app.world().resource::<Game>().play;
        if app.world().resource::<Computer>().to_act(b) {
            break;
        }
        app.world_mut().write_message(Intent::Do(Command::EndPhase));
        app.update();
    }
}

/// Skip, frame after frame, until the opponent's part is played (bounded).
fn skip_its_part(app: &mut App) {
    for _ in 0..40 {
        let g = app.world().resource::<Game>();
        if !app.world().resource::<Computer>().to_act(&g.play) || g.play.is_over() {
            break;
        }
        app.world_mut().resource_mut::<Computer>().skip();
        app.update();
        settle(app);
    }
}

fn app() -> App {
    let b = save::load_any(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/tutorial.ron"
    )))
    .expect("tutorial");
    let mut app = common::headless(b, "opponent");
    app.insert_resource(Computer::new(1));
    app.update();
    app
}

#[test]
fn the_opponent_plays_its_part_through_the_door() {
    let mut app = app();
    let first = app.world().resource::<Game>().play.active;
    assert_eq!(first, 0, "the player's side moves first in the tutorial");
    // The player ends every phase of the first bound.
    to_its_part(&mut app);
    let before = app.world().resource::<Game>().play.commands.len();
    assert!(
        app.world()
            .resource::<Computer>()
            .to_act(&app.world().resource::<Game>().play),
        "the opponent's part has come"
    );
    // While it plays, the player's commands are refused and change nothing.
    app.world_mut().write_message(Intent::Do(Command::EndPhase));
    app.update();
    let g = app.world().resource::<Game>();
    assert!(
        g.message.as_deref().is_some_and(|m| m.contains("opponent")),
        "{:?}",
        g.message
    );
    let during = g.play.commands.len();
    // Skip: its whole part at once.
    skip_its_part(&mut app);
    let g = app.world().resource::<Game>();
    assert!(!app.world().resource::<Computer>().to_act(&g.play));
    assert_eq!(g.play.active, 0, "the player's bound again");
    assert!(g.play.commands.len() > during, "it gave commands");
    assert_eq!(during, before, "the refused command changed nothing");
    // Each of its commands has its reason for the log.
    assert!(!g.reasons.is_empty());
    assert!(g.reasons.iter().all(|(_, why)| !why.is_empty()));
}

#[test]
fn a_game_saved_against_the_opponent_loads_back_against_it() {
    let mut app = app();
    // Saved against the opponent (side 1).
    let path = app.world().resource::<Game>().save_path.clone();
    let _ = std::fs::remove_file(&path);
    app.world_mut().write_message(Intent::Save);
    app.update();
    let text = std::fs::read_to_string(&path).expect("the quicksave");
    assert!(text.contains("opponent: Some(1)"), "{text}");
    // Played on as hotseat, then the save loaded: the opponent is back at the table.
    app.world_mut().remove_resource::<Computer>();
    app.update();
    app.world_mut().write_message(Intent::Load(path.clone()));
    app.update();
    app.world_mut().write_message(Intent::LoadConfirmed);
    app.update();
    assert_eq!(
        app.world().get_resource::<Computer>().map(|c| c.side),
        Some(1),
        "the opponent plays side 1 again"
    );
    // A hotseat save loads as hotseat: the opponent leaves the table.
    app.world_mut().remove_resource::<Computer>();
    app.update();
    app.world_mut().write_message(Intent::Save);
    app.update();
    // The quicksave holds a game: saving over it is confirmed.
    app.world_mut().write_message(Intent::OverwriteConfirmed);
    app.update();
    app.insert_resource(Computer::new(1));
    app.world_mut().write_message(Intent::Load(path));
    app.update();
    app.world_mut().write_message(Intent::LoadConfirmed);
    app.update();
    assert!(app.world().get_resource::<Computer>().is_none());
}

/// Plays `scenario` against the opponent on `side` through the app loop until turn 3: the
/// player ends each step when the opponent is not playing its part alone, and skips through
/// the opponent's part. Returns the turn reached and whether the player ever waited in vain.
fn play_against(scenario: &str, side: usize) -> (u32, bool) {
    let b =
        save::load_any(&Path::new(env!("CARGO_MANIFEST_DIR")).join(scenario)).expect("scenario");
    let mut app = common::headless(b, "opponent-steps");
    app.insert_resource(Computer::new(side));
    app.update();
    for _ in 0..600 {
        let g = app.world().resource::<Game>();
        if g.play.is_over() || g.play.turn >= 3 {
            break;
        }
        let c = app.world().resource::<Computer>();
        if c.busy(&g.play) || (c.to_act(&g.play) && !c.done_in(g)) {
            app.world_mut().resource_mut::<Computer>().skip();
        } else {
            app.world_mut().write_message(Intent::Do(Command::EndPhase));
        }
        app.update();
        settle(&mut app);
    }
    let g = app.world().resource::<Game>();
    (g.play.turn, g.play.is_over())
}

#[test]
fn a_step_both_sides_act_in_never_waits_on_the_opponent_for_nothing() {
    // BBB's movement and Hal's chips, declarations and firing are steps both sides act in:
    // the opponent plays its part, and the player ends the step; neither waits on the other.
    for scenario in ["scenarios/bbb_tutorial.ron", "scenarios/hal25_tutorial.ron"] {
        for side in [0, 1] {
            let (turn, over) = play_against(scenario, side);
            assert!(
                turn >= 3 || over,
                "{scenario}, opponent on side {side}: stuck at turn {turn}"
            );
        }
    }
}

#[test]
fn the_opponent_thinks_off_the_frame() {
    // A budget that takes the background task a long while: the frames go on meanwhile, the
    // player is told it is thinking, and its commands come once it has thought.
    let b = save::load_any(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/tutorial.ron"
    )))
    .expect("tutorial");
    let mut app = common::headless(b, "opponent-thinks");
    app.insert_resource(Computer::thinking_for(1, 400));
    app.update();
    to_its_part(&mut app);
    let before = app.world().resource::<Game>().play.commands.len();
    // The frame that starts the task returns at once, and so do the frames after it.
    app.update();
    assert!(app.world().resource::<Computer>().is_thinking());
    let mut frames = 1;
    while app.world().resource::<Computer>().is_thinking() && frames < 5 {
        app.update();
        frames += 1;
    }
    assert!(
        frames == 5 && app.world().resource::<Computer>().is_thinking(),
        "five frames passed while it thought"
    );
    assert_eq!(
        app.world().resource::<Game>().play.commands.len(),
        before,
        "nothing is played while it thinks"
    );
    settle(&mut app);
    skip_its_part(&mut app);
    let g = app.world().resource::<Game>();
    assert!(
        g.play.commands.len() > before,
        "it played once it had thought"
    );
    // The board's Plan overlay draws what its units go for: the aims came back with the plan.
    let aims = app.world().resource::<Computer>().aims();
    assert!(!aims.is_empty(), "its plan's aims are kept for the board");
    for a in aims {
        let u = g.play.unit(&a.unit).expect("an aim's unit");
        assert_eq!(u.side, 1, "{a:?}");
    }
}

/// A move that rolls no dice for the side to move, tried on a copy until one is accepted.
fn a_quiet_move(g: &volley::rules::Game) -> Command {
    use volley::rules::command::Step;
    for _ in 0..8 {
        for u in g.units.iter().filter(|u| u.side == g.active) {
            for d in [1.0, 0.5, 0.2] {
                let c = Command::Move {
                    unit: u.id.clone(),
                    steps: vec![Step::Advance(d)],
                };
                let mut copy = g.clone();
                if copy.execute(c.clone()).is_ok() && !copy.last_command_rolled() {
                    return c;
                }
            }
        }
    }
    panic!("no quiet move in phase {:?}", g.phase)
}

/// Undo takes back the player's own commands, never the opponent's: a move the opponent made
/// in a step the player must end stays made.
#[test]
fn undo_never_takes_back_the_opponents_command() {
    let b = save::load_any(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/tutorial.ron"
    )))
    .expect("tutorial");
    let mut app = common::headless(b, "opponent-undo");
    app.update();
    // On to the first phase with a move to make (the command roll comes first).
    for _ in 0..6 {
        let g = &app.world().resource::<Game>().play;
        let b: &volley::rules::battle::Battle = g;
        if b.alive()
            .any(|u| u.side == g.active && g.rules.may_move(b, u))
        {
            break;
        }
        app.world_mut().write_message(Intent::Do(Command::EndPhase));
        app.update();
    }
    let theirs = a_quiet_move(&app.world().resource::<Game>().play);
    app.world_mut()
        .write_message(Intent::Opponent(theirs, "to test".into()));
    app.update();
    let g = app.world().resource::<Game>();
    let after_theirs = g.play.commands.len();
    assert!(g.play.can_undo() && !g.play.last_command_rolled());
    app.world_mut().write_message(Intent::Undo);
    app.update();
    let g = app.world().resource::<Game>();
    assert_eq!(
        g.play.commands.len(),
        after_theirs,
        "the opponent's move stays"
    );
    assert_eq!(
        g.message.as_deref(),
        Some(volley::app::OPPONENTS_COMMAND),
        "and the player is told why"
    );
    // The player's own move after it is taken back, and no further.
    let mine = a_quiet_move(&g.play);
    app.world_mut().write_message(Intent::Do(mine));
    app.update();
    assert_eq!(
        app.world().resource::<Game>().play.commands.len(),
        after_theirs + 1
    );
    for _ in 0..2 {
        app.world_mut().write_message(Intent::Undo);
        app.update();
    }
    assert_eq!(
        app.world().resource::<Game>().play.commands.len(),
        after_theirs
    );
}

/// Against the opponent the player orders only their own units: an order for one of the
/// opponent's (its card's buttons in a step both sides act in) is refused and changes nothing.
#[test]
fn the_player_never_orders_the_opponents_units() {
    let mut app = app();
    let g = app.world().resource::<Game>();
    let theirs = g
        .play
        .units
        .iter()
        .find(|u| u.side == 1 && u.base.width > 0.0)
        .expect("a unit of the opponent's")
        .id
        .clone();
    let before = g.play.commands.len();
    app.world_mut().write_message(Intent::Do(Command::Move {
        unit: theirs,
        steps: vec![volley::rules::command::Step::Advance(0.5)],
    }));
    app.update();
    let g = app.world().resource::<Game>();
    assert_eq!(g.play.commands.len(), before);
    assert!(
        g.message
            .as_deref()
            .is_some_and(|m| m.contains("is the opponent's")),
        "{:?}",
        g.message
    );
}

#[test]
fn the_opponent_ends_a_step_both_sides_act_in_where_the_player_has_nothing_to_do() {
    // BBB's tutorial without the Austrian hussars: no Austrian unit may evade (foot and
    // unlimbered guns), so once the opponent has moved Prussia, the movement step has nothing
    // left for the player, and the opponent ends it with the reason.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/bbb_tutorial.ron");
    let text = std::fs::read_to_string(&path).expect("tutorial");
    let start = text.find("(id: \"au-hus\"").expect("the hussars");
    let end = start + text[start..].find('\n').expect("their line");
    let text = format!("{}{}", &text[..start], &text[end + 1..]);
    let b = volley::rules::scenario::parse(&text, "inline").expect("loads");
    let mut app = common::headless(b, "opponent-ends");
    app.insert_resource(Computer::new(0));
    app.update();
    let movement = volley::rules::ruleset::bbb::MOVEMENT;
    for _ in 0..200 {
        let g = app.world().resource::<Game>();
        if g.play.turn != 1 || g.play.phase != movement {
            break;
        }
        app.world_mut().resource_mut::<Computer>().skip();
        app.update();
        settle(&mut app);
    }
    let g = app.world().resource::<Game>();
    assert_ne!(
        g.play.phase, movement,
        "the movement step ended without the player"
    );
    let said = g
        .reasons
        .iter()
        .any(|(_, why)| why.contains("no unit can evade"));
    assert!(said, "the reason is given: {:?}", g.reasons);
}
