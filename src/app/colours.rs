//! Colours the table and the panels share: a side's colour, the colour that reads on it, and
//! Bevy's and the terrain art's colours in egui's terms.

use super::Game;
use bevy::prelude::*;
use bevy_egui::egui;

/// A side's colour as egui paints it.
pub(super) fn side_colour(game: &Game, side: usize) -> egui::Color32 {
    let c = game.battle.side_colour(side);
    egui::Color32::from_rgb(c[0], c[1], c[2])
}

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
