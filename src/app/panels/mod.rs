//! The panels (egui): turn bar, unit card, log, combat preview with exact odds, hotseat
//! handover, game over and the rules reference.

mod legend;
mod rolls;

use super::input::{Overlays, Pointer, Selection};
use super::screens::{InGame, Menu, Screen};
use super::slots::{self, Dialog};
use super::{Game, Intent};
use crate::rules::command::Factor;
use crate::rules::command::{Command, Event};
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::{ActionGroup, RefSection, books};
use crate::text::report;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use legend::*;
use rolls::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HandoverShown>();
    app.init_resource::<Docks>().add_systems(
        EguiPrimaryContextPass,
        (
            turn_bar,
            banners,
            side_dock,
            log_panel,
            handover.run_if(in_state(Screen::Playing)),
            game_over.run_if(in_state(Screen::GameOver)),
            rules_reference,
            drag_tip,
            scale_bar,
            super::tags::unit_tags,
            hover_card,
            replay_panel,
            briefing.run_if(in_state(Screen::Briefing)),
            legend,
            mini_map,
        )
            .chain()
            .distributive_run_if(in_state(InGame)),
    );
}

pub(super) fn side_colour(game: &Game, side: usize) -> egui::Color32 {
    let c = game.battle.side_colour(side);
    egui::Color32::from_rgb(c[0], c[1], c[2])
}

#[expect(clippy::too_many_arguments, reason = "a Bevy system's parameters")]
fn turn_bar(
    mut ctx: EguiContexts,
    game: Res<Game>,
    mut overlays: ResMut<Overlays>,
    mut intents: MessageWriter<Intent>,
    mut dialog: ResMut<Dialog>,
    mut menu: ResMut<NextState<Menu>>,
    screen: Res<State<Screen>>,
    tutoring: Option<Res<super::lesson::Tutoring>>,
    replay: Option<Res<super::Replay>>,
    computer: Option<Res<super::opponent::Computer>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let width = ctx.viewport_rect().width();
    egui::Area::new(egui::Id::new("turn"))
        .anchor(egui::Align2::LEFT_TOP, [0.0, 0.0])
        .show(ctx, |ui| {
            egui::Frame::side_top_panel(ui.style()).show(ui, |ui| {
                ui.set_width(width - 16.0);
                let b = &game.battle;
                let words = b.rules.turn_words(b);
                // The controls come first, each in the same place in every phase.
                ui.horizontal_wrapped(|ui| {
                    let at_table = *screen.get() == Screen::Playing;
                    // Why a control that is there cannot be used now, said on hover.
                    let busy = if replay.is_some() {
                        Some("a replay only shows the game: close it to play".to_string())
                    } else if !at_table {
                        Some("the battle is not under way".to_string())
                    } else if computer.as_deref().is_some_and(|c| c.busy(b)) {
                        Some("the opponent is playing its part: wait, or press Skip".to_string())
                    } else {
                        None
                    };
                    let end_refused = busy.clone().or_else(|| {
                        let t = tutoring.as_deref()?;
                        match t.tutor.judge(b, &Command::EndPhase) {
                            crate::text::lesson::Verdict::Wrong(w) => Some(w),
                            crate::text::lesson::Verdict::Execute => None,
                        }
                    });
                    let end_size = [150.0, 20.0];
                    match &words.end {
                        Some(end) => {
                            if ui
                                .add_enabled_ui(end_refused.is_none(), |ui| {
                                    ui.add_sized(end_size, egui::Button::new(end))
                                })
                                .inner
                                .on_disabled_hover_text(end_refused.clone().unwrap_or_default())
                                .clicked()
                            {
                                intents.write(Intent::Do(Command::EndPhase));
                            }
                        }
                        None => {
                            ui.allocate_space(end_size.into());
                        }
                    }
                    let undo_refused = busy.clone().or_else(|| {
                        if tutoring.is_some() {
                            Some("A lesson goes forwards only: its dice are set.".into())
                        } else if b.last_command_rolled() {
                            Some(
                                "dice have been rolled or the phase has ended: that cannot be taken back"
                                    .into(),
                            )
                        } else if !b.can_undo() {
                            Some("nothing to take back".into())
                        } else {
                            None
                        }
                    });
                    if ui
                        .add_enabled(undo_refused.is_none(), egui::Button::new("Undo (Ctrl+Z)"))
                        .on_disabled_hover_text(undo_refused.unwrap_or_default())
                        .clicked()
                    {
                        intents.write(Intent::Undo);
                    }
                    if ui
                        .button("Save (Ctrl+S)")
                        .on_hover_text("Save the game in a slot of its own")
                        .clicked()
                    {
                        *dialog = Dialog::save(b);
                    }
                    let load_refused = slots::load_refused(tutoring.is_some(), replay.is_some());
                    if ui
                        .add_enabled(load_refused.is_none(), egui::Button::new("Load (Ctrl+O)"))
                        .on_disabled_hover_text(load_refused.unwrap_or_default())
                        .clicked()
                    {
                        *dialog = Dialog::load(&game.save_dir);
                    }
                    // The menu opens over the table, not over the briefing.
                    if ui
                        .add_enabled(
                            *screen.get() != Screen::Briefing,
                            egui::Button::new("Menu (Esc)"),
                        )
                        .on_hover_text("Resume, save, load, the rules, the title screen, quit")
                        .on_disabled_hover_text("Go to the table first")
                        .clicked()
                    {
                        menu.set(Menu::Open);
                    }
                    ui.separator();
                    ui.checkbox(&mut overlays.arcs, "Arcs (F)");
                    ui.checkbox(&mut overlays.zones, "Zones (Z)");
                    ui.checkbox(&mut overlays.sight, "Sight (L)");
                    ui.checkbox(&mut overlays.reach, "Reach (M)");
                    ui.checkbox(&mut overlays.rules, "Rules (F1)");
                    ui.checkbox(&mut overlays.legend, "Legend (G)");
                    ui.checkbox(&mut overlays.symbols, "Symbols (N)");
                    ui.checkbox(&mut overlays.names, "Names (I)");
                });
                // Below them, where the game stands, whole: it wraps rather than cut its own
                // words.
                ui.horizontal_wrapped(|ui| {
                    ui.strong(&b.info.name);
                    ui.label(format!("{} ·", b.rules.get().name()));
                    // A ruleset with no words for the phase (the game over) gives its name.
                    let phase = if words.phase.is_empty() {
                        b.phase.name().to_string()
                    } else {
                        format!("{} phase", words.phase)
                    };
                    let mut text = format!("{} · {phase}", report::turn_line(b));
                    if let Some(r) = &words.resources {
                        text += &format!(" · {r}");
                    }
                    ui.label(
                        egui::RichText::new(&text)
                            .strong()
                            .color(side_colour(&game, b.active)),
                    );
                });
            });
        });
    Ok(())
}

