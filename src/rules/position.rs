//! [`Position`]: a legal position of a variant, with everything that
//! decides which moves are legal.

use super::bitboard::{
    BitIter, Bits, STORE_WORDS, Store, Wide, store_insert, store_move, store_remove,
};
use super::castling::{CastlingState, Stage};
use super::geometry::{SQUARE_SPACE, Square};
use super::moves::{Move, MoveKind};
use super::outcome::{Ending, Outcome};
use super::piece::{Color, Piece, PieceKind};
use super::setup::{Setup, WaitingPawn};
use super::square_set::SquareSet;
use super::variant::{
    BareKing, CastlingSide, PromotionRule, StalemateOutcome, Tables, Variant, kings_fit,
};

/// Most waiting pawns a position may hold.
pub const MAX_WAITING: usize = 32;

/// Why a [`Setup`] is not a legal position of its variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A piece stands outside the board.
    #[error("a piece stands on a square outside the {files}x{ranks} board")]
    OffBoard {
        /// Files of the board.
        files: u8,
        /// Ranks of the board.
        ranks: u8,
    },
    /// Two pieces on one square.
    #[error("two pieces stand on one square")]
    DoubleOccupancy,
    /// Not exactly one king for a side (R-0-1).
    #[error("{0:?} must have exactly one king (R-0-1)")]
    KingCount(Color),
    /// A pawn on a rank it can never stand on.
    #[error("a pawn stands on its own first rank or, not waiting, on its last rank (R-0-4)")]
    PawnRank,
    /// The side not to move is in check.
    #[error("the side not to move is in check (R-0-1)")]
    OppositeCheck,
    /// The castling field does not fit the pieces.
    #[error("castling: {0}")]
    Castling(String),
    /// The en passant square does not follow a double step.
    #[error("en passant square does not follow a double step of the side that just moved (R-0-4)")]
    EnPassant,
    /// The king-rights field contradicts the position.
    #[error("king's once-per-game move: {0}")]
    KingRights(String),
    /// The waiting pawns do not fit the board.
    #[error("waiting pawns: {0}")]
    Waiting(String),
    /// Too many pieces of one kind for the counters.
    #[error("too many pieces")]
    TooManyPieces,
    /// The pieces in hand do not fit the variant.
    #[error("pieces in hand: {0}")]
    Hand(String),
    /// The check counters do not fit the variant.
    #[error("check counters: {0}")]
    Checks(String),
    /// A piece marked as promoted cannot be one.
    #[error("promoted pieces: {0}")]
    Promoted(String),
}

/// A legal position: board, side to move, castling progress, en passant,
/// once-per-game king rights, waiting pawns and clocks.
///
/// ```
/// use xpgn::rules::{Position, Variant, perft};
/// let pos = Position::start(Variant::by_name("courier-spiel").unwrap());
/// assert_eq!(perft(&pos, 1), pos.legal_moves().len() as u64);
/// ```
pub struct Position {
    pub(crate) variant: Variant,
    pub(crate) state: State,
}

/// A position's pieces, turn, rights and clocks: everything but its
/// variant, a plain value copied in one move (a search copies positions
/// without touching the variant's reference count).
#[derive(Clone, Copy)]
pub(crate) struct State {
    pub(crate) board: [u8; SQUARE_SPACE],
    /// Per colour: its pieces' squares, by bit index (`bitboard` module).
    pub(crate) color_bits: [Store; 2],
    /// Per kind: the squares of pieces of that kind, both colours.
    pub(crate) kind_bits: [Store; 16],
    pub(crate) kings: [Square; 2],
    pub(crate) counts: [[u8; 16]; 2],
    pub(crate) turn: Color,
    pub(crate) castling: CastlingState,
    /// Castling progress without forgetting: which piece moved, for
    /// messages only (not part of the key or of equality).
    pub(crate) castling_history: CastlingState,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
    pub(crate) king_rights: [bool; 2],
    pub(crate) waiting: [WaitingPawn; MAX_WAITING],
    pub(crate) waiting_len: u8,
    /// Squares of waiting pawns: immobile, uncapturable (R-CS-3).
    pub(crate) immune: SquareSet,
    /// `immune` by bit index.
    pub(crate) immune_bits: Store,
    /// Whether the side to move is in check: kept up to date by each move,
    /// mostly from the move itself, so that legality rarely needs a full
    /// attack test.
    pub(crate) check: bool,
    /// The key's part for the variant and the pieces (see [`Position::key`]).
    pub(crate) board_key: u64,
    /// Per colour, per kind: pieces in hand.
    pub(crate) hands: [[u8; 16]; 2],
    /// Squares (by bit index) of pieces that came from a promotion, in
    /// variants where that matters (a promoted piece goes to hand as a pawn).
    pub(crate) promoted: Store,
    /// Checks each side has given, in variants that count them.
    pub(crate) checks: [u8; 2],
    /// Per colour: the files of its first rank that may still gate.
    pub(crate) gates: [u16; 2],
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("variant", &self.variant)
            .field("setup", &self.to_setup())
            .finish()
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.variant == other.variant && self.to_setup() == other.to_setup()
    }
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            variant: self.variant.clone(),
            state: self.state,
        }
    }

    /// Copies `source` into `self`; when both are of the same compiled
    /// variant (a search's scratch positions) the variant is left alone,
    /// so the copy is one plain copy of the state.
    fn clone_from(&mut self, source: &Position) {
        if !self.variant.same_tables(&source.variant) {
            self.variant = source.variant.clone();
        }
        self.state = source.state;
    }
}

