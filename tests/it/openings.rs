//! Opening names (docs/database.md "Openings"): stored at import, shown and
//! searched by `query`, in the JSON of `validate`, `convert` and `export`,
//! per move in `tree`, written as tags on request; a variant's own book.

use crate::run::{stderr, stdout, xpgn};
use crate::scratch;
use scratch::Scratch;

/// A Najdorf that leaves the book; a Ruy Lopez reached by another move
/// order; a game with a wrong ECO tag; a game the book does not name; an
/// invalid game named up to its fault; a Royal Chess game (no book).
const GAMES: &str = "[Event \"najdorf\"]\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. h3 h6 7. a3 a5 1-0\n\n\
[Event \"ruy\"]\n1. Nf3 Nc6 2. e4 e5 3. Bb5 0-1\n\n\
[Event \"wrong\"]\n[ECO \"A00\"]\n[Opening \"Polish\"]\n1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 1/2-1/2\n\n\
[Event \"none\"]\n*\n\n\
[Event \"broken\"]\n1. e4 e5 2. Ke3 *\n\n\
[Event \"royal\"][Variant \"Royal Chess\"]\n1. e3 e6 *\n";

fn setup(name: &str) -> (Scratch, String, String) {
    let dir = Scratch::new("openings", name);
    let pgn = dir.join("g.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let db = dir.join("g.db").display().to_string();
    (dir, pgn.display().to_string(), db)
}

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn ecos(lines: &[serde_json::Value]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l["eco"].as_str().unwrap_or("-").to_string())
        .collect()
}

const NAMED: [&str; 6] = ["B90", "C60", "E20", "-", "C20", "-"];

