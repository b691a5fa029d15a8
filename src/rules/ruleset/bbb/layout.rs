//! Where a BBB unit's bases stand: side by side in line, one behind another in column of
//! march (or limbered), two ranks in depth.

use crate::rules::geometry::{Base, heading, norm_facing};
use crate::rules::model::{Formation, Unit};

/// Files and ranks of `n` bases in a formation.
pub fn grid(formation: Formation, n: usize) -> (usize, usize) {
    let n = n.max(1);
    match formation {
        Formation::Column => (1, n),
        Formation::Deep => (n.div_ceil(2), if n > 1 { 2 } else { 1 }),
        _ => (n, 1),
    }
}

/// Frontage and depth (mm) of `n` bases of size `base` in a formation.
pub fn footprint(base: (f32, f32), formation: Formation, n: usize) -> (f32, f32) {
    let (files, ranks) = grid(formation, n);
    (files as f32 * base.0, ranks as f32 * base.1)
}

/// Each base, front rank first, left to right.
pub fn bases(u: &Unit, base: (f32, f32)) -> Vec<Base> {
    let n = u.stands.len().max(1);
    let (files, ranks) = grid(u.formation, n);
    let (w, d) = base;
    let b = &u.base;
    let mut out = Vec::with_capacity(n);
    'outer: for r in 0..ranks {
        for f in 0..files {
            if out.len() == n {
                break 'outer;
            }
            let across = -b.width / 2.0 + w * (f as f32 + 0.5);
            let ahead = b.depth / 2.0 - d * (r as f32 + 0.5);
            out.push(Base::new(b.local(across, ahead), b.facing, w, d));
        }
    }
    out
}

/// The bases of the front rank (those that fire).
pub fn front_rank(u: &Unit, base: (f32, f32)) -> Vec<Base> {
    let (files, _) = grid(u.formation, u.stands.len());
    bases(u, base).into_iter().take(files).collect()
}

/// The unit's footprint rebuilt for `n` bases in `formation`, turned `turn` degrees, its front
/// centre kept where it was.
pub fn rebuild(u: &Unit, base: (f32, f32), formation: Formation, n: usize, turn: f32) -> Base {
    let front = u.base.front_centre();
    let facing = norm_facing(u.base.facing + turn);
    let (w, d) = footprint(base, formation, n);
    Base::new(front.minus(heading(facing).scale(d / 2.0)), facing, w, d)
}
