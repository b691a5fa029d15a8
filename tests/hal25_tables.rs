//! Hal's 25mm tables against the seed (004): small-arms and artillery deductions and saves,
//! hits on cavalry, counter-battery, firing into charges, movement, melee, morale, the failed
//! morale chart and the chips roll.

use volley::rules::ruleset::hal25::tables::{
    MoveFormation, Target, artillery_deduction, band, base_move, cavalry_casualties, charge_range,
    chips, counter_battery_hits, dice_for, die_hits, failed_morale, knocked_out, melee_casualties,
    melee_horse_casualties, melee_loss_modifier, morale_fails, morale_number, remainder_fires,
    save_need, small_arms_deduction,
};
use volley::rules::ruleset::hal25::{Band, ChargeFrom, Failed, HalData, TroopClass};

fn data() -> HalData {
    HalData::load().expect("hal25.ron loads")
}

#[test]
fn small_arms_dice_range_deductions_and_hits() {
    let d = data();
    // 37 figures: six dice and one figure left, which fires as a die on a 1.
    assert_eq!(dice_for(&d, 37), (6, 1));
    assert_eq!(dice_for(&d, 24), (4, 0));
    assert_eq!(dice_for(&d, 5), (0, 5));
    assert!(remainder_fires(1, 1) && !remainder_fires(1, 2));
    assert!(remainder_fires(5, 5) && !remainder_fires(5, 6));
    assert!(!remainder_fires(0, 1));
    // Bands: short 0-6, medium 6-12, long 12-18.
    let b = |x: f32| band(&d.small_arms_bands, x);
    assert_eq!(
        (b(6.0), b(6.5), b(12.0), b(18.0), b(18.5)),
        (
            Some(Band::Short),
            Some(Band::Medium),
            Some(Band::Medium),
            Some(Band::Long),
            None
        )
    );
    // Regular 3/4/5, first volley 2/3/4.
    let reg: Vec<i32> = Band::ALL
        .iter()
        .map(|x| small_arms_deduction(&d, false, *x))
        .collect();
    let first: Vec<i32> = Band::ALL
        .iter()
        .map(|x| small_arms_deduction(&d, true, *x))
        .collect();
    assert_eq!((reg, first), (vec![3, 4, 5], vec![2, 3, 4]));
    assert_eq!((die_hits(6, 3), die_hits(3, 3), die_hits(2, 5)), (3, 0, 0));
}

#[test]
fn saves_by_target_and_firer() {
    let d = data();
    let open = Target::default();
    let covered = Target {
        covered: true,
        ..open
    };
    let column = Target {
        in_column: true,
        covered: true,
    };
    // Line infantry firing: 6; cover, skirmishers, mounted, crew: 5-6; columns never.
    assert_eq!(save_need(&d, open, true, None, false), Some(6));
    assert_eq!(save_need(&d, covered, true, None, false), Some(5));
    assert_eq!(save_need(&d, column, true, None, false), None);
    assert_eq!(save_need(&d, open, false, None, false), None);
    // A firer that moved: "increase save by one number (i.e "5" becomes "6")" (II.A.1.c):
    // cover's 5-6 becomes 6, and the line's 6 is no save at all.
    assert_eq!(save_need(&d, open, true, None, true), None);
    assert_eq!(save_need(&d, covered, true, None, true), Some(6));
    assert_eq!(save_need(&d, covered, false, None, true), Some(6));
    assert_eq!(save_need(&d, open, false, None, true), None);
    // Light guns: 6, 5-6 at long range.
    assert_eq!(save_need(&d, open, false, Some(false), false), Some(6));
    assert_eq!(save_need(&d, open, false, Some(true), false), Some(5));
}

#[test]
fn two_hits_per_cavalryman_and_the_odd_hit() {
    let d = data();
    assert_eq!(cavalry_casualties(&d, 4, None), 2);
    assert_eq!(cavalry_casualties(&d, 5, Some(3)), 2);
    assert_eq!(cavalry_casualties(&d, 5, Some(4)), 3);
    assert_eq!(cavalry_casualties(&d, 1, Some(6)), 1);
}

