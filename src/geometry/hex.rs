//! Hexagonal boards of pointy-top cells in axial coordinates `(q, r)`:
//! Dreierschach's 126 cells and Hexenschach's 61, both cut out of the lattice
//! by the inequalities of their rule files.

use super::lattice::{Lattice, Point};
use super::picture::{CellShape, Picture, THREE_SHADES};
use super::{BoardShape, SliderClass};
use crate::types::Cell;

/// The six straight directions `(dq, dr)` in circular order.
pub const STRAIGHT: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

/// The twelve Glinski knight leaps `(dq, dr)`.
pub const KNIGHT: [(i32, i32); 12] = [
    (3, 1),
    (3, 2),
    (2, 3),
    (1, 3),
    (-1, 2),
    (-2, 1),
    (-3, -1),
    (-3, -2),
    (-2, -3),
    (-1, -3),
    (1, -2),
    (2, -1),
];

/// The diagonal direction between straight directions `i` and `i + 1`, with
/// the two straight steps it is the sum of (the cells it passes between).
pub fn diagonal(i: usize) -> ((i32, i32), (i32, i32), (i32, i32)) {
    let a = STRAIGHT[i % 6];
    let b = STRAIGHT[(i + 1) % 6];
    ((a.0 + b.0, a.1 + b.1), a, b)
}

/// The six diagonal directions `(dq, dr)`, in circular order.
pub fn diagonals() -> [(i32, i32); 6] {
    std::array::from_fn(|i| diagonal(i).0)
}

/// A lattice point for axial `(q, r)`; rank is the more significant coordinate.
pub const fn qr(q: i32, r: i32) -> Point<2> {
    [r, q]
}

/// How a hex board's diagonals move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diagonals {
    /// A diagonal step goes whatever stands beside it (Hexenschach).
    Free,
    /// A diagonal step passes between two cells and is blocked when both
    /// are occupied (Dreierschach's passing rule).
    PassBetween,
}

/// A hexagonal board: files `a..`, ranks `1..`, cells where
/// `0 <= q, r <= last` and `low <= q - r <= high`.
pub struct HexBoard {
    /// The cells as lattice points `[r, q]`.
    pub lattice: Lattice<2>,
}

impl HexBoard {
    /// The board of cells with `0 <= q, r <= last` and `low <= q - r <= high`.
    pub fn new(last: i32, low: i32, high: i32) -> HexBoard {
        HexBoard {
            lattice: Lattice::new([(0, last), (0, last)], |[r, q]| {
                (low..=high).contains(&(q - r))
            }),
        }
    }

    /// The cell at `(q, r)`, if it exists.
    pub fn cell(&self, q: i32, r: i32) -> Option<Cell> {
        self.lattice.at(qr(q, r))
    }

    /// The axial coordinates `(q, r)` of `cell`.
    pub fn coords(&self, cell: Cell) -> (i32, i32) {
        let [r, q] = self.lattice.point(cell);
        (q, r)
    }

    /// The cell one `(dq, dr)` step from `cell`, if it exists.
    pub fn step(&self, cell: Cell, (dq, dr): (i32, i32)) -> Option<Cell> {
        let (q, r) = self.coords(cell);
        self.cell(q + dq, r + dr)
    }

    /// The cell's name: file letter then rank number (`a1`, `m13`).
    pub fn name(&self, cell: Cell) -> String {
        let (q, r) = self.coords(cell);
        format!("{}{}", (b'a' + q as u8) as char, r + 1)
    }

    /// The board's moves for the table builder, its diagonals as `diagonals`
    /// says (under the passing rule every diagonal step carries the two
    /// cells it passes between).
    pub fn shape(&self, diagonals: Diagonals) -> BoardShape {
        let l = &self.lattice;
        let straight: Vec<Vec<_>> = l
            .cells()
            .map(|c| {
                STRAIGHT
                    .iter()
                    .filter_map(|&(dq, dr)| l.ray(c, qr(dq, dr), None))
                    .collect()
            })
            .collect();
        let diagonal: Vec<Vec<_>> = l
            .cells()
            .map(|c| {
                (0..6)
                    .filter_map(|i| {
                        let ((dq, dr), a, b) = diagonal(i);
                        let passes = (diagonals == Diagonals::PassBetween)
                            .then_some((qr(a.0, a.1), qr(b.0, b.1)));
                        l.ray(c, qr(dq, dr), passes)
                    })
                    .collect()
            })
            .collect();
        let knight: Vec<Point<2>> = KNIGHT.iter().map(|&(q, r)| qr(q, r)).collect();
        let mut rays: [Vec<_>; 2] = Default::default();
        rays[SliderClass::Straight as usize] = straight;
        rays[SliderClass::Diagonal as usize] = diagonal;
        BoardShape {
            names: l.cells().map(|c| self.name(c)).collect(),
            rays,
            knight: l.cells().map(|c| l.leaps(c, &knight)).collect(),
            picture: self.picture(),
        }
    }

