//! One function per subcommand.

mod convert;

/// Why `dataset` and `export --to parquet` refuse to run in a build
/// without the `parquet` feature, and how to get them.
#[cfg(not(feature = "parquet"))]
const WITHOUT_PARQUET: &str = "Parquet datasets need the `parquet` feature, which this build of xpgn left out: \
     rebuild with `cargo install --locked --path . --features parquet` \
     (or `cargo build --release --features parquet`)";
#[cfg(feature = "parquet")]
mod dataset;
mod diagram;
mod export;
mod filter;
mod import;
mod key;
mod output;
mod perft;
mod progress;
mod query;
#[cfg(feature = "serve")]
mod serve;
mod show;
mod tree;
mod validate;
mod variants;

use std::borrow::Cow;
use std::io::Write;

use super::args::{Cli, Command, PositionArgs};
use super::exit::CliError;
use xpgn::notation::diagnostic::DiagnosticKind;
use xpgn::notation::position::read_position;
use xpgn::notation::printable::printable;
use xpgn::notation::replay::resolve_text;
use xpgn::rules::{Move, Position, Registry};

/// `--jobs`, or one worker per core.
fn jobs_or_all(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(xpgn::notation::parallel::default_jobs)
}

/// The `--variant` of a command that reads game files: the variant of
/// games without a Variant tag.
fn untagged_variant(command: &Command) -> Option<&str> {
    match command {
        Command::Validate { variant, .. }
        | Command::Convert { variant, .. }
        | Command::Import { variant, .. } => variant.as_deref(),
        #[cfg(feature = "parquet")]
        Command::Dataset(args) => args.variant.as_deref(),
        Command::Filter(args) => args.variant.as_deref(),
        _ => None,
    }
}

/// What the clean-output arguments ask for.
pub(super) fn cleaning(args: &crate::cli::args::CleanArgs) -> xpgn::notation::clean::Cleaning {
    use crate::cli::args::TagsKept;
    use xpgn::notation::clean::{EcoTags, TagSet};
    xpgn::notation::clean::Cleaning {
        eco: if args.replace_eco {
            EcoTags::Replace
        } else if args.add_eco {
            EcoTags::Add
        } else {
            EcoTags::Keep
        },
        strip_comments: args.strip_comments,
        strip_nags: args.strip_nags,
        strip_variations: args.strip_variations,
        tags: match args.tags {
            TagsKept::All => TagSet::All,
            TagsKept::Roster => TagSet::Roster,
            TagsKept::None => TagSet::None,
        },
        ply_count: args.plycount,
        fix_results: args.fix_results,
    }
}

/// How the clean-output arguments lay games out.
pub(super) fn write_options(
    args: &crate::cli::args::CleanArgs,
) -> xpgn::notation::writer::WriteOptions {
    xpgn::notation::writer::WriteOptions {
        width: usize::from(args.line_width),
        roster: args.tags != crate::cli::args::TagsKept::None,
    }
}

/// Runs the command `cli` names, with the variants of `registry` (the
/// built-ins and the definition files loaded).
pub(super) fn run(cli: &Cli, registry: &Registry, out: &mut dyn Write) -> Result<(), CliError> {
    let with_untagged;
    let registry = match untagged_variant(&cli.command) {
        Some(name) => {
            let variant = registry
                .lookup(name)
                .ok_or_else(|| unknown_variant(registry, "--variant: ", name))?;
            with_untagged = registry.clone().with_untagged_variant(variant);
            &with_untagged
        }
        None => registry,
    };
    match &cli.command {
        Command::Variants { show } => variants::run(registry, out, show.as_deref()),
        Command::Perft {
            position,
            divide,
            depth,
        } => perft::run(registry, position, *divide, *depth, out),
        Command::Show { position } => show::run(registry, position, out),
        Command::Diagram(args) => diagram::run(registry, args, out),
        #[cfg(feature = "serve")]
        Command::Serve {
            db,
            addr,
            timeout,
            request_timeout,
            max_connections,
            workers,
            allow_host,
        } => {
            let limits = serve::Limits {
                timeout: *timeout,
                request_timeout: *request_timeout,
                max_connections: *max_connections,
                workers: *workers,
                allow_host: allow_host.clone(),
            };
            serve::run(registry, db, *addr, &limits, out)
        }
        Command::Validate {
            files,
            variant: _,
            format,
            strict,
            annotations,
            jobs,
        } => validate::run(
            registry,
            files,
            validate::Shown {
                format: *format,
                strict: *strict,
                annotations: *annotations,
            },
            jobs_or_all(*jobs),
            out,
        ),
        Command::Convert {
            files,
            variant: _,
            to,
            output,
            clean,
            jobs,
        } => convert::run(
            registry,
            files,
            *to,
            &convert::How::of(clean),
            output.as_deref(),
            jobs_or_all(*jobs),
            out,
        ),
        Command::Import {
            files,
            variant: _,
            db,
            report,
            jobs,
        } => import::run(
            registry,
            files,
            db,
            report.as_deref(),
            jobs_or_all(*jobs),
            out,
        ),
        Command::Duplicates {
            db,
            format,
            limit,
            plies,
        } => import::duplicates(registry, db, *format, *limit, *plies, out),
        Command::Optimize { db } => import::optimize(registry, db, out),
        Command::Check { db } => import::check(db, out),
        Command::Stats { db, format } => import::stats(registry, db, *format, out),
        Command::Query(args) => query::run(registry, args, out),
        Command::Export(args) => export::run(registry, args, out),
        #[cfg(feature = "parquet")]
        Command::Dataset(args) => dataset::run(registry, args, out),
        #[cfg(not(feature = "parquet"))]
        Command::Dataset { .. } => Err(CliError::Usage(WITHOUT_PARQUET.into())),
        Command::Filter(args) => filter::run(registry, args, jobs_or_all(args.jobs), out),
        Command::Key { position, polyglot } => key::run(registry, position, *polyglot, out),
        Command::Tree {
            db,
            variant,
            fen,
            moves,
            format,
        } => tree::run(
            registry,
            db,
            variant,
            fen.as_deref(),
            moves.as_deref(),
            *format,
            out,
        ),
    }
}

