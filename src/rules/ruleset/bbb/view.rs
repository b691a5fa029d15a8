//! What the window learns of a BBB unit and turn: the turn bar, unit cards, the buttons a
//! unit offers, overlays (zones, arcs, reach, targets) and how a unit looks on the table.

use super::status::own;
use super::{Arm, Bbb7yw, N, layout, quality, quality_name};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Step};
use crate::rules::geometry::Base;
use crate::rules::model::{Formation, Unit};
use crate::rules::ruleset::Figures;
use crate::rules::ruleset::bbb::Flag;
use crate::rules::ruleset::bbb::{ASSAULT, DEFENSIVE_FIRE, GENERALS, MOVEMENT, OFFENSIVE_FIRE};
use crate::rules::ruleset::common::{arc_marks, reach_mark, target_mark};
use crate::rules::ruleset::view::{
    Action, ActionGroup, Card, Ink, Layer, Look, Mark, Sign, TurnWords,
};

impl Bbb7yw {
    pub(super) fn turn_words(&self, b: &Battle) -> TurnWords {
        let (phase, end, controls) = match b.phase {
            MOVEMENT => (
                "move units (command rolls)",
                "End moves",
                "Roll for command, then drag within the move it allows · Q/E wheel · Esc cancel",
            ),
            GENERALS => ("move generals", "End generals", "Drag a general up to 21\""),
            DEFENSIVE_FIRE => (
                "defensive fire (the side not moving)",
                "End defensive fire",
                "Select a unit of the side not moving, click an enemy that moved",
            ),
            OFFENSIVE_FIRE => (
                "offensive fire",
                "End offensive fire",
                "Select your unit, click an enemy in range",
            ),
            ASSAULT => (
                "assault resolution",
                "End bound",
                "Select an assaulting unit, click the enemy it touches",
            ),
            _ => ("", "", ""),
        };
        TurnWords {
            acting: None,
            phase: phase.into(),
            resources: None,
            end: (!end.is_empty()).then(|| end.to_string()),
            controls: controls.into(),
        }
    }

    /// The unit's card; a unit whose troop code the data lacks (refused at load) says so.
    pub(super) fn card(&self, u: &Unit) -> Card {
        let t = match self.troop(u) {
            Ok(t) => t,
            Err(e) => return Card::unreadable(u, e),
        };
        let mut lines = vec![format!(
            "{} ({}) · {}",
            t.name,
            t.code,
            quality_name(quality(u.class))
        )];
        if self.is_general(u) {
            lines.push(format!(
                "Move {:.0}\" · command radius {:.0}\"",
                t.move_in,
                self.n(N::GeneralRadius)
            ));
            if u.status.removed {
                lines.push("a casualty: returns next turn".into());
            }
        } else {
            let mut s = format!(
                "{} of {} bases · {}",
                u.stands.len(),
                self.strength(u),
                crate::rules::model::Formation::name(u.formation)
            );
            if self.is_artillery(u) {
                s = format!(
                    "{} · {}",
                    if u.status.limbered {
                        "limbered"
                    } else {
                        "unlimbered"
                    },
                    if self.reduced(u) {
                        "reduced"
                    } else {
                        "full strength"
                    }
                );
            }
            lines.push(s);
            lines.push(format!("Move {:.0}\"", t.move_in));
            let mut state = Vec::new();
            if u.status.disordered {
                state.push("disrupted");
            }
            if self.spent(u) {
                state.push("Spent");
            }
            if u.status.ammo == crate::rules::model::Ammo::Low {
                state.push("low on ammunition");
            }
            if own(u).silenced {
                state.push("silenced");
            }
            if u.bound.halted {
                state.push("halted");
            }
            if !state.is_empty() {
                lines.push(state.join(", "));
            }
            if !u.flags.is_empty() {
                let names: Vec<String> = u.flags.names().map(|f| format!("{f:?}")).collect();
                lines.push(format!("Attributes: {}", names.join(", ")));
            }
            if let Some(a) = u.bound.allowance {
                lines.push(format!(
                    "Command roll: {a:.1}\" allowed, {:.1}\" used{}",
                    u.bound.spent,
                    if u.bound.may_recover {
                        " (or recover a base)"
                    } else {
                        ""
                    }
                ));
            }
        }
        Card {
            title: u.name.clone(),
            side: u.side,
            lines,
        }
    }

