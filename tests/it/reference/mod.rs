//! A clean-room second implementation of the rules of docs/rules.md,
//! used only by tests to cross-check xpgn's move generator.
//!
//! It was written from docs/rules.md alone, without looking at xpgn's move
//! generator, and it is deliberately naive: a plain 2-D array of letters,
//! every piece tried against every target square by direct evaluation of
//! the rule, legality by playing the move on a copy and asking whether any
//! enemy piece could then capture the king (enemy attacks generated forward
//! from each enemy piece). Speed does not matter.
//!
//! The only things taken from xpgn are the input type [`Setup`] (to start
//! from any xpgn position) and the variant's kind-to-letter table needed
//! to read it; everything else (setups, piece moves, castling squares and
//! conditions, promotions, waiting pawns) is derived here from docs/rules.md.

#![allow(dead_code)]

use xpgn::rules::{CastlingSide, Color, Piece, Setup, Square, Variant, WaitingPawn};

/// A square: (file, rank), both 0-based.
pub type Sq = (i8, i8);

/// The variants of docs/rules.md.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum V {
    Chess,
    Counsellor,
    Royal,
    Chaturanga,
    Courier,
    Chancellor,
    Crosswise,
    KingsLeap,
}

/// Every variant with its xpgn name.
pub const VARIANTS: [(&str, V); 8] = [
    ("chess", V::Chess),
    ("counsellor", V::Counsellor),
    ("royal", V::Royal),
    ("chaturanga", V::Chaturanga),
    ("courier-spiel", V::Courier),
    ("chancellor", V::Chancellor),
    ("chancellor-crosswise", V::Crosswise),
    ("kings-leap", V::KingsLeap),
];

/// How a piece type moves (docs/rules.md, per variant letter).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mv {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    /// R-CO-1: one or two diagonally, the two-square move not jumping.
    Elephant12,
    /// One square diagonally (R-RO-1 Firzan, R-CH-2 Councelor).
    Ferz,
    /// R-CH-2 Elephant: exactly two diagonally, jumping.
    Alfil,
    /// R-CS-1 Bishop: one or two diagonally, jumping.
    Jump12,
    /// A non-royal king (R-CO-2 Counsellor, R-CS-1 Fool).
    Commoner,
    /// Rook + knight (R-PC Chancellor).
    Chancellor,
    /// R-CS-1 Councillor: knight + one square any direction.
    Councillor,
    Pawn,
}

