//! The game database: SQLite schema (migrated by `PRAGMA user_version`),
//! import of game files with every game replayed and every main-line
//! position indexed, searches (SQL filters, then pattern scans over the
//! packed main lines), the opening tree, export and summaries. rusqlite
//! lives here and nowhere else.

mod check;
pub mod duplicates;
mod error;
pub mod export;
pub mod import;
mod migrate;
pub mod optimize;
pub mod original;
/// The packed main line (kept under `db` for its users; it lives in
/// [`crate::record`], below both stores).
pub use crate::record::packed;
pub mod pattern;
pub mod postings;
pub mod query;
mod reimport;
mod tags;
pub mod tree;
pub mod variants;
pub mod view;

pub use check::CheckReport;
pub use error::DbError;
pub use migrate::SCHEMA_VERSION;

use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::rules::Registry;
use std::time::Duration;

use rusqlite::functions::FunctionFlags;
use rusqlite::{Connection, ErrorCode, MAIN_DB, OpenFlags};

/// An open database, migrated to the current schema.
pub struct Database {
    pub(crate) conn: Connection,
    /// The variants its games are replayed with: the built-ins, the
    /// definitions it stores, and those given to [`Database::use_variants`].
    pub(crate) registry: Arc<Registry>,
    /// The content hashes of the stored games, loaded by the first import
    /// of this connection and kept for the next ([`import::Importer`]).
    pub(crate) stored_hashes: Option<import::StoredHashes>,
}

/// Counts for `xpgn stats`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stats {
    /// Per variant: (variant, valid games, invalid games, plies).
    pub per_variant: Vec<(String, u64, u64, u64)>,
    /// Rows in the position index.
    pub positions: u64,
    /// Database size in bytes.
    pub bytes: u64,
}

/// Told once, the first time a writer of this process has to wait for
/// another (see [`on_first_wait`]).
type WaitNotice = Box<dyn FnOnce() + Send>;

static WAIT_NOTICE: Mutex<Option<WaitNotice>> = Mutex::new(None);

/// Sets what to do (print a line) the first time a database opened for
/// writing by this process has to wait for another writer: `import` waits
/// for another import of the same database instead of failing. Once per
/// process: a writer that waits again later says nothing more.
pub fn on_first_wait(notice: impl FnOnce() + Send + 'static) {
    if let Ok(mut n) = WAIT_NOTICE.lock() {
        *n = Some(Box::new(notice));
    }
}

/// Milliseconds a waiting writer waits before it tells ([`on_first_wait`]):
/// locks held for an instant are not worth a line.
const NOTICE_AFTER_MS: u64 = 300;

/// The busy handler of writing connections: wait as long as the other
/// writer writes, polling every 10 ms for the first 300 ms, then every
/// 100 ms; say so once.
fn wait_for_writer(count: i32) -> bool {
    let count = u64::try_from(count).unwrap_or(0);
    let quick = NOTICE_AFTER_MS / 10;
    if count == quick {
        let notice = WAIT_NOTICE.lock().ok().and_then(|mut n| n.take());
        if let Some(notice) = notice {
            notice();
        }
    }
    let ms = if count < quick { 10 } else { 100 };
    std::thread::sleep(Duration::from_millis(ms));
    true
}

