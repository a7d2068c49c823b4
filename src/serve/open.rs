//! Opening a game file without importing it: the text a page posts
//! (pasted, or a file dropped or chosen) is read and checked in memory,
//! as an import would check it, and shown with the board and its
//! diagnostics. Nothing is written: the database is not even asked,
//! except for the opening tree of the position shown.
//!
//! Bounded: the body is at most [`MAX_BODY`] bytes (a larger one is
//! refused with `413` before it is read) and arrives by the request's
//! deadline like any request; at most [`MAX_GAMES`] of its games are read.

use std::fmt::Write;
use std::time::Instant;

use serde_json::{Value, json};

use super::http::{MAX_BODY, Request, Response, percent_decode};
use super::pages::{Fault, GameView, MOVES_PAGE, game_body, page};
use crate::db::Database;
use crate::notation::reader::read_games;
use crate::render::escape;
use crate::rules::Registry;

/// Most games of one text read.
pub(crate) const MAX_GAMES: usize = 2000;

/// What a request posts: the text, the game asked for (from 1) and the
/// ply to show (as the query's `ply` is read).
struct Posted {
    text: Vec<u8>,
    game: Option<usize>,
    ply: Option<String>,
}

/// The text a request posts, the game and the ply asked for: a form's
/// `text`, `game` and `ply` fields, or the body itself (with `game` and
/// `ply` in the query).
fn posted(req: &Request) -> Result<Posted, Fault> {
    let form = req
        .content_type
        .as_deref()
        .is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
    let mut game = req.param("game").map(str::to_string);
    let mut ply = req.param("ply").map(str::to_string);
    let text = if form {
        let body = std::str::from_utf8(&req.body)
            .map_err(|_| Fault::BadRequest("the form is not URL-encoded text".into()))?;
        let mut text = Vec::new();
        for pair in body.split('&') {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = percent_decode(value, true).ok_or_else(|| {
                Fault::BadRequest(format!("the form's {name} field has a bad escape"))
            })?;
            match name {
                "text" => text = value.into_bytes(),
                "game" if !value.is_empty() => game = Some(value),
                "ply" if !value.is_empty() => ply = Some(value),
                _ => {}
            }
        }
        text
    } else {
        req.body.clone()
    };
    if text.iter().all(u8::is_ascii_whitespace) {
        return Err(Fault::BadRequest(
            "no text was sent: paste or drop a PGN or XPGN file".into(),
        ));
    }
    let game = game
        .map(|g| {
            g.trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| Fault::BadRequest("game must be a number from 1".into()))
        })
        .transpose()?;
    Ok(Posted { text, game, ply })
}

/// The games of `text`, each read and checked (at most [`MAX_GAMES`]).
fn read_all(registry: &Registry, text: &[u8]) -> Vec<GameView> {
    read_games(text)
        .filter_map(Result::ok)
        .take(MAX_GAMES)
        .map(|(t, g)| GameView::opened(registry, t, g))
        .collect()
}

/// `GET /open`: the form to paste a text into, or drop or choose a file
/// (the page's script reads a file into the text box).
pub(crate) fn open_form() -> Response {
    let mut out = String::from("<h1>Open a game file</h1>");
    let _ = write!(
        out,
        "<p class=\"note\">Paste PGN or XPGN text, or drop or choose a file (at most {} MB): it is read and checked here as an import checks it, shown with its diagnostics, and never stored.</p>",
        MAX_BODY / (1024 * 1024)
    );
    open_form_fields(&mut out, "");
    page("Open a file", &out)
}

fn open_form_fields(out: &mut String, text: &str) {
    let _ = write!(
        out,
        "<form class=\"open-form\" id=\"open-form\" method=\"post\" action=\"/open\"><label for=\"open-text\">Game text</label><textarea name=\"text\" id=\"open-text\" rows=\"12\" spellcheck=\"false\" data-max=\"{MAX_BODY}\">{}</textarea><p class=\"open-file\"><label>or a file <input type=\"file\" id=\"open-file\" accept=\".pgn,.xpgn,.txt,text/plain\"></label> <button type=\"submit\" id=\"open-submit\">Open</button></p><p class=\"board-message\" id=\"open-message\" role=\"status\" aria-live=\"polite\"></p></form>",
        escape(text)
    );
}

