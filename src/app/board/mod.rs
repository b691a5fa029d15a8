//! Draws the table: the terrain painted as one image, bases as rectangles in side colours with a front
//! edge, a troop code and status markers, redrawn whenever the battle changes; and, in `tags`,
//! the names and counters on the table, laid out in screen space over the bases.

mod tags;

use super::colours::{DISORDERED_DIAMOND, GARRISON, OBJECTIVE, SHAKEN_RING, contrast};
use super::{AppSystems, Game, terrain_art};
use crate::rules::command::Event;
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::Unit;
use crate::rules::ruleset::view::Sign;
use crate::rules::ruleset::{Figures, Look};
use crate::rules::terrain::FeatureKind;
use bevy::asset::RenderAssetUsages;
use bevy::math::Affine2;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            clear_board.run_if(resource_removed::<Game>),
            spawn_table.run_if(super::new_table),
        )
            .chain(),
    )
    .add_systems(
        Update,
        (draw_units, animate, hide_small_codes)
            .chain()
            .in_set(AppSystems::Draw),
    )
    .add_plugins(tags::plugin);
}

/// A base's troop code drawn on the table, with the base it belongs to.
#[derive(Component)]
struct BaseCode(Base);

/// A base too small on screen to read carries a counter that says its type: its own code is
/// hidden then, rather than left as stray small text beside the counter.
fn hide_small_codes(
    cams: Query<(&Camera, &GlobalTransform), With<super::state::BoardCamera>>,
    mut codes: Query<(&BaseCode, &mut Visibility)>,
) {
    let Some((cam, gt)) = cams.iter().next() else {
        return;
    };
    let to_screen = |p: Pt| {
        cam.world_to_viewport(gt, Vec3::new(p.x, p.y, 0.0))
            .ok()
            .map(|v| bevy_egui::egui::pos2(v.x, v.y))
    };
    for (code, mut vis) in &mut codes {
        let small = super::overlay::Counter::of(&code.0, to_screen).is_some_and(|c| c.small);
        let want = if small {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        vis.set_if_neq(want);
    }
}

/// Everything drawn for the units; replaced when the battle changes.
#[derive(Component)]
struct UnitVisual;

/// Anything drawn on the board.
type BoardVisual = (With<TableVisual>, With<UnitVisual>);

/// The table and its terrain, drawn when a game starts.
#[derive(Component)]
struct TableVisual;

fn clear_board(mut commands: Commands, old: Query<Entity, Or<BoardVisual>>) {
    for e in &old {
        commands.entity(e).despawn();
    }
}

fn z_of(kind: FeatureKind, level: u8) -> f32 {
    match kind {
        FeatureKind::Hill => 1.0 + level as f32 * 0.1,
        FeatureKind::Marsh | FeatureKind::Rough => 2.0,
        FeatureKind::River | FeatureKind::Stream => 3.0,
        FeatureKind::Road | FeatureKind::Causeway => 4.0,
        FeatureKind::Bridge => 5.0,
        FeatureKind::Town | FeatureKind::Village | FeatureKind::Fortification => 6.0,
        FeatureKind::Woods => 7.0,
    }
}

fn spawn_table(
    mut commands: Commands,
    laid: Query<Entity, With<TableVisual>>,
    game: Res<Game>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    // A save loaded over a game may be of another scenario: its table replaces the last.
    for e in &laid {
        commands.entity(e).despawn();
    }
    let b = &game.play;
    let (w, h) = (b.table.width, b.table.height);
    // The fields and every feature, in their order from the ground up, painted once into one
    // image of the table.
    let mut raster = terrain_art::Raster::new(w, h);
    raster.paint(&terrain_art::fields(w, h));
    let mut features: Vec<_> = b.terrain.features.iter().collect();
    features.sort_by(|a, c| z_of(a.kind, a.level).total_cmp(&z_of(c.kind, c.level)));
    for f in features {
        raster.paint(&terrain_art::feature(f));
    }
    // The deployment zones are tinted into the image: they never move.
    for z in b.zones.iter() {
        raster.tint(z.min, z.max, b.side_colour(z.side), 0.11);
    }
    commands.spawn((
        TableVisual,
        Sprite {
            image: images.add(raster.image()),
            custom_size: Some(Vec2::new(w, h)),
            ..default()
        },
        Transform::from_xyz(w / 2.0, h / 2.0, 0.0),
    ));
    if let Some(o) = &b.objective {
        commands.spawn((
            TableVisual,
            Mesh2d(meshes.add(Annulus::new(6.0, 9.0))),
            MeshMaterial2d(materials.add(OBJECTIVE)),
            Transform::from_xyz(o.at.x, o.at.y, 8.0),
        ));
        commands.spawn((
            TableVisual,
            Mesh2d(meshes.add(Circle::new(3.0))),
            MeshMaterial2d(materials.add(Color::srgb(0.55, 0.1, 0.1))),
            Transform::from_xyz(o.at.x, o.at.y, 8.0),
        ));
    }
}

/// Meshes and materials shared by every unit drawn alike, so that redrawing the board makes no
/// new assets and the renderer batches the stands and figures.
#[derive(Default)]
struct Shared {
    meshes: std::collections::HashMap<(u8, u32, u32), Handle<Mesh>>,
    materials: std::collections::HashMap<[u8; 4], Handle<ColorMaterial>>,
}

impl Shared {
    fn key(x: f32) -> u32 {
        (x.max(0.0) * 100.0).round() as u32
    }
    fn rect(&mut self, meshes: &mut Assets<Mesh>, w: f32, h: f32) -> Handle<Mesh> {
        self.meshes
            .entry((0, Self::key(w), Self::key(h)))
            .or_insert_with(|| meshes.add(Rectangle::new(w, h)))
            .clone()
    }
    fn circle(&mut self, meshes: &mut Assets<Mesh>, r: f32) -> Handle<Mesh> {
        self.meshes
            .entry((1, Self::key(r), 0))
            .or_insert_with(|| meshes.add(Circle::new(r)))
            .clone()
    }
    fn ring(&mut self, meshes: &mut Assets<Mesh>, inner: f32, outer: f32) -> Handle<Mesh> {
        self.meshes
            .entry((2, Self::key(inner), Self::key(outer)))
            .or_insert_with(|| meshes.add(Annulus::new(inner, outer)))
            .clone()
    }
    fn mat(&mut self, materials: &mut Assets<ColorMaterial>, c: Color) -> Handle<ColorMaterial> {
        self.materials
            .entry(c.to_srgba().to_u8_array())
            .or_insert_with(|| materials.add(c))
            .clone()
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system: its parameters are its queries"
)]
fn draw_units(
    mut commands: Commands,
    game: Res<Game>,
    mut drawn: Local<(u64, usize, usize, bool)>,
    old: Query<Entity, With<UnitVisual>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut shared: Local<Shared>,
    overlays: Res<super::state::Overlays>,
) {
    // A new game starts its versions again: compare the battle's identity too.
    let key = (game.version, std::ptr::from_ref(&game.play) as usize);
    // (The overlays resource is marked changed by every frame's toggles: compare the style.)
    if (drawn.0, drawn.1) == key && !game.is_added() && drawn.3 == overlays.symbols {
        return;
    }
    // The events since the last drawing are animated (none after an undo or a new game).
    let seen = if game.is_added() || drawn.2 > game.play.log.len() {
        game.play.log.len()
    } else {
        drawn.2
    };
    let fresh = game.play.log.since(seen);
    *drawn = (key.0, key.1, game.play.log.len(), overlays.symbols);
    let mut paths: std::collections::HashMap<&str, (Base, Base)> = std::collections::HashMap::new();
    let mut lost: Vec<&str> = Vec::new();
    for e in fresh {
        match e {
            Event::Moved { unit, from, to, .. }
            | Event::Recoiled { unit, from, to, .. }
            | Event::Fled { unit, from, to }
            | Event::Pursued { unit, from, to, .. } => {
                let entry = paths.entry(unit.as_str()).or_insert((*from, *to));
                entry.1 = *to;
            }
            Event::Destroyed { unit, .. } => lost.push(unit.as_str()),
            _ => {}
        }
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let (b, rules) = (&game.play.battle, &game.play.rules);
    for u in b.units.iter().filter(|u| lost.contains(&u.id.as_str())) {
        let c = b.side_colour(u.side);
        commands.spawn((
            UnitVisual,
            Fade(0.9),
            Mesh2d(meshes.add(Rectangle::new(u.base.width, u.base.depth))),
            MeshMaterial2d(materials.add(Color::srgb_u8(c[0], c[1], c[2]))),
            Transform::from_xyz(u.base.centre.x, u.base.centre.y, 9.5)
                .with_rotation(Quat::from_rotation_z(-u.base.facing.to_radians())),
        ));
    }
    let mut paint = Paint {
        commands: &mut commands,
        meshes: &mut meshes,
        materials: &mut materials,
        shared: &mut shared,
        symbols: overlays.symbols,
    };
    for u in b.units.iter().filter(|u| u.alive()) {
        let look = rules.look(b, u);
        let from = paths.get(u.id.as_str()).map(|(from, _)| *from);
        paint.body(u, &look, b.side_colour(u.side), from.as_ref());
        paint.label(u, &look, b.side_colour(u.side), from.as_ref());
        paint.markers(u, &look);
    }
}

/// What drawing a unit needs: the commands and the shared meshes and materials.
struct Paint<'a, 'w, 's> {
    commands: &'a mut Commands<'w, 's>,
    meshes: &'a mut Assets<Mesh>,
    materials: &'a mut Assets<ColorMaterial>,
    shared: &'a mut Shared,
    /// Map symbols instead of figures.
    symbols: bool,
}

impl Paint<'_, '_, '_> {
    fn rect(&mut self, w: f32, h: f32) -> Mesh2d {
        Mesh2d(self.shared.rect(self.meshes, w, h))
    }
    fn circle(&mut self, r: f32) -> Mesh2d {
        Mesh2d(self.shared.circle(self.meshes, r))
    }
    fn mat(&mut self, c: Color) -> MeshMaterial2d<ColorMaterial> {
        MeshMaterial2d(self.shared.mat(self.materials, c))
    }
    /// The figures' coats: on a painted base the regiment's where the scenario gives it, else
    /// the side's colour (the rim and the counter keep the side's, so that sides stay apart);
    /// on a map symbol, the colour that reads on the side's.
    fn coat(&self, c: [u8; 3], u: &Unit) -> Color {
        if self.symbols {
            contrast(c)
        } else {
            let [r, g, b] = u.extra.coat.unwrap_or(c);
            Color::srgb_u8(r, g, b)
        }
    }

    /// The base in its side's colour with its front strip, each stand with its figures, and a
    /// general's disc, as one mesh; tweened from where this bound's events started it.
    fn body(&mut self, u: &Unit, look: &Look, c: [u8; 3], from: Option<&Base>) {
        let rot = Quat::from_rotation_z(-u.base.facing.to_radians());
        let pos = Vec3::new(u.base.centre.x, u.base.centre.y, 10.0);
        let strip = front_strip(u.base.depth);
        // Loose skirmish stands stand apart: no base is drawn round them.
        let loose = u.is_loose();
        let fill = Color::srgb_u8(c[0], c[1], c[2]);
        let mut sh = Shapes::default();
        let here = Affine2::IDENTITY;
        if !loose {
            // A dark rim under the base keeps it clear of any terrain.
            let rim = Color::srgb(0.08, 0.08, 0.08);
            sh.quad(
                here,
                (u.base.width + 1.2, u.base.depth + 1.2),
                (0.0, 0.0),
                0.0,
                rim,
            );
            if self.symbols {
                sh.quad(here, (u.base.width, u.base.depth), (0.0, 0.0), 0.0, fill);
                // The front edge, in a contrasting strip.
                let y = u.base.depth / 2.0 - strip / 2.0;
                sh.quad(here, (u.base.width, strip), (0.0, y), 0.0, contrast(c));
            } else {
                // A painted base: flocked ground inside a rim in the side's colour, its front
                // edge in the colour that reads on it.
                let rim = (u.base.width.min(u.base.depth) * 0.1).clamp(0.5, 3.0);
                sh.quad(here, (u.base.width, u.base.depth), (0.0, 0.0), 0.0, fill);
                let inner = (u.base.width - 2.0 * rim, u.base.depth - 2.0 * rim);
                sh.quad(here, inner, (0.0, 0.0), 0.0, GROUND);
                let y = u.base.depth / 2.0 - rim / 2.0;
                sh.quad(here, (u.base.width, rim), (0.0, y), 0.0, contrast(c));
            }
        }
        for (sb, figures) in &look.stands {
            self.stand(&mut sh, u, look, (sb, *figures), c, loose);
        }
        if look.stands.is_empty() {
            let gl = glyphs(
                look.arm,
                (u.base.width, u.base.depth),
                (None, 0),
                u.status.limbered,
                self.symbols,
                self.coat(c, u),
            );
            sh.glyphs(here, &gl);
        }
        if look.general {
            let r = u.base.width.min(u.base.depth) * 0.3;
            sh.disc(r, Color::srgb(0.85, 0.68, 0.2));
            if !self.symbols {
                // The general's standard beside him.
                let x = u.base.width * 0.22;
                sh.glyphs(here, &flag(x, 0.0, u.base.depth * 0.18, fill));
            }
        }
        let mesh = self.meshes.add(sh.mesh());
        let white = self.mat(Color::WHITE);
        let mut e = self.commands.spawn((
            UnitVisual,
            Mesh2d(mesh),
            white,
            Transform::from_translation(pos).with_rotation(rot),
        ));
        if let Some(from) = from {
            e.insert(Tween::new(from, &u.base));
        }
    }

    /// One stand: outlined, filled, its figures along its front.
    fn stand(
        &mut self,
        sh: &mut Shapes,
        u: &Unit,
        look: &Look,
        (sb, figures): (&Base, u32),
        c: [u8; 3],
        loose: bool,
    ) {
        let rel = sb.centre.minus(u.base.centre);
        let (x, y) = (rel.dot(u.base.right()), rel.dot(u.base.forward()));
        let at = Affine2::from_angle_translation(
            -(sb.facing - u.base.facing).to_radians(),
            Vec2::new(x, y),
        );
        let strip = front_strip(sb.depth);
        let outline = Color::srgb_u8(c[0] / 3, c[1] / 3, c[2] / 3);
        let (outline, ground) = if self.symbols {
            (outline, Color::srgb_u8(c[0], c[1], c[2]))
        } else {
            // A painted stand: flocked ground in a rim of the side's colour.
            (Color::srgb_u8(c[0], c[1], c[2]), GROUND)
        };
        sh.quad(at, (sb.width, sb.depth), (0.0, 0.0), 0.0, outline);
        let rim = if self.symbols {
            0.4
        } else {
            (sb.width.min(sb.depth) * 0.1).clamp(0.45, 3.0)
        };
        let inner = (
            (sb.width - 2.0 * rim).max(0.5),
            (sb.depth - 2.0 * rim).max(0.5),
        );
        sh.quad(at, inner, (0.0, 0.0), 0.0, ground);
        if loose {
            let y = sb.depth / 2.0 - strip / 2.0;
            sh.quad(at, (sb.width, strip), (0.0, y), 0.0, contrast(c));
        }
        let gl = glyphs(
            look.arm,
            (sb.width, sb.depth),
            // A stand of one "figure" is a base: its figures are drawn by its size.
            (
                (look.figures_per_stand > 1).then_some(figures),
                look.figures_per_stand,
            ),
            u.status.limbered,
            self.symbols,
            self.coat(c, u),
        );
        sh.glyphs(at, &gl);
    }

    /// The troop code and status, upright whatever the facing; the unit's name, shown on demand.
    fn label(&mut self, u: &Unit, look: &Look, c: [u8; 3], from: Option<&Base>) {
        // Figure units carry their label just behind their rear edge, clear of the figures, as
        // does every painted base but a general's (whose label is on his disc).
        let behind = look.label_behind || !(self.symbols || look.general);
        let label_spot = |base: &Base| {
            let p = if behind {
                base.local(0.0, -(base.depth / 2.0 + 4.0))
            } else {
                base.centre
            };
            Vec3::new(p.x, p.y, 10.5)
        };
        let mut label_entity = self.commands.spawn((
            UnitVisual,
            Text2d::new(look.label.clone()),
            // Laid out large and drawn small, so that the code stays sharp when zoomed in.
            TextFont {
                font_size: FontSize::Px(32.0),
                ..default()
            },
            TextColor(if look.label_dark || (behind && !look.label_behind) {
                Color::srgb(0.1, 0.1, 0.1)
            } else {
                contrast(c)
            }),
            Transform::from_translation(label_spot(&u.base)).with_scale(Vec3::splat(0.25)),
            BaseCode(u.base),
        ));
        if let Some(from) = from {
            label_entity.insert(Tween {
                rotate: false,
                from: label_spot(from),
                to: label_spot(&u.base),
                ..Tween::new(from, &u.base)
            });
        }
    }

    /// One marker beside a base.
    fn marker(&mut self, at: Pt, mesh: Mesh2d, c: Color, rot: f32) {
        let mat = self.mat(c);
        self.commands.spawn((
            UnitVisual,
            mesh,
            mat,
            Transform::from_xyz(at.x, at.y, 10.6).with_rotation(Quat::from_rotation_z(rot)),
        ));
    }

    /// Disorder, hits, garrison and shaken markers round the base, as the ruleset signals them.
    fn markers(&mut self, u: &Unit, look: &Look) {
        let (w, d) = (u.base.width, u.base.depth);
        if look.signs.contains(&Sign::Disordered) {
            // Disordered: an orange diamond behind the base's middle.
            let mesh = self.rect(3.6, 3.6);
            let rot = std::f32::consts::FRAC_PI_4;
            self.marker(
                u.base.local(0.0, -d / 2.0 - 3.0),
                mesh,
                DISORDERED_DIAMOND,
                rot,
            );
        }
        // Hits as red pips behind the base; shaken as a yellow ring.
        for k in 0..look.pips {
            let at = u
                .base
                .local(-w / 2.0 + 3.0 + 4.0 * k as f32, -d / 2.0 - 3.0);
            let mesh = self.circle(2.4);
            self.marker(at, mesh, Color::srgb(0.85, 0.1, 0.1), 0.0);
        }
        if look.garrison {
            // Garrison: a dark square at the rear left corner.
            let at = u.base.local(-w / 2.0 + 2.5, -d / 2.0 + 2.5);
            let mesh = self.rect(3.5, 3.5);
            self.marker(at, mesh, GARRISON, 0.0);
        }
        if look.signs.contains(&Sign::Shaken) {
            let at = u.base.local(w / 2.0 - 3.0, -d / 2.0 - 3.0);
            let mesh = Mesh2d(self.shared.ring(self.meshes, 1.2, 2.4));
            self.marker(at, mesh, SHAKEN_RING, 0.0);
        }
        // The ruleset's word markers (LOW, OUT ...) are drawn by the panels at screen size.
    }
}

