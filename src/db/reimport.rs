//! Games stored invalid, read again: an import that reads a game whose
//! text is that of a game stored invalid (by an older xpgn, or under
//! other variant definitions) but whose content hash is new (the current
//! rules read it otherwise) replaces the stored game with the current
//! reading, under the same id: its row, its main line, its hashes, its
//! entries in the position index and the stored opening trees it counts
//! in. Everything is written in the import's transaction.
//!
//! The position index keeps its order (a bucket's rows by batch hold
//! games in id order, which queries with a limit rely on): a replaced
//! game's old entries are taken out of the rows that hold them, and its
//! new ones go into the rows of the batch its id belongs to, each such
//! row written again whole.

use std::collections::{BTreeMap, HashMap, HashSet};

use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};

use super::import::{HASH_BYTES, StoredHashes};
use super::postings::{self, BUCKET_BITS, PageFit, Posting, bucket};
use super::tree::stored;
use super::{DbError, original, packed};
use crate::notation::position::read_position;
use crate::rules::{Position, Registry};

/// What identifies a game's text whatever its white space: the hash of
/// its words, tag pairs included.
pub(crate) fn text_key(raw: &[u8]) -> [u8; HASH_BYTES] {
    let mut h = Sha256::new();
    h.update(b"xpgn text 1\0");
    for word in raw
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
    {
        h.update(word);
        h.update(b" ");
    }
    h.finalize().into()
}

/// The games stored invalid, by the key of their text.
#[derive(Default)]
pub(crate) struct StoredInvalid {
    by_text: HashMap<[u8; HASH_BYTES], i64>,
}

impl StoredInvalid {
    /// Reads the games stored invalid (through the `games_invalid` index)
    /// and keys their texts.
    ///
    /// # Errors
    /// SQLite errors, or a stored text that does not decompress.
    pub(crate) fn load(conn: &Connection) -> Result<StoredInvalid, DbError> {
        let mut stmt = conn.prepare(&format!(
            "SELECT g.id, {}, {} FROM games g INDEXED BY games_invalid
                 WHERE g.status = 'invalid' ORDER BY g.id",
            original::ORIGINAL_SQL,
            super::tags::COLUMNS
        ))?;
        let mut rows = stmt.query([])?;
        let mut by_text = HashMap::new();
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            let raw = original::read(id, super::query::blob(r, 1)?, &super::tags::from_row(r, 2)?)?;
            // Two stored games of one text: the first is replaced.
            by_text.entry(text_key(&raw)).or_insert(id);
        }
        Ok(StoredInvalid { by_text })
    }

    /// The stored invalid game of the text `raw`, taken out of the set (a
    /// game is replaced once).
    pub(crate) fn take(&mut self, raw: &[u8]) -> Option<i64> {
        if self.by_text.is_empty() {
            return None;
        }
        self.by_text.remove(&text_key(raw))
    }
}

/// Whether stored game `id` is invalid.
///
/// # Errors
/// SQLite errors.
pub(crate) fn is_invalid(conn: &Connection, id: i64) -> Result<bool, DbError> {
    Ok(conn
        .prepare_cached("SELECT status = 'invalid' FROM games WHERE id = ?1")?
        .query_row([id], |r| r.get::<_, bool>(0))
        .optional()?
        .unwrap_or(false))
}

/// The position keys of the stored main line of game `id` (the start
/// first, as the index holds them); empty when it has none; `None` when
/// its variant is not known or its line does not decode.
///
/// # Errors
/// SQLite errors.
pub(crate) fn stored_keys(
    conn: &Connection,
    registry: &Registry,
    id: i64,
) -> Result<Option<Vec<u64>>, DbError> {
    let row: Option<(String, Option<Vec<u8>>, Option<String>)> = conn
        .prepare_cached(
            "SELECT g.variant, m.packed, m.start FROM games g LEFT JOIN moves m ON m.game = g.id
             WHERE g.id = ?1",
        )?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    let Some((name, Some(line), start)) = row else {
        return Ok(Some(Vec::new()));
    };
    let Some(variant) = registry.lookup(&name) else {
        return Ok(None);
    };
    let mut pos = match &start {
        Some(text) => match read_position(variant.clone(), text) {
            Ok(pos) => pos,
            Err(_) => return Ok(None),
        },
        None => Position::start(variant.clone()),
    };
    let mut keys = vec![pos.key()];
    for (i, m) in packed::Decoder::new(&variant, &line).enumerate() {
        let Ok(m) = m else { return Ok(None) };
        if m.is_null() {
            // Positions after a null move are no positions of the game (R-0-6).
            break;
        }
        if packed::play(&mut pos, &m, i + 1).is_err() {
            return Ok(None);
        }
        keys.push(pos.key());
    }
    Ok(Some(keys))
}

