//! BBB Seven Years' War procedures against the playsheet (seed 001) with scripted dice: the
//! command roll and the move it allows, movement penalties and zones of control, fire (values
//! by base and band, shifts, halvings, results), assaults, generals and victory; the scenarios
//! played to a result.

mod common;
use common::{fight, fire, id, kind_of, mv, refusal, refused, refused_as};
use volley::players::autoplay::AutoPlayer;
use volley::rules::command::{Command, Event, Step};
use volley::rules::model::{Ammo, Formation, Phase};
use volley::rules::ruleset::bbb::status::own;
use volley::rules::ruleset::bbb::{
    ASSAULT, BbbEvent, DEFENSIVE_FIRE, FireColumn, GENERALS, MOVEMENT, NoFire, OFFENSIVE_FIRE,
    Refusal,
};
use volley::rules::ruleset::common::losses_by_turn;
use volley::rules::{Game, scenario};

/// A unit line: id, side, type, class, x, y, facing, extra RON fields.
type Line<'a> = (&'a str, usize, &'a str, &'a str, f32, f32, f32, &'a str);

const IN: f32 = 25.4;

/// A BBB battle on a 48" x 36" table.
fn bbb(units: &[Line], terrain: &str, extra: &str) -> Game {
    let us: Vec<String> = units
        .iter()
        .map(|(id, side, t, class, x, y, f, more)| format!("(id: \"{id}\", side: {side}, type: \"{t}\", class: {class}, at: Some(({x}, {y})), facing: {f}{more}),"))
        .collect();
    let text = format!(
        "(name: \"t\", ruleset: \"bbb7yw\", table: (width: 1220, height: 915), seed: 1, turn_limit: 10, {extra}
          terrain: [{terrain}],
          sides: [(name: \"Prussia\", nation: \"prussia\", colour: (0, 0, 200)), (name: \"Austria\", nation: \"austria\", colour: (220, 220, 220))],
          units: [{}])",
        us.join("\n")
    );
    match scenario::parse(&text, "inline") {
        Ok(b) => b,
        Err(d) => panic!("inline scenario invalid: {d:?}"),
    }
}

fn activate(b: &mut Game, u: &str, dice: &[u8]) -> Vec<Event> {
    b.script_dice(dice);
    b.execute(Command::Activate { unit: id(u) })
        .expect("command roll")
}

fn to_phase(b: &mut Game, side: usize, phase: Phase) {
    for _ in 0..40 {
        if b.active == side && b.phase == phase {
            return;
        }
        b.execute(Command::EndPhase).expect("end phase");
    }
    panic!("never reached {phase:?} of side {side}");
}

fn ordered(ev: &[Event]) -> (i32, f32, String) {
    ev.iter()
        .find_map(|e| match e {
            Event::Ordered {
                roll, allowance, ..
            } => Some((roll.total, *allowance, roll.outcome.clone())),
            _ => None,
        })
        .expect("an Ordered event")
}

fn salvo(ev: &[Event]) -> (Vec<String>, String) {
    ev.iter()
        .find_map(|e| match e.own() {
            Some(BbbEvent::Salvo { roll, .. }) => Some((
                roll.factors.iter().map(|f| f.name.clone()).collect(),
                roll.outcome.clone(),
            )),
            _ => None,
        })
        .expect("a Salvo event")
}

/// The column of the fire table a salvo was read on.
fn column(ev: &[Event]) -> FireColumn {
    ev.iter()
        .find_map(|e| match e.own() {
            Some(BbbEvent::Salvo { column, .. }) => column.get::<FireColumn>().copied(),
            _ => None,
        })
        .expect("a Salvo event with its column")
}

#[test]
fn the_command_roll_bounds_the_move() {
    let lone = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(4)",
        ),
        ("e", 1, "Inf", "Trained", 600.0, 800.0, 180.0, ""),
    ];
    // 7: full move 12". An infantry line with no friend on its flanks takes -1: 8 - 1 = 7.
    let mut b = bbb(&lone, "", "");
    let (score, allowance, words) = ordered(&activate(&mut b, "a", &[4, 4]));
    assert_eq!((score, allowance), (7, 12.0), "{words}");
    assert_eq!(
        refused_as(&mut b, mv("a", vec![Step::Advance(12.5)])),
        Ok(Refusal::BeyondAllowance { more: 12.0 })
    );
    b.execute(mv("a", vec![Step::Advance(12.0)]))
        .expect("full move");
    // 5-6: half move. 2-4: no move.
    let mut b = bbb(&lone, "", "");
    assert_eq!(ordered(&activate(&mut b, "a", &[3, 3])).1, 6.0);
    let mut b = bbb(&lone, "", "");
    assert_eq!(ordered(&activate(&mut b, "a", &[2, 2])).1, 0.0);
    assert_eq!(
        refused_as(&mut b, mv("a", vec![Step::Advance(1.0)])),
        Ok(Refusal::RollAllowsNoMove)
    );
    // A unit must roll before it moves, once a turn.
    let mut b = bbb(&lone, "", "");
    assert_eq!(
        refused_as(&mut b, mv("a", vec![Step::Advance(1.0)])),
        Ok(Refusal::MustRollForCommand)
    );
    activate(&mut b, "a", &[6, 6]);
    assert_eq!(
        refused_as(&mut b, Command::Activate { unit: id("a") }),
        Ok(Refusal::AlreadyRolledForCommand)
    );
}

#[test]
fn command_modifiers_and_the_disordered_column() {
    // A general within 6", in column of march: +2; infantry in column is not "in line".
    let units = [
        ("g", 0, "Gen", "Trained", 600.0, 150.0, 0.0, ""),
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            250.0,
            0.0,
            ", formation: Some(Column), bases: Some(3)",
        ),
        ("e", 1, "Inf", "Trained", 600.0, 800.0, 180.0, ""),
    ];
    let mut b = bbb(&units, "", "");
    let ev = activate(&mut b, "a", &[1, 1]);
    let (score, allowance, _) = ordered(&ev);
    assert_eq!((score, allowance), (4, 0.0));
    // Disordered (disrupted) units read the second column: 9+ rally and full move.
    let units = [
        (
            "a",
            0,
            "Inf",
            "Raw",
            600.0,
            250.0,
            0.0,
            ", formation: Some(Column), bases: Some(3), disordered: true",
        ),
        ("e", 1, "Inf", "Trained", 600.0, 800.0, 180.0, ""),
    ];
    let mut b = bbb(&units, "", "");
    let ev = activate(&mut b, "a", &[4, 4]);
    assert_eq!(ordered(&ev).1, 12.0);
    assert!(
        ev.iter().any(|e| matches!(e, Event::Steadied { .. })),
        "rallied"
    );
    // 0-1 disordered: lose a base and retire a full move. The score needs penalties: a marsh
    // -1, militia -1, fragile (disordered) -1.
    let marsh = "(id: \"m\", kind: Marsh, name: \"Bog\", points: [(500, 150), (700, 150), (700, 700), (500, 700)]),";
    let units = [
        (
            "a",
            0,
            "Inf",
            "Raw",
            600.0,
            600.0,
            0.0,
            ", formation: Some(Column), bases: Some(3), disordered: true, flags: [Militia, Fragile]",
        ),
        ("e", 1, "Inf", "Trained", 300.0, 880.0, 180.0, ""),
    ];
    let mut b = bbb(&units, marsh, "");
    let ev = activate(&mut b, "a", &[1, 1]);
    // 2 + 1 (column) - 1 (marsh) - 1 (militia) - 1 (fragile, disordered) = 0.
    assert_eq!(ordered(&ev).0, 0);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Losses { figures: 1, .. })),
        "{ev:?}"
    );
    assert!(
        ev.iter().any(|e| matches!(e, Event::Recoiled { .. })),
        "retires"
    );
    // Good order at -1 or less: disrupted and retire a full move; disordered: routed.
    let units = [
        (
            "a",
            0,
            "Inf",
            "Raw",
            600.0,
            250.0,
            0.0,
            ", bases: Some(3), flags: [Militia, Passive]",
        ),
        ("e", 1, "Inf", "Trained", 600.0, 800.0, 180.0, ""),
    ];
    let mut b = bbb(&units, marsh, "");
    let ev = activate(&mut b, "a", &[1, 1]);
    // 2 - 1 marsh - 1 militia - 1 passive - 1 unsupported line = -2.
    assert_eq!(ordered(&ev).0, -2);
    assert!(ev.iter().any(|e| matches!(e, Event::Disordered { .. })));
    let units = [
        (
            "a",
            0,
            "Inf",
            "Raw",
            600.0,
            250.0,
            0.0,
            ", bases: Some(3), flags: [Militia, Fragile], disordered: true",
        ),
        ("e", 1, "Inf", "Trained", 600.0, 800.0, 180.0, ""),
    ];
    let mut b = bbb(&units, marsh, "");
    let ev = activate(&mut b, "a", &[1, 1]);
    assert!(
        ev.iter().any(|e| matches!(e, Event::Destroyed { .. })),
        "routed: {ev:?}"
    );
}

#[test]
fn a_good_roll_recovers_a_base_by_quality() {
    let units = |class: &'static str| -> [Line<'static>; 2] {
        [
            ("a", 0, "Inf", class, 600.0, 250.0, 0.0, ", bases: Some(3)"),
            ("e", 1, "Inf", "Trained", 600.0, 800.0, 180.0, ""),
        ]
    };
    // 10 (11 - 1 unsupported): Trained or Veteran may recover; Raw may not.
    for (class, may) in [("Raw", false), ("Trained", true), ("Veteran", true)] {
        let u = units(class);
        let mut b = bbb(&u, "", "");
        // Lose a base first: scenario bases are the strength, so take one off by a roll.
        b.units_mut()
            .iter_mut()
            .find(|x| x.id == id("a"))
            .unwrap()
            .extra
            .strength = 4;
        activate(&mut b, "a", &[5, 6]);
        let r = b.execute(Command::Recover { unit: id("a") });
        assert_eq!(r.is_ok(), may, "{class}: {r:?}");
        if may {
            assert_eq!(b.unit(&id("a")).unwrap().stands.len(), 4);
        }
    }
}

