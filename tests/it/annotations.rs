//! Commands in comments (`[%clk]`, `[%emt]`, `[%eval]`, `[%cal]`,
//! `[%csl]`, docs/notation.md §14) through the command: JSON fields per
//! move, the comment's text kept, malformed ones warned of (R-A-1).

use std::process::Output;

use crate::run::{stdout, xpgn};
use crate::scratch::Scratch;

/// Every move object of every game of `json` (one document per line),
/// main lines and variations.
fn moves(json: &str) -> Vec<serde_json::Value> {
    fn walk(line: &serde_json::Value, out: &mut Vec<serde_json::Value>) {
        for m in line.as_array().into_iter().flatten() {
            out.push(m.clone());
            for v in m["variations"].as_array().into_iter().flatten() {
                walk(v, out);
            }
        }
    }
    let mut out = Vec::new();
    for l in json.lines() {
        let game: serde_json::Value = serde_json::from_str(l).unwrap();
        walk(&game["moves"], &mut out);
    }
    out
}

#[test]
fn the_clocks_of_real_lichess_games_are_json_fields_and_the_comments_stay() {
    let file = "tests/data/lichess/2017-05.pgn";
    let text = std::fs::read_to_string(file).unwrap();
    let o = xpgn(&["convert", "--to", "json", file]);
    assert_eq!(o.status.code(), Some(0));
    let all = moves(&stdout(&o));
    let clocked: Vec<&serde_json::Value> =
        all.iter().filter(|m| m.get("clock").is_some()).collect();
    assert_eq!(clocked.len(), text.matches("[%clk ").count());
    assert!(clocked.len() > 10_000, "{}", clocked.len());
    for m in &clocked {
        // The comment keeps its text, and the field says what it says.
        let comment = m["comments"][0].as_str().unwrap();
        let written = comment
            .split("[%clk ")
            .nth(1)
            .unwrap()
            .split(']')
            .next()
            .unwrap();
        let parts: Vec<f64> = written.split(':').map(|p| p.parse().unwrap()).collect();
        let seconds = parts[0] * 3600.0 + parts[1] * 60.0 + parts[2];
        assert_eq!(m["clock"].as_f64().unwrap(), seconds, "{comment}");
    }
    // Well-formed commands earn no warning.
    let o = xpgn(&["validate", file]);
    assert!(stdout(&o).contains("0 with warnings"), "{}", stdout(&o));
}

#[test]
fn evaluations_arrows_and_squares_are_read_and_malformed_commands_warned_of() {
    let dir = Scratch::new("annotations", "eval");
    let file = dir.join("a.pgn");
    std::fs::write(
        &file,
        "[Event \"a\"]\n\n1. e4 { [%eval 0.18] [%clk 0:03:00] } 1... e5 { [%eval #-3] [%emt 0:00:04] }\n2. Nf3 { [%cal Gf3e5,Rd8h4] [%csl Ye5] } (2. Qh5 { [%eval -0.5,20] }) 2... Nc6 { [%clk 0:2:59.5] [%eval 1.x] [%cal Gz9] } *\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let o = xpgn(&["convert", "--to", "json", f]);
    let all = moves(&stdout(&o));
    assert_eq!(all[0]["eval"], serde_json::json!({"cp": 18}));
    assert_eq!(all[0]["clock"], 180.0);
    assert_eq!(all[1]["eval"], serde_json::json!({"mate": -3}));
    assert_eq!(all[1]["emt"], 4.0);
    assert_eq!(
        all[2]["arrows"],
        serde_json::json!([{"color": "green", "from": "f3", "to": "e5"}, {"color": "red", "from": "d8", "to": "h4"}])
    );
    assert_eq!(
        all[2]["squares"],
        serde_json::json!([{"color": "yellow", "square": "e5"}])
    );
    // The variation's move, then the main line's last.
    assert_eq!(all[3]["eval"], serde_json::json!({"cp": -50, "depth": 20}));
    assert_eq!(all[4]["clock"], 179.5);
    assert!(all[4].get("eval").is_none() && all[4].get("arrows").is_none());
    assert_eq!(
        all[4]["comments"][0],
        " [%clk 0:2:59.5] [%eval 1.x] [%cal Gz9] "
    );
    // The malformed two: warnings where they stand, the game valid.
    let o = xpgn(&["validate", "--format", "json", f]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let d = v["diagnostics"].as_array().unwrap();
    assert_eq!(d.len(), 2, "{d:?}");
    for (diag, column, says) in [
        (&d[0], 98, "`[%eval 1.x]`: not an evaluation"),
        (&d[1], 110, "`[%cal Gz9]`: `Gz9` is not an arrow"),
    ] {
        assert_eq!(diag["severity"], "warning");
        assert_eq!(diag["kind"], "annotation");
        assert_eq!(diag["rule"], "R-A-1");
        assert_eq!(diag["line"], 4);
        assert_eq!(diag["column"], column, "{diag}");
        assert!(
            diag["message"].as_str().unwrap().starts_with(says),
            "{diag}"
        );
    }
    let o = xpgn(&["validate", "--strict", f]);
    assert_eq!(o.status.code(), Some(1), "--strict counts the warnings");
}

#[test]
fn a_diagram_of_a_ply_draws_its_comment_arrows_and_squares_in_their_colours() {
    let dir = Scratch::new("annotations", "diagram");
    let file = dir.join("a.pgn");
    std::fs::write(
        &file,
        "[Event \"a\"]\n\n1. e4 e5 2. Nf3 { [%cal Gf3e5,Rd8h4] [%csl Ye5,Bh7] } Nc6 *\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let o = xpgn(&["diagram", f, "--ply", "3"]);
    assert_eq!(o.status.code(), Some(0));
    let svg = stdout(&o);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let drawn = |class: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class) && n.has_attribute("data-color"))
            .map(|n| {
                let color = n.attribute("data-color").unwrap();
                let paint = n.attribute("stroke").unwrap();
                match n.attribute("data-square") {
                    Some(sq) => format!("{color} {paint} {sq}"),
                    None => format!(
                        "{color} {paint} {}-{}",
                        n.attribute("data-from").unwrap(),
                        n.attribute("data-to").unwrap()
                    ),
                }
            })
            .collect()
    };
    assert_eq!(drawn("arrow"), ["green #15781b f3-e5", "red #882020 d8-h4"]);
    assert_eq!(drawn("mark"), ["yellow #e68f00 e5", "blue #003088 h7"]);
    // Another ply has none.
    let o = xpgn(&["diagram", f, "--ply", "4"]);
    assert!(!stdout(&o).contains("data-color"));
}

