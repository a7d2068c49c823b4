//! Fairy-Stockfish's `variants.ini` format: the sections whose rules xpgn
//! can play, read into [`VariantDef`]s (`docs/variants.md`, "Fairy-Stockfish
//! variants.ini").
//!
//! The file is read as Fairy-Stockfish reads it: a key given twice keeps
//! its last value; a section starts from Fairy-Stockfish's default template
//! (orthodox rules without pieces), from its built-in `chess`, or from a
//! copy of a section earlier in the same file (`[name:parent]`); piece
//! types get their letters first, in Fairy-Stockfish's order of types, a
//! letter given to a type taking it from the type that had it; sets of
//! types (`promotionPieceTypes`) are read with the section's letters and
//! keep naming the same types when a later section re-letters them.
//! Every option is either read into the definition, accepted because it
//! cannot change which moves are legal nor how mate and stalemate end a
//! game (R-0-3: draws and adjudication by rule are recorded, not applied),
//! or makes the section refused with the file, the line and the option: a
//! rule xpgn cannot play is never approximated. One refused section does
//! not stop the others.

use std::sync::OnceLock;

use super::file::{DefinitionError, Source, check_compiles, check_size, parse_setup_board};
use super::{
    BareKing, CastlingDef, CastlingSafety, CastlingSide, Extinction, FreeCastling, PawnRules,
    PieceDef, PromotionRule, Role, SourceFormat, StalemateOutcome, VariantDef, normalize_name,
};
use crate::rules::geometry::{BoardSize, MAX_SIDE, Square};
use crate::rules::movement::Movement;
use crate::rules::piece::{Color, Piece, PieceKind};

/// How a Fairy-Stockfish predefined piece type moves to xpgn.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Predefined {
    /// The pawn, which moves by the pawn rules.
    Pawn,
    /// Its movement in xpgn's Betza (`""`: it never moves).
    Betza(&'static str),
    /// It hops or is lame, which xpgn cannot play.
    Unplayable,
}

/// Fairy-Stockfish's predefined piece types, in the order its reader gives
/// them their letters (its order of types), with how each moves.
const PIECES: &[(&str, Predefined)] = &[
    ("pawn", Predefined::Pawn),
    ("knight", Predefined::Betza("N")),
    ("bishop", Predefined::Betza("B")),
    ("rook", Predefined::Betza("R")),
    ("queen", Predefined::Betza("Q")),
    ("fers", Predefined::Betza("F")),
    ("alfil", Predefined::Betza("A")),
    ("fersAlfil", Predefined::Betza("FA")),
    ("silver", Predefined::Betza("FfW")),
    ("aiwok", Predefined::Betza("RNF")),
    ("bers", Predefined::Betza("RF")),
    ("archbishop", Predefined::Betza("BN")),
    ("chancellor", Predefined::Betza("RN")),
    ("amazon", Predefined::Betza("QN")),
    ("knibis", Predefined::Betza("mNcB")),
    ("biskni", Predefined::Betza("mBcN")),
    ("kniroo", Predefined::Betza("mNcR")),
    ("rookni", Predefined::Betza("mRcN")),
    ("shogiPawn", Predefined::Betza("fW")),
    ("lance", Predefined::Betza("fR")),
    ("shogiKnight", Predefined::Betza("ffN")),
    ("gold", Predefined::Betza("WfF")),
    ("dragonHorse", Predefined::Betza("BW")),
    ("clobber", Predefined::Betza("cW")),
    ("breakthrough", Predefined::Betza("fmWfF")),
    ("immobile", Predefined::Betza("")),
    ("cannon", Predefined::Unplayable),
    ("janggiCannon", Predefined::Unplayable),
    ("soldier", Predefined::Betza("fsW")),
    ("horse", Predefined::Unplayable),
    ("elephant", Predefined::Unplayable),
    ("janggiElephant", Predefined::Unplayable),
    ("banner", Predefined::Unplayable),
    ("wazir", Predefined::Betza("W")),
    ("commoner", Predefined::Betza("K")),
    ("centaur", Predefined::Betza("KN")),
    ("euroshogiKnight", Predefined::Unplayable),
    ("king", Predefined::Betza("K")),
];

/// The most custom piece types (`customPiece1` ...).
const CUSTOM_PIECES: u8 = 25;

/// Where a piece option comes in Fairy-Stockfish's order of types (custom
/// pieces after the predefined ones, the king last), `None` for an option
/// that is no piece type.
fn piece_order(key: &str) -> Option<usize> {
    if key == "king" {
        return Some(PIECES.len() + usize::from(CUSTOM_PIECES));
    }
    if let Some(n) = custom_number(key) {
        return Some(PIECES.len() - 1 + usize::from(n));
    }
    PIECES.iter().position(|(k, _)| *k == key)
}

/// `customPieceN`'s N, 1 to [`CUSTOM_PIECES`].
fn custom_number(key: &str) -> Option<u8> {
    key.strip_prefix("customPiece")
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|n| (1..=CUSTOM_PIECES).contains(n))
}

fn predefined(key: &str) -> Option<Predefined> {
    PIECES.iter().find(|(k, _)| *k == key).map(|(_, p)| *p)
}

/// Options that cannot change legality nor how mate and stalemate end a
/// game: a GUI's images and template, engine piece values, and the draw
/// and adjudication rules (the n-move rule, repetition, Makruk's counting,
/// material counting when the n-move rule ends a game), which xpgn records
/// rather than applies (R-0-3).
const IGNORED: &[&str] = &[
    "pieceToCharTable",
    "variantTemplate",
    "pocketSize",
    "endgameEval",
    "nMoveRule",
    "nFoldRule",
    "pieceValueMg",
    "pieceValueEg",
    "castlingKingFile",
    "countingRule",
    "materialCounting",
];

/// Options xpgn plays only at one value (Fairy-Stockfish's default, which
/// is xpgn's rule): drops, gating, passing, other win conditions...
const ONLY_AT: &[(&str, &str)] = &[
    ("twoBoards", "false"),
    ("piecePromotionOnCapture", "false"),
    ("mandatoryPiecePromotion", "false"),
    ("pieceDemotion", "false"),
    ("castlingRank", "1"),
    ("oppositeCastling", "false"),
    ("dropChecks", "true"),
    ("firstRankPawnDrops", "false"),
    ("promotionZonePawnDrops", "false"),
    ("dropOnTop", "false"),
    ("dropPromoted", "false"),
    ("shogiDoubledPawn", "true"),
    ("cambodianMoves", "false"),
    ("kingPass", "false"),
    ("kingPassOnStalemate", "false"),
    ("pass", "false"),
    ("passOnStalemate", "false"),
    ("makpongRule", "false"),
    ("flyingGeneral", "false"),
    ("nFoldValue", "draw"),
    ("nFoldValueAbsolute", "false"),
    ("perpetualCheckIllegal", "false"),
    ("moveRepetitionIllegal", "false"),
    ("chasingRule", "none"),
    ("checkmateValue", "loss"),
    ("shogiPawnDropMateIllegal", "false"),
    ("shatarMateRule", "false"),
    ("bikjangRule", "false"),
    ("extinctionPseudoRoyal", "false"),
    ("dupleCheck", "false"),
    ("connectN", "0"),
    ("connectNxN", "0"),
    ("collinearN", "0"),
    ("firstRankDoubleSteps", "false"),
    ("stalematePieceCount", "false"),
    ("wallingRule", "none"),
    ("enclosingDrop", "none"),
    ("flipEnclosedPieces", "none"),
];

/// The most sections a file may hold (Fairy-Stockfish's own has 143).
pub const MAX_INI_SECTIONS: usize = 512;

/// The longest chain of sections a section may inherit through (each
/// keeps its parents' text, so that a chain of thousands took gigabytes).
pub const MAX_INI_INHERITANCE: usize = 32;

/// The most text a section and the sections it inherits from may have
/// together: the definition text a loaded variant keeps.
pub const MAX_INI_CHAIN_BYTES: usize = 64 * 1024;

