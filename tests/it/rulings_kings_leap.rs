//! King's Leap Chess: the king's leap R-KL-1 (setup and pieces as in
//! Paulowich's Chancellor Chess, no castling).

use crate::common;

use common::{
    assert_round_trip_with_king_rights as assert_round_trip, error, is_legal, king_rights_field,
    legal, legal_from, play, sq, strs,
};
use xpgn::notation::coord::{resolve_coord, write_coord};
use xpgn::notation::position::{read_position, write_position};
use xpgn::rules::{Color, Illegality, MoveKind, Position, Variant};

// ---- helpers -------------------------------------------------------------

common::bind_variant!("kings-leap": kings_leap = variant, fen, start, piece);

// ---- setup -------------------------------------------------------------------

#[test]
fn r_kl_1_setup_as_chancellor_without_castling() {
    let pos = start();
    assert_eq!(
        write_position(&pos),
        "cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w - - 0 1 Kk"
    );
    assert_round_trip(&pos);
    // The chancellor start moves plus the leap e1-e3 over the e2 pawn; c1 and
    // g1 are occupied.
    let chancellor = Position::start(Variant::by_name("chancellor").unwrap());
    let mut expected = legal(&chancellor);
    expected.push("e1e3".into());
    expected.sort();
    assert_eq!(legal(&pos), expected);
    assert_eq!(legal(&pos).len(), 22);
}

// ---- the leap's geometry --------------------------------------------------------

#[test]
fn r_kl_1_leap_exactly_two_along_rank_or_file() {
    let pos = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Kk");
    assert_eq!(
        legal(&pos),
        strs(&[
            "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1c1", "e1g1", "e1e3"
        ])
    );
    for m in pos.legal_moves() {
        let two = m.from().file().abs_diff(m.to().file()) == 2
            || m.from().rank().abs_diff(m.to().rank()) == 2;
        assert_eq!(
            m.kind() == MoveKind::SpecialKing,
            two,
            "{}",
            write_coord(&pos, &m)
        );
    }
    // Not diagonal, not three squares, not a knight's move.
    for bad in [
        "e1c3", "e1g3", "e1e4", "e1b1", "e1d3", "e1f3", "e1c2", "e1g2",
    ] {
        assert_eq!(
            error(&pos, bad),
            format!("the King on e1 cannot reach {}", &bad[2..])
        );
    }
    // Black leaps from e8 to c8, g8, e6.
    let black = fen("4k3/8/8/8/8/8/8/4K3 b - - 0 1 Kk");
    assert_eq!(
        legal(&black),
        strs(&[
            "e8d8", "e8d7", "e8e7", "e8f8", "e8f7", "e8c8", "e8g8", "e8e6"
        ])
    );
}

#[test]
fn r_kl_1_leap_over_friendly_piece_allowed() {
    // Over the Rook (d1), the Bishop (f1) and the pawn (e2).
    let pos = fen("4k3/8/8/8/8/8/4P3/3RKB2 w - - 0 1 K");
    assert_eq!(
        legal_from(&pos, "e1"),
        strs(&["e1c1", "e1d2", "e1e3", "e1f2", "e1g1"])
    );
    let after = play(&pos, "e1c1");
    assert_eq!(
        after.piece_at(sq("d1")),
        piece(Color::White, 'R'),
        "the Rook stays"
    );
    assert_eq!(
        write_position(&after),
        "4k3/8/8/8/8/8/4P3/2KR1B2 b - - 1 1 -"
    );
}

