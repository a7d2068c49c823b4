//! What a viewer reads: one stored game whole, or its columns, the start
//! of its text and its main line move by move (so a game of any length is
//! read in bounded memory), and a deadline on every statement of a
//! connection, so a server answering many requests bounds the time each
//! one may take.

use std::io::Read;
use std::time::Instant;

use rusqlite::blob::Blob;
use rusqlite::{MAIN_DB, OptionalExtension};

use super::original::OriginalReader;
use super::packed::{Decoder, PackedError};
use super::{Database, DbError, original, tags};
use crate::notation::position::read_position;
use crate::rules::{Move, Position, Variant};

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
    /// Its bytes as read (from [`Database::stored_game_head`], only the
    /// first of them).
    pub original: Vec<u8>,
    /// How many bytes the whole original has.
    pub original_len: u64,
    /// The opening it is named after (the `eco` and `opening` columns).
    pub opening: Option<crate::notation::opening::Opening>,
}

/// A blob column's value, NULL as `None`.
type BlobValue = Option<Vec<u8>>;

/// A framed game's text (behind [`original::PLAIN`]), NULL for a game
/// whose value is its own frame (read as a stream from its blob).
fn framed_text_sql() -> String {
    format!(
        "CASE WHEN g.frame IS NULL THEN NULL ELSE {} END",
        original::ORIGINAL_SQL
    )
}

impl Database {
    /// Game `id` as stored; `None` if there is no such game.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn stored_game(&self, id: i64) -> Result<Option<StoredGame>, DbError> {
        let Some((game, stored)) = self.stored_columns(id, original::ORIGINAL_SQL)? else {
            return Ok(None);
        };
        let original = original::read(game.id, &stored.unwrap_or_default(), &game.tags)?;
        Ok(Some(StoredGame {
            original_len: original.len() as u64,
            original,
            ..game
        }))
    }

    /// Game `id` as stored with only the first `keep` bytes of its
    /// original text, decompressed as they are read from the database: a
    /// game of any length costs `keep` bytes of text. `None` if there is
    /// no such game.
    ///
    /// # Errors
    /// SQLite errors, or a stored original that does not decompress.
    pub fn stored_game_head(&self, id: i64, keep: usize) -> Result<Option<StoredGame>, DbError> {
        let Some((game, framed)) = self.stored_columns(id, &framed_text_sql())? else {
            return Ok(None);
        };
        let (original, original_len) = match framed {
            Some(text) => {
                let mut text = original::read(id, &text, &game.tags)?;
                let len = text.len() as u64;
                text.truncate(keep);
                (text, len)
            }
            None => {
                let blob = self
                    .conn
                    .blob_open(MAIN_DB, "games", "original_zstd", id, true)?;
                original::read_prefix(id, blob, keep, &game.tags)?
            }
        };
        Ok(Some(StoredGame {
            original,
            original_len,
            ..game
        }))
    }

    /// Runs `f` on the original text of game `id`, read from the database
    /// and decompressed as `f` reads it, through one blob handle (so the
    /// value is read once, in order): a game of any length is read in
    /// bounded memory ([`OriginalReader`]). The reading is one read
    /// transaction (one snapshot of the game, whatever is written
    /// meanwhile). `None` if there is no such game.
    ///
    /// ```
    /// use std::io::Read;
    /// use xpgn::db::{Database, import::ImportSummary};
    /// let mut db = Database::in_memory().unwrap();
    /// let text = "[White \"A\"]\n\n1. e4 e5 *\n";
    /// db.import("g.pgn", text.as_bytes(), &mut ImportSummary::default(), &mut |_| {})
    ///     .unwrap();
    /// let mut read = Vec::new();
    /// let len = db
    ///     .with_original(1, |original| original.read_to_end(&mut read).map(|_| original.len()))
    ///     .unwrap();
    /// assert_eq!((len.unwrap().unwrap(), &read[..]), (text.len() as u64, text.as_bytes()));
    /// assert!(db.with_original(2, |_| ()).unwrap().is_none());
    /// ```
    ///
    /// # Errors
    /// SQLite errors, or a stored value that is not a stored original
    /// (`f`'s reads fail where the value is damaged).
    pub fn with_original<T>(
        &self,
        id: i64,
        f: impl FnOnce(&mut OriginalReader<Blob<'_>>) -> T,
    ) -> Result<Option<T>, DbError> {
        let began = self.conn.is_autocommit();
        if began {
            self.conn.execute_batch("BEGIN")?;
        }
        let outcome = (|| {
            let Some((game, framed)) = self.stored_columns(id, &framed_text_sql())? else {
                return Ok(None);
            };
            let mut reader = match framed {
                Some(text) => OriginalReader::of_text(original::read(id, &text, &game.tags)?),
                None => {
                    let blob = self
                        .conn
                        .blob_open(MAIN_DB, "games", "original_zstd", id, true)?;
                    OriginalReader::new(id, blob, &game.tags)?
                }
            };
            Ok(Some(f(&mut reader)))
        })();
        if began {
            // Nothing was written: ending the transaction cannot fail in a
            // way that matters to what was read.
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        outcome
    }

    /// The columns of game `id` and the value of SQL expression `original`
    /// (a blob or NULL).
    fn stored_columns(
        &self,
        id: i64,
        original: &str,
    ) -> Result<Option<(StoredGame, BlobValue)>, DbError> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT g.id, g.variant, g.status, g.diagnostic, g.plies,
                        (SELECT path FROM sources WHERE id = g.source),
                        g.source_line, {original}, {}, g.eco, g.opening
                 FROM games g WHERE g.id = ?1",
                tags::COLUMNS
            ))?
            .query_row([id], |r| {
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
                        original_len: 0,
                        opening: super::export::opening_of(r.get(17)?, r.get(18)?),
                    },
                    r.get(7)?,
                ))
            })
            .optional()?)
    }

    /// The stored main line of game `id`, its moves read from the database
    /// a block at a time; `None` if the game has no stored line.
    ///
    /// # Errors
    /// SQLite errors, or a stored line of an unknown variant or with a
    /// start position that does not read.
    pub fn stored_line(&self, id: i64) -> Result<Option<StoredLine<'_>>, DbError> {
        let row: Option<(String, Option<String>)> = self
            .conn
            .prepare_cached(
                "SELECT g.variant, m.start FROM moves m JOIN games g ON g.id = m.game
                 WHERE m.game = ?1",
            )?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        let Some((variant, start)) = row else {
            return Ok(None);
        };
        let corrupt = |what: &str| DbError::Corrupt {
            game: id,
            source: PackedError::Invalid {
                ply: 0,
                what: what.to_string(),
            },
        };
        let variant = self
            .registry
            .lookup(&variant)
            .ok_or_else(|| corrupt("a stored main line of an unknown variant"))?;
        let start = match &start {
            Some(text) => read_position(variant.clone(), text)
                .map_err(|_| corrupt("the stored start position does not read"))?,
            None => Position::start(variant.clone()),
        };
        let blob = self.conn.blob_open(MAIN_DB, "moves", "packed", id, true)?;
        Ok(Some(StoredLine {
            start,
            variant,
            game: id,
            blob,
            buf: vec![0; LINE_BLOCK],
            at: 0,
            end: 0,
            read_all: false,
            ply: 0,
        }))
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

