//! Streaming import: each game is read, replayed and stored, valid or not
//! (an invalid game keeps its diagnostics, its original text, its tags and
//! every main-line ply up to its fault, stored and indexed), skipped when
//! the same content is already stored, in batched transactions so a killed
//! import leaves every committed game intact and a rerun completes it.
//!
//! "The same content" ([`content_hash`](crate::record)) ignores tag order,
//! white space, roster placeholders (`?`) and notation: a game exported by
//! xpgn and imported again is found stored.
//!
//! The writing half is [`Importer`]: it takes games prepared anywhere
//! (`prepare`, on any thread) in the order they are to be stored, and
//! writes only at the end of each B-tree: game rows under ids it hands out
//! in order, their hashes one row per batch (`game_hashes`), the position
//! index one row per bucket per batch. Duplicates are found in memory, in
//! the set of the content hashes stored, loaded once per connection from
//! `game_hashes` and kept up to date: no random index insert per game.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::io::BufRead;
use std::sync::{Arc, OnceLock};

use rusqlite::{Connection, Statement, params};

use super::postings::{self, Posting};
use super::reimport::{self, Replaced, StoredInvalid};
use super::tree::stored;
use super::{Database, DbError, original, tags};
use crate::notation::diagnostic::Diagnostic;
use crate::notation::parallel::{Event, Open, chunk_is_whole, map_game_chunks_reading_once};
use crate::notation::reader::{GameBytes, GameSplitter};
use crate::rules::Registry;
// The preparation of a game is shared with the datasets (`crate::record`).
use crate::record::{LineTexts, prepare_bytes_to_end};
pub(crate) use crate::record::{Prepared, diagnostics_json, prepare_bytes};

/// What an import did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportSummary {
    /// Games read.
    pub read: u64,
    /// Games stored now (valid and invalid).
    pub imported: u64,
    /// Games skipped because the same content was already stored.
    pub duplicates: u64,
    /// Games stored invalid before, read again (the same text) and stored
    /// as the current rules read them, under the same id (not counted in
    /// `imported`).
    pub replaced: u64,
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

/// Games stored per transaction. Each commit writes the last, partly
/// filled page of every B-tree and one posting row per bucket (256): with
/// 10,000 games that is a few hundredths of a page per game; a killed
/// import loses at most the batch it was writing.
pub const BATCH: u64 = 10_000;

/// A batch open this long is committed however few games it holds, so
/// that readers see an import's progress (they see what is committed).
const BATCH_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// Bytes per game in each blob of `game_hashes`.
pub(crate) const HASH_BYTES: usize = 32;

/// Games stored between two checkpoints of the write-ahead log: rare
/// enough to cost little, often enough that the log (about 2 KB a game)
/// stays near 200 MB instead of growing as large as the whole import.
pub const CHECKPOINT_GAMES: u64 = 100_000;

/// Games per row of `game_hashes`: a row of 4 KB fits a page, so the
/// hashes of one game are read without a chain of overflow pages.
pub(crate) const HASH_ROW_GAMES: usize = 64;

/// The hashes of every stored game: `(id, content hash, moves hash)` by
/// id, the moves hash `None` for a game without a main line.
pub(crate) type GameHashes = ([u8; HASH_BYTES], Option<[u8; HASH_BYTES]>);

/// Splits the `content` and `moves` blobs of a `game_hashes` row that
/// starts at game `first` into its games' hashes.
pub(crate) fn row_hashes<'a>(
    first: i64,
    content: &'a [u8],
    moves: &'a [u8],
) -> impl Iterator<Item = (i64, GameHashes)> + 'a {
    content
        .chunks_exact(HASH_BYTES)
        .zip(moves.chunks_exact(HASH_BYTES))
        .enumerate()
        .filter_map(move |(i, (c, m))| {
            let c = <[u8; HASH_BYTES]>::try_from(c).ok()?;
            let m = <[u8; HASH_BYTES]>::try_from(m).ok()?;
            let m = (m != [0; HASH_BYTES]).then_some(m);
            Some((first + i as i64, (c, m)))
        })
}

