//! Every guided tutorial, played through the app loop (headless) to its last step by its
//! expected commands; at every step a wrong command gets the tutorial's words and changes
//! nothing, and a reading step is not skipped by a command.

use bevy::prelude::*;

mod common;
use std::path::{Path, PathBuf};
use volley::app::lesson::Tutoring;
use volley::app::{Game, Intent};
use volley::rules::command::Command;
use volley::text::lesson::{self, Expect, Verdict};

fn lessons() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/lessons");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

/// What no step asks for.
fn wrong() -> Command {
    Command::Fortify {
        feature: "nowhere".into(),
    }
}

fn app_for(path: &Path) -> App {
    let (l, b) = lesson::load(path).unwrap_or_else(|d| panic!("{d:?}"));
    let mut app = common::headless(b, "lesson");
    app.insert_resource(Tutoring::new(l));
    app.update();
    app
}

fn say(app: &mut App, i: Intent) {
    app.world_mut().write_message(i);
    app.update();
}

#[test]
fn there_is_a_lesson_for_every_playable_ruleset() {
    let mut rulesets: Vec<String> = lessons()
        .iter()
        .map(|p| lesson::load(p).unwrap().1.rules.get().id().to_string())
        .collect();
    rulesets.sort();
    assert_eq!(
        rulesets,
        ["bbb7yw", "db7yw", "dbfpw", "hal25", "old_dessauer"],
        "one lesson each"
    );
}

#[test]
fn every_lesson_plays_to_its_end_and_refuses_what_it_does_not_ask() {
    for path in lessons() {
        let name = path.display().to_string();
        let mut app = app_for(&path);
        let steps = app.world().resource::<Tutoring>().tutor.lesson.steps.len();
        let mut refused = 0;
        for k in 0..steps {
            let step = app
                .world()
                .resource::<Tutoring>()
                .tutor
                .current()
                .unwrap()
                .clone();
            let before = {
                let g = app.world().resource::<Game>();
                (g.play.log.len(), g.play.commands.len())
            };
            // Something else: the step's words, and nothing happens.
            say(&mut app, Intent::Do(wrong()));
            let t = &app.world().resource::<Tutoring>().tutor;
            assert_eq!(
                t.step, k,
                "{name}: a wrong command does not move the lesson on"
            );
            let b = &app.world().resource::<Game>().play;
            let Verdict::Wrong(words) = t.judge(b, &wrong()) else {
                panic!("{name} step {}: the wrong command is judged wrong", k + 1);
            };
            assert_eq!(
                t.said.as_deref(),
                Some(words.as_str()),
                "{name} step {}",
                k + 1
            );
            if let Some(w) = &step.wrong {
                assert_eq!(t.said.as_deref(), Some(w.as_str()), "{name} step {}", k + 1);
            }
            let g = app.world().resource::<Game>();
            assert_eq!(
                (g.play.log.len(), g.play.commands.len()),
                before,
                "{name} step {}: a wrong command changes nothing",
                k + 1
            );
            // What it asks.
            match &step.expect {
                Expect::Read => say(&mut app, Intent::Next),
                Expect::Do { command, .. } | Expect::Refused(command) => {
                    if matches!(step.expect, Expect::Refused(_)) {
                        refused += 1;
                    }
                    say(&mut app, Intent::Do(command.clone()))
                }
            }
            let t = &app.world().resource::<Tutoring>().tutor;
            assert_eq!(
                t.step,
                k + 1,
                "{name} step {}: {:?} ({:?})",
                k + 1,
                step.expect,
                t.said
            );
        }
        assert!(app.world().resource::<Tutoring>().tutor.finished());
        assert!(
            refused >= 1,
            "{name}: the lesson shows an illegal move and why"
        );
    }
}

#[test]
fn every_lesson_checks_clean() {
    for path in lessons() {
        let d = volley::cli::check_file(&path);
        assert!(d.is_empty(), "{}: {d:?}", path.display());
    }
}

