//! Command-line arguments (clap derive types only).

use clap::{Args, Parser, Subcommand, ValueEnum};

/// A command's examples, then the exit codes (the same for every
/// command), for the end of its `--help`.
macro_rules! examples {
    ($($line:literal),* $(,)?) => {
        concat!(
            "Examples:\n",
            $("  ", $line, "\n",)*
            "\nExit codes: 0 all good; 1 some game or move breaks the rules, or no game was read; 2 bad arguments, or an input or output that cannot be read or written.\n"
        )
    };
}

/// xpgn: chess-variant game records.
#[derive(Parser, Debug)]
#[command(
    name = "xpgn",
    version,
    about,
    after_help = examples!(
        "xpgn validate games/                 # every .pgn and .xpgn file below games/",
        "xpgn import games/ --db games.db     # store and index them",
        "xpgn query --db games.db --player carlsen --limit 20",
    )
)]
pub struct Cli {
    /// A variant definition file to load besides the built-ins: TOML
    /// (docs/variants.md) or Fairy-Stockfish's `.ini`; repeatable. The
    /// environment variable XPGN_VARIANTS adds files or folders too
    /// (separated as in PATH).
    #[arg(long = "variants", global = true, value_name = "FILE")]
    pub variant_files: Vec<String>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The deepest `perft`: orthodox chess's count at depth 14 no longer fits
/// in 64 bits, and no depth near this finishes.
pub const MAX_PERFT_DEPTH: i64 = 20;

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the variants with board size, start position string and piece
    /// letters.
    #[command(after_help = examples!("xpgn variants", "xpgn variants --show courier-spiel"))]
    Variants {
        /// Print this variant's definition file instead.
        #[arg(long, value_name = "NAME")]
        show: Option<String>,
    },
    /// Count the leaves of the legal move tree (perft).
    #[command(after_help = examples!("xpgn perft 4", "xpgn perft --variant counsellor --divide 2", "xpgn perft --moves \"1. e4 e5\" 3"))]
    Perft {
        /// Where to start.
        #[command(flatten)]
        position: PositionArgs,
        /// Print one line per legal move with its count.
        #[arg(long)]
        divide: bool,
        /// Plies to look ahead, at most 20 (deeper counts would not finish,
        /// nor fit the count).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=MAX_PERFT_DEPTH))]
        depth: u32,
    },
    /// Read game files, replay every game and variation, report faulty games.
    #[command(after_help = examples!("xpgn validate games.pgn", "xpgn validate games/ --strict", "xpgn validate - --format json < games.pgn"))]
    Validate {
        /// Files or folders (`.pgn`, `.xpgn` below them, in any letter
        /// case, and those compressed: `.pgn.gz`, `.pgn.zst`, `.pgn.bz2`);
        /// `-` for standard input. gzip, zstd and bzip2 inputs are told by
        /// their first bytes and read as they are decompressed.
        #[arg(required = true)]
        files: Vec<String>,
        /// The variant of games that have no Variant tag (default orthodox
        /// chess): FICS archives, for one, leave crazyhouse games untagged.
        #[arg(long, value_name = "NAME")]
        variant: Option<String>,
        /// Diagnostics as text lines, or one JSON object per game.
        #[arg(long, value_enum, default_value = "text")]
        format: OutputFormat,
        /// Warnings count as errors: a game with any is invalid.
        #[arg(long)]
        strict: bool,
        /// With `--format json`: each game's main line ply by ply, with
        /// what its comments say (`[%clk]`, `[%emt]`, `[%eval]`, `[%cal]`,
        /// `[%csl]`), in a field `annotations`.
        #[arg(long)]
        annotations: bool,
        /// Worker threads (default: one per core; 1 for one); the output is
        /// the same for any number.
        #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
        jobs: Option<usize>,
    },
    /// Rewrite games in another notation; faulty games are reported and
    /// written unchanged.
    #[command(after_help = examples!("xpgn convert games.pgn --to xpgn -o clean.pgn", "xpgn convert games/ --to uci", "xpgn convert - --to fen < game.pgn"))]
    Convert {
        /// Files or folders (`.pgn`, `.xpgn` below them, in any letter
        /// case, and those compressed: `.pgn.gz`, `.pgn.zst`, `.pgn.bz2`);
        /// `-` for standard input. gzip, zstd and bzip2 inputs are told by
        /// their first bytes and read as they are decompressed.
        #[arg(required = true)]
        files: Vec<String>,
        /// The variant of games that have no Variant tag (default orthodox
        /// chess): FICS archives, for one, leave crazyhouse games untagged.
        #[arg(long, value_name = "NAME")]
        variant: Option<String>,
        /// Output form.
        #[arg(long, value_enum)]
        to: ConvertTo,
        /// Output file (default, and `-`: standard output); compressed
        /// when its name ends in `.gz`, `.zst` or `.bz2`.
        #[arg(long, short = 'o')]
        output: Option<String>,
        /// What to change in the games written.
        #[command(flatten)]
        clean: CleanArgs,
        /// Worker threads (default: one per core; 1 for one); the output is
        /// the same for any number.
        #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
        jobs: Option<usize>,
    },
    /// Select games from files, without a database: tag comparisons, plies,
    /// ending, comments, variations, underpromotion; the games written as
    /// read.
    #[command(after_help = examples!("xpgn filter games/ --tag 'WhiteElo>=2600' -o strong.pgn", "xpgn filter a.pgn --ending checkmate --min-plies 40", "xpgn filter a.pgn --tag-file criteria.txt --invert -o rest.pgn"))]
    Filter(Box<FilterCommandArgs>),
    /// Import game files into the database: every game replayed and stored
    /// (invalid ones with their diagnostic), every position indexed.
    #[command(after_help = examples!("xpgn import games/ --db games.db", "xpgn import lichess_db_standard_rated_2024-01.pgn.zst --db games.db", "xpgn import a.pgn b.xpgn --db games.db --report faults.jsonl"))]
    Import {
        /// Files or folders (`.pgn`, `.xpgn` below them, in any letter
        /// case, and those compressed: `.pgn.gz`, `.pgn.zst`, `.pgn.bz2`);
        /// `-` for standard input. gzip, zstd and bzip2 inputs are told by
        /// their first bytes and read as they are decompressed.
        #[arg(required = true)]
        files: Vec<String>,
        /// The variant of games that have no Variant tag (default orthodox
        /// chess): FICS archives, for one, leave crazyhouse games untagged.
        #[arg(long, value_name = "NAME")]
        variant: Option<String>,
        /// Database file.
        #[arg(long, default_value = "xpgn.db")]
        db: String,
        /// Also write one JSON line per invalid or warned game (file, game,
        /// line, id, status, diagnostics) to this file (`-`: standard
        /// output).
        #[arg(long, value_name = "FILE")]
        report: Option<String>,
        /// Threads reading and replaying games (default: one per core; 1 for
        /// one) while one thread stores them in input order: the database is
        /// the same for any number.
        #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
        jobs: Option<usize>,
    },
    /// Merge the position index's small rows (one per import batch and
    /// bucket) and refresh the query planner's statistics; upgrade an older
    /// schema; first check every page for damage (as `xpgn check`).
    #[command(after_help = examples!("xpgn optimize --db games.db"))]
    Optimize {
        /// Database file.
        #[arg(long, default_value = "xpgn.db")]
        db: String,
    },
    /// Check every page of a database for damage (`PRAGMA quick_check`),
    /// reading only; exit code 2 when damage is found.
    #[command(after_help = examples!("xpgn check --db games.db"))]
    Check {
        /// Database file.
        #[arg(long, default_value = "xpgn.db")]
        db: String,
    },
    /// Games that play the same moves (variant, start, main line) under
    /// any tags, as pgn-extract's `-D` finds them: one group per line of
    /// moves, with each game's id and players.
    #[command(after_help = examples!("xpgn duplicates --db games.db", "xpgn duplicates --db games.db --format json --limit 10"))]
    Duplicates {
        /// Database file.
        #[arg(long, default_value = "xpgn.db")]
        db: String,
        /// Aligned columns, or one JSON object per group.
        #[arg(long, value_enum, default_value = "table")]
        format: ReportFormat,
        /// Most groups to list.
        #[arg(long)]
        limit: Option<u64>,
        /// Games that reach the same position at this ply of their main
        /// lines, whatever came before or after (pgn-extract's
        /// `--fuzzydepth`), instead of games with the same moves.
        #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<u32>::new().range(1..=100_000))]
        plies: Option<u32>,
    },
    /// Find games: filters combine; `--fen` finds every game that reaches a
    /// position, `--piece` and `--material` every game with a position
    /// showing them, with the first ply where it does.
    #[command(after_help = examples!("xpgn query --db games.db --player carlsen --result 1-0", "xpgn query --db games.db --moves \"1. e4 c5\" --limit 30", "xpgn query --db games.db --status invalid"))]
    Query(Box<QueryArgs>),
    /// The moves played in a position by the stored games (any ply, any
    /// move order), most played first, with their results.
    #[command(after_help = examples!("xpgn tree --db games.db", "xpgn tree --db games.db --moves \"1. e4 c5 2. Nf3\""))]
    Tree {
        /// Database file.
        #[arg(long, default_value = "xpgn.db")]
        db: String,
        /// Variant (default chess).
        #[arg(long, default_value = "chess")]
        variant: String,
        /// The position (default: the variant's start); the board alone
        /// (or fewer fields than board, side to move, castling and en
        /// passant) stands for every position with that board.
        #[arg(long, conflicts_with = "moves")]
        fen: Option<String>,
        /// Moves from the start that lead to the position, any notation,
        /// move numbers allowed (`1. e4 e5 2. Nf3`).
        #[arg(long)]
        moves: Option<String>,
        /// Output form.
        #[arg(long, value_enum, default_value = "table")]
        format: ReportFormat,
    },
    /// Write the games the filters select (as for `query`): canonical XPGN,
    /// JSON, or the original bytes; invalid games always as imported; or a
    /// Parquet dataset (`--to parquet --out DIR`).
    #[command(after_help = examples!("xpgn export --db games.db --event Wijk -o wijk.pgn", "xpgn export --db games.db --original -o all.pgn"))]
    Export(Box<ExportArgs>),
    /// Read game files and write a Parquet dataset of their games and
    /// main-line positions (no database): `games-N.parquet` and
    /// `positions-N.parquet` parts in DIR, for DuckDB, Spark and friends.
    #[cfg(feature = "parquet")]
    #[command(after_help = examples!("xpgn dataset games/ --out games-parquet/", "xpgn dataset big.pgn --out part1/ --jobs 2"))]
    Dataset(Box<DatasetArgs>),
    /// Write a Parquet dataset of games and positions: not in this build,
    /// which left out the `parquet` feature (`cargo install --locked
    /// --path . --features parquet` builds it in).
    #[cfg(not(feature = "parquet"))]
    Dataset {
        /// The command's arguments, refused with the reason above.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        args: Vec<String>,
    },
    /// Print the 64-bit key of a position as the datasets' `positions.key`
    /// column holds it (a signed decimal integer), or its Polyglot key.
    #[command(after_help = examples!("xpgn key --moves \"1. e4 e5\"", "xpgn key --polyglot --moves \"1. e4 e5\"", "xpgn key --variant chess960 --fen \"...\""))]
    Key {
        /// The position: `--fen` (a whole position string), or `--moves`
        /// from the variant's start.
        #[command(flatten)]
        position: PositionArgs,
        /// The Polyglot opening book key instead (orthodox chess only), in
        /// 16 hexadecimal digits as book tools print it.
        #[arg(long)]
        polyglot: bool,
    },
    /// Games per variant, valid and invalid, plies, positions, size.
    #[command(after_help = examples!("xpgn stats --db games.db"))]
    Stats {
        /// Database file.
        #[arg(long, default_value = "xpgn.db")]
        db: String,
        /// Output form.
        #[arg(long, value_enum, default_value = "table")]
        format: ReportFormat,
    },
    /// Play coordinate moves and print the position reached.
    #[command(after_help = examples!("xpgn show --moves \"1. e4 e5 2. Nf3\"", "xpgn show --variant courier-spiel --moves \"f2f4 f7f5\""))]
    Show {
        /// Where to start.
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Draw a position as an SVG diagram: `--fen`/`--moves`, or the
    /// position after `--ply N` of a game file.
    #[command(after_help = examples!("xpgn diagram --moves \"1. e4 e5\" -o board.svg", "xpgn diagram games.pgn --game 2 --ply 20 -o board.svg"))]
    Diagram(Box<DiagramArgs>),
    /// A local web viewer over a database: games, boards, opening tree,
    /// position search, with a JSON API under /api/.
    #[cfg(feature = "serve")]
    #[command(after_help = examples!("xpgn serve --db games.db", "xpgn serve --db games.db --addr 127.0.0.1:0"))]
    Serve {
        /// Database file (opened read-only).
        #[arg(long, default_value = "xpgn.db")]
        db: String,
        /// Address to listen on; loopback unless told otherwise (port 0
        /// picks a free port, printed on start).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// Seconds one request's database work may take.
        #[arg(long, default_value = "5", value_parser = clap::value_parser!(u64).range(1..=600))]
        timeout: u64,
        /// Seconds a client has to send its whole request, and again to
        /// take its whole answer.
        #[arg(long, default_value = "10", value_parser = clap::value_parser!(u64).range(1..=600))]
        request_timeout: u64,
        /// Most connections open at once; more are answered 503.
        #[arg(long, default_value = "512", value_parser = clap::value_parser!(u64).range(1..=4096))]
        max_connections: u64,
        /// Most requests answered at once.
        #[arg(long, default_value = "8", value_parser = clap::value_parser!(u64).range(1..=256))]
        workers: u64,
        /// A host name to answer besides localhost and the served address
        /// (the Host check; with the served port), as for `--addr
        /// 0.0.0.0:8080` behind a name; repeatable.
        #[arg(long = "allow-host", value_name = "NAME")]
        allow_host: Vec<String>,
    },
}

/// `xpgn diagram` arguments.
#[derive(Args, Debug)]
pub struct DiagramArgs {
    /// The position (ignored with a game file, which names its variant).
    #[command(flatten)]
    pub position: PositionArgs,
    /// A game file: draw the position after `--ply` of its game `--game`.
    #[arg(conflicts_with_all = ["fen", "moves"])]
    pub file: Option<String>,
    /// With a game file: the ply whose position to draw (0 = the start;
    /// default the last).
    #[arg(long, requires = "file")]
    pub ply: Option<usize>,
    /// With a game file: which game (1 = the first).
    #[arg(long, default_value = "1", requires = "file")]
    pub game: usize,
    /// Black at the bottom.
    #[arg(long)]
    pub flip: bool,
    /// File letters and rank numbers beside the board.
    #[arg(long)]
    pub coordinates: bool,
    /// Squares to ring, comma-separated (`e4,d5`).
    #[arg(long, value_delimiter = ',', value_name = "SQ")]
    pub highlight: Vec<String>,
    /// Arrows, comma-separated (`e2-e4,g1-f3`).
    #[arg(long, value_delimiter = ',', value_name = "FROM-TO")]
    pub arrow: Vec<String>,
    /// Width of the image in pixels (default 45 per file).
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(16..=8192))]
    pub size: Option<u32>,
    /// No legend of unused one-time rights and waiting pawns under the board.
    #[arg(long)]
    pub no_legend: bool,
    /// Output file (default, and `-`: standard output).
    #[arg(long, short = 'o')]
    pub output: Option<String>,
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
    /// Moves to play first, any notation, move numbers allowed (`e2e4
    /// e7e5`, `e4 e5`, `1. e4 e5 2. Nf3`).
    #[arg(long, default_value = "")]
    pub moves: String,
}