/// The hashes of stored game `id`.
///
/// # Errors
/// SQLite errors.
pub(crate) fn game_hashes(conn: &Connection, id: i64) -> Result<Option<GameHashes>, DbError> {
    let mut stmt = conn.prepare_cached(
        "SELECT first_game, content, moves FROM game_hashes
         WHERE first_game <= ?1 ORDER BY first_game DESC LIMIT 1",
    )?;
    let mut rows = stmt.query([id])?;
    let Some(r) = rows.next()? else {
        return Ok(None);
    };
    let first: i64 = r.get(0)?;
    let (content, moves) = (super::query::blob(r, 1)?, super::query::blob(r, 2)?);
    Ok(row_hashes(first, content, moves)
        .find(|(g, _)| *g == id)
        .map(|(_, h)| h))
}

/// The content hashes of the stored games, kept by a writing connection
/// across its imports.
#[derive(Default)]
pub(crate) struct StoredHashes {
    hashes: HashSet<[u8; HASH_BYTES], BuildHasherDefault<DigestPrefix>>,
    /// Every game with an id below this one has its hash in `hashes`.
    next_id: i64,
}

impl StoredHashes {
    /// `new` in place of `old`, for a stored game stored again.
    pub(crate) fn replace(&mut self, old: &[u8; HASH_BYTES], new: [u8; HASH_BYTES]) {
        self.hashes.remove(old);
        self.hashes.insert(new);
    }

    /// Adds the hashes of the games stored from id `self.next_id` on (by
    /// this connection before it knew them, or by another process), up to
    /// `next_id`.
    fn catch_up(&mut self, conn: &Connection, next_id: i64) -> Result<(), DbError> {
        if next_id == self.next_id {
            return Ok(());
        }
        let mut stmt = conn.prepare_cached(
            "SELECT first_game, content FROM game_hashes WHERE first_game >= ?1 ORDER BY first_game",
        )?;
        // Sized once for every game stored since (ids are dense): growing
        // the table row by row was a tenth of a small import into a big
        // database.
        self.hashes
            .reserve(usize::try_from(next_id - self.next_id).unwrap_or(0));
        let mut rows = stmt.query([self.next_id])?;
        while let Some(r) = rows.next()? {
            let content = super::query::blob(r, 1)?;
            self.hashes.extend(
                content
                    .chunks_exact(HASH_BYTES)
                    .filter_map(|h| <[u8; HASH_BYTES]>::try_from(h).ok()),
            );
        }
        self.next_id = next_id;
        Ok(())
    }
}

/// Hashes a SHA-256 digest by its first eight bytes: the digest is
/// already uniform, and SipHash over all 32 bytes was, with the table's
/// growth, a sixth of a one-game import into a 500,000-game database.
/// (Games crafted to share a prefix would cost some 2^32 hashing each to
/// make, and only slow the set, never confuse it: keys are compared whole.)
#[derive(Default)]
pub(crate) struct DigestPrefix(u64);