/// A banner floating over the table under the turn bar, in slot `slot` (0 the first): it
/// covers a strip of the table while shown and never moves the board.
/// Where the notice in `slot` goes: centred over the table, between the docks, under the turn
/// bar, one line per slot.
pub(super) fn banner_at(docks: &Docks, slot: usize) -> [f32; 2] {
    [-docks.right / 2.0, docks.top + 6.0 + 34.0 * slot as f32]
}

fn banner(
    ctx: &egui::Context,
    docks: &Docks,
    id: &str,
    slot: usize,
    colour: egui::Color32,
    text: &str,
) -> bool {
    let mut closed = false;
    egui::Area::new(egui::Id::new(("banner", id)))
        .anchor(egui::Align2::CENTER_TOP, banner_at(docks, slot))
        .order(egui::Order::Foreground)
        .interactable(true)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width((ctx.viewport_rect().width() - docks.right - 40.0).max(200.0));
                ui.horizontal(|ui| {
                    ui.colored_label(colour, text);
                    closed = ui.small_button("close").clicked();
                });
            });
        });
    closed
}

/// The last refusal (red) and the last word from the game (a save, a load), each in its own
/// slot over the table; a command carried out clears both.
fn banners(mut ctx: EguiContexts, mut game: ResMut<Game>, docks: Res<Docks>) -> Result {
    let ctx = ctx.ctx_mut()?;
    if let Some(m) = game.message.clone()
        && banner(
            ctx,
            &docks,
            "refusal",
            0,
            egui::Color32::from_rgb(230, 90, 70),
            &m,
        )
    {
        game.message = None;
    }
    if let Some(m) = game.notice.clone()
        && banner(
            ctx,
            &docks,
            "notice",
            1,
            egui::Color32::from_rgb(200, 210, 190),
            &m,
        )
    {
        game.notice = None;
    }
    Ok(())
}

fn unit_card(ui: &mut egui::Ui, game: &Game, u: &Unit) {
    let card = game.battle.rules.unit_card(&game.battle, u);
    ui.colored_label(
        side_colour(game, card.side),
        egui::RichText::new(&card.title).strong(),
    );
    for line in &card.lines {
        ui.label(line);
    }
}

/// The unit's buttons: each sends its command.
/// The unit's buttons. A button for a command with dice to preview (fire, fight, declare)
/// opens the preview, as a click on the target does; the others act at once. Returns the
/// command to preview.
fn action_buttons(
    ui: &mut egui::Ui,
    groups: &[ActionGroup],
    intents: &mut MessageWriter<Intent>,
) -> Option<Command> {
    let mut preview = None;
    if groups.is_empty() {
        return None;
    }
    ui.separator();
    for g in groups {
        if !g.note.is_empty() {
            ui.small(&g.note);
        }
        if g.actions.is_empty() {
            continue;
        }
        ui.horizontal_wrapped(|ui| {
            if !g.title.is_empty() {
                ui.label(&g.title);
            }
            for a in &g.actions {
                if ui.small_button(&a.label).clicked() {
                    if previewed(&a.command) {
                        preview = Some(a.command.clone());
                    } else {
                        intents.write(Intent::Do(a.command.clone()));
                    }
                }
            }
        });
    }
    preview
}

/// A command whose dice the player sees before they are thrown.
fn previewed(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Fire { .. } | Command::Fight { .. } | Command::Declare { .. }
    )
}