impl Database {
    /// Opens (creating if needed) the database at `path` for writing,
    /// checks it (`check::before_import`) and migrates it if its schema
    /// is behind. Another writer (an import) is waited for, however long
    /// it writes ([`on_first_wait`] says so once).
    ///
    /// Only a new or empty file, or a database of xpgn's (`identify`), is
    /// written: another application's SQLite file is refused before
    /// anything in it changes.
    ///
    /// A file without write permission is refused even where the process
    /// could write it anyway (as root): its owner said it is not to change.
    ///
    /// # Errors
    /// Not an SQLite file, another application's database, damaged pages,
    /// unreadable, read-only, or a schema newer than this build.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        if write_protected(path) {
            return Err(DbError::ReadOnly);
        }
        let mut conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        // SQLite falls back to reading when it cannot write, silently.
        if conn.is_readonly(MAIN_DB)? {
            return Err(DbError::ReadOnly);
        }
        conn.busy_handler(Some(wait_for_writer))?;
        if let Kind::Xpgn { .. } = identify(&conn)? {
            check::before_import(&conn)?;
        }
        set_up_writer(&conn)?;
        migrate::migrate(&mut conn)?;
        Database::with_stored_variants(conn)
    }

    /// The database over `conn`, whose schema is current, with the
    /// variants it stores registered (games of a user's variant replay
    /// without its definition file).
    fn with_stored_variants(conn: Connection) -> Result<Database, DbError> {
        let mut db = Database {
            conn,
            registry: Arc::new(Registry::builtin()),
            stored_hashes: None,
        };
        db.use_variants(Registry::builtin())?;
        Ok(db)
    }

    /// Replays this database's games with the variants of `registry`
    /// (definitions loaded from files) besides those it stores. Returns
    /// the names of the stored variants added to them.
    ///
    /// # Errors
    /// [`DbError::VariantChanged`] when `registry` has another definition
    /// under a stored variant's name, [`DbError::StoredVariant`] for a
    /// stored definition that does not load.
    pub fn use_variants(&mut self, mut registry: Registry) -> Result<Vec<String>, DbError> {
        let added = self.register_variants(&mut registry)?;
        self.registry = Arc::new(registry);
        Ok(added)
    }

    /// The variants this database's games are replayed with.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// [`Database::registry`], shared: for [`Database::reopen_existing_with`].
    pub fn shared_registry(&self) -> Arc<Registry> {
        Arc::clone(&self.registry)
    }

    /// Opens an existing database for reading only: a WAL reader, which
    /// never waits for a writer, so reading commands answer while an import
    /// runs and see what it has committed so far. Nothing is written to
    /// the file, whatever it holds: an older schema is refused with a
    /// message that says to run `xpgn optimize`, which upgrades it.
    ///
    /// # Errors
    /// No such file, not an SQLite file, another application's database, an
    /// empty file, damaged, a schema older than this build or newer.
    pub fn open_existing(path: &Path) -> Result<Database, DbError> {
        let db = Database::reopen_existing(path)?;
        check::tables_readable(&db.conn)?;
        Ok(db)
    }

    /// Opens again, to read, a database that [`Database::open_existing`]
    /// has opened and checked in this process: identified and its schema
    /// checked as there, without its check for damage, which on a file of
    /// up to 16 MB reads every page. A server that opens the database for
    /// every request checks it once, at start; damage met later is still
    /// reported as damage by the reads that meet it.
    ///
    /// # Errors
    /// As [`Database::open_existing`], but for damage.
    pub fn reopen_existing(path: &Path) -> Result<Database, DbError> {
        Database::with_stored_variants(Database::reopen_connection(path)?)
    }

    /// [`Database::reopen_existing`], replaying games with `registry`: the
    /// registry of a [`Database`] that has opened this file before (see
    /// [`Database::shared_registry`]), so its stored definitions are not
    /// read and compiled again.
    ///
    /// # Errors
    /// As [`Database::reopen_existing`].
    pub fn reopen_existing_with(path: &Path, registry: Arc<Registry>) -> Result<Database, DbError> {
        Ok(Database {
            conn: Database::reopen_connection(path)?,
            registry,
            stored_hashes: None,
        })
    }

    /// The identified, current-schema reading connection of
    /// [`Database::reopen_existing`].
    fn reopen_connection(path: &Path) -> Result<Connection, DbError> {
        if !path.exists() {
            return Err(DbError::NotFound);
        }
        let conn = open_reader(path)?;
        match identify(&conn)? {
            Kind::Empty => Err(DbError::Empty),
            Kind::Xpgn { version } if version < SCHEMA_VERSION => Err(DbError::Behind {
                found: version,
                known: SCHEMA_VERSION,
            }),
            Kind::Xpgn { .. } => Ok(conn),
        }
    }

    /// Checks every page of the database at `path` (`PRAGMA quick_check`),
    /// reading only: `xpgn check`.
    ///
    /// # Errors
    /// No such file, not an SQLite file, another application's database, a
    /// schema newer than this build, or damage that stops the check itself
    /// (in the schema or the header).
    pub fn check_file(path: &Path) -> Result<CheckReport, DbError> {
        if !path.exists() {
            return Err(DbError::NotFound);
        }
        let conn = open_reader(path)?;
        match identify(&conn)? {
            Kind::Empty => Err(DbError::Empty),
            Kind::Xpgn { .. } => check::whole(&conn),
        }
    }

    /// An in-memory database, for tests.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn in_memory() -> Result<Database, DbError> {
        Database::from_connection(Connection::open_in_memory()?)
    }

    fn from_connection(mut conn: Connection) -> Result<Database, DbError> {
        set_up_writer(&conn)?;
        migrate::migrate(&mut conn)?;
        Database::with_stored_variants(conn)
    }

    /// The schema version of the open database.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn schema_version(&self) -> Result<i64, DbError> {
        Ok(user_version(&self.conn)?)
    }

    /// Games per variant, valid and invalid, plies, positions indexed, size.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn stats(&self) -> Result<Stats, DbError> {
        let mut stmt = self.conn.prepare(
            "SELECT variant,
                    SUM(status = 'valid'), SUM(status = 'invalid'), SUM(plies)
             FROM games GROUP BY variant ORDER BY variant",
        )?;
        let per_variant = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)? as u64,
                    r.get::<_, i64>(2)? as u64,
                    r.get::<_, i64>(3)? as u64,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let positions = postings::count(&self.conn)?;
        let pages: i64 = self.conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
        let page_size: i64 = self.conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        Ok(Stats {
            per_variant,
            positions,
            bytes: (pages * page_size) as u64,
        })
    }
}