impl V {
    /// The variant with this xpgn name.
    pub fn from_name(name: &str) -> V {
        VARIANTS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v)
            .unwrap_or_else(|| panic!("unknown variant {name}"))
    }

    /// Files and ranks.
    pub fn size(self) -> (i8, i8) {
        match self {
            V::Counsellor | V::Courier => (12, 8),
            V::Royal => (10, 8),
            _ => (8, 8),
        }
    }

    /// The back rank of `white` (or Black), file a first, upper case.
    pub fn back_rank(self, white: bool) -> &'static str {
        match self {
            V::Chess => "RNBQKBNR",
            V::Counsellor => "RNBECQKCEBNR",
            V::Royal => "RNBEFKEBNR",
            V::Chaturanga if white => "RNECKENR",
            V::Chaturanga => "RNEKCENR",
            V::Courier => "RNBCMKQFCBNR",
            V::Chancellor | V::KingsLeap => "CNBRKBNQ",
            V::Crosswise if white => "CNBRKBNQ",
            V::Crosswise => "QNBKRBNC",
        }
    }

    /// Promotion types (not for Chaturanga, by square, or Courier-Spiel,
    /// waiting).
    fn promotions(self) -> &'static [char] {
        match self {
            V::Chess => &['Q', 'R', 'B', 'N'],
            V::Counsellor => &['C', 'B'],
            V::Royal => &['F'],
            V::Chancellor | V::Crosswise | V::KingsLeap => &['N', 'B', 'R', 'C', 'Q'],
            V::Chaturanga | V::Courier => &[],
        }
    }

    fn movement(self, letter: char) -> Mv {
        match (self, letter) {
            (_, 'K') => Mv::King,
            (_, 'P') => Mv::Pawn,
            (_, 'N') => Mv::Knight,
            (_, 'R') => Mv::Rook,
            (_, 'Q') => Mv::Queen,
            (V::Counsellor, 'E') | (V::Royal, 'E') => Mv::Elephant12,
            (V::Counsellor, 'C') => Mv::Commoner,
            (V::Royal, 'F') => Mv::Ferz,
            (V::Chaturanga, 'C') => Mv::Ferz,
            (V::Chaturanga, 'E') => Mv::Alfil,
            (V::Courier, 'B') => Mv::Jump12,
            (V::Courier, 'C') => Mv::Bishop,
            (V::Courier, 'M') => Mv::Councillor,
            (V::Courier, 'F') => Mv::Commoner,
            (V::Chancellor | V::Crosswise | V::KingsLeap, 'C') => Mv::Chancellor,
            (_, 'B') => Mv::Bishop,
            _ => panic!("{self:?} has no piece {letter}"),
        }
    }

    /// Chess-like castling rights: the partner's home file for a side, 0 =
    /// toward higher files (`K`), 1 = toward file a (`Q`); the same for both
    /// colours (Crosswise Black: the queen on a8, the chancellor on h8).
    fn partner_home(self, side: usize) -> Option<i8> {
        match (self, side) {
            (V::Chess | V::Chancellor | V::Crosswise, 0) => Some(7),
            (V::Chess | V::Chancellor | V::Crosswise, _) => Some(0),
            (V::Courier, 0) => Some(11),
            (V::Courier, _) => Some(0),
            (V::Royal, 0) => Some(9),
            _ => None,
        }
    }

    /// Two-stage castling (R-CO-4, R-RO-3 b/c): files of the king's home,
    /// the king's first-stage square, the rook's home, the rook's
    /// first-stage square; and which side (0 = `K`, 1 = `Q`) it is.
    pub fn two_stage(self) -> Option<(i8, i8, i8, i8, usize)> {
        match self {
            V::Counsellor => Some((6, 7, 11, 10, 0)),
            V::Royal => Some((5, 4, 0, 1, 1)),
            _ => None,
        }
    }

    pub fn castle_defs(self, white: bool) -> Vec<CastleDef> {
        let d =
            |name, need, king: (char, char), rook: (char, char), partner, empty, safe| CastleDef {
                name,
                need,
                king: (file(king.0), file(king.1)),
                rook: (file(rook.0), file(rook.1)),
                partner,
                empty,
                safe,
            };
        match self {
            // R-0-5: squares passed or landed on by king and rook empty; the
            // king's start, passed and landing squares not attacked.
            V::Chess => vec![
                d(
                    "O-O",
                    Need::Right(0),
                    ('e', 'g'),
                    ('h', 'f'),
                    'R',
                    "fg",
                    "efg",
                ),
                d(
                    "O-O-O",
                    Need::Right(1),
                    ('e', 'c'),
                    ('a', 'd'),
                    'R',
                    "bcd",
                    "edc",
                ),
            ],
            // R-PC-2.
            V::Chancellor => vec![
                d(
                    "O-O",
                    Need::Right(0),
                    ('e', 'g'),
                    ('h', 'f'),
                    'Q',
                    "fg",
                    "efg",
                ),
                d(
                    "O-O-O",
                    Need::Right(1),
                    ('e', 'c'),
                    ('a', 'd'),
                    'C',
                    "bcd",
                    "edc",
                ),
            ],
            // R-PX-1 (White as R-PC-2).
            V::Crosswise if white => vec![
                d(
                    "O-O",
                    Need::Right(0),
                    ('e', 'g'),
                    ('h', 'f'),
                    'Q',
                    "fg",
                    "efg",
                ),
                d(
                    "O-O-O",
                    Need::Right(1),
                    ('e', 'c'),
                    ('a', 'd'),
                    'C',
                    "bcd",
                    "edc",
                ),
            ],
            V::Crosswise => vec![
                d(
                    "O-O",
                    Need::Right(0),
                    ('d', 'f'),
                    ('h', 'e'),
                    'C',
                    "efg",
                    "def",
                ),
                d(
                    "O-O-O",
                    Need::Right(1),
                    ('d', 'b'),
                    ('a', 'c'),
                    'Q',
                    "bc",
                    "dcb",
                ),
            ],
            // R-CS-2: every square between king and rook empty; every square
            // from the rook's to the king's, both included, not attacked.
            V::Courier => vec![
                d(
                    "O-O",
                    Need::Right(0),
                    ('f', 'j'),
                    ('l', 'i'),
                    'R',
                    "ghijk",
                    "fghijkl",
                ),
                d(
                    "O-O-O",
                    Need::Right(1),
                    ('f', 'c'),
                    ('a', 'd'),
                    'R',
                    "bcde",
                    "abcdef",
                ),
            ],
            // R-CO-4.
            V::Counsellor => vec![
                d(
                    "a",
                    Need::KingStaged,
                    ('h', 'j'),
                    ('l', 'i'),
                    'R',
                    "ijk",
                    "hij",
                ),
                d(
                    "b",
                    Need::RookStaged,
                    ('g', 'i'),
                    ('k', 'j'),
                    'R',
                    "hij",
                    "ghi",
                ),
            ],
            // R-RO-3.
            V::Royal => vec![
                d(
                    "a",
                    Need::Right(0),
                    ('f', 'h'),
                    ('j', 'g'),
                    'R',
                    "ghi",
                    "fgh",
                ),
                d(
                    "b",
                    Need::KingStaged,
                    ('e', 'c'),
                    ('a', 'd'),
                    'R',
                    "bcd",
                    "edc",
                ),
                d(
                    "c",
                    Need::RookStaged,
                    ('f', 'd'),
                    ('b', 'e'),
                    'R',
                    "cde",
                    "fed",
                ),
            ],
            V::Chaturanga | V::KingsLeap => vec![],
        }
    }
}