/// The selected or hovered unit: its buttons, its card, and whether it may fire at or fight
/// the hovered enemy.
fn unit_section(
    ui: &mut egui::Ui,
    game: &Game,
    sel: &mut Selection,
    ptr: &Pointer,
    intents: &mut MessageWriter<Intent>,
) -> Option<Command> {
    let b = &game.battle;
    deployment_list(ui, game, sel, intents);
    let mut preview = None;

    let shown = sel.card(ptr.hover.as_ref());
    // The buttons belong to the unit the card names: a hovered unit's card has none.
    if let Some(u) = shown
        .as_ref()
        .filter(|c| c.buttons)
        .and_then(|c| b.unit(&c.unit).ok())
    {
        preview = action_buttons(ui, &b.rules.actions(b, u), intents);
    }
    match shown.and_then(|c| b.unit(&c.unit).ok()) {
        Some(u) => unit_card(ui, game, u),
        None => {
            ui.label("Click a unit to select it; drag to move it.");
        }
    }
    // Why the selected unit can or cannot fire at or fight the hovered enemy, in words.
    if let (Some(sid), Some(hid)) = (&sel.unit, &ptr.hover)
        && let (Ok(s), Ok(h)) = (b.unit(sid), b.unit(hid))
        && s.side != h.side
        && let Some(cmd) = b.rules.target_command(b, sid, hid)
    {
        ui.separator();
        match b.rules.preview(b, &cmd) {
            Ok(_) => {
                ui.colored_label(
                    egui::Color32::LIGHT_GREEN,
                    format!("{} may {} {}: click it", s.name, cmd.verb(), h.name),
                );
            }
            Err(e) => {
                ui.colored_label(egui::Color32::LIGHT_RED, report::refusal(b, &e));
            }
        }
    }
    ui.separator();
    ui.small(b.rules.turn_words(b).controls);
    ui.small("Right drag or WASD: pan · wheel: zoom · Home: fit");
    ui.small("Firing / close combat: select your unit, click an enemy");
    preview
}

/// Where the panels are docked, and how much of the window each takes: the table's camera is
/// fitted to what is left, so that no panel covers the units in play. Either may be folded
/// away.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Docks {
    /// The turn bar's height over the table.
    pub top: f32,
    /// The side panel's width (tutor, dice, unit), folded or not.
    pub right: f32,
    /// The log's height, folded or not.
    pub bottom: f32,
    pub side_open: bool,
    pub log_open: bool,
    /// The log follows new entries; false while the player reads back.
    pub follow: bool,
    /// The pointer is over a docked panel (egui counts only its floating windows): the table
    /// leaves it alone, the wheel included.
    pub has_pointer: bool,
}

impl Default for Docks {
    fn default() -> Self {
        Docks {
            top: 52.0,
            right: SIDE_WIDTH,
            bottom: LOG_HEIGHT,
            side_open: true,
            log_open: true,
            follow: true,
            has_pointer: false,
        }
    }
}

/// The side panel's width and the log's height as they open.
const SIDE_WIDTH: f32 = 330.0;
const LOG_HEIGHT: f32 = 170.0;
/// A folded panel's strip.
const FOLDED: f32 = 26.0;

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

/// A root for a docked panel: the window less the turn bar and, for the log, the side panel.
fn dock_root(ctx: &egui::Context, docks: &Docks, beside_side: bool) -> egui::Ui {
    let mut rect = ctx.viewport_rect();
    // The turn bar floats at the top: the docks begin under it.
    let top = ctx
        .memory(|m| m.area_rect(egui::Id::new("turn")))
        .map_or(docks.top, |r| r.bottom());
    rect.min.y = top.max(rect.min.y);
    if beside_side {
        rect.max.x -= docks.right;
    }
    egui::Ui::new(
        ctx.clone(),
        egui::Id::new(("dock_root", beside_side)),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(rect),
    )
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
    tutoring: Option<Res<super::lesson::Tutoring>>,
    mut screen: ResMut<NextState<Screen>>,
    time: Res<Time>,
    mut rolling: Local<(usize, f32)>,
    mut docks: ResMut<Docks>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
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
                ui.strong(&game.battle.info.name);
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
                            if let Some(cmd) = unit_section(ui, &game, &mut sel, &ptr, &mut intents)
                            {
                                game.pending = Some(cmd);
                            }
                        });
                });
        });
    docks.right = r.response.rect.width();
    Ok(())
}

/// Whether the pointer is over a docked panel now (not while a base is dragged from the table).
fn claim_pointer(ctx: &egui::Context, docks: &mut Docks, sel: &Selection) {
    let view = ctx.viewport_rect();
    docks.has_pointer = sel.drag.is_none()
        && ctx.input(|i| i.pointer.latest_pos()).is_some_and(|p| {
            p.y >= docks.top
                && (p.x >= view.right() - docks.right || p.y >= view.bottom() - docks.bottom)
        });
}

