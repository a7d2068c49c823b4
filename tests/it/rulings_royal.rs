//! Royal Chess rulings R-RO-1..4 (docs/rules.md): the Firzan and the
//! Elephant, promotion to Firzan, the three castlings (one-stage,
//! king-first, rook-first) and the lost stalemate.
//!
//! Games are played from the start position in coordinate notation
//! (`resolve_coord`), so an illegal move fails loudly with its reason.

use crate::common;

use common::{
    assert_round_trip, board_field as board, castling_field as castling, castlings, error, field,
    legal, legal_from as moves_from, play, sq, strs,
};
use xpgn::notation::position::write_position;
use xpgn::rules::{CastlingSide, Color, Ending, Outcome, Position};

// ---------------------------------------------------------------------------
// Helpers

common::bind_variant!("royal": variant, read = fen, game, kind);

fn stages(pos: &Position) -> String {
    field(pos, 6)
}

// ---------------------------------------------------------------------------
// R-RO-1 Firzan: one square diagonally. Elephant as R-CO-1.

#[test]
fn r_ro_1_firzan_one_square_diagonally() {
    let pos = game("d2d4 a7a6");
    assert_eq!(moves_from(&pos, "e1"), strs(&["e1d2"]));
    assert!(moves_from(&Position::start(variant()), "e1").is_empty());

    let pos = read("k9/10/10/10/4F5/10/10/9K w - - 0 1 -");
    assert_eq!(
        moves_from(&pos, "e4"),
        strs(&["e4d3", "e4d5", "e4f3", "e4f5"])
    );
    assert_eq!(
        error(&pos, "e4e5"),
        "the Firzan on e4 cannot reach e5 (R-RO-1)"
    );
    assert_eq!(
        error(&pos, "e4d4"),
        "the Firzan on e4 cannot reach d4 (R-RO-1)"
    );
    assert_eq!(
        error(&pos, "e4c6"),
        "the Firzan on e4 cannot reach c6 (R-RO-1)"
    );
    assert_eq!(
        error(&pos, "e4g2"),
        "the Firzan on e4 cannot reach g2 (R-RO-1)"
    );
    let after = play(&pos, "e4f5");
    assert_eq!(after.piece_at(sq("f5")).map(|p| p.kind), Some(kind('F')));
}

#[test]
fn r_ro_1_elephant_one_or_two_squares_without_jumping() {
    let pos = game("e2e4 a7a6");
    assert_eq!(moves_from(&pos, "d1"), strs(&["d1e2", "d1f3"]));
    // c2 blocks the way to b3: no jumping.
    assert_eq!(
        error(&pos, "d1b3"),
        "the Elephant on d1 cannot reach b3: c2 is in the way (R-RO-1)"
    );
    assert_eq!(
        error(&pos, "d1g4"),
        "the Elephant on d1 cannot reach g4 (R-RO-1)"
    );

    // Elephant e4; own pawn f5, enemy pawn d5, enemy knight g2.
    let pos = read("k9/10/10/3p1P4/4E5/10/6n3/9K w - - 0 1 -");
    assert_eq!(
        moves_from(&pos, "e4"),
        strs(&["e4c2", "e4d3", "e4d5", "e4f3", "e4g2"])
    );
    assert_eq!(
        error(&pos, "e4c6"),
        "the Elephant on e4 cannot reach c6: d5 is in the way (R-RO-1)"
    );
    assert_eq!(
        error(&pos, "e4g6"),
        "the Elephant on e4 cannot reach g6: f5 is in the way (R-RO-1)"
    );
}

// ---------------------------------------------------------------------------
// R-RO-2 Pawns promote to Firzan only.

#[test]
fn r_ro_2_pawn_promotes_to_firzan_only() {
    let pos = read("5k4/2P7/10/10/10/10/10/5K4 w - - 0 1 -");
    assert_eq!(moves_from(&pos, "c7"), strs(&["c7c8f"]));
    // The only choice needs no letter.
    let after = play(&pos, "c7c8");
    assert_eq!(
        write_position(&after),
        "2F2k4/10/10/10/10/10/10/5K4 b - - 0 1 -"
    );
    assert_eq!(after, play(&pos, "c7c8f"));
}

