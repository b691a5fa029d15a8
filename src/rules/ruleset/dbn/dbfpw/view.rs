//! DBFPW as the window and log show it: unit states, card lines, actions, event words and
//! markers.

use super::data::{Close, Num};
use super::{AMMUNITION, Dbfpw, Fpw, is_infantry};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Event};
use crate::rules::model::{Ammo, Formation, Unit, UnitId};
use crate::rules::ruleset::dbn::MOVEMENT;
use crate::rules::ruleset::dbn::{TroopKind, TroopTrait};
use crate::rules::ruleset::view::{Action, ActionGroup, UnitState};

impl Fpw {
    pub(super) fn unit_states(&self, g: &Dbfpw, troop: &str) -> Vec<UnitState> {
        // Only guns use ammunition, and only under the optional rule.
        let gun = g
            .dbn
            .troop(troop)
            .is_some_and(|t| t.kind == TroopKind::Artillery);
        if gun && g.has_option(AMMUNITION) {
            vec![UnitState::Ammunition]
        } else {
            Vec::new()
        }
    }

    pub(super) fn card_lines(&self, g: &Dbfpw, _b: &Battle, u: &Unit) -> Vec<String> {
        let mut v = Vec::new();
        let d = &g.dbn;
        let range = d.range(u).unwrap_or(0.0);
        if u.formation == Formation::Dismounted {
            v.push(format!(
                "Dismounted: moves as infantry, fires {range:.0} paces"
            ));
        } else if d.troop_of(u).dismounted.is_some() {
            v.push(format!("Mounted: fires {range:.0} paces; may dismount"));
        }
        if g.has_option(AMMUNITION) {
            if g.dbn.is_artillery(u) {
                v.push(format!(
                    "Ammunition: {}",
                    match u.status.ammo {
                        Ammo::Full => "supplied",
                        Ammo::Low => "LOW (one round left)",
                        Ammo::Out => "OUT (cannot fire, -1 in close combat)",
                    }
                ));
            }
            if u.status.packs > 0 || g.dbn.is_artillery(u) {
                v.push(format!("Ammunition packs: {}", u.status.packs));
            }
        }
        if is_infantry(u) {
            v.push(if u.formation == Formation::Column {
                format!(
                    "Attack column: {:+} in close combat against foot; {:.0} paces, never the extra {:.0} into close combat",
                    g.sup.close(Close::AttackColumn).value,
                    d.troop_of(u).gg.unwrap_or(0.0),
                    g.sup.n(Num::ChargeBonus)
                )
            } else {
                format!(
                    "In line: {:.0} paces more into close combat in good going; may form attack column ({:.0} CAP)",
                    g.sup.n(Num::ChargeBonus),
                    g.sup.n(Num::AttackColumnCost)
                )
            });
        }
        if g.dbn.has_trait(u, TroopTrait::Divisional) {
            v.push(format!(
                "Divisional commander of the {} division: {:.0} CAPs, {:.0} paces",
                u.division
                    .map(|d| format!("{d:?}"))
                    .unwrap_or_else(|| "(no)".into()),
                g.sup.n(Num::DscCaps),
                g.sup.n(Num::DscCommandRange)
            ));
        }
        v
    }

    pub(super) fn actions(&self, g: &Dbfpw, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        if is_infantry(u)
            && b.phase == MOVEMENT
            && u.side == b.active
            && !Self::changed_mount(b, u)
            && !g.dbn.in_close_combat(b, u)
        {
            let cost = g.sup.n(Num::AttackColumnCost);
            let (label, formation) = if u.formation == Formation::Column {
                (format!("Deploy into line ({cost:.0} CAP)"), Formation::Line)
            } else {
                (
                    format!("Form attack column ({cost:.0} CAP)"),
                    Formation::Column,
                )
            };
            return vec![ActionGroup {
                title: "Attack column".into(),
                actions: vec![Action {
                    label,
                    command: Command::Form {
                        unit: u.id.clone(),
                        formation,
                        turn: 0.0,
                    },
                }],
                ..ActionGroup::default()
            }];
        }
        if g.dbn.troop_of(u).dismounted.is_none()
            || b.phase != MOVEMENT
            || u.side != b.active
            || Self::changed_mount(b, u)
        {
            return Vec::new();
        }
        let (label, formation) = if u.formation == Formation::Dismounted {
            ("Mount", Formation::Line)
        } else {
            ("Dismount", Formation::Dismounted)
        };
        vec![ActionGroup {
            title: "Skirmishing cavalry".into(),
            actions: vec![Action {
                label: label.into(),
                command: Command::Form {
                    unit: u.id.clone(),
                    formation,
                    turn: 0.0,
                },
            }],
            ..ActionGroup::default()
        }]
    }

    pub(super) fn words(&self, _g: &Dbfpw, b: &Battle, e: &Event) -> Option<String> {
        let name = |id: &UnitId| b.name_of(id);
        match e {
            Event::Supply {
                unit,
                ammo,
                packs,
                why,
            } => Some(format!(
                "{} {why} (ammunition {}, {packs} pack{})",
                name(unit),
                match ammo {
                    Ammo::Full => "supplied",
                    Ammo::Low => "LOW",
                    Ammo::Out => "OUT",
                },
                if *packs == 1 { "" } else { "s" }
            )),
            Event::Reformed {
                unit, formation, ..
            } => {
                let infantry = b.unit(unit).is_ok_and(is_infantry);
                Some(format!(
                    "{} {}",
                    name(unit),
                    match formation {
                        Formation::Column if infantry => "forms attack column",
                        _ if infantry => "deploys into line",
                        Formation::Dismounted => "dismounts",
                        _ => "mounts",
                    }
                ))
            }
            _ => None,
        }
    }

    pub(super) fn markers(&self, _g: &Dbfpw, u: &Unit) -> Vec<String> {
        let mut m = match u.status.ammo {
            Ammo::Full => Vec::new(),
            Ammo::Low => vec!["LOW".into()],
            Ammo::Out => vec!["OUT".into()],
        };
        if is_infantry(u) && u.formation == Formation::Column {
            m.push("COLUMN".into());
        }
        m
    }
}
