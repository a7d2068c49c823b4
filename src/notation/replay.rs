//! Replays a [`Game`] through the rules core: the main line and every
//! variation from its own branch point, from the start position or the
//! `FEN` tag; checks the result against the final position (R-0-3).
//!
//! Nothing here recurses on the text's nesting: variations are walked
//! with a stack on the heap, so any depth the memory holds replays.

use std::borrow::Cow;

use super::coord::{CoordError, resolve_coord};
use super::diagnostic::{Diagnostic, DiagnosticKind};
use super::game::{Game, Node};
use super::pgn::{AnyMove, parse_any_move};
use super::position::read_position_noting;
use super::san::{
    CheckMark, PlainSan, SanError, gating_readings, resolve_plain_san, resolve_san, write_san,
};
use super::span::Location;
use crate::rules::{Ending, Move, Outcome, Position, Registry, StalemateOutcome, Variant};

/// What kind of fault stopped a replay: the replay's kinds of
/// [`DiagnosticKind`] (`UnknownVariant`, `BadPosition`, `BadMove`,
/// `IllegalMove`, `AmbiguousMove`, `ResultMismatch`).
pub type ReplayErrorKind = DiagnosticKind;

/// Whether a diagnostic kind is one the replay finds (not the reader).
fn is_replay_kind(kind: DiagnosticKind) -> bool {
    matches!(
        kind,
        DiagnosticKind::UnknownVariant
            | DiagnosticKind::BadPosition
            | DiagnosticKind::BadMove
            | DiagnosticKind::IllegalMove
            | DiagnosticKind::AmbiguousMove
            | DiagnosticKind::ResultMismatch
    )
}

/// Why a game does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ReplayError {
    /// Kind.
    pub kind: ReplayErrorKind,
    /// 1-based ply of the faulty move, counted from the game's start along
    /// its line (a variation's first move has the ply of the move it replaces).
    pub ply: Option<usize>,
    /// Whether the move is in a variation.
    pub in_variation: bool,
    /// Where.
    pub at: Location,
    /// The move as written.
    pub text: Option<String>,
    /// The reason in words.
    pub message: String,
}

impl ReplayError {
    /// As a diagnostic (an error).
    pub fn to_diagnostic(&self) -> Diagnostic {
        let d = Diagnostic::error(self.kind, self.at, self.message.clone());
        match (&self.text, self.ply) {
            (Some(text), Some(ply)) => d.at_ply(ply, self.in_variation, text),
            _ => Diagnostic {
                ply: self.ply,
                in_variation: self.in_variation,
                text: self.text.clone(),
                ..d
            },
        }
    }

    fn from_diagnostic(d: &Diagnostic) -> Option<ReplayError> {
        is_replay_kind(d.kind).then(|| ReplayError {
            kind: d.kind,
            ply: d.ply,
            in_variation: d.in_variation,
            at: d.at,
            text: d.text.clone(),
            message: d.message.clone(),
        })
    }
}

/// A replayed game.
#[derive(Clone, Debug)]
pub struct Replay {
    /// Its variant.
    pub variant: Variant,
    /// Where it starts.
    pub start: Position,
    /// The main-line moves replayed (all of them when there is no error).
    pub moves: Vec<Move>,
    /// The position after them.
    pub end: Position,
}

/// The variant a game's tags name (docs/notation.md §3): the `Variant` tag, or
/// without one the registry's variant of untagged games (orthodox chess
/// unless set).
///
/// # Errors
/// The tag names no known variant.
pub fn game_variant(registry: &Registry, game: &Game) -> Result<Variant, ReplayError> {
    variant_named(registry, placed_tag(game, "Variant"))
}

/// Tag `name` of `game` with where it was written.
fn placed_tag<'g>(game: &'g Game, name: &str) -> Option<(&'g str, Location)> {
    game.tag(name).map(|v| (v, game.tag_location(name)))
}

/// The variant a `Variant` tag (its value and place) names; without one,
/// the registry's variant of untagged games.
fn variant_named(
    registry: &Registry,
    tag: Option<(&str, Location)>,
) -> Result<Variant, ReplayError> {
    match tag {
        None => Ok(registry.untagged_variant()),
        Some((name, at)) => registry.lookup(name).ok_or_else(|| ReplayError {
            kind: ReplayErrorKind::UnknownVariant,
            ply: None,
            in_variation: false,
            at,
            text: None,
            message: format!(
                "the Variant tag names `{name}`, which xpgn does not know (known: {})",
                registry.known_names()
            ),
        }),
    }
}

/// Where `game` starts: its variant's start position, or its `FEN` tag.
///
/// # Errors
/// Unknown variant, or a `FEN` tag that is not a legal position of it.
pub fn start_position(registry: &Registry, game: &Game) -> Result<Position, ReplayError> {
    start_noting(registry, game).map(|(pos, _)| *pos)
}

/// [`start_position`], with warnings for a `FEN` tag read with a fix.
fn start_noting(
    registry: &Registry,
    game: &Game,
) -> Result<(Box<Position>, Vec<Diagnostic>), ReplayError> {
    start_from_tags(
        registry,
        placed_tag(game, "Variant"),
        placed_tag(game, "FEN"),
    )
}

/// The start position the `Variant` and `FEN` tags (values and places)
/// give, with warnings for a `FEN` tag read with a fix. Boxed where it is
/// made, as the replay keeps it: a position is over a kilobyte, and every
/// game starts here.
pub(crate) fn start_from_tags(
    registry: &Registry,
    variant: Option<(&str, Location)>,
    fen: Option<(&str, Location)>,
) -> Result<(Box<Position>, Vec<Diagnostic>), ReplayError> {
    let variant = variant_named(registry, variant)?;
    match fen {
        Some((fen, at)) => {
            let (pos, notes) = read_position_noting(variant, fen).map_err(|e| ReplayError {
                kind: ReplayErrorKind::BadPosition,
                ply: None,
                in_variation: false,
                at,
                text: None,
                message: format!("FEN tag: {e}"),
            })?;
            let warnings = notes
                .into_iter()
                .map(|n| {
                    Diagnostic::warning(DiagnosticKind::PositionString, at, format!("FEN tag: {n}"))
                })
                .collect();
            Ok((Box::new(pos), warnings))
        }
        None => Ok((Box::new(Position::start(variant)), Vec::new())),
    }
}