/// How `validate` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// `path:line:col: game N, ply M: message` lines and a summary.
    Text,
    /// JSON Lines, one object per game.
    Json,
}

/// What `convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ConvertTo {
    /// Canonical XPGN with SAN.
    Xpgn,
    /// XPGN with long algebraic movetext.
    Lan,
    /// XPGN with coordinate movetext.
    Uci,
    /// One JSON document per game (one per line).
    Json,
    /// The position string after every ply.
    Fen,
}

/// The filters of `query` and `export`.
#[derive(Args, Debug)]
pub struct FilterArgs {
    /// Database file.
    #[arg(long, default_value = "xpgn.db")]
    pub db: String,
    /// Only this variant (also the variant of `--fen`, `--moves`, `--piece`
    /// and `--material`; default chess).
    #[arg(long)]
    pub variant: Option<String>,
    /// A tag test, repeatable: `NAME=VALUE` (the tag contains the value,
    /// case-blind; equal numbers for a number, the same days for a date),
    /// `NAME!=VALUE`, or `NAME>=VALUE`, `>`, `<=`, `<` (as numbers when
    /// the value is one, as dates for a tag whose name ends in `Date`);
    /// `Player` stands for White or Black, `Elo` for WhiteElo or BlackElo.
    #[arg(long, value_name = "NAME OP VALUE")]
    pub tag: Vec<String>,
    /// What the games hold (plies, ending, annotations).
    #[command(flatten)]
    pub select: SelectArgs,
    /// Shorthand for `--tag White=...`.
    #[arg(long)]
    pub white: Option<String>,
    /// Shorthand for `--tag Black=...`.
    #[arg(long)]
    pub black: Option<String>,
    /// Shorthand for `--tag Event=...`.
    #[arg(long)]
    pub event: Option<String>,
    /// A player of either colour: the `White` or the `Black` tag contains
    /// it, case-blind.
    #[arg(long)]
    pub player: Option<String>,
    /// Exact result: `1-0`, `0-1`, `1/2-1/2`, `*`.
    #[arg(long, value_parser = ["1-0", "0-1", "1/2-1/2", "*"])]
    pub result: Option<String>,
    /// Earliest date: `YYYY.MM.DD`, `YYYY-MM-DD`, `YYYY.MM` or `YYYY`; a
    /// partial game date (`1985.??.??`) matches when the days it can mean
    /// overlap the range asked for.
    #[arg(long)]
    pub date_from: Option<String>,
    /// Latest date, in the forms of `--date-from`.
    #[arg(long)]
    pub date_to: Option<String>,
    /// `valid`, `invalid`, or `warned` (valid, with warnings).
    #[arg(long, value_parser = ["valid", "invalid", "warned"])]
    pub status: Option<String>,
    /// A position the game reaches on its main line (clocks ignored); the
    /// board alone (or fewer fields than board, side to move, castling and
    /// en passant) finds the board with any side to move, castling and en
    /// passant.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves the game starts with, any notation, move numbers allowed
    /// (`e2e4 e7e5`, `e4 e5`, `1. e4 e5 2. Nf3`, `1.e4 e5`).
    #[arg(long)]
    pub moves: Option<String>,
    /// A piece on a square in some main-line position: `white:K@j1`,
    /// `black:p@e4`, `white:R@*` (anywhere). Repeatable: one position must
    /// show all of them, and all `--material` bounds.
    #[arg(long, value_name = "SIDE:LETTER@SQUARE")]
    pub piece: Vec<String>,
    /// Material in some main-line position: `white:Q1,R2,P>=5;black:Q0`
    /// (`R2` exactly, `>=N` at least, `<=N` at most, `*` the other types).
    #[arg(long, value_name = "SIGNATURE")]
    pub material: Option<String>,
    /// ECO codes of the game's opening: one code (`B90`), a range
    /// (`B20-B99`, both ends included) or a letter (`B`: B00-B99).
    #[arg(long, value_name = "CODES")]
    pub eco: Option<String>,
    /// A part of the opening's name, case-blind (`Sicilian`).
    #[arg(long, value_name = "NAME")]
    pub opening: Option<String>,
    /// A main-line position by its Polyglot book key (16 hexadecimal
    /// digits, as `xpgn key --polyglot` prints it): orthodox chess games
    /// only, each replayed.
    #[arg(long, value_name = "HEX")]
    pub polyglot: Option<String>,
    /// Most games to select.
    #[arg(long)]
    pub limit: Option<u64>,
}

