//! BBB fire: each front-rank base in range and arc adds its firing value for the range band;
//! the total is halved (cumulatively) and picks a column of the fire table, shifted left and
//! right; 2D6 read the result.

use super::status::own;
use super::tables::{FireResult, band, fire_column, fire_odds, low_ammo_chance, read_fire};
use super::{
    Arm, Bbb7yw, BbbEvent, Firing, Gun, HalvingKey, N, ShiftKey, illegal, layout, quality,
};
use crate::rules::battle::Battle;
use crate::rules::command::{Event, Factor, RuleError};
use crate::rules::geometry::{Base, Pt, segment_hits_base};
use crate::rules::model::{Ammo, Formation, Unit, UnitId};
use crate::rules::ruleset::bbb::{DEFENSIVE_FIRE, Flag, MOVEMENT, NoFire, OFFENSIVE_FIRE, Refusal};
use crate::rules::ruleset::view::{Chance, Outlook, OutlookPart, Roll};
use crate::rules::tagged::Kind;
use crate::rules::terrain::FeatureKind;

/// A firing worked out before the dice.
#[derive(Clone, Debug)]
pub struct FireSetup {
    pub shooter: Unit,
    pub target: Unit,
    /// Each base's contribution, in words ("base 1 at 2.5\": 2").
    pub lines: Vec<String>,
    pub value: f32,
    pub halvings: Vec<Factor>,
    pub shifts: Vec<Factor>,
    pub column: Option<usize>,
}

/// Which column of the fire table a firing was read on: what `Event::Salvo`'s column holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FireColumn {
    /// Below the first column, or shifted off its left: no effect.
    OffTheTable,
    /// The column headed by this fire value (the last column: this or more).
    Headed(f32),
}

impl Bbb7yw {
    /// The firing values row a base uses against this target, if it fires at all, and whether
    /// it fires with battalion guns.
    pub fn values_for(&self, s: &Unit, t: &Unit) -> Option<(&super::FireValues, bool)> {
        self.values_against(s, self.is_cavalry(t))
    }

    /// The firing values row a unit uses against cavalry (`cav_target`) or against infantry
    /// and guns, if it fires at all, and whether it fires with battalion guns. A unit whose
    /// troop code the data lacks (refused at load) has no row.
    pub fn values_against(&self, s: &Unit, cav_target: bool) -> Option<(&super::FireValues, bool)> {
        let row = |k: Firing| self.keys.fire_values.get(k);
        let troop = self.troop(s).ok()?;
        match troop.arm {
            Arm::Artillery => {
                let k = match troop.gun? {
                    Gun::Foot => Firing::FootArtillery,
                    Gun::Horse => Firing::HorseArtillery,
                    Gun::Heavy => Firing::HeavyArtillery,
                };
                Some((row(k), false))
            }
            Arm::Infantry => Some(if s.has(Flag::IneffectiveMusket) {
                (row(Firing::IneffectiveMusket), false)
            } else if cav_target {
                (row(Firing::MusketVCav), s.has(Flag::BattalionGuns))
            } else if s.has(Flag::Skirmish) {
                (row(Firing::SkVFoot), false)
            } else {
                (row(Firing::MusketVFoot), s.has(Flag::BattalionGuns))
            }),
            a if a.is_cavalry() && s.has(Flag::CavalryMusket) => {
                Some((row(Firing::CavalryMusket), false))
            }
            _ => None,
        }
    }

