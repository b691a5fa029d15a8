//! The opponent: a player for solo games and batch runs that plays any ruleset through the same
//! door as a person. It weighs fire and combat by the exact odds of the rules' own previews
//! (each outcome's `Chance::edge`), charges only where the odds favour it (in the formation
//! the rules reward the charge in, where they do: `Ruleset::attack_formation`), keeps its units in
//! line within reach of the enemy and marches at its best pace (with second moves, where the
//! rules allow them) while far off, keeps its generals up with their troops, holds a reserve
//! back, guards the places it keeps once the enemy comes near them, steps its generals back
//! where the rules strike down a general left forward, advances on the objective or the nearest
//! enemy, and takes the buttons a player would (rally, recover, limber and unlimber, command
//! rolls). Every command it gives is tried first on a copy of the battle, so the battle never
//! refuses one. It knows no ruleset: what differs comes through the `Ruleset` trait.
//!
//! A second style, `Style::Straight`, ignores the odds: it attacks whatever it can and moves
//! straight at the nearest enemy. It is the yardstick the opponent is measured against.

use crate::rules::battle::Battle;
use crate::rules::command::{Command, RuleError, Step};
use crate::rules::geometry::{CONTACT_EPS, Corner, Edge, Pt, heading, norm_deg};
use crate::rules::model::{Formation, Phase, Side, Unit, UnitId};
use crate::rules::ruleset::common::heading_deg;
use crate::rules::ruleset::{Figures, Outlook};
use crate::rules::terrain::FeatureKind;

/// Ground that gives cover: a unit halting short of the enemy prefers it.
const COVER: [FeatureKind; 4] = [
    FeatureKind::Woods,
    FeatureKind::Town,
    FeatureKind::Village,
    FeatureKind::Fortification,
];

/// How an opponent plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Weighs every attack by its odds; keeps its line and a reserve.
    Odds,
    /// Ignores the odds: attacks whatever it can and moves straight at the nearest enemy.
    Straight,
}

/// One command and why the opponent gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub command: Command,
    /// A short reason for the log ("fires at IR 20: 0.41 expected").
    pub reason: String,
}

/// A command weighed: its worth, its chance to win, and its reason.
struct Weighed {
    value: f64,
    /// The chance of an outcome above nothing.
    win: f64,
    command: Command,
    reason: String,
}

/// What the opponent remembers within one phase: which units have done what, so that it never
/// repeats itself.
#[derive(Default)]
struct PhaseMemory {
    key: Option<(u32, Phase, Side, usize)>,
    done: Vec<(UnitId, &'static str)>,
    given: usize,
    /// The pairs (own unit, enemy) worth attacking, best first, weighed when first asked.
    attacks: Option<Vec<(UnitId, UnitId)>>,
    /// Units another has dressed on this phase: they stand, so the line they anchor holds.
    anchors: Vec<UnitId>,
    /// Every first move is given: units far from the enemy now march on with a second, where
    /// the rules allow one.
    second: bool,
    /// Units weighed for a charge this phase that found none worth making: a unit that cannot
    /// advance either is asked again after each command, and a charge is weighed a bound
    /// ahead on copies of the battle, so it is weighed once a phase.
    no_charge: Vec<UnitId>,
    /// No move that turns the result was found this phase (see `Opponent::decisive_move`):
    /// every unit's way onto every place is tried once, after the command rolls.
    no_decisive: bool,
    /// Units whose move was found dear this phase (see `Opponent::dear`): they wait for the
    /// cheaper moves without being weighed again for each.
    dear: Vec<UnitId>,
}

pub use crate::rules::ruleset::doctrine::Tuning;

/// What the opponent plays for in its last bound, by the result were the turn limit reached
/// now. A side that wins so keeps its lead: no charge, no advance but a guard's, fire only at
/// the usual odds. A side that loses so risks everything: any fire or charge with a chance to
/// win, since the game left as it stands is lost; but no hopeless charge (worth no more than
/// `Tuning::all_in`), which turns nothing and, where its other charges win, gives back the
/// unit they took. Measured over the nine scenarios, 60 games a cell: against the straight
/// player 761 of 1,080 won on seeds 1-60 (753 without) and 742 on seeds 61-120 (739); against
/// the random player 1,027 and 1,015 (1,029 and 1,016). Looking two turns ahead so won 747
/// against straight on seeds 1-60.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stakes {
    Keep,
    AllIn,
}

/// The opponent. Deterministic: the same battle gives the same decisions.
pub struct Opponent {
    /// The ruleset's numbers (`Ruleset::opponent_tuning`), read again at each decision: the
    /// same opponent may play battles of different rules.
    tune: Tuning,
    style: Style,
    /// The side it is deciding for.
    side: Side,
    memory: PhaseMemory,
    /// Commands of its own the battle refused (there should be none: each is tried first).
    refused: usize,
}

/// The worth and the chance to win of an outlook: the sum of its outcomes' edges weighed by
/// their chances, and the chance of the outcomes above nothing.
pub fn worth(o: &Outlook) -> (f64, f64) {
    let value = o.chances.iter().map(|c| c.chance * c.edge).sum();
    let win = o
        .chances
        .iter()
        .filter(|c| c.edge > 0.0)
        .map(|c| c.chance)
        .sum();
    (value, win)
}

/// The battle after `cmd`, if the battle accepts it (the battle itself is unchanged).
pub fn probe(b: &Battle, cmd: &Command) -> Option<Battle> {
    let mut copy = b.fork();
    copy.execute(cmd.clone()).ok().map(|_| copy)
}

/// The middle of some units.
fn centre(us: &[&Unit]) -> Pt {
    let n = us.len().max(1) as f32;
    us.iter()
        .fold(Pt::new(0.0, 0.0), |p, x| p.plus(x.base.centre))
        .scale(1.0 / n)
}

/// The ruleset's longest sample move, in mm: the yardstick of "near" and "far".
fn long_move(b: &Battle) -> f32 {
    b.scale.to_mm(b.scale.unit.sample_moves()[4])
}

/// Whether a unit is fighting troops (not a general or a train), by the ruleset's look.
fn fights(b: &Battle, u: &Unit) -> bool {
    !matches!(b.rules.look(b, u).arm, Figures::Command | Figures::Train)
}

/// An advance ending this near an enemy meets it (mm): twice the contact tolerance, so that a
/// move stopping at the tolerance's edge is never taken for one that stops clear, whichever
/// ruleset's test of contact decides the fight.
const MEETS: f32 = 2.0 * CONTACT_EPS;

/// Dice enough for any one command's throw, scripted low to try its worst.
const LOWEST_THROW: [u8; 12] = [1; 12];

/// Whether `cmd`, thrown with the lowest dice, costs the battle `u` (on a copy: the battle is
/// unchanged).
fn lowest_throw_loses(b: &Battle, cmd: &Command, u: &Unit) -> bool {
    let mut copy = b.fork();
    copy.script_dice(&LOWEST_THROW);
    copy.execute(cmd.clone()).is_ok() && copy.unit(&u.id).is_ok_and(|v| !v.alive())
}

/// Whether a place lies in terrain that gives cover.
fn in_cover(b: &Battle, at: Pt) -> bool {
    b.terrain.at(at, &COVER).next().is_some()
}

/// The unit nearest `to`, base to base.
fn nearest_to<'a>(us: impl Iterator<Item = &'a Unit>, to: &Unit) -> Option<&'a Unit> {
    us.min_by(|a, c| {
        a.base
            .distance(&to.base)
            .total_cmp(&c.base.distance(&to.base))
    })
}

/// Two ways for a unit to walk `mm` along `way` (any length): obliquely, keeping its facing;
/// else turning to face the way and advancing.
fn walks(b: &Battle, u: &Unit, way: Pt, mm: f32) -> [Vec<Step>; 2] {
    let dir = way.scale(1.0 / way.len().max(1e-3));
    let (fwd, right) = (u.base.forward(), u.base.right());
    let turn = norm_deg(heading_deg(dir) - heading_deg(fwd));
    [
        vec![Step::Oblique {
            forward: b.scale.from_mm(dir.dot(fwd) * mm),
            right: b.scale.from_mm(dir.dot(right) * mm),
        }],
        vec![Step::Pivot(turn), Step::Advance(b.scale.from_mm(mm))],
    ]
}

