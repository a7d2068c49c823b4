//! Colours, piece kinds and pieces.

/// A side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Color {
    /// Moves first; starts on the low ranks.
    White = 0,
    /// Starts on the high ranks.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];
}

/// A piece type of a variant: an index into the variant's piece table.
///
/// Kinds carry no letter: the letter belongs to the variant definition
/// (`Variant::piece_def`), so `rules` stays free of notation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct PieceKind(pub u8);

impl PieceKind {
    /// The index into the variant's piece table.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece: a colour and a kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Type, per the variant's piece table.
    pub kind: PieceKind,
}

impl Piece {
    /// The one-byte board cell code: 0 is empty, else `1 + kind + 16 * colour`.
    #[inline]
    pub(crate) fn code(self) -> u8 {
        1 + self.kind.0 + 16 * self.color as u8
    }

    /// Decodes a non-empty board cell.
    #[inline]
    pub(crate) fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            return None;
        }
        let v = code - 1;
        Some(Piece {
            color: if v >= 16 { Color::Black } else { Color::White },
            kind: PieceKind(v & 15),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_codes_round_trip() {
        for color in Color::BOTH {
            for k in 0..16 {
                let p = Piece {
                    color,
                    kind: PieceKind(k),
                };
                assert_ne!(p.code(), 0);
                assert_eq!(Piece::from_code(p.code()), Some(p));
            }
        }
        assert_eq!(Piece::from_code(0), None);
    }
}
