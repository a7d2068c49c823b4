use std::io::Write;
use std::path::Path;

use super::convert::{Dest, How, Split, Tally};
use super::output::{FileId, Parts, output_file, write_output};
use super::query::select;
use super::shown;
use crate::cli::args::{ExportArgs, ExportTo};
use crate::cli::exit::CliError;
use xpgn::db::export::ExportForm;
use xpgn::rules::Registry;

/// Writes the selected games to `dest`; returns how many went out as
/// imported although another form was asked for, and the tally.
fn write_games(
    registry: &Registry,
    args: &ExportArgs,
    dest: &mut Dest<'_>,
) -> Result<(usize, Tally), CliError> {
    let (db, games, note) = select(registry, &args.filter)?;
    if let Some(note) = note {
        eprintln!("xpgn: {note}");
    }
    let form = match (args.original, args.to) {
        (true, _) => ExportForm::Original,
        (false, ExportTo::Xpgn) => ExportForm::Xpgn,
        (false, ExportTo::Json) => ExportForm::Json,
        (false, ExportTo::Parquet) => unreachable!("run sends parquet to dataset::export"),
    };
    let how = How::of(&args.clean);
    let mut unchanged = 0;
    let mut open_end = false;
    let mut tally = Tally::default();
    for g in &games {
        let exported = db
            .export_game_with(g.id, form, &how.cleaning, &how.options)
            .map_err(|e| super::db_error(&args.filter.db, e))?;
        if let Some(mut e) = exported {
            tally.read += 1;
            unchanged += usize::from(e.unchanged.is_some());
            tally.fixed += u64::from(e.result_fixed);
            if open_end {
                // The last game of a file without a final line end: the
                // next game starts on a line of its own.
                e.bytes.insert(0, b'\n');
            }
            let key = e.line_key.filter(|_| how.drop_duplicates);
            let before = tally.written;
            tally.write(dest, &how, &e.bytes, key, e.eco.as_deref())?;
            if tally.written > before {
                open_end = e.open_end();
            }
        }
    }
    if let Dest::One(out) = dest {
        out.flush()?;
    }
    Ok((unchanged, tally))
}

/// Refuses the options that change games with `--original`.
fn check_original(args: &ExportArgs) -> Result<(), CliError> {
    let c = &args.clean;
    let changes = c.add_eco
        || c.replace_eco
        || c.strip_comments
        || c.strip_nags
        || c.strip_variations
        || c.tags != crate::cli::args::TagsKept::All
        || c.line_width != 80
        || c.plycount
        || c.fix_results;
    if args.original && changes {
        return Err(CliError::Usage(
            "--original writes every game exactly as imported: it takes no option that changes games (--add-eco, --strip-comments, --tags, --fix-results...)".into(),
        ));
    }
    Ok(())
}

pub(super) fn run(
    registry: &Registry,
    args: &ExportArgs,
    stdout: &mut dyn Write,
) -> Result<(), CliError> {
    if args.to == ExportTo::Parquet && !args.original {
        #[cfg(feature = "parquet")]
        return super::dataset::export(registry, args, stdout);
        #[cfg(not(feature = "parquet"))]
        return Err(CliError::Usage(super::WITHOUT_PARQUET.into()));
    }
    if args.out.is_some() {
        return Err(CliError::Usage(
            "--out DIR is for --to parquet; write other forms with -o FILE".into(),
        ));
    }
    check_original(args)?;
    let how = How::of(&args.clean);
    let (unchanged, tally) = match (output_file(args.output.as_deref()), how.split) {
        (None, Split::None) => write_games(registry, args, &mut Dest::One(stdout))?,
        (None, _) => {
            return Err(CliError::Usage(
                "--split-every and --split-by-eco write files beside -o OUT: name OUT".into(),
            ));
        }
        (Some(path), split) => {
            let db = FileId::of_path(Path::new(&args.filter.db));
            if db.is_some() && db == FileId::of_path(Path::new(path)) {
                return Err(CliError::Usage(format!(
                    "-o {}: is the database being exported; write to another file",
                    shown(path)
                )));
            }
            if split == Split::None {
                write_output(path, |out| write_games(registry, args, &mut Dest::One(out)))?
            } else {
                let mut parts = Parts::new(path);
                let done = write_games(registry, args, &mut Dest::Parts(&mut parts))?;
                for path in parts.finish()? {
                    eprintln!("xpgn: wrote {}", shown(&path));
                }
                done
            }
        }
    };
    super::convert::report(&tally);
    if unchanged > 0 {
        eprintln!(
            "xpgn: {unchanged} invalid games written whole in their safe form (original text as `%` lines)"
        );
    }
    Ok(())
}
