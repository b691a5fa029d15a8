//! Guided tutorials: a scenario, its scripted dice and a script of steps, in RON beside the
//! scenario. The engine is generic: each step says what to show, what the newcomer must do, and
//! what to say otherwise; the rulesets' lessons are data (`scenarios/lessons/`).

use crate::rules::command::{Command, RuleError};
use crate::rules::model::UnitId;
use crate::rules::scenario::{self, Diagnostic};
use crate::rules::{Battle, Game};
use crate::text::report;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The most steps a lesson file may hold.
pub const MAX_STEPS: usize = 500;

/// A lesson as its file writes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// The format's version; 1 today.
    pub volley_lesson: u32,
    pub title: String,
    /// The scenario, relative to the lesson file.
    pub scenario: String,
    /// The dice the lesson's steps throw, in order, so that each lesson comes out as its words
    /// say.
    pub dice: Vec<u8>,
    pub steps: Vec<LessonStep>,
}

/// One step: what to show, what to do, and what to say when the newcomer does something else.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonStep {
    /// What the tutor says.
    pub text: String,
    /// Units to ring on the table.
    #[serde(default)]
    pub highlight: Vec<UnitId>,
    /// Places to mark on the table, in the scenario's units (as units' `at`).
    #[serde(default)]
    pub places: Vec<(f32, f32)>,
    /// Overlays to switch on (arcs, zones, sight, reach, rules).
    #[serde(default)]
    pub overlays: Vec<String>,
    /// What the newcomer must do.
    pub expect: Expect,
    /// What to say when they do something else (a generic reminder when left out).
    #[serde(default)]
    pub wrong: Option<String>,
}

/// What a step waits for.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub enum Expect {
    /// Read the text and press Next.
    Read,
    /// This command, or (with `accept`) any legal command like it.
    Do {
        command: Command,
        #[serde(default)]
        accept: Accept,
    },
    /// Try this command (or any of its kind by its unit): the rules refuse it, and the step
    /// shows why.
    Refused(Command),
}

/// How closely a command must match the step's.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
pub enum Accept {
    /// Exactly this command.
    #[default]
    Exact,
    /// Any command of the same kind by the same unit (any move of this unit, say).
    SameUnit,
    /// Any command of the same kind.
    SameKind,
}

impl Expect {
    /// The command that does the step, for "Show me" and for tests; None for reading.
    pub fn example(&self) -> Option<&Command> {
        match self {
            Expect::Read => None,
            Expect::Do { command, .. } | Expect::Refused(command) => Some(command),
        }
    }

    /// Whether `c` is what the step asks for.
    pub fn accepts(&self, c: &Command) -> bool {
        match self {
            Expect::Read => false,
            // Any try of the same kind by the same unit: a drag is never exactly the example.
            Expect::Refused(want) => want.kind() == c.kind() && want.unit() == c.unit(),
            Expect::Do { command, accept } => match accept {
                Accept::Exact => command == c,
                Accept::SameUnit => command.kind() == c.kind() && command.unit() == c.unit(),
                Accept::SameKind => command.kind() == c.kind(),
            },
        }
    }
}

/// A lesson in progress: where the newcomer is and what the tutor last said.
#[derive(Clone, Debug)]
pub struct Tutor {
    pub lesson: Lesson,
    /// The step shown now; `steps.len()` once the lesson is over.
    pub step: usize,
    /// What the tutor says about the last thing the newcomer did (a refusal's reason, or the
    /// step's words for a wrong command).
    pub said: Option<String>,
}

/// What the tutor makes of a command the newcomer gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Carry it out; the step is done when it is accepted.
    Execute,
    /// Not what the step asks: nothing happens, and the tutor says this.
    Wrong(String),
}

impl Tutor {
    pub fn new(lesson: Lesson) -> Self {
        Tutor {
            lesson,
            step: 0,
            said: None,
        }
    }

    pub fn current(&self) -> Option<&LessonStep> {
        self.lesson.steps.get(self.step)
    }

    pub fn finished(&self) -> bool {
        self.step >= self.lesson.steps.len()
    }

