//! The routes: HTML pages and their JSON twins under `/api/`.
//!
//! Every value that comes from a game file or a request (tags, comments,
//! moves as written, diagnostics, the original text, query parameters) is
//! written through [`escape`] (HTML) or serde_json (JSON), never raw.

use std::fmt::Write;
use std::rc::Rc;
use std::time::Instant;

use serde_json::{Value, json};

use super::board::{self, LineMove};
use super::http::{Request, Response, STREAM_CHUNK, percent_encode};
use super::open;
use super::pattern;
use super::{DEFAULT_PAGE, MAX_PAGE};
use crate::db::export::ExportForm;
use crate::db::query::{DateRange, FoundGame, GameFilter, search_positions};
use crate::db::tree::Tree;
use crate::db::view::StoredGame;
use crate::db::{Database, DbError, packed};
use crate::notation::annotations::{self, Annotations, Score};
use crate::notation::coord::write_coord;
use crate::notation::game::{Game, Node};
use crate::notation::position::write_position;
use crate::notation::reader::read_games;
use crate::notation::replay::check_game;
use crate::notation::san::write_san;
use crate::render::{Diagram, Mark, escape, render_svg};
use crate::rules::{Color, Move, Position, Variant};

/// The embedded assets: name under `/assets/`, content type, bytes.
pub(crate) const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "app.css",
        "text/css; charset=utf-8",
        include_bytes!("assets/app.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/app.js"),
    ),
];

/// Why a request gets no page.
#[derive(Debug)]
pub(crate) enum Fault {
    /// No such route, game or asset.
    NotFound(String),
    /// A parameter that cannot be read.
    BadRequest(String),
    /// A method the route does not take.
    Method(String),
    /// The database failed (or timed out).
    Db(DbError),
}

impl From<DbError> for Fault {
    fn from(e: DbError) -> Fault {
        Fault::Db(e)
    }
}

pub(super) type Answer = Result<Response, Fault>;

const HTML: &str = "text/html; charset=utf-8";
const JSON: &str = "application/json";

/// What stands in for an opening tree that took too long.
const TREE_TIMED_OUT: &str = "<section class=\"tree\"><h2>Opening tree</h2><p class=\"empty\">The tree of this position took too long and was stopped.</p></section>";

/// Longest tag value shown in the game list (the game page shows it whole).
const LIST_CHARS: usize = 60;

/// Answers `req` from `db`; walks along a game's moves stop at `deadline`.
pub(crate) fn route(db: &Rc<Database>, req: &Request, deadline: Instant) -> Answer {
    let path = req.path.as_str();
    let posted = req.method == "POST";
    // /open takes both (its form, the text); /api/open only POST; the
    // rest only GET and HEAD.
    if posted != (path == "/api/open") && path != "/open" {
        return Err(Fault::Method(if posted {
            "only /open and /api/open take POST".into()
        } else {
            "/api/open takes the text by POST".into()
        }));
    }
    match path {
        "/open" if posted => open::open_page(db, req, deadline),
        "/open" => Ok(open::open_form()),
        "/api/open" => json(open::open_json(db, req)?),
        "/" => list_page(db, req),
        "/position" => position_page(db, req),
        "/editor" => editor_page(db, req),
        "/pattern" => pattern::pattern_page(db, req),
        "/api/pattern" => json(pattern::pattern_json(db, req)?),
        "/api/games" => json(list_json(db, req)?),
        "/api/position" => json(position_json(db, req)?),
        "/api/tree" => json(tree_json(db, req)?),
        "/api/diagram.svg" => diagram(db, req),
        "/api/board.svg" => board::board_svg(db, req),
        "/api/moves" => json(board::moves_json(db, req)?),
        _ => {
            if let Some(id) = path.strip_prefix("/game/") {
                game_page(db, req, game_id(id)?, deadline)
            } else if let Some(id) = path.strip_prefix("/api/game/") {
                json(game_json(db, req, game_id(id)?, deadline)?)
            } else if let Some(id) = path.strip_prefix("/api/export/") {
                export(db, req, game_id(id)?)
            } else if let Some(name) = path.strip_prefix("/assets/") {
                asset(name)
            } else {
                Err(Fault::NotFound(format!(
                    "no page `{}`",
                    escape(&crate::notation::printable::printable(path, 80))
                )))
            }
        }
    }
}

fn asset(name: &str) -> Answer {
    ASSETS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, ty, bytes)| Response {
            cacheable: true,
            ..Response::ok(ty, bytes.to_vec())
        })
        .ok_or_else(|| Fault::NotFound("no such asset".into()))
}

fn game_id(text: &str) -> Result<i64, Fault> {
    if text.is_empty() || text.len() > 18 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Fault::NotFound("no such game".into()));
    }
    text.parse()
        .map_err(|_| Fault::NotFound("no such game".into()))
}

pub(super) fn json(v: Value) -> Answer {
    Ok(Response::ok(JSON, v.to_string()))
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

// ---------------------------------------------------------------- params

pub(crate) fn variant_param(db: &Database, req: &Request) -> Result<Option<Variant>, Fault> {
    req.param("variant")
        .map(|v| {
            db.registry()
                .lookup(v)
                .ok_or_else(|| Fault::BadRequest(format!("unknown variant `{}`", printable(v))))
        })
        .transpose()
}

pub(crate) fn printable(text: &str) -> String {
    crate::notation::printable::printable(text, 80).into_owned()
}

fn number_param(req: &Request, name: &str, default: u64, max: u64) -> Result<u64, Fault> {
    match req.param(name) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|n| (1..=max).contains(n))
            .ok_or_else(|| Fault::BadRequest(format!("{name} must be a number from 1 to {max}"))),
    }
}

/// The page asked for: (page number from 1, games per page). More than
/// [`MAX_PAGE`] games per page are asked for as `MAX_PAGE`.
pub(super) fn paging(req: &Request) -> Result<(u64, u64), Fault> {
    Ok((
        number_param(req, "page", 1, 1_000_000_000)?,
        number_param(req, "per", DEFAULT_PAGE, u64::MAX)?.min(MAX_PAGE),
    ))
}

/// The filters of `xpgn query` a request gives.
fn list_filter(db: &Database, req: &Request) -> Result<GameFilter, Fault> {
    let mut f = GameFilter {
        variant: variant_param(db, req)?.map(|v| v.name().to_string()),
        player: req.param("player").map(str::to_string),
        ..GameFilter::default()
    };
    for (param, tag) in [("white", "White"), ("black", "Black"), ("event", "Event")] {
        if let Some(v) = req.param(param) {
            f.tags.push((tag.to_string(), v.to_string()));
        }
    }
    if let Some(r) = req.param("result") {
        if !["1-0", "0-1", "1/2-1/2", "*"].contains(&r) {
            return Err(Fault::BadRequest(
                "result must be 1-0, 0-1, 1/2-1/2 or *".into(),
            ));
        }
        f.result = Some(r.to_string());
    }
    if let Some(s) = req.param("status") {
        if !["valid", "invalid"].contains(&s) {
            return Err(Fault::BadRequest("status must be valid or invalid".into()));
        }
        f.status = Some(s.to_string());
    }
    for (param, slot) in [("date_from", &mut f.date_from), ("date_to", &mut f.date_to)] {
        if let Some(d) = req.param(param) {
            *slot = Some(
                DateRange::parse(d)
                    .map_err(|e| Fault::BadRequest(format!("{param}: {}", printable(&e.0))))?,
            );
        }
    }
    Ok(f)
}

/// One page of the games `filter` selects, and whether more follow.
pub(super) fn page_of(
    db: &Database,
    mut filter: GameFilter,
    (page, per): (u64, u64),
) -> Result<(Vec<FoundGame>, bool), Fault> {
    filter.limit = Some(per + 1);
    filter.offset = Some((page - 1).saturating_mul(per));
    let mut games = db.find_games(&filter)?;
    let more = games.len() as u64 > per;
    games.truncate(per as usize);
    Ok((games, more))
}

/// The position a request names: `variant` (default chess) and `fen`
/// (default its start; the board alone stands for every state).
fn position_param(db: &Database, req: &Request) -> Result<(Variant, Vec<Position>, String), Fault> {
    let variant = variant_param(db, req)?.unwrap_or_else(Variant::chess);
    match req.param("fen") {
        None => {
            let pos = Position::start(variant.clone());
            let fen = write_position(&pos);
            Ok((variant, vec![pos], fen))
        }
        Some(fen) => {
            let found = search_positions(&variant, fen.trim())
                .map_err(|e| Fault::BadRequest(format!("fen: {}", printable(&e.to_string()))))?;
            if found.positions.is_empty() {
                return Err(Fault::BadRequest(
                    "fen: no legal position has that board".into(),
                ));
            }
            Ok((variant, found.positions, fen.trim().to_string()))
        }
    }
}

// ---------------------------------------------------------------- JSON

pub(super) fn found_json(g: &FoundGame) -> Value {
    json!({
        "id": g.id, "variant": g.variant, "white": g.white, "black": g.black,
        "event": g.event, "date": g.date, "result": g.result, "plies": g.plies,
        "status": g.status, "ply": g.ply, "eco": g.eco, "opening": g.opening,
    })
}

