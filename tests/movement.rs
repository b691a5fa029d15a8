//! Measured movement under DB7YW: allowances by going, Musket restrictions, collisions, the table
//! edge, rivers, threat zones, moves into contact, command points, artillery and undo.

mod common;
use common::*;
use volley::rules::command::{Command, Event, RuleError, Step};
use volley::rules::geometry::Corner;
use volley::rules::ruleset::dbn::{self, COMMAND, MOVEMENT, db7yw};

fn moving(units: &[U], terrain: &str) -> volley::rules::Game {
    let mut b = battle(units, terrain);
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points = [20, 20];
    b
}

fn moved(ev: &[Event]) -> (f32, f32, String) {
    ev.iter()
        .find_map(|e| {
            if let Event::Moved {
                distance,
                allowance,
                going,
                ..
            } = e
            {
                Some((*distance, *allowance, going.to_string()))
            } else {
                None
            }
        })
        .expect("moved")
}

#[test]
fn muskets_advance_their_allowance_and_no_more() {
    let mut b = moving(&[U("p", 0, "Ms", "Regular", 500.0, 300.0, 0.0, "")], "");
    let e = refused(&mut b, mv("p", vec![Step::Advance(250.0)]));
    assert_eq!(e, "p: 250 paces of 200 (the good going rate)");
    let ev = b.execute(mv("p", vec![Step::Advance(200.0)])).unwrap();
    let (d, a, g) = moved(&ev);
    assert!((d - 200.0).abs() < 0.01 && a == 200.0 && g == "good going");
    // 200 paces = 50.8 mm at 100 paces to the inch.
    assert!((b.unit(&id("p")).unwrap().base.centre.y - 350.8).abs() < 0.01);
    assert!(matches!(
        b.execute(mv("p", vec![Step::Advance(10.0)])),
        Err(RuleError::AlreadyActed { .. })
    ));
}

#[test]
fn muskets_move_straight_only() {
    let mut b = moving(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 300.0, 0.0, ""),
            U("q", 1, "Ms", "Regular", 100.0, 900.0, 180.0, ""),
        ],
        "",
    );
    assert!(
        refused_as(
            &mut b,
            mv(
                "p",
                vec![Step::Oblique {
                    forward: 50.0,
                    right: 50.0
                }]
            )
        ) == Ok(db7yw::Refusal::MoveShape)
    );
    assert!(
        refused_as(
            &mut b,
            mv("p", vec![Step::Advance(50.0), Step::Sidestep(50.0)])
        ) == Ok(db7yw::Refusal::MoveShape)
    );
    // Backwards at half speed: 100 paces back costs 200.
    let e = refusal(&mut b, mv("p", vec![Step::Backstep(120.0)]));
    assert_eq!(too_far(&e), Some((240.0, 200.0)), "{e}");
    b.execute(mv("p", vec![Step::Sidestep(150.0)])).unwrap();
}

