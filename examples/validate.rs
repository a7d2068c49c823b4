//! Validates a game file and prints its diagnostics in the form
//! `path:line:column: game N, ply M: message`, each followed by the line
//! it points at with a caret under the move.
//!
//! ```text
//! cargo run --example validate -- [FILE]
//! ```
//!
//! Without a file it validates `samples/invalid/ambiguous-move.xpgn`, a
//! game with an ambiguous move. It fails only when the file cannot be read.

use std::process::ExitCode;

use xpgn::notation::parallel::open_input;
use xpgn::notation::reader::GameSplitter;
use xpgn::notation::validation::validate;
use xpgn::rules::Registry;

const DEFAULT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/samples/invalid/ambiguous-move.xpgn"
);

fn main() -> ExitCode {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| DEFAULT.to_string());
    let input = match open_input(&path) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("{path}: cannot read: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The variants `Variant` tags are looked up in: the built-in ones.
    let registry = Registry::builtin();
    let mut games = GameSplitter::new(input);
    let (mut read, mut valid) = (0, 0);
    while let Some(next) = games.next_game() {
        let text = match next {
            Ok(text) => text,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let checked = validate(&registry, &text);
        for diagnostic in &checked.diagnostics {
            let shown = diagnostic.render_in(&path, text.number, &text.text, text.start);
            println!("{shown}");
        }
        read += 1;
        valid += usize::from(checked.is_valid());
    }
    println!("{read} games read, {valid} valid, {} invalid", read - valid);
    ExitCode::SUCCESS
}
