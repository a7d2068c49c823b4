//! Courier-Spiel rulings R-CS-1..6 (docs/rules.md): the pieces, castling
//! with its attacked-square rule, and the waiting promotion's life cycle
//! (arrival, immunity, the wait, the choice among lost types, the blocked
//! pawn and its instant promotion).
//!
//! Games are played from the start position in coordinate notation
//! (`resolve_coord`), so an illegal move fails loudly with its reason.

use crate::common;

use common::{
    assert_round_trip, board_field as board, castling_field as castling, castlings, error, field,
    legal, legal_from as moves_from, play, sorted, sq, strs,
};
use xpgn::notation::coord::{resolve_coord, write_coord};
use xpgn::notation::position::{FenField, read_position, write_position};
use xpgn::rules::{CastlingSide, Color, Piece, PieceKind, Position, WaitingPawn, WaitingPromotion};

// ---------------------------------------------------------------------------
// Helpers

common::bind_variant!("courier-spiel": variant, read = fen, game, kind);

fn waiting(pos: &Position) -> String {
    field(pos, 6)
}

fn white(letter: char) -> Option<Piece> {
    Some(Piece {
        color: Color::White,
        kind: kind(letter),
    })
}

// ---------------------------------------------------------------------------
// R-CS-1 Bishop (ferz + jumping alfil), Courier (bishop), Fool (non-royal
// king), Councillor (knight + king, non-royal).

#[test]
fn r_cs_1_bishop_one_or_two_diagonally_jumping() {
    let start = Position::start(variant());
    // From the start the Bishops jump over the b/d and i/k pawns.
    assert_eq!(moves_from(&start, "c1"), strs(&["c1a3", "c1e3"]));
    assert_eq!(moves_from(&start, "j1"), strs(&["j1h3", "j1l3"]));
    // Own pawn f5, enemy pawn d5: it jumps over both.
    let pos = read("5k6/12/12/3p1P6/4B7/12/12/5K6 w - - 0 1 -");
    assert_eq!(
        moves_from(&pos, "e4"),
        strs(&["e4c2", "e4c6", "e4d3", "e4d5", "e4f3", "e4g2", "e4g6"])
    );
    assert_eq!(error(&pos, "e4f5"), "f5 holds a piece of the side to move");
    assert_eq!(
        error(&pos, "e4e5"),
        "the Bishop on e4 cannot reach e5 (R-CS-1)"
    );
    assert_eq!(
        error(&pos, "e4h7"),
        "the Bishop on e4 cannot reach h7 (R-CS-1)"
    );
}

#[test]
fn r_cs_1_courier_is_an_orthodox_bishop() {
    let pos = game("e2e4 a7a6");
    assert_eq!(
        moves_from(&pos, "d1"),
        strs(&["d1e2", "d1f3", "d1g4", "d1h5", "d1i6", "d1j7"])
    );
    assert_eq!(
        error(&pos, "d1d3"),
        "the Courier on d1 cannot reach d3 (R-CS-1)"
    );
    let pos = play(&pos, "d1j7");
    assert_eq!(pos.piece_at(sq("j7")), white('C'));
}

#[test]
fn r_cs_1_fool_one_square_any_direction_non_royal() {
    assert!(moves_from(&Position::start(variant()), "h1").is_empty());
    // The black rook attacks the Fool: no check. The Fool may step next to
    // the black king.
    let pos = read("12/12/4k7/12/4F2r4/12/12/K11 w - - 0 1 -");
    assert!(!pos.is_check());
    assert_eq!(
        moves_from(&pos, "e4"),
        strs(&[
            "e4d3", "e4d4", "e4d5", "e4e3", "e4e5", "e4f3", "e4f4", "e4f5"
        ])
    );
    assert_eq!(
        error(&pos, "e4e6"),
        "the Fool on e4 cannot reach e6 (R-CS-1)"
    );
    assert_eq!(
        error(&pos, "e4g6"),
        "the Fool on e4 cannot reach g6 (R-CS-1)"
    );
    // The king may leave it hanging.
    assert_eq!(moves_from(&pos, "a1"), strs(&["a1a2", "a1b1", "a1b2"]));
}

#[test]
fn r_cs_1_councillor_knight_plus_king_non_royal() {
    let start = Position::start(variant());
    assert_eq!(moves_from(&start, "e1"), strs(&["e1d3", "e1f3"]));
    let pos = read("12/12/4k7/12/4M2r4/12/12/K11 w - - 0 1 -");
    assert!(!pos.is_check());
    assert_eq!(
        moves_from(&pos, "e4"),
        strs(&[
            "e4c3", "e4c5", "e4d2", "e4d6", "e4f2", "e4f6", "e4g3", "e4g5", // knight
            "e4d3", "e4d4", "e4d5", "e4e3", "e4e5", "e4f3", "e4f4", "e4f5", // king step
        ])
    );
    assert_eq!(
        error(&pos, "e4e6"),
        "the Councillor on e4 cannot reach e6 (R-CS-1)"
    );
    assert_eq!(
        error(&pos, "e4g6"),
        "the Councillor on e4 cannot reach g6 (R-CS-1)"
    );
}

