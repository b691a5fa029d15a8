//! BBB assaults: a unit that moved into contact and was not halted by defensive fire fights;
//! each side rolls 1D6 with its advantages and penalties, and the difference is read on the
//! assault table: bases lost, retiring, disruption, exploiting or occupying, or a refight.

use super::tables::{assault_odds, assault_row, ratio};
use super::{After, Arm, AssaultMod, Bbb7yw, Disrupts, N, Retire, illegal, in_phase};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, RuleError, factor_sum};
use crate::rules::geometry::Base;
use crate::rules::model::{Class, Formation, Unit, UnitId};
use crate::rules::ruleset::bbb::{ASSAULT, Flag, Refusal};
use crate::rules::ruleset::view::{Chance, Outlook, OutlookPart, Roll};
use crate::rules::terrain::FeatureKind;

impl Bbb7yw {
    /// Assaults waiting to be resolved: the moving side's units that moved into contact this
    /// turn, were not halted and have not fought, each with the enemy it touches.
    pub fn pending_assaults(&self, b: &Battle) -> Vec<(UnitId, UnitId)> {
        b.alive()
            .filter(|u| u.side == b.active && u.bound.charged && !u.bound.halted && !u.bound.fought)
            .filter_map(|u| {
                self.in_contact(b, u)
                    .into_iter()
                    .next()
                    .map(|e| (u.id.clone(), e.id.clone()))
            })
            .collect()
    }

    /// One side's advantages and penalties in an assault.
    pub fn assault_modifiers(&self, b: &Battle, u: &Unit, e: &Unit, attacker: bool) -> Vec<Factor> {
        let mut f = Vec::new();
        if let Some(k) = ratio(u.stands.len() as u32, e.stands.len() as u32) {
            let mut x = self.assault_factor(k);
            x.name = format!(
                "{} ({} bases to {})",
                x.name,
                u.stands.len(),
                e.stands.len()
            );
            f.push(x);
        }
        if u.class == Class::Elite || u.class == Class::Superior {
            f.push(self.assault_factor(AssaultMod::Veteran));
        }
        if self.arm(u) == Some(Arm::HeavyCavalry) {
            f.push(self.assault_factor(AssaultMod::HeavyCavalry));
        }
        if attacker && u.has(Flag::Aggressive) {
            f.push(self.assault_factor(AssaultMod::Aggressive));
        }
        if u.formation == Formation::Deep {
            f.push(self.assault_factor(AssaultMod::InDepth));
        }
        if u.has(Flag::Lancer) && self.is_infantry(e) {
            f.push(self.assault_factor(AssaultMod::Lancers));
        }
        // Outflanking: its front centre behind the enemy's front line.
        if e.base.behind_front_line(u.base.front_centre()) {
            f.push(self.assault_factor(AssaultMod::Outflanking));
        }
        if u.status.disordered {
            f.push(self.assault_factor(AssaultMod::Disrupted));
        }
        if u.class == Class::Militia {
            f.push(self.assault_factor(AssaultMod::Raw));
        }
        if u.has(Flag::Fragile) {
            f.push(self.assault_factor(AssaultMod::Fragile));
        }
        if self.spent(u) {
            f.push(self.assault_factor(AssaultMod::Spent));
        }
        if matches!(self.arm(u), Some(Arm::LightCavalry | Arm::IrregularCavalry)) {
            f.push(self.assault_factor(AssaultMod::LightCavalry));
        }
        if attacker {
            // The defender's ground (ruling assault_terrain).
            let kinds = self.terrain_at(b, e);
            let fort = b
                .terrain
                .at(e.base.centre, &[FeatureKind::Fortification])
                .any(|x| x.fortified);
            if fort {
                f.push(self.assault_factor(AssaultMod::Fort));
            } else if kinds
                .iter()
                .any(|k| matches!(k, FeatureKind::Town | FeatureKind::Fortification))
                || self.over_bridge(b, u, e)
            {
                f.push(self.assault_factor(AssaultMod::TownBridgeTrench));
            } else if kinds.iter().any(|k| {
                matches!(
                    k,
                    FeatureKind::Village | FeatureKind::Woods | FeatureKind::Marsh
                )
            }) {
                f.push(self.assault_factor(AssaultMod::VillageWoodMarsh));
            }
            let uphill = b.terrain.uphill_of(e.base.centre, u.base.centre);
            let steep = uphill
                && b.terrain
                    .at(e.base.centre, &[FeatureKind::Hill])
                    .any(|h| h.steep);
            if steep {
                f.push(self.assault_factor(AssaultMod::SteepSlope));
            } else if uphill || (self.crossed_stream_near(b, u, e) && !self.over_bridge(b, u, e)) {
                f.push(self.assault_factor(AssaultMod::StreamOrSlope));
            }
        }
        f
    }