fn log_panel(
    mut ctx: EguiContexts,
    mut game: ResMut<Game>,
    replay: Option<Res<super::Replay>>,
    mut docks: ResMut<Docks>,
    sel: Res<Selection>,
) -> Result {
    let upto = replay.map_or(usize::MAX, |r| r.shown);
    let ctx = ctx.ctx_mut()?;
    let mut root = dock_root(ctx, &docks, true);
    let len = game.battle.log.len().min(upto);
    if !docks.log_open {
        let r = egui::Panel::bottom("log_folded")
            .resizable(false)
            .exact_size(FOLDED)
            .show(&mut root, |ui| {
                ui.horizontal(|ui| {
                    if ui
                        .small_button("Log")
                        .on_hover_text("Open the log")
                        .clicked()
                    {
                        docks.log_open = true;
                    }
                    if let Some(e) = game.battle.log.get(len.saturating_sub(1)) {
                        ui.label(report::describe(&game.battle, e));
                    }
                });
            });
        docks.bottom = r.response.rect.height();
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
                let mut reasons = game.reasons.iter().peekable();
                for (i, e) in game.battle.log.iter().enumerate().take(upto) {
                    while let Some((_, why)) = reasons.next_if(|(at, _)| *at <= i) {
                        ui.label(
                            egui::RichText::new(format!("Opponent: {why}"))
                                .italics()
                                .color(egui::Color32::from_rgb(170, 200, 255)),
                        );
                    }
                    let text = report::describe(&game.battle, e);
                    let strong = matches!(e, Event::PhaseBegan { .. } | Event::GameOver { .. });
                    let rich = if strong {
                        egui::RichText::new(text).strong()
                    } else {
                        egui::RichText::new(text)
                    };
                    if ui
                        .selectable_label(false, rich)
                        .on_hover_text(
                            "Click: its units on the table, and why (its factors' sources)",
                        )
                        .clicked()
                    {
                        clicked = Some(i);
                    }
                }
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
    if let Some(i) = clicked
        && let Some(e) = game.battle.log.get(i)
    {
        let factors: Vec<Factor> = report::rolls(e)
            .into_iter()
            .flat_map(|r| r.factors)
            .filter(|f| !f.source.is_empty())
            .collect();
        if !factors.is_empty() {
            ask_why(ctx, &report::describe(&game.battle, e), factors);
        }
        game.highlight = report::event_units(e);
    }
    Ok(())
}

/// Whether the handover screen is up: until the player takes the seat, the table and the bar
/// take no commands.
#[derive(Resource, Default)]
pub struct HandoverShown(pub bool);

/// Where the seat was to go, asked at a version of the game and a seat.
type Asked = ((u64, Option<usize>), Result<Option<usize>, String>);

fn handover(
    mut ctx: EguiContexts,
    mut game: ResMut<Game>,
    replay: Option<Res<super::Replay>>,
    computer: Option<Res<super::opponent::Computer>>,
    docks: Res<Docks>,
    mut asked: Local<Option<Asked>>,
    mut shown: ResMut<HandoverShown>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    shown.0 = false;
    let active = game.acting_side();
    // One player at the table: there is nobody to hand over to.
    if computer.is_some() {
        if game.seated != Some(active) {
            game.seated = Some(active);
        }
        return Ok(());
    }
    if replay.is_some() {
        return Ok(());
    }
    // Whether the side has a part to play is asked once a command, not every frame.
    let key = (game.version, game.seated);
    if asked.as_ref().is_none_or(|(k, _)| *k != key) {
        *asked = Some((key, game.hand_over_to()));
    }
    let side = match asked.as_ref() {
        Some((_, Ok(Some(side)))) => *side,
        Some((_, Err(why))) => {
            // The seat stays: the player there is told why, and how to go on.
            let end = game.battle.rules.turn_words(&game.battle).end;
            let text = match end {
                Some(end) => format!("{why}: press {end} to go on"),
                None => why.clone(),
            };
            banner(
                ctx,
                &docks,
                "idle",
                2,
                egui::Color32::from_rgb(200, 210, 190),
                &text,
            );
            return Ok(());
        }
        _ => return Ok(()),
    };
    let b = &game.battle;
    let name = b
        .sides
        .get(side)
        .map(|s| s.name.clone())
        .unwrap_or_default();
    // What the side sits down to do: its own bound, or its part in the other's.
    let heading = if side == b.active {
        format!("{name}'s bound")
    } else {
        format!("{name}: {}", b.phase.name())
    };
    let colour = side_colour(&game, side);
    // A modal: the bar and the table under it take nothing until the seat is taken.
    shown.0 = true;
    egui::Modal::new(egui::Id::new("hand over")).show(ctx, |ui| {
        ui.label("Hand over");
        ui.heading(egui::RichText::new(heading).color(colour));
        ui.label(format!(
            "{} · {} phase",
            report::turn_line(&game.battle),
            game.battle.phase.name()
        ));
        if ui.button("Take the seat").clicked() {
            game.seated = Some(side);
        }
    });
    Ok(())
}

/// Units lost by each side by the end of each turn, read from the log.
fn losses_by_turn(game: &Game) -> Vec<[u32; 2]> {
    let b = &game.battle;
    let mut turn = 1usize;
    let mut out = vec![[0u32; 2]];
    // A unit whose last stands were overrun is lost with them (BBB), without a word of its
    // own: the turn of its last overrun, for the units lost that way.
    let mut overrun: Vec<(UnitId, usize)> = Vec::new();
    let mut destroyed: Vec<UnitId> = Vec::new();
    for e in &b.log {
        match e {
            Event::PhaseBegan { turn: t, .. } if *t as usize > turn => {
                let last = *out.last().unwrap_or(&[0, 0]);
                while out.len() < *t as usize {
                    out.push(last);
                }
                turn = *t as usize;
            }
            Event::Destroyed { unit, .. } => {
                destroyed.push(unit.clone());
                if let Ok(u) = b.unit(unit)
                    && u.side < 2
                    && let Some(row) = out.last_mut()
                {
                    row[u.side] += 1;
                }
            }
            Event::StandsOverrun { unit, .. } => {
                overrun.retain(|(u, _)| u != unit);
                overrun.push((unit.clone(), out.len() - 1));
            }
            _ => {}
        }
    }
    for (id, at) in overrun {
        if let Ok(u) = b.unit(&id)
            && u.side < 2
            && u.status.removed
            && !destroyed.contains(&id)
        {
            for row in out.iter_mut().skip(at) {
                row[u.side] += 1;
            }
        }
    }
    out
}

fn game_over(
    mut ctx: EguiContexts,
    game: Res<Game>,
    mut commands: Commands,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let b = &game.battle;
    egui::Window::new("The battle is over")
        .collapsible(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            if let Some(e) = b
                .log
                .iter()
                .rev()
                .find(|e| matches!(e, Event::GameOver { .. }))
            {
                ui.heading(report::describe(b, e));
            }
            for line in b.rules.standing(b) {
                ui.label(line);
            }
            // Units lost by the end of each turn: a bar per side per turn.
            let rows = losses_by_turn(&game);
            let most = rows
                .iter()
                .flat_map(|r| r.iter())
                .copied()
                .max()
                .unwrap_or(1)
                .max(1) as f32;
            let (rect, _) = ui.allocate_exact_size(egui::vec2(360.0, 90.0), egui::Sense::hover());
            let painter = ui.painter_at(rect);
            let w = rect.width() / rows.len().max(1) as f32;
            for (t, row) in rows.iter().enumerate() {
                for (side, lost) in row.iter().enumerate() {
                    let h = *lost as f32 / most * (rect.height() - 14.0);
                    let x = rect.left() + t as f32 * w + side as f32 * w * 0.45 + 2.0;
                    let r = egui::Rect::from_min_max(
                        egui::pos2(x, rect.bottom() - 12.0 - h),
                        egui::pos2(x + w * 0.4, rect.bottom() - 12.0),
                    );
                    painter.rect_filled(r, 1.0, side_colour(&game, side));
                }
                painter.text(
                    egui::pos2(rect.left() + t as f32 * w + w / 2.0, rect.bottom()),
                    egui::Align2::CENTER_BOTTOM,
                    format!("{}", t + 1),
                    egui::FontId::proportional(9.0),
                    egui::Color32::GRAY,
                );
            }
            ui.small("Units lost by the end of each turn. The whole log is in the log window.");
            if ui.button("Replay the battle").clicked() {
                match super::Replay::start(b) {
                    Ok((fresh, mut replay)) => {
                        replay.playing = true;
                        commands.insert_resource(replay);
                        commands.insert_resource(Game::new(fresh, true, game.save_dir.clone()));
                        screen.set(Screen::Playing);
                    }
                    Err(e) => warn!("cannot replay: {e}"),
                }
            }
            if ui.button("Back to the title screen").clicked() {
                screen.set(Screen::Title);
            }
        });
    Ok(())
}

