//! Mouse and keys become intents: select, hover, drag a base with a measured preview, choose
//! targets, undo, the save and load windows and the game menu. Nothing here changes the battle.

use super::camera::{cursor_world, zoom_at_cursor};
use super::slots::Dialog;
use super::state::Menu;
pub use super::state::{BoardCamera, CardShown, Drag, Overlays, Pointer, Selection};
use super::{AppSystems, Game, Intent};
use crate::rules::command::{Command, Step};
use crate::rules::geometry::{Base, Corner, Pt};
use crate::rules::model::UnitId;
use crate::rules::ruleset::common::click_command;
use crate::rules::ruleset::{MovePlan, MoveRequest};
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Pointer>()
        .init_resource::<PanelsHavePointer>()
        .init_resource::<Selection>()
        .init_resource::<Overlays>()
        .add_systems(
            Update,
            (
                forget_the_last_game.run_if(resource_added::<Game>),
                panels_have_pointer,
                track_pointer.run_if(any_with_component::<BoardCamera>),
                mouse.run_if(pointer_free),
                keys.run_if(keyboard_free),
                wheel_turns,
                preview_drag,
            )
                .chain()
                .in_set(AppSystems::Input),
        );
}

/// A new game (from the title screen, or a replay) starts with nothing selected.
fn forget_the_last_game(mut sel: ResMut<Selection>) {
    *sel = Selection::default();
}

/// True unless a panel has the pointer (always, headless).
/// The pointer is over a panel, or a panel is using it: the table leaves it alone, the wheel
/// included (the log scrolls; the table does not zoom).
#[derive(Resource, Default)]
pub struct PanelsHavePointer(pub bool);

/// Asks the panels whether they have the pointer (where there are panels: a headless app
/// sets the answer itself).
fn panels_have_pointer(
    egui: Option<Res<EguiWantsInput>>,
    docks: Option<Res<super::state::Docks>>,
    mut have: ResMut<PanelsHavePointer>,
) {
    if let Some(e) = egui {
        have.0 = e.wants_any_pointer_input() || docks.is_some_and(|d| d.has_pointer);
    }
}

fn pointer_free(panels: Res<PanelsHavePointer>) -> bool {
    !panels.0
}

fn keyboard_free(egui: Option<Res<EguiWantsInput>>) -> bool {
    egui.is_none_or(|e| !e.wants_any_keyboard_input())
}

pub(super) fn track_pointer(
    windows: Query<&Window>,
    cams: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    game: Res<Game>,
    mut ptr: ResMut<Pointer>,
    panels: Res<PanelsHavePointer>,
) {
    ptr.world = cursor_world(&windows, &cams);
    // A unit under a panel or the turn bar is not hovered through it.
    ptr.hover = ptr.world.filter(|_| !panels.0).and_then(|w| {
        let p = Pt::new(w.x, w.y);
        game.play
            .alive()
            .filter(|u| u.shapes().iter().any(|s| s.contains(p)))
            .last()
            .map(|u| u.id.clone())
    });
}

fn mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    ptr: Res<Pointer>,
    mut sel: ResMut<Selection>,
    mut game: ResMut<Game>,
    mut intents: MessageWriter<Intent>,
    // Who else is at the table: a tutorial, or the opponent.
    (lesson, computer): (
        Option<Res<super::lesson::Tutoring>>,
        Option<Res<super::opponent::Computer>>,
    ),
) {
    let tutoring = lesson.is_some();
    let hotseat = computer.is_none();
    if game.play.is_over() {
        return;
    }
    if buttons.just_pressed(MouseButton::Left)
        && let Some(deployment) = game.play.rules.deployment(&game.play)
        && let (Some(unit), Some(w)) = (sel.placing.clone(), ptr.world)
    {
        let facing = deployment.facing;
        intents.write(Intent::Do(Command::Deploy {
            unit,
            x: w.x,
            y: w.y,
            facing,
        }));
        sel.placing = None;
        return;
    }
    if buttons.just_pressed(MouseButton::Left) {
        let Some(w) = ptr.world else { return };
        match ptr.hover.clone() {
            Some(id) => {
                if game.play.unit(&id).is_err() {
                    return;
                }
                let held = |a, b| keys.pressed(a) || keys.pressed(b);
                let shift = held(KeyCode::ShiftLeft, KeyCode::ShiftRight);
                let ctrl = held(KeyCode::ControlLeft, KeyCode::ControlRight);
                click_unit(&mut sel, &mut game, id, w, (shift, ctrl), hotseat);
            }
            None => {
                sel.unit = None;
                sel.group.clear();
                game.pending = None;
            }
        }
    }
    if buttons.just_released(MouseButton::Left)
        && let Some(drag) = sel.drag.take()
    {
        drop_drag(&drag, tutoring, &mut game, &mut intents);
    }
}