/// Writes `content` and `moves` as the hashes of stored game `id` in its
/// row of `game_hashes`, and in the set of stored hashes in place of its
/// old content hash.
///
/// # Errors
/// SQLite errors, or no row holding the game.
pub(crate) fn rewrite_hashes(
    conn: &Connection,
    hashes: &mut StoredHashes,
    id: i64,
    content: [u8; HASH_BYTES],
    moves: [u8; HASH_BYTES],
) -> Result<(), DbError> {
    let row: Option<(i64, Vec<u8>, Vec<u8>)> = conn
        .prepare_cached(
            "SELECT first_game, content, moves FROM game_hashes
             WHERE first_game <= ?1 ORDER BY first_game DESC LIMIT 1",
        )?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    let damaged = || DbError::Damaged {
        detail: format!("no row of game_hashes holds game {id}"),
    };
    let (first, mut content_row, mut moves_row) = row.ok_or_else(damaged)?;
    let at = usize::try_from(id - first).map_err(|_| damaged())? * HASH_BYTES;
    if content_row.len() < at + HASH_BYTES || moves_row.len() < at + HASH_BYTES {
        return Err(damaged());
    }
    let old: [u8; HASH_BYTES] = content_row[at..at + HASH_BYTES]
        .try_into()
        .map_err(|_| damaged())?;
    hashes.replace(&old, content);
    content_row[at..at + HASH_BYTES].copy_from_slice(&content);
    moves_row[at..at + HASH_BYTES].copy_from_slice(&moves);
    conn.prepare_cached("UPDATE game_hashes SET content = ?2, moves = ?3 WHERE first_game = ?1")?
        .execute(params![first, content_row, moves_row])?;
    Ok(())
}

/// What the replacements of one transaction change in the position index
/// and the stored trees, written when it commits ([`Replaced::write`]).
#[derive(Default)]
pub(crate) struct Replaced {
    /// The games replaced.
    games: HashSet<u32>,
    /// The buckets their old entries are in; `None`: any (a line that
    /// could not be replayed again).
    old_buckets: Option<HashSet<i64>>,
    /// Their new entries.
    added: Vec<Posting>,
    /// The positions with a stored tree that their old or new lines reach.
    tree_keys: HashSet<u64>,
}

impl Replaced {
    /// Notes that game `game`, whose stored line reached `old_keys`
    /// (`None`: not known), now reaches `new_keys`; `has_tree` tells the
    /// positions with a stored tree.
    pub(crate) fn note(
        &mut self,
        game: u32,
        old_keys: Option<&[u64]>,
        new_keys: &[u64],
        has_tree: impl Fn(u64) -> bool,
    ) {
        if self.games.is_empty() {
            self.old_buckets = Some(HashSet::new());
        }
        self.games.insert(game);
        let indexed = usize::from(u16::MAX) + 1;
        match (old_keys, &mut self.old_buckets) {
            (Some(keys), Some(buckets)) => {
                buckets.extend(keys.iter().take(indexed).map(|&k| bucket(k)));
            }
            _ => self.old_buckets = None,
        }
        self.added.extend(
            new_keys
                .iter()
                .take(indexed)
                .enumerate()
                .map(|(ply, &key)| Posting {
                    key,
                    game,
                    ply: ply as u16,
                }),
        );
        let old = old_keys.unwrap_or(&[]).iter();
        self.tree_keys
            .extend(old.chain(new_keys).copied().filter(|&k| has_tree(k)));
    }