/// The first move of `u` the rules accept, and `keep` approves of the battle after it, that
/// walks (`walks`) towards one of `aims` (a way, and how far along it in mm), the first aim
/// first: as far as wanted or the longest sample move, else shorter ones.
fn walk_towards(
    b: &Battle,
    u: &Unit,
    aims: &[(Pt, f32)],
    keep: impl Fn(&Battle) -> bool,
) -> Option<Command> {
    let lengths: Vec<f32> = b
        .scale
        .unit
        .sample_moves()
        .iter()
        .rev()
        .map(|d| b.scale.to_mm(*d))
        .collect();
    for &(way, wanted) in aims {
        for mm in &lengths {
            for steps in walks(b, u, way, mm.min(wanted)) {
                let cmd = Command::Move {
                    unit: u.id.clone(),
                    steps,
                };
                if probe(b, &cmd).is_some_and(|after| keep(&after)) {
                    return Some(cmd);
                }
            }
        }
    }
    None
}

/// The way `by` (in mm, on the table) for troops that move only straight ahead or sideways:
/// forward and then sideways, or sideways alone where there is nothing forward of it.
fn square_steps(b: &Battle, u: &Unit, by: Pt) -> Vec<Step> {
    let (ahead, aside) = (by.dot(u.base.forward()), by.dot(u.base.right()));
    let r = Step::Sidestep(b.scale.from_mm(aside));
    if ahead.abs() > 0.5 {
        vec![Step::Advance(b.scale.from_mm(ahead)), r]
    } else {
        vec![r]
    }
}

/// Every way for a unit to go `mm` along `way`: the two `walks`, and the `square_steps`.
fn ways(b: &Battle, u: &Unit, way: Pt, mm: f32) -> Vec<Vec<Step>> {
    let mut out: Vec<Vec<Step>> = walks(b, u, way, mm).into();
    out.push(square_steps(b, u, way.scale(mm / way.len().max(1e-3))));
    out
}

/// The side of `e` a unit standing at `p` comes on: its flank where `p` is beside it and not
/// ahead of its front edge, its rear where `p` is behind it; none where `p` is before its front.
fn exposed(e: &Unit, p: Pt) -> Option<&'static str> {
    let rel = p.minus(e.base.centre);
    let (ahead, aside) = (rel.dot(e.base.forward()), rel.dot(e.base.right()));
    if ahead >= e.base.depth / 2.0 {
        None
    } else if aside.abs() > e.base.width / 2.0 {
        Some("flank")
    } else if ahead <= -e.base.depth / 2.0 {
        Some("rear")
    } else {
        None
    }
}

/// The angle in degrees between a unit's front and the way to `to`.
fn off_line(u: &Unit, to: Pt) -> f32 {
    let way = to.minus(u.base.centre);
    let len = way.len();
    if len < 1e-3 {
        return 0.0;
    }
    let f = u.base.forward();
    (f.dot(way) / len).clamp(-1.0, 1.0).acos().to_degrees()
}

impl Opponent {
    pub fn new(style: Style) -> Self {
        Opponent {
            tune: Tuning::default(),
            style,
            side: 0,
            memory: PhaseMemory::default(),
            refused: 0,
        }
    }

    /// Commands it gave that the battle refused.
    pub fn refused(&self) -> usize {
        self.refused
    }

    fn did(&self, u: &UnitId, what: &'static str) -> bool {
        self.memory.done.iter().any(|(x, w)| x == u && *w == what)
            || (what.starts_with("Move") && self.memory.anchors.contains(u))
    }