#[test]
fn musket_wheels_by_nation() {
    // Austrian Muskets (side 1) wheel at most 45; Prussian Muskets 90.
    let mut b = battle(
        &[
            U("a", 1, "Ms", "Regular", 500.0, 700.0, 180.0, ""),
            U("p", 0, "Ms", "Regular", 500.0, 300.0, 0.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 1, MOVEMENT);
    b.command_points = [20, 20];
    assert_eq!(
        refused(
            &mut b,
            mv(
                "a",
                vec![Step::Wheel {
                    corner: Corner::Left,
                    degrees: 60.0
                }]
            )
        ),
        "Muskets may wheel at most 45 degrees"
    );
    b.execute(mv(
        "a",
        vec![Step::Wheel {
            corner: Corner::Left,
            degrees: 45.0,
        }],
    ))
    .unwrap();
    let mut b = moving(&[U("p", 0, "Ms", "Regular", 500.0, 300.0, 0.0, "")], "");
    // Made instead of moving, the wheel is not measured (the far corner would travel 264 paces).
    b.execute(mv(
        "p",
        vec![Step::Wheel {
            corner: Corner::Right,
            degrees: 90.0,
        }],
    ))
    .unwrap();
    assert!((b.unit(&id("p")).unwrap().base.facing - 90.0).abs() < 0.01);
}

#[test]
fn wheel_distance_is_the_furthest_corner() {
    let mut b = moving(&[U("p", 0, "HC", "Regular", 500.0, 300.0, 0.0, "")], "");
    let ev = b
        .execute(mv(
            "p",
            vec![Step::Wheel {
                corner: Corner::Left,
                degrees: 45.0,
            }],
        ))
        .unwrap();
    // HC base 40 x 30: the rear-right corner is 50 mm from the pivot; 50 * pi/4 = 39.27 mm.
    let (d, a, _) = moved(&ev);
    assert!((d - 39.2699 / 0.254).abs() < 0.1, "{d}");
    assert_eq!(a, 400.0);
    let u = b.unit(&id("p")).unwrap();
    assert!((u.base.facing - 315.0).abs() < 0.01);
}

#[test]
fn bad_going_and_roads() {
    let wood = r#"(id: "w", kind: Woods, name: "Oak wood", points: [(480, 340), (560, 340), (560, 420), (480, 420)]),"#;
    let mut b = moving(&[U("p", 0, "HC", "Regular", 500.0, 300.0, 0.0, "")], wood);
    assert_eq!(
        refused(&mut b, mv("p", vec![Step::Advance(150.0)])),
        "p: 150 paces of 100 (the bad going rate: the move ends in Oak wood, a wood)"
    );
    let ev = b.execute(mv("p", vec![Step::Advance(100.0)])).unwrap();
    assert_eq!(moved(&ev).2, "bad going (Oak wood)");
    // Foot artillery cannot enter bad going.
    let mut b = moving(
        &[U(
            "p",
            0,
            "FA",
            "Regular",
            500.0,
            300.0,
            0.0,
            ", limbered: true",
        )],
        wood,
    );
    assert!(
        refused_as(&mut b, mv("p", vec![Step::Advance(100.0)]))
            == Ok(dbn::Refusal::CannotEnterGoing)
    );
    // A road move: Muskets at 400 paces, and not bound to straight lines.
    let road =
        r#"(id: "r", kind: Road, name: "Road", points: [(500, 100), (500, 900)], width: 50),"#;
    let mut b = moving(&[U("p", 0, "Ms", "Regular", 500.0, 300.0, 0.0, "")], road);
    let ev = b
        .execute(mv("p", vec![Step::Advance(300.0), Step::Sidestep(10.0)]))
        .unwrap();
    assert_eq!(moved(&ev).1, 400.0);
    assert_eq!(moved(&ev).2, "road");
}

#[test]
fn no_passing_through_units_or_off_the_table_or_across_rivers() {
    let mut b = moving(
        &[
            U("p", 0, "HC", "Regular", 500.0, 300.0, 0.0, ""),
            U("f", 0, "Ms", "Regular", 500.0, 360.0, 0.0, ""),
        ],
        "",
    );
    assert_eq!(
        refused(&mut b, mv("p", vec![Step::Advance(300.0)])),
        "p would pass through f"
    );
    let mut b = moving(&[U("p", 0, "HC", "Regular", 500.0, 970.0, 0.0, "")], "");
    assert_eq!(
        refused(&mut b, mv("p", vec![Step::Advance(100.0)])),
        "p would leave the table"
    );
    let river =
        r#"(id: "r", kind: River, name: "Elbe", points: [(0, 350), (1000, 350)], width: 20),"#;
    let mut b = moving(&[U("p", 0, "HC", "Regular", 500.0, 300.0, 0.0, "")], river);
    assert_eq!(
        refused(&mut b, mv("p", vec![Step::Advance(300.0)])),
        "p cannot cross Elbe except by a bridge"
    );
}

#[test]
fn threat_zones() {
    // Enemy Muskets 60 mm ahead; their threat zone reaches 40 mm in front of them.
    let mut b = moving(
        &[
            U("p", 0, "HC", "Regular", 500.0, 300.0, 0.0, ""),
            U("e", 1, "Ms", "Regular", 500.0, 400.0, 180.0, ""),
        ],
        "",
    );
    assert_eq!(
        refused(
            &mut b,
            mv(
                "p",
                vec![Step::Oblique {
                    forward: 150.0,
                    right: 40.0
                }]
            )
        ),
        "p enters the threat zone of e"
    );
    assert_eq!(
        refused(
            &mut b,
            mv("p", vec![Step::Sidestep(10.0), Step::Advance(150.0)])
        ),
        "p enters the threat zone of e"
    );
    // A straight advance towards it is allowed; so is a charge.
    b.execute(mv("p", vec![Step::Advance(150.0)])).unwrap();
    b.execute(Command::Undo).unwrap();
    // Moving straight into contact with the unit exerting it is allowed.
    let ev = b.execute(mv("p", vec![Step::ToContact(id("e"))])).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Moved { contact: Some(c), .. } if c.as_str() == "e"))
    );
    let p = b.unit(&id("p")).unwrap().base;
    let e = b.unit(&id("e")).unwrap().base;
    assert!(e.front_to_front(&p).is_some(), "conformed front to front");
}

