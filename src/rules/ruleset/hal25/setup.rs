//! Hal's units from the scenarios: each unit's stands and formation from its troop type, and the
//! brigades checked.

use super::N;
use super::status::OwnStatus;
use super::tables::MoveFormation;
use super::view::INCH;
use super::{Hal25, Organisation, TroopClass, TroopDef, footprint_of, layout};
use crate::rules::model::{Class, Flags, Formation, Own, Unit};
use crate::rules::ruleset::UnitSetup;
use crate::rules::scenario::RawUnit;

impl Hal25 {
    pub(super) fn class_of_code(&self, code: &str) -> Option<&super::TroopDef> {
        self.d.troop(code)
    }

    /// A scenario's unit: its stands (the organisation's, or `stands`), in its formation.
    pub(super) fn prepare(&self, u: &RawUnit) -> Result<UnitSetup, String> {
        let Some(t) = self.class_of_code(&u.troop) else {
            return Err(format!("unit '{}': unknown type '{}'", u.id, u.troop));
        };
        let Some(org) = self.d.organisation(t.troop) else {
            return Err(format!("unit '{}': no organisation for {}", u.id, t.name));
        };
        let officer = matches!(t.troop, TroopClass::General | TroopClass::Courier);
        let formation = self.scenario_formation(u, t)?;
        let stands = self.scenario_stands(u, t, org)?;
        if officer && (u.limbered || u.disordered || u.shaken) {
            return Err(format!(
                "unit '{}': an officer is never limbered or disordered",
                u.id
            ));
        }
        if u.limbered && t.troop != TroopClass::Artillery {
            return Err(format!("unit '{}': only batteries limber", u.id));
        }
        let sizes: Vec<(f32, f32)> = if t.troop == TroopClass::Artillery {
            org.stand_sizes.clone()
        } else {
            org.stand_sizes.iter().copied().take(stands.len()).collect()
        };
        let mf = if t.troop == TroopClass::Artillery {
            MoveFormation::FieldColumn
        } else {
            match formation {
                Formation::Column => MoveFormation::FieldColumn,
                Formation::Skirmish => MoveFormation::Skirmish,
                _ => MoveFormation::Line,
            }
        };
        let p = layout::places(
            &sizes,
            mf,
            t.troop == TroopClass::Artillery,
            self.n(N::SkirmishGap),
        );
        Ok(UnitSetup {
            size: footprint_of(&p, INCH),
            formation,
            flags: Flags::default(),
            stands,
            shaken: u.shaken,
            packs: 0,
            own: Own::new(OwnStatus {
                volley_spent: u.volley_fired,
                ..OwnStatus::default()
            }),
        })
    }
    /// The unit's formation, refused where its type may not stand so; and its brigade, class and
    /// flags checked.
    fn scenario_formation(&self, u: &RawUnit, t: &TroopDef) -> Result<Formation, String> {
        let formation = u.formation.unwrap_or(Formation::Line);
        let allowed: &[Formation] = match t.troop {
            TroopClass::Light | TroopClass::LightCavalry => {
                &[Formation::Line, Formation::Column, Formation::Skirmish]
            }
            TroopClass::Line | TroopClass::Grenadier | TroopClass::HeavyCavalry => {
                &[Formation::Line, Formation::Column]
            }
            _ => &[Formation::Line],
        };
        if !allowed.contains(&formation) {
            return Err(format!(
                "unit '{}': a {} stands in {}",
                u.id,
                t.name,
                allowed
                    .iter()
                    .map(|f| crate::rules::model::Formation::name(*f))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ));
        }
        match (t.troop, &u.brigade) {
            (TroopClass::General, Some(_)) if t.army_commander => {
                return Err(format!(
                    "unit '{}': a commander in chief commands no brigade",
                    u.id
                ));
            }
            (TroopClass::Courier, Some(_)) => {
                return Err(format!("unit '{}': a courier belongs to no brigade", u.id));
            }
            (TroopClass::General, None) if !t.army_commander => {
                return Err(format!(
                    "unit '{}': a brigade commander names his brigade ('brigade')",
                    u.id
                ));
            }
            (c, None) if !matches!(c, TroopClass::General | TroopClass::Courier) => {
                return Err(format!(
                    "unit '{}': every battalion, regiment and battery belongs to a brigade ('brigade')",
                    u.id
                ));
            }
            _ => {}
        }
        if u.class != Class::Regular {
            return Err(format!(
                "unit '{}': Hal's rules have no quality classes (leave 'class' out)",
                u.id
            ));
        }
        if !u.flags.is_empty() {
            return Err(format!(
                "unit '{}': Hal's rules take no flags; grenadiers are type GR",
                u.id
            ));
        }
        Ok(formation)
    }

