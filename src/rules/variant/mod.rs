//! Variants as data: a [`VariantDef`] says everything that decides legality
//! (board size, piece table, setup, pawn rules, castling, special king
//! moves, stalemate outcome); [`Variant`] is that definition compiled into
//! the lookup tables the one move generator reads.
//!
//! Adding a variant means writing a definition (see `builtin.rs`) and its
//! tests; the generator does not change.

mod builtin;
mod file;
mod file_play;
mod ini;
mod ini_play;
mod tables;

pub use builtin::{BUILTIN_NAMES, builtin_def, builtin_source};
pub use file::{DefinitionError, MAX_DEFINITION_BYTES, Registry, RegistryLoad, load_toml};
pub use ini::{
    IniVariants, MAX_INI_CHAIN_BYTES, MAX_INI_INHERITANCE, MAX_INI_SECTIONS, load_ini, read_ini,
};
pub(crate) use tables::{
    COUNTED_CAPTURE_ONLY, COUNTED_MOVE_ONLY, COUNTED_STEPS, CountedKind, PIN_NONE, PIN_SEVERAL,
    Tables,
};

use std::sync::{Arc, OnceLock};

use super::geometry::{BoardSize, Square};
use super::movement::Movement;
use super::piece::{Color, Piece, PieceKind};

/// What a piece type is to the rules besides its movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Royal: may not be left attacked (R-0-1). Exactly one per side.
    King,
    /// Moves by [`PawnRules`]; its movement atoms are ignored.
    Pawn,
    /// Every other piece, including non-royal king-movers (R-0-1).
    Other,
}

/// One piece type of a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    /// Name in words ("Elephant"), used in messages.
    pub name: String,
    /// Upper-case letter (White); Black uses the lower case. The pawn's
    /// letter appears only in position strings.
    pub letter: char,
    /// How it moves.
    pub movement: Movement,
    /// King, pawn or other.
    pub role: Role,
    /// The ruling that says how it moves (`R-CO-1` for the Counsellor
    /// Chess Elephant), cited when it cannot make a move; `None` for a
    /// piece that moves as in orthodox chess.
    pub rule: Option<String>,
}

/// How pawns promote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromotionRule {
    /// On reaching the last rank, at once, to one of these types (R-0-4).
    Choice(Vec<PieceKind>),
    /// At once, to the type that stood on the arrival square in the setup;
    /// on the enemy king's setup square, to `on_king_square` (R-CH-4).
    SetupSquare {
        /// The type taken on the enemy king's setup square.
        on_king_square: PieceKind,
    },
    /// The pawn waits on the last rank, immobile and uncapturable, and
    /// becomes a lost type as part of its owner's `turns`-th move after the
    /// arrival (R-CS-3..6).
    Waiting {
        /// Owner moves from arrival to promotion (2 in Courier-Spiel).
        turns: u8,
    },
    /// Never on arrival (a pawn may stand on its last rank): a pawn on one
    /// of its side's promotion squares, or a side's last pawn anywhere,
    /// becomes one of `kinds` as a move of its own, where it stands or one
    /// step away as the new piece moves, onto an empty square. The move may
    /// not give check, and the new piece may not attack an enemy piece
    /// (R-SI-2).
    InPlace {
        /// The types a pawn may become (each within the promotion limits).
        kinds: Vec<PieceKind>,
        /// Per colour, the squares where a pawn may promote while its side
        /// has more than one.
        squares: [Vec<Square>; 2],
    },
}

