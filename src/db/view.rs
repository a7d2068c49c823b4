//! What a viewer reads: one stored game whole, and a deadline on every
//! statement of a connection, so a server answering many requests bounds
//! the time each one may take.

use std::time::Instant;

use rusqlite::OptionalExtension;

use super::{Database, DbError, original, tags};

/// One stored game as imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// Row id.
    pub id: i64,
    /// Variant short name.
    pub variant: String,
    /// `valid` or `invalid`.
    pub status: String,
    /// The first error, rendered, of an invalid game.
    pub diagnostic: Option<String>,
    /// Every tag pair in the order written.
    pub tags: Vec<(String, String)>,
    /// Plies of the main line stored.
    pub plies: i64,
    /// The file it was imported from, and the line where it starts.
    pub source: (String, i64),
    /// Its bytes as read.
    pub original: Vec<u8>,
}

impl Database {
    /// Game `id` as stored; `None` if there is no such game.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn stored_game(&self, id: i64) -> Result<Option<StoredGame>, DbError> {
        let row = self
            .conn
            .prepare_cached(&format!(
                "SELECT g.id, g.variant, g.status, g.diagnostic, g.plies,
                        (SELECT path FROM sources WHERE id = g.source),
                        g.source_line, g.original_zstd, {}
                 FROM games g WHERE g.id = ?1",
                tags::COLUMNS
            ))?
            .query_row([id], |r| {
                let stored: Vec<u8> = r.get(7)?;
                Ok((
                    StoredGame {
                        id: r.get(0)?,
                        variant: r.get(1)?,
                        status: r.get(2)?,
                        diagnostic: r.get(3)?,
                        tags: tags::from_row(r, 8)?,
                        plies: r.get(4)?,
                        source: (r.get(5)?, r.get(6)?),
                        original: Vec::new(),
                    },
                    stored,
                ))
            })
            .optional()?;
        row.map(|(game, stored)| {
            Ok(StoredGame {
                original: original::read(game.id, &stored)?,
                ..game
            })
        })
        .transpose()
    }

    /// Makes every SQL statement of this connection fail with
    /// [`DbError::TimedOut`] once `deadline` has passed (checked every
    /// few hundred SQLite instructions); `None` lifts the limit.
    ///
    /// Work done in Rust between statements (replaying main lines for
    /// `--piece` patterns, decoding the games of a tree) is not cut
    /// short, only the statements it runs.
    pub fn set_deadline(&self, deadline: Option<Instant>) {
        match deadline {
            Some(at) => self
                .conn
                .progress_handler(200, Some(move || Instant::now() >= at)),
            None => self.conn.progress_handler(200, None::<fn() -> bool>),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::import::ImportSummary;
    use std::time::Duration;

    #[test]
    fn a_stored_game_comes_back_whole_and_a_passed_deadline_stops_statements() {
        let mut db = Database::in_memory().unwrap();
        let text = "[White \"A <b>\"][Result \"1-0\"]\n1. e4 e5 1-0\n";
        let mut summary = ImportSummary::default();
        db.import("t.pgn", text.as_bytes(), &mut summary, &mut |_| {})
            .unwrap();
        let g = db.stored_game(1).unwrap().unwrap();
        assert_eq!(g.original, text.as_bytes());
        assert_eq!(g.tags[0], ("White".into(), "A <b>".into()));
        assert_eq!(
            (g.variant.as_str(), g.status.as_str(), g.plies),
            ("chess", "valid", 2)
        );
        assert_eq!(db.stored_game(2).unwrap(), None);
        db.set_deadline(Some(Instant::now() - Duration::from_secs(1)));
        let slow = db.conn.query_row(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000000) SELECT count(*) FROM n",
            [],
            |r| r.get::<_, i64>(0),
        );
        assert!(matches!(
            DbError::from(slow.unwrap_err()),
            DbError::TimedOut
        ));
        db.set_deadline(None);
        assert!(db.stored_game(1).unwrap().is_some());
    }
}