#[test]
fn movement_penalties_zones_and_formations() {
    let wood = "(id: \"w\", kind: Woods, name: \"Wood\", points: [(500, 300), (700, 300), (700, 500), (500, 500)]),";
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "c",
            0,
            "Cav",
            "Trained",
            200.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        ("e", 1, "Inf", "Trained", 1000.0, 800.0, 180.0, ""),
    ];
    // Difficult terrain: -3" for foot: 12 - 3 = 9" into the wood.
    let mut b = bbb(&units, wood, "");
    activate(&mut b, "a", &[6, 6]);
    let e = refusal(&mut b, mv("a", vec![Step::Advance(10.0)]));
    assert_eq!(kind_of(&e), Ok(Refusal::BeyondAllowance { more: 12.0 }));
    // The penalty is named in the words only.
    assert!(e.to_string().contains("difficult terrain"), "{e}");
    b.execute(mv("a", vec![Step::Advance(8.5)]))
        .expect("9\" less the wood");
    // Outside the front arc: -6" (a sidestep).
    let mut b = bbb(&units, "", "");
    activate(&mut b, "c", &[6, 6]);
    let e = refusal(&mut b, mv("c", vec![Step::Sidestep(13.0)]));
    assert!(
        matches!(kind_of(&e), Ok(Refusal::BeyondAllowance { .. })),
        "{e}"
    );
    // The penalty is named in the words only.
    assert!(e.to_string().contains("outside the front arc"), "{e}");
    b.execute(mv("c", vec![Step::Sidestep(12.0)]))
        .expect("18 - 6");
    // A formation change takes the full move; in depth only for Aggressive infantry.
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    let form = |f: Formation| Command::Form {
        unit: id("a"),
        formation: f,
        turn: 0.0,
    };
    assert_eq!(
        refused_as(&mut b, form(Formation::Deep)),
        Ok(Refusal::OnlyAggressiveInDepth)
    );
    b.execute(form(Formation::Column)).expect("into column");
    assert_eq!(
        refused_as(&mut b, mv("a", vec![Step::Advance(1.0)])),
        Ok(Refusal::BeyondAllowance { more: 0.0 })
    );
    // The 3" zone of control stops a move unless it assaults.
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 6.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    assert_eq!(
        refused_as(&mut b, mv("a", vec![Step::Advance(4.0)])),
        Ok(Refusal::EntersZoneOfControl)
    );
    b.execute(mv("a", vec![Step::ToContact(id("e"))]))
        .expect("assault");
    assert!(b.unit(&id("a")).unwrap().bound.charged);
}

#[test]
fn fire_sums_front_rank_bases_by_band_with_shifts_and_halvings() {
    // Four bases of infantry with battalion guns at 2" from a line in a village: 4 x 2.5 = 10
    // on the 9 column, one left for the village: the 6 column; disrupted halves it to 5: the 4
    // column, then left to 2.
    let village = "(id: \"v\", kind: Village, name: \"Leuthen\", points: [(450, 270), (750, 270), (750, 400), (450, 400)]),";
    let y = 200.0 + 30.0 + 2.0 * IN;
    let steady: [Line; 2] = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(4), flags: [BattalionGuns]",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            y,
            180.0,
            ", bases: Some(4)",
        ),
    ];
    let shaken: [Line; 2] = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(4), flags: [BattalionGuns], disordered: true",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            y,
            180.0,
            ", bases: Some(4)",
        ),
    ];
    let mut b = bbb(&steady, village, "");
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    b.script_dice(&[4, 4]);
    let ev = b.execute(fire("a", "e")).expect("fire");
    let (f, out) = salvo(&ev);
    assert_eq!(f.iter().filter(|x| x.contains("2.5")).count(), 4, "{f:?}");
    assert!(f.iter().any(|x| x == "Target in wood or village"), "{f:?}");
    assert_eq!(column(&ev), FireColumn::Headed(6.0), "{out}");
    // 8 on the 6 column: T, the target disrupted.
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Disordered { unit, .. } if unit == &id("e"))),
        "{out}"
    );
    let mut b = bbb(&shaken, village, "");
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    b.script_dice(&[4, 4]);
    let ev = b.execute(fire("a", "e")).expect("fire");
    let (f, out) = salvo(&ev);
    assert!(
        f.iter().any(|x| x.contains("halved: Firer disrupted")),
        "{f:?}"
    );
    assert_eq!(column(&ev), FireColumn::Headed(2.0), "{out}");
}

#[test]
fn fire_results_take_bases_disrupt_and_leave_the_firer_low() {
    // Heavy artillery at 2" (8) against infantry: the 6 column; 12 loses a base, and 12*
    // leaves the guns low.
    let units = [
        ("g", 0, "HvA", "Trained", 600.0, 200.0, 0.0, ""),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 2.0 * IN,
            180.0,
            ", bases: Some(4)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    b.script_dice(&[6, 6]);
    let ev = b.execute(fire("g", "e")).expect("fire");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Losses { figures: 1, .. })),
        "{ev:?}"
    );
    let e = b.unit(&id("e")).unwrap();
    assert!(e.status.disordered);
    assert_eq!(e.stands.len(), 3);
    assert_eq!(b.unit(&id("g")).unwrap().status.ammo, Ammo::Low);
    // Artillery as target: R/T/V silence it; a base lost reduces it, two destroy it.
    let units = [
        ("a", 0, "HvA", "Trained", 600.0, 200.0, 0.0, ""),
        (
            "t",
            1,
            "FA",
            "Trained",
            600.0,
            200.0 + 30.0 + 2.0 * IN,
            180.0,
            "",
        ),
    ];
    let mut b = bbb(&units, "", "");
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    // 8 on the 6 column: 7 is R.
    b.script_dice(&[4, 3]);
    b.execute(fire("a", "t")).expect("fire");
    assert!(own(b.unit(&id("t")).unwrap()).silenced);
    let mut b = bbb(&units, "", "");
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    b.script_dice(&[5, 5]);
    b.execute(fire("a", "t")).expect("fire");
    assert_eq!(b.unit(&id("t")).unwrap().status.hits, 1, "reduced");
}

#[test]
fn defensive_fire_halts_assaults_by_quality() {
    // Raw infantry assault a line 5" away; the defenders' fire on the 6 column (3 bases x 2)
    // throws 7: R, which halts Raw.
    for (class, halted) in [("Raw", true), ("Trained", false)] {
        let units = [
            ("a", 0, "Inf", class, 600.0, 200.0, 0.0, ", bases: Some(3)"),
            (
                "e",
                1,
                "Inf",
                "Trained",
                600.0,
                200.0 + 30.0 + 5.0 * IN,
                180.0,
                ", bases: Some(3)",
            ),
        ];
        let mut b = bbb(&units, "", "");
        activate(&mut b, "a", &[6, 6]);
        b.execute(mv("a", vec![Step::ToContact(id("e"))]))
            .expect("assault");
        to_phase(&mut b, 0, DEFENSIVE_FIRE);
        b.script_dice(&[4, 3, 3, 3]);
        b.execute(fire("e", "a")).expect("defensive fire");
        assert_eq!(b.unit(&id("a")).unwrap().bound.halted, halted, "{class}");
        if halted {
            // Halted, it stops half an inch short and may still fire (ruling defensive_fire).
            to_phase(&mut b, 0, OFFENSIVE_FIRE);
            b.script_dice(&[1, 1]);
            b.execute(fire("a", "e")).expect("a halted unit fires");
        }
        to_phase(&mut b, 0, ASSAULT);
        let r = b.execute(fight("a", "e"));
        assert_eq!(r.is_err(), halted, "{class}: {r:?}");
    }
}

#[test]
fn an_assault_reads_the_difference_on_the_table() {
    // Veteran Aggressive grenadiers in depth (4 bases) against Raw Fragile infantry (2 bases):
    // +2 (2:1) +1 veteran +1 aggressive +1 in depth = +5; -1 raw -1 fragile = -2.
    let units = [
        (
            "a",
            0,
            "Inf",
            "Veteran",
            600.0,
            200.0,
            0.0,
            ", bases: Some(4), flags: [Aggressive], formation: Some(Deep)",
        ),
        (
            "e",
            1,
            "Inf",
            "Raw",
            600.0,
            200.0 + 30.0 + 2.0 * IN,
            180.0,
            ", bases: Some(2), flags: [Fragile]",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::ToContact(id("e"))]))
        .expect("assault");
    to_phase(&mut b, 0, ASSAULT);
    // 1 + 5 = 6 against 6 - 2 = 4: +2, defender retires 3", both disrupted, attacker occupies.
    b.script_dice(&[1, 6]);
    let ev = b.execute(fight("a", "e")).expect("assault");
    let (diff, words, af) = ev
        .iter()
        .find_map(|e| match e {
            Event::Assault {
                difference,
                outcome,
                attacker_roll,
                ..
            } => Some((
                *difference,
                outcome.clone(),
                attacker_roll
                    .factors
                    .iter()
                    .map(|f| format!("{:+} {}", f.value, f.name))
                    .collect::<Vec<_>>(),
            )),
            _ => None,
        })
        .expect("an assault");
    assert_eq!(diff, 2, "{af:?} {words}");
    // The defender retires 3"; the attacker occupies the ground it left.
    let retired = ev
        .iter()
        .find_map(|e| match e {
            Event::Recoiled { unit, from, to, .. } if unit == &id("e") => {
                Some(from.centre.dist(to.centre) / IN)
            }
            _ => None,
        })
        .expect("the defender retires");
    assert!((retired - 3.0).abs() < 0.05, "{retired}\" {words}");
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::Recoiled { unit, from, to, voluntary: true }
            if unit == &id("a") && to.centre.y > from.centre.y)
        ),
        "the attacker advances to occupy: {ev:?}"
    );
    assert!(b.unit(&id("a")).unwrap().status.disordered);
    assert!(b.unit(&id("e")).unwrap().status.disordered);
    // A 0 refights at once: both lose a base each round.
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::ToContact(id("e"))]))
        .expect("assault");
    to_phase(&mut b, 0, ASSAULT);
    // Round 1: 1 + 5 = 6 against 6 - 2 = 4? use equal scores: 1 + 5 against 8? defender max
    // 6 - 2 = 4, so a 0 needs the attacker at 4: impossible with +5; the refight is exercised
    // by the table test. Here: -7 or less cannot happen either; check +7: 6 + 5 = 11 against
    // 1 - 2 = -1: +12: defender loses 2 bases (destroyed).
    b.script_dice(&[6, 1]);
    let ev = b.execute(fight("a", "e")).expect("assault");
    assert!(
        ev.iter().any(|e| matches!(e, Event::Destroyed { .. })),
        "{ev:?}"
    );
}

