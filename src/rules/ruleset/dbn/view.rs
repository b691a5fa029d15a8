//! The DBN family as the window, the log and the players see it: unit cards, buttons,
//! deployment, overlays, the turn bar, the rules reference and the scenario's units. Shared by
//! every DBN supplement; each adds only what differs.

use super::N;
use super::{Dbn, DbnGame, Follow, Setup, Supplement, TroopKind, TroopTrait};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Factor, RuleError, Step, factor_sum};
use crate::rules::model::{Flags, Formation, Own, Phase, Unit, UnitId};
use crate::rules::ruleset::UnitSetup;
use crate::rules::ruleset::common::{
    arc_marks, chance, factor_rows, number_rows, reach_mark, sight_marks, target_mark,
};
use crate::rules::ruleset::dbn::{CLOSE_COMBAT, COMMAND, FIRING, MOVEMENT};
use crate::rules::ruleset::view::{
    Action, ActionGroup, Card, Choice, Deployment, Figures, Ink, Layer, Look, Mark, Outlook,
    OutlookPart, RefRow, RefSection, Reference, Sign, TurnWords,
};
use crate::rules::scenario::RawUnit;
use crate::rules::terrain::FeatureKind;

/// The move the window's keys and drags make in a DBN game.
pub const CONTROLS: &str =
    "Drag: move · Q/E wheel · R/T pivot · B about face · Esc cancel · Enter confirm";

fn fmt_opt(x: Option<f32>) -> String {
    x.map(|v| format!("{v:.0}")).unwrap_or("-".into())
}

impl Dbn {
    /// A scenario's unit: one base of its type; hits at the shaken mark make it shaken.
    pub fn prepare_unit(&self, id: &str, u: &RawUnit) -> Result<UnitSetup, String> {
        let t = self
            .troop(&u.troop)
            .ok_or_else(|| format!("unknown troop type '{}'", u.troop))?;
        if u.stands.is_some() {
            return Err(format!(
                "unit '{}': {id} units are single bases; 'stands' does not apply",
                u.id
            ));
        }
        // Troops with a dismounted row may start dismounted; otherwise a base is a base.
        let dismounts = t.dismounted.is_some();
        let formation = match u.formation {
            None | Some(Formation::Line) => Formation::Line,
            Some(Formation::Dismounted) if dismounts => Formation::Dismounted,
            // Foot with the charge bonus may stand in attack column instead (DBFPW).
            Some(Formation::Column) if t.traits.contains(&TroopTrait::ChargeBonus) => {
                Formation::Column
            }
            Some(other) => {
                return Err(format!(
                    "unit '{}': {id} has no formation {other:?}{}",
                    u.id,
                    if dismounts {
                        " (only Line, mounted, or Dismounted)"
                    } else if t.traits.contains(&TroopTrait::ChargeBonus) {
                        " (only Line, or Column: attack column)"
                    } else {
                        "; a base is the unit itself, so 'formation' does not apply"
                    }
                ));
            }
        };
        if u.limbered && t.kind != TroopKind::Artillery {
            return Err(format!(
                "unit '{}' is not artillery and cannot be limbered",
                u.id
            ));
        }
        let destroyed_at = self.n(N::DestroyedHits) as u32;
        if destroyed_at > 0 && u.hits >= destroyed_at {
            return Err(format!(
                "unit '{}' starts with {} hits: {destroyed_at} destroy it (at most {})",
                u.id,
                u.hits,
                destroyed_at - 1
            ));
        }
        let shaken_at = self.n(N::ShakenHits) as u32;
        Ok(UnitSetup {
            size: t.base,
            formation,
            flags: Flags::read::<super::Flag>(&u.flags),
            stands: Vec::new(),
            shaken: u.shaken || (shaken_at > 0 && u.hits >= shaken_at),
            packs: 0,
            own: Own::default(),
        })
    }

    /// Moves are made once a bound, by units not in close combat.
    pub fn may_move(&self, b: &Battle, u: &Unit) -> bool {
        b.phase == MOVEMENT && !u.bound.moved && !u.has(super::Flag::Fixed)
    }