/// A click on unit `id` at `w` on the table, with Shift and Ctrl held or not: on an enemy of
/// the selected unit, aim at it (or say why it may not be); with Shift on another of one's own,
/// add it to or take it from the group; on a unit of a side that acts, select it and start
/// dragging it (Ctrl: a skirmisher's stand alone); on any other, select it to read its card.
fn click_unit(
    sel: &mut Selection,
    game: &mut Game,
    id: UnitId,
    w: Vec2,
    (shift, ctrl): (bool, bool),
    hotseat: bool,
) {
    let acting = game.commanding_sides(hotseat);
    let active = acting.first().copied().unwrap_or(game.play.active);
    let Ok(u) = game.play.unit(&id) else { return };
    // Only a selected unit of a side acting now aims: an enemy selected to read its card
    // aims at nothing, and a click on one's own unit then just selects it.
    let own = sel
        .unit
        .clone()
        .filter(|s| game.play.unit(s).is_ok_and(|x| acting.contains(&x.side)));
    // A click on an enemy of the selected unit aims at it, even where its side acts too (both
    // sides declare charges and fire in Hal's).
    let aimed = (!(shift && u.side == active))
        .then(|| own.clone())
        .flatten()
        .and_then(|own| click_command(game.play.rules.get(), &game.play, &own, &id));
    // Aimed at an enemy it cannot act on now (both sides acting, so the click selects it
    // instead): the player is told why.
    let why_not = aimed
        .is_none()
        .then_some(own)
        .flatten()
        .and_then(|own| aim_refused(&game.play, &own, &id));
    if let Some(cmd) = aimed {
        game.pending = Some(cmd);
    } else if u.side == active && shift && sel.unit.as_ref().is_some_and(|s| s != &id) {
        // Shift+click adds to or removes from the group.
        if let Some(i) = sel.group.iter().position(|g| g == &id) {
            sel.group.remove(i);
        } else {
            sel.group.push(id);
        }
    } else if acting.contains(&u.side) {
        let units = sel.movers(&id);
        if units.len() == 1 {
            sel.group.clear();
        }
        sel.unit = Some(id.clone());
        if let Some(drag) = start_drag(&game.play, u, units, w, ctrl) {
            sel.drag = Some(drag);
        }
    } else {
        sel.unit = Some(id);
    }
    if let Some(why) = why_not.filter(|_| !shift) {
        game.message = Some(why);
    }
}

/// The drag a press on `u` at `w` begins, of `units` (or, with Ctrl on a skirmisher's stand,
/// that stand alone); a unit that may not move again is still dragged, red, with the reason;
/// None where it may not move for another reason.
fn start_drag(
    play: &crate::rules::Game,
    u: &crate::rules::model::Unit,
    units: Vec<UnitId>,
    w: Vec2,
    ctrl: bool,
) -> Option<Drag> {
    let b: &crate::rules::Battle = play;
    let stand = (ctrl && play.rules.loose_stands(b, u))
        .then(|| {
            play.rules
                .look(b, u)
                .stands
                .iter()
                .position(|(s, _)| s.contains(Pt::new(w.x, w.y)))
                .map(|i| i + 1)
        })
        .flatten();
    let refused = if play.rules.may_move(b, u) {
        None
    } else if u.bound.moved {
        Some(move_refused(play, u))
    } else {
        return None;
    };
    Some(Drag {
        units,
        stand,
        unit: u.id.clone(),
        start: w,
        turns: Vec::new(),
        steps: Vec::new(),
        plan: Err(refused.clone().unwrap_or_default()),
        checked: None,
        refused,
    })
}

/// A drag let go: its move is given; a refused one is shown with its reason (and, in a
/// tutorial, given too, for the tutor to see the try: a step may ask for exactly this).
fn drop_drag(drag: &Drag, tutoring: bool, game: &mut Game, intents: &mut MessageWriter<Intent>) {
    if drag.steps.is_empty() {
        return;
    }
    match &drag.plan {
        Ok(_) => {
            intents.write(Intent::Do(drag.command()));
        }
        Err(e) => {
            if tutoring {
                intents.write(Intent::Do(drag.command()));
            }
            game.message = Some(e.clone())
        }
    }
}

