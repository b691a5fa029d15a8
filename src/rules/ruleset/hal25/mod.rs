//! Hal's 25mm Seven Years War rules (Hal Thinglum): a figure-removal game. Each file is one of
//! the rules' topics: the data (`data`, read from `assets/rulesets/hal25.ron`) and its tables
//! (`tables`, `procedures`, `layout`), the turn and the brigades' activation (`turn`), the
//! generals' chips (`chips`), couriers (`couriers`), movement (`movement`), charges (`charge`),
//! firing (`fire`) and towns under fire (`towns`), melee (`melee`), morale, rout and army
//! withdrawal (`morale`), losses and officers' risk (`officers`), the scenario's units (`setup`),
//! and what the window and log are told (`view`). This file holds the unit's facts every topic
//! asks: its class, state, stands and command.

mod charge;
mod chips;
mod couriers;
mod data;
mod events;
mod fire;
pub mod layout;
mod melee;
mod morale;
mod movement;
mod officers;
pub mod procedures;
mod refusal;
mod rolls;
mod setup;
pub mod status;
pub mod tables;
mod towns;
mod turn;
mod view;

pub use data::*;
pub use events::{HalEvent, Marker};
pub use melee::flank_or_rear;
pub use refusal::Refusal;
pub use rolls::HalRoll;
pub use turn::{ARTILLERY, CHARGES, CLOSE_COMBAT, COMMAND, MORALE, MOVEMENT, ROUT, SMALL_ARMS};

use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::geometry::Base;
use crate::rules::log::Events;
use crate::rules::model::{Formation, Side, Unit, UnitId};
use crate::rules::terrain::{Feature, FeatureKind};
use status::own;
use tables::MoveFormation;

/// Hal's 25mm rules, loaded.
#[derive(Clone, Debug)]
pub struct Hal25 {
    pub d: HalData,
}

/// A unit's state of morale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Good,
    Disorganised,
    Routed,
}

impl Hal25 {
    pub fn load() -> Result<Self, String> {
        Ok(Hal25 {
            d: HalData::load()?,
        })
    }

    /// The engine on the data file `text` instead of the one compiled in (for tests of what
    /// the data drives).
    pub fn from_ron(text: &str) -> Result<Self, String> {
        Ok(Hal25 {
            d: HalData::from_ron(text)?,
        })
    }

    /// A rules number the engine reads.
    pub fn n(&self, k: N) -> f32 {
        self.d.n(k)
    }

    /// The number the data file gives under `key`, as written (see [`HalData::num`]).
    pub fn num(&self, key: &str) -> f32 {
        self.d.num(key)
    }

    /// The unit's troop type. A scenario naming a code the data lacks is refused at load
    /// (`base_size`, `prepare_unit`); a unit changed after that, with such a code, is refused
    /// here in words, never read as another troop type.
    pub fn troop_def(&self, u: &Unit) -> Result<&TroopDef, RuleError> {
        self.d.troop(&u.troop).ok_or_else(|| {
            RuleError::refused(
                Refusal::UnknownTroopType,
                format!(
                    "unit '{}' has the troop type '{}', which Hal's data lacks",
                    u.id, u.troop
                ),
            )
        })
    }

    /// The unit's class; `None` only for a troop code the data lacks (see
    /// [`Hal25::troop_def`]). The tests of class below are total: such a unit is of no class,
    /// so none of them holds.
    pub fn class(&self, u: &Unit) -> Option<TroopClass> {
        self.d.troop(&u.troop).map(|t| t.troop)
    }

    pub fn is_officer(&self, u: &Unit) -> bool {
        matches!(
            self.class(u),
            Some(TroopClass::General | TroopClass::Courier)
        )
    }

    pub fn is_cic(&self, u: &Unit) -> bool {
        self.class(u) == Some(TroopClass::General) && u.extra.brigade.is_none()
    }

    pub fn is_brigadier(&self, u: &Unit) -> bool {
        self.class(u) == Some(TroopClass::General) && u.extra.brigade.is_some()
    }

    pub fn is_cavalry(&self, u: &Unit) -> bool {
        matches!(
            self.class(u),
            Some(TroopClass::HeavyCavalry | TroopClass::LightCavalry)
        )
    }

