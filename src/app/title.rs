//! The title screen: the scenarios found in scenarios/, saves, and the autosave of a game left
//! unfinished; start a hotseat game, load, or quit.

use super::Game;
use super::slots::{self, Slot};
use super::state::Screen;
use crate::rules::save;
use crate::rules::scenario;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::path::{Path, PathBuf};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        title
            .run_if(in_state(Screen::Title))
            .run_if(resource_exists::<TitleScreen>),
    );
}

/// One scenario file as listed.
pub struct Entry {
    pub path: PathBuf,
    pub name: String,
    pub detail: String,
    pub description: String,
    pub error: Option<String>,
    /// The ruleset's optional rules (key, name), and those switched on for this game.
    pub optional: Vec<(String, String)>,
    pub chosen: Vec<String>,
    /// The sides' names, for playing one against the opponent.
    pub sides: Vec<String>,
}

/// What the title screen offers.
#[derive(Resource)]
pub struct TitleScreen {
    pub scenarios: Vec<Entry>,
    pub selected: usize,
    /// The saved games, newest first, each with its scenario, turn, side to move and time.
    pub saves: Vec<Slot>,
    pub autosave: Option<PathBuf>,
    pub save_dir: PathBuf,
    pub message: Option<String>,
    /// The guided tutorials in `scenarios/lessons/`: file and title.
    pub lessons: Vec<(PathBuf, String)>,
}

/// What the title screen starts.
enum Launch {
    /// A scenario with its optional rules, and the side the opponent plays (None: hotseat).
    Scenario(PathBuf, Vec<String>, Option<usize>),
    Save(PathBuf),
    Replay(PathBuf),
    Lesson(PathBuf),
    /// The scenario editor on a draft.
    Edit(Box<crate::editor::Draft>),
}

impl TitleScreen {
    /// Reads the scenarios beside `default` and the saves in `save_dir`.
    pub fn scan(default: &Path, save_dir: &Path) -> Self {
        let dir = default
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("scenarios"));
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|r| {
                r.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                    .collect()
            })
            .unwrap_or_default();
        paths.sort();
        let scenarios: Vec<Entry> = paths
            .into_iter()
            .map(|path| match scenario::load(&path) {
                Ok(game) => Entry {
                    name: game.info.name.clone(),
                    detail: format!(
                        "{} · {} · table {:.0} x {:.0} {} · {} units",
                        game.info.date,
                        game.rules.get().name(),
                        game.scale.from_mm(game.table.width),
                        game.scale.from_mm(game.table.height),
                        game.scale.unit,
                        game.units.len()
                    ),
                    description: game.info.description.clone(),
                    error: None,
                    optional: game.rules.optional_rules(),
                    chosen: game.rules.options().to_vec(),
                    sides: game.sides.iter().map(|s| s.name.clone()).collect(),
                    path,
                },
                Err(d) => Entry {
                    name: path.display().to_string(),
                    detail: String::new(),
                    description: String::new(),
                    error: d.first().map(|x| x.to_string()),
                    optional: Vec::new(),
                    sides: Vec::new(),
                    chosen: Vec::new(),
                    path,
                },
            })
            .collect();
        let selected = scenarios
            .iter()
            .position(|e| e.path.file_name() == default.file_name())
            .unwrap_or(0);
        let saves = slots::list(save_dir);
        let auto = save_dir.join("autosave.ron");
        let autosave = auto.is_file().then_some(auto);
        let mut lessons: Vec<(PathBuf, String)> = std::fs::read_dir(dir.join("lessons"))
            .map(|r| {
                r.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                    .filter_map(|p| {
                        let text = scenario::read_text(&p).ok()?;
                        let l = crate::text::lesson::parse(&text, "").ok()?;
                        Some((p, l.title))
                    })
                    .collect()
            })
            .unwrap_or_default();
        lessons.sort();
        TitleScreen {
            lessons,
            scenarios,
            selected,
            saves,
            autosave,
            save_dir: save_dir.to_path_buf(),
            message: None,
        }
    }
}

