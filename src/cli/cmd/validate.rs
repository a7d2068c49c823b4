use std::io::{BufRead, Write};

use serde::Serialize;

use super::shown;
use crate::cli::args::OutputFormat;
use crate::cli::exit::CliError;
use xpgn::notation::annotations::{main_line, plies_json, summary_json};
use xpgn::notation::diagnostic::{Diagnostic, Severity};
use xpgn::notation::opening::OpeningTracker;
use xpgn::notation::parallel::{Event, map_games_reading_once, open_input};
use xpgn::notation::pgn::read_to_end;
use xpgn::notation::position::write_position;
use xpgn::notation::reader::GameBytes;
use xpgn::notation::validation::{Validation, Validator, validate_to_end};
use xpgn::rules::{Move, Position, Registry};

#[derive(Serialize)]
struct ErrorJson<'a> {
    kind: &'a str,
    ply: Option<usize>,
    line: usize,
    column: usize,
    #[serde(rename = "move")]
    text: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'a str>,
    message: &'a str,
}

#[derive(Serialize)]
struct GameJson<'a> {
    file: &'a str,
    game: usize,
    valid: bool,
    plies: usize,
    result: Option<&'a str>,
    /// How the final position ends the game, if it does (`checkmate`,
    /// `king exploded`, ...): the rules' verdict, which the result must fit.
    ending: Option<&'static str>,
    final_fen: Option<String>,
    /// The ECO code of the opening of the main line (as far as it
    /// replays), when its variant has a book that names one of its
    /// positions.
    eco: Option<String>,
    /// The opening's name.
    opening: Option<String>,
    /// Each side's last `[%clk]` on the main line, in seconds.
    clocks: serde_json::Value,
    /// The main line's last `[%eval]`, with its ply.
    final_eval: serde_json::Value,
    /// With `--annotations`: the main line ply by ply.
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<serde_json::Value>,
    /// The first error, as before diagnostics had severities.
    error: Option<ErrorJson<'a>>,
    diagnostics: &'a [Diagnostic],
}

/// Opens `path`, or standard input for `-`.
pub(super) fn open(path: &str) -> Result<Box<dyn BufRead + Send>, CliError> {
    open_input(path).map_err(|e| CliError::Usage(format!("{}: cannot read: {e}", shown(path))))
}

/// Counts of a validation run.
#[derive(Default)]
struct Tally {
    read: usize,
    valid: usize,
    warned: usize,
}

/// One game's verdict and what is printed for it.
struct Verdict {
    /// The game's bytes in its input.
    bytes: u64,
    valid: bool,
    warned: bool,
    printed: Vec<u8>,
}

/// What `validate` prints, and how strictly it judges.
#[derive(Clone, Copy)]
pub(super) struct Shown {
    pub(super) format: OutputFormat,
    /// Warnings count as errors.
    pub(super) strict: bool,
    /// The JSON carries each game's main line ply by ply.
    pub(super) annotations: bool,
}

/// Reads and replays one game and writes what is printed for it.
fn judge(registry: &Registry, path: &str, text: &GameBytes<'_>, shown_as: Shown) -> Verdict {
    let (checked, tracker, _) = check(registry, text, shown_as.format);
    verdict(registry, path, text, shown_as, &checked, tracker)
}

/// [`judge`] for a game cut by its layout: `None` unless the reading
/// found that the game ends with its result, where the splitter's scan
/// cuts it too.
fn judge_guessed(
    registry: &Registry,
    path: &str,
    text: &GameBytes<'_>,
    shown_as: Shown,
) -> Option<Verdict> {
    let (checked, tracker, ends_at_result) = check(registry, text, shown_as.format);
    ends_at_result.then(|| verdict(registry, path, text, shown_as, &checked, tracker))
}

/// Reads and replays one game (with its opening followed for JSON);
/// tells also whether the game ends with its result.
fn check(
    registry: &Registry,
    text: &GameBytes<'_>,
    format: OutputFormat,
) -> (Validation, OpeningTracker, bool) {
    let mut tracker = OpeningTracker::new();
    let (checked, ends_at_result) = if format == OutputFormat::Json {
        let mut visit = |b: &Position, m: &Move, a: &Position| tracker.visit(b, m, a);
        let mut validator = Validator::visiting(registry, text.source_notes(), &mut visit);
        let end = read_to_end(&text.text, text.start, &mut validator);
        (validator.finish(), end.ends_at_result)
    } else {
        validate_to_end(registry, text)
    };
    (checked, tracker, ends_at_result)
}

