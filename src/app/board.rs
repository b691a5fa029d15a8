//! Draws the table: the terrain painted as one image, bases as rectangles in side colours with a front
//! edge, a troop code and status markers, redrawn whenever the battle changes.

use super::{AppSystems, Game, terrain_art};
use crate::rules::command::Event;
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::Unit;
use crate::rules::ruleset::{Figures, Look};
use crate::rules::terrain::FeatureKind;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            clear_board.run_if(resource_removed::<Game>),
            spawn_table.run_if(resource_added::<Game>),
        )
            .chain(),
    )
    .add_systems(
        Update,
        (draw_units, animate).chain().in_set(AppSystems::Draw),
    );
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
    game: Res<Game>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut images: ResMut<Assets<Image>>,
) {
    let b = &game.battle;
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
    commands.spawn((
        TableVisual,
        Sprite {
            image: images.add(raster.image()),
            custom_size: Some(Vec2::new(w, h)),
            ..default()
        },
        Transform::from_xyz(w / 2.0, h / 2.0, 0.0),
    ));
    for z in &b.zones {
        let c = b.side_colour(z.side);
        commands.spawn((
            TableVisual,
            Mesh2d(meshes.add(Rectangle::new(z.max.x - z.min.x, z.max.y - z.min.y))),
            MeshMaterial2d(materials.add(Color::srgba_u8(c[0], c[1], c[2], 28))),
            Transform::from_xyz((z.min.x + z.max.x) / 2.0, (z.min.y + z.max.y) / 2.0, 0.5),
        ));
    }
    if let Some(o) = &b.objective {
        commands.spawn((
            TableVisual,
            Mesh2d(meshes.add(Annulus::new(6.0, 9.0))),
            MeshMaterial2d(materials.add(Color::srgb(0.95, 0.85, 0.2))),
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

#[allow(clippy::too_many_arguments)] // a Bevy system: its parameters are its queries
fn draw_units(
    mut commands: Commands,
    game: Res<Game>,
    mut drawn: Local<(u64, usize, usize, bool)>,
    old: Query<Entity, With<UnitVisual>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut shared: Local<Shared>,
    overlays: Res<super::input::Overlays>,
) {
    // A new game starts its versions again: compare the battle's identity too.
    let key = (game.version, std::ptr::from_ref(&game.battle) as usize);
    // (The overlays resource is marked changed by every frame's toggles: compare the style.)
    if (drawn.0, drawn.1) == key && !game.is_added() && drawn.3 == overlays.symbols {
        return;
    }
    // The events since the last drawing are animated (none after an undo or a new game).
    let seen = if game.is_added() || drawn.2 > game.battle.log.len() {
        game.battle.log.len()
    } else {
        drawn.2
    };
    let fresh = &game.battle.log[seen..];
    *drawn = (key.0, key.1, game.battle.log.len(), overlays.symbols);
    let mut paths: std::collections::HashMap<&str, (Base, Base)> = std::collections::HashMap::new();
    let mut lost: Vec<&str> = Vec::new();
    for e in fresh {
        match e {
            Event::Moved { unit, from, to, .. }
            | Event::Recoiled { unit, from, to, .. }
            | Event::Fled { unit, from, to }
            | Event::Pursued { unit, from, to, .. } => {
                let entry = paths.entry(unit.0.as_str()).or_insert((*from, *to));
                entry.1 = *to;
            }
            Event::Destroyed { unit, .. } => lost.push(unit.0.as_str()),
            _ => {}
        }
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let b = &game.battle;
    for u in b.units.iter().filter(|u| lost.contains(&u.id.0.as_str())) {
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
        let look = b.rules.look(b, u);
        let from = paths.get(u.id.0.as_str()).map(|(from, _)| *from);
        paint.body(u, &look, b.side_colour(u.side), from.as_ref());
        paint.label(u, &look, b.side_colour(u.side), from.as_ref());
        let garrison = b
            .terrain
            .at(u.base.centre, &[FeatureKind::Town, FeatureKind::Village])
            .any(|f| f.fortified);
        paint.markers(u, &look, garrison);
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

    /// The meshes of a base's figure shapes, just above it.
    fn glyph_parts(
        &mut self,
        gl: &[Glyph],
        z: f32,
    ) -> Vec<(Mesh2d, MeshMaterial2d<ColorMaterial>, Transform)> {
        gl.iter()
            .map(|g| {
                (
                    self.rect(g.w, g.h),
                    self.mat(g.colour),
                    Transform::from_xyz(g.x, g.y, z).with_rotation(Quat::from_rotation_z(g.turn)),
                )
            })
            .collect()
    }

    /// The base in its side's colour with its front strip, each stand with its figures, and a
    /// general's disc; tweened from where this bound's events started it.
    fn body(&mut self, u: &Unit, look: &Look, c: [u8; 3], from: Option<&Base>) {
        let rot = Quat::from_rotation_z(-u.base.facing.to_radians());
        let pos = Vec3::new(u.base.centre.x, u.base.centre.y, 10.0);
        let strip = front_strip(u.base.depth);
        // Loose skirmish stands stand apart: no base is drawn round them.
        let loose = u.is_loose();
        let fill = Color::srgb_u8(c[0], c[1], c[2]);
        // A dark rim under the base keeps it clear of any terrain.
        let rim = (!loose).then(|| {
            (
                self.rect(u.base.width + 1.2, u.base.depth + 1.2),
                self.mat(Color::srgb(0.08, 0.08, 0.08)),
            )
        });
        let base_parts = (!loose).then(|| {
            (
                self.rect(u.base.width, u.base.depth),
                self.mat(fill),
                self.rect(u.base.width, strip),
                self.mat(contrast(c)),
            )
        });
        let stands: Vec<_> = look
            .stands
            .iter()
            .map(|(sb, figures)| self.stand(u, look, sb, *figures, c, loose))
            .collect();
        let whole = if look.stands.is_empty() {
            let gl = glyphs(
                look.arm,
                (u.base.width, u.base.depth),
                (None, 0),
                u.status.limbered,
                self.symbols,
                contrast(c),
            );
            self.glyph_parts(&gl, 0.04)
        } else {
            Vec::new()
        };
        let disc = look.general.then(|| {
            (
                self.circle(u.base.width.min(u.base.depth) * 0.3),
                self.mat(Color::srgb(0.85, 0.68, 0.2)),
            )
        });
        let mut e = self.commands.spawn((
            UnitVisual,
            Transform::from_translation(pos).with_rotation(rot),
            Visibility::default(),
        ));
        if let Some(from) = from {
            e.insert(Tween::new(from, &u.base));
        }
        if let Some((mesh, mat, _, _)) = &base_parts {
            e.insert((mesh.clone(), mat.clone()));
        }
        e.with_children(|p| {
            if let Some((mesh, mat)) = rim {
                p.spawn((mesh, mat, Transform::from_xyz(0.0, 0.0, -0.05)));
            }
            // The front edge, in a contrasting strip.
            if let Some((_, _, mesh, mat)) = base_parts {
                p.spawn((
                    mesh,
                    mat,
                    Transform::from_xyz(0.0, u.base.depth / 2.0 - strip / 2.0, 0.1),
                ));
            }
            for st in stands {
                st.spawn(p);
            }
            for part in whole {
                p.spawn(part);
            }
            if let Some((mesh, mat)) = disc {
                p.spawn((mesh, mat, Transform::from_xyz(0.0, 0.0, 0.05)));
            }
        });
    }

    /// One stand: outlined, filled, its figures as dots along its front.
    fn stand(
        &mut self,
        u: &Unit,
        look: &Look,
        sb: &Base,
        figures: u32,
        c: [u8; 3],
        loose: bool,
    ) -> StandParts {
        let rel = sb.centre.minus(u.base.centre);
        let (x, y) = (rel.dot(u.base.right()), rel.dot(u.base.forward()));
        let turn = Quat::from_rotation_z(-(sb.facing - u.base.facing).to_radians());
        let strip = front_strip(sb.depth);
        StandParts {
            at: Transform::from_xyz(x, y, 0.02).with_rotation(turn),
            outline: (
                self.rect(sb.width, sb.depth),
                self.mat(Color::srgb_u8(c[0] / 3, c[1] / 3, c[2] / 3)),
            ),
            fill: (
                self.rect((sb.width - 0.8).max(0.5), (sb.depth - 0.8).max(0.5)),
                self.mat(Color::srgb_u8(c[0], c[1], c[2])),
            ),
            front: loose.then(|| {
                (
                    self.rect(sb.width, strip),
                    self.mat(contrast(c)),
                    sb.depth / 2.0 - strip / 2.0,
                )
            }),
            figures: {
                let coat = contrast(c);
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
                    coat,
                );
                self.glyph_parts(&gl, 0.03)
            },
        }
    }

    /// The troop code and status, upright whatever the facing; the unit's name, shown on demand.
    fn label(&mut self, u: &Unit, look: &Look, c: [u8; 3], from: Option<&Base>) {
        // Figure units carry their label just behind their rear edge, clear of the figures.
        let behind = look.label_behind;
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
            TextColor(if look.label_dark {
                Color::srgb(0.1, 0.1, 0.1)
            } else {
                contrast(c)
            }),
            Transform::from_translation(label_spot(&u.base)).with_scale(Vec3::splat(0.25)),
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

    /// Disorder, hits, garrison and shaken markers round the base.
    fn markers(&mut self, u: &Unit, look: &Look, garrison: bool) {
        let (w, d) = (u.base.width, u.base.depth);
        if u.status.disordered {
            // Disordered: an orange diamond behind the base's middle.
            let mesh = self.rect(3.6, 3.6);
            let rot = std::f32::consts::FRAC_PI_4;
            self.marker(
                u.base.local(0.0, -d / 2.0 - 3.0),
                mesh,
                Color::srgb(0.95, 0.5, 0.1),
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
        if garrison {
            // Garrison: a dark square at the rear left corner.
            let at = u.base.local(-w / 2.0 + 2.5, -d / 2.0 + 2.5);
            let mesh = self.rect(3.5, 3.5);
            self.marker(at, mesh, Color::srgb(0.35, 0.05, 0.05), 0.0);
        }
        if u.status.shaken {
            let at = u.base.local(w / 2.0 - 3.0, -d / 2.0 - 3.0);
            let mesh = Mesh2d(self.shared.ring(self.meshes, 1.2, 2.4));
            self.marker(at, mesh, Color::srgb(0.95, 0.8, 0.1), 0.0);
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
    let g = |w: f32, h: f32, x: f32, y: f32, turn: f32, colour: Color| Glyph {
        w,
        h,
        x,
        y,
        turn,
        colour,
    };
    let front = d / 2.0 - front_strip(d);
    let mut out = Vec::new();
    if symbols {
        let diag = (w * w + d * d).sqrt() * 0.8;
        let angle = d.atan2(w);
        let line = (d.min(w) * 0.08).clamp(0.5, 1.5);
        match arm {
            Figures::Foot => {
                out.push(g(diag, line, 0.0, 0.0, angle, coat));
                out.push(g(diag, line, 0.0, 0.0, -angle, coat));
            }
            Figures::Horse => out.push(g(diag, line, 0.0, 0.0, angle, coat)),
            Figures::Guns => out.push(g(d.min(w) * 0.35, d.min(w) * 0.35, 0.0, 0.0, 0.0, coat)),
            Figures::Train => {
                out.push(g(w * 0.6, line, 0.0, 0.0, 0.0, coat));
                out.push(g(line, d * 0.5, 0.0, 0.0, 0.0, coat));
            }
            Figures::Command => {}
        }
        return out;
    }
    match arm {
        Figures::Foot => {
            let full = if count.is_some() {
                per.max(1)
            } else {
                ((w / 3.2).floor() as u32).max(2) * 2
            };
            let n = count.unwrap_or(full);
            let ranks = if d >= 7.0 && full >= 4 { 2 } else { 1 };
            let per_rank = full.div_ceil(ranks).max(1);
            let gap = w / per_rank as f32;
            let fw = (gap * 0.72).min(2.6);
            for k in 0..n {
                let (rank, file) = (k / per_rank, k % per_rank);
                let x = -w / 2.0 + gap * (file as f32 + 0.5);
                let y = front - 1.4 - rank as f32 * 2.4;
                out.push(g(fw, 1.7, x, y, 0.0, coat));
            }
        }
        Figures::Horse => {
            let full = if count.is_some() {
                per.max(1)
            } else {
                ((w / 5.5).floor() as u32).max(2)
            };
            let n = count.unwrap_or(full);
            let gap = w / full as f32;
            let hw = (gap * 0.5).min(2.6);
            let hl = (d * 0.55).clamp(2.0, 6.0);
            for k in 0..n {
                let x = -w / 2.0 + gap * (k as f32 + 0.5);
                let y = front - hl / 2.0 - 0.4;
                out.push(g(hw, hl, x, y, 0.0, HORSE));
                out.push(g(hw * 0.9, hw * 0.9, x, y - hl * 0.1, 0.0, coat));
            }
        }
        Figures::Guns => {
            let guns = if w > 30.0 { 2 } else { 1 };
            let gap = w / guns as f32;
            let len = (d * 0.45).clamp(2.5, 10.0);
            for k in 0..guns {
                let x = -w / 2.0 + gap * (k as f32 + 0.5);
                let y = front - len / 2.0 - 0.3;
                out.push(g(len * 0.45, len * 0.25, x, y - len * 0.35, 0.0, WOOD));
                out.push(g(
                    len * 0.08,
                    len * 0.3,
                    x - len * 0.25,
                    y - len * 0.35,
                    0.0,
                    IRON,
                ));
                out.push(g(
                    len * 0.08,
                    len * 0.3,
                    x + len * 0.25,
                    y - len * 0.35,
                    0.0,
                    IRON,
                ));
                out.push(g(len * 0.13, len, x, y, 0.0, IRON));
                if limbered {
                    out.push(g(len * 0.4, len * 0.3, x, y - len * 1.0, 0.0, WOOD));
                    out.push(g(
                        len * 0.18,
                        len * 0.45,
                        x - len * 0.12,
                        y - len * 1.45,
                        0.0,
                        HORSE,
                    ));
                    out.push(g(
                        len * 0.18,
                        len * 0.45,
                        x + len * 0.12,
                        y - len * 1.45,
                        0.0,
                        HORSE,
                    ));
                }
            }
            // The crew beside the guns.
            let crew = count.unwrap_or(3).min(8);
            for k in 0..crew {
                let x = -w / 2.0 + w * (k as f32 + 0.5) / crew as f32;
                out.push(g(1.2, 1.2, x, -d / 2.0 + 1.6, 0.0, coat));
            }
        }
        Figures::Train => {
            out.push(g(w * 0.5, d * 0.3, 0.0, 0.0, 0.0, WOOD));
            out.push(g(
                w * 0.5,
                d * 0.08,
                0.0,
                d * 0.05,
                0.0,
                Color::srgb(0.85, 0.82, 0.72),
            ));
        }
        Figures::Command => {}
    }
    out
}

/// A stand's meshes and materials, made before its parent is spawned.
struct StandParts {
    at: Transform,
    outline: (Mesh2d, MeshMaterial2d<ColorMaterial>),
    fill: (Mesh2d, MeshMaterial2d<ColorMaterial>),
    front: Option<(Mesh2d, MeshMaterial2d<ColorMaterial>, f32)>,
    figures: Vec<(Mesh2d, MeshMaterial2d<ColorMaterial>, Transform)>,
}

impl StandParts {
    fn spawn(self, p: &mut ChildSpawnerCommands) {
        let StandParts {
            at,
            outline,
            fill,
            front,
            figures,
        } = self;
        p.spawn((outline.0, outline.1, at)).with_children(|q| {
            q.spawn((fill.0, fill.1, Transform::from_xyz(0.0, 0.0, 0.01)));
            if let Some((mesh, mat, y)) = front {
                q.spawn((mesh, mat, Transform::from_xyz(0.0, y, 0.02)));
            }
            for (mesh, mat, at) in figures {
                q.spawn((mesh, mat, at));
            }
        });
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

/// Black or white, whichever reads better on the side's colour.
/// The depth of the contrasting strip that marks a base's front edge.
fn front_strip(depth: f32) -> f32 {
    depth.min(12.0) * 0.25
}

fn contrast(c: [u8; 3]) -> Color {
    let luma = 0.299 * c[0] as f32 + 0.587 * c[1] as f32 + 0.114 * c[2] as f32;
    if luma > 140.0 {
        Color::srgb(0.08, 0.08, 0.08)
    } else {
        Color::srgb(0.97, 0.97, 0.95)
    }
}