/// Opens `path` read-only (as immutable where the folder is
/// write-protected and the WAL index cannot be made), with the SQL
/// functions registered.
fn open_reader(path: &Path) -> Result<Connection, DbError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags)?;
    let conn = match user_version(&conn) {
        Ok(_) => conn,
        Err(e)
            if matches!(
                e.sqlite_error_code(),
                Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)
            ) =>
        {
            return Err(e.into());
        }
        // A WAL database needs its `-shm` file, which a reader cannot
        // create in a write-protected folder; with no writer possible
        // there, the file can be read as immutable, unless its log holds
        // commits: an immutable reader ignores the log, and would answer
        // from what the file held before them.
        Err(_) => {
            if wal_holds_commits(path) {
                return Err(DbError::UnreadableLog);
            }
            let conn = Connection::open_with_flags(
                immutable_uri(path),
                flags | OpenFlags::SQLITE_OPEN_URI,
            )?;
            user_version(&conn)?;
            conn
        }
    };
    register_functions(&conn)?;
    Ok(conn)
}

/// Bytes of a write-ahead log's header: a longer log holds frames.
const WAL_HEADER_BYTES: u64 = 32;

/// Whether the write-ahead log beside `path` holds frames (committed
/// changes not yet copied into the database file).
fn wal_holds_commits(path: &Path) -> bool {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(wal).is_ok_and(|m| m.len() > WAL_HEADER_BYTES)
}

/// The application id xpgn writes into the header of its databases
/// (`PRAGMA application_id`): "XPGN" in ASCII.
pub const APPLICATION_ID: i64 = 0x5850_474E;

/// What a file opened as a database holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Nothing: a new or 0-byte file, or an SQLite file without tables.
    Empty,
    /// A database of xpgn's, of schema `version` (at most this build's).
    Xpgn { version: i64 },
}