/// The tutor: the step's words, what it made of the last command, Next or Show me.
fn tutor_section(
    ui: &mut egui::Ui,
    t: &super::lesson::Tutoring,
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

/// The replay's controls: step event by event, forwards and backwards, or play on.
fn replay_panel(
    mut ctx: EguiContexts,
    mut game: ResMut<Game>,
    replay: Option<ResMut<super::Replay>>,
    mut screen: ResMut<NextState<Screen>>,
    docks: Res<Docks>,
) -> Result {
    use super::ReplayStep;
    let ctx = ctx.ctx_mut()?;
    let Some(mut r) = replay else { return Ok(()) };
    let mut how = None;
    // In the table's bottom right corner, clear of the docked side panel and the log.
    egui::Window::new("Replay")
        .anchor(
            egui::Align2::RIGHT_BOTTOM,
            [-(docks.right + 8.0), -(docks.bottom + 8.0)],
        )
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(format!(
                "Event {} of {} · command {} of {}",
                r.shown,
                r.total(),
                r.done,
                r.commands()
            ));
            if let Some(e) = r.shown.checked_sub(1).and_then(|i| game.battle.log.get(i)) {
                ui.strong(report::describe(&game.battle, e));
            }
            ui.horizontal(|ui| {
                if ui.button("|<").on_hover_text("To the start").clicked() {
                    how = Some(ReplayStep::ToStart);
                }
                if ui
                    .button("<")
                    .on_hover_text("One event back (comma)")
                    .clicked()
                {
                    how = Some(ReplayStep::Back);
                }
                let play = if r.playing { "Pause" } else { "Play" };
                if ui.button(play).on_hover_text("P").clicked() {
                    r.playing = !r.playing;
                }
                if ui
                    .button(">")
                    .on_hover_text("One event on (period)")
                    .clicked()
                {
                    how = Some(ReplayStep::Forward);
                }
                if ui.button(">|").on_hover_text("To the end").clicked() {
                    how = Some(ReplayStep::ToEnd);
                }
                if ui.button("Close").clicked() {
                    screen.set(Screen::Title);
                }
            });
        });
    if let Some(h) = how {
        let before = r.done;
        if r.step(&mut game.battle, h) && r.done != before {
            game.version += 1;
        }
    }
    Ok(())
}

