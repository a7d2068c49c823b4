//! Streaming import: each game is read, replayed and stored, valid or not
//! (an invalid game keeps its diagnostic and its original text), skipped
//! when the same content is already stored, in batched transactions so a
//! killed import leaves every committed game intact and a rerun completes it.

use std::io::BufRead;

use rusqlite::{Transaction, params};
use sha2::{Digest, Sha256};

use super::migrate::{start_text, tags_json};
use super::postings::{self, Posting};
use super::{Database, DbError, packed};
use crate::notation::coord::push_coord;
use crate::notation::game::Game;
use crate::notation::reader::{GameText, read_games};
use crate::notation::replay::{Replay, game_variant, replay_visiting};
use crate::notation::san::push_san_after;
use crate::rules::{Move, Position};

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
    /// Bytes read.
    pub bytes: u64,
}

/// Games per transaction.
pub const BATCH: u64 = 1000;

/// One game made ready for storage.
struct Prepared {
    variant: String,
    tags: Vec<(String, String)>,
    plies: usize,
    diagnostic: Option<String>,
    san: String,
    packed: Vec<u8>,
    start: Option<String>,
    keys: Vec<u64>,
    hash: [u8; 32],
}

fn prepare(source: &str, text: &GameText, parsed: Result<Game, String>) -> Prepared {
    let mut hasher = Sha256::new();
    let game = match parsed {
        Ok(g) => g,
        Err(diagnostic) => {
            hasher.update(b"unreadable\0");
            hasher.update(&text.raw);
            return Prepared {
                variant: "unknown".into(),
                tags: Vec::new(),
                plies: 0,
                diagnostic: Some(format!("{source}:{diagnostic}")),
                san: String::new(),
                packed: Vec::new(),
                start: None,
                keys: Vec::new(),
                hash: hasher.finalize().into(),
            };
        }
    };
    let variant = game_variant(&game).map_or_else(
        |_| game.tag("Variant").unwrap_or("unknown").to_string(),
        |v| v.name().to_string(),
    );
    // SAN separated by spaces; coordinates each followed by one (as the
    // content hash has always read them); the key of every position. All
    // made as the replay plays each main-line move, so the game is played
    // once.
    let (mut san, mut coord, mut keys) = (String::new(), String::new(), Vec::new());
    let mut visit = |before: &Position, m: &Move, after: &Position| {
        if keys.is_empty() {
            keys.push(before.key());
        }
        if !san.is_empty() {
            san.push(' ');
        }
        push_san_after(&mut san, before, m, after);
        push_coord(&mut coord, before, m);
        coord.push(' ');
        keys.push(after.key());
    };
    let (replayed, diagnostic): (Option<Replay>, Option<String>) =
        match replay_visiting(&game, Some(&mut visit)) {
            Ok(r) => (Some(r), None),
            Err(failed) => {
                let e = &failed.error;
                let ply = e.ply.map_or(String::new(), |p| format!(", ply {p}"));
                let d = format!(
                    "{source}:{}:{}: game {}{ply}: {}",
                    e.at.line, e.at.column, text.number, e.message
                );
                (failed.partial, Some(d))
            }
        };
    let (mut packed, mut start) = (Vec::new(), None);
    if let (Some(r), None) = (&replayed, &diagnostic) {
        if keys.is_empty() {
            // A game without moves: its start is its one position.
            keys.push(r.start.key());
        }
        packed = packed::encode_all(&r.moves);
        start = start_text(&r.start);
    }
    hasher.update(variant.as_bytes());
    hasher.update(b"\0");
    for (n, v) in &game.tags {
        hasher.update(n.as_bytes());
        hasher.update(b"\0");
        hasher.update(v.as_bytes());
        hasher.update(b"\0");
    }
    if diagnostic.is_some() {
        // Moves of an invalid game are its text.
        hasher.update(b"invalid\0");
        hasher.update(&text.raw);
    } else {
        hasher.update(b"moves\0");
        hasher.update(coord.as_bytes());
    }
    Prepared {
        variant,
        tags: game.tags,
        plies: replayed.as_ref().map_or(0, |r| r.moves.len()),
        diagnostic,
        san,
        packed,
        start,
        keys,
        hash: hasher.finalize().into(),
    }
}

/// Stores one game, its positions into `postings`; returns its id, `None`
/// when its content was already stored.
fn store(
    tx: &Transaction<'_>,
    p: &Prepared,
    source: &str,
    text: &GameText,
    postings: &mut Vec<Posting>,
) -> Result<Option<i64>, DbError> {
    let tag = |name: &str| {
        p.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let inserted = tx
        .prepare_cached(
            "INSERT OR IGNORE INTO games (variant, event, site, date, round, white, black,
                 result, plies, status, diagnostic, source_file, source_line, original, hash,
                 tags)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
        )?
        .execute(params![
            p.variant,
            tag("Event"),
            tag("Site"),
            tag("Date"),
            tag("Round"),
            tag("White"),
            tag("Black"),
            tag("Result"),
            p.plies as i64,
            if p.diagnostic.is_some() {
                "invalid"
            } else {
                "valid"
            },
            p.diagnostic,
            source,
            text.first_line as i64,
            text.raw,
            &p.hash[..],
            tags_json(&p.tags),
        ])?;
    if inserted == 0 {
        return Ok(None);
    }
    let id = tx.last_insert_rowid();
    if p.diagnostic.is_none() {
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
    }
    Ok(Some(id))
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
        let mut tx = self.conn.transaction()?;
        let mut in_batch = 0;
        // The batch's positions, indexed when it commits: its first game's
        // id names it.
        let mut batch: Option<i64> = None;
        let mut batch_postings: Vec<Posting> = Vec::new();
        for item in read_games(input) {
            let (text, parsed) = item.map_err(|e| DbError::Io {
                path: source.to_string(),
                source: e,
            })?;
            summary.read += 1;
            summary.bytes += text.raw.len() as u64;
            let parsed = parsed
                .map_err(|e| format!("{}:{}: game {}: {e}", e.at.line, e.at.column, text.number));
            let p = prepare(source, &text, parsed);
            match store(&tx, &p, source, &text, &mut batch_postings)? {
                Some(id) => {
                    batch.get_or_insert(id);
                    summary.imported += 1;
                    summary.invalid += u64::from(p.diagnostic.is_some());
                }
                None => summary.duplicates += 1,
            }
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
        assert_eq!(
            stats.per_variant,
            vec![("chess".into(), 2, 1, 9), ("unknown".into(), 0, 1, 0)]
        );
        // Two games of 4 plies: 5 positions each.
        assert_eq!(stats.positions, 10);
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
        assert_eq!(original, b"[Event \"c\"]\n1. e4 Ke7 *\n");
    }
}
