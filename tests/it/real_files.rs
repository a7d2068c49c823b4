//! Real files bend the standard (docs/notation.md §11): every form the readers
//! must accept, games that break off, splitting that holds, nesting
//! without limit, outputs that lose nothing, duplicates by content. Each
//! test was written to fail on the reader before the forgiving one.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::scratch;
use scratch::Scratch;

use crate::run::{stderr, stdout, xpgn};
use xpgn::notation::diagnostic::{DiagnosticKind, Severity};
use xpgn::notation::reader::{Encoding, read_games};
use xpgn::notation::replay::check_game;

fn temp(name: &str) -> Scratch {
    Scratch::new("real", name)
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Every game of `bytes`: (valid, warning kinds, plies).
fn checked(bytes: &[u8]) -> Vec<(bool, Vec<DiagnosticKind>, usize)> {
    read_games(bytes)
        .map(|item| {
            let (_, game) = item.unwrap();
            let c = check_game(&xpgn::rules::Registry::builtin(), &game, None);
            let warnings = c
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Warning)
                .map(|d| d.kind)
                .collect();
            (
                c.is_valid(),
                warnings,
                c.replay.map_or(0, |r| r.moves.len()),
            )
        })
        .collect()
}

#[test]
fn every_form_of_notation_11_reads_valid_with_the_warnings_it_earns() {
    let bytes = std::fs::read(data("notation11.pgn")).unwrap();
    let games = checked(&bytes);
    use DiagnosticKind::*;
    let expected: Vec<(bool, Vec<DiagnosticKind>, usize)> = vec![
        // 12.e4, 12. e4, ...Nc6, 3...a6, 4…Nf6, no number at all.
        (true, vec![], 10),
        (true, vec![], 5),
        // e.p. alone and glued.
        (true, vec![], 11),
        // `++` on the mate.
        (true, vec![], 7),
        // `#` on a move that does not mate, `+` on one that gives no check.
        (true, vec![CheckMark, CheckMark], 3),
        // d8=q, f8Q, h7h8R.
        (true, vec![], 6),
        (true, vec![Result], 2),
        (true, vec![Result], 2),
        (true, vec![Result], 2),
        // No result token: the Result tag stands.
        (true, vec![Result], 7),
        // Null moves in variations, in every form: no warning (R-0-6).
        (true, vec![], 4),
        // A null move in the main line: a warning (R-0-6).
        (true, vec![NullMove], 4),
        (true, vec![PositionString], 2),
        (true, vec![], 2),
        (true, vec![Tag, Tag, Tag], 1),
        // `*` after a mate (R-0-3).
        (true, vec![Result], 4),
        (true, vec![], 1),
        (true, vec![], 1),
        // `Regular`, as other programs name orthodox chess.
        (true, vec![], 1),
        (true, vec![], 1),
        // Three games on one line.
        (true, vec![], 2),
        (true, vec![], 2),
        (true, vec![], 1),
    ];
    assert_eq!(games, expected);
    let o = xpgn(&["validate", data("notation11.pgn").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).ends_with("23 games read, 23 valid (9 with warnings), 0 invalid\n"),
        "{}",
        stdout(&o)
    );
    // --strict counts the warnings.
    let o = xpgn(&[
        "validate",
        "--strict",
        data("notation11.pgn").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("14 valid (0 with warnings), 9 invalid"));
}

#[test]
fn warnings_and_errors_name_file_line_column_game_and_ply() {
    let o = xpgn(&["validate", data("notation11.pgn").to_str().unwrap()]);
    let text = stdout(&o);
    assert!(
        text.contains(
            "notation11.pgn:24:4: game 5, ply 1: warning: `e4` is marked `#` but does not mate"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "game 12, ply 2: warning: a null move in the main line: the turn passes (R-0-6)"
        ),
        "{text}"
    );
    let o = xpgn(&[
        "validate",
        "--format",
        "json",
        data("notation11.pgn").to_str().unwrap(),
    ]);
    let first: serde_json::Value =
        serde_json::from_str(stdout(&o).lines().nth(4).unwrap()).unwrap();
    assert_eq!(first["valid"], true);
    assert_eq!(first["diagnostics"][0]["severity"], "warning");
    assert_eq!(first["diagnostics"][0]["kind"], "check_mark");
    assert_eq!(first["diagnostics"][0]["line"], 24);
    assert_eq!(first["diagnostics"][0]["column"], 4);
    assert_eq!(first["diagnostics"][0]["ply"], 1);
}

#[test]
fn a_null_move_is_refused_in_check_and_mate_keeps_its_result_rules() {
    // R-0-6: never when the mover is in check.
    let games = checked(b"1. e4 e5 2. Qh5 Nc6 3. Qxf7+ -- *");
    assert!(!games[0].0);
    // R-0-3: a different decisive result after mate is still an error.
    let games = checked(b"1. f3 e5 2. g4 Qh4# 1-0");
    assert!(!games[0].0);
}

#[test]
fn lines_end_in_cr_crlf_or_lf_mixed_and_the_encodings_are_named() {
    let cr = b"[Event \"CR\"]\r1. e4 e5 *\r\r[Event \"CR2\"]\r1. d4 *\r";
    assert_eq!(checked(cr).len(), 2);
    let games: Vec<_> = read_games(&cr[..]).map(|g| g.unwrap()).collect();
    assert_eq!(games[1].0.start.line, 4);
    let mixed = b"[Event \"Mixed\"]\r\n1. e4\re5 *\n\n[Event \"M2\"]\r1. d4 *";
    assert_eq!(checked(mixed), vec![(true, vec![], 2), (true, vec![], 1)]);
    let text = "\u{feff}[Event \"U\"]\n[White \"Müller\"]\n1. e4 e5 *\n\n[Event \"V\"]\n1. d4 *\n";
    for (bytes, encoding) in [
        (
            text.encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<u8>>(),
            Encoding::Utf16Le,
        ),
        (
            text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
            Encoding::Utf16Be,
        ),
    ] {
        let games: Vec<_> = read_games(&bytes[..]).map(|g| g.unwrap()).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].0.encoding, encoding);
        assert_eq!(games[0].1.tag("White"), Some("Müller"));
        assert!(
            games[0].1.diagnostics[0]
                .message
                .contains("byte order mark")
        );
    }
    let latin1 = b"[White \"M\xfcller\"]\n1. e4 *\n";
    let (text, game) = read_games(&latin1[..]).next().unwrap().unwrap();
    assert_eq!(
        (text.encoding, game.tag("White")),
        (Encoding::Windows1252, Some("Müller"))
    );
}

