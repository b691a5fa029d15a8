//! Overlays drawn with gizmos: selection and hover, the drag ghost and ruler, fire arcs and
//! ranges, threat zones, line of sight, reach, eligible targets and hill contours.

use super::state::{Overlays, Pointer, Selection};
use super::{AppSystems, Game};
use crate::rules::geometry::{Base, Edge, Pt};
use crate::rules::ruleset::{Ink, Layer, Mark};
use crate::rules::terrain::FeatureKind;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ReachNote>()
        .add_systems(Update, draw.in_set(AppSystems::Draw))
        .add_systems(
            Update,
            draw_aims
                .run_if(resource_exists::<super::opponent::Computer>)
                .in_set(AppSystems::Draw),
        );
}

/// Where the reach shown is only what the best roll would give (the move waits on a roll): the
/// points of that reach's outline, for its words on the table.
#[derive(Resource, Default)]
pub(super) struct ReachNote(pub(super) Vec<Pt>);

fn v(p: Pt) -> Vec2 {
    Vec2::new(p.x, p.y)
}

fn outline(g: &mut Gizmos, b: &Base, c: Color) {
    let cs = b.corners();
    g.linestrip_2d([v(cs[0]), v(cs[1]), v(cs[2]), v(cs[3]), v(cs[0])], c);
}

/// A ghost's front, so that a wheeled or pivoted ghost shows which way it will face: the front
/// edge doubled just inside it, and an arrowhead on it pointing ahead.
fn front_mark(g: &mut Gizmos, b: &Base, c: Color) {
    let (a, e) = b.edge(Edge::Front);
    let inset = (b.depth * 0.12).min(2.0);
    let back = b.forward().scale(-inset);
    g.line_2d(v(a.plus(back)), v(e.plus(back)), c);
    let size = (b.width.min(b.depth) * 0.3).min(8.0);
    let tip = b.front_centre().plus(b.forward().scale(size * 0.6));
    let base = b.front_centre().plus(b.forward().scale(-size * 0.4));
    let side = b.right().scale(size * 0.5);
    g.linestrip_2d(
        [
            v(base.minus(side)),
            v(tip),
            v(base.plus(side)),
            v(base.minus(side)),
        ],
        c,
    );
}

/// The outline of a selected unit and of its group's members.
const SELECTED: Color = Color::srgb(1.0, 0.9, 0.1);

/// Outlines a unit `rings` times, each ring grown by a millimetre and a half outside the last:
/// a bold line at the zoom that fits the table, separate lines close up.
fn bold_outline(g: &mut Gizmos, u: &crate::rules::model::Unit, c: Color, rings: usize) {
    for s in u.shapes() {
        for k in 0..rings {
            let d = 1.5 * k as f32;
            let grown = Base::new(s.centre, s.facing, s.width + 2.0 * d, s.depth + 2.0 * d);
            outline(g, &grown, c);
        }
    }
}

/// Outlines a unit: its base, or each of its loose stands.
fn outline_unit(g: &mut Gizmos, u: &crate::rules::model::Unit, c: Color) {
    for s in u.shapes() {
        outline(g, &s, c);
    }
}

/// The ruleset's overlay marks, cached per selection, layers and battle version (the reach
/// alone runs a few hundred move checks).
#[derive(Default)]
struct MarkCache {
    /// Selection, layers, battle version and the battle's identity (a new game restarts its
    /// versions).
    key: Option<(Option<crate::rules::UnitId>, Vec<Layer>, u64, usize)>,
    marks: Vec<Mark>,
}

pub(super) fn ink(i: Ink) -> Color {
    match i {
        Ink::Arc => Color::srgba(1.0, 0.85, 0.2, 0.8),
        Ink::StandArc => Color::srgba(1.0, 0.85, 0.2, 0.45),
        Ink::Zone => Color::srgba(0.9, 0.2, 0.1, 0.7),
        Ink::Clear => Color::srgba(0.2, 0.9, 0.3, 0.7),
        Ink::Blocked => Color::srgba(0.9, 0.2, 0.2, 0.5),
        Ink::Blocker => Color::srgb(0.9, 0.2, 0.9),
        Ink::Reach => Color::srgba(0.3, 0.9, 1.0, 0.8),
        Ink::ReachIf => Color::srgba(0.3, 0.9, 1.0, 0.6),
        Ink::Target => Color::srgb(0.2, 1.0, 0.3),
    }
}

