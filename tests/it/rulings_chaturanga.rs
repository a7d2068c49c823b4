//! Chaturanga rulings R-CH-1..R-CH-7 (docs/rules.md), with the common rulings
//! where Chaturanga departs from them (R-0-2 stalemate, R-0-4 pawns, R-0-5
//! castling).

use crate::common;

use common::{
    assert_round_trip_with_king_rights as assert_round_trip, error, is_legal, king_rights_field,
    legal, legal_from, play, sq, strs,
};
use xpgn::notation::coord::{resolve_coord, write_coord};
use xpgn::notation::position::{read_position, write_position};
use xpgn::rules::{Color, Ending, MoveKind, Outcome, Square};

// ---- helpers -------------------------------------------------------------

common::bind_variant!("chaturanga": chaturanga = variant, fen, start, kind, piece);

// ---- R-CH-1 setup ----------------------------------------------------------

#[test]
fn r_ch_1_setup_position_string() {
    let pos = start();
    assert_eq!(
        write_position(&pos),
        "rnekcenr/pppppppp/8/8/8/8/PPPPPPPP/RNECKENR w - - 0 1 Kk"
    );
    assert_round_trip(&pos);
}

#[test]
fn r_ch_1_kings_not_facing_each_on_enemy_councelor_file() {
    let pos = start();
    let wk = pos.king_square(Color::White);
    let bk = pos.king_square(Color::Black);
    assert_eq!((wk, bk), (sq("e1"), sq("d8")));
    assert_ne!(wk.file(), bk.file(), "the kings do not face each other");
    assert_eq!(pos.piece_at(sq("e8")), piece(Color::Black, 'C'));
    assert_eq!(pos.piece_at(sq("d1")), piece(Color::White, 'C'));
    // Back ranks letter by letter.
    for (i, l) in "RNECKENR".chars().enumerate() {
        assert_eq!(
            pos.piece_at(Square::new(i as u8, 0)),
            piece(Color::White, l)
        );
    }
    for (i, l) in "RNEKCENR".chars().enumerate() {
        assert_eq!(
            pos.piece_at(Square::new(i as u8, 7)),
            piece(Color::Black, l)
        );
    }
    // Orthodox-chess letters that are not Chaturanga pieces are rejected.
    assert!(chaturanga().kind_by_letter('Q').is_none());
    assert!(chaturanga().kind_by_letter('B').is_none());
}

#[test]
fn r_ch_1_start_moves() {
    // 8 single pawn steps, 4 knight moves, 4 elephant jumps, 2 king's knight moves.
    assert_eq!(
        legal(&start()),
        strs(&[
            "a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3", "b1a3", "b1c3", "g1f3",
            "g1h3", "c1a3", "c1e3", "f1d3", "f1h3", "e1d3", "e1f3",
        ])
    );
}

// ---- R-CH-2 pieces -----------------------------------------------------------

#[test]
fn r_ch_2_councelor_one_square_diagonally() {
    let pos = fen("4k3/8/8/8/3C4/8/8/4K3 w - - 0 1 -");
    assert_eq!(
        legal_from(&pos, "d4"),
        strs(&["d4c3", "d4c5", "d4e3", "d4e5"])
    );
    for bad in ["d4d5", "d4e4", "d4f6", "d4b2"] {
        assert_eq!(
            error(&pos, bad),
            format!("the Councelor on d4 cannot reach {} (R-CH-2)", &bad[2..])
        );
    }
}

#[test]
fn r_ch_2_elephant_jumps_exactly_two_diagonally() {
    // Over an enemy pawn (e3) to f2, over an own pawn (c5) to b6, capture on
    // f6; b2 holds an own knight; the one-square diagonal steps are not moves.
    let pos = fen("4k3/8/5n2/2P5/3E4/4p3/1N6/4K3 w - - 0 1 -");
    assert_eq!(legal_from(&pos, "d4"), strs(&["d4b6", "d4f2", "d4f6"]));
    let after = play(&pos, "d4f6");
    assert_eq!(after.piece_at(sq("f6")), piece(Color::White, 'E'));
    assert_eq!(after.piece_at(sq("d4")), None);
    for bad in ["d4c3", "d4e5", "d4g7", "d4d6"] {
        assert_eq!(
            error(&pos, bad),
            format!("the Elephant on d4 cannot reach {} (R-CH-2)", &bad[2..])
        );
    }
    assert_eq!(error(&pos, "d4b2"), "b2 holds a piece of the side to move");
}

