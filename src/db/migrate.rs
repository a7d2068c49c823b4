//! Schema migrations: an append-only list, tracked by `PRAGMA user_version`.
//! The version is read first and nothing more happens when it is current
//! and xpgn's application id is set (a database that needs no upgrade is
//! never locked for one); all that
//! are due run in one `BEGIN IMMEDIATE` transaction, which waits for any
//! other writer, and the version is read again inside it (another process
//! may have upgraded it meanwhile), and the application id is set in
//! the same transaction; running them again does nothing. A migration is
//! SQL, and may have a code step where SQL alone cannot compute a new
//! column (version 2 replays every game). Only writers migrate: the
//! caller has told the file is empty or xpgn's (`identify` in the parent
//! module).

use rusqlite::types::Value;
use rusqlite::{Connection, Transaction, TransactionBehavior, params};

use super::APPLICATION_ID;
use super::error::DbError;
use super::import::{HASH_BYTES, HASH_ROW_GAMES};
use super::packed;
use super::postings::{self, Posting, legacy};
use super::{original, tags};
use crate::notation::coord::resolve_coord;
use crate::notation::position::read_position;
use crate::notation::reader::read_games;
use crate::record::{LineTexts, Prepared, diagnostics_json, prepare_with};
use crate::rules::{Position, Variant};