fn list_json(db: &Database, req: &Request) -> Result<Value, Fault> {
    let paging = paging(req)?;
    let (games, more) = page_of(db, list_filter(db, req)?, paging)?;
    Ok(json!({
        "page": paging.0, "per": paging.1, "more": more,
        "games": games.iter().map(found_json).collect::<Vec<_>>(),
    }))
}

fn tree_value(pos: &Position, tree: &Tree) -> Value {
    let moves: Vec<Value> = tree
        .moves
        .iter()
        .map(|m| {
            let mut after = pos.clone();
            after.play_unchecked(&m.mv);
            json!({
                "san": m.san, "coord": m.coord, "turn": side(m.turn), "games": m.games,
                "white_wins": m.white_wins, "draws": m.draws, "black_wins": m.black_wins,
                "score": m.score(m.turn), "fen": write_position(&after),
                "eco": m.opening.as_ref().map(|o| &o.eco),
                "opening": m.opening.as_ref().map(|o| &o.name),
            })
        })
        .collect();
    json!({ "games": tree.games, "ended": tree.ended, "moves": moves })
}

fn tree_json(db: &Database, req: &Request) -> Result<Value, Fault> {
    let (_, positions, fen) = position_param(db, req)?;
    let tree = db.tree_of(&positions)?;
    let mut v = tree_value(&positions[0], &tree);
    v["position"] = json!(fen);
    v["states"] = json!(positions.len());
    Ok(v)
}

fn reaching(
    db: &Database,
    variant: &Variant,
    positions: &[Position],
    paging: (u64, u64),
) -> Result<(Vec<FoundGame>, bool), Fault> {
    let filter = GameFilter {
        variant: Some(variant.name().to_string()),
        any_position: positions.iter().map(Position::key).collect(),
        ..GameFilter::default()
    };
    page_of(db, filter, paging)
}

fn position_json(db: &Database, req: &Request) -> Result<Value, Fault> {
    let (variant, positions, fen) = position_param(db, req)?;
    let paging = paging(req)?;
    let (games, more) = reaching(db, &variant, &positions, paging)?;
    Ok(json!({
        "variant": variant.name(), "position": fen, "states": positions.len(),
        "page": paging.0, "per": paging.1, "more": more,
        "games": games.iter().map(found_json).collect::<Vec<_>>(),
    }))
}

/// Plies of a game's move list a page shows and an API answer holds.
pub(crate) const MOVES_PAGE: usize = 500;

/// Games whose original text is longer are never read whole: their moves
/// come from the stored main line, a block at a time, and only this much
/// of their text is read (to show). Shorter ones are read again for their
/// comments, NAGs, variations and diagnostics.
pub(crate) const LONG_TEXT: usize = 256 * 1024;

/// Plies walked between looks at the request's deadline.
const DEADLINE_EVERY: usize = 4096;

/// A stored game: its columns, its text (whole, or its start for a long
/// one), and for a short one the game read again and replayed.
pub(crate) struct GameView {
    pub(crate) stored: StoredGame,
    /// The original as text: whole, or its first [`LONG_TEXT`] bytes.
    text: String,
    /// The game read again (short games only).
    game: Option<Game>,
    /// Its start and main line as far as it replays (short games only;
    /// a long one's are read from the database when walked).
    replay: Option<(Position, Vec<Move>)>,
    /// Every diagnostic as JSON objects (see `docs/serve.md`).
    pub(crate) diagnostics: Value,
}

impl GameView {
    fn load(db: &Database, id: i64) -> Result<GameView, Fault> {
        let stored = db
            .stored_game_head(id, LONG_TEXT + 1)?
            .ok_or_else(|| Fault::NotFound(format!("no game {id}")))?;
        if stored.original_len > LONG_TEXT as u64 {
            return Ok(GameView {
                text: text_of_start(&stored.original[..LONG_TEXT]),
                diagnostics: db.game_diagnostics(id)?,
                stored,
                game: None,
                replay: None,
            });
        }
        let mut view = GameView {
            text: crate::notation::reader::decode(&stored.original).0,
            stored,
            game: None,
            replay: None,
            diagnostics: Value::Array(Vec::new()),
        };
        let Some(Ok((text, game))) = read_games(&view.stored.original[..]).next() else {
            return Ok(view);
        };
        view.text = text.text;
        let checked = check_game(db.registry(), &game, None);
        view.replay = checked.replay.map(|r| (r.start, r.moves));
        view.diagnostics = serde_json::to_value(&checked.diagnostics).unwrap_or_default();
        view.game = Some(game);
        Ok(view)
    }

    /// A game of an opened text, checked as an import checks it and kept
    /// in memory only.
    pub(crate) fn opened(
        registry: &crate::rules::Registry,
        text: crate::notation::reader::GameText,
        game: Game,
    ) -> GameView {
        let checked = check_game(registry, &game, None);
        let variant = crate::notation::replay::game_variant(registry, &game)
            .map_or_else(|_| "chess".to_string(), |v| v.name().to_string());
        let stored = StoredGame {
            id: 0,
            variant,
            status: if checked.is_valid() {
                "valid"
            } else {
                "invalid"
            }
            .into(),
            diagnostic: checked.first_error().map(|d| d.message.clone()),
            tags: game.tags.clone(),
            plies: checked.replay.as_ref().map_or(0, |r| r.moves.len() as i64),
            source: ("opened text".into(), text.start.line as i64),
            original_len: text.raw.len() as u64,
            original: text.raw,
            opening: None,
        };
        GameView {
            stored,
            text: text.text,
            replay: checked.replay.map(|r| (r.start, r.moves)),
            diagnostics: serde_json::to_value(&checked.diagnostics).unwrap_or_default(),
            game: Some(game),
        }
    }

    /// Whether only the start of the text was read.
    fn is_long(&self) -> bool {
        self.stored.original_len > self.stored.original.len() as u64
    }

    /// The plies of the main line: replayed, or as stored.
    pub(crate) fn plies(&self) -> usize {
        match &self.replay {
            Some((_, moves)) => moves.len(),
            None if self.is_long() => usize::try_from(self.stored.plies).unwrap_or(0),
            None => 0,
        }
    }

