//! Previews in Hal's rules: the odds of a volley, a charge, a melee or a morale check before it is
//! made.

use super::band_name;
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Factor, RuleError, factor_sum};
use crate::rules::geometry::Base;
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::common::{chance, two_d6_at_least};
use crate::rules::ruleset::hal25::rolls::Need;
use crate::rules::ruleset::hal25::{Band, Hal25, Refusal};
use crate::rules::ruleset::view::{Chance, Outlook, OutlookPart};

impl Hal25 {
    pub(super) fn preview_of(&self, b: &Battle, cmd: &Command) -> Result<Outlook, RuleError> {
        match cmd {
            Command::Fire { unit, target, .. } => self.fire_preview(b, unit, target),
            Command::Declare { unit, target } => {
                self.check_declare(b, unit, target)?;
                let (u, t) = (b.unit(unit)?, b.unit(target)?);
                let (to, dist) = self.contact_place(u, t);
                let mut o =
                    self.charge_preview(b, unit, target.clone(), to, self.inches(b, dist))?;
                // A way that is shut now shuts the charge unless the table changes before it
                // is made: said before it is declared, so that the odds are not read alone.
                if let Err(why) = self.charge_way(b, u, t) {
                    o.notes.push(format!(
                        "As the table stands the charge could not be made: {why}"
                    ));
                }
                Ok(o)
            }
            Command::Charge { unit } => {
                let (tid, to, dist) = self.check_charge(b, unit)?;
                self.charge_preview(b, unit, tid, to, dist)
            }
            Command::Fight { unit, target, .. } => self.melee_preview(b, unit, target),
            _ => Err(RuleError::refused(
                Refusal::NothingToPreview,
                "nothing to preview".into(),
            )),
        }
    }

    /// A volley's odds: casualties, a stand lost, the morale check it calls for.
    fn fire_preview(
        &self,
        b: &Battle,
        unit: &UnitId,
        target: &UnitId,
    ) -> Result<Outlook, RuleError> {
        let s = self.fire_setup(b, unit, target)?;
        let odds = self.fire_odds(&s);
        let t = b.unit(target)?;
        let mean: f64 = odds.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        let last = t
            .stands
            .iter()
            .rev()
            .find(|x| x.figures > 0)
            .map_or(1, |x| x.figures) as usize;
        let stand: f64 = if self.is_artillery(t) {
            0.0
        } else {
            odds.iter().skip(last).sum()
        };
        let number = factor_sum(&self.morale_factors(b, target, None, false)) + 1;
        let fail = 1.0 - two_d6_at_least(number);
        let mut factors = vec![Factor {
            name: format!(
                "{} range ({:.1}\"): deduct {}",
                band_name(s.band),
                s.range,
                if s.artillery {
                    crate::rules::ruleset::hal25::tables::artillery_deduction(&self.d, s.band)
                } else {
                    crate::rules::ruleset::hal25::tables::small_arms_deduction(
                        &self.d,
                        s.first_volley,
                        s.band,
                    )
                }
            ),
            value: 0,
            source: "004 II.A.1.b; II.B".into(),
        }];
        if s.first_volley {
            factors.push(Factor {
                name: "first volley".into(),
                value: 0,
                source: "004 II.A.1.b".into(),
            });
        }
        let save = if s.artillery {
            crate::rules::ruleset::hal25::tables::save_need(
                &self.d,
                s.receiving.target,
                false,
                s.light_gun.then_some(s.band == Band::Long),
                false,
            )
        } else {
            crate::rules::ruleset::hal25::tables::save_need(
                &self.d,
                s.receiving.target,
                s.line_firing,
                None,
                s.moved,
            )
        };
        let (dice, _) = if s.artillery {
            (s.strength, 0)
        } else {
            crate::rules::ruleset::hal25::tables::dice_for(&self.d, s.strength)
        };
        let mut notes = s.notes.clone();
        notes.push(match save {
            Some(6) => format!("{} saves each hit on a 6", t.name),
            Some(n) => format!("{} saves each hit on {n}-6", t.name),
            None => format!("{} has no save", t.name),
        });
        if s.receiving.cavalry {
            notes.push("two hits remove a horseman; an odd hit on 4-6".into());
        }
        if s.counter_battery {
            notes.push("counter-battery: each gun hits on its range's score, then 2D6 of 11-12 knocks out a gun".into());
        }
        Ok(Outlook {
            parts: vec![OutlookPart {
                heading: format!(
                    "{} {}",
                    b.unit(unit)?.name,
                    if s.artillery {
                        format!("{} guns", s.strength)
                    } else {
                        format!("{} figures", s.strength)
                    }
                ),
                factors,
                dice,
                need: None,
                summary: format!("expected {mean:.1} casualties"),
            }],
            opposed: false,
            notes,
            chances: self.fire_chances(t, &odds, stand, fail),
            choices: Vec::new(),
        })
    }

    /// A volley's outcomes: no casualty, casualties, a stand lost with the morale check passed or
    /// failed.
    fn fire_chances(&self, t: &Unit, odds: &[f64], stand: f64, fail: f64) -> Vec<Chance> {
        let none = odds.first().copied().unwrap_or(1.0);
        if self.is_artillery(t) {
            vec![
                chance("no casualty", none, 0.0),
                chance("casualties", 1.0 - none, 0.2),
            ]
        } else {
            vec![
                chance("no casualty", none, 0.0),
                chance(
                    "casualties, no stand lost",
                    (1.0 - none - stand).max(0.0),
                    0.15,
                ),
                chance(
                    "a stand lost; the morale check passes",
                    stand * (1.0 - fail),
                    0.4,
                ),
                chance("a stand lost; the morale check fails", stand * fail, 0.8),
            ]
        }
    }