    /// Judges a command before it is carried out against `b`. A step that asks for a refused
    /// try turns away one the rules would allow, so that the lesson's battle stays as written.
    pub fn judge(&self, game: &Game, c: &Command) -> Verdict {
        let Some(step) = self.current() else {
            return Verdict::Execute;
        };
        if step.expect.accepts(c) {
            if matches!(step.expect, Expect::Refused(_)) && game.clone().execute(c.clone()).is_ok()
            {
                return Verdict::Wrong(step.wrong.clone().unwrap_or_else(|| {
                    "The rules allow that one: this step asks you to try one they refuse."
                        .to_string()
                }));
            }
            return Verdict::Execute;
        }
        let words = step.wrong.clone().unwrap_or_else(|| match &step.expect {
            Expect::Read => "Read this step, then press Next.".to_string(),
            Expect::Do { .. } => {
                "Not yet: this step asks for something else (press Show me to see it).".to_string()
            }
            Expect::Refused(_) => {
                "Try the move this step describes (press Show me to try it).".to_string()
            }
        });
        Verdict::Wrong(words)
    }

    /// A judged command has been tried against the battle: an accepted one, or a refusal the
    /// step expected, ends the step. Returns whether the step moved on.
    pub fn tried(&mut self, b: &Battle, result: &Result<(), RuleError>) -> bool {
        let Some(step) = self.current() else {
            return false;
        };
        match (&step.expect, result) {
            (Expect::Refused(_), Err(e)) => {
                self.said = Some(format!("Refused, as expected: {}", report::refusal(b, e)));
                self.step += 1;
                true
            }
            (Expect::Do { .. }, Ok(())) => {
                self.said = None;
                self.step += 1;
                true
            }
            (_, Err(e)) => {
                self.said = Some(report::refusal(b, e));
                false
            }
            (Expect::Read | Expect::Refused(_), Ok(())) => false,
        }
    }

    /// Next, on a reading step.
    pub fn read_on(&mut self) -> bool {
        match self.current() {
            Some(s) if s.expect == Expect::Read => {
                self.said = None;
                self.step += 1;
                true
            }
            _ => false,
        }
    }
}

/// Whether a file's text is a lesson (its first field names the format).
pub fn is_lesson(text: &str) -> bool {
    text.contains(crate::rules::save::LESSON_MARK)
}

/// Reads a lesson and builds its game, with the lesson's dice scripted.
pub fn load(path: &Path) -> Result<(Lesson, Game), Vec<Diagnostic>> {
    let text = scenario::read_text(path)?;
    let file = path.display().to_string();
    let lesson = parse(&text, &file)?;
    let scen = scenario_path(path, &lesson);
    let mut game = scenario::load(&scen)?;
    game.script_dice(&lesson.dice);
    check(&lesson, &game, &file)?;
    Ok((lesson, game))
}

/// The lesson's scenario file, beside the lesson.
pub fn scenario_path(lesson_file: &Path, lesson: &Lesson) -> PathBuf {
    lesson_file
        .parent()
        .unwrap_or(Path::new("."))
        .join(&lesson.scenario)
}

/// Parses a lesson's text.
pub fn parse(text: &str, file: &str) -> Result<Lesson, Vec<Diagnostic>> {
    let d = |line: usize, col: usize, message: String| Diagnostic::one(file, line, col, message);
    let lesson: Lesson = scenario::ron_options()
        .from_str(text)
        .map_err(|e| d(e.span.start.line, e.span.start.col, e.code.to_string()))?;
    if lesson.volley_lesson != 1 {
        return Err(d(
            1,
            1,
            format!(
                "lesson format {} is not known (this volley reads format 1)",
                lesson.volley_lesson
            ),
        ));
    }
    if lesson.steps.is_empty() || lesson.steps.len() > MAX_STEPS {
        return Err(d(
            1,
            1,
            format!(
                "a lesson has 1 to {MAX_STEPS} steps, not {}",
                lesson.steps.len()
            ),
        ));
    }
    if let Some(bad) = lesson.dice.iter().find(|d| !(1..=6).contains(*d)) {
        return Err(d(1, 1, format!("dice: {bad} is not a face of a die")));
    }
    Ok(lesson)
}

