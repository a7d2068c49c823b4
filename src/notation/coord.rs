//! Coordinate moves (docs/notation.md §9): `e2e4`, `a7a8q`, castling as the
//! king's from-to (`h1j1`), drops from the hand (`N@f3`, §13), and the
//! waiting-promotion suffix `&e8=Q` (§7). Grammar production `coord-move`.

use super::square::{push_square, square_at};
use crate::rules::{Move, MoveKind, PieceKind, Position, Square, WaitingPromotion, kind_names};

/// A coordinate move as written, before it is matched to a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoordMove {
    /// From-square.
    pub from: Square,
    /// To-square.
    pub to: Square,
    /// Promotion letter, if written, in lower case (either case in the text).
    pub promotion: Option<char>,
    /// `&square=Letter` suffixes.
    pub waiting: Vec<(Square, char)>,
    /// Whether this is a drop from the hand (`N@f3`, `@e4`); `from` and
    /// `to` are then both the square the piece lands on.
    pub drop: bool,
    /// A drop's piece letter, upper case; `None` for `@e4`, a pawn.
    pub drop_letter: Option<char>,
}

/// Why a coordinate move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CoordError {
    /// The text is not a coordinate move.
    #[error(
        "`{0}` is not a coordinate move (expected from-square, to-square, optional promotion letter, e.g. `e2e4`, `a7a8q`, `g1f3&e8=Q`)"
    )]
    Syntax(String),
    /// No legal move matches.
    #[error("{0}")]
    Illegal(String),
    /// Several legal moves match.
    #[error("{0}")]
    Ambiguous(String),
}

/// Production `waiting-suffix` at the start of `text`: `&` square `=`
/// letter; the square, the letter and the suffix's length.
#[inline]
pub fn waiting_suffix(text: &[u8]) -> Option<((Square, char), usize)> {
    if text.first() != Some(&b'&') {
        return None;
    }
    let (sq, len) = square_at(&text[1..])?;
    match text.get(1 + len..1 + len + 2) {
        Some(&[b'=', c]) if c.is_ascii_alphabetic() => Some(((sq, c as char), len + 3)),
        _ => None,
    }
}

/// Zero or more `waiting-suffix`es at the start of `text`, and their
/// length; `None` where a `&` opens no suffix. Allocates nothing when
/// there are none, as on almost every move.
#[inline(always)]
pub fn waiting_suffixes(text: &[u8]) -> Option<(Vec<(Square, char)>, usize)> {
    let mut out = Vec::new();
    let mut len = 0;
    while text.get(len) == Some(&b'&') {
        let (suffix, n) = waiting_suffix(&text[len..])?;
        out.push(suffix);
        len += n;
    }
    Some((out, len))
}

/// Production `coord-move` at the start of `text`: from-square,
/// to-square, a promotion letter in either case (lower case as UCI writes
/// it, upper case as some files do: `d7d8R`), waiting suffixes; the move
/// and its length.
#[inline(always)]
pub fn coord_move(text: &[u8]) -> Option<(CoordMove, usize)> {
    if text.get(1) == Some(&b'@') || text.first() == Some(&b'@') {
        return coord_drop(text);
    }
    let (from, a) = square_at(text)?;
    let (to, b) = square_at(&text[a..])?;
    let mut len = a + b;
    let promotion = match text.get(len) {
        Some(&c) if c.is_ascii_alphabetic() => {
            len += 1;
            Some(c.to_ascii_lowercase() as char)
        }
        _ => None,
    };
    let (waiting, n) = waiting_suffixes(&text[len..])?;
    Some((
        CoordMove {
            from,
            to,
            promotion,
            waiting,
            drop: false,
            drop_letter: None,
        },
        len + n,
    ))
}

/// Production `drop` at the start of `text`: a piece letter (none for a
/// pawn), `@`, the square (`N@f3`, `@e4`); the move and its length.
pub(crate) fn coord_drop(text: &[u8]) -> Option<(CoordMove, usize)> {
    let (letter, at) = match text {
        [b'@', ..] => (None, 1),
        [c, b'@', ..] if c.is_ascii_alphabetic() => (Some(c.to_ascii_uppercase() as char), 2),
        _ => return None,
    };
    let (to, len) = square_at(&text[at..])?;
    Some((
        CoordMove {
            from: to,
            to,
            promotion: None,
            waiting: Vec::new(),
            drop: true,
            drop_letter: letter,
        },
        at + len,
    ))
}

