//! The game reader on arbitrary bytes: splitting, decoding, parsing and
//! replay never panic or hang; a game that replays writes canonical XPGN
//! that reads back to the same text when written again; an invalid game
//! written in its safe form reads back as its original bytes; validating
//! while reading says what reading a tree and replaying it says.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xpgn::notation::pgn::parse_game;
use xpgn::notation::reader::read_games;
use xpgn::notation::replay::check_game;
use xpgn::notation::validation::validate;
use xpgn::notation::writer::{MoveNotation, write_game, write_invalid};
use xpgn::rules::Registry;

fuzz_target!(|data: &[u8]| {
    let registry = Registry::builtin();
    for item in read_games(data) {
        let Ok((text, game)) = item else {
            continue;
        };
        let checked = check_game(&registry, &game, None);
        assert_eq!(
            validate(&registry, &text.as_game_bytes()).diagnostics,
            checked.diagnostics,
            "validating while reading says what the tree replay says"
        );
        if checked.is_valid() {
            if let Ok(written) = write_game(&registry, &game, MoveNotation::San) {
                let back = parse_game(&written, 1).expect("written games parse");
                assert_eq!(write_game(&registry, &back, MoveNotation::San).ok(), Some(written));
            }
        } else {
            let safe = write_invalid(&text.raw, &game, &checked, MoveNotation::San);
            let (back, _) = read_games(&safe[..])
                .next()
                .expect("the safe form holds a game")
                .expect("in memory");
            assert_eq!(back.raw, text.raw, "the original comes back");
        }
    }
});
