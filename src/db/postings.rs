//! The position index as posting lists: for each import batch, every
//! (position key, game, ply) of its games, grouped by the key's top bits
//! (its bucket), sorted, one compact blob per bucket. A batch writes at
//! most one row per bucket instead of one per position, and "which games
//! reach this position" reads one primary-key range (the bucket's rows,
//! one per batch) and decodes each blob up to the key: an index, not a scan.
//!
//! A blob (schema 6): the smallest game id of the blob (a varint, LEB128)
//! and the width `w` (one byte, 0 to 8) of the raw part of each key step;
//! then per distinct key in ascending order its step `s` from the previous
//! key (from 0 for the first) doubled, plus one when the key has a single
//! entry: the low `w` bytes of `2s + single` raw, little-endian, the rest
//! as a varint; unless single, the number of its entries (varint); and
//! per entry, by game and ply, the game's distance from the previous entry
//! of the key (from the smallest game id for the first) and the ply
//! (varints). `w` is chosen from the blob's mean step so that the varint
//! part is mostly one byte: a key one game reaches takes about 9 bytes
//! with its entry, where a plain varint step and count took 11 and the
//! schema 3 to 5 entries 14 ([`legacy`]).

use rusqlite::{Connection, params};

use super::DbError;

/// Bits of the key that choose its bucket. Each batch touches one B-tree
/// leaf per bucket: with 12 bits (4,096 buckets) that was most of the
/// index's pages, and import slowed from 7,000 to 3,500 games/s by
/// 100,000 games; with 8 bits it keeps 5,100 games/s there, and a position
/// query reads 256 times fewer rows than a full scan (0.5 ms for a rare
/// position in 100,000 games).
pub const BUCKET_BITS: u32 = 8;

/// The bucket of `key`.
pub fn bucket(key: u64) -> i64 {
    (key >> (64 - BUCKET_BITS)) as i64
}

/// One position of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Posting {
    /// The position key ([`crate::rules::Position::key`]).
    pub key: u64,
    /// The game's row id.
    pub game: u32,
    /// The ply after which the position stands (0 = the start).
    pub ply: u16,
}

fn put_varint(out: &mut Vec<u8>, mut v: u128) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads a varint at `*at`; `None` at the end of `blob`, inside a varint
/// or past 128 bits (a damaged blob reads as ending there).
fn get_varint(blob: &[u8], at: &mut usize) -> Option<u128> {
    let mut v = 0u128;
    let mut shift = 0;
    loop {
        let b = *blob.get(*at)?;
        *at += 1;
        if shift > 127 {
            return None;
        }
        v |= u128::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(v);
        }
        shift += 7;
    }
}

