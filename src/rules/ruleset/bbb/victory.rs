//! BBB victory: the result at the turn limit, and a side with no
//! fighting units left.

use super::Bbb7yw;
use crate::rules::battle::Battle;
use crate::rules::command::{Ending, Event};
use crate::rules::model::Side;

impl Bbb7yw {
    /// The result at the turn limit: objectives held, then the share of bases lost.
    pub fn result(&self, b: &Battle) -> (Option<Side>, String) {
        let obj = &b.victory.objectives;
        if !obj.is_empty() {
            let mut held = [0u32; 2];
            for s in crate::rules::victory::holders(self, b)
                .into_iter()
                .flatten()
            {
                held[s] += 1;
            }
            if held[0] != held[1] {
                let w = if held[0] > held[1] { 0 } else { 1 };
                return (
                    Some(w),
                    format!(
                        "turn limit reached: {} holds {} of {} objectives",
                        b.sides[w].name,
                        held[w],
                        obj.len()
                    ),
                );
            }
        }
        let share = |s: Side| {
            let (lost, all) = self.bases_lost(b, s);
            lost as f32 / all.max(1) as f32
        };
        let (a, c) = (share(0), share(1));
        if (a - c).abs() < 1e-6 {
            return (
                None,
                "turn limit reached: objectives and losses even".into(),
            );
        }
        let w = if a < c { 0 } else { 1 };
        (
            Some(w),
            format!(
                "turn limit reached: {} lost {:.0}% of its bases, {} {:.0}%",
                b.sides[0].name,
                a * 100.0,
                b.sides[1].name,
                c * 100.0
            ),
        )
    }

    /// Bases lost and bases at the start, of a side's fighting units.
    pub fn bases_lost(&self, b: &Battle, side: Side) -> (u32, u32) {
        let mut lost = 0;
        let mut all = 0;
        for u in b
            .units
            .iter()
            .filter(|u| u.side == side && !self.is_general(u))
        {
            let n = self.strength(u);
            all += n;
            lost += match (u.status.exited, u.status.removed) {
                (true, _) => 0,
                (false, true) => n,
                (false, false) => self.lost(u),
            };
        }
        (lost, all)
    }

    /// A side with no fighting units left has lost.
    pub fn check_victory(&self, b: &mut Battle, out: &mut Vec<Event>) {
        if b.is_over() {
            return;
        }
        for s in 0..2 {
            let any = b.alive().any(|u| u.side == s && !self.is_general(u));
            if !any {
                let w = Battle::enemy(s);
                let reason = format!("{} has no units left", b.sides[s].name);
                b.emit(
                    out,
                    Event::GameOver {
                        winner: Some(w),
                        reason,
                        by: Ending::NoUnits,
                    },
                );
                return;
            }
        }
    }
}
