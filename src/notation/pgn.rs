//! One game's text -> [`Game`]: tag pairs and movetext (PGN 1994 plus
//! NOTATION.md). Productions: `game`, `tag-pair`, `movetext`, `comment`,
//! `nag`, `move-number`, `any-move`, `result`.

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::char;
use nom::combinator::{all_consuming, map, opt, value};

use super::coord::{CoordMove, coord_move};
use super::diagnostic::{Diagnostic, DiagnosticKind, QUOTE_CHARS};
use super::game::{Game, Node};
use super::printable::printable;
use super::san::{CheckMark, San, san_move, suffix_annotation};
use super::span::{Location, Locator};
use crate::rules::{CastlingSide, Square};

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

/// Production `null-move` (R-0-6): `--`, and the forms other tools write,
/// `Z0`, `0000`, `@@@@`.
fn null_move(input: &str) -> IResult<&str, AnyMove> {
    value(
        AnyMove::Null,
        alt((tag("--"), tag("Z0"), tag("0000"), tag("@@@@"))),
    )
    .parse(input)
}

/// Production `any-move`: a null move, or a coordinate, SAN or long
/// algebraic move, then an optional check mark (`++` reads as `+`) and
/// suffix annotation.
pub fn any_move(input: &str) -> IResult<&str, (AnyMove, Option<CheckMark>, Option<u8>)> {
    let check = || {
        opt(alt((
            value(CheckMark::Mate, char('#')),
            value(CheckMark::Check, tag("++")),
            value(CheckMark::Check, char('+')),
        )))
    };
    alt((
        map((null_move, opt(suffix_annotation)), |(m, s)| (m, None, s)),
        map(
            (coord_move, check(), opt(suffix_annotation)),
            |(m, c, s)| (AnyMove::Coord(m), c, s),
        ),
        map((san_move, check(), opt(suffix_annotation)), |(m, c, s)| {
            (AnyMove::San(m), c, s)
        }),
    ))
    .parse(input)
}

/// Parses a whole token as `any-move`.
pub fn parse_any_move(text: &str) -> Option<(AnyMove, Option<CheckMark>, Option<u8>)> {
    any_move_common(text).or_else(|| parse_any_move_by_grammar(text))
}

/// Parses a whole token as `any-move` with the nom grammar alone.
pub fn parse_any_move_by_grammar(text: &str) -> Option<(AnyMove, Option<CheckMark>, Option<u8>)> {
    all_consuming(any_move).parse(text).ok().map(|(_, m)| m)
}

