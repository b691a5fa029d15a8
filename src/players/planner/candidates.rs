//! What each unit may sensibly do now, as the planner offers it to the search: its attacks
//! (whatever a click on each of the nearest enemies gives: fire, a charge, a fight; and where
//! the rules make a charge by a move, the move into contact with each, or else the turn that
//! squares up to it for a charge next bound), its buttons, and its moves towards the places
//! that matter (each objective, each of the nearest enemies, away from the nearest, turning
//! to face it). Each is tried on a copy of the battle first, so none is ever refused at the
//! time it was offered.

use super::intent::{Goal, Intent};
use crate::players::opponent::{
    Decision, combat_ahead, contact_move, fights, long_move, probe, walk_towards, walks, worth,
};
use crate::rules::battle::Battle;
use crate::rules::command::{Command, Step};
use crate::rules::game::Game;
use crate::rules::geometry::{Corner, Pt, norm_deg};
use crate::rules::model::{Side, Unit, UnitId};
use crate::rules::ruleset::common::heading_deg;
use crate::rules::ruleset::common::sweep_to_contact;
use crate::rules::ruleset::view::{MoveRequest, Outlook};

/// Enemies weighed for each unit's attacks and moves (and in the search's look ahead): the
/// nearest few.
const NEAREST: usize = 3;
/// How far off square (degrees) a turn may leave a unit's front to the enemy's and still
/// have squared up to it: a charge from there meets it flat.
const SQUARE: f32 = 5.0;
/// A unit's buttons offered at most (a general's attachments can run long).
const BUTTONS: usize = 6;

/// What a command is, for the order a plan gives them in: a unit's buttons (forming,
/// limbering) before its moves, and moves before attacks, so that a line forms and closes
/// before it fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Button,
    Move,
    Attack,
}

/// One thing a unit may do, and what it is for.
#[derive(Clone, Debug)]
pub struct Cand {
    pub command: Command,
    pub kind: Kind,
    /// What it is for, in the log's words ("towards the Galgenberg, to take it").
    pub why: String,
    /// The place it aims at (the objective or the enemy it goes for), where it has one.
    pub aim: Option<Pt>,
    /// It carries the side's intent on: the march of a unit sent to take a place.
    pub march: bool,
    /// For a move, how far the unit then stands from its nearest enemy (mm, base to base):
    /// what the plan that closes up on the enemy (`search::advancing`) reads.
    pub gap: Option<f32>,
}

/// A unit's choices; holding (giving it no command) is always one more.
#[derive(Clone, Debug)]
pub struct UnitChoices {
    pub unit: UnitId,
    pub cands: Vec<Cand>,
}

fn kind_of(cmd: &Command) -> Kind {
    match cmd {
        Command::Move { .. }
        | Command::MoveStand { .. }
        | Command::MoveGroup { .. }
        | Command::Evade { .. }
        | Command::Fallback { .. } => Kind::Move,
        Command::Fire { .. } | Command::Fight { .. } | Command::Charge { .. } => Kind::Attack,
        _ => Kind::Button,
    }
}

