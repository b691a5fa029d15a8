//! Headless app tests: MinimalPlugins and StatesPlugin with injected mouse and keys (the input
//! resources are driven by hand, as InputPlugin would between frames).
//! Select, drag and commit a move; an illegal drop is refused with its reason and changes
//! nothing; ending the phase hands over; undo restores.

use bevy::prelude::*;

mod common;
use std::path::Path;
use volley::app::input::{Pointer, Selection};
use volley::app::{Game, Intent};
use volley::rules::command::Command;
use volley::rules::model::{Phase, UnitId};
use volley::rules::scenario;

/// A headless app on a scenario, seated for its first side.
fn app_on(file: &str) -> App {
    let b = scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(file),
    )
    .unwrap();
    let mut app = common::headless(b, "app");
    app.update();
    app
}

fn app() -> App {
    let mut app = app_on("tutorial.ron");
    // Roll for command: the movement phase of Prussia.
    app.world_mut().write_message(Intent::Do(Command::EndPhase));
    app.update();
    assert_eq!(game(&app).battle.phase, Phase::Movement);
    app
}

fn game(app: &App) -> &Game {
    app.world().resource::<Game>()
}

fn point_at(app: &mut App, x: f32, y: f32, unit: Option<&str>) {
    let mut p = app.world_mut().resource_mut::<Pointer>();
    p.world = Some(Vec2::new(x, y));
    p.hover = unit.map(|u| UnitId(u.into()));
}

/// One frame, then forget what was just pressed or released.
fn frame(app: &mut App) {
    app.update();
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .clear();
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .clear();
}

fn press(app: &mut App) {
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .press(MouseButton::Left);
    frame(app);
}

fn release(app: &mut App) {
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .release(MouseButton::Left);
    frame(app);
}

fn centre(app: &App, id: &str) -> Vec2 {
    let c = game(app)
        .battle
        .unit(&UnitId(id.into()))
        .unwrap()
        .base
        .centre;
    Vec2::new(c.x, c.y)
}

#[test]
fn select_drag_and_commit_a_legal_move() {
    let mut app = app();
    let start = centre(&app, "pr-hc");
    point_at(&mut app, start.x, start.y, Some("pr-hc"));
    press(&mut app);
    assert_eq!(
        app.world()
            .resource::<Selection>()
            .unit
            .as_ref()
            .map(|u| u.as_str()),
        Some("pr-hc")
    );
    // Drag 40 mm (157 paces) straight ahead; the preview is legal.
    point_at(&mut app, start.x, start.y + 40.0, None);
    app.update();
    let sel = app.world().resource::<Selection>();
    let drag = sel.drag.as_ref().expect("dragging");
    let plan = drag.plan.as_ref().expect("a legal move");
    assert!((plan.distance - 155.0).abs() < 5.1, "{}", plan.distance);
    release(&mut app);
    let now = centre(&app, "pr-hc");
    assert!(
        (now.y - start.y - 155.0 * 0.254).abs() < 1.5,
        "moved to {now}"
    );
    assert!(
        game(&app)
            .battle
            .unit(&UnitId("pr-hc".into()))
            .unwrap()
            .bound
            .moved
    );
}

#[test]
fn an_illegal_drop_is_refused_with_its_reason() {
    let mut app = app();
    let start = centre(&app, "pr-ms1");
    let before = game(&app).battle.units.clone();
    point_at(&mut app, start.x, start.y, Some("pr-ms1"));
    press(&mut app);
    // 80 mm is 315 paces; Muskets move 200.
    point_at(&mut app, start.x, start.y + 80.0, None);
    app.update();
    let err = app
        .world()
        .resource::<Selection>()
        .drag
        .as_ref()
        .unwrap()
        .plan
        .clone()
        .unwrap_err();
    assert!(err.contains("of 200"), "{err}");
    release(&mut app);
    assert_eq!(game(&app).battle.units, before);
    assert!(
        game(&app)
            .message
            .as_deref()
            .is_some_and(|m| m.contains("of 200"))
    );
}

