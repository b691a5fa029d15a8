//! Headless app tests: MinimalPlugins and StatesPlugin with injected mouse and keys (the input
//! resources are driven by hand, as InputPlugin would between frames).
//! Select, drag and commit a move; an illegal drop is refused with its reason and changes
//! nothing; ending the phase hands over; undo restores.

use bevy::prelude::*;
use volley::rules::ruleset::{bbb, dbn};

mod common;
use std::path::Path;
use volley::app::input::{Pointer, Selection};
use volley::app::menu::MenuChoice;
use volley::app::opponent::Computer;
use volley::app::screens::{Menu, Screen};
use volley::app::slots::{self, Dialog};
use volley::app::{Game, Intent};
use volley::rules::command::Command;
use volley::rules::model::{Phase, UnitId};
use volley::rules::ruleset::dbn::DbnEvent;
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
    assert_eq!(game(&app).play.phase, dbn::MOVEMENT);
    app
}

/// An empty folder of this test's own for saves: tests run side by side.
fn fresh_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("volley-slots-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The app of `app()`, saving into a folder of its own.
fn app_saving(tag: &str) -> (App, std::path::PathBuf) {
    let mut app = app();
    let dir = fresh_dir(tag);
    let mut g = app.world_mut().resource_mut::<Game>();
    g.save_dir = dir.clone();
    g.save_path = dir.join("quicksave.ron");
    (app, dir)
}

fn keys(app: &mut App, down: &[KeyCode]) {
    {
        let mut k = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        for key in down {
            k.press(*key);
        }
    }
    frame(app);
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .release_all();
    frame(app);
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
    let c = game(app).play.unit(&UnitId(id.into())).unwrap().base.centre;
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
            .play
            .unit(&UnitId("pr-hc".into()))
            .unwrap()
            .bound
            .moved
    );
}

/// Presses on a unit and drags it `dy` mm up the table, not yet let go: the drag's plan, or
/// why it is refused.
fn drag_by(app: &mut App, unit: &str, dy: f32) -> Result<volley::rules::ruleset::MovePlan, String> {
    let start = centre(app, unit);
    point_at(app, start.x, start.y, Some(unit));
    press(app);
    point_at(app, start.x, start.y + dy, None);
    app.update();
    app.world()
        .resource::<Selection>()
        .drag
        .as_ref()
        .expect("a drag")
        .plan
        .clone()
}

#[test]
fn an_illegal_drop_is_refused_with_its_reason() {
    let mut app = app();
    let before = game(&app).play.units.clone();
    // 80 mm is 315 paces; Muskets move 200.
    let err = drag_by(&mut app, "pr-ms1", 80.0).unwrap_err();
    assert!(err.contains("of 200"), "{err}");
    release(&mut app);
    assert_eq!(game(&app).play.units, before);
    assert!(
        game(&app)
            .message
            .as_deref()
            .is_some_and(|m| m.contains("of 200"))
    );
}