fn click(app: &mut App, id: &str) {
    let c = app
        .world()
        .resource::<Game>()
        .play
        .unit(&volley::rules::model::UnitId(id.into()))
        .unwrap()
        .base
        .centre;
    {
        let mut p = app
            .world_mut()
            .resource_mut::<volley::app::input::Pointer>();
        p.world = Some(Vec2::new(c.x, c.y));
        p.hover = Some(volley::rules::model::UnitId(id.into()));
    }
    for press in [true, false] {
        {
            let mut b = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
            if press {
                b.press(MouseButton::Left);
            } else {
                b.release(MouseButton::Left);
            }
        }
        app.update();
        app.world_mut()
            .resource_mut::<ButtonInput<MouseButton>>()
            .clear();
    }
}

/// Plays the lesson at `path` by its expected commands up to step `n` (counted from 1).
fn app_at_step(path: &Path, n: usize) -> App {
    let mut app = app_for(path);
    for _ in 1..n {
        let step = app
            .world()
            .resource::<Tutoring>()
            .tutor
            .current()
            .unwrap()
            .clone();
        match step.expect.example() {
            None => say(&mut app, Intent::Next),
            Some(c) => say(&mut app, Intent::Do(c.clone())),
        }
    }
    assert_eq!(app.world().resource::<Tutoring>().tutor.step, n - 1);
    app
}

#[test]
fn every_step_on_a_target_is_done_by_selecting_and_clicking_it() {
    for path in lessons() {
        let name = path.display().to_string();
        let (l, _) = lesson::load(&path).unwrap();
        for (k, step) in l.steps.iter().enumerate() {
            let Expect::Do { command, .. } = &step.expect else {
                continue;
            };
            let (unit, target) = match command {
                Command::Fire { unit, target, .. }
                | Command::Fight { unit, target, .. }
                | Command::Declare { unit, target } => (unit.clone(), target.clone()),
                _ => continue,
            };
            let mut app = app_at_step(&path, k + 1);
            // Whatever was selected before, the step's words: select the unit, click the target.
            click(&mut app, unit.as_str());
            click(&mut app, target.as_str());
            let g = app.world().resource::<Game>();
            let pending = g.pending.clone().unwrap_or_else(|| {
                panic!(
                    "{name} step {}: the click on {target} opens no window",
                    k + 1
                )
            });
            assert_eq!(pending.kind(), command.kind(), "{name} step {}", k + 1);
            assert!(
                g.play.rules.preview(&g.play, &pending).is_ok(),
                "{name} step {}: the window shows the odds",
                k + 1
            );
            // Roll the dice, the choices ticked as the step wants.
            let mut seen = vec![pending];
            let mut i = 0;
            while i < seen.len() && !step.expect.accepts(&seen[i]) {
                if let Ok(o) = g.play.rules.preview(&g.play, &seen[i]) {
                    for c in o.choices {
                        if !seen.contains(&c.flipped) {
                            seen.push(c.flipped);
                        }
                    }
                }
                i += 1;
            }
            let rolled = seen
                .get(i)
                .cloned()
                .unwrap_or_else(|| panic!("{name} step {}: no choice gives {command:?}", k + 1));
            say(&mut app, Intent::Do(rolled));
            assert_eq!(
                app.world().resource::<Tutoring>().tutor.step,
                k + 1,
                "{name} step {}: done by the mouse",
                k + 1
            );
        }
    }
}

