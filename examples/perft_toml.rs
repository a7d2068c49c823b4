//! Defines a variant in code from a TOML string, in the format of the
//! files of `variants/` (docs/variants.md), and counts its move tree with
//! perft.
//!
//! ```text
//! cargo run --example perft_toml -- [DEPTH]
//! ```
//!
//! The variant is Los Alamos chess: a 6x6 board without bishops, pawns
//! without a double step or en passant, no castling. DEPTH is 4 unless
//! given.

use std::process::ExitCode;

use xpgn::rules::{Position, Variant, load_toml, perft};

const LOS_ALAMOS: &str = r#"
name = "los-alamos"
display-name = "Los Alamos Chess"
board = "6x6"
setup = "rnqknr/pppppp/6/6/PPPPPP/RNQKNR"

[[piece]]
letter = "K"
name = "King"
betza = "K"
role = "king"

[[piece]]
letter = "Q"
name = "Queen"
betza = "Q"

[[piece]]
letter = "R"
name = "Rook"
betza = "R"

[[piece]]
letter = "N"
name = "Knight"
betza = "N"

[[piece]]
letter = "P"
name = "Pawn"
role = "pawn"

[pawns]
double-step = []
en-passant = false
promotion = "choice"
promotion-choices = "QRN"
"#;

fn main() -> ExitCode {
    let depth = match std::env::args().nth(1).map(|d| d.parse::<u32>()) {
        None => 4,
        Some(Ok(depth)) => depth,
        Some(Err(e)) => {
            eprintln!("depth: {e}");
            return ExitCode::FAILURE;
        }
    };
    // load_toml reads and checks the definition; compile builds the
    // variant's move tables.
    let def = match load_toml("los-alamos.toml", LOS_ALAMOS) {
        Ok(def) => def,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let variant = match Variant::compile(def) {
        Ok(variant) => variant,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Position::start(variant);
    for d in 1..=depth {
        println!("perft {d}: {}", perft(&start, d));
    }
    ExitCode::SUCCESS
}