#[test]
fn generals_nearer_the_enemy_fall_and_return() {
    let units = [
        ("g", 0, "Gen", "Trained", 600.0, 600.0, 0.0, ""),
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            150.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            700.0,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    to_phase(&mut b, 0, DEFENSIVE_FIRE);
    assert!(
        b.unit(&id("g")).unwrap().status.removed,
        "a casualty after the generals' step"
    );
    let lost_now = |b: &Game| losses_by_turn(b).last().map(|row| row[0]);
    assert_eq!(lost_now(&b), Some(1), "fallen, he counts as lost");
    to_phase(&mut b, 0, GENERALS);
    let g = b.unit(&id("g")).unwrap();
    assert!(g.alive(), "returned");
    assert!(g.base.distance(&b.unit(&id("a")).unwrap().base) <= 6.0 * IN);
    assert_eq!(lost_now(&b), Some(0), "back on the table, he was not lost");
}

#[test]
fn a_general_returns_where_he_will_not_fall_again_at_once() {
    let units = [
        ("g", 0, "Gen", "Trained", 600.0, 600.0, 0.0, ""),
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            150.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            700.0,
            180.0,
            ", bases: Some(2)",
        ),
        // An enemy close behind the unit nearest where he falls: the place behind it is
        // nearer this enemy than his own.
        (
            "r",
            1,
            "Inf",
            "Trained",
            600.0,
            80.0,
            0.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    to_phase(&mut b, 0, DEFENSIVE_FIRE);
    assert!(b.unit(&id("g")).unwrap().status.removed, "fallen");
    to_phase(&mut b, 0, GENERALS);
    let g = b.unit(&id("g")).unwrap().clone();
    assert!(g.alive(), "returned");
    let a = b.unit(&id("a")).unwrap().base;
    assert!(g.base.distance(&a) <= 6.0 * IN);
    assert!(
        g.base.centre.y > a.centre.y - 1.0,
        "beside the unit, not behind it: {:?}",
        g.base.centre
    );
    assert!(!rules(&b).general_nearer_enemy(&b, &g, 0.0));
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    assert!(b.unit(&id("g")).unwrap().alive(), "and he stays");
}

#[test]
fn objectives_decide_at_the_turn_limit() {
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            300.0,
            300.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            900.0,
            700.0,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let extra = "objectives: [(at: (300, 360), owner: 1, name: \"Hill\"), (at: (300, 200), owner: 0, name: \"Farm\")], turn_limit: 1,";
    let text = extra.replace("turn_limit: 1,", "");
    let mut b = bbb(&units, "", &text);
    b.turn_limit = 1;
    for _ in 0..20 {
        if b.is_over() {
            break;
        }
        b.execute(Command::EndPhase).expect("end");
    }
    let over = b
        .log
        .iter()
        .find_map(|e| match e {
            Event::GameOver { winner, reason, .. } => Some((*winner, reason.clone())),
            _ => None,
        })
        .expect("game over");
    assert_eq!(over.0, Some(0), "{}", over.1);
    assert!(over.1.contains("2 of 2 objectives"), "{}", over.1);
}

#[test]
fn bad_units_are_refused_with_the_reason() {
    let text = std::fs::read_to_string("scenarios/bbb_tutorial.ron").unwrap();
    for (from, to, why) in [
        ("bases: Some(4)),", "bases: Some(0)),", "from 1 to 12 bases"),
        (
            "type: \"HC\", class: Veteran,",
            "type: \"HC\", class: Veteran, formation: Some(Deep),",
            "only infantry may stand in depth",
        ),
        (
            "type: \"HC\", class: Veteran,",
            "type: \"HC\", class: Veteran, flags: [Devastating],",
            "does not apply",
        ),
        (
            "class: Veteran, flags: [Devastating",
            "class: Superior, flags: [Devastating",
            "Raw, Trained or Veteran",
        ),
    ] {
        let bad = text.replacen(from, to, 1);
        assert_ne!(bad, text, "{from}");
        let e = format!("{:?}", scenario::parse(&bad, "inline").unwrap_err());
        assert!(e.contains(why), "{why}: {e}");
    }
}

#[test]
fn every_bbb_scenario_plays_to_a_result_and_replays() {
    for f in [
        "scenarios/bbb_tutorial.ron",
        "scenarios/bbb_default.ron",
        "scenarios/bbb_rossbach.ron",
    ] {
        let mut b = scenario::load(std::path::Path::new(f)).expect(f);
        AutoPlayer::new(7).play(&mut b, 2000, 12);
        assert!(b.is_over(), "{f}: no result");
        // The commands, written as an order file and run as `volley run` runs them, replay
        // to the same events.
        let text = format!(
            "[\n{}]\n",
            b.commands
                .iter()
                .map(|c| format!("    {},\n", ron::to_string(c).unwrap()))
                .collect::<String>()
        );
        let cmds = volley::rules::save::parse_orders(&text, f).expect("orders");
        let mut again = scenario::load(std::path::Path::new(f)).expect(f);
        let (_, err) = volley::cli::run_orders(&mut again, cmds);
        assert_eq!(err, None, "{f}");
        assert!(again.is_over(), "{f}: no result through the order file");
        assert_eq!(again.log, b.log, "{f}: replay differs");
    }
}

#[test]
fn guns_limber_manhandle_and_pivot() {
    let units = [
        ("g", 0, "FA", "Trained", 600.0, 200.0, 0.0, ""),
        ("e", 1, "Inf", "Trained", 600.0, 850.0, 180.0, ""),
    ];
    // Unlimbered guns are manhandled 3" at most.
    let mut b = bbb(&units, "", "");
    activate(&mut b, "g", &[6, 6]);
    let e = refused(&mut b, mv("g", vec![Step::Advance(4.0)]));
    assert!(e.contains("manhandled"), "{e}");
    b.execute(mv("g", vec![Step::Advance(3.0)]))
        .expect("manhandle");
    // Limbering takes half the move (3"), leaving 3" to go.
    let mut b = bbb(&units, "", "");
    activate(&mut b, "g", &[6, 6]);
    b.execute(Command::Limber { unit: id("g") })
        .expect("limber");
    assert_eq!(
        refused_as(&mut b, mv("g", vec![Step::Advance(3.5)])),
        Ok(Refusal::BeyondAllowance { more: 3.0 })
    );
    b.execute(mv("g", vec![Step::Advance(3.0)]))
        .expect("limbered move");
    // A pivot (Form with a turn) takes half the move; the guns then fire at half.
    let units = [
        ("g", 0, "FA", "Trained", 600.0, 200.0, 0.0, ""),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0 + 30.0 + 2.0 * IN,
            200.0,
            270.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "g", &[6, 6]);
    b.execute(Command::Form {
        unit: id("g"),
        formation: Formation::Line,
        turn: 90.0,
    })
    .expect("pivot");
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    b.script_dice(&[4, 4]);
    let ev = b.execute(fire("g", "e")).expect("fire");
    let (f, _) = salvo(&ev);
    assert!(
        f.iter()
            .any(|x| x.contains("halved: Artillery pivoted or unlimbered")),
        "{f:?}"
    );
}

#[test]
fn evading_by_arm_distance_and_disruption() {
    // Light cavalry 10" from infantry that advanced: it may evade; heavy cavalry may not evade
    // light cavalry.
    let units = [
        (
            "i",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "l",
            0,
            "LC",
            "Trained",
            900.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "h",
            1,
            "HC",
            "Trained",
            900.0,
            200.0 + 30.0 + 12.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
        (
            "c",
            1,
            "LC",
            "Trained",
            600.0,
            200.0 + 30.0 + 12.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    let evade = |u: &str, from: &str, d: f32| Command::Evade {
        unit: id(u),
        from: id(from),
        distance: d,
    };
    assert_eq!(
        refused_as(&mut b, evade("c", "i", 18.0)),
        Ok(Refusal::EnemyHasNotMoved)
    );
    activate(&mut b, "i", &[6, 6]);
    b.execute(mv("i", vec![Step::Advance(2.0)]))
        .expect("advance");
    let e = refusal(&mut b, evade("c", "i", 5.0));
    assert_eq!(kind_of(&e), Ok(Refusal::EvadeDistanceOutsideRange));
    // The distances are in the words only.
    assert!(e.to_string().contains("between 9.0"), "{e}");
    b.execute(evade("c", "i", 9.0))
        .expect("light cavalry evades infantry");
    assert!(
        b.unit(&id("c")).unwrap().status.disordered,
        "evading cavalry is disrupted"
    );
    activate(&mut b, "l", &[6, 6]);
    b.execute(mv("l", vec![Step::Advance(2.0)]))
        .expect("advance");
    assert_eq!(
        refused_as(&mut b, evade("h", "l", 15.0)),
        Ok(Refusal::MayNotEvade)
    );
}

#[test]
fn the_minimum_move_is_always_three_inches() {
    // A half move (6") sidestepping outside the front arc (-6") may still go 3".
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        ("e", 1, "Inf", "Trained", 600.0, 850.0, 180.0, ""),
    ];
    let mut b = bbb(&units, "", "");
    assert_eq!(ordered(&activate(&mut b, "a", &[3, 3])).1, 6.0);
    assert!(matches!(
        refused_as(&mut b, mv("a", vec![Step::Sidestep(3.5)])),
        Ok(Refusal::BeyondAllowance { .. })
    ));
    b.execute(mv("a", vec![Step::Sidestep(3.0)]))
        .expect("the minimum move");
}

#[test]
fn two_attackers_on_one_defender_both_fight() {
    let y = 200.0 + 30.0 + 2.0 * IN;
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            550.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "b",
            0,
            "Inf",
            "Trained",
            650.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            y,
            180.0,
            ", bases: Some(4)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::ToContact(id("e"))]))
        .expect("a");
    activate(&mut b, "b", &[6, 6]);
    b.execute(mv("b", vec![Step::ToContact(id("e"))]))
        .expect("b");
    to_phase(&mut b, 0, ASSAULT);
    // The defender (4 bases to 2: +2) throws the first back (1 against 4 + 2: -5, the
    // attacker retires) and stands to meet the second (3 against 3 + 2: -2).
    b.script_dice(&[1, 4, 3, 3]);
    b.execute(Command::EndPhase).expect("both assaults fought");
    let fights = b
        .log
        .iter()
        .filter(|e| matches!(e, Event::Assault { .. }))
        .count();
    assert_eq!(fights, 2);
}

#[test]
fn a_river_takes_the_whole_move_and_stops_guns_but_not_a_bridge_in_column() {
    let river =
        "(id: \"r\", kind: River, name: \"Saale\", points: [(0, 300), (1220, 300)], width: 10),";
    let bridge = "(id: \"br\", kind: Bridge, name: \"Weissenfels bridge\", points: [(600, 280), (600, 320)], width: 40),";
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            250.0,
            0.0,
            ", bases: Some(1)",
        ),
        (
            "g",
            0,
            "FA",
            "Trained",
            300.0,
            250.0,
            0.0,
            ", limbered: true",
        ),
        ("e", 1, "Inf", "Trained", 600.0, 850.0, 180.0, ""),
    ];
    let mut b = bbb(&units, river, "");
    activate(&mut b, "g", &[6, 6]);
    assert_eq!(
        refused_as(&mut b, mv("g", vec![Step::Advance(4.0)])),
        Ok(Refusal::RiverImpassableToArtillery)
    );
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::Advance(4.0)]))
        .expect("across the river");
    assert_eq!(
        refused_as(&mut b, mv("a", vec![Step::Advance(1.0)])),
        Ok(Refusal::BeyondAllowance { more: 0.0 })
    );
    // A column on the bridge crosses as if it were not there.
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            250.0,
            0.0,
            ", bases: Some(1), formation: Some(Column)",
        ),
        ("e", 1, "Inf", "Trained", 600.0, 850.0, 180.0, ""),
    ];
    let mut b = bbb(&units, &format!("{river}{bridge}"), "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::Advance(4.0)]))
        .expect("over the bridge");
    b.execute(mv("a", vec![Step::Advance(4.0)]))
        .expect("and on");
}

