//! The scenario editor headless: MinimalPlugins and StatesPlugin, the mouse and keys injected
//! as InputPlugin would set them between frames, the pointer's place on the table set by hand.
//! A small scenario is built for each ruleset with the mouse and keys alone, saved, and
//! `volley check` accepts it; each shipped scenario opened in the editor and saved unchanged
//! loads to the same battle.

use bevy::prelude::*;
mod common;
use common::FOOT;
use std::path::{Path, PathBuf};
use std::process::Command as Process;
use volley::app::editor::{Editor, EditorPointer, Tool};
use volley::app::screens::Screen;
use volley::editor::{Draft, Thing};
use volley::rules::scenario;

fn scratch(name: &str) -> PathBuf {
    common::scratch("editor-app", name)
}

fn editor_on(draft: Draft) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<ButtonInput<KeyCode>>()
        .add_plugins(volley::app::editor::headless(draft, scratch("new")));
    app.update();
    app
}

fn editor(app: &App) -> &Editor {
    app.world().resource::<Editor>()
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

fn point_at(app: &mut App, x: f32, y: f32) {
    app.world_mut().resource_mut::<EditorPointer>().world = Some(Vec2::new(x, y));
}

fn key(app: &mut App, held: &[KeyCode], k: KeyCode) {
    {
        let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        for h in held {
            keys.press(*h);
        }
        keys.press(k);
    }
    frame(app);
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .release_all();
    frame(app);
}

/// Press and release the left button at a point of the table.
fn click(app: &mut App, x: f32, y: f32) {
    drag(app, (x, y), (x, y));
}

/// Press at `from`, move to `to` over a few frames, release there.
fn drag(app: &mut App, from: (f32, f32), to: (f32, f32)) {
    point_at(app, from.0, from.1);
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .press(MouseButton::Left);
    frame(app);
    for k in 1..=4 {
        let t = k as f32 / 4.0;
        point_at(
            app,
            from.0 + (to.0 - from.0) * t,
            from.1 + (to.1 - from.1) * t,
        );
        frame(app);
    }
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .release(MouseButton::Left);
    frame(app);
}

/// Steps through the troop types with ] until `troop` is in hand.
fn choose_troop(app: &mut App, troop: &str) {
    for _ in 0..60 {
        if editor(app).troop == troop {
            return;
        }
        key(app, &[], KeyCode::BracketRight);
    }
    panic!("no troop type {troop}");
}

fn volley_check(path: &Path) -> (bool, String) {
    let out = Process::new(env!("CARGO_BIN_EXE_volley"))
        .arg("check")
        .arg(path)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
    )
}