/// How a piece type of a section moves.
#[derive(Clone, Debug)]
enum PieceMoves {
    /// By the pawn rules.
    Pawn,
    /// By this Betza movement, in xpgn's reading (`""`: never).
    Betza(String),
    /// Not in a way xpgn plays: why.
    Unplayable(String),
}

/// A piece type as a section defines it.
#[derive(Clone, Debug)]
struct IniPiece {
    /// The option that defines it (`archbishop`, `customPiece1`).
    key: String,
    /// Lower-case letter.
    letter: char,
    /// How it moves.
    moves: PieceMoves,
    /// The line that defined it (0: inherited from `chess`): types stand in
    /// the piece table in the order of their lines, which keeps the piece
    /// kinds, and so the position keys stored in databases, as they were
    /// when letters were given in the file's order.
    line: usize,
}

/// Where a section says which ranks a rule applies to.
#[derive(Clone, Debug, PartialEq)]
enum Ranks {
    /// Not given: Fairy-Stockfish's default.
    Default,
    /// A rank relative to the mover's side (`promotionRank`: that rank and
    /// every rank beyond; `doubleStepRank`: ranks 2 up to that rank).
    Relative(u8),
    /// Absolute ranks (1-based) per colour (`...RegionWhite/Black`).
    Regions(Option<Vec<u8>>, Option<Vec<u8>>),
}

/// An option set to something xpgn cannot play: the section and those
/// inheriting it are refused unless one of them sets the option again.
#[derive(Clone, Debug)]
struct Refusal {
    key: String,
    line: usize,
    /// The section that set it.
    section: String,
    reason: String,
}

/// The rules of a section as Fairy-Stockfish's options set them.
#[derive(Clone, Debug)]
struct IniVariant {
    pieces: Vec<IniPiece>,
    max_rank: u8,
    max_file: u8,
    start_fen: String,
    promotion: Ranks,
    /// Types (their options' keys) pawns promote to.
    promotion_pieces: Vec<String>,
    /// Most pieces of a type (its key) after a promotion.
    promotion_limit: Vec<(String, u8)>,
    mandatory_promotion: bool,
    /// `sittuyinPromotion`: a promotion is a move of its own, in place.
    sittuyin_promotion: bool,
    /// Per colour, a promotion region written as squares (`a8 b7`), as
    /// the in-place promotion has it.
    promotion_squares: [Option<String>; 2],
    double_step: bool,
    double_step_at: Ranks,
    /// `enPassantRegion`: absolute ranks (1-based) where the square passed
    /// by a double step may be taken en passant; `None`: the whole board.
    en_passant_ranks: Option<Vec<u8>>,
    castling: bool,
    castling_files: [u8; 2],
    /// Types (keys) a king castles with.
    castling_rooks: Vec<String>,
    /// `castlingKingPiece`: the type (key) that castles, `king` unless
    /// set.
    castling_king: String,
    chess960: bool,
    stalemate: StalemateOutcome,
    extinction: Vec<(String, String)>,
    immobility_illegal: bool,
    /// The options of the rules beyond moving pieces (hands, flags, ...).
    play: super::ini_play::IniPlay,
    refusals: Vec<Refusal>,
    /// Line of each option read (for messages about combinations).
    lines: Vec<(String, usize)>,
}

impl IniVariant {
    /// Fairy-Stockfish's template for a section without a parent.
    fn template() -> IniVariant {
        IniVariant {
            pieces: Vec::new(),
            max_rank: 8,
            max_file: 8,
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            promotion: Ranks::Default,
            promotion_pieces: Vec::new(),
            promotion_limit: Vec::new(),
            mandatory_promotion: true,
            sittuyin_promotion: false,
            promotion_squares: [None, None],
            double_step: true,
            double_step_at: Ranks::Default,
            en_passant_ranks: None,
            castling: true,
            castling_files: [6, 2],
            castling_rooks: vec!["rook".into()],
            castling_king: "king".into(),
            chess960: false,
            stalemate: StalemateOutcome::Draw,
            extinction: Vec::new(),
            immobility_illegal: false,
            play: super::ini_play::IniPlay::default(),
            refusals: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// Fairy-Stockfish's built-in `chess`: xpgn's orthodox chess.
    fn chess() -> IniVariant {
        let mut v = IniVariant::template();
        for (key, letter) in [
            ("king", 'k'),
            ("queen", 'q'),
            ("rook", 'r'),
            ("bishop", 'b'),
            ("knight", 'n'),
            ("pawn", 'p'),
        ] {
            v.pieces.push(IniPiece {
                key: key.into(),
                letter,
                moves: predefined_moves(key),
                line: 0,
            });
        }
        v.promotion_pieces = ["queen", "rook", "bishop", "knight"]
            .map(String::from)
            .to_vec();
        v
    }

    fn line_of(&self, key: &str) -> usize {
        self.lines
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map_or(0, |(_, l)| *l)
    }

    /// The key of the type with this letter.
    fn key_of(&self, letter: char) -> Option<&str> {
        let letter = letter.to_ascii_lowercase();
        self.pieces
            .iter()
            .find(|p| p.letter == letter)
            .map(|p| p.key.as_str())
    }

    /// Fairy-Stockfish's removal of a type: it also leaves the promotion
    /// types.
    fn remove_piece(&mut self, key: &str) {
        self.pieces.retain(|p| p.key != key);
        self.promotion_pieces.retain(|k| k != key);
    }
}

/// How a predefined type moves (the king's default movement included).
fn predefined_moves(key: &str) -> PieceMoves {
    match predefined(key) {
        Some(Predefined::Pawn) => PieceMoves::Pawn,
        Some(Predefined::Betza(b)) => PieceMoves::Betza(b.into()),
        Some(Predefined::Unplayable) | None => PieceMoves::Unplayable(format!(
            "Fairy-Stockfish's {key} hops or is lame; xpgn cannot play it"
        )),
    }
}

/// A section as read: header line, name, parent, options and its text.
struct Section<'a> {
    name: &'a str,
    parent: Option<&'a str>,
    line: usize,
    /// Each key once, with the last value given and its line.
    options: Vec<(&'a str, &'a str, usize)>,
    text: &'a str,
    /// What makes the section unreadable: line, field and reason.
    fault: Option<(usize, String, String)>,
}

/// Splits the file into sections as Fairy-Stockfish does: lines before
/// the first section are skipped, `;` and `#` start comments, a key given
/// twice keeps its last value and a key without a value is skipped.
fn sections<'a>(text: &'a str) -> Vec<Section<'a>> {
    let mut out: Vec<Section<'a>> = Vec::new();
    let mut offset = 0;
    let mut start_of_current = 0;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        let line_start = offset;
        offset += raw.len();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(header) = line.strip_prefix('[') {
            if let Some(last) = out.last_mut() {
                last.text = &text[start_of_current..line_start];
            }
            start_of_current = line_start;
            out.push(section_header(header, line_no, &out));
            continue;
        }
        let Some(section) = out.last_mut() else {
            // Fairy-Stockfish skips what comes before the first section.
            continue;
        };
        let Some((key, value)) = line.split_once('=') else {
            if section.fault.is_none() {
                section.fault = Some((
                    line_no,
                    format!("[{}]", section.name),
                    format!("`{line}` is not KEY = VALUE"),
                ));
            }
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if value.is_empty() {
            continue;
        }
        section.options.retain(|(k, _, _)| *k != key);
        section.options.push((key, value, line_no));
    }
    if let Some(last) = out.last_mut() {
        last.text = &text[start_of_current..];
    }
    out
}

