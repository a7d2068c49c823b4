//! The `xpgn` command: a thin clap shell over the library. The only module
//! that prints or chooses exit codes.

mod args;
mod cmd;
mod exit;
mod interrupt;

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Parser;

use xpgn::notation::diagnostic::{Severity, definition_diagnostic};
use xpgn::notation::printable::printable;
use xpgn::rules::DefinitionError;

pub use args::Cli;
pub use exit::{CliError, Exit};

/// Set when a write went past the size limit of files (`ulimit -f`).
static PAST_FILE_SIZE_LIMIT: std::sync::LazyLock<Arc<AtomicBool>> =
    std::sync::LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// Catches SIGXFSZ, which the system sends a process that writes past the
/// size limit of files (`ulimit -f`) and which would end it at once, with
/// no word and a batch half written: caught, the write fails instead
/// (`EFBIG`), the error goes its usual way (the open transaction rolled
/// back, the output file left as it was), and [`main`] says why. The
/// handler only sets a flag: `signal-hook`'s safe registration, so the
/// crate stays free of `unsafe`.
fn catch_file_size_limit() {
    #[cfg(unix)]
    {
        let flag = Arc::clone(&PAST_FILE_SIZE_LIMIT);
        // Without the handler a write past the limit ends the process, as
        // it always did: nothing worse.
        let _ = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, flag);
    }
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    catch_file_size_limit();
    interrupt::catch_interruptions();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                Exit::Fatal
            } else {
                Exit::Ok
            };
            print_clap_error(&e);
            return code.into();
        }
    };
    let registry = match load_variants(&cli) {
        Ok(registry) => registry,
        Err(e) => {
            eprintln!("{}", shown_definition_error(&e, Severity::Error));
            return Exit::Fatal.into();
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result =
        cmd::run(&cli, &registry, &mut out).and_then(|()| out.flush().map_err(CliError::from));
    match result {
        Ok(()) => Exit::Ok.into(),
        Err(CliError::BrokenPipe) => Exit::Ok.into(),
        Err(CliError::Quiet(code)) => code.into(),
        Err(e) => {
            // Whatever a message quotes, no control character reaches the
            // terminal; its lines stay lines.
            let message = e.to_string();
            let lines: Vec<_> = message
                .split('\n')
                .map(|line| printable(line, usize::MAX))
                .collect();
            eprintln!("xpgn: {}", lines.join("\n"));
            if PAST_FILE_SIZE_LIMIT.load(Ordering::SeqCst) {
                eprintln!(
                    "xpgn: file size limit reached (`ulimit -f`): a write past it failed, and nothing of it was kept"
                );
            }
            e.exit().into()
        }
    }
}

/// Loads the variant definition files of `XPGN_VARIANTS` and `--variants`
/// besides the built-ins: the registry every command looks names up in; a definition that
/// cannot be played stops xpgn before any game is read.
fn load_variants(cli: &Cli) -> Result<xpgn::rules::Registry, DefinitionError> {
    let env = std::env::var_os("XPGN_VARIANTS").unwrap_or_default();
    let mut paths: Vec<std::path::PathBuf> = std::env::split_paths(&env)
        .filter(|p| !p.as_os_str().is_empty())
        .collect();
    paths.extend(cli.variant_files.iter().map(std::path::PathBuf::from));
    let mut registry = xpgn::rules::Registry::builtin();
    for path in paths {
        // A refused variants.ini section is a warning: the file's other
        // sections load, as Fairy-Stockfish loads them.
        let loaded = registry.load_path(&path)?;
        for refusal in loaded.refused {
            eprintln!("{}", shown_definition_error(&refusal, Severity::Warning));
        }
        // An openings file a definition points at is read now: a fault in
        // it stops xpgn as one in the definition does.
        for name in &loaded.names {
            if let Some(variant) = registry.lookup(name) {
                xpgn::notation::opening::OpeningBook::of(&variant).map_err(|e| {
                    DefinitionError {
                        file: e.source_name,
                        line: e.line,
                        field: "openings".into(),
                        reason: e.message,
                    }
                })?;
            }
        }
    }
    Ok(registry)
}

/// A fault of a variant definition file as xpgn shows it: one at a line
/// in the diagnostics' one form (`file:line:col: field: reason`, the line
/// quoted with a caret under it:
/// [`xpgn::notation::diagnostic::Diagnostic::render_file_in`]); one with
/// no line (a file that cannot be read) in one line naming the file.
fn shown_definition_error(e: &DefinitionError, severity: Severity) -> String {
    if e.line == 0 {
        let warning = match severity {
            Severity::Warning => "warning: ",
            Severity::Error => "",
        };
        return format!("xpgn: {warning}{}", printable(&e.to_string(), usize::MAX));
    }
    // The file was read whole when it was loaded; read again for the line.
    let text = std::fs::read_to_string(&e.file).ok();
    definition_diagnostic(e, text.as_deref(), severity)
        .render_file_in(&e.file, text.as_deref().unwrap_or(""))
}

/// How many characters of a line of clap's error messages are shown.
const CLAP_LINE_CHARS: usize = 300;

/// Prints clap's message as xpgn's own begin (`xpgn: unexpected argument
/// ...`, not `error: ...`), as plain text, its control characters
/// escaped and very long values from the command line shortened. Help and
/// version go to standard output as clap writes them.
fn print_clap_error(e: &clap::Error) {
    if !e.use_stderr() {
        let _ = e.print();
        return;
    }
    let plain = e.render().to_string();
    let plain = match plain.strip_prefix("error: ") {
        Some(rest) => format!("xpgn: {rest}"),
        None => plain,
    };
    let lines: Vec<_> = plain
        .trim_end()
        .lines()
        .map(|line| printable(line, CLAP_LINE_CHARS))
        .collect();
    eprintln!("{}", lines.join("\n"));
}
