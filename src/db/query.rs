//! Game search: filters that combine (variant, tags, result, dates, status,
//! a position reached, opening moves) into one SQL query with parameters;
//! position patterns (pieces on squares, material) then replay the packed
//! main line of each game that query leaves.

use rusqlite::OptionalExtension;
use rusqlite::types::Value;

use super::pattern::PositionPattern;
use super::{Database, DbError, packed, postings, tags};
use crate::notation::filter::{GameSelection, facts};
use crate::notation::position::{FenField, PositionStringError, read_position, read_setup};
use crate::notation::reader::GameSplitter;
use crate::rules::{
    CastlingSide, Color, Move, Piece, Position, Setup, Square, Variant, WaitingPawn,
};

/// What to look for; every filter given must hold.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Variant short name.
    pub variant: Option<String>,
    /// Tag name and a value it must contain (case-blind, Unicode lower
    /// case: `müller` finds `MÜLLER`).
    pub tags: Vec<(String, String)>,
    /// A value the `White` or the `Black` tag must contain (case-blind).
    pub player: Option<String>,
    /// Exact result (`1-0`, ...).
    pub result: Option<String>,
    /// Games whose `Date` can fall on or after this range's first day:
    /// a partial date (`1985.??.??`) is the range of days it can mean, and
    /// matches when that range overlaps the one asked for.
    pub date_from: Option<DateRange>,
    /// Games whose `Date` can fall on or before this range's last day.
    pub date_to: Option<DateRange>,
    /// `valid` or `invalid`.
    pub status: Option<String>,
    /// A position key the game must reach on its main line.
    pub position: Option<u64>,
    /// Position keys of which the game must reach one (with `position`, if
    /// given, one more): a board given without side to move, castling or
    /// en passant stands for several positions.
    pub any_position: Vec<u64>,
    /// Moves the main line must start with, from the variant's start
    /// position (games with a `FEN` tag never match).
    pub moves_prefix: Option<Vec<Move>>,
    /// Pieces and material one main-line position must show; only games
    /// of the pattern's variant can match.
    pub pattern: Option<PositionPattern>,
    /// ECO codes the game's opening must fall in.
    pub eco: Option<EcoRange>,
    /// A part of the opening's name (case-blind).
    pub opening: Option<String>,
    /// At least this many main-line plies (the `plies` column).
    pub min_plies: Option<u64>,
    /// At most this many.
    pub max_plies: Option<u64>,
    /// What a game must hold beyond its columns (tag comparisons, plies,
    /// ending, annotations): each game the other filters leave is read
    /// again from its original text and tested.
    pub selection: Option<GameSelection>,
    /// Most games to return.
    pub limit: Option<u64>,
    /// Matching games to skip before the first returned (paging).
    pub offset: Option<u64>,
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
    /// The ECO code of its opening (the `eco` column).
    pub eco: Option<String>,
    /// The name of its opening (the `opening` column).
    pub opening: Option<String>,
}

/// What a search did besides finding games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Games whose main line was replayed for a pattern.
    pub games_scanned: u64,
    /// Positions tested against the pattern.
    pub positions_scanned: u64,
}

/// The days a date can mean, as `YYYYMMDD` numbers, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DateRange {
    /// The first day.
    pub first: u32,
    /// The last day.
    pub last: u32,
}

/// A date argument that is no date.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is no date: expected YYYY.MM.DD, YYYY-MM-DD, YYYY.MM or YYYY")]
pub struct DateError(pub String);

fn days_in(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A number of `min..=max` digits, all ASCII digits.
fn number(text: &str, min: usize, max: usize) -> Option<u32> {
    (text.len() >= min && text.len() <= max && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

impl DateRange {
    /// The days of `year`, of `month` of it, or the one day.
    fn of(year: u32, month: Option<u32>, day: Option<u32>) -> DateRange {
        let (m1, m2) = month.map_or((1, 12), |m| (m, m));
        let (d1, d2) = day.map_or((1, days_in(year, m2)), |d| (d, d));
        DateRange {
            first: year * 10000 + m1 * 100 + d1,
            last: year * 10000 + m2 * 100 + d2,
        }
    }

    /// Reads a date argument: `YYYY.MM.DD`, `YYYY-MM-DD`, `YYYY.MM` (or
    /// `YYYY-MM`) or `YYYY`; a month or a year stands for all its days.
    ///
    /// # Errors
    /// Anything else, or a month or day that does not exist (`2020.13.45`).
    pub fn parse(text: &str) -> Result<DateRange, DateError> {
        let fail = || DateError(text.to_string());
        let sep = if text.contains('-') { '-' } else { '.' };
        let parts: Vec<&str> = text.split(sep).collect();
        if parts.len() > 3 {
            return Err(fail());
        }
        let year = number(parts[0], 4, 4).ok_or_else(fail)?;
        let month = match parts.get(1) {
            None => None,
            Some(m) => Some(
                number(m, 1, 2)
                    .filter(|m| (1..=12).contains(m))
                    .ok_or_else(fail)?,
            ),
        };
        let day = match (parts.get(2), month) {
            (Some(d), Some(m)) => Some(
                number(d, 1, 2)
                    .filter(|d| (1..=days_in(year, m)).contains(d))
                    .ok_or_else(fail)?,
            ),
            _ => None,
        };
        Ok(DateRange::of(year, month, day))
    }

    /// The days a `Date` tag value can mean: `YYYY.MM.DD` with `??` for
    /// what is unknown (`1985.06.??` is June 1985); `None` when the year is
    /// unknown or unreadable. A month or day that cannot be read counts as
    /// unknown.
    pub fn of_tag(text: &str) -> Option<DateRange> {
        let mut parts = text.trim().split(['.', '-', '/']);
        let year = number(parts.next()?, 4, 4)?;
        let month = parts
            .next()
            .and_then(|m| number(m, 1, 2))
            .filter(|m| (1..=12).contains(m));
        let day = month.and_then(|m| {
            parts
                .next()
                .and_then(|d| number(d, 1, 2))
                .filter(|d| (1..=days_in(year, m)).contains(d))
        });
        Some(DateRange::of(year, month, day))
    }
}

impl std::str::FromStr for DateRange {
    type Err = DateError;
    fn from_str(text: &str) -> Result<DateRange, DateError> {
        DateRange::parse(text)
    }
}

/// ECO codes from `first` to `last`, both included (`B20` to `B99`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EcoRange {
    /// The first code.
    pub first: String,
    /// The last code.
    pub last: String,
}

/// An `--eco` argument that is no ECO code or range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is no ECO code or range: expected a code A00 to E99 (`B90`), a range of them (`B20-B99`) or a letter (`B`: B00-B99)"
)]
pub struct EcoError(pub String);

