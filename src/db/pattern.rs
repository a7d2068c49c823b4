//! Position patterns for `query --piece` and `--material`: what they say,
//! how they are written, and the scan that finds the first main-line
//! position matching all of them at once.
//!
//! ```text
//! piece    = side, ":", letter, "@", ( square | "*" ) ;      white:K@j1  black:p@e4  white:R@*
//! material = side-terms, [ ";", side-terms ] ;               white:Q1,R2,P>=5;black:Q0
//! side-terms = side, ":", term, { ",", term } ;
//! term     = ( letter | "*" ), ( count | ">=", count | "<=", count ) ;
//! side     = "white" | "black" ;
//! ```
//!
//! Letters are the variant's, either case (the side comes from `white:` or
//! `black:`); `P` is the pawn. A material term bounds how many pieces of
//! that type the side has: `R2` exactly two, `P>=5` at least five, `N<=1`
//! at most one; two terms on one letter both hold (`P>=2,P<=4`). `*` stands
//! for every type of that side the other terms do not name, the king
//! excepted (there is always one): `white:R1,*0` is a bare king and rook.

use super::packed::{self, Decoder, PackedError};
use crate::notation::square::parse_square;
use crate::rules::{Color, MoveKind, PieceKind, Position, Square, Variant};

/// A pattern that cannot be read, with what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{spec}`: {expected}")]
pub struct PatternError {
    /// The pattern as given.
    pub spec: String,
    /// What is wrong and what was expected.
    pub expected: String,
}

/// "A piece of this side and type stands on this square (or anywhere)."
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    /// Owner.
    pub color: Color,
    /// Type.
    pub kind: PieceKind,
    /// Square; `None` for any square.
    pub square: Option<Square>,
}

/// How many pieces of each type each side has: inclusive bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Material {
    /// `[colour][kind] = (least, most)`.
    pub bounds: [[(u8, u8); 16]; 2],
}

impl Default for Material {
    fn default() -> Material {
        Material {
            bounds: [[(0, u8::MAX); 16]; 2],
        }
    }
}

/// Pieces on squares and material, all of which one position must show.
#[derive(Clone, Debug)]
pub struct PositionPattern {
    variant: Variant,
    pieces: Vec<PieceSpec>,
    material: Option<Material>,
    /// The Polyglot key the position must have (orthodox chess,
    /// `query --polyglot`).
    polyglot: Option<u64>,
    /// Whether testing needs the piece counts (material, or a piece on any
    /// square); otherwise they are never computed.
    counts: bool,
}

/// Pieces per colour and kind.
type Counts = [[u8; 16]; 2];

fn side(spec: &str, word: &str) -> Result<Color, PatternError> {
    match word.to_ascii_lowercase().as_str() {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        _ => Err(error(
            spec,
            format!("`{word}` is no side: expected `white:` or `black:`"),
        )),
    }
}

fn error(spec: &str, expected: String) -> PatternError {
    PatternError {
        spec: spec.to_string(),
        expected,
    }
}

/// The variant's letters, pawn included, for messages.
fn letters(variant: &Variant) -> String {
    variant
        .kinds()
        .map(|k| variant.piece_def(k).letter)
        .collect()
}

fn letter(spec: &str, variant: &Variant, text: &str) -> Result<PieceKind, PatternError> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => variant.kind_by_letter(c).ok_or_else(|| {
            error(
                spec,
                format!(
                    "`{c}` is no piece letter of {} (letters: {})",
                    variant.def().display_name,
                    letters(variant)
                ),
            )
        }),
        _ => Err(error(
            spec,
            format!(
                "`{text}` is no piece letter: expected one of {}",
                letters(variant)
            ),
        )),
    }
}

/// Reads a `--piece` pattern of `variant`.
///
/// ```
/// use xpgn::db::pattern::parse_piece;
/// use xpgn::rules::{Color, Variant};
/// let v = Variant::by_name("counsellor").unwrap();
/// let p = parse_piece(&v, "white:K@j1").unwrap();
/// assert_eq!((p.color, p.square.map(|s| s.to_string())), (Color::White, Some("j1".into())));
/// assert!(parse_piece(&v, "white:K@m1").is_err());
/// ```
///
/// # Errors
/// A side other than `white`/`black`, a letter the variant does not have,
/// a square off its board, or no `:`/`@`.
pub fn parse_piece(variant: &Variant, spec: &str) -> Result<PieceSpec, PatternError> {
    let shape = || {
        error(
            spec,
            "expected SIDE:LETTER@SQUARE, e.g. `white:K@e1`, `black:p@e4` or `white:R@*`".into(),
        )
    };
    let (who, rest) = spec.split_once(':').ok_or_else(shape)?;
    let (what, place) = rest.split_once('@').ok_or_else(shape)?;
    let color = side(spec, who.trim())?;
    let kind = letter(spec, variant, what.trim())?;
    let place = place.trim().to_ascii_lowercase();
    let square = if place == "*" {
        None
    } else {
        let size = variant.size();
        let sq = parse_square(&place)
            .filter(|&sq| size.contains(sq))
            .ok_or_else(|| {
                error(
                    spec,
                    format!(
                        "`{place}` is no square of the {}x{} board of {} (a1 to {}), nor `*`",
                        size.files,
                        size.ranks,
                        variant.def().display_name,
                        Square::new(size.files - 1, size.ranks - 1)
                    ),
                )
            })?;
        Some(sq)
    };
    Ok(PieceSpec {
        color,
        kind,
        square,
    })
}

