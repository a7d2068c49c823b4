//! `docs/rules.md` explains every ruling id the code cites, so a user can
//! look up the id an error message ends with.

use std::collections::BTreeSet;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file below `dir`.
fn sources(dir: &Path) -> Vec<(String, String)> {
    text_files(dir, &["rs"])
}

/// Every file below `dir` whose extension is one of `extensions`.
fn text_files(dir: &Path, extensions: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("a readable source directory") {
            let p = e.expect("a directory entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .is_some_and(|x| extensions.iter().any(|e| x == *e))
            {
                let text = std::fs::read_to_string(&p).expect("a readable source file");
                out.push((p.display().to_string(), text));
            }
        }
    }
    out
}

/// The ruling ids in `text`: `R-`, a group of capitals or digits, `-`,
/// digits, and an optional lower-case case letter (`R-CO-4a`).
fn ruling_ids(text: &str) -> BTreeSet<String> {
    let b = text.as_bytes();
    let mut ids = BTreeSet::new();
    let mut i = 0;
    while let Some(at) = text[i..].find("R-").map(|k| k + i) {
        i = at + 2;
        if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'-') {
            continue;
        }
        let mut j = at + 2;
        let group = j;
        while j < b.len() && (b[j].is_ascii_uppercase() || b[j].is_ascii_digit()) {
            j += 1;
        }
        if j == group || j >= b.len() || b[j] != b'-' {
            continue;
        }
        j += 1;
        let number = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j == number {
            continue;
        }
        if j < b.len()
            && b[j].is_ascii_lowercase()
            && !b.get(j + 1).is_some_and(u8::is_ascii_alphanumeric)
        {
            j += 1;
        }
        ids.insert(text[at..j].to_string());
    }
    ids
}

#[test]
fn ruling_ids_are_found_as_cited() {
    let ids = ruling_ids("(R-CO-4a) R-0-1, R-CS-3..6 and `R-960-2`; XR-1-1, R-X-, R--1");
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    assert_eq!(ids, ["R-0-1", "R-960-2", "R-CO-4a", "R-CS-3"]);
}

#[test]
fn every_ruling_id_cited_anywhere_is_explained_in_docs_rules_md() {
    let docs = std::fs::read_to_string(root().join("docs/rules.md")).expect("docs/rules.md exists");
    // An id is explained where it is defined: in bold, `**R-CS-4**`.
    let defined: BTreeSet<String> = ruling_ids(&docs)
        .into_iter()
        .filter(|id| docs.contains(&format!("**{id}**")))
        .collect();
    let mut cited = BTreeSet::new();
    let mut missing = Vec::new();
    // The code, and every other text of the repository that cites a
    // ruling: tests, benches, definitions, docs, the grammar, samples.
    let mut texts = sources(&root().join("src"));
    for dir in ["tests", "benches", "variants", "grammar", "docs", "samples"] {
        let extensions = ["rs", "toml", "md", "ebnf", "pgn", "xpgn", "expected"];
        texts.extend(text_files(&root().join(dir), &extensions));
    }
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md exists");
    texts.push(("README.md".into(), readme));
    for (path, text) in texts {
        for id in ruling_ids(&text) {
            if !defined.contains(&id) {
                missing.push(format!("{id} (cited in {path})"));
            }
            cited.insert(id);
        }
    }
    assert!(
        cited.len() > 20,
        "the search finds the cited ids: {cited:?}"
    );
    assert!(
        missing.is_empty(),
        "docs/rules.md does not explain: {}",
        missing.join(", ")
    );
}

#[test]
fn every_ruling_the_docs_define_is_defined_once() {
    let docs = std::fs::read_to_string(root().join("docs/rules.md")).expect("docs/rules.md exists");
    for id in ruling_ids(&docs) {
        let definitions = docs.matches(&format!("**{id}**")).count();
        assert!(definitions <= 1, "{id} is defined {definitions} times");
    }
    // Each variant's rulings are numbered from 1 without gaps.
    let defined: Vec<String> = ruling_ids(&docs)
        .into_iter()
        .filter(|id| {
            docs.contains(&format!("**{id}**")) && id.ends_with(|c: char| c.is_ascii_digit())
        })
        .collect();
    for id in &defined {
        let (group, n) = id.rsplit_once('-').unwrap();
        let n: u32 = n.parse().unwrap();
        if n > 1 {
            let before = format!("{group}-{}", n - 1);
            assert!(
                defined.contains(&before),
                "{id} is defined, {before} is not"
            );
        }
    }
}