#[test]
fn r_ro_2_other_promotions_are_errors() {
    let pos = read("5k4/2P7/10/10/10/10/10/5K4 w - - 0 1 -");
    for letter in ['r', 'b', 'n', 'e'] {
        assert_eq!(
            error(&pos, &format!("c7c8{letter}")),
            "this pawn may promote only to f here (R-RO-2)",
            "{letter}"
        );
    }
    assert_eq!(
        error(&pos, "c7c8q"),
        "`q` is not a piece letter of Royal Chess (letters: KRBNEF)"
    );
}

// ---------------------------------------------------------------------------
// R-RO-3 Castling, three kinds.

#[test]
fn r_ro_3_start_and_errors_before_any_stage() {
    let start = Position::start(variant());
    assert_eq!(castling(&start), "KQkq");
    assert_eq!(stages(&start), "-");
    assert_eq!(
        start.castling_sides(Color::White),
        vec![CastlingSide::Short, CastlingSide::Long]
    );
    assert_eq!(
        error(&start, "f1c1"),
        "castling O-O-O is not possible: the king must first move f1 -> e1 as its only move (R-RO-3b)"
    );
    assert_eq!(
        error(&start, "f1d1"),
        "castling O-O-O is not possible: the Rook must first move a1 -> b1 as its only move (R-RO-3c)"
    );
    assert_eq!(
        error(&start, "f1h1"),
        "castling O-O is not possible: g1 is not empty (R-RO-3a)"
    );
}

/// White clears g1, h1, i1.
const KINGSIDE: &str = "i1j3 a7a6 i2i3 b7b6 h1i2 a6a5 h2h3 b6b5 g1h2 c7c6";

#[test]
fn r_ro_3a_one_stage_castling_allowed() {
    let pos = game(KINGSIDE);
    assert_eq!(
        write_position(&pos),
        "rnbefkebnr/3ppppppp/2p7/pp8/10/7PPN/PPPPPPPEBP/RNBEFK3R w KQkq - 0 6 -"
    );
    assert_eq!(castlings(&pos), strs(&["f1h1"]));
    // King f1-h1 and rook j1-g1 in one ply.
    let pos = play(&pos, "f1h1");
    assert_eq!(
        write_position(&pos),
        "rnbefkebnr/3ppppppp/2p7/pp8/10/7PPN/PPPPPPPEBP/RNBEF1RK2 b kq - 1 6 -"
    );
    assert!(pos.castling_sides(Color::White).is_empty());
    assert_round_trip(&pos);
}

#[test]
fn r_ro_3a_forbidden_after_king_or_rook_moved() {
    let base = read("4k5/10/10/10/10/10/10/R4K3R w KQ - 0 1 -");
    assert_eq!(castlings(&base), strs(&["f1h1"]));
    // The j1 rook leaves and comes back: O-O is gone, O-O-O (rook first) stays.
    let pos = play(&base, "j1j2 e8e7 j2j1 e7e8");
    assert_eq!(
        write_position(&pos),
        "4k5/10/10/10/10/10/10/R4K3R w Q - 4 3 -"
    );
    assert!(castlings(&pos).is_empty());
    assert_eq!(
        error(&pos, "f1h1"),
        "castling O-O is not possible: the Rook from j1 has moved or was captured (R-RO-3a)"
    );
    // The king leaves and comes back: everything is gone.
    let pos = play(&base, "f1f2 e8e7 f2f1 e7e8");
    assert_eq!(
        write_position(&pos),
        "4k5/10/10/10/10/10/10/R4K3R w - - 4 3 -"
    );
    assert!(castlings(&pos).is_empty());
    assert_eq!(
        error(&pos, "f1h1"),
        "castling O-O is not possible: the king has moved (R-RO-3a)"
    );
}

