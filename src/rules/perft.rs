//! Perft: the number of legal move sequences of a given length, the
//! standard check of a move generator.

use super::moves::Move;
use super::position::Position;

/// Counts the leaves of the legal move tree `depth` plies deep (bulk
/// counting at the last ply).
///
/// ```
/// use xpgn::rules::{Position, Variant, perft};
/// assert_eq!(perft(&Position::start(Variant::chess()), 3), 8_902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // One move list per ply, made once; a depth beyond any that finishes
    // gets no more lists than that (the plies past them make their own).
    let mut buffers = vec![Vec::with_capacity(128); depth.min(PREALLOCATED_PLIES) as usize];
    count(pos, depth, &mut buffers)
}

/// The plies whose move lists [`perft`] allocates before it starts.
const PREALLOCATED_PLIES: u32 = 32;

fn count(pos: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 1 {
        return pos.count_legal_moves() as u64;
    }
    let mut own = Vec::new();
    let (moves, rest): (&mut Vec<Move>, &mut [Vec<Move>]) = match buffers.split_first_mut() {
        Some((moves, rest)) => (moves, rest),
        None => (&mut own, &mut []),
    };
    pos.legal_moves_unordered_into(moves);
    let mut total = 0;
    // One copy of the variant's handle per node; each move's position is a
    // plain copy of the state into it.
    let mut next = pos.clone();
    for m in moves.iter() {
        next.clone_from(pos);
        next.play_unchecked(m);
        total += count(&next, depth - 1, rest);
    }
    total
}

/// Perft split by first move: each legal move with its count at `depth - 1`.
///
/// # Panics
/// Panics if `depth` is 0.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    assert!(depth >= 1, "divide needs depth 1 or more");
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(&m);
            (m, perft(&next, depth - 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, Piece, Setup, Square, Variant};

    #[test]
    fn any_depth_counts_without_a_list_per_ply_made_first() {
        // Black is mated (Qg7 next to Kh8, guarded by Kg6): no move, at
        // any depth; a list made for each ply first would not fit in memory.
        let v = Variant::chess();
        let piece = |color, letter| Piece {
            color,
            kind: v.kind_by_letter(letter).unwrap(),
        };
        let setup = Setup {
            board: vec![
                (Square::new(6, 5), piece(Color::White, 'K')),
                (Square::new(6, 6), piece(Color::White, 'Q')),
                (Square::new(7, 7), piece(Color::Black, 'K')),
            ],
            turn: Color::Black,
            castling: Vec::new(),
            castling_rooks: Vec::new(),
            castling_stages: Vec::new(),
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            king_rights: None,
            waiting: Vec::new(),
            hand: None,
            promoted: Vec::new(),
            checks_given: None,
            gates: Vec::new(),
        };
        let pos = Position::from_setup(v, &setup).unwrap();
        assert_eq!(perft(&pos, 1), 0);
        assert_eq!(perft(&pos, u32::MAX), 0);
    }
}
