use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use super::output::FileId;
use std::time::Instant;

use super::{shown, shown_message};
use crate::cli::args::ReportFormat;
use crate::cli::exit::CliError;
use xpgn::db::import::{GameReport, ImportSummary};
use xpgn::db::{Database, DbError};
use xpgn::notation::parallel::open_input;
use xpgn::rules::Registry;

/// The game files the arguments name, and the files of their folders that
/// were left out as not game files.
#[derive(Debug, Default)]
pub(super) struct Inputs {
    /// The files to read, in order: each named file as given, then every
    /// game file ([`Inputs::is_game_file`]) below each named folder, in
    /// name order.
    pub files: Vec<String>,
    /// Files found in the folders that are not game files, in name order.
    pub skipped: Vec<String>,
    /// Files of no bytes, named or found: each a warning.
    pub empty: Vec<String>,
    /// Identities of the files found in folders so far: a file reached
    /// twice (through a link) is read once.
    seen: HashSet<FileId>,
}

/// Most skipped files a summary names; the rest are counted.
const SKIPPED_NAMED: usize = 10;

impl Inputs {
    /// Expands every argument ([`Inputs::add`]); warns of each empty file
    /// (`xpgn: warning: a.pgn: empty file, no games`).
    pub(super) fn of(args: &[String]) -> Result<Inputs, CliError> {
        Inputs::of_checked(args, true)
    }

    /// [`Inputs::of`], with the named files that cannot be read kept in
    /// the list (unchecked) when `check` is false: `validate` reads the
    /// others, then names them.
    pub(super) fn of_checked(args: &[String], check: bool) -> Result<Inputs, CliError> {
        let mut inputs = Inputs::default();
        for arg in args {
            inputs.add(arg, check)?;
        }
        for path in &inputs.empty {
            eprintln!("xpgn: warning: {}: empty file, no games", shown(path));
        }
        Ok(inputs)
    }

    /// Whether `path` is a game file by its name: `.pgn` or `.xpgn`, or
    /// either compressed (`.pgn.gz`, `.pgn.zst`, `.pgn.bz2`), in any
    /// letter case (`GAME.PGN`, `Games.PGN.ZST`).
    fn is_game_file(path: &Path) -> bool {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            return false;
        };
        let text = match xpgn::notation::compressed::Format::of_name(name) {
            Some(_) => name.rsplit_once('.').map_or(name, |(stem, _)| stem),
            None => name,
        };
        text.rsplit_once('.').is_some_and(|(stem, e)| {
            !stem.is_empty() && (e.eq_ignore_ascii_case("pgn") || e.eq_ignore_ascii_case("xpgn"))
        })
    }

    /// Notes `path` as empty when it is a file of no bytes.
    fn note_if_empty(&mut self, path: &Path, name: &str) {
        if std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0) {
            self.empty.push(name.to_string());
        }
    }

    /// The error of inputs that gave no game at all (exit code 1): `read 0
    /// games from 3 files (3 files not game files: a.json, b.png, c.txt)`;
    /// `None` when some game was read.
    pub(super) fn no_games(&self, read: u64) -> Option<CliError> {
        if read > 0 {
            return None;
        }
        let n = self.files.len() + self.skipped.len();
        let from = match (n, self.files.as_slice()) {
            (1, [only]) if only == "-" => "standard input".to_string(),
            _ => plural(n, "file", "files"),
        };
        let mut why = Vec::new();
        if !self.skipped.is_empty() {
            why.push(format!(
                "{}: {}",
                plural(
                    self.skipped.len(),
                    "file not a game file",
                    "files not game files"
                ),
                named(&self.skipped)
            ));
        }
        if !self.empty.is_empty() {
            why.push(format!(
                "{}: {}",
                plural(self.empty.len(), "file empty", "files empty"),
                named(&self.empty)
            ));
        }
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(" ({})", why.join("; "))
        };
        Some(CliError::Rejected(format!("read 0 games from {from}{why}")))
    }

    /// Adds the files `arg` names: the file itself (`-`, standard input,
    /// as well), or every game file ([`Inputs::is_game_file`]) below a folder. Links
    /// are followed, but not into a folder they are inside of (a loop),
    /// and a file reached by two names is read once.
    fn add(&mut self, arg: &str, check: bool) -> Result<(), CliError> {
        let path = Path::new(arg);
        if arg == "-" || !path.is_dir() {
            if arg != "-" {
                // Checked before anything is written: no partial import
                // for a typo.
                if check {
                    std::fs::metadata(path).map_err(|e| {
                        CliError::Usage(format!("{}: cannot read: {e}", shown(arg)))
                    })?;
                }
                self.note_if_empty(path, arg);
            }
            self.files.push(arg.to_string());
            return Ok(());
        }
        let mut found = Vec::new();
        for entry in walkdir::WalkDir::new(path)
            .follow_links(true)
            .sort_by_file_name()
        {
            let entry = match entry {
                Ok(entry) => entry,
                // A link back to a folder above it: its files are read
                // where the walk finds them first.
                Err(e) if e.loop_ancestor().is_some() => continue,
                Err(e) => {
                    let at = e.path().unwrap_or(path).display().to_string();
                    let why = e
                        .io_error()
                        .map_or_else(|| e.to_string(), |io| io.to_string());
                    return Err(CliError::Usage(format!(
                        "{}: cannot read: {why}",
                        shown(&at)
                    )));
                }
            };
            if entry.file_type().is_dir() {
                continue;
            }
            found.push(entry.into_path());
        }
        found.sort();
        for file in found {
            if FileId::of_path(&file).is_some_and(|id| !self.seen.insert(id)) {
                continue;
            }
            let name = file.display().to_string();
            if Inputs::is_game_file(&file) {
                self.note_if_empty(&file, &name);
                self.files.push(name);
            } else {
                self.skipped.push(name);
            }
        }
        Ok(())
    }

    /// The summary line of the skipped files, `None` when there are none:
    /// `3 files not game files (only .pgn and .xpgn are read, or those compressed): a.json, b.gz, c.txt`.
    pub(super) fn skipped_line(&self) -> Option<String> {
        let n = self.skipped.len();
        if n == 0 {
            return None;
        }
        let files = if n == 1 {
            "file not a game file"
        } else {
            "files not game files"
        };
        Some(format!(
            "{n} {files} (only .pgn and .xpgn are read, or those compressed: .pgn.gz, .pgn.zst, .pgn.bz2): {}",
            named(&self.skipped)
        ))
    }
}

