//! The streaming reader: splits a byte stream into games, one at a time,
//! in bounded memory (the largest game, not the file), decodes each (UTF-8
//! with or without BOM, else Windows-1252, without loss, with a warning;
//! UTF-16 with its BOM is transcoded) and reads it. Input that is not text
//! (compressed, or binary with NUL bytes) is refused before any game
//! ([`NotText`]). One bad game never stops the others: the game
//! boundary is the recovery point.
//!
//! Boundaries (docs/notation.md §11): a tag line after movetext; a tag pair, or
//! any other text, after a game's result, also on the same line (games
//! written one per line); a tag section after a blank line that follows
//! another tag section; and, inside a comment that never closes, the next
//! line that is a whole `[Event "..."]`-like tag pair (a resynchronisation,
//! reported with the bytes the comment swallowed). Lines end in `\n`,
//! `\r\n` or a lone `\r`, mixed as they come. The scan reads the raw
//! bytes with the reader's own lexer (src/notation/lexer.rs), so it ends
//! comments, tag pairs and words where the reader of a game does.
//!
//! Every byte of the input belongs to exactly one game: a game's bytes run
//! from its first byte to the first byte of the next (the blank lines
//! after it included, the BOM with the first game), so the games of a file
//! laid end to end give back the file.

use std::borrow::Cow;
use std::io::{BufRead, Read};

use super::diagnostic::{Diagnostic, DiagnosticKind};
use super::game::Game;
use super::lexer::{self, Lexeme};
use super::pgn::{could_open_movetext, read_game_at, spaced_draw_rest, whole_result};
use super::span::Location;
use super::writer::ORIGINAL_MARK;

/// How a game's bytes were decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 (ASCII included).
    Utf8,
    /// Not UTF-8: read as Windows-1252, the encoding of nearly every
    /// older game file (Latin-1 but for `’`, `€`, `…` and the like in
    /// 0x80..0x9F; no byte is lost, the five it leaves unassigned read
    /// as the control characters Latin-1 has there).
    Windows1252,
    /// The file is UTF-16 little-endian with a BOM; the bytes kept are the
    /// UTF-8 it was transcoded to.
    Utf16Le,
    /// The same, big-endian.
    Utf16Be,
}

/// An unclosed comment the splitter cut short at the next game's tag line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Runaway {
    /// Bytes from the comment's `{` to the cut.
    pub swallowed: u64,
    /// Line where the next game was found.
    pub resumed_at: usize,
}

/// One game's text as it stands in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameText {
    /// 1-based number of the game in its input.
    pub number: usize,
    /// Where the game's first byte stands: 1-based line and column.
    pub start: Location,
    /// Byte offset of the game in the input (of its UTF-8 form for UTF-16).
    pub offset: u64,
    /// The bytes exactly as read (for UTF-16, as transcoded to UTF-8).
    pub raw: Vec<u8>,
    /// The text decoded, line ends `\r\n` and `\r` read as `\n`.
    pub text: String,
    /// How the bytes were decoded.
    pub encoding: Encoding,
    /// Set when an unclosed comment was cut short at the next game.
    pub runaway: Option<Runaway>,
}

impl GameText {
    /// The 1-based line of the game's first byte.
    pub fn first_line(&self) -> usize {
        self.start.line
    }

    /// Reads the game: tags, moves as far as they go, and diagnostics for
    /// what the text bends or breaks (the splitter's included).
    pub fn read(&self) -> Game {
        let mut game = read_game_at(&self.text, self.start);
        let at = game.at;
        game.diagnostics.extend(self.source_notes().diagnostics(at));
        game
    }

    /// What the decoding and the splitter found about the game's bytes.
    pub fn source_notes(&self) -> SourceNotes {
        self.as_game_bytes().source_notes()
    }

    /// The game as the splitter gives it, borrowed.
    pub fn as_game_bytes(&self) -> GameBytes<'_> {
        GameBytes {
            number: self.number,
            start: self.start,
            offset: self.offset,
            raw: &self.raw,
            text: Cow::Borrowed(&self.text),
            encoding: self.encoding,
            runaway: self.runaway,
        }
    }
}

/// What the decoding and the splitter found about a game's bytes, told
/// after what the reader finds in its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceNotes {
    /// How the bytes were decoded.
    pub encoding: Encoding,
    /// Windows-1252 bytes holding NUL: UTF-16 without its byte order mark?
    pub nul: bool,
    /// An unclosed comment cut short at the next game.
    pub runaway: Option<Runaway>,
}

impl SourceNotes {
    /// Whether there is anything to say.
    pub fn is_empty(&self) -> bool {
        self.encoding == Encoding::Utf8 && !self.nul && self.runaway.is_none()
    }

    /// The diagnostics, pointing at `at`, where the game starts.
    pub fn diagnostics(&self, at: Location) -> Vec<Diagnostic> {
        let mut diagnostics = Vec::new();
        match self.encoding {
            Encoding::Utf16Le | Encoding::Utf16Be => {
                let which = if self.encoding == Encoding::Utf16Le {
                    "UTF-16LE"
                } else {
                    "UTF-16BE"
                };
                diagnostics.push(Diagnostic::warning(
                    DiagnosticKind::Encoding,
                    at,
                    format!(
                        "the file is {which} (byte order mark): decoded; its text is kept as UTF-8"
                    ),
                ));
            }
            Encoding::Windows1252 if self.nul => {
                diagnostics.push(Diagnostic::warning(
                    DiagnosticKind::Encoding,
                    at,
                    "the text holds NUL bytes: a UTF-16 file without its byte order mark? Read as Windows-1252",
                ));
            }
            Encoding::Windows1252 => {
                diagnostics.push(Diagnostic::warning(
                    DiagnosticKind::Encoding,
                    at,
                    "the game's bytes are not UTF-8: read as Windows-1252 (the original bytes are kept)",
                ));
            }
            Encoding::Utf8 => {}
        }
        if let Some(r) = self.runaway {
            diagnostics.push(Diagnostic::error(
                DiagnosticKind::RunawayComment,
                at,
                format!(
                    "a comment `{{` never closes: it swallowed {} bytes, up to the tag line at line {} where the next game is read",
                    r.swallowed, r.resumed_at
                ),
            ));
        }
        diagnostics
    }
}

/// Why an input is refused before any of it is read as games: its first
/// bytes show it is not text. Reading such bytes as games would give one
/// garbage game and a flood of diagnostics; the input is told about once,
/// as an [`std::io::Error`] of kind `InvalidData` holding this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotText {
    /// The magic number of a compression format (its name).
    #[error(
        "not a text file: it is {0}-compressed (xpgn reads game files as text: decompress it first)"
    )]
    Compressed(&'static str),
    /// NUL bytes in the first block and no UTF-16 byte order mark.
    #[error(
        "not a text file: it holds NUL bytes (binary data; a UTF-16 file needs its byte order mark)"
    )]
    Binary,
}

impl NotText {
    /// Whether `error` is an input refused as not text.
    pub fn of(error: &std::io::Error) -> Option<NotText> {
        error
            .get_ref()
            .and_then(|e| e.downcast_ref::<NotText>())
            .copied()
    }
}

/// The magic numbers of the compression formats game files come in.
const COMPRESSED_MAGIC: [(&[u8], &str); 5] = [
    (b"\x1f\x8b", "gzip"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"PK\x03\x04", "zip"),
];

/// Bytes looked at for NUL: text holds none, binary data nearly always
/// does within its first few kilobytes.
const SNIFF_BYTES: usize = 8000;

/// Whether the first bytes of an input (with no UTF-16 byte order mark)
/// show that it is not text.
fn sniff_not_text(head: &[u8]) -> Option<NotText> {
    // `BZh` is also the start of a word: bzip2 has a block size digit and
    // a block magic after it.
    let bzip2 = |h: &[u8]| {
        h.len() >= 10 && (b'1'..=b'9').contains(&h[3]) && h[4..10] == *b"\x31\x41\x59\x26\x53\x59"
    };
    for (magic, name) in COMPRESSED_MAGIC {
        if head.starts_with(magic) && (name != "bzip2" || bzip2(head)) {
            return Some(NotText::Compressed(name));
        }
    }
    // Escape lines (`%` first) are left out: they carry the bytes of an
    // invalid game's original as xpgn exports it, which may hold a NUL
    // that the text it was read from held.
    head[..head.len().min(SNIFF_BYTES)]
        .split(|&b| b == b'\n')
        .any(|line| line.first() != Some(&b'%') && line.contains(&0))
        .then_some(NotText::Binary)
}

/// Reads UTF-16 and gives UTF-8 (unpaired surrogates as U+FFFD).
struct Utf16ToUtf8<R> {
    input: R,
    big_endian: bool,
    out: Vec<u8>,
    at: usize,
    pending: Option<u8>,
    high: Option<u16>,
}

