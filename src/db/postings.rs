//! The position index as posting lists: for each import batch, every
//! (position key, game, ply) of its games, grouped by the key's top bits
//! (its bucket), sorted, one blob per bucket. A batch writes at most one
//! row per bucket instead of one per position, and "which games reach this position"
//! reads one primary-key range (the bucket's rows, one per batch) and
//! binary-searches each blob: an index, not a scan.

use rusqlite::{Connection, params};

use super::DbError;

/// Bits of the key that choose its bucket. Each batch touches one B-tree
/// leaf per bucket: with 12 bits (4,096 buckets) that was most of the
/// index's pages, and import slowed from 7,000 to 3,500 games/s by
/// 100,000 games; with 8 bits it keeps 5,100 games/s there, and a position
/// query reads 256 times fewer rows than a full scan (0.5 ms for a rare
/// position in 100,000 games).
pub const BUCKET_BITS: u32 = 8;

/// Bytes per entry: key (8), game id (4), ply (2), little-endian.
const ENTRY: usize = 14;

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

/// Sorts `entries` by key and splits them into one blob per bucket, in
/// bucket order. Entries of one key keep the order they came in (an
/// import gives them by game and ply).
pub fn group(entries: Vec<Posting>) -> Vec<(i64, Vec<u8>)> {
    let Some(&first) = entries.first() else {
        return Vec::new();
    };
    // A counting sort by bucket, then each bucket's few entries by key:
    // linear, where a comparison sort of a whole batch is not.
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
        run.sort_by_key(|p| p.key);
        let mut blob = Vec::with_capacity(run.len() * ENTRY);
        for p in run.iter() {
            blob.extend_from_slice(&p.key.to_le_bytes());
            blob.extend_from_slice(&p.game.to_le_bytes());
            blob.extend_from_slice(&p.ply.to_le_bytes());
        }
        out.push((b as i64, blob));
    }
    out
}

fn entry(blob: &[u8], i: usize) -> Posting {
    let e = &blob[i * ENTRY..(i + 1) * ENTRY];
    let mut key = [0; 8];
    key.copy_from_slice(&e[..8]);
    let mut game = [0; 4];
    game.copy_from_slice(&e[8..12]);
    Posting {
        key: u64::from_le_bytes(key),
        game: u32::from_le_bytes(game),
        ply: u16::from_le_bytes([e[12], e[13]]),
    }
}

/// Every entry of a blob, in order (a blob that is not whole entries is
/// read up to its last whole one).
pub fn entries(blob: &[u8]) -> impl Iterator<Item = Posting> + '_ {
    (0..blob.len() / ENTRY).map(move |i| entry(blob, i))
}

/// The entries of `blob` (as written by [`group`]) with key `key`, by game
/// and ply.
pub fn find(blob: &[u8], key: u64) -> impl Iterator<Item = Posting> + '_ {
    let n = blob.len() / ENTRY;
    // First entry whose key is not below `key`.
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if entry(blob, mid).key < key {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    (lo..n)
        .map(move |i| entry(blob, i))
        .take_while(move |p| p.key == key)
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
        "INSERT INTO position_postings (bucket, batch, entries) VALUES (?1, ?2, ?3)",
    )?;
    for (bucket, blob) in group(entries) {
        insert.execute(params![bucket, batch, blob])?;
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
        found.extend(find(blob, key));
    }
    found.sort_unstable_by_key(|p| (p.game, p.ply));
    Ok(found)
}

/// How many entries the index holds.
///
/// # Errors
/// SQLite errors.
pub(crate) fn count(conn: &Connection) -> Result<u64, DbError> {
    let bytes: i64 = conn.query_row(
        "SELECT COALESCE(SUM(length(entries)), 0) FROM position_postings",
        [],
        |r| r.get(0),
    )?;
    Ok(bytes as u64 / ENTRY as u64)
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
            for (b, blob) in &groups {
                prop_assert!(entries(blob).all(|p| bucket(p.key) == *b));
            }
            prop_assert!(groups.windows(2).all(|w| w[0].0 < w[1].0));
            for p in &all {
                let (_, blob) = groups.iter().find(|(b, _)| *b == bucket(p.key)).unwrap();
                let mut found: Vec<Posting> = find(blob, p.key).collect();
                let mut expected: Vec<Posting> =
                    all.iter().filter(|q| q.key == p.key).copied().collect();
                found.sort_unstable();
                expected.sort_unstable();
                prop_assert_eq!(found, expected);
            }
            let total: usize = groups.iter().map(|(_, blob)| blob.len() / ENTRY).sum();
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
        let blob = &groups[0].1;
        assert_eq!(find(blob, 7).count(), 0);
        assert_eq!(find(blob, 10).count(), 0);
        assert_eq!(
            find(blob, 9).collect::<Vec<_>>(),
            [Posting {
                key: 9,
                game: 2,
                ply: 3
            }]
        );
    }
}
