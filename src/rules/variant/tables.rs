//! Compiles a [`VariantDef`] into lookup tables for the move generator.

use super::{
    CastlingDef, CastlingSafety, CastlingSide, PieceDef, PromotionRule, Role, VariantDef,
    VariantDefError,
};
use crate::rules::bitboard::{Bits, STORE_WORDS, Store, Width, store_insert};
use crate::rules::castling::MAX_PARTNERS;
use crate::rules::geometry::{BoardSize, SQUARE_SPACE, Square};
use crate::rules::hash::{piece_key_formula, variant_key};
use crate::rules::movement::{Atom, Mode};
use crate::rules::piece::{Color, Piece, PieceKind};
use crate::rules::position::State;
use crate::rules::sliders::{DIAGONAL, ORTHOGONAL, Sliders};
use crate::rules::square_set::SquareSet;
use std::sync::OnceLock;

/// A slice of a flat square table: start and length.
#[derive(Clone, Copy, Default)]
pub(crate) struct Span {
    start: u32,
    len: u32,
}

/// One castling, compiled.
pub(crate) struct CompiledCastling {
    pub index: u8,
    pub king_from: Square,
    pub king_to: Square,
    /// Index of the partner among `color`'s partners.
    pub partner: u8,
    pub partner_from: Square,
    /// The partner's type.
    pub partner_kind: PieceKind,
    /// The king's required stage: `None` = never moved, `Some(sq)` = its only move went to `sq`.
    pub king_stage: Option<Square>,
    /// The partner's required stage, likewise.
    pub partner_stage: Option<Square>,
    /// Squares that must be empty (other than king and partner).
    pub empty: Vec<Square>,
    /// `empty` by bit index: tested at once against the occupancy.
    pub empty_bits: Store,
    /// Whether a rider could see the king's landing square through the
    /// square its partner leaves: a square lies beyond the partner's
    /// along the rank, away from the landing square (king and partner
    /// stand on one rank). Not so, the partner's leaving opens no line to
    /// the king.
    pub landing_exposed: bool,
    /// Squares that must not be attacked.
    pub safe: Vec<Square>,
}

pub(crate) struct Tables {
    pub def: VariantDef,
    pub size: BoardSize,
    pub king: PieceKind,
    pub pawn: PieceKind,
    pub kind_count: usize,
    /// Per ASCII letter `A`..=`Z`: the first kind written with it, or
    /// `u8::MAX` (reading a move looks its piece letter up here).
    pub kind_of_letter: [u8; 26],
    pub king_origin: [Square; 2],
    pub setup_counts: [[u8; 16]; 2],
    /// Per colour, per kind: (direction index, maximum steps, mode); the
    /// tests compare the look-ups with these rides walked.
    #[cfg(test)]
    pub rides: [Vec<Vec<(u8, u8, Mode)>>; 2],
    /// `rides` without those `slide_moves` looks up: the rides a written
    /// move's origins are still walked back along (on 8x8 boards the
    /// rook's and bishop's are looked up instead).
    pub walked_rides: [Vec<Vec<(u8, u8, Mode)>>; 2],
    /// Per colour, kind and bit index: the rides of `ride_steps` whose
    /// ray from there is not empty, resolved to that square (a piece by
    /// the edge meets no other): spans of `live_flat`.
    live_span: Vec<Span>,
    live_flat: Vec<LiveRide>,
    /// Per colour, kind and bit index: the squares a piece there could
    /// reach in one step (its leaps, the first squares of its rides). A
    /// piece whose every such square holds one of its own has no move,
    /// which is most pieces on a crowded back rank.
    step_sets: Vec<u64>,
    /// Per colour: the kinds whose every step (leap, or first square of a
    /// ride) lands next to their square, as the king's do.
    pub near_kinds: [u16; 2],
    pub dirs: Vec<(i8, i8)>,
    pub reverse: Vec<u8>,
    /// Per direction and square: the squares to the edge (the debug
    /// builds' reference attack test).
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    ray_flat: Vec<Square>,
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    ray_span: Vec<Span>,
    /// Per direction, per distance 0..=16: kinds riding that way at least that far.
    /// Per colour; only rides that capture (attack).
    pub ride_mask: [Vec<[u16; 17]>; 2],
    /// Per square: the squares a leaper could attack it from, with the
    /// kinds that can (the debug builds' reference attack test).
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    leap_attack_flat: Vec<(Square, u16)>,
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    leap_attack_span: Vec<Span>,
    /// Per colour: (file, rank) step of a pawn push, and its two captures.
    pub pawn_push: [i8; 2],
    /// Per colour: ranks (bit per rank) a pawn may double-step from.
    pub double_step: [u16; 2],
    /// Per colour: ranks (bit per rank) where pawns promote.
    pub promotion_zone: [u16; 2],
    pub last_rank: [u8; 2],
    /// Promotion by arrival square (R-CH-4), per colour and file.
    pub promote_on: [[Option<PieceKind>; 16]; 2],
    pub castlings: [Vec<CompiledCastling>; 2],
    /// Per colour: castling partners' setup squares.
    pub partners: [Vec<Square>; 2],
    /// Per colour: the partners' types, in the order of `partners`.
    pub partner_kinds: [Vec<PieceKind>; 2],
    pub has_stages: bool,
    pub special_attacks: Vec<(i8, i8)>,
    /// Kinds that have leaps (bit per kind).
    pub leapers: u16,
    /// The key's part for each piece on each square
    /// (`hash::piece_key_formula`), by the piece's board code and the
    /// square's bit index (`code * area + bit`): a move looks its keys up
    /// straight from the board.
    piece_keys: Vec<u64>,
    /// The key's part for the variant.
    pub variant_key: u64,
    /// Per colour: the squares where its castling partners may stand
    /// (origins and stage squares). A move that is not the king's, leaves
    /// none of the mover's and lands on none of the opponent's changes no
    /// castling progress.
    pub castling_touch: [SquareSet; 2],
    /// The narrowest square set the board fits (`bitboard` module).
    pub width: Width,
    /// Squares of the board.
    pub area: usize,
    /// Per packed square index (`Square::index`): its bit index
    /// `rank * files + file`.
    bit_of: [u8; SQUARE_SPACE],
    /// Per bit index: the square.
    pub square_at: Vec<Square>,
    /// Per direction: whether its steps raise the bit index.
    pub dir_up: Vec<bool>,
    /// Per direction and bit index: the squares from there to the edge
    /// (tables of sets are `width.words()` words per entry).
    ray_sets: Vec<u64>,
    /// Per direction and range below 15 used by some ride: which table of
    /// `ray_sets`, past the full rays, holds the rays cut to that range.
    near_sets: Vec<u16>,
    /// Per colour, mode, kind and bit index: the squares its leaps reach.
    leap_sets: Vec<u64>,
    /// Per colour, kind and bit index: the squares from which that kind
    /// of that colour captures there by a leap.
    leap_capture_from: Vec<u64>,
    /// Likewise for leaps to an empty square.
    leap_move_from: Vec<u64>,
    /// Per colour and bit index: the squares from which its pawn captures there.
    pawn_capture_from: Vec<u64>,
    /// Per colour and bit index: the squares its pawn captures from there.
    pawn_captures: Vec<u64>,
    /// Per colour and side (toward file a, toward the last file): the
    /// squares from which its pawn has that capture on the board.
    pawn_capture_sides: Vec<u64>,
    /// Every square of the board; then every square but those of the
    /// first file, and but those of the last file (three sets: the
    /// neighbour dilation cuts the steps that would wrap a rank).
    board_set: Vec<u64>,
    /// Per colour: the squares its pawns may double-step from.
    double_step_set: Vec<u64>,
    /// Per colour: the squares of its promotion zone.
    zone_set: Vec<u64>,
    /// Per colour and bit index: the squares from which some piece of
    /// that colour could attack there on an empty board (its pawns'
    /// captures, capturing leaps, capturing rides within their range).
    check_reach: Vec<u64>,
    /// Per colour: kinds that capture by a leap (bit per kind).
    pub leap_capture_kinds: [u16; 2],
    /// Per colour and kind: the modes (bit per mode number, as in
    /// [`Tables::leap_set`]) it has leaps of somewhere on the board.
    pub leap_modes: [[u8; 16]; 2],
    /// Per colour: its capturing rides, grouped for the reverse lookup,
    /// but those `slide_attackers` looks up.
    pub ride_groups: [Vec<RideGroup>; 2],
    /// The rook and bishop attack tables (`sliders` module), on an 8x8
    /// board where some kind rides all four orthogonal or all four
    /// diagonal directions without limit.
    pub sliders: Option<&'static Sliders>,
    /// Per colour and kind: the families of directions whose moves are
    /// looked up in `sliders` (bit 0 the orthogonal, bit 1 the diagonal;
    /// to empty squares and captures alike); its `live_rides` leave
    /// those rides out.
    pub slide_moves: [[u8; 16]; 2],
    /// Per colour: the kinds that capture along all four orthogonal
    /// directions without limit, and those along all four diagonal ones,
    /// looked up in `sliders` when asking whether a square is attacked.
    pub slide_attackers: [[u16; 2]; 2],
    /// Per colour: the directions from its king along which an enemy
    /// rider may attack it (where pins can be).
    pub pin_dirs: [Vec<u8>; 2],
    /// Per colour: the enemy kinds that ride toward its king along some
    /// of `pin_dirs` (bit per kind).
    pub pin_kinds_all: [u16; 2],
    /// Per colour and bit index of its king: the squares along `pin_dirs`
    /// (where a piece may be pinned).
    pin_lines: Vec<u64>,
    /// Per colour, bit index of its king and bit index of a square: the
    /// direction of `pin_dirs` whose ray from the king holds that square
    /// ([`PIN_NONE`] for none, [`PIN_SEVERAL`] where rays of several
    /// overlap, as steps of one and of two along a file would).
    pin_dir: Vec<u8>,
    /// The start position, made the first time it is asked for: each game
    /// read starts from a copy.
    pub start: OnceLock<State>,
    /// Whether the king is royal (`VariantDef::royal_king`).
    pub royal: bool,
    /// Whether a rule beyond moving pieces applies
    /// (`VariantDef::has_play_rules`): moves then take the generator's
    /// general path.
    pub play_rules: bool,
    /// Whether no waiting promotion and no king's special attack can make
    /// a plain move's check test look beyond the moved piece and the line
    /// it left: the variant's half of that test (`Position::gives_check`),
    /// asked on every move played.
    pub plain_check_test: bool,
    /// Whether the legal moves are found from sets (`rules/looked_up.rs`:
    /// perft's count and lists, whether a position in check has a move):
    /// an 8x8 board whose every attack and move is a pawn's, a leap or a
    /// looked-up ride, a royal king, no special king move, staged
    /// castling, waiting promotion or rule beyond moving pieces,
    /// promotions by choice and never to a king (the generation from sets
    /// moves one king).
    pub looked_up_count: bool,
    /// Where `looked_up_count`: per colour, each kind but the pawn, the
    /// king's last (the others' pieces are counted alike, the king's
    /// apart).
    pub counted_kinds: [Vec<CountedKind>; 2],
    /// The sets of `counted_kinds`, 64 per table (see [`CountedKind::base`]).
    pub counted_sets: Vec<u64>,
}