/// How pawns move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnRules {
    /// Ranks (0-based, White's view; Black's mirrored) from which a pawn
    /// may step two squares: `[1]` in orthodox chess (R-0-4), none in
    /// Chaturanga (R-CH-3).
    pub double_step_ranks: Vec<u8>,
    /// Black's double-step ranks (0-based, Black's view) where they are
    /// not White's mirrored (Fairy-Stockfish's default on a board of other
    /// than 8 ranks: White's rank 2, Black's rank 7 counted from White).
    pub double_step_ranks_black: Option<Vec<u8>>,
    /// En passant capture after a double step.
    pub en_passant: bool,
    /// Promotion on the last rank.
    pub promotion: PromotionRule,
    /// Ranks (0-based, White's view) where a pawn promotes on arrival
    /// (every move of a pawn inside it too); empty: the last rank only.
    pub promotion_ranks: Vec<u8>,
    /// Whether a pawn must promote in the zone: with `false` it may stay a
    /// pawn, except on the last rank, where it would never move again.
    pub promotion_mandatory: bool,
    /// Most pieces of a type its owner may have on the board after a
    /// promotion: a type is offered only while its owner has fewer than
    /// the limit (Grand chess: promote only to captured pieces). Types not
    /// listed are not limited.
    pub promotion_limits: Vec<(PieceKind, u8)>,
    /// Ranks (0-based, absolute) of the squares a double step passes
    /// where it may be taken en passant; `None`: wherever it happens.
    /// Horde: a double step from the first rank gives no en passant.
    pub en_passant_ranks: Option<Vec<u8>>,
    /// The ruling on promotion, cited in messages (`R-CO-3`).
    pub rule: String,
}

/// Castling toward the higher files (`O-O`) or toward file a (`O-O-O`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Toward the higher files: `O-O`.
    Short,
    /// Toward file a: `O-O-O`.
    Long,
}

/// Which squares must not be attacked when castling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingSafety {
    /// The king's square, the squares it passes over and lands on (R-0-5).
    KingPath,
    /// Every square from the partner's square to the king's, both included
    /// (R-CS-2).
    PartnerToKing,
}

/// One way to castle, for one side.
///
/// A stage (R-CO-4, R-RO-3) shows in the data as a start square that is not
/// the piece's origin: `king_from != king's setup square` means "the king's
/// only move so far was origin -> `king_from`", and likewise for the partner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastlingDef {
    /// Whose castling.
    pub color: Color,
    /// `O-O` or `O-O-O`.
    pub side: CastlingSide,
    /// Where the king stands when castling.
    pub king_from: Square,
    /// Where the king lands.
    pub king_to: Square,
    /// The setup square of the partner (rook, queen or chancellor).
    pub partner_origin: Square,
    /// Where the partner stands when castling.
    pub partner_from: Square,
    /// Where the partner lands.
    pub partner_to: Square,
    /// Which squares must be safe.
    pub safety: CastlingSafety,
    /// The partner's type where the setup leaves its origin empty (the
    /// piece starts in hand); otherwise the type the setup puts there.
    pub partner_kind: Option<PieceKind>,
    /// The ruling that defines it, e.g. `R-CO-4`.
    pub rule: String,
}

/// A once-per-game king move beyond the ordinary step (R-KL-1, R-CH-5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecialKingMove {
    /// What it is called in messages ("the king's leap").
    pub name: String,
    /// Offsets the king may leap by.
    pub offsets: Vec<(i8, i8)>,
    /// The right ends with any king move (R-KL-1: "if the king has never
    /// moved"); otherwise only this move uses it (R-CH-5).
    pub lost_on_any_king_move: bool,
    /// The target may hold an enemy piece.
    pub may_capture: bool,
    /// Not allowed while in check.
    pub forbidden_in_check: bool,
    /// The square between origin and target must hold no enemy piece and
    /// not be attacked (R-KL-1).
    pub leapt_square_guarded: bool,
    /// While unused, the target squares count as attacked by the king
    /// (R-CH-5).
    pub attacks_while_unused: bool,
    /// The ruling, e.g. `R-KL-1`.
    pub rule: String,
}

/// Castling toward either rook from any setup (Chess960, R-960-1, and
/// Fairy-Stockfish's castling): the king lands on a fixed file, the rook
/// next to it on the inside, wherever both started on the back rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FreeCastling {
    /// Files (0-based) the king lands on: `O-O`, `O-O-O`.
    pub king_files: [u8; 2],
    /// Files the partner lands on: `O-O`, `O-O-O`.
    pub partner_files: [u8; 2],
    /// The partner's type (the rook).
    pub partner: PieceKind,
    /// Whether White, Black castles at all (Fairy-Stockfish's start
    /// positions may give the castlings of one side only).
    pub colors: [bool; 2],
    /// Coordinate notation writes castling as the king taking its own
    /// partner (`e1h1`, R-960-1) instead of the king's from-to.
    pub king_takes_partner: bool,
    /// The ruling, e.g. `R-960-1`.
    pub rule: String,
}

