//! Move generation and make/unmake on a few chess positions, reported as
//! moves per second; and move generation and the evaluation's mobility on
//! positions from random games of every game, reported as positions per
//! second.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use triskel::moves::MoveCounter;
use triskel::moves::MoveList;
use triskel::position::Position;
use triskel::search::eval::ReachCache;
use triskel::tournament::player::SeededRng;
use triskel::variants::Variant;
use triskel::variants::chess::{KIWIPETE, MIDDLEGAME, PROMOTIONS, ROOK_ENDGAME};

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

/// The seed of the random games the positions come from.
const RANDOM_POSITIONS_SEED: u64 = 1;

/// Positions from random games of `variant`: every fourth position from
/// ply 8 to 60 of games whose moves a fixed-seed generator picks, so that
/// every run measures the same positions.
fn random_positions(variant: Variant, count: usize) -> Vec<Position> {
    const FIRST_PLY: usize = 8;
    const LAST_PLY: usize = 60;
    const EVERY: usize = 4;
    let mut rng = SeededRng::new(RANDOM_POSITIONS_SEED);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut pos = Position::start(variant);
        for ply in 1..=LAST_PLY {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.below(moves.len())]);
            if ply >= FIRST_PLY && ply % EVERY == 0 && positions.len() < count {
                positions.push(pos.clone());
            }
        }
    }
    positions
}

/// Per game, over the same random positions: the legal moves counted, the
/// captures generated, and the evaluation's mobility worked out from
/// scratch (every reach computed). A thousand positions: over a couple of
/// hundred, measured again and again, the processor learns where each
/// walk along a ray stops, and the cost of its wrong guesses in a search
/// (where positions do not repeat) disappears from the figures.
fn every_game(c: &mut Criterion) {
    const POSITIONS: usize = 1000;
    let mut group = c.benchmark_group("random-positions");
    group.throughput(Throughput::Elements(POSITIONS as u64));
    for variant in Variant::ALL.into_iter().filter(|v| v.is_playable()) {
        let positions = random_positions(variant, POSITIONS);
        group.bench_with_input(
            BenchmarkId::new("legal", variant.id()),
            &positions,
            |b, positions| {
                b.iter(|| {
                    positions
                        .iter()
                        .map(|p| black_box(p).count_moves())
                        .sum::<u64>()
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("captures", variant.id()),
            &positions,
            |b, positions| {
                b.iter(|| {
                    let mut counter = MoveCounter::default();
                    for p in positions {
                        black_box(p).generate_tactical(&mut counter);
                    }
                    counter.0
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("mobility", variant.id()),
            &positions,
            |b, positions| {
                b.iter(|| {
                    positions
                        .iter()
                        .map(|p| ReachCache::default().activity(black_box(p))[0])
                        .sum::<i32>()
                })
            },
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = generation, make_unmake, every_game
}
criterion_main!(benches);
