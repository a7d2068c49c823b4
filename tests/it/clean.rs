//! Clean output (README "Clean output"): what `convert` and `export` leave
//! out, add, fix, drop and split.

use crate::run::{stderr, stdout, xpgn};
use crate::scratch;
use scratch::Scratch;

/// An annotated Sicilian; the same moves under other tags; a mate
/// recorded as a draw; a Queen's Gambit.
const GAMES: &str = "[Event \"a\"]\n[White \"X\"]\n[WhiteElo \"2700\"]\n\n{start} 1. e4 {best} c5 $1 (1... e5 2. Nf3) 2. Nf3 d6 *\n\n\
[Event \"b\"]\n[White \"Y\"]\n\n1. e4 c5 2. Nf3 d6 *\n\n\
[Event \"c\"]\n[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n\n\
[Event \"d\"]\n\n1. d4 d5 2. c4 *\n";

fn setup(name: &str) -> (Scratch, String, String) {
    let dir = Scratch::new("clean", name);
    let pgn = dir.join("g.pgn").display().to_string();
    std::fs::write(&pgn, GAMES).unwrap();
    let db = dir.join("g.db").display().to_string();
    (dir, pgn, db)
}

/// The output of `convert --to xpgn` with `args`, and of `export` with them
/// from a database of the same games.
fn both(pgn: &str, db: &str, args: &[&str]) -> (String, String) {
    let mut c = vec!["convert", pgn, "--to", "xpgn"];
    c.extend_from_slice(args);
    let mut e = vec!["export", "--db", db];
    e.extend_from_slice(args);
    (stdout(&xpgn(&c)), stdout(&xpgn(&e)))
}

#[test]
fn annotations_tags_and_width_as_asked_by_convert_and_export_alike() {
    let (_dir, pgn, db) = setup("strip");
    xpgn(&["import", &pgn, "--db", &db]);
    let args = [
        "--strip-comments",
        "--strip-nags",
        "--strip-variations",
        "--tags",
        "none",
        "--plycount",
        "--fix-results",
    ];
    let (converted, exported) = both(&pgn, &db, &args);
    assert_eq!(converted, exported);
    assert_eq!(
        converted,
        "[PlyCount \"4\"]\n\n1. e4 c5 2. Nf3 d6 *\n\n[PlyCount \"4\"]\n\n1. e4 c5 2. Nf3 d6 *\n\n\
         [PlyCount \"4\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n[PlyCount \"3\"]\n\n1. d4 d5 2. c4 *\n\n"
    );
    let (converted, exported) = both(
        &pgn,
        &db,
        &["--tags", "roster", "--strip-variations", "--fix-results"],
    );
    assert_eq!(converted, exported);
    assert!(
        !converted.contains("WhiteElo") && converted.contains("[White \"X\"]"),
        "{converted}"
    );
    assert!(
        converted.contains("{start} 1. e4 {best} 1... c5 $1 2. Nf3 d6 *"),
        "{converted}"
    );
    let (converted, exported) = both(&pgn, &db, &["--line-width", "20", "--fix-results"]);
    assert_eq!(converted, exported);
    for line in converted.lines().filter(|l| !l.starts_with('[')) {
        assert!(line.chars().count() <= 20, "{line}");
    }
    let o = xpgn(&["convert", &pgn, "--to", "xpgn", "--line-width", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--line-width"), "{}", stderr(&o));
}

#[test]
fn fix_results_sets_what_the_final_position_decides() {
    let (_dir, pgn, db) = setup("fix");
    // Without it the mate recorded as a draw is invalid (R-0-3).
    let o = xpgn(&["convert", &pgn, "--to", "xpgn"]);
    assert_eq!(o.status.code(), Some(1));
    let o = xpgn(&["convert", &pgn, "--to", "xpgn", "--fix-results"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("[Result \"0-1\"]"));
    assert!(stdout(&o).contains("Qh4# 0-1"));
    assert_eq!(
        stderr(&o),
        "xpgn: 1 result set from the final position (--fix-results)\n"
    );
    xpgn(&["import", &pgn, "--db", &db]);
    let o = xpgn(&["export", "--db", &db, "--fix-results", "--event", "c"]);
    assert!(stdout(&o).contains("Qh4# 0-1"), "{}", stdout(&o));
    assert!(
        !stdout(&o).contains('%'),
        "written anew, not in the safe form"
    );
}

#[test]
fn duplicates_are_dropped_and_output_split() {
    let (dir, pgn, db) = setup("split");
    xpgn(&["import", &pgn, "--db", &db]);
    let (converted, exported) = both(&pgn, &db, &["--drop-duplicates", "--fix-results"]);
    assert_eq!(converted, exported);
    assert!(converted.contains("[Event \"a\"]") && !converted.contains("[Event \"b\"]"));
    let o = xpgn(&["convert", &pgn, "--to", "xpgn", "--drop-duplicates"]);
    assert!(stderr(&o).contains("1 game left out"), "{}", stderr(&o));
    // Every two games, and by ECO letter.
    let out = dir.join("out.pgn").display().to_string();
    let o = xpgn(&[
        "convert",
        &pgn,
        "--to",
        "xpgn",
        "--split-every",
        "3",
        "-o",
        &out,
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the mate recorded as a draw: {}",
        stderr(&o)
    );
    let part = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        // Games, not the `%[Event` lines of an invalid game's safe form.
        text.lines()
            .filter(|l| l.starts_with("[Event "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(part("out-1.pgn").matches("[Event ").count(), 3);
    assert_eq!(part("out-2.pgn").matches("[Event ").count(), 1);
    assert!(!dir.join("out.pgn").exists());
    let eco = dir.join("eco.pgn").display().to_string();
    let o = xpgn(&[
        "export",
        "--db",
        &db,
        "--split-by-eco",
        "-o",
        &eco,
        "--fix-results",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(part("eco-B.pgn").matches("[Event ").count(), 2);
    // 1. f3 is A00 (Barnes Opening); 1. d4 d5 2. c4 is D06.
    assert_eq!(part("eco-A.pgn").matches("[Event ").count(), 1);
    assert_eq!(part("eco-D.pgn").matches("[Event ").count(), 1);
    assert!(stderr(&o).contains("eco-A.pgn"), "{}", stderr(&o));
    // Splitting needs a file to name the parts after.
    let o = xpgn(&["convert", &pgn, "--to", "xpgn", "--split-every", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("-o OUT"), "{}", stderr(&o));
    // Leftovers of no kind.
    let names: Vec<String> = std::fs::read_dir(&*dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("xpgn-part")), "{names:?}");
}
