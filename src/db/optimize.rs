//! `xpgn optimize`: the position index's posting rows merged, bucket by
//! bucket, the opening tree of every position many games reach stored
//! (`tree::stored`), and the query planner's statistics refreshed
//! (`ANALYZE`).
//!
//! Every import batch writes one row per bucket it touches, so a database
//! built by many small imports holds many small rows, and a position query
//! reads one row per batch of its bucket. Merging leaves each bucket
//! rows of at most [`postings::MOST_PER_ROW`] entries, sorted by key
//! across its rows, each cut to fill its pages ([`postings::pieces`]).

use rusqlite::TransactionBehavior;

use super::postings::{self, BUCKET_BITS, Posting};
use super::{Database, DbError, tree};

/// What `optimize` did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptimizeSummary {
    /// Posting rows before.
    pub rows_before: u64,
    /// Posting rows after.
    pub rows_after: u64,
    /// Index entries (unchanged by merging).
    pub entries: u64,
    /// Positions whose opening tree is stored (reached by at least
    /// `tree::stored::STORED_FROM_GAMES` games).
    pub trees: u64,
}

impl Database {
    /// Merges the posting rows of each bucket (one short write transaction
    /// per bucket, so readers and an import are held up little), then runs
    /// `ANALYZE` and checkpoints the write-ahead log; first checks every
    /// page (`PRAGMA quick_check`), and refuses a damaged
    /// database.
    ///
    /// # Errors
    /// SQLite errors, damage.
    pub fn optimize(&mut self) -> Result<OptimizeSummary, DbError> {
        self.optimize_storing_trees_from(tree::stored::STORED_FROM_GAMES)
    }

    /// [`Database::optimize`], storing the tree of every position at least
    /// `from_games` games reach.
    pub(crate) fn optimize_storing_trees_from(
        &mut self,
        from_games: usize,
    ) -> Result<OptimizeSummary, DbError> {
        // Every page is read before any is rewritten: merging rows of a
        // damaged database would spread what is wrong in them.
        let report = super::check::whole(&self.conn)?;
        if !report.problems.is_empty() {
            return Err(DbError::Damaged {
                detail: format!("quick_check: {}", report.problems.join("; ")),
            });
        }
        let mut summary = OptimizeSummary::default();
        let fit = postings::PageFit::of(&self.conn)?;
        // Stored trees are written again, bucket by bucket, from the games.
        self.conn.execute("DELETE FROM opening_tree", [])?;
        for bucket in 0..(1i64 << BUCKET_BITS) {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let blobs: Vec<Vec<u8>> = tx
                .prepare_cached("SELECT entries FROM position_postings WHERE bucket = ?1")?
                .query_map([bucket], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            summary.rows_before += blobs.len() as u64;
            let mut all: Vec<Posting> = blobs.iter().flat_map(|b| postings::entries(b)).collect();
            summary.entries += all.len() as u64;
            // By key, and within a key by game and ply, as `find` gives them.
            all.sort_unstable();
            // Merged rows take batch id 0, below every import's (ids start
            // at 1), their pieces in key order.
            summary.trees += tree::stored::store_bucket(&tx, &self.registry, &all, from_games)?;
            let merged = postings::pieces(bucket, 0, &all, fit, postings::MOST_PER_ROW);
            // Rows already merged (in primary-key order, as read) stay.
            if blobs.len() == merged.len() && blobs.iter().zip(&merged).all(|(a, m)| *a == m.2) {
                summary.rows_after += blobs.len() as u64;
                tx.commit()?;
                continue;
            }
            summary.rows_after += merged.len() as u64;
            tx.execute("DELETE FROM position_postings WHERE bucket = ?1", [bucket])?;
            postings::insert_pieces(&tx, bucket, 0, merged)?;
            tx.commit()?;
        }
        self.conn.execute_batch("ANALYZE")?;
        let _: (i64, i64, i64) =
            self.conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })?;
        Ok(summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::import::ImportSummary;

    #[test]
    fn merging_the_rows_keeps_every_position_findable() {
        let mut db = Database::in_memory().unwrap();
        let games = [
            "1. e4 e5 2. Nf3 Nc6 *",
            "1. Nf3 Nc6 2. e4 e5 *",
            "1. d4 d5 *",
            "1. e4 c5 *",
        ];
        // One import per game: one batch each, many small rows.
        for g in games {
            db.import(
                "t",
                g.as_bytes(),
                &mut ImportSummary::default(),
                &mut |_| {},
            )
            .unwrap();
        }
        let keys: Vec<u64> = {
            let mut stmt = db
                .conn
                .prepare("SELECT entries FROM position_postings")
                .unwrap();
            let blobs: Vec<Vec<u8>> = stmt
                .query_map([], |r| r.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            blobs
                .iter()
                .flat_map(|b| postings::entries(b).into_iter().map(|p| p.key))
                .collect()
        };
        let before: Vec<Vec<Posting>> = keys
            .iter()
            .map(|&k| postings::reached(&db.conn, k).unwrap())
            .collect();
        let s = db.optimize().unwrap();
        assert_eq!(s.entries, keys.len() as u64);
        assert!(s.rows_after < s.rows_before, "{s:?}");
        let rows: i64 = db
            .conn
            .query_row("SELECT COUNT(*) FROM position_postings", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows as u64, s.rows_after);
        let after: Vec<Vec<Posting>> = keys
            .iter()
            .map(|&k| postings::reached(&db.conn, k).unwrap())
            .collect();
        assert_eq!(before, after);
        // Twice is the same.
        let again = db.optimize().unwrap();
        assert_eq!(again.rows_before, again.rows_after);
    }
}
