//! The file a draft is saved as: RON in the shipped scenarios' layout (the README's field names,
//! one line for each feature, side, unit, zone and objective, fields at their defaults left
//! out here, so that saves, which write the same types whole, stay as they were), with the
//! thing each line is about; and the units of a game in progress as a scenario
//! writes them.

use super::Thing;
use crate::rules::Game;
use crate::rules::ruleset::UnitModel;
use crate::rules::scenario::{RawScenario, RawUnit};
use ron::extensions::Extensions;
use ron::ser::PrettyConfig;
use serde::Serialize;

/// A scenario written out: its text, and the thing each of its lines is about (counted from 0).
#[derive(Clone, Debug)]
pub struct Written {
    pub text: String,
    pub lines: Vec<Thing>,
}

impl Written {
    fn line(&mut self, thing: Thing, text: &str) {
        self.text.push_str(text);
        self.text.push('\n');
        self.lines.push(thing);
    }
}

/// One value on one line: RON with spaces after commas and colons and no line breaks; an
/// optional value as itself (the files are read with `implicit_some`).
pub fn one_line<T: Serialize>(v: &T) -> Result<String, String> {
    let cfg = PrettyConfig::new()
        .new_line(" ")
        .indentor("")
        .compact_arrays(true)
        .compact_structs(true)
        .extensions(Extensions::IMPLICIT_SOME);
    let s = ron::ser::to_string_pretty(v, cfg).map_err(|e| format!("cannot write: {e}"))?;
    // The extension's header line belongs once at the top of the file, not on each value.
    let body = match s.strip_prefix("#![enable(implicit_some)]") {
        Some(rest) => rest.trim_start().to_string(),
        None => s,
    };
    Ok(tidy_spaces(&body))
}

/// Where a scan of RON text is: inside a string or not, and just after a backslash there.
#[derive(Default)]
struct Quoted {
    in_string: bool,
    escaped: bool,
}

impl Quoted {
    /// Takes the next character; true while it is a string's (its opening quote excepted).
    fn step(&mut self, c: char) -> bool {
        if !self.in_string {
            self.in_string = c == '"';
            return false;
        }
        match (self.escaped, c) {
            (false, '\\') => self.escaped = true,
            (false, '"') => self.in_string = false,
            _ => self.escaped = false,
        }
        true
    }
}

