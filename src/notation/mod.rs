//! Text for the rules core: position strings and coordinate moves, read
//! with nom and written back. Depends on `rules`; nothing in `rules`
//! depends on it.

pub mod coord;
pub mod game;
pub mod pgn;
pub mod position;
pub mod reader;
pub mod replay;
pub mod san;
pub mod span;
pub mod square;
pub mod writer;