/// The lesson's units and overlays exist in its battle.
fn check(lesson: &Lesson, b: &Battle, file: &str) -> Result<(), Vec<Diagnostic>> {
    let mut out = Vec::new();
    let known = |id: &UnitId| b.unit(id).is_ok();
    for (k, s) in lesson.steps.iter().enumerate() {
        let mut bad = |m: String| {
            out.push(Diagnostic {
                file: file.to_string(),
                line: 1,
                col: 1,
                message: format!("step {}: {m}", k + 1),
            })
        };
        for id in &s.highlight {
            if !known(id) {
                bad(format!("no unit '{id}' to highlight"));
            }
        }
        if let Some(u) = s.expect.example().and_then(Command::unit)
            && !known(u)
        {
            bad(format!("no unit '{u}' in the expected command"));
        }
        for o in &s.overlays {
            if !OVERLAYS.contains(&o.as_str()) {
                bad(format!("no overlay '{o}' ({})", OVERLAYS.join(", ")));
            }
        }
    }
    if out.is_empty() { Ok(()) } else { Err(out) }
}

/// Plays a lesson's steps by their expected commands against its battle: every command a step
/// asks for is accepted, every try it expects refused is refused (and changes nothing).
pub fn rehearse(lesson: &Lesson, game: &mut Game) -> Result<(), String> {
    for (k, s) in lesson.steps.iter().enumerate() {
        // Each place the tutor names is where the board draws it as the step is read.
        place_words(&s.text, game).map_err(|m| format!("step {}: {m}", k + 1))?;
        by_the_mouse(s, game).map_err(|m| format!("step {}: {m}", k + 1))?;
        play_step(s, k + 1, game)?;
    }
    Ok(())
}

/// Plays the lesson's first `steps` steps by their expected commands (as `rehearse`).
pub fn advance(lesson: &Lesson, game: &mut Game, steps: usize) -> Result<(), String> {
    if steps > lesson.steps.len() {
        return Err(format!("the lesson has {} steps", lesson.steps.len()));
    }
    for (k, s) in lesson.steps.iter().enumerate().take(steps) {
        play_step(s, k + 1, game)?;
    }
    Ok(())
}

/// Plays step `n` by its expected command.
fn play_step(s: &LessonStep, n: usize, game: &mut Game) -> Result<(), String> {
    match &s.expect {
        Expect::Read => {}
        Expect::Do { command, .. } => {
            game.execute(command.clone()).map_err(|e| {
                format!(
                    "step {n}: {} is refused: {}",
                    crate::rules::save::order_text(command),
                    report::refusal(game, &e)
                )
            })?;
        }
        Expect::Refused(command) => {
            let before = (game.log.len(), game.commands.len());
            if game.execute(command.clone()).is_ok() {
                return Err(format!(
                    "step {n}: {} was meant to be refused but is accepted",
                    crate::rules::save::order_text(command)
                ));
            }
            if (game.log.len(), game.commands.len()) != before {
                return Err(format!("step {n}: the refused command changed the battle"));
            }
        }
    }
    Ok(())
}

/// The most commands the window's choices are followed to in `by_the_mouse`.
const MOST_CHOICES: usize = 64;