/// How many characters of a user-given value an error message repeats.
const SHOWN_CHARS: usize = 80;

/// How many characters of a message from the library (which may quote the
/// input it rejects) an error message repeats.
const MESSAGE_CHARS: usize = 400;

/// Replays the games of `db` with the variants loaded from files and
/// those it stores (games of a user's variant replay without
/// `--variants`); a stored definition that differs from a loaded one of
/// the same name is refused, naming the variant.
fn use_variants(
    db: &mut xpgn::db::Database,
    registry: &Registry,
    path: &str,
) -> Result<(), CliError> {
    db.use_variants(registry.clone())
        .map_err(|e| db_error(path, e))?;
    Ok(())
}

/// An error of the database `--db path`, as the user reads it.
fn db_error(path: &str, e: impl std::fmt::Display) -> CliError {
    CliError::Usage(format!(
        "--db {}: {}",
        shown(path),
        shown_message(&e.to_string())
    ))
}

/// Reading the input `path` failed after its games before the failure:
/// one line naming the file. An input refused as not text (compressed in
/// a format not read, or binary), or a compressed input cut short or
/// damaged (where it stopped), says so and nothing more.
fn read_failed(path: &str, error: &std::io::Error) -> String {
    if xpgn::notation::reader::NotText::of(error).is_some()
        || xpgn::notation::compressed::Damaged::of(error).is_some()
    {
        format!("{}: {error}", shown(path))
    } else {
        format!("{}: read error: {error}", shown(path))
    }
}

/// A value the user gave (an argument, a path), as an error message
/// repeats it: control characters escaped, long values shortened.
fn shown(text: &str) -> Cow<'_, str> {
    printable(text, SHOWN_CHARS)
}

/// A message of the library, which may quote the input it rejects, as an
/// error message repeats it.
fn shown_message(text: &str) -> Cow<'_, str> {
    printable(text, MESSAGE_CHARS)
}

/// The variant, start position and played moves the arguments name.
fn position_from(registry: &Registry, args: &PositionArgs) -> Result<Position, CliError> {
    position_and_moves(registry, args).map(|(pos, _)| pos)
}

/// [`position_from`], and the moves played. `--moves` takes every notation
/// the other commands take: coordinates (`e2e4`), SAN (`e4`, `Nf3`), with
/// or without move numbers (`1. e4 e5 2. Nf3`, `1.e4`). A text that is
/// no move is a usage error (exit code 2), an illegal move is refused
/// (exit code 1).
fn position_and_moves(
    registry: &Registry,
    args: &PositionArgs,
) -> Result<(Position, Vec<Move>), CliError> {
    let variant = registry
        .lookup(&args.variant)
        .ok_or_else(|| unknown_variant(registry, "", &args.variant))?;
    let mut pos = match &args.fen {
        Some(fen) => read_position(variant, fen)
            .map_err(|e| CliError::Usage(format!("--fen: {}", shown_message(&e.to_string()))))?,
        None => Position::start(variant),
    };
    let mut played = Vec::new();
    for (i, text) in query::move_tokens(&args.moves).enumerate() {
        let m = resolve_text(&pos, text).map_err(|(kind, e)| {
            let at = format!("--moves: ply {} `{}`", i + 1, shown(text));
            if kind == DiagnosticKind::BadMove {
                CliError::Usage(format!("{at}: not a move in any notation"))
            } else {
                CliError::Rejected(format!("{at}: {}", shown_message(&e)))
            }
        })?;
        pos.play_unchecked(&m);
        played.push(m);
    }
    Ok((pos, played))
}

/// The error of an unknown variant name (after `flag`, as `--variant: `):
/// the nearest known names, and where the others are.
fn unknown_variant(registry: &Registry, flag: &str, name: &str) -> CliError {
    let near = nearest_names(registry, name);
    let guess = if near.is_empty() {
        format!("; known: {}", registry.known_names())
    } else {
        let quoted: Vec<String> = near.iter().map(|n| format!("`{n}`")).collect();
        format!("; did you mean {}?", quoted.join(" or "))
    };
    CliError::Usage(format!(
        "{flag}unknown variant `{}`{guess} (`xpgn variants` lists them; `--variants FILE` loads a definition file)",
        shown(name)
    ))
}

/// The known variant names nearest to `name` (at most three): fewest
/// letters to change, or a name that starts with it; none when every
/// name is far.
fn nearest_names<'r>(registry: &'r Registry, name: &str) -> Vec<&'r str> {
    let plain = |s: &str| -> Vec<char> {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let key = plain(name);
    if key.is_empty() {
        return Vec::new();
    }
    let mut scored: Vec<(usize, &str)> = registry
        .names()
        .into_iter()
        .map(|n| {
            let known = plain(n);
            let d = if key.len() >= 3 && known.starts_with(&key) {
                1
            } else {
                edit_distance(&key, &known)
            };
            (d, n)
        })
        .collect();
    scored.sort();
    let most = (key.len() / 3).max(2);
    let best = scored.first().map_or(usize::MAX, |s| s.0);
    scored
        .into_iter()
        .filter(|&(d, _)| d <= most && d <= best + 1)
        .take(3)
        .map(|(_, n)| n)
        .collect()
}

/// Levenshtein distance: the fewest letters to insert, delete or change.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}