    /// The move a unit may make now: its first, or in the second pass its second.
    fn this_move(&self) -> &'static str {
        if self.memory.second {
            "Move again"
        } else {
            "Move"
        }
    }

    /// Whether a unit has made the move it may make now.
    fn moved(&self, u: &UnitId) -> bool {
        self.did(u, self.this_move())
    }

    /// Whether a unit is far from the enemy (`Tuning::march`): it marches at its best pace (and
    /// on with a second move), and the line forms again within reach.
    fn far_off(&self, b: &Battle, u: &Unit) -> bool {
        self.beyond_reach(b, self.nearest(b, u))
    }

    /// Whether a distance from the enemy, in mm, is beyond its reach (`Tuning::march` long
    /// moves): the one measure of "far off" for units, generals and the buttons.
    fn beyond_reach(&self, b: &Battle, mm: f32) -> bool {
        mm > self.tune.march * long_move(b)
    }

    fn remember(&mut self, cmd: &Command) {
        let moved = self.this_move();
        if let Command::MoveGroup { units, .. } = cmd {
            for u in units {
                self.memory.done.push((u.clone(), moved));
            }
        } else if let Some(u) = cmd.unit() {
            let what = match cmd {
                // A unit moves once, whichever move it makes (twice where it marches on).
                Command::Move { .. } | Command::MoveStand { .. } => moved,
                c => c.kind(),
            };
            self.memory.done.push((u.clone(), what));
        }
        self.memory.given += 1;
    }

    /// The next command for `side`'s units in this phase, if it has one worth giving (always
    /// one the battle accepts).
    pub fn decide(&mut self, b: &Battle, side: Side) -> Option<Decision> {
        let key = (b.turn, b.phase, side, b.deployment_step);
        if self.memory.key != Some(key) {
            self.memory = PhaseMemory {
                key: Some(key),
                ..PhaseMemory::default()
            };
        }
        self.side = side;
        self.tune = b.rules.opponent_tuning(Tuning::default());
        // A phase never takes more commands than a few per unit.
        if b.is_over() || self.memory.given >= 4 * b.units.len() + 8 {
            return None;
        }
        let d = if b.rules.deployment(b).is_some() {
            self.deploy(b)
        } else {
            self.rescue(b)
                .or_else(|| self.attack(b))
                .or_else(|| self.buttons(b))
                .or_else(|| self.manoeuvre(b))
        }?;
        let d = self.flank_aim(b, d);
        self.remember(&d.command);
        Some(d)
    }

    /// A move that brings a unit, facing it, within a long move of an enemy's flank or rear
    /// says so: "..., and to reach the flank of IR 20 Alt-Colloredo" (the nearest such enemy).
    fn flank_aim(&self, b: &Battle, mut d: Decision) -> Decision {
        let movers = match &d.command {
            Command::Move { unit, .. } => std::slice::from_ref(unit),
            Command::MoveGroup { units, .. } => units.as_slice(),
            _ => return d,
        };
        let Some(after) = probe(b, &d.command) else {
            return d;
        };
        let mut best: Option<(f32, &str, &str)> = None;
        for u in movers.iter().filter_map(|id| after.unit(id).ok()) {
            if !fights(&after, u) {
                continue;
            }
            for e in self.enemies(&after, u.side) {
                let gap = e.base.distance(&u.base);
                // A unit in contact fights: its charge's words say so.
                if gap < MEETS || gap > long_move(b) || off_line(u, e.base.centre) > 45.0 {
                    continue;
                }
                if let Some(part) = exposed(e, u.base.centre)
                    && best.is_none_or(|(g, ..)| gap < g)
                {
                    best = Some((gap, part, e.name.as_str()));
                }
            }
        }
        if let Some((_, part, name)) = best {
            d.reason = format!("{}, and to reach the {part} of {name}", d.reason);
        }
        d
    }

    /// The command that ends the phase: `EndPhase`, or, where the rules want something done
    /// first, anything they accept.
    pub fn finish(&mut self, b: &Battle, side: Side) -> Decision {
        self.side = side;
        // Where the end of the phase is a roll or a placing ("Roll command dice"), the log's
        // own lines say what came of it: the opponent has no reason to add before them.
        let reason = match b.rules.turn_words(b).end {
            Some(end) if !end.starts_with("End") => String::new(),
            _ => format!(
                "ends the {} phase: nothing more is worth doing in it",
                b.phase.name()
            ),
        };
        let end = Decision {
            command: Command::EndPhase,
            reason,
        };
        if b.is_over() || probe(b, &Command::EndPhase).is_some() {
            return end;
        }
        self.forced(b).unwrap_or(end)
    }

    fn own<'a>(&self, b: &'a Battle) -> Vec<&'a Unit> {
        b.alive()
            .filter(|u| u.side == self.side && u.base.width > 0.0)
            .collect()
    }

    /// The distance from a unit to the nearest enemy, in mm.
    fn nearest(&self, b: &Battle, u: &Unit) -> f32 {
        self.enemies(b, u.side)
            .iter()
            .map(|e| e.base.distance(&u.base))
            .fold(f32::INFINITY, f32::min)
    }

    fn enemies<'a>(&self, b: &'a Battle, side: Side) -> Vec<&'a Unit> {
        b.alive()
            .filter(|u| u.side != side && u.base.width > 0.0)
            .collect()
    }

    /// Formal deployment: each waiting unit beside a placed unit of its division, else spread
    /// along the front of its side's zone.
    fn deploy(&mut self, b: &Battle) -> Option<Decision> {
        let d = b.rules.deployment(b)?;
        for (i, (id, label)) in d.waiting.iter().enumerate() {
            let Ok(u) = b.unit(id) else { continue };
            let mut spots: Vec<Pt> = Vec::new();
            for f in b.units.iter().filter(|f| {
                f.side == u.side
                    && f.division == u.division
                    && !f.status.undeployed
                    && f.base.width > 0.0
            }) {
                let along = (f.base.width + u.base.width) / 2.0 + 1.0;
                let right = f.base.right().scale(along);
                spots.push(f.base.centre.plus(right));
                spots.push(f.base.centre.plus(right.scale(-1.0)));
            }
            let n = d.waiting.len().max(1) as f32;
            for z in b.zones.iter().filter(|z| z.side == d.side) {
                for depth in [0.3, 0.6, 0.85, 0.5] {
                    let x = z.min.x + (z.max.x - z.min.x) * ((i as f32 + 0.5) / n);
                    // The front of the zone is the edge the placed units face.
                    let y = if heading(d.facing).y >= 0.0 {
                        z.max.y - (z.max.y - z.min.y) * (1.0 - depth)
                    } else {
                        z.min.y + (z.max.y - z.min.y) * (1.0 - depth)
                    };
                    spots.push(Pt::new(x, y));
                }
            }
            for at in spots {
                let cmd = Command::Deploy {
                    unit: id.clone(),
                    x: at.x,
                    y: at.y,
                    facing: d.facing,
                };
                if probe(b, &cmd).is_some() {
                    return Some(Decision {
                        command: cmd,
                        reason: format!("deploys {label} in line"),
                    });
                }
            }
        }
        None
    }

    /// One unit's fire or combat on one enemy, if the rules offer one now, weighed by its odds
    /// (with each choice of the preview taken where it improves them).
    fn weigh(&self, b: &Battle, u: &Unit, e: &Unit) -> Option<Weighed> {
        let cmd = b.rules.target_command(b, &u.id, &e.id)?;
        if self.did(&u.id, cmd.kind()) {
            return None;
        }
        let mut o = b.rules.preview(b, &cmd).ok()?;
        let mut cmd = cmd;
        if self.style == Style::Odds {
            for c in o.choices.clone() {
                if let Ok(other) = b.rules.preview(b, &c.flipped)
                    && worth(&other).0 > worth(&o).0 + 1e-9
                {
                    cmd = c.flipped;
                    o = other;
                }
            }
        }
        let (value, win) = worth(&o);
        let verb = match cmd.kind() {
            "Fire" => "fires at",
            "Declare" => "declares a charge on",
            "Fight" => "fights",
            _ => "attacks",
        };
        Some(Weighed {
            value,
            win,
            reason: format!("{} {verb} {}: {:.0}% to win", u.name, e.name, win * 100.0),
            command: cmd,
        })
    }

    /// Every fire or combat open now, weighed by its odds, the best first (ties in the order
    /// of the units, so the choice is deterministic), with the units it pairs.
    fn weigh_attacks(&self, b: &Battle) -> Vec<(Weighed, UnitId, UnitId)> {
        let mut out = Vec::new();
        for u in self.own(b) {
            for e in self.enemies(b, u.side) {
                if let Some(w) = self.weigh(b, u, e) {
                    out.push((w, u.id.clone(), e.id.clone()));
                }
            }
        }
        out.sort_by(|a, b| b.0.value.total_cmp(&a.0.value));
        out
    }

    /// The best attack worth making now. Every pair is weighed once a phase; after each
    /// command the best pairs are weighed again as the battle now stands, and a pair no longer
    /// worth it is dropped for the phase.
    fn attack(&mut self, b: &Battle) -> Option<Decision> {
        let stakes = self.last_bound(b);
        let worth_it = |w: &Weighed| match (self.style, stakes) {
            (Style::Straight, _) => true,
            (_, Some(Stakes::AllIn)) => w.win > 0.0,
            (_, Some(Stakes::Keep)) => {
                w.value > self.tune.attack && !matches!(w.command, Command::Declare { .. })
            }
            _ => w.value > self.tune.attack,
        };
        if self.memory.attacks.is_none() {
            let pairs = self
                .weigh_attacks(b)
                .into_iter()
                .filter(|(w, ..)| worth_it(w))
                .map(|(_, u, e)| (u, e))
                .collect();
            self.memory.attacks = Some(pairs);
        }
        let pairs = self.memory.attacks.take().unwrap_or_default();
        let mut left = pairs.into_iter();
        let mut found = None;
        for (u, e) in left.by_ref() {
            let (Ok(x), Ok(y)) = (b.unit(&u), b.unit(&e)) else {
                continue;
            };
            if !x.alive() || !y.alive() {
                continue;
            }
            if let Some(w) = self.weigh(b, x, y)
                && worth_it(&w)
                && probe(b, &w.command).is_some()
            {
                found = Some(Decision {
                    command: w.command,
                    reason: w.reason,
                });
                break;
            }
        }
        self.memory.attacks = Some(left.collect());
        found
    }

    /// A chip spent at once (where the rules give chips) to throw again the roll that removed
    /// one of its units in the last command: nothing else a chip buys is worth a whole unit,
    /// and the next command ends the chance. Tried on a full copy of the battle (a re-roll
    /// replays the last command, which `Battle::fork` does not keep).
    fn rescue(&self, b: &Battle) -> Option<Decision> {
        for g in self.own(b) {
            for group in b.rules.actions(b, g) {
                for a in group.actions {
                    let Command::Reroll { unit, .. } = &a.command else {
                        continue;
                    };
                    if b.unit(unit).is_ok_and(|x| x.status.removed)
                        && b.clone().execute(a.command.clone()).is_ok()
                    {
                        return Some(Decision {
                            reason: format!("{}: {}", g.name, a.label),
                            command: a.command,
                        });
                    }
                }
            }
        }
        None
    }

    /// The buttons a player takes: command rolls, recovering bases, making declared charges,
    /// fortifying; limbering to march and unlimbering within two long moves of the enemy
    /// (`Tuning::unlimber`); forming line out of the column of march within reach of the enemy.
    fn buttons(&self, b: &Battle) -> Option<Decision> {
        let reach = long_move(b);
        for u in self.own(b) {
            let near = self.nearest(b, u);
            for g in b.rules.actions(b, u) {
                for a in g.actions {
                    let take = match &a.command {
                        // A command roll whose lowest throw loses the unit (retiring it off
                        // the table) is not worth its move.
                        Command::Activate { .. } => {
                            self.wants_to_move(b, u) && !lowest_throw_loses(b, &a.command, u)
                        }
                        Command::Recover { .. }
                        | Command::Charge { .. }
                        | Command::Fortify { .. } => true,
                        Command::Unlimber { .. } => near <= self.tune.unlimber * reach,
                        // Out of the column of march into line within reach of the enemy: a
                        // column neither fires nor fights as a line does.
                        Command::Form {
                            formation: Formation::Line,
                            ..
                        } => {
                            u.formation == Formation::Column
                                && !self.beyond_reach(b, near)
                                && !self.in_attack_formation(b, u)
                        }
                        // Guns limber only to march from far away: limbered, they cannot fire.
                        Command::Limber { .. } => near > 10.0 * reach,
                        _ => false,
                    };
                    let kind = a.command.kind();
                    if take
                        && !self.did(&u.id, kind)
                        && a.command.unit() == Some(&u.id)
                        && probe(b, &a.command).is_some()
                    {
                        return Some(Decision {
                            reason: format!("{}: {}", u.name, a.label),
                            command: a.command,
                        });
                    }
                }
            }
        }
        None
    }

    /// Where a unit heads: the objective while the enemy holds it and the unit can reach it
    /// in the turns left, else the nearest enemy (far off, the nearest allowing for the turn
    /// to face it: `Tuning::ahead`). Also whether it is a place to walk onto (an
    /// objective) rather than an enemy to halt short of.
    fn goal(&self, b: &Battle, u: &Unit) -> Option<(Pt, String, bool)> {
        if let Some((at, name)) = self.guarding(b, u) {
            return Some((at, format!("{name}, to hold it"), true));
        }
        let pace = b.scale.to_mm(b.scale.unit.sample_moves()[3]);
        let turns_left = self.turns_left(b);
        if self.style == Style::Odds
            && let Some(o) = &b.objective
            && o.owner != u.side
            && !o.taken
            && o.at.dist(u.base.centre) <= pace * turns_left
        {
            // The objective by the name of the place it stands in, where it stands in one.
            let place = b
                .terrain
                .features
                .iter()
                .find(|f| !f.kind.is_linear() && f.contains(o.at))
                .map_or_else(|| "the objective".to_string(), |f| f.name.clone());
            return Some((o.at, format!("{place}, to take it"), true));
        }
        // Of the places that decide the battle, the nearest the enemy holds that it can reach:
        // from the start where the enemy holds more of them, else once it presses the attack
        // (`Tuning::press`).
        let held = b.rules.objectives_held(b);
        let ours = held.iter().filter(|o| o.2 == u.side).count();
        let behind = self.style == Style::Odds && 2 * ours < held.len();
        if (behind || self.pressing(b))
            && let Some((at, name, _)) = held
                .into_iter()
                .filter(|(at, _, side)| {
                    *side != u.side && at.dist(u.base.centre) <= pace * turns_left
                })
                .min_by(|a, c| a.0.dist(u.base.centre).total_cmp(&c.0.dist(u.base.centre)))
        {
            return Some((at, format!("{name}, to take it"), true));
        }
        // Far off, the enemy most nearly ahead: one off its front counts as farther
        // (`Tuning::ahead`), since turning to face it costs the march.
        let ahead = if self.style == Style::Odds && self.far_off(b, u) {
            self.tune.ahead
        } else {
            0.0
        };
        let far = |e: &Unit| {
            e.base.centre.dist(u.base.centre) * (1.0 + ahead * off_line(u, e.base.centre) / 90.0)
        };
        self.enemies(b, u.side)
            .into_iter()
            .min_by(|a, c| far(a).total_cmp(&far(c)))
            .map(|e| {
                (
                    e.base.centre,
                    format!("{}, to close with it", e.name),
                    false,
                )
            })
    }

    /// The places this side keeps if it still holds them at the end (the defender's objective
    /// not yet taken; the places that decide the battle that it holds now), each with the unit
    /// that guards it: where an enemy fighting unit stands within `Tuning::guard` long moves of
    /// the place (and could reach it in the turns left), the side's nearest fighting unit goes
    /// onto it and stays there. One unit guards one place.
    fn guards(&self, b: &Battle) -> Vec<(Pt, String, UnitId)> {
        if self.style != Style::Odds {
            return Vec::new();
        }
        let places = self.places(b, true);
        if places.is_empty() {
            return Vec::new();
        }
        let pace = b.scale.to_mm(b.scale.unit.sample_moves()[3]);
        let reach = (pace * self.turns_left(b)).min(self.tune.guard * long_move(b));
        let enemies = self.enemies(b, self.side);
        let mut free: Vec<&Unit> = self.own(b).into_iter().filter(|u| fights(b, u)).collect();
        let mut out = Vec::new();
        for (at, name) in places {
            let threat = enemies
                .iter()
                .filter(|e| fights(b, e))
                .any(|e| e.base.distance_to_point(at) <= reach);
            if !threat {
                continue;
            }
            let nearest = free
                .iter()
                .enumerate()
                .min_by(|(_, a), (_, c)| {
                    a.base
                        .distance_to_point(at)
                        .total_cmp(&c.base.distance_to_point(at))
                        .then_with(|| a.id.0.cmp(&c.id.0))
                })
                .map(|(i, _)| i);
            if let Some(i) = nearest {
                let g = free.remove(i);
                out.push((at, name, g.id.clone()));
            }
        }
        out
    }

    /// The places that decide the battle which its side holds now (`ours`), or which the enemy
    /// does: the scenario's objective while not taken, and the ruleset's places
    /// (`Ruleset::objectives_held`).
    fn places(&self, b: &Battle, ours: bool) -> Vec<(Pt, String)> {
        let mut places: Vec<(Pt, String)> = Vec::new();
        if let Some(o) = &b.objective
            && (o.owner == self.side) == ours
            && !o.taken
        {
            places.push((o.at, "the objective".into()));
        }
        for (at, name, side) in b.rules.objectives_held(b) {
            if (side == self.side) == ours {
                places.push((at, name));
            }
        }
        places
    }

    /// The place a unit guards, if it guards one (see `guards`).
    fn guarding(&self, b: &Battle, u: &Unit) -> Option<(Pt, String)> {
        self.guards(b)
            .into_iter()
            .find(|(.., g)| *g == u.id)
            .map(|(at, name, _)| (at, name))
    }

    /// Whether a guard stands on its place: within a short move of it. It stays there.
    fn on_guard(&self, b: &Battle, u: &Unit) -> bool {
        self.guarding(b, u).is_some_and(|(at, _)| {
            u.base.distance_to_point(at) <= b.scale.to_mm(b.scale.unit.sample_moves()[1])
        })
    }

    /// The turns left to play, counting this one (unbounded without a turn limit).
    fn turns_left(&self, b: &Battle) -> f32 {
        if b.turn_limit > 0 {
            (b.turn_limit + 1).saturating_sub(b.turn) as f32
        } else {
            f32::INFINITY
        }
    }

    /// Whether a unit means to move this bound: not a reserve while the fight is far off.
    fn wants_to_move(&self, b: &Battle, u: &Unit) -> bool {
        if self.style == Style::Straight {
            return true;
        }
        !self.is_reserve(b, u)
            || !self.far_off(b, u)
            || b.turn >= self.tune.reserve_turn
            || self.guarding(b, u).is_some()
    }

    /// The reserve: the rearmost quarter of the side, away from the enemy.
    fn is_reserve(&self, b: &Battle, u: &Unit) -> bool {
        let enemies = self.enemies(b, u.side);
        if enemies.is_empty() {
            return false;
        }
        let foe = centre(&enemies);
        let mut mine: Vec<&Unit> = b.alive().filter(|x| x.side == u.side).collect();
        mine.sort_by(|a, c| {
            c.base
                .centre
                .dist(foe)
                .total_cmp(&a.base.centre.dist(foe))
                .then_with(|| a.id.0.cmp(&c.id.0))
        });
        let rear = mine.len().checked_div(self.tune.reserve).unwrap_or(0);
        mine.iter().take(rear).any(|x| x.id == u.id)
    }

    /// A move for one unit: in its last bound one that turns the result (`decisive_move`); else
    /// a charge worth making, else towards its goal.
    fn manoeuvre(&mut self, b: &Battle) -> Option<Decision> {
        if !self.memory.no_decisive {
            if let Some(d) = self.decisive_move(b) {
                return Some(d);
            }
            self.memory.no_decisive = true;
        }
        // The fighting troops first, those nearest the enemy first: where moves are paid for,
        // they are what the points are for. Generals and trains do not march on the enemy.
        let mut own: Vec<(f32, &Unit)> = self
            .own(b)
            .into_iter()
            .filter(|u| fights(b, u))
            .map(|u| (self.nearest(b, u), u))
            .collect();
        own.sort_by(|a, c| a.0.total_cmp(&c.0).then_with(|| a.1.id.0.cmp(&c.1.id.0)));
        if !self.memory.second {
            if let Some(d) = self
                .shelter(b)
                .or_else(|| self.follow(b))
                .or_else(|| self.supply(b))
            {
                return Some(d);
            }
            if let Some(d) = self.first_move(b, &own) {
                return Some(d);
            }
            if self.style != Style::Odds {
                return None;
            }
            self.memory.second = true;
        }
        // Every first move given, units still far from the enemy march on again where the rules
        // allow it (they refuse a second move within reach of the enemy's guns).
        for (_, u) in &own {
            if !self.far_off(b, u)
                || self.on_guard(b, u)
                || self.moved(&u.id)
                || !b.rules.may_move(b, u)
                || !self.wants_to_move(b, u)
            {
                continue;
            }
            if let Some(mut d) = self.advance(b, u) {
                d.reason.push_str(" (a second move)");
                return Some(d);
            }
        }
        self.form_for_next_bound(b)
    }

    /// In its last bound, a side that would not win were the turn limit reached now moves a
    /// unit onto a place that decides the battle where that alone turns the result (a place
    /// the enemy holds, taken or contested): tried on copies of the battle, each unit that may
    /// still move and stands within a long move and a half of the place, by each sample move and
    /// to the place itself.
    fn decisive_move(&self, b: &Battle) -> Option<Decision> {
        if self.style != Style::Odds || b.turn_limit == 0 || b.turn < b.turn_limit {
            return None;
        }
        let rank = |x: &Battle| match x.rules.result_at_limit(x).0 {
            Some(s) if s == self.side => 2,
            Some(_) => 0,
            None => 1,
        };
        let now = rank(b);
        // Winning, it keeps its lead (`Stakes::Keep`).
        if now == 2 {
            return None;
        }
        let reach = 1.5 * long_move(b);
        for (at, name) in &self.places(b, false) {
            for u in self.own(b) {
                if !fights(b, u)
                    || self.moved(&u.id)
                    || !b.rules.may_move(b, u)
                    || u.base.distance_to_point(*at) > reach
                {
                    continue;
                }
                let way = at.minus(u.base.centre);
                let gap = way.len();
                let mut lengths: Vec<f32> = vec![gap];
                lengths.extend(
                    b.scale
                        .unit
                        .sample_moves()
                        .iter()
                        .rev()
                        .map(|d| b.scale.to_mm(*d))
                        .filter(|mm| *mm < gap),
                );
                for mm in lengths {
                    for steps in ways(b, u, way, mm) {
                        let cmd = Command::Move {
                            unit: u.id.clone(),
                            steps,
                        };
                        if probe(b, &cmd).is_some_and(|after| rank(&after) > now) {
                            return Some(Decision {
                                command: cmd,
                                reason: format!(
                                    "{} makes for {name}: holding it turns the result",
                                    u.name
                                ),
                            });
                        }
                    }
                }
            }
        }
        None
    }

    /// A first move for one of `own` (in their order): a charge worth making, else towards
    /// its goal. By the odds the attacker marches the most troops for its points: a move that
    /// costs more than a point a unit (a unit beyond its general's reach, where the rules
    /// charge for it) waits until every cheaper one is given. The defender pays what it takes
    /// to hold its ground. Measured on the two DBFPW scenarios (elsewhere no cell of 60 games
    /// on seeds 1-60 moved by more than one), 60 games a cell: against random 228 and 224 of
    /// 240 won on seeds 1-60 and 61-120 (227 and 220 before), against straight 161 and 153
    /// (158 and 154). Waiting so on both sides: random 229 and 229, straight 151 and 151; only
    /// units far from the enemy waiting: 232 and 224, 139 and 141.
    fn first_move(&mut self, b: &Battle, own: &[(f32, &Unit)]) -> Option<Decision> {
        let sweeps: &[bool] = if self.style == Style::Odds && !self.defends(b) {
            &[true, false]
        } else {
            &[false]
        };
        for &cheap in sweeps {
            for (_, u) in own {
                if self.moved(&u.id)
                    || !b.rules.may_move(b, u)
                    || !self.wants_to_move(b, u)
                    || self.on_guard(b, u)
                {
                    continue;
                }
                // A guard goes to its place: it does not charge off on the way.
                if self.guarding(b, u).is_none()
                    && let Some(d) = self.charge_once(b, u)
                {
                    return Some(d);
                }
                if cheap && self.memory.dear.contains(&u.id) {
                    continue;
                }
                let anchors = self.memory.anchors.len();
                let Some(d) = self.advance(b, u) else {
                    continue;
                };
                if cheap && self.dear(b, &d.command) {
                    // It waits: a friend it would have dressed on is free to move.
                    self.memory.anchors.truncate(anchors);
                    self.memory.dear.push(u.id.clone());
                    continue;
                }
                return Some(d);
            }
        }
        None
    }

    /// Whether its side is the scenario's defender.
    fn defends(&self, b: &Battle) -> bool {
        b.sides.get(self.side).is_some_and(|s| s.defender)
    }

    /// Whether a move costs its side more than one command point for each unit it moves
    /// (where the rules pay for moves with points).
    fn dear(&self, b: &Battle, cmd: &Command) -> bool {
        let points = |x: &Battle| {
            x.command_points.get(self.side).copied().unwrap_or(0)
                + x.division_points.iter().map(|d| d.1).sum::<i32>()
        };
        let units = match cmd {
            Command::MoveGroup { units, .. } => units.len().max(1),
            _ => 1,
        };
        probe(b, cmd).is_some_and(|after| points(b) - points(&after) > units as i32)
    }

    /// While his troops march from far off (their middle more than `Tuning::march` long moves
    /// from the enemy), a general left more than `Tuning::follow` long moves from his place,
    /// half a long move behind their middle, moves up to it, so that they stay in his command
    /// (or within his reach, where the rules count it). Within reach of the enemy he stays:
    /// measured on Lobositz as side 1 against the straight player over 60 games, following
    /// there too won 42, not following 48.
    fn follow(&self, b: &Battle) -> Option<Decision> {
        if self.style != Style::Odds {
            return None;
        }
        let reach = long_move(b);
        let own = self.own(b);
        let enemies = self.enemies(b, self.side);
        if enemies.is_empty() {
            return None;
        }
        let foe = centre(&enemies);
        let commands = |u: &Unit| matches!(b.rules.look(b, u).arm, Figures::Command);
        for g in own.iter().filter(|g| commands(g)) {
            if self.moved(&g.id) || !b.rules.may_move(b, g) {
                continue;
            }
            let mine: Vec<&Unit> = own
                .iter()
                .copied()
                .filter(|u| fights(b, u) && (g.division.is_none() || u.division == g.division))
                .collect();
            if mine.is_empty() {
                continue;
            }
            let middle = centre(&mine);
            // Within reach of the enemy he stays where he is: moving him there costs the
            // points the troops need, and puts him where the fire is.
            let from_enemy = enemies
                .iter()
                .map(|e| e.base.centre.dist(middle))
                .fold(f32::INFINITY, f32::min);
            if !self.beyond_reach(b, from_enemy) {
                continue;
            }
            let way_to_foe = foe.minus(middle);
            if way_to_foe.len() < 1e-3 {
                continue;
            }
            let back = way_to_foe.scale(-0.5 * reach / way_to_foe.len());
            let to = middle.plus(back);
            let way = to.minus(g.base.centre);
            let gap = way.len();
            if gap < self.tune.follow * reach {
                continue;
            }
            if let Some(command) = walk_towards(b, g, &[(way, gap)], |_| true) {
                return Some(Decision {
                    command,
                    reason: format!("{} follows his troops to keep them in hand", g.name),
                });
            }
        }
        None
    }

    /// A unit that carries supplies for its friends (`Ruleset::supplies`: ammunition packs)
    /// goes towards the friend that needs them, as far as it may, until they reach it; never to
    /// within a long move of the enemy. The straight player too: it is not a matter of odds.
    /// Measured on the two DBFPW scenarios, 60 games a cell, on seeds 1-60, 61-120, 121-180
    /// and 181-240: against random 236, 235, 236 and 237 of 240 won (228, 224, 222 and 224
    /// with guns left out of ammunition); against straight 148, 158, 149 and 153 (155, 158,
    /// 151 and 156). Where only the opponent brought up its supplies, 179, 186, 178 and 178
    /// against straight: the gain is the rules' procedure, not judgement. A train that made
    /// for the battery's middle rather than its flank (coming in at an angle it ends beside a
    /// corner, short of touching): 239, 237, 235 and 237; 153, 155, 157 and 158. One that
    /// kept two long moves from the enemy: the same games.
    fn supply(&self, b: &Battle) -> Option<Decision> {
        let reach = long_move(b);
        for u in self.own(b) {
            if self.moved(&u.id) || !b.rules.may_move(b, u) {
                continue;
            }
            let Some((to, within)) = b.rules.supplies(b, u) else {
                continue;
            };
            let Ok(f) = b.unit(&to) else {
                continue;
            };
            let gap = u.base.distance(&f.base) - within;
            if gap <= 0.0 {
                continue;
            }
            // Into the reach of its supplies by a tenth of it, where it reaches at a distance;
            // where it must touch, to a flank of the friend (the nearer first), flank to flank.
            let mut aims: Vec<(Pt, f32)> = Vec::new();
            if within > 0.0 {
                aims.push((f.base.centre.minus(u.base.centre), gap + 0.1 * within));
            } else {
                let side = f.base.right().scale((f.base.width + u.base.width) / 2.0);
                let mut spots = [f.base.centre.plus(side), f.base.centre.minus(side)];
                spots.sort_by(|a, c| a.dist(u.base.centre).total_cmp(&c.dist(u.base.centre)));
                aims.extend(spots.map(|p| (p.minus(u.base.centre), p.dist(u.base.centre))));
            }
            let safe = |after: &Battle| {
                after
                    .unit(&u.id)
                    .is_ok_and(|v| self.nearest(after, v) >= reach)
            };
            if let Some(command) = walk_towards(b, u, &aims, safe) {
                return Some(Decision {
                    command,
                    reason: format!("{} takes supplies up to {}", u.name, f.name),
                });
            }
        }
        None
    }

    /// A general the rules would strike down were the enemy a long move nearer
    /// (`Ruleset::general_exposed`) steps back behind his nearest own unit, on its side away
    /// from the enemy, as far as he may go towards it.
    fn shelter(&self, b: &Battle) -> Option<Decision> {
        if self.style != Style::Odds {
            return None;
        }
        let reach = long_move(b);
        let own = self.own(b);
        let enemies: Vec<&Unit> = self
            .enemies(b, self.side)
            .into_iter()
            .filter(|e| fights(b, e))
            .collect();
        let commands = |u: &Unit| matches!(b.rules.look(b, u).arm, Figures::Command);
        for g in own.iter().filter(|g| commands(g)) {
            if self.moved(&g.id) || !b.rules.may_move(b, g) || !b.rules.general_exposed(b, g, reach)
            {
                continue;
            }
            let (Some(foe), Some(cover)) = (
                nearest_to(enemies.iter().copied(), g),
                nearest_to(own.iter().copied().filter(|u| fights(b, u)), g),
            ) else {
                continue;
            };
            // Behind the unit, away from the enemy.
            let away = cover.base.centre.minus(foe.base.centre);
            let len = away.len();
            if len < 1e-3 {
                continue;
            }
            let gap = (cover.base.width.max(cover.base.depth) + g.base.depth) / 2.0 + 1.0;
            let to = cover.base.centre.plus(away.scale(gap / len));
            let way = to.minus(g.base.centre);
            let dist = way.len();
            if dist < 1.0 {
                continue;
            }
            for frac in [1.0, 0.75, 0.5, 0.25] {
                for steps in walks(b, g, way, dist * frac) {
                    let cmd = Command::Move {
                        unit: g.id.clone(),
                        steps,
                    };
                    if let Some(after) = probe(b, &cmd)
                        && after
                            .unit(&g.id)
                            .is_ok_and(|v| v.base.distance(&foe.base) > g.base.distance(&foe.base))
                    {
                        return Some(Decision {
                            command: cmd,
                            reason: format!(
                                "{} falls back behind {}, out of {}'s reach",
                                g.name, cover.name, foe.name
                            ),
                        });
                    }
                }
            }
        }
        None
    }

    /// A charge for a unit not yet found without one this phase (see `PhaseMemory::no_charge`).
    fn charge_once(&mut self, b: &Battle, u: &Unit) -> Option<Decision> {
        if self.memory.no_charge.contains(&u.id) {
            return None;
        }
        let c = self.charge(b, u);
        if c.is_none() {
            self.memory.no_charge.push(u.id.clone());
        }
        c
    }

    /// A move into contact: straight on, with any odds; by the odds, only where the combat the
    /// contact brings is worth fighting.
    fn charge(&self, b: &Battle, u: &Unit) -> Option<Decision> {
        let mut enemies = self.enemies(b, u.side);
        enemies.sort_by(|a, c| {
            a.base
                .distance(&u.base)
                .total_cmp(&c.base.distance(&u.base))
        });
        let reach = long_move(b) * 2.0;
        let stakes = self.last_bound(b);
        let least = if self.pressing(b) {
            0.0
        } else {
            self.tune.charge
        };
        // By the odds, the worth and the chance to win of the fight a move into contact
        // brings, if it is worth making.
        let weigh = |after: Battle, e: &Unit| -> Option<(f64, f64)> {
            let fight = Command::Fight {
                unit: u.id.clone(),
                target: e.id.clone(),
                pursue: None,
                pursuits: Vec::new(),
            };
            let (value, win) = worth(&self.combat_ahead(after, &fight)?);
            let made = match stakes {
                Some(Stakes::Keep) => false,
                Some(Stakes::AllIn) => win > 0.0 && value > self.tune.all_in,
                None => value > least,
            };
            made.then_some((value, win))
        };
        for e in enemies.into_iter().take(3) {
            if e.base.distance(&u.base) > reach {
                break;
            }
            // The charge made from the formation the rules reward it for (`attack_formation`),
            // formed first on a copy: by the odds where the fight is worth more so (or only so
            // worth making), straight on wherever it can be made so.
            let formed = self.formed_for(b, u, e).and_then(|(form, copy)| {
                let v = copy.unit(&u.id).ok()?;
                let (_, after) = self.contact(&copy, v, e)?;
                Some((form, after))
            });
            let plain = self.contact(b, u, e);
            match self.style {
                Style::Straight => {
                    if let Some((form, _)) = formed {
                        return Some(self.form_decision(u, e, form, None));
                    }
                    if let Some((cmd, _)) = plain {
                        return Some(Decision {
                            command: cmd,
                            reason: format!("{} charges {}", u.name, e.name),
                        });
                    }
                }
                Style::Odds => {
                    let plain = plain.and_then(|(cmd, after)| Some((cmd, weigh(after, e)?)));
                    let formed = formed.and_then(|(form, after)| Some((form, weigh(after, e)?)));
                    match (plain, formed) {
                        (p, Some((form, (value, win))))
                            if p.as_ref().is_none_or(|(_, (v, _))| value > *v + 1e-9) =>
                        {
                            return Some(self.form_decision(u, e, form, Some(win)));
                        }
                        (Some((cmd, (_, win))), _) => {
                            return Some(Decision {
                                command: cmd,
                                reason: format!(
                                    "{} charges {}: {:.0}% to win",
                                    u.name,
                                    e.name,
                                    win * 100.0
                                ),
                            });
                        }
                        _ => {}
                    }
                }
            }
        }
        None
    }

    /// The command that forms `u` as the rules reward it for charging `e`
    /// (`Ruleset::attack_formation`), with the battle after it, where it is not so formed
    /// already and the rules accept it now.
    fn formed_for(&self, b: &Battle, u: &Unit, e: &Unit) -> Option<(Command, Battle)> {
        let formation = b.rules.attack_formation(b, u, e)?;
        if formation == u.formation || self.did(&u.id, "Form") {
            return None;
        }
        let cmd = Command::Form {
            unit: u.id.clone(),
            formation,
            turn: 0.0,
        };
        probe(b, &cmd).map(|after| (cmd, after))
    }

    /// The decision to form `u` before charging `e` (with the charge's chance to win, by the
    /// odds).
    fn form_decision(&self, u: &Unit, e: &Unit, command: Command, win: Option<f64>) -> Decision {
        let odds = win.map_or(String::new(), |w| format!(": {:.0}% to win", w * 100.0));
        Decision {
            command,
            reason: format!("{} forms to charge {}{odds}", u.name, e.name),
        }
    }

    /// Whether `u` stands in the formation the rules reward it for charging one of the
    /// enemy's units in (`Ruleset::attack_formation`): not a column of march to leave.
    fn in_attack_formation(&self, b: &Battle, u: &Unit) -> bool {
        self.enemies(b, u.side)
            .iter()
            .any(|e| b.rules.attack_formation(b, u, e) == Some(u.formation))
    }

    /// By the odds, with its moves given: a unit not in contact whose nearest enemy stands
    /// within a long move, where the rules reward it for charging that enemy in another
    /// formation (`Ruleset::attack_formation`), forms it with what the moves left over, ready
    /// to charge it next bound (and to meet its charge).
    fn form_for_next_bound(&self, b: &Battle) -> Option<Decision> {
        if self.style != Style::Odds || self.last_bound(b).is_some() {
            return None;
        }
        for u in self.own(b) {
            if !fights(b, u) {
                continue;
            }
            let foes = self.enemies(b, u.side).into_iter().filter(|e| fights(b, e));
            let Some(e) = nearest_to(foes, u) else {
                continue;
            };
            let gap = e.base.distance(&u.base);
            if gap <= MEETS || gap > long_move(b) {
                continue;
            }
            if let Some((command, _)) = self.formed_for(b, u, e) {
                return Some(Decision {
                    command,
                    reason: format!("{} forms to charge {} next bound", u.name, e.name),
                });
            }
        }
        None
    }

    /// A move into contact with an enemy, with the battle after it: straight on; by the odds,
    /// where the rules want the fronts met square, also wheeling first to square up to it (or
    /// to face it). The straight player, the yardstick, only goes straight on.
    fn contact(&self, b: &Battle, u: &Unit, e: &Unit) -> Option<(Command, Battle)> {
        let mut tries = vec![vec![Step::ToContact(e.id.clone())]];
        if self.style == Style::Odds {
            let square = norm_deg(e.base.facing + 180.0 - u.base.facing).abs();
            for degrees in [square, off_line(u, e.base.centre)] {
                if !(1.0..=90.0).contains(&degrees) {
                    continue;
                }
                for corner in [Corner::Left, Corner::Right] {
                    tries.push(vec![
                        Step::Wheel { corner, degrees },
                        Step::ToContact(e.id.clone()),
                    ]);
                }
            }
        }
        tries.into_iter().find_map(|steps| {
            let cmd = Command::Move {
                unit: u.id.clone(),
                steps,
            };
            probe(b, &cmd).map(|after| (cmd, after))
        })
    }

    /// The outlook of a fight that a move into contact brings: now, or, where the rules fight
    /// it in a later phase of the bound (a close combat phase after the movement), as it will
    /// stand then, the phases between played out on the copy of the battle (no more than the
    /// rest of its own bound, which has no more phases than the ruleset's turn: BBB fights an
    /// assault four phases after the move that makes it). The enemy's phases between (BBB's
    /// defensive fire) pass on the copy without its fire: the odds are those of the fight as
    /// the units stand.
    fn combat_ahead(&self, mut after: Battle, fight: &Command) -> Option<Outlook> {
        for _ in 0..after.rules.phases().len() {
            match after.rules.preview(&after, fight) {
                Err(RuleError::WrongPhase { .. }) if after.active == self.side => {
                    after.execute(Command::EndPhase).ok()?;
                }
                r => return r.ok(),
            }
        }
        None
    }

    /// Towards the goal: wheel to face it, then advance as far as the rules allow, stopping
    /// short of the enemy (by the odds) so as not to walk into its fire piecemeal, and (by the
    /// odds) never into contact: only a charge, weighed first, goes there.
    fn advance(&mut self, b: &Battle, u: &Unit) -> Option<Decision> {
        if self.last_bound(b) == Some(Stakes::Keep) && self.guarding(b, u).is_none() {
            return None;
        }
        if self.holds_ground(b, u) {
            return None;
        }
        let (to, name, onto) = self.goal(b, u)?;
        let moves = b.scale.unit.sample_moves();
        if off_line(u, to) > 25.0
            && let Some(d) = self.wheel_towards(b, u, to, &name)
        {
            return Some(d);
        }
        let gap = u.base.centre.dist(to);
        // Late in the game it presses on (`Tuning::press`): no halting short, no waiting for
        // the line (a game left level at the turn limit is not won).
        let pressing = self.pressing(b);
        // By the odds a unit halts a short move from the enemy, in line, and lets it come on
        // or charges next bound; the objective itself is walked onto.
        let stand_off = match self.style {
            _ if pressing => 0.0,
            Style::Odds if !onto => self
                .tune
                .stand_off
                .and_then(|i| moves.get(i))
                .map_or(0.0, |d| b.scale.to_mm(*d)),
            _ => 0.0,
        };
        // By the odds a unit keeps its line within reach of the enemy: it goes no more than a
        // short move ahead of the middle of its division (or its side), towards the enemy.
        // Far from the enemy it marches at its best pace: the line forms again within reach.
        // A guard goes to its place whatever the line does.
        let guard = self.guarding(b, u).is_some();
        let ahead_of_line = if pressing || guard || self.far_off(b, u) {
            f32::NEG_INFINITY
        } else {
            self.ahead_of_line(b, u)
        };
        // By the odds, the moves that neither end too near the enemy nor leave the line behind;
        // straight on, any move. The longest first.
        let line_limit = b.scale.to_mm(moves[self.tune.line.min(4)]);
        let allowed: Vec<f32> = moves
            .iter()
            .rev()
            .copied()
            .filter(|d| {
                let mm = b.scale.to_mm(*d);
                self.style == Style::Straight
                    || (gap - mm >= stand_off && ahead_of_line + mm <= line_limit)
            })
            .collect();
        // A line of units side by side advances as one body, where the rules allow it.
        let line = if guard {
            vec![u.id.clone()]
        } else {
            self.line_of(b, u)
        };
        if line.len() == 1
            && !pressing
            && !guard
            && let Some(d) = self.dress(b, u)
        {
            return Some(d);
        }
        if self.style == Style::Odds && line.len() > 1 {
            for d in &allowed {
                let cmd = Command::MoveGroup {
                    units: line.clone(),
                    steps: vec![Step::Advance(*d)],
                };
                if probe(b, &cmd).is_some_and(|after| {
                    !self.meets_enemy(&after, &line) && !self.disorders_friends(b, &after, &line)
                }) {
                    return Some(Decision {
                        command: cmd,
                        reason: format!(
                            "{} and {} more advance {d} {} in line towards {name}",
                            u.name,
                            line.len() - 1,
                            b.scale.unit
                        ),
                    });
                }
            }
        }
        let mut found: Option<(bool, f32, Command)> = None;
        for d in &allowed {
            let cmd = Command::Move {
                unit: u.id.clone(),
                steps: vec![Step::Advance(*d)],
            };
            let Some(after) = probe(b, &cmd) else {
                continue;
            };
            if self.style == Style::Straight {
                found = Some((false, *d, cmd));
                break;
            }
            let movers = std::slice::from_ref(&u.id);
            if self.meets_enemy(&after, movers) || self.disorders_friends(b, &after, movers) {
                continue;
            }
            // By the odds the longest move that ends in cover, else the longest.
            let covered = after
                .unit(&u.id)
                .is_ok_and(|v| in_cover(&after, v.base.centre));
            if found.as_ref().is_none_or(|(c, ..)| covered && !c) {
                found = Some((covered, *d, cmd));
            }
        }
        found.map(|(covered, d, cmd)| Decision {
            command: cmd,
            reason: format!(
                "{} advances {d} {}{} towards {name}",
                u.name,
                b.scale.unit,
                if covered { " into cover" } else { "" }
            ),
        })
    }

    /// A wheel about whichever front corner turns `u` most towards `to` (no more than 45
    /// degrees), if the rules allow one that turns it at all.
    fn wheel_towards(&self, b: &Battle, u: &Unit, to: Pt, name: &str) -> Option<Decision> {
        let off = off_line(u, to);
        let mut best: Option<(f32, Command)> = None;
        for corner in [Corner::Left, Corner::Right] {
            for degrees in [off.min(45.0), off.min(30.0), off.min(15.0)] {
                let cmd = Command::Move {
                    unit: u.id.clone(),
                    steps: vec![Step::Wheel { corner, degrees }],
                };
                let Some(after) = probe(b, &cmd) else {
                    continue;
                };
                let Ok(v) = after.unit(&u.id) else { continue };
                let left = off_line(v, to);
                if left < off && best.as_ref().is_none_or(|(l, _)| left < *l) {
                    best = Some((left, cmd));
                }
                break;
            }
        }
        best.map(|(_, cmd)| Decision {
            command: cmd,
            reason: format!("{} wheels towards {name}", u.name),
        })
    }

    /// Where the rules move units in edge contact as one group for one command, a unit standing
    /// alone a little apart from a friend of its line, far from the enemy, spends its move
    /// closing up to it: flank to flank, front edges level. From the next bound the two move as
    /// one. It dresses on a friend already in a group or already moved, else the nearest; that
    /// friend then stands for the phase.
    fn dress(&mut self, b: &Battle, u: &Unit) -> Option<Decision> {
        if self.style != Style::Odds
            || !b.rules.moves_in_groups()
            || self.nearest(b, u) < 2.0 * long_move(b)
        {
            return None;
        }
        let (fwd, right) = (u.base.forward(), u.base.right());
        // (moved already, the size of its group, the gap, the friend, the side it stands on)
        let mut anchors: Vec<(bool, usize, f32, &Unit, f32)> = Vec::new();
        for n in self.own(b) {
            if n.id == u.id || !fights(b, n) || (n.base.facing - u.base.facing).abs() > 1.0 {
                continue;
            }
            let rel = n.base.centre.minus(u.base.centre);
            let across = rel.dot(right);
            let gap = across.abs() - (u.base.width + n.base.width) / 2.0;
            if gap <= 0.5 || gap > u.base.width || rel.dot(fwd).abs() > long_move(b) {
                continue;
            }
            let moved = self.moved(&n.id);
            let group = if moved { 1 } else { self.line_of(b, n).len() };
            anchors.push((moved, group, gap, n, across.signum()));
        }
        // A friend that has moved costs nothing to dress on; else the larger group, the
        // nearer friend.
        anchors.sort_by(|a, c| c.0.cmp(&a.0).then(c.1.cmp(&a.1)).then(a.2.total_cmp(&c.2)));
        for (moved, _, _, n, sign) in anchors {
            let front = n.base.centre.plus(fwd.scale(n.base.depth / 2.0));
            let to = front
                .minus(fwd.scale(u.base.depth / 2.0))
                .minus(right.scale(sign * (u.base.width + n.base.width) / 2.0));
            let way = to.minus(u.base.centre);
            let ahead = way.dot(fwd);
            // Obliquely; troops that move only straight ahead or sideways, forward and then
            // sideways.
            let mut tries = Vec::new();
            if ahead.abs() > 0.5 {
                tries.push(vec![Step::Oblique {
                    forward: b.scale.from_mm(ahead),
                    right: b.scale.from_mm(way.dot(right)),
                }]);
            }
            tries.push(square_steps(b, u, way));
            for steps in tries {
                let cmd = Command::Move {
                    unit: u.id.clone(),
                    steps,
                };
                if probe(b, &cmd).is_none() {
                    continue;
                }
                // A friend that has not moved stands, with its group, to be dressed on.
                if !moved {
                    let group = self.line_of(b, n);
                    self.memory.anchors.extend(group);
                }
                return Some(Decision {
                    command: cmd,
                    reason: format!("{} closes up on {} to move with it", u.name, n.name),
                });
            }
        }
        None
    }

    /// Whether a move of `movers` leaves a friend of theirs disordered that was not (asked by
    /// the odds only): where the rules disorder units that end intermixed (Old Dessauer), marching
    /// through a friend costs both their order, and their fire and combat with it. Measured on
    /// the nine scenarios, 60 games a cell on seeds 1-60, with the least worth of a charge
    /// made all in (`Tuning::all_in`): against random 1,036 of 1,080 (1,035 without), against
    /// straight 787 (787); only Lobosch as Prussia against random moved (51 to 52).
    fn disorders_friends(&self, b: &Battle, after: &Battle, movers: &[UnitId]) -> bool {
        self.own(after).iter().any(|v| {
            v.status.disordered
                && !movers.contains(&v.id)
                && b.unit(&v.id).is_ok_and(|w| !w.status.disordered)
        })
    }

    /// Whether any of `units` stands in contact with an enemy in `after`: an advance that ends
    /// so brings a fight whose odds it has not weighed (that is a charge's business).
    fn meets_enemy(&self, after: &Battle, units: &[UnitId]) -> bool {
        units.iter().filter_map(|id| after.unit(id).ok()).any(|v| {
            self.enemies(after, v.side)
                .iter()
                .any(|e| e.base.within(&v.base, MEETS))
        })
    }

    /// What its side plays for in its last bound (by the odds), from the result were the
    /// turn limit reached now (`Ruleset::result_at_limit`): None before the last turn, and in
    /// a level game, which it plays as it was pressing the attack (a charge worth more than
    /// nothing; at any chance, it would as likely turn the draw into a loss).
    fn last_bound(&self, b: &Battle) -> Option<Stakes> {
        if self.style != Style::Odds || b.turn_limit == 0 || b.turn < b.turn_limit {
            return None;
        }
        match b.rules.result_at_limit(b).0 {
            Some(s) if s == self.side => Some(Stakes::Keep),
            Some(_) => Some(Stakes::AllIn),
            None => None,
        }
    }

    /// Whether `u` holds its ground rather than advance (by the odds): a unit of the
    /// scenario's defending side, in cover or on a hill, with the enemy within reach, until it
    /// presses the attack (a guard goes to its place whatever). Measured over the six
    /// scenarios with a defender, as the defender, 60 games a cell: against the straight player
    /// 236 of 360 won on seeds 1-60 (226 advancing) and 225 on seeds 61-120 (220); against
    /// the random player 343 and 338 (343 and 331). Every defending unit holding, wherever it
    /// stood, won 235 against straight and 333 against random on seeds 1-60; the attacker's
    /// units holding good ground too, 745 of 1,080 over all nine scenarios against straight
    /// (771 the defender's only).
    fn holds_ground(&self, b: &Battle, u: &Unit) -> bool {
        // The guards last: they are weighed for the whole side.
        self.style == Style::Odds
            && self.defends(b)
            && !self.pressing(b)
            && (in_cover(b, u.base.centre) || b.terrain.level_at(u.base.centre) > 0)
            && !self.far_off(b, u)
            && self.guarding(b, u).is_none()
    }

    /// Whether the game is past `Tuning::press` of its turn limit: the opponent then presses
    /// the attack.
    fn pressing(&self, b: &Battle) -> bool {
        self.style == Style::Odds
            && b.turn_limit > 0
            && b.turn as f32 > self.tune.press * b.turn_limit as f32
    }

    /// The unit and the units of its side standing beside it, flank to flank and facing the
    /// same way, that have not moved yet this phase and neither guard a place nor hold good
    /// ground (`holds_ground`): a line that can advance as one body.
    fn line_of(&self, b: &Battle, u: &Unit) -> Vec<UnitId> {
        let own = self.own(b);
        let guards: Vec<UnitId> = self.guards(b).into_iter().map(|g| g.2).collect();
        let mut line = vec![u];
        let mut k = 0;
        while k < line.len() {
            let x = line[k];
            for y in &own {
                if line.iter().any(|l| l.id == y.id)
                    || guards.contains(&y.id)
                    || self.holds_ground(b, y)
                    || self.moved(&y.id)
                    || (y.base.facing - x.base.facing).abs() > 1.0
                    || !fights(b, y)
                {
                    continue;
                }
                let flank = x.base.touched_by(&y.base).is_some_and(|c| {
                    matches!(c.edge, Edge::Left | Edge::Right)
                        && matches!(c.own_edge, Edge::Left | Edge::Right)
                });
                if flank {
                    line.push(y);
                }
            }
            k += 1;
        }
        line.into_iter().map(|x| x.id.clone()).collect()
    }

    /// How far a unit stands ahead of the middle of its division (its side, without one),
    /// measured towards the enemy's centre, in mm.
    fn ahead_of_line(&self, b: &Battle, u: &Unit) -> f32 {
        let enemies = self.enemies(b, u.side);
        let mine: Vec<&Unit> = self
            .own(b)
            .into_iter()
            .filter(|x| u.division.is_none() || x.division == u.division)
            .collect();
        let (own, foe) = (centre(&mine), centre(&enemies));
        let way = foe.minus(own);
        let len = way.len();
        if len < 1e-3 || mine.len() < 2 {
            return 0.0;
        }
        let dir = way.scale(1.0 / len);
        let mut along: Vec<f32> = mine.iter().map(|x| x.base.centre.dot(dir)).collect();
        along.sort_by(f32::total_cmp);
        u.base.centre.dot(dir) - along[along.len() / 2]
    }

    /// Anything the rules accept, for a phase they will not let end yet.
    fn forced(&self, b: &Battle) -> Option<Decision> {
        for (w, ..) in self.weigh_attacks(b) {
            if probe(b, &w.command).is_some() {
                return Some(Decision {
                    command: w.command,
                    reason: format!("{} (the rules require it)", w.reason),
                });
            }
        }
        for u in b.alive() {
            for g in b.rules.actions(b, u) {
                for a in g.actions {
                    if probe(b, &a.command).is_some() {
                        return Some(Decision {
                            reason: format!("{}: {} (the rules require it)", u.name, a.label),
                            command: a.command,
                        });
                    }
                }
            }
        }
        None
    }

    /// Plays `side`'s commands in this phase, and ends it if `end`; returns what it did.
    pub fn play_phase(&mut self, b: &mut Battle, side: Side, end: bool) -> Vec<Decision> {
        let start = (b.turn, b.phase, b.active, b.deployment_step);
        let same = |b: &Battle| (b.turn, b.phase, b.active, b.deployment_step) == start;
        let mut out = Vec::new();
        while same(b) {
            let Some(d) = self.decide(b, side) else { break };
            if b.execute(d.command.clone()).is_err() {
                self.refused += 1;
                break;
            }
            out.push(d);
        }
        if end && same(b) && !b.is_over() {
            let d = self.finish(b, side);
            if b.execute(d.command.clone()).is_ok() {
                out.push(d);
            } else {
                self.refused += 1;
            }
        }
        out
    }
}
