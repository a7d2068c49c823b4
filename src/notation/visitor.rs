//! What the game reader tells as it reads: a [`Visitor`] sees a game's
//! tags, moves, comments, NAGs, variations and result in the order they
//! are written, in one pass over the text, with nothing built unless the
//! visitor builds it. The reader ([`super::pgn::read_with`]) keeps the
//! grammar and every diagnostic; building a [`super::game::Game`] tree is
//! one visitor, validating while reading (`super::validation`) another.

use super::diagnostic::Diagnostic;
use super::pgn::AnyMove;
use super::san::{CheckMark, PlainSan};
use super::span::{Location, Locator};

/// Whether the reader goes on into what a visitor was just told of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Flow {
    /// Read it and tell of it.
    #[default]
    Continue,
    /// Do not tell of it: for a variation, its contents are still read
    /// (its syntax errors still end the game) but not told; for the
    /// movetext, reading stops there.
    Skip,
}

/// Where something stands in the game's text: a byte offset, turned into
/// a line and column only when asked (only diagnostics and trees need
/// them).
#[derive(Clone, Copy)]
pub struct At<'t> {
    /// Byte offset in the game's text.
    pub offset: usize,
    locator: &'t Locator<'t>,
}

impl<'t> At<'t> {
    pub(crate) fn new(offset: usize, locator: &'t Locator<'t>) -> At<'t> {
        At { offset, locator }
    }

    /// The line and column of this place.
    pub fn location(&self) -> Location {
        self.locator.locate(self.offset)
    }

    /// The line and column of another byte offset of the same text (a
    /// place a visitor kept from an earlier call).
    pub fn locate(&self, offset: usize) -> Location {
        self.locator.locate(offset)
    }
}

/// A move's syntax as the reader hands it over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveSyntax {
    /// The commonest form, a SAN move naming a plain move and nothing to
    /// choose, in parts (read without building an [`AnyMove`]).
    Plain(PlainSan),
    /// Any other, as [`super::pgn::any_move`] reads it.
    Read(AnyMove),
}

impl MoveSyntax {
    /// The syntax as [`super::pgn::any_move`] gives it.
    pub fn into_any(self) -> AnyMove {
        match self {
            MoveSyntax::Plain(plain) => AnyMove::San(plain.san()),
            MoveSyntax::Read(read) => read,
        }
    }
}

/// A move as the reader found it: its text borrowed from the game's text
/// (`'t`), so a visitor may keep it as long as the text lives.
pub struct MoveToken<'a, 't> {
    /// The move as written, without move number, check mark, suffix
    /// annotation or `e.p.`.
    pub text: &'t str,
    /// Its syntax.
    pub parsed: MoveSyntax,
    /// `+` or `#` as written (`++` reads as `+`).
    pub check: Option<CheckMark>,
    /// A suffix annotation glued to it, as a NAG (`!` = 1, ...).
    pub suffix: Option<u8>,
    /// Where the move starts (after a glued move number).
    pub at: At<'a>,
}

