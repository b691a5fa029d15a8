//! The rulebooks the rules come from, and sources in words: "000 Firing results" is
//! "DB7YW (Seven Years War supplement to DBN), Firing results".

/// Each seed's number and its book.
pub const BOOKS: [(&str, &str); 5] = [
    ("000", "DB7YW (Seven Years War supplement to DBN)"),
    ("001", "BBB Seven Years' War variant playsheet v1-2"),
    ("002", "DBFPW (Franco-Prussian War supplement to DBN)"),
    ("003", "Old Dessauer (Wes Rogers), SYW convention rules"),
    ("004", "Hal's 25mm Seven Years War rules (Hal Thinglum)"),
];

/// The book a seed file holds ("seeds/000_0fb27befce7bab26.txt" is DB7YW's); the text itself
/// when it names no seed.
pub fn book(seed: &str) -> String {
    let name = seed.rsplit('/').next().unwrap_or(seed);
    BOOKS
        .iter()
        .find(|(n, _)| name.starts_with(&format!("{n}_")))
        .map(|(_, b)| b.to_string())
        .unwrap_or_else(|| seed.to_string())
}

/// A source in words: each "NNN Section" part names its book and section; "ruling key" parts
/// stay, for the rulings list to answer.
pub fn cite(source: &str) -> String {
    source
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|part| {
            let (num, rest) = part.split_at(part.find(' ').unwrap_or(part.len()));
            match BOOKS.iter().find(|(n, _)| *n == num) {
                Some((_, b)) => format!("{b}, {}", rest.trim()),
                None => part.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The rulings a source names ("ruling fa_h" names `fa_h`).
pub fn rulings_named(source: &str) -> Vec<&str> {
    source
        .split(';')
        .flat_map(|p| p.split(',').map(str::trim))
        .filter_map(|p| {
            p.find("ruling ")
                .map(|i| p[i + 7..].split_whitespace().next().unwrap_or(""))
        })
        .filter(|k| !k.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_read_as_books_and_sections() {
        assert_eq!(
            book("seeds/000_0fb27befce7bab26.txt"),
            "DB7YW (Seven Years War supplement to DBN)"
        );
        assert_eq!(
            cite("000 Army Composition (13.7); ruling fa_h"),
            "DB7YW (Seven Years War supplement to DBN), Army Composition (13.7); ruling fa_h"
        );
        assert_eq!(
            rulings_named("000 Army Composition (13.7); ruling fa_h"),
            ["fa_h"]
        );
        assert_eq!(rulings_named("ruling ic_cap_bonus"), ["ic_cap_bonus"]);
        assert_eq!(cite("missing from data"), "missing from data");
    }
}
