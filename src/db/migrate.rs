//! Schema migrations: an append-only list, tracked by `PRAGMA user_version`.
//! Each runs in one exclusive transaction; running them again does nothing.

use rusqlite::{Connection, TransactionBehavior};

use super::error::DbError;

/// The migrations, in order; entry `i` brings the schema to version `i + 1`.
/// Never edit one that has shipped: add a new one.
const MIGRATIONS: &[&str] = &[include_str!("sql/001_initial.sql")];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings the schema of `conn` up to [`SCHEMA_VERSION`].
///
/// # Errors
/// SQLite errors, or a database newer than this build.
pub fn migrate(conn: &mut Connection) -> Result<(), DbError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Exclusive)?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(DbError::TooNew {
            found: version,
            known: SCHEMA_VERSION,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
    }
    tx.commit()?;
    Ok(())
}
