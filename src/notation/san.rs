//! Standard algebraic notation (docs/notation.md §5-8) and long algebraic
//! (§9): syntax ([`San`], production `san-move`) apart from meaning
//! ([`resolve_san`] against a [`Position`], [`write_san`] from a legal move).

use std::cell::Cell;

use super::coord::{push_drop, push_waiting_suffixes, waiting_suffixes};
use super::square::{file_letter, push_square, rank_number, square_at};
use crate::rules::{
    CastlingSide, Color, Illegality, Move, MoveKind, PieceKind, Position, PromotionRule, Square,
    Variant, kind_names,
};

/// A move as written in SAN or long algebraic notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum San {
    /// `O-O` / `O-O-O` (also `0-0`, `0-0-0`).
    Castle {
        /// Toward the higher files (`O-O`) or toward file a.
        side: CastlingSide,
        /// `&square=X` suffixes.
        waiting: Vec<(Square, char)>,
        /// `/Ee1`: a hand piece gating onto a square the castling left.
        gate: Option<GateText>,
    },
    /// Any other move.
    Normal {
        /// Piece letter, upper case; `None` for a pawn.
        piece: Option<char>,
        /// From-file (0 = a), if given.
        file: Option<u8>,
        /// From-rank (0 = rank 1), if given.
        rank: Option<u8>,
        /// Whether `x` was written.
        capture: bool,
        /// Destination.
        to: Square,
        /// `=X` promotion letter.
        promotion: Option<char>,
        /// `&square=X` suffixes.
        waiting: Vec<(Square, char)>,
        /// `/H`: a hand piece gating onto the square the piece left.
        gate: Option<GateText>,
    },
}

/// A gating suffix as written (docs/notation.md §13): `/H` after a piece
/// move, `/Ee1` after castling, which names the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GateText {
    /// The gated piece's letter, upper case.
    pub letter: char,
    /// The gate, where written.
    pub square: Option<Square>,
}

/// `+` or `#` after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckMark {
    /// `+`
    Check,
    /// `#`
    Mate,
}

/// A SAN token with what may follow it: check mark and suffix annotation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanToken {
    /// The move.
    pub san: San,
    /// `+` / `#`, if written.
    pub check: Option<CheckMark>,
    /// `!`, `?`, `!!`, `??`, `!?`, `?!` as a NAG number (1..6), if written.
    pub suffix_nag: Option<u8>,
}

/// Production `castle`: the whole of `text` (without waiting suffixes)
/// as `O-O-O`, `0-0-0`, `O-O` or `0-0`.
#[inline(always)]
pub fn castle(text: &[u8]) -> Option<CastlingSide> {
    match text {
        b"O-O-O" | b"0-0-0" => Some(CastlingSide::Long),
        b"O-O" | b"0-0" => Some(CastlingSide::Short),
        _ => None,
    }
}

/// From-square hints, capture mark and destination of a SAN move.
type OriginAndTarget = (Option<u8>, Option<u8>, bool, Square);

/// Production `origin-and-target`: the whole of `text`, what comes
/// between the piece letter and the promotion: `[file] [rank] ["x" |
/// "-"] square`. Read from the end: the target square (its rank all the
/// digits that end the text), then before it at most a file, a rank and
/// a capture mark, in that order. Digits that are no rank (`e0`, `e17`)
/// make it none.
#[inline(always)]
fn origin_and_target(text: &[u8]) -> Option<OriginAndTarget> {
    let to = match text {
        [.., f @ b'a'..=b'p', r @ b'1'..=b'9'] => Some((*f, *r - b'1', 2)),
        _ => None,
    };
    let (to, head) = match to {
        // A one-digit rank, as nearly every target has.
        Some((f, r, n)) => (Square::new(f - b'a', r), &text[..text.len() - n]),
        None => {
            let digits = text.iter().rev().take_while(|b| b.is_ascii_digit()).count();
            let at = text.len().checked_sub(digits + 1)?;
            let file = file_letter(&text[at..])?;
            let (rank, _) = rank_number(&text[at + 1..]).ok()??;
            (Square::new(file, rank), &text[..at])
        }
    };
    let (capture, head) = match head {
        [rest @ .., b'x'] => (true, rest),
        [rest @ .., b'-'] => (false, rest),
        _ => (false, head),
    };
    let (file, rank) = match head {
        [] => (None, None),
        [f @ b'a'..=b'p'] => (Some(f - b'a'), None),
        [r @ b'1'..=b'9'] => (None, Some(r - b'1')),
        [f @ b'a'..=b'p', r @ b'1'..=b'9'] => (Some(f - b'a'), Some(r - b'1')),
        _ => {
            // Two-digit ranks and what no move has: the rank's reader
            // decides.
            let file = file_letter(head);
            let from = usize::from(file.is_some());
            match rank_number(&head[from..]).ok()? {
                Some((rank, n)) if from + n == head.len() => (file, Some(rank)),
                _ => return None,
            }
        }
    };
    Some((file, rank, capture, to))
}

/// Production `promotion` at the end of `text`: `=X` (also `X` directly
/// after a pawn's target, as some writers do); after `=` the letter may
/// be lower case (`d8=q`, docs/notation.md §11). The letter in upper
/// case, and the length.
#[inline(always)]
fn promotion(text: &[u8]) -> Option<(char, usize)> {
    match text {
        [.., b'=', c] if c.is_ascii_alphabetic() && !matches!(c, b'O' | b'o') => {
            Some((c.to_ascii_uppercase() as char, 2))
        }
        [.., c] if is_piece_letter(*c) => Some((*c as char, 1)),
        _ => None,
    }
}

/// Production `piece-letter-upper`: an upper-case letter but `O`.
#[inline(always)]
fn is_piece_letter(c: u8) -> bool {
    c.is_ascii_uppercase() && c != b'O'
}

/// Production `san-move`: the whole of `text` (without check mark and
/// annotations) as castling, or a piece letter, origin and target and
/// promotion; then waiting suffixes.
#[inline(always)]
pub fn san_move(text: &[u8]) -> Option<San> {
    // Waiting suffixes end in a letter, as a promotion does: only then
    // is the `&` looked for.
    if text.last().is_some_and(u8::is_ascii_alphabetic) && text.contains(&b'&') {
        return san_move_waiting(text);
    }
    // A gating move is at least five bytes (`Nf3/H`): only those are
    // looked at for a `/`.
    if text.len() >= 5
        && let Some((gate, n)) = gate_suffix(text)
    {
        return san_move_gating(&text[..text.len() - n], gate);
    }
    san_move_before(text, Vec::new())
}