/// The scenario's briefing, shown when a game opens (not for a tutorial, whose first step is
/// its briefing, nor a replay).
fn briefing(
    mut ctx: EguiContexts,
    game: Res<Game>,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let b = &game.battle;
    let mut close = false;
    egui::Window::new(format!("Briefing: {}", b.info.name))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .default_width(520.0)
        .show(ctx, |ui| {
            ui.set_max_width(520.0);
            ui.label(
                egui::RichText::new(format!("{} · {}", b.info.date, b.rules.get().name())).small(),
            );
            ui.add_space(4.0);
            ui.label(egui::RichText::new(&b.info.description).size(15.0));
            if !b.scenario.victory.is_empty() {
                ui.add_space(4.0);
                ui.label(format!("Victory: {}", b.scenario.victory));
            }
            ui.add_space(4.0);
            for (i, s) in b.sides.iter().enumerate() {
                ui.colored_label(side_colour(&game, i), &s.name);
            }
            ui.add_space(6.0);
            if ui.button("To the table").clicked() {
                close = true;
            }
        });
    if close {
        screen.set(Screen::Playing);
    }
    Ok(())
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
    let r = game.battle.rules.reference();
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

/// The ruler's words beside the cursor while dragging: distance against allowance and going,
/// or why the move is illegal. The box keeps clear of where the move ends (the ghost and the
/// enemy it meets), on the side towards where the drag began where there is room.
fn drag_tip(
    mut ctx: EguiContexts,
    game: Res<Game>,
    sel: Res<Selection>,
    ptr: Res<Pointer>,
    cams: Query<(&Camera, &GlobalTransform), With<super::camera::BoardCamera>>,
    mut last_size: Local<Option<egui::Vec2>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let Some(drag) = &sel.drag else { return Ok(()) };
    if drag.steps.is_empty() && drag.refused.is_none() {
        return Ok(());
    }
    let Some(pos) = ctx.pointer_hover_pos() else {
        return Ok(());
    };
    let b = &game.battle;
    let unit = &b.scale.unit;
    // The table's places on the screen, in egui's points.
    let screen = |p: crate::rules::geometry::Pt| {
        let (cam, gt) = cams.single().ok()?;
        let s = cam.world_to_viewport(gt, Vec3::new(p.x, p.y, 0.0)).ok()?;
        Some(egui::pos2(s.x, s.y) / ctx.zoom_factor().max(1e-3))
    };
    let mut ends = drag.ghost(b, ptr.world.unwrap_or(drag.start));
    let met = match (&drag.plan, drag.steps.last()) {
        (Ok(p), _) => p.contact.as_ref().map(|(t, _, _)| t.clone()),
        (Err(_), Some(crate::rules::command::Step::ToContact(t))) => Some(t.clone()),
        _ => None,
    };
    if let Some(t) = met.and_then(|t| b.unit(&t).ok()) {
        ends.push(t.base);
    }
    let corners: Vec<egui::Pos2> = ends
        .iter()
        .flat_map(|e| e.corners())
        .filter_map(screen)
        .collect();
    let keep_out = (!corners.is_empty()).then(|| egui::Rect::from_points(&corners).expand(6.0));
    let from = drag.moving_base(b).and_then(|s| screen(s.centre));
    let size = last_size.unwrap_or(egui::vec2(240.0, 36.0));
    let place = tip_place(pos, size, keep_out, from, ctx.viewport_rect());
    let shown = egui::Area::new(egui::Id::new("drag_tip"))
        .pivot(egui::Align2::LEFT_TOP)
        .fixed_pos(place)
        .show(ctx, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            egui::Frame::popup(ui.style()).show(ui, |ui| match &drag.plan {
                Ok(p) => {
                    ui.colored_label(egui::Color32::LIGHT_GREEN, p.ruler(*unit));
                    if let Some((t, _, _)) = &p.contact {
                        ui.label(format!(
                            "into contact with {}",
                            game.battle
                                .unit(t)
                                .map(|u| u.name.clone())
                                .unwrap_or_default()
                        ));
                    }
                    if let Some(note) = game.battle.rules.plan_note(p) {
                        ui.small(note);
                    }
                }
                Err(e) => {
                    ui.colored_label(egui::Color32::LIGHT_RED, e);
                }
            });
        });
    *last_size = Some(shown.response.rect.size());
    Ok(())
}

