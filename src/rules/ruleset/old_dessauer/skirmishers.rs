//! Skirmishers (optional light infantry): the command stand, and enemy skirmishers falling back
//! or overrun when formed troops come within an inch.

use super::layout::stand_bases;
use super::{DessauerEvent, TestKind};
use super::{Kind, N, OldDessauer, Opt};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::Base;
use crate::rules::model::{Unit, UnitId};

/// A skirmishing unit's command stand: the centre stand of its line (the left one of the two
/// in the middle).
pub fn command_stand(u: &Unit) -> usize {
    u.stands.len().saturating_sub(1) / 2
}

/// Enemy skirmishers the unit charged or came within 1 inch of fall back, or are overrun.
pub(crate) fn skirmishers_give_way(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    id: &UnitId,
) -> Result<(), RuleError> {
    let m = b.unit(id)?.clone();
    let mk = od.kind(&m);
    if !matches!(mk, Kind::Infantry | Kind::Cavalry) || !m.alive() {
        return Ok(());
    }
    let zoc = b.scale.to_mm(od.num(N::SkirmishFallback));
    let shapes = m.shapes();
    let close = |x: &Base| shapes.iter().any(|o| x.distance(o) < zoc - 0.5);
    let near: Vec<(UnitId, Vec<usize>)> = b
        .alive()
        .filter(|s| s.side != m.side && od.is_skirmishing(b, s))
        .map(|s| {
            let hit: Vec<usize> = stand_bases(od, s)
                .iter()
                .enumerate()
                .filter(|(_, x)| close(x))
                .map(|(i, _)| i)
                .collect();
            (s.id.clone(), hit)
        })
        .filter(|(_, hit)| !hit.is_empty())
        .collect();
    for (sid, hit) in near {
        let s = b.unit(&sid)?.clone();
        // With the broken-terrain rule, skirmishers in woods or rough ground stand and defend.
        if od.opt(Opt::SkirmishDefend) && od.in_rough(b, &s) {
            continue;
        }
        let escapes = evades(od, b, out, mk, &s)?;
        give_way(od, b, out, &m, &s, hit, escapes);
    }
    Ok(())
}

/// Whether skirmishers `s` reached by a unit of kind `mk` get away: always from infantry or in
/// woods and rough ground; from cavalry in the open on a roll (the test is emitted).
fn evades(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    mk: Kind,
    s: &Unit,
) -> Result<bool, RuleError> {
    let sid = s.id.clone();
    let free = mk == Kind::Infantry || od.in_rough(b, s);
    Ok(if free {
        true
    } else {
        let die = b.d6()?;
        let need = od.int(N::SkirmishEvadeNeed);
        let passed = die as i32 >= need;
        b.emit(
            out,
            DessauerEvent::Test {
                unit: sid.clone(),
                test: TestKind::Evade,
                die,
                factors: vec![],
                need,
                passed,
            },
        );
        passed
    })
}

/// The stands of skirmishers `s` that `m` reached (`hit`; all of them: the unit) step straight
/// away to an inch off if they escape and their way is clear; else they are overrun.
fn give_way(
    od: &OldDessauer,
    b: &mut Battle,
    out: &mut Vec<Event>,
    m: &Unit,
    s: &Unit,
    hit: Vec<usize>,
    escapes: bool,
) {
    let sid = s.id.clone();
    let zoc = b.scale.to_mm(od.num(N::SkirmishFallback));
    let shapes = m.shapes();
    // Each stand reached steps straight away from the mover to 1 inch off.
    let bases = stand_bases(od, s);
    let whole = hit.len() == bases.len();
    let away = |x: &Base| {
        let dir = x.centre.minus(m.base.centre);
        let dir = if dir.len() > 1e-3 {
            dir.scale(1.0 / dir.len())
        } else {
            m.base.forward()
        };
        let gap = shapes
            .iter()
            .map(|o| x.distance(o))
            .fold(f32::MAX, f32::min);
        Base {
            centre: x.centre.plus(dir.scale(zoc - gap + 1.0)),
            ..*x
        }
    };
    // Its way is blocked by the edge or by any enemy it would end on, the one it gives
    // way to included (a fall back that does not clear it is no escape).
    let blocked = |to: &Base| {
        !b.table.holds(to)
            || b.alive().any(|o| {
                o.id != sid
                    && o.side != s.side
                    && od.kind(o) != Kind::General
                    && o.shapes().iter().any(|x| to.overlaps(x))
            })
    };
    let moves: Vec<(usize, Base, Base)> = if whole {
        vec![(usize::MAX, s.base, away(&s.base))]
    } else {
        hit.iter()
            .map(|&i| (i, bases[i], away(&bases[i])))
            .collect()
    };
    if escapes && !moves.iter().any(|(_, _, to)| blocked(to)) {
        for (i, from, to) in moves {
            let e = if i == usize::MAX {
                Event::Fled {
                    unit: sid.clone(),
                    from,
                    to,
                }
            } else {
                DessauerEvent::StandMoved {
                    unit: sid.clone(),
                    stand: i,
                    from,
                    to,
                    distance: 0.0,
                    allowance: 0.0,
                }
                .into()
            };
            b.emit(out, e);
        }
    } else if whole {
        b.emit(
            out,
            Event::Destroyed {
                unit: sid,
                reason: format!("skirmishers overrun by {}", m.name),
            },
        );
    } else {
        b.emit(
            out,
            Event::StandsOverrun {
                unit: sid,
                stands: hit,
                by: m.id.clone(),
            },
        );
    }
}