impl<R: Read> Utf16ToUtf8<R> {
    fn refill(&mut self) -> std::io::Result<()> {
        let mut buf = [0u8; 1 << 15];
        self.out.clear();
        self.at = 0;
        while self.out.is_empty() {
            let n = self.input.read(&mut buf)?;
            if n == 0 {
                if self.pending.take().is_some() || self.high.take().is_some() {
                    self.out.extend_from_slice("\u{FFFD}".as_bytes());
                }
                return Ok(());
            }
            let mut bytes = buf[..n].iter().copied();
            loop {
                let (a, b) = match self.pending.take() {
                    Some(a) => match bytes.next() {
                        Some(b) => (a, b),
                        None => {
                            self.pending = Some(a);
                            break;
                        }
                    },
                    None => match (bytes.next(), bytes.next()) {
                        (Some(a), Some(b)) => (a, b),
                        (Some(a), None) => {
                            self.pending = Some(a);
                            break;
                        }
                        _ => break,
                    },
                };
                let unit = if self.big_endian {
                    u16::from_be_bytes([a, b])
                } else {
                    u16::from_le_bytes([a, b])
                };
                let c = match (self.high.take(), unit) {
                    (None, 0xD800..=0xDBFF) => {
                        self.high = Some(unit);
                        continue;
                    }
                    (Some(h), 0xDC00..=0xDFFF) => char::from_u32(
                        0x10000 + ((u32::from(h) - 0xD800) << 10) + (u32::from(unit) - 0xDC00),
                    ),
                    (Some(_), _) => {
                        self.out.extend_from_slice("\u{FFFD}".as_bytes());
                        char::from_u32(u32::from(unit))
                    }
                    (None, _) => char::from_u32(u32::from(unit)),
                };
                let c = c.unwrap_or('\u{FFFD}');
                let mut utf8 = [0u8; 4];
                self.out
                    .extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
            }
        }
        Ok(())
    }
}

impl<R: Read> Read for Utf16ToUtf8<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Utf16ToUtf8<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at >= self.out.len() {
            self.refill()?;
        }
        Ok(&self.out[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.out.len());
    }
}

/// The input as bytes: as it is, or transcoded from UTF-16.
enum Source<R> {
    Plain(R),
    Utf16(Utf16ToUtf8<R>),
}

impl<R: BufRead> Source<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        match self {
            Source::Plain(r) => r.fill_buf(),
            Source::Utf16(r) => r.fill_buf(),
        }
    }

    fn consume(&mut self, n: usize) {
        match self {
            Source::Plain(r) => r.consume(n),
            Source::Utf16(r) => r.consume(n),
        }
    }
}

/// Bytes asked of the input at a time, at least.
const BLOCK: usize = 64 * 1024;

/// Bytes a game cut by its layout may take at most
/// ([`GameSplitter::guess_next_game`]): a tagged game followed by games
/// without tags has no line of `[` after it, and its guess would hold
/// them all. Past this the scan cuts the game, in the memory of the
/// largest game.
const GUESS_BYTES: usize = 1024 * 1024;

/// Splits a byte stream into [`GameText`]s.
///
/// The input is read in blocks into one buffer; games and their lines are
/// slices of it (nothing is copied line by line), and the buffer keeps
/// only the game being split and what was read after it.
pub struct GameSplitter<R> {
    source: Option<Source<R>>,
    input: Option<R>,
    encoding: Encoding,
    number: usize,
    /// Input read and not yet given out: from `head` on, the next game's
    /// bytes and those after them.
    buf: Vec<u8>,
    /// Where the next game starts in `buf`.
    head: usize,
    /// Where that byte stands: line and column.
    head_at: Location,
    /// Byte offset in the input of `buf[0]`.
    base: u64,
    /// The input has no more bytes.
    eof: bool,
    /// An escaped original (see [`escaped_original`]), taken back.
    original: Vec<u8>,
    /// Bytes to read at a time, at least.
    block: usize,
    /// A read failed after some bytes of a block: the failure is told
    /// once the games read before it are given.
    failed: Option<std::io::Error>,
    /// The game [`GameSplitter::guess_next_game`] gave last, until it is
    /// taken or the scan cuts the next game.
    guessed: Option<Guessed>,
}

/// A game cut by its layout: its length and where the next starts.
#[derive(Clone, Copy, Debug)]
struct Guessed {
    len: usize,
    next: Location,
}

impl<R: BufRead> GameSplitter<R> {
    /// Reads games from `input`.
    pub fn new(input: R) -> GameSplitter<R> {
        GameSplitter {
            source: None,
            input: Some(input),
            encoding: Encoding::Utf8,
            number: 0,
            buf: Vec::new(),
            head: 0,
            head_at: Location { line: 1, column: 1 },
            base: 0,
            eof: false,
            original: Vec::new(),
            block: BLOCK,
            failed: None,
            guessed: None,
        }
    }

    /// Reads games from `input`, `block` bytes at a time (tests cut the
    /// input at every place with small blocks).
    #[cfg(test)]
    fn with_block(input: R, block: usize) -> GameSplitter<R> {
        GameSplitter {
            block,
            ..GameSplitter::new(input)
        }
    }

    /// Looks at the first bytes for a UTF-16 byte order mark.
    fn open_source(&mut self) -> std::io::Result<()> {
        let Some(mut input) = self.input.take() else {
            return Ok(());
        };
        let head = input.fill_buf()?;
        let utf16 = |input, big_endian| {
            Source::Utf16(Utf16ToUtf8 {
                input,
                big_endian,
                out: Vec::new(),
                at: 0,
                pending: None,
                high: None,
            })
        };
        let source = match head {
            [0xFF, 0xFE, ..] => {
                input.consume(2);
                self.encoding = Encoding::Utf16Le;
                utf16(input, false)
            }
            [0xFE, 0xFF, ..] => {
                input.consume(2);
                self.encoding = Encoding::Utf16Be;
                utf16(input, true)
            }
            _ => {
                if let Some(not_text) = sniff_not_text(head) {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        not_text,
                    ));
                }
                Source::Plain(input)
            }
        };
        self.source = Some(source);
        Ok(())
    }

    /// Reads more of the input after what `buf` holds, first dropping the
    /// bytes before `head` (games given out already); false at the end of
    /// the input.
    fn fill(&mut self) -> std::io::Result<bool> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        if self.eof {
            return Ok(false);
        }
        if self.head > 0 {
            self.buf.drain(..self.head);
            self.base += self.head as u64;
            self.head = 0;
        }
        self.open_source()?;
        let Some(source) = self.source.as_mut() else {
            return Ok(false);
        };
        let had = self.buf.len();
        let wanted = had + self.block;
        while self.buf.len() < wanted {
            let bytes = match source.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if self.buf.len() > had => {
                    self.failed = Some(e);
                    break;
                }
                Err(e) => return Err(e),
            };
            if bytes.is_empty() {
                self.eof = true;
                break;
            }
            let n = bytes.len();
            self.buf.extend_from_slice(bytes);
            source.consume(n);
        }
        Ok(true)
    }

    /// The end, relative to `head`, of the whole lines read (the last
    /// ends in a line end, or the input ends after it), reading more input
    /// until there is a line after `from`; `from` when the input has no
    /// bytes after it.
    fn whole_lines(&mut self, from: usize) -> std::io::Result<usize> {
        let mut searched = from;
        loop {
            let rest = &self.buf[self.head + searched..];
            if let Some(i) = memchr::memrchr2(b'\n', b'\r', rest) {
                // A `\r` last may yet be followed by its `\n`.
                if rest[i] == b'\n' || i + 1 < rest.len() || self.eof {
                    return Ok(searched + i + 1);
                }
                if let Some(j) = memchr::memrchr2(b'\n', b'\r', &rest[..i]) {
                    return Ok(searched + j + 1);
                }
                searched += i;
            } else {
                searched += rest.len();
            }
            if self.eof {
                return Ok(self.buf.len() - self.head);
            }
            self.fill()?;
        }
    }
}

/// Where a game ends, as the scan of a line tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cut {
    /// The line belongs to the game.
    No,
    /// The next game starts at this byte of the line.
    At(usize),
    /// An unclosed comment ends before this line, a tag line.
    Runaway,
}

/// What the lines of a game so far tell the splitter.
#[derive(Default)]
struct Scan {
    in_comment: bool,
    /// Bytes of the game before the open comment's `{`.
    comment_at: u64,
    depth: i32,
    movetext: bool,
    tags: bool,
    blank_after_tags: bool,
    /// A result was read outside comments and variations.
    ended: bool,
    /// Where the line being scanned starts, in the game's bytes.
    line_start: usize,
    /// Lines of the game before it.
    lines_before: usize,
}

/// Where the next game starts, as the scan of a game's lines tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// At this byte of the game's bytes, in the line the scan stands at.
    At(usize),
    /// An unclosed comment ends before the line the scan stands at, a tag
    /// line.
    Runaway,
}

/// Where the fast scan of the movetext ([`Scan::movetext_lines`]) stops.
enum Fast {
    /// The end of the bytes given.
    End,
    /// The next game starts at this byte, a line's first.
    Cut(usize),
    /// The exact scan goes on from this byte of the current line (0:
    /// from the line's start, its start checks included).
    Exact(usize),
}