fn title(
    mut ctx: EguiContexts,
    mut screen: ResMut<TitleScreen>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let mut start: Option<Launch> = None;
    egui::Window::new("volley")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .default_width(640.0)
        .show(ctx, |ui| {
            ui.heading("volley: horse-and-musket battles at the tabletop");
            ui.label(
                "Two players at one computer, measured moves, every factor of every roll shown.",
            );
            ui.separator();
            resume_and_lessons(ui, &screen, &mut start);
            ui.strong("Scenarios");
            scenario_list(ui, &mut screen);
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                start_buttons(ui, &screen, &mut start);
                if ui.button("Quit").clicked() {
                    exit.write(AppExit::Success);
                }
            });
            ui.add_space(4.0);
            editor_buttons(ui, &mut screen, &mut start);
            if !screen.saves.is_empty() {
                ui.separator();
                ui.strong("Saved games");
                saves_list(ui, &screen, &mut start);
            }
            if let Some(m) = &screen.message {
                ui.colored_label(egui::Color32::LIGHT_RED, m);
            }
        });
    if let Some(launch) = start {
        open(launch, &mut screen, &mut commands, &mut next);
    }
    Ok(())
}

/// An unfinished game to resume, and the tutorials.
fn resume_and_lessons(ui: &mut egui::Ui, screen: &TitleScreen, start: &mut Option<Launch>) {
    if let Some(auto) = screen.autosave.clone() {
        ui.horizontal(|ui| {
            ui.colored_label(egui::Color32::YELLOW, "An unfinished game was found.");
            if ui.button("Resume it").clicked() {
                *start = Some(Launch::Save(auto.clone()));
            }
        });
        ui.separator();
    }
    if !screen.lessons.is_empty() {
        ui.strong("Learn a ruleset: guided tutorials, one whole turn each");
        ui.horizontal_wrapped(|ui| {
            for (p, t) in &screen.lessons {
                if ui.button(t).clicked() {
                    *start = Some(Launch::Lesson(p.clone()));
                }
            }
        });
        ui.separator();
    }
}

/// The scenarios to choose from (the list scrolls, so that the buttons below stay on the
/// screen), and the chosen one's description and optional rules.
fn scenario_list(ui: &mut egui::Ui, screen: &mut TitleScreen) {
    egui::ScrollArea::vertical()
        .max_height(240.0)
        .show(ui, |ui| {
            for i in 0..screen.scenarios.len() {
                let e = &screen.scenarios[i];
                let text = match &e.error {
                    None => format!("{}   ({})", e.name, e.detail),
                    Some(err) => format!("{}   (cannot be played: {err})", e.name),
                };
                if ui.selectable_label(screen.selected == i, text).clicked() {
                    screen.selected = i;
                }
            }
        });
    let selected = screen.selected;
    let Some(e) = screen.scenarios.get_mut(selected) else {
        return;
    };
    ui.add_space(4.0);
    ui.label(&e.description);
    if !e.optional.is_empty() {
        ui.add_space(4.0);
        ui.strong("Optional rules (as the scenario sets them; change them for this game)");
        ui.horizontal_wrapped(|ui| {
            for (key, name) in e.optional.clone() {
                let mut on = e.chosen.contains(&key);
                if ui.checkbox(&mut on, name).changed() {
                    if on {
                        e.chosen.push(key.clone());
                    } else {
                        e.chosen.retain(|k| *k != key);
                    }
                }
            }
        });
    }
}

/// A hotseat game of the chosen scenario, or one player's against the opponent on either side.
fn start_buttons(ui: &mut egui::Ui, screen: &TitleScreen, start: &mut Option<Launch>) {
    let chosen = screen.scenarios.get(screen.selected);
    let ok = chosen.is_some_and(|e| e.error.is_none());
    if ui
        .add_enabled(ok, egui::Button::new("Start a hotseat game"))
        .clicked()
        && let Some(e) = chosen
    {
        *start = Some(Launch::Scenario(e.path.clone(), e.chosen.clone(), None));
    }
    // One player: the opponent takes the other side.
    let sides = chosen.map(|e| e.sides.clone()).unwrap_or_default();
    for (s, name) in sides.iter().enumerate().take(2) {
        if ui
            .add_enabled(ok, egui::Button::new(format!("Play {name}")))
            .on_hover_text("Against the opponent, which plays the other side")
            .clicked()
            && let Some(e) = chosen
        {
            *start = Some(Launch::Scenario(
                e.path.clone(),
                e.chosen.clone(),
                Some(1 - s),
            ));
        }
    }
}