/// Why the selected unit `own` may not act on the clicked enemy `clicked` now, in words: the
/// rules' refusal of the command a click on it would give; None where it may, or where the
/// click means no command.
fn aim_refused(play: &crate::rules::Game, own: &UnitId, clicked: &UnitId) -> Option<String> {
    let b: &crate::rules::Battle = play;
    let (s, c) = (b.unit(own).ok()?, b.unit(clicked).ok()?);
    if s.side == c.side {
        return None;
    }
    let cmd = play.rules.target_command(b, own, clicked)?;
    let e = play.rules.preview(b, &cmd).err()?;
    Some(format!(
        "{} cannot {} {}: {}",
        s.name,
        cmd.verb(),
        c.name,
        crate::text::report::refusal(b, &e)
    ))
}

/// Why the unit may not move now, in the rules' words: the refusal of a short advance.
fn move_refused(play: &crate::rules::Game, u: &crate::rules::model::Unit) -> String {
    let b: &crate::rules::Battle = play;
    let req = MoveRequest {
        units: vec![u.id.clone()],
        stand: None,
        steps: vec![Step::Advance(b.scale.unit.snap())],
    };
    match play.fork().execute(req.command()) {
        Err(e) => crate::text::report::refusal(b, &e),
        Ok(_) => format!("{} may not move again now", u.name),
    }
}

/// The checked move, refused where the command itself would be: the move's check leaves out
/// what the command adds (the command points it costs, a unit that has moved), so the drop is
/// tried on a copy of the battle and the ghost turns red with the command's reason.
fn as_commanded(
    play: &crate::rules::Game,
    drag: &Drag,
    steps: &[Step],
    plan: Result<MovePlan, String>,
) -> Result<MovePlan, String> {
    let b: &crate::rules::Battle = play;
    let plan = plan?;
    match play.fork().execute(drag.request(steps.to_vec()).command()) {
        Ok(_) => Ok(plan),
        Err(e) => Err(crate::text::report::refusal(b, &e)),
    }
}

/// Pixels of smooth scrolling that make one notch of the wheel.
const PIXELS_PER_NOTCH: f32 = 100.0;

/// The wheel's movement in notches: lines as they come, pixels by `PIXELS_PER_NOTCH`.
fn notches(w: &bevy::input::mouse::MouseWheel) -> f32 {
    match w.unit {
        bevy::input::mouse::MouseScrollUnit::Line => w.y,
        bevy::input::mouse::MouseScrollUnit::Pixel => w.y / PIXELS_PER_NOTCH,
    }
}

/// The mouse wheel zooms to the cursor, by as much as it turned; during a drag it turns the
/// base one step per whole notch instead (a notch reported in parts is added up first): up
/// wheels to the left about the left front corner, down to the right about the right; with
/// Shift it pivots on the spot.
fn wheel_turns(
    mut wheel: MessageReader<bevy::input::mouse::MouseWheel>,
    panels: Res<PanelsHavePointer>,
    keys: Res<ButtonInput<KeyCode>>,
    mut sel: ResMut<Selection>,
    mut turned: Local<f32>,
    windows: Query<&Window>,
    mut cams: Query<
        (&Camera, &GlobalTransform, &mut Transform, &mut Projection),
        With<BoardCamera>,
    >,
) {
    // The wheel is read every frame, so that turns over a panel are spent there and never
    // reach the table when the pointer comes back to it.
    let dy: f32 = wheel.read().map(notches).sum();
    if panels.0 {
        *turned = 0.0;
        return;
    }
    let Some(drag) = sel.drag.as_mut() else {
        *turned = 0.0;
        zoom_at_cursor(dy, &windows, &mut cams);
        return;
    };
    // Whole notches turn; the rest waits for the next part of the notch.
    *turned += dy;
    // A hair of slack, so that parts adding up to a notch in floating point make it.
    let steps = (*turned + turned.signum() * 1e-4).trunc();
    *turned -= steps;
    if steps == 0.0 {
        return;
    }
    let dy = steps;
    let shift = keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight);
    let deg = 5.0 * dy.abs();
    drag.turns.push(match (shift, dy > 0.0) {
        (true, true) => Step::Pivot(-deg),
        (true, false) => Step::Pivot(deg),
        (false, true) => Step::Wheel {
            corner: Corner::Left,
            degrees: deg,
        },
        (false, false) => Step::Wheel {
            corner: Corner::Right,
            degrees: deg,
        },
    });
}