/// The shapes of `any-move` that fill real game files, read byte by byte
/// (the nom grammar costs about fifteen times more per move): castling,
/// and SAN with a target square, an optional piece letter, at most the
/// origin hints before it, capture mark, promotion, check mark and suffix
/// annotation. Whatever else it meets (coordinate moves, a pawn's long
/// algebraic with both squares, waiting suffixes, anything unexpected) it
/// leaves to [`any_move`], which stays the authority: a property test
/// checks that wherever this answers, the grammar gives the same answer.
fn any_move_common(token: &str) -> Option<(AnyMove, Option<CheckMark>, Option<u8>)> {
    let b = token.as_bytes();
    let at = |i: usize| b.get(i).copied();
    let is_piece = |c: u8| c.is_ascii_uppercase() && c != b'O';
    let file = |c: Option<u8>| c.filter(|c| (b'a'..=b'p').contains(c)).map(|c| c - b'a');
    // Production `rank`: digits without a leading zero, 1..16; `Err` for
    // digits that are no rank, which the grammar rejects.
    let rank = |i: &mut usize| -> Result<Option<u8>, ()> {
        let start = *i;
        let mut n: u32 = 0;
        while let Some(d @ b'0'..=b'9') = at(*i) {
            n = n * 10 + u32::from(d - b'0');
            if n > 16 {
                return Err(());
            }
            *i += 1;
        }
        match *i - start {
            0 => Ok(None),
            _ if n == 0 || b[start] == b'0' => Err(()),
            _ => Ok(Some(n as u8 - 1)),
        }
    };
    let mut i = 0;
    let san = if matches!(at(0), Some(b'O' | b'0')) {
        let side = if b.starts_with(b"O-O-O") || b.starts_with(b"0-0-0") {
            CastlingSide::Long
        } else if b.starts_with(b"O-O") || b.starts_with(b"0-0") {
            CastlingSide::Short
        } else {
            return None;
        };
        i = if side == CastlingSide::Long { 5 } else { 3 };
        San::Castle {
            side,
            waiting: Vec::new(),
        }
    } else {
        let piece = match at(0) {
            Some(c) if is_piece(c) => {
                i = 1;
                Some(c as char)
            }
            _ => None,
        };
        let f1 = file(at(i));
        i += usize::from(f1.is_some());
        let r1 = rank(&mut i).ok()?;
        let sep = match at(i) {
            Some(b'x') => Some(true),
            Some(b'-') => Some(false),
            _ => None,
        };
        i += usize::from(sep.is_some());
        let f2 = file(at(i));
        i += usize::from(f2.is_some());
        let r2 = rank(&mut i).ok()?;
        let (file, rank, capture, to) = match (f1, r1, f2, r2) {
            // Two squares without a piece letter or mark: a coordinate move.
            (Some(_), Some(_), Some(_), Some(_)) if piece.is_none() && sep.is_none() => {
                return None;
            }
            (_, _, Some(f), Some(r)) => (f1, r1, sep.unwrap_or(false), Square::new(f, r)),
            (Some(f), Some(r), None, None) if sep.is_none() => {
                (None, None, false, Square::new(f, r))
            }
            _ => return None,
        };
        let promotion = match at(i) {
            Some(b'=') => match at(i + 1) {
                Some(c) if is_piece(c) => {
                    i += 2;
                    Some(c as char)
                }
                _ => return None,
            },
            Some(c) if is_piece(c) => {
                i += 1;
                Some(c as char)
            }
            _ => None,
        };
        San::Normal {
            piece,
            file,
            rank,
            capture,
            to,
            promotion,
            waiting: Vec::new(),
        }
    };
    let check = match at(i) {
        Some(b'+') => Some(CheckMark::Check),
        Some(b'#') => Some(CheckMark::Mate),
        _ => None,
    };
    i += usize::from(check.is_some());
    let nag = match &b[i..] {
        b"" => None,
        b"!!" => Some(3),
        b"??" => Some(4),
        b"!?" => Some(5),
        b"?!" => Some(6),
        b"!" => Some(1),
        b"?" => Some(2),
        _ => return None,
    };
    Some((AnyMove::San(san), check, nag))
}

/// Production `result`.
fn result_marker(input: &str) -> IResult<&str, &str> {
    alt((tag("1-0"), tag("0-1"), tag("1/2-1/2"), tag("*"))).parse(input)
}

/// Results as real files also write them (NOTATION §11), with the marker
/// each means.
const LOOSE_RESULTS: [(&str, &str); 5] = [
    ("1/2", "1/2-1/2"),
    ("½-½", "1/2-1/2"),
    ("½", "1/2-1/2"),
    ("0.5-0.5", "1/2-1/2"),
    ("+/-", "*"),
];

/// The token as a whole `result`, if it is one, and whether it was
/// written in the standard form; tokens that cannot start one are not put
/// to the grammar.
fn whole_result(token: &str) -> Option<(&'static str, bool)> {
    if token.starts_with(['0', '1', '*']) {
        if let Ok(("", r)) = result_marker(token) {
            let canonical = ["1-0", "0-1", "1/2-1/2", "*"]
                .into_iter()
                .find(|c| *c == r)?;
            return Some((canonical, true));
        }
    }
    LOOSE_RESULTS
        .iter()
        .find(|(written, _)| *written == token && *written != "+/-")
        .map(|&(_, r)| (r, false))
}

