//! Exact odds of an opposed roll of one die each, by enumerating all 36 throws.

use super::command::Verdict;
use serde::Serialize;

/// Decides an opposed roll of totals `a` against `b`: `Some(true)` when `a` won, and how.
/// Equal totals are a draw; the higher wins; double or more (or a loser at 0 or less) is
/// beaten by double.
pub fn verdict(a: i32, b: i32) -> (Option<bool>, Verdict) {
    if a == b {
        return (None, Verdict::Draw);
    }
    let (hi, lo, a_won) = if a > b { (a, b, true) } else { (b, a, false) };
    let double = lo <= 0 || hi >= 2 * lo;
    (
        Some(a_won),
        if double {
            Verdict::BeatenByDouble
        } else {
            Verdict::Beaten
        },
    )
}

/// Probabilities of each outcome, seen from side `a`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Odds {
    pub a_wins_by_double: f64,
    pub a_wins: f64,
    pub draw: f64,
    pub b_wins: f64,
    pub b_wins_by_double: f64,
}

impl Odds {
    /// The odds of a roll preceded by a chance event: each case's weight and odds.
    pub fn mix(cases: &[(f64, Odds)]) -> Odds {
        let mut o = Odds::default();
        for (w, c) in cases {
            o.a_wins_by_double += w * c.a_wins_by_double;
            o.a_wins += w * c.a_wins;
            o.draw += w * c.draw;
            o.b_wins += w * c.b_wins;
            o.b_wins_by_double += w * c.b_wins_by_double;
        }
        o
    }
}

/// What a side of an opposed roll does with a close result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quirks {
    /// Beaten by exactly 1, it draws instead (DB7YW's stoic units).
    pub stoic: bool,
    /// On a draw it is beaten instead (DBFPW's lancers in close combat), unless both are.
    pub loses_draws: bool,
}

/// Decides an opposed roll with each side's quirks: who lost and how, and whether a stoic
/// loser turned the result into a draw.
pub fn decide(a: i32, b: i32, qa: Quirks, qb: Quirks) -> (Option<bool>, Verdict, bool) {
    let (won, v) = verdict(a, b);
    if won.is_none() && qa.loses_draws != qb.loses_draws {
        return (Some(qb.loses_draws), Verdict::Beaten, false);
    }
    let loser_stoic = match won {
        Some(true) => qb.stoic,
        Some(false) => qa.stoic,
        None => false,
    };
    // Beaten by a final score of 1, even where that is double (1 against 2, 0 against 1).
    if won.is_some() && (a - b).abs() == 1 && loser_stoic {
        return (None, Verdict::Draw, true);
    }
    (won, v, false)
}

/// Odds for modifiers `a_mod` and `b_mod` with each side's quirks.
pub fn opposed_with(a_mod: i32, b_mod: i32, qa: Quirks, qb: Quirks) -> Odds {
    let mut o = Odds::default();
    let p = 1.0 / 36.0;
    for da in 1..=6 {
        for db in 1..=6 {
            match decide(a_mod + da, b_mod + db, qa, qb) {
                (Some(true), Verdict::BeatenByDouble, _) => o.a_wins_by_double += p,
                (Some(true), Verdict::Beaten, _) => o.a_wins += p,
                (Some(false), Verdict::Beaten, _) => o.b_wins += p,
                (Some(false), Verdict::BeatenByDouble, _) => o.b_wins_by_double += p,
                _ => o.draw += p,
            }
        }
    }
    o
}

/// Odds for modifiers `a_mod` and `b_mod` (factors without the die). A stoic side beaten by
/// exactly 1 draws instead.
pub fn opposed(a_mod: i32, b_mod: i32, a_stoic: bool, b_stoic: bool) -> Odds {
    let mut o = Odds::default();
    let p = 1.0 / 36.0;
    for da in 1..=6 {
        for db in 1..=6 {
            let (ta, tb) = (a_mod + da, b_mod + db);
            let (won, mut v) = verdict(ta, tb);
            let loser_stoic = match won {
                Some(true) => b_stoic,
                Some(false) => a_stoic,
                None => false,
            };
            if won.is_some() && (ta - tb).abs() == 1 && loser_stoic {
                v = Verdict::Draw;
            }
            match (won, v) {
                (_, Verdict::Draw | Verdict::Outscored) => o.draw += p,
                (Some(true), Verdict::Beaten) => o.a_wins += p,
                (Some(true), Verdict::BeatenByDouble) => o.a_wins_by_double += p,
                (Some(false), Verdict::Beaten) => o.b_wins += p,
                (Some(false), Verdict::BeatenByDouble) => o.b_wins_by_double += p,
                (None, _) => o.draw += p,
            }
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn verdicts() {
        assert_eq!(verdict(5, 5), (None, Verdict::Draw));
        assert_eq!(verdict(9, 6), (Some(true), Verdict::Beaten));
        assert_eq!(verdict(10, 5), (Some(true), Verdict::BeatenByDouble));
        assert_eq!(verdict(4, 7), (Some(false), Verdict::Beaten));
        assert_eq!(verdict(3, 6), (Some(false), Verdict::BeatenByDouble));
        assert_eq!(verdict(3, 0), (Some(true), Verdict::BeatenByDouble));
    }

    #[test]
    fn equal_factors() {
        let o = opposed(4, 4, false, false);
        assert!(close(o.draw, 6.0 / 36.0));
        assert!(close(o.a_wins + o.a_wins_by_double, 15.0 / 36.0));
        assert!(close(
            o.a_wins + o.a_wins_by_double,
            o.b_wins + o.b_wins_by_double
        ));
        // Doubles at +4 each: 4+6 = 10 against 4+1 = 5 only.
        assert!(close(o.a_wins_by_double, 1.0 / 36.0));
        let sum = o.a_wins + o.a_wins_by_double + o.draw + o.b_wins + o.b_wins_by_double;
        assert!(close(sum, 1.0));
    }

    #[test]
    fn stoic_draws_when_beaten_by_one_even_by_double() {
        // 000 A Stoic Unit: "beaten in Combat by a Final Score of 1" becomes a draw; 1 against
        // 2 and 0 against 1 are beaten by 1 as well as by double.
        let stoic_b = Quirks {
            stoic: true,
            loses_draws: false,
        };
        let plain = Quirks::default();
        assert_eq!(decide(2, 1, plain, stoic_b), (None, Verdict::Draw, true));
        assert_eq!(decide(1, 0, plain, stoic_b), (None, Verdict::Draw, true));
        assert_eq!(decide(0, 1, stoic_b, plain), (None, Verdict::Draw, true));
        assert_eq!(
            decide(3, 1, plain, stoic_b),
            (Some(true), Verdict::BeatenByDouble, false)
        );
        // The odds agree: a stoic at -1 against +0 never loses by 1.
        let o = opposed_with(0, -1, plain, stoic_b);
        let by_one = (1..=6)
            .flat_map(|x| (1..=6).map(move |y| (x, y - 1)))
            .filter(|(x, y)| x - y == 1)
            .count() as f64;
        let flat = opposed_with(0, -1, plain, plain);
        assert!(close(o.draw - flat.draw, by_one / 36.0));
        assert!(close(opposed(0, -1, false, true).draw, o.draw));
    }

    #[test]
    fn stoic_turns_losses_by_one_into_draws() {
        let plain = opposed(4, 4, false, false);
        let stoic = opposed(4, 4, false, true);
        // Five throws beat b by exactly 1.
        assert!(close(stoic.draw - plain.draw, 5.0 / 36.0));
        assert!(close(stoic.a_wins, plain.a_wins - 5.0 / 36.0));
    }
}
