//! Command-line arguments (clap derive types only).

use clap::{Args, Parser, Subcommand};

/// xpgn: chess-variant game records.
#[derive(Parser, Debug)]
#[command(name = "xpgn", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the variants with board size and start position string.
    Variants,
    /// Count the leaves of the legal move tree (perft).
    Perft {
        /// Where to start.
        #[command(flatten)]
        position: PositionArgs,
        /// Print one line per legal move with its count.
        #[arg(long)]
        divide: bool,
        /// Plies to look ahead.
        depth: u32,
    },
    /// Play coordinate moves and print the position reached.
    Show {
        /// Where to start.
        #[command(flatten)]
        position: PositionArgs,
    },
}

/// A start position and moves played from it.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// Variant name (`xpgn variants` lists them); default orthodox chess.
    #[arg(long, short = 'v', default_value = "chess")]
    pub variant: String,
    /// Position string to start from instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Coordinate moves to play first, separated by spaces (`e2e4 e7e5`).
    #[arg(long, default_value = "")]
    pub moves: String,
}
