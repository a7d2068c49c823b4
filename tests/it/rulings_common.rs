//! The common rulings R-0-1..R-0-5 (docs/rules.md), across the variants, and
//! orthodox special cases (en passant, promotion, castling conditions).

use crate::common;

use common::{
    assert_round_trip, error, fen, is_legal, legal, legal_from, piece, play, sq, start, strs,
    variant,
};
use xpgn::notation::coord::{CoordError, resolve_coord};
use xpgn::notation::position::{read_position, write_position};
use xpgn::rules::{Color, Ending, MoveKind, Outcome, Position, Square};

// ---- helpers -------------------------------------------------------------

const ALL: [&str; 8] = [
    "chess",
    "counsellor",
    "royal",
    "chaturanga",
    "courier-spiel",
    "chancellor",
    "chancellor-crosswise",
    "kings-leap",
];

fn chess(text: &str) -> Position {
    fen("chess", text)
}

/// A board field for `v` with the given pieces (`("a8", 'k')`).
fn board(v: &str, pieces: &[(&str, char)]) -> String {
    let size = variant(v).size();
    let mut ranks = Vec::new();
    for r in (0..size.ranks).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for f in 0..size.files {
            let here = pieces
                .iter()
                .find(|(name, _)| sq(name) == Square::new(f, r));
            match here {
                Some((_, l)) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(*l);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    ranks.join("/")
}

/// The extra fields (all empty) that `v`'s position strings carry.
fn extras(v: &str) -> &'static str {
    match v {
        "counsellor" | "royal" | "chaturanga" | "courier-spiel" | "kings-leap" => " -",
        _ => "",
    }
}

/// A position of `v` with no castling, no en passant, no extra state.
fn plain(v: &str, turn: char, pieces: &[(&str, char)]) -> Position {
    let text = format!("{} {turn} - - 0 1{}", board(v, pieces), extras(v));
    fen(v, &text)
}

/// The last file letter of `v`'s board.
fn last_file(v: &str) -> char {
    (b'a' + variant(v).size().files - 1) as char
}

// ---- R-0-1 the king is royal, nothing else is ------------------------------------

#[test]
fn r_0_1_fool_may_be_left_en_prise() {
    // Courier-Spiel: the Fool on f3 is attacked by the Rook on l3; White is not in check.
    let pos = fen("courier-spiel", "11k/12/12/12/12/5F5r/12/K11 w - - 0 1 -");
    assert!(pos.is_attacked(sq("f3"), Color::Black));
    assert!(!pos.is_check());
    assert_eq!(
        legal(&pos),
        strs(&[
            "a1a2", "a1b1", "a1b2", // king moves leave the Fool en prise
            "f3e2", "f3f2", "f3g2", "f3e3", "f3g3", "f3e4", "f3f4", "f3g4",
        ])
    );
    // f3-g3 keeps it on the attacked rank: still legal.
    let after = play(&pos, "f3g3");
    assert!(after.is_attacked(sq("g3"), Color::Black));
    let after = play(&pos, "a1b1");
    assert!(is_legal(&after, "l3f3"));
}

#[test]
fn r_0_1_counsellor_may_stand_attacked() {
    let pos = fen("counsellor", "11k/12/12/12/12/5C5r/12/K11 w - - 0 1 -");
    assert!(!pos.is_check());
    assert_eq!(legal(&pos).len(), 11);
    assert!(is_legal(&pos, "a1a2"));
    assert!(is_legal(&pos, "f3g3"));
    // Every square of the Counsellor attacked, the king free: no mate, no stalemate.
    let trapped = fen(
        "counsellor",
        "6r4k/12/12/12/4r1r5/5C6/4r1r5/K11 w - - 0 1 -",
    );
    assert!(!trapped.is_check());
    assert_eq!(trapped.outcome(), None);
    assert!(
        is_legal(&trapped, "f3e3"),
        "it may even step onto an attacked square"
    );
}

#[test]
fn r_0_1_fool_may_step_next_to_enemy_king_and_gives_check() {
    let pos = fen("courier-spiel", "12/12/12/12/5k6/12/5F6/K11 w - - 0 1 -");
    // Next to the Black king: legal for the Fool, not for the King.
    assert_eq!(
        legal_from(&pos, "f2"),
        strs(&[
            "f2e1", "f2f1", "f2g1", "f2e2", "f2g2", "f2e3", "f2f3", "f2g3"
        ])
    );
    let after = play(&pos, "f2f3");
    assert!(
        after.is_check(),
        "a non-royal king-mover attacks like a king"
    );
    assert!(is_legal(&after, "f4f3"));
    let kings = fen("courier-spiel", "12/12/12/12/5k6/12/5K6/12 w - - 0 1 -");
    assert_eq!(
        legal(&kings),
        strs(&["f2e1", "f2f1", "f2g1", "f2e2", "f2g2"])
    );
    assert_eq!(
        error(&kings, "f2f3"),
        "it would leave the king attacked (R-0-1)"
    );
}

#[test]
fn r_0_1_no_move_may_leave_the_king_attacked() {
    // The Fool on a2 shields the King from the Rook on a8.
    let pos = fen("courier-spiel", "r10k/12/12/12/12/12/F11/K11 w - - 0 1 -");
    assert_eq!(legal(&pos), strs(&["a1b1", "a1b2", "a2a3"]));
    assert_eq!(
        error(&pos, "a2b2"),
        "it would leave the king attacked (R-0-1)"
    );
    // In check, only moves that end it.
    let pos = fen("chess", "4k3/8/8/8/8/8/3P4/r3K3 w - - 0 1");
    assert!(pos.is_check());
    assert_eq!(legal(&pos), strs(&["e1e2", "e1f2"]));
    assert_eq!(
        error(&pos, "d2d3"),
        "it would leave the king attacked (R-0-1)"
    );
}

#[test]
fn r_0_1_position_strings() {
    // A non-royal piece of the side not to move may be attacked ...
    fen("courier-spiel", "11k/12/12/12/12/5f6/12/K4R6 w - - 0 1 -");
    fen("counsellor", "11k/12/12/12/12/5c6/12/K4R6 w - - 0 1 -");
    // ... its King may not.
    let e = read_position(
        variant("courier-spiel"),
        "11k/12/12/12/12/12/12/K10R w - - 0 1 -",
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("the side not to move is in check (R-0-1)"),
        "{e}"
    );
    // Exactly one King each; a Fool is no substitute.
    let e = read_position(
        variant("courier-spiel"),
        "11f/12/12/12/12/12/12/K11 w - - 0 1 -",
    )
    .unwrap_err();
    assert!(e.to_string().contains("R-0-1"), "{e}");
    let e = read_position(variant("chess"), "4k3/8/8/8/8/8/8/3KK3 w - - 0 1").unwrap_err();
    assert!(e.to_string().contains("R-0-1"), "{e}");
}

// ---- R-0-2 checkmate and stalemate ----------------------------------------------

#[test]
fn r_0_2_checkmate_wins_in_every_variant() {
    for v in ALL {
        let l = last_file(v);
        let k = (l as u8 - 1) as char;
        // Black K a8; White Rooks on the last file of rank 8 and next to it on rank 7.
        let black_mated = plain(
            v,
            'b',
            &[
                ("a8", 'k'),
                (&format!("{l}8"), 'R'),
                (&format!("{k}7"), 'R'),
                (&format!("{l}1"), 'K'),
            ],
        );
        assert!(black_mated.is_check(), "{v}");
        let out = black_mated.outcome();
        assert_eq!(
            out,
            Some(Outcome::Win {
                winner: Color::White,
                by: Ending::Checkmate
            }),
            "{v}"
        );
        assert_eq!(out.unwrap().result(), "1-0");
        let white_mated = plain(
            v,
            'w',
            &[
                ("a1", 'K'),
                (&format!("{l}1"), 'r'),
                (&format!("{k}2"), 'r'),
                (&format!("{l}8"), 'k'),
            ],
        );
        let out = white_mated.outcome();
        assert_eq!(
            out,
            Some(Outcome::Win {
                winner: Color::Black,
                by: Ending::Checkmate
            }),
            "{v}"
        );
        assert_eq!(out.unwrap().result(), "0-1");
        // Take one Rook away: not mate.
        let escape = plain(
            v,
            'b',
            &[
                ("a8", 'k'),
                (&format!("{l}8"), 'R'),
                (&format!("{l}1"), 'K'),
            ],
        );
        assert_eq!(escape.outcome(), None, "{v}");
    }
}

#[test]
fn r_0_2_stalemate_per_variant() {
    for v in ALL {
        let l = last_file(v);
        // Black K a8: b-file Rook covers b8 b7, rank-7 Rook covers a7.
        let pos = plain(
            v,
            'b',
            &[
                ("a8", 'k'),
                ("b1", 'R'),
                (&format!("{l}7"), 'R'),
                (&format!("{l}1"), 'K'),
            ],
        );
        assert!(!pos.is_check(), "{v}");
        assert!(pos.legal_moves().is_empty(), "{v}");
        let expected = match v {
            // R-RO-4: the stalemated player loses.
            "royal" => Outcome::Win {
                winner: Color::White,
                by: Ending::Stalemate,
            },
            // R-CH-7: the stalemated player wins.
            "chaturanga" => Outcome::Win {
                winner: Color::Black,
                by: Ending::Stalemate,
            },
            _ => Outcome::Draw {
                by: Ending::Stalemate,
            },
        };
        assert_eq!(pos.outcome(), Some(expected), "{v}");
        let result = match v {
            "royal" => "1-0",
            "chaturanga" => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(pos.outcome().unwrap().result(), result, "{v}");
    }
}

#[test]
fn r_0_2_game_fools_mate() {
    let pos = play(&start("chess"), "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(
        write_position(&pos),
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    );
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            by: Ending::Checkmate
        })
    );
    // One ply earlier the game was not over.
    assert_eq!(play(&start("chess"), "f2f3 e7e5 g2g4").outcome(), None);
}

