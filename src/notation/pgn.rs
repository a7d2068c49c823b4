//! One game's text, read in one pass (PGN 1994 plus docs/notation.md) and told
//! to a [`Visitor`] ([`read_with`]); [`read_game`] builds a [`Game`] with
//! one. Productions: `game`, `tag-pair`, `movetext`, `comment`, `nag`,
//! `move-number`, `any-move`, `result`. Each production has one reader,
//! byte by byte, which the splitter (src/notation/reader.rs) shares where
//! it looks at the same text; the lexical ones (white space, comments,
//! tag pairs, words) are the lexer's (src/notation/lexer.rs), which both
//! use. Property tests hold them to the grammar written as nom
//! combinators (tests only).

use std::borrow::Cow;

use super::coord::{CoordMove, coord_move};
use super::diagnostic::{Diagnostic, DiagnosticKind, QUOTE_CHARS};
use super::game::Game;
use super::lexer::{self, LEXEME, Lexeme, is_space_byte};
use super::printable::printable;
use super::san::{
    CheckMark, PlainSan, SAN_BYTES, SAN_MARK, San, marks, plain_san_prefix, san_move,
    suffix_annotation,
};
use super::span::{Location, Locator};
use super::tree::TreeBuilder;
use super::visitor::{At, Flow, MoveSyntax, MoveToken, Visitor};

/// A syntax error in a game's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, found {found}")]
pub struct ParseError {
    /// Where.
    pub at: Location,
    /// What the grammar allows there.
    pub expected: String,
    /// What is there (quoted text or "end of game").
    pub found: String,
}

/// A move as written in any of the three notations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyMove {
    /// Coordinate notation (`g1f3`, `a7a8q`, `g1f3&e8=Q`).
    Coord(CoordMove),
    /// SAN or long algebraic.
    San(San),
    /// A null move (R-0-6).
    Null,
}

/// A move token as [`any_move`] reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The move.
    pub parsed: AnyMove,
    /// `+` / `#` (`++` reads as `+`), if written.
    pub check: Option<CheckMark>,
    /// The suffix annotation as a NAG (1..6), if written.
    pub suffix: Option<u8>,
    /// The length of the move's text without check mark and suffix
    /// annotation.
    pub len: usize,
}

/// Production `null-move` (R-0-6) at the start of `text`: `--`, and the
/// forms other tools write, `Z0`, `0000`, `@@@@`; its length.
#[inline(always)]
fn null_move(text: &[u8]) -> Option<usize> {
    match text {
        [b'-', b'-', ..] | [b'Z', b'0', ..] => Some(2),
        [b'0', b'0', b'0', b'0', ..] | [b'@', b'@', b'@', b'@', ..] => Some(4),
        _ => None,
    }
}

/// Production `any-move`: the whole `token` as a null move, or a
/// coordinate, SAN or long algebraic move, then an optional check mark
/// and suffix annotation (a null move takes no check mark). The one
/// reader of a move: the reader, the splitter (`could_open_movetext`),
/// the replay and [`crate::notation::san::parse_san`] all come here.
///
/// The marks are read from the token's end (`san::marks`); the
/// alternatives are tried on the rest in the grammar's order, and the
/// first whose first bytes it reads decides (`e2e4` is a coordinate
/// move, never the long algebraic pawn move; `0000` a null move). A new
/// form of move is a new alternative here, told apart by its bytes; a
/// drop (`N@f3`) is asked last, after SAN, which never reads an `@`.
#[inline(always)]
pub fn any_move(token: &[u8]) -> Option<MoveText> {
    let (len, check, suffix) = marks(token);
    let body = &token[..len];
    let parsed = if let Some(n) = null_move(body) {
        if n != len || check.is_some() {
            return None;
        }
        AnyMove::Null
    } else if let Some((m, _)) = body
        .get(1)
        .is_some_and(u8::is_ascii_digit)
        .then(|| coord_move(body))
        .flatten()
        .filter(|&(_, n)| n == len)
    {
        // A coordinate move is the whole token; a longer one (`c3b4=F`,
        // a pawn's origin and target with a promotion) is SAN's.
        AnyMove::Coord(m)
    } else if let Some(san) = san_move(body) {
        AnyMove::San(san)
    } else {
        // A drop (`N@f3`, `@e4`: the same in SAN and coordinates,
        // docs/notation.md §13), asked last: it is rare, and no SAN move
        // has an `@`.
        match drop_move(body)? {
            (m, n) if n == len => AnyMove::Coord(m),
            _ => return None,
        }
    };
    Some(MoveText {
        parsed,
        check,
        suffix,
        len,
    })
}

/// A drop at the start of `body`, out of line: [`any_move`] asks it last
/// and seldom, and keeps its own code small.
#[inline(never)]
#[cold]
fn drop_move(body: &[u8]) -> Option<(super::coord::CoordMove, usize)> {
    super::coord::coord_drop(body)
}

/// The whole `token` as one [`any_move`].
#[inline(always)]
pub fn any_move_token(token: &str) -> Option<MoveText> {
    any_move(token.as_bytes())
}

/// [`any_move_token`] out of line, for the paths a token takes when it
/// is no plain move (lower-case castling, a glued result, the splitter's
/// question after a result): the hot path keeps its one inlined copy.
#[inline(never)]
fn any_move_token_cold(token: &str) -> Option<MoveText> {
    any_move_token(token)
}

/// Parses a whole token as `any-move`: the move, check mark and suffix
/// annotation.
pub fn parse_any_move(text: &str) -> Option<(AnyMove, Option<CheckMark>, Option<u8>)> {
    any_move_token(text).map(|m| (m.parsed, m.check, m.suffix))
}

/// Results as real files also write them (docs/notation.md §11), with the marker
/// each means.
const LOOSE_RESULTS: [(&str, &str); 4] = [
    ("1/2", "1/2-1/2"),
    ("½-½", "1/2-1/2"),
    ("½", "1/2-1/2"),
    ("0.5-0.5", "1/2-1/2"),
];

/// Production `result`: the token as a whole result, if it is one, and
/// whether it was written in the standard form. The reader and the
/// splitter (src/notation/reader.rs) both ask it.
#[inline]
pub(crate) fn whole_result(token: &[u8]) -> Option<(&'static str, bool)> {
    // Most tokens are moves: the first byte tells (`½` is 0xC2 0xBD).
    if !matches!(token.first(), Some(b'0' | b'1' | b'*' | 0xC2)) {
        return None;
    }
    result_of(token)
}

/// `whole_result` past its first byte's test.
#[inline(never)]
fn result_of(token: &[u8]) -> Option<(&'static str, bool)> {
    match token {
        b"1-0" => Some(("1-0", true)),
        b"0-1" => Some(("0-1", true)),
        b"1/2-1/2" => Some(("1/2-1/2", true)),
        b"*" => Some(("*", true)),
        _ => LOOSE_RESULTS
            .iter()
            .find(|(written, _)| written.as_bytes() == token)
            .map(|&(_, r)| (r, false)),
    }
}

/// After a draw's half written alone (`1/2`, `½`, the `token`), the
/// bytes of the rest of a draw written with spaces around its dash
/// (` - 1/2`, ` - ½`) at the start of `after`, if they are there: its
/// length. Both halves and the dash stand on one line, the second half
/// followed by white space, a comment, a variation, a tag or the end.
pub(crate) fn spaced_draw_rest(token: &[u8], after: &[u8]) -> Option<usize> {
    let half = |b: &[u8]| b == b"1/2" || b == "½".as_bytes();
    if !half(token) {
        return None;
    }
    let blanks = |from: usize| {
        from + after[from..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
    };
    let dash = blanks(0);
    if dash == 0 || after.get(dash) != Some(&b'-') {
        return None;
    }
    let second = blanks(dash + 1);
    let len = [&b"1/2"[..], "½".as_bytes()]
        .into_iter()
        .find(|h| after[second..].starts_with(h))?
        .len();
    let end = second + len;
    match after.get(end) {
        None => Some(end),
        Some(&b) => matches!(
            LEXEME[usize::from(b)],
            Lexeme::Space
                | Lexeme::BraceComment
                | Lexeme::LineComment
                | Lexeme::OpenVariation
                | Lexeme::CloseVariation
                | Lexeme::TagPair
        )
        .then_some(end),
    }
}

/// Production `tag-pair` at the start of `input` ([`lexer::tag_pair`]):
/// the rest of the input after the `]`, the name and the value, borrowed
/// from the text unless it has escapes.
#[inline(always)]
fn tag_pair(input: &str) -> Option<(&str, (&str, Cow<'_, str>))> {
    let pair = lexer::tag_pair(input.as_bytes())?;
    // Every cut is at an ASCII byte: a character boundary.
    let value = &input[pair.value];
    let value = if pair.escaped {
        Cow::Owned(unescape_tag_value(value))
    } else {
        Cow::Borrowed(value)
    };
    Some((&input[pair.end..], (&input[pair.name], value)))
}

/// A tag value written with escapes: `\"` and `\\` stand for `"` and
/// `\`; a `\` before any other character stays as written.
fn unescape_tag_value(written: &str) -> String {
    let mut value = String::with_capacity(written.len());
    let mut chars = written.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(c @ ('"' | '\\')) => value.push(c),
                Some(c) => {
                    value.push('\\');
                    value.push(c);
                }
                None => value.push('\\'),
            },
            c => value.push(c),
        }
    }
    value
}

