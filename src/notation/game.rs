//! [`Game`]: a game record as read: tags, a tree of moves with their
//! comments, NAGs and variations, each move with where it was written.

use super::diagnostic::Diagnostic;
use super::pgn::AnyMove;
use super::san::CheckMark;
use super::span::Location;

/// One move as written, with what is attached to it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Node {
    /// The move text (SAN, long algebraic or coordinate), without check
    /// mark or suffix annotation.
    pub text: MoveText,
    /// The move's syntax, as the reader parsed it (`None`: parse `text`).
    pub parsed: Option<AnyMove>,
    /// Where the move starts.
    pub at: Location,
    /// `+` or `#` as written (`++` reads as `+`).
    pub check: Option<CheckMark>,
    /// NAGs, suffix annotations (`!` = 1, `?` = 2, ...) included.
    pub nags: Vec<u8>,
    /// Comments written before the move (only where no move precedes them
    /// in its line: at the start of the game or of a variation).
    pub comments_before: Vec<String>,
    /// Comments written after the move.
    pub comments: Vec<String>,
    /// Alternatives to this move, each a line of its own.
    pub variations: Vec<Vec<Node>>,
}

impl Node {
    /// A move written as `text`, with nothing attached.
    pub fn new(text: impl Into<MoveText>) -> Node {
        let mut node = Node::default();
        node.text = text.into();
        node
    }
}

/// Variations nest as deep as the text says (annotators' files reach
/// thousands of levels): the tree is taken apart with a heap stack, as
/// the derived drop would recurse once per level and overflow the stack.
impl Drop for Node {
    fn drop(&mut self) {
        if self.variations.is_empty() {
            return;
        }
        let mut pending = std::mem::take(&mut self.variations);
        while let Some(mut line) = pending.pop() {
            for node in &mut line {
                pending.append(&mut node.variations);
            }
        }
    }
}

/// A move as written. Almost every one is a few bytes long, so it is kept
/// inline up to [`MoveText::INLINE`] bytes: reading a game then allocates
/// nothing per move for its text.
#[derive(Clone, PartialEq, Eq)]
pub struct MoveText(Repr);

#[derive(Clone, PartialEq, Eq)]
enum Repr {
    Inline {
        len: u8,
        bytes: [u8; MoveText::INLINE],
    },
    Heap(Box<str>),
}

impl MoveText {
    /// The longest text kept inline.
    pub const INLINE: usize = 22;

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => std::str::from_utf8(&bytes[..*len as usize])
                .expect("inline text is copied whole from a str"),
            Repr::Heap(s) => s,
        }
    }
}

impl Default for MoveText {
    fn default() -> MoveText {
        MoveText::from("")
    }
}

impl From<&str> for MoveText {
    fn from(text: &str) -> MoveText {
        if text.len() <= MoveText::INLINE {
            let mut bytes = [0; MoveText::INLINE];
            bytes[..text.len()].copy_from_slice(text.as_bytes());
            MoveText(Repr::Inline {
                len: text.len() as u8,
                bytes,
            })
        } else {
            MoveText(Repr::Heap(text.into()))
        }
    }
}

impl From<String> for MoveText {
    fn from(text: String) -> MoveText {
        MoveText::from(text.as_str())
    }
}

impl std::ops::Deref for MoveText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for MoveText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for MoveText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A game as read from text.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Game {
    /// Tag pairs in the order written.
    pub tags: Vec<(String, String)>,
    /// Where each tag pair starts (same order as `tags`; empty for games
    /// not read from text).
    pub tag_locations: Vec<Location>,
    /// The main line.
    pub moves: Vec<Node>,
    /// Comments after the last move of the main line, before the result.
    pub final_comments: Vec<String>,
    /// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`), if
    /// written (other forms such as `1/2` or `½-½` are read as these).
    pub result: Option<String>,
    /// Where the game starts.
    pub at: Location,
    /// What the reader found to say: warnings, and the syntax error where
    /// the movetext broke off (the game then holds what came before it).
    pub diagnostics: Vec<Diagnostic>,
}

impl Game {
    /// Where tag `name` was written, else where the game starts.
    pub fn tag_location(&self, name: &str) -> Location {
        self.tags
            .iter()
            .position(|(n, _)| n == name)
            .and_then(|i| self.tag_locations.get(i).copied())
            .unwrap_or(self.at)
    }

    /// Whether the reader stopped at a syntax error.
    pub fn broken(&self) -> bool {
        super::diagnostic::has_error(&self.diagnostics)
    }

    /// The result the game records: its termination marker, else its
    /// `Result` tag, else `*` (unknown; the reader warns that the
    /// movetext ends without a result). `None` only for a game whose text
    /// breaks off before its result.
    pub fn recorded_result(&self) -> Option<&str> {
        self.result
            .as_deref()
            .or_else(|| self.tag("Result"))
            .or_else(|| (!self.broken()).then_some("*"))
    }

    /// The value of tag `name` (case-sensitive, as PGN), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deep_tree_drops_without_recursion() {
        let mut line = vec![Node::default()];
        for _ in 0..200_000 {
            let mut node = Node::default();
            node.variations.push(line);
            line = vec![node];
        }
        drop(line);
    }

    #[test]
    fn move_text_keeps_short_and_long_text() {
        let long = "e7e8&e8=Q&d1=R&c1=B&b1=N";
        for t in ["", "e4", "Nxe4+", "abcdefghijklmnopqrstuv", long] {
            let m = MoveText::from(t);
            assert_eq!(m, t);
            assert_eq!(m.to_string(), t);
            assert_eq!(format!("{m:?}"), format!("{t:?}"));
        }
        assert!(matches!(MoveText::from(long).0, Repr::Heap(_)));
        assert!(matches!(MoveText::from("Nf3").0, Repr::Inline { .. }));
    }
}
