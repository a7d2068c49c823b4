//! The one move generator: it reads the compiled variant tables and never
//! names a variant.
//!
//! Legality: a pseudo-legal move is legal without a test when the king is
//! not in check, the moving piece is not the king and does not shield the
//! king from a rider, and the move neither captures en passant nor
//! promotes an enemy pawn (R-CS-6). Every other move is tried on a copy
//! of the board and kept if the king is then not attacked (R-0-1).

use super::geometry::{SQUARE_SPACE, Square};
use super::movement::Mode;
use super::moves::{Move, MoveKind, WaitingPromotion};
use super::piece::{Color, Piece, PieceKind};
use super::position::Position;
use super::square_set::SquareSet;
use super::variant::{Line, PromotionRule};

/// Which of our pieces shield the king from an enemy rider.
enum Pins {
    /// Found for the whole board (a full generation).
    Known(SquareSet),
    /// Looked for per moving piece (a generation of one or two moves).
    PerMove,
}

/// What every move of one generation shares.
struct Context {
    us: Color,
    king: Square,
    in_check: bool,
    pins: Pins,
    /// The opponent's first blocked pawn, which a capture would promote (R-CS-6).
    their_blocked: Option<Square>,
    /// Our pawn whose wait ends with this move, and the types it may take (R-CS-4, R-CS-5).
    our_promoting: Option<(Square, Vec<PieceKind>)>,
    /// False to keep pseudo-legal moves (for explaining why a move is illegal).
    test_legality: bool,
    /// Only moves to this square, if set.
    only_to: Option<Square>,
}

#[inline]
fn color_of(code: u8) -> Color {
    if code > 16 {
        Color::Black
    } else {
        Color::White
    }
}

#[inline]
fn kind_of(code: u8) -> u8 {
    (code - 1) & 15
}

