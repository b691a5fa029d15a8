//! The table's art, drawn in code and painted once into one image of the whole table: fields
//! mottled, woods as tree canopies with their shadows, hills in graded contour bands, towns as
//! roofs among gardens, roads with verges, rivers with banks, marsh with reeds and pools, works
//! with parapet and ditch. Each frame then draws one textured rectangle: quick under software
//! rendering whatever the terrain holds.

use crate::rules::geometry::Pt;
use crate::rules::terrain::{Feature, FeatureKind};
use bevy::asset::RenderAssetUsages;
use bevy::image::{Image, ImageFilterMode, ImageSampler, ImageSamplerDescriptor};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// A colour in linear space, as vertex colours want it.
pub type Rgba = [f32; 4];

/// An sRGB colour as a vertex colour.
pub fn rgb(r: f32, g: f32, b: f32) -> Rgba {
    Color::srgb(r, g, b).to_linear().to_f32_array()
}

fn shade(c: Rgba, k: f32) -> Rgba {
    [c[0] * k, c[1] * k, c[2] * k, c[3]]
}

fn mix(a: Rgba, b: Rgba, t: f32) -> Rgba {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
        a[3] + (b[3] - a[3]) * t,
    ]
}

/// A repeatable pseudo-random number in [0, 1) for a place and a salt: the same table always
/// draws the same trees.
pub fn hash(x: f32, y: f32, salt: u32) -> f32 {
    let mut h = (x.to_bits() as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((y.to_bits() as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
        .wrapping_add((salt as u64).wrapping_mul(0x1656_67B1_9E37_79F9));
    h ^= h >> 31;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 29;
    (h >> 40) as f32 / (1u64 << 24) as f32
}

/// Smooth value noise in [0, 1): the hash on a lattice, blended between its points.
fn noise(x: f32, y: f32, salt: u32) -> f32 {
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let s = |t: f32| t * t * (3.0 - 2.0 * t);
    let (sx, sy) = (s(fx), s(fy));
    let a = hash(x0, y0, salt);
    let b = hash(x0 + 1.0, y0, salt);
    let c = hash(x0, y0 + 1.0, salt);
    let d = hash(x0 + 1.0, y0 + 1.0, salt);
    (a + (b - a) * sx) + ((c + (d - c) * sx) - (a + (b - a) * sx)) * sy
}

/// Triangles with a colour at every corner, to be painted into the table's image.
#[derive(Default)]
pub struct Canvas {
    pos: Vec<[f32; 3]>,
    col: Vec<Rgba>,
}

impl Canvas {
    pub fn tri3(&mut self, p: [Pt; 3], c: [Rgba; 3]) {
        for (q, k) in p.iter().zip(c) {
            self.pos.push([q.x, q.y, 0.0]);
            self.col.push(k);
        }
    }

    pub fn tri(&mut self, a: Pt, b: Pt, c: Pt, col: Rgba) {
        self.tri3([a, b, c], [col; 3]);
    }

    pub fn tris(&mut self, tris: &[[Pt; 3]], col: Rgba) {
        for t in tris {
            self.tri(t[0], t[1], t[2], col);
        }
    }

    pub fn quad(&mut self, a: Pt, b: Pt, c: Pt, d: Pt, col: Rgba) {
        self.tri(a, b, c, col);
        self.tri(a, c, d, col);
    }

    pub fn disc(&mut self, c: Pt, r: f32, col: Rgba, segs: usize) {
        let segs = segs.max(3);
        let at = |k: usize| {
            let a = k as f32 / segs as f32 * std::f32::consts::TAU;
            Pt::new(c.x + r * a.cos(), c.y + r * a.sin())
        };
        for k in 0..segs {
            self.tri(c, at(k), at(k + 1), col);
        }
    }

    /// A rectangle turned by `angle` radians.
    pub fn rect(&mut self, c: Pt, w: f32, h: f32, angle: f32, col: Rgba) {
        let (s, co) = angle.sin_cos();
        let p = |x: f32, y: f32| Pt::new(c.x + x * co - y * s, c.y + x * s + y * co);
        self.quad(
            p(-w / 2.0, -h / 2.0),
            p(w / 2.0, -h / 2.0),
            p(w / 2.0, h / 2.0),
            p(-w / 2.0, h / 2.0),
            col,
        );
    }

    /// A band of this width along a line, with rounded joints.
    pub fn band(&mut self, pts: &[Pt], width: f32, col: Rgba, closed: bool) {
        let n = pts.len();
        if n < 2 {
            return;
        }
        let segs = if closed { n } else { n - 1 };
        for i in 0..segs {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            let d = b.minus(a);
            let len = d.dot(d).sqrt();
            if len < 1e-4 {
                continue;
            }
            let nx = Pt::new(-d.y / len * width / 2.0, d.x / len * width / 2.0);
            self.quad(
                Pt::new(a.x + nx.x, a.y + nx.y),
                Pt::new(b.x + nx.x, b.y + nx.y),
                Pt::new(b.x - nx.x, b.y - nx.y),
                Pt::new(a.x - nx.x, a.y - nx.y),
                col,
            );
        }
        let joints = if closed { 0..n } else { 1..n - 1 };
        for i in joints {
            self.disc(pts[i], width / 2.0, col, 8);
        }
    }
}

/// The colour a feature reads as at a glance (its fill; the legend and the mini-map use it).
pub fn colour(kind: FeatureKind) -> Rgba {
    match kind {
        FeatureKind::Woods => rgb(0.20, 0.36, 0.17),
        FeatureKind::Hill => rgb(0.66, 0.62, 0.42),
        FeatureKind::Town => rgb(0.62, 0.56, 0.46),
        FeatureKind::Village => rgb(0.55, 0.60, 0.40),
        FeatureKind::Marsh => rgb(0.40, 0.52, 0.46),
        FeatureKind::Rough => rgb(0.60, 0.57, 0.44),
        FeatureKind::Fortification => rgb(0.52, 0.45, 0.33),
        FeatureKind::River => rgb(0.27, 0.45, 0.66),
        FeatureKind::Stream => rgb(0.36, 0.56, 0.74),
        FeatureKind::Road => rgb(0.78, 0.70, 0.52),
        FeatureKind::Bridge => rgb(0.50, 0.38, 0.26),
        FeatureKind::Causeway => rgb(0.66, 0.62, 0.52),
    }
}

/// The open fields: a ground colour mottled on a grid, with paler and darker patches.
pub fn fields(width: f32, height: f32) -> Canvas {
    let mut c = Canvas::default();
    let base = rgb(0.50, 0.60, 0.35);
    let cell = (width.max(height) / 60.0).max(10.0);
    let (nx, ny) = (
        (width / cell).ceil() as usize,
        (height / cell).ceil() as usize,
    );
    let tint = |x: f32, y: f32| {
        // Broad patches (fields), a warmer stubble here and there, and a fine grain.
        let broad = noise(x / (cell * 6.0), y / (cell * 5.0), 7);
        let fine = hash(x, y, 11);
        let k = 0.93 + broad * 0.12 + fine * 0.04;
        let warm = noise(x / (cell * 9.0), y / (cell * 7.0), 3);
        mix(
            shade(base, k),
            rgb(0.64, 0.63, 0.40),
            ((warm - 0.55) * 1.6).clamp(0.0, 0.45),
        )
    };
    for i in 0..nx {
        for j in 0..ny {
            let (x0, y0) = (i as f32 * cell, j as f32 * cell);
            let (x1, y1) = (
                ((i + 1) as f32 * cell).min(width),
                ((j + 1) as f32 * cell).min(height),
            );
            let p = [
                Pt::new(x0, y0),
                Pt::new(x1, y0),
                Pt::new(x1, y1),
                Pt::new(x0, y1),
            ];
            let k: Vec<Rgba> = p.iter().map(|q| tint(q.x, q.y)).collect();
            c.tri3([p[0], p[1], p[2]], [k[0], k[1], k[2]]);
            c.tri3([p[0], p[2], p[3]], [k[0], k[2], k[3]]);
        }
    }
    c
}

/// The triangles of a feature scaled about its centre.
fn scaled(tris: &[[Pt; 3]], centre: Pt, k: f32) -> Vec<[Pt; 3]> {
    let s = |p: Pt| {
        Pt::new(
            centre.x + (p.x - centre.x) * k,
            centre.y + (p.y - centre.y) * k,
        )
    };
    tris.iter().map(|t| [s(t[0]), s(t[1]), s(t[2])]).collect()
}

/// Points on a jittered grid inside a feature, `gap` apart.
fn scatter(f: &Feature, gap: f32, salt: u32) -> Vec<(Pt, f32)> {
    let (lo, hi) = f.bounds();
    // A huge feature spreads its points wider, so that the grid never passes 40,000 cells.
    let cells = ((hi.x - lo.x) * (hi.y - lo.y)).max(0.0) / (gap * gap);
    let gap = if cells > 40_000.0 {
        gap * (cells / 40_000.0).sqrt()
    } else {
        gap
    };
    let mut out = Vec::new();
    let mut y = lo.y + gap / 2.0;
    let mut row = 0;
    while y < hi.y {
        let mut x = lo.x + gap / 2.0 + if row % 2 == 0 { 0.0 } else { gap / 2.0 };
        while x < hi.x {
            let r = hash(x, y, salt);
            let p = Pt::new(
                x + (hash(x, y, salt + 1) - 0.5) * gap * 0.6,
                y + (hash(x, y, salt + 2) - 0.5) * gap * 0.6,
            );
            if f.contains(p) {
                out.push((p, r));
            }
            x += gap;
        }
        y += gap * 0.87;
        row += 1;
        if out.len() > 20_000 {
            break;
        }
    }
    out
}

/// The most trees a wood's bounding box holds (bounds the triangles a wood costs).
const MAX_TREES: f32 = 350.0;

/// One feature's art.
pub fn feature(f: &Feature) -> Canvas {
    let mut c = Canvas::default();
    let tris = f.triangles();
    let fill = colour(f.kind);
    let (lo, hi) = f.bounds();
    let centre = Pt::new((lo.x + hi.x) / 2.0, (lo.y + hi.y) / 2.0);
    match f.kind {
        FeatureKind::Hill => hill(&mut c, f, &tris, fill, centre),
        FeatureKind::Woods => woods(&mut c, f, &tris, fill, (lo, hi)),
        FeatureKind::Town | FeatureKind::Village => town(&mut c, f, &tris, fill, (lo, hi)),
        FeatureKind::Marsh => {
            c.tris(&tris, fill);
            for (p, r) in scatter(f, 8.0, 61) {
                if r < 0.3 {
                    c.rect(p, 6.0, 2.4, 0.0, rgb(0.36, 0.52, 0.62));
                } else {
                    let reed = rgb(0.30, 0.40, 0.25);
                    for k in [-1.0f32, 0.0, 1.0] {
                        c.rect(Pt::new(p.x + k * 0.9, p.y + 1.0), 0.35, 2.4, k * 0.3, reed);
                    }
                }
            }
        }
        FeatureKind::Rough => {
            c.tris(&tris, fill);
            for (p, r) in scatter(f, 7.0, 71) {
                c.disc(p, 0.8 + r * 1.2, rgb(0.48, 0.46, 0.40), 6);
            }
        }
        FeatureKind::Fortification => {
            c.band(&f.points, 5.0, rgb(0.28, 0.26, 0.22), true);
            c.tris(&tris, fill);
            c.band(&f.points, 2.2, rgb(0.40, 0.33, 0.22), true);
            c.band(&f.points, 0.6, rgb(0.75, 0.68, 0.50), true);
        }
        FeatureKind::River | FeatureKind::Stream => {
            let w = f.width.max(1.0);
            c.band(&f.points, w + 3.0, rgb(0.36, 0.40, 0.24), false);
            c.band(&f.points, w, fill, false);
            c.band(&f.points, w * 0.35, shade(fill, 1.25), false);
        }
        FeatureKind::Road | FeatureKind::Causeway => {
            let w = f.width.max(1.0);
            c.band(&f.points, w + 3.0, rgb(0.58, 0.62, 0.38), false);
            if f.kind == FeatureKind::Causeway {
                c.band(&f.points, w + 1.0, rgb(0.40, 0.36, 0.30), false);
            }
            c.band(&f.points, w, fill, false);
            c.band(&f.points, w * 0.12, shade(fill, 0.85), false);
        }
        FeatureKind::Bridge => bridge(&mut c, f, fill),
    }
    c
}

/// A hill: a shadow to the south-east, the slope, then lighter bands up to the crest, each with
/// its contour line (darker where it is steep).
fn hill(c: &mut Canvas, f: &Feature, tris: &[[Pt; 3]], fill: Rgba, centre: Pt) {
    // A shadow to the south-east, the slope, then lighter bands up to the crest.
    let shadow: Vec<[Pt; 3]> = tris
        .iter()
        .map(|t| t.map(|p| Pt::new(p.x + 2.0, p.y - 2.5)))
        .collect();
    c.tris(&shadow, shade(fill, 0.62));
    let bands = 2 + f.level.min(3) as usize;
    for k in 0..bands {
        let s = 1.0 - k as f32 * (0.7 / bands as f32);
        let light = 0.86 + 0.1 * k as f32;
        let col = if f.steep {
            shade(fill, light * 0.85)
        } else {
            shade(fill, light)
        };
        c.tris(&scaled(tris, centre, s), col);
        // The contour line just inside each band's edge.
        let ring: Vec<Pt> = f
            .points
            .iter()
            .map(|p| {
                Pt::new(
                    centre.x + (p.x - centre.x) * s,
                    centre.y + (p.y - centre.y) * s,
                )
            })
            .collect();
        c.band(&ring, 0.7, shade(fill, 0.7), true);
    }
}

/// A wood: its ground and edge, then trees, each with its shadow.
fn woods(c: &mut Canvas, f: &Feature, tris: &[[Pt; 3]], fill: Rgba, (lo, hi): (Pt, Pt)) {
    c.tris(tris, shade(fill, 0.75));
    c.band(&f.points, 1.5, shade(fill, 0.55), true);
    let greens = [
        rgb(0.17, 0.34, 0.14),
        rgb(0.22, 0.42, 0.18),
        rgb(0.28, 0.46, 0.20),
    ];
    // Trees a few millimetres apart, fewer and larger in a great forest, so that no
    // wood costs the renderer more than a few thousand triangles.
    let area = (hi.x - lo.x) * (hi.y - lo.y);
    let gap = (area / MAX_TREES).sqrt().max(7.0);
    let trees = scatter(f, gap, 21);
    let k = gap / 7.0;
    for (p, r) in &trees {
        let rad = (3.2 + r * 2.0) * k;
        c.disc(
            Pt::new(p.x + k, p.y - 1.2 * k),
            rad,
            rgb(0.09, 0.18, 0.08),
            6,
        );
    }
    for (p, r) in &trees {
        let rad = (3.2 + r * 2.0) * k;
        let g = greens[(r * 3.0) as usize % 3];
        c.disc(*p, rad, g, 7);
        c.disc(
            Pt::new(p.x - rad * 0.3, p.y + rad * 0.3),
            rad * 0.45,
            shade(g, 1.25),
            4,
        );
    }
}

/// A town or village: gardens and yards, roofs with their ridges, and its edge (heavy and dark
/// where it is fortified).
fn town(c: &mut Canvas, f: &Feature, tris: &[[Pt; 3]], fill: Rgba, (lo, hi): (Pt, Pt)) {
    c.tris(tris, fill);
    // Gardens and yards, then roofs with their ridges.
    let (lo2, hi2) = f.bounds();
    let garden = ((hi2.x - lo2.x).min(hi2.y - lo2.y) / 5.0).clamp(9.0, 40.0);
    for (p, r) in scatter(f, garden, 41) {
        if r < 0.35 {
            c.rect(
                p,
                garden * 0.66,
                garden * 0.55,
                r * 0.6,
                rgb(0.42, 0.55, 0.32),
            );
        }
    }
    // A handful of buildings across the place, as a model town has, whatever its size.
    let side = (hi.x - lo.x).min(hi.y - lo.y);
    let across = if f.kind == FeatureKind::Town {
        3.5
    } else {
        2.5
    };
    let gap = (side / across).clamp(8.0, 60.0);
    let size = gap / 9.0;
    let roofs = [
        rgb(0.62, 0.26, 0.18),
        rgb(0.55, 0.30, 0.22),
        rgb(0.48, 0.46, 0.44),
    ];
    for (p, r) in scatter(f, gap, 43) {
        if r > 0.7 {
            continue;
        }
        let angle = (r - 0.5) * 0.4;
        let (w, h) = ((5.0 + r * 2.0) * size, 3.6 * size);
        let shadow = Pt::new(p.x + 0.6 * size, p.y - 0.6 * size);
        c.rect(shadow, w, h, angle, rgb(0.15, 0.12, 0.10));
        c.rect(p, w, h, angle, roofs[(r * 7.0) as usize % 3]);
        c.rect(p, w, 0.5 * size, angle, rgb(0.30, 0.14, 0.10));
    }
    let edge = if f.fortified {
        rgb(0.30, 0.08, 0.06)
    } else {
        shade(fill, 0.7)
    };
    c.band(&f.points, if f.fortified { 2.0 } else { 0.8 }, edge, true);
}

/// A bridge: its timbers, its deck and the planks across it.
fn bridge(c: &mut Canvas, f: &Feature, fill: Rgba) {
    let w = f.width.max(1.0);
    c.band(&f.points, w + 2.0, rgb(0.25, 0.18, 0.12), false);
    c.band(&f.points, w, fill, false);
    // Planks across the deck.
    for s in f.points.windows(2) {
        let d = s[1].minus(s[0]);
        let len = d.dot(d).sqrt();
        let n = (len / 2.5) as usize;
        let angle = d.y.atan2(d.x) + std::f32::consts::FRAC_PI_2;
        for k in 1..n {
            let t = k as f32 / n as f32;
            let p = Pt::new(s[0].x + d.x * t, s[0].y + d.y * t);
            c.rect(p, w, 0.35, angle, shade(fill, 0.7));
        }
    }
}

/// The longest side of the table's image, in pixels.
const MAX_PX: f32 = 4096.0;

/// The table painted into an image, pixel rows from the far (top) edge.
pub struct Raster {
    pub w: usize,
    pub h: usize,
    /// Pixels per millimetre.
    scale: f32,
    height_mm: f32,
    data: Vec<u8>,
}

impl Raster {
    pub fn new(width_mm: f32, height_mm: f32) -> Self {
        let scale = (MAX_PX / width_mm.max(height_mm).max(1.0)).min(3.0);
        let w = ((width_mm * scale).ceil() as usize).max(1);
        let h = ((height_mm * scale).ceil() as usize).max(1);
        Raster {
            w,
            h,
            scale,
            height_mm,
            data: vec![255; w * h * 4],
        }
    }

    /// Paints a canvas's triangles over what is there, their corners' colours blended across.
    pub fn paint(&mut self, c: &Canvas) {
        let srgb = |k: Rgba| {
            let s = Color::LinearRgba(LinearRgba::from_f32_array(k)).to_srgba();
            [s.red * 255.0, s.green * 255.0, s.blue * 255.0]
        };
        for (t, k) in c.pos.chunks_exact(3).zip(c.col.chunks_exact(3)) {
            let p = |i: usize| {
                [
                    t[i][0] * self.scale,
                    (self.height_mm - t[i][1]) * self.scale,
                ]
            };
            self.triangle([p(0), p(1), p(2)], [srgb(k[0]), srgb(k[1]), srgb(k[2])]);
        }
    }

    fn triangle(&mut self, p: [[f32; 2]; 3], k: [[f32; 3]; 3]) {
        let edge = |a: [f32; 2], b: [f32; 2], x: f32, y: f32| {
            (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])
        };
        let area = edge(p[0], p[1], p[2][0], p[2][1]);
        if area.abs() < 1e-6 {
            return;
        }
        let lo = |i: usize| p.iter().map(|q| q[i]).fold(f32::MAX, f32::min);
        let hi = |i: usize| p.iter().map(|q| q[i]).fold(f32::MIN, f32::max);
        let x0 = lo(0).floor().max(0.0) as usize;
        let x1 = (hi(0).ceil().max(0.0) as usize).min(self.w);
        let y0 = lo(1).floor().max(0.0) as usize;
        let y1 = (hi(1).ceil().max(0.0) as usize).min(self.h);
        for y in y0..y1 {
            let py = y as f32 + 0.5;
            for x in x0..x1 {
                let px = x as f32 + 0.5;
                let w0 = edge(p[1], p[2], px, py) / area;
                let w1 = edge(p[2], p[0], px, py) / area;
                let w2 = 1.0 - w0 - w1;
                if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                    continue;
                }
                let i = (y * self.w + x) * 4;
                for (ch, out) in self.data[i..i + 3].iter_mut().enumerate() {
                    let v = k[0][ch] * w0 + k[1][ch] * w1 + k[2][ch] * w2;
                    *out = v.round().clamp(0.0, 255.0) as u8;
                }
            }
        }
    }

    /// Blends `colour` at `alpha` over the pixels of a rectangle of the table (in mm).
    pub fn tint(&mut self, min: Pt, max: Pt, colour: [u8; 3], alpha: f32) {
        let x0 = ((min.x * self.scale).floor().max(0.0) as usize).min(self.w);
        let x1 = ((max.x * self.scale).ceil().max(0.0) as usize).min(self.w);
        let y0 = (((self.height_mm - max.y) * self.scale).floor().max(0.0) as usize).min(self.h);
        let y1 = (((self.height_mm - min.y) * self.scale).ceil().max(0.0) as usize).min(self.h);
        let a = alpha.clamp(0.0, 1.0);
        for y in y0..y1 {
            for x in x0..x1 {
                let i = (y * self.w + x) * 4;
                for (ch, out) in self.data[i..i + 3].iter_mut().enumerate() {
                    let v = f32::from(*out) * (1.0 - a) + f32::from(colour[ch]) * a;
                    *out = v.round().clamp(0.0, 255.0) as u8;
                }
            }
        }
    }

    /// The image, with its chain of mipmaps: the table is drawn shrunk in most views, and a
    /// software renderer samples a shrunk level far faster than the full one.
    pub fn image(self) -> Image {
        let (data, levels) = mip_chain(self.data, self.w, self.h);
        let mut image = Image::new_uninit(
            Extent3d {
                width: self.w as u32,
                height: self.h as u32,
                depth_or_array_layers: 1,
            },
            TextureDimension::D2,
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::RENDER_WORLD,
        );
        image.data = Some(data);
        image.texture_descriptor.mip_level_count = levels;
        image.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
            mag_filter: ImageFilterMode::Linear,
            min_filter: ImageFilterMode::Linear,
            mipmap_filter: ImageFilterMode::Nearest,
            ..default()
        });
        image
    }
}