#[test]
fn import_names_every_game_and_query_shows_and_searches_the_names() {
    let (_dir, pgn, db) = setup("query");
    let o = xpgn(&["import", &pgn, "--db", &db]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = xpgn(&["query", "--db", &db, "--format", "json"]);
    let lines = json_lines(&stdout(&o));
    assert_eq!(ecos(&lines), NAMED);
    assert_eq!(lines[1]["opening"], "Ruy Lopez");
    assert!(
        lines[0]["opening"]
            .as_str()
            .unwrap()
            .starts_with("Sicilian Defense: Najdorf Variation")
    );
    assert!(lines[3]["opening"].is_null());
    // The table's column.
    let table = stdout(&xpgn(&["query", "--db", &db]));
    let header = table.lines().next().unwrap();
    assert!(header.contains(" eco "), "{header}");
    assert!(table.lines().nth(1).unwrap().contains(" B90 "), "{table}");
    // Ranges, letters, single codes, names.
    let ids = |args: &[&str]| {
        let mut all = vec!["query", "--db", &db, "--format", "json"];
        all.extend_from_slice(args);
        ecos(&json_lines(&stdout(&xpgn(&all))))
    };
    assert_eq!(ids(&["--eco", "B20-B99"]), ["B90"]);
    assert_eq!(ids(&["--eco", "c"]), ["C60", "C20"]);
    assert_eq!(ids(&["--eco", "E20"]), ["E20"]);
    assert_eq!(ids(&["--opening", "sicilian"]), ["B90"]);
    assert_eq!(ids(&["--opening", "NIMZO"]), ["E20"]);
    assert_eq!(ids(&["--eco", "C", "--opening", "lopez"]), ["C60"]);
}

#[test]
fn a_bad_eco_argument_is_a_usage_error_naming_it() {
    let (_dir, pgn, db) = setup("bad-eco");
    xpgn(&["import", &pgn, "--db", &db]);
    for bad in ["B99-B20", "F00", "Sicilian", "B2"] {
        let o = xpgn(&["query", "--db", &db, "--eco", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let e = stderr(&o);
        assert!(
            e.starts_with(&format!("xpgn: --eco: `{bad}` is no ECO code or range")),
            "{e}"
        );
    }
}

#[test]
fn validate_convert_and_export_give_eco_and_opening_fields() {
    let (_dir, pgn, db) = setup("json");
    let o = xpgn(&["validate", &pgn, "--format", "json"]);
    assert_eq!(ecos(&json_lines(&stdout(&o))), NAMED);
    // convert writes an invalid game in its safe form, without the fields.
    let o = xpgn(&["convert", &pgn, "--to", "json"]);
    let lines = json_lines(&stdout(&o));
    assert_eq!(ecos(&lines), ["B90", "C60", "E20", "-", "-", "-"]);
    assert!(lines[4].get("eco").is_none());
    assert_eq!(lines[2]["opening"], "Nimzo-Indian Defense");
    xpgn(&["import", &pgn, "--db", &db]);
    let o = xpgn(&["export", "--db", &db, "--to", "json", "--eco", "B90"]);
    let lines = json_lines(&stdout(&o));
    assert_eq!(ecos(&lines), ["B90"]);
}

#[test]
fn add_eco_adds_missing_tags_and_replace_eco_replaces_wrong_ones() {
    let (dir, pgn, db) = setup("tags");
    let tag = |text: &str, event: &str, name: &str| -> Option<String> {
        let game = text
            .split("\n\n[Event")
            .find(|g| g.contains(&format!("\"{event}\"")))?;
        game.lines()
            .find(|l| l.starts_with(&format!("[{name} ")))
            .map(str::to_string)
    };
    let plain = stdout(&xpgn(&["convert", &pgn, "--to", "xpgn"]));
    assert_eq!(tag(&plain, "najdorf", "ECO"), None);
    let added = stdout(&xpgn(&["convert", &pgn, "--to", "xpgn", "--add-eco"]));
    assert_eq!(
        tag(&added, "najdorf", "ECO").as_deref(),
        Some("[ECO \"B90\"]")
    );
    assert_eq!(
        tag(&added, "ruy", "Opening").as_deref(),
        Some("[Opening \"Ruy Lopez\"]")
    );
    // Written tags stay unless replacing is asked for.
    assert_eq!(
        tag(&added, "wrong", "ECO").as_deref(),
        Some("[ECO \"A00\"]")
    );
    assert_eq!(
        tag(&added, "wrong", "Opening").as_deref(),
        Some("[Opening \"Polish\"]")
    );
    // A game the book does not name gets nothing.
    assert_eq!(tag(&added, "none", "ECO"), None);
    let replaced = stdout(&xpgn(&["convert", &pgn, "--to", "xpgn", "--replace-eco"]));
    assert_eq!(
        tag(&replaced, "wrong", "ECO").as_deref(),
        Some("[ECO \"E20\"]")
    );
    assert_eq!(
        tag(&replaced, "wrong", "Opening").as_deref(),
        Some("[Opening \"Nimzo-Indian Defense\"]")
    );
    // One tag each, in its place.
    let wrong = replaced.split("\n\n[Event").nth(2).unwrap();
    assert_eq!(wrong.matches("[ECO ").count(), 1, "{wrong}");
    // export does the same from the stored names.
    xpgn(&["import", &pgn, "--db", &db]);
    let exported = stdout(&xpgn(&["export", "--db", &db, "--replace-eco"]));
    assert_eq!(
        tag(&exported, "wrong", "ECO").as_deref(),
        Some("[ECO \"E20\"]")
    );
    let exported = stdout(&xpgn(&["export", "--db", &db, "--add-eco"]));
    assert_eq!(
        tag(&exported, "wrong", "ECO").as_deref(),
        Some("[ECO \"A00\"]")
    );
    assert_eq!(
        tag(&exported, "najdorf", "ECO").as_deref(),
        Some("[ECO \"B90\"]")
    );
    let o = xpgn(&["export", "--db", &db, "--original", "--add-eco"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--original"), "{}", stderr(&o));
    drop(dir);
}

#[test]
fn tree_names_each_move_and_the_position() {
    let (_dir, pgn, db) = setup("tree");
    xpgn(&["import", &pgn, "--db", &db]);
    let o = xpgn(&["tree", "--db", &db, "--moves", "1. e4", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["eco"], "B00");
    assert_eq!(doc["opening"], "King's Pawn Game");
    let moves = doc["moves"].as_array().unwrap();
    let c5 = moves.iter().find(|m| m["san"] == "c5").unwrap();
    assert_eq!(
        (&c5["eco"], &c5["opening"]),
        (&"B20".into(), &"Sicilian Defense".into())
    );
    let table = stdout(&xpgn(&["tree", "--db", &db, "--moves", "1. e4"]));
    assert!(table.contains("Opening: B00 King's Pawn Game"), "{table}");
    assert!(table.contains("B20 Sicilian Defense"), "{table}");
}

/// A Royal Chess definition under another name, pointing at `book`.
fn royal_with_book(dir: &std::path::Path, book: &str, tsv: &str) -> String {
    let def = xpgn::rules::builtin_source("royal")
        .unwrap()
        .replace(
            "name = \"royal\"",
            &format!("name = \"royal-book\"\nopenings = \"{book}\""),
        )
        .replace(
            "display-name = \"Royal Chess\"",
            "display-name = \"Royal Chess With Book\"",
        );
    let path = dir.join("royal-book.toml");
    std::fs::write(&path, def).unwrap();
    std::fs::write(dir.join(book), tsv).unwrap();
    path.display().to_string()
}

#[test]
fn a_variant_is_named_from_the_openings_file_its_definition_points_at() {
    let dir = Scratch::new("openings", "variant");
    let def = royal_with_book(
        &dir,
        "royal.tsv",
        "eco\tname\tpgn\nR01\tElephant Opening\t1. e3\nR02\tElephant Opening: Symmetrical\t1. e3 e6\n",
    );
    let pgn = dir.join("r.pgn");
    std::fs::write(
        &pgn,
        "[Variant \"royal-book\"]\n1. e3 e6 2. d3 *\n\n[Variant \"royal-book\"]\n1. e3 d6 *\n\n[Variant \"royal\"]\n1. e3 e6 *\n",
    )
    .unwrap();
    let pgn = pgn.display().to_string();
    let o = xpgn(&["--variants", &def, "validate", &pgn, "--format", "json"]);
    let lines = json_lines(&stdout(&o));
    assert_eq!(ecos(&lines), ["R02", "R01", "-"]);
    assert_eq!(lines[0]["opening"], "Elephant Opening: Symmetrical");
    let db = dir.join("r.db").display().to_string();
    let o = xpgn(&["--variants", &def, "import", &pgn, "--db", &db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = xpgn(&[
        "query",
        "--db",
        &db,
        "--opening",
        "symmetrical",
        "--format",
        "json",
    ]);
    assert_eq!(ecos(&json_lines(&stdout(&o))), ["R02"]);
}

#[test]
fn a_bad_openings_file_stops_xpgn_naming_file_and_line() {
    let dir = Scratch::new("openings", "bad-book");
    let def = royal_with_book(
        &dir,
        "bad.tsv",
        "eco\tname\tpgn\nR01\tElephant Opening\t1. e3\nR02\tNonsense\t1. e5\n",
    );
    let o = xpgn(&["--variants", &def, "variants"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("bad.tsv:3:"), "{e}");
    assert!(e.contains("openings: ply 1 `e5`"), "{e}");
    // A file that is not there.
    let path = dir.join("missing.toml");
    let text = std::fs::read_to_string(&def)
        .unwrap()
        .replace("bad.tsv", "nowhere.tsv");
    std::fs::write(&path, text).unwrap();
    let o = xpgn(&["--variants", path.to_str().unwrap(), "variants"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nowhere.tsv"), "{}", stderr(&o));
}
