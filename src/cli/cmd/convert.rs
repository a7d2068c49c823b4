use std::io::Write;
use std::path::Path;

use super::output::Parts;
use super::output::{FileId, output_file, write_output};
use super::shown;
use crate::cli::args::ConvertTo;
use crate::cli::exit::{CliError, Exit};
use xpgn::notation::clean::{Cleaning, clean, fixed_if_only_the_result_is_wrong, line_key};
use xpgn::notation::diagnostic::Diagnostic;
use xpgn::notation::game::Game;
use xpgn::notation::opening::OpeningTracker;
use xpgn::notation::parallel::{Event, map_games, open_input};
use xpgn::notation::reader::GameText;
use xpgn::notation::replay::check_game;
use xpgn::notation::writer::{
    MoveNotation, WriteOptions, write_fens, write_game_with, write_invalid, write_invalid_json,
    write_json,
};
use xpgn::rules::{Move, Position, Registry};

/// One game in the form asked for. An invalid game goes out whole and
/// harmless (its original as `%` lines before what of it replays; for
/// JSON, an object with its text and diagnostics), with its errors to
/// report.
fn convert_game(
    registry: &Registry,
    text: &GameText,
    mut game: Game,
    to: ConvertTo,
    how: &How,
) -> Converted {
    let mut tracker = OpeningTracker::new();
    let mut checked = check_game(
        registry,
        &game,
        Some(&mut |b: &Position, m: &Move, a: &Position| tracker.visit(b, m, a)),
    );
    let mut meta = Meta::default();
    if how.cleaning.fix_results {
        let mut again = OpeningTracker::new();
        if let Some((fixed, fixed_check)) = fixed_if_only_the_result_is_wrong(
            registry,
            &game,
            &checked,
            Some(&mut |b: &Position, m: &Move, a: &Position| again.visit(b, m, a)),
        ) {
            (game, checked, tracker) = (fixed, fixed_check, again);
            meta.result_fixed = true;
        }
    }
    if let Some(r) = &checked.replay {
        let opening = tracker.opening(Some(&r.start));
        meta.eco = opening.as_ref().map(|o| o.eco.clone());
        if checked.is_valid() {
            let mut end = r.start.clone();
            for m in &r.moves {
                end.play_unchecked(m);
            }
            meta.key = how.drop_duplicates.then(|| line_key(&r.start, &r.moves));
            let done = clean(
                &mut game,
                &how.cleaning,
                Some(&end),
                r.moves.len(),
                opening.as_ref(),
            );
            meta.result_fixed |= done.result_fixed;
        }
    }
    let (bytes, errors) = write_converted(registry, text, &game, &checked, to, &how.options);
    Converted {
        bytes,
        errors,
        meta,
    }
}

/// What a converted game's writing and reporting need besides its bytes.
#[derive(Default)]
struct Meta {
    /// Its moves' key, when duplicates are dropped (valid games).
    key: Option<u128>,
    /// Its ECO code.
    eco: Option<String>,
    /// Whether `--fix-results` changed its result.
    result_fixed: bool,
}

/// One game converted.
struct Converted {
    bytes: Vec<u8>,
    errors: Vec<Diagnostic>,
    meta: Meta,
}

/// How the games are changed and written.
pub(super) struct How {
    pub(super) cleaning: Cleaning,
    pub(super) options: WriteOptions,
    pub(super) drop_duplicates: bool,
    pub(super) split: Split,
}

/// How the output is split into files.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Split {
    /// One output.
    None,
    /// Files of N games.
    Every(u64),
    /// One file per ECO letter.
    ByEco,
}

impl How {
    pub(super) fn of(args: &crate::cli::args::CleanArgs) -> How {
        How {
            cleaning: super::cleaning(args),
            options: super::write_options(args),
            drop_duplicates: args.drop_duplicates,
            split: match (args.split_every, args.split_by_eco) {
                (Some(n), _) => Split::Every(n),
                (None, true) => Split::ByEco,
                (None, false) => Split::None,
            },
        }
    }
}

/// The label of the part a game goes to: its number's part, or its ECO
/// letter (`none` for no name).
pub(super) fn part_label(split: Split, index: u64, eco: Option<&str>) -> String {
    match split {
        Split::Every(n) => (index / n + 1).to_string(),
        _ => eco
            .and_then(|e| e.chars().next())
            .map_or_else(|| "none".to_string(), |c| c.to_string()),
    }
}