/// `POST /open`: the games of the text sent, one shown with the board,
/// its moves and diagnostics (`game`, default the first), the others
/// listed with theirs.
pub(crate) fn open_page(
    db: &Database,
    req: &Request,
    deadline: Instant,
) -> Result<Response, Fault> {
    let Posted {
        text,
        game: chosen,
        ply,
    } = posted(req)?;
    let games = read_all(db.registry(), &text);
    if games.is_empty() {
        return Err(Fault::BadRequest("no game was found in the text".into()));
    }
    let n = chosen.unwrap_or(1);
    let Some(shown) = games.get(n - 1) else {
        return Err(Fault::BadRequest(format!(
            "game {n}: the text has {} games",
            games.len()
        )));
    };
    let valid = games.iter().filter(|g| g.stored.status == "valid").count();
    let mut out = String::from("<section class=\"opened\" id=\"opened\">");
    let _ = write!(
        out,
        "<p class=\"note\">Opened text, not stored: {} game{} read, {valid} valid, {} invalid.</p>",
        games.len(),
        if games.len() == 1 { "" } else { "s" },
        games.len() - valid
    );
    if games.len() > 1 {
        opened_list(&mut out, &games, n, &text);
    }
    out.push_str("</section>");
    // The game is shown at the ply asked for, wherever it was given.
    let shown_at = Request {
        query: req
            .query
            .iter()
            .filter(|(name, _)| name != "ply")
            .cloned()
            .chain(ply.map(|p| ("ply".to_string(), p)))
            .collect(),
        method: req.method.clone(),
        path: req.path.clone(),
        host: req.host.clone(),
        content_type: req.content_type.clone(),
        body: Vec::new(),
    };
    let (title, body) = game_body(db, &shown_at, shown, None, deadline)?;
    out.push_str(&body);
    if shown.plies() >= MOVES_PAGE {
        window_form(&mut out, &text, n);
    }
    Ok(page(&format!("{title} (opened)"), &out))
}

/// The form the buttons to another window of moves post (`ply` is the
/// button's): the text again, and the game shown. The server keeps no
/// opened text, so the page holds it to send back; the page's script
/// sends it as the body itself (`POST /open?game=N&ply=P`).
fn window_form(out: &mut String, text: &[u8], game: usize) {
    let _ = write!(
        out,
        "<form id=\"open-window\" method=\"post\" action=\"/open\" hidden><input type=\"hidden\" name=\"game\" value=\"{game}\"><textarea name=\"text\" id=\"open-window-text\" hidden>{}</textarea></form>",
        escape(&crate::notation::reader::decode(text).0)
    );
}

/// The games of an opened text as a table, and a form to show another.
fn opened_list(out: &mut String, games: &[GameView], shown: usize, text: &[u8]) {
    out.push_str("<table class=\"games opened-games\"><thead><tr><th>#</th><th>White</th><th>Black</th><th>result</th><th>plies</th><th>status</th><th>first error</th></tr></thead><tbody>");
    for (i, g) in games.iter().enumerate() {
        let tag = |name: &str| {
            g.stored
                .tags
                .iter()
                .find(|(n, _)| n == name)
                .map_or(String::new(), |(_, v)| escape(v))
        };
        let _ = write!(
            out,
            "<tr class=\"{}{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&g.stored.status),
            if i + 1 == shown { " played" } else { "" },
            i + 1,
            tag("White"),
            tag("Black"),
            tag("Result"),
            g.stored.plies,
            escape(&g.stored.status),
            escape(g.stored.diagnostic.as_deref().unwrap_or("")),
        );
    }
    out.push_str("</tbody></table><form class=\"open-choose\" method=\"post\" action=\"/open\"><textarea name=\"text\" hidden>");
    out.push_str(&escape(&crate::notation::reader::decode(text).0));
    out.push_str("</textarea><label>show game <select name=\"game\" id=\"open-game\">");
    for i in 1..=games.len() {
        let sel = if i == shown { " selected" } else { "" };
        let _ = write!(out, "<option value=\"{i}\"{sel}>{i}</option>");
    }
    out.push_str("</select></label> <button type=\"submit\">Show</button></form>");
}

/// `POST /api/open`: the games of the text sent, each with its tags,
/// status, plies and diagnostics.
pub(crate) fn open_json(db: &Database, req: &Request) -> Result<Value, Fault> {
    let text = posted(req)?.text;
    let games = read_all(db.registry(), &text);
    Ok(json!({
        "games": games.iter().enumerate().map(|(i, g)| json!({
            "number": i + 1,
            "variant": g.stored.variant,
            "status": g.stored.status,
            "tags": g.stored.tags,
            "plies": g.stored.plies,
            "diagnostics": g.diagnostics,
        })).collect::<Vec<_>>(),
    }))
}
