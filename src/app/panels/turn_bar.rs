//! The turn bar over the table: the phase's button, undo, save, load, the menu and the
//! overlays' switches, and the turn line in the ruleset's words.

use crate::app::colours::side_ink;
use crate::app::slots::{self, Dialog};
use crate::app::state::{Menu, Overlays, Screen};
use crate::app::{Game, Intent, PanelSystems};
use crate::rules::command::Command;
use crate::text::report;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        turn_bar.in_set(PanelSystems::TurnBar),
    );
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
    tutoring: Option<Res<crate::app::lesson::Tutoring>>,
    replay: Option<Res<crate::app::Replay>>,
    computer: Option<Res<crate::app::opponent::Computer>>,
    mut ready: Local<Ready>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    ready.refresh(&game, computer.as_deref().map(|c| c.side));
    let width = ctx.viewport_rect().width();
    let shown = *screen.get();
    egui::Area::new(egui::Id::new("turn"))
        .anchor(egui::Align2::LEFT_TOP, [0.0, 0.0])
        .show(ctx, |ui| {
            egui::Frame::side_top_panel(ui.style()).show(ui, |ui| {
                ui.set_width(width - 16.0);
                let (b, rules) = (&game.play.battle, &game.play.rules);
                let words = rules.turn_words(b);
                // The controls come first, each in the same place in every phase.
                ui.horizontal_wrapped(|ui| {
                    let why = Refusals::now(
                        &game,
                        shown,
                        tutoring.as_deref(),
                        replay.is_some(),
                        computer.as_deref(),
                    );
                    let end = words.end.as_deref();
                    let unmade = ready.words();
                    let buttons =
                        game_buttons(ui, &game, (end, unmade.as_ref()), &why, shown, &mut dialog);
                    if let Some(intent) = buttons {
                        match intent {
                            Clicked::Intent(i) => {
                                intents.write(i);
                            }
                            Clicked::Menu => menu.set(Menu::Open),
                        }
                    }
                    ui.separator();
                    overlay_switches(ui, &mut overlays);
                });
                // Below them, where the game stands, whole: it wraps rather than cut its own
                // words.
                ui.horizontal_wrapped(|ui| {
                    where_the_game_stands(ui, &game, &words, computer.is_none());
                    // Attacks the phase still allows, said before it is ended (on this line,
                    // which wraps, so that the controls above never move).
                    if let Some((short, names)) = ready.words() {
                        ui.label("·");
                        ui.label(egui::RichText::new(short).color(UNMADE))
                            .on_hover_text(names);
                    }
                });
                // And how each side stands by the scenario's objectives and conditions.
                let standing = game.play.standing();
                if !standing.is_empty() {
                    ui.horizontal_wrapped(|ui| {
                        for (side, line) in standing.iter().enumerate() {
                            if side > 0 {
                                ui.label("·");
                            }
                            ui.label(egui::RichText::new(line).color(side_ink(&game, side)));
                        }
                    });
                }
            });
        });
    Ok(())
}

/// Why a control that is there cannot be used now, said on hover: ending the phase, taking
/// back the last command, loading a save.
struct Refusals {
    end: Option<String>,
    undo: Option<String>,
    load: Option<&'static str>,
}

impl Refusals {
    fn now(
        game: &Game,
        shown: Screen,
        tutoring: Option<&crate::app::lesson::Tutoring>,
        replay: bool,
        computer: Option<&crate::app::opponent::Computer>,
    ) -> Refusals {
        let b = &game.play;
        let busy = if replay {
            Some("a replay only shows the game: close it to play".to_string())
        } else if shown != Screen::Playing {
            Some("the battle is not under way".to_string())
        } else if computer.is_some_and(|c| c.busy(b)) {
            Some("the opponent is playing its part: wait, or press Skip".to_string())
        } else {
            None
        };
        let end = busy.clone().or_else(|| {
            let t = tutoring?;
            match t.tutor.judge(b, &Command::EndPhase) {
                crate::text::lesson::Verdict::Wrong(w) => Some(w),
                crate::text::lesson::Verdict::Execute => None,
            }
        });
        let undo = busy.or_else(|| {
            if tutoring.is_some() {
                Some("A lesson goes forwards only: its dice are set.".into())
            } else if b.last_command_rolled() {
                Some(
                    "dice have been rolled or the phase has ended: that cannot be taken back"
                        .into(),
                )
            } else if !b.can_undo() {
                Some("nothing to take back".into())
            } else if game.opponents_last() {
                Some(crate::app::OPPONENTS_COMMAND.into())
            } else {
                None
            }
        });
        Refusals {
            end,
            undo,
            load: slots::load_refused(tutoring.is_some(), replay),
        }
    }
}

/// What a click on the bar's buttons asks for.
enum Clicked {
    Intent(Intent),
    Menu,
}

