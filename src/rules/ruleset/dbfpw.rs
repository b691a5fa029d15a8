//! DBFPW on the DBN engine: breech-loaders and long-range fire, the mitrailleuse, skirmishing
//! cavalry that dismount, lancers, Zouaves and Bavarians, second moves under artillery, the
//! optional ammunition supply with packs and caissons, divisional commanders for larger
//! battles, the national army lists and the standard table.

use super::dbn::{Dbn, Troop, TroopKind, TroopTrait};
use super::dbn_game::{Combat, DbnGame, FireRole, Follow, Supplement};
use super::view::{Action, ActionGroup, UnitState};
use crate::rules::battle::{Battle, Zone};
use crate::rules::command::{Command, Effect, Event, Factor, RuleError, Verdict};
use crate::rules::geometry::{Base, Pt};
use crate::rules::model::{Ammo, Class, Flag, Formation, Phase, SideInfo, Unit, UnitId};
use crate::rules::odds::Quirks;
use crate::rules::scenario::RawUnit;
use crate::rules::terrain::{Feature, FeatureKind, Terrain};
use std::collections::HashMap;

/// The ruleset's data, compiled into the program.
pub const DATA: &str = include_str!("../../../assets/rulesets/dbfpw.ron");

/// The optional ammunition supply rule.
pub const AMMUNITION: &str = "ammunition";
/// The optional rules for larger battles (DSCs, more packs).
pub const LARGER_BATTLES: &str = "larger_battles";

/// DBFPW on the DBN engine.
pub type Dbfpw = DbnGame<Fpw>;

/// What DBFPW makes its own on the DBN engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fpw;

/// Infantry of the line (any rifle).
fn is_infantry(u: &Unit) -> bool {
    matches!(u.troop.as_str(), "Inf" | "InfRM" | "InfBLR2")
}

/// Sharpshooters (any rifle).
fn is_ss(u: &Unit) -> bool {
    matches!(u.troop.as_str(), "SS" | "SSBLR2")
}

fn nation<'a>(b: &'a Battle, u: &Unit) -> &'a str {
    b.sides.get(u.side).map(|s| s.nation.as_str()).unwrap_or("")
}

fn is_french_nation(n: &str) -> bool {
    matches!(n, "imperial_french" | "republic_french")
}

fn is_german_nation(n: &str) -> bool {
    matches!(n, "german" | "prussia")
}

impl Fpw {
    /// Attacked first in flank or rear: by an enemy's charge or pursuit, in either side's
    /// bound (ruling front_and_flank).
    fn attacked_in_flank(b: &Battle, u: &Unit) -> bool {
        Dbn::attacked_first_in_flank(b, u)
    }

    /// Fights as Heavy Cavalry: HC, or Lancers not attacked first in flank or rear.
    fn fights_as_hc(b: &Battle, u: &Unit) -> bool {
        u.troop == "HC" || (u.has(Flag::Lancer) && !Self::attacked_in_flank(b, u))
    }

    /// In bad going for the results' "in BG" and "in GG": the going of the move rates (ruling
    /// going), towns and villages included. Only the firing and close combat factors leave a
    /// BUA or NLF out of bad going.
    fn in_bad_going_for_results(g: &Dbfpw, b: &Battle, u: &Unit) -> bool {
        g.dbn.in_bad_going(b, u)
            || b.terrain
                .at(u.base.centre, &[FeatureKind::Town, FeatureKind::Village])
                .next()
                .is_some()
    }

    /// German artillery: any artillery of a German side (not the Mitrailleuse).
    fn is_german_artillery(g: &Dbfpw, b: &Battle, u: &Unit) -> bool {
        g.dbn.is_artillery(u) && u.troop != "Mit" && is_german_nation(nation(b, u))
    }

    /// At long range: beyond effective range.
    fn at_long_range(g: &Dbfpw, b: &Battle, u: &Unit, other: &Unit) -> bool {
        let dist = b.scale.from_mm(u.base.front_edge_distance(&other.base));
        g.dbn.range(u).is_some_and(|r| dist > r + 0.5)
    }

    /// Moved at the road rate this bound.
    fn used_road(b: &Battle, u: &Unit) -> bool {
        b.log_since_bound().iter().any(
            |e| matches!(e, Event::Moved { unit, going, .. } if unit == &u.id && going == "road"),
        )
    }

    /// The packs a unit of this type starts with and may carry in an army list (002 Ammunition
    /// Supply): baggage trains and caissons 4, horse artillery 1 (2 in larger battles), other
    /// artillery and Mitrailleuses 1 in larger battles, everyone else none.
    fn pack_allowance(g: &Dbfpw, t: &Troop) -> u32 {
        let d = &g.dbn;
        let larger = g.has_option(LARGER_BATTLES);
        let n = if t.traits.contains(&TroopTrait::Supplier) {
            d.num("packs_supplier")
        } else if t.code == "HA" {
            d.num(if larger {
                "packs_ha_larger"
            } else {
                "packs_ha"
            })
        } else if t.kind == TroopKind::Artillery && larger {
            d.num("packs_guns_larger")
        } else {
            0.0
        };
        n as u32
    }

    /// Infantry in attack column fighting foot (ruling attack_column).
    fn in_attack_column(g: &Dbfpw, u: &Unit, e: &Unit) -> bool {
        is_infantry(u) && u.formation == Formation::Column && Self::is_foot(g, e)
    }

    /// Foot for "verses Foot": troops on foot, and the foot artillery the playsheet names
    /// "Artillery Foot" (FAPr, FAFr); not horse artillery or the Mitrailleuse, which move as
    /// horse artillery (ruling attack_column).
    fn is_foot(g: &Dbfpw, e: &Unit) -> bool {
        g.dbn.kind(e) == TroopKind::Foot || matches!(e.troop.as_str(), "FAPr" | "FAFr")
    }

