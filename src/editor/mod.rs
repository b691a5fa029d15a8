//! The scenario editor without its window: a draft scenario, every edit made to it with undo and
//! redo, the problems `volley check` finds in it (each on the thing it concerns), and the
//! readable RON it is saved as. The window (`app::editor`) turns the mouse and keys into these
//! edits and draws the draft; it decides nothing about the scenario itself.

mod file;
mod place;

pub use file::{Written, member, one_line, write};
pub use place::{FeatureDefaults, edge_near, hit, vertex_near};

use crate::rules::Game;
use crate::rules::geometry::Pt;
use crate::rules::ruleset::{AnyRuleset, Measure, ScenarioField};
use crate::rules::scenario::victory::objective_id;
use crate::rules::scenario::{
    self, Diagnostic, RawFeature, RawObjective, RawPt, RawScenario, RawSide, RawTable, RawUnit,
    RawZone,
};
use crate::rules::terrain::FeatureKind;
use std::path::{Path, PathBuf};

/// A thing in a scenario that an edit or a problem concerns: the scenario as a whole, or one of
/// its lists' members by its place in the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Thing {
    Scenario,
    Side(usize),
    Feature(usize),
    Unit(usize),
    Zone(usize),
    Objective(usize),
}

/// A problem the checks find, on the thing it concerns, in the checks' own words.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub thing: Thing,
    /// A second thing the words name (the unit another overlaps).
    pub also: Option<Thing>,
    pub message: String,
}

/// The draft as checked: its problems, and the game made of what passed the checks (none where
/// the ruleset or the table is wrong).
pub struct Checked {
    pub game: Option<Game>,
    pub problems: Vec<Problem>,
}

impl Checked {
    /// The problems on one thing (the thing they are found on, or the second thing they name).
    pub fn on(&self, thing: Thing) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .filter(move |p| p.thing == thing || p.also == Some(thing))
    }
}

/// Most edits kept to undo.
const MAX_UNDO: usize = 500;

/// A scenario being made: what it holds now, and the edits that can be undone and redone.
#[derive(Clone, Debug)]
pub struct Draft {
    raw: RawScenario,
    undo: Vec<(String, RawScenario)>,
    redo: Vec<(String, RawScenario)>,
    /// The scenario as last opened or saved: a draft that differs has changes to lose.
    saved: RawScenario,
    /// The file it was opened from or last saved to.
    pub path: Option<PathBuf>,
    /// The brigade new units are placed in, where the ruleset organises units in brigades
    /// (none: the side's first, "blue-1").
    pub brigade: Option<String>,
}

/// The table a new scenario starts with, in the ruleset's units: six feet by four where it
/// measures in inches; at the paced rulesets' 100 paces an inch, 4 800 by 3 200 paces.
fn new_table(measure: Measure) -> (f32, f32) {
    match measure {
        Measure::Inches => (72.0, 48.0),
        Measure::Paces => (4800.0, 3200.0),
    }
}

impl Draft {
    /// A new scenario for a ruleset: a bare table of the usual size, two sides, no units.
    pub fn new(ruleset: &str) -> Result<Draft, String> {
        let rules = AnyRuleset::load(ruleset)?;
        let mm = rules.default_mm_per_unit();
        let (w, h) = new_table(rules.measure());
        let side = |name: &str, colour, defender| RawSide {
            name: name.into(),
            nation: String::new(),
            colour,
            commander: String::new(),
            defender,
            army_list: false,
            coat: None,
        };
        let raw = RawScenario {
            name: "A new battle".into(),
            date: String::new(),
            description: String::new(),
            ruleset: ruleset.into(),
            table: RawTable {
                width: tidy(w * mm),
                height: tidy(h * mm),
            },
            paces_per_inch: None,
            seed: 1,
            turn_limit: 12,
            victory: String::new(),
            terrain: Vec::new(),
            sides: vec![
                side("Blue", (40, 60, 140), false),
                side("Red", (170, 40, 40), true),
            ],
            units: Vec::new(),
            deployment: Vec::new(),
            objective: None,
            objectives: Vec::new(),
            victory_conditions: None,
            options: Vec::new(),
            standard: false,
        };
        Ok(Draft::of(raw, None))
    }

