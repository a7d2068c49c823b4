//! The one move generator: it reads the compiled variant tables and never
//! names a variant.
//!
//! It works on square sets sized to the board (`bitboard` module): each
//! entry point picks the set width of the variant once and runs the
//! generator monomorphised for it. Leaps are table lookups per square and
//! atom; a ride is its ray cut after the first piece met, with no walk
//! (at most one bit scan, see the `bitboard` module);
//! whether a square is attacked is asked backwards, per kind: do the
//! leaps of a kind, or the reversed rides of a group of kinds, reach from
//! that square one such enemy piece.
//!
//! Legality: the pins on our king are found once per generation; a
//! pseudo-legal move is legal without a test when the king is not in
//! check, the moving piece is not the king and not pinned, and the move
//! neither captures en passant, castles, nor promotes an enemy pawn
//! (R-CS-6). Every other move is tested on the occupancy it leaves, with
//! the captured piece taken out of the attackers: no board is copied
//! (R-0-1), except for the rare R-CS-6 capture, which changes an enemy
//! piece's type.

use super::bitboard::{Bits, Wide, Width};
use super::castling::Stage;
use super::geometry::Square;
use super::moves::{Move, MoveKind, WaitingPromotion};
use super::piece::{Color, Piece, PieceKind};
use super::position::Position;
use super::sliders::Sliders;
use super::variant::{CastlingSide, PIN_NONE, PIN_SEVERAL, PromotionRule};

/// What every move of one generation shares.
struct Context<B: Bits> {
    us: Color,
    king: Square,
    in_check: bool,
    /// Our pieces standing between our king and an enemy rider (or, for
    /// a generation of a few moves, that may: see [`Position::context`]).
    pinned: B,
    /// Whether `pinned` has a piece (most positions have none: the
    /// membership test on a wide set is then skipped).
    any_pinned: bool,
    /// The opponent's first blocked pawn, which a capture would promote (R-CS-6).
    their_blocked: Option<Square>,
    /// Our pawn whose wait ends with this move, and the types it may take (R-CS-4, R-CS-5).
    /// The types come as a set, bit per kind: a context holds nothing to
    /// free.
    our_promoting: Option<(Square, u16)>,
    /// False to keep pseudo-legal moves (for explaining why a move is illegal).
    test_legality: bool,
    /// Only moves to this square, if set.
    only_to: Option<Square>,
    /// No waiting pawn changes a move (R-CS-4..6): moves are kept as found.
    plain: bool,
    /// The squares the opponent attacks once our king has left its
    /// square, where they are found at once
    /// ([`Position::looked_up_attacks`]): made on first use.
    king_danger: std::cell::OnceCell<Option<B>>,
}

impl<B: Bits> Context<B> {
    /// Whether an ordinary move of the piece on bit `from` needs the
    /// legality test: when in check, and for the king (on bit `king`)
    /// and pinned pieces.
    #[inline]
    fn must_test(&self, from: usize, king: usize) -> bool {
        self.test_legality
            && (self.in_check || from == king || (self.any_pinned && self.pinned.has(from)))
    }

    /// The pieces of `set` whose ordinary moves need the legality test.
    #[inline]
    fn tested(&self, set: B, king: usize) -> B {
        if !self.test_legality {
            B::EMPTY
        } else if self.in_check {
            set
        } else {
            set & (self.pinned | B::single(king))
        }
    }
}

/// Where a generation puts its moves: a list, or a count.
pub(crate) trait Sink {
    /// Whether only the number of moves matters: then moves that need no
    /// test may be counted without being made.
    const COUNTS: bool;
    /// Whether only the first move matters: the generation may stop once
    /// the sink holds one.
    const FIRST_ONLY: bool = false;
    /// Adds a move.
    fn add(&mut self, m: Move);
    /// Adds `n` moves that are not made (only when `COUNTS`).
    fn add_count(&mut self, n: u32);
    /// Whether no move was added.
    fn is_empty(&self) -> bool;
}

impl Sink for Vec<Move> {
    const COUNTS: bool = false;
    #[inline]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
    fn add_count(&mut self, _: u32) {
        debug_assert!(false, "a list of moves takes moves, not counts");
    }
    #[inline]
    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }
}

/// Whether an en passant capture was among the moves: the one question
/// a position's key asks after each double step, answered without a list.
#[derive(Default)]
struct EnPassantSeen {
    any: bool,
    en_passant: bool,
}

impl Sink for EnPassantSeen {
    const COUNTS: bool = false;
    #[inline]
    fn add(&mut self, m: Move) {
        self.any = true;
        self.en_passant |= m.kind == MoveKind::EnPassant;
    }
    fn add_count(&mut self, _: u32) {
        debug_assert!(false, "en passant is looked for among moves, not counts");
    }
    #[inline]
    fn is_empty(&self) -> bool {
        !self.any
    }
}

/// A number of moves.
pub(crate) struct MoveCount(pub usize);

/// Whether there is a move: counted as [`MoveCount`] counts, stopping
/// at the first kind of piece that has one.
struct AnyMove(MoveCount);

