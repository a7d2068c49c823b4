//! Real PGN by others: every game is read and replays, and the whole
//! corpus round-trips through the database. The corpus is
//! `tests/data/lichess/` (1,130 lichess.org games, CC0), or the folder of
//! `.pgn` files `XPGN_CORPUS` names, to run the same checks on more games.

use std::path::{Path, PathBuf};

use crate::scratch;
use scratch::Scratch;

use crate::run::xpgn;
use xpgn::notation::reader::read_games;
use xpgn::notation::replay::replay;

/// The games of the corpus in the repository.
const REPOSITORY_GAMES: usize = 1130;

/// The corpus's `.pgn` files, sorted, and whether it is the repository's.
fn corpus() -> (Vec<PathBuf>, bool) {
    let given = std::env::var_os("XPGN_CORPUS");
    let dir = match &given {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lichess"),
    };
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "no corpus at {} ({e}): XPGN_CORPUS names a folder of .pgn files; \
             unset, tests/data/lichess of the repository is read",
            dir.display()
        )
    });
    let mut files: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .pgn file in {}", dir.display());
    (files, given.is_none())
}

#[test]
fn every_corpus_game_reads_and_replays() {
    let (files, ours) = corpus();
    let mut total = 0;
    for path in files {
        let file = std::io::BufReader::new(std::fs::File::open(&path).unwrap());
        let mut games = 0;
        for item in read_games(file) {
            let (text, game) = item.unwrap();
            if let Some(e) = game.diagnostics.iter().find(|d| d.is_error()) {
                panic!("{}: game {}: {}", path.display(), text.number, e.message);
            }
            if let Err(f) = replay(&xpgn::rules::Registry::builtin(), &game) {
                panic!("{}: game {}: {}", path.display(), text.number, f.error);
            }
            games += 1;
        }
        assert!(games > 0, "{}", path.display());
        total += games;
    }
    if ours {
        // The two files hold 832 + 298 games.
        assert_eq!(total, REPOSITORY_GAMES);
    }
}

/// The whole corpus through the database and back: imported, exported in
/// every form, the PGN exports validated (the same counts) and imported
/// again into the same database (no new game); the original export is
/// the files themselves, laid end to end.
#[test]
fn the_corpus_round_trips_through_every_export_without_a_new_game() {
    let (files, ours) = corpus();
    let work = Scratch::new("corpus", "round-trip");
    let db = work.join("c.db");
    let db = db.to_str().unwrap();
    let mut args = vec!["import", "--db", db];
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    args.extend(names.iter().map(String::as_str));
    let o = xpgn(&args);
    assert_eq!(o.status.code(), Some(0));
    let first = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(first.starts_with("read "), "{first}");
    if ours {
        assert!(
            first.starts_with(&format!(
                "read {REPOSITORY_GAMES}, imported {REPOSITORY_GAMES},"
            )),
            "{first}"
        );
    }
    // Games stored: the number after "imported ".
    let count: usize = first
        .split("imported ")
        .nth(1)
        .and_then(|t| t.split(',').next())
        .and_then(|n| n.parse().ok())
        .expect("the summary says how many games were stored");
    let original = xpgn(&["export", "--db", db, "--original"]);
    let mut whole = Vec::new();
    for f in &files {
        whole.extend(std::fs::read(f).unwrap());
    }
    // Duplicates within the corpus are stored once: the export holds each
    // stored game's bytes; without duplicates it is the files themselves.
    let read: usize = first
        .strip_prefix("read ")
        .and_then(|t| t.split(',').next())
        .and_then(|n| n.parse().ok())
        .expect("the summary says how many games were read");
    if count == read {
        assert_eq!(original.stdout, whole);
    }
    for (name, args) in [
        ("canonical.pgn", vec!["export", "--db", db]),
        ("original.pgn", vec!["export", "--db", db, "--original"]),
    ] {
        let o = xpgn(&args);
        let path = work.join(name);
        std::fs::write(&path, &o.stdout).unwrap();
        let p = path.to_str().unwrap();
        let v = xpgn(&["validate", p]);
        let summary = String::from_utf8_lossy(&v.stdout);
        assert!(
            summary
                .lines()
                .last()
                .unwrap()
                .starts_with(&format!("{count} games read, {count} valid")),
            "{name}: {summary}"
        );
        let again = xpgn(&["import", "--db", db, p]);
        let text = String::from_utf8_lossy(&again.stdout);
        assert!(
            text.starts_with(&format!("read {count}, imported 0, duplicates {count},")),
            "{name}: {text}"
        );
    }
    let json = xpgn(&["export", "--db", db, "--to", "json"]);
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&json.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON Lines"))
        .collect();
    assert_eq!(lines.len(), count);
}