/// One shape of a figure drawn from above, in a base's own frame (front towards +y).
#[derive(Clone, Copy)]
struct Glyph {
    w: f32,
    h: f32,
    x: f32,
    y: f32,
    turn: f32,
    colour: Color,
}

const IRON: Color = Color::srgb(0.16, 0.16, 0.18);
const WOOD: Color = Color::srgb(0.45, 0.32, 0.18);
const HORSE: Color = Color::srgb(0.36, 0.24, 0.14);
const HAT: Color = Color::srgb(0.07, 0.07, 0.08);
/// The flocked ground of a painted base.
const GROUND: Color = Color::srgb(0.33, 0.39, 0.2);

/// A flag of size `s` on its pole at `(x, y)`, in the side's colour quartered with white.
fn flag(x: f32, y: f32, s: f32, coat: Color) -> Vec<Glyph> {
    let g = |w: f32, h: f32, x: f32, y: f32, colour: Color| Glyph {
        w,
        h,
        x,
        y,
        turn: 0.0,
        colour,
    };
    let white = Color::srgb(0.95, 0.94, 0.88);
    // A pale side's colours are quartered with gold, a dark side's with white.
    let [r, gr, b, _] = coat.to_srgba().to_f32_array();
    let white = if 0.299 * r + 0.587 * gr + 0.114 * b > 0.6 {
        Color::srgb(0.9, 0.72, 0.15)
    } else {
        white
    };
    let (fw, fh) = (s * 1.3, s);
    let fx = x + fw / 2.0;
    vec![
        g(fw, fh, fx, y, white),
        g(fw / 2.0, fh / 2.0, fx - fw / 4.0, y + fh / 4.0, coat),
        g(fw / 2.0, fh / 2.0, fx + fw / 4.0, y - fh / 4.0, coat),
        g(0.35, s * 1.6, x, y - s * 0.3, WOOD),
    ]
}

