//! Hal's procedures over the tables, free of the battle: a volley of small arms or a battery's
//! fire with its saves, a step of brigade activation, and a melee between stands. Dice come from
//! the caller (the battle's dice, or a test's script) in the order the rules throw them.

use super::N;
use super::tables::{
    Target, artillery_deduction, cavalry_casualties, dice_for, die_hits, remainder_fires,
    save_need, small_arms_deduction,
};
use super::{Band, HalData, MoraleKey};
use crate::rules::command::Factor;

/// What a volley or a battery's fire did, die by die.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Volley {
    /// The test die of the figures left over (fewer than six), if any.
    pub remainder_test: Option<u8>,
    /// The dice that fired.
    pub dice: Vec<u8>,
    pub deduction: i32,
    pub hits: u32,
    /// The lowest face that saves, if any save.
    pub save_need: Option<u8>,
    pub saves: Vec<u8>,
    /// The die for an odd hit on cavalry.
    pub odd_die: Option<u8>,
    /// Figures removed.
    pub casualties: u32,
}

/// How a target takes fire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Receiving {
    pub target: Target,
    /// Cavalry: two hits a figure.
    pub cavalry: bool,
}

fn saves_and_casualties(d: &HalData, v: &mut Volley, r: Receiving, roll: &mut dyn FnMut() -> u8) {
    let mut kept = v.hits;
    if let Some(need) = v.save_need {
        for _ in 0..v.hits {
            let s = roll();
            v.saves.push(s);
            if s >= need {
                kept -= 1;
            }
        }
    }
    v.casualties = if r.cavalry {
        let per = d.n(N::CavalryHitsPerFigure).max(1.0) as u32;
        if !kept.is_multiple_of(per) {
            v.odd_die = Some(roll());
        }
        cavalry_casualties(d, kept, v.odd_die)
    } else {
        kept
    };
}

/// A volley of small arms: 1D6 per six figures (the figures left over test for one more), each
/// less the range deduction (regular or first volley), then a save per hit, then two hits a
/// cavalryman. `line_firing`: the firer is line infantry (its targets save on 6).
#[expect(
    clippy::too_many_arguments,
    reason = "the seed's volley procedure: each argument is one of its inputs"
)]
pub fn small_arms(
    d: &HalData,
    figures: u32,
    band: Band,
    first_volley: bool,
    line_firing: bool,
    moved: bool,
    r: Receiving,
    roll: &mut dyn FnMut() -> u8,
) -> Volley {
    let (full, rem) = dice_for(d, figures);
    let mut v = Volley {
        deduction: small_arms_deduction(d, first_volley, band),
        ..Volley::default()
    };
    let mut n = full;
    if rem > 0 {
        let t = roll();
        v.remainder_test = Some(t);
        if remainder_fires(rem, t) {
            n += 1;
        }
    }
    for _ in 0..n {
        let die = roll();
        v.dice.push(die);
        v.hits += die_hits(die, v.deduction);
    }
    v.save_need = save_need(d, r.target, line_firing, None, moved);
    saves_and_casualties(d, &mut v, r, roll);
    v
}

/// A battery's fire: 1D6 per gun served (two crew a gun), less the range deduction, then saves
/// (none in column; cover and crews 5-6; a light gun's targets 6, 5-6 at long range).
pub fn artillery(
    d: &HalData,
    guns: u32,
    band: Band,
    light: bool,
    r: Receiving,
    roll: &mut dyn FnMut() -> u8,
) -> Volley {
    let mut v = Volley {
        deduction: artillery_deduction(d, band),
        ..Volley::default()
    };
    for _ in 0..guns {
        let die = roll();
        v.dice.push(die);
        v.hits += die_hits(die, v.deduction);
    }
    let light_gun = light.then_some(band == Band::Long);
    v.save_need = save_need(d, r.target, false, light_gun, false);
    saves_and_casualties(d, &mut v, r, roll);
    v
}

/// One throw of brigade activation: the higher die's side moves as many brigades as the
/// difference; equal dice move none (throw again).
pub fn activation(die_a: u8, die_b: u8) -> Option<(usize, u32)> {
    match die_a.cmp(&die_b) {
        std::cmp::Ordering::Greater => Some((0, u32::from(die_a - die_b))),
        std::cmp::Ordering::Less => Some((1, u32::from(die_b - die_a))),
        std::cmp::Ordering::Equal => None,
    }
}

/// One side of a melee: its stands facing enemy stands (in order, each against the enemy stand
/// of the same place), those with no one to face (they strike unanswered), each stand's
/// missing figures, and the modifier every die takes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MeleeSide {
    pub facing: usize,
    pub unanswered: usize,
    /// Missing figures of each stand, facing ones first (a short stand takes them off its die).
    pub missing: Vec<u32>,
    pub modifier: i32,
}