#[test]
fn validate_and_query_json_sum_up_clocks_and_the_last_eval_and_list_plies_when_asked() {
    let dir = Scratch::new("annotations", "summary");
    let file = dir.join("a.pgn");
    std::fs::write(
        &file,
        "[Event \"a\"]\n\n1. e4 { [%eval 0.18] [%clk 0:03:00] } 1... e5 { [%eval #-3] [%emt 0:00:04] [%clk 0:02:58] }\n\
         2. Nf3 { [%csl Ye5] [%clk 0:02:55] } (2. Qh5 { [%eval -0.5] }) 2... Nc6 *\n\n\
         [Event \"b\"]\n\n1. d4 d5 *\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let db = dir.join("a.db");
    let db = db.to_str().unwrap();
    assert_eq!(xpgn(&["import", f, "--db", db]).status.code(), Some(0));
    let check = |out: &Output, listed: bool| {
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let games: Vec<serde_json::Value> = stdout(out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0]["clocks"],
            serde_json::json!({"white": 175.0, "black": 178.0})
        );
        assert_eq!(
            games[0]["final_eval"],
            serde_json::json!({"ply": 2, "mate": -3})
        );
        assert_eq!(games[1]["clocks"], serde_json::Value::Null);
        assert_eq!(games[1]["final_eval"], serde_json::Value::Null);
        if listed {
            let plies = games[0]["annotations"].as_array().unwrap();
            assert_eq!(plies.len(), 4);
            assert_eq!(
                plies[1],
                serde_json::json!({"ply": 2, "san": "e5", "eval": {"mate": -3}, "emt": 4.0, "clock": 178.0})
            );
            assert_eq!(
                plies[2]["squares"],
                serde_json::json!([{"color": "yellow", "square": "e5"}])
            );
            assert_eq!(plies[3], serde_json::json!({"ply": 4, "san": "Nc6"}));
            assert_eq!(games[1]["annotations"].as_array().unwrap().len(), 2);
        } else {
            assert!(games[0].get("annotations").is_none());
        }
    };
    check(&xpgn(&["validate", "--format", "json", f]), false);
    check(
        &xpgn(&["validate", "--format", "json", "--annotations", f]),
        true,
    );
    check(&xpgn(&["query", "--db", db, "--format", "json"]), false);
    check(
        &xpgn(&["query", "--db", db, "--format", "json", "--annotations"]),
        true,
    );
    // The plies are a part of the JSON only.
    for args in [
        &["validate", "--annotations", f][..],
        &["query", "--db", db, "--annotations"][..],
    ] {
        let o = xpgn(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("--format json"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