/// What a bare king (a side left with its king alone) means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BareKing {
    /// Nothing: play on (R-0-3, orthodox chess).
    Plays,
    /// The side whose king is bare after the opponent's move loses, unless
    /// it bares the opponent's king at once in reply (Shatranj): a side to
    /// move with a bare king against more than a king has lost; both bare
    /// is a draw.
    Loses,
}

/// What stalemate means for the stalemated side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateOutcome {
    /// A draw (R-0-2).
    Draw,
    /// The stalemated player loses (R-RO-4).
    StalematedLoses,
    /// The stalemated player wins (R-CH-7).
    StalematedWins,
}

/// Pieces in hand and dropping them (docs/variants.md "Hands and drops"):
/// a drop puts a piece from its owner's hand on an empty square, as a
/// whole move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandRules {
    /// A captured piece goes to the captor's hand, its colour changed
    /// (crazyhouse); otherwise hands hold only what the setup gives.
    pub captures_to_hand: bool,
    /// A piece that came from a promotion goes to hand as a pawn.
    pub promoted_revert: bool,
    /// Ranks (0-based, White's view; Black's mirrored) a pawn may be
    /// dropped on, within `ranks`.
    pub pawn_ranks: Vec<u8>,
    /// Ranks (0-based, White's view; Black's mirrored) any piece may be
    /// dropped on.
    pub ranks: Vec<u8>,
    /// Ranks (0-based, White's view; Black's mirrored) pieces of these
    /// kinds may be dropped on, instead of `ranks`.
    pub kind_ranks: Vec<(PieceKind, Vec<u8>)>,
    /// No piece on the board moves while its owner has pieces in hand (a
    /// placement phase).
    pub must_drop: bool,
    /// Hand pieces may be dropped as moves of their own; without drops
    /// they enter only by gating.
    pub drops: bool,
    /// A piece making its first move from its side's first rank may leave
    /// a hand piece on the square it left (Seirawan gating).
    pub gating: bool,
    /// A king dropped on its castling square and a partner dropped on its
    /// origin make that castling possible, as if they had stood there
    /// from the start (a placement phase).
    pub castling_from_drops: bool,
    /// Kinds whose pieces of one side must be dropped onto squares of both
    /// colours (bit per kind): a drop that would leave no room for that is
    /// illegal.
    pub opposite_colours: u16,
    /// The pieces in hand at the start (the setup string's `[...]`).
    pub start: Vec<Piece>,
    /// The ruling, e.g. `R-ZH-1`.
    pub rule: String,
}

impl HandRules {
    /// The ranks a pawn may be dropped on where the definition does not
    /// say: all but the first and the last (a pawn there could not have
    /// come from a move, or could not move).
    pub fn default_pawn_ranks(size: BoardSize) -> Vec<u8> {
        (1..size.ranks.saturating_sub(1)).collect()
    }
}

/// Who a side without pieces of some kinds is: extinction (docs/variants.md
/// "Extinction").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extinction {
    /// The kinds that count (bit per kind); a side with none of them on the
    /// board (and in hand) is extinct.
    pub kinds: u16,
    /// Whether the extinct side wins (antichess) or loses (horde).
    pub extinct_side_wins: bool,
    /// The ruling.
    pub rule: String,
}

/// A region whose reaching by a piece type wins (docs/variants.md
/// "Flag"): king of the hill's centre, racing kings' last rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlagRule {
    /// The type that must arrive.
    pub kind: PieceKind,
    /// Per colour: the squares that win.
    pub regions: [Vec<Square>; 2],
    /// When White arrives first, Black makes one more move, and arriving
    /// too draws.
    pub black_reply: bool,
    /// The ruling.
    pub rule: String,
}

/// Captures explode (docs/variants.md "Explosions"): the capturing piece,
/// the captured one and every piece on the eight squares around the
/// capture square but those of the immune kinds are removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explosion {
    /// Kinds that survive an explosion next to them (bit per kind).
    pub immune: u16,
    /// The ruling.
    pub rule: String,
}