fn file(c: char) -> i8 {
    (c as u8 - b'a') as i8
}

/// What a castling requires of the castling state.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Need {
    /// Neither king nor partner has moved (side 0 `K`, 1 `Q`).
    Right(usize),
    /// Two-stage, the king's first stage done.
    KingStaged,
    /// Two-stage, the rook's first stage done.
    RookStaged,
}

/// One castling of one side.
#[derive(Clone, Copy, Debug)]
pub struct CastleDef {
    /// Name for statistics.
    pub name: &'static str,
    pub need: Need,
    /// King from and to files.
    pub king: (i8, i8),
    /// Partner from and to files.
    pub rook: (i8, i8),
    /// Partner letter.
    pub partner: char,
    /// Files that must be empty.
    pub empty: &'static str,
    /// Files that must not be attacked (the king's square included).
    pub safe: &'static str,
}

/// Two-stage castling progress of one side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stage {
    /// King and rook never moved.
    Fresh,
    /// The king's only move was its first stage.
    KingStaged,
    /// The rook's only move was its first stage.
    RookStaged,
    /// Over for good.
    Dead,
}

/// A piece: colour and upper-case letter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pc {
    pub white: bool,
    pub kind: char,
}

/// A waiting pawn (R-CS-3): square, owner, owner moves left (2, 1, 0 =
/// blocked).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Wait {
    pub sq: Sq,
    pub white: bool,
    pub turns: u8,
}

/// What kind of ply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Normal,
    Double,
    EnPassant,
    /// Castling; index into `castle_defs`.
    Castle(usize),
    /// R-KL-1 leap or R-CH-5 knight move.
    Special,
}

/// A move of the reference.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RMove {
    pub from: Sq,
    pub to: Sq,
    pub kind: Kind,
    pub promo: Option<char>,
    /// Own waiting pawn promoting with this ply (R-CS-4).
    pub wprom: Option<(Sq, char)>,
    /// Opponent's blocked pawn promoting instantly (R-CS-6).
    pub iprom: Option<(Sq, char)>,
}

pub fn sq_name(s: Sq) -> String {
    format!("{}{}", (b'a' + s.0 as u8) as char, s.1 + 1)
}

impl RMove {
    /// In xpgn's coordinate notation (`write_coord`).
    pub fn coord(&self) -> String {
        let mut out = format!("{}{}", sq_name(self.from), sq_name(self.to));
        if let Some(p) = self.promo {
            out.push(p.to_ascii_lowercase());
        }
        for (s, k) in [self.wprom, self.iprom].into_iter().flatten() {
            out.push_str(&format!("&{}={}", sq_name(s), k));
        }
        out
    }
}

/// A position of the reference.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Ref {
    pub v: V,
    pub files: i8,
    pub ranks: i8,
    /// `board[file][rank]`.
    pub board: [[Option<Pc>; 8]; 12],
    pub white_to_move: bool,
    pub ep: Option<Sq>,
    /// Chess-like castling rights `[colour][side]` (White 0).
    pub rights: [[bool; 2]; 2],
    /// Two-stage castling progress per colour.
    pub stage: [Stage; 2],
    /// Unused once-per-game king move per colour (R-KL-1, R-CH-5).
    pub king_right: [bool; 2],
    /// Waiting pawns in order of arrival.
    pub waiting: Vec<Wait>,
}

fn ci(white: bool) -> usize {
    if white { 0 } else { 1 }
}