/// The filters on what a game holds, the same with or without a database.
#[derive(Args, Debug, Default, Clone)]
pub struct SelectArgs {
    /// At least N main-line plies.
    #[arg(long, value_name = "N")]
    pub min_plies: Option<usize>,
    /// At most N main-line plies.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<usize>,
    /// How the game ended, repeatable or comma-separated (any of them):
    /// checkmate, stalemate, a variant's win (bare-king, king-exploded,
    /// check-limit, goal-reached, no-pieces-left), or result-only (the
    /// final position decides nothing and a result is recorded).
    #[arg(long, value_name = "HOW", value_delimiter = ',')]
    pub ending: Vec<String>,
    /// Games with a comment.
    #[arg(long, conflicts_with = "no_comments")]
    pub comments: bool,
    /// Games without any comment.
    #[arg(long)]
    pub no_comments: bool,
    /// Games with a variation.
    #[arg(long, conflicts_with = "no_variations")]
    pub variations: bool,
    /// Games without any variation.
    #[arg(long)]
    pub no_variations: bool,
    /// Games whose main line promotes to another piece than a queen.
    #[arg(long)]
    pub underpromotion: bool,
    /// A pgn-extract-style tag criteria file (repeatable): lines
    /// `Name "value"` (a prefix of the tag's value) or `Name OP "value"`;
    /// lines of one tag or-ed, of different tags and-ed.
    #[arg(long, value_name = "FILE")]
    pub tag_file: Vec<String>,
}

