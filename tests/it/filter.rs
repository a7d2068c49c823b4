//! Selecting games by what they hold (README "Filters"), from files with
//! `xpgn filter` and from a database with `query`: the same games either
//! way.

use std::process::Command;

use crate::run::{stderr, stdout, xpgn};
use crate::scratch;
use scratch::Scratch;

/// A checkmate by a strong player; a stalemate from a position; an
/// annotated underpromotion decided by result only; an invalid game;
/// a game without moves.
const GAMES: &str = "[Event \"mate\"]\n[Date \"2012.06.20\"]\n[WhiteElo \"2650\"]\n[BlackElo \"2100\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
[Event \"stalemate\"]\n[Date \"1961.??.??\"]\n[WhiteElo \"2599\"]\n[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n\n1. Qf7 1/2-1/2\n\n\
[Event \"under\"]\n[Date \"2000.01.01\"]\n[WhiteElo \"?\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8=R {a rook} (1. a8=Q+) Kd7 1-0\n\n\
[Event \"broken\"]\n[White \"Tal, M\"]\n\n1. e4 Ke7 *\n\n\
[Event \"empty\"]\n[Black \"Tal\"]\n\n*\n";

fn events(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            l.strip_prefix("[Event \"")?
                .strip_suffix("\"]")
                .map(str::to_string)
        })
        .collect()
}

struct Setup {
    dir: Scratch,
    pgn: String,
    db: String,
}

fn setup(name: &str) -> Setup {
    let dir = Scratch::new("filter", name);
    let pgn = dir.join("g.pgn").display().to_string();
    std::fs::write(&pgn, GAMES).unwrap();
    let db = dir.join("g.db").display().to_string();
    Setup { dir, pgn, db }
}

/// The events `filter` writes and those `query` finds, for one set of
/// filter arguments.
fn both(s: &Setup, args: &[&str]) -> (Vec<String>, Vec<String>) {
    let mut f = vec!["filter", s.pgn.as_str()];
    f.extend_from_slice(args);
    let o = xpgn(&f);
    // The file holds a game that breaks the rules: the exit code says so
    // (as every reading command's), whatever is selected.
    assert_eq!(o.status.code(), Some(1), "{f:?}: {}", stderr(&o));
    let mut q = vec!["query", "--db", s.db.as_str(), "--format", "json"];
    q.extend_from_slice(args);
    let o = xpgn(&q);
    assert_eq!(o.status.code(), Some(0), "{q:?}: {}", stderr(&o));
    let queried = stdout(&o)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["tags"]["Event"].as_str().unwrap().to_string()
        })
        .collect();
    (events(&stdout(&xpgn(&f))), queried)
}

#[test]
fn files_and_the_database_select_the_same_games() {
    let s = setup("same");
    xpgn(&["import", &s.pgn, "--db", &s.db]);
    for (args, want) in [
        (&["--tag", "WhiteElo>=2600"][..], &["mate"][..]),
        (&["--tag", "WhiteElo<2650"], &["stalemate"]),
        (&["--tag", "WhiteElo!=2650"], &["stalemate"]),
        (&["--tag", "Elo<=2100"], &["mate"]),
        (&["--tag", "Date<1962"], &["stalemate"]),
        (&["--tag", "Date>=2000"], &["mate", "under"]),
        (&["--tag", "Player=tal"], &["broken", "empty"]),
        (&["--tag", "Event=MATE"], &["mate", "stalemate"]),
        (&["--ending", "checkmate"], &["mate"]),
        (&["--ending", "stalemate"], &["stalemate"]),
        (&["--ending", "checkmate,stalemate"], &["mate", "stalemate"]),
        (&["--ending", "result-only"], &["under"]),
        (&["--min-plies", "2"], &["mate", "under"]),
        (&["--max-plies", "1"], &["stalemate", "broken", "empty"]),
        (
            &["--min-plies", "1", "--max-plies", "2"],
            &["stalemate", "under", "broken"],
        ),
        (&["--comments"], &["under"]),
        (
            &["--no-comments", "--no-variations"],
            &["mate", "stalemate", "broken", "empty"],
        ),
        (&["--variations"], &["under"]),
        (&["--underpromotion"], &["under"]),
        (&["--tag", "WhiteElo>=2600", "--ending", "stalemate"], &[]),
    ] {
        let (filtered, queried) = both(&s, args);
        assert_eq!(filtered, want, "filter {args:?}");
        assert_eq!(queried, want, "query {args:?}");
    }
    // A limit counts the games selected, after every filter.
    let (filtered, queried) = both(&s, &["--max-plies", "1", "--limit", "2"]);
    assert_eq!(
        (filtered, queried),
        (
            vec!["stalemate".to_string(), "broken".into()],
            vec!["stalemate".to_string(), "broken".into()]
        )
    );
}