/// Production `tag-pair`: `[Name "value"]`, with `\"` and `\\` escapes.
fn tag_pair(input: &str) -> IResult<&str, (String, String)> {
    let (rest, _) = (char('['), opt(take_while1(char::is_whitespace))).parse(input)?;
    let (rest, name) = take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_').parse(rest)?;
    let (rest, _) = (opt(take_while1(char::is_whitespace)), char('"')).parse(rest)?;
    let mut value = String::new();
    let mut chars = rest.char_indices();
    let end = loop {
        match chars.next() {
            None => {
                return Err(nom::Err::Error(nom::error::Error::new(
                    rest,
                    nom::error::ErrorKind::Char,
                )));
            }
            Some((i, '"')) => break i + 1,
            Some((_, '\\')) => match chars.next() {
                Some((_, c @ ('"' | '\\'))) => value.push(c),
                Some((_, c)) => {
                    value.push('\\');
                    value.push(c);
                }
                None => value.push('\\'),
            },
            Some((_, c)) => value.push(c),
        }
    };
    let (rest, _) = (opt(take_while1(char::is_whitespace)), char(']')).parse(&rest[end..])?;
    Ok((rest, (name.to_string(), value)))
}

/// A tag pair the grammar refuses (unbalanced quotes, stray characters),
/// read as far as it goes (NOTATION §11): the bytes it spans, to `"]`,
/// else the first `]`, else the end of its line; and the pair, when a
/// name can be read.
fn loose_tag_pair(input: &str) -> (usize, Option<(String, String)>) {
    let line = &input[..input.find('\n').unwrap_or(input.len())];
    let end = line
        .find("\"]")
        .map(|i| i + 2)
        .or_else(|| line.find(']').map(|i| i + 1))
        .unwrap_or(line.len());
    let body = line[1..end.max(1)].trim_end_matches(']').trim_start();
    let name_len = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    if name_len == 0 {
        return (end.max(1), None);
    }
    let value = body[name_len..].trim();
    let value = value.strip_prefix('"').unwrap_or(value);
    let value = value.strip_suffix('"').unwrap_or(value);
    let value = value.replace("\\\"", "\"").replace("\\\\", "\\");
    (
        end,
        Some((body[..name_len].to_string(), value.trim().to_string())),
    )
}

fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | ';' | '$' | '[' | ']' | '"')
}

/// An ASCII byte that is white space as `char::is_whitespace` says (tab,
/// line feed, vertical tab, form feed, carriage return, space).
fn is_space_byte(b: u8) -> bool {
    b == b' ' || (b'\t'..=b'\r').contains(&b)
}

/// Bytes up to the first delimiter: ASCII byte by byte, the rest from the
/// first non-ASCII byte as characters (a no-break space ends a token too).
fn token_length(rest: &str) -> usize {
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b >= 0x80 {
            return i + rest[i..].find(is_delimiter).unwrap_or(rest.len() - i);
        }
        if is_space_byte(b)
            || matches!(
                b,
                b'{' | b'}' | b'(' | b')' | b';' | b'$' | b'[' | b']' | b'"'
            )
        {
            return i;
        }
        i += 1;
    }
    i
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

    /// Whitespace and `%` escape lines.
    fn skip_space(&mut self) {
        loop {
            let bytes = self.text.as_bytes();
            // ASCII white space byte by byte; anything else (such as a
            // no-break space) as characters.
            while self.pos < bytes.len() && is_space_byte(bytes[self.pos]) {
                self.pos += 1;
            }
            let rest = self.rest();
            if rest.as_bytes().first().is_some_and(|&b| b >= 0x80) {
                let trimmed = rest.trim_start();
                self.pos += rest.len() - trimmed.len();
            }
            let at_line_start = self.pos == 0 || self.text.as_bytes()[self.pos - 1] == b'\n';
            if at_line_start && self.rest().starts_with('%') {
                let len = self.rest().find('\n').map_or(self.rest().len(), |i| i + 1);
                self.pos += len;
                continue;
            }
            break;
        }
    }

    /// Production `comment`: `{...}` or `;` to the end of the line.
    fn comment(&mut self) -> Result<Option<String>, ParseError> {
        let rest = self.rest();
        if let Some(body) = rest.strip_prefix('{') {
            let Some(end) = body.find('}') else {
                return Err(ParseError {
                    at: self.at(self.pos),
                    expected: "`}` closing this comment".into(),
                    found: "end of game".into(),
                });
            };
            let text = body[..end].to_string();
            self.pos += end + 2;
            return Ok(Some(text));
        }
        if let Some(body) = rest.strip_prefix(';') {
            let end = body.find('\n').unwrap_or(body.len());
            let text = body[..end].trim_end_matches('\r').to_string();
            self.pos += end + 1;
            return Ok(Some(text));
        }
        Ok(None)
    }
}