#[test]
fn r_0_2_game_stalemate_is_a_draw_in_chess() {
    // Sam Loyd's ten-move stalemate.
    let pos = play(
        &start("chess"),
        "e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 \
         b8c8 f7g6 c8e6",
    );
    assert_eq!(
        write_position(&pos),
        "5bnr/4p1pq/4Qpkr/7p/7P/4P3/PPPP1PP1/RNB1KBNR b KQ - 2 10"
    );
    assert!(!pos.is_check());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Draw {
            by: Ending::Stalemate
        })
    );
}

// ---- R-0-3 only mate and stalemate are adjudicated -----------------------------------

#[test]
fn r_0_3_other_endings_are_not_adjudicated() {
    for v in ALL {
        // Bare kings, a huge halfmove clock: the position itself does not end the game.
        let l = last_file(v);
        let text = format!(
            "{} w - - 150 90{}",
            board(v, &[("a1", 'K'), (&format!("{l}8"), 'k')]),
            extras(v)
        );
        let pos = fen(v, &text);
        assert_eq!(pos.outcome(), None, "{v}");
        assert_eq!(pos.halfmove_clock(), 150);
        assert_round_trip(&pos);
    }
    // Threefold repetition by knight shuffles: still no outcome.
    let start = start("chess");
    let pos = play(&start, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(pos.outcome(), None);
    assert_eq!(legal(&pos), legal(&start));
    assert_eq!(pos.key(), start.key(), "the same position, repeated");
    assert_eq!(
        write_position(&pos),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5"
    );
}

#[test]
fn r_0_3_mate_and_stalemate_imply_one_result() {
    // The result a final position implies: mate for the mater, stalemate as the variant says.
    let mate = chess("k6R/6R1/8/8/8/8/8/6K1 b - - 0 1");
    assert_eq!(mate.outcome().map(|o| o.result()), Some("1-0"));
    let stalemate = chess("k7/7R/8/8/8/8/8/1R4K1 b - - 0 1");
    assert_eq!(stalemate.outcome().map(|o| o.result()), Some("1/2-1/2"));
    let going_on = chess("k7/7R/8/8/8/8/8/2R3K1 b - - 0 1");
    assert_eq!(going_on.outcome(), None);
}

// ---- R-0-4 pawns ---------------------------------------------------------------

#[test]
fn r_0_4_double_step_from_start_rank_only() {
    let pos = start("chess");
    assert_eq!(legal_from(&pos, "e2"), strs(&["e2e3", "e2e4"]));
    let m = resolve_coord(&pos, "e2e4").unwrap();
    assert_eq!(m.kind(), MoveKind::DoubleStep);
    let after = pos.play(&m).unwrap();
    assert_eq!(
        write_position(&after),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    // Not from the third rank.
    let pos = play(&pos, "e2e3 a7a6");
    assert_eq!(legal_from(&pos, "e3"), strs(&["e3e4"]));
    assert_eq!(
        error(&pos, "e3e5"),
        "the Pawn on e3 cannot reach e5 (R-0-4)"
    );
    // Blocked on the first or the second square.
    let pos = chess("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1");
    assert!(legal_from(&pos, "e2").is_empty());
    let pos = chess("4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1");
    assert_eq!(legal_from(&pos, "e2"), strs(&["e2e3"]));
    // The other variants with orthodox pawns double-step too (not Chaturanga, R-CH-3).
    for v in ALL {
        let double = legal(&start(v))
            .iter()
            .any(|m| m.ends_with('4') && m.as_bytes()[1] == b'2');
        assert_eq!(double, v != "chaturanga", "{v}");
    }
}

#[test]
fn r_0_4_en_passant_only_at_once() {
    let pos = play(&start("chess"), "e2e4 a7a6 e4e5 d7d5");
    assert_eq!(pos.ep_square(), Some(sq("d6")));
    let m = resolve_coord(&pos, "e5d6").unwrap();
    assert_eq!(m.kind(), MoveKind::EnPassant);
    let after = pos.play(&m).unwrap();
    assert_eq!(after.piece_at(sq("d5")), None, "the pawn taken in passing");
    assert_eq!(after.piece_at(sq("d6")), piece("chess", Color::White, 'P'));
    assert_eq!(
        write_position(&after),
        "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    );
    // One move later the chance is gone.
    let later = play(&pos, "h2h3 h7h6");
    assert_eq!(later.ep_square(), None);
    assert_eq!(
        error(&later, "e5d6"),
        "the Pawn on e5 cannot reach d6 (R-0-4)"
    );
    // Two single steps give no en passant.
    let steps = play(&start("chess"), "e2e4 d7d6 e4e5 d6d5");
    assert!(!is_legal(&steps, "e5d6"));
    // A position string may not claim one either.
    let e = read_position(
        variant("chess"),
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 3",
    )
    .unwrap_err();
    assert!(
        e.to_string().ends_with(
            "en passant square does not follow a double step of the side that just moved (R-0-4)"
        ),
        "{e}"
    );
}

#[test]
fn r_0_4_en_passant_special_cases() {
    // Taking in passing would expose the King along the rank: illegal.
    let pinned = chess("4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2");
    assert_eq!(legal_from(&pinned, "b5"), strs(&["b5b6"]));
    assert_eq!(
        error(&pinned, "b5c6"),
        "it would leave the king attacked (R-0-1)"
    );
    // Taking the checking pawn in passing ends the check.
    let check = chess("4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2");
    assert!(check.is_check());
    assert!(is_legal(&check, "e5d6"));
    assert_eq!(
        write_position(&play(&check, "e5d6")),
        "4k3/8/3P4/8/4K3/8/8/8 b - - 0 2"
    );
    // An en passant square that no double step explains is rejected.
    for text in [
        "4k3/8/8/3pP3/8/8/8/4K3 w - e6 0 2",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 2",
        "4k3/3p4/8/4P3/8/8/8/4K3 w - d6 0 2",
    ] {
        let e = read_position(variant("chess"), text).unwrap_err();
        assert!(e.to_string().contains("en-passant"), "{text}: {e}");
    }
}

#[test]
fn r_0_4_promotion_mandatory() {
    let pos = chess("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        legal_from(&pos, "a7"),
        strs(&[
            "a7a8b", "a7a8n", "a7a8q", "a7a8r", "a7b8b", "a7b8n", "a7b8q", "a7b8r"
        ])
    );
    match resolve_coord(&pos, "a7a8") {
        Err(CoordError::Ambiguous(msg)) => {
            assert_eq!(msg, "a promotion letter is needed: one of q, r, b, n")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        error(&pos, "a7a8k"),
        "this pawn may promote only to q, r, b, n here (R-0-4)"
    );
    assert_eq!(
        error(&pos, "a7a8p"),
        "this pawn may promote only to q, r, b, n here (R-0-4)"
    );
    let after = play(&pos, "a7b8n");
    assert_eq!(write_position(&after), "1N2k3/8/8/8/8/8/8/4K3 b - - 0 1");
    // An under-promotion that checks where the Queen would not.
    let pos = chess("8/5P1k/8/8/8/8/8/K7 w - - 0 1");
    assert!(play(&pos, "f7f8n").is_check());
    assert!(!play(&pos, "f7f8q").is_check());
    // No pawn may stand on its last (or first) rank.
    for text in [
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2p w - - 0 1",
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
    ] {
        let e = read_position(variant("chess"), text).unwrap_err();
        assert!(e.to_string().contains("R-0-4"), "{text}: {e}");
    }
}

// ---- R-0-5 castling (orthodox chess; Chancellor Chess in rulings_chancellor.rs) -------

const OPEN: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

#[test]
fn r_0_5_castling_both_sides() {
    let pos = chess(OPEN);
    assert_eq!(
        legal_from(&pos, "e1"),
        strs(&["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"])
    );
    let m = resolve_coord(&pos, "e1g1").unwrap();
    assert!(m.is_castle());
    // King and rook in one ply.
    let short = pos.play(&m).unwrap();
    assert_eq!(write_position(&short), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    assert_eq!(short.turn(), Color::Black);
    assert_eq!(
        write_position(&play(&pos, "e1c1")),
        "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1"
    );
    let black = chess("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_eq!(
        write_position(&play(&black, "e8g8")),
        "r4rk1/8/8/8/8/8/8/R3K2R w KQ - 1 2"
    );
    assert_eq!(
        write_position(&play(&black, "e8c8")),
        "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 1 2"
    );
}

#[test]
fn r_0_5_game_castling_from_start() {
    let pos = play(
        &start("chess"),
        "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 d2d3 e8g8",
    );
    assert_eq!(
        write_position(&pos),
        "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 w - - 1 6"
    );
    assert_round_trip(&pos);
}

#[test]
fn r_0_5_not_in_check() {
    let pos = chess("r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1");
    assert!(pos.is_check());
    assert!(!is_legal(&pos, "e1g1") && !is_legal(&pos, "e1c1"));
    assert_eq!(
        error(&pos, "e1g1"),
        "castling O-O is not possible: the king is in check (R-0-5)"
    );
}

#[test]
fn r_0_5_king_path_not_attacked() {
    // (black rook's file on rank 4, O-O legal, O-O-O legal)
    for (file, short, long) in [
        ('f', false, true),
        ('g', false, true),
        ('d', true, false),
        ('c', true, false),
        ('b', true, true), // only the rook passes b1
        ('a', true, true), // the rook itself attacked
        ('h', true, true),
    ] {
        let f = file as u8 - b'a';
        let rank4 = format!(
            "{}r{}",
            if f > 0 { f.to_string() } else { String::new() },
            if f < 7 {
                (7 - f).to_string()
            } else {
                String::new()
            }
        );
        let text = format!("4k3/8/8/8/{rank4}/8/8/R3K2R w KQ - 0 1");
        let pos = chess(&text);
        assert_eq!(is_legal(&pos, "e1g1"), short, "{text}");
        assert_eq!(is_legal(&pos, "e1c1"), long, "{text}");
        if !short {
            assert_eq!(
                error(&pos, "e1g1"),
                format!("castling O-O is not possible: {file}1 is attacked (R-0-5)")
            );
        }
        if !long {
            assert_eq!(
                error(&pos, "e1c1"),
                format!("castling O-O-O is not possible: {file}1 is attacked (R-0-5)")
            );
        }
    }
}

#[test]
fn r_0_5_squares_between_empty() {
    let pos = chess("4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1");
    assert_eq!(
        error(&pos, "e1c1"),
        "castling O-O-O is not possible: b1 is not empty (R-0-5)"
    );
    assert_eq!(
        error(&pos, "e1g1"),
        "castling O-O is not possible: g1 is not empty (R-0-5)"
    );
    // Once the Knights have left (and the Black king came back), both are legal.
    let pos = play(&pos, "b1c3 e8e7 g1f3 e7e8");
    assert!(is_legal(&pos, "e1c1") && is_legal(&pos, "e1g1"));
    let pos = chess("4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1");
    assert!(is_legal(&pos, "e1c1") && !is_legal(&pos, "e1g1"));
}

#[test]
fn r_0_5_rights_lost_for_good() {
    let pos = chess(OPEN);
    let k = play(&pos, "e1e2 e8d8 e2e1 d8e8");
    assert_eq!(write_position(&k), "r3k2r/8/8/8/8/8/8/R3K2R w - - 4 3");
    assert_eq!(
        error(&k, "e1g1"),
        "castling O-O is not possible: the king has moved (R-0-5)"
    );
    let r = play(&pos, "h1h2 a8a7 h2h1 a7a8");
    assert_eq!(write_position(&r), "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 4 3");
    assert_eq!(
        error(&r, "e1g1"),
        "castling O-O is not possible: the Rook from h1 has moved or was captured (R-0-5)"
    );
    assert!(is_legal(&r, "e1c1"));
    // Rook takes rook in the corner: both lose that side.
    let x = play(&pos, "a1a8");
    assert_eq!(write_position(&x), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
    assert_round_trip(&x);
    // A rook captured on h1 (by the Bishop from g2).
    let x = play(&chess("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1"), "g2h1");
    assert_eq!(write_position(&x), "r3k2r/8/8/8/8/8/8/R3K2b w Qkq - 0 2");
    assert!(!x.is_check());
    assert_eq!(
        error(&x, "e1g1"),
        "castling O-O is not possible: the Rook from h1 has moved or was captured (R-0-5)"
    );
    assert!(is_legal(&x, "e1c1"));
    assert_round_trip(&x);
    // The castling field must fit the pieces.
    let e = read_position(variant("chess"), "4k3/8/8/8/8/8/8/R3K3 w K - 0 1").unwrap_err();
    assert!(e.to_string().contains("castling"), "{e}");
    assert!(e.to_string().contains("R-0-5"), "{e}");
}