#[test]
fn r_kl_1_leap_over_enemy_piece_forbidden() {
    let friend = fen("4k3/8/8/8/8/8/4N3/4K3 w - - 0 1 K");
    assert!(is_legal(&friend, "e1e3"));
    // The same with a Black knight on e2 (it covers c1 and g1 too).
    let enemy = fen("4k3/8/8/8/8/8/4n3/4K3 w - - 0 1 K");
    assert!(!enemy.is_check());
    assert!(
        !enemy.is_attacked(sq("e2"), Color::Black),
        "e2 itself is not attacked"
    );
    assert!(!enemy.is_attacked(sq("e3"), Color::Black), "nor is e3");
    assert_eq!(
        legal(&enemy),
        strs(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"])
    );
    // Over an enemy Bishop on d1: c1 is safe, still no leap.
    let bishop = fen("4k3/8/8/8/8/8/8/3bK3 w - - 0 1 K");
    assert!(!bishop.is_attacked(sq("c1"), Color::Black));
    assert!(!is_legal(&bishop, "e1c1"));
    assert!(is_legal(&bishop, "e1g1") && is_legal(&bishop, "e1d1"));
}

#[test]
fn r_kl_1_leap_to_empty_square_only() {
    // e3 holds an undefended Black pawn (it covers d2 and f2): no capturing leap.
    let pos = fen("4k3/8/8/8/8/4p3/8/4K3 w - - 0 1 K");
    assert_eq!(legal(&pos), strs(&["e1c1", "e1d1", "e1e2", "e1f1", "e1g1"]));
    // An own piece on the target.
    let own = fen("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1 K");
    assert!(!is_legal(&own, "e1g1"));
    assert_eq!(error(&own, "e1g1"), "g1 holds a piece of the side to move");
}

#[test]
fn r_kl_1_leap_over_attacked_square_forbidden() {
    // The Rook on h2 covers e2 (and d2, f2), not e3: still no e1-e3.
    let pos = fen("4k3/8/8/8/8/8/7r/4K3 w - - 0 1 K");
    assert!(!pos.is_attacked(sq("e3"), Color::Black));
    assert_eq!(legal(&pos), strs(&["e1c1", "e1d1", "e1f1", "e1g1"]));
    // The Rook on d8 covers d1: no e1-c1, though c1 is safe.
    let pos = fen("3rk3/8/8/8/8/8/8/4K3 w - - 0 1 K");
    assert!(!pos.is_attacked(sq("c1"), Color::Black));
    assert_eq!(legal(&pos), strs(&["e1e2", "e1e3", "e1f1", "e1f2", "e1g1"]));
    // A friendly piece on an attacked square does not make it safe.
    let pos = fen("4k3/8/8/1b6/8/8/4P3/4K3 w - - 0 1 K");
    assert!(pos.is_attacked(sq("e2"), Color::Black));
    assert!(!is_legal(&pos, "e1e3"));
    assert!(is_legal(&pos, "e1c1") && is_legal(&pos, "e1g1"));
}

#[test]
fn r_kl_1_forbidden_leap_error_cites_ruling() {
    for (text, mv) in [
        ("4k3/8/8/8/8/8/4n3/4K3 w - - 0 1 K", "e1e3"),
        ("4k3/8/8/8/8/8/7r/4K3 w - - 0 1 K", "e1e3"),
        ("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1 K", "e1g1"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 k", "e1e3"),
    ] {
        let e = error(&fen(text), mv);
        assert!(e.contains("R-KL-1"), "{text} {mv}: {e}");
    }
}

#[test]
fn r_kl_1_not_in_check_before() {
    // The Knight on d3 checks; f1, g1, e2, e3 are all safe, yet no leap.
    let pos = fen("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1 K");
    assert!(pos.is_check());
    for s in ["f1", "g1", "e2", "e3"] {
        assert!(!pos.is_attacked(sq(s), Color::Black), "{s}");
    }
    assert_eq!(legal(&pos), strs(&["e1d1", "e1d2", "e1e2", "e1f1"]));
    // Not in check (Knight on a3): the same leaps are there.
    let pos = fen("4k3/8/8/8/8/n7/8/4K3 w - - 0 1 K");
    assert!(!pos.is_check());
    assert!(is_legal(&pos, "e1g1") && is_legal(&pos, "e1e3"));
}

#[test]
fn r_kl_1_not_in_check_after() {
    // e3 covered by the Rook on h3 (e2 safe).
    let pos = fen("4k3/8/8/8/8/7r/8/4K3 w - - 0 1 K");
    assert!(!pos.is_attacked(sq("e2"), Color::Black));
    assert_eq!(
        error(&pos, "e1e3"),
        "it would leave the king attacked (R-0-1)"
    );
    assert_eq!(
        pos.explain_illegal(sq("e1"), sq("e3")),
        Illegality::KingLeftAttacked
    );
    assert!(is_legal(&pos, "e1c1") && is_legal(&pos, "e1g1"));
    // g1 covered by the Bishop on h2 (f1 safe).
    let pos = fen("4k3/8/8/8/8/8/7b/4K3 w - - 0 1 K");
    assert!(!pos.is_attacked(sq("f1"), Color::Black));
    assert!(!is_legal(&pos, "e1g1"));
    assert!(is_legal(&pos, "e1c1") && is_legal(&pos, "e1e3"));
}

// ---- the right ---------------------------------------------------------------

#[test]
fn r_kl_1_leap_ends_the_right() {
    let pos = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Kk");
    let m = resolve_coord(&pos, "e1e3").unwrap();
    assert_eq!(m.kind(), MoveKind::SpecialKing);
    let pos = pos.play(&m).unwrap();
    assert!(!pos.king_right(Color::White) && pos.king_right(Color::Black));
    assert_eq!(write_position(&pos), "4k3/8/8/8/8/4K3/8/8 b - - 1 1 k");
    assert_round_trip(&pos);
    let pos = play(&pos, "e8g8");
    assert_eq!(king_rights_field(&pos), "-");
    // Only ordinary moves from e3.
    assert_eq!(legal(&pos).len(), 8);
    assert!(!is_legal(&pos, "e3e5") && !is_legal(&pos, "e3c3"));
}

#[test]
fn r_kl_1_any_king_move_ends_the_right() {
    let pos = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Kk");
    let pos = play(&pos, "e1e2 e8d8 e2e1 d8e8");
    assert!(!pos.king_right(Color::White) && !pos.king_right(Color::Black));
    assert_eq!(write_position(&pos), "4k3/8/8/8/8/8/8/4K3 w - - 4 3 -");
    assert_eq!(legal(&pos), strs(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]));
    assert_eq!(
        error(&pos, "e1e3"),
        "the king's leap is only possible while the king has never moved (R-KL-1)"
    );
    assert_round_trip(&pos);
    // A king capture is a king move too.
    let pos = fen("4k3/8/8/8/8/8/4p3/4K3 w - - 0 1 Kk");
    let pos = play(&pos, "e1e2");
    assert_eq!(king_rights_field(&pos), "k");
}

#[test]
fn r_kl_1_no_castling() {
    // With f1, g1 empty, e1-g1 is the leap: the Queen stays on h1.
    let pos = fen("c3k2q/8/8/8/8/8/8/C3K2Q w - - 0 1 Kk");
    let m = resolve_coord(&pos, "e1g1").unwrap();
    assert_eq!(m.kind(), MoveKind::SpecialKing);
    let after = pos.play(&m).unwrap();
    assert_eq!(write_position(&after), "c3k2q/8/8/8/8/8/8/C5KQ b - - 1 1 k");
    let after = play(&pos, "e1c1");
    assert_eq!(
        write_position(&after),
        "c3k2q/8/8/8/8/8/8/C1K4Q b - - 1 1 k"
    );
    assert!(pos.castling_sides(Color::White).is_empty());
    assert!(pos.legal_moves().iter().all(|m| !m.is_castle()));
    // A castling field is rejected.
    for field in ["K", "Q", "kq"] {
        let text = format!("c3k2q/8/8/8/8/8/8/C3K2Q w {field} - 0 1 Kk");
        let e = read_position(kings_leap(), &text).unwrap_err();
        assert!(e.to_string().contains("castling"), "{text}: {e}");
    }
}

#[test]
fn r_kl_1_promotions_as_chancellor() {
    let pos = fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 -");
    assert_eq!(
        legal_from(&pos, "a7"),
        strs(&["a7a8b", "a7a8c", "a7a8n", "a7a8q", "a7a8r"])
    );
    assert_eq!(
        error(&pos, "a7a8k"),
        "this pawn may promote only to q, c, r, b, n here (R-PC-1)"
    );
}

// ---- position strings ----------------------------------------------------------

#[test]
fn r_kl_1_king_rights_field() {
    // Without the field: unused exactly where the king stands on e1 / e8.
    let pos = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(king_rights_field(&pos), "Kk");
    let pos = fen("3k4/8/8/8/8/8/4K3/8 w - - 0 1");
    assert_eq!(king_rights_field(&pos), "-");
    // A king on e1 may have lost it (it moved and came back).
    let pos = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 k");
    assert!(!is_legal(&pos, "e1g1"));
    assert_round_trip(&pos);
    // A king elsewhere cannot have it.
    let e = read_position(kings_leap(), "4k3/8/8/8/8/8/4K3/8 w - - 0 1 K").unwrap_err();
    assert!(e.to_string().contains("king-rights"), "{e}");
    assert!(e.to_string().contains("R-KL-1"), "{e}");
}

// ---- whole games -----------------------------------------------------------------

#[test]
fn r_kl_1_game_with_leaps() {
    let pos = play(&start(), "g1f3 g8f6 g2g3 g7g6 f1g2 f8g7");
    assert_eq!(legal_from(&pos, "e1"), strs(&["e1e3", "e1f1", "e1g1"]));
    let pos = play(&pos, "e1g1");
    assert_eq!(
        pos.piece_at(sq("h1")),
        piece(Color::White, 'Q'),
        "no castling: the Queen stays"
    );
    assert_eq!(
        write_position(&pos),
        "cnbrk2q/ppppppbp/5np1/8/8/5NP1/PPPPPPBP/CNBR2KQ b - - 3 4 k"
    );
    assert_round_trip(&pos);
    let pos = play(&pos, "e8g8");
    assert_eq!(
        write_position(&pos),
        "cnbr2kq/ppppppbp/5np1/8/8/5NP1/PPPPPPBP/CNBR2KQ w - - 4 5 -"
    );
    assert_round_trip(&pos);
}

#[test]
fn r_kl_1_game_right_lost_after_ordinary_king_move() {
    // Kings step out and back: no leap afterwards.
    let lost = play(&start(), "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8");
    assert_eq!(
        write_position(&lost),
        "cnbrkbnq/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/CNBRKBNQ w - - 4 4 -"
    );
    assert!(!is_legal(&lost, "e1e3"));
    assert_round_trip(&lost);
    // Knights step out and back instead: the leap e1-e3 is still there.
    let kept = play(&start(), "e2e4 e7e5 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(king_rights_field(&kept), "Kk");
    assert_eq!(
        write_position(&play(&kept, "e1e3")),
        "cnbrkbnq/pppp1ppp/8/4p3/4P3/4K3/PPPP1PPP/CNBR1BNQ b - - 5 4 k"
    );
}
