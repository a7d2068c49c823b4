//! Games stored invalid, imported again under rules that read them
//! otherwise (docs/database.md "Import"): the stored game is replaced by
//! the current reading, and the database answers as one built afresh.

use std::path::Path;
use std::process::{Command, Output};

use crate::scratch::Scratch;

fn xpgn_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Two crazyhouse games without a Variant tag (read as orthodox chess,
/// each breaks the rules at its first drop), an orthodox game that shares
/// their first moves, and one invalid under any reading.
const GAMES: &str = "[Event \"zh\"]\n[Site \"FICS\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d5 P@e5 5. Nf3 Nc6 *\n\n\
[Event \"chess\"]\n[Variant \"Standard\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Nf6 *\n\n\
[Event \"broken\"]\n[Variant \"chess\"]\n\n1. e4 e5 2. Ke3 *\n\n\
[Event \"zh2\"]\n\n1. d4 e5 2. dxe5 d6 3. exd6 Bxd6 4. P@e4 P@d4 *\n";

#[test]
fn games_stored_invalid_are_replaced_by_the_current_reading_and_the_index_follows() {
    let dir = Scratch::new("reimport", "variant");
    std::fs::write(dir.join("g.pgn"), GAMES).unwrap();
    // Read as orthodox chess first: three games break the rules, and the
    // drops' games have their lines up to the drop stored and indexed.
    let first = xpgn_in(&dir, &["import", "g.pgn", "--db", "old.db"]);
    assert_eq!(first.status.code(), Some(1), "{}", text(&first.stderr));
    assert!(
        text(&first.stdout).starts_with("read 4, imported 4, duplicates 0, invalid 3,"),
        "{}",
        text(&first.stdout)
    );
    let again = xpgn_in(
        &dir,
        &[
            "import",
            "g.pgn",
            "--db",
            "old.db",
            "--variant",
            "crazyhouse",
        ],
    );
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(
        text(&again.stdout).starts_with("read 4, imported 0, duplicates 2, replaced 2, invalid 0,"),
        "{}",
        text(&again.stdout)
    );
    let fresh = xpgn_in(
        &dir,
        &[
            "import",
            "g.pgn",
            "--db",
            "new.db",
            "--variant",
            "crazyhouse",
        ],
    );
    assert_eq!(fresh.status.code(), Some(1), "{}", text(&fresh.stderr));
    // A third reading changes nothing.
    let third = xpgn_in(
        &dir,
        &[
            "import",
            "g.pgn",
            "--db",
            "old.db",
            "--variant",
            "crazyhouse",
        ],
    );
    assert!(
        text(&third.stdout).starts_with("read 4, imported 0, duplicates 4, invalid 0,"),
        "{}",
        text(&third.stdout)
    );
    let answers = |db: &str, args: &[&str]| {
        let mut all = vec![args[0], "--db", db];
        all.extend_from_slice(&args[1..]);
        let o = xpgn_in(&dir, &all);
        assert_eq!(o.status.code(), Some(0), "{all:?}: {}", text(&o.stderr));
        text(&o.stdout)
    };
    let zh_drop = "e4 d5 exd5 Qxd5 Nc3 Qa5 P@d5";
    for args in [
        &["query", "--format", "json"][..],
        &["query", "--moves", "e4"],
        &["query", "--moves", "e4 d5 exd5 Qxd5 Nc3 Qa5"],
        &["query", "--moves", "d4 e5 dxe5 d6"],
        &["query", "--variant", "crazyhouse", "--moves", zh_drop],
        &[
            "query",
            "--variant",
            "crazyhouse",
            "--moves",
            "e4",
            "--limit",
            "1",
        ],
        &["tree", "--moves", "e4"],
        &["tree", "--moves", "d4"],
        &["tree", "--variant", "crazyhouse"],
        &[
            "tree",
            "--variant",
            "crazyhouse",
            "--moves",
            "e4 d5 exd5 Qxd5 Nc3 Qa5",
        ],
        &["duplicates"],
    ] {
        assert_eq!(answers("old.db", args), answers("new.db", args), "{args:?}");
    }
    let stats = |db: &str| {
        let json: serde_json::Value =
            serde_json::from_str(&answers(db, &["stats", "--format", "json"])).unwrap();
        (json["positions"].clone(), json["variants"].clone())
    };
    assert_eq!(stats("old.db"), stats("new.db"));
    // The position after the drop: the first game, once, valid now.
    let zh = answers(
        "old.db",
        &[
            "query",
            "--variant",
            "crazyhouse",
            "--moves",
            zh_drop,
            "--format",
            "json",
        ],
    );
    let found: Vec<serde_json::Value> = zh
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(found.len(), 1, "{zh}");
    assert_eq!(found[0]["id"], 1);
    assert_eq!(found[0]["status"], "valid");
    assert_eq!(found[0]["variant"], "crazyhouse");
}