impl Position {
    /// The start position of `variant` (a [`Variant`] or a reference to
    /// one).
    pub fn start(variant: impl Into<Variant>) -> Position {
        let variant = variant.into();
        let state = *variant
            .tables()
            .start
            .get_or_init(|| Position::set_up_start(variant.clone()).state);
        Position { variant, state }
    }

    /// [`Position::start`], made from the definition's setup.
    fn set_up_start(variant: Variant) -> Position {
        let mut pos = Position::empty(variant);
        let t = &*pos.variant.0;
        for &(sq, p) in &t.def.setup {
            pos.state.put(t, sq, p);
        }
        pos.state.castling = CastlingState::start(t);
        pos.state.castling_history = pos.state.castling;
        pos.state.king_rights = [t.def.special_king_move.is_some(); 2];
        if let Some(hand) = &t.def.hand {
            for p in &hand.start {
                pos.state.hands[p.color.index()][p.kind.index()] += 1;
            }
        }
        pos.set_start_gates();
        let t = &*pos.variant.0;
        pos.state.check = t.royal
            && !pos.is_kingless(Color::White)
            && pos.attacked(pos.state.kings[0], Color::Black);
        pos
    }

    fn empty(variant: Variant) -> Position {
        let t = variant.tables();
        let state = State {
            board: [0; SQUARE_SPACE],
            color_bits: [[0; STORE_WORDS]; 2],
            kind_bits: [[0; STORE_WORDS]; 16],
            kings: t.king_origin,
            counts: [[0; 16]; 2],
            turn: Color::White,
            castling: CastlingState::NONE,
            castling_history: CastlingState::NONE,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            king_rights: [false; 2],
            waiting: [WaitingPawn {
                square: Square::new(0, 0),
                color: Color::White,
                turns: 0,
            }; MAX_WAITING],
            waiting_len: 0,
            immune: SquareSet::EMPTY,
            immune_bits: [0; STORE_WORDS],
            check: false,
            board_key: t.variant_key,
            hands: [[0; 16]; 2],
            promoted: [0; STORE_WORDS],
            checks: [0; 2],
            gates: [0; 2],
        };
        Position { variant, state }
    }

    /// Whether `color`'s army is kingless: its definition allows it
    /// ([`crate::rules::VariantDef::kingless`]) and it has no king, on
    /// the board or in hand.
    #[inline]
    pub(crate) fn is_kingless(&self, color: Color) -> bool {
        let t = &*self.variant.0;
        let (c, k) = (color.index(), t.king.index());
        t.def.kingless[c] && self.state.counts[c][k] == 0 && self.state.hands[c][k] == 0
    }

    pub(crate) fn tables(&self) -> &Tables {
        &self.variant.0
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// Side to move.
    pub fn turn(&self) -> Color {
        self.state.turn
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.state.board[sq.index()])
    }

    /// Squares holding `color`'s pieces.
    pub fn occupied_by(&self, color: Color) -> SquareSet {
        self.squares_of(color).collect()
    }

    /// The squares of `color`'s pieces, in index order.
    fn squares_of(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        let t = self.tables();
        BitIter(Wide::load(&self.state.color_bits[color.index()])).map(|i| t.square_at[i])
    }