    /// Why the unit cannot fire now at all, or Ok.
    pub fn may_fire(&self, b: &Battle, s: &Unit) -> Result<(), RuleError> {
        let defensive = match b.phase {
            DEFENSIVE_FIRE => true,
            OFFENSIVE_FIRE => false,
            _ => {
                return Err(RuleError::WrongPhase {
                    command: "fire".into(),
                    phase: b.phase,
                });
            }
        };
        if defensive == (s.side == b.active) {
            return illegal(
                Refusal::NotItsFireStep,
                format!(
                    "{} fires in the {} fire step",
                    s.name,
                    if s.side == b.active {
                        "offensive"
                    } else {
                        "defensive"
                    }
                ),
            );
        }
        if s.bound.fired && !defensive {
            return illegal(
                Refusal::AlreadyFiredThisTurn,
                format!("{} has already fired this turn", s.name),
            );
        }
        if defensive && self.fired_this_phase(b, &s.id) {
            return illegal(
                Refusal::AlreadyFiredThisStep,
                format!("{} has already fired this step", s.name),
            );
        }
        if self.is_general(s) {
            return illegal(Refusal::GeneralsDoNotFire, "generals do not fire".into());
        }
        if self.is_artillery(s) {
            if s.status.limbered {
                return illegal(Refusal::Limbered, format!("{} is limbered", s.name));
            }
            if own(s).silenced {
                return illegal(Refusal::Silenced, format!("{} is silenced", s.name));
            }
            if !defensive && s.bound.moved {
                let horse = self.troop(s)?.gun == Some(Gun::Horse);
                let near = self.moved_inches(b, s) <= self.n(N::HorseUnlimberMove) + 0.01;
                if !(horse && near && s.bound.limber_changed && !s.status.limbered)
                    || self.manhandled(b, s)
                {
                    return illegal(
                        Refusal::MovedAndMayNotFire,
                        format!(
                            "{} moved this turn: only horse artillery that moved up to 6\" and unlimbered may fire, and manhandled guns never",
                            s.name
                        ),
                    );
                }
            }
        }
        if !defensive && !self.in_contact(b, s).is_empty() {
            return illegal(
                Refusal::InContactAssaultsInstead,
                format!(
                    "{} is in contact with the enemy: it assaults instead{}",
                    s.name,
                    if s.bound.charged {
                        ""
                    } else {
                        " (by its command roll and 'Assault … where it stands' in the movement step)"
                    }
                ),
            );
        }
        Ok(())
    }

    /// Whether the guns moved unlimbered (were manhandled) in this turn's movement step.
    pub fn manhandled(&self, b: &Battle, s: &Unit) -> bool {
        // Read back from now: before an Unlimbered event the guns were limbered, before a
        // Limbered event unlimbered.
        let mut limbered = s.status.limbered;
        for e in b.log.iter().rev() {
            match e {
                Event::PhaseBegan {
                    phase: MOVEMENT, ..
                } => break,
                Event::Moved { unit, .. } if *unit == s.id && !limbered => return true,
                Event::Unlimbered { unit } if *unit == s.id => limbered = true,
                Event::Limbered { unit } if *unit == s.id => limbered = false,
                _ => {}
            }
        }
        false
    }

    fn fired_this_phase(&self, b: &Battle, id: &UnitId) -> bool {
        b.log
            .iter()
            .rev()
            .take_while(|e| !matches!(e, Event::PhaseBegan { .. }))
            .any(|e| matches!(e.own(), Some(BbbEvent::Salvo { shooter, .. }) if shooter == id))
    }

