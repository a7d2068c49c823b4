//! The database through the command: import, re-import, a killed import,
//! bad databases.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

use xpgn::notation::coord::write_coord;
use xpgn::notation::game::{Game, Node};
use xpgn::notation::writer::{MoveNotation, write_game};
use xpgn::rules::{Position, Variant};

fn xpgn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xpgn-db-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `n` games of pseudo-random legal moves of `variant`, as XPGN.
fn games(variant: Variant, n: usize, plies: usize, seed: u64) -> String {
    let mut s = seed | 1;
    let mut out = String::new();
    for g in 0..n {
        let mut pos = Position::start(variant);
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
            nodes.push(Node {
                text: write_coord(&pos, &m).into(),
                ..Node::default()
            });
            pos.play_unchecked(&m);
        }
        let game = Game {
            tags: vec![
                ("Event".into(), format!("generated {g}")),
                ("Variant".into(), variant.def().display_name.into()),
            ],
            moves: nodes,
            result: Some(pos.outcome().map_or("*", |o| o.result()).into()),
            ..Game::default()
        };
        out.push_str(&write_game(&game, MoveNotation::San).unwrap());
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
    assert_eq!(
        o.status.code(),
        Some(0),
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
    std::fs::write(&file, games(Variant::chess(), 6000, 80, 11)).unwrap();
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
            assert_eq!(games, 6000, "{text}");
        }
        games
    };
    let partial = conn_check(false);
    assert!(partial < 6000, "the import finished before it was killed");
    let o = xpgn(&["import", f, "--db", d]);
    let s = summary(&o);
    assert!(s.contains(&format!("duplicates {partial},")), "{s}");
    conn_check(true);
    let _ = std::fs::remove_dir_all(&dir);
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
    let _ = std::fs::remove_dir_all(&dir);
}
