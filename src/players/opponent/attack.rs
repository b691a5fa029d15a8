//! The opponent's fire and charges: every attack open weighed by the odds of the rules' own
//! previews, a charge only where the combat it brings favours it, in the formation the rules
//! reward, and a chip spent to throw again a roll that cost a unit.

use super::*;
use crate::rules::battle::Battle;
use crate::rules::command::{Command, RuleError, Step};
use crate::rules::game::Game;
use crate::rules::geometry::{CONTACT_EPS, Corner, norm_deg};
use crate::rules::model::{Unit, UnitId};
use crate::rules::ruleset::Outlook;

/// An advance ending this near an enemy meets it (mm): twice the contact tolerance, so that a
/// move stopping at the tolerance's edge is never taken for one that stops clear, whichever
/// ruleset's test of contact decides the fight.
pub(super) const MEETS: f32 = 2.0 * CONTACT_EPS;

/// Dice enough for any one command's throw, scripted low to try its worst.
pub(super) const LOWEST_THROW: [u8; 12] = [1; 12];

/// Whether `cmd`, thrown with the lowest dice, costs the battle `u` (on a copy: the battle is
/// unchanged).
pub(super) fn lowest_throw_loses(game: &Game, cmd: &Command, u: &Unit) -> bool {
    let mut copy = game.fork();
    copy.script_dice(&LOWEST_THROW);
    copy.execute(cmd.clone()).is_ok() && copy.unit(&u.id).is_ok_and(|v| !v.alive())
}

