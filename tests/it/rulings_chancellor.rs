//! Paulowich's Chancellor Chess (R-PC-1, R-PC-2) and its crosswise form
//! (R-PX-1), with the castling conditions of R-0-5 as they apply there.

use crate::common;

use common::{
    assert_round_trip, castling_field, error, fen, is_legal, legal, legal_from, piece, play, sq,
    start, strs, variant,
};
use xpgn::notation::coord::{resolve_coord, write_coord};
use xpgn::notation::position::{read_position, write_position};
use xpgn::rules::{CastlingSide, Color, Illegality, MoveKind, Square};

// ---- helpers -------------------------------------------------------------

const PC: &str = "chancellor";
const PX: &str = "chancellor-crosswise";

// ---- R-PC-1 setup, Chancellor, promotion ---------------------------------------

#[test]
fn r_pc_1_setup() {
    let pos = start(PC);
    assert_eq!(
        write_position(&pos),
        "cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQkq - 0 1"
    );
    assert_round_trip(&pos);
    for (i, l) in "CNBRKBNQ".chars().enumerate() {
        assert_eq!(
            pos.piece_at(Square::new(i as u8, 0)),
            piece(PC, Color::White, l)
        );
        assert_eq!(
            pos.piece_at(Square::new(i as u8, 7)),
            piece(PC, Color::Black, l)
        );
    }
    // 16 pawn moves, 4 knight moves and the Chancellor's knight leap a1-b3.
    let moves = legal(&pos);
    assert_eq!(moves.len(), 21);
    assert_eq!(legal_from(&pos, "a1"), strs(&["a1b3"]));
    assert!(legal_from(&pos, "h1").is_empty());
    assert!(legal_from(&pos, "e1").is_empty());
}

#[test]
fn r_pc_1_chancellor_is_rook_plus_knight() {
    let pos = fen(PC, "4k3/8/8/8/3C4/8/8/4K3 w - - 0 1");
    let mut expected: Vec<String> = Vec::new();
    for to in [
        "d1", "d2", "d3", "d5", "d6", "d7", "d8", "a4", "b4", "c4", "e4", "f4", "g4",
        "h4", // rook
        "b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5", // knight
    ] {
        expected.push(format!("d4{to}"));
    }
    expected.sort();
    assert_eq!(legal_from(&pos, "d4"), expected);
    for bad in ["d4e5", "d4c3", "d4f6", "d4b6"] {
        assert_eq!(
            error(&pos, bad),
            format!("the Chancellor on d4 cannot reach {}", &bad[2..])
        );
    }
    // It attacks like both: the knight part gives check from d6.
    let check = fen(PC, "4k3/8/3C4/8/8/8/8/4K3 b - - 0 1");
    assert!(check.is_check());
    // The rook part is blocked, the knight part jumps.
    let boxed = fen(PC, "4k3/8/8/2PPP3/2PCP3/2PPP3/8/4K3 w - - 0 1");
    assert_eq!(
        legal_from(&boxed, "d4"),
        strs(&[
            "d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"
        ])
    );
}

#[test]
fn r_pc_1_promotions_n_b_r_c_q() {
    for v in [PC, PX] {
        let pos = fen(v, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            legal_from(&pos, "a7"),
            strs(&[
                "a7a8b", "a7a8c", "a7a8n", "a7a8q", "a7a8r", "a7b8b", "a7b8c", "a7b8n", "a7b8q",
                "a7b8r"
            ]),
            "{v}"
        );
        for l in ['N', 'B', 'R', 'C', 'Q'] {
            let after = play(&pos, &format!("a7a8{}", l.to_ascii_lowercase()));
            assert_eq!(
                after.piece_at(sq("a8")),
                piece(v, Color::White, l),
                "{v} {l}"
            );
        }
        // Promoted by capture on b8, a Chancellor checks along rank 8, a Bishop does not.
        let c = play(&pos, "a7b8c");
        assert!(c.is_check(), "{v}");
        let b = play(&pos, "a7b8b");
        assert!(!b.is_check(), "{v}");
        // Mandatory, with a choice: the letter is needed.
        assert_eq!(
            error(&pos, "a7a8"),
            "a promotion letter is needed: one of q, c, r, b, n"
        );
        assert_eq!(
            error(&pos, "a7a8k"),
            "this pawn may promote only to q, c, r, b, n here (R-PC-1)"
        );
        assert!(error(&pos, "a7a8e").contains("`e` is not a piece letter"));
    }
    // Black promotes the same way.
    let pos = fen(PC, "4k3/8/8/8/8/8/p7/4K3 b - - 0 1");
    assert_eq!(
        legal_from(&pos, "a2"),
        strs(&["a2a1b", "a2a1c", "a2a1n", "a2a1q", "a2a1r"])
    );
    let after = play(&pos, "a2a1c");
    assert_eq!(write_position(&after), "4k3/8/8/8/8/8/8/c3K3 w - - 0 2");
    assert!(after.is_check());
}

