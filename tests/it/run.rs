//! Runs the `xpgn` binary, as the command-line tests do.

// Each test module uses only some of these.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs `xpgn` with `args` and waits for it.
pub fn xpgn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A run's standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A run's standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
