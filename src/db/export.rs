//! Stored games written back out: canonical XPGN or JSON from the original
//! text read again (so comments, NAGs and variations survive), or the
//! original bytes exactly as imported. An invalid game goes out whole and
//! harmless: in XPGN as its original behind `%` escape lines and what of it
//! replays (see [`crate::notation::writer::write_invalid`]), in JSON as an
//! object with its text and diagnostics. Nothing the user gave is dropped,
//! and no game can swallow its neighbours when the export is read back.

use rusqlite::OptionalExtension;

use super::import::game_hashes;
use super::packed::{self, Decoder, PackedError};
use super::{Database, DbError, original, tags};
use crate::notation::clean::{Cleaning, clean, fixed_if_only_the_result_is_wrong, line_key};
use crate::notation::coord::write_coord;
use crate::notation::opening::Opening;
use crate::notation::position::read_position;
use crate::notation::reader::read_games;
use crate::notation::replay::check_game;
use crate::notation::san::push_san_after;
use crate::notation::writer::{
    MoveNotation, WriteOptions, write_game_with, write_invalid, write_invalid_json, write_json,
};
use crate::record::{GameRecord, MAX_INDEXED_PLY, MainLine};
use crate::rules::Position;

/// The opening of the stored columns `eco` and `opening` (both, or none).
pub(crate) fn opening_of(eco: Option<String>, name: Option<String>) -> Option<Opening> {
    Some(Opening {
        eco: eco?,
        name: name?,
    })
}

/// The form of an exported game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportForm {
    /// Canonical XPGN with SAN (as `xpgn convert --to xpgn`).
    Xpgn,
    /// One JSON document on one line (as `xpgn convert --to json`).
    Json,
    /// The bytes as imported.
    Original,
}

/// One game written out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    /// What to write.
    pub bytes: Vec<u8>,
    /// Why the game went out in its invalid form although another was
    /// asked for (its first error).
    pub unchanged: Option<String>,
    /// Its stored ECO code.
    pub eco: Option<String>,
    /// The key of its moves ([`crate::notation::clean::line_key`]), for a
    /// valid game written anew.
    pub line_key: Option<u128>,
    /// Whether the cleaning set its result from the final position.
    pub result_fixed: bool,
}

impl Exported {
    /// Whether a game written after this one needs a line end first:
    /// original bytes of a file's last game may end without one.
    pub fn open_end(&self) -> bool {
        !self.bytes.is_empty() && !self.bytes.ends_with(b"\n") && !self.bytes.ends_with(b"\r")
    }
}

impl Database {
    /// Game `id` in `form`; `None` if there is no such game.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn export_game(&self, id: i64, form: ExportForm) -> Result<Option<Exported>, DbError> {
        self.export_game_with(id, form, &Cleaning::default(), &WriteOptions::default())
    }

    /// Game `id` in `form`, a valid game changed first as `cleaning` says
    /// (its opening from the stored `eco` and `opening`); `None` if there
    /// is no such game.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn export_game_with(
        &self,
        id: i64,
        form: ExportForm,
        cleaning: &Cleaning,
        options: &WriteOptions,
    ) -> Result<Option<Exported>, DbError> {
        type Row = (
            String,
            Option<String>,
            Vec<u8>,
            Option<Opening>,
            tags::TagPairs,
        );
        let row: Option<Row> = self
            .conn
            .prepare_cached(&format!(
                "SELECT g.status, g.diagnostic, {}, g.eco, g.opening, {}
                 FROM games g WHERE g.id = ?1",
                original::ORIGINAL_SQL,
                tags::COLUMNS
            ))?
            .query_row([id], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    opening_of(r.get(3)?, r.get(4)?),
                    tags::from_row(r, 5)?,
                ))
            })
            .optional()?;
        let Some((status, diagnostic, stored, opening, stored_tags)) = row else {
            return Ok(None);
        };
        let raw = original::read(id, &stored, &stored_tags)?;
        let eco = opening.as_ref().map(|o| o.eco.clone());
        let exported = |bytes: Vec<u8>, unchanged: Option<String>| Exported {
            bytes,
            unchanged,
            eco: eco.clone(),
            line_key: None,
            result_fixed: false,
        };
        if form == ExportForm::Original {
            return Ok(Some(exported(raw, None)));
        }
        let Some(Ok((text, mut game))) = read_games(&raw[..]).next() else {
            // No game in the stored text (nothing a reader stores): it goes
            // out as it is.
            let why = diagnostic.unwrap_or_else(|| "unreadable".into());
            return Ok(Some(exported(raw, Some(why))));
        };
        let mut checked = check_game(&self.registry, &game, None);
        let mut fixed_first = false;
        if cleaning.fix_results
            && let Some((fixed, again)) =
                fixed_if_only_the_result_is_wrong(&self.registry, &game, &checked, None)
        {
            (game, checked, fixed_first) = (fixed, again, true);
        }
        if (status == "valid" || fixed_first)
            && checked.is_valid()
            && let Some(r) = &checked.replay
        {
            let mut end = r.start.clone();
            for m in &r.moves {
                end.play_unchecked(m);
            }
            let done = clean(
                &mut game,
                cleaning,
                Some(&end),
                r.moves.len(),
                opening.as_ref(),
            );
            let written = match form {
                ExportForm::Json => write_json(&self.registry, &game).map(|j| j + "\n"),
                _ => write_game_with(&self.registry, &game, MoveNotation::San, options),
            };
            if let Ok(text) = written {
                return Ok(Some(Exported {
                    line_key: Some(line_key(&r.start, &r.moves)),
                    result_fixed: done.result_fixed || fixed_first,
                    ..exported(text.into_bytes(), None)
                }));
            }
        }
        let why = checked
            .first_error()
            .map(|d| d.message.clone())
            .or(diagnostic)
            .unwrap_or_else(|| "invalid".into());
        let bytes = match form {
            ExportForm::Json => {
                (write_invalid_json(&text.text, &game, &checked) + "\n").into_bytes()
            }
            _ => write_invalid(&raw, &game, &checked, MoveNotation::San),
        };
        Ok(Some(exported(bytes, Some(why))))
    }
}

