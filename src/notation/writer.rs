//! Writes games: canonical XPGN (PGN export format: the seven-tag roster,
//! then the other tags; SAN with the least disambiguation; lines of at
//! most 80 characters; comments, NAGs and variations kept), the same with
//! long algebraic or coordinate movetext, JSON, or the position string
//! after every ply. What is written reads back to the same game.

use serde::Serialize;

use super::coord::write_coord;
use super::game::{Game, Node};
use super::position::write_position;
use super::replay::{ReplayError, resolve_node, start_position};
use super::san::{write_lan, write_san};
use crate::rules::{Color, Move, Position};

/// Which notation movetext is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveNotation {
    /// SAN (`Nf3`).
    San,
    /// Long algebraic (`Ng1-f3`).
    Lan,
    /// Coordinate (`g1f3`).
    Coord,
}

/// The seven-tag roster, in export order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// A replayed move with the positions around it.
#[derive(Clone, Debug)]
pub struct Ply<'g> {
    /// The move as written in the game.
    pub node: &'g Node,
    /// The legal move it names.
    pub mv: Move,
    /// The position before it.
    pub before: Position,
    /// Alternatives, each replayed.
    pub variations: Vec<Vec<Ply<'g>>>,
}

fn replay_line<'g>(
    pos: &Position,
    nodes: &'g [Node],
    first_ply: usize,
) -> Result<Vec<Ply<'g>>, ReplayError> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(nodes.len());
    for (i, node) in nodes.iter().enumerate() {
        let variations = node
            .variations
            .iter()
            .map(|v| replay_line(&pos, v, first_ply + i))
            .collect::<Result<Vec<_>, _>>()?;
        let mv = resolve_node(&pos, node).map_err(|(kind, message)| ReplayError {
            kind,
            ply: Some(first_ply + i),
            in_variation: false,
            at: node.at,
            text: Some(node.text.to_string()),
            message: format!("`{}`: {message}", node.text),
        })?;
        let before = pos.clone();
        pos.play_unchecked(&mv);
        out.push(Ply {
            node,
            mv,
            before,
            variations,
        });
    }
    Ok(out)
}

/// Replays `game` into a tree of [`Ply`]s, with its start position.
///
/// # Errors
/// The first fault (unknown variant, bad FEN tag, illegal move).
pub fn replay_tree(game: &Game) -> Result<(Position, Vec<Ply<'_>>), ReplayError> {
    let start = start_position(game)?;
    let tree = replay_line(&start, &game.moves, 1)?;
    Ok((start, tree))
}

/// Escapes a tag value (`"` and `\`).
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The tags in export order: the seven-tag roster (missing ones as `?`,
/// the result from the movetext), then the others as they came.
pub fn export_tags(game: &Game) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for name in SEVEN_TAG_ROSTER {
        let value = match (game.tag(name), name) {
            (Some(v), _) => v.to_string(),
            (None, "Result") => game.result.clone().unwrap_or_else(|| "*".into()),
            (None, "Date") => "????.??.??".into(),
            (None, _) => "?".into(),
        };
        out.push((name.to_string(), value));
    }
    for (n, v) in &game.tags {
        if !SEVEN_TAG_ROSTER.contains(&n.as_str()) {
            out.push((n.clone(), v.clone()));
        }
    }
    out
}

/// Fills lines of at most 80 characters with tokens.
struct Lines {
    out: String,
    line_len: usize,
    /// The next token follows without a space (after `(`).
    glue: bool,
}

impl Lines {
    fn token(&mut self, t: &str) {
        let len = t.chars().count();
        let space = usize::from(self.line_len > 0 && !self.glue);
        if self.line_len > 0 && self.line_len + space + len > 80 {
            self.out.push('\n');
            self.line_len = 0;
        } else if space == 1 {
            self.out.push(' ');
            self.line_len += 1;
        }
        self.glue = false;
        self.out.push_str(t);
        self.line_len += len;
    }

    /// A token written straight after the previous one (`)`).
    fn attach(&mut self, t: &str) {
        if self.line_len + t.len() > 80 {
            self.out.push('\n');
            self.line_len = 0;
        }
        self.out.push_str(t);
        self.line_len += t.len();
    }