/// IV.A.9.a-b: in melee two points remove a horseman; only a unit inflicting a single point
/// throws 1D6 (4-6 a casualty); the odd point beside whole horsemen fells none (ruling
/// melee_horse_points).
#[test]
fn melee_points_on_horse() {
    let d = data();
    assert_eq!(melee_horse_casualties(&d, 1, Some(3)), 0);
    assert_eq!(melee_horse_casualties(&d, 1, Some(4)), 1);
    assert_eq!(melee_horse_casualties(&d, 1, None), 0);
    assert_eq!(melee_horse_casualties(&d, 2, None), 1);
    assert_eq!(melee_horse_casualties(&d, 3, Some(6)), 1);
    assert_eq!(melee_horse_casualties(&d, 7, None), 3);
}

#[test]
fn artillery_deductions_counter_battery_and_knock_out() {
    let d = data();
    let b = |x: f32| band(&d.artillery_bands, x);
    assert_eq!(
        (b(12.0), b(20.0), b(36.0), b(37.0)),
        (
            Some(Band::Short),
            Some(Band::Medium),
            Some(Band::Long),
            None
        )
    );
    let ded: Vec<i32> = Band::ALL
        .iter()
        .map(|x| artillery_deduction(&d, *x))
        .collect();
    assert_eq!(ded, vec![1, 2, 3]);
    // To hit a gun: 4 at 0-12", 5 at 12-24", 6 at 24-36"; light guns -1.
    assert!(counter_battery_hits(&d, Band::Short, 4, false));
    assert!(!counter_battery_hits(&d, Band::Short, 4, true));
    assert!(counter_battery_hits(&d, Band::Medium, 5, false));
    assert!(!counter_battery_hits(&d, Band::Long, 5, false));
    assert!(!counter_battery_hits(&d, Band::Long, 6, true));
    assert!(knocked_out(&d, 11) && knocked_out(&d, 12) && !knocked_out(&d, 10));
}

#[test]
fn firing_into_charges_every_cell() {
    let d = data();
    use Band::*;
    let (cl, cm) = (ChargeFrom::Long, ChargeFrom::Medium);
    use TroopClass::*;
    let cases: [(TroopClass, ChargeFrom, [Band; 6]); 6] = [
        (Grenadier, cl, [Long, Medium, Medium, Short, Short, Short]),
        (Line, cl, [Long, Long, Medium, Medium, Short, Short]),
        (Light, cl, [Long, Long, Long, Medium, Medium, Short]),
        (Grenadier, cm, [Medium, Medium, Short, Short, Short, Short]),
        (Line, cm, [Medium, Medium, Medium, Short, Short, Short]),
        (Light, cm, [Medium, Medium, Medium, Medium, Short, Short]),
    ];
    for (t, from, faces) in cases {
        for (i, want) in faces.iter().enumerate() {
            assert_eq!(
                charge_range(&d, t, from, i as u8 + 1),
                Some(*want),
                "{t:?} from {from:?}, die {}",
                i + 1
            );
        }
    }
}

