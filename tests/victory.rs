//! A scenario's objectives and victory conditions: who holds a place by each ruleset's rule,
//! conditions by a turn, first to a number of points, leaving the table, losses, the
//! ruleset's own ends kept, the steps at the turn limit combined, and `volley check`'s
//! refusals at their place in the file. Inline scenarios, scripted dice.

mod common;
use common::{U, battle_with, fight, id, kind_of, to_phase};
use volley::rules::command::{Command, Ending, Event};
use volley::rules::geometry::Pt;
use volley::rules::ruleset::common::Refusal;
use volley::rules::ruleset::dbn::{CLOSE_COMBAT, MOVEMENT};
use volley::rules::victory::{Reading, at_limit};
use volley::rules::{Game, scenario};

/// A DB7YW battle: a Prussian Muskets `p` and heavy cavalry `h`, a Prussian CinC `c`, an
/// Austrian Muskets `a`, the place `hill` at the table's centre (nobody's, worth 2) and
/// `town` (Austria's), with `conditions` (RON of the victory_conditions block, or empty).
fn hill(conditions: &str, limit: u32) -> Game {
    let block = if conditions.is_empty() {
        String::new()
    } else {
        format!("victory_conditions: ({conditions}),")
    };
    let text = format!(
        r#"(name: "t", ruleset: "db7yw", table: (width: 1000, height: 1000), turn_limit: {limit},
        sides: [(name: "Prussia", colour: (0, 0, 200)), (name: "Austria", colour: (200, 200, 200))],
        units: [(id: "p", side: 0, type: "Ms", at: Some((200, 200)), facing: 0),
                (id: "h", side: 0, type: "HC", at: Some((300, 200)), facing: 0),
                (id: "c", side: 0, type: "CinC", at: Some((400, 200)), facing: 0),
                (id: "a", side: 1, type: "Ms", at: Some((800, 800)), facing: 180),
                (id: "a2", side: 1, type: "Ms", at: Some((900, 800)), facing: 180)],
        objectives: [(id: "hill", name: "The hill", at: (500, 500), worth: 2),
                     (id: "town", name: "The town", at: (700, 900), owner: 1)],
        {block})"#
    );
    scenario::parse(&text, "t.ron").unwrap_or_else(|d| panic!("{d:?}"))
}

/// Puts a unit's centre at a point (setting up, not a move).
fn put(b: &mut Game, unit: &str, at: Pt) {
    let u = id(unit);
    if let Some(x) = b.units_mut().iter_mut().find(|x| x.id == u) {
        x.base.centre = at;
    }
}

/// Puts a unit with its base's lowest corner on y = `y`.
fn put_at_y(b: &mut Game, unit: &str, x: f32, y: f32) {
    put(b, unit, Pt::new(x, 300.0));
    let u = id(unit);
    if let Some(v) = b.units_mut().iter_mut().find(|v| v.id == u) {
        let lo = v
            .base
            .corners()
            .iter()
            .map(|c| c.y)
            .fold(f32::MAX, f32::min);
        v.base.centre.y += y - lo;
    }
}

fn held(ev: &[Event]) -> Vec<(usize, usize)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::ObjectiveHeld { objective, side } => Some((*objective, *side)),
            _ => None,
        })
        .collect()
}

/// The game's end: winner and how, if it is over.
fn ended(b: &Game) -> Option<(Option<usize>, Ending)> {
    b.log.iter().find_map(|e| match e {
        Event::GameOver { winner, by, .. } => Some((*winner, *by)),
        _ => None,
    })
}

fn conditions_met(b: &Game) -> usize {
    b.log
        .iter()
        .filter(|e| matches!(e, Event::ConditionMet { .. }))
        .count()
}

/// Ends phases until the game is over; the turn it ended in.
fn play_out(b: &mut Game) -> u32 {
    for _ in 0..200 {
        if b.is_over() {
            return b.turn;
        }
        b.execute(Command::EndPhase).expect("end phase");
    }
    panic!("the game never ended");
}

#[test]
fn dbn_takes_a_place_with_a_base_over_it_and_no_enemy_near_and_keeps_it() {
    let mut b = hill("", 5);
    let r = b.scale.to_mm(100.0);
    // An Austrian within 100 paces: Prussia's base over the spot does not take it.
    put(&mut b, "p", Pt::new(500.0, 500.0));
    put(&mut b, "a", Pt::new(500.0 + r - 20.0, 500.0));
    let ev = b.execute(Command::EndPhase).expect("end phase");
    assert_eq!(held(&ev), vec![]);
    assert_eq!(b.objectives()[0].holder, None);
    // The Austrian gone beyond 100 paces: Prussia takes it.
    put(&mut b, "a", Pt::new(500.0 + r + 40.0, 500.0));
    let ev = b.execute(Command::EndPhase).expect("end phase");
    assert_eq!(held(&ev), vec![(0, 0)]);
    // Prussia leaves: it keeps the place.
    put(&mut b, "p", Pt::new(200.0, 200.0));
    let ev = b.execute(Command::EndPhase).expect("end phase");
    assert_eq!(held(&ev), vec![]);
    assert_eq!(b.objectives()[0].holder, Some(0));
    // An Austrian base over it, no Prussian near: Austria takes it.
    put(&mut b, "a", Pt::new(500.0, 500.0));
    let ev = b.execute(Command::EndPhase).expect("end phase");
    assert_eq!(held(&ev), vec![(0, 1)]);
}

