//! Writes games: canonical XPGN (PGN export format: the seven-tag roster,
//! then the other tags; SAN with the least disambiguation; lines of at
//! most 80 characters; comments, NAGs and variations kept), the same with
//! long algebraic or coordinate movetext, JSON, or the position string
//! after every ply. What is written reads back to the same game.

use super::coord::write_coord;
use super::game::{Game, Node};
use super::position::write_position;
use super::replay::{Checked, ReplayError, resolve_node, start_position};
use super::san::{write_lan, write_san};
use crate::rules::{Color, Move, Position, Registry};

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

/// Taken apart with a heap stack, as [`Node`] is: nesting has no bound.
impl Drop for Ply<'_> {
    fn drop(&mut self) {
        let mut pending = std::mem::take(&mut self.variations);
        while let Some(mut line) = pending.pop() {
            for ply in &mut line {
                pending.append(&mut ply.variations);
            }
        }
    }
}

/// What [`walk_game`] meets, in text order.
pub enum Step<'g, 'p> {
    /// A move, with the position before it.
    Move {
        /// As written.
        node: &'g Node,
        /// The legal move.
        mv: Move,
        /// The position before it.
        before: &'p Position,
    },
    /// A variation opens: an alternative to the last move met.
    Open,
    /// The variation closes.
    Close,
}

/// A line being walked: its moves, the next one, the position before it,
/// the position after it once played, the next variation to enter.
struct WalkFrame<'g> {
    nodes: &'g [Node],
    next: usize,
    before: Position,
    after: Option<Position>,
    variation: usize,
}

/// Replays `game` and tells `visit` every move and variation in text
/// order, without recursion (any nesting depth walks).
///
/// # Errors
/// The first fault (unknown variant, bad FEN tag, illegal move).
pub fn walk_game<'g>(
    registry: &Registry,
    game: &'g Game,
    mut visit: impl FnMut(Step<'g, '_>),
) -> Result<Position, ReplayError> {
    let start = start_position(registry, game)?;
    let mut stack = vec![WalkFrame {
        nodes: &game.moves,
        next: 0,
        before: start.clone(),
        after: None,
        variation: 0,
    }];
    loop {
        let depth = stack.len();
        let Some(top) = stack.last_mut() else {
            break;
        };
        let Some(node) = top.nodes.get(top.next) else {
            stack.pop();
            if !stack.is_empty() {
                visit(Step::Close);
            }
            continue;
        };
        if top.after.is_none() {
            let mv = resolve_node(&top.before, node).map_err(|(kind, message)| ReplayError {
                kind,
                ply: Some(top.next + 1),
                in_variation: depth > 1,
                at: node.at,
                text: Some(node.text.to_string()),
                message: format!("`{}`: {message}", node.text),
            })?;
            visit(Step::Move {
                node,
                mv,
                before: &top.before,
            });
            let mut after = top.before.clone();
            after.play_unchecked(&mv);
            top.after = Some(after);
            top.variation = 0;
            continue;
        }
        if let Some(variation) = node.variations.get(top.variation) {
            top.variation += 1;
            let before = top.before.clone();
            visit(Step::Open);
            stack.push(WalkFrame {
                nodes: variation,
                next: 0,
                before,
                after: None,
                variation: 0,
            });
            continue;
        }
        top.before = top.after.take().expect("played above");
        top.next += 1;
    }
    Ok(start)
}