#[test]
fn the_movement_table() {
    let d = data();
    use TroopClass::*;
    let row = |t| {
        [
            MoveFormation::Line,
            MoveFormation::FieldColumn,
            MoveFormation::RoadColumn,
            MoveFormation::Skirmish,
        ]
        .map(|f| base_move(&d, t, f))
    };
    assert_eq!(row(TroopClass::Line), [Some(6), Some(9), Some(12), None]);
    assert_eq!(row(Grenadier), [Some(6), Some(9), Some(12), None]);
    assert_eq!(row(Light), [Some(6), Some(9), Some(12), Some(12)]);
    assert_eq!(row(HeavyCavalry), [Some(9), Some(12), Some(15), None]);
    assert_eq!(row(LightCavalry), [Some(12), Some(15), Some(18), Some(18)]);
    assert_eq!(row(Artillery), [None, Some(9), Some(12), None]);
    assert_eq!(base_move(&d, General, MoveFormation::FieldColumn), Some(21));
    assert_eq!(base_move(&d, Courier, MoveFormation::FieldColumn), Some(30));
    let m = |t| {
        d.moves(t)
            .map(|r| (r.rough_dice, r.change_dice, r.rout_dice))
            .unwrap()
    };
    assert_eq!(m(TroopClass::Line), (-1, -1, 1));
    assert_eq!(m(HeavyCavalry), (-1, -1, 2));
    assert_eq!(m(LightCavalry), (-1, -1, 2));
    assert_eq!(m(Artillery), (-1, 0, 1));
    assert_eq!(
        (
            d.num("grenadier_change_inches"),
            d.num("push_light"),
            d.num("push_heavy")
        ),
        (3.0, 2.0, 4.0)
    );
}

#[test]
fn melee_dice_and_modifiers() {
    let d = data();
    // The low die is taken from the high; a short stand loses its missing figures first.
    assert_eq!(melee_casualties(6, 0, 2), 4);
    assert_eq!(melee_casualties(2, 0, 6), 0);
    assert_eq!(melee_casualties(6, 2, 3), 1);
    let v = |k: &str| d.melee_modifier(k).expect(k).value;
    assert_eq!(
        [
            "grenadiers",
            "formed",
            "attacking_disorganised",
            "heavy_vs_light",
            "light_cav_vs_non_grenadiers",
            "heavy_cav_vs_grenadiers"
        ]
        .map(v),
        [1, 1, 1, 1, 1, 1]
    );
    assert_eq!(
        [
            "defending_town",
            "flank_rear",
            "attacking_routed",
            "heavy_cav_vs_non_grenadiers",
            "moving_cav_vs_stationary"
        ]
        .map(v),
        [2, 2, 2, 2, 2]
    );
}

#[test]
fn morale_number_and_the_failed_morale_chart() {
    let d = data();
    let v = |k: &str| d.morale_modifier(k).expect(k).value;
    assert_eq!(d.morale_base, 4);
    assert_eq!(
        [
            "stand_lost",
            "out_of_command",
            "disorganised",
            "rout",
            "light_vs_cavalry",
            "crew_lost",
            "works",
            "commander_attached",
            "grenadiers",
            "heavy_vs_cavalry",
            "light_cav_closing",
            "heavy_cav_closing"
        ]
        .map(v),
        [1, 1, 1, 2, 1, 1, -2, -1, -1, -1, 3, 2]
    );
    // Two stands lost and disorganised: 4 + 2 + 1 = 7; a 6 fails, a 7 passes.
    let n = morale_number(&d, &[v("stand_lost"), v("stand_lost"), v("disorganised")]);
    assert_eq!(n, 7);
    assert!(morale_fails(n, 6) && !morale_fails(n, 7));
    // The chart: 1-4 rout, 5-11 disorganised, 12 recovery; lost melee by 1-5 -1 ... 16-20 -4;
    // 20 or more surrender.
    assert_eq!(failed_morale(&d, 4, 0), Failed::Rout);
    assert_eq!(failed_morale(&d, 5, 0), Failed::Disorganised);
    assert_eq!(failed_morale(&d, 11, 0), Failed::Disorganised);
    assert_eq!(failed_morale(&d, 12, 0), Failed::Recover);
    assert_eq!(failed_morale(&d, 12, 3), Failed::Disorganised);
    assert_eq!(failed_morale(&d, 8, 16), Failed::Rout);
    assert_eq!(failed_morale(&d, 12, 20), Failed::Surrender);
    let m: Vec<Option<i32>> = [0, 1, 5, 6, 10, 11, 15, 16, 19, 20]
        .iter()
        .map(|p| melee_loss_modifier(&d, *p))
        .collect();
    assert_eq!(
        m,
        vec![
            Some(0),
            Some(-1),
            Some(-1),
            Some(-2),
            Some(-2),
            Some(-3),
            Some(-3),
            Some(-4),
            Some(-4),
            None
        ]
    );
}

