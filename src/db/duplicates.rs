//! Duplicates by moves, as pgn-extract's `-D` finds them: stored games
//! with the same variant, start and main line, whatever their tags say
//! ("Short, Nigel D" and "Short, Nigel" play the same game). The content
//! hash, which keeps a game out of the database a second time, also
//! compares tags; this compares moves alone, through `games.moves_hash`.

use rusqlite::params;

use super::{Database, DbError};

/// One stored game of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateGame {
    /// Row id.
    pub id: i64,
    /// `White` tag.
    pub white: Option<String>,
    /// `Black` tag.
    pub black: Option<String>,
    /// `Event` tag.
    pub event: Option<String>,
    /// `Date` tag.
    pub date: Option<String>,
    /// `valid` or `invalid` (an invalid game's line up to its fault).
    pub status: String,
}

/// Games that play the same moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateGroup {
    /// Their variant.
    pub variant: String,
    /// Main-line plies.
    pub plies: i64,
    /// The games, oldest first.
    pub games: Vec<DuplicateGame>,
}

impl Database {
    /// The groups of games with the same moves, in the order their first
    /// game was stored; at most `limit` groups. Games without a move from
    /// the same start are one group, as pgn-extract counts them.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn duplicate_groups(&self, limit: Option<u64>) -> Result<Vec<DuplicateGroup>, DbError> {
        let mut stmt = self.conn.prepare(
            "SELECT g.moves_hash, g.variant, g.plies, g.id, g.white, g.black, g.event, g.date,
                    g.status
             FROM games g
             JOIN (SELECT moves_hash, MIN(id) AS first FROM games
                   WHERE moves_hash IS NOT NULL
                   GROUP BY moves_hash HAVING COUNT(*) > 1
                   ORDER BY first LIMIT ?1) d ON d.moves_hash = g.moves_hash
             ORDER BY d.first, g.id",
        )?;
        let limit = limit.map_or(-1, |l| i64::try_from(l).unwrap_or(i64::MAX));
        let mut rows = stmt.query(params![limit])?;
        let mut groups: Vec<(Vec<u8>, DuplicateGroup)> = Vec::new();
        while let Some(r) = rows.next()? {
            let hash: Vec<u8> = r.get(0)?;
            let game = DuplicateGame {
                id: r.get(3)?,
                white: r.get(4)?,
                black: r.get(5)?,
                event: r.get(6)?,
                date: r.get(7)?,
                status: r.get(8)?,
            };
            match groups.last_mut() {
                Some((h, g)) if *h == hash => g.games.push(game),
                _ => groups.push((
                    hash,
                    DuplicateGroup {
                        variant: r.get(1)?,
                        plies: r.get(2)?,
                        games: vec![game],
                    },
                )),
            }
        }
        Ok(groups.into_iter().map(|(_, g)| g).collect())
    }

    /// How many games stored from id `since` on play the moves of a game
    /// stored before them (each group's first game is not counted).
    ///
    /// # Errors
    /// SQLite errors.
    pub fn count_move_duplicates(&self, since: i64) -> Result<u64, DbError> {
        let n: i64 = self.conn.query_row(
            "SELECT COUNT(*) FROM games g
             WHERE g.id >= ?1 AND g.moves_hash IS NOT NULL
               AND EXISTS (SELECT 1 FROM games h
                           WHERE h.moves_hash = g.moves_hash AND h.id < g.id)",
            params![since],
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }

    /// The id the next stored game will have.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn next_game_id(&self) -> Result<i64, DbError> {
        Ok(self
            .conn
            .query_row("SELECT COALESCE(MAX(id), 0) + 1 FROM games", [], |r| {
                r.get(0)
            })?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::import::ImportSummary;

    #[test]
    fn the_same_moves_under_other_tags_are_one_group() {
        let text = "[White \"Short, Nigel D\"][Black \"K\"]\n1. e4 e5 2. Nf3 *\n\n\
            [White \"Short, Nigel\"][Black \"K\"]\n1. e2e4 e7e5 2. g1f3 1-0\n\n\
            [White \"Other\"]\n1. e4 e5 2. Nc3 *\n\n\
            [White \"Third\"]\n1. e4 e5 2. Ng1-f3 *\n\n\
            [White \"Tags only\"]\n*\n\n[White \"Tags only 2\"]\n*\n";
        let mut db = Database::in_memory().unwrap();
        db.import(
            "t",
            text.as_bytes(),
            &mut ImportSummary::default(),
            &mut |_| {},
        )
        .unwrap();
        let groups = db.duplicate_groups(None).unwrap();
        assert_eq!(groups.len(), 2, "{groups:?}");
        let ids: Vec<i64> = groups[0].games.iter().map(|g| g.id).collect();
        assert_eq!((ids, groups[0].plies), (vec![1, 2, 4], 3));
        let ids: Vec<i64> = groups[1].games.iter().map(|g| g.id).collect();
        assert_eq!((ids, groups[1].plies), (vec![5, 6], 0));
        assert_eq!(db.count_move_duplicates(1).unwrap(), 3);
        assert_eq!(db.count_move_duplicates(3).unwrap(), 2);
        assert_eq!(db.next_game_id().unwrap(), 7);
    }
}
