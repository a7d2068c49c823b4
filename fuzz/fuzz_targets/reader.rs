//! The game reader on arbitrary bytes: splitting, decoding, parsing and
//! replay never panic or hang; a game that replays writes canonical XPGN
//! that reads back to the same text when written again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::notation::pgn::parse_game;
use xpgn::notation::reader::read_games;
use xpgn::notation::replay::replay;
use xpgn::notation::writer::{MoveNotation, write_game};

fuzz_target!(|data: &[u8]| {
    for item in read_games(data) {
        let Ok((_, Ok(game))) = item else {
            continue;
        };
        let _ = replay(&game);
        if let Ok(text) = write_game(&game, MoveNotation::San) {
            let back = parse_game(&text, 1).expect("written games parse");
            assert_eq!(write_game(&back, MoveNotation::San).ok(), Some(text));
        }
    }
});