    pub fn is_artillery(&self, u: &Unit) -> bool {
        self.class(u) == Some(TroopClass::Artillery)
    }

    pub fn is_infantry(&self, u: &Unit) -> bool {
        matches!(
            self.class(u),
            Some(TroopClass::Line | TroopClass::Grenadier | TroopClass::Light)
        )
    }

    /// A battalion, regiment or battery: what counts for army withdrawal.
    pub fn is_unit(&self, u: &Unit) -> bool {
        !self.is_officer(u)
    }

    pub fn org(&self, u: &Unit) -> Option<&Organisation> {
        self.d.organisation(self.class(u)?)
    }

    pub fn state(&self, u: &Unit) -> State {
        if u.status.shaken {
            State::Routed
        } else if u.status.disordered {
            State::Disorganised
        } else {
            State::Good
        }
    }

    /// Formed: not skirmishing, disorganised or routed.
    pub fn formed(&self, u: &Unit) -> bool {
        u.formation != Formation::Skirmish && self.state(u) == State::Good
    }

    pub fn move_formation(&self, u: &Unit, formation: Formation) -> MoveFormation {
        if self.is_artillery(u) {
            return MoveFormation::FieldColumn;
        }
        match formation {
            Formation::Column => MoveFormation::FieldColumn,
            Formation::Skirmish => MoveFormation::Skirmish,
            _ => MoveFormation::Line,
        }
    }

    /// Each of the unit's stands' sizes in inches, in the unit's order.
    pub fn stand_sizes(&self, u: &Unit) -> Vec<(f32, f32)> {
        let Some(o) = self.org(u) else {
            return vec![(1.0, 1.0); u.stands.len()];
        };
        if self.is_artillery(u) {
            // Batteries keep every stand, an empty one standing for a lost gun or team.
            return o.stand_sizes.clone();
        }
        let mut v: Vec<(f32, f32)> = o.stand_sizes.iter().copied().take(u.stands.len()).collect();
        while v.len() < u.stands.len() {
            v.push(*o.stand_sizes.last().unwrap_or(&(1.0, 1.0)));
        }
        v
    }

    /// Where each stand stands in a formation, in inches from the front centre.
    pub fn places(&self, u: &Unit, formation: Formation, volley_spent: bool) -> Vec<layout::Place> {
        let sizes = self.stand_sizes(u);
        if self.is_artillery(u) {
            // Guns in front, their limbers behind.
            return layout::places(&sizes, MoveFormation::FieldColumn, true, 0.0);
        }
        layout::places(
            &sizes,
            self.move_formation(u, formation),
            volley_spent,
            self.n(N::SkirmishGap),
        )
    }

    /// The unit's frontage and depth in mm in a formation.
    pub fn footprint(&self, b: &Battle, u: &Unit, formation: Formation) -> (f32, f32) {
        let inch = b.scale.to_mm(1.0);
        let p = self.places(u, formation, own(u).volley_spent);
        footprint_of(&p, inch)
    }

    /// Each stand's base on the table (the unit's base is their frame).
    pub fn stand_bases(&self, b: &Battle, u: &Unit) -> Vec<Base> {
        let inch = b.scale.to_mm(1.0);
        let p = self.places(u, u.formation, own(u).volley_spent);
        let (w, _) = footprint_of(&p, inch);
        let x0 = p
            .iter()
            .map(|q| q.across - q.width / 2.0)
            .fold(f32::MAX, f32::min)
            * inch;
        let shift = -(x0 + w / 2.0);
        p.iter()
            .map(|q| {
                Base::new(
                    u.base
                        .local(q.across * inch + shift, u.base.depth / 2.0 - q.back * inch),
                    u.base.facing,
                    q.width * inch,
                    q.depth * inch,
                )
            })
            .collect()
    }

    pub fn inches(&self, b: &Battle, mm: f32) -> f32 {
        b.scale.from_mm(mm)
    }