// ---- R-PC-2 castling ----------------------------------------------------------

#[test]
fn r_pc_2_game_short_castling_with_queen() {
    let pos = play(&start(PC), "g1f3 g8f6 e2e3 e7e6 f1e2 f8e7");
    assert_eq!(castling_field(&pos), "KQkq");
    let m = resolve_coord(&pos, "e1g1").unwrap();
    assert!(matches!(m.kind(), MoveKind::Castle(_)));
    assert_eq!(write_coord(&pos, &m), "e1g1");
    let pos = pos.play(&m).unwrap();
    assert_eq!(pos.piece_at(sq("f1")), piece(PC, Color::White, 'Q'));
    assert_eq!(pos.piece_at(sq("g1")), piece(PC, Color::White, 'K'));
    assert_eq!(pos.piece_at(sq("h1")), None);
    assert_eq!(castling_field(&pos), "kq");
    let pos = play(&pos, "e8g8");
    assert_eq!(
        write_position(&pos),
        "cnbr1qk1/ppppbppp/4pn2/8/8/4PN2/PPPPBPPP/CNBR1QK1 w - - 4 5"
    );
    assert_round_trip(&pos);
}

#[test]
fn r_pc_2_game_long_castling_with_chancellor_after_rook_left_d1() {
    let pos = play(&start(PC), "b1c3 b8c6 d2d4 d7d5 c1f4 c8f5");
    // b1 and c1 are empty, but the Rook still stands on d1.
    assert_eq!(legal_from(&pos, "e1"), strs(&["e1d2"]));
    assert_eq!(
        error(&pos, "e1c1"),
        "castling O-O-O is not possible: d1 is not empty (R-PC-2)"
    );
    match pos.explain_illegal(sq("e1"), sq("c1")) {
        Illegality::Castling { side, reason, rule } => {
            assert_eq!(
                (side, reason.as_str(), rule.as_str()),
                (CastlingSide::Long, "d1 is not empty", "R-PC-2")
            );
        }
        other => panic!("{other:?}"),
    }
    // The Rook is no castling piece: moving it keeps every castling.
    let pos = play(&pos, "d1d3 d8d6");
    assert_eq!(castling_field(&pos), "KQkq");
    let m = resolve_coord(&pos, "e1c1").unwrap();
    assert!(matches!(m.kind(), MoveKind::Castle(_)));
    let pos = pos.play(&m).unwrap();
    assert_eq!(pos.piece_at(sq("c1")), piece(PC, Color::White, 'K'));
    assert_eq!(pos.piece_at(sq("d1")), piece(PC, Color::White, 'C'));
    assert_eq!(pos.piece_at(sq("a1")), None);
    let pos = play(&pos, "e8c8");
    assert_eq!(
        write_position(&pos),
        "2kc1bnq/ppp1pppp/2nr4/3p1b2/3P1B2/2NR4/PPP1PPPP/2KC1BNQ w - - 6 6"
    );
    assert_round_trip(&pos);
}

const OPEN: &str = "c3k2q/8/8/8/8/8/8/C3K2Q w KQkq - 0 1";

