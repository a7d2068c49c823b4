//! Castling progress: where each castling piece stands in its life cycle.
//!
//! A castling (R-0-5) needs king and partner unmoved; a two-stage castling
//! (R-CO-4, R-RO-3) needs one of them to have made exactly one given move.
//! So each piece is [`Stage::Unmoved`], [`Stage::Staged`] (its only move so
//! far went to that square) or [`Stage::Moved`].

use super::geometry::Square;
use super::piece::Color;
use super::variant::Tables;

/// The castling history of one piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Stage {
    /// Never moved.
    Unmoved,
    /// Its only move so far went to this square.
    Staged(Square),
    /// Moved otherwise, or captured: no castling needs it any more.
    Moved,
}

/// Most castling partners a side may have.
pub const MAX_PARTNERS: usize = 12;

/// Castling progress of both sides.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CastlingState {
    /// Per colour: the king's stage.
    pub king: [Stage; 2],
    /// Per colour and partner (in the variant's partner order).
    pub partners: [[Stage; MAX_PARTNERS]; 2],
}

impl CastlingState {
    /// Nothing can castle.
    pub const NONE: CastlingState = CastlingState {
        king: [Stage::Moved; 2],
        partners: [[Stage::Moved; MAX_PARTNERS]; 2],
    };

    /// Everything unmoved, as in the setup.
    pub(crate) fn start(t: &Tables) -> CastlingState {
        let mut s = CastlingState::NONE;
        for c in Color::BOTH {
            let ci = c.index();
            // A king that starts in hand castles only once dropped there.
            let king_set_up = t
                .def
                .setup
                .iter()
                .any(|&(sq, p)| sq == t.king_origin[ci] && p.color == c && p.kind == t.king);
            if !t.castlings[ci].is_empty() && king_set_up {
                s.king[ci] = Stage::Unmoved;
                for i in 0..t.partners[ci].len() {
                    s.partners[ci][i] = Stage::Unmoved;
                }
            }
            if t.def.free_castling.is_some() {
                // Free castling (R-960-1): with the outermost partner on
                // each side of the king.
                let king = t.king_origin[ci];
                let holds = |sq: Square| {
                    t.def.setup.iter().any(|&(s, p)| {
                        s == sq
                            && p.color == c
                            && Some(p.kind) == t.partner_kinds[ci].first().copied()
                    })
                };
                let files = 0..t.size.files;
                let left = files
                    .clone()
                    .find(|&f| f < king.file() && holds(Square::new(f, king.rank())));
                let right = files
                    .rev()
                    .find(|&f| f > king.file() && holds(Square::new(f, king.rank())));
                for (i, &sq) in t.partners[ci].iter().enumerate() {
                    if Some(sq.file()) != left && Some(sq.file()) != right {
                        s.partners[ci][i] = Stage::Moved;
                    }
                }
            }
        }
        s.canonical(t, t.king_origin)
    }

    /// Whether no castling remains for either side.
    #[inline]
    pub fn is_none(&self) -> bool {
        // The kings first: while castling remains, one of them nearly
        // always has it.
        self.king == [Stage::Moved; 2] && self.partners.iter().flatten().all(|&s| s == Stage::Moved)
    }

    /// Where the piece with stage `stage` and origin `origin` stands, if it is
    /// still a castling piece.
    pub fn square_of(stage: Stage, origin: Square) -> Option<Square> {
        match stage {
            Stage::Unmoved => Some(origin),
            Stage::Staged(s) => Some(s),
            Stage::Moved => None,
        }
    }

    fn fits(have: Stage, need: Option<Square>) -> bool {
        match (have, need) {
            (Stage::Unmoved, _) => true,
            (Stage::Staged(s), Some(n)) => s == n,
            _ => false,
        }
    }

    fn ready(have: Stage, need: Option<Square>) -> bool {
        match (have, need) {
            (Stage::Unmoved, None) => true,
            (Stage::Staged(s), Some(n)) => s == n,
            _ => false,
        }
    }

