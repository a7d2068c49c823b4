//! The opening tree: which moves the stored games played in a position,
//! found through the position index, so every game that reaches it counts,
//! at whatever ply and by whatever move order.

use std::collections::BTreeMap;

use super::packed::{Decoder, PackedError};
use super::query::blob;
use super::{Database, DbError, postings};
use crate::notation::coord::write_coord;
use crate::notation::opening::{Opening, OpeningBook};
use crate::notation::san::write_san;
use crate::rules::{Color, Move, Position};

/// One move played in the position, with the results of its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeMove {
    /// The move.
    pub mv: Move,
    /// The side that plays it (several positions searched at once may
    /// differ in the side to move).
    pub turn: Color,
    /// Its SAN in the position.
    pub san: String,
    /// Its coordinates (`e2e4`).
    pub coord: String,
    /// Games that played it here.
    pub games: u64,
    /// Of these, won by White.
    pub white_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black_wins: u64,
    /// The opening the book of the variant names the position after the
    /// move, if it names it.
    pub opening: Option<Opening>,
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
    /// Moves decoded from the packed main lines to answer: each game's
    /// line is decoded once, up to the last ply at which it reaches the
    /// position, however often it comes back there.
    pub decoded: u64,
}

/// The stored bytes of one move (at most 9: from, to, flags and what
/// they announce), their length first: a map key that needs no allocation.
type MoveBytes = [u8; 10];

/// Per move found (by side and stored bytes): the move, the position it
/// was found in, how many games played it (and the first and the last of
/// them), and [White wins, draws, Black wins].
struct Played {
    mv: Move,
    state: usize,
    games: u64,
    first_game: i64,
    last_game: i64,
    results: [u64; 3],
}

/// The tree being counted, game by game.
struct Tally {
    variant: crate::rules::Variant,
    /// The side to move in each position searched.
    turns: Vec<Color>,
    tree: Tree,
    by_move: BTreeMap<(Color, MoveBytes), Played>,
}

impl Tally {
    /// Counts game `game`, which reaches the positions at `plies` (game,
    /// ply, which position; by ply), with its result and packed line.
    fn add(
        &mut self,
        game: i64,
        plies: &[(u32, u16, usize)],
        result: Option<&str>,
        packed: &[u8],
    ) -> Result<(), DbError> {
        self.tree.games += 1;
        let corrupt = |source| DbError::Corrupt { game, source };
        let mut decoder = Decoder::new(&self.variant, packed);
        // Plies decoded so far: the next move is the one played from the
        // position after `at_ply` plies.
        let mut at_ply = 0usize;
        let mut ended = false;
        for &(_, ply, state) in plies {
            let ply = usize::from(ply);
            while at_ply < ply {
                match decoder.next() {
                    Some(m) => {
                        m.map_err(corrupt)?;
                        at_ply += 1;
                        self.tree.decoded += 1;
                    }
                    None => {
                        return Err(corrupt(PackedError::Invalid {
                            ply,
                            what: "the position index names a ply past the end of the stored main line"
                                .into(),
                        }));
                    }
                }
            }
            let start = decoder.offset();
            let Some(m) = decoder.next() else {
                ended = true;
                continue;
            };
            let mv = m.map_err(corrupt)?;
            at_ply += 1;
            self.tree.decoded += 1;
            // The stored bytes of the move group the moves: a move's
            // encoding depends on the move alone.
            let stored = &packed[start..decoder.offset()];
            let mut bytes: MoveBytes = [0; 10];
            bytes[0] = stored.len() as u8;
            bytes[1..=stored.len().min(9)].copy_from_slice(&stored[..stored.len().min(9)]);
            let turn = self.turns[state];
            let entry = self.by_move.entry((turn, bytes)).or_insert(Played {
                mv,
                state,
                games: 0,
                first_game: game,
                last_game: 0,
                results: [0; 3],
            });
            if entry.last_game == game {
                continue;
            }
            entry.last_game = game;
            entry.games += 1;
            match result {
                Some("1-0") => entry.results[0] += 1,
                Some("1/2-1/2") => entry.results[1] += 1,
                Some("0-1") => entry.results[2] += 1,
                _ => {}
            }
        }
        self.tree.ended += u64::from(ended);
        Ok(())
    }
}

