//! Position strings: FEN extended for variants (docs/notation.md §10,
//! `grammar/position.ebnf`).
//!
//! `board turn castling ep halfmove fullmove [stages] [king-rights] [waiting]`.
//! The three extra fields appear only in variants that need them, in this
//! order: `stages` with two-stage castling (R-CO-4, R-RO-3), `king-rights`
//! with a once-per-game king move (R-KL-1, R-CH-5), `waiting` with waiting
//! promotion (R-CS-3..6). For orthodox chess the string is exactly FEN.

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, digit1, satisfy};
use nom::combinator::{all_consuming, map, map_res, value};
use nom::multi::{many1, separated_list1};
use nom::sequence::separated_pair;

use super::square::square;
use crate::rules::{
    CastlingSide, Color, Piece, Position, PositionError, Setup, Square, Variant, WaitingPawn,
};

/// A field of a position string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    /// Piece placement.
    Board,
    /// `w` or `b`.
    Turn,
    /// `KQkq` or `-`.
    Castling,
    /// En passant target square or `-`.
    EnPassant,
    /// Halfmove clock.
    Halfmove,
    /// Fullmove number.
    Fullmove,
    /// Two-stage castling progress.
    Stages,
    /// Unused once-per-game king moves.
    KingRights,
    /// Waiting pawns.
    Waiting,
    /// Anything after the last field.
    Extra,
}

impl std::fmt::Display for FenField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FenField::Board => "board",
            FenField::Turn => "side-to-move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en-passant",
            FenField::Halfmove => "halfmove-clock",
            FenField::Fullmove => "fullmove-number",
            FenField::Stages => "castling-stages",
            FenField::KingRights => "king-rights",
            FenField::Waiting => "waiting-pawns",
            FenField::Extra => "extra",
        })
    }
}

/// A position string that cannot be read, or that is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("position string, {field} field at column {column}: {message}")]
pub struct PositionStringError {
    /// The field at fault.
    pub field: FenField,
    /// 1-based column where the field starts.
    pub column: usize,
    /// What is wrong, in words.
    pub message: String,
}

/// Which extra fields `variant` writes and reads.
fn extra_fields(variant: &Variant) -> Vec<FenField> {
    let mut out = Vec::new();
    if variant.has_castling_stages() {
        out.push(FenField::Stages);
    }
    if variant.special_king_move().is_some() {
        out.push(FenField::KingRights);
    }
    if variant.has_waiting_promotion() {
        out.push(FenField::Waiting);
    }
    out
}

/// Reads a position string of `variant` into a legal [`Position`].
///
/// ```
/// use xpgn::notation::position::{read_position, write_position};
/// use xpgn::rules::Variant;
/// let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
/// let pos = read_position(Variant::chess(), fen).unwrap();
/// assert_eq!(write_position(&pos), fen);
/// ```
///
/// # Errors
/// Names the field at fault and why.
pub fn read_position(
    variant: impl Into<Variant>,
    text: &str,
) -> Result<Position, PositionStringError> {
    position_from(variant.into(), text, None)
}

/// [`read_position`] as game files need it (docs/notation.md §11): a fullmove
/// number 0, which some tools write, is read as 1; what was mended is
/// said in the returned notes.
///
/// # Errors
/// As [`read_position`].
pub fn read_position_noting(
    variant: impl Into<Variant>,
    text: &str,
) -> Result<(Position, Vec<String>), PositionStringError> {
    let variant = variant.into();
    let mut notes = Vec::new();
    let pos = position_from(variant, text, Some(&mut notes))?;
    Ok((pos, notes))
}

fn position_from(
    variant: Variant,
    text: &str,
    notes: Option<&mut Vec<String>>,
) -> Result<Position, PositionStringError> {
    let (setup, columns) = read_setup_noting(&variant, text, notes)?;
    Position::from_setup(&variant, &setup).map_err(|e| {
        let field = match e {
            PositionError::Castling(_) => FenField::Castling,
            PositionError::EnPassant => FenField::EnPassant,
            PositionError::KingRights(_) => FenField::KingRights,
            PositionError::Waiting(_) => FenField::Waiting,
            _ => FenField::Board,
        };
        let column = columns
            .iter()
            .find(|(f, _)| *f == field)
            .map_or(1, |(_, c)| *c);
        PositionStringError {
            field,
            column,
            message: e.to_string(),
        }
    })
}