/// Pretty RON with its line breaks made spaces leaves doubled spaces and a space inside the
/// brackets: closes them up; and an apostrophe in a string is written plain.
fn tidy_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut q = Quoted::default();
    for c in s.chars() {
        let escaped = q.escaped;
        if q.step(c) {
            // An apostrophe needs no escape in a RON string: "Bevern's", not "Bevern\\'s".
            if escaped && c == '\'' {
                out.pop();
            }
            out.push(c);
            continue;
        }
        match c {
            ' ' if out.ends_with(' ') || out.ends_with('(') || out.ends_with('[') => {}
            ')' | ']' if out.ends_with(' ') => {
                out.pop();
                if out.ends_with(',') {
                    out.pop();
                }
                out.push(c);
            }
            ')' | ']' if out.ends_with(',') => {
                out.pop();
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// A scenario as a file a person can read and edit by hand, and `volley check` reads.
pub fn write(raw: &RawScenario) -> Result<Written, String> {
    let mut w = Written {
        text: String::new(),
        lines: Vec::new(),
    };
    let top = Thing::Scenario;
    w.line(top, "#![enable(implicit_some)]");
    w.line(top, "(");
    let field = |name: &str, v: String| format!("    {name}: {v},");
    w.line(top, &field("name", one_line(&raw.name)?));
    if !raw.date.is_empty() {
        w.line(top, &field("date", one_line(&raw.date)?));
    }
    if !raw.description.is_empty() {
        w.line(top, &field("description", one_line(&raw.description)?));
    }
    w.line(top, &field("ruleset", one_line(&raw.ruleset)?));
    w.line(top, &field("table", one_line(&raw.table)?));
    if let Some(p) = raw.paces_per_inch {
        w.line(top, &field("paces_per_inch", one_line(&p)?));
    }
    w.line(top, &field("seed", raw.seed.to_string()));
    w.line(top, &field("turn_limit", raw.turn_limit.to_string()));
    if !raw.victory.is_empty() {
        w.line(top, &field("victory", one_line(&raw.victory)?));
    }
    if let Some(o) = &raw.objective {
        w.line(top, &field("objective", one_line(o)?));
    }
    list(
        &mut w,
        "objectives",
        &raw.objectives,
        Thing::Objective,
        PLAIN,
    )?;
    if let Some(c) = &raw.victory_conditions {
        w.line(top, &field("victory_conditions", one_line(c)?));
    }
    if !raw.options.is_empty() {
        w.line(top, &field("options", one_line(&raw.options)?));
    }
    if raw.standard {
        w.line(top, &field("standard", "true".into()));
    }
    list(&mut w, "terrain", &raw.terrain, Thing::Feature, FEATURE)?;
    list(&mut w, "sides", &raw.sides, Thing::Side, SIDE)?;
    list(&mut w, "units", &raw.units, Thing::Unit, UNIT)?;
    list(&mut w, "deployment", &raw.deployment, Thing::Zone, PLAIN)?;
    w.line(top, ")");
    Ok(w)
}

/// What a member of a list is written with: the RON of one with every field at its default
/// (as the file would read it), and the fields written whatever their value. The other fields
/// are written only where they differ from the default.
struct Sparse {
    blank: &'static str,
    keep: &'static [&'static str],
}

const UNIT: Sparse = Sparse {
    blank: r#"(id: "", side: 0, type: "")"#,
    keep: &["id", "side", "type", "at", "facing"],
};
const FEATURE: Sparse = Sparse {
    blank: r#"(id: "", kind: Woods, points: [])"#,
    keep: &["id", "kind", "points"],
};
const SIDE: Sparse = Sparse {
    blank: r#"(name: "", colour: (0, 0, 0))"#,
    keep: &["name", "colour"],
};
/// Written as serde writes it (its type leaves out its defaults itself).
const PLAIN: Sparse = Sparse {
    blank: "",
    keep: &[],
};

/// The top-level fields of a struct written on one line, `(a: 1, b: (2, 3))`: each name and its
/// value's text.
fn fields(s: &str) -> Option<Vec<(String, String)>> {
    let inner = s.trim().strip_prefix('(')?.strip_suffix(')')?;
    let mut out = Vec::new();
    let (mut depth, mut q, mut start) = (0i32, Quoted::default(), 0);
    let mut push = |part: &str| -> Option<()> {
        if part.trim().is_empty() {
            return Some(());
        }
        let (name, value) = part.split_once(':')?;
        out.push((name.trim().to_string(), value.trim().to_string()));
        Some(())
    };
    for (i, c) in inner.char_indices() {
        if q.step(c) || q.in_string {
            continue;
        }
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                push(&inner[start..i])?;
                start = i + 1;
            }
            _ => {}
        }
    }
    push(&inner[start..])?;
    Some(out)
}

/// A member written with the fields at their defaults left out (`Sparse`).
fn sparse<T: Serialize + serde::de::DeserializeOwned>(
    item: &T,
    how: &Sparse,
) -> Result<String, String> {
    let full = one_line(item)?;
    if how.blank.is_empty() {
        return Ok(full);
    }
    let blank: T = crate::rules::scenario::ron_options()
        .from_str(how.blank)
        .map_err(|e| format!("cannot write: {e}"))?;
    let (Some(mine), Some(theirs)) = (fields(&full), fields(&one_line(&blank)?)) else {
        return Ok(full);
    };
    let kept: Vec<String> = mine
        .into_iter()
        .filter(|(name, value)| {
            how.keep.contains(&name.as_str()) || theirs.iter().all(|(n, v)| n != name || v != value)
        })
        .map(|(name, value)| format!("{name}: {value}"))
        .collect();
    Ok(format!("({})", kept.join(", ")))
}

