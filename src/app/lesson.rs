//! A guided tutorial in the window: the tutor judges each command before the battle sees it,
//! and each step switches on its overlays and rings its units and places.

use super::state::Overlays;
use super::{AppSystems, Game};
use crate::text::lesson::{Lesson, Tutor};
use bevy::prelude::*;

/// The lesson being taught.
#[derive(Resource)]
pub struct Tutoring {
    pub tutor: Tutor,
    /// The step whose overlays and highlights are on the table.
    shown: Option<usize>,
    /// The game as the lesson began, to put a newcomer back on the lesson's path.
    pub start: Option<crate::rules::Game>,
}

impl Tutoring {
    pub fn new(lesson: Lesson) -> Self {
        Tutoring {
            tutor: Tutor::new(lesson),
            shown: None,
            start: None,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        show_step
            .run_if(resource_exists::<Tutoring>)
            .in_set(AppSystems::Draw),
    );
}

/// A new step: its overlays (and no others), its units ringed; the newcomer holds every seat.
fn show_step(
    mut tutoring: ResMut<Tutoring>,
    mut game: ResMut<Game>,
    mut overlays: ResMut<Overlays>,
) {
    let (b, rules) = (&game.play.battle, &game.play.rules);
    let acting = rules.acting_sides(b).first().copied().unwrap_or(b.active);
    if game.seated != Some(acting) {
        game.seated = Some(acting);
    }
    if tutoring.start.is_none() && tutoring.tutor.step == 0 {
        tutoring.start = Some(game.play.clone());
    }
    if tutoring.shown == Some(tutoring.tutor.step) {
        return;
    }
    tutoring.shown = Some(tutoring.tutor.step);
    let Some(step) = tutoring.tutor.current() else {
        game.highlight.clear();
        return;
    };
    let (rules, legend, symbols, names) = (
        overlays.rules,
        overlays.legend,
        overlays.symbols,
        overlays.names,
    );
    *overlays = Overlays {
        arcs: false,
        rules,
        legend,
        symbols,
        names,
        ..Overlays::default()
    };
    // The lesson's check refused any name that is not an overlay.
    for o in &step.overlays {
        let _ = overlays.switch_on(o);
    }
    game.highlight = step.highlight.clone();
}