    /// Sight from a point to a target base: slopes (a hill between, higher than both ends)
    /// block; woods and towns block beyond 3" inside them; units between block unless the
    /// firer stands on a hill above them with a 3" gap either side.
    pub fn sight(&self, b: &Battle, s: &Unit, from: Pt, t: &Unit) -> Result<(), (NoFire, String)> {
        let to = crate::rules::ruleset::old_dessauer::nearest_point(&t.base, from);
        let lvl_from = b.terrain.level_at(from);
        let lvl_to = b.terrain.level_at(to);
        let n = 24;
        let mut inside: Vec<(String, f32)> = Vec::new();
        for k in 1..n {
            let p = from.lerp(to, k as f32 / n as f32);
            let l = b.terrain.level_at(p);
            if l > lvl_from && l > lvl_to {
                return Err((NoFire::Slope, "a slope between blocks the view".into()));
            }
        }
        for f in b
            .terrain
            .features
            .iter()
            .filter(|f| matches!(f.kind, FeatureKind::Woods | FeatureKind::Town))
        {
            let len = f.inside_length(from, to);
            if len > 0.0 {
                inside.push((f.name.clone(), len));
            }
        }
        let cover = b.scale.to_mm(self.n(N::CoverSight));
        if let Some((name, _)) = inside.iter().find(|(_, l)| *l > cover + 0.5) {
            return Err((
                NoFire::Cover,
                format!("{name} blocks the view beyond 3\" inside it"),
            ));
        }
        let gap = b.scale.to_mm(self.n(N::HillFireGap));
        for o in b
            .alive()
            .filter(|o| o.id != s.id && o.id != t.id && !self.is_general(o))
        {
            if !segment_hits_base(from, to, &o.base) {
                continue;
            }
            // Over a lower friend from a hill (ruling hill_fire_over), with a 3" gap either side of that friend (to
            // the firer and to the target, and to any other unit beside it).
            let over = o.side == s.side
                && lvl_from > b.terrain.level_at(o.base.centre)
                && o.base.distance(&s.base) >= gap
                && o.base.distance(&t.base) >= gap
                && b.alive()
                    .all(|x| x.id == o.id || self.is_general(x) || x.base.distance(&o.base) >= gap);
            if !over {
                return Err((NoFire::UnitInTheWay, format!("{} is in the way", o.name)));
            }
        }
        Ok(())
    }

    /// Checks a firing and works out its fire value, halvings, shifts and column.
    pub fn fire_setup(
        &self,
        b: &Battle,
        sid: &UnitId,
        tid: &UnitId,
    ) -> Result<FireSetup, RuleError> {
        let s = b.unit(sid)?.clone();
        let t = b.unit(tid)?.clone();
        if !s.alive() || !t.alive() {
            return illegal(
                Refusal::NotOnTable,
                "both units must be on the table".into(),
            );
        }
        self.may_fire(b, &s)?;
        self.may_fire_at(b, &t, &s)?;
        let Some((row, bg)) = self.values_for(&s, &t) else {
            return illegal(
                Refusal::NoFireAgainst,
                format!("{} has no fire against {}", s.name, t.name),
            );
        };
        let values = if bg {
            row.with_bg.clone().unwrap_or_else(|| row.values.clone())
        } else {
            row.values.clone()
        };
        let (value, lines) = self.fire_value(b, &s, &t, &values)?;
        let halvings = self.halvings(&s, b.phase == DEFENSIVE_FIRE);
        let shifts = self.shifts(b, &s, &t);
        let net: i32 = shifts.iter().map(|f| f.value).sum();
        let column = fire_column(&self.data, value, halvings.len() as u32, net);
        Ok(FireSetup {
            shooter: s,
            target: t,
            lines,
            value,
            halvings,
            shifts,
            column,
        })
    }

    /// Whether `t` may be fired at by `s`: an enemy, not a general, and in defensive fire one
    /// that moved or assaults.
    fn may_fire_at(&self, b: &Battle, t: &Unit, s: &Unit) -> Result<(), RuleError> {
        if t.side == s.side {
            return illegal(Refusal::TargetIsAFriend, format!("{} is a friend", t.name));
        }
        if self.is_general(t) {
            return illegal(
                Refusal::GeneralsAreNotFiredAt,
                format!("{} is a general: generals are not fired at", t.name),
            );
        }
        let defensive = b.phase == DEFENSIVE_FIRE;
        // A formation change, limbering or a pivot uses the move: it counts as moving (ruling
        // defensive_fire).
        if defensive
            && !t.bound.moved
            && !t.bound.charged
            && !t.bound.formed
            && !t.bound.limber_changed
        {
            return illegal(
                Refusal::TargetHasNotMoved,
                format!(
                    "defensive fire is at units that moved or assault: {} has not moved",
                    t.name
                ),
            );
        }
        Ok(())
    }

