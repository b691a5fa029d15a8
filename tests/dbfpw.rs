//! DBFPW: the troop table, factors and results of both playsheets, the Mitrailleuse, SC,
//! lancers, Zouaves, Bavarians, second moves, ammunition supply, DSCs, army lists and the
//! standard table, each against the seed (002) with scripted dice.

mod common;
use common::{fight, fire, id, kind_of, mv, names, refusal, refused, refused_as, to_phase};
use volley::rules::command::{Command, Effect, Event, RuleError, Step, Verdict};
use volley::rules::geometry::Pt;
use volley::rules::model::{Ammo, Division, Formation};
use volley::rules::ruleset::dbn::dbfpw::Refusal;
use volley::rules::ruleset::dbn::{
    self, CLOSE_COMBAT, DbnEvent, DbnRoll, FIRING, FirstDieOutcome, LongRange, MOVEMENT,
};
use volley::rules::ruleset::{AnyRuleset, Layer};
use volley::rules::{Game, scenario};

/// 100 paces in mm.
const P: f32 = 25.4;

/// A unit line: id, side, type, class, x, y, facing, extra RON fields.
type Line<'a> = (&'a str, usize, &'a str, &'a str, f32, f32, f32, &'a str);

/// A troop row: code, effective, long, GG, BG, road, combat.
type Row = (
    &'static str,
    Option<f32>,
    Option<f32>,
    Option<f32>,
    Option<f32>,
    Option<f32>,
    i32,
);

/// A DBFPW battle on a 2000 x 2000 mm table: French (side 0, `nation0`) against Germans.
fn fpw(units: &[Line], terrain: &str, extra: &str) -> Game {
    fpw_nations(units, terrain, extra, "imperial_french")
}

fn fpw_nations(units: &[Line], terrain: &str, extra: &str, nation0: &str) -> Game {
    let us: Vec<String> = units
        .iter()
        .map(|(id, side, t, class, x, y, f, more)| format!("(id: \"{id}\", side: {side}, type: \"{t}\", class: {class}, at: Some(({x}, {y})), facing: {f}{more}),"))
        .collect();
    let text = format!(
        "(name: \"t\", ruleset: \"dbfpw\", table: (width: 2000, height: 2000), seed: 1, turn_limit: 20, {extra}
          terrain: [{terrain}],
          sides: [(name: \"France\", nation: \"{nation0}\", colour: (0, 0, 200)), (name: \"Prussia\", nation: \"german\", colour: (20, 20, 20))],
          units: [{}])",
        us.join("\n")
    );
    match scenario::parse(&text, "inline") {
        Ok(b) => b,
        Err(d) => panic!("inline scenario invalid: {:?}", d),
    }
}

fn depth(t: &str) -> f32 {
    AnyRuleset::load("dbfpw")
        .unwrap()
        .base_size(t)
        .map(|s| s.1)
        .unwrap()
}

/// Shooter "f" (side 0) at (1000, 500) facing +y; target "g" `gap` paces ahead, facing it.
fn duel(
    f: (&str, &str, &str),
    g: (&str, &str, &str),
    gap: f32,
    terrain: &str,
    extra: &str,
) -> Game {
    let ty = 500.0 + depth(f.0) / 2.0 + gap * P / 100.0 + depth(g.0) / 2.0;
    fpw(
        &[
            ("f", 0, f.0, f.1, 1000.0, 500.0, 0.0, f.2),
            ("g", 1, g.0, g.1, 1000.0, ty, 180.0, g.2),
        ],
        terrain,
        extra,
    )
}

/// Ends the phase and goes on to side 0's next firing phase, with these dice scripted.
fn next_firing(b: &mut Game, dice: &[u8]) {
    b.script_dice(dice);
    b.execute(Command::EndPhase).expect("end phase");
    to_phase(b, 0, FIRING);
}

/// "f" fires at "g" with the dice already scripted.
fn shoot_scripted(b: &mut Game) -> Vec<Event> {
    b.execute(fire("f", "g")).expect("fire accepted")
}

fn shoot(b: &mut Game, dice: &[u8]) -> (Vec<String>, Vec<String>, DbnEvent, Vec<Event>) {
    b.script_dice(dice);
    let ev = b.execute(fire("f", "g")).expect("fire accepted");
    let e = common::fire_event(&ev);
    match &e {
        DbnEvent::Fire {
            shooter_score,
            target_score,
            ..
        } => (
            names(&shooter_score.factors),
            names(&target_score.factors),
            e.clone(),
            ev,
        ),
        _ => unreachable!(),
    }
}

const HILL: &str = "(id: \"h\", kind: Hill, name: \"Heights\", points: [(800, 300), (1200, 300), (1200, 560), (800, 560)], level: 1),";

#[test]
fn troop_table_is_the_seeds() {
    let r = AnyRuleset::load("dbfpw").unwrap();
    let AnyRuleset::Dbfpw(g) = &r else { panic!() };
    // code, effective, long, GG, BG, road, combat (002 Tactical factors).
    let rows: [Row; 13] = [
        (
            "Inf",
            Some(300.0),
            None,
            Some(200.0),
            Some(200.0),
            Some(400.0),
            4,
        ),
        (
            "InfBLR2",
            Some(400.0),
            Some(800.0),
            Some(200.0),
            Some(200.0),
            Some(400.0),
            4,
        ),
        (
            "SS",
            Some(500.0),
            None,
            Some(300.0),
            Some(300.0),
            Some(400.0),
            2,
        ),
        (
            "FAPr",
            Some(1800.0),
            Some(3400.0),
            Some(300.0),
            None,
            Some(400.0),
            3,
        ),
        (
            "FAFr",
            Some(1400.0),
            Some(2800.0),
            Some(200.0),
            None,
            Some(300.0),
            3,
        ),
        (
            "HA",
            Some(1400.0),
            Some(2800.0),
            Some(300.0),
            Some(100.0),
            Some(400.0),
            3,
        ),
        (
            "Mit",
            Some(600.0),
            Some(2000.0),
            Some(300.0),
            Some(100.0),
            Some(400.0),
            3,
        ),
        ("HC", None, None, Some(300.0), Some(200.0), Some(400.0), 3),
        ("LC", None, None, Some(400.0), Some(200.0), Some(400.0), 3),
        (
            "SC",
            Some(200.0),
            None,
            Some(500.0),
            Some(200.0),
            Some(500.0),
            1,
        ),
        (
            "Gs",
            Some(300.0),
            None,
            Some(300.0),
            Some(300.0),
            Some(300.0),
            2,
        ),
        ("CinC", None, None, Some(400.0), Some(200.0), Some(400.0), 1),
        ("BT", None, None, Some(200.0), None, Some(300.0), 1),
    ];
    for (code, range, long, gg, bg, road, cf) in rows {
        let t = g.dbn.troop(code).unwrap_or_else(|| panic!("{code}"));
        assert_eq!(
            (t.range, t.long_range, t.gg, t.bg, t.road, t.combat),
            (range, long, gg, bg, road, cf),
            "{code}"
        );
    }
    // RM has BLR1's figures; dismounted SC fire 300 (the firing playsheet) and move as Inf.
    let rm = g.dbn.troop("InfRM").unwrap();
    assert_eq!((rm.range, rm.gg, rm.combat), (Some(300.0), Some(200.0), 4));
    let scd = g.dbn.troop("SCD").unwrap();
    assert_eq!(
        (scd.range, scd.gg, scd.bg, scd.road),
        (Some(300.0), Some(200.0), Some(200.0), Some(400.0))
    );
}

#[test]
fn blr2_elite_and_flank_factors() {
    let mut b = duel(
        ("InfBLR2", "Elite", ""),
        ("Inf", "Regular", ""),
        200.0,
        "",
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, t, _, _) = shoot(&mut b, &[3, 3]);
    assert_eq!(
        s,
        [
            "+4 Infantry BLR2",
            "+1 Firing BLR2, Prussian artillery or Mitrailleuse",
            "+1 Elite"
        ]
    );
    assert_eq!(t, ["+4 Infantry BLR1"]);
}

#[test]
fn rifled_muskets_and_poor_take_minus_one_each() {
    let mut b = duel(
        ("InfRM", "Militia", ""),
        ("Inf", "Regular", ""),
        200.0,
        "",
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, _) = shoot(&mut b, &[3, 3]);
    assert_eq!(
        s,
        [
            "+4 Infantry RM",
            "-1 Poor troops",
            "-1 Artillery firing at long range, or infantry firing RM"
        ]
    );
}

#[test]
fn long_range_needs_a_hill_stillness_and_a_target_in_the_open() {
    // BLR2 at 600 paces: beyond 400, within 800.
    let mut b = duel(
        ("InfBLR2", "Regular", ""),
        ("Inf", "Regular", ""),
        600.0,
        "",
        "",
    );
    to_phase(&mut b, 0, FIRING);
    assert_eq!(
        refused_as(&mut b, fire("f", "g")),
        Ok(dbn::Refusal::BeyondEffectiveRange(
            LongRange::NotOnRaisedGround
        ))
    );
    let mut b = duel(
        ("InfBLR2", "Regular", ""),
        ("Inf", "Regular", ""),
        600.0,
        HILL,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, _) = shoot(&mut b, &[3, 3]);
    assert!(
        s.contains(&"-3 French infantry firing at long range".to_string()),
        "{s:?}"
    );
    // Target in a wood is not in the open.
    let wood = "(id: \"w\", kind: Woods, name: \"Wood\", points: [(900, 630), (1100, 630), (1100, 720), (900, 720)]),";
    let mut b = duel(
        ("InfBLR2", "Regular", ""),
        ("Inf", "Regular", ""),
        600.0,
        &format!("{HILL}{wood}"),
        "",
    );
    to_phase(&mut b, 0, FIRING);
    assert_eq!(
        refused_as(&mut b, fire("f", "g")),
        Ok(dbn::Refusal::BeyondEffectiveRange(
            LongRange::TargetNotInOpen
        ))
    );
}

#[test]
fn artillery_long_range_and_prussian_guns() {
    // A Prussian battery on a hill at 2500 paces: long range (-1), Prussian (+1); the French
    // infantry fired at by German artillery beyond 400 paces takes nothing.
    let ty = 500.0 + depth("FAPr") / 2.0 + 25.0 * P + depth("InfBLR2") / 2.0;
    let hill = "(id: \"h\", kind: Hill, name: \"Heights\", points: [(800, 300), (1200, 300), (1200, 600), (800, 600)], level: 1),";
    let mut b = fpw(
        &[
            (
                "g",
                0,
                "InfBLR2",
                "Regular",
                1000.0,
                ty.min(1990.0),
                180.0,
                "",
            ),
            ("f", 1, "FAPr", "Regular", 1000.0, 500.0, 0.0, ""),
        ],
        hill,
        "",
    );
    to_phase(&mut b, 1, FIRING);
    let (s, t, _, _) = shoot(&mut b, &[4, 2]);
    assert_eq!(
        s,
        [
            "+3 Foot Artillery, Prussian",
            "+1 Firing BLR2, Prussian artillery or Mitrailleuse",
            "-1 Artillery firing at long range, or infantry firing RM"
        ]
    );
    // The infantry cannot fire back at 2,500 paces: the +1 for firing BLR2 is not its.
    assert_eq!(t, ["+4 Infantry BLR2"]);
}

#[test]
fn the_long_range_band_is_drawn_only_where_the_battery_may_fire_at_long_range() {
    // The arc's marks of a battery: its effective range, and the long range as a second band
    // only from raised ground.
    let hill = "(id: \"h\", kind: Hill, name: \"Heights\", points: [(800, 300), (1200, 300), (1200, 600), (800, 600)], level: 1),";
    let arcs = |terrain: &str| {
        let b = fpw(
            &[
                ("f", 1, "FAPr", "Regular", 1000.0, 500.0, 0.0, ""),
                ("g", 0, "Inf", "Regular", 1000.0, 1900.0, 180.0, ""),
            ],
            terrain,
            "",
        );
        let f = b.unit(&id("f")).expect("the battery");
        b.rules.overlays(&b, Some(f), &[Layer::Arcs]).len()
    };
    let (plain, on_hill) = (arcs(""), arcs(hill));
    assert!(plain > 0);
    assert_eq!(on_hill, 2 * plain, "a second band from the hill only");
}

#[test]
fn fired_at_by_german_guns_within_400_or_french_within_200() {
    // German FAPr at 300 paces: -1 to the French target.
    let mut b = fpw(
        &[
            (
                "g",
                0,
                "Inf",
                "Regular",
                1000.0,
                500.0 + 7.5 + 3.0 * P + 20.0,
                180.0,
                "",
            ),
            ("f", 1, "FAPr", "Regular", 1000.0, 500.0, 0.0, ""),
        ],
        "",
        "",
    );
    to_phase(&mut b, 1, FIRING);
    let (_, t, _, _) = shoot(&mut b, &[4, 2]);
    assert!(
        t.iter().any(|x| x.contains("Fired at by Mit or German")),
        "{t:?}"
    );
    // French FAFr at 300 paces: nothing; at 150: -1.
    for (gap, want) in [(300.0, false), (150.0, true)] {
        let mut b = duel(("FAFr", "Regular", ""), ("Inf", "Regular", ""), gap, "", "");
        to_phase(&mut b, 0, FIRING);
        let (_, t, _, _) = shoot(&mut b, &[4, 2]);
        assert_eq!(
            t.iter().any(|x| x.contains("Fired at by")),
            want,
            "{gap}: {t:?}"
        );
    }
}

#[test]
fn sharpshooters_ignore_bad_going_and_take_minus_one_into_cover() {
    let village = "(id: \"v\", kind: Village, name: \"Forbach\", points: [(950, 560), (1050, 560), (1050, 660), (950, 660)]),";
    // A village hides nothing from sight (ruling firing_out_of_bg): the SS fire 300 paces
    // into it, at -1 for cover.
    let mut b = duel(
        ("SS", "Regular", ""),
        ("Inf", "Regular", ""),
        300.0,
        village,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, _) = shoot(&mut b, &[3, 3]);
    assert!(
        has(&s, "-1 Sharpshooters firing into BUA/NLF or fortification"),
        "{s:?}"
    );
    let village = "(id: \"v\", kind: Village, name: \"Forbach\", points: [(950, 525), (1050, 525), (1050, 600), (950, 600)]),";
    let mut b = duel(
        ("SS", "Regular", ""),
        ("Inf", "Regular", ""),
        80.0,
        village,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, _) = shoot(&mut b, &[3, 3]);
    assert_eq!(
        s,
        [
            "+2 Sharpshooters",
            "-1 Sharpshooters firing into BUA/NLF or fortification"
        ]
    );
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("Inf", "Regular", ""),
        80.0,
        village,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, _) = shoot(&mut b, &[3, 3]);
    assert!(
        s.contains(&"-2 Firing into BUA/NLF or fortification".to_string()),
        "{s:?}"
    );
}

#[test]
fn mitrailleuse_first_die_stoppage_and_unplotted_shot() {
    // Stoppage: the first die 1, -2 on the Mit's score.
    let mut b = duel(
        ("Mit", "Regular", ""),
        ("Inf", "Regular", ""),
        400.0,
        "",
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, ev) = shoot(&mut b, &[1, 5, 2]);
    assert!(
        s.contains(&"-2 Mitrailleuse stoppage or shot not plotted".to_string()),
        "{s:?}"
    );
    assert_eq!(first_die(&ev), (FirstDieOutcome::Stoppage, 1));
    // A 3 within effective range is no failure.
    let mut b = duel(
        ("Mit", "Regular", ""),
        ("Inf", "Regular", ""),
        400.0,
        "",
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, ev) = shoot(&mut b, &[3, 5, 2]);
    assert!(!s.iter().any(|x| x.contains("stoppage")), "{s:?}");
    assert_eq!(first_die(&ev), (FirstDieOutcome::Clear, 3));
    // At long range (from a hill, 1500 paces) a 3 cannot plot the shot.
    let mut b = duel(
        ("Mit", "Regular", ""),
        ("Inf", "Regular", ""),
        1200.0,
        HILL,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, ev) = shoot(&mut b, &[3, 5, 2]);
    assert!(
        s.contains(&"-2 Mitrailleuse stoppage or shot not plotted".to_string()),
        "{s:?}"
    );
    assert_eq!(first_die(&ev), (FirstDieOutcome::Unplotted, 3));
}

