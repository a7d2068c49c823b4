//! Variant definition files (docs/variants.md): refusals with their exact
//! messages, a user's variant end to end, Chess960 games (R-960-1, R-960-2).

use std::process::Command;

use crate::scratch;
use scratch::Scratch;

use xpgn::rules::variant::builtin_def;
use xpgn::rules::{Position, Registry, Variant, builtin_source, load_toml, perft};

const MINI: &str = r#"name = "mini"
board = "4x4"
setup = "k3/p3/3P/3K"

[[piece]]
letter = "K"
name = "King"
betza = "K"
role = "king"

[[piece]]
letter = "P"
name = "Pawn"
role = "pawn"

[[piece]]
letter = "Q"
name = "Queen"
betza = "Q"
"#;

fn refusal(text: &str) -> String {
    load_toml("bad.toml", text).unwrap_err().to_string()
}

#[test]
fn every_builtin_loads_from_its_shipped_file() {
    for v in Variant::builtin() {
        let def = builtin_def(v.name()).unwrap();
        assert_eq!(def.source.as_deref(), builtin_source(v.name()));
        assert_eq!(def.name, v.name());
    }
    assert!(Variant::by_name("Chess960").is_some());
    for tag in ["chess 960", "Fischerandom", "FRC"] {
        assert_eq!(Variant::by_name(tag).unwrap().name(), "chess960", "{tag}");
    }
}

#[test]
fn a_definition_without_a_king_is_refused() {
    let text = MINI.replace("role = \"king\"\n", "");
    assert_eq!(
        refusal(&text),
        "bad.toml:6: piece.role: a variant needs exactly one piece with role = \"king\", this one has 0"
    );
}

#[test]
fn a_setup_that_does_not_fit_the_board_is_refused() {
    let text = MINI.replace("k3/p3/3P/3K", "k3/p3/3P/4K");
    assert_eq!(
        refusal(&text),
        "bad.toml:3: setup: does not fit the 4x4 board: rank 1 is longer than 4 files"
    );
    let text = MINI.replace("k3/p3/3P/3K", "k3/p3/3K");
    assert_eq!(
        refusal(&text),
        "bad.toml:3: setup: does not fit the 4x4 board: 3 ranks for a board of 4 ranks"
    );
}

#[test]
fn a_letter_used_twice_is_refused() {
    let text = MINI.replace("letter = \"Q\"", "letter = \"K\"");
    assert_eq!(
        refusal(&text),
        "bad.toml:17: piece.letter: the letter K is used twice (King and Queen)"
    );
}

#[test]
fn a_betza_string_that_does_not_parse_is_refused() {
    let text = MINI.replace("betza = \"Q\"", "betza = \"pR\"");
    assert_eq!(
        refusal(&text),
        "bad.toml:19: piece.betza: Betza `pR`, column 1: `p` (hopper, as the cannon) is not supported"
    );
}

/// MINI with a rook in the corner and one castling, its squares as given.
fn mini_castling(king: &str, partner: &str) -> String {
    MINI.replace("k3/p3/3P/3K", "k3/p3/3P/R2K").replace(
        "[[piece]]\nletter = \"Q\"",
        &format!(
            "[[castling]]\nside = \"O-O-O\"\ncolor = \"white\"\nking = \"{king}\"\npartner = \"{partner}\"\n\n\
             [[piece]]\nletter = \"R\"\nname = \"Rook\"\nbetza = \"R\"\n\n[[piece]]\nletter = \"Q\""
        ),
    )
}

