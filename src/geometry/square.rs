//! The 8×8 board of classical chess, as a lattice of `[rank, file]` points.

use super::lattice::{Lattice, Point};
use super::picture::{CellShape, LIGHT_AND_DARK, Label, Picture, unit_square};
use super::{BoardShape, SliderClass};
use crate::types::Cell;

/// Side length of the square board.
pub const SIDE: i32 = 8;

/// Rook directions as `[rank, file]` steps.
pub const STRAIGHT: [Point<2>; 4] = [[0, 1], [1, 0], [0, -1], [-1, 0]];

/// Bishop directions as `[rank, file]` steps.
pub const DIAGONAL: [Point<2>; 4] = [[1, 1], [1, -1], [-1, -1], [-1, 1]];

/// Knight leaps as `[rank, file]` steps.
pub const KNIGHT: [Point<2>; 8] = [
    [1, 2],
    [2, 1],
    [2, -1],
    [1, -2],
    [-1, -2],
    [-2, -1],
    [-2, 1],
    [-1, 2],
];

/// The square board: cells `a1..h8`, index `8 · rank + file`.
pub struct SquareBoard {
    /// The cells as lattice points `[rank, file]`, both `0..8`.
    pub lattice: Lattice<2>,
}

impl Default for SquareBoard {
    fn default() -> Self {
        Self::new()
    }
}

impl SquareBoard {
    /// The 8×8 board.
    pub fn new() -> SquareBoard {
        SquareBoard {
            lattice: Lattice::new([(0, SIDE - 1), (0, SIDE - 1)], |_| true),
        }
    }

    /// The cell on `file` (0 = a) and `rank` (0 = rank 1).
    pub fn cell(&self, file: i32, rank: i32) -> Option<Cell> {
        self.lattice.at([rank, file])
    }

    /// The cell's name, e.g. `e4`.
    pub fn name(&self, cell: Cell) -> String {
        let [rank, file] = self.lattice.point(cell);
        format!("{}{}", (b'a' + file as u8) as char, rank + 1)
    }

    /// The board's moves for the table builder.
    pub fn shape(&self) -> BoardShape {
        let l = &self.lattice;
        let rays = |dirs: &[Point<2>]| {
            l.cells()
                .map(|c| dirs.iter().filter_map(|&d| l.ray(c, d, None)).collect())
                .collect()
        };
        let mut all_rays: [Vec<_>; 2] = Default::default();
        all_rays[SliderClass::Straight as usize] = rays(&STRAIGHT);
        all_rays[SliderClass::Diagonal as usize] = rays(&DIAGONAL);
        BoardShape {
            names: l.cells().map(|c| self.name(c)).collect(),
            rays: all_rays,
            knight: l.cells().map(|c| l.leaps(c, &KNIGHT)).collect(),
            picture: self.picture(),
        }
    }

    /// The board as drawn: rank 8 on top, a1 dark, files below and ranks
    /// on the left.
    pub fn picture(&self) -> Picture {
        let last = SIDE - 1;
        let cells = self
            .lattice
            .cells()
            .map(|c| {
                let [rank, file] = self.lattice.point(c);
                let outline = unit_square(file as f64, (last - rank) as f64);
                CellShape::new(outline, dark_if_even(file + rank), None)
            })
            .collect();
        let files = (0..SIDE).map(|f| Label {
            text: ((b'a' + f as u8) as char).to_string(),
            at: [f as f64 + 0.5, SIDE as f64 + LABEL_OFFSET],
        });
        let ranks = (0..SIDE).map(|r| Label {
            text: (r + 1).to_string(),
            at: [-LABEL_OFFSET, (last - r) as f64 + 0.5],
        });
        Picture::new(cells, &LIGHT_AND_DARK, files.chain(ranks).collect(), false)
    }
}

/// How far outside the board its coordinates stand, in cells.
pub const LABEL_OFFSET: f64 = 0.3;

/// The shade of a cell whose file and rank add up to `sum` (from 0): dark
/// when even, as a1 is.
pub fn dark_if_even(sum: i32) -> usize {
    usize::from(sum % 2 == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;

    #[test]
    fn cells_are_indexed_rank_major() {
        let b = SquareBoard::new();
        assert_eq!(b.cell(0, 0).unwrap().index(), 0);
        assert_eq!(b.cell(4, 1).unwrap().index(), 12);
        assert_eq!(b.name(b.cell(7, 7).unwrap()), "h8");
    }

    #[test]
    fn tables_match_chess() {
        let b = SquareBoard::new();
        let g = Geometry::build(b.shape());
        let d4 = g.cell("d4").unwrap();
        assert_eq!(g.knight(d4).count(), 8);
        assert_eq!(g.lines(SliderClass::Straight, d4).count(), 14);
        assert_eq!(g.lines(SliderClass::Diagonal, d4).count(), 13);
        assert!(g.exact_lines());
        let occ = [g.cell("d6").unwrap(), g.cell("f4").unwrap()]
            .into_iter()
            .collect();
        let reach = g.slider_reach(SliderClass::Straight, d4, occ);
        assert_eq!(reach.count(), 2 + 2 + 3 + 3);
        let between = g.between(
            SliderClass::Diagonal,
            g.cell("a1").unwrap(),
            g.cell("h8").unwrap(),
        );
        assert_eq!(between.count(), 6);
    }
}
