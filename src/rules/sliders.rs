//! Rook and bishop attacks on an 8x8 board by table look-up ("magic"
//! bitboards), for the pieces that ride the four orthogonal or the four
//! diagonal directions without limit: the generic ray code
//! (`bitboard` module) costs a few instructions and a branch per
//! direction, the look-up one multiplication and one load per piece.
//!
//! For each square, the squares a rider's first piece can stand on (its
//! rays without the edge, the *mask*) are multiplied by a constant of
//! that square and the product's top bits index the square's part of the
//! attack table: every occupancy of the mask lands on an entry holding
//! its attacks. The constants were found by a seeded random search (a
//! constant is kept when no two occupancies with different attacks share
//! an entry); the unit tests check every occupancy of every mask. Bit
//! indices are the 8x8 board's (`rank * 8 + file`), as in a `u64` set.

use std::sync::OnceLock;

/// One square's part of the table, for one family of directions.
#[derive(Clone, Copy, Default)]
struct Magic {
    /// The squares whose occupancy matters: the rays without the edge.
    mask: u64,
    multiplier: u64,
    /// 64 less the number of squares in `mask`.
    shift: u32,
    /// Where the square's entries start in [`Sliders::attacks`].
    offset: u32,
}

/// The attack tables of the orthogonal and diagonal riders on 8x8.
pub(crate) struct Sliders {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    attacks: Box<[u64]>,
    /// Per pair of squares on one orthogonal or diagonal line: the
    /// squares between them (`64 * from + to`); empty for other pairs.
    between: Box<[u64]>,
}

/// The rook's directions, as (file, rank) steps.
pub(crate) const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The bishop's directions.
pub(crate) const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl Sliders {
    /// The tables, built on first use (about 860 KB).
    pub(crate) fn get() -> &'static Sliders {
        static SLIDERS: OnceLock<Sliders> = OnceLock::new();
        SLIDERS.get_or_init(Sliders::build)
    }

    fn build() -> Sliders {
        let mut attacks = Vec::new();
        let mut family = |dirs: &[(i8, i8); 4], multipliers: &[u64; 64]| {
            let mut magics = [Magic::default(); 64];
            for (sq, magic) in magics.iter_mut().enumerate() {
                let mask = walk(sq, 0, dirs, true);
                let rays = dirs.map(|step| (walk(sq, 0, &[step; 4], false), up(step)));
                *magic = Magic {
                    mask,
                    multiplier: multipliers[sq],
                    shift: 64 - mask.count_ones(),
                    offset: attacks.len() as u32,
                };
                attacks.resize(attacks.len() + (1 << mask.count_ones()), 0);
                // Every subset of the mask, by the carry-rippler.
                let mut occ = 0u64;
                loop {
                    attacks[magic.index(occ)] = rays
                        .iter()
                        .map(|&(ray, up)| cut(ray, occ, up))
                        .fold(0, |acc, reach| acc | reach);
                    occ = occ.wrapping_sub(mask) & mask;
                    if occ == 0 {
                        break;
                    }
                }
            }
            magics
        };
        let rook = family(&ORTHOGONAL, &ROOK_MAGICS);
        let bishop = family(&DIAGONAL, &BISHOP_MAGICS);
        let mut between = vec![0u64; 64 * 64];
        for from in 0..64 {
            for step in ORTHOGONAL.iter().chain(&DIAGONAL) {
                // The squares of the ray, nearest first: each is the far
                // end of the segment made of those before it.
                let mut segment = 0u64;
                let ray = walk(from, 0, &[*step; 4], false);
                let mut rest = ray;
                while rest != 0 {
                    let to = if up(*step) {
                        rest.trailing_zeros() as usize
                    } else {
                        63 - rest.leading_zeros() as usize
                    };
                    between[64 * from + to] = segment;
                    segment |= 1 << to;
                    rest &= !(1 << to);
                }
            }
        }
        Sliders {
            rook,
            bishop,
            attacks: attacks.into_boxed_slice(),
            between: between.into_boxed_slice(),
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
        self.attacks[self.rook[sq].index(occ)]
    }

    /// The squares a bishop on bit `sq` reaches on occupancy `occ`.
    #[inline(always)]
    pub(crate) fn bishop(&self, sq: usize, occ: u64) -> u64 {
        self.attacks[self.bishop[sq].index(occ)]
    }
}

