//! The scenario editor's model: a scenario made by edits passes `volley check`; each shipped
//! scenario opened and saved unchanged loads to the same battle; undo and redo take back and
//! make again every edit; every problem the checks find lands on the thing it concerns.

mod common;
use common::FOOT;
use std::path::{Path, PathBuf};
use volley::editor::{Draft, Thing, write};
use volley::rules::ruleset::UnitState;
use volley::rules::scenario;
use volley::rules::terrain::FeatureKind;

fn scratch(name: &str) -> PathBuf {
    common::scratch("editor", name)
}

#[test]
fn a_scenario_made_by_edits_for_each_ruleset_passes_the_checks() {
    for (ruleset, foot) in FOOT {
        let mut d = Draft::new(ruleset).unwrap();
        let (w, h) = (d.raw().table.width, d.raw().table.height);
        d.add_feature(
            FeatureKind::Woods,
            vec![
                (100.0, 100.0),
                (250.0, 110.0),
                (240.0, 260.0),
                (110.0, 240.0),
            ],
        );
        d.add_feature(
            FeatureKind::Stream,
            vec![(0.0, h / 2.0), (w / 2.0, h / 2.0 + 30.0), (w, h / 2.0)],
        );
        d.add_body(0, foot, 3, (w / 2.0 - 150.0, 150.0), 0.0, false);
        d.add_unit(1, foot, (w / 2.0, h - 150.0), 180.0);
        d.add_objective((w / 2.0, h - 60.0));
        let checked = d.check();
        assert!(
            checked.problems.is_empty(),
            "{ruleset}: {:?}",
            checked.problems
        );
        let game = checked.game.expect("the game of a checked draft");
        assert_eq!(game.battle.units.len(), 4, "{ruleset}");
        let path = scratch(&format!("{ruleset}.ron"));
        d.save(&path, true).unwrap();
        assert!(!d.dirty());
        let loaded = scenario::load(&path).unwrap_or_else(|e| panic!("{ruleset}: {e:?}"));
        assert_eq!(loaded.battle.units.len(), 4);
        assert_eq!(loaded.battle.terrain.features.len(), 2);
        assert_eq!(loaded.battle.victory.objectives.len(), 1, "{ruleset}");
    }
}

#[test]
fn each_shipped_scenario_saved_unchanged_loads_to_the_same_battle() {
    let files = common::shipped();
    assert!(files.len() >= 15);
    for f in files {
        let mut d = Draft::open(&f).unwrap();
        let before = scenario::load(&f).unwrap();
        let out = scratch(&format!(
            "same-{}",
            f.file_name().unwrap().to_string_lossy()
        ));
        d.save(&out, true)
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let text = std::fs::read_to_string(&out).unwrap();
        let again = Draft::open(&out).unwrap();
        assert_eq!(
            again.raw(),
            d.raw(),
            "{}: the scenario as written",
            f.display()
        );
        let after = scenario::parse(&text, "again").unwrap();
        // The same battle: the same units in the same states, the same terrain and victory.
        let json = |g: &volley::rules::Game| {
            serde_json::to_string(&(&g.battle.units, &g.battle.terrain.features, &g.battle.zones))
                .unwrap()
        };
        assert_eq!(json(&before), json(&after), "{}", f.display());
        assert_eq!(
            format!("{:?}", before.battle.victory),
            format!("{:?}", after.battle.victory),
            "{}",
            f.display()
        );
        // One line for each unit and feature.
        let units = text.lines().filter(|l| l.contains("type: ")).count();
        assert_eq!(units, d.raw().units.len(), "{}", f.display());
    }
}

#[test]
fn undo_and_redo_take_back_and_make_again_each_edit() {
    let mut d = Draft::new("old_dessauer").unwrap();
    let bare = d.raw().clone();
    let u = d.add_unit(0, "Inf", (300.0, 300.0), 0.0);
    d.move_by(Thing::Unit(u), 25.0, -10.0);
    d.face(u, 90.0);
    let o = d.add_objective((500.0, 500.0));
    d.delete(Thing::Objective(o));
    let done = d.raw().clone();
    assert_eq!(d.raw().units[0].at, Some((325.0, 290.0)));
    assert_eq!(d.raw().units[0].facing, 90.0);
    assert!(d.raw().objectives.is_empty());
    let mut labels = Vec::new();
    while let Some(l) = d.undo() {
        labels.push(l);
    }
    assert_eq!(
        labels,
        ["delete", "place an objective", "turn", "move", "place Inf"]
    );
    assert_eq!(d.raw(), &bare);
    while d.redo().is_some() {}
    assert_eq!(d.raw(), &done);
    // A new edit after undo clears what could be redone; an edit that changes nothing is not
    // kept.
    d.undo();
    d.move_by(Thing::Unit(0), 0.0, 0.0);
    assert_eq!(d.undo_label(), Some("place an objective"));
    d.move_by(Thing::Unit(0), 5.0, 0.0);
    assert_eq!(d.redo_label(), None);
}

