use std::io::Write;

use serde_json::json;

use super::query::{fen_positions, open_to_read, partial_note, play_moves, variant_arg};
use crate::cli::args::ReportFormat;
use crate::cli::exit::CliError;
use xpgn::db::Database;
use xpgn::notation::opening::{OpeningBook, OpeningTracker};
use xpgn::notation::position::write_position;
use xpgn::rules::{Color, Position, Registry};

/// The games of a move with no result (`*`, or none): the rest of its
/// games once wins and draws are counted, so that the columns add up.
fn unknown(m: &xpgn::db::tree::TreeMove) -> u64 {
    m.games
        .saturating_sub(m.white_wins + m.draws + m.black_wins)
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

pub(super) fn run(
    registry: &Registry,
    db: &str,
    variant: &str,
    fen: Option<&str>,
    moves: Option<&str>,
    format: ReportFormat,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    // The stored definitions are registered before the variant is named.
    let early = super::query::open_if_exists(registry, db)?;
    let variant = variant_arg(early.as_ref().map_or(registry, Database::registry), variant)?;
    // The opening of the position: that of the last named position of
    // `--moves`, or the position's own name for a whole `--fen`.
    let mut here = None;
    let (positions, note) = match fen {
        Some(f) => {
            let found = fen_positions(&variant, f)?;
            let note = partial_note(&found);
            if note.is_none() {
                here =
                    OpeningBook::of_or_none(&variant).and_then(|b| b.lookup(&found.positions[0]));
            }
            (found.positions, note)
        }
        None => {
            let mut pos = Position::start(variant);
            if let Some(m) = moves {
                let start = pos.clone();
                let played = play_moves(&mut pos, m)?;
                let mut tracker = OpeningTracker::new();
                let mut at = start;
                for mv in &played {
                    let before = at.clone();
                    at.play_unchecked(mv);
                    tracker.visit(&before, mv, &at);
                }
                here = tracker.opening(None);
            }
            (vec![pos], None)
        }
    };
    // A partial `--fen` is shown as given; a whole one as read.
    let shown = match (fen, &note) {
        (Some(f), Some(_)) => f.trim().to_string(),
        _ => write_position(&positions[0]),
    };
    let database = match early {
        Some(database) => database,
        None => open_to_read(registry, db)?,
    };
    let tree = database
        .tree_of(&positions)
        .map_err(|e| super::db_error(db, e))?;
    if format == ReportFormat::Json {
        let moves: Vec<_> = tree
            .moves
            .iter()
            .map(|m| {
                json!({
                    "san": m.san,
                    "coord": m.coord,
                    "turn": side(m.turn).to_lowercase(),
                    "games": m.games,
                    "white_wins": m.white_wins,
                    "draws": m.draws,
                    "black_wins": m.black_wins,
                    "unknown": unknown(m),
                    "score": m.score(m.turn),
                    "eco": m.opening.as_ref().map(|o| &o.eco),
                    "opening": m.opening.as_ref().map(|o| &o.name),
                })
            })
            .collect();
        let doc = json!({
            "position": shown,
            "eco": here.as_ref().map(|o| &o.eco),
            "opening": here.as_ref().map(|o| &o.name),
            "states": positions.len(),
            "note": note,
            "games": tree.games,
            "ended": tree.ended,
            "moves": moves,
        });
        writeln!(out, "{doc}")?;
        return Ok(());
    }
    writeln!(out, "FEN: {shown}")?;
    if let Some(o) = &here {
        writeln!(out, "Opening: {} {}", o.eco, super::shown(&o.name))?;
    }
    if let Some(note) = &note {
        writeln!(out, "{note}")?;
    }
    writeln!(
        out,
        "{:<12} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}  opening",
        "move", "games", "white", "draws", "black", "unknown", "score"
    )?;
    for m in &tree.moves {
        let score = m
            .score(m.turn)
            .map_or("-".to_string(), |s| format!("{s:.1}%"));
        let san = if note.is_some() && m.turn == Color::Black {
            format!("...{}", m.san)
        } else {
            m.san.clone()
        };
        let opening = m.opening.as_ref().map_or(String::new(), |o| {
            format!("{} {}", o.eco, super::shown(&o.name))
        });
        writeln!(
            out,
            "{:<12} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}  {}",
            san,
            m.games,
            m.white_wins,
            m.draws,
            m.black_wins,
            unknown(m),
            score,
            opening.trim_end()
        )?;
    }
    let whose = if note.is_some() {
        "the moving side's".to_string()
    } else {
        format!("{}'s (to move)", side(positions[0].turn()))
    };
    writeln!(
        out,
        "{} this position, {} in it; score: {whose}, over games with a result (unknown: no result, `*`)",
        super::import::plural(tree.games as usize, "game reaches", "games reach"),
        super::import::plural(tree.ended as usize, "ends", "end"),
    )?;
    Ok(())
}