fn rules(b: &Game) -> &volley::rules::ruleset::bbb::Bbb7yw {
    match &b.rules {
        volley::rules::ruleset::AnyRuleset::Bbb7yw(r) => r,
        _ => panic!("not BBB"),
    }
}

/// The shifts and halvings of "a" (side 0) firing at "e" (side 1), 2" apart, in offensive fire.
fn fire_mods(
    a: &str,
    e: &str,
    e_facing: f32,
    terrain: &str,
    tweak: impl Fn(&mut Game),
) -> Vec<String> {
    // "gun..." makes the firer heavy artillery with the rest of `a` as its fields.
    let y = 200.0 + 30.0 + 2.0 * IN;
    let (ta, ua) = match a.strip_prefix("gun") {
        Some(rest) => ("HvA", rest.to_string()),
        None => ("Inf", format!(", bases: Some(2){a}")),
    };
    let ue = format!(", bases: Some(2){e}");
    let lines: [Line; 2] = [
        ("a", 0, ta, "Trained", 600.0, 200.0, 0.0, &ua),
        ("e", 1, "Inf", "Trained", 600.0, y, e_facing, &ue),
    ];
    let mut b = bbb(&lines, terrain, "");
    tweak(&mut b);
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    let f = rules(&b).fire_setup(&b, &id("a"), &id("e")).expect("fire");
    f.shifts
        .iter()
        .map(|s| format!("{:+} {}", s.value, s.name))
        .chain(f.halvings.iter().map(|h| h.name.clone()))
        .collect()
}

#[test]
fn every_fire_shift_and_halving_applies() {
    let area = |kind: &str, more: &str| {
        format!(
            "(id: \"t\", kind: {kind}, name: \"Cover\", points: [(500, 250), (700, 250), (700, 330), (500, 330)]{more}),"
        )
    };
    let none = |_: &mut Game| {};
    let has = |v: &[String], s: &str| v.iter().any(|x| x == s);
    let f = fire_mods(
        ", flags: [Ragged, Devastating, EliteCompanies]",
        ", flags: [Inept]",
        180.0,
        "",
        none,
    );
    for s in [
        "-1 Ragged volleys (R)",
        "+1 Devastating volleys (D)",
        "+1 With elite companies (EL)",
        "+1 Target tactically inept (T)",
    ] {
        assert!(has(&f, s), "{s}: {f:?}");
    }
    let f = fire_mods("", "", 180.0, &area("Town", ""), none);
    assert!(has(&f, "-2 Target in town or entrenched"), "{f:?}");
    let f = fire_mods("", "", 180.0, &area("Fortification", ""), none);
    assert!(has(&f, "-2 Target in town or entrenched"), "{f:?}");
    let f = fire_mods(
        "",
        "",
        180.0,
        &area("Fortification", ", fortified: true"),
        none,
    );
    assert!(has(&f, "-3 Target in a fort"), "{f:?}");
    let f = fire_mods("", "", 180.0, &area("Woods", ""), none);
    assert!(has(&f, "-1 Target in wood or village"), "{f:?}");
    let exposed = "+1 Target crossing a bridge, in march column, limbered or flanked";
    let f = fire_mods("", ", formation: Some(Column)", 180.0, "", none);
    assert!(has(&f, exposed), "column: {f:?}");
    let f = fire_mods("", "", 90.0, "", none);
    assert!(has(&f, exposed), "flanked: {f:?}");
    let f = fire_mods("", ", disordered: true", 180.0, "", none);
    assert!(
        !has(&f, "halved: Firer disrupted"),
        "the target's state halves nothing"
    );
    let f = fire_mods("", "", 180.0, "", |b| {
        b.units_mut()[0].status.ammo = Ammo::Low;
    });
    assert!(has(&f, "halved: Firer low on ammunition"), "{f:?}");
    let f = fire_mods("gun, hits: 1", "", 180.0, "", none);
    assert!(has(&f, "halved: Reduced artillery"), "{f:?}");
}

/// Both sides' assault modifiers when "a" (side 0) has moved into contact with "e".
fn assault_mods(
    a: (&str, &str, &str),
    e: (&str, &str, &str),
    e_facing: f32,
    terrain: &str,
) -> (Vec<String>, Vec<String>) {
    let y = 200.0 + 30.0 + 2.0 * IN;
    let lines: [Line; 2] = [
        ("a", 0, a.0, a.1, 600.0, 200.0, 0.0, a.2),
        ("e", 1, e.0, e.1, 600.0, y, e_facing, e.2),
    ];
    let mut b = bbb(&lines, terrain, "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::ToContact(id("e"))]))
        .expect("assault");
    to_phase(&mut b, 0, ASSAULT);
    let (_, _, fa, fd) = rules(&b)
        .assault_setup(&b, &id("a"), &id("e"))
        .expect("assault setup");
    let n = |f: Vec<volley::rules::command::Factor>| {
        f.iter()
            .map(|x| format!("{:+} {}", x.value, x.name))
            .collect()
    };
    (n(fa), n(fd))
}

#[test]
fn every_assault_modifier_applies() {
    let has = |v: &[String], s: &str| v.iter().any(|x| x.starts_with(s));
    let (a, d) = assault_mods(
        ("HC", "Veteran", ", bases: Some(3), flags: [Lancer]"),
        (
            "Inf",
            "Raw",
            ", bases: Some(2), flags: [Fragile], disordered: true",
        ),
        180.0,
        "",
    );
    for s in [
        "+1 Heavy cavalry",
        "+1 Veteran",
        "+1 Lancers against infantry",
        "+1 Bases 3:2",
    ] {
        assert!(has(&a, s), "{s}: {a:?}");
    }
    for s in ["-1 Raw", "-1 Fragile", "-1 Disrupted"] {
        assert!(has(&d, s), "{s}: {d:?}");
    }
    let (a, _) = assault_mods(
        ("LC", "Trained", ", bases: Some(2)"),
        ("Inf", "Trained", ", bases: Some(2)"),
        90.0,
        "",
    );
    assert!(has(&a, "+3 Enemy outflanked"), "{a:?}");
    assert!(has(&a, "-1 Light or irregular cavalry"), "{a:?}");
    let cover = |kind: &str, more: &str| {
        format!(
            "(id: \"t\", kind: {kind}, name: \"Cover\", points: [(500, 268), (700, 268), (700, 330), (500, 330)]{more}),"
        )
    };
    let inf = ("Inf", "Trained", ", bases: Some(2)");
    for (t, want) in [
        (
            cover("Village", ""),
            "-1 Attacking into village, wood or marsh",
        ),
        (cover("Town", ""), "-2 Attacking into town"),
        (
            cover("Fortification", ", fortified: true"),
            "-3 Attacking a fort",
        ),
        (
            cover("Hill", ", level: 1"),
            "-1 Crossed a stream within 6\", or attacking up slope",
        ),
        (
            cover("Hill", ", level: 1, steep: true"),
            "-2 Attacking up a steep slope",
        ),
    ] {
        let (a, _) = assault_mods(inf, inf, 180.0, &t);
        assert!(has(&a, want), "{want}: {a:?}");
    }
    // Aggressive counts for the attacker only; in depth for either.
    let (a, d) = assault_mods(
        ("Inf", "Trained", ", bases: Some(2), flags: [Aggressive]"),
        (
            "Inf",
            "Trained",
            ", bases: Some(4), flags: [Aggressive], formation: Some(Deep)",
        ),
        180.0,
        "",
    );
    assert!(has(&a, "+1 Aggressive attacker"), "{a:?}");
    assert!(!has(&d, "+1 Aggressive attacker"), "{d:?}");
    assert!(has(&d, "+1 In depth"), "{d:?}");
    assert!(has(&d, "+2 Bases 2:1"), "{d:?}");
}

#[test]
fn spent_units_take_minus_two_in_command_and_assault() {
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 2.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    // Two of four bases lost: Spent (ruling spent: half or more).
    b.units_mut()[0].extra.strength = 4;
    let a = b.units[0].clone();
    let e = b.units[1].clone();
    let r = rules(&b);
    assert!(r.spent(&a));
    let (f, _) = r.command_modifiers(&b, &a);
    assert!(
        f.iter().any(|x| x.value == -2 && x.name == "Spent"),
        "{f:?}"
    );
    let f = r.assault_modifiers(&b, &a, &e, true);
    assert!(
        f.iter().any(|x| x.value == -2 && x.name == "Spent"),
        "{f:?}"
    );
    b.units_mut()[0].extra.strength = 3;
    assert!(
        !rules(&b).spent(&b.units[0].clone()),
        "1 of 3 lost is less than half"
    );
    // Reduced artillery is reduced, not Spent (ruling spent).
    let guns = [
        ("g", 0, "FA", "Trained", 600.0, 200.0, 0.0, ", hits: 1"),
        ("e", 1, "Inf", "Trained", 600.0, 800.0, 180.0, ""),
    ];
    let b = bbb(&guns, "", "");
    let g = b.units[0].clone();
    assert!(rules(&b).reduced(&g) && !rules(&b).spent(&g));
}

#[test]
fn sight_slopes_woods_and_friends() {
    let y = 200.0 + 30.0 + 8.0 * IN;
    let foot = |more: &'static str| -> [Line<'static>; 3] {
        [
            ("a", 0, "HvA", "Trained", 600.0, 200.0, 0.0, more),
            (
                "f",
                0,
                "Inf",
                "Trained",
                600.0,
                320.0,
                0.0,
                ", bases: Some(1)",
            ),
            (
                "e",
                1,
                "Inf",
                "Trained",
                600.0,
                y,
                180.0,
                ", bases: Some(2)",
            ),
        ]
    };
    let try_fire = |b: &mut Game| {
        to_phase(b, 0, OFFENSIVE_FIRE);
        rules(b)
            .fire_setup(b, &id("a"), &id("e"))
            .map(|_| ())
            .map_err(|e| kind_of::<Refusal>(&e))
    };
    // A friend in the way blocks...
    let mut b = bbb(&foot(""), "", "");
    assert_eq!(
        try_fire(&mut b),
        Err(Ok(Refusal::CannotFireAt(NoFire::UnitInTheWay)))
    );
    // ...unless the guns stand on a hill above it with a 3" gap either side of it.
    let hill = "(id: \"h\", kind: Hill, name: \"Janushügel\", points: [(500, 150), (700, 150), (700, 240), (500, 240)], level: 1),";
    let mut b = bbb(&foot(""), hill, "");
    try_fire(&mut b).expect("over the friend from the hill");
    // ...but not over a friend within 3" of the guns (ruling hill_fire_over).
    let mut near = foot("");
    near[1].5 = 260.0;
    let mut b = bbb(&near, hill, "");
    assert_eq!(
        try_fire(&mut b),
        Err(Ok(Refusal::CannotFireAt(NoFire::UnitInTheWay)))
    );
    // A slope between, higher than both, blocks.
    let ridge = "(id: \"r\", kind: Hill, name: \"Ridge\", points: [(500, 350), (700, 350), (700, 400), (500, 400)], level: 1),";
    let units: [Line; 2] = [
        ("a", 0, "HvA", "Trained", 600.0, 200.0, 0.0, ""),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            y,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, ridge, "");
    assert_eq!(
        try_fire(&mut b),
        Err(Ok(Refusal::CannotFireAt(NoFire::Slope)))
    );
    // A wood blocks sight more than 3" inside it.
    let wood = "(id: \"w\", kind: Woods, name: \"Wood\", points: [(500, 260), (700, 260), (700, 400), (500, 400)]),";
    let mut b = bbb(&units, wood, "");
    assert_eq!(
        try_fire(&mut b),
        Err(Ok(Refusal::CannotFireAt(NoFire::Cover)))
    );
}