    /// Every piece with its square.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Color::BOTH.into_iter().flat_map(move |c| {
            self.squares_of(c)
                .filter_map(move |sq| self.piece_at(sq).map(|p| (sq, p)))
        })
    }

    /// `color`'s king square.
    pub fn king_square(&self, color: Color) -> Square {
        self.state.kings[color.index()]
    }

    /// En passant target square, written after every double step (as FEN).
    pub fn ep_square(&self) -> Option<Square> {
        self.state.ep_square
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.state.halfmove_clock
    }

    /// Move number.
    pub fn fullmove_number(&self) -> u32 {
        self.state.fullmove_number
    }

    /// Castling progress.
    pub fn castling(&self) -> CastlingState {
        self.state.castling
    }

    /// Whether `color`'s once-per-game king move (R-KL-1, R-CH-5) is unused.
    pub fn king_right(&self, color: Color) -> bool {
        self.state.king_rights[color.index()]
    }

    /// Waiting pawns, White's first, each side's in order of arrival.
    pub fn waiting_pawns(&self) -> &[WaitingPawn] {
        &self.state.waiting[..self.state.waiting_len as usize]
    }

    /// The castlings `color` may still make some day.
    pub fn castling_sides(&self, color: Color) -> Vec<CastlingSide> {
        let t = self.tables();
        let mut out = Vec::new();
        for side in [CastlingSide::Short, CastlingSide::Long] {
            let any = t.castlings[color.index()].iter().enumerate().any(|(i, c)| {
                t.def.castling[c.index as usize].side == side
                    && self
                        .state
                        .castling
                        .achievable(t, color, i, self.state.kings[color.index()])
            });
            if any {
                out.push(side);
            }
        }
        out
    }

    /// Types `color` may promote a waiting pawn to now (R-CS-5).
    pub fn available_kinds(&self, color: Color) -> Vec<PieceKind> {
        let t = self.tables();
        self.variant
            .kinds()
            .filter(|&k| {
                k != t.king
                    && k != t.pawn
                    && t.setup_counts[color.index()][k.index()]
                        > self.state.counts[color.index()][k.index()]
            })
            .collect()
    }

    #[inline]
    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        self.state.put(&self.variant.0, sq, p);
    }

    #[inline]
    pub(crate) fn take(&mut self, sq: Square) -> Option<Piece> {
        self.state.take(&self.variant.0, sq)
    }

    /// The raw fields of this position.
    pub fn to_setup(&self) -> Setup {
        let t = self.tables();
        let mut castling = Vec::new();
        let mut castling_stages = Vec::new();
        for color in Color::BOTH {
            for side in self.castling_sides(color) {
                castling.push((color, side));
            }
            if let Stage::Staged(sq) = self.state.castling.king[color.index()] {
                castling_stages.push((color, sq));
            }
            for p in 0..t.partners[color.index()].len() {
                if let Stage::Staged(sq) = self.state.castling.partners[color.index()][p] {
                    castling_stages.push((color, sq));
                }
            }
        }
        let mut board: Vec<(Square, Piece)> = self.pieces().collect();
        board.sort_by_key(|(sq, _)| *sq);
        let mut castling_rooks = Vec::new();
        if t.def.free_castling.is_some() {
            // X-FEN (R-960-2): `KQkq` for the outermost rook on a side, the
            // file letter for another.
            castling.clear();
            for color in Color::BOTH {
                let ci = color.index();
                for (p, &sq) in t.partners[ci].iter().enumerate() {
                    if self.state.castling.partners[ci][p] != Stage::Unmoved {
                        continue;
                    }
                    let king = self.state.kings[ci];
                    let side = if sq.file() > king.file() {
                        CastlingSide::Short
                    } else {
                        CastlingSide::Long
                    };
                    if self.outermost_partner(color, side) == Some(sq) {
                        castling.push((color, side));
                    } else {
                        castling_rooks.push((color, sq.file()));
                    }
                }
                castling.sort_by_key(|&(c, s)| (c, s == CastlingSide::Long));
            }
        }
        Setup {
            board,
            turn: self.state.turn,
            castling,
            castling_rooks,
            castling_stages,
            ep_square: self.state.ep_square,
            halfmove_clock: self.state.halfmove_clock,
            fullmove_number: self.state.fullmove_number,
            king_rights: t
                .def
                .special_king_move
                .as_ref()
                .map(|_| self.state.king_rights),
            waiting: self.waiting_pawns().to_vec(),
            hand: t.def.hand.as_ref().map(|_| self.hand_pieces()),
            promoted: self.promoted_squares(),
            checks_given: t.def.check_limit.map(|_| self.state.checks),
            gates: self.written_gates(),
        }
    }

    /// The outermost piece of the free-castling partner type (R-960-1) of
    /// `color` on the king's rank, on `side` of the king.
    pub(crate) fn outermost_partner(&self, color: Color, side: CastlingSide) -> Option<Square> {
        let t = self.tables();
        let free = t.def.free_castling.as_ref()?;
        let king = self.state.kings[color.index()];
        let rook = Some(Piece {
            color,
            kind: free.partner,
        });
        let at = |f: u8| Square::new(f, king.rank());
        match side {
            CastlingSide::Short => (king.file() + 1..t.size.files)
                .rev()
                .map(at)
                .find(|&s| self.piece_at(s) == rook),
            CastlingSide::Long => (0..king.file()).map(at).find(|&s| self.piece_at(s) == rook),
        }
    }

    /// Checks a [`Setup`] against the rules of `variant`.
    ///
    /// # Errors
    /// Returns the first fault found, naming the field it is in.
    pub fn from_setup(
        variant: impl Into<Variant>,
        setup: &Setup,
    ) -> Result<Position, PositionError> {
        let variant = variant.into();
        let tables = variant.clone();
        let t = tables.tables();
        let mut pos = Position::empty(variant);
        pos.place_setup_pieces(t, setup)?;
        pos.state.turn = setup.turn;
        pos.state.halfmove_clock = setup.halfmove_clock;
        pos.state.fullmove_number = setup.fullmove_number.max(1);

        // Waiting pawns (R-CS-3..6).
        let waiting_rule = matches!(t.def.pawns.promotion, PromotionRule::Waiting { .. });
        if !setup.waiting.is_empty() && !waiting_rule {
            return Err(PositionError::Waiting(format!(
                "{} has no waiting promotion",
                t.def.display_name
            )));
        }
        if setup.waiting.len() > MAX_WAITING {
            return Err(PositionError::Waiting("too many waiting pawns".into()));
        }
        let mut waiting = setup.waiting.clone();
        waiting.sort_by_key(|w| w.color);
        for (i, w) in waiting.iter().enumerate() {
            let p = pos.piece_at(w.square);
            if p != Some(Piece {
                color: w.color,
                kind: t.pawn,
            }) || w.square.rank() != t.last_rank[w.color.index()]
            {
                return Err(PositionError::Waiting(
                    "a waiting pawn must be a pawn on its owner's last rank (R-CS-3)".into(),
                ));
            }
            if w.turns > 2 {
                return Err(PositionError::Waiting(
                    "a waiting pawn has 2, 1 or 0 turns left (R-CS-4)".into(),
                ));
            }
            if waiting[..i].iter().any(|o| o.square == w.square) {
                return Err(PositionError::Waiting("a square is listed twice".into()));
            }
            if w.turns > 0
                && waiting[..i]
                    .iter()
                    .any(|o| o.color == w.color && o.turns == w.turns)
            {
                return Err(PositionError::Waiting(
                    "two pawns of one side cannot have arrived on the same move (R-CS-4)".into(),
                ));
            }
            pos.state.waiting[i] = *w;
            pos.state.immune.insert(w.square);
            store_insert(&mut pos.state.immune_bits, t.bit(w.square));
        }
        pos.state.waiting_len = setup.waiting.len() as u8;
        for c in Color::BOTH {
            let blocked = pos
                .waiting_pawns()
                .iter()
                .any(|w| w.color == c && w.turns == 0);
            if blocked && !pos.available_kinds(c).is_empty() {
                return Err(PositionError::Waiting(
                    "a pawn is blocked although its owner has lost a piece it could become (R-CS-6)"
                        .into(),
                ));
            }
        }
        pos.check_setup_pawn_ranks(t)?;
        pos.set_setup_play_state(t, setup)?;

        // Castling.
        pos.state.castling = castling_from_setup(&pos, t, setup)?;
        pos.state.castling_history = pos.state.castling;
        pos.set_setup_gates(setup)?;

        pos.set_setup_king_rights(t, setup)?;
        pos.set_setup_en_passant(t, setup)?;

        let (us, them) = (pos.state.turn, pos.state.turn.other());
        // Where the side to move has lost its king (an explosion), the
        // game is over, and the winner's king may stand attacked (R-AT-2).
        let us_lost_king =
            pos.state.counts[us.index()][t.king.index()] == 0 && !t.def.kingless[us.index()];
        if t.royal
            && !us_lost_king
            && pos.state.counts[them.index()][t.king.index()] > 0
            && pos.king_attacked_by(them, us)
        {
            return Err(PositionError::OppositeCheck);
        }
        pos.state.check = t.royal
            && pos.state.counts[us.index()][t.king.index()] > 0
            && pos.king_attacked_by(us, them);
        Ok(pos)
    }

    /// Puts the pieces of `setup` on the empty board, checking their
    /// squares and that each side has one king.
    fn place_setup_pieces(&mut self, t: &Tables, setup: &Setup) -> Result<(), PositionError> {
        let size = t.size;
        let mut kings = [0u8; 2];
        for &(sq, p) in &setup.board {
            if !size.contains(sq) || p.kind.index() >= t.kind_count {
                return Err(PositionError::OffBoard {
                    files: size.files,
                    ranks: size.ranks,
                });
            }
            if self.state.board[sq.index()] != 0 {
                return Err(PositionError::DoubleOccupancy);
            }
            if self.state.counts[p.color.index()][p.kind.index()] == u8::MAX {
                return Err(PositionError::TooManyPieces);
            }
            if p.kind == t.king {
                kings[p.color.index()] += 1;
            }
            self.put(sq, p);
        }
        // A royal king may be missing where the game ended by its loss
        // (an explosion); never where it is not.
        let may_lack = t.def.explosion.is_some();
        // A king in hand (a placement phase) is still to be dropped.
        let counted = Color::BOTH.map(|c| {
            let in_hand = setup.hand.as_ref().map_or(0, |h| {
                h.iter()
                    .filter(|p| p.color == c && p.kind == t.king)
                    .count()
            });
            usize::from(kings[c.index()]) + in_hand
        });
        for c in Color::BOTH {
            let lost = counted[c.index()] == 0 && may_lack;
            if t.royal && !kings_fit(t.def.kingless, counted, c) && !lost {
                return Err(PositionError::KingCount(c));
            }
        }
        Ok(())
    }

    /// Checks that no pawn stands on its first rank, nor where it must
    /// have promoted (unless it is waiting there).
    fn check_setup_pawn_ranks(&self, t: &Tables) -> Result<(), PositionError> {
        for (sq, p) in self.pieces() {
            if p.kind != t.pawn {
                continue;
            }
            let first = t.last_rank[p.color.other().index()];
            let last = t.last_rank[p.color.index()];
            let in_place = matches!(t.def.pawns.promotion, PromotionRule::InPlace { .. });
            let must_promote = (sq.rank() == last && !in_place)
                || (t.def.pawns.promotion_mandatory
                    && t.promotion_zone[p.color.index()] & (1 << sq.rank()) != 0);
            // A pawn stands on its first rank only where it may step two
            // squares from there (Horde, R-HD-1).
            let may_start_there = t.double_step[p.color.index()] & (1 << first) != 0;
            if (sq.rank() == first && !may_start_there)
                || (must_promote && !self.state.immune.contains(sq))
            {
                return Err(PositionError::PawnRank);
            }
        }
        Ok(())
    }

    /// Sets the kings' rights to their special move (R-KL-1, R-CH-5) from
    /// `setup`, or from where the kings stand when it gives none.
    fn set_setup_king_rights(&mut self, t: &Tables, setup: &Setup) -> Result<(), PositionError> {
        let Some(special) = &t.def.special_king_move else {
            if setup.king_rights.is_some_and(|r| r.iter().any(|&x| x)) {
                return Err(PositionError::KingRights(format!(
                    "{} has no such move",
                    t.def.display_name
                )));
            }
            return Ok(());
        };
        let rights = setup.king_rights.unwrap_or_else(|| {
            [
                self.state.kings[0] == t.king_origin[0],
                self.state.kings[1] == t.king_origin[1],
            ]
        });
        for c in Color::BOTH {
            if rights[c.index()]
                && special.lost_on_any_king_move
                && self.state.kings[c.index()] != t.king_origin[c.index()]
            {
                return Err(PositionError::KingRights(format!(
                    "the {c:?} king has left its setup square, so it has moved and cannot leap ({})",
                    special.rule
                )));
            }
        }
        self.state.king_rights = rights;
        Ok(())
    }

    /// Sets the en passant square of `setup`, checking that the last move
    /// could have been the double step past it.
    fn set_setup_en_passant(&mut self, t: &Tables, setup: &Setup) -> Result<(), PositionError> {
        let Some(ep) = setup.ep_square else {
            return Ok(());
        };
        let size = t.size;
        let mover = self.state.turn.other();
        let push = t.pawn_push[mover.index()];
        let ok = t.def.pawns.en_passant
            && size.contains(ep)
            && (ep.rank() as i16 - push as i16)
                .try_into()
                .is_ok_and(|r: u8| r < 16 && t.double_step[mover.index()] & (1 << r) != 0)
            && self.state.board[ep.index()] == 0
            && size
                .offset(ep, 0, -push)
                .is_some_and(|s| self.state.board[s.index()] == 0)
            && size.offset(ep, 0, push).is_some_and(|s| {
                self.piece_at(s)
                    == Some(Piece {
                        color: mover,
                        kind: t.pawn,
                    })
            });
        if !ok {
            return Err(PositionError::EnPassant);
        }
        self.state.ep_square = Some(ep);
        Ok(())
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.state.check
    }

    /// Whether `by` attacks `sq` in this position.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attacked(sq, by)
    }

    /// How the game ends here, if it does (R-0-2, R-RO-4, R-CH-7).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(end) = self.variant_end() {
            return Some(end);
        }
        if let Some(bare) = self.bare_king_outcome() {
            return Some(bare);
        }
        if self.has_legal_move() {
            return None;
        }
        let loser = self.state.turn;
        if self.is_check() {
            return Some(Outcome::Win {
                winner: loser.other(),
                by: Ending::Checkmate,
            });
        }
        Some(match self.tables().def.stalemate {
            StalemateOutcome::Draw => Outcome::Draw {
                by: Ending::Stalemate,
            },
            StalemateOutcome::StalematedLoses => Outcome::Win {
                winner: loser.other(),
                by: Ending::Stalemate,
            },
            StalemateOutcome::StalematedWins => Outcome::Win {
                winner: loser,
                by: Ending::Stalemate,
            },
        })
    }

    /// The bare-king rule ([`BareKing::Loses`]): both kings bare is a
    /// draw; a side to move whose king is bare loses, unless it can capture
    /// the opponent's last piece besides the king at once.
    fn bare_king_outcome(&self) -> Option<Outcome> {
        let t = self.tables();
        if t.def.bare_king != BareKing::Loses {
            return None;
        }
        let others = |c: Color| self.squares_of(c).count() - 1;
        let (us, them) = (self.state.turn, self.state.turn.other());
        match (others(us), others(them)) {
            (0, 0) => Some(Outcome::Draw {
                by: Ending::BareKing,
            }),
            (0, n) => {
                let last = (n == 1)
                    .then(|| {
                        self.squares_of(them)
                            .find(|&s| s != self.state.kings[them.index()])
                    })
                    .flatten();
                let bares = last.is_some_and(|sq| {
                    self.legal_moves_filtered(None, Some(sq))
                        .iter()
                        .any(|m| m.to == sq)
                });
                (!bares).then_some(Outcome::Win {
                    winner: them,
                    by: Ending::BareKing,
                })
            }
            _ => None,
        }
    }

    /// Plays `m` if it is legal here (one of [`Position::legal_moves`], or
    /// the [`Position::null_move`]).
    ///
    /// ```
    /// use xpgn::rules::{Illegality, Position, Variant};
    /// let start = Position::start(Variant::chess());
    /// let e4 = start.legal_moves()[0];
    /// let after = start.play(&e4).unwrap();
    /// // The same move again: the piece is no longer there, or is Black's.
    /// let err = after.play(&e4).unwrap_err();
    /// assert!(matches!(
    ///     err.reason,
    ///     Illegality::NoPiece(_) | Illegality::NotYourPiece { .. }
    /// ));
    /// ```
    ///
    /// # Errors
    /// [`IllegalMove`], saying why, if `m` is not legal here.
    pub fn play(&self, m: &Move) -> Result<Position, IllegalMove> {
        let legal = if m.is_null() {
            self.null_move() == Some(*m)
        } else {
            self.legal_moves().contains(m)
        };
        if !legal {
            return Err(IllegalMove {
                mv: *m,
                reason: self.why_illegal(m),
            });
        }
        let mut next = self.clone();
        next.play_unchecked(m);
        Ok(next)
    }

    /// The null move, if the side to move may make one: never while in
    /// check (R-0-6, R-0-1).
    pub fn null_move(&self) -> Option<Move> {
        (!self.state.check).then(|| Move::null(self.state.kings[self.state.turn.index()]))
    }

    /// Passes the turn (R-0-6): en passant rights lapse, the halfmove
    /// clock counts the ply, nothing else changes (waiting pawns do not
    /// advance: the owner made no move).
    fn play_null(&mut self) {
        let us = self.state.turn;
        self.state.ep_square = None;
        self.state.halfmove_clock += 1;
        self.state.turn = us.other();
        self.state.check = self.attacked(self.state.kings[us.other().index()], us);
        if us == Color::Black {
            self.state.fullmove_number += 1;
        }
    }

    /// Plays a move known to be legal (one from [`Position::legal_moves`],
    /// or [`Position::null_move`]). An illegal move leaves an inconsistent
    /// position.
    #[inline]
    pub fn play_unchecked(&mut self, m: &Move) {
        if m.kind == MoveKind::Null {
            self.play_null();
            return;
        }
        if self.variant.0.play_rules {
            self.play_with_rules(m);
            return;
        }
        self.play_pieces(m);
    }

    /// Plays a piece move (not a drop or a null move) as every variant
    /// makes it: the pieces, castling progress, rights, clocks, waiting
    /// pawns, the turn and the check flag.
    pub(crate) fn play_pieces(&mut self, m: &Move) {
        let t = &*self.variant.0;
        let us = self.state.turn;
        let them = us.other();
        let Some(mover) = self.piece_at(m.from) else {
            debug_assert!(false, "no piece on the from-square");
            return;
        };
        let is_king = mover.kind == t.king;
        let mut captured = None;
        if !matches!(m.kind, MoveKind::Castle(_) | MoveKind::EnPassant) && m.promotion.is_none() {
            // The mover's sets and key change by its two squares alone.
            if self.state.board[m.to.index()] != 0 {
                captured = self.state.take(t, m.to);
            }
            let (fi, ti) = (t.bit(m.from), t.bit(m.to));
            let code = self.state.board[m.from.index()];
            self.state.board[m.from.index()] = 0;
            self.state.board[m.to.index()] = code;
            self.state.board_key ^= t.piece_key(code, fi) ^ t.piece_key(code, ti);
            store_move(&mut self.state.color_bits[us.index()], fi, ti);
            store_move(&mut self.state.kind_bits[mover.kind.index()], fi, ti);
            if is_king {
                self.state.kings[us.index()] = m.to;
            }
        } else {
            captured = self.state.play_other_kind(t, m, mover);
        }
        // Most moves touch no castling piece: only the king's, those from
        // one of our partners' squares and captures on one of theirs can.
        let touches_castling = is_king
            || t.castling_touch[us.index()].contains(m.from)
            || t.castling_touch[them.index()].contains(m.to);
        if touches_castling && !m.is_castle() {
            self.state.advance_castling(t, m, is_king);
        }
        if is_king
            && let Some(sp) = &t.def.special_king_move
            && (m.kind == MoveKind::SpecialKing || sp.lost_on_any_king_move)
        {
            self.state.king_rights[us.index()] = false;
        }
        self.state.halfmove_clock = if mover.kind == t.pawn || captured.is_some() {
            0
        } else {
            self.state.halfmove_clock + 1
        };
        // A double step that promotes leaves no pawn to take en passant.
        self.state.ep_square = match m.kind {
            MoveKind::DoubleStep if m.promotion.is_none() => Some(Square::new(
                m.from.file(),
                (m.from.rank() + m.to.rank()) / 2,
            )),
            _ => None,
        };

        if self.state.waiting_len > 0 || self.variant.has_waiting_promotion() {
            self.advance_waiting(m, mover, us, captured);
        }

        self.state.turn = them;
        self.state.check = self.gives_check(m, us);
        // The play rules set the check flag themselves (their kings may be
        // missing or not royal), and check the state after that.
        #[cfg(debug_assertions)]
        if !self.variant.0.play_rules {
            self.assert_incremental_state(m);
        }
        // Black's move ends a full move: added without a branch, which
        // would alternate ply by ply.
        self.state.fullmove_number += u32::from(us == Color::Black);
    }

    /// The waiting-pawn life cycle of one ply (R-CS-3..6).
    fn advance_waiting(&mut self, m: &Move, mover: Piece, us: Color, captured: Option<Piece>) {
        let t = &*self.variant.0;
        let PromotionRule::Waiting { turns } = t.def.pawns.promotion else {
            return;
        };
        let mut i = 0;
        while i < self.state.waiting_len as usize {
            let w = self.state.waiting[i];
            if w.color == us && w.turns == 1 {
                if let Some(wp) = m.waiting_promotion {
                    self.state.take(t, wp.square);
                    self.state.put(
                        t,
                        wp.square,
                        Piece {
                            color: us,
                            kind: wp.kind,
                        },
                    );
                    self.state.remove_waiting(t, i);
                    continue;
                }
                self.state.waiting[i].turns = 0;
            } else if w.color == us && w.turns > 1 {
                self.state.waiting[i].turns -= 1;
            }
            i += 1;
        }
        if mover.kind == t.pawn
            && m.promotion.is_none()
            && m.to.rank() == t.last_rank[us.index()]
            && (self.state.waiting_len as usize) < MAX_WAITING
        {
            // Kept White's first, each side's in order of arrival: only the
            // order within a side matters (R-CS-6).
            let n = self.state.waiting_len as usize;
            let at = match us {
                Color::White => self.state.waiting[..n]
                    .iter()
                    .position(|w| w.color == Color::Black)
                    .unwrap_or(n),
                Color::Black => n,
            };
            self.state.waiting.copy_within(at..n, at + 1);
            self.state.waiting[at] = WaitingPawn {
                square: m.to,
                color: us,
                turns,
            };
            self.state.waiting_len += 1;
            self.state.immune.insert(m.to);
            store_insert(&mut self.state.immune_bits, t.bit(m.to));
        }
        if let (Some(ip), Some(_)) = (m.instant_promotion, captured)
            && let Some(i) = self
                .waiting_pawns()
                .iter()
                .position(|w| w.square == ip.square)
        {
            let color = self.state.waiting[i].color;
            self.state.take(t, ip.square);
            self.state.put(
                t,
                ip.square,
                Piece {
                    color,
                    kind: ip.kind,
                },
            );
            self.state.remove_waiting(t, i);
        }
    }

    /// Recomputes from the board what moves keep up to date (square sets,
    /// key, check flag, the latter by walking rays as the reference) and
    /// panics on a difference: every move of every debug test checks the
    /// incremental updates.
    #[cfg(debug_assertions)]
    pub(crate) fn assert_incremental_state(&self, m: &Move) {
        let t = self.tables();
        let mut colors = [[0; STORE_WORDS]; 2];
        let mut kinds = [[0; STORE_WORDS]; 16];
        let mut key = crate::rules::hash::variant_key(self.variant.name());
        for sq in t.size.squares() {
            if let Some(p) = self.piece_at(sq) {
                store_insert(&mut colors[p.color.index()], t.bit(sq));
                store_insert(&mut kinds[p.kind.index()], t.bit(sq));
                key ^= crate::rules::hash::piece_key_formula(sq, p);
            }
        }
        let mut immune = [0; STORE_WORDS];
        for w in self.waiting_pawns() {
            store_insert(&mut immune, t.bit(w.square));
        }
        assert_eq!(colors, self.state.color_bits, "colour sets after {m:?}");
        assert_eq!(kinds, self.state.kind_bits, "kind sets after {m:?}");
        assert_eq!(immune, self.state.immune_bits, "waiting pawns after {m:?}");
        assert_eq!(key, self.state.board_key, "key after {m:?}");
        let king = self.state.kings[self.state.turn.index()];
        if !t.play_rules {
            assert_eq!(
                self.state.check,
                self.attacked_by_walking(king, self.state.turn.other()),
                "check after {m:?}"
            );
        }
    }
}