#[test]
fn ending_the_bound_hands_over_and_undo_restores() {
    let mut app = app();
    let start = centre(&app, "pr-hc");
    point_at(&mut app, start.x, start.y, Some("pr-hc"));
    press(&mut app);
    point_at(&mut app, start.x, start.y + 20.0, None);
    app.update();
    release(&mut app);
    assert_ne!(centre(&app, "pr-hc"), start);
    // Ctrl+Z takes the move back.
    {
        let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        keys.press(KeyCode::ControlLeft);
        keys.press(KeyCode::KeyZ);
    }
    frame(&mut app);
    assert_eq!(centre(&app, "pr-hc"), start);
    {
        let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        keys.release(KeyCode::ControlLeft);
        keys.release(KeyCode::KeyZ);
    }
    // End movement, firing and close combat: Austria's bound, and the seat must change hands.
    for _ in 0..3 {
        app.world_mut().write_message(Intent::Do(Command::EndPhase));
        app.update();
    }
    let g = game(&app);
    assert_eq!((g.battle.active, g.battle.phase), (1, Phase::Command));
    assert_ne!(
        g.seated,
        Some(1),
        "the handover screen shows until Austria takes the seat"
    );
}

#[test]
fn shift_click_makes_a_group_that_moves_together() {
    let mut app = app();
    let (a, b) = (centre(&app, "pr-ms1"), centre(&app, "pr-ms2"));
    point_at(&mut app, a.x, a.y, Some("pr-ms1"));
    press(&mut app);
    release(&mut app);
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::ShiftLeft);
    point_at(&mut app, b.x, b.y, Some("pr-ms2"));
    press(&mut app);
    release(&mut app);
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .release(KeyCode::ShiftLeft);
    assert_eq!(app.world().resource::<Selection>().group.len(), 1);
    point_at(&mut app, a.x, a.y, Some("pr-ms1"));
    press(&mut app);
    point_at(&mut app, a.x, a.y + 25.0, None);
    app.update();
    release(&mut app);
    let (a2, b2) = (centre(&app, "pr-ms1"), centre(&app, "pr-ms2"));
    assert!(
        a2.y > a.y + 20.0 && (b2.y - a2.y).abs() < 0.01,
        "both advanced: {a2} {b2}"
    );
    assert_eq!(game(&app).battle.command_points[0] + 1, {
        // One command point for the group.
        let log = &game(&app).battle.log;
        log.iter()
            .rev()
            .filter_map(|e| {
                if let volley::rules::Event::CommandRoll { total, .. } = e {
                    Some(*total)
                } else {
                    None
                }
            })
            .next()
            .unwrap()
    });
}

#[test]
fn a_replay_starts_from_the_first_bound() {
    let mut b =
        scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/tutorial.ron"))
            .unwrap();
    let start = b.units.clone();
    volley::rules::autoplay::AutoPlayer::new(2).play(&mut b, 40, 12);
    assert!(!b.commands.is_empty());
    let (fresh, _) = volley::app::Replay::start(&b).unwrap();
    assert!(fresh.log.is_empty());
    assert_eq!(fresh.units, start);
}

#[test]
fn the_wheel_turns_a_dragged_base_and_quicksave_loads_back() {
    let mut app = app();
    let start = centre(&app, "pr-hc");
    point_at(&mut app, start.x, start.y, Some("pr-hc"));
    press(&mut app);
    // Two clicks of the wheel up: wheel left 10 degrees about the left front corner.
    for _ in 0..2 {
        app.world_mut()
            .write_message(bevy::input::mouse::MouseWheel {
                unit: bevy::input::mouse::MouseScrollUnit::Line,
                x: 0.0,
                y: 1.0,
                window: Entity::PLACEHOLDER,
                phase: bevy::input::touch::TouchPhase::Moved,
            });
        frame(&mut app);
    }
    point_at(&mut app, start.x, start.y + 1.0, None);
    frame(&mut app);
    release(&mut app);
    let facing = game(&app)
        .battle
        .unit(&UnitId("pr-hc".into()))
        .unwrap()
        .base
        .facing;
    assert!((facing - 350.0).abs() < 0.01, "facing {facing}");
    // Quicksave, undo the move, then load the quicksave: the move is back.
    app.world_mut().write_message(Intent::Save);
    frame(&mut app);
    app.world_mut().write_message(Intent::Undo);
    frame(&mut app);
    assert_eq!(
        game(&app)
            .battle
            .unit(&UnitId("pr-hc".into()))
            .unwrap()
            .base
            .facing,
        0.0
    );
    app.world_mut().write_message(Intent::Load);
    frame(&mut app);
    app.world_mut().write_message(Intent::LoadConfirmed);
    frame(&mut app);
    let facing = game(&app)
        .battle
        .unit(&UnitId("pr-hc".into()))
        .unwrap()
        .base
        .facing;
    assert!((facing - 350.0).abs() < 0.01, "loaded facing {facing}");
}

#[test]
fn rolled_dice_cannot_be_taken_back_in_the_window() {
    let mut app = app();
    // The last command rolled the command dice and changed phase: undo is refused.
    app.world_mut().write_message(Intent::Undo);
    frame(&mut app);
    assert_eq!(game(&app).battle.phase, Phase::Movement);
    assert!(
        game(&app)
            .message
            .as_deref()
            .is_some_and(|m| m.contains("cannot be taken back"))
    );
}

