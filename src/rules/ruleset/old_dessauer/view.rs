//! Old Dessauer as the window, the log and the players see it: the unit card with stands and
//! figures, the formation, attach, fallback and recoil buttons, the overlays per stand, the
//! outlook before the dice and the rules reference.

use super::formations::formations;
use super::layout::stand_bases;
use super::{
    Forecast, Kind, N, OldDessauer, Opt, grade_name, movement, pursuit, shooting, skirmishers,
};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Step};
use crate::rules::geometry::Base;
use crate::rules::model::{Formation, Phase, Unit};
use crate::rules::ruleset::Figures;
use crate::rules::ruleset::common::{
    self, RulesKey, chance, factor_rows, number_rows, reach_mark, sight_marks, target_mark,
};
use crate::rules::ruleset::old_dessauer::{CLOSE_COMBAT, FIRING, MOVEMENT};
use crate::rules::ruleset::view::{
    Action, ActionGroup, Card, Ink, Layer, Look, Mark, Outlook, OutlookPart, RefRow, RefSection,
    Reference, Sign, TurnWords,
};

/// Distances offered on the recoil-farther buttons, in inches (and whatever is left).
const RECOILS: [f32; 3] = [2.0, 4.0, 6.0];

impl OldDessauer {
    pub fn turn_words(&self, b: &Battle) -> TurnWords {
        let end = match b.phase {
            Phase::GAME_OVER => None,
            CLOSE_COMBAT => Some("End bound"),
            _ => Some("End phase"),
        };
        TurnWords {
            acting: None,
            phase: b.phase.name().to_string(),
            resources: None,
            end: end.map(str::to_string),
            controls:
                "Drag: move · Q/E wheel · formation buttons: face about · Esc cancel · Enter confirm"
                    .into(),
        }
    }

    /// The unit card: type, grade, stands and figures, formation, state, allowance.
    pub fn card(&self, b: &Battle, u: &Unit) -> Card {
        let t = self.troop(u);
        let mut lines = vec![format!("{} ({}) · {}", t.name, t.code, grade_name(u.class))];
        if !u.flags.is_empty() {
            lines.push(format!("{:?}", u.flags));
        }
        let stands: Vec<String> = u.stands.iter().map(|s| s.figures.to_string()).collect();
        lines.push(format!(
            "{} figures of {} · stands [{}]",
            u.figures(),
            self.strength(u),
            stands.join(", ")
        ));
        lines.push(format!("Formation: {}", u.formation.name()));
        let states: Vec<&str> = [
            (u.status.removed, "gone"),
            (u.status.shaken, "shaken"),
            (u.status.disordered, "disordered"),
            (u.status.limbered, "limbered"),
            (self.in_contact(b, u), "in combat"),
            (!self.in_command(b, u), "out of command"),
        ]
        .iter()
        .filter(|x| x.0)
        .map(|x| x.1)
        .collect();
        lines.push(if states.is_empty() {
            "Steady".to_string()
        } else {
            states.join(", ")
        });
        let spent = if u.bound.halted {
            format!("{:.1}, no charge or change of formation", u.bound.used())
        } else {
            format!("{:.1}", u.bound.used())
        };
        lines.push(format!(
            "Move {:.0} inches ({} used) · combat points {}",
            self.allowance(u),
            spent,
            t.combat
        ));
        if let Some(g) = self.attached_general(b, u) {
            lines.push(format!("{} attached ({:+})", g.name, g.extra.leadership));
        }
        if pursuit::pursuit_fixed(self, u).is_none() {
            lines.push(common::pursuit_order_line(u));
        }
        Card {
            title: u.name.clone(),
            side: u.side,
            lines,
        }
    }

