//! BBB Seven Years' War variant (playsheet v1-2 on the Bloody Big Battles! core): units of
//! several bases, the 2D6 fire table read across sixteen columns, the assault table and the
//! command roll that decides each unit's move. Every number lives in
//! `assets/rulesets/bbb7yw.ron` with its source ([`data`]); the procedures that read the tables
//! are in [`tables`].
//!
//! Where each rule lives: the bound's order and the command roll in [`turn`]; moves, formation
//! changes and limbering in [`movement`], zones of control in [`zones`], evading in [`evade`];
//! fire in [`fire`]; assaults in [`assault`]; retiring in [`retire`]; disruption, losses,
//! Spent and recovery in [`morale`]; generals in [`generals`]; objectives and the result in
//! [`victory`]; what the window is told in [`view`], the log in [`words`], the rules reference
//! in [`reference`], a scenario's units in [`setup`], and the `Ruleset` door in `door`.

pub mod assault;
pub mod data;
mod door;
pub mod evade;
mod events;
pub mod fire;
pub mod generals;
pub mod layout;
pub mod morale;
pub mod movement;
pub mod reference;
mod refusal;
pub mod retire;
pub mod setup;
pub mod status;
pub mod tables;
pub mod turn;
pub mod victory;
mod view;
pub mod words;
pub mod zones;

pub use super::common::{FactorDef as Modifier, Number};
pub use data::*;
pub use events::BbbEvent;
pub use fire::FireColumn;
pub use movement::BbbPlan;
pub use refusal::{NoFire, Refusal};
pub use setup::Flag;
pub use turn::{ASSAULT, DEFENSIVE_FIRE, GENERALS, MOVEMENT, OFFENSIVE_FIRE};

use crate::rules::battle::Battle;
use crate::rules::command::{Factor, RuleError};
use crate::rules::geometry::Base;
use crate::rules::model::{Formation, Unit};
use crate::rules::terrain::FeatureKind;

/// Millimetres in an inch: BBB measures in inches.
pub const INCH: f32 = 25.4;

/// The BBB Seven Years' War ruleset.
#[derive(Clone, Debug)]
pub struct Bbb7yw {
    pub data: BbbData,
    /// The data's keyed rows by typed key.
    pub keys: Keys,
}

impl Bbb7yw {
    pub fn load() -> Result<Self, String> {
        let data = BbbData::load()?;
        let keys = Keys::take(&data, FILE, DATA)?;
        if data.troops.is_empty() {
            return Err("ruleset data: no troop types".into());
        }
        Ok(Bbb7yw { data, keys })
    }

    /// A rules number.
    pub fn n(&self, key: N) -> f32 {
        *self.keys.numbers.get(key)
    }

    /// The unit's troop type. A scenario naming a code the data lacks is refused at load (the
    /// scenario's check and `prepare`); a unit changed after that, with such a code, is refused
    /// here in words, never read as another troop type.
    pub fn troop(&self, u: &Unit) -> Result<&Troop, RuleError> {
        self.data.troop(&u.troop).ok_or_else(|| {
            RuleError::refused(
                Refusal::UnknownTroopType,
                format!(
                    "unit '{}' has the troop type '{}', which BBB's data lacks",
                    u.id, u.troop
                ),
            )
        })
    }

    /// The unit's arm; `None` only for a troop code the data lacks (see [`Bbb7yw::troop`]).
    pub fn arm(&self, u: &Unit) -> Option<Arm> {
        self.data.troop(&u.troop).map(|t| t.arm)
    }

    /// These tests are total: a troop code the data lacks is of no arm, so none of them holds.
    pub fn is_general(&self, u: &Unit) -> bool {
        self.arm(u) == Some(Arm::General)
    }

    pub fn is_artillery(&self, u: &Unit) -> bool {
        self.arm(u) == Some(Arm::Artillery)
    }

    pub fn is_cavalry(&self, u: &Unit) -> bool {
        self.arm(u).is_some_and(Arm::is_cavalry)
    }

    pub fn is_infantry(&self, u: &Unit) -> bool {
        self.arm(u) == Some(Arm::Infantry)
    }

    /// The size of one base (mm): the troop's.
    pub fn base_of(&self, u: &Unit) -> Result<(f32, f32), RuleError> {
        let (w, d) = self.troop(u)?.base;
        let n = u.stands.len().max(1);
        let (files, ranks) = layout::grid(u.formation, n);
        // A scenario may choose its own basing: the footprint holds it.
        let fw = u.base.width / files as f32;
        let fd = u.base.depth / ranks as f32;
        Ok(if fw > 0.0 && fd > 0.0 {
            (fw, fd)
        } else {
            (w, d)
        })
    }

    /// Limbered artillery, or a unit in column of march.
    pub fn marching(&self, u: &Unit) -> bool {
        u.formation == Formation::Column || (self.is_artillery(u) && u.status.limbered)
    }

    /// The full move, inches.
    pub fn full_move(&self, u: &Unit) -> Result<f32, RuleError> {
        Ok(self.troop(u)?.move_in)
    }

    pub fn inches(&self, b: &Battle, mm: f32) -> f32 {
        b.scale.from_mm(mm)
    }

    /// Terrain kinds a point lies in.
    pub fn terrain_at(&self, b: &Battle, u: &Unit) -> Vec<FeatureKind> {
        let mut out: Vec<FeatureKind> = b
            .terrain
            .at(u.base.centre, &FeatureKind::ALL)
            .map(|f| f.kind)
            .collect();
        out.dedup();
        out
    }

    /// Enemies (fighting units) in base contact.
    pub fn in_contact<'a>(&self, b: &'a Battle, u: &Unit) -> Vec<&'a Unit> {
        b.alive()
            .filter(|e| e.side != u.side && !self.is_general(e))
            .filter(|e| {
                e.base
                    .within(&u.base, crate::rules::geometry::CONTACT_EPS * 4.0)
            })
            .collect()
    }

    /// Distance (inches) to the nearest enemy fighting unit.
    pub fn nearest_enemy(&self, b: &Battle, u: &Unit) -> f32 {
        b.alive()
            .filter(|e| e.side != u.side && !self.is_general(e))
            .map(|e| b.scale.from_mm(e.base.distance(&u.base)))
            .fold(f32::INFINITY, f32::min)
    }

    /// A modifier of the assault table.
    pub fn assault_factor(&self, key: AssaultMod) -> Factor {
        self.keys.assault_modifiers.get(key).clone()
    }

    /// A modifier of the command roll.
    pub fn command_factor(&self, key: CommandMod) -> Factor {
        self.keys.command_modifiers.get(key).clone()
    }

    /// The unit's bases as drawn and measured.
    pub fn unit_bases(&self, u: &Unit) -> Result<Vec<Base>, RuleError> {
        Ok(layout::bases(u, self.base_of(u)?))
    }

    pub fn has(&self, u: &Unit, f: Flag) -> bool {
        u.has(f)
    }
}

pub(crate) use super::common::{illegal, in_phase};