/// Replays `game` into a tree of [`Ply`]s, with its start position.
///
/// # Errors
/// The first fault (unknown variant, bad FEN tag, illegal move).
pub fn replay_tree<'g>(
    registry: &Registry,
    game: &'g Game,
) -> Result<(Position, Vec<Ply<'g>>), ReplayError> {
    let mut lines: Vec<Vec<Ply<'_>>> = vec![Vec::new()];
    let start = walk_game(registry, game, |step| match step {
        Step::Move { node, mv, before } => {
            lines.last_mut().expect("the main line stays").push(Ply {
                node,
                mv,
                before: before.clone(),
                variations: Vec::new(),
            })
        }
        Step::Open => lines.push(Vec::new()),
        Step::Close => {
            let line = lines.pop().expect("opened");
            if let Some(ply) = lines.last_mut().and_then(|l| l.last_mut()) {
                ply.variations.push(line);
            }
        }
    })?;
    Ok((start, lines.pop().unwrap_or_default()))
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

/// Fills lines of at most `width` characters (80 unless asked) with
/// tokens.
struct Lines {
    out: String,
    line_len: usize,
    /// The next token follows without a space (after `(`).
    glue: bool,
    width: usize,
}

impl Lines {
    fn new(width: usize) -> Lines {
        Lines {
            out: String::new(),
            line_len: 0,
            glue: false,
            width,
        }
    }

    fn token(&mut self, t: &str) {
        let len = t.chars().count();
        let space = usize::from(self.line_len > 0 && !self.glue);
        if self.line_len > 0 && self.line_len + space + len > self.width {
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
        if self.line_len + t.len() > self.width {
            self.out.push('\n');
            self.line_len = 0;
        }
        self.out.push_str(t);
        self.line_len += t.len();
    }

    /// A comment, split into words so lines stay short (runs of white
    /// space become one space). A text with `}` cannot stand inside `{}`,
    /// nor one that ends in `\` (`\}` may stand for a brace of the text,
    /// docs/notation.md §11): it is written as a `;` comment, which ends
    /// the line.
    fn comment(&mut self, text: &str) {
        let words: Vec<&str> = text.split_whitespace().collect();
        if text.contains('}') || words.last().is_some_and(|w| w.ends_with('\\')) {
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

fn move_text(before: &Position, mv: &Move, notation: MoveNotation) -> String {
    match notation {
        MoveNotation::San => write_san(before, mv),
        MoveNotation::Lan => write_lan(before, mv),
        MoveNotation::Coord => write_coord(before, mv),
    }
}

/// The movetext of `game` (before its final comments and result).
fn write_movetext(
    registry: &Registry,
    game: &Game,
    lines: &mut Lines,
    notation: MoveNotation,
) -> Result<(), ReplayError> {
    // Whether the next move needs its number, per open line.
    let mut need_number = vec![true];
    let last = game.moves.last();
    walk_game(registry, game, |step| match step {
        Step::Move { node, mv, before } => {
            let need = need_number.last_mut().expect("the main line stays");
            for c in &node.comments_before {
                lines.comment(c);
                *need = true;
            }
            let n = before.fullmove_number();
            let text = move_text(before, &mv, notation);
            match before.turn() {
                Color::White => lines.token(&format!("{n}. {text}")),
                Color::Black if *need => lines.token(&format!("{n}... {text}")),
                Color::Black => lines.token(&text),
            }
            *need = false;
            for nag in &node.nags {
                lines.token(&format!("${nag}"));
            }
            for c in &node.comments {
                lines.comment(c);
                *need = true;
            }
            // The comments after the result stand after the last move's,
            // before its variations: after them they would read back as
            // the last move's comments, written before its variations.
            if last.is_some_and(|l| std::ptr::eq(l, node)) {
                for c in &game.final_comments {
                    lines.comment(c);
                    *need = true;
                }
            }
        }
        Step::Open => {
            lines.token("(");
            lines.glue = true;
            need_number.push(true);
        }
        Step::Close => {
            lines.attach(")");
            need_number.pop();
            if let Some(need) = need_number.last_mut() {
                *need = true;
            }
        }
    })?;
    Ok(())
}

/// Writes `game` as XPGN with movetext in `notation`.
///
/// ```
/// use xpgn::notation::{pgn::parse_game, writer::{write_game, MoveNotation}};
/// use xpgn::rules::Registry;
/// let g = parse_game("[White \"A\"] 1. e2e4 e7e5 {ok} 2. g1f3 *", 1).unwrap();
/// let text = write_game(&Registry::builtin(), &g, MoveNotation::San).unwrap();
/// assert!(text.ends_with("1. e4 e5 {ok} 2. Nf3 *\n\n"));
/// ```
///
/// # Errors
/// A game that does not replay cannot be rewritten; write its original text.
pub fn write_game(
    registry: &Registry,
    game: &Game,
    notation: MoveNotation,
) -> Result<String, ReplayError> {
    write_game_with(registry, game, notation, &WriteOptions::default())
}

/// The default width of movetext lines.
pub const LINE_WIDTH: usize = 80;

/// How [`write_game_with`] lays a game out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Most characters of a movetext line (a longer token stands alone).
    pub width: usize,
    /// Write the Seven Tag Roster first, the missing ones as `?`; else
    /// only the tags the game has.
    pub roster: bool,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            width: LINE_WIDTH,
            roster: true,
        }
    }
}

/// [`write_game`] laid out as `options` say.
///
/// # Errors
/// A game that does not replay.
pub fn write_game_with(
    registry: &Registry,
    game: &Game,
    notation: MoveNotation,
    options: &WriteOptions,
) -> Result<String, ReplayError> {
    let mut out = String::new();
    let tags = if options.roster {
        export_tags(game)
    } else {
        game.tags.clone()
    };
    for (name, value) in &tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    if !tags.is_empty() {
        out.push('\n');
    }
    let mut lines = Lines::new(options.width);
    write_movetext(registry, game, &mut lines, notation)?;
    if game.moves.is_empty() {
        for c in &game.final_comments {
            lines.comment(c);
        }
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

/// A JSON string literal.
fn json_string(out: &mut String, s: &str) {
    out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()));
}

fn json_strings(out: &mut String, key: &str, values: &[String]) {
    if values.is_empty() {
        return;
    }
    out.push_str(&format!(",\"{key}\":["));
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_string(out, v);
    }
    out.push(']');
}

/// The parts of `pos` beyond the board that a variant with play rules
/// has, as JSON fields: `"hands": {"white": "QN", "black": "p"}` (the
/// letters as position strings write them), `"checks_given": [1, 0]`
/// (White's first) and `"gates": ["b1", "g8"]` (docs/notation.md §13).
fn json_play_state(out: &mut String, pos: &Position) {
    let variant = pos.variant();
    let def = variant.def();
    if def.hand.is_some() {
        let mut letters = [String::new(), String::new()];
        for p in pos.hand_pieces() {
            letters[p.color.index()].push(super::position::piece_letter(variant, p));
        }
        out.push_str(",\"hands\":{\"white\":");
        json_string(out, &letters[0]);
        out.push_str(",\"black\":");
        json_string(out, &letters[1]);
        out.push('}');
    }
    if def.check_limit.is_some() {
        out.push_str(&format!(
            ",\"checks_given\":[{},{}]",
            pos.checks_given(Color::White),
            pos.checks_given(Color::Black)
        ));
    }
    if def.hand.as_ref().is_some_and(|h| h.gating) {
        let gates: Vec<String> = Color::BOTH
            .iter()
            .flat_map(|&c| pos.gates(c))
            .map(|sq| sq.to_string())
            .collect();
        out.push_str(",\"gates\":[");
        for (i, g) in gates.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            json_string(out, g);
        }
        out.push(']');
    }
}