#[test]
fn a_general_alone_never_takes_a_place() {
    let mut b = hill("", 5);
    put(&mut b, "c", Pt::new(500.0, 500.0));
    let ev = b.execute(Command::EndPhase).expect("end phase");
    assert_eq!(held(&ev), vec![]);
    assert_eq!(b.objectives()[0].holder, None);
}

/// A BBB battle with one Prussian brigade and a place held `Within(2)` inches.
fn bbb_within() -> Game {
    let text = r#"(name: "t", ruleset: "bbb7yw", table: (width: 1220, height: 915), turn_limit: 10,
        sides: [(name: "Prussia", nation: "prussia", colour: (0, 0, 200)), (name: "Austria", nation: "austria", colour: (220, 220, 220))],
        units: [(id: "p", side: 0, type: "Inf", class: Trained, at: Some((600, 200)), facing: 0),
                (id: "e", side: 1, type: "Inf", class: Trained, at: Some((600, 800)), facing: 180)],
        objectives: [(id: "mill", name: "The mill", at: (600, 500), hold: Within(2))])"#;
    scenario::parse(text, "t.ron").unwrap_or_else(|d| panic!("{d:?}"))
}

#[test]
fn within_holds_half_an_inch_inside_the_distance_and_not_half_an_inch_beyond() {
    for (inches, holder) in [(1.5, Some(0)), (2.5, None)] {
        let mut b = bbb_within();
        let mm = b.scale.to_mm(inches);
        // The base's nearest edge `mm` below the mill.
        put_at_y(&mut b, "p", 600.0, 0.0);
        let top = b.units[0]
            .base
            .corners()
            .iter()
            .map(|c| c.y)
            .fold(f32::MIN, f32::max);
        let dy = 500.0 - mm - top;
        let y = b.units[0].base.centre.y + dy;
        put(&mut b, "p", Pt::new(600.0, y));
        let d = b.units[0].base.distance_to_point(Pt::new(600.0, 500.0));
        assert!((d - mm).abs() < 0.5, "{d} against {mm}");
        assert_eq!(b.objectives()[0].holder, holder, "at {inches} inches");
        assert_eq!(b.objectives()[0].radius_mm, b.scale.to_mm(2.0));
    }
}

#[test]
fn a_place_owned_by_nobody_scores_nothing_until_taken() {
    let mut b = hill("", 5);
    let r = Reading::new(b.rules.get(), &b);
    // The town (Austria's, 1); the hill (worth 2) nobody's.
    assert_eq!((r.points(0), r.points(1)), (0, 1));
    put(&mut b, "p", Pt::new(500.0, 500.0));
    b.execute(Command::EndPhase).expect("end phase");
    let r = Reading::new(b.rules.get(), &b);
    assert_eq!((r.points(0), r.points(1)), (2, 1));
}

#[test]
fn a_condition_by_turn_2_met_in_turn_1_ends_the_game_as_turn_3_begins() {
    let mut b = hill(
        r#"ends: [(then: Win(0), when: Holds(side: 0, place: "hill"), turn: 2)]"#,
        5,
    );
    put(&mut b, "p", Pt::new(500.0, 500.0));
    let mut last = Vec::new();
    for _ in 0..100 {
        if b.is_over() {
            break;
        }
        last = b.execute(Command::EndPhase).expect("end phase");
    }
    assert!(
        last.iter()
            .any(|e| matches!(e, Event::PhaseBegan { turn: 3, .. })),
        "{last:?}"
    );
    assert_eq!(ended(&b), Some((Some(0), Ending::Condition)));
    assert_eq!(b.turn, 3);
}

#[test]
fn not_holding_a_place_at_the_deadline_loses_it() {
    let mut b = hill(
        r#"ends: [(then: Win(1), when: Not(Holds(side: 0, place: "hill")), turn: 1)]"#,
        5,
    );
    assert_eq!(play_out(&mut b), 2);
    assert_eq!(ended(&b), Some((Some(1), Ending::Condition)));
}

#[test]
fn took_stays_true_after_the_place_is_lost() {
    let mut b = hill("", 5);
    put(&mut b, "p", Pt::new(500.0, 500.0));
    b.execute(Command::EndPhase).expect("end phase");
    put(&mut b, "p", Pt::new(200.0, 200.0));
    put(&mut b, "a", Pt::new(500.0, 500.0));
    b.execute(Command::EndPhase).expect("end phase");
    let r = Reading::new(b.rules.get(), &b);
    use volley::rules::victory::When;
    assert!(r.met(&When::Took { side: 0, place: 0 }));
    assert!(!r.met(&When::Holds { side: 0, place: 0 }));
    assert!(r.met(&When::Holds { side: 1, place: 0 }));
    assert!(
        !r.met(&When::Took { side: 1, place: 1 }),
        "Austria's from the start"
    );
}