/// Tells an xpgn database from an empty file and from any other SQLite
/// file, reading only the header and the schema: xpgn's application id,
/// or (databases made before it was set) a schema version xpgn wrote and
/// its `games` and `moves` tables.
///
/// # Errors
/// Another application's file ([`DbError::Foreign`]), a schema newer than
/// this build, SQLite errors.
fn identify(conn: &Connection) -> Result<Kind, DbError> {
    let id: i64 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
    let version = user_version(conn)?;
    let tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_schema
             WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let foreign = |why: String| Err(DbError::Foreign { why });
    if id == 0 && version == 0 && tables.is_empty() {
        return Ok(Kind::Empty);
    }
    if id != 0 && id != APPLICATION_ID {
        return foreign(format!(
            "its application id is {id:#010x}, another application's"
        ));
    }
    if id == 0 && !has_xpgn_games(conn, &tables)? {
        return foreign(if tables.is_empty() {
            format!("it has schema version {version} and no tables")
        } else {
            format!(
                "it holds tables of another application ({})",
                tables.join(", ")
            )
        });
    }
    if version > SCHEMA_VERSION {
        return Err(DbError::TooNew {
            found: version,
            known: SCHEMA_VERSION,
        });
    }
    if version < 1 {
        return foreign(format!(
            "it has schema version {version}, which xpgn never writes"
        ));
    }
    Ok(Kind::Xpgn { version })
}

/// Whether `tables` include xpgn's `games` and `moves`, `games` with the
/// columns every schema version of xpgn gave it.
fn has_xpgn_games(conn: &Connection, tables: &[String]) -> Result<bool, DbError> {
    if !["games", "moves"]
        .iter()
        .all(|t| tables.iter().any(|n| n == t))
    {
        return Ok(false);
    }
    let columns: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info('games')")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(["id", "variant", "plies", "status", "source_line"]
        .iter()
        .all(|c| columns.iter().any(|n| n == c)))
}

/// Journal and cache settings of a writing connection, and the SQL
/// functions.
fn set_up_writer(conn: &Connection) -> Result<(), DbError> {
    register_functions(conn)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // WAL keeps committed batches intact when an import is killed, and
    // lets readers read while it writes.
    let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // A 64 MB page cache instead of SQLite's 2 MB made building a
    // 100,000-game database 23% faster when import inserted at random
    // places of a content-hash index (schema 5 and before); it still
    // keeps the last page of each bucket's postings at hand.
    conn.pragma_update(None, "cache_size", -65536)?;
    Ok(())
}

/// Registers the SQL functions the queries use (see [`query`]):
/// `xpgn_lower(text)`, Unicode lower case (SQLite's `lower` folds ASCII
/// only); `xpgn_date_lo(text)` and `xpgn_date_hi(text)`, the first and last
/// day (as `YYYYMMDD`) a `Date` tag value can mean, NULL when its year is
/// unknown.
fn register_functions(conn: &Connection) -> Result<(), DbError> {
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    fn text<'a>(ctx: &'a rusqlite::functions::Context<'_>) -> rusqlite::Result<Option<&'a str>> {
        ctx.get_raw(0)
            .as_str_or_null()
            .map_err(|e| rusqlite::Error::UserFunctionError(e.into()))
    }
    conn.create_scalar_function("xpgn_lower", 1, flags, |ctx| {
        Ok(text(ctx)?.map(str::to_lowercase))
    })?;
    conn.create_scalar_function("xpgn_date_lo", 1, flags, |ctx| {
        Ok(text(ctx)?
            .and_then(query::DateRange::of_tag)
            .map(|r| i64::from(r.first)))
    })?;
    conn.create_scalar_function("xpgn_date_hi", 1, flags, |ctx| {
        Ok(text(ctx)?
            .and_then(query::DateRange::of_tag)
            .map(|r| i64::from(r.last)))
    })?;
    register_original_functions(conn)
}

