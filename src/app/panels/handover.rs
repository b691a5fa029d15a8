//! The hotseat handover: the table hidden while the seat passes to the other side.

use super::banners::banner;
use crate::app::colours::side_colour;
use crate::app::state::{Docks, Screen};
use crate::app::{Game, PanelSystems};
use crate::text::report;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HandoverShown>();
    app.add_systems(
        EguiPrimaryContextPass,
        handover
            .run_if(in_state(Screen::Playing))
            .in_set(PanelSystems::Handover),
    );
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
    replay: Option<Res<crate::app::Replay>>,
    computer: Option<Res<crate::app::opponent::Computer>>,
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
            let end = game.play.rules.turn_words(&game.play).end;
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
    let b = &game.play;
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
            report::turn_line(&game.play),
            game.play.phase.name()
        ));
        if ui.button("Take the seat").clicked() {
            game.seated = Some(side);
        }
    });
    Ok(())
}