/// Whether `token` is a game result, in any form the reader accepts:
/// the reader's production `result` ([`whole_result`]).
#[inline(always)]
fn is_result(token: &[u8]) -> bool {
    whole_result(token).is_some()
}

/// After a result, the end of what starts at `line[i]` when it is text
/// of the game (`1-0 ff`): white space, or words and marks glued
/// together that do not start with a word that could open a game's
/// movetext ([`could_open_movetext`]): a NAG (`$1`) or a stray `}`, `]`
/// or `"` takes the word glued to it along. `None` when it could: the next
/// game starts there. (An escape line, `%` in a line's first column,
/// opens one too: [`Scan::line`] sees to it; a `%` elsewhere is a word.)
fn text_after_result(line: &[u8], i: usize) -> Option<usize> {
    let glued_end = |mut j: usize| {
        while j < line.len() {
            j = match lexer::lexeme_at(line, j) {
                Lexeme::Word => lexer::word_end(line, j).max(j + 1),
                Lexeme::Nag | Lexeme::StrayBrace | Lexeme::StrayMark => j + 1,
                _ => break,
            };
        }
        j
    };
    match lexer::lexeme_at(line, i) {
        Lexeme::Space => Some(i + lexer::space_char_len(&line[i..])),
        Lexeme::Nag | Lexeme::StrayBrace | Lexeme::StrayMark => Some(glued_end(i)),
        Lexeme::Word => {
            let word = &line[i..lexer::word_end(line, i)];
            (!could_open_movetext(word)).then(|| glued_end(i))
        }
        _ => None,
    }
}

/// The length of the UTF-8 byte order mark at the start of `bytes`: 3 or 0.
fn bom_length(bytes: &[u8]) -> usize {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    }
}

/// The end of the result token `bytes[start..end]`, taken on over the
/// rest of a draw written with spaces around its dash (`1/2 - 1/2`): one
/// result, where the `-` would otherwise begin the next game.
fn result_end(bytes: &[u8], start: usize, end: usize) -> usize {
    end + spaced_draw_rest(&bytes[start..end], &bytes[end..]).unwrap_or(0)
}

/// The bytes the scans of the movetext stop at: those that start a
/// comment, variation or tag pair (`{`, `(`, `)`, `;`, `[`), and those of
/// [`is_word_stop`]. Between two of them there is only ASCII white space,
/// words and marks that change nothing the splitter knows.
const RESULT_OR_SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(b as u8, b'{' | b'(' | b')' | b';' | b'[') || is_word_stop(b as u8);
        b += 1;
    }
    table
};

/// The bytes at which the scans of the movetext look at the word around
/// them ([`word_around`]): those that every result has one of (`-`,
/// `*`, `/`, and `½`'s), and every byte outside ASCII (white space or
/// a word, as the character tells).
const fn is_word_stop(b: u8) -> bool {
    matches!(b, b'-' | b'*' | b'/') || b >= 0x80
}

/// The bytes [`Scan::movetext_lines`] stops at: those of
/// `RESULT_OR_SPECIAL` and the line ends.
const MOVETEXT_STOPS: [bool; 256] = {
    let mut table = RESULT_OR_SPECIAL;
    table[b'\n' as usize] = true;
    table[b'\r' as usize] = true;
    table
};

/// Whether `line` is one whole tag pair of the kind that starts a game
/// (`[Event "..."]` and the rest of the roster, `Variant`, `FEN`,
/// `SetUp`), its value in quotes: where a runaway comment is cut.
fn is_game_tag_line(line: &[u8]) -> bool {
    let line = line.trim_ascii();
    if !line.starts_with(b"[") || !line.ends_with(b"]") {
        return false;
    }
    let name = lexer::tag_name(line);
    let value = line[name.end..line.len() - 1].trim_ascii();
    matches!(
        &line[name],
        b"Event"
            | b"Site"
            | b"Date"
            | b"Round"
            | b"White"
            | b"Black"
            | b"Result"
            | b"Variant"
            | b"FEN"
            | b"SetUp"
    ) && value.len() >= 2
        && value.starts_with(b"\"")
        && value.ends_with(b"\"")
}

/// The white space that starts `line` (its end included, if the line is
/// blank): its length.
fn indent(line: &[u8]) -> usize {
    line.iter()
        .take_while(|&&b| lexer::is_space_byte(b))
        .count()
}

impl Scan {
    /// Reads one line of the game (`game_bytes` of it came before);
    /// returns where the next game starts, if it does in this line.
    fn line(&mut self, line: &[u8], game_bytes: u64) -> Cut {
        match self.line_start(line) {
            Some(cut) => cut,
            None => self.body(line, 0, game_bytes),
        }
    }

    /// What a line tells by its start: where the next game starts (at the
    /// line's start, or a runaway comment ended before it), or that the
    /// line is the game's and nothing more (a blank or escape line).
    /// `None`: its lexemes tell, from its first byte.
    fn line_start(&mut self, line: &[u8]) -> Option<Cut> {
        let indent = indent(line);
        let body = &line[indent..];
        if self.in_comment {
            if is_game_tag_line(line) {
                return Some(Cut::Runaway);
            }
        } else if !body.is_empty() {
            let tag_line = body[0] == b'[';
            // After a result, any text (a tag, a move, a comment, an
            // escape line) begins the next game, but for text that
            // could not (`ff`), which stays with the game.
            let escape_line = indent == 0 && body[0] == b'%';
            if (self.ended && (escape_line || text_after_result(body, 0).is_none()))
                || (tag_line && (self.movetext || self.blank_after_tags))
            {
                return Some(Cut::At(0));
            }
            if escape_line {
                return Some(Cut::No);
            }
        }
        if body.is_empty() {
            self.blank_after_tags |= self.tags && !self.movetext;
            return Some(Cut::No);
        }
        None
    }

    /// The scan of a line (`game_bytes` of the game before it) from its
    /// byte `i` on, where a lexeme may start: its start checked already.
    fn body(&mut self, line: &[u8], mut i: usize, game_bytes: u64) -> Cut {
        while i < line.len() {
            if self.in_comment {
                i = self.comment_rest(line, i);
                continue;
            }
            if self.movetext && !self.ended {
                // Inside the movetext only the bytes of `RESULT_OR_SPECIAL`
                // can change what the scan knows: moves, numbers, NAGs and
                // white space are passed over in a tight loop.
                let from = i;
                i = next_stop(line, i, &RESULT_OR_SPECIAL);
                let Some(&b) = line.get(i) else {
                    break;
                };
                if is_word_stop(b) {
                    let (start, end) = word_around(line, from, i);
                    i = end;
                    if self.depth <= 0 && is_result(&line[start..end]) {
                        self.ended = true;
                        i = result_end(line, start, end);
                    }
                    continue;
                }
            }
            match self.lexeme(line, i, game_bytes) {
                Ok(next) => i = next,
                Err(cut) => return cut,
            }
        }
        Cut::No
    }

    /// In an open comment, from byte `i` of the line: the byte after its
    /// `}` (the comment closed), else the line's end.
    fn comment_rest(&mut self, line: &[u8], i: usize) -> usize {
        match lexer::comment_close(&line[i..]) {
            Some((j, _)) => {
                self.in_comment = false;
                i + j + 1
            }
            None => line.len(),
        }
    }

    /// The lexeme at byte `i` of the line, outside comments: the byte
    /// after it (the line's end after a `;`), or where the next game
    /// starts.
    #[inline]
    fn lexeme(&mut self, line: &[u8], i: usize, game_bytes: u64) -> Result<usize, Cut> {
        Ok(match lexer::lexeme_at(line, i) {
            Lexeme::Space => i + lexer::space_char_len(&line[i..]),
            Lexeme::BraceComment => {
                self.in_comment = true;
                self.comment_at = game_bytes + i as u64;
                i + 1
            }
            Lexeme::OpenVariation => {
                self.depth += 1;
                self.movetext = true;
                i + 1
            }
            Lexeme::CloseVariation => {
                self.depth -= 1;
                i + 1
            }
            Lexeme::LineComment => line.len(),
            Lexeme::TagPair => {
                // After a result, or in movetext where a tag pair
                // follows, the next game, written on the same line.
                let len = lexer::tag_pair_end(&line[i..]);
                // Whether it is a tag pair matters in movetext only.
                let pair = || line[i + len - 1] == b']' && lexer::opens_tag_pair(&line[i..]);
                if self.ended || (self.movetext && self.depth <= 0 && pair()) {
                    return Err(Cut::At(i));
                }
                self.tags |= !self.movetext;
                i + len
            }
            _ => self.word(line, i).ok_or(Cut::At(i))?,
        })
    }

    /// A word or a stray mark at `line[i]`: the end of it, or `None` when
    /// the next game starts there (after a result).
    fn word(&mut self, line: &[u8], i: usize) -> Option<usize> {
        if self.ended {
            return text_after_result(line, i);
        }
        self.movetext = true;
        let end = lexer::word_end(line, i).max(i + 1);
        if self.depth <= 0 && is_result(&line[i..end]) {
            self.ended = true;
            return Some(result_end(line, i, end));
        }
        Some(end)
    }
}