/// An RGBA8 image followed by each level halved (2x2 box filter), down to one pixel; and the
/// number of levels.
fn mip_chain(base: Vec<u8>, w: usize, h: usize) -> (Vec<u8>, u32) {
    let mut out = base;
    let (mut w, mut h, mut at) = (w, h, 0);
    let mut levels = 1;
    while w > 1 || h > 1 {
        let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
        let mut next = vec![0u8; nw * nh * 4];
        for y in 0..nh {
            for x in 0..nw {
                for ch in 0..4 {
                    let mut sum = 0u32;
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let sx = (x * 2 + dx).min(w - 1);
                        let sy = (y * 2 + dy).min(h - 1);
                        sum += u32::from(out[at + (sy * w + sx) * 4 + ch]);
                    }
                    next[(y * nw + x) * 4 + ch] = sum.div_ceil(4) as u8;
                }
            }
        }
        at = out.len();
        out.extend_from_slice(&next);
        (w, h) = (nw, nh);
        levels += 1;
    }
    (out, levels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mipmaps_halve_down_to_one_pixel() {
        // 4 x 2 pixels: levels 4x2, 2x1, 1x1.
        let base: Vec<u8> = (0..8u8).flat_map(|i| [i * 10, 0, 0, 255]).collect();
        let (data, levels) = mip_chain(base, 4, 2);
        assert_eq!(levels, 3);
        assert_eq!(data.len(), (8 + 2 + 1) * 4);
        // The first pixel of level 1 averages pixels 0, 1, 4 and 5: (0 + 10 + 40 + 50) / 4.
        assert_eq!(data[32], 25);
        // The last level averages level 1's two pixels, (25 + 45) / 2.
        assert_eq!(data[40], 35);
    }

    fn pixel(r: &Raster, x: usize, y: usize) -> [u8; 3] {
        let i = (y * r.w + x) * 4;
        [r.data[i], r.data[i + 1], r.data[i + 2]]
    }

    #[test]
    fn a_triangle_fills_its_pixels_and_no_others() {
        let mut r = Raster::new(10.0, 10.0);
        let mut c = Canvas::default();
        let red = rgb(1.0, 0.0, 0.0);
        // The lower left half of the table (y up): its pixels are the image's lower rows.
        c.tri(
            Pt::new(0.0, 0.0),
            Pt::new(10.0, 0.0),
            Pt::new(0.0, 10.0),
            red,
        );
        r.paint(&c);
        assert_eq!(pixel(&r, 1, r.h - 2), [255, 0, 0]);
        assert_eq!(
            pixel(&r, r.w - 2, 1),
            [255, 255, 255],
            "the far corner is untouched"
        );
        // Painted over: the last colour wins.
        let mut c = Canvas::default();
        c.rect(Pt::new(5.0, 5.0), 10.0, 10.0, 0.0, rgb(0.0, 0.0, 1.0));
        r.paint(&c);
        assert_eq!(pixel(&r, 1, r.h - 2), [0, 0, 255]);
    }

    #[test]
    fn the_art_is_the_same_every_time_and_bounded() {
        assert_eq!(hash(1.5, 2.5, 3), hash(1.5, 2.5, 3));
        assert!((0.0..1.0).contains(&noise(3.3, 7.1, 2)));
        // A great forest still costs a bounded number of triangles.
        let corners = [(0.0, 0.0), (3000.0, 0.0), (3000.0, 3000.0), (0.0, 3000.0)];
        let points = corners.iter().map(|(x, y)| Pt::new(*x, *y)).collect();
        let f = Feature::new("w", FeatureKind::Woods, "W", points, 0.0).unwrap();
        let art = feature(&f);
        assert!(art.pos.len() < 3 * 12_000, "{} corners", art.pos.len());
    }
}
