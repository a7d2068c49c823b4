//! The analysis board's server side: a position drawn with its marks,
//! the legal moves of a position (and why a move is not one of them),
//! the variations of a game replayed into a tree, and the NAG symbols.
//!
//! The page's script steps through the moves the game page lists (each
//! carries the position after it) and asks these answers for the board
//! and for moves made on it; nothing here writes to the database.

use std::fmt::Write;

use serde_json::{Value, json};

use super::http::{Request, Response};
use super::pages::{Fault, printable, variant_param};
use crate::db::Database;
use crate::notation::annotations::{self, Annotations, Score};
use crate::notation::coord::write_coord;
use crate::notation::game::Node;
use crate::notation::position::{read_position, write_position};
use crate::notation::replay::{resolve_node, resolve_text};
use crate::notation::san::write_san;
use crate::notation::square::parse_square;
use crate::render::{Diagram, Mark, escape, render_svg};
use crate::rules::{Color, Move, PieceKind, Position, Square, Variant};

/// Variations nested deeper than this are listed as text, not replayed.
const MAX_DEPTH: usize = 32;

/// The position a request names exactly: `variant` (default chess) and
/// `fen`, a whole position string (the board alone is refused: a board
/// to play on needs the side to move and every right).
pub(crate) fn exact_position(db: &Database, req: &Request) -> Result<(Variant, Position), Fault> {
    let variant = variant_param(db, req)?.unwrap_or_else(Variant::chess);
    let Some(fen) = req.param("fen") else {
        return Err(Fault::BadRequest("fen: a position string is needed".into()));
    };
    let pos = read_position(variant.clone(), fen.trim()).map_err(|e| {
        let why = crate::notation::printable::printable(&e.to_string(), 400).into_owned();
        Fault::BadRequest(format!("fen: {why}"))
    })?;
    Ok((variant, pos))
}

/// A square parameter of `pos`'s board.
fn square_in(pos: &Position, name: &str, text: &str) -> Result<Square, Fault> {
    parse_square(text.trim())
        .filter(|&sq| pos.variant().size().contains(sq))
        .ok_or_else(|| {
            Fault::BadRequest(format!(
                "{name}: `{}` is no square of this board",
                printable(text)
            ))
        })
}

/// A mark as the page asks for it: `green.f3.e5` (an arrow) or `red.e5`
/// (a square).
fn mark_param(pos: &Position, name: &str, text: &str) -> Result<(Mark, Vec<Square>), Fault> {
    let mut parts = text.split('.');
    let color = parts.next().and_then(Mark::named).ok_or_else(|| {
        Fault::BadRequest(format!(
            "{name}: `{}` is not COLOUR.SQUARE…",
            printable(text)
        ))
    })?;
    let squares = parts
        .map(|s| square_in(pos, name, s))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((color, squares))
}

/// `/api/board.svg?variant=V&fen=F&flip=1&last=e2.e4&arrow=green.f3.e5&mark=red.e5`:
/// the position drawn as the game page shows it, with the last move
/// shaded and a comment's arrows and squares (`arrow` and `mark` may be
/// repeated).
pub(crate) fn board_svg(db: &Database, req: &Request) -> Result<Response, Fault> {
    let (_, pos) = exact_position(db, req)?;
    let mut d = Diagram {
        flip: req.param("flip").is_some_and(|f| f != "0"),
        coordinates: true,
        ..Diagram::default()
    };
    if let Some(last) = req.param("last") {
        let (from, to) = last.split_once('.').unwrap_or((last, last));
        d.last_move = Some((square_in(&pos, "last", from)?, square_in(&pos, "last", to)?));
    }
    for (name, value) in &req.query {
        match name.as_str() {
            "arrow" => match mark_param(&pos, "arrow", value)? {
                (color, sq) if sq.len() == 2 => d.colored_arrows.push((sq[0], sq[1], color)),
                _ => {
                    return Err(Fault::BadRequest(
                        "arrow: COLOUR.FROM.TO, as green.f3.e5".into(),
                    ));
                }
            },
            "mark" => match mark_param(&pos, "mark", value)? {
                (color, sq) if sq.len() == 1 => d.colored_squares.push((sq[0], color)),
                _ => return Err(Fault::BadRequest("mark: COLOUR.SQUARE, as red.e5".into())),
            },
            _ => {}
        }
    }
    Ok(Response::ok("image/svg+xml", render_svg(&pos, &d)))
}

/// A piece kind's name as the board's `data-piece` says it (`knight`).
fn kind_name(variant: &Variant, kind: PieceKind) -> String {
    variant.piece_def(kind).name.to_lowercase()
}