/// The moves of `game` as JSON: `[{"san", "lan", "coord", "fen",
/// "polyglot" (orthodox chess: the Polyglot key after the move), "hands", "checks_given", "gates", "comments_before", "comments",
/// "clock", "emt", "eval", "arrows", "squares", "nags", "variations":
/// [[...]]}]` (`hands`, `checks_given` and `gates` where the variant has
/// them; the five after the comments where they say so:
/// [`super::annotations::write_json_fields`]),
/// written as the walk goes (no recursion, whatever the nesting).
fn json_moves(
    registry: &Registry,
    game: &Game,
    out: &mut String,
    tracker: &mut super::opening::OpeningTracker,
) -> Result<Position, ReplayError> {
    // Per open line: whether a move object is open, and whether its
    // variations list is.
    let mut open: Vec<(bool, bool)> = vec![(false, false)];
    fn close_move(out: &mut String, state: &mut (bool, bool)) {
        if state.1 {
            out.push(']');
        }
        if state.0 {
            out.push('}');
        }
        *state = (false, false);
    }
    out.push('[');
    let start = walk_game(registry, game, |step| match step {
        Step::Move { node, mv, before } => {
            let state = open.last_mut().expect("the main line stays");
            let first = !state.0;
            close_move(out, state);
            if !first {
                out.push(',');
            }
            state.0 = true;
            let mut after = before.clone();
            after.play_unchecked(&mv);
            if open.len() == 1 {
                tracker.visit(before, &mv, &after);
            }
            out.push_str("{\"san\":");
            json_string(out, &write_san(before, &mv));
            out.push_str(",\"lan\":");
            json_string(out, &write_lan(before, &mv));
            out.push_str(",\"coord\":");
            json_string(out, &write_coord(before, &mv));
            out.push_str(",\"fen\":");
            json_string(out, &write_position(&after));
            if let Some(key) = crate::rules::polyglot_key(&after) {
                out.push_str(&format!(",\"polyglot\":\"{key:016x}\""));
            }
            json_play_state(out, &after);
            json_strings(out, "comments_before", &node.comments_before);
            json_strings(out, "comments", &node.comments);
            super::annotations::write_json_fields(out, &super::annotations::read(&node.comments));
            if !node.nags.is_empty() {
                let nags: Vec<String> = node.nags.iter().map(u8::to_string).collect();
                out.push_str(&format!(",\"nags\":[{}]", nags.join(",")));
            }
        }
        Step::Open => {
            let state = open.last_mut().expect("a move precedes a variation");
            if state.1 {
                out.push(',');
            } else {
                out.push_str(",\"variations\":[");
                state.1 = true;
            }
            out.push('[');
            open.push((false, false));
        }
        Step::Close => {
            let mut state = open.pop().expect("opened");
            close_move(out, &mut state);
            out.push(']');
        }
    })?;
    if let Some(state) = open.last_mut() {
        close_move(out, state);
    }
    out.push(']');
    Ok(start)
}