/// Production `gate-suffix` at the end of `text`: `/` and an upper-case
/// piece letter, then a square after castling (`/Ee1`); and its length.
#[inline(always)]
pub(crate) fn gate_suffix(text: &[u8]) -> Option<(GateText, usize)> {
    // The `/` stands at most six bytes from the end (`/Ee16`).
    let back = text.iter().rev().take(6).position(|&b| b == b'/')?;
    let at = text.len() - 1 - back;
    let (&letter, square) = text[at + 1..].split_first()?;
    if !is_piece_letter(letter) {
        return None;
    }
    let square = match square {
        [] => None,
        sq => match square_at(sq)? {
            (sq, n) if n == square.len() => Some(sq),
            _ => return None,
        },
    };
    let gate = GateText {
        letter: letter as char,
        square,
    };
    Some((gate, back + 1))
}

/// [`san_move`] of a gating move, out of the hot path: castling names
/// its gate's square, any other move does not.
#[inline(never)]
fn san_move_gating(text: &[u8], gate: GateText) -> Option<San> {
    match san_move_before(text, Vec::new())? {
        San::Castle { side, waiting, .. } if gate.square.is_some() => Some(San::Castle {
            side,
            waiting,
            gate: Some(gate),
        }),
        San::Normal {
            piece,
            file,
            rank,
            capture,
            to,
            promotion: None,
            waiting,
            ..
        } if gate.square.is_none() => Some(San::Normal {
            piece,
            file,
            rank,
            capture,
            to,
            promotion: None,
            waiting,
            gate: Some(gate),
        }),
        _ => None,
    }
}

/// [`san_move`] of a move with waiting suffixes, out of the hot path.
#[inline(never)]
fn san_move_waiting(text: &[u8]) -> Option<San> {
    let at = text.iter().position(|&b| b == b'&')?;
    let (waiting, len) = waiting_suffixes(&text[at..])?;
    if at + len != text.len() {
        return None;
    }
    san_move_before(&text[..at], waiting)
}

/// [`san_move`] of the `text` before the waiting suffixes `waiting`.
#[inline(always)]
fn san_move_before(text: &[u8], waiting: Vec<(Square, char)>) -> Option<San> {
    if let [b'O' | b'0', ..] = text {
        let side = castle(text)?;
        return Some(San::Castle {
            side,
            waiting,
            gate: None,
        });
    }
    let (piece, rest) = match text {
        [c, rest @ ..] if is_piece_letter(*c) => (Some(*c as char), rest),
        _ => (None, text),
    };
    // A move that ends in a digit has no promotion: nearly every move.
    let (promotion, rest) = match rest.last().map(u8::is_ascii_digit) {
        Some(false) => match promotion(rest) {
            Some((c, n)) => (Some(c), &rest[..rest.len() - n]),
            None => (None, rest),
        },
        _ => (None, rest),
    };
    let (file, rank, capture, to) = origin_and_target(rest)?;
    Some(San::Normal {
        piece,
        file,
        rank,
        capture,
        to,
        promotion,
        waiting,
        gate: None,
    })
}

/// How a byte stands in the commonest SAN move: a file, a one-digit
/// rank or `x` ([`plain_san_prefix`]), a mark after it (`+#!?`), or
/// neither. One look-up a byte.
pub(crate) const SAN_SQUARE: u8 = 1;
pub(crate) const SAN_MARK: u8 = 2;
pub(crate) const SAN_BYTES: [u8; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            b'a'..=b'p' | b'1'..=b'9' | b'x' => SAN_SQUARE,
            b'+' | b'#' | b'!' | b'?' => SAN_MARK,
            _ => 0,
        };
        b += 1;
    }
    table
};

/// The commonest SAN move at the start of `bytes`, a piece's or a pawn's
/// without promotion (`Nf3`, `exd5`, `Rae1`): an optional piece letter,
/// then the longest run of files, one-digit ranks and `x`, read as
/// [`san_move`] reads that run; with its length. `None` where the run is
/// no origin and target. The reader's fast path (`pgn::plain_move_token`)
/// takes the move when the token ends there.
#[inline(always)]
pub(crate) fn plain_san_prefix(bytes: &[u8]) -> Option<(PlainSan, usize)> {
    let (piece, from) = match bytes.first() {
        Some(&c) if is_piece_letter(c) => (Some(c as char), 1),
        _ => (None, 0),
    };
    let mut end = from;
    while end < bytes.len() && SAN_BYTES[usize::from(bytes[end])] == SAN_SQUARE {
        end += 1;
    }
    let (file, rank, capture, to) = origin_and_target(&bytes[from..end])?;
    let san = PlainSan {
        piece,
        file,
        rank,
        capture,
        to,
    };
    Some((san, end))
}

/// Production `check-mark` at the end of `text`: `#`, `++` (read as
/// `+`) or `+`; the mark and its length.
#[inline(always)]
pub fn check_mark(text: &[u8]) -> Option<(CheckMark, usize)> {
    match text {
        [.., b'#'] => Some((CheckMark::Mate, 1)),
        [.., b'+', b'+'] => Some((CheckMark::Check, 2)),
        [.., b'+'] => Some((CheckMark::Check, 1)),
        _ => None,
    }
}

/// Production `suffix-annotation` at the end of `text`: `!!`, `??`,
/// `!?`, `?!`, `!`, `?` as NAGs 3, 4, 5, 6, 1, 2; and its length.
#[inline(always)]
pub fn suffix_annotation(text: &[u8]) -> Option<(u8, usize)> {
    match text {
        [.., b'!', b'!'] => Some((3, 2)),
        [.., b'?', b'?'] => Some((4, 2)),
        [.., b'!', b'?'] => Some((5, 2)),
        [.., b'?', b'!'] => Some((6, 2)),
        [.., b'!'] => Some((1, 1)),
        [.., b'?'] => Some((2, 1)),
        _ => None,
    }
}

