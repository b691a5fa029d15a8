//! Where each name goes: a free spot near its base, or farther out on a tie, never over another
//! name, base or tie; the layout tried in several orders, keeping the one that names the most.

use crate::rules::model::Unit;
use bevy::prelude::*;
use bevy_egui::egui;

/// Where labels may go: screen rectangles already taken, and the ties drawn to them.
#[derive(Clone, Default)]
pub(super) struct Taken {
    pub(super) boxes: Vec<egui::Rect>,
    pub(super) ties: Vec<[egui::Pos2; 2]>,
    /// The bases' boxes (the first boxes taken): a name is placed only where its tie ends
    /// nearer its own base than any other.
    bases: Vec<egui::Rect>,
}

/// How far (in points) a name's tie may reach from its base: about three names' rows. A name
/// farther off reads as another unit's; one that finds no nearer room is shown when its unit
/// is hovered or selected.
pub(super) const NAME_REACH: f32 = 64.0;

impl Taken {
    /// The room taken by the bases' boxes.
    pub(super) fn of(boxes: Vec<egui::Rect>) -> Self {
        Taken {
            bases: boxes.clone(),
            boxes,
            ties: Vec::new(),
        }
    }

    /// Whether a name for the base whose box is `r`, with its tie ending at `end`, reads as
    /// that base's: the tie reaches no farther than `NAME_REACH`, and ends no nearer another
    /// base than its own.
    pub(super) fn owns(&self, r: egui::Rect, end: egui::Pos2) -> bool {
        let d = r.distance_to_pos(end);
        d <= NAME_REACH && self.bases.iter().all(|b| b.distance_to_pos(end) + 2.0 >= d)
    }

    /// Whether a box may go at `r`: it covers no box and no tie.
    pub(super) fn free(&self, r: egui::Rect) -> bool {
        !self.boxes.iter().any(|t| t.intersects(r))
            && !self
                .ties
                .iter()
                .any(|[a, b]| crosses(*a, *b, r.expand2(egui::vec2(1.5, 0.0))))
    }

    /// Whether a tie may run from `a` to `b`: it crosses no box, and meets no tie but where it
    /// crosses it squarely enough to be told from it (at 30 degrees or more).
    pub(super) fn clear(&self, a: egui::Pos2, b: egui::Pos2) -> bool {
        !self
            .boxes
            .iter()
            .any(|t| crosses(a, b, t.expand2(egui::vec2(1.5, 0.0))))
            && !self.ties.iter().any(|[c, d]| {
                let gap = apart(a, b, *c, *d);
                let (u, v) = ((b - a).normalized(), (*d - *c).normalized());
                let sine = (u.x * v.y - u.y * v.x).abs();
                gap < 3.0 && !(gap == 0.0 && sine >= 0.5 && clear_of_ends(a, b, *c, *d))
            })
    }

    /// A name's box and its tie now take their room.
    pub(super) fn take(&mut self, spot: egui::Rect, tie: Option<[egui::Pos2; 2]>) {
        self.boxes.push(spot);
        self.ties.extend(tie);
    }
}