#[test]
fn r_ch_2_chariot_moves_as_a_rook() {
    let pos = fen("4k3/8/3P4/8/3R2n1/8/8/4K3 w - - 0 1 -");
    assert_eq!(
        legal_from(&pos, "d4"),
        strs(&[
            "d4d1", "d4d2", "d4d3", "d4d5", "d4a4", "d4b4", "d4c4", "d4e4", "d4f4", "d4g4"
        ])
    );
    assert_eq!(
        error(&pos, "d4h4"),
        "the Chariot on d4 cannot reach h4: g4 is in the way (R-CH-2)"
    );
    assert_eq!(
        error(&pos, "d4d7"),
        "the Chariot on d4 cannot reach d7: d6 is in the way (R-CH-2)"
    );
    assert_eq!(
        error(&pos, "d4e5"),
        "the Chariot on d4 cannot reach e5 (R-CH-2)"
    );
}

// ---- R-CH-3 pawns ------------------------------------------------------------

#[test]
fn r_ch_3_no_double_step() {
    let pos = start();
    for f in "abcdefgh".chars() {
        assert_eq!(
            legal_from(&pos, &format!("{f}2")),
            vec![format!("{f}2{f}3")]
        );
        assert_eq!(
            error(&pos, &format!("{f}2{f}4")),
            format!("the Pawn on {f}2 cannot reach {f}4 (R-CH-3)")
        );
    }
    let black = play(&pos, "e2e3");
    assert!(!is_legal(&black, "d7d5"));
    assert!(is_legal(&black, "d7d6"));
    // A single step never sets an en passant square.
    assert_eq!(
        write_position(&black),
        "rnekcenr/pppppppp/8/8/8/4P3/PPPP1PPP/RNECKENR b - - 0 1 Kk"
    );
}

