//! The legal moves of a position whose every attack is looked up (an
//! 8x8 board of pawns, leapers and the rook's and bishop's lines:
//! [`Tables::looked_up_count`]), found from sets alone: no move is made
//! or tried but a capture en passant. Perft counts its last ply this way
//! and lists the plies before it, and whether a position in check has a
//! move is counted this way.
//!
//! The general generation tests the moves of a pinned piece, of the king
//! and of every piece in check by the occupancy each leaves. Where every
//! attack is a pawn's capture, a leap or a looked-up ride, those tests
//! are sets: the king keeps off the squares the opponent attacks with
//! the king lifted off its square; a pinned piece stays on the segment
//! from its king to the pinning rider; in check, a piece captures the
//! checking piece or, when that is a rider and no leaper, steps between.
//! Counting, each piece's targets are then counted at once.
//!
//! [`Tables::looked_up_count`]: super::variant::Tables

use super::bitboard::Bits;
use super::geometry::Square;
use super::movegen::{MoveCount, Sink};
use super::moves::{Move, MoveKind};
use super::piece::{Color, PieceKind};
use super::position::Position;
use super::variant::PromotionRule;
use super::variant::{COUNTED_CAPTURE_ONLY, COUNTED_MOVE_ONLY, COUNTED_STEPS, CountedKind, Tables};

/// Per pinned piece (up to eight: one a line from the king), the squares
/// it may still go to.
struct Pins {
    pinned: u64,
    squares: [u8; 8],
    allowed: [u64; 8],
    len: usize,
}

impl Pins {
    fn allowed(&self, i: usize) -> u64 {
        for n in 0..self.len {
            if usize::from(self.squares[n]) == i {
                return self.allowed[n];
            }
        }
        0
    }
}

/// Moves from bit `from` to each of `targets`: counted, or listed.
#[inline(always)]
fn add_targets<S: Sink>(out: &mut S, t: &Tables, from: usize, targets: u64) {
    if S::COUNTS {
        out.add_count(targets.count());
    } else {
        for ti in targets.indices() {
            out.add(Move::normal(t.square_at[from], t.square_at[ti]));
        }
    }
}

impl Position {
    /// [`Position::count_legal_moves`] for a variant whose tables say
    /// [`looked_up_count`](super::variant::Tables): the same number.
    pub(crate) fn count_looked_up(&self) -> usize {
        let mut count = MoveCount(0);
        self.looked_up_moves(&mut count);
        count.0
    }

    /// The legal moves, those of [`Position::legal_moves_into`] in an
    /// order of their own where the variant's tables say
    /// [`looked_up_count`](super::variant::Tables): for a search that
    /// does not need the generator's order (perft).
    pub(crate) fn legal_moves_unordered_into(&self, out: &mut Vec<Move>) {
        if !self.tables().looked_up_count {
            return self.legal_moves_into(out);
        }
        out.clear();
        self.looked_up_moves(out);
    }