#[test]
fn the_tutorial_plays_to_its_end_through_the_window_loop() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/orders/tutorial_to_break.ron"),
    )
    .unwrap();
    let orders = volley::rules::save::parse_orders(&text, "orders").unwrap();
    let mut app = app_on("tutorial.ron");
    for c in orders {
        app.world_mut().write_message(Intent::Do(c));
        frame(&mut app);
        assert_eq!(game(&app).message, None, "every order accepted");
    }
    let g = game(&app);
    assert!(g.battle.is_over());
    assert!(
        g.battle
            .log
            .iter()
            .any(|e| matches!(e, volley::rules::Event::ArmyBroken { .. }))
    );
}

#[test]
fn deployment_picks_a_unit_and_places_it_with_a_click() {
    let mut app = app_on("formal_deployment.ron");
    assert_eq!(game(&app).battle.phase, Phase::Deployment);
    // Outside the zone: refused, with the reason.
    app.world_mut().resource_mut::<Selection>().placing = Some(UnitId("pr-dc1".into()));
    point_at(&mut app, 300.0, 600.0, None);
    press(&mut app);
    release(&mut app);
    assert!(
        game(&app)
            .message
            .as_deref()
            .is_some_and(|m| m.contains("deployment zone")),
        "{:?}",
        game(&app).message
    );
    // Inside it: placed, facing the enemy.
    app.world_mut().resource_mut::<Selection>().placing = Some(UnitId("pr-dc1".into()));
    point_at(&mut app, 300.0, 150.0, None);
    press(&mut app);
    release(&mut app);
    let u = game(&app)
        .battle
        .unit(&UnitId("pr-dc1".into()))
        .unwrap()
        .clone();
    assert!(!u.status.undeployed && (u.base.centre.y - 150.0).abs() < 0.01 && u.base.facing == 0.0);
}

#[test]
fn refusals_name_units_by_their_names() {
    let mut app = app();
    let mv = |u: &str| {
        Intent::Do(Command::Move {
            unit: UnitId(u.into()),
            steps: vec![volley::rules::command::Step::Advance(50.0)],
        })
    };
    for (order, words) in [
        (mv("pr-hc"), None),
        (
            mv("pr-hc"),
            Some("CR 10 Gens d'armes has already moved this bound"),
        ),
        (
            mv("au-dc"),
            Some("DR 31 Liechtenstein belongs to the side that is not moving"),
        ),
    ] {
        app.world_mut().write_message(order);
        frame(&mut app);
        assert_eq!(game(&app).message.as_deref(), words);
    }
}

#[test]
fn load_asks_first_and_save_and_load_are_notices_not_refusals() {
    let mut app = app();
    // A quicksave of its own: tests run side by side.
    let path = std::env::temp_dir().join(format!("volley-load-asks-{}.ron", std::process::id()));
    app.world_mut().resource_mut::<Game>().save_path = path;
    app.world_mut().write_message(Intent::Save);
    frame(&mut app);
    assert_eq!(game(&app).message, None, "saving is no refusal");
    assert!(
        game(&app)
            .notice
            .as_deref()
            .is_some_and(|m| m.contains("saved"))
    );
    app.world_mut().write_message(Intent::Do(Command::Move {
        unit: UnitId("pr-hc".into()),
        steps: vec![volley::rules::command::Step::Advance(50.0)],
    }));
    frame(&mut app);
    let moved = centre(&app, "pr-hc");
    // Ctrl+O asks before the game in play is lost.
    {
        let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        keys.press(KeyCode::ControlLeft);
        keys.press(KeyCode::KeyO);
    }
    frame(&mut app);
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .release_all();
    frame(&mut app);
    assert!(game(&app).confirm_load);
    assert_eq!(centre(&app, "pr-hc"), moved, "nothing loaded yet");
    // Cancelled: the game goes on.
    app.world_mut().write_message(Intent::CancelLoad);
    frame(&mut app);
    assert!(!game(&app).confirm_load);
    assert_eq!(centre(&app, "pr-hc"), moved);
    // Confirmed: the quicksave replaces it.
    app.world_mut().write_message(Intent::Load);
    frame(&mut app);
    app.world_mut().write_message(Intent::LoadConfirmed);
    frame(&mut app);
    assert_ne!(centre(&app, "pr-hc"), moved);
    assert_eq!(game(&app).message, None);
    assert!(
        game(&app)
            .notice
            .as_deref()
            .is_some_and(|m| m.contains("loaded"))
    );
}

