//! Save slots: the list of saves (each with its scenario, turn, side to move and time), the
//! Save and Load windows, and the questions asked before a slot is overwritten or the game in
//! play is replaced.

use super::{Game, Intent};
use crate::rules::Battle;
use crate::rules::save::{self, About};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::path::{Path, PathBuf};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Dialog>().add_systems(
        EguiPrimaryContextPass,
        (save_window, load_window, confirm_overwrite, confirm_load)
            .chain()
            .run_if(resource_exists::<Game>),
    );
}

/// The save window or the load window, open over the table.
#[derive(Resource, Default, Clone, Debug)]
pub enum Dialog {
    #[default]
    Closed,
    /// Saving: the slot's name as typed (a new game's default: scenario, turn, side, time).
    Save(String),
    /// Loading: the saves found.
    Load(Vec<Slot>),
}

impl Dialog {
    /// The save window, with the default name for `b`'s game.
    pub fn save(b: &Battle) -> Self {
        Dialog::Save(default_name(b))
    }

    /// The load window, listing the saves in `dir`.
    pub fn load(dir: &Path) -> Self {
        Dialog::Load(list(dir))
    }

    pub fn is_open(&self) -> bool {
        !matches!(self, Dialog::Closed)
    }
}

/// One save as the lists show it.
#[derive(Clone, Debug)]
pub struct Slot {
    pub path: PathBuf,
    /// Its label, or why the file cannot be read.
    pub about: Result<About, String>,
}

impl Slot {
    /// The slot's name: the one it was saved under, else its file's.
    pub fn name(&self) -> String {
        match &self.about {
            Ok(a) if !a.name.is_empty() => a.name.clone(),
            _ => self
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default(),
        }
    }

    /// "Rossbach · turn 3 · Prussia to move · 2026-11-26 18:25 UTC", or the reason it cannot be
    /// loaded.
    pub fn detail(&self) -> String {
        match &self.about {
            Ok(a) => format!(
                "{} · turn {} · {} · {}",
                a.scenario,
                a.turn,
                if a.over {
                    "the battle is over".to_string()
                } else {
                    format!("{} to move", a.side)
                },
                when(a.saved)
            ),
            Err(e) => format!("cannot be loaded: {e}"),
        }
    }
}

/// The saves in `dir`, newest first (the autosave of a game cut short is offered apart, and
/// files that cannot be read come last, with their reason).
pub fn list(dir: &Path) -> Vec<Slot> {
    let mut slots: Vec<Slot> = std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .filter(|p| {
                    p.file_name().is_some_and(|n| {
                        let n = n.to_string_lossy();
                        !n.starts_with('.') && n != "autosave.ron"
                    })
                })
                .map(|path| read_slot(&path))
                .collect()
        })
        .unwrap_or_default();
    slots.sort_by(|a, b| {
        let key = |s: &Slot| s.about.as_ref().map(|a| a.saved).ok();
        key(b).cmp(&key(a)).then_with(|| a.path.cmp(&b.path))
    });
    slots
}

/// One save file as the lists show it.
pub fn read_slot(path: &Path) -> Slot {
    Slot {
        about: save::header(path).map_err(|d| {
            d.first()
                .map(|x| x.message.clone())
                .unwrap_or_else(|| "unreadable".into())
        }),
        path: path.to_path_buf(),
    }
}

/// The file of the slot called `name` in `dir`: its letters and digits, lower case, the rest
/// underscores (so "Rossbach, turn 3" and "rossbach turn 3" are one slot).
pub fn slot_path(dir: &Path, name: &str) -> PathBuf {
    let mut file = String::new();
    for c in name.trim().chars() {
        if c.is_alphanumeric() || c == '-' {
            file.extend(c.to_lowercase());
        } else if !file.ends_with('_') {
            file.push('_');
        }
    }
    let file = file.trim_matches('_');
    let file = if file.is_empty() { "save" } else { file };
    dir.join(format!("{file}.ron"))
}

