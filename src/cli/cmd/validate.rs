use std::io::{BufRead, BufReader, Write};

use serde::Serialize;

use super::shown;
use crate::cli::args::OutputFormat;
use crate::cli::exit::CliError;
use crate::notation::diagnostic::{Diagnostic, Severity};
use crate::notation::position::write_position;
use crate::notation::reader::GameSplitter;
use crate::notation::validation::validate;

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
    /// The first error, as before diagnostics had severities.
    error: Option<ErrorJson<'a>>,
    diagnostics: &'a [Diagnostic],
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

/// Counts of a validation run.
#[derive(Default)]
struct Tally {
    read: usize,
    valid: usize,
    warned: usize,
}

pub(super) fn run(
    files: &[String],
    format: OutputFormat,
    strict: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut tally = Tally::default();
    let mut unreadable = Vec::new();
    for path in files {
        let input = match open(path) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("xpgn: {e}");
                unreadable.push(path.clone());
                continue;
            }
        };
        // Each game borrowed from the splitter's buffer and validated as it
        // is read: memory holds one game, whatever the file's size.
        let mut games = GameSplitter::new(input);
        while let Some(item) = games.next_game() {
            let text = match item {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("xpgn: {}: read error: {e}", shown(path));
                    unreadable.push(path.clone());
                    break;
                }
            };
            tally.read += 1;
            let checked = validate(&text);
            let warned = checked
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Warning);
            let valid = checked.is_valid() && !(strict && warned);
            tally.valid += usize::from(valid);
            tally.warned += usize::from(valid && warned);
            match format {
                OutputFormat::Text => {
                    for d in &checked.diagnostics {
                        writeln!(out, "{}", d.render(path, text.number))?;
                    }
                }
                OutputFormat::Json => {
                    let first = checked.first_error();
                    let json = GameJson {
                        file: path,
                        game: text.number,
                        valid,
                        plies: checked.plies,
                        result: checked.result.as_deref(),
                        final_fen: checked
                            .end
                            .as_ref()
                            .filter(|_| checked.is_valid())
                            .map(write_position),
                        error: first.map(|e| ErrorJson {
                            kind: e.kind.name(),
                            ply: e.ply,
                            line: e.at.line,
                            column: e.at.column,
                            text: e.text.as_deref(),
                            message: &e.message,
                        }),
                        diagnostics: &checked.diagnostics,
                    };
                    serde_json::to_writer(&mut *out, &json).map_err(std::io::Error::from)?;
                    writeln!(out)?;
                }
            }
        }
    }
    if format == OutputFormat::Text {
        let strictly = if strict {
            " (--strict: warnings count)"
        } else {
            ""
        };
        writeln!(
            out,
            "{} games read, {} valid ({} with warnings), {} invalid{strictly}",
            tally.read,
            tally.valid,
            tally.warned,
            tally.read - tally.valid
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
    if tally.valid < tally.read {
        return Err(CliError::Quiet(crate::cli::exit::Exit::Rejected));
    }
    Ok(())
}
