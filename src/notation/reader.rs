//! The streaming reader: splits a byte stream into games, one at a time,
//! in bounded memory (the largest game, not the file), decodes each (UTF-8
//! with or without BOM, else Latin-1, without loss) and parses it. One bad
//! game never stops the others: the game boundary is the recovery point.

use std::io::BufRead;

use super::game::Game;
use super::pgn::{ParseError, parse_game};

/// One game's text as it stands in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameText {
    /// 1-based number of the game in its input.
    pub number: usize,
    /// 1-based line where the game starts.
    pub first_line: usize,
    /// Byte offset of the game in the input.
    pub offset: u64,
    /// The bytes exactly as read.
    pub raw: Vec<u8>,
    /// The text decoded: UTF-8, or Latin-1 where the bytes are not UTF-8;
    /// line ends `\r\n` read as `\n`.
    pub text: String,
    /// Whether the bytes were decoded as Latin-1.
    pub latin1: bool,
}

/// Splits a byte stream into [`GameText`]s.
pub struct GameSplitter<R> {
    input: R,
    line_no: usize,
    offset: u64,
    number: usize,
    carry: Option<(Vec<u8>, usize, u64)>,
    done: bool,
}

impl<R: BufRead> GameSplitter<R> {
    /// Reads games from `input`.
    pub fn new(input: R) -> GameSplitter<R> {
        GameSplitter {
            input,
            line_no: 0,
            offset: 0,
            number: 0,
            carry: None,
            done: false,
        }
    }

    /// Appends the next line to `raw`; returns its line number and byte
    /// offset, `None` at the end of the input.
    fn read_line(&mut self, raw: &mut Vec<u8>) -> std::io::Result<Option<(usize, u64)>> {
        let start = raw.len();
        let n = self.input.read_until(b'\n', raw)?;
        if n == 0 {
            return Ok(None);
        }
        if self.line_no == 0 && raw[start..].starts_with(b"\xEF\xBB\xBF") {
            raw.drain(start..start + 3);
            self.offset += 3;
        }
        let at = (self.line_no + 1, self.offset);
        self.line_no += 1;
        self.offset += (raw.len() - start) as u64;
        Ok(Some(at))
    }
}

/// What a line tells the splitter.
#[derive(Default)]
struct Scan {
    in_comment: bool,
    depth: i32,
    movetext: bool,
}

impl Scan {
    /// Updates the state with one line; returns whether the line ends with
    /// a game result outside comments and variations.
    fn line(&mut self, line: &[u8]) -> bool {
        let trimmed = line.trim_ascii_start();
        if !self.in_comment && (trimmed.starts_with(b"[") || line.starts_with(b"%")) {
            return false;
        }
        let mut last: &[u8] = &[];
        let mut token_start: Option<usize> = None;
        let mut i = 0;
        while i < line.len() {
            if self.in_comment {
                match line[i..].iter().position(|&b| b == b'}') {
                    Some(j) => {
                        self.in_comment = false;
                        i += j + 1;
                        continue;
                    }
                    None => break,
                }
            }
            let b = line[i];
            if matches!(b, b'{' | b'(' | b')' | b';') || b.is_ascii_whitespace() {
                if let Some(s) = token_start.take() {
                    last = &line[s..i];
                }
                match b {
                    b'{' => self.in_comment = true,
                    b'(' => {
                        self.depth += 1;
                        self.movetext = true;
                    }
                    b')' => self.depth -= 1,
                    b';' => break,
                    _ => {}
                }
            } else if token_start.is_none() {
                token_start = Some(i);
                self.movetext = true;
            }
            i += 1;
        }
        if let Some(s) = token_start {
            if !self.in_comment {
                last = &line[s..i];
            }
        }
        !self.in_comment && self.depth <= 0 && matches!(last, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
    }
}

/// Decodes a game's bytes: UTF-8 if they are, else Latin-1 (each byte one
/// character), so nothing is lost; `\r\n` becomes `\n`.
pub fn decode(raw: &[u8]) -> (String, bool) {
    let (text, latin1) = match std::str::from_utf8(raw) {
        Ok(s) => (s.to_string(), false),
        Err(_) => (raw.iter().map(|&b| b as char).collect(), true),
    };
    if raw.contains(&b'\r') {
        (text.replace("\r\n", "\n"), latin1)
    } else {
        (text, latin1)
    }
}

impl<R: BufRead> Iterator for GameSplitter<R> {
    type Item = std::io::Result<GameText>;