/// A variant, as data.
#[derive(Clone, Debug)]
pub struct VariantDef {
    /// Short name used on the command line and in the `Variant` tag (`courier-spiel`).
    pub name: String,
    /// Display name ("Courier-Spiel").
    pub display_name: String,
    /// Other names the `Variant` tag may use ("Orthodox", "Royal").
    pub aliases: Vec<String>,
    /// Board size.
    pub size: BoardSize,
    /// Piece table; `PieceKind(i)` is entry `i`. At most 15 entries.
    pub pieces: Vec<PieceDef>,
    /// The start position.
    pub setup: Vec<(Square, Piece)>,
    /// Pawn rules.
    pub pawns: PawnRules,
    /// Every castling, both sides.
    pub castling: Vec<CastlingDef>,
    /// The king's once-per-game move, if any.
    pub special_king_move: Option<SpecialKingMove>,
    /// Stalemate outcome.
    pub stalemate: StalemateOutcome,
    /// Castling toward either rook from any setup (R-960-1), besides the
    /// fixed `castling` list.
    pub free_castling: Option<FreeCastling>,
    /// Bare-king outcome.
    pub bare_king: BareKing,
    /// Pieces in hand and drops.
    pub hand: Option<HandRules>,
    /// A side that can capture must (antichess).
    pub must_capture: bool,
    /// Per colour: the side's army may have no king (Horde's White): a
    /// side without one cannot be checked, and loses by the variant's
    /// other rules. Set for both sides, either army may be the kingless
    /// one, as a position string gives it (Horde with the colours
    /// reversed): each side has at most one king, one side has its king.
    pub kingless: [bool; 2],
    /// Whether the king is royal (may not be left attacked, R-0-1). A
    /// king that is not is an ordinary piece: no check, it may be
    /// captured and there may be any number of them.
    pub royal_king: bool,
    /// No move may give check (racing kings).
    pub checks_forbidden: bool,
    /// The side that gives this many checks wins (three-check: 3).
    pub check_limit: Option<u8>,
    /// A side left without pieces of some kinds wins or loses.
    pub extinction: Option<Extinction>,
    /// A piece reaching a region wins.
    pub flag: Option<FlagRule>,
    /// Captures explode.
    pub explosion: Option<Explosion>,
    /// The definition file's text, when it came from one (for a
    /// `variants.ini` section: that section and the sections it inherits
    /// from, parents first).
    pub source: Option<String>,
    /// The format of `source`.
    pub source_format: SourceFormat,
    /// The opening book the definition points at (`openings = "FILE"`),
    /// resolved against the folder of the definition file: tab-separated
    /// `eco`, `name`, `moves` lines (docs/variants.md "Opening names").
    /// Read and checked by the notation layer (`OpeningBook::of`).
    pub openings: Option<std::path::PathBuf>,
}

/// The format a definition was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceFormat {
    /// xpgn's TOML definition (`docs/variants.md`).
    Toml,
    /// A section of Fairy-Stockfish's `variants.ini`.
    Ini,
}

impl SourceFormat {
    /// `toml` or `ini`, as stored and as a file extension.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceFormat::Toml => "toml",
            SourceFormat::Ini => "ini",
        }
    }
}

/// A fault in a variant definition.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum VariantDefError {
    /// The piece table is empty or has more than 15 types.
    #[error("a variant needs 1 to 15 piece types, this one has {0}")]
    PieceCount(usize),
    /// Not exactly one King and one Pawn role.
    #[error("a variant needs exactly one King type and one Pawn type")]
    Roles,
    /// Two piece types share a letter.
    #[error("two piece types use the letter {0}")]
    DuplicateLetter(char),
    /// A setup square is off the board or used twice.
    #[error("setup square {0:?} is off the board or used twice")]
    BadSetupSquare(Square),
    /// Not exactly one king per side in the setup.
    #[error("the setup needs exactly one king per side")]
    SetupKings,
    /// A castling refers to squares where the setup has no king or partner.
    #[error("castling {0} does not match the setup")]
    BadCastling(String),
    /// Some movement offset is zero or off any 16x16 board.
    #[error("piece {0} has an empty or oversized move offset")]
    BadOffset(String),
    /// Too many castlings (free castling on a board wider than 11 files).
    #[error("too many castlings: castling toward either rook needs a board of at most 11 files")]
    TooManyCastlings,
}