/// Reads a position string into an unchecked [`Setup`], with the column of
/// each field.
///
/// # Errors
/// Names the field that cannot be read.
pub fn read_setup(
    variant: &Variant,
    text: &str,
) -> Result<(Setup, Vec<(FenField, usize)>), PositionStringError> {
    read_setup_noting(variant, text, None)
}

/// [`read_setup`]; with `notes`, a fullmove number 0 is read as 1 and noted.
fn read_setup_noting(
    variant: &Variant,
    text: &str,
    mut notes: Option<&mut Vec<String>>,
) -> Result<(Setup, Vec<(FenField, usize)>), PositionStringError> {
    let mut fields = split_fields(text);
    let checks_given = take_check_counters(variant, &mut fields)?;
    // Some tools (Fairy-Stockfish's start positions) leave out the en
    // passant field: `w - 0 1`. A number where that field stands is the
    // halfmove clock, and the field is read as `-`.
    if fields
        .get(3)
        .is_some_and(|(_, f)| f.bytes().all(|b| b.is_ascii_digit()))
    {
        let column = fields[3].0;
        fields.insert(3, (column, "-"));
        if let Some(notes) = notes.as_deref_mut() {
            notes.push(format!(
                "no en passant field before column {}: read as `-`",
                column + 1
            ));
        }
    }
    let extras = extra_fields(variant);
    let order: Vec<FenField> = [
        FenField::Board,
        FenField::Turn,
        FenField::Castling,
        FenField::EnPassant,
        FenField::Halfmove,
        FenField::Fullmove,
    ]
    .into_iter()
    .chain(extras.iter().copied())
    .collect();
    if fields.is_empty() {
        return Err(field_error(
            FenField::Board,
            0,
            "the position string is empty".into(),
        ));
    }
    if fields.len() > order.len() {
        let (col, text) = fields[order.len()];
        let message = if extras.is_empty() {
            format!(
                "unexpected `{text}`: {} takes the six FEN fields only",
                variant.def().display_name
            )
        } else {
            format!("unexpected `{text}` after the last field")
        };
        return Err(field_error(FenField::Extra, col, message));
    }
    let mut setup = Setup {
        board: Vec::new(),
        turn: Color::White,
        castling: Vec::new(),
        castling_rooks: Vec::new(),
        castling_stages: Vec::new(),
        ep_square: None,
        halfmove_clock: 0,
        fullmove_number: 1,
        king_rights: None,
        waiting: Vec::new(),
        hand: None,
        promoted: Vec::new(),
        checks_given: None,
        gates: Vec::new(),
    };
    setup.checks_given = checks_given;
    let mut columns = Vec::new();
    let mut waiting_text = None;
    for (i, &(col, field_text)) in fields.iter().enumerate() {
        let field = order[i];
        columns.push((field, col + 1));
        if field == FenField::Waiting {
            // Read last: the pawns it names must already be on the board.
            waiting_text = Some((col, field_text));
            continue;
        }
        read_field(variant, field, field_text, &mut setup, notes.as_deref_mut())
            .map_err(|message| field_error(field, col, message))?;
        if field == FenField::Fullmove
            && field_text.parse() == Ok(0u32)
            && let Some(notes) = notes.as_deref_mut()
        {
            notes.push(format!(
                "the fullmove number at column {} is 0, read as 1 (it starts at 1)",
                col + 1
            ));
        }
    }
    if let Some((col, field_text)) = waiting_text {
        setup.waiting = read_waiting(field_text, &setup.board)
            .map_err(|message| field_error(FenField::Waiting, col, message))?;
    }
    Ok((setup, columns))
}