    /// The legal moves into `out`, counted or listed.
    fn looked_up_moves<S: Sink>(&self, out: &mut S) {
        let t = self.tables();
        let Some(s) = t.sliders else {
            unreachable!("a looked-up count needs the sliders' tables");
        };
        let us = self.state.turn;
        let them = us.other();
        let ki = t.bit(self.state.kings[us.index()]);
        let king_bit = 1u64 << ki;
        let occ = self.occupancy::<u64>();
        let own = self.side::<u64>(us);
        let theirs = self.side::<u64>(them);
        let empty = !occ & t.board_set::<u64>();
        let open = empty | theirs;
        let [orth, diag] = t.slide_attackers[them.index()];
        let their_orth = self.of_kinds::<u64>(orth) & theirs;
        let their_diag = self.of_kinds::<u64>(diag) & theirs;
        let riding_to =
            |i: usize, occ: u64| (s.rook(i, occ) & their_orth) | (s.bishop(i, occ) & their_diag);

        // The king's moves, off every square attacked once it has left its
        // own: one move tried alone, several against the map of attacks.
        let kinds = &t.counted_kinds[us.index()];
        let (king, others) = kinds.split_last().expect("a king");
        let king_targets = self.targets(king, ki, occ, empty, open);
        let mut danger = None;
        let king_moves = if king_targets == 0 {
            0
        } else if king_targets.without_first() == 0 {
            let ti = king_targets.first();
            let occ = (occ & !king_bit) | 1 << ti;
            let attackers =
                (self.leaping_to::<u64>(them, ti) | riding_to(ti, occ)) & theirs & !(1 << ti);
            if attackers == 0 { king_targets } else { 0 }
        } else {
            let map = self.danger(them, occ & !king_bit);
            danger = Some(map);
            king_targets & !map
        };
        add_targets(out, t, ki, king_moves);

        // What may answer a check: capturing the checking piece, or
        // stepping between when it rides and does not also leap there.
        let mut answer = !0u64;
        if self.state.check {
            let leaping = self.leaping_to::<u64>(them, ki) & theirs;
            let checkers = leaping | riding_to(ki, occ);
            if checkers.without_first() != 0 {
                return;
            }
            // (The check flag always has a checking piece behind it.)
            if checkers != 0 {
                answer = checkers;
                if leaping == 0 {
                    answer |= s.between(ki, checkers.first());
                }
            }
        }

        let pins = self.pins(s, ki, occ, own, their_orth, their_diag);
        for kind in others {
            let pieces = self.of_kind::<u64>(usize::from(kind.kind)) & own;
            for fi in pieces.indices() {
                // A piece hemmed in by its own has no move.
                if t.counted_sets[kind.base as usize + COUNTED_STEPS + fi] & !own == 0 {
                    continue;
                }
                let mut targets = self.targets(kind, fi, occ, empty, open) & answer;
                if pins.pinned & (1 << fi) != 0 {
                    targets &= pins.allowed(fi);
                }
                add_targets(out, t, fi, targets);
            }
        }

        let pawns = self.of_kind::<u64>(t.pawn.index()) & own;
        self.pawn_moves_from_sets(pawns & !pins.pinned, empty, theirs, answer, out);
        for fi in (pawns & pins.pinned).indices() {
            self.pawn_moves_from_sets(1 << fi, empty, theirs, answer & pins.allowed(fi), out);
        }
        self.en_passant_moves(pawns, ki, riding_to, out);
        if !self.state.check {
            self.castlings_looked_up(danger, out);
        }
    }

    /// The squares `by` attacks on occupancy `occ`.
    fn danger(&self, by: Color, occ: u64) -> u64 {
        self.looked_up_attacks::<u64>(by, occ)
            .expect("a looked-up count's attacks are looked up")
    }

    /// The squares a piece of `kind` on bit `fi` goes to, by its leaps
    /// and looked-up rides on occupancy `occ`: `empty` squares, and
    /// `open` ones (empty or the opponent's) where it may capture.
    #[inline(always)]
    fn targets(&self, kind: &CountedKind, fi: usize, occ: u64, empty: u64, open: u64) -> u64 {
        let t = self.tables();
        let at = kind.base as usize + fi;
        let mut targets = t.counted_sets[at] & open;
        if kind.split {
            targets |= (t.counted_sets[at + COUNTED_MOVE_ONLY] & empty)
                | (t.counted_sets[at + COUNTED_CAPTURE_ONLY] & open & !empty);
        }
        if kind.slides != 0 {
            targets |= t.slide_reach(kind.slides, fi, occ) & open;
        }
        targets
    }