impl EcoRange {
    /// Reads `B90`, `B20-B99` (the first code not after the last) or a
    /// letter `A` to `E` (its hundred codes); letters in either case.
    ///
    /// # Errors
    /// Anything else.
    pub fn parse(text: &str) -> Result<EcoRange, EcoError> {
        let fail = || EcoError(text.to_string());
        let code = |t: &str| {
            let t = t.trim().to_ascii_uppercase();
            let b = t.as_bytes();
            (b.len() == 3
                && (b'A'..=b'E').contains(&b[0])
                && b[1].is_ascii_digit()
                && b[2].is_ascii_digit())
            .then_some(t)
        };
        let trimmed = text.trim();
        if trimmed.len() == 1 {
            let letter = trimmed.to_ascii_uppercase();
            if !("A"..="E").contains(&letter.as_str()) {
                return Err(fail());
            }
            return Ok(EcoRange {
                first: format!("{letter}00"),
                last: format!("{letter}99"),
            });
        }
        let (first, last) = match trimmed.split_once('-') {
            Some((a, b)) => (code(a).ok_or_else(fail)?, code(b).ok_or_else(fail)?),
            None => {
                let c = code(trimmed).ok_or_else(fail)?;
                (c.clone(), c)
            }
        };
        if first > last {
            return Err(fail());
        }
        Ok(EcoRange { first, last })
    }

    /// Whether `eco` falls in the range.
    pub fn contains(&self, eco: &str) -> bool {
        self.first.as_str() <= eco && eco <= self.last.as_str()
    }
}

impl std::str::FromStr for EcoRange {
    type Err = EcoError;
    fn from_str(text: &str) -> Result<EcoRange, EcoError> {
        EcoRange::parse(text)
    }
}

/// The positions a position string given to a search stands for.
#[derive(Clone, Debug)]
pub struct SearchPositions {
    /// Every legal position it can mean, one per position key.
    pub positions: Vec<Position>,
    /// The fields the string left out and `positions` varies (empty when
    /// it is one whole position string): the string stopped before the
    /// side to move, castling or en passant field.
    pub varied: Vec<FenField>,
}

