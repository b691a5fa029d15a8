//! DBFPW on the DBN engine: breech-loaders and long-range fire, the mitrailleuse, skirmishing
//! cavalry that dismount, lancers, Zouaves and Bavarians, second moves under artillery, the
//! optional ammunition supply with packs and caissons, divisional commanders for larger
//! battles, the national army lists and the standard table.
//!
//! - `data`: DBFPW's own numbers and factors by typed key, read at load.
//! - `firing`: breech-loaders, long range, the firing factors and results.
//! - `close_combat`: lancers, Zouaves, attack columns, the close combat factors and results.
//! - `movement`: second moves under artillery, forming column, dismounting, towns.
//! - `supply`: the optional ammunition rule, packs, baggage and caissons, resupply.
//! - `army`: the units a scenario may field, national lists, the standard table.
//! - `view`: unit states, cards, actions, the log's words, markers.

mod army;
mod close_combat;
mod data;
mod firing;
mod movement;
mod refusal;
mod supply;
mod view;

use super::{Combat, DbnData, DbnGame, Extras, FireRole, Follow, Supplement};
use crate::rules::battle::{Battle, Zone};
use crate::rules::command::{Effect, Event, Factor, RuleError, Verdict};
use crate::rules::model::{Ammo, Class, Formation, SideInfo, Unit, UnitId};
use crate::rules::odds::Quirks;
use crate::rules::ruleset::dbn::Flag;
use crate::rules::ruleset::view::{ActionGroup, UnitState};
use crate::rules::scenario::RawUnit;
use crate::rules::terrain::Terrain;
pub use data::{Close, Fire, Nation, Num, TroopType};
use data::{nation, nation_named, troop};
pub use refusal::Refusal;

/// The ruleset's data, compiled into the program.
pub const DATA: &str = include_str!("../../../../../assets/rulesets/dbfpw.ron");

/// The optional ammunition supply rule.
pub const AMMUNITION: &str = "ammunition";
/// The optional rules for larger battles (DSCs, more packs).
pub const LARGER_BATTLES: &str = "larger_battles";

/// DBFPW on the DBN engine.
pub type Dbfpw = DbnGame<Fpw>;

/// What DBFPW makes its own on the DBN engine: its own numbers and factors by key.
#[derive(Clone, Debug)]
pub struct Fpw {
    keys: data::Keys,
}

/// Infantry of the line (any rifle).
fn is_infantry(u: &Unit) -> bool {
    matches!(
        troop(u),
        TroopType::Infantry | TroopType::InfantryRm | TroopType::InfantryBlr2
    )
}

/// Sharpshooters (any rifle).
fn is_ss(u: &Unit) -> bool {
    matches!(
        troop(u),
        TroopType::Sharpshooters | TroopType::SharpshootersBlr2
    )
}

/// The unit's side is French.
fn is_french(b: &Battle, u: &Unit) -> bool {
    nation(b, u).is_some_and(Nation::is_french)
}

/// The unit's side is German.
fn is_german(b: &Battle, u: &Unit) -> bool {
    nation(b, u).is_some_and(Nation::is_german)
}

impl Supplement for Fpw {
    const DATA: &'static str = DATA;