    pub fn turn_words(&self, b: &Battle) -> TurnWords {
        let resources = matches!(b.phase, MOVEMENT | FIRING | CLOSE_COMBAT).then(|| {
            let own: String = b
                .division_points
                .iter()
                .map(|(d, n)| format!(" · {} division {n}", d.name()))
                .collect();
            format!("{} command points{own}", b.command_points[b.active])
        });
        let end = match b.phase {
            COMMAND => Some("Roll command dice"),
            Phase::DEPLOYMENT => Some("Division placed"),
            CLOSE_COMBAT => Some("End bound"),
            Phase::GAME_OVER => None,
            _ => Some("End phase"),
        };
        TurnWords {
            acting: None,
            phase: b.phase.name().to_string(),
            resources,
            end: end.map(str::to_string),
            controls: CONTROLS.to_string(),
        }
    }

    pub fn card(&self, b: &Battle, u: &Unit) -> Card {
        let t = self.troop_of(u);
        let mut lines = vec![format!("{} ({}) · {:?}", t.name, t.code, u.class)];
        if !u.flags.is_empty() {
            lines.push(format!("{:?}", u.flags));
        }
        lines.push(if u.status.exited {
            "off the table".to_string()
        } else if u.status.removed {
            "destroyed".to_string()
        } else {
            let mut s = format!("{} hit(s)", u.status.hits);
            if u.status.shaken {
                s.push_str(", shaken");
            }
            if u.status.limbered {
                s.push_str(", limbered");
            }
            if self.in_close_combat(b, u) {
                s.push_str(", in close combat");
            }
            s
        });
        lines.push(format!(
            "Move {} GG / {} BG / {} road {}",
            fmt_opt(t.gg),
            fmt_opt(t.bg),
            fmt_opt(t.road),
            b.scale.unit
        ));
        lines.push(format!("Range {} · combat {:+}", range_text(t), t.combat));
        let done: Vec<&str> = [
            (u.bound.moved, "moved"),
            (u.bound.fired, "fired"),
            (u.bound.fought, "fought"),
        ]
        .iter()
        .filter(|x| x.0)
        .map(|x| x.1)
        .collect();
        if !done.is_empty() {
            lines.push(format!("This bound: {}", done.join(", ")));
        }
        Card {
            title: u.name.clone(),
            side: u.side,
            lines,
        }
    }

    /// Limbering and unlimbering artillery in its movement phase.
    pub fn actions(&self, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        if b.phase != MOVEMENT
            || u.side != b.active
            || !u.alive()
            || !self.is_artillery(u)
            || u.bound.moved
            || u.bound.limber_changed
        {
            return Vec::new();
        }
        let (label, cost, command) = if u.status.limbered {
            (
                "Unlimber",
                self.n(N::UnlimberCost),
                Command::Unlimber { unit: u.id.clone() },
            )
        } else {
            (
                "Limber",
                self.n(N::LimberCost),
                Command::Limber { unit: u.id.clone() },
            )
        };
        // Galloper and horse guns may still move once limbered; others may not move this bound.
        let after = if u.status.limbered || !self.has_trait(u, TroopTrait::QuickLimber) {
            "it cannot move this bound"
        } else {
            "it may still move this bound"
        };
        vec![ActionGroup {
            title: String::new(),
            note: format!("{label}: {cost:.0} command point(s); {after}."),
            actions: vec![Action {
                label: label.to_string(),
                command,
            }],
        }]
    }

    /// The division now deploying, the units waiting, and the towns the defender may fortify.
    pub fn deployment_view(&self, b: &Battle) -> Option<Deployment> {
        if b.phase != Phase::DEPLOYMENT {
            return None;
        }
        let (side, division) = self.deployment_turn(b)?;
        let name = b
            .sides
            .get(side)
            .map(|s| s.name.clone())
            .unwrap_or_default();
        let waiting: Vec<_> = b
            .units
            .iter()
            .filter(|u| {
                u.side == side
                    && u.status.undeployed
                    && u.division.unwrap_or(crate::rules::model::Division::Centre) == division
            })
            .map(|u| (u.id.clone(), format!("{} ({})", u.name, u.troop)))
            .collect();
        let note = if waiting.is_empty() {
            "All placed: end the phase to go on."
        } else {
            "Pick a unit, then click inside your deployment zone to place it."
        };
        let actions = if b.sides.get(side).is_some_and(|s| s.defender) {
            b.terrain
                .features
                .iter()
                .filter(|f| {
                    matches!(f.kind, FeatureKind::Town | FeatureKind::Village) && !f.fortified
                })
                .map(|f| Action {
                    label: format!("Fortify {}", f.name),
                    command: Command::Fortify {
                        feature: f.id.clone(),
                    },
                })
                .collect()
        } else {
            Vec::new()
        };
        // Units face the far side of the table from their zone.
        let facing = match b
            .zones
            .iter()
            .find(|z| z.side == side)
            .map(|z| (z.min.y + z.max.y) / 2.0)
        {
            Some(y) if y > b.table.height / 2.0 => 180.0,
            _ => 0.0,
        };
        Some(Deployment {
            side,
            title: format!("{name}: deploy the {division:?} division"),
            waiting,
            note: note.to_string(),
            actions,
            facing,
        })
    }