const EXPECTED_MOVETEXT: &str = "a move, move number, comment, NAG, variation `(`...`)` or result (`1-0`, `0-1`, `1/2-1/2`, `*`)";

/// Production `move-number`, as a token's prefix: the bytes of digits and
/// then dots or an ellipsis (`12.`, `12...`, `12…`, `...`, `…`), or of
/// digits alone (`12`); 0 where the token starts otherwise.
fn move_number_prefix(token: &str) -> usize {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let after = &token[digits..];
    let dots = after.len() - after.trim_start_matches(['.', '…']).len();
    if dots > 0 || digits == token.len() {
        digits + dots
    } else {
        0
    }
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
    match parse(text, start) {
        (game, None) => Ok(game),
        (_, Some(e)) => Err(e),
    }
}

/// Reads one game as far as it goes (NOTATION §11): tag pairs, then
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
    let (mut game, error) = parse(text, start);
    if let Some(e) = error {
        let message = format!("{e}; the game keeps its tags and the moves before this point");
        game.diagnostics
            .push(Diagnostic::error(DiagnosticKind::Syntax, e.at, message));
    }
    game
}

/// Lines under construction: the main line, then open variations with
/// where each opened.
type OpenLines = Vec<(Vec<Node>, usize)>;

fn parse(text: &str, start: Location) -> (Game, Option<ParseError>) {
    let mut c = Cursor {
        text,
        pos: 0,
        index: Locator::starting_at(text, start),
    };
    let mut game = Game::default();
    let mut pending: Vec<String> = Vec::new();
    c.skip_space();
    game.at = c.at(c.pos);
    // About one move per 8 bytes of movetext: fewer regrowths of the main line.
    let mut lines: OpenLines = vec![(Vec::with_capacity(text.len() / 8), 0)];
    let outcome = tag_section(&mut c, &mut game, &mut pending)
        .and_then(|()| movetext(&mut c, &mut game, &mut lines, &mut pending));
    // Variations still open where the text broke off are left out: where
    // they were meant to end is unknown, so their moves would be read
    // against the wrong line. The main line up to them stays (and the
    // original text keeps everything).
    lines.truncate(1);
    let (main, _) = lines.pop().expect("the main line is always there");
    game.moves = main;
    if !pending.is_empty() {
        if game.moves.is_empty() {
            // A game of comments only: keep them.
            game.final_comments = pending;
        } else {
            game.final_comments.splice(0..0, pending);
        }
    }
    match outcome {
        Ok(()) => {
            if game.result.is_none() {
                let stands = match game.tag("Result") {
                    Some(r) => format!("the Result tag's `{}` stands", printable(r, QUOTE_CHARS)),
                    None => "the result is unknown (`*`)".to_string(),
                };
                let at = c.at(text.trim_end().len());
                game.diagnostics.push(Diagnostic::warning(
                    DiagnosticKind::Result,
                    at,
                    format!("the movetext ends without a result; {stands}"),
                ));
            }
            (game, None)
        }
        Err(e) => (game, Some(e)),
    }
}

