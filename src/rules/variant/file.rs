//! Variant definition files (`docs/variants.md`): TOML read into a
//! [`VariantDef`], and the [`Registry`] of the variants a program knows.
//!
//! A definition is checked whole before any game is read: every fault is
//! a [`DefinitionError`] naming the file, the line, the field and why.

use serde::Deserialize;
use toml::Spanned;

use super::{
    BareKing, CastlingDef, CastlingSafety, CastlingSide, FreeCastling, PawnRules, PieceDef,
    PromotionRule, Role, SpecialKingMove, StalemateOutcome, Variant, VariantDef, VariantDefError,
    normalize_name,
};
use crate::rules::geometry::{BoardSize, MAX_SIDE, Square};
use crate::rules::movement::{Atom, Movement};
use crate::rules::piece::{Color, Piece, PieceKind};

/// A fault in a variant definition file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {field}: {reason}")]
pub struct DefinitionError {
    /// The file as given.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// The field (`piece.betza`, `[capablanca] customPiece1`).
    pub field: String,
    /// Why it cannot be used.
    pub reason: String,
}

/// Where a fault is, while a file is read.
pub(super) struct Source<'a> {
    pub file: &'a str,
    pub text: &'a str,
}

impl Source<'_> {
    pub fn line_of(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())]
            .bytes()
            .filter(|&b| b == b'\n')
            .count()
            + 1
    }
    pub fn err(&self, offset: usize, field: &str, reason: impl Into<String>) -> DefinitionError {
        DefinitionError {
            file: self.file.to_string(),
            line: self.line_of(offset),
            field: field.to_string(),
            reason: reason.into(),
        }
    }
}

/// The largest definition file read, in bytes: Fairy-Stockfish's own
/// `variants.ini`, 143 variants, is a quarter of it; a bigger file is
/// refused before it is read (every loaded definition's text is kept for
/// the program's life).
pub const MAX_DEFINITION_BYTES: usize = 256 * 1024;