impl Ref {
    /// The start position of `v`, from docs/rules.md.
    pub fn start(v: V) -> Ref {
        let (files, ranks) = v.size();
        let mut board = [[None; 8]; 12];
        for white in [true, false] {
            let back = if white { 0 } else { ranks - 1 };
            let pawns = if white { 1 } else { ranks - 2 };
            for (f, c) in v.back_rank(white).chars().enumerate() {
                board[f][back as usize] = Some(Pc { white, kind: c });
                board[f][pawns as usize] = Some(Pc { white, kind: 'P' });
            }
        }
        let two = v.two_stage().is_some();
        let rights = [[v.partner_home(0).is_some(), v.partner_home(1).is_some()]; 2];
        Ref {
            v,
            files,
            ranks,
            board,
            white_to_move: true,
            ep: None,
            rights,
            stage: if two {
                [Stage::Fresh; 2]
            } else {
                [Stage::Dead; 2]
            },
            king_right: [matches!(v, V::Chaturanga | V::KingsLeap); 2],
            waiting: Vec::new(),
        }
    }

    /// An xpgn position as the reference reads it: the variant name and
    /// the raw fields.
    pub fn from_setup(variant: &Variant, s: &Setup) -> Ref {
        let v = V::from_name(variant.name());
        let (files, ranks) = v.size();
        let mut board = [[None; 8]; 12];
        for (sq, p) in &s.board {
            let kind = variant.piece_def(p.kind).letter.to_ascii_uppercase();
            board[sq.file() as usize][sq.rank() as usize] = Some(Pc {
                white: p.color == Color::White,
                kind,
            });
        }
        let has = |c: Color, side: CastlingSide| s.castling.contains(&(c, side));
        let side_of = |side: usize| {
            if side == 0 {
                CastlingSide::Short
            } else {
                CastlingSide::Long
            }
        };
        let mut rights = [[false; 2]; 2];
        let mut stage = [Stage::Dead; 2];
        for (i, c) in [Color::White, Color::Black].into_iter().enumerate() {
            for (side, r) in rights[i].iter_mut().enumerate() {
                *r = v.partner_home(side).is_some() && has(c, side_of(side));
            }
            if let Some((_, ks, _, rs, side)) = v.two_stage() {
                let rank = if i == 0 { 0 } else { ranks - 1 };
                let staged = |f: i8| {
                    s.castling_stages
                        .iter()
                        .any(|&(col, q)| col == c && q.file() as i8 == f && q.rank() as i8 == rank)
                };
                stage[i] = if !has(c, side_of(side)) {
                    Stage::Dead
                } else if staged(ks) {
                    Stage::KingStaged
                } else if staged(rs) {
                    Stage::RookStaged
                } else {
                    Stage::Fresh
                };
            }
        }
        let mut r = Ref {
            v,
            files,
            ranks,
            board,
            white_to_move: s.turn == Color::White,
            ep: s.ep_square.map(|q| (q.file() as i8, q.rank() as i8)),
            rights,
            stage,
            king_right: [false; 2],
            waiting: s
                .waiting
                .iter()
                .map(|w| Wait {
                    sq: (w.square.file() as i8, w.square.rank() as i8),
                    white: w.color == Color::White,
                    turns: w.turns,
                })
                .collect(),
        };
        if matches!(v, V::Chaturanga | V::KingsLeap) {
            r.king_right = match s.king_rights {
                Some(k) => k,
                None => {
                    let start = Ref::start(v);
                    [true, false].map(|white| {
                        let k = start.king_square(white);
                        r.at(k) == Some(Pc { white, kind: 'K' })
                    })
                }
            };
        }
        r
    }

    /// This position as an xpgn [`Setup`] (to make xpgn positions from
    /// positions the reference builds).
    pub fn to_setup(&self, variant: &Variant) -> Setup {
        let colour = |white: bool| if white { Color::White } else { Color::Black };
        let square = |s: Sq| Square::new(s.0 as u8, s.1 as u8);
        let mut board = Vec::new();
        for s in self.squares() {
            if let Some(p) = self.at(s) {
                let kind = variant
                    .kind_by_letter(p.kind)
                    .expect("a letter of the variant");
                board.push((
                    square(s),
                    Piece {
                        color: colour(p.white),
                        kind,
                    },
                ));
            }
        }
        let mut castling = Vec::new();
        let mut castling_stages = Vec::new();
        for (i, white) in [true, false].into_iter().enumerate() {
            for (side, cs) in [CastlingSide::Short, CastlingSide::Long]
                .into_iter()
                .enumerate()
            {
                let two = self.v.two_stage().is_some_and(|t| t.4 == side);
                if self.rights[i][side] || (two && self.stage[i] != Stage::Dead) {
                    castling.push((colour(white), cs));
                }
            }
            if let Some((_, ks, _, rs, _)) = self.v.two_stage() {
                let home = self.home_rank(white);
                match self.stage[i] {
                    Stage::KingStaged => castling_stages.push((colour(white), square((ks, home)))),
                    Stage::RookStaged => castling_stages.push((colour(white), square((rs, home)))),
                    _ => {}
                }
            }
        }
        Setup {
            board,
            turn: colour(self.white_to_move),
            castling,
            castling_rooks: Vec::new(),
            castling_stages,
            ep_square: self.ep.map(square),
            halfmove_clock: 0,
            fullmove_number: 1,
            king_rights: matches!(self.v, V::Chaturanga | V::KingsLeap).then_some(self.king_right),
            waiting: self
                .waiting
                .iter()
                .map(|w| WaitingPawn {
                    square: square(w.sq),
                    color: colour(w.white),
                    turns: w.turns,
                })
                .collect(),
            hand: None,
            promoted: Vec::new(),
            checks_given: None,
        }
    }