/// The fields of a position string with their 0-based byte columns:
/// runs of text between white space.
fn split_fields(text: &str) -> Vec<(usize, &str)> {
    let mut fields = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                fields.push((s, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        fields.push((s, &text[s..]));
    }
    fields
}

fn field_error(field: FenField, column: usize, message: String) -> PositionStringError {
    PositionStringError {
        field,
        column: column + 1,
        message,
    }
}

/// Reads one field (all but `waiting`) into `setup`; the error says what
/// is wrong with it.
fn read_field(
    variant: &Variant,
    field: FenField,
    text: &str,
    setup: &mut Setup,
    notes: Option<&mut Vec<String>>,
) -> Result<(), String> {
    match field {
        FenField::Board => {
            let (board, hand) = split_board_hand(variant, text)?;
            let (pieces, promoted) = read_board(variant, board)?;
            setup.board = pieces;
            setup.promoted = promoted;
            setup.hand = hand
                .map(|h| read_hand(variant, h))
                .transpose()?
                .or_else(|| variant.def().hand.as_ref().map(|_| Vec::new()));
        }
        FenField::Turn => {
            setup.turn = parse_whole(text, turn_field)
                .ok_or_else(|| format!("expected `w` or `b`, found `{text}`"))?
        }
        FenField::Castling if variant.def().hand.as_ref().is_some_and(|h| h.gating) => {
            read_gating_castling(variant, text, setup)?
        }
        FenField::Castling if variant.def().free_castling.is_some() => {
            let (rights, rooks) = read_free_castling(variant, text)?;
            setup.castling = rights;
            setup.castling_rooks = rooks;
        }
        FenField::Castling => {
            setup.castling = parse_whole(text, castling_field)
                .ok_or_else(|| format!("expected `-` or letters from `KQkq`, found `{text}`"))?
        }
        FenField::EnPassant => {
            setup.ep_square = parse_whole(text, ep_field)
                .ok_or_else(|| format!("expected `-` or a square, found `{text}`"))?
        }
        FenField::Halfmove => setup.halfmove_clock = read_clock(text)?,
        // A 0, which some tools write, is read as 1 where the caller notes
        // mended fields (the note is made by the caller, who knows the column).
        FenField::Fullmove => match (read_clock(text)?, notes) {
            (0, Some(_)) => {}
            (0, None) => return Err("the fullmove number starts at 1".into()),
            (n, _) => setup.fullmove_number = n,
        },
        FenField::Stages => setup.castling_stages = read_stages(variant, text, &setup.board)?,
        FenField::KingRights => {
            setup.king_rights = Some(
                parse_whole(text, king_rights_field)
                    .ok_or_else(|| format!("expected `-`, `K`, `k` or `Kk`, found `{text}`"))?,
            )
        }
        FenField::Waiting | FenField::Extra => {}
    }
    Ok(())
}

/// Production `clock`: a halfmove clock or fullmove number.
fn read_clock(text: &str) -> Result<u32, String> {
    text.parse()
        .map_err(|_| format!("expected a number, found `{text}`"))
}

/// Production `free-castling` (R-960-2): X-FEN (`KQkq`) and Shredder-FEN
/// (the rooks' files, `HAha`) letters, mixed; `-` for none.
#[allow(clippy::type_complexity)]
fn read_free_castling(
    variant: &Variant,
    text: &str,
) -> Result<(Vec<(Color, CastlingSide)>, Vec<(Color, u8)>), String> {
    let mut rights = Vec::new();
    let mut rooks = Vec::new();
    if text == "-" {
        return Ok((rights, rooks));
    }
    let files = variant.size().files;
    for c in text.chars() {
        match c {
            'K' => rights.push((Color::White, CastlingSide::Short)),
            'Q' => rights.push((Color::White, CastlingSide::Long)),
            'k' => rights.push((Color::Black, CastlingSide::Short)),
            'q' => rights.push((Color::Black, CastlingSide::Long)),
            'A'..='P' if (c as u8 - b'A') < files => rooks.push((Color::White, c as u8 - b'A')),
            'a'..='p' if (c as u8 - b'a') < files => rooks.push((Color::Black, c as u8 - b'a')),
            _ => {
                return Err(format!(
                    "expected `-`, letters from `KQkq` or rook files (X-FEN, Shredder-FEN), found `{text}`"
                ));
            }
        }
    }
    Ok((rights, rooks))
}

/// Production `gating-castling` (docs/notation.md §13, R-SE-1): the
/// castlings, then the files of the gates (`KQBCDFGkqbcdfg`). With
/// castling toward either rook, file letters of a side that has nothing
/// to gate name castling rooks instead (Shredder-FEN), and a side whose
/// king is on its gate (a `K`/`Q`, or its file among the letters)
/// castles with each rook on a gate (`ABCDEFGHabcdefgh`).
fn read_gating_castling(variant: &Variant, text: &str, setup: &mut Setup) -> Result<(), String> {
    let def = variant.def();
    let (rights, letters) = read_free_castling(variant, text)?;
    let free = def.free_castling.as_ref();
    let refills = def.hand.as_ref().is_some_and(|h| h.captures_to_hand);
    let hand = setup.hand.clone().unwrap_or_default();
    for (color, file) in letters {
        if free.is_none() || refills || hand.iter().any(|p| p.color == color) {
            setup.gates.push((color, file));
        } else {
            setup.castling_rooks.push((color, file));
        }
    }
    setup.castling = rights;
    let Some(free) = free else {
        return Ok(());
    };
    for color in Color::BOTH {
        let named = setup.castling.iter().any(|(c, _)| *c == color);
        let gating = refills || hand.iter().any(|p| p.color == color);
        let rank = variant.king_origin(color).rank();
        let holds = |file: u8, kind| {
            setup
                .board
                .contains(&(Square::new(file, rank), Piece { color, kind }))
        };
        let gates: Vec<u8> = setup
            .gates
            .iter()
            .filter(|(c, _)| *c == color)
            .map(|&(_, f)| f)
            .collect();
        // The king on its gate: every rook on a gate is unmoved too, so it
        // castles (a `K`/`Q` already says the king is on its gate).
        if !gating || !(named || gates.iter().any(|&f| holds(f, variant.king_kind()))) {
            continue;
        }
        for f in gates.into_iter().filter(|&f| holds(f, free.partner)) {
            setup.castling_rooks.push((color, f));
        }
    }
    Ok(())
}

/// The `stages` field checked against the board: each piece named stands
/// where the field says, and no square is named twice.
fn read_stages(
    variant: &Variant,
    text: &str,
    board: &[(Square, Piece)],
) -> Result<Vec<(Color, Square)>, String> {
    let tokens = parse_whole(text, |i| stages_field(variant, i)).ok_or_else(|| {
        format!(
            "expected `-` or castling pieces after their first stage such as `Kh1rk8`, found `{text}`"
        )
    })?;
    let mut stages = Vec::new();
    for (i, &(letter, sq)) in tokens.iter().enumerate() {
        if tokens[..i].iter().any(|&(_, s)| s == sq) {
            return Err(format!("{sq} is named twice"));
        }
        let stands = board
            .iter()
            .find(|(s, _)| *s == sq)
            .map(|(_, p)| piece_letter(variant, *p));
        if stands != Some(letter) {
            return Err(format!(
                "`{letter}{sq}`: the board has {} on {sq}",
                stands.map_or("nothing".to_string(), |l| format!("`{l}`"))
            ));
        }
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        stages.push((color, sq));
    }
    Ok(stages)
}

/// The `waiting` field checked against the board: a pawn stands on each
/// square named, and its colour is the owner's.
fn read_waiting(text: &str, board: &[(Square, Piece)]) -> Result<Vec<WaitingPawn>, String> {
    let entries = parse_whole(text, waiting_field).ok_or_else(|| {
        format!("expected `-` or squares with turns left such as `e8:2,d1:0`, found `{text}`")
    })?;
    entries
        .into_iter()
        .map(|(sq, turns)| {
            let color = board
                .iter()
                .find(|(s, _)| *s == sq)
                .map(|(_, p)| p.color)
                .ok_or_else(|| format!("no pawn stands on {sq} to wait there (R-CS-3)"))?;
            Ok(WaitingPawn {
                square: sq,
                color,
                turns,
            })
        })
        .collect()
}

/// Production `turn`: `w` or `b`.
fn turn_field(input: &str) -> IResult<&str, Color> {
    alt((
        value(Color::White, char('w')),
        value(Color::Black, char('b')),
    ))
    .parse(input)
}

fn parse_whole<'a, T>(text: &'a str, f: impl Fn(&'a str) -> IResult<&'a str, T>) -> Option<T> {
    all_consuming(f).parse(text).ok().map(|(_, v)| v)
}

/// Production `board`: ranks from the top, separated by `/`.
/// The pieces of a board field, and the squares of those marked `~`
/// (promoted).
type BoardCells = (Vec<(Square, Piece)>, Vec<Square>);

fn read_board(variant: &Variant, text: &str) -> Result<BoardCells, String> {
    let size = variant.size();
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != size.ranks as usize {
        return Err(format!(
            "{} has {} ranks, the board field has {}",
            variant.def().display_name,
            size.ranks,
            ranks.len()
        ));
    }
    let mut out: Vec<(Square, Piece)> = Vec::new();
    let mut promoted = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = size.ranks - 1 - i as u8;
        let cells = parse_whole(rank_text, rank_cells).ok_or_else(|| {
            format!(
                "rank {} `{rank_text}`: expected piece letters and empty-square counts",
                rank + 1
            )
        })?;
        let mut file: u32 = 0;
        for cell in cells {
            match cell {
                Cell::Empty(n) => file += n,
                // The piece just read, if the `~` follows it (no square
                // is made from a file count, which may pass any board).
                Cell::Promoted => match out.last() {
                    Some(&(sq, _)) if sq.rank() == rank && u32::from(sq.file()) + 1 == file => {
                        promoted.push(sq)
                    }
                    _ => {
                        return Err(format!(
                            "rank {} `{rank_text}`: `~` follows no piece",
                            rank + 1
                        ));
                    }
                },
                Cell::Piece(letter) => {
                    let kind = variant.kind_by_letter(letter).ok_or_else(|| {
                        let letters: String = variant
                            .kinds()
                            .map(|k| variant.piece_def(k).letter)
                            .collect();
                        format!(
                            "`{letter}` is not a piece of {} (letters: {letters})",
                            variant.def().display_name
                        )
                    })?;
                    if file < size.files as u32 {
                        let color = if letter.is_ascii_uppercase() {
                            Color::White
                        } else {
                            Color::Black
                        };
                        out.push((Square::new(file as u8, rank), Piece { color, kind }));
                    }
                    file += 1;
                }
            }
        }
        if file != size.files as u32 {
            return Err(format!(
                "rank {} `{rank_text}` covers {file} files, the board has {}",
                rank + 1,
                size.files
            ));
        }
    }
    Ok((out, promoted))
}