    /// A charge's odds: the charger closing, the target holding, the charge reaching.
    fn charge_preview(
        &self,
        b: &Battle,
        unit: &UnitId,
        tid: UnitId,
        to: Base,
        dist: f32,
    ) -> Result<Outlook, RuleError> {
        let a = factor_sum(&self.morale_factors(b, unit, Some(&tid), true));
        let d = factor_sum(&self.morale_factors(b, &tid, Some(unit), false));
        let (pa, pd) = (two_d6_at_least(a), two_d6_at_least(d));
        let u = b.unit(unit)?;
        let allowance = self.allowance(b, u, false);
        // The charge die, and the dice the charge still throws (chips, disorganised,
        // rough going).
        let signs: Vec<i32> = self
            .charge_needs(b, u, &to)
            .iter()
            .flat_map(|n| match n {
                Need::Chips(k) => vec![k.signum(); k.unsigned_abs() as usize],
                _ => vec![-1],
            })
            .collect();
        let mut sums = vec![(0i32, 1.0f64)];
        for sign in std::iter::once(1).chain(signs) {
            let mut next = Vec::new();
            for (t, p) in &sums {
                for face in 1..=6 {
                    next.push((t + sign * face, p / 6.0));
                }
            }
            sums = next;
        }
        let reach: f64 = sums
            .iter()
            .filter(|(t, _)| allowance + *t as f32 + 0.01 >= dist)
            .map(|(_, p)| p)
            .sum();
        Ok(Outlook {
            parts: vec![
                OutlookPart {
                    heading: format!("{} closes", u.name),
                    factors: self.morale_factors(b, unit, Some(&tid), true),
                    dice: 2,
                    need: Some(a),
                    summary: format!("passes on {a}+ ({:.0}%)", pa * 100.0),
                },
                OutlookPart {
                    heading: format!("{} holds", b.unit(&tid)?.name),
                    factors: self.morale_factors(b, &tid, Some(unit), false),
                    dice: 2,
                    need: Some(d),
                    summary: format!("passes on {d}+ ({:.0}%)", pd * 100.0),
                },
            ],
            opposed: false,
            notes: vec![format!(
                "{dist:.1}\" to contact; {allowance:.1}\" before the 1D6 charge bonus and the dice still to throw: it reaches {:.0}% of the time",
                reach * 100.0
            )],
            chances: vec![
                chance("fails to close (disorganised)", 1.0 - pa, -0.3),
                chance(
                    "the target fails to hold (failed morale chart)",
                    pa * (1.0 - pd),
                    0.7,
                ),
                // The melee that follows is weighed when it is fought.
                chance("the target holds and fires", pa * pd, -0.1),
            ],
            choices: Vec::new(),
        })
    }

    /// A melee's odds: each side's win, the loser's fate, the casualty points expected.
    fn melee_preview(
        &self,
        b: &Battle,
        unit: &UnitId,
        target: &UnitId,
    ) -> Result<Outlook, RuleError> {
        let (a, e) = self.melee_sides(b, unit, target)?;
        let morale = [self.morale(b.unit(&a.unit)?), self.morale(b.unit(&e.unit)?)];
        let odds = self.melee_odds(&a, &e, morale);
        let part =
            |s: &crate::rules::ruleset::hal25::melee::Side| -> Result<OutlookPart, RuleError> {
                Ok(OutlookPart {
                    heading: b.unit(&s.unit)?.name.clone(),
                    factors: s.factors.clone(),
                    dice: s.melee.facing as u32,
                    need: None,
                    summary: format!(
                        "{} stands fight{}",
                        s.melee.facing,
                        if s.melee.missing.iter().any(|&m| m > 0) {
                            format!(", short {:?}", s.melee.missing)
                        } else {
                            String::new()
                        }
                    ),
                })
            };
        let names = [b.unit(&a.unit)?.name.clone(), b.unit(&e.unit)?.name.clone()];
        Ok(Outlook {
            parts: vec![part(&a)?, part(&e)?],
            opposed: true,
            notes: vec![
                format!(
                    "{} wins {:.0}%, {} wins {:.0}%, a draw {:.0}%",
                    names[0],
                    odds.wins[0] * 100.0,
                    names[1],
                    odds.wins[1] * 100.0,
                    odds.draw * 100.0
                ),
                format!(
                    "casualty points expected: {:.1} and {:.1}",
                    odds.lost[0], odds.lost[1]
                ),
                "the loser reads the failed morale chart (a disorganised loser routs, \
                 one beaten by 20 surrenders); the winner is disorganised"
                    .into(),
                "about: 4000 simulated melees, the chart read exactly".into(),
            ],
            chances: {
                let mut c = Vec::new();
                for (i, name) in names.iter().enumerate() {
                    let other = &names[1 - i];
                    for (k, fate) in crate::rules::ruleset::hal25::melee::LOSER_FATES
                        .iter()
                        .enumerate()
                    {
                        if odds.fate[1 - i][k] > 0.0 {
                            // Routing or surrendering ends a unit; falling back
                            // disorganised costs it much; recovering little.
                            let worth = [0.8, 0.5, 0.3, 1.0][k];
                            c.push(chance(
                                format!("{name} wins; {other} {fate}"),
                                odds.fate[1 - i][k],
                                if i == 0 { worth } else { -worth },
                            ));
                        }
                    }
                }
                c.push(chance("a drawn melee", odds.draw, 0.0));
                c
            },
            choices: Vec::new(),
        })
    }
}
