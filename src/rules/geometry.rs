//! Board geometry: files, ranks, squares and board sizes up to 16x16.
//!
//! A [`Square`] packs its rank and file into one byte (`rank * 16 + file`),
//! so every board up to 16x16 shares one square space and one table layout;
//! a board smaller than that simply uses part of it.

/// The largest number of files or ranks a board may have.
pub const MAX_SIDE: u8 = 16;

/// Number of distinct square indices (16 x 16).
pub const SQUARE_SPACE: usize = 256;

/// A square of a board up to 16x16: file `a..p` (0..16), rank `1..16` (0..16).
///
/// ```
/// use xpgn::rules::Square;
/// let j10 = Square::new(9, 9);
/// assert_eq!(j10.file(), 9);
/// assert_eq!(j10.rank(), 9);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    /// Whether `other` is one king step away (or is this square).
    pub fn touches(self, other: Square) -> bool {
        (self.file() as i8 - other.file() as i8).abs() <= 1
            && (self.rank() as i8 - other.rank() as i8).abs() <= 1
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1).
    ///
    /// # Panics
    /// Panics if `file` or `rank` is 16 or more.
    pub const fn new(file: u8, rank: u8) -> Square {
        assert!(file < MAX_SIDE && rank < MAX_SIDE);
        Square(rank * MAX_SIDE + file)
    }

    /// The square with this packed index (`rank * 16 + file`).
    pub const fn from_index(index: u8) -> Square {
        Square(index)
    }

    /// The packed index `rank * 16 + file`, usable as an array index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 for `a`.
    pub const fn file(self) -> u8 {
        self.0 % MAX_SIDE
    }

    /// The rank, 0 for rank 1.
    pub const fn rank(self) -> u8 {
        self.0 / MAX_SIDE
    }

    /// The square `(df, dr)` away, if it stays on a 16x16 grid.
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i16 + df as i16;
        let r = self.rank() as i16 + dr as i16;
        if (0..MAX_SIDE as i16).contains(&f) && (0..MAX_SIDE as i16).contains(&r) {
            Some(Square::new(f as u8, r as u8))
        } else {
            None
        }
    }

    /// The same square seen from the other side of a board with `ranks` ranks.
    pub fn flip_rank(self, ranks: u8) -> Square {
        Square::new(self.file(), ranks - 1 - self.rank())
    }
}

/// The dimensions of a board: 1..=16 files and 1..=16 ranks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BoardSize {
    /// Number of files (columns), `a` upwards.
    pub files: u8,
    /// Number of ranks (rows), `1` upwards.
    pub ranks: u8,
}

impl BoardSize {
    /// A board of `files` x `ranks`.
    ///
    /// # Panics
    /// Panics if either side is 0 or more than 16.
    pub const fn new(files: u8, ranks: u8) -> BoardSize {
        assert!(files >= 1 && files <= MAX_SIDE && ranks >= 1 && ranks <= MAX_SIDE);
        BoardSize { files, ranks }
    }

    /// Whether `sq` lies on this board.
    pub const fn contains(self, sq: Square) -> bool {
        sq.file() < self.files && sq.rank() < self.ranks
    }

    /// The square `(df, dr)` from `sq`, if it lies on this board.
    pub fn offset(self, sq: Square, df: i8, dr: i8) -> Option<Square> {
        sq.offset(df, dr).filter(|&s| self.contains(s))
    }

    /// Every square of the board, rank 1 first, file `a` first within a rank.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.ranks).flat_map(move |r| (0..self.files).map(move |f| Square::new(f, r)))
    }

    /// Number of squares.
    pub const fn area(self) -> usize {
        self.files as usize * self.ranks as usize
    }
}

/// The algebraic name: file letter then rank number (`e4`, `l8`, `j10`).
impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_pack_file_and_rank() {
        let sq = Square::new(15, 15);
        assert_eq!((sq.file(), sq.rank(), sq.index()), (15, 15, 255));
        assert_eq!(Square::new(0, 0).offset(-1, 0), None);
        assert_eq!(Square::new(15, 3).offset(1, 0), None);
    }

    #[test]
    fn board_size_bounds_offsets() {
        let b = BoardSize::new(12, 8);
        assert!(b.contains(Square::new(11, 7)));
        assert!(!b.contains(Square::new(12, 0)));
        assert_eq!(b.offset(Square::new(11, 0), 1, 0), None);
        assert_eq!(b.squares().count(), 96);
        assert_eq!(Square::new(4, 0).flip_rank(8), Square::new(4, 7));
    }
}
