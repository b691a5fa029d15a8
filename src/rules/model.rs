//! The things on the table: ids, sides, units with their bases, stands and status; phases and
//! flags are declared by each ruleset (`phase.rs`, `flag.rs`).

use super::geometry::{Base, Pt, norm_deg, norm_facing};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::fmt;

pub use super::flag::{FlagName, Flags};
pub use super::phase::{Phase, PhaseInfo};
use std::sync::Arc;

/// A unit's id as written in the scenario (e.g. "pr-ir1"). Shared, not copied: commands,
/// events and the undo history hold many ids, and cloning one costs no allocation.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitId(pub Arc<str>);

impl UnitId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<String> for UnitId {
    fn from(s: String) -> Self {
        UnitId(s.into())
    }
}

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for UnitId {
    fn from(s: &str) -> Self {
        UnitId(s.into())
    }
}

/// A side's index in the scenario's list of sides (0 or 1).
pub type Side = usize;

/// Quality class or grade: one ladder of four rungs; each ruleset names the rungs in its own
/// words (`Ruleset::class_name`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Class {
    /// Militia; "Poor" in DBFPW (scenarios may write either).
    #[serde(alias = "Poor", alias = "Raw")]
    Militia,
    /// Regular; "Trained" in BBB.
    #[default]
    #[serde(alias = "Trained")]
    Regular,
    /// Superior: Ms(S) fire as Elite; DC(S) fight as Elite in close combat.
    Superior,
    /// Elite; "Veteran" in BBB.
    #[serde(alias = "Veteran")]
    Elite,
}

/// Formation of a unit. Single-base units stay in `Line`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Formation {
    #[default]
    Line,
    Column,
    Square,
    Skirmish,
    /// Conformed to terrain (an "L"); must reform before moving.
    Conformed,
    /// Cavalry on foot (DBFPW's skirmishing cavalry).
    Dismounted,
    /// In depth: two ranks of bases (BBB's deep formation, Aggressive infantry only).
    Deep,
}

/// A unit's ammunition (DBFPW's optional ammunition supply).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Ammo {
    #[default]
    Full,
    /// One round of firing left.
    Low,
    /// Cannot fire until resupplied.
    Out,
}

/// Army division for the formal deployment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Division {
    Left,
    Centre,
    Right,
    Reserve,
}

impl Division {
    pub const ORDER: [Division; 4] = [
        Division::Left,
        Division::Centre,
        Division::Right,
        Division::Reserve,
    ];

    /// The division's name in words ("Left").
    pub fn name(self) -> &'static str {
        match self {
            Division::Left => "Left",
            Division::Centre => "Centre",
            Division::Right => "Right",
            Division::Reserve => "Reserve",
        }
    }
}

/// A stand of figures (figure rulesets). Single-base units have none: the unit is its base.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stand {
    pub figures: u32,
    /// Where a loose stand (a skirmisher moving on its own) stands, in its unit's frame: centre
    /// across/ahead of the unit's centre, facing relative to the unit's. None: in its slot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Base>,
}

impl Stand {
    pub fn new(figures: u32) -> Self {
        Stand { figures, at: None }
    }
}

/// Everything that can change about a unit during play.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Status {
    pub hits: u32,
    pub shaken: bool,
    pub disordered: bool,
    /// Artillery limbered to move.
    pub limbered: bool,
    pub removed: bool,
    /// Not yet placed on the table (formal deployment).
    pub undeployed: bool,
    /// Recoiled and followed up by its enemy: in continuing combat.
    pub continuing: bool,
    /// The unit pursuing this one (figure rulesets: it strikes double).
    #[serde(default)]
    pub pursued_by: Option<UnitId>,
    /// Ammunition state (DBFPW's optional ammunition supply; BBB's low ammunition).
    #[serde(default, skip_serializing_if = "is_full")]
    pub ammo: Ammo,
    /// Ammunition packs carried.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub packs: u32,
    /// Its owner's standing order: hold the ground if victorious rather than pursue (where the
    /// rules leave the victor the choice).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hold_ground: bool,
    /// Left the table by an edge a scenario's condition names (`Command::Exit`): removed, and
    /// no loss to any ruleset's count.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exited: bool,
    /// What its ruleset alone records of it (a silenced battery, a declared charge): the
    /// ruleset's own type, read through the ruleset's `own` and `own_mut`. Not written: nothing
    /// writes a unit (a save holds the scenario and the commands).
    #[serde(skip)]
    pub own: Own,
}

