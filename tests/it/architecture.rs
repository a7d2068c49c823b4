//! The layering contract: `rules` knows nothing of text or the command
//! line; `notation` nothing of the command line. nom lives only in
//! `notation`, clap only in the binary's `cli`. Without its default
//! features the library is the rules and the notation alone.

use std::path::Path;
use std::process::Command;

fn sources(dir: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    assert!(!out.is_empty(), "no sources under {dir}");
    out
}

fn forbid(dir: &str, needles: &[&str]) {
    for (path, text) in sources(dir) {
        for n in needles {
            assert!(!text.contains(n), "{path} uses `{n}`: layering broken");
        }
    }
}

#[test]
fn rules_depend_on_nothing_above_them() {
    forbid(
        "src/rules",
        &[
            "crate::notation",
            "crate::cli",
            "crate::db",
            "nom::",
            "clap::",
            "rusqlite",
        ],
    );
}

#[test]
fn notation_depends_only_on_rules() {
    forbid(
        "src/notation",
        &["crate::cli", "crate::db", "clap::", "rusqlite"],
    );
}

#[test]
fn render_depends_only_on_rules() {
    forbid(
        "src/render",
        &[
            "crate::notation",
            "crate::cli",
            "crate::db",
            "crate::serve",
            "clap::",
            "rusqlite",
        ],
    );
}

#[test]
fn serve_is_above_db_and_below_nothing() {
    forbid("src/serve", &["crate::cli", "clap::", "rusqlite"]);
    forbid("src/db", &["crate::serve", "crate::render"]);
    forbid("src/notation", &["crate::serve", "crate::render"]);
}

#[test]
fn records_and_datasets_know_no_database_and_no_command_line() {
    // The preparation of a game serves both stores: no SQLite in it.
    forbid(
        "src/record",
        &[
            "crate::db",
            "crate::cli",
            "crate::dataset",
            "clap::",
            "rusqlite",
        ],
    );
    // The datasets are written from records; the database is only a
    // source the command line reads them from.
    forbid("src/dataset", &["crate::cli", "clap::", "rusqlite"]);
    forbid("src/db", &["crate::dataset", "parquet::"]);
    forbid(
        "src/notation",
        &["crate::record", "crate::dataset", "parquet::"],
    );
}

#[test]
fn the_command_line_belongs_to_the_binary() {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    assert!(
        !lib.lines()
            .any(|l| l.trim_start().starts_with("pub mod cli")
                || l.trim_start().starts_with("mod cli")),
        "src/lib.rs declares the command line: it is the binary's (src/main.rs)"
    );
    // The command line reaches the library as any other crate does.
    forbid(
        "src/cli",
        &[
            "crate::rules",
            "crate::notation",
            "crate::db",
            "crate::record",
            "crate::render",
            "crate::dataset",
            "crate::serve",
        ],
    );
}

/// The crates of the library's dependency tree for `features`, by name.
fn dependencies(features: &[&str]) -> Vec<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["tree", "--offline", "--edges", "normal", "--prefix", "none"])
        .args(["--format", "{p}", "--manifest-path"])
        .arg(&manifest)
        .args(features);
    let out = cmd.output().expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn without_default_features_the_library_has_no_database_command_line_or_server() {
    let tree = dependencies(&["--no-default-features"]);
    assert!(tree.iter().any(|c| c == "nom"), "no nom in {tree:?}");
    for absent in [
        "rusqlite",
        "libsqlite3-sys",
        "clap",
        "zstd",
        "sha2",
        "signal-hook",
        "walkdir",
        "parquet",
        "flate2",
        "bzip2",
        "libbz2-rs-sys",
    ] {
        assert!(
            !tree.iter().any(|c| c == absent),
            "{absent} is in the dependency tree without default features: {tree:?}"
        );
    }
    // The database feature brings the database's crates, and only them.
    let db = dependencies(&["--no-default-features", "--features", "db"]);
    for present in ["rusqlite", "zstd", "sha2"] {
        assert!(db.iter().any(|c| c == present), "no {present} with db");
    }
    for absent in ["clap", "signal-hook", "parquet", "flate2", "bzip2"] {
        assert!(!db.iter().any(|c| c == absent), "{absent} with db alone");
    }
    // The compressed files' feature brings its decoders, and gzip and
    // bzip2 are Rust: no C compiler for them (zstd's is the database's).
    let compression = dependencies(&["--no-default-features", "--features", "compression"]);
    for present in ["flate2", "miniz_oxide", "bzip2", "libbz2-rs-sys", "zstd"] {
        assert!(
            compression.iter().any(|c| c == present),
            "no {present} with compression"
        );
    }
    for absent in ["rusqlite", "clap", "libz-sys", "bzip2-sys", "libz-ng-sys"] {
        assert!(
            !compression.iter().any(|c| c == absent),
            "{absent} with compression alone"
        );
    }
}