/// How one kind moves, for the generation from sets
/// (`rules/looked_up.rs`): one table read a set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CountedKind {
    pub kind: u8,
    /// Its looked-up rides ([`Tables::slide_moves`]).
    pub slides: u8,
    /// Whether it has leaps only to an empty square or only to capture.
    pub split: bool,
    /// Entry of bit 0 in `counted_sets` of its leaps to any square; those
    /// to an empty square only follow 64 entries on, those to capture
    /// only 128, and at 192 the squares it could step to first
    /// ([`KindMoves::step_set`]).
    pub base: u32,
}

/// The offsets from [`CountedKind::base`] of its tables.
pub(crate) const COUNTED_MOVE_ONLY: usize = 64;
pub(crate) const COUNTED_CAPTURE_ONLY: usize = 128;
pub(crate) const COUNTED_STEPS: usize = 192;

/// [`Tables::pin_dir`]: the square is on no ray a rider could pin along.
pub(crate) const PIN_NONE: u8 = u8::MAX;
/// [`Tables::pin_dir`]: the square is on several such rays.
pub(crate) const PIN_SEVERAL: u8 = u8::MAX - 1;

/// Riders of some kinds that attack a square along any of some directions
/// within the same range: a square is attacked by them when the ride from
/// it in a reversed direction first meets one of them.
pub(crate) struct RideGroup {
    /// Directions to ride from the attacked square (the reversed rides).
    pub dirs: Vec<u8>,
    /// Longest ride (15: to the edge of any board).
    pub max: u8,
    /// The kinds (bit per kind).
    pub kinds: u16,
    /// Per bit index: the squares these rides reach from there on an
    /// empty board (a rider elsewhere cannot attack there).
    lines: Vec<u64>,
}

impl RideGroup {
    /// The squares the group's rides reach from bit `i` on an empty board.
    #[inline]
    pub fn lines<B: Bits>(&self, i: usize) -> B {
        B::at(&self.lines, i)
    }
}

/// [`Tables::kind_of_letter`]: the first kind with each ASCII letter.
fn letter_table(def: &VariantDef) -> [u8; 26] {
    let mut table = [u8::MAX; 26];
    for (k, piece) in def.pieces.iter().enumerate() {
        if piece.letter.is_ascii_uppercase() {
            let slot = &mut table[usize::from(piece.letter as u8 - b'A')];
            if *slot == u8::MAX {
                *slot = k as u8;
            }
        }
    }
    table
}

/// Sets bit `i` of entry `at` of a table of `words`-word sets.
fn table_insert(table: &mut [u64], words: usize, at: usize, i: usize) {
    table[at * words + (i >> 6)] |= 1u64 << (i & 63);
}

/// One ride of a kind, for the generator: where its rays are and how
/// the first piece met cuts them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RideStep {
    /// Index in `ray_sets` of the ray from bit 0 (the ray from bit `i`
    /// is `i` entries further): the full rays, or those cut to the
    /// ride's range.
    pub base: u32,
    /// Whether the steps raise the bit index.
    pub up: bool,
    /// Where it may land: 0 empty or enemy, 1 empty, 2 enemy (the order
    /// of [`Mode`]'s variants as the generator's `onto` holds them).
    pub onto: u8,
    /// Bit-index distance of one step (signed): the first square of a
    /// live ride from bit `i` is bit `i + delta`.
    pub delta: i16,
}

/// The move tables of one kind of one colour, per bit index.
pub(crate) struct KindMoves<'t> {
    tables: &'t Tables,
    /// Entry of bit 0 in `step_sets` and `live_span`.
    base: usize,
    /// Entry of bit 0 in `leap_sets` for mode 0 (the other modes follow
    /// at strides of `kind_count * area`).
    leaps: usize,
}

impl<'t> KindMoves<'t> {
    /// The squares a piece on bit `i` could reach in one step (by a leap,
    /// or as the first square of a ride).
    #[inline]
    pub fn step_set<B: Bits>(&self, i: usize) -> B {
        B::at(&self.tables.step_sets, self.base + i)
    }

    /// The squares a piece on bit `i` leaps to with atoms of mode number
    /// `mode` (0 any, 1 move only, 2 capture only).
    #[inline]
    pub fn leap_set<B: Bits>(&self, mode: usize, i: usize) -> B {
        let stride = self.tables.kind_count * self.tables.area;
        B::at(&self.tables.leap_sets, self.leaps + mode * stride + i)
    }

    /// The rides from bit `i` whose ray is not empty.
    #[inline]
    pub fn live_rides(&self, i: usize) -> &'t [LiveRide] {
        let s = self.tables.live_span[self.base + i];
        &self.tables.live_flat[s.start as usize..(s.start + s.len) as usize]
    }
}

/// A ride from one square whose ray is not empty, for the generator.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LiveRide {
    /// Index in `ray_sets` of the ray from that square.
    pub ray: u32,
    /// Bit index of the first square of the ray.
    pub first: u16,
    /// As [`RideStep::up`].
    pub up: bool,
    /// As [`RideStep::onto`].
    pub onto: u8,
}

/// Board codes of pieces (`Piece::code`), 0 (empty) included.
const PIECE_CODES: usize = 33;

#[inline]
fn piece_key_index(size: BoardSize, sq: Square, code: u8) -> usize {
    let dense = usize::from(sq.rank()) * usize::from(size.files) + usize::from(sq.file());
    usize::from(code) * size.area() + dense
}

fn rank_bits(ranks: &[u8], map: impl Fn(u8) -> u8) -> u16 {
    ranks
        .iter()
        .filter(|&&r| r < 16)
        .fold(0, |bits, &r| bits | 1 << map(r))
}

fn mode_index(mode: Mode) -> usize {
    match mode {
        Mode::Any => 0,
        Mode::MoveOnly => 1,
        Mode::CaptureOnly => 2,
    }
}

fn leap_index(color: usize, mode: usize, kinds: usize, kind: usize, sq: Square) -> usize {
    ((color * 3 + mode) * kinds + kind) * SQUARE_SPACE + sq.index()
}

fn push_span(flat: &mut Vec<Square>, items: impl IntoIterator<Item = Square>) -> Span {
    let start = flat.len() as u32;
    flat.extend(items);
    Span {
        start,
        len: flat.len() as u32 - start,
    }
}

/// `off` as colour `ci` sees it: Black sees White's offsets mirrored in rank.
fn colour_view(ci: usize, (f, r): (i8, i8)) -> (i8, i8) {
    if ci == 0 { (f, r) } else { (f, -r) }
}

/// The king's kind and the pawn's, once the pieces are checked: 1 to 15
/// kinds, one king, one pawn, no letter given twice.
fn royal_kinds(def: &VariantDef) -> Result<(PieceKind, PieceKind), VariantDefError> {
    let n = def.pieces.len();
    if n == 0 || n > 15 {
        return Err(VariantDefError::PieceCount(n));
    }
    let role = |r: Role| def.pieces.iter().filter(|p| p.role == r).count();
    if role(Role::King) != 1 || role(Role::Pawn) != 1 {
        return Err(VariantDefError::Roles);
    }
    for (i, p) in def.pieces.iter().enumerate() {
        if def.pieces[..i].iter().any(|q| q.letter == p.letter) {
            return Err(VariantDefError::DuplicateLetter(p.letter));
        }
    }
    let kind_of =
        |r: Role| PieceKind(def.pieces.iter().position(|p| p.role == r).unwrap_or(0) as u8);
    Ok((kind_of(Role::King), kind_of(Role::Pawn)))
}

/// Per colour: the king's setup square, and the count of each kind in the
/// setup, once the setup is checked (its squares on the board, none
/// twice, one king of each colour).
fn setup_summary(
    def: &VariantDef,
    king: PieceKind,
) -> Result<([Square; 2], [[u8; 16]; 2]), VariantDefError> {
    let n = def.pieces.len();
    let mut seen = SquareSet::EMPTY;
    let mut king_origin = [None, None];
    let mut setup_counts = [[0u8; 16]; 2];
    for &(sq, p) in &def.setup {
        if !def.size.contains(sq) || seen.contains(sq) || p.kind.index() >= n {
            return Err(VariantDefError::BadSetupSquare(sq));
        }
        seen.insert(sq);
        setup_counts[p.color.index()][p.kind.index()] += 1;
        if p.kind == king {
            if king_origin[p.color.index()].is_some() && def.royal_king {
                return Err(VariantDefError::SetupKings);
            }
            king_origin[p.color.index()].get_or_insert(sq);
        }
    }
    // A king that starts in hand (a placement phase), or that a side
    // kingless in the setup has in a position string, has its castling
    // square as its origin, or its first rank's first square.
    let in_hand = |c: Color| {
        def.hand.as_ref().is_some_and(|h| {
            h.start.contains(&Piece {
                color: c,
                kind: king,
            })
        })
    };
    for c in Color::BOTH {
        if king_origin[c.index()].is_none() && (in_hand(c) || def.kingless[c.index()]) {
            let first = if c == Color::White {
                0
            } else {
                def.size.ranks - 1
            };
            let castling = def.castling.iter().find(|d| d.color == c);
            king_origin[c.index()] = Some(castling.map_or(Square::new(0, first), |d| d.king_from));
        }
    }
    if !def.royal_king || def.kingless.iter().any(|&k| k) {
        // A king that is not royal is an ordinary piece: any number of
        // them, its origin only where castling needs one.
        let origin = |c: usize, rank: u8| king_origin[c].unwrap_or(Square::new(0, rank));
        return Ok(([origin(0, 0), origin(1, def.size.ranks - 1)], setup_counts));
    }
    let (Some(wk), Some(bk)) = (king_origin[0], king_origin[1]) else {
        return Err(VariantDefError::SetupKings);
    };
    Ok(([wk, bk], setup_counts))
}

