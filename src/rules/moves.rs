//! Moves: what a ply does, independent of how it is written.

use super::geometry::Square;
use super::piece::PieceKind;

/// What kind of ply a [`Move`] is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// An ordinary move or capture (also a castling's first stage, R-CO-4).
    Normal,
    /// A pawn's two-square advance.
    DoubleStep,
    /// En passant capture.
    EnPassant,
    /// Castling: the king goes `from` -> `to`; the index names the
    /// castling in the variant definition, which gives the partner's squares.
    Castle(u8),
    /// The king's once-per-game move (R-KL-1 leap, R-CH-5 knight move).
    SpecialKing,
    /// A null move (R-0-6): the turn passes and nothing moves; `from` and
    /// `to` are the mover's king square. Never generated: only
    /// [`Move::null`] makes one, for annotators' threat lines.
    Null,
}

/// A promotion that happens to a pawn waiting elsewhere on the board, as
/// part of this ply (docs/notation.md §7 `&e8=Q`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct WaitingPromotion {
    /// The waiting pawn's square.
    pub square: Square,
    /// What it becomes.
    pub kind: PieceKind,
}

/// A legal move in some position.
///
/// ```
/// use xpgn::rules::{Position, Variant};
/// let pos = Position::start(Variant::chess());
/// assert_eq!(pos.legal_moves().len(), 20);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Square the moving piece leaves (the king's, for castling).
    pub from: Square,
    /// Square it lands on (the king's, for castling).
    pub to: Square,
    /// Kind of ply.
    pub kind: MoveKind,
    /// Immediate promotion of the moving pawn.
    pub promotion: Option<PieceKind>,
    /// The mover's own waiting pawn whose wait ends with this ply (R-CS-4).
    pub waiting_promotion: Option<WaitingPromotion>,
    /// The opponent's blocked pawn that promotes at once because this ply
    /// captures a piece of that type (R-CS-6).
    pub instant_promotion: Option<WaitingPromotion>,
}

impl Move {
    /// A plain move from `from` to `to`.
    pub fn normal(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            kind: MoveKind::Normal,
            promotion: None,
            waiting_promotion: None,
            instant_promotion: None,
        }
    }

    /// The null move of the side whose king stands on `king` (R-0-6).
    pub fn null(king: Square) -> Move {
        Move {
            kind: MoveKind::Null,
            ..Move::normal(king, king)
        }
    }

    /// Whether this is a null move (R-0-6).
    pub fn is_null(&self) -> bool {
        self.kind == MoveKind::Null
    }

    /// Whether this is a castling.
    pub fn is_castle(&self) -> bool {
        matches!(self.kind, MoveKind::Castle(_))
    }
}
