//! Damage checks, each as thorough as what it guards can afford.
//!
//! SQLite reports damage it meets on the pages a statement reads
//! (`SQLITE_CORRUPT`, a [`DbError::Damaged`] wherever it comes from); the
//! checks here look further than one statement's pages:
//! - [`whole`]: `PRAGMA quick_check` of every page, the B-tree structure
//!   of every table and index (not the indexes against their tables,
//!   which `integrity_check` adds at many times the cost). `xpgn check`
//!   and `xpgn optimize` run it, and an import into a database of at most
//!   [`WHOLE_CHECK_BYTES`].
//! - [`before_import`] into a larger database: the tables an import
//!   reads whole or adds to every batch, except the two that grow with
//!   every game (`games`, the position index), whose pages the import
//!   meets only at their ends. The check of a 750 MB database had taken
//!   most of a one-game import.
//! - [`tables_readable`], for reading commands: the tables they read on
//!   every call are small except the same two; a database of at most
//!   [`READER_WHOLE_CHECK_BYTES`] is checked whole.

use rusqlite::Connection;

use super::DbError;

/// A database up to this size is checked whole before an import (about
/// 60 ms of reading, against the 100 ms an import of one game takes at
/// least).
pub const WHOLE_CHECK_BYTES: u64 = 64 << 20;

/// A database up to this size is checked whole before a reading command
/// answers (some 25 ms at most; the 4.9 MB database of the corpus takes
/// under 10).
pub const READER_WHOLE_CHECK_BYTES: u64 = 16 << 20;

/// The tables checked before an import into a larger database: small, or
/// read whole by every import (`game_hashes`, 32 bytes a game).
const IMPORT_TABLES: &[&str] = &[
    "sources",
    "variant_definitions",
    "opening_tree",
    "game_hashes",
];

/// The tables checked before a reading command answers from a larger
/// database: the small ones every command may read.
const READER_TABLES: &[&str] = &["sources", "variant_definitions", "opening_tree"];

/// Most problems a check lists.
const MOST_PROBLEMS: usize = 20;

/// What a whole check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// Pages in the database.
    pub pages: u64,
    /// The problems found (at most 20); none when the database is whole.
    pub problems: Vec<String>,
}

/// `PRAGMA quick_check` of `table` (every table when `None`): its lines,
/// `["ok"]` when nothing is wrong.
fn quick_check(conn: &Connection, table: Option<&str>) -> Result<Vec<String>, DbError> {
    let sql = match table {
        Some(t) => format!("PRAGMA quick_check(\"{t}\")"),
        None => format!("PRAGMA quick_check({MOST_PROBLEMS})"),
    };
    let lines = conn
        .prepare(&sql)?
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(if lines.len() == 1 && lines[0] == "ok" {
        Vec::new()
    } else {
        lines
    })
}

/// Refuses a database that `quick_check` of `table` (of all, for `None`)
/// finds damaged.
fn refuse_damage(conn: &Connection, table: Option<&str>) -> Result<(), DbError> {
    let problems = quick_check(conn, table)?;
    if problems.is_empty() {
        return Ok(());
    }
    Err(DbError::Damaged {
        detail: format!(
            "quick_check: {}",
            problems
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
        ),
    })
}

/// The database's size in bytes, as its header counts it.
fn size(conn: &Connection) -> Result<u64, DbError> {
    let pages: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
    let page_size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
    Ok(u64::try_from(pages * page_size).unwrap_or(u64::MAX))
}

/// Checks every page ([`quick_check`]) and reports what it found.
///
/// # Errors
/// SQLite errors (damage in the schema itself is one).
pub fn whole(conn: &Connection) -> Result<CheckReport, DbError> {
    let pages: i64 = conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
    Ok(CheckReport {
        pages: u64::try_from(pages).unwrap_or(0),
        problems: quick_check(conn, None)?,
    })
}

/// The check before an import: the whole database when it is at most
/// [`WHOLE_CHECK_BYTES`], the tables of [`IMPORT_TABLES`] otherwise.
pub(super) fn before_import(conn: &Connection) -> Result<(), DbError> {
    if size(conn)? <= WHOLE_CHECK_BYTES {
        return refuse_damage(conn, None);
    }
    checked_tables(conn, IMPORT_TABLES)
}

/// The check before a reading command answers: the whole database when it
/// is at most [`READER_WHOLE_CHECK_BYTES`], the tables of
/// [`READER_TABLES`] otherwise.
pub(super) fn tables_readable(conn: &Connection) -> Result<(), DbError> {
    if size(conn)? <= READER_WHOLE_CHECK_BYTES {
        return refuse_damage(conn, None);
    }
    checked_tables(conn, READER_TABLES)
}

/// Checks those of `tables` the database has (an older schema lacks some).
fn checked_tables(conn: &Connection, tables: &[&str]) -> Result<(), DbError> {
    for table in tables {
        let exists: bool = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1)",
            [table],
            |r| r.get(0),
        )?;
        if exists {
            refuse_damage(conn, Some(table))?;
        }
    }
    Ok(())
}