#[test]
fn a_clause_of_the_last_turn_comes_before_at_limit() {
    let mut b = hill(
        r#"ends: [(then: Win(1), when: Not(Holds(side: 0, place: "hill")), turn: 2)],
           at_limit: [(then: Win(0))]"#,
        2,
    );
    play_out(&mut b);
    assert_eq!(ended(&b), Some((Some(1), Ending::Condition)));
    // Held, the clause passes and at_limit decides.
    let mut b = hill(
        r#"ends: [(then: Win(1), when: Not(Holds(side: 0, place: "hill")), turn: 2)],
           at_limit: [(then: Win(0))]"#,
        2,
    );
    put(&mut b, "p", Pt::new(500.0, 500.0));
    play_out(&mut b);
    assert_eq!(ended(&b), Some((Some(0), Ending::TurnLimit)));
    assert_eq!(conditions_met(&b), 1);
}

#[test]
fn the_result_at_the_limit_can_be_read_with_the_places_held_otherwise() {
    // Austria's town (worth 1) against nothing: Austria wins on points as things stand.
    // The hill (2) taken by Prussia turns it, and so does the town taken alone (1 to 0);
    // with both places nobody's, no side has more points. The battle is left as it was.
    let b = hill("at_limit: [(then: MorePoints)]", 4);
    assert_eq!(b.result_at_limit().0, Some(1));
    assert_eq!(b.result_at_limit_holding(vec![None, Some(1)]), Some(1));
    assert_eq!(b.result_at_limit_holding(vec![Some(0), Some(1)]), Some(0));
    assert_eq!(b.result_at_limit_holding(vec![None, Some(0)]), Some(0));
    assert_eq!(b.result_at_limit_holding(vec![None, None]), None);
    assert_eq!(b.result_at_limit().0, Some(1));
}

#[test]
fn first_to_points_ends_the_game_on_the_command_that_reaches_them() {
    let mut b = hill(
        r#"ends: [(then: Win(0), when: Points(side: 0, at_least: 2))]"#,
        5,
    );
    b.execute(Command::EndPhase).expect("end phase");
    assert!(!b.is_over());
    put(&mut b, "p", Pt::new(500.0, 500.0));
    let ev = b.execute(Command::EndPhase).expect("end phase");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::ConditionMet {
            winner: Some(0),
            ..
        }
    )));
    assert_eq!(ended(&b), Some((Some(0), Ending::Condition)));
}

#[test]
fn of_two_clauses_met_at_once_the_first_listed_decides() {
    let mut b = hill(
        r#"ends: [(then: Win(1), when: Holds(side: 0, place: "hill")),
                  (then: Win(0), when: Holds(side: 0, place: "hill"))]"#,
        5,
    );
    put(&mut b, "p", Pt::new(500.0, 500.0));
    b.execute(Command::EndPhase).expect("end phase");
    assert_eq!(ended(&b), Some((Some(1), Ending::Condition)));
}

/// Prussia wins by taking `at_least` units off the bottom edge, of `p` and `h` only where
/// `named` (where a score counts any of its units off that edge, so that others may leave).
fn exit_game(at_least: u32, named: bool) -> Game {
    let (units, score) = if named {
        (
            r#", units: ["p", "h"]"#,
            "scores: [(side: 0, worth: 1, when: Exited(side: 0, edge: Bottom))]",
        )
    } else {
        ("", "")
    };
    let mut b = hill(
        &format!(
            "ends: [(then: Win(0), when: Exited(side: 0, edge: Bottom, at_least: {at_least}{units}))], {score}"
        ),
        5,
    );
    to_phase(&mut b, 0, MOVEMENT);
    b
}

fn exit(unit: &str) -> Command {
    Command::Exit { unit: id(unit) }
}

#[test]
fn a_unit_leaves_only_by_a_named_edge_it_touches_in_its_sides_movement() {
    let mut b = exit_game(1, false);
    let refused = |b: &mut Game, c: Command| {
        let before = b.units.clone();
        let e = b.execute(c).expect_err("refused");
        assert_eq!(b.units, before);
        kind_of::<Refusal>(&e)
    };
    // Off the edge.
    assert_eq!(refused(&mut b, exit("p")), Ok(Refusal::NotAtExitEdge));
    // At the wrong edge (the top).
    put_at_y(&mut b, "p", 500.0, 0.0);
    let h = b.units[0]
        .base
        .corners()
        .iter()
        .map(|c| c.y)
        .fold(f32::MIN, f32::max);
    let y = b.units[0].base.centre.y + 1000.0 - h;
    put(&mut b, "p", Pt::new(500.0, y));
    assert_eq!(refused(&mut b, exit("p")), Ok(Refusal::NotAtExitEdge));
    // A side no condition takes off.
    put_at_y(&mut b, "a", 800.0, 0.0);
    assert_eq!(refused(&mut b, exit("a")), Ok(Refusal::NoExitCondition));
    // In the enemy's bound.
    put_at_y(&mut b, "p", 500.0, 0.0);
    to_phase(&mut b, 1, MOVEMENT);
    assert_eq!(refused(&mut b, exit("p")), Ok(Refusal::ExitNotNow));
    // In its own movement, touching the bottom: it leaves and Prussia wins.
    to_phase(&mut b, 0, MOVEMENT);
    let ev = b.execute(exit("p")).expect("leaves");
    assert!(ev.iter().any(|e| matches!(e, Event::Exited { .. })));
    assert!(b.units[0].status.removed && b.units[0].status.exited);
    assert_eq!(ended(&b), Some((Some(0), Ending::Condition)));
}