    /// Writes the changes into the position index and the stored trees,
    /// inside the caller's transaction.
    ///
    /// # Errors
    /// SQLite errors, a row of the index that does not decode, or a stored
    /// line that does not decode.
    pub(crate) fn write(
        self,
        conn: &Connection,
        registry: &Registry,
        fit: PageFit,
    ) -> Result<(), DbError> {
        if self.games.is_empty() {
            return Ok(());
        }
        let mut added: BTreeMap<i64, Vec<Posting>> = BTreeMap::new();
        for p in self.added {
            added.entry(bucket(p.key)).or_default().push(p);
        }
        let buckets: Vec<i64> = match &self.old_buckets {
            Some(old) => {
                let mut all: Vec<i64> = old.iter().chain(added.keys()).copied().collect();
                all.sort_unstable();
                all.dedup();
                all
            }
            None => (0..1i64 << BUCKET_BITS).collect(),
        };
        for b in buckets {
            let new = added.remove(&b).unwrap_or_default();
            rewrite_bucket(conn, b, &self.games, new, fit)?;
        }
        for key in self.tree_keys {
            let reached = postings::reached(conn, key)?;
            if reached.is_empty() {
                conn.prepare_cached("DELETE FROM opening_tree WHERE key = ?1")?
                    .execute([key as i64])?;
            } else {
                stored::store_bucket(conn, registry, &reached, 1)?;
            }
        }
        Ok(())
    }
}

