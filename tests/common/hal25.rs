//! Small battles of Hal's 25mm rules written inline, for the Hal's tests.

use volley::rules::command::{Command, Event};
use volley::rules::model::Phase;
use volley::rules::ruleset::Roll;
use volley::rules::{Game, scenario};

/// A unit of a test battle: id, side, type, brigade, x, y (mm), facing, more fields.
pub type U<'a> = (&'a str, usize, &'a str, &'a str, f32, f32, f32, &'a str);

/// A battle on a 48" x 36" table.
pub fn battle(units: &[U], terrain: &str) -> Game {
    let mut text = String::from(
        "(name: \"t\", ruleset: \"hal25\", table: (width: 1219, height: 914), turn_limit: 6, terrain: [",
    );
    text.push_str(terrain);
    text.push_str("], sides: [(name: \"A\", nation: \"prussia\", colour: (0, 0, 200), commander: \"a\"), (name: \"B\", nation: \"austria\", colour: (200, 200, 200), commander: \"b\")], units: [");
    for (uid, side, t, br, x, y, f, extra) in units {
        let brigade = if br.is_empty() {
            String::new()
        } else {
            format!(", brigade: Some(\"{br}\")")
        };
        text.push_str(&format!(
            "(id: \"{uid}\", side: {side}, type: \"{t}\"{brigade}, at: Some(({x}, {y})), facing: {f}{extra}),"
        ));
    }
    text.push_str("])");
    scenario::parse(&text, "inline").unwrap_or_else(|e| panic!("{e:?}"))
}

/// Plays EndPhase until the battle reaches `phase` (with these dice for whatever it throws).
pub fn to_phase(b: &mut Game, phase: Phase, dice: &[u8]) {
    b.script_dice(dice);
    for _ in 0..20 {
        if b.phase == phase {
            return;
        }
        b.execute(Command::EndPhase).expect("end phase");
    }
    panic!("never reached {phase:?}");
}

/// The events in words, for a failing assertion's message.
pub fn words<'a>(b: &Game, ev: impl IntoIterator<Item = &'a Event>) -> String {
    ev.into_iter()
        .map(|e| volley::text::report::describe(b, e))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rolls among `ev` that `unit` made for `what` (the roll's name as its event records it).
pub fn rolls_for<'a>(ev: &'a [Event], unit: &str, what: &str) -> Vec<&'a Roll> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Rolled { what: w, roll }
                if w.as_str() == what && roll.unit.as_ref().is_some_and(|u| u.as_str() == unit) =>
            {
                Some(roll)
            }
            _ => None,
        })
        .collect()
}

/// The one roll among `ev` that `unit` made for `what`.
pub fn roll_for<'a>(ev: &'a [Event], unit: &str, what: &str) -> &'a Roll {
    match rolls_for(ev, unit, what)[..] {
        [r] => r,
        ref rs => panic!("{unit} made {} rolls for {what}: {ev:?}", rs.len()),
    }
}

/// Whether a roll against a need made it.
pub fn passed(r: &Roll) -> bool {
    r.total >= r.need.expect("a roll against a need")
}

/// Whether `unit` was disorganised among `ev`.
pub fn disorganised(ev: &[Event], unit: &str) -> bool {
    ev.iter()
        .any(|e| matches!(e, Event::Disordered { unit: u, .. } if u.as_str() == unit))
}