#[test]
fn each_problem_lands_on_the_thing_it_concerns() {
    let mut d = Draft::new("db7yw").unwrap();
    let a = d.add_unit(0, "Ms", (300.0, 300.0), 0.0);
    // Overlapping the first.
    let b = d.add_unit(0, "Ms", (305.0, 302.0), 0.0);
    // Off the table.
    let c = d.add_unit(1, "Ms", (-50.0, 300.0), 180.0);
    let o = d.add_objective((99_000.0, 5.0));
    let checked = d.check();
    let on = |t: Thing| checked.on(t).map(|p| p.message.clone()).collect::<Vec<_>>();
    // The overlap is on the unit set down second, and names the first, which carries it too.
    assert!(
        on(Thing::Unit(b))[0].contains("overlaps"),
        "{:?}",
        checked.problems
    );
    assert_eq!(on(Thing::Unit(a)), on(Thing::Unit(b)));
    assert!(on(Thing::Unit(c))[0].contains("off the table"));
    assert!(on(Thing::Objective(o))[0].contains("off the table"));
    // What passed is still a game to draw: the first unit.
    let game = checked.game.unwrap();
    assert_eq!(game.battle.units.len(), 1);
    // A playable save is refused while problems stand; a draft is written.
    let path = scratch("with-problems.ron");
    let refused = d.save(&path, true).unwrap_err();
    assert!(refused.contains("3 problems"), "{refused}");
    assert!(!path.exists());
    d.save(&path, false).unwrap();
    assert!(scenario::load(&path).is_err());
    assert_eq!(Draft::open(&path).unwrap().raw(), d.raw());
}

#[test]
fn features_are_reshaped_copied_and_found_under_the_pointer() {
    let mut d = Draft::new("hal25").unwrap();
    let f = d.add_feature(
        FeatureKind::Hill,
        vec![
            (100.0, 100.0),
            (300.0, 100.0),
            (300.0, 300.0),
            (100.0, 300.0),
        ],
    );
    let r = d.add_feature(FeatureKind::Road, vec![(0.0, 200.0), (600.0, 200.0)]);
    assert_eq!(d.raw().terrain[f].id, "hill-1");
    assert_eq!(d.raw().terrain[r].width, 12.0);
    let raw = d.raw().clone();
    // The road lies over the hill: it is picked first on it, the hill beside it.
    assert_eq!(
        volley::editor::hit(&raw, None, (200.0, 203.0), 2.0),
        Some(Thing::Feature(r))
    );
    assert_eq!(
        volley::editor::hit(&raw, None, (150.0, 150.0), 2.0),
        Some(Thing::Feature(f))
    );
    assert_eq!(volley::editor::hit(&raw, None, (500.0, 500.0), 2.0), None);
    assert_eq!(
        volley::editor::vertex_near(&raw, f, (296.0, 104.0), 8.0),
        Some(1)
    );
    d.set_vertex(f, 1, (350.0, 80.0));
    d.insert_vertex(f, 1, (360.0, 200.0));
    assert_eq!(d.raw().terrain[f].points.len(), 5);
    d.remove_vertex(f, 0);
    d.remove_vertex(f, 0);
    d.remove_vertex(f, 0);
    // An area keeps three corners.
    assert_eq!(d.raw().terrain[f].points.len(), 3);
    let copy = d.copy(Thing::Feature(f), (400.0, 0.0)).unwrap();
    let Thing::Feature(k) = copy else { panic!() };
    assert_eq!(d.raw().terrain[k].id, "hill-2");
    assert_eq!(
        d.raw().terrain[k].points[0].0,
        d.raw().terrain[f].points[0].0 + 400.0
    );
    assert!(d.check().problems.is_empty(), "{:?}", d.check().problems);
}

#[test]
fn a_line_and_a_column_are_placed_base_by_base() {
    let mut d = Draft::new("db7yw").unwrap();
    let line = d.add_body(0, "Ms", 4, (200.0, 200.0), 0.0, false);
    let col = d.add_body(1, "Ms", 3, (600.0, 600.0), 180.0, true);
    assert_eq!(line, vec![0, 1, 2, 3]);
    assert_eq!(col, vec![4, 5, 6]);
    let raw = d.raw();
    let ids: std::collections::BTreeSet<&str> = raw.units.iter().map(|u| u.id.as_str()).collect();
    assert_eq!(ids.len(), 7);
    // The line runs across the front, the column back from it (facing 180: up the table).
    assert_eq!(raw.units[1].at.unwrap().1, 200.0);
    assert!(raw.units[1].at.unwrap().0 > 200.0);
    assert_eq!(raw.units[5].at.unwrap().0, 600.0);
    assert!(raw.units[5].at.unwrap().1 > 600.0);
    assert!(d.check().problems.is_empty(), "{:?}", d.check().problems);
    // One undo takes the whole line back.
    d.undo();
    assert_eq!(d.raw().units.len(), 4);
}