/// Parses a whole string as a coordinate move.
///
/// # Errors
/// [`CoordError::Syntax`] if it is not one.
pub fn parse_coord(text: &str) -> Result<CoordMove, CoordError> {
    match coord_move(text.as_bytes()) {
        Some((m, len)) if len == text.len() => Ok(m),
        _ => Err(CoordError::Syntax(text.to_string())),
    }
}

/// Finds the legal move of `pos` that `text` names.
///
/// ```
/// use xpgn::notation::coord::{resolve_coord, write_coord};
/// use xpgn::rules::{Position, Variant};
/// let pos = Position::start(Variant::chess());
/// let m = resolve_coord(&pos, "g1f3").unwrap();
/// assert_eq!(write_coord(&pos, &m), "g1f3");
/// ```
///
/// # Errors
/// Says why no legal move, or more than one, matches.
pub fn resolve_coord(pos: &Position, text: &str) -> Result<Move, CoordError> {
    let cm = parse_coord(text)?;
    let variant = pos.variant();
    let size = variant.size();
    for sq in [cm.from, cm.to] {
        if !size.contains(sq) {
            return Err(CoordError::Illegal(format!(
                "{sq} is off the {}x{} board",
                size.files, size.ranks
            )));
        }
    }
    if cm.drop {
        return resolve_drop(pos, cm.drop_letter, cm.to).map_err(CoordError::Illegal);
    }
    if let Some(found) = castling_gated_on_partner(pos, &cm) {
        return found;
    }
    if let Some(found) = castling_onto_own_partner(pos, &cm) {
        return found;
    }
    let mut all: Vec<Move> = pos
        .legal_moves_filtered(pos.piece_at(cm.from).map(|p| p.kind), Some(cm.to))
        .into_iter()
        .filter(|m| m.from == cm.from && m.to == cm.to)
        .collect();
    if all.is_empty() {
        return Err(CoordError::Illegal(
            pos.explain_illegal(cm.from, cm.to).to_string(),
        ));
    }
    let mut candidates = all.clone();
    // A letter after a move that gates names the gated piece (`g1f3h`,
    // R-SE-1); a move written without one does not gate.
    if all.iter().any(|m| m.gate.is_some()) {
        let gated = |m: &Move| gates_as_written(variant, m, cm.promotion, cm.from);
        if cm.promotion.is_some() && all.iter().any(|m| m.gate.is_some() && gated(m)) {
            candidates.retain(gated);
            return match candidates.as_slice() {
                [m] => Ok(*m),
                _ => Err(CoordError::Ambiguous(format!(
                    "{text} matches {} legal moves",
                    candidates.len()
                ))),
            };
        }
        candidates.retain(|m| m.gate.is_none());
        all.retain(|m| m.gate.is_none());
    }
    keep_written_promotion(pos, &cm, &all, &mut candidates)?;
    keep_written_waiting_promotions(pos, &cm, &mut candidates)?;
    // The king's own move where it is also an ordinary king move means
    // that move (docs/notation.md §6, R-960-1).
    if candidates.iter().any(|m| m.is_castle()) && candidates.iter().any(|m| !m.is_castle()) {
        candidates.retain(|m| !m.is_castle());
    }
    the_one_candidate(pos, text, &candidates)
}

/// The piece kind a letter of the move names in `pos`'s variant.
fn kind_named(pos: &Position, letter: char) -> Result<PieceKind, CoordError> {
    super::kind_for_letter(pos.variant(), letter).map_err(CoordError::Illegal)
}