/// A tag pair the grammar refuses (unbalanced quotes, stray characters),
/// read as far as it goes (docs/notation.md §11): the bytes it spans
/// ([`lexer::loose_tag_pair_end`]), and the pair, when a name can be
/// read: the value between its first and last quote.
fn loose_tag_pair(input: &str) -> (usize, Option<(String, String)>) {
    let end = lexer::loose_tag_pair_end(input.as_bytes());
    let name = lexer::tag_name(input.as_bytes());
    if name.is_empty() || name.end > end {
        return (end, None);
    }
    let value = input[name.end..end].trim_end_matches(']').trim();
    let value = value.strip_prefix('"').unwrap_or(value);
    let value = value.strip_suffix('"').unwrap_or(value);
    let value = value.replace("\\\"", "\"").replace("\\\\", "\\");
    (
        end,
        Some((input[name].to_string(), value.trim().to_string())),
    )
}

/// A move token in its commonest form, read in one step: a piece's or a
/// pawn's SAN move without promotion ([`plain_san_prefix`]), its marks,
/// then the token's end: the move, its marks, the length of its text and
/// that of the token. Where it answers, the general path
/// ([`Reader::token`]) reads the same token as this move (no move
/// number, result, comma or `e.p.` can be in it), and a property test
/// holds it to that; `None` leaves the token to the general path.
#[inline(always)]
fn plain_move_token(bytes: &[u8]) -> Option<(PlainSan, Marks, usize, usize)> {
    let (san, body) = plain_san_prefix(bytes)?;
    // A pawn's origin written whole (`e2e4`) is a coordinate move to
    // `any_move`, which asks coordinates before SAN.
    if body > 2 && bytes.get(1).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let mut end = body;
    while end < bytes.len() && SAN_BYTES[usize::from(bytes[end])] == SAN_MARK {
        end += 1;
    }
    if end < bytes.len()
        && matches!(
            LEXEME[usize::from(bytes[end])],
            Lexeme::Word | Lexeme::NotAscii
        )
    {
        return None;
    }
    let (len, check, suffix) = marks(&bytes[..end]);
    (len == body).then_some((san, (check, suffix), len, end))
}

/// A move's check mark and suffix annotation.
type Marks = (Option<CheckMark>, Option<u8>);

/// Production `en-passant-mark`: `e.p.`, or `(e.p.)` as some files write
/// it (a bracket that opens no variation), at the start of `text`: its
/// length. `e.p.` glued to its move is taken off the move's token.
fn en_passant_mark(text: &str) -> Option<usize> {
    ["(e.p.)", "e.p."]
        .into_iter()
        .find(|mark| text.starts_with(mark))
        .map(str::len)
}

/// Production `textual-evaluation`: an evaluation written in signs, as
/// annotated files write them in the movetext, and the NAG each stands
/// for (PGN 1994 §10: 14..19 the advantages of White and Black, slight,
/// moderate, decisive).
fn textual_evaluation(token: &str) -> Option<u8> {
    match token {
        "+=" | "+/=" => Some(14),
        "=+" | "=/+" => Some(15),
        "+/-" => Some(16),
        "-/+" => Some(17),
        "+-" => Some(18),
        "-+" => Some(19),
        _ => None,
    }
}

/// Production `loose-castle`: castling in lower case (`o-o`, `o-o-o`), as
/// the same in capitals, which the move readers read.
fn loose_castle(token: &str) -> Option<String> {
    ["o-o-o", "o-o"]
        .into_iter()
        .find(|written| token.starts_with(written))
        .map(|written| written.to_ascii_uppercase() + &token[written.len()..])
}

/// The length of the comment at the start of `text` when it holds a
/// clock and nothing else, in the plain form (`{ [%clk 0:03:00] }`,
/// after nearly every move of an online game): read as the production
/// `comment` reads it (its end is the first `}`), with no diagnostic (the
/// clock is well formed), in one pass over it.
/// `None` for any other comment, which the general reading takes.
fn plain_clock_comment(text: &[u8]) -> Option<usize> {
    let space = |from: usize| {
        from + text[from..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count()
    };
    if text.first() != Some(&b'{') {
        return None;
    }
    let clock = space(1);
    let close = space(clock + super::annotations::plain_clock_len(&text[clock..])?);
    (text.get(close) == Some(&b'}')).then_some(close + 1)
}

/// The text of a comment whose body `body` holds `\}` for its braces.
fn unescape_braces(body: &str) -> String {
    body.replace("\\}", "}")
}

/// Whether the `token` (white space and `{ ( ) ; [` around it) could open
/// a game's movetext as the reader reads it: a move number, a result, a
/// move in any form the reader takes. After a result, a token that could
/// not is text of the game it follows (docs/notation.md §11: `1-0 ff`),
/// not the next game.
pub(crate) fn could_open_movetext(token: &[u8]) -> bool {
    match token.first() {
        None => return false,
        Some(b'0'..=b'9' | b'.' | b'*') => return true,
        _ => {}
    }
    let Ok(token) = std::str::from_utf8(token) else {
        return false;
    };
    if token.starts_with('…') || whole_result(token.as_bytes()).is_some() {
        return true;
    }
    let token = token.strip_suffix(',').unwrap_or(token);
    let token = token.strip_suffix("e.p.").unwrap_or(token);
    any_move_token_cold(token).is_some()
        || loose_castle(token).is_some_and(|c| any_move_token_cold(&c).is_some())
        || ["1/2-1/2", "1-0", "0-1", "*"].iter().any(|r| {
            token
                .strip_suffix(r)
                .is_some_and(|m| !m.is_empty() && any_move_token_cold(m).is_some())
        })
}

struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    index: Locator<'a>,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn at(&self, offset: usize) -> Location {
        self.index.locate(offset)
    }

    fn here(&self, offset: usize) -> At<'_> {
        At::new(offset, &self.index)
    }

    fn error(&self, offset: usize, expected: &str) -> ParseError {
        let rest = &self.text[offset.min(self.text.len())..];
        let token: String = rest
            .chars()
            .take_while(|&c| !c.is_whitespace())
            .take(30)
            .collect();
        ParseError {
            at: self.at(offset),
            expected: expected.to_string(),
            found: if token.is_empty() {
                "end of game".to_string()
            } else {
                format!("`{token}`")
            },
        }
    }

    /// Production `trivia`: white space and `%` escape lines
    /// ([`lexer::space_end`]).
    #[inline(always)]
    fn skip_space(&mut self) {
        self.pos = lexer::space_end(self.text.as_bytes(), self.pos);
    }

    /// Production `comment`: `{...}` or `;` to the end of the line; with
    /// whether a `\}` in it stood for a brace ([`comment_close`]).
    fn comment(&mut self) -> Result<Option<(Cow<'a, str>, bool)>, ParseError> {
        let rest = self.rest();
        match rest.as_bytes().first() {
            Some(b'{') => {
                let body = &rest[1..];
                let Some((end, escaped)) = lexer::comment_close(body.as_bytes()) else {
                    return Err(ParseError {
                        at: self.at(self.pos),
                        expected: "`}` closing this comment".into(),
                        found: "end of game".into(),
                    });
                };
                self.pos += end + 2;
                let text = &body[..end];
                Ok(Some(if escaped {
                    (Cow::Owned(unescape_braces(text)), true)
                } else {
                    (Cow::Borrowed(text), false)
                }))
            }
            Some(b';') => {
                let end = lexer::line_comment_end(rest.as_bytes(), 1);
                self.pos += end;
                Ok(Some((Cow::Borrowed(&rest[1..end]), false)))
            }
            _ => Ok(None),
        }
    }
}