#[test]
fn r_pc_2_both_castlings_when_free() {
    let pos = fen(PC, OPEN);
    assert_eq!(
        legal_from(&pos, "e1"),
        strs(&["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"])
    );
    assert_eq!(
        pos.castling_sides(Color::White),
        vec![CastlingSide::Short, CastlingSide::Long]
    );
    assert_eq!(
        write_position(&play(&pos, "e1g1")),
        "c3k2q/8/8/8/8/8/8/C4QK1 b kq - 1 1"
    );
    assert_eq!(
        write_position(&play(&pos, "e1c1")),
        "c3k2q/8/8/8/8/8/8/2KC3Q b kq - 1 1"
    );
    let black = fen(PC, "c3k2q/8/8/8/8/8/8/C3K2Q b KQkq - 0 1");
    assert_eq!(
        write_position(&play(&black, "e8g8")),
        "c4qk1/8/8/8/8/8/8/C3K2Q w KQ - 1 2"
    );
    assert_eq!(
        write_position(&play(&black, "e8c8")),
        "2kc3q/8/8/8/8/8/8/C3K2Q w KQ - 1 2"
    );
}

#[test]
fn r_pc_2_r_0_5_not_out_of_check() {
    let pos = fen(PC, "c3k2q/8/8/8/4r3/8/8/C3K2Q w KQkq - 0 1");
    assert!(pos.is_check());
    assert_eq!(
        legal_from(&pos, "e1"),
        strs(&["e1d1", "e1d2", "e1f1", "e1f2"])
    );
    assert_eq!(
        error(&pos, "e1g1"),
        "castling O-O is not possible: the king is in check (R-PC-2)"
    );
    assert_eq!(
        error(&pos, "e1c1"),
        "castling O-O-O is not possible: the king is in check (R-PC-2)"
    );
}

#[test]
fn r_pc_2_r_0_5_king_path_not_attacked() {
    // (black rook file, castlings still legal)
    for (file, short, long) in [
        ("f", false, true), // f1 passed over
        ("g", false, true), // g1 landed on
        ("d", true, false), // d1 passed over
        ("c", true, false), // c1 landed on
        ("b", true, true),  // b1: only the Chancellor passes it
        ("h", true, true),  // the Queen itself attacked
        ("a", true, true),  // the Chancellor itself attacked
    ] {
        let text = format!("c3k2q/8/8/8/{}/8/8/C3K2Q w KQkq - 0 1", rook_on(file));
        let pos = fen(PC, &text);
        assert!(!pos.is_check(), "{text}");
        assert_eq!(is_legal(&pos, "e1g1"), short, "{text}");
        assert_eq!(is_legal(&pos, "e1c1"), long, "{text}");
        if !short {
            assert_eq!(
                error(&pos, "e1g1"),
                format!("castling O-O is not possible: {file}1 is attacked (R-PC-2)")
            );
        }
        if !long {
            assert_eq!(
                error(&pos, "e1c1"),
                format!("castling O-O-O is not possible: {file}1 is attacked (R-PC-2)")
            );
        }
    }
}

/// Rank 4 of a board with a black rook on `file`.
fn rook_on(file: &str) -> String {
    let f = (file.as_bytes()[0] - b'a') as usize;
    let mut s = String::new();
    if f > 0 {
        s.push_str(&f.to_string());
    }
    s.push('r');
    if f < 7 {
        s.push_str(&(7 - f).to_string());
    }
    s
}