/// Every rider direction (both colours' views) and its reverse, once the
/// offsets of every leap and ride are checked.
fn ride_directions(def: &VariantDef) -> Result<Vec<(i8, i8)>, VariantDefError> {
    let bad = |o: &[(i8, i8)]| {
        o.iter()
            .any(|&(f, r)| (f, r) == (0, 0) || f.abs() > 15 || r.abs() > 15)
    };
    let mut dirs: Vec<(i8, i8)> = Vec::new();
    for p in &def.pieces {
        for atom in &p.movement.0 {
            match atom {
                Atom::Ride { directions, .. } => {
                    if bad(directions) {
                        return Err(VariantDefError::BadOffset(p.name.clone()));
                    }
                    for &(df, dr) in directions {
                        for d in [(df, dr), (-df, -dr), (df, -dr), (-df, dr)] {
                            if !dirs.contains(&d) {
                                dirs.push(d);
                            }
                        }
                    }
                }
                Atom::Leap { offsets, .. } => {
                    if bad(offsets) {
                        return Err(VariantDefError::BadOffset(p.name.clone()));
                    }
                }
            }
        }
    }
    Ok(dirs)
}

/// The board as the tables index it: bit indices of squares, the ride
/// directions and the rays along them.
struct Geometry {
    size: BoardSize,
    area: usize,
    width: Width,
    words: usize,
    bit_of: [u8; SQUARE_SPACE],
    square_at: Vec<Square>,
    dirs: Vec<(i8, i8)>,
    reverse: Vec<u8>,
    dir_up: Vec<bool>,
    ray_flat: Vec<Square>,
    ray_span: Vec<Span>,
}

impl Geometry {
    /// The geometry of a board of `size` ridden along `dirs`.
    fn new(size: BoardSize, dirs: Vec<(i8, i8)>) -> Geometry {
        let reverse: Vec<u8> = dirs
            .iter()
            .map(|&(f, r)| dirs.iter().position(|&d| d == (-f, -r)).unwrap_or(0) as u8)
            .collect();
        let mut ray_flat = Vec::new();
        let mut ray_span = vec![Span::default(); dirs.len() * SQUARE_SPACE];
        for (d, &(df, dr)) in dirs.iter().enumerate() {
            for sq in size.squares() {
                let mut ray = Vec::new();
                let mut cur = sq;
                while let Some(next) = size.offset(cur, df, dr) {
                    ray.push(next);
                    cur = next;
                }
                ray_span[d * SQUARE_SPACE + sq.index()] = push_span(&mut ray_flat, ray);
            }
        }
        let area = usize::from(size.files) * usize::from(size.ranks);
        let width = Width::for_area(area);
        let mut bit_of = [0u8; SQUARE_SPACE];
        let square_at: Vec<Square> = size.squares().collect();
        for (i, sq) in square_at.iter().enumerate() {
            bit_of[sq.index()] = i as u8;
        }
        let dir_up: Vec<bool> = dirs
            .iter()
            .map(|&(f, r)| i16::from(r) * i16::from(size.files) + i16::from(f) > 0)
            .collect();
        Geometry {
            size,
            area,
            width,
            words: width.words(),
            bit_of,
            square_at,
            dirs,
            reverse,
            dir_up,
            ray_flat,
            ray_span,
        }
    }

    /// The squares from `sq` to the edge in direction `d`, nearest first.
    fn ray(&self, d: usize, sq: Square) -> &[Square] {
        let s = self.ray_span[d * SQUARE_SPACE + sq.index()];
        &self.ray_flat[s.start as usize..(s.start + s.len) as usize]
    }

    /// The bit index of `sq`.
    fn bit(&self, sq: Square) -> usize {
        usize::from(self.bit_of[sq.index()])
    }

    /// Adds to entry `at` of `table` the first `max` squares of the ray
    /// from `sq` in direction `d`.
    fn insert_ray(&self, table: &mut [u64], at: usize, d: usize, sq: Square, max: usize) {
        for r in self.ray(d, sq).iter().take(max) {
            table_insert(table, self.words, at, self.bit(*r));
        }
    }
}

/// Per colour and kind: (direction index, maximum steps, mode) of each ride.
type Rides = [Vec<Vec<(u8, u8, Mode)>>; 2];

/// The leaps and rides of every kind but the pawn, as each colour sees
/// them.
struct PieceMoves {
    /// Per colour, mode, kind and square: the squares its leaps reach
    /// (spans of `leap_flat`).
    leap_flat: Vec<Square>,
    leap_span: Vec<Span>,
    rides: Rides,
    ride_mask: [Vec<[u16; 17]>; 2],
    leap_attack_flat: Vec<(Square, u16)>,
    leap_attack_span: Vec<Span>,
    leapers: u16,
}

/// Per target square, the squares leapers reach it from with the kinds
/// that can: per colour those that capture there, then per colour those
/// that move there when it is empty.
type LeapSources = [Vec<Vec<(Square, u16)>>; 4];

impl PieceMoves {
    /// Compiles the leaps and rides of `def`'s kinds on `geo`.
    fn compile(def: &VariantDef, geo: &Geometry) -> PieceMoves {
        let n = def.pieces.len();
        let mut moves = PieceMoves {
            leap_flat: Vec::new(),
            leap_span: vec![Span::default(); 2 * 3 * n * SQUARE_SPACE],
            rides: [vec![Vec::new(); n], vec![Vec::new(); n]],
            ride_mask: [
                vec![[0u16; 17]; geo.dirs.len()],
                vec![[0u16; 17]; geo.dirs.len()],
            ],
            leap_attack_flat: Vec::new(),
            leap_attack_span: vec![Span::default(); 4 * SQUARE_SPACE],
            leapers: 0,
        };
        let mut sources: LeapSources = std::array::from_fn(|_| vec![Vec::new(); SQUARE_SPACE]);
        for (k, p) in def.pieces.iter().enumerate() {
            if p.role == Role::Pawn {
                continue;
            }
            if p.movement
                .0
                .iter()
                .any(|a| matches!(a, Atom::Leap { offsets, .. } if !offsets.is_empty()))
            {
                moves.leapers |= 1 << k;
            }
            for ci in 0..2 {
                moves.add_rides(p, ci, k, &geo.dirs);
                for (mi, list) in leap_offsets(p, ci).iter().enumerate() {
                    moves.add_leaps(geo.size, (ci, mi, k), list, &mut sources);
                }
            }
        }
        for (t, table) in sources.into_iter().enumerate() {
            for (i, list) in table.into_iter().enumerate() {
                let start = moves.leap_attack_flat.len() as u32;
                moves.leap_attack_flat.extend(list);
                moves.leap_attack_span[t * SQUARE_SPACE + i] = Span {
                    start,
                    len: moves.leap_attack_flat.len() as u32 - start,
                };
            }
        }
        moves
    }

    /// Adds the rides of `p`, kind `k`, as colour `ci` sees them.
    fn add_rides(&mut self, p: &PieceDef, ci: usize, k: usize, dirs: &[(i8, i8)]) {
        for atom in &p.movement.0 {
            let Atom::Ride {
                directions,
                max,
                mode,
            } = atom
            else {
                continue;
            };
            let max = max.unwrap_or(15).min(15);
            for &d in directions {
                let d = colour_view(ci, d);
                let di = dirs.iter().position(|x| *x == d).unwrap_or(0) as u8;
                self.rides[ci][k].push((di, max, *mode));
                if mode.captures() {
                    for mask in &mut self.ride_mask[ci][di as usize][1..=max as usize] {
                        *mask |= 1 << k;
                    }
                }
            }
        }
    }

    /// Adds the leaps by `offsets` of colour `ci`, mode number `mi`, kind
    /// `k` from every square, and notes them in `sources`.
    fn add_leaps(
        &mut self,
        size: BoardSize,
        (ci, mi, k): (usize, usize, usize),
        offsets: &[(i8, i8)],
        sources: &mut LeapSources,
    ) {
        let n = self.rides[ci].len();
        for sq in size.squares() {
            let targets: Vec<Square> = offsets
                .iter()
                .filter_map(|&(f, r)| size.offset(sq, f, r))
                .collect();
            for &t in &targets {
                if mi != 1 {
                    note_leaper(&mut sources[ci][t.index()], sq, k);
                }
                if mi != 2 {
                    note_leaper(&mut sources[2 + ci][t.index()], sq, k);
                }
            }
            self.leap_span[leap_index(ci, mi, n, k, sq)] = push_span(&mut self.leap_flat, targets);
        }
    }

    /// The squares colour `ci`'s kind `k` leaps to from `sq` with atoms of
    /// mode number `mi`.
    fn leaps(&self, ci: usize, mi: usize, k: usize, sq: Square) -> &[Square] {
        let sp = self.leap_span[leap_index(ci, mi, self.rides[ci].len(), k, sq)];
        &self.leap_flat[sp.start as usize..(sp.start + sp.len) as usize]
    }
}