    /// Threat zones of the side not moving, and the selected unit's arc, reach, sight and
    /// eligible targets.
    pub fn overlays(&self, b: &Battle, sel: Option<&Unit>, layers: &[Layer]) -> Vec<Mark> {
        let mut out = Vec::new();
        if layers.contains(&Layer::Zones) {
            for e in b.alive().filter(|e| {
                e.side != b.active
                    && !matches!(self.kind(e), TroopKind::Commander | TroopKind::Baggage)
                    && !self.in_close_combat(b, e)
            }) {
                // As the move checks it: cut short where a friend stands in it.
                for tz in self.threat_zone_of(b, e) {
                    out.push(Mark::base(Layer::Zones, Ink::Zone, &tz));
                }
            }
        }
        let Some(s) = sel.filter(|s| s.alive()) else {
            return out;
        };
        if layers.contains(&Layer::Arcs)
            && let Some(range) = self.range(s)
        {
            let half = self.n(N::ArcHalfAngle);
            out.extend(arc_marks(&s.base, half, b.scale.to_mm(range)));
            // Long range as a second band beyond the first, where the unit may fire at it
            // now (from raised ground, not having moved).
            if let Some(long) = self.long_range_now(b, s) {
                out.extend(arc_marks(&s.base, half, b.scale.to_mm(long)));
            }
        }
        if layers.contains(&Layer::Reach) {
            out.push(self.reach(b, s));
        }
        // Sight lines to the enemies it sees, and to those within its reach it does not see
        // (with what hides them); none to enemies hidden and out of its reach anyway.
        let reach = self
            .long_range_now(b, s)
            .or_else(|| self.range(s))
            .map(|r| b.scale.to_mm(r));
        for e in b.alive().filter(|e| e.side != s.side) {
            if layers.contains(&Layer::Sight) {
                let seen = self.line_of_sight(b, s, e).err();
                let worth = seen.is_none() || reach.is_some_and(|r| s.base.distance(&e.base) <= r);
                if worth {
                    out.extend(sight_marks(
                        b,
                        s.base.front_centre(),
                        e.base.centre,
                        seen.as_deref(),
                    ));
                }
            }
            let eligible = s.side == b.active
                && match b.phase {
                    FIRING => self.fire_check(b, s, e, false).is_ok(),
                    CLOSE_COMBAT => self.contacts(b, s).iter().any(|(x, _)| x == &e.id),
                    _ => false,
                };
            if eligible && layers.contains(&Layer::Targets) {
                out.push(target_mark(&e.base));
            }
        }
        out
    }

    /// Straight-line reach with the going (Musket move shapes aside).
    fn reach(&self, b: &Battle, u: &Unit) -> Mark {
        let t = self.troop_of(u);
        let most = t
            .road
            .unwrap_or(0.0)
            .max(t.gg.unwrap_or(0.0))
            .max(t.bg.unwrap_or(0.0));
        let ids = std::slice::from_ref(&u.id);
        reach_mark(b, u, most, |fwd, right, d| {
            self.plan_move(
                b,
                ids,
                &[Step::Oblique {
                    forward: fwd * d,
                    right: right * d,
                }],
                None,
                true,
            )
            .is_ok()
        })
    }