#[test]
fn mitrailleuse_odds_fold_in_the_first_die() {
    let b0 = {
        let mut b = duel(
            ("Mit", "Regular", ""),
            ("Inf", "Regular", ""),
            1200.0,
            HILL,
            "",
        );
        to_phase(&mut b, 0, FIRING);
        b
    };
    let AnyRuleset::Dbfpw(g) = b0.rules.clone() else {
        panic!()
    };
    let p = g.forecast(&b0, &fire("f", "g")).unwrap();
    let o = p.odds;
    let total = o.a_wins + o.a_wins_by_double + o.draw + o.b_wins + o.b_wins_by_double;
    assert!((total - 1.0).abs() < 1e-9);
    // Half the time (1-3 at long range) the Mit fires at -2: the odds are the mixture.
    let (sa, sb) = (
        volley::rules::command::factor_sum(&p.setup.a_factors),
        volley::rules::command::factor_sum(&p.setup.b_factors),
    );
    let q = volley::rules::odds::Quirks::default();
    let ok = volley::rules::odds::opposed_with(sa, sb, q, q);
    let bad = volley::rules::odds::opposed_with(sa - 2, sb, q, q);
    let want = 0.5 * ok.a_wins + 0.5 * bad.a_wins;
    assert!((o.a_wins - want).abs() < 1e-9, "{} vs {want}", o.a_wins);
}

#[test]
fn mitrailleuse_moves_and_fires() {
    let mut b = duel(
        ("Mit", "Regular", ""),
        ("Inf", "Regular", ""),
        500.0,
        "",
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.execute(mv("f", vec![Step::Advance(2.0 * P)]))
        .expect("Mit moves unlimbered");
    to_phase(&mut b, 0, FIRING);
    shoot(&mut b, &[4, 3, 3]);
}

/// Side-0 unit "f" facing +y, side-1 unit "g" `gap` paces ahead facing it, in movement.
fn charge_setup(f: (&str, &str, &str), g: (&str, &str, &str), gap: f32) -> Game {
    let mut b = duel(f, g, gap, "", "");
    to_phase(&mut b, 0, MOVEMENT);
    b
}

fn to_contact(b: &mut Game) -> Result<Vec<Event>, String> {
    b.execute(Command::Move {
        unit: id("f"),
        steps: vec![Step::ToContact(id("g"))],
    })
    .map_err(|e| e.to_string())
}

/// How the one first die in `ev` fell, and its face.
fn first_die(ev: &[Event]) -> (FirstDieOutcome, u8) {
    match ev
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { what, roll } => what
                .kind::<DbnRoll>()
                .map(|DbnRoll::FirstDie(fell)| (*fell, roll.dice[0])),
            _ => None,
        })
        .collect::<Vec<_>>()[..]
    {
        [one] => one,
        ref all => panic!("{} first dice: {ev:?}", all.len()),
    }
}

fn combat(b: &mut Game, dice: &[u8]) -> (Vec<String>, Vec<String>, DbnEvent) {
    to_phase(b, 0, CLOSE_COMBAT);
    b.script_dice(dice);
    let ev = b.execute(fight("f", "g")).expect("fight");
    let e = common::combat_event(&ev);
    let DbnEvent::CloseCombat {
        attacker_score,
        defender_score,
        ..
    } = &e
    else {
        unreachable!()
    };
    (
        names(&attacker_score.factors),
        names(&defender_score.factors),
        e,
    )
}

#[test]
fn infantry_charge_attack_column_or_extra_hundred_paces() {
    let column = ", formation: Some(Column)";
    let ac = "+2 Infantry in attack column against foot";
    // In line, 150 paces: no attack column, no +2.
    let mut b = charge_setup(("Inf", "Regular", ""), ("Inf", "Regular", ""), 150.0);
    to_contact(&mut b).expect("charge");
    let (a, _, _) = combat(&mut b, &[3, 3]);
    assert_eq!(a, ["+4 Infantry BLR1"]);
    // In attack column, 150 paces: +2 against foot.
    let mut b = charge_setup(("Inf", "Regular", column), ("Inf", "Regular", ""), 150.0);
    to_contact(&mut b).expect("charge");
    let (a, d, _) = combat(&mut b, &[3, 3]);
    assert_eq!(a, ["+4 Infantry BLR1", ac]);
    assert_eq!(d, ["+4 Infantry BLR1"]);
    // In line, 280 paces: the +100 paces into close combat allow it.
    let mut b = charge_setup(("Inf", "Regular", ""), ("Inf", "Regular", ""), 280.0);
    to_contact(&mut b).expect("charge with the extra 100 paces");
    // In attack column, "not if Attack Column": 280 paces is too far.
    let mut b = charge_setup(("Inf", "Regular", column), ("Inf", "Regular", ""), 280.0);
    assert!(to_contact(&mut b).unwrap_err().contains("280"));
    // 320 paces is too far even in line.
    let mut b = charge_setup(("Inf", "Regular", ""), ("Inf", "Regular", ""), 320.0);
    assert!(to_contact(&mut b).is_err());
    // A defender in attack column has its +2 against foot too; against cavalry neither side
    // has it.
    let mut b = charge_setup(("Inf", "Regular", ""), ("Inf", "Regular", column), 150.0);
    to_contact(&mut b).expect("charge");
    let (_, d, _) = combat(&mut b, &[3, 3]);
    assert_eq!(d, ["+4 Infantry BLR1", ac]);
    let mut b = charge_setup(("LC", "Regular", ""), ("Inf", "Regular", column), 150.0);
    to_contact(&mut b).expect("charge");
    let (_, d, _) = combat(&mut b, &[3, 3]);
    assert!(!has(&d, ac), "{d:?}");
}

