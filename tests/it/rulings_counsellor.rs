//! Counsellor Chess rulings R-CO-1..4 (docs/rules.md): the Elephant, the
//! Counsellor, promotion, and the two two-stage castlings.
//!
//! Games are played from the start position in coordinate notation
//! (`resolve_coord`), so an illegal move fails loudly with its reason.

use crate::common;

use common::{
    assert_round_trip, board_field as board, castling_field as castling, castlings, error, field,
    legal, legal_from as moves_from, play, sq, strs,
};
use xpgn::notation::position::{FenField, read_position, write_position};
use xpgn::rules::{CastlingSide, Color, Position};

// ---------------------------------------------------------------------------
// Helpers

common::bind_variant!("counsellor": variant, read = fen, game, kind);

fn stages(pos: &Position) -> String {
    field(pos, 6)
}

// ---------------------------------------------------------------------------
// R-CO-1 Elephant: one or two squares diagonally, no jumping.

#[test]
fn r_co_1_elephant_one_or_two_squares_diagonally_from_start() {
    let pos = game("e2e4 a7a6");
    assert_eq!(moves_from(&pos, "d1"), strs(&["d1e2", "d1f3"]));
    // Three squares is too far.
    assert_eq!(
        error(&pos, "d1g4"),
        "the Elephant on d1 cannot reach g4 (R-CO-1)"
    );
    // At the start both Elephants are shut in by pawns.
    assert!(moves_from(&Position::start(variant()), "d1").is_empty());
    assert!(moves_from(&Position::start(variant()), "i1").is_empty());
    let pos = play(&pos, "d1f3 b7b6");
    assert_eq!(
        board(&pos),
        "rnbecqkcebnr/2pppppppppp/pp10/12/4P7/5E6/PPPP1PPPPPPP/RNB1CQKCEBNR"
    );
}

#[test]
fn r_co_1_elephant_cannot_jump() {
    // c2 is occupied, so b3 is out of reach although it is two squares away.
    let pos = game("e2e4 a7a6");
    assert_eq!(
        error(&pos, "d1b3"),
        "the Elephant on d1 cannot reach b3: c2 is in the way (R-CO-1)"
    );

    // Elephant e4; own pawn f5, enemy pawn d5, enemy knight g2.
    let pos = read("6k5/12/12/3p1P6/4E7/12/6n5/6K5 w - - 0 1 -");
    assert_eq!(
        moves_from(&pos, "e4"),
        strs(&["e4c2", "e4d3", "e4d5", "e4f3", "e4g2"])
    );
    // Captures on the first or the second square, never beyond a piece.
    assert_eq!(
        error(&pos, "e4c6"),
        "the Elephant on e4 cannot reach c6: d5 is in the way (R-CO-1)"
    );
    assert_eq!(
        error(&pos, "e4g6"),
        "the Elephant on e4 cannot reach g6: f5 is in the way (R-CO-1)"
    );
    assert_eq!(
        error(&pos, "e4h1"),
        "the Elephant on e4 cannot reach h1 (R-CO-1)"
    );
    assert_eq!(
        error(&pos, "e4e5"),
        "the Elephant on e4 cannot reach e5 (R-CO-1)"
    );
    let after = play(&pos, "e4g2");
    assert_eq!(board(&after), "6k5/12/12/3p1P6/12/12/6E5/6K5");
}

// ---------------------------------------------------------------------------
// R-CO-2 Counsellor: one square any direction, non-royal.

#[test]
fn r_co_2_counsellor_steps_one_square_any_direction() {
    let pos = game("e2e4 a7a6");
    assert_eq!(moves_from(&pos, "e1"), strs(&["e1e2"]));

    let pos = read("6k5/12/12/12/4C7/12/12/6K5 w - - 0 1 -");
    assert_eq!(
        moves_from(&pos, "e4"),
        strs(&[
            "e4d3", "e4d4", "e4d5", "e4e3", "e4e5", "e4f3", "e4f4", "e4f5"
        ])
    );
    assert_eq!(
        error(&pos, "e4e6"),
        "the Counsellor on e4 cannot reach e6 (R-CO-2)"
    );
    assert_eq!(
        error(&pos, "e4c2"),
        "the Counsellor on e4 cannot reach c2 (R-CO-2)"
    );
    assert_eq!(
        error(&pos, "e4f6"),
        "the Counsellor on e4 cannot reach f6 (R-CO-2)"
    );
}

