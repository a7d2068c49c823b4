//! Fairy-Stockfish's `variants.ini` format: the sections whose rules xpgn
//! can play, read into [`VariantDef`]s (`docs/variants.md`, "Fairy-Stockfish
//! variants.ini").
//!
//! A section starts from Fairy-Stockfish's default template (orthodox
//! rules without pieces), from its built-in `chess`, or from a section
//! earlier in the same file (`[name:parent]`). Every option is either read
//! into the definition, accepted because it cannot change which moves are
//! legal nor how mate and stalemate end a game (R-0-3: draws by rule are
//! recorded, not adjudicated), or refused with the file, the line and the
//! option: a rule xpgn cannot play is never approximated.

use super::file::{DefinitionError, Source, check_compiles, leak, parse_setup_board};
use super::{
    BareKing, FreeCastling, PawnRules, PieceDef, PromotionRule, Role, SourceFormat,
    StalemateOutcome, VariantDef, normalize_name,
};
use crate::rules::geometry::{BoardSize, MAX_SIDE};
use crate::rules::movement::Movement;
use crate::rules::piece::{Piece, PieceKind};

/// Fairy-Stockfish's predefined piece types xpgn plays, with their
/// movement in Betza notation (`None`: the pawn, which moves by the pawn
/// rules).
const PIECES: &[(&str, Option<&str>)] = &[
    ("pawn", None),
    ("knight", Some("N")),
    ("bishop", Some("B")),
    ("rook", Some("R")),
    ("queen", Some("Q")),
    ("fers", Some("F")),
    ("alfil", Some("A")),
    ("fersAlfil", Some("FA")),
    ("silver", Some("FfW")),
    ("aiwok", Some("RNF")),
    ("bers", Some("RF")),
    ("archbishop", Some("BN")),
    ("chancellor", Some("RN")),
    ("amazon", Some("QN")),
    ("knibis", Some("mNcB")),
    ("biskni", Some("mBcN")),
    ("kniroo", Some("mNcR")),
    ("rookni", Some("mRcN")),
    ("shogiPawn", Some("fW")),
    ("lance", Some("fR")),
    ("shogiKnight", Some("ffN")),
    ("gold", Some("WfF")),
    ("dragonHorse", Some("BW")),
    ("clobber", Some("cW")),
    ("breakthrough", Some("fmWfF")),
    ("immobile", Some("")),
    ("soldier", Some("fsW")),
    ("wazir", Some("W")),
    ("commoner", Some("K")),
    ("centaur", Some("KN")),
    ("king", Some("K")),
];

/// Predefined piece types xpgn cannot play: they hop or are lame.
const UNPLAYABLE_PIECES: &[&str] = &[
    "cannon",
    "janggiCannon",
    "horse",
    "elephant",
    "janggiElephant",
    "banner",
    "euroshogiKnight",
];

/// Options that cannot change legality nor how mate and stalemate end a
/// game: a GUI's images and template, engine piece values, and the draw
/// rules, which xpgn records rather than adjudicates (R-0-3).
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
];

/// Options xpgn plays only at one value (Fairy-Stockfish's default, which
/// is xpgn's rule): drops, gating, passing, other win conditions...
const ONLY_AT: &[(&str, &str)] = &[
    ("chess960", "false"),
    ("twoBoards", "false"),
    ("sittuyinPromotion", "false"),
    ("piecePromotionOnCapture", "false"),
    ("mandatoryPiecePromotion", "false"),
    ("pieceDemotion", "false"),
    ("blastOnCapture", "false"),
    ("castlingDroppedPiece", "false"),
    ("castlingRank", "1"),
    ("oppositeCastling", "false"),
    ("checking", "true"),
    ("dropChecks", "true"),
    ("mustCapture", "false"),
    ("mustDrop", "false"),
    ("pieceDrops", "false"),
    ("dropLoop", "false"),
    ("capturesToHand", "false"),
    ("firstRankPawnDrops", "false"),
    ("promotionZonePawnDrops", "false"),
    ("dropOnTop", "false"),
    ("sittuyinRookDrop", "false"),
    ("dropOppositeColoredBishop", "false"),
    ("dropPromoted", "false"),
    ("shogiDoubledPawn", "true"),
    ("gating", "false"),
    ("seirawanGating", "false"),
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
    ("flagMove", "false"),
    ("checkCounting", "false"),
    ("connectN", "0"),
    ("connectNxN", "0"),
    ("collinearN", "0"),
    ("materialCounting", "none"),
    ("countingRule", "none"),
    ("firstRankDoubleSteps", "false"),
    ("stalematePieceCount", "false"),
    ("wallingRule", "none"),
    ("enclosingDrop", "none"),
    ("flipEnclosedPieces", "none"),
];

