//! The log, docked at the bottom: every event in words, explained, following new entries
//! unless the player reads back.

use super::rolls::ask_why;
use super::{FOLDED, claim_pointer, dock_root};
use crate::app::state::{Docks, LOG_HEIGHT, Selection};
use crate::app::{Game, PanelSystems};
use crate::rules::command::Event;
use crate::rules::command::Factor;
use crate::text::report;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, log_panel.in_set(PanelSystems::Log));
}

/// Whether the log follows new entries after a frame in which the view ended `at_bottom` or
/// not: only the player's scrolling changes it (new entries, a resize or the first frames
/// never do): scrolled up off the end, the player is reading back; scrolled down to the end
/// again, the log follows again.
pub fn log_follows(following: bool, at_bottom: bool, player_scrolled: bool) -> bool {
    if player_scrolled {
        at_bottom
    } else {
        following
    }
}

fn log_panel(
    mut ctx: EguiContexts,
    mut game: ResMut<Game>,
    replay: Option<Res<crate::app::Replay>>,
    mut docks: ResMut<Docks>,
    sel: Res<Selection>,
) -> Result {
    let upto = replay.map_or(usize::MAX, |r| r.shown);
    let ctx = ctx.ctx_mut()?;
    let mut root = dock_root(ctx, &docks, true);
    let len = game.play.log.len().min(upto);
    if !docks.log_open {
        docks.bottom = folded_log(&mut root, &game, len, &mut docks.log_open);
        claim_pointer(ctx, &mut docks, &sel);
        return Ok(());
    }
    let mut clicked = None;
    let mut follow = docks.follow;
    let r = egui::Panel::bottom("log")
        .resizable(true)
        .default_size(LOG_HEIGHT)
        .size_range(60.0..=480.0)
        .show(&mut root, |ui| {
            ui.horizontal(|ui| {
                if ui
                    .small_button("Fold")
                    .on_hover_text("Fold the log away to a line")
                    .clicked()
                {
                    docks.log_open = false;
                }
                ui.strong("Log");
                if !follow
                    && ui
                        .button("reading back — click to follow")
                        .on_hover_text("Go down to the newest entry, and follow new ones")
                        .clicked()
                {
                    follow = true;
                }
            });
            // The player scrolls the log: the wheel over it, or a press on it (its scroll bar).
            let over = ui.rect_contains_pointer(ui.available_rect_before_wrap());
            let player_scrolled =
                over && ui.input(|i| i.smooth_scroll_delta.y != 0.0 || i.pointer.primary_down());
            // Following, the view sticks to the newest entry; asked to follow again, it goes
            // down to it.
            let jump = follow && !docks.follow;
            let area = egui::ScrollArea::vertical()
                .id_salt("log_scroll")
                .stick_to_bottom(true)
                .auto_shrink([false, false]);
            let out = area.show(ui, |ui| {
                clicked = log_entries(ui, &game, upto);
                if jump {
                    ui.scroll_to_cursor(Some(egui::Align::BOTTOM));
                }
            });
            let most = (out.content_size.y - out.inner_rect.height()).max(0.0);
            let at_bottom = out.state.offset.y >= most - 4.0;
            if follow == docks.follow {
                follow = log_follows(follow, at_bottom, player_scrolled);
            }
        });
    docks.follow = follow;
    docks.bottom = r.response.rect.height();
    claim_pointer(ctx, &mut docks, &sel);
    if let Some(i) = clicked {
        entry_clicked(ctx, &mut game, i);
    }
    Ok(())
}

/// The log folded to a line: its button and the newest entry. Returns its height.
fn folded_log(root: &mut egui::Ui, game: &Game, len: usize, open: &mut bool) -> f32 {
    let r = egui::Panel::bottom("log_folded")
        .resizable(false)
        .exact_size(FOLDED)
        .show(root, |ui| {
            ui.horizontal(|ui| {
                if ui
                    .small_button("Log")
                    .on_hover_text("Open the log")
                    .clicked()
                {
                    *open = true;
                }
                if let Some(e) = game.play.log.get(len.saturating_sub(1)) {
                    ui.label(report::describe(&game.play, e));
                }
            });
        });
    r.response.rect.height()
}

/// The log's entries up to `upto`, each with the opponent's reasons before it, a phase's start
/// and the game's end in strong type. Returns the entry clicked, if any.
fn log_entries(ui: &mut egui::Ui, game: &Game, upto: usize) -> Option<usize> {
    let mut clicked = None;
    let mut reasons = game.reasons.iter().peekable();
    for (i, e) in game.play.log.iter().enumerate().take(upto) {
        while let Some((_, why)) = reasons.next_if(|(at, _)| *at <= i) {
            ui.label(
                egui::RichText::new(format!("Opponent: {why}"))
                    .italics()
                    .color(egui::Color32::from_rgb(170, 200, 255)),
            );
        }
        let text = report::describe(&game.play, e);
        let strong = matches!(e, Event::PhaseBegan { .. } | Event::GameOver { .. });
        let rich = if strong {
            egui::RichText::new(text).strong()
        } else {
            egui::RichText::new(text)
        };
        if ui
            .selectable_label(false, rich)
            .on_hover_text("Click: its units on the table, and why (its factors' sources)")
            .clicked()
        {
            clicked = Some(i);
        }
    }
    clicked
}

/// A log entry clicked: its units are highlighted on the table, and the sources of its rolls'
/// factors asked for (Why?).
fn entry_clicked(ctx: &egui::Context, game: &mut Game, i: usize) {
    let Some(e) = game.play.log.get(i) else {
        return;
    };
    let factors: Vec<Factor> = report::rolls(e)
        .into_iter()
        .flat_map(|r| r.factors)
        .filter(|f| !f.source.is_empty())
        .collect();
    if !factors.is_empty() {
        ask_why(ctx, &report::describe(&game.play, e), factors);
    }
    game.highlight = report::event_units(e);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_follows_unless_the_player_reads_back() {
        // Following: new entries, a resize or a loaded game's first frames leave the view off
        // the end without the player's doing: it goes on following.
        assert!(log_follows(true, false, false));
        assert!(log_follows(true, true, false));
        // The player scrolls up off the end: reading back.
        assert!(!log_follows(true, false, true));
        // Reading back, new entries come: still reading back.
        assert!(!log_follows(false, false, false));
        assert!(!log_follows(false, true, false));
        // Reading back, scrolled down to the end again: following again.
        assert!(log_follows(false, true, true));
        // Following, scrolling at the end: still following.
        assert!(log_follows(true, true, true));
    }
}
