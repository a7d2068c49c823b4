//! Real PGN by others (`../shared/corpus/`, outside the project): every
//! game is read and replays. The corpus is not part of the repository; on a
//! machine without it this test says so and checks nothing else.

use std::path::Path;

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
            if let Err(f) = replay(&game) {
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
