//! Square sets sized to the board, for the move generator and the attack
//! tables.
//!
//! A board of `files` x `ranks` numbers its squares densely,
//! `rank * files + file` (its *bit index*), so an 8x8 board fills one
//! `u64`, a 10x8 or 12x8 board a `u128`, and only boards of more than 128
//! squares (up to 16x16) need the four-word [`Wide`]. The public
//! [`Square`](super::Square) keeps its 16x16 packing; `Tables::bit` and
//! `Tables::square_at` translate.
//!
//! Positions store their sets as four words ([`Store`]) whatever the board,
//! so `Position` stays one type; the hot code is generic over [`Bits`] and
//! monomorphised for each width, and the entry points (`legal_moves`,
//! `is_attacked`, ...) pick the width once per call from the variant's
//! [`Width`]. A `u64` board so costs what a dedicated 8x8 generator would,
//! and loading a `u64` from a [`Store`] is reading its first word.
//!
//! Along any rider direction `(df, dr)` that fits on the board
//! (`|df| < files`), the bit index moves monotonically (by
//! `dr * files + df`), so the first piece a ray meets is the lowest or the
//! highest set bit of the ray's mask and the occupancy: riders of any step,
//! any range, on any board up to 16x16 need no walk. Going up, the ray cut
//! after its first piece is the ray and the bits through the lowest hit
//! (`hit ^ (hit - 1)`: no scan, no branch); going down, the ray and the
//! bits from the highest hit up (one scan).

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// Words a position keeps per square set: enough for 16x16.
pub(crate) const STORE_WORDS: usize = 4;

/// A square set as a position stores it, whatever the board's width.
pub(crate) type Store = [u64; STORE_WORDS];

/// Sets the bit `i` of a stored set.
#[inline]
pub(crate) fn store_insert(s: &mut Store, i: usize) {
    s[i >> 6] |= 1u64 << (i & 63);
}

/// Clears the bit `i` of a stored set.
#[inline]
pub(crate) fn store_remove(s: &mut Store, i: usize) {
    s[i >> 6] &= !(1u64 << (i & 63));
}

/// Whether bit `i` of a stored set is set.
#[inline]
pub(crate) fn store_has(s: &Store, i: usize) -> bool {
    s[i >> 6] & (1u64 << (i & 63)) != 0
}

/// Moves bit `from` of a stored set to bit `to` (`from` is set, `to` is not).
#[inline]
pub(crate) fn store_move(s: &mut Store, from: usize, to: usize) {
    s[from >> 6] ^= 1u64 << (from & 63);
    s[to >> 6] ^= 1u64 << (to & 63);
}

/// The set widths; a variant uses the narrowest its board fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    /// Up to 64 squares.
    W64,
    /// Up to 128 squares.
    W128,
    /// Up to 256 squares.
    W256,
}

impl Width {
    /// The narrowest width holding `area` squares.
    pub(crate) fn for_area(area: usize) -> Width {
        if area <= 64 {
            Width::W64
        } else if area <= 128 {
            Width::W128
        } else {
            Width::W256
        }
    }

    /// Words of 64 bits per set.
    pub(crate) fn words(self) -> usize {
        match self {
            Width::W64 => 1,
            Width::W128 => 2,
            Width::W256 => 4,
        }
    }
}