/// The marks that may end a move's token, read from its end: the suffix
/// annotation, then the check mark before it. The length of the text
/// before them, the check mark and the annotation. Neither mark's
/// characters stand in a move's text, so the end of the token tells them.
#[inline(always)]
pub(crate) fn marks(token: &[u8]) -> (usize, Option<CheckMark>, Option<u8>) {
    let mut end = token.len();
    // Most moves have neither: the last byte tells.
    if !matches!(token.last(), Some(b'+' | b'#' | b'!' | b'?')) {
        return (end, None, None);
    }
    let suffix = suffix_annotation(token).map(|(nag, n)| {
        end -= n;
        nag
    });
    let check = check_mark(&token[..end]).map(|(c, n)| {
        end -= n;
        c
    });
    (end, check, suffix)
}

/// Parses a whole string as one SAN or long algebraic move, with an
/// optional check mark and suffix annotation.
///
/// # Errors
/// [`SanError::Syntax`] if it is not one.
pub fn parse_san(text: &str) -> Result<SanToken, SanError> {
    let (len, check, suffix_nag) = marks(text.as_bytes());
    match san_move(&text.as_bytes()[..len]) {
        Some(san) => Ok(SanToken {
            san,
            check,
            suffix_nag,
        }),
        None => Err(SanError::Syntax(text.to_string())),
    }
}

/// Why a SAN move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// Not SAN syntax.
    #[error("`{0}` is not a move in SAN, long algebraic or coordinate notation")]
    Syntax(String),
    /// No legal move matches: why, in words and as the rules' reasons.
    #[error("{0}")]
    Illegal(IllegalSan),
    /// Several legal moves match.
    #[error("{0}")]
    Ambiguous(String),
}

/// Why no legal move matches a move as written: the message, and the
/// rules' reason for each piece or castling tried where the rules give one
/// (a piece that cannot reach the square, a castling not possible now);
/// none where the move asks for something no move could be (a square off
/// the board, a letter the variant lacks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalSan {
    /// The reason in words (citing the ruling where one applies).
    pub message: String,
    /// The rules' reasons, one per piece or castling tried.
    pub reasons: Vec<Illegality>,
}

impl From<String> for IllegalSan {
    fn from(message: String) -> IllegalSan {
        IllegalSan {
            message,
            reasons: Vec::new(),
        }
    }
}

impl std::fmt::Display for IllegalSan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn side_name(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::Short => "O-O",
        CastlingSide::Long => "O-O-O",
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Finds the legal move of `pos` that `san` names.
///
/// ```
/// use xpgn::notation::san::{parse_san, resolve_san, write_san};
/// use xpgn::rules::{Position, Variant};
/// let pos = Position::start(Variant::by_name("counsellor").unwrap());
/// let m = resolve_san(&pos, &parse_san("Nl3").unwrap().san).unwrap();
/// assert_eq!(write_san(&pos, &m), "Nl3");
/// ```
///
/// # Errors
/// Says in words why no legal move, or more than one, matches.
pub fn resolve_san(pos: &Position, san: &San) -> Result<Move, SanError> {
    let variant = pos.variant();
    let kind_of = |letter: char| kind_named(variant, letter);
    let (mut candidates, waiting): (Vec<Move>, &[(Square, char)]) = match san {
        San::Castle {
            side,
            waiting,
            gate,
        } => {
            if gate.is_none()
                && waiting.is_empty()
                && let Some(m) = pos.plain_castling(*side)
            {
                return Ok(m);
            }
            (legal_castlings(pos, *side)?, waiting)
        }
        San::Normal {
            piece,
            file,
            rank,
            to,
            promotion,
            waiting,
            gate,
            ..
        } => {
            let size = variant.size();
            if !size.contains(*to) {
                return Err(SanError::Illegal(IllegalSan::from(format!(
                    "{to} is off the {}x{} board",
                    size.files, size.ranks
                ))));
            }
            let kind = match (piece, file, rank) {
                (Some(l), _, _) => kind_of(*l)?,
                (None, Some(f), Some(r)) => kind_on_origin(pos, Square::new(*f, *r)),
                (None, _, _) => variant.pawn_kind(),
            };
            // The usual case, one plain move named and nothing to choose,
            // found straight from the position; every other case, faults
            // included, by the general path below.
            if promotion.is_none()
                && waiting.is_empty()
                && gate.is_none()
                && let Some(m) = pos.plain_named_move(kind, *to, *file, *rank)
            {
                return Ok(m);
            }
            let name = variant.piece_def(kind).name.as_str();
            let mut legal = SCRATCH.take();
            // Only the pieces the written origin allows are tried; castlings
            // and special king moves landing on `to` come whatever it says.
            pos.legal_moves_named_into(kind, *to, *file, *rank, &mut legal);
            let named = |m: &Move| {
                pos.piece_at(m.from).map(|p| p.kind) == Some(kind)
                    && !m.is_castle()
                    && m.to == *to
                    && file.is_none_or(|f| m.from.file() == f)
                    && rank.is_none_or(|r| m.from.rank() == r)
            };
            // The usual case, one plain move named and nothing to choose:
            // what the general path below would also give, without its
            // filtering passes.
            if let [m] = legal.as_slice()
                && promotion.is_none()
                && waiting.is_empty()
                && gate.is_none()
                && m.gate.is_none()
                && named(m)
            {
                let m = *m;
                legal.clear();
                SCRATCH.set(legal);
                return Ok(m);
            }
            if !legal.iter().any(named) {
                // The king's own move where it can only mean castling (§5).
                if kind == variant.king_kind() {
                    let castles: Vec<Move> = legal
                        .iter()
                        .filter(|m| m.is_castle() && m.to == *to)
                        .copied()
                        .collect();
                    if !castles.is_empty() {
                        return finish(pos, castles, waiting, san);
                    }
                }
                return Err(SanError::Illegal(explain_no_piece(
                    pos, kind, name, *file, *rank, *to,
                )));
            }
            legal.retain(named);
            let mut found = legal;
            narrow_by_promotion(pos, &mut found, *promotion, *to, name)?;
            (found, waiting)
        }
    };
    candidates.dedup();
    finish(pos, candidates, waiting, san)
}

/// The usual case of [`resolve_san`] alone: a plain move named with
/// nothing to choose (no promotion, waiting pawn or gate), found straight
/// from the position. `None` for anything else, faults included, where
/// [`resolve_san`] gives the answer or says why; where this finds a move,
/// [`resolve_san`] finds the same. The replay asks it first: the move
/// then comes without the error types of the general path.
#[inline(always)]
pub(crate) fn resolve_plain_san(pos: &Position, san: &San) -> Option<Move> {
    PlainSan::of(san).and_then(|plain| plain.resolve(pos))
}

/// A SAN move that names a plain move and nothing to choose (a piece
/// letter or none, origin hints, the target: no promotion, waiting pawn
/// or gate), in its parts: a small copy with nothing to free, which the
/// reader hands over for nearly every move and the streaming replay keeps
/// until it plays it. [`PlainSan::san`] gives it as a [`San`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlainSan {
    piece: Option<char>,
    file: Option<u8>,
    rank: Option<u8>,
    capture: bool,
    to: Square,
}

