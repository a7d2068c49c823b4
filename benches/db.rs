//! The database: import throughput (games/s), bytes per game by table,
//! `--fen` query latency and `--piece`/`--material` scan rate (positions/s)
//! on a generated corpus of orthodox games. Run with `cargo bench --bench db`.
//!
//! The corpus: the real games of `tests/data/lichess/*.pgn` (or of the
//! folder `XPGN_CORPUS` names), each taken for its first 6-30 plies and
//! continued by legal moves a fixed-seed generator picks, up to the real
//! game's length, with tags of their own, so every game is distinct but
//! opens like a real one.
//!
//! The large database (100,000 games under `cargo bench`; a few hundred
//! under `cargo test --benches`, or `XPGN_BENCH_GAMES`) is built once and
//! kept under `target/xpgn-bench/`, since an import of that size takes a
//! minute or more. It is built in steps of 20,000 games, each timed by the
//! CPU time of the importing thread, and the rate of the first step (an
//! empty database) and of the last are printed, with the bytes per game
//! of each table and index (SQLite's `dbstat`).
//!
//! After building, the database is optimized (`xpgn optimize`: posting
//! rows merged, the trees of positions 2,000 or more games reach stored),
//! as a user would run it.
//!
//! Figures (`XPGN_BENCH_GAMES=500000`, openings taken from 2,496
//! tournament and online games through `XPGN_CORPUS`, on a machine of 2
//! cores shared with other builds: the benchmark's wall times were up to
//! three times the CPU times; docs/database.md gives the CPU times of the whole
//! process):
//! - import: 22,037 games/s into the empty database, 20,307 games/s into
//!   the one of 480,000 games (-7.9%); median step 20,570 games/s.
//! - size: 1,499 bytes a game after `optimize`: `position_postings` 659
//!   (82 entries a game), `games` 473 (`original_zstd` 348, `more_tags`
//!   2), `moves` 269, `game_hashes` 72, `games_variant` 16, 327 stored
//!   trees in 0.2 bytes a game.
//! - `tree` (CPU of the whole process): the start position 4 ms, after
//!   1. e4 c5 (100,343 games) 4 ms, a ply-16 position (119 games) 8 ms.
//! - `--fen` with `--limit 30`: 6 to 7 ms of CPU for the whole process.
//! - `--piece white:P@a1`: CPU of the whole `xpgn query` 1.55 s for
//!   41.1 M positions, 26.5 M/s. `--piece white:K@h8 --piece black:Q@*`
//!   24.3 M/s and `--material white:Q>=3` 26.4 M/s of wall time (the
//!   benchmark's median).

mod harness;

use std::path::{Path, PathBuf};
use std::time::Instant;

use harness::{Bench, Throughput};
use xpgn::db::import::ImportSummary;
use xpgn::db::pattern::{PositionPattern, parse_material, parse_piece};
use xpgn::db::query::GameFilter;
use xpgn::db::{Database, SCHEMA_VERSION};
use xpgn::notation::coord::{resolve_coord, write_coord};
use xpgn::notation::game::{Game, Node};
use xpgn::notation::reader::read_games;
use xpgn::notation::replay::replay;
use xpgn::notation::writer::{MoveNotation, write_game};
use xpgn::rules::{Move, Position, Variant};

/// Changes whenever the generator does, so a cached database is rebuilt.
const GENERATOR: u32 = 5;

fn corpus_games(bench: &Bench) -> usize {
    std::env::var("XPGN_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if bench.measuring() { 100_000 } else { 300 })
}

/// xorshift64*: the same games on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `XPGN_CORPUS`, or the real games in the repository.
fn corpus_dir() -> PathBuf {
    std::env::var_os("XPGN_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lichess"),
        PathBuf::from,
    )
}

/// The main lines of the real games, from the standard start.
fn real_lines() -> Vec<Vec<Move>> {
    let Ok(dir) = std::fs::read_dir(corpus_dir()) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = dir
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    let start = Position::start(Variant::chess());
    let mut lines = Vec::new();
    for f in files {
        let Ok(data) = std::fs::read(&f) else {
            continue;
        };
        for (_, game) in read_games(&data[..]).flatten() {
            if let Some(r) = Some(&game)
                .filter(|g| !g.broken())
                .and_then(|g| replay(&xpgn::rules::Registry::builtin(), g).ok())
                && r.start == start
                && !r.moves.is_empty()
            {
                lines.push(r.moves);
            }
        }
    }
    lines
}

