//! Criterion benchmark: perft with bulk counting at the last ply.
//! Run with `cargo bench -p makruk`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use makruk::Position;

fn perft(c: &mut Criterion) {
    let start = Position::new();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("start depth 4", |b| b.iter(|| black_box(&start).perft(4)));
    g.bench_function("start depth 5", |b| b.iter(|| black_box(&start).perft(5)));
    g.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
