//! Duplicates by moves, as pgn-extract's `-D` finds them: stored games
//! with the same variant, start and main line, whatever their tags say
//! ("Short, Nigel D" and "Short, Nigel" play the same game). The content
//! hash, which keeps a game out of the database a second time, also
//! compares tags; this compares moves alone, through the moves hashes of
//! `game_hashes`.

use std::collections::{HashMap, HashSet};

use rusqlite::OptionalExtension;

use super::import::row_hashes;
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

/// Every stored game's moves hash, by id, from `game_hashes`; games with
/// no move on their main line are left out: forfeits, and text stored as
/// an invalid game that is no game at all, are not copies of each other.
fn moves_hashes(conn: &rusqlite::Connection) -> Result<Vec<(i64, [u8; 32])>, DbError> {
    let no_moves: HashSet<i64> = conn
        .prepare_cached("SELECT id FROM games WHERE plies = 0")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut stmt = conn
        .prepare_cached("SELECT first_game, content, moves FROM game_hashes ORDER BY first_game")?;
    let mut rows = stmt.query([])?;
    let mut all = Vec::new();
    while let Some(r) = rows.next()? {
        let first: i64 = r.get(0)?;
        let (content, moves) = (super::query::blob(r, 1)?, super::query::blob(r, 2)?);
        all.extend(
            row_hashes(first, content, moves)
                .filter(|(id, _)| !no_moves.contains(id))
                .filter_map(|(id, (_, m))| Some((id, m?))),
        );
    }
    Ok(all)
}