/// Plays one move as written against `pos`.
///
/// # Errors
/// The move is not a move in any notation, illegal, or ambiguous.
pub fn resolve_text(pos: &Position, text: &str) -> Result<Move, (ReplayErrorKind, String)> {
    resolve_parsed(pos, text, parse_any_move(text).map(|(m, _, _)| m).as_ref())
}

/// Plays a move the reader already parsed (`None`: not a move).
///
/// # Errors
/// As [`resolve_text`].
pub fn resolve_node(pos: &Position, node: &Node) -> Result<Move, (ReplayErrorKind, String)> {
    match &node.parsed {
        Some(parsed) => resolve_parsed(pos, &node.text, Some(parsed)),
        None => resolve_text(pos, &node.text),
    }
}

fn resolve_parsed(
    pos: &Position,
    text: &str,
    parsed: Option<&AnyMove>,
) -> Result<Move, (ReplayErrorKind, String)> {
    resolve_parsed_lazily(pos, || text, parsed)
}

/// [`resolve_parsed`], asking for the text only where it is needed
/// (coordinate moves and faults): a SAN move resolves from its syntax,
/// and the streaming reader's moves give their text at a cost.
fn resolve_parsed_lazily<'t>(
    pos: &Position,
    text: impl Fn() -> &'t str,
    parsed: Option<&AnyMove>,
) -> Result<Move, (ReplayErrorKind, String)> {
    match parsed {
        Some(AnyMove::Coord(_)) => resolve_coord(pos, text()).map_err(|e| match e {
            CoordError::Syntax(_) => (ReplayErrorKind::BadMove, e.to_string()),
            CoordError::Illegal(m) => (ReplayErrorKind::IllegalMove, m),
            CoordError::Ambiguous(m) => (ReplayErrorKind::AmbiguousMove, m),
        }),
        Some(AnyMove::San(san)) => match resolve_plain_san(pos, san) {
            Some(m) => Ok(m),
            None => resolve_san_explained(pos, san),
        },
        Some(AnyMove::Null) => pos.null_move().ok_or_else(|| {
            (
                ReplayErrorKind::IllegalMove,
                "a null move is not possible in check (R-0-6, R-0-1)".to_string(),
            )
        }),
        None => Err((
            ReplayErrorKind::BadMove,
            format!(
                "`{}` is not a move in SAN, long algebraic or coordinate notation",
                text()
            ),
        )),
    }
}

/// [`resolve_san`] with its error as the replay's: the general path of a
/// SAN move, out of line.
#[inline(never)]
fn resolve_san_explained(
    pos: &Position,
    san: &super::san::San,
) -> Result<Move, (ReplayErrorKind, String)> {
    resolve_san(pos, san).map_err(|e| match e {
        SanError::Syntax(_) => (ReplayErrorKind::BadMove, e.to_string()),
        SanError::Illegal(m) => (ReplayErrorKind::IllegalMove, m.message),
        SanError::Ambiguous(m) => (ReplayErrorKind::AmbiguousMove, m),
    })
}

/// Plies that most games' main lines fit in: what lists kept by ply are
/// made with room for (a game of 60 moves takes one allocation, not
/// eight).
pub(crate) const TYPICAL_PLIES: usize = 128;

/// What a replay tells its caller about each main-line move: the position
/// before it, the move, the position after it.
pub type MoveVisitor<'v> = dyn FnMut(&Position, &Move, &Position) + 'v;

/// What a replay tells a caller that needs no position before a move:
/// the move and the position after it.
pub type AfterVisitor<'v> = dyn FnMut(&Move, &Position) + 'v;

/// What a replay tells a caller that reads the position before a move
/// and the one after it, each in its turn: no position is copied for it.
pub(crate) trait MoveStages {
    /// The move about to be played from `before`.
    fn before_move(&mut self, before: &Position, m: &Move);
    /// The move just played, which led to `after`.
    fn after_move(&mut self, m: &Move, after: &Position);
}

/// Who is told each main-line move, and how much.
pub(crate) enum MoveWatch<'r, 'v> {
    /// Told the position before the move too ([`MoveVisitor`]): the replay
    /// keeps a copy of it.
    Both(&'r mut MoveVisitor<'v>),
    /// Told only the move and the position after it ([`AfterVisitor`]):
    /// the position before each move, about a kilobyte, is not copied.
    After(&'r mut AfterVisitor<'v>),
    /// Told the position before the move before it is played, and the
    /// one after once it is ([`MoveStages`]): nothing is copied. (Only
    /// the records of the `db` feature write texts from both.)
    #[cfg_attr(not(feature = "db"), allow(dead_code))]
    Staged(&'r mut (dyn MoveStages + 'v)),
}

impl MoveWatch<'_, '_> {
    /// Before `m` is played from `pos`: a [`MoveWatch::Both`] has a copy
    /// of `pos` kept in `before`; a [`MoveWatch::Staged`] is told.
    fn before_play(&mut self, before: &mut Option<Box<Position>>, pos: &Position, m: &Move) {
        match self {
            MoveWatch::Both(_) => keep_before(before, pos),
            MoveWatch::Staged(stages) => stages.before_move(pos, m),
            MoveWatch::After(_) => {}
        }
    }

    /// Once `m` is played: tells it, with the position kept before it for
    /// a [`MoveWatch::Both`].
    fn after_play(&mut self, before: Option<&Position>, m: &Move, after: &Position) {
        match (self, before) {
            (MoveWatch::Both(visit), Some(before)) => visit(before, m, after),
            (MoveWatch::Both(_), None) => debug_assert!(false, "no position kept before the move"),
            (MoveWatch::After(visit), _) => visit(m, after),
            (MoveWatch::Staged(stages), _) => stages.after_move(m, after),
        }
    }