    /// Infantry forms attack column or deploys into line (ruling attack_column): in its own
    /// movement phase, out of close combat, once a bound, for the data's CAPs.
    fn form_column(
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        u: &Unit,
        formation: Formation,
    ) -> Result<(), RuleError> {
        let d = &g.dbn;
        match formation {
            Formation::Column if u.formation == Formation::Column => {
                return Err(RuleError::Illegal(format!(
                    "{} is already in attack column",
                    u.name
                )));
            }
            Formation::Line if u.formation == Formation::Line => {
                return Err(RuleError::Illegal(format!("{} is already in line", u.name)));
            }
            Formation::Column | Formation::Line => {}
            other => {
                return Err(RuleError::Illegal(format!(
                    "{} may form attack column (Column) or line (Line), not {other:?}",
                    u.name
                )));
            }
        }
        if d.in_close_combat(b, u) {
            return Err(RuleError::Illegal(format!("{} is in close combat", u.name)));
        }
        if Self::changed_mount(b, u) {
            return Err(RuleError::AlreadyActed {
                unit: u.id.clone(),
                what: "changed formation".into(),
            });
        }
        let what = if formation == Formation::Column {
            "form attack column"
        } else {
            "deploy into line"
        };
        d.spend(
            b,
            out,
            d.num("attack_column_cost") as i32,
            format!("{} {what}", u.name),
            u.division,
        )?;
        b.emit(
            out,
            Event::Reformed {
                unit: u.id.clone(),
                formation,
                from: u.base,
                to: u.base,
                cost: 0.0,
            },
        );
        Ok(())
    }

    /// Enemy artillery (the Mitrailleuse included) that could fire at the unit where it stands:
    /// in its arc, within its effective range, or its long range from a hill; whoever has fired.
    fn under_artillery(g: &Dbfpw, b: &Battle, u: &Unit) -> Option<String> {
        let d = &g.dbn;
        b.alive()
            .filter(|a| a.side != u.side && d.is_artillery(a))
            .find(|a| {
                let dist = b.scale.from_mm(a.base.front_edge_distance(&u.base));
                let reach = match (d.range(a), d.long_range(a)) {
                    (Some(_), Some(l)) if d.on_raised_ground(b, a) => l,
                    (Some(r), _) => r,
                    _ => 0.0,
                };
                dist <= reach + 0.5 && a.base.in_arc(&u.base, d.num("arc_half_angle"))
            })
            .map(|a| a.name.clone())
    }

    // ----- ammunition ---------------------------------------------------------------

    /// Whether a unit uses ammunition under the optional rule.
    fn uses_ammo(g: &Dbfpw, u: &Unit) -> bool {
        g.has_option(AMMUNITION) && g.dbn.is_artillery(u)
    }

    fn supply(
        b: &mut Battle,
        out: &mut Vec<Event>,
        u: &UnitId,
        ammo: Ammo,
        packs: u32,
        why: String,
    ) {
        b.emit(
            out,
            Event::Supply {
                unit: u.clone(),
                ammo,
                packs,
                why,
            },
        );
    }

    /// A friend that can send a pack to `u` now: any friend carrying one in edge contact (its
    /// baggage train, or an adjacent unit: adjacent units exchange packs freely), or a caisson
    /// whose supply path reaches it.
    fn supplier_for(g: &Dbfpw, b: &Battle, u: &Unit) -> Option<UnitId> {
        let d = &g.dbn;
        b.alive()
            .filter(|s| s.side == u.side && s.id != u.id && s.status.packs > 0)
            .find(|s| {
                let contact =
                    u.base.touched_by(&s.base).is_some() || s.base.touched_by(&u.base).is_some();
                contact
                    || (d.has_trait(s, TroopTrait::Supplier)
                        && d.has_trait(s, TroopTrait::SupplyRadius)
                        && Self::supply_path(g, b, s, u))
            })
            .map(|s| s.id.clone())
    }

    /// A caisson's supply radius in mm: the data's, by the shaken fraction when it is shaken.
    fn supply_radius(g: &Dbfpw, b: &Battle, cu: &Unit) -> f32 {
        let d = &g.dbn;
        let fraction = if cu.status.shaken {
            d.num("supply_shaken_fraction")
        } else {
            1.0
        };
        b.scale.to_mm(d.num("supply_radius") * fraction)
    }