    /// The fire value: what each front-rank base with the target in range, arc and sight
    /// adds for its band, with each base's part in words.
    fn fire_value(
        &self,
        b: &Battle,
        s: &Unit,
        t: &Unit,
        values: &[f32],
    ) -> Result<(f32, Vec<String>), RuleError> {
        let half = self.n(N::FrontArc);
        let size = self.base_of(s)?;
        let mut lines = Vec::new();
        let mut value = 0.0f32;
        let mut why_not = None;
        for (i, base) in layout::front_rank(s, size).iter().enumerate() {
            let dist = b.scale.from_mm(base.front_edge_distance(&t.base));
            let Some(k) = band(&self.data.bands, dist) else {
                why_not.get_or_insert((NoFire::OutOfRange, format!("out of range ({dist:.1}\")")));
                continue;
            };
            if !base.in_arc(&t.base, half) {
                why_not
                    .get_or_insert((NoFire::OutsideFrontArc, "outside the front arc".to_string()));
                continue;
            }
            if let Err(e) = self.sight(b, s, base.front_centre(), t) {
                why_not.get_or_insert(e);
                continue;
            }
            let v = values.get(k).copied().unwrap_or(0.0);
            if v <= 0.0 {
                why_not
                    .get_or_insert((NoFire::NoFireValue, format!("no fire value at {dist:.1}\"")));
                continue;
            }
            value += v;
            lines.push(format!(
                "base {} at {dist:.1}\" ({}\" band): {v}",
                i + 1,
                self.data.bands[k]
            ));
        }
        if value <= 0.0 {
            let (why, words) = why_not.unwrap_or_else(|| (NoFire::NoBase, "no base can".into()));
            return illegal(
                Refusal::CannotFireAt(why),
                format!("{} cannot fire at {}: {words}", s.name, t.name),
            );
        }
        Ok((value, lines))
    }

    /// The halvings of the firer's value (cumulative).
    fn halvings(&self, s: &Unit, defensive: bool) -> Vec<Factor> {
        let mut halvings = Vec::new();
        let halve = |k: HalvingKey| self.keys.fire_halvings.get(k).clone();
        if s.status.disordered {
            halvings.push(halve(HalvingKey::Disrupted));
        }
        if s.status.ammo == Ammo::Low {
            halvings.push(halve(HalvingKey::LowAmmo));
        }
        if self.reduced(s) {
            halvings.push(halve(HalvingKey::Reduced));
        }
        if self.is_artillery(s) && !defensive {
            if s.bound.moved && s.bound.limber_changed {
                halvings.push(halve(HalvingKey::HorseMoved));
            } else if s.bound.limber_changed || s.bound.formed {
                halvings.push(halve(HalvingKey::Pivoted));
            }
        }
        halvings
    }

    /// The column shifts of a firing, left negative.
    fn shifts(&self, b: &Battle, s: &Unit, t: &Unit) -> Vec<Factor> {
        let mut shifts = Vec::new();
        let shift = |k: ShiftKey| self.keys.fire_shifts.get(k).clone();
        if s.has(Flag::Ragged) {
            shifts.push(shift(ShiftKey::Ragged));
        }
        let kinds = self.terrain_at(b, t);
        let fort = b
            .terrain
            .at(t.base.centre, &[FeatureKind::Fortification])
            .any(|f| f.fortified);
        if fort {
            shifts.push(shift(ShiftKey::Fort));
        } else if kinds
            .iter()
            .any(|k| matches!(k, FeatureKind::Town | FeatureKind::Fortification))
        {
            shifts.push(shift(ShiftKey::TownEntrenched));
        } else if kinds
            .iter()
            .any(|k| matches!(k, FeatureKind::Woods | FeatureKind::Village))
        {
            shifts.push(shift(ShiftKey::WoodVillage));
        }
        if s.has(Flag::Devastating) {
            shifts.push(shift(ShiftKey::Devastating));
        }
        if s.has(Flag::EliteCompanies) {
            shifts.push(shift(ShiftKey::EliteCompanies));
        }
        if t.has(Flag::Inept) {
            shifts.push(shift(ShiftKey::IneptTarget));
        }
        let exposed = b.terrain.on_bridge(&t.base)
            || t.formation == Formation::Column
            || (self.is_artillery(t) && t.status.limbered)
            || t.base.behind_front_line(s.base.front_centre());
        if exposed {
            shifts.push(shift(ShiftKey::TargetExposed));
        }
        shifts
    }