#[test]
fn r_co_2_counsellor_is_not_royal() {
    // The black rook attacks the Counsellor; that is not check.
    let pos = read("12/12/4k7/12/4C2r4/12/12/K11 w - - 0 1 -");
    assert!(!pos.is_check());
    assert!(pos.is_attacked(sq("e4"), Color::Black));
    // It may step next to the enemy king, onto attacked squares.
    assert_eq!(moves_from(&pos, "e4").len(), 8);
    assert!(pos.is_attacked(sq("e5"), Color::Black));
    // The king may move away and leave it hanging.
    assert_eq!(moves_from(&pos, "a1"), strs(&["a1a2", "a1b1", "a1b2"]));
    // Next to the black king it gives check, as any attacker does.
    let after = play(&pos, "e4e5");
    assert!(after.is_check());
    assert!(legal(&after).contains(&"e6e5".to_string()));
    let after = play(&after, "e6e5");
    assert_eq!(board(&after), "12/12/12/4k7/7r4/12/12/K11");
}

// ---------------------------------------------------------------------------
// R-CO-3 Pawns promote to Counsellor or Bishop only.

#[test]
fn r_co_3_promotion_to_counsellor_or_bishop() {
    let pos = read("3n2k5/2P9/12/12/12/12/12/6K5 w - - 0 1 -");
    assert_eq!(
        moves_from(&pos, "c7"),
        strs(&["c7c8b", "c7c8c", "c7d8b", "c7d8c"])
    );
    assert_eq!(board(&play(&pos, "c7c8c")), "2Cn2k5/12/12/12/12/12/12/6K5");
    assert_eq!(board(&play(&pos, "c7c8b")), "2Bn2k5/12/12/12/12/12/12/6K5");
    assert_eq!(board(&play(&pos, "c7d8c")), "3C2k5/12/12/12/12/12/12/6K5");
    let after = play(&pos, "c7c8c");
    assert_eq!(after.piece_at(sq("c8")).map(|p| p.kind), Some(kind('C')));
}

#[test]
fn r_co_3_other_promotions_are_errors() {
    let pos = read("6k5/2P9/12/12/12/12/12/6K5 w - - 0 1 -");
    for letter in ['q', 'r', 'n', 'e'] {
        assert_eq!(
            error(&pos, &format!("c7c8{letter}")),
            "this pawn may promote only to c, b here (R-CO-3)",
            "{letter}"
        );
    }
    assert_eq!(
        error(&pos, "c7c8"),
        "a promotion letter is needed: one of c, b"
    );
}

// ---------------------------------------------------------------------------
// R-CO-4 No orthodox castling; two two-stage castlings with the l1 rook.

/// White and Black clear their king's sides; Black makes the first stage
/// of the rook-first castling (l8-k8).
const CLEARING: &str = "i2i4 k8l6 j1h3 l8k8 j2j3 i7i5 i1j2 j8h6 k1l3 j7j6 h1i2 i8j7";

#[test]
fn r_co_4_no_orthodox_castling() {
    let start = Position::start(variant());
    assert_eq!(castling(&start), "Kk");
    assert_eq!(
        start.castling_sides(Color::White),
        vec![CastlingSide::Short]
    );
    assert_eq!(
        start.castling_sides(Color::Black),
        vec![CastlingSide::Short]
    );
    // h1..k1 empty, nothing moved: still no castling before a first stage.
    let pos = read("6k5/12/12/12/12/12/12/R5K4R w K - 0 1 -");
    assert!(castlings(&pos).is_empty());
    assert_eq!(
        error(&pos, "g1i1"),
        "castling O-O is not possible: the Rook must first move l1 -> k1 as its only move (R-CO-4b)"
    );
    assert_eq!(
        error(&pos, "g1j1"),
        "castling O-O is not possible: the king must first move g1 -> h1 as its only move (R-CO-4a)"
    );
    // Nothing with the a1 rook.
    assert_eq!(error(&pos, "g1e1"), "the King on g1 cannot reach e1");
    let e = read_position(variant(), "6k5/12/12/12/12/12/12/R5K4R w KQ - 0 1 -").unwrap_err();
    assert_eq!(e.field, FenField::Castling, "{e}");
    assert!(e.message.contains("O-O-O"), "{e}");
}

