//! Helpers shared by the `rulings_*` tests: reading position strings,
//! playing and listing moves in coordinate notation (`resolve_coord`, so an
//! illegal move fails loudly with its reason), reading single fields of the
//! written position string, and round-trip checks.
//!
//! Variants are named as for `Variant::by_name`. A test file about one
//! variant binds the helpers that take one to it with `bind_variant!`.

// Every tests/*.rs file is its own crate and uses only some of these.
#![allow(dead_code)]

use xpgn::notation::coord::{resolve_coord, write_coord};
use xpgn::notation::position::{read_position, write_position};
use xpgn::notation::square::parse_square;
use xpgn::rules::{Color, MoveKind, Piece, PieceKind, Position, Square, Variant};

// ---- variants, squares, positions ------------------------------------------

pub fn variant(name: &str) -> Variant {
    Variant::by_name(name).unwrap_or_else(|| panic!("no variant {name}"))
}

pub fn sq(name: &str) -> Square {
    parse_square(name).unwrap_or_else(|| panic!("bad square `{name}`"))
}

/// Reads a position string of variant `v`; an error fails the test.
pub fn fen(v: &str, text: &str) -> Position {
    read_position(variant(v), text).unwrap_or_else(|e| panic!("{v}: `{text}`: {e}"))
}

pub fn start(v: &str) -> Position {
    Position::start(variant(v))
}

pub fn kind(v: &str, letter: char) -> PieceKind {
    variant(v)
        .kind_by_letter(letter)
        .unwrap_or_else(|| panic!("{letter} is no piece letter of {v}"))
}

pub fn piece(v: &str, color: Color, letter: char) -> Option<Piece> {
    Some(Piece {
        color,
        kind: kind(v, letter),
    })
}

/// Binds helpers to the one variant a test file is about, under the file's
/// own names: `bind_variant!("royal": variant, read = fen, game)` defines
/// `fn variant() -> Variant` as `variant("royal")`, `fn read(text: &str) ->
/// Position` as `fen("royal", text)` and `fn game(moves: &str) -> Position`
/// as `game("royal", moves)`. The helpers it binds are `variant`, `fen`,
/// `start`, `game`, `kind` and `piece`.
#[allow(unused_macros)]
macro_rules! bind_variant {
    ($v:literal: $($name:ident $(= $helper:ident)?),* $(,)?) => {
        $($crate::common::bind_variant!(@pick $v, $name, [$($helper)?]);)*
    };
    (@pick $v:literal, $name:ident, []) => {
        $crate::common::bind_variant!(@ $v, $name, $name);
    };
    (@pick $v:literal, $name:ident, [$helper:ident]) => {
        $crate::common::bind_variant!(@ $v, $name, $helper);
    };
    (@ $v:literal, $name:ident, variant) => {
        fn $name() -> ::xpgn::rules::Variant {
            $crate::common::variant($v)
        }
    };
    (@ $v:literal, $name:ident, fen) => {
        fn $name(text: &str) -> ::xpgn::rules::Position {
            $crate::common::fen($v, text)
        }
    };
    (@ $v:literal, $name:ident, start) => {
        fn $name() -> ::xpgn::rules::Position {
            $crate::common::start($v)
        }
    };
    (@ $v:literal, $name:ident, game) => {
        fn $name(moves: &str) -> ::xpgn::rules::Position {
            $crate::common::game($v, moves)
        }
    };
    (@ $v:literal, $name:ident, kind) => {
        fn $name(letter: char) -> ::xpgn::rules::PieceKind {
            $crate::common::kind($v, letter)
        }
    };
    (@ $v:literal, $name:ident, piece) => {
        fn $name(color: ::xpgn::rules::Color, letter: char) -> Option<::xpgn::rules::Piece> {
            $crate::common::piece($v, color, letter)
        }
    };
}
#[allow(unused_imports)]
pub(crate) use bind_variant;

// ---- playing and listing moves ---------------------------------------------

/// Plays coordinate moves; an illegal one fails the test with its reason.
pub fn play(pos: &Position, moves: &str) -> Position {
    let mut p = pos.clone();
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = resolve_coord(&p, text)
            .unwrap_or_else(|e| panic!("ply {} `{text}` in `{}`: {e}", i + 1, write_position(&p)));
        p = p.play(&m).expect("resolve_coord returns legal moves");
    }
    p
}

/// Plays coordinate moves from the start position of `v`.
pub fn game(v: &str, moves: &str) -> Position {
    play(&start(v), moves)
}

pub fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The strings, sorted, to compare with `legal` and the like.
pub fn strs(v: &[&str]) -> Vec<String> {
    sorted(v.iter().map(|s| s.to_string()).collect())
}

/// All legal moves in coordinate notation, sorted.
pub fn legal(pos: &Position) -> Vec<String> {
    sorted(
        pos.legal_moves()
            .iter()
            .map(|m| write_coord(pos, m))
            .collect(),
    )
}

/// Legal moves from one square, sorted.
pub fn legal_from(pos: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    sorted(
        pos.legal_moves()
            .iter()
            .filter(|m| m.from() == from)
            .map(|m| write_coord(pos, m))
            .collect(),
    )
}

/// The legal castlings, as king from-to.
pub fn castlings(pos: &Position) -> Vec<String> {
    sorted(
        pos.legal_moves()
            .iter()
            .filter(|m| matches!(m.kind(), MoveKind::Castle(_)))
            .map(|m| write_coord(pos, m))
            .collect(),
    )
}

pub fn is_legal(pos: &Position, text: &str) -> bool {
    resolve_coord(pos, text).is_ok()
}

/// Why the coordinate move is illegal; a legal one fails the test.
pub fn error(pos: &Position, text: &str) -> String {
    match resolve_coord(pos, text) {
        Ok(m) => panic!(
            "`{text}` is legal ({m:?}) in `{}`, expected an error",
            write_position(pos)
        ),
        Err(e) => e.to_string(),
    }
}

// ---- fields of the written position string ---------------------------------

/// Field `i` (from 0) of the written position string.
pub fn field(pos: &Position, i: usize) -> String {
    write_position(pos)
        .split_whitespace()
        .nth(i)
        .unwrap_or_else(|| panic!("no field {i}"))
        .to_string()
}

pub fn board_field(pos: &Position) -> String {
    field(pos, 0)
}

pub fn castling_field(pos: &Position) -> String {
    field(pos, 2)
}

/// The king-rights field (the last one) of the written position string.
pub fn king_rights_field(pos: &Position) -> String {
    write_position(pos).rsplit(' ').next().unwrap().to_string()
}

// ---- round trips -----------------------------------------------------------

/// Reading the written string gives back an equal position with the same
/// legal moves and key; returns the position read back.
pub fn assert_round_trip(pos: &Position) -> Position {
    let text = write_position(pos);
    let back = read_position(pos.variant(), &text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
    assert_eq!(&back, pos, "{text}");
    assert_eq!(write_position(&back), text);
    assert_eq!(legal(&back), legal(pos), "{text}");
    assert_eq!(back.key(), pos.key(), "{text}");
    back
}

/// `assert_round_trip`, and both kings' rights (Chaturanga, King's Leap)
/// come back too.
pub fn assert_round_trip_with_king_rights(pos: &Position) {
    let back = assert_round_trip(pos);
    for c in [Color::White, Color::Black] {
        assert_eq!(
            back.king_right(c),
            pos.king_right(c),
            "{}",
            write_position(pos)
        );
    }
}