    /// Tells one move whose positions before and after are both at hand.
    fn tell(&mut self, before: &Position, m: &Move, after: &Position) {
        match self {
            MoveWatch::Both(visit) => visit(before, m, after),
            MoveWatch::After(visit) => visit(m, after),
            MoveWatch::Staged(stages) => {
                stages.before_move(before, m);
                stages.after_move(m, after);
            }
        }
    }
}

/// A move as written, as the replayer needs it: from a [`Game`] tree
/// ([`Node`]) or straight from the reader ([`super::validation`]).
pub(crate) trait WrittenMove {
    /// The move's text, without check mark or suffix annotation.
    fn text(&self) -> &str;
    /// Its syntax (`None`: parse the text).
    fn parsed(&self) -> Option<Cow<'_, AnyMove>>;
    /// Its syntax when it is a plain SAN move ([`PlainSan`]), which the
    /// replay resolves first.
    fn plain(&self) -> Option<PlainSan>;
    /// Its check mark as written.
    fn check(&self) -> Option<CheckMark>;
    /// Where it was written.
    fn place(&self) -> Place;
    /// Where it was written; `locate` gives the place of a byte offset of
    /// the game's text, for moves that keep only their offset.
    fn at(&self, locate: &dyn Fn(usize) -> Location) -> Location {
        self.place().location(locate)
    }
}

/// Where a move was written, kept apart from the move: the replay keeps
/// the last main-line move's place for the result checks, and copying
/// the whole move each ply for that cost more than the place.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Place {
    /// A byte offset of the game's text, located when needed.
    Offset(usize),
    /// A place already located.
    At(Location),
}

impl Place {
    /// The line and column; `locate` locates an offset.
    pub(crate) fn location(self, locate: &dyn Fn(usize) -> Location) -> Location {
        match self {
            Place::Offset(offset) => locate(offset),
            Place::At(at) => at,
        }
    }
}

impl WrittenMove for &Node {
    fn text(&self) -> &str {
        &self.text
    }

    fn parsed(&self) -> Option<Cow<'_, AnyMove>> {
        self.parsed.as_ref().map(Cow::Borrowed)
    }

    fn plain(&self) -> Option<PlainSan> {
        match self.parsed.as_ref()? {
            AnyMove::San(san) => PlainSan::of(san),
            _ => None,
        }
    }

    fn check(&self) -> Option<CheckMark> {
        self.check
    }

    fn place(&self) -> Place {
        Place::At(self.at)
    }
}

/// Plays a move as written against `pos`. The usual plain SAN move is
/// found inline ([`resolve_plain_san`], the replay's step for nearly
/// every ply); everything else, faults included, out of line.
#[inline(always)]
fn resolve_written<M: WrittenMove>(
    pos: &Position,
    m: &M,
) -> Result<Move, (ReplayErrorKind, String)> {
    if let Some(plain) = m.plain()
        && let Some(mv) = plain.resolve(pos)
    {
        return Ok(mv);
    }
    resolve_written_generally(pos, m)
}

/// [`resolve_written`] of any move, out of line.
#[inline(never)]
fn resolve_written_generally<M: WrittenMove>(
    pos: &Position,
    m: &M,
) -> Result<Move, (ReplayErrorKind, String)> {
    match m.parsed() {
        Some(parsed) => resolve_parsed_lazily(pos, || m.text(), Some(&parsed)),
        None => resolve_text(pos, m.text()),
    }
}

/// What a [`Replayer`] found.
pub(crate) struct Replayed {
    /// The position the main line reached (boxed, as the lines keep it).
    pub(crate) end: Box<Position>,
    /// Whether the main line played to its end.
    pub(crate) complete: bool,
    /// Main-line moves played.
    pub(crate) plies: usize,
    /// They, when collected.
    pub(crate) moves: Vec<Move>,
    /// Where the last of them was written.
    pub(crate) last_main: Option<Place>,
    /// The replay's diagnostics.
    pub(crate) diagnostics: Vec<Diagnostic>,
}

/// A line being replayed: the position before its last move read, that
/// move (played when the next move of the line comes, or the line ends:
/// its variations, which the text writes after it, start from the
/// position before it and are replayed first), the ply it has, and
/// whether a fault ended the line.
struct ReplayLine<M> {
    /// Boxed: a position is over a kilobyte, and the lines are pushed and
    /// popped, and the main line's position handed on at the end.
    pos: Box<Position>,
    pending: Option<M>,
    next_ply: usize,
    dead: bool,
    /// How many diagnostics there were when the line opened.
    opened_with: usize,
    /// For a variation of the main line that opened while a gating move's
    /// readings were undecided (and so failed it): the main line as it
    /// was, put back if the variation is left out.
    undecided: Option<Box<Undecided>>,
}

/// The main line's replay when a variation failed its undecided gating
/// move ([`Replayer::open`]).
struct Undecided {
    fork: Box<Fork>,
    pos: Box<Position>,
    next_ply: usize,
    dead: bool,
    complete: bool,
}

/// Replays moves as they are told, in text order: the main line and
/// every variation from its own branch point, one move behind the text so
/// that a move's variations are replayed before it. A fault in a
/// variation ends that variation; a fault in the main line ends the
/// replay. Shared by [`check_game`] (which tells it a tree) and the
/// streaming validation (which tells it the reader's moves), so both say
/// the same in the same order. Nothing recurses on the nesting.
pub(crate) struct Replayer<'r, 'v, M> {
    lines: Vec<ReplayLine<M>>,
    /// The replay's diagnostics, in the order [`check_game`] gives them.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The main-line moves played, when collected.
    moves: Option<Vec<Move>>,
    plies: usize,
    null_in_main_line: bool,
    complete: bool,
    /// Where the last main-line move played was written: where the
    /// result checks point.
    last_main: Option<Place>,
    visit: Option<MoveWatch<'r, 'v>>,
    /// The position before the main-line move `visit` is told about,
    /// copied into the same place each ply. Boxed, as is `fork`: a
    /// position is about a kilobyte, and the replayer is moved a few
    /// times a game, which then copies a few words instead.
    before: Option<Box<Position>>,
    /// The readings of an ambiguous gating move of the main line, while
    /// more than one replays what follows.
    fork: Option<Box<Fork>>,
}