/// The board field's board and its hand, if it has one: `[...]` after
/// the board, or a rank more than the board has (`.../RNBQKBNR/Qn`) in a
/// variant with hands (docs/notation.md §13).
fn split_board_hand<'a>(
    variant: &Variant,
    text: &'a str,
) -> Result<(&'a str, Option<&'a str>), String> {
    if let Some(at) = text.find('[') {
        let hand = text[at + 1..]
            .strip_suffix(']')
            .ok_or_else(|| format!("`{text}`: the hand `[...` has no closing `]`"))?;
        return Ok((&text[..at], Some(hand)));
    }
    let ranks = usize::from(variant.size().ranks);
    if variant.def().hand.is_some() && text.split('/').count() == ranks + 1 {
        let at = text.rfind('/').unwrap_or(text.len());
        return Ok((&text[..at], Some(&text[at + 1..])));
    }
    Ok((text, None))
}

/// Production `hand`: piece letters, `-` or nothing for an empty hand.
fn read_hand(variant: &Variant, text: &str) -> Result<Vec<Piece>, String> {
    if variant.def().hand.is_none() && !matches!(text, "" | "-") {
        return Err(format!(
            "`[{text}]`: {} has no pieces in hand",
            variant.def().display_name
        ));
    }
    let mut out = Vec::new();
    for c in text.chars().filter(|&c| c != '-') {
        let kind = variant
            .kind_by_letter(c)
            .filter(|_| c.is_ascii_alphabetic())
            .ok_or_else(|| {
                format!(
                    "`{c}` in the hand is not a piece of {}",
                    variant.def().display_name
                )
            })?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        out.push(Piece { color, kind });
    }
    Ok(out)
}