/// The choices of each of `side`'s units that has any, in the battle's order of units.
/// `advice`: commands another player would give in this phase (the veteran's), each offered
/// to the unit it names with its reason. A unit the side's `intent` sends to take a place is
/// offered its longest marches there, and the one that carries the intent furthest is marked.
pub fn for_side(game: &Game, side: Side, advice: &[Decision], intent: &Intent) -> Vec<UnitChoices> {
    let b: &Battle = game;
    let mut out = Vec::new();
    for u in b.alive().filter(|u| u.side == side && u.base.width > 0.0) {
        let mut cands: Vec<Cand> = Vec::new();
        let offer = |cands: &mut Vec<Cand>, command: Command, kind: Kind, why: String, aim| {
            if cands.iter().any(|c| c.command == command) {
                return;
            }
            let Some(after) = probe(game, &command) else {
                return;
            };
            let gap = if kind == Kind::Move {
                after.unit(&u.id).ok().map(|v| gap_to_enemy(&after, v))
            } else {
                None
            };
            cands.push(Cand {
                command,
                kind,
                why,
                aim,
                march: false,
                gap,
            });
        };
        if let Some(d) = advice.iter().find(|d| d.command.unit() == Some(&u.id)) {
            offer(
                &mut cands,
                d.command.clone(),
                kind_of(&d.command),
                d.reason.clone(),
                advised_aim(game, u, d),
            );
            for (cmd, why, goal) in longer_lines(game, &d.command, intent) {
                offer(&mut cands, cmd, Kind::Move, why, goal);
            }
        }
        let enemies = nearest_enemies(b, u);
        for e in &enemies {
            let Some(cmd) = game.rules.target_command(b, &u.id, &e.id) else {
                continue;
            };
            let why = match game.rules.preview(b, &cmd) {
                Ok(o) => {
                    let (value, win) = worth(&o);
                    format!(
                        "{} {}: {:.0}% to come out ahead, {value:+.2} expected",
                        verb(&cmd),
                        e.name,
                        100.0 * win
                    )
                }
                Err(_) => format!("{} {}", verb(&cmd), e.name),
            };
            let kind = kind_of(&cmd).max(Kind::Attack);
            offer(&mut cands, cmd, kind, why, Some(e.base.centre));
        }
        if game.rules.may_move(b, u) {
            for e in &enemies {
                if let Some((cmd, why)) = closing(game, u, e) {
                    offer(&mut cands, cmd, Kind::Move, why, Some(e.base.centre));
                } else if let Some(cmd) = squaring(game, u, e) {
                    let why = format!(
                        "{} squares up to {}, to close with it next bound",
                        u.name, e.name
                    );
                    offer(&mut cands, cmd, Kind::Move, why, Some(e.base.centre));
                }
            }
        }
        for group in game.actions(u) {
            for a in group.actions.into_iter().take(BUTTONS) {
                let kind = kind_of(&a.command);
                offer(
                    &mut cands,
                    a.command,
                    kind,
                    format!("{}: {}", u.name, a.label),
                    None,
                );
            }
        }
        if game.rules.may_move(b, u) {
            if let Some(g) = intent.goal_of(&u.id) {
                if g.units.first().is_some_and(|(lead, _)| *lead == u.id)
                    && let Some(cmd) = march_together(game, u, g)
                {
                    let why = format!(
                        "{} and {} more march towards {}, {}",
                        u.name,
                        g.units.len() - 1,
                        g.name,
                        g.purpose()
                    );
                    offer(&mut cands, cmd, Kind::Move, why, Some(g.at));
                }
                for cmd in marches(game, u, g.at) {
                    let why = format!("{} marches towards {}, {}", u.name, g.name, g.purpose());
                    offer(&mut cands, cmd, Kind::Move, why, Some(g.at));
                }
                // A guard short of the place's ring: the walk that takes it a third of the
                // way in (where a march to the place itself is refused: a line standing
                // beside it, facing the enemy).
                let short = g.short_of(u);
                if g.hold && short > 0.0 {
                    let way = g.at.minus(u.base.centre);
                    let mm = short + g.radius / 3.0;
                    let by = way.scale(mm / way.len().max(1e-3));
                    // Obliquely or turning and advancing, else a sidestep alone.
                    let sidestep = vec![Step::Sidestep(b.scale.from_mm(by.dot(u.base.right())))];
                    let step_up = walks(b, u, way, mm)
                        .into_iter()
                        .chain([sidestep])
                        .map(|steps| Command::Move {
                            unit: u.id.clone(),
                            steps,
                        })
                        .find(|cmd| probe(game, cmd).is_some());
                    if let Some(cmd) = step_up {
                        let why = format!("{} steps up to {}, {}", u.name, g.name, g.purpose());
                        offer(&mut cands, cmd, Kind::Move, why, Some(g.at));
                    }
                }
            }
            for (cmd, why, aim) in moves(game, u, side, &enemies) {
                offer(&mut cands, cmd, Kind::Move, why, aim);
            }
        }
        if let Some(g) = intent.goal_of(&u.id) {
            mark_march(game, intent, g, &mut cands);
        }
        if !cands.is_empty() {
            out.push(UnitChoices {
                unit: u.id.clone(),
                cands,
            });
        }
    }
    out
}

/// How far `u` may move now (mm), as the rules give its allowance; None where they would not
/// let it move.
pub(super) fn pace(game: &Game, u: &Unit) -> Option<f32> {
    let b: &Battle = game;
    let nudge = b.scale.from_mm(0.5);
    let request = MoveRequest::unit(u.id.clone(), vec![Step::Advance(nudge)]);
    let plan = game.rules.check_move(b, &request).ok()?;
    (plan.allowance > 0.0).then(|| b.scale.to_mm(plan.allowance))
}

