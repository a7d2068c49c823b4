//! Streaming import: each game is read, replayed and stored, valid or not
//! (an invalid game keeps its diagnostics, its original text, its tags and
//! every main-line ply up to its fault, stored and indexed), skipped when
//! the same content is already stored, in batched transactions so a killed
//! import leaves every committed game intact and a rerun completes it.
//!
//! "The same content" ([`content_hash`]) ignores tag order, white space,
//! roster placeholders (`?`) and notation: a game exported by xpgn and
//! imported again is found stored.

use std::io::BufRead;

use rusqlite::types::Value;
use rusqlite::{Transaction, params};

use super::migrate::tags_json;
use super::postings::{self, Posting};
use super::{Database, DbError};
use crate::notation::diagnostic::Diagnostic;
use crate::notation::reader::read_games;
// The preparation of a game is shared with the datasets (`crate::record`).
pub(crate) use crate::record::{Prepared, diagnostics_json, prepare};

/// What an import did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportSummary {
    /// Games read.
    pub read: u64,
    /// Games stored now (valid and invalid).
    pub imported: u64,
    /// Games skipped because the same content was already stored.
    pub duplicates: u64,
    /// Games stored as invalid.
    pub invalid: u64,
    /// Games stored as valid with warnings.
    pub warned: u64,
    /// Bytes read.
    pub bytes: u64,
}

/// What the import did with one game, for reports.
#[derive(Clone, Debug)]
pub struct GameReport<'a> {
    /// Its number in its file.
    pub number: usize,
    /// The line it starts on.
    pub line: usize,
    /// Its id, `None` when its content was stored already.
    pub id: Option<i64>,
    /// Whether it is valid.
    pub valid: bool,
    /// Its diagnostics.
    pub diagnostics: &'a [Diagnostic],
}

/// Games per transaction.
pub const BATCH: u64 = 1000;

/// The columns of a game's row that its reading decides, in the order of
/// [`game_values`] (import inserts them, migration 4 updates them).
pub(crate) const GAME_COLUMNS: [&str; 17] = [
    "variant",
    "event",
    "site",
    "date",
    "round",
    "white",
    "black",
    "result",
    "plies",
    "status",
    "diagnostic",
    "source_line",
    "hash",
    "tags",
    "diagnostics",
    "warnings",
    "moves_hash",
];

/// The values of [`GAME_COLUMNS`] for a prepared game stored under `hash`.
pub(crate) fn game_values(p: &Prepared, hash: &[u8]) -> Vec<Value> {
    let tag = |name: &str| {
        p.tags
            .iter()
            .find(|(n, _)| n == name)
            .map_or(Value::Null, |(_, v)| Value::Text(v.clone()))
    };
    let text = |s: &Option<String>| s.clone().map_or(Value::Null, Value::Text);
    vec![
        Value::Text(p.variant.clone()),
        tag("Event"),
        tag("Site"),
        tag("Date"),
        tag("Round"),
        tag("White"),
        tag("Black"),
        tag("Result"),
        Value::Integer(p.plies as i64),
        Value::Text(if p.valid { "valid" } else { "invalid" }.into()),
        text(&p.diagnostic),
        Value::Integer(p.line as i64),
        Value::Blob(hash.to_vec()),
        Value::Text(tags_json(&p.tags)),
        Value::Text(diagnostics_json(&p.diagnostics)),
        Value::Integer(p.warnings as i64),
        p.moves_hash
            .map_or(Value::Null, |h| Value::Blob(h.to_vec())),
    ]
}

/// Stores one game, its positions into `postings`; returns its id, `None`
/// when its content was already stored.
pub(crate) fn store(
    tx: &Transaction<'_>,
    p: &Prepared,
    source: &str,
    raw: &[u8],
    postings: &mut Vec<Posting>,
) -> Result<Option<i64>, DbError> {
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let sql = SQL.get_or_init(|| {
        let placeholders: Vec<String> = (3..3 + GAME_COLUMNS.len())
            .map(|i| format!("?{i}"))
            .collect();
        format!(
            "INSERT OR IGNORE INTO games (source_file, original, {}) VALUES (?1, ?2, {})",
            GAME_COLUMNS.join(", "),
            placeholders.join(", ")
        )
    });
    let mut values = vec![Value::Text(source.to_string()), Value::Blob(raw.to_vec())];
    values.extend(game_values(p, &p.hash));
    let inserted = tx
        .prepare_cached(sql)?
        .execute(rusqlite::params_from_iter(values))?;
    if inserted == 0 {
        return Ok(None);
    }
    let id = tx.last_insert_rowid();
    store_line(tx, id, p, postings)?;
    Ok(Some(id))
}