/// One shape of a figure: its size, its place in the base's frame, its turn and colour.
fn glyph(w: f32, h: f32, x: f32, y: f32, turn: f32, colour: Color) -> Glyph {
    Glyph {
        w,
        h,
        x,
        y,
        turn,
        colour,
    }
}

/// The figures on a base of this size, from above: foot in ranks, horsemen, guns with their
/// crews (and limbers), or, in the symbol style, the map symbol of the arm. `count` is the
/// figures the stand still carries (None: a base drawn at full strength); `per` a full stand's.
fn glyphs(
    arm: Figures,
    (w, d): (f32, f32),
    (count, per): (Option<u32>, u32),
    limbered: bool,
    symbols: bool,
    coat: Color,
) -> Vec<Glyph> {
    if symbols {
        return map_symbol(arm, (w, d), coat);
    }
    let front = d / 2.0 - front_strip(d);
    match arm {
        Figures::Foot => foot_in_ranks((w, d), front, (count, per), coat),
        Figures::Horse => horsemen((w, d), front, (count, per), coat),
        Figures::Guns => guns_and_crew((w, d), front, count, limbered, coat),
        Figures::Train => {
            vec![
                glyph(w * 0.5, d * 0.3, 0.0, 0.0, 0.0, WOOD),
                glyph(
                    w * 0.5,
                    d * 0.08,
                    0.0,
                    d * 0.05,
                    0.0,
                    Color::srgb(0.85, 0.82, 0.72),
                ),
            ]
        }
        Figures::Command => Vec::new(),
    }
}