    fn next(&mut self) -> Option<std::io::Result<GameText>> {
        if self.done {
            return None;
        }
        let mut raw = Vec::new();
        let mut start: Option<(usize, u64)> = None;
        let mut scan = Scan::default();
        if let Some((line, first_line, offset)) = self.carry.take() {
            scan.line(&line);
            raw = line;
            start = Some((first_line, offset));
        }
        loop {
            let line_start = raw.len();
            let at = match self.read_line(&mut raw) {
                Ok(Some(at)) => at,
                Ok(None) => {
                    self.done = true;
                    break;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            let line = &raw[line_start..];
            let is_tag = line.trim_ascii_start().starts_with(b"[");
            if is_tag && !scan.in_comment && scan.movetext {
                self.carry = Some((raw.split_off(line_start), at.0, at.1));
                break;
            }
            if start.is_none() {
                if line.trim_ascii().is_empty() {
                    raw.truncate(line_start);
                    continue;
                }
                start = Some(at);
            }
            if scan.line(&raw[line_start..]) {
                break;
            }
        }
        let (first_line, offset) = start?;
        self.number += 1;
        let (text, latin1) = decode(&raw);
        Some(Ok(GameText {
            number: self.number,
            first_line,
            offset,
            raw,
            text,
            latin1,
        }))
    }
}

/// Reads games one by one: each item is the game's text and the game, or
/// the syntax error that stopped its parsing.
pub fn read_games<R: BufRead>(
    input: R,
) -> impl Iterator<Item = std::io::Result<(GameText, Result<Game, ParseError>)>> {
    GameSplitter::new(input).map(|r| {
        r.map(|gt| {
            let parsed = parse_game(&gt.text, gt.first_line);
            (gt, parsed)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(input: &[u8]) -> Vec<GameText> {
        GameSplitter::new(input).map(|g| g.unwrap()).collect()
    }

    #[test]
    fn splits_at_tags_after_movetext_and_after_results() {
        let input = b"\xEF\xBB\xBF[Event \"a\"]\r\n\r\n1. e4 {a [bracket]\n[not a tag]} e5 1-0\r\n\r\n[Event \"b\"]\n1. d4 *\n1. c4 c5\n\n[Event \"c\"]\n\n1. Nf3";
        let games = split(input);
        assert_eq!(games.len(), 4);
        assert_eq!(
            (games[0].number, games[0].first_line, games[0].offset),
            (1, 1, 3)
        );
        assert!(games[0].text.contains("[not a tag]"));
        assert!(!games[0].text.contains('\r'));
        assert!(games[0].raw.ends_with(b"1-0\r\n"));
        assert_eq!(games[1].first_line, 6);
        assert_eq!(games[2].text, "1. c4 c5\n\n");
        assert_eq!(
            (games[3].first_line, games[3].text.as_str()),
            (10, "[Event \"c\"]\n\n1. Nf3")
        );
        let total: usize = games.iter().map(|g| g.raw.len()).sum();
        assert_eq!(
            total,
            input.len() - 5,
            "all but the BOM and a blank line between games"
        );
    }

    #[test]
    fn latin1_is_decoded_without_loss() {
        let games = split(b"[White \"M\xfcller\"]\n1. e4 *\n");
        assert!(games[0].latin1);
        assert!(games[0].text.contains("Müller"));
        let (game_text, parsed) = read_games(&b"[White \"M\xfcller\"]\n1. e4 *\n"[..])
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(parsed.unwrap().tag("White"), Some("Müller"));
        assert_eq!(game_text.number, 1);
    }
}