/// `( $42 1. d4 )`, `{ a \} b }` and `1-0 ff` (docs/notation.md §11) read
/// with a warning each, and written back read as the same games.
#[test]
fn a_nag_opening_a_variation_an_escaped_brace_and_text_after_a_result_are_kept() {
    use xpgn::notation::writer::{MoveNotation, write_game};
    let text = "[Event \"A\"]\n\n1. e4 ( $42 1. d4 ) e5 *\n\n\
                [Event \"B\"]\n\n1. e4 { a \\} b } e5 *\n\n\
                [Event \"C\"]\n\n1. e4 e5 1-0 ff\n\n\
                [Event \"D\"]\n\n1. d4 0-1\nWhite forfeits\n1. c4 *\n";
    use DiagnosticKind::Syntax;
    assert_eq!(
        checked(text.as_bytes()),
        vec![
            (true, vec![Syntax], 2),
            (true, vec![Syntax], 2),
            (true, vec![Syntax], 2),
            (true, vec![Syntax], 1),
            // A move after the text: a game without tags, as before.
            (true, vec![], 1),
        ]
    );
    let games: Vec<_> = read_games(text.as_bytes()).map(|g| g.unwrap().1).collect();
    assert_eq!(games[0].moves[0].variations[0][0].nags, [42]);
    assert_eq!(games[1].moves[0].comments, [" a } b "]);
    assert_eq!(games[2].final_comments, ["ff"]);
    assert_eq!(games[3].final_comments, ["White forfeits"]);
    for game in &games {
        let written =
            write_game(&xpgn::rules::Registry::builtin(), game, MoveNotation::San).unwrap();
        let back: Vec<_> = read_games(written.as_bytes())
            .map(|g| g.unwrap().1)
            .collect();
        assert_eq!(back.len(), 1, "{written}");
        let back = &back[0];
        assert!(
            back.diagnostics.is_empty(),
            "{written}: {:?}",
            back.diagnostics
        );
        // Every comment's words in text order (the writer puts the
        // comments after the result before it).
        let words = |g: &xpgn::notation::game::Game| -> Vec<String> {
            g.moves
                .iter()
                .flat_map(|m| m.comments_before.iter().chain(&m.comments))
                .chain(&g.final_comments)
                .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
                .collect()
        };
        assert_eq!(words(back), words(game), "{written}");
        assert_eq!(back.moves.len(), game.moves.len(), "{written}");
        for (a, b) in back.moves.iter().zip(&game.moves) {
            assert_eq!((&a.text, &a.nags), (&b.text, &b.nags), "{written}");
            let nags = |m: &xpgn::notation::game::Node| {
                m.variations
                    .iter()
                    .flatten()
                    .map(|v| v.nags.clone())
                    .collect::<Vec<_>>()
            };
            assert_eq!(nags(a), nags(b), "{written}");
        }
        assert_eq!(back.result, game.result);
    }
}