// ---------------------------------------------------------------------------
// R-CS-2 Castling: king to the c- or j-file, rook next to it on the inside;
// squares between empty; rook's square to king's square unattacked.

/// White clears g1..k1 for O-O; Black clears b8..e8 and castles O-O-O.
const BOTH_SIDES: &str = "h2h4 b8c6 k1j3 c8a6 j1h3 e7e6 i1f4 d8e7 h1h2 e8f6 g2g3";

#[test]
fn r_cs_2_castling_both_sides_from_start() {
    let start = Position::start(variant());
    assert_eq!(castling(&start), "KQkq");
    assert_eq!(
        start.castling_sides(Color::White),
        vec![CastlingSide::Short, CastlingSide::Long]
    );
    let pos = game(BOTH_SIDES);
    assert_eq!(castlings(&pos), strs(&["f8c8"]));
    // Black O-O-O: king f8-c8, rook a8-d8.
    let pos = play(&pos, "f8c8");
    assert_eq!(
        write_position(&pos),
        "2kr2qfcbnr/ppppcppppppp/b1n1pm6/12/5C1P4/6PB1N2/PPPPPP1FPPPP/RNBCMKQ4R w KQ - 1 7 -"
    );
    assert_round_trip(&pos);
    // The Queen still stands on g1.
    assert!(castlings(&pos).is_empty());
    assert_eq!(
        error(&pos, "f1j1"),
        "castling O-O is not possible: g1 is not empty (R-CS-2)"
    );
    let pos = play(&pos, "g1g2 l7l6");
    assert_eq!(castlings(&pos), strs(&["f1j1"]));
    // White O-O: king f1-j1, rook l1-i1.
    let pos = play(&pos, "f1j1");
    assert_eq!(
        write_position(&pos),
        "2kr2qfcbnr/ppppcpppppp1/b1n1pm5p/12/5C1P4/6PB1N2/PPPPPPQFPPPP/RNBCM3RK2 b - - 1 8 -"
    );
    assert_round_trip(&pos);
}

/// White clears g1..k1 and opens k2; Black's Courier reaches g6 and
/// attacks l1 along g6-h5-i4-j3-k2-l1.
const ROOK_ATTACKED: &str =
    "h2h4 a7a6 k1l3 h7h6 j1h3 i8g6 i1f4 a6a5 h1h2 b7b6 g2g3 b6b5 g1g2 c7c6 k2k4 c6c5";

#[test]
fn r_cs_2_attacked_rook_square_forbids_castling_from_start() {
    let pos = game(ROOK_ATTACKED);
    // The king's path f1..j1 is safe (orthodox castling would be allowed) ...
    for s in ["f1", "g1", "h1", "i1", "j1", "k1"] {
        assert!(!pos.is_attacked(sq(s), Color::Black), "{s}");
    }
    // ... but the rook's square is attacked.
    assert!(pos.is_attacked(sq("l1"), Color::Black));
    assert!(castlings(&pos).is_empty());
    assert_eq!(
        error(&pos, "f1j1"),
        "castling O-O is not possible: l1 is attacked (R-CS-2)"
    );
    // The Bishop steps into the diagonal; now White castles.
    let pos = play(&pos, "h3i4 d7d6");
    assert_eq!(castlings(&pos), strs(&["f1j1"]));
    let pos = play(&pos, "f1j1");
    assert_eq!(
        write_position(&pos),
        "rnbcmkqf1bnr/4ppp1pppp/3p2cp4/ppp9/5C1PB1P1/6P4N/PPPPPPQFPP1P/RNBCM3RK2 b kq - 1 10 -"
    );
}

#[test]
fn r_cs_2_short_castling_squares_f1_to_l1_unattacked() {
    let with_rook = |rank8: &str| read(&format!("{rank8}/12/12/12/12/12/12/5K5R w K - 0 1 -"));
    assert_eq!(castlings(&with_rook("k11")), strs(&["f1j1"]));
    for (rank8, reason) in [
        ("k5r5", "g1 is attacked"),
        ("k6r4", "h1 is attacked"),
        ("k7r3", "i1 is attacked"),
        ("k8r2", "j1 is attacked"),
        ("k9r1", "k1 is attacked"),
        ("k10r", "l1 is attacked"),
        ("k4r6", "the king is in check"),
    ] {
        let pos = with_rook(rank8);
        assert!(castlings(&pos).is_empty(), "{rank8}");
        assert_eq!(
            error(&pos, "f1j1"),
            format!("castling O-O is not possible: {reason} (R-CS-2)")
        );
    }
    // e1 lies outside f1..l1.
    let pos = with_rook("k3r7");
    assert_eq!(castlings(&pos), strs(&["f1j1"]));
    assert!(board(&play(&pos, "f1j1")).ends_with("/8RK2"));
}