/// Reads a `--material` signature of `variant` (see the module docs).
///
/// ```
/// use xpgn::db::pattern::parse_material;
/// use xpgn::rules::{Color, Variant};
/// let m = parse_material(&Variant::chess(), "white:Q1,P>=5;black:Q0").unwrap();
/// let queen = Variant::chess().kind_by_letter('Q').unwrap();
/// assert_eq!(m.bounds[Color::White.index()][queen.index()], (1, 1));
/// assert!(parse_material(&Variant::chess(), "white:Q=1").is_err());
/// ```
///
/// # Errors
/// A malformed signature, with what was expected.
pub fn parse_material(variant: &Variant, spec: &str) -> Result<Material, PatternError> {
    let mut m = Material::default();
    let mut seen = [false; 2];
    if spec.trim().is_empty() {
        return Err(error(
            spec,
            "expected SIDE:TERMS, e.g. `white:Q1,R2,P>=5;black:Q0`".into(),
        ));
    }
    for part in spec.split(';') {
        let (who, terms) = part.split_once(':').ok_or_else(|| {
            error(
                spec,
                format!("`{part}`: expected SIDE:TERMS, e.g. `white:Q1,R2,P>=5`"),
            )
        })?;
        let color = side(spec, who.trim())?;
        if std::mem::replace(&mut seen[color.index()], true) {
            return Err(error(
                spec,
                format!("{} is given twice: one SIDE:TERMS each", who.trim()),
            ));
        }
        let bounds = &mut m.bounds[color.index()];
        let mut named = [false; 16];
        let mut rest: Option<(u8, u8)> = None;
        for term in terms.split(',') {
            let term = term.trim();
            let at = term
                .find(|c: char| c.is_ascii_digit() || matches!(c, '<' | '>' | '='))
                .ok_or_else(|| {
                    error(
                        spec,
                        format!(
                            "`{term}`: expected a letter and a count: `R2` (exactly), `P>=5` (at least), `N<=1` (at most)"
                        ),
                    )
                })?;
            let (name, count) = term.split_at(at);
            let (op, digits) = if let Some(d) = count.strip_prefix(">=") {
                (">=", d)
            } else if let Some(d) = count.strip_prefix("<=") {
                ("<=", d)
            } else {
                ("", count)
            };
            let n: u8 = digits.parse().map_err(|_| {
                error(
                    spec,
                    format!(
                        "`{term}`: `{count}` is no count: expected a number 0-255, `>=N` or `<=N`"
                    ),
                )
            })?;
            let range = match op {
                ">=" => (n, u8::MAX),
                "<=" => (0, n),
                _ => (n, n),
            };
            if name.trim() == "*" {
                rest = Some(range);
                continue;
            }
            let kind = letter(spec, variant, name.trim())?;
            let b = &mut bounds[kind.index()];
            *b = (b.0.max(range.0), b.1.min(range.1));
            named[kind.index()] = true;
        }
        if let Some(range) = rest {
            for k in variant.kinds() {
                if !named[k.index()] && k != variant.king_kind() {
                    bounds[k.index()] = range;
                }
            }
        }
    }
    Ok(m)
}

impl Material {
    fn holds(&self, counts: &Counts) -> bool {
        self.bounds.iter().zip(counts).all(|(bounds, counts)| {
            bounds
                .iter()
                .zip(counts)
                .all(|(&(lo, hi), &n)| lo <= n && n <= hi)
        })
    }
}

fn count(pos: &Position) -> Counts {
    let mut counts = [[0u8; 16]; 2];
    for color in Color::BOTH {
        for sq in pos.occupied_by(color).iter() {
            if let Some(p) = pos.piece_at(sq) {
                counts[color.index()][p.kind.index()] += 1;
            }
        }
    }
    counts
}

