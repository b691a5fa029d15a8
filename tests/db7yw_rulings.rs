//! DB7YW rules as the seed words them where an earlier reading went wrong: Musket movement in
//! groups and into contact, towns and villages, face-to-face charges, fixed artillery,
//! counter-battery at close range, threat zones. Each test names the seed's sentence or the
//! ruling it checks.

mod common;
use common::*;
use volley::rules::command::{Command, Effect, Event, Step};
use volley::rules::geometry::Corner;
use volley::rules::model::Phase;
use volley::rules::ruleset::dbn::{self, CLOSE_COMBAT, DbnEvent, FIRING, MOVEMENT, db7yw};

fn group(units: &[&str], steps: Vec<Step>) -> Command {
    Command::MoveGroup {
        units: units.iter().map(|u| id(u)).collect(),
        steps,
    }
}

// ----- Musket movement --------------------------------------------------------------------

/// Austrian heavy cavalry leading a Musket in one formation.
fn cavalry_led_group() -> volley::rules::Game {
    let mut b = battle(
        &[
            U("pc", 0, "CinC", "Regular", 100.0, 100.0, 0.0, ""),
            U("c", 1, "HC", "Regular", 460.0, 300.0, 0.0, ""),
            U("m", 1, "Ms", "Regular", 500.0, 292.5, 0.0, ""),
            U("ac", 1, "CinC", "Regular", 480.0, 200.0, 0.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 1, MOVEMENT);
    b
}

#[test]
fn a_group_led_by_cavalry_moves_its_muskets_obliquely_not() {
    // 000 Musket Unit Movement: "they cannot make a move in any combination of directions or
    // diagonally" — whoever leads the formation.
    let mut b = cavalry_led_group();
    let e = refused_as(
        &mut b,
        group(
            &["c", "m"],
            vec![Step::Oblique {
                forward: 100.0,
                right: 50.0,
            }],
        ),
    );
    assert_eq!(e, Ok(db7yw::Refusal::MoveShape));
    let e = refused_as(
        &mut b,
        group(
            &["c", "m"],
            vec![Step::Advance(100.0), Step::Sidestep(50.0)],
        ),
    );
    assert_eq!(e, Ok(db7yw::Refusal::MoveShape));
}

#[test]
fn a_non_prussian_formation_with_muskets_does_not_move_sideways() {
    // 000: only "Prussian Ms can make sideways movement as a Formation Move".
    let mut b = cavalry_led_group();
    let e = refused_as(&mut b, group(&["c", "m"], vec![Step::Sidestep(100.0)]));
    assert_eq!(e, Ok(db7yw::Refusal::OnlyPrussianSidestep));
    b.execute(group(&["c", "m"], vec![Step::Advance(150.0)]))
        .expect("straight ahead is a Musket move");
}

#[test]
fn prussian_muskets_move_sideways_as_a_formation() {
    let mut b = battle(
        &[
            U("m1", 0, "Ms", "Regular", 460.0, 300.0, 0.0, ""),
            U("m2", 0, "Ms", "Regular", 500.0, 300.0, 0.0, ""),
            U("ac", 1, "CinC", "Regular", 480.0, 900.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.execute(group(&["m1", "m2"], vec![Step::Sidestep(100.0)]))
        .expect("000 Unique Prussian Musket Movement: sideways as a formation");
}

#[test]
fn a_cavalry_led_group_takes_muskets_no_more_than_100_paces_into_contact() {
    // 000: "Musket units can only move up to 100paces when moving into Close Combat".
    let mut b = cavalry_led_group();
    // An enemy 150 paces (38.1 mm) ahead of the group's front edges.
    let y = 300.0 + 15.0 + 38.1 + 7.5;
    let target = {
        let mut e = b.unit(&id("pc")).unwrap().clone();
        e.id = id("pm");
        e.name = "Target".into();
        e.troop = "Ms".into();
        e.base.width = 40.0;
        e.base.depth = 15.0;
        e.base.centre = volley::rules::geometry::Pt::new(460.0, y);
        e.base.facing = 180.0;
        e
    };
    b.units_mut().push(target);
    let e = refused_as(&mut b, group(&["c", "m"], vec![Step::ToContact(id("pm"))]));
    assert_eq!(e, Ok(db7yw::Refusal::TooFarIntoContact));
}

/// A Prussian Musket 80 paces short of an Austrian Musket, a little to one side.
fn musket_facing_musket(dx: f32) -> volley::rules::Game {
    let gap = 80.0 * 25.4 / 100.0;
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
            U(
                "a",
                1,
                "Ms",
                "Regular",
                500.0 + dx,
                500.0 + 15.0 + gap,
                180.0,
                "",
            ),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b
}

#[test]
fn a_musket_may_not_sidestep_and_then_charge() {
    // "they cannot make a move in any combination of directions": a sidestep then a charge is
    // a combination.
    let mut b = musket_facing_musket(30.0);
    let e = refused_as(
        &mut b,
        mv(
            "p",
            vec![Step::Sidestep(30.0 / 0.254), Step::ToContact(id("a"))],
        ),
    );
    assert_eq!(e, Ok(db7yw::Refusal::OnlyStraightIntoContact));
    let e = refused_as(
        &mut b,
        mv(
            "p",
            vec![
                Step::Wheel {
                    corner: Corner::Left,
                    degrees: 5.0,
                },
                Step::ToContact(id("a")),
            ],
        ),
    );
    assert_eq!(e, Ok(db7yw::Refusal::OnlyStraightIntoContact));
    // Straight ahead it may: the enemy overlaps more than half its front.
    let mut b = musket_facing_musket(10.0);
    b.execute(mv("p", vec![Step::ToContact(id("a"))]))
        .expect("a straight charge");
}

#[test]
fn muskets_meet_the_enemy_face_to_face_never_its_flank() {
    // 000: the attacking Musket "must make 'face to face' contact". An Austrian Musket side-on
    // (facing east) straight ahead of the Prussian Musket: contact would be on its flank.
    let gap = 50.0 * 25.4 / 100.0;
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
            U(
                "a",
                1,
                "Ms",
                "Regular",
                500.0,
                500.0 + 7.5 + gap + 20.0,
                90.0,
                "",
            ),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    let e = refused_as(&mut b, mv("p", vec![Step::ToContact(id("a"))]));
    assert_eq!(e, Ok(db7yw::Refusal::NotFaceToFace));
    // Cavalry may charge the same flank.
    let mut b = battle(
        &[
            U("p", 0, "DC", "Regular", 500.0, 500.0, 0.0, ""),
            U(
                "a",
                1,
                "Ms",
                "Regular",
                500.0,
                500.0 + 15.0 + gap + 20.0,
                90.0,
                "",
            ),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.execute(mv("p", vec![Step::ToContact(id("a"))]))
        .expect("cavalry charge a flank");
}

// ----- towns and villages ------------------------------------------------------------------

const FORTIFIED_TOWN: &str = r#"(id: "t", kind: Town, name: "Town", fortified: true, points: [(450, 515), (550, 515), (550, 620), (450, 620)]),"#;
const FORTIFIED_TOWN_EDGE: &str = r#"(id: "t", kind: Town, name: "Town", fortified: true, points: [(450, 525), (550, 525), (550, 620), (450, 620)]),"#;

/// A Prussian unit `p` at (500, 500) facing up the table and an Austrian `a` facing it at `ay`,
/// in `phase` of Prussia's bound.
fn pair(p: &str, a: &str, ay: f32, terrain: &str, phase: Phase) -> volley::rules::Game {
    let mut b = battle(
        &[
            U("p", 0, p, "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, a, "Regular", 500.0, ay, 180.0, ""),
        ],
        terrain,
    );
    to_phase(&mut b, 0, phase);
    b
}

/// One firing with dice 3 and 3: the firer's and the target's factors.
fn fire_once(
    b: &mut volley::rules::Game,
    shooter: &str,
    target: &str,
) -> (Vec<String>, Vec<String>) {
    b.script_dice(&[3, 3]);
    let ev = b
        .execute(fire(shooter, target))
        .expect("the fire is accepted");
    fire_names(&ev)
}

fn fire_names(ev: &[Event]) -> (Vec<String>, Vec<String>) {
    match fire_event(ev) {
        DbnEvent::Fire {
            shooter_score,
            target_score,
            ..
        } => (names(&shooter_score.factors), names(&target_score.factors)),
        _ => unreachable!(),
    }
}

#[test]
fn a_fortified_town_garrison_is_not_in_bad_going() {
    // 000 BUA's & NLF's: fortifying "allows Musket units to Garrison the BUA ... without being
    // classed as in Bad Going". The Austrian (defending) garrison fires out from deep inside
    // the town, without the -2 for firing from bad going.
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 540.0, 180.0, ""),
        ],
        FORTIFIED_TOWN,
    );
    to_phase(&mut b, 1, FIRING);
    b.script_dice(&[3, 3, 6, 6, 6, 6]);
    let ev = b.execute(fire("a", "p")).expect("the garrison fires out");
    let (s, _) = fire_names(&ev);
    assert_eq!(s, ["+4 Muskets"]);
    // Fired at by the Prussians: -2 into a BUA, not -4.
    to_phase(&mut b, 0, FIRING);
    let (s, _) = fire_once(&mut b, "p", "a");
    assert_eq!(s, ["+4 Muskets", "-2 Firing into BUA or fortifications"]);
}

#[test]
fn a_garrison_in_close_combat_gets_plus_four_and_no_bad_going() {
    // 000: "the Garrison gains +4 Tactical Factor"; Muskets attacking it are in attack column.
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 515.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 530.0, 180.0, ""),
        ],
        FORTIFIED_TOWN_EDGE,
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b.script_dice(&[3, 3]);
    let ev = b.execute(fight("p", "a")).expect("assault the garrison");
    let DbnEvent::CloseCombat {
        attacker_score,
        defender_score,
        ..
    } = combat_event(&ev)
    else {
        unreachable!()
    };
    assert_eq!(
        names(&attacker_score.factors),
        ["+4 Muskets", "+2 Attack column against a BUA garrison"]
    );
    let d = names(&defender_score.factors);
    assert!(d.contains(&"+4 BUA garrison attacked".to_string()), "{d:?}");
    assert!(!d.iter().any(|x| x.contains("bad going")), "{d:?}");
}

#[test]
fn close_combat_inside_an_unfortified_town_is_in_bad_going() {
    // 000: "Any Close Combat inside a BUA is classed as in Bad Going".
    let town = r#"(id: "t", kind: Town, name: "Town", points: [(450, 525), (550, 525), (550, 620), (450, 620)]),"#;
    let mut b2 = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 515.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 530.0, 180.0, ""),
        ],
        town,
    );
    to_phase(&mut b2, 0, CLOSE_COMBAT);
    b2.script_dice(&[3, 3]);
    let ev = b2.execute(fight("p", "a")).expect("fight in the town");
    let DbnEvent::CloseCombat { defender_score, .. } = combat_event(&ev) else {
        unreachable!()
    };
    assert_eq!(
        names(&defender_score.factors),
        ["+4 Muskets", "-2 Within bad going"]
    );
}

