//! What Hal's rules draw on the table: a unit's look, and the overlays of arcs, reach and command.

use super::super::status::own;
use crate::rules::battle::Battle;
use crate::rules::model::Unit;
use crate::rules::ruleset::Figures;
use crate::rules::ruleset::Ruleset;
use crate::rules::ruleset::common::{arc_marks, reach_mark, target_mark};
use crate::rules::ruleset::hal25::MOVEMENT;
use crate::rules::ruleset::hal25::N;
use crate::rules::ruleset::hal25::{Hal25, State, TroopClass};
use crate::rules::ruleset::view::{Layer, Look, Mark, Sign};

impl Hal25 {
    /// How the unit is drawn; a unit whose troop code the data lacks (refused at load) is drawn
    /// as its bare base.
    pub(super) fn look(&self, b: &Battle, u: &Unit) -> Look {
        let Some(class) = self.class(u) else {
            return Look::default();
        };
        let mut markers = Vec::new();
        match self.state(u) {
            State::Disorganised => markers.push("DIS".to_string()),
            State::Routed if own(u).recovery_failed > 0 => markers.push("ROUT 2".to_string()),
            State::Routed => markers.push("ROUT".to_string()),
            State::Good => {}
        }
        if own(u).must_check {
            markers.push("CHECK".to_string());
        }
        if u.bound.halted {
            markers.push("HALT".to_string());
        }
        let per = self.full_stand(u);
        let stands = self
            .stand_bases(b, u)
            .into_iter()
            .zip(u.stands.iter().map(|s| s.figures))
            .filter(|(_, f)| *f > 0)
            .collect();
        let mut label = u.troop.clone();
        if u.status.limbered {
            label.push_str(" (L)");
        }
        if self.is_unit(u) {
            label = format!("{label} {}", u.figures());
        }
        let arm = match class {
            TroopClass::Grenadier | TroopClass::Line | TroopClass::Light => Figures::Foot,
            TroopClass::HeavyCavalry | TroopClass::LightCavalry => Figures::Horse,
            TroopClass::Artillery => Figures::Guns,
            TroopClass::General | TroopClass::Courier => Figures::Command,
        };
        Look {
            arm,
            stands,
            figures_per_stand: per,
            general: class == TroopClass::General,
            label_dark: false,
            label,
            label_behind: self.is_unit(u),
            pips: 0,
            markers,
            // Hal's routed is the shared status's shaken, its disorganised the disordered: the
            // table signals them as such (the markers name them in Hal's words).
            signs: Sign::plain(u),
            garrison: crate::rules::ruleset::common::garrisons(b, u),
            hit: u.status.hits > 0,
        }
    }

    pub(super) fn overlays(&self, b: &Battle, sel: Option<&Unit>, layers: &[Layer]) -> Vec<Mark> {
        let mut out = Vec::new();
        let Some(s) = sel.filter(|s| s.alive()) else {
            return out;
        };
        if layers.contains(&Layer::Arcs) && self.is_unit(s) && !self.is_cavalry(s) {
            let half = self.n(N::ArcHalfAngle);
            let bands = if self.is_artillery(s) {
                self.d.artillery_bands.clone()
            } else {
                self.d.small_arms_bands.clone()
            };
            for r in bands {
                out.extend(arc_marks(&s.base, half, b.scale.to_mm(r)));
            }
        }
        if layers.contains(&Layer::Zones) && self.class(s) == Some(TroopClass::General) {
            let r = b.scale.to_mm(self.radius(s));
            let ring: Vec<_> = (0..=48)
                .map(|k| {
                    let a = k as f32 / 48.0 * 360.0;
                    s.base
                        .centre
                        .plus(crate::rules::geometry::heading(a).scale(r))
                })
                .collect();
            out.push(Mark::line(
                Layer::Zones,
                crate::rules::ruleset::Ink::Zone,
                ring,
            ));
        }
        if layers.contains(&Layer::Reach) && b.phase == MOVEMENT && self.may_act(b, &s.id).is_ok() {
            let most = self.allowance(b, s, false) + 6.0;
            out.push(reach_mark(b, s, most, |fwd, right, d| {
                let steps = vec![crate::rules::command::Step::Oblique {
                    forward: fwd * d,
                    right: right * d,
                }];
                self.plan(b, &s.id, &steps).is_ok()
            }));
        }
        if layers.contains(&Layer::Targets) && self.is_unit(s) {
            let reach = if self.is_artillery(s) {
                self.d.artillery_bands[2]
            } else {
                self.d.small_arms_bands[2]
            };
            // In a fire step, only the targets the rules would let it fire at now (not once
            // it has fired, nor where it may not this step); in another step, every target in
            // reach.
            for (t, _) in self
                .targets(b, s, reach)
                .into_iter()
                .filter(|(t, _)| match self.target_command(b, &s.id, t) {
                    Some(cmd @ crate::rules::command::Command::Fire { .. }) => {
                        self.preview_of(b, &cmd).is_ok()
                    }
                    _ => true,
                })
                .take(if self.is_artillery(s) { 99 } else { 1 })
            {
                if let Ok(t) = b.unit(&t) {
                    out.push(target_mark(&t.base));
                }
            }
        }
        out
    }
}