#[test]
fn r_co_4a_king_first_castling_allowed() {
    let pos = game(CLEARING);
    assert_eq!(castling(&pos), "Kk");
    assert_eq!(stages(&pos), "rk8");
    assert!(castlings(&pos).is_empty());
    assert_eq!(
        error(&pos, "g1j1"),
        "castling O-O is not possible: the king must first move g1 -> h1 as its only move (R-CO-4a)"
    );

    // First stage: an ordinary king move g1-h1.
    let pos = play(&pos, "g1h1");
    assert_eq!(stages(&pos), "Kh1rk8");
    assert_eq!(castling(&pos), "Kk");
    assert_eq!(pos.castling_sides(Color::White), vec![CastlingSide::Short]);
    assert_round_trip(&pos);

    let pos = play(&pos, "h8i7");
    assert_eq!(castlings(&pos), strs(&["h1j1"]));
    assert_round_trip(&pos);

    // Second stage: king h1-j1, rook l1-i1 in one ply.
    let pos = play(&pos, "h1j1");
    assert_eq!(
        write_position(&pos),
        "rnbecqk3r1/ppppppppcepp/7b1p1n/8p3/8P3/7B1P1N/PPPPPPPPCEPP/RNBECQ2RK2 b k - 5 8 rk8"
    );
    assert_eq!(pos.piece_at(sq("j1")).map(|p| p.kind), Some(kind('K')));
    assert_eq!(pos.piece_at(sq("i1")).map(|p| p.kind), Some(kind('R')));
    assert!(pos.castling_sides(Color::White).is_empty());
    assert_round_trip(&pos);
}

#[test]
fn r_co_4a_stage_may_be_a_capture() {
    // A black knight stands on h1; the king takes it as its first stage.
    let pos = read("6k5/12/12/12/12/12/12/6Kn3R w K - 0 1 -");
    assert_eq!(castling(&pos), "K");
    assert!(castlings(&pos).is_empty());
    let pos = play(&pos, "g1h1");
    assert_eq!(
        write_position(&pos),
        "6k5/12/12/12/12/12/12/7K3R b K - 0 1 Kh1"
    );
    assert_round_trip(&pos);
    let pos = play(&pos, "g8g7");
    assert_eq!(castlings(&pos), strs(&["h1j1"]));
    let pos = play(&pos, "h1j1");
    assert_eq!(
        write_position(&pos),
        "12/6k5/12/12/12/12/12/8RK2 b - - 2 2 -"
    );
}

#[test]
fn r_co_4a_stage_ends_rook_first_option() {
    let pos = game(&format!("{CLEARING} g1h1 h8i7"));
    assert_eq!(castling(&pos), "Kk");
    // The rook now makes what would have been the rook-first stage: after
    // the king's stage it is just another rook move, and ends both options.
    let pos = play(&pos, "l1k1");
    assert_eq!(
        write_position(&pos),
        "rnbecqk3r1/ppppppppcepp/7b1p1n/8p3/8P3/7B1P1N/PPPPPPPPCEPP/RNBECQ1K2R1 b k - 5 8 rk8"
    );
    assert!(pos.castling_sides(Color::White).is_empty());
    let pos = play(&pos, "a7a6");
    assert!(castlings(&pos).is_empty());
    assert!(error(&pos, "h1j1").starts_with("castling O-O is not possible: "));
    assert!(error(&pos, "h1j1").ends_with("(R-CO-4a)"));
    // The king going back to g1 does not revive the rook-first castling.
    let pos = play(&pos, "h1g1 a6a5");
    assert!(castlings(&pos).is_empty());
    assert!(error(&pos, "g1i1").ends_with("(R-CO-4b)"));
    assert_round_trip(&pos);
}