#[expect(clippy::too_many_arguments, reason = "a Bevy system's parameters")]
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut sel: ResMut<Selection>,
    mut game: ResMut<Game>,
    mut overlays: ResMut<Overlays>,
    mut intents: MessageWriter<Intent>,
    mut dialog: ResMut<Dialog>,
    mut menu: ResMut<NextState<Menu>>,
    shown: (
        Option<Res<super::lesson::Tutoring>>,
        Option<Res<super::Replay>>,
    ),
) {
    let ctrl = keys.pressed(KeyCode::ControlLeft) || keys.pressed(KeyCode::ControlRight);
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        sel.drag = None;
        intents.write(Intent::Undo);
    }
    // A window asking a question answers its own keys.
    let asking = dialog.is_open() || game.confirm_load.is_some() || game.confirm_save.is_some();
    if ctrl && keys.just_pressed(KeyCode::KeyS) && !asking {
        sel.drag = None;
        *dialog = Dialog::save(&game.play);
    }
    if ctrl && keys.just_pressed(KeyCode::KeyO) && !asking {
        sel.drag = None;
        match super::slots::load_refused(shown.0.is_some(), shown.1.is_some()) {
            Some(why) => game.message = Some(why.into()),
            None => *dialog = Dialog::load(&game.save_dir),
        }
    }
    // Esc lets go of a drag, then closes the preview, then opens the game menu.
    if keys.just_pressed(KeyCode::Escape) && !asking {
        if sel.drag.is_some() {
            sel.drag = None;
        } else if game.pending.is_some() {
            game.pending = None;
        } else {
            menu.set(Menu::Open);
        }
    }
    if keys.just_pressed(KeyCode::F1) {
        overlays.rules = !overlays.rules;
    }
    if keys.just_pressed(KeyCode::KeyG) && !ctrl {
        overlays.legend = !overlays.legend;
    }
    if keys.just_pressed(KeyCode::KeyN) && !ctrl {
        overlays.symbols = !overlays.symbols;
    }
    if keys.just_pressed(KeyCode::KeyI) && !ctrl {
        overlays.names = !overlays.names;
    }
    if keys.just_pressed(KeyCode::KeyV) && !ctrl {
        overlays.plan = !overlays.plan;
    }
    if !ctrl {
        let o = overlays.as_mut();
        for (key, flag) in [
            (KeyCode::KeyF, &mut o.arcs),
            (KeyCode::KeyZ, &mut o.zones),
            (KeyCode::KeyL, &mut o.sight),
            (KeyCode::KeyM, &mut o.reach),
        ] {
            if keys.just_pressed(key) {
                *flag = !*flag;
            }
        }
    }
    if let Some(drag) = sel.drag.as_mut() {
        // Q/E wheel about the left/right front corner, R/T pivot, B about face.
        let turn = |k: KeyCode| keys.just_pressed(k);
        if turn(KeyCode::KeyQ) {
            drag.turns.push(Step::Wheel {
                corner: Corner::Left,
                degrees: 15.0,
            });
        }
        if turn(KeyCode::KeyE) {
            drag.turns.push(Step::Wheel {
                corner: Corner::Right,
                degrees: 15.0,
            });
        }
        if turn(KeyCode::KeyR) {
            drag.turns.push(Step::Pivot(-15.0));
        }
        if turn(KeyCode::KeyT) {
            drag.turns.push(Step::Pivot(15.0));
        }
        if turn(KeyCode::KeyB) {
            drag.turns.push(Step::AboutFace);
        }
        if turn(KeyCode::Backspace) {
            drag.turns.pop();
        }
        if keys.just_pressed(KeyCode::Enter) && drag.plan.is_ok() && !drag.steps.is_empty() {
            let d = sel.drag.take();
            if let Some(d) = d {
                intents.write(Intent::Do(d.command()));
            }
        }
    }
}

impl Drag {
    /// The command this drag gives.
    fn command(&self) -> Command {
        self.request(self.steps.clone()).command()
    }

