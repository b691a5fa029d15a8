//! BBB's rules reference: the troop types, firing values, fire table, shifts and halvings,
//! the assault and command tables with their modifiers, the numbers and the rulings.

use super::tables::FireResult;
use super::{Bbb7yw, Quality};
use crate::rules::ruleset::view::{RefRow, RefSection, Reference};

impl Bbb7yw {
    /// The rules reference, table by table, with the rulings.
    pub(super) fn reference(&self) -> Reference {
        let d = &self.data;
        Reference {
            title: format!("Rules reference: {}", d.name),
            source: crate::rules::ruleset::books::book(&d.seed),
            sections: vec![
                self.troops_section(),
                self.values_section(),
                self.fire_table_section(),
                self.shifts_section(),
                self.assault_section(),
                modifiers("Assault modifiers", &d.assault_modifiers),
                self.command_section(),
                modifiers("Command modifiers", &d.command_modifiers),
                self.numbers_section(),
            ],
            rulings_title: "Rulings".into(),
            rulings: d.rulings.clone(),
        }
    }

    fn troops_section(&self) -> RefSection {
        let d = &self.data;
        RefSection::table(
            "Troop types",
            &["Type", "Arm", "Move"],
            d.troops
                .iter()
                .map(|t| RefRow {
                    cells: vec![
                        format!("{} ({})", t.name, t.code),
                        format!("{:?}", t.arm),
                        format!("{:.0}\"", t.move_in),
                    ],
                    source: t.source.clone(),
                })
                .collect(),
        )
    }

    fn values_section(&self) -> RefSection {
        let d = &self.data;
        let mut band_cols = vec!["Firing values".to_string()];
        band_cols.extend(d.bands.iter().map(|b| format!("{b}\"")));
        let cols: Vec<&str> = band_cols.iter().map(String::as_str).collect();
        RefSection::table(
            "Firing values (per front-rank base)",
            &cols,
            d.fire_values
                .iter()
                .map(|v| {
                    let mut cells = vec![v.name.clone()];
                    for (i, x) in v.values.iter().enumerate() {
                        let bg = v.with_bg.as_ref().and_then(|w| w.get(i)).copied();
                        cells.push(match (x, bg) {
                            (x, _) if *x <= 0.0 => "-".into(),
                            (x, Some(g)) if g > 0.0 => format!("{x} ({g} BG)"),
                            (x, _) => format!("{x}"),
                        });
                    }
                    RefRow {
                        cells,
                        source: v.source.clone(),
                    }
                })
                .collect(),
        )
    }

    fn fire_table_section(&self) -> RefSection {
        let d = &self.data;
        let mut fcols = vec!["2D6".to_string()];
        fcols.extend(d.fire_columns.iter().map(|c| format!("{c}")));
        let fcols: Vec<&str> = fcols.iter().map(String::as_str).collect();
        RefSection::table(
            "Fire table",
            &fcols,
            d.fire_table
                .iter()
                .map(|r| {
                    let mut cells =
                        vec![format!("{}{}", r.roll, if r.low_ammo { "*" } else { "" })];
                    cells.extend(r.cells.iter().map(|c| {
                        FireResult::parse(c).map_or_else(|_| c.clone(), FireResult::code)
                    }));
                    RefRow {
                        cells,
                        source: r.source.clone(),
                    }
                })
                .collect(),
        )
    }

    fn shifts_section(&self) -> RefSection {
        let d = &self.data;
        rows(
            "Fire: column shifts and halvings",
            d.fire_shifts
                .iter()
                .map(|s| {
                    (
                        s.name.clone(),
                        format!(
                            "{} {}",
                            s.shift.abs(),
                            if s.shift < 0 { "left" } else { "right" }
                        ),
                        s.source.clone(),
                    )
                })
                .chain(
                    d.fire_halvings
                        .iter()
                        .map(|h| (h.name.clone(), "halved".into(), h.source.clone())),
                )
                .collect(),
        )
    }

    fn assault_section(&self) -> RefSection {
        let d = &self.data;
        RefSection::table(
            "Assault table (attacker's 1D6 + modifiers minus defender's)",
            &["Difference", "Result"],
            d.assault_table
                .iter()
                .map(|r| RefRow {
                    cells: vec![
                        match (r.min, r.max) {
                            (lo, hi) if hi >= 99 => format!("{lo:+} or more"),
                            (lo, hi) if lo <= -99 => format!("{hi:+} or less"),
                            (lo, hi) if lo == hi => format!("{lo:+}"),
                            (lo, hi) => format!("{lo:+} to {hi:+}"),
                        },
                        self.row_words(r),
                    ],
                    source: r.source.clone(),
                })
                .collect(),
        )
    }

    fn command_section(&self) -> RefSection {
        let d = &self.data;
        RefSection::table(
            "Command roll (2D6 + modifiers)",
            &["Score", "Good order", "Disordered"],
            d.command_table
                .iter()
                .map(|r| RefRow {
                    cells: vec![
                        match (r.min, r.max) {
                            (lo, hi) if hi >= 99 => format!("{lo}+"),
                            (lo, hi) if lo <= -99 => format!("{hi} or less"),
                            (lo, hi) if lo == hi => format!("{lo}"),
                            (lo, hi) => format!("{lo}-{hi}"),
                        },
                        {
                            let rec = r.good.recover.map(|q| match q {
                                Quality::Raw => ", or recover a base",
                                Quality::Trained => ", or Trained/Veteran recover a base",
                                Quality::Veteran => ", or Veteran recover a base",
                            });
                            format!(
                                "{}{}",
                                self.outcome_words(&r.good, false, false),
                                rec.unwrap_or("")
                            )
                        },
                        self.outcome_words(&r.disordered, false, false),
                    ],
                    source: r.source.clone(),
                })
                .collect(),
        )
    }

    fn numbers_section(&self) -> RefSection {
        let d = &self.data;
        RefSection::list(
            "Numbers",
            d.numbers
                .iter()
                .map(|n| RefRow {
                    cells: vec![format!("{}: {}", n.key.replace('_', " "), n.value)],
                    source: n.source.clone(),
                })
                .collect(),
        )
    }
}

/// A table of modifiers: each one's name, value and source.
fn modifiers(title: &str, list: &[super::Modifier]) -> RefSection {
    rows(
        title,
        list.iter()
            .map(|m| (m.name.clone(), format!("{:+}", m.value), m.source.clone()))
            .collect(),
    )
}

/// A two-column table of (name, value, source) rows.
fn rows(title: &str, list: Vec<(String, String, String)>) -> RefSection {
    RefSection::table(
        title,
        &["Modifier", "Value"],
        list.into_iter()
            .map(|(n, v, s)| RefRow {
                cells: vec![n, v],
                source: s,
            })
            .collect(),
    )
}