    pub fn look(&self, b: &Battle, u: &Unit) -> Look {
        let mut label = u.troop.clone();
        if u.status.limbered {
            label.push_str(" (L)");
        }
        if u.formation == crate::rules::model::Formation::Dismounted {
            label.push_str(" (dis.)");
        }
        let arm = match self.kind(u) {
            TroopKind::Commander => Figures::Command,
            TroopKind::Artillery => Figures::Guns,
            TroopKind::Mounted => Figures::Horse,
            TroopKind::Foot => Figures::Foot,
            TroopKind::Baggage => Figures::Train,
        };
        Look {
            arm,
            stands: Vec::new(),
            figures_per_stand: 0,
            general: self.is_commander(u),
            label_dark: self.is_commander(u),
            label,
            label_behind: false,
            pips: u.status.hits,
            markers: Vec::new(),
            signs: Sign::plain(u),
            garrison: crate::rules::ruleset::common::garrisons(b, u),
            hit: u.status.hits > 0,
        }
    }

    /// Each side's losses as the army break counts them, against its break point and its
    /// strength at the start.
    pub fn standing(&self, b: &Battle) -> Vec<String> {
        (0..b.sides.len().min(2))
            .map(|side| {
                let n = b.starting_units[side];
                format!(
                    "{}: losses {} against a break point of {} ({n} unit{} at the start)",
                    b.sides[side].name,
                    self.loss_words(b, side),
                    self.break_point(b, side),
                    if n == 1 { "" } else { "s" }
                )
            })
            .collect()
    }

    /// The troop table, the factor lists, the results and the rulings.
    pub fn reference(&self) -> Reference {
        let d = &self.data;
        let troops = RefSection::table(
            "Troop types",
            &["Type", "Range", "GG", "BG", "Road", "Combat"],
            d.troops
                .iter()
                .map(|t| RefRow {
                    cells: vec![
                        format!("{} ({})", t.name, t.code),
                        range_text(t),
                        fmt_opt(t.gg),
                        fmt_opt(t.bg),
                        fmt_opt(t.road),
                        format!("{:+}", t.combat),
                    ],
                    source: t.source.clone(),
                })
                .collect(),
        );
        let results = d
            .results
            .iter()
            .map(|r| RefRow {
                cells: vec![format!("{} — {}: {}", r.table, r.situation, r.outcome)],
                source: r.source.clone(),
            })
            .collect();
        Reference {
            title: d.name.clone(),
            source: crate::rules::ruleset::books::book(&d.seed),
            sections: vec![
                troops,
                RefSection::list("Firing tactical factors", factor_rows(&d.firing_factors)),
                RefSection::list(
                    "Close combat tactical factors",
                    factor_rows(&d.combat_factors),
                ),
                RefSection::list("Routing troops test", factor_rows(&d.routing_factors)),
                RefSection::list("Results", results),
                RefSection::list("Numbers", number_rows(&d.numbers)),
            ],
            rulings_title: "Rulings (where the rules are silent)".into(),
            rulings: d.rulings.clone(),
        }
    }
}

/// A troop's range, with its long range where it has one: "600 (long 2000)".
fn range_text(t: &super::Troop) -> String {
    match t.long_range {
        Some(l) => format!("{} (long {})", fmt_opt(t.range), fmt_opt(Some(l))),
        None => fmt_opt(t.range),
    }
}

impl<S: Supplement> DbnGame<S> {
    /// The outlook of a firing or close combat: both sides' factors, the exact chance of each
    /// result, and the choices of fire support and pursuit.
    pub(super) fn outlook(&self, b: &Battle, cmd: &Command) -> Result<Outlook, RuleError> {
        let p = self.forecast(b, cmd)?;
        let part = |u: &Unit, fs: &[Factor]| OutlookPart {
            heading: u.name.clone(),
            factors: fs.to_vec(),
            dice: 1,
            need: None,
            summary: format!("= {:+} + die", factor_sum(fs)),
        };
        let o = p.odds;
        let (a, bn) = (&p.setup.a.name, &p.setup.b.name);
        let mut chances = vec![
            // Beaten by double destroys most troops; beaten recoils or (against some) destroys.
            chance(format!("{bn} beaten by double"), o.a_wins_by_double, 0.9),
            chance(format!("{bn} beaten"), o.a_wins, 0.4),
            chance("Draw", o.draw, 0.0),
        ];
        if p.firing && !p.setup.mutual {
            chances.push(chance(
                format!("No effect ({a} outscored)"),
                o.b_wins + o.b_wins_by_double,
                0.0,
            ));
        } else {
            chances.push(chance(format!("{a} beaten"), o.b_wins, -0.4));
            chances.push(chance(
                format!("{a} beaten by double"),
                o.b_wins_by_double,
                -0.9,
            ));
        }
        let close = !p.firing;
        let notes = p
            .setup
            .first
            .iter()
            .map(|t| {
                let (fd, long) = (&t.die, &t.long);
                let pen = fd.failed.value;
                let name = b.name_of(&t.unit);
                let fails = t.fails();
                let plot = if *long && fd.long_fail_max > fd.fail_max {
                    format!(
                        ", {}-{} cannot plot the shot at long range",
                        fd.fail_max + 1,
                        fd.long_fail_max
                    )
                } else {
                    String::new()
                };
                let stop = match fd.fail_max {
                    1 => "1".to_string(),
                    n => format!("1-{n}"),
                };
                let cost = if close {
                    format!("it scores {pen:+}")
                } else if t.supports {
                    "its fire support is lost".to_string()
                } else {
                    format!("it scores {pen:+} and gives no fire support")
                };
                format!(
                    "{name} throws a first die: {stop} is a stoppage{plot}. On {fails} face(s) in 6 {cost}; the chances below include it."
                )
            })
            .collect();
        Ok(Outlook {
            parts: vec![
                part(&p.setup.a, &p.setup.a_factors),
                part(&p.setup.b, &p.setup.b_factors),
            ],
            opposed: true,
            notes,
            chances,
            choices: self.choices(b, cmd, &p.setup),
        })
    }

