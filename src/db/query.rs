//! Game search: filters that combine (variant, tags, result, dates, status,
//! a position reached, opening moves) into one SQL query with parameters;
//! position patterns (pieces on squares, material) then replay the packed
//! main line of each game that query leaves.

use rusqlite::OptionalExtension;
use rusqlite::types::Value;

use super::migrate::tags_from_json;
use super::pattern::PositionPattern;
use super::{Database, DbError, packed, postings};
use crate::notation::position::read_position;
use crate::rules::{Move, Position};

/// What to look for; every filter given must hold.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Variant short name.
    pub variant: Option<String>,
    /// Tag name and a value it must contain (case-blind).
    pub tags: Vec<(String, String)>,
    /// Exact result (`1-0`, ...).
    pub result: Option<String>,
    /// Earliest `Date` (as written, `YYYY.MM.DD`).
    pub date_from: Option<String>,
    /// Latest `Date`.
    pub date_to: Option<String>,
    /// `valid` or `invalid`.
    pub status: Option<String>,
    /// A position key the game must reach on its main line.
    pub position: Option<u64>,
    /// Moves the main line must start with, from the variant's start
    /// position (games with a `FEN` tag never match).
    pub moves_prefix: Option<Vec<Move>>,
    /// Pieces and material one main-line position must show; only games
    /// of the pattern's variant can match.
    pub pattern: Option<PositionPattern>,
    /// Most games to return.
    pub limit: Option<u64>,
}

/// One game found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundGame {
    /// Row id.
    pub id: i64,
    /// Variant.
    pub variant: String,
    /// `White` tag.
    pub white: Option<String>,
    /// `Black` tag.
    pub black: Option<String>,
    /// `Date` tag.
    pub date: Option<String>,
    /// `Event` tag.
    pub event: Option<String>,
    /// Result column.
    pub result: Option<String>,
    /// Main-line plies.
    pub plies: i64,
    /// `valid` or `invalid`.
    pub status: String,
    /// First ply at which the pattern matched, else where the position
    /// filter did (0 = start).
    pub ply: Option<i64>,
}

/// What a search did besides finding games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Games whose main line was replayed for a pattern.
    pub games_scanned: u64,
    /// Positions tested against the pattern.
    pub positions_scanned: u64,
}

/// Adds condition `cond` whose one `?` is `value`, numbered after the others.
fn bind(params: &mut Vec<Value>, conds: &mut Vec<String>, cond: &str, value: Value) {
    params.push(value);
    conds.push(cond.replace('?', &format!("?{}", params.len())));
}