#[test]
fn r_ro_3a_needs_g1_h1_i1_empty() {
    for (rank1, blocked) in [("5KN2R", "g1"), ("5K1N1R", "h1"), ("5K2nR", "i1")] {
        let pos = read(&format!("k9/10/10/10/10/10/10/{rank1} w K - 0 1 -"));
        assert!(castlings(&pos).is_empty(), "{rank1}");
        assert_eq!(
            error(&pos, "f1h1"),
            format!("castling O-O is not possible: {blocked} is not empty (R-RO-3a)")
        );
    }
}

#[test]
fn r_ro_3a_needs_g1_h1_unattacked_and_no_check() {
    let with_rook = |rank8: &str| read(&format!("{rank8}/10/10/10/10/10/10/5K3R w K - 0 1 -"));
    for (rank8, reason) in [
        ("k5r3", "g1 is attacked"),
        ("k6r2", "h1 is attacked"),
        ("k4r4", "the king is in check"),
    ] {
        let pos = with_rook(rank8);
        assert!(castlings(&pos).is_empty(), "{rank8}");
        assert_eq!(
            error(&pos, "f1h1"),
            format!("castling O-O is not possible: {reason} (R-RO-3a)")
        );
    }
    // i1 (passed by the rook only) and j1 (the rook) may be attacked.
    for rank8 in ["k7r1", "k8r"] {
        let pos = with_rook(rank8);
        assert_eq!(castlings(&pos), strs(&["f1h1"]), "{rank8}");
        assert!(board(&play(&pos, "f1h1")).ends_with("/6RK2"), "{rank8}");
    }
}

/// White's king makes the first stage f1-e1 (after the Firzan left), then
/// b1, c1, d1 are cleared.
const KING_FIRST: &str =
    "d2d4 a7a6 e1d2 b7b6 f1e1 a6a5 b1c3 b6b5 b2b3 j7j6 c1b2 i7i6 e2e4 j6j5 d1f3 i6i5";

#[test]
fn r_ro_3b_king_first_castling_allowed() {
    let pos = game("d2d4 a7a6 e1d2 b7b6 f1e1");
    // O-O needs the king unmoved: gone. O-O-O is now the king-first one.
    assert_eq!(
        write_position(&pos),
        "rnbefkebnr/2pppppppp/pp8/10/3P6/10/PPPFPPPPPP/RNBEK1EBNR b Qkq - 1 3 Ke1"
    );
    assert_eq!(pos.castling_sides(Color::White), vec![CastlingSide::Long]);
    assert_round_trip(&pos);
    let pos = game(KING_FIRST);
    assert_eq!(stages(&pos), "Ke1");
    assert_eq!(castlings(&pos), strs(&["e1c1"]));
    assert_round_trip(&pos);
    // King e1-c1 and rook a1-d1 in one ply.
    let pos = play(&pos, "e1c1");
    assert_eq!(
        write_position(&pos),
        "rnbefkebnr/2pppppp2/10/pp6pp/3PP5/1PN2E4/PBPF1PPPPP/2KR2EBNR b kq - 1 9 -"
    );
    assert_round_trip(&pos);
}

#[test]
fn r_ro_3b_stage_may_be_a_capture() {
    let pos = read("9k/10/10/10/10/10/10/R3nK4 w Q - 0 1 -");
    assert!(castlings(&pos).is_empty());
    let pos = play(&pos, "f1e1");
    assert_eq!(
        write_position(&pos),
        "9k/10/10/10/10/10/10/R3K5 b Q - 0 1 Ke1"
    );
    let pos = play(&pos, "j8j7");
    assert_eq!(castlings(&pos), strs(&["e1c1"]));
    let pos = play(&pos, "e1c1");
    assert_eq!(
        write_position(&pos),
        "10/9k/10/10/10/10/10/2KR6 b - - 2 2 -"
    );
}