/// One legal move as JSON: its SAN as this project writes it, its
/// coordinates, squares, drop, promotion, gate, and the position after it.
fn move_json(pos: &Position, m: &Move) -> Value {
    let variant = pos.variant();
    let mut after = pos.clone();
    after.play_unchecked(m);
    json!({
        "san": write_san(pos, m),
        "coord": write_coord(pos, m),
        "from": m.dropped().is_none().then(|| m.from().to_string()),
        "to": m.to().to_string(),
        "drop": m.dropped().map(|k| kind_name(variant, k)),
        "promotion": m.promotion().map(|k| kind_name(variant, k)),
        "gate": m.gate().map(|g| json!({"square": g.square.to_string(), "piece": kind_name(variant, g.kind)})),
        "castle": m.is_castle(),
        "fen": write_position(&after),
    })
}

/// `/api/moves?variant=V&fen=F[&from=S|&drop=PIECE][&to=S]`: the legal
/// moves of a position (only those from `from`, or dropping `drop`, and
/// to `to`, when given); when `to` is given and no legal move matches,
/// `reason` says why, as the command line says it. With `san=TEXT`
/// instead: the move written so (in any notation the reader takes), or
/// why it is none.
pub(crate) fn moves_json(db: &Database, req: &Request) -> Result<Value, Fault> {
    let (variant, pos) = exact_position(db, req)?;
    if let Some(text) = req.param("san") {
        let (moves, reason) = match resolve_text(&pos, text.trim()) {
            Ok(m) => (vec![move_json(&pos, &m)], None),
            Err((_, why)) => (Vec::new(), Some(why)),
        };
        let mut out = json!({
            "variant": variant.name(),
            "fen": write_position(&pos),
            "turn": if pos.turn() == Color::White { "white" } else { "black" },
            "moves": moves,
        });
        if let Some(why) = reason {
            out["reason"] = json!(why);
        }
        return Ok(out);
    }
    let from = req
        .param("from")
        .map(|s| square_in(&pos, "from", s))
        .transpose()?;
    let to = req
        .param("to")
        .map(|s| square_in(&pos, "to", s))
        .transpose()?;
    let drop = req
        .param("drop")
        .map(|name| {
            variant
                .kinds()
                .find(|&k| variant.piece_def(k).name.eq_ignore_ascii_case(name.trim()))
                .ok_or_else(|| {
                    Fault::BadRequest(format!(
                        "drop: {} has no piece `{}`",
                        variant.def().display_name,
                        printable(name)
                    ))
                })
        })
        .transpose()?;
    if from.is_some() && drop.is_some() {
        return Err(Fault::BadRequest(
            "from and drop: a move either leaves a square or drops a piece".into(),
        ));
    }
    let matching: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| match (drop, m.dropped()) {
            (Some(k), Some(d)) => k == d,
            (Some(_), None) => false,
            (None, Some(_)) => from.is_none(),
            (None, None) => from.is_none_or(|f| f == m.from()),
        })
        .filter(|m| to.is_none_or(|t| t == m.to()))
        .collect();
    let mut out = json!({
        "variant": variant.name(),
        "fen": write_position(&pos),
        "turn": if pos.turn() == Color::White { "white" } else { "black" },
        "moves": matching.iter().map(|m| move_json(&pos, m)).collect::<Vec<_>>(),
    });
    if let (Some(to), true) = (to, matching.is_empty()) {
        let reason = match (drop, from) {
            (Some(kind), _) => pos.explain_drop(kind, to),
            (None, Some(from)) => pos.explain_illegal(from, to).to_string(),
            (None, None) => format!("no legal move goes to {to}"),
        };
        out["reason"] = json!(reason);
    }
    Ok(out)
}

/// A NAG as the symbol the PGN standard's list is usually printed with
/// (`$1` `!`, `$14` `⩲`, `$40` `→`), and its meaning there; `None` for
/// one without a usual symbol (written `$n`).
pub(crate) fn nag_symbol(n: u8) -> Option<(&'static str, &'static str)> {
    Some(match n {
        1 => ("!", "good move"),
        2 => ("?", "poor move"),
        3 => ("!!", "very good move"),
        4 => ("??", "very poor move"),
        5 => ("!?", "speculative move"),
        6 => ("?!", "questionable move"),
        7 => ("□", "forced move"),
        10 => ("=", "drawish position"),
        11 => ("=", "equal chances, quiet position"),
        12 => ("=", "equal chances, active position"),
        13 => ("∞", "unclear position"),
        14 => ("⩲", "White has a slight advantage"),
        15 => ("⩱", "Black has a slight advantage"),
        16 => ("±", "White has a moderate advantage"),
        17 => ("∓", "Black has a moderate advantage"),
        18 => ("+−", "White has a decisive advantage"),
        19 => ("−+", "Black has a decisive advantage"),
        22 => ("⨀", "White is in zugzwang"),
        23 => ("⨀", "Black is in zugzwang"),
        32 => ("⟳", "White has a moderate time (development) advantage"),
        33 => ("⟳", "Black has a moderate time (development) advantage"),
        36 => ("↑", "White has the initiative"),
        37 => ("↑", "Black has the initiative"),
        40 => ("→", "White has the attack"),
        41 => ("→", "Black has the attack"),
        44 => (
            "=∞",
            "White has sufficient compensation for material deficit",
        ),
        45 => (
            "=∞",
            "Black has sufficient compensation for material deficit",
        ),
        132 => ("⇆", "White has moderate counterplay"),
        133 => ("⇆", "Black has moderate counterplay"),
        138 => ("⊕", "White has severe time control pressure"),
        139 => ("⊕", "Black has severe time control pressure"),
        _ => return None,
    })
}