#[test]
fn r_pc_2_r_0_5_squares_between_empty() {
    for (text, short, long, msg) in [
        (
            "c3k2q/8/8/8/8/8/8/C3KB1Q w KQkq - 0 1",
            false,
            true,
            "O-O: f1",
        ),
        (
            "c3k2q/8/8/8/8/8/8/C3K1NQ w KQkq - 0 1",
            false,
            true,
            "O-O: g1",
        ),
        (
            "c3k2q/8/8/8/8/8/8/CN2K2Q w KQkq - 0 1",
            true,
            false,
            "O-O-O: b1",
        ),
        (
            "c3k2q/8/8/8/8/8/8/C1B1K2Q w KQkq - 0 1",
            true,
            false,
            "O-O-O: c1",
        ),
        (
            "c3k2q/8/8/8/8/8/8/C2RK2Q w KQkq - 0 1",
            true,
            false,
            "O-O-O: d1",
        ),
        // An enemy piece blocks as well.
        (
            "c3k2q/8/8/8/8/8/8/C3Kn1Q w KQkq - 0 1",
            false,
            true,
            "O-O: f1",
        ),
    ] {
        let pos = fen(PC, text);
        assert_eq!(is_legal(&pos, "e1g1"), short, "{text}");
        assert_eq!(is_legal(&pos, "e1c1"), long, "{text}");
        let (side, square) = msg.split_once(": ").unwrap();
        let mv = if side == "O-O" { "e1g1" } else { "e1c1" };
        assert_eq!(
            error(&pos, mv),
            format!("castling {side} is not possible: {square} is not empty (R-PC-2)"),
            "{text}"
        );
    }
}

#[test]
fn r_pc_2_rights_lost_when_king_or_partner_moves() {
    // Black's knight shuffles b8-c6-b8 while White's piece leaves and returns.
    let pos = fen(PC, "cn2k2q/8/8/8/8/8/8/C3K2Q w KQkq - 0 1");
    // The Queen leaves and comes back: O-O is gone, O-O-O stays.
    let q = play(&pos, "h1h2 b8c6 h2h1 c6b8");
    assert_eq!(castling_field(&q), "Qkq");
    assert_eq!(
        error(&q, "e1g1"),
        "castling O-O is not possible: the Queen from h1 has moved or was captured (R-PC-2)"
    );
    assert!(is_legal(&q, "e1c1"));
    // The Chancellor leaves and comes back: O-O-O is gone.
    let c = play(&pos, "a1a2 b8c6 a2a1 c6b8");
    assert_eq!(castling_field(&c), "Kkq");
    assert_eq!(
        error(&c, "e1c1"),
        "castling O-O-O is not possible: the Chancellor from a1 has moved or was captured (R-PC-2)"
    );
    assert!(is_legal(&c, "e1g1"));
    // The king leaves and comes back: both gone.
    let k = play(&pos, "e1e2 b8c6 e2e1 c6b8");
    assert_eq!(castling_field(&k), "kq");
    assert_eq!(
        error(&k, "e1g1"),
        "castling O-O is not possible: the king has moved (R-PC-2)"
    );
    assert_eq!(
        error(&k, "e1c1"),
        "castling O-O-O is not possible: the king has moved (R-PC-2)"
    );
    // The Queen is captured on h1.
    let x = play(&fen(PC, "c3k2q/8/8/8/8/8/8/C3K2Q b KQkq - 0 1"), "h8h1");
    assert_eq!(castling_field(&x), "Qq");
    assert_round_trip(&x);
}

