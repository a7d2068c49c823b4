//! Exit codes and the errors that pick them.

use std::process::ExitCode;

/// The process exit codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Success.
    Ok = 0,
    /// The input was read but breaks the rules (an illegal move).
    Rejected = 1,
    /// Bad arguments or unreadable input.
    Fatal = 2,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

/// What stops a command.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A bad argument value.
    #[error("{0}")]
    Usage(String),
    /// A move that breaks the rules.
    #[error("{0}")]
    Rejected(String),
    /// Already reported on the way: only the exit code is left to give.
    #[error("")]
    Quiet(Exit),
    /// Output closed by the reader (`xpgn perft 5 | head`): not an error.
    #[error("broken pipe")]
    BrokenPipe,
    /// Any other I/O failure.
    #[error("{0}")]
    Io(std::io::Error),
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> CliError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Io(e)
        }
    }
}

impl CliError {
    /// The exit code this error means.
    pub fn exit(&self) -> Exit {
        match self {
            CliError::Rejected(_) => Exit::Rejected,
            CliError::BrokenPipe => Exit::Ok,
            CliError::Quiet(e) => *e,
            CliError::Usage(_) | CliError::Io(_) => Exit::Fatal,
        }
    }
}