/// A set of bit indices of one width.
pub(crate) trait Bits:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The empty set.
    const EMPTY: Self;
    /// Whether a set is one `u64` (a board of at most 64 squares): code
    /// for such boards only is compiled out of the other widths.
    const ONE_WORD: bool = false;
    /// The bit indices of a set, lowest first.
    type Indices: Iterator<Item = usize>;

    /// The bit indices of the set, lowest first.
    fn indices(self) -> Self::Indices;

    /// Entry `at` of a table of sets of this width.
    fn at(table: &[u64], at: usize) -> Self;
    /// The set a position stores.
    fn load(s: &Store) -> Self;
    /// The set of bit `i` alone.
    fn single(i: usize) -> Self;
    /// The bits below 64, as a `u64` (the whole set on a board of at
    /// most 64 squares).
    fn low(self) -> u64;
    /// The set of the bits of `w`, all below 64.
    fn from_low(w: u64) -> Self;
    /// Whether bit `i` is set.
    fn has(self, i: usize) -> bool {
        self & Self::single(i) != Self::EMPTY
    }
    /// Whether no bit is set.
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }
    /// The lowest set bit (the set is not empty).
    fn first(self) -> usize;
    /// The highest set bit (the set is not empty).
    fn last(self) -> usize;
    /// The set without its lowest bit.
    fn without_first(self) -> Self;
    /// Number of bits set.
    fn count(self) -> u32;
    /// Every bit moved `n` places up (toward higher indices); `n` is
    /// below 64 (at most two ranks of 16 squares and one more).
    fn up(self, n: u32) -> Self;
    /// Every bit moved `n` places down; `n` is below 64.
    fn down(self, n: u32) -> Self;
    /// The bits up to the lowest set bit, that one included; every bit
    /// if none is set. On a ray that runs up, what a rider reaches when
    /// `self` is the occupied part of the ray.
    fn first_and_below(self) -> Self;
    /// The bits from the highest set bit up, that one included; every
    /// bit if none is set. On a ray that runs down, what a rider
    /// reaches when `self` is the occupied part of the ray.
    fn last_and_above(self) -> Self;
}

impl Bits for u64 {
    const EMPTY: u64 = 0;
    const ONE_WORD: bool = true;
    type Indices = BitIter<u64>;
    #[inline]
    fn indices(self) -> BitIter<u64> {
        BitIter(self)
    }
    #[inline]
    fn at(table: &[u64], at: usize) -> u64 {
        table[at]
    }
    #[inline]
    fn load(s: &Store) -> u64 {
        s[0]
    }
    #[inline]
    fn single(i: usize) -> u64 {
        1 << i
    }
    #[inline]
    fn low(self) -> u64 {
        self
    }
    #[inline]
    fn from_low(w: u64) -> u64 {
        w
    }
    #[inline]
    fn first(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline]
    fn last(self) -> usize {
        63 - self.leading_zeros() as usize
    }
    #[inline]
    fn without_first(self) -> u64 {
        self & (self - 1)
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn up(self, n: u32) -> u64 {
        self << n
    }
    #[inline]
    fn down(self, n: u32) -> u64 {
        self >> n
    }
    #[inline]
    fn first_and_below(self) -> u64 {
        self ^ self.wrapping_sub(1)
    }
    #[inline]
    fn last_and_above(self) -> u64 {
        !0 << (self | 1).last()
    }
}

impl Bits for u128 {
    const EMPTY: u128 = 0;
    type Indices = PairIter;
    #[inline]
    fn indices(self) -> PairIter {
        PairIter {
            word: self as u64,
            base: 0,
            high: (self >> 64) as u64,
        }
    }
    #[inline]
    fn at(table: &[u64], at: usize) -> u128 {
        let w = &table[2 * at..2 * at + 2];
        u128::from(w[0]) | u128::from(w[1]) << 64
    }
    #[inline]
    fn load(s: &Store) -> u128 {
        u128::from(s[0]) | u128::from(s[1]) << 64
    }
    #[inline]
    fn single(i: usize) -> u128 {
        1 << i
    }
    #[inline]
    fn low(self) -> u64 {
        self as u64
    }
    #[inline]
    fn from_low(w: u64) -> u128 {
        u128::from(w)
    }
    /// The word holding bit `i`, shifted: cheaper than a 128-bit shift.
    #[inline]
    fn has(self, i: usize) -> bool {
        let word = if i < 64 {
            self as u64
        } else {
            (self >> 64) as u64
        };
        word >> (i & 63) & 1 != 0
    }
    #[inline]
    fn first(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline]
    fn last(self) -> usize {
        127 - self.leading_zeros() as usize
    }
    #[inline]
    fn without_first(self) -> u128 {
        self & (self - 1)
    }
    /// A half that is empty is not counted: without a `popcnt`
    /// instruction (the default x86-64 target) each half costs a dozen.
    #[inline]
    fn count(self) -> u32 {
        let (lo, hi) = (self as u64, (self >> 64) as u64);
        match (lo, hi) {
            (0, 0) => 0,
            (_, 0) => lo.count_ones(),
            (0, _) => hi.count_ones(),
            _ => lo.count_ones() + hi.count_ones(),
        }
    }
    /// `n` is below 64 (a rank of at most 16 squares): saying so spares
    /// the 128-bit shift its branch for counts of a word or more.
    #[inline]
    fn up(self, n: u32) -> u128 {
        debug_assert!(n < 64);
        self << (n & 63)
    }
    /// `n` is below 64, as for `up`.
    #[inline]
    fn down(self, n: u32) -> u128 {
        debug_assert!(n < 64);
        self >> (n & 63)
    }
    #[inline]
    fn first_and_below(self) -> u128 {
        self ^ self.wrapping_sub(1)
    }
    /// Word by word: the high word's cut is right even when that word
    /// is empty (its bit 0 stands in), and then the low word is cut;
    /// half the instructions of a 128-bit shift by a scanned count.
    #[inline]
    fn last_and_above(self) -> u128 {
        let (lo, hi) = (self as u64, (self >> 64) as u64);
        let high = (hi | 1).last_and_above();
        let low = (lo | 1).last_and_above() & u64::from(hi == 0).wrapping_neg();
        u128::from(low) | u128::from(high) << 64
    }
}

/// A set of up to 256 bit indices, for boards of more than 128 squares.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Wide(Store);

macro_rules! wide_op {
    ($trait:ident, $f:ident, $assign:ident, $fa:ident, $op:tt) => {
        impl $trait for Wide {
            type Output = Wide;
            #[inline]
            fn $f(self, o: Wide) -> Wide {
                Wide([
                    self.0[0] $op o.0[0],
                    self.0[1] $op o.0[1],
                    self.0[2] $op o.0[2],
                    self.0[3] $op o.0[3],
                ])
            }
        }
        impl $assign for Wide {
            #[inline]
            fn $fa(&mut self, o: Wide) {
                *self = $trait::$f(*self, o);
            }
        }
    };
}
wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);