/// `game` written in the form asked for, or, invalid, in its safe form,
/// with its errors.
fn write_converted(
    registry: &Registry,
    text: &GameText,
    game: &Game,
    checked: &xpgn::notation::replay::Checked,
    to: ConvertTo,
    options: &WriteOptions,
) -> (Vec<u8>, Vec<Diagnostic>) {
    let notation = match to {
        ConvertTo::Lan => MoveNotation::Lan,
        ConvertTo::Uci => MoveNotation::Coord,
        _ => MoveNotation::San,
    };
    if checked.is_valid() {
        let written = match to {
            ConvertTo::Xpgn | ConvertTo::Lan | ConvertTo::Uci => {
                write_game_with(registry, game, notation, options)
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
        ConvertTo::Json => (write_invalid_json(&text.text, game, checked) + "\n").into_bytes(),
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
        _ => write_invalid(&text.raw, game, checked, notation),
    };
    (bytes, errors)
}

pub(super) fn run(
    registry: &Registry,
    files: &[String],
    to: ConvertTo,
    how: &How,
    output: Option<&str>,
    jobs: usize,
    stdout: &mut dyn Write,
) -> Result<(), CliError> {
    let inputs = super::import::Inputs::of(files)?;
    let files = &inputs.files;
    // No game read: an error, and no output file.
    let some_game = |tally: Tally| match inputs.no_games(tally.read) {
        Some(e) => Err(e),
        None => Ok(tally),
    };
    let tally = match (output_file(output), how.split) {
        (None, Split::None) => {
            convert(registry, files, to, how, jobs, &mut Dest::One(stdout)).and_then(some_game)?
        }
        (None, _) => {
            return Err(CliError::Usage(
                "--split-every and --split-by-eco write files beside -o OUT: name OUT".into(),
            ));
        }
        (Some(target), Split::None) => {
            // Every input is checked before the output is created: a typo
            // or an input named as output leaves the target untouched.
            check_inputs(files, target)?;
            write_output(target, |out| {
                convert(registry, files, to, how, jobs, &mut Dest::One(out)).and_then(some_game)
            })?
        }
        (Some(target), _) => {
            let mut parts = Parts::new(target);
            check_inputs(files, target)?;
            let tally = convert(registry, files, to, how, jobs, &mut Dest::Parts(&mut parts))
                .and_then(some_game)?;
            for path in parts.finish()? {
                eprintln!("xpgn: wrote {}", shown(&path));
            }
            tally
        }
    };
    if let Some(line) = inputs.skipped_line() {
        eprintln!("xpgn: {line}");
    }
    report(&tally);
    if tally.invalid > 0 {
        return Err(CliError::Quiet(Exit::Rejected));
    }
    Ok(())
}

/// Says what `--drop-duplicates` and `--fix-results` did.
pub(super) fn report(tally: &Tally) {
    if tally.duplicates > 0 {
        eprintln!(
            "xpgn: {} left out: the same moves as a game written before",
            super::import::plural(tally.duplicates as usize, "game", "games")
        );
    }
    if tally.fixed > 0 {
        eprintln!(
            "xpgn: {} set from the final position (--fix-results)",
            super::import::plural(tally.fixed as usize, "result", "results")
        );
    }
}

/// Where converted games go.
pub(super) enum Dest<'a> {
    /// One output.
    One(&'a mut dyn Write),
    /// Parts beside `-o OUT`.
    Parts(&'a mut Parts),
}

/// Counts of a conversion or export.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) read: u64,
    pub(super) invalid: usize,
    pub(super) written: u64,
    pub(super) duplicates: u64,
    pub(super) fixed: u64,
    seen: std::collections::HashSet<u128>,
}

impl Tally {
    /// Writes one game's `bytes` where `how` sends it, unless it repeats
    /// the moves (`key`) of a game written before.
    pub(super) fn write(
        &mut self,
        dest: &mut Dest<'_>,
        how: &How,
        bytes: &[u8],
        key: Option<u128>,
        eco: Option<&str>,
    ) -> Result<(), CliError> {
        if let Some(key) = key
            && !self.seen.insert(key)
        {
            self.duplicates += 1;
            return Ok(());
        }
        match dest {
            Dest::One(out) => out.write_all(bytes)?,
            Dest::Parts(parts) => {
                let label = part_label(how.split, self.written, eco);
                parts.part(&label)?.write_all(bytes)?;
            }
        }
        self.written += 1;
        Ok(())
    }
}

/// Fails unless every input can be opened and none of them is `target`
/// (by whatever name: the file's identity is compared, not its path).
pub(super) fn check_inputs(files: &[String], target: &str) -> Result<(), CliError> {
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

/// Converts every game of `files` into `dest` on `jobs` threads; counts
/// the games read, the invalid ones (reported, and written whole in their
/// safe form), and what the cleaning did.
fn convert(
    registry: &Registry,
    files: &[String],
    to: ConvertTo,
    how: &How,
    jobs: usize,
    dest: &mut Dest<'_>,
) -> Result<Tally, CliError> {
    let mut tally = Tally::default();
    let mut progress = super::progress::Progress::new(files);
    let mut done = 0u64;
    map_games(
        files,
        &open_input,
        jobs,
        |input, text| {
            let text = text.to_game_text();
            let game = text.read();
            let converted = convert_game(registry, &text, game, to, how);
            let reports: Vec<String> = converted
                .errors
                .iter()
                .map(|d| {
                    format!(
                        "{} (written whole, as an invalid game)",
                        d.render(&files[input], text.number)
                    )
                })
                .collect();
            (converted, reports, text.raw.len() as u64)
        },
        |event| -> Result<(), CliError> {
            match event {
                Event::Game {
                    value: (converted, reports, size),
                    input,
                } => {
                    tally.read += 1;
                    done += size;
                    progress.show(|| format!("{}: ", shown(&files[input])), tally.read, done);
                    if !reports.is_empty() {
                        tally.invalid += 1;
                        for r in &reports {
                            eprintln!("{r}");
                        }
                    }
                    tally.fixed += u64::from(converted.meta.result_fixed);
                    tally.write(
                        dest,
                        how,
                        &converted.bytes,
                        converted.meta.key,
                        converted.meta.eco.as_deref(),
                    )
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
    if let Dest::One(out) = dest {
        out.flush()?;
    }
    Ok(tally)
}
