//! How a game's tag pairs are stored (schema 7). The columns `event`,
//! `site`, `date`, `round`, `white`, `black` and `result` hold the first
//! tag of each of those names. When a game's tags begin with exactly the
//! Seven Tag Roster in its order (most PGN games), `roster` is 1 and
//! `more_tags` holds the pairs after it; otherwise `roster` is 0 and
//! `more_tags` holds every pair. `more_tags` is a JSON array of
//! `[name, value]` pairs in the order written. Schema 3 to 6 kept every
//! pair in `tags`, the seven again: 150 bytes a game of a TWIC issue.
//!
//! Since schema 12 a game whose text is stored in a frame (its whole
//! text, tags included: docs/database.md) and that has at most one tag
//! of each of the seven names has `roster` 2: its tags are those its
//! text gives ([`text_tags`], through the SQL function `xpgn_text_tags`),
//! `more_tags` is empty, and the seven columns hold what they always
//! hold (so a filter on one of the seven reads only its column).
//!
//! Every reader of a game's tags goes through [`COLUMNS`] and
//! [`from_row`]; tag filters through [`has_tag_sql`] and
//! [`has_player_sql`].

use rusqlite::Row;

use super::original::original_sql;
use crate::notation::pgn::read_with;
use crate::notation::reader::decode_borrowed;
use crate::notation::span::Location;
use crate::notation::tag_list::TagList;
use crate::notation::visitor::{At, Flow, Visitor};

/// A game's tag pairs, in the order written.
pub(crate) type TagPairs = Vec<(String, String)>;

/// The Seven Tag Roster, in its order, as its columns hold it.
pub(crate) const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// `roster` of a game whose tags are those of its stored text.
pub(crate) const FROM_TEXT: i64 = 2;

/// The JSON array of the tags besides the seven columns: all of a
/// [`FROM_TEXT`] game's, read from its text.
macro_rules! more_tags_sql {
    () => {
        concat!(
            "CASE g.roster WHEN 2 THEN xpgn_text_tags(",
            original_sql!(),
            ") ELSE g.more_tags END"
        )
    };
}

/// The columns (of `games` as `g`) [`from_row`] reads, in its order.
pub(crate) const COLUMNS: &str = concat!(
    "g.roster, g.event, g.site, g.date, g.round, g.white, g.black, g.result, ",
    more_tags_sql!()
);

/// [`COLUMNS`] as the schema had them before version 12 (for the
/// migrations that read games of an older schema).
pub(crate) const COLUMNS_BEFORE_12: &str =
    "g.roster, g.event, g.site, g.date, g.round, g.white, g.black, g.result, g.more_tags";