    /// Why the rules leave `u` no pursuit to choose (it must pursue, or never does, whether its
    /// enemy is beaten or destroyed), or None where its owner chooses.
    pub(super) fn pursuit_fixed(&self, u: &Unit) -> Option<String> {
        let beaten = self.sup.follow(self, u, false);
        let destroyed = self.sup.follow(self, u, true);
        if beaten == Follow::May || destroyed == Follow::May {
            return None;
        }
        Some(if beaten == Follow::Must {
            format!("{} must pursue: its rules leave no choice", u.name)
        } else {
            format!("{} never pursues: its rules leave no choice", u.name)
        })
    }

    /// Fire support by friends that could also fire at the target; pursuit after a win.
    fn choices(&self, b: &Battle, cmd: &Command, setup: &Setup) -> Vec<Choice> {
        match cmd {
            Command::Fire {
                unit,
                target,
                support,
                defence,
            } => {
                let flip = |list: &[UnitId], f: &UnitId| {
                    let mut s = list.to_vec();
                    if s.contains(f) {
                        s.retain(|x| x != f);
                    } else {
                        s.push(f.clone());
                    }
                    s
                };
                let mut out: Vec<Choice> = b
                    .alive()
                    .filter(|f| f.side == b.active && f.id != *unit && !f.bound.fired)
                    .filter(|f| self.dbn.may_reach(b, f, &setup.b))
                    .filter(|f| self.may_support(b, &setup.a, f, &setup.b).is_ok())
                    .map(|f| Choice {
                        label: format!("{} supports (counts as having fired)", f.name),
                        on: support.contains(&f.id),
                        flipped: Command::Fire {
                            unit: unit.clone(),
                            target: target.clone(),
                            support: flip(support, &f.id),
                            defence: defence.clone(),
                        },
                    })
                    .collect();
                let eligible = self.defensive_support(b, &setup.a, &setup.b);
                let chosen = defence
                    .clone()
                    .unwrap_or_else(|| self.default_defence(b, &setup.a, &setup.b));
                for f in &eligible {
                    let name = b.unit(f).map(|u| u.name.clone()).unwrap_or_default();
                    out.push(Choice {
                        label: format!("{name} supports the defence (the defender's choice)"),
                        on: chosen.contains(f),
                        flipped: Command::Fire {
                            unit: unit.clone(),
                            target: target.clone(),
                            support: support.clone(),
                            defence: Some(flip(&chosen, f)),
                        },
                    });
                }
                out
            }
            Command::Fight {
                unit,
                target,
                pursue,
                pursuits,
            } => {
                let on = pursue.unwrap_or(!setup.a.status.hold_ground);
                vec![Choice {
                    label: "Pursue if victorious (Heavy Cavalry always do, artillery never)".into(),
                    on,
                    flipped: Command::Fight {
                        unit: unit.clone(),
                        target: target.clone(),
                        pursue: Some(!on),
                        pursuits: pursuits.clone(),
                    },
                }]
            }
            _ => Vec::new(),
        }
    }
}