#[test]
fn r_ro_3b_stage_ends_rook_first_option() {
    // After the king's stage, a1-b1 is just a rook move and ends O-O-O.
    let pos = game("d2d4 a7a6 e1d2 b7b6 f1e1 a6a5 b1c3 b6b5 a1b1");
    assert_eq!(
        write_position(&pos),
        "rnbefkebnr/2pppppppp/10/pp8/3P6/2N7/PPPFPPPPPP/1RBEK1EBNR b kq - 1 5 -"
    );
    assert!(pos.castling_sides(Color::White).is_empty());
    // Back on f1, the king cannot use the rook-first castling either.
    let pos = read("9k/10/10/10/10/10/10/R3K5 w Q - 0 1 Ke1");
    let pos = play(&pos, "a1b1 j8j7 e1f1 j7j8");
    assert_eq!(
        write_position(&pos),
        "9k/10/10/10/10/10/10/1R3K4 w - - 4 3 -"
    );
    assert!(castlings(&pos).is_empty());
    assert!(error(&pos, "f1d1").ends_with("(R-RO-3c)"));
}

#[test]
fn r_ro_3b_forbidden_after_second_king_move() {
    let base = read("9k/10/10/10/10/10/10/R3K5 w Q - 0 1 Ke1");
    assert_eq!(castlings(&base), strs(&["e1c1"]));
    assert_round_trip(&base);
    for moves in ["e1e2 j8j7 e2e1 j7j8", "e1f1 j8j7 f1e1 j7j8"] {
        let pos = play(&base, moves);
        assert_eq!(
            write_position(&pos),
            "9k/10/10/10/10/10/10/R3K5 w - - 4 3 -",
            "{moves}"
        );
        assert!(castlings(&pos).is_empty());
        assert_eq!(
            error(&pos, "e1c1"),
            "castling O-O-O is not possible: the king has made a move other than f1 -> e1 (R-RO-3b)"
        );
    }
}

#[test]
fn r_ro_3b_forbidden_after_rook_moved() {
    let base = read("9k/10/10/10/10/10/10/R3K5 w Q - 0 1 Ke1");
    let pos = play(&base, "a1a2 j8j7 a2a1 j7j8");
    assert_eq!(
        write_position(&pos),
        "9k/10/10/10/10/10/10/R3K5 w - - 4 3 -"
    );
    assert!(castlings(&pos).is_empty());
    assert!(error(&pos, "e1c1").ends_with("(R-RO-3b)"));
}

#[test]
fn r_ro_3b_error_names_the_rook_when_the_rook_ended_it() {
    let pos = read("9k/10/10/10/10/10/10/R3K5 w Q - 0 1 Ke1");
    let pos = play(&pos, "a1a2 j8j7 a2a1 j7j8");
    assert_eq!(
        error(&pos, "e1c1"),
        "castling O-O-O is not possible: the Rook from a1 has moved or was captured (R-RO-3b)"
    );
}

#[test]
fn r_ro_3b_needs_b1_c1_d1_empty() {
    for (rank1, blocked) in [("RN2K5", "b1"), ("R1N1K5", "c1"), ("R2nK5", "d1")] {
        let pos = read(&format!("9k/10/10/10/10/10/10/{rank1} w Q - 0 1 Ke1"));
        assert!(castlings(&pos).is_empty(), "{rank1}");
        assert_eq!(
            error(&pos, "e1c1"),
            format!("castling O-O-O is not possible: {blocked} is not empty (R-RO-3b)")
        );
    }
}

#[test]
fn r_ro_3b_needs_d1_c1_unattacked_and_no_check() {
    let with_rook = |rank8: &str| read(&format!("{rank8}/10/10/10/10/10/10/R3K5 w Q - 0 1 Ke1"));
    for (rank8, reason) in [
        ("3r5k", "d1 is attacked"),
        ("2r6k", "c1 is attacked"),
        ("4r4k", "the king is in check"),
    ] {
        let pos = with_rook(rank8);
        assert!(castlings(&pos).is_empty(), "{rank8}");
        assert_eq!(
            error(&pos, "e1c1"),
            format!("castling O-O-O is not possible: {reason} (R-RO-3b)")
        );
    }
    // b1 (passed by the rook only) and a1 (the rook) may be attacked.
    for rank8 in ["1r7k", "r8k"] {
        let pos = with_rook(rank8);
        assert_eq!(castlings(&pos), strs(&["e1c1"]), "{rank8}");
        assert!(board(&play(&pos, "e1c1")).ends_with("/2KR6"), "{rank8}");
    }
}

