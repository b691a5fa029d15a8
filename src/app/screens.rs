//! The screens as states: the title, a scenario's briefing, the table, the result of a battle
//! that is over, and the game menu over the table. A game (the `Game` resource) exists on
//! every screen but the title.

pub use super::state::{InGame, Menu, Screen};
use super::{Game, Replay, lesson, opponent, title};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .add_sub_state::<Menu>()
        .add_computed_state::<InGame>()
        .add_systems(OnEnter(Screen::Title), leave_the_game)
        .add_systems(
            Update,
            see_the_end
                .run_if(in_state(InGame))
                .before(super::AppSystems::Input),
        );
}

/// Back at the title: the game, its tutorial, replay and opponent leave; the title lists the
/// scenarios and saves afresh (a game in play stays in the autosave, to resume).
fn leave_the_game(
    mut commands: Commands,
    game: Option<Res<Game>>,
    screen: Option<Res<title::TitleScreen>>,
) {
    let Some(game) = game else {
        // The window opened on the title: its screen is already made.
        if screen.is_none() {
            commands.insert_resource(title::TitleScreen::scan(
                &crate::rules::scenario::default_path(),
                &super::default_save_dir(),
            ));
        }
        return;
    };
    commands.remove_resource::<Game>();
    commands.remove_resource::<super::editor::Editor>();
    commands.remove_resource::<lesson::Tutoring>();
    commands.remove_resource::<Replay>();
    commands.remove_resource::<opponent::Computer>();
    commands.insert_resource(title::TitleScreen::scan(
        &crate::rules::scenario::default_path(),
        &game.save_dir,
    ));
}

/// A battle that ends shows its result; a game loaded over a finished one goes on. A tutorial
/// and a replay end in their own panels.
fn see_the_end(
    game: Res<Game>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    shown: (Option<Res<lesson::Tutoring>>, Option<Res<Replay>>),
) {
    let over = game.play.is_over() && shown.0.is_none() && shown.1.is_none();
    match screen.get() {
        Screen::Playing if over => next.set(Screen::GameOver),
        Screen::GameOver if !over => next.set(Screen::Playing),
        _ => {}
    }
}