impl Position {
    /// Whether `by` attacks `sq` on `board` (this position's board, or a
    /// trial copy of it).
    pub(crate) fn attacked(&self, board: &[u8; SQUARE_SPACE], sq: Square, by: Color) -> bool {
        let t = self.tables();
        let pawn = Piece {
            color: by,
            kind: t.pawn,
        }
        .code();
        let dr = -t.pawn_push[by.index()];
        for df in [-1, 1] {
            if let Some(s) = t.size.offset(sq, df, dr) {
                if board[s.index()] == pawn {
                    return true;
                }
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
        if !t.special_attacks.is_empty() && self.king_rights[by.index()] {
            let k = self.kings[by.index()];
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

    /// Calls `note` with each square holding a piece of the side to move
    /// of `kind` (not a pawn) that its movement would bring to `to` on
    /// this board, legal or not, maybe more than once: the squares
    /// a written move of that piece may come from.
    fn origins(&self, kind: PieceKind, to: Square, note: &mut impl FnMut(Square)) {
        let t = self.tables();
        let ours = Piece {
            color: self.turn,
            kind,
        }
        .code();
        let bit = 1u16 << kind.0;
        let empty = self.board[to.index()] == 0;
        if t.leapers & bit != 0 {
            let from = if empty {
                t.leap_movers(self.turn, to)
            } else {
                t.leap_attackers(self.turn, to)
            };
            for &(s, mask) in from {
                if mask & bit != 0 && self.board[s.index()] == ours {
                    note(s);
                }
            }
        }
        // Each ride of the kind, walked backwards from `to`.
        for &(d, max, mode) in &t.rides[self.turn.index()][kind.index()] {
            if !(if empty { mode.moves() } else { mode.captures() }) {
                continue;
            }
            for &s in t.ray(t.reverse[d as usize], to).iter().take(max as usize) {
                let c = self.board[s.index()];
                if c == 0 {
                    continue;
                }
                if c == ours {
                    note(s);
                }
                break;
            }
        }
    }

    /// Whether a piece of `kind` (not a pawn) of the side to move other
    /// than the one on `from` could move to `to` by its movement alone:
    /// when none can, a move from `from` needs no disambiguation, and no
    /// legality test has to say so.
    pub fn may_have_rival(&self, kind: PieceKind, from: Square, to: Square) -> bool {
        let mut rival = false;
        self.origins(kind, to, &mut |s| rival |= s != from);
        rival
    }

    /// The waiting pawns that change this generation's moves: the
    /// opponent's blocked pawn a capture promotes (R-CS-6), and ours whose
    /// wait this move ends (R-CS-4, R-CS-5).
    fn note_waiting_pawns(&self, ctx: &mut Context) {
        if self.waiting_len == 0 {
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
            .map(|w| (w.square, self.available_kinds(us)));
    }

    /// Whether the piece on `from` may stand between our `king` and an
    /// enemy rider (false only when it surely does not).
    fn may_shield_king(&self, king: Square, from: Square) -> bool {
        let t = self.tables();
        let Line::Along { dir, steps } = t.line(king, from) else {
            return t.line(king, from) == Line::Several;
        };
        let us = color_of(self.board[king.index()]);
        let back = &t.ride_mask[us.other().index()][t.reverse[dir as usize] as usize];
        let ray = t.ray(dir, king);
        if ray[..steps as usize - 1]
            .iter()
            .any(|s| self.board[s.index()] != 0)
        {
            return false;
        }
        for (i, &s) in ray.iter().enumerate().skip(steps as usize) {
            if back[i + 1] == 0 {
                return false;
            }
            let c = self.board[s.index()];
            if c != 0 {
                return color_of(c) != us && back[i + 1] & (1 << kind_of(c)) != 0;
            }
        }
        false
    }

    /// Whether the move just made from `from` to `to` by `by` attacks the
    /// enemy `king`: the piece where it landed, or a rider line it opened.
    /// Only for moves that change nothing else on the board, played when
    /// `by`'s own king was safe.
    pub(crate) fn gives_check(&self, from: Square, to: Square, king: Square, by: Color) -> bool {
        let t = self.tables();
        let code = self.board[to.index()];
        let kind = kind_of(code);
        // The piece that moved.
        if kind == t.pawn.0 {
            let dr = t.pawn_push[by.index()];
            if [-1, 1]
                .iter()
                .any(|&df| t.size.offset(to, df, dr) == Some(king))
            {
                return true;
            }
        } else {
            if t.leaps(by, PieceKind(kind), to).contains(&king)
                || t.leaps_mode(by, Mode::CaptureOnly, PieceKind(kind), to)
                    .contains(&king)
            {
                return true;
            }
            if let Some(seen) = self.rider_on_line(king, to, by) {
                if seen == to {
                    return true;
                }
            }
            if t.line(king, to) == Line::Several {
                return self.attacked(&self.board, king, by);
            }
        }
        // A line the move opened.
        match t.line(king, from) {
            Line::None => false,
            Line::Several => self.attacked(&self.board, king, by),
            Line::Along { .. } => self.rider_on_line(king, from, by).is_some(),
        }
    }

    /// The square of a rider of `by` attacking `king` along the line from
    /// `king` through `through`, if there is one.
    fn rider_on_line(&self, king: Square, through: Square, by: Color) -> Option<Square> {
        let t = self.tables();
        let Line::Along { dir, .. } = t.line(king, through) else {
            return None;
        };
        let back = &t.ride_mask[by.index()][t.reverse[dir as usize] as usize];
        for (i, &s) in t.ray(dir, king).iter().enumerate() {
            if back[i + 1] == 0 {
                return None;
            }
            let c = self.board[s.index()];
            if c != 0 {
                return (color_of(c) == by && back[i + 1] & (1 << kind_of(c)) != 0).then_some(s);
            }
        }
        None
    }

    /// Our pieces standing between our king and an enemy rider that would
    /// attack the king if they left.
    fn pinned(&self, us: Color) -> SquareSet {
        let t = self.tables();
        let king = self.kings[us.index()];
        let mut pinned = SquareSet::EMPTY;
        let masks = &t.ride_mask[us.other().index()];
        for d in 0..t.dirs.len() {
            let back = &masks[t.reverse[d] as usize];
            let mut shield: Option<Square> = None;
            for (i, &s) in t.ray(d as u8, king).iter().enumerate() {
                if back[i + 1] == 0 {
                    break;
                }
                let c = self.board[s.index()];
                if c == 0 {
                    continue;
                }
                if color_of(c) == us {
                    if shield.is_some() {
                        break;
                    }
                    shield = Some(s);
                } else {
                    if let Some(sh) = shield {
                        if back[i + 1] & (1 << kind_of(c)) != 0 {
                            pinned.insert(sh);
                        }
                    }
                    break;
                }
            }
        }
        pinned
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        self.legal_moves_into(&mut out);
        out
    }

    /// Every legal move, into `out` (cleared first), to reuse one buffer.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
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
        match (kind, to) {
            (Some(kind), Some(to)) => self.generate_to(out, kind, to),
            _ => self.generate(out, true, kind, to),
        }
    }

    /// The legal moves of our pieces of `kind` to `to`, found backwards
    /// from `to`: only the squares such a piece could come from are looked
    /// at, which is what reading a written move needs.
    fn generate_to(&self, out: &mut Vec<Move>, kind: PieceKind, to: Square) {
        out.clear();
        let t = self.tables();
        let us = self.turn;
        let mut ctx = Context {
            us,
            king: self.kings[us.index()],
            in_check: self.check,
            pins: Pins::PerMove,
            their_blocked: None,
            our_promoting: None,
            test_legality: true,
            only_to: Some(to),
        };
        self.note_waiting_pawns(&mut ctx);
        let ours = Piece { color: us, kind }.code();
        // At most 8 rides and a few leaps reach one square with one kind.
        let mut from_squares: [Square; 32] = [to; 32];
        let mut n = 0;
        let mut note = |sq: Square| {
            if n < from_squares.len() && !from_squares[..n].contains(&sq) {
                from_squares[n] = sq;
                n += 1;
            }
        };
        if kind == t.pawn {
            let back = -t.pawn_push[us.index()];
            for (df, dr) in [(0, back), (0, 2 * back), (-1, back), (1, back)] {
                if let Some(s) = t.size.offset(to, df, dr) {
                    if self.board[s.index()] == ours && !self.immune.contains(s) {
                        note(s);
                    }
                }
            }
            let found = &mut from_squares[..n];
            found.sort_unstable();
            for &from in found.iter() {
                self.pawn_moves(&ctx, from, out);
            }
            return;
        }
        self.origins(kind, to, &mut note);
        let target = self.board[to.index()];
        if target != 0 && (color_of(target) == us || self.immune.contains(to)) {
            // No capture of one's own piece or a waiting pawn (R-CS-3); a
            // king's castling may still land here only on an empty square.
            n = 0;
        }
        let found = &mut from_squares[..n];
        found.sort_unstable();
        for &from in found.iter() {
            self.push(&ctx, Move::normal(from, to), out);
        }
        if kind == t.king {
            let king = ctx.king;
            let castles_to = t.castlings[us.index()].iter().any(|c| c.king_to == to);
            let leaps_to = t.def.special_king_move.as_ref().is_some_and(|sp| {
                sp.offsets
                    .iter()
                    .any(|&(df, dr)| t.size.offset(king, df, dr) == Some(to))
            });
            if castles_to || leaps_to {
                self.special_king_moves(&ctx, out);
                self.castling_moves(&ctx, out);
            }
        }
    }

    /// Moves that obey piece movement but may leave the king attacked.
    pub(crate) fn pseudo_legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.generate(&mut out, false, None, None);
        out
    }

    /// Whether there is any legal move: stops at the first, trying the
    /// king's own moves first (the likeliest way out of a check). Mate and
    /// stalemate tests need no more.
    pub fn has_legal_move(&self) -> bool {
        let mut out = Vec::with_capacity(8);
        self.generate_until(&mut out, true, Some(self.tables().king), None, true);
        if !out.is_empty() {
            return true;
        }
        self.generate_until(&mut out, true, None, None, true);
        !out.is_empty()
    }

    fn generate(
        &self,
        out: &mut Vec<Move>,
        test_legality: bool,
        only_kind: Option<PieceKind>,
        only_to: Option<Square>,
    ) {
        self.generate_until(out, test_legality, only_kind, only_to, false);
    }

    /// The generation; with `first_only`, it may stop once `out` holds a
    /// move.
    fn generate_until(
        &self,
        out: &mut Vec<Move>,
        test_legality: bool,
        only_kind: Option<PieceKind>,
        only_to: Option<Square>,
        first_only: bool,
    ) {
        out.clear();
        let t = self.tables();
        let us = self.turn;
        let king = self.kings[us.index()];
        let mut ctx = Context {
            us,
            king,
            in_check: self.check,
            // A filtered generation finds one or two moves: testing their
            // pieces is cheaper than finding every pin.
            pins: if only_to.is_none() {
                Pins::Known(self.pinned(us))
            } else {
                Pins::PerMove
            },
            their_blocked: None,
            our_promoting: None,
            test_legality,
            only_to,
        };
        self.note_waiting_pawns(&mut ctx);
        let pawn_kind = t.pawn;
        for from in self.by_color[us.index()].iter() {
            if first_only && !out.is_empty() {
                return;
            }
            if self.immune.contains(from) {
                continue;
            }
            let code = self.board[from.index()];
            let kind = PieceKind(kind_of(code));
            if only_kind.is_some_and(|k| k != kind) {
                continue;
            }
            if kind == pawn_kind {
                self.pawn_moves(&ctx, from, out);
                continue;
            }
            for mode in [Mode::Any, Mode::MoveOnly, Mode::CaptureOnly] {
                for &to in t.leaps_mode(us, mode, kind, from) {
                    let c = self.board[to.index()];
                    if (c == 0 && mode.moves())
                        || (c != 0
                            && mode.captures()
                            && color_of(c) != us
                            && !self.immune.contains(to))
                    {
                        self.push(&ctx, Move::normal(from, to), out);
                    }
                }
            }
            for &(d, max, mode) in &t.rides[us.index()][kind.index()] {
                for &to in t.ray(d, from).iter().take(max as usize) {
                    let c = self.board[to.index()];
                    if c == 0 {
                        if mode.moves() {
                            self.push(&ctx, Move::normal(from, to), out);
                        }
                        continue;
                    }
                    if mode.captures() && color_of(c) != us && !self.immune.contains(to) {
                        self.push(&ctx, Move::normal(from, to), out);
                    }
                    break;
                }
            }
        }
        if only_kind.is_none_or(|k| k == t.king) {
            self.special_king_moves(&ctx, out);
            self.castling_moves(&ctx, out);
        }
    }

    fn pawn_moves(&self, ctx: &Context, from: Square, out: &mut Vec<Move>) {
        let t = self.tables();
        let us = ctx.us;
        let push = t.pawn_push[us.index()];
        let last = t.last_rank[us.index()];
        if let Some(one) = t.size.offset(from, 0, push) {
            if self.board[one.index()] == 0 {
                self.pawn_to(ctx, from, one, MoveKind::Normal, last, out);
                if t.double_step[us.index()] & (1 << from.rank()) != 0 {
                    if let Some(two) = t.size.offset(one, 0, push) {
                        if self.board[two.index()] == 0 {
                            self.push(
                                ctx,
                                Move {
                                    kind: MoveKind::DoubleStep,
                                    ..Move::normal(from, two)
                                },
                                out,
                            );
                        }
                    }
                }
            }
        }
        for df in [-1, 1] {
            let Some(to) = t.size.offset(from, df, push) else {
                continue;
            };
            let c = self.board[to.index()];
            if c != 0 {
                if color_of(c) != us && !self.immune.contains(to) {
                    self.pawn_to(ctx, from, to, MoveKind::Normal, last, out);
                }
            } else if Some(to) == self.ep_square && t.def.pawns.en_passant {
                self.push(
                    ctx,
                    Move {
                        kind: MoveKind::EnPassant,
                        ..Move::normal(from, to)
                    },
                    out,
                );
            }
        }
    }

    fn pawn_to(
        &self,
        ctx: &Context,
        from: Square,
        to: Square,
        kind: MoveKind,
        last: u8,
        out: &mut Vec<Move>,
    ) {
        let t = self.tables();
        let m = Move {
            kind,
            ..Move::normal(from, to)
        };
        if t.promotion_zone[ctx.us.index()] & (1 << to.rank()) == 0 {
            return self.push(ctx, m, out);
        }
        if !t.def.pawns.promotion_mandatory && to.rank() != last {
            self.push(ctx, m, out);
        }
        match &t.def.pawns.promotion {
            PromotionRule::Choice(kinds) => {
                let limits = &t.def.pawns.promotion_limits;
                for &k in kinds {
                    if limits
                        .iter()
                        .any(|&(lk, n)| lk == k && self.counts[ctx.us.index()][k.index()] >= n)
                    {
                        continue;
                    }
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
            PromotionRule::Waiting { .. } => self.push(ctx, m, out),
        }
    }

    fn special_king_moves(&self, ctx: &Context, out: &mut Vec<Move>) {
        let t = self.tables();
        let Some(sp) = &t.def.special_king_move else {
            return;
        };
        if !self.king_rights[ctx.us.index()] || (sp.forbidden_in_check && ctx.in_check) {
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
            let c = self.board[to.index()];
            if c != 0 && (color_of(c) == ctx.us || !sp.may_capture || self.immune.contains(to)) {
                continue;
            }
            if sp.leapt_square_guarded {
                let Some(mid) = t.size.offset(ctx.king, df / 2, dr / 2) else {
                    continue;
                };
                let mc = self.board[mid.index()];
                if (mc != 0 && color_of(mc) == them) || self.attacked(&self.board, mid, them) {
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

    fn castling_moves(&self, ctx: &Context, out: &mut Vec<Move>) {
        if self.castling.is_none() || ctx.in_check {
            return;
        }
        let t = self.tables();
        let us = ctx.us;
        for (i, c) in t.castlings[us.index()].iter().enumerate() {
            if ctx.only_to.is_some_and(|to| to != c.king_to)
                || !self.castling.ready_for(t, us, i)
                || ctx.king != c.king_from
                || self.piece_at(c.partner_from)
                    != Some(Piece {
                        color: us,
                        kind: c.partner_kind,
                    })
                || c.empty.iter().any(|s| self.board[s.index()] != 0)
                || c.safe
                    .iter()
                    .any(|&s| self.attacked(&self.board, s, us.other()))
            {
                continue;
            }
            self.push(
                ctx,
                Move {
                    kind: MoveKind::Castle(c.index),
                    ..Move::normal(c.king_from, c.king_to)
                },
                out,
            );
        }
    }

    /// Completes a pseudo-legal move (R-CS-6 instant promotion), keeps it if
    /// legal, and multiplies it by the waiting pawn's choices (R-CS-4).
    #[inline]
    fn push(&self, ctx: &Context, mut m: Move, out: &mut Vec<Move>) {
        if ctx.only_to.is_some_and(|to| to != m.to) {
            return;
        }
        let mut must_test = ctx.in_check
            || m.from == ctx.king
            || m.kind != MoveKind::Normal && m.kind != MoveKind::DoubleStep
            || match &ctx.pins {
                Pins::Known(pinned) => pinned.contains(m.from),
                Pins::PerMove => self.may_shield_king(ctx.king, m.from),
            };
        if let Some(blocked) = ctx.their_blocked {
            let c = self.board[m.to.index()];
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
        match &ctx.our_promoting {
            Some((sq, kinds)) if !kinds.is_empty() => {
                for &kind in kinds {
                    out.push(Move {
                        waiting_promotion: Some(WaitingPromotion { square: *sq, kind }),
                        ..m
                    });
                }
            }
            _ => out.push(m),
        }
    }

    /// Whether our king is safe once `m` is made on a trial board (R-0-1).
    fn safe_after(&self, ctx: &Context, m: &Move) -> bool {
        let t = self.tables();
        let mut board = self.board;
        let mut king = ctx.king;
        match m.kind {
            MoveKind::Castle(i) => {
                let c = &t.def.castling[i as usize];
                let k = board[c.king_from.index()];
                let p = board[c.partner_from.index()];
                board[c.king_from.index()] = 0;
                board[c.partner_from.index()] = 0;
                board[c.king_to.index()] = k;
                board[c.partner_to.index()] = p;
                king = c.king_to;
            }
            MoveKind::EnPassant => {
                board[Square::new(m.to.file(), m.from.rank()).index()] = 0;
                board[m.to.index()] = board[m.from.index()];
                board[m.from.index()] = 0;
            }
            _ => {
                board[m.to.index()] = board[m.from.index()];
                board[m.from.index()] = 0;
                if m.from == ctx.king {
                    king = m.to;
                }
            }
        }
        if let Some(ip) = m.instant_promotion {
            board[ip.square.index()] = Piece {
                color: ctx.us.other(),
                kind: ip.kind,
            }
            .code();
        }
        !self.attacked(&board, king, ctx.us.other())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// The backward search finds exactly the moves the full generation
    /// finds for each kind and destination, the search for any legal move
    /// agrees with it, and no legal rival escapes the quick rival test, all along random games of every variant
    /// (waiting pawns, pins and checks included; mates and stalemates are
    /// covered by the result checks of the sample games).
    #[test]
    fn moves_to_a_square_are_those_of_the_full_generation() {
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut positions = 0;
        for &variant in Variant::builtin() {
            for _ in 0..12 {
                let mut pos = Position::start(variant);
                for _ in 0..120 {
                    let all = pos.legal_moves();
                    assert_eq!(pos.has_legal_move(), !all.is_empty(), "{pos:?}");
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
    }
}