impl Database {
    /// The games matching `filter`, by id.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn find_games(&self, filter: &GameFilter) -> Result<Vec<FoundGame>, DbError> {
        Ok(self.search(filter)?.0)
    }

    /// The games matching `filter`, by id, and what the pattern scan did.
    ///
    /// # Errors
    /// SQLite errors, or a stored main line that does not replay.
    pub fn search(&self, filter: &GameFilter) -> Result<(Vec<FoundGame>, SearchStats), DbError> {
        let mut sql = String::from(
            "SELECT g.id, g.variant, g.result, g.plies, g.status, g.white, g.black, g.date, g.event, ",
        );
        let mut params: Vec<Value> = Vec::new();
        if let Some(key) = filter.position {
            postings::stage_reached(&self.conn, key)?;
            sql.push_str(
                "p.ply FROM games g JOIN (SELECT game, MIN(ply) AS ply FROM temp.reached \
                 GROUP BY game) p ON p.game = g.id",
            );
        } else {
            sql.push_str("NULL FROM games g");
        }
        if filter.pattern.is_some() {
            sql = sql.replacen(
                "SELECT g.id, g.variant, g.result, g.plies, g.status, g.white, g.black, g.date, g.event, ",
                "SELECT g.id, g.variant, g.result, g.plies, g.status, g.white, g.black, g.date, g.event, m.packed, m.start, ",
                1,
            );
            sql.push_str(" JOIN moves m ON m.game = g.id");
        }
        let mut conds: Vec<String> = Vec::new();
        if let Some(p) = &filter.pattern {
            bind(
                &mut params,
                &mut conds,
                "g.variant = ?",
                Value::Text(p.variant().name().to_string()),
            );
        }
        if let Some(v) = &filter.variant {
            bind(
                &mut params,
                &mut conds,
                "g.variant = ?",
                Value::Text(v.clone()),
            );
        }
        for (name, value) in &filter.tags {
            params.push(Value::Text(name.clone()));
            let n = params.len();
            params.push(Value::Text(value.to_lowercase()));
            let v = params.len();
            conds.push(format!(
                "EXISTS (SELECT 1 FROM json_each(g.tags) t WHERE t.value ->> 0 = ?{n} \
                 AND instr(lower(t.value ->> 1), ?{v}) > 0)"
            ));
        }
        if let Some(r) = &filter.result {
            bind(
                &mut params,
                &mut conds,
                "g.result = ?",
                Value::Text(r.clone()),
            );
        }
        if let Some(d) = &filter.date_from {
            bind(
                &mut params,
                &mut conds,
                "g.date >= ?",
                Value::Text(d.clone()),
            );
        }
        if let Some(d) = &filter.date_to {
            bind(
                &mut params,
                &mut conds,
                "g.date <= ?",
                Value::Text(d.clone()),
            );
        }
        if let Some(s) = &filter.status {
            bind(
                &mut params,
                &mut conds,
                "g.status = ?",
                Value::Text(s.clone()),
            );
        }
        if let Some(prefix) = &filter.moves_prefix {
            params.push(Value::Blob(packed::encode_all(prefix)));
            let n = params.len();
            // A move's packed bytes depend on nothing but the move, and the
            // move on the position: equal prefixes are equal openings.
            conds.push(format!(
                "EXISTS (SELECT 1 FROM moves m2 WHERE m2.game = g.id AND m2.start IS NULL \
                 AND substr(m2.packed, 1, length(?{n})) = ?{n})"
            ));
        }
        if !conds.is_empty() {
            sql.push_str(" WHERE ");
            sql.push_str(&conds.join(" AND "));
        }
        sql.push_str(" ORDER BY g.id");
        if let (Some(limit), None) = (filter.limit, &filter.pattern) {
            sql.push_str(&format!(" LIMIT {limit}"));
        }
        let mut stats = SearchStats::default();
        let mut found = Vec::new();
        let mut stmt = self.conn.prepare(&sql)?;
        match &filter.pattern {
            None => {
                found = stmt
                    .query_map(rusqlite::params_from_iter(params), |r| {
                        found_game(r, r.get(9)?)
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
            }
            Some(pattern) => {
                let variant_start = Position::start(pattern.variant());
                let mut rows = stmt.query(rusqlite::params_from_iter(params))?;
                while let Some(r) = rows.next()? {
                    if filter.limit.is_some_and(|l| found.len() as u64 >= l) {
                        break;
                    }
                    let id: i64 = r.get(0)?;
                    let corrupt = |source| DbError::Corrupt { game: id, source };
                    let start = match r.get::<_, Option<String>>(10)?.as_deref() {
                        None => variant_start.clone(),
                        Some(text) => read_position(pattern.variant(), text).map_err(|e| {
                            corrupt(packed::PackedError::Invalid {
                                ply: 0,
                                what: format!("start position: {e}"),
                            })
                        })?,
                    };
                    let (ply, seen) = pattern.first_match(&start, blob(r, 9)?).map_err(corrupt)?;
                    stats.games_scanned += 1;
                    stats.positions_scanned += seen as u64;
                    if let Some(ply) = ply {
                        found.push(found_game(r, Some(ply as i64))?);
                    }
                }
            }
        }
        Ok((found, stats))
    }

    /// Every tag pair of game `id`, in the order written (none for no
    /// such game).
    ///
    /// # Errors
    /// SQLite errors.
    pub fn game_tags(&self, id: i64) -> Result<Vec<(String, String)>, DbError> {
        let text: Option<String> = self
            .conn
            .prepare_cached("SELECT tags FROM games WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        Ok(text.map_or_else(Vec::new, |t| tags_from_json(&t)))
    }
}

/// A blob column without copying it.
pub(crate) fn blob<'r>(r: &'r rusqlite::Row<'_>, i: usize) -> rusqlite::Result<&'r [u8]> {
    r.get_ref(i)?.as_blob().map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Blob, Box::new(e))
    })
}