#[test]
fn an_exited_unit_is_no_loss() {
    // Three Prussian units: one destroyed counts 1 lost; one gone off the table counts none.
    let mut b = exit_game(3, false);
    put_at_y(&mut b, "p", 500.0, 0.0);
    let ev = b.execute(exit("p")).expect("leaves");
    assert!(!ev.iter().any(|e| matches!(e, Event::ArmyBroken { .. })));
    assert!(!b.is_over());
    assert_eq!(b.rules.get().units_lost(&b, 0), (0.0, 3.0));
    let mut destroyed = b.clone();
    destroyed.units_mut()[0].status.exited = false;
    assert_eq!(destroyed.rules.get().units_lost(&destroyed, 0), (1.0, 3.0));
}

#[test]
fn exits_count_at_least_and_only_the_units_named() {
    let mut b = exit_game(2, true);
    // c (not named, but scored) leaves: it does not count.
    put_at_y(&mut b, "c", 500.0, 0.0);
    b.execute(exit("c")).expect("leaves");
    put_at_y(&mut b, "p", 600.0, 0.0);
    b.execute(exit("p")).expect("leaves");
    assert!(!b.is_over(), "one of two named");
    put_at_y(&mut b, "h", 700.0, 0.0);
    b.execute(exit("h")).expect("leaves");
    assert_eq!(ended(&b), Some((Some(0), Ending::Condition)));
    // Without the score, a unit no condition names may not leave.
    let mut b = hill(
        r#"ends: [(then: Win(0), when: Exited(side: 0, edge: Bottom, units: ["p"]))]"#,
        5,
    );
    to_phase(&mut b, 0, MOVEMENT);
    // The condition in words: one unit, by its name.
    let name = b.unit(&id("p")).unwrap().name.clone();
    assert_eq!(
        b.victory_words()[1],
        format!("Prussia wins at once when a unit of {name} has left by the bottom edge")
    );
    put_at_y(&mut b, "h", 500.0, 0.0);
    let e = b.execute(exit("h")).expect_err("refused");
    assert_eq!(kind_of::<Refusal>(&e), Ok(Refusal::NoExitCondition));
}

/// Austria's CinC in front of an elite Prussian Muskets, with `others` Austrian Muskets far
/// off, in Prussia's close combat; `conditions` the victory block.
fn cinc_and(others: usize, conditions: &str) -> Game {
    let mut units = vec![
        U("p", 0, "Ms", "Elite", 500.0, 500.0, 0.0, ""),
        U("a", 1, "CinC", "Regular", 500.0, 527.5, 180.0, ""),
    ];
    let ids: Vec<String> = (0..others).map(|i| format!("a{i}")).collect();
    for (i, n) in ids.iter().enumerate() {
        units.push(U(
            n,
            1,
            "Ms",
            "Regular",
            100.0 + 100.0 * i as f32,
            900.0,
            180.0,
            "",
        ));
    }
    let mut b = battle_with(&units, "", &format!("victory_conditions: ({conditions}),"));
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b
}

#[test]
fn the_rulesets_break_still_ends_a_game_with_conditions() {
    // 4 units, break point 2: the CinC destroyed counts 2.
    let mut b = cinc_and(3, "ends: [(then: Win(1), when: Lost(side: 0, units: 5))]");
    b.script_dice(&[6, 1]);
    b.execute(fight("p", "a")).expect("fight");
    assert_eq!(ended(&b), Some((Some(0), Ending::Broken)));
    assert_eq!(conditions_met(&b), 0);
}

#[test]
fn the_break_point_is_the_rulesets_or_a_condition_on_losses_whichever_is_nearer() {
    use volley::rules::victory::break_point;
    // Austria: a CinC and 5 Muskets, 6 units; DB7YW breaks an army at half its units (000
    // Victory Conditions: 50% of all units). Prussia: 1 unit, breaking at a half.
    let b = cinc_and(5, "");
    assert_eq!(break_point(b.rules.get(), &b, 1), Some(3.0));
    assert_eq!(break_point(b.rules.get(), &b, 0), Some(0.5));
    // A condition on 2 units lost comes first; one on 5 comes after the break.
    let b = cinc_and(5, "ends: [(then: Win(0), when: Lost(side: 1, units: 2))]");
    assert_eq!(break_point(b.rules.get(), &b, 1), Some(2.0));
    let b = cinc_and(5, "ends: [(then: Win(0), when: Lost(side: 1, units: 5))]");
    assert_eq!(break_point(b.rules.get(), &b, 1), Some(3.0));
    // A share, one of several conditions: a third of 6 units.
    let b = cinc_and(
        5,
        "ends: [(then: Win(0), when: Any([Points(side: 0, at_least: 3), Lost(side: 1, share: 0.334)]))]",
    );
    let at = break_point(b.rules.get(), &b, 1).expect("a point");
    assert!((at - 2.004).abs() < 1e-4, "{at}");
    // A condition that gives the side itself the battle, or needs more than its losses, is no
    // break of its army.
    for c in [
        "ends: [(then: Win(1), when: Lost(side: 1, units: 1))]",
        "ends: [(then: Win(0), when: All([Always, Lost(side: 1, units: 1)]))]",
    ] {
        let b = cinc_and(5, c);
        assert_eq!(break_point(b.rules.get(), &b, 1), Some(3.0), "{c}");
    }
}

