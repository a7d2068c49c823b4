use std::io::Write;
use std::path::Path;

use super::output::{FileId, output_file, write_output};
use super::query::select;
use super::shown;
use crate::cli::args::{ExportArgs, ExportTo};
use crate::cli::exit::CliError;
use xpgn::db::export::ExportForm;
use xpgn::rules::Registry;

/// Writes the selected games to `out`; returns how many went out as
/// imported although another form was asked for.
fn write_games(
    registry: &Registry,
    args: &ExportArgs,
    out: &mut dyn Write,
) -> Result<usize, CliError> {
    let (db, games, note) = select(registry, &args.filter)?;
    if let Some(note) = note {
        eprintln!("xpgn: {note}");
    }
    let form = match (args.original, args.to) {
        (true, _) => ExportForm::Original,
        (false, ExportTo::Xpgn) => ExportForm::Xpgn,
        (false, ExportTo::Json) => ExportForm::Json,
        #[cfg(feature = "parquet")]
        (false, ExportTo::Parquet) => unreachable!("run sends parquet to dataset::export"),
    };
    let mut unchanged = 0;
    let mut open_end = false;
    for g in &games {
        let exported = db
            .export_game(g.id, form)
            .map_err(|e| super::db_error(&args.filter.db, e))?;
        if let Some(e) = exported {
            unchanged += usize::from(e.unchanged.is_some());
            if open_end {
                // The last game of a file without a final line end: the
                // next game starts on a line of its own.
                out.write_all(b"\n")?;
            }
            out.write_all(&e.bytes)?;
            open_end = e.open_end();
        }
    }
    out.flush()?;
    Ok(unchanged)
}

pub(super) fn run(
    registry: &Registry,
    args: &ExportArgs,
    stdout: &mut dyn Write,
) -> Result<(), CliError> {
    #[cfg(feature = "parquet")]
    {
        if args.to == ExportTo::Parquet && !args.original {
            return super::dataset::export(registry, args, stdout);
        }
        if args.out.is_some() {
            return Err(CliError::Usage(
                "--out DIR is for --to parquet; write other forms with -o FILE".into(),
            ));
        }
    }
    let unchanged = match output_file(args.output.as_deref()) {
        None => write_games(registry, args, stdout)?,
        Some(path) => {
            let db = FileId::of_path(Path::new(&args.filter.db));
            if db.is_some() && db == FileId::of_path(Path::new(path)) {
                return Err(CliError::Usage(format!(
                    "-o {}: is the database being exported; write to another file",
                    shown(path)
                )));
            }
            write_output(path, |out| write_games(registry, args, out))?
        }
    };
    if unchanged > 0 {
        eprintln!(
            "xpgn: {unchanged} invalid games written whole in their safe form (original text as `%` lines)"
        );
    }
    Ok(())
}
