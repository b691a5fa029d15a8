//! Names and counters on the table: each unit's name hung by a tie from its own base, in steps
//! clear of other names and bases, stable whatever the selection; counters for bases too small
//! to read; the objectives named by their places.

mod places;

use super::Game;
use crate::app::colours::{
    DISORDERED_WORDS, HIT_PIP, SHAKEN_WORDS, colour32, contrast, side_colour,
};
use crate::app::overlay::{Counter, ReachNote};
use crate::app::state::{BoardCamera, Docks, Overlays, Pointer, Selection};
use crate::rules::battle::Battle;
use crate::rules::geometry::Pt;
use crate::rules::model::Unit;
use crate::rules::ruleset::Look;
use crate::rules::ruleset::common::objectives_on_table;
use crate::rules::ruleset::view::Sign;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use places::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        unit_tags.in_set(crate::app::PanelSystems::BoardLabels),
    );
}

/// Every unit's name is shown, without the Names overlay, where no more than this many units
/// are in view, or once a base is this wide on screen (in points): zoomed out over a large
/// battle, names would cover the terrain.
const NAMES_UP_TO_UNITS: usize = 40;

/// The names as last laid out, and what they were laid out for.
#[derive(Default)]
pub(super) struct Layout {
    key: Vec<LayoutKey>,
    around: Vec<egui::Rect>,
    bounds: Option<egui::Rect>,
    laid: (Vec<(Laid, usize)>, Taken),
    /// Where the table's origin was on screen, and a metre along its x axis: a pan moves the
    /// first alone.
    view: Option<(egui::Pos2, egui::Vec2)>,
}

/// What a name was laid out for: its base's box, its size, whether it must be shown, and
/// whether it takes room.
type LayoutKey = (egui::Rect, egui::Vec2, bool, bool);

/// How far two screen positions may differ and be the same place, in points: a box moved by a
/// pan is where it was plus the pan, give or take rounding.
const SAME_PLACE: f32 = 0.05;

/// Whether two screen boxes are the same, give or take rounding.
fn same_rect(a: egui::Rect, b: egui::Rect) -> bool {
    (a.min - b.min).length() < SAME_PLACE && (a.max - b.max).length() < SAME_PLACE
}

/// The rules' looks of the units and the objectives, for one state of the battle.
#[derive(Default)]
pub(super) struct TagCache {
    /// The battle's version and identity (a new game restarts its versions).
    key: Option<(u64, usize)>,
    looks: std::collections::HashMap<crate::rules::UnitId, crate::rules::ruleset::Look>,
    objectives: Vec<crate::rules::victory::ObjectiveView>,
}

/// The colour of a sign of a unit's state, on its counter's edge and its tag's words.
fn sign_colour(s: Sign) -> egui::Color32 {
    match s {
        Sign::Shaken => SHAKEN_WORDS,
        Sign::Disordered => DISORDERED_WORDS,
    }
}

/// A unit's name box: its name, its state's words and pips, a tab in its side's colour, tied
/// to its base by a line where it is set off from it.
struct Tag {
    spot: egui::Rect,
    /// The line from the base to the box, where it is set off.
    tie: Option<[egui::Pos2; 2]>,
    name: std::sync::Arc<egui::Galley>,
    /// Shorter forms of the name, longest first, for where the whole finds no room.
    shorts: Vec<std::sync::Arc<egui::Galley>>,
    badges: Vec<std::sync::Arc<egui::Galley>>,
    pips: u32,
    side: egui::Color32,
    /// The selection's or the pointer's colour, for its unit.
    ring: Option<egui::Color32>,
}

impl Tag {
    /// A unit's tag, not yet placed: its name, the words of its state and its pips (hits, or
    /// bases lost, as the ruleset counts them), in its side's colour, ringed where it is picked.
    fn of(
        painter: &egui::Painter,
        u: &Unit,
        look: &Look,
        side: egui::Color32,
        ring: Option<egui::Color32>,
    ) -> Tag {
        let words = |t: String| {
            painter.layout_no_wrap(t, egui::FontId::proportional(12.0), egui::Color32::WHITE)
        };
        let name = words(u.name.clone());
        let shorts = short_names(&u.name).into_iter().map(words).collect();
        let badges = look
            .badges()
            .iter()
            .map(|(t, s)| {
                painter.layout_no_wrap(t.clone(), egui::FontId::proportional(11.0), sign_colour(*s))
            })
            .collect();
        Tag {
            spot: egui::Rect::NOTHING,
            tie: None,
            name,
            shorts,
            badges,
            pips: look.pips.min(12),
            side,
            ring,
        }
    }

    /// Its box's size with each shorter form of its name, longest first.
    fn shorter_sizes(&self) -> Vec<egui::Vec2> {
        (1..=self.shorts.len())
            .map(|k| self.with_name(k).size())
            .collect()
    }