/// `n` distinct games as XPGN text, numbered from `first` in their tags.
fn generate(first: usize, n: usize, real: &[Vec<Move>], seed: u64) -> String {
    let mut rng = Rng(seed | 1);
    let names = [
        "Adler", "Brandt", "Cramer", "Dietz", "Ebert", "Fuchs", "Graf",
    ];
    let mut out = String::new();
    for i in first..first + n {
        let (opening, length): (&[Move], usize) = if real.is_empty() {
            (&[], 40 + rng.below(80))
        } else {
            let base = &real[rng.below(real.len())];
            let k = (6 + rng.below(25)).min(base.len());
            (&base[..k], base.len().max(k))
        };
        let mut pos = Position::start(Variant::chess());
        let mut nodes = Vec::with_capacity(length);
        for ply in 0..length {
            let m = match opening.get(ply) {
                Some(m) => *m,
                None => {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    legal[rng.below(legal.len())]
                }
            };
            nodes.push(Node::new(write_coord(&pos, &m)));
            pos.play_unchecked(&m);
        }
        let result = pos.outcome().map_or("*", |o| o.result());
        let game = Game {
            tags: vec![
                ("Event".into(), format!("Bench {}", i / 100)),
                ("Site".into(), "Generated".into()),
                ("Date".into(), format!("{}.01.01", 1990 + i % 30)),
                ("Round".into(), format!("{}", i % 100 + 1)),
                (
                    "White".into(),
                    format!("{} {}", names[i % names.len()], i % 997),
                ),
                (
                    "Black".into(),
                    format!("{} {}", names[(i / 7) % names.len()], i % 991),
                ),
                ("Result".into(), result.into()),
            ],
            moves: nodes,
            result: Some(result.into()),
            ..Game::default()
        };
        out.push_str(
            &write_game(&xpgn::rules::Registry::builtin(), &game, MoveNotation::San)
                .expect("generated games replay"),
        );
    }
    out
}

fn bench_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("target"),
        PathBuf::from,
    );
    let dir = target.join("xpgn-bench");
    std::fs::create_dir_all(&dir).expect("target/xpgn-bench can be created");
    dir
}

fn import_text(db: &mut Database, text: &str) -> ImportSummary {
    let mut summary = ImportSummary::default();
    db.import("bench", text.as_bytes(), &mut summary, &mut |_| {})
        .expect("generated games import");
    summary
}

/// Seconds this thread has run on a CPU (Linux: `/proc/thread-self/schedstat`),
/// so an import rate is the rate of one core however busy the machine is;
/// `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// Games per timed step of the large build.
const STEP: usize = 20_000;