#[test]
fn r_co_4a_forbidden_after_second_king_move() {
    let pos = game(&format!("{CLEARING} g1h1 h8i7 h1g1"));
    assert_eq!(castling(&pos), "k");
    assert_eq!(stages(&pos), "rk8");
    let pos = play(&pos, "a7a6 g1h1");
    assert_eq!(
        write_position(&pos),
        "rnbecqk3r1/1pppppppcepp/p6b1p1n/8p3/8P3/7B1P1N/PPPPPPPPCEPP/RNBECQ1K3R b k - 1 9 rk8"
    );
    let pos = play(&pos, "a6a5");
    assert!(castlings(&pos).is_empty());
    assert_eq!(
        error(&pos, "h1j1"),
        "castling O-O is not possible: the king has made a move other than g1 -> h1 (R-CO-4a)"
    );
    assert_round_trip(&pos);
}

#[test]
fn r_co_4a_forbidden_when_first_king_move_went_elsewhere() {
    let pos = read("6k5/12/12/12/12/12/12/6K4R w K - 0 1 -");
    let pos = play(&pos, "g1g2");
    assert_eq!(castling(&pos), "-");
    let pos = play(&pos, "g8g7 g2h1 g7g8");
    assert_eq!(
        write_position(&pos),
        "6k5/12/12/12/12/12/12/7K3R w - - 4 3 -"
    );
    assert!(castlings(&pos).is_empty());
    assert_eq!(
        error(&pos, "h1j1"),
        "castling O-O is not possible: the king has made a move other than g1 -> h1 (R-CO-4a)"
    );
}

#[test]
fn r_co_4a_any_other_rook_move_ends_it() {
    let staged = read("6k5/12/12/12/12/12/12/7K3R w K - 0 1 Kh1");
    assert_eq!(castlings(&staged), strs(&["h1j1"]));
    let pos = play(&staged, "l1l5");
    assert_eq!(
        write_position(&pos),
        "6k5/12/12/11R/12/12/12/7K4 b - - 1 1 -"
    );
    let pos = play(&pos, "g8g7 l5l1 g7g8");
    assert_eq!(
        write_position(&pos),
        "6k5/12/12/12/12/12/12/7K3R w - - 4 3 -"
    );
    assert!(castlings(&pos).is_empty());
    assert!(error(&pos, "h1j1").ends_with("(R-CO-4a)"));
    // A captured rook also ends it.
    let pos = read("6k5/11r/12/12/12/12/12/7K3R b K - 0 1 Kh1");
    let pos = play(&pos, "l7l1");
    assert_eq!(
        write_position(&pos),
        "6k5/12/12/12/12/12/12/7K3r w - - 0 2 -"
    );
}

#[test]
fn r_co_4a_error_names_the_rook_when_the_rook_ended_it() {
    let pos = read("6k5/12/12/12/12/12/12/7K3R w K - 0 1 Kh1");
    let pos = play(&pos, "l1l5 g8g7 l5l1 g7g8");
    let e = error(&pos, "h1j1");
    assert_eq!(
        e,
        "castling O-O is not possible: the Rook from l1 has moved or was captured (R-CO-4a)"
    );
}

#[test]
fn r_co_4a_needs_i1_j1_k1_empty() {
    let base = read("6k5/12/12/12/12/12/12/7K3R w K - 0 1 Kh1");
    assert_eq!(castlings(&base), strs(&["h1j1"]));
    for (rank1, blocked) in [
        ("7KN2R", "i1"),
        ("7K1N1R", "j1"),
        ("7K2NR", "k1"),
        ("7K2nR", "k1"),
    ] {
        let pos = read(&format!("6k5/12/12/12/12/12/12/{rank1} w K - 0 1 Kh1"));
        assert!(castlings(&pos).is_empty(), "{rank1}");
        assert_eq!(
            error(&pos, "h1j1"),
            format!("castling O-O is not possible: {blocked} is not empty (R-CO-4a)"),
            "{rank1}"
        );
    }
}

