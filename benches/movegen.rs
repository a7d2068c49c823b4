//! Perft speed per variant: leaves per second, one core, bulk counting at
//! the last ply. Run with `cargo bench --bench movegen`.

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