/// Where the ruler's box goes (its top left corner): beside the cursor where that leaves
/// `keep_out` clear, else just outside `keep_out` on the side nearest the cursor, preferring
/// the sides towards `from` (where the drag began), and always inside `view`.
fn tip_place(
    cursor: egui::Pos2,
    size: egui::Vec2,
    keep_out: Option<egui::Rect>,
    from: Option<egui::Pos2>,
    view: egui::Rect,
) -> egui::Pos2 {
    let inside = |p: egui::Pos2| {
        let max = (view.max - size).max(view.min);
        p.clamp(view.min, max)
    };
    let beside = inside(if cursor.x > view.center().x {
        cursor + egui::vec2(-16.0 - size.x, 16.0)
    } else {
        cursor + egui::vec2(16.0, 16.0)
    });
    let Some(r) = keep_out else { return beside };
    let clear = |p: egui::Pos2| !egui::Rect::from_min_size(p, size).intersects(r);
    if clear(beside) {
        return beside;
    }
    let onward = from.map(|f| cursor - f).unwrap_or(egui::Vec2::ZERO);
    let gap = 4.0;
    [
        egui::pos2(cursor.x - size.x / 2.0, r.max.y + gap),
        egui::pos2(cursor.x - size.x / 2.0, r.min.y - gap - size.y),
        egui::pos2(r.min.x - gap - size.x, cursor.y - size.y / 2.0),
        egui::pos2(r.max.x + gap, cursor.y - size.y / 2.0),
    ]
    .into_iter()
    .map(inside)
    .filter(|p| clear(*p))
    .min_by(|a, b| {
        let score = |p: &egui::Pos2| {
            let centre = *p + size / 2.0;
            let ahead = (centre - cursor).dot(onward) > 0.0;
            (centre - cursor).length() + if ahead { 1000.0 } else { 0.0 }
        };
        score(a).total_cmp(&score(b))
    })
    .unwrap_or(beside)
}

/// A scale bar in the ruleset's units, sized to the current zoom.
fn scale_bar(
    mut ctx: EguiContexts,
    game: Res<Game>,
    cams: Query<&Projection, With<super::camera::BoardCamera>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let Some(Projection::Orthographic(o)) = cams.iter().next() else {
        return Ok(());
    };
    let b = &game.battle;
    // Logical pixels per mm on screen.
    let px_per_mm =
        1.0 / o.scale.max(1e-3) / ctx.pixels_per_point().max(1e-3) * ctx.pixels_per_point();
    let target_px = 120.0;
    let units = b.scale.from_mm(target_px / px_per_mm);
    let nice = [
        10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0, 2000.0, 5000.0,
    ];
    let len_units = nice.iter().copied().rfind(|n| *n <= units).unwrap_or(10.0);
    let len_px = b.scale.to_mm(len_units) * px_per_mm;
    let bottom = ctx.viewport_rect().bottom();
    egui::Area::new(egui::Id::new("scale_bar"))
        .order(egui::Order::Background)
        .fixed_pos(egui::pos2(12.0, bottom - 230.0))
        .show(ctx, |ui| {
            let (rect, _) =
                ui.allocate_exact_size(egui::vec2(len_px + 4.0, 22.0), egui::Sense::hover());
            let p = ui.painter();
            let y = rect.top() + 14.0;
            let stroke = egui::Stroke::new(2.0, egui::Color32::WHITE);
            p.line_segment(
                [
                    egui::pos2(rect.left(), y),
                    egui::pos2(rect.left() + len_px, y),
                ],
                stroke,
            );
            p.line_segment(
                [
                    egui::pos2(rect.left(), y - 4.0),
                    egui::pos2(rect.left(), y + 4.0),
                ],
                stroke,
            );
            p.line_segment(
                [
                    egui::pos2(rect.left() + len_px, y - 4.0),
                    egui::pos2(rect.left() + len_px, y + 4.0),
                ],
                stroke,
            );
            p.text(
                egui::pos2(rect.left(), rect.top()),
                egui::Align2::LEFT_TOP,
                format!("{len_units:.0} {}", b.scale.unit),
                egui::FontId::proportional(11.0),
                egui::Color32::WHITE,
            );
        });
    Ok(())
}

/// The unit card as a tooltip beside the pointer while hovering a unit.
fn hover_card(
    mut ctx: EguiContexts,
    game: Res<Game>,
    ptr: Res<Pointer>,
    sel: Res<Selection>,
    docks: Res<Docks>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    if sel.drag.is_some() {
        return Ok(());
    }
    let Some(id) = &ptr.hover else { return Ok(()) };
    // The selected unit's card is in the side panel already.
    if sel.unit.as_ref() == Some(id) {
        return Ok(());
    }
    let Ok(u) = game.battle.unit(id) else {
        return Ok(());
    };
    let Some(pos) = ctx.pointer_hover_pos() else {
        return Ok(());
    };
    // At the board's left edge (below the legend's corner), never over the units round the
    // pointer.
    let _ = pos;
    egui::Area::new(egui::Id::new("hover_card"))
        .anchor(egui::Align2::LEFT_BOTTOM, [8.0, -(docks.bottom + 8.0)])
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(260.0);
                unit_card(ui, &game, u);
            });
        });
    Ok(())
}