/// A piece type as a section defines it.
#[derive(Clone, Debug)]
struct IniPiece {
    /// The option that defines it (`archbishop`, `customPiece1`).
    key: String,
    /// Lower-case letter.
    letter: char,
    /// Betza movement; `None` for the pawn.
    betza: Option<String>,
    /// Where it was defined (0: inherited from `chess`).
    line: usize,
}

/// Where a section says which ranks a rule applies to.
#[derive(Clone, Debug, PartialEq)]
enum Ranks {
    /// Not given: Fairy-Stockfish's default, which its versions compute
    /// differently on boards of other than 8 ranks.
    Default,
    /// A rank relative to the mover's side and every rank beyond it
    /// (`promotionRank`), or that rank alone (`doubleStepRank`).
    Relative(u8),
    /// Absolute ranks (1-based) per colour (`...RegionWhite/Black`).
    Regions(Option<Vec<u8>>, Option<Vec<u8>>),
}

/// The rules of a section as Fairy-Stockfish's options set them.
#[derive(Clone, Debug)]
struct IniVariant {
    pieces: Vec<IniPiece>,
    max_rank: u8,
    max_file: u8,
    start_fen: String,
    promotion: Ranks,
    promotion_pieces: String,
    promotion_limit: Vec<(char, u8)>,
    mandatory_promotion: bool,
    double_step: bool,
    double_step_at: Ranks,
    castling: bool,
    castling_files: [u8; 2],
    castling_rook: char,
    stalemate: StalemateOutcome,
    extinction: Vec<(String, String)>,
    immobility_illegal: bool,
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
            promotion_pieces: String::new(),
            promotion_limit: Vec::new(),
            mandatory_promotion: true,
            double_step: true,
            double_step_at: Ranks::Default,
            castling: true,
            castling_files: [6, 2],
            castling_rook: 'r',
            stalemate: StalemateOutcome::Draw,
            extinction: Vec::new(),
            immobility_illegal: false,
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
                betza: predefined(key).flatten().map(String::from),
                line: 0,
            });
        }
        v.promotion_pieces = "qrbn".into();
        v
    }

    fn line_of(&self, key: &str) -> usize {
        self.lines
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map_or(0, |(_, l)| *l)
    }
}

/// The Betza of a predefined piece name: `Some(None)` for the pawn.
fn predefined(key: &str) -> Option<Option<&'static str>> {
    PIECES.iter().find(|(k, _)| *k == key).map(|(_, b)| *b)
}

/// A section as read: header line, name, parent, options and its text.
struct Section<'a> {
    name: &'a str,
    parent: Option<&'a str>,
    line: usize,
    options: Vec<(&'a str, &'a str, usize)>,
    text: &'a str,
}

fn sections<'a>(src: &Source<'a>) -> Result<Vec<Section<'a>>, DefinitionError> {
    let text = src.text;
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
            let Some(header) = header.strip_suffix(']') else {
                return Err(src.err(
                    line_start,
                    "section",
                    format!("`{line}` has no closing `]`"),
                ));
            };
            if let Some(last) = out.last_mut() {
                last.text = &text[start_of_current..line_start];
            }
            start_of_current = line_start;
            let (name, parent) = match header.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim())),
                None => (header.trim(), None),
            };
            if name.is_empty() || normalize_name(name).is_empty() {
                return Err(src.err(line_start, "section", "the section has no name"));
            }
            if let Some(prev) = out.iter().find(|s| s.name == name) {
                return Err(src.err(
                    line_start,
                    &format!("[{name}]"),
                    format!("the section is defined twice (first on line {})", prev.line),
                ));
            }
            out.push(Section {
                name,
                parent,
                line: line_no,
                options: Vec::new(),
                text: "",
            });
            continue;
        }
        let Some(section) = out.last_mut() else {
            // Fairy-Stockfish skips what comes before the first section.
            continue;
        };
        let Some((key, value)) = line.split_once('=') else {
            return Err(src.err(
                line_start,
                &format!("[{}]", section.name),
                format!("`{line}` is not KEY = VALUE"),
            ));
        };
        let (key, value) = (key.trim(), value.trim());
        if let Some(&(_, _, first)) = section.options.iter().find(|(k, _, _)| *k == key) {
            return Err(src.err(
                line_start,
                &format!("[{}] {key}", section.name),
                format!("set twice in the section (first on line {first})"),
            ));
        }
        section.options.push((key, value, line_no));
    }
    if let Some(last) = out.last_mut() {
        last.text = &text[start_of_current..];
    }
    Ok(out)
}