/// Takes the check counters out of the fields, if one is there: `3+3`
/// (checks still to give, White first) after the en passant field, or
/// `+1+2` (checks given) after the move number (docs/notation.md §13).
fn take_check_counters(
    variant: &Variant,
    fields: &mut Vec<(usize, &str)>,
) -> Result<Option<[u8; 2]>, PositionStringError> {
    let counter = |f: &str| -> Option<(bool, u8, u8)> {
        let given = f.starts_with('+');
        let (a, b) = f.trim_start_matches('+').split_once('+')?;
        Some((given, a.parse().ok()?, b.parse().ok()?))
    };
    let Some(i) = fields
        .iter()
        .skip(3)
        .position(|(_, f)| counter(f).is_some())
    else {
        return Ok(None);
    };
    let (col, text) = fields.remove(i + 3);
    let (given, white, black) = counter(text).unwrap_or_default();
    let Some(limit) = variant.def().check_limit else {
        return Err(field_error(
            FenField::Extra,
            col,
            format!(
                "`{text}` counts checks, which {} does not",
                variant.def().display_name
            ),
        ));
    };
    if given {
        return Ok(Some([white, black]));
    }
    if white > limit || black > limit {
        return Err(field_error(
            FenField::Extra,
            col,
            format!("`{text}`: a side has more than the {limit} checks to give"),
        ));
    }
    Ok(Some([limit - white, limit - black]))
}