    /// A path from the caisson to the unit within its radius, around bad going and clear of
    /// every enemy by the data's clearance, found on a grid.
    pub fn supply_path(g: &Dbfpw, b: &Battle, cu: &Unit, to: &Unit) -> bool {
        let d = &g.dbn;
        let radius = Self::supply_radius(g, b, cu);
        let step = b.scale.to_mm(d.num("supply_grid")).max(1.0);
        let clearance = b.scale.to_mm(d.num("supply_enemy_clearance"));
        if cu.base.distance(&to.base) > radius {
            return false;
        }
        let enemies: Vec<&Unit> = b.alive().filter(|e| e.side != cu.side).collect();
        // The radius reaches the unit it supplies: a unit within the clearance of an enemy
        // lies where the radius may not pass.
        if enemies
            .iter()
            .any(|e| e.base.distance(&to.base) + 0.5 < clearance)
        {
            return false;
        }
        let bad = d.bad_going_kinds();
        let origin = cu.base.centre;
        let at =
            |p: (i32, i32)| Pt::new(origin.x + p.0 as f32 * step, origin.y + p.1 as f32 * step);
        // A road, bridge or causeway is good going wherever it runs (ruling going): a cell it
        // passes through is not bad going, though only a bridge or causeway carries the way
        // over a river.
        let ways: Vec<&Feature> = b
            .terrain
            .features
            .iter()
            .filter(|f| f.kind.is_road_like())
            .collect();
        let water: Vec<&Feature> = b
            .terrain
            .features
            .iter()
            .filter(|f| matches!(f.kind, FeatureKind::Stream | FeatureKind::River))
            .collect();
        let free = |p: Pt| {
            if !b.table.contains(p)
                || enemies
                    .iter()
                    .any(|e| e.base.distance_to_point(p) < clearance)
            {
                return false;
            }
            let cell = Base::new(p, 0.0, step, step);
            let on_way = |bridges_only: bool| {
                ways.iter()
                    .any(|f| (!bridges_only || f.kind != FeatureKind::Road) && f.touches(&cell))
            };
            if b.terrain.at(p, &[FeatureKind::River]).next().is_some() {
                return on_way(true);
            }
            on_way(false)
                || (b.terrain.at(p, &bad).next().is_none()
                    && !b.terrain.at(p, &[FeatureKind::Hill]).any(|f| f.steep))
        };
        // A step between two cells that crosses a stream or river crosses it by a bridge or
        // causeway (or, over a stream, a road) that the step crosses too: a stream narrower
        // than the grid is not hopped over.
        let crossing = |a: Pt, c: Pt| {
            water.iter().filter(|w| w.crossed_by(a, c)).all(|w| {
                ways.iter().any(|r| {
                    (r.kind != FeatureKind::Road || w.kind == FeatureKind::Stream)
                        && r.crossed_by(a, c)
                })
            })
        };
        let n = (radius / step).ceil() as i32 + 1;
        // Each cell is tested once: the search asks about a cell from each of its neighbours.
        let mut tested: HashMap<(i32, i32), bool> = HashMap::new();
        let found = pathfinding::prelude::astar(
            &(0i32, 0i32),
            |&(x, y)| {
                let mut next = Vec::with_capacity(8);
                for (dx, dy) in [
                    (1, 0),
                    (-1, 0),
                    (0, 1),
                    (0, -1),
                    (1, 1),
                    (1, -1),
                    (-1, 1),
                    (-1, -1),
                ] {
                    let q = (x + dx, y + dy);
                    if q.0.abs() > n
                        || q.1.abs() > n
                        || !*tested.entry(q).or_insert_with(|| free(at(q)))
                        || !crossing(at((x, y)), at(q))
                    {
                        continue;
                    }
                    let cost = if dx != 0 && dy != 0 { 141 } else { 100 };
                    next.push((q, cost));
                }
                next
            },
            |&p| (at(p).minus(to.base.centre).len() / step * 100.0) as i32 / 2,
            |&p| to.base.distance_to_point(at(p)) <= step,
        );
        found.is_some_and(|(_, cost)| cost as f32 / 100.0 * step <= radius + 0.5)
    }

    /// Resupplies every low or out unit of a side that a supplier can reach.
    fn resupply_side(
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        side: usize,
    ) -> Result<(), RuleError> {
        let needy: Vec<UnitId> = b
            .alive()
            .filter(|u| u.side == side && u.status.ammo != Ammo::Full)
            .map(|u| u.id.clone())
            .collect();
        for n in needy {
            Self::resupply(g, b, out, &n)?;
        }
        Ok(())
    }

    /// Mounted or dismounted, or formed attack column or line, this bound (the log, not a
    /// stored flag).
    fn changed_mount(b: &Battle, u: &Unit) -> bool {
        b.log_since_bound()
            .iter()
            .any(|e| matches!(e, Event::Reformed { unit, .. } if unit == &u.id))
    }

    /// Resupplies a low or out unit from a supplier that can reach it.
    fn resupply(
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() || u.status.ammo == Ammo::Full || !Self::uses_ammo(g, &u) {
            return Ok(());
        }
        if let Some(s) = Self::supplier_for(g, b, &u) {
            let su = b.unit(&s)?.clone();
            Self::supply(
                b,
                out,
                &s,
                su.status.ammo,
                su.status.packs - 1,
                format!("sends a pack to {}", u.name),
            );
            Self::supply(
                b,
                out,
                id,
                Ammo::Full,
                u.status.packs,
                format!("resupplied by {}", su.name),
            );
        }
        Ok(())
    }
}

