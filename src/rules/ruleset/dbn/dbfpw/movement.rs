//! DBFPW's movement: second moves under artillery, roads, forming attack column, dismounting,
//! and who may occupy or fortify a town.

use super::data::Num;
use super::{Dbfpw, Fpw, is_infantry};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, RuleError};
use crate::rules::model::{Formation, Unit, UnitId};
use crate::rules::ruleset::dbn::dbfpw::Refusal;
use crate::rules::ruleset::dbn::{MOVEMENT, N, TroopKind};
use crate::rules::terrain::FeatureKind;

impl Fpw {
    /// Moved at the road rate this bound.
    pub(super) fn used_road(b: &Battle, u: &Unit) -> bool {
        b.log_since_bound().iter().any(
            |e| matches!(e, Event::Moved { unit, going, .. } if unit == &u.id && going == "road"),
        )
    }

    /// Infantry forms attack column or deploys into line (ruling attack_column): in its own
    /// movement phase, out of close combat, once a bound, for the data's CAPs.
    fn form_column(
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        u: &Unit,
        formation: Formation,
    ) -> Result<(), RuleError> {
        let d = &g.dbn;
        match formation {
            Formation::Column if u.formation == Formation::Column => {
                return Err(RuleError::refused(
                    Refusal::AlreadyInAttackColumn,
                    format!("{} is already in attack column", u.name),
                ));
            }
            Formation::Line if u.formation == Formation::Line => {
                return Err(RuleError::refused(
                    Refusal::AlreadyInLine,
                    format!("{} is already in line", u.name),
                ));
            }
            Formation::Column | Formation::Line => {}
            other => {
                return Err(RuleError::refused(
                    Refusal::NotADbfpwFormation,
                    format!(
                        "{} may form attack column (Column) or line (Line), not {other:?}",
                        u.name
                    ),
                ));
            }
        }
        if d.in_close_combat(b, u) {
            return Err(RuleError::refused(
                Refusal::InCloseCombat,
                format!("{} is in close combat", u.name),
            ));
        }
        if Self::changed_mount(b, u) {
            return Err(RuleError::AlreadyActed {
                unit: u.id.clone(),
                what: "changed formation".into(),
            });
        }
        let what = if formation == Formation::Column {
            "form attack column"
        } else {
            "deploy into line"
        };
        d.spend(
            b,
            out,
            g.sup.n(Num::AttackColumnCost) as i32,
            format!("{} {what}", u.name),
            u.division,
        )?;
        b.emit(
            out,
            Event::Reformed {
                unit: u.id.clone(),
                formation,
                from: u.base,
                to: u.base,
                cost: 0.0,
            },
        );
        Ok(())
    }

    /// Enemy artillery (the Mitrailleuse included) that could fire at the unit where it stands:
    /// in its arc, within its effective range, or its long range from a hill; whoever has fired.
    fn under_artillery(g: &Dbfpw, b: &Battle, u: &Unit) -> Option<String> {
        let d = &g.dbn;
        b.alive()
            .filter(|a| a.side != u.side && d.is_artillery(a))
            .find(|a| {
                let dist = b.scale.from_mm(a.base.front_edge_distance(&u.base));
                let reach = match (d.range(a), d.long_range(a)) {
                    (Some(_), Some(l)) if d.on_raised_ground(b, a) => l,
                    (Some(r), _) => r,
                    _ => 0.0,
                };
                dist <= reach + 0.5 && a.base.in_arc(&u.base, d.n(N::ArcHalfAngle))
            })
            .map(|a| a.name.clone())
    }