/// A new save's name: scenario, turn, side to move and the time (UTC).
pub fn default_name(b: &Battle) -> String {
    let side = b
        .sides
        .get(b.active)
        .map(|s| s.name.clone())
        .unwrap_or_default();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format!(
        "{}, turn {}, {side}, {}",
        b.info.name,
        b.turn,
        when(now).trim_end_matches(" UTC")
    )
}

/// Seconds since 1970 as "2026-11-26 18:25 UTC" (the calendar from Howard Hinnant's
/// days-from-civil algorithm, inverted); 0, a time unknown, as "time unknown".
pub fn when(secs: u64) -> String {
    if secs == 0 {
        return "time unknown".into();
    }
    let days = (secs / 86_400) as i64;
    let (h, m) = ((secs % 86_400) / 3600, (secs % 3600) / 60);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mo = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(mo <= 2);
    format!("{y}-{mo:02}-{d:02} {h:02}:{m:02} UTC")
}

/// A lesson and a replay load nothing: why, or None where loading is allowed.
pub fn load_refused(tutoring: bool, replay: bool) -> Option<&'static str> {
    if tutoring {
        Some("A lesson goes forwards only: its dice are set.")
    } else if replay {
        Some("a replay only shows the game: close it to play")
    } else {
        None
    }
}

fn save_window(
    mut ctx: EguiContexts,
    mut dialog: ResMut<Dialog>,
    game: Res<Game>,
    mut intents: MessageWriter<Intent>,
    mut slots: Local<Option<Vec<Slot>>>,
) -> Result {
    let Dialog::Save(name) = dialog.as_mut() else {
        *slots = None;
        return Ok(());
    };
    let ctx = ctx.ctx_mut()?;
    // The slots are read once, as the window opens, and the name is ready to type over.
    let opening = slots.is_none();
    let slots = slots.get_or_insert_with(|| list(&game.save_dir));
    let mut close = false;
    egui::Modal::new(egui::Id::new("save_window")).show(ctx, |ui| {
        ui.set_width(560.0);
        ui.heading("Save the game");
        ui.horizontal(|ui| {
            ui.label("Name");
            let edit = ui.add(egui::TextEdit::singleline(name).desired_width(440.0));
            if opening {
                edit.request_focus();
            }
            if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                intents.write(Intent::SaveAs(name.clone()));
                close = true;
            }
        });
        let target = slot_path(&game.save_dir, name);
        if target.exists() {
            ui.colored_label(
                egui::Color32::from_rgb(255, 200, 90),
                "A save of this name exists: you will be asked before it is overwritten.",
            );
        }
        if !slots.is_empty() {
            ui.add_space(4.0);
            ui.small("Saves (click one to save over it, or type a new name):");
            egui::ScrollArea::vertical()
                .max_height(220.0)
                .show(ui, |ui| {
                    egui::Grid::new("save_slots")
                        .striped(true)
                        .num_columns(2)
                        .show(ui, |ui| {
                            for s in slots.iter() {
                                let chosen = s.path == target;
                                if ui.selectable_label(chosen, s.name()).clicked() {
                                    *name = s.name();
                                }
                                ui.small(s.detail());
                                ui.end_row();
                            }
                        });
                });
        }
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!name.trim().is_empty(), egui::Button::new("Save"))
                .on_disabled_hover_text("Give the save a name")
                .clicked()
            {
                intents.write(Intent::SaveAs(name.clone()));
                close = true;
            }
            if ui
                .button("Quicksave")
                .on_hover_text("Save in the quicksave slot (asked first if it holds a game)")
                .clicked()
            {
                intents.write(Intent::Save);
                close = true;
            }
            if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                close = true;
            }
        });
    });
    if close {
        *dialog = Dialog::Closed;
    }
    Ok(())
}

