use std::io::Write;

use super::validate::open;
use crate::cli::args::ConvertTo;
use crate::cli::exit::{CliError, Exit};
use crate::notation::reader::read_games;
use crate::notation::writer::{MoveNotation, write_fens, write_game, write_json};

pub(super) fn run(
    files: &[String],
    to: ConvertTo,
    output: Option<&str>,
    stdout: &mut dyn Write,
) -> Result<(), CliError> {
    let mut file_out;
    let out: &mut dyn Write = match output {
        Some(path) => {
            file_out = std::io::BufWriter::new(
                std::fs::File::create(path)
                    .map_err(|e| CliError::Usage(format!("{path}: cannot write: {e}")))?,
            );
            &mut file_out
        }
        None => stdout,
    };
    let mut invalid = 0usize;
    for path in files {
        for item in read_games(open(path)?) {
            let (text, parsed) =
                item.map_err(|e| CliError::Usage(format!("{path}: read error: {e}")))?;
            let written = parsed
                .map_err(|e| (e.at, None, e.to_string()))
                .and_then(|game| {
                    match to {
                        ConvertTo::Xpgn => write_game(&game, MoveNotation::San),
                        ConvertTo::Lan => write_game(&game, MoveNotation::Lan),
                        ConvertTo::Uci => write_game(&game, MoveNotation::Coord),
                        ConvertTo::Json => write_json(&game).map(|j| j + "\n"),
                        ConvertTo::Fen => write_fens(&game).map(|f| f + "\n"),
                    }
                    .map_err(|e| (e.at, e.ply, e.message))
                });
            match written {
                Ok(s) => out.write_all(s.as_bytes())?,
                Err((at, ply, message)) => {
                    invalid += 1;
                    let ply = ply.map_or(String::new(), |p| format!(", ply {p}"));
                    eprintln!(
                        "{path}:{}:{}: game {}{ply}: {message} (written unchanged)",
                        at.line, at.column, text.number
                    );
                    // Nothing the user gave is dropped: the original bytes go out as read.
                    out.write_all(&text.raw)?;
                    if !text.raw.ends_with(b"\n") {
                        out.write_all(b"\n")?;
                    }
                    out.write_all(b"\n")?;
                }
            }
        }
    }
    out.flush()?;
    if invalid > 0 {
        return Err(CliError::Quiet(Exit::Rejected));
    }
    Ok(())
}
