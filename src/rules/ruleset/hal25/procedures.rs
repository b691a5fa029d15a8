//! Hal's procedures over the tables, free of the battle: a volley of small arms or a battery's
//! fire with its saves, a step of brigade activation, and a melee between stands. Dice come from
//! the caller (the battle's dice, or a test's script) in the order the rules throw them.

use super::tables::{
    Target, artillery_deduction, cavalry_casualties, dice_for, die_hits, remainder_fires,
    save_need, small_arms_deduction,
};
use super::{Band, HalData};

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
        let per = d.num("cavalry_hits_per_figure").max(1.0) as u32;
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
#[allow(clippy::too_many_arguments)]
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
}

/// Resolves a melee: facing stands throw against each other (the higher die inflicts the
/// difference), stands with no one to face inflict their die unanswered; the totals of the
/// modified dice less the casualties suffered are compared.
pub fn melee(a: &MeleeSide, b: &MeleeSide, roll: &mut dyn FnMut() -> u8) -> Melee {
    let mut m = Melee::default();
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
        } else {
            m.a_lost += (y - x) as u32;
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
            if side == 0 {
                m.a_dice.push(die);
                a_points += v;
                m.b_lost += v as u32;
            } else {
                m.b_dice.push(die);
                b_points += v;
                m.a_lost += v as u32;
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

/// The morale modifiers that apply, each as (name, value), from the data.
pub fn morale_factors(d: &HalData, s: &MoraleSituation) -> Vec<(String, i32)> {
    let mut out = Vec::new();
    let mut add = |key: &str, times: u32| {
        if let Some(m) = d.morale_modifier(key) {
            for _ in 0..times {
                out.push((m.name.clone(), m.value));
            }
        }
    };
    add("stand_lost", s.stands_lost);
    add("out_of_command", u32::from(s.out_of_command && !s.light));
    add("disorganised", u32::from(s.disorganised));
    add("rout", u32::from(s.in_rout));
    add("light_vs_cavalry", u32::from(s.light_vs_cavalry));
    let per = d.num("figures_per_die").max(1.0) as u32;
    add("crew_lost", s.crew_lost / per);
    add("works", u32::from(s.defending_works));
    add("commander_attached", u32::from(s.commander_attached));
    add("grenadiers", u32::from(s.grenadiers));
    add("heavy_vs_cavalry", u32::from(s.heavy_vs_cavalry));
    add(
        "light_cav_closing",
        u32::from(s.light_cav_closing_formed_infantry),
    );
    add(
        "heavy_cav_closing",
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
    if lost_by as f32 >= d.num("surrender_points") {
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

/// An attempt to recover from rout: passing it leaves the unit disorganised (ruling
/// rout_recovery); failing it a second time removes the unit.
pub fn rout_recovery(d: &HalData, now: Morale, passed: bool) -> Morale {
    match now {
        Morale::Rout(_) if passed => Morale::Disorganised,
        Morale::Rout(n) if n + 1 >= d.num("rout_recovery_attempts") as u32 => Morale::Removed,
        Morale::Rout(n) => Morale::Rout(n + 1),
        Morale::Disorganised if passed => Morale::Good,
        other => other,
    }
}

/// The special check of a unit down to two stands: anything but a 6 removes it.
pub fn two_stand_check(d: &HalData, die: u8) -> bool {
    f32::from(die) >= d.num("two_stand_need")
}

/// A unit that lost a melee and is disorganised falls back 2D6 inches, facing the enemy on
/// 5-6 of a further die, its back to the enemy otherwise.
pub fn fall_back(d: &HalData, two_d6: u8, facing_die: u8) -> (u32, bool) {
    (
        u32::from(two_d6),
        f32::from(facing_die) >= d.num("fall_back_facing_need"),
    )
}

/// Counter-battery fire: each gun throws to hit the target gun; each hit then throws 2D6 to
/// knock it out. Returns the hits and the guns knocked out.
pub fn counter_battery(
    d: &HalData,
    guns: u32,
    band: Band,
    light: bool,
    roll: &mut dyn FnMut() -> u8,
) -> (u32, u32) {
    let mut hits = 0;
    let mut out = 0;
    for _ in 0..guns {
        if super::tables::counter_battery_hits(d, band, roll(), light) {
            hits += 1;
            let two = roll() + roll();
            if super::tables::knocked_out(d, two) {
                out += 1;
            }
        }
    }
    (hits, out)
}

/// The army withdrawal check: the army below half its units withdraws unless its commander's
/// 2D6 and bonus exceed the opposing commander's.
pub fn army_holds(own_2d6: i32, own_bonus: i32, enemy_2d6: i32, enemy_bonus: i32) -> bool {
    own_2d6 + own_bonus > enemy_2d6 + enemy_bonus
}

/// An army must check for withdrawal when fewer than half its original units remain.
pub fn must_check_withdrawal(d: &HalData, remaining: u32, original: u32) -> bool {
    (remaining as f32) < original as f32 * d.num("army_withdrawal_share")
}

/// What changes a unit's move this turn (III and its notes; VI.F chips).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveConditions {
    pub rough: bool,
    pub formation_change: bool,
    /// Light infantry changing formation with half the battalion in line (*c).
    pub half_in_line: bool,
    pub disorganised: bool,
    /// Moving back while facing the enemy (not cavalry).
    pub retrograde: bool,
    pub charging: bool,
    pub routing: bool,
    /// The general's chips: D6 added (+1) or taken off (-1).
    pub chip_dice: i32,
}

/// A move allowance in inches, with each die and change in words; None when the unit may not
/// move so (no rate in that formation, or cavalry moving back facing the enemy).
pub fn move_allowance(
    d: &HalData,
    troop: super::TroopClass,
    formation: super::tables::MoveFormation,
    c: MoveConditions,
    roll: &mut dyn FnMut() -> u8,
) -> Option<(i32, Vec<(String, i32)>)> {
    use super::TroopClass::*;
    let row = d.moves(troop)?;
    let cavalry = matches!(troop, HeavyCavalry | LightCavalry);
    if c.retrograde && cavalry {
        return None;
    }
    let base = super::tables::base_move(d, troop, formation)? as i32;
    let mut parts = vec![("base move".to_string(), base)];
    let mut dice = |n: i32, what: &str, parts: &mut Vec<(String, i32)>| {
        for _ in 0..n.abs() {
            let die = i32::from(roll());
            parts.push((
                format!("{what} ({}1D6)", if n < 0 { "-" } else { "+" }),
                die * n.signum(),
            ));
        }
    };
    let skirmish = formation == super::tables::MoveFormation::Skirmish;
    if c.routing {
        dice(row.rout_dice, "rout", &mut parts);
    }
    // Rough ground costs light troops nothing in skirmish order (*b).
    if c.rough && !skirmish {
        dice(row.rough_dice, "rough terrain", &mut parts);
    }
    if c.formation_change {
        dice(row.change_dice, "formation change", &mut parts);
        if troop == Grenadier {
            parts.push((
                "grenadiers' formation change".into(),
                -(d.num("grenadier_change_inches") as i32),
            ));
        }
        if troop == Light && c.half_in_line {
            parts.push((
                "half the battalion in line".into(),
                -(d.num("light_change_inches") as i32),
            ));
        }
    }
    if c.disorganised {
        dice(-1, "disorganised", &mut parts);
    }
    if c.retrograde {
        dice(-1, "moving back facing the enemy", &mut parts);
    }
    if c.charging {
        dice(1, "charge", &mut parts);
    }
    if c.chip_dice != 0 {
        dice(c.chip_dice, "the general's chips", &mut parts);
    }
    let total = parts.iter().map(|p| p.1).sum::<i32>().max(0);
    Some((total, parts))
}

/// A courier's message is lost on 12 on 2D6; a mounted officer attached to a unit that takes
/// casualties falls on 12 on 2D6.
pub fn twelve_on_2d6(two_d6: u8) -> bool {
    two_d6 >= 12
}

/// The morale steps of a charge (IV.A.1-2): the attacker's check to close, the defender's to
/// hold, and for a defender that holds the range it fires at (II.A, Firing into Charges).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChargeSteps {
    pub attacker_number: i32,
    pub attacker_roll: i32,
    /// The attacker failed: disorganised, it does not move.
    pub attacker_failed: bool,
    pub defender_number: i32,
    pub defender_roll: Option<i32>,
    /// The defender failed to hold: it reads the failed morale chart (ruling hold_fails).
    pub defender_failed: bool,
    pub defender_after: Option<Morale>,
    /// The range die and the band the holding defender fires at.
    pub range_die: Option<u8>,
    pub fire_band: Option<Band>,
}

/// Runs a charge's morale steps with the two sides' morale numbers (base and modifiers, the
/// closing modifiers included in the attacker's), the defender's type for its firing range and
/// the band the attacker started from.
pub fn charge_steps(
    d: &HalData,
    attacker_number: i32,
    defender_number: i32,
    defender: super::TroopClass,
    from: super::ChargeFrom,
    roll: &mut dyn FnMut() -> u8,
) -> ChargeSteps {
    let two = |roll: &mut dyn FnMut() -> u8| i32::from(roll()) + i32::from(roll());
    let a = two(roll);
    let mut s = ChargeSteps {
        attacker_number,
        attacker_roll: a,
        attacker_failed: super::tables::morale_fails(attacker_number, a),
        defender_number,
        defender_roll: None,
        defender_failed: false,
        defender_after: None,
        range_die: None,
        fire_band: None,
    };
    if s.attacker_failed {
        return s;
    }
    let dr = two(roll);
    s.defender_roll = Some(dr);
    s.defender_failed = super::tables::morale_fails(defender_number, dr);
    if s.defender_failed {
        let chart = two(roll);
        s.defender_after = Some(after_failed_check(d, Morale::Good, chart, 0));
        return s;
    }
    let die = roll();
    s.range_die = Some(die);
    s.fire_band = super::tables::charge_range(d, defender, from, die);
    s
}
