//! xpgn: chess-variant game records.
//!
//! Layers, each depending only on those before it:
//! - [`rules`]: board geometry, pieces, variants as data, positions, move
//!   generation. No text.
//! - [`notation`]: position strings and move notations (nom readers and
//!   writers) over `rules`.
//! - [`render`]: board diagrams as SVG, over `rules` only.
//! - `record` (feature `db`): a game made ready for storage (replayed,
//!   packed, hashed, its position keys), shared by the database and the
//!   datasets.
//! - `db` (feature `db`): the SQLite game database: schema, import,
//!   position index.
//! - `dataset` (feature `parquet`): Parquet datasets of games and
//!   positions, from game files or from a database.
//! - `serve` (feature `serve`): `xpgn serve`, a local web viewer over a
//!   database.
//!
//! The `xpgn` command line is the crate's binary (feature `cli`), a thin
//! clap shell over these modules.
//!
//! # Features
//!
//! The default features are those of the binary: `cli`, `serve` and
//! `parquet`, each of which turns on `db`. A crate that only needs the
//! rules and the notation depends on xpgn with `default-features = false`
//! and pulls in no SQLite, clap, zstd, SHA-256 or server code.
//!
//! ```
//! use xpgn::rules::{Position, Variant, perft};
//! let pos = Position::start(Variant::by_name("Counsellor Chess").unwrap());
//! assert_eq!(perft(&pos, 1), pos.legal_moves().len() as u64);
//! ```
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "parquet")]
#[cfg_attr(docsrs, doc(cfg(feature = "parquet")))]
pub mod dataset;
#[cfg(feature = "db")]
#[cfg_attr(docsrs, doc(cfg(feature = "db")))]
pub mod db;
pub mod notation;
#[cfg(feature = "db")]
#[cfg_attr(docsrs, doc(cfg(feature = "db")))]
pub mod record;
pub mod render;
pub mod rules;
#[cfg(feature = "serve")]
#[cfg_attr(docsrs, doc(cfg(feature = "serve")))]
pub mod serve;

pub use rules::{Color, Move, Piece, PieceKind, Position, Square, Variant};