#[test]
fn bytes_that_are_not_utf8_read_as_windows_1252_with_a_warning() {
    // 0x92 is Windows-1252's right single quote, 0x80 its euro sign, 0x85
    // its ellipsis: as Latin-1 they would be control characters.
    let bytes = b"[Annotator \"O\x92Kelly\"]\n1. e4 {\x80 5\x85} e5 *\n";
    let (text, game) = read_games(&bytes[..]).next().unwrap().unwrap();
    assert_eq!(text.encoding, Encoding::Windows1252);
    assert_eq!(game.tag("Annotator"), Some("O\u{2019}Kelly"));
    assert_eq!(game.moves[0].comments, ["\u{20ac} 5\u{2026}"]);
    let warnings: Vec<_> = game
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::Encoding)
        .collect();
    assert_eq!(warnings.len(), 1, "{:?}", game.diagnostics);
    assert_eq!(warnings[0].severity, Severity::Warning);
    assert!(warnings[0].message.contains("Windows-1252"));
    // The bytes are kept as they were.
    assert_eq!(text.raw, bytes);
    let c = check_game(&xpgn::rules::Registry::builtin(), &game, None);
    assert!(c.is_valid(), "{:?}", c.diagnostics);
}

#[test]
fn a_file_with_a_byte_order_mark_exports_as_json_lines_and_a_spaced_draw_stays_one_game() {
    let dir = temp("bom-draw");
    let file = dir.join("bom.pgn");
    let bytes = "\u{feff}[Event \"a\"]\n1. e4 e5 1/2 - 1/2\n\n[Event \"b\"]\n1. d4 Zz9 *\n";
    std::fs::write(&file, bytes).unwrap();
    let db = dir.join("bom.db");
    let db = db.to_str().unwrap();
    let o = xpgn(&["import", file.to_str().unwrap(), "--db", db]);
    assert!(
        stdout(&o).starts_with("read 2, imported 2,"),
        "{}",
        stdout(&o)
    );
    let o = xpgn(&["export", "--db", db, "--to", "json"]);
    let json = stdout(&o);
    assert_eq!(json.lines().count(), 2, "{json}");
    for line in json.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect(line);
        assert!(value.is_object(), "{line}");
    }
    // The originals laid end to end give back the file.
    let o = xpgn(&["export", "--db", db, "--original"]);
    assert_eq!(stdout(&o), bytes);
}

/// Every reading command run on `file`, with a database and a dataset
/// folder in `dir`: (command, output).
fn every_reading_command(dir: &Path, file: &str) -> Vec<(&'static str, Output)> {
    let db = dir.join("refused.db");
    let db = db.to_str().unwrap();
    #[cfg(feature = "parquet")]
    let out = dir.join("dataset");
    vec![
        ("validate", xpgn(&["validate", file])),
        (
            "validate json",
            xpgn(&["validate", "--format", "json", file]),
        ),
        ("convert", xpgn(&["convert", "--to", "json", file])),
        ("import", xpgn(&["import", file, "--db", db])),
        ("export", xpgn(&["export", "--db", db, "--original"])),
        #[cfg(feature = "parquet")]
        (
            "dataset",
            xpgn(&["dataset", file, "--out", out.to_str().unwrap()]),
        ),
    ]
}