impl Hasher for DigestPrefix {
    fn write(&mut self, bytes: &[u8]) {
        let mut word = [0u8; 8];
        let n = bytes.len().min(8);
        word[..n].copy_from_slice(&bytes[..n]);
        self.0 = self.0.rotate_left(5) ^ u64::from_le_bytes(word);
    }
    fn write_usize(&mut self, _: usize) {
        // The length prefix of an array: always 32 here.
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The id the next stored game takes.
fn next_id(conn: &Connection) -> Result<i64, DbError> {
    Ok(
        conn.query_row("SELECT COALESCE(MAX(id), 0) + 1 FROM games", [], |r| {
            r.get(0)
        })?,
    )
}

/// The batch being written: its first game's id names its rows.
#[derive(Default)]
struct Batch {
    first: Option<i64>,
    /// When its first game was stored.
    opened: Option<std::time::Instant>,
    games: u64,
    /// Games stored again in place ([`super::reimport`]).
    replaced: u64,
    content: Vec<u8>,
    moves: Vec<u8>,
    postings: postings::BatchPostings,
}

/// The writer of an import: stores prepared games in the order given, in
/// transactions of [`BATCH`] games, and checkpoints the write-ahead log
/// every [`CHECKPOINT_GAMES`] games and when [`Importer::finish`] commits
/// the last batch. Dropped without
/// `finish` (after an error), it rolls its open batch back: every batch
/// committed before stays, whole.
///
/// Made by [`Database::importer`]; the games may be prepared anywhere
/// (`prepare` needs no database), on other threads, as long as they come
/// to `Importer::store` in input order.
pub struct Importer<'db> {
    conn: &'db Connection,
    registry: &'db Arc<Registry>,
    stored_hashes: &'db mut Option<StoredHashes>,
    /// The statements each game runs, prepared once: a cached statement's
    /// look-up and return hashed its whole text, twice a game.
    statements: Statements<'db>,
    in_transaction: bool,
    next_id: i64,
    batch: Batch,
    recorded: HashSet<String>,
    /// Games committed since the last checkpoint.
    unchecked: u64,
    /// The page layout the posting rows are cut to fit.
    fit: postings::PageFit,
    /// Threads that may cut a batch's postings into rows.
    threads: usize,
    /// The id in `sources` of each file this import stored games from.
    sources: HashMap<String, i64>,
    /// The stored opening trees, loaded as each transaction opens and
    /// written back in it with the games it stores added.
    trees: stored::Kept,
    /// The games stored invalid, by their texts, read when the first game
    /// whose content is not stored comes.
    invalid: Option<StoredInvalid>,
    /// What the games stored again in place change in the index and the
    /// trees, written as the transaction commits.
    replaced: Replaced,
}

impl Database {
    /// The writer for an import into this database (see [`Importer`]).
    ///
    /// # Errors
    /// SQLite errors.
    pub fn importer(&mut self) -> Result<Importer<'_>, DbError> {
        let Database {
            conn,
            registry,
            stored_hashes,
        } = self;
        let conn: &Connection = conn;
        // One checkpoint when the import ends, not one every 1,000 pages
        // of log (each copies into the database what the log holds).
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        let fit = postings::PageFit::of(conn)?;
        Ok(Importer {
            fit,
            threads: 1,
            sources: HashMap::new(),
            statements: Statements::prepare(conn)?,
            conn,
            registry,
            stored_hashes,
            in_transaction: false,
            next_id: 0,
            batch: Batch::default(),
            recorded: HashSet::new(),
            unchecked: 0,
            trees: stored::Kept::default(),
            invalid: None,
            replaced: Replaced::default(),
        })
    }
}