    /// The tag with its name in the `k`-th shorter form (0: the whole name).
    fn with_name(&self, k: usize) -> Tag {
        let mut t = Tag {
            spot: self.spot,
            tie: self.tie,
            name: self.name.clone(),
            shorts: Vec::new(),
            badges: self.badges.clone(),
            pips: self.pips,
            side: self.side,
            ring: self.ring,
        };
        if let Some(g) = k.checked_sub(1).and_then(|i| self.shorts.get(i)) {
            t.name = g.clone();
        }
        t
    }

    /// Its box's size: the name, over a second line of pips and words where it has any.
    fn size(&self) -> egui::Vec2 {
        let pips_w = if self.pips > 0 {
            self.pips as f32 * 9.0 + 4.0
        } else {
            0.0
        };
        let badge_w: f32 = self.badges.iter().map(|g| g.size().x + 8.0).sum::<f32>() + pips_w;
        let w = self.name.size().x.max(badge_w) + 10.0;
        let second = !self.badges.is_empty() || self.pips > 0;
        let h = self.name.size().y + if second { 15.0 } else { 0.0 } + 4.0;
        egui::vec2(w, h)
    }

    fn paint(self, painter: &egui::Painter) {
        let (spot, h) = (self.spot, self.spot.height());
        if let Some(tie) = self.tie {
            painter.line_segment(tie, egui::Stroke::new(1.5, self.side));
        }
        painter.rect_filled(spot, 3.0, egui::Color32::from_black_alpha(170));
        if let Some(c) = self.ring {
            painter.rect_stroke(
                spot,
                3.0,
                egui::Stroke::new(1.5, c),
                egui::StrokeKind::Outside,
            );
        }
        painter.rect_filled(
            egui::Rect::from_min_size(spot.min, egui::vec2(3.0, h)),
            1.0,
            self.side,
        );
        painter.galley(
            spot.min + egui::vec2(6.0, 2.0),
            self.name,
            egui::Color32::WHITE,
        );
        let mut x = spot.min.x + 6.0;
        for _ in 0..self.pips {
            painter.circle_filled(egui::pos2(x + 4.0, spot.min.y + h - 8.5), 3.6, HIT_PIP);
            x += 9.0;
        }
        if self.pips > 0 {
            x += 4.0;
        }
        for g in self.badges {
            let wdt = g.size().x;
            painter.galley(
                egui::pos2(x, spot.min.y + h - 16.0),
                g,
                egui::Color32::WHITE,
            );
            x += wdt + 8.0;
        }
    }
}

/// The gold of the selection and of the objectives.
const GOLD: egui::Color32 = egui::Color32::from_rgb(250, 215, 60);

/// What the table's labels are drawn on: their painter, the window, the table less the docks
/// (no label is drawn over a docked panel), and where the table's points fall on screen.
struct Sheet<'a> {
    painter: egui::Painter,
    screen: egui::Rect,
    table: egui::Rect,
    to_screen: &'a dyn Fn(Pt) -> Option<egui::Pos2>,
}

/// A unit on the table and its box on screen (its counter's, where it is drawn too small).
type Boxed<'a> = (&'a Unit, Counter);