/// A main-line gating move that stands for several legal moves, as a
/// writer that never disambiguates gating moves leaves it (`Ne6/H` where
/// two knights on their gates reach e6, docs/notation.md §13): each
/// reading is replayed with the moves that follow, side by side, until
/// one is left. Nothing is told about the moves until then.
struct Fork {
    /// The position before the move.
    before: Position,
    /// The move's ply, place and text.
    ply: usize,
    at: Location,
    text: String,
    /// Why the move alone is ambiguous.
    ambiguity: String,
    readings: Vec<Reading>,
    /// Where the last move replayed was written.
    last: Place,
}

/// One reading of a [`Fork`]: its moves (the ambiguous one first), the
/// position they reach and their warnings; `alive` until a move fails.
struct Reading {
    pos: Position,
    moves: Vec<Move>,
    diagnostics: Vec<Diagnostic>,
    alive: bool,
}

impl<'r, 'v, M: WrittenMove> Replayer<'r, 'v, M> {
    /// A replay from `start`; `collect` keeps the main-line moves.
    pub(crate) fn new(
        start: Box<Position>,
        collect: bool,
        visit: Option<MoveWatch<'r, 'v>>,
    ) -> Replayer<'r, 'v, M> {
        Replayer {
            lines: vec![ReplayLine {
                pos: start,
                pending: None,
                next_ply: 1,
                dead: false,
                opened_with: 0,
                undecided: None,
            }],
            diagnostics: Vec::new(),
            // Room for most games' main lines at once, not grown move by
            // move from nothing.
            moves: collect.then(|| Vec::with_capacity(TYPICAL_PLIES)),
            plies: 0,
            null_in_main_line: false,
            complete: true,
            last_main: None,
            visit,
            before: None,
            fork: None,
        }
    }

    /// The next move of the current line.
    #[inline(never)]
    pub(crate) fn play(&mut self, m: M, locate: &dyn Fn(usize) -> Location) {
        if self.top().dead {
            return;
        }
        self.flush(locate);
        self.top().pending = Some(m);
    }

    /// A variation opens: it replaces the last move of the current line.
    pub(crate) fn open(&mut self) {
        let opened_with = self.diagnostics.len();
        // The variation starts from a position the readings do not agree
        // on: the move stays ambiguous. Should the text break off inside
        // the variation, it is left out, and so is this failure.
        let mut undecided = None;
        if self.lines.len() == 1 && self.fork.is_some() {
            let (main, complete) = (&self.lines[0], self.complete);
            let (pos, next_ply, dead) = (main.pos.clone(), main.next_ply, main.dead);
            undecided = self
                .fail_fork("a variation follows before the moves after it tell its readings apart")
                .map(|fork| {
                    Box::new(Undecided {
                        fork,
                        pos,
                        next_ply,
                        dead,
                        complete,
                    })
                });
        }
        let parent = self.top();
        let dead = parent.dead || parent.pending.is_none();
        let line = ReplayLine {
            pos: parent.pos.clone(),
            pending: None,
            next_ply: parent.next_ply,
            dead,
            opened_with,
            undecided,
        };
        self.lines.push(line);
    }

    /// The innermost open variation closes.
    pub(crate) fn close(&mut self, locate: &dyn Fn(usize) -> Location) {
        if self.lines.len() > 1 {
            self.flush(locate);
            self.lines.pop();
        }
    }

    /// The text broke off inside variations: they are left out, with what
    /// their replay said (as a tree leaves them out).
    pub(crate) fn abandon_open_variations(&mut self) {
        let Some(line) = self.lines.get_mut(1) else {
            return;
        };
        let undecided = line.undecided.take();
        self.diagnostics.truncate(line.opened_with);
        self.lines.truncate(1);
        if let Some(u) = undecided {
            let main = &mut self.lines[0];
            (main.pos, main.next_ply, main.dead) = (u.pos, u.next_ply, u.dead);
            self.complete = u.complete;
            self.fork = Some(u.fork);
        }
    }

    /// The end of the text: plays the main line's last move.
    pub(crate) fn finish(mut self, locate: &dyn Fn(usize) -> Location) -> Replayed {
        self.abandon_open_variations();
        self.flush(locate);
        if self.fork.is_some() {
            self.fail_fork("more than one of its readings replays to the end");
        }
        let main = self.lines.pop().expect("the main line is always there");
        Replayed {
            end: main.pos,
            complete: self.complete,
            plies: self.plies,
            moves: self.moves.unwrap_or_default(),
            last_main: self.last_main,
            diagnostics: self.diagnostics,
        }
    }

    fn top(&mut self) -> &mut ReplayLine<M> {
        self.lines
            .last_mut()
            .expect("the main line is always there")
    }