impl Database {
    /// The moves the stored valid games played in `pos` (main lines only).
    /// A game counts once per move it played here: one that comes back to
    /// the position and plays another move the second time counts for both.
    ///
    /// # Errors
    /// SQLite errors, or a stored main line that does not decode.
    pub fn tree(&self, pos: &Position) -> Result<Tree, DbError> {
        self.tree_of(std::slice::from_ref(pos))
    }

    /// [`Database::tree`] of several positions of one variant at once (a
    /// board searched with any side to move, castling and en passant, see
    /// [`super::query::search_positions`]): a game counts once if it
    /// reaches any of them, and once per move it played in them.
    ///
    /// Each game's packed main line is read and decoded once, up to the
    /// last ply at which it reaches one of the positions; the plies where
    /// it does come from the position index, grouped by game.
    ///
    /// # Errors
    /// SQLite errors, or a stored main line that does not decode.
    pub fn tree_of(&self, positions: &[Position]) -> Result<Tree, DbError> {
        let Some(variant) = positions.first().map(|p| p.variant().clone()) else {
            return Ok(Tree::default());
        };
        let mut tally = Tally {
            variant,
            turns: positions.iter().map(Position::turn).collect(),
            tree: Tree::default(),
            by_move: BTreeMap::new(),
        };
        // A position many games reach is answered from its tree as
        // `optimize` stored it and the imports since kept it.
        if let [pos] = positions
            && stored::load(&self.conn, pos.key(), pos.turn(), &mut tally)?
        {
            return finish(tally, positions);
        }
        // (game, ply, which position), by game and ply.
        let mut reached: Vec<(u32, u16, usize)> = Vec::new();
        for (i, pos) in positions.iter().enumerate() {
            reached.extend(
                postings::reached(&self.conn, pos.key())?
                    .into_iter()
                    .map(|p| (p.game, p.ply, i)),
            );
        }
        reached.sort_unstable();
        reached.dedup_by_key(|r| (r.0, r.1));
        count_games(&self.conn, &reached, &mut tally)?;
        finish(tally, positions)
    }
}

/// Counts into `tally` the games of `reached` (game, ply, which position;
/// by game and ply), each game's packed line read and decoded once.
fn count_games(
    conn: &rusqlite::Connection,
    reached: &[(u32, u16, usize)],
    tally: &mut Tally,
) -> Result<(), DbError> {
    // One small `moves` row per game (its result is there too): never
    // the long `games` row. The key holds the variant, so the games
    // found are the variant's. Looked up one by one, or, when the
    // position is reached by a good part of all games (the start),
    // read in one pass in id order, which costs a row each instead of
    // a B-tree descent each (the start position among 500,000 games:
    // 1.11 s of CPU before, 0.14 s with the rows counted in place).
    let by_game: Vec<&[(u32, u16, usize)]> = reached.chunk_by(|a, b| a.0 == b.0).collect();
    let stored: i64 =
        conn.query_row("SELECT COALESCE(MAX(game), 0) FROM moves", [], |r| r.get(0))?;
    if by_game.len() as i64 * 8 > stored {
        let mut stmt = conn.prepare("SELECT game, result, packed FROM moves ORDER BY game")?;
        let mut rows = stmt.query([])?;
        let mut next = by_game.iter().peekable();
        while let Some(r) = rows.next()? {
            let game: i64 = r.get(0)?;
            // Games without a stored line are passed over.
            while next.peek().is_some_and(|p| i64::from(p[0].0) < game) {
                next.next();
            }
            let Some(plies) = next.next_if(|p| i64::from(p[0].0) == game) else {
                if next.peek().is_none() {
                    break;
                }
                continue;
            };
            let result = r.get_ref(1)?.as_str_or_null().ok().flatten();
            tally.add(game, plies, result, blob(r, 2)?)?;
        }
    } else {
        let mut stmt =
            conn.prepare_cached("SELECT game, result, packed FROM moves WHERE game = ?1")?;
        for plies in &by_game {
            let game = i64::from(plies[0].0);
            let mut rows = stmt.query([game])?;
            if let Some(r) = rows.next()? {
                let result = r.get_ref(1)?.as_str_or_null().ok().flatten();
                tally.add(game, plies, result, blob(r, 2)?)?;
            }
        }
    }
    Ok(())
}

