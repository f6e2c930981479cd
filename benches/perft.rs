//! Perft speed: full legal move trees at a fixed depth, single-threaded,
//! reported as nodes per second.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use triskel::bench::KIWIPETE;
use triskel::perft::perft;
use triskel::position::Position;
use triskel::variants::Variant;

/// Positions with their depth: a tree of a few million nodes each.
const TREES: [(&str, Option<&str>, u32); 2] = [("start", None, 5), ("kiwipete", Some(KIWIPETE), 4)];

fn perft_trees(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for (name, fen, depth) in TREES {
        let pos = match fen {
            Some(fen) => Position::from_fen(Variant::Chess, fen).expect("a valid position"),
            None => Position::start(Variant::Chess),
        };
        let nodes = perft(&mut pos.clone(), depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(name, depth), &pos, |b, pos| {
            let mut pos = pos.clone();
            b.iter(|| perft(black_box(&mut pos), depth));
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    targets = perft_trees
}
criterion_main!(benches);