const EXPECTED_MOVETEXT: &str = "a move, move number, comment, NAG, variation `(`...`)` or result (`1-0`, `0-1`, `1/2-1/2`, `*`)";

/// Production `move-number` (`12.`, `12...`, `12…`, `...`, `…`, or
/// digits alone, `12`) as a token's prefix, byte by byte (a move number is
/// glued to its move in half of real games: `12.e4`): its length, 0 where
/// the token starts otherwise. A property test checks it against the
/// grammar.
fn move_number_prefix(token: &str) -> usize {
    let bytes = token.as_bytes();
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let mut end = digits;
    loop {
        match bytes.get(end) {
            Some(b'.') => end += 1,
            // `…`, U+2026.
            Some(0xE2) if bytes[end..].starts_with("…".as_bytes()) => end += 3,
            _ => break,
        }
    }
    if end > digits || digits == bytes.len() {
        end
    } else {
        0
    }
}

/// A move number standing alone at the start of `bytes` (`12.`,
/// `12...`): digits, dots, then white space or the end; its length, 0
/// for any other token. [`Reader::token`] reads such a token as a move
/// number with no move after it and skips it: the reader's fast path
/// for the numbers of the main line.
#[inline(always)]
fn move_number_alone(bytes: &[u8]) -> usize {
    let mut i = 0;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let digits = i;
    while i < bytes.len() && bytes[i] == b'.' {
        i += 1;
    }
    match bytes.get(i) {
        _ if digits == 0 || i == digits => 0,
        Some(&b) if !is_space_byte(b) => 0,
        _ => i,
    }
}

/// Production `nag`, `$` and a number 0..255, at the start of `text` (which starts with `$`), byte by byte:
/// the NAG and its length, or `None` where no number 0..255 follows. A
/// property test checks it against the grammar.
fn nag_prefix(text: &str) -> Option<(u8, usize)> {
    let digits = &text.as_bytes()[1..];
    let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    if n == 0 {
        return None;
    }
    let mut value: u32 = 0;
    for &d in &digits[..n] {
        value = value * 10 + u32::from(d - b'0');
        if value > 255 {
            return None;
        }
    }
    Some((value as u8, 1 + n))
}

/// Parses one game (production `game`): tag pairs, then movetext. A game
/// that breaks the grammar is an error here; [`read_game`] keeps what
/// comes before the fault instead.
///
/// ```
/// use xpgn::notation::pgn::parse_game;
/// let g = parse_game("[White \"A\"]\n\n1. e4 {best} (1. d4 $1) e5 1-0\n", 1).unwrap();
/// assert_eq!(g.tag("White"), Some("A"));
/// assert_eq!(g.moves[0].comments, ["best"]);
/// assert_eq!(g.moves[0].variations[0][0].nags, [1]);
/// assert_eq!(g.result.as_deref(), Some("1-0"));
/// ```
///
/// # Errors
/// The syntax error where the movetext breaks off, with its location.
pub fn parse_game(text: &str, first_line: usize) -> Result<Game, ParseError> {
    let start = Location {
        line: first_line,
        column: 1,
    };
    let mut tree = TreeBuilder::for_text_of(text.len());
    match read_with(text, start, &mut tree) {
        None => Ok(tree.finish()),
        Some(e) => Err(e),
    }
}

/// Reads one game as far as it goes (docs/notation.md §11): tag pairs, then
/// movetext; forms that bend the standard give warnings, and a syntax
/// error ends the movetext, the game keeping its tags and every move
/// before the fault. [`Game::diagnostics`] says what was found.
///
/// ```
/// use xpgn::notation::pgn::read_game;
/// let g = read_game("[White \"A\"]\n1. e4 e5 2. Nf3 ) Nc6 *", 1);
/// assert_eq!((g.tag("White"), g.moves.len()), (Some("A"), 3));
/// assert!(g.broken());
/// ```
pub fn read_game(text: &str, first_line: usize) -> Game {
    read_game_at(
        text,
        Location {
            line: first_line,
            column: 1,
        },
    )
}

/// [`read_game`] for a text whose first byte stands at `start` of its
/// file.
pub fn read_game_at(text: &str, start: Location) -> Game {
    let mut tree = TreeBuilder::for_text_of(text.len());
    read_with(text, start, &mut tree);
    tree.finish()
}

/// Reads one game's text (production `game`) in one pass, telling
/// `visitor` what it finds in text order: tags, moves, comments, NAGs,
/// variations, the result, and the diagnostics (docs/notation.md §11), the
/// syntax error where the movetext breaks off last. Returns that error.
/// `start` is where the text's first byte stands in its file.
pub fn read_with<'t, V: Visitor<'t>>(
    text: &'t str,
    start: Location,
    visitor: &mut V,
) -> Option<ParseError> {
    read_to_end(text, start, visitor).error
}

/// What [`read_to_end`] found besides the syntax error.
#[derive(Debug)]
pub struct GameEnd {
    /// The syntax error where the movetext breaks off, as [`read_with`]
    /// returns it.
    pub error: Option<ParseError>,
    /// The text is one game that ends with its result: tag pairs that are
    /// well formed, with no comment among them, then a movetext read
    /// whole whose result (outside every variation) is followed by white
    /// space alone. The splitter's scan (`reader::Scan`) ends such a game
    /// where its text ends when the next line opens with `[`, so a
    /// game cut there without the scan is cut as the scan would cut it.
    pub ends_at_result: bool,
}

/// [`read_with`], telling also whether the text ends with the game's
/// result ([`GameEnd::ends_at_result`]).
pub fn read_to_end<'t, V: Visitor<'t>>(text: &'t str, start: Location, visitor: &mut V) -> GameEnd {
    let mut reader = Reader {
        c: Cursor {
            text,
            pos: 0,
            index: Locator::starting_at(text, start),
        },
        lines: Vec::new(),
        pending: false,
        skip_from: usize::MAX,
        result_tag: None,
        early_nags: Vec::new(),
        irregular: false,
    };
    reader.read(visitor)
}

/// A line of the movetext being read: whether it has a move yet, and
/// where it opened.
struct OpenLine {
    has_move: bool,
    opened: usize,
}

/// The state [`read_with`] keeps: only what the grammar and the
/// diagnostics need, no tree.
struct Reader<'a> {
    c: Cursor<'a>,
    /// The main line, then the open variations.
    lines: Vec<OpenLine>,
    /// Comments were read where no move precedes them in their line (a
    /// `)` may not follow them).
    pending: bool,
    /// The depth of the outermost variation the visitor skips, or MAX.
    skip_from: usize,
    /// The first `Result` tag's value, for the warning of a movetext
    /// without a result.
    result_tag: Option<Cow<'a, str>>,
    /// NAGs read where no move precedes them in their line (`( $42 1.
    /// d4 )`), and where the first stands: told after the line's first
    /// move.
    early_nags: Vec<(u8, usize)>,
    /// Something was read that the splitter's scan may end a game at
    /// otherwise than at the text's end: a malformed tag pair, a comment
    /// among the tags, text after the result ([`GameEnd::ends_at_result`]).
    irregular: bool,
}

impl<'a> Reader<'a> {
    fn telling(&self) -> bool {
        self.lines.len() < self.skip_from
    }

    fn line(&mut self) -> &mut OpenLine {
        self.lines
            .last_mut()
            .expect("the main line is always there")
    }

