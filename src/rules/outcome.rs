//! How a game ends by the position alone: mate and stalemate (R-0-2,
//! R-RO-4, R-CH-7).

use super::piece::Color;

/// Why a position ends the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A side is left with its king alone (a variant's bare-king rule).
    BareKing,
}

/// The result a final position implies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// One side wins.
    Win {
        /// Winner.
        winner: Color,
        /// How.
        by: Ending,
    },
    /// A draw.
    Draw {
        /// How.
        by: Ending,
    },
}

impl Outcome {
    /// The PGN result string's meaning: White's score as `1-0`, `0-1`, `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }
}
