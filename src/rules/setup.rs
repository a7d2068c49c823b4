//! [`Setup`]: a position as written down, not yet checked.
//!
//! Position strings parse into a `Setup`; only
//! [`Position::from_setup`](super::Position::from_setup) decides whether
//! it is a legal position of its variant.

use super::geometry::Square;
use super::piece::{Color, Piece};
use super::variant::CastlingSide;

/// A waiting pawn as written down: its square and its owner's moves still
/// to make up to and including the promoting one (2 on arrival, 1 when the
/// next move promotes, 0 when blocked for lack of a lost type, R-CS-6).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct WaitingPawn {
    /// Where it stands (its owner's last rank).
    pub square: Square,
    /// Its owner.
    pub color: Color,
    /// Owner moves left: 2, 1, or 0 for blocked.
    pub turns: u8,
}

/// The raw fields of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Every piece on the board.
    pub board: Vec<(Square, Piece)>,
    /// Side to move.
    pub turn: Color,
    /// Castlings each side may still make (`KQkq`).
    pub castling: Vec<(Color, CastlingSide)>,
    /// Castling toward either rook (R-960-2): the files of castling rooks
    /// the castling field names by letter (X-FEN: a rook that is not the
    /// outermost on its side of the king; Shredder-FEN: any). Empty in
    /// variants with fixed castlings.
    pub castling_rooks: Vec<(Color, u8)>,
    /// Squares of castling pieces whose first stage is done (R-CO-4, R-RO-3).
    pub castling_stages: Vec<(Color, Square)>,
    /// En passant target square.
    pub ep_square: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// Move number, from 1.
    pub fullmove_number: u32,
    /// Whether each side's once-per-game king move is unused (R-KL-1,
    /// R-CH-5); `None`: unused where the king stands on its setup square.
    pub king_rights: Option<[bool; 2]>,
    /// Waiting pawns, White's first, each side's in order of arrival
    /// (R-CS-6 needs only the order within a side).
    pub waiting: Vec<WaitingPawn>,
    /// Pieces in hand (docs/notation.md position strings `[Qn]`), in any
    /// order; `None` where the string gives no hand (an empty hand in a
    /// variant with hands).
    pub hand: Option<Vec<Piece>>,
    /// Squares of pieces that came from a promotion (`Q~`).
    pub promoted: Vec<Square>,
    /// Checks each side has given (White's first), where the string
    /// counts them (`3+3` or `+1+2`).
    pub checks_given: Option<[u8; 2]>,
    /// Gates (docs/variants.md "Gating"): the files of squares on each
    /// side's first rank whose piece may still gate. A castling right makes
    /// its king's and partner's squares gates too, written or not.
    pub gates: Vec<(Color, u8)>,
}
