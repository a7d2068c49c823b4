//! Commands that behave alike: files, folders and `-` in every command
//! that reads game files; game files in any letter case; inputs with no
//! game; one rule of exit codes; `--moves` in every notation; no
//! temporary file left by an interruption; messages that start alike.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

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

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples")
            .join(name),
    )
    .unwrap()
}

/// A folder with one game file in upper case, one in lower case, and
/// files that are not game files.
fn games_folder(dir: &Path) {
    let games = dir.join("games");
    std::fs::create_dir_all(games.join("more")).unwrap();
    std::fs::write(
        games.join("GAME.PGN"),
        sample("chess/01-two-knights-defence.pgn"),
    )
    .unwrap();
    std::fs::write(
        games.join("more/b.Xpgn"),
        sample("chess/02-queens-gambit-declined.pgn"),
    )
    .unwrap();
    std::fs::write(games.join("notes.txt"), "not a game\n").unwrap();
}

#[test]
fn every_reading_command_takes_a_folder_and_game_files_in_any_letter_case() {
    let dir = Scratch::new("alike", "folders");
    games_folder(&dir);
    let v = xpgn_in(&dir, &["validate", "games"]);
    assert_eq!(v.status.code(), Some(0), "{}", text(&v.stderr));
    let out = text(&v.stdout);
    assert!(out.contains("2 games read, 2 valid"), "{out}");
    assert!(out.contains("1 file not a game file"), "{out}");
    let c = xpgn_in(&dir, &["convert", "games", "--to", "uci"]);
    assert_eq!(c.status.code(), Some(0), "{}", text(&c.stderr));
    assert_eq!(text(&c.stdout).matches("[Event ").count(), 2);
    let f = xpgn_in(&dir, &["filter", "games"]);
    assert_eq!(f.status.code(), Some(0), "{}", text(&f.stderr));
    assert_eq!(text(&f.stdout).matches("[Event ").count(), 2);
    assert!(
        text(&f.stderr).contains("1 file not a game file"),
        "{}",
        text(&f.stderr)
    );
    // Standard input, and a compressed file told by its first bytes, as
    // every reading command takes them.
    let game = sample("chess/01-two-knights-defence.pgn");
    let mut child = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .current_dir(&*dir)
        .args(["filter", "-", "--min-plies", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&game).unwrap();
    let piped = child.wait_with_output().unwrap();
    assert_eq!(piped.status.code(), Some(0), "{}", text(&piped.stderr));
    assert_eq!(piped.stdout, game);
    let mut packed = xpgn::notation::compressed::Encoder::new(
        xpgn::notation::compressed::Format::Gzip,
        Vec::new(),
    )
    .unwrap();
    packed.write_all(&game).unwrap();
    std::fs::write(dir.join("games/more/c.Pgn.GZ"), packed.finish().unwrap()).unwrap();
    let f = xpgn_in(&dir, &["filter", "games", "-o", "out.pgn.zst"]);
    assert_eq!(f.status.code(), Some(0), "{}", text(&f.stderr));
    let written = std::fs::read(dir.join("out.pgn.zst")).unwrap();
    assert_eq!(
        xpgn::notation::compressed::Format::sniff(&written),
        Some(xpgn::notation::compressed::Format::Zstd),
        "an output is compressed when its name says so"
    );
    let back = xpgn_in(&dir, &["validate", "out.pgn.zst"]);
    assert!(
        text(&back.stdout).contains("3 games read, 3 valid"),
        "{}",
        text(&back.stdout)
    );
    std::fs::remove_file(dir.join("games/more/c.Pgn.GZ")).unwrap();
    let i = xpgn_in(&dir, &["import", "games", "--db", "g.db"]);
    assert_eq!(i.status.code(), Some(0), "{}", text(&i.stderr));
    assert!(
        text(&i.stdout).starts_with("read 2, imported 2"),
        "{}",
        text(&i.stdout)
    );
    #[cfg(feature = "parquet")]
    {
        let d = xpgn_in(&dir, &["dataset", "games", "--out", "set"]);
        assert_eq!(d.status.code(), Some(0), "{}", text(&d.stderr));
        assert!(
            text(&d.stdout).starts_with("read 2, written 2"),
            "{}",
            text(&d.stdout)
        );
    }
}

#[test]
fn inputs_without_games_say_so_and_exit_1_and_an_empty_file_is_a_warning() {
    let dir = Scratch::new("alike", "no-games");
    let none = dir.join("none");
    std::fs::create_dir_all(&none).unwrap();
    for name in ["a.json", "b.png", "c.txt"] {
        std::fs::write(none.join(name), "x").unwrap();
    }
    let commands: Vec<Vec<&str>> = vec![
        vec!["validate", "none"],
        vec!["convert", "none", "--to", "xpgn"],
        vec!["import", "none", "--db", "g.db"],
        vec!["filter", "none"],
        vec!["filter", "none", "-o", "out.pgn"],
        #[cfg(feature = "parquet")]
        vec!["dataset", "none", "--out", "set"],
    ];
    for args in &commands {
        let o = xpgn_in(&dir, args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(
                "xpgn: read 0 games from 3 files (3 files not game files: none/a.json, none/b.png, none/c.txt)"
            ),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
    std::fs::write(dir.join("empty.pgn"), "").unwrap();
    std::fs::write(
        dir.join("one.pgn"),
        sample("chess/01-two-knights-defence.pgn"),
    )
    .unwrap();
    let o = xpgn_in(&dir, &["validate", "empty.pgn", "one.pgn"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("xpgn: warning: empty.pgn: empty file, no games"),
        "{}",
        text(&o.stderr)
    );
    let o = xpgn_in(
        &dir,
        &["convert", "empty.pgn", "--to", "xpgn", "-o", "out.pgn"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("read 0 games from 1 file (1 file empty: empty.pgn)"));
    assert!(!dir.join("out.pgn").exists(), "no output for no game");
    let o = xpgn_in(&dir, &["filter", "empty.pgn", "one.pgn"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("xpgn: warning: empty.pgn: empty file, no games"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn import_and_dataset_exit_1_after_storing_what_they_can_when_a_game_breaks_the_rules() {
    let dir = Scratch::new("alike", "exit-1");
    let mut bytes = sample("chess/01-two-knights-defence.pgn");
    bytes.extend_from_slice(b"\n[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n");
    std::fs::write(dir.join("two.pgn"), &bytes).unwrap();
    let o = xpgn_in(&dir, &["import", "two.pgn", "--db", "g.db"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).starts_with("read 2, imported 2"),
        "{}",
        text(&o.stdout)
    );
    // filter writes what it selects as read, invalid games too, and says
    // that some break the rules.
    let f = xpgn_in(&dir, &["filter", "two.pgn", "-o", "sel.pgn"]);
    assert_eq!(f.status.code(), Some(1), "{}", text(&f.stderr));
    assert!(
        text(&f.stderr).contains("xpgn: 1 game breaks the rules"),
        "{}",
        text(&f.stderr)
    );
    assert_eq!(std::fs::read(dir.join("sel.pgn")).unwrap(), bytes);
    // A game read that breaks the rules counts, selected or not.
    let valid_only = xpgn_in(&dir, &["filter", "two.pgn", "--tag", "Event!=bad"]);
    assert_eq!(valid_only.status.code(), Some(1));
    assert_eq!(text(&valid_only.stdout).matches("[Event ").count(), 1);
    let q = xpgn_in(&dir, &["query", "--db", "g.db", "--event", "no such event"]);
    assert_eq!(
        q.status.code(),
        Some(0),
        "a query that matches nothing is no error"
    );
    #[cfg(feature = "parquet")]
    {
        let d = xpgn_in(&dir, &["dataset", "two.pgn", "--out", "set"]);
        assert_eq!(d.status.code(), Some(1), "{}", text(&d.stderr));
        assert!(dir.join("set/games-00000.parquet").exists());
    }
}

#[test]
fn help_gives_the_exit_codes_and_examples_and_errors_start_with_xpgn() {
    let dir = Scratch::new("alike", "help");
    for args in [
        vec!["--help"],
        vec!["validate", "--help"],
        vec!["tree", "--help"],
        vec!["filter", "--help"],
    ] {
        let o = xpgn_in(&dir, &args);
        assert_eq!(o.status.code(), Some(0));
        let help = text(&o.stdout);
        assert!(help.contains("Examples:\n  xpgn "), "{args:?}: {help}");
        // Read as one line: the help is wrapped to the terminal's width.
        let words = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.ends_with(
                "Exit codes: 0 all good; 1 some game or move breaks the rules, or no game was read; 2 bad arguments, or an input or output that cannot be read or written."
            ),
            "{args:?}: {help}"
        );
    }
    // The help fits the terminal it is shown on (COLUMNS where set).
    for columns in ["60", "100"] {
        let o = Command::new(env!("CARGO_BIN_EXE_xpgn"))
            .current_dir(&dir)
            .args(["perft", "--help"])
            .env("COLUMNS", columns)
            .output()
            .unwrap();
        let help = text(&o.stdout);
        let widest = help.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= columns.parse().unwrap(), "{columns}: {help}");
        assert!(help.contains("Count the leaves"), "{help}");
    }
    let o = xpgn_in(&dir, &["validate", "--no-such-flag", "x.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).starts_with("xpgn: unexpected argument"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn an_unknown_variant_suggests_the_nearest_names() {
    let dir = Scratch::new("alike", "variant");
    let o = xpgn_in(&dir, &["show", "--variant", "chess9600"]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("unknown variant `chess9600`; did you mean `chess960`"),
        "{err}"
    );
    assert!(err.contains("--variants FILE"), "{err}");
    let o = xpgn_in(&dir, &["validate", "--variant", "crazyhose", "-"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("did you mean `crazyhouse`"),
        "{}",
        text(&o.stderr)
    );
    let o = xpgn_in(&dir, &["show", "--variant", "qqqqqqqqqqqqqq"]);
    assert!(
        !text(&o.stderr).contains("did you mean"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn moves_take_san_and_coordinates_with_or_without_numbers_in_every_command() {
    let dir = Scratch::new("alike", "moves");
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    for moves in [
        "1. e4 e5 2. Nf3 Nc6",
        "e2e4 e7e5 g1f3 b8c6",
        "1.e4 e5 2.Nf3 Nc6",
        "e4 e5 Nf3 Nc6",
    ] {
        let show = xpgn_in(&dir, &["show", "--moves", moves]);
        assert_eq!(
            show.status.code(),
            Some(0),
            "{moves}: {}",
            text(&show.stderr)
        );
        assert!(
            text(&show.stdout).contains(&format!("FEN: {fen}")),
            "{moves}"
        );
        let key = xpgn_in(&dir, &["key", "--moves", moves]);
        let by_fen = xpgn_in(&dir, &["key", "--fen", fen]);
        assert_eq!(text(&key.stdout), text(&by_fen.stdout), "{moves}");
        let svg = xpgn_in(&dir, &["diagram", "--moves", moves]);
        assert_eq!(svg.status.code(), Some(0), "{moves}: {}", text(&svg.stderr));
        let perft = xpgn_in(&dir, &["perft", "--moves", moves, "1"]);
        assert_eq!(
            perft.status.code(),
            Some(0),
            "{moves}: {}",
            text(&perft.stderr)
        );
    }
    let bad = xpgn_in(&dir, &["show", "--moves", "1. e4 e5 2. Ke3"]);
    assert_eq!(
        bad.status.code(),
        Some(1),
        "an illegal move breaks the rules"
    );
    assert!(
        text(&bad.stderr).starts_with("xpgn: --moves: ply 3 `Ke3`"),
        "{}",
        text(&bad.stderr)
    );
    let junk = xpgn_in(&dir, &["show", "--moves", "e4 ??x"]);
    assert_eq!(
        junk.status.code(),
        Some(2),
        "no move at all is a usage error"
    );
}

/// Sends SIGINT to `child` once `ready` holds, and waits for it to end.
#[cfg(unix)]
fn interrupt_when(child: &mut std::process::Child, ready: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !ready() {
        assert!(std::time::Instant::now() < deadline, "never ready");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert!(!status.success());
}

#[cfg(unix)]
#[test]
fn an_interrupted_convert_leaves_no_temporary_file() {
    for command in [&["convert", "-", "--to", "xpgn"][..], &["filter", "-"][..]] {
        interrupted_leaves_no_temporary_file(command);
    }
}

#[cfg(unix)]
fn interrupted_leaves_no_temporary_file(command: &[&str]) {
    let dir = Scratch::new("alike", &format!("sigint-{}", command[0]));
    let mut child = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .current_dir(&dir)
        .args(command)
        .args(["-o", "out.pgn"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Standard input stays open: the command waits for more games with
    // its temporary file open.
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(&sample("chess/01-two-knights-defence.pgn"))
        .unwrap();
    stdin.flush().unwrap();
    let temps = || {
        std::fs::read_dir(&*dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".tmp")
            })
            .count()
    };
    interrupt_when(&mut child, || temps() == 1);
    drop(stdin);
    assert_eq!(temps(), 0, "the temporary file is removed");
    assert!(!dir.join("out.pgn").exists());
}

#[test]
fn the_query_table_shows_status_and_event_and_says_when_the_limit_cut_it() {
    let dir = Scratch::new("alike", "query");
    let samples = concat!(env!("CARGO_MANIFEST_DIR"), "/samples");
    let i = xpgn_in(&dir, &["import", samples, "--db", "g.db"]);
    assert_eq!(
        i.status.code(),
        Some(1),
        "samples/invalid: {}",
        text(&i.stderr)
    );
    let all = xpgn_in(&dir, &["query", "--db", "g.db"]);
    assert_eq!(all.status.code(), Some(0));
    let all = text(&all.stdout);
    let rows = all.lines().count() - 2;
    assert!(rows > 30, "{all}");
    assert!(all.ends_with(&format!("\n{rows} games\n")), "{all}");
    let header: Vec<&str> = all.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(header[8..], ["status", "eco", "event"]);
    assert!(all.lines().any(|l| l.contains("  invalid  ")), "{all}");
    assert!(all.lines().any(|l| l.contains("  valid  ")), "{all}");
    let cut = xpgn_in(&dir, &["query", "--db", "g.db", "--limit", "30"]);
    let cut = text(&cut.stdout);
    assert_eq!(cut.lines().count(), 32, "{cut}");
    assert!(cut.ends_with(&format!("\n30 of {rows} games\n")), "{cut}");
    let one = xpgn_in(&dir, &["query", "--db", "g.db", "--limit", "1"]);
    assert!(text(&one.stdout).ends_with(&format!("\n1 of {rows} games\n")));
    let none = xpgn_in(&dir, &["query", "--db", "g.db", "--white", "nobody at all"]);
    assert_eq!(none.status.code(), Some(0));
    assert!(
        text(&none.stdout).ends_with("\n0 games\n"),
        "{}",
        text(&none.stdout)
    );
}

#[test]
fn a_warned_game_shows_as_warned_with_its_event() {
    let dir = Scratch::new("alike", "warned");
    // A mate mark on a move that does not mate is read with a warning.
    std::fs::write(
        dir.join("w.pgn"),
        "[Event \"Warned Open\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4# e5 *\n",
    )
    .unwrap();
    let v = xpgn_in(&dir, &["validate", "w.pgn"]);
    assert!(
        text(&v.stdout).ends_with("1 game read, 1 valid (1 with warnings), 0 invalid\n"),
        "{}",
        text(&v.stdout)
    );
    xpgn_in(&dir, &["import", "w.pgn", "--db", "g.db"]);
    let q = text(&xpgn_in(&dir, &["query", "--db", "g.db"]).stdout);
    let row = q.lines().nth(1).unwrap();
    // 1. e4 e5 is the King's Pawn Game, C20.
    assert!(row.ends_with("  warned   C20  Warned Open"), "{q}");
    assert!(q.ends_with("\n1 game\n"), "{q}");
}
