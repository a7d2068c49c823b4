//! Validating while reading: a [`Visitor`] that replays each move as the
//! reader finds it, with no tree, and says what [`check_game`] says of
//! the same game, in the same order (one `Replayer` serves both): the
//! reader's diagnostics, the start position's, the replay's (variations
//! included), the result checks of R-0-3. `xpgn validate` uses it.
//!
//! [`check_game`]: super::replay::check_game

use std::borrow::Cow;

use super::diagnostic::{Diagnostic, has_error};
use super::pgn::{AnyMove, read_to_end};
use super::reader::{GameBytes, SourceNotes};
use super::replay::{
    AfterVisitor, MoveStages, MoveVisitor, MoveWatch, Place, Replayer, WrittenMove, check_result,
    start_from_tags,
};
use super::san::{CheckMark, PlainSan};
use super::span::Location;
use super::tag_list::TagList;
use super::visitor::{At, Flow, MoveSyntax, MoveToken, Visitor};
use crate::rules::{Move, Position, Registry};

/// What validating a game found.
#[derive(Clone, Debug)]
pub struct Validation {
    /// The reader's diagnostics, then the replay's.
    pub diagnostics: Vec<Diagnostic>,
    /// Main-line moves replayed.
    pub plies: usize,
    /// The position after them (`None`: the start is unknown); boxed, as
    /// the replay keeps it: a position is over a kilobyte, and a
    /// validation is handed on a few times.
    pub end: Option<Box<Position>>,
    /// The result the game records: its termination marker, else its
    /// `Result` tag.
    pub result: Option<String>,
    /// What a replaying validator ([`Validator::replaying`]) keeps besides;
    /// boxed, as `end` is: it holds a position, and the validation of
    /// every game is moved a few times, kept or not.
    pub kept: Option<Box<Kept>>,
}

/// What a replaying validator keeps of a game: what a store needs of it,
/// without the tree of its moves.
#[derive(Clone, Debug, Default)]
pub struct Kept {
    /// Every tag pair in the order written.
    pub tags: TagList,
    /// The line where the game starts.
    pub line: usize,
    /// The start position (`None`: the start is unknown).
    pub start: Option<Position>,
    /// The main-line moves replayed.
    pub moves: Vec<Move>,
}

impl Validation {
    /// Whether no diagnostic is an error (warnings allowed).
    pub fn is_valid(&self) -> bool {
        !has_error(&self.diagnostics)
    }

    /// The first error, if any.
    pub fn first_error(&self) -> Option<&Diagnostic> {
        self.diagnostics.iter().find(|d| d.is_error())
    }
}

/// Reads and replays `game` in one pass.
///
/// ```
/// use xpgn::notation::{reader::GameSplitter, validation::validate};
/// use xpgn::rules::Registry;
/// let mut games = GameSplitter::new(&b"1. f3 e5 2. g4 Qh4# 1-0"[..]);
/// let v = validate(&Registry::builtin(), &games.next_game().unwrap().unwrap());
/// assert_eq!((v.plies, v.is_valid()), (4, false));
/// assert!(v.diagnostics[0].message.contains("must be 0-1"));
/// ```
pub fn validate(registry: &Registry, game: &GameBytes<'_>) -> Validation {
    validate_to_end(registry, game).0
}

/// [`validate`], telling also whether the game's text ends with its
/// result ([`super::pgn::GameEnd::ends_at_result`]).
pub fn validate_to_end(registry: &Registry, game: &GameBytes<'_>) -> (Validation, bool) {
    let mut validator = Validator::new(registry, game.source_notes());
    let end = read_to_end(&game.text, game.start, &mut validator);
    (validator.finish(), end.ends_at_result)
}

/// A move kept until the replay plays it: as written (borrowed from the
/// game's text), and its offset.
struct StreamMove<'t> {
    text: &'t str,
    parsed: MoveSyntax,
    check: Option<CheckMark>,
    offset: usize,
}

