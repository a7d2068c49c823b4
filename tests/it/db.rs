//! The database through the command: import, re-import, a killed import,
//! bad and read-only databases, pattern queries, the tree, export; and the
//! packed main lines the pattern queries replay.

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use crate::run::{stderr, xpgn};
use crate::scratch;
use proptest::prelude::*;
use scratch::Scratch;
use xpgn::db::packed::{Decoder, encode_all};
use xpgn::notation::coord::write_coord;
use xpgn::notation::game::{Game, Node};
use xpgn::notation::replay::replay;
use xpgn::notation::writer::{MoveNotation, replay_tree, write_game};
use xpgn::rules::{Move, MoveKind, Position, Variant};

/// A fresh, empty directory for one test.
fn temp(name: &str) -> Scratch {
    Scratch::new("db-test", name)
}

/// `n` games of pseudo-random legal moves of `variant`, as XPGN.
fn games(variant: Variant, n: usize, plies: usize, seed: u64) -> String {
    let mut s = seed | 1;
    let mut out = String::new();
    for g in 0..n {
        let mut pos = Position::start(&variant);
        let mut nodes = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let m = moves[(s % moves.len() as u64) as usize];
            nodes.push(Node::new(write_coord(&pos, &m)));
            pos.play_unchecked(&m);
        }
        let game = Game {
            tags: vec![
                ("Event".into(), format!("generated {g}")),
                ("Variant".into(), variant.def().display_name.clone()),
            ],
            moves: nodes,
            result: Some(pos.outcome().map_or("*", |o| o.result()).into()),
            ..Game::default()
        };
        out.push_str(
            &write_game(&xpgn::rules::Registry::builtin(), &game, MoveNotation::San).unwrap(),
        );
    }
    out
}

fn summary(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

#[test]
fn import_reimport_and_stats() {
    let dir = temp("reimport");
    let file = dir.join("games.xpgn");
    let bad = "[Event \"bad\"]\n1. e4 Ke7 *\n\n";
    let text = games(Variant::by_name("courier-spiel").unwrap(), 20, 60, 7) + bad;
    std::fs::write(&file, text).unwrap();
    let db = dir.join("t.db");
    let (f, d) = (file.to_str().unwrap(), db.to_str().unwrap());
    let o = xpgn(&["import", f, "--db", d]);
    // The bad game is stored as invalid: exit code 1.
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        summary(&o).starts_with("read 21, imported 21, duplicates 0, invalid 1,"),
        "{}",
        summary(&o)
    );
    let o = xpgn(&["import", f, "--db", d]);
    assert!(
        summary(&o).starts_with("read 21, imported 0, duplicates 21, invalid 0,"),
        "{}",
        summary(&o)
    );
    let o = xpgn(&["stats", "--db", d]);
    let text = summary(&o);
    assert!(
        text.contains("courier-spiel                20        0"),
        "{text}"
    );
    assert!(
        text.contains("chess                         0        1"),
        "{text}"
    );
}