/// Writes `game` as one JSON document (one line): `tags`, `variant`,
/// `start`, `moves` (see the move objects above), `final_comments`,
/// `result`, `eco` and `opening` (the opening of the main line, as
/// [`super::opening::OpeningTracker`] names it; `null` for none).
///
/// # Errors
/// A game that does not replay.
pub fn write_json(registry: &Registry, game: &Game) -> Result<String, ReplayError> {
    let mut moves = String::new();
    let mut tracker = super::opening::OpeningTracker::new();
    let start = json_moves(registry, game, &mut moves, &mut tracker)?;
    let opening = tracker.opening(Some(&start));
    let tags: serde_json::Map<String, serde_json::Value> = game
        .tags
        .iter()
        .map(|(n, v)| (n.clone(), serde_json::Value::String(v.clone())))
        .collect();
    let mut out = String::from("{\"tags\":");
    out.push_str(&serde_json::Value::Object(tags).to_string());
    out.push_str(",\"variant\":");
    json_string(&mut out, start.variant().name());
    out.push_str(",\"start\":");
    json_string(&mut out, &write_position(&start));
    out.push_str(",\"moves\":");
    out.push_str(&moves);
    json_strings(&mut out, "final_comments", &game.final_comments);
    out.push_str(",\"result\":");
    json_string(&mut out, game.recorded_result().unwrap_or("*"));
    match &opening {
        Some(o) => {
            out.push_str(",\"eco\":");
            json_string(&mut out, &o.eco);
            out.push_str(",\"opening\":");
            json_string(&mut out, &o.name);
        }
        None => out.push_str(",\"eco\":null,\"opening\":null"),
    }
    out.push('}');
    Ok(out)
}

/// The position string after every main-line ply, one per line (the
/// start position first).
///
/// # Errors
/// A game that does not replay.
pub fn write_fens(registry: &Registry, game: &Game) -> Result<String, ReplayError> {
    let mut out = String::new();
    // Variations are walked too (they must replay); only the main line
    // is written.
    let mut depth = 0usize;
    let start = walk_game(registry, game, |step| match step {
        Step::Move { mv, before, .. } if depth == 0 => {
            let mut after = before.clone();
            after.play_unchecked(&mv);
            out.push_str(&write_position(&after));
            out.push('\n');
        }
        Step::Move { .. } => {}
        Step::Open => depth += 1,
        Step::Close => depth -= 1,
    })?;
    Ok(write_position(&start) + "\n" + &out)
}