/// How far `u` stands from its nearest enemy on the table (mm, base to base; infinite where
/// it has none).
pub fn gap_to_enemy(b: &Battle, u: &Unit) -> f32 {
    b.alive()
        .filter(|e| e.side != u.side && e.base.width > 0.0)
        .map(|e| e.base.distance(&u.base))
        .fold(f32::INFINITY, f32::min)
}

/// A move into contact with `e` (straight on, or wheeling first to meet it square), with the
/// odds of the fight it brings in the log's words, where the rules accept one now and the
/// fight is one the rules would preview: the charge the rules make by a move rather than by
/// a command of their own (DBN's move into contact).
fn closing(game: &Game, u: &Unit, e: &Unit) -> Option<(Command, String)> {
    if e.base.distance(&u.base) > 2.0 * long_move(game) {
        return None;
    }
    let (cmd, value, win) = charge(game, u, e, true)?;
    let why = format!(
        "{} closes with {}: {:.0}% to come out ahead, {value:+.2} expected",
        u.name,
        e.name,
        100.0 * win
    );
    Some((cmd, why))
}

/// A move into contact with `e` for `u` (straight on; where `square`, also wheeling first) with
/// the worth and the chance to win of the fight it brings, by the rules' preview as it will
/// stand in the close combat phase.
pub(super) fn charge(game: &Game, u: &Unit, e: &Unit, square: bool) -> Option<(Command, f64, f64)> {
    let (cmd, fight) = charge_outlook(game, u, e, square)?;
    let (value, win) = worth(&fight);
    Some((cmd, value, win))
}

/// The move of `u` into contact with `e` (as `charge`) and the outlook of the fight it brings.
pub(super) fn charge_outlook(
    game: &Game,
    u: &Unit,
    e: &Unit,
    square: bool,
) -> Option<(Command, Outlook)> {
    let (cmd, after) = contact_move(game, u, e, square)?;
    let fight = Command::Fight {
        unit: u.id.clone(),
        target: e.id.clone(),
        pursue: None,
        pursuits: Vec::new(),
    };
    Some((cmd, combat_ahead(after, &fight, u.side)?))
}

/// A turn that squares `u` up to `e` with `e` then straight ahead of it within a long move
/// (on the spot, or wheeling on either front corner), where the rules accept one now: the
/// first half of a charge where the rules let a move into contact go only straight on.
fn squaring(game: &Game, u: &Unit, e: &Unit) -> Option<Command> {
    let b: &Battle = game;
    if e.base.distance(&u.base) > 2.0 * long_move(b) {
        return None;
    }
    let turn = norm_deg(e.base.facing + 180.0 - u.base.facing);
    if turn.abs() < 1.0 {
        return None;
    }
    let corner = if turn < 0.0 {
        Corner::Left
    } else {
        Corner::Right
    };
    [
        Step::Pivot(turn),
        Step::Wheel {
            corner,
            degrees: turn.abs(),
        },
    ]
    .into_iter()
    .map(|step| Command::Move {
        unit: u.id.clone(),
        steps: vec![step],
    })
    .find(|cmd| {
        probe(game, cmd).is_some_and(|after| {
            after.unit(&u.id).is_ok_and(|v| {
                sweep_to_contact(&v.base, &e.base, SQUARE).is_some_and(|d| d <= long_move(b))
            })
        })
    })
}

/// The verb of an attack in the log's words.
fn verb(cmd: &Command) -> &'static str {
    match cmd {
        Command::Fire { .. } => "fires at",
        Command::Fight { .. } => "fights",
        Command::Charge { .. } | Command::Declare { .. } => "charges",
        Command::Move { .. } => "closes with",
        _ => "attacks",
    }
}

/// The nearest enemies on the table (`NEAREST` of them), nearest first: the ones a unit's
/// attacks are weighed against, here and in the search's look ahead.
pub fn nearest_enemies<'a>(b: &'a Battle, u: &Unit) -> Vec<&'a Unit> {
    let mut es: Vec<&Unit> = b
        .alive()
        .filter(|e| e.side != u.side && e.base.width > 0.0)
        .collect();
    // By the centres: cheap, and near enough to rank the few nearest.
    es.sort_by_cached_key(|e| e.base.centre.dist(u.base.centre).to_bits());
    es.truncate(NEAREST);
    es
}