/// A ruleset's own status of a unit, beyond the shared [`Status`]: held without naming its type,
/// so that the shared types never name a ruleset, and shared between copies of the unit until
/// one of them changes it (a fork of the battle copies one pointer per unit). Empty until the
/// ruleset sets it; an empty one reads as the ruleset's fresh state.
#[derive(Clone, Default)]
pub struct Own(Option<Arc<dyn OwnPart>>);

/// What a ruleset's own status is: a plain value with a fresh state (its `Default`) that can be
/// copied and compared.
pub trait OwnPart: Any + Send + Sync + fmt::Debug {
    /// The same value as `other` (false for another ruleset's type).
    fn same(&self, other: &dyn OwnPart) -> bool;
    /// The fresh state: what an empty `Own` reads as.
    fn is_fresh(&self) -> bool;
}

impl<T: Any + Send + Sync + fmt::Debug + Clone + Default + PartialEq> OwnPart for T {
    fn same(&self, other: &dyn OwnPart) -> bool {
        (other as &dyn Any).downcast_ref::<T>() == Some(self)
    }
    fn is_fresh(&self) -> bool {
        *self == T::default()
    }
}

impl Own {
    /// Holds a ruleset's own status.
    pub fn new<T: OwnPart>(part: T) -> Own {
        Own(Some(Arc::new(part)))
    }

    /// The ruleset's own status, if it holds one of type `T` (None: the fresh state).
    pub fn get<T: OwnPart>(&self) -> Option<&T> {
        self.0
            .as_deref()
            .and_then(|p| (p as &dyn Any).downcast_ref::<T>())
    }

    /// The ruleset's own status to change: made from the fresh state if there is none (or one
    /// of another type), copied first if another copy of the unit shares it.
    pub fn get_mut<T: OwnPart + Clone + Default>(&mut self) -> &mut T {
        let part = self
            .0
            .get_or_insert_with(|| Arc::new(T::default()) as Arc<dyn OwnPart>);
        let ours = Arc::get_mut(part).is_some_and(|p| (&*p as &dyn Any).is::<T>());
        if !ours {
            let copy = (&**part as &dyn Any)
                .downcast_ref::<T>()
                .cloned()
                .unwrap_or_default();
            *part = Arc::new(copy);
        }
        match Arc::get_mut(part).and_then(|p| (p as &mut dyn Any).downcast_mut::<T>()) {
            Some(t) => t,
            None => unreachable!("a part just made of type T and held once"),
        }
    }
}

impl PartialEq for Own {
    fn eq(&self, other: &Own) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a.same(&**b),
            (Some(p), None) | (None, Some(p)) => p.is_fresh(),
        }
    }
}

impl fmt::Debug for Own {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(p) => p.fmt(f),
            None => f.write_str("Own(fresh)"),
        }
    }
}

