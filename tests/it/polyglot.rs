//! Polyglot keys through the command: `xpgn key --polyglot` and the
//! `polyglot` field of the JSON moves, on the positions of the Polyglot
//! book format specification.

use crate::run::{stdout, xpgn};
use std::process::Output;

/// The specification's test games (coordinates) and the key after each.
const LINE: [(&str, &str); 7] = [
    ("", "463b96181691fc9c"),
    ("e2e4", "823c9b50fd114196"),
    ("d7d5", "0756b94461c50fb0"),
    ("e4e5", "662fafb965db29d4"),
    ("f7f5", "22a48b5a8e47ff78"),
    ("e1e2", "652a607ca3f242c1"),
    ("e8f7", "00fdd303c946bdd9"),
];

#[test]
fn key_polyglot_prints_the_specification_keys() {
    let mut moves = String::new();
    for (m, key) in LINE {
        moves = format!("{moves} {m}");
        let o = xpgn(&["key", "--polyglot", "--moves", moves.trim()]);
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(stdout(&o), format!("{key}\n"), "{moves}");
    }
    let o = xpgn(&[
        "key",
        "--polyglot",
        "--fen",
        "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
    ]);
    assert_eq!(stdout(&o), "5c3f9b829b279560\n");
    // The decimal key of the index is unchanged without the flag.
    let o = xpgn(&["key"]);
    assert!(stdout(&o).trim().parse::<i64>().is_ok());
    // Other variants have none: a usage error that says so.
    let o = xpgn(&["key", "--polyglot", "--variant", "crazyhouse"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("orthodox chess only"));
}

#[test]
fn json_moves_carry_the_polyglot_key_of_orthodox_chess() {
    let dir = crate::scratch::Scratch::new("polyglot", "json");
    let file = dir.join("g.pgn");
    std::fs::write(&file, "[Event \"spec\"]\n\n1. e4 d5 2. e5 f5 3. Ke2 Kf7 *\n\n[Event \"zh\"]\n[Variant \"crazyhouse\"]\n\n1. e4 *\n").unwrap();
    let o = xpgn(&["convert", "--to", "json", file.to_str().unwrap()]);
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let keys: Vec<&str> = lines[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["polyglot"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = LINE[1..].iter().map(|(_, k)| *k).collect();
    assert_eq!(keys, expected);
    assert!(lines[1]["moves"][0].get("polyglot").is_none());
}

#[test]
fn query_polyglot_finds_the_games_query_fen_finds() {
    let dir = crate::scratch::Scratch::new("polyglot", "query");
    let db = dir.join("q.db");
    let db = db.to_str().unwrap();
    let o = xpgn(&["import", "tests/data/lichess/2016-05.pgn", "--db", db]);
    assert_eq!(o.status.code(), Some(0));
    let ids = |o: &Output| -> Vec<String> {
        stdout(o)
            .lines()
            .skip(1)
            .filter_map(|l| l.split_whitespace().next())
            .filter(|w| w.parse::<u64>().is_ok())
            .map(str::to_string)
            .collect()
    };
    let mut found = 0;
    for moves in ["e4", "e4 e5 Nf3", "d4 d5 c4", "e4 c5 Nf3 d6", "e4 e6 d4 d5"] {
        let key = stdout(&xpgn(&["key", "--polyglot", "--moves", moves]));
        let fen = stdout(&xpgn(&["show", "--moves", moves]));
        let fen = fen
            .lines()
            .find_map(|l| l.strip_prefix("FEN: "))
            .unwrap()
            .trim()
            .to_string();
        let by_key = xpgn(&["query", "--db", db, "--polyglot", key.trim()]);
        let by_fen = xpgn(&["query", "--db", db, "--fen", &fen]);
        assert_eq!(by_key.status.code(), Some(0));
        assert_eq!(ids(&by_key), ids(&by_fen), "{moves}: {fen}");
        found += ids(&by_key).len();
    }
    assert!(found > 20, "{found}");
    for (bad, says) in [
        ("zz", "expected a key of 16 hexadecimal digits"),
        (
            "463b96181691fc9c00",
            "expected a key of 16 hexadecimal digits",
        ),
    ] {
        let o = xpgn(&["query", "--db", db, "--polyglot", bad]);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains(says));
    }
    let o = xpgn(&[
        "query",
        "--db",
        db,
        "--variant",
        "atomic",
        "--polyglot",
        "463b96181691fc9c",
    ]);
    assert_eq!(o.status.code(), Some(2));
}