#[test]
fn the_shipped_rulesets_break_their_armies_where_their_rules_say() {
    use volley::rules::victory::break_point;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let point = |name: &str, side: usize| {
        let b = scenario::load(&dir.join(name)).unwrap_or_else(|e| panic!("{e:?}"));
        let (_, of) = b.rules.units_lost(&b, side);
        (break_point(b.rules.get(), &b, side), of)
    };
    // Half the units: DB7YW and DBFPW's break, Old Dessauer's army break.
    for name in ["default.ron", "dbfpw_default.ron", "lobosch_1756.ron"] {
        let (at, of) = point(name, 0);
        assert_eq!(at, Some(of * 0.5), "{name}");
    }
    // Hal's: the army tests whether it withdraws once fewer than half its units are left
    // (004 VII.B).
    let (at, of) = point("hal25_default.ron", 1);
    assert_eq!(at, Some(of * 0.5));
    // BBB: a side with no fighting units left has lost; Rossbach's own condition ends it at
    // half.
    let (at, of) = point("bbb_default.ron", 0);
    assert_eq!(at, Some(of));
    let (at, of) = point("bbb_rossbach.ron", 1);
    assert_eq!(at, Some(of * 0.5));
}

#[test]
fn lost_counts_a_dbn_cinc_as_two() {
    // 6 units, break point 3: the CinC's 2 meet Lost(units: 2) but break nothing.
    let mut b = cinc_and(5, "ends: [(then: Win(0), when: Lost(side: 1, units: 2))]");
    b.script_dice(&[6, 1]);
    let ev = b.execute(fight("p", "a")).expect("fight");
    assert!(!ev.iter().any(|e| matches!(e, Event::ArmyBroken { .. })));
    assert_eq!(ended(&b), Some((Some(0), Ending::Condition)));
}

#[test]
fn a_share_of_units_lost_in_old_dessauer() {
    let units = r#"(id: "p", side: 0, type: "Inf", at: Some((600, 200)), facing: 0),
        (id: "q", side: 0, type: "Inf", at: Some((400, 200)), facing: 0),
        (id: "e", side: 1, type: "Inf", at: Some((600, 900)), facing: 180)"#;
    let text = format!(
        r#"(name: "t", ruleset: "old_dessauer", table: (width: 1219.0, height: 1219.0), turn_limit: 20,
        sides: [(name: "A", colour: (0, 0, 200)), (name: "B", colour: (200, 0, 0))],
        units: [{units}],
        victory_conditions: (ends: [(then: Win(1), when: Lost(side: 0, share: 0.5))]))"#
    );
    let b = scenario::parse(&text, "t.ron").unwrap_or_else(|e| panic!("{e:?}"));
    use volley::rules::victory::When;
    let lost = When::Lost {
        side: 0,
        units: None,
        share: Some(0.5),
    };
    assert!(!Reading::new(b.rules.get(), &b).met(&lost));
    let mut after = b.clone();
    if let Some(u) = after
        .units_mut()
        .iter_mut()
        .find(|u| u.id.0.as_ref() == "q")
    {
        u.status.removed = true;
    }
    assert!(Reading::new(after.rules.get(), &after).met(&lost));
}

