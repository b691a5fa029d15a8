//! The turn bar and the unit card of Hal's rules: the phase's words, a unit's state, strength and
//! orders.

use super::super::status::own;
use crate::rules::battle::Battle;
use crate::rules::command::factor_sum;
use crate::rules::model::{Side, Unit};
use crate::rules::ruleset::common::two_d6_at_least;
use crate::rules::ruleset::hal25::HalEvent;
use crate::rules::ruleset::hal25::{
    ARTILLERY, CHARGES, CLOSE_COMBAT, COMMAND, MORALE, MOVEMENT, ROUT, SMALL_ARMS,
};
use crate::rules::ruleset::hal25::{Hal25, State, TroopClass};
use crate::rules::ruleset::view::{Card, TurnWords};
use crate::rules::terrain::FeatureKind;

impl Hal25 {
    pub(super) fn turn_words(&self, b: &Battle) -> TurnWords {
        let side = |s: Side| {
            b.sides
                .get(s)
                .map_or("side".to_string(), |x| x.name.clone())
        };
        // The phase is named bare, as the bar words it ("movement phase"); what it asks of the
        // side goes with what the side has to spend.
        let (doing, end) = match b.phase {
            COMMAND => (
                Some("before the battle every commander throws for chips".to_string()),
                "Throw for chips",
            ),
            CHARGES => (None, "Declarations done"),
            MOVEMENT => {
                let last = crate::rules::ruleset::hal25::this_turn(b)
                    .iter()
                    .rev()
                    .find_map(|e| match e.own() {
                        Some(HalEvent::Initiative { dice, side, .. }) if side.is_some() => {
                            Some(dice.clone())
                        }
                        _ => None,
                    });
                let dice = match last {
                    Some(d) if d.len() == 2 => {
                        format!(" (threw {} against {})", d[0].max(d[1]), d[0].min(d[1]))
                    }
                    _ => String::new(),
                };
                (
                    Some(format!(
                        "{} sets {} more brigade{} moving{dice}",
                        side(b.active),
                        b.command_points[b.active],
                        if b.command_points[b.active] == 1 {
                            ""
                        } else {
                            "s"
                        }
                    )),
                    "End this throw",
                )
            }
            ARTILLERY => (None, "End artillery"),
            SMALL_ARMS => (Some("simultaneous".to_string()), "End small arms"),
            CLOSE_COMBAT => (None, "End melee"),
            MORALE => (None, "End morale"),
            ROUT => (None, "End turn"),
            _ => (None, "End phase"),
        };
        let phase = match b.phase {
            CLOSE_COMBAT => "melee".to_string(),
            p => p.name().to_string(),
        };
        // The charges declared this turn, listed.
        let charges: Vec<String> = b
            .alive()
            .filter_map(|u| {
                let t = own(u).declared.as_ref()?;
                let t = b.name_of(t);
                Some(format!("{} on {t}", u.name))
            })
            .collect();
        let charges = (!charges.is_empty()).then(|| format!("Charges: {}", charges.join("; ")));
        let brigades = (b.phase == MOVEMENT).then(|| {
            format!(
                "Brigades to move: {} {}, {} {}",
                side(0),
                self.unmoved(b, 0).len(),
                side(1),
                self.unmoved(b, 1).len()
            )
        });
        let resources: Vec<String> = [doing, brigades, charges].into_iter().flatten().collect();
        let resources = (!resources.is_empty()).then(|| resources.join(" · "));
        let acting = match b.phase {
            MOVEMENT => Some(format!("{} moves brigades", side(b.active))),
            COMMAND => Some("both commanders".into()),
            _ => Some("both sides".into()),
        };
        TurnWords {
            phase,
            acting,
            resources,
            end: Some(end.into()),
            controls: match b.phase {
                CHARGES => "Select a unit and click an enemy to declare a charge".into(),
                MOVEMENT => {
                    "Set a brigade moving, then drag its units; Charge makes a declared charge"
                        .into()
                }
                ARTILLERY | SMALL_ARMS => "Select a unit and click an enemy to fire".into(),
                CLOSE_COMBAT => "Select a unit in melee and click its enemy to fight".into(),
                COMMAND => "End throws every commander's die for chips".into(),
                MORALE => "The checks are made; a chip may throw a failed one again".into(),
                ROUT => "Routed units have run; End begins the next turn".into(),
                _ => "End goes on".into(),
            },
        }
    }