#[test]
fn r_pc_2_castling_field_needs_the_corner_piece() {
    // Rooks in the corners are not castling partners in this variant.
    let e = read_position(variant(PC), "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap_err();
    assert!(e.to_string().contains("castling"), "{e}");
    assert!(e.to_string().contains("R-PC-2"), "{e}");
    let pos = fen(PC, "4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert!(!is_legal(&pos, "e1g1"));
    assert!(!is_legal(&pos, "e1c1"));
    // Without the field letters the castlings are not available.
    let pos = fen(PC, "c3k2q/8/8/8/8/8/8/C3K2Q w kq - 0 1");
    assert_eq!(
        legal_from(&pos, "e1"),
        strs(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"])
    );
}

// ---- R-PX-1 crosswise ----------------------------------------------------------

#[test]
fn r_px_1_setup() {
    let pos = start(PX);
    assert_eq!(
        write_position(&pos),
        "qnbkrbnc/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQkq - 0 1"
    );
    assert_round_trip(&pos);
    assert_eq!(pos.king_square(Color::Black), sq("d8"));
    assert_eq!(pos.king_square(Color::White), sq("e1"));
    for (i, l) in "QNBKRBNC".chars().enumerate() {
        assert_eq!(
            pos.piece_at(Square::new(i as u8, 7)),
            piece(PX, Color::Black, l)
        );
    }
    assert_eq!(
        legal(&pos),
        legal(&start(PC)),
        "White's side is as in R-PC-2's variant"
    );
}

#[test]
fn r_px_1_game_black_long_castling_with_queen() {
    let pos = play(&start(PX), "d2d4 b7b6 b1c3 c8b7 c1f4 b8c6 e2e3");
    let m = resolve_coord(&pos, "d8b8").unwrap();
    assert!(matches!(m.kind(), MoveKind::Castle(_)));
    let pos = pos.play(&m).unwrap();
    assert_eq!(pos.piece_at(sq("b8")), piece(PX, Color::Black, 'K'));
    assert_eq!(pos.piece_at(sq("c8")), piece(PX, Color::Black, 'Q'));
    assert_eq!(pos.piece_at(sq("a8")), None);
    assert_eq!(
        write_position(&pos),
        "1kq1rbnc/pbpppppp/1pn5/8/3P1B2/2N1P3/PPP2PPP/C2RKBNQ w KQ - 1 5"
    );
    assert_round_trip(&pos);
}

#[test]
fn r_px_1_game_black_short_castling_with_chancellor() {
    let pos = play(&start(PX), "e2e4 e7e5 g1f3 g7g6 f1e2 f8g7 e1g1 g8f6 d2d4");
    // e8 still holds Black's Rook.
    assert_eq!(
        error(&pos, "d8f8"),
        "castling O-O is not possible: e8 is not empty (R-PX-1)"
    );
    let pos = play(&pos, "e8e7 d4e5");
    assert_eq!(castling_field(&pos), "kq");
    let m = resolve_coord(&pos, "d8f8").unwrap();
    assert!(matches!(m.kind(), MoveKind::Castle(_)));
    let pos = pos.play(&m).unwrap();
    assert_eq!(pos.piece_at(sq("f8")), piece(PX, Color::Black, 'K'));
    assert_eq!(pos.piece_at(sq("e8")), piece(PX, Color::Black, 'C'));
    assert_eq!(pos.piece_at(sq("h8")), None);
    assert_eq!(
        write_position(&pos),
        "qnb1ck2/pppprpbp/5np1/4P3/4P3/5N2/PPP1BPPP/CNBR1QK1 w - - 1 7"
    );
    assert_round_trip(&pos);
}

#[test]
fn r_px_1_game_white_castlings_as_r_pc_2() {
    let short = play(&start(PX), "g1f3 g8f6 e2e3 e7e6 f1e2 f8e7 e1g1");
    assert_eq!(
        write_position(&short),
        "qnbkr2c/ppppbppp/4pn2/8/8/4PN2/PPPPBPPP/CNBR1QK1 b kq - 3 4"
    );
    let long = play(&start(PX), "b1c3 b8c6 d2d4 d7d5 c1f4 c8f5");
    assert!(!is_legal(&long, "e1c1"), "the Rook still stands on d1");
    let long = play(&long, "d1d3 e7e6 e1c1");
    assert_eq!(
        write_position(&long),
        "q2krbnc/ppp2ppp/2n1p3/3p1b2/3P1B2/2NR4/PPP1PPPP/2KC1BNQ b kq - 1 5"
    );
    assert_round_trip(&long);
}

const CROSS_OPEN: &str = "q2k3c/8/8/8/8/8/8/C3K2Q b KQkq - 0 1";

#[test]
fn r_px_1_black_castlings_king_from_d8() {
    let pos = fen(PX, CROSS_OPEN);
    assert_eq!(
        legal_from(&pos, "d8"),
        strs(&["d8b8", "d8c7", "d8c8", "d8d7", "d8e7", "d8e8", "d8f8"])
    );
    assert_eq!(
        write_position(&play(&pos, "d8b8")),
        "1kq4c/8/8/8/8/8/8/C3K2Q w KQ - 1 2"
    );
    assert_eq!(
        write_position(&play(&pos, "d8f8")),
        "q3ck2/8/8/8/8/8/8/C3K2Q w KQ - 1 2"
    );
    // Not White's castlings mirrored: no king e8 and no Chancellor on a8.
    let mirrored = fen(PX, "c3k2q/8/8/8/8/8/8/C3K2Q b KQ - 0 1");
    assert!(!is_legal(&mirrored, "e8g8"));
    assert!(!is_legal(&mirrored, "e8c8"));
    let e = read_position(variant(PX), "c3k2q/8/8/8/8/8/8/C3K2Q b KQkq - 0 1").unwrap_err();
    assert!(e.to_string().contains("R-PX-1"), "{e}");
    // The same open position in the uncrossed variant castles e8-g8 / e8-c8 only.
    let uncrossed = fen(PC, "c3k2q/8/8/8/8/8/8/C3K2Q b KQkq - 0 1");
    assert!(is_legal(&uncrossed, "e8g8") && is_legal(&uncrossed, "e8c8"));
}

#[test]
fn r_px_1_r_0_5_conditions_for_black() {
    // (white rook square, O-O d8-f8 legal, O-O-O d8-b8 legal)
    for (rook, short, long, reason) in [
        ("e2", false, true, "e8 is attacked"), // passed over
        ("f2", false, true, "f8 is attacked"), // landed on
        ("c2", true, false, "c8 is attacked"), // passed over
        ("b2", true, false, "b8 is attacked"), // landed on
        ("g2", true, true, ""),                // only the Chancellor passes g8
        ("a2", true, true, ""),                // the Queen attacked
        ("h2", true, true, ""),                // the Chancellor attacked
        ("d2", false, false, "the king is in check"),
    ] {
        let f = (rook.as_bytes()[0] - b'a') as usize;
        let rank2 = format!(
            "{}R{}",
            if f > 0 { f.to_string() } else { String::new() },
            if f < 7 {
                (7 - f).to_string()
            } else {
                String::new()
            }
        );
        let text = format!("q2k3c/8/8/8/8/8/{rank2}/C3K2Q b kq - 0 1");
        let pos = fen(PX, &text);
        assert_eq!(is_legal(&pos, "d8f8"), short, "{text}");
        assert_eq!(is_legal(&pos, "d8b8"), long, "{text}");
        if !short {
            assert_eq!(
                error(&pos, "d8f8"),
                format!("castling O-O is not possible: {reason} (R-PX-1)")
            );
        }
        if !long {
            assert_eq!(
                error(&pos, "d8b8"),
                format!("castling O-O-O is not possible: {reason} (R-PX-1)")
            );
        }
    }
    // Blocked squares.
    let pos = fen(PX, "qn1k3c/8/8/8/8/8/8/C3K2Q b kq - 0 1");
    assert_eq!(
        error(&pos, "d8b8"),
        "castling O-O-O is not possible: b8 is not empty (R-PX-1)"
    );
    let pos = fen(PX, "q2k2nc/8/8/8/8/8/8/C3K2Q b kq - 0 1");
    assert_eq!(
        error(&pos, "d8f8"),
        "castling O-O is not possible: g8 is not empty (R-PX-1)"
    );
}

#[test]
fn r_px_1_corner_piece_must_not_have_moved() {
    let pos = fen(PX, CROSS_OPEN);
    let q = play(&pos, "a8a7 e1e2 a7a8 e2e1");
    assert_eq!(castling_field(&q), "k");
    assert_eq!(
        error(&q, "d8b8"),
        "castling O-O-O is not possible: the Queen from a8 has moved or was captured (R-PX-1)"
    );
    assert!(is_legal(&q, "d8f8"));
    let c = play(&pos, "h8h7 a1a2 h7h8 a2a1");
    assert_eq!(castling_field(&c), "Kq");
    assert!(!is_legal(&c, "d8f8"));
    assert!(is_legal(&c, "d8b8"));
    let k = play(&pos, "d8d7 a1a2 d7d8 a2a1");
    assert_eq!(castling_field(&k), "K");
    assert_eq!(
        error(&k, "d8f8"),
        "castling O-O is not possible: the king has moved (R-PX-1)"
    );
    assert_round_trip(&k);
}