#[test]
fn more_points_tied_passes_to_the_ruleset_whose_draw_passes_on_to_a_draw() {
    // The hill nobody's, the town Austria's: 0 points to 1.
    let b = hill(r#"at_limit: [(then: MorePoints), (then: Ruleset)]"#, 5);
    assert_eq!(at_limit(b.rules.get(), &b).winner, Some(1));
    let mut b = hill(r#"at_limit: [(then: MorePoints), (then: Ruleset)]"#, 5);
    b.held = vec![Some(1), Some(0)];
    // Austria 2 (the hill), Prussia 1 (the town).
    assert_eq!(at_limit(b.rules.get(), &b).winner, Some(1));
    // Austria scores 1 more in any case.
    let mut b = hill(
        r#"at_limit: [(then: MorePoints), (then: Ruleset)], scores: [(side: 1, worth: 1, when: Always)]"#,
        5,
    );
    // Prussia 0, Austria 1 + 1: Austria.
    assert_eq!(at_limit(b.rules.get(), &b).winner, Some(1));
    b.held = vec![Some(0), Some(1)];
    // Prussia 2, Austria 1 + 1: a tie; no losses: the ruleset's draw; nothing decides.
    let v = at_limit(b.rules.get(), &b);
    assert_eq!((v.winner, v.by), (None, Ending::TurnLimit));
    assert_eq!(b.rules.get().result_at_limit(&b).0, None);
    assert!(v.reason.contains("no condition decides"), "{}", v.reason);
    // A last step deciding.
    let mut b = hill(
        r#"at_limit: [(then: MorePoints), (then: Ruleset), (then: Win(0))], scores: [(side: 1, worth: 1, when: Always)]"#,
        5,
    );
    b.held = vec![Some(0), Some(1)];
    assert_eq!(at_limit(b.rules.get(), &b).winner, Some(0));
}

#[test]
fn rossbachs_conditions_at_the_limit_in_every_combination() {
    let text = r#"(name: "t", ruleset: "bbb7yw", table: (width: 1220, height: 915), turn_limit: 10,
        sides: [(name: "Prussia", nation: "prussia", colour: (0, 0, 200)), (name: "Allies", nation: "austria", colour: (220, 220, 220))],
        units: [(id: "p", side: 0, type: "Inf", class: Trained, at: Some((100, 100)), facing: 0),
                (id: "e", side: 1, type: "Inf", class: Trained, at: Some((1100, 800)), facing: 180)],
        objectives: [(id: "janus", name: "Janushügel", at: (600, 300), owner: 0),
                     (id: "reichardtswerben", name: "Reichardtswerben", at: (300, 500), owner: 1),
                     (id: "rossbach", name: "Roßbach", at: (900, 500), owner: 1)],
        victory_conditions: (
            at_limit: [(then: Win(0), when: All([Holds(side: 0, place: "janus"), Holds(side: 0, place: "reichardtswerben"), Not(Holds(side: 1, place: "rossbach"))])),
                (then: Win(1), when: All([Holds(side: 1, place: "reichardtswerben"), Any([Holds(side: 1, place: "janus"), Holds(side: 1, place: "rossbach")])])),
                (then: Draw)]))"#;
    let base = scenario::parse(text, "t.ron").unwrap_or_else(|d| panic!("{d:?}"));
    let holders = [None, Some(0), Some(1)];
    let mut n = 0;
    for j in holders {
        for r in holders {
            for o in holders {
                let mut b = base.clone();
                b.held = vec![j, r, o];
                let want = if j == Some(0) && r == Some(0) && o != Some(1) {
                    Some(0)
                } else if r == Some(1) && (j == Some(1) || o == Some(1)) {
                    Some(1)
                } else {
                    None
                };
                assert_eq!(
                    at_limit(b.rules.get(), &b).winner,
                    want,
                    "{j:?} {r:?} {o:?}"
                );
                n += 1;
            }
        }
    }
    assert_eq!(n, 27);
}

#[test]
fn without_conditions_the_limit_is_the_rulesets_own() {
    let mut b = hill("", 2);
    put(&mut b, "p", Pt::new(500.0, 500.0));
    play_out(&mut b);
    let own = b.rules.get().result_at_limit(&b);
    let reason = b.log.iter().find_map(|e| match e {
        Event::GameOver { winner, reason, by } => Some((*winner, reason.clone(), *by)),
        _ => None,
    });
    assert_eq!(reason, Some((own.0, own.1, Ending::TurnLimit)));
    assert_eq!(conditions_met(&b), 0);
    // And the game's result at the limit is the ruleset's.
    assert_eq!(b.result_at_limit(), b.rules.get().result_at_limit(&b));
}

/// Where a scenario with this `ends` line (its 6th) is refused: line and column.
fn refused_at(objectives: &str, line6: &str) -> Vec<(usize, usize, String)> {
    let text = format!(
        r#"(name: "t", ruleset: "db7yw", table: (width: 1000, height: 1000), turn_limit: 5,
  sides: [(name: "P", colour: (0, 0, 200)), (name: "A", colour: (200, 200, 200))],
  units: [(id: "p", side: 0, type: "Ms", at: Some((500, 100)), facing: 0), (id: "a", side: 1, type: "Ms", at: Some((500, 900)), facing: 180)],
  objectives: [{objectives}],
  victory_conditions: (
{line6}
  ))"#
    );
    match scenario::parse(&text, "v.ron") {
        Ok(_) => Vec::new(),
        Err(d) => d.into_iter().map(|d| (d.line, d.col, d.message)).collect(),
    }
}