#[test]
fn muskets_charge_at_most_100_paces_face_to_face() {
    let mut b = moving(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 300.0, 0.0, ""),
            U("e", 1, "Ms", "Regular", 500.0, 350.0, 180.0, ""),
        ],
        "",
    );
    // 35 mm = 138 paces.
    assert!(
        refused_as(&mut b, mv("p", vec![Step::ToContact(id("e"))]))
            == Ok(db7yw::Refusal::TooFarIntoContact)
    );
    // Only a quarter of the front overlaps: refused.
    let mut b = moving(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 300.0, 0.0, ""),
            U("e", 1, "Ms", "Regular", 530.0, 330.0, 180.0, ""),
        ],
        "",
    );
    assert!(
        refused_as(&mut b, mv("p", vec![Step::ToContact(id("e"))]))
            == Ok(db7yw::Refusal::HalfFrontContact)
    );
    let mut b = moving(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 300.0, 0.0, ""),
            U("e", 1, "Ms", "Regular", 510.0, 330.0, 180.0, ""),
        ],
        "",
    );
    b.execute(mv("p", vec![Step::ToContact(id("e"))])).unwrap();
    // Conformed: centres lined up.
    assert!((b.unit(&id("p")).unwrap().base.centre.x - 510.0).abs() < 0.01);
}

#[test]
fn command_points_are_spent_and_enforced() {
    let mut b = battle(
        &[
            U("p", 0, "HC", "Regular", 500.0, 300.0, 0.0, ""),
            U("q", 0, "HC", "Regular", 300.0, 300.0, 0.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, COMMAND);
    b.script_dice(&[1]);
    b.execute(Command::EndPhase).unwrap();
    assert_eq!(b.command_points[0], 1);
    // No commander on the table: out of command range costs 2, and the refusal says so.
    assert_eq!(
        refused(&mut b, mv("p", vec![Step::Advance(50.0)])),
        "needs 2 command points to move p (1 + 1 out of command range: no general within \
         1200 paces), 1 left"
    );
}

#[test]
fn artillery_limbers_pivots_and_moves() {
    let mut b = moving(
        &[
            U("g", 0, "FA", "Regular", 500.0, 300.0, 0.0, ""),
            U("c", 0, "CinC", "Regular", 400.0, 300.0, 0.0, ""),
        ],
        "",
    );
    // A move says the guns are unlimbered; a pivot too far says how far they may pivot.
    let e = refusal(&mut b, mv("g", vec![Step::Advance(50.0)]));
    assert_eq!(kind_of(&e), Ok(dbn::Refusal::UnlimberedPivotTooFar));
    assert!(
        e.to_string()
            .starts_with("g is unlimbered: it may only pivot where it stands"),
        "{e}"
    );
    assert!(
        refused_as(&mut b, mv("g", vec![Step::Pivot(60.0)]))
            == Ok(dbn::Refusal::UnlimberedPivotTooFar)
    );
    let before = b.command_points[0];
    b.execute(mv("g", vec![Step::Pivot(40.0)])).unwrap();
    assert_eq!(b.command_points[0], before - 1);
    let mut b = moving(
        &[
            U("g", 0, "FA", "Regular", 500.0, 300.0, 0.0, ""),
            U("c", 0, "CinC", "Regular", 400.0, 300.0, 0.0, ""),
        ],
        "",
    );
    b.execute(Command::Limber { unit: id("g") }).unwrap();
    assert_eq!(b.command_points[0], 18);
    assert!(
        refused_as(&mut b, mv("g", vec![Step::Advance(50.0)]))
            == Ok(dbn::Refusal::LimberedThisBound)
    );
}

#[test]
fn a_group_in_bad_going_says_the_going_is_the_groups() {
    // The wood lies before a alone; the group goes at its pace, and each line says so.
    let wood = r#"(id: "w", kind: Woods, name: "Oak wood", points: [(482, 312), (515, 312), (515, 380), (482, 380)]),"#;
    let mut b = moving(
        &[
            U("a", 0, "Ms", "Regular", 500.0, 300.0, 0.0, ""),
            U("b", 0, "Ms", "Regular", 540.0, 300.0, 0.0, ""),
            U("c", 0, "CinC", "Regular", 520.0, 250.0, 0.0, ""),
        ],
        wood,
    );
    let ev = b
        .execute(Command::MoveGroup {
            units: vec![id("a"), id("b")],
            steps: vec![Step::Advance(50.0)],
        })
        .expect("the group moves into the wood");
    let lines: Vec<String> = ev
        .iter()
        .filter(|e| matches!(e, Event::Moved { .. }))
        .map(|e| volley::text::report::describe(&b, e))
        .collect();
    assert_eq!(
        lines,
        [
            "a moves 50 of 100 paces in the group's bad going (Oak wood)",
            "b moves 50 of 100 paces in the group's bad going (Oak wood)"
        ]
    );
}

#[test]
fn group_moves_keep_formation() {
    let mut b = moving(
        &[
            U("a", 0, "Ms", "Regular", 500.0, 300.0, 0.0, ""),
            U("b", 0, "Ms", "Regular", 540.0, 300.0, 0.0, ""),
            U("c", 0, "CinC", "Regular", 520.0, 250.0, 0.0, ""),
        ],
        "",
    );
    let ev = b
        .execute(Command::MoveGroup {
            units: vec![id("a"), id("b")],
            steps: vec![Step::Advance(100.0)],
        })
        .unwrap();
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Moved { .. }))
            .count(),
        2
    );
    assert_eq!(b.command_points[0], 19, "one command point for the group");
    let (a, bb) = (
        b.unit(&id("a")).unwrap().base,
        b.unit(&id("b")).unwrap().base,
    );
    assert!((bb.centre.x - a.centre.x - 40.0).abs() < 0.01 && (a.centre.y - 325.4).abs() < 0.01);
    // Not in contact: refused.
    let mut b = moving(
        &[
            U("a", 0, "Ms", "Regular", 500.0, 300.0, 0.0, ""),
            U("b", 0, "Ms", "Regular", 600.0, 300.0, 0.0, ""),
        ],
        "",
    );
    assert!(
        refused_as(
            &mut b,
            Command::MoveGroup {
                units: vec![id("a"), id("b")],
                steps: vec![Step::Advance(50.0)]
            }
        ) == Ok(dbn::Refusal::NotInEdgeContact)
    );
}