#[test]
fn r_co_4a_needs_i1_j1_unattacked_and_no_check() {
    let with_rook = |rank8: &str| read(&format!("{rank8}/12/12/12/12/12/12/7K3R w K - 0 1 Kh1"));
    for (rank8, reason) in [
        ("k7r3", "i1 is attacked"),
        ("k8r2", "j1 is attacked"),
        ("k6r4", "the king is in check"),
    ] {
        let pos = with_rook(rank8);
        assert!(castlings(&pos).is_empty(), "{rank8}");
        assert_eq!(
            error(&pos, "h1j1"),
            format!("castling O-O is not possible: {reason} (R-CO-4a)")
        );
    }
    // k1 (passed by the rook only) and l1 (the rook) may be attacked.
    for rank8 in ["k9r1", "k10r"] {
        let pos = with_rook(rank8);
        assert_eq!(castlings(&pos), strs(&["h1j1"]), "{rank8}");
        let after = play(&pos, "h1j1");
        assert!(board(&after).ends_with("/8RK2"), "{rank8}");
    }
}

#[test]
fn r_co_4a_position_string_needs_the_stage_field() {
    // With `Kh1` the king's move to h1 is known to be its only one.
    let staged = read("6k5/12/12/12/12/12/12/7K3R w K - 0 1 Kh1");
    assert_eq!(castlings(&staged), strs(&["h1j1"]));
    // Without it, the king on h1 has simply moved: `K` is not achievable.
    let e = read_position(variant(), "6k5/12/12/12/12/12/12/7K3R w K - 0 1 -").unwrap_err();
    assert_eq!(e.field, FenField::Castling, "{e}");
    let plain = read("6k5/12/12/12/12/12/12/7K3R w - - 0 1 -");
    assert!(castlings(&plain).is_empty());
    assert_ne!(plain.key(), staged.key());
}

#[test]
fn r_co_4b_rook_first_castling_allowed() {
    let pos = game("k1l3 a7a6 l1k1");
    assert_eq!(
        write_position(&pos),
        "rnbecqkcebnr/1ppppppppppp/p11/12/12/11N/PPPPPPPPPPPP/RNBECQKCEBR1 b Kk - 1 2 Rk1"
    );
    assert_round_trip(&pos);
    let pos = play(
        &pos,
        "b7b6 i2i4 a6a5 j1h3 b6b5 j2j3 c7c6 i1j2 c6c5 h1i2 d7d6",
    );
    assert_eq!(stages(&pos), "Rk1");
    assert_eq!(castlings(&pos), strs(&["g1i1"]));
    assert_round_trip(&pos);
    // King g1-i1 and rook k1-j1 in one ply.
    let pos = play(&pos, "g1i1");
    assert_eq!(
        write_position(&pos),
        "rnbecqkcebnr/4pppppppp/3p8/ppp9/8P3/7B1P1N/PPPPPPPPCEPP/RNBECQ2KR2 b k - 1 8 -"
    );
    assert_round_trip(&pos);
}

#[test]
fn r_co_4b_black_rook_first_castling_in_the_same_game() {
    let pos = game(&format!("{CLEARING} g1h1 h8i7 h1j1"));
    assert_eq!(castlings(&pos), strs(&["g8i8"]));
    let pos = play(&pos, "g8i8");
    assert_eq!(
        write_position(&pos),
        "rnbecq2kr2/ppppppppcepp/7b1p1n/8p3/8P3/7B1P1N/PPPPPPPPCEPP/RNBECQ2RK2 w - - 6 9 -"
    );
    assert_round_trip(&pos);
}

/// White has made the rook's stage and cleared h1..j1.
const ROOK_FIRST: &str = "k1l3 a7a6 l1k1 b7b6 i2i4 a6a5 j1h3 b6b5 j2j3 c7c6 i1j2 c6c5 h1i2 d7d6";

#[test]
fn r_co_4b_stage_ends_king_first_option() {
    let pos = game(ROOK_FIRST);
    // The king now makes what would have been the king-first stage.
    let pos = play(&pos, "g1h1");
    assert_eq!(
        write_position(&pos),
        "rnbecqkcebnr/4pppppppp/3p8/ppp9/8P3/7B1P1N/PPPPPPPPCEPP/RNBECQ1K2R1 b k - 1 8 -"
    );
    let pos = play(&pos, "d6d5");
    assert!(castlings(&pos).is_empty());
    assert!(error(&pos, "h1j1").ends_with("(R-CO-4a)"));
    assert_round_trip(&pos);
}

