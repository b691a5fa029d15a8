//! Reading Hal's tables: small-arms and artillery dice, range deductions and saves, hits on
//! cavalry, counter-battery fire, the range a unit fires at into a charge, movement rates,
//! melee casualties, the morale number and the failed morale chart, and the chips roll.

use super::N;
use super::{Band, ChargeFrom, ChipRow, DeductionKey, Failed, HalData, TroopClass};

/// The band a distance (inches) falls in, of three upper limits; None beyond the last.
pub fn band(limits: &[f32], distance: f32) -> Option<Band> {
    crate::rules::ruleset::common::band(limits, distance).map(|i| Band::ALL[i.min(2)])
}

/// Dice for small arms (or artillery crew in melee): one per full six figures, and the figures
/// left over (fewer than six) that may earn one more (ruling small_arms_dice).
pub fn dice_for(d: &HalData, figures: u32) -> (u32, u32) {
    let per = d.n(N::FiguresPerDie).max(1.0) as u32;
    (figures / per, figures % per)
}

/// The left-over figures fire as a full die when the test die is no more than their number.
pub fn remainder_fires(remainder: u32, test_die: u8) -> bool {
    remainder > 0 && u32::from(test_die) <= remainder
}

/// Casualties a die scores: its face less the deduction, never below 0.
pub fn die_hits(face: u8, deduction: i32) -> u32 {
    (i32::from(face) - deduction).max(0) as u32
}

/// The range deduction of small arms: regular or first volley, by band.
pub fn small_arms_deduction(d: &HalData, first_volley: bool, b: Band) -> i32 {
    let key = if first_volley {
        DeductionKey::FirstVolley
    } else {
        DeductionKey::Regular
    };
    // Three bands each: loading refuses a row without.
    d.deductions.get(key)[b.index()]
}

/// What protects a target from small arms or artillery fire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Target {
    pub in_column: bool,
    /// Under cover, skirmishing, mounted, or artillery crew.
    pub covered: bool,
}

/// The lowest face that saves a hit, or None (no save). `line_firing`: the firer is line
/// infantry (saves on 6); `light_gun` with `long`: a light gun's fire (6, 5-6 at long range);
/// `moved`: the firer moved, the save one number harder (ruling moving_firer_save).
pub fn save_need(
    d: &HalData,
    t: Target,
    line_firing: bool,
    light_gun: Option<bool>,
    moved: bool,
) -> Option<u8> {
    if t.in_column {
        return None;
    }
    let mut need: Option<u8> = None;
    let mut best = |n: f32| {
        let n = n as u8;
        need = Some(need.map_or(n, |m| m.min(n)));
    };
    if line_firing {
        best(d.n(N::SaveLineFiring));
    }
    if t.covered {
        best(d.n(N::SaveCover));
    }
    if let Some(long) = light_gun {
        best(if long {
            d.n(N::SaveLightGunLong)
        } else {
            d.n(N::SaveLightGun)
        });
    }
    if moved {
        // "increase save by one number (i.e "5" becomes "6")": a save on 6 is lost.
        need = need.map(|n| n + 1).filter(|&n| n <= 6);
    }
    need
}

/// Cavalrymen removed by hits: two hits a figure; an odd hit removes one more on 4-6 of
/// `odd_die` (no carry-over).
pub fn cavalry_casualties(d: &HalData, hits: u32, odd_die: Option<u8>) -> u32 {
    let per = d.n(N::CavalryHitsPerFigure).max(1.0) as u32;
    let whole = hits / per;
    let odd =
        !hits.is_multiple_of(per) && odd_die.is_some_and(|x| f32::from(x) >= d.n(N::OddHitNeed));
    whole + u32::from(odd)
}

/// Horsemen removed by melee points (IV.A.9.a-b): two points a horseman (a stand of three
/// horse is a stand of six foot); a unit inflicting a single point throws `single_die`, 4-6
/// felling one; the odd point left over from whole horsemen fells none (ruling
/// melee_horse_points).
pub fn melee_horse_casualties(d: &HalData, points: u32, single_die: Option<u8>) -> u32 {
    let per = d.n(N::CavalryHitsPerFigure).max(1.0) as u32;
    if points == 1 {
        return u32::from(single_die.is_some_and(|x| f32::from(x) >= d.n(N::OddHitNeed)));
    }
    points / per
}

