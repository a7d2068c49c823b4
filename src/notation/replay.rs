//! Replays a [`Game`] through the rules core: the main line and every
//! variation from its own branch point, from the start position or the
//! `FEN` tag; checks the result against the final position (R-0-3).

use super::coord::{CoordError, resolve_coord};
use super::game::{Game, Node};
use super::pgn::{AnyMove, parse_any_move};
use super::position::read_position;
use super::san::{SanError, resolve_san};
use super::span::Location;
use crate::rules::{Ending, Move, Outcome, Position, StalemateOutcome, Variant};

/// What kind of fault stopped a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayErrorKind {
    /// The `Variant` tag names no known variant.
    UnknownVariant,
    /// The `FEN` tag is not a legal position of the variant.
    BadPosition,
    /// A move text that is no move in any notation.
    BadMove,
    /// A move that is not legal.
    IllegalMove,
    /// A move that matches several legal moves.
    AmbiguousMove,
    /// The result contradicts the final position or the other result.
    ResultMismatch,
}

impl ReplayErrorKind {
    /// A short name for machine-readable output (`illegal_move`).
    pub fn name(self) -> &'static str {
        match self {
            ReplayErrorKind::UnknownVariant => "unknown_variant",
            ReplayErrorKind::BadPosition => "bad_position",
            ReplayErrorKind::BadMove => "bad_move",
            ReplayErrorKind::IllegalMove => "illegal_move",
            ReplayErrorKind::AmbiguousMove => "ambiguous_move",
            ReplayErrorKind::ResultMismatch => "result_mismatch",
        }
    }
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
            let known: Vec<&str> = Variant::builtin().iter().map(|v| v.name()).collect();
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
    let variant = game_variant(game)?;
    match game.tag("FEN") {
        Some(fen) => read_position(variant, fen).map_err(|e| ReplayError {
            kind: ReplayErrorKind::BadPosition,
            ply: None,
            in_variation: false,
            at: game.tag_location("FEN"),
            text: None,
            message: format!("FEN tag: {e}"),
        }),
        None => Ok(Position::start(variant)),
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
        None => Err((
            ReplayErrorKind::BadMove,
            format!("`{text}` is not a move in SAN, long algebraic or coordinate notation"),
        )),
    }
}

/// What a replay tells its caller about each main-line move: the position
/// before it, the move, the position after it.
pub type MoveVisitor<'v> = dyn FnMut(&Position, &Move, &Position) + 'v;

fn play_line(
    mut pos: Position,
    nodes: &[Node],
    first_ply: usize,
    in_variation: bool,
    moves: &mut Vec<Move>,
    mut visit: Option<&mut MoveVisitor<'_>>,
) -> Result<Position, Box<(ReplayError, Position)>> {
    for (i, node) in nodes.iter().enumerate() {
        let ply = first_ply + i;
        for variation in &node.variations {
            let mut scratch = Vec::new();
            play_line(pos.clone(), variation, ply, true, &mut scratch, None)?;
        }
        match resolve_node(&pos, node) {
            Ok(m) => {
                match visit.as_mut() {
                    Some(visit) => {
                        let before = pos.clone();
                        pos.play_unchecked(&m);
                        visit(&before, &m, &pos);
                    }
                    None => pos.play_unchecked(&m),
                }
                moves.push(m);
            }
            Err((kind, message)) => {
                return Err(Box::new((
                    ReplayError {
                        kind,
                        ply: Some(ply),
                        in_variation,
                        at: node.at,
                        text: Some(node.text.to_string()),
                        message: format!("`{}`: {message}", node.text),
                    },
                    pos,
                )));
            }
        }
    }
    Ok(pos)
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
        Outcome::Draw { .. } => format!("{} is stalemated: a draw (R-0-2)", side(pos.turn())),
    };
    Some((outcome.result(), why))
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
/// The first fault, with the replay up to it when the start was known.
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
    let fail = |error: ReplayError, partial: Option<Replay>| Box::new(Failed { error, partial });
    let start = start_position(game).map_err(|e| fail(e, None))?;
    let variant = start.variant();
    let mut moves = Vec::with_capacity(game.moves.len());
    let end = match play_line(start.clone(), &game.moves, 1, false, &mut moves, visit) {
        Ok(end) => end,
        Err(failed) => {
            let (e, at) = *failed;
            return Err(fail(
                e,
                Some(Replay {
                    variant,
                    start,
                    moves,
                    end: at,
                }),
            ));
        }
    };
    let replayed = Replay {
        variant,
        start,
        moves,
        end,
    };
    let result_error = |message: String| ReplayError {
        kind: ReplayErrorKind::ResultMismatch,
        ply: None,
        in_variation: false,
        at: game.moves.last().map_or(game.at, |n| n.at),
        text: None,
        message,
    };
    let tag = game.tag("Result");
    if let (Some(t), Some(m)) = (tag, game.result.as_deref()) {
        if t != m {
            return Err(fail(
                result_error(format!(
                    "the Result tag says {t} but the movetext ends with {m}"
                )),
                Some(replayed),
            ));
        }
    }
    if let Some((implied, why)) = implied_result(&replayed.end) {
        let written = game.result.as_deref().or(tag).unwrap_or("*");
        if written != implied {
            return Err(fail(
                result_error(format!(
                    "the game ends in a final position where {why}; its result must be {implied}, not {written} (R-0-3)"
                )),
                Some(replayed),
            ));
        }
    }
    Ok(replayed)
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
