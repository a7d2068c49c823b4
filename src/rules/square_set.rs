//! A set of squares over the 16x16 square space.

use super::geometry::Square;

/// A set of squares, one bit per square of the 16x16 space.
///
/// ```
/// use xpgn::rules::{Square, SquareSet};
/// let mut s = SquareSet::EMPTY;
/// s.insert(Square::new(4, 0));
/// assert!(s.contains(Square::new(4, 0)));
/// assert_eq!(s.iter().count(), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct SquareSet([u64; 4]);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet([0; 4]);

    /// Whether `sq` is in the set.
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        let i = sq.index();
        self.0[i >> 6] & (1u64 << (i & 63)) != 0
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        let i = sq.index();
        self.0[i >> 6] |= 1u64 << (i & 63);
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        let i = sq.index();
        self.0[i >> 6] &= !(1u64 << (i & 63));
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// Number of squares in the set.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The squares of the set in index order.
    #[inline]
    pub fn iter(&self) -> SquareSetIter {
        SquareSetIter {
            words: self.0,
            word: 0,
        }
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut s = SquareSet::EMPTY;
        for sq in iter {
            s.insert(sq);
        }
        s
    }
}

/// Iterator over a [`SquareSet`].
pub struct SquareSetIter {
    words: [u64; 4],
    word: usize,
}

impl Iterator for SquareSetIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.word < 4 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Square::from_index(
                    (self.word as u32 * 64 + w.trailing_zeros()) as u8,
                ));
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate_across_words() {
        let squares = [Square::new(0, 0), Square::new(3, 5), Square::new(15, 15)];
        let mut s: SquareSet = squares.iter().copied().collect();
        assert_eq!(s.iter().collect::<Vec<_>>(), squares);
        s.remove(Square::new(3, 5));
        assert_eq!(s.len(), 2);
        assert!(!s.contains(Square::new(3, 5)));
    }
}