    pub fn brigade_of<'a>(&self, u: &'a Unit) -> Option<&'a str> {
        u.extra.brigade.as_deref()
    }

    /// The brigade's commander, if he is on the table.
    pub fn brigadier<'a>(&self, b: &'a Battle, side: Side, brigade: &str) -> Option<&'a Unit> {
        b.alive().find(|g| {
            g.side == side && self.is_brigadier(g) && g.extra.brigade.as_deref() == Some(brigade)
        })
    }

    /// The commander in chief of a side, if he is on the table.
    pub fn cic<'a>(&self, b: &'a Battle, side: Side) -> Option<&'a Unit> {
        b.alive().find(|g| g.side == side && self.is_cic(g))
    }

    /// A general's command radius in inches (his chips may have changed it).
    pub fn radius(&self, g: &Unit) -> f32 {
        if g.extra.command_radius > 0.0 {
            g.extra.command_radius
        } else {
            self.n(N::BrigadeRadius)
        }
    }

    /// Within its brigade commander's radius (any part of the unit).
    pub fn in_command(&self, b: &Battle, u: &Unit) -> bool {
        if self.is_officer(u) {
            return true;
        }
        let Some(brigade) = self.brigade_of(u) else {
            return false;
        };
        let Some(g) = self.brigadier(b, u.side, brigade) else {
            return false;
        };
        self.inches(b, u.base.distance(&g.base)) <= self.radius(g) + 1e-3
    }

    /// The general physically attached to the unit, if any.
    pub fn attached_general<'a>(&self, b: &'a Battle, u: &Unit) -> Option<&'a Unit> {
        if self.is_officer(u) {
            return None;
        }
        let tol = b.scale.to_mm(self.n(N::AttachedTolerance));
        let mut near: Vec<&Unit> = b
            .alive()
            .filter(|g| g.side == u.side && self.class(g) == Some(TroopClass::General))
            .filter(|g| g.base.within(&u.base, tol))
            .collect();
        // The unit's own brigadier first.
        near.sort_by_key(|g| g.extra.brigade != u.extra.brigade);
        near.first().copied()
    }

    pub fn in_terrain(&self, b: &Battle, u: &Unit, kinds: &[FeatureKind]) -> bool {
        b.terrain.touching(&u.base, kinds).next().is_some()
    }

    /// In a town or village that stands: one in flames "can not be occupied" (II.B.4.b), so
    /// it gives its occupants no cover, works or defence (ruling burnt_town).
    pub fn in_town(&self, b: &Battle, u: &Unit) -> bool {
        self.towns_held(b, u)
            .iter()
            .any(|t| self.town_left(b, &t.id) > 0)
    }

    /// The towns and villages the unit occupies (ruling town_room): those its base touches
    /// (any part of a town's base is built up, VII.A.2), unless it is horse, which does not
    /// occupy a town, or an enemy battalion (for a battalion) or battery (for a battery)
    /// touching the same town stands nearer its middle: a unit pressed against the garrison
    /// from outside, as a charger is, fights at the town and does not hold it.
    pub fn towns_held<'a>(&self, b: &'a Battle, u: &Unit) -> Vec<&'a Feature> {
        if self.is_cavalry(u) || !self.is_unit(u) {
            return Vec::new();
        }
        let gun = self.is_artillery(u);
        b.terrain
            .features
            .iter()
            .filter(|t| matches!(t.kind, FeatureKind::Town | FeatureKind::Village))
            .filter(|t| t.touches(&u.base))
            .filter(|t| {
                let (lo, hi) = t.bounds();
                let middle = lo.plus(hi).scale(0.5);
                let mine = u.base.centre.dist(middle);
                !b.alive().any(|e| {
                    e.side != u.side
                        && self.is_unit(e)
                        && !self.is_cavalry(e)
                        && self.is_artillery(e) == gun
                        && t.touches(&e.base)
                        && e.base.centre.dist(middle) < mine
                })
            })
            .collect()
    }

    /// Under cover: in woods, a town or village not in flames, or works.
    pub fn covered(&self, b: &Battle, u: &Unit) -> bool {
        self.in_town(b, u)
            || self.in_terrain(b, u, &[FeatureKind::Woods, FeatureKind::Fortification])
    }

    pub fn in_works(&self, b: &Battle, u: &Unit) -> bool {
        self.in_town(b, u) || self.in_terrain(b, u, &[FeatureKind::Fortification])
    }

    /// The stands the unit started with.
    pub fn stands_at_start(&self, u: &Unit) -> usize {
        self.org(u).map_or(u.stands.len(), |o| o.stands.len())
    }

    /// Figures on a full stand of the unit's type (the organisation's first stand after the
    /// command stand; a gun's crew; a mounted officer).
    pub fn full_stand(&self, u: &Unit) -> u32 {
        self.org(u).map_or(1, |o| {
            o.stands.get(1).or(o.stands.first()).copied().unwrap_or(1)
        })
    }

    /// Gun crews at the start (artillery): figures on the organisation's gun stands.
    pub fn crew_at_start(&self, u: &Unit) -> u32 {
        self.org(u).map_or(0, |o| o.stands.iter().take(2).sum())
    }

    /// Gun crews left (artillery): figures on the gun stands.
    pub fn crew(&self, u: &Unit) -> u32 {
        u.stands.iter().take(2).map(|s| s.figures).sum()
    }

    /// Guns able to fire or move: two crew or more.
    pub fn guns_served(&self, u: &Unit) -> u32 {
        let need = self.n(N::CrewToServe) as u32;
        u.stands
            .iter()
            .take(2)
            .filter(|s| s.figures >= need)
            .count() as u32
    }

    pub fn contact(&self, b: &Battle, a: &Unit, e: &Unit) -> bool {
        let tolerance = b.scale.to_mm(self.n(N::ContactTolerance));
        // The same both ways round: measured from either base, two units a float's last digit
        // either side of the tolerance were in contact one way and not the other, so the melee
        // found from one was refused from the other and the phase could not end.
        a.base.within(&e.base, tolerance) || e.base.within(&a.base, tolerance)
    }

    pub fn enemies_in_contact<'a>(&self, b: &'a Battle, u: &Unit) -> Vec<&'a Unit> {
        b.alive()
            .filter(|e| e.side != u.side && !self.is_officer(e) && self.contact(b, u, e))
            .collect()
    }
}