#[test]
fn hals_declared_charge_is_a_click_on_the_target_and_a_roll() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/lessons/hal25.ron");
    let mut app = app_at_step(&path, 4);
    click(&mut app, "pr-gr");
    click(&mut app, "au-kaiser");
    let g = app.world().resource::<Game>();
    let want = Command::Declare {
        unit: volley::rules::model::UnitId("pr-gr".into()),
        target: volley::rules::model::UnitId("au-kaiser".into()),
    };
    assert_eq!(
        g.pending.as_ref(),
        Some(&want),
        "the Before the dice window"
    );
    let o = g.play.rules.preview(&g.play, &want).unwrap();
    assert!(!o.chances.is_empty(), "{o:?}");
    let pending = g.pending.clone().unwrap();
    say(&mut app, Intent::Do(pending));
    assert_eq!(app.world().resource::<Tutoring>().tutor.step, 4);
    // A click on an Austrian with nothing of Prussia's selected still selects it.
    let mut app = app_at_step(&path, 4);
    click(&mut app, "au-kaiser");
    assert!(app.world().resource::<Game>().pending.is_none());
    assert_eq!(
        app.world()
            .resource::<volley::app::input::Selection>()
            .unit
            .as_ref()
            .map(|u| u.as_str()),
        Some("au-kaiser")
    );
}

#[test]
fn the_check_refuses_a_step_the_mouse_cannot_do_as_worded() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/lessons/hal25.ron");
    let (l, mut b) = lesson::load(&path).unwrap();
    lesson::advance(&l, &mut b, 3).unwrap();
    // In the declarations a click on the Kaiser declares a charge: it cannot fire at it.
    let mut step = l.steps[3].clone();
    step.expect = Expect::Do {
        command: Command::Fire {
            unit: volley::rules::model::UnitId("pr-gr".into()),
            target: volley::rules::model::UnitId("au-kaiser".into()),
            support: vec![],
            defence: None,
        },
        accept: lesson::Accept::Exact,
    };
    let e = lesson::by_the_mouse(&step, &b).unwrap_err();
    assert!(e.contains("Declare"), "{e}");
    assert!(lesson::by_the_mouse(&l.steps[3], &b).is_ok());
    // Nor is there a button to make a charge before it is declared and the brigade moves.
    step.expect = Expect::Do {
        command: Command::Charge {
            unit: volley::rules::model::UnitId("pr-gr".into()),
        },
        accept: lesson::Accept::Exact,
    };
    let e = lesson::by_the_mouse(&step, &b).unwrap_err();
    assert!(e.contains("card"), "{e}");
}

/// A step that has the player open "Before the dice" and read it is read on with Next: the
/// window stays open for the next step, which explains its factors or asks for the roll.
#[test]
fn next_keeps_the_window_the_next_step_explains() {
    let mut seen = 0;
    for path in lessons() {
        let name = path.display().to_string();
        let (l, _) = lesson::load(&path).unwrap();
        for (k, step) in l.steps.iter().enumerate() {
            let opens = step.text.contains("Before the dice") && step.text.contains("click");
            let (Expect::Read, true, [unit, target]) = (&step.expect, opens, &step.highlight[..])
            else {
                continue;
            };
            let Some(next) = l.steps.get(k + 1) else {
                continue;
            };
            seen += 1;
            let mut app = app_at_step(&path, k + 1);
            click(&mut app, unit.as_str());
            click(&mut app, target.as_str());
            let open = app.world().resource::<Game>().pending.clone();
            assert!(open.is_some(), "{name} step {}: the window opens", k + 1);
            say(&mut app, Intent::Next);
            assert_eq!(
                app.world().resource::<Tutoring>().tutor.step,
                k + 1,
                "{name} step {}: Next reads on",
                k + 1
            );
            assert_eq!(
                app.world().resource::<Game>().pending,
                open,
                "{name} step {}: Next leaves the window open for \"{}\"",
                k + 1,
                next.text
            );
            // The next step speaks of the window it keeps: its factors, or its Roll button.
            let g = app.world().resource::<Game>();
            let cmd = open.unwrap();
            let o = g.play.rules.preview(&g.play, &cmd).unwrap();
            assert!(!o.chances.is_empty(), "{name} step {}", k + 2);
            if let Expect::Do { command, .. } = &next.expect {
                assert_eq!(command.kind(), cmd.kind(), "{name} step {}", k + 2);
            }
        }
    }
    assert!(seen >= 3, "the lessons that open the window before a roll");
}