    /// The board as drawn: pointy-top hexagons one unit apart, rank 1 at
    /// the bottom, each cell named, in the three colours `(q + r) mod 3`
    /// (a diagonal step keeps the colour).
    pub fn picture(&self) -> Picture {
        let half_height = 3f64.sqrt() / 2.0;
        let radius = 1.0 / 3f64.sqrt();
        let cells = self
            .lattice
            .cells()
            .map(|c| {
                let (q, r) = self.coords(c);
                let centre = [q as f64 - r as f64 / 2.0, -(r as f64) * half_height];
                let outline = (0..6)
                    .map(|k| {
                        let angle = (30.0 + 60.0 * k as f64).to_radians();
                        [
                            centre[0] + radius * angle.cos(),
                            centre[1] + radius * angle.sin(),
                        ]
                    })
                    .collect();
                CellShape::new(outline, (q + r).rem_euclid(3) as usize, None)
            })
            .collect();
        Picture::new(cells, &THREE_SHADES, Vec::new(), true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::geometry::Geometry;

    #[test]
    fn dreierschach_rows_and_names() {
        let b = HexBoard::new(12, -5, 7);
        assert_eq!(b.lattice.points().len(), 126);
        let row = |r| (0..13).filter(|&q| b.cell(q, r).is_some()).count();
        let rows: Vec<usize> = (0..13).map(row).collect();
        assert_eq!(rows, vec![8, 9, 10, 11, 12, 13, 12, 11, 10, 9, 8, 7, 6]);
        assert_eq!(b.name(b.cell(12, 12).unwrap()), "m13");
        assert_eq!(b.name(b.cell(7, 0).unwrap()), "h1");
    }

    #[test]
    fn hexenschach_has_61_cells_and_12_bat_leaps_from_the_centre() {
        let b = HexBoard::new(8, -4, 4);
        assert_eq!(b.lattice.points().len(), 61);
        let g = Geometry::build(b.shape(Diagonals::Free));
        let e5 = g.cell("e5").unwrap();
        assert_eq!(g.knight(e5).count(), 12);
        assert_eq!(g.steps(SliderClass::Straight, e5).count(), 6);
        assert_eq!(g.steps(SliderClass::Diagonal, e5).count(), 6);
        assert!(g.exact_lines());
    }

    #[test]
    fn passing_rule_blocks_a_diagonal_step_between_two_pieces() {
        let b = HexBoard::new(12, -5, 7);
        let g = Geometry::build(b.shape(Diagonals::PassBetween));
        assert!(!g.exact_lines());
        let (e5, f5, f6, g6) = ["e5", "f5", "f6", "g6"].map(|n| g.cell(n).unwrap()).into();
        // e5 + (2,1) = g6, passing between f5 = e5+(1,0) and f6 = e5+(1,1).
        assert!(g.steps(SliderClass::Diagonal, e5).has(g6));
        let one = Bitboard::from_cell(f5);
        assert!(g.slider_reach(SliderClass::Diagonal, e5, one).has(g6));
        assert!(!g.blocked_diagonal_steps(e5, one).has(g6));
        let both = one.with(f6);
        assert!(!g.slider_reach(SliderClass::Diagonal, e5, both).has(g6));
        assert!(g.blocked_diagonal_steps(e5, both).has(g6));
        assert!(g.blocked_diagonal_steps(g6, both).has(e5));
    }

    #[test]
    fn every_diagonal_under_the_passing_rule_is_reached_without_a_walk() {
        let g = Geometry::build(HexBoard::new(12, -5, 7).shape(Diagonals::PassBetween));
        let diagonal = SliderClass::Diagonal as usize;
        assert!(g.segments[diagonal].is_empty());
        // Every ray is part of a line, and opposite rays share one where
        // the board has both.
        let rays: usize = g
            .cells()
            .into_iter()
            .map(|c| g.steps(SliderClass::Diagonal, c).count() as usize)
            .sum();
        let line_rays: usize = g.passing[diagonal]
            .iter()
            .map(|line| {
                line.start().min(1) as usize + usize::from(line.start() + 1 < line.cells.count())
            })
            .sum();
        assert_eq!(line_rays, rays);
        assert!(
            g.passing[diagonal].len() * 10 < rays * 6,
            "most rays are paired"
        );
    }
}