    /// The same position with the waiting pawns listed White's first, each
    /// side's in order of arrival: xpgn's `Setup` order. Only the order
    /// within a side matters to the rules (R-CS-6).
    pub fn canonical(&self) -> Ref {
        let mut r = self.clone();
        r.waiting.sort_by_key(|w| !w.white);
        r
    }

    pub fn on_board(&self, s: Sq) -> bool {
        s.0 >= 0 && s.1 >= 0 && s.0 < self.files && s.1 < self.ranks
    }

    pub fn at(&self, s: Sq) -> Option<Pc> {
        if self.on_board(s) {
            self.board[s.0 as usize][s.1 as usize]
        } else {
            None
        }
    }

    pub fn set(&mut self, s: Sq, p: Option<Pc>) {
        self.board[s.0 as usize][s.1 as usize] = p;
    }

    fn squares(&self) -> impl Iterator<Item = Sq> + use<> {
        let (files, ranks) = (self.files, self.ranks);
        (0..ranks).flat_map(move |r| (0..files).map(move |f| (f, r)))
    }

    pub fn is_waiting(&self, s: Sq) -> bool {
        self.waiting.iter().any(|w| w.sq == s)
    }

    pub fn king_square(&self, white: bool) -> Sq {
        self.squares()
            .find(|&s| self.at(s) == Some(Pc { white, kind: 'K' }))
            .expect("a king")
    }

    pub fn home_rank(&self, white: bool) -> i8 {
        if white { 0 } else { self.ranks - 1 }
    }

    /// Every square strictly between `a` and `b` (on a line) is empty.
    fn clear_between(&self, a: Sq, b: Sq) -> bool {
        let (df, dr) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
        let mut s = (a.0 + df, a.1 + dr);
        while s != b {
            if self.at(s).is_some() {
                return false;
            }
            s = (s.0 + df, s.1 + dr);
        }
        true
    }

    /// Whether the (non-pawn) piece on `from` can go to `to` by its
    /// movement, occupancy of `to` aside. Ordinary moves only.
    fn reaches(&self, from: Sq, to: Sq) -> bool {
        let p = self.at(from).expect("a piece");
        let (df, dr) = (to.0 - from.0, to.1 - from.1);
        let (af, ar) = (df.abs(), dr.abs());
        if af == 0 && ar == 0 {
            return false;
        }
        let step = af.max(ar) == 1;
        let knight = (af == 1 && ar == 2) || (af == 2 && ar == 1);
        let rook = || (af == 0 || ar == 0) && self.clear_between(from, to);
        let bishop = || af == ar && self.clear_between(from, to);
        match self.v.movement(p.kind) {
            Mv::King | Mv::Commoner => step,
            Mv::Queen => rook() || bishop(),
            Mv::Rook => rook(),
            Mv::Bishop => bishop(),
            Mv::Knight => knight,
            Mv::Elephant12 => af == ar && (af == 1 || (af == 2 && self.clear_between(from, to))),
            Mv::Ferz => af == 1 && ar == 1,
            Mv::Alfil => af == 2 && ar == 2,
            Mv::Jump12 => af == ar && (af == 1 || af == 2),
            Mv::Chancellor => knight || rook(),
            Mv::Councillor => knight || step,
            Mv::Pawn => panic!("pawns are handled apart"),
        }
    }