/// A polyline's points, back to the first when it is closed.
fn strip(points: &[Pt], closed: bool) -> Vec<Vec2> {
    let mut pts: Vec<Vec2> = points.iter().map(|p| v(*p)).collect();
    if closed && let Some(first) = pts.first().copied() {
        pts.push(first);
    }
    pts
}

fn mark(g: &mut Gizmos, m: &Mark) {
    let pts = strip(&m.points, m.closed);
    if m.ink != Ink::ReachIf {
        g.linestrip_2d(pts, ink(m.ink));
        return;
    }
    // A reach that waits on a roll is dashed.
    const DASH: f32 = 6.0;
    for w in pts.windows(2) {
        dashed(g, w[0], w[1], DASH, ink(m.ink));
    }
}

/// A dashed line from `a` to `b`, dashes and gaps `dash` long.
fn dashed(g: &mut Gizmos, a: Vec2, b: Vec2, dash: f32, colour: Color) {
    let d = b - a;
    let n = (d.length() / dash).ceil().max(1.0) as usize;
    for k in (0..n).step_by(2) {
        let t1 = ((k + 1) as f32 / n as f32).min(1.0);
        g.line_2d(a + d * (k as f32 / n as f32), a + d * t1, colour);
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system: its parameters are its queries"
)]
fn draw(
    mut g: Gizmos,
    game: Res<Game>,
    sel: Res<Selection>,
    ptr: Res<Pointer>,
    overlays: Res<Overlays>,
    mut cache: Local<MarkCache>,
    tutoring: Option<Res<super::lesson::Tutoring>>,
    time: Res<Time>,
    mut note: ResMut<ReachNote>,
) {
    let b = &game.play;
    if let Some(step) = tutoring.as_ref().and_then(|t| t.tutor.current()) {
        tutor_places(&mut g, b, step, time.elapsed_secs());
    }
    terrain_outlines(&mut g, b);
    for id in &game.highlight {
        if let Ok(u) = b.unit(id) {
            outline_unit(&mut g, u, Color::srgb(1.0, 0.5, 0.0));
        }
    }
    if let Some(id) = &ptr.hover
        && let Ok(u) = b.unit(id)
    {
        outline_unit(&mut g, u, Color::srgba(1.0, 1.0, 1.0, 0.8));
    }
    if let (Some(id), Some(w)) = (&sel.placing, ptr.world)
        && let Ok(u) = b.unit(id)
    {
        placing(&mut g, b, u, w);
    }
    let selected = sel
        .unit
        .as_ref()
        .and_then(|id| b.unit(id).ok())
        .filter(|s| s.alive());
    cache.refresh(&game, selected, &overlays, &mut note);
    for m in &cache.marks {
        mark(&mut g, m);
    }
    // A unit destroyed or not yet placed shows nothing more.
    let Some(s) = selected else { return };
    // The selected unit and the members of its group in one bright yellow, each outline
    // doubled outside its base so that it reads on any ground; the selected unit's tripled.
    for (u, rings) in std::iter::once((s, 3)).chain(
        sel.group
            .iter()
            .filter_map(|id| b.unit(id).ok())
            .map(|u| (u, 2)),
    ) {
        bold_outline(&mut g, u, SELECTED, rings);
    }
    if let Some(drag) = &sel.drag {
        drag_ghost(&mut g, b, drag, ptr.world);
    }
}

/// Arrows from the opponent's units to what its latest plan sends them for (Plan, V): dashed,
/// in its side's colour lightened so that they stand out from the name tags' ties, with a
/// head and a ring on the place aimed at.
fn draw_aims(
    mut g: Gizmos,
    computer: Res<super::opponent::Computer>,
    game: Option<Res<Game>>,
    overlays: Res<Overlays>,
) {
    let Some(game) = game else { return };
    if !overlays.plan {
        return;
    }
    let b: &crate::rules::Battle = &game.play;
    let ink = b
        .sides
        .get(computer.side)
        .map(|s| {
            let [r, g, bl] = s.colour.map(|c| c / 2 + 128);
            Color::srgba_u8(r, g, bl, 230)
        })
        .unwrap_or(Color::WHITE);
    // Sized to the table, so that they read at the zoom that fits it.
    let size = b.table.width.max(b.table.height) / 120.0;
    for a in computer.aims() {
        let Ok(u) = b.unit(&a.unit) else { continue };
        if !u.alive() || u.base.width <= 0.0 {
            continue;
        }
        let from = v(u.base.centre);
        let to = v(a.at);
        let d = to - from;
        if d.length() < size {
            continue;
        }
        dashed(&mut g, from, to, size, ink);
        let back = d.normalize() * size * 2.5;
        let side = back.perp() * 0.5;
        g.line_2d(to, to - back + side, ink);
        g.line_2d(to, to - back - side, ink);
        g.circle_2d(Isometry2d::from_translation(to), size, ink);
    }
}