#[test]
fn infantry_forms_attack_column_for_a_cap_once_a_bound() {
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("Inf", "Regular", ""),
        1000.0,
        "",
        "",
    );
    b.script_dice(&[4]);
    to_phase(&mut b, 0, MOVEMENT);
    let caps = b.command_points[0];
    let u = b.unit(&id("f")).unwrap().clone();
    // The button, the card and the board.
    let actions = b.rules.actions(&b, &u);
    let form = actions
        .iter()
        .flat_map(|g| g.actions.iter())
        .find(|a| a.label.starts_with("Form attack column"))
        .expect("a Form attack column button")
        .command
        .clone();
    assert!(
        b.rules
            .unit_card(&b, &u)
            .lines
            .iter()
            .any(|l| l.starts_with("In line"))
    );
    let ev = b.execute(form).expect("form attack column");
    assert!(ev.iter().any(|e| matches!(
        e.own(),
        Some(DbnEvent::CommandPointsSpent { amount: 1, .. })
    )));
    assert!(
        ev.iter().any(
            |e| matches!(e, Event::Reformed { unit, formation: Formation::Column, .. }
            if unit == &id("f"))
        ),
        "{ev:?}"
    );
    assert_eq!(b.command_points[0], caps - 1);
    let u = b.unit(&id("f")).unwrap().clone();
    assert_eq!(u.formation, Formation::Column);
    assert!(b.rules.look(&b, &u).markers.contains(&"COLUMN".to_string()));
    assert!(
        b.rules
            .unit_card(&b, &u)
            .lines
            .iter()
            .any(|l| l.starts_with("Attack column: +2"))
    );
    // Once a bound: it cannot deploy again until its next bound; it may still move.
    let e = refusal(
        &mut b,
        Command::Form {
            unit: id("f"),
            formation: Formation::Line,
            turn: 0.0,
        },
    );
    assert!(
        matches!(&e, RuleError::AlreadyActed { unit, .. } if unit == &id("f")),
        "{e}"
    );
    b.execute(mv("f", vec![Step::Advance(200.0)]))
        .expect("moves in attack column");
    // A scenario may set it for infantry only.
    let text = |t: &str, f: &str| {
        format!(
            "(name: \"t\", ruleset: \"dbfpw\", table: (width: 2000, height: 2000), seed: 1, turn_limit: 20,
              sides: [(name: \"France\", nation: \"imperial_french\", colour: (0, 0, 200)), (name: \"Prussia\", nation: \"german\", colour: (20, 20, 20))],
              units: [(id: \"f\", side: 0, type: \"{t}\", class: Regular, at: Some((1000, 500)), facing: 0, formation: Some({f})),
                      (id: \"g\", side: 1, type: \"Inf\", class: Regular, at: Some((1000, 1500)), facing: 180)])"
        )
    };
    assert!(check(&text("InfRM", "Column")).is_ok());
    assert!(check(&text("SS", "Column")).is_err());
    let e = check(&text("Inf", "Square")).unwrap_err();
    assert!(e.contains("only Line, or Column: attack column"), "{e}");
    // Sharpshooters have no attack column.
    let mut b = duel(
        ("SS", "Regular", ""),
        ("Inf", "Regular", ""),
        1000.0,
        "",
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    refused(
        &mut b,
        Command::Form {
            unit: id("f"),
            formation: Formation::Column,
            turn: 0.0,
        },
    );
}

#[test]
fn cavalry_against_infantry_and_lancers() {
    let mut b = charge_setup(
        ("LC", "Regular", ", flags: [Lancer]"),
        ("Inf", "Regular", ""),
        200.0,
    );
    to_contact(&mut b).expect("charge");
    let (a, _, e) = combat(&mut b, &[3, 4, 3, 3, 3, 3]);
    assert_eq!(a, ["+3 Light Cavalry", "-1 Cavalry against infantry"]);
    // 3+2 = 5 against 4+4 = 8: beaten. A draw beats lancers too.
    let DbnEvent::CloseCombat { loser, .. } = e else {
        unreachable!()
    };
    assert_eq!(loser, Some(id("f")));
    let mut b = charge_setup(
        ("LC", "Regular", ", flags: [Lancer]"),
        ("LC", "Regular", ""),
        200.0,
    );
    to_contact(&mut b).expect("charge");
    let (a, _, e) = combat(&mut b, &[3, 4, 3, 3, 3, 3]);
    // As HC against mounted (+1): 3+1+3 = 7 against 3+4 = 7: a draw, which the lancer loses.
    assert_eq!(a, ["+3 Light Cavalry", "+1 Heavy Cavalry against mounted"]);
    let DbnEvent::CloseCombat { loser, verdict, .. } = e else {
        unreachable!()
    };
    assert_eq!((loser, verdict), (Some(id("f")), Verdict::Beaten));
}

#[test]
fn zouaves_fight_as_elite_and_bavarians_as_line() {
    let mut b = charge_setup(
        ("InfBLR2", "Regular", ", flags: [Zouave]"),
        ("Inf", "Militia", ", flags: [Bavarian]"),
        150.0,
    );
    to_contact(&mut b).expect("charge");
    let (a, d, _) = combat(&mut b, &[3, 3]);
    assert!(a.contains(&"+1 Elite".to_string()), "{a:?}");
    assert!(!d.iter().any(|x| x.contains("Poor")), "{d:?}");
}

#[test]
fn firing_results_by_type() {
    // SC beaten in firing flee without a hit; a garrison takes nothing.
    let mut b = duel(("Inf", "Regular", ""), ("SC", "Regular", ""), 200.0, "", "");
    to_phase(&mut b, 0, FIRING);
    // 4+3 = 7 against 1+5 = 6: beaten, not by double.
    let (_, _, e, _) = shoot(&mut b, &[3, 5]);
    let DbnEvent::Fire { effect, .. } = e else {
        unreachable!()
    };
    assert_eq!(effect, Effect::Flee { hits: 0 });
    let town = "(id: \"t\", kind: Town, name: \"Stiring\", points: [(940, 532), (1060, 532), (1060, 600), (940, 600)]),";
    let mut b = duel(
        ("FAFr", "Regular", ""),
        ("Inf", "Regular", ""),
        80.0,
        town,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (_, _, e, _) = shoot(&mut b, &[6, 1]);
    let DbnEvent::Fire {
        effect, verdict, ..
    } = e
    else {
        unreachable!()
    };
    assert_eq!((verdict, effect), (Verdict::Beaten, Effect::NoEffect));
}

#[test]
fn dsc_attacked_throws_its_own_die() {
    for (die, fled) in [(3u8, true), (4, false)] {
        let mut b = charge_setup(
            ("HC", "Regular", ""),
            ("DSC", "Regular", ", division: Some(Left)"),
            200.0,
        );
        to_contact(&mut b).expect("charge");
        to_phase(&mut b, 0, CLOSE_COMBAT);
        b.script_dice(&[die]);
        let ev = b.execute(fight("f", "g")).expect("fight");
        assert_eq!(
            ev.iter().any(|e| matches!(e, Event::Fled { .. })),
            fled,
            "{die}"
        );
        assert_eq!(
            ev.iter().any(|e| matches!(e, Event::Destroyed { .. })),
            !fled,
            "{die}"
        );
    }
    // A DSC is not fired at.
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("DSC", "Regular", ""),
        200.0,
        "",
        "",
    );
    to_phase(&mut b, 0, FIRING);
    assert_eq!(
        refused_as(&mut b, fire("f", "g")),
        Ok(dbn::Refusal::DivisionalNotFiredAt)
    );
}

#[test]
fn ammunition_runs_low_then_out_and_a_baggage_train_resupplies() {
    let x = "options: [\"ammunition\"],";
    let mut b = duel(
        ("FAFr", "Regular", ""),
        ("Inf", "Regular", ""),
        800.0,
        "",
        x,
    );
    to_phase(&mut b, 0, FIRING);
    shoot(&mut b, &[1, 6]);
    assert_eq!(b.unit(&id("f")).unwrap().status.ammo, Ammo::Low);
    // Next bound (command dice 6 and 6 for the two bounds) it fires its last round, then is out.
    next_firing(&mut b, &[6, 6, 4, 4]);
    shoot_scripted(&mut b);
    assert_eq!(b.unit(&id("f")).unwrap().status.ammo, Ammo::Out);
    next_firing(&mut b, &[6, 6]);
    assert_eq!(
        refused_as(&mut b, fire("f", "g")),
        Ok(dbn::Refusal::OutOfAmmunition)
    );
    // Without the option nothing happens.
    let mut b = duel(
        ("FAFr", "Regular", ""),
        ("Inf", "Regular", ""),
        800.0,
        "",
        "",
    );
    to_phase(&mut b, 0, FIRING);
    shoot(&mut b, &[1, 6]);
    assert_eq!(b.unit(&id("f")).unwrap().status.ammo, Ammo::Full);
}

#[test]
fn own_pack_or_an_adjacent_friends_pack_keeps_the_guns_supplied() {
    let x = "options: [\"ammunition\"],";
    // HA carries 1 pack: the first 1 uses it.
    let mut b = duel(("HA", "Regular", ""), ("Inf", "Regular", ""), 800.0, "", x);
    assert_eq!(b.unit(&id("f")).unwrap().status.packs, 1);
    to_phase(&mut b, 0, FIRING);
    shoot(&mut b, &[1, 6]);
    let u = b.unit(&id("f")).unwrap();
    assert_eq!((u.status.ammo, u.status.packs), (Ammo::Full, 0));
    // A baggage train beside the battery hands over a pack.
    let gy = 500.0 + 20.0 + 8.0 * P + 7.5;
    let mut b = fpw(
        &[
            ("f", 0, "FAFr", "Regular", 1000.0, 500.0, 0.0, ""),
            ("bt", 0, "BT", "Regular", 1040.0, 500.0, 0.0, ""),
            ("g", 1, "Inf", "Regular", 1000.0, gy, 180.0, ""),
        ],
        "",
        x,
    );
    to_phase(&mut b, 0, FIRING);
    shoot(&mut b, &[1, 6]);
    assert_eq!(b.unit(&id("f")).unwrap().status.ammo, Ammo::Full);
    assert_eq!(b.unit(&id("bt")).unwrap().status.packs, 3);
}

#[test]
fn a_caisson_resupplies_within_its_radius_by_a_path_clear_of_the_enemy() {
    let x = "options: [\"ammunition\"],";
    // German side 1: battery at y=1500 facing -y, the French far off at y=300.
    let build = |cu_y: f32| {
        fpw(
            &[
                ("g", 0, "Inf", "Regular", 1000.0, 100.0, 0.0, ""),
                ("f", 1, "FAPr", "Regular", 1000.0, 1900.0, 180.0, ""),
                ("cu", 1, "CU", "Regular", 1000.0, cu_y + 400.0, 180.0, ""),
            ],
            "",
            x,
        )
    };
    // The caisson 800 paces behind the battery reaches it; 1300 paces (beyond 1200) not.
    for (gap, supplied) in [(8.0, true), (15.0, false)] {
        let b = build(1500.0 - gap * P);
        let g = b.unit(&id("f")).unwrap().clone();
        let cu = b.unit(&id("cu")).unwrap().clone();
        let AnyRuleset::Dbfpw(r) = &b.rules else {
            panic!()
        };
        assert_eq!(
            volley::rules::ruleset::dbn::dbfpw::Fpw::supply_path(r, &b, &cu, &g),
            supplied,
            "caisson {gap}00 paces away"
        );
    }
    // An enemy within 400 paces of every way blocks the path.
    let mut b = fpw(
        &[
            ("g", 0, "HC", "Regular", 1000.0, 1700.0, 0.0, ""),
            ("f", 1, "FAPr", "Regular", 1000.0, 1500.0, 180.0, ""),
            ("cu", 1, "CU", "Regular", 1000.0, 1900.0, 180.0, ""),
        ],
        "",
        x,
    );
    to_phase(&mut b, 1, FIRING);
    let g = b.unit(&id("f")).unwrap().clone();
    let cu = b.unit(&id("cu")).unwrap().clone();
    let AnyRuleset::Dbfpw(r) = &b.rules else {
        panic!()
    };
    assert!(!volley::rules::ruleset::dbn::dbfpw::Fpw::supply_path(
        r, &b, &cu, &g
    ));
}

#[test]
fn the_opponent_is_told_which_battery_a_supplier_should_take_its_packs_to() {
    let x = "options: [\"ammunition\"],";
    // German side 1: two batteries, the nearer to the caisson low on ammunition later; the
    // caisson 2,000 paces behind them, a baggage train beside it.
    let back = 1200.0 + 20.0 * P;
    let build = |extra: &str| {
        fpw(
            &[
                ("g", 0, "Inf", "Regular", 1000.0, 100.0, 0.0, ""),
                ("f1", 1, "FAPr", "Regular", 700.0, 1200.0, 180.0, ""),
                ("f2", 1, "FAPr", "Regular", 1300.0, 1200.0, 180.0, ""),
                ("cu", 1, "CU", "Regular", 1000.0, back, 180.0, ""),
                ("bt", 1, "BT", "Regular", 1100.0, back, 180.0, ""),
            ],
            "",
            extra,
        )
    };
    let wants = |b: &Game, who: &str| {
        let u = b.unit(&id(who)).unwrap();
        b.rules.supplies(b, u)
    };
    // Every gun full: nobody is sent anywhere.
    let mut b = build(x);
    assert_eq!(wants(&b, "cu"), None);
    // The far battery low: the caisson goes to within its 1,200 paces, the train to contact.
    b.unit_mut(&id("f2")).unwrap().status.ammo = Ammo::Low;
    let radius = b.scale.to_mm(1200.0);
    assert_eq!(wants(&b, "cu"), Some((id("f2"), radius)));
    assert_eq!(wants(&b, "bt"), Some((id("f2"), 0.0)));
    // Both low: the nearer one first (f2 for the train, standing right of the caisson).
    b.unit_mut(&id("f1")).unwrap().status.ammo = Ammo::Out;
    assert_eq!(wants(&b, "bt").map(|w| w.0), Some(id("f2")));
    // A caisson shaken reaches half as far; one without packs is sent nowhere.
    b.unit_mut(&id("cu")).unwrap().status.shaken = true;
    assert_eq!(wants(&b, "cu").map(|w| w.1), Some(radius / 2.0));
    b.unit_mut(&id("cu")).unwrap().status.packs = 0;
    assert_eq!(wants(&b, "cu"), None);
    // A battery the caisson already reaches needs nobody: it is supplied at the bound's start.
    let mut b = build(x);
    b.unit_mut(&id("cu")).unwrap().base.centre = Pt::new(700.0, 1200.0 + 8.0 * P);
    b.unit_mut(&id("f1")).unwrap().status.ammo = Ammo::Low;
    assert_eq!(wants(&b, "bt"), None);
    // Without the optional rule no unit carries supplies.
    let mut b = build("");
    b.unit_mut(&id("f1")).unwrap().status.ammo = Ammo::Low;
    assert_eq!(wants(&b, "cu"), None);
}

#[test]
fn skirmishing_cavalry_dismount_and_mount() {
    let mut b = duel(("SC", "Regular", ""), ("Inf", "Regular", ""), 280.0, "", "");
    to_phase(&mut b, 0, FIRING);
    // Mounted they reach 200 paces only.
    assert_eq!(
        refused_as(&mut b, fire("f", "g")),
        Ok(dbn::Refusal::OutOfRange)
    );
    let mut b = duel(("SC", "Regular", ""), ("Inf", "Regular", ""), 280.0, "", "");
    to_phase(&mut b, 0, MOVEMENT);
    let form = |f: Formation| Command::Form {
        unit: id("f"),
        formation: f,
        turn: 0.0,
    };
    b.execute(form(Formation::Dismounted)).expect("dismount");
    assert_eq!(
        refused_as(&mut b, mv("f", vec![Step::Advance(P)])),
        Ok(Refusal::DismountedThisBound)
    );
    to_phase(&mut b, 0, FIRING);
    shoot(&mut b, &[3, 3, 6, 6]);
    // Next bound: mount, then may move but not charge.
    b.execute(Command::EndPhase).expect("end phase");
    to_phase(&mut b, 0, MOVEMENT);
    b.execute(form(Formation::Line)).expect("mount");
    assert_eq!(
        refused_as(&mut b, mv("f", vec![Step::ToContact(id("g"))])),
        Ok(Refusal::MountedNoCloseCombat)
    );
    b.execute(mv("f", vec![Step::Backstep(P)]))
        .expect("mounted move");
}

#[test]
fn second_moves_only_out_of_enemy_artillery_range() {
    let mut b = fpw(
        &[
            ("f", 0, "Inf", "Regular", 1000.0, 200.0, 0.0, ""),
            ("g", 1, "Inf", "Regular", 1000.0, 1900.0, 180.0, ""),
        ],
        "",
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.script_dice(&[]);
    b.execute(mv("f", vec![Step::Advance(P)]))
        .expect("first move");
    b.execute(mv("f", vec![Step::Advance(P)]))
        .expect("second move away from guns");
    let mut b = fpw(
        &[
            ("f", 0, "Inf", "Regular", 1000.0, 200.0, 0.0, ""),
            (
                "g",
                1,
                "FAPr",
                "Regular",
                1000.0,
                200.0 + 15.0 * P,
                180.0,
                "",
            ),
        ],
        "",
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.execute(mv("f", vec![Step::Backstep(P / 2.0)]))
        .expect("first move");
    assert_eq!(
        refused_as(&mut b, mv("f", vec![Step::Backstep(P / 2.0)])),
        Ok(Refusal::NoSecondMoveUnderGuns)
    );
    // A Mitrailleuse 500 paces off (its range 600) counts as artillery.
    let mut b = fpw(
        &[
            ("f", 0, "Inf", "Regular", 1000.0, 200.0, 0.0, ""),
            ("g", 1, "Mit", "Regular", 1000.0, 200.0 + 5.0 * P, 180.0, ""),
        ],
        "",
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    b.execute(mv("f", vec![Step::Backstep(P / 2.0)]))
        .expect("first move");
    assert_eq!(
        refused_as(&mut b, mv("f", vec![Step::Backstep(P / 2.0)])),
        Ok(Refusal::NoSecondMoveUnderGuns)
    );
}

#[test]
fn divisional_commanders_give_two_caps_and_command_their_division() {
    let mut b = fpw(
        &[
            ("cinc", 0, "CinC", "Regular", 300.0, 200.0, 0.0, ""),
            (
                "dsc",
                0,
                "DSC",
                "Regular",
                1000.0,
                200.0,
                0.0,
                ", division: Some(Left)",
            ),
            (
                "i",
                0,
                "Inf",
                "Regular",
                1050.0,
                200.0,
                0.0,
                ", division: Some(Left)",
            ),
            ("g", 1, "Inf", "Regular", 1000.0, 1900.0, 180.0, ""),
        ],
        "",
        "options: [\"larger_battles\"],",
    );
    b.script_dice(&[4]);
    let ev = b.execute(Command::EndPhase).expect("command roll");
    let roll = ev
        .iter()
        .find_map(|e| match e.own() {
            Some(DbnEvent::CommandRoll {
                dice,
                total,
                divisions,
                ..
            }) => Some((dice.clone(), *total, divisions.clone())),
            _ => None,
        })
        .expect("a command roll");
    // The CinC's die is the side's; the DSC's 2 CAPs are its division's own.
    assert_eq!(roll, (vec![4], 4, vec![(Division::Left, 2)]));
}

#[test]
fn a_dscs_command_points_move_only_its_division() {
    let mut b = fpw(
        &[
            ("cinc", 0, "CinC", "Regular", 300.0, 200.0, 0.0, ""),
            (
                "dsc",
                0,
                "DSC",
                "Regular",
                1000.0,
                200.0,
                0.0,
                ", division: Some(Left)",
            ),
            (
                "i",
                0,
                "Inf",
                "Regular",
                1050.0,
                200.0,
                0.0,
                ", division: Some(Left)",
            ),
            ("j", 0, "Inf", "Regular", 400.0, 200.0, 0.0, ""),
            ("k", 0, "Inf", "Regular", 450.0, 200.0, 0.0, ""),
            ("g", 1, "Inf", "Regular", 1000.0, 1900.0, 180.0, ""),
        ],
        "",
        "options: [\"larger_battles\"],",
    );
    b.script_dice(&[1]);
    b.execute(Command::EndPhase).expect("command roll");
    assert_eq!(b.command_points[0], 1);
    assert_eq!(b.division_points, vec![(Division::Left, 2)]);
    b.execute(mv("j", vec![Step::Advance(P)]))
        .expect("the side's point moves j");
    assert_eq!(b.command_points[0], 0);
    // The Left division's points cannot move k, of no division.
    let e = refusal(&mut b, mv("k", vec![Step::Advance(P)]));
    assert_eq!(
        e,
        RuleError::NotEnoughCommandPoints {
            need: 1,
            have: 0,
            what: "move k".into()
        },
        "{e}"
    );
    // They move i, of the Left division.
    b.execute(mv("i", vec![Step::Advance(P)]))
        .expect("the DSC's points move i");
    assert_eq!(b.division_points, vec![(Division::Left, 1)]);
}

#[test]
fn a_move_out_of_command_range_says_why_it_costs_two() {
    let mut b = fpw(
        &[
            ("cinc", 0, "CinC", "Regular", 300.0, 200.0, 0.0, ""),
            ("j", 0, "Inf", "Regular", 400.0, 200.0, 0.0, ""),
            // 1600 paces from the CinC: beyond his 1200.
            ("k", 0, "Inf", "Regular", 300.0 + 16.0 * P, 200.0, 0.0, ""),
            ("g", 1, "Inf", "Regular", 1000.0, 1900.0, 180.0, ""),
        ],
        "",
        "",
    );
    b.script_dice(&[1]);
    b.execute(Command::EndPhase).expect("command roll");
    assert_eq!(b.command_points[0], 1);
    let e = refusal(&mut b, mv("k", vec![Step::Advance(P)]));
    assert_eq!(
        e.to_string(),
        "needs 2 command points to move k (1 + 1 out of command range: no general within \
         1200 paces), 1 left"
    );
    let ev = b
        .execute(mv("j", vec![Step::Advance(P)]))
        .expect("j, in range, moves for 1");
    let spent: Vec<String> = ev
        .iter()
        .filter_map(|e| match e.own() {
            Some(DbnEvent::CommandPointsSpent { amount, reason, .. }) => {
                Some(format!("{amount} {reason}"))
            }
            _ => None,
        })
        .collect();
    assert_eq!(spent, vec!["1 move j"]);
}

fn check(text: &str) -> Result<Game, String> {
    scenario::parse(text, "inline").map_err(|d| format!("{d:?}"))
}

#[test]
fn scenarios_load_and_the_default_armies_are_valid() {
    for f in [
        "scenarios/dbfpw_default.ron",
        "scenarios/dbfpw_tutorial.ron",
        "scenarios/dbfpw_spicheren.ron",
    ] {
        let text = std::fs::read_to_string(f).unwrap();
        check(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
}

#[test]
fn army_lists_refuse_with_the_reason() {
    let text = std::fs::read_to_string("scenarios/dbfpw_default.ron").unwrap();
    // Three lancers among the French LC break the one-in-three rule.
    let bad = text.replacen("type: \"LC\",", "type: \"LC\", flags: [Lancer],", 3);
    assert_ne!(bad, text, "the default game fields LC");
    let e = check(&bad).unwrap_err();
    assert!(e.contains("Lancers among"), "{e}");
    // A Mitrailleuse in the German army fits no line of its list.
    let german_mit = text.replacen("type: \"FAPr\"", "type: \"Mit\"", 1);
    assert_ne!(german_mit, text, "the default game fields FAPr");
    let e = check(&german_mit).unwrap_err();
    assert!(e.contains("not in the Prussian/German list"), "{e}");
    // Each rule of the lists and the special rules, one edit each: (from, to, the reason).
    let cases = [
        // 15 points exactly; an elite IR 48 adds 0.5.
        (
            "id: \"pr-48\", name: \"IR 48\", side: 0, type: \"Inf\", class: Regular",
            "id: \"pr-48\", name: \"IR 48\", side: 0, type: \"Inf\", class: Elite",
            "costs 15.50 points",
        ),
        // A line's minimum: the Imperial French field 1-2 HC.
        (
            "id: \"fr-hc\", name: \"Cuirassier brigade\", side: 1, type: \"HC\"",
            "id: \"fr-hc\", name: \"Cuirassier brigade\", side: 1, type: \"LC\"",
            "1-2 HC has 0",
        ),
        // Two German infantry in eight may be Bavarian: a third of nine is too many.
        (
            "type: \"Inf\", class: Militia, at: Some((320, 250))",
            "type: \"Inf\", class: Militia, flags: [Bavarian], at: Some((320, 250))",
            "3 Bavarian infantry among 9",
        ),
        (
            "type: \"Inf\", class: Regular, at: Some((530, 250))",
            "type: \"Inf\", class: Regular, flags: [Zouave], at: Some((530, 250))",
            "Zouaves, North Africans and Chasseurs d'Afrique are French",
        ),
        (
            "id: \"fr-sc\", name: \"5e hussards\", side: 1, type: \"SC\"",
            "id: \"fr-sc\", name: \"5e hussards\", side: 1, type: \"CU\"",
            "caisson units are Prussian",
        ),
        (
            "side: 0, type: \"CinC\", class: Regular",
            "side: 0, type: \"CinC\", class: Militia",
            "only the French can have Poor commanders",
        ),
        (
            "type: \"FAPr\", class: Regular, at: Some((430, 250))",
            "type: \"FAPr\", class: Regular, flags: [Guard], at: Some((430, 250))",
            "Guard artillery",
        ),
        (
            "type: \"FAPr\", class: Regular, at: Some((430, 250))",
            "type: \"FAPr\", class: Elite, at: Some((430, 250))",
            "only Guard artillery is elite",
        ),
        // Packs beyond the allowance: infantry carry none.
        (
            "type: \"Inf\", class: Regular, at: Some((530, 250))",
            "type: \"Inf\", class: Regular, packs: Some(1), at: Some((530, 250))",
            "'pr-48' carries 1 pack(s): Infantry BLR1 may carry 0",
        ),
        // Larger battles: the infantry must serve under a DSC.
        (
            "options: [\"ammunition\"]",
            "options: [\"ammunition\", \"larger_battles\"]",
            "must be under the direct command of a DSC",
        ),
    ];
    for (from, to, reason) in cases {
        let bad = text.replacen(from, to, 1);
        assert_ne!(bad, text, "the default game has {from}");
        let e = check(&bad).unwrap_err();
        assert!(e.contains(reason), "{reason}: {e}");
    }
    // Prepared fortifications cost 0.5 a unit: a work around two French battalions.
    let works = "(id: \"works\", kind: Fortification, name: \"Works\", points: [(380, 930), (470, 930), (470, 970), (380, 970)]),\n        (id: \"saint-aubin\"";
    let bad = text.replacen("(id: \"saint-aubin\"", works, 1);
    assert_ne!(bad, text);
    let e = check(&bad).unwrap_err();
    assert!(
        e.contains("costs 16.00 points (prepared fortifications 1.0)"),
        "{e}"
    );
}

#[test]
fn the_standard_table_is_checked() {
    let e = check(
        "(name: \"t\", ruleset: \"dbfpw\", table: (width: 800, height: 800), seed: 1, turn_limit: 5, standard: true,
          sides: [(name: \"A\", nation: \"imperial_french\", colour: (0,0,200)), (name: \"B\", nation: \"german\", colour: (0,0,0))],
          units: [(id: \"a\", side: 0, type: \"Inf\", at: Some((400, 100))), (id: \"b\", side: 1, type: \"Inf\", at: Some((400, 700)), facing: 180)])",
    )
    .unwrap_err();
    assert!(e.contains("4000 paces square"), "{e}");
    assert!(e.contains("2400"), "{e}");
    assert!(e.contains("BUA"), "{e}");
}

#[test]
fn class_poor_reads_as_poor() {
    let b = duel(("Inf", "Poor", ""), ("Inf", "Regular", ""), 200.0, "", "");
    assert_eq!(
        b.rules.class_name(volley::rules::model::Class::Militia),
        "Poor"
    );
    let _ = b;
}

#[test]
fn every_dbfpw_scenario_plays_to_a_result_and_replays() {
    use volley::players::autoplay::AutoPlayer;
    for f in [
        "scenarios/dbfpw_default.ron",
        "scenarios/dbfpw_tutorial.ron",
        "scenarios/dbfpw_spicheren.ron",
    ] {
        let mut b = scenario::load(std::path::Path::new(f)).unwrap();
        AutoPlayer::new(3).play(&mut b, 2000, 12);
        assert!(b.is_over(), "{f} ends: turn {} of {}", b.turn, b.turn_limit);
        assert!(
            b.log
                .iter()
                .any(|e| matches!(e.own(), Some(DbnEvent::Fire { .. }))),
            "{f}: someone fired"
        );
        // The accepted commands replay to the same events (determinism).
        let mut c = scenario::load(std::path::Path::new(f)).unwrap();
        for cmd in b.commands.to_vec() {
            c.execute(cmd).unwrap();
        }
        assert_eq!(
            ron::to_string(&b.log).unwrap(),
            ron::to_string(&c.log).unwrap(),
            "{f}"
        );
    }
}

// ---- Every remaining row of both playsheets ----

/// A charge from `gap` paces on this terrain; the combat's factor names for both sides.
fn charge_on(f: (&str, &str, &str), g: (&str, &str, &str), gap: f32, terrain: &str) -> Game {
    let mut b = duel(f, g, gap, terrain, "");
    to_phase(&mut b, 0, MOVEMENT);
    b
}

/// The y of "g" in a duel: `gap` paces ahead of "f" at y = 500.
fn target_y(f: &str, g: &str, gap: f32) -> f32 {
    500.0 + depth(f) / 2.0 + gap * P / 100.0 + depth(g) / 2.0
}

/// The list has this factor (a support factor followed by the supporter's name counts).
fn has(list: &[String], want: &str) -> bool {
    list.iter()
        .any(|x| x == want || x.starts_with(&format!("{want} (")))
}

#[test]
fn firing_rows_shaken_support_not_responding_and_bridge() {
    // Shaken: -1 to the shaken unit's score.
    let mut b = duel(
        ("Inf", "Regular", ", hits: 2"),
        ("Inf", "Regular", ""),
        200.0,
        "",
        "",
    );
    assert!(b.unit(&id("f")).unwrap().status.shaken);
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, _) = shoot(&mut b, &[3, 3]);
    assert!(has(&s, "-1 Shaken"), "{s:?}");
    // Fire support: a second battalion beside the first supports; the target takes -1 for it.
    let ty = target_y("Inf", "Inf", 200.0);
    let mut b = fpw(
        &[
            ("f", 0, "Inf", "Regular", 1000.0, 500.0, 0.0, ""),
            ("f2", 0, "Inf", "Regular", 1040.0, 500.0, 0.0, ""),
            ("g", 1, "Inf", "Regular", 1000.0, ty, 180.0, ""),
        ],
        "",
        "",
    );
    to_phase(&mut b, 0, FIRING);
    b.script_dice(&[3, 3]);
    let ev = b
        .execute(Command::Fire {
            unit: id("f"),
            target: id("g"),
            support: vec![id("f2")],
            defence: None,
        })
        .expect("supported fire");
    let DbnEvent::Fire { target_score, .. } = common::fire_event(&ev) else {
        unreachable!()
    };
    let t = names(&target_score.factors);
    assert!(has(&t, "-1 Enemy unit providing fire support"), "{t:?}");
    // Artillery not responding: French guns 1,600 paces from a Prussian battery (their
    // effective range is 1,400 and, off raised ground, no long range) cannot answer.
    // The shooter is on the German side (side 1).
    let mut b2 = fpw_nations(
        &[
            ("g", 0, "FAFr", "Regular", 1000.0, 500.0, 0.0, ""),
            (
                "f",
                1,
                "FAPr",
                "Regular",
                1000.0,
                target_y("FAFr", "FAPr", 1600.0),
                180.0,
                "",
            ),
        ],
        "",
        "",
        "imperial_french",
    );
    to_phase(&mut b2, 1, FIRING);
    let (s, t, _, _) = shoot(&mut b2, &[3, 3]);
    assert!(
        has(&t, "-1 Artillery not responding to enemy firing"),
        "{t:?}"
    );
    assert!(!has(&s, "-1 Artillery not responding to enemy firing"));
    // Within its own range it answers, and takes nothing.
    let mut b = duel(
        ("FAFr", "Regular", ""),
        ("FAFr", "Regular", ""),
        1000.0,
        "",
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (_, t, _, _) = shoot(&mut b, &[3, 3]);
    assert!(!t.iter().any(|x| x.contains("not responding")), "{t:?}");
    // Firing from a bridge: -2.
    let bridge = "(id: \"br\", kind: Bridge, name: \"Saar bridge\", points: [(1000, 460), (1000, 540)], width: 50),";
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("Inf", "Regular", ""),
        200.0,
        bridge,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, t, _, _) = shoot(&mut b, &[3, 3]);
    assert!(has(&s, "-2 Firing whilst on a bridge or causeway"), "{s:?}");
    assert!(!t.iter().any(|x| x.contains("bridge")), "{t:?}");
}

#[test]
fn close_combat_rows_garrison_uphill_general_fortification() {
    let gy = target_y("Inf", "Inf", 150.0);
    // A garrison of a BUA: +4.
    let town = format!(
        "(id: \"t\", kind: Town, name: \"Stiring\", points: [(940, {}), (1060, {}), (1060, {}), (940, {})]),",
        gy - 8.0,
        gy - 8.0,
        gy + 60.0,
        gy + 60.0
    );
    let mut b = charge_on(("Inf", "Regular", ""), ("Inf", "Regular", ""), 150.0, &town);
    to_contact(&mut b).expect("assault the village");
    let (_, d, _) = combat(&mut b, &[3, 3]);
    assert!(has(&d, "+4 Infantry garrisoning a BUA"), "{d:?}");
    // Uphill: the defender on a hill above the attacker.
    let hill = format!(
        "(id: \"h\", kind: Hill, name: \"Rotherberg\", points: [(900, {}), (1100, {}), (1100, {}), (900, {})], level: 1),",
        gy - 8.0,
        gy - 8.0,
        gy + 200.0,
        gy + 200.0
    );
    let mut b = charge_on(("Inf", "Regular", ""), ("Inf", "Regular", ""), 150.0, &hill);
    to_contact(&mut b).expect("charge uphill");
    let (a, d, _) = combat(&mut b, &[3, 3]);
    assert!(has(&d, "+1 Uphill advantage"), "{d:?}");
    assert!(!has(&a, "+1 Uphill advantage"), "{a:?}");
    // A general in full edge contact with the defender's rear: +1.
    let mut b = fpw(
        &[
            ("f", 0, "Inf", "Regular", 1000.0, 500.0, 0.0, ""),
            ("g", 1, "Inf", "Regular", 1000.0, gy, 180.0, ""),
            (
                "c",
                1,
                "CinC",
                "Regular",
                1000.0,
                gy + 7.5 + 20.0,
                180.0,
                "",
            ),
        ],
        "",
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    to_contact(&mut b).expect("charge");
    let (_, d, _) = combat(&mut b, &[3, 3]);
    assert!(
        has(
            &d,
            "+1 Supported by CinC, commander or DSC in full edge contact"
        ),
        "{d:?}"
    );
    // Defending a fortification: +1 (and the attacker's fire into it takes -2, tested above).
    let works = format!(
        "(id: \"w\", kind: Fortification, name: \"Spicherer Höhe works\", points: [(940, {}), (1060, {}), (1060, {}), (940, {})]),",
        gy - 8.0,
        gy - 8.0,
        gy + 30.0,
        gy + 30.0
    );
    let mut b = charge_on(
        ("Inf", "Regular", ""),
        ("Inf", "Regular", ""),
        150.0,
        &works,
    );
    to_contact(&mut b).expect("assault the works");
    let (a, d, _) = combat(&mut b, &[3, 3]);
    assert!(has(&d, "+1 Defending a fortification"), "{d:?}");
    assert!(!has(&a, "+1 Defending a fortification"), "{a:?}");
}

#[test]
fn close_combat_rows_support_shaken_flank_bad_going_ammunition_and_road() {
    let gy = target_y("Inf", "Inf", 150.0);
    // Enemy close combat support: a battalion beside the defender, facing as it does.
    let mut b = fpw(
        &[
            ("f", 0, "Inf", "Regular", 1000.0, 500.0, 0.0, ""),
            ("g", 1, "Inf", "Regular", 1000.0, gy, 180.0, ""),
            ("g2", 1, "Inf", "Regular", 1040.0, gy, 180.0, ""),
        ],
        "",
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    to_contact(&mut b).expect("charge");
    let (a, _, _) = combat(&mut b, &[3, 3]);
    assert!(
        has(&a, "-1 Enemy unit providing close combat support"),
        "{a:?}"
    );
    // Shaken: -1.
    let mut b = charge_on(
        ("Inf", "Regular", ""),
        ("Inf", "Regular", ", hits: 2"),
        150.0,
        "",
    );
    to_contact(&mut b).expect("charge");
    let (_, d, _) = combat(&mut b, &[3, 3]);
    assert!(has(&d, "-1 Shaken"), "{d:?}");
    // Attacked first in flank: the defender faces across the attacker's path.
    let mut b = fpw(
        &[
            ("f", 0, "Inf", "Regular", 1000.0, 500.0, 0.0, ""),
            (
                "g",
                1,
                "Inf",
                "Regular",
                1000.0,
                500.0 + 7.5 + 1.5 * P + 20.0,
                90.0,
                "",
            ),
        ],
        "",
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    to_contact(&mut b).expect("charge the flank");
    let (_, d, _) = combat(&mut b, &[3, 3]);
    assert!(has(&d, "-1 Attacked first in flank or rear"), "{d:?}");
    // Within bad going: both in a wood take -1, sharpshooters nothing.
    let wood = "(id: \"w\", kind: Woods, name: \"Gifertwald\", points: [(800, 400), (1200, 400), (1200, 800), (800, 800)]),";
    let mut b = charge_on(("Inf", "Regular", ""), ("SS", "Regular", ""), 150.0, wood);
    to_contact(&mut b).expect("charge in the wood");
    let (a, d, _) = combat(&mut b, &[3, 3]);
    assert!(has(&a, "-1 Within bad going (not Sharpshooters)"), "{a:?}");
    assert!(!d.iter().any(|x| x.contains("bad going")), "{d:?}");
    assert!(has(&d, "-1 Poor troops or Sharpshooters"), "{d:?}");
    // Out of ammunition: -1 in close combat, guns included.
    let mut b = charge_on(("Inf", "Regular", ""), ("FAFr", "Regular", ""), 150.0, "");
    b.units_mut()
        .iter_mut()
        .find(|u| u.id == id("g"))
        .unwrap()
        .status
        .ammo = Ammo::Out;
    to_contact(&mut b).expect("charge the guns");
    let (_, d, _) = combat(&mut b, &[3, 3]);
    assert!(has(&d, "-1 Out of ammunition"), "{d:?}");
    // Using road movement into the combat: -2. 350 paces is beyond 200 + 100 in good going,
    // within the 400 of a road.
    let road = "(id: \"r\", kind: Road, name: \"Saarbrücken road\", points: [(1000, 300), (1000, 1200)], width: 20),";
    let mut b = charge_on(("Inf", "Regular", ""), ("Inf", "Regular", ""), 350.0, road);
    to_contact(&mut b).expect("charge down the road");
    let (a, d, _) = combat(&mut b, &[3, 3]);
    assert!(
        has(&a, "-2 On a bridge or causeway, or using road movement"),
        "{a:?}"
    );
    assert!(!d.iter().any(|x| x.contains("road movement")), "{d:?}");
}

/// A charge of "f" into "g" and its close combat with these dice: the verdict, the loser's
/// effect, and the scores as text for the failure message. Attacking infantry with no extra
/// fields charges in attack column (+2 against foot).
fn close_result(
    f: (&str, &str, &str),
    g: (&str, &str, &str),
    gap: f32,
    terrain: &str,
    dice: &[u8],
) -> (Verdict, Option<String>, Effect, Effect, String) {
    let column = matches!(f.0, "Inf" | "InfRM" | "InfBLR2") && f.2.is_empty();
    let f = if column {
        (f.0, f.1, ", formation: Some(Column)")
    } else {
        f
    };
    let mut b = charge_on(f, g, gap, terrain);
    to_contact(&mut b).expect("charge");
    let (a, d, e) = combat(&mut b, dice);
    let DbnEvent::CloseCombat {
        verdict,
        loser,
        attacker_effect,
        defender_effect,
        attacker_score,
        defender_score,
        ..
    } = e
    else {
        unreachable!()
    };
    let text = format!(
        "{a:?} {} against {d:?} {}",
        attacker_score.total, defender_score.total
    );
    (
        verdict,
        loser.map(|l| l.to_string()),
        attacker_effect,
        defender_effect,
        text,
    )
}

#[test]
fn close_combat_results_by_type() {
    use Effect::*;
    let wood = "(id: \"w\", kind: Woods, name: \"Wood\", points: [(800, 400), (1200, 400), (1200, 800), (800, 800)]),";
    let town = "(id: \"t\", kind: Town, name: \"Stiring\", points: [(940, 532), (1060, 532), (1060, 640), (940, 640)]),";
    let reg = |t: &'static str| (t, "Regular", "");
    // (attacker, defender, gap, terrain, dice, verdict, loser, attacker's effect, defender's)
    type Case<'a> = (
        (&'a str, &'a str, &'a str),
        (&'a str, &'a str, &'a str),
        f32,
        &'a str,
        [u8; 2],
        Verdict,
        Option<&'a str>,
        Effect,
        Effect,
        &'a str,
    );
    let cases: Vec<Case> = vec![
        // A draw: both take a hit; mounted also recoil.
        (
            reg("Inf"),
            reg("Inf"),
            150.0,
            "",
            [3, 5],
            Verdict::Draw,
            None,
            Hits(1),
            Hits(1),
            "draw, foot",
        ),
        (
            reg("LC"),
            reg("LC"),
            150.0,
            "",
            [3, 3],
            Verdict::Draw,
            None,
            HitAndRecoil,
            HitAndRecoil,
            "draw, mounted",
        ),
        // Beaten, not by double.
        (
            reg("Inf"),
            reg("CinC"),
            150.0,
            "",
            [2, 3],
            Verdict::Beaten,
            Some("g"),
            NoEffect,
            Recoil,
            "commander recoils without a hit",
        ),
        (
            reg("LC"),
            reg("Inf"),
            150.0,
            "",
            [4, 3],
            Verdict::Beaten,
            Some("f"),
            HitAndRecoil,
            NoEffect,
            "mounted: 1 hit and recoil",
        ),
        (
            reg("LC"),
            reg("FAFr"),
            150.0,
            "",
            [2, 4],
            Verdict::Beaten,
            Some("f"),
            Destroyed,
            NoEffect,
            "mounted destroyed by artillery",
        ),
        (
            reg("LC"),
            reg("Inf"),
            150.0,
            wood,
            [5, 4],
            Verdict::Beaten,
            Some("f"),
            Destroyed,
            NoEffect,
            "mounted destroyed in bad going",
        ),
        (
            reg("Inf"),
            reg("FAFr"),
            150.0,
            "",
            [3, 3],
            Verdict::Beaten,
            Some("g"),
            NoEffect,
            Destroyed,
            "artillery destroyed",
        ),
        (
            reg("Inf"),
            reg("Gs"),
            150.0,
            "",
            [1, 4],
            Verdict::Beaten,
            Some("g"),
            NoEffect,
            Destroyed,
            "guerrillas destroyed",
        ),
        (
            reg("LC"),
            reg("SS"),
            150.0,
            "",
            [4, 4],
            Verdict::Beaten,
            Some("g"),
            NoEffect,
            Destroyed,
            "sharpshooters destroyed by mounted in good going",
        ),
        (
            reg("Inf"),
            reg("SS"),
            150.0,
            "",
            [2, 6],
            Verdict::Beaten,
            Some("g"),
            NoEffect,
            Flee { hits: 1 },
            "sharpshooters: 1 hit and flee",
        ),
        (
            reg("HC"),
            reg("Inf"),
            150.0,
            "",
            [6, 3],
            Verdict::Beaten,
            Some("g"),
            NoEffect,
            Destroyed,
            "infantry destroyed by HC in good going",
        ),
        (
            reg("Inf"),
            reg("Inf"),
            150.0,
            "",
            [5, 5],
            Verdict::Beaten,
            Some("g"),
            NoEffect,
            HitAndRecoil,
            "infantry: 1 hit and recoil",
        ),
        (
            reg("Inf"),
            reg("Inf"),
            80.0,
            town,
            [6, 1],
            Verdict::Beaten,
            Some("g"),
            NoEffect,
            Destroyed,
            "garrison destroyed",
        ),
        // Beaten by double.
        (
            reg("Inf"),
            reg("CinC"),
            150.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Some("g"),
            NoEffect,
            Destroyed,
            "commander destroyed",
        ),
        (
            reg("LC"),
            reg("SC"),
            150.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Some("g"),
            NoEffect,
            Destroyed,
            "SC destroyed by mounted",
        ),
        (
            reg("Inf"),
            reg("SC"),
            150.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Some("g"),
            NoEffect,
            Flee { hits: 1 },
            "SC flee with a hit",
        ),
        (
            reg("Inf"),
            reg("SS"),
            150.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Some("g"),
            NoEffect,
            Flee { hits: 1 },
            "SS flee with a hit",
        ),
        (
            reg("SS"),
            reg("SS"),
            150.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Some("g"),
            NoEffect,
            Destroyed,
            "SS destroyed by SS",
        ),
        (
            reg("Inf"),
            reg("Inf"),
            150.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Some("g"),
            NoEffect,
            Destroyed,
            "all others destroyed",
        ),
    ];
    for (f, g, gap, terrain, dice, verdict, loser, ae, de, what) in cases {
        let (v, l, a, d, text) = close_result(f, g, gap, terrain, &dice);
        assert_eq!(
            (v, l.as_deref(), a, d),
            (verdict, loser, ae, de),
            "{what}: {text}"
        );
    }
}

/// "f" fires at "g" with these dice: the verdict, the target's effect, and the scores.
fn firing_result(
    f: (&str, &str, &str),
    g: (&str, &str, &str),
    gap: f32,
    terrain: &str,
    dice: &[u8],
) -> (Verdict, Effect, String) {
    let mut b = duel(f, g, gap, terrain, "");
    to_phase(&mut b, 0, FIRING);
    let (s, t, e, _) = shoot(&mut b, dice);
    let DbnEvent::Fire {
        verdict,
        effect,
        shooter_score,
        target_score,
        ..
    } = e
    else {
        unreachable!()
    };
    let text = format!(
        "{s:?} {} against {t:?} {}",
        shooter_score.total, target_score.total
    );
    (verdict, effect, text)
}

#[test]
fn firing_results_by_type_every_row() {
    use Effect::*;
    let wood = "(id: \"w\", kind: Woods, name: \"Wood\", points: [(900, 528), (1100, 528), (1100, 600), (900, 600)]),";
    let town = "(id: \"t\", kind: Town, name: \"Stiring\", points: [(940, 532), (1060, 532), (1060, 640), (940, 640)]),";
    let reg = |t: &'static str| (t, "Regular", "");
    type Case<'a> = (
        (&'a str, &'a str, &'a str),
        (&'a str, &'a str, &'a str),
        f32,
        &'a str,
        [u8; 2],
        Verdict,
        Effect,
        &'a str,
    );
    let cases: Vec<Case> = vec![
        (
            reg("Inf"),
            reg("Inf"),
            200.0,
            "",
            [3, 3],
            Verdict::Draw,
            NoEffect,
            "a draw: no effect",
        ),
        // Beaten, not by double.
        (
            reg("Inf"),
            reg("CinC"),
            200.0,
            "",
            [3, 4],
            Verdict::Beaten,
            Recoil,
            "commander recoils without a hit",
        ),
        (
            reg("Inf"),
            reg("SS"),
            200.0,
            "",
            [3, 4],
            Verdict::Beaten,
            HitAndRecoil,
            "sharpshooters in the open: hit and recoil",
        ),
        (
            reg("Inf"),
            reg("SS"),
            80.0,
            town,
            [4, 3],
            Verdict::Beaten,
            Hits(1),
            "sharpshooters in a BUA: no recoil",
        ),
        (
            reg("Inf"),
            reg("SC"),
            200.0,
            "",
            [3, 5],
            Verdict::Beaten,
            Flee { hits: 0 },
            "SC flee without a hit",
        ),
        (
            reg("Inf"),
            reg("Inf"),
            80.0,
            town,
            [6, 1],
            Verdict::Beaten,
            NoEffect,
            "garrison: no effect",
        ),
        (
            reg("Inf"),
            reg("Inf"),
            200.0,
            "",
            [5, 3],
            Verdict::Beaten,
            Hits(1),
            "all others: 1 hit",
        ),
        // Beaten by double.
        (
            reg("Inf"),
            reg("CinC"),
            200.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Destroyed,
            "commander destroyed",
        ),
        (
            reg("Inf"),
            ("FAFr", "Regular", ", flags: [Fixed]"),
            200.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Destroyed,
            "fixed artillery destroyed",
        ),
        (
            reg("Inf"),
            reg("Gs"),
            200.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Destroyed,
            "guerrillas destroyed",
        ),
        (
            reg("Inf"),
            reg("SC"),
            80.0,
            wood,
            [6, 1],
            Verdict::BeatenByDouble,
            Destroyed,
            "SC in bad going destroyed",
        ),
        (
            reg("Inf"),
            reg("SC"),
            200.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Flee { hits: 1 },
            "SC flee with a hit",
        ),
        (
            reg("SS"),
            reg("SS"),
            200.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Destroyed,
            "SS destroyed by skirmishers",
        ),
        (
            reg("Inf"),
            reg("SS"),
            200.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Flee { hits: 1 },
            "SS: 1 hit and flee",
        ),
        (
            reg("Inf"),
            reg("Inf"),
            200.0,
            "",
            [6, 1],
            Verdict::BeatenByDouble,
            Hits(2),
            "all others: 2 hits",
        ),
        (
            ("FAFr", "Elite", ""),
            reg("Inf"),
            80.0,
            town,
            [6, 1],
            Verdict::BeatenByDouble,
            NoEffect,
            "no effect on garrisons",
        ),
    ];
    for (f, g, gap, terrain, dice, verdict, effect, what) in cases {
        let (v, e, text) = firing_result(f, g, gap, terrain, &dice);
        assert_eq!((v, e), (verdict, effect), "{what}: {text}");
    }
}

#[test]
fn dismounted_skirmishing_cavalry_mount_to_flee() {
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("SC", "Regular", ", formation: Some(Dismounted)"),
        200.0,
        "",
        "",
    );
    assert_eq!(b.unit(&id("g")).unwrap().formation, Formation::Dismounted);
    to_phase(&mut b, 0, FIRING);
    // 4+3 = 7 against 1+3 = 4: beaten, not by double: flee 600 paces without a hit, mounted.
    let (_, _, e, ev) = shoot(&mut b, &[3, 3]);
    let DbnEvent::Fire { effect, .. } = e else {
        unreachable!()
    };
    assert_eq!(effect, Effect::Flee { hits: 0 });
    let mounted = ev.iter().position(|e| {
        matches!(
            e,
            Event::Reformed {
                formation: Formation::Line,
                ..
            }
        )
    });
    let fled = ev.iter().position(|e| matches!(e, Event::Fled { .. }));
    assert!(mounted.is_some() && mounted < fled, "{ev:?}");
    let g = b.unit(&id("g")).unwrap();
    assert_eq!((g.formation, g.status.hits), (Formation::Line, 0));
}

#[test]
fn a_target_firing_back_takes_the_factors_of_firing() {
    // BLR2 answering BLR2 from inside a wood: +1 BLR2 and -1 bad going on both sides.
    let wood = "(id: \"w\", kind: Woods, name: \"Wood\", points: [(900, 530), (1100, 530), (1100, 700), (900, 700)]),";
    let mut b = duel(
        ("InfBLR2", "Regular", ""),
        ("InfBLR2", "Regular", ""),
        80.0,
        wood,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, t, _, _) = shoot(&mut b, &[3, 3]);
    let bg = "-1 Firing from within or into bad going (not Sharpshooters)";
    assert!(has(&s, bg) && has(&t, bg), "{s:?} {t:?}");
    let blr2 = "+1 Firing BLR2, Prussian artillery or Mitrailleuse";
    assert!(has(&s, blr2) && has(&t, blr2), "{s:?} {t:?}");
}

#[test]
fn a_jammed_mitrailleuse_gives_no_fire_support_that_phase() {
    // A Prussian battery fires at a French Mitrailleuse 500 paces off: counter-battery fire, so
    // the Mit throws its first die. Then a second battery fires at the battalion beside the
    // Mit, which the Mit would support in defence (-1 to the firer) unless it jammed.
    let y = target_y("Mit", "FAPr", 500.0);
    for (first, supports) in [(1u8, false), (4, true)] {
        let mut b = fpw(
            &[
                ("m", 0, "Mit", "Regular", 1000.0, 500.0, 0.0, ""),
                ("i", 0, "Inf", "Regular", 1045.0, 500.0, 0.0, ""),
                ("a", 1, "FAPr", "Regular", 1000.0, y, 180.0, ""),
                ("a2", 1, "FAPr", "Regular", 1045.0, y, 180.0, ""),
            ],
            "",
            "",
        );
        to_phase(&mut b, 1, FIRING);
        b.script_dice(&[first, 3, 3, 3, 3, 3]);
        b.execute(fire("a", "m")).expect("counter-battery fire");
        let ev = b.execute(fire("a2", "i")).expect("fire at the battalion");
        let DbnEvent::Fire { shooter_score, .. } = common::fire_event(&ev) else {
            unreachable!()
        };
        let s = names(&shooter_score.factors);
        assert_eq!(
            has(&s, "-1 Enemy unit providing fire support"),
            supports,
            "first die {first}: {s:?}"
        );
    }
}

#[test]
fn guerrillas_in_a_town_are_its_garrison() {
    let town = "(id: \"t\", kind: Town, name: \"Bazeilles\", points: [(940, 532), (1060, 532), (1060, 640), (940, 640)]),";
    let (v, e, text) = firing_result(
        ("Inf", "Elite", ""),
        ("Gs", "Regular", ""),
        80.0,
        town,
        &[4, 3],
    );
    // Beaten, not by double: a garrison takes no effect (beaten by double, the guerrillas'
    // own row destroys them).
    assert_eq!((v, e), (Verdict::Beaten, Effect::NoEffect), "{text}");
}

#[test]
fn bavarians_are_poor_and_german_blr2_sharpshooters_bavarian() {
    let text = std::fs::read_to_string("scenarios/dbfpw_default.ron").unwrap();
    let regular = text.replacen(
        "type: \"Inf\", class: Militia, flags: [Bavarian]",
        "type: \"Inf\", class: Regular, flags: [Bavarian]",
        1,
    );
    assert_ne!(regular, text);
    assert!(check(&regular).unwrap_err().contains("classed as Poor"));
    let ss = text.replacen(
        "type: \"SS\", class: Regular, at: Some((180, 255))",
        "type: \"SSBLR2\", class: Regular, at: Some((180, 255))",
        1,
    );
    assert_ne!(ss, text);
    assert!(check(&ss).unwrap_err().contains("only the Bavarian SS"));
    // Units of a class the list does not name are refused: a Poor Imperial HC.
    let poor = text.replacen(
        "type: \"HC\", class: Regular, at: Some((900, 960))",
        "type: \"HC\", class: Militia, at: Some((900, 960))",
        1,
    );
    assert_ne!(poor, text);
    assert!(
        check(&poor)
            .unwrap_err()
            .contains("not in the Imperial French list"),
        "{}",
        check(&poor).unwrap_err()
    );
    // A French CinC may be Poor; a German one may not.
    let poor_cinc = text.replacen(
        "side: 1, type: \"CinC\", class: Regular",
        "side: 1, type: \"CinC\", class: Militia",
        1,
    );
    assert_ne!(poor_cinc, text);
    check(&poor_cinc).expect("a Poor French CinC is allowed");
}

/// A DBFPW battle with France (side 0) the defender.
fn fpw_defended(units: &[Line], terrain: &str) -> Game {
    let us: Vec<String> = units
        .iter()
        .map(|(id, side, t, class, x, y, f, more)| format!("(id: \"{id}\", side: {side}, type: \"{t}\", class: {class}, at: Some(({x}, {y})), facing: {f}{more}),"))
        .collect();
    let text = format!(
        "(name: \"t\", ruleset: \"dbfpw\", table: (width: 2000, height: 2000), seed: 1, turn_limit: 20,
          terrain: [{terrain}],
          sides: [(name: \"France\", nation: \"imperial_french\", colour: (0, 0, 200), defender: true), (name: \"Prussia\", nation: \"german\", colour: (20, 20, 20))],
          units: [{}])",
        us.join("\n")
    );
    scenario::parse(&text, "inline").unwrap_or_else(|d| panic!("inline scenario invalid: {d:?}"))
}

#[test]
fn firing_out_of_bad_going_from_its_edge_reaches_full_range() {
    // "The maximum visibility for Firing into and within BG is 100 paces. Units Firing out of
    // BG must be on the edge." Infantry on a wood's edge fires at a battalion 250 paces off in
    // the open: within its 300 paces, with -1 for firing from within bad going.
    let wood = "(id: \"w\", kind: Woods, name: \"Wood\", points: [(900, 400), (1100, 400), (1100, 510), (900, 510)]),";
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("Inf", "Regular", ""),
        250.0,
        wood,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, _) = shoot(&mut b, &[3, 3]);
    assert!(
        has(
            &s,
            "-1 Firing from within or into bad going (not Sharpshooters)"
        ),
        "{s:?}"
    );
    // Into bad going the limit holds: the same target standing in a second wood is out of sight.
    let wood2 = "(id: \"w2\", kind: Woods, name: \"Copse\", points: [(900, 560), (1100, 560), (1100, 700), (900, 700)]),";
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("Inf", "Regular", ""),
        250.0,
        &format!("{wood}{wood2}"),
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let e = refusal(&mut b, fire("f", "g"));
    assert_eq!(kind_of(&e), Ok(dbn::Refusal::OutOfRange));
    // The range it was held to is in the words only.
    assert!(e.to_string().contains("of 100"), "{e}");
    // Deep inside the wood (not on its edge) it cannot fire at all.
    let deep = "(id: \"w\", kind: Woods, name: \"Wood\", points: [(900, 400), (1100, 400), (1100, 540), (900, 540)]),";
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("Inf", "Regular", ""),
        250.0,
        deep,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    assert_eq!(
        refused_as(&mut b, fire("f", "g")),
        Ok(dbn::Refusal::InsideBadGoing)
    );
    // A battery astride a stream fires 800 paces (streams hide nothing: ruling firing_out_of_bg).
    let stream =
        "(id: \"s\", kind: Stream, name: \"Saar\", points: [(0, 500), (2000, 500)], width: 10),";
    let mut b = duel(
        ("FAFr", "Regular", ""),
        ("Inf", "Regular", ""),
        800.0,
        stream,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    shoot(&mut b, &[3, 3]);
    // A target astride a stream 250 paces off is seen.
    let ty = target_y("Inf", "Inf", 250.0);
    let stream = format!(
        "(id: \"s\", kind: Stream, name: \"Saar\", points: [(0, {ty}), (2000, {ty})], width: 10),"
    );
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("Inf", "Regular", ""),
        250.0,
        &stream,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, _) = shoot(&mut b, &[3, 3]);
    assert!(has(
        &s,
        "-1 Firing from within or into bad going (not Sharpshooters)"
    ));
    // A village 250 paces off is fired into at full range, with the cover -2.
    let village = format!(
        "(id: \"v\", kind: Village, name: \"Forbach\", points: [(950, {}), (1050, {}), (1050, {}), (950, {})]),",
        ty - 30.0,
        ty - 30.0,
        ty + 30.0,
        ty + 30.0
    );
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("Inf", "Regular", ""),
        250.0,
        &village,
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, _, _, _) = shoot(&mut b, &[3, 3]);
    assert!(has(&s, "-2 Firing into BUA/NLF or fortification"), "{s:?}");
}

#[test]
fn the_defender_garrisons_an_unfortified_town_and_only_foot_enter_it() {
    // DBFPW has no fortifying: the defender's infantry march into Stiring and garrison it.
    let town = "(id: \"t\", kind: Town, name: \"Stiring\", points: [(900, 540), (1100, 540), (1100, 700), (900, 700)]),";
    let enemy = ("g", 1, "Inf", "Regular", 1000.0, 1800.0, 180.0, "");
    // Each moves its bad-going rate (guns start at the town's edge).
    for (t, more, y, ok) in [
        ("InfBLR2", "", 500.0, true),
        ("SSBLR2", "", 500.0, true),
        ("SC", ", formation: Some(Dismounted)", 500.0, true),
        ("LC", "", 500.0, false),
        ("HA", ", limbered: true", 520.0, false),
        ("Mit", "", 520.0, false),
        ("CinC", "", 500.0, false),
    ] {
        let mut b = fpw_defended(&[("f", 0, t, "Regular", 1000.0, y, 0.0, more), enemy], town);
        to_phase(&mut b, 0, MOVEMENT);
        let bg = if y > 500.0 { 100.0 } else { 200.0 };
        let r = b.execute(mv("f", vec![Step::Advance(bg)]));
        assert_eq!(r.is_ok(), ok, "{t}{more}: {r:?}");
        if ok {
            let AnyRuleset::Dbfpw(g) = &b.rules else {
                panic!()
            };
            let u = b.unit(&id("f")).unwrap();
            assert!(g.dbn.in_town(&b, u), "{t} stands in the town: {:?}", u.base);
        } else {
            let e = r.unwrap_err();
            assert_eq!(kind_of(&e), Ok(Refusal::OnlyFootStopIn), "{t}");
        }
    }
}

#[test]
fn a_mitrailleuse_throws_its_first_die_firing_back_and_in_close_combat() {
    // Fired at by infantry 300 paces off, the Mit fires back (+1 Firing Mitrailleuse): it
    // throws its first die first. A 1 is a stoppage: -2.
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("Mit", "Regular", ""),
        300.0,
        "",
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (_, t, _, ev) = shoot(&mut b, &[1, 3, 3]);
    assert!(
        has(&t, "+1 Firing BLR2, Prussian artillery or Mitrailleuse")
            && has(&t, "-2 Mitrailleuse stoppage or shot not plotted"),
        "{t:?}"
    );
    assert!(
        ev.iter().any(|e| matches!(e, Event::Rolled { roll, .. }
        if roll.unit == Some(id("g")) && roll.dice == [1] && roll.outcome.starts_with("stoppage")))
    );
    // In close combat, attacked: the same die, 1 a stoppage (-2); the log says so, and a
    // good die is "no stoppage", not "fires normally".
    for (first, stopped) in [(1u8, true), (4, false)] {
        let mut b = charge_setup(("Inf", "Regular", ""), ("Mit", "Regular", ""), 150.0);
        to_contact(&mut b).expect("charge");
        to_phase(&mut b, 0, CLOSE_COMBAT);
        b.script_dice(&[first, 3, 3]);
        let ev = b.execute(fight("f", "g")).expect("fight");
        let DbnEvent::CloseCombat { defender_score, .. } = common::combat_event(&ev) else {
            unreachable!()
        };
        let d = names(&defender_score.factors);
        assert_eq!(
            has(&d, "-2 Mitrailleuse stoppage or shot not plotted"),
            stopped,
            "{d:?}"
        );
        let roll = ev
            .iter()
            .find_map(|e| match e {
                Event::Rolled { roll, .. } if roll.unit == Some(id("g")) => Some(roll.clone()),
                _ => None,
            })
            .expect("the first die");
        assert_eq!(roll.dice, [first]);
        assert_eq!(
            roll.outcome,
            if stopped {
                "stoppage: -2"
            } else {
                "no stoppage"
            }
        );
    }
}

#[test]
fn a_supporting_mitrailleuse_throws_its_first_die() {
    // A battalion fires at a battalion 250 paces off with the Mit beside it in support; the
    // Mit's support -1 counts unless its first die is a stoppage.
    let ty = target_y("Inf", "Inf", 250.0);
    for (first, counts) in [(1u8, false), (2, true)] {
        let mut b = fpw(
            &[
                ("f", 0, "Inf", "Regular", 1000.0, 500.0, 0.0, ""),
                ("m", 0, "Mit", "Regular", 1045.0, 500.0, 0.0, ""),
                ("g", 1, "Inf", "Regular", 1000.0, ty, 180.0, ""),
            ],
            "",
            "",
        );
        to_phase(&mut b, 0, FIRING);
        b.script_dice(&[first, 3, 3]);
        let ev = b
            .execute(Command::Fire {
                unit: id("f"),
                target: id("g"),
                support: vec![id("m")],
                defence: None,
            })
            .expect("supported fire");
        assert!(ev.iter().any(|e| matches!(e, Event::Rolled { roll, .. }
            if roll.unit == Some(id("m")) && roll.dice == [first])));
        let DbnEvent::Fire { target_score, .. } = common::fire_event(&ev) else {
            unreachable!()
        };
        let t = names(&target_score.factors);
        assert_eq!(
            has(&t, "-1 Enemy unit providing fire support"),
            counts,
            "first die {first}: {t:?}"
        );
        // 4 + 3 against 4 + 3 (less 1 for the support when it counts).
        assert_eq!(target_score.total, if counts { 6 } else { 7 });
    }
    // The Mit is no gun for support: it supports a French battery's fire (ruling fire_support).
    let ty = target_y("FAFr", "Inf", 500.0);
    let mut b = fpw(
        &[
            ("f", 0, "FAFr", "Regular", 1000.0, 500.0, 0.0, ""),
            ("m", 0, "Mit", "Regular", 1045.0, 500.0, 0.0, ""),
            ("g", 1, "Inf", "Regular", 1000.0, ty, 180.0, ""),
        ],
        "",
        "",
    );
    to_phase(&mut b, 0, FIRING);
    b.script_dice(&[4, 3, 3]);
    b.execute(Command::Fire {
        unit: id("f"),
        target: id("g"),
        support: vec![id("m")],
        defence: None,
    })
    .expect("a Mitrailleuse supports a battery");
}

#[test]
fn a_caisson_cannot_supply_a_battery_within_400_paces_of_the_enemy() {
    // "this radius must not pass within 400paces of any enemy unit": the radius reaches the
    // battery itself. French cavalry 250 paces in front of a Prussian battery, the caisson
    // 1,000 paces behind it: no supply. At 500 paces the same caisson supplies it.
    let x = "options: [\"ammunition\"],";
    for (gap, supplied) in [(2.5, false), (5.0, true)] {
        let hc_y = 1480.0 - gap * P - 15.0;
        let b = fpw(
            &[
                ("g", 0, "HC", "Regular", 1000.0, hc_y, 0.0, ""),
                ("f", 1, "FAPr", "Regular", 1000.0, 1500.0, 180.0, ""),
                ("cu", 1, "CU", "Regular", 1000.0, 1800.0, 180.0, ""),
            ],
            "",
            x,
        );
        let g = b.unit(&id("f")).unwrap().clone();
        let cu = b.unit(&id("cu")).unwrap().clone();
        let AnyRuleset::Dbfpw(r) = &b.rules else {
            panic!()
        };
        assert_eq!(
            volley::rules::ruleset::dbn::dbfpw::Fpw::supply_path(r, &b, &cu, &g),
            supplied,
            "cavalry {gap}00 paces from the battery"
        );
    }
}

#[test]
fn a_guard_battery_is_fielded_in_a_checked_army() {
    // Two Guard infantry allow one Guard foot battery (elite, +0.5): the German default army
    // with the Leib-Grenadiers and Grenadier Regiment 12 as Guard, the divisional batteries as
    // Guard artillery, and a Jäger battalion fewer to stay at 15 points. The elite gun needs the
    // lists' "Guard artillery, elite" lines: a line naming no class allows Regular units only, so
    // without them this legal army is refused.
    let text = std::fs::read_to_string("scenarios/dbfpw_default.ron").unwrap();
    let guard = text
        .replacen(
            "type: \"Inf\", class: Elite, at: Some((490, 250))",
            "type: \"Inf\", class: Elite, flags: [Guard], at: Some((490, 250))",
            1,
        )
        .replacen(
            "type: \"Inf\", class: Regular, at: Some((570, 250))",
            "type: \"Inf\", class: Regular, flags: [Guard], at: Some((570, 250))",
            1,
        )
        .replacen(
            "type: \"FAPr\", class: Regular, at: Some((430, 250))",
            "type: \"FAPr\", class: Elite, flags: [Guard], at: Some((430, 250))",
            1,
        )
        .replacen(
            "(id: \"pr-jg7\", name: \"Jäger Battalion 7\", side: 0, type: \"SS\", class: Regular, at: Some((720, 255)), facing: 0),",
            "",
            1,
        );
    assert_eq!(guard.matches("flags: [Guard]").count(), 3);
    assert!(!guard.contains("pr-jg7"));
    let b = check(&guard).unwrap_or_else(|e| panic!("a legal Guard battery: {e}"));
    let u = b.unit(&id("pr-fa2")).unwrap();
    assert_eq!(u.class, volley::rules::model::Class::Elite);
    // With only one Guard infantry the battery may not be Guard.
    let one = guard.replacen(
        "type: \"Inf\", class: Regular, flags: [Guard], at: Some((570, 250))",
        "type: \"Inf\", class: Regular, at: Some((570, 250))",
        1,
    );
    assert!(check(&one).unwrap_err().contains("Guard artillery"));
}

#[test]
fn dismounted_skirmishing_cavalry_fight_as_foot() {
    // Heavy cavalry charge dismounted SC: no +1 against mounted; HC 3 + 3 against SC 1 + 4:
    // beaten, not by double, in good going: as foot destroyed by HC (mounted would recoil).
    let mut b = charge_setup(
        ("HC", "Regular", ""),
        ("SC", "Regular", ", formation: Some(Dismounted)"),
        150.0,
    );
    to_contact(&mut b).expect("charge");
    let (a, d, e) = combat(&mut b, &[3, 4]);
    assert_eq!(a, ["+3 Heavy Cavalry"]);
    assert_eq!(d, ["+1 Skirmishing Cavalry"]);
    let DbnEvent::CloseCombat {
        verdict,
        defender_effect,
        ..
    } = e
    else {
        unreachable!()
    };
    assert_eq!(
        (verdict, defender_effect),
        (Verdict::Beaten, Effect::Destroyed)
    );
    // Dismounted SC charged by infantry take no "-1 Cavalry against infantry", and on a draw
    // take 1 hit without recoiling (only mounted recoil).
    let mut b = charge_setup(
        ("Inf", "Regular", ""),
        ("SC", "Regular", ", formation: Some(Dismounted)"),
        150.0,
    );
    to_contact(&mut b).expect("charge");
    // Infantry in line 4 + 3 against SC 1 + 6: 7 against 7, a draw.
    let (_, d, e) = combat(&mut b, &[3, 6]);
    assert_eq!(d, ["+1 Skirmishing Cavalry"]);
    let DbnEvent::CloseCombat {
        verdict,
        defender_effect,
        ..
    } = e
    else {
        unreachable!()
    };
    assert_eq!((verdict, defender_effect), (Verdict::Draw, Effect::Hits(1)));
}

#[test]
fn firing_into_a_flank_or_rear_and_poor_firers() {
    // The target faces away: the firer stands behind its front line, +1 into flank or rear.
    let ty = target_y("Inf", "Inf", 200.0);
    let mut b = fpw(
        &[
            ("f", 0, "Inf", "Militia", 1000.0, 500.0, 0.0, ""),
            ("g", 1, "Inf", "Regular", 1000.0, ty, 0.0, ""),
        ],
        "",
        "",
    );
    to_phase(&mut b, 0, FIRING);
    let (s, t, e, _) = shoot(&mut b, &[3, 3]);
    assert_eq!(
        s,
        [
            "+4 Infantry BLR1",
            "-1 Poor troops",
            "+1 Firing into enemy flank or rear"
        ]
    );
    // The target cannot answer from its rear: it takes none of the firing factors.
    assert_eq!(t, ["+4 Infantry BLR1"]);
    let DbnEvent::Fire { shooter_score, .. } = e else {
        unreachable!()
    };
    assert_eq!(shooter_score.total, 3 + 4 - 1 + 1);
}

#[test]
fn close_combat_rows_poor_elite_bridge_heavy_cavalry_and_lancers_in_flank() {
    // Elite by class (+1), against Poor (-1 Poor troops or Sharpshooters).
    let mut b = charge_setup(("Inf", "Elite", ""), ("Inf", "Militia", ""), 150.0);
    to_contact(&mut b).expect("charge");
    let (a, d, _) = combat(&mut b, &[3, 3]);
    assert!(has(&a, "+1 Elite"), "{a:?}");
    assert!(has(&d, "-1 Poor troops or Sharpshooters"), "{d:?}");
    // A defender on a bridge: -2.
    let ty = target_y("Inf", "Inf", 150.0);
    let bridge = format!(
        "(id: \"br\", kind: Bridge, name: \"Saar bridge\", points: [(1000, {}), (1000, {})], width: 10),",
        ty - 3.0,
        ty + 40.0
    );
    let mut b = charge_on(
        ("Inf", "Regular", ""),
        ("Inf", "Regular", ""),
        150.0,
        &bridge,
    );
    to_contact(&mut b).expect("charge");
    let (a, d, _) = combat(&mut b, &[3, 3]);
    let bridge_factor = "-2 On a bridge or causeway, or using road movement";
    assert!(has(&d, bridge_factor), "{d:?}");
    assert!(!has(&a, bridge_factor), "{a:?}");
    // Heavy cavalry against mounted: +1; the light cavalry it fights has none.
    let mut b = charge_setup(("HC", "Regular", ""), ("LC", "Regular", ""), 150.0);
    to_contact(&mut b).expect("charge");
    let (a, d, _) = combat(&mut b, &[3, 4]);
    assert_eq!(a, ["+3 Heavy Cavalry", "+1 Heavy Cavalry against mounted"]);
    assert_eq!(d, ["+3 Light Cavalry"]);
    // Lancers attacked in the rear fight as LC (no +1 against mounted) with -1 attacked first
    // in flank or rear; 3 + 3 against 3 - 1 + 4 = 6: a draw, which lancers lose.
    let ty = target_y("LC", "LC", 150.0);
    let mut b = fpw(
        &[
            ("f", 0, "LC", "Regular", 1000.0, 500.0, 0.0, ""),
            (
                "g",
                1,
                "LC",
                "Regular",
                1000.0,
                ty,
                0.0,
                ", flags: [Lancer]",
            ),
        ],
        "",
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    to_contact(&mut b).expect("charge into the lancers' rear");
    let (a, d, e) = combat(&mut b, &[3, 4, 3, 3, 3, 3]);
    assert_eq!(a, ["+3 Light Cavalry"]);
    assert_eq!(
        d,
        ["+3 Light Cavalry", "-1 Attacked first in flank or rear"]
    );
    let DbnEvent::CloseCombat { loser, verdict, .. } = e else {
        unreachable!()
    };
    assert_eq!((loser, verdict), (Some(id("g")), Verdict::Beaten));
}

#[test]
fn close_combat_results_sc_doubled_in_bad_going_and_ss_doubled_by_mounted() {
    use Effect::*;
    let wood = "(id: \"w\", kind: Woods, name: \"Wood\", points: [(800, 400), (1200, 400), (1200, 800), (800, 800)]),";
    // SC beaten by double by foot in bad going: destroyed (in the open they flee with a hit).
    let (v, l, _, d, text) = close_result(
        ("Inf", "Regular", ""),
        ("SC", "Regular", ""),
        150.0,
        wood,
        &[6, 1],
    );
    assert_eq!(
        (v, l.as_deref(), d),
        (Verdict::BeatenByDouble, Some("g"), Destroyed),
        "{text}"
    );
    // SS beaten by double by mounted: destroyed (by foot they flee with a hit).
    let (v, l, _, d, text) = close_result(
        ("LC", "Regular", ""),
        ("SS", "Regular", ""),
        150.0,
        "",
        &[6, 1],
    );
    assert_eq!(
        (v, l.as_deref(), d),
        (Verdict::BeatenByDouble, Some("g"), Destroyed),
        "{text}"
    );
}

#[test]
fn larger_battles_give_the_guns_their_packs() {
    let units = [
        ("fa", 0, "FAFr", "Regular", 300.0, 500.0, 0.0, ""),
        ("ha", 0, "HA", "Regular", 400.0, 500.0, 0.0, ""),
        ("mit", 0, "Mit", "Regular", 500.0, 500.0, 0.0, ""),
        ("bt", 0, "BT", "Regular", 600.0, 500.0, 0.0, ""),
        ("pr", 1, "FAPr", "Regular", 300.0, 1500.0, 180.0, ""),
        ("cu", 1, "CU", "Regular", 400.0, 1500.0, 180.0, ""),
        ("i", 1, "Inf", "Regular", 500.0, 1500.0, 180.0, ""),
    ];
    let packs = |b: &Game| -> Vec<u32> {
        ["fa", "ha", "mit", "bt", "pr", "cu", "i"]
            .iter()
            .map(|u| b.unit(&id(u)).unwrap().status.packs)
            .collect()
    };
    // Ammunition alone: HA 1, supply trains 4, other guns none.
    let b = fpw(&units, "", "options: [\"ammunition\"],");
    assert_eq!(packs(&b), [0, 1, 0, 4, 0, 4, 0]);
    // Larger battles: every gun and Mitrailleuse 1, HA 2.
    let b = fpw(&units, "", "options: [\"ammunition\", \"larger_battles\"],");
    assert_eq!(packs(&b), [1, 2, 1, 4, 1, 4, 0]);
}

/// A Republic French army (14.5 points) checked against its list, the Germans unchecked.
fn republic(extra: &[(&str, &str)]) -> Result<Game, String> {
    let mut units: Vec<(&str, &str)> = vec![
        ("CinC", "Militia"),
        ("BT", "Regular"),
        ("InfBLR2", "Regular"),
        ("InfBLR2", "Regular"),
        ("InfBLR2", "Regular"),
        ("Inf", "Militia"),
        ("Inf", "Militia"),
        ("Inf", "Militia"),
        ("Inf", "Militia"),
        ("InfRM", "Militia"),
        ("InfRM", "Militia"),
        ("LC", "Regular"),
        ("LC", "Militia"),
        ("LC", "Militia"),
        ("SC", "Regular"),
        ("SSBLR2", "Regular"),
        ("FAFr", "Regular"),
        ("FAFr", "Regular"),
        ("Gs", "Regular"),
        ("Gs", "Regular"),
    ];
    units.extend_from_slice(extra);
    let lines: Vec<String> = units
        .iter()
        .enumerate()
        .map(|(i, (t, c))| {
            format!(
                "(id: \"r{i}\", side: 0, type: \"{t}\", class: {c}, at: Some(({}, 300)), facing: 0),",
                60 + 50 * i
            )
        })
        .collect();
    let text = format!(
        "(name: \"t\", ruleset: \"dbfpw\", table: (width: 2000, height: 2000), seed: 1, turn_limit: 20,
          sides: [(name: \"France\", nation: \"republic_french\", colour: (0, 0, 200), army_list: true), (name: \"Prussia\", nation: \"german\", colour: (20, 20, 20))],
          units: [{}
          (id: \"g\", side: 1, type: \"Inf\", class: Regular, at: Some((1000, 1800)), facing: 180)])",
        lines.join("\n")
    );
    check(&text)
}

#[test]
fn the_republic_french_list_is_checked() {
    republic(&[]).unwrap_or_else(|e| panic!("a legal Republic army: {e}"));
    // A ninth Poor infantry breaks "4-8 Inf Poor" (and the points).
    let e = republic(&[("Inf", "Militia"), ("Inf", "Militia"), ("Inf", "Militia")]).unwrap_err();
    assert!(e.contains("4-8 Inf Poor has 9"), "{e}");
    // The Republic fields no elite infantry and no Mitrailleuse.
    let e = republic(&[("InfBLR2", "Elite")]).unwrap_err();
    assert!(e.contains("is not in the Republic French list"), "{e}");
    let e = republic(&[("Mit", "Regular")]).unwrap_err();
    assert!(e.contains("is not in the Republic French list"), "{e}");
    // A fifth RM among the Poor infantry: "4 can be RM".
    let e = republic(&[
        ("InfRM", "Militia"),
        ("InfRM", "Militia"),
        ("InfRM", "Militia"),
    ])
    .unwrap_err();
    assert!(e.contains("4 of the Inf Poor may be RM has 5"), "{e}");
}

#[test]
fn a_dsc_commands_its_division_within_400_paces() {
    // The CinC is far off; the DSC of the left division stands 89 paces from its battalion
    // (in command: 1 CAP) or 677 paces (out of command: 2 CAPs).
    for (iy, cost) in [(250.0, 1), (400.0, 2)] {
        let mut b = fpw(
            &[
                ("cinc", 0, "CinC", "Regular", 100.0, 100.0, 0.0, ""),
                (
                    "dsc",
                    0,
                    "DSC",
                    "Regular",
                    1000.0,
                    200.0,
                    0.0,
                    ", division: Some(Left)",
                ),
                (
                    "i",
                    0,
                    "Inf",
                    "Regular",
                    1000.0,
                    iy,
                    0.0,
                    ", division: Some(Left)",
                ),
                ("g", 1, "Inf", "Regular", 1000.0, 1900.0, 180.0, ""),
            ],
            "",
            "options: [\"larger_battles\"],",
        );
        b.script_dice(&[6]);
        to_phase(&mut b, 0, MOVEMENT);
        let ev = b.execute(mv("i", vec![Step::Advance(50.0)])).expect("move");
        let spent: i32 = ev
            .iter()
            .map(|e| match e.own() {
                Some(DbnEvent::CommandPointsSpent { amount, .. }) => *amount,
                _ => 0,
            })
            .sum();
        assert_eq!(spent, cost, "battalion at y {iy}");
    }
}

#[test]
fn a_garrison_and_a_fortification_defend_in_their_own_bound() {
    // 002 Close combat tactical factors: "+4 Infantry Garrisoning a BUA" and "+1 Defending a
    // fortification" belong to the garrison in every combat, its own bound included.
    let d = depth("Inf");
    let gy = target_y("Inf", "Inf", 0.0);
    for (kind, want) in [
        ("Town", "+4 Infantry garrisoning a BUA"),
        ("Fortification", "+1 Defending a fortification"),
    ] {
        let works = format!(
            "(id: \"w\", kind: {kind}, name: \"Stiring\", points: [(940, 440), (1060, 440), (1060, {y}), (940, {y})]),",
            y = 500.0 + d / 2.0
        );
        let mut b = fpw(
            &[
                ("f", 0, "Inf", "Regular", 1000.0, 500.0, 0.0, ""),
                ("g", 1, "Inf", "Regular", 1000.0, gy, 180.0, ""),
            ],
            &works,
            "",
        );
        let (a, g, _) = combat(&mut b, &[3, 3, 3, 3]);
        assert!(has(&a, want), "{kind}: {a:?}");
        assert!(!has(&g, want), "{kind}: {g:?}");
    }
}

/// Saint-Aubin (about 100 x 90 mm) with a battalion "g" deep inside it and "f" outside, which
/// charges it: "f"'s centre ends inside the town, since an infantry base is ~59 paces deep.
fn charge_into_saint_aubin() -> Game {
    let town = "(id: \"t\", kind: Town, name: \"Saint-Aubin\", points: [(950, 540), (1050, 540), (1050, 630), (950, 630)]),";
    let mut b = fpw(
        &[
            ("f", 0, "Inf", "Regular", 1000.0, 530.0, 0.0, ""),
            ("g", 1, "Inf", "Regular", 1000.0, 580.0, 180.0, ""),
        ],
        town,
        "",
    );
    to_phase(&mut b, 0, MOVEMENT);
    to_contact(&mut b).expect("charge into the town");
    let y = b.unit(&id("f")).unwrap().base.centre.y;
    assert!(
        y > 540.0,
        "the attacker's centre stands inside the town: {y}"
    );
    b
}

#[test]
fn an_attacker_that_enters_a_town_is_not_its_garrison() {
    // 002: "+4 Infantry Garrisoning a BUA", "Garrisons: Destroyed", "Infantry: 1 Hit and
    // Recoil" (ruling garrison: only the unit that held the town before the enemy came in is
    // its garrison; others fighting inside it are in bad going).
    let garrison = "+4 Infantry garrisoning a BUA";
    let bg = "-1 Within bad going (not Sharpshooters)";
    // The attacker's bound: 4 - 1 + 5 against 4 + 4 + 1: beaten, not by double.
    let mut b = charge_into_saint_aubin();
    let (a, d, e) = combat(&mut b, &[5, 1]);
    assert!(!has(&a, garrison) && has(&a, bg), "{a:?}");
    assert!(has(&d, garrison) && !has(&d, bg), "{d:?}");
    let DbnEvent::CloseCombat {
        verdict,
        loser,
        attacker_effect,
        ..
    } = e
    else {
        unreachable!()
    };
    assert_eq!(
        (verdict, loser, attacker_effect),
        (Verdict::Beaten, Some(id("f")), Effect::HitAndRecoil)
    );
    // A draw (6 + 3 against 1 + 8) leaves both in the town; in the garrison's own bound it
    // still defends it with +4 and the intruder is still in bad going: 1 + 8 against 4 + 3.
    let mut b = charge_into_saint_aubin();
    let (_, _, e) = combat(&mut b, &[6, 1]);
    let DbnEvent::CloseCombat { verdict, .. } = e else {
        unreachable!()
    };
    assert_eq!(verdict, Verdict::Draw);
    // Side 1's command die, then the combat's dice.
    b.script_dice(&[6, 1, 4]);
    to_phase(&mut b, 1, CLOSE_COMBAT);
    let ev = b.execute(fight("g", "f")).expect("fight");
    let DbnEvent::CloseCombat {
        attacker,
        attacker_score,
        defender_score,
        verdict,
        loser,
        defender_effect,
        ..
    } = common::combat_event(&ev)
    else {
        unreachable!()
    };
    let (g, f) = (
        names(&attacker_score.factors),
        names(&defender_score.factors),
    );
    assert_eq!(attacker, id("g"));
    assert!(has(&g, garrison) && !has(&g, bg), "{g:?}");
    assert!(!has(&f, garrison) && has(&f, bg), "{f:?}");
    assert_eq!(
        (verdict, loser, defender_effect),
        (Verdict::Beaten, Some(id("f")), Effect::HitAndRecoil)
    );
}

#[test]
fn results_in_good_going_leave_out_villages() {
    use Effect::*;
    // Ruling going: towns and villages are bad going; only the factors leave them out. The
    // infantry's front edge lies just inside the village, so the cavalry stop outside it.
    let village = "(id: \"v\", kind: Village, name: \"Forbach\", points: [(940, 538), (1060, 538), (1060, 640), (940, 640)]),";
    // "Infantry: Destroyed by HC in GG otherwise 1 Hit and Recoil": HC 3 - 1 + 6 against 4 + 3.
    let (v, l, _, d, text) = close_result(
        ("HC", "Regular", ""),
        ("Inf", "Regular", ""),
        100.0,
        village,
        &[6, 3],
    );
    assert_eq!(
        (v, l.as_deref(), d),
        (Verdict::Beaten, Some("g"), HitAndRecoil),
        "{text}"
    );
    // "Sharpshooters: Destroyed by Mounted in GG otherwise 1 Hit and Flee": LC 3 - 1 + 3
    // against 2 - 1 + 3 (cavalry against Sharpshooters take -1: ruling cav_vs_inf).
    let (v, l, _, d, text) = close_result(
        ("LC", "Regular", ""),
        ("SS", "Regular", ""),
        100.0,
        village,
        &[3, 3],
    );
    assert_eq!(
        (v, l.as_deref(), d),
        (Verdict::Beaten, Some("g"), Flee { hits: 1 }),
        "{text}"
    );
    // Firing, "Skirmishing Cavalry: Destroyed if in BG" when beaten by double: dismounted SC
    // in a village, infantry 4 - 2 + 6 against 1 + 3.
    let village = "(id: \"v\", kind: Village, name: \"Forbach\", points: [(940, 540), (1060, 540), (1060, 700), (940, 700)]),";
    let (v, e, text) = firing_result(
        ("Inf", "Regular", ""),
        ("SC", "Regular", ", formation: Some(Dismounted)"),
        200.0,
        village,
        &[6, 3],
    );
    assert_eq!((v, e), (Verdict::BeatenByDouble, Destroyed), "{text}");
}

#[test]
fn guns_firing_back_and_supporting_use_ammunition() {
    let x = "options: [\"ammunition\"],";
    // A battery firing back at infantry throws a 1: low on ammunition.
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("FAFr", "Regular", ""),
        200.0,
        "",
        x,
    );
    to_phase(&mut b, 0, FIRING);
    shoot(&mut b, &[6, 1]);
    assert_eq!(b.unit(&id("g")).unwrap().status.ammo, Ammo::Low);
    // A battery low on ammunition that fires back fires its last round: out.
    let mut b = duel(
        ("Inf", "Regular", ""),
        ("FAFr", "Regular", ", ammunition: Some(Low)"),
        200.0,
        "",
        x,
    );
    to_phase(&mut b, 0, FIRING);
    shoot(&mut b, &[4, 4]);
    assert_eq!(b.unit(&id("g")).unwrap().status.ammo, Ammo::Out);
    // Fire support is firing without firing dice (ruling ammunition): a low battery that
    // supports is out; a full one throws no 1 and stays full.
    let gy = target_y("Inf", "Inf", 200.0);
    for (start, end) in [(Ammo::Low, Ammo::Out), (Ammo::Full, Ammo::Full)] {
        let more = format!(", ammunition: Some({start:?})");
        let mut b = fpw(
            &[
                ("f", 0, "Inf", "Regular", 1000.0, 500.0, 0.0, ""),
                ("s", 0, "FAFr", "Regular", 1045.0, 500.0, 0.0, &more),
                ("g", 1, "Inf", "Regular", 1000.0, gy, 180.0, ""),
            ],
            "",
            x,
        );
        to_phase(&mut b, 0, FIRING);
        b.script_dice(&[1, 1]);
        b.execute(Command::Fire {
            unit: id("f"),
            target: id("g"),
            support: vec![id("s")],
            defence: None,
        })
        .expect("supported fire");
        assert_eq!(b.unit(&id("s")).unwrap().status.ammo, end, "{start:?}");
    }
    // A battery beside the target, low or full of ammunition, with its defence named or not.
    // Named, a low battery supports and is out. Left to the default (ruling defence_support),
    // the low battery keeps its last round: it does not support, and stays low; a battery full
    // of ammunition supports.
    for (ammo, defence, supports, end) in [
        ("Low", Some(vec![id("s")]), true, Ammo::Out),
        ("Low", None, false, Ammo::Low),
        ("Full", None, true, Ammo::Full),
    ] {
        let mut b = fpw(
            &[
                ("f", 0, "Inf", "Regular", 1000.0, 500.0, 0.0, ""),
                ("g", 1, "Inf", "Regular", 1000.0, gy, 180.0, ""),
                (
                    "s",
                    1,
                    "FAFr",
                    "Regular",
                    1045.0,
                    gy,
                    180.0,
                    &format!(", ammunition: Some({ammo})"),
                ),
            ],
            "",
            x,
        );
        to_phase(&mut b, 0, FIRING);
        b.script_dice(&[1, 1]);
        let named = defence.is_some();
        let ev = b
            .execute(Command::Fire {
                unit: id("f"),
                target: id("g"),
                support: vec![],
                defence,
            })
            .expect("fire against the target and its supporters");
        let DbnEvent::Fire { shooter_score, .. } = common::fire_event(&ev) else {
            unreachable!()
        };
        let factors = names(&shooter_score.factors);
        assert_eq!(
            has(&factors, "-1 Enemy unit providing fire support"),
            supports,
            "{ammo}, named {named}: {factors:?}"
        );
        assert_eq!(
            b.unit(&id("s")).unwrap().status.ammo,
            end,
            "{ammo}, named {named}"
        );
    }
}

#[test]
fn adjacent_units_exchange_packs_freely() {
    // 002: "Adjacent units can freely exchange Packs": a low battery beside horse artillery
    // carrying a pack takes it at the start of its side's bound.
    let x = "options: [\"ammunition\"],";
    let mut b = fpw(
        &[
            (
                "f",
                0,
                "FAFr",
                "Regular",
                1000.0,
                500.0,
                0.0,
                ", ammunition: Some(Low)",
            ),
            ("ha", 0, "HA", "Regular", 1040.0, 500.0, 0.0, ""),
            ("g", 1, "Inf", "Regular", 1000.0, 1800.0, 180.0, ""),
        ],
        "",
        x,
    );
    assert_eq!(b.unit(&id("ha")).unwrap().status.packs, 1);
    to_phase(&mut b, 1, MOVEMENT);
    to_phase(&mut b, 0, MOVEMENT);
    assert_eq!(b.unit(&id("f")).unwrap().status.ammo, Ammo::Full);
    assert_eq!(b.unit(&id("ha")).unwrap().status.packs, 0);
}

#[test]
fn cavalry_do_not_pursue_into_a_village() {
    // Ruling pursuit: a pursuit is a move, and only foot may stop in a village (ruling
    // occupation). HC 3 - 1 + 6 beat infantry 4 + 3 holding Forbach: the infantry recoil
    // deeper into it and the HC, who must otherwise follow up, stay outside.
    let village = "(id: \"v\", kind: Village, name: \"Forbach\", points: [(940, 538), (1060, 538), (1060, 640), (940, 640)]),";
    let mut b = charge_on(
        ("HC", "Regular", ""),
        ("Inf", "Regular", ""),
        100.0,
        village,
    );
    to_contact(&mut b).expect("charge");
    let before = b.unit(&id("f")).unwrap().base;
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b.script_dice(&[6, 3]);
    let ev = b.execute(fight("f", "g")).expect("fight");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Recoiled { unit, .. } if unit == &id("g"))),
        "{ev:?}"
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Pursued { .. })),
        "{ev:?}"
    );
    assert_eq!(b.unit(&id("f")).unwrap().base, before);
    // In the open light cavalry that beat infantry (which HC would destroy) follow up.
    let mut b = charge_on(("LC", "Regular", ""), ("Inf", "Regular", ""), 100.0, "");
    to_contact(&mut b).expect("charge");
    to_phase(&mut b, 0, CLOSE_COMBAT);
    b.script_dice(&[6, 3, 3, 3]);
    let ev = b.execute(fight("f", "g")).expect("fight");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Pursued { unit, .. } if unit == &id("f"))),
        "{ev:?}"
    );
}

#[test]
fn cavalry_take_minus_one_against_sharpshooters_but_not_guerrillas() {
    // "-1 Cavalry verses Infantry": Sharpshooters are the FPW's light infantry, with the same
    // rifles (Points of Note 3 and 6); Guerrillas are bands of militia (ruling cav_vs_inf).
    let cvi = "-1 Cavalry against infantry";
    for (target, want) in [
        ("Inf", true),
        ("SS", true),
        ("SSBLR2", true),
        ("Gs", false),
        ("FAPr", false),
    ] {
        let mut b = charge_setup(("HC", "Regular", ""), (target, "Regular", ""), 200.0);
        to_contact(&mut b).expect("charge");
        let (a, _, _) = combat(&mut b, &[3, 3, 3, 3]);
        assert_eq!(has(&a, cvi), want, "HC against {target}: {a:?}");
    }
}

#[test]
fn an_attack_column_takes_its_two_against_foot_artillery_too() {
    // "+2 All Infantry in Attack Column verses Foot": the playsheet's "Artillery Foot" batteries
    // are foot; horse artillery and the Mitrailleuse, which moves as it does, are not (ruling
    // attack_column).
    let column = ", formation: Some(Column)";
    let ac = "+2 Infantry in attack column against foot";
    for (target, want) in [
        ("FAPr", true),
        ("FAFr", true),
        ("SS", true),
        ("Gs", true),
        ("HA", false),
        ("Mit", false),
        ("LC", false),
    ] {
        let mut b = charge_setup(("Inf", "Regular", column), (target, "Regular", ""), 150.0);
        to_contact(&mut b).expect("charge");
        let (a, _, _) = combat(&mut b, &[3, 3, 3, 3]);
        assert_eq!(has(&a, ac), want, "column against {target}: {a:?}");
    }
    // The opponent forms the column to charge a foot battery.
    let b = charge_setup(("Inf", "Regular", ""), ("FAPr", "Regular", ""), 150.0);
    let (f, g) = (b.unit(&id("f")).unwrap(), b.unit(&id("g")).unwrap());
    assert_eq!(
        b.rules.get().attack_formation(&b, f, g),
        Some(Formation::Column)
    );
}

#[test]
fn a_caissons_supply_path_crosses_water_by_a_bridge_or_a_road() {
    // "A CU has a Supply Radius of 1200paces ... must go around Bad Going": a stream is bad
    // going only where no bridge, causeway or road carries the way over it; a river is crossed
    // by a bridge only (ruling supply_path). The water runs the width of the table between
    // the caisson and the battery, some 800 paces apart.
    let x = "options: [\"ammunition\"],";
    let water = |kind: &str, width: f32| {
        format!(
            "(id: \"w\", kind: {kind}, name: \"Water\", points: [(0, 1610), (2000, 1610)], width: {width}),"
        )
    };
    let bridge = "(id: \"br\", kind: Bridge, name: \"Bridge\", points: [(1000, 1580), (1000, 1640)], width: 30),";
    let road = "(id: \"rd\", kind: Road, name: \"Road\", points: [(1000, 1400), (1000, 1800)], width: 10),";
    let supplied = |terrain: &str| {
        let b = fpw(
            &[
                ("g", 0, "Inf", "Regular", 1000.0, 100.0, 0.0, ""),
                ("f", 1, "FAPr", "Regular", 1000.0, 1500.0, 180.0, ""),
                ("cu", 1, "CU", "Regular", 1000.0, 1720.0, 180.0, ""),
            ],
            terrain,
            x,
        );
        let g = b.unit(&id("f")).unwrap().clone();
        let cu = b.unit(&id("cu")).unwrap().clone();
        let AnyRuleset::Dbfpw(r) = &b.rules else {
            panic!()
        };
        volley::rules::ruleset::dbn::dbfpw::Fpw::supply_path(r, &b, &cu, &g)
    };
    assert!(supplied(""), "open ground");
    let stream = water("Stream", 20.0);
    let river = water("River", 20.0);
    assert!(!supplied(&stream), "a stream with no way over it");
    assert!(
        supplied(&format!("{stream}{bridge}")),
        "a stream by a bridge"
    );
    assert!(supplied(&format!("{stream}{road}")), "a stream by a road");
    assert!(!supplied(&river), "a river with no way over it");
    assert!(
        !supplied(&format!("{river}{road}")),
        "a river by a road alone"
    );
    assert!(
        supplied(&format!("{river}{bridge}{road}")),
        "a river by a bridge"
    );
    // A brook narrower than the path's grid is not stepped over.
    assert!(!supplied(&water("Stream", 4.0)), "a narrow brook");
}

/// A standard-table scenario (4,400 paces square, the armies 3,500 paces apart) with these
/// terrain lines.
fn standard_table(terrain: &str) -> Result<Game, String> {
    check(&format!(
        "(name: \"t\", ruleset: \"dbfpw\", table: (width: 1120, height: 1120), seed: 1, turn_limit: 5, standard: true,
          terrain: [{terrain}],
          sides: [(name: \"A\", nation: \"imperial_french\", colour: (0,0,200)), (name: \"B\", nation: \"german\", colour: (0,0,0))],
          units: [(id: \"a\", side: 0, type: \"Inf\", at: Some((560, 100))), (id: \"b\", side: 1, type: \"Inf\", at: Some((560, 1000)), facing: 180)])"
    ))
}

#[test]
fn a_river_is_a_terrain_piece_of_the_standard_table_and_a_bridge_is_not() {
    // Points of Note 9: "a minimum of 7 significant terrain pieces (not including roads) and
    // including at least 1 BUA and at least 4 NLF". Six pieces: a town, four villages, a wood.
    let six = "(id: \"t\", kind: Town, name: \"T\", points: [(100, 400), (200, 400), (200, 500), (100, 500)]),
        (id: \"v1\", kind: Village, name: \"V1\", points: [(300, 300), (350, 300), (350, 350), (300, 350)]),
        (id: \"v2\", kind: Village, name: \"V2\", points: [(400, 300), (450, 300), (450, 350), (400, 350)]),
        (id: \"v3\", kind: Village, name: \"V3\", points: [(500, 700), (550, 700), (550, 750), (500, 750)]),
        (id: \"v4\", kind: Village, name: \"V4\", points: [(600, 700), (650, 700), (650, 750), (600, 750)]),
        (id: \"w\", kind: Woods, name: \"W\", points: [(800, 400), (900, 400), (900, 500), (800, 500)]),";
    let river =
        "(id: \"r\", kind: River, name: \"R\", points: [(0, 560), (1120, 560)], width: 20),";
    let bridge =
        "(id: \"br\", kind: Bridge, name: \"Br\", points: [(560, 540), (560, 580)], width: 20),";
    let road =
        "(id: \"rd\", kind: Road, name: \"Rd\", points: [(560, 0), (560, 1120)], width: 10),";
    let causeway =
        "(id: \"cw\", kind: Causeway, name: \"Cw\", points: [(300, 600), (300, 650)], width: 10),";
    let pieces = "significant terrain pieces";
    let e = standard_table(&format!("{six}{road}{bridge}{causeway}")).unwrap_err();
    assert!(e.contains(pieces) && e.contains("this one has 6"), "{e}");
    standard_table(&format!("{six}{river}{bridge}{road}"))
        .unwrap_or_else(|e| panic!("a river is the seventh piece: {e}"));
}

#[test]
fn only_foot_stop_in_a_village() {
    // The same as in a town (ruling occupation): only foot end a move in a village (NLF),
    // fortified or not; other troops may not stop in it.
    let enemy = ("g", 1, "Inf", "Regular", 1000.0, 1800.0, 180.0, "");
    for fortified in [false, true] {
        let village = format!(
            "(id: \"v\", kind: Village, name: \"Forbach\", points: [(900, 540), (1100, 540), (1100, 700), (900, 700)], fortified: {fortified}),"
        );
        for (t, more, y, ok) in [
            ("Inf", "", 500.0, true),
            ("InfRM", "", 500.0, true),
            ("SS", "", 500.0, true),
            ("Gs", "", 500.0, true),
            ("SC", ", formation: Some(Dismounted)", 500.0, true),
            ("HC", "", 500.0, false),
            ("LC", "", 500.0, false),
            ("SC", "", 500.0, false),
            ("HA", ", limbered: true", 520.0, false),
            ("Mit", "", 520.0, false),
            ("CinC", "", 500.0, false),
        ] {
            let mut b = fpw_defended(
                &[("f", 0, t, "Regular", 1000.0, y, 0.0, more), enemy],
                &village,
            );
            to_phase(&mut b, 0, MOVEMENT);
            let bg = if y > 500.0 { 100.0 } else { 200.0 };
            let r = b.execute(mv("f", vec![Step::Advance(bg)]));
            assert_eq!(r.is_ok(), ok, "{t}{more}, fortified {fortified}: {r:?}");
            if ok {
                let u = b.unit(&id("f")).unwrap();
                assert!(
                    b.terrain
                        .at(
                            u.base.centre,
                            &[volley::rules::terrain::FeatureKind::Village]
                        )
                        .next()
                        .is_some(),
                    "{t} stands in the village: {:?}",
                    u.base
                );
            } else {
                let e = r.unwrap_err();
                assert_eq!(kind_of(&e), Ok(Refusal::OnlyFootStopIn), "{t}");
            }
        }
    }
}

#[test]
fn a_dsc_commands_its_division_to_400_paces_and_no_farther() {
    // 002 Larger Battles: "a maximum Command Radius of 400paces". The CinC is far off; the
    // left division's battalion stands 380 paces from its DSC (in command: 1 CAP) or 420
    // (out of command: 2 CAPs): a radius 10% shorter or longer would fail one of them.
    let dsc_front = 200.0 + depth("DSC") / 2.0;
    for (gap, cost) in [(380.0, 1), (420.0, 2)] {
        let iy = dsc_front + gap * P / 100.0 + depth("Inf") / 2.0;
        let mut b = fpw(
            &[
                ("cinc", 0, "CinC", "Regular", 100.0, 100.0, 0.0, ""),
                (
                    "dsc",
                    0,
                    "DSC",
                    "Regular",
                    1000.0,
                    200.0,
                    0.0,
                    ", division: Some(Left)",
                ),
                (
                    "i",
                    0,
                    "Inf",
                    "Regular",
                    1000.0,
                    iy,
                    0.0,
                    ", division: Some(Left)",
                ),
                ("g", 1, "Inf", "Regular", 1000.0, 1900.0, 180.0, ""),
            ],
            "",
            "options: [\"larger_battles\"],",
        );
        b.script_dice(&[6]);
        to_phase(&mut b, 0, MOVEMENT);
        let ev = b.execute(mv("i", vec![Step::Advance(50.0)])).expect("move");
        let spent: i32 = ev
            .iter()
            .map(|e| match e.own() {
                Some(DbnEvent::CommandPointsSpent { amount, .. }) => *amount,
                _ => 0,
            })
            .sum();
        assert_eq!(spent, cost, "battalion {gap} paces from its DSC");
    }
}

#[test]
fn a_pursuer_that_hits_a_flank_attacked_it_first_in_either_bound() {
    // France's bound: French infantry strike the right flank of Prussian light cavalry facing
    // east and are beaten; the cavalry must pursue one base depth straight ahead, into the
    // left flank of a second French battalion, and fight it at once. Prussia attacked it first
    // in the flank, though it is France's bound: "-1 Attacked First in Flank or Rear" (ruling
    // front_and_flank).
    let inf = depth("Inf");
    let lc = depth("LC");
    // Infantry are 40 mm wide.
    let w = 40.0;
    let mut b = fpw(
        &[
            (
                "f",
                0,
                "Inf",
                "Regular",
                1000.0,
                1000.0 - w / 2.0 - inf / 2.0,
                0.0,
                "",
            ),
            ("g", 1, "LC", "Regular", 1000.0, 1000.0, 90.0, ""),
            // Its left flank edge 15 mm ahead of the cavalry's front.
            (
                "m",
                0,
                "Inf",
                "Regular",
                1000.0 + lc / 2.0 + 15.0 + w / 2.0,
                1000.0,
                0.0,
                "",
            ),
        ],
        "",
        "",
    );
    to_phase(&mut b, 0, CLOSE_COMBAT);
    // Infantry 4 + 1 against cavalry 3 - 1 - 1 + 6: beaten, a hit and recoil.
    b.script_dice(&[1, 6, 3, 3, 3, 3]);
    let ev = b.execute(fight("f", "g")).expect("fight accepted");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Pursued { unit, .. } if unit.as_str() == "g")),
        "{ev:#?}"
    );
    let flank = ev
        .iter()
        .find_map(|e| match e.own() {
            Some(DbnEvent::CloseCombat {
                attacker,
                defender,
                defender_score,
                ..
            }) if attacker.as_str() == "g" && defender.as_str() == "m" => {
                Some(names(&defender_score.factors))
            }
            _ => None,
        })
        .expect("the cavalry fight the second battalion at once");
    assert_eq!(
        flank,
        ["+4 Infantry BLR1", "-1 Attacked first in flank or rear"]
    );
}

/// The default's lines stand in edge contact, so that each moves as a group for one command
/// point: the four German allied regiments, and the five Prussian regiments beside them.
#[test]
fn the_default_lines_move_as_groups() {
    let text = std::fs::read_to_string("scenarios/dbfpw_default.ron").unwrap();
    let mut b = check(&text).expect("the default loads");
    for _ in 0..10 {
        if b.active == 0 && b.phase == volley::rules::ruleset::dbn::MOVEMENT {
            break;
        }
        b.execute(Command::EndPhase).expect("end phase");
    }
    assert_eq!(b.phase, volley::rules::ruleset::dbn::MOVEMENT);
    b.command_points[0] = 5;
    for line in [
        vec!["pr-bav1", "pr-bav2", "pr-wue", "pr-bad"],
        vec!["pr-lgr8", "pr-48", "pr-gr12", "pr-52", "pr-20"],
    ] {
        let before = b.command_points[0];
        b.execute(Command::MoveGroup {
            units: line.iter().map(|u| id(u)).collect(),
            steps: vec![Step::Advance(100.0)],
        })
        .unwrap_or_else(|e| panic!("{line:?} moves as a group: {e}"));
        assert_eq!(b.command_points[0], before - 1, "one point for the group");
    }
}