/// A castling that gates on its partner's square, written from the
/// partner to the king (`h1e1e`, R-SE-1): the move, if `cm` is written
/// so.
fn castling_gated_on_partner(pos: &Position, cm: &CoordMove) -> Option<Result<Move, CoordError>> {
    let variant = pos.variant();
    let (letter, p, k) = (cm.promotion?, pos.piece_at(cm.from)?, pos.piece_at(cm.to)?);
    if k.kind != variant.king_kind()
        || p.color != k.color
        || k.color != pos.turn()
        || !variant.def().hand.as_ref().is_some_and(|h| h.gating)
    {
        return None;
    }
    let kind = match kind_named(pos, letter) {
        Ok(kind) => kind,
        Err(e) => return Some(Err(e)),
    };
    Some(
        pos.legal_moves_filtered(Some(k.kind), None)
            .into_iter()
            .find(|m| {
                m.from == cm.to
                    && m.gate
                        .is_some_and(|g| g.square == cm.from && g.kind == kind)
            })
            .ok_or_else(|| {
                CoordError::Illegal(format!(
                    "no castling of the king on {} gates a {} on {} here",
                    cm.to,
                    variant.piece_def(kind).name,
                    cm.from
                ))
            }),
    )
}

/// Castling toward either partner written as the king taking its own
/// partner (R-960-1): the move, if `cm` is written so.
fn castling_onto_own_partner(pos: &Position, cm: &CoordMove) -> Option<Result<Move, CoordError>> {
    let variant = pos.variant();
    let free = variant.def().free_castling.as_ref()?;
    let (k, r) = (pos.piece_at(cm.from)?, pos.piece_at(cm.to)?);
    if k.kind != variant.king_kind() || r.color != k.color || k.color != pos.turn() {
        return None;
    }
    let found = pos
        .legal_moves_filtered(Some(k.kind), None)
        .into_iter()
        .find(|m| {
            m.from == cm.from
                && matches!(m.kind, MoveKind::Castle(i)
                            if variant.castling(i as usize).partner_from == cm.to)
                && gates_as_written(variant, m, cm.promotion, cm.from)
        });
    Some(found.ok_or_else(|| {
        CoordError::Illegal(format!(
            "the king on {} cannot castle with the piece on {} here ({})",
            cm.from, cm.to, free.rule
        ))
    }))
}

/// Keeps the `candidates` that promote as `cm` is written (`all`: the
/// legal moves between its squares, for the messages).
fn keep_written_promotion(
    pos: &Position,
    cm: &CoordMove,
    all: &[Move],
    candidates: &mut Vec<Move>,
) -> Result<(), CoordError> {
    match cm.promotion {
        Some(letter) => {
            let kind = kind_named(pos, letter)?;
            if pos.variant().has_waiting_promotion() {
                return Err(CoordError::Illegal(format!(
                    "a pawn that reaches the last rank waits there and promotes later, as part of its owner's second move after arrival (R-CS-3, R-CS-4): write `{}{}` and later a suffix `&{}=X`",
                    cm.from, cm.to, cm.to
                )));
            }
            candidates.retain(|m| m.promotion == Some(kind));
            if candidates.is_empty() {
                let allowed = promotion_letters(pos, all);
                return Err(CoordError::Illegal(if allowed.is_empty() {
                    format!("{}{} is not a promotion", cm.from, cm.to)
                } else {
                    format!(
                        "this pawn may promote only to {} here{}",
                        allowed.join(", "),
                        promotion_rule(pos)
                    )
                }));
            }
        }
        None => {
            // Where the pawn may stay a pawn (optional promotion), no
            // promotion letter means it stays one.
            if all.iter().any(|m| m.promotion.is_none()) {
                candidates.retain(|m| m.promotion.is_none());
            }
            let kinds: Vec<_> = candidates.iter().filter_map(|m| m.promotion).collect();
            if kinds.len() > 1 {
                return Err(CoordError::Ambiguous(format!(
                    "a promotion letter is needed: one of {}",
                    promotion_letters(pos, all).join(", ")
                )));
            }
        }
    }
    Ok(())
}