impl Opponent {
    /// One unit's fire or combat on one enemy, if the rules offer one now, weighed by its odds
    /// (with each choice of the preview taken where it improves them).
    pub(super) fn weigh(&self, game: &Game, u: &Unit, e: &Unit) -> Option<Weighed> {
        let b: &Battle = game;
        let cmd = game.rules.target_command(b, &u.id, &e.id)?;
        if self.did(&u.id, cmd.kind()) {
            return None;
        }
        let mut o = game.rules.preview(b, &cmd).ok()?;
        let mut cmd = cmd;
        if self.style == Style::Odds {
            for c in o.choices.clone() {
                if let Ok(other) = game.rules.preview(b, &c.flipped)
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
    pub(super) fn weigh_attacks(&self, game: &Game) -> Vec<(Weighed, UnitId, UnitId)> {
        let b: &Battle = game;
        let mut out = Vec::new();
        for u in self.own(b) {
            for e in self.enemies(b, u.side) {
                if let Some(w) = self.weigh(game, u, e) {
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
    pub(super) fn attack(&mut self, game: &Game) -> Option<Decision> {
        let b: &Battle = game;
        let stakes = self.last_bound(game);
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
                .weigh_attacks(game)
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
            if let Some(w) = self.weigh(game, x, y)
                && worth_it(&w)
                && probe(game, &w.command).is_some()
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
    /// and the next command ends the chance. Tried on a full copy of the game (a re-roll
    /// replays the last command, which `Game::fork` does not keep).
    pub(super) fn rescue(&self, game: &Game) -> Option<Decision> {
        let b: &Battle = game;
        for g in self.own(b) {
            for group in game.rules.actions(b, g) {
                for a in group.actions {
                    let Command::Reroll { unit, .. } = &a.command else {
                        continue;
                    };
                    if b.unit(unit).is_ok_and(|x| x.status.removed)
                        && game.clone().execute(a.command.clone()).is_ok()
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

    /// A charge for a unit not yet found without one this phase (see `PhaseMemory::no_charge`).
    pub(super) fn charge_once(&mut self, game: &Game, u: &Unit) -> Option<Decision> {
        if self.memory.no_charge.contains(&u.id) {
            return None;
        }
        let c = self.charge(game, u);
        if c.is_none() {
            self.memory.no_charge.push(u.id.clone());
        }
        c
    }

    /// A move into contact: straight on, with any odds; by the odds, only where the combat the
    /// contact brings is worth fighting.
    pub(super) fn charge(&self, game: &Game, u: &Unit) -> Option<Decision> {
        let b: &Battle = game;
        let mut enemies = self.enemies(b, u.side);
        enemies.sort_by(|a, c| {
            a.base
                .distance(&u.base)
                .total_cmp(&c.base.distance(&u.base))
        });
        let reach = long_move(b) * 2.0;
        let stakes = self.last_bound(game);
        let least = if self.pressing(b) {
            0.0
        } else {
            self.tune.charge
        };
        // By the odds, the worth and the chance to win of the fight a move into contact
        // brings, if it is worth making.
        let weigh = |after: Game, e: &Unit| -> Option<(f64, f64)> {
            let fight = Command::Fight {
                unit: u.id.clone(),
                target: e.id.clone(),
                pursue: None,
                pursuits: Vec::new(),
            };
            let (value, win) = worth(&combat_ahead(after, &fight, self.side)?);
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
            let formed = self.formed_for(game, u, e).and_then(|(form, copy)| {
                let v = copy.unit(&u.id).ok()?;
                let (_, after) = self.contact(&copy, v, e)?;
                Some((form, after))
            });
            let plain = self.contact(game, u, e);
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
    pub(super) fn formed_for(&self, game: &Game, u: &Unit, e: &Unit) -> Option<(Command, Game)> {
        let b: &Battle = game;
        let formation = game.rules.attack_formation(b, u, e)?;
        if formation == u.formation || self.did(&u.id, "Form") {
            return None;
        }
        let cmd = Command::Form {
            unit: u.id.clone(),
            formation,
            turn: 0.0,
        };
        probe(game, &cmd).map(|after| (cmd, after))
    }

    /// The decision to form `u` before charging `e` (with the charge's chance to win, by the
    /// odds).
    pub(super) fn form_decision(
        &self,
        u: &Unit,
        e: &Unit,
        command: Command,
        win: Option<f64>,
    ) -> Decision {
        let odds = win.map_or(String::new(), |w| format!(": {:.0}% to win", w * 100.0));
        Decision {
            command,
            reason: format!("{} forms to charge {}{odds}", u.name, e.name),
        }
    }

    /// Whether `u` stands in the formation the rules reward it for charging one of the
    /// enemy's units in (`Ruleset::attack_formation`): not a column of march to leave.
    pub(super) fn in_attack_formation(&self, game: &Game, u: &Unit) -> bool {
        let b: &Battle = game;
        self.enemies(b, u.side)
            .iter()
            .any(|e| game.rules.attack_formation(b, u, e) == Some(u.formation))
    }

    /// By the odds, with its moves given: a unit not in contact whose nearest enemy stands
    /// within a long move, where the rules reward it for charging that enemy in another
    /// formation (`Ruleset::attack_formation`), forms it with what the moves left over, ready
    /// to charge it next bound (and to meet its charge).
    pub(super) fn form_for_next_bound(&self, game: &Game) -> Option<Decision> {
        let b: &Battle = game;
        if self.style != Style::Odds || self.last_bound(game).is_some() {
            return None;
        }
        for u in self.own(b) {
            if !fights(game, u) {
                continue;
            }
            let foes = self
                .enemies(b, u.side)
                .into_iter()
                .filter(|e| fights(game, e));
            let Some(e) = nearest_to(foes, u) else {
                continue;
            };
            let gap = e.base.distance(&u.base);
            if gap <= MEETS || gap > long_move(b) {
                continue;
            }
            if let Some((command, _)) = self.formed_for(game, u, e) {
                return Some(Decision {
                    command,
                    reason: format!("{} forms to charge {} next bound", u.name, e.name),
                });
            }
        }
        None
    }

    /// A move into contact with an enemy, with the battle after it: straight on; by the odds,
    /// also wheeling first (`contact_move`). The straight player, the yardstick, only goes
    /// straight on.
    pub(super) fn contact(&self, game: &Game, u: &Unit, e: &Unit) -> Option<(Command, Game)> {
        contact_move(game, u, e, self.style == Style::Odds)
    }
}

/// A move into contact with `e` for `u`, with the battle after it: straight on; and where
/// `square`, since the rules may want the fronts met square, also wheeling first to square up
/// to it (or to face it).
pub(crate) fn contact_move(
    game: &Game,
    u: &Unit,
    e: &Unit,
    square: bool,
) -> Option<(Command, Game)> {
    let mut tries = vec![vec![Step::ToContact(e.id.clone())]];
    if square {
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
        probe(game, &cmd).map(|after| (cmd, after))
    })
}

/// The outlook of a fight that a move into contact brings: now, or, where the rules fight
/// it in a later phase of the bound (a close combat phase after the movement), as it will
/// stand then, the phases between played out on the copy of the battle (no more than the
/// rest of its own bound, which has no more phases than the ruleset's turn: BBB fights an
/// assault four phases after the move that makes it). The enemy's phases between (BBB's
/// defensive fire) pass on the copy without its fire: the odds are those of the fight as
/// the units stand.
pub(crate) fn combat_ahead(mut after: Game, fight: &Command, side: Side) -> Option<Outlook> {
    for _ in 0..after.rules.phases().len() {
        match after.rules.preview(&after, fight) {
            Err(RuleError::WrongPhase { .. }) if after.active == side => {
                after.execute(Command::EndPhase).ok()?;
            }
            r => return r.ok(),
        }
    }
    None
}