#[test]
fn horse_artillery_moves_unlimbers_and_fires_at_half() {
    let units = [
        (
            "g",
            0,
            "HA",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", limbered: true",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 11.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "g", &[6, 6]);
    b.execute(mv("g", vec![Step::Advance(6.0)]))
        .expect("a full move");
    b.execute(Command::Unlimber { unit: id("g") })
        .expect("unlimbers at the end of its move");
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    let f = rules(&b).fire_setup(&b, &id("g"), &id("e")).expect("fires");
    assert!(
        f.halvings
            .iter()
            .any(|h| h.name == "halved: Horse artillery moved up to 6\" and unlimbered"),
        "{:?}",
        f.halvings
    );
    // Foot artillery that moved may not fire.
    let units = [
        ("g", 0, "FA", "Trained", 600.0, 200.0, 0.0, ""),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 8.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "g", &[6, 6]);
    b.execute(mv("g", vec![Step::Advance(1.0)]))
        .expect("manhandled");
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    assert_eq!(
        refused_as(&mut b, fire("g", "e")),
        Ok(Refusal::MovedAndMayNotFire)
    );
}

#[test]
fn the_objectives_are_held_by_a_unit_within_3_inches_with_no_enemy_within_3() {
    // BBB's scenario rule: a side holds an objective with a unit within 3" and no enemy within
    // 3"; untouched, each stays with its starting owner; taken, with its last holder.
    let mut b = volley::rules::save::load_any(std::path::Path::new("scenarios/bbb_default.ron"))
        .expect("bbb_default");
    let held = |b: &Game| -> Vec<(String, usize)> {
        b.objectives()
            .into_iter()
            .map(|o| (o.name, o.holder.expect("held")))
            .collect()
    };
    assert_eq!(
        held(&b),
        vec![("Lohdorf".to_string(), 1), ("Weinberg".to_string(), 0)]
    );
    // A Prussian brigade standing on Lohdorf, no Austrian near: Prussia holds it, and takes it
    // for good once a command is done there.
    let at = b.objectives()[0].at;
    let prussian = id("pr-inf1");
    let was = b.unit(&prussian).unwrap().base;
    if let Some(u) = b.units_mut().iter_mut().find(|u| u.id == prussian) {
        u.base.centre = at;
    }
    assert_eq!(held(&b)[0], ("Lohdorf".to_string(), 0));
    b.execute(Command::EndPhase).expect("the step ends");
    assert!(
        b.log.iter().any(|e| matches!(
            e,
            volley::rules::Event::ObjectiveHeld {
                objective: 0,
                side: 0
            }
        )),
        "Lohdorf changes hands"
    );
    // An Austrian brigade comes within 3" too: contested, it stays with its last holder,
    // Prussia (not the scenario's owner, Austria).
    let near = volley::rules::geometry::Pt::new(at.x + 30.0, at.y);
    let austrian = b
        .units
        .iter()
        .find(|u| u.side == 1 && u.troop == "Inf")
        .map(|u| (u.id.clone(), u.base))
        .expect("an Austrian brigade");
    if let Some(u) = b.units_mut().iter_mut().find(|u| u.id == austrian.0) {
        u.base.centre = near;
    }
    assert_eq!(held(&b)[0], ("Lohdorf".to_string(), 0));
    // Both leave it: it stays with Prussia, and counts for Prussia at the turn limit.
    for (who, base) in [(&prussian, was), (&austrian.0, austrian.1)] {
        if let Some(u) = b.units_mut().iter_mut().find(|u| &u.id == who) {
            u.base = base;
        }
    }
    assert_eq!(held(&b)[0], ("Lohdorf".to_string(), 0));
    let (winner, why) = rules(&b).result(&b);
    assert_eq!(winner, Some(0), "{why}");
    assert!(why.contains("2 of 2 objectives"), "{why}");
}

#[test]
fn no_move_passes_through_an_enemy_and_an_assault_meets_the_first_in_its_way() {
    // A brigade in contact with an enemy's front cannot walk through it (to its rear or flank).
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            230.0,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    assert_eq!(
        refused_as(&mut b, mv("a", vec![Step::Advance(4.0)])),
        Ok(Refusal::WouldPassThroughEnemy)
    );
    // A screen 2" ahead with guns 2" behind it: the assault meets the screen, not the guns.
    let screen = 200.0 + 30.0 + 2.0 * IN;
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "s",
            1,
            "Inf",
            "Trained",
            600.0,
            screen,
            180.0,
            ", bases: Some(2)",
        ),
        (
            "g",
            1,
            "FA",
            "Trained",
            600.0,
            screen + 30.0 + 2.0 * IN,
            180.0,
            "",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    assert_eq!(
        refused_as(&mut b, mv("a", vec![Step::ToContact(id("g"))])),
        Ok(Refusal::PassesEnemyBeforeContact)
    );
    b.execute(mv("a", vec![Step::ToContact(id("s"))]))
        .expect("the screen is the first enemy in its way");
    assert!(b.unit(&id("a")).unwrap().bound.charged);
}

#[test]
fn artillery_does_not_assault() {
    // Only infantry and cavalry move into contact (ruling artillery_assault).
    let units = [
        ("g", 0, "FA", "Trained", 600.0, 200.0, 0.0, ""),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 2.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "g", &[6, 6]);
    assert_eq!(
        refused_as(&mut b, mv("g", vec![Step::ToContact(id("e"))])),
        Ok(Refusal::ArtilleryDoesNotAssault)
    );
}

#[test]
fn retiring_guns_stop_at_a_river_that_foot_retire_across() {
    // "Retire move ignores all passable terrain"; "River: Impassable to Art.": the river runs
    // 2.75" behind the guns' centre; a 6" retire stops the guns on its bank.
    let river =
        "(id: \"r\", kind: River, name: \"Saale\", points: [(0, 330), (1220, 330)], width: 10),";
    let units = [
        ("g", 0, "FA", "Trained", 300.0, 400.0, 0.0, ""),
        (
            "a",
            0,
            "Inf",
            "Trained",
            800.0,
            400.0,
            0.0,
            ", bases: Some(2)",
        ),
        ("e", 1, "Inf", "Trained", 600.0, 850.0, 180.0, ""),
    ];
    let mut b = bbb(&units, river, "");
    let r = rules(&b).clone();
    let mut out = Vec::new();
    r.retire(&mut b, &mut out, &id("g"), 6.0, None, "a test")
        .expect("retire");
    r.retire(&mut b, &mut out, &id("a"), 6.0, None, "a test")
        .expect("retire");
    let g = b.unit(&id("g")).unwrap();
    assert!(g.alive());
    assert!(
        g.base.centre.y > 330.0 && g.base.centre.y < 400.0,
        "{:?}",
        g.base.centre
    );
    let a = b.unit(&id("a")).unwrap();
    assert!(a.base.centre.y < 330.0, "{:?}", a.base.centre);
}

#[test]
fn manhandled_horse_artillery_does_not_fire_in_offensive_fire() {
    // "Manhandle artillery = 3" - cannot fire in offensive fire": horse guns that move 2"
    // limbered, unlimber and are then manhandled half an inch may not fire.
    let units = [
        (
            "g",
            0,
            "HA",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", limbered: true",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 8.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "g", &[6, 6]);
    b.execute(mv("g", vec![Step::Advance(2.0)]))
        .expect("limbered");
    b.execute(Command::Unlimber { unit: id("g") })
        .expect("unlimbers");
    b.execute(mv("g", vec![Step::Advance(0.5)]))
        .expect("manhandled");
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    assert_eq!(
        refused_as(&mut b, fire("g", "e")),
        Ok(Refusal::MovedAndMayNotFire)
    );
}

#[test]
fn a_fire_result_disrupts_and_silences_guns() {
    // "R, T, V = Unit disrupted, Artillery Silenced": a T on a battery disrupts it (the -1 in
    // an assault, no evading) and silences it.
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "g",
            1,
            "FA",
            "Trained",
            600.0,
            200.0 + 30.0 + 2.0 * IN,
            180.0,
            "",
        ),
    ];
    let mut b = bbb(&units, "", "");
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    // 2 bases at 2": 4, the 4 column; 9 reads T.
    b.script_dice(&[4, 5]);
    let ev = b.execute(fire("a", "g")).expect("fire");
    let (_, words) = salvo(&ev);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Disordered { unit, .. } if unit == &id("g")))
            && ev.iter().any(
                |e| matches!(e.own(), Some(BbbEvent::Silenced { unit, silenced: true, .. }) if unit == &id("g"))
            ),
        "T: disrupted and silenced: {words}"
    );
    let g = b.unit(&id("g")).unwrap().clone();
    assert!(g.status.disordered && own(&g).silenced, "{words}");
    let a = b.unit(&id("a")).unwrap().clone();
    let f = rules(&b).assault_modifiers(&b, &g, &a, false);
    assert!(f.iter().any(|f| f.name == "Disrupted"), "{f:?}");
}

