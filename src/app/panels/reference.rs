//! The rules reference (F1): the ruleset's tables and its rulings.

use super::rolls::{Why, why_answer, why_id};
use crate::app::state::Overlays;
use crate::app::{Game, PanelSystems};
use crate::rules::ruleset::{RefSection, books};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        rules_reference.in_set(PanelSystems::Reference),
    );
}

fn rules_reference(
    mut ctx: EguiContexts,
    game: Res<Game>,
    mut overlays: ResMut<Overlays>,
    mut asked: Local<Option<Why>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    if let Some(w) = ctx.data_mut(|d| d.remove_temp::<Why>(why_id())) {
        *asked = Some(w);
        overlays.rules = true;
    }
    if !overlays.rules {
        *asked = None;
        return Ok(());
    }
    let r = game.play.rules.reference();
    let mut clear = false;
    egui::Window::new(format!("Rules reference: {}", r.title))
        .id(egui::Id::new("rules_reference"))
        .open(&mut overlays.rules)
        .default_size([560.0, 480.0])
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                if let Some(w) = asked.as_ref() {
                    why_answer(ui, w, &r);
                    clear = ui.button("The whole reference").clicked();
                    ui.separator();
                }
                ui.label(format!("From: {}", r.source));
                for (k, sec) in r.sections.iter().enumerate() {
                    egui::CollapsingHeader::new(&sec.title)
                        .default_open(sec.open)
                        .show(ui, |ui| reference_section(ui, k, sec));
                }
                rulings_list(ui, &r.rulings_title, &r.rulings);
            });
        });
    if clear {
        *asked = None;
    }
    Ok(())
}

/// A section of the rules reference: a striped table, or a list; each row's source on hover.
fn reference_section(ui: &mut egui::Ui, k: usize, sec: &RefSection) {
    if sec.columns.is_empty() {
        for row in &sec.rows {
            ui.label(row.cells.join("  "))
                .on_hover_text(books::cite(&row.source));
        }
        return;
    }
    egui::Grid::new(("reference", k))
        .striped(true)
        .show(ui, |ui| {
            for h in &sec.columns {
                ui.strong(h);
            }
            ui.end_row();
            for row in &sec.rows {
                for (i, c) in row.cells.iter().enumerate() {
                    if i == 0 {
                        ui.label(c).on_hover_text(books::cite(&row.source));
                    } else {
                        ui.label(c);
                    }
                }
                ui.end_row();
            }
        });
}

/// The rulings of a ruleset, each with its reason.
fn rulings_list(ui: &mut egui::Ui, title: &str, rulings: &[crate::rules::ruleset::Ruling]) {
    egui::CollapsingHeader::new(title)
        .default_open(true)
        .show(ui, |ui| {
            for r in rulings {
                ui.strong(&r.topic);
                ui.label(&r.ruling);
                ui.small(format!("Why: {}", r.reason));
                ui.add_space(4.0);
            }
        });
}