impl Importer<'_> {
    /// Opens the next batch's transaction (waiting for another writer),
    /// and learns the hashes of games another process stored meanwhile.
    fn begin(&mut self) -> Result<(), DbError> {
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        self.in_transaction = true;
        let next = next_id(self.conn)?;
        let hashes = self.stored_hashes.get_or_insert_with(Default::default);
        hashes.catch_up(self.conn, next)?;
        self.next_id = next;
        // Loaded in the write lock, so they are what every other writer
        // (another import, `optimize`) left: a few hundred rows.
        self.trees = stored::Kept::load(self.conn, Arc::clone(self.registry))?;
        Ok(())
    }

    /// Stores `p`, read from `source` as `raw` (packed as `packed` says),
    /// unless a game with its content is stored already; counts it in
    /// `summary`. Returns its id, `None` for a duplicate.
    ///
    /// # Errors
    /// SQLite errors (the open batch is rolled back when the importer is
    /// dropped), a game id past what the position index holds, or a stored
    /// definition of the game's variant other than the one in use.
    pub(crate) fn store_packed(
        &mut self,
        source: &str,
        raw: &[u8],
        packed: Packed<'_>,
        p: &Prepared,
        summary: &mut ImportSummary,
    ) -> Result<Option<i64>, DbError> {
        if !self.in_transaction {
            self.begin()?;
        }
        summary.read += 1;
        summary.bytes += raw.len() as u64;
        if !self.recorded.contains(&p.variant) {
            super::variants::record(self.conn, self.registry, &p.variant)?;
            self.recorded.insert(p.variant.clone());
        }
        let hashes = self.stored_hashes.get_or_insert_with(Default::default);
        if !hashes.hashes.insert(p.hash) {
            summary.duplicates += 1;
            return Ok(None);
        }
        let invalid = match &mut self.invalid {
            Some(invalid) => invalid,
            None => self.invalid.insert(StoredInvalid::load(self.conn)?),
        };
        // Still invalid now, in the write lock: another import may have
        // replaced it since the set was read.
        if let Some(id) = invalid.take(raw)
            && reimport::is_invalid(self.conn, id)?
        {
            return self.replace(id, source, raw, packed, p, summary).map(Some);
        }
        let id = self.next_id;
        let source = self.source_id(source)?;
        let (value, frame) = self.stored_value(raw, packed, p)?;
        let statements = &mut self.statements;
        insert_game(&mut statements.insert_game, id, source, (&value, frame), p)?;
        store_line(
            &mut statements.insert_line,
            id,
            p,
            Some(&mut self.batch.postings),
        )?;
        if p.has_line {
            self.trees
                .add_game(id, &p.variant, &p.keys, &p.packed, result_tag(p))?;
        }
        self.next_id += 1;
        let batch = &mut self.batch;
        batch.first.get_or_insert(id);
        let opened = *batch.opened.get_or_insert_with(std::time::Instant::now);
        batch.games += 1;
        batch.content.extend_from_slice(&p.hash);
        batch
            .moves
            .extend_from_slice(&p.moves_hash.unwrap_or([0; HASH_BYTES]));
        summary.imported += 1;
        summary.invalid += u64::from(!p.valid);
        summary.warned += u64::from(p.valid && p.warnings > 0);
        if batch.games >= BATCH || opened.elapsed() >= BATCH_TIME {
            self.commit()?;
            if self.unchecked >= CHECKPOINT_GAMES {
                self.checkpoint()?;
            }
        }
        Ok(Some(id))
    }

    /// The value of a game's `original_zstd` and its frame's id (the frame
    /// written first when it is not yet).
    fn stored_value<'a>(
        &mut self,
        raw: &[u8],
        packed: Packed<'a>,
        p: &Prepared,
    ) -> Result<(std::borrow::Cow<'a, [u8]>, Option<i64>), DbError> {
        use std::borrow::Cow;
        Ok(match packed {
            Packed::Own(Some(packed)) => (Cow::Borrowed(packed), None),
            Packed::Own(None) => (Cow::Owned(original::pack_game(raw, &p.tags)), None),
            Packed::Framed(frame, placed) => {
                let id = match frame.id.get() {
                    Some(id) => *id,
                    None => {
                        let conn = self.conn;
                        conn.prepare_cached("INSERT INTO original_frames (frame) VALUES (?1)")?
                            .execute([&frame.stored])?;
                        *frame.id.get_or_init(|| conn.last_insert_rowid())
                    }
                };
                (Cow::Owned(placed.value()), Some(id))
            }
        })
    }

    /// The id in `sources` of the file `path`.
    fn source_id(&mut self, path: &str) -> Result<i64, DbError> {
        if let Some(&s) = self.sources.get(path) {
            return Ok(s);
        }
        let s = source_id(self.conn, path)?;
        self.sources.insert(path.to_string(), s);
        Ok(s)
    }

    /// Stores `p` in place of stored invalid game `id`, whose text it has
    /// (read from `source` as `raw`): the game's row and main line written
    /// again, its hashes rewritten, its entries in the index and the trees
    /// it counts in noted for the commit ([`Replaced::write`]).
    fn replace(
        &mut self,
        id: i64,
        source: &str,
        raw: &[u8],
        packed: Packed<'_>,
        p: &Prepared,
        summary: &mut ImportSummary,
    ) -> Result<i64, DbError> {
        let old_keys = reimport::stored_keys(self.conn, self.registry, id)?;
        let source = self.source_id(source)?;
        let (value, frame) = self.stored_value(raw, packed, p)?;
        let conn = self.conn;
        conn.prepare_cached("DELETE FROM moves WHERE game = ?1")?
            .execute([id])?;
        conn.prepare_cached("DELETE FROM games WHERE id = ?1")?
            .execute([id])?;
        let statements = &mut self.statements;
        insert_game(&mut statements.insert_game, id, source, (&value, frame), p)?;
        // Its positions are in the index already or noted below.
        store_line(&mut statements.insert_line, id, p, None)?;
        let game = u32::try_from(id).map_err(|_| DbError::Full { game: id })?;
        let new_keys: &[u64] = if p.has_line { &p.keys } else { &[] };
        let trees = &self.trees;
        self.replaced
            .note(game, old_keys.as_deref(), new_keys, |k| trees.has_tree(k));
        let hashes = self.stored_hashes.get_or_insert_with(Default::default);
        reimport::rewrite_hashes(
            self.conn,
            hashes,
            id,
            p.hash,
            p.moves_hash.unwrap_or([0; HASH_BYTES]),
        )?;
        summary.replaced += 1;
        summary.invalid += u64::from(!p.valid);
        summary.warned += u64::from(p.valid && p.warnings > 0);
        let batch = &mut self.batch;
        batch.replaced += 1;
        let opened = *batch.opened.get_or_insert_with(std::time::Instant::now);
        if batch.games + batch.replaced >= BATCH || opened.elapsed() >= BATCH_TIME {
            self.commit()?;
            if self.unchecked >= CHECKPOINT_GAMES {
                self.checkpoint()?;
            }
        }
        Ok(id)
    }

    /// Writes the batch's hashes and postings and commits it.
    fn commit(&mut self) -> Result<(), DbError> {
        if !self.in_transaction {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.batch);
        if let Some(first) = batch.first {
            let mut insert = self.conn.prepare_cached(
                "INSERT INTO game_hashes (first_game, content, moves) VALUES (?1, ?2, ?3)",
            )?;
            let row = HASH_ROW_GAMES * HASH_BYTES;
            for (i, (content, moves)) in batch
                .content
                .chunks(row)
                .zip(batch.moves.chunks(row))
                .enumerate()
            {
                let first_game = first + (i * HASH_ROW_GAMES) as i64;
                insert.execute(params![first_game, content, moves])?;
            }
            drop(insert);
            batch
                .postings
                .store(self.conn, first, self.fit, self.threads)?;
            self.trees.write(self.conn)?;
        }
        // After the new games' rows and trees: the trees the replaced
        // games count in are counted again from everything stored.
        std::mem::take(&mut self.replaced).write(self.conn, self.registry, self.fit)?;
        self.conn.execute_batch("COMMIT")?;
        self.in_transaction = false;
        self.unchecked += batch.games + batch.replaced;
        if let Some(h) = self.stored_hashes.as_mut() {
            h.next_id = self.next_id;
        }
        Ok(())
    }

    /// Commits the last batch and checkpoints the write-ahead log (as far
    /// as readers allow: it never waits for them).
    ///
    /// # Errors
    /// SQLite errors.
    pub fn finish(mut self) -> Result<(), DbError> {
        self.commit()?;
        self.checkpoint()
    }

    /// Copies the log into the database as far as readers allow (it never
    /// waits for them), so that the next transactions reuse the log.
    fn checkpoint(&mut self) -> Result<(), DbError> {
        let _: (i64, i64, i64) =
            self.conn
                .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })?;
        self.unchecked = 0;
        Ok(())
    }
}