impl Magic {
    #[inline(always)]
    fn index(&self, occ: u64) -> usize {
        self.offset as usize
            + ((occ & self.mask).wrapping_mul(self.multiplier) >> self.shift) as usize
    }
}

/// Whether a step raises the bit index.
fn up((df, dr): (i8, i8)) -> bool {
    dr > 0 || (dr == 0 && df > 0)
}

/// The ray `ray` cut after its first piece on occupancy `occ`, as the
/// generic ray code cuts it (`bitboard` module); `up` says which way
/// the ray runs.
fn cut(ray: u64, occ: u64, up: bool) -> u64 {
    let hit = ray & occ;
    if hit == 0 {
        ray
    } else if up {
        ray & (hit ^ (hit - 1))
    } else {
        ray & (!0 << (63 - hit.leading_zeros()))
    }
}

/// The squares reached from bit `sq` along `dirs` on occupancy `occ`,
/// square by square; with `inner`, without the last square of each ray
/// (the mask: a piece on the edge stops nothing beyond it).
fn walk(sq: usize, occ: u64, dirs: &[(i8, i8); 4], inner: bool) -> u64 {
    let on_board = |f: i8, r: i8| (0..8).contains(&f) && (0..8).contains(&r);
    let (f0, r0) = ((sq % 8) as i8, (sq / 8) as i8);
    let mut set = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on_board(f, r) && (!inner || on_board(f + df, r + dr)) {
            let bit = 1u64 << (r * 8 + f);
            set |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    set
}

/// Per square: the rook's multiplier.
const ROOK_MAGICS: [u64; 64] = [
    0x0980_0080_1140_0020,
    0x8340_0044_1000_2000,
    0x0880_2000_9000_8268,
    0x0080_0800_8010_0004,
    0x8100_1100_0402_0800,
    0x0300_0100_0400_0822,
    0x0880_1A00_2900_0080,
    0x8100_0500_0120_4882,
    0x0844_8000_8140_0320,
    0x0804_4020_1000_4000,
    0x0108_8020_0310_0480,
    0x0004_8080_0800_1000,
    0x0003_0018_0100_1014,
    0x0002_0002_0004_1008,
    0x0004_0081_0804_2210,
    0x0105_0001_0000_9042,
    0x0400_8080_0040_0021,
    0xC100_4040_1000_2000,
    0x0060_0080_1000_2088,
    0x0400_8080_0800_1000,
    0x4440_8080_0800_0400,
    0x1002_0080_0400_0280,
    0x4002_4400_300D_1248,
    0x0010_0200_0040_8104,
    0x0101_0082_0020_4200,
    0x8020_0020_4000_5000,
    0x4100_1000_8080_2000,
    0x4008_006A_8010_0280,
    0x1020_0800_8004_0080,
    0x0004_0100_4002_0040,
    0x0018_A124_0008_0290,
    0x6140_0042_0000_8104,
    0x4000_4000_2080_0090,
    0x2020_0020_8080_4000,
    0x0000_4082_0200_2010,
    0x0080_1005_0100_0820,
    0x0000_8004_0080_0800,
    0x000A_2004_0801_4010,
    0x0100_8002_0080_0100,
    0xA008_0057_0200_008C,
    0x0080_0040_6000_C010,
    0x1040_1000_2800_2000,
    0x0048_2001_0011_0040,
    0x0068_4902_1003_0020,
    0x1009_0800_0501_0010,
    0x2142_0008_0401_0100,
    0x1001_0801_1084_0002,
    0x1801_0044_0082_0001,
    0x0104_4020_8D02_0200,
    0x0000_4000_2000_8080,
    0x0200_2000_8010_0280,
    0x0000_1000_2009_0100,
    0x0204_0080_0802_0480,
    0x8104_0100_4002_0040,
    0x7800_0201_B008_0400,
    0x0040_8000_5100_2880,
    0x0050_1080_0100_2041,
    0x208A_8011_0061_4003,
    0x0006_0020_4208_9082,
    0x0011_0900_0420_1001,
    0x1002_0010_0420_0802,
    0x0005_0002_0804_0001,
    0x0002_0027_01AC_0822,
    0x0000_1025_0184_004A,
];
/// Per square: the bishop's multiplier.
const BISHOP_MAGICS: [u64; 64] = [
    0xC0A0_0122_0604_0EA0,
    0x8010_2282_0042_0001,
    0x0110_0082_2040_0400,
    0x0244_5C00_8010_6000,
    0x0044_0420_0400_8100,
    0x0880_9004_2040_8C05,
    0x0201_0801_1008_0002,
    0x0000_1080_9420_2000,
    0x0000_0420_0204_0108,
    0x0000_6230_2411_0042,
    0x0086_1000_9481_1002,
    0x0000_0445_0200_2080,
    0x0100_4602_1140_0040,
    0x0008_1090_0420_0004,
    0x0202_3200_8484_4000,
    0x8040_0424_2104_1009,
    0x2010_10C0_5102_008C,
    0x1020_8882_0802_4080,
    0x0108_000C_8029_0200,
    0x8048_0004_2042_5203,
    0x0005_0000_9040_2000,
    0x2080_4002_0110_4100,
    0x8820_4201_1110_1000,
    0x4AC0_3022_0882_1802,
    0x0004_4000_1002_A840,
    0x2002_2000_1004_1080,
    0x1012_0802_0100_4400,
    0x8440_0400_0241_0120,
    0x1090_8200_8401_0400,
    0x2084_8520_1202_1000,
    0x1204_0062_C101_1003,
    0x0200_8205_E109_0080,
    0x088C_1028_0804_2080,
    0x0802_1022_0090_4280,
    0x8020_2090_0208_0020,
    0x2200_0808_0006_0A00,
    0x20C0_0040_1001_0100,
    0x0802_0041_0082_1003,
    0x0008_0244_0000_8080,
    0x0000_8401_0200_8090,
    0x0030_A404_2024_4007,
    0x0A19_0842_1001_1282,
    0x0004_0820_9001_9806,
    0x6108_0042_0802_0080,
    0x0081_2004_1011_0100,
    0x1040_8107_0101_0208,
    0x0282_0478_3201_2080,
    0x0010_0200_9900_0020,
    0x000E_0104_2240_0840,
    0x1020_4208_B008_9090,
    0x0810_0444_0C04_8000,
    0x88C0_1800_8404_0001,
    0x3100_0208_0304_0080,
    0x8900_70A0_4121_0C00,
    0x0020_2001_0101_0A09,
    0x0004_1002_4041_0400,
    0x0006_0044_0208_0200,
    0x0801_0624_8404_2000,
    0x0001_0002_D744_1004,
    0x0810_0800_0020_8800,
    0x0000_0208_0803_0411,
    0x1450_0010_2001_4440,
    0x0040_6008_1081_A288,
    0x0044_0114_0410_8A00,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every occupancy of every square's mask finds the attacks a walk
    /// finds: no two occupancies with different attacks share an entry.
    #[test]
    fn every_occupancy_of_every_mask_looks_up_its_attacks() {
        let s = Sliders::get();
        for sq in 0..64 {
            for (dirs, magic) in [(&ORTHOGONAL, s.rook[sq]), (&DIAGONAL, s.bishop[sq])] {
                let mut occ = 0u64;
                loop {
                    // Pieces outside the mask change nothing.
                    for noise in [0, !magic.mask, 0x8142_2418_1824_4281 & !magic.mask] {
                        let looked_up = s.attacks[magic.index(occ | noise)];
                        assert_eq!(looked_up, walk(sq, occ, dirs, false), "{sq} {occ:x}");
                    }
                    occ = occ.wrapping_sub(magic.mask) & magic.mask;
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