#[derive(Clone, Copy)]
enum Cell {
    Empty(u32),
    Piece(char),
    /// `~`: the piece before came from a promotion.
    Promoted,
}

/// Production `rank-cells`: piece letters and empty counts (`12`).
fn rank_cells(input: &str) -> IResult<&str, Vec<Cell>> {
    many1(alt((
        map_res(digit1, |d: &str| {
            d.parse::<u32>()
                .ok()
                .filter(|&n| (1..=16).contains(&n))
                .map(Cell::Empty)
                .ok_or("empty count")
        }),
        map(satisfy(|c| c.is_ascii_alphabetic()), Cell::Piece),
        value(Cell::Promoted, char('~')),
    )))
    .parse(input)
}

/// Production `castling`: `-` or some of `KQkq`.
fn castling_field(input: &str) -> IResult<&str, Vec<(Color, CastlingSide)>> {
    alt((
        value(Vec::new(), char('-')),
        many1(alt((
            value((Color::White, CastlingSide::Short), char('K')),
            value((Color::White, CastlingSide::Long), char('Q')),
            value((Color::Black, CastlingSide::Short), char('k')),
            value((Color::Black, CastlingSide::Long), char('q')),
        ))),
    ))
    .parse(input)
}

/// Production `en-passant`: `-` or a square.
fn ep_field(input: &str) -> IResult<&str, Option<Square>> {
    alt((value(None, char('-')), map(square, Some))).parse(input)
}

/// Production `stages`: `-` or piece letter + square, repeated (`Kh1rk8`).
fn stages_field<'i>(variant: &Variant, input: &'i str) -> IResult<&'i str, Vec<(char, Square)>> {
    alt((
        value(Vec::new(), char('-')),
        many1((
            satisfy(|c: char| c.is_ascii_alphabetic() && variant.kind_by_letter(c).is_some()),
            square,
        )),
    ))
    .parse(input)
}

/// Production `king-rights`: `-`, `K`, `k` or `Kk`.
fn king_rights_field(input: &str) -> IResult<&str, [bool; 2]> {
    alt((
        value([false, false], char('-')),
        value([true, true], tag("Kk")),
        value([true, false], char('K')),
        value([false, true], char('k')),
    ))
    .parse(input)
}

/// Production `waiting`: `-` or `square:turns` in arrival order, comma-separated.
fn waiting_field(input: &str) -> IResult<&str, Vec<(Square, u8)>> {
    alt((
        value(Vec::new(), char('-')),
        separated_list1(
            char(','),
            separated_pair(
                square,
                char(':'),
                map_res(digit1, |d: &str| d.parse::<u8>()),
            ),
        ),
    ))
    .parse(input)
}