impl Drop for Importer<'_> {
    fn drop(&mut self) {
        if self.in_transaction {
            // An error left the batch half written: none of it stays, and
            // the hashes it added are forgotten with the set.
            let _ = self.conn.execute_batch("ROLLBACK");
            *self.stored_hashes = None;
        }
        let _ = self.conn.pragma_update(None, "wal_autocheckpoint", 1000);
    }
}

/// The id of `path` in `sources`, added if new.
fn source_id(conn: &Connection, path: &str) -> Result<i64, DbError> {
    conn.prepare_cached("INSERT OR IGNORE INTO sources (path) VALUES (?1)")?
        .execute([path])?;
    Ok(conn
        .prepare_cached("SELECT id FROM sources WHERE path = ?1")?
        .query_row([path], |r| r.get(0))?)
}

/// The statements an import runs for each game it stores.
struct Statements<'c> {
    /// [`insert_game`]'s.
    insert_game: Statement<'c>,
    /// [`store_line`]'s.
    insert_line: Statement<'c>,
}

impl<'c> Statements<'c> {
    fn prepare(conn: &'c Connection) -> Result<Statements<'c>, DbError> {
        Ok(Statements {
            insert_game: conn.prepare(
                "INSERT INTO games (id, variant, event, site, date, round, white, black, result, plies,
                                    status, diagnostic, source, source_line, roster, more_tags,
                                    diagnostics, warnings, original_zstd, eco, opening, frame)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                         ?18, ?19, ?20, ?21, ?22)",
            )?,
            insert_line: conn.prepare(
                "INSERT INTO moves (game, packed, start, result) VALUES (?1, ?2, ?3, ?4)",
            )?,
        })
    }
}