/// Refuses a file of `len` bytes over [`MAX_DEFINITION_BYTES`].
pub(super) fn check_size(file: &str, len: u64) -> Result<(), DefinitionError> {
    if len > MAX_DEFINITION_BYTES as u64 {
        return Err(DefinitionError {
            file: file.to_string(),
            line: 0,
            field: "file".into(),
            reason: format!(
                "the file is larger than {MAX_DEFINITION_BYTES} bytes, the most a definition file may have"
            ),
        });
    }
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct FileDef {
    name: Spanned<String>,
    display_name: Option<String>,
    #[serde(default)]
    aliases: Vec<String>,
    board: Spanned<String>,
    setup: Spanned<String>,
    #[serde(default)]
    piece: Vec<PieceEntry>,
    pawns: Option<Spanned<PawnEntry>>,
    #[serde(default)]
    castling: Vec<Spanned<CastlingEntry>>,
    free_castling: Option<Spanned<FreeCastlingEntry>>,
    king_move: Option<Spanned<KingMoveEntry>>,
    stalemate: Option<Spanned<String>>,
    bare_king: Option<Spanned<String>>,
    hand: Option<Spanned<super::file_play::HandEntry>>,
    #[serde(default)]
    must_capture: bool,
    #[serde(default = "yes")]
    royal_king: bool,
    kingless: Option<Spanned<String>>,
    #[serde(default)]
    checks_forbidden: bool,
    check_limit: Option<Spanned<u8>>,
    extinction: Option<Spanned<super::file_play::ExtinctionEntry>>,
    flag: Option<Spanned<super::file_play::FlagEntry>>,
    explosion: Option<Spanned<super::file_play::ExplosionEntry>>,
    openings: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct PieceEntry {
    letter: Spanned<String>,
    name: String,
    #[serde(default)]
    betza: Option<Spanned<String>>,
    #[serde(default)]
    role: Option<Spanned<String>>,
    rule: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct PawnEntry {
    double_step: Option<Vec<u8>>,
    #[serde(default = "yes")]
    en_passant: bool,
    promotion: Option<Spanned<String>>,
    promotion_ranks: Option<Spanned<Vec<u8>>>,
    promotion_choices: Option<Spanned<String>>,
    #[serde(default = "yes")]
    promotion_mandatory: bool,
    promotion_limit: Option<Spanned<std::collections::BTreeMap<String, u8>>>,
    on_king_square: Option<Spanned<String>>,
    waiting_turns: Option<u8>,
    promotion_squares: Option<Spanned<Vec<String>>>,
    en_passant_ranks: Option<Spanned<Vec<u8>>>,
    rule: Option<String>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct CastlingEntry {
    side: Spanned<String>,
    color: Option<Spanned<String>>,
    king: Spanned<String>,
    partner: Spanned<String>,
    partner_origin: Option<Spanned<String>>,
    partner_piece: Option<Spanned<String>>,
    safety: Option<Spanned<String>>,
    rule: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct FreeCastlingEntry {
    king_files: Spanned<Vec<String>>,
    partner_files: Option<Spanned<Vec<String>>>,
    partner: Spanned<String>,
    #[serde(default)]
    king_takes_partner: bool,
    rule: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct KingMoveEntry {
    name: String,
    betza: Spanned<String>,
    #[serde(default)]
    lost_on_any_king_move: bool,
    #[serde(default)]
    may_capture: bool,
    #[serde(default)]
    forbidden_in_check: bool,
    #[serde(default)]
    leapt_square_guarded: bool,
    #[serde(default)]
    attacks_while_unused: bool,
    rule: Option<String>,
}

/// `AxB`: files by ranks, each 1 to 16.
pub(super) fn parse_board_size(text: &str) -> Option<BoardSize> {
    let (f, r) = text.split_once('x')?;
    let (f, r): (u8, u8) = (f.trim().parse().ok()?, r.trim().parse().ok()?);
    ((1..=MAX_SIDE).contains(&f) && (1..=MAX_SIDE).contains(&r)).then(|| BoardSize::new(f, r))
}

/// A square name (`e1`, `j10`) on `size`.
pub(super) fn parse_square(text: &str, size: BoardSize) -> Option<Square> {
    let mut chars = text.chars();
    let file = chars.next()?;
    if !file.is_ascii_lowercase() {
        return None;
    }
    let rank: u8 = chars.as_str().parse().ok()?;
    let file = file as u8 - b'a';
    // Checked before the square is made: a square exists only on a board
    // of at most 16x16 (`z99` names none).
    (file < size.files && rank >= 1 && rank <= size.ranks).then(|| Square::new(file, rank - 1))
}

/// The board field of a position string: ranks from the top, `/` between
/// them, multi-digit empty counts. Returns the pieces by letter and colour,
/// or why it does not fit.
pub(super) fn parse_setup_board(
    text: &str,
    size: BoardSize,
) -> Result<Vec<(Square, char, Color)>, String> {
    let board = text.split_whitespace().next().unwrap_or("");
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != size.ranks as usize {
        return Err(format!(
            "{} ranks for a board of {} ranks",
            rows.len(),
            size.ranks
        ));
    }
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = size.ranks - 1 - i as u8;
        let mut file: u32 = 0;
        let mut digits = String::new();
        let flush = |digits: &mut String, file: &mut u32| {
            if !digits.is_empty() {
                *file += digits.parse::<u32>().unwrap_or(u32::MAX / 2);
                digits.clear();
            }
        };
        for c in row.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            flush(&mut digits, &mut file);
            if !c.is_ascii_alphabetic() {
                return Err(format!("`{c}` in rank {} is not a piece letter", rank + 1));
            }
            if file >= u32::from(size.files) {
                return Err(format!(
                    "rank {} is longer than {} files",
                    rank + 1,
                    size.files
                ));
            }
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            out.push((Square::new(file as u8, rank), c.to_ascii_uppercase(), color));
            file += 1;
        }
        flush(&mut digits, &mut file);
        if file != u32::from(size.files) {
            return Err(format!(
                "rank {} has {file} files, the board {}",
                rank + 1,
                size.files
            ));
        }
    }
    Ok(out)
}

fn offset_of<T>(s: &Spanned<T>) -> usize {
    s.span().start
}

/// Reads a TOML variant definition. `file` names it in messages.
///
/// ```
/// let text = xpgn::rules::builtin_source("chess").unwrap();
/// let def = xpgn::rules::load_toml("chess.toml", text).unwrap();
/// assert_eq!(def.name, "chess");
/// ```
///
/// # Errors
/// The first fault, with file, line, field and reason; a definition that
/// [`Variant::compile`] would refuse is refused here.
pub fn load_toml(file: &str, text: &str) -> Result<VariantDef, DefinitionError> {
    let def = read_toml(file, text)?;
    check_compiles(&Source { file, text }, def, |e| toml_fault_at(text, e))
}

/// Where in a TOML definition's text the table or key stands that a
/// fault found when compiling it is about: the setup, the castling
/// tables, the piece whose letter is taken twice or whose move is off any
/// board, else the first piece table.
fn toml_fault_at(text: &str, e: &VariantDefError) -> usize {
    // Each line with its offset, white space and quotes taken out of the
    // comparison (`letter = "K"` and `letter="K"` alike).
    let lines = || {
        text.split_inclusive('\n').scan(0, |at, line| {
            let start = *at;
            *at += line.len();
            Some((start, line.replace([' ', '\t', '"', '\''], "")))
        })
    };
    let first = |wanted: &dyn Fn(&str) -> bool, nth: usize| {
        lines()
            .filter(|(_, l)| wanted(l))
            .nth(nth)
            .map(|(at, _)| at)
    };
    let found = match e {
        VariantDefError::SetupKings | VariantDefError::BadSetupSquare(_) => {
            first(&|l| l.starts_with("setup="), 0)
        }
        VariantDefError::BadCastling(_) | VariantDefError::TooManyCastlings => first(
            &|l| l.starts_with("[[castling]]") || l.starts_with("[free-castling]"),
            0,
        ),
        VariantDefError::DuplicateLetter(c) => {
            let key = format!("letter={}", c.to_ascii_uppercase());
            first(
                &|l| {
                    l.to_ascii_uppercase()
                        .starts_with(&key.to_ascii_uppercase())
                },
                1,
            )
        }
        VariantDefError::BadOffset(name) => {
            let key = format!("name={}", name.replace([' ', '\t', '"', '\''], ""));
            first(&|l| l.starts_with(&key), 0)
        }
        VariantDefError::PieceCount(_) | VariantDefError::Roles => None,
    };
    found
        .or_else(|| first(&|l| l.starts_with("[[piece]]"), 0))
        .unwrap_or(0)
}

/// [`load_toml`] without compiling the definition to see that it
/// compiles: for a caller that compiles it next anyway (the built-ins,
/// which would otherwise be compiled twice at start-up).
pub(crate) fn read_toml(file: &str, text: &str) -> Result<VariantDef, DefinitionError> {
    check_size(file, text.len() as u64)?;
    let src = Source { file, text };
    let raw: FileDef = toml::from_str(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        let message = e.message().to_string();
        let field = message
            .split('`')
            .nth(1)
            .filter(|_| message.starts_with("unknown field"))
            .unwrap_or("toml")
            .to_string();
        src.err(offset, &field, message)
    })?;
    build(&src, raw)
}

/// Compiles `def` once to refuse what the tables refuse: `def`, or the
/// fault at the place of the text `at` finds for it.
pub(super) fn check_compiles(
    src: &Source<'_>,
    def: VariantDef,
    at: impl Fn(&VariantDefError) -> usize,
) -> Result<VariantDef, DefinitionError> {
    match super::Tables::build(def.clone()) {
        Ok(_) => Ok(def),
        Err(e) => {
            let field = match e {
                VariantDefError::BadCastling(_) | VariantDefError::TooManyCastlings => "castling",
                VariantDefError::SetupKings | VariantDefError::BadSetupSquare(_) => "setup",
                _ => "piece",
            };
            Err(src.err(at(&e), field, e.to_string()))
        }
    }
}

/// The definition `raw` describes, its sections read one after another
/// (the first fault found is the one reported).
fn build(src: &Source<'_>, raw: FileDef) -> Result<VariantDef, DefinitionError> {
    let name = raw.name.get_ref().trim();
    if name.is_empty() || normalize_name(name).is_empty() {
        return Err(src.err(offset_of(&raw.name), "name", "the name is empty"));
    }
    let size = read_board(src, &raw.board)?;
    let pieces = read_pieces(src, &raw.piece)?;
    let kinds = Kinds::of(&pieces, raw.royal_king);
    let kingless = read_kingless(src, raw.kingless.as_ref())?;
    let setup = read_setup(src, &raw.setup, size, kinds, kingless)?;
    let pawns = match &raw.pawns {
        None => default_pawns(kinds),
        Some(sp) => read_pawns(src, sp, size, kinds)?,
    };
    let mut castling = Vec::new();
    for sc in &raw.castling {
        read_castling(src, sc, size, (&setup, kingless), kinds, &mut castling)?;
    }
    let free_castling = match &raw.free_castling {
        None => None,
        Some(sf) => Some(read_free_castling(src, sf, size, kinds)?),
    };
    let special_king_move = match &raw.king_move {
        None => None,
        Some(sk) => Some(read_king_move(src, sk)?),
    };
    let (stalemate, bare_king) = read_outcomes(src, &raw)?;
    let play = super::file_play::read_play_rules(src, &raw_play(&raw), size, kinds)?;
    Ok(VariantDef {
        name: String::from(name),
        display_name: String::from(raw.display_name.as_deref().unwrap_or(name)),
        aliases: raw.aliases.clone(),
        size,
        pieces,
        setup,
        pawns,
        castling,
        special_king_move,
        stalemate,
        free_castling,
        bare_king,
        hand: play.hand,
        must_capture: raw.must_capture,
        royal_king: raw.royal_king,
        kingless,
        checks_forbidden: raw.checks_forbidden,
        check_limit: play.check_limit,
        extinction: play.extinction,
        flag: play.flag,
        explosion: play.explosion,
        source: Some(String::from(src.text)),
        source_format: super::SourceFormat::Toml,
        openings: read_openings(src, raw.openings.as_ref())?,
    })
}

/// `openings = "FILE"`: the opening book's path, relative to the folder of
/// the definition file (an absolute path as it is).
fn read_openings(
    src: &Source<'_>,
    path: Option<&Spanned<String>>,
) -> Result<Option<std::path::PathBuf>, DefinitionError> {
    let Some(path) = path else {
        return Ok(None);
    };
    let written = path.get_ref().trim();
    if written.is_empty() {
        return Err(src.err(
            offset_of(path),
            "openings",
            "the openings file name is empty",
        ));
    }
    let written = std::path::Path::new(written);
    if written.is_absolute() {
        return Ok(Some(written.to_path_buf()));
    }
    let folder = std::path::Path::new(src.file)
        .parent()
        .unwrap_or(std::path::Path::new(""));
    Ok(Some(folder.join(written)))
}

/// `kingless = "white" | "black" | "either"`: the side whose army has
/// no king; `either`: the side without a king in the setup, or in the
/// position string a game starts from.
fn read_kingless(
    src: &Source<'_>,
    text: Option<&Spanned<String>>,
) -> Result<[bool; 2], DefinitionError> {
    match text.map(|t| t.get_ref().as_str()) {
        None => Ok([false; 2]),
        Some("white") => Ok([true, false]),
        Some("black") => Ok([false, true]),
        Some("either") => Ok([true, true]),
        Some(other) => Err(src.err(
            text.map_or(0, offset_of),
            "kingless",
            format!("`{other}` is not white, black or either"),
        )),
    }
}

/// The play-rule tables of `raw`, borrowed for their reader.
fn raw_play(raw: &FileDef) -> super::file_play::PlayTables<'_> {
    super::file_play::PlayTables {
        setup: &raw.setup,
        hand: raw.hand.as_ref(),
        check_limit: raw.check_limit.as_ref(),
        extinction: raw.extinction.as_ref(),
        flag: raw.flag.as_ref(),
        explosion: raw.explosion.as_ref(),
    }
}

/// The board's size from `board = "FILESxRANKS"`.
fn read_board(src: &Source<'_>, board: &Spanned<String>) -> Result<BoardSize, DefinitionError> {
    parse_board_size(board.get_ref()).ok_or_else(|| {
        src.err(
            offset_of(board),
            "board",
            format!(
                "`{}` is not FILESxRANKS with each from 1 to 16 (`8x8`, `10x10`)",
                board.get_ref()
            ),
        )
    })
}

/// The piece types of the `[[piece]]` tables: 1 to 15 of them, letters
/// distinct, exactly one king and one pawn.
fn read_pieces(src: &Source<'_>, entries: &[PieceEntry]) -> Result<Vec<PieceDef>, DefinitionError> {
    if entries.is_empty() || entries.len() > 15 {
        return Err(src.err(
            0,
            "piece",
            format!(
                "a variant needs 1 to 15 piece types, this one has {}",
                entries.len()
            ),
        ));
    }
    let mut pieces: Vec<PieceDef> = Vec::new();
    for p in entries {
        let piece = read_piece(src, p, &pieces)?;
        pieces.push(piece);
    }
    for (role, word) in [(Role::King, "king"), (Role::Pawn, "pawn")] {
        let n = pieces.iter().filter(|p| p.role == role).count();
        if n != 1 {
            return Err(src.err(
                offset_of(&entries[0].letter),
                "piece.role",
                format!(
                    "a variant needs exactly one piece with role = \"{word}\", this one has {n}"
                ),
            ));
        }
    }
    Ok(pieces)
}

/// One `[[piece]]` table, its letter not among those of `before`.
fn read_piece(
    src: &Source<'_>,
    p: &PieceEntry,
    before: &[PieceDef],
) -> Result<PieceDef, DefinitionError> {
    let at = offset_of(&p.letter);
    let letter = {
        let mut cs = p.letter.get_ref().chars();
        match (cs.next(), cs.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => c,
            _ => {
                return Err(src.err(
                    at,
                    "piece.letter",
                    format!("`{}` is not one upper-case letter A-Z", p.letter.get_ref()),
                ));
            }
        }
    };
    if let Some(first) = before.iter().position(|q| q.letter == letter) {
        return Err(src.err(
            at,
            "piece.letter",
            format!(
                "the letter {letter} is used twice ({} and {})",
                before[first].name, p.name
            ),
        ));
    }
    let role = match p.role.as_ref().map(|r| r.get_ref().as_str()) {
        None | Some("other") => Role::Other,
        Some("king") => Role::King,
        Some("pawn") => Role::Pawn,
        Some(other) => {
            return Err(src.err(
                p.role.as_ref().map_or(at, offset_of),
                "piece.role",
                format!("`{other}` is not king, pawn or other"),
            ));
        }
    };
    let movement = match (&p.betza, role) {
        (None, Role::Pawn) => Movement::none(),
        (Some(b), Role::Pawn) => {
            return Err(src.err(
                offset_of(b),
                "piece.betza",
                "a pawn moves by the [pawns] table, not by Betza",
            ));
        }
        (None, _) => {
            return Err(src.err(
                at,
                "piece.betza",
                format!("{} has no betza movement", p.name),
            ));
        }
        (Some(b), _) => Movement::from_betza(b.get_ref())
            .map_err(|e| src.err(offset_of(b), "piece.betza", e.to_string()))?,
    };
    Ok(PieceDef {
        name: p.name.clone(),
        letter,
        movement,
        role,
        rule: p.rule.clone(),
    })
}

/// The piece types read, with the king's and the pawn's.
#[derive(Clone, Copy)]
pub(super) struct Kinds<'a> {
    pieces: &'a [PieceDef],
    pub king: PieceKind,
    pub pawn: PieceKind,
    /// Whether the king is royal; one that is not may be promoted to.
    royal: bool,
}

impl<'a> Kinds<'a> {
    /// The kinds of `pieces` (one king and one pawn among them).
    fn of(pieces: &'a [PieceDef], royal: bool) -> Kinds<'a> {
        Kinds {
            pieces,
            king: kind_of_role(pieces, Role::King),
            pawn: kind_of_role(pieces, Role::Pawn),
            royal,
        }
    }

    /// The kind written with `letter`, in either case.
    pub fn of_letter(self, letter: char) -> Option<PieceKind> {
        self.pieces
            .iter()
            .position(|p| p.letter == letter.to_ascii_uppercase())
            .map(|i| PieceKind(i as u8))
    }

    /// The letter `color` writes `k` with in a setup string.
    fn letter_of(self, k: PieceKind, color: Color) -> char {
        let l = self.pieces[k.index()].letter;
        match color {
            Color::White => l,
            Color::Black => l.to_ascii_lowercase(),
        }
    }

    /// Whether `k` is neither the king nor the pawn.
    fn is_officer(self, k: PieceKind) -> bool {
        k != self.king && k != self.pawn
    }

    /// Every kind but the king and the pawn.
    fn officers(self) -> Vec<PieceKind> {
        (0..self.pieces.len() as u8)
            .map(PieceKind)
            .filter(|&k| self.is_officer(k))
            .collect()
    }
}

/// The start position from `setup`, with exactly one king per side.
fn read_setup(
    src: &Source<'_>,
    text: &Spanned<String>,
    size: BoardSize,
    kinds: Kinds<'_>,
    kingless: [bool; 2],
) -> Result<Vec<(Square, Piece)>, DefinitionError> {
    let setup_at = offset_of(text);
    let (board_text, hand_text) = super::file_play::split_hand(text.get_ref());
    let board = parse_setup_board(board_text, size).map_err(|reason| {
        src.err(
            setup_at,
            "setup",
            format!(
                "does not fit the {}x{} board: {reason}",
                size.files, size.ranks
            ),
        )
    })?;
    let mut setup = Vec::new();
    for (sq, letter, color) in board {
        let kind = kinds.of_letter(letter).ok_or_else(|| {
            src.err(
                setup_at,
                "setup",
                format!("{sq} holds `{letter}`, which is no piece's letter"),
            )
        })?;
        setup.push((sq, Piece { color, kind }));
    }
    // A king may start in hand, to be dropped (a placement phase).
    let kings = Color::BOTH.map(|color| {
        let king_letter = kinds.letter_of(kinds.king, color);
        setup
            .iter()
            .filter(|(_, p)| p.color == color && p.kind == kinds.king)
            .count()
            + hand_text.map_or(0, |h| h.chars().filter(|&c| c == king_letter).count())
    });
    for color in Color::BOTH {
        let n = kings[color.index()];
        if kinds.royal && !super::kings_fit(kingless, kings, color) {
            return Err(src.err(
                setup_at,
                "setup",
                match kingless {
                    [true, true] => format!(
                        "{color:?} has {n} kings; with `kingless = \"either\"` each side has at most one, and one side has its king"
                    ),
                    _ if kingless[color.index()] => {
                        format!("{color:?} has {n} kings, and `kingless` says its army has none")
                    }
                    _ => format!(
                        "{color:?} has {n} kings; the setup needs exactly one per side (R-0-1)"
                    ),
                },
            ));
        }
    }
    Ok(setup)
}

/// The pawn rules of a file with no `[pawns]` table: those of chess.
fn default_pawns(kinds: Kinds<'_>) -> PawnRules {
    PawnRules {
        double_step_ranks: vec![1],
        double_step_ranks_black: None,
        en_passant: true,
        promotion: PromotionRule::Choice(kinds.officers()),
        promotion_ranks: Vec::new(),
        promotion_mandatory: true,
        promotion_limits: Vec::new(),
        en_passant_ranks: None,
        rule: "R-0-4".into(),
    }
}

/// The pawn rules of the `[pawns]` table.
fn read_pawns(
    src: &Source<'_>,
    sp: &Spanned<PawnEntry>,
    size: BoardSize,
    kinds: Kinds<'_>,
) -> Result<PawnRules, DefinitionError> {
    let p = sp.get_ref();
    let at = offset_of(sp);
    let rank_list = |ranks: &[u8], field: &str| -> Result<Vec<u8>, DefinitionError> {
        ranks
            .iter()
            .map(|&r| {
                (1..=size.ranks)
                    .contains(&r)
                    .then_some(r - 1)
                    .ok_or_else(|| src.err(at, field, format!("rank {r} is off the board")))
            })
            .collect()
    };
    let double_step_ranks = rank_list(
        p.double_step.as_deref().unwrap_or(&[2]),
        "pawns.double-step",
    )?;
    let promotion_ranks = match &p.promotion_ranks {
        Some(r) => rank_list(r.get_ref(), "pawns.promotion-ranks")?,
        None => Vec::new(),
    };
    let promotion = read_promotion(src, p, at, size, kinds)?;
    if !matches!(promotion, PromotionRule::Choice(_))
        && promotion_ranks.iter().any(|&r| r != size.ranks - 1)
    {
        return Err(src.err(
            p.promotion_ranks.as_ref().map_or(at, offset_of),
            "pawns.promotion-ranks",
            "setup-square and waiting promotion happen on the last rank only",
        ));
    }
    if matches!(promotion, PromotionRule::Choice(ref c) if c.is_empty()) {
        return Err(src.err(at, "pawns.promotion-choices", "no type to promote to"));
    }
    let promotion_limits = read_promotion_limits(src, p, &promotion, kinds)?;
    let en_passant_ranks = match &p.en_passant_ranks {
        Some(r) => Some(rank_list(r.get_ref(), "pawns.en-passant-ranks")?),
        None => None,
    };
    Ok(PawnRules {
        double_step_ranks,
        double_step_ranks_black: None,
        en_passant: p.en_passant,
        promotion,
        promotion_ranks,
        promotion_mandatory: p.promotion_mandatory,
        promotion_limits,
        en_passant_ranks,
        rule: String::from(p.rule.as_deref().unwrap_or("R-0-4")),
    })
}

/// The promotion rule of the `[pawns]` table at offset `at`.
fn read_promotion(
    src: &Source<'_>,
    p: &PawnEntry,
    at: usize,
    size: BoardSize,
    kinds: Kinds<'_>,
) -> Result<PromotionRule, DefinitionError> {
    let officers = |s: &Spanned<String>, field: &str| -> Result<Vec<PieceKind>, DefinitionError> {
        s.get_ref()
            .chars()
            .map(|c| match kinds.of_letter(c) {
                Some(k) if kinds.is_officer(k) || (k == kinds.king && !kinds.royal) => Ok(k),
                _ => Err(src.err(
                    offset_of(s),
                    field,
                    format!("`{c}` is not the letter of a piece a pawn may become"),
                )),
            })
            .collect()
    };
    Ok(match p.promotion.as_ref().map(|s| s.get_ref().as_str()) {
        None | Some("choice") => PromotionRule::Choice(match &p.promotion_choices {
            Some(c) => officers(c, "pawns.promotion-choices")?,
            None => kinds.officers(),
        }),
        Some("setup-square") => {
            let k = p.on_king_square.as_ref().ok_or_else(|| {
                src.err(at, "pawns.on-king-square", "promotion = \"setup-square\" needs on-king-square, the type taken on the enemy king's setup square")
            })?;
            let ks = officers(k, "pawns.on-king-square")?;
            let [on_king_square] = ks[..] else {
                return Err(src.err(offset_of(k), "pawns.on-king-square", "one letter"));
            };
            PromotionRule::SetupSquare { on_king_square }
        }
        Some("waiting") => PromotionRule::Waiting {
            turns: p.waiting_turns.unwrap_or(2),
        },
        Some("in-place") => {
            let kinds = match &p.promotion_choices {
                Some(c) => officers(c, "pawns.promotion-choices")?,
                None => kinds.officers(),
            };
            let mut white = Vec::new();
            for text in p.promotion_squares.iter().flat_map(|s| s.get_ref()) {
                let sq = parse_square(text, size).ok_or_else(|| {
                    src.err(
                        p.promotion_squares.as_ref().map_or(at, offset_of),
                        "pawns.promotion-squares",
                        format!("`{text}` is not a square on the board"),
                    )
                })?;
                white.push(sq);
            }
            let black = white.iter().map(|s| s.flip_rank(size.ranks)).collect();
            PromotionRule::InPlace {
                kinds,
                squares: [white, black],
            }
        }
        Some(other) => {
            return Err(src.err(
                p.promotion.as_ref().map_or(at, offset_of),
                "pawns.promotion",
                format!("`{other}` is not choice, setup-square, waiting or in-place"),
            ));
        }
    })
}

/// The `promotion-limit` table: per promotion choice, how many pieces of
/// that type a side may have.
fn read_promotion_limits(
    src: &Source<'_>,
    p: &PawnEntry,
    promotion: &PromotionRule,
    kinds: Kinds<'_>,
) -> Result<Vec<(PieceKind, u8)>, DefinitionError> {
    let mut promotion_limits = Vec::new();
    let Some(limits) = &p.promotion_limit else {
        return Ok(promotion_limits);
    };
    let (PromotionRule::Choice(choices) | PromotionRule::InPlace { kinds: choices, .. }) =
        promotion
    else {
        return Err(src.err(
            offset_of(limits),
            "pawns.promotion-limit",
            "limits apply to promotion = \"choice\" and \"in-place\" only",
        ));
    };
    for (letter, &n) in limits.get_ref() {
        let mut cs = letter.chars();
        match (cs.next().and_then(|c| kinds.of_letter(c)), cs.next()) {
            (Some(k), None) if choices.contains(&k) => promotion_limits.push((k, n)),
            _ => {
                return Err(src.err(
                    offset_of(limits),
                    "pawns.promotion-limit",
                    format!("`{letter}` is not the letter of a promotion choice"),
                ));
            }
        }
    }
    Ok(promotion_limits)
}

/// One `[[castling]]` table: adds to `castling` its castling for each
/// colour it names, checked against the setup.
fn read_castling(
    src: &Source<'_>,
    sc: &Spanned<CastlingEntry>,
    size: BoardSize,
    (setup, kingless): (&[(Square, Piece)], [bool; 2]),
    kinds: Kinds<'_>,
    castling: &mut Vec<CastlingDef>,
) -> Result<(), DefinitionError> {
    let c = sc.get_ref();
    let at = offset_of(sc);
    let side = match c.side.get_ref().as_str() {
        "O-O" => CastlingSide::Short,
        "O-O-O" => CastlingSide::Long,
        other => {
            return Err(src.err(
                offset_of(&c.side),
                "castling.side",
                format!("`{other}` is not O-O or O-O-O"),
            ));
        }
    };
    let (king_from, king_to) = read_square_pair(src, &c.king, "castling.king", size)?;
    let (partner_from, partner_to) = read_square_pair(src, &c.partner, "castling.partner", size)?;
    let partner_origin = match &c.partner_origin {
        Some(o) => parse_square(o.get_ref(), size).ok_or_else(|| {
            src.err(
                offset_of(o),
                "castling.partner-origin",
                "not a square on the board",
            )
        })?,
        None => partner_from,
    };
    let safety = match c.safety.as_ref().map(|s| s.get_ref().as_str()) {
        None | Some("king-path") => CastlingSafety::KingPath,
        Some("partner-to-king") => CastlingSafety::PartnerToKing,
        Some(other) => {
            return Err(src.err(
                c.safety.as_ref().map_or(at, offset_of),
                "castling.safety",
                format!("`{other}` is not king-path or partner-to-king"),
            ));
        }
    };
    let colors: Vec<Color> = match c.color.as_ref().map(|s| s.get_ref().as_str()) {
        None | Some("both") => vec![Color::White, Color::Black],
        Some("white") => vec![Color::White],
        Some("black") => vec![Color::Black],
        Some(other) => {
            return Err(src.err(
                c.color.as_ref().map_or(at, offset_of),
                "castling.color",
                format!("`{other}` is not white, black or both"),
            ));
        }
    };
    let partner_kind = match &c.partner_piece {
        None => None,
        Some(letter) => Some(
            letter
                .get_ref()
                .chars()
                .next()
                .and_then(|l| kinds.of_letter(l))
                .filter(|&k| kinds.is_officer(k))
                .ok_or_else(|| {
                    src.err(
                        offset_of(letter),
                        "castling.partner-piece",
                        "is not the letter of a piece other than the king and the pawn",
                    )
                })?,
        ),
    };
    let rule = String::from(c.rule.as_deref().unwrap_or("R-0-5"));
    for color in colors {
        // `both`: squares as White's, mirrored for Black.
        let mirror = |s: Square| {
            if color == Color::Black && c.color.as_ref().is_none_or(|s| s.get_ref() == "both") {
                s.flip_rank(size.ranks)
            } else {
                s
            }
        };
        let d = CastlingDef {
            color,
            side,
            king_from: mirror(king_from),
            king_to: mirror(king_to),
            partner_origin: mirror(partner_origin),
            partner_from: mirror(partner_from),
            partner_to: mirror(partner_to),
            safety,
            partner_kind,
            rule: rule.clone(),
        };
        // A side that may be kingless and has no king in the setup
        // castles only in games whose position string gives it an army
        // with a king (Horde with the colours reversed): nothing of the
        // setup is there to match, and `partner-piece` names the partner.
        let kingless_in_setup = kingless[color.index()]
            && !setup
                .iter()
                .any(|&(_, p)| p.color == color && p.kind == kinds.king);
        if kingless_in_setup {
            if partner_kind.is_none() {
                return Err(src.err(
                    at,
                    "castling",
                    format!(
                        "{color:?} has no king in the setup: its castling names the partner's type with `partner-piece`"
                    ),
                ));
            }
            castling.push(d);
            continue;
        }
        // Pieces that start in hand name their partner's type and stand
        // where the castling says once dropped.
        let origin_ok = setup
            .iter()
            .any(|&(s, p)| s == d.partner_origin && p.color == color && kinds.is_officer(p.kind))
            || (partner_kind.is_some() && !setup.iter().any(|&(s, _)| s == d.partner_origin));
        let king_rank = setup
            .iter()
            .find(|(_, p)| p.color == color && p.kind == kinds.king)
            .map(|(s, _)| s.rank())
            .or(partner_kind.map(|_| d.king_from.rank()));
        if !origin_ok || king_rank != Some(d.king_from.rank()) {
            return Err(src.err(
                at,
                "castling",
                format!(
                    "{color:?}'s castling with king {}-{} and partner from {} does not match the setup (the partner's origin must hold one of its pieces, the king must start on that rank)",
                    d.king_from, d.king_to, d.partner_origin
                ),
            ));
        }
        castling.push(d);
    }
    Ok(())
}

/// Two squares of the board written `FROM-TO`.
fn read_square_pair(
    src: &Source<'_>,
    s: &Spanned<String>,
    field: &str,
    size: BoardSize,
) -> Result<(Square, Square), DefinitionError> {
    s.get_ref()
        .split_once('-')
        .and_then(|(a, b)| Some((parse_square(a, size)?, parse_square(b, size)?)))
        .ok_or_else(|| {
            src.err(
                offset_of(s),
                field,
                format!(
                    "`{}` is not FROM-TO squares on the board (`e1-g1`)",
                    s.get_ref()
                ),
            )
        })
}

/// The `[free-castling]` table.
fn read_free_castling(
    src: &Source<'_>,
    sf: &Spanned<FreeCastlingEntry>,
    size: BoardSize,
    kinds: Kinds<'_>,
) -> Result<FreeCastling, DefinitionError> {
    let f = sf.get_ref();
    let files = |v: &Spanned<Vec<String>>, field: &str| -> Result<[u8; 2], DefinitionError> {
        let bad = || {
            src.err(
                offset_of(v),
                field,
                "two file letters on the board, for O-O and O-O-O (`[\"g\", \"c\"]`)",
            )
        };
        let parsed: Vec<u8> = v
            .get_ref()
            .iter()
            .map(|s| match s.as_bytes() {
                [c] if c.is_ascii_lowercase() && c - b'a' < size.files => Ok(c - b'a'),
                _ => Err(bad()),
            })
            .collect::<Result<_, _>>()?;
        <[u8; 2]>::try_from(parsed).map_err(|_| bad())
    };
    let king_files = files(&f.king_files, "free-castling.king-files")?;
    let partner_files = match &f.partner_files {
        Some(p) => files(p, "free-castling.partner-files")?,
        None => [king_files[0].saturating_sub(1), king_files[1] + 1],
    };
    let partner = {
        let mut cs = f.partner.get_ref().chars();
        match (cs.next().and_then(|c| kinds.of_letter(c)), cs.next()) {
            (Some(k), None) if kinds.is_officer(k) => k,
            _ => {
                return Err(src.err(
                    offset_of(&f.partner),
                    "free-castling.partner",
                    format!("`{}` is not the letter of a piece", f.partner.get_ref()),
                ));
            }
        }
    };
    if size.files > 11 {
        return Err(src.err(
            offset_of(sf),
            "free-castling",
            "castling toward either rook needs a board of at most 11 files",
        ));
    }
    Ok(FreeCastling {
        king_files,
        partner_files,
        partner,
        king_takes_partner: f.king_takes_partner,
        colors: [true, true],
        rule: String::from(f.rule.as_deref().unwrap_or("R-0-5")),
    })
}

/// The `[king-move]` table: the king's special leap.
fn read_king_move(
    src: &Source<'_>,
    sk: &Spanned<KingMoveEntry>,
) -> Result<SpecialKingMove, DefinitionError> {
    let k = sk.get_ref();
    let m = Movement::from_betza(k.betza.get_ref())
        .map_err(|e| src.err(offset_of(&k.betza), "king-move.betza", e.to_string()))?;
    let mut offsets = Vec::new();
    for atom in m.0 {
        match atom {
            Atom::Leap { offsets: o, .. } => offsets.extend(o),
            Atom::Ride { .. } => {
                return Err(src.err(
                    offset_of(&k.betza),
                    "king-move.betza",
                    "the king's special move is a leap, not a ride",
                ));
            }
        }
    }
    Ok(SpecialKingMove {
        name: k.name.clone(),
        offsets,
        lost_on_any_king_move: k.lost_on_any_king_move,
        may_capture: k.may_capture,
        forbidden_in_check: k.forbidden_in_check,
        leapt_square_guarded: k.leapt_square_guarded,
        attacks_while_unused: k.attacks_while_unused,
        rule: String::from(k.rule.as_deref().unwrap_or("R-0-1")),
    })
}

/// The outcomes of `stalemate` and `bare-king`.
fn read_outcomes(
    src: &Source<'_>,
    raw: &FileDef,
) -> Result<(StalemateOutcome, BareKing), DefinitionError> {
    let stalemate = match raw.stalemate.as_ref().map(|s| s.get_ref().as_str()) {
        None | Some("draw") => StalemateOutcome::Draw,
        Some("stalemated-loses") => StalemateOutcome::StalematedLoses,
        Some("stalemated-wins") => StalemateOutcome::StalematedWins,
        Some(other) => {
            return Err(src.err(
                raw.stalemate.as_ref().map_or(0, offset_of),
                "stalemate",
                format!("`{other}` is not draw, stalemated-loses or stalemated-wins"),
            ));
        }
    };
    let bare_king = match raw.bare_king.as_ref().map(|s| s.get_ref().as_str()) {
        None | Some("plays") => BareKing::Plays,
        Some("loses") => BareKing::Loses,
        Some(other) => {
            return Err(src.err(
                raw.bare_king.as_ref().map_or(0, offset_of),
                "bare-king",
                format!("`{other}` is not plays or loses"),
            ));
        }
    };
    Ok((stalemate, bare_king))
}

fn kind_of_role(pieces: &[PieceDef], role: Role) -> PieceKind {
    PieceKind(pieces.iter().position(|p| p.role == role).unwrap_or(0) as u8)
}

/// The variants a program knows: the built-ins and those loaded from
/// definition files. Names are looked up as [`Variant::by_name`] does
/// (docs/notation.md §3); a loaded variant may not reuse a known name.
///
/// ```
/// use xpgn::rules::Registry;
/// let mut reg = Registry::builtin();
/// let text = "name = \"mini\"\nboard = \"4x4\"\nsetup = \"k3/p3/3P/3K\"\n\
///     [[piece]]\nletter = \"K\"\nname = \"King\"\nbetza = \"K\"\nrole = \"king\"\n\
///     [[piece]]\nletter = \"P\"\nname = \"Pawn\"\nrole = \"pawn\"\n\
///     [[piece]]\nletter = \"Q\"\nname = \"Queen\"\nbetza = \"Q\"\n";
/// reg.load("mini.toml", text).unwrap();
/// assert_eq!(reg.lookup("Mini").unwrap().size().files, 4);
/// assert!(reg.lookup("chess").is_some());
/// ```
#[derive(Clone, Debug)]
pub struct Registry {
    entries: Vec<Entry>,
    /// The variant of games without a `Variant` tag; `None`: orthodox chess.
    untagged: Option<Variant>,
}

/// A variant of a registry: a built-in, compiled when first found, or a
/// loaded one.
#[derive(Clone, Debug)]
enum Entry {
    Builtin(usize),
    Loaded(Variant),
}

impl Entry {
    fn variant(&self) -> Variant {
        match self {
            Entry::Builtin(i) => Variant::builtin_at(*i),
            Entry::Loaded(v) => v.clone(),
        }
    }

    /// Whether `key` (a [`normalize_name`] key) names it; a built-in is
    /// not compiled to answer.
    fn answers_to(&self, key: &str) -> bool {
        match self {
            Entry::Builtin(i) => super::builtin::builtin_keys(*i).iter().any(|k| k == key),
            Entry::Loaded(v) => v.answers_to(key),
        }
    }
}

/// What [`Registry::load`] added, and what it refused without stopping.
#[derive(Debug, Default)]
pub struct RegistryLoad {
    /// The short names of the variants added.
    pub names: Vec<String>,
    /// The `variants.ini` sections refused, each naming file, line,
    /// section, option and reason.
    pub refused: Vec<DefinitionError>,
}

impl Default for Registry {
    /// The built-in variants only.
    fn default() -> Registry {
        Registry::builtin()
    }
}

impl Registry {
    /// The built-in variants only.
    pub fn builtin() -> Registry {
        Registry {
            entries: (0..super::BUILTIN_NAMES.len())
                .map(Entry::Builtin)
                .collect(),
            untagged: None,
        }
    }

    /// This registry, reading games without a `Variant` tag as games of
    /// `variant` (FICS archives leave crazyhouse games untagged).
    pub fn with_untagged_variant(mut self, variant: Variant) -> Registry {
        self.untagged = Some(variant);
        self
    }

    /// The variant of games without a `Variant` tag: orthodox chess,
    /// unless [`Registry::with_untagged_variant`] says otherwise.
    pub fn untagged_variant(&self) -> Variant {
        self.untagged.clone().unwrap_or_else(Variant::chess)
    }

    /// Every variant, built-ins first, then in loading order (each
    /// compiled).
    pub fn variants(&self) -> Vec<Variant> {
        self.entries.iter().map(|e| e.variant()).collect()
    }

    /// The short names of every variant, in the order of
    /// [`Registry::variants`], without compiling any.
    pub fn names(&self) -> Vec<&str> {
        self.entries
            .iter()
            .map(|e| match e {
                Entry::Builtin(i) => super::BUILTIN_NAMES[*i],
                Entry::Loaded(v) => v.name(),
            })
            .collect()
    }

    /// The known names for a message about an unknown one: all of them
    /// when they are few, else the first ones and how many more
    /// (`xpgn variants` lists them all).
    pub fn known_names(&self) -> String {
        const SHOWN: usize = 9;
        let names = self.names();
        if names.len() <= SHOWN + 3 {
            return names.join(", ");
        }
        format!(
            "{}, and {} more (`xpgn variants` lists them)",
            names[..SHOWN].join(", "),
            names.len() - SHOWN
        )
    }

    /// Finds a variant by short name, display name or alias, case-blind,
    /// ignoring spaces, `-`, `_` and `'`.
    pub fn lookup(&self, name: &str) -> Option<Variant> {
        let key = normalize_name(name);
        self.entries
            .iter()
            .find(|e| e.answers_to(&key))
            .map(|e| e.variant())
    }

    /// Adds a compiled variant.
    ///
    /// # Errors
    /// Its name, display name or an alias is already known.
    pub fn add(&mut self, variant: Variant) -> Result<(), String> {
        let def = variant.def();
        for name in std::iter::once(&def.name)
            .chain(std::iter::once(&def.display_name))
            .chain(def.aliases.iter())
        {
            if let Some(known) = self.lookup(name) {
                return Err(format!(
                    "the name `{name}` is already taken by the variant `{}`",
                    known.name()
                ));
            }
        }
        self.entries.push(Entry::Loaded(variant));
        Ok(())
    }

    /// Reads a definition file's text (`.ini`: Fairy-Stockfish's
    /// `variants.ini`, every section it holds; otherwise TOML) and adds what
    /// it defines. Returns the names added and, for a `.ini` file, the
    /// sections refused (one refused section does not stop the others).
    ///
    /// # Errors
    /// A TOML definition's first fault, or what makes a `.ini` file
    /// unreadable as a whole, naming file, line, field and reason.
    pub fn load(&mut self, file: &str, text: &str) -> Result<RegistryLoad, DefinitionError> {
        let mut loaded = RegistryLoad::default();
        let defs = if file.to_ascii_lowercase().ends_with(".ini") {
            let read = super::ini::read_ini(file, text)?;
            loaded.refused = read.refused;
            read.variants
        } else {
            vec![load_toml(file, text)?]
        };
        for def in defs {
            let name = def.name.clone();
            let added = Variant::compile(def)
                .map_err(|e| e.to_string())
                .and_then(|variant| self.add(variant));
            match added {
                Ok(()) => loaded.names.push(name),
                Err(reason) => {
                    let e = DefinitionError {
                        file: file.to_string(),
                        line: line_of_name(text, &name),
                        field: "name".into(),
                        reason,
                    };
                    if !file.to_ascii_lowercase().ends_with(".ini") {
                        return Err(e);
                    }
                    loaded.refused.push(e);
                }
            }
        }
        Ok(loaded)
    }

    /// Reads and loads a file from disk, or every `.toml` and `.ini` file
    /// of a folder (sorted by name).
    ///
    /// # Errors
    /// An unreadable file (line 0, field `file`) or a fault in one.
    pub fn load_path(&mut self, path: &std::path::Path) -> Result<RegistryLoad, DefinitionError> {
        let io = |e: std::io::Error| DefinitionError {
            file: path.display().to_string(),
            line: 0,
            field: "file".into(),
            reason: e.to_string(),
        };
        if path.is_dir() {
            let mut files: Vec<_> = std::fs::read_dir(path)
                .map_err(io)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension().is_some_and(|e| {
                        e.eq_ignore_ascii_case("toml") || e.eq_ignore_ascii_case("ini")
                    })
                })
                .collect();
            files.sort();
            let mut loaded = RegistryLoad::default();
            for f in files {
                let one = self.load_path(&f)?;
                loaded.names.extend(one.names);
                loaded.refused.extend(one.refused);
            }
            return Ok(loaded);
        }
        // Read no further than the limit: the path may be a device or a
        // pipe that never ends.
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(
                std::fs::File::open(path).map_err(io)?,
                MAX_DEFINITION_BYTES as u64 + 1,
            ),
            &mut bytes,
        )
        .map_err(io)?;
        check_size(&path.display().to_string(), bytes.len() as u64)?;
        let text = String::from_utf8(bytes)
            .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?;
        self.load(&path.display().to_string(), &text)
    }
}