/// The leap offsets of `p` as colour `ci` sees them, per mode number
/// (any, move only, capture only), each once.
fn leap_offsets(p: &PieceDef, ci: usize) -> [Vec<(i8, i8)>; 3] {
    let mut offsets: [Vec<(i8, i8)>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for atom in &p.movement.0 {
        if let Atom::Leap { offsets: o, mode } = atom {
            let list = &mut offsets[mode_index(*mode)];
            for &off in o {
                let off = colour_view(ci, off);
                if !list.contains(&off) {
                    list.push(off);
                }
            }
        }
    }
    offsets
}

/// Notes in the sources of a target square that kind `k` leaps there
/// from `sq`.
fn note_leaper(list: &mut Vec<(Square, u16)>, sq: Square, k: usize) {
    match list.iter_mut().find(|(s, _)| *s == sq) {
        Some(entry) => entry.1 |= 1 << k,
        None => list.push((sq, 1 << k)),
    }
}

/// Promotion by arrival square (R-CH-4): per colour and file, the type a
/// pawn arriving on the last rank there takes.
fn promotion_by_square(def: &VariantDef, king: PieceKind) -> [[Option<PieceKind>; 16]; 2] {
    let top = def.size.ranks - 1;
    let mut promote_on = [[None; 16]; 2];
    if let PromotionRule::SetupSquare { on_king_square } = def.pawns.promotion {
        for &(sq, p) in &def.setup {
            // A pawn of the other colour arriving here takes this type.
            let arriving = p.color.other();
            if sq.rank() == [top, 0][arriving.index()] {
                promote_on[arriving.index()][sq.file() as usize] = Some(if p.kind == king {
                    on_king_square
                } else {
                    p.kind
                });
            }
        }
    }
    promote_on
}

/// Appends to `def.castling` the castlings free castling allows (each
/// king file with each other partner file, for each colour that has it);
/// returns the index of the first of them.
fn add_free_castlings(
    def: &mut VariantDef,
    king_origin: [Square; 2],
) -> Result<usize, VariantDefError> {
    let first = def.castling.len();
    let Some(free) = &def.free_castling else {
        return Ok(first);
    };
    let files = def.size.files;
    if usize::from(files) * usize::from(files - 1) * 2 + def.castling.len() > 255 {
        return Err(VariantDefError::TooManyCastlings);
    }
    for color in [Color::White, Color::Black] {
        if !free.colors[color.index()] {
            continue;
        }
        let rank = king_origin[color.index()].rank();
        for kf in 0..files {
            for pf in (0..files).filter(|&f| f != kf) {
                let (side, i) = if pf > kf {
                    (CastlingSide::Short, 0)
                } else {
                    (CastlingSide::Long, 1)
                };
                def.castling.push(CastlingDef {
                    color,
                    side,
                    king_from: Square::new(kf, rank),
                    king_to: Square::new(free.king_files[i], rank),
                    partner_origin: Square::new(pf, rank),
                    partner_from: Square::new(pf, rank),
                    partner_to: Square::new(free.partner_files[i], rank),
                    safety: CastlingSafety::KingPath,
                    partner_kind: None,
                    rule: free.rule.clone(),
                });
            }
        }
    }
    Ok(first)
}

/// The castlings compiled per colour, with the partners they move.
struct CastlingTables {
    castlings: [Vec<CompiledCastling>; 2],
    partners: [Vec<Square>; 2],
    partner_kinds: [Vec<PieceKind>; 2],
    has_stages: bool,
    castling_touch: [SquareSet; 2],
}

/// Compiles `def.castling` (those from `free_from` on are free castling's),
/// checking each partner and square.
fn compile_castlings(
    def: &VariantDef,
    geo: &Geometry,
    king_origin: [Square; 2],
    (king, pawn): (PieceKind, PieceKind),
    free_from: usize,
) -> Result<CastlingTables, VariantDefError> {
    let mut t = CastlingTables {
        castlings: [Vec::new(), Vec::new()],
        partners: [Vec::new(), Vec::new()],
        partner_kinds: [Vec::new(), Vec::new()],
        has_stages: false,
        castling_touch: [SquareSet::EMPTY; 2],
    };
    let occupant = |sq: Square| def.setup.iter().find(|(s, _)| *s == sq).map(|(_, p)| *p);
    for (index, c) in def.castling.iter().enumerate() {
        let ci = c.color.index();
        let origin = king_origin[ci];
        let partner_kind = match (&def.free_castling, occupant(c.partner_origin)) {
            (Some(free), _) if index >= free_from => free.partner,
            (_, Some(p)) if p.color == c.color && p.kind != king && p.kind != pawn => p.kind,
            // Named where the origin is empty (the partner starts in
            // hand) or not the side's own army (a kingless side's).
            (_, None) if c.partner_kind.is_some() => c.partner_kind.unwrap_or(king),
            (_, Some(p)) if c.partner_kind.is_some() && def.kingless[ci] && p.color == c.color => {
                c.partner_kind.unwrap_or(p.kind)
            }
            _ => return Err(VariantDefError::BadCastling(c.rule.clone())),
        };
        let on_back_rank = |s: Square| def.size.contains(s) && s.rank() == origin.rank();
        if ![c.king_from, c.king_to, c.partner_from, c.partner_to]
            .into_iter()
            .all(on_back_rank)
        {
            return Err(VariantDefError::BadCastling(c.rule.clone()));
        }
        let partner = match t.partners[ci].iter().position(|&s| s == c.partner_origin) {
            Some(i) => i,
            None => {
                if t.partners[ci].len() == MAX_PARTNERS {
                    return Err(VariantDefError::BadCastling(c.rule.clone()));
                }
                t.partners[ci].push(c.partner_origin);
                t.partner_kinds[ci].push(partner_kind);
                t.partners[ci].len() - 1
            }
        };
        let free = index >= free_from;
        let king_stage = (c.king_from != origin && !free).then_some(c.king_from);
        let partner_stage = (c.partner_from != c.partner_origin).then_some(c.partner_from);
        t.has_stages |= king_stage.is_some() || partner_stage.is_some();
        let (empty, safe) = castling_squares(c);
        let mut empty_bits = [0; STORE_WORDS];
        for s in &empty {
            store_insert(&mut empty_bits, usize::from(geo.bit_of[s.index()]));
        }
        let beyond = match c.partner_from.file().cmp(&c.king_to.file()) {
            std::cmp::Ordering::Less => def.size.offset(c.partner_from, -1, 0),
            std::cmp::Ordering::Greater => def.size.offset(c.partner_from, 1, 0),
            std::cmp::Ordering::Equal => None,
        };
        t.castlings[ci].push(CompiledCastling {
            index: index as u8,
            king_from: c.king_from,
            king_to: c.king_to,
            partner: partner as u8,
            partner_from: c.partner_from,
            partner_kind,
            king_stage,
            partner_stage,
            empty,
            empty_bits,
            landing_exposed: beyond.is_some(),
            safe,
        });
    }
    for c in &def.castling {
        let touch = &mut t.castling_touch[c.color.index()];
        touch.insert(c.partner_origin);
        touch.insert(c.partner_from);
    }
    Ok(t)
}

/// [`Tables::piece_keys`] for the `n` kinds of a board of `size`.
fn piece_key_table(size: BoardSize, n: usize) -> Vec<u64> {
    let area = usize::from(size.files) * usize::from(size.ranks);
    let mut piece_keys = vec![0; PIECE_CODES * area];
    for color in Color::BOTH {
        for k in 0..n {
            let p = Piece {
                color,
                kind: PieceKind(k as u8),
            };
            for sq in size.squares() {
                piece_keys[piece_key_index(size, sq, p.code())] = piece_key_formula(sq, p);
            }
        }
    }
    piece_keys
}

/// [`Tables::ray_sets`] (the full rays, then the rays cut to each range a
/// limited ride uses) and [`Tables::near_sets`].
fn ray_set_tables(geo: &Geometry, rides: &Rides) -> (Vec<u64>, Vec<u16>) {
    let (area, words) = (geo.area, geo.words);
    let mut ray_sets = vec![0u64; geo.dirs.len() * area * words];
    for d in 0..geo.dirs.len() {
        for (i, &sq) in geo.square_at.iter().enumerate() {
            geo.insert_ray(&mut ray_sets, d * area + i, d, sq, usize::MAX);
        }
    }
    // Rays cut to the ranges limited rides use follow the full
    // rays; the first of them is empty (a range of 0 reaches nothing).
    let empty_rays = geo.dirs.len();
    ray_sets.resize(ray_sets.len() + area * words, 0);
    let mut near_sets = vec![empty_rays as u16; geo.dirs.len() * 16];
    for &(d, max, _) in rides.iter().flatten().flatten() {
        let slot = usize::from(d) * 16 + usize::from(max);
        if max >= 15 || max == 0 || usize::from(near_sets[slot]) != empty_rays {
            continue;
        }
        let id = ray_sets.len() / (area * words);
        near_sets[slot] = id as u16;
        ray_sets.resize(ray_sets.len() + area * words, 0);
        for (i, &sq) in geo.square_at.iter().enumerate() {
            geo.insert_ray(
                &mut ray_sets,
                id * area + i,
                usize::from(d),
                sq,
                usize::from(max),
            );
        }
    }
    (ray_sets, near_sets)
}

/// The leaps as square sets, forward and backward.
struct LeapSets {
    leap_sets: Vec<u64>,
    leap_capture_from: Vec<u64>,
    leap_move_from: Vec<u64>,
    leap_capture_kinds: [u16; 2],
    leap_modes: [[u8; 16]; 2],
}

/// Turns the leaps of `moves` into [`LeapSets`].
fn leap_set_tables(geo: &Geometry, moves: &PieceMoves, n: usize) -> LeapSets {
    let (area, words) = (geo.area, geo.words);
    let mut t = LeapSets {
        leap_sets: vec![0u64; 2 * 3 * n * area * words],
        leap_capture_from: vec![0u64; 2 * n * area * words],
        leap_move_from: vec![0u64; 2 * n * area * words],
        leap_capture_kinds: [0u16; 2],
        leap_modes: [[0u8; 16]; 2],
    };
    for ci in 0..2 {
        for mi in 0..3 {
            for k in 0..n {
                for (i, &sq) in geo.square_at.iter().enumerate() {
                    let leaps = moves.leaps(ci, mi, k, sq);
                    if !leaps.is_empty() {
                        t.leap_modes[ci][k] |= 1 << mi;
                    }
                    for target in leaps {
                        let ti = geo.bit(*target);
                        let from = ((ci * 3 + mi) * n + k) * area + i;
                        table_insert(&mut t.leap_sets, words, from, ti);
                        if mi != 1 {
                            let to = (ci * n + k) * area + ti;
                            table_insert(&mut t.leap_capture_from, words, to, i);
                            t.leap_capture_kinds[ci] |= 1 << k;
                        }
                        if mi != 2 {
                            let to = (ci * n + k) * area + ti;
                            table_insert(&mut t.leap_move_from, words, to, i);
                        }
                    }
                }
            }
        }
    }
    t
}

/// The pawns' captures as square sets.
struct PawnCaptureSets {
    pawn_capture_from: Vec<u64>,
    pawn_captures: Vec<u64>,
    pawn_capture_sides: Vec<u64>,
}

/// [`PawnCaptureSets`] on `geo`'s board.
fn pawn_capture_tables(geo: &Geometry) -> PawnCaptureSets {
    let (area, words) = (geo.area, geo.words);
    let mut t = PawnCaptureSets {
        pawn_capture_from: vec![0u64; 2 * area * words],
        pawn_captures: vec![0u64; 2 * area * words],
        pawn_capture_sides: vec![0u64; 4 * words],
    };
    for (ci, push) in [1i8, -1].into_iter().enumerate() {
        for (i, &sq) in geo.square_at.iter().enumerate() {
            for (side, df) in [-1, 1].into_iter().enumerate() {
                if let Some(target) = geo.size.offset(sq, df, push) {
                    let ti = geo.bit(target);
                    table_insert(&mut t.pawn_captures, words, ci * area + i, ti);
                    table_insert(&mut t.pawn_capture_from, words, ci * area + ti, i);
                    table_insert(&mut t.pawn_capture_sides, words, ci * 2 + side, i);
                }
            }
        }
    }
    t
}

/// Per colour, ranks as bits: those its pawns may double-step from, and
/// those of its promotion zone.
fn pawn_rank_bits(def: &VariantDef) -> ([u16; 2], [u16; 2]) {
    let top = def.size.ranks - 1;
    let zone: Vec<u8> = if matches!(def.pawns.promotion, PromotionRule::InPlace { .. }) {
        // No promotion on arrival: a pawn may stand on its last rank.
        Vec::new()
    } else if def.pawns.promotion_ranks.is_empty() {
        vec![top]
    } else {
        def.pawns.promotion_ranks.clone()
    };
    let double_step = [
        rank_bits(&def.pawns.double_step_ranks, |r| r),
        rank_bits(
            def.pawns
                .double_step_ranks_black
                .as_ref()
                .unwrap_or(&def.pawns.double_step_ranks),
            |r| top - r,
        ),
    ];
    let promotion_zone = [rank_bits(&zone, |r| r), rank_bits(&zone, |r| top - r)];
    (double_step, promotion_zone)
}

/// [`Tables::board_set`], [`Tables::double_step_set`] and
/// [`Tables::zone_set`], from the rank bits of [`pawn_rank_bits`].
fn board_set_tables(
    geo: &Geometry,
    double_step: [u16; 2],
    promotion_zone: [u16; 2],
) -> [Vec<u64>; 3] {
    let words = geo.words;
    let mut board_set = vec![0u64; 3 * words];
    let mut double_step_set = vec![0u64; 2 * words];
    let mut zone_set = vec![0u64; 2 * words];
    for (i, sq) in geo.square_at.iter().enumerate() {
        table_insert(&mut board_set, words, 0, i);
        if sq.file() != 0 {
            table_insert(&mut board_set, words, 1, i);
        }
        if sq.file() + 1 != geo.size.files {
            table_insert(&mut board_set, words, 2, i);
        }
        for ci in 0..2 {
            if double_step[ci] & (1 << sq.rank()) != 0 {
                table_insert(&mut double_step_set, words, ci, i);
            }
            if promotion_zone[ci] & (1 << sq.rank()) != 0 {
                table_insert(&mut zone_set, words, ci, i);
            }
        }
    }
    [board_set, double_step_set, zone_set]
}

/// The capturing rides grouped for the reverse lookup, and where they
/// may pin.
struct RideGroups {
    ride_groups: [Vec<RideGroup>; 2],
    /// Per colour: the directions from its king along which an enemy
    /// rider may attack it.
    pin_dirs: [Vec<u8>; 2],
    /// Per colour: the enemy kinds that may pin its pieces.
    pin_kinds_all: [u16; 2],
}

/// Groups each colour's capturing rides by reversed direction and range
/// ([`Tables::ride_groups`]), and finds where they may pin.
fn ride_group_tables(geo: &Geometry, rides: &Rides) -> RideGroups {
    let mut t = RideGroups {
        ride_groups: [Vec::new(), Vec::new()],
        pin_kinds_all: [0u16; 2],
        pin_dirs: [Vec::new(), Vec::new()],
    };
    for (ci, kinds_rides) in rides.iter().enumerate() {
        // (reversed direction, range) -> kinds riding that way.
        let mut reach: Vec<(u8, u8, u16)> = Vec::new();
        for (k, list) in kinds_rides.iter().enumerate() {
            for &(d, max, mode) in list {
                if !mode.captures() {
                    continue;
                }
                let rd = geo.reverse[d as usize];
                match reach.iter_mut().find(|e| e.0 == rd && e.1 == max) {
                    Some(e) => e.2 |= 1 << k,
                    None => reach.push((rd, max, 1 << k)),
                }
            }
        }
        for (rd, max, kinds) in reach {
            match t.ride_groups[ci]
                .iter_mut()
                .find(|g| g.max == max && g.kinds == kinds)
            {
                Some(g) => g.dirs.push(rd),
                None => t.ride_groups[ci].push(RideGroup {
                    dirs: vec![rd],
                    max,
                    kinds,
                    lines: Vec::new(),
                }),
            }
            // The king of the other colour may be pinned along `rd`.
            if !t.pin_dirs[1 - ci].contains(&rd) {
                t.pin_dirs[1 - ci].push(rd);
            }
            t.pin_kinds_all[1 - ci] |= kinds;
        }
        for g in &mut t.ride_groups[ci] {
            g.lines = vec![0; geo.area * geo.words];
            for (i, &sq) in geo.square_at.iter().enumerate() {
                for &d in &g.dirs {
                    geo.insert_ray(&mut g.lines, i, usize::from(d), sq, usize::from(g.max));
                }
            }
        }
    }
    t
}

/// The rides the 8x8 look-up tables take over ([`Tables::sliders`]).
struct Slides {
    sliders: Option<&'static Sliders>,
    /// [`Tables::slide_moves`].
    moves: [[u8; 16]; 2],
    /// [`Tables::slide_attackers`].
    attackers: [[u16; 2]; 2],
    /// The rides without those whose moves are looked up.
    move_rides: Rides,
    /// The rides without those whose captures are looked up.
    attack_rides: Rides,
}

/// Finds, on an 8x8 board, the kinds that ride all four orthogonal or
/// all four diagonal directions without limit, whose rides the look-up
/// tables then answer: every other board, and every other ride, keeps
/// the generic ray code.
fn looked_up_slides(geo: &Geometry, rides: &Rides) -> Slides {
    let mut s = Slides {
        sliders: None,
        moves: [[0; 16]; 2],
        attackers: [[0; 2]; 2],
        move_rides: rides.clone(),
        attack_rides: rides.clone(),
    };
    if geo.size != BoardSize::new(8, 8) {
        return s;
    }
    let family = |steps: [(i8, i8); 4]| {
        steps
            .iter()
            .map(|step| geo.dirs.iter().position(|d| d == step).map(|d| d as u8))
            .collect::<Option<Vec<u8>>>()
    };
    let families = [family(ORTHOGONAL), family(DIAGONAL)];
    for (ci, kinds) in rides.iter().enumerate() {
        for (k, list) in kinds.iter().enumerate() {
            for (f, dirs) in families.iter().enumerate() {
                let Some(dirs) = dirs else { continue };
                let full = |d: u8, max: u8, mode: Mode, modes: fn(Mode) -> bool| {
                    dirs.contains(&d) && max >= 15 && modes(mode)
                };
                let covers = |modes: fn(Mode) -> bool| {
                    dirs.iter().all(|&d| {
                        list.iter()
                            .any(|&(rd, max, mode)| rd == d && full(rd, max, mode, modes))
                    })
                };
                let any_mode: fn(Mode) -> bool = |m| m == Mode::Any;
                if covers(any_mode) {
                    s.moves[ci][k] |= 1 << f;
                    s.move_rides[ci][k].retain(|&(d, max, mode)| !full(d, max, mode, any_mode));
                }
                if covers(Mode::captures) {
                    s.attackers[ci][f] |= 1 << k;
                    s.attack_rides[ci][k]
                        .retain(|&(d, max, mode)| !full(d, max, mode, Mode::captures));
                }
            }
        }
    }
    if s.attackers.iter().flatten().any(|&kinds| kinds != 0) {
        s.sliders = Some(Sliders::get());
    }
    s
}

/// [`Tables::pin_lines`] and [`Tables::pin_dir`], from each colour's
/// `pin_dirs`.
fn pin_tables(geo: &Geometry, pin_dirs: &[Vec<u8>; 2]) -> (Vec<u64>, Vec<u8>) {
    let area = geo.area;
    let mut pin_lines = vec![0u64; 2 * area * geo.words];
    let mut pin_dir = vec![PIN_NONE; 2 * area * area];
    for (ci, dirs_of_color) in pin_dirs.iter().enumerate() {
        for (i, &sq) in geo.square_at.iter().enumerate() {
            for &d in dirs_of_color {
                geo.insert_ray(
                    &mut pin_lines,
                    ci * area + i,
                    usize::from(d),
                    sq,
                    usize::MAX,
                );
                for r in geo.ray(usize::from(d), sq) {
                    let at = (ci * area + i) * area + geo.bit(*r);
                    pin_dir[at] = if pin_dir[at] == PIN_NONE && d < PIN_SEVERAL {
                        d
                    } else {
                        PIN_SEVERAL
                    };
                }
            }
        }
    }
    (pin_lines, pin_dir)
}

/// Per colour and kind: its rides as the generator steps them along the
/// rays of `ray_sets` ([`ray_set_tables`]).
fn ride_steps(geo: &Geometry, rides: &Rides, near_sets: &[u16]) -> [Vec<Vec<RideStep>>; 2] {
    let step = |&(d, max, mode): &(u8, u8, Mode)| {
        let d = usize::from(d);
        let table = if max < 15 {
            usize::from(near_sets[d * 16 + usize::from(max)])
        } else {
            d
        };
        RideStep {
            base: (table * geo.area) as u32,
            up: geo.dir_up[d],
            onto: mode_index(mode) as u8,
            delta: i16::from(geo.dirs[d].1) * i16::from(geo.size.files) + i16::from(geo.dirs[d].0),
        }
    };
    [0, 1].map(|ci| {
        rides[ci]
            .iter()
            .map(|list| list.iter().map(step).collect())
            .collect()
    })
}

/// [`Tables::live_span`] and [`Tables::live_flat`]: per colour, kind and
/// bit index, the rides of `steps` whose ray from there is not empty.
fn live_rides(
    steps: &[Vec<Vec<RideStep>>; 2],
    ray_sets: &[u64],
    area: usize,
    words: usize,
) -> (Vec<Span>, Vec<LiveRide>) {
    let mut live_span = Vec::with_capacity(2 * steps[0].len() * area);
    let mut live_flat = Vec::new();
    for kinds in steps {
        for steps in kinds {
            for i in 0..area {
                let start = live_flat.len() as u32;
                for step in steps {
                    let at = step.base as usize + i;
                    let ray = &ray_sets[at * words..(at + 1) * words];
                    if ray.iter().all(|&w| w == 0) {
                        continue;
                    }
                    let first = i as isize + isize::from(step.delta);
                    live_flat.push(LiveRide {
                        ray: at as u32,
                        first: first as u16,
                        up: step.up,
                        onto: step.onto,
                    });
                }
                live_span.push(Span {
                    start,
                    len: live_flat.len() as u32 - start,
                });
            }
        }
    }
    (live_span, live_flat)
}

/// [`Tables::step_sets`]: per colour, kind and bit index, the first
/// squares of its live rides and the squares of its leaps.
fn step_set_table(
    (n, area, words): (usize, usize, usize),
    live_span: &[Span],
    live_flat: &[LiveRide],
    leap_sets: &[u64],
) -> Vec<u64> {
    let mut step_sets = vec![0u64; 2 * n * area * words];
    for ci in 0..2 {
        for k in 0..n {
            let at = |i: usize| (ci * n + k) * area + i;
            for i in 0..area {
                let s = live_span[at(i)];
                for r in &live_flat[s.start as usize..(s.start + s.len) as usize] {
                    table_insert(&mut step_sets, words, at(i), usize::from(r.first));
                }
                for mi in 0..3 {
                    let from = ((ci * 3 + mi) * n + k) * area + i;
                    for w in 0..words {
                        step_sets[at(i) * words + w] |= leap_sets[from * words + w];
                    }
                }
            }
        }
    }
    step_sets
}

/// [`Tables::near_kinds`]: per colour, the kinds but the pawn (which
/// moves by its own rules) whose every step of `step_sets` stays next to
/// their square.
fn near_kind_bits(geo: &Geometry, n: usize, pawn: PieceKind, step_sets: &[u64]) -> [u16; 2] {
    let (area, words) = (geo.area, geo.words);
    let mut next_to = vec![0u64; area * words];
    for (i, from) in geo.square_at.iter().enumerate() {
        for (j, to) in geo.square_at.iter().enumerate() {
            if from.file().abs_diff(to.file()) <= 1 && from.rank().abs_diff(to.rank()) <= 1 {
                table_insert(&mut next_to, words, i, j);
            }
        }
    }
    let mut near_kinds = [0u16; 2];
    for (ci, near) in near_kinds.iter_mut().enumerate() {
        for k in (0..n).filter(|&k| k != pawn.index()) {
            let steps = &step_sets[(ci * n + k) * area * words..(ci * n + k + 1) * area * words];
            if steps.iter().zip(&next_to).all(|(s, t)| s & !t == 0) {
                *near |= 1 << k;
            }
        }
    }
    near_kinds
}

impl Tables {
    /// Compiles `def` into the move generator's tables, or says what in it
    /// cannot be played.
    pub fn build(mut def: VariantDef) -> Result<Tables, VariantDefError> {
        let n = def.pieces.len();
        let (king, pawn) = royal_kinds(&def)?;
        let (king_origin, setup_counts) = setup_summary(&def, king)?;
        let geo = Geometry::new(def.size, ride_directions(&def)?);
        let moves = PieceMoves::compile(&def, &geo);
        let promote_on = promotion_by_square(&def, king);
        let free_from = add_free_castlings(&mut def, king_origin)?;
        let castling = compile_castlings(&def, &geo, king_origin, (king, pawn), free_from)?;
        let piece_keys = piece_key_table(def.size, n);
        let variant_key = variant_key(&def.name);
        let (ray_sets, near_sets) = ray_set_tables(&geo, &moves.rides);
        let leaps = leap_set_tables(&geo, &moves, n);
        let pawn_captures = pawn_capture_tables(&geo);
        let (double_step, promotion_zone) = pawn_rank_bits(&def);
        let [board_set, double_step_set, zone_set] =
            board_set_tables(&geo, double_step, promotion_zone);
        let groups = ride_group_tables(&geo, &moves.rides);
        let slides = looked_up_slides(&geo, &moves.rides);
        let attack_groups = ride_group_tables(&geo, &slides.attack_rides).ride_groups;
        let special_attacks = def
            .special_king_move
            .as_ref()
            .filter(|s| s.attacks_while_unused)
            .map(|s| s.offsets.clone())
            .unwrap_or_default();
        let special_attacks_empty = special_attacks.is_empty();
        let (pin_lines, pin_dir) = pin_tables(&geo, &groups.pin_dirs);
        let steps = ride_steps(&geo, &moves.rides, &near_sets);
        let (live_span, live_flat) = live_rides(&steps, &ray_sets, geo.area, geo.words);
        let step_sets = step_set_table(
            (n, geo.area, geo.words),
            &live_span,
            &live_flat,
            &leaps.leap_sets,
        );
        let near_kinds = near_kind_bits(&geo, n, pawn, &step_sets);
        // The step sets keep the first squares of the looked-up rides; the
        // generator walks only the others.
        let (live_span, live_flat) = if slides.sliders.is_some() {
            let steps = ride_steps(&geo, &slides.move_rides, &near_sets);
            live_rides(&steps, &ray_sets, geo.area, geo.words)
        } else {
            (live_span, live_flat)
        };
        let walked_rides = if slides.sliders.is_some() {
            slides.move_rides
        } else {
            moves.rides.clone()
        };
        let words = geo.words;
        let mut tables = Tables {
            size: geo.size,
            king,
            pawn,
            kind_count: n,
            kind_of_letter: letter_table(&def),
            king_origin,
            setup_counts,
            #[cfg(test)]
            rides: moves.rides,
            walked_rides,
            live_span,
            live_flat,
            step_sets,
            near_kinds,
            dirs: geo.dirs,
            reverse: geo.reverse,
            ray_flat: geo.ray_flat,
            ray_span: geo.ray_span,
            ride_mask: moves.ride_mask,
            leap_attack_flat: moves.leap_attack_flat,
            leap_attack_span: moves.leap_attack_span,
            pawn_push: [1, -1],
            double_step,
            promotion_zone,
            board_set,
            double_step_set,
            zone_set,
            last_rank: [def.size.ranks - 1, 0],
            promote_on,
            castlings: castling.castlings,
            partners: castling.partners,
            partner_kinds: castling.partner_kinds,
            has_stages: castling.has_stages,
            special_attacks,
            leapers: moves.leapers,
            piece_keys,
            variant_key,
            castling_touch: castling.castling_touch,
            width: geo.width,
            area: geo.area,
            bit_of: geo.bit_of,
            square_at: geo.square_at,
            dir_up: geo.dir_up,
            ray_sets,
            near_sets,
            leap_sets: leaps.leap_sets,
            leap_capture_from: leaps.leap_capture_from,
            leap_move_from: leaps.leap_move_from,
            pawn_capture_from: pawn_captures.pawn_capture_from,
            pawn_captures: pawn_captures.pawn_captures,
            pawn_capture_sides: pawn_captures.pawn_capture_sides,
            leap_capture_kinds: leaps.leap_capture_kinds,
            leap_modes: leaps.leap_modes,
            ride_groups: attack_groups,
            sliders: slides.sliders,
            slide_moves: slides.moves,
            slide_attackers: slides.attackers,
            pin_dirs: groups.pin_dirs,
            pin_kinds_all: groups.pin_kinds_all,
            pin_lines,
            pin_dir,
            start: OnceLock::new(),
            royal: def.royal_king,
            play_rules: def.has_play_rules(),
            plain_check_test: special_attacks_empty
                && !matches!(def.pawns.promotion, PromotionRule::Waiting { .. }),
            def,
            check_reach: Vec::new(),
            looked_up_count: false,
            counted_kinds: [Vec::new(), Vec::new()],
            counted_sets: Vec::new(),
        };
        tables.check_reach = tables.attack_reach(words, &groups.ride_groups);
        tables.looked_up_count = tables.counts_looked_up();
        if tables.looked_up_count {
            tables.build_counted_kinds();
        }
        Ok(tables)
    }

    /// [`Tables::looked_up_count`].
    fn counts_looked_up(&self) -> bool {
        self.width == Width::W64
            && self.sliders.is_some()
            && self.ride_groups.iter().all(Vec::is_empty)
            && self.live_flat.is_empty()
            && self.special_attacks.is_empty()
            && self.def.special_king_move.is_none()
            && !self.has_stages
            && !self.play_rules
            && self.royal
            && matches!(&self.def.pawns.promotion, PromotionRule::Choice(kinds) if !kinds.contains(&self.king))
    }

    /// [`Tables::counted_kinds`] and [`Tables::counted_sets`], from the
    /// move tables of an 8x8 board.
    fn build_counted_kinds(&mut self) {
        let king = self.king.index();
        for color in [Color::White, Color::Black] {
            let ci = color.index();
            let mut order: Vec<usize> = (0..self.kind_count)
                .filter(|&k| k != self.pawn.index() && k != king)
                .collect();
            order.push(king);
            for k in order {
                let base = self.counted_sets.len() as u32;
                let moves = self.kind_moves(color, k);
                let mut sets = Vec::with_capacity(256);
                for table in 0..4 {
                    sets.extend((0..64).map(|i| match table {
                        3 => moves.step_set::<u64>(i),
                        mode => moves.leap_set::<u64>(mode, i),
                    }));
                }
                self.counted_sets.extend(sets);
                self.counted_kinds[ci].push(CountedKind {
                    kind: k as u8,
                    slides: self.slide_moves[ci][k],
                    split: self.leap_modes[ci][k] & 6 != 0,
                    base,
                });
            }
        }
    }

    /// [`Tables::check_reach`], from the capture tables built before it
    /// and every capturing ride (`groups`, looked-up ones included).
    fn attack_reach(&self, words: usize, groups: &[Vec<RideGroup>; 2]) -> Vec<u64> {
        let area = self.area;
        let mut reach = vec![0u64; 2 * area * words];
        for (ci, groups) in groups.iter().enumerate() {
            for i in 0..area {
                let at = (ci * area + i) * words;
                for w in 0..words {
                    let mut set = self.pawn_capture_from[at + w];
                    for k in 0..self.kind_count {
                        set |= self.leap_capture_from
                            [((ci * self.kind_count + k) * area + i) * words + w];
                    }
                    for g in groups {
                        set |= g.lines[i * words + w];
                    }
                    reach[at + w] = set;
                }
            }
        }
        reach
    }

    /// The squares from which some piece of `color` could attack bit `i`
    /// on an empty board.
    #[inline]
    pub fn check_reach<B: Bits>(&self, color: Color, i: usize) -> B {
        B::at(&self.check_reach, color.index() * self.area + i)
    }

    /// The key's part for the piece of board code `code` on bit `i`.
    #[inline]
    pub fn piece_key(&self, code: u8, i: usize) -> u64 {
        self.piece_keys[usize::from(code) * self.area + i]
    }

    /// The bit index of `sq` (a square of the board).
    #[inline]
    pub fn bit(&self, sq: Square) -> usize {
        usize::from(self.bit_of[sq.index()])
    }

    /// The squares from bit `i` to the edge in direction `d`.
    #[inline]
    pub fn ray_set<B: Bits>(&self, d: usize, i: usize) -> B {
        B::at(&self.ray_sets, d * self.area + i)
    }

    /// The bit of `set` (squares along direction `d` from some square)
    /// nearest to that square.
    #[inline]
    pub fn nearest<B: Bits>(&self, d: usize, set: B) -> usize {
        if self.dir_up[d] {
            set.first()
        } else {
            set.last()
        }
    }

    /// The squares a rider standing on bit `i` reaches in direction `d`,
    /// at most `max` steps, on occupancy `occ`: the empty squares up to
    /// the first piece, and that piece's square.
    #[inline(always)]
    pub fn ride_set<B: Bits>(&self, d: u8, i: usize, max: u8, occ: B) -> B {
        let d = usize::from(d);
        // A limited ride starts from the ray cut to its range.
        let mut reach = if max < 15 {
            self.near_ray(d, i, max)
        } else {
            self.ray_set::<B>(d, i)
        };
        // The first piece met is the lowest or the highest bit of the
        // ray's occupied part (the bit index moves monotonically along
        // it): cut there with no branch and no second table look-up.
        let hit = reach & occ;
        if self.dir_up[d] {
            reach &= hit.first_and_below();
        } else {
            reach &= hit.last_and_above();
        }
        reach
    }

    /// The squares a piece on bit `i` reaches by its looked-up rides
    /// (`families` as in [`Tables::slide_moves`]) on occupancy `occ`.
    /// Only with `sliders`.
    #[inline(always)]
    pub fn slide_reach(&self, families: u8, i: usize, occ: u64) -> u64 {
        let Some(s) = self.sliders else {
            return 0;
        };
        let mut reach = 0;
        if families & 1 != 0 {
            reach = s.rook(i, occ);
        }
        if families & 2 != 0 {
            reach |= s.bishop(i, occ);
        }
        reach
    }

    /// The move tables of `color`'s kind `k`, found once for all its
    /// pieces.
    #[inline(always)]
    pub fn kind_moves(&self, color: Color, k: usize) -> KindMoves<'_> {
        let ck = color.index() * self.kind_count + k;
        let area = self.area;
        let leaps = (color.index() * 3 * self.kind_count + k) * area;
        KindMoves {
            tables: self,
            base: ck * area,
            leaps,
        }
    }

    /// The squares the live ride `r` reaches on occupancy `occ`: its ray
    /// cut after the first piece met (see [`Tables::ride_set`]).
    #[inline(always)]
    pub fn live_ride<B: Bits>(&self, r: &LiveRide, occ: B) -> B {
        let reach = B::at(&self.ray_sets, r.ray as usize);
        let hit = reach & occ;
        if r.up {
            reach & hit.first_and_below()
        } else {
            reach & hit.last_and_above()
        }
    }

    /// The squares along direction `d` from bit `i` at most `max` steps
    /// away (a range some ride uses, below 15).
    #[inline]
    fn near_ray<B: Bits>(&self, d: usize, i: usize, max: u8) -> B {
        let near = self.near_sets[d * 16 + usize::from(max)];
        B::at(&self.ray_sets, usize::from(near) * self.area + i)
    }

    /// The squares from which `color`'s kind `k` captures on bit `i` by a leap.
    #[inline]
    pub fn leap_capture_from<B: Bits>(&self, color: Color, k: usize, i: usize) -> B {
        B::at(
            &self.leap_capture_from,
            (color.index() * self.kind_count + k) * self.area + i,
        )
    }

    /// The squares from which `color`'s kind `k` leaps to the empty bit `i`.
    #[inline]
    pub fn leap_move_from<B: Bits>(&self, color: Color, k: usize, i: usize) -> B {
        B::at(
            &self.leap_move_from,
            (color.index() * self.kind_count + k) * self.area + i,
        )
    }

    /// The squares from which `color`'s pawn captures on bit `i`.
    #[inline]
    pub fn pawn_capture_from<B: Bits>(&self, color: Color, i: usize) -> B {
        B::at(&self.pawn_capture_from, color.index() * self.area + i)
    }

    /// The squares along the directions `color`'s king on bit `i` may be
    /// attacked by a rider from.
    #[inline]
    pub fn pin_lines<B: Bits>(&self, color: Color, i: usize) -> B {
        B::at(&self.pin_lines, color.index() * self.area + i)
    }

    /// The direction of `pin_dirs[color]` along which bit `i` lies from
    /// `color`'s king on bit `king` ([`PIN_NONE`], [`PIN_SEVERAL`]).
    #[inline]
    pub fn pin_dir(&self, color: Color, king: usize, i: usize) -> u8 {
        self.pin_dir[(color.index() * self.area + king) * self.area + i]
    }

    /// Every square of the board.
    #[inline]
    pub fn board_set<B: Bits>(&self) -> B {
        B::at(&self.board_set, 0)
    }

    /// The squares of `set` and those next to them (king's steps),
    /// within the board.
    #[inline]
    pub fn with_neighbours<B: Bits>(&self, set: B) -> B {
        let files = u32::from(self.size.files);
        let row = set
            | (set.up(1) & B::at(&self.board_set, 1))
            | (set.down(1) & B::at(&self.board_set, 2));
        (row | row.up(files) | row.down(files)) & B::at(&self.board_set, 0)
    }

    /// The squares `color`'s pawns may double-step from.
    #[inline]
    pub fn double_step_set<B: Bits>(&self, color: Color) -> B {
        B::at(&self.double_step_set, color.index())
    }

    /// The squares of `color`'s promotion zone.
    #[inline]
    pub fn zone_set<B: Bits>(&self, color: Color) -> B {
        B::at(&self.zone_set, color.index())
    }

    /// The squares `color`'s pawn on bit `i` captures on.
    #[inline]
    pub fn pawn_captures<B: Bits>(&self, color: Color, i: usize) -> B {
        B::at(&self.pawn_captures, color.index() * self.area + i)
    }

    /// The squares from which `color`'s pawn captures toward file a
    /// (`side` 0) or toward the last file (1) on the board.
    #[inline]
    pub fn pawn_capture_side<B: Bits>(&self, color: Color, side: usize) -> B {
        B::at(&self.pawn_capture_sides, color.index() * 2 + side)
    }

    /// Squares from `sq` to the edge in direction `d`.
    #[cfg(debug_assertions)]
    pub fn ray(&self, d: u8, sq: Square) -> &[Square] {
        let s = self.ray_span[d as usize * SQUARE_SPACE + sq.index()];
        &self.ray_flat[s.start as usize..(s.start + s.len) as usize]
    }

    /// Squares a leaper of `color` may attack `sq` from, with the kinds that can.
    #[cfg(debug_assertions)]
    pub fn leap_attackers(&self, color: Color, sq: Square) -> &[(Square, u16)] {
        let s = self.leap_attack_span[color.index() * SQUARE_SPACE + sq.index()];
        &self.leap_attack_flat[s.start as usize..(s.start + s.len) as usize]
    }
}

