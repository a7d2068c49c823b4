//! Gating (docs/variants.md "Gating", R-SE-1): a piece that makes its
//! first move from its side's first rank may leave a piece from the hand
//! on the square it left, in the same move. Castling may gate on the
//! king's square or on its partner's.
//!
//! The squares that may still gate are kept per side as a mask of files
//! of its first rank. A gate is lost when its piece leaves or is taken,
//! and every gate is moot once its side has nothing left to gate and gets
//! nothing more (no captures to hand): the gates are then cleared, so that
//! equal futures give equal positions and keys.

use super::geometry::Square;
use super::moves::{Gate, Move, MoveKind};
use super::piece::{Color, Piece};
use super::position::{Position, PositionError};
use super::setup::Setup;
use super::variant::Tables;

impl Position {
    /// The squares from which `color` may still gate, in file order.
    pub fn gates(&self, color: Color) -> Vec<Square> {
        let t = self.tables();
        let rank = first_rank(t, color);
        (0..t.size.files)
            .filter(|&f| self.state.gates[color.index()] & (1 << f) != 0)
            .map(|f| Square::new(f, rank))
            .collect()
    }

    /// The gates a castling right does not already imply: what a position
    /// string writes as file letters.
    pub(crate) fn written_gates(&self) -> Vec<(Color, u8)> {
        let t = self.tables();
        let mut out = Vec::new();
        for color in Color::BOTH {
            let implied = self.castling_gate_files(color, true);
            for f in 0..t.size.files {
                let bit = 1u16 << f;
                if self.state.gates[color.index()] & bit != 0 && implied & bit == 0 {
                    out.push((color, f));
                }
            }
        }
        out
    }

    /// The files of the king and partners of `color`'s castlings still
    /// possible: their pieces have not moved, so they are gates. As a
    /// written castling field implies them (`written`), the king's file
    /// counts only where a castling is written `K`/`Q`: a castling written
    /// by its rook's file alone (Chess960) leaves the king's gate to be
    /// written, so that a reader knows the letters are castlings
    /// (docs/notation.md §13).
    fn castling_gate_files(&self, color: Color, written: bool) -> u16 {
        let t = self.tables();
        let ci = color.index();
        let king = self.state.kings[ci];
        let mut files = 0u16;
        for (i, c) in t.castlings[ci].iter().enumerate() {
            if c.king_stage.is_none()
                && c.partner_stage.is_none()
                && self.state.castling.achievable(t, color, i, king)
                && self.state.castling.ready_for(t, color, i)
            {
                files |= 1 << c.partner_from.file();
                let side = t.def.castling[c.index as usize].side;
                if !written
                    || t.def.free_castling.is_none()
                    || self.outermost_partner(color, side) == Some(c.partner_from)
                {
                    files |= 1 << c.king_from.file();
                }
            }
        }
        files
    }

    /// The gates at the start: every square of a side's first rank that
    /// holds one of its pieces.
    pub(crate) fn set_start_gates(&mut self) {
        if self.tables().def.hand.as_ref().is_some_and(|h| h.gating) {
            for color in Color::BOTH {
                self.state.gates[color.index()] = self.occupied_first_rank(color);
            }
            self.drop_moot_gates();
        }
    }

    /// Sets the gates of `setup` (after its castling rights, which imply
    /// gates of their own), checking that each holds a piece of its side.
    pub(crate) fn set_setup_gates(&mut self, setup: &Setup) -> Result<(), PositionError> {
        let t = self.tables();
        let gating = t.def.hand.as_ref().is_some_and(|h| h.gating);
        if !gating {
            if setup.gates.is_empty() {
                return Ok(());
            }
            return Err(PositionError::Castling(format!(
                "{} has no gates: the castling field names only castlings",
                t.def.display_name
            )));
        }
        let mut gates = [0u16; 2];
        for &(color, file) in &setup.gates {
            let sq = Square::new(file, first_rank(t, color));
            if !t.size.contains(sq) || self.piece_at(sq).is_none_or(|p| p.color != color) {
                return Err(PositionError::Castling(format!(
                    "a gate on {sq} needs a {color:?} piece there (R-SE-1)"
                )));
            }
            gates[color.index()] |= 1 << file;
        }
        for color in Color::BOTH {
            gates[color.index()] |= self.castling_gate_files(color, false);
            self.state.gates[color.index()] = gates[color.index()];
        }
        self.drop_moot_gates();
        Ok(())
    }