/// A tutorial step's places and units: pulsing rings the newcomer cannot miss.
fn tutor_places(
    g: &mut Gizmos,
    b: &crate::rules::battle::Battle,
    step: &crate::text::lesson::LessonStep,
    secs: f32,
) {
    let pulse = 1.0 + 0.15 * (secs * 4.0).sin();
    let gold = Color::srgb(1.0, 0.85, 0.1);
    for (x, y) in &step.places {
        let at = Vec2::new(*x, *y);
        g.circle_2d(Isometry2d::from_translation(at), 10.0 * pulse, gold);
        g.circle_2d(Isometry2d::from_translation(at), 6.0 * pulse, gold);
        g.line_2d(at - Vec2::X * 14.0, at + Vec2::X * 14.0, gold);
        g.line_2d(at - Vec2::Y * 14.0, at + Vec2::Y * 14.0, gold);
    }
    for id in &step.highlight {
        if let Ok(u) = b.unit(id) {
            let r = u.base.width.max(u.base.depth) * 0.75 * pulse;
            g.circle_2d(
                Isometry2d::from_translation(Vec2::new(u.base.centre.x, u.base.centre.y)),
                r,
                gold,
            );
        }
    }
}

/// Hill contours (each level's outline, darker as it climbs), fortified places' heavy dark
/// outline, and the table's edge.
fn terrain_outlines(g: &mut Gizmos, b: &crate::rules::battle::Battle) {
    for f in b
        .terrain
        .features
        .iter()
        .filter(|f| f.kind == FeatureKind::Hill)
    {
        let c = Color::srgba(0.35, 0.25, 0.1, 0.35 + 0.15 * f.level.min(4) as f32);
        g.linestrip_2d(strip(&f.points, true), c);
    }
    for f in b.terrain.features.iter().filter(|f| f.fortified) {
        let pts = strip(&f.points, true);
        g.linestrip_2d(pts.clone(), super::colours::GARRISON);
        g.linestrip_2d(
            pts.iter().map(|p| *p + Vec2::splat(0.8)),
            super::colours::GARRISON,
        );
    }
    g.rect_2d(
        Isometry2d::from_translation(Vec2::new(b.table.width / 2.0, b.table.height / 2.0)),
        Vec2::new(b.table.width, b.table.height),
        Color::srgb(0.1, 0.1, 0.1),
    );
}

/// Placing a unit in deployment: its base at the cursor `w`, and its side's zones.
fn placing(g: &mut Gizmos, play: &crate::rules::Game, u: &crate::rules::model::Unit, w: Vec2) {
    let b: &crate::rules::Battle = play;
    let facing = play.rules.deployment(b).map(|d| d.facing).unwrap_or(0.0);
    let ghost = Base::new(Pt::new(w.x, w.y), facing, u.base.width, u.base.depth);
    outline(g, &ghost, Color::srgb(1.0, 0.9, 0.1));
    for z in b.zones.iter().filter(|z| z.side == u.side) {
        let size = Vec2::new(z.max.x - z.min.x, z.max.y - z.min.y);
        g.rect_2d(
            Isometry2d::from_translation(Vec2::new(z.min.x + size.x / 2.0, z.min.y + size.y / 2.0)),
            size,
            Color::srgb(1.0, 0.9, 0.1),
        );
    }
}

