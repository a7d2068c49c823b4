//! The rules beyond moving pieces (docs/variants.md "Rules beyond moving
//! pieces"): hands and drops, captures to hand, promoted pieces, explosions,
//! a king that is not royal, compulsory capture, forbidden checks, check
//! counting, extinction and flag regions.
//!
//! Variants with any of them take this general path: the piece moves come
//! from the one generator, drops are added, and each move whose legality
//! the rules may change is tried on a copy of the position, where every
//! rule is applied as the move is made (where they cannot, the
//! generator's own legality tests stand). The variants without them never
//! come here, so their fast path is untouched.

use super::bitboard::{store_has, store_insert, store_remove};
use super::castling::Stage;
use super::geometry::Square;
use super::moves::{Move, MoveKind};
use super::outcome::{Ending, Outcome};
use super::piece::{Color, Piece, PieceKind};
use super::position::{Position, PositionError};
use super::setup::Setup;
use super::variant::{PromotionRule, Tables};

impl Position {
    /// How many pieces of `kind` `color` holds in hand.
    pub fn in_hand(&self, color: Color, kind: PieceKind) -> u8 {
        self.state.hands[color.index()][kind.index()]
    }

    /// The pieces in both hands, White's first, each side's in kind order.
    pub fn hand_pieces(&self) -> Vec<Piece> {
        let mut out = Vec::new();
        for color in Color::BOTH {
            for kind in self.variant.kinds() {
                for _ in 0..self.in_hand(color, kind) {
                    out.push(Piece { color, kind });
                }
            }
        }
        out
    }

    /// Whether the piece on `sq` came from a promotion (in variants where
    /// that is remembered: a captured promoted piece goes to hand as a pawn).
    pub fn is_promoted(&self, sq: Square) -> bool {
        self.variant.size().contains(sq) && store_has(&self.state.promoted, self.tables().bit(sq))
    }

    /// The squares of pieces that came from a promotion, in square order.
    pub fn promoted_squares(&self) -> Vec<Square> {
        let mut out: Vec<Square> = self
            .pieces()
            .map(|(sq, _)| sq)
            .filter(|&sq| self.is_promoted(sq))
            .collect();
        out.sort();
        out
    }

    /// Checks `color` has given, in variants that count them.
    pub fn checks_given(&self, color: Color) -> u8 {
        self.state.checks[color.index()]
    }

    /// Whether `side`'s king stands attacked by `by`. With explosions,
    /// kings side by side are never in check: taking one would blow up
    /// the other.
    pub(crate) fn king_attacked_by(&self, side: Color, by: Color) -> bool {
        let t = self.tables();
        let king = self.state.kings[side.index()];
        if t.def.explosion.is_some() {
            let near = king.touches(self.state.kings[by.index()]);
            if self.state.counts[by.index()][t.king.index()] > 0 && near {
                return false;
            }
        }
        self.attacked(king, by)
    }

    /// Sets hands, promoted pieces and check counters from `setup`.
    pub(crate) fn set_setup_play_state(
        &mut self,
        t: &Tables,
        setup: &Setup,
    ) -> Result<(), PositionError> {
        match (&t.def.hand, &setup.hand) {
            (None, Some(hand)) if !hand.is_empty() => {
                return Err(PositionError::Hand(format!(
                    "{} has no pieces in hand",
                    t.def.display_name
                )));
            }
            (Some(_), Some(hand)) => {
                for p in hand {
                    if p.kind.index() >= t.kind_count {
                        return Err(PositionError::Hand("a piece of no kind".into()));
                    }
                    let n = &mut self.state.hands[p.color.index()][p.kind.index()];
                    *n = n.checked_add(1).ok_or(PositionError::TooManyPieces)?;
                }
                let start = &t.def.hand.as_ref().map_or(&[][..], |h| &h.start[..]);
                if t.royal && hand.iter().any(|p| p.kind == t.king && !start.contains(p)) {
                    return Err(PositionError::Hand("a king cannot be in hand".into()));
                }
                let start = t.def.setup.len() + t.def.hand.as_ref().map_or(0, |h| h.start.len());
                if setup.board.len() + hand.len() > start {
                    return Err(PositionError::Hand(format!(
                        "{} pieces on the board and {} in hand are more than the {start} the game starts with",
                        setup.board.len(),
                        hand.len()
                    )));
                }
            }
            _ => {}
        }
        for &sq in &setup.promoted {
            match self.piece_at(sq) {
                Some(p) if p.kind != t.pawn && p.kind != t.king => {
                    store_insert(&mut self.state.promoted, t.bit(sq));
                }
                _ => {
                    return Err(PositionError::Promoted(format!(
                        "{sq} holds no piece a pawn could have become"
                    )));
                }
            }
        }
        if let (Some(ep), Some(ranks)) = (setup.ep_square, &t.def.pawns.en_passant_ranks)
            && !ranks.contains(&ep.rank())
        {
            return Err(PositionError::EnPassant);
        }
        if let Some(given) = setup.checks_given {
            let Some(limit) = t.def.check_limit else {
                if given == [0, 0] {
                    return Ok(());
                }
                return Err(PositionError::Checks(format!(
                    "{} does not count checks",
                    t.def.display_name
                )));
            };
            if given.iter().any(|&n| n > limit) {
                return Err(PositionError::Checks(format!(
                    "a side has given more than the {limit} checks that win"
                )));
            }
            self.state.checks = given;
        }
        Ok(())
    }