impl Sink for AnyMove {
    const COUNTS: bool = true;
    const FIRST_ONLY: bool = true;
    #[inline]
    fn add(&mut self, m: Move) {
        self.0.add(m);
    }
    #[inline]
    fn add_count(&mut self, n: u32) {
        self.0.add_count(n);
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Sink for MoveCount {
    const COUNTS: bool = true;
    #[inline]
    fn add(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline]
    fn add_count(&mut self, n: u32) {
        self.0 += n as usize;
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0 == 0
    }
}

#[inline]
fn kind_of(code: u8) -> u8 {
    (code - 1) & 15
}

/// Calls `$self.$f::<B, ...>(args)` with the set type `B` of the
/// variant's width.
macro_rules! by_width {
    ($self:ident . $f:ident $(:: <$($g:ty),*>)? ( $($arg:expr),* )) => {
        match $self.tables().width {
            Width::W64 => $self.$f::<u64 $($(, $g)*)?>($($arg),*),
            Width::W128 => $self.$f::<u128 $($(, $g)*)?>($($arg),*),
            Width::W256 => $self.$f::<Wide $($(, $g)*)?>($($arg),*),
        }
    };
}

/// Origin hints of a written move: its file and rank, when given.
#[derive(Clone, Copy, Default)]
struct Hints {
    file: Option<u8>,
    rank: Option<u8>,
}

impl Hints {
    fn allow(self, sq: Square) -> bool {
        self.file.is_none_or(|f| sq.file() == f) && self.rank.is_none_or(|r| sq.rank() == r)
    }
}

impl Position {
    /// Every square holding a piece.
    #[inline]
    pub(super) fn occupancy<B: Bits>(&self) -> B {
        B::load(&self.state.color_bits[0]) | B::load(&self.state.color_bits[1])
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub(super) fn side<B: Bits>(&self, color: Color) -> B {
        B::load(&self.state.color_bits[color.index()])
    }

    /// The squares of pieces of kind number `k`, both colours.
    #[inline]
    pub(super) fn of_kind<B: Bits>(&self, k: usize) -> B {
        B::load(&self.state.kind_bits[k])
    }

    /// The squares of pieces of the kinds in `kinds` (bit per kind).
    #[inline]
    pub(super) fn of_kinds<B: Bits>(&self, mut kinds: u16) -> B {
        let mut set = B::EMPTY;
        while kinds != 0 {
            set |= self.of_kind::<B>(kinds.trailing_zeros() as usize);
            kinds &= kinds - 1;
        }
        set
    }

    /// Whether `by` attacks `sq` in this position.
    pub(crate) fn attacked(&self, sq: Square, by: Color) -> bool {
        let i = self.tables().bit(sq);
        by_width!(self.attacked_here(i, by))
    }

    /// Whether `m`, just played by `by`, leaves the other side's king
    /// attacked. Before it that king stood unattacked (no move may leave
    /// one's king attacked, a null move is never made in check, and a
    /// setup with the side not to move in check is refused), so after a
    /// plain move only the piece now on `m.to`, or a rider seeing through
    /// the vacated `m.from`, can attack it: only those are looked at, the
    /// rides along the one line ([`Tables::pin_dir`]) through each square.
    /// Moves that change more squares (castling, en passant, the king's
    /// special move, waiting pawns' promotions) and kings' special attacks
    /// get the full attack test.
    pub(crate) fn gives_check(&self, m: &Move, by: Color) -> bool {
        let i = self.tables().bit(self.state.kings[by.other().index()]);
        by_width!(self.gives_check_here(m, i, by))
    }

    fn gives_check_here<B: Bits>(&self, m: &Move, i: usize, by: Color) -> bool {
        let t = self.tables();
        // Tested together, not one after another: each test is nearly
        // always true, and a branch simulator counted the chain of them
        // the most mispredicted of a replay (docs/internals.md: fewer
        // instructions, no time the machine shows).
        let plain = t.plain_check_test
            & matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep)
            & m.instant_promotion.is_none()
            & m.waiting_promotion.is_none()
            & (self.state.waiting_len == 0);
        if !plain {
            return self.attacked_on::<B>(i, by, self.occupancy(), self.side(by));
        }
        let them = by.other();
        let (fi, ti) = (t.bit(m.from), t.bit(m.to));
        // Most moves land where nothing of theirs could attack the king
        // from, and leave no line to it.
        let direct = t.check_reach::<B>(by, i).has(ti);
        let discovered = t.pin_lines::<B>(them, i).has(fi);
        if !direct && !discovered {
            return false;
        }
        // The moved piece by a pawn's capture or a leap.
        let k = usize::from(kind_of(self.state.board[m.to.index()]));
        if direct
            && ((k == t.pawn.index() && t.pawn_capture_from::<B>(by, i).has(ti))
                || (t.leap_capture_kinds[by.index()] & (1 << k) != 0
                    && t.leap_capture_from::<B>(by, k, i).has(ti)))
        {
            return true;
        }
        if B::ONE_WORD
            && let Some(s) = t.sliders
            && t.ride_groups[by.index()].is_empty()
        {
            // Every capturing ride of `by` is looked up (an 8x8 board): a
            // rider that sees the king now, which none did before the
            // move, is the moved piece or one the move uncovered.
            return self.looked_up_rider_sees(s, i, by, self.occupancy::<B>().low());
        }
        let occ = self.occupancy::<B>();
        // The first piece from the king along `d` is a rider of `by` that
        // reaches it.
        let rider_sees = |d: usize| self.rider_behind::<B>(d, i, i, occ, by).is_some();
        let along = |sq: usize| match t.pin_dir(them, i, sq) {
            PIN_NONE => false,
            PIN_SEVERAL => t.pin_dirs[them.index()]
                .iter()
                .any(|&d| t.ray_set::<B>(usize::from(d), i).has(sq) && rider_sees(usize::from(d))),
            d => rider_sees(usize::from(d)),
        };
        // A rider along the line the moved piece now stands on or the one
        // it left.
        (direct && along(ti)) || (discovered && along(fi))
    }

    fn attacked_here<B: Bits>(&self, i: usize, by: Color) -> bool {
        self.attacked_on::<B>(i, by, self.occupancy(), self.side(by))
    }

    /// Whether the pieces of `by` standing on `attackers` attack bit `i`
    /// when the squares `occ` are occupied: the position's, or those a
    /// trial move leaves.
    #[inline]
    pub(super) fn attacked_on<B: Bits>(&self, i: usize, by: Color, occ: B, attackers: B) -> bool {
        let t = self.tables();
        if !(self.leaping_to::<B>(by, i) & attackers).is_empty() {
            return true;
        }
        if B::ONE_WORD
            && let Some(s) = t.sliders
        {
            // An 8x8 board: the orthogonal and diagonal riders by look-up,
            // for those that stand on one of the square's lines at all
            // (a rider off them attacks it whatever stands between: most
            // squares a king steps to or castles through have none).
            let [orth, diag] = t.slide_attackers[by.index()];
            let (occ, attackers) = (occ.low(), attackers.low());
            let on_lines = attackers & t.pin_lines::<u64>(by.other(), i);
            if orth != 0 {
                let riders = self.of_kinds::<u64>(orth) & on_lines;
                if riders != 0 && s.rook(i, occ) & riders != 0 {
                    return true;
                }
            }
            if diag != 0 {
                let riders = self.of_kinds::<u64>(diag) & on_lines;
                if riders != 0 && s.bishop(i, occ) & riders != 0 {
                    return true;
                }
            }
        }
        for g in &t.ride_groups[by.index()] {
            let riders = self.of_kinds::<B>(g.kinds) & attackers & g.lines::<B>(i);
            if riders.is_empty() {
                continue;
            }
            for &d in &g.dirs {
                let du = usize::from(d);
                let ray = t.ray_set::<B>(du, i);
                if (ray & riders).is_empty() {
                    continue;
                }
                // Unlimited riders: the first piece on the ray must be one.
                // Limited ones: within their range along this direction.
                let hit = if g.max >= 15 {
                    riders.has(t.nearest(du, ray & occ))
                } else {
                    !(t.ride_set::<B>(d, i, g.max, occ) & riders).is_empty()
                };
                if hit {
                    return true;
                }
            }
        }
        if !t.special_attacks.is_empty() && self.state.king_rights[by.index()] {
            let k = self.state.kings[by.index()];
            let sq = t.square_at[i];
            let delta = (
                k.file() as i8 - sq.file() as i8,
                k.rank() as i8 - sq.rank() as i8,
            );
            if t.special_attacks.contains(&delta) && attackers.has(t.bit(k)) {
                return true;
            }
        }
        false
    }

    /// The pieces of both colours that would attack bit `i` if they were
    /// `by`'s pawns and leapers: those of `by` among them attack it.
    #[inline(always)]
    pub(super) fn leaping_to<B: Bits>(&self, by: Color, i: usize) -> B {
        let t = self.tables();
        let mut leaping = t.pawn_capture_from::<B>(by, i) & self.of_kind::<B>(t.pawn.index());
        let mut leapers = t.leap_capture_kinds[by.index()];
        while leapers != 0 {
            let k = leapers.trailing_zeros() as usize;
            leapers &= leapers - 1;
            leaping |= t.leap_capture_from::<B>(by, k, i) & self.of_kind::<B>(k);
        }
        leaping
    }

    /// [`Context::king_danger`], made on first use.
    fn king_danger<B: Bits>(&self, ctx: &Context<B>) -> Option<B> {
        *ctx.king_danger.get_or_init(|| {
            let king = B::single(self.tables().bit(ctx.king));
            self.looked_up_attacks::<B>(ctx.us.other(), self.occupancy::<B>() & !king)
        })
    }

    /// Every square the pieces of `by` attack on occupancy `occ`, found
    /// at once, where all their attacks are pawns' captures, leaps and
    /// looked-up rides (an 8x8 board: `sliders` module) and kings have
    /// no special attack; `None` elsewhere. A square is in it exactly
    /// when [`Position::attacked_on`] says it is attacked on `occ`.
    pub(super) fn looked_up_attacks<B: Bits>(&self, by: Color, occ: B) -> Option<B> {
        let t = self.tables();
        if !B::ONE_WORD || !t.ride_groups[by.index()].is_empty() || !t.special_attacks.is_empty() {
            return None;
        }
        let s = t.sliders?;
        let (theirs, occ) = (self.side::<u64>(by), occ.low());
        // The pawns' captures set-wise, each side's at once, as the
        // generator counts them.
        let pawns = self.of_kind::<u64>(t.pawn.index()) & theirs;
        let rank = u32::from(t.size.files);
        let mut map = 0u64;
        for side in 0..2 {
            let from = pawns & t.pawn_capture_side::<u64>(by, side);
            let step = rank + side as u32 * 2 - 1;
            map |= match by {
                Color::White => from << step,
                Color::Black => from >> (2 * rank - step),
            };
        }
        let mut leapers = t.leap_capture_kinds[by.index()];
        while leapers != 0 {
            let k = leapers.trailing_zeros() as usize;
            leapers &= leapers - 1;
            let moves = t.kind_moves(by, k);
            for i in (self.of_kind::<u64>(k) & theirs).indices() {
                map |= moves.leap_set::<u64>(0, i) | moves.leap_set::<u64>(2, i);
            }
        }
        let [orth, diag] = t.slide_attackers[by.index()];
        for i in (self.of_kinds::<u64>(orth) & theirs).indices() {
            map |= s.rook(i, occ);
        }
        for i in (self.of_kinds::<u64>(diag) & theirs).indices() {
            map |= s.bishop(i, occ);
        }
        Some(B::from_low(map))
    }

    /// [`Position::attacked`] the slow way, walking every ray and leap
    /// from the square over the board: the independent reference the
    /// debug builds check the incremental check flag against.
    #[cfg(debug_assertions)]
    pub(crate) fn attacked_by_walking(&self, sq: Square, by: Color) -> bool {
        let t = self.tables();
        let board = &self.state.board;
        let color_of = |c: u8| if c > 16 { Color::Black } else { Color::White };
        let pawn = Piece {
            color: by,
            kind: t.pawn,
        }
        .code();
        let dr = -t.pawn_push[by.index()];
        for df in [-1, 1] {
            if let Some(s) = t.size.offset(sq, df, dr)
                && board[s.index()] == pawn
            {
                return true;
            }
        }
        for &(s, mask) in t.leap_attackers(by, sq) {
            let c = board[s.index()];
            if c != 0 && color_of(c) == by && mask & (1 << kind_of(c)) != 0 {
                return true;
            }
        }
        let masks = &t.ride_mask[by.index()];
        for d in 0..t.dirs.len() {
            let back = &masks[t.reverse[d] as usize];
            for (i, &s) in t.ray(d as u8, sq).iter().enumerate() {
                let c = board[s.index()];
                if c != 0 {
                    if color_of(c) == by && back[i + 1] & (1 << kind_of(c)) != 0 {
                        return true;
                    }
                    break;
                }
                if back[i + 2] == 0 {
                    break;
                }
            }
        }
        if !t.special_attacks.is_empty() && self.state.king_rights[by.index()] {
            let k = self.state.kings[by.index()];
            let delta = (
                k.file() as i8 - sq.file() as i8,
                k.rank() as i8 - sq.rank() as i8,
            );
            if t.special_attacks.contains(&delta) && board[k.index()] != 0 {
                return true;
            }
        }
        false
    }

    /// The squares holding a piece of the side to move of `kind` (not a
    /// pawn) that its movement would bring to `to` on this board, legal or
    /// not: the squares a written move of that piece may come from.
    fn origins<B: Bits>(&self, kind: PieceKind, to: Square) -> B {
        let t = self.tables();
        let us = self.state.turn;
        let k = kind.index();
        let ti = t.bit(to);
        let occ = self.occupancy::<B>();
        let mine = self.side::<B>(us) & self.of_kind::<B>(k);
        let empty = !occ.has(ti);
        let mut from = B::EMPTY;
        if t.leapers & (1 << k) != 0 {
            from |= if empty {
                t.leap_move_from::<B>(us, k, ti)
            } else {
                t.leap_capture_from::<B>(us, k, ti)
            };
        }
        // The rook's and bishop's families of rides, looked up on an 8x8
        // board: each is its own reverse, and it reaches from `to` the
        // first piece met along each of its directions, moving or
        // capturing alike.
        let slides = t.slide_moves[us.index()][k];
        if B::ONE_WORD && slides != 0 {
            from |= B::from_low(t.slide_reach(slides, ti, occ.low()));
        }
        // Each other ride of the kind, ridden backwards from `to`: the
        // first piece met is the only one of that ride that can come.
        for &(d, max, mode) in &t.walked_rides[us.index()][k] {
            let back = t.reverse[d as usize];
            // A ride with none of our pieces of the kind on its line
            // brings none, whatever blocks it.
            if (t.ray_set::<B>(usize::from(back), ti) & mine).is_empty() {
                continue;
            }
            if if empty { mode.moves() } else { mode.captures() } {
                from |= t.ride_set::<B>(back, ti, max, occ);
            }
        }
        from & mine
    }

    /// Whether a piece of `kind` (not a pawn) of the side to move other
    /// than the one on `from` could move to `to` by its movement alone:
    /// when none can, a move from `from` needs no disambiguation, and no
    /// legality test has to say so.
    pub fn may_have_rival(&self, kind: PieceKind, from: Square, to: Square) -> bool {
        // The side's only piece of its kind (a king, most queens) has none.
        if self.state.counts[self.state.turn.index()][kind.index()] <= 1 {
            return false;
        }
        let t = self.tables();
        let fi = t.bit(from);
        by_width!(self.has_rival(kind, fi, to))
    }

    fn has_rival<B: Bits>(&self, kind: PieceKind, from: usize, to: Square) -> bool {
        !(self.origins::<B>(kind, to) & !B::single(from)).is_empty()
    }

    /// The waiting pawns that change this generation's moves: the
    /// opponent's blocked pawn a capture promotes (R-CS-6), and ours whose
    /// wait this move ends (R-CS-4, R-CS-5).
    fn note_waiting_pawns<B: Bits>(&self, ctx: &mut Context<B>) {
        if self.state.waiting_len == 0 {
            return;
        }
        let us = ctx.us;
        ctx.their_blocked = self
            .waiting_pawns()
            .iter()
            .find(|w| w.color != us && w.turns == 0)
            .map(|w| w.square);
        ctx.our_promoting = self
            .waiting_pawns()
            .iter()
            .find(|w| w.color == us && w.turns == 1)
            .map(|w| {
                let kinds = self
                    .available_kinds(us)
                    .iter()
                    .fold(0u16, |set, k| set | 1 << k.index());
                (w.square, kinds)
            });
    }

    /// Our pieces standing between our king and an enemy rider that would
    /// attack the king if they left: per direction a rider may come from,
    /// the first piece met must be ours and the next an enemy riding
    /// that far toward the king.
    fn pinned<B: Bits>(&self, us: Color, occ: B) -> B {
        let t = self.tables();
        let them = us.other();
        let ki = t.bit(self.state.kings[us.index()]);
        let ours = self.side::<B>(us);
        let mut pinned = B::EMPTY;
        let riders = self.side::<B>(them)
            & self.of_kinds::<B>(t.pin_kinds_all[us.index()])
            & t.pin_lines::<B>(us, ki);
        if riders.is_empty() {
            return pinned;
        }
        if B::ONE_WORD
            && let Some(s) = t.sliders
            && t.ride_groups[them.index()].is_empty()
        {
            // Every enemy ride is looked up: the pinners are the enemy
            // riders on the king's lines, each of a kind that rides that
            // line, with one piece between, ours.
            let [orth, diag] = t.slide_attackers[them.index()];
            let snipers = riders.low()
                & (s.rook(ki, 0) & self.of_kinds::<u64>(orth)
                    | s.bishop(ki, 0) & self.of_kinds::<u64>(diag));
            let (occ, ours) = (occ.low(), ours.low());
            let mut pinned = 0;
            for sniper in snipers.indices() {
                let shield = s.between(ki, sniper) & occ;
                if shield & ours != 0 && shield.without_first() == 0 {
                    pinned |= shield;
                }
            }
            return B::from_low(pinned);
        }
        for &d in &t.pin_dirs[us.index()] {
            let d = usize::from(d);
            let ray = t.ray_set::<B>(d, ki);
            if (ray & riders).is_empty() {
                continue;
            }
            let shield = t.nearest(d, ray & occ);
            if ours.has(shield) && self.rider_behind::<B>(d, ki, shield, occ, them).is_some() {
                pinned |= B::single(shield);
            }
        }
        pinned
    }

    /// The first piece along direction `d` beyond bit `from` (which lies
    /// on that ray from bit `target`), on occupancy `occ`, if it is a piece
    /// of `by` riding back along the ray as far as `target`: the rider that
    /// attacks `target` once `from` is empty.
    #[inline(always)]
    fn rider_behind<B: Bits>(
        &self,
        d: usize,
        target: usize,
        from: usize,
        occ: B,
        by: Color,
    ) -> Option<usize> {
        let t = self.tables();
        let beyond = t.ray_set::<B>(d, from) & occ;
        if beyond.is_empty() {
            return None;
        }
        let rider = t.nearest(d, beyond);
        if !self.side::<B>(by).has(rider) {
            return None;
        }
        let kind = 1 << kind_of(self.state.board[t.square_at[rider].index()]);
        let mask = &t.ride_mask[by.index()][t.reverse[d] as usize];
        // Riding to the edge of any board (15 steps), or not at all: the
        // distance does not matter.
        if mask[15] & kind != 0 {
            return Some(rider);
        }
        if mask[1] & kind == 0 {
            return None;
        }
        let (sq, origin) = (t.square_at[rider], t.square_at[target]);
        let (df, dr) = t.dirs[d];
        let steps = if df != 0 {
            (sq.file() as i8 - origin.file() as i8) / df
        } else {
            (sq.rank() as i8 - origin.rank() as i8) / dr
        };
        (mask[steps as usize] & kind != 0).then_some(rider)
    }

    /// Whether a plain move of our piece from bit `from` to bit `to`
    /// (neither castling nor en passant, nothing promoting) leaves our
    /// king unattacked (R-0-1). Out of check, a piece other than the king
    /// exposes it only by leaving the line between it and an enemy rider
    /// (a pin: see [`Position::pinned`]), so only that is looked at; the
    /// king's own moves and every move in check are tested on the
    /// occupancy they leave.
    #[inline]
    fn plain_move_is_safe<B: Bits>(&self, from: usize, to: usize) -> bool {
        let t = self.tables();
        let us = self.state.turn;
        let ki = t.bit(self.state.kings[us.index()]);
        if self.state.check || from == ki {
            let king = if from == ki { to } else { ki };
            return self.step_is_safe::<B>(us.other(), from, to, king);
        }
        match t.pin_dir(us, ki, from) {
            PIN_NONE => true,
            PIN_SEVERAL => t.pin_dirs[us.index()].iter().all(|&d| {
                let d = usize::from(d);
                !t.ray_set::<B>(d, ki).has(from) || self.pin_allows::<B>(d, ki, from, to)
            }),
            d => self.pin_allows::<B>(usize::from(d), ki, from, to),
        }
    }

    /// Whether our piece on bit `from`, on the ray `d` from our king on
    /// bit `ki`, may go to bit `to`: unless it is pinned along that ray,
    /// and then only along the line, up to and onto the rider.
    #[inline(always)]
    fn pin_allows<B: Bits>(&self, d: usize, ki: usize, from: usize, to: usize) -> bool {
        let t = self.tables();
        let occ = self.occupancy::<B>();
        let ray = t.ray_set::<B>(d, ki);
        if t.nearest(d, ray & occ) != from {
            return true;
        }
        self.rider_behind::<B>(d, ki, from, occ, self.state.turn.other())
            .is_none_or(|rider| ray.has(to) && !t.ray_set::<B>(d, rider).has(to))
    }

    /// The legal move a written move names, when it is a plain one found
    /// without generating: pieces of `kind` landing on `to`, from the
    /// given origin `file` and `rank` if any. `Some` only when exactly one
    /// legal move matches and it is an ordinary move or a pawn's step or
    /// double step (no capture en passant, no promotion, no castling or
    /// special king move that could land there, no waiting pawn on the
    /// board); `None` says to ask [`Position::legal_moves_named_into`],
    /// which answers every case (and finds the same move here).
    #[inline]
    pub fn plain_named_move(
        &self,
        kind: PieceKind,
        to: Square,
        file: Option<u8>,
        rank: Option<u8>,
    ) -> Option<Move> {
        let (from, kind) = self.plain_named_origin(kind, to, file, rank)?;
        Some(Move {
            kind,
            ..Move::normal(from, to)
        })
    }

    /// The castling toward `side` a written castle names, when it is the
    /// usual one, found by testing its own squares: `Some` only when
    /// exactly one castling toward `side` is legal, the king is royal,
    /// not in check, and no play rule, explosion or waiting pawn takes
    /// part. `None` says to ask [`Position::legal_castlings_toward_into`],
    /// which answers every case (and finds the same move here). The
    /// generation's way made the opponent's whole attack map for the two
    /// or three squares a castling needs, and set up a generation around
    /// it: with the general resolution of a written move about it, some
    /// 1,600 instructions a castling of a replay, about twice this way's.
    pub fn plain_castling(&self, side: CastlingSide) -> Option<Move> {
        let t = self.tables();
        if t.play_rules
            || !t.royal
            || t.def.explosion.is_some()
            || self.state.check
            || self.state.waiting_len != 0
            || self.variant.has_waiting_promotion()
            || self.state.castling.king[self.state.turn.index()] == Stage::Moved
        {
            return None;
        }
        by_width!(self.plain_castling_here(side))
    }

    fn plain_castling_here<B: Bits>(&self, side: CastlingSide) -> Option<Move> {
        let t = self.tables();
        let us = self.state.turn;
        let them = us.other();
        let king = self.state.kings[us.index()];
        let (occ, attackers) = (self.occupancy::<B>(), self.side::<B>(them));
        let partner = |kind| Some(Piece { color: us, kind });
        let mut found = None;
        for (i, c) in t.castlings[us.index()].iter().enumerate() {
            if t.def.castling[usize::from(c.index)].side != side
                || king != c.king_from
                || !self.state.castling.ready_for(t, us, i)
                || self.piece_at(c.partner_from) != partner(c.partner_kind)
                || !(occ & B::load(&c.empty_bits)).is_empty()
                // As the generation judges them: on the board as it
                // stands (the king's own square is not in check; a line
                // through it to another square would be one).
                || c.safe.iter().any(|&s| {
                    s != king && self.attacked_on::<B>(t.bit(s), them, occ, attackers)
                })
            {
                continue;
            }
            // Then on the board it leaves, as every castling is
            // (`safe_after`): the partner's square may have hidden a line
            // to the king's.
            if self.castling_lands_in_check_here::<B>(c.index) {
                continue;
            }
            let m = Move {
                kind: MoveKind::Castle(c.index),
                ..Move::normal(c.king_from, c.king_to)
            };
            if found.replace(m).is_some() {
                return None;
            }
        }
        found
    }

    /// [`Position::plain_named_move`]'s origin and kind of move. The move
    /// is made by the caller: a whole [`Move`] would come back through
    /// memory, and its copy, read right after this wrote it field by
    /// field, waited on those writes (a failed store forwarding); these
    /// three bytes come back in a register.
    fn plain_named_origin(
        &self,
        kind: PieceKind,
        to: Square,
        file: Option<u8>,
        rank: Option<u8>,
    ) -> Option<(Square, MoveKind)> {
        if self.state.waiting_len != 0
            || !self.variant.size().contains(to)
            || self.tables().play_rules
        {
            return None;
        }
        let hints = Hints { file, rank };
        by_width!(self.plain_named_here(kind, to, hints))
    }

    fn plain_named_here<B: Bits>(
        &self,
        kind: PieceKind,
        to: Square,
        hints: Hints,
    ) -> Option<(Square, MoveKind)> {
        let t = self.tables();
        let us = self.state.turn;
        let ti = t.bit(to);
        let target = Piece::from_code(self.state.board[to.index()]);
        if target.is_some_and(|p| p.color == us) {
            return None;
        }
        if kind == t.pawn {
            if t.zone_set::<B>(us).has(ti) || self.state.ep_square == Some(to) {
                return None;
            }
            let ours = Piece { color: us, kind }.code();
            let back = -t.pawn_push[us.index()];
            let mut found = None;
            let mut take = |from: Square, kind: MoveKind| -> Result<(), ()> {
                if !hints.allow(from) || !self.plain_move_is_safe::<B>(t.bit(from), ti) {
                    return Ok(());
                }
                if found.is_some() {
                    return Err(());
                }
                found = Some((from, kind));
                Ok(())
            };
            if target.is_some() {
                for fi in t.pawn_capture_from::<B>(us, ti).indices() {
                    let from = t.square_at[fi];
                    if self.state.board[from.index()] == ours {
                        take(from, MoveKind::Normal).ok()?;
                    }
                }
            } else {
                let one = t.size.offset(to, 0, back)?;
                if self.state.board[one.index()] == ours {
                    take(one, MoveKind::Normal).ok()?;
                } else if self.state.board[one.index()] == 0
                    && let Some(two) = t.size.offset(to, 0, 2 * back)
                    && self.state.board[two.index()] == ours
                    && t.double_step_set::<B>(us).has(t.bit(two))
                {
                    take(two, MoveKind::DoubleStep).ok()?;
                }
            }
            return found;
        }
        if kind == t.king && self.king_may_arrive_specially(us, self.state.kings[us.index()], to) {
            return None;
        }
        let mut found = None;
        for fi in self.origins::<B>(kind, to).indices() {
            let from = t.square_at[fi];
            if hints.allow(from) && self.plain_move_is_safe::<B>(fi, ti) {
                if found.is_some() {
                    return None;
                }
                found = Some((from, MoveKind::Normal));
            }
        }
        found
    }

    /// The context of a generation. A full one finds the pins; one of a
    /// few moves (`few`) only notes the pieces on a line a rider could pin
    /// along, whose moves are then tested.
    fn context<B: Bits>(
        &self,
        test_legality: bool,
        only_to: Option<Square>,
        few: bool,
    ) -> Context<B> {
        let us = self.state.turn;
        let king = self.state.kings[us.index()];
        let pinned = if !test_legality || self.state.check {
            B::EMPTY
        } else if few {
            let t = self.tables();
            t.pin_lines::<B>(us, t.bit(king)) & self.side::<B>(us)
        } else {
            self.pinned::<B>(us, self.occupancy())
        };
        let mut ctx = Context {
            us,
            king,
            in_check: self.state.check,
            pinned,
            any_pinned: !pinned.is_empty(),
            their_blocked: None,
            our_promoting: None,
            test_legality,
            only_to,
            plain: true,
            king_danger: std::cell::OnceCell::new(),
        };
        self.note_waiting_pawns(&mut ctx);
        ctx.plain = ctx.their_blocked.is_none() && ctx.our_promoting.is_none();
        ctx
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        self.legal_moves_into(&mut out);
        out
    }

    /// Every legal move, into `out` (cleared first), to reuse one buffer.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        if self.tables().play_rules {
            return self.rule_moves(out);
        }
        self.generate(out, true, None, None);
    }