#[test]
fn castling_squares_off_any_board_are_refused_not_panicked_on() {
    let ok = load_toml("ok.toml", &mini_castling("d1-b1", "a1-c1"));
    assert!(ok.is_ok(), "{ok:?}");
    for (king, partner, field, pair) in [
        ("e1-z99", "a1-c1", "castling.king", "e1-z99"),
        ("d1-b1", "h1-f99", "castling.partner", "h1-f99"),
        ("e1-a17", "a1-c1", "castling.king", "e1-a17"),
        ("d1-b1", "a1-q1", "castling.partner", "a1-q1"),
    ] {
        let text = mini_castling(king, partner);
        let line = 1 + text
            .lines()
            .position(|l| l.contains(&format!("\"{pair}\"")))
            .unwrap();
        assert_eq!(
            refusal(&text),
            format!(
                "bad.toml:{line}: {field}: `{pair}` is not FROM-TO squares on the board (`e1-g1`)"
            )
        );
    }
    // Through the environment, every command stops with the message.
    let dir = Scratch::new("variant-files", "castling-off-board");
    std::fs::write(dir.join("far.toml"), mini_castling("e1-z99", "a1-c1")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(["variants"])
        .env("XPGN_VARIANTS", dir.join("far.toml"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err,
        format!(
            "{}:19:1: castling.king: `e1-z99` is not FROM-TO squares on the board (`e1-g1`)\n   |\n19 | king = \"e1-z99\"\n   | ^^^^^^^^^^^^^^^\n",
            dir.join("far.toml").display()
        )
    );
}

#[test]
fn a_definition_file_over_the_size_limit_is_refused_unread() {
    let dir = Scratch::new("variant-files", "too-big");
    let big = dir.join("big.toml");
    let text = format!("{MINI}{}", "# padding\n".repeat(30_000));
    std::fs::write(&big, &text).unwrap();
    let mut reg = Registry::builtin();
    let e = reg.load_path(&big).unwrap_err();
    assert_eq!(e.field, "file");
    assert_eq!(
        e.to_string(),
        format!(
            "{}:0: file: the file is larger than 262144 bytes, the most a definition file may have",
            big.display()
        )
    );
    assert_eq!(load_toml("big.toml", &text).unwrap_err().reason, e.reason);
}

#[test]
fn a_setup_without_a_king_per_side_and_unknown_fields_are_refused() {
    let text = MINI.replace("k3/p3/3P/3K", "q3/p3/3P/3K");
    assert_eq!(
        refusal(&text),
        "bad.toml:3: setup: Black has 0 kings; the setup needs exactly one per side (R-0-1)"
    );
    let text = MINI.replace("board = \"4x4\"", "board = \"4x4\"\nwinds = 3");
    assert!(
        refusal(&text).starts_with("bad.toml:3: winds: unknown field `winds`"),
        "{}",
        refusal(&text)
    );
    let text = MINI.replace("4x4", "17x4");
    assert_eq!(
        refusal(&text),
        "bad.toml:2: board: `17x4` is not FILESxRANKS with each from 1 to 16 (`8x8`, `10x10`)"
    );
}

#[test]
fn a_side_kingless_in_the_setup_castles_only_with_a_named_partner() {
    // `kingless = "either"`: White has no king in the setup.
    let base = MINI
        .replace("k3/p3/3P/3K", "k2q/p3/3P/3P")
        .replace("board = \"4x4\"", "board = \"4x4\"\nkingless = \"either\"");
    let castling = "\n[[castling]]\nside = \"O-O\"\ncolor = \"white\"\nking = \"a1-c1\"\npartner = \"d1-b1\"\n";
    let refused = refusal(&format!("{base}{castling}"));
    assert!(
        refused.contains("White has no king in the setup: its castling names the partner's type with `partner-piece`"),
        "{refused}"
    );
    let named = format!("{base}{castling}partner-piece = \"Q\"\n");
    load_toml("good.toml", &named).unwrap();
    // Either side may lack its king, but one side has it.
    let kingless_both = base.replace("k2q/p3/3P/3P", "q3/p3/3P/3P");
    assert!(
        refusal(&kingless_both).contains("with `kingless = \"either\"` each side has at most one"),
        "{}",
        refusal(&kingless_both)
    );
}

#[test]
fn a_registry_refuses_a_name_already_taken() {
    let mut reg = Registry::builtin();
    let text = MINI.replace("name = \"mini\"", "name = \"Royal Chess\"");
    let e = reg.load("royal.toml", &text).unwrap_err().to_string();
    assert_eq!(
        e,
        "royal.toml:1: name: the name `Royal Chess` is already taken by the variant `royal`"
    );
}

fn grid10() -> Variant {
    let mut reg = Registry::builtin();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/variants/grid10.toml");
    reg.load_path(std::path::Path::new(path)).unwrap();
    reg.lookup("grid ten").unwrap()
}

#[test]
fn a_users_ten_by_ten_variant_with_a_zebra_plays() {
    let v = grid10();
    let pos = Position::start(&v);
    // 10 pawns x 2, knight g1 f3 h3, zebras b1 d4 e3 and h1 j4 f4 e3, king i1-j1.
    let moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| xpgn::notation::coord::write_coord(&pos, m))
        .collect();
    assert!(moves.contains(&"b1d4".to_string()), "{moves:?}");
    assert!(moves.contains(&"b1e3".to_string()), "{moves:?}");
    assert!(moves.contains(&"h1j4".to_string()), "{moves:?}");
    assert!(moves.contains(&"h1f4".to_string()), "{moves:?}");
    assert_eq!(perft(&pos, 1), 28);
}

/// Orthodox chess with pawns that double-step from ranks 2 to 7.
fn torpedo() -> Variant {
    let text = builtin_source("chess")
        .unwrap()
        .replace("name = \"chess\"", "name = \"torpedo\"")
        .replace("display-name = \"Chess\"", "display-name = \"Torpedo\"")
        .replace(
            "aliases = [\"standard\", \"orthodox\", \"orthodox chess\", \"normal\", \"regular\", \"from position\"]\n",
            "",
        )
        .replace("double-step = [2]", "double-step = [2, 3, 4, 5, 6, 7]");
    Variant::compile(load_toml("torpedo.toml", &text).unwrap()).unwrap()
}

#[test]
fn a_double_step_onto_the_last_rank_promotes() {
    use xpgn::notation::coord::write_coord;
    use xpgn::notation::position::{read_position, write_position};
    use xpgn::notation::san::{parse_san, resolve_san};
    let v = torpedo();
    let pos = read_position(&v, "k7/8/4P3/8/8/8/8/4K3 w - - 0 1").unwrap();
    let mut moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| write_coord(&pos, m))
        .collect();
    moves.sort();
    // As Fairy-Stockfish (pyffish 0.0.90) lists them.
    assert_eq!(
        moves,
        [
            "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e6e7", "e6e8b", "e6e8n", "e6e8q", "e6e8r"
        ]
    );
    assert_eq!(perft(&pos, 1), 10);
    let san = |text: &str| resolve_san(&pos, &parse_san(text).unwrap().san);
    let e = san("e8").unwrap_err().to_string();
    assert!(
        e.contains("the pawn promotes on e8: add one of =Q, =R, =B, =N"),
        "{e}"
    );
    let mut after = pos.clone();
    after.play_unchecked(&san("e8=Q").unwrap());
    // No en passant square: no pawn is left to take (as Fairy-Stockfish).
    assert_eq!(write_position(&after), "k3Q3/8/8/8/8/8/8/4K3 b - - 0 1");
    // Black's double step onto rank 1 too.
    let black = read_position(&v, "k7/8/8/8/8/4p3/8/K7 b - - 0 1").unwrap();
    assert_eq!(perft(&black, 1), 3 + 1 + 4);
}