    /// The start and the main line's moves one by one: from the replay, or
    /// from the database for a long game. `None`: no start is known.
    fn line<'a>(&'a self, db: &'a Database) -> Result<Option<(Position, MoveSource<'a>)>, Fault> {
        if let Some((start, moves)) = &self.replay {
            return Ok(Some((
                start.clone(),
                Box::new(moves.iter().copied().map(Ok)),
            )));
        }
        if !self.is_long() {
            return Ok(None);
        }
        Ok(db.stored_line(self.stored.id)?.map(|line| {
            let start = line.start.clone();
            (start, Box::new(line) as MoveSource<'a>)
        }))
    }

    /// Whether the node of ply `ply` has variations.
    fn has_variations(&self, ply: usize) -> bool {
        self.node(ply).is_some_and(|n| !n.variations.is_empty())
    }

    /// The node of ply `ply` (1-based) as read, for a short game.
    fn node(&self, ply: usize) -> Option<&Node> {
        self.game.as_ref()?.moves.get(ply.checked_sub(1)?)
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.stored
            .tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The start of a long game's text as text, cut back to a whole UTF-8
/// character when the cut fell inside one.
fn text_of_start(bytes: &[u8]) -> String {
    let whole = match std::str::from_utf8(bytes) {
        Err(e) if e.error_len().is_none() => &bytes[..e.valid_up_to()],
        _ => bytes,
    };
    crate::notation::reader::decode(whole).0
}

type MoveSource<'a> = Box<dyn Iterator<Item = Result<Move, DbError>> + 'a>;

/// One ply of the move list: the move, as SAN and coordinates, the side
/// and move number it was played at, and the position it leads to.
struct PlyView {
    ply: usize,
    mv: Move,
    san: String,
    coord: String,
    turn: Color,
    fullmove: u32,
    fen: String,
    /// The position before the ply, kept for a ply whose alternatives
    /// are replayed from it.
    before: Option<Position>,
}

/// What one walk along a main line keeps: the position at one ply, the
/// moves into and out of it, and the plies of one window; nothing else
/// of the line is held, however long it is.
struct Walk {
    at: Position,
    last: Option<Move>,
    next: Option<Move>,
    window: Vec<PlyView>,
}

/// Where and how far to walk: to ply `ply` (and the move after it) and
/// through the plies of `window` (1-based, end excluded), keeping the
/// position before each ply `keep_before` says (those with variations).
struct WalkTo<'k> {
    ply: usize,
    window: std::ops::Range<usize>,
    keep_before: &'k dyn Fn(usize) -> bool,
}

/// Walks `moves` from `start` as far as `to` needs, and stops with
/// [`DbError::TimedOut`] once `deadline` has passed.
fn walk(
    game: i64,
    start: Position,
    moves: MoveSource<'_>,
    to: WalkTo,
    deadline: Instant,
) -> Result<Walk, Fault> {
    let WalkTo {
        ply,
        window,
        keep_before,
    } = to;
    let mut w = Walk {
        at: start.clone(),
        last: None,
        next: None,
        window: Vec::new(),
    };
    let mut pos = start;
    let needed = (ply + 1).max(window.end.saturating_sub(1));
    for (i, m) in moves.take(needed).enumerate() {
        if i % DEADLINE_EVERY == DEADLINE_EVERY - 1 && Instant::now() >= deadline {
            return Err(Fault::Db(DbError::TimedOut));
        }
        let m = m?;
        if i == ply {
            w.next = Some(m);
        }
        let before = window.contains(&(i + 1)).then(|| {
            (
                write_san(&pos, &m),
                write_coord(&pos, &m),
                pos.turn(),
                pos.fullmove_number(),
                keep_before(i + 1).then(|| pos.clone()),
            )
        });
        packed::play(&mut pos, &m, i + 1).map_err(|source| DbError::Corrupt { game, source })?;
        if let Some((san, coord, turn, fullmove, before)) = before {
            w.window.push(PlyView {
                ply: i + 1,
                mv: m,
                san,
                coord,
                turn,
                fullmove,
                fen: write_position(&pos),
                before,
            });
        }
        if i + 1 == ply {
            w.at = pos.clone();
            w.last = Some(m);
        }
    }
    Ok(w)
}

/// The window of the move list that holds ply `ply`: [`MOVES_PAGE`] plies
/// from a multiple of it (plies 1-500, 501-1000, ...), cut at the end.
fn window_of(ply: usize, plies: usize) -> std::ops::Range<usize> {
    let first = ply.saturating_sub(1) / MOVES_PAGE * MOVES_PAGE + 1;
    first..(first + MOVES_PAGE).min(plies + 1)
}

/// A line of moves as text: SAN as written, NAGs, comments, nested
/// variations in parentheses (deeper than 32 levels shown as `(...)`),
/// with an explicit stack, so no nesting can exhaust the thread's.
fn line_text(nodes: &[Node]) -> String {
    enum Frame<'a> {
        Line(&'a [Node], usize, usize),
        Text(&'static str),
    }
    let mut out = String::new();
    let mut stack = vec![Frame::Line(nodes, 0, 0)];
    while let Some(frame) = stack.pop() {
        let (line, i, depth) = match frame {
            Frame::Text(t) => {
                if t.starts_with(')') {
                    out.truncate(out.trim_end().len());
                }
                out.push_str(t);
                continue;
            }
            Frame::Line(line, i, depth) => (line, i, depth),
        };
        let Some(node) = line.get(i) else { continue };
        for c in &node.comments_before {
            let _ = write!(out, "{{{}}} ", c.trim());
        }
        out.push_str(node.text.as_str());
        for &n in &node.nags {
            out.push_str(&board::nag_text(n));
        }
        out.push(' ');
        for c in &node.comments {
            let _ = write!(out, "{{{}}} ", c.trim());
        }
        stack.push(Frame::Line(line, i + 1, depth));
        if depth >= 32 {
            if !node.variations.is_empty() {
                out.push_str("(...) ");
            }
            continue;
        }
        for v in node.variations.iter().rev() {
            stack.push(Frame::Text(") "));
            stack.push(Frame::Line(v, 0, depth + 1));
            stack.push(Frame::Text("("));
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A ply number parameter: absent is `None`; anything but a number is
/// refused.
fn ply_param(req: &Request, name: &str) -> Result<Option<usize>, Fault> {
    req.param(name)
        .map(|p| {
            p.trim()
                .parse::<usize>()
                .map_err(|_| Fault::BadRequest(format!("{name} must be a number")))
        })
        .transpose()
}

/// `/api/game/ID?from=F&count=N&ply=P`: the game with plies `F` to
/// `F+N-1` of its main line (N at most [`MOVES_PAGE`]), and with `ply`
/// the position at ply `P`.
fn game_json(db: &Database, req: &Request, id: i64, deadline: Instant) -> Result<Value, Fault> {
    let v = GameView::load(db, id)?;
    let from = ply_param(req, "from")?.unwrap_or(1).max(1);
    let count = ply_param(req, "count")?
        .unwrap_or(MOVES_PAGE)
        .clamp(1, MOVES_PAGE);
    let asked = ply_param(req, "ply")?;
    let total = v.plies();
    let window = from.min(total + 1)..from.saturating_add(count).min(total + 1);
    let ply = asked.unwrap_or(0).min(total);
    let walked = match v.line(db)? {
        Some((start, moves)) => Some((
            write_position(&start),
            walk(
                id,
                start,
                moves,
                WalkTo {
                    ply,
                    window: window.clone(),
                    keep_before: &|p| v.has_variations(p),
                },
                deadline,
            )?,
        )),
        None => None,
    };
    let plies: Vec<Value> = walked
        .iter()
        .flat_map(|(_, w)| &w.window)
        .map(|p| {
            let node = v.node(p.ply);
            json!({
                "ply": p.ply,
                "san": p.san,
                "coord": p.coord,
                "from": p.mv.from.to_string(),
                "to": p.mv.to.to_string(),
                "fen": p.fen,
                "nags": node.map(|n| n.nags.clone()),
                "comments_before": node.map(|n| n.comments_before.clone()),
                "comments": node.map(|n| n.comments.clone()),
                "variations": node.map(|n| n.variations.iter().map(|l| line_text(l)).collect::<Vec<_>>()),
                "lines": match (node, &p.before) {
                    (Some(n), Some(before)) => board::lines_json(&board::replay_variations(before, n, "", 0)),
                    _ => json!([]),
                },
                "annotations": node.map(|n| board::notes_json(&annotations::read(&n.comments))),
            })
        })
        .collect();
    let nodes: &[Node] = v.game.as_ref().map_or(&[], |g| &g.moves);
    let unplayed: Vec<&str> = nodes.iter().skip(total).map(|n| n.text.as_str()).collect();
    let mut out = json!({
        "id": v.stored.id,
        "variant": v.stored.variant,
        "status": v.stored.status,
        "tags": v.stored.tags,
        "eco": v.stored.opening.as_ref().map(|o| &o.eco),
        "opening": v.stored.opening.as_ref().map(|o| &o.name),
        "result": v.game.as_ref().map_or_else(|| v.tag("Result").map(str::to_string), |g| g.result.clone()),
        "start": walked.as_ref().map(|(start, _)| start),
        "ply_count": total,
        "from": window.start,
        "more": window.end <= total,
        "plies": plies,
        "annotated": !v.is_long(),
        "unplayed": unplayed,
        "final_comments": v.game.as_ref().map(|g| g.final_comments.clone()),
        "diagnostics": v.diagnostics,
        "stored_diagnostic": v.stored.diagnostic,
        "source": { "file": v.stored.source.0, "line": v.stored.source.1 },
        "original": v.text,
        "original_bytes": v.stored.original_len,
        "original_complete": !v.is_long(),
    });
    if let (Some(_), Some((_, w))) = (asked, &walked) {
        out["position"] = json!({ "ply": ply, "fen": write_position(&w.at) });
    }
    Ok(out)
}

fn export(db: &Rc<Database>, req: &Request, id: i64) -> Answer {
    let form = match req.param("to").unwrap_or("xpgn") {
        "xpgn" => ExportForm::Xpgn,
        "json" => ExportForm::Json,
        "original" => ExportForm::Original,
        _ => {
            return Err(Fault::BadRequest(
                "to must be xpgn, json or original".into(),
            ));
        }
    };
    if form == ExportForm::Original {
        return export_original(db, id);
    }
    // Rewriting reads the game whole, comments and variations included:
    // a long one is given only as its bytes.
    let head = db
        .stored_game_head(id, 0)?
        .ok_or_else(|| Fault::NotFound(format!("no game {id}")))?;
    if head.original_len > LONG_TEXT as u64 && !matches!(form, ExportForm::Original) {
        return Err(Fault::BadRequest(format!(
            "game {id}'s text is over {} KB: it is exported here only with to=original (xpgn export writes every form)",
            LONG_TEXT / 1024
        )));
    }
    let e = db
        .export_game(id, form)?
        .ok_or_else(|| Fault::NotFound(format!("no game {id}")))?;
    let ty = match form {
        ExportForm::Json => JSON,
        // Original bytes may be in any encoding: not claimed as UTF-8.
        ExportForm::Original => "text/plain",
        ExportForm::Xpgn => "text/plain; charset=utf-8",
    };
    Ok(Response::ok(ty, e.bytes))
}

/// Game `id`'s original bytes, read from the database, decompressed and
/// written [`STREAM_CHUNK`] bytes at a time as the client takes them: a
/// game of any length in bounded memory. The length announced is the
/// stored value's; the text written is checked against it. Original bytes
/// may be in any encoding: not claimed as UTF-8.
fn export_original(db: &Rc<Database>, id: i64) -> Answer {
    let len = db
        .with_original(id, |text| text.len())?
        .ok_or_else(|| Fault::NotFound(format!("no game {id}")))?;
    let db = Rc::clone(db);
    let write = move |out: &mut dyn std::io::Write| -> std::io::Result<()> {
        // The client's pace bounds the time, not the SQL deadline.
        db.set_deadline(None);
        let copied = db.with_original(id, |text| {
            if text.len() != len {
                return Err(std::io::Error::other(
                    "the game changed since its length was sent",
                ));
            }
            let mut chunk = vec![0; STREAM_CHUNK];
            loop {
                let n = std::io::Read::read(text, &mut chunk)?;
                if n == 0 {
                    return Ok(());
                }
                out.write_all(&chunk[..n])?;
            }
        });
        match copied {
            Ok(Some(written)) => written,
            Ok(None) => Err(std::io::Error::other("the game is gone")),
            Err(e) => Err(std::io::Error::other(e)),
        }
    };
    Ok(Response::streamed("text/plain", len, Box::new(write)))
}

fn diagram(db: &Database, req: &Request) -> Answer {
    let (_, positions, _) = position_param(db, req)?;
    let d = Diagram {
        flip: req.param("flip").is_some_and(|f| f != "0"),
        coordinates: req.param("coordinates").is_none_or(|f| f != "0"),
        ..Diagram::default()
    };
    Ok(Response::ok("image/svg+xml", render_svg(&positions[0], &d)))
}

// ---------------------------------------------------------------- HTML

pub(crate) fn page(title: &str, body: &str) -> Response {
    Response::ok(
        HTML,
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{} · xpgn</title><link rel=\"stylesheet\" href=\"/assets/app.css\">\
             <script src=\"/assets/app.js\" defer></script></head><body>\
             <header><a class=\"brand\" href=\"/\">xpgn</a> <a href=\"/\">Games</a> \
             <a href=\"/position\">Positions</a> <a href=\"/editor\">Board editor</a> \
             <a href=\"/open\">Open a file</a></header><main>{body}</main></body></html>\n",
            escape(title)
        ),
    )
}

/// A value for a list cell: escaped, cut after `LIST_CHARS` characters.
fn cell(v: Option<&str>) -> String {
    let v = v.unwrap_or("");
    match v.char_indices().nth(LIST_CHARS) {
        Some((cut, _)) => format!("{}…", escape(&v[..cut])),
        None => escape(v),
    }
}

pub(super) fn games_table(out: &mut String, games: &[FoundGame], show_ply: bool) {
    // A position search is of one variant: its column would repeat it.
    out.push_str("<table class=\"games\"><thead><tr><th>#</th>");
    if !show_ply {
        out.push_str("<th>variant</th>");
    }
    out.push_str("<th>White</th><th>Black</th><th>result</th><th>date</th><th>event</th><th>opening</th><th>plies</th><th>status</th>");
    if show_ply {
        out.push_str("<th>at ply</th>");
    }
    out.push_str("</tr></thead><tbody>");
    for g in games {
        let href = match (show_ply, g.ply) {
            (true, Some(p)) => format!("/game/{}?ply={p}", g.id),
            _ => format!("/game/{}", g.id),
        };
        let _ = write!(
            out,
            "<tr class=\"{}\"><td><a class=\"game-link\" href=\"{href}\">{}</a></td>",
            escape(&g.status),
            g.id,
        );
        if !show_ply {
            let _ = write!(out, "<td>{}</td>", escape(&g.variant));
        }
        let _ = write!(
            out,
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"opening\" title=\"{}\">{}</td><td>{}</td><td>{}</td>",
            cell(g.white.as_deref()),
            cell(g.black.as_deref()),
            cell(g.result.as_deref()),
            cell(g.date.as_deref()),
            cell(g.event.as_deref()),
            escape(g.opening.as_deref().unwrap_or("")),
            cell(g.eco.as_deref()),
            g.plies,
            escape(&g.status),
        );
        if show_ply {
            let _ = write!(
                out,
                "<td><a class=\"ply-link\" href=\"{href}\">{}</a></td>",
                g.ply.map_or(String::new(), |p| p.to_string())
            );
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
}

/// The query string of `req` with `page` replaced.
pub(super) fn with_page(req: &Request, page: u64) -> String {
    let mut parts: Vec<String> = req
        .query
        .iter()
        .filter(|(n, v)| n != "page" && !v.is_empty())
        .map(|(n, v)| format!("{}={}", percent_encode(n), percent_encode(v)))
        .collect();
    parts.push(format!("page={page}"));
    parts.join("&")
}

pub(super) fn pager(out: &mut String, req: &Request, base: &str, page: u64, more: bool) {
    out.push_str("<nav class=\"pager\">");
    if page > 1 {
        let _ = write!(
            out,
            "<a id=\"page-prev\" href=\"{base}?{}\">&larr; page {}</a> ",
            escape(&with_page(req, page - 1)),
            page - 1
        );
    }
    let _ = write!(out, "<span>page {page}</span>");
    if more {
        let _ = write!(
            out,
            " <a id=\"page-next\" href=\"{base}?{}\">page {} &rarr;</a>",
            escape(&with_page(req, page + 1)),
            page + 1
        );
    }
    out.push_str("</nav>");
}

fn select(out: &mut String, name: &str, current: Option<&str>, options: &[(&str, &str)]) {
    let _ = write!(out, "<select name=\"{name}\" id=\"f-{name}\">");
    for (value, label) in options {
        let sel = if current == Some(*value) {
            " selected"
        } else {
            ""
        };
        let _ = write!(
            out,
            "<option value=\"{}\"{sel}>{}</option>",
            escape(value),
            escape(label)
        );
    }
    out.push_str("</select>");
}

/// The variants a form offers: name and display name of each the
/// database's games may be of.
fn variant_options(db: &Database) -> Vec<(String, String)> {
    db.registry()
        .variants()
        .iter()
        .map(|v| (v.name().to_string(), v.def().display_name.clone()))
        .collect()
}

/// The `variant` select of a form with `chosen` selected, one option per
/// variant of [`variant_options`].
pub(super) fn variant_select(out: &mut String, db: &Database, chosen: &str) {
    let options = variant_options(db);
    let options: Vec<(&str, &str)> = options
        .iter()
        .map(|(n, d)| (n.as_str(), d.as_str()))
        .collect();
    select(out, "variant", Some(chosen), &options);
}

fn list_page(db: &Database, req: &Request) -> Answer {
    let paging = paging(req)?;
    let (games, more) = page_of(db, list_filter(db, req)?, paging)?;
    let mut out =
        String::from("<h1>Games</h1><form class=\"filters\" method=\"get\" action=\"/\">");
    for (name, label) in [
        ("player", "player"),
        ("white", "White"),
        ("black", "Black"),
        ("event", "event"),
        ("date_from", "from date"),
        ("date_to", "to date"),
    ] {
        let _ = write!(
            out,
            "<label>{label} <input name=\"{name}\" id=\"f-{name}\" value=\"{}\" size=\"12\"></label> ",
            escape(req.param(name).unwrap_or(""))
        );
    }
    let variant = variant_param(db, req)?;
    let variant = variant.as_ref().map(Variant::name);
    let options = variant_options(db);
    let mut variants = vec![("", "any variant")];
    variants.extend(options.iter().map(|(n, d)| (n.as_str(), d.as_str())));
    out.push_str("<label>variant ");
    select(&mut out, "variant", Some(variant.unwrap_or("")), &variants);
    out.push_str("</label> <label>result ");
    select(
        &mut out,
        "result",
        Some(req.param("result").unwrap_or("")),
        &[
            ("", "any"),
            ("1-0", "1-0"),
            ("0-1", "0-1"),
            ("1/2-1/2", "½-½"),
            ("*", "*"),
        ],
    );
    out.push_str("</label> <label>status ");
    select(
        &mut out,
        "status",
        Some(req.param("status").unwrap_or("")),
        &[("", "any"), ("valid", "valid"), ("invalid", "invalid")],
    );
    out.push_str("</label> <button type=\"submit\">Find</button></form>");
    if games.is_empty() {
        out.push_str("<p class=\"empty\">No games match.</p>");
    } else {
        games_table(&mut out, &games, false);
    }
    pager(&mut out, req, "/", paging.0, more);
    let _ = write!(
        out,
        "<p class=\"api\"><a href=\"/api/games?{}\">JSON</a></p>",
        escape(&with_page(req, paging.0))
    );
    Ok(page("Games", &out))
}

fn position_href(variant: &Variant, pos: &Position) -> String {
    format!(
        "/position?variant={}&fen={}",
        percent_encode(variant.name()),
        percent_encode(&write_position(pos))
    )
}

/// The opening tree of `positions` as a table, each move a link to the
/// position it leads to; `next` marks the move the game played.
fn tree_table(
    out: &mut String,
    variant: &Variant,
    pos: &Position,
    tree: &Tree,
    next: Option<&Move>,
) {
    out.push_str("<section class=\"tree\"><h2>Opening tree</h2>");
    if tree.moves.is_empty() {
        let _ = write!(
            out,
            "<p class=\"empty\">No stored game plays on from here ({} reach it).</p></section>",
            tree.games
        );
        return;
    }
    out.push_str("<table class=\"tree\"><thead><tr><th>move</th><th>games</th><th>white</th><th>draws</th><th>black</th><th>score</th><th>opening</th></tr></thead><tbody>");
    for m in &tree.moves {
        let mut after = pos.clone();
        after.play_unchecked(&m.mv);
        let score = m
            .score(m.turn)
            .map_or("-".to_string(), |s| format!("{s:.1}%"));
        let played = if next == Some(&m.mv) {
            " class=\"played\""
        } else {
            ""
        };
        let _ = write!(
            out,
            "<tr{played}><td><a class=\"tree-move\" data-san=\"{}\" href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{score}</td><td class=\"opening\">{}</td></tr>",
            escape(&m.san),
            escape(&position_href(variant, &after)),
            escape(&m.san),
            m.games,
            m.white_wins,
            m.draws,
            m.black_wins,
            m.opening
                .as_ref()
                .map_or(String::new(), |o| escape(&format!("{} {}", o.eco, o.name)))
        );
    }
    let _ = write!(
        out,
        "</tbody></table><p>{} games reach this position, {} end in it.</p></section>",
        tree.games, tree.ended
    );
}

/// `/editor?variant=V&fen=F`: a board to set up (from `fen`, as the
/// position search reads it, or the variant's start), whose position the
/// form sends to the position search (`/position`). The page's script
/// places and removes pieces and writes the position string; without it,
/// the string can be typed.
fn editor_page(db: &Database, req: &Request) -> Answer {
    let (variant, positions, fen) = position_param(db, req)?;
    let hands = variant.def().hand.is_some();
    let mut out = String::from(
        "<h1>Board editor</h1><form class=\"position-form editor-form\" id=\"editor-form\" method=\"get\" action=\"/position\"><label>variant ",
    );
    variant_select(&mut out, db, variant.name());
    out.push_str("</label> <label>side to move <select id=\"editor-turn\"><option value=\"\">either</option><option value=\"w\">White</option><option value=\"b\">Black</option></select></label> <label>castling <input id=\"editor-castling\" size=\"6\" placeholder=\"any\" title=\"as in a position string (KQkq, -); with a side to move only\"></label>");
    if hands {
        out.push_str(" <label>in hand <input id=\"editor-hand\" size=\"10\" placeholder=\"none\" title=\"piece letters, as Qnp\"></label>");
    }
    let _ = write!(
        out,
        " <label>position <input name=\"fen\" id=\"f-fen\" size=\"60\" value=\"{}\"></label> <button type=\"submit\" id=\"editor-search\">Search games</button></form>",
        escape(&fen)
    );
    let _ = write!(
        out,
        "<div class=\"layout\"><div class=\"board-col\"><div class=\"board editor-board\" id=\"editor-board\" role=\"group\" aria-label=\"board: pick a piece or the eraser, then click squares\" data-variant=\"{}\" data-hands=\"{}\">",
        escape(variant.name()),
        u8::from(hands)
    );
    out.push_str(&render_svg(
        &positions[0],
        &Diagram {
            coordinates: true,
            legend: false,
            ..Diagram::default()
        },
    ));
    out.push_str("</div></div><div class=\"side-col\"><p class=\"note\">Pick a piece (or the eraser), then click squares to place it; the position string above follows, and <em>Search games</em> shows the opening tree and the games reaching it. Leave the side to move and castling open to search every state.</p><div class=\"palette\" id=\"palette\" role=\"toolbar\" aria-label=\"pieces\">");
    out.push_str(&crate::render::render_palette(&variant));
    out.push_str("</div><p class=\"editor-tools\"><button type=\"button\" id=\"editor-eraser\">eraser</button> <button type=\"button\" id=\"editor-clear\">clear the board</button> <a id=\"editor-start\" href=\"/editor?variant=");
    out.push_str(&escape(&percent_encode(variant.name())));
    out.push_str("\">start position</a></p>");
    pattern_forms(&mut out, &positions[0]);
    out.push_str("</div></div>");
    Ok(page("Board editor", &out))
}

/// The editor's pattern and material searches (`/pattern`), filled with
/// the pieces and the exact material of `pos`'s board; the page's script
/// keeps them following the board, and either can be edited first (a
/// square `*` for anywhere, a count `P>=5`).
fn pattern_forms(out: &mut String, pos: &Position) {
    let variant = escape(pos.variant().name());
    let _ = write!(
        out,
        "<form class=\"pattern-form\" id=\"editor-pattern\" method=\"get\" action=\"/pattern\"><input type=\"hidden\" name=\"variant\" value=\"{variant}\"><label>pieces <input name=\"pieces\" id=\"editor-pieces\" size=\"40\" value=\"{}\" title=\"SIDE:LETTER@SQUARE, separated by spaces; all in one position\"></label> <button type=\"submit\" id=\"editor-pattern-search\">Find these pieces</button></form>\
         <form class=\"pattern-form\" id=\"editor-material-form\" method=\"get\" action=\"/pattern\"><input type=\"hidden\" name=\"variant\" value=\"{variant}\"><label>material <input name=\"material\" id=\"editor-material\" size=\"40\" value=\"{}\" title=\"per side, each type with a count: R2 (exactly), P&gt;=5 (at least), N&lt;=1 (at most)\"></label> <button type=\"submit\" id=\"editor-material-search\">Find this material</button></form>",
        escape(&pattern::pieces_of(pos).join(" ")),
        escape(&pattern::material_of(pos)),
    );
}

fn position_page(db: &Database, req: &Request) -> Answer {
    let (variant, positions, fen) = position_param(db, req)?;
    let paging = paging(req)?;
    let pos = &positions[0];
    // The games first: a tree that takes too long leaves them shown.
    let (games, more) = reaching(db, &variant, &positions, paging)?;
    let tree = match db.tree_of(&positions) {
        Ok(tree) => Some(tree),
        Err(DbError::TimedOut) => None,
        Err(e) => return Err(e.into()),
    };
    let mut out = String::from(
        "<h1>Position</h1><form class=\"position-form\" method=\"get\" action=\"/position\"><label>variant ",
    );
    variant_select(&mut out, db, variant.name());
    let _ = write!(
        out,
        "</label> <label>FEN <input name=\"fen\" id=\"f-fen\" size=\"60\" value=\"{}\"></label> <button type=\"submit\">Search</button></form>",
        escape(&fen)
    );
    out.push_str("<div class=\"layout\"><div class=\"board-col\">");
    out.push_str(&render_svg(
        pos,
        &Diagram {
            coordinates: true,
            ..Diagram::default()
        },
    ));
    if positions.len() > 1 {
        let _ = write!(
            out,
            "<p class=\"note\">Board only: searched {} states (side to move, castling, en passant).</p>",
            positions.len()
        );
    }
    out.push_str("</div><div class=\"side-col\">");
    match &tree {
        Some(tree) => tree_table(&mut out, &variant, pos, tree, None),
        None => out.push_str(TREE_TIMED_OUT),
    }
    out.push_str("<section class=\"reaching\"><h2>Games reaching this position</h2>");
    if games.is_empty() {
        out.push_str("<p class=\"empty\">No stored game reaches it.</p>");
    } else {
        games_table(&mut out, &games, true);
    }
    pager(&mut out, req, "/position", paging.0, more);
    out.push_str("</section></div></div>");
    let _ = write!(
        out,
        "<p class=\"api\"><a id=\"edit\" href=\"/editor?{q}\">edit this position</a> · <a href=\"/api/tree?{q}\">tree JSON</a> · <a href=\"/api/position?{q}\">games JSON</a> · <a href=\"/api/diagram.svg?{q}\">SVG</a></p>",
        q = escape(&format!(
            "variant={}&fen={}",
            percent_encode(variant.name()),
            percent_encode(&fen)
        ))
    );
    Ok(page("Position", &out))
}

/// Writes the comments of a move as spans.
/// Writes the comments of a move as spans, without the commands the
/// board, the clocks and the graph show (`[%clk 0:03:00]`, `[%eval 0.2]`,
/// `[%cal Gf3e5]`: docs/notation.md §14); a comment of commands alone is
/// not written (the original text, linked below, keeps them).
fn comments(out: &mut String, list: &[String]) {
    for c in list {
        let text = without_commands(c);
        if !text.is_empty() {
            let _ = write!(out, " <span class=\"comment\">{}</span>", escape(&text));
        }
    }
}

/// `comment` without its `[%name ...]` commands, its spaces closed up.
fn without_commands(comment: &str) -> String {
    let mut out = String::with_capacity(comment.len());
    let mut rest = comment;
    while let Some(at) = rest.find("[%") {
        out.push_str(&rest[..at]);
        match rest[at..].find(']') {
            Some(end) => rest = &rest[at + end + 1..],
            None => {
                // An unclosed command is text.
                out.push_str(&rest[at..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn game_page(db: &Database, req: &Request, id: i64, deadline: Instant) -> Answer {
    let v = GameView::load(db, id)?;
    let (title, body) = game_body(db, req, &v, Some(id), deadline)?;
    Ok(page(&title, &body))
}

/// A game's page (without its frame): the stored game `id`, or a game
/// of an opened text (`None`: its moves link to nothing the server
/// keeps, and the page's script steps through them). Gives the title too.
pub(crate) fn game_body(
    db: &Database,
    req: &Request,
    v: &GameView,
    id: Option<i64>,
    deadline: Instant,
) -> Result<(String, String), Fault> {
    let plies = v.plies();
    let ply = ply_param(req, "ply")?.unwrap_or(0).min(plies);
    let var = board::var_param(req)?;
    let window = window_of(ply, plies);
    let line = v.line(db)?;
    let start_fen = line.as_ref().map(|(s, _)| write_position(s));
    let walked = line
        .map(|(start, moves)| {
            let to = WalkTo {
                ply,
                window: window.clone(),
                keep_before: &|p| v.has_variations(p),
            };
            walk(id.unwrap_or(0), start, moves, to, deadline)
        })
        .transpose()?;
    let flip = req.param("flip").is_some_and(|f| f != "0");
    let links = MoveLinks {
        id,
        flip,
        ply,
        var: var.as_deref(),
    };
    let notes = main_line_notes(v, plies);
    let branches = window_variations(v, walked.as_ref());
    let lines_at = |p: usize| {
        branches
            .iter()
            .find(|(q, _)| *q == p)
            .map_or(&[][..], |(_, l)| &l[..])
    };
    let shown_var = var
        .as_deref()
        .map(|path| played_variation_move(lines_at(ply), ply, path))
        .transpose()?;
    let white = v.tag("White").unwrap_or("?");
    let black = v.tag("Black").unwrap_or("?");
    let title = format!("{white} – {black}");
    let variant = db.registry().lookup(&v.stored.variant);
    let mut out = String::new();
    game_heading(&mut out, v, white, black, variant.as_ref());
    out.push_str("<div class=\"layout\"><div class=\"board-col\">");
    let href = |p: usize, path: Option<&str>| links.href(p, path);
    let main_href = |p: usize| href(p, None);
    let shown = match (&walked, shown_var) {
        (Some(w), None) => Some((
            w.at.clone(),
            w.last.filter(|m| !m.is_null()),
            ply.checked_sub(1).and_then(|i| notes.get(i)),
        )),
        (Some(_), Some(m)) => m
            .played
            .as_ref()
            .map(|(mv, after)| (after.clone(), Some(*mv), Some(&m.notes))),
        (None, _) => None,
    };
    if let (Some((pos, last, marks)), Some(start_fen)) = (&shown, &start_fen) {
        let fen = write_position(pos);
        let _ = write!(
            out,
            "<div class=\"board\" id=\"board\" role=\"group\" aria-label=\"board: click a piece, then a square, to move it\"{} data-variant=\"{}\" data-fen=\"{}\" data-start=\"{}\" data-flip=\"{}\" data-ply=\"{ply}\" data-plies=\"{plies}\" data-var=\"{}\">",
            id.map_or(String::new(), |id| format!(" data-game=\"{id}\"")),
            escape(&v.stored.variant),
            escape(&fen),
            escape(start_fen),
            u8::from(flip),
            escape(var.as_deref().unwrap_or("")),
        );
        out.push_str(&render_svg(pos, &board_diagram(flip, *last, *marks)));
        let (prev, next) = match &var {
            None => (
                main_href(ply.saturating_sub(1)),
                main_href((ply + 1).min(plies)),
            ),
            Some(path) => {
                let (p, before) = board::before_var(ply, path);
                let after = board::after_var(lines_at(ply), path);
                (
                    href(p, before.as_deref()),
                    href(ply, Some(after.as_deref().unwrap_or(path))),
                )
            }
        };
        // Under the board: the clocks, the steps and what the board says,
        // then the evaluation graph, in sight with the board.
        out.push_str("</div>");
        let first_mover = v.replay.as_ref().map_or(Color::White, |(s, _)| s.turn());
        clocks(&mut out, &notes, ply, first_mover);
        let flipped = MoveLinks {
            flip: !flip,
            ..links
        }
        .href(ply, var.as_deref());
        board_steps(
            &mut out,
            [
                &main_href(0),
                &escape(&prev),
                &escape(&next),
                &main_href(plies),
                &escape(&flipped),
            ],
        );
        eval_graph(&mut out, &notes, ply, &main_href);
        let shown_ply = match &var {
            None => format!("Ply {ply} of {plies}"),
            Some(_) => format!("Variation at ply {ply} of {plies}"),
        };
        board_footer(
            &mut out,
            ply,
            &shown_ply,
            &fen,
            variant.as_ref().map(|v| (v, pos)),
        );
    } else {
        out.push_str("<p class=\"empty\">The game's start position cannot be read.</p>");
    }
    out.push_str("</div><div class=\"side-col\">");
    let shown_plies = walked.as_ref().map_or(&[][..], |w| &w.window[..]);
    move_list(&mut out, v, shown_plies, &notes, &lines_at, &window, &links);
    diagnostics_section(&mut out, v);
    if let (Some(variant), Some((pos, _, _))) = (&variant, &shown) {
        let next = if var.is_none() {
            walked.as_ref().and_then(|w| w.next)
        } else {
            None
        };
        position_tree(&mut out, db, variant, pos, next.as_ref())?;
    }
    tags_and_original(&mut out, v, id);
    Ok((title, out))
}

/// The variation move at `path` among `lines` (those of ply `ply`), if
/// it replays: the move the page shows.
fn played_variation_move<'a, 'g>(
    lines: &'a [Vec<LineMove<'g>>],
    ply: usize,
    path: &str,
) -> Result<&'a LineMove<'g>, Fault> {
    board::find_in(lines, path)
        .filter(|m| m.played.is_some())
        .ok_or_else(|| {
            Fault::BadRequest(format!(
                "var: ply {ply} has no variation move {path} that replays"
            ))
        })
}

/// What the main line's comments say ([%clk], [%eval], [%cal], ...), by
/// ply from 1 (short games: a long one's comments are not read).
fn main_line_notes(v: &GameView, plies: usize) -> Vec<Annotations> {
    v.game.as_ref().map_or_else(Vec::new, |g| {
        g.moves
            .iter()
            .take(plies)
            .map(|n| annotations::read(&n.comments))
            .collect()
    })
}

/// The variations of the walked window's plies, replayed, by ply.
fn window_variations<'g>(
    v: &'g GameView,
    walked: Option<&Walk>,
) -> Vec<(usize, Vec<Vec<LineMove<'g>>>)> {
    walked
        .iter()
        .flat_map(|w| &w.window)
        .filter_map(|p| {
            let node = v.node(p.ply)?;
            Some((
                p.ply,
                board::replay_variations(p.before.as_ref()?, node, "", 0),
            ))
        })
        .collect()
}

/// The tree of the position shown (`next`: the game's next move); the
/// page goes without it when it takes too long.
fn position_tree(
    out: &mut String,
    db: &Database,
    variant: &Variant,
    pos: &Position,
    next: Option<&Move>,
) -> Result<(), Fault> {
    match db.tree(pos) {
        Ok(tree) => tree_table(out, variant, pos, &tree, next),
        Err(DbError::TimedOut) => out.push_str(TREE_TIMED_OUT),
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

/// The board's diagram on a game page: the last move marked, and the
/// arrows and squares of the comment after it.
fn board_diagram(flip: bool, last: Option<Move>, marks: Option<&Annotations>) -> Diagram {
    Diagram {
        flip,
        coordinates: true,
        last_move: last.map(|m| {
            if m.dropped().is_some() {
                (m.to, m.to)
            } else {
                (m.from, m.to)
            }
        }),
        colored_arrows: marks.map_or_else(Vec::new, |m| {
            m.arrows
                .iter()
                .filter_map(|a| Some((a.from, a.to, Mark::named(a.color.name())?)))
                .collect()
        }),
        colored_squares: marks.map_or_else(Vec::new, |m| {
            m.squares
                .iter()
                .filter_map(|q| Some((q.square, Mark::named(q.color.name())?)))
                .collect()
        }),
        ..Diagram::default()
    }
}

/// Under the board: the message line, the choices, the steps (`hrefs`,
/// as they are written: start, back, forward, end, the board turned) and
/// the move form.
fn board_steps(out: &mut String, hrefs: [&str; 5]) {
    let [first, prev, next, last, flip] = hrefs;
    let _ = write!(
        out,
        "<p class=\"board-message\" id=\"board-message\" role=\"status\" aria-live=\"polite\"></p><div class=\"choices\" id=\"choices\"></div><nav class=\"steps\" aria-label=\"steps\"><a class=\"step\" id=\"first\" href=\"{first}\" title=\"start (Home)\" aria-label=\"start\">|&lt;</a><a class=\"step\" id=\"prev\" href=\"{prev}\" title=\"back (←)\" aria-label=\"back\">&lt;</a><a class=\"step\" id=\"next\" href=\"{next}\" title=\"forward (→)\" aria-label=\"forward\">&gt;</a><a class=\"step\" id=\"last\" href=\"{last}\" title=\"end (End)\" aria-label=\"end\">&gt;|</a><a class=\"step\" id=\"flip\" href=\"{flip}\" title=\"turn the board (f)\" aria-label=\"turn the board\">⇅</a><button class=\"step\" id=\"export\" type=\"button\" hidden title=\"the line shown as XPGN\">XPGN</button></nav><form class=\"move-form\" id=\"move-form\" hidden><label>move <input id=\"move-input\" size=\"10\" autocomplete=\"off\" spellcheck=\"false\" placeholder=\"Nf3, e2e4\" aria-label=\"type a move to play on the board\"></label> <button type=\"submit\">play</button></form>",
    );
}

/// After the evaluation graph: the ply shown, the position string, the
/// export box and, where the variant is known, the search for the
/// position.
fn board_footer(
    out: &mut String,
    ply: usize,
    shown_ply: &str,
    fen: &str,
    searched: Option<(&Variant, &Position)>,
) {
    let _ = write!(
        out,
        "<p class=\"ply\" id=\"ply\" data-ply=\"{ply}\">{shown_ply}</p><p class=\"fen\"><code id=\"fen\">{}</code></p><div class=\"export-box\" id=\"export-box\" hidden><textarea id=\"export-text\" readonly rows=\"6\" aria-label=\"the line as XPGN\"></textarea><a id=\"export-download\" download=\"line.xpgn\" href=\"#\">download</a></div>",
        escape(fen)
    );
    if let Some((variant, pos)) = searched {
        let _ = write!(
            out,
            "<p><a id=\"search\" class=\"search\" href=\"{}\">Games reaching this position</a></p>",
            escape(&position_href(variant, pos))
        );
    }
}

/// How the move list links its moves: the game, the board's side, and
/// the move shown (main-line ply, variation path).
#[derive(Clone, Copy)]
struct MoveLinks<'a> {
    id: Option<i64>,
    flip: bool,
    ply: usize,
    var: Option<&'a str>,
}

impl MoveLinks<'_> {
    /// The URL of a move: its page, or for an opened text, a fragment.
    fn href(&self, ply: usize, path: Option<&str>) -> String {
        let mut h = match self.id {
            Some(id) => format!("/game/{id}?ply={ply}"),
            None => format!("#ply={ply}"),
        };
        if let Some(path) = path {
            h.push_str("&var=");
            h.push_str(path);
        }
        if self.flip {
            h.push_str("&flip=1");
        }
        h
    }
}

/// A move of the move list: an `a.move` whose attributes the page's
/// script steps with (docs/serve.md, "The board").
struct MoveLink<'a> {
    id: String,
    ply: usize,
    anchor: usize,
    path: Option<&'a str>,
    san: &'a str,
    fen: &'a str,
    mv: &'a Move,
    mover: Color,
    prev: &'a str,
    notes: Option<&'a Annotations>,
    nags: &'a [u8],
}

fn move_link(out: &mut String, m: &MoveLink, links: &MoveLinks) {
    let current = links.ply == m.anchor && links.var == m.path;
    let _ = write!(
        out,
        " <a class=\"move{}\" id=\"{}\" data-ply=\"{}\" data-fen=\"{}\" data-to=\"{}\" data-side=\"{}\"",
        if current { " current" } else { "" },
        m.id,
        m.ply,
        escape(m.fen),
        m.mv.to,
        side(m.mover),
    );
    // A main-line move's anchor is its ply, and the move before it ply - 1.
    if let Some(path) = m.path {
        let _ = write!(
            out,
            " data-anchor=\"{}\" data-path=\"{}\" data-prev=\"{}\"",
            m.anchor,
            escape(path),
            m.prev
        );
    }
    if m.mv.dropped().is_none() {
        let _ = write!(out, " data-from=\"{}\"", m.mv.from);
    }
    if let Some(n) = m.notes {
        board::note_attributes(out, n);
    }
    let _ = write!(
        out,
        " href=\"{}\">{}",
        escape(&links.href(m.anchor, m.path)),
        escape(m.san)
    );
    for &n in m.nags {
        nag_html(out, n);
    }
    out.push_str("</a>");
}

/// A NAG as its symbol, with its meaning as a tooltip.
fn nag_html(out: &mut String, n: u8) {
    match board::nag_symbol(n) {
        Some((_, meaning)) => {
            let _ = write!(
                out,
                "<span class=\"nag\" title=\"{meaning} (${n})\">{}</span>",
                escape(&board::nag_text(n))
            );
        }
        None => out.push_str(&escape(&board::nag_text(n))),
    }
}

/// The variations of `node` (the move of ply `ply`, main-line ply
/// `anchor`) as nested spans of move links; `prev` is the id of the move
/// before `node`. Variations too deep to replay are text.
fn variations_html(
    out: &mut String,
    lines: &[Vec<LineMove>],
    node: &Node,
    (anchor, ply): (usize, usize),
    prev: &str,
    links: &MoveLinks,
) {
    if lines.is_empty() {
        for line in &node.variations {
            let _ = write!(
                out,
                " <span class=\"variation\">({})</span>",
                escape(&line_text(line))
            );
        }
        return;
    }
    for line in lines {
        out.push_str(" <span class=\"variation\">(");
        let mut before = prev.to_string();
        for (i, m) in line.iter().enumerate() {
            comments(out, &m.node.comments_before);
            let (Some((mv, after)), Some((turn, fullmove))) = (&m.played, m.number) else {
                let _ = write!(
                    out,
                    " <span class=\"move unplayed\" title=\"does not replay\">{}</span>",
                    escape(&m.san)
                );
                comments(out, &m.node.comments);
                continue;
            };
            if turn == Color::White || i == 0 {
                let dots = if turn == Color::White { "." } else { "..." };
                let _ = write!(out, " <span class=\"num\">{fullmove}{dots}</span>");
            }
            let id = format!("v{anchor}-{}", m.path.replace('.', "-"));
            move_link(
                out,
                &MoveLink {
                    id: id.clone(),
                    ply: ply + i,
                    anchor,
                    path: Some(&m.path),
                    san: &m.san,
                    fen: &write_position(after),
                    mv,
                    mover: turn,
                    prev: &before,
                    notes: Some(&m.notes),
                    nags: &m.node.nags,
                },
                links,
            );
            comments(out, &m.node.comments);
            variations_html(
                out,
                &m.variations,
                m.node,
                (anchor, ply + i),
                &before,
                links,
            );
            before = id;
        }
        out.push_str(")</span>");
    }
}

/// A clock in milliseconds as `H:MM:SS` (and tenths when it has them).
fn clock_text(ms: u64) -> String {
    let (h, m, s) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
    match ms % 1000 {
        0 => format!("{h}:{m:02}:{s:02}"),
        frac => format!("{h}:{m:02}:{s:02}.{}", frac / 100),
    }
}

/// Each side's clock after ply `ply`: the last `[%clk]` of its moves up
/// to it (the side that moves first plays the odd plies); nothing when
/// no move has one.
fn clocks(out: &mut String, notes: &[Annotations], ply: usize, first: Color) {
    if notes.iter().all(|n| n.clock_ms.is_none()) {
        return;
    }
    let mut left = [None, None];
    for (i, n) in notes.iter().take(ply).enumerate() {
        let mover = if i % 2 == 0 { first } else { first.other() };
        if let Some(ms) = n.clock_ms {
            left[mover.index()] = Some(ms);
        }
    }
    let shown = |c: Option<u64>| c.map_or_else(|| "–".to_string(), clock_text);
    let _ = write!(
        out,
        "<p class=\"clocks\" id=\"clocks\"><span class=\"clock clock-white\">White {}</span> · <span class=\"clock clock-black\">Black {}</span></p>",
        shown(left[0]),
        shown(left[1])
    );
}

/// Width and height of the evaluation graph, in its own units.
const GRAPH_W: f64 = 560.0;
const GRAPH_H: f64 = 120.0;

/// The evaluations of `[%eval]`, White's advantage up, as a plain SVG
/// line over the plies (mates and more than 10 pawns at the edge), each
/// point a link to its ply, the current ply marked; nothing when no move
/// has one.
fn eval_graph(out: &mut String, notes: &[Annotations], ply: usize, href: &dyn Fn(usize) -> String) {
    let points: Vec<(usize, f64, String)> = notes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| {
            let e = n.eval?;
            let (pawns, text) = match e.score {
                Score::Centipawns(cp) => (
                    (f64::from(cp) / 100.0).clamp(-10.0, 10.0),
                    format!("{:+.2}", f64::from(cp) / 100.0),
                ),
                Score::Mate(m) => (if m < 0 { -10.0 } else { 10.0 }, format!("#{m}")),
            };
            Some((i + 1, pawns, text))
        })
        .collect();
    if points.is_empty() {
        return;
    }
    let n = notes.len().max(1) as f64;
    let x = |p: usize| p as f64 / n * GRAPH_W;
    let y = |pawns: f64| GRAPH_H / 2.0 - pawns / 10.0 * (GRAPH_H / 2.0 - 4.0);
    let line: Vec<String> = points
        .iter()
        .map(|(p, v, _)| format!("{:.1},{:.1}", x(*p), y(*v)))
        .collect();
    let _ = write!(
        out,
        "<svg class=\"eval-graph\" id=\"eval-graph\" viewBox=\"0 0 {GRAPH_W} {GRAPH_H}\" role=\"img\" aria-label=\"evaluation by ply\"><rect width=\"{GRAPH_W}\" height=\"{GRAPH_H}\" fill=\"#fff\" stroke=\"#e2dccf\"/><line x1=\"0\" y1=\"{0}\" x2=\"{GRAPH_W}\" y2=\"{0}\" stroke=\"#bbb\"/><line class=\"current\" x1=\"{1:.1}\" y1=\"0\" x2=\"{1:.1}\" y2=\"{GRAPH_H}\" stroke=\"#3b6fb6\"/><polyline fill=\"none\" stroke=\"#3b2f25\" stroke-width=\"1.5\" points=\"{2}\"/>",
        GRAPH_H / 2.0,
        x(ply),
        line.join(" ")
    );
    for (p, v, text) in &points {
        let _ = write!(
            out,
            "<a href=\"{}\"><circle class=\"eval\" data-ply=\"{p}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"#3b2f25\"><title>ply {p}: {}</title></circle></a>",
            escape(&href(*p)),
            x(*p),
            y(*v),
            escape(text)
        );
    }
    out.push_str("</svg>");
}

/// The players, the main tags, the variant and the status.
fn game_heading(
    out: &mut String,
    v: &GameView,
    white: &str,
    black: &str,
    variant: Option<&Variant>,
) {
    let _ = write!(
        out,
        "<h1 class=\"players\"><span class=\"white\">{}</span> – <span class=\"black\">{}</span></h1><p class=\"meta\">",
        escape(white),
        escape(black)
    );
    let mut meta = Vec::new();
    for name in ["Event", "Site", "Date", "Round", "Result"] {
        if let Some(val) = v.tag(name) {
            meta.push(format!(
                "<span class=\"tag-{}\">{}</span>",
                name.to_lowercase(),
                escape(val)
            ));
        }
    }
    meta.push(format!(
        "<span class=\"variant\">{}</span>",
        escape(variant.map_or(v.stored.variant.as_str(), |v| v.def().display_name.as_str()))
    ));
    if let Some(o) = &v.stored.opening {
        meta.push(format!(
            "<span class=\"opening\">{} {}</span>",
            escape(&o.eco),
            escape(&o.name)
        ));
    }
    meta.push(format!(
        "<span class=\"status status-{0}\">{0}</span>",
        escape(&v.stored.status)
    ));
    out.push_str(&meta.join(" · "));
    out.push_str("</p>");
}

/// One window of the move list (`shown`, the plies of `window`), each
/// move a link carrying the position after it, the variations of each
/// replayed (`lines_at`), with links to the windows before and after it;
/// the moves as read that did not replay, the final comments and the
/// result after the last.
fn move_list<'g>(
    out: &mut String,
    v: &GameView,
    shown: &[PlyView],
    notes: &[Annotations],
    lines_at: &dyn Fn(usize) -> &'g [Vec<LineMove<'g>>],
    window: &std::ops::Range<usize>,
    links: &MoveLinks,
) {
    let plies = v.plies();
    out.push_str("<section class=\"moves\"><h2>Moves</h2>");
    if plies >= MOVES_PAGE {
        let _ = write!(
            out,
            "<p class=\"window\" id=\"window\">Plies {}–{} of {plies}</p>",
            window.start,
            window.end.saturating_sub(1)
        );
    }
    let _ = write!(
        out,
        "<div class=\"movelist\" id=\"moves\" data-from=\"{}\" data-to=\"{}\">",
        window.start,
        window.end.saturating_sub(1)
    );
    if window.start > 1 {
        window_link(
            out,
            links,
            "window-prev",
            window.start - 1,
            &format!(
                "&larr; plies {}–{}",
                window.start.saturating_sub(MOVES_PAGE),
                window.start - 1
            ),
        );
    }
    for p in shown {
        let node = v.node(p.ply);
        if let Some(n) = node {
            comments(out, &n.comments_before);
        }
        if p.turn == Color::White || p.ply == window.start {
            let dots = if p.turn == Color::White { "." } else { "..." };
            let _ = write!(out, " <span class=\"num\">{}{dots}</span>", p.fullmove);
        }
        let prev = if p.ply > 1 {
            format!("m{}", p.ply - 1)
        } else {
            String::new()
        };
        move_link(
            out,
            &MoveLink {
                id: format!("m{}", p.ply),
                ply: p.ply,
                anchor: p.ply,
                path: None,
                san: &p.san,
                fen: &p.fen,
                mv: &p.mv,
                mover: p.turn,
                prev: &prev,
                notes: notes.get(p.ply - 1),
                nags: node.map_or(&[][..], |n| &n.nags[..]),
            },
            links,
        );
        if let Some(n) = node {
            comments(out, &n.comments);
            variations_html(out, lines_at(p.ply), n, (p.ply, p.ply), &prev, links);
        }
    }
    if window.end <= plies {
        out.push(' ');
        window_link(
            out,
            links,
            "window-next",
            window.end,
            &format!(
                "plies {}–{} &rarr;",
                window.end,
                (window.end + MOVES_PAGE - 1).min(plies)
            ),
        );
    } else {
        move_list_end(out, v, plies);
    }
    out.push_str("</div></section>");
}

/// A link to the window of moves holding `ply` (`label` is markup): for
/// a stored game its page at that ply; for an opened text, a button
/// posting the text again with that ply (the form `open-window` of
/// `open::window_form`), since the server keeps nothing of it.
fn window_link(out: &mut String, links: &MoveLinks, class: &str, ply: usize, label: &str) {
    if links.id.is_some() {
        let _ = write!(
            out,
            "<a class=\"{class}\" id=\"{class}\" href=\"{}\">{label}</a>",
            escape(&links.href(ply, None))
        );
    } else {
        let _ = write!(
            out,
            "<button type=\"submit\" form=\"open-window\" name=\"ply\" value=\"{ply}\" class=\"{class}\" id=\"{class}\">{label}</button>"
        );
    }
}

/// After the last window: the moves as read past the replay, the final
/// comments and the result (a long game's: its `Result` tag, and a note
/// that its comments are in its export).
fn move_list_end(out: &mut String, v: &GameView, plies: usize) {
    let Some(game) = &v.game else {
        if v.is_long() {
            let _ = write!(
                out,
                " <span class=\"result\">{}</span><p class=\"note\">This game's text is over {} KB: its moves are shown from the stored main line, without comments or variations (its original text, linked below, has them).</p>",
                escape(v.tag("Result").unwrap_or("")),
                LONG_TEXT / 1024
            );
        }
        return;
    };
    for node in game.moves.iter().skip(plies) {
        comments(out, &node.comments_before);
        let _ = write!(
            out,
            " <span class=\"move unplayed\" title=\"not replayed\">{}</span>",
            escape(node.text.as_str())
        );
        comments(out, &node.comments);
        for line in &node.variations {
            let _ = write!(
                out,
                " <span class=\"variation\">({})</span>",
                escape(&line_text(line))
            );
        }
    }
    comments(out, &game.final_comments);
    if let Some(r) = &game.result {
        let _ = write!(out, " <span class=\"result\">{}</span>", escape(r));
    }
}

fn diagnostics_section(out: &mut String, v: &GameView) {
    let list = v.diagnostics.as_array().map_or(&[][..], |a| &a[..]);
    if list.is_empty() && v.stored.status != "invalid" {
        return;
    }
    out.push_str("<section class=\"diagnostics\"><h2>Diagnostics</h2><ul>");
    if let (true, Some(d)) = (list.is_empty(), &v.stored.diagnostic) {
        let _ = write!(out, "<li class=\"error\">{}</li>", escape(d));
    }
    for d in list {
        let text = |k: &str| d[k].as_str().unwrap_or("");
        let _ = write!(
            out,
            "<li class=\"{}\">line {}, column {}{}: {}</li>",
            escape(text("severity")),
            d["line"],
            d["column"],
            d["ply"]
                .as_u64()
                .map_or(String::new(), |p| format!(", ply {p}")),
            escape(text("message"))
        );
    }
    out.push_str("</ul></section>");
}

fn tags_and_original(out: &mut String, v: &GameView, id: Option<i64>) {
    out.push_str("<section class=\"tags\"><h2>Tags</h2><table class=\"tags\">");
    for (n, val) in &v.stored.tags {
        let _ = write!(
            out,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape(n),
            escape(val)
        );
    }
    let cut = if v.is_long() {
        format!(
            "; its first {} KB of {} bytes",
            LONG_TEXT / 1024,
            v.stored.original_len
        )
    } else {
        String::new()
    };
    let _ = write!(
        out,
        "</table></section><details class=\"original\"><summary>Original text ({}, line {}{cut})</summary><pre id=\"original\">{}</pre></details>",
        escape(&v.stored.source.0),
        v.stored.source.1,
        escape(&v.text)
    );
    if let Some(id) = id {
        let _ = write!(
            out,
            "<p class=\"api\"><a href=\"/api/game/{id}\">JSON</a> · <a href=\"/api/export/{id}\">XPGN</a> · <a href=\"/api/export/{id}?to=original\">original</a></p>"
        );
    }
    out.push_str("</div></div>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::pgn::parse_game;

    #[test]
    fn comments_are_shown_without_their_commands() {
        assert_eq!(
            without_commands("[%eval 0.2] [%clk 0:03:00] A fine move [%cal Gf3e5]"),
            "A fine move"
        );
        assert_eq!(without_commands("[%clk 0:03:00]"), "");
        assert_eq!(
            without_commands("no commands, [brackets] kept"),
            "no commands, [brackets] kept"
        );
        assert_eq!(without_commands("open [%clk 0:03"), "open [%clk 0:03");
    }

    #[test]
    fn variations_are_written_in_order_nested_and_deep_ones_cut() {
        let g = parse_game("1. e4 (1. d4 d5 (1... Nf6 $1 {hm})) (1. c4) e5 *", 1).unwrap();
        assert_eq!(line_text(&g.moves[0].variations[0]), "d4 d5 (Nf6! {hm})");
        assert_eq!(line_text(&g.moves[0].variations[1]), "c4");
        let mut text = String::from("1. e4 ");
        for _ in 0..200 {
            text.push_str("(1. d4 ");
        }
        for _ in 0..200 {
            text.push(')');
        }
        text.push_str(" *");
        let g = parse_game(&text, 1).unwrap();
        let line = line_text(&g.moves[0].variations[0]);
        assert!(line.starts_with("d4 (d4 (d4"), "{line}");
        assert!(line.contains("(...)"), "{line}");
    }
}
