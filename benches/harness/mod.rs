//! The benchmarks' harness: each function is run over samples of enough
//! iterations to last about a tenth of a second, and the median, fastest
//! and slowest time per iteration are printed with the throughput.
//!
//! `cargo bench` passes `--bench`: the functions are measured. `cargo
//! test --benches` does not: each function runs once, as a smoke test of
//! the benchmark's code, without timing. A further argument that is not
//! an option keeps only the functions whose name holds it (`cargo bench
//! --bench movegen -- counsellor`).
//!
//! A harness of its own rather than a statistics crate: the benchmarks
//! report medians of whole runs (benches/compare.sh times whole commands
//! beside the yardstick), and `cargo test` builds every dev-dependency,
//! so a large one lengthens every test build.

// Each benchmark is a crate of its own and uses a part of the harness.
#![allow(dead_code)]

use std::fmt::Display;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// How long a sample should last at least: enough iterations of a fast
/// function are run in one sample for the clock to measure them well.
const SAMPLE_TARGET: Duration = Duration::from_millis(100);

/// What one iteration of a function processes, for its rate.
#[derive(Clone, Copy, Debug)]
pub enum Throughput {
    /// Items (leaves, games, positions).
    Elements(u64),
    /// Bytes of input.
    Bytes(u64),
}

/// The run's mode and filter, from the command line.
#[derive(Debug)]
pub struct Bench {
    measuring: bool,
    filter: Option<String>,
}

impl Bench {
    /// The mode and filter of this run, from its arguments.
    pub fn from_args() -> Bench {
        Bench::from(std::env::args().skip(1))
    }

    fn from(args: impl Iterator<Item = String>) -> Bench {
        let mut bench = Bench {
            measuring: false,
            filter: None,
        };
        for arg in args {
            if arg == "--bench" {
                bench.measuring = true;
            } else if !arg.starts_with('-') {
                bench.filter = Some(arg);
            }
        }
        bench
    }

    /// Whether functions are measured (`cargo bench`) rather than run
    /// once each (`cargo test --benches`).
    pub fn measuring(&self) -> bool {
        self.measuring
    }

    /// A group of functions named `name/…`, 10 samples each by default.
    pub fn group(&self, name: impl Into<String>) -> Group<'_> {
        Group {
            bench: self,
            name: name.into(),
            samples: 10,
            throughput: None,
        }
    }
}

/// Functions measured alike: the same number of samples, and the
/// throughput last set.
#[derive(Debug)]
pub struct Group<'a> {
    bench: &'a Bench,
    name: String,
    samples: usize,
    throughput: Option<Throughput>,
}

impl Group<'_> {
    /// Samples per function (at least 2).
    pub fn sample_size(&mut self, samples: usize) {
        self.samples = samples.max(2);
    }

    /// What one iteration of the functions benchmarked next processes.
    pub fn throughput(&mut self, throughput: Throughput) {
        self.throughput = Some(throughput);
    }

    /// Runs `f`, which calls [`Bencher::iter`] with the code to time, and
    /// prints its figures (or that it ran, in a smoke run).
    pub fn bench_function(&mut self, id: impl Display, mut f: impl FnMut(&mut Bencher)) {
        let name = format!("{}/{id}", self.name);
        if self
            .bench
            .filter
            .as_ref()
            .is_some_and(|w| !name.contains(w))
        {
            return;
        }
        let mut bencher = Bencher {
            iterations: 1,
            elapsed: Duration::ZERO,
        };
        f(&mut bencher);
        if !self.bench.measuring {
            println!("{name}: ran once");
            return;
        }
        let first = bencher.elapsed.max(Duration::from_nanos(1));
        bencher.iterations = (SAMPLE_TARGET.as_nanos() / first.as_nanos()).clamp(1, 1 << 20) as u64;
        let mut per_iteration: Vec<Duration> = (0..self.samples)
            .map(|_| {
                f(&mut bencher);
                bencher.elapsed / bencher.iterations as u32
            })
            .collect();
        per_iteration.sort();
        println!("{}", figures(&name, &per_iteration, self.throughput));
    }
}

/// Times the code of one benchmark.
#[derive(Debug)]
pub struct Bencher {
    iterations: u64,
    elapsed: Duration,
}

impl Bencher {
    /// Runs `f` as many times as this sample needs, timing them together;
    /// its result is kept from being optimised away.
    pub fn iter<O>(&mut self, mut f: impl FnMut() -> O) {
        let start = Instant::now();
        for _ in 0..self.iterations {
            black_box(f());
        }
        self.elapsed = start.elapsed();
    }
}

/// One line of results: the name, the median time per iteration with
/// the fastest and slowest, and the median's rate.
fn figures(name: &str, sorted: &[Duration], throughput: Option<Throughput>) -> String {
    let median = sorted[sorted.len() / 2];
    let mut line = format!(
        "{name:<48} {} ({} to {} in {} samples)",
        time(median),
        time(sorted[0]),
        time(sorted[sorted.len() - 1]),
        sorted.len()
    );
    let seconds = median.as_secs_f64().max(1e-12);
    match throughput {
        Some(Throughput::Elements(n)) => line += &format!(", {}/s", amount(n as f64 / seconds, "")),
        Some(Throughput::Bytes(n)) => line += &format!(", {}/s", amount(n as f64 / seconds, "B")),
        None => {}
    }
    line
}

fn time(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.3} s", ns / 1e9)
    }
}

fn amount(x: f64, unit: &str) -> String {
    if x >= 1e9 {
        format!("{:.2} G{unit}", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2} M{unit}", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.2} k{unit}", x / 1e3)
    } else {
        format!("{x:.1} {unit}")
    }
}
