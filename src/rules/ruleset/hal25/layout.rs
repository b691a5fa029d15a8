//! Where a Hal unit's stands stand in each formation, in inches from the unit's front centre
//! (across to the right, back from the front), and where the command stand is: to the right of
//! the line (in the second row of a column) until the unit fires its first volley, then in
//! the middle of the line (at the front of the column).

use super::tables::MoveFormation;

/// A stand's place: its centre across (right positive) and back from the unit's front (inches),
/// and its frontage and depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Place {
    pub across: f32,
    pub back: f32,
    pub width: f32,
    pub depth: f32,
}

/// The order the stands stand in, left to right in line (front to back in column): the index
/// of each stand of `sizes` (the command stand is 0) at each place.
pub fn order(n: usize, formation: MoveFormation, first_volley_fired: bool) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    let others: Vec<usize> = (1..n).collect();
    match formation {
        // Line and skirmish: the command stand at the right end, then in the middle.
        MoveFormation::Line | MoveFormation::Skirmish => {
            let mut v = others;
            let at = if first_volley_fired {
                v.len() / 2
            } else {
                v.len()
            };
            v.insert(at, 0);
            v
        }
        // Columns: the command stand second from the front (the right-hand stand of a field
        // column's second row, second in its file), then at the front (ruling field_column).
        MoveFormation::FieldColumn | MoveFormation::RoadColumn => {
            let mut v = others;
            let at = if first_volley_fired {
                0
            } else {
                (2 * files(n, formation) - 1).min(v.len())
            };
            v.insert(at, 0);
            v
        }
    }
}

/// Files of a formation: line and skirmish one rank; a field column two stands wide
/// (ruling field_column); a road column one.
pub fn files(n: usize, formation: MoveFormation) -> usize {
    match formation {
        MoveFormation::Line | MoveFormation::Skirmish => n.max(1),
        MoveFormation::FieldColumn => 2.min(n.max(1)),
        MoveFormation::RoadColumn => 1,
    }
}

/// Each stand's place (in the order of `sizes`), with `gap` inches between skirmishers.
pub fn places(
    sizes: &[(f32, f32)],
    formation: MoveFormation,
    first_volley_fired: bool,
    skirmish_gap: f32,
) -> Vec<Place> {
    let n = sizes.len();
    let ord = order(n, formation, first_volley_fired);
    let f = files(n, formation);
    let gap = if formation == MoveFormation::Skirmish {
        skirmish_gap
    } else {
        0.0
    };
    // Row by row, each row's stands side by side, centred.
    let mut out = vec![
        Place {
            across: 0.0,
            back: 0.0,
            width: 0.0,
            depth: 0.0
        };
        n
    ];
    let mut back = 0.0f32;
    for row in ord.chunks(f) {
        let width: f32 =
            row.iter().map(|&i| sizes[i].0).sum::<f32>() + gap * (row.len() as f32 - 1.0);
        let depth = row.iter().map(|&i| sizes[i].1).fold(0.0, f32::max);
        let mut x = -width / 2.0;
        for &i in row {
            let (w, d) = sizes[i];
            out[i] = Place {
                across: x + w / 2.0,
                back: back + d / 2.0,
                width: w,
                depth: d,
            };
            x += w + gap;
        }
        back += depth;
    }
    out
}