fn is_full(a: &Ammo) -> bool {
    *a == Ammo::Full
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What a unit did this bound or phase; cleared at the start of each bound.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BoundState {
    pub moved: bool,
    pub fired: bool,
    pub fought: bool,
    /// Limbered or unlimbered this bound: cannot move or fire.
    pub limber_changed: bool,
    /// Recoiled in this close combat phase.
    pub recoiled: bool,
    /// Moved into contact this bound (a charge).
    pub charged: bool,
    /// Pursuing this phase.
    pub pursuing: bool,
    /// Movement allowance used this bound, in the ruleset's units (figure rulesets).
    #[serde(default)]
    pub spent: f32,
    /// Where the unit stood when the bound began, once it has moved.
    #[serde(default)]
    pub turn_start: Option<Base>,
    /// Shooting hits taken this bound, by shooter (figure rulesets test morale against them).
    #[serde(default)]
    pub shot_by: Vec<(UnitId, u32)>,
    /// Changed formation or facing this bound.
    #[serde(default)]
    pub formed: bool,
    /// Failed its command test: does nothing more this bound.
    #[serde(default)]
    pub halted: bool,
    /// Movement used by each loose stand on its own this bound, in the ruleset's units.
    #[serde(default)]
    pub stand_spent: Vec<f32>,
    /// Fell back voluntarily instead of moving: no other move or formation change this bound.
    #[serde(default)]
    pub fell_back: bool,
    /// Recoil this bound: the direction (unit vector) and the distance in mm.
    #[serde(default)]
    pub recoil: Option<(Pt, f32)>,
    /// The move a command roll allows this turn, in the ruleset's units (BBB); None until it
    /// rolls.
    #[serde(default)]
    pub allowance: Option<f32>,
    /// The command roll lets it recover a base instead of moving (BBB).
    #[serde(default)]
    pub may_recover: bool,
    /// The range, in the ruleset's units, at which it fires into a charge this turn (Hal's).
    #[serde(default)]
    pub fire_range: Option<f32>,
}

impl BoundState {
    /// Movement used this bound: by the whole unit, plus the most any loose stand went alone.
    pub fn used(&self) -> f32 {
        self.spent + self.stand_spent.iter().copied().fold(0.0, f32::max)
    }
}

/// FNV-1a, a short, fixed hash for the few letters of an id or a troop code.
#[derive(Default)]
pub struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h = (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// Ids to the index of the first unit with each: by the address of the id's shared text
/// (ids are nearly always clones of the unit's own, found so without reading the text), and by
/// the text, hashed by FNV.
#[derive(Debug, Default)]
pub struct IdIndex {
    /// The address of each unit's id text and the index of the first unit holding it, sorted.
    by_address: Vec<(usize, usize)>,
    by_text: std::collections::HashMap<UnitId, usize, std::hash::BuildHasherDefault<Fnv>>,
}

impl IdIndex {
    /// The index of the units in their order.
    pub fn new<'a>(units: impl Iterator<Item = &'a Unit>) -> Self {
        let mut ix = IdIndex::default();
        for (i, u) in units.enumerate() {
            ix.by_address.push((address(&u.id), i));
            ix.by_text.entry(u.id.clone()).or_insert(i);
        }
        // Stable: the first unit holding an address comes first.
        ix.by_address.sort_by_key(|(a, _)| *a);
        ix.by_address.dedup_by_key(|(a, _)| *a);
        ix
    }

    /// The first unit holding this very id (the same shared text), if any was indexed.
    pub fn by_address(&self, id: &UnitId) -> Option<usize> {
        let a = address(id);
        self.by_address
            .binary_search_by_key(&a, |(x, _)| *x)
            .ok()
            .and_then(|k| self.by_address.get(k))
            .map(|(_, i)| *i)
    }

    /// The first unit with this id's text, if any was indexed.
    pub fn by_text(&self, id: &UnitId) -> Option<usize> {
        self.by_text.get(id).copied()
    }
}

/// Where an id's shared text lives.
fn address(id: &UnitId) -> usize {
    Arc::as_ptr(&id.0).cast::<u8>() as usize
}

/// The units of a battle, in the scenario's order, each shared with the undo history and the
/// battle's copies until changed: changing one unit copies that unit alone (copying every unit
/// for each command was a third of a random game's time). Reads give `&Unit`; `iter_mut`
/// copies each unit it passes that is shared.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Units(Vec<Arc<Unit>>);

impl Units {
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn get(&self, i: usize) -> Option<&Unit> {
        self.0.get(i).map(|u| &**u)
    }
    pub fn get_mut(&mut self, i: usize) -> Option<&mut Unit> {
        self.0.get_mut(i).map(Arc::make_mut)
    }
    pub fn first(&self) -> Option<&Unit> {
        self.get(0)
    }
    pub fn last(&self) -> Option<&Unit> {
        self.0.last().map(|u| &**u)
    }
    pub fn push(&mut self, u: Unit) {
        self.0.push(Arc::new(u));
    }
    pub fn iter(&self) -> UnitsIter<'_> {
        UnitsIter(self.0.iter())
    }
    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut Unit> + ExactSizeIterator {
        self.0.iter_mut().map(Arc::make_mut)
    }
}

