//! The `xpgn` command: output shapes and exit codes.

use std::process::{Command, Output};

use crate::run::{stderr, stdout, xpgn};
use crate::scratch;
use scratch::Scratch;

#[test]
fn variants_lists_every_builtin_with_sizes_and_start_strings() {
    let o = xpgn(&["variants"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert_eq!(
        text.lines().filter(|l| !l.starts_with(' ')).count(),
        xpgn::rules::Variant::builtin().len()
    );
    assert!(text.contains("grand") && text.contains("10x10"));
    assert!(text.contains("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"));
    assert!(text.contains("courier-spiel") && text.contains("12x8"));
    assert!(
        text.contains("rnbefkebnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBEFKEBNR w KQkq - 0 1 -")
    );
}

#[test]
fn variants_give_each_variant_its_piece_letters_with_names() {
    let o = xpgn(&["variants"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        2 * xpgn::rules::Variant::builtin().len(),
        "{text}"
    );
    let legend_of = |name: &str| {
        let i = lines
            .iter()
            .position(|l| l.split(' ').next() == Some(name))
            .unwrap_or_else(|| panic!("no line for {name}: {text}"));
        lines[i + 1]
    };
    assert_eq!(
        legend_of("counsellor"),
        "    K King, Q Queen, R Rook, B Bishop, N Knight, E Elephant, C Counsellor, P Pawn"
    );
    assert_eq!(
        legend_of("chaturanga"),
        "    K King, C Councelor, R Chariot, N Knight, E Elephant, P Pawn"
    );
    assert_eq!(
        legend_of("courier-spiel"),
        "    K King, Q Queen, R Rook, N Knight, B Bishop, C Courier, M Councillor, F Fool, P Pawn"
    );
    // Every letter of every start position is explained, once.
    for pair in lines.chunks(2) {
        let board = pair[0].split_whitespace().find(|f| f.contains('/'));
        let board = board.expect("a start position string");
        let letters: Vec<char> = pair[1]
            .trim()
            .split(", ")
            .map(|entry| {
                let (letter, name) = entry.split_once(' ').expect("letter and name");
                assert!(!name.is_empty(), "{entry}");
                assert_eq!(letter.len(), 1, "{entry}");
                letter.chars().next().unwrap()
            })
            .collect();
        for c in board.chars().filter(char::is_ascii_alphabetic) {
            let c = c.to_ascii_uppercase();
            assert_eq!(
                letters.iter().filter(|&&l| l == c).count(),
                1,
                "{c} in {}",
                pair[0]
            );
        }
    }
}

#[test]
fn perft_prints_the_total_last_and_divides() {
    let o = xpgn(&["perft", "3"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "8902\n"));
    let o = xpgn(&[
        "perft",
        "--variant",
        "counsellor",
        "--moves",
        "g2g3",
        "--divide",
        "2",
    ]);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    let total: u64 = lines.last().unwrap().parse().unwrap();
    let sum: u64 = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, sum);
    assert_eq!(
        lines.len() - 1,
        28,
        "Black has 28 replies in Counsellor Chess"
    );
}

#[test]
fn perft_past_its_deepest_depth_is_a_usage_error() {
    let o = xpgn(&["perft", "4000000000"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("4000000000 is not in 0..=20"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
    let o = xpgn(&["perft", "21"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn show_prints_a_diagram_and_the_position_string() {
    let o = xpgn(&["show", "--variant", "royal", "--moves", "e2e3 e7e6"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(
        text.contains(" 8  r  n  b  e  f  k  e  b  n  r\n"),
        "{text}"
    );
    assert!(
        text.starts_with("Royal Chess (10x8), White to move\n"),
        "{text}"
    );
    assert!(text.ends_with(
        "FEN: rnbefkebnr/pppp1ppppp/4p5/10/10/4P5/PPPP1PPPPP/RNBEFKEBNR w KQkq - 0 2 -\n"
    ));
}

#[test]
fn illegal_move_names_ply_and_reason_with_exit_1() {
    let o = xpgn(&[
        "show",
        "--variant",
        "counsellor",
        "--moves",
        "g2g3 a7a6 g1i1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("ply 3 `g1i1`"), "{err}");
    assert!(err.contains("R-CO-4"), "{err}");
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["show", "--variant", "xiangqi"][..],
        &["show", "--fen", "8/8/8 w - - 0 1"][..],
        &["show", "--moves", "e2-"][..],
        &["perft"][..],
    ] {
        let o = xpgn(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).is_empty());
    }
    let o = xpgn(&[
        "show",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
    ]);
    assert!(stderr(&o).contains("en-passant field"), "{}", stderr(&o));
}

// ---- output files: all or nothing ------------------------------------------

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> Scratch {
    Scratch::new("cli", name)
}

/// Runs the binary in `dir`.
fn xpgn_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The names in `dir`, sorted.
fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A game file as found in the samples, as `name` in `dir`.
fn sample_game(dir: &std::path::Path, name: &str) -> Vec<u8> {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(manifest.join("samples/chess/01-two-knights-defence.pgn")).unwrap();
    std::fs::write(dir.join(name), &bytes).unwrap();
    bytes
}

#[test]
fn convert_to_a_file_writes_it_and_leaves_nothing_else() {
    let dir = scratch("convert-ok");
    sample_game(&dir, "in.pgn");
    std::fs::write(dir.join("out.pgn"), "old contents\n").unwrap();
    let o = xpgn_in(
        &dir,
        &["convert", "--to", "xpgn", "in.pgn", "-o", "out.pgn"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let written = std::fs::read_to_string(dir.join("out.pgn")).unwrap();
    let to_stdout = xpgn_in(&dir, &["convert", "--to", "xpgn", "in.pgn"]);
    assert_eq!(written, stdout(&to_stdout));
    assert!(written.contains("[White "), "{written}");
    assert_eq!(names(&dir), ["in.pgn", "out.pgn"]);
}

/// `-o -` means standard output, as in every command that reads `-` as
/// standard input: it had created a file named `-`.
#[test]
fn dash_as_output_file_means_standard_output_in_every_command() {
    let dir = scratch("dash-output");
    sample_game(&dir, "in.pgn");
    let o = xpgn_in(&dir, &["import", "--db", "games.db", "in.pgn"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for args in [
        &["convert", "--to", "xpgn", "in.pgn"][..],
        &["export", "--db", "games.db"][..],
        &["diagram", "--variant", "chess"][..],
    ] {
        let plain = xpgn_in(&dir, args);
        let mut dashed = args.to_vec();
        dashed.extend(["-o", "-"]);
        let o = xpgn_in(&dir, &dashed);
        assert_eq!(o.status.code(), Some(0), "{dashed:?}: {}", stderr(&o));
        assert!(!o.stdout.is_empty(), "{dashed:?}");
        assert_eq!(o.stdout, plain.stdout, "{dashed:?}");
        assert!(!dir.join("-").exists(), "{dashed:?} created a file `-`");
    }
    // `import --report -`: the report's JSON lines on standard output. The
    // game has a warning, so it is reported.
    std::fs::write(dir.join("warned.pgn"), "[White \"A\"]\n\n1. e4 e5\n").unwrap();
    let o = xpgn_in(
        &dir,
        &["import", "--db", "other.db", "--report", "-", "warned.pgn"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!dir.join("-").exists(), "--report - created a file `-`");
    let report = stdout(&o);
    let line = report
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no report line in {report}"));
    let json: serde_json::Value = serde_json::from_str(line).unwrap();
    assert_eq!(json["file"], "warned.pgn");
}

#[test]
fn convert_refuses_to_write_onto_one_of_its_inputs() {
    let dir = scratch("convert-same");
    let original = sample_game(&dir, "f.pgn");
    std::fs::hard_link(dir.join("f.pgn"), dir.join("link.pgn")).unwrap();
    sample_game(&dir, "other.pgn");
    // The same file through its parent directory.
    let roundabout = format!("../{}/f.pgn", dir.file_name().unwrap().to_string_lossy());
    for (inputs, output) in [
        (&["f.pgn"][..], "f.pgn"),
        (&["./f.pgn"][..], "f.pgn"),
        (&["f.pgn"][..], "./f.pgn"),
        (&["other.pgn", "f.pgn"][..], "link.pgn"),
        (&["link.pgn"][..], roundabout.as_str()),
    ] {
        let mut args = vec!["convert", "--to", "xpgn"];
        args.extend(inputs);
        args.extend(["-o", output]);
        let o = xpgn_in(&dir, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("onto itself") && err.contains(output), "{err}");
        assert_eq!(
            std::fs::read(dir.join("f.pgn")).unwrap(),
            original,
            "{args:?}"
        );
        assert_eq!(names(&dir), ["f.pgn", "link.pgn", "other.pgn"]);
    }
    // Standard input that is the output file, too.
    let o = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .current_dir(&dir)
        .args(["convert", "--to", "xpgn", "-", "-o", "f.pgn"])
        .stdin(std::fs::File::open(dir.join("f.pgn")).unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("standard input"), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.join("f.pgn")).unwrap(), original);
}

#[test]
fn convert_keeps_a_read_only_output_and_writes_through_a_link() {
    let dir = scratch("convert-perm");
    sample_game(&dir, "in.pgn");
    std::fs::write(dir.join("locked.pgn"), "locked\n").unwrap();
    let mut perm = std::fs::metadata(dir.join("locked.pgn"))
        .unwrap()
        .permissions();
    perm.set_readonly(true);
    std::fs::set_permissions(dir.join("locked.pgn"), perm).unwrap();
    let o = xpgn_in(
        &dir,
        &["convert", "--to", "xpgn", "in.pgn", "-o", "locked.pgn"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("locked.pgn: cannot write"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(dir.join("locked.pgn")).unwrap(), b"locked\n");
    #[cfg(unix)]
    {
        std::fs::write(dir.join("real.pgn"), "old\n").unwrap();
        std::os::unix::fs::symlink("real.pgn", dir.join("link.pgn")).unwrap();
        let o = xpgn_in(
            &dir,
            &["convert", "--to", "xpgn", "in.pgn", "-o", "link.pgn"],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let meta = std::fs::symlink_metadata(dir.join("link.pgn")).unwrap();
        assert!(meta.file_type().is_symlink(), "the link stays a link");
        let text = std::fs::read_to_string(dir.join("real.pgn")).unwrap();
        assert!(text.contains("[White "), "{text}");
    }
}

/// A device or a named pipe is written in place: renaming a temporary file
/// over it (as for a regular file) replaced `/dev/null` with a file when
/// xpgn ran as root.
#[cfg(unix)]
#[test]
fn convert_writes_into_a_named_pipe_and_leaves_it_a_pipe() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("convert-fifo");
    sample_game(&dir, "in.pgn");
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let o = xpgn_in(&dir, &["convert", "--to", "xpgn", "in.pgn", "-o", "pipe"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Before waiting for the reader: had the pipe been replaced, the
    // reader would wait for a writer for ever.
    let meta = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(meta.file_type().is_fifo(), "the pipe stays a pipe");
    let read = reader.join().unwrap();
    let to_stdout = xpgn_in(&dir, &["convert", "--to", "xpgn", "in.pgn"]);
    assert_eq!(read, stdout(&to_stdout));
    assert_eq!(names(&dir), ["in.pgn", "pipe"]);
}

#[test]
fn convert_with_a_missing_input_leaves_the_output_untouched() {
    let dir = scratch("convert-missing");
    sample_game(&dir, "in.pgn");
    let before = b"[Event \"keep me\"]\n\n1. e4 *\n".to_vec();
    std::fs::write(dir.join("out.pgn"), &before).unwrap();
    for inputs in [&["missing.pgn"][..], &["in.pgn", "missing.pgn"][..]] {
        let mut args = vec!["convert", "--to", "uci"];
        args.extend(inputs);
        args.extend(["-o", "out.pgn"]);
        let o = xpgn_in(&dir, &args);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("missing.pgn"), "{}", stderr(&o));
        assert_eq!(std::fs::read(dir.join("out.pgn")).unwrap(), before);
        assert_eq!(names(&dir), ["in.pgn", "out.pgn"]);
    }
}

/// A full disk, simulated: the file-size limit of the shell (`ulimit -f 1`,
/// with SIGXFSZ ignored) makes every write past the first block fail with
/// EFBIG, as writes fail with ENOSPC when the disk is full.
#[cfg(unix)]
#[test]
fn convert_onto_a_full_disk_fails_naming_the_output_and_keeps_the_old_file() {
    let dir = scratch("convert-full");
    let game = sample_game(&dir, "one.pgn");
    let mut big = Vec::new();
    for _ in 0..40 {
        big.extend_from_slice(&game);
        big.push(b'\n');
    }
    std::fs::write(dir.join("in.pgn"), &big).unwrap();
    let before = b"precious\n".to_vec();
    std::fs::write(dir.join("out.pgn"), &before).unwrap();
    let run = |args: &str| {
        Command::new("sh")
            .current_dir(&dir)
            .arg("-c")
            .arg(format!("trap '' XFSZ; ulimit -f 1 && exec \"$0\" {args}"))
            .arg(env!("CARGO_BIN_EXE_xpgn"))
            .output()
            .unwrap()
    };
    // The simulation works here: a plain copy of the input fails.
    let probe = Command::new("sh")
        .current_dir(&dir)
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 1 && cat in.pgn > probe.pgn")
        .output()
        .unwrap();
    assert!(!probe.status.success(), "ulimit -f did not limit writes");
    std::fs::remove_file(dir.join("probe.pgn")).unwrap();

    let o = run("convert --to xpgn in.pgn -o out.pgn");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("out.pgn: cannot write"), "{err}");
    assert_eq!(std::fs::read(dir.join("out.pgn")).unwrap(), before);
    assert_eq!(names(&dir), ["in.pgn", "one.pgn", "out.pgn"]);
}

#[test]
fn export_refuses_to_write_onto_its_database_and_keeps_the_target_on_failure() {
    let dir = scratch("export");
    sample_game(&dir, "in.pgn");
    let o = xpgn_in(&dir, &["import", "--db", "games.db", "in.pgn"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let db = std::fs::read(dir.join("games.db")).unwrap();
    let o = xpgn_in(&dir, &["export", "--db", "games.db", "-o", "./games.db"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("database"), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.join("games.db")).unwrap(), db);

    std::fs::write(dir.join("out.pgn"), "keep\n").unwrap();
    let o = xpgn_in(
        &dir,
        &["export", "--db", "games.db", "--fen", "x", "-o", "out.pgn"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.join("out.pgn")).unwrap(), b"keep\n");
    let o = xpgn_in(&dir, &["export", "--db", "games.db", "-o", "out.pgn"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(dir.join("out.pgn")).unwrap();
    assert!(text.contains("[White "), "{text}");
    // No temporary file is left (a read-only reader of a WAL database may
    // leave SQLite's own `-wal` and `-shm` files).
    let left: Vec<String> = names(&dir)
        .into_iter()
        .filter(|n| !n.ends_with("-wal") && !n.ends_with("-shm"))
        .collect();
    assert_eq!(left, ["games.db", "in.pgn", "out.pgn"]);
}

// ---- error messages stay readable ------------------------------------------

#[test]
fn a_huge_argument_is_shortened_in_the_message() {
    let huge = "x".repeat(120_000);
    let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {huge}");
    for args in [
        vec!["show", "--variant", huge.as_str()],
        vec!["perft", "--variant", huge.as_str(), "1"],
        vec!["show", "--moves", huge.as_str()],
        vec!["show", "--fen", fen.as_str()],
        vec!["validate", huge.as_str()],
        vec!["convert", "--to", huge.as_str(), "f.pgn"],
    ] {
        let o = xpgn(&args);
        assert_eq!(o.status.code(), Some(2), "{}", &args[..2].join(" "));
        let err = stderr(&o);
        assert!(
            err.len() < 500,
            "{}: {} bytes: {}",
            &args[..2].join(" "),
            err.len(),
            &err[..600.min(err.len())]
        );
        assert!(err.contains("more characters)"), "{err}");
    }
}

#[test]
fn terminal_escapes_in_arguments_are_not_printed_raw() {
    let red = "\x1b[31mred\x1b[0m";
    let path = format!("{red}.pgn");
    let moves = format!("e2e4 {red}");
    let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN{red} w KQkq - 0 1");
    for args in [
        vec!["show", "--variant", red],
        vec!["show", "--moves", moves.as_str()],
        vec!["show", "--fen", fen.as_str()],
        vec!["validate", path.as_str()],
        vec!["convert", "--to", "xpgn", path.as_str()],
        vec!["import", "--db", "/nonexistent-dir/x.db", path.as_str()],
    ] {
        let o = xpgn(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(!err.contains('\x1b'), "{args:?}: {err:?}");
        assert!(err.contains("\\u{1b}[31m"), "{args:?}: {err:?}");
    }
    // A bad value clap itself reports.
    let o = xpgn(&["convert", "--to", red, "f.pgn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains('\x1b'), "{:?}", stderr(&o));
}

#[test]
fn game_diagnostics_do_not_print_escapes_from_the_file() {
    let dir = scratch("diagnostics");
    std::fs::write(dir.join("bad.pgn"), "1. e4 \x1b[2J e5 *\n").unwrap();
    let o = xpgn_in(&dir, &["validate", "bad.pgn"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!stdout(&o).contains('\x1b'), "{:?}", stdout(&o));
    let o = xpgn_in(&dir, &["convert", "--to", "xpgn", "bad.pgn"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!stderr(&o).contains('\x1b'), "{:?}", stderr(&o));
    // The game itself goes out as read: nothing the user gave is dropped.
    assert!(stdout(&o).contains('\x1b'));
}

/// Every sample (the invalid ones too) and an input that cannot be read.
fn sample_inputs() -> Vec<String> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir("samples").expect("samples") {
        let dir = dir.expect("entry").path();
        for f in std::fs::read_dir(&dir).expect("sample folder") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|e| e == "xpgn") {
                files.push(f.to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    files.insert(files.len() / 2, "no-such-file.pgn".to_string());
    files
}

#[test]
fn validate_and_convert_say_the_same_for_any_number_of_jobs() {
    let files = sample_inputs();
    let args = |cmd: &[&str], jobs: &str| -> Vec<String> {
        let mut a: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
        a.extend(["--jobs".to_string(), jobs.to_string()]);
        a.extend(files.iter().cloned());
        a
    };
    for cmd in [
        &["validate"][..],
        &["validate", "--format", "json"],
        &["validate", "--strict"],
    ] {
        let run = |jobs| {
            let a = args(cmd, jobs);
            xpgn(&a.iter().map(String::as_str).collect::<Vec<_>>())
        };
        let one = run("1");
        assert_eq!(one.status.code(), Some(2), "{}", stderr(&one));
        assert!(stderr(&one).contains("no-such-file.pgn: cannot read"));
        assert!(stdout(&one).lines().count() > 10, "{}", stdout(&one));
        for jobs in ["2", "5"] {
            let many = run(jobs);
            assert_eq!(
                many.status.code(),
                one.status.code(),
                "{cmd:?} --jobs {jobs}"
            );
            assert_eq!(stdout(&many), stdout(&one), "{cmd:?} --jobs {jobs}");
            assert_eq!(stderr(&many), stderr(&one), "{cmd:?} --jobs {jobs}");
        }
    }
    let readable: Vec<String> = files
        .into_iter()
        .filter(|f| f != "no-such-file.pgn")
        .collect();
    for to in ["xpgn", "lan", "uci", "json", "fen"] {
        let run = |jobs: &str| {
            let mut a = vec!["convert", "--to", to, "--jobs", jobs];
            a.extend(readable.iter().map(String::as_str));
            xpgn(&a)
        };
        let one = run("1");
        assert!(!one.stdout.is_empty());
        assert!(stderr(&one).contains("as an invalid game"), "{to}");
        let many = run("3");
        assert_eq!(many.stdout, one.stdout, "--to {to}");
        assert_eq!(stderr(&many), stderr(&one), "--to {to}");
        assert_eq!(many.status.code(), one.status.code());
    }
}

#[test]
fn import_stores_the_same_database_for_any_number_of_jobs() {
    let dir = scratch("import-jobs");
    let samples = std::fs::canonicalize("samples").expect("samples");
    let samples = samples.to_string_lossy();
    let mut exports = Vec::new();
    for jobs in ["1", "2", "4"] {
        let db = format!("j{jobs}.db");
        let report = format!("j{jobs}.report");
        let o = xpgn_in(
            &dir,
            &[
                "import", "--jobs", jobs, "--db", &db, "--report", &report, &samples,
            ],
        );
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stdout(&o).contains("invalid 18"), "{}", stdout(&o));
        let again = xpgn_in(&dir, &["import", "--jobs", jobs, "--db", &db, &samples]);
        assert!(stdout(&again).contains("imported 0,"), "{}", stdout(&again));
        let json = xpgn_in(&dir, &["export", "--db", &db, "--to", "json"]);
        let original = xpgn_in(&dir, &["export", "--db", &db, "--original"]);
        let report = std::fs::read(dir.join(&report)).expect("the report");
        exports.push((json.stdout, original.stdout, report));
    }
    assert!(!exports[0].0.is_empty() && !exports[0].2.is_empty());
    for (i, e) in exports.iter().enumerate().skip(1) {
        assert!(
            *e == exports[0],
            "export {i} differs from the one-job import"
        );
    }
}

/// A build without the `parquet` feature keeps `dataset` and
/// `export --to parquet` in its commands and says how to get them.
#[cfg(not(feature = "parquet"))]
#[test]
fn datasets_without_the_parquet_feature_say_how_to_build_them() {
    let dir = scratch("no-parquet");
    let out = dir.join("set");
    let out = out.to_str().unwrap();
    for args in [
        vec!["dataset", "samples", "--out", out],
        vec![
            "export",
            "--db",
            "missing.db",
            "--to",
            "parquet",
            "--out",
            out,
        ],
    ] {
        let o = xpgn(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains("`parquet` feature") && err.contains("--features parquet"),
            "{err}"
        );
        assert!(!std::path::Path::new(out).exists(), "{args:?} wrote {out}");
    }
    assert!(stdout(&xpgn(&["--help"])).contains("dataset"));
}