    pub(super) fn state_words(&self, u: &Unit) -> String {
        match self.state(u) {
            State::Good => "good order".into(),
            State::Disorganised => "disorganised".into(),
            State::Routed if own(u).recovery_failed > 0 => {
                "routed (one chance left to recover)".into()
            }
            State::Routed => "routed".into(),
        }
    }

    /// The unit's card; a unit whose troop code the data lacks (refused at load) says so.
    pub(super) fn card(&self, b: &Battle, u: &Unit) -> Card {
        let t = match self.troop_def(u) {
            Ok(t) => t,
            Err(e) => return Card::unreadable(u, e),
        };
        let mut lines = vec![format!("{} ({})", t.name, t.code)];
        if self.is_officer(u) {
            let radius = self.radius(u);
            lines.push(match &u.extra.brigade {
                Some(br) => format!(
                    "Commands brigade {br}: radius {radius:.0}\" · orders: {}",
                    self.orders_of(b, br)
                        .unwrap_or_else(|| "as the scenario gives".into())
                ),
                None if self.class(u) == Some(TroopClass::Courier) => match self.carrying(b, &u.id)
                {
                    Some((br, order)) => format!("Carrying to brigade {br}: \"{order}\""),
                    None => "Waiting for orders to carry".into(),
                },
                None => format!("Commander in chief: radius {radius:.0}\""),
            });
            if self.class(u) == Some(TroopClass::General) {
                lines.push(format!(
                    "{} chip{}; {} to movement; {:+} command control",
                    u.extra.chips,
                    if u.extra.chips == 1 { "" } else { "s" },
                    match u.extra.move_dice {
                        0 => "nothing".to_string(),
                        n => format!("{n:+}D6"),
                    },
                    u.extra.leadership
                ));
            }
        } else {
            let (w, _) = self.footprint(b, u, u.formation);
            lines.push(format!(
                "{} figures of {} on {} stands · {} · {:.1}\" wide",
                u.figures(),
                u.extra.strength,
                u.stands.iter().filter(|s| s.figures > 0).count(),
                if self.is_artillery(u) {
                    if u.status.limbered {
                        "limbered"
                    } else {
                        "unlimbered"
                    }
                } else {
                    crate::rules::model::Formation::name(u.formation)
                },
                b.scale.from_mm(w)
            ));
            lines.push(format!(
                "Brigade {} · {}",
                u.extra.brigade.as_deref().unwrap_or("-"),
                if self.in_command(b, u) {
                    "in command"
                } else {
                    "OUT OF COMMAND"
                }
            ));
            let mut state = vec![self.state_words(u)];
            if own(u).must_check {
                state.push("must check morale".into());
            }
            if self.is_infantry(u) {
                state.push(if own(u).volley_spent {
                    "first volley spent".into()
                } else {
                    "first volley in hand".into()
                });
            }
            if let Some(t) = &own(u).declared {
                state.push(format!("charge declared on {}", b.name_of(t)));
            }
            if u.bound.halted {
                state.push("stands this turn".into());
            }
            lines.push(state.join(" · "));
            let held = self.towns_held(b, u);
            for town in b
                .terrain
                .touching(&u.base, &[FeatureKind::Town, FeatureKind::Village])
            {
                if !held.iter().any(|h| h.id == town.id) {
                    lines.push(if self.is_cavalry(u) {
                        format!("Beside {}: horse does not occupy a town", town.name)
                    } else {
                        format!("At the edge of {}: the enemy holds it", town.name)
                    });
                    continue;
                }
                let left = self.town_left(b, &town.id);
                lines.push(if left == 0 {
                    format!("In {}: in flames", town.name)
                } else {
                    format!(
                        "In {}: {left} of {} points against artillery left",
                        town.name,
                        self.town_points(b, &town.id)
                    )
                });
            }
            let number = factor_sum(&self.morale_factors(b, &u.id, None, false));
            lines.push(format!(
                "Morale number {number}: passes on 2D6 of {number} or more ({:.0}%)",
                two_d6_at_least(number) * 100.0
            ));
            if b.phase == MOVEMENT {
                let road = false;
                lines.push(format!(
                    "Move {:.1}\" with the dice thrown, {:.1}\" used",
                    self.allowance(b, u, road),
                    u.bound.spent
                ));
            }
        }
        Card {
            title: u.name.clone(),
            side: u.side,
            lines,
        }
    }
}
