use std::io::{BufRead, BufReader, Write};

use serde::Serialize;

use super::{shown, shown_message};
use crate::cli::args::OutputFormat;
use crate::cli::exit::CliError;
use crate::notation::game::Game;
use crate::notation::pgn::ParseError;
use crate::notation::position::write_position;
use crate::notation::reader::read_games;
use crate::notation::replay::replay;
use crate::notation::span::Location;

#[derive(Serialize)]
struct ErrorJson<'a> {
    kind: &'a str,
    ply: Option<usize>,
    line: usize,
    column: usize,
    #[serde(rename = "move")]
    text: Option<&'a str>,
    message: &'a str,
}

#[derive(Serialize)]
struct GameJson<'a> {
    file: &'a str,
    game: usize,
    valid: bool,
    plies: usize,
    result: Option<&'a str>,
    final_fen: Option<String>,
    error: Option<ErrorJson<'a>>,
}

/// A fault of one game, whatever layer found it.
struct Diagnostic {
    kind: &'static str,
    ply: Option<usize>,
    at: Location,
    text: Option<String>,
    message: String,
}

/// What validation says of one game.
struct Verdict {
    plies: usize,
    result: Option<String>,
    final_fen: Option<String>,
    error: Option<Diagnostic>,
}

fn judge(parsed: Result<Game, ParseError>) -> Verdict {
    let game = match parsed {
        Ok(g) => g,
        Err(e) => {
            return Verdict {
                plies: 0,
                result: None,
                final_fen: None,
                error: Some(Diagnostic {
                    kind: "syntax",
                    ply: None,
                    at: e.at,
                    text: None,
                    message: e.to_string(),
                }),
            };
        }
    };
    let result = game.result.clone().or(game.tag("Result").map(String::from));
    match replay(&game) {
        Ok(r) => Verdict {
            plies: r.moves.len(),
            result,
            final_fen: Some(write_position(&r.end)),
            error: None,
        },
        Err(failed) => {
            let e = failed.error;
            Verdict {
                plies: failed.partial.map_or(0, |p| p.moves.len()),
                result,
                final_fen: None,
                error: Some(Diagnostic {
                    kind: e.kind.name(),
                    ply: e.ply,
                    at: e.at,
                    text: e.text,
                    message: e.message,
                }),
            }
        }
    }
}

/// Opens `path`, or standard input for `-`.
pub(super) fn open(path: &str) -> Result<Box<dyn BufRead>, CliError> {
    if path == "-" {
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    std::fs::File::open(path)
        .map(|f| Box::new(BufReader::with_capacity(1 << 16, f)) as Box<dyn BufRead>)
        .map_err(|e| CliError::Usage(format!("{}: cannot read: {e}", shown(path))))
}

pub(super) fn run(
    files: &[String],
    format: OutputFormat,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (mut read, mut valid, mut unreadable) = (0usize, 0usize, Vec::new());
    for path in files {
        let input = match open(path) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("xpgn: {e}");
                unreadable.push(path.clone());
                continue;
            }
        };
        for item in read_games(input) {
            let (text, parsed) = match item {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("xpgn: {}: read error: {e}", shown(path));
                    unreadable.push(path.clone());
                    break;
                }
            };
            read += 1;
            let verdict = judge(parsed);
            if verdict.error.is_none() {
                valid += 1;
            }
            match format {
                OutputFormat::Text => {
                    if let Some(e) = &verdict.error {
                        let ply = e.ply.map_or(String::new(), |p| format!(", ply {p}"));
                        writeln!(
                            out,
                            "{}:{}:{}: game {}{ply}: {}",
                            shown(path),
                            e.at.line,
                            e.at.column,
                            text.number,
                            shown_message(&e.message)
                        )?;
                    }
                }
                OutputFormat::Json => {
                    let json = GameJson {
                        file: path,
                        game: text.number,
                        valid: verdict.error.is_none(),
                        plies: verdict.plies,
                        result: verdict.result.as_deref(),
                        final_fen: verdict.final_fen,
                        error: verdict.error.as_ref().map(|e| ErrorJson {
                            kind: e.kind,
                            ply: e.ply,
                            line: e.at.line,
                            column: e.at.column,
                            text: e.text.as_deref(),
                            message: &e.message,
                        }),
                    };
                    serde_json::to_writer(&mut *out, &json).map_err(std::io::Error::from)?;
                    writeln!(out)?;
                }
            }
        }
    }
    if format == OutputFormat::Text {
        writeln!(
            out,
            "{read} games read, {valid} valid, {} invalid",
            read - valid
        )?;
    }
    if !unreadable.is_empty() {
        return Err(CliError::Usage(format!(
            "{} file(s) could not be read: {}",
            unreadable.len(),
            unreadable
                .iter()
                .map(|p| shown(p))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    if valid < read {
        return Err(CliError::Quiet(crate::cli::exit::Exit::Rejected));
    }
    Ok(())
}
