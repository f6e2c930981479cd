//! Drawing the start position of every game as an SVG picture, and its
//! geometry as JSON (the target: under 5 ms per picture).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use triskel::position::Position;
use triskel::render::{self, DEFAULT_SIZE, Marks};
use triskel::variants::Variant;

/// The SVG of each game's start position, with two arrows and a last move
/// to draw as a GUI would ask for them.
fn pictures(c: &mut Criterion) {
    let mut group = c.benchmark_group("render");
    for v in Variant::ALL {
        let pos = Position::start(v);
        let moves = pos.legal_moves();
        let marks = Marks {
            last_move: render::move_cells(moves[0]),
            arrows: moves
                .iter()
                .take(2)
                .filter_map(|&m| render::move_cells(m))
                .collect(),
        };
        group.bench_with_input(BenchmarkId::new("svg", v.id()), &pos, |b, pos| {
            b.iter(|| render::svg(black_box(pos), DEFAULT_SIZE, &marks).len());
        });
        group.bench_with_input(BenchmarkId::new("geometry", v.id()), &v, |b, &v| {
            b.iter(|| render::json::geometry(black_box(v.game()), DEFAULT_SIZE).len());
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
    targets = pictures
}
criterion_main!(benches);