/// Reads the sections of a `variants.ini` file, each a variant named as its
/// section. `file` names it in messages.
///
/// ```
/// let ini = "[gothic:chess]\nmaxFile = 10\ncastlingKingsideFile = i\n\
///            archbishop = a\nchancellor = c\npromotionPieceTypes = acqrbn\n\
///            startFen = rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1\n";
/// let defs = xpgn::rules::load_ini("gothic.ini", ini).unwrap();
/// assert_eq!(defs[0].name, "gothic");
/// assert_eq!(defs[0].size.files, 10);
/// assert!(xpgn::rules::load_ini("x.ini", "[x:chess]\npieceDrops = true\n").is_err());
/// ```
///
/// # Errors
/// The first section, option or value xpgn cannot read or play, naming
/// the file, the line and the option.
pub fn load_ini(file: &str, text: &str) -> Result<Vec<VariantDef>, DefinitionError> {
    let src = Source { file, text };
    let sections = sections(&src)?;
    if sections.is_empty() {
        return Err(src.err(0, "file", "no [section] in the file"));
    }
    let mut states: Vec<(IniVariant, String)> = Vec::new();
    let mut defs = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        let header_at = line_offset(text, s.line);
        let (mut state, mut chain) = match s.parent {
            None => (IniVariant::template(), String::new()),
            Some("chess") => (IniVariant::chess(), String::new()),
            Some(parent) => match sections[..i].iter().position(|p| p.name == parent) {
                Some(p) => states[p].clone(),
                None => {
                    let later = sections[i..].iter().any(|p| p.name == parent);
                    return Err(src.err(
                        header_at,
                        &format!("[{}:{parent}]", s.name),
                        if later {
                            format!("the parent `{parent}` is defined later in the file; Fairy-Stockfish needs it first")
                        } else {
                            format!("no parent `{parent}`: xpgn knows Fairy-Stockfish's built-in `chess` as a parent, and sections earlier in this file")
                        },
                    ));
                }
            },
        };
        for &(key, value, line) in &s.options {
            apply(&src, s.name, &mut state, key, value, line)?;
        }
        chain.push_str(s.text);
        if !chain.ends_with('\n') {
            chain.push('\n');
        }
        let def = to_def(&src, s, header_at, &state, &chain)?;
        defs.push(check_compiles(&src, def)?);
        states.push((state, chain));
    }
    Ok(defs)
}

fn line_offset(text: &str, line: usize) -> usize {
    text.split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum()
}