impl State {
    /// The pieces of a castling, an en passant capture or a promotion
    /// (the moves `Position::play_pieces` does not make itself): out of
    /// line, so that the plain move's code stays small. Returns the piece
    /// taken.
    #[cold]
    #[inline(never)]
    fn play_other_kind(&mut self, t: &Tables, m: &Move, mover: Piece) -> Option<Piece> {
        let us = self.turn;
        match m.kind {
            MoveKind::Castle(i) => {
                let c = &t.def.castling[i as usize];
                let king = self.take(t, c.king_from);
                let partner = self.take(t, c.partner_from);
                if let (Some(k), Some(p)) = (king, partner) {
                    self.put(t, c.king_to, k);
                    self.put(t, c.partner_to, p);
                }
                self.castling = self.castling.after_castling(us);
                self.castling_history = self.castling_history.after_castling(us);
                None
            }
            MoveKind::EnPassant => {
                let victim = Square::new(m.to.file(), m.from.rank());
                let captured = self.take(t, victim);
                self.take(t, m.from);
                self.put(t, m.to, mover);
                captured
            }
            _ => {
                let captured = self.take(t, m.to);
                self.take(t, m.from);
                let placed = match m.promotion {
                    Some(kind) => Piece { color: us, kind },
                    None => mover,
                };
                self.put(t, m.to, placed);
                captured
            }
        }
    }

