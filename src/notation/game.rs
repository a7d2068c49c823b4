//! [`Game`]: a game record as read: tags, a tree of moves with their
//! comments, NAGs and variations, each move with where it was written.

use super::pgn::AnyMove;
use super::span::Location;

/// One move as written, with what is attached to it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Node {
    /// The move text (SAN, long algebraic or coordinate), without check
    /// mark or suffix annotation.
    pub text: String,
    /// The move's syntax, as the reader parsed it (`None`: parse `text`).
    pub parsed: Option<AnyMove>,
    /// Where the move starts.
    pub at: Location,
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
    /// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`), if written.
    pub result: Option<String>,
    /// Where the game starts.
    pub at: Location,
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

    /// The value of tag `name` (case-sensitive, as PGN), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}