    fn load(data: &DbnData, text: &str) -> Result<(Self, Extras), String> {
        Fpw::read(data, text)
    }

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
        Fpw::fire_factors(self, g, b, u, other, role, enemy_supporters)
    }

    fn combat_factors(
        &self,
        g: &Dbfpw,
        b: &Battle,
        u: &Unit,
        e: &Unit,
        is_attacker: bool,
    ) -> Vec<Factor> {
        Fpw::combat_factors(self, g, b, u, e, is_attacker)
    }

    fn firing_effect(
        &self,
        g: &Dbfpw,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        Fpw::firing_effect(self, g, b, loser, winner, verdict)
    }

    fn combat_effect(
        &self,
        g: &Dbfpw,
        b: &Battle,
        loser: &Unit,
        winner: &Unit,
        verdict: Verdict,
    ) -> Effect {
        Fpw::combat_effect(self, g, b, loser, winner, verdict)
    }

    fn quirks(&self, _g: &Dbfpw, _b: &Battle, u: &Unit, _other: &Unit, kind: Combat) -> Quirks {
        Quirks {
            stoic: false,
            loses_draws: kind == Combat::Close && u.has(Flag::Lancer),
        }
    }

    fn may_move_again(&self, g: &Dbfpw, b: &Battle, u: &Unit) -> Result<(), RuleError> {
        Fpw::may_move_again(self, g, b, u)
    }

    fn before_move(
        &self,
        g: &Dbfpw,
        b: &Battle,
        ids: &[UnitId],
        _body: &[crate::rules::command::Step],
        charge: Option<&UnitId>,
    ) -> Result<bool, RuleError> {
        Fpw::before_move(self, g, b, ids, _body, charge)
    }

    fn after_move(
        &self,
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
    ) -> Result<(), RuleError> {
        Fpw::after_move(self, g, b, out, id)
    }

    fn after_fire(
        &self,
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        id: &UnitId,
        die: Option<u8>,
    ) -> Result<(), RuleError> {
        Fpw::after_fire(self, g, b, out, id, die)
    }

    fn pursuit_keeps_to_occupation(&self) -> bool {
        true
    }

    fn follow(&self, g: &Dbfpw, w: &Unit, destroyed: bool) -> Follow {
        Fpw::follow(self, g, w, destroyed)
    }

    fn start_bound(
        &self,
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        Fpw::start_bound(self, g, b, out)
    }

    fn form(
        &self,
        g: &Dbfpw,
        b: &mut Battle,
        out: &mut Vec<Event>,
        unit: &UnitId,
        formation: Formation,
    ) -> Result<(), RuleError> {
        Fpw::form(self, g, b, out, unit, formation)
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
        Fpw::check_occupation(self, g, b, u, end)
    }

    fn fortify(
        &self,
        _g: &Dbfpw,
        _b: &mut Battle,
        _out: &mut Vec<Event>,
        _feature: &str,
    ) -> Result<(), RuleError> {
        Fpw::fortify(self, _g, _b, _out, _feature)
    }

    fn unit_states(&self, g: &Dbfpw, troop: &str) -> Vec<UnitState> {
        Fpw::unit_states(self, g, troop)
    }

    fn prepare(&self, g: &Dbfpw, u: &RawUnit, packs: &mut u32) -> Result<(), String> {
        Fpw::prepare(self, g, u, packs)
    }

    fn unit_cost(&self, g: &Dbfpw, u: &Unit, side: &SideInfo) -> f32 {
        super::army::listed_cost(&g.dbn, &self.keys.lists, u, nation_named(&side.nation))
    }

    fn validate_army(
        &self,
        g: &Dbfpw,
        units: &[&Unit],
        side: &SideInfo,
        terrain: &Terrain,
    ) -> Vec<String> {
        Fpw::validate_army(self, g, units, side, terrain)
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
        Fpw::check_standard(self, g, table_mm, terrain, units, zones, mm_per_unit)
    }

    /// Infantry charging foot forms attack column first (ruling attack_column): +2.
    fn attack_formation(&self, g: &Dbfpw, _b: &Battle, u: &Unit, e: &Unit) -> Option<Formation> {
        Fpw::attack_formation(self, g, _b, u, e)
    }

    /// A baggage train or caisson with packs goes to the nearest friend low or out of
    /// ammunition that no supplier reaches now: into contact, or for a caisson within its
    /// supply radius (halved when shaken).
    fn supplies(&self, g: &Dbfpw, b: &Battle, u: &Unit) -> Option<(UnitId, f32)> {
        Fpw::supplies(self, g, b, u)
    }

    /// A gun low on ammunition, whose next round is its last, is left out of a defence the
    /// defender has not chosen (ruling `defence_support`).
    fn spares_from_defence(&self, g: &Dbfpw, u: &Unit) -> bool {
        Self::uses_ammo(g, u) && u.status.ammo == Ammo::Low
    }

    fn card_lines(&self, g: &Dbfpw, _b: &Battle, u: &Unit) -> Vec<String> {
        Fpw::card_lines(self, g, _b, u)
    }

    fn actions(&self, g: &Dbfpw, b: &Battle, u: &Unit) -> Vec<ActionGroup> {
        Fpw::actions(self, g, b, u)
    }

    fn words(&self, _g: &Dbfpw, b: &Battle, e: &Event) -> Option<String> {
        Fpw::words(self, _g, b, e)
    }

    fn markers(&self, _g: &Dbfpw, u: &Unit) -> Vec<String> {
        Fpw::markers(self, _g, u)
    }
}
