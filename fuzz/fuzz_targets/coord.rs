//! Coordinate moves against positions reached by fuzzer-chosen legal
//! games: resolving never panics, and a resolved move writes back to text
//! that resolves to the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::notation::coord::{resolve_coord, write_coord};
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
    if let Ok(m) = resolve_coord(&pos, text) {
        assert!(pos.legal_moves().contains(&m));
        let written = write_coord(&pos, &m);
        assert_eq!(resolve_coord(&pos, &written), Ok(m));
    }
});
