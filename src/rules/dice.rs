//! Dice: a portable seeded generator (ChaCha8) with our own d6 sampling, or scripted results.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// Where die results come from.
#[derive(Clone, Debug)]
pub enum Dice {
    /// ChaCha8 seeded from the battle's seed: the same on every machine.
    Seeded(Box<ChaCha8Rng>),
    /// Given results, used in order (tests and `--dice`).
    Scripted(VecDeque<u8>),
    /// These results first, then the dice behind them (a re-roll runs a command again with
    /// the dice it threw before the die thrown again).
    Chain(VecDeque<u8>, Box<Dice>),
}

/// The scripted dice ran out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfDice;

impl Dice {
    pub fn seeded(seed: u64) -> Self {
        Dice::Seeded(Box::new(ChaCha8Rng::seed_from_u64(seed)))
    }

    pub fn scripted(results: &[u8]) -> Self {
        Dice::Scripted(results.iter().copied().collect())
    }

    /// One six-sided die. Seeded dice use rejection sampling on three bits of each 32-bit word,
    /// so the sequence never depends on a library's distribution code.
    pub fn d6(&mut self) -> Result<u8, OutOfDice> {
        match self {
            Dice::Seeded(rng) => loop {
                let v = (rng.next_u32() >> 29) as u8;
                if v < 6 {
                    return Ok(v + 1);
                }
            },
            Dice::Scripted(q) => q.pop_front().ok_or(OutOfDice),
            Dice::Chain(q, rest) => match q.pop_front() {
                Some(d) => Ok(d),
                None => rest.d6(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_dice_are_repeatable_and_in_range() {
        let mut a = Dice::seeded(7);
        let mut b = Dice::seeded(7);
        let xs: Vec<u8> = (0..600).map(|_| a.d6().unwrap()).collect();
        let ys: Vec<u8> = (0..600).map(|_| b.d6().unwrap()).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|&x| (1..=6).contains(&x)));
        for face in 1..=6 {
            let n = xs.iter().filter(|&&x| x == face).count();
            assert!(
                (60..=140).contains(&n),
                "face {face} came up {n} times in 600"
            );
        }
    }

    #[test]
    fn seeded_sequence_is_pinned() {
        // Pins the generator and the sampling: a change here breaks every saved game.
        let mut d = Dice::seeded(1);
        let xs: Vec<u8> = (0..10).map(|_| d.d6().unwrap()).collect();
        assert_eq!(xs, PINNED_SEED_1);
    }

    const PINNED_SEED_1: [u8; 10] = [5, 4, 1, 2, 5, 4, 2, 3, 6, 4];

    #[test]
    fn scripted_dice_run_out() {
        let mut d = Dice::scripted(&[3, 5]);
        assert_eq!(d.d6(), Ok(3));
        assert_eq!(d.d6(), Ok(5));
        assert_eq!(d.d6(), Err(OutOfDice));
    }
}
