//! Moves: what a ply does, independent of how it is written.

use super::geometry::Square;
use super::piece::PieceKind;

/// What kind of ply a [`Move`] is. New rules bring new kinds, so a match
/// outside this crate needs a wildcard arm.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
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
    /// A piece of this kind put from the mover's hand on the empty square
    /// `to` (`from` is `to` too).
    Drop(PieceKind),
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

/// A piece put from the mover's hand on a gate as part of a piece move
/// (docs/variants.md "Gating"): the square its first-moving piece left.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Gate {
    /// The gate: the square the moving piece (for castling, the king or
    /// its partner) left.
    pub square: Square,
    /// The kind that enters it from the hand.
    pub kind: PieceKind,
}

/// A legal move in some position.
///
/// Moves come from the rules ([`Position::legal_moves`], the notation
/// readers), never from their parts: the kind, the squares and the
/// promotions they carry are read with the accessors, so a move that no
/// rule makes (an en passant capture that promotes, a castling with a
/// waiting promotion of the wrong side) cannot be built outside the rules.
///
/// ```
/// use xpgn::rules::{MoveKind, Position, Variant};
/// let pos = Position::start(Variant::chess());
/// let moves = pos.legal_moves();
/// assert_eq!(moves.len(), 20);
/// assert!(moves.iter().any(|m| m.kind() == MoveKind::DoubleStep));
/// ```
///
/// [`Position::legal_moves`]: super::Position::legal_moves
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Square the moving piece leaves (the king's, for castling).
    pub(crate) from: Square,
    /// Square it lands on (the king's, for castling).
    pub(crate) to: Square,
    /// Kind of ply.
    pub(crate) kind: MoveKind,
    /// Immediate promotion of the moving pawn.
    pub(crate) promotion: Option<PieceKind>,
    /// The mover's own waiting pawn whose wait ends with this ply (R-CS-4).
    pub(crate) waiting_promotion: Option<WaitingPromotion>,
    /// The opponent's blocked pawn that promotes at once because this ply
    /// captures a piece of that type (R-CS-6).
    pub(crate) instant_promotion: Option<WaitingPromotion>,
    /// A hand piece entering the square the mover left (gating).
    pub(crate) gate: Option<Gate>,
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
            gate: None,
        }
    }

    /// A drop of `kind` from the mover's hand onto `to`.
    pub(crate) fn drop(kind: PieceKind, to: Square) -> Move {
        Move {
            kind: MoveKind::Drop(kind),
            ..Move::normal(to, to)
        }
    }

    /// The kind a drop puts on the board, if this is a drop.
    pub fn dropped(&self) -> Option<PieceKind> {
        match self.kind {
            MoveKind::Drop(kind) => Some(kind),
            _ => None,
        }
    }

    /// The null move of the side whose king stands on `king` (R-0-6).
    pub fn null(king: Square) -> Move {
        Move {
            kind: MoveKind::Null,
            ..Move::normal(king, king)
        }
    }

    /// Square the moving piece leaves (the king's, for castling).
    pub fn from(&self) -> Square {
        self.from
    }

    /// Square it lands on (the king's, for castling).
    pub fn to(&self) -> Square {
        self.to
    }

    /// Kind of ply.
    pub fn kind(&self) -> MoveKind {
        self.kind
    }

    /// What the moving pawn becomes at once, if it promotes.
    pub fn promotion(&self) -> Option<PieceKind> {
        self.promotion
    }

    /// The mover's own waiting pawn whose wait ends with this ply (R-CS-4).
    pub fn waiting_promotion(&self) -> Option<WaitingPromotion> {
        self.waiting_promotion
    }

    /// The opponent's blocked pawn that promotes at once because this ply
    /// captures a piece of that type (R-CS-6).
    pub fn instant_promotion(&self) -> Option<WaitingPromotion> {
        self.instant_promotion
    }

    /// The hand piece this move puts on a gate, if it gates.
    pub fn gate(&self) -> Option<Gate> {
        self.gate
    }

    /// This move with `gate` added (the rules decide whether it is legal).
    pub(crate) fn with_gate(self, gate: Gate) -> Move {
        Move {
            gate: Some(gate),
            ..self
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