/// `xpgn filter` arguments.
#[derive(Args, Debug)]
pub struct FilterCommandArgs {
    /// Files or folders (`.pgn`, `.xpgn` below them, in any letter
    /// case, and those compressed: `.pgn.gz`, `.pgn.zst`, `.pgn.bz2`);
    /// `-` for standard input. gzip, zstd and bzip2 inputs are told by
    /// their first bytes and read as they are decompressed.
    #[arg(required = true)]
    pub files: Vec<String>,
    /// The variant of games that have no Variant tag (default orthodox
    /// chess).
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// A tag test, repeatable, as for `query --tag`: `WhiteElo>=2600`,
    /// `Date<1962`, `Event=Wijk` (contains, case-blind), `Result!=1-0`.
    #[arg(long, value_name = "NAME OP VALUE")]
    pub tag: Vec<String>,
    /// What the games hold.
    #[command(flatten)]
    pub select: SelectArgs,
    /// The games that do not match instead.
    #[arg(long)]
    pub invert: bool,
    /// Most games to write.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Output file (default, and `-`: standard output); compressed when
    /// its name ends in `.gz`, `.zst` or `.bz2`.
    #[arg(long, short = 'o')]
    pub output: Option<String>,
    /// Worker threads (default: one per core; 1 for one); the output is
    /// the same for any number.
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub jobs: Option<usize>,
}

