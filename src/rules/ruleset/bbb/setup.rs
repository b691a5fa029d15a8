//! A BBB scenario's units checked and set up: bases, formation, state and attributes.

use super::status::OwnStatus;
use super::{Arm, Bbb7yw, N, Troop, layout};
use crate::rules::model::{Class, Flags, Formation, Own};
use crate::rules::ruleset::UnitSetup;
use crate::rules::scenario::RawUnit;

crate::rules::flag::flags! {
    /// A BBB unit's attributes, as scenarios write them.
    pub enum Flag {
        /// Aggressive (assault bonus, may form in depth).
        Aggressive,
        /// Passive (-1 command in good order).
        Passive,
        /// Fragile (-1 command when disrupted, -1 in assault).
        Fragile,
        /// Elite companies (EL: a right shift firing).
        EliteCompanies,
        /// Devastating volleys (D: a right shift firing).
        Devastating,
        /// Ragged volleys (R: a left shift firing).
        Ragged,
        /// Tactically inept (T: fire at it shifts right).
        Inept,
        /// Battalion guns (BG: the higher firing values).
        BattalionGuns,
        /// Skirmish (SK: the skirmish musket's firing values).
        Skirmish,
        /// Ineffective musket.
        IneffectiveMusket,
        /// Cavalry armed with muskets (cavalry musket firing values).
        CavalryMusket,
        /// Militia (-1 command).
        Militia,
        /// Lancers (against infantry in an assault).
        Lancer,
    }
}

impl Bbb7yw {
    /// A scenario's unit: its bases (the data's default, or `bases`), in its formation.
    pub fn prepare(&self, u: &RawUnit) -> Result<UnitSetup, String> {
        let t = self
            .data
            .troop(&u.troop)
            .ok_or_else(|| format!("unknown troop type '{}'", u.troop))?;
        if u.stands.is_some() || u.figures_lost > 0 {
            return Err(format!(
                "unit '{}': BBB units are bases, not stands of figures: use 'bases'",
                u.id
            ));
        }
        let n = self.bases_of(u, t)?;
        let formation = self.formation_of(u, t)?;
        self.check_state(u, t, formation)?;
        check_attributes(u, t)?;
        let base = base_size(u, t)?;
        Ok(UnitSetup {
            size: layout::footprint(base, formation, n as usize),
            formation,
            flags: Flags::read::<Flag>(&u.flags),
            stands: vec![1; n as usize],
            shaken: false,
            packs: 0,
            own: Own::new(OwnStatus {
                silenced: u.silenced,
            }),
        })
    }

    /// How many bases the unit has: the scenario's `bases`, else the data's default.
    fn bases_of(&self, u: &RawUnit, t: &Troop) -> Result<u32, String> {
        let n = u.bases.unwrap_or(match t.arm {
            Arm::General | Arm::Artillery => 1,
            _ => self.n(N::DefaultBases) as u32,
        });
        let most = self.n(N::MaxBases) as u32;
        if n == 0 || n > most {
            return Err(format!("unit '{}': from 1 to {most} bases", u.id));
        }
        if t.arm == Arm::General && n != 1 {
            return Err(format!("unit '{}': a general is one base", u.id));
        }
        Ok(n)
    }

    /// The unit's formation: line, column of march, or in depth (infantry only).
    fn formation_of(&self, u: &RawUnit, t: &Troop) -> Result<Formation, String> {
        let formation = u.formation.unwrap_or(Formation::Line);
        match formation {
            Formation::Line | Formation::Column => {}
            // Any infantry may stand in depth; only Aggressive infantry may move in it.
            Formation::Deep if t.arm == Arm::Infantry => {}
            Formation::Deep => {
                return Err(format!("unit '{}': only infantry may stand in depth", u.id));
            }
            other => {
                return Err(format!(
                    "unit '{}': BBB units stand in Line, Column (of march) or Deep, not {other:?}",
                    u.id
                ));
            }
        }
        Ok(formation)
    }

    /// The state a scenario gives the unit is one BBB knows for its arm.
    fn check_state(&self, u: &RawUnit, t: &Troop, formation: Formation) -> Result<(), String> {
        // Fire Table Notes: "R, T, V = Unit disrupted, Artillery Silenced": fire silences a
        // battery only as it disrupts it.
        if u.silenced && !(u.disrupted || u.disordered) {
            return Err(format!(
                "unit '{}': a silenced battery is disrupted too ('disrupted: true'): fire that \
                 silences guns disrupts them (Fire Table Notes)",
                u.id
            ));
        }
        // Low ammunition is BBB's only shortage: "Out" is DBFPW's.
        if u.ammunition == Some(crate::rules::model::Ammo::Out) {
            return Err(format!(
                "unit '{}': BBB units run low on ammunition ('ammunition: Low'), never out",
                u.id
            ));
        }
        if u.limbered && t.arm != Arm::Artillery {
            return Err(format!(
                "unit '{}' is not artillery and cannot be limbered",
                u.id
            ));
        }
        if t.arm == Arm::Artillery && formation != Formation::Line {
            return Err(format!(
                "unit '{}': artillery is limbered or not ('limbered: true'), not in a formation",
                u.id
            ));
        }
        if u.hits > 0 && t.arm != Arm::Artillery {
            return Err(format!(
                "unit '{}': 'hits' are artillery's (reduced); give other units fewer 'bases'",
                u.id
            ));
        }
        if u.hits >= self.n(N::ArtilleryDestroyedHits) as u32 {
            return Err(format!("unit '{}' starts destroyed", u.id));
        }
        if matches!(u.class, Class::Superior) {
            return Err(format!(
                "unit '{}': BBB quality is Raw, Trained or Veteran",
                u.id
            ));
        }
        Ok(())
    }
}

/// Each attribute the scenario gives applies to the unit's arm.
fn check_attributes(u: &RawUnit, t: &Troop) -> Result<(), String> {
    for f in &u.flags {
        let Some(flag) = f.read::<Flag>() else {
            return Err(format!(
                "unit '{}': the attribute {f:?} does not apply to {}",
                u.id, t.name
            ));
        };
        let ok = match flag {
            Flag::Aggressive | Flag::Passive | Flag::Fragile | Flag::Militia => {
                t.arm != Arm::General
            }
            Flag::EliteCompanies
            | Flag::Devastating
            | Flag::Ragged
            | Flag::BattalionGuns
            | Flag::Skirmish
            | Flag::IneffectiveMusket => t.arm == Arm::Infantry,
            Flag::CavalryMusket | Flag::Lancer => t.arm.is_cavalry(),
            Flag::Inept => t.arm != Arm::General,
        };
        if !ok {
            return Err(format!(
                "unit '{}': the attribute {f:?} does not apply to {}",
                u.id, t.name
            ));
        }
    }
    Ok(())
}

/// The size of one base: the scenario's `base`, else the troop's.
fn base_size(u: &RawUnit, t: &Troop) -> Result<(f32, f32), String> {
    Ok(match u.base {
        Some((w, d))
            if w.is_finite()
                && d.is_finite()
                && w >= 5.0
                && d >= 5.0
                && w <= 200.0
                && d <= 200.0 =>
        {
            (w, d)
        }
        Some(_) => {
            return Err(format!(
                "unit '{}': a base is between 5 and 200 mm each way",
                u.id
            ));
        }
        None => t.base,
    })
}