impl Scan {
    /// Scans the game's `bytes` from the line it stands at to their end
    /// (whole lines: the last ends in a line end or the input's end);
    /// returns where the next game starts, if it does in them. The scan
    /// then stands at the line where it starts.
    fn lines(&mut self, bytes: &[u8]) -> Option<Next> {
        while self.line_start < bytes.len() {
            let mut from = 0;
            // A line that starts with a move number begins the movetext
            // as the exact scan would find at its first byte: the fast
            // scan takes it from there (an online game's moves and clocks
            // fill one line).
            let opens_movetext = || bytes[self.line_start].is_ascii_digit();
            if !self.ended && !self.in_comment && (self.movetext || opens_movetext()) {
                self.movetext = true;
                match self.movetext_lines(bytes) {
                    Fast::End => return None,
                    Fast::Cut(at) => return Some(Next::At(at)),
                    Fast::Exact(i) => from = i,
                }
            } else if !self.movetext
                && !self.ended
                && !self.in_comment
                && !self.blank_after_tags
                && let Some(end) = tag_line_length(&bytes[self.line_start..])
            {
                self.tags = true;
                self.next_line(self.line_start + end);
                continue;
            }
            let start = self.line_start;
            let end = start + lexer::line_length(&bytes[start..]);
            let line = &bytes[start..end];
            let cut = if from == 0 {
                self.line(line, start as u64)
            } else {
                self.body(line, from, start as u64)
            };
            match cut {
                Cut::No => self.next_line(end),
                Cut::At(i) => return Some(Next::At(start + i)),
                Cut::Runaway => return Some(Next::Runaway),
            }
        }
        None
    }

    /// The scan goes on at the line starting at `start`.
    fn next_line(&mut self, start: usize) {
        self.line_start = start;
        self.lines_before += 1;
    }

    /// Lines of the movetext outside comments, before a result, as
    /// [`Scan::line`] reads them, in one tight loop that looks twice only
    /// at the bytes of `MOVETEXT_STOPS`. Stops where the exact scan must
    /// take over (a comment, variation, tag or escape line, a result), or
    /// where the next game starts.
    fn movetext_lines(&mut self, bytes: &[u8]) -> Fast {
        loop {
            let start = self.line_start;
            let mut i = start;
            // The white space [`indent`] passes over (the line ends come
            // in the loop below).
            while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | 0x0B | 0x0C) {
                i += 1;
            }
            match bytes.get(i) {
                None => {
                    self.line_start = bytes.len();
                    return Fast::End;
                }
                // A tag line after movetext: the next game.
                Some(b'[') => return Fast::Cut(start),
                Some(b'%') if i == start => return Fast::Exact(0),
                _ => {}
            }
            // The word the exact scan would be in starts at or after
            // `floor`.
            let mut floor = i;
            loop {
                i = next_movetext_stop(bytes, i);
                let Some(&b) = bytes.get(i) else {
                    self.line_start = bytes.len();
                    return Fast::End;
                };
                match b {
                    b'\n' => {
                        i += 1;
                        break;
                    }
                    b'\r' => {
                        i += 1 + usize::from(bytes.get(i + 1) == Some(&b'\n'));
                        break;
                    }
                    _ if is_word_stop(b) => {
                        let (word_start, end) = word_around(bytes, floor, i);
                        if self.depth <= 0 && is_result(&bytes[word_start..end]) {
                            self.ended = true;
                            return Fast::Exact(result_end(bytes, word_start, end) - start);
                        }
                        i = end;
                        floor = end;
                    }
                    b'{' => match lexer::comment_end_on_its_line(bytes, i + 1) {
                        // A comment closed on its line (a clock after
                        // every move of an online game) is passed over
                        // here: nothing in it changes what the scan knows.
                        Some(end) => {
                            i = end;
                            floor = end;
                        }
                        None => return Fast::Exact(i - start),
                    },
                    _ => return Fast::Exact(i - start),
                }
            }
            self.next_line(i);
        }
    }
}

/// The first byte of `MOVETEXT_STOPS` at or after `i` (`bytes.len()` if
/// none).
#[inline]
fn next_movetext_stop(bytes: &[u8], i: usize) -> usize {
    next_stop(bytes, i, &MOVETEXT_STOPS)
}

/// The first byte of `bytes` at or after `i` that `stops` marks
/// (`bytes.len()` if none): four bytes a step while none is, then one by
/// one.
#[inline(always)]
fn next_stop(bytes: &[u8], mut i: usize, stops: &[bool; 256]) -> usize {
    let stop = |b: u8| stops[usize::from(b)];
    while let Some(&[a, b, c, d]) = bytes
        .get(i..i + 4)
        .and_then(|s| <&[u8; 4]>::try_from(s).ok())
    {
        if stop(a) | stop(b) | stop(c) | stop(d) {
            break;
        }
        i += 4;
    }
    while i < bytes.len() && !stop(bytes[i]) {
        i += 1;
    }
    i
}

/// The word ([`lexer::word_end`]) around byte `i` of `bytes`, a byte of
/// [`is_word_stop`], starting at or after `floor`: its start and end.
/// Between `floor` and `i` there is only ASCII (the bytes outside it are
/// stops), so the word's start is the byte after the last that is no
/// word's. Where white space starts at `i`, an empty word after it.
fn word_around(bytes: &[u8], floor: usize, i: usize) -> (usize, usize) {
    let space = lexer::space_char_len(&bytes[i..]);
    if space > 0 {
        return (i + space, i + space);
    }
    let start = bytes[floor..i]
        .iter()
        .rposition(|&b| lexer::LEXEME[usize::from(b)] != Lexeme::Word)
        .map_or(floor, |j| floor + j + 1);
    (start, lexer::word_end(bytes, i).max(i + 1))
}

/// The tag line that fills real files, `[Name "value"]` and the line end
/// (or the input's end), as [`lexer::plain_tag_pair_end`] reads it: its
/// length. [`Scan::line`] reads such a line as one tag pair and nothing
/// else; any other line it leaves to that scan.
fn tag_line_length(bytes: &[u8]) -> Option<usize> {
    let end = lexer::plain_tag_pair_end(bytes)?;
    match bytes.get(end) {
        None => Some(end),
        Some(b'\n') => Some(end + 1),
        Some(b'\r') => Some(end + 1 + usize::from(bytes.get(end + 1) == Some(&b'\n'))),
        Some(_) => None,
    }
}

/// Decodes a game's bytes: UTF-8 if they are (a BOM dropped), else
/// Windows-1252 (each byte one character, so nothing is lost); `\r\n` and
/// a lone `\r` become `\n`. Returns the text and whether it was read as
/// Windows-1252.
pub fn decode(raw: &[u8]) -> (String, bool) {
    let (text, windows_1252) = decode_borrowed(raw);
    (text.into_owned(), windows_1252)
}

/// [`decode`], borrowing the bytes when they are UTF-8 without `\r`, as
/// they almost always are.
pub fn decode_borrowed(raw: &[u8]) -> (Cow<'_, str>, bool) {
    let body = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
    let (text, windows_1252) = match std::str::from_utf8(body) {
        Ok(s) => (Cow::Borrowed(s), false),
        Err(_) => (
            Cow::Owned(
                encoding_rs::WINDOWS_1252
                    .decode_without_bom_handling(body)
                    .0
                    .into_owned(),
            ),
            true,
        ),
    };
    // `memchr`, not the slice's `contains`: it looks at a game's every
    // byte, a few at a time.
    if memchr::memchr(b'\r', body).is_some() {
        (
            Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n")),
            windows_1252,
        )
    } else {
        (text, windows_1252)
    }
}

/// The lines of `bytes`, each with its end: `\n`, `\r\n` or a lone `\r`,
/// as the splitter reads them.
pub(crate) fn lines_with_ends(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') => i + 2,
            Some(i) => i + 1,
            None => rest.len(),
        };
        let (line, tail) = rest.split_at(end);
        rest = tail;
        Some(line)
    })
}

/// An invalid game as xpgn exports it (see
/// [`super::writer::write_invalid`]): its original bytes, taken back from
/// the `%` lines, and how many lines precede the first of them.
fn escaped_original(raw: &[u8]) -> Option<(usize, Vec<u8>)> {
    let lead = raw.len() - raw.trim_ascii_start().len();
    let rest = &raw[lead..];
    let mut lines = lines_with_ends(rest);
    let header = lines.next()?;
    let count = std::str::from_utf8(header.strip_prefix(ORIGINAL_MARK.as_bytes())?)
        .ok()?
        .trim()
        .parse::<usize>()
        .ok()?;
    // The `%` lines hold the original and one `%` a line more: a count
    // larger than the game's bytes is no escaped original, and must not
    // reach an allocation (the count is the input's to choose).
    if count > raw.len() {
        return None;
    }
    let mut original = Vec::with_capacity(count);
    for line in lines {
        if original.len() >= count {
            break;
        }
        original.extend_from_slice(line.strip_prefix(b"%")?);
    }
    if original.len() < count {
        return None;
    }
    original.truncate(count);
    let lines_before = lines_with_ends(&raw[..lead + header.len()]).count();
    Some((lines_before, original))
}

