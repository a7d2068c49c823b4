//! Stored games written back out: canonical XPGN or JSON from the original
//! text read again (so comments, NAGs and variations survive), or the
//! original bytes exactly as imported. An invalid game always goes out as
//! its original bytes: nothing the user gave is dropped.

use rusqlite::OptionalExtension;

use super::{Database, DbError};
use crate::notation::reader::read_games;
use crate::notation::writer::{MoveNotation, write_game, write_json};

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
    /// What to write, separator included.
    pub bytes: Vec<u8>,
    /// Whether these are the original bytes although another form was
    /// asked for: the game is invalid, or (stored by an older reader) no
    /// longer reads; the reason.
    pub unchanged: Option<String>,
}

/// The original bytes ending in a blank line, as games are separated; a
/// game whose bytes hold one already (an unclosed comment runs to the end
/// of its file) gets none more, so a file exports to itself.
fn original(mut raw: Vec<u8>) -> Vec<u8> {
    while !raw.ends_with(b"\n\n") {
        raw.push(b'\n');
    }
    raw
}

impl Database {
    /// Game `id` in `form`; `None` if there is no such game.
    ///
    /// # Errors
    /// SQLite errors.
    pub fn export_game(&self, id: i64, form: ExportForm) -> Result<Option<Exported>, DbError> {
        let row: Option<(String, Option<String>, Vec<u8>)> = self
            .conn
            .prepare_cached("SELECT status, diagnostic, original FROM games WHERE id = ?1")?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()?;
        let Some((status, diagnostic, raw)) = row else {
            return Ok(None);
        };
        if form == ExportForm::Original {
            return Ok(Some(Exported {
                bytes: original(raw),
                unchanged: None,
            }));
        }
        if status != "valid" {
            return Ok(Some(Exported {
                bytes: original(raw),
                unchanged: Some(diagnostic.unwrap_or_else(|| "invalid".into())),
            }));
        }
        let written = match read_games(&raw[..]).next() {
            Some(Ok((_, Ok(game)))) => match form {
                ExportForm::Json => write_json(&game).map(|j| j + "\n"),
                _ => write_game(&game, MoveNotation::San),
            }
            .map_err(|e| e.to_string()),
            Some(Ok((_, Err(e)))) => Err(e.to_string()),
            Some(Err(e)) => Err(e.to_string()),
            None => Err("no game in the stored text".into()),
        };
        Ok(Some(match written {
            Ok(text) => Exported {
                bytes: text.into_bytes(),
                unchanged: None,
            },
            Err(why) => Exported {
                bytes: original(raw),
                unchanged: Some(why),
            },
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
        let orig = db.export_game(1, ExportForm::Original).unwrap().unwrap();
        assert_eq!(
            orig.bytes,
            b"[White \"A\"]\n1. e2e4 {best} e7e5 (1... c5) 2. g1f3 *\n\n"
        );
        for form in [ExportForm::Xpgn, ExportForm::Json, ExportForm::Original] {
            let bad = db.export_game(2, form).unwrap().unwrap();
            assert_eq!(bad.bytes, b"[White \"B\"]\n1. e4 Ke7 *\n\n");
            assert_eq!(bad.unchanged.is_some(), form != ExportForm::Original);
        }
        assert_eq!(db.export_game(3, ExportForm::Xpgn).unwrap(), None);
    }
}
