//! Output files that are either written whole or not touched at all.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::shown;
use crate::cli::exit::CliError;
use xpgn::notation::compressed::{Encoder, Format};

/// The file `-o` names: `None` for standard output, which `-o -` means as
/// well as no `-o` at all (a file named `-` is written as `./-`).
pub(super) fn output_file(output: Option<&str>) -> Option<&str> {
    output.filter(|&o| o != "-")
}

/// Writes what `write` produces to `target` all or nothing: into a new
/// temporary file beside it, flushed and synced to disk, then renamed over
/// `target`. On any failure (of `write`, of a write, of the sync or of the
/// rename) the temporary file is removed and `target` is left as it was.
/// A `target` that is a symbolic link is replaced where the link points; a
/// read-only `target` is refused. A `target` that is not a regular file (a
/// device such as `/dev/null`, a named pipe) is written in place: renaming
/// over it would replace the device with a file.
///
/// Write errors name `target`: `out.pgn: cannot write: File too large`.
pub(super) fn write_atomically<T>(
    target: &str,
    write: impl FnOnce(&mut dyn Write) -> Result<T, CliError>,
) -> Result<T, CliError> {
    let cannot = |e: std::io::Error| cannot_write(target, &e);
    let path = resolve_link(Path::new(target));
    let existing = std::fs::metadata(&path).ok();
    if existing
        .as_ref()
        .is_some_and(|m| m.permissions().readonly())
    {
        // Renaming would replace it all the same: refuse as opening would.
        return Err(cannot(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "the file is read-only",
        )));
    }
    if existing
        .as_ref()
        .is_some_and(|m| !m.is_file() && !m.is_dir())
    {
        return write_in_place(target, &path, write);
    }
    let (temp, file) = crate::cli::interrupt::create_temp(|| create_temp(&path)).map_err(cannot)?;
    if let Some(meta) = existing {
        // Keep the permissions of the file being replaced.
        let _ = file.set_permissions(meta.permissions());
    }
    let mut w = BufWriter::with_capacity(
        1 << 16,
        Named {
            inner: file,
            target,
        },
    );
    let done = write(&mut w).and_then(|value| {
        let named = w.into_inner().map_err(|e| CliError::Io(e.into_error()))?;
        named.inner.sync_all().map_err(cannot)?;
        drop(named);
        std::fs::rename(&temp, &path).map_err(cannot)?;
        sync_dir(&path);
        Ok(value)
    });
    if done.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    crate::cli::interrupt::finished(&temp);
    done
}

/// [`write_atomically`], compressed when the name of `target` ends in
/// `.gz`, `.zst` or `.bz2` (any letter case): `-o games.pgn.zst`.
pub(super) fn write_output<T>(
    target: &str,
    write: impl FnOnce(&mut dyn Write) -> Result<T, CliError>,
) -> Result<T, CliError> {
    let Some(format) = Format::of_name(target) else {
        return write_atomically(target, write);
    };
    write_atomically(target, |out| {
        let mut packed = Encoder::new(format, out)?;
        let value = write(&mut packed)?;
        packed.finish()?;
        Ok(value)
    })
}

/// Writes to an existing `path` that is not a regular file (a device, a
/// named pipe), opened for writing as it is: there is nothing to keep whole.
fn write_in_place<T>(
    target: &str,
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<T, CliError>,
) -> Result<T, CliError> {
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| cannot_write(target, &e))?;
    let mut w = BufWriter::with_capacity(
        1 << 16,
        Named {
            inner: file,
            target,
        },
    );
    let value = write(&mut w)?;
    w.flush()?;
    Ok(value)
}

fn cannot_write(target: &str, e: &std::io::Error) -> CliError {
    CliError::Io(std::io::Error::new(
        e.kind(),
        format!("{}: cannot write: {e}", shown(target)),
    ))
}

/// A file whose write errors say which output failed.
struct Named<'a> {
    inner: File,
    target: &'a str,
}

impl Write for Named<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf).map_err(|e| self.named(&e))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().map_err(|e| self.named(&e))
    }
}

impl Named<'_> {
    fn named(&self, e: &std::io::Error) -> std::io::Error {
        match cannot_write(self.target, e) {
            CliError::Io(e) => e,
            _ => unreachable!("cannot_write makes an I/O error"),
        }
    }
}

/// Where a symbolic link at `path` points (so the rename replaces the
/// file, not the link); `path` itself otherwise.
fn resolve_link(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// A new file beside `path`, hidden, named after it and this process.
fn create_temp(path: &Path) -> std::io::Result<(PathBuf, File)> {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let mut n = 0u32;
    loop {
        let temp = path.with_file_name(format!(".{name}.xpgn-{}-{n}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(f) => return Ok((temp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Makes the rename itself durable, where the system allows it.
fn sync_dir(path: &Path) {
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Identifies a file independently of the name it is reached by, so that
/// `./f.pgn`, `f.pgn`, a symbolic link and a hard link to it compare equal.
#[derive(Debug, PartialEq, Eq, Hash)]
pub(super) struct FileId(Inner);

#[cfg(unix)]
type Inner = (u64, u64);
#[cfg(not(unix))]
type Inner = PathBuf;

impl FileId {
    /// The identity of the file at `path`, if it exists.
    pub(super) fn of_path(path: &Path) -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            std::fs::metadata(path)
                .ok()
                .map(|m| FileId((m.dev(), m.ino())))
        }
        #[cfg(not(unix))]
        {
            std::fs::canonicalize(path).ok().map(FileId)
        }
    }

    /// The identity of an open file.
    pub(super) fn of_file(file: &File, path: &Path) -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let _ = path;
            file.metadata().ok().map(|m| FileId((m.dev(), m.ino())))
        }
        #[cfg(not(unix))]
        {
            let _ = file;
            FileId::of_path(path)
        }
    }

    /// The identity of the file standard input reads, when it is one.
    pub(super) fn of_stdin() -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
            let file = File::from(fd);
            let meta = file.metadata().ok()?;
            meta.is_file()
                .then(|| FileId::of_file(&file, Path::new("-")))?
        }
        #[cfg(not(unix))]
        {
            None
        }
    }
}