/// The map symbol of an arm: crossed lines for foot, one for horse, a square for guns, a
/// wagon's cross for a train.
fn map_symbol(arm: Figures, (w, d): (f32, f32), coat: Color) -> Vec<Glyph> {
    let g = glyph;
    let diag = (w * w + d * d).sqrt() * 0.8;
    let angle = d.atan2(w);
    let line = (d.min(w) * 0.08).clamp(0.5, 1.5);
    match arm {
        Figures::Foot => vec![
            g(diag, line, 0.0, 0.0, angle, coat),
            g(diag, line, 0.0, 0.0, -angle, coat),
        ],
        Figures::Horse => vec![g(diag, line, 0.0, 0.0, angle, coat)],
        Figures::Guns => vec![g(d.min(w) * 0.35, d.min(w) * 0.35, 0.0, 0.0, 0.0, coat)],
        Figures::Train => vec![
            g(w * 0.6, line, 0.0, 0.0, 0.0, coat),
            g(line, d * 0.5, 0.0, 0.0, 0.0, coat),
        ],
        Figures::Command => Vec::new(),
    }
}

/// Foot in one or two ranks behind the front edge, with hats and muskets, and the colours
/// behind the ranks' middle.
fn foot_in_ranks(
    (w, d): (f32, f32),
    front: f32,
    (count, per): (Option<u32>, u32),
    coat: Color,
) -> Vec<Glyph> {
    let g = glyph;
    let mut out = Vec::new();
    let full = if count.is_some() {
        per.max(1)
    } else {
        ((w / 3.2).floor() as u32).max(2) * 2
    };
    let n = count.unwrap_or(full);
    let ranks = if d >= 7.0 && full >= 4 { 2 } else { 1 };
    let per_rank = full.div_ceil(ranks).max(1);
    let gap = w / per_rank as f32;
    // 15 mm figures on small bases, larger ones on the stands of 25 mm rules.
    let fw = (gap * 0.72).min(6.0);
    let (fh, rank_gap) = (fw.max(2.4) * 0.7, fw.max(2.6) * 0.92);
    for k in 0..n {
        let (rank, file) = (k / per_rank, k % per_rank);
        let x = -w / 2.0 + gap * (file as f32 + 0.5);
        let y = front - fh * 0.8 - rank as f32 * rank_gap;
        out.push(g(fw, fh, x, y, 0.0, coat));
        // Hat and musket, as a painted figure shows them from above.
        out.push(g(fw * 0.5, fw * 0.5, x, y, 0.0, HAT));
        out.push(g(
            fw * 0.12,
            fh * 0.7,
            x + fw * 0.3,
            y + fh * 0.6,
            0.0,
            IRON,
        ));
    }
    // The colours behind the ranks' middle.
    if w >= 12.0 && n > 1 {
        let y = front - fh * 0.8 - (ranks as f32 - 1.0) * rank_gap - fh;
        out.extend(flag(0.0, y, (d * 0.3).clamp(2.0, 6.0), coat));
    }
    out
}