    /// Plays the current line's pending move.
    fn flush(&mut self, locate: &dyn Fn(usize) -> Location) {
        let in_variation = self.lines.len() > 1;
        if !in_variation && self.fork.is_some() {
            self.flush_forked(locate);
            return;
        }
        let line = self
            .lines
            .last_mut()
            .expect("the main line is always there");
        if line.dead {
            return;
        }
        // The move is read where it waits and dropped there once played:
        // moving it out would copy it each ply.
        let Some(m) = line.pending.as_ref() else {
            return;
        };
        let ply = line.next_ply;
        // The move is used where it was found, not moved out: the plain
        // resolution writes it a field at a time, and a copy read back
        // whole right after would wait on those writes (a failed store
        // forwarding, about 3% of a validation's samples).
        let failure = match resolve_written(&line.pos, m) {
            Ok(ref mv) => {
                let told = self.visit.is_some() && !in_variation;
                if let (true, Some(visit)) = (told, self.visit.as_mut()) {
                    visit.before_play(&mut self.before, &line.pos, mv);
                }
                line.pos.play_unchecked(mv);
                if let Some(message) = check_mark_warning(m, &line.pos) {
                    self.diagnostics.push(
                        Diagnostic::warning(DiagnosticKind::CheckMark, m.at(locate), message)
                            .at_ply(ply, in_variation, m.text()),
                    );
                }
                if mv.is_null() && !in_variation && !self.null_in_main_line {
                    self.null_in_main_line = true;
                    self.diagnostics.push(
                        Diagnostic::warning(
                            DiagnosticKind::NullMove,
                            m.at(locate),
                            "a null move in the main line: the turn passes (R-0-6); the positions after it are not indexed",
                        )
                        .at_ply(ply, false, m.text()),
                    );
                }
                if let (true, Some(visit)) = (told, self.visit.as_mut()) {
                    visit.after_play(self.before.as_deref(), mv, &line.pos);
                }
                line.next_ply += 1;
                if !in_variation {
                    self.plies += 1;
                    if let Some(moves) = self.moves.as_mut() {
                        moves.push(*mv);
                    }
                    self.last_main = Some(m.place());
                }
                None
            }
            Err(failure) => Some(failure),
        };
        match failure {
            None => line.pending = None,
            Some(failure) => self.fail_pending(failure, locate),
        }
    }