/// The SQL functions that read framed originals (`original`):
/// `xpgn_original(game, frame, value, frame_value)`, a game's value, or a
/// framed game's text behind `original::PLAIN` (`frame_value` may be NULL
/// when `xpgn_frame_at_hand(frame)` says the thread has the frame at hand;
/// an error names the game);
/// `xpgn_text_tags(value)`, the JSON array of the tag pairs of the text
/// that value gives (`tags::text_tags`).
fn register_original_functions(conn: &Connection) -> Result<(), DbError> {
    fn blob<'a>(
        ctx: &'a rusqlite::functions::Context<'_>,
        i: usize,
    ) -> rusqlite::Result<Option<&'a [u8]>> {
        ctx.get_raw(i)
            .as_blob_or_null()
            .map_err(|e| rusqlite::Error::UserFunctionError(e.into()))
    }
    // Not deterministic: what they give depends on the frame at hand.
    let flags = FunctionFlags::SQLITE_UTF8;
    conn.create_scalar_function("xpgn_original", 4, flags, move |ctx| {
        let stored = blob(ctx, 2)?.unwrap_or_default();
        let Some(frame) = ctx.get::<Option<i64>>(1)? else {
            return Ok(stored.to_vec());
        };
        let text = original::framed_text(frame, stored, blob(ctx, 3)?).map_err(|source| {
            let game = ctx.get::<i64>(0).unwrap_or_default();
            rusqlite::Error::UserFunctionError(Box::new(DbError::Original { game, source }))
        })?;
        let mut out = Vec::with_capacity(1 + text.len());
        out.push(original::PLAIN);
        out.extend_from_slice(&text);
        Ok(out)
    })?;
    conn.create_scalar_function("xpgn_frame_at_hand", 1, flags, |ctx| {
        Ok(ctx
            .get::<Option<i64>>(0)?
            .is_some_and(original::frame_is_at_hand))
    })?;
    let text_of = |ctx: &rusqlite::functions::Context<'_>| {
        original::read(0, blob(ctx, 0)?.unwrap_or_default(), &[])
            .map_err(|e| rusqlite::Error::UserFunctionError(Box::new(e)))
    };
    conn.create_scalar_function("xpgn_text_tags", 1, flags, move |ctx| {
        let pairs = tags::text_tags(&text_of(ctx)?);
        Ok(tags::json(tags::Pairs::pairs(&pairs)))
    })?;
    // `xpgn_text_has_tag(value, name, needle)`: whether the text has a tag
    // `name` whose value, lower-cased, contains `needle` (what a filter
    // asks of every game: no JSON built and read again).
    conn.create_scalar_function("xpgn_text_has_tag", 3, flags, move |ctx| {
        let (name, needle) = (ctx.get::<String>(1)?, ctx.get::<String>(2)?);
        Ok(tags::text_tags(&text_of(ctx)?)
            .iter()
            .any(|(n, v)| *n == name && v.to_lowercase().contains(&needle)))
    })?;
    Ok(())
}

fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Whether `path` exists without write permission for anyone.
fn write_protected(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly())
}

/// `file:` URI for `path` with `immutable=1`; `%`, `?` and `#` would end or
/// change the path part, so they are escaped.
fn immutable_uri(path: &Path) -> String {
    let mut uri = String::from("file:");
    for c in path.to_string_lossy().chars() {
        match c {
            '%' => uri.push_str("%25"),
            '?' => uri.push_str("%3f"),
            '#' => uri.push_str("%23"),
            c => uri.push(c),
        }
    }
    uri.push_str("?immutable=1");
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_run_twice_without_harm() {
        let dir = std::env::temp_dir().join(format!("xpgn-migrate-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        let db = Database::open(&dir).unwrap();
        assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);
        drop(db);
        let db = Database::open(&dir).unwrap();
        assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);
        assert_eq!(db.stats().unwrap().positions, 0);
        drop(db);
        let _ = std::fs::remove_file(&dir);
    }
}
