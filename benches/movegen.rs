//! Perft speed per variant: leaves per second, one core, bulk counting at
//! the last ply. Run with `cargo bench --bench movegen`.
//!
//! Figures, 2026-11-23, the 2-core development machine shared with three
//! other builds (load 3 to 6: seconds are noisy, instructions are not).
//! Before: 398e9d3 (16x16 mailbox, ray walking); after: square sets sized
//! to the board, attack tables, reverse attack lookup, pins once per
//! generation, trial moves on occupancy, the last ply counted without
//! making the moves that need no test.
//!
//! - `xpgn perft`, interleaved in one minute, three rounds, user seconds
//!   (nodes / s): orthodox depth 6 (119,060,324 leaves) 2.23-2.27 s
//!   (53 M/s) before, 0.96-0.97 s (123 M/s) after; Courier-Spiel (12x8)
//!   depth 5 (59,524,500) 0.88-0.90 s (67 M/s) before, 0.52-0.54 s
//!   (112 M/s) after; Counsellor (12x8) depth 5 (24,813,613) 0.41 s
//!   (61 M/s) before, 0.27 s (92 M/s) after. pgn-reader + shakmaty's
//!   `pgnbench perft 6` in the same minute: 244-253 M nodes/s.
//! - Callgrind, `xpgn perft 4` (197,281 leaves, whole process):
//!   69.4 M instructions before, 36.4 M after; `xpgn validate` of the
//!   232 twic games (replay uses this core): 82.0 M before, 75.1 M after.
//! - This benchmark (medians; the two runs minutes apart under the load
//!   of other builds, so only roughly comparable): chess/start/d4 42.1 ->
//!   77.8 M leaves/s, chess/kiwipete/d3 60.0 -> 74.1, courier-spiel/d3
//!   43.0 -> 57.6, counsellor/d3 49.5 -> 42.6 (noise: the interleaved
//!   runs above show 1.5 times), royal/d3 38.1 -> 41.8, chaturanga/d4
//!   29.5 -> 48.5, chancellor/d4 36.7 -> 62.1. A quieter run of the new
//!   code earlier the same day: chess/start 114.6, kiwipete 137.9,
//!   courier-spiel 103.5, counsellor 81.4, royal 71.6, chaturanga 91.9,
//!   chancellor 118.7.
//! - 12x8 per node against 8x8: Courier-Spiel 0.9 times orthodox,
//!   Counsellor 0.75 times. A fifth of Counsellor's instructions are
//!   `u128::count_ones` in software (the default x86-64 target has no
//!   `popcnt`); its limited-range Elephant and 14 pieces a side add the
//!   rest.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use xpgn::notation::position::read_position;
use xpgn::rules::{Position, Variant, perft};

fn cases() -> Vec<(&'static str, Position, u32)> {
    let v = |n| Variant::by_name(n).expect("builtin variant");
    let kiwipete = read_position(
        Variant::chess(),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    )
    .expect("valid FEN");
    vec![
        ("chess/start", Position::start(Variant::chess()), 4),
        ("chess/kiwipete", kiwipete, 3),
        (
            "courier-spiel/start",
            Position::start(v("courier-spiel")),
            3,
        ),
        ("counsellor/start", Position::start(v("counsellor")), 3),
        ("royal/start", Position::start(v("royal")), 3),
        ("chaturanga/start", Position::start(v("chaturanga")), 4),
        ("chancellor/start", Position::start(v("chancellor")), 4),
    ]
}

fn perft_speed(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, pos, depth) in cases() {
        let nodes = perft(&pos, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}/d{depth}"), |b| {
            b.iter(|| perft(&pos, depth))
        });
    }
    group.finish();
}

criterion_group!(benches, perft_speed);
criterion_main!(benches);
