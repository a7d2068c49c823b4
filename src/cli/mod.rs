//! The `xpgn` command: a thin clap shell over the library. The only module
//! that prints or chooses exit codes.

mod args;
mod cmd;
mod exit;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

pub use args::Cli;
pub use exit::{CliError, Exit};

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                Exit::Fatal
            } else {
                Exit::Ok
            };
            let _ = e.print();
            return code.into();
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = cmd::run(&cli, &mut out).and_then(|()| out.flush().map_err(CliError::from));
    match result {
        Ok(()) => Exit::Ok.into(),
        Err(CliError::BrokenPipe) => Exit::Ok.into(),
        Err(CliError::Quiet(code)) => code.into(),
        Err(e) => {
            eprintln!("xpgn: {e}");
            e.exit().into()
        }
    }
}