    /// The attacker assaults over a bridge: it stands on one, or its way from where it began
    /// the turn crossed water (a river or stream) by a bridge within 6" of the defender, as
    /// the stream's -1 asks of a stream (ruling assault_terrain).
    pub fn over_bridge(&self, b: &Battle, u: &Unit, e: &Unit) -> bool {
        let bridges = || {
            b.terrain
                .features
                .iter()
                .filter(|f| f.kind == FeatureKind::Bridge)
        };
        if bridges().any(|f| f.contains(u.base.centre)) {
            return true;
        }
        let Some(start) = u.bound.turn_start else {
            return false;
        };
        let (p, q) = (start.centre, u.base.centre);
        let near = self.grown(b, e);
        bridges().any(|br| {
            br.crossed_by(p, q)
                && br.touches(&near)
                && b.terrain.features.iter().any(|w| {
                    matches!(w.kind, FeatureKind::River | FeatureKind::Stream)
                        && w.crossed_by(p, q)
                        && br.points.windows(2).any(|s| w.crossed_by(s[0], s[1]))
                })
        })
    }

    /// The ground within 6" of a unit (the stream's distance in an assault).
    fn grown(&self, b: &Battle, e: &Unit) -> Base {
        let r = b.scale.to_mm(self.n(N::StreamAssaultDistance));
        Base {
            width: e.base.width + 2.0 * r,
            depth: e.base.depth + 2.0 * r,
            ..e.base
        }
    }

    /// The attacker crossed a stream this turn, and the defender stands within 6" of it.
    fn crossed_stream_near(&self, b: &Battle, u: &Unit, e: &Unit) -> bool {
        let Some(start) = u.bound.turn_start else {
            return false;
        };
        let near = self.grown(b, e);
        b.terrain
            .features
            .iter()
            .filter(|f| f.kind == FeatureKind::Stream)
            .any(|f| f.crossed_by(start.centre, u.base.centre) && f.touches(&near))
    }

    /// Checks an assault and works out both sides' modifiers.
    pub fn assault_setup(
        &self,
        b: &Battle,
        aid: &UnitId,
        did: &UnitId,
    ) -> Result<(Unit, Unit, Vec<Factor>, Vec<Factor>), RuleError> {
        in_phase(b, ASSAULT, "assault")?;
        let a = b.unit(aid)?.clone();
        let d = b.unit(did)?.clone();
        if a.side != b.active {
            return illegal(
                Refusal::NotOfMovingSide,
                format!("{} is not of the moving side", a.name),
            );
        }
        if !a.bound.charged {
            // A unit that stands in contact without having moved into it began the turn
            // there: the way to assault is its command roll and a move into contact where it
            // stands (ruling assault).
            let how = if self.in_contact(b, &a).is_empty() {
                String::new()
            } else {
                ": one that began the turn in contact assaults by its command roll and 'Assault … where it stands' in the movement step".into()
            };
            return illegal(
                Refusal::NoContactMoveThisTurn,
                format!(
                    "{} did not move into contact this turn: only units that did assault{how}",
                    a.name
                ),
            );
        }
        if self.is_artillery(&a) {
            return illegal(
                Refusal::ArtilleryDoesNotAssault,
                format!("{}: artillery does not assault", a.name),
            );
        }
        if a.bound.halted {
            return illegal(
                Refusal::HaltedByDefensiveFire,
                format!("{} was halted by defensive fire", a.name),
            );
        }
        if a.bound.fought {
            return illegal(
                Refusal::AlreadyAssaulted,
                format!("{} has already assaulted this turn", a.name),
            );
        }
        if !self.in_contact(b, &a).iter().any(|e| e.id == d.id) {
            return illegal(
                Refusal::NotInContact,
                format!("{} is not in contact with {}", a.name, d.name),
            );
        }
        let fa = self.assault_modifiers(b, &a, &d, true);
        let fd = self.assault_modifiers(b, &d, &a, false);
        Ok((a, d, fa, fd))
    }