#[test]
fn a_column_fording_a_river_on_a_road_halts() {
    // "River: ... Other halt full move": the road's double pace does not carry a column over a
    // ford; the crossing takes the whole move.
    let terrain =
        "(id: \"r\", kind: River, name: \"Saale\", points: [(0, 300), (1220, 300)], width: 10),
        (id: \"road\", kind: Road, name: \"Road\", points: [(600, 0), (600, 900)], width: 40),";
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            250.0,
            0.0,
            ", bases: Some(1), formation: Some(Column)",
        ),
        ("e", 1, "Inf", "Trained", 300.0, 850.0, 180.0, ""),
    ];
    let mut b = bbb(&units, terrain, "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::Advance(4.0)]))
        .expect("fords the river");
    assert!(matches!(
        refused_as(&mut b, mv("a", vec![Step::Advance(1.0)])),
        Ok(Refusal::BeyondAllowance { .. })
    ));
}

#[test]
fn any_infantry_may_stand_in_depth_but_only_aggressive_moves_in_it() {
    // "Infantry (may move in Deep only if Aggressive)": a scenario may place a battalion in
    // depth; it may not move so, but may change formation.
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(4), formation: Some(Deep)",
        ),
        (
            "d",
            0,
            "Inf",
            "Trained",
            300.0,
            200.0,
            0.0,
            ", bases: Some(4), formation: Some(Deep), flags: [Aggressive]",
        ),
        ("e", 1, "Inf", "Trained", 600.0, 850.0, 180.0, ""),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    let e = refused_as(&mut b, mv("a", vec![Step::Advance(1.0)]));
    assert_eq!(e, Ok(Refusal::OnlyAggressiveInDepth));
    b.execute(Command::Form {
        unit: id("a"),
        formation: Formation::Line,
        turn: 0.0,
    })
    .expect("forms line");
    activate(&mut b, "d", &[6, 6]);
    b.execute(mv("d", vec![Step::Advance(1.0)]))
        .expect("Aggressive infantry moves in depth");
}

#[test]
fn an_assault_left_unfought_until_the_step_ends_occupies() {
    // +5 (4-6): the defender retires 9"; the attacker "may exploit or occupy". Fought when the
    // step ends, with no choice made, it occupies (ruling after_assault): it moves up by the
    // defender's depth, not half its move.
    let units = [
        (
            "a",
            0,
            "Inf",
            "Veteran",
            600.0,
            200.0,
            0.0,
            ", bases: Some(4), flags: [Aggressive], formation: Some(Deep)",
        ),
        (
            "e",
            1,
            "Inf",
            "Raw",
            600.0,
            200.0 + 30.0 + 2.0 * IN,
            180.0,
            ", bases: Some(2), flags: [Fragile]",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::ToContact(id("e"))]))
        .expect("assault");
    to_phase(&mut b, 0, ASSAULT);
    let before = b.unit(&id("a")).unwrap().base.centre;
    // 1 + 5 = 6 against 3 - 2 = 1: +5.
    b.script_dice(&[1, 3]);
    b.execute(Command::EndPhase).expect("the step ends");
    let diff = b
        .log
        .iter()
        .find_map(|e| match e {
            Event::Assault { difference, .. } => Some(*difference),
            _ => None,
        })
        .expect("an assault");
    assert_eq!(diff, 5);
    let moved = b.unit(&id("a")).unwrap().base.centre.dist(before) / IN;
    assert!(
        moved > 0.5 && moved < 2.0,
        "occupied, not exploited: {moved}\""
    );
}

#[test]
fn a_formation_change_counts_as_moving_for_defensive_fire() {
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "d",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 2.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(Command::Form {
        unit: id("a"),
        formation: Formation::Column,
        turn: 0.0,
    })
    .expect("into column");
    to_phase(&mut b, 0, DEFENSIVE_FIRE);
    b.script_dice(&[1, 1]);
    b.execute(fire("d", "a"))
        .expect("a unit that changed formation is fired at");
}

#[test]
fn the_log_says_what_a_move_a_pivot_limbering_and_a_weak_fire_were() {
    use volley::text::report::describe;
    // A 2" sidestep outside the front arc: 2" moved, 8" counted.
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        ("g", 0, "FA", "Trained", 300.0, 200.0, 0.0, ""),
        ("h", 0, "FA", "Trained", 900.0, 200.0, 0.0, ""),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 5.0 * IN,
            180.0,
            ", bases: Some(1), flags: [IneffectiveMusket]",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    let ev = b.execute(mv("a", vec![Step::Sidestep(2.0)])).expect("move");
    let words: Vec<String> = ev.iter().map(|e| describe(&b, e)).collect();
    let w = words.join(" | ");
    assert!(
        w.contains("moves 2.0\" in") && w.contains("counts 8.0\""),
        "{w}"
    );
    // An artillery pivot is a pivot, not a change to line.
    activate(&mut b, "g", &[6, 6]);
    let ev = b
        .execute(Command::Form {
            unit: id("g"),
            formation: Formation::Line,
            turn: 90.0,
        })
        .expect("pivot");
    let w: Vec<String> = ev.iter().map(|e| describe(&b, e)).collect();
    assert!(
        w.iter().any(|x| x.contains("pivots")) && !w.iter().any(|x| x.contains("changes to")),
        "{w:?}"
    );
    // Limbering is told once.
    activate(&mut b, "h", &[6, 6]);
    let ev = b
        .execute(Command::Limber { unit: id("h") })
        .expect("limber");
    let w: Vec<String> = ev.iter().map(|e| describe(&b, e)).collect();
    assert_eq!(
        w.iter().filter(|x| x.contains("limber")).count(),
        1,
        "{w:?}"
    );
    // An ineffective musket at 2": 1, halved twice (disrupted, low on ammunition) to 0.25,
    // shifted one column left by a target in a wood: off the table.
    let wood = "(id: \"w\", kind: Woods, name: \"Wood\", points: [(500, 250), (700, 250), (700, 320), (500, 320)]),";
    let units = [
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(1), flags: [IneffectiveMusket]",
        ),
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 2.0 * IN,
            180.0,
            ", bases: Some(1)",
        ),
    ];
    let mut b = bbb(&units, wood, "");
    if let Some(u) = b.units_mut().iter_mut().find(|u| u.id == id("e")) {
        u.status.disordered = true;
        u.status.ammo = Ammo::Low;
    }
    // Side 1 fires in its own offensive fire step.
    to_phase(&mut b, 1, OFFENSIVE_FIRE);
    b.script_dice(&[1, 1]);
    let ev = b.execute(fire("e", "a")).expect("fire");
    let (_, words) = salvo(&ev);
    assert_eq!(column(&ev), FireColumn::OffTheTable, "{words}");
    assert!(
        words.contains("fire value 1, halved to 0.25: off the left of the table (no effect)"),
        "{words}"
    );
}

#[test]
fn an_evade_passes_through_no_enemy() {
    // Cavalry evading the infantry that moved towards it may not ride through the enemy
    // brigade behind it (ruling zone_of_control, ruling evade).
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "c",
            1,
            "Cav",
            "Trained",
            600.0,
            500.0,
            180.0,
            ", bases: Some(2)",
        ),
        (
            "x",
            0,
            "Inf",
            "Trained",
            600.0,
            620.0,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::Advance(1.0)])).expect("moves");
    let e = refusal(
        &mut b,
        Command::Evade {
            unit: id("c"),
            from: id("a"),
            distance: 9.0,
        },
    );
    assert_eq!(kind_of(&e), Ok(Refusal::EvadesThroughEnemy));
}

/// The distance (what it counts against the allowance) of the last move in `ev`.
fn moved_cost(ev: &[Event]) -> f32 {
    ev.iter()
        .rev()
        .find_map(|e| match e {
            Event::Moved { distance, .. } => Some(*distance),
            _ => None,
        })
        .expect("a Moved event")
}

#[test]
fn a_unit_that_entered_a_zone_of_control_stays_stopped_for_the_turn() {
    // "Enter 3" ZOC = STOP (unless assault)": the stop holds for the rest of the turn, however
    // the allowance is split between moves.
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 6.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::Advance(3.2)]))
        .expect("into the zone, settling a fifth of an inch");
    assert_eq!(
        refused_as(&mut b, mv("a", vec![Step::Advance(1.0)])),
        Ok(Refusal::StoppedInZoneOfControl)
    );
    assert_eq!(
        refused_as(&mut b, mv("a", vec![Step::Sidestep(1.0)])),
        Ok(Refusal::StoppedInZoneOfControl)
    );
    b.execute(mv("a", vec![Step::ToContact(id("e"))]))
        .expect("it may still go on to assault");
    assert!(b.unit(&id("a")).unwrap().bound.charged);
    // A unit already within 3" when its turn began entered nothing: it may move in the zone.
    let mut units = units;
    units[1].5 = 200.0 + 30.0 + 2.0 * IN;
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::Sidestep(1.0)]))
        .expect("inside the zone it began in");
    b.execute(mv("a", vec![Step::Sidestep(1.0)]))
        .expect("and again");
}