/// A step can be done with the mouse as the window does it. A command on a target (fire, fight,
/// a declared charge): with the unit selected, a click on the target gives a command (not a
/// selection), and its "Before the dice" window, its choices ticked as the step wants, rolls
/// the command the step asks for. Any other command of a unit but a move (dragged) is a button
/// on the unit's card.
pub fn by_the_mouse(s: &LessonStep, game: &Game) -> Result<(), String> {
    let b: &Battle = game;
    let Expect::Do { command, .. } = &s.expect else {
        return Ok(());
    };
    let name = |id: &UnitId| {
        b.unit(id)
            .map_or_else(|_| id.to_string(), |u| u.name.clone())
    };
    let (unit, target) = match command {
        Command::Fire { unit, target, .. }
        | Command::Fight { unit, target, .. }
        | Command::Declare { unit, target } => (unit, target),
        Command::Move { .. }
        | Command::MoveStand { .. }
        | Command::MoveGroup { .. }
        | Command::Deploy { .. } => return Ok(()),
        c => {
            let Some(u) = c.unit().and_then(|id| b.unit(id).ok()) else {
                return Ok(());
            };
            let on_card = game
                .rules
                .actions(b, u)
                .iter()
                .flat_map(|g| &g.actions)
                .any(|a| s.expect.accepts(&a.command));
            return if on_card {
                Ok(())
            } else {
                Err(format!(
                    "no button on {}'s card gives {}",
                    u.name,
                    crate::rules::save::order_text(c)
                ))
            };
        }
    };
    let Some(first) =
        crate::rules::ruleset::common::click_command(game.rules.get(), b, unit, target)
    else {
        return Err(format!(
            "with {} selected, a click on {} selects it: no {} by the mouse",
            name(unit),
            name(target),
            command.kind()
        ));
    };
    let mut seen = vec![first];
    let mut i = 0;
    let mut refused = None;
    while i < seen.len() && seen.len() <= MOST_CHOICES {
        let c = seen[i].clone();
        i += 1;
        match game.rules.preview(b, &c) {
            Err(e) => refused = refused.or(Some(report::refusal(b, &e))),
            Ok(o) => {
                if s.expect.accepts(&c) {
                    return Ok(());
                }
                for ch in o.choices {
                    if !seen.contains(&ch.flipped) {
                        seen.push(ch.flipped);
                    }
                }
            }
        }
    }
    Err(format!(
        "with {} selected, a click on {} gives {}{}, not {}",
        name(unit),
        name(target),
        crate::rules::save::order_text(&seen[0]),
        refused
            .map(|r| format!(" (refused before the dice: {r})"))
            .unwrap_or_default(),
        crate::rules::save::order_text(command)
    ))
}

/// The places a tutor's words give a side, "Prussia (blue, at the top)", checked against where
/// the board draws its units: the table's y grows up the screen and x to the right, so a side
/// "at the top" or "above" has its units higher than the other side's on average, "at the
/// bottom" or "below" lower, "on the left" or "on the right" farther left or right.
pub fn place_words(text: &str, b: &Battle) -> Result<(), String> {
    const PLACES: [(&str, usize, bool); 6] = [
        ("at the top", 1, true),
        ("above", 1, true),
        ("at the bottom", 1, false),
        ("below", 1, false),
        ("on the left", 0, false),
        ("on the right", 0, true),
    ];
    let middle = |side: usize| {
        let placed: Vec<_> = b
            .units
            .iter()
            .filter(|u| u.side == side && u.alive())
            .map(|u| u.base.centre)
            .collect();
        let n = placed.len().max(1) as f32;
        (
            placed.iter().map(|p| p.x).sum::<f32>() / n,
            placed.iter().map(|p| p.y).sum::<f32>() / n,
        )
    };
    let mut rest = text;
    let mut before_len = 0;
    while let Some(open) = rest.find('(') {
        let Some(close) = rest[open..].find(')') else {
            break;
        };
        let inside = &rest[open + 1..open + close];
        let before = &text[..before_len + open];
        for (words, axis, high) in PLACES {
            if !inside.ends_with(words) {
                continue;
            }
            // The side the parenthesis follows: the side named nearest before it.
            let side = b
                .sides
                .iter()
                .enumerate()
                .filter_map(|(i, s)| before.rfind(s.name.as_str()).map(|at| (at, i)))
                .max()
                .map(|(_, i)| i);
            let Some(side) = side.filter(|s| *s < 2) else {
                continue;
            };
            let (own, other) = (middle(side), middle(1 - side));
            let (a, o) = if axis == 0 {
                (own.0, other.0)
            } else {
                (own.1, other.1)
            };
            if (a > o) != high {
                return Err(format!(
                    "the text puts {} \"{words}\", but the board draws its units {} the enemy's",
                    b.sides[side].name,
                    match (axis, a > o) {
                        (0, true) => "to the right of",
                        (0, false) => "to the left of",
                        (_, true) => "above",
                        (_, false) => "below",
                    }
                ));
            }
        }
        before_len += open + close + 1;
        rest = &text[before_len..];
    }
    Ok(())
}