/// The units in order, read.
#[derive(Clone, Debug)]
pub struct UnitsIter<'a>(std::slice::Iter<'a, Arc<Unit>>);

impl<'a> Iterator for UnitsIter<'a> {
    type Item = &'a Unit;
    fn next(&mut self) -> Option<&'a Unit> {
        self.0.next().map(|u| &**u)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
    fn nth(&mut self, n: usize) -> Option<&'a Unit> {
        self.0.nth(n).map(|u| &**u)
    }
}

impl DoubleEndedIterator for UnitsIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|u| &**u)
    }
}

impl ExactSizeIterator for UnitsIter<'_> {}

impl<'a> IntoIterator for &'a Units {
    type Item = &'a Unit;
    type IntoIter = UnitsIter<'a>;
    fn into_iter(self) -> UnitsIter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Units {
    type Item = &'a mut Unit;
    type IntoIter =
        std::iter::Map<std::slice::IterMut<'a, Arc<Unit>>, fn(&'a mut Arc<Unit>) -> &'a mut Unit>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut().map(Arc::make_mut)
    }
}

impl std::ops::Index<usize> for Units {
    type Output = Unit;
    fn index(&self, i: usize) -> &Unit {
        &self.0[i]
    }
}

impl std::ops::IndexMut<usize> for Units {
    fn index_mut(&mut self, i: usize) -> &mut Unit {
        Arc::make_mut(&mut self.0[i])
    }
}

impl From<Vec<Unit>> for Units {
    fn from(v: Vec<Unit>) -> Self {
        Units(v.into_iter().map(Arc::new).collect())
    }
}

impl FromIterator<Unit> for Units {
    fn from_iter<I: IntoIterator<Item = Unit>>(it: I) -> Self {
        Units(it.into_iter().map(Arc::new).collect())
    }
}

/// One unit on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    pub name: String,
    pub side: Side,
    /// Troop code of the ruleset (Ms, HC, FA ...).
    pub troop: String,
    pub class: Class,
    pub flags: Flags,
    pub base: Base,
    pub formation: Formation,
    pub stands: Vec<Stand>,
    pub division: Option<Division>,
    pub status: Status,
    pub bound: BoundState,
    /// Figure-ruleset details: starting strength, generals, regimental guns.
    #[serde(default)]
    pub extra: UnitExtra,
}

/// What figure rulesets add to a unit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UnitExtra {
    /// Figures at the start (strength for the shattered test).
    pub strength: u32,
    /// A general's leadership (+0, +1, +2).
    pub leadership: i32,
    /// A general's command radius in the ruleset's units (0: none).
    pub command_radius: f32,
    /// The unit a general is attached to.
    pub attached: Option<UnitId>,
    /// A regimental gun's parent unit; a courier's general.
    pub parent: Option<UnitId>,
    /// The brigade it belongs to; for a brigadier, the brigade he commands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brigade: Option<String>,
    /// A general's chips, each good for one re-roll (Hal's).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub chips: u32,
    /// Dice a general's chips add to (or take off) his command's moves (Hal's).
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub move_dice: i32,
    /// The colour of its figures' coats where the scenario gives one (its own, or its side's);
    /// bases without one are painted in the side's colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coat: Option<[u8; 3]>,
}

fn is_zero_i(n: &i32) -> bool {
    *n == 0
}