/// What a game reader tells of a text that lives for `'t`, in text
/// order. Every method has a default that ignores what it is told.
#[allow(unused_variables)]
pub trait Visitor<'t> {
    /// The game starts: `at` is its first byte after white space.
    fn begin_game(&mut self, at: At<'_>) {}

    /// A tag pair, its value with `\"` and `\\` read.
    fn tag(&mut self, name: &str, value: &str, at: At<'_>) {}

    /// The tags are read; the movetext follows.
    fn begin_movetext(&mut self) -> Flow {
        Flow::Continue
    }

    /// A move of the current line.
    fn move_token(&mut self, token: MoveToken<'_, 't>) {}

    /// A NAG (`$n`, or a suffix annotation written apart) for the last
    /// move of the current line.
    fn nag(&mut self, nag: u8) {}

    /// A comment's text (`{...}` without braces, `;...` without the `;`
    /// and the line end): before the tags are done, in the movetext, or
    /// after the result.
    fn comment(&mut self, text: &str) {}

    /// A variation opens after the last move of the current line: it
    /// replaces that move.
    fn begin_variation(&mut self) -> Flow {
        Flow::Continue
    }

    /// The innermost open variation closes at `at`.
    fn end_variation(&mut self, at: At<'_>) {}

    /// The game's result, as its termination marker (`1-0`, `0-1`,
    /// `1/2-1/2`, `*`); comments after it may follow.
    fn result(&mut self, marker: &'static str) {}

    /// Something the reader has to say: a warning, or the syntax error
    /// where the movetext breaks off (the last thing told then, before
    /// [`Visitor::end_game`]).
    fn diagnostic(&mut self, diagnostic: Diagnostic) {}

    /// The game's text is read; `at` is its end. Variations still open
    /// (the text broke off inside them) are abandoned.
    fn end_game(&mut self, at: At<'_>) {}
}

/// Two visitors reading one game at once: `lead` is told everything and
/// decides what the reader reads; `main_line` is told the game as a
/// visitor that skips every variation would be (nothing inside
/// variations, and nothing of the movetext once it skipped it). One
/// reading serves both, where reading the text a second time for the
/// second would cost as much as the first reading's syntax.
pub struct MainLineToo<'m, L: ?Sized, M: ?Sized> {
    lead: &'m mut L,
    main_line: &'m mut M,
    /// Variations open around the current line.
    depth: u32,
    /// `main_line` skipped the movetext.
    movetext_skipped: bool,
}

impl<'m, L: ?Sized, M: ?Sized> MainLineToo<'m, L, M> {
    /// `lead`, with `main_line` told the main line.
    pub fn new(lead: &'m mut L, main_line: &'m mut M) -> Self {
        MainLineToo {
            lead,
            main_line,
            depth: 0,
            movetext_skipped: false,
        }
    }

    /// Whether `main_line` is told of what comes now.
    fn on_main_line(&self) -> bool {
        self.depth == 0 && !self.movetext_skipped
    }
}

impl<'t, L: Visitor<'t> + ?Sized, M: Visitor<'t> + ?Sized> Visitor<'t> for MainLineToo<'_, L, M> {
    fn begin_game(&mut self, at: At<'_>) {
        self.depth = 0;
        self.movetext_skipped = false;
        self.lead.begin_game(at);
        self.main_line.begin_game(at);
    }

    fn tag(&mut self, name: &str, value: &str, at: At<'_>) {
        self.lead.tag(name, value, at);
        self.main_line.tag(name, value, at);
    }

    fn begin_movetext(&mut self) -> Flow {
        self.movetext_skipped = self.main_line.begin_movetext() == Flow::Skip;
        self.lead.begin_movetext()
    }

    fn move_token(&mut self, token: MoveToken<'_, 't>) {
        if self.on_main_line() {
            self.main_line.move_token(MoveToken {
                parsed: token.parsed.clone(),
                ..token
            });
        }
        self.lead.move_token(token);
    }

    fn nag(&mut self, nag: u8) {
        if self.on_main_line() {
            self.main_line.nag(nag);
        }
        self.lead.nag(nag);
    }

    fn comment(&mut self, text: &str) {
        if self.on_main_line() {
            self.main_line.comment(text);
        }
        self.lead.comment(text);
    }

    fn begin_variation(&mut self) -> Flow {
        let flow = self.lead.begin_variation();
        if flow == Flow::Continue {
            // Told to `main_line` only to be skipped: what it answers
            // does not change what the reader reads.
            if self.on_main_line() {
                self.main_line.begin_variation();
            }
            self.depth += 1;
        }
        flow
    }

    fn end_variation(&mut self, at: At<'_>) {
        self.depth = self.depth.saturating_sub(1);
        self.lead.end_variation(at);
    }

    fn result(&mut self, marker: &'static str) {
        if !self.movetext_skipped {
            self.main_line.result(marker);
        }
        self.lead.result(marker);
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.lead.diagnostic(diagnostic);
    }

    fn end_game(&mut self, at: At<'_>) {
        self.main_line.end_game(at);
        self.lead.end_game(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::pgn::read_with;

    /// Records what it is told; skips every variation, or the movetext,
    /// when asked to.
    #[derive(Default)]
    struct Log {
        events: Vec<String>,
        skip_variations: bool,
        skip_movetext: bool,
    }

    impl Visitor<'_> for Log {
        fn tag(&mut self, name: &str, value: &str, _: At<'_>) {
            self.events.push(format!("[{name}={value}]"));
        }
        fn begin_movetext(&mut self) -> Flow {
            if self.skip_movetext {
                Flow::Skip
            } else {
                Flow::Continue
            }
        }
        fn move_token(&mut self, token: MoveToken<'_, '_>) {
            let at = token.at.location();
            self.events
                .push(format!("{}@{}:{}", token.text, at.line, at.column));
            if let Some(suffix) = token.suffix {
                self.events.push(format!("${suffix}"));
            }
        }
        fn nag(&mut self, nag: u8) {
            self.events.push(format!("${nag}"));
        }
        fn comment(&mut self, text: &str) {
            self.events.push(format!("{{{text}}}"));
        }
        fn begin_variation(&mut self) -> Flow {
            self.events.push("(".into());
            if self.skip_variations {
                Flow::Skip
            } else {
                Flow::Continue
            }
        }
        fn end_variation(&mut self, _: At<'_>) {
            self.events.push(")".into());
        }
        fn result(&mut self, marker: &'static str) {
            self.events.push(marker.into());
        }
        fn diagnostic(&mut self, d: crate::notation::diagnostic::Diagnostic) {
            self.events.push(format!("!{}", d.kind.name()));
        }
    }

    fn told(text: &str, log: &mut Log) -> String {
        read_with(text, Location { line: 1, column: 1 }, log);
        log.events.join(" ")
    }

    #[test]
    fn the_reader_tells_everything_in_text_order() {
        let text =
            "[White \"A \\\"B\\\"\"]\n12.e4 $1 {c} (12.d4 ; d\n) 12...Nf6!? 13… c5 ½-½ {end}";
        assert_eq!(
            told(text, &mut Log::default()),
            "[White=A \"B\"] e4@2:4 $1 {c} ( d4@2:18 { d} ) Nf6@3:8 $5 c5@3:18 !result 1/2-1/2 {end}"
        );
    }

    #[test]
    fn a_visitor_skips_variations_or_the_movetext() {
        let text = "1. e4 (1. d4 (1. c4) d5) e5 *";
        let mut log = Log {
            skip_variations: true,
            ..Log::default()
        };
        assert_eq!(told(text, &mut log), "e4@1:4 ( e5@1:26 *");
        let mut log = Log {
            skip_movetext: true,
            ..Log::default()
        };
        assert_eq!(told("[A \"1\"] 1. e4 ) *", &mut log), "[A=1]");
        // A skipped variation is still read: its syntax error ends the game.
        let mut log = Log {
            skip_variations: true,
            ..Log::default()
        };
        assert_eq!(told("1. e4 (1. d4 $999) *", &mut log), "e4@1:4 ( !syntax");
    }
}