#[test]
fn check_refuses_each_bad_condition_at_its_place() {
    let hill = r#"(id: "hill", name: "The hill", at: (500, 500))"#;
    // (line 6, the word it is placed at, its occurrence on the line).
    let cases: &[(&str, &str, usize)] = &[
        (
            r#"ends: [(then: Win(0), when: Holds(side: 0, place: "hil"))]"#,
            "Holds",
            1,
        ),
        (
            r#"ends: [(then: Win(0), when: Holds(side: 2, place: "hill"))]"#,
            "Holds",
            1,
        ),
        (
            r#"ends: [(then: Win(2), when: Holds(side: 0, place: "hill"))]"#,
            "Win",
            1,
        ),
        (
            r#"ends: [(then: Win(0), when: Lost(side: 1, units: 2, share: 0.5))]"#,
            "Lost",
            1,
        ),
        (
            r#"ends: [(then: Win(0), when: Any([Always, Lost(side: 1)]))]"#,
            "Lost",
            1,
        ),
        (
            r#"ends: [(then: Win(0), when: Lost(side: 1, share: 1.5))]"#,
            "Lost",
            1,
        ),
        (
            r#"ends: [(then: Win(0), when: Holds(side: 0, place: "hill"), turn: 6)]"#,
            "turn",
            1,
        ),
        (r#"ends: [(then: Ruleset)]"#, "Ruleset", 1),
        (r#"at_limit: [(then: Win(0), turn: 2)]"#, "turn", 1),
        (
            r#"scores: [(side: 0, worth: 1, when: Holds(side: 0, place: "hill")), (side: 0, worth: 1, when: Points(side: 1, at_least: 1))]"#,
            "Points",
            1,
        ),
        (
            r#"scores: [(side: 0, worth: 1, when: Holds(side: 1, place: "hill")), (side: 3, worth: 1, when: Always)]"#,
            "worth",
            2,
        ),
        (
            r#"ends: [(then: Draw, when: Not(Not(Not(Not(Not(Not(Not(Not(Not(Always))))))))))]"#,
            "Not",
            9,
        ),
    ];
    for (line, word, nth) in cases {
        let errs = refused_at(hill, line);
        let col = line.match_indices(word).nth(nth - 1).expect("word").0 + 1;
        assert_eq!(errs.len(), 1, "{line}: {errs:?}");
        assert_eq!((errs[0].0, errs[0].1), (6, col), "{line}: {errs:?}");
    }
    // The objectives: a duplicate id at its second place, one off the table at its own.
    let two = r#"(id: "hill", at: (500, 500)), (id: "hill", at: (600, 500))"#;
    let errs = refused_at(two, "");
    let col = "  objectives: [".len() + two.match_indices("\"hill\"").nth(1).unwrap().0 + 1;
    assert_eq!(
        errs.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>(),
        vec![(4, col)],
        "{errs:?}"
    );
    let far = r#"(id: "hill", at: (500, 500), hold: Within(-1))"#;
    let errs = refused_at(far, "");
    let col = "  objectives: [".len() + far.find("\"hill\"").unwrap() + 1;
    assert_eq!(
        errs.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>(),
        vec![(4, col)],
        "{errs:?}"
    );
    let off = r#"(id: "hill", at: (1500, 500))"#;
    let errs = refused_at(off, "");
    let col = "  objectives: [".len() + off.find("\"hill\"").unwrap() + 1;
    assert_eq!(
        errs.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>(),
        vec![(4, col)],
        "{errs:?}"
    );
}

#[test]
fn objectives_written_without_id_or_worth_take_them_from_their_name() {
    let text = r#"(name: "t", ruleset: "bbb7yw", table: (width: 1220, height: 915), turn_limit: 10,
        sides: [(name: "Prussia", nation: "prussia", colour: (0, 0, 200)), (name: "Austria", nation: "austria", colour: (220, 220, 220))],
        units: [(id: "p", side: 0, type: "Inf", class: Trained, at: Some((100, 100)), facing: 0),
                (id: "e", side: 1, type: "Inf", class: Trained, at: Some((1100, 800)), facing: 180)],
        objectives: [(name: "The Lobosch crest", at: (600, 300), owner: 1)],
        victory_conditions: (ends: [(then: Win(0), when: Holds(side: 0, place: "the-lobosch-crest"))]))"#;
    let b = scenario::parse(text, "t.ron").unwrap_or_else(|d| panic!("{d:?}"));
    let o = &b.objectives()[0];
    assert_eq!(
        (o.id.as_str(), o.worth, o.holder),
        ("the-lobosch-crest", 1, Some(1))
    );
}

#[test]
fn the_window_reads_each_objective_the_standing_and_the_conditions_in_words() {
    let b = hill(
        r#"ends: [(then: Win(0), when: All([Holds(side: 0, place: "hill"), Holds(side: 0, place: "town")]))],
           at_limit: [(then: MorePoints)]"#,
        5,
    );
    let o = b.objectives();
    assert_eq!(
        o.iter()
            .map(|o| (o.id.as_str(), o.at, o.worth, o.holder))
            .collect::<Vec<_>>(),
        vec![
            ("hill", Pt::new(500.0, 500.0), 2, None),
            ("town", Pt::new(700.0, 900.0), 1, Some(1))
        ]
    );
    assert_eq!(o[0].radius_mm, b.scale.to_mm(100.0));
    assert_eq!(
        b.standing(),
        vec![
            "Prussia: 0 of 2 objectives, 0 points; the town held by Austria".to_string(),
            "Austria: 1 of 2 objectives, 1 point".to_string(),
        ]
    );
    assert_eq!(
        b.victory_words(),
        vec![
            "Objectives: The hill (worth 2, nobody's at the start); The town (worth 1, Austria's at the start)".to_string(),
            "Prussia wins at once when Prussia holds the hill and the town".to_string(),
            "At the turn limit: the side with more points wins (the hill 2, the town 1); else a draw".to_string(),
        ]
    );
    // A scenario that states nothing: nothing to read.
    let plain = battle_with(&[U("p", 0, "Ms", "Regular", 500.0, 100.0, 0.0, "")], "", "");
    assert!(plain.standing().is_empty() && plain.victory_words().is_empty());
}

#[test]
fn hals_army_withdrawal_still_ends_a_game_with_conditions() {
    // The Hal's morale test's two brigades: side 1 down to one unit of three withdraws
    // (Prussia's commander 6+6 against Austria's own 2+3), whatever the scenario states.
    let text = r#"(name: "t", ruleset: "hal25", table: (width: 1219, height: 914), turn_limit: 6,
        sides: [(name: "A", nation: "prussia", colour: (0, 0, 200), commander: "a"), (name: "B", nation: "austria", colour: (200, 200, 200), commander: "b")],
        units: [(id: "ga", side: 0, type: "GEN", brigade: Some("A"), at: Some((610, 150)), facing: 0),
            (id: "a1", side: 0, type: "GR", brigade: Some("A"), at: Some((300, 250)), facing: 0),
            (id: "a2", side: 0, type: "LI", brigade: Some("A"), at: Some((640, 250)), facing: 0),
            (id: "a3", side: 0, type: "LI", brigade: Some("A"), at: Some((980, 250)), facing: 0),
            (id: "gb", side: 1, type: "GEN", brigade: Some("B"), at: Some((610, 700)), facing: 180),
            (id: "b1", side: 1, type: "LI", brigade: Some("B"), at: Some((300, 542)), facing: 180),
            (id: "b2", side: 1, type: "LI", brigade: Some("B"), at: Some((640, 542)), facing: 180),
            (id: "b3", side: 1, type: "HC", brigade: Some("B"), at: Some((1000, 600)), facing: 180, formation: Some(Column))],
        victory_conditions: (ends: [(then: Win(1), when: Lost(side: 0, units: 3))], at_limit: [(then: Draw)]))"#;
    let mut b = scenario::parse(text, "t.ron").unwrap_or_else(|d| panic!("{d:?}"));
    for x in ["b1", "b2"] {
        b.unit_mut(&id(x)).unwrap().status.removed = true;
    }
    b.unit_mut(&id("a2")).unwrap().stands.truncate(2);
    b.script_dice(&[3, 3, 6, 1, 5, 6, 6, 2, 3]);
    for _ in 0..20 {
        if b.phase == volley::rules::ruleset::hal25::CLOSE_COMBAT {
            break;
        }
        b.execute(Command::EndPhase).expect("end phase");
    }
    b.execute(Command::EndPhase).expect("to morale");
    assert_eq!(ended(&b), Some((Some(0), Ending::Withdrew)));
    assert_eq!(conditions_met(&b), 0);
}

