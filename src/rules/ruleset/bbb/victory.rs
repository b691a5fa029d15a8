//! BBB victory: objectives taken and held, the result at the turn limit, and a side with no
//! fighting units left.

use super::BbbEvent;
use super::{Bbb7yw, N};
use crate::rules::battle::Battle;
use crate::rules::command::{Ending, Event};
use crate::rules::geometry::Pt;
use crate::rules::model::Side;

impl Bbb7yw {
    /// Who holds objective `i` (of the scenario's list) now: a side with a fighting unit within
    /// 3" and no enemy within 3"; otherwise its last holder (ruling objectives).
    pub fn holder(&self, b: &Battle, i: usize, at: Pt, owner: Side) -> Side {
        self.near_holder(b, at)
            .unwrap_or_else(|| self.last_holder(b, i).unwrap_or(owner))
    }

    /// The side alone within 3" of a place with a fighting unit, if one is.
    fn near_holder(&self, b: &Battle, at: Pt) -> Option<Side> {
        let r = b.scale.to_mm(self.n(N::ObjectiveRadius));
        let near = |s: Side| {
            b.alive()
                .any(|u| u.side == s && !self.is_general(u) && u.base.distance_to_point(at) <= r)
        };
        match (near(0), near(1)) {
            (true, false) => Some(0),
            (false, true) => Some(1),
            _ => None,
        }
    }

    /// The side that last took objective `i`, as the log records it; none if it has not
    /// changed hands since the start.
    fn last_holder(&self, b: &Battle, i: usize) -> Option<Side> {
        b.log.iter().rev().find_map(|e| match e.own() {
            Some(BbbEvent::ObjectiveHeld { objective, side }) if *objective == i => Some(*side),
            _ => None,
        })
    }

    /// Records each objective that changed hands with the last command: it stays with its new
    /// holder until the enemy takes it.
    pub fn record_holders(&self, b: &mut Battle, out: &mut Vec<Event>) {
        if b.is_over() {
            return;
        }
        let taken: Vec<(usize, Side)> = b
            .scenario
            .objectives
            .iter()
            .enumerate()
            .filter_map(|(i, o)| {
                let now = self.near_holder(b, Pt::new(o.at.0, o.at.1))?;
                (now != self.last_holder(b, i).unwrap_or(o.owner)).then_some((i, now))
            })
            .collect();
        for (objective, side) in taken {
            b.emit(out, BbbEvent::ObjectiveHeld { objective, side });
        }
    }

    /// The result at the turn limit: objectives held, then the share of bases lost.
    pub fn result(&self, b: &Battle) -> (Option<Side>, String) {
        let obj = &b.scenario.objectives;
        if !obj.is_empty() {
            let mut held = [0u32; 2];
            for (i, o) in obj.iter().enumerate() {
                held[self.holder(b, i, Pt::new(o.at.0, o.at.1), o.owner)] += 1;
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
            lost += if u.status.removed { n } else { self.lost(u) };
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