#[test]
fn an_optional_promotion_not_taken_is_read_and_written_without_a_suffix() {
    use xpgn::notation::coord::{resolve_coord, write_coord};
    use xpgn::notation::position::read_position;
    use xpgn::notation::san::{parse_san, resolve_san, write_san};
    let v = grid10();
    // Grid Ten: pawns may promote on ranks 8 and 9 and must on 10.
    let pos = read_position(&v, "4k5/10/10/4P5/10/10/10/2p7/1R8/4K5 w - - 0 1").unwrap();
    let san = |pos: &xpgn::rules::Position, text: &str| {
        resolve_san(pos, &parse_san(text).unwrap().san).map_err(|e| e.to_string())
    };
    let stay = san(&pos, "e8").unwrap();
    assert_eq!(
        (stay.promotion(), write_san(&pos, &stay)),
        (None, "e8".into())
    );
    assert_eq!(resolve_coord(&pos, "e7e8").unwrap(), stay);
    assert_eq!(write_coord(&pos, &stay), "e7e8");
    let queen = san(&pos, "e8=Q").unwrap();
    assert_eq!(write_san(&pos, &queen), "e8=Q+");
    assert_eq!(resolve_coord(&pos, "e7e8q").unwrap(), queen);
    // Black's pawn on c3 takes on b2 and stays a pawn, or promotes.
    let black = read_position(&v, "4k5/10/10/10/10/10/10/2p7/1R8/4K5 b - - 0 1").unwrap();
    let take = san(&black, "cxb2").unwrap();
    assert_eq!(
        (take.promotion(), write_san(&black, &take)),
        (None, "cxb2".into())
    );
    assert!(san(&black, "cxb2=Z").unwrap().promotion().is_some());
    // On the last rank the promotion stays mandatory.
    let last = read_position(&v, "k9/4P5/10/10/10/10/10/10/10/4K5 w - - 0 1").unwrap();
    let e = san(&last, "e10").unwrap_err();
    assert!(e.contains("add one of =Q, =Z"), "{e}");
}

fn xpgn(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("XPGN_VARIANTS")
        .output()
        .unwrap()
}

#[test]
fn variants_option_and_environment_load_a_file_for_every_command() {
    let o = xpgn(&[
        "--variants",
        "tests/variants/grid10.toml",
        "perft",
        "--variant",
        "grid10",
        "1",
    ]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "28");
    let o = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(["variants", "--show", "grid10"])
        .env("XPGN_VARIANTS", "tests/variants")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("# A user's variant"));
    let o = xpgn(&["variants", "--show", "chess960"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("R-960-1"));
}

