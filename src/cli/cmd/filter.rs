//! `xpgn filter`: the games of some files that the filters select (or,
//! with `--invert`, the others), written as read.

use std::io::Write;

use super::output::{output_file, write_output};
use super::shown;
use crate::cli::args::{FilterCommandArgs, SelectArgs};
use crate::cli::exit::{CliError, Exit};
use xpgn::notation::filter::{EndingFilter, GameSelection, TagCriteria, TagTest, facts};
use xpgn::notation::parallel::{Event, map_games, open_input};
use xpgn::rules::Registry;

/// The tag tests of `--tag` arguments.
pub(super) fn tag_tests(tags: &[String]) -> Result<Vec<TagTest>, CliError> {
    tags.iter()
        .map(|t| {
            TagTest::parse(t)
                .map_err(|e| CliError::Usage(format!("--tag {}", shown(&e.to_string()))))
        })
        .collect()
}

/// What `select` and the `--tag` tests ask for.
pub(super) fn selection(
    tags: Vec<TagTest>,
    select: &SelectArgs,
) -> Result<GameSelection, CliError> {
    let mut criteria = Vec::new();
    for path in &select.tag_file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            CliError::Usage(format!("--tag-file {}: cannot read: {e}", shown(path)))
        })?;
        criteria.push(
            TagCriteria::parse(path, &text)
                .map_err(|e| CliError::Usage(format!("--tag-file {}", shown(&e.to_string()))))?,
        );
    }
    let endings = select
        .ending
        .iter()
        .map(|e| {
            EndingFilter::parse(e)
                .map_err(|e| CliError::Usage(format!("--ending: {}", shown(&e.to_string()))))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if let (Some(min), Some(max)) = (select.min_plies, select.max_plies)
        && min > max
    {
        return Err(CliError::Usage(format!(
            "--min-plies {min} is more than --max-plies {max}: no game can match"
        )));
    }
    let either = |yes: bool, no: bool| (yes || no).then_some(yes);
    Ok(GameSelection {
        tags,
        criteria,
        min_plies: select.min_plies,
        max_plies: select.max_plies,
        endings,
        comments: either(select.comments, select.no_comments),
        variations: either(select.variations, select.no_variations),
        underpromotion: select.underpromotion,
    })
}

/// Counts of a run.
#[derive(Default)]
struct Tally {
    read: u64,
    written: u64,
    /// Games read that break the rules (written all the same when they
    /// match, as read).
    invalid: u64,
}

pub(super) fn run(
    registry: &Registry,
    args: &FilterCommandArgs,
    jobs: usize,
    stdout: &mut dyn Write,
) -> Result<(), CliError> {
    let selection = selection(tag_tests(&args.tag)?, &args.select)?;
    let inputs = super::import::Inputs::of(&args.files)?;
    let files = &inputs.files;
    let tally = match output_file(args.output.as_deref()) {
        Some(target) => {
            super::convert::check_inputs(files, target)?;
            write_output(target, |out| {
                let tally = select(registry, files, &selection, args, jobs, out)?;
                match inputs.no_games(tally.read) {
                    Some(e) => Err(e),
                    None => Ok(tally),
                }
            })?
        }
        None => {
            let tally = select(registry, files, &selection, args, jobs, stdout)?;
            if let Some(e) = inputs.no_games(tally.read) {
                return Err(e);
            }
            tally
        }
    };
    if let Some(line) = inputs.skipped_line() {
        eprintln!("xpgn: {line}");
    }
    eprintln!(
        "xpgn: read {}, written {}{}",
        tally.read,
        tally.written,
        if args.invert { " (not matching)" } else { "" }
    );
    // The exit code every reading command gives: a game that breaks the
    // rules makes it 1.
    if tally.invalid > 0 {
        eprintln!(
            "xpgn: {} the rules (`xpgn validate` says where)",
            super::import::plural(tally.invalid as usize, "game breaks", "games break")
        );
        return Err(CliError::Quiet(Exit::Rejected));
    }
    Ok(())
}

/// Writes the selected games of `files` to `out`.
fn select(
    registry: &Registry,
    files: &[String],
    selection: &GameSelection,
    args: &FilterCommandArgs,
    jobs: usize,
    out: &mut dyn Write,
) -> Result<Tally, CliError> {
    let mut tally = Tally::default();
    let mut progress = super::progress::Progress::new(files);
    let mut done = 0u64;
    let mut open_end = false;
    let limit = args.limit.unwrap_or(u64::MAX);
    let result = map_games(
        files,
        &open_input,
        jobs,
        |_, game| {
            let (facts, _) = facts(registry, game);
            let keep = selection.matches(&facts) != args.invert;
            (
                keep.then(|| game.raw.to_vec()),
                game.raw.len() as u64,
                facts.valid,
            )
        },
        |event| -> Result<(), CliError> {
            match event {
                Event::Game {
                    value: (kept, size, valid),
                    input,
                } => {
                    tally.read += 1;
                    tally.invalid += u64::from(!valid);
                    done += size;
                    progress.show(|| format!("{}: ", shown(&files[input])), tally.read, done);
                    if let Some(bytes) = kept {
                        if open_end {
                            out.write_all(b"\n")?;
                        }
                        out.write_all(&bytes)?;
                        open_end = !bytes.ends_with(b"\n");
                        tally.written += 1;
                        if tally.written >= limit {
                            // Enough: the rest is not read.
                            return Err(CliError::Quiet(Exit::Ok));
                        }
                    }
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
    );
    progress.clear();
    match result {
        Ok(()) | Err(CliError::Quiet(Exit::Ok)) => {}
        Err(e) => return Err(e),
    }
    if open_end {
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(tally)
}
