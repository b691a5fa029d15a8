//! The volley program: parse the command line, then open the window or run a headless command.

fn main() {
    std::process::exit(volley::cli::main());
}