#[test]
fn the_chips_roll() {
    let d = data();
    let c = |die: u8, cinc: bool| {
        let r = chips(&d, die, cinc);
        (r.chips, r.radius, r.move_dice, r.command)
    };
    assert_eq!(c(1, false), (0, 12, -1, -1));
    assert_eq!(c(1, true), (1, 18, 0, 0));
    assert_eq!(c(4, false), (1, 18, 0, 0));
    assert_eq!(c(4, true), (2, 24, 1, 1));
    assert_eq!(c(6, false), (2, 24, 1, 1));
}

#[test]
fn malformed_tables_are_refused_and_rulings_are_given() {
    let text = include_str!("../assets/rulesets/hal25.ron");
    let bad = text.replacen(
        "short: (5, 6), medium: Some((3, 4))",
        "short: (4, 6), medium: Some((3, 4))",
        1,
    );
    assert_ne!(bad, text);
    assert!(
        HalData::from_ron(&bad)
            .unwrap_err()
            .contains("face 4 reads 2")
    );
    let d = data();
    for k in [
        "small_arms_dice",
        "moving_firer_save",
        "knock_out",
        "heavy_cavalry_line",
        "displaced_melee_list",
        "failed_morale_low",
    ] {
        assert!(d.rulings.iter().any(|r| r.key == k), "{k}");
    }
}

/// Dice from a script, in order.
fn script(dice: &[u8]) -> impl FnMut() -> u8 + '_ {
    let mut i = 0;
    move || {
        let d = dice[i];
        i += 1;
        d
    }
}

#[test]
fn a_volley_with_the_remainder_die_deductions_and_saves() {
    use volley::rules::ruleset::hal25::procedures::{Receiving, small_arms};
    let d = data();
    // 37 figures of line infantry, first volley at short range (deduct 2): six dice and the
    // one figure left over, which fires on a 1 of its test die. Dice 6 5 4 3 2 1 (+ the test 1
    // and one more 6): hits 4+3+2+1+0+0+4 = 14; the target in the open saves on 6.
    let mut roll = script(&[
        1, 6, 5, 4, 3, 2, 1, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ]);
    let v = small_arms(
        &d,
        37,
        Band::Short,
        true,
        true,
        false,
        Receiving::default(),
        &mut roll,
    );
    assert_eq!(v.remainder_test, Some(1));
    assert_eq!(v.dice, vec![6, 5, 4, 3, 2, 1, 6]);
    assert_eq!((v.deduction, v.hits, v.save_need), (2, 14, Some(6)));
    // Two of the fourteen saves are 6s.
    assert_eq!(v.saves.iter().filter(|s| **s >= 6).count(), 2);
    assert_eq!(v.casualties, 12);
    // A column has no save; regular fire at long range deducts 5.
    let target = Receiving {
        target: volley::rules::ruleset::hal25::tables::Target {
            in_column: true,
            covered: false,
        },
        cavalry: false,
    };
    let mut roll = script(&[6, 6, 4, 2]);
    let v = small_arms(&d, 24, Band::Long, false, true, false, target, &mut roll);
    assert_eq!((v.hits, v.saves.len(), v.casualties), (2, 0, 2));
    // Cavalry: two hits a figure, the odd hit on 4-6.
    let cav = Receiving {
        target: volley::rules::ruleset::hal25::tables::Target {
            in_column: false,
            covered: true,
        },
        cavalry: true,
    };
    // 12 figures at short range, regular (deduct 3): dice 6, 6: 6 hits; mounted save 5-6: 1, 2,
    // 3, 4, 5, 6 saves two: 4 hits left, two cavalrymen.
    let mut roll = script(&[6, 6, 1, 2, 3, 4, 5, 6]);
    let v = small_arms(&d, 12, Band::Short, false, true, false, cav, &mut roll);
    assert_eq!((v.hits, v.casualties, v.odd_die), (6, 2, None));
    // 3 hits, none saved: one cavalryman, and the odd hit on a 4 is another.
    let mut roll = script(&[6, 1, 1, 1, 4]);
    let v = small_arms(&d, 6, Band::Short, false, true, false, cav, &mut roll);
    assert_eq!((v.hits, v.odd_die, v.casualties), (3, Some(4), 2));
}

