//! The `xpgn` command: output shapes and exit codes.

use std::process::{Command, Output};

fn xpgn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn variants_lists_all_eight_with_sizes_and_start_strings() {
    let o = xpgn(&["variants"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 8);
    assert!(text.contains("courier-spiel") && text.contains("12x8"));
    assert!(
        text.contains("rnbefkebnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBEFKEBNR w KQkq - 0 1 -")
    );
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
        &["show", "--moves", "e2"][..],
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
