//! The integration tests: one test crate of modules (one binary to build
//! and link instead of one per file). Run one module's tests with
//! `cargo test --test it MODULE::`, for example
//! `cargo test --test it perft::`.

// Code the test modules share.
mod common;
mod reference;
mod run;
mod scratch;
mod support;

mod alike;
mod annotations;
mod architecture;
#[cfg(feature = "serve")]
mod browser;
mod clean;
mod cli;
mod compressed;
mod corpus;
#[cfg(feature = "parquet")]
mod dataset;
mod db;
mod docs;
mod filter;
mod fuzzy_duplicates;
mod game_roundtrip;
mod invalid;
mod openings;
mod perft;
mod played_variants;
mod polyglot;
mod position_keys;
mod real_files;
mod reference_check;
mod registries;
mod reimport;
mod render;
mod roundtrip;
mod rulings_chancellor;
mod rulings_chaturanga;
mod rulings_common;
mod rulings_counsellor;
mod rulings_courier_spiel;
mod rulings_kings_leap;
mod rulings_royal;
mod samples;
#[cfg(feature = "serve")]
mod serve;
mod variant_db;
mod variant_files;
mod variant_ini;