    /// The figures on each stand: the organisation's, or those the scenario lists.
    fn scenario_stands(
        &self,
        u: &RawUnit,
        t: &TroopDef,
        org: &Organisation,
    ) -> Result<Vec<u32>, String> {
        match &u.stands {
            None => Ok(org.stands.clone()),
            Some(s) => {
                if s.is_empty() || s.len() > org.stands.len() {
                    return Err(format!(
                        "unit '{}': a {} has 1 to {} stands",
                        u.id,
                        t.name,
                        org.stands.len()
                    ));
                }
                for (i, (&f, &most)) in s.iter().zip(&org.stands).enumerate() {
                    if f > most || (f == 0 && t.troop != TroopClass::Artillery) {
                        return Err(format!(
                            "unit '{}': stand {} holds 1 to {most} figures",
                            u.id,
                            i + 1
                        ));
                    }
                }
                if t.troop == TroopClass::Artillery && s.len() != org.stands.len() {
                    return Err(format!(
                        "unit '{}': a battery lists all {} stands (guns, then limbers)",
                        u.id,
                        org.stands.len()
                    ));
                }
                Ok(s.clone())
            }
        }
    }

    pub(super) fn check_brigades(&self, units: &[&Unit]) -> Vec<String> {
        let mut out = Vec::new();
        let mut names: Vec<&str> = Vec::new();
        for u in units.iter().filter(|u| self.is_unit(u)) {
            if let Some(b) = u.extra.brigade.as_deref()
                && !names.contains(&b)
            {
                names.push(b);
            }
        }
        for n in names {
            let generals = units
                .iter()
                .filter(|g| self.is_brigadier(g) && g.extra.brigade.as_deref() == Some(n))
                .count();
            if generals != 1 {
                out.push(format!(
                    "brigade '{n}' needs one mounted commander (type GEN with brigade \"{n}\"), has {generals}"
                ));
            }
            let members: Vec<&&Unit> = units
                .iter()
                .filter(|u| self.is_unit(u) && u.extra.brigade.as_deref() == Some(n))
                .collect();
            let foot = members.iter().filter(|u| self.is_infantry(u)).count();
            let horse = members.iter().filter(|u| self.is_cavalry(u)).count();
            if foot > 0 && horse > 0 {
                out.push(format!("brigade '{n}' mixes horse and foot (VIII.A.e)"));
            } else if horse > 0 && horse != 2 {
                out.push(format!(
                    "brigade '{n}' has {horse} regiments of horse: a brigade of horse has two (VIII.A.e)"
                ));
            } else if foot > 0 && !(3..=5).contains(&foot) {
                out.push(format!(
                    "brigade '{n}' has {foot} battalions: a brigade of foot has three to five (VIII.A.e)"
                ));
            }
        }
        for g in units
            .iter()
            .filter(|g| self.class(g) == Some(TroopClass::Courier))
        {
            if let Some(p) = &g.extra.parent
                && !units
                    .iter()
                    .any(|x| &x.id == p && self.class(x) == Some(TroopClass::General))
            {
                out.push(format!(
                    "courier '{}': '{p}' is not a general of its side",
                    g.id
                ));
            }
        }
        for g in units
            .iter()
            .filter(|g| self.class(g) == Some(TroopClass::General))
        {
            let n = units
                .iter()
                .filter(|c| {
                    self.class(c) == Some(TroopClass::Courier)
                        && c.extra.parent.as_ref() == Some(&g.id)
                })
                .count();
            let most = if self.is_cic(g) {
                self.n(N::CincCouriers)
            } else {
                self.n(N::BrigadierCouriers)
            } as usize;
            if n > most {
                out.push(format!(
                    "'{}' has {n} couriers: at most {most} (VI.D)",
                    g.id
                ));
            }
        }
        if units.iter().filter(|u| self.is_cic(u)).count() > 1 {
            out.push("a side has one commander in chief (type CIC)".into());
        }
        out
    }
}