#[test]
fn run_json_says_how_the_game_was_decided_and_the_conditions_met() {
    let mut b = hill(
        r#"ends: [(then: Win(0), when: Points(side: 0, at_least: 2))]"#,
        5,
    );
    put(&mut b, "p", Pt::new(500.0, 500.0));
    let ev = b.execute(Command::EndPhase).expect("end phase");
    let json = volley::text::report::run_json(&b, &ev, None);
    let r = &json["result"];
    assert_eq!(r["winner"], 0);
    assert_eq!(r["by"], "Condition");
    assert_eq!(r["turn"], 1);
    assert_eq!(
        r["conditions"],
        serde_json::json!(["Prussia wins at once when Prussia has 2 points or more"])
    );
    assert_eq!(r["reason"], "Prussia has 2 points or more");
}

#[test]
fn old_dessauer_holds_a_place_with_a_fighting_unit_not_shaken_alone_within_3_inches() {
    let text = r#"(name: "t", ruleset: "old_dessauer", table: (width: 1219.0, height: 1219.0), turn_limit: 20,
        options: ["generals"],
        sides: [(name: "A", colour: (0, 0, 200)), (name: "B", colour: (200, 0, 0))],
        units: [(id: "p", side: 0, type: "Inf", at: Some((600, 200)), facing: 0),
                (id: "g", side: 0, type: "Gen", at: Some((300, 200)), facing: 0),
                (id: "e", side: 1, type: "Inf", at: Some((600, 1000)), facing: 180)],
        objectives: [(id: "mill", name: "The mill", at: (600, 600))])"#;
    let start = scenario::parse(text, "t.ron").unwrap_or_else(|d| panic!("{d:?}"));
    let holder = |b: &Game| b.objectives()[0].holder;
    let two_inches = start.scale.to_mm(2.0);
    // A general alone near it: nobody.
    let mut b = start.clone();
    put(&mut b, "g", Pt::new(600.0, 600.0 - two_inches));
    assert_eq!(holder(&b), None);
    // The regiment within 3 inches: A; shaken, nobody; the enemy near too, nobody.
    let mut b = start.clone();
    put(&mut b, "p", Pt::new(600.0, 600.0));
    assert_eq!(holder(&b), Some(0));
    b.unit_mut(&id("p")).unwrap().status.shaken = true;
    assert_eq!(holder(&b), None);
    b.unit_mut(&id("p")).unwrap().status.shaken = false;
    put(&mut b, "e", Pt::new(600.0, 600.0 + two_inches));
    assert_eq!(holder(&b), None);
    assert_eq!(b.objectives()[0].radius_mm, b.scale.to_mm(3.0));
}

#[test]
fn a_share_of_units_lost_in_bbb_counts_fighting_units_not_generals() {
    let text = r#"(name: "t", ruleset: "bbb7yw", table: (width: 1220, height: 915), turn_limit: 10,
        sides: [(name: "Prussia", nation: "prussia", colour: (0, 0, 200)), (name: "Austria", nation: "austria", colour: (220, 220, 220))],
        units: [(id: "p", side: 0, type: "Inf", class: Trained, at: Some((600, 200)), facing: 0),
                (id: "q", side: 0, type: "Inf", class: Trained, at: Some((300, 200)), facing: 0),
                (id: "g", side: 0, type: "Gen", class: Veteran, at: Some((450, 100)), facing: 0),
                (id: "e", side: 1, type: "Inf", class: Trained, at: Some((600, 800)), facing: 180)])"#;
    let mut b = scenario::parse(text, "t.ron").unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(b.rules.get().units_lost(&b, 0), (0.0, 2.0));
    b.unit_mut(&id("g")).unwrap().status.removed = true;
    assert_eq!(b.rules.get().units_lost(&b, 0), (0.0, 2.0));
    b.unit_mut(&id("q")).unwrap().status.removed = true;
    assert_eq!(b.rules.get().units_lost(&b, 0), (1.0, 2.0));
}