#[test]
fn a_scenario_is_built_for_each_ruleset_with_the_mouse_and_keys_and_passes_the_check() {
    for (ruleset, foot) in FOOT {
        let path = scratch(&format!("built-{ruleset}.ron"));
        let _ = std::fs::remove_file(&path);
        let mut d = Draft::new(ruleset).unwrap();
        d.path = Some(path.clone());
        let mut app = editor_on(d);
        assert_eq!(
            *app.world().resource::<State<Screen>>().get(),
            Screen::Editor
        );
        let (w, h) = {
            let t = &editor(&app).draft.raw().table;
            (t.width, t.height)
        };
        // A wood: four corners, Enter.
        key(&mut app, &[], KeyCode::Digit2);
        assert_eq!(editor(&app).tool, Tool::Terrain);
        for (x, y) in [(60.0, 60.0), (200.0, 70.0), (190.0, 200.0), (70.0, 190.0)] {
            click(&mut app, x, y);
        }
        key(&mut app, &[], KeyCode::Enter);
        // A stream across the table: the next kinds with ], two points, Enter.
        while editor(&app).kind != volley::rules::terrain::FeatureKind::Stream {
            key(&mut app, &[], KeyCode::BracketRight);
        }
        click(&mut app, 0.0, h / 2.0);
        click(&mut app, w, h / 2.0 + 20.0);
        key(&mut app, &[], KeyCode::Enter);
        assert_eq!(editor(&app).draft.raw().terrain.len(), 2, "{ruleset}");
        // A unit of each side: the units tool, the troop type, click; Tab for the other side.
        key(&mut app, &[], KeyCode::Digit3);
        choose_troop(&mut app, foot);
        click(&mut app, w / 2.0, h / 4.0);
        key(&mut app, &[], KeyCode::Tab);
        click(&mut app, w / 2.0, h * 3.0 / 4.0);
        let raw = editor(&app).draft.raw().clone();
        assert_eq!(raw.units.len(), 2, "{ruleset}");
        assert_eq!((raw.units[0].side, raw.units[1].side), (0, 1));
        assert_eq!(raw.units[1].facing, 180.0);
        // An objective behind the second side's unit.
        key(&mut app, &[], KeyCode::Digit4);
        click(&mut app, w / 2.0, h - 40.0);
        // The first unit dragged 30 mm up the table and turned 15 degrees with E.
        key(&mut app, &[], KeyCode::Digit1);
        drag(&mut app, (w / 2.0, h / 4.0), (w / 2.0, h / 4.0 + 30.0));
        assert_eq!(editor(&app).selected, Some(Thing::Unit(0)));
        key(&mut app, &[], KeyCode::KeyE);
        let u = &editor(&app).draft.raw().units[0];
        let moved = volley::editor::tidy_pt((w / 2.0, h / 4.0 + 30.0));
        assert_eq!(u.at, Some(moved), "{ruleset}");
        assert_eq!(u.facing, 15.0);
        // Undo takes back the turn, redo makes it again.
        key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyZ);
        assert_eq!(editor(&app).draft.raw().units[0].facing, 0.0);
        key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyY);
        assert_eq!(editor(&app).draft.raw().units[0].facing, 15.0);
        assert!(
            editor(&app).checked.problems.is_empty(),
            "{ruleset}: {:?}",
            editor(&app).checked.problems
        );
        // Saved with Ctrl+S; `volley check` accepts the file.
        key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyS);
        assert_eq!(editor(&app).message, None, "{ruleset}");
        assert!(!editor(&app).draft.dirty());
        let (ok, out) = volley_check(&path);
        assert!(ok, "{ruleset}: {out}");
        let g = scenario::load(&path).unwrap();
        assert_eq!(g.battle.units.len(), 2);
        assert_eq!(g.battle.terrain.features.len(), 2);
        assert_eq!(g.battle.victory.objectives.len(), 1);
    }
}

#[test]
fn a_problem_shows_at_once_and_keeps_the_scenario_from_being_saved_as_playable() {
    let path = scratch("overlap.ron");
    let _ = std::fs::remove_file(&path);
    let mut d = Draft::new("db7yw").unwrap();
    d.path = Some(path.clone());
    let mut app = editor_on(d);
    key(&mut app, &[], KeyCode::Digit3);
    choose_troop(&mut app, "Ms");
    click(&mut app, 300.0, 300.0);
    click(&mut app, 305.0, 300.0);
    let on_second: Vec<String> = editor(&app)
        .checked
        .on(Thing::Unit(1))
        .map(|p| p.message.clone())
        .collect();
    assert_eq!(on_second.len(), 1);
    assert!(on_second[0].contains("overlaps"), "{on_second:?}");
    key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyS);
    assert!(
        editor(&app)
            .message
            .as_deref()
            .unwrap_or("")
            .contains("problem")
    );
    assert!(!path.exists());
    // Saved as a draft, problems and all.
    key(
        &mut app,
        &[KeyCode::ControlLeft, KeyCode::ShiftLeft],
        KeyCode::KeyS,
    );
    assert!(path.with_extension("draft.ron").exists());
    // Deleting the second unit clears the problem; now it saves.
    key(&mut app, &[], KeyCode::Digit1);
    click(&mut app, 320.0, 300.0);
    assert_eq!(editor(&app).selected, Some(Thing::Unit(1)));
    key(&mut app, &[], KeyCode::Delete);
    assert!(editor(&app).checked.problems.is_empty());
    key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyS);
    assert!(path.exists());
    assert!(volley_check(&path).0);
}