/// One game's bytes as the splitter found them, borrowed from the
/// splitter until the next game is asked for ([`GameSplitter::next_game`]);
/// [`GameBytes::to_game_text`] keeps them.
#[derive(Clone, Debug)]
pub struct GameBytes<'s> {
    /// 1-based number of the game in its input.
    pub number: usize,
    /// Where the game's first byte stands: 1-based line and column.
    pub start: Location,
    /// Byte offset of the game in the input (of its UTF-8 form for UTF-16).
    pub offset: u64,
    /// The bytes exactly as read (for UTF-16, as transcoded to UTF-8).
    pub raw: &'s [u8],
    /// The text decoded, line ends `\r\n` and `\r` read as `\n`:
    /// borrowed from `raw` when it is UTF-8 without `\r`.
    pub text: Cow<'s, str>,
    /// How the bytes were decoded.
    pub encoding: Encoding,
    /// Set when an unclosed comment was cut short at the next game.
    pub runaway: Option<Runaway>,
}

impl GameBytes<'_> {
    /// The game's text, kept.
    pub fn to_game_text(&self) -> GameText {
        GameText {
            number: self.number,
            start: self.start,
            offset: self.offset,
            raw: self.raw.to_vec(),
            text: self.text.clone().into_owned(),
            encoding: self.encoding,
            runaway: self.runaway,
        }
    }

    /// What the decoding and the splitter found about the game's bytes.
    pub fn source_notes(&self) -> SourceNotes {
        SourceNotes {
            encoding: self.encoding,
            nul: self.encoding == Encoding::Windows1252 && self.raw.contains(&0),
            runaway: self.runaway,
        }
    }
}

impl<R: BufRead> GameSplitter<R> {
    /// The game of the `len` bytes at `head` (its first byte at `start`),
    /// numbered; the next game starts after them, at `next`.
    fn game(&mut self, len: usize, next: Location, runaway: Option<Runaway>) -> GameBytes<'_> {
        self.number += 1;
        let (from, mut start) = (self.head, self.head_at);
        let offset = self.base + from as u64;
        self.head += len;
        self.head_at = next;
        let mut raw = &self.buf[from..from + len];
        if raw.trim_ascii_start().starts_with(ORIGINAL_MARK.as_bytes())
            && let Some((lines_before, original)) = escaped_original(raw)
        {
            self.original = original;
            raw = &self.original;
            start = Location {
                line: start.line + lines_before,
                column: 2,
            };
        }
        let (text, windows_1252) = decode_borrowed(raw);
        // A game that starts with the BOM stands after it.
        let encoding = match (self.encoding, windows_1252) {
            (Encoding::Utf8, true) => Encoding::Windows1252,
            (e, _) => e,
        };
        GameBytes {
            number: self.number,
            start,
            offset,
            raw,
            text,
            encoding,
            runaway,
        }
    }

    /// The next game, borrowed until the next call; `None` at the end of
    /// the input. The iterator gives the same games kept ([`GameText`]).
    pub fn next_game(&mut self) -> Option<std::io::Result<GameBytes<'_>>> {
        self.guessed = None;
        let mut scan = Scan::default();
        loop {
            let whole = match self.whole_lines(scan.line_start) {
                Ok(whole) => whole,
                Err(e) => {
                    // Nothing more is read after a failure.
                    self.eof = true;
                    self.head = self.buf.len();
                    return Some(Err(e));
                }
            };
            if whole == scan.line_start {
                break;
            }
            let game = &self.buf[self.head..self.head + whole];
            if scan.line_start == 0 && self.base + self.head as u64 == 0 {
                // The input's byte order mark stays with the first game's
                // bytes, but is no text of it: a tag line after it is the
                // game's first line, not text before a tag pair.
                scan.line_start = bom_length(game);
            }
            let Some(next) = scan.lines(game) else {
                continue;
            };
            // Where the line the scan stands at starts.
            let line_start = scan.line_start;
            let at = match scan.lines_before {
                0 => self.head_at,
                n => Location {
                    line: self.head_at.line + n,
                    column: 1,
                },
            };
            return Some(Ok(match next {
                Next::At(cut) => {
                    let before = String::from_utf8_lossy(&game[line_start..cut]);
                    let next = Location {
                        line: at.line,
                        column: at.column + before.chars().count(),
                    };
                    self.game(cut, next, None)
                }
                Next::Runaway => {
                    let runaway = Runaway {
                        swallowed: (line_start as u64).saturating_sub(scan.comment_at),
                        resumed_at: at.line,
                    };
                    self.game(line_start, at, Some(runaway))
                }
            }));
        }
        let len = scan.line_start;
        if len == 0 {
            return None;
        }
        let game = &self.buf[self.head..self.head + len];
        let body = game.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(game);
        if body.trim_ascii().is_empty() {
            // Only white space (and a BOM): no game.
            self.head += len;
            return None;
        }
        Some(Ok(self.game(len, self.head_at, None)))
    }
}

impl<R: BufRead> GameSplitter<R> {
    /// The next game cut by its layout, without the scan of its bytes: a
    /// game that opens with a tag line at the first byte runs to the
    /// first line after its tag section whose first byte but white space
    /// is `[`. A guess, which the scan ([`GameSplitter::next_game`]) makes
    /// too when reading the game finds that it ends with its result
    /// ([`super::pgn::GameEnd::ends_at_result`]): a comment that runs
    /// over a line the scan would take for the next game's tag line ends
    /// the guessed game unclosed, a tag line or any text after the result
    /// is read, and the line of `[` after the result is where the scan
    /// cuts. The caller then takes the game ([`GameSplitter::take_guessed`])
    /// or asks the scan for it; its result is the same either way.
    ///
    /// `None` where the guess is not made: the game does not open with
    /// `[` (the input's first game after a byte order mark, a file of
    /// movetext alone), it is the input's last, no line of `[` comes
    /// within a megabyte, or its bytes hold what
    /// the reading of the text cannot tell of (`\r`, an escape line,
    /// bytes that are not UTF-8). A read that fails is told
    /// by [`GameSplitter::next_game`], after the games before it.
    pub fn guess_next_game(&mut self) -> Option<GameBytes<'_>> {
        self.guessed = None;
        let mut layout = LayoutScan::default();
        let len = loop {
            let bytes = &self.buf[self.head..];
            // Never read past the bound, however much is read already.
            let bytes = &bytes[..bytes.len().min(GUESS_BYTES + 1)];
            if let Some(&first) = bytes.first() {
                if first != b'[' {
                    return None;
                }
                match layout.next_tag_line(bytes) {
                    Layout::TagLine(len) => break len,
                    Layout::Unguessed => return None,
                    Layout::More => {}
                }
            }
            if self.eof || self.buf.len() - self.head > GUESS_BYTES {
                return None;
            }
            match self.fill() {
                Ok(true) => {}
                Ok(false) => return None,
                Err(e) => {
                    self.failed = Some(e);
                    return None;
                }
            }
        };
        let raw = &self.buf[self.head..self.head + len];
        let (text, windows_1252) = decode_borrowed(raw);
        if windows_1252 || matches!(text, Cow::Owned(_)) {
            return None;
        }
        self.guessed = Some(Guessed {
            len,
            next: Location {
                line: self.head_at.line + layout.lines,
                column: 1,
            },
        });
        Some(GameBytes {
            number: self.number + 1,
            start: self.head_at,
            offset: self.base + self.head as u64,
            raw,
            text,
            encoding: self.encoding,
            runaway: None,
        })
    }

    /// Goes on from a game a splitter of the same input cut before: at
    /// byte `offset` of the input, standing at `start`, after `before`
    /// games. The bytes before it are read and dropped (a split made again
    /// from there reads the input anew).
    ///
    /// # Errors
    /// A read fails, or the input ends before `offset` (it changed).
    pub(crate) fn skip_to(
        &mut self,
        offset: u64,
        start: Location,
        before: usize,
    ) -> std::io::Result<()> {
        while self.base + (self.buf.len() as u64) < offset {
            self.head = self.buf.len();
            if !self.fill()? {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    format!(
                        "the input ends before byte {offset}, where a game started when it was read before"
                    ),
                ));
            }
        }
        self.head = (offset - self.base) as usize;
        self.head_at = start;
        self.number = before;
        self.guessed = None;
        Ok(())
    }

    /// Takes the game [`GameSplitter::guess_next_game`] gave: the next
    /// game starts after it.
    pub fn take_guessed(&mut self) {
        if let Some(Guessed { len, next }) = self.guessed.take() {
            self.number += 1;
            self.head += len;
            self.head_at = next;
        }
    }
}