/// What a melee did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Melee {
    pub a_dice: Vec<u8>,
    pub b_dice: Vec<u8>,
    /// Casualties each side suffered.
    pub a_lost: u32,
    pub b_lost: u32,
    /// Melee points (the modified dice) less casualties suffered.
    pub a_total: i32,
    pub b_total: i32,
    /// 0 (a) or 1 (b) won; None: level.
    pub winner: Option<usize>,
    pub lost_by: u32,
    /// Casualties each fighting stand suffered, in the order of `facing` (IV.A.4: the
    /// difference goes to the opposing stand; an unanswered die to the nearest stand).
    pub a_stand_lost: Vec<u32>,
    pub b_stand_lost: Vec<u32>,
}

/// Resolves a melee: facing stands throw against each other (the higher die inflicts the
/// difference), stands with no one to face inflict their die unanswered; the totals of the
/// modified dice less the casualties suffered are compared.
pub fn melee(a: &MeleeSide, b: &MeleeSide, roll: &mut dyn FnMut() -> u8) -> Melee {
    let mut m = Melee {
        a_stand_lost: vec![0; a.facing],
        b_stand_lost: vec![0; b.facing],
        ..Melee::default()
    };
    let modified = |die: u8, side: &MeleeSide, i: usize| {
        i32::from(die) + side.modifier - side.missing.get(i).copied().unwrap_or(0) as i32
    };
    let pairs = a.facing.min(b.facing);
    let mut a_points = 0;
    let mut b_points = 0;
    for i in 0..pairs {
        let da = roll();
        let db = roll();
        m.a_dice.push(da);
        m.b_dice.push(db);
        let (x, y) = (modified(da, a, i), modified(db, b, i));
        a_points += x.max(0);
        b_points += y.max(0);
        if x > y {
            m.b_lost += (x - y) as u32;
            m.b_stand_lost[i] += (x - y) as u32;
        } else {
            m.a_lost += (y - x) as u32;
            m.a_stand_lost[i] += (y - x) as u32;
        }
    }
    for (side, extra) in [
        (0usize, a.facing - pairs + a.unanswered),
        (1, b.facing - pairs + b.unanswered),
    ] {
        for k in 0..extra {
            let die = roll();
            let s = if side == 0 { a } else { b };
            let v = modified(die, s, pairs + k).max(0);
            // On the opposing stand of the same place, or the nearest there is.
            let on = |lost: &mut Vec<u32>| {
                if let Some(x) = lost.len().checked_sub(1).and_then(|l| {
                    let i = (pairs + k).min(l);
                    lost.get_mut(i)
                }) {
                    *x += v as u32;
                }
            };
            if side == 0 {
                m.a_dice.push(die);
                a_points += v;
                m.b_lost += v as u32;
                on(&mut m.b_stand_lost);
            } else {
                m.b_dice.push(die);
                b_points += v;
                m.a_lost += v as u32;
                on(&mut m.a_stand_lost);
            }
        }
    }
    m.a_total = a_points - m.a_lost as i32;
    m.b_total = b_points - m.b_lost as i32;
    m.winner = match m.a_total.cmp(&m.b_total) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    m.lost_by = m.a_total.abs_diff(m.b_total);
    m
}

/// What a unit's morale check weighs (V.C).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoraleSituation {
    pub stands_lost: u32,
    pub out_of_command: bool,
    /// Light infantry or light cavalry (command control does not count against them).
    pub light: bool,
    pub disorganised: bool,
    pub in_rout: bool,
    /// Light infantry or cavalry facing other cavalry.
    pub light_vs_cavalry: bool,
    pub crew_lost: u32,
    pub defending_works: bool,
    pub commander_attached: bool,
    pub grenadiers: bool,
    /// Heavy cavalry facing other cavalry.
    pub heavy_vs_cavalry: bool,
    pub light_cav_closing_formed_infantry: bool,
    pub heavy_cav_closing_formed_infantry: bool,
}

/// The morale modifiers that apply, in the order the reference lists them, from the data
/// (a modifier that counts twice appears twice).
pub fn morale_factors<'d>(d: &'d HalData, s: &MoraleSituation) -> Vec<&'d Factor> {
    let mut out = Vec::new();
    let mut add = |key: MoraleKey, times: u32| {
        let m = d.morale.get(key);
        for _ in 0..times {
            out.push(m);
        }
    };
    add(MoraleKey::StandLost, s.stands_lost);
    add(
        MoraleKey::OutOfCommand,
        u32::from(s.out_of_command && !s.light),
    );
    add(MoraleKey::Disorganised, u32::from(s.disorganised));
    add(MoraleKey::Rout, u32::from(s.in_rout));
    add(MoraleKey::LightVsCavalry, u32::from(s.light_vs_cavalry));
    let per = d.n(N::FiguresPerDie).max(1.0) as u32;
    add(MoraleKey::CrewLost, s.crew_lost / per);
    add(MoraleKey::Works, u32::from(s.defending_works));
    add(
        MoraleKey::CommanderAttached,
        u32::from(s.commander_attached),
    );
    add(MoraleKey::Grenadiers, u32::from(s.grenadiers));
    add(MoraleKey::HeavyVsCavalry, u32::from(s.heavy_vs_cavalry));
    add(
        MoraleKey::LightCavClosing,
        u32::from(s.light_cav_closing_formed_infantry),
    );
    add(
        MoraleKey::HeavyCavClosing,
        u32::from(s.heavy_cav_closing_formed_infantry),
    );
    out
}