    fn read<V: Visitor<'a>>(&mut self, v: &mut V) -> GameEnd {
        self.c.skip_space();
        v.begin_game(self.c.here(self.c.pos));
        self.lines.push(OpenLine {
            has_move: false,
            opened: 0,
        });
        let outcome = self.tag_section(v).and_then(|()| match v.begin_movetext() {
            Flow::Continue => self.movetext(v).map(Some),
            Flow::Skip => Ok(None),
        });
        let ended_with_result = matches!(outcome, Ok(Some(true)));
        let error = match outcome {
            Ok(Some(false)) => {
                let stands = match &self.result_tag {
                    Some(r) => format!("the Result tag's `{}` stands", printable(r, QUOTE_CHARS)),
                    None => "the result is unknown (`*`)".to_string(),
                };
                let at = self.c.at(self.c.text.trim_end().len());
                v.diagnostic(Diagnostic::warning(
                    DiagnosticKind::Result,
                    at,
                    format!("the movetext ends without a result; {stands}"),
                ));
                None
            }
            Ok(_) => None,
            Err(e) => {
                let mut d = Diagnostic::from(&e);
                d.message += "; the game keeps its tags and the moves before this point";
                v.diagnostic(d);
                Some(e)
            }
        };
        v.end_game(self.c.here(self.c.text.len()));
        GameEnd {
            ends_at_result: ended_with_result && error.is_none() && !self.irregular,
            error,
        }
    }

    /// A comment at the cursor, if one is there ([`Cursor::comment`]),
    /// with a warning when `\}` in it stood for a brace.
    fn read_comment<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
    ) -> Result<Option<Cow<'a, str>>, ParseError> {
        let start = self.c.pos;
        let Some((text, escaped)) = self.c.comment()? else {
            return Ok(None);
        };
        if escaped {
            v.diagnostic(Diagnostic::warning(
                DiagnosticKind::Syntax,
                self.c.at(start),
                "`\\}` inside a comment: read as a `}` of the comment's text",
            ));
        }
        // Commands of clocks and engines that cannot be read stay text,
        // with a warning where they stand (R-A-1).
        for bad in super::annotations::malformed(&text) {
            let at = if escaped {
                start
            } else {
                start + 1 + bad.offset
            };
            v.diagnostic(Diagnostic::warning(
                DiagnosticKind::Annotation,
                self.c.at(at),
                bad.message(),
            ));
        }
        Ok(Some(text))
    }

    /// Production `tag-section`: tag pairs and the comments among them. A
    /// malformed pair is read as far as it goes, with a warning.
    #[inline(never)]
    fn tag_section<V: Visitor<'a>>(&mut self, v: &mut V) -> Result<(), ParseError> {
        loop {
            self.c.skip_space();
            let start = self.c.pos;
            let rest = self.c.rest();
            if rest.starts_with('[') {
                match tag_pair(rest) {
                    Some((after, (name, value))) => {
                        v.tag(name, &value, self.c.here(start));
                        if name == "Result" && self.result_tag.is_none() {
                            self.result_tag = Some(value);
                        }
                        self.c.pos = self.c.text.len() - after.len();
                    }
                    None => {
                        self.irregular = true;
                        let (len, pair) = loose_tag_pair(rest);
                        let written = printable(&rest[..len], QUOTE_CHARS).into_owned();
                        let message = match &pair {
                            Some((n, value)) => format!(
                                "malformed tag pair `{written}` (a tag pair is `[Name \"value\"]`, with `\\\"` inside the value): read as {n} = \"{}\"",
                                printable(value, QUOTE_CHARS)
                            ),
                            None => {
                                format!("unreadable tag pair `{written}` (no tag name): left out")
                            }
                        };
                        v.diagnostic(Diagnostic::warning(
                            DiagnosticKind::Tag,
                            self.c.at(start),
                            message,
                        ));
                        if let Some((name, value)) = pair {
                            v.tag(&name, &value, self.c.here(start));
                            if name == "Result" && self.result_tag.is_none() {
                                self.result_tag = Some(Cow::Owned(value));
                            }
                        }
                        self.c.pos += len;
                    }
                }
            } else if let Some(comment) = self.read_comment(v)? {
                // A comment among the tags may run over a line that the
                // splitter takes for the next game's first.
                self.irregular = true;
                self.pending = true;
                v.comment(&comment);
            } else {
                return Ok(());
            }
        }
    }

    /// Production `movetext`: moves, move numbers, comments, NAGs,
    /// variations, then the result. Returns whether a result was read.
    /// Out of line, as is the tag section (a call a game): profiles then
    /// tell the reading of tags from that of moves.
    #[inline(never)]
    fn movetext<V: Visitor<'a>>(&mut self, v: &mut V) -> Result<bool, ParseError> {
        loop {
            self.c.skip_space();
            let start = self.c.pos;
            let rest = self.c.rest();
            let Some(&first) = rest.as_bytes().first() else {
                break;
            };
            // White space is behind: a byte outside ASCII starts a word.
            match LEXEME[usize::from(first)] {
                Lexeme::BraceComment | Lexeme::LineComment => {
                    let comment = match plain_clock_comment(rest.as_bytes()) {
                        Some(len) => {
                            self.c.pos += len;
                            Some(Cow::Borrowed(&rest[1..len - 1]))
                        }
                        None => self.read_comment(v)?,
                    };
                    if let Some(comment) = comment {
                        let has_move = self.line().has_move;
                        self.pending |= !has_move;
                        if self.telling() {
                            v.comment(&comment);
                        }
                    }
                }
                Lexeme::OpenVariation => self.open_variation(v, start, rest)?,
                Lexeme::CloseVariation => self.close_variation(v, start)?,
                Lexeme::StrayBrace => {
                    // A comment's end with no comment open: the text
                    // around it stands as it is.
                    v.diagnostic(Diagnostic::warning(
                        DiagnosticKind::Syntax,
                        self.c.at(start),
                        "a `}` outside any comment: skipped",
                    ));
                    self.c.pos += 1;
                }
                Lexeme::Nag => self.nag_token(v, start, rest)?,
                Lexeme::Word if first.is_ascii_digit() => {
                    // `12.` standing alone, half the tokens of a game:
                    // skipped as `token` skips it, without asking
                    // whether it is a result or holds a move.
                    match move_number_alone(rest.as_bytes()) {
                        0 => {
                            if self.token(v, start, rest)? {
                                return Ok(true);
                            }
                        }
                        n => self.c.pos += n,
                    }
                }
                _ => match plain_move_token(rest.as_bytes()) {
                    Some((san, marks, len, token_len)) => {
                        let syntax = MoveSyntax::Plain(san);
                        self.tell_move(v, start, &rest[..len], (syntax, marks), token_len);
                    }
                    None => {
                        if self.token(v, start, rest)? {
                            return Ok(true);
                        }
                    }
                },
            }
        }
        self.no_early_nags()?;
        if self.lines.len() > 1 {
            let opened = self.line().opened;
            return Err(self.c.error(opened, "`)` closing this variation"));
        }
        Ok(false)
    }

    /// A `(` at `start`: a variation opens, or `(e.p.)`, the en passant
    /// mark in brackets.
    #[inline]
    fn open_variation<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
        start: usize,
        rest: &str,
    ) -> Result<(), ParseError> {
        if let Some(len) = en_passant_mark(rest).filter(|&len| len == 6) {
            v.diagnostic(Diagnostic::warning(
                DiagnosticKind::Syntax,
                self.c.at(start),
                "`(e.p.)` read as the en passant mark, not a variation",
            ));
            self.c.pos += len;
            return Ok(());
        }
        // An empty variation, `( )`, as some editors leave one: nothing to
        // read, skipped with a warning (docs/notation.md §11).
        let inside = rest[1..].trim_start_matches([' ', '\t', '\r', '\n']);
        if inside.starts_with(')') {
            v.diagnostic(Diagnostic::warning(
                DiagnosticKind::Syntax,
                self.c.at(start),
                "an empty variation `( )`: skipped",
            ));
            self.c.pos += rest.len() - inside.len() + 1;
            return Ok(());
        }
        if !self.line().has_move {
            return Err(self.c.error(start, "a move before a variation `(`"));
        }
        let told = self.telling();
        self.lines.push(OpenLine {
            has_move: false,
            opened: start,
        });
        if told && v.begin_variation() == Flow::Skip {
            self.skip_from = self.lines.len();
        }
        self.c.pos += 1;
        Ok(())
    }

    /// A `)` at `start`: the open variation closes.
    #[inline]
    fn close_variation<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
        start: usize,
    ) -> Result<(), ParseError> {
        if self.lines.len() == 1 {
            return Err(self.c.error(
                start,
                "a move, comment or result (a `)` closes a variation, and none is open)",
            ));
        }
        if !self.line().has_move {
            let opened = self.line().opened;
            return Err(self.c.error(opened, "a move inside the variation"));
        }
        if self.pending {
            return Err(self.c.error(start, "a move after the comment"));
        }
        let depth = self.lines.len();
        self.lines.pop();
        if depth == self.skip_from {
            self.skip_from = usize::MAX;
        } else if self.telling() {
            v.end_variation(self.c.here(start));
        }
        self.c.pos += 1;
        Ok(())
    }

    /// A NAG `$n` at `start`; before its line's first move (`( $42 1. d4
    /// )`) it is that move's, told after it.
    #[inline]
    fn nag_token<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
        start: usize,
        rest: &str,
    ) -> Result<(), ParseError> {
        let Some((n, len)) = nag_prefix(rest) else {
            return Err(self.c.error(start, "a NAG `$` followed by a number 0..255"));
        };
        if !self.line().has_move {
            v.diagnostic(Diagnostic::warning(
                DiagnosticKind::Syntax,
                self.c.at(start),
                format!("`${n}` before the first move of its line: read as that move's NAG"),
            ));
            self.early_nags.push((n, start));
        } else if self.telling() {
            v.nag(n);
        }
        self.c.pos += len;
        Ok(())
    }

    /// The token at `start`: a result (which ends the movetext: `true`),
    /// a move with or without its number, or an annotation token.
    #[inline]
    fn token<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
        start: usize,
        rest: &'a str,
    ) -> Result<bool, ParseError> {
        let token_len = lexer::word_end(rest.as_bytes(), 0);
        let token = &rest[..token_len];
        if token.is_empty() {
            return Err(self.c.error(start, EXPECTED_MOVETEXT));
        }
        if let Some((result, standard)) = whole_result(token.as_bytes()) {
            self.no_early_nags()?;
            // `1/2 - 1/2`: the whole of it is the result.
            let written = match spaced_draw_rest(token.as_bytes(), &rest.as_bytes()[token_len..]) {
                Some(more) => &rest[..token_len + more],
                None => token,
            };
            return self
                .result(v, start, written, result, standard)
                .map(|()| true);
        }
        // Move numbers in every form, alone or glued to their move.
        let number = if token == "0000" {
            0
        } else {
            move_number_prefix(token)
        };
        let move_text = &token[number..];
        if move_text.is_empty() || en_passant_mark(move_text) == Some(move_text.len()) {
            self.c.pos += token_len;
            return Ok(false);
        }
        self.move_token(v, start + number, move_text, number, token_len)?;
        Ok(false)
    }

    /// The move `written` at `at` (after a move number of `number` bytes,
    /// in a token of `token_len`), with the forms around it some files
    /// write: a `,` after it, `e.p.` glued to it, a result glued to it.
    #[inline]
    fn move_token<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
        at: usize,
        written: &'a str,
        number: usize,
        token_len: usize,
    ) -> Result<(), ParseError> {
        // `Bxe7,`: a comma some files write between moves.
        let (move_text, comma) = match written.strip_suffix(',') {
            Some(m) if !m.is_empty() => (m, true),
            _ => (written, false),
        };
        // `exd6e.p.`: the mark says what the move shows.
        let move_text = move_text.strip_suffix("e.p.").unwrap_or(move_text);
        let (read, move_text, consumed) = match self.move_in(v, at, move_text) {
            Some(read) => (read, move_text, token_len),
            // `h6*`: the result glued to the last move; the result is
            // read as the next token.
            None => match self.move_before_glued_result(v, at, move_text) {
                Some((read, cut)) => (read, &move_text[..cut], number + cut),
                None => {
                    if self.annotation_token(v, at, written) {
                        self.c.pos += token_len;
                        return Ok(());
                    }
                    return Err(self.c.error(at, EXPECTED_MOVETEXT));
                }
            },
        };
        if comma {
            v.diagnostic(Diagnostic::warning(
                DiagnosticKind::Syntax,
                self.c.at(at),
                format!(
                    "a `,` after the move `{}`: dropped",
                    printable(move_text, QUOTE_CHARS)
                ),
            ));
        }
        let text = &move_text[..read.len];
        let read = (MoveSyntax::Read(read.parsed), (read.check, read.suffix));
        self.tell_move(v, at, text, read, consumed);
        Ok(())
    }

    /// The move `read` (its syntax and marks), written `text` at `at`, is
    /// the current line's next: told, with the NAGs read before it, and
    /// `consumed` bytes read past.
    #[inline(always)]
    fn tell_move<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
        at: usize,
        text: &'a str,
        (parsed, (check, suffix)): (MoveSyntax, Marks),
        consumed: usize,
    ) {
        self.pending = false;
        self.line().has_move = true;
        if self.telling() {
            v.move_token(MoveToken {
                text,
                parsed,
                check,
                suffix,
                at: self.c.here(at),
            });
            for (n, _) in self.early_nags.drain(..) {
                v.nag(n);
            }
        }
        self.early_nags.clear();
        self.c.pos += consumed;
    }

    /// The error for NAGs read before a line's first move when the line
    /// ends without one.
    fn no_early_nags(&self) -> Result<(), ParseError> {
        match self.early_nags.first() {
            Some(&(_, at)) => Err(self.c.error(at, "a move after the NAG")),
            None => Ok(()),
        }
    }

    /// A token after a move that annotates it: a suffix annotation (`!?`)
    /// standing alone, or an evaluation in signs (`+/-`, with a warning),
    /// told as its NAG. False (nothing told) for any other token, or where
    /// no move precedes in the line.
    fn annotation_token<V: Visitor<'a>>(&mut self, v: &mut V, at: usize, token: &str) -> bool {
        if !self.line().has_move {
            return false;
        }
        let nag = match suffix_annotation(token.as_bytes()) {
            Some((n, len)) if len == token.len() => n,
            _ => {
                let Some(n) = textual_evaluation(token) else {
                    return false;
                };
                v.diagnostic(Diagnostic::warning(
                    DiagnosticKind::Syntax,
                    self.c.at(at),
                    format!("evaluation written `{token}`: read as NAG ${n}"),
                ));
                n
            }
        };
        if self.telling() {
            v.nag(nag);
        }
        true
    }

    /// The move `token` at `at` as [`any_move_token`] reads it, or
    /// castling in lower case (`o-o`, with a warning).
    fn move_in<V: Visitor<'a>>(&mut self, v: &mut V, at: usize, token: &str) -> Option<MoveText> {
        if let Some(read) = any_move_token(token) {
            return Some(read);
        }
        let castle = loose_castle(token)?;
        let read = any_move_token_cold(&castle)?;
        v.diagnostic(Diagnostic::warning(
            DiagnosticKind::Syntax,
            self.c.at(at),
            format!(
                "castling written `{}` in lower case: read as {}",
                printable(token, QUOTE_CHARS),
                &castle[..read.len]
            ),
        ));
        Some(read)
    }

    /// A move with a result glued to its end (`h6*`, `Qxf7#1-0`): the move,
    /// with a warning, and the length of its text; the result is left to
    /// be read as the next token. `None` when `token` is no such pair.
    fn move_before_glued_result<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
        at: usize,
        token: &str,
    ) -> Option<(MoveText, usize)> {
        let cut = ["1/2-1/2", "1-0", "0-1", "*"]
            .iter()
            .find_map(|r| token.strip_suffix(r).map(str::len))
            .filter(|&cut| cut > 0)?;
        let read = any_move_token_cold(&token[..cut])?;
        v.diagnostic(Diagnostic::warning(
            DiagnosticKind::Syntax,
            self.c.at(at),
            format!(
                "the result is glued to the move in `{}`: read as the move, then the result",
                printable(token, QUOTE_CHARS)
            ),
        ));
        Some((read, cut))
    }

    /// The result `token` at `start`, the comments after it, and a warning
    /// for any text after them (not read).
    fn result<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
        start: usize,
        token: &str,
        result: &'static str,
        standard: bool,
    ) -> Result<(), ParseError> {
        if self.lines.len() > 1 {
            let opened = self.line().opened;
            let opened = self.c.at(opened);
            return Err(self.c.error(
                start,
                &format!(
                    "`)` closing the variation opened at line {}, column {}, before the result",
                    opened.line, opened.column
                ),
            ));
        }
        if !standard {
            v.diagnostic(Diagnostic::warning(
                DiagnosticKind::Result,
                self.c.at(start),
                format!("result written `{token}`: read as {result}"),
            ));
        }
        v.result(result);
        self.c.pos += token.len();
        loop {
            self.c.skip_space();
            match self.read_comment(v)? {
                Some(comment) => {
                    self.irregular = true;
                    v.comment(&comment);
                }
                None => break,
            }
        }
        // `1-0 ff`: what follows is kept as a comment after the result.
        let after = self.c.rest().trim_end();
        if !after.is_empty() {
            self.irregular = true;
            let quoted: String = after.chars().take(QUOTE_CHARS).collect();
            v.diagnostic(Diagnostic::warning(
                DiagnosticKind::Syntax,
                self.c.at(self.c.pos),
                format!(
                    "text after the result, `{}`: kept as a comment after it",
                    printable(&quoted, QUOTE_CHARS)
                ),
            ));
            v.comment(after);
        }
        self.c.pos = self.c.text.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::nom_grammar;
    use super::*;
    use crate::rules::CastlingSide;
    use proptest::prelude::*;

    /// Comment texts near the plain clock form: its pieces, and those
    /// that make it something else.
    const CLOCK_PIECES: [&str; 14] = [
        "{", "}", " ", "[%clk ", "[%emt ", "0", "5", "9", ":", ".", "]", "\\", "x", "\n",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5_000))]

        /// A comment the plain clock reading takes is read by the
        /// general one to the same end, unescaped, with no warning.
        #[test]
        fn a_plain_clock_comment_reads_as_the_general_reading_has_it(
            picks in proptest::collection::vec(0..CLOCK_PIECES.len(), 0..16),
            plain in any::<bool>(),
        ) {
            let mut text = String::new();
            if plain {
                text.push_str("{ [%clk 0:15:00");
            }
            for i in picks {
                text.push_str(CLOCK_PIECES[i]);
            }
            if let Some(len) = plain_clock_comment(text.as_bytes()) {
                let (end, escaped) = lexer::comment_close(&text.as_bytes()[1..]).unwrap();
                prop_assert_eq!(end + 2, len, "{:?}", text);
                prop_assert!(!escaped);
                prop_assert!(super::super::annotations::malformed(&text[1..len - 1]).is_empty());
            }
        }
    }

    #[test]
    fn the_clock_comments_of_online_games_are_plain() {
        assert_eq!(plain_clock_comment(b"{ [%clk 0:15:00] } d5"), Some(18));
        assert_eq!(plain_clock_comment(b"{[%clk 12:01:02.5]}"), Some(19));
        assert_eq!(plain_clock_comment(b"{ [%clk 0:15:00] [%eval 0.2] }"), None);
        assert_eq!(plain_clock_comment(b"{ [%clk 0:75:00] }"), None);
        assert_eq!(plain_clock_comment(b"{ a }"), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// The move reader reads every token as the grammar's productions,
        /// written as nom combinators, read it; the length of the move's
        /// text leaves out check mark and suffix annotation.
        #[test]
        fn moves_read_as_the_grammar_reads_them(
            token in "[KQRBNO0Z@]?[a-hp]?[0-9]{0,2}[x-]?[a-iq]?[0-9]{0,2}(=?[QNOoa&])?([&][a-e][0-9]{1,2}=?[QqN]?)?[+#]{0,2}[!?]{0,3}",
            noise in "[KQRBNO0oa-eqxXZ@=+#!?&.-]{1,8}",
        ) {
            for t in [&token, &noise] {
                let read = any_move_token(t);
                let by_grammar = nom_grammar::parse_any_move(t);
                prop_assert_eq!(
                    read.as_ref().map(|m| (m.parsed.clone(), m.check, m.suffix)),
                    by_grammar,
                    "{}", t
                );
                if let Some(m) = read {
                    prop_assert_eq!(m.len, t.trim_end_matches(['!', '?']).trim_end_matches(['+', '#']).len());
                }
                let coord = crate::notation::coord::parse_coord(t).ok();
                prop_assert_eq!(coord, nom_grammar::parse_coord(t), "{}", t);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5_000))]

        /// The byte readers of move numbers, NAGs and results answer as
        /// the grammar's productions do.
        #[test]
        fn byte_readers_of_numbers_nags_and_results_agree_with_the_grammar(
            token in "[0-9]{0,3}[.…]{0,4}[a-hKQRBNO0x1-8+#!?]{0,4}",
            dollar in "[$][0-9]{0,5}[a-h ]?",
            result in "[-0-9./*½]{1,8}",
        ) {
            // Digits alone are a move number only as a whole token.
            let by_grammar = match nom_grammar::move_number(&token) {
                Ok((rest, number)) if rest.is_empty() || number.ends_with(['.', '…']) => {
                    number.len()
                }
                _ => 0,
            };
            prop_assert_eq!(move_number_prefix(&token), by_grammar, "{}", token);
            let by_grammar = nom_grammar::nag(&dollar)
                .ok()
                .map(|(rest, n)| (n, dollar.len() - rest.len()));
            prop_assert_eq!(nag_prefix(&dollar), by_grammar, "{}", dollar);
            let standard = nom_grammar::result_marker(&result).ok().filter(|(rest, _)| rest.is_empty()).map(|(_, r)| r);
            let fast = whole_result(result.as_bytes());
            prop_assert_eq!(fast.filter(|(_, s)| *s).map(|(r, _)| r), standard, "{}", result);
        }
    }

    proptest! {
        /// The fast path of lone move numbers takes exactly the tokens
        /// the general path (`Reader::token`) reads as a move number
        /// with nothing after it: a whole token, no result, all number.
        #[test]
        fn a_lone_move_number_is_what_the_token_reader_skips(
            text in "[0-9]{0,3}[.…]{0,3}[-0-9a-h/½*.]{0,3}[ \t\n\r{}()$;]?[a-h1-8 ]{0,2}",
        ) {
            let n = move_number_alone(text.as_bytes());
            let token = &text[..lexer::word_end(text.as_bytes(), 0)];
            let skipped = !token.is_empty()
                && whole_result(token.as_bytes()).is_none()
                && token != "0000"
                && move_number_prefix(token) == token.len();
            // Digits then dots, then white space or the end: the shape
            // the fast path must take.
            let digits = token.bytes().take_while(u8::is_ascii_digit).count();
            let starts_plainly = digits > 0
                && token.len() > digits
                && token[digits..].bytes().all(|b| b == b'.')
                && text.as_bytes().get(token.len()).is_none_or(|&b| is_space_byte(b));
            if n > 0 {
                prop_assert!(skipped && n == token.len(), "{:?}", text);
            } else {
                prop_assert!(!(skipped && starts_plainly), "{:?}", text);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Where the fast path reads a move token, the general path
        /// (`Reader::token`) reads that token, as long, as that move:
        /// no result, move number, comma or `e.p.` in it, and
        /// `any_move` reads it the same.
        #[test]
        fn a_plain_move_token_is_what_the_token_reader_reads(
            text in "([KQRBNOZ]?[a-px]{0,2}[0-9]{0,2}x?[a-p][0-9]{1,2}[-+#!?=QN/&@.,]{0,3}|[KQRBNOZa-px0-9+#!?=/&@.,e-]{1,7})[ \\t\\n{}()$;\\\"½]?[a-h ]{0,2}",
        ) {
            let Some((san, (check, suffix), len, n)) = plain_move_token(text.as_bytes()) else {
                return Ok(());
            };
            let read = MoveText { parsed: AnyMove::San(san.san()), check, suffix, len };
            let token = &text[..lexer::word_end(text.as_bytes(), 0)];
            prop_assert_eq!(n, token.len(), "{:?}", text);
            prop_assert!(whole_result(token.as_bytes()).is_none(), "{:?}", text);
            prop_assert_eq!(move_number_prefix(token), 0, "{:?}", text);
            prop_assert!(en_passant_mark(token).is_none(), "{:?}", text);
            prop_assert!(!token.ends_with(',') && !token.ends_with("e.p."), "{:?}", text);
            prop_assert_eq!(any_move_token(token), Some(read), "{:?}", text);
        }
    }

    #[test]
    fn the_fast_path_reads_the_usual_moves_and_leaves_the_rest() {
        for (text, len) in [
            ("e4 e5", 2),
            ("Nf3", 3),
            ("exd5+ {", 5),
            ("Qxe7#)", 5),
            ("Rae1!? $1", 6),
            ("Nbd7??", 6),
            ("Qh4xe1", 6),
            ("Ng1", 3),
        ] {
            let (san, (check, suffix), text_len, n) =
                plain_move_token(text.as_bytes()).expect(text);
            let read = MoveText {
                parsed: AnyMove::San(san.san()),
                check,
                suffix,
                len: text_len,
            };
            assert_eq!((n, Some(read)), (len, any_move_token(&text[..len])));
        }
        // Coordinates, castling, promotions, gating, waiting pawns,
        // drops, glued results and commas, two-digit ranks, `e.p.`, a
        // no-break space, an evaluation glued on.
        for text in [
            "e2e4",
            "O-O",
            "e8=Q",
            "e8Q",
            "Nf3/H",
            "e7&e8=Q",
            "N@f3",
            "h6*",
            "Bxe7,",
            "a10",
            "exd6e.p.",
            "Nf3\u{a0}",
            "Z0",
            "e4+-",
        ] {
            assert!(plain_move_token(text.as_bytes()).is_none(), "{text}");
        }
    }

    #[test]
    fn a_lone_move_number_is_read_up_to_white_space_or_the_end() {
        assert_eq!(move_number_alone(b"12. e4"), 3);
        assert_eq!(move_number_alone(b"12...\ne5"), 5);
        assert_eq!(move_number_alone(b"3."), 2);
        // Glued to its move, or no number at all: the general path.
        for token in ["12.e4", "12", "1-0", "0.5-0.5", "1.{", "...", "12…", ". 12"] {
            assert_eq!(move_number_alone(token.as_bytes()), 0, "{token}");
        }
    }

    #[test]
    fn moves_of_every_form_read_as_the_grammar_reads_them() {
        for token in [
            "e4",
            "exd5",
            "Nf3",
            "Nbd7",
            "R1e2",
            "Qh4+",
            "e8=Q",
            "e8Q",
            "Qxf7#",
            "Nf3!?",
            "Rxe1+?",
            "xe4",
            "Qh4xe1",
            "b1=N+",
            "Qh4e1",
            "Qh4xe1+",
            "e8=Q#",
            "bxa1=N",
            "O-O",
            "O-O-O+",
            "0-0",
            "Kxl8",
            "Nf3!",
            "e4?!",
            "Rd10",
            "a16=R",
            "Nxe4!!",
            "e2e4",
            "a7a8q",
            "e7e8&e8=Q",
            "e4&e8=Q",
            "e2-e4",
            "Nf3++",
            "d8=q",
            "O-O&e8=Q",
            "--",
            "Z0",
            "0000",
            "@@@@",
            "--!",
            "g1f3+!",
            "Ra10",
            "e9e10",
            // A pawn's origin and target with a promotion: SAN (R-SI-2).
            "c3b4=F",
            "e2e4=Q",
            "Nf3/H",
            "Nxe4/E+",
            "O-O/Ee1",
        ] {
            let read = any_move_token(token);
            assert!(read.is_some(), "{token}");
            let read = read.map(|m| (m.parsed, m.check, m.suffix));
            assert_eq!(read, nom_grammar::parse_any_move(token), "{token}");
        }
        for token in [
            "e2-e4e", "e0", "e17", "e4!!!", "Qe8=", "--+", "O-O-O-O", "Z0#", "e4&e8", "", "O-O/E",
            "Nf3/He1",
        ] {
            assert_eq!(any_move_token(token), None, "{token}");
            assert_eq!(nom_grammar::parse_any_move(token), None, "{token}");
        }
    }

    #[test]
    fn byte_readers_read_the_forms_of_real_files() {
        for (token, len) in [
            ("12.e4", 3),
            ("12...Nf6", 5),
            ("12…Nf6", 5),
            ("…Nf6", 3),
            ("...", 3),
            ("12", 2),
            ("e4", 0),
            ("1-0", 0),
        ] {
            assert_eq!(move_number_prefix(token), len, "{token}");
        }
        assert_eq!(nag_prefix("$14 "), Some((14, 3)));
        assert_eq!(nag_prefix("$256"), None);
        assert_eq!(nag_prefix("$"), None);
        assert_eq!(whole_result("1/2-1/2".as_bytes()), Some(("1/2-1/2", true)));
        assert_eq!(whole_result("½-½".as_bytes()), Some(("1/2-1/2", false)));
        assert_eq!(whole_result("+/-".as_bytes()), None);
        assert_eq!(whole_result("12.e4".as_bytes()), None);
        for (tag, name, value) in [
            (
                "[Event \"F/S Return Match\"]\n1. e4",
                "Event",
                "F/S Return Match",
            ),
            ("[Event  \"x\"]", "Event", "x"),
            ("[Event \"a \\\"b\\\"\"]", "Event", "a \"b\""),
            ("[ Event \"x\"]", "Event", "x"),
            ("[Event \"x\" ]", "Event", "x"),
            ("[Event\u{a0}\"x\"\u{2003}]", "Event", "x"),
            ("[Event \"C:\\q\"]", "Event", "C:\\q"),
        ] {
            let read = tag_pair(tag);
            assert_eq!(
                read.as_ref().map(|(_, (n, v))| (*n, v.as_ref())),
                Some((name, value)),
                "{tag}"
            );
            assert_eq!(read, nom_grammar::tag_pair(tag).ok(), "{tag}");
        }
        for bad in ["[Event \"x\"", "[\"x\"]", "[Event x]", "[Event \"x\" y]"] {
            assert_eq!(tag_pair(bad), None, "{bad}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5_000))]

        /// The reader of `tag-pair` reads as the grammar's production,
        /// written as a nom combinator, reads.
        #[test]
        fn tag_pairs_read_as_the_grammar_reads_them(
            text in "\\[[ \u{a0}]?[A-Za-z_0-9]{0,4}[ \t\u{2003}]{0,2}\"[a-z \\\\\"é\\]]{0,6}\"?[ ]?\\]?[ a-z]{0,2}",
        ) {
            prop_assert_eq!(tag_pair(&text), nom_grammar::tag_pair(&text).ok(), "{}", text);
        }
    }

    #[test]
    fn tags_with_escapes() {
        let g = parse_game(r#"[Event "A \"quoted\" \\ name"] [Site "x"] *"#, 1).unwrap();
        assert_eq!(g.tags[0], ("Event".into(), r#"A "quoted" \ name"#.into()));
        assert_eq!(g.tag("Site"), Some("x"));
    }

    #[test]
    fn movetext_constructs() {
        let text = "% escape line\n{start} 1. e4! {a} $14 (1. d4 {b} (1. c4) 1... d5) 1... e5?! ; rest\n2.Nf3 Nc6 3. Bb5 a6 {end} 1/2-1/2 {after}";
        let g = parse_game(text, 7).unwrap();
        assert_eq!(g.moves.len(), 6);
        let e4 = &g.moves[0];
        assert_eq!(e4.text, "e4");
        assert_eq!(e4.comments_before, ["start"]);
        assert_eq!(e4.nags, [1, 14]);
        assert_eq!(e4.comments, ["a"]);
        assert_eq!(
            e4.at,
            Location {
                line: 8,
                column: 12
            }
        );
        let var = &e4.variations[0];
        assert_eq!(var.len(), 2);
        assert_eq!(var[0].comments, ["b"]);
        assert_eq!(var[0].variations[0][0].text, "c4");
        assert_eq!(g.moves[1].nags, [6]);
        assert_eq!(g.moves[1].comments, [" rest"]);
        assert_eq!(g.moves[2].text, "Nf3");
        assert_eq!(g.moves[5].comments, ["end"]);
        assert_eq!(g.final_comments, ["after"]);
        assert_eq!(g.result.as_deref(), Some("1/2-1/2"));
    }

    /// The game of `text` as the reader reads it, and its warnings'
    /// messages (no error allowed).
    fn read_with_warnings(text: &str) -> (Game, Vec<String>) {
        let game = read_game(text, 1);
        assert!(!game.broken(), "{text}: {:?}", game.diagnostics);
        let warnings = game
            .diagnostics
            .iter()
            .map(|d| {
                assert_eq!(d.severity, super::super::diagnostic::Severity::Warning);
                d.message.clone()
            })
            .collect();
        (game, warnings)
    }

    #[test]
    fn the_last_real_file_forms_read_with_a_warning_each() {
        // A stray `}`.
        let (g, w) = read_with_warnings("1. e4 } e5 *");
        assert_eq!((g.moves.len(), w.len()), (2, 1));
        assert!(w[0].contains("`}` outside any comment"), "{w:?}");
        // `(e.p.)`, in the main line and in a variation.
        let (g, w) = read_with_warnings(
            "1. e4 d5 2. e5 f5 3. exf6 (e.p.) exf6 (3... Nxf6 4. d4 (4. f4 c5 5. fxe5 d4 6. c4 dxc3 (e.p.) 7. Nxc3)) *",
        );
        assert_eq!(g.moves.len(), 6);
        assert_eq!(g.moves[5].variations.len(), 1);
        assert_eq!(w.len(), 2, "{w:?}");
        // Evaluations in signs, also right before `)`: their NAGs.
        let (g, w) = read_with_warnings(
            "1. e4 += e5 =+ 2. Nf3 +/- Nc6 -/+ 3. Bb5 +- (3. Bc4 -+) a6 +/= 4. Ba4 =/+ *",
        );
        let nags: Vec<&[u8]> = g.moves.iter().map(|m| &m.nags[..]).collect();
        assert_eq!(nags, [&[14][..], &[15], &[16], &[17], &[18], &[14], &[15]]);
        assert_eq!(g.moves[4].variations[0][0].nags, [19]);
        assert_eq!(w.len(), 8, "{w:?}");
        assert!(w[2].contains("`+/-`: read as NAG $16"), "{w:?}");
        // Castling in lower case, and a comma after a move.
        let (g, w) = read_with_warnings(
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. o-o Nf6, 5. d3 d6 6. Bg5 Bg4 7. Nc3 Qd7 8. Qd2 o-o-o+? *",
        );
        assert_eq!(g.moves[6].text, "o-o");
        assert_eq!(
            g.moves[6].parsed,
            Some(AnyMove::San(San::Castle {
                side: CastlingSide::Short,
                waiting: Vec::new(),
                gate: None,
            }))
        );
        assert_eq!(g.moves[7].text, "Nf6");
        assert_eq!(g.moves[15].nags, [2]);
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(w[1].contains("`,` after the move `Nf6`"), "{w:?}");
        // Not every token with signs is an evaluation; before any move, a
        // sign is no annotation.
        assert!(read_game("1. e4 +/+ *", 1).broken());
        assert!(read_game("+- 1. e4 *", 1).broken());
        assert!(read_game("1. e4 , e5 *", 1).broken());
    }

    #[test]
    fn a_nag_before_the_first_move_of_a_variation_is_that_moves() {
        let (g, w) = read_with_warnings("1. e4 ( $42 1. d4 ) e5 *");
        assert_eq!(g.moves.len(), 2);
        let first = &g.moves[0].variations[0][0];
        assert_eq!((first.text.as_str(), &first.nags[..]), ("d4", &[42][..]));
        assert!(g.moves[0].nags.is_empty());
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("`$42` before the first move"), "{w:?}");
        // Several, with a comment among them, and at the game's start.
        let (g, w) = read_with_warnings("$1 1. e4 ( $42 {c} $14 1. d4 $3 ) *");
        assert_eq!(g.moves[0].nags, [1]);
        assert_eq!(g.moves[0].variations[0][0].nags, [42, 14, 3]);
        assert_eq!(w.len(), 3, "{w:?}");
        // A NAG with no move after it in its line stays an error.
        assert!(read_game("1. e4 ( $42 ) *", 1).broken());
        assert!(read_game("1. e4 e5 ( $42 *", 1).broken());
        let e = parse_game("$42 *", 1).unwrap_err();
        assert_eq!(
            (e.at.column, e.expected.as_str()),
            (1, "a move after the NAG")
        );
    }

    #[test]
    fn an_escaped_brace_is_a_brace_of_the_comments_text() {
        let (g, w) = read_with_warnings("1. e4 { a \\} b } e5 *");
        assert_eq!(g.moves.len(), 2);
        assert_eq!(g.moves[0].comments, [" a } b "]);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("`\\}` inside a comment"), "{w:?}");
        // A `\}` with no `}` after it on its line closes the comment, its
        // `\` text; so does one on a line of its own.
        let (g, w) = read_with_warnings("1. e4 {C:\\} e5 *");
        assert_eq!(
            (g.moves.len(), &g.moves[0].comments[..]),
            (2, &["C:\\".to_string()][..])
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(read_game("1. e4 {a \\}\n b } e5 *", 1).broken());
        let (g, _) = read_with_warnings("1. e4 {a \\} b \\} c}\n e5 *");
        assert_eq!(g.moves[0].comments, ["a } b } c"]);
        assert_eq!(lexer::comment_close(b"a \\} b }"), Some((7, true)));
        assert_eq!(lexer::comment_close(b"a \\}\n}"), Some((3, false)));
        assert_eq!(lexer::comment_close(b"a \\"), None);
    }

    #[test]
    fn text_after_the_result_is_kept_as_a_comment_after_it() {
        let (g, w) = read_with_warnings("1. e4 e5 1-0 ff");
        assert_eq!(g.result.as_deref(), Some("1-0"));
        assert_eq!(g.final_comments, ["ff"]);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("text after the result, `ff`"), "{w:?}");
        let (g, _) = read_with_warnings("1. e4 e5 1-0 {done} White forfeits\n");
        assert_eq!(g.final_comments, ["done", "White forfeits"]);
    }

    #[test]
    fn only_a_token_that_could_open_movetext_opens_the_next_game_after_a_result() {
        for token in [
            "1.", "12...", "e4", "Nf3", "O-O", "o-o", "--", "e2e4", "*", "1-0", "½", "…", "Bxe7,",
        ] {
            assert!(could_open_movetext(token.as_bytes()), "{token}");
        }
        for token in ["ff", "forfeit", "White", "+-", "$1", "}", "é", "\u{a0}"] {
            assert!(!could_open_movetext(token.as_bytes()), "{token}");
        }
    }

    #[test]
    fn a_result_glued_to_the_last_move_is_the_move_then_the_result() {
        for (text, result) in [
            ("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#1-0", "1-0"),
            ("1. d4 d5 2. c4 e6 3. Nc3 h6*", "*"),
            ("1. e4 e5 2. Nf3 Nc6 1/2-1/2", "1/2-1/2"),
        ] {
            let game = read_game(text, 1);
            assert!(!game.broken(), "{text}: {:?}", game.diagnostics);
            assert_eq!(game.result.as_deref(), Some(result), "{text}");
        }
        let (g, w) = read_with_warnings("1. d4 d5 2. c4 e6 3. Nc3 h6*");
        assert_eq!(g.moves.len(), 6);
        assert_eq!(g.moves[5].text, "h6");
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("glued to the move in `h6*`"), "{w:?}");
        // Castling written with zeros is a move, not a move and a result.
        let (g, w) = read_with_warnings("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *");
        assert_eq!(g.moves.len(), 7);
        assert!(w.is_empty(), "{w:?}");
        // Nothing before the result: no move.
        assert!(read_game("1. e4 e5 2. x1-0", 1).broken());
    }

    #[test]
    fn a_tag_value_with_unescaped_quotes_is_the_whole_value_with_a_warning() {
        let (g, w) =
            read_with_warnings("[Annotator \"Lopez \"Battle Royale\"\"]\n[White \"A\"]\n1. e4 *");
        assert_eq!(g.tag("Annotator"), Some("Lopez \"Battle Royale\""));
        assert_eq!(g.tag("White"), Some("A"));
        assert_eq!(w.len(), 1, "{w:?}");
    }

    #[test]
    fn a_game_with_neither_result_nor_result_tag_records_an_unknown_result() {
        let (g, w) = read_with_warnings("[Event \"x\"]\n1. e4 e5");
        assert_eq!(g.recorded_result(), Some("*"));
        assert!(w[0].contains("unknown (`*`)"), "{w:?}");
        let (g, _) = read_with_warnings("[Result \"1-0\"]\n1. e4 e5");
        assert_eq!(g.recorded_result(), Some("1-0"));
    }

    #[test]
    fn syntax_errors_say_where_and_what() {
        let cases = [
            ("1. e4 {open *", 1, 7, "`}`"),
            ("1. e4 ) *", 1, 7, "none is open"),
            ("1. e4 (d4 *", 1, 11, "`)` closing"),
            ("1. e4\n  e5 Zz9! *", 2, 6, "a move"),
            ("( e4 ) *", 1, 1, "a move before a variation"),
            ("1. e4 e5 2. Nf3 ]", 1, 17, "a move"),
        ];
        for (text, line, column, expected) in cases {
            let e = parse_game(text, 1).unwrap_err();
            assert_eq!((e.at.line, e.at.column), (line, column), "{text}: {e}");
            assert!(e.expected.contains(expected), "{text}: {e}");
        }
    }
}