    /// The move this drag asks for: of one stand, one unit, or a group together.
    fn request(&self, steps: Vec<Step>) -> MoveRequest {
        MoveRequest {
            units: match self.stand {
                Some(_) => vec![self.unit.clone()],
                None => self.units.clone(),
            },
            stand: self.stand,
            steps,
        }
    }

    /// Where the dragged bases would end with the pointer at `cursor`: the checked move's ends,
    /// or for a move refused, the base turned as the player turned it and carried to the
    /// pointer.
    pub fn ghost(&self, play: &crate::rules::Game, cursor: Vec2) -> Vec<Base> {
        let b: &crate::rules::Battle = play;
        if let Ok(p) = &self.plan {
            return p.ends.iter().map(|(_, e)| *e).collect();
        }
        let Some(start) = self.moving_base(play) else {
            return Vec::new();
        };
        let turned = preview_turns(start, &merged(&self.turns), b.scale.mm_per_unit);
        vec![Base {
            centre: turned
                .centre
                .plus(Pt::new(cursor.x - self.start.x, cursor.y - self.start.y)),
            ..turned
        }]
    }

    /// The base that moves: the unit's, or the dragged stand's.
    pub fn moving_base(&self, play: &crate::rules::Game) -> Option<Base> {
        let b: &crate::rules::Battle = play;
        let u = b.unit(&self.unit).ok()?;
        match self.stand {
            Some(k) => play.rules.look(b, u).stands.get(k - 1).map(|(s, _)| *s),
            None => Some(u.base),
        }
    }
}

/// Merges the turns made with keys into one wheel or pivot where they repeat.
fn merged(turns: &[Step]) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    for t in turns {
        match (out.last_mut(), t) {
            (
                Some(Step::Wheel {
                    corner: c,
                    degrees: d,
                }),
                Step::Wheel { corner, degrees },
            ) if c == corner => *d += degrees,
            (Some(Step::Pivot(d)), Step::Pivot(e)) => *d += e,
            _ => out.push(t.clone()),
        }
    }
    out
}

/// How near (mm) to an enemy a dragged base must be dropped for the drag to become a move into
/// contact with it.
pub const SNAP_MM: f32 = 8.0;

/// The enemies a drop this near may mean to contact, the nearest first.
const SNAP_ENEMIES: usize = 3;

