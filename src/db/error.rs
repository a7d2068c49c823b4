//! Errors of the database layer.

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
    /// Reading an input file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The failure.
        source: std::io::Error,
    },
}