/// A game's tag pairs, in the order written: as a reading keeps them
/// ([`TagList`]) or as owned pairs read back from a row.
pub(crate) trait Pairs {
    /// The pairs, name and value.
    fn pairs(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + Clone;
}

impl Pairs for TagList {
    fn pairs(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + Clone {
        self.iter()
    }
}

impl Pairs for [(String, String)] {
    fn pairs(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + Clone {
        self.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }
}

impl Pairs for Vec<(String, String)> {
    fn pairs(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + Clone {
        self.as_slice().pairs()
    }
}

/// The seven roster tags of a game, read in one pass over its pairs: the
/// first value of each name and how many pairs have it, in the order of
/// [`ROSTER`].
pub(crate) struct Roster<'a> {
    pub(crate) values: [Option<&'a str>; 7],
    pub(crate) counts: [u32; 7],
}

impl<'a> Roster<'a> {
    pub(crate) fn of(tags: &'a (impl Pairs + ?Sized)) -> Roster<'a> {
        let mut roster = Roster {
            values: [None; 7],
            counts: [0; 7],
        };
        for (name, value) in tags.pairs() {
            if let Some(i) = ROSTER.iter().position(|r| *r == name) {
                roster.counts[i] += 1;
                roster.values[i].get_or_insert(value);
            }
        }
        roster
    }
}

/// `(roster, more_tags)` for the tags of a game.
pub(crate) fn split(tags: &(impl Pairs + ?Sized)) -> (bool, String) {
    let roster = tags.pairs().len() >= ROSTER.len()
        && tags.pairs().zip(ROSTER).all(|((name, _), r)| name == r);
    let skipped = if roster { ROSTER.len() } else { 0 };
    (roster, json(tags.pairs().skip(skipped)))
}

/// `(roster, more_tags)` for the tags of a game whose whole text is
/// stored in a frame: [`FROM_TEXT`] when each of the seven names is there
/// at most once (its column is then the whole answer to a filter on it),
/// else as [`split`] gives; `roster` is [`Roster::of`] the tags.
pub(crate) fn split_framed(roster: &Roster<'_>, tags: &(impl Pairs + ?Sized)) -> (i64, String) {
    if roster.counts.iter().all(|&n| n <= 1) {
        return (FROM_TEXT, "[]".into());
    }
    let (roster, more) = split(tags);
    (i64::from(roster), more)
}

/// The tag pairs a game's text `raw` gives, read as an import reads them.
pub(crate) fn text_tags(raw: &[u8]) -> TagPairs {
    struct Tags(TagPairs);
    impl Visitor<'_> for Tags {
        fn tag(&mut self, name: &str, value: &str, _: At<'_>) {
            self.0.push((name.to_string(), value.to_string()));
        }
        fn begin_movetext(&mut self) -> Flow {
            Flow::Skip
        }
    }
    let (text, _) = decode_borrowed(raw);
    let mut tags = Tags(Vec::new());
    read_with(&text, Location { line: 1, column: 1 }, &mut tags);
    tags.0
}

/// Tag pairs as a JSON array of pairs.
pub(crate) fn json<'a>(tags: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let tags: Vec<(&str, &str)> = tags.collect();
    serde_json::to_string(&tags).expect("strings always serialize")
}

/// A JSON array of pairs read back (written by [`json`] only; anything
/// else reads as no tags).
pub(crate) fn from_json(text: &str) -> Vec<(String, String)> {
    serde_json::from_str(text).unwrap_or_default()
}

/// The tags of a game, in the order written, from the [`COLUMNS`] of `row`
/// starting at column `first`.
///
/// # Errors
/// SQLite errors (a column of another type).
pub(crate) fn from_row(row: &Row<'_>, first: usize) -> rusqlite::Result<Vec<(String, String)>> {
    let roster: i64 = row.get(first)?;
    let more: String = row.get(first + 8)?;
    let more = from_json(&more);
    if roster != 1 {
        return Ok(more);
    }
    let mut tags = Vec::with_capacity(ROSTER.len() + more.len());
    for (i, name) in ROSTER.iter().enumerate() {
        let value: Option<String> = row.get(first + 1 + i)?;
        tags.push((name.to_string(), value.unwrap_or_default()));
    }
    tags.extend(more);
    Ok(tags)
}

/// SQL true when game `g` has a tag named by parameter `?{name}` whose
/// value, lower-cased, contains parameter `?{value}`.
pub(crate) fn has_tag_sql(name: usize, value: usize) -> String {
    let column = ROSTER
        .iter()
        .map(|r| format!("WHEN '{r}' THEN g.{}", r.to_lowercase()))
        .collect::<Vec<_>>()
        .join(" ");
    let seven = ROSTER.map(|r| format!("'{r}'")).join(", ");
    format!(
        "(CASE WHEN g.roster = 2 AND ?{name} IN ({seven}) \
         THEN instr(xpgn_lower(CASE ?{name} {column} END), ?{value}) > 0 \
         WHEN g.roster = 2 THEN xpgn_text_has_tag({}, ?{name}, ?{value}) \
         ELSE EXISTS (SELECT 1 FROM json_each(g.more_tags) t WHERE t.value ->> 0 = ?{name} \
         AND instr(xpgn_lower(t.value ->> 1), ?{value}) > 0) \
         OR (g.roster = 1 AND instr(xpgn_lower(CASE ?{name} {column} END), ?{value}) > 0) END)",
        original_sql!()
    )
}

/// SQL true when game `g` has a `White` or `Black` tag whose value,
/// lower-cased, contains parameter `?{value}`.
pub(crate) fn has_player_sql(value: usize) -> String {
    format!(
        "(CASE WHEN g.roster = 2 \
         THEN instr(xpgn_lower(g.white), ?{value}) > 0 OR instr(xpgn_lower(g.black), ?{value}) > 0 \
         ELSE EXISTS (SELECT 1 FROM json_each(g.more_tags) t WHERE t.value ->> 0 IN ('White', 'Black') \
         AND instr(xpgn_lower(t.value ->> 1), ?{value}) > 0) \
         OR (g.roster = 1 AND (instr(xpgn_lower(g.white), ?{value}) > 0 \
                           OR instr(xpgn_lower(g.black), ?{value}) > 0)) END)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(names: &[&str]) -> Vec<(String, String)> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), format!("v{i}")))
            .collect()
    }

    #[test]
    fn the_roster_in_order_goes_to_its_columns_and_anything_else_stays_whole() {
        let seven = pairs(&ROSTER);
        assert_eq!(split(&seven), (true, "[]".into()));
        let mut more = seven.clone();
        more.push(("ECO".into(), "B90".into()));
        more.push(("White".into(), "again".into()));
        assert_eq!(
            split(&more),
            (true, r#"[["ECO","B90"],["White","again"]]"#.into())
        );
        // Out of order, or one missing: every pair in `more_tags`.
        let swapped = pairs(&["Site", "Event", "Date", "Round", "White", "Black", "Result"]);
        assert_eq!(split(&swapped), (false, json(swapped.pairs())));
        let six = pairs(&ROSTER[..6]);
        assert_eq!(split(&six), (false, json(six.pairs())));
        assert_eq!(split(&TagList::default()), (false, "[]".into()));
    }

    #[test]
    fn a_framed_game_reads_its_tags_from_its_text_unless_one_of_the_seven_is_there_twice() {
        let mut tags = pairs(&["Site", "White", "ECO", "Black"]);
        assert_eq!(
            split_framed(&Roster::of(&tags), &tags),
            (FROM_TEXT, "[]".into())
        );
        tags.push(("White".into(), "again".into()));
        assert_eq!(
            split_framed(&Roster::of(&tags), &tags),
            (0, json(tags.pairs()))
        );
        let mut roster = pairs(&ROSTER);
        roster.push(("Result".into(), "*".into()));
        assert_eq!(
            split_framed(&Roster::of(&roster), &roster),
            (1, r#"[["Result","*"]]"#.into())
        );
    }

    #[test]
    fn the_tags_of_a_text_are_those_the_reader_gives() {
        let texts: [&[u8]; 5] = [
            b"[Event \"a \\\"b\\\" c\"]\n[White \"x\\\\y\"]\n\n1. e4 *\n",
            // Windows-1252, CRLF, a comment before the tags.
            b"{note} [White \"Jos\xe9\"]\r\n[Black   \"B\"]\r\n1. e4 *\r\n",
            b"\xEF\xBB\xBF[White \"A\"][Black \"B\"] 1. e4 [NotATag \"x\"] *",
            b"1. e4 e5 *",
            b"",
        ];
        for raw in texts {
            let (text, _) = decode_borrowed(raw);
            let game = crate::notation::pgn::read_game(&text, 1);
            assert_eq!(
                text_tags(raw),
                game.tags,
                "{}",
                String::from_utf8_lossy(raw)
            );
        }
        assert_eq!(
            text_tags(b"{note} [White \"Jos\xe9\"]\r\n1. e4 *"),
            vec![("White".to_string(), "Jos\u{e9}".to_string())]
        );
    }
}
