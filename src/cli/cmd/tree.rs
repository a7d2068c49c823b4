use std::io::Write;

use super::query::{open_to_read, play_moves, variant_arg};
use crate::cli::exit::CliError;
use crate::notation::position::{read_position, write_position};
use crate::rules::{Color, Position};

pub(super) fn run(
    db: &str,
    variant: &str,
    fen: Option<&str>,
    moves: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let variant = variant_arg(variant)?;
    let mut pos = match fen {
        Some(f) => read_position(variant, f).map_err(|e| CliError::Usage(format!("--fen: {e}")))?,
        None => Position::start(variant),
    };
    if let Some(m) = moves {
        play_moves(&mut pos, m)?;
    }
    let database = open_to_read(db)?;
    let tree = database
        .tree(&pos)
        .map_err(|e| CliError::Usage(format!("--db {db}: {e}")))?;
    let side = match pos.turn() {
        Color::White => "White",
        Color::Black => "Black",
    };
    writeln!(out, "FEN: {}", write_position(&pos))?;
    writeln!(
        out,
        "{:<12} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "move", "games", "white", "draws", "black", "score"
    )?;
    for m in &tree.moves {
        let score = m
            .score(pos.turn())
            .map_or("-".to_string(), |s| format!("{s:.1}%"));
        writeln!(
            out,
            "{:<12} {:>7} {:>7} {:>7} {:>7} {:>7}",
            m.san, m.games, m.white_wins, m.draws, m.black_wins, score
        )?;
    }
    writeln!(
        out,
        "{} games reach this position, {} end in it; score: {side}'s (to move), over games with a result",
        tree.games, tree.ended
    )?;
    Ok(())
}