/// The objectives and who holds each; counters over bases drawn too small to read; names,
/// status and the ruleset's word markers (LOW, OUT, SPENT ...) for each unit; and the terrain's
/// names: drawn in screen space, readable at every zoom, placed where they overlap neither each
/// other nor the bases. The objectives' labels come first, tried on every side of the ring and
/// shown even where none is free. A unit's name hangs below its base, further down in steps (or
/// above) where that is taken, tied to it by a line; one that finds no room is left out, but
/// for the selected and hovered units'. A unit with nothing but its name to show is named where
/// few units are in view or once zoomed in (or with the Names overlay on); the selected and
/// hovered units and those with a status are named at every zoom.
#[expect(clippy::too_many_arguments, reason = "a Bevy system's parameters")]
fn unit_tags(
    mut ctx: EguiContexts,
    game: Res<Game>,
    overlays: Res<Overlays>,
    sel: Res<Selection>,
    ptr: Res<Pointer>,
    cams: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    docks: Res<Docks>,
    mut cache: Local<TagCache>,
    note: Res<ReachNote>,
    mut layout: Local<Layout>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let Some((cam, gt)) = cams.iter().next() else {
        return Ok(());
    };
    let b = &game.play;
    let to_screen = |p: Pt| {
        cam.world_to_viewport(gt, Vec3::new(p.x, p.y, 0.0))
            .ok()
            .map(|v| egui::pos2(v.x, v.y))
    };
    let screen = ctx.viewport_rect();
    let table = table_in_view(screen, &docks);
    let sheet = Sheet {
        painter: ctx
            .layer_painter(egui::LayerId::new(
                egui::Order::Background,
                egui::Id::new("board_labels"),
            ))
            .with_clip_rect(table),
        screen,
        table,
        to_screen: &to_screen,
    };
    cache.refresh(&game);
    // Every base's screen box is taken first: its counter's where it is drawn too small to read.
    let mut boxes: Vec<Boxed> = b
        .alive()
        .filter_map(|u| Some((u, Counter::of(&u.base, to_screen)?)))
        .collect();
    // From right to left: each name hangs to the right of a line down from its base, so that a
    // line's names fall in steps and no tie crosses a name (the order never follows the
    // selection, so names stay where they are when it changes).
    boxes.sort_by(|(a, _), (c, _)| naming_order(a, c));
    let mut taken = Taken::of(boxes.iter().map(|(_, c)| c.rect().expand(1.0)).collect());
    let picked = |u: &Unit| {
        let key = Some(&u.id);
        // The members of a group moving with the selected unit are picked as it is.
        if sel.unit.as_ref() == key || sel.group.contains(&u.id) {
            Some(GOLD)
        } else if ptr.hover.as_ref() == key {
            Some(egui::Color32::WHITE)
        } else {
            None
        }
    };
    paint_counters(&sheet, &boxes, &cache, &game, &picked);
    paint_objectives(&sheet, &cache, &game, &mut taken);
    let wanted = name_tags(&sheet, &boxes, &cache, &game, overlays.names, &picked);
    paint_name_tags(&sheet, wanted, &mut taken, &mut layout);
    paint_reach_note(&sheet, &note, &mut taken);
    paint_terrain_names(&sheet, b, &mut taken);
    Ok(())
}

/// The window less the docked panels: the table in view.
fn table_in_view(screen: egui::Rect, docks: &Docks) -> egui::Rect {
    egui::Rect::from_min_max(
        egui::pos2(screen.min.x, screen.min.y + docks.top),
        egui::pos2(
            (screen.max.x - docks.right).max(screen.min.x),
            (screen.max.y - docks.bottom).max(screen.min.y + docks.top),
        ),
    )
}

impl TagCache {
    /// The rules' looks and objectives, worked out once for each state of the battle.
    fn refresh(&mut self, game: &Game) {
        let (b, rules) = (&game.play.battle, game.play.rules.get());
        let key = (game.version, std::ptr::from_ref(b) as usize);
        if self.key != Some(key) {
            self.looks = b
                .alive()
                .map(|u| (u.id.clone(), rules.look(b, u)))
                .collect();
            self.objectives = objectives_on_table(rules, b);
            self.key = Some(key);
        }
    }
}

/// Bases too small on screen to read carry a counter: side, arm, front, hits and the sign of
/// their state.
fn paint_counters(
    sheet: &Sheet,
    boxes: &[Boxed],
    cache: &TagCache,
    game: &Game,
    picked: &dyn Fn(&Unit) -> Option<egui::Color32>,
) {
    for (u, c) in boxes
        .iter()
        .filter(|(_, c)| c.small && sheet.screen.intersects(c.rect()))
    {
        let Some(look) = cache.looks.get(&u.id) else {
            continue;
        };
        let [r, g, bl] = game.play.side_colour(u.side);
        let fill = egui::Color32::from_rgb(r, g, bl);
        let ink = colour32(contrast([r, g, bl]));
        let edge = look.worst_sign().map(sign_colour);
        c.paint(
            &sheet.painter,
            look.arm,
            (fill, ink),
            look.pips,
            (edge, picked(u)),
        );
    }
}

/// The places that decide the battle: a ring in the colour of the side that holds each now
/// (grey while nobody holds it), the ground within which a unit holds it as a thin gold
/// circle, and its name, worth and holder (before the units' names, so that they always find
/// room).
fn paint_objectives(sheet: &Sheet, cache: &TagCache, game: &Game, taken: &mut Taken) {
    let (painter, screen) = (&sheet.painter, sheet.screen);
    let font = egui::FontId::proportional(12.0);
    for o in &cache.objectives {
        let Some(p) = (sheet.to_screen)(o.at).filter(|p| screen.contains(*p)) else {
            continue;
        };
        let edge = (sheet.to_screen)(Pt::new(o.at.x + o.radius_mm, o.at.y));
        if let Some(r) = edge.map(|e| e.distance(p)).filter(|r| *r > 12.0) {
            painter.circle_stroke(p, r, egui::Stroke::new(1.0, GOLD.gamma_multiply(0.6)));
        }
        let fill = o
            .holder
            .map_or(egui::Color32::from_gray(140), |s| side_colour(game, s));
        painter.circle(p, 8.0, fill, egui::Stroke::new(2.5, GOLD));
        painter.circle_filled(p, 2.5, GOLD);
        let text = painter.layout_no_wrap(objective_words(game, o), font.clone(), GOLD);
        let size = text.size() + egui::vec2(8.0, 4.0);
        let spot = objective_spot(p, size, taken, screen);
        // A label set off from its ring is tied to it by a thin line.
        if spot.distance_to_pos(p) > 14.0 {
            let end = spot.clamp(p);
            let start = p + (end - p).normalized() * 9.0;
            painter.line_segment([start, end], egui::Stroke::new(1.5, GOLD));
        }
        painter.rect_filled(spot, 3.0, egui::Color32::from_black_alpha(170));
        painter.galley(spot.min + egui::vec2(4.0, 2.0), text, GOLD);
    }
}