/// The first line of an escaped original: `%xpgn-original <bytes>`.
pub const ORIGINAL_MARK: &str = "%xpgn-original ";

/// An invalid game written so that it cannot harm its neighbours and
/// loses nothing: its original bytes as PGN escape lines (`%` and the
/// line, which every PGN reader skips), then a game any reader takes: its
/// tags, the main line as far as it replays, a comment with the fault,
/// and `*`. xpgn reads such a game back as the original
/// ([`super::reader`] unescapes it), so a re-import finds the same game.
pub fn write_invalid(
    raw: &[u8],
    game: &Game,
    checked: &Checked,
    notation: MoveNotation,
) -> Vec<u8> {
    let mut out = format!("{ORIGINAL_MARK}{}\n", raw.len()).into_bytes();
    for line in super::reader::lines_with_ends(raw) {
        out.push(b'%');
        out.extend_from_slice(line);
    }
    if !raw.ends_with(b"\n") && !raw.ends_with(b"\r") {
        out.push(b'\n');
    }
    let mut text = String::new();
    for (name, value) in export_tags(game) {
        text.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    text.push('\n');
    let mut lines = Lines::new(LINE_WIDTH);
    if let Some(r) = &checked.replay {
        let mut pos = r.start.clone();
        let mut first = true;
        for m in &r.moves {
            let n = pos.fullmove_number();
            let t = move_text(&pos, m, notation);
            match pos.turn() {
                Color::White => lines.token(&format!("{n}. {t}")),
                Color::Black if first => lines.token(&format!("{n}... {t}")),
                Color::Black => lines.token(&t),
            }
            first = false;
            pos.play_unchecked(m);
        }
    }
    let why = checked.first_error().map_or_else(
        || "invalid".to_string(),
        |d| format!("line {}, column {}: {}", d.at.line, d.at.column, d.message),
    );
    lines.comment(&format!(
        "xpgn: invalid game, kept whole above as %-lines; {why}"
    ));
    lines.token("*");
    text.push_str(&lines.out);
    text.push_str("\n\n");
    // The readable copy after the original holds no NUL (its tags and the
    // message may quote one; a file with one would be refused as not
    // text): the original above keeps it.
    out.extend_from_slice(text.replace('\0', "\u{FFFD}").as_bytes());
    out
}

/// An invalid game as one JSON document: `status` "invalid", `tags`,
/// `variant` (null when unknown), `original` (its text), `diagnostics`,
/// the main line as far as it replays (`moves`: `san`, `coord`), `result`.
pub fn write_invalid_json(text: &str, game: &Game, checked: &Checked) -> String {
    let tags: serde_json::Map<String, serde_json::Value> = game
        .tags
        .iter()
        .map(|(n, v)| (n.clone(), serde_json::Value::String(v.clone())))
        .collect();
    let mut moves = Vec::new();
    if let Some(r) = &checked.replay {
        let mut pos = r.start.clone();
        for m in &r.moves {
            moves.push(serde_json::json!({
                "san": write_san(&pos, m),
                "coord": write_coord(&pos, m),
            }));
            pos.play_unchecked(m);
        }
    }
    serde_json::json!({
        "status": "invalid",
        "tags": tags,
        "variant": checked.replay.as_ref().map(|r| r.variant.name()),
        "original": text,
        "diagnostics": checked.diagnostics,
        "moves": moves,
        "result": game.recorded_result().unwrap_or("*"),
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::pgn::{parse_game, read_game};

    #[test]
    fn comments_after_the_result_are_written_where_they_read_back_the_same() {
        // Found by fuzzing the reader: after the last move's variation, the
        // comment read back as the last move's, written before it.
        for text in [
            "1. e4 e5 2. Nf3 $1 {x} (2. Nc3 $2) 1/2-1/2 q -",
            "1. e4 e5 2. Nf3 (2. Nc3) 1-0 {after}",
            "1. e4 e5 1-0 ff",
            "{only} *",
        ] {
            let g = read_game(text, 1);
            assert!(!g.final_comments.is_empty(), "{text}");
            let written =
                write_game(&crate::rules::Registry::builtin(), &g, MoveNotation::San).unwrap();
            let back = parse_game(&written, 1).unwrap();
            assert_eq!(
                write_game(&crate::rules::Registry::builtin(), &back, MoveNotation::San).unwrap(),
                written,
                "{text}"
            );
            for c in &g.final_comments {
                assert!(written.contains(&format!("{{{c}}}")), "{written}");
            }
        }
    }

    #[test]
    fn canonical_xpgn_keeps_everything_and_reads_back() {
        let text = "[Black \"B\"] [White \"A \\\"x\\\"\"] [ECO \"C20\"]\n{start} 1. e2e4 $1 {a long comment that goes on and on and on so that the line must be wrapped somewhere} (1. d4 d5 (1... Nf6) 2. c4) 1... e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1/2-1/2";
        let g = parse_game(text, 1).unwrap();
        let written =
            write_game(&crate::rules::Registry::builtin(), &g, MoveNotation::San).unwrap();
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
        assert_eq!(
            write_game(&crate::rules::Registry::builtin(), &back, MoveNotation::San).unwrap(),
            written
        );
        for notation in [MoveNotation::Lan, MoveNotation::Coord] {
            let other = write_game(&crate::rules::Registry::builtin(), &g, notation).unwrap();
            let back = parse_game(&other, 1).unwrap();
            assert_eq!(
                write_game(&crate::rules::Registry::builtin(), &back, MoveNotation::San).unwrap(),
                written,
                "{other}"
            );
        }
        let json = write_json(&crate::rules::Registry::builtin(), &g).unwrap();
        assert!(
            json.contains("\"san\":\"e4\",\"lan\":\"e2-e4\",\"coord\":\"e2e4\""),
            "{json}"
        );
        assert_eq!(
            write_fens(&crate::rules::Registry::builtin(), &g)
                .unwrap()
                .lines()
                .count(),
            17
        );
    }

    #[test]
    fn null_moves_are_written_in_every_notation_and_read_back() {
        // Found by fuzzing: a null move was written as the king's move.
        let g = parse_game("1. e4 e5 (1... -- 2. d4) 2. Nf3 -- 3. d4 *", 1).unwrap();
        let san = write_game(&crate::rules::Registry::builtin(), &g, MoveNotation::San).unwrap();
        assert!(
            san.contains("1. e4 e5 (1... -- 2. d4) 2. Nf3 -- 3. d4 *"),
            "{san}"
        );
        for notation in [MoveNotation::Lan, MoveNotation::Coord] {
            let other = write_game(&crate::rules::Registry::builtin(), &g, notation).unwrap();
            let back = parse_game(&other, 1).unwrap();
            assert_eq!(
                write_game(&crate::rules::Registry::builtin(), &back, MoveNotation::San).unwrap(),
                san,
                "{other}"
            );
        }
        assert!(
            write_game(&crate::rules::Registry::builtin(), &g, MoveNotation::Coord)
                .unwrap()
                .contains("g1f3 0000")
        );
        assert!(
            write_json(&crate::rules::Registry::builtin(), &g)
                .unwrap()
                .contains("\"san\":\"--\",\"lan\":\"--\",\"coord\":\"0000\"")
        );
    }

    #[test]
    fn a_result_tag_that_is_no_result_is_not_written_into_the_movetext() {
        // Found by fuzzing: `0-0` would read back as castling.
        let g = parse_game("[Result \"0-0\"] 1. e4", 1).unwrap();
        let text = write_game(&crate::rules::Registry::builtin(), &g, MoveNotation::San).unwrap();
        assert!(text.ends_with("1. e4 *\n\n"), "{text}");
        let back = parse_game(&text, 1).unwrap();
        assert_eq!(
            write_game(&crate::rules::Registry::builtin(), &back, MoveNotation::San).unwrap(),
            text
        );
    }
}
