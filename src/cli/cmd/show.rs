use std::io::Write;

use super::position_from;
use crate::cli::args::PositionArgs;
use crate::cli::exit::CliError;
use xpgn::notation::position::{piece_letter, write_position};
use xpgn::rules::{Color, Outcome, Registry, Square};

pub(super) fn run(
    registry: &Registry,
    args: &PositionArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let pos = position_from(registry, args)?;
    let variant = pos.variant();
    let size = variant.size();
    let waiting: Vec<Square> = pos.waiting_pawns().iter().map(|w| w.square).collect();
    let side = if pos.turn() == Color::White {
        "White"
    } else {
        "Black"
    };
    let mut status = format!(
        "{} ({}x{}), {side} to move",
        variant.def().display_name,
        size.files,
        size.ranks
    );
    if !waiting.is_empty() {
        status.push_str(", * = waiting pawn");
    }
    match pos.outcome() {
        Some(Outcome::Win { winner, by }) => {
            status.push_str(&format!(", {by:?}: {winner:?} wins"));
        }
        Some(Outcome::Draw { by }) => status.push_str(&format!(", {by:?}: draw")),
        None if pos.is_check() => status.push_str(", in check"),
        None => {}
    }
    writeln!(out, "{status}")?;
    for r in (0..size.ranks).rev() {
        let mut line = format!("{:>2} ", r + 1);
        for f in 0..size.files {
            let sq = Square::new(f, r);
            let cell = match pos.piece_at(sq) {
                Some(p) => piece_letter(variant, p),
                None => '.',
            };
            let mark = if waiting.contains(&sq) { '*' } else { ' ' };
            line.push_str(&format!(" {cell}{mark}"));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    write!(out, "   ")?;
    for f in 0..size.files {
        write!(out, " {} ", (b'a' + f) as char)?;
    }
    writeln!(out)?;
    writeln!(out, "FEN: {}", write_position(&pos))?;
    Ok(())
}
