//! What the editor draws over the board: the objectives and zones, the thing picked (with a
//! feature's corners), a drag's ghost, the feature being drawn, and every thing a problem stands
//! on in red (a unit the checks refused, which the board leaves out, as its outline crossed).

use super::{EditDrag, Editor, EditorPointer, Tool};
use crate::app::Game;
use crate::editor::Thing;
use crate::rules::geometry::{Base, Pt};
use crate::rules::scenario::{RawPt, RawScenario};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw.run_if(in_state(crate::app::state::Screen::Editor))
            .run_if(resource_exists::<Editor>)
            .after(super::lay),
    );
}

const PICKED: Color = Color::srgb(1.0, 0.85, 0.1);
const PROBLEM: Color = Color::srgb(0.95, 0.15, 0.15);
const GHOST: Color = Color::srgba(1.0, 1.0, 1.0, 0.8);
const GOLD: Color = Color::srgb(0.9, 0.7, 0.1);

fn v(p: RawPt) -> Vec2 {
    Vec2::new(p.0, p.1)
}

fn rect(g: &mut Gizmos, b: &Base, c: Color) {
    let cs = b.corners();
    let p = |q: Pt| Vec2::new(q.x, q.y);
    g.linestrip_2d([p(cs[0]), p(cs[1]), p(cs[2]), p(cs[3]), p(cs[0])], c);
}

/// The bases a unit of the draft stands on: as the board holds them, else one of its troop
/// type's size (a unit the checks refused).
fn unit_shapes(raw: &RawScenario, game: Option<&Game>, i: usize) -> (Vec<Base>, bool) {
    let Some(u) = raw.units.get(i) else {
        return (Vec::new(), false);
    };
    if let Some(b) = game.and_then(|g| g.play.battle.units.iter().find(|x| x.id.as_str() == u.id)) {
        return (b.shapes(), true);
    }
    let Some(at) = u.at else {
        return (Vec::new(), false);
    };
    let size = game
        .and_then(|g| g.play.rules.base_size(&u.troop))
        .unwrap_or((40.0, 20.0));
    (
        vec![Base::new(Pt::new(at.0, at.1), u.facing, size.0, size.1)],
        false,
    )
}

/// The outline of a thing, moved by `by`.
fn outline(
    g: &mut Gizmos,
    raw: &RawScenario,
    game: Option<&Game>,
    thing: Thing,
    by: Vec2,
    c: Color,
) {
    match thing {
        Thing::Unit(i) => {
            for mut b in unit_shapes(raw, game, i).0 {
                b.centre = Pt::new(b.centre.x + by.x, b.centre.y + by.y);
                rect(g, &b, c);
            }
        }
        Thing::Feature(i) => {
            let Some(f) = raw.terrain.get(i) else { return };
            let mut pts: Vec<Vec2> = f.points.iter().map(|p| v(*p) + by).collect();
            if !f.kind.is_linear()
                && let Some(first) = pts.first().copied()
            {
                pts.push(first);
            }
            g.linestrip_2d(pts, c);
        }
        Thing::Zone(i) => {
            let Some(z) = raw.deployment.get(i) else {
                return;
            };
            let (a, b) = (v(z.min) + by, v(z.max) + by);
            g.linestrip_2d([a, Vec2::new(b.x, a.y), b, Vec2::new(a.x, b.y), a], c);
        }
        Thing::Objective(i) => {
            let Some(o) = raw.objectives.get(i) else {
                return;
            };
            g.circle_2d(Isometry2d::from_translation(v(o.at) + by), 12.0, c);
        }
        Thing::Scenario | Thing::Side(_) => {}
    }
}