    /// The legal moves of pieces of `kind` that land on `to` (castling:
    /// where the king lands), each filter only if given: what a written
    /// move can name, found without generating the others.
    pub fn legal_moves_filtered(&self, kind: Option<PieceKind>, to: Option<Square>) -> Vec<Move> {
        let mut out = Vec::with_capacity(if to.is_some() { 4 } else { 64 });
        self.legal_moves_filtered_into(kind, to, &mut out);
        out
    }

    /// [`Position::legal_moves_filtered`] into `out` (cleared first), to
    /// reuse one buffer.
    pub fn legal_moves_filtered_into(
        &self,
        kind: Option<PieceKind>,
        to: Option<Square>,
        out: &mut Vec<Move>,
    ) {
        if self.tables().play_rules {
            self.rule_moves(out);
            out.retain(|m| {
                m.dropped().is_none()
                    && to.is_none_or(|to| m.to == to)
                    && kind.is_none_or(|k| self.piece_at(m.from).is_some_and(|p| p.kind == k))
            });
            return;
        }
        match (kind, to) {
            (Some(kind), Some(to)) => {
                out.clear();
                by_width!(self.generate_to::<_>(out, kind, to, Hints::default()));
            }
            _ => self.generate(out, true, kind, to),
        }
    }

    /// Whether the side to move has a legal en passant capture onto `ep`.
    pub(crate) fn can_take_en_passant(&self, ep: Square) -> bool {
        let t = self.tables();
        if t.play_rules {
            return self
                .legal_moves_filtered(Some(t.pawn), Some(ep))
                .iter()
                .any(|m| m.kind == MoveKind::EnPassant);
        }
        let mut seen = EnPassantSeen::default();
        by_width!(self.generate_to::<_>(&mut seen, t.pawn, ep, Hints::default()));
        seen.en_passant
    }