/// Production `tag-section`: tag pairs and the comments among them. A
/// malformed pair is read as far as it goes, with a warning.
fn tag_section(
    c: &mut Cursor<'_>,
    game: &mut Game,
    pending: &mut Vec<String>,
) -> Result<(), ParseError> {
    loop {
        c.skip_space();
        if c.rest().starts_with('[') {
            let at = c.at(c.pos);
            match tag_pair(c.rest()) {
                Ok((rest, pair)) => {
                    game.tag_locations.push(at);
                    c.pos = c.text.len() - rest.len();
                    game.tags.push(pair);
                }
                Err(_) => {
                    let (len, pair) = loose_tag_pair(c.rest());
                    let written = printable(&c.rest()[..len], QUOTE_CHARS).into_owned();
                    let message = match &pair {
                        Some((n, v)) => format!(
                            "malformed tag pair `{written}` (a tag pair is `[Name \"value\"]`, with `\\\"` inside the value): read as {n} = \"{}\"",
                            printable(v, QUOTE_CHARS)
                        ),
                        None => format!("unreadable tag pair `{written}` (no tag name): left out"),
                    };
                    game.diagnostics
                        .push(Diagnostic::warning(DiagnosticKind::Tag, at, message));
                    if let Some(pair) = pair {
                        game.tag_locations.push(at);
                        game.tags.push(pair);
                    }
                    c.pos += len;
                }
            }
        } else if let Some(comment) = c.comment()? {
            pending.push(comment);
        } else {
            return Ok(());
        }
    }
}