/// Horsemen side by side behind the front edge.
fn horsemen(
    (w, d): (f32, f32),
    front: f32,
    (count, per): (Option<u32>, u32),
    coat: Color,
) -> Vec<Glyph> {
    let g = glyph;
    let mut out = Vec::new();
    let full = if count.is_some() {
        per.max(1)
    } else {
        ((w / 5.5).floor() as u32).max(2)
    };
    let n = count.unwrap_or(full);
    let gap = w / full as f32;
    let hw = (gap * 0.5).min(5.0);
    let hl = (d * 0.55).clamp(2.0, 12.0);
    for k in 0..n {
        let x = -w / 2.0 + gap * (k as f32 + 0.5);
        let y = front - hl / 2.0 - 0.4;
        out.push(g(hw, hl, x, y, 0.0, HORSE));
        out.push(g(hw * 0.35, hl * 0.2, x, y + hl * 0.5, 0.0, HORSE));
        out.push(g(hw * 0.9, hw * 0.9, x, y - hl * 0.1, 0.0, coat));
        out.push(g(hw * 0.45, hw * 0.45, x, y - hl * 0.1, 0.0, HAT));
    }
    out
}

/// One or two guns on their carriages (with limber and team when limbered), and the crew
/// along the rear edge.
fn guns_and_crew(
    (w, d): (f32, f32),
    front: f32,
    count: Option<u32>,
    limbered: bool,
    coat: Color,
) -> Vec<Glyph> {
    let g = glyph;
    let mut out = Vec::new();
    let guns = if w > 30.0 { 2 } else { 1 };
    let gap = w / guns as f32;
    let len = (d * 0.45).clamp(2.5, 10.0);
    for k in 0..guns {
        let x = -w / 2.0 + gap * (k as f32 + 0.5);
        let y = front - len / 2.0 - 0.3;
        out.push(g(len * 0.45, len * 0.25, x, y - len * 0.35, 0.0, WOOD));
        for side in [-1.0, 1.0] {
            out.push(g(
                len * 0.08,
                len * 0.3,
                x + side * len * 0.25,
                y - len * 0.35,
                0.0,
                IRON,
            ));
        }
        out.push(g(len * 0.13, len, x, y, 0.0, IRON));
        if limbered {
            out.push(g(len * 0.4, len * 0.3, x, y - len * 1.0, 0.0, WOOD));
            for side in [-1.0, 1.0] {
                out.push(g(
                    len * 0.18,
                    len * 0.45,
                    x + side * len * 0.12,
                    y - len * 1.45,
                    0.0,
                    HORSE,
                ));
            }
        }
    }
    // The crew beside the guns.
    let crew = count.unwrap_or(3).min(8);
    for k in 0..crew {
        let x = -w / 2.0 + w * (k as f32 + 0.5) / crew as f32;
        out.push(g(1.2, 1.2, x, -d / 2.0 + 1.6, 0.0, coat));
    }
    out
}

