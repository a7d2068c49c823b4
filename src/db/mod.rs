//! The game database: SQLite schema (migrated by `PRAGMA user_version`),
//! import of game files with every game replayed and every main-line
//! position indexed, searches (SQL filters, then pattern scans over the
//! packed main lines), the opening tree, export and summaries. rusqlite
//! lives here and nowhere else.

mod error;
pub mod export;
pub mod import;
mod migrate;
pub mod packed;
pub mod pattern;
pub mod postings;
pub mod query;
pub mod tree;

pub use error::DbError;
pub use migrate::SCHEMA_VERSION;

use std::path::Path;

use rusqlite::{Connection, MAIN_DB, OpenFlags};

/// An open database, migrated to the current schema.
pub struct Database {
    pub(crate) conn: Connection,
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

impl Database {
    /// Opens (creating if needed) the database at `path` for writing and
    /// migrates it.
    ///
    /// A file without write permission is refused even where the process
    /// could write it anyway (as root): its owner said it is not to change.
    ///
    /// # Errors
    /// Not an SQLite file, unreadable, read-only, or a schema newer than
    /// this build.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        if write_protected(path) {
            return Err(DbError::ReadOnly);
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        // SQLite falls back to reading when it cannot write, silently.
        if conn.is_readonly(MAIN_DB)? {
            return Err(DbError::ReadOnly);
        }
        Database::from_connection(conn)
    }

    /// Opens an existing database for reading: a writable one is migrated
    /// like [`Database::open`] does; a write-protected one is opened
    /// read-only and must already have the current schema.
    ///
    /// # Errors
    /// No such file, not an SQLite file, an old schema that cannot be
    /// upgraded because the file is read-only, or a schema newer than this
    /// build.
    pub fn open_existing(path: &Path) -> Result<Database, DbError> {
        if !path.exists() {
            return Err(DbError::NotFound);
        }
        if !write_protected(path) {
            let conn = Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )?;
            if !conn.is_readonly(MAIN_DB)? {
                return Database::from_connection(conn);
            }
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)?;
        let (conn, version) = match user_version(&conn) {
            Ok(v) => (conn, v),
            // A WAL database needs its `-shm` file, which a reader cannot
            // create in a write-protected folder; with no writer possible
            // there, the file can be read as immutable.
            Err(_) => {
                let conn = Connection::open_with_flags(
                    immutable_uri(path),
                    flags | OpenFlags::SQLITE_OPEN_URI,
                )?;
                let v = user_version(&conn)?;
                (conn, v)
            }
        };
        if version > SCHEMA_VERSION {
            return Err(DbError::TooNew {
                found: version,
                known: SCHEMA_VERSION,
            });
        }
        if version < SCHEMA_VERSION {
            return Err(DbError::OldAndReadOnly {
                found: version,
                known: SCHEMA_VERSION,
            });
        }
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        Ok(Database { conn })
    }

    /// An in-memory database, for tests.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn in_memory() -> Result<Database, DbError> {
        Database::from_connection(Connection::open_in_memory()?)
    }

    fn from_connection(mut conn: Connection) -> Result<Database, DbError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // WAL keeps committed batches intact when an import is killed.
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // Import inserts at random places of the content-hash index and
        // of the position index: a 64 MB page cache instead of SQLite's
        // 2 MB made building a 100,000-game database 23% faster (2,815 to
        // 3,460 games/s, measured before the index had 256 buckets).
        conn.pragma_update(None, "cache_size", -65536)?;
        migrate::migrate(&mut conn)?;
        Ok(Database { conn })
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
