//! The `xpgn` binary.
fn main() -> std::process::ExitCode {
    xpgn::cli::main()
}