/// A compiled variant: an owned, shareable value (cloning it shares the
/// tables), equal to another compiled from the same definition.
///
/// ```
/// use xpgn::rules::Variant;
/// let v = Variant::by_name("Courier-Spiel").unwrap();
/// assert_eq!(v.name(), "courier-spiel");
/// assert_eq!((v.size().files, v.size().ranks), (12, 8));
/// ```
#[derive(Clone)]
pub struct Variant(pub(crate) Arc<Tables>);

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Variant({})", self.name())
    }
}

impl From<&Variant> for Variant {
    fn from(variant: &Variant) -> Variant {
        variant.clone()
    }
}

impl PartialEq for Variant {
    fn eq(&self, other: &Variant) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.def.same_definition(&other.0.def)
    }
}
impl Eq for Variant {}

impl VariantDef {
    /// Whether any rule beyond moving pieces applies: hands, compulsory
    /// capture, a king that is not royal, forbidden checks, check
    /// counting, extinction, a flag region or explosions. Such variants
    /// take the move generator's general path (each move tried on a copy).
    pub fn has_play_rules(&self) -> bool {
        self.hand.is_some()
            || self.must_capture
            || !self.royal_king
            || self.kingless.iter().any(|&k| k)
            || self.pawns.en_passant_ranks.is_some()
            || self.checks_forbidden
            || self.check_limit.is_some()
            || self.extinction.is_some()
            || self.flag.is_some()
            || self.explosion.is_some()
            || matches!(self.pawns.promotion, PromotionRule::InPlace { .. })
    }

    /// Whether `other` defines the same variant: every field but the
    /// text it was read from (two files may write one definition
    /// differently).
    pub fn same_definition(&self, other: &VariantDef) -> bool {
        let VariantDef {
            name,
            display_name,
            aliases,
            size,
            pieces,
            setup,
            pawns,
            castling,
            special_king_move,
            stalemate,
            free_castling,
            bare_king,
            hand,
            must_capture,
            royal_king,
            kingless,
            checks_forbidden,
            check_limit,
            extinction,
            flag,
            explosion,
            source: _,
            source_format: _,
            openings: _,
        } = self;
        *name == other.name
            && *display_name == other.display_name
            && *aliases == other.aliases
            && *size == other.size
            && *pieces == other.pieces
            && *setup == other.setup
            && *pawns == other.pawns
            && *castling == other.castling
            && *special_king_move == other.special_king_move
            && *stalemate == other.stalemate
            && *free_castling == other.free_castling
            && *bare_king == other.bare_king
            && *hand == other.hand
            && *must_capture == other.must_capture
            && *royal_king == other.royal_king
            && *kingless == other.kingless
            && *checks_forbidden == other.checks_forbidden
            && *check_limit == other.check_limit
            && *extinction == other.extinction
            && *flag == other.flag
            && *explosion == other.explosion
    }
}

/// Each built-in, compiled on first use: a process that reads orthodox
/// games builds the tables of chess alone (building all nine was half the
/// instructions of validating 232 games). These never change: they are
/// the definitions shipped in `variants/`.
static BUILTIN: [OnceLock<Variant>; BUILTIN_NAMES.len()] =
    [const { OnceLock::new() }; BUILTIN_NAMES.len()];

impl Variant {
    /// Compiles a definition.
    ///
    /// # Errors
    /// Returns what is wrong with the definition.
    pub fn compile(def: VariantDef) -> Result<Variant, VariantDefError> {
        let tables = Tables::build(def)?;
        Ok(Variant(Arc::new(tables)))
    }

    /// Built-in number `i` (in the order of [`BUILTIN_NAMES`]), compiled
    /// the first time it is asked for.
    pub(crate) fn builtin_at(i: usize) -> Variant {
        BUILTIN[i]
            .get_or_init(|| {
                Variant::compile(builtin::builtin_def_to_compile(i))
                    .expect("builtin definitions are valid")
            })
            .clone()
    }