/// `xpgn query` arguments.
#[derive(Args, Debug)]
pub struct QueryArgs {
    /// Which games.
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Output form.
    #[arg(long, value_enum, default_value = "table")]
    pub format: QueryFormat,
    /// With `--format json`: each game's main line ply by ply, with what
    /// its comments say (`[%clk]`, `[%emt]`, `[%eval]`, `[%cal]`,
    /// `[%csl]`), in a field `annotations`.
    #[arg(long)]
    pub annotations: bool,
}

/// `xpgn export` arguments.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Which games.
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Output form of valid games.
    #[arg(long, value_enum, default_value = "xpgn", conflicts_with = "original")]
    pub to: ExportTo,
    /// Every game exactly as imported.
    #[arg(long)]
    pub original: bool,
    /// Output file (default, and `-`: standard output); compressed when
    /// its name ends in `.gz`, `.zst` or `.bz2`.
    #[arg(long, short = 'o', conflicts_with = "out")]
    pub output: Option<String>,
    /// What to change in the games written (not with `--original`).
    #[command(flatten)]
    pub clean: CleanArgs,
    /// With `--to parquet`: the dataset folder to write.
    #[arg(long, value_name = "DIR")]
    pub out: Option<String>,
    /// With `--to parquet`: most rows per part file.
    #[cfg(feature = "parquet")]
    #[arg(long, value_name = "ROWS", default_value_t = xpgn::dataset::DEFAULT_PART_ROWS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub part_size: usize,
}