/// The section a header line (after its `[`) starts.
fn section_header<'a>(header: &'a str, line: usize, before: &[Section<'a>]) -> Section<'a> {
    let mut section = Section {
        name: header,
        parent: None,
        line,
        options: Vec::new(),
        text: "",
        fault: None,
    };
    let Some(header) = header.strip_suffix(']') else {
        section.fault = Some((
            line,
            "section".into(),
            format!("`[{header}` has no closing `]`"),
        ));
        return section;
    };
    let (name, parent) = match header.split_once(':') {
        Some((n, p)) => (n.trim(), Some(p.trim())),
        None => (header.trim(), None),
    };
    section.name = name;
    section.parent = parent;
    if name.is_empty() || normalize_name(name).is_empty() {
        section.fault = Some((line, "section".into(), "the section has no name".into()));
    } else if let Some(prev) = before.iter().find(|s| s.name == name && s.fault.is_none()) {
        section.fault = Some((
            line,
            format!("[{name}]"),
            format!(
                "the section is defined twice; Fairy-Stockfish keeps the first (line {})",
                prev.line
            ),
        ));
    }
    section
}

/// What a `variants.ini` file gives: the variants of the sections xpgn
/// can play, and why each other section is refused.
#[derive(Debug, Default)]
pub struct IniVariants {
    /// One per playable section, in file order.
    pub variants: Vec<VariantDef>,
    /// One per refused section, in file order: file, line, `[section]
    /// option` and the reason.
    pub refused: Vec<DefinitionError>,
}

/// Reads the sections of a `variants.ini` file, each a variant named as
/// its section; a section xpgn cannot play is refused on its own, with the
/// file, the line and the option. `file` names it in messages.
///
/// ```
/// let ini = "[gothic:chess]\nmaxFile = 10\ncastlingKingsideFile = i\n\
///            archbishop = a\nchancellor = c\npromotionPieceTypes = acqrbn\n\
///            startFen = rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1\n\
///            [bug:chess]\ntwoBoards = true\n";
/// let read = xpgn::rules::read_ini("gothic.ini", ini).unwrap();
/// assert_eq!(read.variants[0].name, "gothic");
/// assert_eq!(read.variants[0].size.files, 10);
/// assert_eq!(read.refused[0].to_string(), "gothic.ini:9: [bug] twoBoards: \
///     xpgn cannot play `twoBoards = true`; the section is refused rather than approximated");
/// ```
///
/// # Errors
/// A file over the size limit, with no section or more than
/// [`MAX_INI_SECTIONS`].
pub fn read_ini(file: &str, text: &str) -> Result<IniVariants, DefinitionError> {
    check_size(file, text.len() as u64)?;
    let src = Source { file, text };
    let sections = sections(text);
    if sections.is_empty() {
        return Err(src.err(0, "file", "no [section] in the file"));
    }
    if let Some(s) = sections.get(MAX_INI_SECTIONS) {
        return Err(src.err(
            line_offset(text, s.line),
            "file",
            format!("more than {MAX_INI_SECTIONS} sections, the most a file may have"),
        ));
    }
    let mut read: Vec<Option<Inherited>> = Vec::with_capacity(sections.len());
    let mut out = IniVariants::default();
    for i in 0..sections.len() {
        let (result, state) = read_section(&src, &sections, &read, i, builtin_parent);
        match result {
            Ok(def) => out.variants.push(def),
            Err(e) => out.refused.push(e),
        }
        read.push(state);
    }
    Ok(out)
}

/// The playable sections of a `variants.ini` file ([`read_ini`] without
/// the refusals, unless no section can be played).
///
/// ```
/// assert!(xpgn::rules::load_ini("x.ini", "[x:chess]\ntwoBoards = true\n").is_err());
/// ```
///
/// # Errors
/// What [`read_ini`] refuses, and the first refusal when no section can be
/// played.
pub fn load_ini(file: &str, text: &str) -> Result<Vec<VariantDef>, DefinitionError> {
    let read = read_ini(file, text)?;
    match (read.variants.is_empty(), read.refused.into_iter().next()) {
        (true, Some(first)) => Err(first),
        _ => Ok(read.variants),
    }
}

/// A section's rules, its text with its parents' and how many sections it
/// inherits through: what a section inheriting it starts from.
type Inherited = (IniVariant, String, usize);

/// The file the built-in parents are read from, as messages name it.
const PARENTS_FILE: &str = "variants/fairy-stockfish.ini";

/// A built-in variant of Fairy-Stockfish that xpgn ships, by the name
/// Fairy-Stockfish gives it, as a parent: the section of
/// `variants/fairy-stockfish.ini` (read once), its types and options
/// standing before the inheriting section's as `chess`'s do (line 0).
/// Fairy-Stockfish looks a parent up among its built-ins before the
/// sections of the file (a section named as a built-in is not added), and
/// so does xpgn.
fn builtin_parent(name: &str) -> Option<Inherited> {
    static PARENTS: OnceLock<Vec<(String, Inherited)>> = OnceLock::new();
    let parents = PARENTS.get_or_init(|| {
        let src = Source {
            file: PARENTS_FILE,
            text: super::builtin::FAIRY_STOCKFISH_PARENTS,
        };
        let sections = sections(src.text);
        let mut read: Vec<Option<Inherited>> = Vec::with_capacity(sections.len());
        let mut out = Vec::new();
        for i in 0..sections.len() {
            let (result, state) = read_section(&src, &sections, &read, i, |_| None);
            if let (Ok(_), Some((mut v, chain, depth))) = (result, state.clone()) {
                v.pieces.iter_mut().for_each(|p| p.line = 0);
                v.lines.iter_mut().for_each(|(_, line)| *line = 0);
                out.push((sections[i].name.to_string(), (v, chain, depth)));
            }
            read.push(state);
        }
        out
    });
    parents
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, inherited)| inherited.clone())
}

