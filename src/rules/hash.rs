//! The 64-bit position key (Zobrist): equal for positions with equal
//! futures, whatever the move order; the clocks do not count.
//!
//! Keys are stored in users' databases and datasets, so their values are
//! fixed: each feature's part is splitmix64 of a feature number
//! ([`piece_key_formula`] and the constants below). The parts a move
//! toggles (a piece on a square) are precomputed per variant into a table
//! (`Tables::piece_key`) holding exactly those values; the rest are
//! computed when a key is asked for.

use super::castling::Stage;
use super::geometry::Square;
use super::piece::{Color, Piece};
use super::position::Position;

/// A well-mixed 64-bit value for feature `n` (splitmix64 finaliser), so no
/// table has to be stored for 16x16 boards and 15 piece kinds.
#[inline]
fn mix(n: u64) -> u64 {
    let mut z = n.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const PIECE: u64 = 1 << 32;
const TURN: u64 = 2 << 32;
const CASTLE_KING: u64 = 3 << 32;
const CASTLE_PARTNER: u64 = 4 << 32;
const EP: u64 = 5 << 32;
const KING_RIGHT: u64 = 6 << 32;
const WAITING: u64 = 7 << 32;
const BLOCKED_ORDER: u64 = 8 << 32;
const VARIANT: u64 = 9 << 32;
const HAND: u64 = 10 << 32;
const PROMOTED: u64 = 11 << 32;
const CHECKS: u64 = 12 << 32;
const GATES: u64 = 13 << 32;

/// The part of the key one piece on one square gives: the definition the
/// per-variant table is filled from.
pub(crate) fn piece_key_formula(sq: Square, p: Piece) -> u64 {
    mix(PIECE | (p.color.index() as u64) << 16 | (p.kind.index() as u64) << 8 | sq.index() as u64)
}

/// The part of the key the variant with this short name gives.
pub(crate) fn variant_key(name: &str) -> u64 {
    let mut h = 0u64;
    for b in name.bytes() {
        h = mix(h ^ VARIANT ^ b as u64);
    }
    h
}

fn stage_code(stage: Stage) -> Option<u64> {
    match stage {
        Stage::Unmoved => Some(0x100),
        Stage::Staged(sq) => Some(sq.index() as u64),
        Stage::Moved => None,
    }
}

impl Position {
    /// The position key: pieces, side to move, castling progress, en
    /// passant (only when a legal en passant capture exists), once-per-game
    /// king rights, waiting pawns with their turns (and arrival order among
    /// blocked ones), and the variant.
    ///
    /// ```
    /// use xpgn::rules::{Position, Variant};
    /// let start = Position::start(Variant::chess());
    /// assert_ne!(start.key(), Position::start(Variant::by_name("chancellor").unwrap()).key());
    /// ```
    pub fn key(&self) -> u64 {
        // Variant and pieces: kept up to date as pieces come and go.
        let mut h = self.state.board_key;
        debug_assert_eq!(
            h,
            self.pieces()
                .fold(variant_key(self.variant.name()), |h, (sq, p)| h
                    ^ piece_key_formula(sq, p))
        );
        if self.state.turn == Color::Black {
            h ^= mix(TURN);
        }
        // Only the variant's partners can be anything but moved: the key
        // reads those, not the whole fixed-size table.
        let castling = &self.state.castling;
        for c in Color::BOTH {
            let ci = c.index() as u64;
            if let Some(code) = stage_code(castling.king[c.index()]) {
                h ^= mix(CASTLE_KING | ci << 16 | code);
            }
            let (ours, unused) =
                castling.partners[c.index()].split_at(self.tables().partners[c.index()].len());
            debug_assert!(unused.iter().all(|&s| s == Stage::Moved));
            for (p, &stage) in ours.iter().enumerate() {
                if let Some(code) = stage_code(stage) {
                    h ^= mix(CASTLE_PARTNER | ci << 20 | (p as u64) << 16 | code);
                }
            }
        }
        if let Some(ep) = self.state.ep_square
            && self.can_take_en_passant(ep)
        {
            h ^= mix(EP | ep.index() as u64);
        }
        for c in Color::BOTH {
            if self.state.king_rights[c.index()] {
                h ^= mix(KING_RIGHT | c.index() as u64);
            }
        }
        let mut blocked = [0u64; 2];
        for w in self.waiting_pawns() {
            h ^= mix(WAITING | (w.turns as u64) << 8 | w.square.index() as u64);
            if w.turns == 0 {
                let order = &mut blocked[w.color.index()];
                h ^= mix(BLOCKED_ORDER | *order << 8 | w.square.index() as u64);
                *order += 1;
            }
        }
        if self.tables().play_rules {
            h ^= self.play_state_key();
        }
        h
    }

    /// The key's part for hands, promoted pieces and check counters: the
    /// same board with other hands is another position.
    fn play_state_key(&self) -> u64 {
        let mut h = 0;
        for c in Color::BOTH {
            let ci = c.index() as u64;
            for (k, &n) in self.state.hands[c.index()].iter().enumerate() {
                if n > 0 {
                    h ^= mix(HAND | ci << 24 | (k as u64) << 16 | u64::from(n));
                }
            }
            let checks = u64::from(self.state.checks[c.index()]);
            if checks > 0 {
                h ^= mix(CHECKS | ci << 8 | checks);
            }
        }
        for (c, gates) in self.state.gates.iter().enumerate() {
            if *gates != 0 {
                h ^= mix(GATES | (c as u64) << 16 | u64::from(*gates));
            }
        }
        for sq in self.promoted_squares() {
            h ^= mix(PROMOTED | sq.index() as u64);
        }
        h
    }
}
