//! Removing casualties: hits take figures from the last stands (an L keeping its arms), empty
//! stands leave, and the unit closes up.

use super::DessauerEvent;
use super::{Kind, N, OldDessauer, layout};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::model::UnitId;
use crate::rules::tagged::Tagged;

/// What a unit's losses came from: the log says it, and pursuit reads back where rout hits
/// left a unit shattered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossCause {
    Shooting,
    Combat,
    /// A recoil's rout hits (one a recoil move).
    Rout,
}

/// The cause in the log's words.
impl From<LossCause> for Tagged {
    fn from(cause: LossCause) -> Tagged {
        let words = match cause {
            LossCause::Shooting => "shooting hits",
            LossCause::Combat => "combat hits",
            LossCause::Rout => "rout hits",
        };
        Tagged::new(cause, words)
    }
}

impl OldDessauer {
    /// The stand (its index in `kept`) an L loses figures from next: the far end of the refused
    /// arm while that arm holds more than its share of the stands that would be left, else the
    /// open end of the arm that kept the line's front (the ruling `casualties`).
    pub(super) fn l_next_loss(&self, kept: &[usize], refused: &[bool]) -> usize {
        let m = kept.len();
        let arm: Vec<usize> = (0..m).filter(|&i| refused[kept[i]]).collect();
        let front: Vec<usize> = (0..m).filter(|&i| !refused[kept[i]]).collect();
        let (Some(&r_first), Some(&r_last)) = (arm.first(), arm.last()) else {
            return m - 1;
        };
        let (Some(&f_first), Some(&f_last)) = (front.first(), front.last()) else {
            return m - 1;
        };
        // Refusing the right, the refused arm follows the front arm in the stands' order.
        let right = r_first > f_last;
        let share = if m > 2 {
            layout::refused_count(self, m - 1)
        } else {
            0
        };
        match (arm.len() > share, right) {
            (true, true) => r_last,
            (true, false) => r_first,
            (false, true) => f_first,
            (false, false) => f_last,
        }
    }

    /// Removes `n` figures from the last stands, closing up the unit if a stand empties; an L
    /// loses them so that it keeps its arms (the ruling `casualties`).
    pub fn take_losses(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        n: u32,
        why: impl Into<Tagged>,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if n == 0 || !u.alive() {
            return Ok(());
        }
        let l = layout::is_l(&u);
        let refused: Vec<bool> = u
            .stands
            .iter()
            .map(|s| s.at.is_some_and(|a| a.facing.abs() > 0.5))
            .collect();
        let mut figures: Vec<u32> = u.stands.iter().map(|s| s.figures).collect();
        let mut kept: Vec<usize> = (0..figures.len()).collect();
        let mut left = n;
        while left > 0 && !kept.is_empty() {
            let k = if l {
                self.l_next_loss(&kept, &refused)
            } else {
                kept.len() - 1
            };
            let f = &mut figures[kept[k]];
            if *f > left {
                *f -= left;
                left = 0;
            } else {
                left -= *f;
                kept.remove(k);
            }
        }
        let stands: Vec<u32> = kept.iter().map(|&i| figures[i]).collect();
        let lost = n - left;
        let before = u.stands.len();
        let places = u.loose_bases();
        b.emit(
            out,
            Event::Losses {
                unit: id.clone(),
                figures: lost,
                stands: stands.clone(),
                why: why.into(),
            },
        );
        // The stands an L keeps stand where they stood.
        if l && !stands.is_empty() && kept.iter().enumerate().any(|(i, &k)| i != k) {
            b.emit(
                out,
                DessauerEvent::StandsPlaced {
                    unit: id.clone(),
                    bases: kept.iter().map(|&i| places[i]).collect(),
                    why: "keeps its L: the stands left stand where they stood".into(),
                    formed: None,
                },
            );
        }
        if stands.is_empty() {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: "every figure lost".into(),
                },
            );
            return Ok(());
        }
        if self.kind(&u) == Kind::RegimentalGun
            && stands.iter().sum::<u32>() < self.num(N::MinFiguresToShoot) as u32
        {
            b.emit(
                out,
                Event::Destroyed {
                    unit: id.clone(),
                    reason: "its crew is too few to serve the gun".into(),
                },
            );
            return Ok(());
        }
        // A unit closes up its ranks; one whose stands stand loose has none to close: the stands
        // left stay where they stand (the ruling `loose_gathered`).
        if stands.len() != before && !u.is_loose() {
            let u = b.unit(id)?.clone();
            let to = layout::rebuild(self, &u, u.formation, 0.0);
            b.emit(
                out,
                Event::Reformed {
                    unit: id.clone(),
                    formation: u.formation,
                    from: u.base,
                    to,
                    cost: 0.0,
                },
            );
        }
        Ok(())
    }
}