/// Reads section `i`, given what the sections before it left: its
/// definition or refusal, and its rules for the sections inheriting it.
/// `builtin` gives the built-in parents other than `chess`.
fn read_section(
    src: &Source<'_>,
    sections: &[Section<'_>],
    read: &[Option<Inherited>],
    i: usize,
    builtin: fn(&str) -> Option<Inherited>,
) -> (Result<VariantDef, DefinitionError>, Option<Inherited>) {
    let s = &sections[i];
    let header_at = line_offset(src.text, s.line);
    if let Some((line, field, reason)) = &s.fault {
        return (
            Err(src.err(line_offset(src.text, *line), field, reason.clone())),
            None,
        );
    }
    let refuse = |reason: String| {
        let field = match s.parent {
            Some(p) => format!("[{}:{p}]", s.name),
            None => format!("[{}]", s.name),
        };
        (Err(src.err(header_at, &field, reason)), None)
    };
    let (mut state, mut chain, depth) = match s.parent {
        None => (IniVariant::template(), String::new(), 0),
        Some("chess") => (IniVariant::chess(), String::new(), 0),
        Some(parent) if let Some((state, chain, depth)) = builtin(parent) => {
            (state, chain, depth + 1)
        }
        Some(parent) => {
            let found = sections[..i]
                .iter()
                .position(|p| p.name == parent && p.fault.is_none());
            match found.map(|p| &read[p]) {
                Some(Some((state, chain, depth))) => (state.clone(), chain.clone(), depth + 1),
                Some(None) => {
                    return refuse(format!(
                        "the parent `{parent}` could not be read, so neither can this section"
                    ));
                }
                None if sections[i..].iter().any(|p| p.name == parent) => {
                    return refuse(format!(
                        "the parent `{parent}` is defined later in the file; Fairy-Stockfish needs it first"
                    ));
                }
                None => {
                    return refuse(format!(
                        "no parent `{parent}`: xpgn knows as parents sections earlier in this file and Fairy-Stockfish's built-in variants that it ships (docs/variants.md lists them)"
                    ));
                }
            }
        }
    };
    if depth > MAX_INI_INHERITANCE {
        return refuse(format!(
            "inherits through more than {MAX_INI_INHERITANCE} sections, the most xpgn follows"
        ));
    }
    chain.push_str(s.text);
    if !chain.ends_with('\n') {
        chain.push('\n');
    }
    if chain.len() > MAX_INI_CHAIN_BYTES {
        return refuse(format!(
            "the section and those it inherits from have {} bytes of text; xpgn keeps at most {MAX_INI_CHAIN_BYTES}",
            chain.len()
        ));
    }
    // Fairy-Stockfish's order: the board, the piece types in its order of
    // types, the deprecated options the newer ones override, the rest.
    let mut options = s.options.clone();
    options.sort_by_key(|&(key, _, _)| match key {
        "maxRank" | "maxFile" => (0, 0),
        _ if piece_order(key).is_some() => (1, piece_order(key).unwrap_or(0)),
        "promotionRank" | "doubleStepRank" | "castlingRookPiece" => (2, 0),
        _ => (3, 0),
    });
    for &(key, value, line) in &options {
        state.refusals.retain(|r| r.key != key);
        state.lines.push((key.to_string(), line));
        if let Err(reason) = apply(&mut state, key, value, line) {
            state.refusals.push(Refusal {
                key: key.to_string(),
                line,
                section: s.name.to_string(),
                reason,
            });
        }
    }
    state.pieces.sort_by_key(|p| p.line);
    let result = match state.refusals.iter().min_by_key(|r| r.line) {
        Some(r) => Err(src.err(
            line_offset(src.text, r.line),
            &format!("[{}] {}", s.name, r.key),
            if r.section == s.name {
                r.reason.clone()
            } else {
                format!("{} (set in [{}])", r.reason, r.section)
            },
        )),
        None => to_def(src, s, header_at, &state, &chain)
            .and_then(|d| check_compiles(src, d, |_| header_at)),
    };
    (result, Some((state, chain, depth)))
}

fn line_offset(text: &str, line: usize) -> usize {
    text.split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum()
}

/// Reads one option into the section's rules, or says why xpgn cannot
/// play it.
fn apply(v: &mut IniVariant, key: &str, value: &str, line: usize) -> Result<(), String> {
    if IGNORED.contains(&key) {
        return Ok(());
    }
    if let Some(&(_, only)) = ONLY_AT.iter().find(|(k, _)| *k == key) {
        return if value == only {
            Ok(())
        } else {
            Err(cannot(key, value))
        };
    }
    if piece_order(key).is_some() {
        apply_piece(v, key, value, line);
        return Ok(());
    }
    let boolean = || match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("`{value}` is not true or false")),
    };
    let number = |max: u8| -> Result<u8, String> {
        value
            .parse::<u8>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| format!("`{value}` is not a number from 1 to {max}"))
    };
    match key {
        "maxRank" => v.max_rank = number(MAX_SIDE)?,
        "maxFile" => v.max_file = file_value(value)?,
        "startFen" => v.start_fen = value.to_string(),
        "promotionRank" => v.promotion = Ranks::Relative(number(MAX_SIDE)?),
        "promotionRegionWhite"
        | "promotionRegionBlack"
        | "doubleStepRegionWhite"
        | "doubleStepRegionBlack" => {
            let colour = usize::from(key.ends_with("Black"));
            if key.starts_with("promotion") {
                v.promotion_squares[colour] = None;
                if region_ranks(value).is_err() && value.split_whitespace().all(is_square_name) {
                    v.promotion_squares[colour] = Some(value.to_string());
                    return Ok(());
                }
            }
            let ranks = region_ranks(value)?;
            let target = if key.starts_with("promotion") {
                &mut v.promotion
            } else {
                &mut v.double_step_at
            };
            let (mut w, mut b) = match std::mem::replace(target, Ranks::Default) {
                Ranks::Regions(w, b) => (w, b),
                _ => (None, None),
            };
            if key.ends_with("White") {
                w = Some(ranks);
            } else {
                b = Some(ranks);
            }
            *target = Ranks::Regions(w, b);
        }
        "enPassantRegion" => {
            v.en_passant_ranks = Some(region_ranks(value)?);
        }
        "promotionPieceTypes" => v.promotion_pieces = piece_set(v, value)?,
        "castlingRookPiece" | "castlingRookPieces" => v.castling_rooks = piece_set(v, value)?,
        "promotionLimit" => {
            v.promotion_limit.clear();
            for item in value.split_whitespace() {
                let parsed = item.split_once(':').and_then(|(l, n)| {
                    let mut cs = l.chars();
                    match (cs.next(), cs.next()) {
                        (Some(c), None) => Some((v.key_of(c)?.to_string(), n.parse::<u8>().ok()?)),
                        _ => None,
                    }
                });
                match parsed {
                    Some(p) => v.promotion_limit.push(p),
                    None => {
                        return Err(format!(
                            "`{item}` is not LETTER:COUNT with the letter of a piece type (`q:1 r:2`)"
                        ));
                    }
                }
            }
        }
        "mandatoryPawnPromotion" => v.mandatory_promotion = boolean()?,
        "sittuyinPromotion" => v.sittuyin_promotion = boolean()?,
        "immobilityIllegal" => v.immobility_illegal = boolean()?,
        "doubleStep" => v.double_step = boolean()?,
        "doubleStepRank" => v.double_step_at = Ranks::Relative(number(MAX_SIDE)?),
        "castling" => v.castling = boolean()?,
        "chess960" => v.chess960 = boolean()?,
        "castlingKingsideFile" => v.castling_files[0] = file_value(value)? - 1,
        "castlingQueensideFile" => v.castling_files[1] = file_value(value)? - 1,
        "castlingKingPiece" => {
            // Which type castles is checked when the section is made: a
            // commoner castles where it stands for the king (see
            // `king_key`).
            v.castling_king = match v.key_of(value.chars().next().unwrap_or(' ')) {
                Some(key) if value.chars().count() == 1 => key.to_string(),
                _ => {
                    return Err(format!(
                        "`{value}` is not the letter of a piece type of the section"
                    ));
                }
            };
        }
        "kingType" => {
            let king = v.key_of(value.chars().next().unwrap_or(' '));
            if value.chars().count() != 1 || king != Some("king") {
                return Err(
                    "xpgn castles with the king and the king is the royal piece; give the king's letter"
                        .into(),
                );
            }
        }
        "stalemateValue" => {
            v.stalemate = match value {
                "draw" => StalemateOutcome::Draw,
                "loss" => StalemateOutcome::StalematedLoses,
                "win" => StalemateOutcome::StalematedWins,
                _ => return Err(format!("`{value}` is not win, loss or draw")),
            }
        }
        _ if super::ini_play::IniPlay::reads(key) => {
            let key_of = |c: char| v.key_of(c).map(String::from);
            let read = v.play.clone().apply(key, value, key_of)?;
            v.play = read;
        }
        "extinctionValue"
        | "extinctionClaim"
        | "extinctionPieceTypes"
        | "extinctionPieceCount"
        | "extinctionOpponentPieceCount" => {
            v.extinction.retain(|(k, _)| k != key);
            v.extinction.push((key.to_string(), value.to_string()));
        }
        _ => {
            return Err(
                "not an option xpgn reads (docs/variants.md lists them); the section is refused rather than approximated".into(),
            );
        }
    }
    Ok(())
}

fn cannot(key: &str, value: &str) -> String {
    format!("xpgn cannot play `{key} = {value}`; the section is refused rather than approximated")
}

/// A file: a letter or a number from 1 to 16, 1-based.
fn file_value(value: &str) -> Result<u8, String> {
    match value.as_bytes() {
        [c] if c.is_ascii_lowercase() => Some(c - b'a' + 1),
        _ => value.parse::<u8>().ok(),
    }
    .filter(|f| (1..=MAX_SIDE).contains(f))
    .ok_or_else(|| format!("`{value}` is not a file (a letter or 1 to {MAX_SIDE})"))
}

/// A set of piece types by their letters in this section (`-`: none),
/// as the keys of the types, which later re-lettering does not change.
fn piece_set(v: &IniVariant, value: &str) -> Result<Vec<String>, String> {
    if value == "-" {
        return Ok(Vec::new());
    }
    let mut keys: Vec<String> = Vec::new();
    for c in value.chars().filter(|c| !c.is_whitespace()) {
        let key = v
            .key_of(c)
            .ok_or_else(|| format!("`{c}` is not the letter of a piece type of the section"))?;
        if !keys.iter().any(|k| k == key) {
            keys.push(key.to_string());
        }
    }
    Ok(keys)
}

