//! The rules core, the players, the game's words and the editor's model never import bevy.

use std::path::Path;

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn rules_do_not_mention_bevy() {
    let mut files = Vec::new();
    for dir in ["src/rules", "src/players", "src/text", "src/editor"] {
        walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut files);
    }
    assert!(files.len() > 10);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            assert!(
                !line.contains("bevy"),
                "{}:{} mentions bevy",
                f.display(),
                i + 1
            );
        }
    }
}