/// Bytes of a packed main line read from the database at once.
const LINE_BLOCK: usize = 64 * 1024;

/// A stored main line: its start, and its moves one by one as an
/// iterator, each decoded as [`super::packed::Decoder`] checks it.
pub struct StoredLine<'c> {
    /// The position the line starts from.
    pub start: Position,
    variant: Variant,
    game: i64,
    blob: Blob<'c>,
    /// `buf[at..end]`: bytes read and not yet decoded.
    buf: Vec<u8>,
    at: usize,
    end: usize,
    read_all: bool,
    /// Moves given so far.
    ply: usize,
}

impl StoredLine<'_> {
    fn corrupt(&self, source: PackedError) -> DbError {
        // The decoder counts from the block it was given: the ply of the
        // line is this one's.
        let ply = self.ply + 1;
        let source = match source {
            PackedError::Truncated(_) => PackedError::Truncated(ply),
            PackedError::Invalid { what, .. } => PackedError::Invalid { ply, what },
        };
        DbError::Corrupt {
            game: self.game,
            source,
        }
    }

    /// Moves the undecoded bytes to the front and reads more behind them.
    fn refill(&mut self) -> Result<(), DbError> {
        self.buf.copy_within(self.at..self.end, 0);
        self.end -= self.at;
        self.at = 0;
        match self.blob.read(&mut self.buf[self.end..]) {
            Ok(0) => self.read_all = true,
            Ok(n) => self.end += n,
            Err(e) => {
                self.read_all = true;
                return Err(DbError::Damaged {
                    detail: e.to_string(),
                });
            }
        }
        Ok(())
    }
}

impl Iterator for StoredLine<'_> {
    type Item = Result<Move, DbError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.at < self.end {
                let mut decoder = Decoder::new(&self.variant, &self.buf[self.at..self.end]);
                match decoder.next() {
                    Some(Ok(m)) => {
                        self.at += decoder.offset();
                        self.ply += 1;
                        return Some(Ok(m));
                    }
                    // A move cut by the end of the block: read on.
                    Some(Err(PackedError::Truncated(_))) if !self.read_all => {}
                    Some(Err(e)) => {
                        self.at = self.end;
                        self.read_all = true;
                        return Some(Err(self.corrupt(e)));
                    }
                    None => self.at = self.end,
                }
            } else if self.read_all {
                return None;
            }
            if let Err(e) = self.refill() {
                return Some(Err(e));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::import::ImportSummary;
    use std::time::Duration;

    #[test]
    fn a_long_line_is_read_move_by_move_across_blocks_and_its_text_in_part() {
        let mut text = String::from("[White \"A\"]\n");
        for i in 0..12_000 {
            let (w, b) = if i % 2 == 0 {
                ("Nf3", "Nf6")
            } else {
                ("Ng1", "Ng8")
            };
            text.push_str(&format!("{}. {w} {b} ", i + 1));
        }
        text.push_str("1. e4 *\n");
        let text = text.replacen("1. e4 *", "24001. e4 *", 1);
        let mut db = Database::in_memory().unwrap();
        db.import(
            "t.pgn",
            text.as_bytes(),
            &mut ImportSummary::default(),
            &mut |_| {},
        )
        .unwrap();
        let line = db.stored_line(1).unwrap().unwrap();
        let mut pos = line.start.clone();
        let mut count = 0;
        for m in line {
            pos.play_unchecked(&m.unwrap());
            count += 1;
        }
        // 24,001 plies of three bytes: the line spans two blocks.
        assert_eq!(count, 24_001);
        assert!(count * 3 > LINE_BLOCK);
        assert_eq!(
            (pos.turn(), pos.fullmove_number()),
            (crate::rules::Color::Black, 12_001)
        );
        let head = db.stored_game_head(1, 100).unwrap().unwrap();
        assert_eq!(head.original, &text.as_bytes()[..100]);
        assert_eq!(head.original_len, text.len() as u64);
        assert_eq!(head.plies, 24_001);
        assert!(db.stored_line(2).unwrap().is_none());
        assert!(db.stored_game_head(2, 100).unwrap().is_none());
    }

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