#[test]
fn a_battery_fires_with_light_gun_saves() {
    use volley::rules::ruleset::hal25::procedures::{Receiving, artillery};
    let d = data();
    // Two light guns at long range (deduct 3): 6 and 5 give 3 + 2 = 5 hits; the target saves
    // on 5-6 against a light gun at long range.
    let mut roll = script(&[6, 5, 1, 5, 6, 2, 3]);
    let v = artillery(&d, 2, Band::Long, true, Receiving::default(), &mut roll);
    assert_eq!(
        (v.deduction, v.hits, v.save_need, v.casualties),
        (3, 5, Some(5), 3)
    );
    // A heavy gun at short range (deduct 1) into the open: no save.
    let mut roll = script(&[4, 6]);
    let v = artillery(&d, 2, Band::Short, false, Receiving::default(), &mut roll);
    assert_eq!((v.hits, v.save_need, v.casualties), (8, None, 8));
}

#[test]
fn brigade_activation_moves_the_difference() {
    use volley::rules::ruleset::hal25::procedures::activation;
    assert_eq!(activation(5, 2), Some((0, 3)));
    assert_eq!(activation(1, 6), Some((1, 5)));
    assert_eq!(activation(4, 4), None);
}

#[test]
fn a_melee_of_stands_and_unanswered_dice() {
    use volley::rules::ruleset::hal25::procedures::{MeleeSide, melee};
    // Two stands against two, the attacker +1 (formed against non-formed), and one attacking
    // stand with no one to face.
    let a = MeleeSide {
        facing: 2,
        unanswered: 1,
        missing: vec![0, 0, 0],
        modifier: 1,
    };
    let b = MeleeSide {
        facing: 2,
        unanswered: 0,
        missing: vec![0, 2],
        modifier: 0,
    };
    // Pair 1: 4+1 = 5 against 3: b loses 2. Pair 2: 2+1 = 3 against 6-2 = 4: a loses 1.
    // Unanswered: 3+1 = 4: b loses 4.
    let mut roll = script(&[4, 3, 2, 6, 3]);
    let m = melee(&a, &b, &mut roll);
    assert_eq!((m.a_lost, m.b_lost), (1, 6));
    // Totals: a 5 + 3 + 4 = 12 less 1 = 11; b 3 + 4 = 7 less 6 = 1.
    assert_eq!(
        (m.a_total, m.b_total, m.winner, m.lost_by),
        (11, 1, Some(0), 10)
    );
}

#[test]
fn organisation_from_the_seed() {
    let d = data();
    let figs = |t| d.organisation(t).expect("unit").figures();
    assert_eq!(figs(TroopClass::Line), 37);
    assert_eq!(figs(TroopClass::Grenadier), 37);
    assert_eq!(figs(TroopClass::Light), 24);
    assert_eq!(figs(TroopClass::HeavyCavalry), 24);
    assert_eq!(figs(TroopClass::Artillery), 10);
    let line = d.organisation(TroopClass::Line).unwrap();
    assert_eq!(line.stands.len(), 6);
    assert_eq!(line.stand_sizes[0], (2.5, 1.5));
    assert_eq!(line.stand_sizes[1], (2.0, 1.5));
    assert_eq!(
        d.organisation(TroopClass::Light).unwrap().stand_sizes[0],
        (2.0, 1.0)
    );
}