/// An objective's label: its name, its worth where it is more than one, and its holder.
fn objective_words(game: &Game, o: &crate::rules::victory::ObjectiveView) -> String {
    let holder = match o.holder {
        Some(s) => game.play.sides.get(s).map_or("", |x| x.name.as_str()),
        None => "held by neither",
    };
    let name = match o.worth {
        w if w > 1 => format!("{} ({w} points)", o.name),
        _ => o.name.clone(),
    };
    if name.is_empty() {
        format!("held by {holder}")
    } else {
        format!("{name}: {holder}")
    }
}

/// The units' name tags to place, each with what it asks of the layout: those in view that are
/// named at this zoom, picked, or have a state to show.
fn name_tags<'b>(
    sheet: &Sheet,
    boxes: &'b [Boxed],
    cache: &TagCache,
    game: &Game,
    names_on: bool,
    picked: &dyn Fn(&Unit) -> Option<egui::Color32>,
) -> Vec<(Ask<'b>, Tag)> {
    let screen = sheet.screen;
    let in_view = boxes
        .iter()
        .filter(|(_, c)| screen.intersects(c.rect()))
        .count();
    let mut wanted = Vec::new();
    for (u, c) in boxes {
        let r = c.rect();
        if !screen.intersects(r) {
            continue;
        }
        let Some(look) = cache.looks.get(&u.id) else {
            continue;
        };
        let pick = picked(u);
        let status = look.shows_state();
        let named =
            names_on || in_view <= NAMES_UP_TO_UNITS || r.width().max(r.height()) >= NAMES_FROM_PX;
        if !named && pick.is_none() && !status {
            continue;
        }
        let tag = Tag::of(&sheet.painter, u, look, side_colour(game, u.side), pick);
        let ask = Ask {
            counter: c,
            size: tag.size(),
            must: pick.is_some(),
            takes_room: named || status,
        };
        wanted.push((ask, tag));
    }
    wanted
}

/// What each name of a new layout (`key`) may keep of the last one (`was`, laid as `laid`):
/// the place and form of the name whose base and box are as they were, the last layout moved
/// by `pan` (the view's, where the view only panned).
fn kept_from(
    was: &[LayoutKey],
    laid: &[(Laid, usize)],
    key: &[LayoutKey],
    pan: egui::Vec2,
) -> Vec<Option<(Laid, usize)>> {
    let moved = |l: Laid| {
        l.map(|(spot, tie, found)| (spot.translate(pan), tie.map(|t| t.map(|p| p + pan)), found))
    };
    key.iter()
        .map(|(r, size, _, room)| {
            let j = was.iter().position(|(r2, s2, _, room2)| {
                same_rect(r2.translate(pan), *r) && s2 == size && room2 == room
            })?;
            laid.get(j).map(|(l, form)| (moved(*l), *form))
        })
        .collect()
}

/// Places the name tags (laid out again only when a base, a name's size or the room round them
/// changes, not while the table stands still) and paints them; the selected and hovered units'
/// and those placed without room are painted last, over the rest.
fn paint_name_tags(sheet: &Sheet, wanted: Vec<(Ask, Tag)>, taken: &mut Taken, layout: &mut Layout) {
    let asks: Vec<Ask> = wanted.iter().map(|(a, _)| *a).collect();
    let key: Vec<_> = asks
        .iter()
        .map(|a| (a.counter.rect(), a.size, a.must, a.takes_room))
        .collect();
    let origin = (sheet.to_screen)(Pt::new(0.0, 0.0));
    let view = origin
        .zip((sheet.to_screen)(Pt::new(1000.0, 0.0)))
        .map(|(o, x)| (o, x - o));
    if layout.key != key || layout.around != taken.boxes || layout.bounds != Some(sheet.table) {
        let shorter: Vec<Vec<egui::Vec2>> = wanted.iter().map(|(_, t)| t.shorter_sizes()).collect();
        // A pan moves every box alike: the last layout, moved with them, is what is kept from.
        let pan = match (layout.view, view) {
            (Some((o1, x1)), Some((o2, x2))) if (x1 - x2).length() < SAME_PLACE => o2 - o1,
            _ => egui::Vec2::ZERO,
        };
        let kept = kept_from(&layout.key, &layout.laid.0, &key, pan);
        layout.laid = lay_out_keeping(&asks, &shorter, taken, sheet.table, &kept);
        (layout.key, layout.around, layout.bounds) = (key, taken.boxes.clone(), Some(sheet.table));
    }
    layout.view = view;
    let (laid, room) = layout.laid.clone();
    *taken = room;
    let mut on_top = Vec::new();
    for ((ask, tag), (laid, form)) in wanted.into_iter().zip(laid) {
        let Some((spot, tie, found)) = laid else {
            continue;
        };
        let mut tag = if form > 0 { tag.with_name(form) } else { tag };
        (tag.spot, tag.tie) = (spot, tie);
        if !found || !ask.takes_room {
            on_top.push(tag);
        } else {
            tag.paint(&sheet.painter);
        }
    }
    for tag in on_top {
        tag.paint(&sheet.painter);
    }
}