#[test]
fn a_bad_definition_stops_xpgn_before_any_game_is_read() {
    let dir = Scratch::new("variant-files", "bad-definition");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, MINI.replace("betza = \"Q\"", "betza = \"QY\"")).unwrap();
    let o = xpgn(&[
        "validate",
        "--variants",
        bad.to_str().unwrap(),
        "tests/variants/chess960-games.xpgn",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    // In the diagnostics' one form: where, what, the line with a caret.
    assert_eq!(
        err,
        format!(
            "{}:19:1: piece.betza: Betza `QY`, column 2: `Y` is not a Betza atom (W F D N A H C Z G K R B Q)\n   |\n19 | betza = \"QY\"\n   | ^^^^^^^^^^^^\n",
            bad.display()
        )
    );
    assert!(o.stdout.is_empty());
    let o = xpgn(&["--variants", "tests/variants/missing.ini", "variants"]);
    assert_eq!(o.status.code(), Some(2));
    // A file that cannot be read has no line to show: one line names it.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("xpgn: tests/variants/missing.ini:0: file: ") && err.lines().count() == 1,
        "{err}"
    );
}

#[test]
fn refused_ini_sections_are_warnings_and_the_others_load() {
    let dir = Scratch::new("variant-files", "ini-warnings");
    let ini = dir.join("mixed.ini");
    std::fs::write(
        &ini,
        "[plain-ini:chess]\n\n[zh-ini:chess]\ntwoBoards = true\n",
    )
    .unwrap();
    let o = xpgn(&[
        "--variants",
        ini.to_str().unwrap(),
        "perft",
        "--variant",
        "plain-ini",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "400\n");
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "{}:4:1: warning: [zh-ini] twoBoards: xpgn cannot play `twoBoards = true`; the section is refused rather than approximated\n  |\n4 | twoBoards = true\n  | ^^^^^^^^^^^^^^^^\n",
            ini.display()
        )
    );
}

#[test]
fn chess960_games_validate() {
    let o = xpgn(&["validate", "tests/variants/chess960-games.xpgn"]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "3 games read, 3 valid (0 with warnings), 0 invalid"
    );
    assert_eq!(o.status.code(), Some(0));
}

/// A castling refused because the king would land in the line its
/// partner's leaving opens is explained by that partner, the one the
/// position's castling field names (b1), not by another castling from the
/// king's square (with a rook from a1).
#[test]
fn chess960_castling_into_a_line_its_partner_opens_is_explained() {
    let dir = Scratch::new("variant-files", "chess960-castling-reason");
    let file = dir.join("castle.pgn");
    std::fs::write(
        &file,
        "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/rR1K4 w B - 0 1\"]\n\n1. O-O-O *\n",
    )
    .unwrap();
    let o = xpgn(&["validate", file.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(
            "castling O-O-O is not possible: the king would stand attacked on c1 once the Rook has left b1 (R-960-1)"
        ),
        "{out}"
    );
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn chess960_castling_fields_and_coordinates() {
    use xpgn::notation::coord::{resolve_coord, write_coord};
    use xpgn::notation::position::{read_position, write_position};
    let v = Variant::by_name("chess960").unwrap();
    // Shredder-FEN reads; X-FEN is written (R-960-2).
    let pos = read_position(&v, "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1").unwrap();
    assert_eq!(
        write_position(&pos),
        "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"
    );
    // A rook that is not the outermost on its side keeps its file letter.
    let inner = read_position(&v, "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1").unwrap();
    assert_eq!(write_position(&inner), "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
    let m = resolve_coord(&inner, "e1b1").unwrap();
    assert!(m.is_castle());
    assert_eq!(write_coord(&inner, &m), "e1b1");
    // O-O toward either rook: the king takes its own rook (R-960-1).
    let m = resolve_coord(&pos, "b1a1").unwrap();
    let mut after = pos.clone();
    after.play_unchecked(&m);
    assert_eq!(
        write_position(&after),
        "rk5r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1"
    );
    let e = read_position(&v, "4k3/8/8/8/8/8/8/RR2K3 w C - 0 1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "position string, castling field at column 25: castling: White has no rook on c1 to castle with (R-960-2)"
    );
}

#[test]
fn a_bare_king_loses_unless_it_bares_the_other_at_once() {
    use xpgn::notation::position::read_position;
    use xpgn::rules::{Color, Ending, Outcome};
    let mut reg = Registry::builtin();
    reg.load(
        "bare.toml",
        &MINI.replace("board = \"4x4\"", "board = \"4x4\"\nbare-king = \"loses\""),
    )
    .unwrap();
    let v = reg.lookup("mini").unwrap();
    let lost = read_position(&v, "k3/4/4/KQ2 b - - 0 1").unwrap();
    assert_eq!(
        lost.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            by: Ending::BareKing
        })
    );
    // Black can take the last white piece: play on, then both bare is a draw.
    let open = read_position(&v, "4/1Q2/2k1/K3 b - - 0 1").unwrap();
    assert_eq!(open.outcome(), None);
    let both = read_position(&v, "4/2k1/4/K3 w - - 0 1").unwrap();
    assert_eq!(
        both.outcome(),
        Some(Outcome::Draw {
            by: Ending::BareKing
        })
    );
}