/// A piece option as Fairy-Stockfish reads it: a letter gives the type
/// that letter, taking it from the type that had it (which also leaves
/// the promotion types, even when it is this type); anything else removes
/// the type. A movement xpgn cannot play is kept as the reason, so that
/// only a section that keeps the type is refused.
fn apply_piece(v: &mut IniVariant, key: &str, value: &str, line: usize) {
    let first = value.chars().next().unwrap_or('-');
    if !first.is_ascii_alphabetic() {
        v.remove_piece(key);
        return;
    }
    let letter = first.to_ascii_lowercase();
    if let Some(holder) = v.key_of(letter).map(String::from) {
        v.remove_piece(&holder);
    }
    v.pieces.retain(|p| p.key != key);
    // What follows `LETTER:` is the movement of a custom type or the king.
    let betza = value.get(2..).filter(|_| value.len() > 1);
    let moves = match (predefined(key), betza) {
        (_, Some(b)) if custom_number(key).is_some() || key == "king" => fsf_betza(b)
            .and_then(|b| {
                Movement::from_betza(&b)
                    .map(|_| b)
                    .map_err(|e| e.to_string())
            })
            .map_or_else(PieceMoves::Unplayable, PieceMoves::Betza),
        (_, Some(_)) => PieceMoves::Unplayable(format!(
            "{key} moves as Fairy-Stockfish defines it; give other movements with customPieceN = LETTER:BETZA"
        )),
        (None, None) => PieceMoves::Betza(String::new()),
        (Some(_), None) => predefined_moves(key),
    };
    v.pieces.push(IniPiece {
        key: key.to_string(),
        letter,
        moves,
        line,
    });
}

/// Fairy-Stockfish's reading of Betza in xpgn's: before an oblique atom
/// (N, C, Z) a single direction letter selects the narrow pair (its `fN`
/// is the shogi knight, xpgn's `ffN`), so it is doubled; a pair of
/// different letters there is read differently by the two and refused.
fn fsf_betza(text: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut dirs = String::new();
    for c in text.chars() {
        if "fbvlrsh".contains(c) {
            dirs.push(c);
            continue;
        }
        if c.is_ascii_uppercase() && !dirs.is_empty() {
            if "NCZ".contains(c) {
                let d: Vec<char> = dirs.chars().collect();
                let mut i = 0;
                let mut tr = String::new();
                while i < d.len() {
                    let pair = d.get(i + 1).copied();
                    let combinable = |a: char, b: char| {
                        a == b
                            || ("fbv".contains(a) && "rlsh".contains(b))
                            || ("rlsh".contains(a) && "fbv".contains(b))
                    };
                    match pair {
                        Some(b) if combinable(d[i], b) => {
                            if b != d[i] {
                                return Err(format!(
                                    "Betza `{text}`: `{}{b}` before {c} means other moves to Fairy-Stockfish than to xpgn; write the moves with single letters (`ff`, `ss`...)",
                                    d[i]
                                ));
                            }
                            tr.push(d[i]);
                            tr.push(b);
                            i += 2;
                        }
                        _ => {
                            tr.push(d[i]);
                            tr.push(d[i]);
                            i += 1;
                        }
                    }
                }
                out.push_str(&tr);
            } else {
                out.push_str(&dirs);
            }
            dirs.clear();
        } else if !dirs.is_empty() && !c.is_ascii_digit() {
            out.push_str(&dirs);
            dirs.clear();
        }
        out.push(c);
    }
    out.push_str(&dirs);
    Ok(out)
}

/// `*8 *9` -> `[8, 9]`; `-` -> none. xpgn's zones are whole ranks.
fn region_ranks(value: &str) -> Result<Vec<u8>, String> {
    if value == "-" {
        return Ok(Vec::new());
    }
    let mut out: Vec<u8> = value
        .split_whitespace()
        .map(|t| t.strip_prefix('*')?.parse::<u8>().ok().filter(|&r| r >= 1))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            format!(
                "`{value}` is not a list of whole ranks (`*8 *9`); xpgn's zones are whole ranks"
            )
        })?;
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Whether `token` names a square (`a8`, `j10`).
fn is_square_name(token: &str) -> bool {
    let mut chars = token.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && !chars.as_str().is_empty()
        && chars.all(|c| c.is_ascii_digit())
}

/// The ranks (1-based, absolute) for White and Black.
fn resolve(
    ranks: &Ranks,
    max_rank: u8,
    default_white: &[u8],
    default_black: &[u8],
    from_relative: impl Fn(u8) -> Vec<u8>,
) -> (Vec<u8>, Vec<u8>) {
    let mirror = |rs: &[u8]| -> Vec<u8> {
        let mut m: Vec<u8> = rs
            .iter()
            .filter(|&&r| r <= max_rank)
            .map(|&r| max_rank + 1 - r)
            .collect();
        m.sort_unstable();
        m
    };
    match ranks {
        Ranks::Default => (default_white.to_vec(), default_black.to_vec()),
        Ranks::Relative(r) => {
            let w = from_relative(*r);
            let b = mirror(&w);
            (w, b)
        }
        Ranks::Regions(w, b) => (
            w.clone().unwrap_or_else(|| default_white.to_vec()),
            b.clone().unwrap_or_else(|| default_black.to_vec()),
        ),
    }
}

fn piece_name(key: &str) -> String {
    if let Some(n) = key.strip_prefix("customPiece") {
        return format!("Custom piece {n}");
    }
    let mut out = String::new();
    for (i, c) in key.chars().enumerate() {
        if i == 0 {
            out.push(c.to_ascii_uppercase());
        } else if c.is_ascii_uppercase() {
            out.push(' ');
            out.push(c);
        } else {
            out.push(c);
        }
    }
    out
}

/// A section being made a definition: where its faults are reported.
struct Making<'a> {
    src: &'a Source<'a>,
    name: &'a str,
    header_at: usize,
    v: &'a IniVariant,
}

impl Making<'_> {
    /// A fault of `key`, on the line that set it (the header if none did).
    fn err(&self, key: &str, reason: String) -> DefinitionError {
        let line = self.v.line_of(key);
        let at = if line == 0 {
            self.header_at
        } else {
            line_offset(self.src.text, line)
        };
        self.src.err(at, &format!("[{}] {key}", self.name), reason)
    }
}

fn to_def(
    src: &Source<'_>,
    s: &Section<'_>,
    header_at: usize,
    v: &IniVariant,
    chain: &str,
) -> Result<VariantDef, DefinitionError> {
    let mk = Making {
        src,
        name: s.name,
        header_at,
        v,
    };
    let size = BoardSize::new(v.max_file, v.max_rank);
    let (pieces, keys) = pieces_of(&mk)?;
    let kind_of_key = |key: &str| {
        keys.iter()
            .position(|k| k == key)
            .map(|i| PieceKind(i as u8))
    };
    let (setup, rights) = setup_of(&mk, size, &pieces)?;
    let pawns = pawns_of(&mk, &pieces, &kind_of_key)?;
    let free_castling = castling_of(&mk, size, &setup, rights, &kind_of_key)?;
    let castling = dropped_castlings(&mk, size, &kind_of_key)?;
    let (bare_king, extinction) = extinction_of(&mk, &kind_of_key)?;
    let play = v
        .play
        .to_rules(&v.start_fen, size, &pieces, &kind_of_key)
        .map_err(|(key, reason)| mk.err(key, reason))?;
    Ok(VariantDef {
        name: String::from(s.name),
        display_name: String::from(s.name),
        aliases: Vec::new(),
        size,
        pieces,
        setup,
        pawns,
        castling,
        special_king_move: None,
        stalemate: v.stalemate,
        free_castling,
        bare_king,
        hand: play.hand,
        must_capture: play.must_capture,
        royal_king: king_key(v) == Some("king"),
        kingless: [false; 2],
        checks_forbidden: play.checks_forbidden,
        check_limit: play.check_limit,
        extinction,
        flag: play.flag,
        explosion: play.explosion,
        source: Some(String::from(chain)),
        source_format: SourceFormat::Ini,
        openings: None,
    })
}

/// The type xpgn plays as its king piece: the `king`, royal; in a
/// section without one, a `commoner`, which moves as a king but is not
/// royal (Fairy-Stockfish's giveaway: `king = -`, `commoner = k`), as
/// `royal-king = false` has it.
fn king_key(v: &IniVariant) -> Option<&'static str> {
    ["king", "commoner"]
        .into_iter()
        .find(|key| v.pieces.iter().any(|p| p.key == *key))
}