#[test]
fn r_ch_3_no_en_passant() {
    // A black pawn steps d6-d5 beside the white pawn on e5: no capture e5xd6.
    let pos = fen("4k3/8/3p4/4P3/8/8/8/4K3 b - - 0 1 -");
    let after = play(&pos, "d6d5");
    assert_eq!(after.ep_square(), None);
    assert_eq!(legal_from(&after, "e5"), strs(&["e5e6"]));
    assert_eq!(
        error(&after, "e5d6"),
        "the Pawn on e5 cannot reach d6 (R-CH-3)"
    );
    // An en passant square in a position string is rejected.
    let e = read_position(chaturanga(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 -").unwrap_err();
    assert!(e.to_string().contains("en-passant"), "{e}");
    // The same pawn move with captures still works diagonally.
    let pos = fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1 -");
    assert_eq!(legal_from(&pos, "e4"), strs(&["e4d5", "e4e5"]));
}

// ---- R-CH-4 promotion by square -------------------------------------------

#[test]
fn r_ch_4_white_promotes_to_setup_type_of_arrival_square() {
    let pos = fen("8/PPPPPPPP/8/8/8/k7/8/4K3 w - - 0 1 -");
    // The type that stood there in the setup; d8 is Black's king's square: Councelor.
    let expected = [
        ("a", 'R'),
        ("b", 'N'),
        ("c", 'E'),
        ("d", 'C'),
        ("e", 'C'),
        ("f", 'E'),
        ("g", 'N'),
        ("h", 'R'),
    ];
    for (f, letter) in expected {
        let from = format!("{f}7");
        let lower = letter.to_ascii_lowercase();
        // Exactly one move from each pawn, written with the forced letter.
        assert_eq!(legal_from(&pos, &from), vec![format!("{f}7{f}8{lower}")]);
        // Movetext may omit the letter ...
        let m = resolve_coord(&pos, &format!("{f}7{f}8")).unwrap();
        assert_eq!(m.promotion(), Some(kind(letter)), "{f}8");
        // ... and may give the right one.
        assert_eq!(resolve_coord(&pos, &format!("{f}7{f}8{lower}")).unwrap(), m);
        let after = pos.play(&m).unwrap();
        assert_eq!(
            after.piece_at(sq(&format!("{f}8"))),
            piece(Color::White, letter)
        );
    }
}

#[test]
fn r_ch_4_black_promotes_to_setup_type_of_arrival_square() {
    let pos = fen("4k3/8/K7/8/8/8/pppppppp/8 b - - 0 1 -");
    // e1 is White's king's square: Councelor; d1 held White's Councelor.
    let expected = [
        ("a", 'R'),
        ("b", 'N'),
        ("c", 'E'),
        ("d", 'C'),
        ("e", 'C'),
        ("f", 'E'),
        ("g", 'N'),
        ("h", 'R'),
    ];
    for (f, letter) in expected {
        let m = resolve_coord(&pos, &format!("{f}2{f}1")).unwrap();
        assert_eq!(m.promotion(), Some(kind(letter)), "{f}1");
        let after = pos.play(&m).unwrap();
        assert_eq!(
            after.piece_at(sq(&format!("{f}1"))),
            piece(Color::Black, letter)
        );
    }
    let after = play(&pos, "e2e1");
    assert_eq!(
        write_position(&after),
        "4k3/8/K7/8/8/8/pppp1ppp/4c3 w - - 0 2 -"
    );
}

#[test]
fn r_ch_4_promotion_is_forced_wrong_letter_rejected() {
    let pos = fen("8/PPPPPPPP/8/8/8/k7/8/4K3 w - - 0 1 -");
    for (mv, allowed) in [
        ("a7a8n", 'r'),
        ("b7b8r", 'n'),
        ("c7c8c", 'e'),
        ("d7d8e", 'c'),
        ("e7e8r", 'c'),
        ("h7h8n", 'r'),
    ] {
        let e = error(&pos, mv);
        assert_eq!(
            e,
            format!("this pawn may promote only to {allowed} here (R-CH-4)"),
            "{mv}"
        );
    }
    // The king is no promotion type either, and `q` is no Chaturanga letter.
    assert_eq!(
        error(&pos, "d7d8k"),
        "this pawn may promote only to c here (R-CH-4)"
    );
    assert!(error(&pos, "a7a8q").contains("`q` is not a piece letter of Chaturanga"));
    // No move leaves a pawn on the last rank unpromoted.
    assert!(
        pos.legal_moves()
            .iter()
            .all(|m| m.from().rank() != 6 || m.promotion().is_some())
    );
}

#[test]
fn r_ch_4_capture_promotion_takes_the_square_type_not_the_captured_type() {
    // b7xa8 captures a Knight but lands on a8 (Chariot square): Chariot.
    // b7xc8 captures a Chariot but lands on c8 (Elephant square): Elephant.
    let pos = fen("n1r5/1P6/8/8/8/k7/8/4K3 w - - 0 1 -");
    assert_eq!(legal_from(&pos, "b7"), strs(&["b7a8r", "b7b8n", "b7c8e"]));
    let a8 = play(&pos, "b7a8");
    assert_eq!(a8.piece_at(sq("a8")), piece(Color::White, 'R'));
    let c8 = play(&pos, "b7c8");
    assert_eq!(c8.piece_at(sq("c8")), piece(Color::White, 'E'));
    assert_eq!(write_position(&c8), "n1E5/8/8/8/8/k7/8/4K3 b - - 0 1 -");
}

#[test]
fn r_ch_4_game_promotion_by_square_from_start() {
    // Both sides race a rook pawn; White's lands on h8 (Chariot square),
    // Black's on a1 (Chariot square); movetext omits the forced letters.
    let pos = play(
        &start(),
        "h2h3 a7a6 h3h4 a6a5 h4h5 a5a4 h5h6 a4a3 h6g7 a3b2",
    );
    let wrong = error(&pos, "g7h8n");
    assert_eq!(wrong, "this pawn may promote only to r here (R-CH-4)");
    let m = resolve_coord(&pos, "g7h8").unwrap();
    assert_eq!(write_coord(&pos, &m), "g7h8r");
    let pos = pos.play(&m).unwrap();
    assert_eq!(pos.piece_at(sq("h8")), piece(Color::White, 'R'));
    // Black's pawn on b2 may take a1 (Chariot) or c1 (Elephant).
    assert_eq!(legal_from(&pos, "b2"), strs(&["b2a1r", "b2c1e"]));
    let pos = play(&pos, "b2c1");
    assert_eq!(pos.piece_at(sq("c1")), piece(Color::Black, 'E'));
    assert_eq!(
        write_position(&pos),
        "rnekcenR/1ppppp1p/8/8/8/8/P1PPPPP1/RNeCKENR w - - 0 7 Kk"
    );
    assert_round_trip(&pos);
}

// ---- R-CH-5 the king's knight move -------------------------------------------

#[test]
fn r_ch_5_king_knight_move_once() {
    let pos = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Kk");
    assert_eq!(
        legal(&pos),
        strs(&[
            "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1c2", "e1d3", "e1f3", "e1g2"
        ])
    );
    let m = resolve_coord(&pos, "e1f3").unwrap();
    assert_eq!(m.kind(), MoveKind::SpecialKing);
    let pos = pos.play(&m).unwrap();
    assert!(!pos.king_right(Color::White));
    assert!(pos.king_right(Color::Black));
    assert_eq!(write_position(&pos), "4k3/8/8/8/8/5K2/8/8 b - - 1 1 k");
    assert_round_trip(&pos);
    let pos = play(&pos, "e8d8");
    // Only the eight ordinary king moves remain.
    assert_eq!(
        legal(&pos),
        strs(&[
            "f3e2", "f3e3", "f3e4", "f3f2", "f3f4", "f3g2", "f3g3", "f3g4"
        ])
    );
    for used in [
        "f3d2", "f3d4", "f3e1", "f3e5", "f3g1", "f3g5", "f3h2", "f3h4",
    ] {
        assert!(!is_legal(&pos, used), "{used}");
    }
    assert_eq!(king_rights_field(&pos), "k");
}

#[test]
fn r_ch_5_right_unused_only_with_field() {
    // Without the right the same king has only its ordinary moves.
    let pos = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 k");
    assert_eq!(legal(&pos), strs(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]));
    assert_eq!(
        error(&pos, "e1f3"),
        "the king's knight move was already used; it is allowed once per game (R-CH-5)"
    );
}

#[test]
fn r_ch_5_used_right_error_cites_ruling() {
    let pos = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 k");
    let e = error(&pos, "e1f3");
    assert!(e.contains("R-CH-5"), "{e}");
}

#[test]
fn r_ch_5_capturing_or_not() {
    // Undefended pawn on d3 (it covers c2 and e2): the king may take it by
    // its knight move.
    let pos = fen("3k4/8/8/8/8/3p4/8/4K3 w - - 0 1 K");
    assert_eq!(
        legal_from(&pos, "e1"),
        strs(&["e1d1", "e1d2", "e1f1", "e1f2", "e1d3", "e1f3", "e1g2"])
    );
    let after = play(&pos, "e1d3");
    assert_eq!(after.piece_at(sq("d3")), piece(Color::White, 'K'));
    assert!(!after.king_right(Color::White));
    assert_eq!(write_position(&after), "3k4/8/8/8/8/3K4/8/8 b - - 0 1 -");
    // Defended by the Chariot on d8 it may not (the king would end attacked).
    let pos = fen("3r1k2/8/8/8/8/3p4/8/4K3 w - - 0 1 K");
    assert_eq!(
        error(&pos, "e1d3"),
        "it would leave the king attacked (R-0-1)"
    );
    assert!(is_legal(&pos, "e1f3"));
    // An own piece on the target blocks it.
    let own = fen("3k4/8/8/8/8/3N4/8/4K3 w - - 0 1 K");
    assert_eq!(error(&own, "e1d3"), "d3 holds a piece of the side to move");
}

#[test]
fn r_ch_5_in_check_or_not() {
    // Checked by the knight on f3: the king's knight move may capture it.
    let pos = fen("k7/8/8/8/8/5n2/8/4K3 w - - 0 1 K");
    assert!(pos.is_check());
    assert_eq!(
        legal(&pos),
        strs(&[
            "e1d1", "e1e2", "e1f1", "e1f2", "e1c2", "e1d3", "e1f3", "e1g2"
        ])
    );
    let after = play(&pos, "e1f3");
    assert_eq!(write_position(&after), "k7/8/8/8/8/5K2/8/8 b - - 0 1 -");
    // Checked by the chariot on e8: the knight moves off the file are escapes.
    let pos = fen("k3r3/8/8/8/8/8/8/4K3 w - - 0 1 K");
    assert!(pos.is_check());
    assert_eq!(
        legal(&pos),
        strs(&[
            "e1d1", "e1d2", "e1f1", "e1f2", "e1c2", "e1d3", "e1f3", "e1g2"
        ])
    );
    let after = play(&pos, "e1g2");
    assert!(!after.king_right(Color::White));
}

#[test]
fn r_ch_5_may_not_end_attacked() {
    // d3 and c2 are covered by the Chariot on d8 / the pawn on b3;
    // g2 by the Elephant on e4 (alfil jump); f3 stays free.
    let pos = fen("k2r4/8/8/8/4e3/1p6/8/4K3 w - - 0 1 K");
    assert_eq!(
        legal_from(&pos, "e1"),
        strs(&["e1e2", "e1f1", "e1f2", "e1f3"])
    );
    assert_eq!(
        error(&pos, "e1g2"),
        "it would leave the king attacked (R-0-1)"
    );
    assert_eq!(
        error(&pos, "e1c2"),
        "it would leave the king attacked (R-0-1)"
    );
    assert_eq!(
        error(&pos, "e1d3"),
        "it would leave the king attacked (R-0-1)"
    );
}

#[test]
fn r_ch_5_ordinary_king_moves_keep_the_right() {
    let pos = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Kk");
    let pos = play(&pos, "e1e2 e8e7 e2d2 e7d7");
    assert!(pos.king_right(Color::White) && pos.king_right(Color::Black));
    assert_eq!(write_position(&pos), "8/3k4/8/8/8/8/3K4/8 w - - 4 3 Kk");
    assert_round_trip(&pos);
    // From d2 the knight squares are b1 b3 c4 e4 f1 f3.
    for to in ["b1", "b3", "c4", "e4", "f1", "f3"] {
        let m = resolve_coord(&pos, &format!("d2{to}")).unwrap();
        assert_eq!(m.kind(), MoveKind::SpecialKing, "{to}");
    }
    let pos = play(&pos, "d2f3");
    assert_eq!(king_rights_field(&pos), "k");
    let pos = play(&pos, "d7c5");
    assert_eq!(king_rights_field(&pos), "-");
    assert_eq!(write_position(&pos), "8/8/8/2k5/8/5K2/8/8 w - - 6 4 -");
    assert_round_trip(&pos);
}

#[test]
fn r_ch_5_unused_right_attacks_knight_squares() {
    let with = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Kk");
    let without = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -");
    for s in ["c2", "d3", "f3", "g2"] {
        assert!(with.is_attacked(sq(s), Color::White), "{s}");
        assert!(!without.is_attacked(sq(s), Color::White), "{s}");
    }
    for s in ["c7", "d6", "f6", "g7"] {
        assert!(with.is_attacked(sq(s), Color::Black), "{s}");
        assert!(!without.is_attacked(sq(s), Color::Black), "{s}");
    }
    // Two squares straight or diagonal do not count.
    for s in ["e3", "c1", "g1", "c3", "g3"] {
        assert!(!with.is_attacked(sq(s), Color::White), "{s}");
    }
    // The adjacent squares count either way.
    assert!(without.is_attacked(sq("d2"), Color::White));
    assert!(with.is_attacked(sq("d2"), Color::White));
}

#[test]
fn r_ch_5_enemy_king_may_not_step_onto_knight_square() {
    // White's king on e1 with its right unused guards f3: Black's king on g4
    // may neither step there nor take the Elephant there.
    let with = fen("8/8/8/8/6k1/5E2/8/4K3 b - - 0 1 K");
    let without = fen("8/8/8/8/6k1/5E2/8/4K3 b - - 0 1 -");
    // (h5 is covered by the Elephant's jump either way.)
    assert_eq!(
        legal(&with),
        strs(&["g4f4", "g4f5", "g4g3", "g4g5", "g4h3", "g4h4"])
    );
    assert_eq!(
        error(&with, "g4f3"),
        "it would leave the king attacked (R-0-1)"
    );
    assert_eq!(
        legal(&without),
        strs(&["g4f3", "g4f4", "g4f5", "g4g3", "g4g5", "g4h3", "g4h4"])
    );
}

#[test]
fn r_ch_5_king_on_knight_square_is_in_check() {
    let with = fen("8/8/8/8/8/5k2/8/4K3 b - - 0 1 K");
    assert!(with.is_check());
    // The escapes avoid e1's neighbours (e2 f2) and its knight squares (g2).
    assert_eq!(
        legal(&with),
        strs(&["f3e3", "f3e4", "f3f4", "f3g3", "f3g4"])
    );
    let without = fen("8/8/8/8/8/5k2/8/4K3 b - - 0 1 -");
    assert!(!without.is_check());
    assert_eq!(
        legal(&without),
        strs(&["f3e3", "f3e4", "f3f4", "f3g2", "f3g3", "f3g4"])
    );
    // With White to move the same placement is illegal: Black would be in check.
    let e = read_position(chaturanga(), "8/8/8/8/8/5k2/8/4K3 w - - 0 1 K").unwrap_err();
    assert!(
        e.to_string().contains("the side not to move is in check"),
        "{e}"
    );
    read_position(chaturanga(), "8/8/8/8/8/5k2/8/4K3 w - - 0 1 -").unwrap();
}

#[test]
fn r_ch_5_knight_move_may_not_end_on_enemy_kings_knight_square() {
    // White's e1-d3 would land a knight's move from Black's king on c5 (whose
    // right is unused): forbidden; with Black's right used, allowed.
    let with = fen("8/8/8/2k5/8/8/8/4K3 w - - 0 1 Kk");
    assert!(!is_legal(&with, "e1d3"));
    assert!(is_legal(&with, "e1f3"));
    let without = fen("8/8/8/2k5/8/8/8/4K3 w - - 0 1 K");
    assert!(is_legal(&without, "e1d3"));
    // The knight move spends White's right, so d3 gives no check to c5 either way.
    let after = play(&without, "e1d3");
    assert!(!after.is_check());
    assert_eq!(king_rights_field(&after), "-");
}

#[test]
fn r_ch_5_game_knight_move_and_its_attack() {
    // Both kings walk up with ordinary moves; the rights stay.
    let pos = play(&start(), "e2e3 d7d6 e1e2 d8d7 e2d3 d7e6");
    assert_eq!(
        write_position(&pos),
        "rne1cenr/ppp1pppp/3pk3/8/8/3KP3/PPPP1PPP/RNEC1ENR w - - 4 4 Kk"
    );
    assert_round_trip(&pos);
    // White may not use the knight move to c5: Black's king on e6 guards it.
    assert_eq!(
        error(&pos, "d3c5"),
        "it would leave the king attacked (R-0-1)"
    );
    let pos = play(&pos, "a2a3");
    // Black's king may not step to e5, a knight's move from White's king.
    assert_eq!(
        legal_from(&pos, "e6"),
        strs(&["e6d5", "e6d7", "e6d8", "e6f5", "e6f6", "e6g5"])
    );
    assert!(!is_legal(&pos, "e6e5"));
    // Black uses its knight move.
    let pos = play(&pos, "e6g5");
    assert_eq!(king_rights_field(&pos), "K");
    // White's king steps to e4 (ordinary, right kept): Black's king on g5 is
    // now a knight's move away and in check.
    let m = resolve_coord(&pos, "d3e4").unwrap();
    assert_eq!(m.kind(), MoveKind::Normal);
    let pos = pos.play(&m).unwrap();
    assert!(pos.is_check());
    assert_eq!(
        write_position(&pos),
        "rne1cenr/ppp1pppp/3p4/6k1/4K3/P3P3/1PPP1PPP/RNEC1ENR b - - 2 5 K"
    );
    assert_eq!(legal(&pos), strs(&["g5g4", "g5g6", "g5h4", "g5h5", "g5h6"]));
    assert_eq!(
        error(&pos, "a7a6"),
        "it would leave the king attacked (R-0-1)"
    );
    assert_round_trip(&pos);
    // Black steps aside; White spends its right (e4-c3), and g5, guarded a
    // move ago, is free again.
    let pos = play(&pos, "g5g6");
    assert!(pos.is_attacked(sq("g5"), Color::White));
    let pos = play(&pos, "e4c3");
    assert_eq!(king_rights_field(&pos), "-");
    assert!(!pos.is_attacked(sq("g5"), Color::White));
    assert!(is_legal(&pos, "g6g5"));
    assert_round_trip(&pos);
}

#[test]
fn r_ch_5_mate_needs_the_right_used() {
    // The two Chariots would mate, but the unused right lets the king leave to b6.
    let pos = fen("k6R/6R1/8/8/8/8/8/6K1 b - - 0 1 k");
    assert!(pos.is_check());
    assert_eq!(legal(&pos), strs(&["a8b6"]));
    assert_eq!(pos.outcome(), None);
    let pos = fen("k6R/6R1/8/8/8/8/8/6K1 b - - 0 1 -");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            by: Ending::Checkmate
        })
    );
}