/// Whether the segment from `a` to `b` crosses or touches the rectangle `r`.
pub(super) fn crosses(a: egui::Pos2, b: egui::Pos2, r: egui::Rect) -> bool {
    let d = b - a;
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [
        (-d.x, a.x - r.min.x),
        (d.x, r.max.x - a.x),
        (-d.y, a.y - r.min.y),
        (d.y, r.max.y - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// Whether each of two crossing segments has its ends 3 points or more from the other.
pub(super) fn clear_of_ends(a: egui::Pos2, b: egui::Pos2, c: egui::Pos2, d: egui::Pos2) -> bool {
    let to = |p: egui::Pos2, q: egui::Pos2, r: egui::Pos2| {
        let qr = r - q;
        let t = ((p - q).dot(qr) / qr.length_sq().max(1e-6)).clamp(0.0, 1.0);
        p.distance(q + qr * t)
    };
    [to(a, c, d), to(b, c, d), to(c, a, b), to(d, a, b)]
        .iter()
        .all(|x| *x >= 3.0)
}

/// How far apart two segments pass (0 where they cross).
pub(super) fn apart(a: egui::Pos2, b: egui::Pos2, c: egui::Pos2, d: egui::Pos2) -> f32 {
    let side =
        |p: egui::Pos2, q: egui::Pos2, r: egui::Pos2| (q - p).x * (r - p).y - (q - p).y * (r - p).x;
    let (s1, s2, s3, s4) = (side(a, b, c), side(a, b, d), side(c, d, a), side(c, d, b));
    if s1 * s2 < 0.0 && s3 * s4 < 0.0 {
        return 0.0;
    }
    let to = |p: egui::Pos2, q: egui::Pos2, r: egui::Pos2| {
        let qr = r - q;
        let t = ((p - q).dot(qr) / qr.length_sq().max(1e-6)).clamp(0.0, 1.0);
        p.distance(q + qr * t)
    };
    to(a, c, d)
        .min(to(b, c, d))
        .min(to(c, a, b))
        .min(to(d, a, b))
}

pub(super) const NAMES_FROM_PX: f32 = 40.0;

/// Where a name box of `size` may go for a base whose screen box is `r`, best first: just
/// below it, just above, then in steps further down and up; the box starts a little left of the
/// base's middle, where its tie comes down (or up), or, where none of those is free, ends a
/// little right of it.
pub(super) fn name_spots(r: egui::Rect, size: egui::Vec2) -> Vec<egui::Rect> {
    const STEPS: usize = 8;
    let step = size.y + 2.0;
    let (right, left) = (r.center().x - 3.0, r.center().x + 3.0 - size.x);
    let below = |x: f32, k: usize| {
        egui::Rect::from_min_size(egui::pos2(x, r.bottom() + 2.0 + k as f32 * step), size)
    };
    let above = |x: f32, k: usize| {
        egui::Rect::from_min_size(
            egui::pos2(x, r.top() - size.y - 2.0 - k as f32 * step),
            size,
        )
    };
    let hanging = |x: f32| (0..STEPS).flat_map(move |k| [below(x, k), above(x, k)]);
    hanging(right).chain(hanging(left)).collect()
}

/// The second ring, where the first is full: boxes all round the base, out to several names'
/// widths and a dozen rows, nearest first, each tied to the base by a straight line.
pub(super) fn far_spots(r: egui::Rect, size: egui::Vec2) -> Vec<egui::Rect> {
    let (c, step) = (r.center(), size.y + 2.0);
    let gap = |s: &egui::Rect| {
        let dx = (s.min.x - r.max.x).max(r.min.x - s.max.x).max(0.0);
        let dy = (s.min.y - r.max.y).max(r.min.y - s.max.y).max(0.0);
        dx.hypot(dy)
    };
    let mut v: Vec<egui::Rect> = (-12i32..=12)
        .flat_map(|j| {
            (-20i32..=20).map(move |i| {
                egui::Rect::from_min_size(
                    egui::pos2(
                        c.x + i as f32 * 16.0 - size.x / 2.0,
                        c.y + j as f32 * step - size.y / 2.0,
                    ),
                    size,
                )
            })
        })
        .filter(|s| !s.intersects(r.expand(2.0)))
        .collect();
    // A stable sort: equally near spots keep the order they were made in.
    v.sort_by(|a, b| gap(a).total_cmp(&gap(b)));
    v
}

/// The straight tie from a base's box `r` to a name box `spot` of the second ring: from the
/// base's edge facing it to the box's point nearest the base; none where they all but touch.
pub(super) fn far_tie(r: egui::Rect, spot: egui::Rect) -> Option<[egui::Pos2; 2]> {
    let p = spot.clamp(r.center());
    // From the edge it faces, never a corner: a tie from a corner of a base in a line would
    // run along its neighbour.
    let inside = |lo: f32, hi: f32, v: f32| {
        if hi - lo > 4.0 {
            v.clamp(lo + 2.0, hi - 2.0)
        } else {
            (lo + hi) / 2.0
        }
    };
    let q = if p.y < r.top() {
        egui::pos2(inside(r.left(), r.right(), p.x), r.top())
    } else if p.y > r.bottom() {
        egui::pos2(inside(r.left(), r.right(), p.x), r.bottom())
    } else if p.x < r.left() {
        egui::pos2(r.left(), r.center().y)
    } else {
        egui::pos2(r.right(), r.center().y)
    };
    let d = p - q;
    (d.length() >= 4.0).then(|| {
        let u = d.normalized();
        [q + u * 2.0, p - u * 0.5]
    })
}

/// Where the tie from a base whose box is `r` meets its name box `spot`: at its left edge, or
/// at its right where the box hangs to the left.
pub(super) fn tie_x(r: egui::Rect, spot: egui::Rect) -> f32 {
    if spot.min.x >= r.center().x - 3.5 {
        spot.min.x + 1.5
    } else {
        spot.max.x - 1.5
    }
}

/// A name's place: its box, and for one of the second ring the straight tie to it (the first
/// ring's ties hang straight down or up from the base's outline, drawn with it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Placed {
    pub(super) spot: egui::Rect,
    pub(super) far: Option<[egui::Pos2; 2]>,
}

/// Where the tie from the base whose box is `r` meets the name's box at `p`.
pub(super) fn tie_end(r: egui::Rect, p: &Placed) -> egui::Pos2 {
    let s = p.spot;
    match p.far {
        Some([_, end]) => end,
        None if s.top() >= r.bottom() => egui::pos2(tie_x(r, s), s.top()),
        None if s.bottom() <= r.top() => egui::pos2(tie_x(r, s), s.bottom()),
        None => s.clamp(r.center()),
    }
}

/// The first place for a name box where neither it nor its tie from the base's box crosses
/// anything taken, and that reads as its base's (`Taken::owns`): in the first ring, else in
/// the second, inside `bounds`.
pub(super) fn name_spot(
    r: egui::Rect,
    size: egui::Vec2,
    taken: &Taken,
    bounds: egui::Rect,
) -> Option<Placed> {
    let near = name_spots(r, size).into_iter().find(|s| {
        let x = tie_x(r, *s);
        let (a, c) = if s.top() > r.bottom() {
            (
                egui::pos2(x, r.bottom() + 2.0),
                egui::pos2(x, s.top() - 0.5),
            )
        } else {
            (
                egui::pos2(x, s.bottom() + 0.5),
                egui::pos2(x, r.top() - 2.0),
            )
        };
        taken.free(*s)
            && (c.y - a.y < 1.0 || taken.clear(a, c))
            && taken.owns(
                r,
                tie_end(
                    r,
                    &Placed {
                        spot: *s,
                        far: None,
                    },
                ),
            )
    });
    if let Some(spot) = near {
        return Some(Placed { spot, far: None });
    }
    far_spots(r, size).into_iter().find_map(|s| {
        let tie = far_tie(r, s);
        let p = Placed { spot: s, far: tie };
        (bounds.contains_rect(s)
            && taken.free(s)
            && tie.is_none_or(|[a, b]| taken.clear(a, b))
            && taken.owns(r, tie_end(r, &p)))
        .then_some(p)
    })
}

/// Places the name box of `size` for the base drawn as `c`: where `name_spot` finds room, or,
/// for a unit that must be named (`must`: selected or hovered), at its first spot that covers
/// no other base (else its first), drawn over the rest. Returns the box, its tie, and whether
/// it found room; the box and the tie take their room where it was found and the name
/// `takes_room`.
pub(super) fn place(
    c: &crate::app::overlay::Counter,
    size: egui::Vec2,
    taken: &mut Taken,
    bounds: egui::Rect,
    must: bool,
    takes_room: bool,
) -> Option<(egui::Rect, Option<[egui::Pos2; 2]>, bool)> {
    let r = c.rect();
    let found = name_spot(r, size, taken, bounds);
    let placed = match (found, must) {
        (Some(p), _) => p,
        // Over the rest, but where it covers no other base if it can.
        (None, true) => {
            let spots = name_spots(r, size);
            let clear = spots
                .iter()
                .copied()
                .find(|s| !taken.bases.iter().any(|b| b.intersects(*s)));
            Placed {
                spot: clear.unwrap_or(spots[0]),
                far: None,
            }
        }
        (None, false) => return None,
    };
    let (spot, tie) = settle(c, placed, found.is_some());
    // No later name may cover the box or the tie.
    if found.is_some() && takes_room {
        taken.take(spot, tie);
    }
    Some((spot, tie, found.is_some()))
}

/// The box and the tie drawn for a name at `placed` (`found`: where it found room): a line down
/// (or up) from the base's outline, or, in the second ring, straight from the base to the box.
pub(super) fn settle(
    c: &crate::app::overlay::Counter,
    placed: Placed,
    found: bool,
) -> (egui::Rect, Option<[egui::Pos2; 2]>) {
    let (r, spot) = (c.rect(), placed.spot);
    let tie = if found && placed.far.is_some() {
        placed.far
    } else {
        let x = tie_x(r, spot);
        if spot.top() >= r.bottom() {
            let from = c.edge_at(x, true).unwrap_or(r.bottom());
            (spot.top() - from > 3.0).then(|| [egui::pos2(x, from), egui::pos2(x, spot.top())])
        } else {
            let from = c.edge_at(x, false).unwrap_or(r.top());
            (from - spot.bottom() > 3.0)
                .then(|| [egui::pos2(x, from), egui::pos2(x, spot.bottom())])
        }
    };
    (spot, tie)
}

/// Every place a name box of `size` could take for a base whose box is `r`, best first, with
/// the tie that would reach it (as `name_spot` tries them): the first ring, then the nearest of
/// the second inside `bounds`.
pub(super) fn candidates(
    r: egui::Rect,
    size: egui::Vec2,
    bounds: egui::Rect,
) -> Vec<(Placed, Option<[egui::Pos2; 2]>)> {
    let near = name_spots(r, size).into_iter().map(|s| {
        let x = tie_x(r, s);
        let (a, c) = if s.top() > r.bottom() {
            (
                egui::pos2(x, r.bottom() + 2.0),
                egui::pos2(x, s.top() - 0.5),
            )
        } else {
            (
                egui::pos2(x, s.bottom() + 0.5),
                egui::pos2(x, r.top() - 2.0),
            )
        };
        (
            Placed { spot: s, far: None },
            (c.y - a.y >= 1.0).then_some([a, c]),
        )
    });
    let far = far_spots(r, size)
        .into_iter()
        .filter(|s| bounds.contains_rect(*s))
        .take(200)
        .map(|s| {
            let tie = far_tie(r, s);
            (Placed { spot: s, far: tie }, tie)
        });
    near.chain(far).collect()
}

/// Where an objective's label of `size` goes for its ring at `p`: below the ring, else above,
/// beside or further off, where no base or label is; where nothing is free, below it all the
/// same (an objective's holder is always shown). The label and the ring take their room.
pub(super) fn objective_spot(
    p: egui::Pos2,
    size: egui::Vec2,
    taken: &mut Taken,
    screen: egui::Rect,
) -> egui::Rect {
    // Offsets of the label's corner from the ring's centre, `d` points clear of it.
    let (centred, middle) = (-size.x / 2.0, -size.y / 2.0);
    let (right, left) = (11.0, -11.0 - size.x);
    let (below, above) = (|d: f32| d, |d: f32| -d - size.y);
    let spots: Vec<egui::Rect> = [
        (centred, below(11.0)),
        (centred, above(11.0)),
        (right, middle),
        (left, middle),
        (centred, below(30.0)),
        (centred, above(30.0)),
        (right, below(11.0)),
        (left, below(11.0)),
        (right, above(11.0)),
        (left, above(11.0)),
        (centred, below(50.0)),
        (centred, above(50.0)),
        (centred, below(70.0)),
        (centred, above(70.0)),
    ]
    .into_iter()
    .map(|(dx, dy)| egui::Rect::from_min_size(egui::pos2(p.x + dx, p.y + dy), size))
    .collect();
    let spot = spots
        .iter()
        .copied()
        .find(|r| taken.free(*r) && screen.contains_rect(*r))
        .unwrap_or(spots[0]);
    taken.boxes.push(spot);
    taken
        .boxes
        .push(egui::Rect::from_center_size(p, egui::vec2(20.0, 20.0)));
    spot
}

/// The order names are placed in: from right to left, then from top to bottom of the table.
pub(super) fn naming_order(a: &Unit, c: &Unit) -> std::cmp::Ordering {
    c.base
        .centre
        .x
        .total_cmp(&a.base.centre.x)
        .then(c.base.centre.y.total_cmp(&a.base.centre.y))
}

/// One name to place: its base as drawn, its box's size, whether it is shown whatever the room
/// (the selected or hovered unit's), and whether it takes room from the others (a name shown
/// only because its unit is selected or hovered does not, so that the others stay put).
#[derive(Clone, Copy)]
pub(super) struct Ask<'a> {
    pub(super) counter: &'a crate::app::overlay::Counter,
    pub(super) size: egui::Vec2,
    pub(super) must: bool,
    pub(super) takes_room: bool,
}

/// A name's place as laid out: its box, its tie, and whether it found room.
pub(super) type Laid = Option<(egui::Rect, Option<[egui::Pos2; 2]>, bool)>;

/// Places the names in their order. A name left without room then takes a place that one
/// other name holds, where that name finds another (tried on the first ring and the nearest of
/// the second, best first). Nothing in it follows the selection, so the names stay where they
/// are when it changes. Returns each name's place, and the room left.
pub(super) fn lay_out(asks: &[Ask], taken: &Taken, bounds: egui::Rect) -> (Vec<Laid>, Taken) {
    // In their order (right to left), else left to right, top down or bottom up, whichever
    // names the most (the first of equals).
    let n = asks.len();
    let y = |i: &usize| asks[*i].counter.rect().center().y;
    let mut orders: Vec<Vec<usize>> = vec![(0..n).collect(), (0..n).rev().collect()];
    let mut down: Vec<usize> = (0..n).collect();
    down.sort_by(|a, b| y(a).total_cmp(&y(b)));
    orders.push(down.iter().rev().copied().collect());
    orders.push(down);
    let mut best: Option<(usize, (Vec<Laid>, Taken))> = None;
    for order in &orders {
        let laid = lay_out_in(asks, taken, bounds, order);
        let named = laid.0.iter().filter(|l| l.is_some_and(|(.., f)| f)).count();
        if best.as_ref().is_none_or(|(m, _)| named > *m) {
            best = Some((named, laid));
        }
        if named == n {
            break;
        }
    }
    best.map(|(_, l)| l)
        .unwrap_or_else(|| (vec![None; n], taken.clone()))
}

/// `lay_out` in one order.
pub(super) fn lay_out_in(
    asks: &[Ask],
    taken: &Taken,
    bounds: egui::Rect,
    order: &[usize],
) -> (Vec<Laid>, Taken) {
    let mut out: Vec<Laid> = vec![None; asks.len()];
    let mut room = taken.clone();
    for &i in order {
        let a = &asks[i];
        out[i] = place(a.counter, a.size, &mut room, bounds, a.must, a.takes_room);
    }
    make_room(asks, taken, bounds, order, out)
}

/// For each name of `out` left without room, in `order`: the place that one other name holds,
/// where that name finds another (tried on the first ring and the nearest of the second, best
/// first). Returns the names' places and the room they leave.
fn make_room(
    asks: &[Ask],
    taken: &Taken,
    bounds: egui::Rect,
    order: &[usize],
    mut out: Vec<Laid>,
) -> (Vec<Laid>, Taken) {
    let holds = |out: &[Laid], j: usize| asks[j].takes_room && out[j].is_some_and(|(.., f)| f);
    // The room the names take but `skip`'s.
    let without = |out: &[Laid], skip: usize| {
        let mut t = taken.clone();
        for (j, l) in out.iter().enumerate() {
            if j != skip
                && holds(out, j)
                && let Some((s, tie, _)) = l
            {
                t.take(*s, *tie);
            }
        }
        t
    };
    for &l in order {
        if !asks[l].takes_room || holds(&out, l) {
            continue;
        }
        let (c, size) = (asks[l].counter, asks[l].size);
        'spots: for (p, tie) in candidates(c.rect(), size, bounds)
            .into_iter()
            .filter(|(p, _)| taken.owns(c.rect(), tie_end(c.rect(), p)))
        {
            // The one name in the way.
            let mut room_l = Taken::of(vec![p.spot]);
            room_l.ties.extend(tie);
            let mut in_way = (0..asks.len()).filter(|&j| {
                holds(&out, j)
                    && out[j].is_some_and(|(s, t, _)| {
                        !room_l.free(s) || t.is_some_and(|[a, b]| !room_l.clear(a, b))
                    })
            });
            let (Some(j), None) = (in_way.next(), in_way.next()) else {
                continue;
            };
            let mut rest = without(&out, j);
            if !rest.free(p.spot) || tie.is_some_and(|[a, b]| !rest.clear(a, b)) {
                continue;
            }
            let (spot, drawn) = settle(c, p, true);
            rest.take(spot, drawn);
            let cj = asks[j].counter;
            for (q, tie_j) in candidates(cj.rect(), asks[j].size, bounds) {
                if rest.free(q.spot)
                    && tie_j.is_none_or(|[a, b]| rest.clear(a, b))
                    && taken.owns(cj.rect(), tie_end(cj.rect(), &q))
                {
                    let (spot_j, drawn_j) = settle(cj, q, true);
                    out[l] = Some((spot, drawn, true));
                    out[j] = Some((spot_j, drawn_j, true));
                    break 'spots;
                }
            }
        }
    }
    let room = without(&out, usize::MAX);
    (out, room)
}

/// Shorter forms of a unit's name, longest first, for a name that finds no room near its base:
/// without what follows its first comma or bracket ("40e de ligne, Micheler's brigade" is "40e
/// de ligne"), then cut at a word to ten letters or so with an ellipsis ("IR 17…"). The whole
/// name is on its card, and on its tag when it is hovered or selected.
pub(super) fn short_names(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |s: String| {
        let shorter = out
            .last()
            .map_or(name.chars().count(), |l| l.chars().count());
        if !s.is_empty() && s.chars().count() < shorter {
            out.push(s);
        }
    };
    let head = name
        .split([',', '('])
        .next()
        .unwrap_or(name)
        .trim_end()
        .to_string();
    push(head.clone());
    const CUT: usize = 10;
    if head.chars().count() > CUT {
        let mut cut = String::new();
        for w in head.split(' ') {
            let next = if cut.is_empty() {
                w.to_string()
            } else {
                format!("{cut} {w}")
            };
            if next.chars().count() > CUT {
                break;
            }
            cut = next;
        }
        if cut.is_empty() {
            cut = head.chars().take(CUT - 1).collect();
        }
        push(format!("{cut}…"));
    }
    out
}

/// `lay_out`, then, for each name left without room, its shorter forms in turn (`shorter`: each
/// name's shorter boxes, longest first), in the room the placed names leave. Returns each
/// name's place and which form it takes (0 the whole name, k the k-th shorter), and the room
/// left.
pub(super) fn lay_out_shortening(
    asks: &[Ask],
    shorter: &[Vec<egui::Vec2>],
    taken: &Taken,
    bounds: egui::Rect,
) -> (Vec<(Laid, usize)>, Taken) {
    let (laid, mut room) = lay_out(asks, taken, bounds);
    let mut out: Vec<(Laid, usize)> = laid.into_iter().map(|l| (l, 0)).collect();
    let rounds = shorter.iter().map(Vec::len).max().unwrap_or(0);
    for k in 1..=rounds {
        let left: Vec<usize> = (0..asks.len())
            .filter(|&i| {
                asks[i].takes_room
                    && !asks[i].must
                    && !out[i].0.is_some_and(|(.., f)| f)
                    && shorter.get(i).is_some_and(|v| v.len() >= k)
            })
            .collect();
        if left.is_empty() {
            continue;
        }
        let again: Vec<Ask> = left
            .iter()
            .map(|&i| Ask {
                size: shorter[i][k - 1],
                ..asks[i]
            })
            .collect();
        let (laid, next) = lay_out(&again, &room, bounds);
        room = next;
        for (&i, l) in left.iter().zip(laid) {
            if l.is_some_and(|(.., f)| f) {
                out[i] = (l, k);
            }
        }
    }
    (out, room)
}

/// `lay_out_shortening`, keeping names where they were: `kept` gives, for each name whose
/// base and box are as they were in the last layout, its place and form then. Each such place
/// still free of the names kept before it, whose tie is clear and reads as its base's, is kept;
/// the other names are laid out in the room left. Of this layout and a fresh one, the one that
/// names the more is taken, this one where they name as many: a unit moving, or one name
/// changing, moves no name that still has its room.
pub(super) fn lay_out_keeping(
    asks: &[Ask],
    shorter: &[Vec<egui::Vec2>],
    taken: &Taken,
    bounds: egui::Rect,
    kept: &[Option<(Laid, usize)>],
) -> (Vec<(Laid, usize)>, Taken) {
    let fresh = lay_out_shortening(asks, shorter, taken, bounds);
    if kept.iter().all(Option::is_none) {
        return fresh;
    }
    let mut room = taken.clone();
    let mut out: Vec<(Laid, usize)> = vec![(None, 0); asks.len()];
    for (i, a) in asks.iter().enumerate() {
        let Some((Some((spot, _, true)), form)) = kept.get(i).copied().flatten() else {
            continue;
        };
        let size = match form.checked_sub(1) {
            Some(k) => shorter.get(i).and_then(|v| v.get(k)).copied(),
            None => Some(a.size),
        };
        // The place among those the name may take now, checked as when it was found.
        let r = a.counter.rect();
        let again = size.and_then(|size| {
            candidates(r, size, bounds)
                .into_iter()
                .find(|(p, _)| super::same_rect(p.spot, spot))
        });
        let Some((p, check)) = again else { continue };
        if a.takes_room
            && room.free(p.spot)
            && check.is_none_or(|[x, y]| room.clear(x, y))
            && taken.owns(r, tie_end(r, &p))
        {
            let (spot, tie) = settle(a.counter, p, true);
            room.take(spot, tie);
            out[i] = (Some((spot, tie, true)), form);
        }
    }
    // The others in their order, then each name still without room takes a place one other
    // name holds (a kept one too) where that name finds another.
    let all: Vec<usize> = (0..asks.len()).collect();
    let mut laid: Vec<Laid> = out.iter().map(|(l, _)| *l).collect();
    for &i in &all {
        if laid[i].is_none() {
            let a = &asks[i];
            laid[i] = place(a.counter, a.size, &mut room, bounds, a.must, a.takes_room);
        }
    }
    let (laid, left) = make_room(asks, taken, bounds, &all, laid);
    room = left;
    for (o, l) in out.iter_mut().zip(laid) {
        let form = if o.0 == l { o.1 } else { 0 };
        *o = (l, form);
    }
    // Those still without room, in their shorter forms.
    let rest: Vec<usize> = (0..asks.len())
        .filter(|&i| !out[i].0.is_some_and(|(.., f)| f))
        .collect();
    let rest_asks: Vec<Ask> = rest.iter().map(|&i| asks[i]).collect();
    let rest_shorter: Vec<Vec<egui::Vec2>> = rest
        .iter()
        .map(|&i| shorter.get(i).cloned().unwrap_or_default())
        .collect();
    let (laid, room) = lay_out_shortening(&rest_asks, &rest_shorter, &room, bounds);
    for (&i, l) in rest.iter().zip(laid) {
        if l.0.is_some_and(|(.., f)| f) || out[i].0.is_none() {
            out[i] = l;
        }
    }
    let named = |o: &[(Laid, usize)]| o.iter().filter(|(l, _)| l.is_some_and(|(.., f)| f)).count();
    if named(&out) >= named(&fresh.0) {
        (out, room)
    } else {
        fresh
    }
}

#[cfg(test)]
mod tests {
    use super::short_names;

    #[test]
    fn a_name_is_shortened_at_its_comma_or_bracket_then_at_a_word() {
        assert_eq!(
            short_names("40e de ligne, Micheler's brigade"),
            ["40e de ligne", "40e de…"]
        );
        assert_eq!(
            short_names("Bavarian IR 1 (König)"),
            ["Bavarian IR 1", "Bavarian…"]
        );
        assert_eq!(short_names("IR 17 Manteuffel"), ["IR 17…"]);
        assert_eq!(short_names("Leib-Grenadier Regiment 8"), ["Leib-Gren…"]);
        assert!(short_names("Lacy").is_empty());
        assert!(short_names("Kleist (right wing)") == ["Kleist"]);
    }
}