fn found_game(r: &rusqlite::Row<'_>, ply: Option<i64>) -> rusqlite::Result<FoundGame> {
    Ok(FoundGame {
        id: r.get(0)?,
        variant: r.get(1)?,
        white: r.get(5)?,
        black: r.get(6)?,
        date: r.get(7)?,
        event: r.get(8)?,
        result: r.get(2)?,
        plies: r.get(3)?,
        status: r.get(4)?,
        ply,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::import::ImportSummary;
    use crate::notation::position::read_position;
    use crate::rules::Variant;

    const GAMES: &str = "[White \"Anna Alpha\"][Black \"Bo\"][Date \"2001.05.01\"][Result \"1-0\"]\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
        [White \"Bo\"][Black \"anna alpha\"][Date \"2003.01.01\"][Result \"0-1\"]\n1. Nf3 Nc6 2. e4 e5 3. Bb5 0-1\n\n\
        [White \"Cy\"][Black \"Bo\"][Date \"2002.01.01\"][Result \"1/2-1/2\"]\n1. d4 d5 1/2-1/2\n\n\
        [White \"Cy\"][Result \"*\"]\n1. e4 Ke7 *\n\n\
        [Variant \"Royal Chess\"][White \"Anna\"]\n1. e3 e6 *\n";

    fn db() -> Database {
        let mut db = Database::in_memory().unwrap();
        db.import(
            "t",
            GAMES.as_bytes(),
            &mut ImportSummary::default(),
            &mut |_| {},
        )
        .unwrap();
        db
    }

    fn moves(coords: &str) -> Vec<Move> {
        let mut pos = Position::start(Variant::chess());
        coords
            .split_whitespace()
            .map(|c| {
                let m = crate::notation::coord::resolve_coord(&pos, c).unwrap();
                pos.play_unchecked(&m);
                m
            })
            .collect()
    }

    fn ids(db: &Database, f: GameFilter) -> Vec<(i64, Option<i64>)> {
        db.find_games(&f)
            .unwrap()
            .iter()
            .map(|g| (g.id, g.ply))
            .collect()
    }

    #[test]
    fn filters_combine() {
        let db = db();
        let tag = |n: &str, v: &str| vec![(n.to_string(), v.to_string())];
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    tags: tag("White", "ANNA"),
                    ..Default::default()
                }
            ),
            [(1, None), (5, None)]
        );
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    tags: tag("White", "anna"),
                    variant: Some("chess".into()),
                    ..Default::default()
                }
            ),
            [(1, None)]
        );
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    result: Some("0-1".into()),
                    ..Default::default()
                }
            ),
            [(2, None)]
        );
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    date_from: Some("2002".into()),
                    date_to: Some("2002.12.31".into()),
                    ..Default::default()
                }
            ),
            [(3, None)]
        );
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    status: Some("invalid".into()),
                    ..Default::default()
                }
            ),
            [(4, None)]
        );
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    moves_prefix: Some(moves("e2e4 e7e5")),
                    ..Default::default()
                }
            ),
            [(1, None)]
        );
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    moves_prefix: Some(moves("d2d4 d7d5")),
                    ..Default::default()
                }
            ),
            [(3, None)]
        );
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    moves_prefix: Some(moves("d2d4 d7d5 c2c4")),
                    ..Default::default()
                }
            ),
            []
        );
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    limit: Some(2),
                    ..Default::default()
                }
            ),
            [(1, None), (2, None)]
        );
    }

    #[test]
    fn a_position_is_found_through_transpositions_and_only_where_reached() {
        let db = db();
        let after = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        let key = read_position(Variant::chess(), after).unwrap().key();
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    position: Some(key),
                    ..Default::default()
                }
            ),
            [(1, Some(4)), (2, Some(4))]
        );
        let start = crate::rules::Position::start(Variant::chess()).key();
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    position: Some(start),
                    tags: vec![("White".into(), "cy".into())],
                    ..Default::default()
                }
            ),
            // Game 4 is invalid (`Ke7`), but its plies before the fault are
            // indexed: it reaches the start too.
            [(3, Some(0)), (4, Some(0))]
        );
        let royal = crate::rules::Position::start(Variant::by_name("royal").unwrap()).key();
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    position: Some(royal),
                    ..Default::default()
                }
            ),
            [(5, Some(0))]
        );
    }
}