fn put_small(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_small(blob: &[u8], at: &mut usize) -> Option<u64> {
    get_varint(blob, at).and_then(|v| u64::try_from(v).ok())
}

/// Sorts `entries`, given by game and ply, into buckets, in bucket
/// order: per bucket its entries by key, game and ply.
fn sorted_by_bucket(entries: Vec<Posting>) -> Vec<(i64, Vec<Posting>)> {
    let Some(&first) = entries.first() else {
        return Vec::new();
    };
    // A counting sort by bucket, then each bucket's few entries by key:
    // linear, where a comparison sort of a whole batch is not. Both are
    // stable, so entries of one key stay by game and ply as they came,
    // and only keys are compared; entries that did not come in that order
    // are put in it.
    let in_order = entries.is_sorted_by_key(|p| (p.game, p.ply));
    let buckets = 1usize << BUCKET_BITS;
    let mut starts = vec![0usize; buckets + 1];
    for p in &entries {
        starts[bucket(p.key) as usize + 1] += 1;
    }
    for b in 0..buckets {
        starts[b + 1] += starts[b];
    }
    let mut next = starts.clone();
    let mut sorted = vec![first; entries.len()];
    for p in entries {
        let b = bucket(p.key) as usize;
        sorted[next[b]] = p;
        next[b] += 1;
    }
    let mut out = Vec::new();
    for b in 0..buckets {
        let run = &mut sorted[starts[b]..starts[b + 1]];
        if run.is_empty() {
            continue;
        }
        if in_order {
            run.sort_by_key(|p| p.key);
        } else {
            run.sort_unstable();
        }
        out.push((b as i64, run.to_vec()));
    }
    out
}

/// The raw width of the key steps of a blob whose keys run from `first`
/// to `last` in `runs` steps: the varint part of a step of the mean size
/// takes one byte and rarely two.
fn step_width(first: u64, last: u64, runs: usize) -> u8 {
    let mean = u128::from(last - first) * 2 / runs.max(1) as u128;
    let bits = 128 - mean.leading_zeros();
    (bits.saturating_sub(6) / 8).min(8) as u8
}

/// The blob of `sorted` entries (by key, game, ply).
pub fn encode(sorted: &[Posting]) -> Vec<u8> {
    let mut blob = Vec::with_capacity(sorted.len() * 5 + 8);
    let base = sorted.iter().map(|p| p.game).min().unwrap_or(0);
    put_varint(&mut blob, u128::from(base));
    let runs = sorted.chunk_by(|a, b| a.key == b.key);
    let keys = 1 + sorted.windows(2).filter(|w| w[0].key != w[1].key).count();
    let width = match (sorted.first(), sorted.last()) {
        (Some(f), Some(l)) => step_width(f.key, l.key, keys),
        _ => 0,
    };
    blob.push(width);
    let mut prev_key = 0u64;
    for run in runs {
        let single = run.len() == 1;
        let step = (u128::from(run[0].key - prev_key) << 1) | u128::from(single);
        prev_key = run[0].key;
        blob.extend_from_slice(&step.to_le_bytes()[..usize::from(width)]);
        put_varint(&mut blob, step >> (8 * u32::from(width)));
        if !single {
            put_small(&mut blob, run.len() as u64);
        }
        let mut prev_game = base;
        for p in run {
            put_small(&mut blob, u64::from(p.game - prev_game));
            prev_game = p.game;
            put_small(&mut blob, u64::from(p.ply));
        }
    }
    blob
}

/// Sorts `entries` and splits them into one blob per bucket, in bucket
/// order, with the number of entries of each.
pub fn group(entries: Vec<Posting>) -> Vec<(i64, usize, Vec<u8>)> {
    sorted_by_bucket(entries)
        .into_iter()
        .map(|(b, run)| (b, run.len(), encode(&run)))
        .collect()
}

/// The runs of a blob: each key with its entries, in key order.
struct Runs<'a> {
    blob: &'a [u8],
    at: usize,
    base: u64,
    key: u64,
    /// Raw bytes of each key step.
    width: u8,
}