/// What `text` stands for in a search of `variant`'s games. A whole
/// position string (board, side to move, castling, en passant; the clocks
/// never count, missing extra fields take their defaults as for
/// [`read_position`]) is one position. A string that stops earlier (the
/// board alone, or board and side to move, ...) stands for every legal
/// position with that board and the fields it gives: either side to move,
/// every castling state the kings and partners standing on their squares
/// allow, every en passant square a double step could have left, and,
/// where the variant has them, every castling stage, unused king move and
/// waiting pawn state the board allows.
///
/// # Errors
/// The string cannot be read, or (whole) is not a legal position, or
/// (partial) no legal position has that board.
pub fn search_positions(
    variant: &Variant,
    text: &str,
) -> Result<SearchPositions, PositionStringError> {
    let (setup, columns) = read_setup(variant, text)?;
    let given = |f: FenField| columns.iter().any(|(c, _)| *c == f);
    if given(FenField::Turn) && given(FenField::Castling) && given(FenField::EnPassant) {
        return Ok(SearchPositions {
            positions: vec![read_position(variant.clone(), text)?],
            varied: Vec::new(),
        });
    }
    let on = |sq: Square| setup.board.iter().find(|(s, _)| *s == sq).map(|(_, p)| *p);
    let turns = if given(FenField::Turn) {
        vec![setup.turn]
    } else {
        vec![Color::White, Color::Black]
    };
    let castlings: Vec<Vec<(Color, CastlingSide)>> = if given(FenField::Castling) {
        vec![setup.castling.clone()]
    } else {
        let all = [
            (Color::White, CastlingSide::Short),
            (Color::White, CastlingSide::Long),
            (Color::Black, CastlingSide::Short),
            (Color::Black, CastlingSide::Long),
        ];
        subsets(&all)
    };
    let stages: Vec<Vec<(Color, Square)>> = if variant.has_castling_stages() {
        let mut staged: Vec<(Color, Square)> = Vec::new();
        for c in &variant.def().castling {
            let origin = variant.king_origin(c.color);
            for (from, first) in [(c.king_from, origin), (c.partner_from, c.partner_origin)] {
                if from != first
                    && on(from).is_some_and(|p| p.color == c.color)
                    && !staged.contains(&(c.color, from))
                {
                    staged.push((c.color, from));
                }
            }
        }
        subsets(&staged)
    } else {
        vec![Vec::new()]
    };
    let rights: Vec<Option<[bool; 2]>> = if variant.special_king_move().is_some() {
        vec![
            Some([false, false]),
            Some([true, false]),
            Some([false, true]),
            Some([true, true]),
        ]
    } else {
        vec![None]
    };
    let waiting = if variant.has_waiting_promotion() {
        waiting_states(variant, &setup.board)
    } else {
        vec![Vec::new()]
    };
    let mut seen = std::collections::HashSet::new();
    let mut positions = Vec::new();
    let mut keep = |pos: Position| {
        if seen.insert(pos.key()) {
            positions.push(pos);
        }
    };
    for &turn in &turns {
        for castling in &castlings {
            for stages in &stages {
                for &king_rights in &rights {
                    for waiting in &waiting {
                        let mut s = Setup {
                            turn,
                            castling: castling.clone(),
                            castling_stages: stages.clone(),
                            king_rights,
                            waiting: waiting.clone(),
                            ep_square: None,
                            ..setup.clone()
                        };
                        let Ok(pos) = Position::from_setup(variant.clone(), &s) else {
                            continue;
                        };
                        keep(pos);
                        if given(FenField::EnPassant) {
                            continue;
                        }
                        // Behind a pawn of the side that just moved.
                        let pawn = Piece {
                            color: turn.other(),
                            kind: variant.pawn_kind(),
                        };
                        for &(sq, p) in &setup.board {
                            for dr in [-1, 1] {
                                if p != pawn {
                                    continue;
                                }
                                s.ep_square = variant.size().offset(sq, 0, dr);
                                if let Ok(pos) = Position::from_setup(variant.clone(), &s) {
                                    keep(pos);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    if positions.is_empty() {
        return Err(PositionStringError {
            field: FenField::Board,
            column: 1,
            message: "no legal position has this board".into(),
        });
    }
    let mut varied: Vec<FenField> = [FenField::Turn, FenField::Castling, FenField::EnPassant]
        .into_iter()
        .filter(|f| !given(*f))
        .collect();
    if variant.has_castling_stages() {
        varied.push(FenField::Stages);
    }
    if variant.special_king_move().is_some() {
        varied.push(FenField::KingRights);
    }
    if variant.has_waiting_promotion() {
        varied.push(FenField::Waiting);
    }
    Ok(SearchPositions { positions, varied })
}

/// Every subset of `items`, the empty one first.
fn subsets<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    (0..1usize << items.len())
        .map(|mask| {
            items
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, x)| x.clone())
                .collect()
        })
        .collect()
}

/// The waiting-pawn fields a board allows: each pawn on its owner's last
/// rank waits with 2, 1 or 0 turns left, blocked ones in every order of
/// arrival (at most 6 such pawns are varied; more are taken as listed).
fn waiting_states(variant: &Variant, board: &[(Square, Piece)]) -> Vec<Vec<WaitingPawn>> {
    let pawns: Vec<(Square, Color)> = board
        .iter()
        .filter(|(sq, p)| p.kind == variant.pawn_kind() && sq.rank() == variant.last_rank(p.color))
        .map(|(sq, p)| (*sq, p.color))
        .collect();
    let mut states: Vec<Vec<WaitingPawn>> = vec![Vec::new()];
    for (i, &(square, color)) in pawns.iter().enumerate() {
        let turns: &[u8] = if i < 6 { &[2, 1, 0] } else { &[2] };
        states = states
            .into_iter()
            .flat_map(|s| {
                turns.iter().map(move |&turns| {
                    let mut s = s.clone();
                    s.push(WaitingPawn {
                        square,
                        color,
                        turns,
                    });
                    s
                })
            })
            .collect();
    }
    // The order of arrival among blocked pawns of one side counts: both
    // orders of each pair.
    let mut more = Vec::new();
    for s in &states {
        for i in 0..s.len() {
            for j in i + 1..s.len() {
                if s[i].turns == 0 && s[j].turns == 0 && s[i].color == s[j].color {
                    let mut t = s.clone();
                    t.swap(i, j);
                    more.push(t);
                }
            }
        }
    }
    states.extend(more);
    states
}

/// The columns every search selects, in the order [`found_game`] reads
/// them.
const FOUND_COLUMNS: &str = "g.id, g.variant, g.result, g.plies, g.status, g.white, g.black, \
     g.date, g.event, g.eco, g.opening";

/// How many columns [`FOUND_COLUMNS`] names: the packed line, its start
/// and the ply come after them.
const FOUND_COUNT: usize = 11;

/// The conditions of a search's `WHERE` clause and the parameters they
/// number (`?1`, `?2`, ... in the order they are added).
#[derive(Default)]
struct Conditions {
    conds: Vec<String>,
    params: Vec<Value>,
}

impl Conditions {
    /// Adds `value` as the next parameter and returns its number.
    fn param(&mut self, value: Value) -> usize {
        self.params.push(value);
        self.params.len()
    }

    /// Adds condition `cond` whose one `?` is `value`.
    fn bind(&mut self, cond: &str, value: Value) {
        let n = self.param(value);
        self.conds.push(cond.replace('?', &format!("?{n}")));
    }

    /// The clause, ` WHERE a AND b`, or nothing.
    fn clause(&self) -> String {
        if self.conds.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", self.conds.join(" AND "))
        }
    }
}

/// The position keys of which a game must reach one: `position` and
/// `any_position` together.
fn position_keys(filter: &GameFilter) -> Vec<u64> {
    filter
        .position
        .iter()
        .chain(&filter.any_position)
        .copied()
        .collect()
}

/// How many of the games reaching a position need staging: with no filter
/// but the position (the key holds the variant), the first
/// `offset + limit` games by id are all the query can return.
fn staged_games(filter: &GameFilter) -> Option<u64> {
    filter
        .limit
        .filter(|_| only_position(filter))
        .map(|l| l.saturating_add(filter.offset.unwrap_or(0)))
}

/// Whether `filter` asks for nothing but the games reaching its positions
/// (the key holds the variant).
fn only_position(filter: &GameFilter) -> bool {
    filter.tags.is_empty()
        && filter.player.is_none()
        && filter.result.is_none()
        && filter.date_from.is_none()
        && filter.date_to.is_none()
        && filter.status.is_none()
        && filter.moves_prefix.is_none()
        && filter.eco.is_none()
        && filter.opening.is_none()
        && filter.selection.is_none()
        && filter.min_plies.is_none()
        && filter.max_plies.is_none()
        && filter.pattern.is_none()
}

/// How many games reach the position `key`: its index entries counted by
/// game, no game row read.
fn count_reaching(conn: &rusqlite::Connection, key: u64) -> Result<u64, DbError> {
    let mut games = Vec::new();
    postings::scan(conn, key, |p| {
        if games.last() != Some(&p.game) {
            games.push(p.game);
        }
        true
    })?;
    games.sort_unstable();
    games.dedup();
    Ok(games.len() as u64)
}

/// `SELECT ... FROM ...`: the game columns, the packed main line and its
/// start for a pattern to replay, then the ply at which the position was
/// reached (`NULL` without a position filter). By position, the query is
/// driven by the staged games, not by a scan of `games` probing each one
/// in them (178 ms for 30 of 500,000 games).
fn select_from(by_position: bool, with_moves: bool) -> String {
    let moves = if with_moves {
        "m.packed, m.start, "
    } else {
        ""
    };
    let (ply, from) = if by_position {
        (
            "p.ply",
            "temp.reached p CROSS JOIN games g ON g.id = p.game",
        )
    } else {
        ("NULL", "games g")
    };
    let join = if with_moves {
        " JOIN moves m ON m.game = g.id"
    } else {
        ""
    };
    format!("SELECT {FOUND_COLUMNS}, {moves}{ply} FROM {from}{join}")
}

/// The conditions on the game row: variant (the pattern's and the one
/// asked for), tags, player, result, dates, status and opening moves.
fn conditions(filter: &GameFilter) -> Conditions {
    let mut c = Conditions::default();
    if let Some(p) = &filter.pattern {
        c.bind("g.variant = ?", Value::Text(p.variant().name().to_string()));
    }
    if let Some(v) = &filter.variant {
        c.bind("g.variant = ?", Value::Text(v.clone()));
    }
    tag_conditions(&mut c, filter);
    if let Some(r) = &filter.result {
        c.bind("g.result = ?", Value::Text(r.clone()));
    }
    date_conditions(&mut c, filter);
    status_condition(&mut c, filter.status.as_deref());
    if let Some(prefix) = &filter.moves_prefix {
        prefix_condition(&mut c, prefix);
    }
    if let Some(eco) = &filter.eco {
        let first = c.param(Value::Text(eco.first.clone()));
        let last = c.param(Value::Text(eco.last.clone()));
        c.conds.push(format!("g.eco BETWEEN ?{first} AND ?{last}"));
    }
    if let Some(n) = filter.min_plies {
        c.bind(
            "g.plies >= ?",
            Value::Integer(i64::try_from(n).unwrap_or(i64::MAX)),
        );
    }
    if let Some(n) = filter.max_plies {
        c.bind(
            "g.plies <= ?",
            Value::Integer(i64::try_from(n).unwrap_or(i64::MAX)),
        );
    }
    if let Some(name) = &filter.opening {
        c.bind(
            "instr(xpgn_lower(g.opening), ?) > 0",
            Value::Text(name.to_lowercase()),
        );
    }
    c
}

/// Each tag contains its value, and the player is White or Black
/// (case-blind).
fn tag_conditions(c: &mut Conditions, filter: &GameFilter) {
    for (name, value) in &filter.tags {
        let n = c.param(Value::Text(name.clone()));
        let v = c.param(Value::Text(value.to_lowercase()));
        c.conds.push(tags::has_tag_sql(n, v));
    }
    if let Some(p) = &filter.player {
        let v = c.param(Value::Text(p.to_lowercase()));
        c.conds.push(tags::has_player_sql(v));
    }
}

/// The `Date` tag can fall in the range asked for.
fn date_conditions(c: &mut Conditions, filter: &GameFilter) {
    if let Some(d) = &filter.date_from {
        c.bind(
            "xpgn_date_hi(g.date) >= ?",
            Value::Integer(i64::from(d.first)),
        );
    }
    if let Some(d) = &filter.date_to {
        c.bind(
            "xpgn_date_lo(g.date) <= ?",
            Value::Integer(i64::from(d.last)),
        );
    }
}

/// `valid`, `invalid`, or `warned`: valid games with warnings
/// (docs/notation.md §11 forms and the like).
fn status_condition(c: &mut Conditions, status: Option<&str>) {
    match status {
        Some("warned") => c
            .conds
            .push("(g.status = 'valid' AND g.warnings > 0)".into()),
        Some(s) => c.bind("g.status = ?", Value::Text(s.to_string())),
        None => {}
    }
}

/// The main line starts with `prefix` from the variant's start position.
/// A move's packed bytes depend on nothing but the move, and the move on
/// the position: equal prefixes are equal openings.
fn prefix_condition(c: &mut Conditions, prefix: &[Move]) {
    let n = c.param(Value::Blob(packed::encode_all(prefix)));
    c.conds.push(format!(
        "EXISTS (SELECT 1 FROM moves m2 WHERE m2.game = g.id AND m2.start IS NULL \
         AND substr(m2.packed, 1, length(?{n})) = ?{n})"
    ));
}

/// `ORDER BY` and, unless a pattern scan pages the games itself,
/// `LIMIT`/`OFFSET`.
fn order_and_page(filter: &GameFilter, by_position: bool) -> String {
    let order = if by_position {
        " ORDER BY p.game"
    } else {
        " ORDER BY g.id"
    };
    let in_sql = filter.pattern.is_none() && filter.selection.is_none();
    let page = match (in_sql, filter.limit, filter.offset) {
        (false, _, _) | (true, None, None) => String::new(),
        (true, Some(limit), offset) => format!(" LIMIT {limit} OFFSET {}", offset.unwrap_or(0)),
        (true, None, Some(offset)) => format!(" LIMIT -1 OFFSET {offset}"),
    };
    format!("{order}{page}")
}

/// The whole query of a search and its parameters.
fn search_sql(filter: &GameFilter, by_position: bool) -> (String, Vec<Value>) {
    let c = conditions(filter);
    let sql = format!(
        "{}{}{}",
        select_from(by_position, filter.pattern.is_some()),
        c.clause(),
        order_and_page(filter, by_position)
    );
    (sql, c.params)
}

impl Database {
    /// The games matching `filter`, by id.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn find_games(&self, filter: &GameFilter) -> Result<Vec<FoundGame>, DbError> {
        Ok(self.search(filter)?.0)
    }

    /// How many games match `filter`, its limit and offset left aside: the
    /// total a page of [`Database::find_games`] is part of. A position
    /// alone is counted from the index without reading a game's row, and
    /// other filters by SQLite without building the rows found.
    ///
    /// # Errors
    /// SQLite errors, or a stored main line that does not replay.
    pub fn count_games(&self, filter: &GameFilter) -> Result<u64, DbError> {
        let all = GameFilter {
            limit: None,
            offset: None,
            ..filter.clone()
        };
        let keys = position_keys(&all);
        if let [key] = keys[..]
            && only_position(&all)
        {
            return count_reaching(&self.conn, key);
        }
        if all.pattern.is_some() || all.selection.is_some() {
            return Ok(self.find_games(&all)?.len() as u64);
        }
        if !keys.is_empty() {
            stage_first_plies(&self.conn, &keys, None)?;
        }
        let (sql, params) = search_sql(&all, !keys.is_empty());
        let count: i64 = self.conn.query_row(
            &format!("SELECT count(*) FROM ({sql})"),
            rusqlite::params_from_iter(params),
            |r| r.get(0),
        )?;
        Ok(u64::try_from(count).unwrap_or(0))
    }

    /// The games matching `filter`, by id, and what the pattern scan did.
    ///
    /// # Errors
    /// SQLite errors, or a stored main line that does not replay.
    pub fn search(&self, filter: &GameFilter) -> Result<(Vec<FoundGame>, SearchStats), DbError> {
        let keys = position_keys(filter);
        if !keys.is_empty() {
            stage_first_plies(&self.conn, &keys, staged_games(filter))?;
        }
        let (sql, params) = search_sql(filter, !keys.is_empty());
        let mut stmt = self.conn.prepare(&sql)?;
        let selection = filter.selection.as_ref();
        let (found, stats) = match &filter.pattern {
            None => {
                let found = stmt
                    .query_map(rusqlite::params_from_iter(params), |r| {
                        found_game(r, r.get(FOUND_COUNT)?)
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                (found, SearchStats::default())
            }
            Some(pattern) => {
                let rows = stmt.query(rusqlite::params_from_iter(params))?;
                match selection {
                    None => scan_pattern(rows, pattern, filter.limit, filter.offset.unwrap_or(0))?,
                    Some(_) => scan_pattern(rows, pattern, None, 0)?,
                }
            }
        };
        let Some(selection) = selection else {
            return Ok((found, stats));
        };
        // The games left, each read again and tested, then paged.
        let mut kept = Vec::new();
        let mut skip = filter.offset.unwrap_or(0);
        for g in found {
            if filter.limit.is_some_and(|l| kept.len() as u64 >= l) {
                break;
            }
            if self.selects(g.id, selection)? {
                if skip > 0 {
                    skip -= 1;
                } else {
                    kept.push(g);
                }
            }
        }
        Ok((kept, stats))
    }

    /// Whether stored game `id` passes `selection`, read again from its
    /// original text as `xpgn filter` reads a file.
    fn selects(&self, id: i64, selection: &GameSelection) -> Result<bool, DbError> {
        let stored: Option<(Vec<u8>, super::tags::TagPairs)> = self
            .conn
            .prepare_cached(&format!(
                "SELECT {}, {} FROM games g WHERE g.id = ?1",
                super::original::ORIGINAL_SQL,
                super::tags::COLUMNS
            ))?
            .query_row([id], |r| Ok((r.get(0)?, super::tags::from_row(r, 1)?)))
            .optional()?;
        let Some((stored, tags)) = stored else {
            return Ok(false);
        };
        let bytes = super::original::read(id, &stored, &tags)?;
        let mut games = GameSplitter::new(&bytes[..]);
        Ok(match games.next_game() {
            Some(Ok(game)) => selection.matches(&facts(&self.registry, &game).0),
            _ => false,
        })
    }

    /// The diagnostics of game `id` as stored: a JSON array of objects
    /// (`severity`, `kind`, `ply`, `in_variation`, `line`, `column`,
    /// `move`, `message`); empty for no such game.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn game_diagnostics(&self, id: i64) -> Result<serde_json::Value, DbError> {
        let text: Option<String> = self
            .conn
            .prepare_cached("SELECT diagnostics FROM games WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        Ok(text
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_else(|| serde_json::Value::Array(Vec::new())))
    }

    /// The tags of game `id`, in the order written; empty if there is no
    /// such game.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn game_tags(&self, id: i64) -> Result<Vec<(String, String)>, DbError> {
        let found = self
            .conn
            .prepare_cached(&format!(
                "SELECT {} FROM games g WHERE g.id = ?1",
                tags::COLUMNS
            ))?
            .query_row([id], |r| tags::from_row(r, 0))
            .optional()?;
        Ok(found.unwrap_or_default())
    }
}

/// Replays the main line of each game `rows` gives (the columns of
/// [`select_from`] with moves) until `pattern` matches, skipping the first
/// `skip` games that match and keeping at most `limit`.
fn scan_pattern(
    mut rows: rusqlite::Rows<'_>,
    pattern: &PositionPattern,
    limit: Option<u64>,
    mut skip: u64,
) -> Result<(Vec<FoundGame>, SearchStats), DbError> {
    let variant_start = Position::start(pattern.variant());
    let mut stats = SearchStats::default();
    let mut found = Vec::new();
    while let Some(r) = rows.next()? {
        if limit.is_some_and(|l| found.len() as u64 >= l) {
            break;
        }
        let id: i64 = r.get(0)?;
        let corrupt = |source| DbError::Corrupt { game: id, source };
        let start = match r.get::<_, Option<String>>(FOUND_COUNT + 1)?.as_deref() {
            None => variant_start.clone(),
            Some(text) => read_position(pattern.variant(), text).map_err(|e| {
                corrupt(packed::PackedError::Invalid {
                    ply: 0,
                    what: format!("start position: {e}"),
                })
            })?,
        };
        let (ply, seen) = pattern
            .first_match(&start, blob(r, FOUND_COUNT)?)
            .map_err(corrupt)?;
        stats.games_scanned += 1;
        stats.positions_scanned += seen as u64;
        if let Some(ply) = ply {
            if skip > 0 {
                skip -= 1;
            } else {
                found.push(found_game(r, Some(ply as i64))?);
            }
        }
    }
    Ok((found, stats))
}

/// Puts the first ply at which each game reaches one of `keys` into the
/// temporary table `temp.reached (game, ply)`, for the query to join
/// with: one row per game, however often it comes back; with `most`,
/// only that many games, the first by id. The temporary database is the
/// connection's own, so this works on a read-only database too.
fn stage_first_plies(
    conn: &rusqlite::Connection,
    keys: &[u64],
    most: Option<u64>,
) -> Result<(), DbError> {
    conn.execute_batch(
        "CREATE TEMP TABLE IF NOT EXISTS reached (
             game INTEGER PRIMARY KEY, ply INTEGER NOT NULL
         );
         DELETE FROM temp.reached;",
    )?;
    let mut first: std::collections::BTreeMap<u32, u16> = std::collections::BTreeMap::new();
    for &key in keys {
        // A key's entries come by game: rows in batch order hold games in
        // id order (an import's batches, and `optimize`'s merged rows
        // before them, sorted by key and game). So with `most`, the entry
        // of game `most + 1` ends the search for this key; entries out of
        // order (never written so) turn the shortcut off.
        let (mut games, mut last, mut in_order) = (0u64, None, true);
        postings::scan(conn, key, |p| {
            in_order &= last.is_none_or(|l| l <= p.game);
            if last != Some(p.game) {
                games += 1;
            }
            last = Some(p.game);
            if in_order && most.is_some_and(|m| games > m) {
                return false;
            }
            let ply = first.entry(p.game).or_insert(p.ply);
            *ply = (*ply).min(p.ply);
            true
        })?;
    }
    let mut insert = conn.prepare_cached("INSERT INTO temp.reached VALUES (?1, ?2)")?;
    let most = most.map_or(usize::MAX, |m| usize::try_from(m).unwrap_or(usize::MAX));
    for (game, ply) in first.into_iter().take(most) {
        insert.execute(rusqlite::params![game, ply])?;
    }
    Ok(())
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
        eco: r.get(9)?,
        opening: r.get(10)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::import::ImportSummary;

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

    /// A page's total is the count of the whole list, however the filter
    /// is made: by a position alone (counted from the index), by a
    /// position and a player, by an opening's moves, by nothing.
    #[test]
    fn the_count_of_games_is_the_length_of_the_unlimited_list() {
        let db = db();
        let mut after_e4 = Position::start(Variant::chess());
        after_e4.play_unchecked(&moves("e2e4")[0]);
        let filters = [
            GameFilter::default(),
            GameFilter {
                position: Some(after_e4.key()),
                ..Default::default()
            },
            GameFilter {
                position: Some(after_e4.key()),
                player: Some("bo".into()),
                ..Default::default()
            },
            GameFilter {
                moves_prefix: Some(moves("e2e4")),
                ..Default::default()
            },
            GameFilter {
                any_position: vec![after_e4.key(), Position::start(Variant::chess()).key()],
                ..Default::default()
            },
        ];
        let counts: Vec<u64> = filters.iter().map(|f| db.count_games(f).unwrap()).collect();
        assert_eq!(counts, [5, 2, 1, 2, 4]);
        for f in filters {
            let whole = db.find_games(&f).unwrap().len() as u64;
            let page = GameFilter {
                limit: Some(1),
                offset: Some(1),
                ..f.clone()
            };
            assert_eq!(db.count_games(&page).unwrap(), whole, "{f:?}");
            assert!(db.find_games(&page).unwrap().len() <= 1);
        }
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
                    date_from: Some(DateRange::parse("2002").unwrap()),
                    date_to: Some(DateRange::parse("2002.12.31").unwrap()),
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
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    limit: Some(2),
                    offset: Some(3),
                    ..Default::default()
                }
            ),
            [(4, None), (5, None)]
        );
        assert_eq!(
            ids(
                &db,
                GameFilter {
                    offset: Some(4),
                    ..Default::default()
                }
            ),
            [(5, None)]
        );
    }

    #[test]
    fn games_are_found_by_eco_range_and_opening_name() {
        let db = db();
        let by = |eco: Option<&str>, name: Option<&str>| {
            let found = db
                .find_games(&GameFilter {
                    eco: eco.map(|e| EcoRange::parse(e).unwrap()),
                    opening: name.map(str::to_string),
                    ..Default::default()
                })
                .unwrap();
            found
                .iter()
                .map(|g| (g.id, g.eco.clone().unwrap_or_default()))
                .collect::<Vec<_>>()
        };
        let all = by(None, None);
        // Game 2 reaches the Ruy Lopez by another move order; game 4 is
        // named up to its fault; Royal Chess has no book.
        assert_eq!(
            all,
            [
                (1, "C44".to_string()),
                (2, "C60".into()),
                (3, "D00".into()),
                (4, "B00".into()),
                (5, String::new())
            ]
        );
        assert_eq!(by(Some("C"), None), [(1, "C44".into()), (2, "C60".into())]);
        assert_eq!(by(Some("c44"), None), [(1, "C44".into())]);
        assert_eq!(
            by(Some("B00-C59"), None),
            [(1, "C44".into()), (4, "B00".into())]
        );
        assert_eq!(by(None, Some("RUY lopez")), [(2, "C60".into())]);
        assert_eq!(by(Some("D"), Some("ruy")), []);
    }

    #[test]
    fn eco_arguments_are_codes_ranges_or_letters() {
        let r = |t: &str| EcoRange::parse(t).map(|r| (r.first, r.last));
        assert_eq!(r("B20-B99"), Ok(("B20".into(), "B99".into())));
        assert_eq!(r("e"), Ok(("E00".into(), "E99".into())));
        assert_eq!(r("A00"), Ok(("A00".into(), "A00".into())));
        for bad in [
            "", "F00", "B9", "B100", "B99-B20", "B20-", "-B20", "Sicilian", "B20-C1x",
        ] {
            let e = EcoRange::parse(bad).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with(&format!("`{bad}` is no ECO code")),
                "{e}"
            );
        }
        assert!(EcoRange::parse("B20-B99").unwrap().contains("B90"));
        assert!(!EcoRange::parse("B20-B99").unwrap().contains("C00"));
    }

    #[test]
    fn every_filter_at_once() {
        let db = db();
        let chess = Variant::chess();
        let after = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        let knight = crate::db::pattern::parse_piece(&chess, "white:N@f3").unwrap();
        let all = GameFilter {
            variant: Some("chess".into()),
            tags: vec![
                ("White".into(), "ANNA".into()),
                ("Black".into(), "b".into()),
            ],
            player: Some("bo".into()),
            result: Some("1-0".into()),
            date_from: Some(DateRange::parse("2001").unwrap()),
            date_to: Some(DateRange::parse("2001.12").unwrap()),
            status: Some("valid".into()),
            position: Some(read_position(&chess, after).unwrap().key()),
            any_position: vec![Position::start(&chess).key()],
            moves_prefix: Some(moves("e2e4")),
            pattern: Some(PositionPattern::new(&chess, vec![knight], None)),
            eco: Some(EcoRange::parse("C40-C49").unwrap()),
            opening: Some("KNIGHT OPENING".into()),
            min_plies: Some(4),
            max_plies: Some(4),
            selection: Some(GameSelection {
                tags: vec![crate::notation::filter::TagTest::parse("Date>=2001.05").unwrap()],
                ..Default::default()
            }),
            limit: Some(1),
            offset: None,
        };
        // The knight stands on f3 from ply 3 on.
        assert_eq!(ids(&db, all.clone()), [(1, Some(3))]);
        let (_, stats) = db.search(&all).unwrap();
        assert_eq!(stats.games_scanned, 1);
        let past = GameFilter {
            offset: Some(1),
            ..all.clone()
        };
        assert_eq!(ids(&db, past), []);
        // Any one filter changed, no game is left.
        for changed in [
            GameFilter {
                eco: Some(EcoRange::parse("C45-C99").unwrap()),
                ..all.clone()
            },
            GameFilter {
                opening: Some("gambit".into()),
                ..all.clone()
            },
            GameFilter {
                min_plies: Some(5),
                ..all.clone()
            },
            GameFilter {
                max_plies: Some(3),
                ..all.clone()
            },
            GameFilter {
                selection: Some(GameSelection {
                    comments: Some(true),
                    ..Default::default()
                }),
                ..all.clone()
            },
            GameFilter {
                result: Some("0-1".into()),
                ..all.clone()
            },
            GameFilter {
                date_to: Some(DateRange::parse("2000").unwrap()),
                ..all.clone()
            },
            GameFilter {
                status: Some("warned".into()),
                ..all.clone()
            },
            GameFilter {
                moves_prefix: Some(moves("g1f3")),
                ..all.clone()
            },
            GameFilter {
                player: Some("cy".into()),
                ..all.clone()
            },
        ] {
            assert_eq!(ids(&db, changed), []);
        }
        // Without a pattern: positions, tags and paging by SQL.
        let page = GameFilter {
            tags: Vec::new(),
            player: Some("anna".into()),
            result: None,
            date_from: None,
            date_to: None,
            position: None,
            moves_prefix: None,
            pattern: None,
            eco: None,
            opening: None,
            min_plies: None,
            max_plies: None,
            selection: None,
            limit: Some(1),
            offset: Some(1),
            ..all
        };
        assert_eq!(ids(&db, page), [(2, Some(0))]);
    }

    #[test]
    fn a_limit_on_a_position_search_stages_only_what_it_returns() {
        let db = db();
        let start = crate::rules::Position::start(Variant::chess()).key();
        let all = ids(
            &db,
            GameFilter {
                position: Some(start),
                ..Default::default()
            },
        );
        assert!(all.len() >= 4, "{all:?}");
        for (limit, offset) in [(1, 0), (2, 0), (2, 1), (3, 2), (10, 0)] {
            let page = ids(
                &db,
                GameFilter {
                    position: Some(start),
                    limit: Some(limit),
                    offset: Some(offset),
                    ..Default::default()
                },
            );
            let expected: Vec<_> = all
                .iter()
                .skip(offset as usize)
                .take(limit as usize)
                .copied()
                .collect();
            assert_eq!(page, expected, "limit {limit} offset {offset}");
        }
        let staged: i64 = db
            .conn
            .query_row("SELECT COUNT(*) FROM temp.reached", [], |r| r.get(0))
            .unwrap();
        assert_eq!(staged as usize, all.len().min(10));
        // With another filter every match is staged, then filtered.
        let cy = ids(
            &db,
            GameFilter {
                position: Some(start),
                tags: vec![("White".into(), "cy".into())],
                limit: Some(1),
                ..Default::default()
            },
        );
        assert_eq!(cy, [(3, Some(0))]);
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

    #[test]
    fn dates_are_ranges_of_days() {
        let r = |first, last| DateRange { first, last };
        assert_eq!(DateRange::parse("1985.06.15"), Ok(r(19850615, 19850615)));
        assert_eq!(DateRange::parse("1985-06-15"), Ok(r(19850615, 19850615)));
        assert_eq!(DateRange::parse("1985.06"), Ok(r(19850601, 19850630)));
        assert_eq!(DateRange::parse("1985"), Ok(r(19850101, 19851231)));
        assert_eq!(DateRange::parse("2024.02"), Ok(r(20240201, 20240229)));
        assert_eq!(DateRange::parse("2000.02.29"), Ok(r(20000229, 20000229)));
        for bad in [
            "2020.13.45",
            "1985/12/31",
            "abc",
            "1900.02.29",
            "85",
            "1985.06.15.1",
            "1985.",
            "",
        ] {
            assert!(DateRange::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(DateRange::of_tag("1985.??.??"), Some(r(19850101, 19851231)));
        assert_eq!(DateRange::of_tag("1985.06.??"), Some(r(19850601, 19850630)));
        assert_eq!(DateRange::of_tag("1985.06.15"), Some(r(19850615, 19850615)));
        assert_eq!(DateRange::of_tag("1985"), Some(r(19850101, 19851231)));
        assert_eq!(DateRange::of_tag("????.??.??"), None);
        assert_eq!(DateRange::of_tag("soon"), None);
    }

    #[test]
    fn a_partial_position_string_stands_for_every_state_its_board_allows() {
        let chess = Variant::chess();
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        let whole = search_positions(&chess, &format!("{start} w KQkq - 0 1")).unwrap();
        assert_eq!(whole.positions.len(), 1);
        assert!(whole.varied.is_empty());
        // Two sides to move, 16 castling states; no en passant is possible.
        let board = search_positions(&chess, start).unwrap();
        assert_eq!(board.positions.len(), 32);
        assert!(board.positions.contains(&Position::start(&chess)));
        let black = search_positions(&chess, &format!("{start} b")).unwrap();
        assert_eq!(black.positions.len(), 16);
        assert!(black.positions.iter().all(|p| p.turn() == Color::Black));
        // Kings off their squares: no castling at all.
        let moved = search_positions(&chess, "4k3/8/8/8/8/8/8/3K4").unwrap();
        assert_eq!(moved.positions.len(), 2);
        // Kings that cannot both stand so: an error naming the board.
        let e = search_positions(&chess, "4k3/8/8/8/8/8/8/4K3 x").unwrap_err();
        assert_eq!(e.field, FenField::Turn);
        assert!(search_positions(&chess, "3kK3/8/8/8/8/8/8/8").is_err());
    }
}