/// White's a1 rook makes the first stage a1-b1 (after the knight left),
/// then c1, d1, e1 are cleared.
const ROOK_FIRST: &str = "b1a3 a7a6 a1b1 b7b6 d2d4 a6a5 c1f4 b6b5 e2e4 j7j6 d1e2 i7i6 e1d2 j6j5";

#[test]
fn r_ro_3c_rook_first_castling_allowed() {
    let pos = game("b1a3 a7a6 a1b1");
    // O-O (one stage) is still possible; O-O-O is now the rook-first one.
    assert_eq!(
        write_position(&pos),
        "rnbefkebnr/1ppppppppp/p9/10/10/N9/PPPPPPPPPP/1RBEFKEBNR b KQkq - 1 2 Rb1"
    );
    assert_round_trip(&pos);
    let pos = game(ROOK_FIRST);
    assert_eq!(stages(&pos), "Rb1");
    assert_eq!(castlings(&pos), strs(&["f1d1"]));
    assert_round_trip(&pos);
    // King f1-d1 and rook b1-e1 in one ply.
    let pos = play(&pos, "f1d1");
    assert_eq!(
        write_position(&pos),
        "rnbefkebnr/2pppppp2/8p1/pp7p/3PPB4/N9/PPPFEPPPPP/3KR1EBNR b kq - 1 8 -"
    );
    assert_round_trip(&pos);
}

#[test]
fn r_ro_3c_stage_ends_king_first_option() {
    // After the rook's stage, f1-e1 is just a king move and ends O-O-O.
    let pos = play(&game(ROOK_FIRST), "f1e1");
    assert_eq!(
        write_position(&pos),
        "rnbefkebnr/2pppppp2/8p1/pp7p/3PPB4/N9/PPPFEPPPPP/1R2K1EBNR b kq - 1 8 -"
    );
    let pos = play(&pos, "i6i5");
    assert!(castlings(&pos).is_empty());
    assert!(error(&pos, "e1c1").ends_with("(R-RO-3b)"));
    assert_round_trip(&pos);
}

#[test]
fn r_ro_3c_forbidden_after_second_rook_move() {
    let base = read("9k/10/10/10/10/10/10/1R3K4 w Q - 0 1 Rb1");
    assert_eq!(castlings(&base), strs(&["f1d1"]));
    assert_round_trip(&base);
    let pos = play(&base, "b1b2 j8j7 b2b1 j7j8");
    assert_eq!(
        write_position(&pos),
        "9k/10/10/10/10/10/10/1R3K4 w - - 4 3 -"
    );
    assert!(castlings(&pos).is_empty());
    assert!(error(&pos, "f1d1").ends_with("(R-RO-3c)"));
    // Back to a1 is not an unmoved rook again.
    let pos = play(&base, "b1a1 j8j7");
    assert_eq!(
        write_position(&pos),
        "10/9k/10/10/10/10/10/R4K4 w - - 2 2 -"
    );
}

#[test]
fn r_ro_3c_forbidden_if_king_moved() {
    let base = read("9k/10/10/10/10/10/10/1R3K4 w Q - 0 1 Rb1");
    let pos = play(&base, "f1f2 j8j7 f2f1 j7j8");
    assert_eq!(
        write_position(&pos),
        "9k/10/10/10/10/10/10/1R3K4 w - - 4 3 -"
    );
    assert!(castlings(&pos).is_empty());
    assert_eq!(
        error(&pos, "f1d1"),
        "castling O-O-O is not possible: the king has moved (R-RO-3c)"
    );
}