fn draw(mut g: Gizmos, editor: Res<Editor>, game: Option<Res<Game>>, ptr: Res<EditorPointer>) {
    let e = editor.as_ref();
    let raw = e.draft.raw();
    let game = game.as_deref();
    // Objectives, in gold (the nobody's) or their holder's colour.
    for o in &raw.objectives {
        let c = match o.owner.and_then(|s| raw.sides.get(s)) {
            Some(s) => Color::srgb_u8(s.colour.0, s.colour.1, s.colour.2),
            None => GOLD,
        };
        g.circle_2d(Isometry2d::from_translation(v(o.at)), 9.0, c);
        g.circle_2d(Isometry2d::from_translation(v(o.at)), 6.0, c);
    }
    // The zones' edges in their side's colour.
    for (i, z) in raw.deployment.iter().enumerate() {
        let c = raw
            .sides
            .get(z.side)
            .map(|s| Color::srgb_u8(s.colour.0, s.colour.1, s.colour.2))
            .unwrap_or(GHOST);
        outline(&mut g, raw, game, Thing::Zone(i), Vec2::ZERO, c);
    }
    // Units the checks refused: their outline, crossed.
    for i in 0..raw.units.len() {
        let (shapes, built) = unit_shapes(raw, game, i);
        if built {
            continue;
        }
        for b in shapes {
            rect(&mut g, &b, PROBLEM);
            let cs = b.corners();
            g.line_2d(
                Vec2::new(cs[0].x, cs[0].y),
                Vec2::new(cs[2].x, cs[2].y),
                PROBLEM,
            );
            g.line_2d(
                Vec2::new(cs[1].x, cs[1].y),
                Vec2::new(cs[3].x, cs[3].y),
                PROBLEM,
            );
        }
    }
    // Every thing a problem stands on.
    for p in &e.checked.problems {
        for t in std::iter::once(p.thing).chain(p.also) {
            outline(&mut g, raw, game, t, Vec2::ZERO, PROBLEM);
        }
    }
    // The thing picked, and a feature's corners.
    if let Some(t) = e.selected {
        outline(&mut g, raw, game, t, Vec2::ZERO, PICKED);
        if let Thing::Feature(i) = t
            && let Some(f) = raw.terrain.get(i)
        {
            for p in &f.points {
                g.rect_2d(
                    Isometry2d::from_translation(v(*p)),
                    Vec2::splat(6.0),
                    PICKED,
                );
            }
        }
    }
    match &e.drag {
        Some(EditDrag {
            thing: Thing::Side(side),
            from,
            to,
            ..
        }) => {
            let c = raw
                .sides
                .get(*side)
                .map(|s| Color::srgb_u8(s.colour.0, s.colour.1, s.colour.2))
                .unwrap_or(GHOST);
            let (a, b) = (v(*from), v(*to));
            g.linestrip_2d([a, Vec2::new(b.x, a.y), b, Vec2::new(a.x, b.y), a], c);
        }
        Some(EditDrag {
            thing: Thing::Feature(f),
            vertex: Some(k),
            from,
            to,
        }) => {
            if let Some(f) = raw.terrain.get(*f) {
                let mut pts: Vec<Vec2> = f.points.iter().map(|p| v(*p)).collect();
                if let Some(p) = pts.get_mut(*k) {
                    *p += v(*to) - v(*from);
                }
                if !f.kind.is_linear()
                    && let Some(first) = pts.first().copied()
                {
                    pts.push(first);
                }
                g.linestrip_2d(pts, GHOST);
            }
        }
        Some(d) => outline(&mut g, raw, game, d.thing, v(d.to) - v(d.from), GHOST),
        None => {}
    }
    // The feature being drawn, to the pointer.
    if e.tool == Tool::Terrain && !e.sketch.is_empty() {
        let mut pts: Vec<Vec2> = e.sketch.iter().map(|p| v(*p)).collect();
        if let Some(w) = ptr.world {
            pts.push(w);
        }
        // An area closes back to its first corner, in a fainter line.
        if !e.kind.is_linear()
            && pts.len() > 2
            && let (Some(first), Some(last)) = (pts.first().copied(), pts.last().copied())
        {
            g.line_2d(last, first, GHOST.with_alpha(0.4));
        }
        g.linestrip_2d(pts, PICKED);
        for p in &e.sketch {
            g.rect_2d(
                Isometry2d::from_translation(v(*p)),
                Vec2::splat(5.0),
                PICKED,
            );
        }
    }
}