/// Inserts the row of game `id` with `insert` ([`Statements`]), read from
/// the file of `source` (its id in `sources`), its original text stored
/// as `(value, frame)`.
fn insert_game(
    insert: &mut Statement<'_>,
    id: i64,
    source: i64,
    (value, frame): (&[u8], Option<i64>),
    p: &Prepared,
) -> Result<(), DbError> {
    // The seven columns and the framed form's test in one pass over the
    // pairs.
    let seven = tags::Roster::of(&p.tags);
    let [event, site, date, round, white, black, result] = seven.values;
    let (roster, more_tags) = match frame {
        Some(_) => tags::split_framed(&seven, &p.tags),
        None => {
            let (roster, more) = tags::split(&p.tags);
            (i64::from(roster), more)
        }
    };
    insert.execute(params![
        id,
        p.variant,
        event,
        site,
        date,
        round,
        white,
        black,
        result,
        p.plies as i64,
        if p.valid { "valid" } else { "invalid" },
        p.diagnostic,
        source,
        p.line as i64,
        roster,
        more_tags,
        if p.diagnostics.is_empty() {
            "[]".to_string()
        } else {
            diagnostics_json(&p.diagnostics)
        },
        p.warnings as i64,
        value,
        p.opening.as_ref().map(|o| o.eco.as_str()),
        p.opening.as_ref().map(|o| o.name.as_str()),
        frame,
    ])?;
    Ok(())
}

/// The `Result` tag of `p` (the `result` column of `moves`).
fn result_tag(p: &Prepared) -> Option<&str> {
    p.tags.get("Result")
}

/// Stores the main line of game `id` (as far as it replays) with
/// `insert` ([`Statements`]) and queues its positions for the index in
/// `postings`, when given.
fn store_line(
    insert: &mut Statement<'_>,
    id: i64,
    p: &Prepared,
    postings: Option<&mut postings::BatchPostings>,
) -> Result<(), DbError> {
    if !p.has_line {
        return Ok(());
    }
    let result = result_tag(p);
    insert.execute(params![id, p.packed, p.start, result])?;
    let game = u32::try_from(id).map_err(|_| DbError::Full { game: id })?;
    let Some(postings) = postings else {
        return Ok(());
    };
    // Positions past ply 65,535 (no real game) are left out of the index.
    postings.extend(
        p.keys
            .iter()
            .take(usize::from(u16::MAX) + 1)
            .enumerate()
            .map(|(ply, &key)| Posting {
                key,
                game,
                ply: ply as u16,
            }),
    );
    Ok(())
}

impl Database {
    /// Imports every game of `input` (named `source` in diagnostics and in
    /// `sources`), calling `progress` after each game with
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
        let registry = Arc::clone(&self.registry);
        let mut importer = self.importer()?;
        // Games in chunks as `import_files` splits them, their texts packed
        // together the same way.
        let mut chunk: Vec<Read> = Vec::new();
        let mut bytes = 0;
        let mut store = |chunk: &mut Vec<Read>, importer: &mut Importer<'_>| {
            pack_chunk(chunk, 1);
            for read in chunk.drain(..) {
                let p = &read.prepared;
                let id = importer.store_packed(source, &read.raw, read.packed(), p, summary)?;
                report(&GameReport {
                    number: read.number,
                    line: p.line,
                    id,
                    valid: p.valid,
                    diagnostics: &p.diagnostics,
                });
                progress(summary);
            }
            Ok::<_, DbError>(())
        };
        let mut splitter = GameSplitter::new(input);
        while let Some(next) = splitter.next_game() {
            let game = match next {
                Ok(game) => game,
                Err(e) => {
                    // The games read before the error stay.
                    store(&mut chunk, &mut importer)?;
                    importer.commit()?;
                    return Err(DbError::Io {
                        path: source.to_string(),
                        source: e,
                    });
                }
            };
            bytes += game.raw.len();
            // Replayed as read, as `import_files` does: no tree of the moves.
            chunk.push(Read {
                number: game.number,
                packed: PackedText::Own(None),
                prepared: prepare_bytes(&registry, source, &game),
                raw: game.raw.to_vec(),
            });
            if chunk_is_whole(chunk.len(), bytes) {
                store(&mut chunk, &mut importer)?;
                bytes = 0;
            }
        }
        store(&mut chunk, &mut importer)?;
        importer.finish()
    }
}