const VILLAGE: &str = r#"(id: "v", kind: Village, name: "Dorf", points: [(450, 530), (550, 530), (550, 620), (450, 620)]),"#;

#[test]
fn skirmishers_occupying_a_village_are_not_in_bad_going() {
    // 000: NLFs are occupied by Irregular Infantry, Jagers and Guerrillas; only "Musket units
    // are considered to be 'in Bad Going' if inside an 'unfortified' NLF".
    for (troop, factor) in [("II", "+2 Irregular Infantry"), ("Gs", "+2 Guerrillas")] {
        let mut b = battle(
            &[
                U("p", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
                U("a", 1, troop, "Regular", 500.0, 540.0, 180.0, ""),
            ],
            VILLAGE,
        );
        to_phase(&mut b, 0, FIRING);
        b.script_dice(&[3, 3]);
        let ev = b.execute(fire("p", "a")).expect("fire at the village");
        let (s, t) = fire_names(&ev);
        assert_eq!(s, ["+4 Muskets"], "firing at {troop} in a village");
        assert!(t[0].starts_with(factor), "{t:?}");
        assert!(!t.iter().any(|x| x.contains("bad going")), "{t:?}");
    }
    // A Musket in the same unfortified village is in bad going.
    let mut b = pair("Ms", "Ms", 535.0, VILLAGE, FIRING);
    let (s, _) = fire_once(&mut b, "p", "a");
    assert_eq!(s, ["+4 Muskets", "-2 Firing from within or into bad going"]);
}

// ----- artillery --------------------------------------------------------------------------

#[test]
fn fixed_artillery_may_not_move() {
    let mut b = battle(
        &[
            U(
                "p",
                0,
                "FA",
                "Regular",
                500.0,
                300.0,
                0.0,
                ", flags: [Fixed], limbered: true",
            ),
            U("a", 1, "Ms", "Regular", 500.0, 900.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    let e = refused_as(&mut b, mv("p", vec![Step::Advance(100.0)]));
    assert_eq!(e, Ok(dbn::Refusal::FixedArtillery));
}

#[test]
fn counter_battery_within_200_paces_costs_both_guns_a_point() {
    // 000 Firing tactical factors: "-1 In GG and Fired at by Artillery within 200 Paces"; in
    // counter-battery fire both guns are fired at.
    let mut b = battle(
        &[
            U("p", 0, "FA", "Regular", 500.0, 500.0, 0.0, ""),
            U(
                "a",
                1,
                "FA",
                "Regular",
                500.0,
                500.0 + 40.0 + 38.0,
                180.0,
                "",
            ),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    b.script_dice(&[3, 3]);
    let ev = b.execute(fire("p", "a")).unwrap();
    let DbnEvent::Fire { mutual, .. } = fire_event(&ev) else {
        unreachable!()
    };
    assert!(mutual);
    let (s, t) = fire_names(&ev);
    let close = "-1 In GG and fired at by artillery within 200 paces".to_string();
    assert!(s.contains(&close), "firer: {s:?}");
    assert!(t.contains(&close), "target: {t:?}");
}

// ----- threat zones -----------------------------------------------------------------------

#[test]
fn an_advance_may_not_pass_an_enemy_obliquely_through_its_zone() {
    // A threat zone may be entered only to move directly into contact with the unit that
    // exerts it, or straight towards it (ruling threat_zone). The enemy lies 40 degrees off
    // to the right: in the arc, but not across the mover's path.
    let mut b = battle(
        &[
            U("p", 0, "DC", "Regular", 400.0, 400.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 450.0, 480.0, 270.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    let e = refused_as(&mut b, mv("p", vec![Step::Advance(300.0)]));
    assert_eq!(e, Ok(dbn::Refusal::EntersThreatZone));
}

#[test]
fn an_advance_directly_towards_an_enemy_may_stop_in_its_zone() {
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 400.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 500.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.execute(mv("p", vec![Step::Advance(200.0)]))
        .expect("straight towards the enemy, stopping 100 paces short");
}

// ----- support ----------------------------------------------------------------------------

fn fire_with(support: &[&str], defence: Option<&[&str]>) -> Command {
    Command::Fire {
        unit: id("p"),
        target: id("a"),
        support: support.iter().map(|s| id(s)).collect(),
        defence: defence.map(|d| d.iter().map(|s| id(s)).collect()),
    }
}

#[test]
fn artillery_cannot_support_artillery_in_firing() {
    // 000 Artillery: "Artillery cannot Support Artillery in Firing Combat".
    let mut b = battle(
        &[
            U("p", 0, "FA", "Regular", 500.0, 500.0, 0.0, ""),
            U("p2", 0, "FA", "Regular", 540.0, 500.0, 0.0, ""),
            U("p3", 0, "Ms", "Regular", 460.0, 512.5, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 540.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let e = refused_as(&mut b, fire_with(&["p2"], None));
    assert_eq!(e, Ok(dbn::Refusal::ArtilleryCannotSupportArtillery));
    // Foot may support the guns.
    b.script_dice(&[3, 3]);
    b.execute(fire_with(&["p3"], None))
        .expect("Muskets support the battery");
}

/// A Prussian Musket facing two Austrian Muskets side by side, both able to fire at it.
fn two_against_one() -> volley::rules::Game {
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 530.0, 180.0, ""),
            U("a2", 1, "Ms", "Regular", 540.0, 530.0, 180.0, ""),
            U("a3", 1, "HC", "Regular", 300.0, 900.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, FIRING);
    b
}

#[test]
fn a_friend_at_the_very_edge_of_its_range_supports_the_defence() {
    // Range is measured from the firer's front edge to the nearest point of the target
    // (ruling range), with half a pace's tolerance: a2's front edge stands 100 paces (a Musket's
    // range, 25.4 mm) from the firer, and it supports its friend; a millimetre further, not.
    let support = "-1 Enemy unit providing fire support".to_string();
    for (y, supports) in [(540.4, true), (541.4, false)] {
        let mut b = battle(
            &[
                U("p", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
                U("a", 1, "Ms", "Regular", 470.0, 530.0, 180.0, ""),
                U("a2", 1, "Ms", "Regular", 530.0, y, 180.0, ""),
            ],
            "",
        );
        to_phase(&mut b, 0, FIRING);
        b.script_dice(&[3, 3]);
        let (s, _) = fire_names(&b.execute(fire_with(&[], None)).unwrap());
        assert_eq!(
            s.iter().any(|x| x.starts_with(&support)),
            supports,
            "a2 at y {y}: {s:?}"
        );
    }
}

#[test]
fn the_defender_chooses_its_fire_support() {
    let support = "-1 Enemy unit providing fire support".to_string();
    // Left out, every eligible friend supports the target.
    let mut b = two_against_one();
    b.script_dice(&[3, 3]);
    let (s, _) = fire_names(&b.execute(fire_with(&[], None)).unwrap());
    assert!(s.iter().any(|x| x.starts_with(&support)), "{s:?}");
    // The defender may decline it.
    let mut b = two_against_one();
    b.script_dice(&[3, 3]);
    let (s, _) = fire_names(&b.execute(fire_with(&[], Some(&[]))).unwrap());
    assert!(!s.iter().any(|x| x.starts_with(&support)), "{s:?}");
    // It may name only friends able to fire at the firer.
    let mut b = two_against_one();
    let e = refused_as(&mut b, fire_with(&[], Some(&["a3"])));
    assert_eq!(e, Ok(dbn::Refusal::CannotSupportDefence));
    // The window offers the choice through the outlook.
    let b = two_against_one();
    let rules = volley::rules::ruleset::AnyRuleset::load("db7yw").unwrap();
    let o = rules.preview(&b, &fire_with(&[], None)).unwrap();
    let c = o
        .choices
        .iter()
        .find(|c| c.label.contains("supports the defence"))
        .expect("a defence choice");
    assert!(c.on);
    assert_eq!(c.flipped, fire_with(&[], Some(&[])));
}

/// An Austrian Musket in contact with a Prussian Musket, with a friend of `troop` behind it.
fn supported_by(troop: &str) -> volley::rules::Game {
    let y = 522.5 + depth(troop) / 2.0;
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 515.0, 180.0, ""),
            U("s", 1, troop, "Regular", 500.0, y, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b
}

#[test]
fn close_combat_support_is_like_by_like() {
    let support = "-1 Enemy unit providing close combat support".to_string();
    for (troop, supports) in [("Ms", true), ("Jg", true), ("HC", false), ("FA", false)] {
        let mut b = supported_by(troop);
        b.script_dice(&[3, 3]);
        let ev = b.execute(fight("p", "a")).expect("fight");
        let DbnEvent::CloseCombat { attacker_score, .. } = combat_event(&ev) else {
            unreachable!()
        };
        assert_eq!(
            names(&attacker_score.factors).contains(&support),
            supports,
            "{troop} behind Muskets"
        );
    }
}

// ----- recoil, flight and passing friends -------------------------------------------------

fn fight_no_pursuit(unit: &str, target: &str) -> Command {
    Command::Fight {
        unit: id(unit),
        target: id(target),
        pursue: Some(false),
        pursuits: vec![],
    }
}

fn base_of(b: &volley::rules::Game, u: &str) -> volley::rules::geometry::Base {
    b.unit(&id(u)).unwrap().base
}

#[test]
fn a_unit_beaten_on_its_flank_recoils_directly_away_from_the_enemy() {
    // A Prussian dragoon on the Austrian Musket's right flank wins 9 to 5: the Musket takes a
    // hit and recoils, turned to face the dragoons, a base depth away from them.
    let mut b = battle(
        &[
            U("p", 0, "DC", "Regular", 535.0, 500.0, 270.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b.script_dice(&[6, 1]);
    b.execute(fight_no_pursuit("p", "a")).expect("fight");
    let a = base_of(&b, "a");
    assert!((a.facing - 90.0).abs() < 0.5, "turned to face: {a:?}");
    assert!((a.centre.x - 485.0).abs() < 1.0, "{a:?}");
    assert!((a.centre.y - 500.0).abs() < 0.5, "{a:?}");
}

/// An Austrian Musket beaten from the front by a Prussian Musket, with `troop` behind it
/// `gap` mm from its rear edge, facing `facing`, on `side`.
fn recoil_into(troop: &str, side: usize, facing: f32, gap: f32) -> volley::rules::Game {
    let y = 492.5 - gap - depth(troop) / 2.0;
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 515.0, 180.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
            U("r", side, troop, "Regular", 500.0, y, facing, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    // 4 + 5 (-1 if the unit behind supports) against 4 + 1: beaten, not by double.
    b.script_dice(&[5, 1]);
    b.execute(fight_no_pursuit("p", "a")).expect("fight");
    b
}

#[test]
fn a_recoil_pushes_back_a_friend_of_its_own_kind() {
    let b = recoil_into("Ms", 1, 0.0, 0.0);
    assert!((base_of(&b, "a").centre.y - 485.0).abs() < 1.0);
    assert!(
        (base_of(&b, "r").centre.y - 470.0).abs() < 1.0,
        "pushed back: {:?}",
        base_of(&b, "r")
    );
}

#[test]
fn a_recoil_passes_through_friendly_skirmishers() {
    let b = recoil_into("Jg", 1, 0.0, 0.0);
    let a = base_of(&b, "a");
    let r = base_of(&b, "r");
    assert!(!a.overlaps(&r), "ends clear of the Jagers");
    assert!(a.centre.y < r.centre.y, "beyond them: {a:?} {r:?}");
    assert!((r.centre.y - (492.5 - 10.0)).abs() < 0.5, "Jagers stay");
}

#[test]
fn a_recoil_stops_against_a_friend_of_another_kind() {
    let b = recoil_into("HC", 1, 0.0, 5.0);
    let a = base_of(&b, "a");
    assert!(b.unit(&id("a")).unwrap().alive());
    assert!((a.centre.y - 495.0).abs() < 1.0, "{a:?}");
}

#[test]
fn a_recoil_blocked_by_the_enemy_destroys() {
    let b = recoil_into("Ms", 0, 180.0, 0.0);
    assert!(!b.unit(&id("a")).unwrap().alive());
}

#[test]
fn flight_is_directly_away_from_the_enemy() {
    // Jagers beaten by double by Muskets on their right flank flee 600 paces to the west.
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 527.5, 500.0, 270.0, ""),
            U("a", 1, "Jg", "Regular", 500.0, 500.0, 0.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b.script_dice(&[6, 1]);
    b.execute(fight_no_pursuit("p", "a")).expect("fight");
    let a = base_of(&b, "a");
    assert!((a.facing - 270.0).abs() < 0.5, "{a:?}");
    assert!((a.centre.x - (500.0 - 152.4)).abs() < 1.5, "{a:?}");
}

#[test]
fn a_move_may_pass_through_a_friendly_skirmish_screen() {
    let mut b = battle(
        &[
            U("p", 0, "DC", "Regular", 500.0, 300.0, 0.0, ""),
            U("s", 0, "Jg", "Regular", 500.0, 330.0, 0.0, ""),
            U("m", 0, "Ms", "Regular", 600.0, 330.0, 0.0, ""),
            U("d", 0, "DC", "Regular", 600.0, 300.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 100.0, 900.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    let e = refused_as(&mut b, mv("p", vec![Step::Advance(100.0)]));
    assert_eq!(e, Ok(dbn::Refusal::WouldEndOn));
    b.execute(mv("p", vec![Step::Advance(300.0)]))
        .expect("through the Jagers");
    let e = refused_as(&mut b, mv("d", vec![Step::Advance(300.0)]));
    assert_eq!(
        e,
        Ok(dbn::Refusal::WouldPassThrough),
        "formed friends block"
    );
}

// ----- command, victory and army lists ----------------------------------------------------

fn default_text() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/default.ron");
    std::fs::read_to_string(path).unwrap()
}

fn army_errors(text: &str) -> Vec<String> {
    match volley::rules::scenario::parse(text, "default") {
        Ok(_) => Vec::new(),
        Err(d) => d.into_iter().map(|x| x.message).collect(),
    }
}

#[test]
fn sub_commanders_cost_a_point_each() {
    // 000 Points Cost: "All units cost 1 point"; only the CinC and baggage are free.
    let text = default_text();
    assert!(army_errors(&text).is_empty());
    let t = text.replacen(
        "        (id: \"pr-bg\"",
        "        (id: \"pr-sub-x\", name: \"Seydlitz\", side: 0, type: \"Sub\", class: Regular, at: Some((760, 190)), facing: 0),\n        (id: \"pr-bg\"",
        1,
    );
    assert_ne!(t, text);
    let e = army_errors(&t);
    assert!(e.iter().any(|m| m.contains("costs 17 points")), "{e:?}");
}

#[test]
fn minor_nations_may_field_one_elite_musket_as_the_exception() {
    // 000: "Minor Nations have at least 50% Ms(M) and usually no Ms(E)".
    let units = |elite: usize| {
        let mut u = vec![
            "(id: \"c\", side: 0, type: \"CinC\", at: Some((500, 100)), facing: 0)".to_string(),
            "(id: \"b\", side: 0, type: \"Bg\", at: Some((500, 40)), facing: 0)".to_string(),
        ];
        for i in 0..6 {
            let class = if i < elite {
                "Elite"
            } else if i < 3 {
                "Regular"
            } else {
                "Militia"
            };
            u.push(format!("(id: \"m{i}\", side: 0, type: \"Ms\", class: {class}, at: Some(({}, 200)), facing: 0)", 100 + i * 45));
        }
        u.join(",\n")
    };
    let text = |elite| {
        format!(
            "(name: \"m\", ruleset: \"db7yw\", table: (width: 1000, height: 1000), turn_limit: 10,
              sides: [(name: \"Saxony\", nation: \"saxony\", colour: (0, 200, 0), army_list: true), (name: \"A\", colour: (200, 200, 200))],
              units: [{},
                (id: \"z\", side: 1, type: \"Ms\", at: Some((500, 900)), facing: 180)])",
            units(elite)
        )
    };
    let one = army_errors(&text(1));
    assert!(!one.iter().any(|m| m.contains("Ms(E)")), "{one:?}");
    let two = army_errors(&text(2));
    assert!(
        two.iter().any(|m| m.contains("usually field no Ms(E)")),
        "{two:?}"
    );
}

#[test]
fn superior_dragoons_refusal_reads_every_3rd() {
    let text = default_text();
    let t = text.replacen(
        "type: \"DC\", class: Regular",
        "type: \"DC\", class: Superior",
        1,
    );
    let e = army_errors(&t);
    assert!(e.iter().any(|m| m.contains("every 3rd DC")), "{e:?}");
}

#[test]
fn a_lost_irregular_cavalry_unit_counts_half() {
    // The special victory conditions of IC (ruling ic_victory): a half loss.
    let mut b = battle(
        &[
            U("p", 0, "HC", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "IC", "Regular", 500.0, 530.0, 180.0, ""),
            U("a2", 1, "Ms", "Regular", 100.0, 900.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    // 3+1 (HC against mounted) +6 = 10 against 1+1 = 2: IC beaten by double by mounted, destroyed.
    b.script_dice(&[6, 1]);
    let ev = b.execute(fight_no_pursuit("p", "a")).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Destroyed { unit, .. } if unit.as_str() == "a")),
        "{ev:?}"
    );
    // Break point 1 (half of 2): half a loss does not break the army.
    assert!(!b.is_over(), "{:?}", b.log.last());
}

#[test]
fn lost_baggage_counts_three() {
    // 000 Victory Conditions: "Destroyed Baggage counts as 3 units".
    let mut b = battle(
        &[
            U("p", 0, "HC", "Regular", 500.0, 500.0, 0.0, ""),
            U("a", 1, "Bg", "Regular", 500.0, 535.0, 180.0, ""),
            U("a2", 1, "Ms", "Regular", 100.0, 900.0, 180.0, ""),
            U("a3", 1, "Ms", "Regular", 200.0, 900.0, 180.0, ""),
            U("a4", 1, "Ms", "Regular", 300.0, 900.0, 180.0, ""),
            U("a5", 1, "Ms", "Regular", 400.0, 900.0, 180.0, ""),
            U("a6", 1, "Ms", "Regular", 600.0, 900.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b.script_dice(&[6, 1]);
    let ev = b.execute(fight_no_pursuit("p", "a")).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::ArmyBroken { side: 1, losses, of } if *losses == 3.0 && *of == 3.0)),
        "{ev:?}"
    );
}

#[test]
fn the_free_adc_adds_a_command_point_when_chosen() {
    let text = r#"(name: "o", ruleset: "db7yw", table: (width: 1000, height: 1000), turn_limit: 10, options: ["free_adc"],
        sides: [(name: "P", colour: (0, 0, 200)), (name: "A", colour: (200, 200, 200))],
        units: [(id: "c", side: 0, type: "CinC", at: Some((500, 100)), facing: 0), (id: "a", side: 1, type: "HC", at: Some((500, 900)), facing: 180)])"#;
    let mut b = volley::rules::scenario::parse(text, "adc").unwrap();
    b.script_dice(&[4]);
    let ev = b.execute(Command::EndPhase).unwrap();
    let roll = ev
        .iter()
        .find_map(|e| match e.own() {
            Some(DbnEvent::CommandRoll { factors, total, .. }) => Some((factors.clone(), *total)),
            _ => None,
        })
        .expect("a command roll");
    assert_eq!(roll.1, 5, "{roll:?}");
    assert!(roll.0[0].name.contains("Special ADC"));
    let bad = text.replace("free_adc", "free_lunch");
    assert!(volley::rules::scenario::parse(&bad, "adc").is_err());
}

#[test]
fn heavy_foot_artillery_moves_as_foot_artillery_and_reaches_1200_paces() {
    // 1100 paces (279.4 mm) ahead: in range of FA(H), not of FA.
    let y = 500.0 + 20.0 + 279.4 + 7.5;
    for (troop, ok) in [("FAH", true), ("FA", false)] {
        let mut b = battle(
            &[
                U("h", 0, troop, "Regular", 500.0, 500.0, 0.0, ""),
                U("a", 1, "Ms", "Regular", 500.0, y, 180.0, ""),
            ],
            "",
        );
        to_phase(&mut b, 0, FIRING);
        b.script_dice(&[3, 3]);
        assert_eq!(
            b.execute(fire("h", "a")).is_ok(),
            ok,
            "{troop} at 1100 paces"
        );
    }
    // Limbered, it has no rate in bad going, as FA.
    let wood = r#"(id: "w", kind: Woods, name: "Wood", points: [(400, 560), (600, 560), (600, 700), (400, 700)]),"#;
    let mut b = battle(
        &[
            U(
                "h",
                0,
                "FAH",
                "Regular",
                500.0,
                500.0,
                0.0,
                ", limbered: true",
            ),
            U("a", 1, "Ms", "Regular", 100.0, 900.0, 180.0, ""),
        ],
        wood,
    );
    to_phase(&mut b, 0, MOVEMENT);
    let e = refused_as(&mut b, mv("h", vec![Step::Advance(200.0)]));
    assert_eq!(e, Ok(dbn::Refusal::CannotEnterGoing));
}

#[test]
fn a_firer_outscored_is_not_a_draw() {
    let mut b = pair("Ms", "Ms", 530.0, "", FIRING);
    b.script_dice(&[1, 6]);
    let ev = b.execute(fire("p", "a")).unwrap();
    let DbnEvent::Fire {
        verdict, effect, ..
    } = fire_event(&ev)
    else {
        unreachable!()
    };
    assert_eq!(verdict, volley::rules::command::Verdict::Outscored);
    assert_eq!(effect, Effect::NoEffect);
    let json = serde_json::to_string(&fire_event(&ev)).unwrap();
    assert!(json.contains("\"Outscored\""), "{json}");
}

// ----- untested until now -----------------------------------------------------------------

#[test]
fn galloper_guns_limber_and_move_in_one_bound() {
    // 000 Artillery: GA "can Unlimber and Fire or Limber and Move".
    let mut b = battle(
        &[
            U("g", 0, "GA", "Regular", 500.0, 300.0, 0.0, ""),
            U("f", 0, "FA", "Regular", 300.0, 300.0, 0.0, ""),
            U("c", 0, "CinC", "Regular", 400.0, 200.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 100.0, 900.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 10;
    b.execute(Command::Limber { unit: id("g") }).unwrap();
    b.execute(mv("g", vec![Step::Advance(200.0)]))
        .expect("galloper guns limber and move");
    b.execute(Command::Limber { unit: id("f") }).unwrap();
    let e = refused_as(&mut b, mv("f", vec![Step::Advance(100.0)]));
    assert_eq!(e, Ok(dbn::Refusal::LimberedThisBound));
}

#[test]
fn firing_out_of_bad_going_only_from_its_edge() {
    // 000 Terrain factors: "Units Firing out of BG must be on the edge".
    let wood = r#"(id: "w", kind: Woods, name: "Wood", points: [(400, 300), (600, 300), (600, 510), (400, 510)]),"#;
    for (y, ok) in [(500.0, true), (470.0, false)] {
        let mut b = battle(
            &[
                U("p", 0, "Jg", "Regular", 500.0, y, 0.0, ""),
                U(
                    "a",
                    1,
                    "Ms",
                    "Regular",
                    500.0,
                    y + 10.0 + 20.0 + 7.5,
                    180.0,
                    "",
                ),
            ],
            wood,
        );
        to_phase(&mut b, 0, FIRING);
        b.script_dice(&[3, 3]);
        match b.execute(fire("p", "a")) {
            Ok(_) => assert!(ok, "deep in the wood at {y}: should be refused"),
            Err(e) => {
                assert!(!ok, "at the edge ({y}): {e}");
                assert_eq!(kind_of(&e), Ok(dbn::Refusal::InsideBadGoing));
            }
        }
    }
}

#[test]
fn a_fortification_over_the_army_points_is_refused() {
    // Fortifying a BUA costs 2 of the army's 16 points: with a full army it is refused.
    let text = default_text();
    let t = text.replacen(
        "terrain: [",
        "terrain: [(id: \"fort-town\", kind: Town, name: \"Fortified town\", fortified: true, points: [(100, 700), (200, 700), (200, 780), (100, 780)]),",
        1,
    );
    assert_ne!(t, text);
    let e = army_errors(&t);
    assert!(e.iter().any(|m| m.contains("costs 18 points")), "{e:?}");
}

#[test]
fn a_mixed_group_moves_at_its_slowest_members_rate() {
    // Light cavalry (600 paces) and dragoons (400) together: 400.
    let mut b = battle(
        &[
            U("l", 0, "LC", "Regular", 460.0, 300.0, 0.0, ""),
            U("d", 0, "DC", "Regular", 500.0, 300.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 100.0, 900.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    let e = refusal(&mut b, group(&["l", "d"], vec![Step::Advance(500.0)]));
    assert_eq!(too_far(&e), Some((500.0, 400.0)), "{e}");
    b.execute(group(&["l", "d"], vec![Step::Advance(400.0)]))
        .expect("at the dragoons' rate");
}

#[test]
fn pursuing_cavalry_fight_their_extra_combat_and_its_result_stands() {
    // 000: a pursuing cavalry unit that moves into contact fights again at once, once a phase.
    // Dragoons beat a Musket (which recoils 15 mm), follow up into contact and fight again.
    let mut b = battle(
        &[
            U("p", 0, "DC", "Regular", 500.0, 485.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 500.0, 507.5, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    // First combat 3+6 = 9 against 4+1-1 (charged? no) = 5: beaten; the extra combat 3+6 = 9
    // against 4+2 -1 (recoiled, continuing) = 5: beaten again.
    b.script_dice(&[6, 1, 6, 2]);
    let ev = b.execute(fight("p", "a")).unwrap();
    let combats: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e.own(), Some(DbnEvent::CloseCombat { .. })))
        .collect();
    assert_eq!(combats.len(), 2, "{ev:?}");
    let Some(DbnEvent::CloseCombat { loser, .. }) = combats[1].own() else {
        unreachable!()
    };
    assert_eq!(loser.as_ref().map(|l| l.as_str()), Some("a"));
    let a = b.unit(&id("a")).unwrap();
    assert_eq!(
        a.status.hits, 2,
        "two combats lost, two hits: {:?}",
        a.status
    );
}

// ----- deployment -------------------------------------------------------------------------

fn three_unit_division() -> volley::rules::Game {
    let text = r#"(name: "d", ruleset: "db7yw", table: (width: 1000, height: 1000), turn_limit: 5,
        sides: [(name: "P", nation: "prussia", colour: (0, 0, 200)), (name: "A", nation: "austria", colour: (200, 200, 200), defender: true)],
        units: [
            (id: "p1", side: 0, type: "HC", division: Some(Left)),
            (id: "p2", side: 0, type: "HC", division: Some(Left)),
            (id: "p3", side: 0, type: "DC", division: Some(Left)),
            (id: "pc", side: 0, type: "CinC", division: Some(Left)),
            (id: "a1", side: 1, type: "HC", division: Some(Left)),
        ],
        deployment: [(side: 0, min: (0, 0), max: (1000, 300)), (side: 1, min: (0, 700), max: (1000, 1000))],
    )"#;
    volley::rules::scenario::parse(text, "d").unwrap()
}

fn deploy(u: &str, x: f32) -> Command {
    Command::Deploy {
        unit: id(u),
        x,
        y: 100.0,
        facing: 0.0,
    }
}

#[test]
fn a_division_deploys_as_one_or_two_formations() {
    // 000 Deployment: "Each Division can be of 1 or 2 Formations".
    let mut b = three_unit_division();
    for (u, x) in [("p1", 100.0), ("p2", 300.0), ("p3", 500.0), ("pc", 700.0)] {
        b.execute(deploy(u, x)).unwrap();
    }
    let e = refused_as(&mut b, Command::EndPhase);
    assert_eq!(e, Ok(dbn::Refusal::TooManyBodies));
    // Two in line and one apart (the commander is no part of a formation): two formations.
    let mut b = three_unit_division();
    for (u, x) in [("p1", 100.0), ("p2", 140.0), ("p3", 500.0), ("pc", 700.0)] {
        b.execute(deploy(u, x)).unwrap();
    }
    b.execute(Command::EndPhase)
        .expect("two formations may end the step");
}

#[test]
fn the_seeded_player_deploys_in_formations() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/formal_deployment.ron");
    for seed in 0..12 {
        let mut b = volley::rules::scenario::load(&path).unwrap();
        volley::players::autoplay::AutoPlayer::new(seed).play(&mut b, 12, 16);
        let why = b.execute(Command::EndPhase).err();
        assert_ne!(
            b.phase,
            Phase::DEPLOYMENT,
            "seed {seed} stuck in deployment: {why:?}"
        );
    }
}

#[test]
fn the_objective_stands_on_the_defenders_forward_deployment_line() {
    // 000 Deployment: "positioned by the Defender, on the Defenders Forward Deployment Line".
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/formal_deployment.ron");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(army_errors(&text).is_empty());
    let t = text.replace("(at: (605, 510), owner: 1)", "(at: (605, 430), owner: 1)");
    assert_ne!(t, text);
    let e = army_errors(&t);
    assert!(
        e.iter().any(|m| m.contains("forward deployment line")),
        "{e:?}"
    );
}

#[test]
fn flags_of_other_rulesets_are_refused() {
    let text = std::fs::read_to_string("scenarios/default.ron").unwrap();
    let bad = text.replacen("flags: [Grenadier]", "flags: [Aggressive]", 1);
    assert_ne!(bad, text, "the default game has a grenadier");
    let e = format!(
        "{:?}",
        volley::rules::scenario::parse(&bad, "inline").unwrap_err()
    );
    assert!(e.contains("means nothing in db7yw"), "{e}");
}

#[test]
fn a_recoil_that_pushes_a_friend_never_goes_on_past_a_general_onto_it() {
    // The soak's DB7YW game 1283: Austrian Heavy Cavalry beaten from the front pushes the Heavy
    // Cavalry behind it back, then meets its general beside the pushed unit. Going on past the
    // general would end on the pushed unit where the push put it.
    let mut b = battle(
        &[
            U("p", 0, "HC", "Regular", 500.0, 530.0, 180.0, ""),
            U("a", 1, "HC", "Regular", 500.0, 500.0, 0.0, ""),
            U("r", 1, "HC", "Regular", 520.0, 465.0, 0.0, ""),
            U("g", 1, "CinC", "Regular", 470.0, 460.0, 0.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    // 9 to 7, then the pursuit's 10 to 10: both times it recoils.
    b.script_dice(&[5, 3, 6, 6]);
    b.execute(fight_no_pursuit("p", "a")).expect("fight");
    let (a, r, g) = (base_of(&b, "a"), base_of(&b, "r"), base_of(&b, "g"));
    assert!(b.unit(&id("a")).unwrap().alive(), "recoiled, not destroyed");
    assert!(a.centre.y < 500.0, "it recoiled: {a:?}");
    // Stopped short by the general, it pushes its friend no further than it went itself.
    assert!(
        a.centre.y - r.centre.y <= 30.0 + 1.5,
        "pushed no further: {a:?} {r:?}"
    );
    assert!(!a.overlaps(&r), "clear of the pushed friend: {a:?} {r:?}");
    assert!(!a.overlaps(&g), "clear of the general: {a:?} {g:?}");
}

// ----- group charges ----------------------------------------------------------------------

/// The close combat factors of `p` fighting `a`, fought on a copy.
fn factors_of(b: &volley::rules::Game, p: &str, a: &str) -> (Vec<String>, Vec<String>) {
    let mut b = b.clone();
    b.script_dice(&[1, 1, 1, 1, 1, 1, 1, 1]);
    let ev = b.execute(fight(p, a)).expect("fight accepted");
    let DbnEvent::CloseCombat {
        attacker_score,
        defender_score,
        ..
    } = combat_event(&ev)
    else {
        unreachable!()
    };
    (
        names(&attacker_score.factors),
        names(&defender_score.factors),
    )
}

/// Two Prussian cuirassiers side by side (c1, c2) 47.5 mm (187 paces) short of two Austrian
/// Muskets side by side (a1, a2) facing them; `a2` as given.
fn cavalry_line_against(a2: U) -> volley::rules::Game {
    let mut b = battle(
        &[
            U("c1", 0, "HC", "Regular", 460.0, 450.0, 0.0, ""),
            U("c2", 0, "HC", "Regular", 500.0, 450.0, 0.0, ""),
            U("a1", 1, "Ms", "Regular", 460.0, 520.0, 180.0, ""),
            a2,
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 5;
    b
}

#[test]
fn every_unit_of_a_group_that_ends_in_contact_has_charged() {
    // 000 Close combat tactical factors: "-1 Cavalry charging Muskets in the Front". The
    // second cuirassier of the group charges a2 as surely as the first charges a1; it moves
    // straight into contact with a2, so a2's threat zone does not stop it (ruling
    // threat_zone: each unit of a group is judged by its own contact).
    let mut b = cavalry_line_against(U("a2", 1, "Ms", "Regular", 500.0, 520.0, 180.0, ""));
    let ev = b
        .execute(group(&["c1", "c2"], vec![Step::ToContact(id("a1"))]))
        .expect("the line charges the line");
    let charged: Vec<(String, Option<String>)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Moved { unit, contact, .. } => {
                Some((unit.to_string(), contact.as_ref().map(|c| c.to_string())))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        charged,
        [
            ("c1".to_string(), Some("a1".to_string())),
            ("c2".to_string(), Some("a2".to_string()))
        ]
    );
    assert!(b.unit(&id("c2")).unwrap().bound.charged);
    to_phase(&mut b, 0, CLOSE_COMBAT);
    for (c, a) in [("c1", "a1"), ("c2", "a2")] {
        let (p, _) = factors_of(&b, c, a);
        assert!(
            p.iter()
                .any(|f| f == "-1 Cavalry charging Muskets in the front"),
            "{c}: {p:?}"
        );
    }
}

#[test]
fn a_group_member_landing_on_a_flank_attacks_it_first_in_flank() {
    // a2 faces east: c2's front meets its right flank while c1 meets a1 head on. 000: "-2
    // Attacked First in Flank/Rear".
    let mut b = cavalry_line_against(U("a2", 1, "Ms", "Regular", 500.0, 532.5, 90.0, ""));
    let ev = b
        .execute(group(&["c1", "c2"], vec![Step::ToContact(id("a1"))]))
        .expect("the line charges");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Moved { unit, contact: Some(t), .. } if unit.as_str() == "c2" && t.as_str() == "a2"
    )));
    to_phase(&mut b, 0, CLOSE_COMBAT);
    let (_, a) = factors_of(&b, "c2", "a2");
    assert_eq!(a, ["+4 Muskets", "-2 Attacked first in flank or rear"]);
}

#[test]
fn each_musket_of_a_group_meets_its_own_enemy_face_to_face() {
    // 000 Musket Unit Movement: "the Attacking Unit first must make 'face to face' contact":
    // m1 meets a1 front to front, but m2 would meet a2's flank.
    let mut b = battle(
        &[
            U("m1", 0, "Ms", "Regular", 460.0, 500.0, 0.0, ""),
            U("m2", 0, "Ms", "Regular", 500.0, 500.0, 0.0, ""),
            U("a1", 1, "Ms", "Regular", 460.0, 535.0, 180.0, ""),
            U("a2", 1, "Ms", "Regular", 500.0, 547.5, 90.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 5;
    let e = refusal(
        &mut b,
        group(&["m1", "m2"], vec![Step::ToContact(id("a1"))]),
    );
    assert_eq!(kind_of(&e), Ok(db7yw::Refusal::NotFaceToFace));
    // Which unit of the group is named in the words only.
    assert!(e.to_string().contains("m2"), "{e}");
}

#[test]
fn a_charge_on_a_front_musket_is_not_stopped_by_the_zone_of_the_one_behind() {
    // Ruling threat_zone: a unit behind a friend threatens nothing through that friend.
    let mut b = battle(
        &[
            U("c", 0, "HC", "Regular", 500.0, 480.0, 0.0, ""),
            U("f", 1, "Ms", "Regular", 500.0, 540.0, 180.0, ""),
            U("r", 1, "Ms", "Regular", 500.0, 555.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 5;
    // The board shows the zones as the move checks them: the front Musket's, none behind it.
    let rules = volley::rules::ruleset::AnyRuleset::load("db7yw").unwrap();
    let zones = rules
        .get()
        .overlays(&b, None, &[volley::rules::ruleset::Layer::Zones]);
    assert_eq!(zones.len(), 1, "{zones:?}");
    b.execute(mv("c", vec![Step::ToContact(id("f"))]))
        .expect("the charge on the front Musket");
    // Without the friend in front, the same zone still stops an oblique pass.
    let mut b = battle(
        &[
            U("c", 0, "HC", "Regular", 420.0, 480.0, 0.0, ""),
            U("r", 1, "Ms", "Regular", 500.0, 555.0, 180.0, ""),
        ],
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 5;
    let e = refusal(
        &mut b,
        mv(
            "c",
            vec![Step::Oblique {
                forward: 100.0,
                right: 200.0,
            }],
        ),
    );
    assert_eq!(kind_of(&e), Ok(dbn::Refusal::EntersThreatZone));
    // Whose zone is named in the words only.
    assert!(e.to_string().contains("threat zone of r"), "{e}");
}

// ----- towns, who defends, the army list ------------------------------------------------

#[test]
fn attacking_foot_may_not_stand_in_an_unfortified_town() {
    // 000 BUA's & NLF's: "A BUA must firstly be 'Fortified' before it can be 'Garrisoned'",
    // whichever army would garrison it (ruling occupation).
    let town = r#"(id: "t", kind: Town, name: "Lobositz", points: [(450, 500), (550, 500), (550, 600), (450, 600)]),"#;
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 490.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 900.0, 900.0, 180.0, ""),
        ],
        town,
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 5;
    let e = refused_as(&mut b, mv("p", vec![Step::Advance(80.0)]));
    assert_eq!(e, Ok(dbn::Refusal::NotFortified));
    // Fortified and empty, the attacker may enter it, and takes it.
    let fortified = town.replace("]),", "], fortified: true),");
    let mut b = battle(
        &[
            U("p", 0, "Ms", "Regular", 500.0, 490.0, 0.0, ""),
            U("a", 1, "Ms", "Regular", 900.0, 900.0, 180.0, ""),
        ],
        &fortified,
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.command_points[0] = 5;
    let ev = b
        .execute(mv("p", vec![Step::Advance(80.0)]))
        .expect("into the empty fortified town");
    assert!(
        ev.iter()
            .any(|e| matches!(e.own(), Some(DbnEvent::Captured { .. })))
    );
}

#[test]
fn guard_and_grenadier_muskets_count_in_the_elite_share_and_stoic_ones_do_not() {
    // 000 Army Composition: "Up to 20% of all Major Nations Ms can be Elite (this includes
    // Guard & Grenadiers)". The standard army already has two elite Muskets of six; a third,
    // Regular but a grenadier, breaks the share (and the points still add up).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/default.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    // "'Stoic' can be in addition to Elite Class": a Stoic Regular is no elite.
    let t = text.replacen(
        "class: Regular, at: Some((480, 260))",
        "class: Regular, flags: [Stoic], at: Some((480, 260))",
        1,
    );
    assert_ne!(t, text);
    assert!(volley::rules::scenario::parse(&t, "default").is_ok());
    for flag in ["Grenadier", "Guard"] {
        let t = text.replacen(
            "class: Regular, at: Some((480, 260))",
            &format!("class: Regular, flags: [{flag}], at: Some((480, 260))"),
            1,
        );
        assert_ne!(t, text);
        let d = volley::rules::scenario::parse(&t, "default").unwrap_err();
        let all: Vec<String> = d.iter().map(|x| x.message.clone()).collect();
        assert!(
            all.iter()
                .any(|m| m.contains("20% of Muskets may be elite")),
            "{flag}: {all:?}"
        );
        assert!(!all.iter().any(|m| m.contains("points")), "{all:?}");
    }
}

// ----- going, irregulars, squaring up, the turn limit -------------------------------------

#[test]
fn foot_artillery_crosses_a_brook_by_its_bridge_and_marches_a_road_through_a_town() {
    // Ruling going: a bridge carries troops over the brook, and a road is good going wherever
    // it runs. Foot artillery (no move in bad going) crosses the brook by its bridge, off any
    // road, and marches at the road rate along a road through a town.
    let brook = r#"(id: "s", kind: Stream, name: "Morellen brook", points: [(0, 560), (1000, 560)], width: 8),
        (id: "br", kind: Bridge, name: "Morellen bridge", points: [(500, 545), (500, 575)], width: 45),"#;
    let gun = |x: f32, y: f32, terrain: &str| {
        let mut b = battle(
            &[
                U("g", 0, "FA", "Regular", x, y, 0.0, ", limbered: true"),
                U("a", 1, "Ms", "Regular", 100.0, 950.0, 180.0, ""),
            ],
            terrain,
        );
        to_phase(&mut b, 0, MOVEMENT);
        b.command_points[0] = 5;
        b
    };
    let going = |ev: &[Event]| {
        ev.iter()
            .find_map(|e| match e {
                Event::Moved { going, .. } => Some(going.clone()),
                _ => None,
            })
            .unwrap_or_default()
    };
    let mut b = gun(500.0, 500.0, brook);
    let ev = b
        .execute(mv("g", vec![Step::Advance(197.0)]))
        .expect("onto the bridge");
    assert_eq!(going(&ev), "good going");
    // Beside the bridge the brook is bad going, which foot artillery cannot enter.
    let mut b = gun(300.0, 500.0, brook);
    let e = refused_as(&mut b, mv("g", vec![Step::Advance(197.0)]));
    assert_eq!(e, Ok(dbn::Refusal::CannotEnterGoing));
    // Along the road through a town: the road rate, 400 paces.
    let town = r#"(id: "road", kind: Road, name: "Road", points: [(500, 300), (500, 900)], width: 12),
        (id: "t", kind: Town, name: "Town", points: [(440, 640), (560, 640), (560, 660), (440, 660)], fortified: true),"#;
    let mut b = gun(500.0, 600.0, town);
    let ev = b
        .execute(mv("g", vec![Step::Advance(354.0)]))
        .expect("through the town by the road");
    assert_eq!(going(&ev), "road");
}

#[test]
fn a_musket_charge_off_square_is_squared_up_for_free_within_45_degrees() {
    // Ruling charge: the seed's free movement after contact squares the Musket up; a Musket
    // front meeting the enemy's more than 45 degrees off square is told to wheel first.
    for (turn, ok) in [(30.0f32, true), (50.0, false)] {
        let mut b = battle(
            &[
                U("p", 0, "Ms", "Regular", 500.0, 500.0, turn, ""),
                U("a", 1, "Ms", "Regular", 500.0, 540.0, 180.0, ""),
            ],
            "",
        );
        to_phase(&mut b, 0, MOVEMENT);
        b.command_points[0] = 5;
        let r = b.execute(mv("p", vec![Step::ToContact(id("a"))]));
        assert_eq!(r.is_ok(), ok, "{turn}: {r:?}");
        if ok {
            let f = b.unit(&id("p")).unwrap().base.facing.rem_euclid(360.0);
            assert!(f.min(360.0 - f) < 0.5, "squared up to face a: {f}");
        } else {
            assert!(format!("{r:?}").contains("wheel"), "{r:?}");
        }
    }
}

#[test]
fn the_turn_limit_goes_to_the_smaller_share_of_losses() {
    // Ruling turn_limit: at the turn limit the side that lost the smaller share of its army
    // wins. Austria has lost one of its four units, Prussia none of its four.
    let text = r#"(name: "o", ruleset: "db7yw", table: (width: 1000, height: 1000), turn_limit: 1,
        sides: [(name: "P", colour: (0, 0, 200)), (name: "A", colour: (200, 200, 200))],
        units: [
            (id: "p1", side: 0, type: "HC", at: Some((300, 100)), facing: 0),
            (id: "p2", side: 0, type: "HC", at: Some((400, 100)), facing: 0),
            (id: "p3", side: 0, type: "HC", at: Some((500, 100)), facing: 0),
            (id: "p4", side: 0, type: "HC", at: Some((600, 100)), facing: 0),
            (id: "a1", side: 1, type: "HC", at: Some((300, 900)), facing: 180),
            (id: "a2", side: 1, type: "HC", at: Some((400, 900)), facing: 180),
            (id: "a3", side: 1, type: "HC", at: Some((500, 900)), facing: 180),
            (id: "a4", side: 1, type: "HC", at: Some((600, 900)), facing: 180)])"#;
    let mut b = volley::rules::scenario::parse(text, "t").expect("scenario");
    if let Some(u) = b.units_mut().iter_mut().find(|u| u.id.as_str() == "a4") {
        u.status.removed = true;
    }
    for _ in 0..8 {
        if b.is_over() {
            break;
        }
        b.execute(Command::EndPhase).unwrap();
    }
    assert!(
        matches!(
            b.log.last(),
            Some(Event::GameOver {
                winner: Some(0),
                ..
            })
        ),
        "{:?}",
        b.log.last()
    );
}

#[test]
fn heavy_cavalry_cannot_be_elite_in_any_scenario() {
    // 000 Heavy Cavalry: "cannot be classed as 'Elite' (they already consider themselves to be
    // elite)": refused with its place even where no army list is checked.
    let text = r#"(name: "t", ruleset: "db7yw", table: (width: 1000, height: 1000), seed: 1, turn_limit: 5,
        sides: [(name: "Prussia", nation: "prussia", colour: (0, 0, 200)), (name: "Austria", nation: "austria", colour: (200, 200, 200))],
        units: [
            (id: "hc", side: 0, type: "HC", class: Elite, at: Some((500, 200)), facing: 0),
            (id: "ms", side: 1, type: "Ms", class: Regular, at: Some((500, 800)), facing: 180),
        ])"#;
    let d = volley::rules::scenario::parse(text, "hc.ron").unwrap_err();
    assert!(
        d[0].message
            .contains("Heavy Cavalry cannot be classed as Elite"),
        "{d:?}"
    );
    assert_eq!(d[0].line, 4);
    // Regular and Stoic, as a famous regiment, it loads.
    let ok = text.replace("class: Elite", "class: Regular, flags: [Stoic]");
    assert!(volley::rules::scenario::parse(&ok, "hc.ron").is_ok());
}

/// A Superior unit's card says where it counts as Elite, as the factors do: Superior Muskets
/// fire with "+1 Elite"; a Musket line unit's card says nothing of it.
#[test]
fn a_superior_card_says_where_it_counts_as_elite() {
    let b = volley::rules::scenario::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/tutorial.ron"
    )))
    .expect("tutorial");
    let card = |id: &str| {
        let u = b
            .units
            .iter()
            .find(|u| &*u.id.0 == id)
            .expect("unit in the tutorial");
        b.rules.unit_card(&b, u).lines
    };
    let superior = card("pr-ms2");
    assert!(
        superior
            .iter()
            .any(|l| l == "Superior: fires as Elite (+1 Elite)"),
        "{superior:?}"
    );
    let line = card("pr-ms1");
    assert!(!line.iter().any(|l| l.contains("as Elite")), "{line:?}");
}
