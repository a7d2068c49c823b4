//! The opening tree: which moves the stored games played in a position,
//! found through the position index, so every game that reaches it counts,
//! at whatever ply and by whatever move order.

use std::collections::BTreeMap;

use rusqlite::params;

use super::packed::{Decoder, PackedError};
use super::query::blob;
use super::{Database, DbError, postings};
use crate::notation::san::write_san;
use crate::rules::{Color, Move, Position};

/// One move played in the position, with the results of its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeMove {
    /// The move.
    pub mv: Move,
    /// Its SAN in the position.
    pub san: String,
    /// Games that played it here.
    pub games: u64,
    /// Of these, won by White.
    pub white_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black_wins: u64,
}

impl TreeMove {
    /// The score of `side` in percent (a win 1, a draw one half) over the
    /// games with a result, or `None` when no game has one.
    pub fn score(&self, side: Color) -> Option<f64> {
        let decided = self.white_wins + self.draws + self.black_wins;
        let wins = match side {
            Color::White => self.white_wins,
            Color::Black => self.black_wins,
        };
        (decided > 0).then(|| (wins as f64 + self.draws as f64 / 2.0) * 100.0 / decided as f64)
    }
}

/// The moves played in one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    /// Most played first; equal counts in SAN order.
    pub moves: Vec<TreeMove>,
    /// Valid games whose main line reaches the position.
    pub games: u64,
    /// Of these, games whose main line ends there.
    pub ended: u64,
}

impl Database {
    /// The moves the stored valid games played in `pos` (main lines only).
    /// A game counts once per move it played here: one that comes back to
    /// the position and plays another move the second time counts for both.
    ///
    /// # Errors
    /// SQLite errors, or a stored main line that does not decode.
    pub fn tree(&self, pos: &Position) -> Result<Tree, DbError> {
        let variant = pos.variant();
        postings::stage_reached(&self.conn, pos.key())?;
        let mut stmt = self.conn.prepare_cached(
            "SELECT p.game, p.ply, g.result, m.packed FROM temp.reached p
             JOIN games g ON g.id = p.game JOIN moves m ON m.game = p.game
             WHERE g.variant = ?1 ORDER BY p.game, p.ply",
        )?;
        let mut rows = stmt.query(params![variant.name()])?;
        let mut tree = Tree::default();
        let mut by_move: BTreeMap<Vec<u8>, (Move, Vec<i64>, [u64; 3])> = BTreeMap::new();
        let mut last_game = None;
        let mut ended_game = None;
        while let Some(r) = rows.next()? {
            let game: i64 = r.get(0)?;
            let ply: usize = r.get::<_, i64>(1)? as usize;
            let result: Option<String> = r.get(2)?;
            let packed = blob(r, 3)?;
            if last_game != Some(game) {
                tree.games += 1;
                last_game = Some(game);
            }
            let corrupt = |source| DbError::Corrupt { game, source };
            let mut decoder = Decoder::new(variant, packed);
            // The stored bytes of the move played at `ply` group the moves:
            // a move's encoding depends on the move alone.
            let mut next = None;
            for i in 0..=ply {
                let at = decoder.offset();
                match decoder.next() {
                    None => break,
                    Some(m) => {
                        let m = m.map_err(corrupt)?;
                        if i == ply {
                            next = Some((m, &packed[at..decoder.offset()]));
                        }
                    }
                }
            }
            let Some((mv, bytes)) = next else {
                if ended_game != Some(game) {
                    tree.ended += 1;
                    ended_game = Some(game);
                }
                continue;
            };
            let entry = by_move
                .entry(bytes.to_vec())
                .or_insert((mv, Vec::new(), [0; 3]));
            if entry.1.last() == Some(&game) {
                continue;
            }
            entry.1.push(game);
            match result.as_deref() {
                Some("1-0") => entry.2[0] += 1,
                Some("1/2-1/2") => entry.2[1] += 1,
                Some("0-1") => entry.2[2] += 1,
                _ => {}
            }
        }
        let legal = pos.legal_moves();
        for (mv, games, [w, d, b]) in by_move.into_values() {
            if !legal.contains(&mv) {
                return Err(DbError::Corrupt {
                    game: games[0],
                    source: PackedError::Invalid {
                        ply: 0,
                        what: format!(
                            "a stored move from {} to {} is not legal in the position its index names",
                            mv.from, mv.to
                        ),
                    },
                });
            }
            tree.moves.push(TreeMove {
                san: write_san(pos, &mv),
                mv,
                games: games.len() as u64,
                white_wins: w,
                draws: d,
                black_wins: b,
            });
        }
        tree.moves
            .sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.san.cmp(&b.san)));
        Ok(tree)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::import::ImportSummary;
    use crate::notation::coord::resolve_coord;
    use crate::rules::Variant;

    const GAMES: &str = "[Result \"1-0\"]\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
        [Result \"0-1\"]\n1. Nf3 Nc6 2. e4 e5 3. Bb5 0-1\n\n\
        [Result \"1/2-1/2\"]\n1. e4 e5 2. Nf3 Nc6 3. Bc4 1/2-1/2\n\n\
        [Result \"*\"]\n1. e4 c5 *\n\n\
        [Result \"1-0\"]\n1. Nf3 Nf6 2. Ng1 Ng8 3. e4 e5 4. Nf3 Nc6 5. Ng1 Nb8 6. Nf3 Nc6 7. Bb5 1-0\n";

    fn after(moves: &str) -> Position {
        let mut pos = Position::start(Variant::chess());
        for c in moves.split_whitespace() {
            let m = resolve_coord(&pos, c).unwrap();
            pos.play_unchecked(&m);
        }
        pos
    }

    #[test]
    fn counts_every_game_reaching_the_position_once_per_move() {
        let mut db = Database::in_memory().unwrap();
        db.import(
            "t",
            GAMES.as_bytes(),
            &mut ImportSummary::default(),
            &mut |_| {},
        )
        .unwrap();
        let start = db.tree(&after("")).unwrap();
        let rows: Vec<(&str, u64, [u64; 3])> = start
            .moves
            .iter()
            .map(|m| {
                (
                    m.san.as_str(),
                    m.games,
                    [m.white_wins, m.draws, m.black_wins],
                )
            })
            .collect();
        // Game 5 starts with Nf3 and plays e4 from the start position again
        // after 2. Ng1 Ng8: both its moves count.
        assert_eq!(
            rows,
            [("e4", 4, [2, 1, 0]), ("Nf3", 2, [1, 0, 1])],
            "{start:?}"
        );
        assert_eq!((start.games, start.ended), (5, 0));
        // Reached by games 1, 2 (transposed), 3 and 5 (twice, Bb5 and Ng1).
        let tree = db.tree(&after("e2e4 e7e5 g1f3 b8c6")).unwrap();
        let rows: Vec<(&str, u64)> = tree
            .moves
            .iter()
            .map(|m| (m.san.as_str(), m.games))
            .collect();
        assert_eq!(rows, [("Bb5", 2), ("Bc4", 1), ("Ng1", 1)]);
        assert_eq!((tree.games, tree.ended), (4, 1));
        assert_eq!(tree.moves[0].score(Color::White), Some(50.0));
        assert_eq!(tree.moves[0].score(Color::Black), Some(50.0));
        assert!(db.tree(&after("d2d4")).unwrap().moves.is_empty());
    }
}