/// Writes bucket `b` of the index again where it changes: the entries of
/// `games` taken out, `new` (theirs now) put into the rows of the batch
/// each game's id belongs to (the last batch of the bucket that starts at
/// or before it; a batch of their own, named by the smallest of them, for
/// games before every batch of the bucket).
fn rewrite_bucket(
    conn: &Connection,
    b: i64,
    games: &HashSet<u32>,
    new: Vec<Posting>,
    fit: PageFit,
) -> Result<(), DbError> {
    let mut batches: BTreeMap<i64, Vec<Posting>> = BTreeMap::new();
    let mut changed: HashSet<i64> = HashSet::new();
    {
        let mut stmt = conn.prepare_cached(
            "SELECT batch, entries FROM position_postings WHERE bucket = ?1 ORDER BY batch, piece",
        )?;
        let mut rows = stmt.query([b])?;
        while let Some(r) = rows.next()? {
            let batch: i64 = r.get(0)?;
            let entries = postings::entries(super::query::blob(r, 1)?);
            let kept = batches.entry(batch).or_default();
            let before = kept.len();
            kept.extend(entries.iter().filter(|p| !games.contains(&p.game)));
            if kept.len() - before != entries.len() {
                changed.insert(batch);
            }
        }
    }
    let first_new = new.iter().map(|p| i64::from(p.game)).min();
    for p in new {
        let game = i64::from(p.game);
        let batch = batches
            .range(..=game)
            .next_back()
            .map_or(first_new.unwrap_or(game), |(&batch, _)| batch);
        batches.entry(batch).or_default().push(p);
        changed.insert(batch);
    }
    for batch in changed {
        conn.prepare_cached("DELETE FROM position_postings WHERE bucket = ?1 AND batch = ?2")?
            .execute(params![b, batch])?;
        let mut entries = batches.remove(&batch).unwrap_or_default();
        if entries.is_empty() {
            continue;
        }
        entries.sort_unstable();
        postings::store_pieces(conn, b, batch, &entries, fit)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posting(key: u64, game: u32, ply: u16) -> Posting {
        Posting { key, game, ply }
    }

    /// The rows of bucket 0: (batch, entries), by batch and piece.
    fn rows(conn: &Connection) -> Vec<(i64, Vec<Posting>)> {
        let mut stmt = conn
            .prepare("SELECT batch, entries FROM position_postings WHERE bucket = 0 ORDER BY batch, piece")
            .unwrap();
        stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                postings::entries(&r.get::<_, Vec<u8>>(1)?),
            ))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    }

    #[test]
    fn a_replaced_game_goes_into_the_batch_its_id_belongs_to_and_the_rows_keep_id_order() {
        let conn = Connection::open_in_memory().unwrap();
        postings::tests::create_table(&conn);
        let fit = PageFit::new(4096);
        // Keys of bucket 0 (their top bits are 0): batches starting at
        // games 5 and 10.
        postings::store_pieces(
            &conn,
            0,
            5,
            &[posting(1, 5, 0), posting(2, 6, 1), posting(3, 5, 1)],
            fit,
        )
        .unwrap();
        postings::store_pieces(&conn, 0, 10, &[posting(1, 10, 0), posting(2, 11, 3)], fit).unwrap();
        // Game 6 and game 11 read again; game 3, before every batch of the
        // bucket, reaches it now.
        let games: HashSet<u32> = [3, 6, 11].into_iter().collect();
        let new = vec![
            posting(4, 6, 2),
            posting(1, 3, 0),
            posting(9, 11, 7),
            posting(7, 3, 1),
        ];
        rewrite_bucket(&conn, 0, &games, new, fit).unwrap();
        let mut expected_5 = vec![posting(1, 5, 0), posting(3, 5, 1), posting(4, 6, 2)];
        expected_5.sort_unstable();
        assert_eq!(
            rows(&conn),
            vec![
                (3, vec![posting(1, 3, 0), posting(7, 3, 1)]),
                (5, expected_5),
                (10, vec![posting(1, 10, 0), posting(9, 11, 7)]),
            ]
        );
        // A game whose new line leaves the bucket: its rows lose it, and a
        // row left empty goes.
        let games: HashSet<u32> = [3].into_iter().collect();
        rewrite_bucket(&conn, 0, &games, Vec::new(), fit).unwrap();
        assert_eq!(rows(&conn).first().map(|r| r.0), Some(5));
    }

    /// Stores the games of `text` through `importer`, read with the
    /// variants of `registry`.
    fn store_all(
        importer: &mut super::super::import::Importer<'_>,
        registry: &Registry,
        text: &str,
    ) -> super::super::import::ImportSummary {
        let mut summary = super::super::import::ImportSummary::default();
        for game in crate::notation::reader::read_games(text.as_bytes()) {
            let (game_text, game) = game.unwrap();
            let p = crate::record::prepare(registry, "g.pgn", &game_text, game);
            let own = super::super::import::Packed::Own(None);
            importer
                .store_packed("g.pgn", &game_text.raw, own, &p, &mut summary)
                .unwrap();
        }
        summary
    }

    /// A game another connection replaced since this one stored it stays
    /// as the other stored it: read again as it was first read, it is that
    /// game already stored.
    #[test]
    fn a_game_another_connection_replaced_is_not_replaced_back() {
        let path = std::env::temp_dir().join(format!("xpgn-reimport-{}.db", std::process::id()));
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
        }
        let zh = "[Event \"zh\"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@d3 *\n";
        let other = "[Event \"other\"]\n\n1. d4 d5 *\n";
        let chess = Registry::builtin();
        let crazyhouse =
            Registry::builtin().with_untagged_variant(chess.lookup("crazyhouse").unwrap());
        let mut a = super::super::Database::open(&path).unwrap();
        let mut b = super::super::Database::open(&path).unwrap();
        b.use_variants(crazyhouse.clone()).unwrap();
        let mut s = super::super::import::ImportSummary::default();
        a.import("g.pgn", zh.as_bytes(), &mut s, &mut |_| {})
            .unwrap();
        assert_eq!(s.invalid, 1);
        // `a` stores another game, then `b` replaces the crazyhouse game
        // with its valid reading.
        let mut importer = a.importer().unwrap();
        assert_eq!(store_all(&mut importer, &chess, other).imported, 1);
        importer.finish().unwrap();
        let mut s = super::super::import::ImportSummary::default();
        b.import("g.pgn", zh.as_bytes(), &mut s, &mut |_| {})
            .unwrap();
        assert_eq!((s.replaced, s.invalid), (1, 0));
        // Read as chess again by `a`, which knew the chess reading's hash.
        let mut importer = a.importer().unwrap();
        let s = store_all(&mut importer, &chess, zh);
        importer.finish().unwrap();
        assert_eq!((s.replaced, s.imported, s.duplicates), (0, 0, 1));
        let status: String = a
            .conn
            .query_row("SELECT status FROM games WHERE id = 1", [], |r| r.get(0))
            .unwrap();
        assert_eq!(status, "valid");
        drop((a, b));
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
        }
    }

    #[test]
    fn the_text_key_ignores_white_space_only() {
        assert_eq!(
            text_key(b"[Event \"a\"]\n\n1. e4 e5 *\n"),
            text_key(b"[Event \"a\"]\r\n\r\n1.  e4\te5 *")
        );
        assert_ne!(text_key(b"1. e4 e5 *"), text_key(b"1. e4 e6 *"));
    }
}