/// The drag's steps and their check with the pointer at `cursor`. A base dropped on or within
/// `SNAP_MM` of an enemy it may contact makes that contact, conformed by the rules: straight on,
/// or after the wheel, pivot or sidestep that lines it up, whichever legal way ends nearest
/// where it was dropped. Dropped on an enemy it may not contact, the move into contact is
/// refused with the rules' reason.
pub fn drag_move(game: &Game, drag: &Drag, cursor: Vec2) -> (Vec<Step>, Result<MovePlan, String>) {
    let (b, rules) = (&game.play.battle, &game.play.rules);
    let check = |steps: &[Step]| {
        rules
            .check_move(b, &drag.request(steps.to_vec()))
            .map_err(|e| crate::text::report::refusal(b, &e))
    };
    let (Ok(u), Some(start)) = (b.unit(&drag.unit), drag.moving_base(&game.play)) else {
        return (Vec::new(), Err(String::new()));
    };
    let turns = merged(&drag.turns);
    // Where the base faces after the turns.
    let frame = preview_turns(start, &turns, b.scale.mm_per_unit);
    let d = cursor - drag.start;
    let dropped = Base {
        centre: frame.centre.plus(Pt::new(d.x, d.y)),
        ..frame
    };
    let plain = drag_steps(game, drag, cursor);
    if drag.stand.is_none() {
        let mut near: Vec<(f32, &crate::rules::model::Unit)> = b
            .alive()
            .filter(|e| e.side != u.side && e.side < 2)
            .map(|e| (e.base.distance(&dropped), e))
            .filter(|(gap, _)| *gap < SNAP_MM)
            .collect();
        // The enemy it was dropped on, or nearest to; of several it lies on, the one whose
        // centre is nearest its own.
        let key =
            |gap: f32, e: &crate::rules::model::Unit| (gap, e.base.centre.dist(dropped.centre));
        near.sort_by(|a, b| {
            let (x, y) = (key(a.0, a.1), key(b.0, b.1));
            x.0.total_cmp(&y.0).then(x.1.total_cmp(&y.1))
        });
        let mut refused: Option<(Vec<Step>, String)> = None;
        // Why the wheel that would line the base up was refused too, where it was tried.
        let mut wheel_refused: Option<String> = None;
        for (_, e) in near.iter().take(SNAP_ENEMIES) {
            let mut best: Option<(f32, Vec<Step>, MovePlan)> = None;
            for tail in contact_tries(b, &frame, &dropped, e) {
                let mut steps = turns.clone();
                steps.extend(tail);
                match check(&steps) {
                    Ok(plan) => {
                        // The simplest way wins unless another ends half a base nearer the
                        // drop for each step it adds.
                        let extra = (steps.len() - turns.len() - 1) as f32 * frame.width / 2.0;
                        let end = plan
                            .ends
                            .first()
                            .map_or(f32::INFINITY, |(_, e)| e.centre.dist(dropped.centre))
                            + extra;
                        if best.as_ref().is_none_or(|(d, _, _)| end < *d) {
                            best = Some((end, steps, plan));
                        }
                    }
                    Err(why) => {
                        let over = e.base.overlaps(&dropped);
                        if over
                            && wheel_refused.is_none()
                            && matches!(steps.get(turns.len()), Some(Step::Wheel { .. }))
                        {
                            wheel_refused = Some(why.clone());
                        }
                        if refused.is_none() && over {
                            refused = Some((steps, why));
                        }
                    }
                }
            }
            if let Some((_, steps, plan)) = best {
                return (steps, Ok(plan));
            }
        }
        if let Some((steps, why)) = refused {
            // Straight on and lined up by a wheel both refused: say both, and what to do.
            let hint = "turn it yourself (Q/E or the mouse wheel while dragging) or move it \
                        nearer first";
            let why = match wheel_refused {
                Some(w) if w != why => {
                    format!("{why}; the wheel that would line it up is refused too ({w}): {hint}")
                }
                Some(_) => format!("{why}, nor after the wheel that would line it up: {hint}"),
                None => why,
            };
            return (steps, Err(why));
        }
    }
    if plain.is_empty() {
        return (plain, Err(String::new()));
    }
    match rules.check_move(b, &drag.request(plain.clone())) {
        Ok(plan) => (plain, Ok(plan)),
        // Dragged a little past its allowance (by a tenth of it at most), the base goes as far
        // as the allowance lets it, the way it was dragged: the last step shortened. Farther
        // off, the drop is refused with the distance, as the player meant to go there.
        Err(crate::rules::command::RuleError::TooFar {
            distance,
            allowance,
            ..
        }) if distance > 0.0 && allowance > 0.0 && distance <= allowance * 1.1 => {
            let q = b.scale.unit.snap();
            let mut k = allowance / distance;
            for _ in 0..8 {
                let Some(short) = shortened(&plain, k, q) else {
                    break;
                };
                if let Ok(plan) = check(&short) {
                    return (short, Ok(plan));
                }
                k *= 0.97;
            }
            let why = check(&plain).err().unwrap_or_default();
            (plain, Err(why))
        }
        Err(e) => {
            let why = crate::text::report::refusal(b, &e);
            (plain, Err(why))
        }
    }
}

/// `steps` with its last step (a move straight on, back, aside or oblique) cut to `k` of its
/// length, snapped down to `q`; None where that leaves nothing or the last step is not such a
/// move.
fn shortened(steps: &[Step], k: f32, q: f32) -> Option<Vec<Step>> {
    let (last, first) = steps.split_last()?;
    let cut = |x: f32| (x * k / q).trunc() * q;
    let step = match *last {
        Step::Advance(d) => Step::Advance(cut(d)),
        Step::Backstep(d) => Step::Backstep(cut(d)),
        Step::Sidestep(d) => Step::Sidestep(cut(d)),
        Step::Oblique { forward, right } => Step::Oblique {
            forward: cut(forward),
            right: cut(right),
        },
        _ => return None,
    };
    let nothing = match step {
        Step::Advance(d) | Step::Backstep(d) | Step::Sidestep(d) => d.abs() < q / 2.0,
        Step::Oblique { forward, right } => forward.abs() < q / 2.0 && right.abs() < q / 2.0,
        _ => true,
    };
    if nothing {
        return None;
    }
    let mut out = first.to_vec();
    out.push(step);
    Some(out)
}

