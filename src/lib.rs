//! xpgn: chess-variant game records.
//!
//! Layers, each depending only on those before it:
//! - [`rules`]: board geometry, pieces, variants as data, positions, move
//!   generation. No text.
//! - [`notation`]: position strings and move notations (nom readers and
//!   writers) over `rules`.
//! - [`render`]: board diagrams as SVG, over `rules` only.
//! - [`record`]: a game made ready for storage (replayed, packed, hashed,
//!   its position keys), shared by the database and the datasets.
//! - [`db`]: the SQLite game database: schema, import, position index.
//! - [`dataset`] (feature `parquet`, on by default): Parquet datasets of
//!   games and positions, from game files or from a database.
//! - [`serve`] (feature `serve`, on by default): `xpgn serve`, a local
//!   web viewer over a database.
//! - [`cli`]: the `xpgn` command, a thin clap shell over the library.
//!
//! ```
//! use xpgn::rules::{Position, Variant, perft};
//! let pos = Position::start(Variant::by_name("Counsellor Chess").unwrap());
//! assert_eq!(perft(&pos, 1), pos.legal_moves().len() as u64);
//! ```
#![deny(missing_docs)]

pub mod cli;
#[cfg(feature = "parquet")]
pub mod dataset;
pub mod db;
pub mod notation;
pub mod record;
pub mod render;
pub mod rules;
#[cfg(feature = "serve")]
pub mod serve;

pub use rules::{Color, Move, Piece, PieceKind, Position, Square, Variant};
