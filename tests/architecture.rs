//! The layering contract: `rules` knows nothing of text or the command
//! line; `notation` nothing of the command line. nom lives only in
//! `notation`, clap only in `cli`.

use std::path::Path;

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