    /// The files of `color`'s first rank holding one of its pieces.
    fn occupied_first_rank(&self, color: Color) -> u16 {
        let t = self.tables();
        let rank = first_rank(t, color);
        (0..t.size.files)
            .filter(|&f| {
                self.piece_at(Square::new(f, rank))
                    .is_some_and(|p| p.color == color)
            })
            .fold(0, |mask, f| mask | 1 << f)
    }

    /// Clears the gates of a side that can never gate again: an empty hand
    /// that no capture refills.
    fn drop_moot_gates(&mut self) {
        let refills = match &self.tables().def.hand {
            Some(hand) => hand.captures_to_hand,
            None => return,
        };
        for color in Color::BOTH {
            let empty = self.state.hands[color.index()].iter().all(|&n| n == 0);
            if empty && !refills {
                self.state.gates[color.index()] = 0;
            }
        }
    }

    /// Adds to `moves` the gating forms of the piece moves in it: for each
    /// move from a gate, one per kind in hand that may enter that square.
    pub(crate) fn add_gatings(&self, moves: &mut Vec<Move>) {
        let t = self.tables();
        let us = self.state.turn;
        let gates = self.state.gates[us.index()];
        if gates == 0 {
            return;
        }
        let rank = first_rank(t, us);
        let is_gate = |sq: Square| sq.rank() == rank && gates & (1 << sq.file()) != 0;
        for i in 0..moves.len() {
            let m = moves[i];
            let squares: [Option<Square>; 2] = match m.kind {
                MoveKind::Drop(_) | MoveKind::Null => continue,
                MoveKind::Castle(c) => {
                    // The gate may not be where the king or partner lands.
                    let c = &t.def.castling[c as usize];
                    let free = |sq: Square| sq != c.king_to && sq != c.partner_to;
                    [
                        Some(c.king_from).filter(|&s| free(s)),
                        Some(c.partner_from).filter(|&s| free(s)),
                    ]
                }
                _ => [Some(m.from), None],
            };
            for square in squares.into_iter().flatten().filter(|&s| is_gate(s)) {
                for kind in self.variant.kinds() {
                    if self.in_hand(us, kind) > 0 && self.may_enter(kind, square) {
                        moves.push(m.with_gate(Gate { square, kind }));
                    }
                }
            }
        }
    }

    /// Puts the gated piece of `m` on its gate (after the piece move).
    pub(crate) fn play_gate(&mut self, gate: Gate, us: Color) {
        let t = &*self.variant.0;
        self.state.hands[us.index()][gate.kind.index()] -= 1;
        self.state.put(
            t,
            gate.square,
            Piece {
                color: us,
                kind: gate.kind,
            },
        );
    }

    /// The gates after a piece move of `us`: the squares left lose theirs,
    /// as do squares no longer holding their side's piece.
    pub(crate) fn update_gates(&mut self, m: &Move, us: Color) {
        let t = self.tables();
        let rank = first_rank(t, us);
        let mut left = 0u16;
        if m.from.rank() == rank {
            left |= 1 << m.from.file();
        }
        if let MoveKind::Castle(c) = m.kind {
            left |= 1 << t.def.castling[c as usize].partner_from.file();
        }
        self.state.gates[us.index()] &= !left;
        for color in Color::BOTH {
            self.state.gates[color.index()] &= self.occupied_first_rank(color);
        }
        self.drop_moot_gates();
    }
}

/// The rank gates stand on for `color`: its first, the other side's last.
fn first_rank(t: &Tables, color: Color) -> u8 {
    t.last_rank[color.other().index()]
}