/// The ways a base facing as `frame` may go into contact with `e`, each ending in the move into
/// contact: straight on; wheeling or pivoting to face it or to square up to the face it meets;
/// stepping aside by as much as it was dragged aside, or to line up with it.
fn contact_tries(
    b: &crate::rules::battle::Battle,
    frame: &Base,
    dropped: &Base,
    e: &crate::rules::model::Unit,
) -> Vec<Vec<Step>> {
    use crate::rules::geometry::norm_deg;
    use crate::rules::ruleset::common::heading_deg;
    let to = Step::ToContact(e.id.clone());
    let mut tries = vec![vec![to.clone()]];
    let face = heading_deg(e.base.centre.minus(frame.front_centre()));
    let edge = e.base.edge_facing(frame.front_centre());
    let square = heading_deg(e.base.normal(edge).scale(-1.0));
    for heading in [face, square] {
        let a = norm_deg(heading - frame.facing);
        if !(0.5..=90.0).contains(&a.abs()) {
            continue;
        }
        let corner = if a > 0.0 { Corner::Right } else { Corner::Left };
        tries.push(vec![
            Step::Wheel {
                corner,
                degrees: a.abs(),
            },
            to.clone(),
        ]);
        tries.push(vec![Step::Pivot(a), to.clone()]);
    }
    let q = b.scale.unit.snap();
    let across = |p: Pt| {
        let mm = p.minus(frame.centre).dot(frame.right());
        (b.scale.from_mm(mm) / q).round() * q
    };
    for r in [across(dropped.centre), across(e.base.centre)] {
        if r.abs() >= q {
            tries.push(vec![Step::Sidestep(r), to.clone()]);
        }
    }
    tries
}

/// Turns the drag into the steps of a plain move: an advance, a step back, a sidestep or an
/// oblique move as the pointer went, after the turns made with keys and the wheel.
pub fn drag_steps(game: &Game, drag: &Drag, cursor: Vec2) -> Vec<Step> {
    let b = &game.play;
    let Some(start) = drag.moving_base(b) else {
        return Vec::new();
    };
    let mut steps = merged(&drag.turns);
    // Where the base faces after the turns.
    let frame = preview_turns(start, &steps, b.scale.mm_per_unit);
    let d = cursor - drag.start;
    let fwd = d.x * frame.forward().x + d.y * frame.forward().y;
    let right = d.x * frame.right().x + d.y * frame.right().y;
    // Distances snap to 5 paces, or a quarter inch.
    let q = b.scale.unit.snap();
    let units = |mm: f32| (b.scale.from_mm(mm) / q).round() * q;
    let (f, r) = (units(fwd), units(right));
    if r.abs() < 0.15 * f.abs().max(q / 5.0) || r.abs() < q {
        if f > 0.0 {
            steps.push(Step::Advance(f));
        } else if f < 0.0 {
            steps.push(Step::Backstep(-f));
        }
    } else if f.abs() < 0.15 * r.abs() || f.abs() < q {
        steps.push(Step::Sidestep(r));
    } else {
        steps.push(Step::Oblique {
            forward: f,
            right: r,
        });
    }
    steps
}

/// The base after turning steps only (for the drag's frame of reference).
fn preview_turns(mut base: Base, steps: &[Step], _mm_per_unit: f32) -> Base {
    for s in steps {
        base = match *s {
            Step::Wheel {
                corner: Corner::Left,
                degrees,
            } => base.rotated_about(base.front_left(), -degrees),
            Step::Wheel {
                corner: Corner::Right,
                degrees,
            } => base.rotated_about(base.front_right(), degrees),
            Step::Pivot(d) => base.rotated_about(base.centre, d),
            Step::AboutFace => base.rotated_about(base.centre, 180.0),
            _ => base,
        };
    }
    base
}

fn preview_drag(ptr: Res<Pointer>, game: Res<Game>, mut sel: ResMut<Selection>) {
    let Some(cursor) = ptr.world else { return };
    let Some(drag) = sel.drag.as_mut() else {
        return;
    };
    // The full move check runs whenever the pointer or the turns change.
    let now = (cursor, drag.turns.len());
    if drag.checked == Some(now) {
        return;
    }
    let (steps, plan) = match &drag.refused {
        Some(why) => (drag_steps(&game, drag, cursor), Err(why.clone())),
        None => {
            let (steps, plan) = drag_move(&game, drag, cursor);
            let plan = as_commanded(&game.play, drag, &steps, plan);
            (steps, plan)
        }
    };
    drag.plan = plan;
    drag.steps = steps;
    drag.checked = Some(now);
}
