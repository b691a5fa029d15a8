//! A raw scenario checked and turned into a game (a battle and its rules): the table, the terrain, the sides, the
//! zones and the objective, the armies against the ruleset; every problem at its place in the
//! file.

use super::*;
use crate::rules::battle::{Battle, Info, Objective, Scale, Table, Zone};
use crate::rules::game::Game;
use crate::rules::geometry::Pt;
use crate::rules::model::{SideInfo, Unit};
use crate::rules::ruleset::{AnyRuleset, Ruleset, ScenarioField};
use crate::rules::terrain::{Feature, FeatureKind, Terrain};

/// Turns a raw scenario into a game ready to play, collecting every problem.
pub fn build(raw: &RawScenario, text: &str, file: &str) -> Result<Game, Vec<Diagnostic>> {
    match build_preview(raw, text, file) {
        (Some(game), errs) if errs.is_empty() => Ok(game),
        (_, errs) => Err(errs),
    }
}

/// Every problem of a raw scenario, and the game made of what passed its checks (the units
/// refused left out), where the ruleset loads and the table has a size: what an editor shows
/// while a scenario is being made.
pub fn build_preview(raw: &RawScenario, text: &str, file: &str) -> (Option<Game>, Vec<Diagnostic>) {
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
            return (None, ck.errs);
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
        return (None, ck.errs);
    }

    let terrain = build_terrain(&mut ck, raw, rs);
    let sides = build_sides(&mut ck, raw);
    let table = Table {
        width: t.width,
        height: t.height,
    };
    let units = build_units(&mut ck, raw, rs, &table);
    let (zones, objective) = build_zones(&mut ck, raw);
    if raw.standard {
        for e in rs.check_standard((t.width, t.height), &terrain, &units, &zones, mm_per_unit) {
            ck.push(ck.at("standard", 1), e);
        }
    }
    for e in rs.check_deployment(&zones, objective.as_ref(), &sides, mm_per_unit) {
        ck.push(ck.at("objective", 1), e);
    }
    check_armies(&mut ck, raw, rs, &sides, &units, &terrain);
    let victory = super::victory::check(&mut ck, raw, &table);

    if !table_ok(&table) {
        return (None, ck.errs);
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
    let phase = rs.first_phase(&units);
    let mut battle = Battle::assemble(
        raw.clone(),
        info,
        phase,
        table,
        scale,
        terrain,
        sides,
        units,
        zones,
        objective,
        raw.turn_limit,
        raw.seed,
    );
    battle.set_victory(victory);
    (Some(Game::new(battle, rules)), ck.errs)
}

/// A table with a size: positive and at most `MAX_MM` each way.
fn table_ok(t: &Table) -> bool {
    [t.width, t.height]
        .iter()
        .all(|v| v.is_finite() && *v > 0.0 && *v <= MAX_MM)
}

/// The sides, their coats checked, and at most one of them the defender.
fn build_sides(ck: &mut Checker, raw: &RawScenario) -> Vec<SideInfo> {
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
    sides
}

/// The units, each checked (`build_unit`); then the units that attached generals and
/// regimental guns name, which must exist on their side.
fn build_units(ck: &mut Checker, raw: &RawScenario, rs: &dyn Ruleset, table: &Table) -> Vec<Unit> {
    let mut units: Vec<Unit> = Vec::new();
    for i in 0..raw.units.len() {
        if let Some(u) = build_unit(ck, raw, rs, table, i, &units) {
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
    units
}

/// Each side that claims an army list checked against the ruleset's.
fn check_armies(
    ck: &mut Checker,
    raw: &RawScenario,
    rs: &dyn Ruleset,
    sides: &[SideInfo],
    units: &[Unit],
    terrain: &Terrain,
) {
    for (s, raw_side) in raw.sides.iter().enumerate() {
        let Some(side) = sides.get(s).filter(|_| raw_side.army_list) else {
            continue;
        };
        let members: Vec<&Unit> = units.iter().filter(|u| u.side == s).collect();
        for e in rs.validate_army(&members, side, terrain) {
            ck.push(
                ck.at(&format!("\"{}\"", raw_side.name), 1),
                format!("army of {}: {e}", raw_side.name),
            );
        }
    }
}

/// The table, the turn limit, the scale and the sides; the millimetres per measuring unit.
pub(super) fn check_table(ck: &mut Checker, raw: &RawScenario, rs: &dyn Ruleset) -> f32 {
    let t = &raw.table;
    if !table_ok(&Table {
        width: t.width,
        height: t.height,
    }) {
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
pub(super) fn build_zones(ck: &mut Checker, raw: &RawScenario) -> (Vec<Zone>, Option<Objective>) {
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
        Some(RawObjective {
            at,
            owner: Some(owner),
            ..
        }) if pt_ok(*at) && *owner < 2 => Some(Objective {
            at: Pt::new(at.0, at.1),
            owner: *owner,
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
    (zones, objective)
}

/// Problems found while building, each at its place in the file.
pub(super) struct Checker<'a> {
    text: &'a str,
    file: &'a str,
    errs: Vec<Diagnostic>,
}

impl<'a> Checker<'a> {
    pub(super) fn text(&self) -> &'a str {
        self.text
    }
    pub(super) fn at(&self, needle: &str, nth: usize) -> (usize, usize) {
        locate(self.text, needle, nth)
    }
    pub(super) fn push(&mut self, pos: (usize, usize), message: String) {
        self.errs.push(Diagnostic {
            file: self.file.to_string(),
            line: pos.0,
            col: pos.1,
            message,
        })
    }
}

/// The terrain features, each checked.
pub(super) fn build_terrain(ck: &mut Checker, raw: &RawScenario, rs: &dyn Ruleset) -> Terrain {
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

pub(super) fn pt_ok(p: RawPt) -> bool {
    p.0.is_finite() && p.1.is_finite() && p.0.abs() <= MAX_MM && p.1.abs() <= MAX_MM
}
