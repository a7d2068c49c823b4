//! Perft tables: `tests/perft/<variant>.perft`, one generic harness.
//!
//! Format: blocks separated by blank lines; `id NAME`, then `fen STRING`
//! (optional: the start position), `moves COORD...` (optional), and
//! `perft DEPTH NODES` lines. `#` starts a comment line.
//!
//! A table is named after its variant: a built-in, or a section of
//! `tests/variants/fairy.ini` (Fairy-Stockfish's format, loaded through
//! xpgn's .ini reader). `tests/data/perft/builtin-fsf.perft` holds the
//! tables of Fairy-Stockfish's built-in variants that xpgn ships, each
//! block naming its variant (`variant NAME`); rows of more than
//! [`QUICK_NODES`] nodes run only with `--ignored`.

use std::path::Path;

use xpgn::notation::coord::resolve_coord;
use xpgn::notation::position::read_position;
use xpgn::rules::{Position, Registry, Variant, perft};

struct Case {
    file: String,
    id: String,
    /// `variant NAME`: the block's variant, where the file names none.
    variant: Option<String>,
    fen: Option<String>,
    moves: Vec<String>,
    counts: Vec<(u32, u64)>,
}

fn load(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap();
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut cases = Vec::new();
    let mut cur: Option<Case> = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => {
                cases.extend(cur.take());
                cur = Some(Case {
                    file: file.clone(),
                    id: rest.to_string(),
                    variant: None,
                    fen: None,
                    moves: Vec::new(),
                    counts: Vec::new(),
                });
            }
            "variant" => cur.as_mut().unwrap().variant = Some(rest.to_string()),
            "fen" => cur.as_mut().unwrap().fen = Some(rest.to_string()),
            "moves" => {
                cur.as_mut().unwrap().moves = rest.split_whitespace().map(String::from).collect()
            }
            "perft" => {
                let (d, nodes) = rest.split_once(' ').unwrap();
                cur.as_mut()
                    .unwrap()
                    .counts
                    .push((d.parse().unwrap(), nodes.trim().parse().unwrap()));
            }
            _ => panic!("{file}:{}: unknown key `{key}`", n + 1),
        }
    }
    cases.extend(cur);
    cases
}

fn position(variant: &Variant, case: &Case) -> Position {
    let mut pos = match &case.fen {
        Some(fen) => {
            read_position(variant, fen).unwrap_or_else(|e| panic!("{} {}: {e}", case.file, case.id))
        }
        None => Position::start(variant),
    };
    for m in &case.moves {
        let mv = resolve_coord(&pos, m)
            .unwrap_or_else(|e| panic!("{} {}: {m}: {e}", case.file, case.id));
        pos.play_unchecked(&mv);
    }
    pos
}

#[test]
fn perft_tables_of_every_variant() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut checked = 0;
    let mut seen_variants = Vec::new();
    let mut registry = Registry::builtin();
    let ini = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variants/fairy.ini");
    let from_ini = registry.load_path(&ini).unwrap();
    assert!(from_ini.refused.is_empty(), "{:?}", from_ini.refused);
    let from_ini = from_ini.names;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "perft") {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let variant = registry
            .lookup(&name)
            .unwrap_or_else(|| panic!("no variant {name}"));
        seen_variants.push(variant.name().to_string());
        for case in load(&path) {
            let pos = position(&variant, &case);
            for &(depth, nodes) in &case.counts {
                assert_eq!(
                    perft(&pos, depth),
                    nodes,
                    "{} {} depth {depth}",
                    case.file,
                    case.id
                );
                checked += 1;
            }
        }
    }
    seen_variants.extend(
        load(&root().join(FSF_TABLE))
            .into_iter()
            .filter_map(|c| c.variant),
    );
    for name in Variant::builtin()
        .iter()
        .map(|v| v.name().to_string())
        .chain(from_ini)
    {
        assert!(seen_variants.contains(&name), "no perft table for {name}");
    }
    assert!(checked > 0);
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The perft tables of Fairy-Stockfish's built-in variants that xpgn
/// ships: start position and positions reached by random play, every
/// count also counted by Fairy-Stockfish (outside the project).
const FSF_TABLE: &str = "tests/data/perft/builtin-fsf.perft";

/// Rows up to this many nodes run in the default test run.
const QUICK_NODES: u64 = 200_000;

/// Checks the rows of the built-in Fairy-Stockfish variants' table with
/// `keep` nodes; returns how many.
fn check_fsf_table(keep: impl Fn(u64) -> bool) -> usize {
    let registry = Registry::builtin();
    let mut checked = 0;
    for case in load(&root().join(FSF_TABLE)) {
        let name = case
            .variant
            .as_deref()
            .unwrap_or_else(|| panic!("{}: block {} names no variant", case.file, case.id));
        let variant = registry
            .lookup(name)
            .unwrap_or_else(|| panic!("{} {}: no built-in {name}", case.file, case.id));
        assert!(variant.is_builtin(), "{name}");
        let pos = position(&variant, &case);
        for &(depth, nodes) in case.counts.iter().filter(|(_, n)| keep(*n)) {
            assert_eq!(
                perft(&pos, depth),
                nodes,
                "{} {} ({name}) depth {depth}",
                case.file,
                case.id
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_tables_of_fairy_stockfishs_builtin_variants() {
    assert!(check_fsf_table(|n| n <= QUICK_NODES) > 300);
}

#[test]
#[ignore = "the rows of more than QUICK_NODES nodes, 113 million in all, take seconds more; run with --ignored"]
fn perft_tables_of_fairy_stockfishs_builtin_variants_deep_rows() {
    assert!(check_fsf_table(|n| n > QUICK_NODES) > 0);
}

/// The number of legal moves perft counts at its last ply is the number
/// the generation lists, in positions made for the count's hard cases:
/// pins, checks by riders and leapers, double check, captures en passant
/// that open a rank or take the checking pawn, promotions by capture.
#[test]
fn the_last_ply_counts_the_moves_the_generation_lists() {
    let chess = Variant::chess();
    for fen in [
        "4k3/8/8/8/1b6/2P5/3K4/8 w - - 0 1",
        "4r3/8/8/8/4R3/8/8/4K2k w - - 0 1",
        "4k3/8/8/8/8/8/1B6/r3K2R w K - 0 1",
        "4k3/8/8/8/8/3n4/1B6/4K2R w K - 0 1",
        "4k3/8/B7/8/8/3n4/8/r3K3 w - - 0 1",
        "8/8/8/K1pP3r/8/8/8/7k w - c6 0 1",
        "8/8/8/2pP4/1K6/8/8/7k w - c6 0 1",
        "1n1n4/2P5/8/8/8/8/8/K6k w - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        let pos = read_position(&chess, fen).unwrap();
        assert_eq!(pos.count_legal_moves(), pos.legal_moves().len(), "{fen}");
    }
}
