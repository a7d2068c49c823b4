//! Perft speed per variant: leaves per second, one core, bulk counting at
//! the last ply. Run with `cargo bench --bench movegen`.
//!
//! What makes the generator fast (docs/internals.md describes it):
//! square sets sized to the board (one word up to 64 squares, two up to
//! 128), attack tables and reverse attack lookup, pins found once per
//! generation and looked for only when an enemy rider stands on a line of
//! the king, trial moves on occupancy, and the last ply counted without
//! making the moves that need no test. A ride is cut after its first
//! piece with no branch (up: `hit ^ (hit - 1)`; down: from the highest
//! hit, word by word on 128-bit sets); each kind's rides are resolved to
//! their ray table when the variant is compiled, and each square's live
//! rides are listed with ray and first square. A piece skips the rides
//! whose ray from its square is empty and those whose first square holds
//! one of its side's pieces; pieces with no move are skipped before their
//! tables are read (a per-square step set per kind, and for the kinds
//! that only step next to their square, one dilation of the free squares
//! a generation). The captures and steps of pawns that need no test are
//! counted set-wise, and only non-empty halves of a 128-bit set are
//! counted (the default x86-64 target has no `popcnt`). On 8x8 boards the
//! rook's and bishop's rides are found by arithmetic on small tables
//! (`src/rules/sliders.rs`), and the king's moves and castling read one
//! attack map of the other side a generation. Where every attack is
//! looked up that way (orthodox chess, Chess960 and the 8x8 variants of
//! leapers and riders), perft's moves are found from sets alone
//! (`src/rules/looked_up.rs`): no move is tested by the occupancy it
//! leaves but a capture en passant.
//!
//! The current whole-command figures against shakmaty are in
//! docs/internals.md ("Benchmarks"). The figures below are of the
//! generator before the 8x8 look-ups, kept for the per-leaf comparisons;
//! the "tried and left out" list is of the general generation (in
//! check, only the moves that answer it; the pieces of leaps and
//! looked-up rides counted first), whose ideas the generation from sets
//! now takes whole, with no move tested.
//!
//! Figures (an AMD EPYC machine of 2 cores, quiet; medians of 9 runs of
//! the whole `xpgn perft` process, user seconds):
//!
//! - orthodox `perft 6` (119,060,324 leaves): 0.449 s (265 M leaves/s);
//!   shakmaty's perft, built with the same toolchain, 0.378 s in the same
//!   minutes (xpgn at 0.85 of its speed).
//! - Counsellor (12x8) `perft 5` (24,813,613 leaves): 0.090 s.
//! - Per leaf against orthodox, same build, interleaved, medians of the
//!   paired ratios: Counsellor depth 5 against orthodox depth 6 1.01 to
//!   1.03 (depth 6, 828,907,556 leaves, against depth 7: 1.00);
//!   Courier-Spiel (12x8) depth 5 1.08 to 1.11. A 12x8 board costs no
//!   more per leaf than 8x8.
//! - Instructions (counted, whole process): chess `perft 5` (4,865,609
//!   leaves) 409.2 M, 84 a leaf with start-up taken off; Counsellor
//!   `perft 4` (739,561) 62.5 M, 78 a leaf.
//!
//! Tried and left out, as slower or no faster: each piece taken once with
//! its kind read off the board instead of kind by kind (3% fewer
//! instructions, 4% more time: the kinds in turn keep the branches
//! predictable); the context inlined into the generation (5% slower); a
//! branch-free 128-bit count, whole or by partial sums of both words (2
//! to 4% slower); a branch-free word choice for 128-bit membership; the
//! pawns' four counts merged into two through disjoint unions (Counsellor
//! 10% slower: the merged sets straddle the two words); counting the
//! rides of all unpinned riders of a direction at once (occluded fill:
//! orthodox 15% slower); each kind's leap rows looked up once (+17%
//! instructions); the kinds walked from a precomputed order list. A
//! hardware `popcnt` build (`-C target-feature=+popcnt`) makes orthodox
//! and Counsellor 5 to 7% faster alike: a build decision left to the
//! user. In check, generating only the moves that answer it (onto the
//! checking piece or between it and the king, pinned pieces tested, the
//! others not): kiwipete `perft 4` unchanged in instructions and the
//! start's `perft 5` 2% more, since the loop needed a second copy for
//! the positions in check and the copy out of check lost inlining.
//! A move the emitting code builds on the stack a field at a time and
//! then pushes into the list is copied in two overlapping words, which
//! wait on those writes (about 3% of `perft 5`, in `pawn_moves` and
//! `generate`); neither a push written field by field (merged back into
//! the same copy) nor the move passed by value to `safe_after` (no longer
//! inlined; `pawn_moves` 4.1% to 4.9% of the samples) removed the wait.
//! Copying of a position, at each node, only what a board of 64 squares
//! uses (its first words and squares, field by field; the whole state is
//! 1.25 KB, copied in 7.8% of `perft 5`'s instructions): 411.3 M to
//! 411.5 M, no fewer. Skipping, per kind, the walk of live rides for the
//! kinds that have none to walk: 411.29 M to 411.11 M, not worth a table.
//! Counting first, in a loop of their own, the pieces of the kinds whose
//! moves are all leaps to any square and looked-up rides (each piece's
//! reach one set, the pinned ones' moves tested): 411.3 M to 411.0 M,
//! not worth a second path (without the test of a piece hemmed in by its
//! own, 439.7 M: more pieces counted and looked up for nothing).

mod harness;

use harness::{Bench, Throughput};
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

fn perft_speed(bench: &Bench) {
    let mut group = bench.group("perft");
    group.sample_size(10);
    for (name, pos, depth) in cases() {
        let nodes = perft(&pos, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}/d{depth}"), |b| {
            b.iter(|| perft(&pos, depth))
        });
    }
}

fn main() {
    perft_speed(&Bench::from_args());
}