/// A unit's state of morale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Morale {
    #[default]
    Good,
    Disorganised,
    /// Routed, with the recovery attempts failed so far.
    Rout(u32),
    Removed,
    Surrendered,
}

/// After a failed morale check: a unit that lost a melee by 20 or more surrenders; a
/// disorganised one drops to rout; any other reads the failed morale chart with its melee-loss
/// modifier (ruling disorganised_failing).
pub fn after_failed_check(d: &HalData, now: Morale, chart_2d6: i32, lost_by: u32) -> Morale {
    use super::Failed;
    if lost_by as f32 >= d.n(N::SurrenderPoints) {
        return Morale::Surrendered;
    }
    match now {
        Morale::Disorganised => Morale::Rout(0),
        Morale::Rout(n) => Morale::Rout(n),
        Morale::Removed | Morale::Surrendered => now,
        Morale::Good => match super::tables::failed_morale(d, chart_2d6, lost_by) {
            Failed::Rout => Morale::Rout(0),
            Failed::Disorganised => Morale::Disorganised,
            Failed::Recover => Morale::Good,
            Failed::Surrender => Morale::Surrendered,
        },
    }
}

/// The morale phase's attempt to recover: a routed unit that passes is disorganised (ruling
/// rout_recovery), one that fails a second time is removed; a disorganised unit that passes is
/// in good order again, one that fails drops to rout (Failed Morale Notes 4).
pub fn rout_recovery(d: &HalData, now: Morale, passed: bool) -> Morale {
    match now {
        Morale::Rout(_) if passed => Morale::Disorganised,
        Morale::Rout(n) if n + 1 >= d.n(N::RoutRecoveryAttempts) as u32 => Morale::Removed,
        Morale::Rout(n) => Morale::Rout(n + 1),
        Morale::Disorganised if passed => Morale::Good,
        Morale::Disorganised => Morale::Rout(0),
        other => other,
    }
}

/// The special check of a unit down to two stands: anything but a 6 removes it.
pub fn two_stand_check(d: &HalData, die: u8) -> bool {
    f32::from(die) >= d.n(N::TwoStandNeed)
}

/// A unit that lost a melee and is disorganised falls back 2D6 inches, facing the enemy on
/// 5-6 of a further die, its back to the enemy otherwise.
pub fn fall_back(d: &HalData, two_d6: u8, facing_die: u8) -> (u32, bool) {
    (
        u32::from(two_d6),
        f32::from(facing_die) >= d.n(N::FallBackFacingNeed),
    )
}

/// One gun's counter-battery shot: its die to hit, and for a hit the 2D6 to knock the target
/// gun out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GunShot {
    pub die: u8,
    pub hit: bool,
    pub knock_dice: Option<(u8, u8)>,
    pub knocks_out: bool,
}

/// Counter-battery fire: each gun throws to hit the target gun by range (II.B.3); each hit then
/// throws 2D6 to knock it out (ruling knock_out).
pub fn counter_battery(
    d: &HalData,
    guns: u32,
    band: Band,
    light: bool,
    roll: &mut dyn FnMut() -> u8,
) -> Vec<GunShot> {
    (0..guns)
        .map(|_| {
            let die = roll();
            let hit = super::tables::counter_battery_hits(d, band, die, light);
            let knock_dice = hit.then(|| (roll(), roll()));
            GunShot {
                die,
                hit,
                knock_dice,
                knocks_out: knock_dice.is_some_and(|(x, y)| super::tables::knocked_out(d, x + y)),
            }
        })
        .collect()
}

/// The army withdrawal check: the army below half its units withdraws unless its commander's
/// 2D6 and bonus exceed the opposing commander's.
pub fn army_holds(own_2d6: i32, own_bonus: i32, enemy_2d6: i32, enemy_bonus: i32) -> bool {
    own_2d6 + own_bonus > enemy_2d6 + enemy_bonus
}

/// An army must check for withdrawal when fewer than half its original units remain.
pub fn must_check_withdrawal(d: &HalData, remaining: u32, original: u32) -> bool {
    (remaining as f32) < original as f32 * d.n(N::ArmyWithdrawalShare)
}
