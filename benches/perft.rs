//! Perft speed: full legal move trees at the depths the issues set their
//! targets at, bulk-counted, reported as nodes (elements) per second; one
//! thread, and classical chess also on two threads.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use triskel::perft::{perft, perft_parallel};
use triskel::position::Position;
use triskel::variants::Variant;
use triskel::variants::chess::KIWIPETE;

/// Game, position (`None`: the start), depth.
const TREES: [(Variant, Option<&str>, u32); 8] = [
    (Variant::Chess, None, 6),
    (Variant::Chess, Some(KIWIPETE), 5),
    (Variant::Dreierschach, None, 4),
    (Variant::Hexenschach, None, 5),
    (Variant::Pyramid, None, 5),
    (Variant::Trichess, None, 5),
    (Variant::Star, None, 5),
    (Variant::PyramidEp, None, 4),
];

/// Threads of the parallel measurement.
const TWO_THREADS: usize = 2;

fn position(variant: Variant, fen: Option<&str>) -> Position {
    match fen {
        Some(fen) => Position::from_fen(variant, fen).expect("a valid position"),
        None => Position::start(variant),
    }
}

fn name(variant: Variant, fen: Option<&str>) -> String {
    format!(
        "{}-{}",
        variant,
        if fen.is_some() { "kiwipete" } else { "start" }
    )
}

fn one_thread(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for (variant, fen, depth) in TREES {
        let pos = position(variant, fen);
        group.throughput(Throughput::Elements(perft(&mut pos.clone(), depth)));
        group.bench_with_input(
            BenchmarkId::new(name(variant, fen), depth),
            &pos,
            |b, pos| {
                let mut pos = pos.clone();
                b.iter(|| perft(black_box(&mut pos), depth));
            },
        );
    }
    group.finish();
}

fn two_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft-2-threads");
    let (variant, fen, depth) = TREES[0];
    let pos = position(variant, fen);
    group.throughput(Throughput::Elements(perft(&mut pos.clone(), depth)));
    group.bench_with_input(
        BenchmarkId::new(name(variant, fen), depth),
        &pos,
        |b, pos| {
            b.iter(|| perft_parallel(black_box(pos), depth, TWO_THREADS));
        },
    );
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    targets = one_thread, two_threads
}
criterion_main!(benches);
