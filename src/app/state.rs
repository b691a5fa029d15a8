//! What the window's parts share besides the game: the screen shown, the selection, the
//! pointer, the overlays switched on, the docks' room and the board's camera. It uses no other
//! part of the window, so that every part may use it.

use crate::rules::command::Step;
use crate::rules::model::UnitId;
use crate::rules::ruleset::MovePlan;
use bevy::prelude::*;

/// Which screen is shown.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    /// Scenarios, saves and tutorials to choose from.
    #[default]
    Title,
    /// The scenario's briefing over the table, before the first command.
    Briefing,
    /// At the table: commands, the opponent, a tutorial or a replay.
    Playing,
    /// The battle is over: its result over the table.
    GameOver,
    /// The scenario editor: a draft on the table.
    Editor,
}

/// The game menu (Esc) over the table: while it is open the table takes no input, the
/// opponent waits and a replay stops.
#[derive(SubStates, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[source(Screen = Screen::Playing | Screen::GameOver)]
pub enum Menu {
    #[default]
    Closed,
    Open,
}

/// Any screen with a game on the table (everything but the title and the editor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InGame;

impl ComputedStates for InGame {
    type SourceStates = Screen;

    fn compute(screen: Screen) -> Option<Self> {
        (!matches!(screen, Screen::Title | Screen::Editor)).then_some(InGame)
    }
}

/// The cursor on the table and the unit under it.
#[derive(Resource, Default)]
pub struct Pointer {
    pub world: Option<Vec2>,
    pub hover: Option<UnitId>,
}

/// The selected unit and a drag in progress.
#[derive(Resource, Default)]
pub struct Selection {
    pub unit: Option<UnitId>,
    /// Units added with Shift+click: dragging any of them moves the whole group.
    pub group: Vec<UnitId>,
    pub drag: Option<Drag>,
    /// A unit picked from the deployment list, to be placed with the next click.
    pub placing: Option<UnitId>,
}

/// What the unit card shows: the unit it names, and whether the selected unit's buttons go
/// with it (only when the card names the selected unit: a hovered unit's card never carries
/// another unit's buttons).
#[derive(Clone, Debug, PartialEq)]
pub struct CardShown {
    pub unit: UnitId,
    pub buttons: bool,
}

impl Selection {
    /// The card the side panel shows with `hover` under the pointer: the hovered unit's, else
    /// the selected one's.
    pub fn card(&self, hover: Option<&UnitId>) -> Option<CardShown> {
        let unit = hover.or(self.unit.as_ref())?.clone();
        let buttons = self.unit.as_ref() == Some(&unit);
        Some(CardShown { unit, buttons })
    }

    /// The units a drag of `id` moves: the group if `id` belongs to it, else `id` alone.
    pub fn movers(&self, id: &UnitId) -> Vec<UnitId> {
        let mut all: Vec<UnitId> = self
            .unit
            .iter()
            .cloned()
            .chain(self.group.iter().cloned())
            .collect();
        if all.len() > 1 && all.contains(id) {
            // The dragged unit leads.
            all.retain(|u| u != id);
            all.insert(0, id.clone());
            all
        } else {
            vec![id.clone()]
        }
    }
}

/// A base being dragged: where the pointer started, turns made with keys, and the checked
/// move it would make now.
#[derive(Clone, Debug)]
pub struct Drag {
    pub unit: UnitId,
    /// One skirmish stand moving alone (counted from 1), when Ctrl is held at the start.
    pub stand: Option<usize>,
    /// All units moving (the lead first).
    pub units: Vec<UnitId>,
    pub start: Vec2,
    pub turns: Vec<Step>,
    pub steps: Vec<Step>,
    pub plan: Result<MovePlan, String>,
    /// The pointer and the number of turns the plan was checked for.
    pub checked: Option<(Vec2, usize)>,
    /// Why the unit may not move at all now (it has moved already): the ghost is red with this
    /// reason from the moment the drag begins.
    pub refused: Option<String>,
}

/// Overlay toggles.
#[derive(Resource)]
pub struct Overlays {
    /// F: fire arc and range of the selected unit.
    pub arcs: bool,
    /// Z: threat zones of the enemy.
    pub zones: bool,
    /// L: line of sight from the selected unit to every enemy.
    pub sight: bool,
    /// M: how far the selected unit can move.
    pub reach: bool,
    /// F1: the rules reference.
    pub rules: bool,
    /// G: the legend of terrain, markers and overlays.
    pub legend: bool,
    /// N: units as map symbols instead of figures.
    pub symbols: bool,
    /// I: every unit's name tag at any zoom (else only once zoomed in, and always for the
    /// selected and hovered units and those with a status to show).
    pub names: bool,
    /// V: what the opponent's units go for, by its latest plan (arrows to the places).
    pub plan: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            arcs: true,
            zones: false,
            sight: false,
            reach: false,
            rules: false,
            legend: false,
            symbols: false,
            names: false,
            plan: true,
        }
    }
}

impl Overlays {
    /// Switches on the overlay of this name, or says the name is none of them.
    pub fn switch_on(&mut self, name: &str) -> Result<(), String> {
        match name {
            "arcs" => self.arcs = true,
            "zones" => self.zones = true,
            "sight" => self.sight = true,
            "reach" => self.reach = true,
            "rules" => self.rules = true,
            "legend" => self.legend = true,
            "symbols" => self.symbols = true,
            "names" => self.names = true,
            "plan" => self.plan = true,
            other => {
                return Err(format!(
                    "no overlay '{other}' (arcs, zones, sight, reach, rules, legend, symbols, names, plan)"
                ));
            }
        }
        Ok(())
    }
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

/// The side panel's width as it opens.
pub(super) const SIDE_WIDTH: f32 = 330.0;
/// The log's height as it opens.
pub(super) const LOG_HEIGHT: f32 = 170.0;

/// Where the notice in `slot` goes: centred over the table, between the docks, under the turn
/// bar, one line per slot.
pub(super) fn banner_at(docks: &Docks, slot: usize) -> [f32; 2] {
    [-docks.right / 2.0, docks.top + 6.0 + 34.0 * slot as f32]
}

/// The board camera.
#[derive(Component)]
pub struct BoardCamera;