    /// Whether the piece on `from` attacks `to` (could capture there).
    fn attacks(&self, from: Sq, to: Sq) -> bool {
        if self.is_waiting(from) {
            return false; // R-CS-3: a waiting pawn attacks nothing
        }
        let p = self.at(from).expect("a piece");
        let (df, dr) = (to.0 - from.0, to.1 - from.1);
        match p.kind {
            'P' => df.abs() == 1 && dr == if p.white { 1 } else { -1 },
            'K' if self.v == V::Chaturanga && self.king_right[ci(p.white)] => {
                // R-CH-5: knight squares count as attacked while the right is unused.
                let (af, ar) = (df.abs(), dr.abs());
                (af == 1 && ar == 2) || (af == 2 && ar == 1) || self.reaches(from, to)
            }
            _ => self.reaches(from, to),
        }
    }

    /// Whether some piece of `by_white` attacks `s`.
    pub fn attacked(&self, s: Sq, by_white: bool) -> bool {
        self.squares().any(|from| {
            matches!(self.at(from), Some(p) if p.white == by_white) && self.attacks(from, s)
        })
    }

    pub fn in_check(&self, white: bool) -> bool {
        self.attacked(self.king_square(white), !white)
    }

    /// Pieces of `white` of type `kind` on the board (waiting pawns are pawns).
    fn count(&self, white: bool, kind: char) -> usize {
        self.squares()
            .filter(|&s| self.at(s) == Some(Pc { white, kind }))
            .count()
    }

    /// R-CS-5: the types `white` may promote a waiting pawn to.
    pub fn available(&self, white: bool) -> Vec<char> {
        let back = self.v.back_rank(white);
        let mut kinds: Vec<char> = back.chars().filter(|&c| c != 'K').collect();
        kinds.sort();
        kinds.dedup();
        kinds
            .into_iter()
            .filter(|&k| back.chars().filter(|&c| c == k).count() > self.count(white, k))
            .collect()
    }

