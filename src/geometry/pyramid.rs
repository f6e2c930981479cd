//! The pyramid of four levels (Schachpyramide): 120 cells `[level, rank, file]`
//! with `l <= file, rank <= 7 - l`.

use super::lattice::{Lattice, Point};
use super::picture::{CellShape, LIGHT_AND_DARK, Label, Picture, unit_square};
use super::square::{LABEL_OFFSET, dark_if_even};
use super::{BoardShape, SliderClass};
use crate::types::Cell;

/// Number of levels.
pub const LEVELS: i32 = 4;

/// Side length of level 1.
pub const SIDE: i32 = 8;

/// Room between two levels side by side, in cells.
const LEVEL_GAP: f64 = 1.0;

/// A step `(df, dr, dl)` of the rule book as a lattice point `[dl, dr, df]`.
pub const fn frl(df: i32, dr: i32, dl: i32) -> Point<3> {
    [dl, dr, df]
}

/// Every direction with coordinates in `{-1, 0, 1}`, split by the rule book:
/// rook directions change one of file/rank (with or without a level) or only
/// the level; bishop directions change both file and rank.
fn unit_directions() -> (Vec<Point<3>>, Vec<Point<3>>) {
    let mut straight = Vec::new();
    let mut diagonal = Vec::new();
    for df in -1..=1 {
        for dr in -1..=1 {
            for dl in -1..=1 {
                match (df != 0, dr != 0, dl != 0) {
                    (false, false, false) => {}
                    (true, true, _) => diagonal.push(frl(df, dr, dl)),
                    _ => straight.push(frl(df, dr, dl)),
                }
            }
        }
    }
    (straight, diagonal)
}

/// The 32 knight leaps: in-plane `(±1,±2,0) (±2,±1,0)`, one level
/// `(±1,±2,±1) (±2,±1,±1)`, two levels `(±1,0,±2) (0,±1,±2)`.
pub fn knight_leaps() -> Vec<Point<3>> {
    let mut leaps = Vec::new();
    for (a, b) in [(1, 2), (2, 1)] {
        for sa in [-1, 1] {
            for sb in [-1, 1] {
                for dl in [-1, 0, 1] {
                    leaps.push(frl(sa * a, sb * b, dl));
                }
            }
        }
    }
    for s in [-1, 1] {
        for dl in [-2, 2] {
            leaps.push(frl(s, 0, dl));
            leaps.push(frl(0, s, dl));
        }
    }
    leaps
}

/// The pyramid board.
pub struct PyramidBoard {
    /// The cells as lattice points `[level, rank, file]`.
    pub lattice: Lattice<3>,
}

impl Default for PyramidBoard {
    fn default() -> Self {
        Self::new()
    }
}

impl PyramidBoard {
    /// The four-level pyramid.
    pub fn new() -> PyramidBoard {
        let on_board =
            |[l, r, f]: Point<3>| (l..SIDE - l).contains(&f) && (l..SIDE - l).contains(&r);
        PyramidBoard {
            lattice: Lattice::new([(0, LEVELS - 1), (0, SIDE - 1), (0, SIDE - 1)], on_board),
        }
    }

    /// The cell on `level` (0 = level 1), `file` (0 = a), `rank` (0 = rank 1).
    pub fn cell(&self, level: i32, file: i32, rank: i32) -> Option<Cell> {
        self.lattice.at([level, rank, file])
    }

    /// `(level, file, rank)` of `cell`, all from 0.
    pub fn coords(&self, cell: Cell) -> (i32, i32, i32) {
        let [l, r, f] = self.lattice.point(cell);
        (l, f, r)
    }

    /// The cell one `(df, dr, dl)` step from `cell`, if it exists.
    pub fn step(&self, cell: Cell, (df, dr, dl): (i32, i32, i32)) -> Option<Cell> {
        self.lattice.step(cell, frl(df, dr, dl))
    }

    /// The cell's name: level, file, rank (`1e2`).
    pub fn name(&self, cell: Cell) -> String {
        let (l, f, r) = self.coords(cell);
        format!("{}{}{}", l + 1, (b'a' + f as u8) as char, r + 1)
    }

    /// The board's moves for the table builder.
    pub fn shape(&self) -> BoardShape {
        let l = &self.lattice;
        let (straight, diagonal) = unit_directions();
        let rays = |dirs: &[Point<3>]| {
            l.cells()
                .map(|c| dirs.iter().filter_map(|&d| l.ray(c, d, None)).collect())
                .collect()
        };
        let mut all_rays: [Vec<_>; 2] = Default::default();
        all_rays[SliderClass::Straight as usize] = rays(&straight);
        all_rays[SliderClass::Diagonal as usize] = rays(&diagonal);
        let leaps = knight_leaps();
        BoardShape {
            names: l.cells().map(|c| self.name(c)).collect(),
            rays: all_rays,
            knight: l.cells().map(|c| l.leaps(c, &leaps)).collect(),
            picture: self.picture(),
        }
    }

    /// The levels side by side from level 1 on the left, each centred on
    /// the height of level 1 as it stands over it, each cell named (the
    /// colour `(f + r) mod 2` as on level 1).
    pub fn picture(&self) -> Picture {
        let side = |level: i32| (SIDE - 2 * level) as f64;
        let left = |level: i32| (0..level).map(|l| side(l) + LEVEL_GAP).sum::<f64>();
        let cells = self
            .lattice
            .cells()
            .map(|c| {
                let (level, file, rank) = self.coords(c);
                let x = left(level) + (file - level) as f64;
                let y = (SIDE - 1 - rank) as f64;
                CellShape::new(
                    unit_square(x, y),
                    dark_if_even(file + rank),
                    Some(level as u8 + 1),
                )
            })
            .collect();
        let labels = (0..LEVELS)
            .map(|level| Label {
                text: format!("level {}", level + 1),
                at: [left(level) + side(level) / 2.0, level as f64 - LABEL_OFFSET],
            })
            .collect();
        Picture::new(cells, &LIGHT_AND_DARK, labels, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::geometry::Geometry;

    #[test]
    fn counts_of_the_rule_book() {
        let b = PyramidBoard::new();
        assert_eq!(b.lattice.points().len(), 120);
        let (straight, diagonal) = unit_directions();
        assert_eq!((straight.len(), diagonal.len()), (14, 12));
        assert_eq!(knight_leaps().len(), 32);
        let g = Geometry::build(b.shape());
        assert!(g.exact_lines());
        assert!(g.cell("3a1").is_none());
        assert_eq!(g.name(g.cell("4D5").unwrap()), "4d5");
    }

    #[test]
    fn the_staircase_rook_of_the_decisions_stops_after_2g2() {
        let b = PyramidBoard::new();
        let g = Geometry::build(b.shape());
        let g1 = g.cell("1g1").unwrap();
        let reach = g.slider_reach(SliderClass::Straight, g1, Bitboard::EMPTY);
        assert!(reach.has(g.cell("2g2").unwrap()));
        let g2 = b.step(g1, (0, 1, 1)).expect("2g2 is on the pyramid");
        assert_eq!(b.name(g2), "2g2");
        assert!(b.step(g2, (0, 1, 1)).is_none(), "3g3 is not on the pyramid");
    }
}