/// Keeps the `candidates` that promote waiting pawns as the `&square=X`
/// suffixes of `cm` say.
fn keep_written_waiting_promotions(
    pos: &Position,
    cm: &CoordMove,
    candidates: &mut Vec<Move>,
) -> Result<(), CoordError> {
    for &(sq, letter) in &cm.waiting {
        let kind = kind_named(pos, letter)?;
        let before = candidates.clone();
        candidates.retain(|m| {
            [m.waiting_promotion, m.instant_promotion]
                .iter()
                .flatten()
                .any(|w| w.square == sq && w.kind == kind)
        });
        if candidates.is_empty() {
            let options: Vec<String> = before
                .iter()
                .flat_map(|m| [m.waiting_promotion, m.instant_promotion])
                .flatten()
                .map(|w| format!("&{}={}", w.square, pos.variant().piece_def(w.kind).letter))
                .collect();
            return Err(CoordError::Illegal(if options.is_empty() {
                format!("no waiting pawn promotes on {sq} with this move (R-CS-4, R-CS-6)")
            } else {
                format!(
                    "`&{sq}={letter}` is not possible here; possible: {} (R-CS-5)",
                    options.join(", ")
                )
            }));
        }
    }
    Ok(())
}

/// The one move of `candidates`, or why `text` names more than one.
fn the_one_candidate(pos: &Position, text: &str, candidates: &[Move]) -> Result<Move, CoordError> {
    if let [m] = candidates {
        return Ok(*m);
    }
    let choices: Vec<_> = candidates
        .iter()
        .filter_map(|m| m.waiting_promotion)
        .collect();
    if let Some(first) = choices.first() {
        let kinds: Vec<PieceKind> = choices.iter().map(|w| w.kind).collect();
        Err(CoordError::Ambiguous(format!(
            "the pawn on {} ends its wait with this move and must become one of the types its owner has lost: {} (write e.g. `{}&{}={}`; R-CS-4, R-CS-5)",
            first.square,
            kind_names(pos, &kinds).join(", "),
            text,
            first.square,
            pos.variant().piece_def(first.kind).letter
        )))
    } else {
        Err(CoordError::Ambiguous(format!(
            "{text} matches {} legal moves",
            candidates.len()
        )))
    }
}

fn promotion_letters(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut out: Vec<String> = moves
        .iter()
        .filter_map(|m| m.promotion)
        .map(|k| {
            pos.variant()
                .piece_def(k)
                .letter
                .to_ascii_lowercase()
                .to_string()
        })
        .collect();
    out.dedup();
    out
}

fn promotion_rule(pos: &Position) -> String {
    format!(" ({})", pos.variant().def().pawns.rule)
}

/// Writes `m` (legal in `pos`) in coordinate notation.
pub fn write_coord(pos: &Position, m: &Move) -> String {
    let mut out = String::with_capacity(5);
    push_coord(&mut out, pos, m);
    out
}

/// Whether castling `m` is written as the king taking its partner: where
/// the variant writes it so, and with castling toward either rook where
/// the king's own squares would read as a plain king move (or as none,
/// the king staying where it is; R-960-1).
fn king_takes_partner(pos: &Position, m: &Move) -> bool {
    let Some(free) = &pos.variant().def().free_castling else {
        return false;
    };
    free.king_takes_partner
        || m.from == m.to
        || pos
            .legal_moves_filtered(Some(pos.variant().king_kind()), Some(m.to))
            .iter()
            .any(|o| o.from == m.from && o.to == m.to && !o.is_castle())
}

/// Whether `m` gates as a coordinate move from `from` with the letter
/// `letter` after it says: no letter, no gate; a letter, that kind on
/// `from` (the king's square, for castling).
fn gates_as_written(
    variant: &crate::rules::Variant,
    m: &Move,
    letter: Option<char>,
    from: Square,
) -> bool {
    match (m.gate, letter) {
        (None, None) => true,
        (Some(g), Some(l)) => {
            g.square == from && variant.kind_by_letter(l.to_ascii_uppercase()) == Some(g.kind)
        }
        _ => false,
    }
}