/// Formal deployment: the units of the division now deploying, to pick and place, and what
/// else the side may do (fortify).
fn deployment_list(
    ui: &mut egui::Ui,
    game: &Game,
    sel: &mut Selection,
    intents: &mut MessageWriter<Intent>,
) {
    let b = &game.battle;
    let Some(d) = b.rules.deployment(b) else {
        return;
    };
    ui.colored_label(
        side_colour(game, d.side),
        egui::RichText::new(&d.title).strong(),
    );
    for (id, label) in &d.waiting {
        let picked = sel.placing.as_ref() == Some(id);
        if ui.selectable_label(picked, label).clicked() {
            sel.placing = Some(id.clone());
        }
    }
    ui.small(&d.note);
    for a in &d.actions {
        if ui.button(&a.label).clicked() {
            intents.write(Intent::Do(a.command.clone()));
        }
    }
    ui.separator();
}

/// A colour as egui paints it.
pub(super) fn colour32(c: Color) -> egui::Color32 {
    let [r, g, b, _] = c.to_srgba().to_u8_array();
    egui::Color32::from_rgb(r, g, b)
}

/// A terrain art colour (linear) as egui paints it.
fn to_egui(c: [f32; 4]) -> egui::Color32 {
    colour32(Color::LinearRgba(LinearRgba::from_f32_array(c)))
}

fn ink32(i: crate::rules::ruleset::Ink) -> egui::Color32 {
    colour32(super::overlay::ink(i))
}

/// A mini-map of the whole table when zoomed in: terrain, units, and the part on the screen;
/// a click there moves the view.
fn mini_map(
    mut ctx: EguiContexts,
    game: Res<Game>,
    docks: Res<Docks>,
    mut cams: Query<(&mut Transform, &Projection), With<super::camera::BoardCamera>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let Some((mut cam, Projection::Orthographic(o))) = cams.iter_mut().next() else {
        return Ok(());
    };
    let b = &game.battle;
    let screen = ctx.viewport_rect();
    // World size of the view.
    let view = egui::vec2(screen.width() * o.scale, screen.height() * o.scale);
    if view.x >= b.table.width * 0.95 && view.y >= b.table.height * 0.95 {
        return Ok(());
    }
    let w = 200.0;
    let k = w / b.table.width;
    let h = b.table.height * k;
    let mut go = None;
    egui::Area::new(egui::Id::new("mini_map"))
        .anchor(
            egui::Align2::RIGHT_TOP,
            [-(docks.right + 8.0), docks.top + 4.0],
        )
        .order(egui::Order::Middle)
        .show(ctx, |ui| {
            let (rect, resp) =
                ui.allocate_exact_size(egui::vec2(w, h), egui::Sense::click_and_drag());
            let p = ui.painter_at(rect);
            let at = |x: f32, y: f32| egui::pos2(rect.left() + x * k, rect.bottom() - y * k);
            p.rect_filled(
                rect,
                2.0,
                to_egui(super::terrain_art::rgb(0.50, 0.60, 0.35)),
            );
            for f in b.terrain.features.iter() {
                let col = to_egui(super::terrain_art::colour(f.kind));
                if f.kind.is_linear() {
                    let pts: Vec<egui::Pos2> = f.points.iter().map(|q| at(q.x, q.y)).collect();
                    p.add(egui::Shape::line(pts, egui::Stroke::new(2.0, col)));
                } else {
                    for t in f.triangles() {
                        p.add(egui::Shape::convex_polygon(
                            t.iter().map(|q| at(q.x, q.y)).collect(),
                            col,
                            egui::Stroke::NONE,
                        ));
                    }
                }
            }
            for u in b.alive() {
                p.circle_filled(
                    at(u.base.centre.x, u.base.centre.y),
                    2.0,
                    side_colour(&game, u.side),
                );
            }
            let c = cam.translation;
            let lo = at(c.x - view.x / 2.0, c.y - view.y / 2.0);
            let hi = at(c.x + view.x / 2.0, c.y + view.y / 2.0);
            p.rect_stroke(
                egui::Rect::from_two_pos(lo, hi),
                0.0,
                egui::Stroke::new(1.5, egui::Color32::WHITE),
                egui::StrokeKind::Inside,
            );
            p.rect_stroke(
                rect,
                2.0,
                egui::Stroke::new(1.0, egui::Color32::BLACK),
                egui::StrokeKind::Inside,
            );
            if (resp.clicked() || resp.dragged())
                && let Some(pos) = resp.interact_pointer_pos()
            {
                go = Some(Vec2::new(
                    (pos.x - rect.left()) / k,
                    (rect.bottom() - pos.y) / k,
                ));
            }
        });
    if let Some(g) = go {
        cam.translation = g.extend(cam.translation.z);
    }
    Ok(())
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