#[test]
fn undo_restores_the_move_and_dice() {
    let mut b = moving(&[U("p", 0, "HC", "Regular", 500.0, 300.0, 0.0, "")], "");
    let before = b.unit(&id("p")).unwrap().clone();
    b.execute(mv("p", vec![Step::Advance(100.0)])).unwrap();
    b.execute(Command::Undo).unwrap();
    assert_eq!(b.unit(&id("p")).unwrap(), &before);
    b.execute(mv("p", vec![Step::Advance(100.0)])).unwrap();
}

#[test]
fn a_group_charge_conforms_the_flank_supporting_unit_too() {
    // Two Muskets side by side charge a unit slightly askew; both take the same adjustment.
    let mut b = moving(
        &[
            U("a", 0, "Ms", "Regular", 500.0, 300.0, 0.0, ""),
            U("b", 0, "Ms", "Regular", 540.0, 300.0, 0.0, ""),
            U("c", 0, "CinC", "Regular", 520.0, 250.0, 0.0, ""),
            U("e", 1, "Ms", "Regular", 505.0, 330.0, 180.0, ""),
        ],
        "",
    );
    b.execute(Command::MoveGroup {
        units: vec![id("a"), id("b")],
        steps: vec![Step::ToContact(id("e"))],
    })
    .unwrap();
    let (a, bb) = (
        b.unit(&id("a")).unwrap().base,
        b.unit(&id("b")).unwrap().base,
    );
    assert!(
        (a.centre.x - 505.0).abs() < 0.01,
        "lead lined up on the enemy"
    );
    assert!(
        (bb.centre.x - 545.0).abs() < 0.01 && (bb.centre.y - a.centre.y).abs() < 0.01,
        "supporter kept its place beside it"
    );
}