/// The database of `n` corpus games, built once and kept. Built in steps
/// of [`STEP`] games (each generated, then imported and timed), so the
/// import rate into an empty database and into one of `n - STEP` games
/// are both reported.
fn large_db(n: usize, real: &[Vec<Move>]) -> PathBuf {
    let kind = if real.is_empty() {
        "generated"
    } else {
        "corpus"
    };
    let path = bench_dir().join(format!("db-g{GENERATOR}-s{SCHEMA_VERSION}-{kind}-{n}.db"));
    if let Ok(db) = Database::open_existing(&path) {
        let games = db
            .stats()
            .map(|s| s.per_variant.iter().map(|v| v.1).sum::<u64>());
        if games.ok() == Some(n as u64) {
            return path;
        }
    }
    let building = path.with_extension("building");
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", building.display()));
    }
    let mut db = Database::open(&building).expect("a new database");
    let (mut generating, mut importing, mut imported, mut bytes) = (0.0, 0.0, 0, 0);
    let mut rates: Vec<(u64, f64)> = Vec::new();
    let steps = n.div_ceil(STEP);
    for step in 0..steps {
        let games = STEP.min(n - step * STEP);
        let started = Instant::now();
        // The first step keeps the seed of earlier builds: its first game
        // is the rare position's.
        let text = generate(step * STEP, games, real, 0x5eed + step as u64 * 0x9e37);
        generating += started.elapsed().as_secs_f64();
        bytes += text.len();
        let (started, cpu) = (Instant::now(), cpu_seconds());
        let s = import_text(&mut db, &text);
        let seconds = started.elapsed().as_secs_f64();
        importing += seconds;
        let on_cpu = cpu.zip(cpu_seconds()).map(|(a, b)| b - a);
        rates.push((imported, s.imported as f64 / on_cpu.unwrap_or(seconds)));
        imported += s.imported;
    }
    // What a user runs after importing: posting rows merged, the trees of
    // the positions many games reach stored.
    let started = Instant::now();
    let optimized = db.optimize().expect("optimize");
    eprintln!(
        "optimized in {:.1} s: {} posting rows into {}, {} opening trees stored",
        started.elapsed().as_secs_f64(),
        optimized.rows_before,
        optimized.rows_after,
        optimized.trees
    );
    drop(db);
    eprintln!(
        "built {}: {imported} games ({bytes} bytes of text) generated in {generating:.1} s, imported in {importing:.1} s ({:.0} games/s)",
        path.display(),
        imported as f64 / importing,
    );
    if let (Some(first), Some(last)) = (rates.first(), rates.last()) {
        let mut sorted: Vec<f64> = rates.iter().map(|r| r.1).collect();
        sorted.sort_by(f64::total_cmp);
        eprintln!(
            "  import rate per step of {STEP} games (CPU time of the importing thread): median {:.0}, lowest {:.0}, highest {:.0} games/s",
            sorted[sorted.len() / 2],
            sorted[0],
            sorted[sorted.len() - 1]
        );
        eprintln!(
            "  import rate: {:.0} games/s into an empty database, {:.0} games/s into one of {} games ({:+.1}%)",
            first.1,
            last.1,
            last.0,
            (last.1 / first.1 - 1.0) * 100.0
        );
    }
    std::fs::rename(&building, &path).expect("rename into place");
    path
}

/// Bytes per game by table and index (SQLite's `dbstat`), with the
/// payloads of the big columns.
fn report_size(path: &Path) {
    let conn = rusqlite::Connection::open(path).expect("bench database opens");
    let games: f64 = conn
        .query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0))
        .expect("count") as f64;
    let file = std::fs::metadata(path).map_or(0, |m| m.len());
    eprintln!(
        "database {}: {} bytes, {:.0} bytes/game",
        path.display(),
        file,
        file as f64 / games
    );
    let by_table: Result<Vec<(String, i64)>, _> = conn
        .prepare("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC")
        .and_then(|mut s| {
            s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<Vec<_>, _>>()
        });
    match by_table {
        Ok(rows) => {
            for (name, bytes) in rows {
                eprintln!("  {name:<28} {:>8.0} bytes/game", bytes as f64 / games);
            }
        }
        Err(e) => eprintln!("  (no dbstat in this SQLite build: {e})"),
    }
    for (what, sql) in [
        (
            "games.original_zstd payload",
            "SELECT SUM(length(original_zstd)) FROM games",
        ),
        (
            "moves.packed payload",
            "SELECT SUM(length(packed)) FROM moves",
        ),
        (
            "games.more_tags payload",
            "SELECT SUM(length(more_tags)) FROM games",
        ),
        ("index entries", "SELECT SUM(count) FROM position_postings"),
        (
            "index bytes",
            "SELECT SUM(length(entries)) FROM position_postings",
        ),
    ] {
        let v: i64 = conn.query_row(sql, [], |r| r.get(0)).unwrap_or(0);
        eprintln!("  {what:<28} {:>8.0} per game", v as f64 / games);
    }
}