#[test]
fn the_front_arc_is_judged_from_where_the_turn_began() {
    // Wheeling 80 degrees and advancing takes the cavalry outside the arc it faced (-6"); two
    // wheels of 40 degrees in two moves take it there just the same.
    let units = [
        (
            "c",
            0,
            "Cav",
            "Trained",
            200.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        ("e", 1, "Inf", "Trained", 1000.0, 850.0, 180.0, ""),
    ];
    let wheel = |d: f32| Step::Wheel {
        corner: volley::rules::geometry::Corner::Right,
        degrees: d,
    };
    let mut b = bbb(&units, "", "");
    activate(&mut b, "c", &[6, 6]);
    let one = moved_cost(
        &b.execute(mv("c", vec![wheel(80.0), Step::Advance(6.0)]))
            .expect("one move"),
    );
    assert!(one > 12.0, "outside the arc in one move: {one}");
    let mut b = bbb(&units, "", "");
    activate(&mut b, "c", &[6, 6]);
    let first = moved_cost(&b.execute(mv("c", vec![wheel(40.0)])).expect("a wheel"));
    assert!(
        first < 3.0,
        "a wheel of 40 degrees stays in the arc: {first}"
    );
    let second = moved_cost(
        &b.execute(mv("c", vec![wheel(40.0), Step::Advance(6.0)]))
            .expect("the second move"),
    );
    assert!(
        second > 12.0,
        "the second move takes it outside the arc it faced when the turn began: {second}"
    );
}

#[test]
fn low_ammunition_and_silence_wear_off_by_retiring_not_by_standing_far() {
    // "12* or 11* = Low Ammo (recover by not moving & missing 1 fire phase OR retiring outside
    // 6" of all enemy)". Heavy guns 8" from the enemy throw 12 in offensive fire: still low
    // at the end of that turn, though no enemy is within 6".
    let units = [
        ("g", 0, "HvA", "Trained", 600.0, 200.0, 0.0, ""),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 8.0 * IN,
            180.0,
            ", bases: Some(4)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    b.script_dice(&[6, 6]);
    b.execute(fire("g", "e")).expect("fire");
    assert_eq!(b.unit(&id("g")).unwrap().status.ammo, Ammo::Low);
    to_phase(&mut b, 1, MOVEMENT);
    assert_eq!(
        b.unit(&id("g")).unwrap().status.ammo,
        Ammo::Low,
        "standing 8\" off is no retire"
    );
    // Next turn the guns are manhandled 1" nearer: more than 6" away, but no retire.
    to_phase(&mut b, 0, MOVEMENT);
    activate(&mut b, "g", &[6, 6]);
    b.execute(mv("g", vec![Step::Advance(1.0)]))
        .expect("manhandled forward");
    to_phase(&mut b, 1, MOVEMENT);
    assert_eq!(b.unit(&id("g")).unwrap().status.ammo, Ammo::Low);
    // The turn after, 2" back to 9" off: they retired outside 6".
    to_phase(&mut b, 0, MOVEMENT);
    activate(&mut b, "g", &[6, 6]);
    b.execute(mv("g", vec![Step::Backstep(2.0)]))
        .expect("manhandled back");
    to_phase(&mut b, 1, MOVEMENT);
    assert_eq!(b.unit(&id("g")).unwrap().status.ammo, Ammo::Full);
    // Silenced guns 10" from every enemy stay silenced: they neither rallied nor retired.
    let units = [
        (
            "s",
            0,
            "FA",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", silenced: true, disrupted: true",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + 10.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    to_phase(&mut b, 1, MOVEMENT);
    assert!(own(b.unit(&id("s")).unwrap()).silenced);
    // (A silenced battery is disrupted, "R, T, V = Unit disrupted, Artillery Silenced", and a
    // disrupted unit may not evade: silenced guns cannot evade their way to a recovery.)
}

#[test]
fn an_evade_keeps_the_move_rules() {
    // "Move= 1/2 to Full": the move's rules hold. Light cavalry 8" from infantry that advanced.
    let units = [
        (
            "i",
            0,
            "Inf",
            "Trained",
            600.0,
            100.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "c",
            1,
            "LC",
            "Trained",
            600.0,
            100.0 + 30.0 + 10.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let evade = |u: &str, d: f32| Command::Evade {
        unit: id(u),
        from: id("i"),
        distance: d,
    };
    let start = |terrain: &str, more: &[Line]| {
        let mut all = units.to_vec();
        all.extend_from_slice(more);
        let mut b = bbb(&all, terrain, "");
        activate(&mut b, "i", &[6, 6]);
        b.execute(mv("i", vec![Step::Advance(2.0)]))
            .expect("advance");
        b
    };
    // Through a wood: difficult terrain, -6" for cavalry: 12" at most.
    let wood = "(id: \"w\", kind: Woods, name: \"Wood\", points: [(400, 500), (800, 500), (800, 600), (400, 600)]),";
    let mut b = start(wood, &[]);
    let e = refusal(&mut b, evade("c", 15.0));
    assert_eq!(kind_of(&e), Ok(Refusal::EvadeDistanceOutsideRange));
    // The distances are in the words only.
    assert!(e.to_string().contains("between 9.0\" and 12.0\""), "{e}");
    b.execute(evade("c", 12.0)).expect("12\" through the wood");
    // Across a river: a river halts a move, so no evade fords one.
    let river =
        "(id: \"r\", kind: River, name: \"Saale\", points: [(0, 650), (1220, 650)], width: 10),";
    let mut b = start(river, &[]);
    assert_eq!(
        refused_as(&mut b, evade("c", 12.0)),
        Ok(Refusal::RiverHalts)
    );
    b.execute(evade("c", 9.0)).expect("short of the river");
    // Into another enemy's 3" zone: it stops there.
    let other = [(
        "x",
        0,
        "Inf",
        "Trained",
        600.0,
        384.0 + 15.0 * IN,
        180.0,
        ", bases: Some(2)",
    )];
    let mut b = start("", &other);
    assert_eq!(
        refused_as(&mut b, evade("c", 13.0)),
        Ok(Refusal::EvadesIntoZoneOfControl)
    );
    b.execute(evade("c", 10.0)).expect("short of the zone");
    // Unlimbered horse artillery is manhandled: 3" at most.
    let guns = [
        (
            "i",
            0,
            "Inf",
            "Trained",
            600.0,
            100.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "h",
            1,
            "HA",
            "Trained",
            600.0,
            100.0 + 30.0 + 10.0 * IN,
            180.0,
            "",
        ),
    ];
    let mut b = bbb(&guns, "", "");
    activate(&mut b, "i", &[6, 6]);
    b.execute(mv("i", vec![Step::Advance(2.0)]))
        .expect("advance");
    let e = refusal(&mut b, evade("h", 6.0));
    assert_eq!(kind_of(&e), Ok(Refusal::EvadeDistanceOutsideRange));
    // Why the distance is short is in the words only.
    assert!(e.to_string().contains("manhandled"), "{e}");
    b.execute(evade("h", 3.0)).expect("manhandled 3\"");
}

#[test]
fn horse_artillery_unlimbers_free_only_after_six_inches_or_less() {
    // "Horse Artillery may also fire at half rate if moves up to 6" and unlimbers": 12" at
    // double pace on a road is more than 6".
    let road =
        "(id: \"rd\", kind: Road, name: \"Road\", points: [(600, 0), (600, 915)], width: 20),";
    let units = [
        (
            "g",
            0,
            "HA",
            "Trained",
            600.0,
            100.0,
            0.0,
            ", limbered: true",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            800.0,
            100.0 + 30.0 + 16.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, road, "");
    activate(&mut b, "g", &[6, 6]);
    b.execute(mv("g", vec![Step::Advance(12.0)]))
        .expect("12\" on the road at double pace");
    assert_eq!(
        refused_as(&mut b, Command::Unlimber { unit: id("g") }),
        Ok(Refusal::LimberingNeedsHalfMove)
    );
    // 5" on the road, then unlimbered at no cost: it fires at half.
    let mut units = units;
    units[1].4 = 600.0;
    units[1].5 = 100.0 + 30.0 + 10.0 * IN;
    let mut b = bbb(&units, road, "");
    activate(&mut b, "g", &[6, 6]);
    b.execute(mv("g", vec![Step::Advance(5.0)]))
        .expect("5\" on the road");
    b.execute(Command::Unlimber { unit: id("g") })
        .expect("unlimbers after 5\"");
    assert!(rules(&b).moved_inches(&b, b.unit(&id("g")).unwrap()) > 4.9);
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    let f = rules(&b).fire_setup(&b, &id("g"), &id("e")).expect("fires");
    assert!(
        f.halvings
            .iter()
            .any(|h| h.name == "halved: Horse artillery moved up to 6\" and unlimbered"),
        "{:?}",
        f.halvings
    );
}

#[test]
fn a_bridge_in_an_assault_counts_against_the_attacker_that_comes_over_it() {
    // "Town/Bridge/Trench = 2": an attacker coming over a bridge takes it, as "Stream / up
    // slope = 1" is for the stream "that attacker crossed"; a defender standing on a bridge
    // is no harder to assault (a target crossing a bridge is shifted right when fired at).
    let has = |v: &[String], s: &str| v.iter().any(|x| x.starts_with(s));
    let inf = ("Inf", "Trained", ", bases: Some(2)");
    let bridge_penalty = "-2 Attacking into town, over a bridge";
    let stream_penalty = "-1 Crossed a stream within 6\"";
    let stream =
        "(id: \"s\", kind: Stream, name: \"Brook\", points: [(300, 240), (900, 240)], width: 8),";
    let bridge = "(id: \"br\", kind: Bridge, name: \"Brook bridge\", points: [(600, 228), (600, 252)], width: 40),";
    // Over the bridge: -2, and not the stream's -1 as well.
    let (a, d) = assault_mods(inf, inf, 180.0, &format!("{stream}{bridge}"));
    assert!(has(&a, bridge_penalty), "{a:?}");
    assert!(!has(&a, stream_penalty), "{a:?}");
    assert!(!has(&d, bridge_penalty), "{d:?}");
    // Fording the same stream: the stream's -1 only.
    let (a, _) = assault_mods(inf, inf, 180.0, stream);
    assert!(has(&a, stream_penalty), "{a:?}");
    assert!(!has(&a, bridge_penalty), "{a:?}");
    // A defender on a bridge, the attacker coming over open ground: no terrain penalty.
    let under =
        "(id: \"s\", kind: Stream, name: \"Brook\", points: [(300, 281), (900, 281)], width: 8),";
    let bridge_under = "(id: \"br\", kind: Bridge, name: \"Brook bridge\", points: [(600, 271), (600, 291)], width: 20),";
    let (a, _) = assault_mods(inf, inf, 180.0, &format!("{under}{bridge_under}"));
    assert!(!has(&a, bridge_penalty), "{a:?}");
    assert!(!has(&a, stream_penalty), "{a:?}");
    // A bridge crossed more than 6" from the defender, as a stream would be: no penalty.
    let far_stream =
        "(id: \"s\", kind: Stream, name: \"Brook\", points: [(300, 130), (900, 130)], width: 8),";
    let far_bridge = "(id: \"br\", kind: Bridge, name: \"Brook bridge\", points: [(600, 118), (600, 142)], width: 40),";
    let units = [
        (
            "a",
            0,
            "Cav",
            "Trained",
            600.0,
            100.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            100.0 + 30.0 + 12.0 * IN,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, &format!("{far_stream}{far_bridge}"), "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::ToContact(id("e"))]))
        .expect("over the bridge and on to the enemy");
    to_phase(&mut b, 0, ASSAULT);
    let (_, _, fa, _) = rules(&b)
        .assault_setup(&b, &id("a"), &id("e"))
        .expect("assault setup");
    let a: Vec<String> = fa
        .iter()
        .map(|x| format!("{:+} {}", x.value, x.name))
        .collect();
    assert!(!has(&a, bridge_penalty), "{a:?}");
    assert!(!has(&a, stream_penalty), "{a:?}");
}

#[test]
fn a_line_with_a_friend_on_one_flank_is_not_unsupported() {
    // "-1 Infantry in line, starting and ending move with no unit on both flanks, same facing,
    // within 3"": the -1 is for a line with no friend on either flank.
    let line = |friends: &[(f32, &'static str)]| -> Vec<Line<'static>> {
        let mut v: Vec<Line> = vec![
            (
                "a",
                0,
                "Inf",
                "Trained",
                600.0,
                200.0,
                0.0,
                ", bases: Some(4)",
            ),
            ("e", 1, "Inf", "Trained", 600.0, 800.0, 180.0, ""),
        ];
        for (x, name) in friends {
            v.push((
                name,
                0,
                "Inf",
                "Trained",
                *x,
                200.0,
                0.0,
                ", bases: Some(2)",
            ));
        }
        v
    };
    // A 4-base line is 120 mm wide, a 2-base friend 60 mm: 1" between them.
    let gap = 60.0 + IN + 30.0;
    for (friends, want) in [
        (vec![], 7),
        (vec![(600.0 + gap, "r")], 8),
        (vec![(600.0 - gap, "l")], 8),
        (vec![(600.0 + gap, "r"), (600.0 - gap, "l")], 8),
    ] {
        let mut b = bbb(&line(&friends), "", "");
        let (score, _, words) = ordered(&activate(&mut b, "a", &[4, 4]));
        assert_eq!(score, want, "{friends:?}: {words}");
    }
}

#[test]
fn a_unit_that_leaves_a_zone_and_comes_back_into_it_stops() {
    // "Enter 3" ZOC = STOP (unless assault)": coming back into a zone the unit began the turn
    // in is entering it.
    let gap = 2.5 * IN;
    let units = [
        (
            "a",
            0,
            "Cav",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            200.0 + 30.0 + gap,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    // Out and back in one move: it stops where it comes back in.
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    let e = refusal(
        &mut b,
        mv("a", vec![Step::Sidestep(6.0), Step::Sidestep(-6.0)]),
    );
    assert_eq!(kind_of(&e), Ok(Refusal::EntersZoneOfControl));
    // Out in one move, back in (stopping as it enters) in a second: no third move.
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::Sidestep(6.0)]))
        .expect("out of the zone");
    assert_eq!(
        refused_as(&mut b, mv("a", vec![Step::Sidestep(-4.0)])),
        Ok(Refusal::EntersZoneOfControl)
    );
    // Sideways 152 mm puts the flanks 92 mm apart; the zone begins at 42 mm (3" across a
    // 2.5" gap): 2.1" back enters it and settles 3 mm.
    b.execute(mv("a", vec![Step::Sidestep(-2.1)]))
        .expect("back in, stopping where it enters");
    assert_eq!(
        refused_as(&mut b, mv("a", vec![Step::Sidestep(-1.0)])),
        Ok(Refusal::StoppedInZoneOfControl)
    );
    // Staying in the zone it began in is entering nothing.
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[6, 6]);
    b.execute(mv("a", vec![Step::Sidestep(1.0)]))
        .expect("within the zone");
    b.execute(mv("a", vec![Step::Sidestep(-1.0)]))
        .expect("still within");
}

#[test]
fn a_road_move_is_measured_along_the_road() {
    // Horse artillery "moves up to 6" and unlimbers": 8.6" along a road that bends back on
    // itself is more than 6" though it ends 2" from where it began.
    let road = "(id: \"rd\", kind: Road, name: \"Road\", points: [(200, 150), (200, 200.8), (250.8, 200.8), (250.8, 150)], width: 20),";
    let units = [
        (
            "g",
            0,
            "HA",
            "Trained",
            200.0,
            150.0,
            0.0,
            ", limbered: true",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            800.0,
            800.0,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, road, "");
    activate(&mut b, "g", &[6, 6]);
    b.execute(mv(
        "g",
        vec![
            Step::Advance(2.0),
            Step::Pivot(90.0),
            Step::Advance(2.0),
            Step::Pivot(90.0),
            Step::Advance(2.0),
        ],
    ))
    .expect("along the road at double pace");
    let g = b.unit(&id("g")).unwrap();
    let went = rules(&b).moved_inches(&b, g);
    assert!(went > 8.0 && went < 9.0, "{went}");
    assert_eq!(
        refused_as(&mut b, Command::Unlimber { unit: id("g") }),
        Ok(Refusal::LimberingNeedsHalfMove)
    );
}

#[test]
fn a_general_turns_about_at_no_cost() {
    // Generals are exempt from the front arc, about turns included (ruling allowance): no
    // rule reads a general's facing.
    let units = [
        ("g", 0, "Gen", "Trained", 600.0, 600.0, 0.0, ""),
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            700.0,
            0.0,
            ", bases: Some(2)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            880.0,
            180.0,
            ", bases: Some(2)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    to_phase(&mut b, 0, GENERALS);
    b.execute(mv("g", vec![Step::AboutFace, Step::Advance(21.0)]))
        .expect("21\" back with no -6\"");
    assert_eq!(
        refused_as(&mut b, mv("g", vec![Step::Advance(0.5)])),
        Ok(Refusal::BeyondAllowance { more: 0.0 })
    );
    // Nor does a wood cost him anything, or an enemy's zone stop him (rulings allowance,
    // zone_of_control).
    let wood = "(id: \"w\", kind: Woods, name: \"Wood\", points: [(500, 620), (700, 620), (700, 780), (500, 780)]),";
    let mut b = bbb(&units, wood, "");
    to_phase(&mut b, 0, GENERALS);
    b.execute(mv("g", vec![Step::Advance(10.0)]))
        .expect("through the wood and up to the enemy, 10\"");
    assert_eq!(b.unit(&id("g")).unwrap().bound.spent, 10.0);
}

/// Before its command roll a unit's reach is the full move's, inked as the reach a roll has yet
/// to decide; after a roll for a half move it is the true, shorter reach.
#[test]
fn the_reach_before_the_command_roll_is_the_full_moves_and_after_it_the_true_one() {
    use volley::rules::ruleset::{Ink, Layer};
    let lone = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(4)",
        ),
        ("e", 1, "Inf", "Trained", 600.0, 800.0, 180.0, ""),
    ];
    let mut b = bbb(&lone, "", "");
    let farthest = |b: &Game| {
        let u = b.unit(&id("a")).unwrap();
        let marks = b.rules.overlays(b, Some(u), &[Layer::Reach]);
        let m = marks
            .iter()
            .find(|m| m.layer == Layer::Reach)
            .expect("a reach");
        let far = m
            .points
            .iter()
            .map(|p| p.dist(u.base.centre))
            .fold(0.0f32, f32::max);
        (m.ink, far / IN)
    };
    let (ink, far) = farthest(&b);
    assert_eq!(ink, Ink::ReachIf);
    assert!((11.5..=12.01).contains(&far), "{far}\" before the roll");
    // 5-6: half move.
    assert_eq!(ordered(&activate(&mut b, "a", &[3, 3])).1, 6.0);
    let (ink, far) = farthest(&b);
    assert_eq!(ink, Ink::Reach);
    assert!((5.5..=6.01).contains(&far), "{far}\" after a half move");
}

#[test]
fn a_unit_that_begins_its_turn_in_contact_assaults_where_it_stands_on_its_command_roll() {
    // Two lines face to face, touching when the battle begins.
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(4)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            230.0,
            180.0,
            ", bases: Some(4)",
        ),
    ];
    let card_assault = |b: &Game| {
        b.rules
            .actions(b, b.unit(&id("a")).expect("a"))
            .into_iter()
            .flat_map(|g| g.actions)
            .find(|a| a.label == "Assault e where it stands")
            .map(|a| a.command)
    };
    // No move on the command roll (2D6 = 3, -1 for the unsupported line): it stays, and may
    // neither fire nor assault, and the refusals say how it could have.
    let mut b = bbb(&units, "", "");
    activate(&mut b, "a", &[1, 2]);
    assert_eq!(card_assault(&b), None);
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    let why = refused(&mut b, fire("a", "e"));
    assert!(why.contains("Assault … where it stands"), "{why}");
    to_phase(&mut b, 0, ASSAULT);
    let e = refusal(&mut b, fight("a", "e"));
    assert_eq!(kind_of::<Refusal>(&e), Ok(Refusal::NoContactMoveThisTurn));
    assert!(e.to_string().contains("began the turn in contact"), "{e}");

    // A full move: its card offers the assault where it stands, which moves it nowhere and
    // makes it an assaulting unit; the assault is fought (3 + 0 against 3: a draw refought).
    let mut b = bbb(&units, "", "");
    let before = b.unit(&id("a")).expect("a").base;
    activate(&mut b, "a", &[6, 6]);
    let cmd = card_assault(&b).expect("the card offers the assault");
    let ev = b.execute(cmd).expect("assault where it stands");
    assert!(ev.iter().any(|e| matches!(e, Event::Moved { contact: Some(t), distance, .. } if *t == id("e") && *distance < 0.01)));
    let now = b.unit(&id("a")).expect("a").base;
    assert!(now.centre.dist(before.centre) < 0.5);
    to_phase(&mut b, 0, ASSAULT);
    b.script_dice(&[5, 2]);
    let ev = b.execute(fight("a", "e")).expect("the assault is fought");
    assert!(ev.iter().any(|e| matches!(e, Event::Assault { .. })));
}

#[test]
fn the_units_that_could_still_fire_are_named_until_they_have() {
    let units = [
        (
            "a",
            0,
            "Inf",
            "Trained",
            600.0,
            200.0,
            0.0,
            ", bases: Some(4)",
        ),
        (
            "c",
            0,
            "Inf",
            "Trained",
            100.0,
            200.0,
            0.0,
            ", bases: Some(4)",
        ),
        (
            "e",
            1,
            "Inf",
            "Trained",
            600.0,
            280.0,
            180.0,
            ", bases: Some(4)",
        ),
    ];
    let mut b = bbb(&units, "", "");
    to_phase(&mut b, 0, OFFENSIVE_FIRE);
    let ready: Vec<_> = b.ready_to_attack().into_iter().map(|(u, _)| u).collect();
    // c is out of range of every enemy; a may fire on e.
    assert_eq!(ready, [id("a")]);
    b.script_dice(&[3, 3]);
    b.execute(fire("a", "e")).expect("a fires");
    assert!(b.ready_to_attack().is_empty(), "a has fired");
}