    /// The legal castlings, into `out` (cleared first): the castling moves
    /// of [`Position::legal_moves`], in the same order, without the others.
    pub fn legal_castlings_into(&self, out: &mut Vec<Move>) {
        if self.tables().play_rules {
            self.rule_moves(out);
            out.retain(Move::is_castle);
            return;
        }
        out.clear();
        by_width!(self.castlings_into(out, None));
    }

    /// [`Position::legal_castlings_into`], only the castlings toward
    /// `side` (what `O-O` or `O-O-O` names): the others' squares are not
    /// tested.
    pub fn legal_castlings_toward_into(&self, side: CastlingSide, out: &mut Vec<Move>) {
        if self.tables().play_rules {
            let t = self.tables();
            self.rule_moves(out);
            out.retain(|m| matches!(m.kind, MoveKind::Castle(i) if t.def.castling[i as usize].side == side));
            return;
        }
        out.clear();
        by_width!(self.castlings_into(out, Some(side)));
    }

    fn castlings_into<B: Bits>(&self, out: &mut Vec<Move>, side: Option<CastlingSide>) {
        // Castlings are tested one by one: the pins are not needed.
        let ctx = self.context::<B>(true, None, true);
        self.castling_moves_toward(&ctx, side, out);
    }

    /// The legal moves a written move names: pieces of `kind` landing on
    /// `to`, from the given origin `file` and `rank` if any, into `out`
    /// (cleared first). Castlings and the king's special moves landing on
    /// `to` come whatever the hints (the caller matches them itself).
    /// Only the squares such a piece could come from are looked at.
    pub fn legal_moves_named_into(
        &self,
        kind: PieceKind,
        to: Square,
        file: Option<u8>,
        rank: Option<u8>,
        out: &mut Vec<Move>,
    ) {
        if self.tables().play_rules {
            let hints = Hints { file, rank };
            let t = self.tables();
            self.rule_moves(out);
            out.retain(|m| {
                m.dropped().is_none()
                    && m.to == to
                    && self.piece_at(m.from).is_some_and(|p| p.kind == kind)
                    && (hints.allow(m.from)
                        || (kind == t.king
                            && matches!(m.kind, MoveKind::Castle(_) | MoveKind::SpecialKing)))
            });
            return;
        }
        out.clear();
        by_width!(self.generate_to::<_>(out, kind, to, Hints { file, rank }))
    }