/// A NAG as text after its move: the move marks (`$1`-`$7`) right after
/// it, the others after a space; `$n` for one without a symbol.
pub(crate) fn nag_text(n: u8) -> String {
    match nag_symbol(n) {
        Some((s, _)) if n <= 7 => s.to_string(),
        Some((s, _)) => format!(" {s}"),
        None => format!(" ${n}"),
    }
}

/// One move of a variation, replayed from the position before it.
pub(crate) struct LineMove<'g> {
    /// Its place in the tree: `K.I` (variation `K` of the main-line ply,
    /// move `I` from 1), then `.K.I` for each nested variation.
    pub path: String,
    /// The move as read.
    pub node: &'g Node,
    /// Its SAN as written by this project, or the text as read when it
    /// did not replay (then `after` is `None`).
    pub san: String,
    /// The move, and the position after it, when it replayed.
    pub played: Option<(Move, Position)>,
    /// The side that made it and the move number it was made at (when
    /// it replayed).
    pub number: Option<(Color, u32)>,
    /// What its comments say.
    pub notes: Annotations,
    /// Its alternatives (replayed only as deep as [`MAX_DEPTH`]).
    pub variations: Vec<Vec<LineMove<'g>>>,
}

/// The variations of a node (alternatives to its move), each replayed
/// from `before`, the position before the move; `path` is the node's
/// (empty for a main-line move).
pub(crate) fn replay_variations<'g>(
    before: &Position,
    node: &'g Node,
    path: &str,
    depth: usize,
) -> Vec<Vec<LineMove<'g>>> {
    if depth >= MAX_DEPTH {
        return Vec::new();
    }
    node.variations
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let mut pos = Some(before.clone());
            let mut out = Vec::with_capacity(line.len());
            for (i, n) in line.iter().enumerate() {
                let path = if path.is_empty() {
                    format!("{k}.{}", i + 1)
                } else {
                    format!("{path}.{k}.{}", i + 1)
                };
                let played = pos
                    .as_ref()
                    .and_then(|p| resolve_node(p, n).ok().map(|m| (p.clone(), m)));
                let number = played
                    .as_ref()
                    .map(|(p, _)| (p.turn(), p.fullmove_number()));
                let (san, variations, played) = match played {
                    Some((p, m)) => {
                        let mut after = p.clone();
                        after.play_unchecked(&m);
                        let vars = replay_variations(&p, n, &path, depth + 1);
                        (write_san(&p, &m), vars, Some((m, after)))
                    }
                    None => (n.text.as_str().to_string(), Vec::new(), None),
                };
                pos = played.as_ref().map(|(_, after)| after.clone());
                out.push(LineMove {
                    path,
                    node: n,
                    san,
                    played,
                    number,
                    notes: annotations::read(&n.comments),
                    variations,
                });
            }
            out
        })
        .collect()
}

/// The move of `lines` at `path` (relative to them: `K.I...`).
pub(crate) fn find_in<'a, 'g>(
    lines: &'a [Vec<LineMove<'g>>],
    path: &str,
) -> Option<&'a LineMove<'g>> {
    let mut parts = path.split('.').map(|p| p.parse::<usize>().ok());
    let mut lines = lines;
    let mut found = None;
    while let Some(k) = parts.next() {
        let i = parts.next()??;
        let m = lines.get(k?)?.get(i.checked_sub(1)?)?;
        lines = &m.variations;
        found = Some(m);
    }
    found
}

