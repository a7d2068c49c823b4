use std::io::Write;
use std::path::Path;

use super::output::{FileId, output_file, write_output};
use super::shown;
use crate::cli::args::ConvertTo;
use crate::cli::exit::{CliError, Exit};
use xpgn::notation::diagnostic::Diagnostic;
use xpgn::notation::game::Game;
use xpgn::notation::parallel::{Event, map_games, open_input};
use xpgn::notation::reader::GameText;
use xpgn::notation::replay::check_game;
use xpgn::notation::writer::{
    MoveNotation, write_fens, write_game, write_invalid, write_invalid_json, write_json,
};
use xpgn::rules::Registry;

/// One game in the form asked for. An invalid game goes out whole and
/// harmless (its original as `%` lines before what of it replays; for
/// JSON, an object with its text and diagnostics), with its errors to
/// report.
fn convert_game(
    registry: &Registry,
    text: &GameText,
    game: &Game,
    to: ConvertTo,
) -> (Vec<u8>, Vec<Diagnostic>) {
    let checked = check_game(registry, game, None);
    let notation = match to {
        ConvertTo::Lan => MoveNotation::Lan,
        ConvertTo::Uci => MoveNotation::Coord,
        _ => MoveNotation::San,
    };
    if checked.is_valid() {
        let written = match to {
            ConvertTo::Xpgn | ConvertTo::Lan | ConvertTo::Uci => {
                write_game(registry, game, notation)
            }
            ConvertTo::Json => write_json(registry, game).map(|j| j + "\n"),
            ConvertTo::Fen => write_fens(registry, game),
        };
        if let Ok(s) = written {
            return (s.into_bytes(), Vec::new());
        }
    }
    let errors = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    let bytes = match to {
        ConvertTo::Json => (write_invalid_json(&text.text, game, &checked) + "\n").into_bytes(),
        ConvertTo::Fen => {
            // The positions as far as the main line replays.
            let mut out = String::new();
            if let Some(r) = &checked.replay {
                let mut pos = r.start.clone();
                out.push_str(&xpgn::notation::position::write_position(&pos));
                out.push('\n');
                for m in &r.moves {
                    pos.play_unchecked(m);
                    out.push_str(&xpgn::notation::position::write_position(&pos));
                    out.push('\n');
                }
            }
            out.into_bytes()
        }
        _ => write_invalid(&text.raw, game, &checked, notation),
    };
    (bytes, errors)
}

pub(super) fn run(
    registry: &Registry,
    files: &[String],
    to: ConvertTo,
    output: Option<&str>,
    jobs: usize,
    stdout: &mut dyn Write,
) -> Result<(), CliError> {
    let inputs = super::import::Inputs::of(files)?;
    let files = &inputs.files;
    // No game read: an error, and no output file.
    let some_game = |(read, invalid)| match inputs.no_games(read) {
        Some(e) => Err(e),
        None => Ok(invalid),
    };
    let invalid = match output_file(output) {
        Some(target) => {
            // Every input is checked before the output is created: a typo
            // or an input named as output leaves the target untouched.
            check_inputs(files, target)?;
            write_output(target, |out| {
                convert(registry, files, to, jobs, out).and_then(some_game)
            })?
        }
        None => convert(registry, files, to, jobs, stdout).and_then(some_game)?,
    };
    if let Some(line) = inputs.skipped_line() {
        eprintln!("xpgn: {line}");
    }
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

/// Converts every game of `files` into `out` on `jobs` threads; returns
/// how many games were read and how many of them were invalid (reported,
/// and written whole in their safe form).
fn convert(
    registry: &Registry,
    files: &[String],
    to: ConvertTo,
    jobs: usize,
    out: &mut dyn Write,
) -> Result<(u64, usize), CliError> {
    let mut read = 0u64;
    let mut invalid = 0usize;
    let mut progress = super::progress::Progress::new(files);
    let mut done = 0u64;
    map_games(
        files,
        &open_input,
        jobs,
        |input, text| {
            let text = text.to_game_text();
            let game = text.read();
            let (bytes, errors) = convert_game(registry, &text, &game, to);
            let reports: Vec<String> = errors
                .iter()
                .map(|d| {
                    format!(
                        "{} (written whole, as an invalid game)",
                        d.render(&files[input], text.number)
                    )
                })
                .collect();
            (bytes, reports, text.raw.len() as u64)
        },
        |event| -> Result<(), CliError> {
            match event {
                Event::Game {
                    value: (bytes, reports, size),
                    input,
                } => {
                    read += 1;
                    done += size;
                    progress.show(|| format!("{}: ", shown(&files[input])), read, done);
                    if !reports.is_empty() {
                        invalid += 1;
                        for r in &reports {
                            eprintln!("{r}");
                        }
                    }
                    out.write_all(&bytes)?;
                    Ok(())
                }
                Event::Unopened { input, error } => Err(CliError::Usage(format!(
                    "{}: cannot read: {error}",
                    shown(&files[input])
                ))),
                Event::Failed { input, error } => {
                    Err(CliError::Usage(super::read_failed(&files[input], &error)))
                }
            }
        },
    )?;
    progress.clear();
    out.flush()?;
    Ok((read, invalid))
}