    /// A draft of a scenario as written, with nothing to undo.
    pub fn of(raw: RawScenario, path: Option<PathBuf>) -> Draft {
        Draft {
            saved: raw.clone(),
            raw,
            undo: Vec::new(),
            redo: Vec::new(),
            path,
            brigade: None,
        }
    }

    /// Opens a scenario file (or a draft): any that reads as a scenario, problems and all.
    pub fn open(path: &Path) -> Result<Draft, Vec<Diagnostic>> {
        let text = scenario::read_text(path)?;
        let raw = scenario::parse_raw(&text, &path.display().to_string())?;
        Ok(Draft::of(raw, Some(path.to_path_buf())))
    }

    /// The scenario as it stands.
    pub fn raw(&self) -> &RawScenario {
        &self.raw
    }

    /// The ruleset it is for.
    pub fn rules(&self) -> Result<AnyRuleset, String> {
        AnyRuleset::load(&self.raw.ruleset)
    }

    /// Millimetres to the ruleset's unit of measure (an inch, or a pace at the scenario's scale).
    pub fn mm_per_unit(&self) -> f32 {
        self.rules()
            .ok()
            .and_then(|r| r.mm_per_unit(self.raw.paces_per_inch).ok())
            .unwrap_or(25.4)
    }

    /// Makes one edit, which undo takes back whole. An edit that changes nothing is not kept.
    pub fn edit(&mut self, label: &str, change: impl FnOnce(&mut RawScenario)) {
        let before = self.raw.clone();
        change(&mut self.raw);
        if self.raw != before {
            self.undo.push((label.to_string(), before));
            if self.undo.len() > MAX_UNDO {
                self.undo.remove(0);
            }
            self.redo.clear();
        }
    }

    /// Makes one edit, taken back together with the edits before it of the same label that
    /// came straight before it (typing a name letter by letter is one edit).
    pub fn edit_merging(&mut self, label: &str, change: impl FnOnce(&mut RawScenario)) {
        let merge = self.redo.is_empty() && self.undo.last().is_some_and(|(l, _)| l == label);
        if !merge {
            self.edit(label, change);
            return;
        }
        let before = self.raw.clone();
        change(&mut self.raw);
        if self.raw == before {
            return;
        }
        // The step taken back is the one before the first of the run.
        if self.undo.last().is_some_and(|(_, b)| *b == self.raw) {
            self.undo.pop();
        }
    }

    /// Takes back the last edit; its label, or none when there is nothing to undo.
    pub fn undo(&mut self) -> Option<String> {
        let (label, before) = self.undo.pop()?;
        let now = std::mem::replace(&mut self.raw, before);
        self.redo.push((label.clone(), now));
        Some(label)
    }

    /// Makes again the last edit undone; its label, or none.
    pub fn redo(&mut self) -> Option<String> {
        let (label, after) = self.redo.pop()?;
        let now = std::mem::replace(&mut self.raw, after);
        self.undo.push((label.clone(), now));
        Some(label)
    }