/// The width and depth (mm) of stands placed as `p` (inches).
pub fn footprint_of(p: &[layout::Place], inch: f32) -> (f32, f32) {
    if p.is_empty() {
        return (inch, inch);
    }
    let x0 = p
        .iter()
        .map(|q| q.across - q.width / 2.0)
        .fold(f32::MAX, f32::min);
    let x1 = p
        .iter()
        .map(|q| q.across + q.width / 2.0)
        .fold(f32::MIN, f32::max);
    let y1 = p.iter().map(|q| q.back + q.depth / 2.0).fold(0.0, f32::max);
    ((x1 - x0) * inch, y1 * inch)
}

/// Begins a phase of the current turn.
pub(crate) fn begin(b: &mut Battle, out: &mut Vec<Event>, phase: crate::rules::model::Phase) {
    let (turn, side) = (b.turn, b.active);
    b.emit(out, Event::PhaseBegan { turn, phase, side });
}

/// The events of this turn so far.
pub fn this_turn(b: &Battle) -> Events<'_> {
    // From the first phase of this turn (turns only grow along the log: read from the end).
    let mut start = b.log.len();
    for (i, e) in b.log.iter().enumerate().rev() {
        match e {
            Event::PhaseBegan { turn, .. } if *turn == b.turn => start = i,
            Event::PhaseBegan { .. } => break,
            _ => {}
        }
    }
    b.log.since(start)
}

/// The events of the current phase so far.
pub fn this_phase(b: &Battle) -> Events<'_> {
    let start = b
        .log
        .iter()
        .rposition(|e| matches!(e, Event::PhaseBegan { .. }))
        .map_or(0, |i| i + 1);
    b.log.since(start)
}

/// Figures a unit lost in these events.
pub fn lost_in<'a>(events: impl IntoIterator<Item = &'a Event>, id: &UnitId) -> u32 {
    events
        .into_iter()
        .map(|e| match e {
            Event::Losses { unit, figures, .. } if unit == id => *figures,
            _ => 0,
        })
        .sum()
}
