//! Movement atoms: how a piece type moves, as data.
//!
//! Every non-pawn piece of every variant is a union of leaps and rides:
//! a knight leaps (1,2); a rook rides (1,0) without limit; the Counsellor
//! Chess Elephant, which cannot jump (R-CO-1), rides diagonally at most two
//! squares; the Chaturanga Elephant leaps (2,2) over whatever stands between
//! (R-CH-2). Pawns are described by [`crate::rules::variant::PawnRules`].

/// One way of moving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    /// Jumps to `(file, rank)` offsets, whatever stands between.
    Leap(Vec<(i8, i8)>),
    /// Slides step by step along each direction through empty squares,
    /// at most `max` steps (`None`: to the edge). A rider limited to two
    /// steps is the lame (non-jumping) two-square leaper.
    Ride {
        /// Unit steps.
        directions: Vec<(i8, i8)>,
        /// Longest slide, if limited.
        max: Option<u8>,
    },
}

/// The moves of a piece type: a union of atoms.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Movement(pub Vec<Atom>);

/// The eight sign variants of `(a, b)` and `(b, a)`, without repeats.
pub fn symmetric(a: i8, b: i8) -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

/// The orthogonal unit steps.
pub fn orthogonal() -> Vec<(i8, i8)> {
    symmetric(1, 0)
}

/// The diagonal unit steps.
pub fn diagonal() -> Vec<(i8, i8)> {
    symmetric(1, 1)
}

impl Movement {
    /// No moves at all (used for pawns, which move by their own rules).
    pub fn none() -> Movement {
        Movement(Vec::new())
    }
    /// One square in any direction (king, Counsellor, Fool).
    pub fn king() -> Movement {
        Movement(vec![Atom::Leap([orthogonal(), diagonal()].concat())])
    }
    /// The knight's (1,2) leap.
    pub fn knight() -> Movement {
        Movement(vec![Atom::Leap(symmetric(1, 2))])
    }
    /// One square diagonally (Firzan, Chaturanga Councelor).
    pub fn ferz() -> Movement {
        Movement(vec![Atom::Leap(diagonal())])
    }
    /// Exactly two squares diagonally, jumping (Chaturanga Elephant, R-CH-2).
    pub fn alfil() -> Movement {
        Movement(vec![Atom::Leap(symmetric(2, 2))])
    }
    /// Orthogonal rider.
    pub fn rook() -> Movement {
        Movement(vec![Atom::Ride {
            directions: orthogonal(),
            max: None,
        }])
    }
    /// Diagonal rider.
    pub fn bishop() -> Movement {
        Movement(vec![Atom::Ride {
            directions: diagonal(),
            max: None,
        }])
    }
    /// Diagonal rider limited to `n` steps; with `n = 2`, the Elephant of
    /// R-CO-1 that cannot jump.
    pub fn limited_bishop(n: u8) -> Movement {
        Movement(vec![Atom::Ride {
            directions: diagonal(),
            max: Some(n),
        }])
    }
    /// The union of two movements (a compound piece).
    pub fn and(mut self, other: Movement) -> Movement {
        self.0.extend(other.0);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_offsets_have_no_repeats() {
        assert_eq!(symmetric(1, 2).len(), 8);
        assert_eq!(symmetric(1, 1).len(), 4);
        assert_eq!(symmetric(2, 0).len(), 4);
    }

    #[test]
    fn queen_is_rook_and_bishop() {
        let q = Movement::rook().and(Movement::bishop());
        assert_eq!(q.0.len(), 2);
    }
}