/// The `fn: module::function` names in a grammar file's comments.
fn grammar_functions(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("fn: ") {
        rest = &rest[at + 4..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        if let Some((module, function)) = name.rsplit_once("::") {
            out.push((module.to_string(), function.to_string()));
        }
    }
    out
}

#[test]
fn grammar_functions_are_found_as_written() {
    let found =
        grammar_functions("a = b ; (* fn: position::read_board\n x *) (* fn: square::square *)");
    assert_eq!(
        found,
        [
            ("position".to_string(), "read_board".to_string()),
            ("square".to_string(), "square".to_string())
        ]
    );
}

/// The source file of a grammar's module name: `pgn` is
/// src/notation/pgn.rs, `crate::db::pattern` src/db/pattern.rs.
fn module_file(module: &str) -> std::path::PathBuf {
    match module.strip_prefix("crate::") {
        Some(path) => root()
            .join("src")
            .join(format!("{}.rs", path.replace("::", "/"))),
        None => root().join("src/notation").join(format!("{module}.rs")),
    }
}

/// Each production of the grammars names the function that reads it, and
/// that function exists in the module named.
#[test]
fn every_function_the_grammar_names_exists() {
    for file in ["grammar/position.ebnf", "grammar/xpgn.ebnf"] {
        let text = std::fs::read_to_string(root().join(file)).expect("a grammar file");
        let named = grammar_functions(&text);
        assert!(named.len() >= 10, "{file} names {} functions", named.len());
        for (module, function) in named {
            let path = module_file(&module);
            let source = std::fs::read_to_string(&path)
                .unwrap_or_else(|_| panic!("{file} names module `{module}`, which has no file"));
            let defined = source.lines().any(|line| {
                let line = line.trim_start();
                let line = line
                    .strip_prefix("pub(crate) ")
                    .or_else(|| line.strip_prefix("pub "))
                    .unwrap_or(line);
                line.strip_prefix("fn ").is_some_and(|rest| {
                    rest.starts_with(&format!("{function}("))
                        || rest.starts_with(&format!("{function}<"))
                })
            });
            assert!(
                defined,
                "{file} names `{module}::{function}`, which is not defined"
            );
        }
    }
}

/// Every production of grammar/xpgn.ebnf names its function, but the
/// character classes, which no function of their own reads.
#[test]
fn every_production_of_the_xpgn_grammar_names_its_function() {
    let text = std::fs::read_to_string(root().join("grammar/xpgn.ebnf")).expect("the grammar");
    let character_classes = [
        "nonzero-digit",
        "digit",
        "upper-letter",
        "lower-letter",
        "tab",
    ];
    // A production runs from its name at the start of a line to the next.
    let mut productions: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let head = line.split('=').next().unwrap_or("").trim_end();
        let is_name = !head.is_empty()
            && line.contains('=')
            && !line.starts_with(' ')
            && head.chars().all(|c| c.is_ascii_lowercase() || c == '-');
        if is_name {
            productions.push((head.to_string(), String::new()));
        }
        if let Some((_, body)) = productions.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    assert!(productions.len() >= 40, "{} productions", productions.len());
    for (name, body) in &productions {
        let names_one = body.contains("fn: ");
        if character_classes.contains(&name.as_str()) {
            assert!(!names_one, "{name} is a character class");
        } else {
            assert!(names_one, "production `{name}` names no function");
        }
    }
}

#[test]
fn the_readme_and_docs_variants_md_list_every_builtin_variant() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md exists");
    let variants_md =
        std::fs::read_to_string(root().join("docs/variants.md")).expect("docs/variants.md exists");
    for v in xpgn::rules::Variant::builtin() {
        let quoted = format!("`{}`", v.name());
        assert!(readme.contains(&quoted), "README.md does not list {quoted}");
        // Fairy-Stockfish's built-ins are rows of docs/variants.md (the
        // others are explained in docs/rules.md).
        let source = xpgn::rules::builtin_source(v.name()).unwrap();
        if source.contains("Fairy-Stockfish's built-in variant") {
            assert!(
                variants_md.contains(&format!("| {quoted} |")),
                "docs/variants.md has no row for {quoted}"
            );
        }
    }
}
