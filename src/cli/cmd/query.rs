use std::io::Write;

use serde_json::{Map, Value, json};

use super::{shown, shown_message};
use crate::cli::args::{FilterArgs, QueryArgs, QueryFormat};
use crate::cli::exit::CliError;
use xpgn::db::Database;
use xpgn::db::export::ExportForm;
use xpgn::db::pattern::{PositionPattern, parse_material, parse_piece};
use xpgn::db::query::{
    DateRange, EcoRange, FoundGame, GameFilter, SearchPositions, search_positions,
};
use xpgn::notation::annotations::{PlyNotes, main_line, plies_json, summary_json};
use xpgn::notation::position::FenField;
use xpgn::notation::reader::read_games;
use xpgn::notation::replay::resolve_text;
use xpgn::rules::{Position, Registry, Variant};

/// Opens an existing database to read, with a message that says which
/// file and why it cannot be.
pub(super) fn open_to_read(registry: &Registry, path: &str) -> Result<Database, CliError> {
    let mut db = Database::open_existing(std::path::Path::new(path))
        .map_err(|e| super::db_error(path, e))?;
    super::use_variants(&mut db, registry, path)?;
    Ok(db)
}

/// [`open_to_read`] when the file exists: commands open the database
/// before reading their arguments, so that the variants it stores are
/// known, but a missing one is reported only after the arguments.
pub(super) fn open_if_exists(
    registry: &Registry,
    path: &str,
) -> Result<Option<Database>, CliError> {
    if std::path::Path::new(path).exists() {
        open_to_read(registry, path).map(Some)
    } else {
        Ok(None)
    }
}

/// The variant `--variant` names.
pub(super) fn variant_arg(registry: &Registry, name: &str) -> Result<Variant, CliError> {
    registry
        .lookup(name)
        .ok_or_else(|| super::unknown_variant(registry, "--variant: ", name))
}

/// The moves of `text` without move numbers: `1.`, `12...` and the
/// number glued to a move (`1.e4`, `1...e5`) are dropped.
pub(super) fn move_tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split_whitespace().filter_map(|token| {
        let rest = token.trim_start_matches(|c: char| c.is_ascii_digit());
        if rest.len() < token.len() && rest.starts_with(['.', '\u{2026}']) {
            let mv = rest.trim_start_matches(['.', '\u{2026}']);
            (!mv.is_empty()).then_some(mv)
        } else {
            Some(token)
        }
    })
}

/// Plays `text`, moves in any notation with or without move numbers,
/// from `pos`.
pub(super) fn play_moves(
    pos: &mut Position,
    text: &str,
) -> Result<Vec<xpgn::rules::Move>, CliError> {
    let mut played = Vec::new();
    for (i, m) in move_tokens(text).enumerate() {
        let mv = resolve_text(pos, m).map_err(|(_, e)| {
            CliError::Usage(format!(
                "--moves: ply {} `{}`: {}",
                i + 1,
                shown(m),
                shown_message(&e)
            ))
        })?;
        pos.play_unchecked(&mv);
        played.push(mv);
    }
    Ok(played)
}

/// A game's status as the table shows it: `valid`, `warned` (valid, with
/// warnings) or `invalid`.
fn shown_status(db: &Database, g: &FoundGame) -> Result<&'static str, xpgn::db::DbError> {
    if g.status != "valid" {
        return Ok("invalid");
    }
    let diagnostics = db.game_diagnostics(g.id)?;
    let warned = diagnostics
        .as_array()
        .is_some_and(|a| a.iter().any(|d| d["severity"] == "warning"));
    Ok(if warned { "warned" } else { "valid" })
}

/// The positions `--fen` stands for (see [`search_positions`]).
pub(super) fn fen_positions(variant: &Variant, fen: &str) -> Result<SearchPositions, CliError> {
    search_positions(variant, fen)
        .map_err(|e| CliError::Usage(format!("--fen: {}", shown_message(&e.to_string()))))
}

