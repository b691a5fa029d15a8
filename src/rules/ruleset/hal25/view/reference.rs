//! The rules reference of Hal's rules: the tables and rulings as the window shows them.

use crate::rules::ruleset::common::{factor_rows, number_rows};
use crate::rules::ruleset::hal25::Hal25;
use crate::rules::ruleset::view::{RefRow, RefSection, Reference};

impl Hal25 {
    pub(super) fn reference(&self) -> Reference {
        let d = &self.d;
        Reference {
            title: d.name.clone(),
            source: "Hal's 25mm Seven Years War Rules (Hal Thinglum, 1997)".into(),
            sections: vec![
                self.troops_section(),
                self.fire_section(),
                self.charges_section(),
                self.moves_section(),
                RefSection::list("Melee modifiers (per die)", factor_rows(&d.melee_modifiers)),
                RefSection::list(
                    "Morale modifiers (to the number, base 4; 2D6 below it fails)",
                    factor_rows(&d.morale_modifiers),
                ),
                self.chart_section(),
                self.chips_section(),
                RefSection::list("Numbers", number_rows(&d.numbers)),
            ],
            rulings_title: "Rulings (where the text is damaged or silent)".into(),
            rulings: d.rulings.clone(),
        }
    }

    /// The troop codes and the classes they play as.
    fn troops_section(&self) -> RefSection {
        let d = &self.d;
        RefSection::table(
            "Troop types",
            &["Type", "Plays as", "Stands"],
            d.troops
                .iter()
                .map(|t| RefRow {
                    cells: vec![
                        format!("{} ({})", t.name, t.code),
                        format!(
                            "{:?}{}",
                            t.troop,
                            if t.light_gun { ", light guns" } else { "" }
                        ),
                        d.organisation(t.troop)
                            .map_or(String::new(), |o| format!("{:?} figures", o.stands)),
                    ],
                    source: t.source.clone(),
                })
                .collect(),
        )
    }

    /// Small arms and artillery deductions by range band, and counter-battery scores.
    fn fire_section(&self) -> RefSection {
        let d = &self.d;
        let src = |s: &str| s.to_string();
        RefSection::table(
            "Small arms (1D6 per six figures, less the deduction)",
            &["Fire", "Short 0-6\"", "Medium 6-12\"", "Long 12-18\""],
            d.small_arms_deductions
                .iter()
                .map(|x| RefRow {
                    cells: vec![
                        x.name.clone(),
                        format!("-{}", x.deduct[0]),
                        format!("-{}", x.deduct[1]),
                        format!("-{}", x.deduct[2]),
                    ],
                    source: x.source.clone(),
                })
                .chain(std::iter::once(RefRow {
                    cells: vec![
                        "Artillery (1D6 per gun)".into(),
                        format!("-{} (0-12\")", d.artillery_deductions[0]),
                        format!("-{} (12-24\")", d.artillery_deductions[1]),
                        format!("-{} (24-36\")", d.artillery_deductions[2]),
                    ],
                    source: src("004 II.B"),
                }))
                .chain(std::iter::once(RefRow {
                    cells: vec![
                        "Counter-battery: to hit".into(),
                        format!("{}", d.counter_battery_need[0]),
                        format!("{}", d.counter_battery_need[1]),
                        format!("{}", d.counter_battery_need[2]),
                    ],
                    source: src("004 II.B.3"),
                }))
                .collect(),
        )
    }

    /// The range a charge is fired into at, by the firer and where the charge began.
    fn charges_section(&self) -> RefSection {
        let d = &self.d;
        RefSection::table(
            "Firing into charges (1D6)",
            &["Firer", "Attacker from", "Short", "Medium", "Long"],
            d.charge_ranges
                .iter()
                .map(|r| {
                    let f = |x: Option<(u8, u8)>| {
                        x.map_or("-".into(), |(a, c)| {
                            if a == c {
                                format!("{a}")
                            } else {
                                format!("{a}-{c}")
                            }
                        })
                    };
                    RefRow {
                        cells: vec![
                            format!("{:?}", r.troop),
                            format!("{:?}", r.from),
                            f(Some(r.short)),
                            f(r.medium),
                            f(r.long),
                        ],
                        source: r.source.clone(),
                    }
                })
                .collect(),
        )
    }

    /// The movement table.
    fn moves_section(&self) -> RefSection {
        let d = &self.d;
        RefSection::table(
            "Movement (inches)",
            &[
                "Type",
                "Line",
                "Field col.",
                "Road col.",
                "Skirmish",
                "Rough",
                "Change",
                "Rout",
            ],
            d.movement
                .iter()
                .map(|m| {
                    let n = |x: Option<u32>| x.map_or("-".into(), |v| format!("{v}\""));
                    let dice = |k: i32| {
                        if k == 0 {
                            "-".into()
                        } else {
                            format!("{k:+}D6")
                        }
                    };
                    RefRow {
                        cells: vec![
                            format!("{:?}", m.troop),
                            n(m.line),
                            n(m.field_column),
                            n(m.road_column),
                            n(m.skirmish),
                            dice(m.rough_dice),
                            dice(m.change_dice),
                            dice(m.rout_dice),
                        ],
                        source: m.source.clone(),
                    }
                })
                .collect(),
        )
    }

    /// The failed morale chart and the melee-loss modifiers.
    fn chart_section(&self) -> RefSection {
        let d = &self.d;
        RefSection::table(
            "Failed morale chart (2D6)",
            &["Throw", "Outcome"],
            d.failed_morale
                .iter()
                .map(|r| RefRow {
                    cells: vec![
                        format!("{}-{}", r.min.max(1), r.max.min(12)),
                        format!("{:?}", r.outcome),
                    ],
                    source: r.source.clone(),
                })
                .chain(d.melee_loss_modifiers.iter().map(|r| RefRow {
                    cells: vec![
                        format!("lost melee by {}-{}", r.min, r.max),
                        format!("{:+}", r.value),
                    ],
                    source: r.source.clone(),
                }))
                .collect(),
        )
    }

    /// The chips table.
    fn chips_section(&self) -> RefSection {
        let d = &self.d;
        RefSection::table(
            "Chips before the battle (1D6, +1 commander in chief)",
            &["Throw", "Chips", "Radius", "Movement", "Command control"],
            d.chips
                .iter()
                .map(|r| RefRow {
                    cells: vec![
                        format!("{}-{}", r.min.max(1), r.max.min(7)),
                        r.chips.to_string(),
                        format!("{}\"", r.radius),
                        format!("{:+}D6", r.move_dice),
                        format!("{:+}", r.command),
                    ],
                    source: r.source.clone(),
                })
                .collect(),
        )
    }
}