/// The tree of `positions` from the moves counted in `tally`.
fn finish(tally: Tally, positions: &[Position]) -> Result<Tree, DbError> {
    let Tally {
        mut tree, by_move, ..
    } = tally;
    let mut legal: Vec<Option<Vec<Move>>> = vec![None; positions.len()];
    let book = positions
        .first()
        .and_then(|p| OpeningBook::of_or_none(p.variant()));
    for ((turn, _), played) in by_move {
        let Played {
            mv,
            state,
            games,
            first_game,
            results: [w, d, b],
            ..
        } = played;
        // The position it was found in first, else another of the same
        // side to move where it is legal (castling states differ).
        let mut found = None;
        for i in std::iter::once(state).chain(0..positions.len()) {
            if positions.get(i).is_none_or(|p| p.turn() != turn) {
                continue;
            }
            let moves = legal[i].get_or_insert_with(|| positions[i].legal_moves());
            if moves.contains(&mv) {
                found = Some(i);
                break;
            }
        }
        let Some(i) = found else {
            return Err(DbError::Corrupt {
                game: first_game,
                source: PackedError::Invalid {
                    ply: 0,
                    what: format!(
                        "a stored move from {} to {} is not legal in the position its index names",
                        mv.from, mv.to
                    ),
                },
            });
        };
        let pos = &positions[i];
        let opening = book.as_ref().and_then(|b| {
            let mut after = pos.clone();
            after.play_unchecked(&mv);
            b.lookup(&after)
        });
        tree.moves.push(TreeMove {
            opening,
            san: write_san(pos, &mv),
            coord: write_coord(pos, &mv),
            mv,
            turn,
            games,
            white_wins: w,
            draws: d,
            black_wins: b,
        });
    }
    tree.moves
        .sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.san.cmp(&b.san)));
    Ok(tree)
}

/// The trees `xpgn optimize` stores (`opening_tree`): one row per position
/// that at least [`STORED_FROM_GAMES`] games reach, with what a tree of it
/// counts (games, games ending there, and per move its stored bytes, games,
/// results and first game). An import keeps the rows up to date ([`Kept`]):
/// each game it stores is added to the stored tree of every position of its
/// main line that has one, in the transaction that stores the game, so a
/// stored tree is always the one the games would give; a position without
/// one is counted from the games. At 500,000 games the start position took
/// 139 ms of CPU counted from every game's first move; read from its row it
/// takes a few.
pub(crate) mod stored {
    use std::collections::{BTreeMap, HashMap};
    use std::hash::{BuildHasherDefault, Hasher};

    use rusqlite::{Connection, params};

    use super::{MoveBytes, Played, Tally, count_games};
    use crate::db::DbError;
    use crate::db::packed::{Decoder, PackedError};
    use crate::db::postings::{self, Posting};
    use crate::rules::{Color, Registry, Variant};
    use std::sync::Arc;

    /// Games a position must be reached by for its tree to be stored: one
    /// with fewer is counted from its games in a few milliseconds.
    pub const STORED_FROM_GAMES: usize = 2_000;

    /// The index's varints ([`postings::put_varint`]), for 64-bit counts.
    fn put(out: &mut Vec<u8>, v: u64) {
        postings::put_varint(out, u128::from(v));
    }

    /// A 64-bit count; `None` where the blob ends or holds a larger value.
    fn get(blob: &[u8], at: &mut usize) -> Option<u64> {
        postings::get_varint(blob, at).and_then(|v| u64::try_from(v).ok())
    }

    /// The moves of a stored row: per move its stored bytes (as
    /// [`MoveBytes`]) and [games, White wins, draws, Black wins, first
    /// game]; `None` when the blob does not read.
    fn parse_moves(blob: &[u8]) -> Option<Vec<(MoveBytes, [u64; 5])>> {
        let mut moves = Vec::new();
        let mut at = 0;
        while at < blob.len() {
            let len = usize::from(blob[at]).min(9);
            let bytes_at = at + 1;
            let stored = blob.get(bytes_at..bytes_at + len)?;
            at = bytes_at + len;
            let mut fields = [0u64; 5];
            for f in &mut fields {
                *f = get(blob, &mut at)?;
            }
            let mut bytes: MoveBytes = [0; 10];
            bytes[0] = len as u8;
            bytes[1..=len].copy_from_slice(stored);
            moves.push((bytes, fields));
        }
        Some(moves)
    }

