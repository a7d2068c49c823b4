//! The faulty sample files: for every `samples/invalid/<name>.xpgn`, the
//! diagnostic lines that `xpgn validate samples/invalid/<name>.xpgn` prints
//! (run from the crate root, so paths start `samples/invalid/`; the summary
//! line `N games read, ...` left out) must equal
//! `tests/data/invalid-expected/<name>.expected` line for line, and the
//! command must exit with code 1 (input rejected). The expected files
//! stand apart from the samples so that a reader of `samples/` finds only
//! game files there.
//!
//! Each file holds exactly one fault (possibly after valid games, to show
//! that reading goes on), so each expected file has exactly one diagnostic:
//! its line, then the source line it points at with a caret under the text
//! concerned.
//!
//! After an intended change of a message, rewrite the expected files with
//!
//! ```text
//! XPGN_BLESS=1 cargo test --test it invalid::
//! ```
//!
//! and review the diff before committing it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `samples/invalid/*.xpgn`, relative to the crate root, sorted.
fn invalid_files() -> Vec<PathBuf> {
    let dir = root().join("samples/invalid");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("samples/invalid exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "xpgn"))
        .map(|p| p.strip_prefix(root()).unwrap().to_path_buf())
        .collect();
    files.sort();
    files
}

/// Runs `xpgn validate <rel>` from the crate root; returns the exit code
/// and the diagnostic lines (stdout without the summary line).
fn validate(rel: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xpgn"))
        .arg("validate")
        .arg(rel)
        .current_dir(root())
        .output()
        .expect("the xpgn binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines: Vec<&str> = stdout.lines().collect();
    let summary = lines.pop().unwrap_or_default();
    assert!(
        summary.contains(" game read, ") || summary.contains(" games read, "),
        "{}: the last line is not the summary: {stdout}",
        rel.display()
    );
    let mut diagnostics = lines.join("\n");
    if !diagnostics.is_empty() {
        diagnostics.push('\n');
    }
    (
        out.status.code(),
        diagnostics,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A line of the quoted source under a diagnostic: a gutter (blank or
/// the line number), then `|`.
fn is_snippet(line: &str) -> bool {
    line.split_once(" |")
        .is_some_and(|(gutter, _)| gutter.trim().chars().all(|c| c.is_ascii_digit()))
}

/// Where the expected diagnostics of the invalid samples are.
fn expected_dir() -> PathBuf {
    root().join("tests/data/invalid-expected")
}

#[test]
fn invalid_samples_give_the_expected_diagnostics() {
    let bless = std::env::var_os("XPGN_BLESS").is_some_and(|v| v == "1");
    let files = invalid_files();
    assert!(files.len() >= 10, "only {} invalid samples", files.len());
    let mut failures = Vec::new();
    for rel in &files {
        let expected_path =
            expected_dir().join(rel.with_extension("expected").file_name().unwrap());
        let (code, diagnostics, stderr) = validate(rel);
        if code != Some(1) {
            failures.push(format!(
                "{}: exit code {code:?}, want 1 (stderr: {stderr})",
                rel.display()
            ));
        }
        let headers: Vec<&str> = diagnostics.lines().filter(|l| !is_snippet(l)).collect();
        let lines = headers.len();
        if lines != 1 {
            failures.push(format!(
                "{}: {lines} diagnostic lines, want exactly one fault per file:\n{diagnostics}",
                rel.display()
            ));
        }
        if !headers
            .iter()
            .all(|l| l.starts_with(&format!("{}:", rel.display())))
        {
            failures.push(format!(
                "{}: diagnostics do not start with the path as given:\n{diagnostics}",
                rel.display()
            ));
        }
        if bless {
            std::fs::write(&expected_path, &diagnostics).expect("expected file is writable");
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == diagnostics => {}
            Ok(expected) => failures.push(format!(
                "{}: diagnostics differ\n--- expected ({})\n{expected}--- actual\n{diagnostics}(XPGN_BLESS=1 rewrites the expected files)",
                rel.display(),
                expected_path.display()
            )),
            Err(e) => failures.push(format!(
                "{}: {e} (XPGN_BLESS=1 writes it)",
                expected_path.display()
            )),
        }
    }
    // An expected file whose sample was removed or renamed.
    for entry in std::fs::read_dir(expected_dir()).unwrap() {
        let path = entry.unwrap().path();
        let sample = root()
            .join("samples/invalid")
            .join(path.with_extension("xpgn").file_name().unwrap());
        if !sample.exists() {
            failures.push(format!(
                "{}: no matching {}",
                path.display(),
                sample.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