#[test]
fn r_cs_2_long_castling_squares_a1_to_f1_unattacked() {
    let with_rook = |rank8: &str| read(&format!("{rank8}/12/12/12/12/12/12/R4K6 w Q - 0 1 -"));
    assert_eq!(castlings(&with_rook("11k")), strs(&["f1c1"]));
    for (rank8, reason) in [
        ("r10k", "a1 is attacked"),
        ("1r9k", "b1 is attacked"),
        ("2r8k", "c1 is attacked"),
        ("3r7k", "d1 is attacked"),
        ("4r6k", "e1 is attacked"),
        ("5r5k", "the king is in check"),
    ] {
        let pos = with_rook(rank8);
        assert!(castlings(&pos).is_empty(), "{rank8}");
        assert_eq!(
            error(&pos, "f1c1"),
            format!("castling O-O-O is not possible: {reason} (R-CS-2)")
        );
    }
    // g1 lies outside a1..f1.
    let pos = with_rook("6r4k");
    assert_eq!(castlings(&pos), strs(&["f1c1"]));
    assert!(board(&play(&pos, "f1c1")).ends_with("/2KR8"));
}

#[test]
fn r_cs_2_squares_between_king_and_rook_empty() {
    for (rank1, blocked) in [
        ("5KN4R", "g1"),
        ("5K1N3R", "h1"),
        ("5K2N2R", "i1"),
        ("5K3N1R", "j1"),
        ("5K4NR", "k1"),
    ] {
        let pos = read(&format!("k11/12/12/12/12/12/12/{rank1} w K - 0 1 -"));
        assert!(castlings(&pos).is_empty(), "{rank1}");
        assert_eq!(
            error(&pos, "f1j1"),
            format!("castling O-O is not possible: {blocked} is not empty (R-CS-2)")
        );
    }
    for (rank1, blocked) in [
        ("RN3K6", "b1"),
        ("R1N2K6", "c1"),
        ("R2N1K6", "d1"),
        ("R3NK6", "e1"),
    ] {
        let pos = read(&format!("11k/12/12/12/12/12/12/{rank1} w Q - 0 1 -"));
        assert!(castlings(&pos).is_empty(), "{rank1}");
        assert_eq!(
            error(&pos, "f1c1"),
            format!("castling O-O-O is not possible: {blocked} is not empty (R-CS-2)")
        );
    }
}

#[test]
fn r_cs_2_king_and_rook_must_not_have_moved() {
    let base = read("5k6/12/12/12/12/12/12/R4K5R w KQ - 0 1 -");
    assert_eq!(castlings(&base), strs(&["f1c1", "f1j1"]));
    let pos = play(&base, "l1l2 f8f7 l2l1 f7f8");
    assert_eq!(
        write_position(&pos),
        "5k6/12/12/12/12/12/12/R4K5R w Q - 4 3 -"
    );
    assert_eq!(castlings(&pos), strs(&["f1c1"]));
    assert_eq!(
        error(&pos, "f1j1"),
        "castling O-O is not possible: the Rook from l1 has moved or was captured (R-CS-2)"
    );
    let pos = play(&base, "f1f2 f8f7 f2f1 f7f8");
    assert_eq!(
        write_position(&pos),
        "5k6/12/12/12/12/12/12/R4K5R w - - 4 3 -"
    );
    assert!(castlings(&pos).is_empty());
    assert_eq!(
        error(&pos, "f1c1"),
        "castling O-O-O is not possible: the king has moved (R-CS-2)"
    );
}

// ---------------------------------------------------------------------------
// R-CS-3..5 The waiting promotion, from the start: White loses a Knight and
// a Courier, and the b-pawn walks to c8 while Black's king stands on e7.

const LIFE: &str =
    "b2b4 e7e5 b4b5 h7h6 k1j3 g7g6 j3i5 h6i5 e2e3 c8e6 d1h5 g6h5 b5b6 f8e7 b6c7 b8a6";

/// The pawn has arrived on c8 (Black to move).
fn arrived() -> Position {
    game(&format!("{LIFE} c7c8"))
}

/// White to move, and this move ends the wait.
fn promoting() -> Position {
    game(&format!("{LIFE} c7c8 j7j6 a2a3 l7l6"))
}

fn c8_waiting(turns: u8) -> Vec<WaitingPawn> {
    vec![WaitingPawn {
        square: sq("c8"),
        color: Color::White,
        turns,
    }]
}

