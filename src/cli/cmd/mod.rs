//! One function per subcommand.

mod convert;
mod export;
mod import;
mod perft;
mod query;
mod show;
mod tree;
mod validate;
mod variants;

use std::io::Write;

use super::args::{Cli, Command, PositionArgs};
use super::exit::CliError;
use crate::notation::coord::{CoordError, resolve_coord};
use crate::notation::position::read_position;
use crate::rules::{Position, Variant};

pub(super) fn run(cli: &Cli, out: &mut dyn Write) -> Result<(), CliError> {
    match &cli.command {
        Command::Variants => variants::run(out),
        Command::Perft {
            position,
            divide,
            depth,
        } => perft::run(position, *divide, *depth, out),
        Command::Show { position } => show::run(position, out),
        Command::Validate { files, format } => validate::run(files, *format, out),
        Command::Convert { files, to, output } => convert::run(files, *to, output.as_deref(), out),
        Command::Import { files, db } => import::run(files, db, out),
        Command::Stats { db, format } => import::stats(db, *format, out),
        Command::Query(args) => query::run(args, out),
        Command::Export(args) => export::run(args, out),
        Command::Tree {
            db,
            variant,
            fen,
            moves,
            format,
        } => tree::run(db, variant, fen.as_deref(), moves.as_deref(), *format, out),
    }
}

/// The variant, start position and played moves the arguments name.
fn position_from(args: &PositionArgs) -> Result<Position, CliError> {
    let variant = Variant::by_name(&args.variant).ok_or_else(|| {
        let names: Vec<&str> = Variant::builtin().iter().map(|v| v.name()).collect();
        CliError::Usage(format!(
            "unknown variant `{}`; known: {}",
            args.variant,
            names.join(", ")
        ))
    })?;
    let mut pos = match &args.fen {
        Some(fen) => {
            read_position(variant, fen).map_err(|e| CliError::Usage(format!("--fen: {e}")))?
        }
        None => Position::start(variant),
    };
    for (i, text) in args.moves.split_whitespace().enumerate() {
        let m = resolve_coord(&pos, text).map_err(|e| {
            let ply = i + 1;
            let msg = format!("--moves: ply {ply} `{text}`: {e}");
            match e {
                CoordError::Syntax(_) => CliError::Usage(msg),
                _ => CliError::Rejected(msg),
            }
        })?;
        pos.play_unchecked(&m);
    }
    Ok(pos)
}