/// How a game's text comes to the writer.
pub(crate) enum Packed<'a> {
    /// In a frame of its own ([`original::pack_game`]), or not packed yet
    /// (`None`: the writer packs it if it stores the game).
    Own(Option<&'a [u8]>),
    /// In a frame shared with the games around it.
    Framed(&'a SharedFrame, original::Placed),
}

/// A frame of the texts of consecutive games ([`original::pack_frames`]),
/// written once, before the first of its games that is stored.
pub(crate) struct SharedFrame {
    stored: Vec<u8>,
    /// Its id in `original_frames`, once written.
    id: OnceLock<i64>,
}

/// A game's text as a worker packed it.
enum PackedText {
    Own(Option<Vec<u8>>),
    Framed(Arc<SharedFrame>, original::Placed),
}

/// One game read and prepared by a worker thread, for the writer.
struct Read {
    number: usize,
    raw: Vec<u8>,
    /// Its text packed by the worker, with the texts of the games next to
    /// it in its chunk ([`pack_chunk`]); a long game's compressed alone,
    /// by the worker when there are several, so the one writer does not
    /// (with one thread the writer compresses only the games it stores,
    /// not the duplicates).
    packed: PackedText,
    prepared: Prepared,
}

impl Read {
    fn packed(&self) -> Packed<'_> {
        match &self.packed {
            PackedText::Own(own) => Packed::Own(own.as_deref()),
            PackedText::Framed(frame, placed) => Packed::Framed(frame, *placed),
        }
    }
}

/// Packs the texts of a chunk of consecutive games together
/// ([`original::pack_frames`]); with `jobs` > 1, those that keep a frame
/// of their own too.
fn pack_chunk(reads: &mut [Read], jobs: usize) {
    let framed = original::pack_frames(reads.iter().map(|r| &r.raw[..]));
    let frames: Vec<Arc<SharedFrame>> = framed
        .frames
        .into_iter()
        .map(|stored| {
            Arc::new(SharedFrame {
                stored,
                id: OnceLock::new(),
            })
        })
        .collect();
    for (read, place) in reads.iter_mut().zip(framed.places) {
        read.packed = match place {
            Some((frame, placed)) => PackedText::Framed(Arc::clone(&frames[frame]), placed),
            None => PackedText::Own(
                (jobs > 1).then(|| original::pack_game(&read.raw, &read.prepared.tags)),
            ),
        };
    }
}