/// The piece table, the king first as in xpgn's own files, with the key
/// of each type.
fn pieces_of(mk: &Making<'_>) -> Result<(Vec<PieceDef>, Vec<String>), DefinitionError> {
    let king = king_key(mk.v);
    let mut ini_pieces = mk.v.pieces.clone();
    ini_pieces.sort_by_key(|p| Some(p.key.as_str()) != king);
    if let Some(p) = ini_pieces
        .iter()
        .find(|p| matches!(p.moves, PieceMoves::Unplayable(_)))
        && let PieceMoves::Unplayable(reason) = &p.moves
    {
        return Err(mk.err(&p.key, reason.clone()));
    }
    if ini_pieces.is_empty() || ini_pieces.len() > 15 {
        return Err(mk.err(
            "king",
            format!(
                "xpgn plays 1 to 15 piece types, the section defines {}",
                ini_pieces.len()
            ),
        ));
    }
    if king.is_none() {
        return Err(mk.err(
            "king",
            "xpgn needs a king type (king = k), or a commoner that stands for a king that is not royal (commoner = k); the section defines neither".into(),
        ));
    }
    if !ini_pieces.iter().any(|p| p.key == "pawn") {
        return Err(mk.err(
            "pawn",
            "xpgn needs a pawn type (pawn = p); the section defines none".into(),
        ));
    }
    let mut pieces = Vec::new();
    for p in &ini_pieces {
        let role = match p.key.as_str() {
            key if Some(key) == king => Role::King,
            "pawn" => Role::Pawn,
            _ => Role::Other,
        };
        let movement = match &p.moves {
            PieceMoves::Betza(b) if !b.is_empty() => {
                Movement::from_betza(b).map_err(|e| mk.err(&p.key, e.to_string()))?
            }
            _ => Movement::none(),
        };
        pieces.push(PieceDef {
            name: piece_name(&p.key),
            letter: p.letter.to_ascii_uppercase(),
            movement,
            role,
            rule: None,
        });
    }
    Ok((pieces, ini_pieces.into_iter().map(|p| p.key).collect()))
}

/// A start position's pieces.
type Setup = Vec<(Square, Piece)>;

/// The start position and which colours may castle in it.
fn setup_of(
    mk: &Making<'_>,
    size: BoardSize,
    pieces: &[PieceDef],
) -> Result<(Setup, [bool; 2]), DefinitionError> {
    let fields: Vec<&str> = mk.v.start_fen.split_whitespace().collect();
    // The hands after the board (`...[HEhe]`) are the play rules' part.
    let (board_text, _) = super::file_play::split_hand(fields.first().copied().unwrap_or(""));
    let board = parse_setup_board(board_text, size).map_err(|reason| {
        mk.err(
            "startFen",
            format!(
                "does not fit the {}x{} board: {reason}",
                size.files, size.ranks
            ),
        )
    })?;
    let mut setup = Vec::new();
    for (sq, letter, color) in board {
        let kind = pieces
            .iter()
            .position(|p| p.letter == letter)
            .map(|i| PieceKind(i as u8))
            .ok_or_else(|| {
                mk.err(
                    "startFen",
                    format!("{sq} holds `{letter}`, which is no piece's letter in this section"),
                )
            })?;
        setup.push((sq, Piece { color, kind }));
    }
    if fields.get(1).is_some_and(|&f| f != "w") {
        return Err(mk.err(
            "startFen",
            "xpgn's start positions have White to move".into(),
        ));
    }
    // Fairy-Stockfish reads a number where the en passant square would be
    // as the counters that follow a position without one (`w - 0 1`).
    if fields
        .get(3)
        .is_some_and(|&f| f != "-" && f.parse::<u32>().is_err())
    {
        return Err(mk.err(
            "startFen",
            "xpgn's start positions have no en passant square".into(),
        ));
    }
    // With gating, the field also names the gates (`KQBCDFGkqbcdfg`):
    // at the start every first-rank piece stands on one, as xpgn's
    // gating has it, so only the castlings are read here.
    let written = fields.get(2).copied().unwrap_or("-");
    let castlings: String = match mk.v.play.gates() {
        true => written.chars().filter(|c| "KQkq".contains(*c)).collect(),
        false => written.to_string(),
    };
    let rights = match castlings.as_str() {
        "" | "-" => [false, false],
        "KQkq" => [true, true],
        "KQ" => [true, false],
        "kq" => [false, true],
        other => {
            return Err(mk.err(
                "startFen",
                format!(
                    "castling rights `{other}`: xpgn's start positions give each side both castlings or none (`KQkq`, `KQ`, `kq`, `-`)"
                ),
            ));
        }
    };
    Ok((setup, rights))
}

/// The pawn rules: promotion, double steps, en passant.
fn pawns_of(
    mk: &Making<'_>,
    pieces: &[PieceDef],
    kind_of_key: &dyn Fn(&str) -> Option<PieceKind>,
) -> Result<PawnRules, DefinitionError> {
    let v = mk.v;
    let top = v.max_rank;
    if v.sittuyin_promotion {
        return in_place_pawns(mk, kind_of_key);
    }
    let (promo_white, promo_black) =
        resolve(&v.promotion, top, &[8], &[1], |r| (r..=top).collect());
    if v.promotion == Ranks::Default && top != 8 {
        return Err(mk.err(
            "maxRank",
            format!(
                "the board has {top} ranks and the promotion zone is not given; Fairy-Stockfish's default is rank 8 alone for White and rank 1 for Black, which xpgn does not play there: give promotionRank or promotionRegionWhite and promotionRegionBlack"
            ),
        ));
    }
    let promotion_key = match v.promotion {
        Ranks::Regions(..) => "promotionRegionWhite",
        _ => "promotionRank",
    };
    if promo_white.iter().any(|&r| r > top) || mirrored(top, &promo_white) != promo_black {
        return Err(mk.err(
            promotion_key,
            "xpgn's promotion zone is the same ranks for both sides, seen from each side, on the board".into(),
        ));
    }
    if !promo_white.contains(&top) {
        return Err(mk.err(
            promotion_key,
            format!(
                "the promotion zone does not reach the last rank ({top}); a pawn there could never move, which xpgn does not play"
            ),
        ));
    }
    let (king, pawn) = (PieceKind(0), kind_of_key("pawn").unwrap_or(PieceKind(0)));
    // A king that is not royal (a commoner standing for it) is a piece
    // like the others, and a pawn may become one.
    let royal = king_key(v) == Some("king");
    let mut choices = Vec::new();
    for key in &v.promotion_pieces {
        match kind_of_key(key) {
            Some(k) if (k != king || !royal) && k != pawn => choices.push(k),
            _ => {
                return Err(mk.err(
                    "promotionPieceTypes",
                    format!("{key} is not a type a pawn may become"),
                ));
            }
        }
    }
    if choices.is_empty() {
        return Err(mk.err(
            "promotionPieceTypes",
            "pawns have no type to promote to; xpgn does not play pawns stuck on the last rank"
                .into(),
        ));
    }
    let promotion_limits = promotion_limits_of(v, &choices, kind_of_key);
    if !v.mandatory_promotion && !v.immobility_illegal {
        return Err(mk.err(
            "mandatoryPawnPromotion",
            "without immobilityIllegal = true a pawn may stay a pawn on the last rank, which xpgn does not play".into(),
        ));
    }
    if v.immobility_illegal
        && let Some(p) = pieces.iter().find(|p| {
            p.role == Role::Other && (p.movement.is_directional() || p.movement.0.is_empty())
        })
    {
        return Err(mk.err(
            "immobilityIllegal",
            format!(
                "{} could be stuck; xpgn forbids that only for pawns",
                p.name
            ),
        ));
    }
    let (double_step_ranks, double_step_ranks_black, en_passant) = pawn_steps_of(mk)?;
    Ok(PawnRules {
        double_step_ranks,
        double_step_ranks_black,
        en_passant,
        promotion: PromotionRule::Choice(choices),
        promotion_ranks: promo_white.iter().map(|r| r - 1).collect(),
        promotion_mandatory: v.mandatory_promotion,
        promotion_limits,
        en_passant_ranks: None,
        rule: "R-0-4".into(),
    })
}