#[test]
fn cut_compressed_and_binary_files_are_told_once_by_every_reading_command() {
    let dir = temp("not-text");
    // The first bytes of compressed files: gzip and zstd are read, and
    // these are cut short; xz is not read.
    let gzip: &[u8] = b"\x1f\x8b\x08\x08\x8f\x3a\x6b\x66\x00\x03part.pgn\x00\xad\x90\xcfj";
    let zstd: &[u8] = b"\x28\xb5\x2f\xfd\x24\x1e\xf1\x00\x00[Event";
    let xz: &[u8] = b"\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46\x02\x00";
    let binary: &[u8] = b"[Event \"x\"]\n\x00\x00\x01\x02\x03 1. e4 *\n";
    for (name, bytes, says) in [
        ("part.pgn.gz", gzip, "gzip data "),
        ("part.pgn.zst", zstd, "zstd data "),
        ("part.pgn.xz", xz, "xz-compressed"),
        ("part.bin", binary, "NUL bytes"),
    ] {
        let file = dir.join(name);
        std::fs::write(&file, bytes).unwrap();
        for (command, o) in every_reading_command(&dir, file.to_str().unwrap()) {
            let err = stderr(&o);
            if command == "export" {
                // Nothing was stored.
                assert_eq!(o.stdout, b"", "{name}");
                continue;
            }
            assert_ne!(o.status.code(), Some(0), "{command} {name}: {err}");
            let told: Vec<&str> = err.lines().filter(|l| l.contains(says)).collect();
            assert_eq!(told.len(), 1, "{command} {name}: {err}");
            assert!(told[0].contains(name), "{command} {name}: {err}");
            assert!(err.len() < 400, "{command} {name}: {err}");
            assert!(!stdout(&o).contains("\"game\""), "{command} {name}");
        }
    }
}

#[test]
fn a_runaway_comment_is_cut_at_the_next_game_and_says_what_it_swallowed() {
    let text = b"[Event \"A\"]\n1. e4 {runaway e5 2. Nf3 *\n\n[Event \"B\"]\n1. d4 d5 *\n\n[Event \"C\"]\n1. c4 *\n";
    let games: Vec<_> = read_games(&text[..]).map(|g| g.unwrap()).collect();
    assert_eq!(games.len(), 3);
    let d = &games[0].1.diagnostics;
    assert!(d.iter().any(|d| {
        d.kind == DiagnosticKind::RunawayComment
            && d.message
                .contains("swallowed 22 bytes, up to the tag line at line 4")
    }));
    // A game that breaks off keeps its tags and its moves before the fault.
    assert_eq!(games[0].1.tag("Event"), Some("A"));
    assert_eq!(games[0].1.moves.len(), 1);
    assert_eq!(games[1].1.tag("Event"), Some("B"));
    // Every byte belongs to one game.
    let total: usize = games.iter().map(|(t, _)| t.raw.len()).sum();
    assert_eq!(total, text.len());
}

/// A game whose variations nest `depth` deep.
fn deep_game(depth: usize) -> String {
    format!(
        "[Event \"deep\"]\n1. e4 {}{} e5 *\n",
        "(1. d4 ".repeat(depth),
        ")".repeat(depth)
    )
}