/// The artillery range deduction by band.
pub fn artillery_deduction(d: &HalData, b: Band) -> i32 {
    d.artillery_deductions.get(b.index()).copied().unwrap_or(6)
}

/// A counter-battery die hits the target gun: the band's score or better, light guns -1.
pub fn counter_battery_hits(d: &HalData, b: Band, die: u8, light: bool) -> bool {
    let need = d.counter_battery_need.get(b.index()).copied().unwrap_or(7);
    let m = if light {
        d.n(N::LightGunCounterBattery) as i32
    } else {
        0
    };
    i32::from(die) + m >= need
}

/// 2D6 after a counter-battery hit knock the gun out (ruling knock_out).
pub fn knocked_out(d: &HalData, two_d6: u8) -> bool {
    f32::from(two_d6) >= d.n(N::KnockOutNeed)
}

/// The range a unit that holds fires at into a charge, by 1D6 (II.A, Firing into Charges).
pub fn charge_range(d: &HalData, troop: TroopClass, from: ChargeFrom, die: u8) -> Option<Band> {
    let r = d
        .charge_ranges
        .iter()
        .find(|r| r.troop == troop && r.from == from)?;
    let within = |x: Option<(u8, u8)>| x.is_some_and(|(lo, hi)| lo <= die && die <= hi);
    if within(Some(r.short)) {
        Some(Band::Short)
    } else if within(r.medium) {
        Some(Band::Medium)
    } else if within(r.long) {
        Some(Band::Long)
    } else {
        None
    }
}

/// A unit's formation for the movement table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveFormation {
    Line,
    FieldColumn,
    RoadColumn,
    Skirmish,
}

/// The base move in inches, or None where the table has "-".
pub fn base_move(d: &HalData, troop: TroopClass, f: MoveFormation) -> Option<u32> {
    let r = d.moves(troop)?;
    match f {
        MoveFormation::Line => r.line,
        MoveFormation::FieldColumn => r.field_column,
        MoveFormation::RoadColumn => r.road_column,
        MoveFormation::Skirmish => r.skirmish,
    }
}

/// Casualties one melee die inflicts on the stand it faces: the difference when it is the
/// higher, none otherwise; a stand of fewer than six figures takes the missing figures off its
/// die first.
pub fn melee_casualties(own: i32, missing: u32, other: i32) -> u32 {
    let mine = own - missing as i32;
    (mine - other).max(0) as u32
}

/// The morale number: the base (4) plus the modifiers; 2D6 below it fails.
pub fn morale_number(d: &HalData, modifiers: &[i32]) -> i32 {
    d.morale_base + modifiers.iter().sum::<i32>()
}

pub fn morale_fails(number: i32, two_d6: i32) -> bool {
    two_d6 < number
}

/// The failed-morale modifier for a melee lost by `points`, or None from 20 up (surrender).
pub fn melee_loss_modifier(d: &HalData, points: u32) -> Option<i32> {
    if points as f32 >= d.n(N::SurrenderPoints) {
        return None;
    }
    Some(
        d.melee_loss_modifiers
            .iter()
            .find(|r| r.min <= points && points <= r.max)
            .map_or(0, |r| r.value),
    )
}

/// The failed morale chart: 2D6 with the melee-loss modifier.
pub fn failed_morale(d: &HalData, two_d6: i32, lost_by: u32) -> Failed {
    let Some(m) = melee_loss_modifier(d, lost_by) else {
        return Failed::Surrender;
    };
    let score = two_d6 + m;
    d.failed_morale
        .iter()
        .find(|r| r.min <= score && score <= r.max)
        .map_or(Failed::Rout, |r| r.outcome)
}

/// The pre-game chips roll: 1D6, +1 for the commander-in-chief.
pub fn chips(d: &HalData, die: u8, cinc: bool) -> &ChipRow {
    let score = i32::from(die)
        + if cinc {
            d.n(N::ChipsCincBonus) as i32
        } else {
            0
        };
    d.chips
        .iter()
        .find(|r| r.min <= score && score <= r.max)
        .unwrap_or(&d.chips[0])
}