impl WrittenMove for StreamMove<'_> {
    fn text(&self) -> &str {
        self.text
    }

    fn parsed(&self) -> Option<Cow<'_, AnyMove>> {
        Some(match &self.parsed {
            MoveSyntax::Plain(plain) => Cow::Owned(AnyMove::San(plain.san())),
            MoveSyntax::Read(parsed) => Cow::Borrowed(parsed),
        })
    }

    #[inline(always)]
    fn plain(&self) -> Option<PlainSan> {
        match self.parsed {
            MoveSyntax::Plain(plain) => Some(plain),
            MoveSyntax::Read(_) => None,
        }
    }

    fn check(&self) -> Option<CheckMark> {
        self.check
    }

    fn place(&self) -> Place {
        Place::Offset(self.offset)
    }
}

/// The validating [`Visitor`] of one game: give it to
/// [`super::pgn::read_with`], then take its [`Validation`] with [`Validator::finish`].
/// It keeps the moves it is told until the replay plays them, borrowed
/// from the game's text (`'t`); a replaying one ([`Validator::replaying`])
/// tells each main-line move to a visitor (`'r`, `'v`) and keeps what
/// [`Kept`] holds.
pub struct Validator<'t, 'r, 'v> {
    /// Where the `Variant` tag's name is looked up.
    registry: &'r Registry,
    source: SourceNotes,
    /// The reader's diagnostics.
    reader: Vec<Diagnostic>,
    /// The first `Variant` and `FEN` tags with where they stand, the
    /// first `Result` tag.
    variant: Option<(String, Location)>,
    fen: Option<(String, Location)>,
    result_tag: Option<String>,
    marker: Option<&'static str>,
    /// Where the game's text starts (after white space).
    game_at: usize,
    /// The start position's diagnostics (a fault, or warnings).
    start: Vec<Diagnostic>,
    started: bool,
    replayer: Option<Replayer<'r, 'v, StreamMove<'t>>>,
    /// The visitor of the main-line moves, until the replay starts.
    visit: Option<MoveWatch<'r, 'v>>,
    /// Kept when replaying ([`Validator::replaying`]).
    kept: Option<Box<Kept>>,
    done: Option<Validation>,
}

impl<'t, 'r> Validator<'t, 'r, 'static> {
    /// A validator for a game whose bytes the splitter and decoding
    /// described with `source`, its variant looked up in `registry`.
    pub fn new(registry: &'r Registry, source: SourceNotes) -> Validator<'t, 'r, 'static> {
        Validator::with(registry, source, None, None)
    }
}