/// The log's words for the Moved events of a command, and their JSON.
fn move_words(b: &volley::rules::Game, ev: &[Event]) -> (String, Vec<serde_json::Value>) {
    let moves: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::Moved { .. }))
        .collect();
    (
        moves
            .iter()
            .map(|e| volley::text::report::describe(b, e))
            .collect::<Vec<_>>()
            .join("; "),
        moves
            .iter()
            .map(|e| volley::text::report::event_json(b, e))
            .collect(),
    )
}

#[test]
fn moves_the_rules_do_not_measure_say_what_they_were() {
    let mut b = moving(
        &[
            U(
                "p",
                0,
                "Ms",
                "Regular",
                200.0,
                300.0,
                0.0,
                ", name: \"IR 13\"",
            ),
            U(
                "q",
                0,
                "Ms",
                "Regular",
                400.0,
                300.0,
                0.0,
                ", name: \"IR 17\"",
            ),
            U(
                "g",
                0,
                "FA",
                "Regular",
                600.0,
                300.0,
                0.0,
                ", name: \"FB Moller\"",
            ),
            U(
                "h",
                0,
                "HC",
                "Regular",
                800.0,
                300.0,
                0.0,
                ", name: \"CR 10\"",
            ),
        ],
        "",
    );
    let cases = [
        (
            mv(
                "p",
                vec![Step::Wheel {
                    corner: Corner::Right,
                    degrees: 90.0,
                }],
            ),
            "IR 13 wheels 90° to the right",
        ),
        (mv("q", vec![Step::AboutFace]), "IR 17 about-faces"),
        (
            mv("g", vec![Step::Pivot(30.0)]),
            "FB Moller pivots 30° clockwise",
        ),
    ];
    for (c, words) in cases {
        let ev = b.execute(c).unwrap();
        let (text, json) = move_words(&b, &ev);
        assert_eq!(text, words);
        assert_eq!(
            json[0]["manoeuvre"],
            words.split_once(' ').unwrap().1.split_once(' ').unwrap().1
        );
    }
    // A measured move still reads against its allowance.
    let ev = b.execute(mv("h", vec![Step::Advance(100.0)])).unwrap();
    let (text, json) = move_words(&b, &ev);
    assert_eq!(text, "CR 10 moves 100 of 400 paces in good going");
    assert!(json[0].get("manoeuvre").is_none());
}

#[test]
fn a_charge_a_few_degrees_off_square_is_conformed() {
    // Cuirassiers 5 degrees off square, the enemy directly ahead: the charge goes in and the
    // base is squared up against the enemy's front.
    let mut b = moving(
        &[
            U("p", 0, "HC", "Regular", 500.0, 400.0, 5.0, ""),
            U("e", 1, "Ms", "Regular", 505.0, 480.0, 180.0, ""),
        ],
        "",
    );
    let ev = b.execute(mv("p", vec![Step::ToContact(id("e"))])).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Moved { contact: Some(c), .. } if c.as_str() == "e"))
    );
    let p = b.unit(&id("p")).unwrap().base;
    let e = b.unit(&id("e")).unwrap().base;
    assert!(p.facing.abs() < 0.01, "squared up: {}", p.facing);
    assert!(e.front_to_front(&p).is_some(), "conformed front to front");
    // The same from the other side.
    let mut b = moving(
        &[
            U("p", 0, "HC", "Regular", 500.0, 400.0, 355.0, ""),
            U("e", 1, "Ms", "Regular", 495.0, 480.0, 180.0, ""),
        ],
        "",
    );
    b.execute(mv("p", vec![Step::ToContact(id("e"))])).unwrap();
    assert!(b.unit(&id("p")).unwrap().base.facing.abs() < 0.01);
}

#[test]
fn a_charge_too_far_off_square_says_how_to_square_up() {
    // 60 degrees off: the corner would meet the enemy's front, but too obliquely to conform.
    let mut b = moving(
        &[
            U("p", 0, "HC", "Regular", 460.0, 400.0, 60.0, ""),
            U("e", 1, "Ms", "Regular", 520.0, 460.0, 180.0, ""),
        ],
        "",
    );
    let e = refusal(&mut b, mv("p", vec![Step::ToContact(id("e"))]));
    assert_eq!(kind_of(&e), Ok(dbn::Refusal::NoContact));
    // The wheel it would need is in the words only.
    assert!(
        e.to_string()
            .contains("wheel 60 degrees to the left to square up"),
        "{e}"
    );
}
