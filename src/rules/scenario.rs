//! Scenario files: raw RON, then a validated Battle. Every error names file:line:col.

use super::battle::{Battle, Info, Objective, Scale, Table, Zone};
use super::geometry::{Base, Pt};
use super::model::{
    Ammo, BoundState, Class, Division, Flag, Formation, SideInfo, Stand, Status, Unit, UnitExtra,
    UnitId,
};
use super::ruleset::{AnyRuleset, Ruleset, ScenarioField, UnitState};
use super::terrain::{Feature, FeatureKind, Terrain};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// The scenario the program opens when given none.
pub const DEFAULT_SCENARIO: &str = "scenarios/default.ron";

/// The default scenario: beside the working directory, or in the source tree.
pub fn default_path() -> std::path::PathBuf {
    let here = std::path::PathBuf::from(DEFAULT_SCENARIO);
    if here.exists() {
        return here;
    }
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_SCENARIO)
}

/// Largest scenario or save file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;
/// Largest coordinate or size accepted, in mm (100 m).
pub const MAX_MM: f32 = 100_000.0;
const MAX_UNITS: usize = 5_000;
const MAX_FEATURES: usize = 5_000;
const MAX_POINTS: usize = 10_000;

/// One problem in a file, at a place in it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl Diagnostic {
    /// One problem at a place in a file, as the loaders return it.
    pub fn one(file: &str, line: usize, col: usize, message: String) -> Vec<Diagnostic> {
        vec![Diagnostic {
            file: file.to_string(),
            line,
            col,
            message,
        }]
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

/// A point as written in files: (x, y) in mm.
pub type RawPt = (f32, f32);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    pub width: f32,
    pub height: f32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFeature {
    pub id: String,
    pub kind: FeatureKind,
    #[serde(default)]
    pub name: String,
    pub points: Vec<RawPt>,
    #[serde(default)]
    pub width: f32,
    #[serde(default = "one")]
    pub level: u8,
    #[serde(default)]
    pub steep: bool,
    #[serde(default)]
    pub fortified: bool,
    /// The points of artillery fire a town takes before it burns (Hal's 25mm; the ruleset's
    /// figure when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub town_points: Option<u32>,
}

fn one() -> u8 {
    1
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSide {
    pub name: String,
    #[serde(default)]
    pub nation: String,
    pub colour: (u8, u8, u8),
    #[serde(default)]
    pub commander: String,
    #[serde(default)]
    pub defender: bool,
    /// Check this side against the ruleset's army list.
    #[serde(default)]
    pub army_list: bool,
    /// The coat its figures are painted in where a unit gives none, as "#rrggbb".
    #[serde(default)]
    pub coat: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawUnit {
    pub id: String,
    #[serde(default)]
    pub name: String,
    pub side: usize,
    #[serde(rename = "type")]
    pub troop: String,
    #[serde(default)]
    pub class: Class,
    #[serde(default)]
    pub flags: Vec<Flag>,
    /// Centre in mm; None waits for formal deployment.
    #[serde(default)]
    pub at: Option<RawPt>,
    #[serde(default)]
    pub facing: f32,
    #[serde(default)]
    pub formation: Option<Formation>,
    /// Figures in each stand (figure rulesets only).
    #[serde(default)]
    pub stands: Option<Vec<u32>>,
    #[serde(default)]
    pub division: Option<Division>,
    #[serde(default)]
    pub limbered: bool,
    #[serde(default)]
    pub hits: u32,
    /// A general's leadership, +0 to +2 (figure rulesets, generals rule).
    #[serde(default)]
    pub leadership: Option<i32>,
    /// A general's command radius in inches.
    #[serde(default)]
    pub command_radius: Option<f32>,
    /// The unit a general starts attached to.
    #[serde(default)]
    pub attached: Option<String>,
    /// A regimental gun's parent regiment.
    #[serde(default)]
    pub parent: Option<String>,
    /// Starts disordered.
    #[serde(default)]
    pub disordered: bool,
    /// Starts shaken.
    #[serde(default)]
    pub shaken: bool,
    /// Figures lost before the battle (figure rulesets): the unit's strength is its stands'
    /// figures plus these.
    #[serde(default)]
    pub figures_lost: u32,
    /// Ammunition packs carried (DBFPW's ammunition supply); the ruleset's default if absent.
    #[serde(default)]
    pub packs: Option<u32>,
    /// Bases in the unit (BBB); the ruleset's default if absent.
    #[serde(default)]
    pub bases: Option<u32>,
    /// Base frontage and depth in mm (BBB lets a scenario choose its basing).
    #[serde(default)]
    pub base: Option<(f32, f32)>,
    /// The brigade it belongs to; for a brigadier, the brigade he commands (Hal's).
    #[serde(default)]
    pub brigade: Option<String>,
    /// Bases lost before the battle (BBB): the unit's strength is its bases and these.
    #[serde(default)]
    pub bases_lost: u32,
    /// Ammunition `Low` or `Out` (DBFPW's ammunition supply); full if absent.
    #[serde(default)]
    pub ammunition: Option<Ammo>,
    /// Starts silenced (BBB artillery).
    #[serde(default)]
    pub silenced: bool,
    /// Starts disrupted (BBB).
    #[serde(default)]
    pub disrupted: bool,
    /// Starts disorganised (Hal's).
    #[serde(default)]
    pub disorganised: bool,
    /// Starts routed (Hal's).
    #[serde(default)]
    pub routed: bool,
    /// Its first volley already delivered (Hal's).
    #[serde(default)]
    pub volley_fired: bool,
    /// Has moved in the bound the battle starts in (its side must move first).
    #[serde(default)]
    pub moved: bool,
    /// Its owner's standing order: hold the ground if victorious rather than pursue.
    #[serde(default)]
    pub hold_ground: bool,
    /// Starts in an L refusing this flank (Old Dessauer): `at` and `facing` are those of the
    /// line it formed from.
    #[serde(default)]
    pub refused: Option<Flank>,
    /// The regiment's coat, as "#rrggbb": its painted figures wear it (its side's coat, or the
    /// side's colour, where absent).
    #[serde(default)]
    pub coat: Option<String>,
}

/// A coat's colour as a scenario writes it: "#" and six hex digits.
pub fn coat_colour(s: &str) -> Result<[u8; 3], String> {
    let hex = s.strip_prefix('#').unwrap_or("");
    let byte = |i: usize| {
        hex.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
    };
    match (hex.len(), byte(0), byte(2), byte(4)) {
        (6, Some(r), Some(g), Some(b)) if hex.bytes().all(|c| c.is_ascii_hexdigit()) => {
            Ok([r, g, b])
        }
        _ => Err(format!(
            "coat \"{s}\" is not a colour: write \"#\" and six hex digits, e.g. \"#f0ece0\""
        )),
    }
}

/// A unit's left or right flank, as its own front sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Flank {
    Left,
    Right,
}

impl RawUnit {
    /// The states this unit sets beyond hits, shaken, disordered and limbered.
    pub fn states(&self) -> Vec<UnitState> {
        [
            (self.bases_lost > 0, UnitState::BasesLost),
            (
                self.ammunition.is_some_and(|a| a != Ammo::Full),
                UnitState::Ammunition,
            ),
            (self.silenced, UnitState::Silenced),
            (self.disrupted, UnitState::Disrupted),
            (self.disorganised, UnitState::Disorganised),
            (self.routed, UnitState::Routed),
            (self.volley_fired, UnitState::VolleyFired),
            (self.moved, UnitState::Moved),
            (self.hold_ground, UnitState::HoldGround),
        ]
        .into_iter()
        .filter_map(|(set, s)| set.then_some(s))
        .collect()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawZone {
    pub side: usize,
    pub min: RawPt,
    pub max: RawPt,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawObjective {
    pub at: RawPt,
    pub owner: usize,
    /// A name for the log and the window (BBB's objectives).
    #[serde(default)]
    pub name: String,
}

/// A scenario as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub name: String,
    #[serde(default)]
    pub date: String,
    #[serde(default)]
    pub description: String,
    pub ruleset: String,
    pub table: RawTable,
    /// Paces per inch for paced rulesets (default: the ruleset's).
    #[serde(default)]
    pub paces_per_inch: Option<f32>,
    #[serde(default)]
    pub seed: u64,
    pub turn_limit: u32,
    #[serde(default)]
    pub victory: String,
    #[serde(default)]
    pub terrain: Vec<RawFeature>,
    pub sides: Vec<RawSide>,
    pub units: Vec<RawUnit>,
    #[serde(default)]
    pub deployment: Vec<RawZone>,
    #[serde(default)]
    pub objective: Option<RawObjective>,
    /// Objectives held at the end decide the battle (BBB): each with its starting owner.
    #[serde(default)]
    pub objectives: Vec<RawObjective>,
    /// Optional rules in use, by the keys of the ruleset's data file.
    #[serde(default)]
    pub options: Vec<String>,
    /// The scenario claims the ruleset's standard table: checked.
    #[serde(default)]
    pub standard: bool,
}

/// Finds the line and column of the `nth` occurrence of `needle` (1-based), or 1:1.
pub fn locate(text: &str, needle: &str, nth: usize) -> (usize, usize) {
    let mut from = 0;
    let mut found = None;
    for _ in 0..nth.max(1) {
        match text[from..].find(needle) {
            Some(i) => {
                found = Some(from + i);
                from += i + needle.len().max(1);
            }
            None => break,
        }
    }
    let Some(pos) = found else { return (1, 1) };
    let before = &text[..pos];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

fn pt_ok(p: RawPt) -> bool {
    p.0.is_finite() && p.1.is_finite() && p.0.abs() <= MAX_MM && p.1.abs() <= MAX_MM
}

/// Parses and validates a scenario. `file` names it in diagnostics.
pub fn parse(text: &str, file: &str) -> Result<Battle, Vec<Diagnostic>> {
    build(&parse_raw(text, file)?, text, file)
}

/// Reads the RON of a scenario without checking it.
fn parse_raw(text: &str, file: &str) -> Result<RawScenario, Vec<Diagnostic>> {
    ron_options().from_str(text).map_err(|e| {
        vec![Diagnostic {
            file: file.to_string(),
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        }]
    })
}

/// What `volley check` tells of a scenario that loads, side by side: each army's points and
/// list verdict and the rules' warnings (`Ruleset::army_notes`).
pub fn notes(text: &str, file: &str) -> Vec<String> {
    let Ok(raw) = parse_raw(text, file) else {
        return Vec::new();
    };
    let Ok(b) = build(&raw, text, file) else {
        return Vec::new();
    };
    let rs = b.rules.get();
    let mut out = Vec::new();
    for (s, side) in b.sides.iter().enumerate() {
        let members: Vec<&Unit> = b.units.iter().filter(|u| u.side == s).collect();
        let listed = raw.sides.get(s).is_some_and(|r| r.army_list);
        for n in rs.army_notes(&members, side, listed, &b.terrain) {
            out.push(format!("army of {}: {n}", side.name));
        }
    }
    out
}

/// Reads a scenario file from disk.
pub fn load(path: &Path) -> Result<Battle, Vec<Diagnostic>> {
    let text = read_text(path)?;
    parse(&text, &path.display().to_string())
}

/// Reads a scenario file from disk with these optional rules in place of its own.
pub fn load_with_options(path: &Path, options: &[String]) -> Result<Battle, Vec<Diagnostic>> {
    let text = read_text(path)?;
    let file = path.display().to_string();
    let mut raw = parse_raw(&text, &file)?;
    raw.options = options.to_vec();
    build(&raw, &text, &file)
}

/// Reads a text file, refusing huge or unreadable ones with a diagnostic.
pub fn read_text(path: &Path) -> Result<String, Vec<Diagnostic>> {
    let file = path.display().to_string();
    let d = |m: String| {
        vec![Diagnostic {
            file: file.clone(),
            line: 1,
            col: 1,
            message: m,
        }]
    };
    let meta = std::fs::metadata(path).map_err(|e| d(format!("cannot read: {e}")))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(d(format!(
            "file is {} bytes; the limit is {}",
            meta.len(),
            MAX_FILE_BYTES
        )));
    }
    std::fs::read_to_string(path).map_err(|e| d(format!("cannot read: {e}")))
}

/// Turns a raw scenario into a battle, collecting every problem.
pub fn build(raw: &RawScenario, text: &str, file: &str) -> Result<Battle, Vec<Diagnostic>> {
    let mut ck = Checker {
        text,
        file,
        errs: Vec::new(),
    };
    let rules = match AnyRuleset::load(&raw.ruleset).and_then(|r| r.with_options(&raw.options)) {
        Ok(r) => r,
        Err(m) => {
            let pos = if raw.options.is_empty() {
                ck.at("ruleset", 1)
            } else {
                ck.at("options", 1)
            };
            ck.push(pos, m);
            return Err(ck.errs);
        }
    };
    let rs = rules.get();
    let t = &raw.table;
    let mm_per_unit = check_table(&mut ck, raw, rs);
    if raw.units.len() > MAX_UNITS || raw.terrain.len() > MAX_FEATURES {
        ck.push(
            (1, 1),
            format!("at most {MAX_UNITS} units and {MAX_FEATURES} terrain features"),
        );
        return Err(ck.errs);
    }

    let terrain = build_terrain(&mut ck, raw, rs);

    let sides: Vec<SideInfo> = raw
        .sides
        .iter()
        .map(|s| SideInfo {
            name: s.name.clone(),
            nation: s.nation.to_lowercase(),
            colour: [s.colour.0, s.colour.1, s.colour.2],
            commander: s.commander.clone(),
            defender: s.defender,
        })
        .collect();
    for s in &raw.sides {
        if let Some(Err(m)) = s.coat.as_deref().map(coat_colour) {
            let at = ck.at(&format!("\"{}\"", s.coat.as_deref().unwrap_or_default()), 1);
            ck.push(at, m);
        }
    }
    if raw.sides.iter().filter(|s| s.defender).count() > 1 {
        ck.push(
            ck.at("defender", 2),
            "only one side may be the defender".into(),
        );
    }

    let table = Table {
        width: t.width,
        height: t.height,
    };
    let mut units: Vec<Unit> = Vec::new();
    for i in 0..raw.units.len() {
        if let Some(u) = build_unit(&mut ck, raw, rs, &table, i, &units) {
            units.push(u);
        }
    }
    // Attached generals and regimental guns name units that exist, on their side.
    for u in &units {
        for (what, other) in [("attached", &u.extra.attached), ("parent", &u.extra.parent)] {
            let Some(o) = other else { continue };
            if !units.iter().any(|x| &x.id == o && x.side == u.side) {
                ck.push(
                    ck.at(&format!("\"{}\"", u.id), 1),
                    format!("unit '{}': {what} '{}' is not a unit of its side", u.id, o),
                );
            }
        }
    }

    let (zones, objective) = build_zones(&mut ck, raw);
    if raw.standard {
        for e in rs.check_standard((t.width, t.height), &terrain, &units, &zones, mm_per_unit) {
            ck.push(ck.at("standard", 1), e);
        }
    }
    for e in rs.check_deployment(&zones, objective.as_ref(), &sides, mm_per_unit) {
        ck.push(ck.at("objective", 1), e);
    }

    for (s, raw_side) in raw.sides.iter().enumerate() {
        let Some(side) = sides.get(s).filter(|_| raw_side.army_list) else {
            continue;
        };
        let members: Vec<&Unit> = units.iter().filter(|u| u.side == s).collect();
        for e in rs.validate_army(&members, side, &terrain) {
            ck.push(
                ck.at(&format!("\"{}\"", raw_side.name), 1),
                format!("army of {}: {e}", raw_side.name),
            );
        }
    }

    if !ck.errs.is_empty() {
        return Err(ck.errs);
    }
    let info = Info {
        name: raw.name.clone(),
        date: raw.date.clone(),
        description: raw.description.clone(),
    };
    let scale = Scale {
        unit: rs.measure(),
        mm_per_unit,
    };
    Ok(Battle::assemble(
        raw.clone(),
        info,
        rules,
        table,
        scale,
        terrain,
        sides,
        units,
        zones,
        objective,
        raw.turn_limit,
        raw.seed,
    ))
}

/// The table, the turn limit, the scale and the sides; the millimetres per measuring unit.
fn check_table(ck: &mut Checker, raw: &RawScenario, rs: &dyn Ruleset) -> f32 {
    let t = &raw.table;
    if !(t.width.is_finite()
        && t.height.is_finite()
        && t.width > 0.0
        && t.height > 0.0
        && t.width <= MAX_MM
        && t.height <= MAX_MM)
    {
        ck.push(
            ck.at("table", 1),
            format!("table size must be positive and at most {MAX_MM} mm"),
        );
    }
    if raw.turn_limit == 0 || raw.turn_limit > 1000 {
        ck.push(
            ck.at("turn_limit", 1),
            "turn_limit must be between 1 and 1000".into(),
        );
    }
    let mm_per_unit = match rs.mm_per_unit(raw.paces_per_inch) {
        Ok(mm) => mm,
        Err(m) => {
            ck.push(ck.at("paces_per_inch", 1), m);
            rs.default_mm_per_unit()
        }
    };
    if raw.sides.len() != 2 {
        ck.push(
            ck.at("sides", 1),
            format!("a scenario has exactly 2 sides, not {}", raw.sides.len()),
        );
    }
    mm_per_unit
}

/// Deployment zones and the objective.
fn build_zones(ck: &mut Checker, raw: &RawScenario) -> (Vec<Zone>, Option<Objective>) {
    let mut zones = Vec::new();
    for z in &raw.deployment {
        if z.side >= 2 || !pt_ok(z.min) || !pt_ok(z.max) || z.min.0 >= z.max.0 || z.min.1 >= z.max.1
        {
            ck.push(
                ck.at("deployment", 1),
                "a deployment zone needs side 0 or 1 and min below max".into(),
            );
            continue;
        }
        zones.push(Zone {
            side: z.side,
            min: Pt::new(z.min.0, z.min.1),
            max: Pt::new(z.max.0, z.max.1),
        });
    }
    let objective = match &raw.objective {
        Some(o) if pt_ok(o.at) && o.owner < 2 => Some(Objective {
            at: Pt::new(o.at.0, o.at.1),
            owner: o.owner,
            taken: false,
        }),
        Some(_) => {
            ck.push(
                ck.at("objective", 1),
                "the objective needs a position and an owner of 0 or 1".into(),
            );
            None
        }
        None => None,
    };
    for o in &raw.objectives {
        if !pt_ok(o.at) || o.owner >= 2 {
            ck.push(
                ck.at("objectives", 1),
                "each objective needs a position and an owner of 0 or 1".into(),
            );
        }
    }
    (zones, objective)
}

/// Problems found while building, each at its place in the file.
struct Checker<'a> {
    text: &'a str,
    file: &'a str,
    errs: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn at(&self, needle: &str, nth: usize) -> (usize, usize) {
        locate(self.text, needle, nth)
    }
    fn push(&mut self, pos: (usize, usize), message: String) {
        self.errs.push(Diagnostic {
            file: self.file.to_string(),
            line: pos.0,
            col: pos.1,
            message,
        })
    }
}

/// The terrain features, each checked.
fn build_terrain(ck: &mut Checker, raw: &RawScenario, rs: &dyn Ruleset) -> Terrain {
    let mut terrain = Terrain::default();
    for (i, f) in raw.terrain.iter().enumerate() {
        let pos = ck.at(&format!("\"{}\"", f.id), 1);
        if raw.terrain[..i].iter().any(|g| g.id == f.id) {
            ck.push(
                ck.at(&format!("\"{}\"", f.id), 2),
                format!("duplicate terrain id '{}'", f.id),
            );
            continue;
        }
        if f.points.len() > MAX_POINTS {
            ck.push(
                pos,
                format!("feature '{}' has more than {MAX_POINTS} points", f.id),
            );
            continue;
        }
        if f.points.iter().any(|p| !pt_ok(*p))
            || !f.width.is_finite()
            || f.width < 0.0
            || f.width > MAX_MM
        {
            ck.push(
                pos,
                format!(
                    "feature '{}' has a coordinate or width that is not a sensible number",
                    f.id
                ),
            );
            continue;
        }
        if let Some(p) = f.town_points {
            let why = if !rs.scenario_fields().contains(&ScenarioField::TownPoints) {
                Some("'town_points' applies to rulesets whose towns burn under artillery fire")
            } else if !matches!(f.kind, FeatureKind::Town | FeatureKind::Village) {
                Some("'town_points' applies to towns and villages")
            } else if !(1..=10_000).contains(&p) {
                Some("'town_points' must be from 1 to 10000")
            } else {
                None
            };
            if let Some(why) = why {
                ck.push(pos, format!("feature '{}': {why}", f.id));
                continue;
            }
        }
        let name = if f.name.is_empty() {
            f.kind.name().to_string()
        } else {
            f.name.clone()
        };
        match Feature::new(
            &f.id,
            f.kind,
            &name,
            f.points.iter().map(|p| Pt::new(p.0, p.1)).collect(),
            f.width,
        ) {
            Ok(mut feat) => {
                feat.level = f.level;
                feat.steep = f.steep;
                feat.fortified = f.fortified;
                feat.town_points = f.town_points;
                std::sync::Arc::make_mut(&mut terrain.features).push(feat);
            }
            Err(m) => ck.push(pos, m),
        }
    }

    terrain
}

/// One unit of the scenario checked against the ruleset, the table and the units before it.
fn build_unit(
    ck: &mut Checker,
    raw: &RawScenario,
    rs: &dyn Ruleset,
    table: &Table,
    i: usize,
    units: &[Unit],
) -> Option<Unit> {
    let u = &raw.units[i];
    let needle = format!("\"{}\"", u.id);
    let dup = raw.units[..i].iter().filter(|v| v.id == u.id).count();
    let pos = ck.at(&needle, dup + 1);
    if u.id.is_empty() || u.id.len() > 64 {
        ck.push(pos, "a unit id must be 1 to 64 characters".into());
        return None;
    }
    if dup > 0 {
        ck.push(pos, format!("duplicate unit id '{}'", u.id));
        return None;
    }
    if u.side >= raw.sides.len().max(2) {
        ck.push(
            pos,
            format!("unit '{}' has side {} but sides are 0 and 1", u.id, u.side),
        );
        return None;
    }
    if rs.base_size(&u.troop).is_none() {
        ck.push(
            ck.at(&format!("\"{}\"", u.troop), 1),
            format!(
                "unknown troop type '{}' for {} (known: {})",
                u.troop,
                rs.id(),
                rs.troop_codes().join(", ")
            ),
        );
        return None;
    };
    if !u.facing.is_finite() || u.facing.abs() > 3600.0 {
        ck.push(
            pos,
            format!("unit '{}' has a facing that is not a sensible number", u.id),
        );
        return None;
    }
    if u.hits > 10 {
        ck.push(pos, format!("unit '{}' starts with {} hits", u.id, u.hits));
        return None;
    }
    let (centre, undeployed) = match u.at {
        Some(p) if pt_ok(p) => (Pt::new(p.0, p.1), false),
        Some(_) => {
            ck.push(
                pos,
                format!(
                    "unit '{}' has a position that is not a sensible number",
                    u.id
                ),
            );
            return None;
        }
        None => (Pt::default(), true),
    };
    if undeployed && raw.deployment.iter().all(|z| z.side != u.side) {
        ck.push(
            pos,
            format!(
                "unit '{}' has no position and its side has no deployment zone",
                u.id
            ),
        );
        return None;
    }
    if (u.bases.is_some() || u.base.is_some())
        && rs.unit_model() != crate::rules::ruleset::UnitModel::Bases
    {
        ck.push(
            pos,
            format!(
                "unit '{}': 'bases' and 'base' apply to rulesets whose units are several bases",
                u.id
            ),
        );
        return None;
    }
    if u.brigade.is_some() && !rs.scenario_fields().contains(&ScenarioField::Brigade) {
        ck.push(
            pos,
            format!(
                "unit '{}': 'brigade' applies to rulesets that organise units in brigades",
                u.id
            ),
        );
        return None;
    }
    // The ruleset's own checks, after the table's (as before the ruleset held them).
    let setup = match rs.prepare_unit(u) {
        Ok(setup) => setup,
        Err(m) => {
            ck.push(pos, m);
            return None;
        }
    };
    if let Err(m) = check_states(rs, u) {
        ck.push(pos, m);
        return None;
    }
    if setup.stands.is_empty() && u.figures_lost > 0 {
        ck.push(
            pos,
            format!(
                "unit '{}' is a single base; 'figures_lost' applies to units of stands",
                u.id
            ),
        );
        return None;
    }
    let (w, d) = setup.size;
    let formation = setup.formation;
    let stands = setup.stands;
    let base = Base::new(centre, u.facing, w, d);
    // Stands that start at places of their own (an Old Dessauer L's refused arm).
    let placed = match rs.starting_stands(u, &base) {
        Ok(None) if u.refused.is_some() => {
            ck.push(
                pos,
                format!(
                    "unit '{}': 'refused' applies to rulesets whose units may form an L",
                    u.id
                ),
            );
            return None;
        }
        Ok(p) => p,
        Err(m) => {
            ck.push(pos, m);
            return None;
        }
    };
    if undeployed && placed.is_some() {
        ck.push(
            pos,
            format!("unit '{}': a unit in an L needs its position ('at')", u.id),
        );
        return None;
    }
    let shapes = placed.clone().unwrap_or_else(|| vec![base]);
    if !undeployed && !shapes.iter().all(|s| table.holds(s)) {
        ck.push(pos, format!("unit '{}' is (partly) off the table", u.id));
        return None;
    }
    if !undeployed
        && !rs.shares_ground(&u.troop)
        && let Some(o) = units.iter().find(|o| {
            !o.status.undeployed
                && !rs.shares_ground(&o.troop)
                && o.shapes()
                    .iter()
                    .any(|x| shapes.iter().any(|s| s.overlaps(x)))
        })
    {
        ck.push(pos, format!("unit '{}' overlaps '{}'", u.id, o.id));
        return None;
    }
    // Its coat: its own, else its side's (a bad side's coat was named with the sides).
    let coat = match u.coat.as_deref().map(coat_colour) {
        Some(Ok(c)) => Some(c),
        Some(Err(m)) => {
            ck.push(
                ck.at(&format!("\"{}\"", u.coat.as_deref().unwrap_or_default()), 1),
                m,
            );
            None
        }
        None => raw
            .sides
            .get(u.side)
            .and_then(|s| s.coat.as_deref())
            .and_then(|c| coat_colour(c).ok()),
    };
    let mut unit = Unit {
        id: UnitId::from(u.id.as_str()),
        name: if u.name.is_empty() {
            u.id.clone()
        } else {
            u.name.clone()
        },
        side: u.side,
        troop: u.troop.clone(),
        class: u.class,
        flags: u.flags.clone(),
        base,
        formation,
        stands: stands.iter().map(|&figures| Stand::new(figures)).collect(),
        division: u.division,
        status: Status {
            limbered: u.limbered,
            undeployed,
            hits: u.hits,
            shaken: setup.shaken || u.routed,
            packs: setup.packs,
            disordered: u.disordered || u.disrupted || u.disorganised,
            silenced: u.silenced,
            volley_spent: u.volley_fired,
            ammo: u.ammunition.unwrap_or_default(),
            hold_ground: u.hold_ground,
            ..Status::default()
        },
        bound: BoundState {
            moved: u.moved,
            ..BoundState::default()
        },
        extra: UnitExtra {
            strength: stands
                .iter()
                .sum::<u32>()
                .saturating_add(u.figures_lost)
                .saturating_add(u.bases_lost),
            leadership: u.leadership.unwrap_or(0),
            command_radius: u.command_radius.unwrap_or(0.0),
            attached: u.attached.clone().map(UnitId::from),
            parent: u.parent.clone().map(UnitId::from),
            brigade: u.brigade.clone(),
            coat,
            ..UnitExtra::default()
        },
    };
    if let Some(bases) = placed {
        unit.settle(&bases);
    }
    Some(unit)
}

/// A unit's starting states checked against what its ruleset knows of them, and against each
/// other: each problem in words.
fn check_states(rs: &dyn Ruleset, u: &RawUnit) -> Result<(), String> {
    let known = rs.unit_states(&u.troop);
    if let Some(s) = u.states().into_iter().find(|s| !known.contains(s)) {
        let names: Vec<&str> = known.iter().map(|k| k.field()).collect();
        return Err(format!(
            "unit '{}': '{}' is not a state of {} units in {} (theirs: {})",
            u.id,
            s.field(),
            u.troop,
            rs.name(),
            if names.is_empty() {
                "hits, shaken, disordered and limbered only where the rules have them".to_string()
            } else {
                names.join(", ")
            }
        ));
    }
    let clash = |a: bool, b: bool, what: &str| {
        if a && b {
            Err(format!("unit '{}': {what}", u.id))
        } else {
            Ok(())
        }
    };
    clash(
        u.routed,
        u.disorganised || u.disordered,
        "a routed unit is not also disorganised: give 'routed' alone",
    )?;
    clash(
        u.routed,
        u.shaken,
        "'routed' and 'shaken' are one state here: give 'routed' alone",
    )?;
    clash(
        u.disrupted,
        u.disordered,
        "'disrupted' and 'disordered' are one state here: give 'disrupted' alone",
    )?;
    clash(
        u.disorganised,
        u.disordered,
        "'disorganised' and 'disordered' are one state here: give 'disorganised' alone",
    )?;
    clash(
        u.ammunition.is_some_and(|a| a != Ammo::Full),
        u.packs.is_some_and(|p| p > 0),
        "a unit low on or out of ammunition carries no packs of its own to give",
    )?;
    if u.moved {
        if u.at.is_none() {
            return Err(format!(
                "unit '{}' cannot have moved before it is deployed",
                u.id
            ));
        }
        // Every battle opens with side 0's bound (`Battle::new`); side 1's units start afresh
        // when theirs begins, so a mark of having moved could only be lost.
        if u.side != 0 {
            return Err(format!(
                "unit '{}': only side 0's units, whose bound the battle opens with, can have moved in it",
                u.id
            ));
        }
    }
    Ok(())
}

/// RON as volley reads it: optional fields may be written without `Some(...)`.
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}