    /// The current line's pending move names no legal move: a fork of its
    /// readings (an ambiguous gating move of the main line), else an error
    /// that ends the line. Out of the way of [`Replayer::flush`], which
    /// plays a legal move on nearly every call.
    #[cold]
    #[inline(never)]
    fn fail_pending(
        &mut self,
        (kind, message): (ReplayErrorKind, String),
        locate: &dyn Fn(usize) -> Location,
    ) {
        let in_variation = self.lines.len() > 1;
        let line = self
            .lines
            .last_mut()
            .expect("the main line is always there");
        let Some(m) = line.pending.as_ref() else {
            return;
        };
        let ply = line.next_ply;
        let readings = match (kind, in_variation) {
            (ReplayErrorKind::AmbiguousMove, false) => written_san(m)
                .map(|san| gating_readings(&line.pos, &san))
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        if readings.len() > 1 {
            self.fork = Some(Box::new(Fork::new(
                &line.pos, readings, ply, m, locate, message,
            )));
            line.next_ply += 1;
        } else {
            self.diagnostics.push(
                Diagnostic::error(kind, m.at(locate), format!("`{}`: {message}", m.text())).at_ply(
                    ply,
                    in_variation,
                    m.text(),
                ),
            );
            line.dead = true;
            if !in_variation {
                self.complete = false;
            }
        }
        line.pending = None;
    }

    /// Plays the main line's pending move in each living reading of the
    /// fork; settles the fork when one reading is left, or none. Out of
    /// line: a fork is rare, and its positions would widen the stack of
    /// every [`Replayer::flush`].
    #[inline(never)]
    fn flush_forked(&mut self, locate: &dyn Fn(usize) -> Location) {
        let line = self
            .lines
            .last_mut()
            .expect("the main line is always there");
        let (Some(m), Some(fork)) = (line.pending.take(), self.fork.as_mut()) else {
            return;
        };
        let ply = line.next_ply;
        for r in fork.readings.iter_mut().filter(|r| r.alive) {
            match resolve_written(&r.pos, &m) {
                Ok(mv) => {
                    r.pos.play_unchecked(&mv);
                    if let Some(message) = check_mark_warning(&m, &r.pos) {
                        r.diagnostics.push(
                            Diagnostic::warning(DiagnosticKind::CheckMark, m.at(locate), message)
                                .at_ply(ply, false, m.text()),
                        );
                    }
                    r.moves.push(mv);
                }
                Err(_) => r.alive = false,
            }
        }
        line.next_ply += 1;
        fork.last = m.place();
        match fork.readings.iter().filter(|r| r.alive).count() {
            0 => {
                self.fail_fork("none of its readings replays the moves after it");
            }
            1 => self.settle_fork(),
            _ => {}
        }
    }

    /// One reading of the fork is left: its moves are the main line's, told
    /// and collected as if played one by one, with a warning at the
    /// ambiguous move naming the reading taken.
    fn settle_fork(&mut self) {
        let Some(fork) = self.fork.take() else {
            return;
        };
        let names: Vec<String> = fork
            .readings
            .iter()
            .map(|r| write_san(&fork.before, &r.moves[0]))
            .collect();
        let Some((i, chosen)) = fork.readings.into_iter().enumerate().find(|(_, r)| r.alive) else {
            return;
        };
        self.diagnostics.push(
            Diagnostic::warning(
                DiagnosticKind::AmbiguousMove,
                fork.at,
                format!(
                    "`{}` stands for {} gating moves ({}), as a writer that never disambiguates gating moves leaves it: read as {}, the only one the moves after it allow (docs/notation.md §13)",
                    fork.text,
                    names.len(),
                    names.join(", "),
                    names[i]
                ),
            )
            .at_ply(fork.ply, false, &fork.text),
        );
        self.diagnostics.extend(chosen.diagnostics);
        let mut before = fork.before;
        for mv in chosen.moves {
            let mut after = before.clone();
            after.play_unchecked(&mv);
            if let Some(visit) = self.visit.as_mut() {
                visit.tell(&before, &mv, &after);
            }
            if let Some(moves) = self.moves.as_mut() {
                moves.push(mv);
            }
            self.plies += 1;
            before = after;
        }
        *self.top().pos = before;
        self.last_main = Some(fork.last);
    }

    /// The fork ends without one reading: the move is ambiguous, and the
    /// main line ends before it. Gives the fork back, for [`Replayer::open`].
    fn fail_fork(&mut self, why: &str) -> Option<Box<Fork>> {
        let fork = self.fork.take()?;
        self.diagnostics.push(
            Diagnostic::error(
                DiagnosticKind::AmbiguousMove,
                fork.at,
                format!("`{}`: {} ({why})", fork.text, fork.ambiguity),
            )
            .at_ply(fork.ply, false, &fork.text),
        );
        self.complete = false;
        let line = self.top();
        (*line.pos).clone_from(&fork.before);
        line.next_ply = fork.ply;
        line.dead = true;
        Some(fork)
    }
}

impl Fork {
    /// A fork at the written move `m` (ply `ply`) of the position `before`,
    /// with each of its `readings` played.
    fn new<M: WrittenMove>(
        before: &Position,
        readings: Vec<Move>,
        ply: usize,
        m: &M,
        locate: &dyn Fn(usize) -> Location,
        ambiguity: String,
    ) -> Fork {
        let readings = readings
            .into_iter()
            .map(|mv| {
                let mut pos = before.clone();
                pos.play_unchecked(&mv);
                let diagnostics = check_mark_warning(m, &pos)
                    .map(|message| {
                        Diagnostic::warning(DiagnosticKind::CheckMark, m.at(locate), message)
                            .at_ply(ply, false, m.text())
                    })
                    .into_iter()
                    .collect();
                Reading {
                    pos,
                    moves: vec![mv],
                    diagnostics,
                    alive: true,
                }
            })
            .collect();
        Fork {
            before: before.clone(),
            ply,
            at: m.at(locate),
            text: m.text().to_string(),
            ambiguity,
            readings,
            last: m.place(),
        }
    }
}

/// Copies `pos` into `before`, the position a visitor is told a move was
/// played from: into the same place each ply once there is one. Out of
/// line: only a replay with a visitor asks it, and the position is large.
#[inline(never)]
fn keep_before(before: &mut Option<Box<Position>>, pos: &Position) {
    match before.as_mut() {
        Some(before) => (**before).clone_from(pos),
        None => *before = Some(Box::new(pos.clone())),
    }
}

/// The SAN a written move is, if it is one.
fn written_san<M: WrittenMove>(m: &M) -> Option<super::san::San> {
    let parsed = match m.parsed() {
        Some(p) => p.into_owned(),
        None => parse_any_move(m.text()).map(|(p, _, _)| p)?,
    };
    match parsed {
        AnyMove::San(san) => Some(san),
        _ => None,
    }
}

/// The warning a check mark earns when the position does not bear it out.
/// Inlined for the same reason as [`resolve_written`].
#[inline(always)]
fn check_mark_warning<M: WrittenMove>(m: &M, after: &Position) -> Option<String> {
    match m.check()? {
        CheckMark::Mate => {
            // Servers of the variants with play rules mark any move that
            // wins at once `#` (a king exploded, the third check:
            // docs/notation.md §13).
            let wins = match after.outcome() {
                Some(Outcome::Win {
                    by: Ending::Checkmate,
                    ..
                }) => true,
                Some(Outcome::Win { winner, .. }) => {
                    after.variant().def().has_play_rules() && winner != after.turn()
                }
                _ => false,
            };
            (!wins).then(|| format!("`{}` is marked `#` but does not mate", m.text()))
        }
        CheckMark::Check => {
            (!after.is_check()).then(|| format!("`{}` is marked `+` but gives no check", m.text()))
        }
    }
}

/// Tells `replayer` the tree of `game` in text order: each move, then its
/// variations. Walked with a stack on the heap, not recursion.
fn tell_tree<'g>(game: &'g Game, replayer: &mut Replayer<'_, '_, &'g Node>) {
    struct Frame<'g> {
        nodes: &'g [Node],
        next: usize,
        variation: usize,
    }
    let by_node = |_: usize| Location::default();
    let mut stack = vec![Frame {
        nodes: &game.moves,
        next: 0,
        variation: 0,
    }];
    while let Some(frame) = stack.last_mut() {
        if let Some(variation) = frame
            .next
            .checked_sub(1)
            .and_then(|last| frame.nodes[last].variations.get(frame.variation))
        {
            frame.variation += 1;
            replayer.open();
            stack.push(Frame {
                nodes: variation,
                next: 0,
                variation: 0,
            });
            continue;
        }
        if let Some(node) = frame.nodes.get(frame.next) {
            frame.next += 1;
            frame.variation = 0;
            replayer.play(node, &by_node);
            continue;
        }
        stack.pop();
        if !stack.is_empty() {
            replayer.close(&by_node);
        }
    }
}

/// A ruling id as cited in a message, or the variant's rule in words.
fn rule_of(rule: Option<&str>) -> String {
    rule.map_or_else(|| "the variant's rule".to_string(), str::to_string)
}

/// The name of the flag rule's piece type, in lower case.
fn flag_piece(pos: &Position) -> String {
    pos.variant()
        .def()
        .flag
        .as_ref()
        .map_or("king".to_string(), |f| {
            pos.variant().piece_def(f.kind).name.to_lowercase()
        })
}