impl PositionPattern {
    /// Pieces and material of `variant` that must hold in one position.
    pub fn new(
        variant: impl Into<Variant>,
        pieces: Vec<PieceSpec>,
        material: Option<Material>,
    ) -> Self {
        let variant = variant.into();
        let counts = material.is_some() || pieces.iter().any(|p| p.square.is_none());
        PositionPattern {
            variant,
            pieces,
            material,
            polyglot: None,
            counts,
        }
    }

    /// The same pattern, and the position's Polyglot key must be `key`
    /// (whole positions are replayed: castling rights, en passant and the
    /// side to move are part of the key).
    pub fn with_polyglot(mut self, key: u64) -> Self {
        self.polyglot = Some(key);
        self
    }

    /// The variant whose games it applies to.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    fn holds(&self, pos: &Position, counts: &Counts) -> bool {
        self.pieces.iter().all(|p| match p.square {
            Some(sq) => pos
                .piece_at(sq)
                .is_some_and(|q| q.color == p.color && q.kind == p.kind),
            None => counts[p.color.index()][p.kind.index()] > 0,
        }) && self.material.is_none_or(|m| m.holds(counts))
            && self
                .polyglot
                .is_none_or(|k| crate::rules::polyglot_key(pos) == Some(k))
    }

    /// Whether `pos` matches.
    pub fn matches(&self, pos: &Position) -> bool {
        let counts = if self.counts {
            count(pos)
        } else {
            [[0; 16]; 2]
        };
        self.holds(pos, &counts)
    }

    /// The first ply (0 = `start`) of the packed main line `moves` whose
    /// position matches, and the number of positions looked at.
    ///
    /// The pieces are moved on a bare board (`Board`) as the packed moves
    /// say, with no position around them: no keys, castling rights or
    /// clocks, which a pattern does not look at (2.5 times the positions a
    /// second of [`Position::play_unchecked`]). Variants with waiting
    /// pawns or play rules (drops, explosions: moves that change more
    /// than their squares), and any game with an instant promotion, are
    /// replayed in full.
    ///
    /// # Errors
    /// The packed moves do not decode or replay.
    pub fn first_match(
        &self,
        start: &Position,
        moves: &[u8],
    ) -> Result<(Option<usize>, usize), PackedError> {
        if self.variant.has_waiting_promotion()
            || self.variant.def().has_play_rules()
            || self.polyglot.is_some()
        {
            return self.first_match_replayed(start, moves);
        }
        let mut board = Board::of(start);
        if self.holds_on(&board) {
            return Ok((Some(0), 1));
        }
        let castling = &self.variant.def().castling;
        for (i, m) in Decoder::new(&self.variant, moves).enumerate() {
            let m = m?;
            if m.instant_promotion.is_some() || m.waiting_promotion.is_some() {
                return self.first_match_replayed(start, moves);
            }
            board.play(&m, castling, i + 1)?;
            if self.holds_on(&board) {
                return Ok((Some(i + 1), i + 2));
            }
        }
        Ok((None, board.plies + 1))
    }

    fn holds_on(&self, board: &Board) -> bool {
        self.pieces.iter().all(|p| match p.square {
            Some(sq) => board.squares[sq.index()] == Board::code(p.color, p.kind),
            None => board.counts[p.color.index()][p.kind.index()] > 0,
        }) && self.material.is_none_or(|m| m.holds(&board.counts))
    }

    /// [`PositionPattern::first_match`] replaying every move on a whole
    /// [`Position`].
    fn first_match_replayed(
        &self,
        start: &Position,
        moves: &[u8],
    ) -> Result<(Option<usize>, usize), PackedError> {
        let mut pos = start.clone();
        let mut counts = if self.counts {
            count(&pos)
        } else {
            [[0; 16]; 2]
        };
        if self.holds(&pos, &counts) {
            return Ok((Some(0), 1));
        }
        let mut seen = 1;
        for (i, m) in Decoder::new(&self.variant, moves).enumerate() {
            let m = m?;
            // Only captures and promotions change the material (a castling
            // whose king lands on its partner's square is counted again, to
            // be safe), so most plies keep the counts they had.
            let recount = self.counts
                && (pos.piece_at(m.to).is_some()
                    || m.kind == MoveKind::EnPassant
                    || m.promotion.is_some()
                    || m.waiting_promotion.is_some()
                    || m.instant_promotion.is_some());
            packed::play(&mut pos, &m, i + 1)?;
            if recount {
                counts = count(&pos);
            }
            seen += 1;
            if self.holds(&pos, &counts) {
                return Ok((Some(i + 1), seen));
            }
        }
        Ok((None, seen))
    }
}

