//! `xpgn dataset` and `xpgn export --to parquet`: Parquet datasets.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::import::Inputs;
use super::query::select;
use super::{shown, shown_message};
use crate::cli::args::{DatasetArgs, ExportArgs};
use crate::cli::exit::CliError;
use xpgn::dataset::files::{FilesSummary, write_files};
use xpgn::dataset::{DatasetError, DatasetWriter, WrittenSummary};
use xpgn::rules::Registry;

/// A dataset error as the command reports it: a bad input or output
/// (exit code 2), its message escaped.
fn usage(e: &DatasetError) -> CliError {
    CliError::Usage(shown_message(&e.to_string()).into_owned())
}

fn written_line(w: &WrittenSummary) -> String {
    format!(
        "{} games, {} positions in {} parts; {} bytes of games, {} of positions",
        w.games, w.positions, w.parts, w.games_bytes, w.positions_bytes
    )
}

pub(super) fn run(
    registry: &Registry,
    args: &DatasetArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let inputs = Inputs::of(&args.files)?;
    let paths = &inputs.files;
    let jobs = super::jobs_or_all(args.jobs);
    let writer = DatasetWriter::create(Path::new(&args.out), args.part_size)
        .map_err(|e| CliError::Usage(format!("--out {}", shown_message(&e.to_string()))))?;
    crate::cli::interrupt::parts_written_in(Path::new(&args.out));
    let start = Instant::now();
    let mut shown_progress = super::progress::Progress::new(paths);
    let mut progress = |s: &FilesSummary| shown_progress.show(String::new, s.read, s.bytes);
    let summary =
        write_files(registry, paths, writer, jobs, &mut progress).map_err(|e| usage(&e))?;
    shown_progress.clear();
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        out,
        "read {}, written {}, duplicates {}, invalid {}, {:.2} seconds ({:.0} games/s, {} jobs); {} with warnings; {} in {}",
        summary.read,
        summary.written.games,
        summary.duplicates,
        summary.invalid,
        secs,
        summary.read as f64 / secs.max(1e-9),
        jobs,
        summary.warned,
        written_line(&summary.written),
        shown(&args.out),
    )?;
    if let Some(line) = inputs.skipped_line() {
        writeln!(out, "{line}")?;
    }
    if let Some(e) = inputs.no_games(summary.read) {
        return Err(e);
    }
    if summary.invalid > 0 {
        return Err(CliError::Quiet(crate::cli::exit::Exit::Rejected));
    }
    Ok(())
}

/// `xpgn export --to parquet --out DIR`: the selected games of the
/// database, as `xpgn dataset` writes them from their files.
pub(super) fn export(
    registry: &Registry,
    args: &ExportArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let Some(dir) = args.out.as_deref() else {
        return Err(CliError::Usage(
            "--to parquet writes a folder: give it with --out DIR".into(),
        ));
    };
    let (db, games, note) = select(registry, &args.filter)?;
    if let Some(note) = note {
        eprintln!("xpgn: {note}");
    }
    let mut writer = DatasetWriter::create(Path::new(dir), args.part_size)
        .map_err(|e| CliError::Usage(format!("--out {}", shown_message(&e.to_string()))))?;
    crate::cli::interrupt::parts_written_in(Path::new(dir));
    let db_error = |e: xpgn::db::DbError| super::db_error(&args.filter.db, e);
    for g in &games {
        if let Some(record) = db.stored_record(g.id).map_err(db_error)? {
            writer.push(record).map_err(|e| usage(&e))?;
        }
    }
    let written = writer.finish().map_err(|e| usage(&e))?;
    writeln!(out, "{} in {}", written_line(&written), shown(dir))?;
    Ok(())
}