#[test]
fn r_cs_3_arrival_is_a_plain_pawn_move() {
    let pos = game(LIFE);
    // No promotion letters on arrival: the plain move and a capture.
    assert_eq!(moves_from(&pos, "c7"), strs(&["c7c8", "c7d8"]));
    for letter in ['q', 'n', 'c'] {
        assert_eq!(
            error(&pos, &format!("c7c8{letter}")),
            "a pawn that reaches the last rank waits there and promotes later, as part of its owner's second move after arrival (R-CS-3, R-CS-4): write `c7c8` and later a suffix `&c8=X`"
        );
    }
    let pos = arrived();
    assert_eq!(
        write_position(&pos),
        "r1Pcm1qfcbnr/pp1pkp2pppp/n3b7/4p2pp3/12/4P7/P1PP1PPPPPPP/RNB1MKQFCB1R b KQ - 0 9 c8:2"
    );
    assert_eq!(pos.piece_at(sq("c8")), white('P'));
    assert_eq!(pos.waiting_pawns(), c8_waiting(2).as_slice());
    assert_round_trip(&pos);
    // Arriving by capture works the same way.
    let pos = play(&game(LIFE), "c7d8");
    assert_eq!(waiting(&pos), "d8:2");
    assert_eq!(pos.piece_at(sq("d8")), white('P'));
}

#[test]
fn r_cs_3_waiting_pawn_cannot_be_captured() {
    let pos = arrived();
    assert_eq!(
        error(&pos, "a8c8"),
        "the pawn on c8 is still waiting and cannot be captured (R-CS-3)"
    );
    // It blocks the rook's rank.
    assert_eq!(moves_from(&pos, "a8"), strs(&["a8b8"]));
    assert!(pos.legal_moves().iter().all(|m| m.to() != sq("c8")));
    // Still so one move later, with the wait at one turn.
    let pos = game(&format!("{LIFE} c7c8 j7j6 a2a3"));
    assert_eq!(waiting(&pos), "c8:1");
    assert_eq!(
        error(&pos, "a8c8"),
        "the pawn on c8 is still waiting and cannot be captured (R-CS-3)"
    );
}

#[test]
fn r_cs_3_waiting_pawn_cannot_move() {
    for pos in [game(&format!("{LIFE} c7c8 j7j6")), promoting()] {
        assert!(moves_from(&pos, "c8").is_empty());
        assert_eq!(
            error(&pos, "c8b8"),
            "the pawn on c8 is still waiting and cannot move (R-CS-3)"
        );
    }
}

#[test]
fn r_cs_3_waiting_pawn_attacks_nothing() {
    // The black king stands right next to the waiting pawn.
    let pos = read("4P7/5k6/12/12/12/12/12/5K6 b - - 0 1 e8:2");
    for s in ["d7", "d8", "e7", "f7", "f8"] {
        assert!(!pos.is_attacked(sq(s), Color::White), "{s}");
    }
    assert_eq!(
        moves_from(&pos, "f7"),
        strs(&["f7e6", "f7e7", "f7f6", "f7f8", "f7g6", "f7g7", "f7g8"])
    );
    assert_eq!(
        error(&pos, "f7e8"),
        "the pawn on e8 is still waiting and cannot be captured (R-CS-3)"
    );
}

#[test]
fn r_cs_3_waiting_pawn_blocks_lines() {
    // A black pawn waits on d1 between the black rook on a1 and White's king.
    let pos = read("5k6/12/12/3R8/12/12/12/r2p3K4 w - - 0 1 d1:2");
    assert!(!pos.is_check());
    assert!(!pos.is_attacked(sq("g1"), Color::Black));
    assert_eq!(
        moves_from(&pos, "h1"),
        strs(&["h1g1", "h1g2", "h1h2", "h1i1", "h1i2"])
    );
    assert!(legal(&pos).contains(&"d5d2".to_string()));
    assert!(!legal(&pos).contains(&"d5d1".to_string()));
    assert_eq!(
        error(&pos, "d5d1"),
        "the pawn on d1 is still waiting and cannot be captured (R-CS-3)"
    );
    assert_round_trip(&pos);
    // Without it, the rook gives check.
    let open = read("5k6/12/12/3R8/12/12/12/r6K4 w - - 0 1 -");
    assert!(open.is_check());
}

