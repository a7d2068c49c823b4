//! The [`Visitor`] that builds a [`Game`] tree: what
//! [`super::pgn::read_game`] and [`super::pgn::parse_game`] return.

use super::diagnostic::Diagnostic;
use super::game::{Game, Node};
use super::visitor::{At, MoveToken, Visitor};

/// Builds a [`Game`] from what the reader tells.
#[derive(Default)]
pub struct TreeBuilder {
    game: Game,
    /// The main line, then the open variations.
    lines: Vec<Vec<Node>>,
    /// Comments with no move before them in their line: for the next move.
    pending: Vec<String>,
    /// The result was read: comments now are the game's last.
    ended: bool,
}

impl TreeBuilder {
    /// A builder for a game text of `bytes` bytes: room for its main line
    /// made at once (about one move per 8 bytes), so it is not regrown.
    pub fn for_text_of(bytes: usize) -> TreeBuilder {
        TreeBuilder {
            lines: vec![Vec::with_capacity(bytes / 8)],
            ..TreeBuilder::default()
        }
    }

    /// The game built. Variations still open where the text broke off are
    /// left out: where they were meant to end is unknown, so their moves
    /// would be read against the wrong line. The main line up to them
    /// stays (and the original text keeps everything).
    pub fn finish(mut self) -> Game {
        self.lines.truncate(1);
        self.game.moves = self.lines.pop().unwrap_or_default();
        if !self.pending.is_empty() {
            if self.game.moves.is_empty() {
                // A game of comments only: keep them.
                self.game.final_comments = self.pending;
            } else {
                self.game.final_comments.splice(0..0, self.pending);
            }
        }
        self.game
    }

    fn line(&mut self) -> &mut Vec<Node> {
        if self.lines.is_empty() {
            self.lines.push(Vec::new());
        }
        self.lines.last_mut().expect("pushed above")
    }
}

impl Visitor<'_> for TreeBuilder {
    fn begin_game(&mut self, at: At<'_>) {
        self.game.at = at.location();
    }

    fn tag(&mut self, name: &str, value: &str, at: At<'_>) {
        self.game.tag_locations.push(at.location());
        self.game.tags.push((name.to_string(), value.to_string()));
    }

    fn move_token(&mut self, token: MoveToken<'_, '_>) {
        let mut node = Node::default();
        node.text = token.text.into();
        node.parsed = Some(token.parsed.into_any());
        node.at = token.at.location();
        node.check = token.check;
        node.nags.extend(token.suffix);
        node.comments_before = std::mem::take(&mut self.pending);
        self.line().push(node);
    }

    fn nag(&mut self, nag: u8) {
        if let Some(node) = self.line().last_mut() {
            node.nags.push(nag);
        }
    }

    fn comment(&mut self, text: &str) {
        if self.ended {
            self.game.final_comments.push(text.to_string());
            return;
        }
        let attached = self.pending.is_empty();
        match self.line().last_mut() {
            Some(node) if attached => node.comments.push(text.to_string()),
            _ => self.pending.push(text.to_string()),
        }
    }

    fn begin_variation(&mut self) -> super::visitor::Flow {
        self.line();
        self.lines.push(Vec::new());
        super::visitor::Flow::Continue
    }

    fn end_variation(&mut self, _: At<'_>) {
        if self.lines.len() < 2 {
            return;
        }
        let variation = self.lines.pop().expect("checked above");
        if let Some(node) = self.line().last_mut() {
            node.variations.push(variation);
        }
    }

    fn result(&mut self, marker: &'static str) {
        self.game.result = Some(marker.to_string());
        self.ended = true;
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.game.diagnostics.push(diagnostic);
    }
}