/// Stores the main line of game `id` (as far as it replays) and queues its
/// positions for the index.
pub(crate) fn store_line(
    tx: &Transaction<'_>,
    id: i64,
    p: &Prepared,
    postings: &mut Vec<Posting>,
) -> Result<(), DbError> {
    if !p.has_line {
        return Ok(());
    }
    tx.prepare_cached("INSERT INTO moves (game, san, packed, start) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![id, p.san, p.packed, p.start])?;
    let game = u32::try_from(id).map_err(|_| DbError::Full { game: id })?;
    // Positions past ply 65,535 (no real game) are left out of the index.
    for (ply, &key) in p.keys.iter().enumerate().take(usize::from(u16::MAX) + 1) {
        postings.push(Posting {
            key,
            game,
            ply: ply as u16,
        });
    }
    Ok(())
}

impl Database {
    /// Imports every game of `input` (named `source` in diagnostics and in
    /// the `source_file` column), calling `progress` after each game with
    /// the running summary.
    ///
    /// # Errors
    /// A read error of the input or an SQLite error; every batch committed
    /// before it stays.
    pub fn import<R: BufRead>(
        &mut self,
        source: &str,
        input: R,
        summary: &mut ImportSummary,
        progress: &mut dyn FnMut(&ImportSummary),
    ) -> Result<(), DbError> {
        self.import_reporting(source, input, summary, progress, &mut |_| {})
    }

    /// [`Database::import`], telling `report` what became of each game.
    ///
    /// # Errors
    /// As [`Database::import`].
    pub fn import_reporting<R: BufRead>(
        &mut self,
        source: &str,
        input: R,
        summary: &mut ImportSummary,
        progress: &mut dyn FnMut(&ImportSummary),
        report: &mut dyn FnMut(&GameReport<'_>),
    ) -> Result<(), DbError> {
        let mut tx = self.conn.transaction()?;
        let mut in_batch = 0;
        // The batch's positions, indexed when it commits: its first game's
        // id names it.
        let mut batch: Option<i64> = None;
        let mut batch_postings: Vec<Posting> = Vec::new();
        let mut recorded = std::collections::HashSet::new();
        for item in read_games(input) {
            let (text, game) = item.map_err(|e| DbError::Io {
                path: source.to_string(),
                source: e,
            })?;
            summary.read += 1;
            summary.bytes += text.raw.len() as u64;
            let p = prepare(source, &text, game);
            if !recorded.contains(&p.variant) {
                super::variants::record(&tx, &p.variant)?;
                recorded.insert(p.variant.clone());
            }
            let id = store(&tx, &p, source, &text.raw, &mut batch_postings)?;
            match id {
                Some(id) => {
                    batch.get_or_insert(id);
                    summary.imported += 1;
                    summary.invalid += u64::from(!p.valid);
                    summary.warned += u64::from(p.valid && p.warnings > 0);
                }
                None => summary.duplicates += 1,
            }
            report(&GameReport {
                number: text.number,
                line: p.line,
                id,
                valid: p.valid,
                diagnostics: &p.diagnostics,
            });
            in_batch += 1;
            if in_batch >= BATCH {
                if let Some(first) = batch.take() {
                    postings::store_batch(&tx, first, std::mem::take(&mut batch_postings))?;
                }
                tx.commit()?;
                tx = self.conn.transaction()?;
                in_batch = 0;
            }
            progress(summary);
        }
        if let Some(first) = batch {
            postings::store_batch(&tx, first, batch_postings)?;
        }
        tx.commit()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = "[Event \"a\"]\n[White \"W\"]\n1. e4 e5 2. Nf3 Nc6 *\n\n\
        [Event \"b\"]\n1. Nf3 Nc6 2. e4 e5 1-0\n\n\
        [Event \"c\"]\n1. e4 Ke7 *\n\n\
        1. e4 {unclosed\n";

    #[test]
    fn stores_valid_and_invalid_games_and_skips_duplicates() {
        let mut db = Database::in_memory().unwrap();
        let mut summary = ImportSummary::default();
        db.import("t.pgn", GAMES.as_bytes(), &mut summary, &mut |_| {})
            .unwrap();
        assert_eq!(
            (
                summary.read,
                summary.imported,
                summary.duplicates,
                summary.invalid
            ),
            (4, 4, 0, 2)
        );
        let mut again = ImportSummary::default();
        db.import("t.pgn", GAMES.as_bytes(), &mut again, &mut |_| {})
            .unwrap();
        assert_eq!((again.imported, again.duplicates), (0, 4));
        let stats = db.stats().unwrap();
        // The game with an unclosed comment keeps its tags (none: chess)
        // and its one ply before the fault (NOTATION §11).
        assert_eq!(stats.per_variant, vec![("chess".into(), 2, 2, 10)]);
        // Two games of 4 plies: 5 positions each; the two invalid games
        // index their positions up to the fault: 2 each.
        assert_eq!(stats.positions, 14);
        // The two games transpose into the same position after 4 plies.
        let mut pos = crate::rules::Position::start(crate::rules::Variant::chess());
        for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
            let m = crate::notation::coord::resolve_coord(&pos, m).unwrap();
            pos.play_unchecked(&m);
        }
        let reached = postings::reached(&db.conn, pos.key()).unwrap();
        let shared = reached.iter().filter(|p| p.ply == 4).count();
        assert_eq!(shared, 2);
        let (diag, original): (String, Vec<u8>) = db
            .conn
            .query_row(
                "SELECT diagnostic, original FROM games WHERE status = 'invalid' AND variant = 'chess'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert!(
            diag.starts_with("t.pgn:9:7: game 3, ply 2: `Ke7`"),
            "{diag}"
        );
        // Its bytes run to the next game: the blank line is the game's.
        assert_eq!(original, b"[Event \"c\"]\n1. e4 Ke7 *\n\n");
    }
}
