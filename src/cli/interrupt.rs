//! Interruption (Ctrl-C: SIGINT; SIGTERM, SIGHUP): the temporary files
//! being written are removed before the process ends, as it ended before
//! (by the signal), so that no `.out.pgn.xpgn-….tmp` or half-written
//! dataset part is left behind.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// What to remove when the process is interrupted.
#[derive(Debug, PartialEq, Eq)]
enum Leftover {
    /// A temporary file being written (`-o`).
    File(PathBuf),
    /// A folder where a dataset's parts are written, each through a
    /// hidden temporary file (`.games-00000.parquet.tmp`).
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    PartsIn(PathBuf),
}

static LEFTOVERS: Mutex<Vec<Leftover>> = Mutex::new(Vec::new());

fn leftovers() -> MutexGuard<'static, Vec<Leftover>> {
    LEFTOVERS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts the thread that waits for an interruption; without it (no
/// thread, no handler) an interruption ends the process as it always did.
pub(super) fn catch_interruptions() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Held to the end: no temporary file is created after
                // the removal (creating one takes the lock).
                let mut held = leftovers();
                remove_all(&mut held);
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        });
    }
}

/// Removes what `list` names.
fn remove_all(list: &mut Vec<Leftover>) {
    for leftover in list.drain(..) {
        match leftover {
            Leftover::File(path) => {
                let _ = std::fs::remove_file(path);
            }
            Leftover::PartsIn(dir) => {
                for temp in part_temps(&dir) {
                    let _ = std::fs::remove_file(temp);
                }
            }
        }
    }
}

/// The temporary files of dataset parts in `dir`.
fn part_temps(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.') && n.ends_with(".parquet.tmp"))
        })
        .collect()
}

/// Creates a temporary file with `create` and keeps its path to remove on
/// an interruption, until [`finished`] is called with it.
pub(super) fn create_temp<T>(
    create: impl FnOnce() -> std::io::Result<(PathBuf, T)>,
) -> std::io::Result<(PathBuf, T)> {
    let mut held = leftovers();
    let (path, value) = create()?;
    held.push(Leftover::File(path.clone()));
    Ok((path, value))
}

/// The temporary file `path` is renamed or removed: nothing to do for it
/// any more.
pub(super) fn finished(path: &Path) {
    leftovers().retain(|l| *l != Leftover::File(path.to_path_buf()));
}

/// Dataset parts are written in `dir`: their temporary files are removed
/// on an interruption.
#[cfg(feature = "parquet")]
pub(super) fn parts_written_in(dir: &Path) {
    leftovers().push(Leftover::PartsIn(dir.to_path_buf()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_temporary_files_and_only_they_are_removed() {
        let dir = std::env::temp_dir().join(format!("xpgn-interrupt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let part = dir.join(".games-00003.parquet.tmp");
        let done = dir.join("games-00002.parquet");
        let temp = dir.join(".out.pgn.xpgn-1-0.tmp");
        let other = dir.join("notes.txt");
        for p in [&part, &done, &temp, &other] {
            std::fs::write(p, b"x").unwrap();
        }
        let mut list = vec![Leftover::File(temp.clone()), Leftover::PartsIn(dir.clone())];
        remove_all(&mut list);
        assert!(list.is_empty());
        assert!(!part.exists() && !temp.exists());
        assert!(done.exists() && other.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