/// The pawn rules of `sittuyinPromotion`: pawns promote in place, on the
/// squares of the promotion regions, to the promotion types.
fn in_place_pawns(
    mk: &Making<'_>,
    kind_of_key: &dyn Fn(&str) -> Option<PieceKind>,
) -> Result<PawnRules, DefinitionError> {
    let v = mk.v;
    let size = BoardSize::new(v.max_file, v.max_rank);
    let squares = |text: &Option<String>| -> Option<Vec<Square>> {
        text.as_deref()?
            .split_whitespace()
            .map(|t| super::file::parse_square(t, size))
            .collect()
    };
    let (Some(white), Some(black)) = (
        squares(&v.promotion_squares[0]),
        squares(&v.promotion_squares[1]),
    ) else {
        return Err(mk.err(
            "sittuyinPromotion",
            "the in-place promotion needs promotionRegionWhite and promotionRegionBlack as squares of the board (`a8 b7`)".into(),
        ));
    };
    let flipped: Vec<Square> = white.iter().map(|s| s.flip_rank(size.ranks)).collect();
    let sorted = |mut s: Vec<Square>| {
        s.sort();
        s
    };
    if sorted(flipped.clone()) != sorted(black) {
        return Err(mk.err(
            "promotionRegionBlack",
            "xpgn's promotion squares are the same for both sides, seen from each side".into(),
        ));
    }
    let (king, pawn) = (PieceKind(0), kind_of_key("pawn").unwrap_or(PieceKind(0)));
    let kinds: Vec<PieceKind> = v
        .promotion_pieces
        .iter()
        .filter_map(|key| kind_of_key(key))
        .filter(|&k| k != king && k != pawn)
        .collect();
    if kinds.is_empty() {
        return Err(mk.err(
            "promotionPieceTypes",
            "pawns have no type to promote to".into(),
        ));
    }
    let promotion_limits = promotion_limits_of(v, &kinds, kind_of_key);
    let (double_step_ranks, double_step_ranks_black, en_passant) = pawn_steps_of(mk)?;
    Ok(PawnRules {
        double_step_ranks,
        double_step_ranks_black,
        en_passant,
        promotion: PromotionRule::InPlace {
            kinds,
            squares: [white, flipped],
        },
        promotion_ranks: Vec::new(),
        promotion_mandatory: true,
        promotion_limits,
        en_passant_ranks: None,
        rule: "R-SI-2".into(),
    })
}

/// The double-step ranks (White's, and Black's where not mirrored) and
/// whether en passant follows them.
type PawnSteps = (Vec<u8>, Option<Vec<u8>>, bool);

/// The pawns' double steps and en passant, as the options set them.
fn pawn_steps_of(mk: &Making<'_>) -> Result<PawnSteps, DefinitionError> {
    let (white, black) = double_steps_of(mk)?;
    let en_passant = en_passant_of(mk, &white, black.as_deref().unwrap_or(&white))?;
    Ok((white, black, en_passant))
}

/// The promotion limits on the types pawns promote to (`choices`): a
/// limit on another type limits nothing.
fn promotion_limits_of(
    v: &IniVariant,
    choices: &[PieceKind],
    kind_of_key: &dyn Fn(&str) -> Option<PieceKind>,
) -> Vec<(PieceKind, u8)> {
    v.promotion_limit
        .iter()
        .filter_map(|(key, n)| {
            kind_of_key(key)
                .filter(|k| choices.contains(k))
                .map(|k| (k, *n))
        })
        .collect()
}

/// `ranks` (1-based) seen from the other side of a board of `top` ranks.
fn mirrored(top: u8, ranks: &[u8]) -> Vec<u8> {
    let mut m: Vec<u8> = ranks.iter().map(|&r| top + 1 - r).collect();
    m.sort_unstable();
    m
}

/// The double-step ranks (0-based): White's, and Black's in Black's view
/// where they are not White's mirrored. Fairy-Stockfish's default is the
/// current release's (pyffish 0.0.90): White's rank 2 and Black's rank 7
/// counted from White's side, on any board; `doubleStepRank = N` gives
/// ranks 2 to N of each side.
fn double_steps_of(mk: &Making<'_>) -> Result<(Vec<u8>, Option<Vec<u8>>), DefinitionError> {
    let v = mk.v;
    if !v.double_step {
        return Ok((Vec::new(), None));
    }
    let top = v.max_rank;
    let (w, b) = resolve(&v.double_step_at, top, &[2], &[7], |r| (2..=r).collect());
    if let Some(&r) = w.iter().chain(&b).find(|&&r| r > top) {
        let key = match v.double_step_at {
            Ranks::Regions(..) => "doubleStepRegionWhite",
            _ => "doubleStepRank",
        };
        if v.double_step_at != Ranks::Default {
            return Err(mk.err(key, format!("rank {r} is off the {top}-rank board")));
        }
    }
    let white: Vec<u8> = w.iter().filter(|&&r| r <= top).map(|r| r - 1).collect();
    let black: Vec<u8> = b
        .iter()
        .filter(|&&r| r <= top)
        .map(|&r| top - r)
        .collect::<std::collections::BTreeSet<u8>>()
        .into_iter()
        .collect();
    let black = (black != white).then_some(black);
    Ok((white, black))
}

/// Whether pawns capture en passant: `enPassantRegion` must hold every
/// square a double step can pass (or none of them). The ranks are
/// 0-based, each side's in its own view.
fn en_passant_of(mk: &Making<'_>, white: &[u8], black: &[u8]) -> Result<bool, DefinitionError> {
    let Some(region) = &mk.v.en_passant_ranks else {
        return Ok(true);
    };
    let top = mk.v.max_rank;
    // The passed squares' ranks (1-based, absolute) of both sides: a double
    // step from rank r (0-based) passes rank r + 2 (1-based).
    let passed: Vec<u8> = white
        .iter()
        .map(|&r| r + 2)
        .chain(black.iter().map(|&r| top - 1 - r))
        .collect();
    if passed.iter().all(|r| region.contains(r)) {
        Ok(true)
    } else if passed.iter().all(|r| !region.contains(r)) {
        Ok(false)
    } else {
        Err(mk.err(
            "enPassantRegion",
            "xpgn plays en passant after every double step or after none; the region holds the passed squares of some only".into(),
        ))
    }
}

/// Castling: toward the outermost castling piece, the king to a fixed file
/// and the piece next to it inside, from wherever they stand on the first
/// rank; for the colours the start position's castling field names.
fn castling_of(
    mk: &Making<'_>,
    size: BoardSize,
    setup: &[(Square, Piece)],
    rights: [bool; 2],
    kind_of_key: &dyn Fn(&str) -> Option<PieceKind>,
) -> Result<Option<FreeCastling>, DefinitionError> {
    let v = mk.v;
    if !v.castling || rights == [false, false] || !king_castles(mk)? {
        return Ok(None);
    }
    let (king, pawn) = (PieceKind(0), kind_of_key("pawn").unwrap_or(PieceKind(0)));
    let rook_key = if v.line_of("castlingRookPieces") >= v.line_of("castlingRookPiece") {
        "castlingRookPieces"
    } else {
        "castlingRookPiece"
    };
    let mut kinds = Vec::new();
    for key in &v.castling_rooks {
        match kind_of_key(key) {
            Some(k) if k != king && k != pawn => kinds.push(k),
            _ => return Err(mk.err(rook_key, format!("{key} is not a type a king castles with"))),
        }
    }
    // Of several castling types, a castling takes the outermost piece of
    // any of them on its side of the king: xpgn plays one type, the one
    // standing there in the start position.
    let outermost: Vec<PieceKind> = outermost_castling_kinds(size, setup, rights, &kinds);
    let partner = match (outermost.as_slice(), kinds.first()) {
        ([k], _) => *k,
        ([], Some(&k)) => k,
        ([], None) => {
            return Err(mk.err(rook_key, "no type to castle with".into()));
        }
        _ => {
            return Err(mk.err(
                rook_key,
                "xpgn castles with one type of piece; in the start position the outermost pieces of these types are of several".into(),
            ));
        }
    };
    let [ks, qs] = v.castling_files;
    if ks == 0 || ks >= v.max_file || qs + 1 >= v.max_file {
        return Err(mk.err(
            "castlingKingsideFile",
            "the king's castling files leave no room for the rook on the board".into(),
        ));
    }
    if size.files > 11 {
        return Err(mk.err(
            "castling",
            "xpgn's castling toward either rook needs a board of at most 11 files".into(),
        ));
    }
    Ok(Some(FreeCastling {
        king_files: [ks, qs],
        partner_files: [ks - 1, qs + 1],
        partner,
        king_takes_partner: v.chess960,
        colors: rights,
        rule: "R-0-5".into(),
    }))
}