#[test]
fn r_cs_4_wait_counts_down_over_two_owner_moves() {
    let pos = arrived();
    assert_eq!(pos.waiting_pawns(), c8_waiting(2).as_slice());
    // Black's move does not count.
    let pos = play(&pos, "j7j6");
    assert_eq!(waiting(&pos), "c8:2");
    assert_round_trip(&pos);
    // The first White move after arrival waits: no promotion on it.
    assert!(
        pos.legal_moves()
            .iter()
            .all(|m| m.waiting_promotion().is_none())
    );
    assert!(error(&pos, "a2a3&c8=N").contains("no waiting pawn promotes on c8"));
    let pos = play(&pos, "a2a3");
    assert_eq!(
        write_position(&pos),
        "r1Pcm1qfcbnr/pp1pkp2p1pp/n3b4p2/4p2pp3/12/P3P7/2PP1PPPPPPP/RNB1MKQFCB1R b KQ - 0 10 c8:1"
    );
    assert_round_trip(&pos);
    let pos = play(&pos, "l7l6");
    assert_eq!(pos.waiting_pawns(), c8_waiting(1).as_slice());
    assert_round_trip(&pos);
}

#[test]
fn r_cs_4_promotion_with_the_owners_second_move_gives_check() {
    let pos = promoting();
    // Every White move now carries the promotion.
    let moves = pos.legal_moves();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| matches!(
        m.waiting_promotion(),
        Some(WaitingPromotion { square, .. }) if square == sq("c8")
    )));
    let pos = play(&pos, "a3a4&c8=N");
    assert_eq!(
        write_position(&pos),
        "r1Ncm1qfcbnr/pp1pkp2p1p1/n3b4p1p/4p2pp3/P11/4P7/2PP1PPPPPPP/RNB1MKQFCB1R b KQ - 0 11 -"
    );
    assert_eq!(pos.piece_at(sq("c8")), white('N'));
    assert!(pos.waiting_pawns().is_empty());
    // The new Knight gives check at once.
    assert!(pos.is_check());
    assert_round_trip(&pos);
}

#[test]
fn r_cs_4_promoted_piece_may_be_captured_on_the_next_move() {
    let pos = play(&promoting(), "a3a4&c8=N");
    assert!(legal(&pos).contains(&"a8c8".to_string()));
    let pos = play(&pos, "a8c8");
    assert_eq!(
        write_position(&pos),
        "2rcm1qfcbnr/pp1pkp2p1p1/n3b4p1p/4p2pp3/P11/4P7/2PP1PPPPPPP/RNB1MKQFCB1R w KQ - 0 12 -"
    );
    assert!(!pos.is_check());
}

#[test]
fn r_cs_4_promoted_piece_moves_from_the_owners_third_move() {
    let pos = play(&promoting(), "a3a4&c8=N e7f8");
    assert_eq!(
        moves_from(&pos, "c8"),
        strs(&["c8a7", "c8b6", "c8d6", "c8e7"])
    );
    let pos = play(&pos, "c8a7");
    assert_eq!(
        write_position(&pos),
        "r2cmkqfcbnr/Np1p1p2p1p1/n3b4p1p/4p2pp3/P11/4P7/2PP1PPPPPPP/RNB1MKQFCB1R b KQ - 0 12 -"
    );
}

#[test]
fn r_cs_5_choice_among_lost_types_only() {
    let pos = promoting();
    // White has lost a Knight and a Courier (and pawns, never available).
    assert_eq!(
        pos.available_kinds(Color::White),
        vec![kind('N'), kind('C')]
    );
    let kinds: Vec<PieceKind> = sorted(
        pos.legal_moves()
            .iter()
            .filter(|m| m.from() == sq("a3") && m.to() == sq("a4"))
            .map(|m| write_coord(&pos, m))
            .collect(),
    )
    .iter()
    .map(|t| kind(t.chars().last().unwrap()))
    .collect();
    assert_eq!(kinds, vec![kind('C'), kind('N')]);
    assert_eq!(
        error(&pos, "a3a4"),
        "the pawn on c8 ends its wait with this move and must become one of the types its owner has lost: Knight, Courier (write e.g. `a3a4&c8=N`; R-CS-4, R-CS-5)"
    );
    for letter in ['Q', 'R', 'B', 'M', 'F', 'P', 'K'] {
        assert_eq!(
            error(&pos, &format!("a3a4&c8={letter}")),
            format!("`&c8={letter}` is not possible here; possible: &c8=N, &c8=C (R-CS-5)")
        );
    }
    let pos = play(&pos, "a3a4&c8=C");
    assert_eq!(
        write_position(&pos),
        "r1Ccm1qfcbnr/pp1pkp2p1p1/n3b4p1p/4p2pp3/P11/4P7/2PP1PPPPPPP/RNB1MKQFCB1R b KQ - 0 11 -"
    );
    assert!(!pos.is_check());
}