#[test]
fn the_handover_and_a_load_forget_the_selection_and_highlights() {
    let mut app = app();
    let path = std::env::temp_dir().join(format!("volley-forget-{}.ron", std::process::id()));
    app.world_mut().resource_mut::<Game>().save_path = path;
    let select = |app: &mut App| {
        let a = centre(app, "pr-ms1");
        point_at(app, a.x, a.y, Some("pr-ms1"));
        press(app);
        release(app);
        let mut g = app.world_mut().resource_mut::<Game>();
        g.highlight = vec![UnitId("au-ms1".into())];
        g.pending = Some(Command::Fire {
            unit: UnitId("pr-ms1".into()),
            target: UnitId("au-ms1".into()),
            support: vec![],
            defence: None,
        });
        app.world_mut().resource_mut::<Selection>().group = vec![UnitId("pr-ms2".into())];
    };
    let forgotten = |app: &App| {
        let sel = app.world().resource::<Selection>();
        let g = game(app);
        sel.unit.is_none()
            && sel.group.is_empty()
            && sel.drag.is_none()
            && g.highlight.is_empty()
            && g.pending.is_none()
    };
    app.world_mut().write_message(Intent::Save);
    frame(&mut app);
    select(&mut app);
    assert!(!forgotten(&app));
    app.world_mut().write_message(Intent::Load);
    frame(&mut app);
    app.world_mut().write_message(Intent::LoadConfirmed);
    frame(&mut app);
    assert!(forgotten(&app), "a load starts with nothing selected");
    select(&mut app);
    // A phase of the same bound keeps the selection; the other side's bound does not.
    app.world_mut().write_message(Intent::Do(Command::EndPhase));
    frame(&mut app);
    assert!(!forgotten(&app));
    for _ in 0..2 {
        app.world_mut().write_message(Intent::Do(Command::EndPhase));
        frame(&mut app);
    }
    assert_eq!(game(&app).battle.active, 1);
    assert!(
        forgotten(&app),
        "the next player sees nothing of the last one's"
    );
}

#[test]
fn one_wheel_notch_turns_one_step_however_finely_it_is_reported() {
    use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
    let mut app = app();
    let start = centre(&app, "pr-hc");
    point_at(&mut app, start.x, start.y, Some("pr-hc"));
    press(&mut app);
    let scroll = |app: &mut App, unit: MouseScrollUnit, y: f32| {
        app.world_mut().write_message(MouseWheel {
            unit,
            x: 0.0,
            y,
            window: Entity::PLACEHOLDER,
            phase: bevy::input::touch::TouchPhase::Moved,
        });
    };
    // Smooth scrolling reports one notch as several small deltas, over one or more frames.
    scroll(&mut app, MouseScrollUnit::Line, 0.25);
    scroll(&mut app, MouseScrollUnit::Line, 0.25);
    frame(&mut app);
    scroll(&mut app, MouseScrollUnit::Line, 0.5);
    frame(&mut app);
    // And in pixels: a notch is 100 of them.
    for _ in 0..4 {
        scroll(&mut app, MouseScrollUnit::Pixel, 25.0);
        frame(&mut app);
    }
    let turns = app
        .world()
        .resource::<Selection>()
        .drag
        .as_ref()
        .unwrap()
        .turns
        .clone();
    assert_eq!(
        turns,
        vec![
            volley::rules::command::Step::Wheel {
                corner: volley::rules::geometry::Corner::Left,
                degrees: 5.0
            };
            2
        ]
    );
}

#[test]
fn the_ghost_of_an_illegal_drag_shows_the_turns_made() {
    let mut app = app();
    let start = centre(&app, "pr-ms1");
    point_at(&mut app, start.x, start.y, Some("pr-ms1"));
    press(&mut app);
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::KeyQ);
    frame(&mut app);
    // 80 mm is too far for Muskets: the drag is refused, and its ghost still faces 15 left.
    point_at(&mut app, start.x, start.y + 80.0, None);
    frame(&mut app);
    let sel = app.world().resource::<Selection>();
    let drag = sel.drag.as_ref().unwrap();
    assert!(drag.plan.is_err());
    let ghost = drag.ghost(&game(&app).battle, Vec2::new(start.x, start.y + 80.0));
    assert_eq!(ghost.len(), 1);
    assert!(
        (ghost[0].facing - 345.0).abs() < 0.01,
        "{}",
        ghost[0].facing
    );
}

