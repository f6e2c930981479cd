//! Move generation and make/unmake on a few chess positions, reported as
//! moves per second.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use triskel::bench::{KIWIPETE, MIDDLEGAME, PROMOTIONS, ROOK_ENDGAME};
use triskel::moves::MoveList;
use triskel::position::Position;
use triskel::variants::Variant;

/// The positions measured: opening, tactics, endgame, promotions, middlegame.
const POSITIONS: [(&str, Option<&str>); 5] = [
    ("start", None),
    ("kiwipete", Some(KIWIPETE)),
    ("rook-endgame", Some(ROOK_ENDGAME)),
    ("promotions", Some(PROMOTIONS)),
    ("middlegame", Some(MIDDLEGAME)),
];

fn positions() -> Vec<(&'static str, Position)> {
    POSITIONS
        .iter()
        .map(|&(name, fen)| {
            let pos = match fen {
                Some(fen) => Position::from_fen(Variant::Chess, fen).expect("a valid position"),
                None => Position::start(Variant::Chess),
            };
            (name, pos)
        })
        .collect()
}

/// Generating the legal moves into a list, and counting them without a list.
fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for (name, pos) in positions() {
        let count = pos.legal_moves().len() as u64;
        group.throughput(Throughput::Elements(count));
        group.bench_with_input(BenchmarkId::new("generate", name), &pos, |b, pos| {
            b.iter(|| {
                let mut moves = MoveList::new();
                black_box(pos).generate_moves(&mut moves);
                moves.len()
            });
        });
        group.bench_with_input(BenchmarkId::new("count", name), &pos, |b, pos| {
            b.iter(|| black_box(pos).count_moves());
        });
    }
    group.finish();
}

/// Making and unmaking every legal move of a position.
fn make_unmake(c: &mut Criterion) {
    let mut group = c.benchmark_group("make_unmake");
    for (name, pos) in positions() {
        let moves = pos.legal_moves();
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &pos, |b, pos| {
            let mut pos = pos.clone();
            b.iter(|| {
                let mut hash = 0;
                for &m in &moves {
                    let undo = pos.make(black_box(m));
                    hash ^= pos.hash();
                    pos.unmake(m, &undo);
                }
                hash
            });
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = generation, make_unmake
}
criterion_main!(benches);