    /// The legal moves of our pieces of `kind` to `to`, found backwards
    /// from `to`, their origins filtered by `hints`.
    /// Whether the king of `us` (on `king`) may come to `to` otherwise than
    /// by a plain step: by one of its castlings, or by the variant's
    /// special king move. Those moves are not plain ones, so a written
    /// king move to such a square takes the general path.
    fn king_may_arrive_specially(&self, us: Color, king: Square, to: Square) -> bool {
        let t = self.tables();
        t.castlings[us.index()].iter().any(|c| c.king_to == to)
            || t.def.special_king_move.as_ref().is_some_and(|sp| {
                sp.offsets
                    .iter()
                    .any(|&(df, dr)| t.size.offset(king, df, dr) == Some(to))
            })
    }

    /// The legal moves of `kind` to `to` from the origins `hints` allows,
    /// added to `out`.
    fn generate_to<B: Bits, S: Sink>(
        &self,
        out: &mut S,
        kind: PieceKind,
        to: Square,
        hints: Hints,
    ) {
        let t = self.tables();
        let us = self.state.turn;
        let ctx = self.context::<B>(true, Some(to), true);
        if kind == t.pawn {
            let ours = Piece { color: us, kind }.code();
            // At most four pawns reach one square.
            let mut from_squares: [Square; 4] = [to; 4];
            let mut n = 0;
            let back = -t.pawn_push[us.index()];
            for (df, dr) in [(0, back), (0, 2 * back), (-1, back), (1, back)] {
                if let Some(s) = t.size.offset(to, df, dr)
                    && self.state.board[s.index()] == ours
                    && !self.state.immune.contains(s)
                    && hints.allow(s)
                {
                    from_squares[n] = s;
                    n += 1;
                }
            }
            let pawns = from_squares[..n]
                .iter()
                .fold(B::EMPTY, |set, &s| set | B::single(t.bit(s)));
            self.pawn_moves(&ctx, pawns, B::single(t.bit(to)), out);
            return;
        }
        let target = self.state.board[to.index()];
        // No capture of one's own piece or a waiting pawn (R-CS-3); a
        // king's castling may still land here only on an empty square.
        let open = target == 0
            || (Piece::from_code(target).is_some_and(|p| p.color != us)
                && !self.state.immune.contains(to));
        if open {
            for fi in self.origins::<B>(kind, to).indices() {
                let from = t.square_at[fi];
                if hints.allow(from) {
                    self.push(&ctx, Move::normal(from, to), out);
                }
            }
        }
        if kind == t.king && self.king_may_arrive_specially(us, ctx.king, to) {
            self.special_king_moves(&ctx, out);
            self.castling_moves(&ctx, out);
        }
    }