fn line_of_name(text: &str, name: &str) -> usize {
    // A `variants.ini` section's header, before a line naming it otherwise
    // (`[gemini:janus]` names `janus` as its parent).
    let header = |l: &str| {
        l.trim()
            .strip_prefix('[')
            .and_then(|h| h.split([':', ']']).next())
            .is_some_and(|n| n.trim() == name)
    };
    text.lines()
        .position(header)
        .or_else(|| text.lines().position(|l| l.contains(name)))
        .map_or(1, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "name = \"t\"\nboard = \"4x4\"\nsetup = \"k3/4/4/K3\"\n\
        [[piece]]\nletter = \"K\"\nname = \"King\"\nbetza = \"K\"\nrole = \"king\"\n\
        [[piece]]\nletter=\"k\"\nname = \"Long Leaper\"\nbetza = \"K\"\n\
        [[castling]]\nking = \"a1-c1\"\n";

    fn line(e: VariantDefError) -> usize {
        Source {
            file: "t.toml",
            text: TEXT,
        }
        .line_of(toml_fault_at(TEXT, &e))
    }

    #[test]
    fn a_fault_found_compiling_names_the_line_it_is_about() {
        assert_eq!(line(VariantDefError::SetupKings), 3);
        assert_eq!(line(VariantDefError::BadCastling("R-0-5".into())), 13);
        assert_eq!(line(VariantDefError::TooManyCastlings), 13);
        // The second piece written with the letter, in either case.
        assert_eq!(line(VariantDefError::DuplicateLetter('K')), 10);
        assert_eq!(line(VariantDefError::BadOffset("Long Leaper".into())), 11);
        // Faults of the piece table as a whole: its first table.
        assert_eq!(line(VariantDefError::Roles), 4);
        assert_eq!(line(VariantDefError::PieceCount(0)), 4);
    }
}