    /// The castling progress after a move that touched a king or a
    /// castling partner's square (not a castling).
    #[inline(never)]
    fn advance_castling(&mut self, t: &Tables, m: &Move, is_king: bool) {
        if self.castling_history.is_none() {
            return;
        }
        let us = self.turn;
        self.castling = self
            .castling
            .after_move(t, us, m.from, m.to, is_king, self.kings);
        self.castling_history = self.castling_history.advance(t, us, m.from, m.to, is_king);
    }

    #[inline]
    pub(crate) fn put(&mut self, t: &Tables, sq: Square, p: Piece) {
        let code = p.code();
        let i = t.bit(sq);
        self.board[sq.index()] = code;
        self.board_key ^= t.piece_key(code, i);
        store_insert(&mut self.color_bits[p.color.index()], i);
        store_insert(&mut self.kind_bits[p.kind.index()], i);
        self.counts[p.color.index()][p.kind.index()] += 1;
        if p.kind == t.king {
            self.kings[p.color.index()] = sq;
        }
    }

    #[inline]
    pub(crate) fn take(&mut self, t: &Tables, sq: Square) -> Option<Piece> {
        let code = self.board[sq.index()];
        let p = Piece::from_code(code)?;
        self.board[sq.index()] = 0;
        let i = t.bit(sq);
        self.board_key ^= t.piece_key(code, i);
        store_remove(&mut self.color_bits[p.color.index()], i);
        store_remove(&mut self.kind_bits[p.kind.index()], i);
        self.counts[p.color.index()][p.kind.index()] -= 1;
        Some(p)
    }