/// Writes the position string of `pos` (exact FEN for orthodox chess).
pub fn write_position(pos: &Position) -> String {
    let variant = pos.variant();
    let size = variant.size();
    let mut out = String::new();
    for r in (0..size.ranks).rev() {
        let mut empty = 0;
        for f in 0..size.files {
            match pos.piece_at(Square::new(f, r)) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(piece_letter(variant, p));
                    if pos.is_promoted(Square::new(f, r)) {
                        out.push('~');
                    }
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if r > 0 {
            out.push('/');
        }
    }
    let setup = pos.to_setup();
    if let Some(hand) = &setup.hand {
        out.push('[');
        out.extend(hand.iter().map(|&p| piece_letter(variant, p)));
        out.push(']');
    }
    out.push_str(if setup.turn == Color::White {
        " w "
    } else {
        " b "
    });
    if setup.castling.is_empty() && setup.castling_rooks.is_empty() && setup.gates.is_empty() {
        out.push('-');
    }
    for color in Color::BOTH {
        for &(c, side) in &setup.castling {
            if c == color {
                out.push(match (color, side) {
                    (Color::White, CastlingSide::Short) => 'K',
                    (Color::White, CastlingSide::Long) => 'Q',
                    (Color::Black, CastlingSide::Short) => 'k',
                    (Color::Black, CastlingSide::Long) => 'q',
                });
            }
        }
        // X-FEN: a castling rook that is not the outermost (R-960-2); then
        // the gates no castling implies (R-SE-1).
        let base = if color == Color::White { b'A' } else { b'a' };
        for &(c, file) in setup.castling_rooks.iter().chain(&setup.gates) {
            if c == color {
                out.push((base + file) as char);
            }
        }
    }
    // A variant without en passant (Georgian chess) has no en passant
    // square to write after a double step; its reader takes none.
    match setup.ep_square.filter(|_| variant.def().pawns.en_passant) {
        Some(sq) => out.push_str(&format!(" {sq}")),
        None => out.push_str(" -"),
    }
    if let (Some(limit), Some(given)) = (variant.def().check_limit, setup.checks_given) {
        out.push_str(&format!(
            " {}+{}",
            limit.saturating_sub(given[0]),
            limit.saturating_sub(given[1])
        ));
    }
    out.push_str(&format!(
        " {} {}",
        setup.halfmove_clock, setup.fullmove_number
    ));
    for field in extra_fields(variant) {
        out.push(' ');
        match field {
            FenField::Stages => {
                if setup.castling_stages.is_empty() {
                    out.push('-');
                }
                for &(_, sq) in &setup.castling_stages {
                    if let Some(p) = pos.piece_at(sq) {
                        out.push(piece_letter(variant, p));
                    }
                    out.push_str(&sq.to_string());
                }
            }
            FenField::KingRights => {
                let r = [pos.king_right(Color::White), pos.king_right(Color::Black)];
                out.push_str(match r {
                    [true, true] => "Kk",
                    [true, false] => "K",
                    [false, true] => "k",
                    [false, false] => "-",
                });
            }
            FenField::Waiting => {
                let list: Vec<String> = setup
                    .waiting
                    .iter()
                    .map(|w| format!("{}:{}", w.square, w.turns))
                    .collect();
                out.push_str(if list.is_empty() { "-" } else { "" });
                out.push_str(&list.join(","));
            }
            _ => {}
        }
    }
    out
}

/// The letter of `p` in position strings: upper case for White.
pub fn piece_letter(variant: &Variant, p: Piece) -> char {
    let l = variant.piece_def(p.kind).letter;
    match p.color {
        Color::White => l,
        Color::Black => l.to_ascii_lowercase(),
    }
}

/// The start position string of `variant`.
pub fn start_position(variant: &Variant) -> String {
    write_position(&Position::start(variant.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(name: &str) -> Variant {
        Variant::by_name(name).unwrap()
    }

    #[test]
    fn hands_promoted_marks_and_check_counters_read_and_write_back() {
        let zh = v("crazyhouse");
        let pos = read_position(&zh, "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1").unwrap();
        assert_eq!(
            write_position(&pos),
            "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1"
        );
        let pos = read_position(&zh, "4k3/8/8/8/8/8/8/4K3[Qnp] w - - 0 1").unwrap();
        assert_eq!(write_position(&pos), "4k3/8/8/8/8/8/8/4K3[Qnp] w - - 0 1");
        let three = v("three-check");
        let given = read_position(&three, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 +2+0").unwrap();
        assert_eq!(write_position(&given), "4k3/8/8/8/8/8/8/4K3 w - - 1+3 0 1");
        // Faults are errors, never panics: a `~` after an empty count that
        // runs past the board, before any piece, or in a variant without
        // hands a hand.
        for (variant, text) in [
            (&zh, "4k3/1Q8~6/8/8/8/8/8/4K3 w - - 0 1"),
            (&zh, "~4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            (&v("chess"), "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1"),
            (&v("chess"), "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1"),
            (&zh, "4k3/8/8/8/8/8/8/4K3[X] w - - 0 1"),
            (
                &zh,
                "4k3/8/8/8/8/8/8/4K3[QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ] w - - 0 1",
            ),
        ] {
            assert!(read_position(variant, text).is_err(), "{text}");
        }
    }

    #[test]
    fn start_strings_of_every_variant() {
        let expected = [
            (
                "chess",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            ),
            (
                "counsellor",
                "rnbecqkcebnr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNBECQKCEBNR w Kk - 0 1 -",
            ),
            (
                "royal",
                "rnbefkebnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBEFKEBNR w KQkq - 0 1 -",
            ),
            (
                "chaturanga",
                "rnekcenr/pppppppp/8/8/8/8/PPPPPPPP/RNECKENR w - - 0 1 Kk",
            ),
            (
                "courier-spiel",
                "rnbcmkqfcbnr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNBCMKQFCBNR w KQkq - 0 1 -",
            ),
            (
                "chancellor",
                "cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQkq - 0 1",
            ),
            (
                "chancellor-crosswise",
                "qnbkrbnc/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQkq - 0 1",
            ),
            (
                "kings-leap",
                "cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w - - 0 1 Kk",
            ),
        ];
        for (name, fen) in expected {
            assert_eq!(start_position(&v(name)), fen, "{name}");
            let pos = read_position(v(name), fen).unwrap();
            assert_eq!(pos, Position::start(v(name)), "{name}");
        }
    }

    #[test]
    fn a_string_without_its_en_passant_field_reads_it_as_none() {
        let full = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let short = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq 0 1";
        let pos = read_position(Variant::chess(), short).unwrap();
        assert_eq!(write_position(&pos), full);
        let (pos, notes) = read_position_noting(Variant::chess(), short).unwrap();
        assert_eq!(write_position(&pos), full);
        assert_eq!(notes.len(), 1, "{notes:?}");
        // Castling rights of one side only, as well.
        let kq = "r3k2r/8/8/8/8/8/8/R3K2R w KQ 0 1";
        let pos = read_position(Variant::chess(), kq).unwrap();
        assert_eq!(write_position(&pos), "r3k2r/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    }

    #[test]
    fn missing_extra_fields_take_their_defaults() {
        let pos = read_position(
            v("chaturanga"),
            "rnekcenr/pppppppp/8/8/8/8/PPPPPPPP/RNECKENR w - - 0 1",
        )
        .unwrap();
        assert_eq!(pos, Position::start(v("chaturanga")));
        let pos = read_position(
            v("counsellor"),
            "rnbecqkcebnr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNBECQKCEBNR w Kk -",
        )
        .unwrap();
        assert_eq!(pos, Position::start(v("counsellor")));
    }

    #[test]
    fn errors_name_the_field() {
        let chess = v("chess");
        let cases = [
            ("", FenField::Board),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
                FenField::Board,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                FenField::Board,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
                FenField::Board,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                FenField::Turn,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KX - 0 1",
                FenField::Castling,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
                FenField::Castling,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
                FenField::EnPassant,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                FenField::Halfmove,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
                FenField::Fullmove,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Kk",
                FenField::Extra,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",
                FenField::Board,
            ),
        ];
        for (text, field) in cases {
            let e = read_position(&chess, text).unwrap_err();
            assert_eq!(e.field, field, "{text}: {e}");
        }
    }
}