/// What a move's comments say, as the attributes of its link:
/// `data-clock` (milliseconds), `data-eval` (pawns from White's side, or
/// `#n`), `data-arrows` and `data-marks` (`green.f3.e5 red.e5`, as
/// `/api/board.svg` takes them).
pub(crate) fn note_attributes(out: &mut String, notes: &Annotations) {
    if let Some(ms) = notes.clock_ms {
        let _ = write!(out, " data-clock=\"{ms}\"");
    }
    if let Some(e) = notes.eval {
        let _ = write!(out, " data-eval=\"{}\"", escape(&eval_text(e.score)));
    }
    if !notes.arrows.is_empty() {
        let arrows: Vec<String> = notes
            .arrows
            .iter()
            .map(|a| format!("{}.{}.{}", a.color.name(), a.from, a.to))
            .collect();
        let _ = write!(out, " data-arrows=\"{}\"", escape(&arrows.join(" ")));
    }
    if !notes.squares.is_empty() {
        let marks: Vec<String> = notes
            .squares
            .iter()
            .map(|q| format!("{}.{}", q.color.name(), q.square))
            .collect();
        let _ = write!(out, " data-marks=\"{}\"", escape(&marks.join(" ")));
    }
}

/// An evaluation as shown: `+0.25`, `#-3`.
pub(crate) fn eval_text(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(m) => format!("#{m}"),
    }
}

/// What a move's comments say, as JSON.
pub(crate) fn notes_json(notes: &Annotations) -> Value {
    json!({
        "clock_ms": notes.clock_ms,
        "elapsed_ms": notes.elapsed_ms,
        "eval": notes.eval.map(|e| eval_text(e.score)),
        "arrows": notes.arrows.iter().map(|a| json!({"color": a.color.name(), "from": a.from.to_string(), "to": a.to.to_string()})).collect::<Vec<_>>(),
        "squares": notes.squares.iter().map(|q| json!({"color": q.color.name(), "square": q.square.to_string()})).collect::<Vec<_>>(),
    })
}

/// Variations as JSON: lines of moves, each with its path, SAN, the
/// position after it (`null` when it did not replay), squares, NAGs,
/// comments, annotations and its own variations.
pub(crate) fn lines_json(lines: &[Vec<LineMove<'_>>]) -> Value {
    Value::Array(
        lines
            .iter()
            .map(|line| {
                Value::Array(
                    line.iter()
                        .map(|m| {
                            json!({
                                "path": m.path,
                                "san": m.san,
                                "fen": m.played.as_ref().map(|(_, p)| write_position(p)),
                                "from": m.played.as_ref().and_then(|(mv, _)| mv.dropped().is_none().then(|| mv.from().to_string())),
                                "to": m.played.as_ref().map(|(mv, _)| mv.to().to_string()),
                                "nags": m.node.nags,
                                "comments_before": m.node.comments_before,
                                "comments": m.node.comments,
                                "annotations": notes_json(&m.notes),
                                "variations": lines_json(&m.variations),
                            })
                        })
                        .collect(),
                )
            })
            .collect(),
    )
}

/// The `var` parameter: a path of `K.I` pairs of numbers (`0.3`,
/// `0.3.1.2`); `None` when not given.
pub(crate) fn var_param(req: &Request) -> Result<Option<String>, Fault> {
    let Some(path) = req.param("var") else {
        return Ok(None);
    };
    let parts: Vec<&str> = path.split('.').collect();
    let numbers = parts
        .iter()
        .all(|p| !p.is_empty() && p.len() <= 6 && p.bytes().all(|b| b.is_ascii_digit()));
    if path.len() > 400 || !parts.len().is_multiple_of(2) || !numbers {
        return Err(Fault::BadRequest(format!(
            "var must be pairs of numbers VARIATION.MOVE, as 0.3 or 0.3.1.2, not `{}`",
            printable(path)
        )));
    }
    Ok(Some(path.to_string()))
}

/// The move before the variation move at `path` of main-line ply
/// `anchor`: (main-line ply, path) of it; `None` for the path of a
/// main-line move. The first move of a variation follows what its
/// parent followed.
pub(crate) fn before_var(anchor: usize, path: &str) -> (usize, Option<String>) {
    let mut parts: Vec<usize> = path.split('.').filter_map(|p| p.parse().ok()).collect();
    while let [.., i] = parts[..] {
        if i > 1 {
            let last = parts.len() - 1;
            parts[last] = i - 1;
            let path: Vec<String> = parts.iter().map(usize::to_string).collect();
            return (anchor, Some(path.join(".")));
        }
        parts.truncate(parts.len().saturating_sub(2));
    }
    (anchor.saturating_sub(1), None)
}

/// The path of the move after `path` in its line, if there is one.
pub(crate) fn after_var(lines: &[Vec<LineMove<'_>>], path: &str) -> Option<String> {
    let (head, i) = path.rsplit_once('.')?;
    let next = format!("{head}.{}", i.parse::<usize>().ok()? + 1);
    find_in(lines, &next)
        .filter(|m| m.played.is_some())
        .map(|_| next)
}