/// A reach that waits on the roll deciding the move says so above the top of its outline that
/// is on the table.
fn paint_reach_note(sheet: &Sheet, note: &ReachNote, taken: &mut Taken) {
    let table = sheet.table;
    let top = note
        .0
        .iter()
        .filter_map(|p| (sheet.to_screen)(*p))
        .filter(|p| table.contains(*p))
        .min_by(|a, c| a.y.total_cmp(&c.y));
    let Some(p) = top else {
        return;
    };
    let cyan = egui::Color32::from_rgb(120, 230, 255);
    let g = sheet.painter.layout_no_wrap(
        "reach if the roll gives a full move".into(),
        egui::FontId::proportional(11.0),
        cyan,
    );
    let rect =
        egui::Rect::from_center_size(p + egui::vec2(0.0, -12.0), g.size() + egui::vec2(8.0, 4.0));
    let rect = rect.translate(egui::vec2(
        (table.min.x - rect.min.x).max(0.0) + (table.max.x - rect.max.x).min(0.0),
        (table.min.y - rect.min.y).max(0.0) + (table.max.y - rect.max.y).min(0.0),
    ));
    sheet
        .painter
        .rect_filled(rect, 3.0, egui::Color32::from_black_alpha(170));
    sheet
        .painter
        .galley(rect.min + egui::vec2(4.0, 2.0), g, cyan);
    taken.boxes.push(rect);
}

