//! Rook and bishop attacks on an 8x8 board by arithmetic on a few small
//! tables (about 35 KB with the squares between two squares, built at
//! compile time): the generic ray code (`bitboard` module) costs a few
//! instructions and a branch per direction, this a dozen instructions
//! per line and no branch.
//!
//! A file or diagonal holds at most one square of each rank, so reversing
//! the order of the ranks (a byte swap) reverses it: the squares reached
//! up the line are found by one subtraction ("hyperbola quintessence":
//! the lowest occupied square above the piece absorbs the borrow), and
//! those reached down the line by the same subtraction on the swapped
//! board. A rank is looked up: 64 occupancies of its six inner squares
//! for each file. A table indexed by the whole occupancy of a square's
//! lines (the "magic" look-up) takes one multiplication instead, but its
//! 860 KB miss the processor's caches on most look-ups of a replay, and
//! each miss costs more than this arithmetic. Bit indices are the 8x8
//! board's (`rank * 8 + file`), as in a `u64` set.

/// The lines through one square, each without the square itself.
#[derive(Clone, Copy)]
struct Lines {
    file: u64,
    diagonal: u64,
    anti_diagonal: u64,
}

/// The attack tables of the orthogonal and diagonal riders on 8x8.
pub(crate) struct Sliders {
    lines: [Lines; 64],
    /// Per file and occupancy of a rank's six inner squares (files b to
    /// g, as bits 0 to 5): the files a rook on that file reaches along
    /// the rank.
    rank: [[u8; 64]; 8],
    /// Per pair of squares on one orthogonal or diagonal line: the
    /// squares between them (`64 * from + to`); empty for other pairs.
    between: [u64; 64 * 64],
}

/// The rook's directions, as (file, rank) steps.
pub(crate) const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The bishop's directions.
pub(crate) const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The tables, made by the compiler.
static SLIDERS: Sliders = Sliders::build();

impl Sliders {
    /// The tables.
    pub(crate) fn get() -> &'static Sliders {
        &SLIDERS
    }

    const fn build() -> Sliders {
        let mut lines = [Lines {
            file: 0,
            diagonal: 0,
            anti_diagonal: 0,
        }; 64];
        let mut between = [0u64; 64 * 64];
        let mut sq = 0;
        while sq < 64 {
            lines[sq] = Lines {
                file: walk(sq, 0, (0, 1)) | walk(sq, 0, (0, -1)),
                diagonal: walk(sq, 0, (1, 1)) | walk(sq, 0, (-1, -1)),
                anti_diagonal: walk(sq, 0, (1, -1)) | walk(sq, 0, (-1, 1)),
            };
            let mut d = 0;
            while d < 8 {
                let step = if d < 4 {
                    ORTHOGONAL[d]
                } else {
                    DIAGONAL[d - 4]
                };
                // The squares of the ray, nearest first: each is the far
                // end of the segment made of those before it.
                let (mut f, mut r) = ((sq % 8) as i8 + step.0, (sq / 8) as i8 + step.1);
                let mut segment = 0u64;
                while f >= 0 && f < 8 && r >= 0 && r < 8 {
                    let to = (r * 8 + f) as usize;
                    between[64 * sq + to] = segment;
                    segment |= 1 << to;
                    f += step.0;
                    r += step.1;
                }
                d += 1;
            }
            sq += 1;
        }
        let mut rank = [[0u8; 64]; 8];
        let mut file = 0;
        while file < 8 {
            let mut inner = 0;
            while inner < 64 {
                let occ = (inner as u64) << 1;
                rank[file][inner] = (walk(file, occ, (1, 0)) | walk(file, occ, (-1, 0))) as u8;
                inner += 1;
            }
            file += 1;
        }
        Sliders {
            lines,
            rank,
            between,
        }
    }

    /// The squares strictly between bits `a` and `b` when they share an
    /// orthogonal or diagonal line; empty otherwise.
    #[inline(always)]
    pub(crate) fn between(&self, a: usize, b: usize) -> u64 {
        self.between[64 * a + b]
    }

    /// The squares a rook on bit `sq` reaches on occupancy `occ`: the
    /// empty squares up to the first piece of each direction, and its
    /// square.
    #[inline(always)]
    pub(crate) fn rook(&self, sq: usize, occ: u64) -> u64 {
        let shift = sq & 56;
        let inner = ((occ >> (shift + 1)) & 63) as usize;
        let along_rank = u64::from(self.rank[sq & 7][inner]) << shift;
        along_line(occ, sq, self.lines[sq].file) | along_rank
    }

    /// The squares a bishop on bit `sq` reaches on occupancy `occ`.
    #[inline(always)]
    pub(crate) fn bishop(&self, sq: usize, occ: u64) -> u64 {
        let lines = &self.lines[sq];
        along_line(occ, sq, lines.diagonal) | along_line(occ, sq, lines.anti_diagonal)
    }
}