/// Production `movetext`: moves, move numbers, comments, NAGs,
/// variations, then the result.
fn movetext(
    c: &mut Cursor<'_>,
    game: &mut Game,
    lines: &mut OpenLines,
    pending: &mut Vec<String>,
) -> Result<(), ParseError> {
    loop {
        c.skip_space();
        let start = c.pos;
        let rest = c.rest();
        if rest.is_empty() {
            break;
        }
        if let Some(comment) = c.comment()? {
            let (line, _) = lines.last_mut().expect("the main line is always there");
            match line.last_mut() {
                Some(node) if pending.is_empty() => node.comments.push(comment),
                _ => pending.push(comment),
            }
            continue;
        }
        if rest.starts_with('(') {
            if lines.last().is_none_or(|(l, _)| l.is_empty()) {
                return Err(c.error(start, "a move before a variation `(`"));
            }
            lines.push((Vec::new(), start));
            c.pos += 1;
            continue;
        }
        if rest.starts_with(')') {
            if lines.len() == 1 {
                return Err(c.error(
                    start,
                    "a move, comment or result (a `)` closes a variation, and none is open)",
                ));
            }
            if lines.last().is_some_and(|(l, _)| l.is_empty()) {
                let (_, opened) = lines.pop().expect("checked above");
                return Err(c.error(opened, "a move inside the variation"));
            }
            if !pending.is_empty() {
                return Err(c.error(start, "a move after the comment"));
            }
            let (var, _) = lines.pop().expect("checked above");
            let (parent, _) = lines.last_mut().expect("checked above");
            if let Some(node) = parent.last_mut() {
                node.variations.push(var);
            }
            c.pos += 1;
            continue;
        }
        if let Some(digits) = rest.strip_prefix('$') {
            let n = digits.bytes().take_while(u8::is_ascii_digit).count();
            let Ok(nag) = digits[..n].parse::<u8>() else {
                return Err(c.error(start, "a NAG `$` followed by a number 0..255"));
            };
            let (line, _) = lines.last_mut().expect("the main line is always there");
            let Some(node) = line.last_mut() else {
                return Err(c.error(start, "a move before the NAG"));
            };
            node.nags.push(nag);
            c.pos += 1 + n;
            continue;
        }
        let token_len = token_length(rest);
        let token = &rest[..token_len];
        if token.is_empty() {
            return Err(c.error(start, EXPECTED_MOVETEXT));
        }
        if let Some((result, standard)) = whole_result(token) {
            if lines.len() > 1 {
                let (_, opened) = lines.last().expect("checked");
                let opened = c.at(*opened);
                return Err(c.error(
                    start,
                    &format!(
                        "`)` closing the variation opened at line {}, column {}, before the result",
                        opened.line, opened.column
                    ),
                ));
            }
            if !standard {
                game.diagnostics.push(Diagnostic::warning(
                    DiagnosticKind::Result,
                    c.at(start),
                    format!("result written `{token}`: read as {result}"),
                ));
            }
            game.result = Some(result.to_string());
            c.pos += token_len;
            loop {
                c.skip_space();
                match c.comment()? {
                    Some(comment) => game.final_comments.push(comment),
                    None => break,
                }
            }
            if !c.rest().trim_end().is_empty() {
                let after: String = c.rest().trim_end().chars().take(QUOTE_CHARS).collect();
                game.diagnostics.push(Diagnostic::warning(
                    DiagnosticKind::Syntax,
                    c.at(c.pos),
                    format!(
                        "text after the result is not read: `{}`",
                        printable(&after, QUOTE_CHARS)
                    ),
                ));
            }
            c.pos = c.text.len();
            break;
        }
        // Move numbers in every form, alone or glued to their move.
        let number = if token == "0000" {
            0
        } else {
            move_number_prefix(token)
        };
        let move_text = &token[number..];
        if move_text.is_empty() || move_text == "e.p." {
            c.pos += token_len;
            continue;
        }
        // `exd6e.p.`: the mark says what the move shows.
        let move_text = move_text.strip_suffix("e.p.").unwrap_or(move_text);
        if let Some((parsed, check, nag)) = parse_any_move(move_text) {
            let mut node = Node::default();
            node.parsed = Some(parsed);
            node.text = move_text
                .trim_end_matches(['!', '?'])
                .trim_end_matches(['+', '#'])
                .into();
            node.at = c.at(start + number);
            node.check = check;
            node.nags.extend(nag);
            node.comments_before = std::mem::take(pending);
            lines
                .last_mut()
                .expect("the main line is always there")
                .0
                .push(node);
            c.pos += token_len;
            continue;
        }
        if let Ok(("", nag)) = all_consuming(suffix_annotation).parse(move_text) {
            let (line, _) = lines.last_mut().expect("the main line is always there");
            if let Some(node) = line.last_mut() {
                node.nags.push(nag);
                c.pos += token_len;
                continue;
            }
        }
        return Err(c.error(start + number, EXPECTED_MOVETEXT));
    }
    if lines.len() > 1 {
        let (_, opened) = lines.last().expect("checked");
        return Err(c.error(*opened, "`)` closing this variation"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Wherever the byte reader of common moves answers, the grammar
        /// gives the same answer.
        #[test]
        fn common_moves_read_as_the_grammar_reads_them(
            token in "[KQRBNO0]?[a-hp]?[0-9]{0,2}[x-]?[a-iq]?[0-9]{0,2}(=?[QNOa&])?[+#]{0,2}[!?]{0,3}",
            noise in "[KQRBNO0oa-eqxX=+#!?&.-]{1,8}",
        ) {
            for t in [&token, &noise] {
                if let Some(fast) = any_move_common(t) {
                    prop_assert_eq!(Some(fast), parse_any_move_by_grammar(t), "{}", t);
                }
            }
        }
    }

    proptest! {
        /// Tokens end where the character-wise definition says, whatever
        /// the mix of ASCII and other characters.
        #[test]
        fn token_ends_are_found_byte_by_byte_as_by_characters(
            text in "[a-e1-3x+ {}()$\"\u{a0}\u{e9}\u{2003}\u{b}\u{c};\t\n]{0,24}"
        ) {
            let expected = text.find(is_delimiter).unwrap_or(text.len());
            prop_assert_eq!(token_length(&text), expected);
        }
    }

    #[test]
    fn common_moves_take_the_byte_reader() {
        for t in [
            "e4", "Nf3", "exd5", "Nbd2", "R1e2", "Qh4e1", "Qh4xe1+", "e8=Q#", "bxa1=N", "O-O",
            "O-O-O+", "0-0", "Kxl8", "Nf3!", "e4?!", "Rd10", "a16=R", "Nxe4!!",
        ] {
            let fast = any_move_common(t);
            assert!(fast.is_some(), "{t}");
            assert_eq!(fast, parse_any_move_by_grammar(t), "{t}");
        }
        for t in [
            "e2e4",
            "a7a8q",
            "e7e8&e8=Q",
            "e4&e8=Q",
            "e2-e4e",
            "Nf3++",
            "e0",
            "e17",
        ] {
            assert_eq!(any_move_common(t), None, "{t}");
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