/// The line of a text (from 0) that holds `what`.
fn line_of(text: &str, what: &str) -> usize {
    text.lines()
        .position(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no line holds {what}: {text}"))
}

#[test]
fn the_file_has_one_line_a_thing_and_reads_back() {
    let mut d = Draft::new("bbb7yw").unwrap();
    d.add_unit(0, "Inf", (200.0, 200.0), 0.0);
    let w = write(d.raw()).unwrap();
    assert!(
        w.text.starts_with("#![enable(implicit_some)]\n("),
        "{}",
        w.text
    );
    assert_eq!(w.lines[line_of(&w.text, "type: \"Inf\"")], Thing::Unit(0));
    assert!(w.text.contains("at: (200.0, 200.0)"), "{}", w.text);
    assert!(
        !w.text.contains("hits"),
        "defaults are left out: {}",
        w.text
    );
    assert_eq!(scenario::parse_raw(&w.text, "x").unwrap(), *d.raw());
    // Apostrophes are written plain; quotes, backslashes and line breaks escaped; every one
    // reads back, and the lines still fall one a thing.
    let odd = "Bevern's \"Relation\", C:\\maps\\ and\na second line";
    d.edit("name", |r| {
        r.name = odd.into();
        r.units[0].name = odd.into();
    });
    let w = write(d.raw()).unwrap();
    assert!(w.text.contains("Bevern's"), "{}", w.text);
    assert_eq!(scenario::parse_raw(&w.text, "x").unwrap(), *d.raw());
    assert_eq!(w.lines[line_of(&w.text, "type: \"Inf\"")], Thing::Unit(0));
}

#[test]
fn a_game_in_progress_becomes_a_scenario_of_its_position() {
    use volley::players::autoplay::AutoPlayer;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    for file in [
        "default.ron",
        "dbfpw_default.ron",
        "bbb_default.ron",
        "hal25_default.ron",
        "lobosch_1756.ron",
    ] {
        let mut g = scenario::load(&root.join(file)).unwrap();
        // Some bounds of play: units moved, some hit or lost.
        AutoPlayer::new(7).play(&mut g, 20, 12);
        let d = Draft::from_game(&g);
        let checked = d.check();
        assert!(
            checked.problems.is_empty(),
            "{file}: {:?}",
            checked.problems
        );
        let now = checked.game.unwrap();
        // Every unit still on the table stands where it stood, in the states it was in.
        for u in g.battle.units.iter().filter(|u| u.alive()) {
            let v = now
                .battle
                .unit(&u.id)
                .unwrap_or_else(|_| panic!("{file}: {}", u.id));
            assert!(
                u.base.centre.dist(v.base.centre) < 0.11,
                "{file}: {} at {:?}, now {:?}",
                u.id,
                u.base.centre,
                v.base.centre
            );
            if g.rules.unit_model() != volley::rules::ruleset::UnitModel::Stands {
                assert_eq!(u.status.hits, v.status.hits, "{file}: {}", u.id);
            }
            assert_eq!(u.formation, v.formation, "{file}: {}", u.id);
            // The bound in progress is not carried: the scenario starts at its first phase,
            // with no unit yet moved.
            let mut was = g.rules.state_of(u);
            was.moved = false;
            assert_eq!(was, now.rules.state_of(v), "{file}: {}", u.id);
        }
        let lost = g.battle.units.iter().filter(|u| u.status.removed).count();
        assert_eq!(
            now.battle.units.len(),
            g.battle.units.len() - lost,
            "{file}"
        );
    }
}

/// A position whose states a ruleset names twice (Hal's disorganisation is also the shared
/// disordered flag) or counts twice (Hal's hits are its figures lost) is written once each, so
/// that the scenario it becomes passes its own check.
#[test]
fn a_position_is_written_with_each_state_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut g = scenario::load(&root.join("hal25_default.ron")).unwrap();
    let foot: Vec<usize> = (0..g.battle.units.len())
        .filter(|&i| {
            g.battle
                .units
                .get(i)
                .is_some_and(|u| g.rules.unit_states(&u.troop).contains(&UnitState::Routed))
        })
        .take(2)
        .collect();
    let [a, b] = foot[..] else {
        panic!("two units that rout")
    };
    for (i, routed) in [(a, false), (b, true)] {
        let u = std::sync::Arc::make_mut(&mut g.battle.units)
            .get_mut(i)
            .unwrap();
        u.status.disordered = true;
        u.status.shaken = routed;
        u.status.hits = 12;
    }
    let d = Draft::from_game(&g);
    let checked = d.check();
    assert!(checked.problems.is_empty(), "{:?}", checked.problems);
    let now = checked.game.unwrap();
    let state = |i: usize| now.rules.state_of(now.battle.units.get(i).unwrap());
    assert!(state(a).disorganised && !state(a).routed);
    assert!(state(b).routed);
}

#[test]
fn each_ruleset_offers_its_troop_table_by_code_and_name() {
    for (ruleset, foot) in FOOT {
        let d = Draft::new(ruleset).unwrap();
        let r = d.rules().unwrap();
        let table = r.troop_table();
        let codes: Vec<String> = table.iter().map(|(c, _)| c.clone()).collect();
        assert_eq!(codes, r.troop_codes(), "{ruleset}");
        let (_, name) = table.iter().find(|(c, _)| c == foot).unwrap();
        assert!(
            name.len() > foot.len(),
            "{ruleset}: {foot} is called {name}"
        );
    }
}