    /// What undo and redo would take back or make again.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|(l, _)| l.as_str())
    }
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|(l, _)| l.as_str())
    }

    /// Changes not saved.
    pub fn dirty(&self) -> bool {
        self.raw != self.saved
    }

    /// Every problem `volley check` would report, each on its thing, and the game made of what
    /// passed.
    pub fn check(&self) -> Checked {
        let written = match write(&self.raw) {
            Ok(w) => w,
            Err(m) => {
                return Checked {
                    game: None,
                    problems: vec![Problem {
                        thing: Thing::Scenario,
                        also: None,
                        message: m,
                    }],
                };
            }
        };
        let (game, diags) = scenario::build_preview(&self.raw, &written.text, "draft");
        let problems = diags
            .into_iter()
            .map(|d| Problem {
                thing: self.thing_of(&d, &written),
                also: self.also_of(&d.message),
                message: d.message,
            })
            .collect();
        Checked { game, problems }
    }

    /// The thing a problem concerns: the unit, feature, objective or army its words name, else
    /// the thing on the line of the file it was found at.
    fn thing_of(&self, d: &Diagnostic, written: &Written) -> Thing {
        let raw = &self.raw;
        let named = |prefix: &str| {
            let rest = d.message.strip_prefix(prefix)?;
            let end = rest.find(['\'', ':'])?;
            Some(rest[..end].to_string())
        };
        if let Some(id) = named("unit '")
            && let Some(i) = raw.units.iter().position(|u| u.id == id)
        {
            return Thing::Unit(i);
        }
        if let Some(id) = named("feature '")
            && let Some(i) = raw.terrain.iter().position(|f| f.id == id)
        {
            return Thing::Feature(i);
        }
        if let Some(id) = named("objective '")
            && let Some(i) =
                (0..raw.objectives.len()).find(|i| objective_id(&raw.objectives[*i], *i) == id)
        {
            return Thing::Objective(i);
        }
        if let Some(name) = named("army of ")
            && let Some(i) = raw.sides.iter().position(|s| s.name == name)
        {
            return Thing::Side(i);
        }
        written
            .lines
            .get(d.line.saturating_sub(1))
            .copied()
            .unwrap_or(Thing::Scenario)
    }

    /// The unit a problem's words name second ("unit 'a' overlaps 'b'": b).
    fn also_of(&self, message: &str) -> Option<Thing> {
        let rest = message.split(" overlaps '").nth(1)?;
        let id = &rest[..rest.find('\'')?];
        self.raw
            .units
            .iter()
            .position(|u| u.id == id)
            .map(Thing::Unit)
    }

    /// Writes the scenario to `path` (through a temporary file, so that a failure leaves the
    /// old file whole). A playable scenario must pass every check; a draft is written whatever
    /// stands against it.
    pub fn save(&mut self, path: &Path, playable: bool) -> Result<(), String> {
        if playable {
            let checked = self.check();
            if let Some(first) = checked.problems.first() {
                return Err(format!(
                    "{} problem{} must be put right before it can be played (the first: {}); \
                     save it as a draft meanwhile",
                    checked.problems.len(),
                    if checked.problems.len() == 1 { "" } else { "s" },
                    first.message
                ));
            }
        }
        let text = write(&self.raw)?.text;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
        }
        let tmp = path.with_extension("ron.tmp");
        std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        self.saved = self.raw.clone();
        self.path = Some(path.to_path_buf());
        Ok(())
    }

    /// A new id in a list: `stem` and the first number not taken.
    fn fresh_id(taken: impl Fn(&str) -> bool, stem: &str) -> String {
        let stem = slug(stem);
        (1..)
            .map(|n| format!("{stem}-{n}"))
            .find(|id| !taken(id))
            .unwrap_or_else(|| stem.to_string())
    }

    /// Adds a terrain feature of a kind along these points (a polygon, or a line for rivers,
    /// streams, roads, bridges and causeways); its place in the list.
    pub fn add_feature(&mut self, kind: FeatureKind, points: Vec<RawPt>) -> usize {
        let d = FeatureDefaults::of(kind);
        // "town", not "town (BUA)".
        let stem = format!("{kind:?}");
        let id = Self::fresh_id(|id| self.raw.terrain.iter().any(|f| f.id == id), &stem);
        let f = RawFeature {
            id,
            kind,
            name: String::new(),
            points: points.into_iter().map(tidy_pt).collect(),
            width: d.width,
            level: 1,
            steep: false,
            fortified: false,
            town_points: None,
        };
        self.edit(&format!("draw {}", kind.name()), |r| r.terrain.push(f));
        self.raw.terrain.len() - 1
    }

    /// Adds a unit of a troop type for a side, its centre and facing given; its place in the list.
    pub fn add_unit(&mut self, side: usize, troop: &str, at: RawPt, facing: f32) -> usize {
        let u = self.new_unit(side, troop, at, facing);
        self.edit(&format!("place {troop}"), |r| r.units.push(u));
        self.raw.units.len() - 1
    }

    /// A unit as `add_unit` makes it, not yet in the list.
    fn new_unit(&self, side: usize, troop: &str, at: RawPt, facing: f32) -> RawUnit {
        self.new_unit_beside(&[], side, troop, at, facing)
    }

    /// A new unit whose id differs from those of the list and of `made` (units being added
    /// with it).
    fn new_unit_beside(
        &self,
        made: &[RawUnit],
        side: usize,
        troop: &str,
        at: RawPt,
        facing: f32,
    ) -> RawUnit {
        let stem = match self.raw.sides.get(side) {
            Some(s) if !s.nation.is_empty() => format!("{} {troop}", s.nation),
            Some(s) => format!("{} {troop}", s.name),
            None => troop.to_string(),
        };
        let taken = |id: &str| self.raw.units.iter().chain(made).any(|u| u.id == id);
        let id = Self::fresh_id(taken, &stem);
        let side_name = self.raw.sides.get(side).map_or("side", |s| s.name.as_str());
        let brigade = self
            .rules()
            .is_ok_and(|r| r.scenario_fields().contains(&ScenarioField::Brigade))
            .then(|| {
                self.brigade
                    .clone()
                    .unwrap_or_else(|| format!("{}-1", slug(side_name)))
            });
        RawUnit {
            id,
            name: String::new(),
            side,
            troop: troop.to_string(),
            class: Default::default(),
            flags: Vec::new(),
            at: Some(tidy_pt(at)),
            facing: tidy(facing.rem_euclid(360.0)),
            formation: None,
            stands: None,
            division: None,
            limbered: false,
            hits: 0,
            leadership: None,
            command_radius: None,
            attached: None,
            parent: None,
            disordered: false,
            shaken: false,
            figures_lost: 0,
            packs: None,
            bases: None,
            base: None,
            brigade,
            bases_lost: 0,
            ammunition: None,
            silenced: false,
            disrupted: false,
            disorganised: false,
            routed: false,
            volley_fired: false,
            moved: false,
            hold_ground: false,
            refused: None,
            coat: None,
        }
    }

    /// Places `count` units of a troop type as one body: side by side in a line, or one behind
    /// another in a column, the first centred at `at`, `gap` mm apart; their places in the list.
    pub fn add_body(
        &mut self,
        side: usize,
        troop: &str,
        count: usize,
        at: RawPt,
        facing: f32,
        column: bool,
    ) -> Vec<usize> {
        // The unit's whole footprint as its ruleset sets it up (a BBB unit is several bases,
        // a figure unit its stands).
        let probe = self.new_unit(side, troop, at, facing);
        let (w, d) = self
            .rules()
            .ok()
            .and_then(|r| r.prepare_unit(&probe).ok().map(|s| s.size))
            .unwrap_or((40.0, 20.0));
        let step = if column { d + 2.0 } else { w + 2.0 };
        // Facing 0 looks up the table (+y); the line runs along x turned by the facing.
        let (s, c) = facing.to_radians().sin_cos();
        let along = if column { (-s, -c) } else { (c, -s) };
        let mut made = Vec::new();
        let start = self.raw.units.len();
        let mut units = Vec::new();
        for k in 0..count.clamp(1, 50) {
            let p = (
                at.0 + along.0 * step * k as f32,
                at.1 + along.1 * step * k as f32,
            );
            let u = self.new_unit_beside(&units, side, troop, p, facing);
            made.push(start + k);
            units.push(u);
        }
        let what = if column { "column" } else { "line" };
        self.edit(&format!("place a {what} of {count} {troop}"), |r| {
            r.units.extend(units)
        });
        made
    }

    /// Adds an objective at a point, held by nobody, worth 1; its place in the list.
    pub fn add_objective(&mut self, at: RawPt) -> usize {
        let n = self.raw.objectives.len() + 1;
        let o = RawObjective {
            at: tidy_pt(at),
            owner: None,
            name: format!("Objective {n}"),
            id: String::new(),
            worth: 1,
            hold: Default::default(),
        };
        self.edit("place an objective", |r| r.objectives.push(o));
        self.raw.objectives.len() - 1
    }

    /// Adds a side's deployment zone between two corners; its place in the list.
    pub fn add_zone(&mut self, side: usize, a: RawPt, b: RawPt) -> usize {
        let z = RawZone {
            side,
            min: tidy_pt((a.0.min(b.0), a.1.min(b.1))),
            max: tidy_pt((a.0.max(b.0), a.1.max(b.1))),
        };
        self.edit("draw a deployment zone", |r| r.deployment.push(z));
        self.raw.deployment.len() - 1
    }

    /// Moves a thing by (dx, dy) mm.
    pub fn move_by(&mut self, thing: Thing, dx: f32, dy: f32) {
        let shift = |p: &mut RawPt| *p = tidy_pt((p.0 + dx, p.1 + dy));
        self.edit("move", |r| match thing {
            Thing::Unit(i) => {
                if let Some(p) = r.units.get_mut(i).and_then(|u| u.at.as_mut()) {
                    shift(p)
                }
            }
            Thing::Feature(i) => {
                if let Some(f) = r.terrain.get_mut(i) {
                    f.points.iter_mut().for_each(shift)
                }
            }
            Thing::Zone(i) => {
                if let Some(z) = r.deployment.get_mut(i) {
                    shift(&mut z.min);
                    shift(&mut z.max);
                }
            }
            Thing::Objective(i) => {
                if let Some(o) = r.objectives.get_mut(i) {
                    shift(&mut o.at)
                }
            }
            Thing::Scenario | Thing::Side(_) => {}
        });
    }

    /// Turns a unit to face `facing` degrees.
    pub fn face(&mut self, unit: usize, facing: f32) {
        self.edit("turn", |r| {
            if let Some(u) = r.units.get_mut(unit) {
                u.facing = tidy(facing.rem_euclid(360.0));
            }
        });
    }

    /// Moves one corner of a feature to a point.
    pub fn set_vertex(&mut self, feature: usize, vertex: usize, to: RawPt) {
        self.edit("reshape", |r| {
            if let Some(p) = r
                .terrain
                .get_mut(feature)
                .and_then(|f| f.points.get_mut(vertex))
            {
                *p = tidy_pt(to);
            }
        });
    }

    /// Adds a corner to a feature after corner `after`.
    pub fn insert_vertex(&mut self, feature: usize, after: usize, at: RawPt) {
        self.edit("add a corner", |r| {
            if let Some(f) = r.terrain.get_mut(feature) {
                let i = (after + 1).min(f.points.len());
                f.points.insert(i, tidy_pt(at));
            }
        });
    }

    /// Takes a corner off a feature, where it keeps enough to be its shape (three for an
    /// area, two for a line).
    pub fn remove_vertex(&mut self, feature: usize, vertex: usize) {
        self.edit("take off a corner", |r| {
            if let Some(f) = r.terrain.get_mut(feature) {
                let least = if f.kind.is_linear() { 2 } else { 3 };
                if f.points.len() > least && vertex < f.points.len() {
                    f.points.remove(vertex);
                }
            }
        });
    }

    /// Deletes a thing (a unit named by others as attached or parent is forgotten by them).
    pub fn delete(&mut self, thing: Thing) {
        self.edit("delete", |r| match thing {
            Thing::Unit(i) if i < r.units.len() => {
                let id = r.units.remove(i).id;
                for u in &mut r.units {
                    if u.attached.as_deref() == Some(id.as_str()) {
                        u.attached = None;
                    }
                    if u.parent.as_deref() == Some(id.as_str()) {
                        u.parent = None;
                    }
                }
            }
            Thing::Feature(i) if i < r.terrain.len() => {
                r.terrain.remove(i);
            }
            Thing::Zone(i) if i < r.deployment.len() => {
                r.deployment.remove(i);
            }
            Thing::Objective(i) if i < r.objectives.len() => {
                r.objectives.remove(i);
            }
            _ => {}
        });
    }

    /// A copy of a unit, feature, zone or objective, set `by` mm from it (a copy's id is new);
    /// the copy.
    pub fn copy(&mut self, thing: Thing, by: (f32, f32)) -> Option<Thing> {
        let raw = &self.raw;
        let copied = match thing {
            Thing::Unit(i) => {
                let mut u = raw.units.get(i)?.clone();
                u.id = Self::fresh_id(|id| raw.units.iter().any(|x| x.id == id), &stem_of(&u.id));
                u.at = u.at.map(|p| tidy_pt((p.0 + by.0, p.1 + by.1)));
                self.edit("copy", |r| r.units.push(u));
                Thing::Unit(self.raw.units.len() - 1)
            }
            Thing::Feature(i) => {
                let mut f = raw.terrain.get(i)?.clone();
                f.id = Self::fresh_id(|id| raw.terrain.iter().any(|x| x.id == id), &stem_of(&f.id));
                f.points = f
                    .points
                    .iter()
                    .map(|p| tidy_pt((p.0 + by.0, p.1 + by.1)))
                    .collect();
                self.edit("copy", |r| r.terrain.push(f));
                Thing::Feature(self.raw.terrain.len() - 1)
            }
            Thing::Zone(i) => {
                let mut z = raw.deployment.get(i)?.clone();
                z.min = tidy_pt((z.min.0 + by.0, z.min.1 + by.1));
                z.max = tidy_pt((z.max.0 + by.0, z.max.1 + by.1));
                self.edit("copy", |r| r.deployment.push(z));
                Thing::Zone(self.raw.deployment.len() - 1)
            }
            Thing::Objective(i) => {
                let mut o = raw.objectives.get(i)?.clone();
                o.at = tidy_pt((o.at.0 + by.0, o.at.1 + by.1));
                o.id.clear();
                o.name = format!("{} (copy)", o.name);
                self.edit("copy", |r| r.objectives.push(o));
                Thing::Objective(self.raw.objectives.len() - 1)
            }
            Thing::Scenario | Thing::Side(_) => return None,
        };
        Some(copied)
    }

    /// A scenario of a game in progress: its table and sides, and every unit where it stands
    /// now, in the states it is in (units lost are left out). The bound in progress is not
    /// carried: the scenario starts at its ruleset's first phase, no unit yet moved, with the
    /// turns left.
    pub fn from_game(game: &Game) -> Draft {
        let mut raw = (*game.battle.scenario).clone();
        raw.name = format!("{} (turn {})", raw.name, game.battle.turn);
        raw.units = file::units_now(game, &raw);
        raw.seed = game.battle.seed;
        raw.turn_limit = raw
            .turn_limit
            .saturating_sub(game.battle.turn.saturating_sub(1))
            .max(1);
        Draft::of(raw, None)
    }
}