/// Checks a lesson file: it parses, its scenario loads, and its steps play as written.
pub fn check_file(path: &Path) -> Vec<Diagnostic> {
    match load(path) {
        Err(d) => d,
        Ok((lesson, mut b)) => match rehearse(&lesson, &mut b) {
            Ok(()) => Vec::new(),
            Err(m) => Diagnostic::one(&path.display().to_string(), 1, 1, m),
        },
    }
}

/// The overlays a step may switch on.
pub const OVERLAYS: [&str; 5] = ["arcs", "zones", "sight", "reach", "rules"];

#[cfg(test)]
mod tests {
    use super::*;

    const LESSON: &str = r#"(
        volley_lesson: 1,
        title: "t",
        scenario: "x.ron",
        dice: [1, 2],
        steps: [
            (text: "read", expect: Read),
            (text: "move", expect: Do(command: Move(unit: "pr-ms1", steps: [Advance(10)]), accept: SameUnit), wrong: "move a"),
            (text: "try", expect: Refused(EndPhase)),
        ],
    )"#;

    #[test]
    fn a_step_accepts_what_it_asks_for_and_words_the_rest() {
        let l = parse(LESSON, "l.ron").unwrap();
        let mut b =
            scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/tutorial.ron"))
                .unwrap();
        let mut t = Tutor::new(l);
        assert!(matches!(t.judge(&b, &Command::EndPhase), Verdict::Wrong(_)));
        assert!(t.read_on());
        let other = Command::Move {
            unit: UnitId("pr-ms1".into()),
            steps: vec![crate::rules::Step::Advance(3.0)],
        };
        assert_eq!(t.judge(&b, &other), Verdict::Execute);
        let wrong = Command::Move {
            unit: UnitId("pr-ms2".into()),
            steps: vec![],
        };
        assert_eq!(t.judge(&b, &wrong), Verdict::Wrong("move a".into()));
        assert!(
            !t.read_on(),
            "a step that asks for a command is not skipped"
        );
        // A refused try: only one the rules refuse ends the step.
        t.step = 2;
        b.execute(Command::EndPhase).unwrap();
        assert!(matches!(t.judge(&b, &Command::EndPhase), Verdict::Wrong(_)));
    }

    #[test]
    fn the_tutor_puts_each_side_where_the_board_draws_it() {
        let b =
            scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/tutorial.ron"))
                .unwrap();
        // Prussia stands at the bottom of the board (low y), Austria at the top.
        assert!(
            place_words(
                "Prussia (blue, at the bottom) faces Austria (white, above).",
                &b
            )
            .is_ok()
        );
        let e = place_words(
            "Prussia (blue, at the top) faces Austria (white, below).",
            &b,
        )
        .unwrap_err();
        assert!(e.contains("Prussia \"at the top\""), "{e}");
        let e = place_words("the Austrians (white, at the bottom)", &b).unwrap_err();
        assert!(e.contains("Austria"), "{e}");
        // Words in brackets that place nothing, or name no side, are let be.
        assert!(place_words("Press End (in the top bar) or the wood (on the left)", &b).is_ok());
    }

    #[test]
    fn a_bad_lesson_is_refused_with_its_place() {
        let d = parse(
            "(volley_lesson: 2, title: \"\", scenario: \"\", dice: [], steps: [])",
            "l.ron",
        )
        .unwrap_err();
        assert!(d[0].message.contains("format 2"));
        let d = parse(&LESSON.replace("dice: [1, 2]", "dice: [7]"), "l.ron").unwrap_err();
        assert!(d[0].message.contains("7"));
        let d = parse(&LESSON.replace("Read", "Reed"), "l.ron").unwrap_err();
        assert!(d[0].line > 1);
    }
}