    /// Every legal move of a variant with play rules, into `out` (cleared
    /// first); none once the game has ended by a variant rule.
    pub(crate) fn rule_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.variant_end().is_some() {
            return;
        }
        let t = self.tables();
        let us = self.state.turn;
        let must_drop =
            t.def.hand.as_ref().is_some_and(|h| {
                h.must_drop && self.state.hands[us.index()].iter().any(|&n| n > 0)
            });
        let mut pseudo = Vec::new();
        self.drops_into(&mut pseudo);
        if self.piece_legality_is_plain() {
            self.keep_legal_drops(pseudo, out);
            if !must_drop {
                // The piece moves are legal as in any variant: generated
                // with the plain path's pins and checks, not each tried.
                let mut moves = Vec::with_capacity(64);
                self.generate(&mut moves, true, None, None);
                out.extend(moves);
                let mut promotions = Vec::new();
                self.in_place_promotions_into(&mut promotions);
                self.keep_legal(promotions, out);
            }
        } else {
            if !must_drop {
                pseudo.extend(self.pseudo_legal_moves());
                self.add_gatings(&mut pseudo);
                self.in_place_promotions_into(&mut pseudo);
            }
            self.keep_legal(pseudo, out);
        }
        // A side that must drop but cannot moves its pieces instead.
        if must_drop && out.is_empty() {
            let mut pseudo = self.pseudo_legal_moves();
            self.add_gatings(&mut pseudo);
            self.keep_legal(pseudo, out);
        }
        if t.def.must_capture && out.iter().any(|m| self.captures(m)) {
            out.retain(|m| self.captures(m));
        }
    }

    /// Whether the piece moves here are legal exactly when they would be
    /// without the play rules: both royal kings on the board, and none of
    /// the rules that change it (explosions, forbidden checks, gates,
    /// whose pieces may block a line the move opens).
    fn piece_legality_is_plain(&self) -> bool {
        let t = self.tables();
        let us = self.state.turn.index();
        let king = t.king.index();
        t.royal
            && t.def.explosion.is_none()
            && !t.def.checks_forbidden
            && self.state.gates[us] == 0
            && self.state.counts.iter().all(|c| c[king] == 1)
            && !t.def.kingless.iter().any(|&k| k)
    }

    /// Appends to `out` the legal drops of `drops`, where the piece moves'
    /// legality is plain: a piece dropped never uncovers its own king, so
    /// out of check every drop but the king's is legal.
    fn keep_legal_drops(&self, drops: Vec<Move>, out: &mut Vec<Move>) {
        if self.state.check {
            return self.keep_legal(drops, out);
        }
        let king = self.tables().king;
        let (kings, others): (Vec<Move>, Vec<Move>) =
            drops.into_iter().partition(|m| m.dropped() == Some(king));
        out.extend(others);
        self.keep_legal(kings, out);
    }

    /// Appends to `out` the moves of `pseudo` that are legal, each tried
    /// on a copy.
    fn keep_legal(&self, pseudo: Vec<Move>, out: &mut Vec<Move>) {
        if pseudo.is_empty() {
            return;
        }
        let mut trial = self.clone();
        for m in pseudo {
            trial.clone_from(self);
            if self.piece_move_allowed(&m) && trial.play_trial(&m) {
                out.push(m);
            }
        }
    }

    /// Why a drop of `kind` on `to` is not legal here, in words with the
    /// ruling (call it for a drop that is not among the legal moves).
    pub fn explain_drop(&self, kind: PieceKind, to: Square) -> String {
        let t = self.tables();
        let name = &self.variant.piece_def(kind).name;
        let Some(hand) = &t.def.hand else {
            return format!("{} has no pieces in hand to drop", t.def.display_name);
        };
        let rule = &hand.rule;
        let us = self.state.turn;
        if !t.size.contains(to) {
            return format!("{to} is off the board");
        }
        if self.in_hand(us, kind) == 0 {
            return format!("{us:?} has no {name} in hand ({rule})");
        }
        if self.piece_at(to).is_some() {
            return format!(
                "a piece may be dropped only on an empty square, and {to} is taken ({rule})"
            );
        }
        if !hand.drops {
            return format!(
                "{} has no drops: a hand piece enters only by gating ({rule})",
                t.def.display_name
            );
        }
        if !self.may_enter(kind, to) {
            return format!(
                "a {name} may not be dropped on rank {} ({rule})",
                to.rank() + 1
            );
        }
        if self.variant_end().is_some() {
            return "the game is over".to_string();
        }
        if t.def.must_capture {
            return "a capture is possible, and capturing is compulsory here".to_string();
        }
        format!("dropping the {name} on {to} would leave the king attacked (R-0-1)")
    }

    /// Whether `m` takes a piece.
    pub(crate) fn captures(&self, m: &Move) -> bool {
        match m.kind {
            MoveKind::EnPassant => true,
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::SpecialKing => {
                self.state.board[m.to.index()] != 0
            }
            _ => false,
        }
    }

    /// Rules about which piece moves exist at all, before trying them:
    /// with explosions a king never captures.
    fn piece_move_allowed(&self, m: &Move) -> bool {
        let t = self.tables();
        !(t.def.explosion.is_some()
            && m.from == self.state.kings[self.state.turn.index()]
            && self.captures(m)
            && self.piece_at(m.from).is_some_and(|p| p.kind == t.king))
    }

    /// Makes `m` on this copy and says whether it was legal: the mover's
    /// royal king, if it has one, is not left attacked (unless the move
    /// exploded the enemy king), and no check is given where checks are
    /// forbidden.
    fn play_trial(&mut self, m: &Move) -> bool {
        let us = self.state.turn;
        let them = us.other();
        self.play_unchecked(m);
        let t = self.tables();
        if !t.royal {
            return true;
        }
        if self.is_kingless(us) {
            return !(t.def.checks_forbidden && self.state.check);
        }
        let king = t.king.index();
        if self.state.counts[us.index()][king] == 0 {
            // A king still in hand (a placement phase) is not attacked.
            return self.state.hands[us.index()][king] > 0;
        }
        // The other king gone (exploded) ends the game; still in hand
        // (a placement phase), it is only not on the board yet.
        if self.state.counts[them.index()][king] == 0
            && self.state.hands[them.index()][king] == 0
            && !t.def.kingless[them.index()]
        {
            return true;
        }
        if self.king_attacked_by(us, them) {
            return false;
        }
        // An in-place promotion may not give check (R-SI-2).
        let in_place =
            matches!(t.def.pawns.promotion, PromotionRule::InPlace { .. }) && m.promotion.is_some();
        !((t.def.checks_forbidden || in_place) && self.state.check)
    }

    /// The in-place promotions of the side to move (R-SI-2; not yet tried
    /// for legality): each pawn that may promote becomes each type it may,
    /// where it stands or one step away as the new piece moves onto an
    /// empty square, where the new piece attacks no enemy piece.
    fn in_place_promotions_into(&self, out: &mut Vec<Move>) {
        let t = self.tables();
        let PromotionRule::InPlace { kinds, squares } = &t.def.pawns.promotion else {
            return;
        };
        let us = self.state.turn;
        let pawn = Piece {
            color: us,
            kind: t.pawn,
        };
        let last_pawn = self.state.counts[us.index()][t.pawn.index()] == 1;
        let pawns: Vec<Square> = self
            .pieces()
            .filter(|&(sq, p)| p == pawn && (last_pawn || squares[us.index()].contains(&sq)))
            .map(|(sq, _)| sq)
            .collect();
        let limits = &t.def.pawns.promotion_limits;
        for from in pawns {
            for &kind in kinds {
                let count = self.state.counts[us.index()][kind.index()];
                if limits.iter().any(|&(k, n)| k == kind && count >= n) {
                    continue;
                }
                let mut targets = vec![from];
                targets.extend(
                    self.moves_of_new_piece(from, from, kind)
                        .into_iter()
                        .filter(|&sq| self.piece_at(sq).is_none()),
                );
                for to in targets {
                    let attacks_enemy = self
                        .moves_of_new_piece(from, to, kind)
                        .into_iter()
                        .any(|sq| self.piece_at(sq).is_some_and(|p| p.color != us));
                    if !attacks_enemy {
                        out.push(Move {
                            promotion: Some(kind),
                            ..Move::normal(from, to)
                        });
                    }
                }
            }
        }
    }

    /// The squares a piece of `kind` of the side to move would move to or
    /// capture on from `at`, were the pawn on `from` that piece standing
    /// on `at`.
    fn moves_of_new_piece(&self, from: Square, at: Square, kind: PieceKind) -> Vec<Square> {
        let us = self.state.turn;
        let mut trial = self.clone();
        trial.state.take(&trial.variant.0.clone(), from);
        trial.put(at, Piece { color: us, kind });
        trial
            .pseudo_legal_moves()
            .into_iter()
            .filter(|m| m.from == at && m.dropped().is_none() && !m.is_castle())
            .map(|m| m.to)
            .collect()
    }

    /// The drops of the side to move (not yet tried for legality).
    fn drops_into(&self, out: &mut Vec<Move>) {
        let t = self.tables();
        if !t.def.hand.as_ref().is_some_and(|h| h.drops) {
            return;
        }
        let us = self.state.turn;
        for kind in self.variant.kinds() {
            if self.state.hands[us.index()][kind.index()] == 0 {
                continue;
            }
            for sq in t.size.squares() {
                if self.state.board[sq.index()] == 0
                    && self.may_enter(kind, sq)
                    && self.leaves_room_for_colours(kind, sq)
                {
                    out.push(Move::drop(kind, sq));
                }
            }
        }
    }

    /// Whether a drop of `kind` on `to` leaves room for the kinds that
    /// must stand on squares of both colours: each such kind keeps, on the
    /// board and on the empty squares it may still be dropped on, enough
    /// squares of each colour for half its pieces.
    fn leaves_room_for_colours(&self, kind: PieceKind, to: Square) -> bool {
        let t = self.tables();
        let Some(hand) = &t.def.hand else {
            return true;
        };
        let us = self.state.turn;
        let dark = |sq: Square| (sq.file() + sq.rank()).is_multiple_of(2);
        for k in self.variant.kinds() {
            if hand.opposite_colours & (1 << k.index()) == 0 {
                continue;
            }
            let mine = Piece { color: us, kind: k };
            let total = u32::from(self.state.counts[us.index()][k.index()] + self.in_hand(us, k));
            let placed = |want: bool| {
                self.pieces()
                    .filter(|&(sq, p)| p == mine && dark(sq) == want)
                    .count() as u32
            };
            if k == kind {
                if placed(dark(to)) + 1 > total.div_ceil(2) {
                    return false;
                }
                continue;
            }
            let room = |want: bool| {
                t.size
                    .squares()
                    .filter(|&sq| {
                        sq != to
                            && dark(sq) == want
                            && self.state.board[sq.index()] == 0
                            && self.may_enter(k, sq)
                    })
                    .count() as u32
            };
            if placed(true) + room(true) < total / 2 || placed(false) + room(false) < total / 2 {
                return false;
            }
        }
        true
    }

    /// Whether a piece of `kind` from the mover's hand may enter `sq` (by
    /// a drop or a gate): the hand's ranks for that kind allow it.
    pub(crate) fn may_enter(&self, kind: PieceKind, sq: Square) -> bool {
        let t = self.tables();
        let Some(hand) = &t.def.hand else {
            return false;
        };
        let rank = match self.state.turn {
            Color::White => sq.rank(),
            Color::Black => t.size.ranks - 1 - sq.rank(),
        };
        match hand.kind_ranks.iter().find(|(k, _)| *k == kind) {
            Some((_, ranks)) => ranks.contains(&rank),
            // A pawn keeps to the pawn ranks within the drop region.
            None if kind == t.pawn => hand.pawn_ranks.contains(&rank) && hand.ranks.contains(&rank),
            None => hand.ranks.contains(&rank),
        }
    }

    /// Plays `m` in a variant with play rules: the piece move as any
    /// variant makes it, then what the rules add.
    pub(crate) fn play_with_rules(&mut self, m: &Move) {
        let us = self.state.turn;
        if let MoveKind::Drop(kind) = m.kind {
            self.play_drop(kind, m.to);
        } else {
            let victim_sq = match m.kind {
                MoveKind::EnPassant => Some(Square::new(m.to.file(), m.from.rank())),
                MoveKind::Castle(_) => None,
                _ => (self.state.board[m.to.index()] != 0).then_some(m.to),
            };
            let victim =
                victim_sq.and_then(|sq| Some((sq, self.piece_at(sq)?, self.is_promoted(sq))));
            let mover_promoted = self.is_promoted(m.from);
            self.play_pieces(m);
            if let Some(gate) = m.gate {
                self.play_gate(gate, us);
            }
            if let (Some(ep), Some(ranks)) = (
                self.state.ep_square,
                &self.tables().def.pawns.en_passant_ranks,
            ) && !ranks.contains(&ep.rank())
            {
                self.state.ep_square = None;
            }
            self.after_piece_move(m, us, victim, mover_promoted);
        }
        if self.state.gates != [0; 2] {
            self.update_gates(m, us);
        }
        self.after_any_move(us);
    }

    /// A drop: the piece leaves the hand for the board.
    fn play_drop(&mut self, kind: PieceKind, to: Square) {
        let t = &*self.variant.0;
        let us = self.state.turn;
        self.state.hands[us.index()][kind.index()] -= 1;
        self.state.put(t, to, Piece { color: us, kind });
        self.state.halfmove_clock = if kind == t.pawn {
            0
        } else {
            self.state.halfmove_clock + 1
        };
        if t.def.hand.as_ref().is_some_and(|h| h.castling_from_drops) {
            self.castling_after_drop(kind, to);
        }
        self.state.ep_square = None;
        self.state.turn = us.other();
        if us == Color::Black {
            self.state.fullmove_number += 1;
        }
    }

    /// Castlings a drop makes possible: a king dropped on its castling
    /// square with partners already on their origins, or a partner
    /// dropped on its origin with the king already on that square.
    fn castling_after_drop(&mut self, kind: PieceKind, to: Square) {
        let t = &*self.variant.0;
        let us = self.state.turn;
        let ci = us.index();
        let king_home = t.king_origin[ci];
        if self.piece_at(king_home)
            != Some(Piece {
                color: us,
                kind: t.king,
            })
        {
            return;
        }
        let mut castling = self.state.castling;
        for (p, &origin) in t.partners[ci].iter().enumerate() {
            let partner = Piece {
                color: us,
                kind: t.partner_kinds[ci][p],
            };
            let dropped_here = (kind == t.king && to == king_home) || to == origin;
            if dropped_here && self.piece_at(origin) == Some(partner) {
                castling.king[ci] = Stage::Unmoved;
                castling.partners[ci][p] = Stage::Unmoved;
            }
        }
        self.state.castling = castling.canonical(t, self.state.kings);
        self.state.castling_history = self.state.castling;
    }

    /// Promoted marks, captures to hand and explosions after a piece move.
    fn after_piece_move(
        &mut self,
        m: &Move,
        us: Color,
        victim: Option<(Square, Piece, bool)>,
        mover_promoted: bool,
    ) {
        let t = &*self.variant.0;
        let remembers = t.def.hand.as_ref().is_some_and(|h| h.promoted_revert);
        if remembers {
            if let Some((sq, _, true)) = victim {
                store_remove(&mut self.state.promoted, t.bit(sq));
            }
            if mover_promoted {
                store_remove(&mut self.state.promoted, t.bit(m.from));
            }
            if mover_promoted || m.promotion.is_some() {
                store_insert(&mut self.state.promoted, t.bit(m.to));
            }
        }
        if let (Some(hand), Some((_, piece, promoted))) = (&t.def.hand, victim)
            && hand.captures_to_hand
        {
            let kind = if promoted && hand.promoted_revert {
                t.pawn
            } else {
                piece.kind
            };
            let n = &mut self.state.hands[us.index()][kind.index()];
            *n = n.saturating_add(1);
        }
        if let (Some(explosion), Some(_)) = (&t.def.explosion, victim) {
            let immune = explosion.immune;
            self.explode(m.to, immune);
        }
    }

    /// Removes the piece on `at` and every piece around it but those of
    /// the `immune` kinds.
    fn explode(&mut self, at: Square, immune: u16) {
        let t = &*self.variant.0;
        let mut blast = vec![at];
        for df in -1..=1 {
            for dr in -1..=1 {
                if (df, dr) == (0, 0) {
                    continue;
                }
                if let Some(sq) = t.size.offset(at, df, dr)
                    && let Some(p) = self.piece_at(sq)
                    && immune & (1 << p.kind.index()) == 0
                {
                    blast.push(sq);
                }
            }
        }
        for sq in blast {
            // A king blown up takes its side's castlings with it.
            if let Some(p) = self.state.take(t, sq)
                && p.kind == t.king
            {
                self.state.castling = self.state.castling.after_castling(p.color);
            }
            store_remove(&mut self.state.promoted, t.bit(sq));
            if !self.state.castling.is_none() {
                self.state.castling = self.state.castling.after_removal(t, sq, self.state.kings);
            }
        }
    }

    /// The check flag and check counters once a move is made (`us` moved).
    fn after_any_move(&mut self, us: Color) {
        let t = self.tables();
        let them = us.other();
        let king = t.king.index();
        let check =
            t.royal && self.state.counts[them.index()][king] > 0 && self.king_attacked_by(them, us);
        let counting = t.def.check_limit.is_some();
        self.state.check = check;
        if check && counting {
            self.state.checks[us.index()] = self.state.checks[us.index()].saturating_add(1);
        }
        #[cfg(debug_assertions)]
        self.assert_incremental_state(&Move::null(self.state.kings[us.index()]));
    }

    /// How the game has ended by a variant rule here, if it has: a king
    /// exploded, the check limit reached, a flag region reached, a side
    /// extinct. Mate and stalemate are not asked here.
    pub fn variant_end(&self) -> Option<Outcome> {
        let t = self.tables();
        if !t.play_rules {
            return None;
        }
        let us = self.state.turn;
        let them = us.other();
        let win = |winner: Color, by: Ending| Some(Outcome::Win { winner, by });
        if t.royal && t.def.explosion.is_some() {
            for c in [them, us] {
                if self.state.counts[c.index()][t.king.index()] == 0 && !t.def.kingless[c.index()] {
                    return win(c.other(), Ending::KingExploded);
                }
            }
        }
        if let Some(limit) = t.def.check_limit {
            for c in [them, us] {
                if self.state.checks[c.index()] >= limit {
                    return win(c, Ending::CheckLimit);
                }
            }
        }
        if let Some(e) = &t.def.extinction {
            for c in [us, them] {
                let left = (0..t.kind_count)
                    .filter(|&k| e.kinds & (1 << k) != 0)
                    .map(|k| {
                        u32::from(self.state.counts[c.index()][k])
                            + u32::from(self.state.hands[c.index()][k])
                    })
                    .sum::<u32>();
                if left == 0 {
                    let winner = if e.extinct_side_wins { c } else { c.other() };
                    return win(winner, Ending::Extinction);
                }
            }
        }
        if t.def.flag.is_some() {
            return self.flag_end();
        }
        None
    }

    /// The flag rule's verdict: the side that just moved arrived, or, with
    /// Black's reply, White arrived and Black cannot follow.
    fn flag_end(&self) -> Option<Outcome> {
        let t = self.tables();
        let flag = t.def.flag.as_ref()?;
        let arrived = |c: Color| {
            flag.regions[c.index()].iter().any(|&sq| {
                self.piece_at(sq)
                    == Some(Piece {
                        color: c,
                        kind: flag.kind,
                    })
            })
        };
        let (white, black) = (arrived(Color::White), arrived(Color::Black));
        if !white && !black {
            return None;
        }
        let win = |winner: Color| {
            Some(Outcome::Win {
                winner,
                by: Ending::Flag,
            })
        };
        if !flag.black_reply {
            return win(if white { Color::White } else { Color::Black });
        }
        match (white, black) {
            (true, true) => Some(Outcome::Draw { by: Ending::Flag }),
            (false, true) => win(Color::Black),
            _ if self.state.turn == Color::White => win(Color::White),
            _ if self.black_can_follow(flag.kind, &flag.regions[1]) => None,
            _ => win(Color::White),
        }
    }

    /// Whether Black, to move, has a legal move that brings a piece of
    /// `kind` into `region`.
    fn black_can_follow(&self, kind: PieceKind, region: &[Square]) -> bool {
        let mut pseudo = self.pseudo_legal_moves();
        pseudo.retain(|m| {
            region.contains(&m.to)
                && self.piece_at(m.from).is_some_and(|p| p.kind == kind)
                && m.dropped().is_none()
        });
        let mut trial = self.clone();
        pseudo.iter().any(|m| {
            trial.clone_from(self);
            trial.play_trial(m)
        })
    }
}
