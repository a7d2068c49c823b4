//! Round trips over random legal games of every variant produced by the
//! rules core: position string -> position -> string, coordinate move ->
//! move -> text, and position keys equal exactly when positions are.

use proptest::prelude::*;
use xpgn::notation::coord::{resolve_coord, write_coord};
use xpgn::notation::position::{read_position, write_position};
use xpgn::rules::{Position, Variant};

/// Plays `choices` (indices into the legal move list) from the start.
fn random_game(variant: Variant, choices: &[usize]) -> Vec<Position> {
    let mut pos = Position::start(&variant);
    let mut out = vec![pos.clone()];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(&moves[c % moves.len()]);
        out.push(pos.clone());
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn position_strings_and_moves_round_trip(
        v in 0..Variant::builtin().len(),
        choices in prop::collection::vec(any::<usize>(), 0..120),
    ) {
        let variant = Variant::builtin()[v].clone();
        for pos in random_game(variant.clone(), &choices) {
            let text = write_position(&pos);
            let back = read_position(&variant, &text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            prop_assert_eq!(&write_position(&back), &text);
            prop_assert_eq!(back.key(), pos.key());
            prop_assert_eq!(back.legal_moves(), pos.legal_moves());
            for m in pos.legal_moves() {
                let coord = write_coord(&pos, &m);
                let parsed = resolve_coord(&pos, &coord);
                prop_assert_eq!(parsed, Ok(m), "{} in {}", coord, text);
            }
        }
    }
}

#[test]
fn transpositions_share_a_key_and_other_states_do_not() {
    let play = |v: &str, moves: &str| {
        let mut pos = Position::start(Variant::by_name(v).unwrap());
        for m in moves.split_whitespace() {
            let mv = resolve_coord(&pos, m).unwrap();
            pos.play_unchecked(&mv);
        }
        pos
    };
    let a = play("chess", "g1f3 g8f6 b1c3 b8c6");
    let b = play("chess", "b1c3 b8c6 g1f3 g8f6");
    assert_eq!(a.key(), b.key());
    // Same pieces, but the castling rights differ.
    let c = play("chess", "g1f3 g8f6 h1g1 h8g8 g1h1 g8h8");
    let d = play("chess", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6");
    assert_eq!(
        write_position(&c).split(' ').next(),
        write_position(&d).split(' ').next()
    );
    assert_ne!(c.key(), d.key());
    // En passant counts only when a capture is possible.
    let e = play("chess", "e2e4 g8f6 e4e5 d7d5");
    let f = play("chess", "e2e4 g8f6 e4e5 d7d6 g1f3 d6d5 f3g1");
    assert_eq!(e.to_setup().board, f.to_setup().board);
    assert_ne!(e.key(), f.key());
    let g = play("chess", "e2e4 e7e5");
    let h = play("chess", "e2e3 e7e6 e3e4 e6e5");
    assert_eq!(g.to_setup().board, h.to_setup().board);
    assert_eq!(g.key(), h.key(), "e6 is written but no capture is possible");
    // The same placement in two variants gives two keys.
    assert_ne!(
        Position::start(Variant::by_name("chancellor").unwrap()).key(),
        Position::start(Variant::by_name("kings-leap").unwrap()).key()
    );
    // Counsellor: the king's stage g1-h1 and back is not the start position.
    let i = play("counsellor", "h2h3 h7h6 h1h2 h8h7 g1h1 g8h8 h1g1 h8g8");
    let j = play("counsellor", "h2h3 h7h6 h1h2 h8h7 k1l3 k8l6 l3k1 l6k8");
    assert_eq!(i.to_setup().board, j.to_setup().board);
    assert_ne!(i.key(), j.key());
}

/// Georgian chess has double steps but no en passant: its position
/// strings give no en passant square, and read back.
#[test]
fn a_variant_without_en_passant_writes_no_en_passant_square() {
    let georgian = Variant::by_name("georgian").unwrap();
    let mut pos = Position::start(&georgian);
    let m = resolve_coord(&pos, "e2e4").unwrap();
    pos.play_unchecked(&m);
    let text = write_position(&pos);
    assert_eq!(
        text,
        "rnbakbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBAKBNR b - - 0 1"
    );
    assert_eq!(
        write_position(&read_position(&georgian, &text).unwrap()),
        text
    );
}