    /// Our pieces pinned to our king on bit `ki`, each with the segment
    /// up to and onto its pinner.
    fn pins(
        &self,
        s: &super::sliders::Sliders,
        ki: usize,
        occ: u64,
        own: u64,
        their_orth: u64,
        their_diag: u64,
    ) -> Pins {
        let mut pins = Pins {
            pinned: 0,
            squares: [0; 8],
            allowed: [0; 8],
            len: 0,
        };
        let snipers = (s.rook(ki, 0) & their_orth) | (s.bishop(ki, 0) & their_diag);
        for sniper in snipers.indices() {
            let between = s.between(ki, sniper);
            let shield = between & occ;
            if shield & own != 0 && shield.without_first() == 0 {
                pins.pinned |= shield;
                pins.squares[pins.len] = shield.first() as u8;
                pins.allowed[pins.len] = between | 1 << sniper;
                pins.len += 1;
            }
        }
        pins
    }

    /// The moves of our `pawns` landing on `allowed` (steps onto `empty`
    /// squares, captures of `theirs`; captures en passant aside), each
    /// promotion one move.
    fn pawn_moves_from_sets<S: Sink>(
        &self,
        pawns: u64,
        empty: u64,
        theirs: u64,
        allowed: u64,
        out: &mut S,
    ) {
        if pawns == 0 {
            return;
        }
        let t = self.tables();
        let us = self.state.turn;
        let rank = u32::from(t.size.files);
        let forward = |set: u64| match us {
            Color::White => set << rank,
            Color::Black => set >> rank,
        };
        let one = forward(pawns) & empty;
        let two = forward(forward(pawns & t.double_step_set::<u64>(us)) & empty) & empty;
        // The captures toward file a and toward the last file, with the
        // bits each moves by (White's a rank less one toward file a).
        let capture = |side: usize| {
            let from = pawns & t.pawn_capture_side::<u64>(us, side);
            let step = rank + side as u32 * 2 - 1;
            let (to, by) = match us {
                Color::White => (from << step, step),
                Color::Black => (from >> (2 * rank - step), 2 * rank - step),
            };
            (to & theirs & allowed, by)
        };
        let ((left, left_step), (right, right_step)) = (capture(0), capture(1));
        let zone = t.zone_set::<u64>(us);
        let (one, two) = (one & allowed, two & allowed);
        if S::COUNTS {
            // Steps land on empty squares, captures on the opponent's, and
            // a square one pawn steps to another could not double-step to
            // (the first stands in the way): only the two sides' captures
            // may share a square.
            let once = one | two | left;
            out.add_count((once & !zone).count() + (right & !zone).count());
            if (once | right) & zone != 0 {
                let last = self.last_rank_set();
                let (choices, in_zone) = self.promotion_choices();
                let per = |set: u64| {
                    (set & last).count() * choices + (set & zone & !last).count() * in_zone
                };
                out.add_count(per(once) + per(right));
            }
            return;
        }
        for (set, back, kind) in [
            (one, rank, MoveKind::Normal),
            (two, 2 * rank, MoveKind::DoubleStep),
            (left, left_step, MoveKind::Normal),
            (right, right_step, MoveKind::Normal),
        ] {
            for ti in set.indices() {
                let fi = match us {
                    Color::White => ti - back as usize,
                    Color::Black => ti + back as usize,
                };
                let m = Move {
                    kind,
                    ..Move::normal(t.square_at[fi], t.square_at[ti])
                };
                if zone & (1 << ti) != 0 {
                    self.promotions_looked_up(m, out);
                } else {
                    out.add(m);
                }
            }
        }
    }

    /// A pawn's move `m` into the promotion zone, with its promotions
    /// (those [`Position::promotion_choices`] counts).
    fn promotions_looked_up<S: Sink>(&self, m: Move, out: &mut S) {
        let t = self.tables();
        let us = self.state.turn;
        if !t.def.pawns.promotion_mandatory && m.to.rank() != t.last_rank[us.index()] {
            out.add(m);
        }
        for k in self.promotion_kinds() {
            out.add(Move {
                promotion: Some(k),
                ..m
            });
        }
    }

    /// The moves a pawn reaching the promotion zone makes: on the last
    /// rank, and before it.
    fn promotion_choices(&self) -> (u32, u32) {
        let choices = self.promotion_kinds().count() as u32;
        let stay = u32::from(!self.tables().def.pawns.promotion_mandatory);
        (choices, choices + stay)
    }