    /// Recoiling farther, formations and facings, unlimbering, attaching and falling back.
    pub fn actions(&self, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        let mut out = Vec::new();
        if let Some(g) = self.recoil_buttons(b, u) {
            out.push(g);
        }
        if u.side == b.active && u.alive() && pursuit::pursuit_fixed(self, u).is_none() {
            out.push(common::pursuit_order_action(u));
        }
        if b.phase != MOVEMENT || u.side != b.active || !u.alive() {
            return out;
        }
        if self.is_skirmishing(b, u) {
            out.push(ActionGroup {
                note: format!(
                    "Ctrl+drag a stand to move it alone ({} in each, within {} in of the command stand, stand {}).",
                    self.allowance(u),
                    self.num(N::SkirmishLeash),
                    skirmishers::command_stand(u) + 1
                ),
                ..ActionGroup::default()
            });
        }
        out.extend(self.formation_buttons(b, u));
        if u.status.limbered {
            out.push(button("Unlimber", Command::Unlimber { unit: u.id.clone() }));
        }
        if self.kind(u) == Kind::General {
            out.push(self.attach_buttons(b, u));
        }
        if self.opt(Opt::VoluntaryFallback)
            && self.is_fighting_unit(u)
            && !u.bound.moved
            && !u.bound.fell_back
        {
            out.push(ActionGroup {
                title: "Fall back:".into(),
                note: String::new(),
                actions: self
                    .fallback_distances()
                    .into_iter()
                    .map(|d| Action {
                        label: format!("{d:.0} in"),
                        command: Command::Fallback {
                            unit: u.id.clone(),
                            distance: d,
                        },
                    })
                    .collect(),
            });
        }
        out
    }

    /// A fallback's distances on the buttons: each whole segment up to the most it may go.
    fn fallback_distances(&self) -> Vec<f32> {
        let (step, most) = (self.num(N::FallbackSegment), self.num(N::RecoilMax));
        if step <= 0.0 {
            return vec![most];
        }
        (1..)
            .map(|k| k as f32 * step)
            .take_while(|d| *d <= most + 1e-3)
            .collect()
    }

    /// A unit that recoiled this turn may go farther in the close combat phase.
    fn recoil_buttons(&self, b: &Battle, u: &Unit) -> Option<ActionGroup> {
        let (_, done) = u.bound.recoil?;
        if b.phase != CLOSE_COMBAT || !u.alive() || self.in_contact(b, u) {
            return None;
        }
        let done = b.scale.from_mm(done);
        let left = self.num(N::RecoilMax) - done;
        if left < 1.0 {
            return None;
        }
        let mut ds: Vec<f32> = RECOILS.iter().copied().filter(|d| *d <= left).collect();
        ds.push(left.floor());
        Some(ActionGroup {
            title: format!("Recoiled {done:.1} in; recoil farther:"),
            note: String::new(),
            actions: ds
                .into_iter()
                .map(|d| Action {
                    label: format!("{d:.0} in"),
                    command: Command::RecoilFurther {
                        unit: u.id.clone(),
                        distance: d,
                    },
                })
                .collect(),
        })
    }

    /// A row of formation buttons for each facing: ahead, right, left, about.
    fn formation_buttons(&self, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        let forms = formations(self.kind(u), u.status.limbered);
        if forms.is_empty()
            || u.bound.formed
            || u.bound.halted
            || u.bound.fell_back
            || self.in_contact(b, u)
        {
            return Vec::new();
        }
        let mut out = vec![ActionGroup {
            note: "Change formation (half the move), then facing:".into(),
            ..ActionGroup::default()
        }];
        for (turn, word) in [
            (0.0f32, "ahead"),
            (90.0, "right"),
            (-90.0, "left"),
            (180.0, "about"),
        ] {
            out.push(ActionGroup {
                title: word.into(),
                note: String::new(),
                actions: forms
                    .iter()
                    .filter(|(f, _)| *f != u.formation || turn != 0.0)
                    // An L reforms into line or column before it takes another.
                    .filter(|(f, _)| {
                        !(*f == Formation::Conformed && u.formation == Formation::Conformed)
                    })
                    .map(|(f, name)| Action {
                        // Turned right or left, an L refuses that flank; ahead or about, the
                        // unit conforms to the ground in its line's place.
                        label: match (*f, turn) {
                            (Formation::Conformed, t) if t > 45.0 => "L, refuse right".into(),
                            (Formation::Conformed, t) if t < -45.0 => "L, refuse left".into(),
                            (Formation::Conformed, _) => "Conform to ground".into(),
                            _ => name.to_string(),
                        },
                        command: Command::Form {
                            unit: u.id.clone(),
                            formation: *f,
                            turn,
                        },
                    })
                    .collect(),
            });
        }
        out
    }