impl MarkCache {
    /// The ruleset's marks (zones, and the selected unit's arcs, reach, sight and targets),
    /// asked again only when the selection, the overlays switched on or the battle change; the
    /// reach a roll has yet to decide is named on the table beside its outline.
    fn refresh(
        &mut self,
        game: &Game,
        selected: Option<&crate::rules::model::Unit>,
        overlays: &Overlays,
        note: &mut ReachNote,
    ) {
        let (b, rules) = (&game.play.battle, &game.play.rules);
        let layers: Vec<Layer> = [
            (overlays.arcs, Layer::Arcs),
            (overlays.zones, Layer::Zones),
            (overlays.sight, Layer::Sight),
            (overlays.reach, Layer::Reach),
            (true, Layer::Targets),
        ]
        .into_iter()
        .filter(|x| x.0)
        .map(|x| x.1)
        .collect();
        let key = Some((
            selected.map(|s| s.id.clone()),
            layers.clone(),
            game.version,
            std::ptr::from_ref(b) as usize,
        ));
        if self.key != key {
            self.marks = rules.overlays(b, selected, &layers);
            self.key = key;
            note.0 = self
                .marks
                .iter()
                .filter(|m| m.ink == Ink::ReachIf)
                .flat_map(|m| m.points.iter().copied())
                .collect();
        }
    }
}

/// The drag: a ghost where the base would end (green, or red when refused), and a ruler from
/// where it starts.
fn drag_ghost(
    g: &mut Gizmos,
    play: &crate::rules::Game,
    drag: &super::state::Drag,
    pointer: Option<Vec2>,
) {
    let Some(start) = drag.moving_base(play) else {
        return;
    };
    let c = if drag.plan.is_ok() {
        Color::srgb(0.2, 1.0, 0.3)
    } else {
        Color::srgb(1.0, 0.2, 0.2)
    };
    let ends: Vec<Base> = match pointer {
        Some(w) => drag.ghost(play, w),
        None => drag.ghost(play, drag.start),
    };
    for e in &ends {
        outline(g, e, c);
        front_mark(g, e, c);
        g.line_2d(v(start.centre), v(e.centre), c);
    }
}

/// The least size, in points on screen, at which a base shows its arm, front and hits; a base
/// drawn smaller than this gets a counter of this size over it (the base itself keeps its true
/// size for measuring).
pub(super) const COUNTER_MIN: bevy_egui::egui::Vec2 = bevy_egui::egui::vec2(24.0, 15.0);

/// A base drawn smaller than this on screen, in points, shows as its counter: its painted
/// figures would be too small to tell its arm and side.
pub(super) const COUNTER_FROM: bevy_egui::egui::Vec2 = bevy_egui::egui::vec2(44.0, 26.0);

/// A unit as a wargames counter on screen: its side's colour, its arm's map symbol, a bright
/// front edge, its hits as a number, its state in its outline.
pub(super) struct Counter {
    centre: bevy_egui::egui::Pos2,
    right: bevy_egui::egui::Vec2,
    ahead: bevy_egui::egui::Vec2,
    /// Half the width and half the depth, in points.
    half: (f32, f32),
    /// The base is drawn smaller on screen than a readable counter.
    pub(super) small: bool,
}

impl Counter {
    /// The counter over `base`, given where the table's points fall on screen.
    pub(super) fn of(
        base: &Base,
        to_screen: impl Fn(Pt) -> Option<bevy_egui::egui::Pos2>,
    ) -> Option<Counter> {
        let centre = to_screen(base.centre)?;
        let right = to_screen(base.local(base.width / 2.0, 0.0))? - centre;
        let ahead = to_screen(base.local(0.0, base.depth / 2.0))? - centre;
        let (w, d) = (right.length(), ahead.length());
        let small = d * 2.0 < COUNTER_FROM.y || w * 2.0 < COUNTER_FROM.x;
        let half = if small {
            (w.max(COUNTER_MIN.x / 2.0), d.max(COUNTER_MIN.y / 2.0))
        } else {
            (w, d)
        };
        Some(Counter {
            centre,
            right: right.normalized(),
            ahead: ahead.normalized(),
            half,
            small,
        })
    }

    /// A counter of this size facing up the screen, for the legend.
    pub(super) fn sample(centre: bevy_egui::egui::Pos2, size: bevy_egui::egui::Vec2) -> Counter {
        Counter {
            centre,
            right: bevy_egui::egui::vec2(1.0, 0.0),
            ahead: bevy_egui::egui::vec2(0.0, -1.0),
            half: (size.x / 2.0, size.y / 2.0),
            small: true,
        }
    }

    fn at(&self, x: f32, y: f32) -> bevy_egui::egui::Pos2 {
        self.centre + self.right * x + self.ahead * y
    }