/// The scenario editor: on the chosen scenario, or on a new one for a ruleset.
fn editor_buttons(ui: &mut egui::Ui, screen: &mut TitleScreen, start: &mut Option<Launch>) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Scenario editor:");
        if let Some(e) = screen.scenarios.get(screen.selected)
            && ui
                .button("Edit the chosen scenario")
                .on_hover_text("Change it, or make a new one from it (saved under a new name)")
                .clicked()
        {
            match crate::editor::Draft::open(&e.path) {
                Ok(d) => *start = Some(Launch::Edit(Box::new(d))),
                Err(d) => screen.message = d.first().map(|x| x.to_string()),
            }
        }
        ui.menu_button("New scenario…", |ui| {
            for id in crate::rules::ruleset::KNOWN_RULESETS {
                let name = crate::rules::ruleset::AnyRuleset::load(id)
                    .map(|r| r.name().to_string())
                    .unwrap_or_else(|_| id.to_string());
                if ui.button(name).clicked()
                    && let Ok(d) = crate::editor::Draft::new(id)
                {
                    *start = Some(Launch::Edit(Box::new(d)));
                    ui.close();
                }
            }
        });
    });
}

/// The saved games, each to load or to replay.
fn saves_list(ui: &mut egui::Ui, screen: &TitleScreen, start: &mut Option<Launch>) {
    egui::ScrollArea::vertical()
        .id_salt("saves")
        .max_height(160.0)
        .show(ui, |ui| {
            egui::Grid::new("title_saves")
                .striped(true)
                .num_columns(4)
                .show(ui, |ui| {
                    for s in &screen.saves {
                        ui.strong(s.name())
                            .on_hover_text(s.path.display().to_string());
                        ui.label(s.detail());
                        let ok = s.about.is_ok();
                        if ui
                            .add_enabled(ok, egui::Button::new("Load"))
                            .on_disabled_hover_text("This file cannot be loaded")
                            .clicked()
                        {
                            *start = Some(Launch::Save(s.path.clone()));
                        }
                        if ui
                            .add_enabled(ok, egui::Button::new("Replay"))
                            .on_disabled_hover_text("This file cannot be loaded")
                            .clicked()
                        {
                            *start = Some(Launch::Replay(s.path.clone()));
                        }
                        ui.end_row();
                    }
                });
        });
}

/// Opens what was chosen: a new game or a save on its briefing, a replay and a tutorial at the
/// table; what does not load stays on the title with the reason.
fn open(
    launch: Launch,
    screen: &mut TitleScreen,
    commands: &mut Commands,
    next: &mut NextState<Screen>,
) {
    let words = |d: Vec<scenario::Diagnostic>| {
        d.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let dir = screen.save_dir.clone();
    let briefed = matches!(launch, Launch::Scenario(..) | Launch::Save(_));
    let loaded = match launch {
        Launch::Edit(draft) => {
            commands.insert_resource(super::editor::Editor::new(*draft, super::scenario_dir()));
            next.set(Screen::Editor);
            return;
        }
        Launch::Scenario(path, o, against) => scenario::load_with_options(&path, &o)
            .map(|b| {
                if let Some(side) = against {
                    commands.insert_resource(super::opponent::Computer::new(side));
                }
                Game::new(b, false, dir)
            })
            .map_err(words),
        Launch::Save(path) => save::load_seated(&path)
            .map(|(b, seats)| {
                // A game saved against the opponent resumes against it.
                if let Some(side) = seats.opponent {
                    commands.insert_resource(super::opponent::Computer::new(side));
                }
                Game::new(b, false, dir)
            })
            .map_err(words),
        Launch::Replay(path) => save::load_any_loaded(&path)
            .map_err(words)
            .and_then(|l| super::Replay::start_reseeded(&l.game, l.seed, &l.reseed))
            .map(|(b, mut r)| {
                r.playing = true;
                commands.insert_resource(r);
                Game::new(b, true, dir)
            }),
        Launch::Lesson(path) => crate::text::lesson::load(&path)
            .map(|(l, b)| {
                commands.insert_resource(super::lesson::Tutoring::new(l));
                Game::new(b, true, dir)
            })
            .map_err(words),
    };
    match loaded {
        Ok(g) => {
            commands.insert_resource(g);
            next.set(if briefed {
                Screen::Briefing
            } else {
                Screen::Playing
            });
        }
        Err(m) => screen.message = Some(m),
    }
}