/// Whether xpgn's king piece is the type that castles: Fairy-Stockfish
/// castles with `castlingKingPiece` (the king unless set), so a section
/// whose commoner stands for the king castles only when it names the
/// commoner, and xpgn castles with no other type.
fn king_castles(mk: &Making<'_>) -> Result<bool, DefinitionError> {
    let v = mk.v;
    let present = v.pieces.iter().any(|p| p.key == v.castling_king);
    match king_key(v) {
        Some(king) if king == v.castling_king => Ok(true),
        _ if !present => Ok(false),
        _ => Err(mk.err(
            "castlingKingPiece",
            "xpgn castles with its king piece (the king, or a commoner where there is no king); give its letter".into(),
        )),
    }
}

/// `castlingDroppedPiece`: the castlings a king and a rook dropped on
/// their squares make possible (a placement phase), toward both sides,
/// with the king on file e and the rooks in the corners.
fn dropped_castlings(
    mk: &Making<'_>,
    size: BoardSize,
    kind_of_key: &dyn Fn(&str) -> Option<PieceKind>,
) -> Result<Vec<CastlingDef>, DefinitionError> {
    let v = mk.v;
    if !v.castling || !v.play.castles_from_drops() || !king_castles(mk)? {
        return Ok(Vec::new());
    }
    let partner = v
        .castling_rooks
        .first()
        .and_then(|key| kind_of_key(key))
        .ok_or_else(|| mk.err("castlingDroppedPiece", "no type to castle with".into()))?;
    let [ks, qs] = v.castling_files;
    let top = size.ranks - 1;
    if size.files != 8 {
        return Err(mk.err(
            "castlingDroppedPiece",
            "xpgn castles with dropped pieces on boards of 8 files".into(),
        ));
    }
    let mut out = Vec::new();
    for side in [CastlingSide::Short, CastlingSide::Long] {
        for color in Color::BOTH {
            let rank = if color == Color::White { 0 } else { top };
            let (king_to, corner, partner_to) = match side {
                CastlingSide::Short => (ks, size.files - 1, ks - 1),
                CastlingSide::Long => (qs, 0, qs + 1),
            };
            let corner = Square::new(corner, rank);
            out.push(CastlingDef {
                color,
                side,
                king_from: Square::new(4, rank),
                king_to: Square::new(king_to, rank),
                partner_origin: corner,
                partner_from: corner,
                partner_to: Square::new(partner_to, rank),
                safety: CastlingSafety::KingPath,
                partner_kind: Some(partner),
                rule: "R-0-5".into(),
            });
        }
    }
    Ok(out)
}

/// The types of the outermost pieces of `kinds` on each side of each
/// castling king on its first rank in the start position, without repeats.
fn outermost_castling_kinds(
    size: BoardSize,
    setup: &[(Square, Piece)],
    rights: [bool; 2],
    kinds: &[PieceKind],
) -> Vec<PieceKind> {
    let mut found = Vec::new();
    for (ci, rank) in [0, size.ranks - 1].into_iter().enumerate() {
        let on = |file: u8| {
            setup
                .iter()
                .find(|(sq, p)| sq.rank() == rank && sq.file() == file && p.color.index() == ci)
                .map(|(_, p)| p.kind)
        };
        let Some(king_file) = (0..size.files).find(|&f| on(f) == Some(PieceKind(0))) else {
            continue;
        };
        if !rights[ci] {
            continue;
        }
        let left = (0..king_file).find_map(|f| on(f).filter(|k| kinds.contains(k)));
        let right = (king_file + 1..size.files)
            .rev()
            .find_map(|f| on(f).filter(|k| kinds.contains(k)));
        for k in [left, right].into_iter().flatten() {
            if !found.contains(&k) {
                found.push(k);
            }
        }
    }
    found
}

/// Extinction: only the bare-king rule (Shatranj).
/// The extinction options as xpgn's rules: the bare-king rule, or
/// extinction of the listed types, the extinct side winning or losing.
fn extinction_of(
    mk: &Making<'_>,
    kind_of_key: &dyn Fn(&str) -> Option<PieceKind>,
) -> Result<(BareKing, Option<Extinction>), DefinitionError> {
    let v = mk.v;
    if v.extinction.is_empty()
        || v.extinction
            .iter()
            .any(|(k, val)| k == "extinctionValue" && val == "none")
    {
        return Ok((BareKing::Plays, None));
    }
    let get = |k: &str| {
        v.extinction
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, val)| val.as_str())
    };
    let bare = get("extinctionValue") == Some("loss")
        && get("extinctionPieceTypes") == Some("*")
        && get("extinctionPieceCount") == Some("1")
        && get("extinctionOpponentPieceCount") == Some("2")
        && get("extinctionClaim").is_none_or(|c| c == "true");
    if bare {
        return Ok((BareKing::Loses, None));
    }
    // Extinction proper: a side with no piece of the types left (on the
    // board or in hand) wins or loses.
    let plain = get("extinctionPieceCount").is_none_or(|n| n == "0")
        && get("extinctionOpponentPieceCount").is_none_or(|n| n == "0")
        && get("extinctionClaim").is_none_or(|c| c == "false");
    let extinct_side_wins = match get("extinctionValue") {
        Some("win") => Some(true),
        Some("loss") => Some(false),
        _ => None,
    };
    let kinds = match get("extinctionPieceTypes") {
        Some("*") => Some(u16::MAX),
        Some(types) => piece_set(v, types).ok().and_then(|keys| {
            keys.iter()
                .try_fold(0u16, |set, key| Some(set | 1 << kind_of_key(key)?.index()))
        }),
        None => None,
    };
    match (plain, extinct_side_wins, kinds) {
        (true, Some(extinct_side_wins), Some(kinds)) if kinds != 0 => Ok((
            BareKing::Plays,
            Some(Extinction {
                kinds,
                extinct_side_wins,
                rule: "R-0-3".into(),
            }),
        )),
        _ => Err(mk.err(
            "extinctionValue",
            "xpgn plays extinction as the bare-king rule (extinctionValue = loss, extinctionPieceTypes = *, extinctionPieceCount = 1, extinctionOpponentPieceCount = 2, extinctionClaim = true) or as a side with none of extinctionPieceTypes left winning or losing (extinctionValue = win or loss, no piece counts, no claim)".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_names_read_as_words() {
        assert_eq!(piece_name("dragonHorse"), "Dragon Horse");
        assert_eq!(piece_name("customPiece3"), "Custom piece 3");
        assert_eq!(region_ranks("*8 *10 *9"), Ok(vec![8, 9, 10]));
        assert!(region_ranks("a8").is_err());
        assert_eq!(fsf_betza("fN").unwrap(), "ffN");
        assert_eq!(fsf_betza("mfWcfF").unwrap(), "mfWcfF");
        assert_eq!(fsf_betza("bN").unwrap(), "bbN");
        assert!(fsf_betza("sbN").is_err());
        assert!(fsf_betza("flN").is_err());
    }

    #[test]
    fn piece_options_come_in_fairy_stockfishs_order_of_types() {
        assert!(piece_order("pawn") < piece_order("knight"));
        assert!(piece_order("centaur") < piece_order("customPiece1"));
        assert!(piece_order("customPiece25") < piece_order("king"));
        assert_eq!(piece_order("startFen"), None);
        assert_eq!(piece_order("customPiece26"), None);
    }
}