    /// A general detaches, or attaches to a unit of its side within its move.
    fn attach_buttons(&self, b: &Battle, g: &Unit) -> ActionGroup {
        let actions = match &g.extra.attached {
            Some(_) => vec![Action {
                label: "Detach".into(),
                command: Command::Detach {
                    general: g.id.clone(),
                },
            }],
            None => b
                .alive()
                .filter(|f| f.side == g.side && self.is_fighting_unit(f))
                .filter(|f| {
                    f.base.distance_to_point(g.base.centre)
                        <= b.scale.to_mm(self.num(N::GeneralMove))
                })
                .map(|f| Action {
                    label: format!("Attach to {}", f.name),
                    command: Command::Attach {
                        general: g.id.clone(),
                        unit: f.id.clone(),
                    },
                })
                .collect(),
        };
        ActionGroup {
            actions,
            ..ActionGroup::default()
        }
    }

    /// The inch round each enemy, and the selected unit's stand arcs, reach, sight and targets.
    pub fn overlays(&self, b: &Battle, sel: Option<&Unit>, layers: &[Layer]) -> Vec<Mark> {
        let mut out = Vec::new();
        if layers.contains(&Layer::Zones) {
            // The inch round each enemy unit that no one may enter but to charge.
            let z = b.scale.to_mm(self.num(N::ZoneOfControl));
            for e in b.alive().filter(|e| {
                e.side != b.active && self.is_fighting_unit(e) && !self.in_contact(b, e)
            }) {
                for shape in e.shapes() {
                    let grown = Base {
                        width: shape.width + 2.0 * z,
                        depth: shape.depth + 2.0 * z,
                        ..shape
                    };
                    out.push(Mark::base(Layer::Zones, Ink::Zone, &grown));
                }
            }
        }
        let Some(s) = sel.filter(|s| s.alive()) else {
            return out;
        };
        if layers.contains(&Layer::Arcs)
            && let Some(range) = self.range(s)
        {
            // Each stand shoots 45 degrees either side of its own front centre.
            let half = self.num(N::ArcHalfAngle);
            let reach = b.scale.to_mm(range);
            for st in stand_bases(self, s) {
                let fc = st.front_centre();
                let mut pts = vec![fc];
                for k in 0..=16 {
                    let a = -half + 2.0 * half * k as f32 / 16.0;
                    pts.push(fc.plus(st.forward().rotate(a).scale(reach)));
                }
                pts.push(fc);
                out.push(Mark::line(Layer::Arcs, Ink::StandArc, pts));
            }
        }
        if layers.contains(&Layer::Reach) {
            out.push(self.reach(b, s));
        }
        // Sight lines to the enemies it sees, and to those within its range it does not see;
        // none to enemies hidden and out of its range anyway.
        let reach = self.range(s).map(|r| b.scale.to_mm(r));
        for e in b.alive().filter(|e| e.side != s.side) {
            if layers.contains(&Layer::Sight) {
                let from = s.base.front_centre();
                let seen = shooting::sight_clear(self, b, from, e, s);
                if seen || reach.is_some_and(|r| s.base.distance(&e.base) <= r) {
                    out.extend(sight_marks(
                        b,
                        from,
                        e.base.centre,
                        (!seen).then_some("cannot be seen"),
                    ));
                }
            }
            let eligible = match b.phase {
                FIRING if s.side == b.active => shooting::setup(self, b, &s.id, &e.id).is_ok(),
                CLOSE_COMBAT => self.enemies_in_contact(b, s).iter().any(|x| x.id == e.id),
                _ => false,
            };
            if eligible && layers.contains(&Layer::Targets) {
                out.push(target_mark(&e.base));
            }
        }
        out
    }

    /// Forward on an oblique; straight sideways or back by sidestep or backstep.
    fn reach(&self, b: &Battle, u: &Unit) -> Mark {
        let most = self.allowance(u) * self.num(N::RoadMultiplier);
        reach_mark(b, u, most, |fwd, right, d| {
            let step = if fwd > 0.05 {
                Step::Oblique {
                    forward: fwd * d,
                    right: right * d,
                }
            } else if fwd.abs() <= 0.05 {
                Step::Sidestep(right.signum() * d)
            } else if right.abs() <= 0.05 {
                Step::Backstep(d)
            } else {
                return false;
            };
            movement::plan(self, b, &u.id, &[step]).is_ok()
        })
    }