/// A unit's drawing as one mesh: every shape in the base's own frame, coloured per vertex, so
/// that the renderer draws a unit in one call however many figures it carries. Later shapes lie
/// a little higher, so they are drawn over the earlier ones.
#[derive(Default)]
struct Shapes {
    positions: Vec<[f32; 3]>,
    colours: Vec<[f32; 4]>,
    indices: Vec<u32>,
}

impl Shapes {
    /// The height step between shapes: far below anything the eye or the depth buffer parts.
    const LAYER: f32 = 0.0005;

    fn z(&self) -> f32 {
        self.indices.len() as f32 / 3.0 * Self::LAYER
    }

    /// A `w` by `h` rectangle centred at `(x, y)` turned by `turn`, in the frame `at`.
    fn quad(&mut self, at: Affine2, (w, h): (f32, f32), (x, y): (f32, f32), turn: f32, c: Color) {
        let z = self.z();
        let local = Affine2::from_angle_translation(turn, Vec2::new(x, y));
        let to = at * local;
        let first = self.positions.len() as u32;
        for (dx, dy) in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)] {
            let p = to.transform_point2(Vec2::new(dx * w, dy * h));
            self.positions.push([p.x, p.y, z]);
            self.colours.push(LinearRgba::from(c).to_f32_array());
        }
        self.indices
            .extend([first, first + 1, first + 2, first, first + 2, first + 3]);
    }

    /// A disc of radius `r` at the base's centre.
    fn disc(&mut self, r: f32, c: Color) {
        const SEGMENTS: u32 = 24;
        let z = self.z();
        let centre = self.positions.len() as u32;
        let colour = LinearRgba::from(c).to_f32_array();
        self.positions.push([0.0, 0.0, z]);
        self.colours.push(colour);
        for k in 0..SEGMENTS {
            let a = k as f32 / SEGMENTS as f32 * std::f32::consts::TAU;
            self.positions.push([r * a.cos(), r * a.sin(), z]);
            self.colours.push(colour);
        }
        for k in 0..SEGMENTS {
            let next = (k + 1) % SEGMENTS;
            self.indices
                .extend([centre, centre + 1 + k, centre + 1 + next]);
        }
    }

    /// Figure shapes in the frame `at`.
    fn glyphs(&mut self, at: Affine2, gl: &[Glyph]) {
        for g in gl {
            self.quad(at, (g.w, g.h), (g.x, g.y), g.turn, g.colour);
        }
    }

    fn mesh(self) -> Mesh {
        Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::RENDER_WORLD,
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, self.positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, self.colours)
        .with_inserted_indices(Indices::U32(self.indices))
    }
}