/// What `convert` and `export` change in the valid games they write.
#[derive(Args, Debug, Default)]
pub struct CleanArgs {
    /// Add `ECO` and `Opening` tags naming the game's opening (from the
    /// opening book of its variant) where the game has none; tags already
    /// written stay as they are.
    #[arg(long)]
    pub add_eco: bool,
    /// As `--add-eco`, and replace `ECO` and `Opening` tags that say
    /// otherwise.
    #[arg(long)]
    pub replace_eco: bool,
    /// Leave out every comment.
    #[arg(long)]
    pub strip_comments: bool,
    /// Leave out every NAG (and suffix annotation: `!`, `?`...).
    #[arg(long)]
    pub strip_nags: bool,
    /// Leave out every variation.
    #[arg(long)]
    pub strip_variations: bool,
    /// Which tags to write: all (the Seven Tag Roster first), roster (the
    /// seven only), none; the tags the moves need (Variant, FEN, SetUp)
    /// and those asked for (--add-eco, --plycount) always.
    #[arg(long, value_enum, default_value = "all")]
    pub tags: TagsKept,
    /// Most characters of a movetext line (at least 20).
    #[arg(long, value_name = "N", default_value = "80", value_parser = clap::value_parser!(u16).range(20..=10000))]
    pub line_width: u16,
    /// Add a `PlyCount` tag (the main line's plies).
    #[arg(long)]
    pub plycount: bool,
    /// Set the result (tag and movetext) from the final position where it
    /// decides one (checkmate, stalemate, a variant's win) and the game
    /// says otherwise, as pgn-extract's --fixresulttags.
    #[arg(long)]
    pub fix_results: bool,
    /// Write only the first of the games that play the same moves
    /// (variant, start, main line; as `xpgn duplicates` groups them).
    #[arg(long)]
    pub drop_duplicates: bool,
    /// Write the games into files of N games each: OUT-1.pgn, OUT-2.pgn...
    /// (with -o OUT.pgn; with -o OUT.pgn.gz, .zst or .bz2 each part is
    /// compressed: OUT-1.pgn.gz...).
    #[arg(long, value_name = "N", conflicts_with = "split_by_eco", value_parser = clap::value_parser!(u64).range(1..))]
    pub split_every: Option<u64>,
    /// Write the games into one file per ECO letter: OUT-A.pgn ... OUT-E.pgn,
    /// and OUT-none.pgn for the games without a name (with -o OUT.pgn).
    #[arg(long)]
    pub split_by_eco: bool,
}

