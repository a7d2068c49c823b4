//! `xpgn diagram`: a position as an SVG image.

use std::io::Write;

use super::output::{output_file, write_atomically};
use super::validate::open;
use super::{position_and_moves, shown};
use crate::cli::args::DiagramArgs;
use crate::cli::exit::CliError;
use xpgn::notation::annotations::{self, Annotations};
use xpgn::notation::reader::read_games;
use xpgn::notation::replay::check_game;
use xpgn::notation::square::parse_square;
use xpgn::render::{Diagram, Mark, render_svg};
use xpgn::rules::{Position, Registry, Square};

pub(super) fn run(
    registry: &Registry,
    args: &DiagramArgs,
    stdout: &mut dyn Write,
) -> Result<(), CliError> {
    let (pos, last, marks) = match &args.file {
        Some(path) => game_position(registry, path, args.game, args.ply)?,
        None => {
            let (pos, last) = played_position(registry, args)?;
            (pos, last, Annotations::default())
        }
    };
    let size = pos.variant().size();
    let square = |text: &str, what: &str| -> Result<Square, CliError> {
        parse_square(text.trim())
            .filter(|&sq| size.contains(sq))
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "{what} `{}`: not a square of the {}x{} board",
                    shown(text),
                    size.files,
                    size.ranks
                ))
            })
    };
    let highlights = args
        .highlight
        .iter()
        .filter(|t| !t.trim().is_empty())
        .map(|t| square(t, "--highlight"))
        .collect::<Result<Vec<_>, _>>()?;
    let arrows = args
        .arrow
        .iter()
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            let (a, b) = t.split_once('-').ok_or_else(|| {
                CliError::Usage(format!(
                    "--arrow `{}`: expected FROM-TO, such as e2-e4",
                    shown(t)
                ))
            })?;
            Ok((square(a, "--arrow")?, square(b, "--arrow")?))
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    let diagram = Diagram {
        flip: args.flip,
        coordinates: args.coordinates,
        highlights,
        arrows,
        colored_arrows: marks
            .arrows
            .iter()
            .filter_map(|a| Some((a.from, a.to, Mark::named(a.color.name())?)))
            .collect(),
        colored_squares: marks
            .squares
            .iter()
            .filter_map(|m| Some((m.square, Mark::named(m.color.name())?)))
            .collect(),
        last_move: last,
        width: args.size,
        legend: !args.no_legend,
    };
    let mut svg = render_svg(&pos, &diagram);
    svg.push('\n');
    match output_file(args.output.as_deref()) {
        Some(target) => write_atomically(target, |out| Ok(out.write_all(svg.as_bytes())?)),
        None => Ok(stdout.write_all(svg.as_bytes())?),
    }
}

/// The position of `--fen` and `--moves`, and the last move's squares.
fn played_position(
    registry: &Registry,
    args: &DiagramArgs,
) -> Result<(Position, Option<(Square, Square)>), CliError> {
    let (pos, moves) = position_and_moves(registry, &args.position)?;
    let last = moves.last().map(|m| (m.from(), m.to()));
    Ok((pos, last))
}

/// A position to draw, the squares of the move that led to it, and the
/// marks its comment draws.
type Shown = (Position, Option<(Square, Square)>, Annotations);

/// The position after `ply` (default: the last) of game `number` of
/// `path`, the squares of the move that led to it, and the arrows and
/// coloured squares its comments draw (`[%cal]`, `[%csl]`). An invalid
/// game gives the positions up to its fault.
fn game_position(
    registry: &Registry,
    path: &str,
    number: usize,
    ply: Option<usize>,
) -> Result<Shown, CliError> {
    // A read failure before the game is told as such, not as a missing
    // game.
    let mut found = None;
    for (i, item) in read_games(open(path)?).take(number.max(1)).enumerate() {
        let (_, game) = item.map_err(|e| CliError::Usage(super::read_failed(path, &e)))?;
        if i + 1 == number.max(1) {
            found = Some(game);
        }
    }
    let Some(game) = found else {
        return Err(CliError::Usage(format!(
            "{}: has no game {number}",
            shown(path)
        )));
    };
    let checked = check_game(registry, &game, None);
    let Some(replay) = checked.replay else {
        let why = checked
            .first_error()
            .map_or_else(|| "no start position".to_string(), |d| d.message.clone());
        return Err(CliError::Rejected(format!(
            "{}: game {number}: {}",
            shown(path),
            super::shown_message(&why)
        )));
    };
    let plies = replay.moves.len();
    let ply = ply.unwrap_or(plies);
    if ply > plies {
        return Err(CliError::Usage(format!(
            "--ply {ply}: game {number} of {} has {plies} plies{}",
            shown(path),
            if checked.diagnostics.iter().any(|d| d.is_error()) {
                " that replay"
            } else {
                ""
            }
        )));
    }
    let mut pos = replay.start;
    let mut last = None;
    for m in &replay.moves[..ply] {
        pos.play_unchecked(m);
        last = (!m.is_null()).then_some((m.from(), m.to()));
    }
    let marks = match ply.checked_sub(1) {
        Some(i) => game.moves.get(i).map(|n| annotations::read(&n.comments)),
        // The start: the comments before the first move.
        None => game
            .moves
            .first()
            .map(|n| annotations::read(&n.comments_before)),
    };
    Ok((pos, last, marks.unwrap_or_default()))
}