    /// Stands with their figures; generals with a disc; the formation and figures in the label,
    /// behind the rear edge of a fighting unit.
    pub fn look(&self, u: &Unit) -> Look {
        let mut label = u.troop.clone();
        if u.status.limbered {
            label.push_str(" (L)");
        }
        let fighting = self.is_fighting_unit(u);
        if fighting {
            let f = match u.formation {
                Formation::Line => "",
                Formation::Column => " col",
                Formation::Square => " sq",
                Formation::Skirmish => " sk",
                Formation::Conformed => " L",
                Formation::Dismounted => " dis.",
                Formation::Deep => " deep",
            };
            label = format!("{label}{f} {}", u.figures());
        }
        let arm = match self.kind(u) {
            Kind::Infantry | Kind::LightInfantry => Figures::Foot,
            Kind::Cavalry => Figures::Horse,
            Kind::Artillery | Kind::RegimentalGun => Figures::Guns,
            Kind::General => Figures::Command,
        };
        Look {
            arm,
            stands: stand_bases(self, u)
                .into_iter()
                .zip(u.stands.iter().map(|s| s.figures))
                .collect(),
            figures_per_stand: self.troop(u).figures_per_stand,
            general: self.kind(u) == Kind::General,
            label_dark: false,
            label,
            label_behind: fighting,
            pips: 0,
            markers: Vec::new(),
            signs: Sign::plain(u),
            // Whether it garrisons a place is the table's: the door's look says.
            garrison: false,
            hit: u.status.hits > 0,
        }
    }

    /// The forecast as an outlook: one part per striking unit.
    pub fn outlook(f: Forecast) -> Outlook {
        let parts = f
            .lines
            .into_iter()
            .map(|l| {
                let points = l
                    .points
                    .map(|(a, b)| format!("{a} points against {b}: "))
                    .unwrap_or_default();
                OutlookPart {
                    heading: format!("{} against {}", l.unit, l.target),
                    summary: format!(
                        "{points}{} {} hitting on {}{}",
                        l.dice,
                        if l.dice == 1 { "die" } else { "dice" },
                        l.need,
                        if l.need < 6 { "-6" } else { "" }
                    ),
                    factors: l.factors,
                    dice: l.dice,
                    need: Some(l.need as i32),
                }
            })
            .collect();
        Outlook {
            notes: Vec::new(),
            parts,
            opposed: false,
            chances: f
                .chances
                .into_iter()
                .map(|(o, p, e)| chance(o, p, e))
                .collect(),
            choices: Vec::new(),
        }
    }

    /// The rules reference: troops, numbers with sources, optional rules, rulings.
    pub fn reference(&self) -> Reference {
        let d = &self.data;
        let troops = RefSection::table(
            "Troop types",
            &["Type", "Stand", "Line", "Column", "Combat"],
            d.troops
                .iter()
                .map(|t| RefRow {
                    cells: vec![
                        format!("{} ({})", t.name, t.code),
                        format!("{} figures", t.figures_per_stand),
                        format!("{:.0} in", t.line),
                        format!("{:.0} in", t.column),
                        t.combat.to_string(),
                    ],
                    source: t.source.clone(),
                })
                .collect(),
        );
        let options = Opt::ALL
            .iter()
            .map(|&k| {
                let o = self.option_def(k);
                RefRow {
                    cells: vec![format!(
                        "{} {}",
                        if self.opt(k) { "[in use]" } else { "[off]" },
                        o.name
                    )],
                    source: o.source.clone(),
                }
            })
            .collect();
        Reference {
            title: d.name.clone(),
            source: crate::rules::ruleset::books::book(&d.seed),
            sections: vec![
                troops,
                RefSection::list("Numbers", number_rows(&d.numbers)),
                RefSection::list("Shooting factors", factor_rows(&d.shooting_factors)),
                RefSection::list("Optional rules", options),
            ],
            rulings_title: "Rulings (where the text was lost or is silent)".into(),
            rulings: d.rulings.clone(),
        }
    }
}

/// A group of one button.
fn button(label: &str, command: Command) -> ActionGroup {
    ActionGroup {
        actions: vec![Action {
            label: label.into(),
            command,
        }],
        ..ActionGroup::default()
    }
}
