use std::io::Write;
use std::path::{Path, PathBuf};

use super::query::select;
use crate::cli::args::{ExportArgs, ExportTo};
use crate::cli::exit::CliError;
use crate::db::export::ExportForm;

/// Writes the selected games to `out`; returns how many went out as
/// imported although another form was asked for.
fn write_games(args: &ExportArgs, out: &mut dyn Write) -> Result<usize, CliError> {
    let (db, games, note) = select(&args.filter)?;
    if let Some(note) = note {
        eprintln!("xpgn: {note}");
    }
    let form = match (args.original, args.to) {
        (true, _) => ExportForm::Original,
        (false, ExportTo::Xpgn) => ExportForm::Xpgn,
        (false, ExportTo::Json) => ExportForm::Json,
    };
    let mut unchanged = 0;
    for g in &games {
        let exported = db
            .export_game(g.id, form)
            .map_err(|e| CliError::Usage(format!("--db {}: {e}", args.filter.db)))?;
        if let Some(e) = exported {
            unchanged += usize::from(e.unchanged.is_some());
            out.write_all(&e.bytes)?;
        }
    }
    out.flush()?;
    Ok(unchanged)
}

/// A file beside `path` to write first, renamed over it when complete, so
/// a failed export leaves no partial output.
fn staging(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "export".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.xpgn-{}.tmp", std::process::id()))
}

pub(super) fn run(args: &ExportArgs, stdout: &mut dyn Write) -> Result<(), CliError> {
    let unchanged = match &args.output {
        None => write_games(args, stdout)?,
        Some(path) => {
            let target = Path::new(path);
            let temp = staging(target);
            let file = std::fs::File::create(&temp)
                .map_err(|e| CliError::Usage(format!("{path}: cannot write: {e}")))?;
            let mut w = std::io::BufWriter::new(file);
            let written = write_games(args, &mut w).and_then(|n| {
                drop(w);
                std::fs::rename(&temp, target)
                    .map_err(|e| CliError::Usage(format!("{path}: cannot write: {e}")))?;
                Ok(n)
            });
            if written.is_err() {
                let _ = std::fs::remove_file(&temp);
            }
            written?
        }
    };
    if unchanged > 0 {
        eprintln!("xpgn: {unchanged} invalid games written as imported");
    }
    Ok(())
}