impl PlainSan {
    /// `san` in parts, if it is such a move.
    #[inline(always)]
    pub(crate) fn of(san: &San) -> Option<PlainSan> {
        match san {
            &San::Normal {
                piece,
                file,
                rank,
                capture,
                to,
                promotion: None,
                ref waiting,
                gate: None,
            } if waiting.is_empty() => Some(PlainSan {
                piece,
                file,
                rank,
                capture,
                to,
            }),
            _ => None,
        }
    }

    /// The move as a [`San`].
    pub fn san(self) -> San {
        San::Normal {
            piece: self.piece,
            file: self.file,
            rank: self.rank,
            capture: self.capture,
            to: self.to,
            promotion: None,
            waiting: Vec::new(),
            gate: None,
        }
    }

    /// [`resolve_plain_san`] of the move.
    #[inline(always)]
    pub(crate) fn resolve(self, pos: &Position) -> Option<Move> {
        let variant = pos.variant();
        if !variant.size().contains(self.to) {
            return None;
        }
        let kind = match (self.piece, self.file, self.rank) {
            (Some(l), _, _) => variant.kind_by_letter(l)?,
            (None, Some(f), Some(r)) => kind_on_origin(pos, Square::new(f, r)),
            (None, _, _) => variant.pawn_kind(),
        };
        pos.plain_named_move(kind, self.to, self.file, self.rank)
    }
}

/// The kind of a move written without a piece letter but with its whole
/// origin: long algebraic without piece letters (`g1-f3`, as some programs
/// write every move) means the mover's piece on the square written,
/// whatever it is; a pawn where the mover has none there. Out of line:
/// nearly every such move is a pawn's capture.
#[cold]
#[inline(never)]
fn kind_on_origin(pos: &Position, from: Square) -> PieceKind {
    match pos.piece_at(from) {
        Some(p) if pos.variant().size().contains(from) && p.color == pos.turn() => p.kind,
        _ => pos.variant().pawn_kind(),
    }
}

/// The kind a move's piece or promotion letter names, or why none.
#[inline]
fn kind_named(variant: &Variant, letter: char) -> Result<PieceKind, SanError> {
    // The message is made only for a letter that names no kind.
    match variant.kind_by_letter(letter) {
        Some(kind) => Ok(kind),
        None => super::kind_for_letter(variant, letter).map_err(|m| SanError::Illegal(m.into())),
    }
}

/// The legal castlings of the side to move toward `side`, or why there
/// are none.
fn legal_castlings(pos: &Position, side: CastlingSide) -> Result<Vec<Move>, SanError> {
    let variant = pos.variant();
    let mut found = SCRATCH.take();
    pos.legal_castlings_toward_into(side, &mut found);
    found.retain(|m| match m.kind {
        MoveKind::Castle(i) => variant.castling(i as usize).side == side,
        _ => false,
    });
    if found.is_empty() {
        return Err(SanError::Illegal(explain_castle(pos, side)));
    }
    Ok(found)
}

/// Keeps of `found` (the legal moves of a `name` to `to`) those the
/// written `promotion` allows, or says why none or several remain.
fn narrow_by_promotion(
    pos: &Position,
    found: &mut Vec<Move>,
    promotion: Option<char>,
    to: Square,
    name: &str,
) -> Result<(), SanError> {
    let variant = pos.variant();
    let forced = matches!(
        variant.def().pawns.promotion,
        PromotionRule::SetupSquare { .. }
    );
    match promotion {
        Some(letter) => {
            if variant.has_waiting_promotion() {
                return Err(SanError::Illegal(IllegalSan::from(format!(
                    "a pawn that reaches the last rank waits there and promotes later, as part of its owner's second move after arrival, to a type its owner has lost (R-CS-3, R-CS-4): write `{to}` now and the promotion later as a suffix `&{to}=X`"
                ))));
            }
            let k = kind_named(variant, letter)?;
            let all = found.clone();
            found.retain(|m| m.promotion == Some(k));
            if found.is_empty() {
                let allowed: Vec<String> = all
                    .iter()
                    .filter_map(|m| m.promotion)
                    .map(|k| {
                        let d = variant.piece_def(k);
                        format!("{} ({})", d.name, d.letter)
                    })
                    .collect();
                return Err(SanError::Illegal(IllegalSan::from(if allowed.is_empty() {
                    format!("a {name} moving to {to} does not promote")
                } else {
                    format!(
                        "the pawn may promote only to {} here ({})",
                        allowed.join(", "),
                        variant.def().pawns.rule
                    )
                })));
            }
        }
        None => {
            // Where the pawn may stay a pawn (optional promotion),
            // no promotion written means it stays one.
            if !forced && found.iter().any(|m| m.promotion.is_none()) {
                found.retain(|m| m.promotion.is_none());
            }
            let promos: Vec<PieceKind> = found.iter().filter_map(|m| m.promotion).collect();
            if promos.len() > 1 && !forced {
                let letters: Vec<String> = promos
                    .iter()
                    .map(|&k| format!("={}", variant.piece_def(k).letter))
                    .collect();
                return Err(SanError::Ambiguous(format!(
                    "the pawn promotes on {to}: add one of {} ({})",
                    letters.join(", "),
                    variant.def().pawns.rule
                )));
            }
        }
    }

    Ok(())
}

thread_local! {
    /// One move list for the resolutions of this thread: reading a game
    /// resolves a move per ply, and this spares an allocation for each.
    static SCRATCH: Cell<Vec<Move>> = const { Cell::new(Vec::new()) };
}