    /// Whether castling `c` of `color` can still happen some day, its king
    /// standing on `king`.
    pub(crate) fn achievable(&self, t: &Tables, color: Color, i: usize, king: Square) -> bool {
        let c = &t.castlings[color.index()][i];
        (c.king_stage.is_some() || c.king_from == king)
            && Self::fits(self.king[color.index()], c.king_stage)
            && Self::fits(
                self.partners[color.index()][c.partner as usize],
                c.partner_stage,
            )
    }

    /// Whether the stage requirements of castling `i` are met now.
    pub(crate) fn ready_for(&self, t: &Tables, color: Color, i: usize) -> bool {
        let c = &t.castlings[color.index()][i];
        Self::ready(self.king[color.index()], c.king_stage)
            && Self::ready(
                self.partners[color.index()][c.partner as usize],
                c.partner_stage,
            )
    }

    /// Marks as `Moved` every piece no achievable castling needs, so equal
    /// futures give equal states (and equal position keys).
    pub(crate) fn canonical(mut self, t: &Tables, kings: [Square; 2]) -> CastlingState {
        for color in Color::BOTH {
            let ci = color.index();
            let mut king_needed = false;
            let mut partner_needed = [false; MAX_PARTNERS];
            for i in 0..t.castlings[ci].len() {
                if self.achievable(t, color, i, kings[ci]) {
                    king_needed = true;
                    partner_needed[t.castlings[ci][i].partner as usize] = true;
                }
            }
            if !king_needed {
                self.king[ci] = Stage::Moved;
            }
            for (p, needed) in partner_needed.iter().enumerate() {
                if !needed {
                    self.partners[ci][p] = Stage::Moved;
                }
            }
        }
        self
    }

    /// Updates after `color` moved a piece `from` -> `to` (not castling),
    /// and after a capture on `to`.
    pub(crate) fn after_move(
        self,
        t: &Tables,
        color: Color,
        from: Square,
        to: Square,
        is_king: bool,
        kings: [Square; 2],
    ) -> CastlingState {
        self.advance(t, color, from, to, is_king)
            .canonical(t, kings)
    }

    /// [`CastlingState::after_move`] without forgetting what no castling
    /// needs any more: the history that explains why a castling is gone.
    pub(crate) fn advance(
        mut self,
        t: &Tables,
        color: Color,
        from: Square,
        to: Square,
        is_king: bool,
    ) -> CastlingState {
        let ci = color.index();
        if is_king {
            self.king[ci] = match self.king[ci] {
                Stage::Unmoved if t.castlings[ci].iter().any(|c| c.king_stage == Some(to)) => {
                    Stage::Staged(to)
                }
                _ => Stage::Moved,
            };
        }
        for (p, &origin) in t.partners[ci].iter().enumerate() {
            let stage = self.partners[ci][p];
            if Self::square_of(stage, origin) == Some(from) {
                self.partners[ci][p] = match stage {
                    Stage::Unmoved
                        if t.castlings[ci]
                            .iter()
                            .any(|c| c.partner as usize == p && c.partner_stage == Some(to)) =>
                    {
                        Stage::Staged(to)
                    }
                    _ => Stage::Moved,
                };
            }
        }
        let oi = color.other().index();
        for (p, &origin) in t.partners[oi].iter().enumerate() {
            if Self::square_of(self.partners[oi][p], origin) == Some(to) {
                self.partners[oi][p] = Stage::Moved;
            }
        }
        self
    }

    /// Updates after the piece on `sq` left the board otherwise than by a
    /// capture on it (an explosion around a capture).
    pub(crate) fn after_removal(
        mut self,
        t: &Tables,
        sq: Square,
        kings: [Square; 2],
    ) -> CastlingState {
        for color in Color::BOTH {
            let ci = color.index();
            for (p, &origin) in t.partners[ci].iter().enumerate() {
                if Self::square_of(self.partners[ci][p], origin) == Some(sq) {
                    self.partners[ci][p] = Stage::Moved;
                }
            }
        }
        self.canonical(t, kings)
    }

    /// Updates after `color` castled: nothing of that side can castle again.
    pub(crate) fn after_castling(mut self, color: Color) -> CastlingState {
        self.king[color.index()] = Stage::Moved;
        self.partners[color.index()] = [Stage::Moved; MAX_PARTNERS];
        self
    }
}