#[test]
fn r_cs_5_promoted_pieces_count_as_their_new_type() {
    // White lost one Knight; two pawns wait, c8 first.
    let pos = read("2P1P3k3/12/12/12/12/12/PP1P1PPPPPPP/RNBCMKQFCB1R w - - 0 30 c8:1,e8:2");
    assert_eq!(pos.available_kinds(Color::White), vec![kind('N')]);
    // A single choice needs no suffix.
    let pos = play(&pos, "a2a3");
    assert_eq!(
        write_position(&pos),
        "2N1P3k3/12/12/12/12/P11/1P1P1PPPPPPP/RNBCMKQFCB1R b - - 0 30 e8:1"
    );
    // The new Knight replaces the lost one: nothing is left for e8.
    assert!(pos.available_kinds(Color::White).is_empty());
    let pos = play(&pos, "i8i7");
    assert!(
        pos.legal_moves()
            .iter()
            .all(|m| m.waiting_promotion().is_none())
    );
    assert_eq!(
        error(&pos, "a3a4&e8=N"),
        "no waiting pawn promotes on e8 with this move (R-CS-4, R-CS-6)"
    );
    let pos = play(&pos, "a3a4");
    assert_eq!(waiting(&pos), "e8:0");
    assert_round_trip(&pos);
}

#[test]
fn r_cs_5_pawns_and_kings_are_never_available() {
    // White has lost four pawns and nothing else.
    let pos = read("2P5k3/12/12/12/12/12/PP1P1PPP4/RNBCMKQFCBNR w - - 0 30 c8:1");
    assert!(pos.available_kinds(Color::White).is_empty());
    assert!(
        pos.legal_moves()
            .iter()
            .all(|m| m.waiting_promotion().is_none())
    );
    for letter in ['P', 'K'] {
        assert_eq!(
            error(&pos, &format!("a2a3&c8={letter}")),
            "no waiting pawn promotes on c8 with this move (R-CS-4, R-CS-6)"
        );
    }
    let pos = play(&pos, "a2a3");
    assert_eq!(
        write_position(&pos),
        "2P5k3/12/12/12/12/P11/1P1P1PPP4/RNBCMKQFCBNR b - - 0 30 c8:0"
    );
    assert_eq!(pos.piece_at(sq("c8")), white('P'));
}

// ---------------------------------------------------------------------------
// R-CS-6 The blocked pawn and its instant promotion, from the start: White
// loses only a pawn before the wait ends.

const BLOCKED: &str = "b2b4 e7e5 b4b5 d7d5 e2e4 d5e4 b5b6 c8e6 b6c7 b8a6 c7c8 h7h6 k1j3 f8e7";

#[test]
fn r_cs_6_blocked_when_nothing_is_lost() {
    let pos = game(BLOCKED);
    assert_eq!(waiting(&pos), "c8:1");
    assert!(pos.available_kinds(Color::White).is_empty());
    assert!(
        pos.legal_moves()
            .iter()
            .all(|m| m.waiting_promotion().is_none())
    );
    assert_eq!(
        error(&pos, "j3i5&c8=N"),
        "no waiting pawn promotes on c8 with this move (R-CS-4, R-CS-6)"
    );
    let pos = play(&pos, "j3i5");
    assert_eq!(
        write_position(&pos),
        "r1Pcm1qfcbnr/pp2kpp1pppp/n3b2p4/4p3N3/4p7/12/P1PP1PPPPPPP/RNBCMKQFCB1R b KQ - 3 8 c8:0"
    );
    assert_round_trip(&pos);
    // Still immobile and uncapturable, and its owner's moves change nothing.
    assert_eq!(
        error(&pos, "a8c8"),
        "the pawn on c8 is still waiting and cannot be captured (R-CS-3)"
    );
    let pos = play(&pos, "e7f6 a2a3");
    assert_eq!(waiting(&pos), "c8:0");
    assert_eq!(
        error(&pos, "a8c8"),
        "the pawn on c8 is still waiting and cannot be captured (R-CS-3)"
    );
    let pos = play(&pos, "a8b8");
    assert!(moves_from(&pos, "c8").is_empty());
    assert_eq!(
        error(&pos, "c8b8"),
        "the pawn on c8 is still waiting and cannot move (R-CS-3)"
    );
}

#[test]
fn r_cs_6_capture_whose_promoted_piece_attacks_the_capturer_is_illegal() {
    // Black's king on e7; taking the Knight would turn c8 into a Knight
    // attacking e7.
    let pos = game(&format!("{BLOCKED} j3i5"));
    assert!(!pos.is_check());
    assert!(!legal(&pos).iter().any(|m| m.starts_with("h6i5")));
    assert_eq!(
        error(&pos, "h6i5"),
        "it would leave the king attacked (R-0-1)"
    );
    // Away from e7 (f6 is not a knight's move from c8), the capture is legal.
    let pos = play(&pos, "e7f6 a2a3");
    assert_eq!(moves_from(&pos, "h6"), strs(&["h6h5", "h6i5&c8=N"]));
}