/// How far [`GameSplitter::guess_next_game`] has read the lines of a
/// game: kept while more input is read.
#[derive(Clone, Copy, Debug)]
struct LayoutScan {
    /// Where the line being read starts, from the game's first byte.
    line_start: usize,
    /// Lines before it.
    lines: usize,
    /// Every line so far opened with `[`: the tag section.
    in_tags: bool,
}

impl Default for LayoutScan {
    fn default() -> LayoutScan {
        LayoutScan {
            line_start: 0,
            lines: 0,
            in_tags: true,
        }
    }
}

/// Where [`LayoutScan::next_tag_line`] stops.
enum Layout {
    /// The first line after the tag section that opens with `[` starts
    /// here.
    TagLine(usize),
    /// The bytes end first (that line's first bytes included).
    More,
    /// A line that ends in `\r`, or an escape line (`%` in the first
    /// column): no guess.
    Unguessed,
}

impl LayoutScan {
    /// Reads on from the line it stands at in `bytes` (the game's, from
    /// its first byte on) to the first line after the tag section whose
    /// first byte but white space is `[`.
    fn next_tag_line(&mut self, bytes: &[u8]) -> Layout {
        if self.lines == 0
            && memchr::memchr2(b'\n', b'\r', bytes).is_some_and(|i| bytes[i] == b'\r')
        {
            // Lines that end in `\r` are no guess's: stop at the first
            // rather than look a megabyte ahead for a `\n`. (A `\r`
            // further on is found with the game's text.)
            return Layout::Unguessed;
        }
        let from = self.line_start;
        for end in memchr::memchr_iter(b'\n', &bytes[from..]) {
            let next = from + end + 1;
            let is_indent = |b: u8| matches!(b, b' ' | b'\t' | 0x0B | 0x0C);
            let Some(&first) = bytes.get(next) else {
                return Layout::More;
            };
            let first = if is_indent(first) {
                // Rare: the first byte of the line that is no white space.
                let line = &bytes[next..];
                match line.iter().find(|&&b| !is_indent(b)) {
                    Some(&b) => b,
                    None => return Layout::More,
                }
            } else if first == b'%' {
                return Layout::Unguessed;
            } else {
                first
            };
            self.line_start = next;
            self.lines += 1;
            let opens_with_bracket = first == b'[';
            if opens_with_bracket && !self.in_tags {
                return Layout::TagLine(next);
            }
            self.in_tags &= opens_with_bracket;
        }
        Layout::More
    }
}

impl<R: BufRead> Iterator for GameSplitter<R> {
    type Item = std::io::Result<GameText>;

    fn next(&mut self) -> Option<std::io::Result<GameText>> {
        self.next_game()
            .map(|item| item.map(|game| game.to_game_text()))
    }
}

