//! The fuzzers' corpora and every input that once broke a door, replayed through the same
//! harness the fuzz targets call (`volley::harness`): each must end in a located refusal or an
//! accepted game, with the invariants kept. The fuzz targets themselves live in `tests/fuzz`
//! (README, "Fuzzing").

use std::path::Path;

/// Each target's inputs: its corpus and its regressions (inputs that found a fault).
fn replay(target: &str, door: fn(&[u8])) -> usize {
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        let dir = Path::new("tests/fuzz").join(dir).join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let caught = std::panic::catch_unwind(|| door(&data));
            assert!(caught.is_ok(), "{} breaks the {target} door", f.display());
            n += 1;
        }
    }
    n
}

#[test]
fn every_file_check_reads() {
    assert!(replay("check", volley::harness::file) > 0);
}

#[test]
fn saves() {
    assert!(replay("save", volley::harness::save) > 0);
}

#[test]
fn order_files() {
    assert!(replay("orders", volley::harness::orders) > 0);
}

#[test]
fn command_sequences() {
    assert!(replay("commands", volley::harness::commands) > 0);
}