/// The result a final position implies, with the reason in words.
fn implied_result(pos: &Position) -> Option<(&'static str, String)> {
    let outcome = pos.outcome()?;
    let side = |c: crate::rules::Color| format!("{c:?}");
    let why = match outcome {
        Outcome::Win {
            winner,
            by: Ending::Checkmate,
        } => format!("{} is checkmated (R-0-2)", side(winner.other())),
        Outcome::Win {
            winner,
            by: Ending::Stalemate,
        } => {
            let rule = match pos.variant().def().stalemate {
                StalemateOutcome::StalematedLoses => "R-RO-4",
                StalemateOutcome::StalematedWins => "R-CH-7",
                StalemateOutcome::Draw => "R-0-2",
            };
            let stalemated = pos.turn();
            format!(
                "{} is stalemated, so {} wins ({rule})",
                side(stalemated),
                side(winner)
            )
        }
        Outcome::Win {
            winner,
            by: Ending::BareKing,
        } => format!(
            "{} has a bare king, so {} wins (the variant's bare-king rule)",
            side(winner.other()),
            side(winner)
        ),
        Outcome::Draw {
            by: Ending::BareKing,
        } => "both kings are bare: a draw (the variant's bare-king rule)".to_string(),
        Outcome::Win {
            winner,
            by: Ending::KingExploded,
        } => format!(
            "{}'s king exploded, so {} wins ({})",
            side(winner.other()),
            side(winner),
            rule_of(
                pos.variant()
                    .def()
                    .explosion
                    .as_ref()
                    .map(|e| e.rule.as_str())
            )
        ),
        Outcome::Win {
            winner,
            by: Ending::CheckLimit,
        } => format!(
            "{} has given {} checks and wins (the variant's check limit)",
            side(winner),
            pos.checks_given(winner)
        ),
        Outcome::Win {
            winner,
            by: Ending::Flag,
        } => format!(
            "{}'s {} reached its goal, so {} wins ({})",
            side(winner),
            flag_piece(pos),
            side(winner),
            rule_of(pos.variant().def().flag.as_ref().map(|f| f.rule.as_str()))
        ),
        Outcome::Draw { by: Ending::Flag } => format!(
            "both sides' {} reached their goals: a draw ({})",
            flag_piece(pos),
            rule_of(pos.variant().def().flag.as_ref().map(|f| f.rule.as_str()))
        ),
        Outcome::Win {
            winner,
            by: Ending::Extinction,
        } => {
            let e = pos.variant().def().extinction.as_ref();
            let extinct = if e.is_some_and(|e| e.extinct_side_wins) {
                winner
            } else {
                winner.other()
            };
            format!(
                "{} has no pieces left that count, so {} wins ({})",
                side(extinct),
                side(winner),
                rule_of(e.map(|e| e.rule.as_str()))
            )
        }
        Outcome::Draw {
            by: Ending::KingExploded | Ending::CheckLimit | Ending::Extinction,
        } => "a draw by the variant's rules".to_string(),
        Outcome::Draw { .. } => format!("{} is stalemated: a draw (R-0-2)", side(pos.turn())),
    };
    Some((outcome.result(), why))
}

/// A result as the `Result` tag may write it, as a termination marker.
fn tag_result(tag: &str) -> Option<&'static str> {
    match tag.trim() {
        "1-0" => Some("1-0"),
        "0-1" => Some("0-1"),
        "1/2-1/2" | "1/2" | "½-½" | "½" | "0.5-0.5" => Some("1/2-1/2"),
        "*" => Some("*"),
        _ => None,
    }
}

/// The result checks of R-0-3 on a main line replayed to its end:
/// `marker` is the movetext's result, `tag` the `Result` tag's value,
/// `at` where the diagnostics point (the last main-line move), asked
/// only when there is one.
pub(crate) fn check_result(
    marker: Option<&str>,
    tag: Option<&str>,
    at: &dyn Fn() -> Location,
    end: &Position,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let tag = tag.and_then(tag_result);
    let implied = implied_result(end);
    if let (Some(t), Some(m)) = (tag, marker)
        && t != m
    {
        // Where the final position decides nothing, the result written
        // last (after the moves) stands; a tag that contradicts a mate
        // or stalemate is an error below.
        diagnostics.push(Diagnostic::warning(
            DiagnosticKind::Result,
            at(),
            format!(
                "the Result tag says {t} but the movetext ends with {m}: the movetext's {m} stands"
            ),
        ));
    }
    if let Some((implied, why)) = implied {
        let written = marker
            .filter(|m| *m != "*")
            .or(tag.filter(|t| *t != "*"))
            .unwrap_or("*");
        if written == "*" {
            diagnostics.push(Diagnostic::warning(
                DiagnosticKind::Result,
                at(),
                format!(
                    "the game ends in a final position where {why}, but its result is written `*` (unknown): read as {implied} (R-0-3)"
                ),
            ));
        } else if written != implied {
            diagnostics.push(Diagnostic::error(
                DiagnosticKind::ResultMismatch,
                at(),
                format!(
                    "the game ends in a final position where {why}; its result must be {implied}, not {written} (R-0-3)"
                ),
            ));
        } else if let Some(t) = tag.filter(|&t| t != "*" && t != implied) {
            diagnostics.push(Diagnostic::error(
                DiagnosticKind::ResultMismatch,
                at(),
                format!(
                    "the game ends in a final position where {why}; its Result tag must say {implied}, not {t} (R-0-3)"
                ),
            ));
        }
    }
}

/// Everything a replay found out about a game.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The main line as far as it plays (`None`: the start is unknown).
    pub replay: Option<Replay>,
    /// The reader's diagnostics, then the replay's.
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    /// Whether no diagnostic is an error (warnings allowed).
    pub fn is_valid(&self) -> bool {
        !super::diagnostic::has_error(&self.diagnostics)
    }

    /// The first error, if any.
    pub fn first_error(&self) -> Option<&Diagnostic> {
        self.diagnostics.iter().find(|d| d.is_error())
    }
}

/// Replays `game` as far as it goes and says everything found on the
/// way: the reader's diagnostics, a fault in each variation (the rest of
/// that variation is skipped), the fault that ends the main line, the
/// result checks of R-0-3, and warnings (check marks, null moves, `*`
/// after mate). `visit` sees each main-line move as it is played.
pub fn check_game(
    registry: &Registry,
    game: &Game,
    visit: Option<&mut MoveVisitor<'_>>,
) -> Checked {
    let mut diagnostics = game.diagnostics.clone();
    let (start, notes) = match start_noting(registry, game) {
        Ok(s) => s,
        Err(e) => {
            diagnostics.push(e.to_diagnostic());
            return Checked {
                replay: None,
                diagnostics,
            };
        }
    };
    diagnostics.extend(notes);
    let variant = start.variant().clone();
    let mut replayer = Replayer::new(start.clone(), true, visit.map(MoveWatch::Both));
    tell_tree(game, &mut replayer);
    let Replayed {
        end,
        complete,
        moves,
        diagnostics: replayed,
        ..
    } = replayer.finish(&|_| Location::default());
    diagnostics.extend(replayed);
    if complete && !game.broken() {
        let at = game.moves.last().map_or(game.at, |n| n.at);
        check_result(
            game.result.as_deref(),
            game.tag("Result"),
            &|| at,
            &end,
            &mut diagnostics,
        );
    }
    Checked {
        replay: Some(Replay {
            variant,
            start: *start,
            moves,
            end: *end,
        }),
        diagnostics,
    }
}