    /// The column a firing is read on, typed: the column's heading, or off the table.
    pub fn column_of(&self, c: Option<usize>) -> FireColumn {
        match c {
            Some(i) => FireColumn::Headed(self.data.fire_columns[i]),
            None => FireColumn::OffTheTable,
        }
    }

    /// The column in words ("the 6 column", "off the table").
    pub fn column_words(&self, c: Option<usize>) -> String {
        match c {
            Some(i) => {
                let v = self.data.fire_columns[i];
                if i + 1 == self.data.fire_columns.len() {
                    format!("the {v}+ column")
                } else {
                    format!("the {v} column")
                }
            }
            None => "off the left of the table (no effect)".into(),
        }
    }

    /// A fire result in words, for this target.
    pub fn result_words(&self, r: FireResult, t: &Unit, low: bool) -> String {
        let art = self.is_artillery(t);
        let mut s = match r {
            FireResult::Nothing => "no effect".to_string(),
            FireResult::R | FireResult::T | FireResult::V if art => {
                format!("{}: disrupted and silenced", r.code())
            }
            FireResult::R => "R: disrupted; Raw units halted in an assault".into(),
            FireResult::T => "T: disrupted; Raw and Trained units halted in an assault".into(),
            FireResult::V => "V: disrupted; halted in an assault".into(),
            FireResult::Bases(n) if art => {
                if t.status.hits + u32::from(n) >= self.n(N::ArtilleryDestroyedHits) as u32 {
                    format!("{n}: destroyed")
                } else {
                    format!("{n}: reduced, disrupted and silenced")
                }
            }
            FireResult::Bases(n) => format!("{n}: {n} base(s) lost, disrupted and halted"),
        };
        if low {
            s.push_str("; the firer is low on ammunition");
        }
        s
    }

    pub fn fire(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        sid: &UnitId,
        tid: &UnitId,
    ) -> Result<(), RuleError> {
        let f = self.fire_setup(b, sid, tid)?;
        let dice = vec![b.d6()?, b.d6()?];
        let roll: i32 = dice.iter().map(|d| i32::from(*d)).sum();
        let (result, low) = read_fire(&self.data, f.column, roll);
        let mut factors: Vec<Factor> = f
            .lines
            .iter()
            .map(|l| Factor {
                name: l.clone(),
                value: 0,
                source: "001 Firing Values Table".into(),
            })
            .collect();
        factors.extend(f.halvings.iter().cloned());
        factors.extend(f.shifts.iter().cloned());
        let halved = f.value * 0.5f32.powi(f.halvings.len() as i32);
        let value = if f.halvings.is_empty() {
            format!("fire value {}", f.value)
        } else {
            format!("fire value {}, halved to {halved}", f.value)
        };
        let outcome = match f.column {
            Some(_) => format!(
                "{value} on {}: {}",
                self.column_words(f.column),
                self.result_words(result, &f.target, low)
            ),
            None => format!(
                "{value}: {}{}",
                self.column_words(f.column),
                if low {
                    "; the firer is low on ammunition"
                } else {
                    ""
                }
            ),
        };
        b.emit(
            out,
            BbbEvent::Salvo {
                shooter: sid.clone(),
                target: tid.clone(),
                roll: Roll {
                    unit: Some(sid.clone()),
                    side: Some(f.shooter.side),
                    dice,
                    factors,
                    total: roll,
                    against: None,
                    need: None,
                    outcome,
                    first_die: None,
                    dice_at: Vec::new(),
                },
                column: Kind::new(self.column_of(f.column)),
            },
        );
        if low && f.shooter.status.ammo != Ammo::Low {
            b.emit(
                out,
                Event::Supply {
                    unit: sid.clone(),
                    ammo: Ammo::Low,
                    packs: f.shooter.status.packs,
                    why: format!("threw {roll} firing"),
                },
            );
        }
        self.apply_fire(b, out, &f.target, result)
    }