/// `1 game`, `2 games`: a count and its noun.
pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The first paths of `paths`, shown, and how many more.
fn named(paths: &[String]) -> String {
    let shown_paths: Vec<String> = paths
        .iter()
        .take(SKIPPED_NAMED)
        .map(|s| shown(s).into_owned())
        .collect();
    let more = if paths.len() > SKIPPED_NAMED {
        format!(" and {} more", paths.len() - SKIPPED_NAMED)
    } else {
        String::new()
    };
    format!("{}{more}", shown_paths.join(", "))
}

/// Opens the database to write: waits for another import of it (saying
/// so once), refuses a damaged one; with a message that says which file
/// and why.
pub(super) fn open_db(registry: &Registry, path: &str) -> Result<Database, CliError> {
    let name = shown(path).into_owned();
    xpgn::db::on_first_wait(move || {
        eprintln!("xpgn: waiting for another import of {name} to finish...");
    });
    let mut db = Database::open(Path::new(path)).map_err(|e| super::db_error(path, e))?;
    super::use_variants(&mut db, registry, path)?;
    Ok(db)
}

pub(super) fn run(
    registry: &Registry,
    files: &[String],
    db: &str,
    report: Option<&str>,
    jobs: usize,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let inputs = Inputs::of(files)?;
    let paths = &inputs.files;
    // `--report -` is standard output, as `-o -` is.
    let mut report_file: Option<std::io::BufWriter<Box<dyn Write>>> = match report {
        Some("-") => Some(std::io::BufWriter::new(Box::new(std::io::stdout()))),
        Some(path) => Some(std::io::BufWriter::new(Box::new(
            std::fs::File::create(path).map_err(|e| {
                CliError::Usage(format!("--report {}: cannot write: {e}", shown(path)))
            })?,
        ))),
        None => None,
    };
    let mut database = open_db(registry, db)?;
    let first_id = database
        .next_game_id()
        .map_err(|e| super::db_error(db, e))?;
    let mut report_error: Option<std::io::Error> = None;
    let start = Instant::now();
    let mut summary = ImportSummary::default();
    let mut shown_progress = super::progress::Progress::new(paths);
    let mut progress = |input: usize, s: &ImportSummary| {
        shown_progress.show(|| format!("{}: ", shown(&paths[input])), s.read, s.bytes);
    };
    let mut on_game = |input: usize, g: &GameReport<'_>| {
        let (Some(w), false) = (report_file.as_mut(), g.diagnostics.is_empty()) else {
            return;
        };
        let line = serde_json::json!({
            "file": paths[input],
            "game": g.number,
            "line": g.line,
            "id": g.id,
            "status": if g.valid { "valid" } else { "invalid" },
            "stored": g.id.is_some(),
            "diagnostics": g.diagnostics,
        });
        if let Err(e) = writeln!(w, "{line}") {
            report_error.get_or_insert(e);
        }
    };
    let imported = database.import_files(
        paths,
        &open_input,
        jobs,
        &mut summary,
        &mut progress,
        &mut on_game,
    );
    shown_progress.clear();
    // An input that fails part way (a compressed file cut short): the
    // games before the failure are stored, the summary says how many,
    // and the error says where the input stopped.
    let unread = match imported {
        Ok(()) => None,
        Err(DbError::Io { path, source }) => {
            Some(CliError::Usage(super::read_failed(&path, &source)))
        }
        Err(e) => return Err(super::db_error(db, e)),
    };
    if let Some(w) = report_file.as_mut()
        && let Some(e) = report_error.take().or_else(|| w.flush().err())
    {
        return Err(CliError::Usage(format!(
            "--report {}: cannot write: {e}",
            shown(report.unwrap_or(""))
        )));
    }
    let same_moves = database
        .count_move_duplicates(first_id)
        .map_err(|e| super::db_error(db, e))?;
    // Said only when some were: the line of every other import stays.
    let replaced = if summary.replaced > 0 {
        format!(", replaced {}", summary.replaced)
    } else {
        String::new()
    };
    writeln!(
        out,
        "read {}, imported {}, duplicates {}{replaced}, invalid {}, {:.2} seconds; {} with warnings; {} repeat the moves of another stored game (xpgn duplicates lists them)",
        summary.read,
        summary.imported,
        summary.duplicates,
        summary.invalid,
        start.elapsed().as_secs_f64(),
        summary.warned,
        same_moves,
    )?;
    if let Some(line) = inputs.skipped_line() {
        writeln!(out, "{line}")?;
    }
    if let Some(e) = unread {
        return Err(e);
    }
    if let Some(e) = inputs.no_games(summary.read) {
        return Err(e);
    }
    if summary.invalid > 0 {
        // Stored with their diagnostics, and said in the summary line.
        return Err(CliError::Quiet(crate::cli::exit::Exit::Rejected));
    }
    Ok(())
}

