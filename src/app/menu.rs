//! The game menu (Esc): resume, save, load, the rules reference, back to the title, quit.

use super::slots::{self, Dialog};
use super::state::Overlays;
use super::state::{InGame, Menu, Screen};
use super::{Game, Replay, lesson};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<MenuChoice>()
        .add_systems(
            Update,
            (close_with_esc.run_if(in_state(Menu::Open)), choose)
                .chain()
                .run_if(in_state(InGame))
                .before(super::AppSystems::Input),
        )
        .add_systems(
            EguiPrimaryContextPass,
            menu_window
                .run_if(in_state(Menu::Open))
                .run_if(resource_exists::<Game>),
        );
}

/// What the player chose in the game menu.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuChoice {
    /// Close the menu and play on.
    Resume,
    /// The save window.
    Save,
    /// The load window.
    Load,
    /// The rules reference.
    Rules,
    /// Leave the game for the title screen (a game in play stays in the autosave).
    Title,
    /// Back to the scenario editor the game was started from.
    Editor,
    /// The scenario editor on a new scenario of the game as it stands now.
    ToScenario,
    /// Leave the program; a game in play stays in the autosave, as on the way to the title.
    Quit,
}

/// Esc again closes the menu, as Resume does.
fn close_with_esc(keys: Option<Res<ButtonInput<KeyCode>>>, mut choices: MessageWriter<MenuChoice>) {
    if keys.is_some_and(|k| k.just_pressed(KeyCode::Escape)) {
        choices.write(MenuChoice::Resume);
    }
}

#[expect(clippy::too_many_arguments, reason = "a Bevy system's parameters")]
fn choose(
    mut choices: MessageReader<MenuChoice>,
    mut menu: ResMut<NextState<Menu>>,
    mut screen: ResMut<NextState<Screen>>,
    mut dialog: ResMut<Dialog>,
    mut overlays: ResMut<Overlays>,
    mut game: ResMut<Game>,
    shown: (Option<Res<lesson::Tutoring>>, Option<Res<Replay>>),
    mut exit: MessageWriter<AppExit>,
    mut commands: Commands,
) {
    for choice in choices.read() {
        match choice {
            MenuChoice::Resume => {}
            MenuChoice::Save => *dialog = Dialog::save(&game.play),
            MenuChoice::Load => match slots::load_refused(shown.0.is_some(), shown.1.is_some()) {
                Some(why) => game.message = Some(why.into()),
                None => *dialog = Dialog::load(&game.save_dir),
            },
            MenuChoice::Rules => overlays.rules = true,
            MenuChoice::Title => screen.set(Screen::Title),
            MenuChoice::Editor => screen.set(Screen::Editor),
            MenuChoice::ToScenario => {
                let draft = crate::editor::Draft::from_game(&game.play);
                commands.insert_resource(super::editor::Editor::new(draft, super::scenario_dir()));
                screen.set(Screen::Editor);
            }
            MenuChoice::Quit => {
                exit.write(AppExit::Success);
            }
        }
        menu.set(Menu::Closed);
    }
}

fn menu_window(
    mut ctx: EguiContexts,
    game: Res<Game>,
    computer: Option<ResMut<super::opponent::Computer>>,
    shown: (Option<Res<lesson::Tutoring>>, Option<Res<Replay>>),
    mut choices: MessageWriter<MenuChoice>,
    editor: Option<Res<super::editor::Editor>>,
) -> Result {
    let ctx = ctx.ctx_mut()?;
    let refused = slots::load_refused(shown.0.is_some(), shown.1.is_some());
    let playing = shown.0.is_none() && shown.1.is_none() && !game.play.is_over();
    egui::Modal::new(egui::Id::new("game_menu")).show(ctx, |ui| {
        ui.set_width(280.0);
        ui.vertical_centered_justified(|ui| {
            ui.heading("volley");
            ui.label(egui::RichText::new(&game.play.info.name).small());
            ui.add_space(8.0);
            let mut item = |ui: &mut egui::Ui, choice, words: &str, enabled, why: &str| {
                if ui
                    .add_enabled(
                        enabled,
                        egui::Button::new(words).min_size([0.0, 28.0].into()),
                    )
                    .on_disabled_hover_text(why)
                    .clicked()
                {
                    choices.write(choice);
                }
            };
            item(ui, MenuChoice::Resume, "Resume (Esc)", true, "");
            item(ui, MenuChoice::Save, "Save… (Ctrl+S)", true, "");
            item(
                ui,
                MenuChoice::Load,
                "Load… (Ctrl+O)",
                refused.is_none(),
                refused.unwrap_or_default(),
            );
            item(ui, MenuChoice::Rules, "Rules reference (F1)", true, "");
            if editor.is_some() {
                item(ui, MenuChoice::Editor, "Back to the scenario editor", true, "");
            }
            item(
                ui,
                MenuChoice::ToScenario,
                "Make a scenario of this position…",
                true,
                "",
            );
            if let Some(mut computer) = computer {
                ui.add_space(8.0);
                ui.label("The opponent's thinking: plans it judges a phase");
                ui.add(egui::Slider::new(&mut computer.think, 1..=400).logarithmic(true))
                    .on_hover_text(
                        "More plans play a stronger game and take longer (about 200 ms a bound at 24 on the largest battle, on one core)",
                    );
            }
            ui.add_space(8.0);
            let title =
                ui.add(egui::Button::new("Back to the title screen").min_size([0.0, 28.0].into()));
            let title = if playing {
                title.on_hover_text(
                    "The game stays in the autosave: Resume it from the title screen",
                )
            } else {
                title
            };
            if title.clicked() {
                choices.write(MenuChoice::Title);
            }
            let quit = ui.add(egui::Button::new("Quit").min_size([0.0, 28.0].into()));
            let quit = if playing {
                quit.on_hover_text(
                    "The game stays in the autosave: Resume it from the title screen next time",
                )
            } else {
                quit
            };
            if quit.clicked() {
                choices.write(MenuChoice::Quit);
            }
        });
    });
    Ok(())
}
