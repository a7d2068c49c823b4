//! `xpgn duplicates --plies N`: games that reach the same position at
//! ply N (pgn-extract's `--fuzzydepth`), by any move order.

use crate::run::{stdout, xpgn};

#[test]
fn games_that_reach_one_position_at_ply_n_are_grouped_whatever_their_order() {
    let dir = crate::scratch::Scratch::new("fuzzy", "groups");
    let file = dir.join("g.pgn");
    let game = |white: &str, moves: &str| {
        format!("[Event \"e\"]\n[White \"{white}\"]\n[Black \"b\"]\n\n{moves} *\n\n")
    };
    let text = [
        game("a", "1. e4 e5 2. Nf3 Nc6 3. Bb5"),
        // The same position at ply 4 by another order, then other moves.
        game("b", "1. Nf3 Nc6 2. e4 e5 3. Bc4"),
        game("c", "1. e4 e5 2. Nf3 Nc6"),
        // Another position at ply 4.
        game("d", "1. d4 d5 2. c4 e6 3. Nc3"),
        // Too short to reach ply 4.
        game("e", "1. e4 e5 2. Nf3"),
        // The same position as d's at ply 4.
        game("f", "1. c4 e6 2. d4 d5"),
    ]
    .concat();
    std::fs::write(&file, text).unwrap();
    let db = dir.join("g.db");
    let db = db.to_str().unwrap();
    let o = xpgn(&["import", file.to_str().unwrap(), "--db", db]);
    assert_eq!(o.status.code(), Some(0));
    // By moves: none are copies.
    let o = xpgn(&["duplicates", "--db", db]);
    assert!(stdout(&o).ends_with("0 games repeat the moves of another in 0 groups\n"));
    let o = xpgn(&["duplicates", "--db", db, "--plies", "4"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.starts_with("group 1: 3 games of chess reach the same position at ply 4\n"),
        "{out}"
    );
    assert!(
        out.contains("group 2: 2 games of chess reach the same position at ply 4\n"),
        "{out}"
    );
    assert!(
        out.ends_with("3 games reach the position of another at ply 4 in 2 groups\n"),
        "{out}"
    );
    let o = xpgn(&["duplicates", "--db", db, "--plies", "4", "--format", "json"]);
    let groups: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let whites = |g: &serde_json::Value| -> Vec<String> {
        g["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["white"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(groups.len(), 2);
    assert_eq!(whites(&groups[0]), ["a", "b", "c"]);
    assert_eq!(whites(&groups[1]), ["d", "f"]);
    assert_eq!(groups[0]["at_ply"], 4);
    // At ply 2, a, c and e share 1. e4 e5; b reaches another position.
    let o = xpgn(&[
        "duplicates",
        "--db",
        db,
        "--plies",
        "2",
        "--format",
        "json",
        "--limit",
        "1",
    ]);
    let groups: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(groups.len(), 1);
    assert_eq!(whites(&groups[0]), ["a", "c", "e"]);
    // Ply 0 is no depth.
    let o = xpgn(&["duplicates", "--db", db, "--plies", "0"]);
    assert_eq!(o.status.code(), Some(2));
}