/// `xpgn duplicates`: the groups of games with the same moves.
pub(super) fn duplicates(
    registry: &Registry,
    db: &str,
    format: ReportFormat,
    limit: Option<u64>,
    plies: Option<u32>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let database = super::query::open_to_read(registry, db)?;
    let groups = match plies {
        None => database.duplicate_groups(limit),
        Some(n) => database.duplicate_groups_at_ply(n, limit),
    }
    .map_err(|e| super::db_error(db, e))?;
    let cut = |v: &Option<String>| {
        v.as_deref()
            .unwrap_or("")
            .chars()
            .take(24)
            .collect::<String>()
    };
    let mut extra = 0;
    for (i, g) in groups.iter().enumerate() {
        extra += g.games.len() - 1;
        match format {
            ReportFormat::Json => {
                let games: Vec<_> = g
                    .games
                    .iter()
                    .map(|x| {
                        serde_json::json!({
                            "id": x.id, "white": x.white, "black": x.black,
                            "event": x.event, "date": x.date, "status": x.status,
                        })
                    })
                    .collect();
                let line = match plies {
                    None => serde_json::json!({
                        "variant": g.variant, "plies": g.plies, "games": games,
                    }),
                    Some(n) => serde_json::json!({
                        "variant": g.variant, "at_ply": n, "games": games,
                    }),
                };
                writeln!(out, "{line}")?;
            }
            ReportFormat::Table => {
                match plies {
                    None => writeln!(
                        out,
                        "group {}: {}, {} of {}",
                        i + 1,
                        plural(g.games.len(), "game", "games"),
                        plural(usize::try_from(g.plies).unwrap_or(0), "ply", "plies"),
                        g.variant
                    )?,
                    Some(n) => writeln!(
                        out,
                        "group {}: {} of {} reach the same position at ply {n}",
                        i + 1,
                        plural(g.games.len(), "game", "games"),
                        g.variant
                    )?,
                }
                for x in &g.games {
                    writeln!(
                        out,
                        "  {:>8}  {:<24} {:<24} {:<10} {}",
                        x.id,
                        cut(&x.white),
                        cut(&x.black),
                        cut(&x.date),
                        cut(&x.event)
                    )?;
                }
            }
        }
    }
    if format == ReportFormat::Table {
        match plies {
            None => writeln!(
                out,
                "{} the moves of another in {}",
                plural(extra, "game repeats", "games repeat"),
                plural(groups.len(), "group", "groups")
            )?,
            Some(n) => writeln!(
                out,
                "{} the position of another at ply {n} in {}",
                plural(extra, "game reaches", "games reach"),
                plural(groups.len(), "group", "groups")
            )?,
        }
    }
    Ok(())
}