    /// The kinds a pawn may promote to now ([`Position::promotable`] of
    /// the variant's choices).
    fn promotion_kinds(&self) -> impl Iterator<Item = PieceKind> + '_ {
        let PromotionRule::Choice(kinds) = &self.tables().def.pawns.promotion else {
            unreachable!("a looked-up generation promotes by choice");
        };
        self.promotable(self.state.turn, kinds)
    }

    /// The squares of our last rank.
    fn last_rank_set(&self) -> u64 {
        let t = self.tables();
        let last = u32::from(t.last_rank[self.state.turn.index()]);
        let files = u32::from(t.size.files);
        let row = (1u64 << files) - 1;
        row << (last * files)
    }

    /// Our pawns' legal captures en passant, each tried on the occupancy
    /// it leaves (`riding_to` finds the opponent's riders that see a
    /// square on an occupancy).
    fn en_passant_moves<S: Sink>(
        &self,
        pawns: u64,
        ki: usize,
        riding_to: impl Fn(usize, u64) -> u64,
        out: &mut S,
    ) {
        let t = self.tables();
        let Some(ep) = self
            .state
            .ep_square
            .filter(|&ep| t.def.pawns.en_passant && self.state.board[ep.index()] == 0)
        else {
            return;
        };
        let us = self.state.turn;
        let them = us.other();
        let ei = t.bit(ep);
        for fi in (t.pawn_capture_from::<u64>(us, ei) & pawns).indices() {
            let from = t.square_at[fi];
            let victim = 1u64 << t.bit(Square::new(ep.file(), from.rank()));
            let occ = (self.occupancy::<u64>() & !(1 << fi) & !victim) | 1 << ei;
            let attackers =
                (self.leaping_to::<u64>(them, ki) & self.side::<u64>(them)) | riding_to(ki, occ);
            if attackers & !victim == 0 {
                out.add(Move {
                    kind: MoveKind::EnPassant,
                    ..Move::normal(from, ep)
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::movegen::tests::xorshift;
    use crate::rules::{Move, Position, Registry};

    /// An order of moves: by squares and promotion, then (castlings and
    /// moves to the same square) by all they hold.
    fn in_order(a: &Move, b: &Move) -> std::cmp::Ordering {
        let key = |m: &Move| (m.from.index(), m.to.index(), m.promotion.map(|k| k.index()));
        key(a)
            .cmp(&key(b))
            .then_with(|| format!("{a:?}").cmp(&format!("{b:?}")))
    }

    /// The count from sets is the number of moves the generation lists,
    /// and the list from sets holds the same moves,
    /// along random games of every built-in variant it serves (captures,
    /// checks, pins, promotions, castlings and captures en passant come
    /// up; the positions made for its harder cases are in the
    /// integration tests, which read them from FEN).
    #[test]
    fn the_count_from_sets_is_the_number_of_legal_moves() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut served = Vec::new();
        let mut listed = Vec::new();
        for variant in Registry::builtin().variants() {
            if !variant.0.looked_up_count {
                continue;
            }
            served.push(variant.name().to_string());
            for _ in 0..30 {
                let mut pos = Position::start(variant.clone());
                for _ in 0..120 {
                    let moves = pos.legal_moves();
                    assert_eq!(pos.count_looked_up(), moves.len(), "{pos:?}");
                    pos.legal_moves_unordered_into(&mut listed);
                    listed.sort_by(in_order);
                    let mut sorted = moves.clone();
                    sorted.sort_by(in_order);
                    assert_eq!(listed, sorted, "{pos:?}");
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[(next() % moves.len() as u64) as usize];
                    pos.play_unchecked(&m);
                }
            }
        }
        assert!(served.iter().any(|n| n == "chess"), "{served:?}");
        assert!(served.iter().any(|n| n == "chess960"), "{served:?}");
    }
}