    /// Pseudo-legal candidates (before the waiting-promotion choice and
    /// the legality test), each with the square of what it captures.
    fn candidates(&self) -> Vec<RMove> {
        let us = self.white_to_move;
        let mut out = Vec::new();
        let plain = |from, to, kind| RMove {
            from,
            to,
            kind,
            promo: None,
            wprom: None,
            iprom: None,
        };
        for from in self.squares() {
            let Some(p) = self.at(from) else { continue };
            if p.white != us || self.is_waiting(from) {
                continue;
            }
            for to in self.squares() {
                let target = self.at(to);
                if matches!(target, Some(t) if t.white == us) || self.is_waiting(to) {
                    continue; // own piece, or an uncapturable waiting pawn
                }
                if p.kind != 'P' {
                    if self.reaches(from, to) {
                        out.push(plain(from, to, Kind::Normal));
                    }
                    continue;
                }
                let fwd = if us { 1 } else { -1 };
                let (df, dr) = (to.0 - from.0, to.1 - from.1);
                let start_rank = if us { 1 } else { self.ranks - 2 };
                let kind = if df == 0 && dr == fwd && target.is_none() {
                    Kind::Normal
                } else if df == 0
                    && dr == 2 * fwd
                    && self.v != V::Chaturanga // R-CH-3
                    && from.1 == start_rank
                    && target.is_none()
                    && self.at((from.0, from.1 + fwd)).is_none()
                {
                    Kind::Double
                } else if df.abs() == 1 && dr == fwd && target.is_some() {
                    Kind::Normal
                } else if df.abs() == 1
                    && dr == fwd
                    && self.v != V::Chaturanga
                    && self.ep == Some(to)
                    && self.at((to.0, from.1))
                        == Some(Pc {
                            white: !us,
                            kind: 'P',
                        })
                {
                    Kind::EnPassant
                } else {
                    continue;
                };
                let last = if us { self.ranks - 1 } else { 0 };
                if to.1 != last || self.v == V::Courier {
                    out.push(plain(from, to, kind));
                } else if self.v == V::Chaturanga {
                    // R-CH-4: the setup type of that square; the king's square gives a Councelor.
                    let setup = self.v.back_rank(!us).as_bytes()[to.0 as usize] as char;
                    let promo = if setup == 'K' { 'C' } else { setup };
                    out.push(RMove {
                        promo: Some(promo),
                        ..plain(from, to, kind)
                    });
                } else {
                    for &k in self.v.promotions() {
                        out.push(RMove {
                            promo: Some(k),
                            ..plain(from, to, kind)
                        });
                    }
                }
            }
        }
        let k = self.king_square(us);
        let right = self.king_right[ci(us)];
        if self.v == V::KingsLeap && right && !self.in_check(us) {
            // R-KL-1.
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let mid = (k.0 + df, k.1 + dr);
                let to = (k.0 + 2 * df, k.1 + 2 * dr);
                if self.on_board(to)
                    && self.at(to).is_none()
                    && !matches!(self.at(mid), Some(p) if p.white != us)
                    && !self.attacked(mid, !us)
                {
                    out.push(plain(k, to, Kind::Special));
                }
            }
        }
        if self.v == V::Chaturanga && right {
            // R-CH-5.
            for (df, dr) in [
                (1, 2),
                (2, 1),
                (-1, 2),
                (-2, 1),
                (1, -2),
                (2, -1),
                (-1, -2),
                (-2, -1),
            ] {
                let to = (k.0 + df, k.1 + dr);
                if self.on_board(to) && !matches!(self.at(to), Some(p) if p.white == us) {
                    out.push(plain(k, to, Kind::Special));
                }
            }
        }
        let rank = self.home_rank(us);
        for (i, d) in self.v.castle_defs(us).iter().enumerate() {
            let ok_state = match d.need {
                Need::Right(side) => self.rights[ci(us)][side],
                Need::KingStaged => self.stage[ci(us)] == Stage::KingStaged,
                Need::RookStaged => self.stage[ci(us)] == Stage::RookStaged,
            };
            let sq = |c: char| (file(c), rank);
            if ok_state
                && self.at((d.king.0, rank))
                    == Some(Pc {
                        white: us,
                        kind: 'K',
                    })
                && self.at((d.rook.0, rank))
                    == Some(Pc {
                        white: us,
                        kind: d.partner,
                    })
                && d.empty.chars().all(|c| self.at(sq(c)).is_none())
                && d.safe.chars().all(|c| !self.attacked(sq(c), !us))
            {
                out.push(plain((d.king.0, rank), (d.king.1, rank), Kind::Castle(i)));
            }
        }
        out
    }

    /// The square of the piece `m` captures, if any.
    fn captured_square(&self, m: &RMove) -> Option<Sq> {
        match m.kind {
            Kind::EnPassant => Some((m.to.0, m.from.1)),
            Kind::Castle(_) => None,
            _ => self.at(m.to).map(|_| m.to),
        }
    }

    /// Candidates completed with the waiting-pawn suffixes (R-CS-4..6).
    fn with_promotions(&self, base: RMove) -> Vec<RMove> {
        let us = self.white_to_move;
        let mut m = base;
        // R-CS-6: capturing a non-pawn of a player with a blocked pawn
        // promotes the first blocked pawn into the captured type.
        if let Some(c) = self.captured_square(&base).and_then(|s| self.at(s))
            && c.kind != 'P'
            && c.kind != 'K'
            && let Some(w) = self
                .waiting
                .iter()
                .find(|w| w.white == c.white && w.turns == 0)
        {
            m.iprom = Some((w.sq, c.kind));
        }
        // R-CS-4/5: own pawn ending its wait; one move per available type.
        // (The mover's own move cannot change the mover's piece counts in
        // Courier-Spiel, so availability before the move is the same as after.)
        if let Some(w) = self.waiting.iter().find(|w| w.white == us && w.turns == 1) {
            let kinds = self.available(us);
            if !kinds.is_empty() {
                return kinds
                    .into_iter()
                    .map(|k| RMove {
                        wprom: Some((w.sq, k)),
                        ..m
                    })
                    .collect();
            }
        }
        vec![m]
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<RMove> {
        let us = self.white_to_move;
        let mut out = Vec::new();
        for base in self.candidates() {
            for m in self.with_promotions(base) {
                let after = self.after(&m);
                if !after.in_check(us) {
                    out.push(m);
                }
            }
        }
        out
    }

    /// Candidates (with suffixes) that are illegal only because of an
    /// instant promotion (R-CS-6 last sentence).
    pub fn instant_promotion_refusals(&self) -> usize {
        let us = self.white_to_move;
        let mut n = 0;
        for base in self.candidates() {
            for m in self.with_promotions(base) {
                if m.iprom.is_some() && self.after(&m).in_check(us) {
                    let plain = RMove { iprom: None, ..m };
                    let mut t = self.clone();
                    t.play_raw(&plain, false);
                    if !t.in_check(us) {
                        n += 1;
                    }
                }
            }
        }
        n
    }

    /// The position after `m`.
    pub fn after(&self, m: &RMove) -> Ref {
        let mut r = self.clone();
        r.play(m);
        r
    }

    /// Plays `m` (a move from `legal_moves`).
    pub fn play(&mut self, m: &RMove) {
        self.play_raw(m, true)
    }

    fn play_raw(&mut self, m: &RMove, instant: bool) {
        let us = self.white_to_move;
        let them = !us;
        let piece = self.at(m.from).expect("a piece to move");
        let is_king = piece.kind == 'K';
        let castle = matches!(m.kind, Kind::Castle(_));
        let home = self.home_rank(us);
        // Castling rights of the chess-like kind.
        if is_king {
            self.rights[ci(us)] = [false, false];
        }
        for white in [true, false] {
            for side in 0..2 {
                if let Some(f) = self.v.partner_home(side) {
                    let s = (f, self.home_rank(white));
                    if m.from == s || m.to == s {
                        self.rights[ci(white)][side] = false;
                    }
                }
            }
        }
        // Two-stage castling progress.
        if let Some((kh, ks, rh, rs, _)) = self.v.two_stage() {
            let at = |f: i8| (f, home);
            self.stage[ci(us)] = match self.stage[ci(us)] {
                Stage::Dead => Stage::Dead,
                _ if castle => Stage::Dead,
                Stage::Fresh if is_king => {
                    if m.from == at(kh) && m.to == at(ks) {
                        Stage::KingStaged
                    } else {
                        Stage::Dead
                    }
                }
                Stage::Fresh if m.from == at(rh) => {
                    if m.to == at(rs) {
                        Stage::RookStaged
                    } else {
                        Stage::Dead
                    }
                }
                Stage::KingStaged if is_king || m.from == at(rh) => Stage::Dead,
                Stage::RookStaged if is_king || m.from == at(rs) => Stage::Dead,
                s => s,
            };
            // The opponent's rook captured.
            let theirs = self.home_rank(them);
            let rook_sq = match self.stage[ci(them)] {
                Stage::RookStaged => Some((rs, theirs)),
                Stage::Dead => None,
                _ => Some((rh, theirs)),
            };
            if rook_sq == Some(m.to) {
                self.stage[ci(them)] = Stage::Dead;
            }
        }
        // Once-per-game king move.
        match self.v {
            V::Chaturanga if m.kind == Kind::Special => self.king_right[ci(us)] = false,
            V::KingsLeap if is_king => self.king_right[ci(us)] = false,
            _ => {}
        }
        self.ep = if m.kind == Kind::Double {
            Some((m.from.0, (m.from.1 + m.to.1) / 2))
        } else {
            None
        };
        // The pieces.
        self.set(m.from, None);
        match m.kind {
            Kind::Castle(i) => {
                let d = self.v.castle_defs(us)[i];
                let rook = self.at((d.rook.0, home));
                self.set((d.rook.0, home), None);
                self.set(m.to, Some(piece));
                self.set((d.rook.1, home), rook);
            }
            Kind::EnPassant => {
                self.set((m.to.0, m.from.1), None);
                self.set(m.to, Some(piece));
            }
            _ => {
                let kind = m.promo.unwrap_or(piece.kind);
                self.set(m.to, Some(Pc { white: us, kind }));
            }
        }
        if self.v == V::Courier {
            // R-CS-4: the owner's moves count down its waiting pawns.
            let mut keep = Vec::new();
            for mut w in std::mem::take(&mut self.waiting) {
                if w.white == us && w.turns == 2 {
                    w.turns = 1;
                } else if w.white == us && w.turns == 1 {
                    match m.wprom {
                        Some((s, k)) if s == w.sq => {
                            self.set(s, Some(Pc { white: us, kind: k }));
                            continue;
                        }
                        _ => w.turns = 0, // R-CS-6: nothing available, blocked
                    }
                }
                keep.push(w);
            }
            self.waiting = keep;
            // R-CS-3: arrival.
            let last = if us { self.ranks - 1 } else { 0 };
            if piece.kind == 'P' && m.to.1 == last {
                self.waiting.push(Wait {
                    sq: m.to,
                    white: us,
                    turns: 2,
                });
            }
            // R-CS-6: instant promotion of the opponent's blocked pawn.
            if let Some((s, k)) = m.iprom
                && instant
            {
                self.set(
                    s,
                    Some(Pc {
                        white: them,
                        kind: k,
                    }),
                );
                self.waiting.retain(|w| w.sq != s);
            }
        }
        self.white_to_move = them;
    }

    /// The name of castling `i` of `white` (for statistics).
    pub fn castle_name(&self, white: bool, i: usize) -> &'static str {
        self.v.castle_defs(white)[i].name
    }

    /// Perft.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.after(m).perft(depth - 1)).sum()
    }
}
