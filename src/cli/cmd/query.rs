use std::io::Write;

use serde_json::{Map, Value, json};

use super::import::open_db;
use crate::cli::args::{QueryArgs, QueryFormat};
use crate::cli::exit::CliError;
use crate::db::query::GameFilter;
use crate::notation::coord::write_coord;
use crate::notation::position::read_position;
use crate::notation::replay::resolve_text;
use crate::rules::{Position, Variant};

/// Turns the arguments into a filter; a bad `--fen`, `--moves` or `--tag`
/// is a usage error, found before the database is touched.
fn filter(args: &QueryArgs) -> Result<GameFilter, CliError> {
    let variant = match &args.variant {
        Some(name) => Some(
            Variant::by_name(name)
                .ok_or_else(|| CliError::Usage(format!("--variant: unknown variant `{name}`")))?,
        ),
        None => None,
    };
    let board = variant.unwrap_or_else(Variant::chess);
    let mut tags = Vec::new();
    for t in &args.tag {
        let (name, value) = t.split_once('=').ok_or_else(|| {
            CliError::Usage(format!(
                "--tag `{t}`: expected NAME=VALUE, e.g. White=Carlsen"
            ))
        })?;
        tags.push((name.to_string(), value.to_string()));
    }
    for (name, value) in [
        ("White", &args.white),
        ("Black", &args.black),
        ("Event", &args.event),
    ] {
        if let Some(v) = value {
            tags.push((name.to_string(), v.clone()));
        }
    }
    let position = match &args.fen {
        Some(fen) => Some(
            read_position(board, fen)
                .map_err(|e| CliError::Usage(format!("--fen: {e}")))?
                .key(),
        ),
        None => None,
    };
    let moves_prefix = match &args.moves {
        Some(text) => {
            let mut pos = Position::start(board);
            let mut coords = Vec::new();
            for (i, m) in text.split_whitespace().enumerate() {
                let mv = resolve_text(&pos, m).map_err(|(_, e)| {
                    CliError::Usage(format!("--moves: ply {} `{m}`: {e}", i + 1))
                })?;
                coords.push(write_coord(&pos, &mv));
                pos.play_unchecked(&mv);
            }
            Some(coords.join(" "))
        }
        None => None,
    };
    Ok(GameFilter {
        variant: variant.map(|v| v.name().to_string()),
        tags,
        result: args.result.clone(),
        date_from: args.date_from.clone(),
        date_to: args.date_to.clone(),
        status: args.status.clone(),
        position,
        moves_prefix,
        limit: args.limit,
    })
}

pub(super) fn run(args: &QueryArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let filter = filter(args)?;
    if !std::path::Path::new(&args.db).exists() {
        return Err(CliError::Usage(format!(
            "--db {}: no such database",
            args.db
        )));
    }
    let db = open_db(&args.db)?;
    let games = db
        .find_games(&filter)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    match args.format {
        QueryFormat::Table => {
            writeln!(
                out,
                "{:>6}  {:<20} {:<20} {:<20} {:<7} {:<10} {:>5} {:>5}",
                "id", "variant", "white", "black", "result", "date", "plies", "ply"
            )?;
            for g in &games {
                let tag = |n: &str| {
                    g.tags
                        .iter()
                        .find(|(t, _)| t == n)
                        .map_or("", |(_, v)| v.as_str())
                        .chars()
                        .take(20)
                        .collect::<String>()
                };
                writeln!(
                    out,
                    "{:>6}  {:<20} {:<20} {:<20} {:<7} {:<10} {:>5} {:>5}",
                    g.id,
                    g.variant,
                    tag("White"),
                    tag("Black"),
                    g.result.as_deref().unwrap_or(""),
                    tag("Date"),
                    g.plies,
                    g.ply.map_or("-".to_string(), |p| p.to_string())
                )?;
            }
            writeln!(out, "{} games", games.len())?;
        }
        QueryFormat::Json => {
            for g in &games {
                let tags: Map<String, Value> = g
                    .tags
                    .iter()
                    .map(|(n, v)| (n.clone(), Value::String(v.clone())))
                    .collect();
                let line = json!({
                    "id": g.id,
                    "variant": g.variant,
                    "tags": tags,
                    "result": g.result,
                    "plies": g.plies,
                    "status": g.status,
                    "ply": g.ply,
                });
                writeln!(out, "{line}")?;
            }
        }
    }
    Ok(())
}