impl<'a> Runs<'a> {
    fn new(blob: &'a [u8]) -> Runs<'a> {
        let mut at = 0;
        let base = get_small(blob, &mut at).unwrap_or(0);
        let width = blob.get(at).copied().unwrap_or(0).min(8);
        Runs {
            blob,
            at: at + 1,
            base,
            key: 0,
            width,
        }
    }

    /// The next key and its entry count, the cursor on its first entry.
    fn next_key(&mut self) -> Option<(u64, u64)> {
        let width = usize::from(self.width);
        let raw = self.blob.get(self.at..self.at + width)?;
        self.at += width;
        let mut low = [0u8; 16];
        low[..width].copy_from_slice(raw);
        let high = get_varint(self.blob, &mut self.at)?;
        let step = u128::from_le_bytes(low) | high.checked_shl(8 * width as u32)?;
        let delta = u64::try_from(step >> 1).ok()?;
        self.key = self.key.checked_add(delta)?;
        let count = if step & 1 == 1 {
            1
        } else {
            get_small(self.blob, &mut self.at)?
        };
        Some((self.key, count))
    }

    /// Reads the `count` entries of the current key (into `out` when
    /// given); `None` when the blob ends inside them.
    fn entries(&mut self, count: u64, mut out: Option<&mut Vec<Posting>>) -> Option<()> {
        let mut game = self.base;
        for _ in 0..count {
            game = game.checked_add(get_small(self.blob, &mut self.at)?)?;
            let ply = get_small(self.blob, &mut self.at)?;
            if let Some(out) = out.as_deref_mut() {
                out.push(Posting {
                    key: self.key,
                    game: u32::try_from(game).ok()?,
                    ply: u16::try_from(ply).ok()?,
                });
            }
        }
        Some(())
    }
}

/// Every entry of a blob, in order (a damaged blob is read up to where
/// it stops making sense).
pub fn entries(blob: &[u8]) -> Vec<Posting> {
    let mut runs = Runs::new(blob);
    let mut out = Vec::new();
    while let Some((_, count)) = runs.next_key() {
        if runs.entries(count, Some(&mut out)).is_none() {
            break;
        }
    }
    out
}

/// Appends the entries of `blob` with key `key` to `out`, by game and ply.
pub fn find_into(blob: &[u8], key: u64, out: &mut Vec<Posting>) {
    let mut runs = Runs::new(blob);
    while let Some((k, count)) = runs.next_key() {
        if k > key {
            return;
        }
        let found = (k == key).then_some(&mut *out);
        let done = found.is_some();
        if runs.entries(count, found).is_none() || done {
            return;
        }
    }
}

/// The entries of `blob` with key `key`, by game and ply.
pub fn find(blob: &[u8], key: u64) -> Vec<Posting> {
    let mut out = Vec::new();
    find_into(blob, key, &mut out);
    out
}

/// Stores the entries of one import batch, whose first game has id
/// `batch`, inside the caller's transaction.
///
/// # Errors
/// SQLite errors.
pub(crate) fn store_batch(
    conn: &Connection,
    batch: i64,
    entries: Vec<Posting>,
) -> Result<(), DbError> {
    let mut insert = conn.prepare_cached(
        "INSERT INTO position_postings (bucket, batch, count, entries) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (bucket, count, blob) in group(entries) {
        insert.execute(params![bucket, batch, count as i64, blob])?;
    }
    Ok(())
}

/// Every entry with `key`, by game and ply.
///
/// # Errors
/// SQLite errors.
pub(crate) fn reached(conn: &Connection, key: u64) -> Result<Vec<Posting>, DbError> {
    let mut stmt =
        conn.prepare_cached("SELECT entries FROM position_postings WHERE bucket = ?1")?;
    let mut rows = stmt.query([bucket(key)])?;
    let mut found = Vec::new();
    while let Some(row) = rows.next()? {
        let blob = super::query::blob(row, 0)?;
        find_into(blob, key, &mut found);
    }
    found.sort_unstable_by_key(|p| (p.game, p.ply));
    Ok(found)
}

/// Calls `each` with every entry with `key`, row by row of the bucket
/// (each row's entries by game and ply), until it returns `false`.
///
/// # Errors
/// SQLite errors.
pub(crate) fn scan(
    conn: &Connection,
    key: u64,
    mut each: impl FnMut(Posting) -> bool,
) -> Result<(), DbError> {
    let mut stmt =
        conn.prepare_cached("SELECT entries FROM position_postings WHERE bucket = ?1")?;
    let mut rows = stmt.query([bucket(key)])?;
    let mut found = Vec::new();
    while let Some(row) = rows.next()? {
        found.clear();
        find_into(super::query::blob(row, 0)?, key, &mut found);
        for &p in &found {
            if !each(p) {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// How many entries the index holds.
///
/// # Errors
/// SQLite errors.
pub(crate) fn count(conn: &Connection) -> Result<u64, DbError> {
    let n: i64 = conn.query_row(
        "SELECT COALESCE(SUM(count), 0) FROM position_postings",
        [],
        |r| r.get(0),
    )?;
    Ok(n as u64)
}

/// The blob format of schemas 3 to 5: sorted 14-byte entries, key (8),
/// game id (4), ply (2), little-endian. Migrations 3 and 4 write it, and
/// migration 6 reads it to write the compact form.
pub(crate) mod legacy {
    use rusqlite::{Connection, params};

    use super::{Posting, sorted_by_bucket};
    use crate::db::DbError;

    const ENTRY: usize = 14;

    /// Every entry of a schema-5 blob (read up to its last whole entry).
    pub(crate) fn entries(blob: &[u8]) -> impl Iterator<Item = Posting> + '_ {
        blob.chunks_exact(ENTRY).map(|e| {
            let mut key = [0; 8];
            key.copy_from_slice(&e[..8]);
            let mut game = [0; 4];
            game.copy_from_slice(&e[8..12]);
            Posting {
                key: u64::from_le_bytes(key),
                game: u32::from_le_bytes(game),
                ply: u16::from_le_bytes([e[12], e[13]]),
            }
        })
    }

    /// Stores one batch in the schema-5 table (`bucket`, `batch`,
    /// `entries`), as migrations 3 and 4 wrote it.
    pub(crate) fn store_batch(
        conn: &Connection,
        batch: i64,
        entries: Vec<Posting>,
    ) -> Result<(), DbError> {
        let mut insert = conn.prepare_cached(
            "INSERT INTO position_postings (bucket, batch, entries) VALUES (?1, ?2, ?3)",
        )?;
        for (bucket, run) in sorted_by_bucket(entries) {
            let mut blob = Vec::with_capacity(run.len() * ENTRY);
            for p in &run {
                blob.extend_from_slice(&p.key.to_le_bytes());
                blob.extend_from_slice(&p.game.to_le_bytes());
                blob.extend_from_slice(&p.ply.to_le_bytes());
            }
            insert.execute(params![bucket, batch, blob])?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the entries, each key finds exactly its own entries in
        /// its own bucket's blob, and no blob holds a key of another bucket.
        #[test]
        fn every_key_is_found_in_its_bucket_and_only_there(
            raw in proptest::collection::vec((0u64..64, any::<u64>(), 1u32..1000, 0u16..300), 0..400)
        ) {
            // Few distinct keys, spread over buckets: collisions and runs.
            let all: Vec<Posting> = raw
                .iter()
                .map(|&(k, spread, game, ply)| Posting {
                    key: (spread & !((1 << 58) - 1)) | k,
                    game,
                    ply,
                })
                .collect();
            let groups = group(all.clone());
            for (b, n, blob) in &groups {
                prop_assert!(entries(blob).iter().all(|p| bucket(p.key) == *b));
                prop_assert_eq!(entries(blob).len(), *n);
            }
            prop_assert!(groups.windows(2).all(|w| w[0].0 < w[1].0));
            for p in &all {
                let (_, _, blob) = groups.iter().find(|(b, _, _)| *b == bucket(p.key)).unwrap();
                let mut found: Vec<Posting> = find(blob, p.key);
                let mut expected: Vec<Posting> =
                    all.iter().filter(|q| q.key == p.key).copied().collect();
                found.sort_unstable();
                expected.sort_unstable();
                prop_assert_eq!(found, expected);
            }
            let total: usize = groups.iter().map(|(_, _, blob)| entries(blob).len()).sum();
            prop_assert_eq!(total, all.len());
        }
    }

    #[test]
    fn an_absent_key_finds_nothing() {
        let groups = group(vec![
            Posting {
                key: 5,
                game: 1,
                ply: 0,
            },
            Posting {
                key: 9,
                game: 2,
                ply: 3,
            },
        ]);
        assert_eq!(groups.len(), 1);
        let blob = &groups[0].2;
        assert_eq!(find(blob, 7).len(), 0);
        assert_eq!(find(blob, 10).len(), 0);
        assert_eq!(
            find(blob, 9),
            [Posting {
                key: 9,
                game: 2,
                ply: 3
            }]
        );
    }

    proptest! {
        /// Any bytes read as a blob give entries or stop, never panic.
        #[test]
        fn damaged_blobs_are_read_without_panicking(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = entries(&bytes);
            let _ = find(&bytes, 12345);
        }

        /// Keys anywhere in 64 bits, one or many entries each, round-trip.
        #[test]
        fn any_keys_round_trip(raw in proptest::collection::vec((any::<u64>(), 0u32..5, 0u16..3), 0..300)) {
            let mut all: Vec<Posting> = raw
                .iter()
                .map(|&(key, game, ply)| Posting { key, game: game * 1000, ply })
                .collect();
            all.sort_unstable();
            all.dedup();
            prop_assert_eq!(entries(&encode(&all)), all);
        }
    }
}