impl Database {
    /// Imports every game of `inputs` (opened by `open`, named by their
    /// paths in diagnostics and in `sources`) with `jobs`
    /// threads reading, replaying and preparing games while this one
    /// stores them, in input order: the database is the same, ids
    /// included, for any number of jobs. `progress` is called after each
    /// game with its input's index and the running summary; `report` is
    /// told what became of each game.
    ///
    /// # Errors
    /// An input that cannot be opened or read, or an SQLite error; every
    /// batch committed before it stays. An input whose reading fails part
    /// way (a compressed file cut short or damaged) stops the import after
    /// its games read before the failure are committed.
    pub fn import_files(
        &mut self,
        inputs: &[String],
        open: &Open<'_>,
        jobs: usize,
        summary: &mut ImportSummary,
        progress: &mut dyn FnMut(usize, &ImportSummary),
        report: &mut dyn FnMut(usize, &GameReport<'_>),
    ) -> Result<(), DbError> {
        let registry = Arc::clone(&self.registry);
        let mut importer = self.importer()?;
        importer.threads = jobs.max(1);
        // Replayed as read: no tree of the moves is built.
        let read = |input: usize, text: &GameBytes<'_>| {
            let (prepared, ends_at_result) =
                prepare_bytes_to_end(&registry, &inputs[input], text, LineTexts::default());
            let read = Read {
                number: text.number,
                packed: PackedText::Own(None),
                raw: text.raw.to_vec(),
                prepared,
            };
            (read, ends_at_result)
        };
        map_game_chunks_reading_once(
            inputs,
            open,
            jobs,
            |input, text| read(input, text).0,
            |input, text| match read(input, text) {
                (read, true) => Some(read),
                (_, false) => None,
            },
            |reads| pack_chunk(reads, jobs),
            |event| match event {
                Event::Game { input, value } => {
                    let source = &inputs[input];
                    let p = &value.prepared;
                    let id =
                        importer.store_packed(source, &value.raw, value.packed(), p, summary)?;
                    report(
                        input,
                        &GameReport {
                            number: value.number,
                            line: p.line,
                            id,
                            valid: p.valid,
                            diagnostics: &p.diagnostics,
                        },
                    );
                    progress(input, summary);
                    Ok(())
                }
                Event::Unopened { input, error } => Err(DbError::Io {
                    path: inputs[input].clone(),
                    source: error,
                }),
                Event::Failed { input, error } => {
                    // The games read before the failure (those of a
                    // compressed file before its damage) stay.
                    importer.commit()?;
                    Err(DbError::Io {
                        path: inputs[input].clone(),
                        source: error,
                    })
                }
            },
        )?;
        importer.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = "[Event \"a\"]\n[White \"W\"]\n1. e4 e5 2. Nf3 Nc6 *\n\n\
        [Event \"b\"]\n1. Nf3 Nc6 2. e4 e5 1-0\n\n\
        [Event \"c\"]\n1. e4 Ke7 *\n\n\
        1. e4 {unclosed\n";

    /// Games are prepared on worker threads and stored by one writer.
    #[test]
    fn prepared_games_can_cross_threads() {
        fn sendable<T: Send>() {}
        sendable::<Prepared>();
        sendable::<Database>();
    }

    /// Each import loads the stored hashes once per connection; a second
    /// connection that wrote meanwhile is caught up with, so its games are
    /// found stored too.
    #[test]
    fn games_another_connection_stored_are_duplicates() {
        let path = std::env::temp_dir().join(format!("xpgn-hashes-{}.db", std::process::id()));
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
        }
        let mut a = Database::open(&path).unwrap();
        let mut b = Database::open(&path).unwrap();
        let mut s = ImportSummary::default();
        a.import("a", GAMES.as_bytes(), &mut s, &mut |_| {})
            .unwrap();
        let mut s = ImportSummary::default();
        b.import("b", GAMES.as_bytes(), &mut s, &mut |_| {})
            .unwrap();
        assert_eq!((s.imported, s.duplicates), (0, 4));
        let more = "[Event \"d\"]\n1. d4 d5 *\n";
        let mut s = ImportSummary::default();
        b.import("b", more.as_bytes(), &mut s, &mut |_| {}).unwrap();
        assert_eq!(s.imported, 1);
        // `a` loaded its set before `b` stored this game.
        let mut s = ImportSummary::default();
        a.import("a", more.as_bytes(), &mut s, &mut |_| {}).unwrap();
        assert_eq!((s.imported, s.duplicates), (0, 1));
        drop((a, b));
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
        }
    }

    #[test]
    fn the_games_read_before_a_read_error_are_stored_framed_together() {
        /// A reader whose every read fails.
        struct Failing;
        impl std::io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("broken"))
            }
        }
        let games: String = (0..3)
            .map(|i| format!("[Event \"{i}\"]\n1. e4 e5 *\n\n"))
            .collect();
        let input = std::io::BufReader::new(std::io::Read::chain(games.as_bytes(), Failing));
        let mut db = Database::in_memory().unwrap();
        let mut summary = ImportSummary::default();
        let failed = db.import("t.pgn", input, &mut summary, &mut |_| {});
        assert!(matches!(failed, Err(DbError::Io { .. })), "{failed:?}");
        // The third game may be cut short by the failure.
        assert!(summary.imported >= 2, "{summary:?}");
        let (games, frames): (i64, i64) = db
            .conn
            .query_row(
                "SELECT count(*), count(DISTINCT frame) FROM games",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((games as u64, frames), (summary.imported, 1));
    }

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
        // and its one ply before the fault (docs/notation.md §11).
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
        let (diag, id): (String, i64) = db
            .conn
            .query_row(
                "SELECT diagnostic, id FROM games WHERE status = 'invalid' AND variant = 'chess'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        let original = db.stored_game(id).unwrap().unwrap().original;
        assert!(
            diag.starts_with("t.pgn:9:7: game 3, ply 2: `Ke7`"),
            "{diag}"
        );
        // Its bytes run to the next game: the blank line is the game's.
        assert_eq!(original, b"[Event \"c\"]\n1. e4 Ke7 *\n\n");
    }
}
