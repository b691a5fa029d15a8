//! Every guided tutorial, played through the app loop (headless) to its last step by its
//! expected commands; at every step a wrong command gets the tutorial's words and changes
//! nothing, and a reading step is not skipped by a command.

use bevy::prelude::*;

mod common;
use std::path::{Path, PathBuf};
use volley::app::lesson::Tutoring;
use volley::app::{Game, Intent};
use volley::rules::command::Command;
use volley::rules::lesson::{self, Expect, Verdict};

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
                (g.battle.log.len(), g.battle.commands.len())
            };
            // Something else: the step's words, and nothing happens.
            say(&mut app, Intent::Do(wrong()));
            let t = &app.world().resource::<Tutoring>().tutor;
            assert_eq!(
                t.step, k,
                "{name}: a wrong command does not move the lesson on"
            );
            let b = &app.world().resource::<Game>().battle;
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
                (g.battle.log.len(), g.battle.commands.len()),
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
