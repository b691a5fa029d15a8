//! A scenario's units: troop type, stands, formation, optional rules and a general's ratings
//! checked, and an L's stands placed.

use super::common::RulesKey;
use super::formations::formations;
use super::{Kind, N, OldDessauer, Opt, Troop, layout};
use crate::rules::geometry::Base;
use crate::rules::model::{Flags, Formation, Own};
use crate::rules::ruleset::UnitSetup;
use crate::rules::scenario::RawUnit;

crate::rules::flag::flags! {
    /// The flags an Old Dessauer unit may carry, as scenarios write them.
    pub enum Flag {
        /// Grenadiers: +1 in the first round of a combat.
        Grenadier,
    }
}

/// The formation a unit of this troop takes when the scenario does not say.
fn default_formation(t: &Troop, limbered: bool) -> Formation {
    match t.kind {
        Kind::LightInfantry => Formation::Skirmish,
        Kind::Artillery if limbered => Formation::Column,
        _ => Formation::Line,
    }
}

impl OldDessauer {
    /// A scenario's unit: stands, formation, optional rules and a general's ratings checked;
    /// full stands and the usual formation where the scenario gives none.
    pub fn prepare_unit(&self, u: &RawUnit) -> Result<UnitSetup, String> {
        let t = self
            .troop_code(&u.troop)
            .ok_or_else(|| format!("unknown troop type '{}'", u.troop))?;
        if u.limbered && t.kind != Kind::Artillery {
            return Err(format!(
                "unit '{}' is not artillery and cannot be limbered",
                u.id
            ));
        }
        self.unit_check(t, u)
            .map_err(|m| format!("unit '{}': {m}", u.id))?;
        let stands = u
            .stands
            .clone()
            .unwrap_or_else(|| vec![t.figures_per_stand; t.stands as usize]);
        let formation = if u.refused.is_some() {
            Formation::Conformed
        } else {
            u.formation
                .unwrap_or_else(|| default_formation(t, u.limbered))
        };
        Ok(UnitSetup {
            size: layout::footprint(t, formation, stands.len()),
            formation,
            flags: Flags::read::<Flag>(&u.flags),
            stands,
            shaken: u.shaken,
            packs: 0,
            own: Own::default(),
        })
    }

    /// A scenario's unit that starts in an L (`refused`): its stands as the L formed from the
    /// line at `line` (the ruling `l_formation`).
    pub fn starting_stands(&self, u: &RawUnit, line: &Base) -> Result<Option<Vec<Base>>, String> {
        let (Some(flank), Some(t)) = (u.refused, self.troop_code(&u.troop)) else {
            return Ok(None);
        };
        let n = u.stands.as_ref().map_or(t.stands as usize, Vec::len);
        let right = flank == crate::rules::scenario::Flank::Right;
        Ok(Some(layout::l_bases(self, t, line, n, right)))
    }

    fn unit_check(&self, t: &Troop, u: &RawUnit) -> Result<(), String> {
        let need = |o: Opt| -> Result<(), String> {
            if self.opt(o) {
                Ok(())
            } else {
                Err(format!("{} needs the optional rule '{}'", t.name, o.key()))
            }
        };
        match t.kind {
            Kind::LightInfantry => need(Opt::LightInfantry)?,
            Kind::RegimentalGun => {
                need(Opt::RegimentalGuns)?;
                if u.parent.is_none() {
                    return Err("a regimental gun needs its parent regiment".into());
                }
            }
            Kind::General => need(Opt::Generals)?,
            _ => {}
        }
        if u.parent.is_some() && t.kind != Kind::RegimentalGun {
            return Err("only regimental guns have a parent".into());
        }
        if (u.attached.is_some() || u.leadership.is_some() || u.command_radius.is_some())
            && t.kind != Kind::General
        {
            return Err("only generals have leadership, a command radius or an attachment".into());
        }
        if let Some(l) = u.leadership
            && !(0..=2).contains(&l)
        {
            return Err(format!("leadership is +0, +1 or +2, not {l}"));
        }
        if let Some(r) = u.command_radius
            && !(r.is_finite() && (0.0..=100.0).contains(&r))
        {
            return Err("a command radius is 0 to 100 inches".into());
        }
        if let Some(st) = &u.stands {
            if st.is_empty() || st.len() > 40 {
                return Err("a unit has 1 to 40 stands".into());
            }
            if st.iter().any(|&f| f == 0 || f > t.figures_per_stand) {
                return Err(format!(
                    "each stand of {} has 1 to {} figures",
                    t.name, t.figures_per_stand
                ));
            }
        }
        if let Some(f) = u.formation {
            let ok = match t.kind {
                Kind::Artillery => {
                    f == if u.limbered {
                        Formation::Column
                    } else {
                        Formation::Line
                    }
                }
                Kind::Infantry | Kind::Cavalry | Kind::LightInfantry => {
                    formations(t.kind, false).iter().any(|(x, _)| *x == f)
                }
                _ => f == Formation::Line,
            };
            if !ok {
                return Err(format!("{} cannot be in {f:?}", t.name));
            }
        }
        if u.hits > 0 {
            return Err("give losses as figures in 'stands', not as hits".into());
        }
        if u.refused.is_some() {
            if !matches!(t.kind, Kind::Infantry | Kind::Cavalry) {
                return Err(format!("{} cannot form an L", t.name));
            }
            if !matches!(
                u.formation,
                None | Some(Formation::Line | Formation::Conformed)
            ) {
                return Err(
                    "an L ('refused') is formed from a line: its formation is Line or Conformed"
                        .into(),
                );
            }
            if u.stands.as_ref().map_or(t.stands as usize, Vec::len) < 2 {
                return Err("an L ('refused') needs at least 2 stands".into());
            }
        }
        if u.figures_lost > 0 {
            let now: u32 = u
                .stands
                .as_ref()
                .map(|s| s.iter().sum())
                .unwrap_or(t.figures_per_stand * t.stands);
            let strength = now.saturating_add(u.figures_lost);
            if now as f32 <= strength as f32 * self.num(N::ShatterFraction) {
                return Err(format!(
                    "figures_lost {} leaves {now} of {strength} figures: the unit would start shattered",
                    u.figures_lost
                ));
            }
        }
        Ok(())
    }
}