    /// The built-in variants, in the order of [`BUILTIN_NAMES`] (all of
    /// them compiled).
    pub fn builtin() -> &'static [Variant] {
        static ALL: OnceLock<Vec<Variant>> = OnceLock::new();
        ALL.get_or_init(|| (0..BUILTIN_NAMES.len()).map(Variant::builtin_at).collect())
    }

    /// Whether this is one of the built-in variants.
    pub fn is_builtin(&self) -> bool {
        BUILTIN_NAMES
            .iter()
            .position(|&n| n == self.name())
            .is_some_and(|i| BUILTIN[i].get() == Some(self))
    }

    /// Orthodox chess.
    pub fn chess() -> Variant {
        Variant::builtin_at(0)
    }

    /// Finds a built-in variant by name, case-blind, ignoring spaces, `-`,
    /// `_` and `'`, by short or display name or alias (docs/notation.md
    /// §3). Variants loaded from files are found in the [`Registry`] that
    /// loaded them ([`Registry::lookup`]).
    pub fn by_name(name: &str) -> Option<Variant> {
        let key = normalize_name(name);
        (0..BUILTIN_NAMES.len())
            .find(|&i| builtin::builtin_keys(i).contains(&key))
            .map(Variant::builtin_at)
    }

    /// Whether both are the same compiled tables (a cheap test that
    /// implies equality).
    pub fn same_tables(&self, other: &Variant) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Whether `key` (a [`normalize_name`] key) names this variant.
    pub(crate) fn answers_to(&self, key: &str) -> bool {
        normalize_name(self.name()) == key
            || normalize_name(&self.def().display_name) == key
            || self.def().aliases.iter().any(|a| normalize_name(a) == key)
    }

    pub(crate) fn tables(&self) -> &Tables {
        &self.0
    }

    /// The definition it was compiled from.
    pub fn def(&self) -> &VariantDef {
        &self.0.def
    }

    /// Short name (`courier-spiel`).
    pub fn name(&self) -> &str {
        &self.0.def.name
    }

    /// Board size.
    pub fn size(&self) -> BoardSize {
        self.0.def.size
    }

    /// The piece type definition.
    pub fn piece_def(&self, kind: PieceKind) -> &PieceDef {
        &self.0.def.pieces[kind.index()]
    }

    /// All piece kinds, in table order.
    pub fn kinds(&self) -> impl Iterator<Item = PieceKind> + use<> {
        (0..self.0.def.pieces.len() as u8).map(PieceKind)
    }

    /// The kind with this upper-case letter. Inlined: the replay asks it
    /// for nearly every move it reads, and an ASCII letter is one look-up.
    #[inline(always)]
    pub fn kind_by_letter(&self, letter: char) -> Option<PieceKind> {
        let up = letter.to_ascii_uppercase();
        if up.is_ascii_uppercase() {
            let k = self.0.kind_of_letter[usize::from(up as u8 - b'A')];
            return (k != u8::MAX).then_some(PieceKind(k));
        }
        self.kind_by_other_letter(up)
    }

    /// [`Variant::kind_by_letter`] of a letter outside ASCII, by a search.
    #[inline(never)]
    fn kind_by_other_letter(&self, up: char) -> Option<PieceKind> {
        self.kinds().find(|&k| self.piece_def(k).letter == up)
    }

    /// The royal kind.
    pub fn king_kind(&self) -> PieceKind {
        self.0.king
    }

    /// The pawn kind.
    pub fn pawn_kind(&self) -> PieceKind {
        self.0.pawn
    }

    /// Where `color`'s king starts.
    pub fn king_origin(&self, color: Color) -> Square {
        self.0.king_origin[color.index()]
    }

    /// How many pieces of `kind` `color` has in the setup.
    pub fn setup_count(&self, color: Color, kind: PieceKind) -> u8 {
        self.0.setup_counts[color.index()][kind.index()]
    }

    /// Whether the variant has any castling whose first stage is an ordinary move.
    pub fn has_castling_stages(&self) -> bool {
        self.0.has_stages
    }

    /// Whether the variant has a once-per-game king move.
    pub fn special_king_move(&self) -> Option<&SpecialKingMove> {
        self.0.def.special_king_move.as_ref()
    }

    /// Whether pawns wait on the last rank (R-CS-3).
    pub fn has_waiting_promotion(&self) -> bool {
        matches!(self.0.def.pawns.promotion, PromotionRule::Waiting { .. })
    }

    /// The castlings of `color`.
    pub fn castlings(&self, color: Color) -> impl Iterator<Item = &CastlingDef> {
        self.0.def.castling.iter().filter(move |c| c.color == color)
    }

    /// The castling with this index in the definition.
    pub fn castling(&self, index: usize) -> &CastlingDef {
        &self.0.def.castling[index]
    }

    /// The rank where `color`'s pawns promote (0-based).
    pub fn last_rank(&self, color: Color) -> u8 {
        match color {
            Color::White => self.size().ranks - 1,
            Color::Black => 0,
        }
    }
}