/// What is printed for a game read and replayed.
fn verdict(
    registry: &Registry,
    path: &str,
    text: &GameBytes<'_>,
    shown_as: Shown,
    checked: &Validation,
    tracker: OpeningTracker,
) -> Verdict {
    let Shown {
        format,
        strict,
        annotations,
    } = shown_as;
    let warned = checked
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Warning);
    let valid = checked.is_valid() && !(strict && warned);
    let mut printed = Vec::new();
    match format {
        OutputFormat::Text => {
            for d in &checked.diagnostics {
                printed.extend_from_slice(
                    d.render_in(path, text.number, &text.text, text.start)
                        .as_bytes(),
                );
                printed.push(b'\n');
            }
        }
        OutputFormat::Json => {
            let first = checked.first_error();
            let opening = tracker.opening(None);
            // The comments' commands: the game is read again into a tree
            // only when it has some, or when its plies are asked for.
            let plies = if annotations || text.text.contains("[%") {
                main_line(registry, &text.to_game_text().read())
            } else {
                Vec::new()
            };
            let (clocks, final_eval) = summary_json(&plies);
            let json = GameJson {
                file: path,
                game: text.number,
                valid,
                plies: checked.plies,
                result: checked.result.as_deref(),
                ending: checked
                    .end
                    .as_ref()
                    .filter(|_| checked.is_valid())
                    .and_then(|end| end.outcome())
                    .map(|o| o.ending().name()),
                final_fen: checked
                    .end
                    .as_deref()
                    .filter(|_| checked.is_valid())
                    .map(write_position),
                eco: opening.as_ref().map(|o| o.eco.clone()),
                opening: opening.map(|o| o.name),
                clocks,
                final_eval,
                annotations: annotations.then(|| plies_json(&plies)),
                error: first.map(|e| ErrorJson {
                    kind: e.kind.name(),
                    ply: e.ply,
                    line: e.at.line,
                    column: e.at.column,
                    text: e.text.as_deref(),
                    rule: e.rule.as_deref(),
                    message: &e.message,
                }),
                diagnostics: &checked.diagnostics,
            };
            // Serialising these plain structures cannot fail.
            if serde_json::to_writer(&mut printed, &json).is_ok() {
                printed.push(b'\n');
            }
        }
    }
    Verdict {
        bytes: text.raw.len() as u64,
        valid,
        warned: valid && warned,
        printed,
    }
}

pub(super) fn run(
    registry: &Registry,
    files: &[String],
    shown_as: Shown,
    jobs: usize,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if shown_as.annotations && shown_as.format != OutputFormat::Json {
        return Err(CliError::Usage(
            "--annotations lists plies in the JSON output: give --format json too".into(),
        ));
    }
    let inputs = super::import::Inputs::of_checked(files, false)?;
    let files = &inputs.files;
    let mut tally = Tally::default();
    let mut unreadable: Vec<String> = Vec::new();
    let mut progress = super::progress::Progress::new(files);
    let mut bytes = 0u64;
    map_games_reading_once(
        files,
        &open_input,
        jobs,
        |input, text| judge(registry, &files[input], text, shown_as),
        |input, text| judge_guessed(registry, &files[input], text, shown_as),
        |event| -> Result<(), CliError> {
            match event {
                Event::Game { value, input } => {
                    tally.read += 1;
                    tally.valid += usize::from(value.valid);
                    tally.warned += usize::from(value.warned);
                    bytes += value.bytes;
                    progress.show(
                        || format!("{}: ", shown(&files[input])),
                        tally.read as u64,
                        bytes,
                    );
                    out.write_all(&value.printed)?;
                }
                Event::Unopened { input, error } => {
                    let path = &files[input];
                    eprintln!("xpgn: {}: cannot read: {error}", shown(path));
                    unreadable.push(path.clone());
                }
                Event::Failed { input, error } => {
                    let path = &files[input];
                    eprintln!("xpgn: {}", super::read_failed(path, &error));
                    unreadable.push(path.clone());
                }
            }
            Ok(())
        },
    )?;
    progress.clear();
    if shown_as.format == OutputFormat::Text {
        let strictly = if shown_as.strict {
            " (--strict: warnings count)"
        } else {
            ""
        };
        writeln!(
            out,
            "{} read, {} valid ({} with warnings), {} invalid{strictly}",
            super::import::plural(tally.read, "game", "games"),
            tally.valid,
            tally.warned,
            tally.read - tally.valid
        )?;
        if let Some(line) = inputs.skipped_line() {
            writeln!(out, "{line}")?;
        }
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
    if let Some(e) = inputs.no_games(tally.read as u64) {
        return Err(e);
    }
    if tally.valid < tally.read {
        return Err(CliError::Quiet(crate::cli::exit::Exit::Rejected));
    }
    Ok(())
}