#[test]
fn r_cs_6_instant_promotion_into_the_captured_type() {
    let pos = game(&format!("{BLOCKED} j3i5 e7f6 a2a3"));
    // The suffix is inferred.
    let m = resolve_coord(&pos, "h6i5").expect("legal");
    assert_eq!(
        m.instant_promotion(),
        Some(WaitingPromotion {
            square: sq("c8"),
            kind: kind('N')
        })
    );
    assert_eq!(write_coord(&pos, &m), "h6i5&c8=N");
    assert_eq!(
        error(&pos, "h6i5&c8=Q"),
        "`&c8=Q` is not possible here; possible: &c8=N (R-CS-5)"
    );
    let pos = play(&pos, "h6i5&c8=N");
    assert_eq!(
        write_position(&pos),
        "r1Ncm1qfcbnr/pp3pp1pppp/n3bk6/4p3p3/4p7/P11/2PP1PPPPPPP/RNBCMKQFCB1R w KQ - 0 10 -"
    );
    assert_eq!(pos.piece_at(sq("c8")), white('N'));
    assert_round_trip(&pos);
    // It is an ordinary piece at once: it may move, and be captured.
    assert_eq!(
        moves_from(&pos, "c8"),
        strs(&["c8a7", "c8b6", "c8d6", "c8e7"])
    );
    let black = play(&pos, "a3a4");
    assert!(legal(&black).contains(&"a8c8".to_string()));

    // Capturing a Courier makes a Courier.
    let pos = read("2P5k3/9r2/12/12/12/9C2/PP1PPPPPPPPP/RNBCMKQF1BNR b - - 0 30 c8:0");
    let pos = play(&pos, "j7j3");
    assert_eq!(pos.piece_at(sq("c8")), white('C'));
    assert_eq!(
        write_position(&pos),
        "2C5k3/12/12/12/12/9r2/PP1PPPPPPPPP/RNBCMKQF1BNR w - - 0 31 -"
    );
}

#[test]
fn r_cs_6_the_first_arrived_blocked_pawn_promotes() {
    let text = "2P1P2k4/9r1r/12/12/12/9N2/PP1P1PPPPPPP/RNBCMKQFCB1R b - - 0 30 c8:0,e8:0";
    let pos = play(&read(text), "j7j3");
    assert_eq!(
        write_position(&pos),
        "2N1P2k4/11r/12/12/12/9r2/PP1P1PPPPPPP/RNBCMKQFCB1R w - - 0 31 e8:0"
    );
    // Same board, e8 arrived first.
    let pos = read(&text.replace("c8:0,e8:0", "e8:0,c8:0"));
    assert_round_trip(&pos);
    let pos = play(&pos, "j7j3&e8=N");
    assert_eq!(
        write_position(&pos),
        "2P1N2k4/11r/12/12/12/9r2/PP1P1PPPPPPP/RNBCMKQFCB1R w - - 0 31 c8:0"
    );
}

#[test]
fn r_cs_6_only_the_owners_loss_of_a_non_pawn_promotes() {
    // Taking a pawn promotes nothing.
    let text = "2P1P2k4/9r1r/12/12/12/9N2/PP1P1PPPPPPP/RNBCMKQFCB1R b - - 0 30 c8:0,e8:0";
    let pos = play(&read(text), "l7l2");
    assert_eq!(
        write_position(&pos),
        "2P1P2k4/9r2/12/12/12/9N2/PP1P1PPPPPPr/RNBCMKQFCB1R w - - 0 31 c8:0,e8:0"
    );
    // The owner's own capture promotes nothing.
    let pos = read("2P5k3/12/12/12/12/9n2/PP1PPPPPPPPP/RNBCMKQFCBNR w - - 0 30 c8:0");
    let pos = play(&pos, "k1j3");
    assert_eq!(
        write_position(&pos),
        "2P5k3/12/12/12/12/9N2/PP1PPPPPPPPP/RNBCMKQFCB1R b - - 0 30 c8:0"
    );
    // A pawn still in its wait is not promoted by a capture: it promotes
    // when the wait ends, into the type lost meanwhile.
    let pos = read("2P5k3/9r2/12/12/12/9N2/PP1PPPPPPPPP/RNBCMKQFCB1R b - - 0 30 c8:2");
    let pos = play(&pos, "j7j3");
    assert_eq!(waiting(&pos), "c8:2");
    assert_eq!(pos.piece_at(sq("c8")), white('P'));
    let pos = play(&pos, "a2a3 j3j4 a3a4");
    assert_eq!(
        write_position(&pos),
        "2N5k3/12/12/12/P8r2/12/1P1PPPPPPPPP/RNBCMKQFCB1R b - - 0 32 -"
    );
}