    /// A comment, split into words so lines stay short (runs of white
    /// space become one space). A text with `}` cannot stand inside `{}`: it
    /// is written as a `;` comment, which ends the line.
    fn comment(&mut self, text: &str) {
        let words: Vec<&str> = text.split_whitespace().collect();
        if text.contains('}') {
            self.token(&format!(";{}", words.join(" ")));
            self.out.push('\n');
            self.line_len = 0;
            self.glue = false;
            return;
        }
        match words.as_slice() {
            [] => self.token("{}"),
            [one] => self.token(&format!("{{{one}}}")),
            [first, middle @ .., last] => {
                self.token(&format!("{{{first}"));
                for w in middle {
                    self.token(w);
                }
                self.token(&format!("{last}}}"));
            }
        }
    }
}

fn move_text(ply: &Ply<'_>, notation: MoveNotation) -> String {
    match notation {
        MoveNotation::San => write_san(&ply.before, &ply.mv),
        MoveNotation::Lan => write_lan(&ply.before, &ply.mv),
        MoveNotation::Coord => write_coord(&ply.before, &ply.mv),
    }
}

fn write_line(lines: &mut Lines, plies: &[Ply<'_>], notation: MoveNotation) {
    let mut need_number = true;
    for ply in plies {
        for c in &ply.node.comments_before {
            lines.comment(c);
            need_number = true;
        }
        let pos = &ply.before;
        let n = pos.fullmove_number();
        match pos.turn() {
            Color::White => lines.token(&format!("{n}. {}", move_text(ply, notation))),
            Color::Black if need_number => {
                lines.token(&format!("{n}... {}", move_text(ply, notation)))
            }
            Color::Black => lines.token(&move_text(ply, notation)),
        }
        need_number = false;
        for nag in &ply.node.nags {
            lines.token(&format!("${nag}"));
        }
        for c in &ply.node.comments {
            lines.comment(c);
            need_number = true;
        }
        for v in &ply.variations {
            lines.token("(");
            lines.glue = true;
            write_line(lines, v, notation);
            lines.attach(")");
            need_number = true;
        }
    }
}

/// Writes `game` as XPGN with movetext in `notation`.
///
/// ```
/// use xpgn::notation::{pgn::parse_game, writer::{write_game, MoveNotation}};
/// let g = parse_game("[White \"A\"] 1. e2e4 e7e5 {ok} 2. g1f3 *", 1).unwrap();
/// let text = write_game(&g, MoveNotation::San).unwrap();
/// assert!(text.ends_with("1. e4 e5 {ok} 2. Nf3 *\n\n"));
/// ```
///
/// # Errors
/// A game that does not replay cannot be rewritten; write its original text.
pub fn write_game(game: &Game, notation: MoveNotation) -> Result<String, ReplayError> {
    let (_, tree) = replay_tree(game)?;
    let mut out = String::new();
    for (name, value) in export_tags(game) {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    out.push('\n');
    let mut lines = Lines {
        out: String::new(),
        line_len: 0,
        glue: false,
    };
    write_line(&mut lines, &tree, notation);
    for c in &game.final_comments {
        lines.comment(c);
    }
    // Only a termination marker may end the movetext: a Result tag such
    // as `0-0` would read back as castling.
    let result = game
        .result
        .as_deref()
        .or_else(|| game.tag("Result"))
        .filter(|r| ["1-0", "0-1", "1/2-1/2", "*"].contains(r))
        .unwrap_or("*");
    lines.token(result);
    out.push_str(&lines.out);
    out.push_str("\n\n");
    Ok(out)
}

/// One ply in the JSON form.
#[derive(Serialize)]
struct JsonPly {
    san: String,
    lan: String,
    coord: String,
    fen: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    comments_before: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    comments: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    nags: Vec<u8>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    variations: Vec<Vec<JsonPly>>,
}

#[derive(Serialize)]
struct JsonGame {
    tags: serde_json::Map<String, serde_json::Value>,
    variant: &'static str,
    start: String,
    moves: Vec<JsonPly>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    final_comments: Vec<String>,
    result: String,
}

fn json_line(plies: &[Ply<'_>]) -> Vec<JsonPly> {
    plies
        .iter()
        .map(|p| {
            let mut after = p.before.clone();
            after.play_unchecked(&p.mv);
            JsonPly {
                san: write_san(&p.before, &p.mv),
                lan: write_lan(&p.before, &p.mv),
                coord: write_coord(&p.before, &p.mv),
                fen: write_position(&after),
                comments_before: p.node.comments_before.clone(),
                comments: p.node.comments.clone(),
                nags: p.node.nags.clone(),
                variations: p.variations.iter().map(|v| json_line(v)).collect(),
            }
        })
        .collect()
}

/// Writes `game` as one JSON document (one line).
///
/// # Errors
/// A game that does not replay.
pub fn write_json(game: &Game) -> Result<String, ReplayError> {
    let (start, tree) = replay_tree(game)?;
    let tags = game
        .tags
        .iter()
        .map(|(n, v)| (n.clone(), serde_json::Value::String(v.clone())))
        .collect();
    let doc = JsonGame {
        tags,
        variant: start.variant().name(),
        start: write_position(&start),
        moves: json_line(&tree),
        final_comments: game.final_comments.clone(),
        result: game
            .result
            .clone()
            .or_else(|| game.tag("Result").map(String::from))
            .unwrap_or_else(|| "*".into()),
    };
    Ok(serde_json::to_string(&doc).unwrap_or_default())
}

/// The position string after every main-line ply, one per line (the
/// start position first).
///
/// # Errors
/// A game that does not replay.
pub fn write_fens(game: &Game) -> Result<String, ReplayError> {
    let (start, tree) = replay_tree(game)?;
    let mut out = write_position(&start);
    out.push('\n');
    let mut pos = start;
    for p in &tree {
        pos.play_unchecked(&p.mv);
        out.push_str(&write_position(&pos));
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::pgn::parse_game;

    #[test]
    fn canonical_xpgn_keeps_everything_and_reads_back() {
        let text = "[Black \"B\"] [White \"A \\\"x\\\"\"] [ECO \"C20\"]\n{start} 1. e2e4 $1 {a long comment that goes on and on and on so that the line must be wrapped somewhere} (1. d4 d5 (1... Nf6) 2. c4) 1... e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1/2-1/2";
        let g = parse_game(text, 1).unwrap();
        let written = write_game(&g, MoveNotation::San).unwrap();
        assert!(written.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A \\\"x\\\"\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n[ECO \"C20\"]\n\n"), "{written}");
        assert!(
            written.lines().all(|l| l.chars().count() <= 80),
            "{written}"
        );
        assert!(
            written.contains("(1. d4 d5 (1... Nf6) 2. c4) 1... e5"),
            "{written}"
        );
        let back = parse_game(&written, 1).unwrap();
        assert_eq!(write_game(&back, MoveNotation::San).unwrap(), written);
        for notation in [MoveNotation::Lan, MoveNotation::Coord] {
            let other = write_game(&g, notation).unwrap();
            let back = parse_game(&other, 1).unwrap();
            assert_eq!(
                write_game(&back, MoveNotation::San).unwrap(),
                written,
                "{other}"
            );
        }
        let json = write_json(&g).unwrap();
        assert!(
            json.contains("\"san\":\"e4\",\"lan\":\"e2-e4\",\"coord\":\"e2e4\""),
            "{json}"
        );
        assert_eq!(write_fens(&g).unwrap().lines().count(), 17);
    }

    #[test]
    fn a_result_tag_that_is_no_result_is_not_written_into_the_movetext() {
        // Found by fuzzing: `0-0` would read back as castling.
        let g = parse_game("[Result \"0-0\"] 1. e4", 1).unwrap();
        let text = write_game(&g, MoveNotation::San).unwrap();
        assert!(text.ends_with("1. e4 *\n\n"), "{text}");
        let back = parse_game(&text, 1).unwrap();
        assert_eq!(write_game(&back, MoveNotation::San).unwrap(), text);
    }
}
