//! Replays the first game of a file and prints, after each ply of its main
//! line, the move in SAN and the position string (FEN, or its extension to
//! the variant's board).
//!
//! ```text
//! cargo run --example replay -- [FILE]
//! ```
//!
//! Without a file it replays
//! `samples/courier-spiel/01-castling-both-sides-and-waiting-promotion.xpgn`,
//! a Courier-Spiel game on a 12x8 board.

use std::process::ExitCode;

use xpgn::notation::parallel::open_input;
use xpgn::notation::position::write_position;
use xpgn::notation::reader::read_games;
use xpgn::notation::replay::replay;
use xpgn::notation::san::write_san;
use xpgn::rules::Registry;

const DEFAULT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/samples/courier-spiel/01-castling-both-sides-and-waiting-promotion.xpgn"
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
    let (text, game) = match read_games(input).next() {
        Some(Ok(first)) => first,
        Some(Err(e)) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
        None => {
            eprintln!("{path}: no game");
            return ExitCode::FAILURE;
        }
    };
    // A game that stops on an illegal move is printed up to it.
    let (replayed, fault) = match replay(&Registry::builtin(), &game) {
        Ok(replayed) => (replayed, None),
        Err(failed) => match failed.partial {
            Some(partial) => (partial, Some(failed.error)),
            None => {
                eprintln!("{}", failed.error.to_diagnostic().render(&path, 1));
                return ExitCode::FAILURE;
            }
        },
    };
    println!(
        "{path}, line {}: {}",
        text.first_line(),
        replayed.variant.name()
    );
    println!("     start  {}", write_position(&replayed.start));
    let mut pos = replayed.start.clone();
    for (ply, m) in replayed.moves.iter().enumerate() {
        let san = write_san(&pos, m);
        pos.play_unchecked(m);
        println!("{:>4}  {san:<8}  {}", ply + 1, write_position(&pos));
    }
    if let Some(error) = fault {
        eprintln!("{}", error.to_diagnostic().render(&path, 1));
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