    /// Resolves an assault (and its refights); `exploit` chooses to exploit (true, the
    /// default) or occupy where the table leaves the choice.
    pub fn assault(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        aid: &UnitId,
        did: &UnitId,
        exploit: Option<bool>,
    ) -> Result<(), RuleError> {
        self.assault_setup(b, aid, did)?;
        for _round in 0..10 {
            let (a, d, fa, fd) = {
                let a = b.unit(aid)?.clone();
                let d = b.unit(did)?.clone();
                let fa = self.assault_modifiers(b, &a, &d, true);
                let fd = self.assault_modifiers(b, &d, &a, false);
                (a, d, fa, fd)
            };
            let da = b.d6()?;
            let dd = b.d6()?;
            let sa = i32::from(da) + factor_sum(&fa);
            let sd = i32::from(dd) + factor_sum(&fd);
            let diff = sa - sd;
            let row = assault_row(&self.data, diff).clone();
            let words = self.row_words(&row);
            let roll = |u: &Unit, die: u8, f: Vec<Factor>, total: i32| Roll {
                side: Some(u.side),
                ..Roll::of_unit(&u.id, vec![die], &f, total)
            };
            b.emit(
                out,
                Event::Assault {
                    attacker: aid.clone(),
                    defender: did.clone(),
                    attacker_roll: Box::new(roll(&a, da, fa, sa)),
                    defender_roll: Box::new(roll(&d, dd, fd, sd)),
                    difference: diff,
                    outcome: words,
                },
            );
            // Disruption.
            let dis = |b: &mut Battle, out: &mut Vec<Event>, id: &UnitId| {
                self.disrupt(b, out, id, "the assault");
            };
            match row.disrupted {
                Disrupts::Attacker => dis(b, out, aid),
                Disrupts::Defender => dis(b, out, did),
                Disrupts::Both => {
                    dis(b, out, aid);
                    dis(b, out, did);
                }
            }
            self.lose_bases(b, out, did, row.defender_loses, "the assault")?;
            self.lose_bases(b, out, aid, row.attacker_loses, "the assault")?;
            let before = b.unit(did)?.base;
            self.retire_by(b, out, did, row.defender_retires, aid)?;
            self.retire_by(b, out, aid, row.attacker_retires, did)?;
            let both = b.unit(aid)?.alive() && b.unit(did)?.alive();
            match row.after {
                After::Refight if both => continue,
                After::MustExploit => self.advance_after(b, out, aid, before, true)?,
                After::MayExploitOrOccupy => {
                    self.advance_after(b, out, aid, before, exploit.unwrap_or(true))?
                }
                After::MustOccupy => self.advance_after(b, out, aid, before, false)?,
                _ => {}
            }
            break;
        }
        Ok(())
    }

    fn retire_by(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        r: Retire,
        from: &UnitId,
    ) -> Result<(), RuleError> {
        let Ok(u) = b.unit(id) else { return Ok(()) };
        if !u.alive() {
            return Ok(());
        }
        let inches = match r {
            Retire::Stay => return Ok(()),
            Retire::Inches(n) => n,
            Retire::Full => self.full_move(u)?,
        };
        self.retire(b, out, id, inches, Some(from), "the assault")
    }

    /// After the defender retires: occupy (advance to where the defender's front stood) or
    /// exploit (advance straight ahead up to half a move, stopping at contact).
    fn advance_after(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        aid: &UnitId,
        defender_was: Base,
        exploit: bool,
    ) -> Result<(), RuleError> {
        let a = b.unit(aid)?.clone();
        if !a.alive() {
            return Ok(());
        }
        let fwd = a.base.forward();
        let to_front = defender_was.centre.minus(a.base.front_centre()).dot(fwd)
            - defender_was.depth / 2.0
            + defender_was.depth;
        let limit = if exploit {
            b.scale
                .to_mm(self.full_move(&a)? * self.n(N::ExploitFraction))
        } else {
            to_front.max(0.0)
        };
        let steps = 40;
        let mut best = a.base;
        for k in 1..=steps {
            let mut t = a.base;
            t.centre = a
                .base
                .centre
                .plus(fwd.scale(limit * k as f32 / steps as f32));
            let blocked = b
                .alive()
                .any(|o| o.id != a.id && !self.is_general(o) && o.base.overlaps(&t))
                || !t.corners().iter().all(|p| {
                    p.x >= 0.0 && p.y >= 0.0 && p.x <= b.table.width && p.y <= b.table.height
                });
            if blocked {
                break;
            }
            best = t;
        }
        if best.centre.dist(a.base.centre) < 0.5 {
            return Ok(());
        }
        b.emit(
            out,
            Event::Recoiled {
                unit: aid.clone(),
                from: a.base,
                to: best,
                voluntary: true,
            },
        );
        Ok(())
    }