    /// A fire result's effects on its target.
    fn apply_fire(
        &self,
        b: &mut Battle,
        out: &mut Vec<Event>,
        t: &Unit,
        r: FireResult,
    ) -> Result<(), RuleError> {
        if r == FireResult::Nothing {
            return Ok(());
        }
        let id = &t.id;
        let why = format!("a fire result of {}", r.code());
        self.disrupt(b, out, id, &why);
        self.silence(b, out, id, &why);
        if r.bases() > 0 {
            self.lose_bases(b, out, id, r.bases(), "fire")?;
        }
        // An assaulting unit may be halted.
        let now = b.unit(id)?.clone();
        if now.alive()
            && b.phase == DEFENSIVE_FIRE
            && now.bound.charged
            && !now.bound.halted
            && r.halts(quality(now.class))
        {
            b.emit(
                out,
                Event::Halted {
                    unit: id.clone(),
                    why: format!(
                        "a fire result of {} halts a {} unit",
                        r.code(),
                        super::quality_name(quality(now.class))
                    )
                    .into(),
                },
            );
            // It stops short: back out of contact by half an inch.
            let mut to: Base = now.base;
            to.centre = now.base.centre.minus(
                now.base
                    .forward()
                    .scale(b.scale.to_mm(self.n(N::HaltedFallBack))),
            );
            b.emit(
                out,
                Event::Recoiled {
                    unit: id.clone(),
                    from: now.base,
                    to,
                    voluntary: true,
                },
            );
        }
        Ok(())
    }

    /// The outlook of a firing: the fire value by base, each halving and shift, the column,
    /// and the chance of each result.
    pub fn fire_outlook(
        &self,
        b: &Battle,
        sid: &UnitId,
        tid: &UnitId,
    ) -> Result<Outlook, RuleError> {
        let f = self.fire_setup(b, sid, tid)?;
        let mut factors: Vec<Factor> = f
            .lines
            .iter()
            .map(|l| Factor {
                name: l.clone(),
                value: 0,
                source: "001 Firing Values Table".into(),
            })
            .collect();
        factors.extend(f.halvings.iter().cloned());
        factors.extend(f.shifts.iter().cloned());
        let halved = f.value * 0.5f32.powi(f.halvings.len() as i32);
        let net: i32 = f.shifts.iter().map(|s| s.value).sum();
        let summary = format!(
            "fire value {}{}{}: {} · 2D6",
            f.value,
            if f.halvings.is_empty() {
                String::new()
            } else {
                format!(", halved to {halved}")
            },
            if net == 0 {
                String::new()
            } else {
                format!(", {net:+} column(s)")
            },
            self.column_words(f.column)
        );
        let chances = fire_odds(&self.data, f.column)
            .into_iter()
            .rev()
            .map(|(r, p)| Chance {
                outcome: self.result_words(r, &f.target, false),
                chance: p,
                edge: r.worth(),
            })
            .collect();
        Ok(Outlook {
            parts: vec![OutlookPart {
                heading: format!("{} fires at {}", f.shooter.name, f.target.name),
                factors,
                dice: 2,
                need: None,
                summary,
            }],
            opposed: false,
            // A battery already low is not warned of becoming so.
            notes: vec![if f.shooter.status.ammo == Ammo::Low {
                format!(
                    "{} is already low on ammunition: a 12 or 11 changes nothing more.",
                    f.shooter.name
                )
            } else {
                format!(
                    "A 12 or 11 leaves {} low on ammunition ({:.0}%).",
                    f.shooter.name,
                    low_ammo_chance(&self.data) * 100.0
                )
            }],
            chances,
            choices: Vec::new(),
        })
    }
}