    /// Where a line straight down (`down`) or up at `x` leaves the counter's outline.
    pub(super) fn edge_at(&self, x: f32, down: bool) -> Option<f32> {
        let (w, d) = self.half;
        let cs = [
            self.at(-w, -d),
            self.at(w, -d),
            self.at(w, d),
            self.at(-w, d),
        ];
        let ys = (0..4).filter_map(|i| {
            let (a, b) = (cs[i], cs[(i + 1) % 4]);
            ((a.x - x) * (b.x - x) <= 0.0 && (a.x - b.x).abs() > 1e-3)
                .then(|| a.y + (x - a.x) / (b.x - a.x) * (b.y - a.y))
        });
        if down {
            ys.reduce(f32::max)
        } else {
            ys.reduce(f32::min)
        }
    }

    /// The counter's box on screen, upright.
    pub(super) fn rect(&self) -> bevy_egui::egui::Rect {
        let (w, d) = self.half;
        bevy_egui::egui::Rect::from_points(&[
            self.at(-w, -d),
            self.at(w, -d),
            self.at(w, d),
            self.at(-w, d),
        ])
    }

    /// Paints the counter: `fill` the side's colour, `ink` the colour that reads on it, `hits`
    /// as the rules count them, `edge` the state's colour (shaken, disordered), `ring` the
    /// selection's.
    pub(super) fn paint(
        &self,
        p: &bevy_egui::egui::Painter,
        arm: crate::rules::ruleset::Figures,
        (fill, ink): (bevy_egui::egui::Color32, bevy_egui::egui::Color32),
        hits: u32,
        (edge, ring): (
            Option<bevy_egui::egui::Color32>,
            Option<bevy_egui::egui::Color32>,
        ),
    ) {
        use crate::rules::ruleset::Figures;
        use bevy_egui::egui::{Align2, Color32, FontId, Shape, Stroke};
        let (w, d) = self.half;
        let corners = |w: f32, d: f32| {
            vec![
                self.at(-w, -d),
                self.at(w, -d),
                self.at(w, d),
                self.at(-w, d),
            ]
        };
        if let Some(r) = ring {
            p.add(Shape::closed_line(
                corners(w + 2.5, d + 2.5),
                Stroke::new(2.5, r),
            ));
        }
        let outline = edge.map_or(Stroke::new(1.0, Color32::from_gray(20)), |c| {
            Stroke::new(2.0, c)
        });
        p.add(Shape::convex_polygon(corners(w, d), fill, outline));
        // The front: a bright bar along the front edge.
        let bar = (d * 0.3).clamp(2.5, 4.0);
        p.line_segment(
            [
                self.at(-w + 1.0, d - bar / 2.0),
                self.at(w - 1.0, d - bar / 2.0),
            ],
            Stroke::new(bar, ink),
        );
        // The arm's map symbol in the rest of the counter, 3 by 2 as on a map.
        let sy = ((d - bar) * 0.55).max(2.0);
        let sx = (sy * 1.5).min(w * 0.7);
        let cy = -bar / 2.0;
        let pen = Stroke::new(1.4, ink);
        match arm {
            Figures::Foot => {
                p.line_segment([self.at(-sx, cy - sy), self.at(sx, cy + sy)], pen);
                p.line_segment([self.at(-sx, cy + sy), self.at(sx, cy - sy)], pen);
            }
            Figures::Horse => {
                p.line_segment([self.at(-sx, cy - sy), self.at(sx, cy + sy)], pen);
            }
            Figures::Guns => {
                p.circle_filled(self.at(0.0, cy), sy * 0.75, ink);
            }
            Figures::Command => {
                p.circle(
                    self.at(0.0, cy),
                    sy * 0.95,
                    Color32::from_rgb(216, 173, 51),
                    Stroke::new(1.0, Color32::from_gray(30)),
                );
            }
            Figures::Train => {
                p.line_segment(
                    [self.at(-sx, cy + sy * 0.3), self.at(sx, cy + sy * 0.3)],
                    pen,
                );
                p.circle_stroke(self.at(-sx * 0.5, cy - sy * 0.4), sy * 0.45, pen);
                p.circle_stroke(self.at(sx * 0.5, cy - sy * 0.4), sy * 0.45, pen);
            }
        }
        // Hits: a red disc with their number at the rear right corner.
        if hits > 0 {
            let at = self.at(w, -d);
            p.circle(
                at,
                6.5,
                Color32::from_rgb(200, 30, 25),
                Stroke::new(1.0, Color32::WHITE),
            );
            p.text(
                at,
                Align2::CENTER_CENTER,
                hits.to_string(),
                FontId::proportional(10.0),
                Color32::WHITE,
            );
        }
    }
}