    /// The blob of a stored row: its moves in the order of their bytes
    /// (as `optimize` writes them), each [games, White wins, draws, Black
    /// wins, first game].
    fn encode_moves<'a>(moves: impl Iterator<Item = (&'a MoveBytes, [u64; 5])>) -> Vec<u8> {
        let mut blob = Vec::new();
        for (bytes, fields) in moves {
            let len = usize::from(bytes[0]).min(9);
            blob.push(len as u8);
            blob.extend_from_slice(&bytes[1..=len]);
            for v in fields {
                put(&mut blob, v);
            }
        }
        blob
    }

    /// Loads the stored tree of `key` into `tally` (a tree of one position,
    /// whose side to move is `turn`); `false` when none is stored.
    ///
    /// # Errors
    /// SQLite errors, or a stored row that does not read.
    pub(super) fn load(
        conn: &Connection,
        key: u64,
        turn: Color,
        tally: &mut Tally,
    ) -> Result<bool, DbError> {
        let row: Option<(i64, i64, Vec<u8>)> = conn
            .prepare_cached("SELECT games, ended, moves FROM opening_tree WHERE key = ?1")?
            .query_row([key as i64], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                e => Err(e),
            })?;
        let Some((games, ended, blob)) = row else {
            return Ok(false);
        };
        let damaged = || DbError::Corrupt {
            game: 0,
            source: PackedError::Invalid {
                ply: 0,
                what: format!("the stored tree of position key {key} does not read"),
            },
        };
        tally.tree.games = u64::try_from(games).map_err(|_| damaged())?;
        tally.tree.ended = u64::try_from(ended).map_err(|_| damaged())?;
        for (bytes, [games, w, d, b, first_game]) in parse_moves(&blob).ok_or_else(damaged)? {
            let len = usize::from(bytes[0]);
            let mv = Decoder::new(&tally.variant, &bytes[1..=len])
                .next()
                .ok_or_else(damaged)?
                .map_err(|source| DbError::Corrupt {
                    game: first_game as i64,
                    source,
                })?;
            tally.by_move.insert(
                (turn, bytes),
                Played {
                    mv,
                    state: 0,
                    games,
                    first_game: first_game as i64,
                    last_game: 0,
                    results: [w, d, b],
                },
            );
        }
        Ok(true)
    }

    /// Stores the tree of every position that `entries` (one bucket's, by
    /// key) show `from_games` or more games reaching ([`STORED_FROM_GAMES`]
    /// for `optimize`), counted from the games as [`super::Database::tree`]
    /// counts them. Returns how many it stored.
    ///
    /// # Errors
    /// SQLite errors, or a stored main line that does not decode.
    pub(crate) fn store_bucket(
        conn: &Connection,
        registry: &Registry,
        entries: &[Posting],
        from_games: usize,
    ) -> Result<u64, DbError> {
        let mut stored = 0;
        for run in entries.chunk_by(|a, b| a.key == b.key) {
            let mut games: Vec<u32> = run.iter().map(|p| p.game).collect();
            games.sort_unstable();
            games.dedup();
            if games.len() < from_games.max(1) {
                continue;
            }
            // The key holds the variant: any of its games names it.
            let name: String = conn.query_row(
                "SELECT variant FROM games WHERE id = ?1",
                [i64::from(games[0])],
                |r| r.get(0),
            )?;
            // A variant no definition of is loaded: its trees are counted
            // from the games when asked for.
            let Some(variant) = registry.lookup(&name) else {
                continue;
            };
            let mut reached: Vec<(u32, u16, usize)> =
                run.iter().map(|p| (p.game, p.ply, 0)).collect();
            reached.sort_unstable();
            reached.dedup_by_key(|r| (r.0, r.1));
            let mut tally = Tally {
                variant,
                turns: vec![Color::White],
                tree: super::Tree::default(),
                by_move: BTreeMap::new(),
            };
            count_games(conn, &reached, &mut tally)?;
            let blob = encode_moves(tally.by_move.iter().map(|((_, bytes), played)| {
                let [w, d, b] = played.results;
                (bytes, [played.games, w, d, b, played.first_game as u64])
            }));
            conn.prepare_cached(
                "INSERT OR REPLACE INTO opening_tree (key, games, ended, moves) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![
                run[0].key as i64,
                tally.tree.games as i64,
                tally.tree.ended as i64,
                blob
            ])?;
            stored += 1;
        }
        Ok(stored)
    }

    /// A hasher for position keys, which are hashes already: the key is
    /// its own hash (an import looks up every position of every game).
    #[derive(Default)]
    struct KeyHasher(u64);

    impl Hasher for KeyHasher {
        fn finish(&self) -> u64 {
            self.0
        }

        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = self.0.rotate_left(8) ^ u64::from(b);
            }
        }

        fn write_u64(&mut self, v: u64) {
            self.0 = v;
        }
    }

    /// One stored tree as an import adds to it.
    struct KeptTree {
        games: u64,
        ended: u64,
        /// Per move's stored bytes: [games, White wins, draws, Black wins,
        /// first game].
        moves: BTreeMap<MoveBytes, [u64; 5]>,
        /// The last game counted, and the last game counted per move: a
        /// game that comes back counts once, and once per move it played.
        last_game: i64,
        last_game_by_move: HashMap<MoveBytes, i64>,
        /// Whether this import's transaction changed it.
        changed: bool,
    }

    /// The stored trees, loaded by an import in each of its transactions
    /// (so what another process wrote meanwhile, an import, an `optimize`
    /// or an older xpgn that empties the table, is what it adds to) and
    /// kept up to date game by game as [`super::Database::tree`] counts:
    /// a game with a stored main line counts once in each tree of a
    /// position it reaches, once per move it played there, as ending there
    /// when its line ends there; the move's first game stays the smallest
    /// id (the new ones are larger).
    #[derive(Default)]
    pub(crate) struct Kept {
        trees: HashMap<u64, KeptTree, BuildHasherDefault<KeyHasher>>,
        /// (ply, key) of the positions of the game being added that have a
        /// stored tree.
        hits: Vec<(usize, u64)>,
        /// The variants of the games added, by name: looking a name up
        /// among the definitions costs more than the rest of a game.
        variants: Vec<(String, Option<Variant>)>,
        /// Where those names are looked up.
        registry: Arc<Registry>,
    }

    impl Kept {
        /// The trees stored now.
        ///
        /// # Errors
        /// SQLite errors, or a stored row that does not read.
        pub(crate) fn load(conn: &Connection, registry: Arc<Registry>) -> Result<Kept, DbError> {
            let mut trees = HashMap::default();
            let mut stmt =
                conn.prepare_cached("SELECT key, games, ended, moves FROM opening_tree")?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                let key = r.get::<_, i64>(0)? as u64;
                let damaged = || DbError::Corrupt {
                    game: 0,
                    source: PackedError::Invalid {
                        ply: 0,
                        what: format!("the stored tree of position key {key} does not read"),
                    },
                };
                let games = u64::try_from(r.get::<_, i64>(1)?).map_err(|_| damaged())?;
                let ended = u64::try_from(r.get::<_, i64>(2)?).map_err(|_| damaged())?;
                let moves = parse_moves(crate::db::query::blob(r, 3)?).ok_or_else(damaged)?;
                trees.insert(
                    key,
                    KeptTree {
                        games,
                        ended,
                        moves: moves.into_iter().collect(),
                        last_game: 0,
                        last_game_by_move: HashMap::new(),
                        changed: false,
                    },
                );
            }
            Ok(Kept {
                trees,
                registry,
                ..Kept::default()
            })
        }

        /// Whether the position of `key` has a stored tree.
        pub(crate) fn has_tree(&self, key: u64) -> bool {
            self.trees.contains_key(&key)
        }

        /// Adds stored game `game` of `variant`, whose main line reaches
        /// the positions of `keys` (by ply from 0, as the position index
        /// holds them) and is packed as `packed`, with `result` (its
        /// `Result` tag), to the trees of the positions it reaches.
        ///
        /// # Errors
        /// A line that does not decode as far as its keys go.
        pub(crate) fn add_game(
            &mut self,
            game: i64,
            variant: &str,
            keys: &[u64],
            packed: &[u8],
            result: Option<&str>,
        ) -> Result<(), DbError> {
            if self.trees.is_empty() {
                return Ok(());
            }
            self.hits.clear();
            // The index leaves out positions past ply 65,535: so do trees.
            for (ply, key) in keys.iter().take(usize::from(u16::MAX) + 1).enumerate() {
                if self.trees.contains_key(key) {
                    self.hits.push((ply, *key));
                }
            }
            if self.hits.is_empty() {
                return Ok(());
            }
            let corrupt = |source| DbError::Corrupt { game, source };
            // A key names its variant: a stored tree is of a known one.
            let known = match self.variants.iter().find(|(name, _)| name == variant) {
                Some((_, known)) => known.clone(),
                None => {
                    let known = self.registry.lookup(variant);
                    self.variants.push((variant.to_string(), known.clone()));
                    known
                }
            };
            let variant = known.ok_or_else(|| {
                corrupt(PackedError::Invalid {
                    ply: 0,
                    what: format!("variant {variant} has a stored tree but no definition"),
                })
            })?;
            let results = match result {
                Some("1-0") => [1, 0, 0],
                Some("1/2-1/2") => [0, 1, 0],
                Some("0-1") => [0, 0, 1],
                _ => [0, 0, 0],
            };
            let mut decoder = Decoder::new(&variant, packed);
            let mut at_ply = 0;
            for &(ply, key) in &self.hits {
                while at_ply < ply {
                    match decoder.next() {
                        Some(m) => {
                            m.map_err(corrupt)?;
                            at_ply += 1;
                        }
                        None => {
                            return Err(corrupt(PackedError::Invalid {
                                ply,
                                what: "a position key names a ply past the end of the main line"
                                    .into(),
                            }));
                        }
                    }
                }
                let Some(tree) = self.trees.get_mut(&key) else {
                    continue;
                };
                tree.changed = true;
                if tree.last_game != game {
                    tree.last_game = game;
                    tree.games += 1;
                }
                let start = decoder.offset();
                let Some(m) = decoder.next() else {
                    tree.ended += 1;
                    continue;
                };
                m.map_err(corrupt)?;
                at_ply += 1;
                let stored = &packed[start..decoder.offset()];
                let mut bytes: MoveBytes = [0; 10];
                bytes[0] = stored.len() as u8;
                bytes[1..=stored.len().min(9)].copy_from_slice(&stored[..stored.len().min(9)]);
                let last = tree.last_game_by_move.entry(bytes).or_insert(0);
                if *last == game {
                    continue;
                }
                *last = game;
                let counts = tree.moves.entry(bytes).or_insert([0, 0, 0, 0, game as u64]);
                counts[0] += 1;
                for (c, r) in counts[1..4].iter_mut().zip(results) {
                    *c += r;
                }
            }
            Ok(())
        }

        /// Writes the trees changed since loaded (in the transaction that
        /// stores their games).
        ///
        /// # Errors
        /// SQLite errors.
        pub(crate) fn write(&mut self, conn: &Connection) -> Result<(), DbError> {
            let mut update = conn.prepare_cached(
                "UPDATE opening_tree SET games = ?2, ended = ?3, moves = ?4 WHERE key = ?1",
            )?;
            for (&key, tree) in &mut self.trees {
                if !tree.changed {
                    continue;
                }
                let blob = encode_moves(tree.moves.iter().map(|(b, f)| (b, *f)));
                update.execute(params![
                    key as i64,
                    tree.games as i64,
                    tree.ended as i64,
                    blob
                ])?;
                tree.changed = false;
            }
            Ok(())
        }
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
        import(&mut db, GAMES);
        let start = db.tree(&after("")).unwrap();
        let rows = with_results(&start);
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

    fn stored_trees(db: &Database) -> i64 {
        db.conn
            .query_row("SELECT COUNT(*) FROM opening_tree", [], |r| r.get(0))
            .unwrap()
    }

    /// The stored rows, by key.
    fn stored_rows(db: &Database) -> Vec<(i64, i64, i64, Vec<u8>)> {
        let mut stmt = db
            .conn
            .prepare("SELECT key, games, ended, moves FROM opening_tree ORDER BY key")
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    /// Each move of `tree` with its games and results (White, draws, Black).
    fn with_results(tree: &Tree) -> Vec<(&str, u64, [u64; 3])> {
        tree.moves
            .iter()
            .map(|m| {
                (
                    m.san.as_str(),
                    m.games,
                    [m.white_wins, m.draws, m.black_wins],
                )
            })
            .collect()
    }

    fn import(db: &mut Database, text: &str) -> ImportSummary {
        let mut summary = ImportSummary::default();
        db.import("t", text.as_bytes(), &mut summary, &mut |_| {})
            .unwrap();
        summary
    }

    const LINES: [&str; 9] = [
        "",
        "e2e4",
        "e2e4 e7e5",
        "e2e4 e7e5 g1f3 b8c6",
        "g1f3",
        "g1f3 b8c6",
        "e2e4 c7c5",
        "d2d4",
        "e2e4 e7e5 g1f3 d7d6",
    ];

    /// Trees stored by `optimize` are the trees counted from the games, for
    /// every position (start, transpositions, a game that comes back, one
    /// that ends there).
    #[test]
    fn stored_trees_are_the_counted_trees() {
        let mut db = Database::in_memory().unwrap();
        import(&mut db, GAMES);
        let counted: Vec<Tree> = LINES.iter().map(|l| db.tree(&after(l)).unwrap()).collect();
        assert!(counted.iter().all(|t| t.decoded > 0 || t.games == 0));
        let s = db.optimize_storing_trees_from(1).unwrap();
        assert!(s.trees >= 10, "{s:?}");
        assert_eq!(stored_trees(&db) as u64, s.trees);
        for (line, expected) in LINES.iter().zip(&counted) {
            let stored = db.tree(&after(line)).unwrap();
            // Read from its row, when there is one: nothing decoded.
            assert_eq!(stored.decoded, 0, "{line}");
            assert_eq!(
                Tree {
                    decoded: 0,
                    ..stored
                },
                Tree {
                    decoded: 0,
                    ..expected.clone()
                },
                "{line}"
            );
        }
        // Under the default threshold nothing this small is stored.
        let s = db.optimize().unwrap();
        assert_eq!((s.trees, stored_trees(&db)), (0, 0));
    }

    /// Games imported after `optimize` are added to the stored trees: the
    /// rows are those `optimize` would write from all the games, and every
    /// tree read from them is the tree counted from the games. The games
    /// come back to positions, transpose, end at stored positions, are
    /// invalid after a few plies, and have every result and none.
    #[test]
    fn an_import_keeps_the_stored_trees_those_of_all_the_games() {
        let mut db = Database::in_memory().unwrap();
        import(&mut db, GAMES);
        db.optimize_storing_trees_from(1).unwrap();
        let before = stored_rows(&db);
        // A duplicate adds nothing and keeps them as they were.
        assert_eq!(import(&mut db, GAMES).duplicates, 5);
        assert_eq!(stored_rows(&db), before);
        let more = "[Result \"0-1\"]\n1. e4 e5 2. Nf3 d6 0-1\n\n\
            [Result \"1/2-1/2\"]\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n\
            [Result \"1-0\"]\n1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 4. Nf3 Nc6 5. Bc4 1-0\n\n\
            [Result \"0-1\"]\n1. e4 Ke7 0-1\n\n\
            [Result \"1-0\"]\n1. Nf3 Nf6 2. Ng1 Ng8 3. d4 1-0\n\n\
            [Result \"1/2-1/2\"]\n1. e4 c5 2. Nf3 {unclosed\n\n\
            [Result \"*\"]\n1. d4 d5 *\n\n\
            [Event \"no result\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5\n";
        let s = import(&mut db, more);
        assert_eq!((s.imported, s.invalid), (8, 2), "{s:?}");
        let kept = stored_rows(&db);
        // Every position stored before still is, no new one is.
        assert_eq!(
            kept.iter().map(|r| r.0).collect::<Vec<_>>(),
            before.iter().map(|r| r.0).collect::<Vec<_>>()
        );
        assert_ne!(kept, before);
        let from_trees: Vec<Tree> = LINES.iter().map(|l| db.tree(&after(l)).unwrap()).collect();
        // Written from scratch, with the positions that are new since.
        db.optimize_storing_trees_from(1).unwrap();
        let fresh = stored_rows(&db);
        assert!(fresh.len() > kept.len());
        let fresh: Vec<_> = fresh
            .into_iter()
            .filter(|r| kept.iter().any(|k| k.0 == r.0))
            .collect();
        assert_eq!(kept, fresh);
        db.conn.execute("DELETE FROM opening_tree", []).unwrap();
        for (line, stored) in LINES.iter().zip(from_trees) {
            let counted = db.tree(&after(line)).unwrap();
            assert!(counted.decoded > 0 || counted.games == 0, "{line}");
            assert_eq!(
                Tree {
                    decoded: 0,
                    ..counted
                },
                Tree {
                    decoded: 0,
                    ..stored
                },
                "{line}"
            );
        }
    }

    /// An import adds to the trees as the table holds them when each of its
    /// transactions opens: another connection that imported or optimized
    /// meanwhile is not undone.
    #[test]
    fn imports_of_two_connections_keep_the_stored_trees() {
        let path = std::env::temp_dir().join(format!("xpgn-kept-{}.db", std::process::id()));
        let remove = || {
            for ext in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
            }
        };
        remove();
        let mut a = Database::open(&path).unwrap();
        let mut b = Database::open(&path).unwrap();
        import(&mut a, GAMES);
        // `a` reads the trees now: none stored.
        import(&mut a, "[Result \"1-0\"]\n1. d4 d5 2. c4 1-0\n");
        b.optimize_storing_trees_from(1).unwrap();
        import(&mut b, "[Result \"0-1\"]\n1. e4 e5 2. Nf3 d6 0-1\n");
        import(
            &mut a,
            "[Result \"1/2-1/2\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1/2-1/2\n",
        );
        import(&mut b, "[Result \"*\"]\n1. Nf3 d5 *\n");
        let kept = stored_rows(&a);
        assert_eq!(kept, stored_rows(&b));
        a.optimize_storing_trees_from(1).unwrap();
        let fresh: Vec<_> = stored_rows(&a)
            .into_iter()
            .filter(|r| kept.iter().any(|k| k.0 == r.0))
            .collect();
        assert_eq!(kept, fresh);
        assert_eq!(a.tree(&after("")).unwrap().games, 9);
        drop((a, b));
        remove();
    }

    /// A position few of the stored games reach is answered by looking
    /// their lines up one by one, a common one by one pass over all lines:
    /// the same tree either way.
    #[test]
    fn lines_looked_up_or_read_in_one_pass_give_the_same_tree() {
        let mut db = Database::in_memory().unwrap();
        let mut text = GAMES.to_string();
        for i in 0..40 {
            text.push_str(&format!("\n\n[Event \"filler {i}\"]\n1. d4 d5 2. c4 *\n"));
        }
        import(&mut db, &text);
        // Reached by games 1, 2, 3 and 5 of 45: looked up one by one.
        let few = db.tree(&after("e2e4 e7e5 g1f3 b8c6")).unwrap();
        let rows: Vec<(&str, u64)> = few
            .moves
            .iter()
            .map(|m| (m.san.as_str(), m.games))
            .collect();
        assert_eq!(rows, [("Bb5", 2), ("Bc4", 1), ("Ng1", 1)]);
        assert_eq!((few.games, few.ended), (4, 1));
        // Reached by all 45: one pass.
        let all = db.tree(&after("")).unwrap();
        let rows = with_results(&all);
        assert_eq!(
            rows,
            [
                ("d4", 40, [0, 0, 0]),
                ("e4", 4, [2, 1, 0]),
                ("Nf3", 2, [1, 0, 1])
            ]
        );
        assert_eq!(all.games, 45);
    }
}
