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
    let mut buffers = vec![Vec::with_capacity(128); depth as usize];
    count(pos, depth, &mut buffers)
}

fn count(pos: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 1 {
        return pos.count_legal_moves() as u64;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    pos.legal_moves_into(moves);
    let mut total = 0;
    for m in moves.iter() {
        let mut next = pos.clone();
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