/// A point as written: to a tenth of a millimetre.
pub fn tidy_pt(p: RawPt) -> RawPt {
    (tidy(p.0), tidy(p.1))
}

/// A number as written: to a tenth.
pub fn tidy(v: f32) -> f32 {
    (v * 10.0).round() / 10.0
}

/// An id's stem: lower case, words joined by '-'.
fn slug(s: &str) -> String {
    joined(s, '-').unwrap_or_else(|| "x".into())
}

/// A name's words in lower case joined by `sep` ("Reichenberg, 1757": "reichenberg_1757" with
/// '_'); none for a name without a letter or a digit.
pub fn joined(s: &str, sep: char) -> Option<String> {
    let mut out = String::new();
    for c in s.to_lowercase().chars() {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with(sep) {
            out.push(sep);
        }
    }
    let out = out.trim_end_matches(sep).to_string();
    (!out.is_empty()).then_some(out)
}

/// An id less its number at the end ("prussia-inf-3": "prussia-inf").
fn stem_of(id: &str) -> String {
    match id.rsplit_once('-') {
        Some((stem, n)) if n.chars().all(|c| c.is_ascii_digit()) && !stem.is_empty() => stem.into(),
        _ => id.into(),
    }
}

/// A point of the table as the rules hold it.
pub fn pt(p: RawPt) -> Pt {
    Pt::new(p.0, p.1)
}