    /// An assault table row in words.
    pub fn row_words(&self, r: &super::AssaultRow) -> String {
        let retire = |x: Retire| match x {
            Retire::Stay => None,
            Retire::Inches(n) => Some(format!("retires {n}\"")),
            Retire::Full => Some("retires a full move".into()),
        };
        let mut parts = Vec::new();
        if r.defender_loses > 0 {
            parts.push(format!("defender loses {} base(s)", r.defender_loses));
        }
        if let Some(t) = retire(r.defender_retires) {
            parts.push(format!("defender {t}"));
        }
        if r.attacker_loses > 0 {
            parts.push(format!("attacker loses {} base(s)", r.attacker_loses));
        }
        if let Some(t) = retire(r.attacker_retires) {
            parts.push(format!("attacker {t}"));
        }
        parts.push(
            match r.disrupted {
                Disrupts::Both => "both disrupted",
                Disrupts::Attacker => "only the attacker disrupted",
                Disrupts::Defender => "only the defender disrupted",
            }
            .into(),
        );
        match r.after {
            After::MustExploit => parts.push("attacker must exploit".into()),
            After::MayExploitOrOccupy => parts.push("attacker may exploit or occupy".into()),
            After::MustOccupy => parts.push("attacker must occupy".into()),
            After::Refight => parts.push("refight at once".into()),
            After::Hold => {}
        }
        parts.join(", ")
    }

    /// The outlook of an assault: both sides' modifiers and the chance of each table row.
    pub fn assault_outlook(
        &self,
        b: &Battle,
        aid: &UnitId,
        did: &UnitId,
        exploit: Option<bool>,
    ) -> Result<Outlook, RuleError> {
        let (a, d, fa, fd) = self.assault_setup(b, aid, did)?;
        let (ma, md) = (factor_sum(&fa), factor_sum(&fd));
        let odds = assault_odds(&self.data, ma, md);
        let part = |u: &Unit, f: Vec<Factor>, m: i32| OutlookPart {
            heading: u.name.clone(),
            factors: f,
            dice: 1,
            need: None,
            summary: format!("= {m:+} + die"),
        };
        let chances = self
            .data
            .assault_table
            .iter()
            .zip(odds)
            .filter(|(_, p)| *p > 0.0)
            .map(|(r, p)| Chance {
                outcome: format!(
                    "{}: {}",
                    match (r.min, r.max) {
                        (lo, hi) if hi >= 99 => format!("{lo:+} or more"),
                        (lo, hi) if lo <= -99 => format!("{hi:+} or less"),
                        (lo, hi) if lo == hi => format!("{lo:+}"),
                        (lo, hi) => format!("{lo:+} to {hi:+}"),
                    },
                    self.row_words(r)
                ),
                chance: p,
                edge: r.worth(),
            })
            .collect();
        Ok(Outlook {
            parts: vec![part(&a, fa, ma), part(&d, fd, md)],
            opposed: true,
            notes: vec![
                "Attacker's score minus defender's is read on the assault table; on 0 both lose a base and fight again at once.".into(),
            ],
            chances,
            choices: vec![crate::rules::ruleset::view::Choice {
                label: "Exploit (rather than occupy) where the table gives the choice".into(),
                on: exploit != Some(false),
                flipped: crate::rules::command::Command::Fight {
                    unit: aid.clone(),
                    target: did.clone(),
                    pursue: Some(exploit == Some(false)),
                    pursuits: Vec::new(),
                },
            }],
        })
    }
}
