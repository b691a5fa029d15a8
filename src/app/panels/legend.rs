//! The legend: every mark the table can show, and what it means.

use crate::app::colours::{
    DISORDERED_DIAMOND, DISORDERED_WORDS, GARRISON, HIT_PIP, OBJECTIVE, SHAKEN_RING, SHAKEN_WORDS,
    colour32, side_colour, to_egui,
};
use crate::app::state::Overlays;
use crate::app::{Game, PanelSystems};
use crate::rules::terrain::FeatureKind;
use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use bevy_egui::{EguiContexts, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, legend.in_set(PanelSystems::Legend));
}

/// A swatch and its words.
pub(super) fn key_row(ui: &mut egui::Ui, colour: egui::Color32, words: &str) {
    ui.horizontal(|ui| {
        let (r, _) = ui.allocate_exact_size(egui::vec2(22.0, 12.0), egui::Sense::hover());
        ui.painter().rect_filled(r, 2.0, colour);
        ui.add(egui::Label::new(words).wrap());
    });
}

/// The legend's units: the counters, the painted bases and their markers, the names.
pub(super) fn legend_units(ui: &mut egui::Ui, game: &Game) {
    use crate::rules::ruleset::Figures;
    let b = &game.play;
    let [r, g, bl] = b.side_colour(0);
    let fill = egui::Color32::from_rgb(r, g, bl);
    let ink = colour32(crate::app::colours::contrast([r, g, bl]));
    ui.label("Far off, each unit is a counter in its side's colour, its front the bar:");
    ui.horizontal_wrapped(|ui| {
        for (arm, words, hits) in [
            (Figures::Foot, "foot", 0),
            (Figures::Horse, "horse", 0),
            (Figures::Guns, "guns", 0),
            (Figures::Command, "general", 0),
            (Figures::Train, "train", 0),
            (Figures::Foot, "2 hits", 2),
        ] {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(34.0, 24.0), egui::Sense::hover());
            let c = crate::app::overlay::Counter::sample(rect.center(), egui::vec2(26.0, 15.0));
            c.paint(ui.painter(), arm, (fill, ink), hits, (None, None));
            ui.label(words);
        }
    });
    key_row(
        ui,
        SHAKEN_WORDS,
        "Counter outlined yellow: shaken; orange: disordered; a gold frame: selected",
    );
    ui.label(
        "Near, each base is painted: its figures in its side's colour, its front edge a \
         light or dark strip, foot with their colours, guns with crews (and limbers when \
         limbered), a general on a gold disc with his standard; the rules' code behind it.",
    );
    key_row(
        ui,
        HIT_PIP,
        "Red pips behind a base and beside its name: hits, or bases lost, as the rules count them",
    );
    key_row(
        ui,
        colour32(SHAKEN_RING),
        "Yellow ring behind a base: shaken",
    );
    key_row(
        ui,
        colour32(DISORDERED_DIAMOND),
        "Orange diamond behind a base: disordered",
    );
    key_row(
        ui,
        colour32(GARRISON),
        "Dark square in a base's corner: garrison; a dark double outline: fortified",
    );
    key_row(
        ui,
        colour32(OBJECTIVE),
        "Objective: the ring in the colour of the side that holds it, and its name",
    );
    ui.strong("Names (beside each base)");
    key_row(
        ui,
        fill,
        "A name hangs below its base (further down in steps, or above, where that is taken), \
         tied to it by a line in its side's colour",
    );
    key_row(ui, SHAKEN_WORDS, "SHAKEN, and the rules' word markers");
    key_row(ui, DISORDERED_WORDS, "DISORDERED");
}

/// The legend: the terrain on this table, the markers and the overlays' colours.
pub(super) fn legend(
    mut ctx: EguiContexts,
    game: Res<Game>,
    mut overlays: ResMut<Overlays>,
) -> Result {
    use crate::rules::ruleset::Ink;
    let ctx = ctx.ctx_mut()?;
    let b = &game.play;
    egui::Window::new("Legend")
        .anchor(egui::Align2::LEFT_TOP, [8.0, 56.0])
        .open(&mut overlays.legend)
        .collapsible(false)
        .resizable(false)
        .max_width(380.0)
        .show(ctx, |ui| {
            let tall = ui.ctx().viewport_rect().height() - 140.0;
            egui::ScrollArea::vertical()
                .max_height(tall.max(120.0))
                .show(ui, |ui| {
                    ui.strong("Terrain");
                    let mut kinds: Vec<FeatureKind> = Vec::new();
                    for f in b.terrain.features.iter() {
                        if !kinds.contains(&f.kind) {
                            kinds.push(f.kind);
                        }
                    }
                    for k in kinds {
                        key_row(
                            ui,
                            to_egui(crate::app::terrain_art::colour(k)),
                            &format!("{k:?}"),
                        );
                    }
                    ui.strong("Units");
                    for (i, s) in b.sides.iter().enumerate() {
                        key_row(ui, side_colour(&game, i), &s.name);
                    }
                    legend_units(ui, &game);
                    ui.strong("Overlays");
                    key_row(ui, ink32(Ink::Arc), "Fire arc and range (F)");
                    key_row(
                        ui,
                        ink32(Ink::Zone),
                        "Enemy zones (Z); a red ring round the selected unit: with F, how near an \
                 enemy's move lets it evade, where its rules allow evading; with Z, a \
                 general's command radius",
                    );
                    key_row(ui, ink32(Ink::Clear), "Clear line of sight (L)");
                    key_row(ui, ink32(Ink::Blocked), "Sight blocked");
                    key_row(ui, ink32(Ink::Blocker), "What blocks the sight");
                    key_row(
                        ui,
                        ink32(Ink::Reach),
                        "How far the selected unit can move now (M): the ground inside the cyan \
                 line; a wedge is cut from it where its rules let it turn only so far",
                    );
                    key_row(
                        ui,
                        ink32(Ink::ReachIf),
                        "Dashed: how far it could move if the roll that decides its move (a \
                 command roll) gives a full move; the solid line once it has rolled",
                    );
                    key_row(ui, ink32(Ink::Target), "A target it can fire at or fight");
                    key_row(
                        ui,
                        egui::Color32::from_rgb(51, 255, 77),
                        "A move's ghost and ruler (red where refused)",
                    );
                    key_row(
                        ui,
                        egui::Color32::from_rgb(255, 217, 26),
                        "The selected unit (and its group in orange); the table's deployment zones \
                 while placing",
                    );
                    key_row(
                        ui,
                        egui::Color32::from_rgb(255, 128, 0),
                        "A unit the log or the last roll names",
                    );
                    key_row(
                        ui,
                        egui::Color32::from_rgb(255, 217, 26),
                        "A tutorial's place or unit",
                    );
                });
        });
    Ok(())
}

fn ink32(i: crate::rules::ruleset::Ink) -> egui::Color32 {
    colour32(crate::app::overlay::ink(i))
}
