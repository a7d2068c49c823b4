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
//!   (nodes / s): orthodox depth 6 (119,060,324 leaves) 2.23-2.31 s
//!   (52-53 M/s) before, 0.93-0.97 s (123-128 M/s) after; Courier-Spiel
//!   (12x8) depth 5 (59,524,500) 0.87-0.89 s (67-68 M/s) before,
//!   0.48-0.49 s (121-124 M/s) after; Counsellor (12x8) depth 5
//!   (24,813,613) 0.42-0.46 s (54-59 M/s) before, 0.24-0.25 s
//!   (99-103 M/s) after. pgn-reader + shakmaty's `pgnbench perft 6` in
//!   the same minutes: 224-274 M nodes/s.
//! - Callgrind, `xpgn perft 4` (197,281 leaves, whole process):
//!   69.4 M instructions before, 36.4 M after (Counsellor depth 4:
//!   161.5 M after); `xpgn validate` of the
//!   232 twic games (replay uses this core): 82.0 M before, 75.1 M after.
//! - This benchmark, medians in M leaves/s, before (398e9d3, 17:55 UTC,
//!   load about 5) and after (this commit, 19:06 UTC, load about 2.5; the
//!   interleaved runs above are the fair comparison): chess/start/d4
//!   51.1 -> 108.7, chess/kiwipete/d3 60.1 -> 153.4, courier-spiel/d3
//!   64.3 -> 118.4, counsellor/d3 42.0 -> 93.7, royal/d3 37.6 -> 90.3,
//!   chaturanga/d4 29.6 -> 88.8, chancellor/d4 38.1 -> 118.8.
//!   (Running the old commit's benchmark from another worktree with the
//!   same target directory left cargo reusing its artifacts here: clean
//!   `-p xpgn` before measuring.)
//! - 12x8 per node against 8x8: Courier-Spiel as fast as orthodox (0.97
//!   times), Counsellor 0.8 times. Before counting only non-empty halves
//!   of a `u128`, a fifth of Counsellor's instructions were
//!   `u128::count_ones` in software (the default x86-64 target has no
//!   `popcnt`); its limited-range Elephant and 14 pieces a side add the
//!   rest.
//!
//! Session 5 (2026-11-23, 2 shared cores, load about 6): leap tables read
//! only for the modes a kind has, limited rides started from the ray cut
//! to their range, the captures of pawns that need no test counted
//! set-wise, 128-bit membership tested in one word.
//!
//! - Callgrind, `xpgn perft -v VARIANT 4`, whole process, before
//!   (92119b1) -> after: chess 35.5 M -> 30.6 M, Courier-Spiel 265.6 M
//!   -> 210.7 M, Counsellor 158.1 M -> 126.3 M. Per leaf, start-up
//!   (`perft 1`) taken off: chess 158.6 -> 141.4, Courier-Spiel 168.1 ->
//!   134.6, Counsellor 204.4 -> 165.2.
//! - farm-bench, medians of 5, user seconds, each 12x8 run interleaved
//!   with orthodox `perft 6` (119,060,324 leaves) of the same build:
//!   per leaf, Courier-Spiel depth 5 (59,524,500) runs at 0.96 times the
//!   orthodox speed before and 1.05 times after; Counsellor depth 5
//!   (24,813,613) at 0.76 before and 0.86 after. Orthodox `perft 6`
//!   0.885 s before, 0.784 s after (152 M leaves/s); shakmaty 0.421 s
//!   (283 M/s) in the same minutes.
//! - What keeps Counsellor below orthodox per leaf is not its pieces: the
//!   generator's own instructions per leaf are the same (34 and 33); the
//!   gap is two-word set arithmetic (`&`, `|`, `!` on `u128`: 18 a leaf
//!   against 7.5), 128-bit loads and membership (19 against 11) and
//!   `count_ones` in software on two halves (18 against 12). Tried and
//!   dropped as slower: a branch-free count of both halves together (+3
//!   to 4% instructions), the higher word loaded first (+2%), counting
//!   the untested pieces as a set before the tested ones (+3 to 6%). Left: a
//!   hardware `popcnt` (a target feature: a build decision).
//!
//! Session 6 (2026-11-23, one helper building on the other core): a ride
//! is cut after its first piece with no branch (up: `hit ^ (hit - 1)`;
//! down: from the highest hit, word by word on 128-bit sets) and each
//! kind's rides are resolved to their ray table when the variant is
//! compiled.
//!
//! - farm-bench, paired against e8d0d66 (start of the session), medians
//!   of 7: orthodox `perft 6` 0.894 -> 0.746 s (133 -> 160 M leaves/s);
//!   Counsellor `perft 6` (828,907,556) 6.99 -> 6.32 s (119 -> 131 M/s).
//!   Callgrind, whole process: chess `perft 5` 643.2 M -> 597.6 M,
//!   Counsellor `perft 4` 126.3 M -> 119.3 M.
//! - Per leaf against orthodox, same build, interleaved (9 pairs):
//!   Counsellor depth 5 0.81 times (the branch-free cut gains orthodox
//!   more: its 64-bit cut is three instructions, the 128-bit one ten).
//! - Then three cuts of work that a crowded board wastes: a piece skips
//!   the rides whose ray from its square is empty (a per-square mask made
//!   when the variant is compiled) and those whose first square holds one
//!   of its side's pieces, and the pinned-piece test is skipped when
//!   nothing is pinned. Callgrind, whole process: chess `perft 5`
//!   597.6 M -> 529.5 M, Counsellor `perft 4` 119.3 M -> 91.6 M
//!   (per leaf, start-up taken off: 122 -> 108 and 156 -> 118).
//!   Per leaf against orthodox, interleaved (9 pairs): Counsellor depth 5
//!   0.81 -> 0.92 times; orthodox `perft 6` 0.707 s (168 M leaves/s).
//!   Each square's live rides then listed with ray and first square
//!   resolved (no mask scan): chess `perft 5` 515.2 M, Counsellor
//!   `perft 4` 91.0 M.
//! - End of session 6, quiet machine, farm-bench medians of 9, paired:
//!   orthodox `perft 6` 0.857 s (e8d0d66) -> 0.664 s (179 M leaves/s;
//!   0.755 times the time, pair by pair); shakmaty 0.419 s in the same
//!   minute (xpgn at 0.64 times its speed). Counsellor `perft 5` 0.197 ->
//!   0.149 s. Per leaf against orthodox `perft 6`, same build:
//!   Counsellor depth 5 0.92 times (two runs: 0.920, 0.924),
//!   Courier-Spiel depth 5 1.04 times.
//! - Tried and dropped at the end: a branch-free word choice for 128-bit
//!   membership (by shift or by a two-word array: +0 to +3%
//!   instructions), our pieces looked up in the mailbox instead of the
//!   set (-0.5% instructions, no time gained), each kind's leap rows
//!   looked up once (+17%: three bounds-checked slices per kind), a
//!   two-word count without the empty-half shortcuts (+5%: many pieces of
//!   a crowded 12x8 board have no move at all), the tested pieces walked
//!   by comparison instead of membership (+1 to +4%).
//! - Tried and dropped: counting the rides of all unpinned riders of a
//!   direction at once (occluded fill, one count per direction and range:
//!   eight software counts a position instead of one per piece; orthodox
//!   `perft 6` 0.75 -> 0.86 s); `-C target-cpu=x86-64-v2` (hardware
//!   `popcnt`): orthodox 6% faster, Counsellor 3%, so the ratio falls again.
//!
//! Session 7 (2026-11-24, another machine of the same kind: AMD EPYC, 2
//! cores, quiet; every figure below from it, so not comparable with the
//! ones above): pieces with no move skipped before their tables are read
//! (a per-square *step set* per kind, and for the kinds that only step
//! next to their square, one dilation of the free squares a generation),
//! 128-bit bit indices taken word by word, per-kind table offsets found
//! once per kind, pawn shifts known to be below a word, the pawns'
//! captures counted set-wise also when an en passant square is set, pins
//! looked for only when an enemy rider stands on a line of the king, and
//! the steps of pawns that need no test counted with no more shifts.
//!
//! - Callgrind, whole process, d5b09c9 (end of session 6) -> 4e26092:
//!   Counsellor `perft 4` (739,561 leaves) 90.97 M -> 62.53 M
//!   instructions (per leaf, start-up taken off: 117 -> 78); chess `perft
//!   5` (4,865,609) 515.1 M -> 409.2 M (105 -> 84).
//! - farm-bench, paired, medians of 9 against d5b09c9 (final build,
//!   7a105c3): orthodox `perft 6` 0.552 -> 0.449 s (265 M leaves/s;
//!   0.80 times the time pair by pair); Counsellor `perft 5` 0.118 ->
//!   0.090 s (0.78 times). shakmaty 0.30 (`shakmaty::perft`, built outside
//!   the project) in the same minutes: 0.378 s against xpgn's 0.445 s
//!   (xpgn at 0.85 of its speed; 0.64 at the end of session 6).
//! - Per leaf against orthodox, same build, interleaved, medians of the
//!   paired ratios: Counsellor depth 5 against orthodox depth 6: 1.014,
//!   1.018, 1.024 (three runs of 15 pairs, 4e26092), 1.018, 1.031 (two
//!   runs of 21 pairs, 7a105c3); 0.92 at the end of session 6. Counsellor
//!   depth 6 (828,907,556 leaves) against orthodox depth 7
//!   (3,195,901,860), 5 pairs: 1.002 (4e26092), 0.997 (7a105c3): equal
//!   within the spread of the runs. Courier-Spiel depth 5 against
//!   orthodox depth 6: 1.08, 1.11.
//! - Tried and dropped: each piece taken once with its kind read off the
//!   board instead of kind by kind (3% fewer instructions, but orthodox
//!   `perft 6` 0.427 -> 0.446 s: the kinds in turn keep the branches
//!   predictable); the context inlined into the generation (orthodox 5%
//!   slower); a branch-free 128-bit count, whole or by partial sums of
//!   both words (Counsellor 2 to 4% slower); the pawns' four counts merged
//!   into two through disjoint unions (Counsellor 10% slower: the merged
//!   sets straddle the two words); the kinds walked from a precomputed
//!   order list, a count-only copy of the kind loop, 128-bit table
//!   entries read by two plain indexings (no gain or slower); a hardware
//!   `popcnt` build (`-C target-feature=+popcnt`): orthodox and Counsellor
//!   5 to 7% faster, the ratio unchanged.

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
