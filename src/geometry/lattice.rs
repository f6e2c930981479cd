//! Boards whose cells are points of an integer lattice cut out by
//! inequalities: the square board, the hexagons (axial coordinates) and the
//! pyramid. Directions are vectors; a slide repeats its vector until it
//! leaves the board.

use super::rays::RayNode;
use crate::bitboard::Bitboard;
use crate::types::Cell;
use ahash::AHashMap;

/// A point of a `D`-dimensional lattice, most significant coordinate first.
pub type Point<const D: usize> = [i32; D];

/// The cells of a lattice board, indexed in lexicographic order of their
/// coordinates. That order is kept by every translation, so the cells of a
/// ray always have monotonic indices.
pub struct Lattice<const D: usize> {
    points: Vec<Point<D>>,
    index: AHashMap<Point<D>, Cell>,
}

impl<const D: usize> Lattice<D> {
    /// The board of all points within `bounds` (inclusive, per coordinate)
    /// that satisfy `on_board`.
    pub fn new(bounds: [(i32, i32); D], on_board: impl Fn(Point<D>) -> bool) -> Lattice<D> {
        let mut points = Vec::new();
        let mut p = bounds.map(|(lo, _)| lo);
        'odometer: loop {
            if on_board(p) {
                points.push(p);
            }
            for i in (0..D).rev() {
                if p[i] < bounds[i].1 {
                    p[i] += 1;
                    continue 'odometer;
                }
                p[i] = bounds[i].0;
            }
            break;
        }
        let index = points
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, Cell::new(i as u8)))
            .collect();
        Lattice { points, index }
    }

    /// All points, by cell index.
    pub fn points(&self) -> &[Point<D>] {
        &self.points
    }

    /// The coordinates of `cell`.
    pub fn point(&self, cell: Cell) -> Point<D> {
        self.points[cell.index()]
    }

    /// The cell at `p`, if it is on the board.
    pub fn at(&self, p: Point<D>) -> Option<Cell> {
        self.index.get(&p).copied()
    }

    /// The cell one `step` away from `cell`, if it is on the board.
    pub fn step(&self, cell: Cell, step: Point<D>) -> Option<Cell> {
        self.at(add(self.point(cell), step))
    }

    /// The ray from `cell` repeating `step` until it leaves the board. With
    /// `passes_between = Some((a, b))` each step from a cell `X` passes
    /// between the cells `X + a` and `X + b` (the passing rule).
    pub fn ray(
        &self,
        cell: Cell,
        step: Point<D>,
        passes_between: Option<(Point<D>, Point<D>)>,
    ) -> Option<RayNode> {
        let from = self.point(cell);
        let to = self.at(add(from, step))?;
        let passed = passes_between.map(|(a, b)| {
            let between = |v| {
                self.at(add(from, v))
                    .expect("a convex board holds both cells a diagonal step passes between")
            };
            (between(a), between(b))
        });
        Some(RayNode {
            cell: to,
            passes_between: passed,
            children: self.ray(to, step, passes_between).into_iter().collect(),
        })
    }

    /// The cells reached by each of `leaps` from `cell`.
    pub fn leaps(&self, cell: Cell, leaps: &[Point<D>]) -> Bitboard {
        leaps.iter().filter_map(|&v| self.step(cell, v)).collect()
    }

    /// All cells, in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.points.len()).map(|i| Cell::new(i as u8))
    }
}

/// `a + b`, coordinate by coordinate.
pub fn add<const D: usize>(a: Point<D>, b: Point<D>) -> Point<D> {
    std::array::from_fn(|i| a[i] + b[i])
}

/// `k · a`, coordinate by coordinate.
pub fn scale<const D: usize>(k: i32, a: Point<D>) -> Point<D> {
    a.map(|v| k * v)
}