impl Database {
    /// The groups of games with the same moves, in the order their first
    /// game was stored; at most `limit` groups. Games without a move are
    /// in no group (pgn-extract makes them one: forfeits and garbage are
    /// no copies of each other).
    ///
    /// # Errors
    /// SQLite errors.
    pub fn duplicate_groups(&self, limit: Option<u64>) -> Result<Vec<DuplicateGroup>, DbError> {
        // The hashes are grouped in memory (32 bytes a game), where an
        // index on them cost every import a random B-tree insert per game.
        let mut by_hash: HashMap<[u8; 32], Vec<i64>> = HashMap::new();
        for (id, h) in moves_hashes(&self.conn)? {
            by_hash.entry(h).or_default().push(id);
        }
        let mut groups: Vec<Vec<i64>> = by_hash.into_values().filter(|ids| ids.len() > 1).collect();
        groups.sort_unstable_by_key(|ids| ids[0]);
        if let Some(limit) = limit {
            groups.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        }
        let mut stmt = self.conn.prepare_cached(
            "SELECT variant, plies, white, black, event, date, status FROM games WHERE id = ?1",
        )?;
        let mut out = Vec::with_capacity(groups.len());
        for ids in groups {
            let mut group: Option<DuplicateGroup> = None;
            for id in ids {
                let Some((variant, plies, game)) = stmt
                    .query_row([id], |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            r.get::<_, i64>(1)?,
                            DuplicateGame {
                                id,
                                white: r.get(2)?,
                                black: r.get(3)?,
                                event: r.get(4)?,
                                date: r.get(5)?,
                                status: r.get(6)?,
                            },
                        ))
                    })
                    .optional()?
                else {
                    continue;
                };
                group
                    .get_or_insert_with(|| DuplicateGroup {
                        variant,
                        plies,
                        games: Vec::new(),
                    })
                    .games
                    .push(game);
            }
            out.extend(group);
        }
        Ok(out)
    }

    /// The groups of games that reach the same position at ply `plies` of
    /// their main lines (pgn-extract's `--fuzzydepth`): the same variant,
    /// board, side to move, castling rights and en passant (the position
    /// key of the index), whatever came before or after; games shorter
    /// than that are in no group. In the order their first game was
    /// stored; at most `limit` groups. The group's `plies` is `plies`.
    ///
    /// # Errors
    /// SQLite errors, or a stored main line that does not replay.
    pub fn duplicate_groups_at_ply(
        &self,
        plies: u32,
        limit: Option<u64>,
    ) -> Result<Vec<DuplicateGroup>, DbError> {
        use crate::notation::position::read_position;
        use crate::record::packed::{self, Decoder, PackedError};
        use crate::rules::Position;
        let mut stmt = self.conn.prepare(
            "SELECT g.id, g.variant, g.white, g.black, g.event, g.date, g.status, m.packed, m.start
             FROM games g JOIN moves m ON m.game = g.id WHERE g.plies >= ?1 ORDER BY g.id",
        )?;
        let mut rows = stmt.query([i64::from(plies)])?;
        let mut by_key: HashMap<(String, u64), usize> = HashMap::new();
        let mut groups: Vec<DuplicateGroup> = Vec::new();
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            let variant_name: String = r.get(1)?;
            let Some(variant) = self.registry().lookup(&variant_name) else {
                continue;
            };
            let corrupt = |source| DbError::Corrupt { game: id, source };
            let mut pos = match r.get::<_, Option<String>>(8)?.as_deref() {
                None => Position::start(variant.clone()),
                Some(text) => read_position(&variant, text).map_err(|e| {
                    corrupt(PackedError::Invalid {
                        ply: 0,
                        what: format!("start position: {e}"),
                    })
                })?,
            };
            let packed_moves = super::query::blob(r, 7)?;
            let mut played = 0u32;
            for (i, m) in Decoder::new(&variant, packed_moves)
                .take(plies as usize)
                .enumerate()
            {
                let m = m.map_err(corrupt)?;
                packed::play(&mut pos, &m, i + 1).map_err(corrupt)?;
                played += 1;
            }
            if played < plies {
                continue;
            }
            let game = DuplicateGame {
                id,
                white: r.get(2)?,
                black: r.get(3)?,
                event: r.get(4)?,
                date: r.get(5)?,
                status: r.get(6)?,
            };
            let at = *by_key
                .entry((variant_name.clone(), pos.key()))
                .or_insert_with(|| {
                    groups.push(DuplicateGroup {
                        variant: variant_name,
                        plies: i64::from(plies),
                        games: Vec::new(),
                    });
                    groups.len() - 1
                });
            groups[at].games.push(game);
        }
        let mut out: Vec<DuplicateGroup> =
            groups.into_iter().filter(|g| g.games.len() > 1).collect();
        if let Some(limit) = limit {
            out.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        }
        Ok(out)
    }

    /// How many games stored from id `since` on play the moves of a game
    /// stored before them (each group's first game is not counted).
    ///
    /// # Errors
    /// SQLite errors.
    pub fn count_move_duplicates(&self, since: i64) -> Result<u64, DbError> {
        let mut seen: HashSet<[u8; 32]> = HashSet::new();
        let mut repeats = 0;
        for (id, h) in moves_hashes(&self.conn)? {
            if !seen.insert(h) && id >= since {
                repeats += 1;
            }
        }
        Ok(repeats)
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
            [White \"Tags only\"]\n*\n\n[White \"Tags only 2\"]\n*\n\n\
            [White \"Forfeit\"][Result \"1-0\"]\n1-0\n\n";
        let mut db = Database::in_memory().unwrap();
        db.import(
            "t",
            text.as_bytes(),
            &mut ImportSummary::default(),
            &mut |_| {},
        )
        .unwrap();
        let groups = db.duplicate_groups(None).unwrap();
        // The games without a move (5, 6, 7) are in no group.
        assert_eq!(groups.len(), 1, "{groups:?}");
        let ids: Vec<i64> = groups[0].games.iter().map(|g| g.id).collect();
        assert_eq!((ids, groups[0].plies), (vec![1, 2, 4], 3));
        assert_eq!(db.count_move_duplicates(1).unwrap(), 2);
        assert_eq!(db.count_move_duplicates(3).unwrap(), 1);
        assert_eq!(db.next_game_id().unwrap(), 8);
    }
}