fn import(bench: &Bench) {
    let real = real_lines();
    let n = if bench.measuring() { 2_000 } else { 50 };
    let text = generate(0, n, &real, 0xfeed);
    let dir = bench_dir();
    let mut group = bench.group("import");
    group.sample_size(10);
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function(format!("games/{n}"), |b| {
        b.iter(|| {
            let path = dir.join(format!("import-{}.db", std::process::id()));
            for ext in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
            }
            let mut db = Database::open(&path).expect("a new database");
            let s = import_text(&mut db, &text);
            assert_eq!(s.imported, n as u64);
            drop(db);
            let _ = std::fs::remove_file(&path);
        })
    });
}

fn queries(bench: &Bench) {
    let real = real_lines();
    let n = corpus_games(bench);
    let path = large_db(n, &real);
    report_size(&path);
    let db = Database::open_existing(&path).expect("bench database opens");
    let chess = Variant::chess();

    // A position of the Sicilian when the corpus is there (some thousands
    // of games), else of the first generated game.
    let mut pos = Position::start(&chess);
    let line = if real.is_empty() {
        "g1f3"
    } else {
        "e2e4 c7c5 g1f3 d7d6"
    };
    for m in line.split_whitespace() {
        let mv = resolve_coord(&pos, m).expect("a legal opening");
        pos.play_unchecked(&mv);
    }
    let rare = generate(0, 1, &real, 0x5eed);
    let rare_pos = {
        let game = read_games(rare.as_bytes())
            .next()
            .and_then(|g| g.ok())
            .map(|(_, g)| g)
            .filter(|g| !g.broken())
            .expect("the first bench game reads");
        let r = replay(&xpgn::rules::Registry::builtin(), &game).expect("and replays");
        let mut p = r.start.clone();
        for m in r.moves.iter().take(16) {
            p.play_unchecked(m);
        }
        p
    };
    let start = Position::start(&chess);
    let mut group = bench.group(format!("query ({n} games)"));
    group.sample_size(20);
    for (name, p, limit) in [
        ("--fen popular", &pos, None),
        ("--fen popular --limit 30", &pos, Some(30)),
        ("--fen start --limit 30", &start, Some(30)),
        ("--fen ply 16", &rare_pos, None),
    ] {
        let filter = GameFilter {
            position: Some(p.key()),
            limit,
            ..GameFilter::default()
        };
        let found = db.find_games(&filter).expect("query").len();
        group.bench_function(format!("{name} ({found} games found)"), |b| {
            b.iter(|| db.find_games(&filter).expect("query").len())
        });
    }
    for (name, p) in [
        ("tree start", &start),
        ("tree popular", &pos),
        ("tree ply 16", &rare_pos),
    ] {
        let games = db.tree(p).expect("tree").games;
        group.bench_function(format!("{name} ({games} games)"), |b| {
            b.iter(|| db.tree(p).expect("tree").moves.len())
        });
    }

    let mut group = bench.group(format!("scan ({n} games)"));
    group.sample_size(10);
    let pieces = |specs: &[&str]| {
        specs
            .iter()
            .map(|s| parse_piece(&chess, s).expect("pattern"))
            .collect()
    };
    let patterns = [
        // A white pawn on its first rank never stands: every position of
        // every game is tested.
        (
            "--piece white:P@a1",
            PositionPattern::new(&chess, pieces(&["white:P@a1"]), None),
        ),
        (
            "--piece white:K@h8 --piece black:Q@*",
            PositionPattern::new(&chess, pieces(&["white:K@h8", "black:Q@*"]), None),
        ),
        (
            "--material white:Q>=3",
            PositionPattern::new(
                &chess,
                Vec::new(),
                Some(parse_material(&chess, "white:Q>=3").expect("signature")),
            ),
        ),
    ];
    for (name, pattern) in patterns {
        let filter = GameFilter {
            pattern: Some(pattern),
            ..GameFilter::default()
        };
        let (found, stats) = db.search(&filter).expect("scan");
        group.throughput(Throughput::Elements(stats.positions_scanned));
        group.bench_function(
            format!(
                "{name} ({} positions, {} games found)",
                stats.positions_scanned,
                found.len()
            ),
            |b| b.iter(|| db.search(&filter).expect("scan").1.positions_scanned),
        );
    }
}

fn main() {
    let bench = Bench::from_args();
    import(&bench);
    queries(&bench);
}