fn finish(
    pos: &Position,
    mut candidates: Vec<Move>,
    waiting: &[(Square, char)],
    san: &San,
) -> Result<Move, SanError> {
    let variant = pos.variant();
    narrow_by_gate(pos, &mut candidates, san)?;
    for &(sq, letter) in waiting {
        let kind =
            super::kind_for_letter(variant, letter).map_err(|m| SanError::Illegal(m.into()))?;
        let before = candidates.clone();
        candidates.retain(|m| {
            [m.waiting_promotion, m.instant_promotion]
                .iter()
                .flatten()
                .any(|w| w.square == sq && w.kind == kind)
        });
        if candidates.is_empty() {
            return Err(SanError::Illegal(
                waiting_mismatch(pos, &before, sq, letter).into(),
            ));
        }
    }
    // Pieces that differ only in the waiting pawn's choice.
    let first = candidates[0];
    if candidates.len() > 1
        && candidates
            .iter()
            .all(|m| m.from == first.from && m.to == first.to && m.promotion == first.promotion)
    {
        let choices: Vec<PieceKind> = candidates
            .iter()
            .filter_map(|m| m.waiting_promotion.map(|w| w.kind))
            .collect();
        let sq = first.waiting_promotion.map(|w| w.square);
        if let Some(sq) = sq {
            let letters: Vec<String> = choices
                .iter()
                .map(|&k| format!("&{sq}={}", variant.piece_def(k).letter))
                .collect();
            return Err(SanError::Ambiguous(format!(
                "the pawn on {sq} ends its wait with this move and must become one of the types its owner has lost: {} (add {}; R-CS-4, R-CS-5)",
                kind_names(pos, &choices).join(", "),
                letters.join(" or ")
            )));
        }
    }
    let resolved = match candidates.as_slice() {
        [m] => Ok(*m),
        [] => Err(SanError::Illegal(
            String::from("no legal move matches").into(),
        )),
        many => {
            let written: Vec<String> = many.iter().map(|m| write_san(pos, m)).collect();
            let what = match san {
                San::Normal { piece: Some(l), .. } => variant
                    .kind_by_letter(*l)
                    .map_or("piece", |k| variant.piece_def(k).name.as_str()),
                _ => "move",
            };
            Err(SanError::Ambiguous(format!(
                "ambiguous: more than one {what} can make this move ({})",
                written.join(", ")
            )))
        }
    };
    candidates.clear();
    SCRATCH.set(candidates);
    resolved
}

/// The legal gating moves a piece move written with a gate (`Ne6/H`)
/// may stand for, whatever other piece of its kind could make it: where
/// there are several, the text is ambiguous as a writer that never
/// disambiguates gating moves leaves it (docs/notation.md §13), and the
/// replay may tell them apart by what follows. Empty for any other
/// move.
pub(crate) fn gating_readings(pos: &Position, san: &San) -> Vec<Move> {
    let San::Normal {
        piece,
        file,
        rank,
        to,
        promotion,
        gate: Some(gate),
        ..
    } = san
    else {
        return Vec::new();
    };
    let variant = pos.variant();
    let kind_of = |letter: Option<char>| match letter {
        Some(l) => variant.kind_by_letter(l),
        None => Some(variant.pawn_kind()),
    };
    let (Some(kind), Some(gated)) = (kind_of(*piece), kind_of(Some(gate.letter))) else {
        return Vec::new();
    };
    let promoted = match promotion {
        Some(l) => kind_of(Some(*l)),
        None => None,
    };
    pos.legal_moves()
        .into_iter()
        .filter(|m| {
            m.to == *to
                && m.promotion == promoted
                && file.is_none_or(|f| m.from.file() == f)
                && rank.is_none_or(|r| m.from.rank() == r)
                && pos.piece_at(m.from).is_some_and(|p| p.kind == kind)
                && m.gate
                    .is_some_and(|g| g.kind == gated && gate.square.is_none_or(|s| s == g.square))
        })
        .collect()
}

/// Keeps of `candidates` those with the gating `san` writes (none
/// written: no gating), or says why none remain.
fn narrow_by_gate(pos: &Position, candidates: &mut Vec<Move>, san: &San) -> Result<(), SanError> {
    let (San::Castle { gate, .. } | San::Normal { gate, .. }) = san;
    let Some(gate) = gate else {
        if candidates.iter().any(|m| m.gate.is_some()) {
            candidates.retain(|m| m.gate.is_none());
        }
        return Ok(());
    };
    let variant = pos.variant();
    let kind = kind_named(variant, gate.letter)?;
    let all = std::mem::take(candidates);
    candidates.extend(all.iter().filter(|m| {
        m.gate
            .is_some_and(|g| g.kind == kind && gate.square.is_none_or(|s| s == g.square))
    }));
    if !candidates.is_empty() {
        return Ok(());
    }
    let us = pos.turn();
    let name = &variant.piece_def(kind).name;
    let why = match &variant.def().hand {
        Some(hand) if hand.gating => {
            if pos.in_hand(us, kind) == 0 {
                format!("{us:?} has no {name} in hand to gate ({})", hand.rule)
            } else {
                let gates: Vec<String> = pos.gates(us).iter().map(|s| s.to_string()).collect();
                format!(
                    "a piece gates only onto the square its first move leaves on its own first rank, and {us:?}'s gates are {} ({})",
                    if gates.is_empty() {
                        "all gone".to_string()
                    } else {
                        gates.join(", ")
                    },
                    hand.rule
                )
            }
        }
        _ => format!("{} has no gating", variant.def().display_name),
    };
    Err(SanError::Illegal(why.into()))
}

fn waiting_mismatch(pos: &Position, before: &[Move], sq: Square, letter: char) -> String {
    let variant = pos.variant();
    let options: Vec<String> = before
        .iter()
        .flat_map(|m| [m.waiting_promotion, m.instant_promotion])
        .flatten()
        .map(|w| format!("&{}={}", w.square, variant.piece_def(w.kind).letter))
        .collect();
    if options.is_empty() {
        match pos.waiting_pawns().iter().find(|w| w.square == sq) {
            Some(w) if w.color == pos.turn() && w.turns == 2 => format!(
                "the pawn on {sq} arrived on its owner's last move and promotes with the move after this one (R-CS-4)"
            ),
            Some(w) if w.turns == 0 => format!(
                "the pawn on {sq} is blocked and promotes only when its owner loses a piece, into the type captured (R-CS-6)"
            ),
            Some(_) => format!("the pawn on {sq} does not promote with this move (R-CS-4)"),
            None => format!("no pawn waits on {sq} (R-CS-3)"),
        }
    } else {
        format!(
            "`&{sq}={letter}` is not possible here; possible: {} (R-CS-5, R-CS-6)",
            options.join(", ")
        )
    }
}

