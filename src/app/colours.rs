//! Colours the table and the panels share: a side's colour, the colour that reads on it, and
//! Bevy's and the terrain art's colours in egui's terms.

use super::Game;
use bevy::prelude::*;
use bevy_egui::egui;

/// A side's colour as egui paints it.
pub(super) fn side_colour(game: &Game, side: usize) -> egui::Color32 {
    let c = game.play.side_colour(side);
    egui::Color32::from_rgb(c[0], c[1], c[2])
}

/// A side's colour for words on the dark panels: its own where it reads, else lightened
/// towards white until it does (Prussian blue on the turn bar).
pub(super) fn side_ink(game: &Game, side: usize) -> egui::Color32 {
    let [r, g, b] = game.play.side_colour(side).map(f32::from);
    let luma = 0.299 * r + 0.587 * g + 0.114 * b;
    let t = ((READABLE_LUMA - luma) / (255.0 - luma).max(1.0)).clamp(0.0, 1.0);
    let mix = |c: f32| (c + (255.0 - c) * t).round() as u8;
    egui::Color32::from_rgb(mix(r), mix(g), mix(b))
}

/// The least brightness of words on the dark panels.
const READABLE_LUMA: f32 = 140.0;

/// A colour as egui paints it.
pub(super) fn colour32(c: Color) -> egui::Color32 {
    let [r, g, b, _] = c.to_srgba().to_u8_array();
    egui::Color32::from_rgb(r, g, b)
}

/// A terrain art colour (linear) as egui paints it.
pub(super) fn to_egui(c: [f32; 4]) -> egui::Color32 {
    colour32(Color::LinearRgba(LinearRgba::from_f32_array(c)))
}

/// Black or white, whichever reads better on the side's colour.
pub(super) fn contrast(c: [u8; 3]) -> Color {
    let luma = 0.299 * c[0] as f32 + 0.587 * c[1] as f32 + 0.114 * c[2] as f32;
    if luma > 140.0 {
        Color::srgb(0.08, 0.08, 0.08)
    } else {
        Color::srgb(0.97, 0.97, 0.95)
    }
}

/// The sign of a shaken unit behind its base: a yellow ring.
pub(super) const SHAKEN_RING: Color = Color::srgb(0.95, 0.8, 0.1);
/// The sign of a disordered unit behind its base: an orange diamond.
pub(super) const DISORDERED_DIAMOND: Color = Color::srgb(0.95, 0.5, 0.1);
/// A garrison's square in its base's corner, and a fortification's outline.
pub(super) const GARRISON: Color = Color::srgb(0.35, 0.05, 0.05);
/// The objective's ring on the table.
pub(super) const OBJECTIVE: Color = Color::srgb(0.95, 0.85, 0.2);
/// Hits as pips beside a unit's name.
pub(super) const HIT_PIP: egui::Color32 = egui::Color32::from_rgb(235, 60, 50);
/// A shaken unit's words and counter edge.
pub(super) const SHAKEN_WORDS: egui::Color32 = egui::Color32::from_rgb(255, 215, 60);
/// A disordered unit's words and counter edge.
pub(super) const DISORDERED_WORDS: egui::Color32 = egui::Color32::from_rgb(255, 160, 60);