#[test]
fn filter_writes_the_games_as_read_inverts_and_limits() {
    let s = setup("write");
    let out = s.dir.join("out.pgn");
    let o = xpgn(&[
        "filter",
        &s.pgn,
        "--ending",
        "checkmate",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "xpgn: read 5, written 1\nxpgn: 1 game breaks the rules (`xpgn validate` says where)\n"
    );
    let written = std::fs::read_to_string(&out).unwrap();
    // The game's bytes as read.
    assert!(GAMES.starts_with(written.trim_end()), "{written}");
    let o = xpgn(&["filter", &s.pgn, "--ending", "checkmate", "--invert"]);
    assert_eq!(
        events(&stdout(&o)),
        ["stalemate", "under", "broken", "empty"]
    );
    assert!(
        stderr(&o).starts_with("xpgn: read 5, written 4 (not matching)\n"),
        "{}",
        stderr(&o)
    );
    let o = xpgn(&[
        "filter",
        &s.pgn,
        "--invert",
        "--ending",
        "checkmate",
        "--limit",
        "2",
        "--jobs",
        "1",
    ]);
    assert_eq!(events(&stdout(&o)), ["stalemate", "under"]);
    // From standard input, and what is written reads back as the same games.
    let o = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(["filter", "-", "--comments"])
        .stdin(std::fs::File::open(&s.pgn).unwrap())
        .output()
        .unwrap();
    assert_eq!(events(&stdout(&o)), ["under"]);
    let o = xpgn(&["validate", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn tag_files_read_as_pgn_extract_reads_them() {
    let s = setup("tagfile");
    xpgn(&["import", &s.pgn, "--db", &s.db]);
    let criteria = s.dir.join("c.txt");
    std::fs::write(
        &criteria,
        "% strong or old\nWhiteElo >= \"2600\"\nWhiteElo <= \"2599\"\nEvent \"ma\"\n",
    )
    .unwrap();
    let c = criteria.to_str().unwrap();
    // `Event "ma"` is a prefix: `mate` matches, `stalemate` does not.
    let (filtered, queried) = both(&s, &["--tag-file", c]);
    assert_eq!(filtered, ["mate"]);
    assert_eq!(queried, ["mate"]);
    std::fs::write(&criteria, "Player \"Tal\"\n").unwrap();
    assert_eq!(both(&s, &["--tag-file", c]).0, ["broken", "empty"]);
}

#[test]
fn bad_filters_are_usage_errors_naming_the_argument() {
    let s = setup("bad");
    xpgn(&["import", &s.pgn, "--db", &s.db]);
    let criteria = s.dir.join("bad.txt");
    std::fs::write(&criteria, "White \"Tal\"\nWhiteElo >> \"2600\"\n").unwrap();
    let c = criteria.display().to_string();
    for (args, says) in [
        (
            &["--tag", "WhiteElo>>2600"][..],
            "--tag `WhiteElo>>2600`: expected one operator",
        ),
        (
            &["--tag", "WhiteElo"],
            "--tag `WhiteElo`: expected NAME OP VALUE",
        ),
        (
            &["--tag", "Date<tomorrow"],
            "--tag `Date<tomorrow`: `tomorrow` is no date",
        ),
        (
            &["--ending", "resigned"],
            "--ending: `resigned` is no ending: expected one of checkmate",
        ),
        (
            &["--min-plies", "10", "--max-plies", "5"],
            "--min-plies 10 is more than --max-plies 5",
        ),
        (&["--min-plies", "ten"], "--min-plies"),
        (
            &["--tag-file", "/nonexistent/c.txt"],
            "--tag-file /nonexistent/c.txt: cannot read",
        ),
        (&["--tag-file", c.as_str()], ":2: expected one of = <> <"),
        (&["--comments", "--no-comments"], "--comments"),
    ] {
        for cmd in [
            vec!["filter", s.pgn.as_str()],
            vec!["query", "--db", s.db.as_str()],
        ] {
            let mut all = cmd.clone();
            all.extend_from_slice(args);
            let o = xpgn(&all);
            assert_eq!(o.status.code(), Some(2), "{all:?}");
            assert!(stderr(&o).contains(says), "{all:?}: {}", stderr(&o));
            assert!(o.stdout.is_empty(), "{all:?}");
        }
    }
    // A file with no game is an error, as for the other commands.
    let empty = s.dir.join("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let o = xpgn(&["filter", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}