impl Unit {
    /// Whether the unit carries its ruleset's flag `f`.
    pub fn has<F: super::flag::FlagSet>(&self, f: F) -> bool {
        self.flags.has(f)
    }
    pub fn alive(&self) -> bool {
        !self.status.removed && !self.status.undeployed
    }
    /// True when `other` stands behind this unit's front line (in its flank or rear).
    pub fn behind_front_line_of(&self, other: &Unit) -> bool {
        self.base.behind_front_line(other.base.centre)
    }
    pub fn figures(&self) -> u32 {
        self.stands.iter().map(|s| s.figures).sum()
    }
    /// The shapes the unit covers on the table: its loose stands, or its one base.
    pub fn shapes(&self) -> Vec<Base> {
        if self.is_loose() {
            self.loose_bases()
        } else {
            vec![self.base]
        }
    }
    /// True when some stand stands loose, away from its slot in the formation.
    pub fn is_loose(&self) -> bool {
        self.stands.iter().any(|s| s.at.is_some())
    }
    /// Each stand's base on the table when the unit's stands are loose; its slot in line for a
    /// stand that has not moved on its own.
    pub fn loose_bases(&self) -> Vec<Base> {
        let n = self.stands.len().max(1);
        let b = &self.base;
        let w = b.width / n as f32;
        self.stands
            .iter()
            .enumerate()
            .map(|(i, s)| match &s.at {
                Some(l) => Base {
                    centre: b.local(l.centre.x, l.centre.y),
                    facing: norm_facing(b.facing + l.facing),
                    ..*l
                },
                None => Base::new(
                    b.local(-b.width / 2.0 + w * (i as f32 + 0.5), 0.0),
                    b.facing,
                    w,
                    b.depth,
                ),
            })
            .collect()
    }
    /// Puts the stands loose at these bases (one per stand): the unit's base becomes the
    /// smallest rectangle at its facing that holds them all.
    pub fn settle(&mut self, bases: &[Base]) {
        if bases.is_empty() || bases.len() != self.stands.len() {
            return;
        }
        self.base = Base::enclosing(self.base.facing, bases);
        let frame = self.base;
        for (s, b) in self.stands.iter_mut().zip(bases) {
            let d = b.centre.minus(frame.centre);
            s.at = Some(Base {
                centre: Pt {
                    x: d.dot(frame.right()),
                    y: d.dot(frame.forward()),
                },
                facing: norm_deg(b.facing - frame.facing),
                ..*b
            });
        }
    }
}

/// A side as the scenario gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideInfo {
    pub name: String,
    /// Nation for national rules ("prussia", "austria", "russia", "france", "britain", ...).
    pub nation: String,
    /// RGB colour of its bases.
    pub colour: [u8; 3],
    pub commander: String,
    /// The side that defends (fortifies, places the objective).
    pub defender: bool,
}

impl Formation {
    /// A formation's name in words.
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Square => "square",
            Formation::Skirmish => "skirmish order",
            Formation::Conformed => "an L (conformed to terrain)",
            Formation::Dismounted => "dismounted",
            Formation::Deep => "in depth",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Marks {
        spent: bool,
        count: u32,
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Other(bool);

    #[test]
    fn an_empty_own_part_reads_as_the_fresh_state_and_equals_it() {
        let mut a = Own::default();
        assert_eq!(a.get::<Marks>(), None);
        assert_eq!(a, Own::new(Marks::default()));
        a.get_mut::<Marks>().count = 2;
        assert_ne!(a, Own::default());
        assert_eq!(
            a,
            Own::new(Marks {
                spent: false,
                count: 2
            })
        );
        assert_eq!(a.get::<Other>(), None);
    }

    #[test]
    fn a_copy_shares_the_own_part_until_one_of_them_changes_it() {
        let mut a = Own::new(Marks {
            spent: true,
            count: 1,
        });
        let b = a.clone();
        a.get_mut::<Marks>().count = 3;
        assert_eq!(
            b.get::<Marks>(),
            Some(&Marks {
                spent: true,
                count: 1
            })
        );
        assert_eq!(
            a.get::<Marks>(),
            Some(&Marks {
                spent: true,
                count: 3
            })
        );
        let c = a.clone();
        assert!(matches!((&a.0, &c.0), (Some(x), Some(y)) if Arc::ptr_eq(x, y)));
    }
}
