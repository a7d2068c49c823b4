//! SAN against positions reached by fuzzer-chosen legal games: parsing and
//! resolving never panic; the reader's byte-level path for common moves
//! reads every token as the nom grammar does; a resolved move writes back
//! to SAN that resolves to the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::notation::pgn::{parse_any_move, parse_any_move_by_grammar};
use xpgn::notation::san::{parse_san, resolve_san, write_san};
use xpgn::rules::{Position, Variant};

fuzz_target!(|data: &[u8]| {
    let Some((&v, rest)) = data.split_first() else {
        return;
    };
    let variants = Variant::builtin();
    let mut pos = Position::start(&variants[v as usize % variants.len()]);
    let split = rest.iter().position(|&b| b == 0xff).unwrap_or(rest.len());
    for &choice in &rest[..split] {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return;
        }
        pos.play_unchecked(&moves[choice as usize % moves.len()]);
    }
    let Ok(text) = std::str::from_utf8(rest.get(split + 1..).unwrap_or_default()) else {
        return;
    };
    assert_eq!(parse_any_move(text), parse_any_move_by_grammar(text), "{text}");
    let Ok(token) = parse_san(text) else {
        return;
    };
    if let Ok(m) = resolve_san(&pos, &token.san) {
        assert!(pos.legal_moves().contains(&m));
        let written = write_san(&pos, &m);
        let again = parse_san(&written).expect("written SAN parses");
        assert_eq!(resolve_san(&pos, &again.san), Ok(m), "{written}");
    }
});