/// The line that says what a partial `--fen` searched; `None` for a whole
/// position string.
pub(super) fn partial_note(found: &SearchPositions) -> Option<String> {
    if found.varied.is_empty() {
        return None;
    }
    let what = if found.varied.contains(&FenField::Turn) {
        "board only"
    } else {
        "partial position"
    };
    let fields: Vec<String> = found.varied.iter().map(|f| f.to_string()).collect();
    Some(format!(
        "{what}: searched any {} ({} states)",
        fields.join(", "),
        found.positions.len()
    ))
}

/// A `--date-from` or `--date-to` value.
fn date_arg(flag: &str, value: &Option<String>) -> Result<Option<DateRange>, CliError> {
    value
        .as_deref()
        .map(|d| {
            DateRange::parse(d)
                .map_err(|e| CliError::Usage(format!("{flag}: {}", shown_message(&e.to_string()))))
        })
        .transpose()
}

/// Turns the arguments into a filter and the note a partial `--fen`
/// gives; a bad `--fen`, `--moves`, `--tag`, date, `--piece` or
/// `--material` is a usage error, found before the database is touched.
pub(super) fn filter(
    registry: &Registry,
    args: &FilterArgs,
) -> Result<(GameFilter, Option<String>), CliError> {
    let variant = args
        .variant
        .as_deref()
        .map(|name| variant_arg(registry, name))
        .transpose()?;
    let board = variant.clone().unwrap_or_else(Variant::chess);
    // `NAME=TEXT` is answered in SQL; comparisons, and the `Player` and
    // `Elo` pseudo-tags, by reading the games the rest selects.
    let mut tags = Vec::new();
    let mut tests = Vec::new();
    for test in super::filter::tag_tests(&args.tag)? {
        if test.is_text_contains() && !matches!(test.name.as_str(), "Player" | "Elo") {
            tags.push((test.name, test.value));
        } else {
            tests.push(test);
        }
    }
    let mut selection = super::filter::selection(tests, &args.select)?;
    let (min_plies, max_plies) = (selection.min_plies.take(), selection.max_plies.take());
    for (name, value) in [
        ("White", &args.white),
        ("Black", &args.black),
        ("Event", &args.event),
    ] {
        if let Some(v) = value {
            tags.push((name.to_string(), v.clone()));
        }
    }
    let mut note = None;
    let any_position = match &args.fen {
        Some(fen) => {
            let found = fen_positions(&board, fen)?;
            note = partial_note(&found);
            found.positions.iter().map(Position::key).collect()
        }
        None => Vec::new(),
    };
    let date_from = date_arg("--date-from", &args.date_from)?;
    let date_to = date_arg("--date-to", &args.date_to)?;
    let moves_prefix = match &args.moves {
        Some(text) => Some(play_moves(&mut Position::start(board.clone()), text)?),
        None => None,
    };
    let pieces = args
        .piece
        .iter()
        .map(|p| {
            parse_piece(&board, p)
                .map_err(|e| CliError::Usage(format!("--piece {}", shown_message(&e.to_string()))))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let material = args
        .material
        .as_deref()
        .map(|m| {
            parse_material(&board, m).map_err(|e| {
                CliError::Usage(format!("--material {}", shown_message(&e.to_string())))
            })
        })
        .transpose()?;
    let eco = args
        .eco
        .as_deref()
        .map(|e| {
            EcoRange::parse(e)
                .map_err(|e| CliError::Usage(format!("--eco: {}", shown_message(&e.to_string()))))
        })
        .transpose()?;
    let polyglot = args
        .polyglot
        .as_deref()
        .map(|hex| polyglot_arg(&board, hex))
        .transpose()?;
    let pattern = (!pieces.is_empty() || material.is_some() || polyglot.is_some()).then(|| {
        let pattern = PositionPattern::new(board, pieces, material);
        match polyglot {
            Some(key) => pattern.with_polyglot(key),
            None => pattern,
        }
    });
    // Polyglot keys are orthodox chess's: only its games are scanned.
    let variant = variant.or_else(|| polyglot.map(|_| Variant::chess()));
    let filter = GameFilter {
        variant: variant.map(|v| v.name().to_string()),
        tags,
        player: args.player.clone(),
        result: args.result.clone(),
        date_from,
        date_to,
        status: args.status.clone(),
        position: None,
        any_position,
        moves_prefix,
        pattern,
        eco,
        opening: args.opening.clone(),
        min_plies: min_plies.map(|n| n as u64),
        max_plies: max_plies.map(|n| n as u64),
        selection: (!selection.is_empty()).then_some(selection),
        limit: args.limit,
        offset: None,
    };
    Ok((filter, note))
}

/// The key `--polyglot HEX` names: 16 hexadecimal digits (a `0x` before
/// them is allowed), for orthodox chess only.
fn polyglot_arg(board: &Variant, hex: &str) -> Result<u64, CliError> {
    if board.name() != "chess" {
        return Err(CliError::Usage(format!(
            "--polyglot: Polyglot keys are defined for orthodox chess only, not {}",
            board.name()
        )));
    }
    let digits = hex.trim();
    let digits = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
        .unwrap_or(digits);
    if digits.is_empty() || digits.len() > 16 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(CliError::Usage(format!(
            "--polyglot `{}`: expected a key of 16 hexadecimal digits, such as 463b96181691fc9c",
            shown(hex)
        )));
    }
    u64::from_str_radix(digits, 16).map_err(|e| CliError::Usage(format!("--polyglot: {e}")))
}

/// The games the filter arguments select, from the database they name, and
/// the note a partial `--fen` gives.
pub(super) fn select(
    registry: &Registry,
    args: &FilterArgs,
) -> Result<(Database, Vec<FoundGame>, Option<String>), CliError> {
    // The stored definitions are registered before `--variant` is read;
    // a database that does not exist is not created by a faulty argument.
    let early = open_if_exists(registry, &args.db)?;
    let (filter, note) = filter(early.as_ref().map_or(registry, Database::registry), args)?;
    let db = match early {
        Some(db) => db,
        None => open_to_read(registry, &args.db)?,
    };
    let games = db
        .find_games(&filter)
        .map_err(|e| super::db_error(&args.db, e))?;
    Ok((db, games, note))
}

pub(super) fn run(
    registry: &Registry,
    args: &QueryArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if args.annotations && args.format != QueryFormat::Json {
        return Err(CliError::Usage(
            "--annotations lists plies in the JSON output: give --format json too".into(),
        ));
    }
    let (db, games, note) = select(registry, &args.filter)?;
    match (&note, args.format) {
        (Some(note), QueryFormat::Table) => writeln!(out, "{note}")?,
        (Some(note), _) => eprintln!("xpgn: {note}"),
        (None, _) => {}
    }
    let db_error = |e: xpgn::db::DbError| super::db_error(&args.filter.db, e);
    match args.format {
        QueryFormat::Table => {
            writeln!(
                out,
                "{:>6}  {:<20} {:<20} {:<20} {:<7} {:<10} {:>5} {:>5}  {:<7}  {:<3}  event",
                "id",
                "variant",
                "white",
                "black",
                "result",
                "date",
                "plies",
                "ply",
                "status",
                "eco"
            )?;
            for g in &games {
                let cut = |v: &Option<String>| {
                    v.as_deref()
                        .unwrap_or("")
                        .chars()
                        .take(20)
                        .collect::<String>()
                };
                writeln!(
                    out,
                    "{:>6}  {:<20} {:<20} {:<20} {:<7} {:<10} {:>5} {:>5}  {:<7}  {:<3}  {}",
                    g.id,
                    g.variant,
                    cut(&g.white),
                    cut(&g.black),
                    g.result.as_deref().unwrap_or(""),
                    cut(&g.date),
                    g.plies,
                    g.ply.map_or("-".to_string(), |p| p.to_string()),
                    shown_status(&db, g).map_err(db_error)?,
                    shown(g.eco.as_deref().unwrap_or("-")),
                    shown(&cut(&g.event)),
                )?;
                if args.filter.status.is_some() {
                    // Asked for by status: say why each game has it.
                    let diagnostics = db
                        .game_diagnostics(g.id)
                        .map_err(|e| super::db_error(&args.filter.db, e))?;
                    for d in diagnostics.as_array().into_iter().flatten() {
                        writeln!(
                            out,
                            "        {}: line {}, column {}{}: {}",
                            d["severity"].as_str().unwrap_or("error"),
                            d["line"],
                            d["column"],
                            d["ply"]
                                .as_u64()
                                .map_or(String::new(), |p| format!(", ply {p}")),
                            shown_message(d["message"].as_str().unwrap_or(""))
                        )?;
                    }
                }
            }
            let cut_short = args
                .filter
                .limit
                .is_some_and(|limit| games.len() as u64 >= limit);
            if cut_short {
                // The limit cut the list: say how many games match.
                let all = filter(db.registry(), &args.filter)?.0;
                let total = db.count_games(&all).map_err(db_error)?;
                writeln!(
                    out,
                    "{} of {}",
                    games.len(),
                    super::import::plural(
                        usize::try_from(total).unwrap_or(usize::MAX),
                        "game",
                        "games"
                    )
                )?;
            } else {
                writeln!(
                    out,
                    "{}",
                    super::import::plural(games.len(), "game", "games")
                )?;
            }
        }
        QueryFormat::Json => {
            for g in &games {
                let tags: Map<String, Value> = db
                    .game_tags(g.id)
                    .map_err(|e| super::db_error(&args.filter.db, e))?
                    .into_iter()
                    .map(|(n, v)| (n, Value::String(v)))
                    .collect();
                let diagnostics = db
                    .game_diagnostics(g.id)
                    .map_err(|e| super::db_error(&args.filter.db, e))?;
                let plies = stored_main_line(&db, g.id, &g.variant).map_err(db_error)?;
                let (clocks, final_eval) = summary_json(&plies);
                let mut line = json!({
                    "id": g.id,
                    "variant": g.variant,
                    "tags": tags,
                    "result": g.result,
                    "plies": g.plies,
                    "status": g.status,
                    "ply": g.ply,
                    "eco": g.eco,
                    "opening": g.opening,
                    "diagnostics": diagnostics,
                    "clocks": clocks,
                    "final_eval": final_eval,
                });
                if args.annotations {
                    line["annotations"] = plies_json(&plies);
                }
                writeln!(out, "{line}")?;
            }
        }
        QueryFormat::Xpgn => {
            for g in &games {
                if let Some(e) = db
                    .export_game(g.id, ExportForm::Xpgn)
                    .map_err(|e| super::db_error(&args.filter.db, e))?
                {
                    out.write_all(&e.bytes)?;
                }
            }
        }
    }
    Ok(())
}

/// The main line of stored game `id` (of variant `variant`) with what
/// its comments say, read from the text as imported.
fn stored_main_line(
    db: &xpgn::db::Database,
    id: i64,
    variant: &str,
) -> Result<Vec<PlyNotes>, xpgn::db::DbError> {
    let Some(original) = db.export_game(id, ExportForm::Original)? else {
        return Ok(Vec::new());
    };
    let Some(Ok((_, mut game))) = read_games(&original.bytes[..]).next() else {
        return Ok(Vec::new());
    };
    // A game imported with --variant has no Variant tag: the stored
    // variant names it.
    if !game
        .tags
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("Variant"))
    {
        game.tags.push(("Variant".into(), variant.into()));
    }
    Ok(main_line(db.registry(), &game))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_dropped_wherever_they_stand() {
        fn tokens(t: &str) -> Vec<&str> {
            move_tokens(t).collect()
        }
        assert_eq!(tokens("1. e4 e5 2. Nf3"), ["e4", "e5", "Nf3"]);
        assert_eq!(tokens("1.e4 e5 2.Nf3"), ["e4", "e5", "Nf3"]);
        assert_eq!(tokens("1... e5 12...Nc6 3\u{2026}a6"), ["e5", "Nc6", "a6"]);
        assert_eq!(tokens("e2e4 e7e5"), ["e2e4", "e7e5"]);
        // A number that is no move number stays, to be refused as a move.
        assert_eq!(tokens("12 e4"), ["12", "e4"]);
    }
}
