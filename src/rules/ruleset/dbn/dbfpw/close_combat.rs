//! DBFPW's close combat: lancers, Zouaves and cavalry fighting as heavy cavalry, flank attacks,
//! attack columns, the close combat factors and results, and who follows up.

use super::data::Close;
use super::data::TroopType::{
    FootArtilleryFrench, FootArtilleryPrussian, Guerrillas, HeavyCavalry, SkirmishingCavalry,
};
use super::data::troop;
use super::{Dbfpw, Fpw, is_infantry, is_ss};
use crate::rules::battle::Battle;
use crate::rules::command::{Effect, Factor, Verdict};
use crate::rules::model::{Ammo, Class, Formation, Unit};
use crate::rules::ruleset::dbn::Flag;
use crate::rules::ruleset::dbn::N;
use crate::rules::ruleset::dbn::{Dbn, Follow, TroopKind};
use crate::rules::terrain::FeatureKind;

impl Fpw {
    /// Attacked first in flank or rear: by an enemy's charge or pursuit, in either side's
    /// bound (ruling front_and_flank).
    fn attacked_in_flank(b: &Battle, u: &Unit) -> bool {
        Dbn::attacked_first_in_flank(b, u)
    }

    /// Fights as Heavy Cavalry: HC, or Lancers not attacked first in flank or rear.
    fn fights_as_hc(b: &Battle, u: &Unit) -> bool {
        troop(u) == HeavyCavalry || (u.has(Flag::Lancer) && !Self::attacked_in_flank(b, u))
    }

    /// In bad going for the results' "in BG" and "in GG": the going of the move rates (ruling
    /// going), towns and villages included. Only the firing and close combat factors leave a
    /// BUA or NLF out of bad going.
    pub(super) fn in_bad_going_for_results(g: &Dbfpw, b: &Battle, u: &Unit) -> bool {
        g.dbn.in_bad_going(b, u)
            || b.terrain
                .at(u.base.centre, &[FeatureKind::Town, FeatureKind::Village])
                .next()
                .is_some()
    }

    /// Infantry in attack column fighting foot (ruling attack_column).
    fn in_attack_column(g: &Dbfpw, u: &Unit, e: &Unit) -> bool {
        is_infantry(u) && u.formation == Formation::Column && Self::is_foot(g, e)
    }

    /// Foot for "verses Foot": troops on foot, and the foot artillery the playsheet names
    /// "Artillery Foot" (FAPr, FAFr); not horse artillery or the Mitrailleuse, which move as
    /// horse artillery (ruling attack_column).
    fn is_foot(g: &Dbfpw, e: &Unit) -> bool {
        g.dbn.kind(e) == TroopKind::Foot
            || matches!(troop(e), FootArtilleryPrussian | FootArtilleryFrench)
    }

    pub(super) fn combat_factors(
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
            f.push(g.sup.close(Close::Garrison));
        }
        if Self::in_attack_column(g, u, e) {
            f.push(g.sup.close(Close::AttackColumn));
        }
        if Self::fights_as_hc(b, u) && d.is_mounted(e) {
            f.push(g.sup.close(Close::HcVsMounted));
        }
        if b.terrain.uphill_of(u.base.centre, e.base.centre) {
            f.push(g.sup.close(Close::Uphill));
        }
        if d.general_attached(b, u).is_some() {
            f.push(g.sup.close(Close::General));
        }
        if u.class == Class::Elite || u.has(Flag::Zouave) {
            f.push(g.sup.close(Close::Elite));
        }
        if !is_attacker && d.in_fortification(b, u) {
            f.push(g.sup.close(Close::DefendingFort));
        }
        // Bavarians are Poor but fight as regular line.
        if (u.class == Class::Militia && !u.has(Flag::Bavarian)) || is_ss(u) {
            f.push(g.sup.close(Close::PoorOrSs));
        }
        // Sharpshooters are infantry too; Guerrillas are not (ruling cav_vs_inf).
        if d.is_mounted(u) && (is_infantry(e) || is_ss(e)) {
            f.push(g.sup.close(Close::CavVsInf));
        }
        for _ in d.combat_supporters(b, e, u) {
            f.push(g.sup.close(Close::EnemySupport));
        }
        if u.status.shaken {
            f.push(g.sup.close(Close::Shaken));
        }
        if Self::attacked_in_flank(b, u) {
            f.push(g.sup.close(Close::FirstFlankRear));
        }
        if d.in_bad_going_for_combat(b, u) && !is_ss(u) {
            f.push(g.sup.close(Close::Bg));
        }
        if u.status.ammo == Ammo::Out {
            f.push(g.sup.close(Close::OutOfAmmo));
        }
        if b.terrain.on_bridge(&u.base) || Self::used_road(b, u) {
            f.push(g.sup.close(Close::BridgeOrRoad));
        }
        f
    }

    pub(super) fn combat_effect(
        &self,
        g: &Dbfpw,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        let d = &g.dbn;
        let hit = g.hits(N::ResultHit);
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
                    || troop(loser) == Guerrillas
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
                if troop(loser) == SkirmishingCavalry {
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

    pub(super) fn follow(&self, g: &Dbfpw, w: &Unit, destroyed: bool) -> Follow {
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

    /// Infantry charging foot forms attack column first (ruling attack_column): +2.
    pub(super) fn attack_formation(
        &self,
        g: &Dbfpw,
        _b: &Battle,
        u: &Unit,
        e: &Unit,
    ) -> Option<Formation> {
        (is_infantry(u) && Self::is_foot(g, e)).then_some(Formation::Column)
    }
}