/// Case-blind name key with spaces, `-`, `_` and `'` removed.
pub fn normalize_name(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '\'' | '\u{2019}'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `kings`, the kings per colour on the board and in hand, fit
/// `kingless` ([`VariantDef::kingless`]) for `color`: a side that may
/// not be kingless has exactly one king; a side that may has none or
/// one, and where both may, one side has its king.
pub(crate) fn kings_fit(kingless: [bool; 2], kings: [usize; 2], color: Color) -> bool {
    let n = kings[color.index()];
    match kingless {
        [true, true] => n <= 1 && kings.contains(&1),
        _ if kingless[color.index()] => n == 0,
        _ => n == 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_lookup_finds_the_first_kind_with_the_letter() {
        for v in Variant::builtin() {
            for c in ('A'..='Z').chain('a'..='z').chain(['+', '1']) {
                let up = c.to_ascii_uppercase();
                let first = v.kinds().find(|&k| v.piece_def(k).letter == up);
                assert_eq!(v.kind_by_letter(c), first, "{} {c}", v.name());
            }
        }
    }

    #[test]
    fn every_builtin_compiles_and_is_found_by_display_name() {
        for v in Variant::builtin() {
            assert_eq!(Variant::by_name(&v.def().display_name), Some(v.clone()));
            assert_eq!(Variant::by_name(v.name()), Some(v.clone()));
        }
        assert_eq!(
            Variant::by_name("King's Leap Chess").unwrap().name(),
            "kings-leap"
        );
        assert_eq!(
            Variant::by_name("COUNSELLOR_chess").unwrap().name(),
            "counsellor"
        );
        assert_eq!(
            Variant::by_name("Courier Spiel").unwrap().name(),
            "courier-spiel"
        );
        assert!(Variant::by_name("xiangqi").is_none());
    }

    #[test]
    fn the_names_other_programs_give_orthodox_chess_are_its_aliases() {
        // docs/notation.md §3: Lichess writes `Standard` and `From
        // Position`, other programs `Normal` and `Regular`.
        for name in ["Standard", "Normal", "Regular", "From Position", "orthodox"] {
            assert_eq!(Variant::by_name(name), Some(Variant::chess()), "{name}");
            assert_eq!(
                Registry::builtin().lookup(name),
                Some(Variant::chess()),
                "{name}"
            );
        }
    }

    #[test]
    fn a_16x16_variant_is_a_definition_only() {
        use crate::rules::{Color, Piece, Position, perft};
        let mut def = builtin_def("chess").unwrap();
        def.name = "big".into();
        def.size = BoardSize::new(16, 16);
        let kind =
            |l: char| PieceKind(def.pieces.iter().position(|p| p.letter == l).unwrap() as u8);
        let back = "RNBQKBNRRNBQQBNR";
        def.setup.clear();
        for (color, rank, pawns) in [(Color::White, 0, 1), (Color::Black, 15, 14)] {
            for (f, l) in back.chars().enumerate() {
                def.setup.push((
                    Square::new(f as u8, rank),
                    Piece {
                        color,
                        kind: kind(l),
                    },
                ));
                def.setup.push((
                    Square::new(f as u8, pawns),
                    Piece {
                        color,
                        kind: kind('P'),
                    },
                ));
            }
        }
        def.castling.clear();
        def.free_castling = None;
        let v = Variant::compile(def).unwrap();
        let pos = Position::start(v);
        // 16 pawns with one or two steps, 4 knights with two moves each; the
        // armies are 12 ranks apart, so the replies do not interact.
        assert_eq!(perft(&pos, 1), 40);
        assert_eq!(perft(&pos, 2), 1600);
    }

    #[test]
    fn duplicate_letters_are_rejected() {
        let mut def = builtin_def("chess").unwrap();
        def.pieces[1].letter = 'K';
        assert!(matches!(
            Variant::compile(def),
            Err(VariantDefError::DuplicateLetter('K'))
        ));
    }
}