fn load_window(
    mut ctx: EguiContexts,
    mut dialog: ResMut<Dialog>,
    mut intents: MessageWriter<Intent>,
) -> Result {
    let Dialog::Load(slots) = dialog.as_ref() else {
        return Ok(());
    };
    let ctx = ctx.ctx_mut()?;
    let mut close = false;
    egui::Modal::new(egui::Id::new("load_window")).show(ctx, |ui| {
        ui.set_width(640.0);
        ui.heading("Load a saved game");
        if slots.is_empty() {
            ui.label("No saves yet: Ctrl+S saves the game in play.");
        }
        egui::ScrollArea::vertical()
            .max_height(320.0)
            .show(ui, |ui| {
                egui::Grid::new("load_slots")
                    .striped(true)
                    .num_columns(3)
                    .show(ui, |ui| {
                        for s in slots {
                            ui.strong(s.name());
                            ui.label(s.detail());
                            if ui
                                .add_enabled(s.about.is_ok(), egui::Button::new("Load"))
                                .on_disabled_hover_text("This file cannot be loaded")
                                .clicked()
                            {
                                intents.write(Intent::Load(s.path.clone()));
                                close = true;
                            }
                            ui.end_row();
                        }
                    });
            });
        ui.add_space(6.0);
        if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
            close = true;
        }
    });
    if close {
        *dialog = Dialog::Closed;
    }
    Ok(())
}

/// A slot that holds a game is overwritten only when the player says so.
fn confirm_overwrite(
    mut ctx: EguiContexts,
    game: Res<Game>,
    mut intents: MessageWriter<Intent>,
    mut read: Local<Option<Slot>>,
) -> Result {
    let Some((path, name)) = &game.confirm_save else {
        *read = None;
        return Ok(());
    };
    let ctx = ctx.ctx_mut()?;
    // The slot's file is read once, not every frame.
    let what = read.get_or_insert_with(|| read_slot(path)).detail();
    egui::Modal::new(egui::Id::new("confirm_overwrite")).show(ctx, |ui| {
        ui.heading(format!("Overwrite \"{name}\"?"));
        ui.label(format!("It holds a game: {what}. That game would be lost."));
        ui.horizontal(|ui| {
            if ui.button("Overwrite").clicked() {
                intents.write(Intent::OverwriteConfirmed);
            }
            if ui.button("Keep it").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                intents.write(Intent::CancelSave);
            }
        });
    });
    Ok(())
}

/// Loading a save replaces the game in play: the player confirms first.
fn confirm_load(
    mut ctx: EguiContexts,
    game: Res<Game>,
    mut intents: MessageWriter<Intent>,
    mut read: Local<Option<Slot>>,
) -> Result {
    let Some(path) = &game.confirm_load else {
        *read = None;
        return Ok(());
    };
    let ctx = ctx.ctx_mut()?;
    let name = read.get_or_insert_with(|| read_slot(path));
    egui::Modal::new(egui::Id::new("confirm_load")).show(ctx, |ui| {
        ui.heading(format!("Load \"{}\"?", name.name()));
        ui.label(format!(
            "The game in play is replaced by {}; what was played since it was last saved is lost.",
            name.detail()
        ));
        ui.horizontal(|ui| {
            if ui.button("Load").clicked() {
                intents.write(Intent::LoadConfirmed);
            }
            if ui.button("Keep playing").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape))
            {
                intents.write(Intent::CancelLoad);
            }
        });
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_names_make_plain_file_names_and_times_read_as_dates() {
        let d = Path::new("saves");
        assert_eq!(
            slot_path(d, "Rossbach, turn 3, Prussia, 2026-11-26 18:25"),
            d.join("rossbach_turn_3_prussia_2026-11-26_18_25.ron")
        );
        assert_eq!(slot_path(d, " ../ "), d.join("save.ron"));
        assert_eq!(slot_path(d, "quicksave"), d.join("quicksave.ron"));
        assert_eq!(when(0), "time unknown");
        assert_eq!(when(1_795_717_500), "2026-11-26 18:25 UTC");
        assert_eq!(when(951_782_400), "2000-02-29 00:00 UTC");
    }
}