    /// The enemies `u` may evade now: in the movement step of the side moving, an enemy that
    /// moved within 12" of an undisrupted unit that has not moved, of a kind it may evade.
    pub(super) fn evadable<'a>(&self, b: &'a Battle, u: &Unit) -> Vec<&'a Unit> {
        if b.phase != MOVEMENT || u.side == b.active || u.status.disordered || u.bound.moved {
            return Vec::new();
        }
        let r = b.scale.to_mm(self.n(N::EvadeRadius));
        b.alive()
            .filter(|e| e.side == b.active && e.bound.moved && e.base.within(&u.base, r))
            .filter(|e| self.may_evade(u, e))
            .collect()
    }

    pub(super) fn actions(&self, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        let mut out = Vec::new();
        if !u.alive() || b.is_over() {
            return out;
        }
        // The side not moving may evade an enemy that has moved within 12".
        if b.phase == MOVEMENT && u.side != b.active {
            let acts: Vec<Action> = self
                .evadable(b, u)
                .into_iter()
                // (A unit that may evade is of a troop type the data holds: it has a move.)
                .filter_map(|e| {
                    let full = self.full_move(u).ok()?;
                    Some(Action {
                        label: format!("Evade {} ({full:.0}\")", e.name),
                        command: Command::Evade {
                            unit: u.id.clone(),
                            from: e.id.clone(),
                            distance: full,
                        },
                    })
                })
                .collect();
            if !acts.is_empty() {
                out.push(ActionGroup {
                    title: "Evade".into(),
                    note: "Straight away from the enemy, a full move; cavalry end disrupted. An order file may give any distance from half to a full move.".into(),
                    actions: acts,
                });
            }
            return out;
        }
        if b.phase == MOVEMENT && u.side == b.active && !self.is_general(u) {
            if u.bound.allowance.is_none() {
                let chances = self.command_chances(b, u);
                let (factors, _) = self.command_modifiers(b, u);
                let mods: Vec<String> = factors
                    .iter()
                    .map(|f| format!("{:+} {}", f.value, f.name))
                    .collect();
                let note = format!(
                    "2D6{}: {}",
                    if mods.is_empty() {
                        String::new()
                    } else {
                        format!(" {}", mods.join(", "))
                    },
                    chances
                        .iter()
                        .map(|(w, p)| format!("{w} {:.0}%", p * 100.0))
                        .collect::<Vec<_>>()
                        .join(" · ")
                );
                out.push(ActionGroup {
                    title: "Command roll".into(),
                    note,
                    actions: vec![Action {
                        label: "Roll for command".into(),
                        command: Command::Activate { unit: u.id.clone() },
                    }],
                });
            } else {
                let mut acts = Vec::new();
                if u.bound.may_recover && !u.bound.moved {
                    acts.push(Action {
                        label: "Recover a base".into(),
                        command: Command::Recover { unit: u.id.clone() },
                    });
                }
                if self.is_artillery(u) {
                    acts.push(Action {
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
                } else {
                    for (label, f) in [
                        ("Line", Formation::Line),
                        ("Column of march", Formation::Column),
                        ("In depth", Formation::Deep),
                    ] {
                        if f != u.formation
                            && (f != Formation::Deep
                                || (self.is_infantry(u) && u.has(Flag::Aggressive)))
                        {
                            acts.push(Action {
                                label: label.into(),
                                command: Command::Form {
                                    unit: u.id.clone(),
                                    formation: f,
                                    turn: 0.0,
                                },
                            });
                        }
                    }
                }
                // A unit that began the turn in contact assaults where it stands: a move into
                // contact that goes nowhere (ruling assault).
                if u.bound.allowance.is_some_and(|a| a > 0.0)
                    && !u.bound.charged
                    && !self.is_artillery(u)
                {
                    for e in self.in_contact(b, u) {
                        acts.push(Action {
                            label: format!("Assault {} where it stands", e.name),
                            command: Command::Move {
                                unit: u.id.clone(),
                                steps: vec![Step::ToContact(e.id.clone())],
                            },
                        });
                    }
                }
                out.push(ActionGroup {
                    title: "Orders".into(),
                    note: "A formation change takes the full move; limbering or unlimbering half."
                        .into(),
                    actions: acts,
                });
            }
        }
        out
    }

    pub(super) fn overlays(&self, b: &Battle, sel: Option<&Unit>, layers: &[Layer]) -> Vec<Mark> {
        let mut out = Vec::new();
        if layers.contains(&Layer::Zones) {
            let z = b.scale.to_mm(self.n(N::ZoneOfControl));
            for e in b
                .alive()
                .filter(|e| e.side != b.active && !self.is_general(e))
            {
                let grown = Base {
                    width: e.base.width + 2.0 * z,
                    depth: e.base.depth + 2.0 * z,
                    ..e.base
                };
                out.push(Mark::base(Layer::Zones, Ink::Zone, &grown));
            }
        }
        let Some(s) = sel.filter(|s| s.alive()) else {
            return out;
        };
        if layers.contains(&Layer::Arcs) && !self.is_general(s) {
            // The front arc, with a band for each range the unit's fire reaches.
            let half = self.n(N::FrontArc);
            let reach: Vec<f32> = self
                .fire_row_of(s)
                .map(|v| {
                    v.values
                        .iter()
                        .zip(&self.data.bands)
                        .filter(|(x, _)| **x > 0.0)
                        .map(|(_, band)| *band)
                        .collect()
                })
                .unwrap_or_default();
            for band in reach {
                for m in arc_marks(&s.base, half, b.scale.to_mm(band)) {
                    out.push(m);
                }
            }
            if out.iter().all(|m| m.layer != Layer::Arcs) {
                for m in arc_marks(&s.base, half, b.scale.to_mm(self.n(N::ZoneOfControl))) {
                    out.push(m);
                }
            }
            // The 12" within which an enemy's move lets it evade.
            let r = b.scale.to_mm(self.n(N::EvadeRadius));
            let ring: Vec<_> = (0..=48)
                .map(|k| {
                    let a = k as f32 / 48.0 * 360.0;
                    s.base
                        .centre
                        .plus(crate::rules::geometry::heading(a).scale(r))
                })
                .collect();
            out.push(Mark::line(Layer::Arcs, Ink::Zone, ring));
        }
        // (No reach for a unit whose troop code the data lacks: it has no move.)
        if let (true, Ok(full)) = (layers.contains(&Layer::Reach), self.full_move(s)) {
            let most = if self.is_general(s) {
                full
            } else {
                s.bound.allowance.unwrap_or(full) - s.bound.spent
            };
            // Before its command roll, the reach a full move would give, inked as such.
            let unrolled = !self.is_general(s) && s.bound.allowance.is_none();
            let mut probe = None;
            if unrolled && b.phase == MOVEMENT && s.side == b.active {
                let mut p = b.clone();
                if let Some(u) = std::sync::Arc::make_mut(&mut p.units)
                    .iter_mut()
                    .find(|u| u.id == s.id)
                {
                    u.bound.allowance = Some(full);
                }
                probe = Some(p);
            }
            let on = probe.as_ref().unwrap_or(b);
            let mut reach = reach_mark(on, s, most.max(0.0), |fwd, right, d| {
                let step = crate::rules::command::Step::Oblique {
                    forward: fwd * d,
                    right: right * d,
                };
                self.plan(on, &s.id, &[step]).is_ok()
            });
            if probe.is_some() {
                reach.ink = Ink::ReachIf;
            }
            out.push(reach);
        }
        if layers.contains(&Layer::Targets) {
            for e in b.alive().filter(|e| e.side != s.side) {
                let ok = match b.phase {
                    DEFENSIVE_FIRE | OFFENSIVE_FIRE => self.fire_setup(b, &s.id, &e.id).is_ok(),
                    ASSAULT => self.assault_setup(b, &s.id, &e.id).is_ok(),
                    _ => false,
                };
                if ok {
                    out.push(target_mark(&e.base));
                }
            }
        }
        out
    }

    /// The firing values row a unit uses against infantry (for its arcs).
    fn fire_row_of(&self, u: &Unit) -> Option<&super::FireValues> {
        self.values_against(u, false).map(|(v, _)| v)
    }

    /// How the unit is drawn; a unit whose troop code the data lacks (refused at load) is drawn
    /// as its bare base.
    pub(super) fn look(&self, b: &Battle, u: &Unit) -> Look {
        let (Ok(t), Ok(size)) = (self.troop(u), self.base_of(u)) else {
            return Look::default();
        };
        let mut label = u.troop.clone();
        if u.status.limbered {
            label.push_str(" (L)");
        }
        let mut markers = Vec::new();
        if u.status.disordered {
            markers.push("DIS".to_string());
        }
        if self.spent(u) {
            markers.push("SPENT".to_string());
        }
        if u.status.ammo == crate::rules::model::Ammo::Low {
            markers.push("LOW".to_string());
        }
        if own(u).silenced {
            markers.push("SIL".to_string());
        }
        if self.reduced(u) {
            markers.push("RED".to_string());
        }
        let arm = match t.arm {
            Arm::Infantry => Figures::Foot,
            Arm::Artillery => Figures::Guns,
            Arm::General => Figures::Command,
            _ => Figures::Horse,
        };
        Look {
            arm,
            stands: layout::bases(u, size).into_iter().map(|b| (b, 1)).collect(),
            figures_per_stand: 1,
            general: self.is_general(u),
            label_dark: false,
            label,
            label_behind: false,
            pips: self.lost(u),
            markers,
            signs: Sign::plain(u),
            garrison: crate::rules::ruleset::common::garrisons(b, u),
            hit: u.status.hits > 0,
        }
    }
}