/// The pieces of a position square by square (packed index) and their
/// counts: all a pattern looks at.
struct Board {
    /// 0 for an empty square, else [`Board::code`] of its piece.
    squares: [u8; 256],
    counts: Counts,
    /// Moves played.
    plies: usize,
}

impl Board {
    /// The square code of a piece: never 0.
    fn code(color: Color, kind: PieceKind) -> u8 {
        1 + (color.index() as u8) * 16 + kind.0
    }

    fn color_of(code: u8) -> Color {
        if code > 16 {
            Color::Black
        } else {
            Color::White
        }
    }

    fn of(pos: &Position) -> Board {
        let mut board = Board {
            squares: [0; 256],
            counts: [[0; 16]; 2],
            plies: 0,
        };
        for color in Color::BOTH {
            for sq in pos.occupied_by(color).iter() {
                if let Some(p) = pos.piece_at(sq) {
                    board.put(sq, Board::code(p.color, p.kind));
                }
            }
        }
        board
    }

    fn take(&mut self, sq: Square) -> u8 {
        let code = std::mem::take(&mut self.squares[sq.index()]);
        if code != 0 {
            let c = usize::from(code - 1);
            self.counts[c / 16][c % 16] -= 1;
        }
        code
    }

    fn put(&mut self, sq: Square, code: u8) {
        self.take(sq);
        let c = usize::from(code - 1);
        self.counts[c / 16][c % 16] += 1;
        self.squares[sq.index()] = code;
    }

