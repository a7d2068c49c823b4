//! Replays a [`Game`] through the rules core: the main line and every
//! variation from its own branch point, from the start position or the
//! `FEN` tag; checks the result against the final position (R-0-3).
//!
//! Nothing here recurses on the text's nesting: variations are walked
//! with a stack on the heap, so any depth the memory holds replays.

use super::coord::{CoordError, resolve_coord};
use super::diagnostic::{Diagnostic, DiagnosticKind, Severity};
use super::game::{Game, Node};
use super::pgn::{AnyMove, parse_any_move};
use super::position::read_position_noting;
use super::san::{CheckMark, SanError, resolve_san};
use super::span::Location;
use crate::rules::{Ending, Move, Outcome, Position, StalemateOutcome, Variant};

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
        Diagnostic {
            severity: Severity::Error,
            kind: self.kind,
            ply: self.ply,
            in_variation: self.in_variation,
            at: self.at,
            text: self.text.clone(),
            message: self.message.clone(),
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

/// The variant a game's tags name (NOTATION §2): the `Variant` tag, or
/// orthodox chess without one.
///
/// # Errors
/// The tag names no known variant.
pub fn game_variant(game: &Game) -> Result<Variant, ReplayError> {
    match game.tag("Variant") {
        None => Ok(Variant::chess()),
        Some(name) => Variant::by_name(name).ok_or_else(|| {
            let registry = crate::rules::Registry::global();
            let known = registry.names();
            ReplayError {
                kind: ReplayErrorKind::UnknownVariant,
                ply: None,
                in_variation: false,
                at: game.tag_location("Variant"),
                text: None,
                message: format!(
                    "the Variant tag names `{name}`, which xpgn does not know (known: {})",
                    known.join(", ")
                ),
            }
        }),
    }
}

/// Where `game` starts: its variant's start position, or its `FEN` tag.
///
/// # Errors
/// Unknown variant, or a `FEN` tag that is not a legal position of it.
pub fn start_position(game: &Game) -> Result<Position, ReplayError> {
    start_noting(game).map(|(pos, _)| pos)
}

/// [`start_position`], with warnings for a `FEN` tag read with a fix.
fn start_noting(game: &Game) -> Result<(Position, Vec<Diagnostic>), ReplayError> {
    let variant = game_variant(game)?;
    match game.tag("FEN") {
        Some(fen) => {
            let at = game.tag_location("FEN");
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
            Ok((pos, warnings))
        }
        None => Ok((Position::start(variant), Vec::new())),
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
    match parsed {
        Some(AnyMove::Coord(_)) => resolve_coord(pos, text).map_err(|e| match e {
            CoordError::Syntax(_) => (ReplayErrorKind::BadMove, e.to_string()),
            CoordError::Illegal(m) => (ReplayErrorKind::IllegalMove, m),
            CoordError::Ambiguous(m) => (ReplayErrorKind::AmbiguousMove, m),
        }),
        Some(AnyMove::San(san)) => resolve_san(pos, san).map_err(|e| match e {
            SanError::Syntax(_) => (ReplayErrorKind::BadMove, e.to_string()),
            SanError::Illegal(m) => (ReplayErrorKind::IllegalMove, m),
            SanError::Ambiguous(m) => (ReplayErrorKind::AmbiguousMove, m),
        }),
        Some(AnyMove::Null) => pos.null_move().ok_or_else(|| {
            (
                ReplayErrorKind::IllegalMove,
                "a null move is not possible in check (R-0-6, R-0-1)".to_string(),
            )
        }),
        None => Err((
            ReplayErrorKind::BadMove,
            format!("`{text}` is not a move in SAN, long algebraic or coordinate notation"),
        )),
    }
}

/// What a replay tells its caller about each main-line move: the position
/// before it, the move, the position after it.
pub type MoveVisitor<'v> = dyn FnMut(&Position, &Move, &Position) + 'v;

/// A line being replayed: its moves, the next one to play, the position
/// before it, and the next of that move's variations to enter.
struct Frame<'g> {
    nodes: &'g [Node],
    next: usize,
    variation: usize,
    pos: Position,
    first_ply: usize,
}

/// The warning a check mark earns when the position does not bear it out.
fn check_mark_warning(node: &Node, after: &Position) -> Option<String> {
    match node.check? {
        CheckMark::Mate => {
            let mate = matches!(
                after.outcome(),
                Some(Outcome::Win {
                    by: Ending::Checkmate,
                    ..
                })
            );
            (!mate).then(|| format!("`{}` is marked `#` but does not mate", node.text))
        }
        CheckMark::Check => {
            (!after.is_check()).then(|| format!("`{}` is marked `+` but gives no check", node.text))
        }
    }
}

/// Replays the main line from `start` and every variation, without
/// recursion. A fault in a variation ends that variation; a fault in the
/// main line ends the replay, which returns the position before it.
fn play_tree(
    start: Position,
    game: &Game,
    moves: &mut Vec<Move>,
    diagnostics: &mut Vec<Diagnostic>,
    mut visit: Option<&mut MoveVisitor<'_>>,
) -> (Position, bool) {
    let mut stack = vec![Frame {
        nodes: &game.moves,
        next: 0,
        variation: 0,
        pos: start,
        first_ply: 1,
    }];
    let mut null_in_main_line = false;
    loop {
        let depth = stack.len();
        let Some(frame) = stack.last_mut() else {
            unreachable!("the main line's frame is popped only at its end")
        };
        let in_variation = depth > 1;
        let Some(node) = frame.nodes.get(frame.next) else {
            if in_variation {
                stack.pop();
                continue;
            }
            let main = stack.pop().expect("checked");
            return (main.pos, true);
        };
        let ply = frame.first_ply + frame.next;
        if let Some(variation) = node.variations.get(frame.variation) {
            frame.variation += 1;
            let pos = frame.pos.clone();
            stack.push(Frame {
                nodes: variation,
                next: 0,
                variation: 0,
                pos,
                first_ply: ply,
            });
            continue;
        }
        match resolve_node(&frame.pos, node) {
            Ok(m) => {
                let before = match visit.as_mut() {
                    Some(_) if !in_variation => Some(frame.pos.clone()),
                    _ => None,
                };
                frame.pos.play_unchecked(&m);
                if let Some(message) = check_mark_warning(node, &frame.pos) {
                    diagnostics.push(
                        Diagnostic::warning(DiagnosticKind::CheckMark, node.at, message).at_ply(
                            ply,
                            in_variation,
                            &node.text,
                        ),
                    );
                }
                if m.is_null() && !in_variation && !null_in_main_line {
                    null_in_main_line = true;
                    diagnostics.push(
                        Diagnostic::warning(
                            DiagnosticKind::NullMove,
                            node.at,
                            "a null move in the main line: the turn passes (R-0-6); the positions after it are not indexed",
                        )
                        .at_ply(ply, false, &node.text),
                    );
                }
                if let (Some(visit), Some(before)) = (visit.as_mut(), before) {
                    visit(&before, &m, &frame.pos);
                }
                if !in_variation {
                    moves.push(m);
                }
                frame.next += 1;
                frame.variation = 0;
            }
            Err((kind, message)) => {
                diagnostics.push(
                    Diagnostic::error(kind, node.at, format!("`{}`: {message}", node.text)).at_ply(
                        ply,
                        in_variation,
                        &node.text,
                    ),
                );
                if in_variation {
                    stack.pop();
                    continue;
                }
                let main = stack.pop().expect("checked");
                return (main.pos, false);
            }
        }
    }
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

/// The result checks of R-0-3 on a main line replayed to its end.
fn check_result(game: &Game, end: &Position, diagnostics: &mut Vec<Diagnostic>) {
    let at = game.moves.last().map_or(game.at, |n| n.at);
    let marker = game.result.as_deref();
    let tag = game.tag("Result").and_then(tag_result);
    if let (Some(t), Some(m)) = (tag, marker) {
        if t != m {
            let message = format!("the Result tag says {t} but the movetext ends with {m}");
            diagnostics.push(if t == "*" || m == "*" {
                Diagnostic::warning(DiagnosticKind::Result, at, message)
            } else {
                Diagnostic::error(DiagnosticKind::ResultMismatch, at, message)
            });
        }
    }
    if let Some((implied, why)) = implied_result(end) {
        let written = marker
            .filter(|m| *m != "*")
            .or(tag.filter(|t| *t != "*"))
            .unwrap_or("*");
        if written == "*" {
            diagnostics.push(Diagnostic::warning(
                DiagnosticKind::Result,
                at,
                format!(
                    "the game ends in a final position where {why}, but its result is written `*` (unknown): read as {implied} (R-0-3)"
                ),
            ));
        } else if written != implied {
            diagnostics.push(Diagnostic::error(
                DiagnosticKind::ResultMismatch,
                at,
                format!(
                    "the game ends in a final position where {why}; its result must be {implied}, not {written} (R-0-3)"
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
pub fn check_game(game: &Game, visit: Option<&mut MoveVisitor<'_>>) -> Checked {
    let mut diagnostics = game.diagnostics.clone();
    let (start, notes) = match start_noting(game) {
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
    let variant = start.variant();
    let mut moves = Vec::with_capacity(game.moves.len());
    let (end, complete) = play_tree(start.clone(), game, &mut moves, &mut diagnostics, visit);
    if complete && !game.broken() {
        check_result(game, &end, &mut diagnostics);
    }
    Checked {
        replay: Some(Replay {
            variant,
            start,
            moves,
            end,
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
/// let game = parse_game("[Variant \"Royal Chess\"]\n1. e3 e6 *", 1).unwrap();
/// let r = replay(&game).unwrap();
/// assert_eq!(r.moves.len(), 2);
/// ```
///
/// # Errors
/// The first fault of the replay (the reader's diagnostics are not
/// looked at), with the replay up to it when the start was known.
pub fn replay(game: &Game) -> Result<Replay, Box<Failed>> {
    replay_visiting(game, None)
}

/// [`replay`], telling `visit` about each main-line move as it is played
/// (for callers that need every position, such as an index, without
/// playing the game a second time).
///
/// # Errors
/// As [`replay`]; `visit` has then seen the moves before the fault.
pub fn replay_visiting(
    game: &Game,
    visit: Option<&mut MoveVisitor<'_>>,
) -> Result<Replay, Box<Failed>> {
    let checked = check_game(game, visit);
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
    use crate::notation::pgn::parse_game;

    fn run(text: &str) -> Result<Replay, ReplayError> {
        replay(&parse_game(text, 1).unwrap()).map_err(|f| f.error)
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
        let e = run("[Result \"1-0\"] 1. e4 0-1").unwrap_err();
        assert_eq!(e.kind, ReplayErrorKind::ResultMismatch);
        // Any result is accepted without mate or stalemate (R-0-3).
        assert!(run("[Result \"1-0\"] 1. e4 1-0").is_ok());
    }
}