    fn remove_waiting(&mut self, t: &Tables, i: usize) {
        let sq = self.waiting[i].square;
        let n = self.waiting_len as usize;
        self.waiting.copy_within(i + 1..n, i);
        self.waiting_len -= 1;
        self.immune.remove(sq);
        let i = t.bit(sq);
        store_remove(&mut self.immune_bits, i);
    }
}

/// A move that is not legal in the position it was played in, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {}{}: {reason}", mv.from, mv.to)]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// Why it is not legal.
    pub reason: crate::rules::Illegality,
}

/// The castling field of a variant with castling toward either rook
/// (R-960-1, R-960-2): `KQkq` name the outermost rook on a side, file
/// letters any rook on the king's first rank.
fn free_castling_from_setup(
    pos: &Position,
    t: &Tables,
    setup: &Setup,
) -> Result<CastlingState, PositionError> {
    let mut state = CastlingState::NONE;
    if !setup.castling_stages.is_empty() {
        return Err(PositionError::Castling(
            "this variant has no castling stages".into(),
        ));
    }
    for color in Color::BOTH {
        let ci = color.index();
        let mut rooks: Vec<Square> = Vec::new();
        let rank = t.king_origin[ci].rank();
        let king = pos.state.kings[ci];
        let named = setup.castling.iter().any(|(c, _)| *c == color)
            || setup.castling_rooks.iter().any(|(c, _)| *c == color);
        if !named {
            continue;
        }
        if king.rank() != rank {
            return Err(PositionError::Castling(format!(
                "{color:?} may castle only with its king on rank {} (R-960-1)",
                rank + 1
            )));
        }
        for &(c, side) in &setup.castling {
            if c != color {
                continue;
            }
            let which = if side == CastlingSide::Short {
                "O-O"
            } else {
                "O-O-O"
            };
            let sq = pos.outermost_partner(color, side).ok_or_else(|| {
                PositionError::Castling(format!(
                    "{color:?} {which} needs a rook on the {} of its king on rank {} (R-960-2)",
                    if side == CastlingSide::Short {
                        "right"
                    } else {
                        "left"
                    },
                    rank + 1
                ))
            })?;
            rooks.push(sq);
        }
        for &(c, file) in &setup.castling_rooks {
            if c != color {
                continue;
            }
            let sq = Square::new(file, rank);
            let partner = t.def.free_castling.as_ref().map(|f| f.partner);
            if file == king.file()
                || pos.piece_at(sq).map(|p| (p.color, Some(p.kind))) != Some((color, partner))
            {
                return Err(PositionError::Castling(format!(
                    "{color:?} has no rook on {sq} to castle with (R-960-2)"
                )));
            }
            rooks.push(sq);
        }
        rooks.sort();
        rooks.dedup();
        let short = rooks.iter().filter(|s| s.file() > king.file()).count();
        if short > 1 || rooks.len() - short > 1 {
            return Err(PositionError::Castling(format!(
                "{color:?} names two castling rooks on one side of its king (R-960-2)"
            )));
        }
        state.king[ci] = Stage::Unmoved;
        for sq in rooks {
            if let Some(p) = t.partners[ci].iter().position(|&s| s == sq) {
                state.partners[ci][p] = Stage::Unmoved;
            }
        }
    }
    Ok(state.canonical(t, pos.state.kings))
}