#[test]
fn r_ro_3c_needs_c1_d1_e1_empty() {
    for (rank1, blocked) in [("1RN2K4", "c1"), ("1R1N1K4", "d1"), ("1R2nK4", "e1")] {
        let pos = read(&format!("9k/10/10/10/10/10/10/{rank1} w Q - 0 1 Rb1"));
        assert!(castlings(&pos).is_empty(), "{rank1}");
        assert_eq!(
            error(&pos, "f1d1"),
            format!("castling O-O-O is not possible: {blocked} is not empty (R-RO-3c)")
        );
    }
}

#[test]
fn r_ro_3c_needs_e1_d1_unattacked_and_no_check() {
    let with_rook = |rank8: &str| read(&format!("{rank8}/10/10/10/10/10/10/1R3K4 w Q - 0 1 Rb1"));
    for (rank8, reason) in [
        ("4r4k", "e1 is attacked"),
        ("3r5k", "d1 is attacked"),
        ("5r3k", "the king is in check"),
    ] {
        let pos = with_rook(rank8);
        assert!(castlings(&pos).is_empty(), "{rank8}");
        assert_eq!(
            error(&pos, "f1d1"),
            format!("castling O-O-O is not possible: {reason} (R-RO-3c)")
        );
    }
    // c1 (passed by the rook only) and b1 (the rook) may be attacked.
    for rank8 in ["2r6k", "1r7k"] {
        let pos = with_rook(rank8);
        assert_eq!(castlings(&pos), strs(&["f1d1"]), "{rank8}");
        assert!(board(&play(&pos, "f1d1")).ends_with("/3KR5"), "{rank8}");
    }
}

#[test]
fn r_ro_3_black_castles_too() {
    // Black: rook-first O-O-O (a8-b8, then f8-d8 with b8-e8).
    let pos = game("a2a3 b8a6 b2b3 a8b8 c2c3 d7d5 d2d3 c8f5 e2e3 e7e6 f2f3 d8e7 g2g3 e8d7");
    assert_eq!(stages(&pos), "rb8");
    assert_eq!(castling(&pos), "KQkq");
    assert_round_trip(&pos);
    let pos = play(&pos, "h2h3");
    assert_eq!(castlings(&pos), strs(&["f8d8"]));
    let pos = play(&pos, "f8d8");
    assert!(board(&pos).starts_with("3kr1ebnr/"), "{}", board(&pos));
    assert_eq!(castling(&pos), "KQ");
    assert_eq!(stages(&pos), "-");
}

// ---------------------------------------------------------------------------
// R-RO-4 A player who is stalemated loses.

#[test]
fn r_ro_4_stalemated_black_loses() {
    let pos = read("k9/2K7/10/F9/10/10/10/10 w - - 0 1 -");
    assert_eq!(pos.outcome(), None);
    let pos = play(&pos, "a5b6");
    assert!(pos.legal_moves().is_empty());
    assert!(!pos.is_check());
    let outcome = pos.outcome().expect("the game is over");
    assert_eq!(
        outcome,
        Outcome::Win {
            winner: Color::White,
            by: Ending::Stalemate
        }
    );
    assert_eq!(outcome.result(), "1-0");
}

#[test]
fn r_ro_4_stalemated_white_loses() {
    let pos = read("10/10/10/10/f9/10/2k7/K9 b - - 0 1 -");
    let pos = play(&pos, "a4b3");
    assert!(pos.legal_moves().is_empty());
    assert!(!pos.is_check());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            by: Ending::Stalemate
        })
    );
    assert_eq!(pos.outcome().map(|o| o.result()), Some("0-1"));
}

#[test]
fn r_ro_4_only_without_legal_moves_and_mate_stays_mate() {
    // A spare pawn move means no stalemate.
    let pos = play(&read("k9/2K6p/10/F9/10/10/10/10 w - - 0 1 -"), "a5b6");
    assert_eq!(legal(&pos), strs(&["j7j5", "j7j6"]));
    assert_eq!(pos.outcome(), None);
    // Mate is still a checkmate win.
    let pos = play(&read("k9/10/1K8/10/10/10/10/7R2 w - - 0 1 -"), "h1h8");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            by: Ending::Checkmate
        })
    );
}