impl Supplement for Fpw {
    const DATA: &'static str = DATA;
    const OPTIONS: &'static [(&'static str, &'static str)] = &[
        (
            AMMUNITION,
            "Ammunition supply: artillery and Mitrailleuse run low on a firing 1 and out after their last round; packs, baggage trains and caissons resupply them",
        ),
        (
            LARGER_BATTLES,
            "Larger battles: divisional sub-commanders (DSCs) command all infantry; artillery carries more packs",
        ),
    ];

    fn class_name(&self, class: Class) -> String {
        match class {
            Class::Militia => "Poor".into(),
            c => format!("{c:?}"),
        }
    }

    fn fire_factors(
        &self,
        g: &Dbfpw,
        b: &Battle,
        u: &Unit,
        other: &Unit,
        role: FireRole,
        enemy_supporters: usize,
    ) -> Vec<Factor> {
        let d = &g.dbn;
        let mut f = vec![g.troop_factor(u)];
        let firing = matches!(role, FireRole::Firer { .. })
            || matches!(role, FireRole::Target { responding: true });
        let german_art = Self::is_german_artillery(g, b, u);
        if firing
            && (matches!(u.troop.as_str(), "InfBLR2" | "SSBLR2")
                || u.troop == "FAPr"
                || german_art
                || u.troop == "Mit")
        {
            f.push(d.fire_factor("blr2_prussian_mit"));
        }
        if u.class == Class::Elite {
            f.push(d.fire_factor("elite"));
        }
        if u.class == Class::Militia {
            f.push(d.fire_factor("poor"));
        }
        if u.status.shaken {
            f.push(d.fire_factor("shaken"));
        }
        for _ in 0..enemy_supporters {
            f.push(d.fire_factor("enemy_support"));
        }
        if u.troop == "InfRM" && firing {
            f.push(d.fire_factor("long_art_or_rm"));
        }
        // Fired at: the target, and both guns of a counter-battery exchange.
        let fired_at = matches!(
            role,
            FireRole::Target { .. } | FireRole::Firer { mutual: true }
        );
        if fired_at {
            let dist = other.base.front_edge_distance(&u.base);
            let near = |key: &str| dist <= b.scale.to_mm(d.num(key)) + 0.5;
            let german_or_mit = other.troop == "Mit" || Self::is_german_artillery(g, b, other);
            if (german_or_mit && near("german_artillery_close"))
                || (d.is_artillery(other) && near("artillery_close"))
            {
                f.push(d.fire_factor("fired_at_close"));
            }
        }
        if matches!(role, FireRole::Target { responding: false }) && d.is_artillery(u) {
            f.push(d.fire_factor("artillery_not_responding"));
        }
        // The factors of firing apply to each side that fires: the firer, and a target
        // firing back.
        if firing {
            if other.behind_front_line_of(u) {
                f.push(d.fire_factor("flank_rear"));
            }
            let long = Self::at_long_range(g, b, u, other);
            if long && d.is_artillery(u) {
                f.push(d.fire_factor("long_art_or_rm"));
            }
            if long && is_infantry(u) && is_french_nation(nation(b, u)) {
                f.push(d.fire_factor("french_inf_long"));
            }
            if (d.in_bad_going(b, u) || d.in_bad_going(b, other)) && !is_ss(u) {
                f.push(d.fire_factor("bg"));
            }
            if d.in_built_up_or_works(b, other) {
                if is_ss(u) {
                    f.push(d.fire_factor("into_cover_ss"));
                } else {
                    f.push(d.fire_factor("into_cover"));
                }
            }
            if b.terrain.on_bridge(&u.base) {
                f.push(d.fire_factor("bridge"));
            }
        }
        f
    }

    fn combat_factors(
        &self,
        g: &Dbfpw,
        b: &Battle,
        u: &Unit,
        e: &Unit,
        is_attacker: bool,
    ) -> Vec<Factor> {
        let d = &g.dbn;
        let mut f = vec![g.troop_factor(u)];
        let garrison = !is_attacker && is_infantry(u) && d.is_garrison(b, u);
        if garrison {
            f.push(d.combat_factor("garrison"));
        }
        if Self::in_attack_column(g, u, e) {
            f.push(d.combat_factor("attack_column"));
        }
        if Self::fights_as_hc(b, u) && d.is_mounted(e) {
            f.push(d.combat_factor("hc_vs_mounted"));
        }
        if b.terrain.uphill_of(u.base.centre, e.base.centre) {
            f.push(d.combat_factor("uphill"));
        }
        if d.general_attached(b, u).is_some() {
            f.push(d.combat_factor("general"));
        }
        if u.class == Class::Elite || u.has(Flag::Zouave) {
            f.push(d.combat_factor("elite"));
        }
        if !is_attacker && d.in_fortification(b, u) {
            f.push(d.combat_factor("defending_fort"));
        }
        // Bavarians are Poor but fight as regular line.
        if (u.class == Class::Militia && !u.has(Flag::Bavarian)) || is_ss(u) {
            f.push(d.combat_factor("poor_or_ss"));
        }
        // Sharpshooters are infantry too; Guerrillas are not (ruling cav_vs_inf).
        if d.is_mounted(u) && (is_infantry(e) || is_ss(e)) {
            f.push(d.combat_factor("cav_vs_inf"));
        }
        for _ in d.combat_supporters(b, e, u) {
            f.push(d.combat_factor("enemy_support"));
        }
        if u.status.shaken {
            f.push(d.combat_factor("shaken"));
        }
        if Self::attacked_in_flank(b, u) {
            f.push(d.combat_factor("first_flank_rear"));
        }
        if d.in_bad_going_for_combat(b, u) && !is_ss(u) {
            f.push(d.combat_factor("bg"));
        }
        if u.status.ammo == Ammo::Out {
            f.push(d.combat_factor("out_of_ammo"));
        }
        if b.terrain.on_bridge(&u.base) || Self::used_road(b, u) {
            f.push(d.combat_factor("bridge_or_road"));
        }
        f
    }

    fn firing_effect(
        &self,
        g: &Dbfpw,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        let d = &g.dbn;
        let hit = g.hits("result_hit");
        // Garrisons: infantry and guerrillas inside a BUA (sharpshooters have their own row).
        let garrison = (is_infantry(loser) || loser.troop == "Gs") && d.is_garrison(b, loser);
        match verdict {
            Verdict::Draw | Verdict::Outscored => Effect::NoEffect,
            Verdict::Beaten => {
                if d.is_commander(loser) {
                    Effect::Recoil
                } else if loser.troop == "SC" {
                    Effect::Flee { hits: 0 }
                } else if garrison {
                    Effect::NoEffect
                } else if is_ss(loser) {
                    let covered = d.in_town(b, loser) || d.in_fortification(b, loser);
                    if covered {
                        Effect::Hits(hit)
                    } else {
                        Effect::HitAndRecoil
                    }
                } else {
                    Effect::Hits(hit)
                }
            }
            Verdict::BeatenByDouble => {
                if d.is_commander(loser)
                    || loser.troop == "Gs"
                    || (d.is_artillery(loser) && loser.has(Flag::Fixed))
                {
                    Effect::Destroyed
                } else if loser.troop == "SC" {
                    if Self::in_bad_going_for_results(g, b, loser) {
                        Effect::Destroyed
                    } else {
                        Effect::Flee { hits: hit }
                    }
                } else if is_ss(loser) {
                    if d.is_skirmisher(winner) || winner.troop == "SC" {
                        Effect::Destroyed
                    } else {
                        Effect::Flee { hits: hit }
                    }
                } else if garrison {
                    Effect::NoEffect
                } else {
                    Effect::Hits(g.hits("result_double_hits"))
                }
            }
        }
    }

    fn combat_effect(
        &self,
        g: &Dbfpw,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        let d = &g.dbn;
        let hit = g.hits("result_hit");
        let bg = Self::in_bad_going_for_results(g, b, loser);
        let by_mounted = d.is_mounted(winner);
        match verdict {
            Verdict::Draw | Verdict::Outscored => {
                if d.is_mounted(loser) {
                    Effect::HitAndRecoil
                } else {
                    Effect::Hits(hit)
                }
            }
            Verdict::Beaten => {
                if d.is_commander(loser) {
                    Effect::Recoil
                } else if d.is_mounted(loser) {
                    if bg || d.is_artillery(winner) {
                        Effect::Destroyed
                    } else {
                        Effect::HitAndRecoil
                    }
                } else if d.is_artillery(loser)
                    || loser.troop == "Gs"
                    || d.kind(loser) == TroopKind::Baggage
                {
                    Effect::Destroyed
                } else if is_ss(loser) {
                    if by_mounted && !bg {
                        Effect::Destroyed
                    } else {
                        Effect::Flee { hits: hit }
                    }
                } else if d.is_garrison(b, loser) || (Self::fights_as_hc(b, winner) && !bg) {
                    // Garrisons are destroyed; infantry by HC (or lancers) in good going.
                    Effect::Destroyed
                } else {
                    Effect::HitAndRecoil
                }
            }
            Verdict::BeatenByDouble => {
                if loser.troop == "SC" {
                    if by_mounted || bg {
                        Effect::Destroyed
                    } else {
                        Effect::Flee { hits: hit }
                    }
                } else if is_ss(loser) {
                    if by_mounted || is_ss(winner) {
                        Effect::Destroyed
                    } else {
                        Effect::Flee { hits: hit }
                    }
                } else {
                    Effect::Destroyed
                }
            }
        }
    }

    fn quirks(&self, _g: &Dbfpw, _b: &Battle, u: &Unit, _other: &Unit, kind: Combat) -> Quirks {
        Quirks {
            stoic: false,
            loses_draws: kind == Combat::Close && u.has(Flag::Lancer),
        }
    }

    fn may_move_again(&self, g: &Dbfpw, b: &Battle, u: &Unit) -> Result<(), RuleError> {
        if u.bound.charged {
            return Err(RuleError::Illegal(format!(
                "{} moved into close combat this bound",
                u.name
            )));
        }
        if let Some(gun) = Self::under_artillery(g, b, u) {
            return Err(RuleError::Illegal(format!(
                "{} moved this bound and is within range of enemy artillery ({gun}): no second move",
                u.name
            )));
        }
        Ok(())
    }

    fn before_move(
        &self,
        g: &Dbfpw,
        b: &Battle,
        ids: &[UnitId],
        _body: &[crate::rules::command::Step],
        charge: Option<&UnitId>,
    ) -> Result<bool, RuleError> {
        for id in ids {
            let u = b.unit(id)?;
            if g.dbn.troop_of(u).dismounted.is_none() {
                continue;
            }
            if u.formation == Formation::Dismounted && Self::changed_mount(b, u) {
                return Err(RuleError::Illegal(format!(
                    "{} dismounted this bound: it may dismount after moving, not move after dismounting",
                    u.name
                )));
            }
            if u.formation != Formation::Dismounted && Self::changed_mount(b, u) && charge.is_some()
            {
                return Err(RuleError::Illegal(format!(
                    "{} mounted this bound: it may move, but not into close combat",
                    u.name
                )));
            }
        }
        Ok(true)
    }

    fn after_move(
        &self,
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        if !g.has_option(AMMUNITION) {
            return Ok(());
        }
        // The mover may have reached a supplier, or a supplier may have come up to others.
        let side = b.unit(id)?.side;
        Self::resupply_side(g, b, out, side)
    }

    fn after_fire(
        &self,
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        die: Option<u8>,
    ) -> Result<(), RuleError> {
        let u = b.unit(id)?.clone();
        if !u.alive() || !Self::uses_ammo(g, &u) {
            return Ok(());
        }
        match u.status.ammo {
            Ammo::Low => {
                Self::supply(
                    b,
                    out,
                    id,
                    Ammo::Out,
                    u.status.packs,
                    "fired its last round".into(),
                );
                Self::resupply(g, b, out, id)?;
            }
            Ammo::Full if die == Some(1) => {
                if u.status.packs > 0 {
                    Self::supply(
                        b,
                        out,
                        id,
                        Ammo::Full,
                        u.status.packs - 1,
                        "threw a 1 firing and uses its own pack".into(),
                    );
                    return Ok(());
                }
                let friend = b
                    .alive()
                    .filter(|f| f.side == u.side && f.id != u.id && f.status.packs > 0)
                    .find(|f| {
                        u.base.touched_by(&f.base).is_some() || f.base.touched_by(&u.base).is_some()
                    })
                    .cloned();
                match friend {
                    Some(f) => {
                        Self::supply(
                            b,
                            out,
                            &f.id,
                            f.status.ammo,
                            f.status.packs - 1,
                            format!("passes a pack to {}", u.name),
                        );
                    }
                    None => {
                        Self::supply(
                            b,
                            out,
                            id,
                            Ammo::Low,
                            0,
                            "threw a 1 firing: low on ammunition".into(),
                        );
                        Self::resupply(g, b, out, id)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn pursuit_keeps_to_occupation(&self) -> bool {
        true
    }

    fn follow(&self, g: &Dbfpw, w: &Unit, destroyed: bool) -> Follow {
        let d = &g.dbn;
        if destroyed
            || d.is_artillery(w)
            || d.is_commander(w)
            || d.kind(w) == TroopKind::Baggage
            || w.formation == Formation::Dismounted
        {
            Follow::Never
        } else if d.is_mounted(w) {
            Follow::Must
        } else {
            Follow::May
        }
    }

    fn start_bound(
        &self,
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if !g.has_option(AMMUNITION) {
            return Ok(());
        }
        Self::resupply_side(g, b, out, b.active)
    }

    fn form(
        &self,
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        unit: &UnitId,
        formation: Formation,
    ) -> Result<(), RuleError> {
        let d = &g.dbn;
        if b.phase != Phase::Movement {
            return Err(RuleError::WrongPhase {
                command: "dismount or mount".into(),
                phase: b.phase,
            });
        }
        let u = b.unit(unit)?.clone();
        super::common::own_active(b, &u)?;
        if is_infantry(&u) {
            return Self::form_column(g, b, out, &u, formation);
        }
        if d.troop_of(&u).dismounted.is_none() {
            return Err(RuleError::Illegal(format!(
                "{} cannot dismount: only Skirmishing Cavalry dismount (and infantry form attack column)",
                u.name
            )));
        }
        if d.in_close_combat(b, &u) {
            return Err(RuleError::Illegal(format!("{} is in close combat", u.name)));
        }
        match formation {
            Formation::Dismounted if u.formation == Formation::Dismounted => {
                return Err(RuleError::Illegal(format!(
                    "{} is already dismounted",
                    u.name
                )));
            }
            Formation::Line if u.formation != Formation::Dismounted => {
                return Err(RuleError::Illegal(format!("{} is already mounted", u.name)));
            }
            Formation::Line if u.bound.moved => {
                return Err(RuleError::Illegal(format!(
                    "{} moved this bound: skirmishing cavalry mount and then move, not the reverse",
                    u.name
                )));
            }
            Formation::Dismounted | Formation::Line => {}
            other => {
                return Err(RuleError::Illegal(format!(
                    "{} may only dismount (Dismounted) or mount (Line), not {other:?}",
                    u.name
                )));
            }
        }
        if Self::changed_mount(b, &u) {
            return Err(RuleError::Illegal(format!(
                "{} has already mounted or dismounted this bound",
                u.name
            )));
        }
        b.emit(
            out,
            Event::Reformed {
                unit: unit.clone(),
                formation,
                from: u.base,
                to: u.base,
                // DBN measures no movement for it.
                cost: 0.0,
            },
        );
        Ok(())
    }

    /// Towns and villages hold foot only (dismounted skirmishing cavalry are foot), with no
    /// fortifying first: ruling occupation.
    fn check_occupation(
        &self,
        g: &Dbfpw,
        b: &Battle,
        u: &Unit,
        end: &crate::rules::geometry::Base,
    ) -> Result<(), RuleError> {
        if let Some(f) = b
            .terrain
            .at(end.centre, &[FeatureKind::Town, FeatureKind::Village])
            .next()
            && g.dbn.kind(u) != TroopKind::Foot
        {
            return Err(RuleError::Illegal(format!(
                "only foot may end a move in {}: {} may not stop in it (ruling occupation)",
                f.name, u.name
            )));
        }
        Ok(())
    }

    fn fortify(
        &self,
        _g: &Dbfpw,
        _b: &mut Battle,
        _out: &mut Vec<Event>,
        _feature: &str,
    ) -> Result<(), RuleError> {
        Err(RuleError::Illegal(
            "DBFPW buys prepared fortifications in the army list: the scenario places them".into(),
        ))
    }

    fn unit_states(&self, g: &Dbfpw, troop: &str) -> Vec<UnitState> {
        // Only guns use ammunition, and only under the optional rule.
        let gun = g
            .dbn
            .troop(troop)
            .is_some_and(|t| t.kind == TroopKind::Artillery);
        if gun && g.has_option(AMMUNITION) {
            vec![UnitState::Ammunition]
        } else {
            Vec::new()
        }
    }
    fn prepare(&self, g: &Dbfpw, u: &RawUnit, packs: &mut u32) -> Result<(), String> {
        let d = &g.dbn;
        let t = d
            .troop(&u.troop)
            .ok_or_else(|| format!("unknown troop type '{}'", u.troop))?;
        let default = Self::pack_allowance(g, t);
        *packs = u.packs.unwrap_or(default);
        if *packs > 0 && !g.has_option(AMMUNITION) && u.packs.is_some() {
            return Err(format!(
                "unit '{}': packs need the optional rule 'ammunition'",
                u.id
            ));
        }
        if *packs > 99 {
            return Err(format!("unit '{}': at most 99 packs", u.id));
        }
        for f in &u.flags {
            let ok = match f {
                Flag::Lancer => u.troop == "LC",
                Flag::Zouave => matches!(u.troop.as_str(), "Inf" | "InfRM" | "InfBLR2" | "LC"),
                Flag::Bavarian => matches!(
                    u.troop.as_str(),
                    "Inf" | "InfRM" | "InfBLR2" | "SS" | "SSBLR2"
                ),
                Flag::Fixed => t.kind == TroopKind::Artillery,
                Flag::Guard => true,
                _ => false,
            };
            if !ok {
                return Err(format!(
                    "unit '{}': the flag {f:?} does not apply to {}",
                    u.id, t.name
                ));
            }
        }
        // Bavarian infantry are classed as Poor (002 Special rules).
        if u.flags.contains(&Flag::Bavarian)
            && matches!(u.troop.as_str(), "Inf" | "InfRM" | "InfBLR2")
            && u.class != Class::Militia
        {
            return Err(format!(
                "unit '{}': Bavarian infantry are classed as Poor (002 Special rules)",
                u.id
            ));
        }
        Ok(())
    }

    fn validate_army(
        &self,
        g: &Dbfpw,
        units: &[&Unit],
        side: &SideInfo,
        terrain: &Terrain,
    ) -> Vec<String> {
        let d = &g.dbn;
        let mut errs =
            super::army::validate_lists(d, units, side, terrain, &|c| self.class_name(c));
        let count = |f: &dyn Fn(&Unit) -> bool| units.iter().filter(|u| f(u)).count();
        let french = is_french_nation(&side.nation);
        // Every third French LC may be Lancers; every second German LC.
        let lc = count(&|u| u.troop == "LC");
        let lancers = count(&|u| u.has(Flag::Lancer));
        let per = d
            .num(if french {
                "lancers_every_french"
            } else {
                "lancers_every_german"
            })
            .max(1.0) as usize;
        if lancers > lc / per {
            errs.push(format!(
                "{lancers} Lancers among {lc} LC: one LC in {per} may be Lancers (002 Suggested Armies, note *)"
            ));
        }
        // Two units in eight of German infantry may be Bavarian.
        let inf = count(&|u| is_infantry(u));
        let bav = count(&|u| is_infantry(u) && u.has(Flag::Bavarian));
        let share = d.num("bavarian_share");
        if bav as f32 > inf as f32 * share + 1e-3 {
            errs.push(format!(
                "{bav} Bavarian infantry among {inf}: two in eight may be Bavarian (002 Suggested Armies)"
            ));
        }
        if bav > 0 && french {
            errs.push("Bavarians serve only in German armies".into());
        }
        // German SS carry BLR1; the one with BLR2 is the Bavarian one.
        if !french && count(&|u| u.troop == "SSBLR2" && !u.has(Flag::Bavarian)) > 0 {
            errs.push(
                "German SS carry BLR1: only the Bavarian SS may have BLR2 (002 Suggested Armies)"
                    .into(),
            );
        }
        if !french && count(&|u| u.has(Flag::Zouave)) > 0 {
            errs.push("Zouaves, North Africans and Chasseurs d'Afrique are French".into());
        }
        if french && count(&|u| u.troop == "CU") > 0 {
            errs.push("caisson units are Prussian (002 Prussian Caisson Unit)".into());
        }
        if !french && count(&|u| d.is_commander(u) && u.class == Class::Militia) > 0 {
            errs.push("only the French can have Poor commanders (002 Special rules)".into());
        }
        // Guard artillery: one FA if two Guard infantry, one HA if two Guard cavalry.
        let guard_inf = count(&|u| is_infantry(u) && u.has(Flag::Guard));
        let guard_cav = count(&|u| d.is_mounted(u) && u.has(Flag::Guard));
        let guard_fa =
            count(&|u| matches!(u.troop.as_str(), "FAPr" | "FAFr") && u.has(Flag::Guard));
        let guard_ha = count(&|u| u.troop == "HA" && u.has(Flag::Guard));
        if guard_fa > usize::from(guard_inf >= 2) || guard_ha > usize::from(guard_cav >= 2) {
            errs.push(
                "Guard artillery: one foot artillery if two or more Guard infantry, one horse artillery if two or more Guard cavalry (002 Special rules)".into(),
            );
        }
        let elite_guns =
            count(&|u| d.is_artillery(u) && u.class == Class::Elite && !u.has(Flag::Guard));
        if elite_guns > 0 {
            errs.push("only Guard artillery is elite (ruling guard_artillery)".into());
        }
        // Packs: no more than the type's allowance.
        for u in units {
            let t = d.troop_of(u);
            let allowed = Self::pack_allowance(g, t);
            if u.status.packs > allowed {
                errs.push(format!(
                    "'{}' carries {} pack(s): {} may carry {allowed} (002 Ammunition Supply)",
                    u.id, u.status.packs, t.name
                ));
            }
        }
        // Larger battles: infantry (and French Mit and SS, German SC) under a DSC's command.
        if g.has_option(LARGER_BATTLES) {
            for u in units {
                let needs = is_infantry(u)
                    || (french && (u.troop == "Mit" || is_ss(u)))
                    || (!french && u.troop == "SC");
                if !needs {
                    continue;
                }
                let has_dsc = units.iter().any(|x| {
                    d.has_trait(x, TroopTrait::Divisional)
                        && x.division.is_some()
                        && x.division == u.division
                });
                if !has_dsc {
                    errs.push(format!(
                        "'{}' must be under the direct command of a DSC: give it the division of one (002 Larger Battles)",
                        u.id
                    ));
                }
            }
        }
        errs
    }

    fn check_standard(
        &self,
        g: &Dbfpw,
        table_mm: (f32, f32),
        terrain: &Terrain,
        units: &[Unit],
        zones: &[Zone],
        mm_per_unit: f32,
    ) -> Vec<String> {
        let d = &g.dbn;
        let paces = |mm: f32| mm / mm_per_unit.max(1e-6);
        let mut errs = Vec::new();
        let side = d.num("standard_table");
        if paces(table_mm.0) + 0.5 < side || paces(table_mm.1) + 0.5 < side {
            errs.push(format!(
                "the standard table is at least {side:.0} paces square; this one is {:.0} x {:.0}",
                paces(table_mm.0),
                paces(table_mm.1)
            ));
        }
        let gap = d.num("standard_gap") * mm_per_unit;
        for a in units.iter().filter(|u| u.side == 0 && !u.status.undeployed) {
            if let Some(e) = units
                .iter()
                .filter(|u| u.side != 0 && !u.status.undeployed)
                .find(|e| a.base.distance(&e.base) + 0.5 < gap)
            {
                errs.push(format!(
                    "'{}' and '{}' deploy {:.0} paces apart: opposing units deploy at least {:.0} apart",
                    a.id,
                    e.id,
                    paces(a.base.distance(&e.base)),
                    d.num("standard_gap")
                ));
                break;
            }
        }
        for z in zones.iter().filter(|z| z.side == 0) {
            for o in zones.iter().filter(|o| o.side != 0) {
                let dx = (o.min.x - z.max.x).max(z.min.x - o.max.x).max(0.0);
                let dy = (o.min.y - z.max.y).max(z.min.y - o.max.y).max(0.0);
                if dx.hypot(dy) + 0.5 < gap {
                    errs.push(format!(
                        "deployment zones lie {:.0} paces apart: at least {:.0}",
                        paces(dx.hypot(dy)),
                        d.num("standard_gap")
                    ));
                }
            }
        }
        let significant = terrain
            .features
            .iter()
            .filter(|f| {
                // Roads, and the bridges and causeways that carry them over water and marsh, are
                // the road network, not pieces of their own; a river is (ruling standard_table).
                !f.kind.is_road_like()
            })
            .count();
        let bua = terrain
            .features
            .iter()
            .filter(|f| f.kind == FeatureKind::Town)
            .count();
        let nlf = terrain
            .features
            .iter()
            .filter(|f| matches!(f.kind, FeatureKind::Village | FeatureKind::Fortification))
            .count();
        for (have, key, what) in [
            (
                significant,
                "standard_pieces",
                "significant terrain pieces (roads, bridges and causeways not counted)",
            ),
            (bua, "standard_bua", "BUA (towns)"),
            (nlf, "standard_nlf", "NLF (villages or fortifications)"),
        ] {
            let need = d.num(key) as usize;
            if have < need {
                errs.push(format!(
                    "the standard table has at least {need} {what}; this one has {have}"
                ));
            }
        }
        errs
    }

    /// Infantry charging foot forms attack column first (ruling attack_column): +2.
    fn attack_formation(&self, g: &Dbfpw, _b: &Battle, u: &Unit, e: &Unit) -> Option<Formation> {
        (is_infantry(u) && Self::is_foot(g, e)).then_some(Formation::Column)
    }

    /// A baggage train or caisson with packs goes to the nearest friend low or out of
    /// ammunition that no supplier reaches now: into contact, or for a caisson within its
    /// supply radius (halved when shaken).
    fn supplies(&self, g: &Dbfpw, b: &Battle, u: &Unit) -> Option<(UnitId, f32)> {
        let d = &g.dbn;
        if !g.has_option(AMMUNITION) || !d.has_trait(u, TroopTrait::Supplier) || u.status.packs == 0
        {
            return None;
        }
        let needy = b
            .alive()
            .filter(|f| f.side == u.side && f.id != u.id && Self::uses_ammo(g, f))
            .filter(|f| f.status.ammo != Ammo::Full && Self::supplier_for(g, b, f).is_none())
            .min_by(|a, c| {
                a.base
                    .distance(&u.base)
                    .total_cmp(&c.base.distance(&u.base))
                    .then_with(|| a.id.0.cmp(&c.id.0))
            })?;
        let within = if d.has_trait(u, TroopTrait::SupplyRadius) {
            Self::supply_radius(g, b, u)
        } else {
            0.0
        };
        Some((needy.id.clone(), within))
    }

    fn card_lines(&self, g: &Dbfpw, _b: &Battle, u: &Unit) -> Vec<String> {
        let mut v = Vec::new();
        let d = &g.dbn;
        let range = d.range(u).unwrap_or(0.0);
        if u.formation == Formation::Dismounted {
            v.push(format!(
                "Dismounted: moves as infantry, fires {range:.0} paces"
            ));
        } else if d.troop_of(u).dismounted.is_some() {
            v.push(format!("Mounted: fires {range:.0} paces; may dismount"));
        }
        if g.has_option(AMMUNITION) {
            if g.dbn.is_artillery(u) {
                v.push(format!(
                    "Ammunition: {}",
                    match u.status.ammo {
                        Ammo::Full => "supplied",
                        Ammo::Low => "LOW (one round left)",
                        Ammo::Out => "OUT (cannot fire, -1 in close combat)",
                    }
                ));
            }
            if u.status.packs > 0 || g.dbn.is_artillery(u) {
                v.push(format!("Ammunition packs: {}", u.status.packs));
            }
        }
        if is_infantry(u) {
            v.push(if u.formation == Formation::Column {
                format!(
                    "Attack column: {:+} in close combat against foot; {:.0} paces, never the extra {:.0} into close combat",
                    d.combat_factor("attack_column").value,
                    d.troop_of(u).gg.unwrap_or(0.0),
                    d.num("charge_bonus")
                )
            } else {
                format!(
                    "In line: {:.0} paces more into close combat in good going; may form attack column ({:.0} CAP)",
                    d.num("charge_bonus"),
                    d.num("attack_column_cost")
                )
            });
        }
        if g.dbn.has_trait(u, TroopTrait::Divisional) {
            v.push(format!(
                "Divisional commander of the {} division: {:.0} CAPs, {:.0} paces",
                u.division
                    .map(|d| format!("{d:?}"))
                    .unwrap_or_else(|| "(no)".into()),
                d.num("dsc_caps"),
                d.num("dsc_command_range")
            ));
        }
        v
    }

    fn actions(&self, g: &Dbfpw, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        if is_infantry(u)
            && b.phase == Phase::Movement
            && u.side == b.active
            && !Self::changed_mount(b, u)
            && !g.dbn.in_close_combat(b, u)
        {
            let cost = g.dbn.num("attack_column_cost");
            let (label, formation) = if u.formation == Formation::Column {
                (format!("Deploy into line ({cost:.0} CAP)"), Formation::Line)
            } else {
                (
                    format!("Form attack column ({cost:.0} CAP)"),
                    Formation::Column,
                )
            };
            return vec![ActionGroup {
                title: "Attack column".into(),
                actions: vec![Action {
                    label,
                    command: Command::Form {
                        unit: u.id.clone(),
                        formation,
                        turn: 0.0,
                    },
                }],
                ..ActionGroup::default()
            }];
        }
        if g.dbn.troop_of(u).dismounted.is_none()
            || b.phase != Phase::Movement
            || u.side != b.active
            || Self::changed_mount(b, u)
        {
            return Vec::new();
        }
        let (label, formation) = if u.formation == Formation::Dismounted {
            ("Mount", Formation::Line)
        } else {
            ("Dismount", Formation::Dismounted)
        };
        vec![ActionGroup {
            title: "Skirmishing cavalry".into(),
            actions: vec![Action {
                label: label.into(),
                command: Command::Form {
                    unit: u.id.clone(),
                    formation,
                    turn: 0.0,
                },
            }],
            ..ActionGroup::default()
        }]
    }

    fn words(&self, _g: &Dbfpw, b: &Battle, e: &Event) -> Option<String> {
        let name = |id: &UnitId| b.name_of(id);
        match e {
            Event::Supply {
                unit,
                ammo,
                packs,
                why,
            } => Some(format!(
                "{} {why} (ammunition {}, {packs} pack{})",
                name(unit),
                match ammo {
                    Ammo::Full => "supplied",
                    Ammo::Low => "LOW",
                    Ammo::Out => "OUT",
                },
                if *packs == 1 { "" } else { "s" }
            )),
            Event::Reformed {
                unit, formation, ..
            } => {
                let infantry = b.unit(unit).is_ok_and(is_infantry);
                Some(format!(
                    "{} {}",
                    name(unit),
                    match formation {
                        Formation::Column if infantry => "forms attack column",
                        _ if infantry => "deploys into line",
                        Formation::Dismounted => "dismounts",
                        _ => "mounts",
                    }
                ))
            }
            _ => None,
        }
    }

    fn markers(&self, _g: &Dbfpw, u: &Unit) -> Vec<String> {
        let mut m = match u.status.ammo {
            Ammo::Full => Vec::new(),
            Ammo::Low => vec!["LOW".into()],
            Ammo::Out => vec!["OUT".into()],
        };
        if is_infantry(u) && u.formation == Formation::Column {
            m.push("COLUMN".into());
        }
        m
    }
}