fn castling_from_setup(
    pos: &Position,
    t: &Tables,
    setup: &Setup,
) -> Result<CastlingState, PositionError> {
    if t.def.free_castling.is_some() {
        return free_castling_from_setup(pos, t, setup);
    }
    if !setup.castling_rooks.is_empty() {
        return Err(PositionError::Castling(format!(
            "{} castles with fixed pieces: write `KQkq`, not file letters",
            t.def.display_name
        )));
    }
    let mut state = CastlingState::NONE;
    let mut used_stages = vec![false; setup.castling_stages.len()];
    for color in Color::BOTH {
        let ci = color.index();
        let sides: Vec<CastlingSide> = setup
            .castling
            .iter()
            .filter(|(c, _)| *c == color)
            .map(|(_, s)| *s)
            .collect();
        if sides.is_empty() {
            continue;
        }
        let origin = t.king_origin[ci];
        let king_sq = pos.state.kings[ci];
        state.king[ci] = if king_sq == origin {
            Stage::Unmoved
        } else {
            Stage::Moved
        };
        for (k, &(c, sq)) in setup.castling_stages.iter().enumerate() {
            if c == color
                && sq == king_sq
                && t.castlings[ci].iter().any(|cc| cc.king_stage == Some(sq))
            {
                state.king[ci] = Stage::Staged(sq);
                used_stages[k] = true;
            }
        }
        for (p, &porigin) in t.partners[ci].iter().enumerate() {
            let setup_kind = Some(Piece {
                color,
                kind: t.partner_kinds[ci][p],
            });
            let holds_partner = |sq: Square| setup_kind.is_some() && pos.piece_at(sq) == setup_kind;
            state.partners[ci][p] = if holds_partner(porigin) {
                Stage::Unmoved
            } else {
                Stage::Moved
            };
            for (k, &(c, sq)) in setup.castling_stages.iter().enumerate() {
                if c == color
                    && !used_stages[k]
                    && holds_partner(sq)
                    && t.castlings[ci]
                        .iter()
                        .any(|cc| cc.partner as usize == p && cc.partner_stage == Some(sq))
                {
                    state.partners[ci][p] = Stage::Staged(sq);
                    used_stages[k] = true;
                }
            }
        }
        // Keep only the sides the field names.
        let canonical = state.canonical(t, pos.state.kings);
        for side in [CastlingSide::Short, CastlingSide::Long] {
            let listed = sides.contains(&side);
            let achievable = t.castlings[ci].iter().enumerate().any(|(i, c)| {
                t.def.castling[c.index as usize].side == side
                    && canonical.achievable(t, color, i, king_sq)
            });
            if listed && !achievable {
                let which = if side == CastlingSide::Short {
                    "O-O"
                } else {
                    "O-O-O"
                };
                let needs: Vec<String> = t
                    .def
                    .castling
                    .iter()
                    .filter(|c| c.color == color && c.side == side)
                    .map(|c| {
                        format!(
                            "king on {} and partner from {} on {} ({})",
                            c.king_from, c.partner_origin, c.partner_from, c.rule
                        )
                    })
                    .collect();
                return Err(PositionError::Castling(if needs.is_empty() {
                    format!("{color:?} has no {which} in this variant")
                } else {
                    format!("{color:?} {which} needs {}", needs.join(", or "))
                }));
            }
        }
        // Drop castlings of sides the field does not name.
        for side in [CastlingSide::Short, CastlingSide::Long] {
            if sides.contains(&side) {
                continue;
            }
            for c in &t.castlings[ci] {
                if t.def.castling[c.index as usize].side == side {
                    let other_side_uses = t.castlings[ci].iter().any(|o| {
                        o.partner == c.partner && t.def.castling[o.index as usize].side != side
                    });
                    if !other_side_uses {
                        state.partners[ci][c.partner as usize] = Stage::Moved;
                    }
                }
            }
        }
        state = state.canonical(t, pos.state.kings);
    }
    if used_stages.iter().any(|u| !u) {
        return Err(PositionError::Castling(
            "a castling stage names a square where no castling piece stands after its first stage"
                .into(),
        ));
    }
    Ok(state)
}