fn apply(
    src: &Source<'_>,
    section: &str,
    v: &mut IniVariant,
    key: &str,
    value: &str,
    line: usize,
) -> Result<(), DefinitionError> {
    let at = line_offset(src.text, line);
    let field = format!("[{section}] {key}");
    let err = |reason: String| src.err(at, &field, reason);
    let cannot = || {
        err(format!(
            "xpgn cannot play `{key} = {value}`; the section is refused rather than approximated"
        ))
    };
    let boolean = || match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(err(format!("`{value}` is not true or false"))),
    };
    let number = |max: u8| -> Result<u8, DefinitionError> {
        value
            .parse::<u8>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| err(format!("`{value}` is not a number from 1 to {max}")))
    };
    let file_value = || -> Result<u8, DefinitionError> {
        let bad = || {
            err(format!(
                "`{value}` is not a file (a letter or 1 to {MAX_SIDE})"
            ))
        };
        match value.as_bytes() {
            [c] if c.is_ascii_lowercase() => Ok(c - b'a' + 1),
            _ => value.parse::<u8>().map_err(|_| bad()),
        }
        .and_then(|f| {
            if (1..=MAX_SIDE).contains(&f) {
                Ok(f)
            } else {
                Err(bad())
            }
        })
    };
    let letter = || -> Result<char, DefinitionError> {
        let mut cs = value.chars();
        match (cs.next(), cs.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => Ok(c.to_ascii_lowercase()),
            _ => Err(err(format!("`{value}` is not one piece letter"))),
        }
    };
    v.lines.push((key.to_string(), line));

    if IGNORED.contains(&key) {
        return Ok(());
    }
    if let Some(&(_, only)) = ONLY_AT.iter().find(|(k, _)| *k == key) {
        return if value == only { Ok(()) } else { Err(cannot()) };
    }
    if UNPLAYABLE_PIECES.contains(&key) {
        return if value == "-" {
            Ok(())
        } else {
            Err(err(format!(
                "Fairy-Stockfish's {key} hops or is lame; xpgn cannot play it"
            )))
        };
    }
    let custom = key
        .strip_prefix("customPiece")
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|n| (1..=25).contains(n));
    if predefined(key).is_some() || custom.is_some() {
        v.pieces.retain(|p| p.key != key);
        if value == "-" {
            return Ok(());
        }
        let (l, betza) = match value.split_once(':') {
            Some((l, b)) => (l.trim(), Some(b.trim())),
            None => (value, None),
        };
        let mut cs = l.chars();
        let letter = match (cs.next(), cs.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_lowercase(),
            _ => return Err(err(format!("`{l}` is not one piece letter"))),
        };
        let betza = match (predefined(key), betza) {
            (_, Some(b)) if custom.is_some() || key == "king" => Some(fsf_betza(b).map_err(err)?),
            (_, Some(_)) => {
                return Err(err(format!(
                    "{key} moves as Fairy-Stockfish defines it; give other movements with customPieceN = LETTER:BETZA"
                )));
            }
            (Some(b), None) => b.map(String::from),
            (None, None) => {
                return Err(err(format!(
                    "`{value}` is not LETTER:BETZA (`customPiece1 = z:Z`)"
                )));
            }
        };
        if let Some(b) = &betza {
            Movement::from_betza(b).map_err(|e| err(e.to_string()))?;
        }
        v.pieces.push(IniPiece {
            key: key.to_string(),
            letter,
            betza,
            line,
        });
        return Ok(());
    }
    match key {
        "maxRank" => v.max_rank = number(MAX_SIDE)?,
        "maxFile" => v.max_file = file_value()?,
        "startFen" => v.start_fen = value.to_string(),
        "promotionRank" => v.promotion = Ranks::Relative(number(MAX_SIDE)?),
        "promotionRegionWhite"
        | "promotionRegionBlack"
        | "doubleStepRegionWhite"
        | "doubleStepRegionBlack" => {
            let ranks = whole_ranks(value).ok_or_else(|| {
                err(format!(
                    "`{value}` is not a list of whole ranks (`*8 *9`); xpgn's zones are whole ranks"
                ))
            })?;
            let target = if key.starts_with("promotion") {
                &mut v.promotion
            } else {
                &mut v.double_step_at
            };
            let white = key.ends_with("White");
            let (mut w, mut b) = match std::mem::replace(target, Ranks::Default) {
                Ranks::Regions(w, b) => (w, b),
                _ => (None, None),
            };
            if white {
                w = Some(ranks);
            } else {
                b = Some(ranks);
            }
            *target = Ranks::Regions(w, b);
        }
        "promotionPieceTypes" => {
            if value == "-" {
                v.promotion_pieces.clear();
            } else if value.chars().all(|c| c.is_ascii_alphabetic()) {
                v.promotion_pieces = value.to_ascii_lowercase();
            } else {
                return Err(err(format!("`{value}` is not a list of piece letters")));
            }
        }
        "promotionLimit" => {
            v.promotion_limit.clear();
            for item in value.split_whitespace() {
                let parsed = item.split_once(':').and_then(|(l, n)| {
                    let mut cs = l.chars();
                    match (cs.next(), cs.next()) {
                        (Some(c), None) if c.is_ascii_alphabetic() => {
                            Some((c.to_ascii_lowercase(), n.parse::<u8>().ok()?))
                        }
                        _ => None,
                    }
                });
                match parsed {
                    Some(p) => v.promotion_limit.push(p),
                    None => {
                        return Err(err(format!("`{item}` is not LETTER:COUNT (`q:1 r:2`)")));
                    }
                }
            }
        }
        "mandatoryPawnPromotion" => v.mandatory_promotion = boolean()?,
        "immobilityIllegal" => v.immobility_illegal = boolean()?,
        "doubleStep" => v.double_step = boolean()?,
        "doubleStepRank" => v.double_step_at = Ranks::Relative(number(MAX_SIDE)?),
        "castling" => v.castling = boolean()?,
        "castlingKingsideFile" => v.castling_files[0] = file_value()? - 1,
        "castlingQueensideFile" => v.castling_files[1] = file_value()? - 1,
        "castlingRookPiece" | "castlingRookPieces" => v.castling_rook = letter()?,
        "castlingKingPiece" | "kingType" => {
            let l = letter()?;
            if v.pieces.iter().any(|p| p.key == "king" && p.letter != l) {
                return Err(err(
                    "xpgn castles with the king and the king is the royal piece; give the king's letter"
                        .into(),
                ));
            }
        }
        "stalemateValue" => {
            v.stalemate = match value {
                "draw" => StalemateOutcome::Draw,
                "loss" => StalemateOutcome::StalematedLoses,
                "win" => StalemateOutcome::StalematedWins,
                _ => return Err(err(format!("`{value}` is not win, loss or draw"))),
            }
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
            return Err(err(
                "not an option xpgn reads (docs/variants.md lists them); the section is refused rather than approximated".into(),
            ));
        }
    }
    Ok(())
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

