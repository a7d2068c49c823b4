//! Validation on every core: the same games read and replayed by
//! `notation::parallel::map_games` with 1 worker and with one per core
//! (what `xpgn validate --jobs N` does), so the ratio between them is the
//! parallel speed-up. Run with `cargo bench --bench parallel`; input
//! `tests/data/lichess/*.pgn` (or the `.pgn` files of the folder
//! `XPGN_CORPUS` names) laid end to end four times.
//!
//! The workers split the input in turn (no splitter thread). `xpgn
//! validate --jobs 2` of 16.7 MB of real games, medians of 9 runs, on a
//! machine whose 2 cores were busy with other builds (wall seconds then
//! show no speed-up, so only CPU seconds compare): 0.282 CPU seconds,
//! 1.009 times those of `--jobs 1` (what the parallel machinery costs on
//! top of the work).

use std::io::BufRead;

mod harness;

use harness::{Bench, Throughput};
use xpgn::notation::parallel::{Event, default_jobs, map_games};
use xpgn::notation::validation::validate;

/// The corpus, four times, or a small generated stand-in.
fn input() -> Vec<u8> {
    let dir = std::env::var_os("XPGN_CORPUS").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lichess"),
        std::path::PathBuf::from,
    );
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "pgn"));
    files.sort();
    let mut data = Vec::new();
    for _ in 0..4 {
        for f in &files {
            data.extend(std::fs::read(f).unwrap_or_default());
            data.push(b'\n');
        }
    }
    if data.len() < 1000 {
        data = "[Event \"x\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0\n\n"
            .repeat(5000)
            .into_bytes();
    }
    data
}

/// Games and valid games, as `xpgn validate --jobs jobs` counts them.
fn validate_all(data: &'static [u8], jobs: usize) -> (usize, usize) {
    let open = |_: &str| Ok(Box::new(data) as Box<dyn BufRead + Send>);
    let (mut games, mut valid) = (0, 0);
    map_games::<_, (), _, _>(
        &["input".to_string()],
        &open,
        jobs,
        |_, text| validate(&xpgn::rules::Registry::builtin(), text).is_valid(),
        |event| {
            if let Event::Game { value, .. } = event {
                games += 1;
                valid += usize::from(value);
            }
            Ok(())
        },
    )
    .expect("in-memory input");
    (games, valid)
}

fn parallel(bench: &Bench) {
    let data: &'static [u8] = input().leak();
    let mut group = bench.group("validate");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(data.len() as u64));
    let all = default_jobs();
    for jobs in [1, all] {
        let (games, valid) = validate_all(data, jobs);
        assert_eq!(games, valid, "the input is valid");
        group.bench_function(format!("{games} games, {jobs} jobs"), |b| {
            b.iter(|| validate_all(data, jobs))
        });
    }
}

fn main() {
    parallel(&Bench::from_args());
}