impl<'t, 'r, 'v> Validator<'t, 'r, 'v> {
    /// A validator that also tells `visit` each main-line move as it is
    /// played and keeps the tags, the start and the main line ([`Kept`]):
    /// what [`check_game`](super::replay::check_game) gives of a tree, the
    /// tree never built.
    pub fn replaying(
        registry: &'r Registry,
        source: SourceNotes,
        visit: &'r mut MoveVisitor<'v>,
    ) -> Validator<'t, 'r, 'v> {
        Validator::keeping(registry, source, MoveWatch::Both(visit))
    }

    /// [`Validator::replaying`], telling `visit` only each move and the
    /// position after it: the position before a move is not copied.
    pub fn replaying_after(
        registry: &'r Registry,
        source: SourceNotes,
        visit: &'r mut AfterVisitor<'v>,
    ) -> Validator<'t, 'r, 'v> {
        Validator::keeping(registry, source, MoveWatch::After(visit))
    }

    /// [`Validator::replaying`], telling `stages` of each move before it
    /// is played and after: no position is copied.
    #[cfg_attr(not(feature = "db"), allow(dead_code))]
    pub(crate) fn replaying_staged(
        registry: &'r Registry,
        source: SourceNotes,
        stages: &'r mut (dyn MoveStages + 'v),
    ) -> Validator<'t, 'r, 'v> {
        Validator::keeping(registry, source, MoveWatch::Staged(stages))
    }

    /// A validator that tells `watch` each main-line move and keeps the
    /// tags, the start and the main line ([`Kept`]).
    fn keeping(
        registry: &'r Registry,
        source: SourceNotes,
        watch: MoveWatch<'r, 'v>,
    ) -> Validator<'t, 'r, 'v> {
        Validator::with(registry, source, Some(watch), Some(Box::default()))
    }

    /// A validator that also tells `visit` every main-line move it plays
    /// (before, move, after), keeping nothing more.
    pub fn visiting(
        registry: &'r Registry,
        source: SourceNotes,
        visit: &'r mut MoveVisitor<'v>,
    ) -> Validator<'t, 'r, 'v> {
        Validator::with(registry, source, Some(MoveWatch::Both(visit)), None)
    }

    fn with(
        registry: &'r Registry,
        source: SourceNotes,
        visit: Option<MoveWatch<'r, 'v>>,
        kept: Option<Box<Kept>>,
    ) -> Validator<'t, 'r, 'v> {
        Validator {
            registry,
            source,
            reader: Vec::new(),
            variant: None,
            fen: None,
            result_tag: None,
            marker: None,
            game_at: 0,
            start: Vec::new(),
            started: false,
            replayer: None,
            visit,
            kept,
            done: None,
        }
    }

    /// What was found; a game never read gives an empty validation.
    pub fn finish(self) -> Validation {
        self.done.unwrap_or(Validation {
            diagnostics: Vec::new(),
            plies: 0,
            end: None,
            result: None,
            kept: None,
        })
    }

    /// Sets the replay up from the tags, once they are read.
    fn start_replay(&mut self) {
        if self.started {
            return;
        }
        self.started = true;
        match start_from_tags(self.registry, placed(&self.variant), placed(&self.fen)) {
            Ok((pos, notes)) => {
                self.start = notes;
                let collect = self.kept.is_some();
                if let Some(kept) = self.kept.as_mut() {
                    kept.start = Some((*pos).clone());
                }
                self.replayer = Some(Replayer::new(pos, collect, self.visit.take()));
            }
            Err(e) => self.start.push(e.to_diagnostic()),
        }
    }
}

/// A kept tag as [`start_from_tags`] takes it.
fn placed(tag: &Option<(String, Location)>) -> Option<(&str, Location)> {
    tag.as_ref().map(|(value, at)| (value.as_str(), *at))
}

