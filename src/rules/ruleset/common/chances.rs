//! The chances of dice: two dice's totals, at least so many of n dice, range bands.

use super::super::view::Chance;

/// The exact chance of each outcome as a line of the outlook.
pub fn chance(outcome: impl Into<String>, chance: f64, edge: f64) -> Chance {
    Chance {
        outcome: outcome.into(),
        chance,
        edge,
    }
}

/// The chance of each 2D6 total, 2 to 12.
pub fn two_d6() -> [(i32, f64); 11] {
    let mut out = [(0, 0.0); 11];
    for (i, slot) in out.iter_mut().enumerate() {
        let s = i as i32 + 2;
        let ways = 6 - (s - 7).abs();
        *slot = (s, f64::from(ways) / 36.0);
    }
    out
}

/// The chance that 2D6 is at least `n`.
pub fn two_d6_at_least(n: i32) -> f64 {
    two_d6()
        .iter()
        .filter(|(t, _)| *t >= n)
        .map(|(_, p)| p)
        .sum()
}

/// The range band of a distance in inches (index into `bands`), or None beyond the last.
pub fn band(bands: &[f32], distance: f32) -> Option<usize> {
    bands.iter().position(|b| distance <= *b + 1e-3)
}

/// Probability of at least `k` successes in `n` dice needing `need`.
pub fn at_least(n: u32, need: u8, k: u32) -> f64 {
    (k..=n).map(|i| exactly(n, need, i)).sum()
}

/// Probability of exactly `k` successes.
pub fn exactly(n: u32, need: u8, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    // The chance of one die scoring `need` or more (7: never).
    let p = ((7 - need.clamp(1, 7) as i32).max(0) as f64) / 6.0;
    binom(n, k) * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32)
}

fn binom(n: u32, k: u32) -> f64 {
    let mut r = 1.0;
    for i in 0..k {
        r = r * (n - i) as f64 / (i + 1) as f64;
    }
    r
}
