//! Position strings: reading never panics, and whatever reads back writes
//! the same string and the same legal moves (parse -> write -> parse).
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::notation::position::{read_position, write_position};
use xpgn::rules::Variant;

fuzz_target!(|data: &[u8]| {
    let Some((&v, rest)) = data.split_first() else {
        return;
    };
    let variants = Variant::builtin();
    let variant = &variants[v as usize % variants.len()];
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if let Ok(pos) = read_position(variant, text) {
        let written = write_position(&pos);
        let back = read_position(variant, &written).expect("written strings read back");
        assert_eq!(write_position(&back), written);
        assert_eq!(back.legal_moves(), pos.legal_moves());
        assert_eq!(back.key(), pos.key());
        let _ = pos.outcome();
    }
});