#[test]
fn morale_checks_the_chart_and_recovery() {
    use volley::rules::ruleset::hal25::procedures::{
        Morale, MoraleSituation, after_failed_check, army_holds, fall_back, morale_factors,
        must_check_withdrawal, rout_recovery, two_stand_check,
    };
    let d = data();
    // Two stands lost, out of command, grenadiers with their brigadier: 4 + 1 + 1 + 1 - 1 - 1.
    let s = MoraleSituation {
        stands_lost: 2,
        out_of_command: true,
        grenadiers: true,
        commander_attached: true,
        ..MoraleSituation::default()
    };
    let f = morale_factors(&d, &s);
    assert_eq!(
        morale_number(&d, &f.iter().map(|m| m.value).collect::<Vec<_>>()),
        5
    );
    // Light troops ignore command control; six crew lost count once, twelve twice.
    let s = MoraleSituation {
        out_of_command: true,
        light: true,
        crew_lost: 12,
        ..MoraleSituation::default()
    };
    assert_eq!(
        morale_factors(&d, &s).iter().map(|m| m.value).sum::<i32>(),
        2
    );
    // After a failure.
    assert_eq!(
        after_failed_check(&d, Morale::Good, 8, 0),
        Morale::Disorganised
    );
    assert_eq!(after_failed_check(&d, Morale::Good, 3, 0), Morale::Rout(0));
    assert_eq!(after_failed_check(&d, Morale::Good, 12, 0), Morale::Good);
    assert_eq!(
        after_failed_check(&d, Morale::Disorganised, 12, 0),
        Morale::Rout(0)
    );
    assert_eq!(
        after_failed_check(&d, Morale::Good, 12, 20),
        Morale::Surrendered
    );
    // Two attempts to recover from rout.
    assert_eq!(
        rout_recovery(&d, Morale::Rout(0), true),
        Morale::Disorganised
    );
    assert_eq!(rout_recovery(&d, Morale::Rout(0), false), Morale::Rout(1));
    assert_eq!(rout_recovery(&d, Morale::Rout(1), false), Morale::Removed);
    assert_eq!(rout_recovery(&d, Morale::Disorganised, true), Morale::Good);
    assert_eq!(
        rout_recovery(&d, Morale::Disorganised, false),
        Morale::Rout(0)
    );
    // Down to two stands: only a 6 stays.
    assert!(two_stand_check(&d, 6) && !two_stand_check(&d, 5));
    assert_eq!(fall_back(&d, 7, 5), (7, true));
    assert_eq!(fall_back(&d, 7, 4), (7, false));
    // Army withdrawal: below half; the checking commander must exceed.
    assert!(must_check_withdrawal(&d, 4, 9) && !must_check_withdrawal(&d, 5, 10));
    assert!(army_holds(8, 1, 8, 0) && !army_holds(8, 0, 8, 0));
}

#[test]
fn counter_battery_hits_then_knocks_out() {
    use volley::rules::ruleset::hal25::procedures::counter_battery;
    let d = data();
    // Two guns at medium range (5 to hit): 5 hits, 2D6 6+6 knocks out; 4 misses.
    let mut roll = script(&[5, 6, 6, 4]);
    let shots = counter_battery(&d, 2, Band::Medium, false, &mut roll);
    assert_eq!(shots.len(), 2);
    assert!(shots[0].hit && shots[0].knocks_out && shots[0].knock_dice == Some((6, 6)));
    assert!(!shots[1].hit && shots[1].knock_dice.is_none());
    // 6 + 4 does not knock out (ruling knock_out: 11-12).
    let mut roll = script(&[6, 6, 4]);
    let shots = counter_battery(&d, 1, Band::Long, false, &mut roll);
    assert!(shots[0].hit && !shots[0].knocks_out);
    // A light gun at short range needs 5 (4, -1): a 4 misses, a 5 hits.
    let mut roll = script(&[4]);
    assert!(!counter_battery(&d, 1, Band::Short, true, &mut roll)[0].hit);
    let mut roll = script(&[5, 1, 1]);
    assert!(counter_battery(&d, 1, Band::Short, true, &mut roll)[0].hit);
}

