//! Text for the rules core: position strings and coordinate moves, read
//! with nom and written back. Depends on `rules`; nothing in `rules`
//! depends on it.

pub mod annotations;
pub mod clean;
#[cfg(feature = "compression")]
#[cfg_attr(docsrs, doc(cfg(feature = "compression")))]
pub mod compressed;
pub mod coord;
pub mod diagnostic;
pub mod filter;
pub mod game;
mod lexer;
#[cfg(test)]
mod nom_grammar;
pub mod opening;
pub mod parallel;
pub mod pgn;
pub mod position;
pub mod printable;
pub mod reader;
pub mod replay;
pub mod san;
pub mod span;
pub mod square;
pub mod tag_list;
pub mod tree;
pub mod validation;
pub mod visitor;
pub mod writer;

use crate::rules::{PieceKind, Variant};

/// The kind a piece letter names in `variant`, or why it names none (the
/// letters it has), for every move reader's messages.
pub(crate) fn kind_for_letter(variant: &Variant, letter: char) -> Result<PieceKind, String> {
    variant.kind_by_letter(letter).ok_or_else(|| {
        let letters: String = variant
            .kinds()
            .filter(|&k| k != variant.pawn_kind())
            .map(|k| variant.piece_def(k).letter)
            .collect();
        format!(
            "`{letter}` is not a piece letter of {} (letters: {letters})",
            variant.def().display_name
        )
    })
}