pub(super) fn stats(
    registry: &Registry,
    db: &str,
    format: ReportFormat,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let database = super::query::open_to_read(registry, db)?;
    let s = database
        .stats()
        .map_err(|e| CliError::Usage(format!("--db {db}: {e}")))?;
    if format == ReportFormat::Json {
        let variants: Vec<_> = s
            .per_variant
            .iter()
            .map(|(name, valid, invalid, plies)| {
                serde_json::json!({
                    "variant": name,
                    "valid": valid,
                    "invalid": invalid,
                    "plies": plies,
                })
            })
            .collect();
        let doc = serde_json::json!({
            "variants": variants,
            "positions": s.positions,
            "bytes": s.bytes,
        });
        writeln!(out, "{doc}")?;
        return Ok(());
    }
    writeln!(
        out,
        "{:<22} {:>8} {:>8} {:>10}",
        "variant", "valid", "invalid", "plies"
    )?;
    let (mut v, mut i, mut p) = (0, 0, 0);
    for (name, valid, invalid, plies) in &s.per_variant {
        writeln!(out, "{name:<22} {valid:>8} {invalid:>8} {plies:>10}")?;
        v += valid;
        i += invalid;
        p += plies;
    }
    writeln!(out, "{:<22} {v:>8} {i:>8} {p:>10}", "total")?;
    writeln!(out, "positions indexed: {}", s.positions)?;
    writeln!(out, "database size: {} bytes", s.bytes)?;
    Ok(())
}

/// `xpgn optimize`: merged posting rows, fresh statistics.
pub(super) fn optimize(registry: &Registry, db: &str, out: &mut dyn Write) -> Result<(), CliError> {
    if !Path::new(db).exists() {
        return Err(super::db_error(db, "no such database"));
    }
    let mut database = open_db(registry, db)?;
    let start = Instant::now();
    let s = database.optimize().map_err(|e| super::db_error(db, e))?;
    writeln!(
        out,
        "position index: {} rows merged into {} ({} entries), opening trees stored for {} positions, statistics refreshed, {:.2} seconds",
        s.rows_before,
        s.rows_after,
        s.entries,
        s.trees,
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// `xpgn check`: every page of the database read and checked, nothing
/// written; exit code 2 when damage is found.
pub(super) fn check(db: &str, out: &mut dyn Write) -> Result<(), CliError> {
    let report = Database::check_file(Path::new(db)).map_err(|e| super::db_error(db, e))?;
    if report.problems.is_empty() {
        writeln!(out, "{} pages checked: no damage found", report.pages)?;
        return Ok(());
    }
    for problem in &report.problems {
        writeln!(out, "{}", shown_message(problem))?;
    }
    Err(super::db_error(
        db,
        format!(
            "the database file is damaged ({} problems listed above); restore it from a backup or import its games into a new database",
            report.problems.len()
        ),
    ))
}