    pub(super) fn may_move_again(&self, g: &Dbfpw, b: &Battle, u: &Unit) -> Result<(), RuleError> {
        if u.bound.charged {
            return Err(RuleError::refused(
                Refusal::MovedIntoCloseCombat,
                format!("{} moved into close combat this bound", u.name),
            ));
        }
        if let Some(gun) = Self::under_artillery(g, b, u) {
            return Err(RuleError::refused(
                Refusal::NoSecondMoveUnderGuns,
                format!(
                    "{} moved this bound and is within range of enemy artillery ({gun}): no second move",
                    u.name
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn before_move(
        &self,
        g: &Dbfpw,
        b: &Battle,
        ids: &[UnitId],
        _body: &[crate::rules::command::Step],
        charge: Option<&UnitId>,
    ) -> Result<bool, RuleError> {
        for id in ids {
            let u = b.unit(id)?;
            if g.dbn.troop_of(u).dismounted.is_none() {
                continue;
            }
            if u.formation == Formation::Dismounted && Self::changed_mount(b, u) {
                return Err(RuleError::refused(
                    Refusal::DismountedThisBound,
                    format!(
                        "{} dismounted this bound: it may dismount after moving, not move after dismounting",
                        u.name
                    ),
                ));
            }
            if u.formation != Formation::Dismounted && Self::changed_mount(b, u) && charge.is_some()
            {
                return Err(RuleError::refused(
                    Refusal::MountedNoCloseCombat,
                    format!(
                        "{} mounted this bound: it may move, but not into close combat",
                        u.name
                    ),
                ));
            }
        }
        Ok(true)
    }

    pub(super) fn form(
        &self,
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        unit: &UnitId,
        formation: Formation,
    ) -> Result<(), RuleError> {
        let d = &g.dbn;
        if b.phase != MOVEMENT {
            return Err(RuleError::WrongPhase {
                command: "dismount or mount".into(),
                phase: b.phase,
            });
        }
        let u = b.unit(unit)?.clone();
        crate::rules::ruleset::common::own_active(b, &u)?;
        if is_infantry(&u) {
            return Self::form_column(g, b, out, &u, formation);
        }
        if d.troop_of(&u).dismounted.is_none() {
            return Err(RuleError::refused(
                Refusal::CannotDismount,
                format!(
                    "{} cannot dismount: only Skirmishing Cavalry dismount (and infantry form attack column)",
                    u.name
                ),
            ));
        }
        if d.in_close_combat(b, &u) {
            return Err(RuleError::refused(
                Refusal::InCloseCombat,
                format!("{} is in close combat", u.name),
            ));
        }
        match formation {
            Formation::Dismounted if u.formation == Formation::Dismounted => {
                return Err(RuleError::refused(
                    Refusal::AlreadyDismounted,
                    format!("{} is already dismounted", u.name),
                ));
            }
            Formation::Line if u.formation != Formation::Dismounted => {
                return Err(RuleError::refused(
                    Refusal::AlreadyMounted,
                    format!("{} is already mounted", u.name),
                ));
            }
            Formation::Line if u.bound.moved => {
                return Err(RuleError::refused(
                    Refusal::MovedBeforeMounting,
                    format!(
                        "{} moved this bound: skirmishing cavalry mount and then move, not the reverse",
                        u.name
                    ),
                ));
            }
            Formation::Dismounted | Formation::Line => {}
            other => {
                return Err(RuleError::refused(
                    Refusal::NotMountOrDismount,
                    format!(
                        "{} may only dismount (Dismounted) or mount (Line), not {other:?}",
                        u.name
                    ),
                ));
            }
        }
        if Self::changed_mount(b, &u) {
            return Err(RuleError::refused(
                Refusal::AlreadyMountedOrDismounted,
                format!("{} has already mounted or dismounted this bound", u.name),
            ));
        }
        b.emit(
            out,
            Event::Reformed {
                unit: unit.clone(),
                formation,
                from: u.base,
                to: u.base,
                // DBN measures no movement for it.
                cost: 0.0,
            },
        );
        Ok(())
    }

    /// Towns and villages hold foot only (dismounted skirmishing cavalry are foot), with no
    /// fortifying first: ruling occupation.
    pub(super) fn check_occupation(
        &self,
        g: &Dbfpw,
        b: &Battle,
        u: &Unit,
        end: &crate::rules::geometry::Base,
    ) -> Result<(), RuleError> {
        if let Some(f) = b
            .terrain
            .at(end.centre, &[FeatureKind::Town, FeatureKind::Village])
            .next()
            && g.dbn.kind(u) != TroopKind::Foot
        {
            return Err(RuleError::refused(
                Refusal::OnlyFootStopIn,
                format!(
                    "only foot may end a move in {}: {} may not stop in it (ruling occupation)",
                    f.name, u.name
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn fortify(
        &self,
        _g: &Dbfpw,
        _b: &mut Battle,
        _out: &mut Vec<Event>,
        _feature: &str,
    ) -> Result<(), RuleError> {
        Err(RuleError::refused(
            Refusal::FortificationsFromArmyList,
            "DBFPW buys prepared fortifications in the army list: the scenario places them".into(),
        ))
    }
}
