use std::io::Write;
use std::path::Path;

use super::output::{FileId, write_atomically};
use super::validate::open;
use super::{shown, shown_message};
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
    let invalid = match output {
        Some(target) => {
            // Every input is checked before the output is created: a typo
            // or an input named as output leaves the target untouched.
            check_inputs(files, target)?;
            write_atomically(target, |out| convert(files, to, out))?
        }
        None => convert(files, to, stdout)?,
    };
    if invalid > 0 {
        return Err(CliError::Quiet(Exit::Rejected));
    }
    Ok(())
}

/// Fails unless every input can be opened and none of them is `target`
/// (by whatever name: the file's identity is compared, not its path).
fn check_inputs(files: &[String], target: &str) -> Result<(), CliError> {
    let out = FileId::of_path(Path::new(target));
    for path in files {
        let id = if path == "-" {
            FileId::of_stdin()
        } else {
            let file = std::fs::File::open(path)
                .map_err(|e| CliError::Usage(format!("{}: cannot read: {e}", shown(path))))?;
            FileId::of_file(&file, Path::new(path))
        };
        if out.is_some() && id == out {
            let input = if path == "-" {
                "standard input".to_string()
            } else {
                format!("input {}", shown(path))
            };
            return Err(CliError::Usage(format!(
                "-o {}: is the {input}; converting a file onto itself would destroy it, write to another file",
                shown(target)
            )));
        }
    }
    Ok(())
}

/// Converts every game of `files` into `out`; returns how many games were
/// faulty (reported, and written as read).
fn convert(files: &[String], to: ConvertTo, out: &mut dyn Write) -> Result<usize, CliError> {
    let mut invalid = 0usize;
    for path in files {
        for item in read_games(open(path)?) {
            let (text, parsed) =
                item.map_err(|e| CliError::Usage(format!("{}: read error: {e}", shown(path))))?;
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
                        "{}:{}:{}: game {}{ply}: {} (written unchanged)",
                        shown(path),
                        at.line,
                        at.column,
                        text.number,
                        shown_message(&message)
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
    Ok(invalid)
}