/// Appends `m` (legal in `pos`) in coordinate notation to `out`, for
/// writers of many moves.
pub fn push_coord(out: &mut String, pos: &Position, m: &Move) {
    if m.is_null() {
        // R-0-6, as UCI writes a null move.
        out.push_str("0000");
        return;
    }
    if let Some(kind) = m.dropped() {
        push_drop(out, pos, kind, m.to);
        return;
    }
    let letter = |k: PieceKind| pos.variant().piece_def(k).letter.to_ascii_lowercase();
    // Castling that gates on its partner's square is written from the
    // partner to the king (`h1e1e`, R-SE-1).
    if let (MoveKind::Castle(_), Some(g)) = (m.kind, m.gate)
        && g.square != m.from
    {
        push_square(out, g.square);
        push_square(out, m.from);
        out.push(letter(g.kind));
        return;
    }
    push_square(out, m.from);
    match m.kind {
        MoveKind::Castle(i) if king_takes_partner(pos, m) => {
            push_square(out, pos.variant().castling(i as usize).partner_from)
        }
        _ => push_square(out, m.to),
    }
    if let Some(k) = m.promotion.or(m.gate.map(|g| g.kind)) {
        out.push(letter(k));
    }
    push_waiting_suffixes(out, pos, m);
}

/// The legal drop of `pos` that a drop written with `letter` (`None`: a
/// pawn, `@e4`) onto `to` names, or why there is none (docs/notation.md
/// §13): the same in coordinates and SAN.
pub fn resolve_drop(pos: &Position, letter: Option<char>, to: Square) -> Result<Move, String> {
    let variant = pos.variant();
    if variant.def().hand.is_none() {
        return Err(format!(
            "`{}@{to}` is a drop from the hand, and {} has no pieces in hand; a game without a Variant tag is read as orthodox chess: name the variant of such games (on the command line `--variant NAME`)",
            letter.unwrap_or('P'),
            variant.def().display_name
        ));
    }
    let kind = match letter {
        None => variant.pawn_kind(),
        Some(l) => variant
            .kind_by_letter(l)
            .ok_or_else(|| format!("`{l}` is not a piece of {}", variant.def().display_name))?,
    };
    if !variant.size().contains(to) {
        return Err(format!("{to} is off the board"));
    }
    pos.legal_moves()
        .into_iter()
        .find(|m| m.dropped() == Some(kind) && m.to == to)
        .ok_or_else(|| pos.explain_drop(kind, to))
}

/// Appends a drop of `kind` onto `to`: its letter, `@`, the square
/// (`N@f3`; pawns too, `P@e4`).
pub fn push_drop(out: &mut String, pos: &Position, kind: PieceKind, to: Square) {
    out.push(pos.variant().piece_def(kind).letter);
    out.push('@');
    push_square(out, to);
}

/// Appends the `&square=X` suffixes of `m` (production `waiting-suffix`):
/// the same in coordinate notation and SAN.
pub fn push_waiting_suffixes(out: &mut String, pos: &Position, m: &Move) {
    // Each read apart: gathered into an array first, the two were
    // written a byte at a time and read back whole, which waited on the
    // writes (a failed store forwarding), for every move written.
    let mut push = |w: WaitingPromotion| {
        out.push('&');
        push_square(out, w.square);
        out.push('=');
        out.push(pos.variant().piece_def(w.kind).letter);
    };
    if let Some(w) = m.waiting_promotion {
        push(w);
    }
    if let Some(w) = m.instant_promotion {
        push(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn syntax_of_coordinate_moves() {
        let m = parse_coord("j7j8c").unwrap();
        assert_eq!(
            (m.from.to_string(), m.to.to_string(), m.promotion),
            ("j7".into(), "j8".into(), Some('c'))
        );
        let m = parse_coord("g1f3&e8=Q").unwrap();
        assert_eq!(m.waiting, vec![(Square::new(4, 7), 'Q')]);
        // Upper-case promotion letters, as some files write them (docs/notation.md §11).
        assert_eq!(parse_coord("d7d8R").unwrap().promotion, Some('r'));
        for bad in ["e2", "e2e", "e2e4Q1", "e2-e4", "e2e4&e8", "e2e4&e8=", ""] {
            assert!(parse_coord(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn resolving_explains_illegal_moves() {
        let pos = Position::start(Variant::chess());
        let e = resolve_coord(&pos, "e2e5").unwrap_err();
        assert_eq!(e.to_string(), "the Pawn on e2 cannot reach e5 (R-0-4)");
        let e = resolve_coord(&pos, "e7e5").unwrap_err();
        assert!(e.to_string().contains("is not White's"), "{e}");
        let e = resolve_coord(&pos, "e3e4").unwrap_err();
        assert_eq!(e.to_string(), "there is no piece on e3");
    }
}