/// The squares a rider on bit `sq` reaches along `line` (a file or a
/// diagonal through it, without its square) on occupancy `occ`. Up the
/// line, `occupied - piece` clears the bits from the piece's up to the
/// first occupied one and sets those between: XOR with the occupancy
/// leaves the squares reached and the first piece met. The byte swap does
/// the same down the line; the occupancy's own bits cancel in the XOR of
/// the two differences.
#[inline(always)]
fn along_line(occ: u64, sq: usize, line: u64) -> u64 {
    let piece = 1u64 << sq;
    let up = occ & line;
    let down = up.swap_bytes();
    let up = up.wrapping_sub(piece);
    let down = down.wrapping_sub(piece.swap_bytes());
    (up ^ down.swap_bytes()) & line
}

/// The squares reached from bit `sq` by steps of `(df, dr)` on occupancy
/// `occ`, up to the first occupied square (included) or the edge.
const fn walk(sq: usize, occ: u64, (df, dr): (i8, i8)) -> u64 {
    let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
    let mut set = 0;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        let bit = 1u64 << (r * 8 + f);
        set |= bit;
        if occ & bit != 0 {
            break;
        }
        f += df;
        r += dr;
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The squares a walk finds from `sq` along `dirs`.
    fn walked(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
        dirs.iter().fold(0, |set, &d| set | walk(sq, occ, d))
    }

    /// Every occupancy of every square's lines gives the attacks a walk
    /// finds, and pieces elsewhere change nothing.
    #[test]
    fn every_occupancy_of_every_square_gives_the_walked_attacks() {
        let s = Sliders::get();
        for sq in 0..64 {
            for (dirs, attacks) in [
                (
                    &ORTHOGONAL,
                    Sliders::rook as fn(&Sliders, usize, u64) -> u64,
                ),
                (&DIAGONAL, Sliders::bishop),
            ] {
                let rays = walked(sq, 0, dirs);
                let mut occ = 0u64;
                loop {
                    for noise in [0, !rays, 0x8142_2418_1824_4281 & !rays, 1 << sq] {
                        assert_eq!(
                            attacks(s, sq, occ | noise),
                            walked(sq, occ, dirs),
                            "{sq} {occ:x} {noise:x}"
                        );
                    }
                    // The next subset of the rays, by the carry-rippler.
                    occ = occ.wrapping_sub(rays) & rays;
                    if occ == 0 {
                        break;
                    }
                }
            }
        }
        assert_eq!(s.rook(0, 0), 0x0101_0101_0101_01FE);
        // a1-h8, e1-e8 (4 and 60), c1-f4 (2, 11, 20, 29), a1-b3 (not a line).
        assert_eq!(s.between(0, 63), 0x0040_2010_0804_0200);
        assert_eq!(s.between(60, 4), 0x0010_1010_1010_1000);
        assert_eq!(s.between(2, 29), 1 << 11 | 1 << 20);
        assert_eq!(
            (s.between(0, 17), s.between(5, 5), s.between(5, 6)),
            (0, 0, 0)
        );
        // d4 with a piece on e5: that piece, and three other diagonals to the edge.
        assert_eq!(s.bishop(27, 1 << 36), 0x0001_0214_0014_2241);
    }
}
