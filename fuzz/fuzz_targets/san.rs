//! SAN against positions reached by fuzzer-chosen legal games: parsing and
//! resolving never panic; the move reader and `parse_san` read a SAN
//! token alike (the crate's property tests hold the move reader to the
//! grammar); a resolved move writes back to SAN that resolves to the same
//! move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::notation::pgn::{AnyMove, parse_any_move};
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
    let any = parse_any_move(text);
    let Ok(token) = parse_san(text) else {
        return;
    };
    if let Some((AnyMove::San(san), check, suffix)) = any {
        assert_eq!((&token.san, token.check, token.suffix_nag), (&san, check, suffix), "{text}");
    }
    if let Ok(m) = resolve_san(&pos, &token.san) {
        assert!(pos.legal_moves().contains(&m));
        let written = write_san(&pos, &m);
        let again = parse_san(&written).expect("written SAN parses");
        assert_eq!(resolve_san(&pos, &again.san), Ok(m), "{written}");
    }
});
