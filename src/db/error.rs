//! Errors of the database layer.

use super::packed::PackedError;

/// What went wrong with the database.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// SQLite failed (the file cannot be opened, a statement failed).
    #[error("{0}")]
    Sqlite(rusqlite::Error),
    /// The file is not an SQLite database (`SQLITE_NOTADB`).
    #[error("file is not a database")]
    NotADatabase,
    /// The database file has damaged pages (`SQLITE_CORRUPT`, or what
    /// `PRAGMA quick_check` found before an import).
    #[error(
        "the database file is damaged ({detail}); restore it from a backup or import its games into a new database"
    )]
    Damaged {
        /// What SQLite reported.
        detail: String,
    },
    /// A reading command found an older schema: it never writes, so it
    /// does not upgrade it.
    #[error(
        "the database has schema version {found} and this xpgn reads version {known}: run `xpgn optimize` on it once to upgrade it (reading commands never write to a database)"
    )]
    Behind {
        /// Version found.
        found: i64,
        /// Version this build needs.
        known: i64,
    },
    /// An SQLite file of another application: xpgn neither writes nor
    /// reads it.
    #[error(
        "not an xpgn database: {why}; xpgn writes only into a new or empty file or a database of its own"
    )]
    Foreign {
        /// What tells it apart.
        why: String,
    },
    /// A reading command on an empty file.
    #[error("the file is empty: it holds no games yet (`xpgn import` makes a database in it)")]
    Empty,
    /// A write-ahead log with commits that cannot be read: its `-shm`
    /// index is missing and the folder is read-only.
    #[error(
        "its write-ahead log (the `-wal` file beside it) holds committed games that SQLite can read only with a `-shm` file it makes beside it, and the folder is read-only: make the folder writable, or copy the database together with its `-wal` file into a writable folder"
    )]
    UnreadableLog,
    /// A write failed for want of room: a full disk, or the size limit of
    /// files (`ulimit -f`).
    #[error(
        "the disk is full or the file size limit is reached ({detail}); the batch being written was rolled back, every batch committed before it is kept"
    )]
    NoRoom {
        /// What SQLite reported.
        detail: String,
    },
    /// The database was written by a newer xpgn.
    #[error("the database has schema version {found}; this xpgn knows up to {known}")]
    TooNew {
        /// Version found.
        found: i64,
        /// Newest version known.
        known: i64,
    },
    /// A database that cannot be written to, opened for writing.
    #[error("the database is read-only: nothing was written")]
    ReadOnly,
    /// A database to read that does not exist.
    #[error("no such database")]
    NotFound,
    /// A migration's code step failed on a stored game.
    #[error("upgrading to schema version {version}: game {game}: {message}")]
    Migration {
        /// The version being migrated to.
        version: i64,
        /// The game's id.
        game: i64,
        /// What failed.
        message: String,
    },
    /// A stored main line (or stored tree) that does not decode or
    /// replay: damage.
    #[error(
        "the database file is damaged (game {game}: {source}); restore it from a backup or import its games into a new database"
    )]
    Corrupt {
        /// The game's id.
        game: i64,
        /// What is wrong.
        source: PackedError,
    },
    /// A stored original text that does not decompress.
    #[error("game {game}: {source}")]
    Original {
        /// The game's id.
        game: i64,
        /// What is wrong.
        source: super::original::UnpackError,
    },
    /// A game id beyond what the position index can name.
    #[error("game {game}: the position index names games up to 4,294,967,295")]
    Full {
        /// The game's id.
        game: i64,
    },
    /// A statement ran past the deadline set by
    /// [`Database::set_deadline`](super::Database::set_deadline).
    #[error("the query took too long and was stopped")]
    TimedOut,
    /// A variant's definition differs from the one the database stores its
    /// games under (same name, another hash).
    #[error(
        "the database stores games of the variant `{name}` under another definition (sha256 {stored}); the one loaded now has sha256 {loaded}: give the changed variant another name, or use another database"
    )]
    VariantChanged {
        /// The variant's short name.
        name: String,
        /// Hash of the stored definition.
        stored: String,
        /// Hash of the definition loaded now.
        loaded: String,
    },
    /// A stored variant definition that does not load.
    #[error("the stored definition of the variant `{name}` does not load: {message}")]
    StoredVariant {
        /// The variant's short name.
        name: String,
        /// Why.
        message: String,
    },
    /// Reading an input file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The failure.
        source: std::io::Error,
    },
}

impl From<rusqlite::Error> for DbError {
    /// Damage and foreign files get their own variants, wherever SQLite
    /// reports them. A value of another type than xpgn's schema gives its
    /// column, or text that is not UTF-8, can only be damage too.
    fn from(e: rusqlite::Error) -> DbError {
        if matches!(
            e,
            rusqlite::Error::FromSqlConversionFailure(..)
                | rusqlite::Error::InvalidColumnType(..)
                | rusqlite::Error::Utf8Error(..)
        ) {
            return DbError::Damaged {
                detail: format!("a stored value of the wrong type: {e}"),
            };
        }
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase) => DbError::NotADatabase,
            Some(rusqlite::ErrorCode::OperationInterrupted) => DbError::TimedOut,
            Some(rusqlite::ErrorCode::DatabaseCorrupt) => DbError::Damaged {
                detail: e.to_string(),
            },
            Some(rusqlite::ErrorCode::DiskFull) => DbError::NoRoom {
                detail: e.to_string(),
            },
            _ => DbError::Sqlite(e),
        }
    }
}
