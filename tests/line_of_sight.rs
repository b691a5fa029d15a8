//! Line of sight through and past each kind of terrain and past units, with the ruleset options.

mod common;
use common::*;
use volley::rules::Game;
use volley::rules::ruleset::dbn::Dbn;
use volley::rules::ruleset::dbn::db7yw::DATA;

/// Firer at (500, 300) facing north; target 102.5 mm ahead at (500, 420).
fn sight(terrain: &str, more: &[U]) -> Result<(), String> {
    sight_with(&Dbn::from_ron(DATA).unwrap(), terrain, more)
}

fn sight_with(dbn: &Dbn, terrain: &str, more: &[U]) -> Result<(), String> {
    let mut units = vec![
        U("s", 0, "Jg", "Regular", 500.0, 300.0, 0.0, ""),
        U("t", 1, "Ms", "Regular", 500.0, 420.0, 180.0, ""),
    ];
    for u in more {
        units.push(U(u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7));
    }
    let b: Game = battle(&units, terrain);
    dbn.line_of_sight(&b, b.unit(&id("s")).unwrap(), b.unit(&id("t")).unwrap())
}

fn area(kind: &str, x0: f32, y0: f32, x1: f32, y1: f32, extra: &str) -> String {
    format!(
        "(id: \"f\", kind: {kind}, name: \"Feature\", points: [({x0}, {y0}), ({x1}, {y0}), ({x1}, {y1}), ({x0}, {y1})]{extra}),"
    )
}

#[test]
fn open_ground_is_clear() {
    assert_eq!(sight("", &[]), Ok(()));
}

#[test]
fn woods_block_beyond_100_paces_of_wood() {
    // 30 mm (118 paces) of wood across the line: blocked; 20 mm (79 paces): seen through.
    assert!(
        sight(&area("Woods", 400.0, 340.0, 600.0, 370.0, ""), &[])
            .unwrap_err()
            .contains("blocked by Feature")
    );
    assert_eq!(
        sight(&area("Woods", 400.0, 340.0, 600.0, 360.0, ""), &[]),
        Ok(())
    );
    // A wood beside the line does not block.
    assert_eq!(
        sight(&area("Woods", 530.0, 320.0, 700.0, 410.0, ""), &[]),
        Ok(())
    );
}

#[test]
fn hills_block_unless_the_firer_is_as_high() {
    let ridge = area("Hill", 300.0, 350.0, 700.0, 370.0, ", level: 1");
    assert!(sight(&ridge, &[]).is_err());
    // Firer on a level-1 hill of its own sees over a level-1 ridge, not over level 2.
    let both = format!(
        "{ridge} (id: \"g\", kind: Hill, name: \"Knoll\", points: [(450, 280), (550, 280), (550, 320), (450, 320)], level: 1),"
    );
    assert_eq!(sight(&both, &[]), Ok(()));
    let high = area("Hill", 300.0, 350.0, 700.0, 370.0, ", level: 2");
    let both = format!(
        "{high} (id: \"g\", kind: Hill, name: \"Knoll\", points: [(450, 280), (550, 280), (550, 320), (450, 320)], level: 1),"
    );
    assert!(sight(&both, &[]).is_err());
    // A hill off to the side does not block.
    assert_eq!(
        sight(&area("Hill", 600.0, 300.0, 700.0, 420.0, ", level: 3"), &[]),
        Ok(())
    );
}

#[test]
fn towns_and_villages_block_unless_you_are_in_them() {
    assert!(sight(&area("Town", 450.0, 350.0, 550.0, 380.0, ""), &[]).is_err());
    assert!(sight(&area("Village", 450.0, 350.0, 550.0, 380.0, ""), &[]).is_err());
    // The target inside the town is seen.
    assert_eq!(
        sight(&area("Town", 450.0, 400.0, 550.0, 480.0, ""), &[]),
        Ok(())
    );
}