impl BitXor for Wide {
    type Output = Wide;
    #[inline]
    fn bitxor(self, o: Wide) -> Wide {
        Wide([
            self.0[0] ^ o.0[0],
            self.0[1] ^ o.0[1],
            self.0[2] ^ o.0[2],
            self.0[3] ^ o.0[3],
        ])
    }
}

impl Not for Wide {
    type Output = Wide;
    #[inline]
    fn not(self) -> Wide {
        Wide([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl Bits for Wide {
    const EMPTY: Wide = Wide([0; 4]);
    type Indices = BitIter<Wide>;
    #[inline]
    fn indices(self) -> BitIter<Wide> {
        BitIter(self)
    }
    #[inline]
    fn at(table: &[u64], at: usize) -> Wide {
        let w = &table[4 * at..4 * at + 4];
        Wide([w[0], w[1], w[2], w[3]])
    }
    #[inline]
    fn load(s: &Store) -> Wide {
        Wide(*s)
    }
    #[inline]
    fn single(i: usize) -> Wide {
        let mut w = [0; 4];
        w[i >> 6] = 1 << (i & 63);
        Wide(w)
    }
    #[inline]
    fn low(self) -> u64 {
        self.0[0]
    }
    #[inline]
    fn from_low(w: u64) -> Wide {
        Wide([w, 0, 0, 0])
    }
    #[inline]
    fn first(self) -> usize {
        let i = self.0.iter().position(|&w| w != 0).unwrap_or(3);
        i * 64 + self.0[i].trailing_zeros() as usize
    }
    #[inline]
    fn last(self) -> usize {
        let i = self.0.iter().rposition(|&w| w != 0).unwrap_or(0);
        i * 64 + 63 - self.0[i].leading_zeros() as usize
    }
    #[inline]
    fn without_first(self) -> Wide {
        let mut w = self.0;
        if let Some(i) = w.iter().position(|&x| x != 0) {
            w[i] &= w[i] - 1;
        }
        Wide(w)
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// `n` is below 64 (a rank of at most 16 squares).
    #[inline]
    fn up(self, n: u32) -> Wide {
        let w = self.0;
        if n == 0 {
            return self;
        }
        Wide([
            w[0] << n,
            w[1] << n | w[0] >> (64 - n),
            w[2] << n | w[1] >> (64 - n),
            w[3] << n | w[2] >> (64 - n),
        ])
    }
    /// `n` is below 64.
    #[inline]
    fn down(self, n: u32) -> Wide {
        let w = self.0;
        if n == 0 {
            return self;
        }
        Wide([
            w[0] >> n | w[1] << (64 - n),
            w[1] >> n | w[2] << (64 - n),
            w[2] >> n | w[3] << (64 - n),
            w[3] >> n,
        ])
    }
    #[inline]
    fn first_and_below(self) -> Wide {
        if self.is_empty() {
            !Wide::EMPTY
        } else {
            let i = self.first();
            let mut w = [0; 4];
            w[..i >> 6].fill(!0);
            w[i >> 6] = u64::MAX >> (63 - (i & 63));
            Wide(w)
        }
    }
    #[inline]
    fn last_and_above(self) -> Wide {
        let i = (self | Wide::single(0)).last();
        let mut w = [!0; 4];
        w[..i >> 6].fill(0);
        w[i >> 6] = u64::MAX << (i & 63);
        Wide(w)
    }
}

/// The bit indices of a set, lowest first.
pub(crate) struct BitIter<B: Bits>(pub B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let i = self.0.first();
        self.0 = self.0.without_first();
        Some(i)
    }
}

/// The bit indices of a `u128`, word by word: clearing the lowest bit
/// of one word is two instructions, of a `u128` five.
pub(crate) struct PairIter {
    word: u64,
    base: usize,
    high: u64,
}

impl Iterator for PairIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.word == 0 {
            if self.high == 0 {
                return None;
            }
            self.word = self.high;
            self.high = 0;
            self.base = 64;
        }
        let i = self.base + self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn laws<B: Bits + std::fmt::Debug>(words: usize, top: usize) {
        let s = B::single(0) | B::single(5) | B::single(top);
        assert_eq!((s.first(), s.last(), s.count()), (0, top, 3));
        assert_eq!(s.indices().collect::<Vec<_>>(), vec![0, 5, top]);
        assert_eq!(
            (s ^ B::single(5)).indices().collect::<Vec<_>>(),
            vec![0, top]
        );
        assert_eq!(B::single(top).indices().collect::<Vec<_>>(), vec![top]);
        assert_eq!(B::EMPTY.indices().next(), None);
        assert!(s.has(5) && !s.has(6));
        assert_eq!(s.low(), 1 | 1 << 5 | if top < 64 { 1 << top } else { 0 });
        assert_eq!(B::from_low(s.low()), s & B::from_low(!0));
        let mut store = [0; STORE_WORDS];
        for i in [0, 5, top] {
            store_insert(&mut store, i);
        }
        assert_eq!(B::load(&store), s);
        // A table of two entries: the second is the set.
        let mut table = vec![0; 2 * words];
        table[words..].copy_from_slice(&store[..words]);
        assert_eq!(B::at(&table, 1), s);
        assert!(B::at(&table, 0).is_empty());
        store_remove(&mut store, 5);
        assert_eq!(B::load(&store), s & !B::single(5));
        // Shifts carry across words and drop what leaves the set.
        let row = B::single(60) | B::single(3);
        let carried = if top >= 72 { B::single(72) } else { B::EMPTY };
        assert_eq!(row.up(12), carried | B::single(15));
        assert_eq!(row.down(4), B::single(56));
        if top >= 72 {
            assert_eq!((B::single(72) | B::single(1)).down(12), B::single(60));
        }
        // Cuts at the first and the last bit, against a bit-by-bit reading.
        let below = |i: usize| (0..=i).fold(B::EMPTY, |acc, j| acc | B::single(j));
        let above = |i: usize| (i..=top).fold(B::EMPTY, |acc, j| acc | B::single(j));
        let all = below(top);
        for set in [
            s,
            B::single(5) | B::single(top),
            B::single(top),
            B::single(63),
            B::single(64 % (top + 1)),
        ] {
            assert_eq!(set.first_and_below() & all, below(set.first()), "{set:?}");
            assert_eq!(set.last_and_above() & all, above(set.last()), "{set:?}");
        }
        assert_eq!(B::EMPTY.first_and_below() & all, all);
        assert_eq!(B::EMPTY.last_and_above() & all, all);
    }

    #[test]
    fn each_width_sets_scans_and_stores_alike() {
        laws::<u64>(1, 63);
        laws::<u128>(2, 127);
        laws::<Wide>(4, 255);
        laws::<Wide>(4, 130);
        assert_eq!(Width::for_area(64), Width::W64);
        assert_eq!(Width::for_area(96), Width::W128);
        assert_eq!(Width::for_area(144), Width::W256);
    }
}