#[test]
fn a_refusal_is_cleared_by_the_next_command_carried_out() {
    let mut app = app();
    let start = centre(&app, "pr-ms1");
    point_at(&mut app, start.x, start.y, Some("pr-ms1"));
    press(&mut app);
    // 80 mm is 315 paces; Muskets move 200: refused.
    point_at(&mut app, start.x, start.y + 80.0, None);
    app.update();
    release(&mut app);
    assert!(game(&app).message.is_some(), "the refusal is shown");
    // A legal move of another unit: the refusal is no longer news.
    let hc = centre(&app, "pr-hc");
    point_at(&mut app, hc.x, hc.y, Some("pr-hc"));
    press(&mut app);
    point_at(&mut app, hc.x, hc.y + 20.0, None);
    app.update();
    release(&mut app);
    assert_ne!(centre(&app, "pr-hc"), hc, "the legal move was made");
    assert_eq!(game(&app).message, None, "no stale refusal");
}

#[test]
fn the_wheel_over_a_panel_never_reaches_the_table() {
    use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
    use volley::app::input::PanelsHavePointer;
    let mut app = app();
    let start = centre(&app, "pr-hc");
    point_at(&mut app, start.x, start.y, Some("pr-hc"));
    press(&mut app);
    let notch = |app: &mut App| {
        app.world_mut().write_message(MouseWheel {
            unit: MouseScrollUnit::Line,
            x: 0.0,
            y: 1.0,
            window: Entity::PLACEHOLDER,
            phase: bevy::input::touch::TouchPhase::Moved,
        });
    };
    // Over the log: the wheel scrolls the log, and the dragged base does not turn.
    app.world_mut().resource_mut::<PanelsHavePointer>().0 = true;
    notch(&mut app);
    frame(&mut app);
    // Back on the table: the notch spent on the log is not played out late.
    app.world_mut().resource_mut::<PanelsHavePointer>().0 = false;
    frame(&mut app);
    let turns = |app: &App| {
        app.world()
            .resource::<Selection>()
            .drag
            .as_ref()
            .map(|d| d.turns.len())
    };
    assert_eq!(turns(&app), Some(0), "no turn from the wheel over the log");
    // And on the table the wheel turns the base as ever.
    notch(&mut app);
    frame(&mut app);
    assert_eq!(turns(&app), Some(1));
}

/// BBB's defensive fire hands the seat to the side not moving only when one of its units may
/// fire; the handover says what it sits down to, and the bound ends with "End bound".
#[test]
fn defensive_fire_is_handed_over_only_when_the_side_not_moving_can_fire() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/lessons/bbb7yw.ron");
    let (lesson, start) = volley::rules::lesson::load(&path).unwrap();
    let defender = 1 - start.active;
    let name = start.sides[defender].name.clone();
    // Nothing moved: the side not moving has nothing to fire at, and the seat stays.
    let mut app = common::headless(start.clone(), "handover-idle");
    app.update();
    while game(&app).battle.phase != Phase::DefensiveFire {
        app.world_mut().write_message(Intent::Do(Command::EndPhase));
        frame(&mut app);
        assert!(
            game(&app).battle.turn == 1,
            "defensive fire comes in turn 1"
        );
    }
    let g = game(&app);
    assert_eq!(g.acting_side(), defender);
    let why = g.hand_over_to().unwrap_err();
    assert!(
        why.contains(&name) && why.contains("no unit can fire"),
        "{why}"
    );
    // Ending the phase goes on with the same player: no handover either way.
    app.world_mut().write_message(Intent::Do(Command::EndPhase));
    frame(&mut app);
    assert_eq!(game(&app).battle.phase, Phase::OffensiveFire);
    assert_eq!(game(&app).hand_over_to(), Ok(None));
    // The lesson's Prussian moves bring the grenadiers into the Reichs contingent's fire: the
    // seat passes, for defensive fire.
    let mut b = start;
    let k = (0..lesson.steps.len())
        .find(|&k| {
            let mut t = b.clone();
            volley::rules::lesson::advance(&lesson, &mut t, k).is_ok()
                && t.phase == Phase::DefensiveFire
        })
        .expect("the lesson reaches defensive fire");
    volley::rules::lesson::advance(&lesson, &mut b, k).unwrap();
    let mut app = common::headless(b, "handover-fire");
    app.update();
    assert_eq!(game(&app).hand_over_to(), Ok(Some(defender)));
    // The last step of the bound ends the bound, not the turn.
    app.world_mut().resource_mut::<Game>().battle.phase = Phase::Assault;
    let b = &game(&app).battle;
    assert_eq!(b.rules.turn_words(b).end.as_deref(), Some("End bound"));
}