#[test]
fn each_shipped_scenario_opened_in_the_editor_and_saved_loads_to_the_same_battle() {
    for f in common::shipped() {
        let out = scratch(&format!(
            "same-{}",
            f.file_name().unwrap().to_string_lossy()
        ));
        let mut d = Draft::open(&f).unwrap();
        d.path = Some(out.clone());
        let mut app = editor_on(d);
        assert!(
            editor(&app).checked.problems.is_empty(),
            "{}: {:?}",
            f.display(),
            editor(&app).checked.problems
        );
        key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyS);
        assert_eq!(editor(&app).message, None, "{}", f.display());
        let (before, after) = (scenario::load(&f).unwrap(), scenario::load(&out).unwrap());
        let json = |g: &volley::rules::Game| {
            serde_json::to_string(&(&g.battle.units, &g.battle.terrain.features, &g.battle.zones))
                .unwrap()
        };
        assert_eq!(json(&before), json(&after), "{}", f.display());
        assert_eq!(
            *before.battle.scenario,
            *after.battle.scenario,
            "{}",
            f.display()
        );
    }
}

#[test]
fn a_feature_is_reshaped_by_its_corners() {
    let mut d = Draft::new("hal25").unwrap();
    d.add_feature(
        volley::rules::terrain::FeatureKind::Hill,
        vec![
            (100.0, 100.0),
            (300.0, 100.0),
            (300.0, 300.0),
            (100.0, 300.0),
        ],
    );
    let mut app = editor_on(d);
    // Pick the hill, drag its second corner out.
    click(&mut app, 200.0, 200.0);
    assert_eq!(editor(&app).selected, Some(Thing::Feature(0)));
    drag(&mut app, (300.0, 100.0), (360.0, 60.0));
    assert_eq!(editor(&app).draft.raw().terrain[0].points[1], (360.0, 60.0));
    // Ctrl+click on an edge adds a corner; on a corner takes it off.
    point_at(&mut app, 100.0, 200.0);
    {
        let mut k = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        k.press(KeyCode::ControlLeft);
    }
    click(&mut app, 100.0, 200.0);
    assert_eq!(editor(&app).draft.raw().terrain[0].points.len(), 5);
    click(&mut app, 100.0, 200.0);
    assert_eq!(editor(&app).draft.raw().terrain[0].points.len(), 4);
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .release_all();
    // Ctrl+D copies it; Delete deletes the copy; undo brings it back.
    key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyD);
    assert_eq!(editor(&app).draft.raw().terrain.len(), 2);
    key(&mut app, &[], KeyCode::Delete);
    assert_eq!(editor(&app).draft.raw().terrain.len(), 1);
    key(&mut app, &[KeyCode::ControlLeft], KeyCode::KeyZ);
    assert_eq!(editor(&app).draft.raw().terrain.len(), 2);
}

#[test]
fn with_snap_on_things_are_set_down_on_the_grid_and_dragged_by_whole_steps() {
    let mut app = editor_on(Draft::new("db7yw").unwrap());
    let grid = editor(&app).grid();
    // 50 paces at DB7YW's 100 paces an inch: half an inch.
    assert!((grid - 12.7).abs() < 1e-3, "{grid}");
    key(&mut app, &[], KeyCode::KeyG);
    assert!(editor(&app).snap);
    key(&mut app, &[], KeyCode::Digit4);
    click(&mut app, 101.0, 198.0);
    let at = editor(&app).draft.raw().objectives[0].at;
    assert_eq!(at, volley::editor::tidy_pt((8.0 * grid, 16.0 * grid)));
    // Dragged 30 mm: two whole steps (25.4 mm).
    key(&mut app, &[], KeyCode::Digit1);
    drag(&mut app, (at.0, at.1), (at.0 + 30.0, at.1));
    let moved = editor(&app).draft.raw().objectives[0].at;
    assert_eq!(moved, volley::editor::tidy_pt((at.0 + 2.0 * grid, at.1)));
}