/// `*8 *9` -> `[8, 9]`.
fn whole_ranks(value: &str) -> Option<Vec<u8>> {
    let mut out: Vec<u8> = value
        .split_whitespace()
        .map(|t| t.strip_prefix('*')?.parse::<u8>().ok().filter(|&r| r >= 1))
        .collect::<Option<_>>()?;
    out.sort_unstable();
    out.dedup();
    Some(out)
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

fn to_def(
    src: &Source<'_>,
    s: &Section<'_>,
    header_at: usize,
    v: &IniVariant,
    chain: &str,
) -> Result<VariantDef, DefinitionError> {
    let at_option = |key: &str| {
        let line = v.line_of(key);
        if line == 0 {
            header_at
        } else {
            line_offset(src.text, line)
        }
    };
    let err =
        |key: &str, reason: String| src.err(at_option(key), &format!("[{}] {key}", s.name), reason);
    let size = BoardSize::new(v.max_file, v.max_rank);
    let top = v.max_rank;

    // Pieces, the king first as in xpgn's own files.
    let mut ini_pieces = v.pieces.clone();
    ini_pieces.sort_by_key(|p| p.key != "king");
    if ini_pieces.is_empty() || ini_pieces.len() > 15 {
        return Err(err(
            "king",
            format!(
                "xpgn plays 1 to 15 piece types, the section defines {}",
                ini_pieces.len()
            ),
        ));
    }
    for (key, word) in [("king", "king = k"), ("pawn", "pawn = p")] {
        if !ini_pieces.iter().any(|p| p.key == key) {
            return Err(err(
                key,
                format!("xpgn needs a {key} type ({word}); the section defines none"),
            ));
        }
    }
    let mut pieces = Vec::new();
    for p in &ini_pieces {
        if let Some(q) = ini_pieces
            .iter()
            .find(|q| q.letter == p.letter && q.key != p.key)
        {
            let line = p.line.max(q.line);
            return Err(DefinitionError {
                file: src.file.to_string(),
                line: src.line_of(line_offset(src.text, line.max(1))).max(1),
                field: format!(
                    "[{}] {}",
                    s.name,
                    if line == p.line { &p.key } else { &q.key }
                ),
                reason: format!(
                    "the letter {} is used by both {} and {}",
                    p.letter, p.key, q.key
                ),
            });
        }
        let role = match p.key.as_str() {
            "king" => Role::King,
            "pawn" => Role::Pawn,
            _ => Role::Other,
        };
        let movement = match &p.betza {
            None => Movement::none(),
            Some(b) if b.is_empty() => Movement::none(),
            Some(b) => Movement::from_betza(b).map_err(|e| err(&p.key, e.to_string()))?,
        };
        pieces.push(PieceDef {
            name: leak(&piece_name(&p.key)),
            letter: p.letter.to_ascii_uppercase(),
            movement,
            role,
            rule: None,
        });
    }
    let kind_of = |c: char| {
        pieces
            .iter()
            .position(|p| p.letter == c.to_ascii_uppercase())
            .map(|i| PieceKind(i as u8))
    };
    let king = PieceKind(0);
    let pawn = kind_of(
        ini_pieces
            .iter()
            .find(|p| p.key == "pawn")
            .map_or('p', |p| p.letter),
    )
    .unwrap_or(PieceKind(0));

    // Start position.
    let fields: Vec<&str> = v.start_fen.split_whitespace().collect();
    let board_field = fields.first().copied().unwrap_or("");
    let board = parse_setup_board(board_field, size).map_err(|reason| {
        err(
            "startFen",
            format!(
                "does not fit the {}x{} board: {reason}",
                size.files, size.ranks
            ),
        )
    })?;
    let mut setup = Vec::new();
    for (sq, letter, color) in board {
        let kind = kind_of(letter).ok_or_else(|| {
            err(
                "startFen",
                format!("{sq} holds `{letter}`, which is no piece's letter in this section"),
            )
        })?;
        setup.push((sq, Piece { color, kind }));
    }
    if fields.get(1).is_some_and(|&f| f != "w") {
        return Err(err(
            "startFen",
            "xpgn's start positions have White to move".into(),
        ));
    }
    if fields.get(3).is_some_and(|&f| f != "-") {
        return Err(err(
            "startFen",
            "xpgn's start positions have no en passant square".into(),
        ));
    }
    let rights = fields.get(2).copied().unwrap_or("-");

    // Promotion.
    let (promo_white, promo_black) =
        resolve(&v.promotion, top, &[8], &[1], |r| (r..=top).collect());
    if v.promotion == Ranks::Default && top != 8 {
        return Err(err(
            "maxRank",
            format!(
                "the board has {top} ranks and the promotion zone is not given; Fairy-Stockfish's versions differ on its default there (rank 8 and beyond, or rank 8 alone): give promotionRank or promotionRegionWhite and promotionRegionBlack"
            ),
        ));
    }
    let promotion_key = match v.promotion {
        Ranks::Regions(..) => "promotionRegionWhite",
        _ => "promotionRank",
    };
    let mirrored = |w: &[u8]| -> Vec<u8> {
        let mut m: Vec<u8> = w.iter().map(|&r| top + 1 - r).collect();
        m.sort_unstable();
        m
    };
    if promo_white.iter().any(|&r| r > top) || mirrored(&promo_white) != promo_black {
        return Err(err(
            promotion_key,
            "xpgn's promotion zone is the same ranks for both sides, seen from each side, on the board".into(),
        ));
    }
    if !promo_white.contains(&top) {
        return Err(err(
            promotion_key,
            format!(
                "the promotion zone does not reach the last rank ({top}); a pawn there could never move, which xpgn does not play"
            ),
        ));
    }
    let mut choices = Vec::new();
    for c in v.promotion_pieces.chars() {
        match kind_of(c) {
            Some(k) if k != king && k != pawn => choices.push(k),
            _ => {
                return Err(err(
                    "promotionPieceTypes",
                    format!("`{c}` is not the letter of a piece a pawn may become"),
                ));
            }
        }
    }
    if choices.is_empty() {
        return Err(err(
            "promotionPieceTypes",
            "pawns have no type to promote to; xpgn does not play pawns stuck on the last rank"
                .into(),
        ));
    }
    let mut promotion_limits = Vec::new();
    for &(c, n) in &v.promotion_limit {
        match kind_of(c) {
            Some(k) if choices.contains(&k) => promotion_limits.push((k, n)),
            _ => {
                return Err(err(
                    "promotionLimit",
                    format!("`{c}` is not a type pawns promote to"),
                ));
            }
        }
    }
    if !v.mandatory_promotion && !v.immobility_illegal {
        return Err(err(
            "mandatoryPawnPromotion",
            "without immobilityIllegal = true a pawn may stay a pawn on the last rank, which xpgn does not play".into(),
        ));
    }
    if v.immobility_illegal
        && let Some(p) = pieces.iter().find(|p| {
            p.role == Role::Other && (p.movement.is_directional() || p.movement.0.is_empty())
        })
    {
        return Err(err(
            "immobilityIllegal",
            format!(
                "{} could be stuck; xpgn forbids that only for pawns",
                p.name
            ),
        ));
    }

    // Double steps.
    let double_step_ranks = if v.double_step {
        let (w, b) = resolve(&v.double_step_at, top, &[2], &[7], |r| vec![r]);
        if v.double_step_at == Ranks::Default && top != 8 {
            return Err(err(
                "maxRank",
                format!(
                    "the board has {top} ranks and the double-step rank is not given; Fairy-Stockfish's versions differ on its default there: give doubleStepRank or doubleStepRegionWhite and doubleStepRegionBlack"
                ),
            ));
        }
        let key = match v.double_step_at {
            Ranks::Regions(..) => "doubleStepRegionWhite",
            _ => "doubleStepRank",
        };
        if w.iter().any(|&r| r > top) || mirrored(&w) != b {
            return Err(err(
                key,
                "xpgn's double-step ranks are the same for both sides, seen from each side, on the board".into(),
            ));
        }
        w.iter().map(|r| r - 1).collect()
    } else {
        Vec::new()
    };

    // Castling: toward the outermost rook, the king to a fixed file and the
    // rook next to it inside, from wherever they stand on the first rank.
    let free_castling = if v.castling && rights != "-" {
        if rights != "KQkq" {
            return Err(err(
                "startFen",
                format!(
                    "castling rights `{rights}`: xpgn's start positions give both sides both castlings (`KQkq`) or none (`-`)"
                ),
            ));
        }
        let partner = match kind_of(v.castling_rook) {
            Some(k) if k != king && k != pawn => k,
            _ => {
                return Err(err(
                    "castlingRookPiece",
                    format!("`{}` is not the letter of a piece", v.castling_rook),
                ));
            }
        };
        let [ks, qs] = v.castling_files;
        if ks == 0 || ks >= v.max_file || qs + 1 >= v.max_file {
            return Err(err(
                "castlingKingsideFile",
                "the king's castling files leave no room for the rook on the board".into(),
            ));
        }
        if size.files > 11 {
            return Err(err(
                "castling",
                "xpgn's castling toward either rook needs a board of at most 11 files".into(),
            ));
        }
        Some(FreeCastling {
            king_files: [ks, qs],
            partner_files: [ks - 1, qs + 1],
            partner,
            king_takes_partner: false,
            rule: "R-0-5",
        })
    } else {
        None
    };

    // Extinction: only the bare-king rule (Shatranj).
    let bare_king = if v.extinction.is_empty()
        || v.extinction
            .iter()
            .any(|(k, val)| k == "extinctionValue" && val == "none")
    {
        BareKing::Plays
    } else {
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
        if !bare {
            return Err(err(
                "extinctionValue",
                "xpgn plays extinction only as the bare-king rule: extinctionValue = loss, extinctionPieceTypes = *, extinctionPieceCount = 1, extinctionOpponentPieceCount = 2 (extinctionClaim = true)".into(),
            ));
        }
        BareKing::Loses
    };

    Ok(VariantDef {
        name: leak(s.name),
        display_name: leak(s.name),
        aliases: &[],
        size,
        pieces,
        setup,
        pawns: PawnRules {
            double_step_ranks,
            en_passant: true,
            promotion: PromotionRule::Choice(choices),
            promotion_ranks: promo_white.iter().map(|r| r - 1).collect(),
            promotion_mandatory: v.mandatory_promotion,
            promotion_limits,
            rule: "R-0-4",
        },
        castling: Vec::new(),
        special_king_move: None,
        stalemate: v.stalemate,
        free_castling,
        bare_king,
        source: Some(leak(chain)),
        source_format: SourceFormat::Ini,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_names_read_as_words() {
        assert_eq!(piece_name("dragonHorse"), "Dragon Horse");
        assert_eq!(piece_name("customPiece3"), "Custom piece 3");
        assert_eq!(whole_ranks("*8 *10 *9"), Some(vec![8, 9, 10]));
        assert_eq!(whole_ranks("a8"), None);
        assert_eq!(fsf_betza("fN").unwrap(), "ffN");
        assert_eq!(fsf_betza("mfWcfF").unwrap(), "mfWcfF");
        assert_eq!(fsf_betza("bN").unwrap(), "bbN");
        assert!(fsf_betza("sbN").is_err());
        assert!(fsf_betza("flN").is_err());
    }
}