fn explain_castle(pos: &Position, side: CastlingSide) -> IllegalSan {
    let variant = pos.variant();
    let us = pos.turn();
    let defs: Vec<_> = variant.castlings(us).filter(|c| c.side == side).collect();
    if defs.is_empty() {
        return IllegalSan::from(format!(
            "{} has no {} for {} (castling rules: {})",
            variant.def().display_name,
            side_name(side),
            color_name(us),
            if variant.castlings(us).next().is_none() {
                "none".to_string()
            } else {
                variant
                    .castlings(us)
                    .map(|c| c.rule.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ));
    }
    // Prefer the castling whose king square matches where the king stands.
    let king = pos.king_square(us);
    let def = defs
        .iter()
        .find(|c| c.king_from == king)
        .unwrap_or(&defs[0]);
    let reason = pos.explain_illegal(def.king_from, def.king_to);
    IllegalSan {
        message: reason.to_string(),
        reasons: vec![reason],
    }
}

fn explain_no_piece(
    pos: &Position,
    kind: PieceKind,
    name: &str,
    file: Option<u8>,
    rank: Option<u8>,
    to: Square,
) -> IllegalSan {
    let us = pos.turn();
    let ours: Vec<Square> = pos
        .occupied_by(us)
        .iter()
        .filter(|&s| pos.piece_at(s).is_some_and(|p| p.kind == kind))
        .filter(|s| file.is_none_or(|f| s.file() == f))
        .filter(|s| rank.is_none_or(|r| s.rank() == r))
        .collect();
    match ours.as_slice() {
        [] => format!("{} has no {name} that could move to {to}", color_name(us)).into(),
        [one] => {
            let reason = pos.explain_illegal(*one, to);
            IllegalSan {
                message: reason.to_string(),
                reasons: vec![reason],
            }
        }
        _ => {
            // Every candidate fails: one that fails only for the king's
            // sake (or a waiting pawn's) says it all; else say why each fails.
            let reasons: Vec<Illegality> =
                ours.iter().map(|&s| pos.explain_illegal(s, to)).collect();
            let message = if let Some(r) = reasons.iter().find(|r| {
                matches!(
                    r,
                    Illegality::KingLeftAttacked | Illegality::WaitingPawnCaptured(_)
                )
            }) {
                r.to_string()
            } else {
                let each: Vec<String> = ours
                    .iter()
                    .zip(&reasons)
                    .map(|(sq, r)| match r {
                        Illegality::CannotReach {
                            blocked_by: Some(b),
                            ..
                        } => format!("from {sq}, {b} is in the way"),
                        Illegality::CannotReach { .. } => format!("{sq} is out of its reach"),
                        other => format!("from {sq}: {other}"),
                    })
                    .collect();
                format!("no {name} can reach {to} ({})", each.join("; "))
            };
            IllegalSan { message, reasons }
        }
    }
}

/// Writes `m` (legal in `pos`) in SAN with the least disambiguation, `x`
/// for captures, `=X` promotions (always, also where forced, R-CH-4), the
/// `&square=X` waiting-promotion suffixes, and `+` or `#`.
pub fn write_san(pos: &Position, m: &Move) -> String {
    let mut out = String::new();
    push_san_body(&mut out, pos, m);
    push_check_mark(pos, m, &mut out);
    out
}

/// Appends the SAN of `m`, played in `pos`, to `out`, where `next` is the
/// position after it: for writers that replay a game anyway.
pub fn push_san_after(out: &mut String, pos: &Position, m: &Move, next: &Position) {
    push_san_body(out, pos, m);
    push_check_mark_of(next, out);
}

/// `+` if `m` gives check, `#` if it mates.
fn push_check_mark(pos: &Position, m: &Move, out: &mut String) {
    let mut next = pos.clone();
    next.play_unchecked(m);
    push_check_mark_of(&next, out);
}

/// `+` if the side to move in `next` is in check, `#` if it is mated, or,
/// in a variant with play rules, if the move won at once (a king
/// exploded, a goal reached: docs/notation.md §13).
pub(crate) fn push_check_mark_of(next: &Position, out: &mut String) {
    if next.is_check() {
        out.push(if next.has_legal_move() { '+' } else { '#' });
    } else if next.variant().def().has_play_rules()
        && matches!(next.variant_end(), Some(crate::rules::Outcome::Win { winner, .. }) if winner != next.turn())
    {
        out.push('#');
    }
}

/// Long algebraic: `Ng1-f3`, `e2-e4`, `Bc4xf7+`, `e7-e8=Q`, castling as SAN.
pub fn write_lan(pos: &Position, m: &Move) -> String {
    let variant = pos.variant();
    let mut out = String::new();
    if m.is_null() {
        return "--".into();
    }
    if let MoveKind::Castle(i) = m.kind {
        out.push_str(side_name(variant.castling(i as usize).side));
    } else if let Some(kind) = m.dropped() {
        push_drop(&mut out, pos, kind, m.to);
    } else {
        let kind = pos.piece_at(m.from).map(|p| p.kind);
        if let Some(k) = kind.filter(|&k| k != variant.pawn_kind()) {
            out.push(variant.piece_def(k).letter);
        }
        out.push_str(&m.from.to_string());
        out.push(if is_capture(pos, m) { 'x' } else { '-' });
        out.push_str(&m.to.to_string());
        if let Some(k) = m.promotion {
            out.push('=');
            out.push(variant.piece_def(k).letter);
        }
    }
    push_waiting_suffixes(&mut out, pos, m);
    push_gate_suffix(&mut out, pos, m);
    push_check_mark(pos, m, &mut out);
    out
}

fn is_capture(pos: &Position, m: &Move) -> bool {
    m.kind == MoveKind::EnPassant
        || (!m.is_castle() && pos.piece_at(m.to).is_some_and(|p| p.color != pos.turn()))
}

pub(crate) fn push_san_body(out: &mut String, pos: &Position, m: &Move) {
    let variant = pos.variant();
    if m.is_null() {
        // R-0-6, written as PGN annotators do.
        out.push_str("--");
        return;
    }
    if let MoveKind::Castle(i) = m.kind {
        out.push_str(side_name(variant.castling(i as usize).side));
        push_waiting_suffixes(out, pos, m);
        push_gate_suffix(out, pos, m);
        return;
    }
    if let Some(kind) = m.dropped() {
        push_drop(out, pos, kind, m.to);
        return;
    }
    let Some(kind) = pos.piece_at(m.from).map(|p| p.kind) else {
        push_square(out, m.from);
        push_square(out, m.to);
        return;
    };
    let capture = is_capture(pos, m);
    let in_place = matches!(variant.def().pawns.promotion, PromotionRule::InPlace { .. });
    if kind == variant.pawn_kind() && in_place && m.promotion.is_some() && m.from != m.to {
        // A promotion one step away names its pawn (`d5c6=F`): `c6=F`
        // is the pawn on c6 promoting where it stands (R-SI-2).
        push_square(out, m.from);
    } else if kind == variant.pawn_kind() {
        if capture {
            out.push((b'a' + m.from.file()) as char);
            out.push('x');
        }
    } else {
        out.push(variant.piece_def(kind).letter);
        let rivals: Vec<Square> = if !pos.may_have_rival(kind, m.from, m.to) {
            Vec::new()
        } else {
            pos.legal_moves_filtered(Some(kind), Some(m.to))
                .iter()
                .filter(|o| {
                    o.to == m.to
                        && o.from != m.from
                        && !o.is_castle()
                        && pos.piece_at(o.from).is_some_and(|p| p.kind == kind)
                })
                .map(|o| o.from)
                .collect()
        };
        if !rivals.is_empty() {
            let file_unique = rivals.iter().all(|s| s.file() != m.from.file());
            let rank_unique = rivals.iter().all(|s| s.rank() != m.from.rank());
            if file_unique {
                out.push((b'a' + m.from.file()) as char);
            } else if rank_unique {
                out.push_str(&(m.from.rank() + 1).to_string());
            } else {
                push_square(out, m.from);
            }
        }
        if capture {
            out.push('x');
        }
    }
    push_square(out, m.to);
    if let Some(k) = m.promotion {
        out.push('=');
        out.push(variant.piece_def(k).letter);
    }
    push_waiting_suffixes(out, pos, m);
    push_gate_suffix(out, pos, m);
}

/// Appends the gating suffix of `m`, if it gates (docs/notation.md §13):
/// `/H`, or after castling `/Ee1`, which names the gate.
fn push_gate_suffix(out: &mut String, pos: &Position, m: &Move) {
    if let Some(g) = m.gate {
        out.push('/');
        out.push(pos.variant().piece_def(g.kind).letter);
        if m.is_castle() {
            push_square(out, g.square);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::coord::resolve_coord;
    use crate::rules::Variant;

    fn play(variant: &str, moves: &str) -> Position {
        let mut pos = Position::start(Variant::by_name(variant).unwrap());
        for m in moves.split_whitespace() {
            let mv = resolve_coord(&pos, m).unwrap();
            pos.play_unchecked(&mv);
        }
        pos
    }

    fn san_of(pos: &Position, text: &str) -> Result<Move, SanError> {
        resolve_san(pos, &parse_san(text)?.san)
    }

    /// The replay's fast path finds a move only where the general path
    /// finds the same: every legal move of random games of every variant,
    /// written in SAN and long algebraic, and the same with another
    /// target or piece letter (moves illegal or ambiguous, or of no kind).
    #[test]
    fn the_plain_path_finds_what_the_general_path_finds() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut plain = 0;
        for variant in Variant::builtin() {
            let mut pos = Position::start(variant.clone());
            for _ in 0..40 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for m in &moves {
                    let san = write_san(&pos, m);
                    let lan = write_lan(&pos, m);
                    let shifted = san.replace('4', "5").replace('e', "d");
                    let lettered = san.replacen(|c: char| c.is_ascii_uppercase(), "Q", 1);
                    for text in [&san, &lan, &shifted, &lettered] {
                        let Ok(token) = parse_san(text) else {
                            continue;
                        };
                        if let Some(found) = resolve_plain_san(&pos, &token.san) {
                            plain += 1;
                            assert_eq!(resolve_san(&pos, &token.san).ok(), Some(found), "{text}");
                        }
                    }
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(&moves[(seed % moves.len() as u64) as usize]);
            }
        }
        assert!(plain > 1000, "the plain path found {plain} moves");
    }

    #[test]
    fn gating_suffixes_follow_a_piece_move_or_a_castling_that_names_its_square() {
        let t = parse_san("Nxe4/E+").unwrap();
        assert_eq!(t.check, Some(CheckMark::Check));
        let gate = |san: &San| match san {
            San::Normal { gate, .. } | San::Castle { gate, .. } => *gate,
        };
        assert_eq!(
            gate(&t.san),
            Some(GateText {
                letter: 'E',
                square: None
            })
        );
        let t = parse_san("O-O/Eh1").unwrap();
        assert_eq!(
            gate(&t.san),
            Some(GateText {
                letter: 'E',
                square: crate::notation::square::parse_square("h1")
            })
        );
        for bad in ["O-O/E", "Nf3/He1", "e8=Q/H", "Nf3/h", "Nf3/", "Nf3&e8=Q/H"] {
            assert!(parse_san(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn gating_moves_are_written_and_read_back() {
        let v = Variant::by_name("seirawan").unwrap();
        let pos = Position::start(v.clone());
        let m = san_of(&pos, "Nf3/H").unwrap();
        assert_eq!(m.gate().map(|g| g.square.to_string()), Some("g1".into()));
        assert_eq!(write_san(&pos, &m), "Nf3/H");
        assert_eq!(write_lan(&pos, &m), "Ng1-f3/H");
        assert_eq!(crate::notation::coord::write_coord(&pos, &m), "g1f3h");
        assert_eq!(resolve_coord(&pos, "g1f3h").unwrap(), m);
        // Without a suffix the knight moves alone.
        assert_eq!(san_of(&pos, "Nf3").unwrap().gate(), None);
        // Castling gates on the king's square or the rook's.
        let castled = read(
            "seirawan",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[HEhe] w KQkq - 0 1",
        );
        for (san, coord) in [("O-O/He1", "e1g1h"), ("O-O/Hh1", "h1e1h")] {
            let m = san_of(&castled, san).unwrap();
            assert_eq!(write_san(&castled, &m), san);
            assert_eq!(crate::notation::coord::write_coord(&castled, &m), coord);
            assert_eq!(resolve_coord(&castled, coord).unwrap(), m);
        }
        assert!(matches!(
            san_of(&castled, "O-O/H"),
            Err(SanError::Syntax(_))
        ));
        // A piece that has left its gate cannot gate.
        let moved = read(
            "seirawan",
            "r3k2r/pppppppp/8/8/8/R7/1PPPPPPP/4K2R[HEhe] w Kkq - 0 1",
        );
        let msg = san_of(&moved, "Rb3/H").unwrap_err().to_string();
        assert!(msg.contains("gates are e1, h1 (R-SE-1)"), "{msg}");
    }

    #[test]
    fn syntax_covers_disambiguation_two_digit_ranks_and_suffixes() {
        let t = parse_san("Rb10xc10=Q&e8=R+!?").unwrap();
        assert_eq!(t.check, Some(CheckMark::Check));
        assert_eq!(t.suffix_nag, Some(5));
        match t.san {
            San::Normal {
                piece,
                file,
                rank,
                capture,
                to,
                promotion,
                waiting,
                gate,
            } => {
                assert_eq!(
                    (piece, file, rank, capture),
                    (Some('R'), Some(1), Some(9), true)
                );
                assert_eq!(to.to_string(), "c10");
                assert_eq!(promotion, Some('Q'));
                assert_eq!(waiting.len(), 1);
                assert_eq!(gate, None);
            }
            _ => panic!(),
        }
        assert!(matches!(
            parse_san("O-O-O").unwrap().san,
            San::Castle {
                side: CastlingSide::Long,
                ..
            }
        ));
        assert!(matches!(
            parse_san("0-0#").unwrap().san,
            San::Castle {
                side: CastlingSide::Short,
                ..
            }
        ));
        for ok in [
            "e4",
            "exd5",
            "Nbd2",
            "N1f3",
            "Ng1f3",
            "Ng1-f3",
            "e2-e4",
            "Bc4xf7+",
            "e7-e8=Q",
            "Kj1",
            "e8",
            "Nf3&e8=Q",
            "Bxb2&e8=R+",
        ] {
            assert!(parse_san(ok).is_ok(), "{ok}");
        }
        for bad in ["", "x", "Z", "e9x", "O-O-O-O", "N", "e4 ", "e4+++", "e4#+"] {
            assert!(parse_san(bad).is_err(), "{bad}");
        }
        // `++` is a check mark, read as `+`, as the grammar's check-mark has
        // it and the reader reads it.
        let t = parse_san("Nf3++!").unwrap();
        assert_eq!((t.check, t.suffix_nag), (Some(CheckMark::Check), Some(1)));
    }

    #[test]
    fn writes_and_reads_minimal_disambiguation() {
        let pos = read("chess", "4k3/8/8/1N6/8/8/8/1N1NK3 w - - 0 1");
        for (coord, san) in [
            ("b5c3", "N5c3"),
            ("d1c3", "Ndc3"),
            ("b1c3", "Nb1c3"),
            ("b5d4", "Nd4"),
            ("b1a3", "N1a3"),
            ("b1d2", "Nd2"),
        ] {
            let m = resolve_coord(&pos, coord).unwrap();
            assert_eq!(write_san(&pos, &m), san);
            assert_eq!(san_of(&pos, san), Ok(m));
        }
        assert!(matches!(san_of(&pos, "Nc3"), Err(SanError::Ambiguous(_))));
        assert!(matches!(san_of(&pos, "Nbc3"), Err(SanError::Ambiguous(_))));
        let pos = play("chess", "e2e4 d7d5");
        let m = resolve_coord(&pos, "e4d5").unwrap();
        assert_eq!(write_san(&pos, &m), "exd5");
        assert_eq!(write_lan(&pos, &m), "e4xd5");
    }

    #[test]
    fn an_illegal_move_keeps_the_rules_reasons() {
        // Counsellor Chess after 1. d4 d5: the Elephants of d1 and i1
        // cannot reach f3 (R-CO-1): one is blocked on e2, one out of reach.
        let pos = play("counsellor", "d2d4 d7d5");
        let Err(SanError::Illegal(illegal)) = san_of(&pos, "Ef3") else {
            panic!("Ef3 is not legal here");
        };
        assert_eq!(illegal.reasons.len(), 2, "{illegal}");
        let blocked: Vec<_> = illegal
            .reasons
            .iter()
            .filter_map(|r| match r {
                Illegality::CannotReach { blocked_by, .. } => Some(*blocked_by),
                _ => None,
            })
            .collect();
        assert!(blocked.contains(&Some(crate::notation::square::parse_square("e2").unwrap())));
        assert!(
            illegal.to_string().contains("e2 is in the way"),
            "{illegal}"
        );
        // A castling not possible: its reason, the rules' own.
        let Err(SanError::Illegal(castle)) = san_of(&pos, "O-O") else {
            panic!("O-O is not legal here");
        };
        assert!(
            matches!(castle.reasons[..], [Illegality::Castling { .. }]),
            "{castle:?}"
        );
        // A square off the board: nothing for the rules to say.
        let Err(SanError::Illegal(off)) = san_of(&pos, "Ej9") else {
            panic!("j9 is off the 12x8 board");
        };
        assert!(off.reasons.is_empty(), "{off:?}");
    }

    #[test]
    fn explains_unreachable_targets_in_words() {
        let pos = Position::start(Variant::by_name("counsellor").unwrap());
        let e = san_of(&pos, "Ed3").unwrap_err().to_string();
        assert!(e.contains("Elephant"), "{e}");
        let e = san_of(&pos, "O-O").unwrap_err().to_string();
        assert!(e.contains("R-CO-4"), "{e}");
        let e = san_of(&pos, "Zd3").unwrap_err().to_string();
        assert!(e.contains("not a piece letter of Counsellor Chess"), "{e}");
    }

    #[test]
    fn waiting_promotion_on_arrival_is_explained() {
        let pos = read(
            "courier-spiel",
            "rnbcmkqfcb1r/ppppppppppPp/12/12/12/12/PPPPPPPPPP1P/RNBCMKQFCBNR w KQkq - 0 10 -",
        );
        let e = san_of(&pos, "xl8=N").unwrap_err().to_string();
        assert!(e.contains("R-CS-3"), "{e}");
    }

    fn read(v: &str, fen: &str) -> Position {
        crate::notation::position::read_position(Variant::by_name(v).unwrap(), fen).unwrap()
    }
}