/// The phase's button (where the ruleset has one; its room kept where not), Undo, Save, Load
/// and the menu, each greyed with its reason where it cannot be used now.
fn game_buttons(
    ui: &mut egui::Ui,
    game: &Game,
    (end, unmade): (Option<&str>, Option<&(String, String)>),
    why: &Refusals,
    shown: Screen,
    dialog: &mut Dialog,
) -> Option<Clicked> {
    let mut clicked = None;
    let end_size = [150.0, 20.0];
    match end {
        Some(end) => {
            let button = ui
                .add_enabled_ui(why.end.is_none(), |ui| {
                    ui.add_sized(end_size, egui::Button::new(end))
                })
                .inner
                .on_disabled_hover_text(why.end.clone().unwrap_or_default());
            let button = match unmade {
                Some((_, names)) if why.end.is_none() => button.on_hover_text(names),
                _ => button,
            };
            if button.clicked() {
                clicked = Some(Clicked::Intent(Intent::Do(Command::EndPhase)));
            }
        }
        None => {
            ui.allocate_space(end_size.into());
        }
    }
    if ui
        .add_enabled(why.undo.is_none(), egui::Button::new("Undo (Ctrl+Z)"))
        .on_disabled_hover_text(why.undo.clone().unwrap_or_default())
        .clicked()
    {
        clicked = Some(Clicked::Intent(Intent::Undo));
    }
    if ui
        .button("Save (Ctrl+S)")
        .on_hover_text("Save the game in a slot of its own")
        .clicked()
    {
        *dialog = Dialog::save(&game.play);
    }
    if ui
        .add_enabled(why.load.is_none(), egui::Button::new("Load (Ctrl+O)"))
        .on_disabled_hover_text(why.load.unwrap_or_default())
        .clicked()
    {
        *dialog = Dialog::load(&game.save_dir);
    }
    // The menu opens over the table, not over the briefing.
    if ui
        .add_enabled(shown != Screen::Briefing, egui::Button::new("Menu (Esc)"))
        .on_hover_text("Resume, save, load, the rules, the title screen, quit")
        .on_disabled_hover_text("Go to the table first")
        .clicked()
    {
        clicked = Some(Clicked::Menu);
    }
    clicked
}

/// The overlays' switches, each with its key.
fn overlay_switches(ui: &mut egui::Ui, overlays: &mut Overlays) {
    ui.checkbox(&mut overlays.arcs, "Arcs (F)");
    ui.checkbox(&mut overlays.zones, "Zones (Z)");
    ui.checkbox(&mut overlays.sight, "Sight (L)");
    ui.checkbox(&mut overlays.reach, "Reach (M)");
    ui.checkbox(&mut overlays.rules, "Rules (F1)");
    ui.checkbox(&mut overlays.legend, "Legend (G)");
    ui.checkbox(&mut overlays.symbols, "Symbols (N)");
    ui.checkbox(&mut overlays.names, "Names (I)");
    ui.checkbox(&mut overlays.plan, "Plan (V)")
        .on_hover_text("Arrows from the opponent's units to what its latest plan sends them for");
}

/// The scenario, the ruleset, the turn and phase (the ruleset's words, or the phase's name where
/// it has none, as at the game's end) and what the side has to spend, in the acting side's
/// colour.
fn where_the_game_stands(
    ui: &mut egui::Ui,
    game: &Game,
    words: &crate::rules::ruleset::TurnWords,
    hotseat: bool,
) {
    let (b, rules) = (&game.play.battle, &game.play.rules);
    ui.strong(&b.info.name);
    ui.label(format!("{} ·", rules.get().name()));
    let phase = if words.phase.is_empty() {
        b.phase.name().to_string()
    } else {
        format!("{} phase", words.phase)
    };
    let mut text = format!("{} · {phase}", report::turn_line(&game.play));
    if let Some(r) = &words.resources {
        text += &format!(" · {r}");
    }
    // In a step the sides play in turn at a hotseat table, whose part it is now.
    let mut side = b.active;
    if hotseat && rules.in_turns(b) {
        side = game.acting_side();
        if let Some(s) = b.sides.get(side) {
            text += &format!(" · {}'s part", s.name);
        }
    }
    ui.label(
        egui::RichText::new(&text)
            .strong()
            .color(side_ink(game, side)),
    );
}

/// The colour of the word that attacks are left unmade.
const UNMADE: egui::Color32 = egui::Color32::from_rgb(240, 190, 90);

/// The player's units that could still attack in this phase, worked out once for each state
/// of the battle (`Game::ready_to_attack`).
#[derive(Default)]
struct Ready {
    key: Option<(u64, usize)>,
    /// The verb of their attacks (fire, fight, charge ...), and their names.
    units: Option<(&'static str, Vec<String>)>,
}

impl Ready {
    fn refresh(&mut self, game: &Game, computer: Option<crate::rules::model::Side>) {
        let key = (game.version, std::ptr::from_ref(&game.play.battle) as usize);
        if self.key == Some(key) {
            return;
        }
        self.key = Some(key);
        let b = &game.play.battle;
        let mut verb = "attack";
        let names: Vec<String> = game
            .play
            .ready_to_attack()
            .into_iter()
            .filter_map(|(id, cmd)| {
                let u = b.unit(&id).ok().filter(|u| Some(u.side) != computer)?;
                verb = match cmd {
                    Command::Fire { .. } => "fire",
                    Command::Fight { .. } => "fight",
                    Command::Declare { .. } | Command::Charge { .. } => "charge",
                    _ => "attack",
                };
                Some(u.name.clone())
            })
            .collect();
        self.units = (!names.is_empty()).then_some((verb, names));
    }

    /// The words on the turn bar's second line ("3 units may still fire"), and with the
    /// names, for their hover and the phase button's.
    fn words(&self) -> Option<(String, String)> {
        let (verb, names) = self.units.as_ref()?;
        let short = match names.len() {
            1 => format!("1 unit may still {verb}"),
            n => format!("{n} units may still {verb}"),
        };
        Some((short.clone(), format!("{short}: {}", names.join(", "))))
    }
}