#[test]
fn variations_100000_deep_go_through_every_command() {
    let dir = temp("deep");
    let file = dir.join("deep.pgn");
    std::fs::write(&file, deep_game(100_000) + "\n[Event \"next\"]\n1. d4 *\n").unwrap();
    let f = file.to_str().unwrap();
    let db = dir.join("deep.db");
    let db = db.to_str().unwrap();
    let o = xpgn(&["validate", f]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for to in ["xpgn", "lan", "uci", "json", "fen"] {
        let o = xpgn(&["convert", "--to", to, f]);
        assert_eq!(o.status.code(), Some(0), "{to}: {}", stderr(&o));
        assert!(o.stdout.len() > 100, "{to}");
    }
    let o = xpgn(&["import", f, "--db", db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for args in [
        vec!["export", "--db", db],
        vec!["export", "--db", db, "--to", "json"],
        vec!["export", "--db", db, "--original"],
        vec!["query", "--db", db, "--format", "xpgn"],
        vec!["query", "--db", db, "--format", "json"],
        vec!["tree", "--db", db],
    ] {
        let o = xpgn(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
    // The canonical form reads back to the same game: no new game.
    let o = xpgn(&["export", "--db", db]);
    let exported = dir.join("exported.pgn");
    std::fs::write(&exported, &o.stdout).unwrap();
    let o = xpgn(&["import", exported.to_str().unwrap(), "--db", db]);
    assert!(
        stdout(&o).starts_with("read 2, imported 0, duplicates 2,"),
        "{}",
        stdout(&o)
    );
    // The JSON form is one line per game, brackets balanced (serde_json
    // itself stops at 128 levels).
    let o = xpgn(&["export", "--db", db, "--to", "json"]);
    let json = stdout(&o);
    assert_eq!(json.lines().count(), 2);
    let depth = json.bytes().try_fold(0i64, |d, b| {
        let d = d + i64::from(b == b'[' || b == b'{') - i64::from(b == b']' || b == b'}');
        (d >= 0).then_some(d)
    });
    assert_eq!(depth, Some(0));
}

#[test]
fn a_game_that_breaks_off_is_stored_searchable_and_indexed_up_to_its_fault() {
    let dir = temp("partial");
    let file = dir.join("partial.pgn");
    std::fs::write(
        &file,
        "[Event \"Broken\"]\n[White \"MÜLLER, Hans\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Zz9 Nc6 1-0\n\n[Event \"Fine\"]\n1. d4 d5 *\n",
    )
    .unwrap();
    let db = dir.join("p.db");
    let db = db.to_str().unwrap();
    let report = dir.join("report.jsonl");
    let o = xpgn(&[
        "import",
        file.to_str().unwrap(),
        "--db",
        db,
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("read 2, imported 2, duplicates 0, invalid 1,"));
    // Its tags: found by a tag search, case-blind in any script.
    let o = xpgn(&["query", "--db", db, "--white", "müller", "--format", "json"]);
    let line: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(line["status"], "invalid");
    assert_eq!(line["plies"], 3);
    assert_eq!(line["diagnostics"][0]["kind"], "syntax");
    assert_eq!(line["diagnostics"][0]["line"], 6);
    assert_eq!(line["diagnostics"][0]["column"], 17);
    // Its positions up to the fault: found by position.
    let o = xpgn(&[
        "query",
        "--db",
        db,
        "--fen",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    ]);
    assert!(stdout(&o).contains("MÜLLER, Hans"), "{}", stdout(&o));
    // --status invalid says why.
    let o = xpgn(&["query", "--db", db, "--status", "invalid"]);
    assert!(
        stdout(&o).contains("error: line 6, column 17: expected a move"),
        "{}",
        stdout(&o)
    );
    // The report holds one line: the invalid game.
    let report = std::fs::read_to_string(&report).unwrap();
    assert_eq!(report.lines().count(), 1, "{report}");
    let r: serde_json::Value = serde_json::from_str(report.trim()).unwrap();
    assert_eq!(
        (r["game"].as_u64(), r["status"].as_str()),
        (Some(1), Some("invalid"))
    );
}

#[test]
fn exports_lose_nothing_and_read_back_as_the_same_games() {
    let dir = temp("export");
    // CRLF line ends, an unclosed comment in the middle, no final newline.
    let text = "[Event \"A\"]\r\n1. e4 e5 *\r\n\r\n[Event \"B\"]\r\n1. d4 {never closed d5 *\r\n\r\n[Event \"C\"]\r\n1. c4 c5 1-0\r\n\r\n[Event \"D\"]\r\n1. Nf3 *";
    let file = dir.join("crlf.pgn");
    std::fs::write(&file, text).unwrap();
    let db = dir.join("e.db");
    let db = db.to_str().unwrap();
    let o = xpgn(&["import", file.to_str().unwrap(), "--db", db]);
    assert!(stdout(&o).starts_with("read 4, imported 4, duplicates 0, invalid 1,"));
    // --original: the file back byte for byte.
    let o = xpgn(&["export", "--db", db, "--original"]);
    assert_eq!(stdout(&o), text);
    // Canonical and JSON: every game, the invalid one whole, neighbours
    // untouched; re-imported, nothing is new.
    for args in [
        vec!["export", "--db", db],
        vec!["export", "--db", db, "--to", "json"],
    ] {
        let o = xpgn(&args);
        let out = stdout(&o);
        if args.len() == 5 {
            let lines: Vec<serde_json::Value> = out
                .lines()
                .map(|l| serde_json::from_str(l).expect("JSON Lines"))
                .collect();
            assert_eq!(lines.len(), 4);
            assert_eq!(lines[1]["status"], "invalid");
            assert_eq!(
                lines[1]["original"],
                "[Event \"B\"]\n1. d4 {never closed d5 *\n\n"
            );
            continue;
        }
        let back = dir.join("back.pgn");
        std::fs::write(&back, &out).unwrap();
        let o = xpgn(&["validate", back.to_str().unwrap()]);
        assert!(
            stdout(&o).ends_with("4 games read, 3 valid (0 with warnings), 1 invalid\n"),
            "{}",
            stdout(&o)
        );
        let o = xpgn(&["import", back.to_str().unwrap(), "--db", db]);
        assert!(
            stdout(&o).starts_with("read 4, imported 0, duplicates 4,"),
            "{}",
            stdout(&o)
        );
        // A second export pass is the same text: nothing grows.
        let o = xpgn(&["export", "--db", db]);
        assert_eq!(stdout(&o), out);
    }
}

#[test]
fn duplicates_ignore_tag_order_white_space_and_notation() {
    let dir = temp("dups");
    let db = dir.join("d.db");
    let db = db.to_str().unwrap();
    let first = dir.join("a.pgn");
    std::fs::write(
        &first,
        "[Event \"E\"]\n[White \"Short, Nigel D\"]\n[Black \"K\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n",
    )
    .unwrap();
    let second = dir.join("b.pgn");
    std::fs::write(
        &second,
        // Same content: tags reordered, white space changed, coordinates,
        // roster placeholders.
        "[Black   \"K\"]\n[White \"Short,  Nigel D\"]\n[Site \"?\"]\n[Event \"E\"]\n1.e2e4 e7e5\n2.g1f3   1-0\n\n\
         [Event \"E\"]\n[White \"Short, Nigel\"]\n[Black \"K\"]\n1. e4 e5 2. Nf3 1-0\n",
    )
    .unwrap();
    xpgn(&["import", first.to_str().unwrap(), "--db", db]);
    let o = xpgn(&["import", second.to_str().unwrap(), "--db", db]);
    assert!(
        stdout(&o).starts_with("read 2, imported 1, duplicates 1,"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("; 1 repeat the moves of another stored game"),
        "{}",
        stdout(&o)
    );
    let o = xpgn(&["duplicates", "--db", db]);
    assert!(
        stdout(&o).contains("group 1: 2 games, 3 plies of chess"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("Short, Nigel D"));
    assert!(stdout(&o).ends_with("1 game repeats the moves of another in 1 group\n"));
}

/// Long algebraic without piece letters (`1. g1-f3 g8-f6`), as some
/// programs write every move, reads as the pieces on the squares written;
/// an empty variation `( )` is skipped with a warning (docs/notation.md
/// §9, §11).
#[test]
fn hyphenated_long_algebraic_and_an_empty_variation_read() {
    let text = "[Event \"LAN\"]\n\n1. g1-f3 g8-f6 2. e2-e4 Nf6xe4 3. Nf3-e5 d7-d6 4. f1-c4 d6xe5 *\n\n\
        [Event \"Promotion\"]\n[SetUp \"1\"]\n[FEN \"3r3k/4P3/8/8/8/8/8/K7 w - - 0 1\"]\n\n1. e7xd8=Q+ h8-h7 *\n\n\
        [Event \"Empty\"]\n\n1. e4 ( ) e5 2. Nf3 () Nc6 ( \n ) *\n";
    let games = checked(text.as_bytes());
    use DiagnosticKind::*;
    assert_eq!(
        games,
        vec![
            (true, vec![], 8),
            (true, vec![], 2),
            (true, vec![Syntax, Syntax, Syntax], 4),
        ]
    );
    // What the pieces did: the knight from g1, not a pawn.
    let dir = temp("lan");
    let file = dir.join("lan.pgn");
    std::fs::write(&file, text).unwrap();
    let o = xpgn(&["convert", file.to_str().unwrap(), "--to", "xpgn"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("1. Nf3 Nf6 2. e4 Nxe4 3. Ne5 d6 4. Bc4 dxe5 *"),
        "{out}"
    );
    assert!(out.contains("1. exd8=Q+ Kh7 *"), "{out}");
    assert!(out.contains("1. e4 e5 2. Nf3 Nc6 *"), "{out}");
    // A square that holds none of the mover's pieces is refused as before.
    let bad = checked(b"1. g3-g4 *\n");
    assert!(!bad[0].0);
}