/// Which tags `--tags` keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum TagsKept {
    /// Every tag.
    #[default]
    All,
    /// The Seven Tag Roster.
    Roster,
    /// None.
    None,
}

/// `xpgn dataset` arguments.
#[cfg(feature = "parquet")]
#[derive(Args, Debug)]
pub struct DatasetArgs {
    /// Files or folders (`.pgn`, `.xpgn` below them, in any letter
    /// case, and those compressed: `.pgn.gz`, `.pgn.zst`, `.pgn.bz2`);
    /// `-` for standard input. gzip, zstd and bzip2 inputs are told by
    /// their first bytes and read as they are decompressed.
    #[arg(required = true)]
    pub files: Vec<String>,
    /// The dataset folder to write (created; it must hold no parts yet).
    /// Write each shard of a large input into a folder of its own: the
    /// folders together are one dataset.
    #[arg(long, value_name = "DIR")]
    pub out: String,
    /// The variant of games that have no Variant tag (default orthodox
    /// chess): FICS archives, for one, leave crazyhouse games untagged.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// Most rows per part: a part's `positions` file (and its `games`
    /// file) closes before it would pass this many rows.
    #[arg(long, value_name = "ROWS", default_value_t = xpgn::dataset::DEFAULT_PART_ROWS, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub part_size: usize,
    /// Worker threads reading and replaying games (default: all cores); the
    /// dataset is the same for any number.
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub jobs: Option<usize>,
}

/// What `export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportTo {
    /// Canonical XPGN with SAN.
    Xpgn,
    /// One JSON document per game (one per line).
    Json,
    /// A Parquet dataset of games and positions (`--out DIR`), as
    /// `xpgn dataset` writes it (builds with the `parquet` feature).
    Parquet,
}

/// How `tree` and `stats` print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Aligned columns.
    Table,
    /// One JSON document.
    Json,
}

/// How `query` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum QueryFormat {
    /// Id, variant, players, result, date, plies, matching ply.
    Table,
    /// JSON Lines, one object per game.
    Json,
    /// The games themselves, canonical XPGN (invalid ones as imported).
    Xpgn,
}