#[test]
fn a_killed_import_leaves_a_consistent_database_and_a_rerun_completes_it() {
    let dir = temp("killed");
    let file = dir.join("many.pgn");
    // More games than one batch (10,000) holds, so one is committed
    // before the end.
    std::fs::write(&file, games(Variant::chess(), 12_000, 80, 11)).unwrap();
    let db = dir.join("k.db");
    let (f, d) = (file.to_str().unwrap(), db.to_str().unwrap());
    let mut child = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(["import", f, "--db", d])
        .spawn()
        .unwrap();
    // Kill it as soon as its first batch is committed.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        std::thread::sleep(Duration::from_millis(5));
        let committed =
            rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .and_then(|c| c.query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0)))
                .unwrap_or(0);
        if committed > 0 || std::time::Instant::now() > deadline {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    // Every committed game is whole: valid games have their moves and every
    // position of their main line.
    let conn_check = |expect_all: bool| {
        let o = xpgn(&["stats", "--db", d]);
        assert_eq!(o.status.code(), Some(0));
        let text = summary(&o);
        let games: u64 = text
            .lines()
            .find(|l| l.starts_with("total"))
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap()
            .parse()
            .unwrap();
        let plies: u64 = text
            .lines()
            .find(|l| l.starts_with("total"))
            .and_then(|l| l.split_whitespace().nth(3))
            .unwrap()
            .parse()
            .unwrap();
        let positions: u64 = text
            .lines()
            .find(|l| l.starts_with("positions indexed"))
            .and_then(|l| l.rsplit(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        // One position per ply plus the start, for every game (the index
        // keeps a repeated position of a game once per ply).
        assert_eq!(positions, plies + games, "{text}");
        if expect_all {
            assert_eq!(games, 12_000, "{text}");
        }
        games
    };
    let partial = conn_check(false);
    assert!(partial < 12_000, "the import finished before it was killed");
    let o = xpgn(&["import", f, "--db", d]);
    let s = summary(&o);
    assert!(s.contains(&format!("duplicates {partial},")), "{s}");
    conn_check(true);
}

#[test]
fn bad_databases_and_files_exit_2_without_writing() {
    let dir = temp("bad");
    let not_db = dir.join("not.db");
    std::fs::write(&not_db, "x".repeat(4096)).unwrap();
    let o = xpgn(&["stats", "--db", not_db.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a database"));
    let fresh = dir.join("fresh.db");
    let o = xpgn(&[
        "import",
        "no-such-file.pgn",
        "--db",
        fresh.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-file.pgn"));
    assert!(!fresh.exists(), "nothing is written for a missing input");
}

/// Imports `text` into a new database `name` in `dir`; its path.
fn imported(dir: &Path, name: &str, text: &str) -> String {
    let file = dir.join(format!("{name}.xpgn"));
    std::fs::write(&file, text).unwrap();
    let db = dir.join(format!("{name}.db"));
    let o = xpgn(&[
        "import",
        file.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    // Exit code 1 when some game is invalid (stored all the same).
    let invalid = !String::from_utf8_lossy(&o.stdout).contains(", invalid 0,");
    assert_eq!(o.status.code(), Some(i32::from(invalid)), "{}", stderr(&o));
    db.to_str().unwrap().to_string()
}

/// `query --format json` with `args`: (White tag, matching ply) per game.
fn found(db: &str, args: &[&str]) -> Vec<(String, Option<i64>)> {
    let mut all = vec!["query", "--db", db, "--format", "json"];
    all.extend_from_slice(args);
    let o = xpgn(&all);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["tags"]["White"].as_str().unwrap_or("").to_string(),
                v["ply"].as_i64(),
            )
        })
        .collect()
}

fn named(list: &[(&str, i64)]) -> Vec<(String, Option<i64>)> {
    list.iter()
        .map(|(n, p)| (n.to_string(), Some(*p)))
        .collect()
}

/// Games whose positions are known ply by ply.
const PATTERN_GAMES: &str = "[White \"A\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O *\n\n\
    [White \"B\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O *\n\n\
    [White \"E\"]\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qxd2+ 4. Bxd2 *\n\n\
    [White \"C\"][Variant \"Counsellor Chess\"]\n1. f4 f5 2. Nl3 Nj6 3. j4 e6 4. Ej2 k6 5. k3 Bk7 \
    6. Bk2 g6 7. h3 Cg7 8. Ch2 h6 9. Kh1 Eh7 10. Nc3 Rk8 11. O-O O-O *\n\n\
    [White \"D\"][Variant \"Counsellor Chess\"]\n1. f4 f5 2. Nl3 Nj6 *\n\n\
    [White \"F\"][FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n1. O-O Kd7 *\n\n\
    [White \"X\"]\n1. e4 Ke7 2. Kd3 *\n\n";

#[test]
fn piece_patterns_must_hold_in_one_position_and_report_the_first_ply() {
    let dir = temp("pieces");
    let db = imported(&dir, "p", PATTERN_GAMES);
    // The bishop stands on b5 at plies 5 and 6 of A, the king reaches g1
    // at ply 9 of A, ply 7 of B; only in B do both hold at once.
    assert_eq!(
        found(&db, &["--piece", "white:B@b5"]),
        named(&[("A", 5), ("B", 5)])
    );
    assert_eq!(
        found(&db, &["--piece", "white:K@g1"]),
        named(&[("A", 9), ("B", 7), ("F", 1)])
    );
    assert_eq!(
        found(&db, &["--piece", "white:B@b5", "--piece", "WHITE:k@G1"]),
        named(&[("B", 7)])
    );
    // Ply 0 is the start position, also a FEN tag's.
    assert_eq!(
        found(&db, &["--piece", "white:K@e1", "--piece", "white:R@h1"]),
        // X is invalid; its plies before the fault are stored and searched.
        named(&[("A", 0), ("B", 0), ("E", 0), ("F", 0), ("X", 0)])
    );
    // The letters and the board are the variant's.
    assert_eq!(
        found(&db, &["--variant", "counsellor", "--piece", "white:K@j1"]),
        named(&[("C", 21)])
    );
    assert_eq!(
        found(
            &db,
            &[
                "--variant",
                "counsellor",
                "--piece",
                "white:K@j1",
                "--piece",
                "black:k@i8"
            ]
        ),
        named(&[("C", 22)])
    );
    assert_eq!(
        found(&db, &["--variant", "counsellor", "--piece", "black:E@h7"]),
        named(&[("C", 18)])
    );
    // Anywhere on the board, with the SQL filters, with --limit.
    assert_eq!(
        found(&db, &["--piece", "black:Q@*", "--piece", "white:N@c3"]),
        named(&[("E", 5)])
    );
    assert_eq!(
        found(&db, &["--piece", "white:B@b5", "--white", "a"]),
        named(&[("A", 5)])
    );
    assert_eq!(
        found(&db, &["--piece", "white:P@e4", "--limit", "2"]),
        named(&[("A", 1), ("B", 1)])
    );
    assert_eq!(
        found(&db, &["--piece", "white:K@e1", "--moves", "e4 d5"]),
        named(&[("E", 0)])
    );
    // The index finds the games, the pattern gives the ply.
    let after_o_o = "r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4";
    assert_eq!(
        found(&db, &["--fen", after_o_o, "--piece", "white:P@e4"]),
        named(&[("B", 1)])
    );
    // Invalid games have no main line to look at.
    assert_eq!(found(&db, &["--piece", "black:K@e7"]), vec![]);
}

#[test]
fn material_signatures_bound_counts_per_side() {
    let dir = temp("material");
    let db = imported(&dir, "m", PATTERN_GAMES);
    // E: 2. exd5 Qxd5 leaves White seven pawns (ply 4), 3... Qxd2+ six
    // (ply 6), 4. Bxd2 takes Black's queen (ply 7).
    assert_eq!(found(&db, &["--material", "white:P7"]), named(&[("E", 4)]));
    assert_eq!(
        found(&db, &["--material", "black:Q0;white:P6"]),
        named(&[("E", 7)])
    );
    assert_eq!(found(&db, &["--material", "black:Q0;white:P>=7"]), vec![]);
    assert_eq!(
        found(
            &db,
            &["--material", "white:P<=6,P>=6", "--piece", "black:Q@*"]
        ),
        named(&[("E", 6)])
    );
    // A: 4. Bxc6 dxc6 trades a bishop for a knight.
    assert_eq!(
        found(&db, &["--material", "white:B1,N2;black:B2,N1,P8"]),
        named(&[("A", 8)])
    );
    // `*`: the types not named, the king excepted. F is king and rook
    // against a king from the start.
    assert_eq!(
        found(&db, &["--material", "white:R1,*0;black:*0"]),
        named(&[("F", 0)])
    );
    assert_eq!(found(&db, &["--material", "white:*0"]), vec![]);
    assert_eq!(
        found(
            &db,
            &["--variant", "counsellor", "--material", "white:E2,C2,P12"]
        ),
        named(&[("C", 0), ("D", 0)])
    );
}

#[test]
fn malformed_patterns_and_positions_are_usage_errors_naming_them() {
    let dir = temp("badspec");
    let db = imported(&dir, "b", PATTERN_GAMES);
    let missing = dir.join("missing.db");
    for (args, says) in [
        (
            &["--piece", "white:K@i1"][..],
            "`white:K@i1`: `i1` is no square of the 8x8 board of Chess (a1 to h8), nor `*`",
        ),
        (
            &["--piece", "red:K@e1"][..],
            "`red` is no side: expected `white:` or `black:`",
        ),
        (
            &["--piece", "white:E@e1"][..],
            "`E` is no piece letter of Chess (letters: KQRBNP)",
        ),
        (&["--piece", "white:K"][..], "expected SIDE:LETTER@SQUARE"),
        (
            &["--variant", "counsellor", "--piece", "white:K@m1"][..],
            "12x8 board of Counsellor Chess",
        ),
        (
            &["--material", "white:Q"][..],
            "`white:Q`: `Q`: expected a letter and a count",
        ),
        (
            &["--material", "white:Q1;white:R1"][..],
            "white is given twice",
        ),
        (&["--material", "white:Q>=x"][..], "`>=x` is no count"),
        (&["--fen", "8/8/8 w - - 0 1"][..], "--fen:"),
        (&["--moves", "e4 e4"][..], "--moves: ply 2 `e4`"),
    ] {
        for base in [
            &["query", "--db", db.as_str()][..],
            &["export", "--db", db.as_str()][..],
        ] {
            let mut all = base.to_vec();
            all.extend_from_slice(args);
            let o = xpgn(&all);
            assert_eq!(o.status.code(), Some(2), "{all:?}");
            assert!(stderr(&o).contains(says), "{all:?}: {}", stderr(&o));
            assert!(o.stdout.is_empty(), "{all:?}");
        }
        // Found before any database is opened (or created).
        let mut all = vec!["query", "--db", missing.to_str().unwrap()];
        all.extend_from_slice(args);
        assert!(stderr(&xpgn(&all)).contains(says));
        assert!(!missing.exists());
    }
    for args in [
        &["tree", "--db", db.as_str(), "--fen", "8/8/8 w - - 0 1"][..],
        &["tree", "--db", db.as_str(), "--moves", "e5"][..],
        &["tree", "--db", db.as_str(), "--variant", "xiangqi"][..],
    ] {
        let o = xpgn(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&o).is_empty());
    }
}

#[test]
fn the_tree_counts_games_by_move_with_results() {
    let dir = temp("tree");
    let text = "[Result \"1-0\"]\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
        [Result \"0-1\"]\n1. Nf3 Nc6 2. e4 e5 3. Bb5 0-1\n\n\
        [Result \"1/2-1/2\"]\n1. e4 e5 2. Nf3 Nc6 3. Bc4 1/2-1/2\n\n\
        [Result \"1-0\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0\n\n\
        [Result \"*\"]\n1. e4 c5 *\n\n\
        [Result \"1-0\"]\n1. e4 Ke7 1-0\n\n\
        [Variant \"Royal Chess\"][Result \"0-1\"]\n1. e3 e6 0-1\n\n";
    let db = imported(&dir, "t", text);
    let tree = |args: &[&str]| {
        let mut all = vec!["tree", "--db", db.as_str()];
        all.extend_from_slice(args);
        let o = xpgn(&all);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        String::from_utf8(o.stdout).unwrap()
    };
    let start = tree(&[]);
    let lines: Vec<Vec<&str>> = start
        .lines()
        .filter(|l| !l.starts_with("Opening: "))
        .map(|l| l.split_whitespace().take(7).collect())
        .collect();
    assert_eq!(
        lines[0],
        [
            "FEN:",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            "w",
            "KQkq",
            "-",
            "0",
            "1"
        ]
    );
    assert_eq!(
        lines[1],
        [
            "move", "games", "white", "draws", "black", "unknown", "score"
        ]
    );
    // e4: three wins (one by an invalid game, whose line up to its fault
    // is stored), a draw, one unfinished game: 3.5 of 4 for White.
    assert_eq!(lines[2], ["e4", "5", "3", "1", "0", "1", "87.5%"]);
    assert_eq!(lines[3], ["Nf3", "1", "0", "0", "1", "0", "0.0%"]);
    // Each move's resulting opening, after the counts.
    assert!(
        start.contains("\ne4 ") && start.contains("B00 King's Pawn Game\n"),
        "{start}"
    );
    assert!(start.ends_with("6 games reach this position, 0 end in it; score: White's (to move), over games with a result (unknown: no result, `*`)\n"), "{start}");
    // Reached by transposition in game 2; game 1 ends there. Scores for Black.
    let after = tree(&["--moves", "e4 e5 Nf3 Nc6"]);
    let lines: Vec<Vec<&str>> = after
        .lines()
        .filter(|l| !l.starts_with("Opening: "))
        .map(|l| l.split_whitespace().take(7).collect())
        .collect();
    assert_eq!(lines[2], ["Bb5", "2", "1", "0", "1", "0", "50.0%"]);
    assert_eq!(lines[3], ["Bc4", "1", "0", "1", "0", "0", "50.0%"]);
    assert!(
        after.contains("\nOpening: C44 King's Knight Opening: Normal Variation\n"),
        "{after}"
    );
    assert!(after.contains("C60 Ruy Lopez\n"), "{after}");
    assert!(after.ends_with("4 games reach this position, 1 ends in it; score: White's (to move), over games with a result (unknown: no result, `*`)\n"), "{after}");
    let black = tree(&["--moves", "e2e4"]);
    let lines: Vec<Vec<&str>> = black
        .lines()
        .filter(|l| !l.starts_with("Opening: "))
        .map(|l| l.split_whitespace().take(7).collect())
        .collect();
    assert_eq!(lines[2], ["e5", "3", "2", "1", "0", "0", "16.7%"]);
    assert_eq!(lines[3], ["c5", "1", "0", "0", "0", "1", "-"]);
    assert!(black.contains("score: Black's (to move)"), "{black}");
    let fen = tree(&[
        "--fen",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 9",
    ]);
    assert!(fen.contains("\nNf3 "), "{fen}");
    let royal = tree(&["--variant", "royal"]);
    assert!(
        royal.contains("\ne3 ") && royal.contains("1 game reaches"),
        "{royal}"
    );
}

/// The main lines stored (start and packed moves), in id order.
fn main_lines(db: &str) -> Vec<(Option<String>, Vec<u8>)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.prepare("SELECT start, packed FROM moves ORDER BY game")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn export_writes_the_original_bytes_or_games_that_read_back_equal() {
    let dir = temp("export");
    let bad = "[Event \"bad\"]\n1. e4 Ke7 *\n\n";
    let unreadable = "[Event \"worse\"]\n1. e4 {never closed\n\n";
    let text = games(Variant::by_name("courier-spiel").unwrap(), 6, 90, 3)
        + bad
        + &games(Variant::chess(), 5, 60, 5)
        + "[Event \"commented\"]\n1. e2e4 {a comment} e7e5 (1... c5 $1) 2. Ng1-f3 *\n\n"
        + unreadable;
    let db = imported(&dir, "src", &text);
    let out = dir.join("out.pgn");
    let o = xpgn(&[
        "export",
        "--db",
        &db,
        "--original",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let o = xpgn(&["export", "--db", &db, "--original", "--status", "invalid"]);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!("{bad}{unreadable}")
    );

    let o = xpgn(&["export", "--db", &db]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("2 invalid games written whole in their safe form"),
        "{}",
        stderr(&o)
    );
    let canonical = String::from_utf8(o.stdout).unwrap();
    // Invalid games go out as their original in `%` lines.
    let escaped = |t: &str| t.lines().map(|l| format!("%{l}\n")).collect::<String>();
    assert!(canonical.contains(&escaped(bad)) && canonical.contains(&escaped(unreadable)));
    assert!(canonical.contains("1. e4 {a comment} 1... e5 (1... c5 $1) 2. Nf3 *\n"));
    // Read back: the same games, none a duplicate, the same moves.
    let again = imported(&dir, "again", &canonical);
    let s = summary(&xpgn(&["stats", "--db", &again]));
    assert!(
        s.contains("total                        12        2"),
        "{s}"
    );
    assert_eq!(main_lines(&again), main_lines(&db));
    // query --format xpgn writes what export does.
    let o = xpgn(&[
        "query",
        "--db",
        &db,
        "--format",
        "xpgn",
        "--variant",
        "courier-spiel",
    ]);
    let e = xpgn(&["export", "--db", &db, "--variant", "courier-spiel"]);
    assert_eq!(o.stdout, e.stdout);
    assert_eq!(
        String::from_utf8(o.stdout)
            .unwrap()
            .matches("[Variant \"Courier-Spiel\"]")
            .count(),
        6
    );

    let o = xpgn(&["export", "--db", &db, "--to", "json", "--status", "valid"]);
    let lines: Vec<serde_json::Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 12);
    assert_eq!(lines[11]["moves"][1]["variations"][0][0]["san"], "c5");
    // Export takes the pattern filters too.
    let o = xpgn(&[
        "export",
        "--db",
        &db,
        "--original",
        "--piece",
        "white:N@f3",
        "--event",
        "commented",
    ]);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "[Event \"commented\"]\n1. e2e4 {a comment} e7e5 (1... c5 $1) 2. Ng1-f3 *\n\n"
    );
}

#[test]
fn reading_commands_need_an_existing_database_and_create_none() {
    let dir = temp("missing");
    let missing = dir.join("none.db");
    let m = missing.to_str().unwrap();
    let not_db = dir.join("not.db");
    std::fs::write(&not_db, "x".repeat(4096)).unwrap();
    let n = not_db.to_str().unwrap();
    for args in [
        &["query", "--db", m][..],
        &["tree", "--db", m][..],
        &["export", "--db", m][..],
        &["stats", "--db", m][..],
    ] {
        let o = xpgn(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("none.db: no such database"),
            "{}",
            stderr(&o)
        );
        assert!(!missing.exists());
    }
    for args in [
        &["query", "--db", n][..],
        &["tree", "--db", n][..],
        &["export", "--db", n, "--original"][..],
        &["import", "no-such.pgn", "--db", n][..],
    ] {
        let o = xpgn(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&o).is_empty());
    }
    assert_eq!(std::fs::read(&not_db).unwrap(), "x".repeat(4096).as_bytes());
    // A folder is no database, for reading or writing.
    let folder = dir.to_str().unwrap();
    for args in [
        &["query", "--db", folder][..],
        &["tree", "--db", folder][..],
    ] {
        let o = xpgn(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(folder), "{}", stderr(&o));
    }
    let games = dir.join("g.pgn");
    std::fs::write(&games, "1. e4 *\n").unwrap();
    let o = xpgn(&["import", games.to_str().unwrap(), "--db", folder]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with(&format!("xpgn: --db {folder}: ")),
        "{}",
        stderr(&o)
    );
    // An export that fails leaves no output file.
    let out = dir.join("out.pgn");
    let o = xpgn(&["export", "--db", n, "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        std::fs::read_dir(&dir).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains("out.pgn"))
    );
}

#[cfg(unix)]
#[test]
fn a_read_only_database_answers_queries_and_refuses_imports() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp("readonly");
    let db = imported(&dir, "r", PATTERN_GAMES);
    let more = dir.join("more.pgn");
    std::fs::write(&more, games(Variant::chess(), 3, 20, 9)).unwrap();
    let before = std::fs::read(&db).unwrap();
    let set = |file: u32, folder: u32| {
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(file)).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(folder)).unwrap();
    };
    set(0o444, 0o555);
    let o = xpgn(&["import", more.to_str().unwrap(), "--db", &db]);
    let refused = (o.status.code(), stderr(&o));
    let queried = found(&db, &["--piece", "white:K@g1"]);
    let stats = xpgn(&["stats", "--db", &db]);
    let tree = xpgn(&["tree", "--db", &db]);
    set(0o644, 0o755);
    assert_eq!(refused.0, Some(2), "{}", refused.1);
    assert!(
        refused
            .1
            .contains("the database is read-only: nothing was written"),
        "{}",
        refused.1
    );
    assert_eq!(std::fs::read(&db).unwrap(), before);
    assert_eq!(queried, named(&[("A", 9), ("B", 7), ("F", 1)]));
    assert!(
        summary(&stats).contains("total                         6        1"),
        "{}",
        summary(&stats)
    );
    assert!(String::from_utf8_lossy(&tree.stdout).contains("\ne4 "));
}

/// Decodes every stored packed line and replays it: the positions are
/// the ones the index holds for the game, ply by ply.
fn check_packed_against_index(db: &str) -> usize {
    let conn = rusqlite::Connection::open(db).unwrap();
    let rows: Vec<(i64, String, Vec<u8>, Option<String>)> = conn
        .prepare("SELECT m.game, g.variant, m.packed, m.start FROM moves m JOIN games g ON g.id = m.game")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let blobs: Vec<Vec<u8>> = conn
        .prepare("SELECT entries FROM position_postings")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let index: Vec<xpgn::db::postings::Posting> = blobs
        .iter()
        .flat_map(|b| xpgn::db::postings::entries(b))
        .collect();
    for (game, variant, packed, start) in &rows {
        let variant = Variant::by_name(variant).unwrap();
        let mut pos = match start {
            Some(s) => xpgn::notation::position::read_position(&variant, s).unwrap(),
            None => Position::start(&variant),
        };
        let mut keys = vec![pos.key() as i64];
        for m in Decoder::new(&variant, packed) {
            let m = m.unwrap();
            assert!(pos.legal_moves().contains(&m), "game {game}");
            pos.play_unchecked(&m);
            keys.push(pos.key() as i64);
        }
        let mut indexed: Vec<(u16, i64)> = index
            .iter()
            .filter(|p| i64::from(p.game) == *game)
            .map(|p| (p.ply, p.key as i64))
            .collect();
        indexed.sort_unstable();
        let indexed: Vec<i64> = indexed.into_iter().map(|(_, k)| k).collect();
        assert_eq!(indexed, keys, "game {game}");
    }
    rows.len()
}

#[test]
fn packed_main_lines_cover_every_special_move_and_replay_to_the_index() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let dir = temp("packed");
    let db = dir.join("s.db");
    let o = xpgn(&[
        "import",
        samples.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    // samples/invalid: exit code 1.
    assert_eq!(o.status.code(), Some(1));
    assert!(check_packed_against_index(db.to_str().unwrap()) >= 20);
    // Every legal move of every sample position round-trips, and among
    // them is every kind of move there is.
    let mut seen = std::collections::BTreeSet::new();
    let mut files = vec![samples];
    while let Some(p) = files.pop() {
        if p.is_dir() {
            files.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if !p.extension().is_some_and(|e| e == "pgn" || e == "xpgn")
            || p.starts_with(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/invalid"))
        {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        for item in xpgn::notation::reader::read_games(text.as_bytes()) {
            let game = item.unwrap().1;
            assert!(!game.broken(), "{:?}", game.diagnostics);
            let (_, tree) = replay_tree(&xpgn::rules::Registry::builtin(), &game).unwrap();
            let r = replay(&xpgn::rules::Registry::builtin(), &game).unwrap();
            for ply in &tree {
                let legal = ply.before.legal_moves();
                let back: Vec<Move> = Decoder::new(&r.variant, &encode_all(&legal))
                    .collect::<Result<_, _>>()
                    .unwrap();
                assert_eq!(back, legal);
                for m in &legal {
                    seen.insert(match m.kind() {
                        MoveKind::Normal => "normal",
                        MoveKind::DoubleStep => "double step",
                        MoveKind::EnPassant => "en passant",
                        MoveKind::Castle(_) => "castling",
                        MoveKind::SpecialKing => "king's special move",
                        MoveKind::Null => "null move",
                        MoveKind::Drop(_) => "drop",
                        _ => "another kind",
                    });
                    if m.promotion().is_some() {
                        seen.insert("promotion");
                    }
                    if m.waiting_promotion().is_some() {
                        seen.insert("waiting promotion");
                    }
                    if m.instant_promotion().is_some() {
                        seen.insert("instant promotion");
                    }
                }
            }
        }
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        [
            "castling",
            "double step",
            "en passant",
            "instant promotion",
            "king's special move",
            "normal",
            "promotion",
            "waiting promotion"
        ]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_legal_move_of_random_games_round_trips_packed(
        v in 0..Variant::builtin().len(),
        choices in prop::collection::vec(any::<usize>(), 0..160),
    ) {
        let variant = Variant::builtin()[v].clone();
        let mut pos = Position::start(&variant);
        let mut line = Vec::new();
        for c in choices {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let back: Vec<Move> = Decoder::new(&variant, &encode_all(&legal)).collect::<Result<_, _>>().unwrap();
            prop_assert_eq!(&back, &legal);
            line.push(legal[c % legal.len()]);
            pos.play_unchecked(&legal[c % legal.len()]);
        }
        let mut replayed = Position::start(&variant);
        for m in Decoder::new(&variant, &encode_all(&line)) {
            replayed.play_unchecked(&m.unwrap());
        }
        prop_assert_eq!(replayed.key(), pos.key());
    }
}

#[test]
fn imported_random_games_of_every_variant_replay_from_their_packed_lines() {
    let dir = temp("random");
    let mut text = String::new();
    for (i, v) in Variant::builtin().iter().enumerate() {
        text.push_str(&games(v.clone(), 4, 120, 100 + i as u64));
    }
    let db = imported(&dir, "r", &text);
    assert_eq!(
        check_packed_against_index(&db),
        4 * Variant::builtin().len()
    );
}

/// Imports `text` into a new database and opens a connection that holds a
/// write transaction on it (as an import does between its commits), with
/// game 1 deleted and a game row added, not committed.
fn held_writer(dir: &Path, text: &str) -> (String, rusqlite::Connection) {
    let db = imported(dir, "busy", text);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "BEGIN IMMEDIATE;
         DELETE FROM position_postings;
         DELETE FROM moves WHERE game = 1;
         DELETE FROM games WHERE id = 1;",
    )
    .unwrap();
    (db, conn)
}

#[test]
fn reading_commands_answer_at_once_while_another_process_writes() {
    let dir = temp("concurrent-read");
    let (db, writer) = held_writer(&dir, PATTERN_GAMES);
    let db = db.as_str();
    // Each would have waited 5 s for the write lock and failed with
    // "database is locked"; a WAL reader never waits, and sees what is
    // committed: all 7 games, game 1 too.
    let o = xpgn(&["query", "--db", db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(summary(&o).ends_with("7 games"), "{}", summary(&o));
    let o = xpgn(&["stats", "--db", db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(summary(&o).contains("total                         6        1"));
    let o = xpgn(&["tree", "--db", db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The invalid game's plies before its fault are stored too.
    assert!(
        summary(&o).contains("4 games reach this position"),
        "{}",
        summary(&o)
    );
    let o = xpgn(&["export", "--db", db, "--original", "--white", "A"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("[White \"A\"]"));
    writer.execute_batch("ROLLBACK").unwrap();
}

#[test]
fn a_second_import_waits_for_the_first_and_then_completes() {
    use std::io::BufRead;
    let dir = temp("concurrent-import");
    let (db, writer) = held_writer(&dir, PATTERN_GAMES);
    let more = dir.join("more.pgn");
    std::fs::write(&more, games(Variant::chess(), 5, 20, 21)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(["import", more.to_str().unwrap(), "--db", &db])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert_eq!(
        line,
        format!("xpgn: waiting for another import of {db} to finish...\n")
    );
    // Still waiting, however long the other writes.
    std::thread::sleep(Duration::from_millis(300));
    assert!(child.try_wait().unwrap().is_none(), "the import gave up");
    writer.execute_batch("COMMIT").unwrap();
    let o = child.wait_with_output().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    assert_eq!(o.status.code(), Some(0), "{rest}");
    assert!(
        summary(&o).starts_with("read 5, imported 5, duplicates 0, invalid 0,"),
        "{}",
        summary(&o)
    );
    let s = summary(&xpgn(&["stats", "--db", &db]));
    assert!(
        s.contains("total                        10        1"),
        "{s}"
    );
}

#[test]
fn a_reader_of_an_old_schema_that_another_process_writes_is_told_to_run_optimize() {
    let dir = temp("behind");
    let (db, writer) = held_writer(&dir, PATTERN_GAMES);
    writer.execute_batch("ROLLBACK").unwrap();
    writer.pragma_update(None, "user_version", 2).unwrap();
    writer
        .execute_batch("BEGIN IMMEDIATE; DELETE FROM games WHERE id = 2;")
        .unwrap();
    let o = xpgn(&["stats", "--db", &db]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!(
            "has schema version 2 and this xpgn reads version {}: run `xpgn optimize` on it once",
            xpgn::db::SCHEMA_VERSION
        )),
        "{}",
        stderr(&o)
    );
    writer.execute_batch("ROLLBACK").unwrap();
}

/// Overwrites the middle half of `db` with bytes no page can hold.
fn damage(db: &str) {
    let mut bytes = std::fs::read(db).unwrap();
    let n = bytes.len();
    assert!(
        n > 64 * 1024,
        "{n} bytes: too small to damage in the middle"
    );
    for b in &mut bytes[n / 4..n * 3 / 4] {
        *b = 0xff;
    }
    std::fs::write(db, bytes).unwrap();
}

#[test]
fn a_damaged_database_is_refused_with_exit_2_by_import_and_query() {
    let dir = temp("damaged");
    let db = imported(&dir, "d", &games(Variant::chess(), 400, 60, 13));
    damage(&db);
    let before = std::fs::read(&db).unwrap();
    let more = dir.join("more.pgn");
    std::fs::write(&more, games(Variant::chess(), 3, 20, 17)).unwrap();
    let o = xpgn(&["import", more.to_str().unwrap(), "--db", &db]);
    assert_eq!(o.status.code(), Some(2), "{}", summary(&o));
    assert!(
        stderr(&o).starts_with(&format!("xpgn: --db {db}: the database file is damaged (")),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&db).unwrap(), before, "nothing was written");
    for args in [
        &["query", "--db", db.as_str()][..],
        &["query", "--db", db.as_str(), "--format", "json"][..],
        &["export", "--db", db.as_str(), "--original"][..],
    ] {
        let o = xpgn(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).starts_with(&format!("xpgn: --db {db}: the database file is damaged (")),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

/// `tree --format json` with `args`.
fn tree_json(db: &str, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["tree", "--db", db, "--format", "json"];
    all.extend_from_slice(args);
    let o = xpgn(&all);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1);
    serde_json::from_slice(&o.stdout).unwrap()
}

/// (san, games, white wins, draws, black wins) per move of a JSON tree.
fn tree_rows(tree: &serde_json::Value) -> Vec<(String, u64, u64, u64, u64)> {
    tree["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["san"].as_str().unwrap().to_string(),
                m["games"].as_u64().unwrap(),
                m["white_wins"].as_u64().unwrap(),
                m["draws"].as_u64().unwrap(),
                m["black_wins"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_tree_decodes_a_long_game_once_however_often_it_returns() {
    // 40,000 plies of knights going out and back: the start position is
    // reached 10,001 times (plies 0, 4, ..., 40,000), the position after
    // 1. Nf3 10,000 times.
    let cycles = 10_000;
    let mut text = String::from("[White \"Shuffler\"][Result \"1/2-1/2\"]\n");
    for i in 0..cycles {
        let n = 2 * i + 1;
        text.push_str(&format!("{n}. Nf3 Nf6 {}. Ng1 Ng8 ", n + 1));
    }
    text.push_str(&format!("{}. e4 1/2-1/2\n\n", 2 * cycles + 1));
    text.push_str("[Result \"1-0\"]\n1. e4 e5 1-0\n\n");
    let dir = temp("long-tree");
    let db = imported(&dir, "long", &text);
    let database = xpgn::db::Database::open_existing(Path::new(&db)).unwrap();
    let start = database.tree(&Position::start(Variant::chess())).unwrap();
    let rows: Vec<(&str, u64)> = start
        .moves
        .iter()
        .map(|m| (m.san.as_str(), m.games))
        .collect();
    assert_eq!(rows, [("e4", 2), ("Nf3", 1)]);
    assert_eq!((start.games, start.ended), (2, 0));
    // The long game's line is decoded once, to its last ply: not once
    // from ply 0 per time it comes back (50 million moves).
    assert_eq!(start.decoded, 4 * cycles + 1 + 1);
    drop(database);
    let after = tree_json(&db, &["--moves", "1. Nf3"]);
    assert_eq!(tree_rows(&after), [("Nf6".to_string(), 1, 0, 1, 0)]);
    assert_eq!(
        (after["games"].as_u64(), after["ended"].as_u64()),
        (Some(1), Some(0))
    );
    let start = tree_json(&db, &[]);
    assert_eq!(
        start["position"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(start["moves"][0]["coord"], "e2e4");
    assert_eq!(start["moves"][0]["score"], 75.0);
    assert_eq!(start["moves"][1]["san"], "Nf3");
    assert_eq!(start["moves"][1]["score"], 50.0);
}

const DATED: &str = "[White \"Year\"][Date \"1985.??.??\"]\n1. e4 *\n\n\
    [White \"June\"][Date \"1985.06.??\"]\n1. e4 *\n\n\
    [White \"Day\"][Date \"1985.06.15\"]\n1. e4 *\n\n\
    [White \"Next\"][Date \"1986.01.01\"]\n1. e4 *\n\n\
    [White \"Unknown\"][Date \"????.??.??\"]\n1. e4 *\n\n\
    [White \"None\"]\n1. e4 *\n\n";

/// White tags of the games `query` finds with `args`.
fn whites(db: &str, args: &[&str]) -> Vec<String> {
    found(db, args).into_iter().map(|(w, _)| w).collect()
}

#[test]
fn partial_dates_match_the_ranges_they_overlap() {
    let dir = temp("dates");
    let db = imported(&dir, "d", DATED);
    let w = |args: &[&str]| whites(&db, args);
    assert_eq!(
        w(&["--date-from", "1985.01.01", "--date-to", "1985.12.31"]),
        ["Year", "June", "Day"]
    );
    assert_eq!(
        w(&["--date-from", "1985.03.01"]),
        ["Year", "June", "Day", "Next"]
    );
    assert_eq!(w(&["--date-to", "1985.05"]), ["Year"]);
    assert_eq!(w(&["--date-from", "1985-06-20"]), ["Year", "June", "Next"]);
    assert_eq!(
        w(&["--date-from", "1985.06", "--date-to", "1985.06"]),
        ["Year", "June", "Day"]
    );
    assert_eq!(w(&["--date-from", "1986"]), ["Next"]);
    assert_eq!(w(&["--date-to", "1984"]), Vec::<String>::new());
}

#[test]
fn refused_filter_values_exit_2_naming_the_flag_and_what_it_takes() {
    let dir = temp("refused");
    let db = imported(&dir, "r", DATED);
    let dates = "expected YYYY.MM.DD, YYYY-MM-DD, YYYY.MM or YYYY";
    for (args, says) in [
        (
            &["--date-from", "2020.13.45"][..],
            vec!["--date-from", "`2020.13.45`", dates],
        ),
        (&["--date-to", "1985/12/31"][..], vec!["--date-to", dates]),
        (&["--date-from", "abc"][..], vec!["--date-from", dates]),
        (&["--date-to", "2021.02.29"][..], vec!["--date-to", dates]),
        (
            &["--result", "1-O"][..],
            vec!["--result", "1-0", "0-1", "1/2-1/2"],
        ),
        (
            &["--status", "good"][..],
            vec!["--status", "valid", "invalid"],
        ),
        (&["--limit", "ten"][..], vec!["--limit", "ten"]),
        (&["--tag", "White"][..], vec!["--tag", "NAME OP VALUE"]),
        (
            &["--variant", "xiangqi"][..],
            vec!["--variant", "known: chess"],
        ),
    ] {
        for cmd in ["query", "export"] {
            let mut all = vec![cmd, "--db", db.as_str()];
            all.extend_from_slice(args);
            let o = xpgn(&all);
            assert_eq!(o.status.code(), Some(2), "{all:?}");
            for s in &says {
                assert!(
                    stderr(&o).contains(s),
                    "{all:?}: no `{s}` in {}",
                    stderr(&o)
                );
            }
            assert!(o.stdout.is_empty(), "{all:?}");
        }
    }
}

#[test]
fn names_match_case_blind_in_any_script_and_player_means_either_colour() {
    let dir = temp("unicode");
    let text = "[Event \"Zürich\"][White \"MÜLLER, Jörg\"][Black \"Ødegaard\"]\n1. e4 *\n\n\
        [Event \"Bern\"][White \"Øystein\"][Black \"Müller, Anna\"]\n1. d4 *\n\n\
        [Event \"Basel\"][White \"Other\"][Black \"Player\"]\n1. c4 *\n\n";
    let db = imported(&dir, "u", text);
    let w = |args: &[&str]| whites(&db, args);
    assert_eq!(w(&["--white", "müller"]), ["MÜLLER, Jörg"]);
    assert_eq!(w(&["--event", "ZÜRICH"]), ["MÜLLER, Jörg"]);
    assert_eq!(w(&["--tag", "Black=øDEGAARD"]), ["MÜLLER, Jörg"]);
    assert_eq!(w(&["--player", "MÜLLER"]), ["MÜLLER, Jörg", "Øystein"]);
    assert_eq!(w(&["--player", "øystein"]), ["Øystein"]);
    assert_eq!(w(&["--player", "player"]), ["Other"]);
    assert_eq!(w(&["--player", "müller", "--black", "anna"]), ["Øystein"]);
}

/// Games stored together in frames (schema 12) read their tags from their
/// text: filters on the seven and on any other tag, a game with a second
/// `White` tag (kept as JSON), the tags `show` gives, and a game too long
/// to share a frame, read as before.
#[test]
fn games_stored_in_frames_keep_every_tag_and_text() {
    let dir = temp("framed");
    let long_comment = "x".repeat(20_000);
    let text = format!(
        "[Event \"Open\"][White \"Anna\"][Black \"Ben\"][ECO \"B90\"][WhiteElo \"2650\"]\n1. e4 c5 *\n\n\
         [White \"Carl\"][White \"Dora\"][ECO \"C20\"]\n1. e4 e5 *\n\n\
         [White \"Eve\"][Opening \"Long \\\"one\\\"\"]\n1. d4 {{{long_comment}}} d5 *\n\n\
         [White \"Finn\"][ECO \"B91\"]\n1. e4 c5 *\n"
    );
    let db = imported(&dir, "f", &text);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let stored: Vec<(i64, Option<i64>)> = conn
        .prepare("SELECT roster, frame FROM games ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    // One frame for the three short games; the long one alone.
    assert_eq!(
        stored,
        [(2, Some(1)), (0, Some(1)), (0, None), (2, Some(1))],
        "{stored:?}"
    );
    let w = |args: &[&str]| whites(&db, args);
    assert_eq!(w(&["--tag", "ECO=B9"]), ["Anna", "Finn"]);
    assert_eq!(w(&["--tag", "Event=open"]), ["Anna"]);
    // (The JSON object of a game's tags holds the last `White`.)
    assert_eq!(w(&["--white", "dora"]), ["Dora"]);
    assert_eq!(w(&["--white", "carl"]), ["Dora"]);
    assert_eq!(w(&["--player", "ben"]), ["Anna"]);
    assert_eq!(w(&["--tag", "WhiteElo>=2600"]), ["Anna"]);
    assert_eq!(w(&["--tag", "Opening=long \"one"]), ["Eve"]);
    // Export writes every tag again, the seven first.
    let canonical = xpgn(&["export", "--db", &db, "--white", "anna"]);
    assert_eq!(canonical.status.code(), Some(0), "{}", stderr(&canonical));
    assert!(
        summary(&canonical).starts_with(
            "[Event \"Open\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"Anna\"]\n[Black \"Ben\"]\n[Result \"*\"]\n[ECO \"B90\"]\n[WhiteElo \"2650\"]\n"
        ),
        "{}",
        summary(&canonical)
    );
    let original = xpgn(&["export", "--db", &db, "--original"]);
    assert_eq!(String::from_utf8_lossy(&original.stdout), text);
}

/// A frame gone from the database: reading a game of it says which game
/// and what is missing, without a panic.
#[test]
fn a_missing_frame_names_the_game_that_needs_it() {
    let dir = temp("frame-gone");
    let db = imported(&dir, "g", PATTERN_GAMES);
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("DELETE FROM original_frames")
        .unwrap();
    for args in [
        vec!["export", "--db", db.as_str(), "--original"],
        vec!["query", "--db", db.as_str(), "--tag", "ECO=B"],
    ] {
        let o = xpgn(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains(
                "game 1: the stored original text does not decompress: frame 1 is missing"
            ),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn moves_take_move_numbers_and_any_notation() {
    let dir = temp("moves");
    let text = "[White \"A\"]\n1. e4 e5 2. Nf3 Nc6 *\n\n\
        [White \"B\"]\n1. e4 e5 2. Bc4 *\n\n\
        [White \"C\"]\n1. d4 d5 *\n\n";
    let db = imported(&dir, "m", text);
    let w = |args: &[&str]| whites(&db, args);
    for moves in [
        "1. e4 e5 2. Nf3",
        "1.e4 e5 2.Nf3",
        "e2e4 e7e5 g1f3",
        "1. e2e4 1... e7e5 2.Ng1-f3",
        "e4 1...e5 Nf3",
    ] {
        assert_eq!(w(&["--moves", moves]), ["A"], "{moves}");
    }
    assert_eq!(w(&["--moves", "1. e4 e5"]), ["A", "B"]);
    assert_eq!(w(&["--moves", "1.d4"]), ["C"]);
    let tree = tree_json(&db, &["--moves", "1. e4 e5"]);
    assert_eq!(
        tree_rows(&tree)
            .iter()
            .map(|r| r.0.as_str())
            .collect::<Vec<_>>(),
        ["Bc4", "Nf3"]
    );
    let o = xpgn(&["query", "--db", &db, "--moves", "1. e4 e5 2. e5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--moves: ply 3 `e5`"), "{}", stderr(&o));
}

/// The same board (1. e4 e5) reached with White to move and all castling
/// rights (A), with Black to move (B), and with White to move and no
/// castling (C, twice); D reaches a board with an en passant capture.
const BOARDS: &str = "[White \"A\"][Result \"1-0\"]\n1. e4 e5 2. Nf3 1-0\n\n\
    [White \"B\"][Result \"0-1\"]\n1. e3 e5 2. e4 Nc6 0-1\n\n\
    [White \"C\"][Result \"1/2-1/2\"]\n1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. d4 1/2-1/2\n\n\
    [White \"D\"]\n1. e4 a6 2. e5 d5 3. exd6 *\n\n";

const BOARD: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR";

#[test]
fn a_board_alone_finds_any_side_to_move_castling_and_en_passant() {
    let dir = temp("board-only");
    let db = imported(&dir, "b", BOARDS);
    assert_eq!(
        found(&db, &["--fen", BOARD]),
        named(&[("A", 2), ("B", 3), ("C", 2)])
    );
    assert_eq!(
        found(&db, &["--fen", &format!("{BOARD} w KQkq - 0 2")]),
        named(&[("A", 2), ("C", 2)])
    );
    assert_eq!(
        found(&db, &["--fen", &format!("{BOARD} b")]),
        named(&[("B", 3)])
    );
    assert_eq!(
        found(&db, &["--fen", &format!("{BOARD} w -")]),
        named(&[("C", 6)])
    );
    // The en passant square of D's position after 2... d5 counts in its
    // key (exd6 is possible): a whole string without it finds nothing.
    let d = "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR";
    assert_eq!(found(&db, &["--fen", &format!("{d} w KQkq - 0 3")]), vec![]);
    assert_eq!(
        found(&db, &["--fen", &format!("{d} w KQkq d6 0 3")]),
        named(&[("D", 4)])
    );
    assert_eq!(found(&db, &["--fen", d]), named(&[("D", 4)]));
    // Said so: in the table, on standard error for JSON.
    let o = xpgn(&["query", "--db", &db, "--fen", BOARD]);
    let first = summary(&o).lines().next().unwrap().to_string();
    assert_eq!(
        first,
        "board only: searched any side-to-move, castling, en-passant (32 states)"
    );
    let o = xpgn(&["query", "--db", &db, "--fen", BOARD, "--format", "json"]);
    assert!(
        stderr(&o).contains("board only: searched any"),
        "{}",
        stderr(&o)
    );
    let o = xpgn(&[
        "query",
        "--db",
        &db,
        "--fen",
        &format!("{BOARD} w KQkq - 0 2"),
    ]);
    assert!(!summary(&o).contains("board only"));
    // The tree: each move with its side; scores for the side that moves.
    let tree = tree_json(&db, &["--fen", BOARD]);
    assert_eq!(
        tree_rows(&tree),
        [
            ("Ke2".to_string(), 1, 0, 1, 0),
            ("Nc6".to_string(), 1, 0, 0, 1),
            ("Nf3".to_string(), 1, 1, 0, 0),
            ("d4".to_string(), 1, 0, 1, 0),
        ]
    );
    assert_eq!(tree["moves"][1]["turn"], "black");
    assert_eq!(tree["moves"][1]["score"], 100.0);
    assert_eq!(
        (tree["games"].as_u64(), tree["states"].as_u64()),
        (Some(3), Some(32))
    );
    let o = xpgn(&["tree", "--db", &db, "--fen", BOARD]);
    let text = summary(&o);
    assert!(
        text.contains("\nboard only: searched any side-to-move"),
        "{text}"
    );
    assert!(text.contains("\n...Nc6 "), "{text}");
    // A variant with extra fields: the king's leap right is varied too.
    let leap = Variant::by_name("kings-leap").unwrap();
    let kl = imported(&dir, "kl", &games(leap.clone(), 2, 6, 5));
    let start = xpgn::notation::position::start_position(&leap);
    let board = start.split(' ').next().unwrap();
    let both: Vec<_> = found(&kl, &["--variant", "kings-leap", "--fen", board])
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    assert_eq!(both, [Some(0), Some(0)]);
}

#[test]
fn stats_print_one_json_document() {
    let dir = temp("stats-json");
    let db = imported(&dir, "s", PATTERN_GAMES);
    let o = xpgn(&["stats", "--db", &db, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["variants"],
        serde_json::json!([
            {"variant": "chess", "valid": 4, "invalid": 1, "plies": 26},
            {"variant": "counsellor", "valid": 2, "invalid": 0, "plies": 26},
        ])
    );
    // One per ply and the start, per game; X, invalid, has 1 of the 26
    // chess plies, and its 2 positions up to the fault are indexed too.
    assert_eq!(v["positions"], 25 + 4 + 26 + 2 + 2);
    assert!(v["bytes"].as_u64().unwrap() > 0);
}

/// The reading commands, each with `--db db`.
fn reading_commands(db: &str) -> Vec<Vec<&str>> {
    vec![
        vec!["stats", "--db", db],
        vec!["query", "--db", db],
        vec!["tree", "--db", db],
        vec!["export", "--db", db],
        vec!["duplicates", "--db", db],
        vec!["check", "--db", db],
    ]
}

/// The bytes of `db` and of whatever SQLite files lie beside it.
fn files_of(db: &str) -> Vec<(String, Option<Vec<u8>>)> {
    ["", "-wal", "-shm", "-journal"]
        .iter()
        .map(|ext| {
            let path = format!("{db}{ext}");
            let bytes = std::fs::read(&path).ok();
            (path, bytes)
        })
        .collect()
}

/// An SQLite file of another application: `sql` run on a new file, in
/// SQLite's default rollback journal.
fn foreign(dir: &Path, name: &str, sql: &str) -> String {
    let path = dir.join(name);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(sql).unwrap();
    drop(conn);
    path.to_str().unwrap().to_string()
}

#[test]
fn no_command_writes_into_another_applications_database() {
    let dir = temp("foreign");
    let games = dir.join("g.pgn");
    std::fs::write(&games, "[White \"A\"]\n1. e4 e5 *\n").unwrap();
    let games = games.to_str().unwrap();
    let cases = [
        (
            foreign(
                &dir,
                "accounts.db",
                "CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT);
                 INSERT INTO accounts (name) VALUES ('kept');",
            ),
            "not an xpgn database: it holds tables of another application (accounts)",
        ),
        (
            foreign(
                &dir,
                "games.db",
                "CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT);
                 INSERT INTO games (title) VALUES ('chess');",
            ),
            "not an xpgn database: it holds tables of another application (games)",
        ),
        (
            foreign(
                &dir,
                "future.db",
                "PRAGMA application_id = 1481656142; PRAGMA user_version = 99;
                 CREATE TABLE games (id INTEGER PRIMARY KEY);",
            ),
            "the database has schema version 99; this xpgn knows up to",
        ),
        (
            foreign(&dir, "minus.db", "PRAGMA user_version = -1;"),
            "not an xpgn database: it has schema version -1 and no tables",
        ),
        (
            foreign(
                &dir,
                "other-id.db",
                "PRAGMA application_id = 42; CREATE TABLE t (x);",
            ),
            "not an xpgn database: its application id is 0x0000002a",
        ),
    ];
    for (db, message) in &cases {
        let before = files_of(db);
        let mut commands = reading_commands(db);
        commands.push(vec!["import", games, "--db", db]);
        commands.push(vec!["optimize", "--db", db]);
        for args in commands {
            let o = xpgn(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(
                stderr(&o).starts_with(&format!("xpgn: --db {db}: {message}")),
                "{args:?}: {}",
                stderr(&o)
            );
            assert_eq!(files_of(db), before, "{args:?} changed {db}");
        }
    }
}

#[test]
fn reading_commands_leave_an_empty_file_empty_and_import_makes_a_database_in_it() {
    let dir = temp("empty-file");
    let db = dir.join("empty.db");
    std::fs::write(&db, b"").unwrap();
    let db = db.to_str().unwrap();
    for args in reading_commands(db) {
        let o = xpgn(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with(&format!("xpgn: --db {db}: the file is empty")),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(
            files_of(db),
            vec![
                (db.to_string(), Some(Vec::new())),
                (format!("{db}-wal"), None),
                (format!("{db}-shm"), None),
                (format!("{db}-journal"), None),
            ]
        );
    }
    let games = dir.join("g.pgn");
    std::fs::write(&games, "1. e4 e5 *\n").unwrap();
    let o = xpgn(&["import", games.to_str().unwrap(), "--db", db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let conn = rusqlite::Connection::open(db).unwrap();
    let id: i64 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .unwrap();
    assert_eq!(id, xpgn::db::APPLICATION_ID);
}

/// A database of an older schema (version 7: the current one without the
/// stored opening trees of version 8, the names of version 9 and the index
/// of version 10), made before xpgn set its application id.
fn older_schema(dir: &Path) -> String {
    let db = imported(dir, "old", PATTERN_GAMES);
    // Each text a frame of its own and the tags as JSON, as before
    // version 12.
    let games: Vec<xpgn::db::view::StoredGame> = {
        let stored = xpgn::db::Database::open_existing(Path::new(&db)).unwrap();
        (1..)
            .map_while(|id| stored.stored_game(id).unwrap())
            .collect()
    };
    assert_eq!(games.len(), 7);
    let conn = rusqlite::Connection::open(&db).unwrap();
    for xpgn::db::view::StoredGame {
        id,
        original: text,
        tags,
        ..
    } in games
    {
        conn.execute(
            "UPDATE games SET original_zstd = ?2, frame = NULL, roster = 0, more_tags = ?3
             WHERE id = ?1",
            rusqlite::params![
                id,
                xpgn::db::original::pack(&text),
                serde_json::to_string(&tags).unwrap()
            ],
        )
        .unwrap();
    }
    conn.execute_batch(
        "DROP INDEX games_invalid;
         DROP TABLE opening_tree;
         DROP TABLE original_frames;
         ALTER TABLE games DROP COLUMN frame;
         ALTER TABLE games DROP COLUMN eco;
         ALTER TABLE games DROP COLUMN opening;
         PRAGMA user_version = 7;
         PRAGMA application_id = 0;
         PRAGMA journal_mode = DELETE;",
    )
    .unwrap();
    db
}

#[test]
fn a_reading_command_on_an_older_schema_says_to_run_optimize_and_writes_nothing() {
    let dir = temp("older-schema");
    let db = older_schema(&dir);
    let before = files_of(&db);
    for args in reading_commands(&db) {
        if args[0] == "check" {
            continue;
        }
        let o = xpgn(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!(
                "--db {db}: the database has schema version 7 and this xpgn reads version {}: run `xpgn optimize` on it once",
                xpgn::db::SCHEMA_VERSION
            )),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(files_of(&db), before, "{args:?}");
    }
    // Recognised by its schema, upgraded, and given xpgn's id.
    let o = xpgn(&["optimize", "--db", &db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = xpgn(&["query", "--db", &db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(summary(&o).ends_with("7 games"), "{}", summary(&o));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (id, version): (i64, i64) = conn
        .query_row(
            "SELECT * FROM pragma_application_id, pragma_user_version",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        (id, version),
        (xpgn::db::APPLICATION_ID, xpgn::db::SCHEMA_VERSION)
    );
    // Migration 9 named the stored games.
    let named: i64 = conn
        .query_row("SELECT count(eco) FROM games", [], |r| r.get(0))
        .unwrap();
    assert!(named > 0);
}

#[test]
fn a_current_database_without_the_application_id_is_read_and_gets_it_on_import() {
    let dir = temp("no-app-id");
    let db = imported(&dir, "n", PATTERN_GAMES);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("PRAGMA application_id = 0;").unwrap();
    drop(conn);
    let o = xpgn(&["query", "--db", &db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let more = dir.join("more.pgn");
    std::fs::write(&more, games(Variant::chess(), 2, 10, 5)).unwrap();
    let o = xpgn(&["import", more.to_str().unwrap(), "--db", &db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let conn = rusqlite::Connection::open(&db).unwrap();
    let id: i64 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .unwrap();
    assert_eq!(id, xpgn::db::APPLICATION_ID);
}

/// Whether this process runs as root (the owner of `/proc/self`).
#[cfg(unix)]
fn as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// A database whose write-ahead log holds commits, with no `-shm` file,
/// in a folder nobody may write: read as immutable it answered from the
/// file alone, the games committed in the log unseen.
#[cfg(unix)]
#[test]
fn a_log_that_cannot_be_read_in_a_read_only_folder_is_refused_not_ignored() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let dir = temp("wal-no-shm");
    let db = imported(&dir, "w", PATTERN_GAMES);
    let writer = rusqlite::Connection::open(&db).unwrap();
    writer
        .execute_batch(
            "PRAGMA wal_autocheckpoint = 0;
             DELETE FROM position_postings;
             DELETE FROM moves WHERE game > 1;
             DELETE FROM games WHERE id > 1;",
        )
        .unwrap();
    let folder = dir.join("ro");
    std::fs::create_dir(&folder).unwrap();
    let copy = folder.join("w.db");
    std::fs::copy(&db, &copy).unwrap();
    std::fs::copy(format!("{db}-wal"), folder.join("w.db-wal")).unwrap();
    drop(writer);
    for (path, mode) in [
        (&copy, 0o444),
        (&folder.join("w.db-wal"), 0o444),
        (&folder, 0o555),
    ] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut stats = Command::new(env!("CARGO_BIN_EXE_xpgn"));
    stats.args(["stats", "--db", copy.to_str().unwrap()]);
    if as_root() {
        // Root writes into any folder: the reader runs as nobody.
        stats.uid(65534).gid(65534);
    }
    let o = stats.output().unwrap();
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", summary(&o));
    assert!(
        stderr(&o).contains("write-ahead log (the `-wal` file beside it) holds committed games"),
        "{}",
        stderr(&o)
    );
    assert!(!folder.join("w.db-shm").exists());
}

/// The size limit of files (`ulimit -f`) ended an import with SIGXFSZ, no
/// word said; the write past it now fails, and the import says why.
#[cfg(unix)]
#[test]
fn an_import_past_the_file_size_limit_says_so_and_leaves_the_database_whole() {
    let dir = temp("ulimit");
    let db = imported(&dir, "u", &games(Variant::chess(), 20, 30, 3));
    let big = dir.join("big.pgn");
    std::fs::write(&big, games(Variant::chess(), 3000, 60, 7)).unwrap();
    let limit_blocks = std::fs::metadata(&db).unwrap().len() / 512 + 100;
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f {limit_blocks} && exec \"$0\" import \"$1\" --db \"$2\""
        ))
        .arg(env!("CARGO_BIN_EXE_xpgn"))
        .arg(&big)
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{:?}: {}", o.status, stderr(&o));
    assert!(
        stderr(&o).contains("file size limit reached"),
        "{}",
        stderr(&o)
    );
    let o = xpgn(&["check", "--db", &db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = xpgn(&["stats", "--db", &db, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let stats: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let valid = stats["variants"][0]["valid"].as_u64().unwrap();
    assert!((20..3020).contains(&valid), "{stats}");
}

/// A folder with two links back up (each a loop), a link to a file of it
/// (the same file by another name) and files that are not game files.
#[cfg(unix)]
#[test]
fn an_imported_folder_is_walked_once_past_link_loops_and_names_what_it_skips() {
    let dir = temp("folder-walk");
    let top = dir.join("games");
    std::fs::create_dir_all(top.join("sub")).unwrap();
    std::fs::write(top.join("a.pgn"), games(Variant::chess(), 2, 10, 11)).unwrap();
    std::fs::write(top.join("sub/b.pgn"), games(Variant::chess(), 3, 10, 12)).unwrap();
    std::fs::write(top.join("notes.json"), "{}").unwrap();
    std::fs::write(top.join("sub/old.pgn.xz"), b"\xfd7zXZ\x00").unwrap();
    std::os::unix::fs::symlink("..", top.join("sub/up")).unwrap();
    std::os::unix::fs::symlink("../sub", top.join("sub/again")).unwrap();
    std::os::unix::fs::symlink("a.pgn", top.join("same.pgn")).unwrap();
    let db = dir.join("f.db");
    let o = xpgn(&[
        "import",
        top.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = summary(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("read 5, imported 5, duplicates 0,"),
        "{out}"
    );
    let top = top.display();
    assert_eq!(
        lines[1],
        format!(
            "2 files not game files (only .pgn and .xpgn are read, or those compressed: .pgn.gz, .pgn.zst, .pgn.bz2): {top}/notes.json, {top}/sub/old.pgn.xz"
        )
    );
}

/// Damages the root page of table `table` of `db` (its page type byte set
/// to one no page has), closed: every page else is left whole.
fn damage_root_of(db: &str, table: &str) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute_batch("PRAGMA journal_mode = DELETE").unwrap();
    let (root, page_size): (i64, i64) = conn
        .query_row(
            "SELECT rootpage, (SELECT page_size FROM pragma_page_size)
             FROM sqlite_schema WHERE name = ?1",
            [table],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    drop(conn);
    let mut bytes = std::fs::read(db).unwrap();
    bytes[((root - 1) * page_size) as usize] = 0x42;
    std::fs::write(db, bytes).unwrap();
}

/// A damaged page that a command does not read had gone unnoticed: a
/// small database is checked whole before any reading command answers.
#[test]
fn every_reading_command_finds_damage_in_a_small_database_wherever_it_is() {
    let dir = temp("damaged-page");
    let db = imported(&dir, "p", &games(Variant::chess(), 300, 40, 5));
    damage_root_of(&db, "moves");
    for args in reading_commands(&db) {
        let o = xpgn(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", summary(&o));
        assert!(
            stderr(&o).contains(&format!("xpgn: --db {db}: the database file is damaged (")),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

/// A value of another type than the schema's, or text that is not UTF-8,
/// is damage, and said so.
#[test]
fn a_stored_value_of_the_wrong_type_is_reported_as_damage() {
    let dir = temp("wrong-type");
    let db = imported(&dir, "t", PATTERN_GAMES);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("UPDATE games SET white = x'ff' WHERE id = 1")
        .unwrap();
    drop(conn);
    let o = xpgn(&["query", "--db", &db]);
    assert_eq!(o.status.code(), Some(2), "{}", summary(&o));
    assert!(
        stderr(&o).starts_with(&format!("xpgn: --db {db}: the database file is damaged (")),
        "{}",
        stderr(&o)
    );
}