/// A unit's marches towards a place: the longest walk the rules accept (obliquely, or
/// turning and advancing), and where the place lies ahead, the longest advance straight on
/// (a unit in a line may have no room to turn).
fn marches(game: &Game, u: &Unit, at: Pt) -> Vec<Command> {
    let way = at.minus(u.base.centre);
    let mut out: Vec<Command> = walk_towards(game, u, &[(way, way.len())], |_| true)
        .into_iter()
        .collect();
    if way.dot(u.base.forward()) > 0.7 * way.len() {
        out.extend(longest_advance(game, way.len(), |steps| Command::Move {
            unit: u.id.clone(),
            steps,
        }));
    }
    out
}

/// The longest straight advance, of the sample moves and no further than `mm`, that the rules
/// accept of the command `make` gives.
fn longest_advance(game: &Game, mm: f32, make: impl Fn(Vec<Step>) -> Command) -> Option<Command> {
    let b: &Battle = game;
    b.scale.unit.sample_moves().iter().rev().find_map(|m| {
        let d = b.scale.from_mm(b.scale.to_mm(*m).min(mm));
        let cmd = make(vec![Step::Advance(d)]);
        probe(game, &cmd).map(|_| cmd)
    })
}

/// Marks the move of a unit sent to take a place that carries the intent furthest (its
/// detachments' progress after it, where it adds any) as the march the intent carries on,
/// and says so.
fn mark_march(game: &Game, intent: &Intent, g: &Goal, cands: &mut [Cand]) {
    let now = intent.progress(game);
    let best = cands
        .iter()
        .enumerate()
        .filter(|(_, c)| c.kind == Kind::Move)
        .filter_map(|(i, c)| Some((i, intent.progress(&probe(game, &c.command)?))))
        .filter(|(_, p)| *p > now + 1e-6)
        .max_by(|a, c| a.1.total_cmp(&c.1).then(c.0.cmp(&a.0)));
    if let Some(c) = best.and_then(|(i, _)| cands.get_mut(i)) {
        c.march = true;
        c.aim = Some(g.at);
        if !c.why.contains(&g.name) {
            c.why = format!("{} (on the march to {})", c.why, g.task());
        }
    }
}

/// A detachment's march as one body, where the rules let its units move together (a group
/// move in contact, as DBN's command points favour) and the place lies ahead of its first
/// unit: the longest advance straight on that the rules accept.
fn march_together(game: &Game, lead: &Unit, g: &Goal) -> Option<Command> {
    let way = g.at.minus(lead.base.centre);
    if g.units.len() < 2 || way.dot(lead.base.forward()) <= 0.7 * way.len() {
        return None;
    }
    let units: Vec<UnitId> = g.units.iter().map(|(id, _)| id.clone()).collect();
    longest_advance(game, way.len(), |steps| Command::MoveGroup {
        units: units.clone(),
        steps,
    })
}

/// Where another player advances a line as one body (`MoveGroup` straight ahead), the same
/// line's longer advances the rules accept, the longest two: a line that halts short to keep
/// its order may be better sent on, where the intent wants its units somewhere.
/// Each with what it is for, and the place the intent sends its units to, if it does.
fn longer_lines(
    game: &Game,
    advised: &Command,
    intent: &Intent,
) -> Vec<(Command, String, Option<Pt>)> {
    let b: &Battle = game;
    let Command::MoveGroup { units, steps } = advised else {
        return Vec::new();
    };
    let [Step::Advance(d)] = steps.as_slice() else {
        return Vec::new();
    };
    let Some(lead) = units.first().and_then(|id| b.unit(id).ok()) else {
        return Vec::new();
    };
    let goal = units.iter().find_map(|id| intent.goal_of(id));
    let towards = goal.map_or_else(
        || "towards the enemy".to_string(),
        |g| format!("towards {}, {}", g.name, g.purpose()),
    );
    let mut out = Vec::new();
    for m in b
        .scale
        .unit
        .sample_moves()
        .iter()
        .rev()
        .filter(|m| **m > *d)
    {
        let cmd = Command::MoveGroup {
            units: units.clone(),
            steps: vec![Step::Advance(*m)],
        };
        if out.len() < 2 && probe(game, &cmd).is_some() {
            let why = format!(
                "{} and {} more advance {m} {} in line {towards}",
                lead.name,
                units.len() - 1,
                b.scale.unit
            );
            out.push((cmd, why, goal.map(|g| g.at)));
        }
    }
    out
}

/// A move offered: its command, what it is for, and the place it aims at.
type Move = (Command, String, Option<Pt>);