/// A member of one of the scenario's lists as its line of the file writes it.
pub fn member(raw: &RawScenario, thing: Thing) -> Option<Result<String, String>> {
    Some(match thing {
        Thing::Unit(i) => sparse(raw.units.get(i)?, &UNIT),
        Thing::Feature(i) => sparse(raw.terrain.get(i)?, &FEATURE),
        Thing::Side(i) => sparse(raw.sides.get(i)?, &SIDE),
        Thing::Zone(i) => sparse(raw.deployment.get(i)?, &PLAIN),
        Thing::Objective(i) => sparse(raw.objectives.get(i)?, &PLAIN),
        Thing::Scenario => return None,
    })
}

/// A list, one member a line; none at all for an empty one that may be left out (the sides and
/// the units may not).
fn list<T: Serialize + serde::de::DeserializeOwned>(
    w: &mut Written,
    name: &str,
    items: &[T],
    thing: fn(usize) -> Thing,
    how: Sparse,
) -> Result<(), String> {
    let required = matches!(name, "sides" | "units");
    if items.is_empty() {
        if required {
            w.line(Thing::Scenario, &format!("    {name}: [],"));
        }
        return Ok(());
    }
    w.line(Thing::Scenario, &format!("    {name}: ["));
    for (i, item) in items.iter().enumerate() {
        w.line(thing(i), &format!("        {},", sparse(item, &how)?));
    }
    w.line(Thing::Scenario, "    ],");
    Ok(())
}

/// The units of a game in progress as a scenario writes them: each where it stands, in the
/// formation and states it is in now; the units lost or gone from the table left out.
pub(super) fn units_now(game: &Game, raw: &RawScenario) -> Vec<RawUnit> {
    let rules = game.rules.get();
    let model = rules.unit_model();
    let mut out = Vec::new();
    for u in game.battle.units.iter() {
        if u.status.removed || u.status.exited {
            continue;
        }
        let Some(mut r) = raw.units.iter().find(|r| r.id == u.id.as_str()).cloned() else {
            continue;
        };
        let view = rules.state_of(u);
        if !u.status.undeployed {
            r.at = Some(super::tidy_pt((u.base.centre.x, u.base.centre.y)));
            r.facing = super::tidy(u.base.facing.rem_euclid(360.0));
        }
        r.formation =
            Some(u.formation).filter(|f| r.formation.is_some() || *f != Default::default());
        r.hits = u.status.hits;
        r.shaken = view.shaken;
        r.disordered = view.disordered;
        r.limbered = u.status.limbered;
        r.disrupted = view.disrupted;
        r.disorganised = view.disorganised;
        r.routed = view.routed;
        // A ruleset's view may name one state twice (its own name for the shared disordered
        // flag, beside the flag; a routed unit still disordered): a scenario gives each once,
        // the stronger alone, as `check_states` asks.
        if r.routed {
            (r.shaken, r.disorganised, r.disordered) = (false, false, false);
        }
        if r.disrupted || r.disorganised {
            r.disordered = false;
        }
        r.silenced = view.silenced;
        r.volley_fired = view.volley_fired;
        r.hold_ground = u.status.hold_ground;
        r.ammunition = Some(view.ammunition).filter(|a| *a != Default::default());
        if r.packs.is_some() || view.packs > 0 {
            r.packs = Some(view.packs);
        }
        match model {
            UnitModel::Bases => {
                r.bases = Some(u.stands.len() as u32);
                r.bases_lost = view.bases_lost;
            }
            UnitModel::Stands if !u.stands.is_empty() => {
                r.stands = Some(u.stands.iter().map(|s| s.figures).collect());
                r.figures_lost = view.figures_lost;
                // Hits counted in figures are these figures lost, written once.
                r.hits = 0;
            }
            _ => {}
        }
        r.attached = u.extra.attached.as_ref().map(|a| a.as_str().to_string());
        // Hits a ruleset counts only within a turn (Old Dessauer's, for its morale tests, its
        // losses being figures) are not a state a scenario sets: the new battle starts a turn.
        if r.hits > 0 && rules.prepare_unit(&r).is_err() {
            r.hits = 0;
        }
        out.push(r);
    }
    out
}
