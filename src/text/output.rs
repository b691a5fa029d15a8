//! The command line's output: written to standard output, stopping quietly when the reader
//! has gone. The batch runner prints through it too, so it is built without the window.

/// Writes `text` to standard output as it is. A reader that has gone (`volley run ... | head`)
/// gets nothing more, and the command goes on to its end (a save it was asked for is still
/// written); any other failure to write is said once on standard error.
pub fn say_raw(text: &str) {
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, Ordering};
    static FAILED: AtomicBool = AtomicBool::new(false);
    if FAILED.load(Ordering::Relaxed) {
        return;
    }
    if let Err(e) = std::io::stdout().lock().write_all(text.as_bytes()) {
        FAILED.store(true, Ordering::Relaxed);
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("volley: cannot write the output: {e}");
        }
    }
}

/// Writes `text` and a newline to standard output (see `say_raw`).
pub fn say(text: impl std::fmt::Display) {
    say_raw(&format!("{text}\n"));
}