/// The terrain's names, each once, where there is room.
fn paint_terrain_names(sheet: &Sheet, b: &Battle, taken: &mut Taken) {
    let mut named: Vec<&str> = Vec::new();
    for f in b.terrain.features.iter() {
        if named.contains(&f.name.as_str()) || f.name.is_empty() {
            continue;
        }
        named.push(&f.name);
        let (lo, hi) = f.bounds();
        let at = if f.kind.is_linear() {
            f.points.get(f.points.len() / 2).copied()
        } else {
            Some(Pt::new((lo.x + hi.x) / 2.0, (lo.y + hi.y) / 2.0))
        };
        let Some(p) = at.and_then(sheet.to_screen) else {
            continue;
        };
        let g = sheet.painter.layout_no_wrap(
            f.name.clone(),
            egui::FontId::proportional(12.0),
            egui::Color32::from_rgb(250, 245, 225),
        );
        let rect = egui::Rect::from_center_size(p, g.size() + egui::vec2(8.0, 2.0));
        if !sheet.screen.contains_rect(rect) || !taken.free(rect) {
            continue;
        }
        taken.boxes.push(rect);
        sheet
            .painter
            .rect_filled(rect, 6.0, egui::Color32::from_black_alpha(90));
        sheet
            .painter
            .galley(rect.min + egui::vec2(4.0, 1.0), g, egui::Color32::WHITE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of six battalions, each 31 points wide and 6 deep (as at the fitted zoom), with
    /// names three times as wide as a base: placed from right to left, every name finds room
    /// within 100 points above or below the line, none covers another or a base, each starts
    /// or ends at its own base's middle, and the tie from a base to its name crosses no other
    /// name.
    #[test]
    fn a_line_of_battalions_names_every_base_in_steps() {
        let bases: Vec<egui::Rect> = (0..6)
            .map(|k| {
                egui::Rect::from_min_size(
                    egui::pos2(300.0 + 31.0 * k as f32, 200.0),
                    egui::vec2(31.0, 6.0),
                )
            })
            .collect();
        let mut taken = Taken::of(bases.iter().map(|r| r.expand(1.0)).collect());
        let size = egui::vec2(110.0, 18.0);
        let everywhere = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(2000.0, 2000.0));
        let mut spots = Vec::new();
        for r in bases.iter().rev() {
            let placed = name_spot(*r, size, &taken, everywhere).expect("a name finds room");
            assert!(placed.far.is_none(), "in the first ring");
            let spot = placed.spot;
            let x = tie_x(*r, spot);
            let tie = if spot.top() - r.bottom() > 3.0 {
                Some([egui::pos2(x, r.bottom()), egui::pos2(x, spot.top())])
            } else if r.top() - spot.bottom() > 3.0 {
                Some([egui::pos2(x, r.top()), egui::pos2(x, spot.bottom())])
            } else {
                None
            };
            taken.take(spot, tie);
            spots.push((*r, spot));
        }
        for (i, (r, s)) in spots.iter().enumerate() {
            let below = s.top() > r.bottom();
            assert!(below || s.bottom() < r.top(), "{s:?} above or below {r:?}");
            assert!(
                (s.center().y - r.center().y).abs() < 100.0,
                "{s:?} near {r:?}"
            );
            assert!(s.min.x == r.center().x - 3.0 || s.max.x == r.center().x + 3.0);
            // The tie from the base to its name.
            let x = tie_x(*r, *s);
            let (y0, y1) = if below {
                (r.bottom(), s.top())
            } else {
                (s.bottom(), r.top())
            };
            for (j, (r2, s2)) in spots.iter().enumerate() {
                assert!(!s.intersects(r2.expand(1.0)), "a name covers a base");
                if i != j {
                    assert!(!s.intersects(*s2), "two names overlap");
                    let crossed =
                        s2.min.x <= x && x <= s2.max.x && s2.bottom() > y0 && s2.top() < y1;
                    assert!(!crossed, "a tie crosses a name");
                }
            }
        }
    }

    /// Three lines of six battalions, close together.
    fn three_lines() -> Vec<crate::rules::geometry::Base> {
        (0..18)
            .map(|i| {
                let (row, col) = (i / 6, i % 6);
                crate::rules::geometry::Base::new(
                    Pt::new(400.0 + col as f32 * 34.0, 300.0 + row as f32 * 30.0),
                    0.0,
                    32.0,
                    8.0,
                )
            })
            .collect()
    }

    /// A long name (96 by 16 points) asked for at each counter, each taking room.
    fn names_at(counters: &[Counter]) -> Vec<Ask<'_>> {
        counters
            .iter()
            .map(|c| Ask {
                counter: c,
                size: egui::vec2(96.0, 16.0),
                must: false,
                takes_room: true,
            })
            .collect()
    }

    /// Three lines of battalions close together, named; then one moves off to the side. Every
    /// other name whose place is still free stays where it was (laid out afresh, one would
    /// jump to the room the moved base left), and as many are named as a fresh layout names.
    #[test]
    fn a_unit_moving_moves_no_other_name_that_keeps_its_room() {
        use crate::rules::geometry::Base;
        let to_screen = |p: Pt| Some(egui::pos2(p.x, 720.0 - p.y));
        let bounds = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1280.0, 720.0));
        let mut bases: Vec<Base> = three_lines();
        let lay = |bases: &[Base], kept: Option<&[(Laid, usize)]>| {
            let counters: Vec<Counter> = bases
                .iter()
                .map(|b| Counter::of(b, to_screen).expect("on screen"))
                .collect();
            let taken = Taken::of(counters.iter().map(|c| c.rect().expand(1.0)).collect());
            let asks = names_at(&counters);
            let shorter = vec![Vec::new(); asks.len()];
            let kept: Vec<Option<(Laid, usize)>> = match kept {
                // The moved base (the first) is not kept; the others are.
                Some(k) => k
                    .iter()
                    .enumerate()
                    .map(|(i, l)| (i > 0).then_some(*l))
                    .collect(),
                None => vec![None; asks.len()],
            };
            lay_out_keeping(&asks, &shorter, &taken, bounds, &kept).0
        };
        let before = lay(&bases, None);
        bases[0].centre = Pt::new(900.0, 500.0);
        let kept = lay(&bases, Some(&before));
        let fresh = lay(&bases, None);
        let named =
            |o: &[(Laid, usize)]| o.iter().filter(|(l, _)| l.is_some_and(|(.., f)| f)).count();
        assert!(named(&kept) >= named(&fresh));
        // Laid out afresh, a name placed before jumps to the room the moved base left.
        let jumped = (1..bases.len())
            .filter(|&i| before[i].0.is_some_and(|(.., f)| f) && fresh[i].0 != before[i].0)
            .count();
        assert!(jumped >= 1, "a fresh layout moves {jumped} names");
        let moved0 =
            egui::Rect::from_center_size(egui::pos2(900.0, 220.0), egui::vec2(200.0, 200.0));
        for i in 1..bases.len() {
            let Some((spot, _, true)) = before[i].0 else {
                continue;
            };
            // Nothing came to where it was: it stays.
            if !spot.intersects(moved0) {
                assert_eq!(kept[i].0, before[i].0, "name {i} stays where it was");
            }
        }
    }

    /// Panning moves every base's box alike: each name moves with its base. Here the pan also
    /// takes one base out of view; laid out afresh, a name jumps to the room it left.
    #[test]
    fn a_pan_moves_each_name_with_its_base() {
        let bounds = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1280.0, 720.0));
        let bases = three_lines();
        // The bases in view from `from` on, the view panned by `pan`.
        type Was<'a> = Option<(&'a [LayoutKey], &'a [(Laid, usize)])>;
        let lay = |from: usize, pan: egui::Vec2, was: Was| {
            let to_screen = |p: Pt| Some(egui::pos2(p.x, 720.0 - p.y) + pan);
            let counters: Vec<Counter> = bases[from..]
                .iter()
                .map(|b| Counter::of(b, to_screen).expect("on screen"))
                .collect();
            let taken = Taken::of(counters.iter().map(|c| c.rect().expand(1.0)).collect());
            let asks = names_at(&counters);
            let key: Vec<LayoutKey> = asks
                .iter()
                .map(|a| (a.counter.rect(), a.size, a.must, a.takes_room))
                .collect();
            let kept = match was {
                Some((k, l)) => kept_from(k, l, &key, pan),
                None => vec![None; asks.len()],
            };
            let shorter = vec![Vec::new(); asks.len()];
            (
                key,
                lay_out_keeping(&asks, &shorter, &taken, bounds, &kept).0,
            )
        };
        let (key, before) = lay(0, egui::Vec2::ZERO, None);
        let pan = egui::vec2(37.3, -12.9);
        let (_, fresh) = lay(1, pan, None);
        let (_, after) = lay(1, pan, Some((&key, &before)));
        let placed =
            |o: &[(Laid, usize)]| o.iter().filter(|(l, _)| l.is_some_and(|(.., f)| f)).count();
        assert!(placed(&after) >= placed(&fresh));
        // Base i + 1's name, before and now.
        let moved_with = |now: &[(Laid, usize)], i: usize| match (before[i + 1].0, now[i].0) {
            (Some((a, _, true)), Some((b, _, _))) => same_rect(a.translate(pan), b),
            (Some((_, _, true)), None) => false,
            _ => true,
        };
        for i in 0..after.len() {
            assert!(moved_with(&after, i), "name {} moves with its base", i + 1);
        }
        assert!(
            (0..fresh.len()).any(|i| !moved_with(&fresh, i)),
            "laid out afresh, every name moved with its base too"
        );
    }

    /// A scenario's units at the fitted zoom of a 1280 x 720 window, every name on, laid out
    /// as the window lays them out (the objectives' labels first, where `objectives`; `picked`
    /// the selected unit): the table's part of the window, and each unit's name as shown (whole
    /// or shortened), its base's box and its place.
    fn fitted(
        path: &str,
        objectives: bool,
        picked: Option<usize>,
    ) -> (egui::Rect, Vec<(String, egui::Rect, Laid)>) {
        let b = crate::rules::scenario::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path),
        )
        .expect("the battle loads");
        let game = crate::app::Game::new(b, true, std::env::temp_dir());
        let (ww, wh) = (1280.0, 720.0);
        let docks = Docks::default();
        let (at, scale) = crate::app::camera::fit(&game, ww, wh, Some(&docks));
        let to_screen = |p: crate::rules::geometry::Pt| {
            Some(egui::pos2(
                ww / 2.0 + (p.x - at.x) / scale,
                wh / 2.0 - (p.y - at.y) / scale,
            ))
        };
        let table = egui::Rect::from_min_max(
            egui::pos2(0.0, docks.top),
            egui::pos2(ww - docks.right, wh - docks.bottom),
        );
        let b = &game.play;
        let mut boxes: Vec<(&Unit, crate::app::overlay::Counter)> = b
            .alive()
            .filter_map(|u| Some((u, crate::app::overlay::Counter::of(&u.base, to_screen)?)))
            .collect();
        boxes.sort_by(|(a, _), (c, _)| naming_order(a, c));
        assert!(boxes.iter().all(|(_, c)| table.contains_rect(c.rect())));
        let ctx = egui::Context::default();
        ctx.begin_pass(egui::RawInput::default());
        let painter = ctx.layer_painter(egui::LayerId::background());
        let font = egui::FontId::proportional(12.0);
        let size = |t: String| {
            painter
                .layout_no_wrap(t, font.clone(), egui::Color32::WHITE)
                .size()
        };
        let mut taken = Taken::of(boxes.iter().map(|(_, c)| c.rect().expand(1.0)).collect());
        if objectives {
            for o in objectives_on_table(game.play.rules.get(), b) {
                let p = to_screen(o.at).expect("on screen");
                let s = size(format!("{}: Austria", o.name)) + egui::vec2(8.0, 4.0);
                objective_spot(p, s, &mut taken, table);
            }
        }
        let asks: Vec<Ask> = boxes
            .iter()
            .enumerate()
            .map(|(i, (u, c))| Ask {
                counter: c,
                size: size(u.name.clone()) + egui::vec2(10.0, 4.0),
                must: picked == Some(i),
                takes_room: true,
            })
            .collect();
        let shorter: Vec<Vec<egui::Vec2>> = boxes
            .iter()
            .map(|(u, _)| {
                short_names(&u.name)
                    .into_iter()
                    .map(|t| size(t) + egui::vec2(10.0, 4.0))
                    .collect()
            })
            .collect();
        let (laid, _) = super::lay_out_shortening(&asks, &shorter, &taken, table);
        let names = boxes
            .iter()
            .zip(laid)
            .map(|((u, c), (l, k))| {
                let shown = match k.checked_sub(1) {
                    Some(i) => short_names(&u.name)[i].clone(),
                    None => u.name.clone(),
                };
                (shown, c.rect(), l)
            })
            .collect();
        (table, names)
    }

    /// The default battle (34 units) at the fitted zoom of a 1280 by 720 window, every name
    /// on: all but two find a place inside the table's part of the window, none covers another
    /// name or a base, each tie starts at its own base and crosses no name or base; and
    /// selecting a unit moves none of them.
    #[test]
    fn the_names_of_the_default_battle_find_places_at_the_fitted_zoom() {
        let names_of = |picked: Option<usize>| {
            let (table, all) = fitted("scenarios/default.ron", true, picked);
            assert_eq!(all.len(), 34);
            let named: Vec<_> = all
                .into_iter()
                .filter_map(|(name, r, l)| match l {
                    Some((spot, tie, true)) => Some((name, r, spot, tie)),
                    _ => None,
                })
                .collect();
            (table, named)
        };
        let (table, names) = names_of(None);
        // Two names, among the objectives' labels and the lines, find no room that reads as
        // their own base's, whole or shortened: they are shown when hovered or selected.
        assert!(names.len() >= 32, "{} of 34 named", names.len());
        for (name, r, spot, tie) in &names {
            assert!(
                table.contains_rect(*spot),
                "{name} inside the table: {spot:?}"
            );
            if let Some([a, _]) = tie {
                assert!(
                    r.expand(3.0).contains(*a),
                    "{name}'s tie starts at its base"
                );
            } else {
                assert!(
                    spot.distance_to_pos(r.center()) < r.size().max_elem(),
                    "{name} by its base"
                );
            }
            for (other, r2, s2, _) in &names {
                assert!(!spot.intersects(*r2), "{name}'s name covers {other}'s base");
                if other != name {
                    assert!(!spot.intersects(*s2), "{name} and {other} overlap");
                    if let Some([a, c]) = tie {
                        assert!(!crosses(*a, *c, *s2), "{name}'s tie crosses {other}'s name");
                        assert!(!crosses(*a, *c, *r2), "{name}'s tie crosses {other}'s base");
                    }
                }
            }
        }
        for k in [0, 7, 20, 33] {
            assert_eq!(names_of(Some(k)).1, names, "selecting a unit moves no name");
        }
    }

    /// On each of the nine battles at the fitted zoom, every name shown reads as its own
    /// unit's: its tie reaches no more than `NAME_REACH` from its base, and ends no nearer
    /// another base than its own (a name set down among other units reads as theirs). Names
    /// that find no such room, in a long whole form or a shorter one, are left to hover.
    #[test]
    fn no_name_reads_as_another_units_on_any_battle() {
        for s in [
            "scenarios/default.ron",
            "scenarios/dbfpw_default.ron",
            "scenarios/bbb_default.ron",
            "scenarios/hal25_default.ron",
            "scenarios/lobosch_1756.ron",
            "scenarios/dbfpw_spicheren.ron",
            "scenarios/bbb_rossbach.ron",
            "scenarios/hal25_krefeld.ron",
            "scenarios/lobositz_1756.ron",
        ] {
            let (_, v) = fitted(s, false, None);
            let mut named = 0;
            for (name, r, l) in &v {
                let Some((spot, tie, true)) = l else {
                    continue;
                };
                named += 1;
                let end = match tie {
                    Some([_, e]) => *e,
                    None => spot.clamp(r.center()),
                };
                let d = r.distance_to_pos(end);
                assert!(d <= NAME_REACH + 1.0, "{s}: {name} is {d} from its base");
                for (other, r2, _) in &v {
                    assert!(
                        r2.distance_to_pos(end) + 3.0 >= d,
                        "{s}: {name}'s tie ends nearer {other}"
                    );
                }
            }
            // Most are named: at least seven in ten.
            assert!(
                named * 10 >= v.len() * 7,
                "{s}: {named} of {} named",
                v.len()
            );
        }
    }
}
