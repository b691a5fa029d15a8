//! The side panel, docked at the right: the tutor, the dice about to be thrown, the last roll
//! and the unit card.

use super::rolls::{last_roll_section, preview_section};
use super::unit_card::unit_section;
use super::{FOLDED, dock_root};
use crate::app::state::{Docks, Pointer, SIDE_WIDTH, Screen, Selection};
use crate::app::{Game, Intent, PanelSystems};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        side_dock.in_set(PanelSystems::SideDock),
    );
}

/// The side panel, docked at the right: the tutor first (in a lesson), then the dice about to
/// be thrown, the last roll, and the unit; it scrolls rather than grows over the table, and
/// folds to a strip.
#[expect(clippy::too_many_arguments, reason = "a Bevy system's parameters")]
fn side_dock(
    mut ctx: EguiContexts,
    mut game: ResMut<Game>,
    mut sel: ResMut<Selection>,
    ptr: Res<Pointer>,
    mut intents: MessageWriter<Intent>,
    tutoring: Option<Res<crate::app::lesson::Tutoring>>,
    mut screen: ResMut<NextState<Screen>>,
    time: Res<Time>,
    mut rolling: Local<(usize, f32)>,
    mut docks: ResMut<Docks>,
    computer: Option<Res<crate::app::opponent::Computer>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let opponent = computer.as_deref().map(|c| c.side);
    let mut root = dock_root(ctx, &docks, false);
    if let Some(top) = ctx.memory(|m| m.area_rect(egui::Id::new("turn"))) {
        docks.top = top.bottom();
    }
    if !docks.side_open {
        let r = egui::Panel::right("side_folded")
            .resizable(false)
            .exact_size(FOLDED)
            .show(&mut root, |ui| {
                if ui
                    .button("◀")
                    .on_hover_text("Open the side panel: tutor, dice, unit")
                    .clicked()
                {
                    docks.side_open = true;
                }
            });
        docks.right = r.response.rect.width();
        return Ok(());
    }
    let r = egui::Panel::right("side")
        .resizable(true)
        .default_size(SIDE_WIDTH)
        .size_range(240.0..=560.0)
        .show(&mut root, |ui| {
            ui.horizontal(|ui| {
                if ui
                    .small_button("▶")
                    .on_hover_text("Fold the side panel away")
                    .clicked()
                {
                    docks.side_open = false;
                }
                ui.strong(&game.play.info.name);
            });
            egui::ScrollArea::vertical()
                .id_salt("side_scroll")
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    if let Some(t) = &tutoring {
                        tutor_section(ui, t, &mut intents, &mut screen);
                        ui.separator();
                    }
                    preview_section(ui, &mut game, &mut intents);
                    last_roll_section(ui, &game, &time, &mut rolling);
                    egui::CollapsingHeader::new(egui::RichText::new("Unit").strong())
                        .id_salt("unit_section")
                        .default_open(true)
                        .show(ui, |ui| {
                            if let Some(cmd) =
                                unit_section(ui, &game, &mut sel, &ptr, &mut intents, opponent)
                            {
                                game.pending = Some(cmd);
                            }
                        });
                });
        });
    docks.right = r.response.rect.width();
    Ok(())
}

/// The tutor: the step's words, what it made of the last command, Next or Show me.
fn tutor_section(
    ui: &mut egui::Ui,
    t: &crate::app::lesson::Tutoring,
    intents: &mut MessageWriter<Intent>,
    screen: &mut NextState<Screen>,
) {
    let tutor = &t.tutor;
    let n = tutor.lesson.steps.len();
    ui.colored_label(
        egui::Color32::from_rgb(255, 200, 90),
        egui::RichText::new(format!("Tutorial: {}", tutor.lesson.title)).strong(),
    );
    match tutor.current() {
        Some(step) => {
            ui.small(format!("Step {} of {n}", tutor.step + 1));
            ui.add(egui::ProgressBar::new(tutor.step as f32 / n as f32).desired_height(4.0));
            ui.add_space(4.0);
            ui.label(egui::RichText::new(&step.text).size(15.0));
            if let Some(said) = &tutor.said {
                ui.add_space(4.0);
                ui.colored_label(egui::Color32::from_rgb(255, 200, 90), said);
            }
            ui.add_space(6.0);
            ui.horizontal(|ui| match &step.expect {
                crate::text::lesson::Expect::Read => {
                    if ui.button("Next").clicked() {
                        intents.write(Intent::Next);
                    }
                }
                _ => {
                    if ui
                        .button("Show me")
                        .on_hover_text("Do what this step asks, for you")
                        .clicked()
                    {
                        intents.write(Intent::ShowMe);
                    }
                }
            });
        }
        None => {
            ui.heading("Lesson complete");
            ui.label(
                "The lesson's dice are spent: choose a scenario on the title screen to play a whole game.",
            );
            if ui.button("Back to the title screen").clicked() {
                screen.set(Screen::Title);
            }
        }
    }
}