/// Output split into parts beside `-o OUT`: part `LABEL` is
/// `OUT-LABEL.EXT` (`games.pgn` gives `games-1.pgn`, `games-B.pgn`); an
/// `OUT` ending in `.gz`, `.zst` or `.bz2` gives parts compressed alike,
/// the suffix kept last (`games.pgn.gz` gives `games-1.pgn.gz`). Each
/// part is written into a temporary file beside it, renamed when every
/// part is complete ([`Parts::finish`]); dropped unfinished, the
/// temporary files are removed and no part is written.
pub(super) struct Parts {
    /// `OUT` without its compression suffix.
    base: PathBuf,
    /// The compression of `OUT`, and its suffix as written.
    compression: Option<(Format, String)>,
    open: Vec<(String, PathBuf, PartWriter)>,
}

/// A part being written.
enum PartWriter {
    Plain(BufWriter<File>),
    Compressed(Encoder<BufWriter<File>>),
}

impl PartWriter {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            PartWriter::Plain(w) => w,
            PartWriter::Compressed(w) => w,
        }
    }

    /// Ends the compressed stream, if any, and flushes the file.
    fn into_file(self) -> std::io::Result<File> {
        let buffered = match self {
            PartWriter::Plain(w) => w,
            PartWriter::Compressed(w) => w.finish()?,
        };
        buffered.into_inner().map_err(|e| e.into_error())
    }
}

impl Parts {
    pub(super) fn new(target: &str) -> Parts {
        let compression = Format::of_name(target).and_then(|format| {
            let (rest, suffix) = target.rsplit_once('.')?;
            Some((rest, (format, suffix.to_string())))
        });
        match compression {
            Some((rest, compression)) => Parts {
                base: PathBuf::from(rest),
                compression: Some(compression),
                open: Vec::new(),
            },
            None => Parts {
                base: PathBuf::from(target),
                compression: None,
                open: Vec::new(),
            },
        }
    }

    /// The path of part `label`.
    pub(super) fn path_of(&self, label: &str) -> PathBuf {
        let stem = self
            .base
            .file_stem()
            .map_or_else(|| "games".into(), |s| s.to_string_lossy().into_owned());
        let mut name = match self.base.extension() {
            Some(ext) => format!("{stem}-{label}.{}", ext.to_string_lossy()),
            None => format!("{stem}-{label}"),
        };
        if let Some((_, suffix)) = &self.compression {
            name = format!("{name}.{suffix}");
        }
        self.base.with_file_name(name)
    }

    /// The writer of part `label`, created on first use.
    pub(super) fn part(&mut self, label: &str) -> Result<&mut dyn Write, CliError> {
        let i = match self.open.iter().position(|(l, _, _)| l == label) {
            Some(i) => i,
            None => {
                let path = self.path_of(label);
                let temp = path.with_file_name(format!(
                    ".{}.xpgn-part-{}",
                    path.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
                    std::process::id()
                ));
                let cannot = |e: std::io::Error| cannot_write(&path.display().to_string(), &e);
                let file = BufWriter::new(File::create(&temp).map_err(cannot)?);
                let writer = match &self.compression {
                    Some((format, _)) => match Encoder::new(*format, file) {
                        Ok(encoder) => PartWriter::Compressed(encoder),
                        Err(e) => {
                            let _ = std::fs::remove_file(&temp);
                            return Err(cannot(e));
                        }
                    },
                    None => PartWriter::Plain(file),
                };
                self.open.push((label.to_string(), temp, writer));
                self.open.len() - 1
            }
        };
        Ok(self.open[i].2.writer())
    }

    /// Ends and flushes every part and renames it into place; returns the
    /// paths.
    pub(super) fn finish(mut self) -> Result<Vec<String>, CliError> {
        let mut written = Vec::new();
        for (label, temp, writer) in std::mem::take(&mut self.open) {
            let path = self.path_of(&label);
            writer
                .into_file()
                .and_then(|file| file.sync_all())
                .and_then(|()| std::fs::rename(&temp, &path))
                .map_err(|e| {
                    let _ = std::fs::remove_file(&temp);
                    cannot_write(&path.display().to_string(), &e)
                })?;
            written.push(path.display().to_string());
        }
        Ok(written)
    }
}

impl Drop for Parts {
    fn drop(&mut self) {
        for (_, temp, _) in &self.open {
            let _ = std::fs::remove_file(temp);
        }
    }
}
