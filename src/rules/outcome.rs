//! How a game ends by the position alone: mate and stalemate (R-0-2,
//! R-RO-4, R-CH-7).

use super::piece::Color;

/// Why a position ends the game. New rules bring new endings, so a match
/// outside this crate needs a wildcard arm.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Ending {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A side is left with its king alone (a variant's bare-king rule).
    BareKing,
    /// A king exploded (a variant's explosions).
    KingExploded,
    /// A side gave the variant's number of checks.
    CheckLimit,
    /// A piece reached the variant's flag region.
    Flag,
    /// A side has no pieces left of the kinds that count (extinction).
    Extinction,
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

impl Ending {
    /// A short name in words, as JSON output writes it (`checkmate`,
    /// `king exploded`).
    pub fn name(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::BareKing => "bare king",
            Ending::KingExploded => "king exploded",
            Ending::CheckLimit => "check limit",
            Ending::Flag => "goal reached",
            Ending::Extinction => "no pieces left",
        }
    }
}

impl Outcome {
    /// How the game ended.
    pub fn ending(&self) -> Ending {
        match *self {
            Outcome::Win { by, .. } | Outcome::Draw { by } => by,
        }
    }

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