/// The squares that must be empty and those that must be safe (R-0-5, R-CS-2).
fn castling_squares(c: &CastlingDef) -> (Vec<Square>, Vec<Square>) {
    let rank = c.king_from.rank();
    let span = |a: Square, b: Square| {
        let (lo, hi) = (a.file().min(b.file()), a.file().max(b.file()));
        (lo..=hi).map(move |f| Square::new(f, rank))
    };
    let mut empty: Vec<Square> = span(c.king_from, c.king_to)
        .chain(span(c.partner_from, c.partner_to))
        .filter(|&s| s != c.king_from && s != c.partner_from)
        .collect();
    empty.sort();
    empty.dedup();
    let mut safe: Vec<Square> = match c.safety {
        CastlingSafety::KingPath => span(c.king_from, c.king_to).collect(),
        CastlingSafety::PartnerToKing => span(c.partner_from, c.king_from)
            .chain(span(c.king_from, c.king_to))
            .collect(),
    };
    safe.sort();
    safe.dedup();
    (empty, safe)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::bitboard::{Bits, Wide};
    use crate::rules::variant::Variant;
    use crate::rules::variant::file::load_toml;

    /// The short check test is the variant's to allow: not where pawns
    /// wait to promote (Courier-Spiel) or an unused king attacks with its
    /// special move (Chaturanga), and everywhere else.
    #[test]
    fn the_short_check_test_is_left_out_where_waiting_pawns_or_king_attacks_count() {
        for (name, allowed) in [
            ("chess", true),
            ("counsellor", true),
            ("courier-spiel", false),
            ("chaturanga", false),
        ] {
            let v = Variant::by_name(name).expect("built in");
            let t = v.tables();
            assert_eq!(t.plain_check_test, allowed, "{name}");
            assert_eq!(
                t.plain_check_test,
                t.special_attacks.is_empty() && !v.has_waiting_promotion(),
                "{name}"
            );
        }
    }

    /// A 16x12 board (192 squares: four-word sets) with full and
    /// limited rides in every direction, one-way rides and a hopper-free
    /// mix of modes.
    const WIDE_BOARD: &str = r#"
name = "wide-rides"
display-name = "Wide Rides"
board = "16x12"
setup = "16/16/16/16/16/16/16/16/16/16/16/4K6k4"

[[piece]]
letter = "K"
name = "King"
betza = "K"
role = "king"

[[piece]]
letter = "Q"
name = "Queen"
betza = "Q"

[[piece]]
letter = "E"
name = "Elephant"
betza = "B2"

[[piece]]
letter = "S"
name = "Short rook"
betza = "R3"

[[piece]]
letter = "F"
name = "Forward rider"
betza = "mfRcfB4"

[[piece]]
letter = "P"
name = "Pawn"
role = "pawn"

[pawns]
promotion-choices = "Q"
"#;

    /// Where a ride reaches, walked square by square: the reference for
    /// the set arithmetic.
    fn walked<B: Bits>(t: &Tables, d: u8, max: u8, i: usize, occ: B) -> B {
        let (df, dr) = t.dirs[usize::from(d)];
        let from = t.square_at[i];
        let (mut f, mut r) = (i16::from(from.file()), i16::from(from.rank()));
        let mut reach = B::EMPTY;
        for _ in 0..max.min(16) {
            f += i16::from(df);
            r += i16::from(dr);
            if f < 0 || r < 0 || f >= i16::from(t.size.files) || r >= i16::from(t.size.ranks) {
                break;
            }
            let j = t.bit(Square::new(f as u8, r as u8));
            reach |= B::single(j);
            if occ.has(j) {
                break;
            }
        }
        reach
    }

    /// The family of direction `d` as [`Tables::slide_moves`] numbers
    /// it (1 orthogonal, 2 diagonal), or 0.
    fn family(t: &Tables, d: u8) -> u8 {
        let step = t.dirs[usize::from(d)];
        if ORTHOGONAL.contains(&step) {
            1
        } else if DIAGONAL.contains(&step) {
            2
        } else {
            0
        }
    }

    /// The captures looked up for the attack test agree with the walk of
    /// the capturing rides of the kinds they stand for, on random
    /// occupancies of every square.
    fn attacks_match_the_walk(t: &Tables) {
        let s = t.sliders.expect("an 8x8 board with riders");
        let mut seed = 0x6a09_e667_f3bc_c908u64;
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Sparse to dense: one, two or three random words combined.
            let occ = match seed % 3 {
                0 => seed.rotate_left(17) & seed.rotate_left(31) & seed,
                1 => seed.rotate_left(23) & seed,
                _ => seed,
            };
            for ci in 0..2 {
                for (f, &kinds) in t.slide_attackers[ci].iter().enumerate() {
                    for k in (0..t.kind_count).filter(|&k| kinds & 1 << k != 0) {
                        for i in 0..64 {
                            let walk = t.rides[ci][k]
                                .iter()
                                .filter(|&&(d, max, mode)| {
                                    max >= 15 && mode.captures() && family(t, d) == 1 << f
                                })
                                .fold(0u64, |acc, &(d, max, _)| acc | walked(t, d, max, i, occ));
                            let looked_up = if f == 0 {
                                s.rook(i, occ)
                            } else {
                                s.bishop(i, occ)
                            };
                            assert_eq!(looked_up, walk, "kind {k} bit {i} {occ:x}");
                        }
                    }
                }
            }
        }
    }

    fn rides_match_the_walk<B: Bits + std::fmt::Debug>(t: &Tables) {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        for _ in 0..40 {
            // Occupancies from sparse to dense.
            let density = next() % 4;
            let mut occ = B::EMPTY;
            for i in 0..t.area {
                if next() % 8 <= density {
                    occ |= B::single(i);
                }
            }
            for ci in 0..2 {
                let color = if ci == 0 { Color::White } else { Color::Black };
                for (k, rides) in t.rides[ci].iter().enumerate() {
                    let slides = t.slide_moves[ci][k];
                    for i in 0..t.area {
                        let mut live = Vec::new();
                        let mut slid = B::EMPTY;
                        for &(d, max, mode) in rides {
                            let want = walked(t, d, max, i, occ);
                            assert_eq!(
                                t.ride_set(d, i, max, occ),
                                want,
                                "dir {d} max {max} bit {i}"
                            );
                            if max >= 15 && mode == Mode::Any && slides & family(t, d) != 0 {
                                slid |= want;
                            } else if !walked(t, d, max, i, B::EMPTY).is_empty() {
                                live.push(want);
                            }
                            checked += want.indices().count();
                        }
                        // The looked-up rides reach what their walk reaches.
                        let looked_up = B::from_low(t.slide_reach(slides, i, occ.low()));
                        assert_eq!(looked_up, slid, "kind {k} bit {i} {occ:?}");
                        let got: Vec<B> = t
                            .kind_moves(color, k)
                            .live_rides(i)
                            .iter()
                            .map(|r| {
                                assert!(t.live_ride(r, B::EMPTY).has(usize::from(r.first)));
                                t.live_ride(r, occ)
                            })
                            .collect();
                        assert_eq!(got, live, "kind {k} bit {i}");
                    }
                }
            }
        }
        assert!(checked > 0);
    }

    /// The step sets against the rides walked on a full board (their
    /// first squares) and the leap tables; the neighbour dilation against
    /// a square-by-square reading.
    fn steps_match_the_board<B: Bits + std::fmt::Debug>(t: &Tables) {
        let full = t.board_set::<B>();
        for ci in 0..2 {
            let color = if ci == 0 { Color::White } else { Color::Black };
            for (k, rides) in t.rides[ci].iter().enumerate() {
                let moves = t.kind_moves(color, k);
                for i in 0..t.area {
                    let mut want = B::EMPTY;
                    for &(d, max, _) in rides {
                        want |= walked(t, d, max, i, full);
                    }
                    for mode in 0..3 {
                        want |= moves.leap_set::<B>(mode, i);
                    }
                    assert_eq!(moves.step_set::<B>(i), want, "kind {k} bit {i}");
                }
            }
        }
        let near = |i: usize, j: usize| {
            let (a, b) = (t.square_at[i], t.square_at[j]);
            a.file().abs_diff(b.file()) <= 1 && a.rank().abs_diff(b.rank()) <= 1
        };
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..50 {
            let mut set = B::EMPTY;
            for i in 0..t.area {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                if seed.is_multiple_of(9) {
                    set |= B::single(i);
                }
            }
            let want = (0..t.area)
                .filter(|&j| set.indices().any(|i| near(i, j)))
                .fold(B::EMPTY, |acc, j| acc | B::single(j));
            assert_eq!(t.with_neighbours(set), want);
        }
    }

    #[test]
    fn step_sets_and_neighbours_match_the_board_on_every_set_width() {
        let wide = Variant::compile(load_toml("wide.toml", WIDE_BOARD).expect("valid definition"))
            .expect("compiles");
        let counsellor = Variant::by_name("counsellor").expect("built in");
        steps_match_the_board::<u64>(Variant::chess().tables());
        steps_match_the_board::<u128>(counsellor.tables());
        steps_match_the_board::<Wide>(wide.tables());
        // The kinds left out at once when hemmed in: those that only step
        // next to their square; never the pawn, whose moves are its own.
        let near = |v: &Variant, letters: &str| {
            let t = v.tables();
            letters
                .bytes()
                .map(|l| 1u16 << t.kind_of_letter[usize::from(l - b'A')])
                .fold(0, |acc, bit| acc | bit)
        };
        let chess = Variant::chess();
        assert_eq!(chess.tables().near_kinds, [near(&chess, "KQRB"); 2]);
        assert_eq!(
            counsellor.tables().near_kinds,
            [near(&counsellor, "KQRBEC"); 2]
        );
    }

    #[test]
    fn ride_sets_match_a_walk_on_every_set_width() {
        let wide = Variant::compile(load_toml("wide.toml", WIDE_BOARD).expect("valid definition"))
            .expect("compiles");
        let counsellor = Variant::by_name("counsellor").expect("built in");
        for (v, width) in [
            (Variant::chess(), Width::W64),
            (counsellor, Width::W128),
            (wide, Width::W256),
        ] {
            let t = v.tables();
            assert_eq!(t.width, width);
            // Only the 8x8 board looks its riders up.
            assert_eq!(t.sliders.is_some(), width == Width::W64);
            if width == Width::W64 {
                attacks_match_the_walk(t);
                let (queen, rook, bishop) = [b'Q', b'R', b'B']
                    .map(|l| usize::from(t.kind_of_letter[usize::from(l - b'A')]))
                    .into();
                assert_eq!(
                    [
                        t.slide_moves[0][queen],
                        t.slide_moves[0][rook],
                        t.slide_moves[0][bishop]
                    ],
                    [3, 1, 2]
                );
                assert_eq!(
                    t.slide_attackers[1],
                    [1 << queen | 1 << rook, 1 << queen | 1 << bishop]
                );
                assert!(t.ride_groups.iter().all(Vec::is_empty));
            }
            match width {
                Width::W64 => rides_match_the_walk::<u64>(t),
                Width::W128 => rides_match_the_walk::<u128>(t),
                Width::W256 => rides_match_the_walk::<Wide>(t),
            }
        }
    }
}
