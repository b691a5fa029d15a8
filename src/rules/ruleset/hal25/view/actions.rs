//! The buttons of Hal's rules: what a unit may do now, each with its command, and the generals'
//! chips.

use super::super::status::own;
use crate::rules::battle::Battle;
use crate::rules::command::Command;
use crate::rules::model::Unit;
use crate::rules::ruleset::Ruleset;
use crate::rules::ruleset::hal25::{ARTILLERY, CHARGES, CLOSE_COMBAT, MOVEMENT, SMALL_ARMS};
use crate::rules::ruleset::hal25::{Hal25, TroopClass};
use crate::rules::ruleset::view::{Action, ActionGroup};

impl Hal25 {
    /// General `g`'s chip to throw again a die of `what` for `x`, if he may spend one on it;
    /// `removed`: the roll removed `x`, whose button is then on the general's card.
    pub(super) fn chip(
        &self,
        b: &Battle,
        g: &Unit,
        x: &Unit,
        what: &str,
        removed: bool,
    ) -> Option<Action> {
        self.reroll(b, &g.id, &x.id).ok()?;
        let whom = if removed {
            format!(" for {}, removed by it", x.name)
        } else {
            String::new()
        };
        Some(Action {
            label: format!(
                "Throw a die of {what} again{whom}: {}'s chip ({} left)",
                g.name, g.extra.chips
            ),
            command: Command::Reroll {
                by: g.id.clone(),
                unit: x.id.clone(),
            },
        })
    }

    pub(super) fn actions(&self, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        let mut out = Vec::new();
        if !u.alive() || b.is_over() {
            return out;
        }
        self.chip_actions(b, u, &mut out);
        self.order_actions(b, u, &mut out);
        match b.phase {
            CHARGES if self.is_unit(u) && own(u).declared.is_some() => {
                let on = own(u)
                    .declared
                    .as_ref()
                    .map(|t| b.name_of(t))
                    .unwrap_or_default();
                out.push(ActionGroup {
                    title: "Charge".into(),
                    note: format!("Declared on {on}: made when its brigade moves"),
                    actions: Vec::new(),
                });
            }
            CHARGES if self.is_unit(u) => {
                self.declare_actions(b, u, &mut out);
            }
            MOVEMENT if u.side == b.active => self.movement_actions(b, u, &mut out),
            ARTILLERY | SMALL_ARMS if self.is_unit(u) => {
                self.fire_actions(b, u, &mut out);
            }
            // Every melee has a unit in contact with an enemy on each side.
            CLOSE_COMBAT if !self.enemies_in_contact(b, u).is_empty() => {
                self.melee_actions(b, u, &mut out);
            }
            _ => {}
        }
        out
    }

    /// A chip to throw a failed roll again: for a unit with a roll that went badly in the last
    /// command, from each general who may spend one.
    fn chip_actions(&self, b: &Battle, u: &Unit, out: &mut Vec<ActionGroup>) {
        let mut rerolls: Vec<Action> = match self.rethrow(b, &u.id) {
            Some(r) => b
                .alive()
                .filter(|g| g.side == u.side)
                .filter_map(|g| self.chip(b, g, u, &r.what, false))
                .collect(),
            None => Vec::new(),
        };
        // A unit the last command removed (a failed two-stand check) cannot be chosen on the
        // table: its general offers the chip instead.
        if self.class(u) == Some(TroopClass::General) {
            rerolls.extend(
                b.units
                    .iter()
                    .filter(|x| x.side == u.side && x.status.removed)
                    .filter_map(|x| self.chip(b, u, x, &self.rethrow(b, &x.id)?.what, true)),
            );
        }
        if !rerolls.is_empty() {
            out.push(ActionGroup {
                title: "Chips".into(),
                note: "One die of the roll that went badly is thrown again; the second result \
                       stands"
                    .into(),
                actions: rerolls,
            });
        }
    }

    /// A courier's written orders, one for each brigade and order, while he may be sent.
    fn order_actions(&self, b: &Battle, u: &Unit, out: &mut Vec<ActionGroup>) {
        let sending = matches!(b.phase, CHARGES) || (b.phase == MOVEMENT && u.side == b.active);
        if self.class(u) == Some(TroopClass::Courier)
            && sending
            && self.carrying(b, &u.id).is_none()
        {
            let mut send = Vec::new();
            for br in self.brigades(b, u.side) {
                for order in &self.d.orders {
                    send.push(Action {
                        label: format!("To brigade {br}: {order}"),
                        command: Command::Send {
                            courier: u.id.clone(),
                            brigade: br.clone(),
                            order: order.clone(),
                        },
                    });
                }
            }
            if !send.is_empty() {
                out.push(ActionGroup {
                    title: "Written orders".into(),
                    note: "Delivered when the courier's move ends at the brigade's commander; a 12 on 2D6 each turn loses them".into(),
                    actions: send,
                });
            }
        }
    }

    /// The charges a unit may declare: on each enemy it could reach.
    fn declare_actions(&self, b: &Battle, u: &Unit, out: &mut Vec<ActionGroup>) {
        // No point of a base moves farther than its centre's path and its diagonal, so
        // an enemy beyond that from the charge's reach cannot be reached.
        let reach = b.scale.to_mm(self.charge_reach(b, u)) + 2.0 * u.base.radius() + 1.0;
        let targets: Vec<Action> = b
            .alive()
            .filter(|e| e.side != u.side && self.is_unit(e) && u.base.near(&e.base, reach))
            .filter(|e| self.check_declare(b, &u.id, &e.id).is_ok())
            .map(|e| Action {
                label: format!("Declare a charge on {}", e.name),
                command: Command::Declare {
                    unit: u.id.clone(),
                    target: e.id.clone(),
                },
            })
            .collect();
        if !targets.is_empty() {
            out.push(ActionGroup {
                title: "Charge".into(),
                note: "Declared now, made when its brigade moves".into(),
                actions: targets,
            });
        }
    }