/// A replay that stopped: the fault, and what was replayed before it
/// (when the start position was known).
#[derive(Clone, Debug)]
pub struct Failed {
    /// The fault.
    pub error: ReplayError,
    /// The main line up to the fault.
    pub partial: Option<Replay>,
}

/// Replays `game`. On error, also returns what was replayed before it.
///
/// ```
/// use xpgn::notation::{pgn::parse_game, replay::replay};
/// use xpgn::rules::Registry;
/// let game = parse_game("[Variant \"Royal Chess\"]\n1. e3 e6 *", 1).unwrap();
/// let r = replay(&Registry::builtin(), &game).unwrap();
/// assert_eq!(r.moves.len(), 2);
/// ```
///
/// # Errors
/// The first fault of the replay (the reader's diagnostics are not
/// looked at), with the replay up to it when the start was known.
pub fn replay(registry: &Registry, game: &Game) -> Result<Replay, Box<Failed>> {
    replay_visiting(registry, game, None)
}

/// [`replay`], telling `visit` about each main-line move as it is played
/// (for callers that need every position, such as an index, without
/// playing the game a second time).
///
/// # Errors
/// As [`replay`]; `visit` has then seen the moves before the fault.
pub fn replay_visiting(
    registry: &Registry,
    game: &Game,
    visit: Option<&mut MoveVisitor<'_>>,
) -> Result<Replay, Box<Failed>> {
    let checked = check_game(registry, game, visit);
    let fault = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .find_map(ReplayError::from_diagnostic);
    match (fault, checked.replay) {
        (None, Some(replay)) => Ok(replay),
        (Some(error), partial) => Err(Box::new(Failed { error, partial })),
        (None, None) => unreachable!("a replay without a start has a fault"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::diagnostic::Severity;
    use crate::notation::pgn::parse_game;

    fn run(text: &str) -> Result<Replay, ReplayError> {
        replay(&Registry::builtin(), &parse_game(text, 1).unwrap()).map_err(|f| f.error)
    }

    #[test]
    fn replays_main_line_and_variations_mixed_notations() {
        let r = run("1. e4 (1. d2d4 d5 (1... Nf6 2. c4) 2. c4) e7e5 2. Ng1-f3 Nc6 *").unwrap();
        assert_eq!(r.moves.len(), 4);
    }

    #[test]
    fn errors_name_ply_place_and_reason() {
        let e = run("1. e4 e5\n2. Ke3 *").unwrap_err();
        assert_eq!(
            (e.kind, e.ply, e.at.line, e.at.column),
            (ReplayErrorKind::IllegalMove, Some(3), 2, 4)
        );
        assert!(
            e.message.contains("King on e1 cannot reach e3"),
            "{}",
            e.message
        );
        let e = run("1. e4 (1. e5) e5 *").unwrap_err();
        assert_eq!((e.ply, e.in_variation), (Some(1), true));
        let e = run("[Variant \"Xiangqi\"] 1. e4 *").unwrap_err();
        assert_eq!(e.kind, ReplayErrorKind::UnknownVariant);
        let e = run("[Variant \"Counsellor Chess\"] 1. Ed3 *").unwrap_err();
        assert!(e.message.contains("Elephant"), "{}", e.message);
    }

    #[test]
    fn result_must_match_mate_and_stalemate() {
        assert!(run("1. f3 e5 2. g4 Qh4# 0-1").is_ok());
        let e = run("1. f3 e5 2. g4 Qh4# 1/2-1/2").unwrap_err();
        assert_eq!(e.kind, ReplayErrorKind::ResultMismatch);
        assert!(e.message.contains("must be 0-1"), "{}", e.message);
        // Any result is accepted without mate or stalemate (R-0-3).
        assert!(run("[Result \"1-0\"] 1. e4 1-0").is_ok());
        // A Result tag that contradicts the mate is wrong too.
        let e = run("[Result \"1-0\"] 1. f3 e5 2. g4 Qh4# 0-1").unwrap_err();
        assert_eq!(e.kind, ReplayErrorKind::ResultMismatch);
        assert!(
            e.message.contains("Result tag must say 0-1"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_result_tag_that_differs_from_the_movetext_warns_where_the_position_decides_nothing() {
        let checked = check_game(
            &Registry::builtin(),
            &parse_game("[Result \"1-0\"] 1. e4 0-1", 1).unwrap(),
            None,
        );
        assert!(checked.is_valid(), "{:?}", checked.diagnostics);
        let [warning] = &checked.diagnostics[..] else {
            panic!("{:?}", checked.diagnostics);
        };
        assert_eq!(
            (warning.severity, warning.kind),
            (Severity::Warning, DiagnosticKind::Result)
        );
        assert!(
            warning.message.contains("says 1-0") && warning.message.contains("0-1 stands"),
            "{}",
            warning.message
        );
        // Both wrong against the mate: one error, about the result that
        // stands.
        let checked = check_game(
            &Registry::builtin(),
            &parse_game("[Result \"1-0\"] 1. f3 e5 2. g4 Qh4# 1/2-1/2", 1).unwrap(),
            None,
        );
        let errors: Vec<_> = checked
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].message.contains("not 1/2-1/2"),
            "{}",
            errors[0].message
        );
    }
}