/// One step of a migration.
enum Step {
    Sql(&'static str),
    Code(fn(&Transaction<'_>) -> Result<(), DbError>),
}

/// The migrations, in order; entry `i` brings the schema to version `i + 1`.
/// Never edit one that has shipped: add a new one.
const MIGRATIONS: &[&[Step]] = &[
    &[Step::Sql(include_str!("sql/001_initial.sql"))],
    &[
        Step::Sql(include_str!("sql/002_packed_moves.sql")),
        Step::Code(fill_packed),
        Step::Sql(include_str!("sql/002_drop_coord.sql")),
    ],
    &[
        Step::Sql(include_str!("sql/003_position_postings.sql")),
        Step::Code(fill_postings),
        Step::Code(fill_tags),
        Step::Sql(include_str!("sql/003_drop_positions.sql")),
    ],
    &[
        Step::Sql(include_str!("sql/004_diagnostics.sql")),
        Step::Code(reread_games),
    ],
    &[Step::Sql(include_str!("sql/005_variant_definitions.sql"))],
    &[
        Step::Sql(include_str!("sql/006_compact.sql")),
        Step::Code(fill_hashes),
        Step::Code(compact_postings),
        Step::Sql(include_str!("sql/006_rebuild.sql")),
    ],
    &[
        Step::Sql(include_str!("sql/007_pack.sql")),
        Step::Code(pack_originals),
        Step::Code(cut_postings),
        Step::Sql(include_str!("sql/007_drop_raw.sql")),
    ],
    &[Step::Sql(include_str!("sql/008_opening_tree.sql"))],
    &[
        Step::Sql(include_str!("sql/009_openings.sql")),
        Step::Code(name_openings),
    ],
    &[Step::Sql(include_str!("sql/010_invalid_games.sql"))],
    &[Step::Code(elide_tag_sections)],
    &[Step::Sql(include_str!("sql/012_original_frames.sql"))],
];

/// The schema the migrations build from an empty file, in one script.
const CURRENT: &str = include_str!("sql/current.sql");

/// Games per batch of the position index as migrations 3 and 4 wrote it
/// (the import batch of schemas 3 to 5).
const LEGACY_BATCH: u64 = 1000;

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings the schema of `conn` up to [`SCHEMA_VERSION`].
///
/// # Errors
/// SQLite errors, a database newer than this build, or a stored game that
/// no longer replays.
pub fn migrate(conn: &mut Connection) -> Result<(), DbError> {
    migrate_to(conn, SCHEMA_VERSION)
}

/// Brings the schema of `conn` up to `target` (tests stop at each earlier
/// version, to upgrade from there).
fn migrate_to(conn: &mut Connection, target: i64) -> Result<(), DbError> {
    let too_new = |version: i64| DbError::TooNew {
        found: version,
        known: SCHEMA_VERSION,
    };
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(too_new(version));
    }
    let id: i64 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
    if version >= target && id == APPLICATION_ID {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(too_new(version));
    }
    let empty = version == 0 && {
        let objects: i64 = tx.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
        objects == 0
    };
    if empty && target == SCHEMA_VERSION {
        // A new database: the current schema at once, not twelve steps.
        tx.execute_batch(CURRENT)?;
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    }
    let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    for (i, steps) in MIGRATIONS
        .iter()
        .enumerate()
        .take(target as usize)
        .skip(version as usize)
    {
        for step in *steps {
            match step {
                Step::Sql(sql) => tx.execute_batch(sql)?,
                Step::Code(f) => f(&tx)?,
            }
        }
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
    }
    // Made by xpgn, or recognised as made by one before the id was set.
    tx.pragma_update(None, "application_id", APPLICATION_ID)?;
    tx.commit()?;
    Ok(())
}

/// The `start` column: the position string of a start that is not the
/// variant's own start position.
pub(crate) use crate::record::start_text;

/// Version 2: packs every stored main line by replaying its version-1
/// coordinate text from the game's start (its `FEN` tag, if any).
fn fill_packed(tx: &Transaction<'_>) -> Result<(), DbError> {
    let mut rows = tx.prepare(
        "SELECT m.game, g.variant, m.coord,
                (SELECT value FROM tags t WHERE t.game = m.game AND t.name = 'FEN')
         FROM moves m JOIN games g ON g.id = m.game",
    )?;
    let mut update = tx.prepare("UPDATE moves SET packed = ?2, start = ?3 WHERE game = ?1")?;
    let mut query = rows.query([])?;
    while let Some(row) = query.next()? {
        let game: i64 = row.get(0)?;
        let variant: String = row.get(1)?;
        let coord: String = row.get(2)?;
        let fen: Option<String> = row.get(3)?;
        let fail = |message: String| DbError::Migration {
            version: 2,
            game,
            message,
        };
        let variant = Variant::by_name(&variant)
            .ok_or_else(|| fail(format!("unknown variant `{variant}`")))?;
        let start = match &fen {
            Some(f) => read_position(&variant, f).map_err(|e| fail(format!("FEN tag: {e}")))?,
            None => Position::start(&variant),
        };
        let mut pos = start.clone();
        let mut bytes = Vec::with_capacity(coord.len());
        for (i, text) in coord.split_whitespace().enumerate() {
            let m = resolve_coord(&pos, text)
                .map_err(|e| fail(format!("ply {} `{text}`: {e}", i + 1)))?;
            packed::encode(&m, &mut bytes);
            pos.play_unchecked(&m);
        }
        update.execute(params![game, bytes, start_text(&start)])?;
    }
    Ok(())
}

/// Version 3: the rows of `positions` become posting lists, one batch
/// per [`LEGACY_BATCH`] games as an import would have written them.
fn fill_postings(tx: &Transaction<'_>) -> Result<(), DbError> {
    let mut rows = tx.prepare("SELECT key, game, ply FROM positions ORDER BY game, ply")?;
    let mut query = rows.query([])?;
    let mut batch: Vec<Posting> = Vec::new();
    let mut first_game: Option<i64> = None;
    let mut games_in_batch = 0;
    let mut last_game = None;
    while let Some(row) = query.next()? {
        let (key, game, ply): (i64, i64, i64) = (row.get(0)?, row.get(1)?, row.get(2)?);
        if last_game != Some(game) {
            last_game = Some(game);
            if games_in_batch == LEGACY_BATCH {
                if let Some(first) = first_game.take() {
                    legacy::store_batch(tx, first, std::mem::take(&mut batch))?;
                }
                games_in_batch = 0;
            }
            first_game.get_or_insert(game);
            games_in_batch += 1;
        }
        let Ok(ply) = u16::try_from(ply) else {
            continue;
        };
        batch.push(Posting {
            key: key as u64,
            game: u32::try_from(game).map_err(|_| DbError::Full { game })?,
            ply,
        });
    }
    if let Some(first) = first_game {
        legacy::store_batch(tx, first, batch)?;
    }
    Ok(())
}

/// Version 3: each game's rows of `tags` become its `tags` column.
fn fill_tags(tx: &Transaction<'_>) -> Result<(), DbError> {
    let mut rows = tx.prepare("SELECT game, name, value FROM tags ORDER BY game, idx")?;
    let mut update = tx.prepare("UPDATE games SET tags = ?2 WHERE id = ?1")?;
    let mut query = rows.query([])?;
    let mut current: Option<(i64, Vec<(String, String)>)> = None;
    while let Some(row) = query.next()? {
        let game: i64 = row.get(0)?;
        if current.as_ref().is_some_and(|(g, _)| *g != game)
            && let Some((g, tags)) = current.take()
        {
            update.execute(params![g, tags_json(&tags)])?;
        }
        current
            .get_or_insert_with(|| (game, Vec::new()))
            .1
            .push((row.get(1)?, row.get(2)?));
    }
    if let Some((g, tags)) = current {
        update.execute(params![g, tags_json(&tags)])?;
    }
    Ok(())
}

/// The columns of a game's row that migration 4 rewrites, in the order of
/// [`v4_values`] (the schema-4 columns an import then wrote).
const V4_COLUMNS: [&str; 17] = [
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

/// The values of [`V4_COLUMNS`] for a prepared game stored under `hash`.
fn v4_values(p: &Prepared, hash: &[u8]) -> Vec<Value> {
    let tag = |name: &str| {
        p.tags
            .get(name)
            .map_or(Value::Null, |v| Value::Text(v.to_string()))
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

/// Version 4: every game read again from its original bytes by the
/// forgiving reader: status, diagnostics, tags, the main line (for invalid
/// games too, up to the fault), the position index, and the content hash
/// that ignores tag order, white space and notation. Two stored games that
/// this hash finds equal are both kept, the later one under a hash of its
/// own (nothing stored is dropped by a migration).
fn reread_games(tx: &Transaction<'_>) -> Result<(), DbError> {
    use sha2::{Digest, Sha256};
    tx.execute_batch("DELETE FROM moves; DELETE FROM position_postings;")?;
    let mut rows = tx.prepare("SELECT id, source_file, original FROM games ORDER BY id")?;
    let mut taken = tx.prepare("SELECT 1 FROM games WHERE hash = ?1 AND id != ?2")?;
    let sets: Vec<String> = V4_COLUMNS
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{c} = ?{}", i + 2))
        .collect();
    let mut update = tx.prepare(&format!(
        "UPDATE games SET {} WHERE id = ?1",
        sets.join(", ")
    ))?;
    let mut insert_line =
        tx.prepare("INSERT INTO moves (game, san, packed, start) VALUES (?1, ?2, ?3, ?4)")?;
    let mut query = rows.query([])?;
    let (mut batch, mut postings, mut in_batch) = (None, Vec::new(), 0u64);
    // Schema 4 stored no definitions: its games are of built-in variants.
    let registry = crate::rules::Registry::builtin();
    while let Some(row) = query.next()? {
        let id: i64 = row.get(0)?;
        let source: String = row.get(1)?;
        let original: Vec<u8> = row.get(2)?;
        let Some(Ok((text, game))) = read_games(&original[..]).next() else {
            continue;
        };
        let texts = LineTexts {
            san: true,
            coord: false,
        };
        let p = prepare_with(&registry, &source, &text, game, texts);
        let mut hash = p.hash;
        if taken.exists(params![&hash[..], id])? {
            let mut h = Sha256::new();
            h.update(hash);
            h.update(id.to_le_bytes());
            hash = h.finalize().into();
        }
        let mut values = vec![Value::Integer(id)];
        values.extend(v4_values(&p, &hash));
        update.execute(rusqlite::params_from_iter(values))?;
        if p.has_line {
            insert_line.execute(params![id, p.san, p.packed, p.start])?;
            let game = u32::try_from(id).map_err(|_| DbError::Full { game: id })?;
            for (ply, &key) in p.keys.iter().enumerate().take(usize::from(u16::MAX) + 1) {
                postings.push(Posting {
                    key,
                    game,
                    ply: ply as u16,
                });
            }
        }
        batch.get_or_insert(id);
        in_batch += 1;
        if in_batch >= LEGACY_BATCH {
            if let Some(first) = batch.take() {
                legacy::store_batch(tx, first, std::mem::take(&mut postings))?;
            }
            in_batch = 0;
        }
    }
    if let Some(first) = batch {
        legacy::store_batch(tx, first, postings)?;
    }
    Ok(())
}

/// Version 6: `game_hashes` from `games.hash` and `games.moves_hash`, one
/// row per run of up to [`HASH_ROW_GAMES`] consecutive ids.
fn fill_hashes(tx: &Transaction<'_>) -> Result<(), DbError> {
    let mut rows = tx.prepare("SELECT id, hash, moves_hash FROM games ORDER BY id")?;
    let mut insert =
        tx.prepare("INSERT INTO game_hashes (first_game, content, moves) VALUES (?1, ?2, ?3)")?;
    let mut query = rows.query([])?;
    // (first id, next id, content hashes, moves hashes)
    let mut run: Option<(i64, i64, Vec<u8>, Vec<u8>)> = None;
    while let Some(row) = query.next()? {
        let id: i64 = row.get(0)?;
        let hash: Vec<u8> = row.get(1)?;
        let moves: Option<Vec<u8>> = row.get(2)?;
        let fail = |message: &str| DbError::Migration {
            version: 6,
            game: id,
            message: message.to_string(),
        };
        if hash.len() != HASH_BYTES {
            return Err(fail("the content hash is not 32 bytes"));
        }
        let moves = moves.unwrap_or_else(|| vec![0; HASH_BYTES]);
        if moves.len() != HASH_BYTES {
            return Err(fail("the moves hash is not 32 bytes"));
        }
        let full = |r: &(i64, i64, Vec<u8>, Vec<u8>)| {
            r.1 != id || r.2.len() >= HASH_ROW_GAMES * HASH_BYTES
        };
        if let Some(r) = run.take_if(|r| full(r)) {
            insert.execute(params![r.0, r.2, r.3])?;
        }
        let r = run.get_or_insert_with(|| (id, id, Vec::new(), Vec::new()));
        r.1 = id + 1;
        r.2.extend_from_slice(&hash);
        r.3.extend_from_slice(&moves);
    }
    if let Some(r) = run {
        insert.execute(params![r.0, r.2, r.3])?;
    }
    Ok(())
}

/// Version 9: the opening of every stored game of orthodox chess, named
/// from its packed main line (from its `FEN` start, if any) as an import
/// names it now.
fn name_openings(tx: &Transaction<'_>) -> Result<(), DbError> {
    let chess = Variant::chess();
    let mut rows = tx.prepare(
        "SELECT m.game, m.packed, m.start FROM moves m JOIN games g ON g.id = m.game
         WHERE g.variant = ?1",
    )?;
    let mut update = tx.prepare("UPDATE games SET eco = ?2, opening = ?3 WHERE id = ?1")?;
    let mut query = rows.query([chess.name()])?;
    while let Some(row) = query.next()? {
        let game: i64 = row.get(0)?;
        let packed_line: Vec<u8> = row.get(1)?;
        let start: Option<String> = row.get(2)?;
        let fail = |message: String| DbError::Migration {
            version: 9,
            game,
            message,
        };
        let mut pos = match &start {
            Some(text) => read_position(chess.clone(), text).map_err(|e| fail(e.to_string()))?,
            None => Position::start(chess.clone()),
        };
        let mut keys = vec![pos.key()];
        for (i, m) in packed::Decoder::new(&chess, &packed_line).enumerate() {
            let m = m.map_err(|e| fail(e.to_string()))?;
            if m.is_null() {
                // Positions after a null move are no positions of the game (R-0-6).
                break;
            }
            packed::play(&mut pos, &m, i + 1).map_err(|e| fail(e.to_string()))?;
            keys.push(pos.key());
        }
        if let Some(opening) = crate::record::classify(&chess, &keys) {
            update.execute(params![game, opening.eco, opening.name])?;
        }
    }
    Ok(())
}

/// Version 6: every posting row written again in the compact form.
fn compact_postings(tx: &Transaction<'_>) -> Result<(), DbError> {
    let mut rows = tx.prepare("SELECT bucket, batch, entries FROM position_postings")?;
    let mut insert = tx.prepare(
        "INSERT INTO position_postings_new (bucket, batch, count, entries) VALUES (?1, ?2, ?3, ?4)",
    )?;
    let mut query = rows.query([])?;
    while let Some(row) = query.next()? {
        let (bucket, batch): (i64, i64) = (row.get(0)?, row.get(1)?);
        let mut entries: Vec<Posting> = legacy::entries(super::query::blob(row, 2)?).collect();
        entries.sort_unstable();
        let blob = postings::encode(&entries);
        insert.execute(params![bucket, batch, entries.len() as i64, blob])?;
    }
    Ok(())
}

/// The `tags` column of schemas 3 to 6: a game's tag pairs as a JSON
/// array of pairs.
fn tags_json(tags: &(impl tags::Pairs + ?Sized)) -> String {
    tags::json(tags.pairs())
}

/// Version 7: each row of the position index cut into pieces that fill
/// their pages ([`postings::pieces`]), under its own bucket and batch.
fn cut_postings(tx: &Transaction<'_>) -> Result<(), DbError> {
    let fit = postings::PageFit::of(tx)?;
    let mut rows =
        tx.prepare("SELECT bucket, batch, entries FROM position_postings ORDER BY bucket, batch")?;
    let mut insert = tx.prepare(
        "INSERT INTO position_postings_new (bucket, batch, piece, count, entries)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    let mut query = rows.query([])?;
    while let Some(row) = query.next()? {
        let (bucket, batch): (i64, i64) = (row.get(0)?, row.get(1)?);
        let entries = postings::entries(super::query::blob(row, 2)?);
        for (piece, count, blob) in
            postings::pieces(bucket, batch, &entries, fit, postings::MOST_PER_ROW)
        {
            insert.execute(params![bucket, batch, piece, count as i64, blob])?;
        }
    }
    Ok(())
}

/// Version 7: every game's original packed ([`original::pack`]) and its
/// tags split into the roster flag and the rest ([`tags::split`]). Each
/// packed original is unpacked again and compared before it is written:
/// an upgrade never loses a byte of what the user gave.
fn pack_originals(tx: &Transaction<'_>) -> Result<(), DbError> {
    let mut rows = tx.prepare("SELECT id, tags, original FROM games ORDER BY id")?;
    let mut update = tx.prepare(
        "UPDATE games SET roster = ?2, more_tags = ?3, original_zstd = ?4 WHERE id = ?1",
    )?;
    let mut query = rows.query([])?;
    while let Some(row) = query.next()? {
        let game: i64 = row.get(0)?;
        let all = tags::from_json(row.get_ref(1)?.as_str().unwrap_or("[]"));
        let raw = row
            .get_ref(2)?
            .as_bytes_or_null()
            .ok()
            .flatten()
            .unwrap_or(b"");
        let stored = original::pack(raw);
        if original::unpack(&stored).ok().as_deref() != Some(raw) {
            return Err(DbError::Migration {
                version: 7,
                game,
                message: "the original text does not come back from its compressed form".into(),
            });
        }
        let (roster, more) = tags::split(&all);
        update.execute(params![game, roster, more, stored])?;
    }
    Ok(())
}

/// Version 11: the originals whose tag section renders back from the
/// stored tags are stored without it ([`original::pack_game`]). Each is
/// read back through the stored tags and compared before it is written:
/// an upgrade never loses a byte of what the user gave.
fn elide_tag_sections(tx: &Transaction<'_>) -> Result<(), DbError> {
    let mut rows = tx.prepare(&format!(
        "SELECT g.id, g.original_zstd, {} FROM games g ORDER BY g.id",
        tags::COLUMNS_BEFORE_12
    ))?;
    let mut update = tx.prepare("UPDATE games SET original_zstd = ?2 WHERE id = ?1")?;
    let mut query = rows.query([])?;
    while let Some(row) = query.next()? {
        let game: i64 = row.get(0)?;
        let stored = super::query::blob(row, 1)?;
        let tags = tags::from_row(row, 2)?;
        let raw = original::read(game, stored, &tags)?;
        let elided = original::pack_game(&raw, &tags);
        if elided.first() != Some(&original::TAGS_ELIDED) {
            continue;
        }
        if original::read(game, &elided, &tags)? != raw {
            return Err(DbError::Migration {
                version: 11,
                game,
                message: "the original text does not come back from its tags and the rest".into(),
            });
        }
        update.execute(params![game, elided])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Database;
    use crate::db::import::ImportSummary;
    use crate::db::packed::Decoder;
    use crate::notation::coord::write_coord;

    /// Every sample game (all variants, every special move) and a game
    /// from a FEN tag.
    fn sample_text() -> String {
        let mut text =
            String::from("[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 3 40\"]\n40. a8=Q+ Kd7 41. Qb7+ *\n\n");
        let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples")];
        while let Some(d) = dirs.pop() {
            let mut entries: Vec<_> = std::fs::read_dir(&d)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            entries.sort();
            for p in entries {
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|e| e == "pgn" || e == "xpgn") {
                    text.push_str(&std::fs::read_to_string(&p).unwrap());
                    text.push_str("\n\n");
                }
            }
        }
        text
    }

    type MoveRow = (i64, Vec<u8>, Option<String>);

    fn moves_rows(conn: &Connection) -> Vec<MoveRow> {
        conn.prepare("SELECT game, packed, start FROM moves ORDER BY game")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    /// Per game: id, content hash, moves hash (zeros for none), original.
    type GameRow = (i64, Vec<u8>, Vec<u8>, Vec<u8>);

    fn game_rows(conn: &Connection) -> Vec<GameRow> {
        conn.prepare(&format!(
            "SELECT g.id, substr(h.content, (g.id - h.first_game) * 32 + 1, 32),
                    substr(h.moves, (g.id - h.first_game) * 32 + 1, 32), {}, {}
             FROM games g JOIN game_hashes h
               ON h.first_game = (SELECT MAX(first_game) FROM game_hashes WHERE first_game <= g.id)
             ORDER BY g.id",
            original::ORIGINAL_SQL,
            tags::COLUMNS
        ))
        .unwrap()
        .query_map([], |r| {
            let stored: Vec<u8> = r.get(3)?;
            let id: i64 = r.get(0)?;
            Ok((
                id,
                r.get(1)?,
                r.get(2)?,
                original::read(id, &stored, &tags::from_row(r, 4)?).unwrap(),
            ))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    }

    /// Every game's opening columns.
    fn opening_rows(conn: &Connection) -> Vec<(i64, Option<String>, Option<String>)> {
        conn.prepare("SELECT id, eco, opening FROM games ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    /// Every game's tags.
    fn tag_rows(conn: &Connection) -> Vec<(i64, Vec<(String, String)>)> {
        conn.prepare(&format!(
            "SELECT g.id, {} FROM games g ORDER BY g.id",
            tags::COLUMNS
        ))
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, tags::from_row(r, 1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    }

    /// Every entry of the position index, sorted.
    fn all_postings(conn: &Connection) -> Vec<Posting> {
        let blobs: Vec<Vec<u8>> = conn
            .prepare("SELECT entries FROM position_postings")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut all: Vec<Posting> = blobs.iter().flat_map(|b| postings::entries(b)).collect();
        all.sort_unstable();
        all
    }

    /// A version-1 database holding what `current` holds, its main lines
    /// as coordinate text, as version 1 stored them.
    fn as_version_1(current: &Connection, path: &std::path::Path) {
        let mut v1 = Connection::open(path).unwrap();
        let tx = v1.transaction().unwrap();
        tx.execute_batch(include_str!("sql/001_initial.sql"))
            .unwrap();
        tx.pragma_update(None, "user_version", 1).unwrap();
        type Row = (Vec<rusqlite::types::Value>, Vec<(String, String)>);
        let games: Vec<Row> = current
            .prepare(&format!(
                "SELECT g.id, variant, g.event, g.site, g.date, g.round, g.white, g.black,
                        g.result, plies, status, diagnostic,
                        (SELECT path FROM sources WHERE id = g.source),
                        source_line, {},
                        substr(h.content, (g.id - h.first_game) * 32 + 1, 32), {}
                 FROM games g JOIN game_hashes h
                   ON h.first_game = (SELECT MAX(first_game) FROM game_hashes WHERE first_game <= g.id)
                 ORDER BY g.id",
                original::ORIGINAL_SQL,
                tags::COLUMNS
            ))
            .unwrap()
            .query_map([], |r| {
                Ok((
                    (0..16).map(|i| r.get(i)).collect::<Result<_, _>>()?,
                    tags::from_row(r, 16)?,
                ))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        for (mut g, game_tags) in games {
            if let rusqlite::types::Value::Blob(stored) = &g[14] {
                let raw = original::read(0, stored, &game_tags).unwrap();
                g[14] = rusqlite::types::Value::Blob(raw);
            }
            tx.execute(
                "INSERT INTO games VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
                rusqlite::params_from_iter(g),
            )
            .unwrap();
        }
        for p in all_postings(current) {
            tx.execute(
                "INSERT INTO positions (key, game, ply) VALUES (?1, ?2, ?3)",
                params![p.key as i64, p.game, p.ply],
            )
            .unwrap();
        }
        for (game, tags) in tag_rows(current) {
            for (i, (name, value)) in tags.iter().enumerate() {
                tx.execute(
                    "INSERT INTO tags (game, idx, name, value) VALUES (?1, ?2, ?3, ?4)",
                    params![game, i as i64, name, value],
                )
                .unwrap();
            }
        }
        for (game, packed, start) in moves_rows(current) {
            let variant: String = current
                .query_row("SELECT variant FROM games WHERE id = ?1", [game], |r| {
                    r.get(0)
                })
                .unwrap();
            let variant = Variant::by_name(&variant).unwrap();
            let mut pos = match &start {
                Some(s) => read_position(&variant, s).unwrap(),
                None => Position::start(&variant),
            };
            let (mut coord, mut san) = (Vec::new(), Vec::new());
            for m in Decoder::new(&variant, &packed) {
                let m = m.unwrap();
                coord.push(write_coord(&pos, &m));
                san.push(if m.is_null() {
                    "--".to_string()
                } else {
                    crate::notation::san::write_san(&pos, &m)
                });
                pos.play_unchecked(&m);
            }
            tx.execute(
                "INSERT INTO moves (game, san, coord) VALUES (?1, ?2, ?3)",
                params![game, san.join(" "), coord.join(" ")],
            )
            .unwrap();
        }
        tx.commit().unwrap();
    }

    #[test]
    fn version_1_databases_are_upgraded_in_place_to_what_an_import_stores() {
        let mut fresh = Database::in_memory().unwrap();
        fresh
            .import(
                "samples",
                sample_text().as_bytes(),
                &mut ImportSummary::default(),
                &mut |_| {},
            )
            .unwrap();
        let expected = moves_rows(&fresh.conn);
        let expected_games = game_rows(&fresh.conn);
        let expected_index = all_postings(&fresh.conn);
        let expected_tags = tag_rows(&fresh.conn);
        assert!(expected_tags.iter().any(|(_, t)| t.len() >= 7));
        assert!(expected_index.len() > 1000, "{}", expected_index.len());
        assert!(
            expected.len() >= 20,
            "{} valid sample games",
            expected.len()
        );
        assert!(
            expected[0].2.as_deref() == Some("4k3/P7/8/8/8/8/8/4K3 w - - 3 40"),
            "{:?}",
            expected[0]
        );
        // A start is stored for the games of a FEN tag only (invalid
        // games keep their line up to the fault, so they count too).
        let fen_games: std::collections::HashSet<i64> = expected_tags
            .iter()
            .filter(|(_, t)| t.iter().any(|(n, _)| n == "FEN"))
            .map(|(g, _)| *g)
            .collect();
        assert!(
            expected
                .iter()
                .all(|m| m.2.is_some() == fen_games.contains(&m.0))
        );

        let dir = std::env::temp_dir().join(format!("xpgn-migrate-v1-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("v1.db");
        as_version_1(&fresh.conn, &path);
        for _ in 0..2 {
            let db = Database::open(&path).unwrap();
            assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);
            assert_eq!(moves_rows(&db.conn), expected);
            // Hashes (content and moves) and original bytes, game for game.
            assert_eq!(game_rows(&db.conn), expected_games);
            assert_eq!(all_postings(&db.conn), expected_index);
            assert_eq!(tag_rows(&db.conn), expected_tags);
            let old_table: i64 = db
                .conn
                .query_row(
                    "SELECT COUNT(*) FROM sqlite_master WHERE name = 'positions'",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(old_table, 0);
            let has_coord: i64 = db
                .conn
                .query_row(
                    "SELECT COUNT(*) FROM pragma_table_info('moves') WHERE name = 'coord'",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(has_coord, 0);
        }
        // A re-import of the same games finds every one already stored:
        // the content hash did not change with the schema.
        let mut db = Database::open(&path).unwrap();
        let mut again = ImportSummary::default();
        db.import("samples", sample_text().as_bytes(), &mut again, &mut |_| {})
            .unwrap();
        assert_eq!(again.imported, 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A database left at each earlier version (1 to 6) upgrades to what
    /// an import stores now: every original byte for byte (version 7
    /// compresses them), the tags, hashes, main lines and position index.
    /// Every object of the schema, as SQLite keeps it.
    fn schema_of(conn: &Connection) -> Vec<(String, String, String, Option<String>)> {
        conn.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn a_new_database_has_the_schema_the_migrations_build() {
        let mut new = Connection::open_in_memory().unwrap();
        migrate(&mut new).unwrap();
        let mut stepped = Connection::open_in_memory().unwrap();
        migrate_to(&mut stepped, SCHEMA_VERSION - 1).unwrap();
        migrate_to(&mut stepped, SCHEMA_VERSION).unwrap();
        let schema = schema_of(&new);
        assert!(schema.len() > 10, "{schema:?}");
        assert_eq!(schema, schema_of(&stepped));
        for conn in [&new, &stepped] {
            let (version, id): (i64, i64) = conn
                .query_row(
                    "SELECT * FROM pragma_user_version, pragma_application_id",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap();
            assert_eq!((version, id), (SCHEMA_VERSION, APPLICATION_ID));
        }
    }

    #[test]
    fn every_earlier_version_is_upgraded_with_every_original_kept() {
        let mut fresh = Database::in_memory().unwrap();
        fresh
            .import(
                "samples",
                sample_text().as_bytes(),
                &mut ImportSummary::default(),
                &mut |_| {},
            )
            .unwrap();
        let expected = moves_rows(&fresh.conn);
        let expected_games = game_rows(&fresh.conn);
        let expected_index = all_postings(&fresh.conn);
        let expected_tags = tag_rows(&fresh.conn);
        let expected_openings = opening_rows(&fresh.conn);
        // Version 9 names the orthodox games as an import names them.
        assert!(expected_openings.iter().any(|o| o.1.is_some()));
        assert!(expected_openings.iter().any(|o| o.1.is_none()));
        assert!(expected_games.iter().all(|g| !g.3.is_empty()));
        // Some games carry the roster (which version 7 splits off), others
        // (XPGN samples) not.
        let rosters = expected_tags
            .iter()
            .filter(|(_, t)| tags::split(t).0)
            .count();
        assert!(rosters > 0 && rosters < expected_games.len());
        let dir = std::env::temp_dir().join(format!("xpgn-migrate-each-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for version in 1..SCHEMA_VERSION {
            let path = dir.join(format!("v{version}.db"));
            as_version_1(&fresh.conn, &path);
            {
                let mut conn = Connection::open(&path).unwrap();
                migrate_to(&mut conn, version).unwrap();
                let v: i64 = conn
                    .query_row("PRAGMA user_version", [], |r| r.get(0))
                    .unwrap();
                assert_eq!(v, version);
            }
            let db = Database::open(&path).unwrap();
            assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);
            assert_eq!(moves_rows(&db.conn), expected, "from version {version}");
            assert_eq!(
                game_rows(&db.conn),
                expected_games,
                "from version {version}"
            );
            assert_eq!(tag_rows(&db.conn), expected_tags, "from version {version}");
            assert_eq!(
                opening_rows(&db.conn),
                expected_openings,
                "from version {version}"
            );
            assert_eq!(
                all_postings(&db.conn),
                expected_index,
                "from version {version}"
            );
            for (id, _, _, original) in &expected_games {
                let exported = db
                    .export_game(*id, crate::db::export::ExportForm::Original)
                    .unwrap()
                    .unwrap();
                assert_eq!(
                    &exported.bytes, original,
                    "game {id} from version {version}"
                );
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_version_1_game_that_no_longer_replays_stops_the_upgrade_and_changes_nothing() {
        let dir = std::env::temp_dir().join(format!("xpgn-migrate-bad-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("v1.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(include_str!("sql/001_initial.sql"))
                .unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute(
                "INSERT INTO games (id, variant, plies, status, source_file, source_line, original, hash)
                 VALUES (7, 'chess', 2, 'valid', 't', 1, x'', x'01')",
                [],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO moves (game, san, coord) VALUES (7, 'e4 Ke7', 'e2e4 e8e7')",
                [],
            )
            .unwrap();
        }
        let e = Database::open(&path).err().unwrap().to_string();
        assert!(
            e.starts_with("upgrading to schema version 2: game 7: ply 2 `e8e7`"),
            "{e}"
        );
        let conn = Connection::open(&path).unwrap();
        let v: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        let coord: String = conn
            .query_row("SELECT coord FROM moves", [], |r| r.get(0))
            .unwrap();
        assert_eq!((v, coord.as_str()), (1, "e2e4 e8e7"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