/// Where another player's command for a unit aims: the enemy it attacks or moves into contact
/// with, where it names one; else the objective or enemy its reason says it goes towards
/// (the veteran's "advances 3 inches towards the Lobosch crest").
fn advised_aim(game: &Game, u: &Unit, d: &Decision) -> Option<Pt> {
    let b: &Battle = game;
    let target = match &d.command {
        Command::Fire { target, .. }
        | Command::Fight { target, .. }
        | Command::Declare { target, .. } => Some(target),
        Command::Move { steps, .. } => steps.iter().find_map(|s| match s {
            Step::ToContact(e) => Some(e),
            _ => None,
        }),
        _ => None,
    };
    if let Some(t) = target {
        return b.unit(t).ok().map(|e| e.base.centre);
    }
    let (_, towards) = d.reason.rsplit_once("towards ")?;
    let places = game.objectives().into_iter().map(|o| (o.name, o.at));
    let enemies = b
        .alive()
        .filter(|e| e.side != u.side)
        .map(|e| (e.name.clone(), e.base.centre));
    places
        .chain(enemies)
        .filter(|(name, _)| !name.is_empty() && towards.starts_with(name.as_str()))
        .max_by_key(|(name, _)| name.len())
        .map(|(_, at)| at)
}

/// A unit's moves: towards each objective (onto it, or as far as a long move and half of
/// one take it); towards each of the nearest enemies, a long move and half of one, stopping
/// short of contact; back from the nearest by half a move; turning to face it.
fn moves(game: &Game, u: &Unit, side: Side, enemies: &[&Unit]) -> Vec<Move> {
    let b: &Battle = game;
    // As far as the unit itself may go (a battalion in line is not offered a cavalry
    // regiment's move, which the rules would refuse it).
    let far = pace(game, u).unwrap_or_else(|| long_move(b));
    let mut out = Vec::new();
    // Straight ahead towards the nearest enemy where it lies ahead, all of its move and half
    // of it: the move a unit standing in a line can make without falling foul of its
    // neighbours.
    if let Some(e) = enemies
        .first()
        .filter(|e| e.base.centre.minus(u.base.centre).dot(u.base.forward()) > 0.0)
    {
        for mm in [far, far / 2.0] {
            out.push((
                Command::Move {
                    unit: u.id.clone(),
                    steps: vec![Step::Advance(b.scale.from_mm(mm))],
                },
                format!("{} advances straight ahead towards {}", u.name, e.name),
                Some(e.base.centre),
            ));
        }
    }
    let walk = |out: &mut Vec<Move>, way: Pt, mm: f32, why: &str| {
        for steps in walks(b, u, way, mm) {
            out.push((
                Command::Move {
                    unit: u.id.clone(),
                    steps,
                },
                why.to_string(),
                Some(u.base.centre.plus(way)),
            ));
        }
    };
    if fights(game, u) {
        for o in game.objectives() {
            let way = o.at.minus(u.base.centre);
            let gap = way.len();
            if gap < 1.0 {
                continue;
            }
            let why = if o.holder == Some(side) {
                format!("{} moves onto {}, to hold it", u.name, o.name)
            } else {
                format!("{} moves towards {}, to take it", u.name, o.name)
            };
            walk(&mut out, way, gap.min(far), &why);
            walk(&mut out, way, gap.min(far / 2.0), &why);
        }
    }
    for e in enemies {
        let way = e.base.centre.minus(u.base.centre);
        let gap = e.base.distance(&u.base);
        let why = format!("{} moves towards {}", u.name, e.name);
        if gap > far / 4.0 {
            walk(&mut out, way, (gap - far / 4.0).min(far), &why);
            walk(&mut out, way, (gap - far / 4.0).min(far / 2.0), &why);
        }
    }
    if let Some(e) = enemies.first() {
        let way = e.base.centre.minus(u.base.centre);
        let turn = norm_deg(heading_deg(way) - heading_deg(u.base.forward()));
        out.push((
            Command::Move {
                unit: u.id.clone(),
                steps: vec![Step::Pivot(turn)],
            },
            format!("{} turns to face {}", u.name, e.name),
            Some(e.base.centre),
        ));
        out.push((
            Command::Move {
                unit: u.id.clone(),
                steps: vec![Step::Backstep(b.scale.from_mm(far / 2.0))],
            },
            format!("{} falls back from {}", u.name, e.name),
            None,
        ));
    }
    out
}