    /// In its brigade's move: setting the brigade moving, the declared charge, formations and
    /// facings, limbering.
    fn movement_actions(&self, b: &Battle, u: &Unit, out: &mut Vec<ActionGroup>) {
        if let Some(br) = &u.extra.brigade
            && b.command_points[u.side] > 0
            && self.unmoved(b, u.side).contains(br)
        {
            out.push(ActionGroup {
                title: "Brigades".into(),
                note: format!("{} more this throw", b.command_points[u.side]),
                actions: vec![Action {
                    label: format!("Set brigade {br} moving"),
                    command: Command::Activate { unit: u.id.clone() },
                }],
            });
        }
        if self.may_act(b, &u.id).is_ok() {
            match self.check_charge(b, &u.id) {
                Ok(_) => out.push(ActionGroup {
                    title: "Charge".into(),
                    note: "Close, the target holds or not, then the move in".into(),
                    actions: vec![Action {
                        label: "Make the declared charge".into(),
                        command: Command::Charge { unit: u.id.clone() },
                    }],
                }),
                // A charge declared that cannot be made says why, rather than vanishing.
                Err(why)
                    if own(u).declared.is_some() && !u.bound.moved && !self.charged(b, &u.id) =>
                {
                    out.push(ActionGroup {
                        title: "Charge".into(),
                        note: format!("The declared charge cannot be made: {why}"),
                        actions: Vec::new(),
                    });
                }
                Err(_) => {}
            }
            let mut forms = Vec::new();
            for f in self.formations(u) {
                if f != u.formation {
                    forms.push(Action {
                        label: format!("Form {}", crate::rules::model::Formation::name(f)),
                        command: Command::Form {
                            unit: u.id.clone(),
                            formation: f,
                            turn: 0.0,
                        },
                    });
                }
            }
            if !self.formations(u).is_empty() {
                for (label, turn) in [
                    ("Face right", 90.0),
                    ("Face left", -90.0),
                    ("Face about", 180.0),
                ] {
                    forms.push(Action {
                        label: label.into(),
                        command: Command::Form {
                            unit: u.id.clone(),
                            formation: u.formation,
                            turn,
                        },
                    });
                }
            }
            if self.is_artillery(u) {
                forms.push(Action {
                    label: if u.status.limbered {
                        "Unlimber"
                    } else {
                        "Limber"
                    }
                    .into(),
                    command: if u.status.limbered {
                        Command::Unlimber { unit: u.id.clone() }
                    } else {
                        Command::Limber { unit: u.id.clone() }
                    },
                });
            }
            if !forms.is_empty() {
                out.push(ActionGroup {
                    title: "Formation".into(),
                    note: "A change or a facing costs 1D6 of the move".into(),
                    actions: forms,
                });
            }
        }
    }

    /// The targets a unit may fire at.
    fn fire_actions(&self, b: &Battle, u: &Unit, out: &mut Vec<ActionGroup>) {
        // A unit that may fire at nothing now (not its arm's step, its fire spent, in melee
        // ...) is not asked about its targets.
        let artillery = self.is_artillery(u);
        if self.fires_now(b, u, artillery).is_err() || self.ready_to_fire(b, u, artillery).is_err()
        {
            return;
        }
        let reach = if artillery {
            self.d.artillery_bands[2]
        } else {
            self.d.small_arms_bands[2]
        };
        // Those it may fire at: the enemies in its arc, reach and sight, and the charger
        // it braced against (fired into at the range its die gave).
        let fire: Vec<Action> = self
            .targets(b, u, reach)
            .into_iter()
            .map(|(t, _)| t)
            .chain(self.braced_against(b, &u.id).map(|(t, _)| t))
            .filter(|t| self.fire_setup(b, &u.id, t).is_ok())
            .fold(Vec::new(), |mut v: Vec<Action>, t| {
                if !v
                    .iter()
                    .any(|a| matches!(&a.command, Command::Fire { target, .. } if *target == t))
                {
                    let name = b.name_of(&t);
                    v.push(Action {
                        label: format!("Fire at {name}"),
                        command: Command::Fire {
                            unit: u.id.clone(),
                            target: t,
                            support: Vec::new(),
                            defence: None,
                        },
                    });
                }
                v
            });
        if !fire.is_empty() {
            out.push(ActionGroup {
                title: "Fire".into(),
                note: String::new(),
                actions: fire,
            });
        }
    }

    /// The melees a unit is in.
    fn melee_actions(&self, b: &Battle, u: &Unit, out: &mut Vec<ActionGroup>) {
        let fights: Vec<Action> = self
            .melees(b)
            .into_iter()
            .filter(|(a, e)| a == &u.id || e == &u.id)
            .map(|(a, e)| {
                let other = if a == u.id { &e } else { &a };
                Action {
                    label: format!("Fight {}", b.name_of(other)),
                    command: Command::Fight {
                        unit: a.clone(),
                        target: e.clone(),
                        pursue: None,
                        pursuits: Vec::new(),
                    },
                }
            })
            .collect();
        if !fights.is_empty() {
            out.push(ActionGroup {
                title: "Melee".into(),
                note: String::new(),
                actions: fights,
            });
        }
    }
}