impl Database {
    /// Game `id` as the datasets hold it ([`GameRecord`]): its stored
    /// columns, its main line in coordinates and the keys of its indexed
    /// positions, decoded from the stored packed line (the same keys the
    /// position index holds for it); `None` if there is no such game.
    ///
    /// # Errors
    /// SQLite errors, or a stored main line that does not decode.
    pub fn stored_record(&self, id: i64) -> Result<Option<GameRecord>, DbError> {
        type Row = (
            String,
            Vec<(String, String)>,
            i64,
            String,
            i64,
            Option<String>,
            Option<String>,
            String,
            i64,
            Vec<u8>,
            Option<(Vec<u8>, Option<String>)>,
            Option<Opening>,
        );
        let row: Option<Row> = self
            .conn
            .prepare_cached(&format!(
                "SELECT g.variant, g.plies, g.status, g.warnings,
                        g.diagnostic, g.diagnostics,
                        (SELECT path FROM sources WHERE id = g.source), g.source_line,
                        {}, m.packed, m.start, m.game, {}, g.eco, g.opening
                 FROM games g LEFT JOIN moves m ON m.game = g.id WHERE g.id = ?1",
                original::ORIGINAL_SQL,
                tags::COLUMNS
            ))?
            .query_row([id], |r| {
                let line = match r.get::<_, Option<i64>>(11)? {
                    Some(_) => Some((r.get(9)?, r.get(10)?)),
                    None => None,
                };
                Ok((
                    r.get(0)?,
                    tags::from_row(r, 12)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                    line,
                    opening_of(r.get(21)?, r.get(22)?),
                ))
            })
            .optional()?;
        let Some((
            variant,
            tags,
            plies,
            status,
            warnings,
            diagnostic,
            diagnostics,
            source_file,
            source_line,
            original,
            line,
            opening,
        )) = row
        else {
            return Ok(None);
        };
        let corrupt = |what: &str| DbError::Corrupt {
            game: id,
            source: PackedError::Invalid {
                ply: 0,
                what: what.to_string(),
            },
        };
        let (hash, moves_hash) =
            game_hashes(&self.conn, id)?.ok_or_else(|| corrupt("no stored content hash"))?;
        let (mut keys, mut main_line) = (Vec::new(), None);
        if let Some((packed_line, start)) = line {
            let v = self
                .registry
                .lookup(&variant)
                .ok_or_else(|| corrupt("a stored main line of an unknown variant"))?;
            let mut pos = match &start {
                Some(text) => read_position(v.clone(), text)
                    .map_err(|_| corrupt("the stored start position does not read"))?,
                None => Position::start(v.clone()),
            };
            keys.push(pos.key());
            let (mut coord, mut san, mut after_null) = (String::new(), String::new(), false);
            for (i, m) in Decoder::new(&v, &packed_line).enumerate() {
                let m = m.map_err(|source| DbError::Corrupt { game: id, source })?;
                if !coord.is_empty() {
                    coord.push(' ');
                    san.push(' ');
                }
                coord.push_str(&write_coord(&pos, &m));
                after_null |= m.is_null();
                let before = (!m.is_null()).then(|| pos.clone());
                packed::play(&mut pos, &m, i + 1)
                    .map_err(|source| DbError::Corrupt { game: id, source })?;
                match &before {
                    Some(before) => push_san_after(&mut san, before, &m, &pos),
                    None => san.push_str("--"),
                }
                if !after_null && i < MAX_INDEXED_PLY {
                    keys.push(pos.key());
                }
            }
            main_line = Some(MainLine {
                start,
                packed: packed_line,
                san,
                coord,
                moves_hash: moves_hash.unwrap_or_default(),
            });
        }
        let original = original::read(id, &original, &tags)?;
        Ok(Some(GameRecord {
            hash,
            variant,
            tags: tags.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect(),
            plies: u32::try_from(plies).unwrap_or(0),
            valid: status == "valid",
            warnings: u32::try_from(warnings).unwrap_or(0),
            diagnostic,
            diagnostics: diagnostics.unwrap_or_else(|| "[]".into()),
            source_file,
            source_line: u64::try_from(source_line).unwrap_or(0),
            original,
            line: main_line,
            keys,
            opening,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::import::ImportSummary;

    #[test]
    fn valid_games_are_rewritten_and_invalid_ones_kept() {
        let text =
            "[White \"A\"]\n1. e2e4 {best} e7e5 (1... c5) 2. g1f3 *\n\n[White \"B\"]\n1. e4 Ke7 *";
        let mut db = Database::in_memory().unwrap();
        db.import(
            "t",
            text.as_bytes(),
            &mut ImportSummary::default(),
            &mut |_| {},
        )
        .unwrap();
        let xpgn = db.export_game(1, ExportForm::Xpgn).unwrap().unwrap();
        let s = String::from_utf8(xpgn.bytes).unwrap();
        assert!(
            s.ends_with("1. e4 {best} 1... e5 (1... c5) 2. Nf3 *\n\n"),
            "{s}"
        );
        assert!(s.starts_with("[Event \"?\"]\n"), "{s}");
        let json = db.export_game(1, ExportForm::Json).unwrap().unwrap();
        assert!(json.bytes.starts_with(b"{\"tags\":{\"White\":\"A\"}"));
        assert!(json.bytes.ends_with(b"}\n"));
        // The original bytes, the blank line after the game included.
        let orig = db.export_game(1, ExportForm::Original).unwrap().unwrap();
        assert_eq!(
            orig.bytes,
            b"[White \"A\"]\n1. e2e4 {best} e7e5 (1... c5) 2. g1f3 *\n\n"
        );
        let original = b"[White \"B\"]\n1. e4 Ke7 *";
        let bad = db.export_game(2, ExportForm::Original).unwrap().unwrap();
        assert_eq!((&bad.bytes[..], &bad.unchanged), (&original[..], &None));
        assert!(bad.open_end(), "the file's last game has no final line end");
        // XPGN: the original as `%` lines, then what replays, closed by `*`.
        let safe = db.export_game(2, ExportForm::Xpgn).unwrap().unwrap();
        assert!(safe.unchanged.is_some());
        let s = String::from_utf8(safe.bytes.clone()).unwrap();
        assert!(
            s.starts_with("%xpgn-original 23\n%[White \"B\"]\n%1. e4 Ke7 *\n[Event"),
            "{s}"
        );
        assert!(s.contains("\n1. e4 {xpgn: invalid game"), "{s}");
        assert!(s.ends_with("*\n\n"), "{s}");
        let (back, game) = read_games(&safe.bytes[..]).next().unwrap().unwrap();
        assert_eq!(back.raw, original);
        assert_eq!(game.tag("White"), Some("B"));
        // JSON: one object with the text and the diagnostics.
        let json = db.export_game(2, ExportForm::Json).unwrap().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&json.bytes).unwrap();
        assert_eq!(v["status"], "invalid");
        assert_eq!(v["original"], "[White \"B\"]\n1. e4 Ke7 *");
        assert_eq!(v["diagnostics"][0]["kind"], "illegal_move");
        assert_eq!(v["moves"][0]["san"], "e4");
        assert_eq!(db.export_game(3, ExportForm::Xpgn).unwrap(), None);
    }
}