    /// Moves that obey piece movement but may leave the king attacked.
    pub(crate) fn pseudo_legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.generate(&mut out, false, None, None);
        out
    }

    /// Whether there is any legal move: stops at the first kind of piece
    /// that has one, trying the king's own moves first when in check (the
    /// likeliest way out of it). Mate and stalemate tests need no more.
    pub fn has_legal_move(&self) -> bool {
        if self.tables().play_rules {
            let mut out = Vec::new();
            self.rule_moves(&mut out);
            return !out.is_empty();
        }
        // In check every move of the general generation is tested on the
        // occupancy it leaves; counted from sets, none is.
        if self.state.check && self.tables().looked_up_count {
            return self.count_looked_up() > 0;
        }
        // Counted, not listed: moves that need no test are not made.
        let mut out = AnyMove(MoveCount(0));
        if self.state.check {
            let king = Some(self.tables().king);
            by_width!(self.generate_until::<_>(&mut out, true, king, None));
            if !out.is_empty() {
                return true;
            }
        }
        by_width!(self.generate_until::<_>(&mut out, true, None, None));
        !out.is_empty()
    }

    pub(crate) fn generate(
        &self,
        out: &mut Vec<Move>,
        test_legality: bool,
        only_kind: Option<PieceKind>,
        only_to: Option<Square>,
    ) {
        out.clear();
        by_width!(self.generate_until::<_>(out, test_legality, only_kind, only_to));
    }

    /// The number of legal moves, [`Position::legal_moves`]`.len()`,
    /// found without making the moves that need no legality test: perft's
    /// bulk count at the last ply.
    pub fn count_legal_moves(&self) -> usize {
        if self.tables().play_rules {
            let mut out = Vec::new();
            self.rule_moves(&mut out);
            return out.len();
        }
        if self.tables().looked_up_count {
            return self.count_looked_up();
        }
        let mut count = MoveCount(0);
        by_width!(self.generate_until::<_>(&mut count, true, None, None));
        count.0
    }

    /// The generation; for a sink of the first move only
    /// ([`Sink::FIRST_ONLY`]), it may stop once `out` holds a move.
    fn generate_until<B: Bits, S: Sink>(
        &self,
        out: &mut S,
        test_legality: bool,
        only_kind: Option<PieceKind>,
        only_to: Option<Square>,
    ) {
        let first_only = S::FIRST_ONLY;
        let t = self.tables();
        let us = self.state.turn;
        let ctx = self.context::<B>(test_legality, only_to, false);
        let occ = self.occupancy::<B>();
        let immune = B::load(&self.state.immune_bits);
        let empty = !occ;
        let capturable = self.side::<B>(us.other()) & !immune;
        let within = match only_to {
            Some(to) => B::single(t.bit(to)),
            None => !B::EMPTY,
        };
        let onto = [
            (empty | capturable) & within,
            empty & within,
            capturable & within,
        ];
        let own = self.side::<B>(us);
        let movers = own & !immune;
        let king = t.bit(ctx.king);
        // Most pieces of a crowded rank have none but their own around:
        // those of the kinds that only step next to their square are left
        // out at once.
        let reachable = t.with_neighbours(!own & t.board_set::<B>());
        // Looking for any move, the king's come last: each needs the
        // legality test.
        let king_kind = t.king.index();
        for n in 0..t.kind_count {
            let k = if !first_only || n < king_kind {
                n
            } else if n + 1 == t.kind_count {
                king_kind
            } else {
                n + 1
            };
            if only_kind.is_some_and(|only| only.index() != k) {
                continue;
            }
            let mut pieces = movers & self.of_kind::<B>(k);
            if t.near_kinds[us.index()] & (1 << k) != 0 {
                pieces &= reachable;
            }
            if pieces.is_empty() {
                continue;
            }
            if first_only && !out.is_empty() {
                return;
            }
            if k == t.pawn.index() {
                self.pawn_moves(&ctx, pieces, within, out);
                continue;
            }
            let modes = t.leap_modes[us.index()][k];
            let slides = t.slide_moves[us.index()][k];
            let moves = t.kind_moves(us, k);
            for fi in pieces.indices() {
                // A piece hemmed in by its own has no move.
                if (moves.step_set::<B>(fi) & !own).is_empty() {
                    continue;
                }
                let mut targets = B::EMPTY;
                // Most kinds leap in one mode (to an empty square or to
                // capture alike), if at all.
                if modes & 1 != 0 {
                    targets = moves.leap_set::<B>(0, fi) & onto[0];
                }
                if modes & 6 != 0 {
                    targets |= (moves.leap_set::<B>(1, fi) & onto[1])
                        | (moves.leap_set::<B>(2, fi) & onto[2]);
                }
                if B::ONE_WORD && slides != 0 {
                    targets |= B::from_low(t.slide_reach(slides, fi, occ.low())) & onto[0];
                }
                for r in moves.live_rides(fi) {
                    // A ride whose first square holds one of ours goes nowhere.
                    if own.has(usize::from(r.first)) {
                        continue;
                    }
                    targets |= t.live_ride::<B>(r, occ) & onto[usize::from(r.onto)];
                }
                let mut test = ctx.must_test(fi, king);
                // The king with several moves: the squares attacked once
                // it has left its square are found at once.
                if B::ONE_WORD
                    && test
                    && fi == king
                    && ctx.plain
                    && !targets.is_empty()
                    && !targets.without_first().is_empty()
                    && let Some(danger) = self.king_danger(&ctx)
                {
                    targets &= !danger;
                    test = false;
                }
                if S::COUNTS && ctx.plain && !test {
                    out.add_count(targets.count());
                    continue;
                }
                // The king with one move (a step out of the first rank, as
                // most positions of a game's start have): counted by the
                // attack test of its square, with no move made to test.
                if S::COUNTS
                    && ctx.plain
                    && fi == king
                    && !targets.is_empty()
                    && targets.without_first().is_empty()
                {
                    let ti = targets.first();
                    out.add_count(u32::from(self.step_is_safe::<B>(us.other(), fi, ti, ti)));
                    continue;
                }
                let from = t.square_at[fi];
                for ti in targets.indices() {
                    self.emit(&ctx, test, Move::normal(from, t.square_at[ti]), out);
                }
            }
        }
        if only_kind.is_none_or(|k| k == t.king) {
            self.special_king_moves(&ctx, out);
            self.castling_moves(&ctx, out);
        }
    }

    /// The moves of our `pawns` that land `within`.
    fn pawn_moves<B: Bits, S: Sink>(&self, ctx: &Context<B>, pawns: B, within: B, out: &mut S) {
        let t = self.tables();
        let us = ctx.us;
        let last = t.last_rank[us.index()];
        let rank = u32::from(t.size.files);
        let forward = |set: B| match us {
            Color::White => set.up(rank),
            Color::Black => set.down(rank),
        };
        let origin = |i: usize| match us {
            Color::White => i - rank as usize,
            Color::Black => i + rank as usize,
        };
        let king = t.bit(ctx.king);
        let occ = self.occupancy::<B>();
        let empty = !occ & t.board_set::<B>();
        let zone = t.zone_set::<B>(us);
        let capturable = self.side::<B>(us.other()) & !B::load(&self.state.immune_bits) & within;
        // Counting only, the moves of pawns that need no legality test are
        // counted set-wise (promotions aside: each may be several moves).
        let bulk = if S::COUNTS && ctx.plain {
            pawns & !ctx.tested(pawns, king)
        } else {
            B::EMPTY
        };
        let double_from = t.double_step_set::<B>(us);
        let one = forward(pawns) & empty & within;
        let two = forward(forward(pawns & double_from) & empty) & empty & within;
        let (mut one_left, mut two_left) = (one, two);
        if !bulk.is_empty() && bulk == pawns {
            // Usually no pawn needs the test: every step is counted but
            // those into the zone (a double step may reach it too), with
            // no more shifts.
            out.add_count((one & !zone).count() + (two & !zone).count());
            one_left &= zone;
            two_left &= zone;
        } else if !bulk.is_empty() {
            let counted = forward(bulk) & !zone;
            let two_counted = forward(forward(bulk & double_from) & empty) & !zone;
            out.add_count((one & counted).count() + (two & two_counted).count());
            one_left &= !counted;
            two_left &= !two_counted;
        }
        for ti in one_left.indices() {
            let fi = origin(ti);
            let m = Move::normal(t.square_at[fi], t.square_at[ti]);
            if zone.has(ti) {
                self.pawn_to(ctx, m, last, out);
            } else {
                self.emit(ctx, ctx.must_test(fi, king), m, out);
            }
        }
        for ti in two_left.indices() {
            let fi = origin(origin(ti));
            let m = Move {
                kind: MoveKind::DoubleStep,
                ..Move::normal(t.square_at[fi], t.square_at[ti])
            };
            if zone.has(ti) {
                // Double steps allowed up to the zone promote as steps do.
                self.pawn_to(ctx, m, last, out);
            } else {
                self.emit(ctx, ctx.must_test(fi, king), m, out);
            }
        }
        let ep = self
            .state
            .ep_square
            .filter(|&ep| t.def.pawns.en_passant && self.state.board[ep.index()] == 0)
            .map(|ep| t.bit(ep));
        // Counting, the captures of the pawns that need no test are
        // counted set-wise, each side's at once, unless one of them lands
        // in the zone (promotions); their captures en passant, if any,
        // are then made one by one (each needs the test).
        let mut each = pawns;
        if !bulk.is_empty() {
            let diagonal = |side: usize| {
                let from = bulk & t.pawn_capture_side::<B>(us, side);
                // Toward file a one less than a rank, toward the last file one more.
                let step = rank + side as u32 * 2 - 1;
                let to = match us {
                    Color::White => from.up(step),
                    Color::Black => from.down(2 * rank - step),
                };
                to & capturable
            };
            let (left, right) = (diagonal(0), diagonal(1));
            if ((left | right) & zone).is_empty() {
                out.add_count(left.count() + right.count());
                each = pawns & !bulk;
                if let Some(ei) = ep.filter(|&ei| within.has(ei)) {
                    let to = t.square_at[ei];
                    for fi in (t.pawn_capture_from::<B>(us, ei) & bulk).indices() {
                        let m = Move {
                            kind: MoveKind::EnPassant,
                            ..Move::normal(t.square_at[fi], to)
                        };
                        self.push(ctx, m, out);
                    }
                }
            }
        }
        for fi in each.indices() {
            let attacks = t.pawn_captures::<B>(us, fi);
            let mut captures = attacks & capturable;
            if bulk.has(fi) {
                out.add_count((captures & !zone).count());
                captures &= zone;
            }
            let from = t.square_at[fi];
            let test = ctx.must_test(fi, king);
            for ti in captures.indices() {
                let m = Move::normal(from, t.square_at[ti]);
                if zone.has(ti) {
                    self.pawn_to(ctx, m, last, out);
                } else {
                    self.emit(ctx, test, m, out);
                }
            }
            if let Some(ei) = ep
                && attacks.has(ei)
                && within.has(ei)
            {
                self.push(
                    ctx,
                    Move {
                        kind: MoveKind::EnPassant,
                        ..Move::normal(from, t.square_at[ei])
                    },
                    out,
                );
            }
        }
    }

    /// The kinds of `kinds` a pawn of `us` may promote to now: those whose
    /// number on the board has not reached its limit.
    pub(super) fn promotable<'a>(
        &'a self,
        us: Color,
        kinds: &'a [PieceKind],
    ) -> impl Iterator<Item = PieceKind> + 'a {
        let limits = &self.tables().def.pawns.promotion_limits;
        kinds.iter().copied().filter(move |&k| {
            !limits
                .iter()
                .any(|&(lk, n)| lk == k && self.state.counts[us.index()][k.index()] >= n)
        })
    }

    /// A pawn's move `m` into the promotion zone, with its promotions.
    fn pawn_to<B: Bits, S: Sink>(&self, ctx: &Context<B>, m: Move, last: u8, out: &mut S) {
        let t = self.tables();
        let to = m.to;
        if !t.def.pawns.promotion_mandatory && to.rank() != last {
            self.push(ctx, m, out);
        }
        match &t.def.pawns.promotion {
            PromotionRule::Choice(kinds) => {
                for k in self.promotable(ctx.us, kinds) {
                    self.push(
                        ctx,
                        Move {
                            promotion: Some(k),
                            ..m
                        },
                        out,
                    );
                }
            }
            PromotionRule::SetupSquare { .. } => {
                let k = t.promote_on[ctx.us.index()][to.file() as usize];
                self.push(ctx, Move { promotion: k, ..m }, out);
            }
            PromotionRule::Waiting { .. } | PromotionRule::InPlace { .. } => self.push(ctx, m, out),
        }
    }

    fn special_king_moves<B: Bits, S: Sink>(&self, ctx: &Context<B>, out: &mut S) {
        let t = self.tables();
        let Some(sp) = &t.def.special_king_move else {
            return;
        };
        if !self.state.king_rights[ctx.us.index()] || (sp.forbidden_in_check && ctx.in_check) {
            return;
        }
        let them = ctx.us.other();
        for &(df, dr) in &sp.offsets {
            let Some(to) = t.size.offset(ctx.king, df, dr) else {
                continue;
            };
            if ctx.only_to.is_some_and(|only| only != to) {
                continue;
            }
            let target = self.piece_at(to);
            if target.is_some_and(|p| p.color == ctx.us || !sp.may_capture)
                || self.state.immune.contains(to)
            {
                continue;
            }
            if sp.leapt_square_guarded {
                let Some(mid) = t.size.offset(ctx.king, df / 2, dr / 2) else {
                    continue;
                };
                if self.piece_at(mid).is_some_and(|p| p.color == them) || self.attacked(mid, them) {
                    continue;
                }
            }
            self.push(
                ctx,
                Move {
                    kind: MoveKind::SpecialKing,
                    ..Move::normal(ctx.king, to)
                },
                out,
            );
        }
    }

    /// The legal castlings of a position out of check, for the looked-up
    /// generation: `danger` holds the enemy attacks with our king lifted
    /// off its square ([`Position::looked_up_attacks`]) when already found.
    pub(super) fn castlings_looked_up<S: Sink>(&self, danger: Option<u64>, out: &mut S) {
        let us = self.state.turn.index();
        if self.state.castling.king[us] == Stage::Moved {
            return;
        }
        // Most castlings wait for the squares between to empty.
        let occ = self.occupancy::<u64>();
        if self.tables().castlings[us]
            .iter()
            .all(|c| occ & u64::load(&c.empty_bits) != 0)
        {
            return;
        }
        let ctx = Context::<u64> {
            us: self.state.turn,
            king: self.state.kings[self.state.turn.index()],
            in_check: false,
            pinned: 0,
            any_pinned: false,
            their_blocked: None,
            our_promoting: None,
            test_legality: true,
            only_to: None,
            plain: true,
            king_danger: danger.map_or_else(std::cell::OnceCell::new, |map| {
                std::cell::OnceCell::from(Some(map))
            }),
        };
        self.castling_moves(&ctx, out);
    }

    fn castling_moves<B: Bits, S: Sink>(&self, ctx: &Context<B>, out: &mut S) {
        self.castling_moves_toward(ctx, None, out);
    }

    /// The castling moves, only those toward `side` if given.
    fn castling_moves_toward<B: Bits, S: Sink>(
        &self,
        ctx: &Context<B>,
        side: Option<CastlingSide>,
        out: &mut S,
    ) {
        // A side's king is `Moved` once none of its castlings can happen
        // (`CastlingState::canonical`).
        if ctx.in_check || self.state.castling.king[ctx.us.index()] == Stage::Moved {
            return;
        }
        let t = self.tables();
        let us = ctx.us;
        // The squares the opponent attacks, found once for every castling
        // when they can be (without explosions, whose castling squares
        // are judged otherwise). Made with the king off its square, the
        // map differs only beyond it on a line from an enemy rider, which
        // would then give check: there is no castling in check.
        let attacked = |s: Square, castling: u8| {
            let danger = if B::ONE_WORD && t.def.explosion.is_none() {
                self.king_danger(ctx)
            } else {
                None
            };
            match danger {
                Some(map) => map.has(t.bit(s)),
                None => self.castling_square_attacked(s, us.other(), castling),
            }
        };
        let occ = self.occupancy::<B>();
        for (i, c) in t.castlings[us.index()].iter().enumerate() {
            // Most castlings wait for the squares between to empty.
            if !(occ & B::load(&c.empty_bits)).is_empty() {
                continue;
            }
            let king_may_go = || {
                if t.royal {
                    ctx.king == c.king_from && !c.safe.iter().any(|&s| attacked(s, c.index))
                } else {
                    // A king that is not royal castles out of, through and
                    // into attack (Fairy-Stockfish's giveaway). It is a
                    // piece like the others: it may have been taken, and a
                    // side may have several, so its square is looked at.
                    self.piece_at(c.king_from)
                        == Some(Piece {
                            color: us,
                            kind: t.king,
                        })
                }
            };
            if side.is_some_and(|side| t.def.castling[c.index as usize].side != side)
                || ctx.only_to.is_some_and(|to| to != c.king_to)
                || !self.state.castling.ready_for(t, us, i)
                || self.piece_at(c.partner_from)
                    != Some(Piece {
                        color: us,
                        kind: c.partner_kind,
                    })
                || !king_may_go()
            {
                continue;
            }
            let m = Move {
                kind: MoveKind::Castle(c.index),
                ..Move::normal(c.king_from, c.king_to)
            };
            // Every enemy attack on the map and the king's squares clear on
            // it, its landing square among them: once castled, only a
            // rider seeing that square through the partner's, left empty,
            // could attack it there.
            if ctx.plain
                && ctx.test_legality
                && t.royal
                && B::ONE_WORD
                && t.def.explosion.is_none()
                && c.safe.contains(&c.king_to)
                && self.king_danger(ctx).is_some()
            {
                if !c.landing_exposed || !self.slider_sees_landing(c.index, us.other()) {
                    out.add(m);
                }
                continue;
            }
            self.push(ctx, m, out);
        }
    }

    /// Whether a rider of `by` looked up in `sliders` (an 8x8 board)
    /// attacks the square castling number `castling` lands the king on,
    /// on the board the castling leaves.
    fn slider_sees_landing(&self, castling: u8, by: Color) -> bool {
        let t = self.tables();
        let Some(s) = t.sliders else {
            return self.castling_lands_in_check_here::<u64>(castling);
        };
        let c = &t.def.castling[usize::from(castling)];
        let occ = self.occupancy_after_castling::<u64>(castling);
        self.looked_up_rider_sees(s, t.bit(c.king_to), by, occ)
    }

    /// Whether a rider of `by` whose rides `sliders` looks up (`s`, an
    /// 8x8 board) attacks bit `i` on occupancy `occ`.
    #[inline(always)]
    fn looked_up_rider_sees(&self, s: &Sliders, i: usize, by: Color, occ: u64) -> bool {
        let [orth, diag] = self.tables().slide_attackers[by.index()];
        let theirs = self.side::<u64>(by);
        (orth != 0 && s.rook(i, occ) & self.of_kinds::<u64>(orth) & theirs != 0)
            || (diag != 0 && s.bishop(i, occ) & self.of_kinds::<u64>(diag) & theirs != 0)
    }

    /// Whether castling number `castling` would leave the king attacked
    /// where it lands, judged on the board the castling leaves: the test
    /// every castling takes last (`safe_after`), and the explanation's.
    pub(crate) fn castling_lands_in_check(&self, castling: u8) -> bool {
        by_width!(self.castling_lands_in_check_here(castling))
    }

    fn castling_lands_in_check_here<B: Bits>(&self, castling: u8) -> bool {
        let t = self.tables();
        let them = self.state.turn.other();
        let c = &t.def.castling[usize::from(castling)];
        let after = self.occupancy_after_castling::<B>(castling);
        self.attacked_on::<B>(t.bit(c.king_to), them, after, self.side::<B>(them))
    }

    /// Whether `by` attacks `sq`, a square the king of castling number
    /// `castling` stands on, passes or lands on. With explosions the enemy
    /// king attacks nothing (a king never captures there), a square next
    /// to it is safe (taking a king there would blow up the taker's own),
    /// and the king may stand next to an enemy rider without being in
    /// check, so lines are taken as they are once both pieces have landed.
    fn castling_square_attacked(&self, sq: Square, by: Color, castling: u8) -> bool {
        if self.tables().def.explosion.is_none() {
            return self.attacked(sq, by);
        }
        !sq.touches(self.state.kings[by.index()])
            && by_width!(self.attacked_after_castling(sq, by, castling))
    }

    fn attacked_after_castling<B: Bits>(&self, sq: Square, by: Color, castling: u8) -> bool {
        let t = self.tables();
        let attackers = self.side::<B>(by) & !self.of_kind::<B>(t.king.index());
        let occ = self.occupancy_after_castling::<B>(castling);
        self.attacked_on::<B>(t.bit(sq), by, occ, attackers)
    }

    /// The squares occupied once castling number `castling` is made: its
    /// king and partner moved.
    fn occupancy_after_castling<B: Bits>(&self, castling: u8) -> B {
        let t = self.tables();
        let c = &t.def.castling[usize::from(castling)];
        (self.occupancy::<B>() & !B::single(t.bit(c.king_from)) & !B::single(t.bit(c.partner_from)))
            | B::single(t.bit(c.king_to))
            | B::single(t.bit(c.partner_to))
    }

    /// Keeps the pseudo-legal `m` if legal; `test` says whether its piece
    /// needs the test (see [`Context::must_test`]).
    #[inline(always)]
    fn emit<B: Bits, S: Sink>(&self, ctx: &Context<B>, test: bool, m: Move, out: &mut S) {
        if !ctx.plain {
            return self.push(ctx, m, out);
        }
        if test && !self.safe_after(ctx, &m) {
            return;
        }
        out.add(m);
    }

    /// Completes a pseudo-legal move (R-CS-6 instant promotion), keeps it if
    /// legal, and multiplies it by the waiting pawn's choices (R-CS-4).
    #[inline]
    fn push<B: Bits, S: Sink>(&self, ctx: &Context<B>, mut m: Move, out: &mut S) {
        if ctx.only_to.is_some_and(|to| to != m.to) {
            return;
        }
        let mut must_test = ctx.in_check
            || m.from == ctx.king
            || m.kind != MoveKind::Normal && m.kind != MoveKind::DoubleStep
            || ctx.pinned.has(self.tables().bit(m.from));
        if let Some(blocked) = ctx.their_blocked {
            let c = self.state.board[m.to.index()];
            if c != 0 && kind_of(c) != self.tables().pawn.0 && m.kind != MoveKind::EnPassant {
                m.instant_promotion = Some(WaitingPromotion {
                    square: blocked,
                    kind: PieceKind(kind_of(c)),
                });
                must_test = true;
            }
        }
        if must_test && ctx.test_legality && !self.safe_after(ctx, &m) {
            return;
        }
        match ctx.our_promoting {
            Some((square, mut kinds)) if kinds != 0 => {
                // In kind order, as `available_kinds` lists them.
                while kinds != 0 {
                    let kind = PieceKind(kinds.trailing_zeros() as u8);
                    kinds &= kinds - 1;
                    out.add(Move {
                        waiting_promotion: Some(WaitingPromotion { square, kind }),
                        ..m
                    });
                }
            }
            _ => out.add(m),
        }
    }

    /// Whether our king is safe once `m` is made (R-0-1): asked on the
    /// occupancy the move leaves, the captured piece no longer attacking.
    fn safe_after<B: Bits>(&self, ctx: &Context<B>, m: &Move) -> bool {
        if m.instant_promotion.is_some() {
            return self.safe_after_on_copy(ctx, m);
        }
        let t = self.tables();
        let them = ctx.us.other();
        let king = t.bit(ctx.king);
        let (from, to) = (t.bit(m.from), t.bit(m.to));
        match m.kind {
            MoveKind::Castle(i) => !self.castling_lands_in_check_here::<B>(i),
            MoveKind::EnPassant => {
                let victim = B::single(t.bit(Square::new(m.to.file(), m.from.rank())));
                let occ = (self.occupancy::<B>() & !B::single(from) & !victim) | B::single(to);
                !self.attacked_on::<B>(king, them, occ, self.side::<B>(them) & !victim)
            }
            _ => self.step_is_safe::<B>(them, from, to, if from == king { to } else { king }),
        }
    }

    /// Whether our king, on bit `king` once our piece has gone from bit
    /// `from` to bit `to` (taking what stood there), is out of the attacks
    /// of `them`.
    #[inline]
    fn step_is_safe<B: Bits>(&self, them: Color, from: usize, to: usize, king: usize) -> bool {
        let occ = (self.occupancy::<B>() & !B::single(from)) | B::single(to);
        let attackers = self.side::<B>(them) & !B::single(to);
        !self.attacked_on::<B>(king, them, occ, attackers)
    }

    /// [`Position::safe_after`] for a capture that promotes the opponent's
    /// blocked pawn (R-CS-6), which changes a piece's type: tried on a copy
    /// of the position.
    fn safe_after_on_copy<B: Bits>(&self, ctx: &Context<B>, m: &Move) -> bool {
        let them = ctx.us.other();
        let mut trial = self.clone();
        trial.take(m.to);
        if let Some(p) = trial.take(m.from) {
            trial.put(m.to, p);
        }
        if let Some(ip) = m.instant_promotion {
            trial.take(ip.square);
            trial.put(
                ip.square,
                Piece {
                    color: them,
                    kind: ip.kind,
                },
            );
        }
        !trial.attacked(trial.state.kings[ctx.us.index()], them)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::rules::Variant;

    /// A repeatable sequence of pseudo-random numbers from `seed`.
    pub(in crate::rules) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// The attacks found at once agree with the attack test, square by
    /// square, for both sides, along random games of every variant that
    /// has them (play rules included: their piece moves may take the
    /// generator's legality tests), with and without the side to move's
    /// king on the board.
    #[test]
    fn attack_maps_agree_with_the_attack_test() {
        let mut next = xorshift(0x3C6E_F372_FE94_F82B_u64);
        let mut maps = 0;
        for variant in Variant::builtin() {
            if variant.tables().width != Width::W64 {
                continue;
            }
            for _ in 0..4 {
                let mut pos = Position::start(variant.clone());
                for _ in 0..100 {
                    let t = pos.tables();
                    let occ = pos.occupancy::<u64>();
                    let king = t.bit(pos.state.kings[pos.state.turn.index()]);
                    for by in [Color::White, Color::Black] {
                        for occ in [occ, occ & !(1 << king)] {
                            let Some(map) = pos.looked_up_attacks::<u64>(by, occ) else {
                                continue;
                            };
                            maps += 1;
                            for i in 0..t.area {
                                let attacked = pos.attacked_on::<u64>(i, by, occ, pos.side(by));
                                assert_eq!(map.has(i), attacked, "{pos:?} {by:?} bit {i}");
                            }
                        }
                    }
                    let all = pos.legal_moves();
                    if all.is_empty() {
                        break;
                    }
                    let m = all[(next() % all.len() as u64) as usize];
                    pos.play_unchecked(&m);
                }
            }
        }
        assert!(maps > 1000, "{maps}");
    }

    /// A castling found by testing its own squares is the one castling the
    /// generation finds toward that side, along random games of every
    /// variant whose moves favour clearing the back ranks (so that
    /// castlings come legal, and illegal through attacked squares): the
    /// quick path never answers where the generation finds none or
    /// several.
    #[test]
    fn a_plain_castling_is_the_one_the_generation_finds() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D_u64);
        let (mut answered, mut refused) = (0, 0);
        for variant in Variant::builtin() {
            for _ in 0..30 {
                let mut pos = Position::start(variant);
                for _ in 0..60 {
                    for side in [CastlingSide::Short, CastlingSide::Long] {
                        let mut general = Vec::new();
                        pos.legal_castlings_toward_into(side, &mut general);
                        match pos.plain_castling(side) {
                            Some(quick) => {
                                assert_eq!(general, [quick], "{pos:?} {side:?}");
                                answered += 1;
                            }
                            None if general.len() == 1 => refused += 1,
                            None => {}
                        }
                    }
                    let all = pos.legal_moves();
                    if all.is_empty() {
                        break;
                    }
                    // A castling when there is one, else most often a
                    // move from the first two ranks of either side.
                    let back = |m: &Move| {
                        let rank = m.from.rank();
                        let last = variant.size().ranks - 1;
                        rank <= 1 || rank >= last - 1
                    };
                    let castles: Vec<&Move> = all.iter().filter(|m| m.is_castle()).collect();
                    let off_back: Vec<&Move> = all.iter().filter(|m| back(m)).collect();
                    let m = if !castles.is_empty() && next().is_multiple_of(2) {
                        *castles[next() as usize % castles.len()]
                    } else if !off_back.is_empty() && !next().is_multiple_of(4) {
                        *off_back[next() as usize % off_back.len()]
                    } else {
                        all[next() as usize % all.len()]
                    };
                    pos.play_unchecked(&m);
                }
            }
        }
        // Both ways are taken often: the comparison is not an empty one.
        assert!(answered > 300, "{answered} castlings answered quickly");
        assert!(refused > 0, "{refused} castlings left to the generation");
    }

    /// The backward search finds exactly the moves the full generation
    /// finds for each kind and destination (and, with origin hints, keeps
    /// the moves from that file or rank), the search for any legal move
    /// and the count agree with it, and no legal rival escapes the quick
    /// rival test, all along random games of every variant
    /// (waiting pawns, pins and checks included; mates and stalemates are
    /// covered by the result checks of the sample games).
    #[test]
    fn moves_to_a_square_are_those_of_the_full_generation() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15_u64);
        let mut positions = 0;
        let mut quick_answers = 0;
        for variant in Variant::builtin() {
            // The variants with play rules take the general path, where
            // the quick answer is never given: a few games check that.
            let games = if variant.def().has_play_rules() { 2 } else { 6 };
            for _ in 0..games {
                let mut pos = Position::start(variant);
                for _ in 0..120 {
                    let all = pos.legal_moves();
                    assert_eq!(pos.has_legal_move(), !all.is_empty(), "{pos:?}");
                    assert_eq!(pos.count_legal_moves(), all.len(), "{pos:?}");
                    for m in &all {
                        for hints in [
                            (None, None),
                            (Some(m.from.file()), None),
                            (None, Some(m.from.rank())),
                        ] {
                            let Some(p) = pos.piece_at(m.from) else {
                                continue;
                            };
                            let mut named = Vec::new();
                            pos.legal_moves_named_into(p.kind, m.to, hints.0, hints.1, &mut named);
                            // The quick path answers only when the general
                            // one finds that one plain move.
                            if let Some(quick) =
                                pos.plain_named_move(p.kind, m.to, hints.0, hints.1)
                            {
                                assert_eq!(named, [quick], "{pos:?} {m:?} {hints:?}");
                                quick_answers += 1;
                            }
                            if hints == (None, None) {
                                continue;
                            }
                            let mut expected = pos.legal_moves_filtered(Some(p.kind), Some(m.to));
                            expected.retain(|o| {
                                o.is_castle()
                                    || o.kind == MoveKind::SpecialKing
                                    || (hints.0.is_none_or(|f| o.from.file() == f)
                                        && hints.1.is_none_or(|r| o.from.rank() == r))
                            });
                            assert!(named.contains(m), "{pos:?} {m:?} {hints:?}");
                            assert_eq!(named, expected, "{pos:?} {m:?} {hints:?}");
                        }
                    }
                    if all.is_empty() {
                        break;
                    }
                    positions += 1;
                    let size = variant.size();
                    for to in size.squares() {
                        for k in 0..variant.def().pieces.len() as u8 {
                            let kind = PieceKind(k);
                            let mut expected: Vec<Move> = all
                                .iter()
                                .filter(|m| {
                                    m.to == to && pos.piece_at(m.from).map(|p| p.kind) == Some(kind)
                                })
                                .copied()
                                .collect();
                            let mut found = pos.legal_moves_filtered(Some(kind), Some(to));
                            expected.sort_by_key(|m| format!("{m:?}"));
                            found.sort_by_key(|m| format!("{m:?}"));
                            assert_eq!(found, expected, "{pos:?} {kind:?} to {to}");
                        }
                    }
                    for m in &all {
                        let Some(p) = pos.piece_at(m.from) else {
                            continue;
                        };
                        if p.kind == variant.pawn_kind() || m.is_castle() {
                            continue;
                        }
                        let rival = all.iter().any(|o| {
                            o.to == m.to
                                && o.from != m.from
                                && !o.is_castle()
                                && pos.piece_at(o.from).map(|q| q.kind) == Some(p.kind)
                        });
                        assert!(!rival || pos.may_have_rival(p.kind, m.from, m.to));
                    }
                    let m = all[(next() % all.len() as u64) as usize];
                    pos.play_unchecked(&m);
                }
            }
        }
        assert!(positions > 5000, "{positions}");
        assert!(
            quick_answers > 10 * positions,
            "{quick_answers} {positions}"
        );
    }
}
