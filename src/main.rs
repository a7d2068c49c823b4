//! The `xpgn` binary: a thin clap shell over the library.
mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
