//! `/pattern` and `/api/pattern`: the games with a main-line position
//! showing pieces on squares and material, as `xpgn query --piece` and
//! `--material` find them; and the patterns of a position, which the
//! board editor offers to search.

use std::fmt::Write;

use serde_json::{Value, json};

use super::http::{Request, percent_encode};
use super::pages::{
    Answer, Fault, found_json, games_table, page, page_of, pager, paging, printable, variant_param,
    variant_select, with_page,
};
use crate::db::Database;
use crate::db::pattern::{PositionPattern, parse_material, parse_piece};
use crate::db::query::{FoundGame, GameFilter};
use crate::render::escape;
use crate::rules::{Color, Position, Variant};

/// Most piece constraints one request may give (more than any board
/// holds pieces).
const MAX_PIECES: usize = 256;

/// A pattern search as a request gives it: the variant (default chess),
/// the `piece` constraints (each `piece=` and the words of `pieces=`),
/// the `material` signature.
struct PatternRequest {
    variant: Variant,
    pieces: Vec<String>,
    material: Option<String>,
}

impl PatternRequest {
    fn read(db: &Database, req: &Request) -> Result<PatternRequest, Fault> {
        let variant = variant_param(db, req)?.unwrap_or_else(Variant::chess);
        let mut pieces = Vec::new();
        for (name, value) in &req.query {
            match name.as_str() {
                "piece" if !value.trim().is_empty() => pieces.push(value.trim().to_string()),
                "pieces" => pieces.extend(value.split_whitespace().map(str::to_string)),
                _ => {}
            }
        }
        if pieces.len() > MAX_PIECES {
            return Err(Fault::BadRequest(format!(
                "{} pieces given: at most {MAX_PIECES}",
                pieces.len()
            )));
        }
        Ok(PatternRequest {
            variant,
            pieces,
            material: req.param("material").map(|m| m.trim().to_string()),
        })
    }

    /// The filter of `xpgn query --variant V --piece … --material …`.
    fn filter(&self) -> Result<GameFilter, Fault> {
        if self.pieces.is_empty() && self.material.is_none() {
            return Err(Fault::BadRequest(
                "give a piece (piece=SIDE:LETTER@SQUARE, as white:K@e1) or a material signature (material=white:Q1,R2;black:Q0)".into(),
            ));
        }
        let bad = |what: &str, e: crate::db::pattern::PatternError| {
            Fault::BadRequest(format!("{what} {}", printable(&e.to_string())))
        };
        let pieces = self
            .pieces
            .iter()
            .map(|p| parse_piece(&self.variant, p).map_err(|e| bad("piece", e)))
            .collect::<Result<Vec<_>, _>>()?;
        let material = self
            .material
            .as_deref()
            .map(|m| parse_material(&self.variant, m).map_err(|e| bad("material", e)))
            .transpose()?;
        Ok(GameFilter {
            variant: Some(self.variant.name().to_string()),
            pattern: Some(PositionPattern::new(self.variant.clone(), pieces, material)),
            ..GameFilter::default()
        })
    }

    fn search(&self, db: &Database, paging: (u64, u64)) -> Result<(Vec<FoundGame>, bool), Fault> {
        page_of(db, self.filter()?, paging)
    }
}

/// The `piece` constraints of every piece on `pos`'s board
/// (`white:K@e1`, `black:p@e7`), as the editor offers them.
pub(super) fn pieces_of(pos: &Position) -> Vec<String> {
    let variant = pos.variant();
    let mut specs = Vec::new();
    for color in Color::BOTH {
        for sq in pos.occupied_by(color).iter() {
            if let Some(p) = pos.piece_at(sq) {
                let letter = variant.piece_def(p.kind).letter;
                let (side, letter) = match color {
                    Color::White => ("white", letter.to_ascii_uppercase()),
                    Color::Black => ("black", letter.to_ascii_lowercase()),
                };
                specs.push(format!("{side}:{letter}@{sq}"));
            }
        }
    }
    specs
}

/// The material signature of exactly the pieces on `pos`'s board: every
/// type of the variant with its count for each side
/// (`white:K1,Q1,R2,B2,N2,P8;black:…`), as the editor offers it.
pub(super) fn material_of(pos: &Position) -> String {
    let variant = pos.variant();
    let sides: Vec<String> = Color::BOTH
        .into_iter()
        .map(|color| {
            let terms: Vec<String> = variant
                .kinds()
                .map(|kind| {
                    let n = pos
                        .occupied_by(color)
                        .iter()
                        .filter(|&sq| pos.piece_at(sq).is_some_and(|p| p.kind == kind))
                        .count();
                    format!("{}{n}", variant.piece_def(kind).letter.to_ascii_uppercase())
                })
                .collect();
            let side = match color {
                Color::White => "white",
                Color::Black => "black",
            };
            format!("{side}:{}", terms.join(","))
        })
        .collect();
    sides.join(";")
}

/// `GET /api/pattern?variant=V&piece=S&…&material=M&page=P&per=N`.
pub(super) fn pattern_json(db: &Database, req: &Request) -> Result<Value, Fault> {
    let asked = PatternRequest::read(db, req)?;
    let paging = paging(req)?;
    let (games, more) = asked.search(db, paging)?;
    Ok(json!({
        "variant": asked.variant.name(), "pieces": asked.pieces, "material": asked.material,
        "page": paging.0, "per": paging.1, "more": more,
        "games": games.iter().map(found_json).collect::<Vec<_>>(),
    }))
}

/// `/pattern`: the search's form (to refine it) and a page of the games,
/// each linked at the first ply where the pattern stands.
pub(super) fn pattern_page(db: &Database, req: &Request) -> Answer {
    let asked = PatternRequest::read(db, req)?;
    let paging = paging(req)?;
    let (games, more) = asked.search(db, paging)?;
    let mut out = String::from(
        "<h1>Pattern search</h1><form class=\"position-form\" id=\"pattern-form\" method=\"get\" action=\"/pattern\"><label>variant ",
    );
    variant_select(&mut out, db, asked.variant.name());
    let _ = write!(
        out,
        "</label> <label>pieces <input name=\"pieces\" id=\"f-pieces\" size=\"60\" value=\"{}\" title=\"SIDE:LETTER@SQUARE, separated by spaces\"></label> <label>material <input name=\"material\" id=\"f-material\" size=\"40\" value=\"{}\" title=\"as white:Q1,R2,P&gt;=5;black:Q0\"></label> <button type=\"submit\">Search</button></form>",
        escape(&asked.pieces.join(" ")),
        escape(asked.material.as_deref().unwrap_or(""))
    );
    out.push_str("<p class=\"note\">Games with one main-line position where every piece given stands on its square and each side's material is within its bounds; each is linked at the first such ply.</p><section class=\"reaching\" id=\"pattern-games\">");
    if games.is_empty() {
        out.push_str("<p class=\"empty\">No stored game shows this pattern.</p>");
    } else {
        games_table(&mut out, &games, true);
    }
    pager(&mut out, req, "/pattern", paging.0, more);
    let _ = write!(
        out,
        "</section><p class=\"api\"><a href=\"/api/pattern?{}\">JSON</a> · <a href=\"/editor?variant={}\">board editor</a></p>",
        escape(&with_page(req, paging.0)),
        escape(&percent_encode(asked.variant.name()))
    );
    Ok(page("Pattern search", &out))
}
