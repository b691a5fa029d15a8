//! Shards: a batch split by seed range to run on many machines (`--seed S --games N` is one),
//! and merged back into exactly the report one run over the whole range prints. A shard's
//! JSON is the report with every game's record and a header saying what was played; the
//! report cannot be added up from reports (its means, spreads and top tens are over all
//! games), so merging sums the records up again, in seed order, as one run does.

use super::saves::Origin;
use super::{GameRecord, Player, Report};
use crate::rules::game::Game;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The version of a shard's JSON: shards of another version are not merged.
pub const SHARD_VERSION: u32 = 1;

/// What a shard played: merging refuses shards that differ in any of it but the seeds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub version: u32,
    /// FNV-1a (64 bits, hex) of the scenario as written, the commands and dice it starts
    /// from, and the data of its ruleset: shards of different battles or rules differ here.
    pub digest: String,
    /// Its games threw the dice of `seed` to `seed + games - 1`.
    pub seed: u64,
    pub games: usize,
    pub players: [Player; 2],
    pub scenario: String,
    pub sides: [String; 2],
}

impl Header {
    /// The header of a batch of `games` from `start` with the dice of `seed` onwards.
    pub fn of(
        start: &Game,
        origin: &Origin,
        seed: u64,
        games: usize,
        players: [Player; 2],
    ) -> Self {
        let side = |s: usize| {
            start
                .sides
                .get(s)
                .map(|x| x.name.clone())
                .unwrap_or_default()
        };
        Header {
            version: SHARD_VERSION,
            digest: digest(start, origin),
            seed,
            games,
            players,
            scenario: start.info.name.clone(),
            sides: [side(0), side(1)],
        }
    }
}

/// What `volley batch --json` prints: the report, then every game's record and the header.
#[derive(Serialize)]
struct Out<'a> {
    #[serde(flatten)]
    report: &'a Report,
    records: &'a [GameRecord],
    shard: &'a Header,
}

/// What merging reads of a shard (the report it printed is summed up again).
#[derive(Deserialize)]
struct In {
    shard: Header,
    records: Vec<GameRecord>,
}

/// A batch's JSON: the report with its records and header.
pub fn json(report: &Report, records: &[GameRecord], header: &Header) -> Result<String, String> {
    serde_json::to_string_pretty(&Out {
        report,
        records,
        shard: header,
    })
    .map_err(|e| e.to_string())
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits, from `h` on over `bytes`: the same on every machine and build (unlike the
/// standard hasher).
fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn ron_text<T: Serialize + ?Sized>(v: &T) -> String {
    ron::ser::to_string(v).unwrap_or_else(|e| format!("unwritable: {e}"))
}

/// The digest of what a batch plays: the scenario re-serialised (options included), the
/// commands, dice and seeds it starts from, and the ruleset's data.
pub fn digest(start: &Game, origin: &Origin) -> String {
    // The seed the start's commands threw matters only where there are commands.
    let seeds = if start.commands.is_empty() && origin.reseed.is_empty() {
        String::new()
    } else {
        ron_text(&(origin.seed, &origin.reseed))
    };
    let id = start.rules.id().to_string();
    let parts = [
        ron_text(start.scenario.as_ref()),
        ron_text(&start.commands.to_vec()),
        ron_text(&start.scripted.as_deref()),
        seeds,
        id.clone(),
        start.rules.data_text().to_string(),
    ];
    // Each part ends with a byte no text holds, so that parts cannot run into each other.
    let h = parts
        .iter()
        .fold(FNV_OFFSET, |h, p| fnv1a(fnv1a(h, p.as_bytes()), &[0xff]));
    format!("{h:016x}")
}

/// Reads a shard: its header and records.
pub fn read(path: &Path) -> Result<(Header, Vec<GameRecord>), String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{name}:{}:{}: {e}", e.line(), e.column()))?;
    if v.get("shard").is_none() || v.get("records").is_none() {
        return Err(format!(
            "{name}: not a batch shard (no shard header or records): write one with `volley batch ... --json`"
        ));
    }
    let s: In = serde_json::from_value(v).map_err(|e| format!("{name}: {e}"))?;
    Ok((s.shard, s.records))
}

/// Merges shards (each named, with its header and records) into the header and records of
/// one batch over their seeds, in seed order. Refuses shards of another version, scenario,
/// rules or players, records that are not their header's seeds, and seeds missing or played
/// twice.
pub fn merge(
    mut shards: Vec<(String, Header, Vec<GameRecord>)>,
) -> Result<(Header, Vec<GameRecord>), String> {
    let Some((first, head, _)) = shards.first() else {
        return Err("name at least one shard".into());
    };
    let (first, head) = (first.clone(), head.clone());
    for (name, h, records) in &shards {
        if h.version != SHARD_VERSION {
            return Err(format!(
                "{name}: shard version {} (this program merges version {SHARD_VERSION})",
                h.version
            ));
        }
        if h.digest != head.digest {
            return Err(format!(
                "{name}: played on another scenario or rules than {first} (digest {}, not {})",
                h.digest, head.digest
            ));
        }
        if h.players != head.players {
            return Err(format!(
                "{name}: played by {} against {}, not by {} against {} as {first}",
                h.players[0].name(),
                h.players[1].name(),
                head.players[0].name(),
                head.players[1].name()
            ));
        }
        let seeds_match = records.len() == h.games
            && records
                .iter()
                .enumerate()
                .all(|(i, r)| r.seed == h.seed.wrapping_add(i as u64));
        if !seeds_match {
            return Err(format!(
                "{name}: its records are not the games of seeds {} to {} its header names",
                h.seed,
                last_seed(h)
            ));
        }
    }
    shards.sort_by_key(|s| s.1.seed);
    for pair in shards.windows(2) {
        let ((a, ha, _), (b, hb, _)) = (&pair[0], &pair[1]);
        let next = ha.seed.wrapping_add(ha.games as u64);
        if hb.seed < next {
            return Err(format!(
                "{a} and {b} overlap: seeds {} to {} are in both",
                hb.seed,
                last_seed(ha).min(last_seed(hb))
            ));
        }
        if hb.seed > next {
            return Err(format!(
                "seeds {next} to {} are missing between {a} and {b}",
                hb.seed - 1
            ));
        }
    }
    let seed = shards[0].1.seed;
    let records: Vec<GameRecord> = shards.into_iter().flat_map(|s| s.2).collect();
    Ok((
        Header {
            seed,
            games: records.len(),
            ..head
        },
        records,
    ))
}

fn last_seed(h: &Header) -> u64 {
    h.seed.wrapping_add(h.games.max(1) as u64 - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruleset_has_its_data_in_the_digest() {
        // Each ruleset gives its own data file: no two alike, each naming its ruleset.
        let texts: Vec<&str> = crate::rules::ruleset::KNOWN_RULESETS
            .iter()
            .map(|id| {
                let rules = crate::rules::ruleset::AnyRuleset::load(id).expect("a known ruleset");
                let text = rules.data_text();
                assert!(text.contains(&format!("\"{id}\"")), "{id}");
                text
            })
            .collect();
        for (i, a) in texts.iter().enumerate() {
            assert!(texts[i + 1..].iter().all(|b| a != b));
        }
    }

    #[test]
    fn fnv1a_is_the_published_function() {
        // Test vectors of Fowler, Noll and Vo: "" and "a", 64-bit FNV-1a.
        assert_eq!(fnv1a(FNV_OFFSET, b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(FNV_OFFSET, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(FNV_OFFSET, b"foobar"), 0x8594_4171_f739_67e8);
    }
}