#[test]
fn a_drop_a_little_past_the_allowance_goes_the_whole_allowance() {
    let mut app = app();
    let start = centre(&app, "pr-ms1");
    // 52.1 mm is 205 paces; Muskets move 200: the move is cut to 200.
    let plan = drag_by(&mut app, "pr-ms1", 52.1);
    assert!(plan.is_ok(), "{plan:?}");
    release(&mut app);
    let end = centre(&app, "pr-ms1");
    let moved = end.distance(start);
    assert!(
        (moved - 50.8).abs() < 0.5,
        "moved {moved} mm, 200 paces is 50.8"
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
    assert_eq!((g.play.active, g.play.phase), (1, dbn::COMMAND));
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
    assert_eq!(game(&app).play.command_points[0] + 1, {
        // One command point for the group.
        let log = &game(&app).play.log;
        log.iter()
            .rev()
            .filter_map(|e| {
                if let Some(DbnEvent::CommandRoll { total, .. }) = e.own() {
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
    volley::players::autoplay::AutoPlayer::new(2).play(&mut b, 40, 12);
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
        .play
        .unit(&UnitId("pr-hc".into()))
        .unwrap()
        .base
        .facing;
    assert!((facing - 350.0).abs() < 0.01, "facing {facing}");
    // Quicksave, undo the move, then load the quicksave: the move is back.
    let path = fresh_dir("wheel").join("quicksave.ron");
    app.world_mut().resource_mut::<Game>().save_path = path.clone();
    app.world_mut().write_message(Intent::Save);
    frame(&mut app);
    app.world_mut().write_message(Intent::Undo);
    frame(&mut app);
    assert_eq!(
        game(&app)
            .play
            .unit(&UnitId("pr-hc".into()))
            .unwrap()
            .base
            .facing,
        0.0
    );
    app.world_mut().write_message(Intent::Load(path));
    frame(&mut app);
    app.world_mut().write_message(Intent::LoadConfirmed);
    frame(&mut app);
    let facing = game(&app)
        .play
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
    assert_eq!(game(&app).play.phase, dbn::MOVEMENT);
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
    assert!(g.play.is_over());
    assert!(
        g.play
            .log
            .iter()
            .any(|e| matches!(e, volley::rules::Event::ArmyBroken { .. }))
    );
    // The result shows (the frame after the end is seen); the menu still opens over it.
    frame(&mut app);
    frame(&mut app);
    assert_eq!(screen(&app), Screen::GameOver);
    keys(&mut app, &[KeyCode::Escape]);
    assert_eq!(menu(&app), Some(Menu::Open));
}

#[test]
fn deployment_picks_a_unit_and_places_it_with_a_click() {
    let mut app = app_on("formal_deployment.ron");
    assert_eq!(game(&app).play.phase, Phase::DEPLOYMENT);
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
        .play
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
    let _ = std::fs::remove_file(&path);
    app.world_mut().resource_mut::<Game>().save_path = path.clone();
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
    // Ctrl+O opens the list of saves; choosing one asks before the game in play is lost.
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
    assert!(matches!(app.world().resource::<Dialog>(), Dialog::Load(_)));
    *app.world_mut().resource_mut::<Dialog>() = Dialog::Closed;
    app.world_mut().write_message(Intent::Load(path.clone()));
    frame(&mut app);
    assert_eq!(game(&app).confirm_load.as_ref(), Some(&path));
    assert_eq!(centre(&app, "pr-hc"), moved, "nothing loaded yet");
    // Cancelled: the game goes on.
    app.world_mut().write_message(Intent::CancelLoad);
    frame(&mut app);
    assert!(game(&app).confirm_load.is_none());
    assert_eq!(centre(&app, "pr-hc"), moved);
    // Confirmed: the quicksave replaces it.
    app.world_mut().write_message(Intent::Load(path));
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
    let path = fresh_dir("forget").join("quicksave.ron");
    app.world_mut().resource_mut::<Game>().save_path = path.clone();
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
    app.world_mut().write_message(Intent::Load(path));
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
    assert_eq!(game(&app).play.active, 1);
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
    let ghost = drag.ghost(&game(&app).play, Vec2::new(start.x, start.y + 80.0));
    assert_eq!(ghost.len(), 1);
    assert!(
        (ghost[0].facing - 345.0).abs() < 0.01,
        "{}",
        ghost[0].facing
    );
}

/// Rossbach's Austrian cuirassiers in their movement with a full 15" move, Moller's heavy
/// battery inside their arc but not straight ahead.
fn rossbach_charge() -> App {
    let mut b =
        scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/bbb_rossbach.ron"))
            .unwrap();
    b.active = 1;
    b.phase = dbn::MOVEMENT;
    b.unit_mut(&UnitId("ra-aus-cuir".into()))
        .unwrap()
        .bound
        .allowance = Some(15.0);
    let mut app = common::headless(b, "app-drag");
    app.update();
    app
}

#[test]
fn a_base_dragged_onto_an_enemy_it_may_assault_makes_the_assault() {
    let mut app = rossbach_charge();
    let cuir = UnitId("ra-aus-cuir".into());
    let moller = UnitId("pr-moller-1".into());
    let start = centre(&app, "ra-aus-cuir");
    let target = centre(&app, "pr-moller-1");
    point_at(&mut app, start.x, start.y, Some("ra-aus-cuir"));
    press(&mut app);
    // One millimetre at a time towards the battery: once the ghost comes within the snap of it
    // (or onto it), the drag is the assault, conformed, never a move refused for ending on it.
    let steps = (target - start).length().ceil() as usize;
    let mut snapped = 0;
    for k in 0..=steps {
        let p = start + (target - start) * (k as f32 / steps as f32);
        point_at(&mut app, p.x, p.y, None);
        app.update();
        let g = game(&app);
        let sel = app.world().resource::<Selection>();
        let drag = sel.drag.as_ref().expect("dragging");
        let u = g.play.unit(&cuir).unwrap();
        let ghost = volley::rules::geometry::Base {
            centre: volley::rules::geometry::Pt::new(
                u.base.centre.x + p.x - start.x,
                u.base.centre.y + p.y - start.y,
            ),
            ..u.base
        };
        let m = g.play.unit(&moller).unwrap();
        if ghost.distance(&m.base) < volley::app::input::SNAP_MM {
            let plan = drag
                .plan
                .as_ref()
                .unwrap_or_else(|e| panic!("at {k} mm: {e}"));
            let (t, _, _) = plan.contact.as_ref().expect("into contact");
            assert!(
                t == &moller || g.play.unit(t).unwrap().side == 0,
                "at {k} mm: contact with {t}"
            );
            assert!(matches!(
                drag.steps.last(),
                Some(volley::rules::command::Step::ToContact(_))
            ));
            snapped += 1;
        }
    }
    assert!(snapped > 0, "the drag came near the battery");
    // Dropped on the battery: the assault is made, the cuirassiers' front flush against it.
    release(&mut app);
    let g = game(&app);
    let u = g.play.unit(&cuir).unwrap();
    assert!(u.bound.charged, "{:?}", g.message);
    let m = g.play.unit(&moller).unwrap();
    assert!(
        m.base.touched_by(&u.base).is_some(),
        "in contact: {:?} {:?} {:?}",
        u.base,
        m.base,
        g.play.commands.last()
    );
}

#[test]
fn every_lesson_charge_is_made_by_dropping_the_base_on_its_target() {
    use volley::app::lesson::Tutoring;
    use volley::rules::command::Step;
    use volley::text::lesson::{self, Expect};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/lessons");
    let mut made = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let (l, b) = lesson::load(&path).unwrap();
        let Some(k) = l.steps.iter().position(|s| {
            matches!(&s.expect, Expect::Do { command: Command::Move { steps, .. }, .. }
                if matches!(steps.as_slice(), [Step::ToContact(_)]))
        }) else {
            continue;
        };
        let Expect::Do {
            command: Command::Move { unit, steps },
            ..
        } = l.steps[k].expect.clone()
        else {
            unreachable!()
        };
        let Step::ToContact(target) = &steps[0] else {
            unreachable!()
        };
        let mut app = common::headless(b, "app-lesson-drag");
        app.insert_resource(Tutoring::new(l.clone()));
        app.update();
        for s in &l.steps[..k] {
            let i = match s.expect.example() {
                None => Intent::Next,
                Some(c) => Intent::Do(c.clone()),
            };
            app.world_mut().write_message(i);
            app.update();
        }
        let from = centre(&app, unit.as_str());
        let onto = centre(&app, target.as_str());
        point_at(&mut app, from.x, from.y, Some(unit.as_str()));
        press(&mut app);
        point_at(&mut app, onto.x, onto.y, Some(target.as_str()));
        app.update();
        release(&mut app);
        let t = &app.world().resource::<Tutoring>().tutor;
        assert_eq!(t.step, k + 1, "{}: {:?}", path.display(), t.said);
        made += 1;
    }
    assert!(made >= 4, "a charge in each lesson but Hal's");
}

#[test]
fn ctrl_s_offers_a_named_slot_and_the_list_shows_its_game() {
    let (mut app, dir) = app_saving("named");
    keys(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    let Dialog::Save(name) = app.world().resource::<Dialog>().clone() else {
        panic!("Ctrl+S opens the save window");
    };
    let scenario = game(&app).play.info.name.clone();
    assert!(
        name.starts_with(&format!("{scenario}, turn 1, Prussia, ")),
        "default name {name}"
    );
    app.world_mut().write_message(Intent::SaveAs(name.clone()));
    frame(&mut app);
    let path = slots::slot_path(&dir, &name);
    assert!(
        path.is_file(),
        "saved in a slot of its own: {}",
        path.display()
    );
    assert!(
        !dir.join("quicksave.ron").exists(),
        "the quicksave is untouched"
    );
    // A save written before slots had labels is listed too, read by replaying it.
    volley::rules::save::write(&game(&app).play, &dir.join("older.ron")).unwrap();
    let list = slots::list(&dir);
    assert_eq!(list.len(), 2, "{list:?}");
    let named = list.iter().find(|s| s.path == path).unwrap();
    let about = named.about.as_ref().unwrap();
    assert_eq!(
        (
            named.name(),
            about.scenario.as_str(),
            about.turn,
            about.side.as_str()
        ),
        (name.clone(), scenario.as_str(), 1, "Prussia")
    );
    assert!(
        named.detail().contains("turn 1 · Prussia to move"),
        "{}",
        named.detail()
    );
    let older = list.iter().find(|s| s.name() == "older").unwrap();
    assert_eq!(older.about.as_ref().unwrap().side, "Prussia");
    assert!(volley::rules::save::load(&path).is_ok());
}

#[test]
fn a_slot_that_holds_a_game_is_overwritten_only_when_the_player_says_so() {
    let (mut app, dir) = app_saving("overwrite");
    app.world_mut()
        .write_message(Intent::SaveAs("Before the attack".into()));
    frame(&mut app);
    let path = slots::slot_path(&dir, "Before the attack");
    let before = std::fs::read_to_string(&path).unwrap();
    app.world_mut().write_message(Intent::Do(Command::Move {
        unit: UnitId("pr-hc".into()),
        steps: vec![volley::rules::command::Step::Advance(50.0)],
    }));
    frame(&mut app);
    // The same slot, spelt another way: asked, not written.
    app.world_mut()
        .write_message(Intent::SaveAs("before the ATTACK".into()));
    frame(&mut app);
    assert_eq!(
        game(&app).confirm_save.as_ref().map(|(p, _)| p),
        Some(&path)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    // Kept: still the old game.
    app.world_mut().write_message(Intent::CancelSave);
    frame(&mut app);
    assert!(game(&app).confirm_save.is_none());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    // The quicksave is a slot like any other: asked too once it holds a game.
    app.world_mut().write_message(Intent::Save);
    frame(&mut app);
    assert!(
        game(&app).confirm_save.is_none(),
        "a new quicksave is written"
    );
    app.world_mut().write_message(Intent::Save);
    frame(&mut app);
    assert!(
        game(&app).confirm_save.is_some(),
        "an old one is asked about"
    );
    app.world_mut().write_message(Intent::CancelSave);
    frame(&mut app);
    // Confirmed: overwritten with the game in play.
    app.world_mut()
        .write_message(Intent::SaveAs("Before the attack".into()));
    frame(&mut app);
    app.world_mut().write_message(Intent::OverwriteConfirmed);
    frame(&mut app);
    let after = std::fs::read_to_string(&path).unwrap();
    assert_ne!(after, before);
    let loaded = volley::rules::save::load(&path).unwrap();
    assert_eq!(loaded.commands.len(), game(&app).play.commands.len());
}

#[test]
fn loading_a_slot_brings_back_the_opponent_it_was_saved_against() {
    let (mut app, dir) = app_saving("seats");
    app.insert_resource(Computer::new(1));
    app.world_mut()
        .write_message(Intent::SaveAs("against it".into()));
    frame(&mut app);
    let path = slots::slot_path(&dir, "against it");
    app.world_mut().remove_resource::<Computer>();
    app.world_mut().write_message(Intent::Load(path.clone()));
    frame(&mut app);
    assert!(
        app.world().get_resource::<Computer>().is_none(),
        "nothing loaded before the player confirms"
    );
    app.world_mut().write_message(Intent::LoadConfirmed);
    frame(&mut app);
    assert_eq!(
        app.world().get_resource::<Computer>().map(|c| c.side),
        Some(1)
    );
    // A hotseat slot loads as hotseat.
    app.world_mut().remove_resource::<Computer>();
    app.world_mut()
        .write_message(Intent::SaveAs("hotseat".into()));
    frame(&mut app);
    app.insert_resource(Computer::new(1));
    app.world_mut()
        .write_message(Intent::Load(slots::slot_path(&dir, "hotseat")));
    frame(&mut app);
    app.world_mut().write_message(Intent::LoadConfirmed);
    frame(&mut app);
    assert!(app.world().get_resource::<Computer>().is_none());
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn menu(app: &App) -> Option<Menu> {
    app.world().get_resource::<State<Menu>>().map(|m| *m.get())
}

#[test]
fn esc_opens_the_menu_resume_closes_it_and_back_to_the_title_leaves_the_game() {
    let mut app = app();
    assert_eq!(
        (screen(&app), menu(&app)),
        (Screen::Playing, Some(Menu::Closed))
    );
    // With a drag under way Esc lets go of it, and opens nothing.
    let start = centre(&app, "pr-hc");
    point_at(&mut app, start.x, start.y, Some("pr-hc"));
    press(&mut app);
    point_at(&mut app, start.x, start.y + 20.0, None);
    frame(&mut app);
    keys(&mut app, &[KeyCode::Escape]);
    assert!(app.world().resource::<Selection>().drag.is_none());
    assert_eq!(menu(&app), Some(Menu::Closed));
    release(&mut app);
    assert_eq!(
        centre(&app, "pr-hc"),
        start,
        "the drag let go of changed nothing"
    );
    // Esc opens the menu; while it is open the table takes no clicks.
    keys(&mut app, &[KeyCode::Escape]);
    assert_eq!(menu(&app), Some(Menu::Open));
    app.world_mut().resource_mut::<Selection>().unit = None;
    point_at(&mut app, start.x, start.y, Some("pr-hc"));
    press(&mut app);
    release(&mut app);
    assert!(app.world().resource::<Selection>().unit.is_none());
    // Resume closes it; Esc opens it again, and closes it too.
    app.world_mut().write_message(MenuChoice::Resume);
    frame(&mut app);
    frame(&mut app);
    assert_eq!(menu(&app), Some(Menu::Closed));
    keys(&mut app, &[KeyCode::Escape]);
    assert_eq!(menu(&app), Some(Menu::Open));
    keys(&mut app, &[KeyCode::Escape]);
    assert_eq!(menu(&app), Some(Menu::Closed));
    // Back to the title: the game leaves, the title lists the scenarios.
    keys(&mut app, &[KeyCode::Escape]);
    app.world_mut().write_message(MenuChoice::Title);
    frame(&mut app);
    frame(&mut app);
    assert_eq!((screen(&app), menu(&app)), (Screen::Title, None));
    assert!(app.world().get_resource::<Game>().is_none());
    assert!(
        app.world()
            .get_resource::<volley::app::TitleScreen>()
            .is_some_and(|t| !t.scenarios.is_empty())
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
    let (lesson, start) = volley::text::lesson::load(&path).unwrap();
    let defender = 1 - start.active;
    let name = start.sides[defender].name.clone();
    // Nothing moved: the side not moving has nothing to fire at, and the seat stays.
    let mut app = common::headless(start.clone(), "handover-idle");
    app.update();
    while game(&app).play.phase != bbb::DEFENSIVE_FIRE {
        app.world_mut().write_message(Intent::Do(Command::EndPhase));
        frame(&mut app);
        assert!(game(&app).play.turn == 1, "defensive fire comes in turn 1");
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
    assert_eq!(game(&app).play.phase, bbb::OFFENSIVE_FIRE);
    assert_eq!(game(&app).hand_over_to(), Ok(None));
    // The lesson's Prussian moves bring the grenadiers into the Reichs contingent's fire: the
    // seat passes, for defensive fire.
    let mut b = start;
    let k = (0..lesson.steps.len())
        .find(|&k| {
            let mut t = b.clone();
            volley::text::lesson::advance(&lesson, &mut t, k).is_ok()
                && t.phase == bbb::DEFENSIVE_FIRE
        })
        .expect("the lesson reaches defensive fire");
    volley::text::lesson::advance(&lesson, &mut b, k).unwrap();
    let mut app = common::headless(b, "handover-fire");
    app.update();
    assert_eq!(game(&app).hand_over_to(), Ok(Some(defender)));
    // The last step of the bound ends the bound, not the turn.
    app.world_mut().resource_mut::<Game>().play.phase = bbb::ASSAULT;
    let b = &game(&app).play;
    assert_eq!(b.rules.turn_words(b).end.as_deref(), Some("End bound"));
}

/// While the handover screen is up, nobody is at the seat: a command, an undo, is not carried
/// out, and the player is told to take the seat first.
#[test]
fn the_handover_screen_takes_no_commands() {
    let mut app = app();
    app.world_mut()
        .insert_resource(volley::app::HandoverShown(true));
    let log = game(&app).play.log.len();
    app.world_mut().write_message(Intent::Do(Command::EndPhase));
    app.update();
    app.world_mut().write_message(Intent::Undo);
    app.update();
    let g = game(&app);
    assert_eq!(g.play.phase, dbn::MOVEMENT);
    assert_eq!(g.play.log.len(), log);
    assert_eq!(g.message.as_deref(), Some("take the seat first"));
    // The seat taken, the same command goes through.
    app.world_mut()
        .insert_resource(volley::app::HandoverShown(false));
    app.world_mut().write_message(Intent::Do(Command::EndPhase));
    app.update();
    assert_ne!(game(&app).play.phase, dbn::MOVEMENT);
}

/// A player who quits finds the game again: Quit from the menu, and Back to the title, keep
/// the autosave, which the title offers as "Resume it"; only a finished game clears it.
#[test]
fn quit_and_the_title_keep_the_autosave_only_a_finished_game_clears_it() {
    let (mut app, dir) = app_saving("quit");
    let auto = dir.join("autosave.ron");
    app.world_mut().write_message(Intent::Do(Command::EndPhase));
    frame(&mut app);
    assert!(auto.is_file(), "a command is autosaved");
    // Quit: the program leaves, the autosave stays.
    keys(&mut app, &[KeyCode::Escape]);
    app.world_mut().write_message(MenuChoice::Quit);
    frame(&mut app);
    assert!(
        !app.world().resource::<Messages<AppExit>>().is_empty(),
        "Quit leaves the program"
    );
    assert!(auto.is_file(), "Quit keeps the game");
    // Back to the title: the autosave stays and is offered.
    keys(&mut app, &[KeyCode::Escape]);
    app.world_mut().write_message(MenuChoice::Title);
    frame(&mut app);
    frame(&mut app);
    assert_eq!(screen(&app), Screen::Title);
    assert!(auto.is_file(), "the way to the title keeps the game");
    let title = app.world().resource::<volley::app::TitleScreen>();
    assert_eq!(title.autosave.as_deref(), Some(auto.as_path()), "Resume it");
    // A game played to its end clears it.
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/orders/tutorial_to_break.ron"),
    )
    .unwrap();
    let orders = volley::rules::save::parse_orders(&text, "orders").unwrap();
    let mut app = app_on("tutorial.ron");
    app.world_mut().resource_mut::<Game>().save_dir = dir.clone();
    for c in orders {
        app.world_mut().write_message(Intent::Do(c));
        frame(&mut app);
    }
    assert!(game(&app).play.is_over());
    assert!(!auto.exists(), "a finished game is not offered again");
}

/// Esc under the handover screen opens the game menu; Resume brings back the handover, which
/// still takes no commands until the seat is taken.
#[test]
fn esc_under_the_handover_opens_the_menu_and_resume_returns_to_it() {
    let mut app = app();
    app.world_mut()
        .insert_resource(volley::app::HandoverShown(true));
    frame(&mut app);
    keys(&mut app, &[KeyCode::Escape]);
    assert_eq!(menu(&app), Some(Menu::Open), "Esc opens the menu");
    app.world_mut().write_message(MenuChoice::Resume);
    frame(&mut app);
    frame(&mut app);
    assert_eq!(menu(&app), Some(Menu::Closed));
    assert!(app.world().resource::<volley::app::HandoverShown>().0);
    let phase = game(&app).play.phase;
    app.world_mut().write_message(Intent::Do(Command::EndPhase));
    frame(&mut app);
    assert_eq!(game(&app).play.phase, phase, "the handover is still modal");
    assert_eq!(game(&app).message.as_deref(), Some("take the seat first"));
    // Esc again opens the menu again, and closes it.
    keys(&mut app, &[KeyCode::Escape]);
    assert_eq!(menu(&app), Some(Menu::Open));
    keys(&mut app, &[KeyCode::Escape]);
    assert_eq!(menu(&app), Some(Menu::Closed));
}

#[test]
fn the_card_of_a_hovered_enemy_carries_none_of_the_selected_units_buttons() {
    let mut app = app_on("od_tutorial.ron");
    let own = centre(&app, "pr-ir");
    point_at(&mut app, own.x, own.y, Some("pr-ir"));
    press(&mut app);
    release(&mut app);
    let sel = app.world().resource::<Selection>();
    assert_eq!(sel.unit, Some(UnitId("pr-ir".into())));
    let card = sel.card(None).expect("the selected unit's card");
    assert_eq!(card.unit, UnitId("pr-ir".into()));
    assert!(card.buttons, "the selected unit's own card has its buttons");
    // Hovering the enemy: its card, and no button of the selected unit's under its name.
    let enemy = UnitId("au-ir".into());
    let card = sel.card(Some(&enemy)).expect("the hovered unit's card");
    assert_eq!(card.unit, enemy);
    assert!(
        !card.buttons,
        "a hovered enemy's card shows another unit's buttons"
    );
    // Hovering the selected unit itself keeps its buttons.
    let card = sel.card(Some(&UnitId("pr-ir".into()))).unwrap();
    assert!(card.buttons);
}

#[test]
fn a_unit_that_has_moved_is_dragged_red_with_the_reason_at_once() {
    let mut app = app();
    let start = centre(&app, "pr-hc");
    point_at(&mut app, start.x, start.y, Some("pr-hc"));
    press(&mut app);
    point_at(&mut app, start.x, start.y + 40.0, None);
    app.update();
    release(&mut app);
    let moved = centre(&app, "pr-hc");
    assert!(moved.y > start.y + 30.0, "the first move was made");
    // Dragged again: refused with the reason before the pointer moves.
    point_at(&mut app, moved.x, moved.y, Some("pr-hc"));
    press(&mut app);
    let drag = app.world().resource::<Selection>().drag.clone();
    let drag = drag.expect("a moved unit is still dragged, to say why not");
    let why = drag.plan.expect_err("a second move is refused");
    assert!(!why.is_empty(), "the refusal has a reason");
    point_at(&mut app, moved.x, moved.y + 20.0, None);
    app.update();
    let drag = app.world().resource::<Selection>().drag.clone().unwrap();
    assert_eq!(drag.plan.expect_err("still refused"), why);
    release(&mut app);
    assert_eq!(
        centre(&app, "pr-hc"),
        moved,
        "the refused drop changes nothing"
    );
    assert_eq!(game(&app).message.as_deref(), Some(why.as_str()));
}

#[test]
fn a_drag_the_command_points_cannot_pay_for_is_red_before_the_drop() {
    let mut app = app_on("dbfpw_tutorial.ron");
    for _ in 0..6 {
        if game(&app).play.phase == dbn::MOVEMENT {
            break;
        }
        app.world_mut().write_message(Intent::Do(Command::EndPhase));
        app.update();
    }
    assert_eq!(game(&app).play.phase, dbn::MOVEMENT);
    let side = game(&app).play.active;
    let id = if side == 0 { "pr-48" } else { "fr-8" };
    app.world_mut().resource_mut::<Game>().play.command_points[side] = 0;
    let start = centre(&app, id);
    point_at(&mut app, start.x, start.y, Some(id));
    press(&mut app);
    let ahead = if side == 0 { 20.0 } else { -20.0 };
    point_at(&mut app, start.x, start.y + ahead, None);
    app.update();
    let drag = app.world().resource::<Selection>().drag.clone();
    let drag = drag.expect("dragging");
    let why = drag
        .plan
        .expect_err("no command point is left to pay for the move");
    assert!(why.contains("command point"), "{why}");
}

/// A click on one's own unit while an enemy is selected (to read its card) selects one's own
/// unit; it is no aim of the enemy's, and no refusal in the enemy's name is shown.
#[test]
fn a_click_on_ones_own_unit_with_an_enemy_selected_only_selects_it() {
    let mut app = app();
    app.world_mut().write_message(Intent::Do(Command::EndPhase));
    app.update();
    assert_eq!(game(&app).play.phase, dbn::FIRING);
    let click = |app: &mut App, id: &str| {
        let c = centre(app, id);
        point_at(app, c.x, c.y, Some(id));
        press(app);
        release(app);
    };
    click(&mut app, "au-ms1");
    let selected = |app: &App| app.world().resource::<Selection>().unit.clone();
    assert_eq!(selected(&app), Some(UnitId("au-ms1".into())));
    click(&mut app, "pr-ms1");
    assert_eq!(selected(&app), Some(UnitId("pr-ms1".into())));
    assert_eq!(game(&app).message, None, "no refusal in the enemy's name");
    assert!(
        game(&app).pending.is_none(),
        "no command aimed for the enemy"
    );
}

/// Hal's charge declarations at a hotseat table: each side declares in turn. The first side's
/// end of its part hands the seat to the other (the step goes on: the rules see one step, so
/// order files keep their one EndPhase), and only the side at the seat commands its units;
/// the second side's end ends the step.
#[test]
fn each_side_declares_its_charges_in_turn_at_a_hotseat_table() {
    use volley::rules::ruleset::hal25;
    let mut app = app_on("hal25_default.ron");
    while game(&app).play.phase != hal25::CHARGES {
        app.world_mut().write_message(Intent::Do(Command::EndPhase));
        frame(&mut app);
        assert_eq!(game(&app).play.turn, 1, "the declarations come in turn 1");
    }
    let first = game(&app).acting_side();
    let second = 1 - first;
    assert_eq!(game(&app).commanding_sides(true), vec![first]);
    assert_eq!(
        game(&app).commanding_sides(false),
        vec![first, second],
        "against the opponent both sides act at once, as the rules have it"
    );
    let log = game(&app).play.log.len();
    app.world_mut().write_message(Intent::Do(Command::EndPhase));
    frame(&mut app);
    let g = game(&app);
    assert_eq!(g.play.phase, hal25::CHARGES, "the step goes on");
    assert_eq!(g.play.log.len(), log, "the rules saw nothing");
    assert_eq!(g.acting_side(), second);
    assert_eq!(g.commanding_sides(true), vec![second]);
    assert_eq!(g.hand_over_to(), Ok(Some(second)));
    let name = &g.play.sides[second].name;
    assert!(
        g.notice
            .as_deref()
            .is_some_and(|n| n.contains(name.as_str())),
        "{:?}",
        g.notice
    );
    // The second side's end ends the step, for both.
    app.world_mut().write_message(Intent::Do(Command::EndPhase));
    frame(&mut app);
    assert_ne!(game(&app).play.phase, hal25::CHARGES);
    assert_eq!(
        game(&app)
            .play
            .commands
            .iter()
            .filter(|c| **c == Command::EndPhase)
            .count(),
        game(&app).play.commands.len(),
        "one EndPhase a step, as in an order file"
    );
}