/// Moves a drawn base from where an event started it to where it ended.
#[derive(Component, Clone)]
struct Tween {
    from: Vec3,
    to: Vec3,
    from_rot: Quat,
    to_rot: Quat,
    rotate: bool,
    elapsed: f32,
}

impl Tween {
    const SECONDS: f32 = 0.45;

    fn new(from: &Base, to: &Base) -> Self {
        Tween {
            from: Vec3::new(from.centre.x, from.centre.y, 10.0),
            to: Vec3::new(to.centre.x, to.centre.y, 10.0),
            from_rot: Quat::from_rotation_z(-from.facing.to_radians()),
            to_rot: Quat::from_rotation_z(-to.facing.to_radians()),
            rotate: true,
            elapsed: 0.0,
        }
    }
}

/// A destroyed unit fading away.
#[derive(Component)]
struct Fade(f32);

fn animate(
    mut commands: Commands,
    time: Res<Time>,
    mut tweens: Query<(Entity, &mut Transform, &mut Tween)>,
    mut fades: Query<(Entity, &mut Fade, &MeshMaterial2d<ColorMaterial>)>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let dt = time.delta_secs();
    for (e, mut t, mut tw) in &mut tweens {
        tw.elapsed += dt;
        let k = (tw.elapsed / Tween::SECONDS).clamp(0.0, 1.0);
        let k = k * k * (3.0 - 2.0 * k);
        let z = t.translation.z;
        t.translation = tw.from.lerp(tw.to, k).with_z(z);
        if tw.rotate {
            t.rotation = tw.from_rot.slerp(tw.to_rot, k);
        }
        if k >= 1.0 {
            commands.entity(e).remove::<Tween>();
        }
    }
    for (e, mut f, mat) in &mut fades {
        f.0 -= dt;
        if let Some(mut m) = materials.get_mut(&mat.0) {
            m.color = m.color.with_alpha((f.0 / 0.9).clamp(0.0, 1.0));
        }
        if f.0 <= 0.0 {
            commands.entity(e).despawn();
        }
    }
}

/// The depth of the contrasting strip that marks a base's front edge.
fn front_strip(depth: f32) -> f32 {
    depth.min(12.0) * 0.25
}
