//! Text for the rules core: position strings and coordinate moves, read
//! with nom and written back. Depends on `rules`; nothing in `rules`
//! depends on it.

pub mod coord;
pub mod position;
pub mod san;
pub mod square;
