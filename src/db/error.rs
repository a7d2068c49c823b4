//! Errors of the database layer.

use super::packed::PackedError;

/// What went wrong with the database.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The file is not an SQLite database, cannot be opened, or SQLite failed.
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The database was written by a newer xpgn.
    #[error("the database has schema version {found}; this xpgn knows up to {known}")]
    TooNew {
        /// Version found.
        found: i64,
        /// Newest version known.
        known: i64,
    },
    /// A read-only database with an older schema: it cannot be upgraded.
    #[error(
        "the database has schema version {found} and is read-only; it needs upgrading to version {known}: make it writable and run `xpgn stats` on it once"
    )]
    OldAndReadOnly {
        /// Version found.
        found: i64,
        /// Version this build needs.
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
    /// A stored main line that does not decode or replay.
    #[error("game {game}: {source}")]
    Corrupt {
        /// The game's id.
        game: i64,
        /// What is wrong.
        source: PackedError,
    },
    /// A game id beyond what the position index can name.
    #[error("game {game}: the position index names games up to 4,294,967,295")]
    Full {
        /// The game's id.
        game: i64,
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
