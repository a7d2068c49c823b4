//! Real PGN by others (`../shared/corpus/`, outside the project): every
//! game is read and replays. The corpus is not part of the repository; on a
//! machine without it this test says so and checks nothing else.

use std::path::Path;

mod scratch;
use scratch::Scratch;

use xpgn::notation::reader::read_games;
use xpgn::notation::replay::replay;

#[test]
fn every_corpus_game_reads_and_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no corpus at {}: skipped", dir.display());
        return;
    };
    let mut total = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pgn") {
            continue;
        }
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
    // The five files hold 2,245 + 232 + 9 + 8 + 2 games.
    assert_eq!(total, 2496);
}

fn xpgn(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(args)
        .output()
        .expect("xpgn runs")
}

/// The whole corpus through the database and back: imported, exported in
/// every form, the PGN exports validated (the same counts) and imported
/// again into the same database (no new game); the original export is
/// the files themselves, laid end to end.
#[test]
fn the_corpus_round_trips_through_every_export_without_a_new_game() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no corpus at {}: skipped", dir.display());
        return;
    };
    let mut files: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    let work = Scratch::new("corpus", "round-trip");
    let db = work.join("c.db");
    let db = db.to_str().unwrap();
    let mut args = vec!["import", "--db", db];
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    args.extend(names.iter().map(String::as_str));
    let o = xpgn(&args);
    assert_eq!(o.status.code(), Some(0));
    let first = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(first.starts_with("read 2496, imported "), "{first}");
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
    if count == 2496 {
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