/// Reads games one by one: each item is the game's text and the game as
/// far as it reads, its diagnostics included.
pub fn read_games<R: BufRead>(input: R) -> impl Iterator<Item = std::io::Result<(GameText, Game)>> {
    GameSplitter::new(input).map(|r| {
        r.map(|gt| {
            let game = gt.read();
            (gt, game)
        })
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The splitter's scan without its fast paths: line by line, lexeme
    /// by lexeme, as [`Scan::line_start`] and [`Scan::lexeme`] read them.
    /// The splitter must cut where it cuts.
    #[derive(Default)]
    struct LineScan(Scan);

    impl LineScan {
        /// Reads one line of the game (`game_bytes` of it came before);
        /// returns where the next game starts, if it does in this line.
        pub(super) fn line(&mut self, line: &[u8], game_bytes: u64) -> Cut {
            if let Some(cut) = self.0.line_start(line) {
                return cut;
            }
            let mut i = 0;
            while i < line.len() {
                if self.0.in_comment {
                    i = self.0.comment_rest(line, i);
                    continue;
                }
                match self.0.lexeme(line, i, game_bytes) {
                    Ok(next) => i = next,
                    Err(cut) => return cut,
                }
            }
            Cut::No
        }
    }

    /// A game as [`LineScan`] cuts the input: its start, offset, bytes
    /// and runaway comment.
    type Cutting = (Location, u64, Vec<u8>, Option<Runaway>);

    /// The games of `input` as the splitter cut them before its fast
    /// paths (escaped originals are left as they stand).
    fn split_by_lines(input: &[u8]) -> Vec<Cutting> {
        let mut lines: Vec<(usize, usize, usize)> = Vec::new();
        let mut offset = 0;
        for (n, line) in lines_with_ends(input).enumerate() {
            lines.push((n + 1, offset, line.len()));
            offset += line.len();
        }
        let mut games = Vec::new();
        let mut pending: Option<(Location, usize)> = None;
        let mut next_line = 0;
        loop {
            let mut scan = LineScan::default();
            let mut start: Option<(Location, usize)> = None;
            let mut cut = None;
            loop {
                let (at, from) = match pending.take() {
                    Some(p) => p,
                    None => match lines.get(next_line) {
                        Some(&(n, off, _)) => {
                            next_line += 1;
                            (Location { line: n, column: 1 }, off)
                        }
                        None => break,
                    },
                };
                let (game_at, game_from) = *start.get_or_insert((at, from));
                let (_, off, len) = lines[next_line - 1];
                // The input's byte order mark is no text of its first line.
                let from_text = if from == 0 { bom_length(input) } else { 0 };
                let line = &input[from + from_text..off + len];
                match scan.line(line, (from + from_text - game_from) as u64) {
                    Cut::No => {}
                    Cut::At(i) => {
                        let before = String::from_utf8_lossy(&line[..i]);
                        let column = at.column + before.chars().count();
                        let i = i + from_text;
                        pending = Some((
                            Location {
                                line: at.line,
                                column,
                            },
                            from + i,
                        ));
                        cut = Some((game_at, game_from, from + i, None));
                        break;
                    }
                    Cut::Runaway => {
                        pending = Some((at, from));
                        let swallowed = (from - game_from) as u64 - scan.0.comment_at;
                        let runaway = Runaway {
                            swallowed,
                            resumed_at: at.line,
                        };
                        cut = Some((game_at, game_from, from, Some(runaway)));
                        break;
                    }
                }
            }
            match (cut, start) {
                (Some((at, from, to, runaway)), _) => {
                    games.push((at, from as u64, input[from..to].to_vec(), runaway));
                }
                (None, Some((at, from))) => {
                    let body = &input[from..];
                    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
                    if !body.trim_ascii().is_empty() {
                        games.push((at, from as u64, input[from..].to_vec(), None));
                    }
                    return games;
                }
                (None, None) => return games,
            }
        }
    }

    /// Pieces of game files: tags whole and broken, movetext, results in
    /// every form, comments that close and that never do, variations,
    /// escape lines, every line end, white space, bytes that are not
    /// ASCII.
    const SPLIT_PIECES: [&str; 52] = [
        "\u{feff}",
        "\"",
        "]",
        "\u{3000}",
        "e4$1",
        "[Event \"a\"b\"]",
        "1-0\u{a0}",
        "ff",
        "\\}",
        "{a \\} b}",
        "\\",
        " - 1/2",
        "[Event \"x\"]",
        "[Site \"a ] { b\"]",
        "[White \"a \\\" b\"]",
        "[Black",
        "[x]",
        " [Round \"1\"] ",
        "1.",
        "e4",
        "e5",
        "Nf3",
        "O-O",
        "--",
        "1-0",
        "0-1",
        "1/2-1/2",
        "1/2",
        "*",
        "½-½",
        "½",
        "0.5-0.5",
        "1-0}",
        "{",
        "}",
        "{c}",
        "(",
        ")",
        ";",
        "%",
        "%xpgn",
        "$1",
        "\n",
        "\n",
        "\r\n",
        "\r",
        " ",
        "\t",
        "\x0b",
        "\x0c",
        "é",
        "\u{a0}",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4_000))]

        /// On any mix of pieces, read in blocks of any size, the
        /// splitter cuts where the line-by-line scan cuts.
        #[test]
        fn the_splitter_cuts_where_the_line_scan_cuts(
            picks in proptest::collection::vec((0..SPLIT_PIECES.len(), any::<bool>()), 0..60),
            block in 1usize..40,
        ) {
            let mut text = String::new();
            for (i, space) in picks {
                text.push_str(SPLIT_PIECES[i]);
                if space {
                    text.push(' ');
                }
            }
            let input = text.as_bytes();
            let expected = split_by_lines(input);
            let mut splitter = GameSplitter::with_block(input, block);
            let mut got = Vec::new();
            while let Some(game) = splitter.next_game() {
                let game = game.unwrap();
                got.push((game.start, game.offset, game.raw.to_vec(), game.runaway));
            }
            prop_assert_eq!(got, expected, "{:?}", text);
        }
    }

    /// Pieces of game files laid out as they mostly are (tag lines, blank
    /// lines, movetext lines, results), with what can end a game
    /// elsewhere: indented and broken tag lines, comments over lines,
    /// text after a result, escape lines, `;` comments, `\r\n`.
    const LAYOUT_PIECES: [&str; 40] = [
        "[Event \"x\"]\n",
        "[Site \"a ] { b\"]\n",
        "[White \"a \\\" b\"]\n",
        "[Black\n",
        " [Round \"1\"]\n",
        "[Date \"x\"] {c}\n",
        "\n",
        "\n\n",
        "1. e4 e5 ",
        "2. Nf3 ",
        "Nc6 ",
        "O-O ",
        "1-0",
        "0-1",
        "1/2-1/2",
        "*",
        " 1/2 - 1/2",
        "½-½",
        "{c}",
        "{c\n",
        "}",
        "( 2. d4 )",
        "(",
        ")",
        "$1 ",
        "ff",
        "\u{a0}",
        " ",
        "\t",
        "\r\n",
        ";c\n",
        "%e\n",
        "[%clk 0:01:00]",
        "{ [%clk 0:01:00] }",
        "\n[%clk 0:01:00]\n",
        "\n  [Event \"y\"]\n",
        "é",
        "\u{feff}",
        "--",
        "\x0c",
    ];

    /// The games of `input` as the splitter cuts them, each read once
    /// where its layout cut is vouched for by the reading, else cut by
    /// the scan.
    fn split_reading_once(input: &[u8], block: usize) -> Vec<(usize, GameText)> {
        struct Nothing;
        impl crate::notation::visitor::Visitor<'_> for Nothing {}
        let mut splitter = GameSplitter::with_block(input, block);
        let mut games = Vec::new();
        loop {
            if let Some(game) = splitter.guess_next_game() {
                let end = crate::notation::pgn::read_to_end(&game.text, game.start, &mut Nothing);
                if end.ends_at_result {
                    games.push((1, game.to_game_text()));
                    splitter.take_guessed();
                    continue;
                }
            }
            match splitter.next_game() {
                Some(game) => games.push((0, game.unwrap().to_game_text())),
                None => return games,
            }
        }
    }

    /// Fails unless the games of `text` read once where they can are
    /// those the scan cuts, read in blocks of `block` bytes.
    fn read_once_as_scanned(text: &str, block: usize) -> Result<(), TestCaseError> {
        let input = text.as_bytes();
        let scanned: Vec<GameText> = GameSplitter::with_block(input, block)
            .map(|g| g.unwrap())
            .collect();
        let once: Vec<GameText> = split_reading_once(input, block)
            .into_iter()
            .map(|(_, g)| g)
            .collect();
        prop_assert_eq!(once, scanned, "{:?}", text);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4_000))]

        /// A game cut by its layout and vouched for by its reading is the
        /// game the scan cuts, on any mix of pieces read in blocks of any
        /// size, and so are the games after it.
        #[test]
        fn a_game_read_once_is_the_game_the_scan_cuts(
            picks in proptest::collection::vec(0..LAYOUT_PIECES.len(), 0..40),
            block in 1usize..40,
        ) {
            let text: String = picks.into_iter().map(|i| LAYOUT_PIECES[i]).collect();
            read_once_as_scanned(&text, block)?;
        }
    }

    /// A game's tag lines, mostly whole.
    pub(crate) const LAYOUT_TAGS: [&str; 10] = [
        "[Event \"x\"]\n",
        "[Event \"x\"]\n",
        "[Event \"x\"]\n",
        "[Event \"x\"]\n",
        "[Site \"a ] { b\"]\n",
        "[White \"a \\\" b\"]\n",
        " [Round \"1\"]\n",
        "[Date \"x\"] {c}\n",
        "[Black\n",
        "[Result \"*\"] 1. e4 *\n",
    ];

    /// What a movetext holds, the odd included.
    pub(crate) const LAYOUT_MOVES: [&str; 26] = [
        "1. e4 e5 ",
        "1. e4 e5 ",
        "1. e4 e5 ",
        "2. Nf3 ",
        "2. Nf3 ",
        "2. Nf3 ",
        "Nc6\n",
        "Nc6\n",
        "{ [%clk 0:01:00] } ",
        "{ [%clk 0:01:00] } ",
        "Nc6\n",
        "O-O ",
        "{c} ",
        "{c\nd} ",
        "{c\n[Event \"z\"]\n} ",
        "{ [%clk 0:01:00] } ",
        "{\n[%clk 0:01:00]\n} ",
        "( 2. d4 ) ",
        "( 2. d4 1-0 ) ",
        "$1 ",
        ") ",
        "\n  [Site \"y\"]\n",
        "[%clk 0:01:00] ",
        "\n%e\n",
        "; c { d\n",
        "; c\n[Event \"z\"]\n",
    ];

    /// What ends a game and what follows it.
    pub(crate) const LAYOUT_ENDS: [&str; 16] = [
        "1-0\n\n",
        "1-0\n\n",
        "1-0\n\n",
        "0-1\n\n",
        "0-1\n\n",
        "0-1\n",
        "1/2-1/2\n\n\n",
        "*\n\n",
        "1/2 - 1/2\n\n",
        "½-½\n\n",
        "1-0 ff\n\n",
        "1-0 {c}\n\n",
        "1-0\n\u{a0}\n",
        "1-0\n;c\n",
        "\n",
        "1-0\r\n\r\n",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4_000))]

        /// The same on games laid out as files lay them out, with the odd
        /// piece among them: most are guessed and vouched for.
        #[test]
        fn games_laid_out_as_files_are_read_once_as_the_scan_cuts_them(
            games in proptest::collection::vec(
                (
                    proptest::collection::vec(0..LAYOUT_TAGS.len(), 1..4),
                    any::<bool>(),
                    proptest::collection::vec(0..LAYOUT_MOVES.len(), 0..6),
                    0..LAYOUT_ENDS.len(),
                ),
                0..6,
            ),
            block in 1usize..40,
        ) {
            let mut text = String::new();
            for (tags, blank, moves, end) in games {
                tags.into_iter().for_each(|i| text.push_str(LAYOUT_TAGS[i]));
                if blank {
                    text.push('\n');
                }
                moves.into_iter().for_each(|i| text.push_str(LAYOUT_MOVES[i]));
                text.push_str(LAYOUT_ENDS[end]);
            }
            read_once_as_scanned(&text, block)?;
        }
    }

    #[test]
    fn a_game_followed_by_games_without_tags_is_not_guessed_past_a_megabyte() {
        let mut input = String::from("[Event \"a\"]\n\n1. e4 *\n\n");
        while input.len() < 3 * GUESS_BYTES {
            input.push_str("1. d4 d5 2. c4 *\n\n");
        }
        input.push_str("[Event \"b\"]\n\n1. e4 *\n");
        // Read a block at a time, as from a file, or all at once.
        let by_blocks = std::io::BufReader::with_capacity(BLOCK, input.as_bytes());
        let mut splitter = GameSplitter::new(by_blocks);
        assert!(splitter.guess_next_game().is_none());
        assert!(splitter.buf.len() <= GUESS_BYTES + 2 * BLOCK);
        let first = splitter.next_game().unwrap().unwrap();
        assert_eq!(first.text, "[Event \"a\"]\n\n1. e4 *\n\n");
        let mut splitter = GameSplitter::new(input.as_bytes());
        assert!(splitter.guess_next_game().is_none());
    }

    #[test]
    fn lines_ending_in_cr_are_not_guessed_nor_looked_ahead_for_a_line_feed() {
        let game = "[Event \"a\"]\r\r1. e4 *\r\r";
        let input = game.repeat(3 * GUESS_BYTES / game.len());
        let by_blocks = std::io::BufReader::with_capacity(BLOCK, input.as_bytes());
        let mut splitter = GameSplitter::new(by_blocks);
        assert!(splitter.guess_next_game().is_none());
        assert!(splitter.buf.len() <= 2 * BLOCK);
        assert_eq!(splitter.next_game().unwrap().unwrap().raw, game.as_bytes());
    }

    #[test]
    fn games_of_the_common_layout_are_read_once_and_the_rest_scanned() {
        let input = "[Event \"a\"]\n[Site \"b\"]\n\n1. e4 e5 2. Nf3 { [%clk 0:01:00] } 1-0\n\n\
                     [Event \"c\"]\n\n1. d4 {a comment\nover two lines} d5 *\n\n\
                     [Event \"d\"]\n\n1. c4 0-1 ff\n\n\
                     [Event \"e\"]\n\n1. Nf3 1/2-1/2\n\n\
                     [Event \"f\"]\n\n1. b3 *\n";
        let games = split_reading_once(input.as_bytes(), 7);
        let once: Vec<usize> = games.iter().map(|(once, _)| *once).collect();
        // A comment over two lines whose second does not open with `[`
        // is no cut of the scan; the text after a result is not vouched
        // for, and the last game has no next line.
        assert_eq!(once, [1, 1, 0, 1, 0]);
        let scanned: Vec<GameText> = GameSplitter::new(input.as_bytes())
            .map(|g| g.unwrap())
            .collect();
        let games: Vec<GameText> = games.into_iter().map(|(_, g)| g).collect();
        assert_eq!(games, scanned);
        assert_eq!(games[3].start.line, 15);
    }

    #[test]
    fn an_escaped_original_whose_count_exceeds_the_game_is_read_as_text() {
        for count in ["18446744073709551615", "99999999999999", "4000000000", "30"] {
            let input = format!("%xpgn-original {count}\n%1. e4 e5 *\n");
            let games: Vec<GameText> = GameSplitter::new(input.as_bytes())
                .map(|g| g.unwrap())
                .collect();
            assert_eq!(games.len(), 1, "{count}");
            // Not taken back: the `%` lines are escape lines, nothing else.
            assert_eq!(games[0].raw, input.as_bytes(), "{count}");
            assert!(games[0].read().moves.is_empty(), "{count}");
        }
        let fits = "%xpgn-original 8\n%1. e4 *\n";
        let game = GameSplitter::new(fits.as_bytes()).next().unwrap().unwrap();
        assert_eq!(game.raw, b"1. e4 *\n");
    }

    #[test]
    fn a_byte_order_mark_stays_with_the_first_game_and_is_no_game_of_its_own() {
        let input = "\u{feff}[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n";
        let games: Vec<GameText> = GameSplitter::new(input.as_bytes())
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(games.len(), 2);
        assert!(games[0].raw.starts_with(b"\xEF\xBB\xBF[Event"));
        assert_eq!(games[0].read().tag("Event"), Some("a"));
        assert_eq!(games[1].start, Location { line: 4, column: 1 });
    }

    /// The games of `input` as the splitter cuts them, as text.
    fn cut(input: &str) -> Vec<String> {
        GameSplitter::new(input.as_bytes())
            .map(|g| String::from_utf8(g.unwrap().raw).unwrap())
            .collect()
    }

    #[test]
    fn the_splitter_ends_words_and_tag_pairs_where_the_reader_does() {
        // `}`, `$` and white space outside ASCII end a word: the result
        // is read, and the next game starts after it.
        for result in ["e5}1-0", "e5 1-0$1", "e5 1-0\u{a0}"] {
            let input = format!("1. e4 {result} 1. d4 *\n");
            assert_eq!(cut(&input).len(), 2, "{input:?}");
            let games = read_games(input.as_bytes())
                .map(|g| g.unwrap().1)
                .collect::<Vec<_>>();
            assert_eq!(games[0].result.as_deref(), Some("1-0"), "{input:?}");
        }
        // A NAG or a stray mark after a result stays with the game, and
        // so does the word glued to it.
        assert_eq!(cut("1. e4 1-0 $1 \"x\" }2\n"), ["1. e4 1-0 $1 \"x\" }2\n"]);
        // A tag pair the production refuses ends, for both, at its first
        // `]` when no `"]` comes before the next `[`.
        assert_eq!(
            cut("[Event \"a\"]\n[x] [Site \"b\"]\n1. e4 *\n"),
            ["[Event \"a\"]\n[x] [Site \"b\"]\n1. e4 *\n"]
        );
        let game = read_games(&b"[x] [Site \"b\"]\n1. e4 *\n"[..])
            .next()
            .unwrap()
            .unwrap()
            .1;
        assert_eq!(game.tag("Site"), Some("b"));
        assert_eq!(cut("1. e4 [x]1-0[Event \"b\"]\n").len(), 2);
    }

    #[test]
    fn after_a_result_only_an_escape_line_in_the_first_column_opens_a_game() {
        assert_eq!(cut("1. e4 1-0 %x\n"), ["1. e4 1-0 %x\n"]);
        assert_eq!(cut("1. e4 1-0\n %x\n"), ["1. e4 1-0\n %x\n"]);
        assert_eq!(
            cut("1. e4 1-0\n%x\n1. d4 *\n"),
            ["1. e4 1-0\n", "%x\n1. d4 *\n"]
        );
    }

    #[test]
    fn a_draw_written_with_spaces_around_its_dash_is_one_result() {
        for draw in ["1/2 - 1/2", "½ - ½", "1/2\t-  1/2"] {
            let input =
                format!("[Event \"a\"]\n1. e4 e5 {draw}\n\n[Event \"b\"]\n1. d4 {draw} {{c}}\n");
            let games: Vec<GameText> = GameSplitter::new(input.as_bytes())
                .map(|g| g.unwrap())
                .collect();
            assert_eq!(games.len(), 2, "{draw}");
            let first = games[0].read();
            assert_eq!(first.result.as_deref(), Some("1/2-1/2"), "{draw}");
            assert_eq!(first.moves.len(), 2, "{draw}");
            assert!(!first.broken(), "{draw}: {:?}", first.diagnostics);
            assert!(
                first.diagnostics.iter().any(|d| d.message.contains(draw)),
                "{draw}: {:?}",
                first.diagnostics
            );
            assert_eq!(games[1].read().final_comments, ["c"], "{draw}");
        }
        // Not a draw: the dash begins the next game's text.
        let games: Vec<GameText> = GameSplitter::new(&b"1. e4 1/2 - 1-0\n"[..])
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(games.len(), 2);
    }

    #[test]
    fn input_that_is_not_text_is_refused_before_any_game() {
        let refused = |bytes: &[u8]| {
            let mut games = GameSplitter::new(bytes);
            let first = games.next().map(|g| g.map_err(|e| NotText::of(&e)));
            (first.map(|r| r.err().flatten()), games.next().is_none())
        };
        for (bytes, why) in [
            (&b"\x1f\x8b\x08\x00\x00"[..], NotText::Compressed("gzip")),
            (b"\x28\xb5\x2f\xfd\x00", NotText::Compressed("zstd")),
            (b"BZh91AY&SY\x00\x01", NotText::Compressed("bzip2")),
            (b"\xfd7zXZ\x00\x00", NotText::Compressed("xz")),
            (b"PK\x03\x04\x14\x00", NotText::Compressed("zip")),
            (b"[Event \"x\"]\n1. e4\x00 *", NotText::Binary),
        ] {
            assert_eq!(refused(bytes), (Some(Some(why)), true), "{bytes:?}");
        }
        // Text that starts as a magic number might, UTF-16 with its byte
        // order mark (NUL in every other byte), and an exported original
        // that holds a NUL on its escape lines, are read.
        for text in [
            &b"BZh is not bzip2\n1. e4 *"[..],
            b"PK vs ND\n1. e4 *",
            b"\xff\xfe1\x00.\x00 \x00e\x004\x00 \x00*\x00",
            b"%xpgn-original 12\n%1. e4\x00 e9 *\n1. e4 *\n",
        ] {
            let game = GameSplitter::new(text).next().unwrap().unwrap();
            assert!(game.text.contains("e4"), "{text:?}");
        }
        // NUL after the bytes looked at: read, with the warning it earns.
        let mut late = "1. e4 e5 *\n".repeat(SNIFF_BYTES / 11 + 1).into_bytes();
        late.extend_from_slice(b"1. d4\x00\xe9 *\n");
        let games: Vec<GameText> = GameSplitter::new(&late[..]).map(|g| g.unwrap()).collect();
        assert!(games.last().unwrap().source_notes().nul);
    }

    #[test]
    fn the_splitter_cuts_the_notation_examples_where_the_line_scan_cuts() {
        let file = include_bytes!("../../tests/data/notation11.pgn");
        let lf: Vec<u8> = file.iter().copied().filter(|&b| b != b'\r').collect();
        let cr: Vec<u8> = lf
            .iter()
            .map(|&b| if b == b'\n' { b'\r' } else { b })
            .collect();
        let crlf = String::from_utf8_lossy(&lf)
            .replace('\n', "\r\n")
            .into_bytes();
        for input in [&file[..], &lf, &cr, &crlf] {
            let expected = split_by_lines(input);
            assert!(expected.len() > 10);
            for block in [1, 2, 3, 7, 64, 4096] {
                let mut splitter = GameSplitter::with_block(input, block);
                let mut got = Vec::new();
                while let Some(game) = splitter.next_game() {
                    let game = game.unwrap();
                    got.push((game.start, game.offset, game.raw.to_vec(), game.runaway));
                }
                assert_eq!(got, expected, "block {block}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4_000))]
        /// The four-bytes-a-step search finds the first marked byte, as a
        /// byte-by-byte one does, from any start, with either table.
        #[test]
        fn next_stop_finds_the_first_marked_byte(
            bytes in proptest::collection::vec(
                prop::sample::select(vec![b'a', b'1', b'-', b'/', b'*', b' ', b'{', b'(', b'\n', b'\r', b'[', b'%']),
                0..40,
            ),
            from in 0usize..44,
        ) {
            let from = from.min(bytes.len());
            for stops in [&RESULT_OR_SPECIAL, &MOVETEXT_STOPS] {
                let bytewise = bytes[from..]
                    .iter()
                    .position(|&b| stops[usize::from(b)])
                    .map_or(bytes.len(), |j| from + j);
                prop_assert_eq!(next_stop(&bytes, from, stops), bytewise);
            }
        }
    }
}