#[test]
fn marsh_rough_streams_and_roads_do_not_block() {
    for kind in ["Marsh", "Rough", "Fortification"] {
        assert_eq!(
            sight(&area(kind, 400.0, 340.0, 600.0, 380.0, ""), &[]),
            Ok(()),
            "{kind}"
        );
    }
    for kind in ["Stream", "Road", "River"] {
        let line = format!(
            "(id: \"l\", kind: {kind}, name: \"L\", points: [(0, 360), (1000, 360)], width: 10),"
        );
        assert_eq!(sight(&line, &[]), Ok(()), "{kind}");
    }
}

#[test]
fn units_block_and_gaps_let_sight_through() {
    let e = sight("", &[U("x", 0, "HC", "Regular", 500.0, 360.0, 0.0, "")]).unwrap_err();
    assert!(e.contains("blocked by x"), "{e}");
    // A unit well to one side leaves a line clear.
    assert_eq!(
        sight("", &[U("x", 0, "HC", "Regular", 535.0, 360.0, 0.0, "")]),
        Ok(())
    );
    // Two units with a 20 mm gap between them: sight passes through the gap.
    assert_eq!(
        sight(
            "",
            &[
                U("x", 0, "Ms", "Regular", 470.0, 360.0, 0.0, ""),
                U("y", 0, "Ms", "Regular", 530.0, 360.0, 0.0, "")
            ]
        ),
        Ok(())
    );
}

#[test]
fn options_for_what_blocks_and_gap_clearance() {
    let no_friends = Dbn::from_ron(&DATA.replace(
        "(key: \"los_friends_block\", value: 1",
        "(key: \"los_friends_block\", value: 0",
    ))
    .unwrap();
    assert_eq!(
        sight_with(
            &no_friends,
            "",
            &[U("x", 0, "HC", "Regular", 500.0, 360.0, 0.0, "")]
        ),
        Ok(())
    );
    assert!(
        sight_with(
            &no_friends,
            "",
            &[U("x", 1, "HC", "Regular", 500.0, 360.0, 0.0, "")]
        )
        .is_err()
    );
    // With 50 paces (12.7 mm) of clearance the 20 mm gap is too narrow.
    let clearance = Dbn::from_ron(&DATA.replace(
        "(key: \"los_clearance\", value: 0",
        "(key: \"los_clearance\", value: 50",
    ))
    .unwrap();
    let gap = [
        U("x", 0, "Ms", "Regular", 470.0, 360.0, 0.0, ""),
        U("y", 0, "Ms", "Regular", 530.0, 360.0, 0.0, ""),
    ];
    assert!(sight_with(&clearance, "", &gap).is_err());
}

/// The sight overlay draws a line to each enemy the unit sees, and to each it does not see
/// within its range (with what hides it); an enemy hidden and out of range gets none.
#[test]
fn sight_lines_go_to_enemies_seen_or_in_reach() {
    use volley::rules::ruleset::view::{Ink, Layer};
    let wood = area("Woods", 400.0, 600.0, 600.0, 700.0, "");
    let b: Game = battle(
        &[
            U("s", 0, "Ms", "Regular", 500.0, 300.0, 0.0, ""),
            // Seen, in the open.
            U("t", 1, "Ms", "Regular", 300.0, 420.0, 180.0, ""),
            // Hidden behind the wood and far beyond musket range.
            U("h", 1, "Ms", "Regular", 500.0, 800.0, 180.0, ""),
        ],
        &wood,
    );
    let s = b.unit(&id("s")).unwrap();
    let marks = b.rules.overlays(&b, Some(s), &[Layer::Sight]);
    let to = |who: &str| {
        let c = b.unit(&id(who)).unwrap().base.centre;
        marks
            .iter()
            .filter(|m| matches!(m.ink, Ink::Clear | Ink::Blocked))
            .any(|m| m.points.last().is_some_and(|p| p.dist(c) < 0.5))
    };
    assert!(to("t"), "{marks:?}");
    assert!(!to("h"), "{marks:?}");
}