#[test]
fn r_cs_6_owner_promotion_and_instant_promotion_in_one_ply() {
    // White's a8 pawn ends its wait (White lost a Knight) while White's
    // capture of a Rook promotes Black's blocked k1 pawn (Black lost nothing).
    let pos = read(
        "P1bcmkqfcbnr/1ppppppppppp/2n9/12/3r8/4P7/1PPP1PPPPPPP/RNBCMKQFCBpR w - - 0 40 a8:1,k1:0",
    );
    assert_round_trip(&pos);
    let m = resolve_coord(&pos, "e3d4").expect("legal");
    assert_eq!(write_coord(&pos, &m), "e3d4&a8=N&k1=R");
    assert_eq!(resolve_coord(&pos, "e3d4&k1=R&a8=N"), Ok(m));
    let pos = play(&pos, "e3d4&a8=N&k1=R");
    assert_eq!(
        write_position(&pos),
        "N1bcmkqfcbnr/1ppppppppppp/2n9/12/3P8/12/1PPP1PPPPPPP/RNBCMKQFCBrR b - - 0 40 -"
    );
    assert_eq!(
        pos.piece_at(sq("k1")),
        Some(Piece {
            color: Color::Black,
            kind: kind('R')
        })
    );
}

#[test]
fn r_cs_6_king_may_not_capture_next_to_the_promoted_piece() {
    // Black's e1 pawn is blocked; the white king, checked by the Fool on f2,
    // may not take it: e1 would become a Fool attacking f2.
    let pos = read("rnbcmkq1cbnr/pppp1ppppppp/12/12/12/5K6/5f6/4p7 w - - 0 40 e1:0");
    assert!(pos.is_check());
    assert_eq!(
        error(&pos, "f3f2"),
        "it would leave the king attacked (R-0-1)"
    );
    assert_eq!(legal(&pos), strs(&["f3e4", "f3f4", "f3g4"]));
}

#[test]
fn r_cs_4_black_pawn_waits_and_promotes_with_check() {
    // Black has lost its a8 Rook; its c-pawn arrives on c1.
    let pos = read("1nbcmkqfcbnr/pppppppppp2/12/12/12/12/2p9/5K6 b - - 0 30 -");
    let pos = play(&pos, "c2c1");
    assert_eq!(waiting(&pos), "c1:2");
    // The white king may stand next to it; it cannot take it.
    assert_eq!(
        moves_from(&pos, "f1"),
        strs(&["f1e1", "f1e2", "f1f2", "f1g1", "f1g2"])
    );
    let pos = play(&pos, "f1g1 a7a6");
    assert_eq!(waiting(&pos), "c1:1");
    let pos = play(&pos, "g1f1");
    assert_eq!(waiting(&pos), "c1:1");
    // The only lost type needs no suffix.
    let m = resolve_coord(&pos, "a6a5").expect("legal");
    assert_eq!(write_coord(&pos, &m), "a6a5&c1=R");
    let pos = play(&pos, "a6a5");
    assert_eq!(
        write_position(&pos),
        "1nbcmkqfcbnr/1ppppppppp2/12/p11/12/12/12/2r2K6 w - - 0 33 -"
    );
    assert!(pos.is_check());
}

#[test]
fn r_cs_3_position_string_waiting_field() {
    let full = "2P5k3/12/12/12/12/12/PP1PPPPPPPPP/RNBCMKQFCBNR w - - 0 30";
    // A pawn on its last rank must be listed as waiting.
    let e = read_position(variant(), &format!("{full} -")).unwrap_err();
    assert_eq!(e.field, FenField::Board, "{e}");
    for turns in 0..=2 {
        let pos = read(&format!("{full} c8:{turns}"));
        assert_eq!(pos.waiting_pawns(), c8_waiting(turns).as_slice());
        assert_round_trip(&pos);
    }
    let e = read_position(variant(), &format!("{full} c8:3")).unwrap_err();
    assert_eq!(e.field, FenField::Waiting, "{e}");
    // Blocked although a Knight is lost: impossible (R-CS-6).
    let e = read_position(
        variant(),
        "2P5k3/12/12/12/12/12/PP1PPPPPPPPP/RNBCMKQFCB1R w - - 0 30 c8:0",
    )
    .unwrap_err();
    assert_eq!(e.field, FenField::Waiting, "{e}");
    assert!(e.message.contains("R-CS-6"), "{e}");
    // Two pawns of one side cannot have arrived on the same move.
    let e = read_position(
        variant(),
        "2P1P5k1/12/12/12/12/12/PP1P1PPPPPPP/RNBCMKQFCB1R w - - 0 30 c8:2,e8:2",
    )
    .unwrap_err();
    assert_eq!(e.field, FenField::Waiting, "{e}");
    // Different turns left mean different positions.
    assert_ne!(
        read(&format!("{full} c8:2")).key(),
        read(&format!("{full} c8:1")).key()
    );
    assert_ne!(read(&format!("{full} c8:1")), read(&format!("{full} c8:0")));
}