    /// Moves the pieces as `m` (ply `ply`) says, as
    /// [`Position::play_unchecked`] does.
    ///
    /// # Errors
    /// No piece stands on the move's from-square (a damaged line).
    fn play(
        &mut self,
        m: &crate::rules::Move,
        castling: &[crate::rules::variant::CastlingDef],
        ply: usize,
    ) -> Result<(), PackedError> {
        self.plies = ply;
        if m.kind == MoveKind::Null {
            return Ok(());
        }
        let mover = self.squares[m.from.index()];
        if mover == 0 {
            return Err(PackedError::Invalid {
                ply,
                what: format!("no piece on {}", m.from),
            });
        }
        match m.kind {
            MoveKind::Castle(i) => {
                let Some(c) = castling.get(usize::from(i)) else {
                    return Err(PackedError::Invalid {
                        ply,
                        what: format!("castling {i} does not exist"),
                    });
                };
                let king = self.take(c.king_from);
                let partner = self.take(c.partner_from);
                if king != 0 && partner != 0 {
                    self.put(c.king_to, king);
                    self.put(c.partner_to, partner);
                }
            }
            MoveKind::EnPassant => {
                self.take(Square::new(m.to.file(), m.from.rank()));
                self.take(m.from);
                self.put(m.to, mover);
            }
            _ => {
                self.take(m.from);
                let placed = match m.promotion {
                    Some(kind) => Board::code(Board::color_of(mover), kind),
                    None => mover,
                };
                self.put(m.to, placed);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::position::read_position;

    fn v(name: &str) -> Variant {
        Variant::by_name(name).unwrap()
    }

    #[test]
    fn piece_specs_read_side_letter_and_square_of_the_variant() {
        let co = v("counsellor");
        let p = parse_piece(&co, "WHITE:k@j1").unwrap();
        assert_eq!(
            (p.color, p.kind, p.square),
            (Color::White, co.king_kind(), Some(Square::new(9, 0)))
        );
        let p = parse_piece(&co, "black:P@*").unwrap();
        assert_eq!(
            (p.color, p.kind, p.square),
            (Color::Black, co.pawn_kind(), None)
        );
        for (spec, says) in [
            ("red:K@e1", "`red` is no side"),
            ("white:X@e1", "`X` is no piece letter of Counsellor Chess"),
            ("white:K@m1", "no square of the 12x8 board"),
            ("white:K@e9", "a1 to l8"),
            ("white:KQ@e1", "`KQ` is no piece letter"),
            ("white K e1", "expected SIDE:LETTER@SQUARE"),
            ("white:Ke1", "expected SIDE:LETTER@SQUARE"),
        ] {
            let e = parse_piece(&co, spec).unwrap_err().to_string();
            assert!(e.contains(says) && e.contains(spec), "{spec}: {e}");
        }
    }

    #[test]
    fn material_terms_bound_counts() {
        let chess = Variant::chess();
        let k = |c| chess.kind_by_letter(c).unwrap().index();
        let m = parse_material(&chess, "white:Q1,R2,P>=5,P<=6;black:q0,*<=3").unwrap();
        let w = &m.bounds[0];
        assert_eq!((w[k('Q')], w[k('R')], w[k('P')]), ((1, 1), (2, 2), (5, 6)));
        assert_eq!(w[k('N')], (0, 255));
        let b = &m.bounds[1];
        assert_eq!((b[k('Q')], b[k('N')], b[k('P')]), ((0, 0), (0, 3), (0, 3)));
        assert_eq!(b[k('K')], (0, 255), "`*` leaves the king alone");
        for (spec, says) in [
            ("", "expected SIDE:TERMS"),
            ("white", "expected SIDE:TERMS"),
            ("white:Q", "expected a letter and a count"),
            ("white:Q=1", "`=1` is no count"),
            ("white:Q1;white:R1", "given twice"),
            (
                "white:E1",
                "`E` is no piece letter of Chess (letters: KQRBNP)",
            ),
            ("white:Q999", "no count"),
            ("green:Q1", "no side"),
        ] {
            let e = parse_material(&chess, spec).unwrap_err().to_string();
            assert!(e.contains(says), "{spec}: {e}");
        }
    }

    #[test]
    fn patterns_test_pieces_and_material_of_one_position() {
        let chess = Variant::chess();
        let pos = read_position(&chess, "4k3/8/8/8/8/8/4P3/R3K3 w Q - 0 1").unwrap();
        let pat = |pieces: &[&str], material: Option<&str>| {
            PositionPattern::new(
                &chess,
                pieces
                    .iter()
                    .map(|s| parse_piece(&chess, s).unwrap())
                    .collect(),
                material.map(|m| parse_material(&chess, m).unwrap()),
            )
        };
        assert!(pat(&["white:K@e1", "white:R@*", "black:k@e8"], None).matches(&pos));
        assert!(!pat(&["white:K@e1", "black:R@*"], None).matches(&pos));
        assert!(!pat(&["black:K@e1"], None).matches(&pos));
        assert!(pat(&[], Some("white:R1,P1,*0;black:*0")).matches(&pos));
        assert!(!pat(&[], Some("white:R1,*0")).matches(&pos));
        assert!(pat(&["white:P@e2"], Some("white:P<=1")).matches(&pos));
    }

    /// The bare board finds what the whole replay finds, ply for ply, on
    /// pseudo-random games of every built-in variant (captures, castling,
    /// en passant and promotions among them), for patterns of pieces on
    /// squares, anywhere, and of material.
    #[test]
    fn the_bare_board_scan_agrees_with_the_full_replay() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for variant in Variant::builtin() {
            let kinds: Vec<PieceKind> = variant.kinds().collect();
            for _ in 0..12 {
                let start = Position::start(variant);
                let mut pos = start.clone();
                let mut moves = Vec::new();
                for _ in 0..160 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    // Captures and promotions first, half the time, so the
                    // material changes.
                    let special: Vec<_> = legal
                        .iter()
                        .filter(|m| {
                            pos.piece_at(m.to).is_some()
                                || m.promotion.is_some()
                                || m.is_castle()
                                || m.kind == MoveKind::EnPassant
                        })
                        .copied()
                        .collect();
                    let m = if !special.is_empty() && next(2) == 0 {
                        special[next(special.len())]
                    } else {
                        legal[next(legal.len())]
                    };
                    pos.play_unchecked(&m);
                    moves.push(m);
                }
                let packed_line = packed::encode_all(&moves);
                for _ in 0..6 {
                    let color = if next(2) == 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let kind = kinds[next(kinds.len())];
                    let size = variant.size();
                    let square = Square::new(
                        next(usize::from(size.files)) as u8,
                        next(usize::from(size.ranks)) as u8,
                    );
                    let mut material = Material::default();
                    material.bounds[color.index()][kind.index()] = (0, next(3) as u8);
                    let patterns = [
                        PositionPattern::new(
                            variant,
                            vec![PieceSpec {
                                color,
                                kind,
                                square: Some(square),
                            }],
                            None,
                        ),
                        PositionPattern::new(
                            variant,
                            vec![PieceSpec {
                                color,
                                kind,
                                square: None,
                            }],
                            Some(material),
                        ),
                        PositionPattern::new(variant, Vec::new(), Some(material)),
                    ];
                    for pattern in &patterns {
                        assert_eq!(
                            pattern.first_match(&start, &packed_line).unwrap(),
                            pattern.first_match_replayed(&start, &packed_line).unwrap(),
                            "{} {pattern:?}",
                            variant.name()
                        );
                    }
                }
            }
        }
    }
}