#[test]
fn the_command_stand_marks_the_first_volley() {
    use volley::rules::ruleset::hal25::layout::{files, order, places};
    use volley::rules::ruleset::hal25::tables::MoveFormation;
    // Six stands in line: the command stand (0) at the right end, then in the middle.
    assert_eq!(order(6, MoveFormation::Line, false), vec![1, 2, 3, 4, 5, 0]);
    assert_eq!(order(6, MoveFormation::Line, true), vec![1, 2, 0, 3, 4, 5]);
    // In column: second from the front, then at the front.
    assert_eq!(
        order(6, MoveFormation::RoadColumn, false),
        vec![1, 0, 2, 3, 4, 5]
    );
    assert_eq!(
        order(6, MoveFormation::RoadColumn, true),
        vec![0, 1, 2, 3, 4, 5]
    );
    // A field column two stands wide: the command stand second in the right-hand file (the
    // second row), then in the front row.
    assert_eq!(
        order(6, MoveFormation::FieldColumn, false),
        vec![1, 2, 3, 0, 4, 5]
    );
    assert_eq!(
        order(6, MoveFormation::FieldColumn, true),
        vec![0, 1, 2, 3, 4, 5]
    );
    assert_eq!(
        (
            files(6, MoveFormation::FieldColumn),
            files(6, MoveFormation::RoadColumn)
        ),
        (2, 1)
    );
    // A battalion in line from the seed's stand sizes: 2.5 + 5 x 2 = 12.5 inches wide, the
    // command stand's centre 1.25 in from the right end.
    let d = data();
    let sizes = d
        .organisation(TroopClass::Line)
        .unwrap()
        .stand_sizes
        .clone();
    let p = places(&sizes, MoveFormation::Line, false, 0.0);
    let right = p
        .iter()
        .map(|x| x.across + x.width / 2.0)
        .fold(f32::MIN, f32::max);
    let left = p
        .iter()
        .map(|x| x.across - x.width / 2.0)
        .fold(f32::MAX, f32::min);
    assert!((right - left - 12.5).abs() < 1e-4);
    assert!((p[0].across - (right - 1.25)).abs() < 1e-4);
    // In field column the command stand stands behind the front row (1 1/2" deep) until the
    // first volley, then in it.
    let col = |fired| places(&sizes, MoveFormation::FieldColumn, fired, 0.0)[0].back;
    assert!(
        col(false) > 1.5 && col(true) < 1.5,
        "{} {}",
        col(false),
        col(true)
    );
    // In road column six stands one behind another: 6 x 1.5 = 9 inches deep.
    let p = places(&sizes, MoveFormation::RoadColumn, false, 0.0);
    let deep = p.iter().map(|x| x.back + x.depth / 2.0).fold(0.0, f32::max);
    assert!((deep - 9.0).abs() < 1e-4);
    assert!(p.iter().all(|x| x.across.abs() < 1e-4));
}

/// The town-fighting ruling gives the works' modifier as the morale table has it (V.C
/// "-2 Defending works"): the morale number two less, not a bonus.
#[test]
fn the_town_ruling_gives_the_works_modifier_of_the_table() {
    let d = data();
    let works = d
        .morale_modifiers
        .iter()
        .find(|m| m.key == "works")
        .expect("works");
    assert_eq!(works.value, -2);
    let r = d
        .rulings
        .iter()
        .find(|r| r.key == "town_fighting")
        .expect("town_fighting");
    assert!(
        r.ruling
            .contains(&format!("{} to their morale number", works.value)),
        "{}",
        r.ruling
    );
    assert!(!r.ruling.contains("+1 to morale"), "{}", r.ruling);
}