#[test]
fn r_ch_5_position_string_defaults_and_errors() {
    // Without the field: unused where the king stands on its start square.
    let pos = fen("3k4/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(pos.king_right(Color::White) && pos.king_right(Color::Black));
    assert_eq!(king_rights_field(&pos), "Kk");
    let pos = fen("8/3k4/8/8/8/8/4K3/8 w - - 0 1");
    assert!(!pos.king_right(Color::White) && !pos.king_right(Color::Black));
    // The right survives ordinary king moves, so `K` with the king elsewhere is fine.
    let pos = fen("8/3k4/8/8/8/8/4K3/8 w - - 0 1 K");
    assert!(pos.king_right(Color::White) && !pos.king_right(Color::Black));
    assert!(is_legal(&pos, "e2g3"));
    assert_round_trip(&pos);
    // A malformed field is named.
    let e = read_position(chaturanga(), "3k4/8/8/8/8/8/8/4K3 w - - 0 1 X").unwrap_err();
    assert!(e.to_string().contains("king-rights"), "{e}");
}

// ---- R-CH-6 no castling ------------------------------------------------------

#[test]
fn r_ch_6_no_castling() {
    let pos = fen("r2k3r/8/8/8/8/8/8/R3K2R w - - 0 1 -");
    assert_eq!(
        legal_from(&pos, "e1"),
        strs(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"])
    );
    assert_eq!(error(&pos, "e1g1"), "the King on e1 cannot reach g1");
    assert_eq!(error(&pos, "e1c1"), "the King on e1 cannot reach c1");
    assert!(pos.castling_sides(Color::White).is_empty());
    // A castling field is rejected.
    for field in ["K", "Q", "KQkq"] {
        let text = format!("r2k3r/8/8/8/8/8/8/R3K2R w {field} - 0 1 -");
        let e = read_position(chaturanga(), &text).unwrap_err();
        assert!(e.to_string().contains("castling"), "{text}: {e}");
    }
    // From the start, with f1 and g1 cleared, still no castling.
    let pos = play(&start(), "g1f3 a7a6 f1h3 a6a5");
    assert!(!is_legal(&pos, "e1g1"));
    assert_eq!(write_position(&pos).split(' ').nth(2), Some("-"));
}

// ---- R-CH-7 stalemate --------------------------------------------------------

#[test]
fn r_ch_7_stalemated_player_wins() {
    let pos = fen("k7/7R/8/8/8/8/8/1R4K1 b - - 0 1 -");
    assert!(legal(&pos).is_empty());
    assert!(!pos.is_check());
    let out = pos.outcome().unwrap();
    assert_eq!(
        out,
        Outcome::Win {
            winner: Color::Black,
            by: Ending::Stalemate
        }
    );
    assert_eq!(out.result(), "0-1");
    // White stalemated: White wins.
    let pos = fen("1r4k1/8/8/8/8/8/7r/K7 w - - 0 1 -");
    let out = pos.outcome().unwrap();
    assert_eq!(
        out,
        Outcome::Win {
            winner: Color::White,
            by: Ending::Stalemate
        }
    );
    assert_eq!(out.result(), "1-0");
}

#[test]
fn r_ch_7_unused_right_can_lift_stalemate() {
    // a7 and b8 are covered by the Knight on c6, b7 by the Elephant on d5;
    // the knight squares b6 and c7 are free.
    let used = fen("k7/8/2N5/3E4/8/8/8/7K b - - 0 1 -");
    assert!(!used.is_check());
    assert_eq!(
        used.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            by: Ending::Stalemate
        })
    );
    let unused = fen("k7/8/2N5/3E4/8/8/8/7K b - - 0 1 k");
    assert_eq!(legal(&unused), strs(&["a8b6", "a8c7"]));
    assert_eq!(unused.outcome(), None);
}

#[test]
fn r_ch_5_king_knight_pattern_can_mate_and_stalemate() {
    // White's king on b6, right unused, attacks a8 by the knight pattern; a7
    // and b7 are next to it, the Elephant on d6 covers b8. Black's right is used.
    let mate = fen("k7/8/1K1E4/8/8/8/8/8 b - - 0 1 K");
    assert!(mate.is_check());
    assert_eq!(
        mate.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            by: Ending::Checkmate
        })
    );
    // Without White's right the same position is a stalemate, which Black wins (R-CH-7).
    let stalemate = fen("k7/8/1K1E4/8/8/8/8/8 b - - 0 1 -");
    assert!(!stalemate.is_check());
    assert_eq!(
        stalemate.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            by: Ending::Stalemate
        })
    );
}
