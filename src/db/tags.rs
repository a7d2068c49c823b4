//! How a game's tag pairs are stored (schema 7). The columns `event`,
//! `site`, `date`, `round`, `white`, `black` and `result` hold the first
//! tag of each of those names. When a game's tags begin with exactly the
//! Seven Tag Roster in its order (most PGN games), `roster` is 1 and
//! `more_tags` holds the pairs after it; otherwise `roster` is 0 and
//! `more_tags` holds every pair. `more_tags` is a JSON array of
//! `[name, value]` pairs in the order written. Schema 3 to 6 kept every
//! pair in `tags`, the seven again: 150 bytes a game of a TWIC issue.
//!
//! Every reader of a game's tags goes through [`COLUMNS`] and
//! [`from_row`]; tag filters through [`has_tag_sql`] and
//! [`has_player_sql`].

use rusqlite::Row;

/// A game's tag pairs, in the order written.
pub(crate) type TagPairs = Vec<(String, String)>;

/// The Seven Tag Roster, in its order, as its columns hold it.
pub(crate) const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The columns (of `games` as `g`) [`from_row`] reads, in its order.
pub(crate) const COLUMNS: &str =
    "g.roster, g.event, g.site, g.date, g.round, g.white, g.black, g.result, g.more_tags";

/// `(roster, more_tags)` for the tags of a game.
pub(crate) fn split(tags: &[(String, String)]) -> (bool, String) {
    let roster =
        tags.len() >= ROSTER.len() && tags.iter().zip(ROSTER).all(|((name, _), r)| name == r);
    let rest = if roster { &tags[ROSTER.len()..] } else { tags };
    (roster, json(rest))
}

/// Tag pairs as a JSON array of pairs.
pub(crate) fn json(tags: &[(String, String)]) -> String {
    serde_json::to_string(tags).expect("strings always serialize")
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
    let roster: bool = row.get(first)?;
    let more: String = row.get(first + 8)?;
    let more = from_json(&more);
    if !roster {
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
    format!(
        "(EXISTS (SELECT 1 FROM json_each(g.more_tags) t WHERE t.value ->> 0 = ?{name} \
         AND instr(xpgn_lower(t.value ->> 1), ?{value}) > 0) \
         OR (g.roster AND instr(xpgn_lower(CASE ?{name} {column} END), ?{value}) > 0))"
    )
}

/// SQL true when game `g` has a `White` or `Black` tag whose value,
/// lower-cased, contains parameter `?{value}`.
pub(crate) fn has_player_sql(value: usize) -> String {
    format!(
        "(EXISTS (SELECT 1 FROM json_each(g.more_tags) t WHERE t.value ->> 0 IN ('White', 'Black') \
         AND instr(xpgn_lower(t.value ->> 1), ?{value}) > 0) \
         OR (g.roster AND (instr(xpgn_lower(g.white), ?{value}) > 0 \
                           OR instr(xpgn_lower(g.black), ?{value}) > 0)))"
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
        assert_eq!(split(&swapped), (false, json(&swapped)));
        let six = pairs(&ROSTER[..6]);
        assert_eq!(split(&six), (false, json(&six)));
        assert_eq!(split(&[]), (false, "[]".into()));
    }
}
