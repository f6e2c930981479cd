//! Search speed: a fixed-depth search of each game's start position on one
//! thread, reported as nodes (elements) per second, and the time to reach
//! a depth on one and on two threads (Lazy SMP).

use criterion::{
    BatchSize, Bencher, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main,
};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use triskel::position::Position;
use triskel::search::{Limits, Options, Searcher};
use triskel::variants::Variant;

/// Game and search depth (a fraction of a second to a second each).
const SEARCHES: [(Variant, u32); 6] = [
    (Variant::Chess, 11),
    (Variant::Dreierschach, 5),
    (Variant::Hexenschach, 6),
    (Variant::Pyramid, 7),
    (Variant::Trichess, 6),
    (Variant::Star, 6),
];

/// A searcher with a fresh table. It is made before the clock starts, as
/// an engine allocates its table once (at start-up or when `Hash` changes),
/// not for each search: allocating 16 MB takes about 6 ms, a twentieth of
/// some of these searches.
fn fresh_searcher(threads: usize) -> Searcher {
    Searcher::new(Options {
        threads,
        ..Options::default()
    })
}

/// Searches `pos` to `depth`; returns the nodes.
fn search(searcher: &mut Searcher, pos: &Position, depth: u32) -> u64 {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher
        .search(pos, &limits, &AtomicBool::new(false), &mut |_| {})
        .nodes
}

/// Times fresh searches of `pos` to `depth` on `threads` threads.
fn bench_search(b: &mut Bencher, pos: &Position, depth: u32, threads: usize) {
    b.iter_batched_ref(
        || fresh_searcher(threads),
        |searcher| search(searcher, pos, depth),
        BatchSize::PerIteration,
    );
}

fn nodes_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    for (variant, depth) in SEARCHES {
        let pos = Position::start(variant);
        let nodes = search(&mut fresh_searcher(1), &pos, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(variant.id(), depth), &pos, |b, pos| {
            bench_search(b, pos, depth, 1);
        });
    }
    group.finish();
}

fn time_to_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("time-to-depth");
    for (variant, depth) in SEARCHES {
        let pos = Position::start(variant);
        for threads in [1, 2] {
            let id = BenchmarkId::new(format!("{}-{threads}-threads", variant.id()), depth);
            group.bench_with_input(id, &pos, |b, pos| bench_search(b, pos, depth, threads));
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    targets = nodes_per_second, time_to_depth
}
criterion_main!(benches);