impl<'t> Visitor<'t> for Validator<'t, '_, '_> {
    fn begin_game(&mut self, at: At<'_>) {
        self.game_at = at.offset;
        if let Some(kept) = self.kept.as_mut() {
            kept.line = at.location().line;
        }
    }

    fn tag(&mut self, name: &str, value: &str, at: At<'_>) {
        if let Some(kept) = self.kept.as_mut() {
            // Room for a typical tag section at once (online games have
            // about fifteen tags of about 300 bytes), not grown tag by tag.
            if kept.tags.is_empty() {
                kept.tags = TagList::with_capacity(16, 512);
            }
            kept.tags.push(name, value);
        }
        match name {
            "Variant" if self.variant.is_none() => {
                self.variant = Some((value.to_string(), at.location()));
            }
            "FEN" if self.fen.is_none() => self.fen = Some((value.to_string(), at.location())),
            "Result" if self.result_tag.is_none() => self.result_tag = Some(value.to_string()),
            _ => {}
        }
    }

    fn begin_movetext(&mut self) -> Flow {
        self.start_replay();
        Flow::Continue
    }

    // Inlined into the reader's movetext loop, which hands over the token
    // in registers; the replay's play stays a call of its own.
    #[inline]
    fn move_token(&mut self, token: MoveToken<'_, 't>) {
        if let Some(replayer) = self.replayer.as_mut() {
            let at = token.at;
            replayer.play(
                StreamMove {
                    text: token.text,
                    parsed: token.parsed,
                    check: token.check,
                    offset: at.offset,
                },
                &|offset| at.locate(offset),
            );
        }
    }

    fn begin_variation(&mut self) -> Flow {
        if let Some(replayer) = self.replayer.as_mut() {
            replayer.open();
        }
        Flow::Continue
    }

    fn end_variation(&mut self, at: At<'_>) {
        if let Some(replayer) = self.replayer.as_mut() {
            replayer.close(&|offset| at.locate(offset));
        }
    }

    fn result(&mut self, marker: &'static str) {
        self.marker = Some(marker);
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.reader.push(diagnostic);
    }

    fn end_game(&mut self, at: At<'_>) {
        self.start_replay();
        let locate = |offset| at.locate(offset);
        let game_at = self.game_at;
        let mut diagnostics = std::mem::take(&mut self.reader);
        if !self.source.is_empty() {
            diagnostics.extend(self.source.diagnostics(at.locate(game_at)));
        }
        let broken = has_error(&diagnostics);
        diagnostics.append(&mut self.start);
        let mut kept = self.kept.take();
        let (plies, end) = match self.replayer.take() {
            None => (0, None),
            Some(replayer) => {
                let mut done = replayer.finish(&locate);
                diagnostics.append(&mut done.diagnostics);
                if done.complete && !broken {
                    let last = done.last_main.as_ref();
                    let at = || last.map_or_else(|| at.locate(game_at), |m| m.location(&locate));
                    check_result(
                        self.marker,
                        self.result_tag.as_deref(),
                        &at,
                        &done.end,
                        &mut diagnostics,
                    );
                }
                if let Some(kept) = kept.as_mut() {
                    kept.moves = std::mem::take(&mut done.moves);
                }
                (done.plies, Some(done.end))
            }
        };
        // As `Game::recorded_result`: with neither a result nor a Result
        // tag the result is unknown, `*`.
        let result = self
            .marker
            .map(str::to_string)
            .or(self.result_tag.take())
            .or_else(|| (!broken).then(|| "*".to_string()));
        self.done = Some(Validation {
            diagnostics,
            plies,
            end,
            result,
            kept,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::position::write_position;
    use crate::notation::reader::GameSplitter;
    use crate::notation::replay::check_game;
    use proptest::prelude::*;

    /// Games that exercise every path of the replay: faults in the main
    /// line and in variations (nested, before and after the move they
    /// replace), check marks, null moves, results against mate, broken
    /// text inside open variations, unknown variants, FEN tags.
    const GAMES: &str = r#"
[Result "1-0"]
1. e4 (1. d4 Ke3 2. c4) (1. c4 e5 (1... Qh4+ 2. Kd2) 2. Kd3) e5+ 2. Ke3 (2. Nf3 Nc6) Nc6 1-0

1. f3 e5 2. g4 Qh4# *

1. f3 e5 2. g4 Qh4# 1-0

1. e4 e5 2. -- (2. Nf3 -- 3. --) Nc6 3. Bc4?! $1 {x} 0-1 {after}

1. e4 (1. d4 (1. c4 e5 2. Ke8 *

[Event "after a game broken in its variations"]
1. e4 e5 (1... c5 2. Ke2 (2. Nf3 Qa5+ 3. Kd3) 2... d6 3. Kd3 (3. Qe2)) 2. Nf3 *

[Variant "Xiangqi"]
1. e4 *

[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0"]
1. e4 e5 1/2

[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]
1. e4 *

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1/2-1/2

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 (4. Qxf7#) 1-0

[Variant "Royal Chess"]
1. e3 e6 2. Ke2 *

1. e4 {open
[Event "next"]
1. d4 ( 1. e4 ) ( 1. c4 ) d5 ) *

[Event "a variation while a gating move is undecided"]
[Variant "Seirawan960"]
[FEN "rbqnknbr/pppppppp/8/8/8/8/PPPPPPPP/RBQNKNBR[HEhe] w ABCDEFGHabcdefgh - 0 1"]
1. c4 a5 2. a4 e5 3. Ne3/E c5 4. Nc3/H (4. d3) 4... Ba7/E *

[Event "the text broken inside that variation"]
[Variant "Seirawan960"]
[FEN "rbqnknbr/pppppppp/8/8/8/8/PPPPPPPP/RBQNKNBR[HEhe] w ABCDEFGHabcdefgh - 0 1"]
1. c4 a5 2. a4 e5 3. Ne3/E c5 4. Nc3/H (20. RQc6/H 5. Ned5 Ba7/E 6. Nb5 Qd6 *
"#;

    /// Gating moves written without their origin: read by the moves after
    /// them, or ambiguous (docs/notation.md §13).
    const UNDISAMBIGUATED_GATING: &[u8] =
        include_bytes!("../../tests/data/played/fsf-gating-undisambiguated.pgn");

    #[test]
    fn validating_while_reading_says_what_the_tree_replay_says() {
        let mut text = GAMES.as_bytes().to_vec();
        text.extend_from_slice(b"\n");
        text.extend_from_slice(UNDISAMBIGUATED_GATING);
        let mut games = GameSplitter::new(&text[..]);
        let mut count = 0;
        while let Some(game) = games.next_game() {
            let game = game.unwrap();
            count += 1;
            let streamed = validate(&crate::rules::Registry::builtin(), &game);
            let tree = game.to_game_text().read();
            let checked = check_game(&crate::rules::Registry::builtin(), &tree, None);
            assert_eq!(streamed.diagnostics, checked.diagnostics, "game {count}");
            let replay = checked.replay.as_ref();
            assert_eq!(streamed.plies, replay.map_or(0, |r| r.moves.len()));
            assert_eq!(
                streamed.end.as_deref().map(write_position),
                replay.map(|r| write_position(&r.end))
            );
            assert_eq!(streamed.result.as_deref(), tree.recorded_result());
        }
        assert_eq!(count, 20);
    }

    /// Pieces of games: moves legal and not, in and out of turn, move
    /// numbers, check marks, null moves, variations, comments, NAGs,
    /// results, tags, line ends.
    const PIECES: [&str; 34] = [
        "1.",
        "2...",
        "e4",
        "e5",
        "d4",
        "d5",
        "Nf3",
        "Nc6",
        "Bb5",
        "Bc4",
        "Nf6",
        "Qh5",
        "Qxf7#",
        "Qh4#",
        "f3",
        "g4",
        "Ke2",
        "Ke7+",
        "O-O",
        "exd5",
        "--",
        "(",
        "(",
        ")",
        "{c}",
        "; x\n",
        "$1",
        "!",
        "Zz",
        "1-0",
        "0-1",
        "*",
        "1/2",
        "\n[Result \"1-0\"]\n",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// On any sequence of pieces, validating while reading says what
        /// reading a tree and replaying it says.
        #[test]
        fn streaming_and_tree_validation_agree(
            picks in proptest::collection::vec(0..PIECES.len(), 0..40),
        ) {
            let text: Vec<&str> = picks.iter().map(|&i| PIECES[i]).collect();
            let text = text.join(" ");
            let mut games = GameSplitter::new(text.as_bytes());
            while let Some(game) = games.next_game() {
                let game = game.unwrap();
                let streamed = validate(&crate::rules::Registry::builtin(), &game);
                let tree = game.to_game_text().read();
                let checked = check_game(&crate::rules::Registry::builtin(), &tree, None);
                prop_assert_eq!(&streamed.diagnostics, &checked.diagnostics, "{}", text);
                prop_assert_eq!(
                    streamed.plies,
                    checked.replay.as_ref().map_or(0, |r| r.moves.len())
                );
            }
        }
    }
}