#[test]
fn r_co_4b_forbidden_after_second_rook_move() {
    let pos = play(&game(ROOK_FIRST), "k1l1");
    assert_eq!(
        write_position(&pos),
        "rnbecqkcebnr/4pppppppp/3p8/ppp9/8P3/7B1P1N/PPPPPPPPCEPP/RNBECQK4R b k - 1 8 -"
    );
    let pos = play(&pos, "d6d5");
    assert!(castlings(&pos).is_empty());
    let e = error(&pos, "g1i1");
    assert!(e.starts_with("castling O-O is not possible: "), "{e}");
    assert!(e.ends_with("(R-CO-4b)"), "{e}");
    // And a second l1-k1 is not a first stage any more.
    let pos = play(&pos, "l1k1 d5d4");
    assert_eq!(castling(&pos), "k");
    assert!(castlings(&pos).is_empty());
    assert_round_trip(&pos);
}

#[test]
fn r_co_4b_error_does_not_blame_the_unmoved_king() {
    let pos = play(&game(ROOK_FIRST), "k1l1 d6d5");
    assert_eq!(
        error(&pos, "g1i1"),
        "castling O-O is not possible: the Rook from l1 has made a move other than l1 -> k1, or was captured (R-CO-4b)"
    );
}

#[test]
fn r_co_4b_forbidden_if_king_ever_moved() {
    let pos = read("k11/12/12/12/12/12/12/6K4R w K - 0 1 -");
    let pos = play(&pos, "g1h1 a8a7 h1g1");
    assert_eq!(castling(&pos), "-");
    let pos = play(&pos, "a7a8 l1k1 a8a7");
    assert_eq!(
        write_position(&pos),
        "12/k11/12/12/12/12/12/6K3R1 w - - 6 4 -"
    );
    assert!(castlings(&pos).is_empty());
    assert!(error(&pos, "g1i1").ends_with("(R-CO-4b)"));
}

#[test]
fn r_co_4b_needs_h1_i1_j1_empty() {
    let base = read("k11/12/12/12/12/12/12/6K3R1 w K - 0 1 Rk1");
    assert_eq!(castlings(&base), strs(&["g1i1"]));
    assert_round_trip(&base);
    for (rank1, blocked) in [("6KN2R1", "h1"), ("6K1N1R1", "i1"), ("6K2nR1", "j1")] {
        let pos = read(&format!("k11/12/12/12/12/12/12/{rank1} w K - 0 1 Rk1"));
        assert!(castlings(&pos).is_empty(), "{rank1}");
        assert_eq!(
            error(&pos, "g1i1"),
            format!("castling O-O is not possible: {blocked} is not empty (R-CO-4b)")
        );
    }
}

#[test]
fn r_co_4b_needs_h1_i1_unattacked_and_no_check() {
    let with_rook = |rank8: &str| read(&format!("{rank8}/12/12/12/12/12/12/6K3R1 w K - 0 1 Rk1"));
    for (rank8, reason) in [
        ("k6r4", "h1 is attacked"),
        ("k7r3", "i1 is attacked"),
        ("k5r5", "the king is in check"),
    ] {
        let pos = with_rook(rank8);
        assert!(castlings(&pos).is_empty(), "{rank8}");
        assert_eq!(
            error(&pos, "g1i1"),
            format!("castling O-O is not possible: {reason} (R-CO-4b)")
        );
    }
    // j1 (the rook's landing square) and k1 (the rook) may be attacked.
    for rank8 in ["k8r2", "k9r1"] {
        let pos = with_rook(rank8);
        assert_eq!(castlings(&pos), strs(&["g1i1"]), "{rank8}");
        let after = play(&pos, "g1i1");
        assert!(board(&after).ends_with("/8KR2"), "{rank8}");
    }
}

#[test]
fn r_co_4b_error_before_the_stage() {
    assert_eq!(
        error(&Position::start(variant()), "g1i1"),
        "castling O-O is not possible: the Rook must first move l1 -> k1 as its only move (R-CO-4b)"
    );
}

#[test]
fn r_co_4b_captured_staged_rook_ends_it() {
    let pos = read("k9r1/12/12/12/12/12/12/6K3R1 b K - 0 1 Rk1");
    let pos = play(&pos, "k8k1");
    assert_eq!(
        write_position(&pos),
        "k11/12/12/12/12/12/12/6K3r1 w - - 0 2 -"
    );
}
