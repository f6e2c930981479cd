//! Boards of three 8×4 sections (`../shared/rules/sections.md`): Trichess
//! and Star. Everything follows from one orthogonal step with its crossing
//! rule: rays that fork at the middle, diagonal steps as unions of two-step
//! paths, knights as unions of three-step paths, pawns whose forward
//! direction flips once they leave their own section. Only the rule of which
//! neighbour a column leads into differs between the two boards.

use super::picture::{CellShape, LIGHT_AND_DARK, Picture, Point, bilinear, rotate};
use super::rays::RayNode;
use super::square::dark_if_even;
use super::{BoardShape, SliderClass};
use crate::bitboard::Bitboard;
use crate::types::Cell;

/// Number of sections (one per player).
pub const SECTIONS: usize = 3;
/// Columns of a section.
pub const COLUMNS: i32 = 8;
/// Rows of a section (row 4 borders the middle).
pub const ROWS: i32 = 4;

/// Which neighbour sections a column leads into when a step leaves row 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnRule {
    /// Trichess: columns 1–4 lead to the left neighbour, 5–8 to the right.
    Trichess,
    /// Star: columns 1–5 lead to the left neighbour, 4–8 to the right.
    Star,
}

impl ColumnRule {
    /// The neighbours of section `section` that column `x` leads into.
    fn neighbours(self, section: usize, x: i32) -> impl Iterator<Item = usize> {
        let left = (section + SECTIONS - 1) % SECTIONS;
        let right = (section + 1) % SECTIONS;
        let (to_left, to_right) = match self {
            ColumnRule::Trichess => (x <= 4, x >= 5),
            ColumnRule::Star => (x <= 5, x >= 4),
        };
        [(to_left, left), (to_right, right)]
            .into_iter()
            .filter_map(|(leads, n)| leads.then_some(n))
    }
}

/// A cell with the orientation a piece has there: `+1` native to the
/// section, `-1` flipped (after crossing the middle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The section.
    pub section: usize,
    /// Column `1..=8`, from the section owner's left.
    pub x: i32,
    /// Row `1..=4`, from the section owner's back rank.
    pub y: i32,
    /// Orientation.
    pub orientation: i32,
}

/// The four orthogonal unit directions `(dx, dy)`.
pub const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
/// The four diagonal directions `(dx, dy)`.
pub const DIAGONAL: [(i32, i32); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// Deepest a ray can go (a safety bound; rays end long before).
const MAX_RAY: usize = 16;

/// A board of three sections.
pub struct SectionBoard {
    /// Which neighbour a column leads into.
    pub rule: ColumnRule,
}

impl SectionBoard {
    /// The board with `rule`.
    pub fn new(rule: ColumnRule) -> SectionBoard {
        SectionBoard { rule }
    }

    /// Number of cells.
    pub const CELLS: usize = SECTIONS * (COLUMNS * ROWS) as usize;

    /// The cell at section `s`, column `x`, row `y` (all from the section's owner's view).
    pub fn cell(&self, s: usize, x: i32, y: i32) -> Cell {
        debug_assert!(s < SECTIONS && (1..=COLUMNS).contains(&x) && (1..=ROWS).contains(&y));
        Cell::new((s as i32 * COLUMNS * ROWS + (y - 1) * COLUMNS + (x - 1)) as u8)
    }

    /// Section, column and row of `cell`.
    pub fn coords(&self, cell: Cell) -> (usize, i32, i32) {
        let i = cell.index() as i32;
        let per_section = COLUMNS * ROWS;
        (
            (i / per_section) as usize,
            i % COLUMNS + 1,
            (i % per_section) / COLUMNS + 1,
        )
    }

    /// `cell` with its section's native orientation.
    pub fn native(&self, cell: Cell) -> Placed {
        let (section, x, y) = self.coords(cell);
        Placed {
            section,
            x,
            y,
            orientation: 1,
        }
    }

    fn cell_of(&self, p: Placed) -> Cell {
        self.cell(p.section, p.x, p.y)
    }

    /// One orthogonal step in direction `(dx, dy)` seen with `from`'s
    /// orientation: none at the edge, one inside a section, one per neighbour
    /// the column leads into when leaving row 4 towards the middle (arriving
    /// on the neighbour's row 4, column `9 - x`, orientation flipped).
    pub fn orthogonal_step(&self, from: Placed, (dx, dy): (i32, i32)) -> Vec<Placed> {
        let o = from.orientation;
        let (x, y) = (from.x + o * dx, from.y + o * dy);
        if (1..=COLUMNS).contains(&x) && (1..=ROWS).contains(&y) {
            return vec![Placed { x, y, ..from }];
        }
        if y == ROWS + 1 && (1..=COLUMNS).contains(&x) {
            return self
                .rule
                .neighbours(from.section, from.x)
                .map(|n| Placed {
                    section: n,
                    x: COLUMNS + 1 - from.x,
                    y: ROWS,
                    orientation: -o,
                })
                .collect();
        }
        Vec::new()
    }

    /// Follows the orthogonal steps `path` from `from` along every branch.
    fn follow(&self, from: Placed, path: &[(i32, i32)]) -> Vec<Placed> {
        path.iter().fold(vec![from], |places, &step| {
            places
                .into_iter()
                .flat_map(|p| self.orthogonal_step(p, step))
                .collect()
        })
    }

    /// One diagonal step `(dx, dy)`: the union of the paths "`(0, dy)` then
    /// `(dx, 0)`" and "`(dx, 0)` then `(0, dy)`", never the start cell or
    /// an orthogonal neighbour of it; each cell once.
    pub fn diagonal_step(&self, from: Placed, (dx, dy): (i32, i32)) -> Vec<Placed> {
        let start = self.cell_of(from);
        let neighbours: Vec<Cell> = ORTHOGONAL
            .iter()
            .flat_map(|&d| self.orthogonal_step(from, d))
            .map(|p| self.cell_of(p))
            .collect();
        let mut out: Vec<Placed> = Vec::new();
        for path in [[(0, dy), (dx, 0)], [(dx, 0), (0, dy)]] {
            for p in self.follow(from, &path) {
                let c = self.cell_of(p);
                if c != start
                    && !neighbours.contains(&c)
                    && !out.iter().any(|q| self.cell_of(*q) == c)
                {
                    out.push(p);
                }
            }
        }
        out
    }

    /// The ray tree from `from` repeating `step` (each branch in its own
    /// orientation) until every branch leaves the board.
    fn ray(
        &self,
        from: Placed,
        step: &dyn Fn(Placed) -> Vec<Placed>,
        depth: usize,
    ) -> Vec<RayNode> {
        if depth >= MAX_RAY {
            return Vec::new();
        }
        step(from)
            .into_iter()
            .map(|p| RayNode {
                cell: self.cell_of(p),
                passes_between: None,
                children: self.ray(p, step, depth + 1),
            })
            .collect()
    }

    /// All rook rays from `cell`.
    pub fn rook_rays(&self, cell: Cell) -> Vec<RayNode> {
        ORTHOGONAL
            .iter()
            .flat_map(|&d| self.ray(self.native(cell), &|p| self.orthogonal_step(p, d), 0))
            .collect()
    }

    /// All bishop rays from `cell`.
    pub fn bishop_rays(&self, cell: Cell) -> Vec<RayNode> {
        DIAGONAL
            .iter()
            .flat_map(|&d| self.ray(self.native(cell), &|p| self.diagonal_step(p, d), 0))
            .collect()
    }

    /// The king's targets: one orthogonal or diagonal step.
    pub fn king_targets(&self, cell: Cell) -> Bitboard {
        let from = self.native(cell);
        ORTHOGONAL
            .iter()
            .flat_map(|&d| self.orthogonal_step(from, d))
            .chain(DIAGONAL.iter().flat_map(|&d| self.diagonal_step(from, d)))
            .map(|p| self.cell_of(p))
            .collect()
    }

    /// The knight's targets: ends of the three-step paths `a, a, b` and
    /// `a, b, b` (`a ⟂ b`), without the start cell and the king's targets.
    pub fn knight_targets(&self, cell: Cell) -> Bitboard {
        let from = self.native(cell);
        let mut ends = Bitboard::EMPTY;
        for a in ORTHOGONAL {
            for b in ORTHOGONAL {
                if a.0 * b.0 + a.1 * b.1 != 0 {
                    continue;
                }
                for path in [[a, a, b], [a, b, b]] {
                    ends |= self
                        .follow(from, &path)
                        .into_iter()
                        .map(|p| self.cell_of(p))
                        .collect::<Bitboard>();
                }
            }
        }
        ends.without(cell) & !self.king_targets(cell)
    }

    /// The forward direction of a pawn of section `army` standing on `cell`:
    /// towards the middle in its own section, towards the back rank elsewhere.
    fn pawn_forward(&self, army: usize, cell: Cell) -> i32 {
        if self.coords(cell).0 == army { 1 } else { -1 }
    }

    /// A pawn's one-cell moves from `cell` (on Star a pawn on a middle cell
    /// may go into either neighbour).
    pub fn pawn_steps(&self, army: usize, cell: Cell) -> Bitboard {
        let f = self.pawn_forward(army, cell);
        self.orthogonal_step(self.native(cell), (0, f))
            .into_iter()
            .map(|p| self.cell_of(p))
            .collect()
    }

    /// A pawn's capture targets from `cell`: the diagonal forward steps.
    pub fn pawn_captures(&self, army: usize, cell: Cell) -> Bitboard {
        let f = self.pawn_forward(army, cell);
        [-1, 1]
            .into_iter()
            .flat_map(|dx| self.diagonal_step(self.native(cell), (dx, f)))
            .map(|p| self.cell_of(p))
            .collect()
    }

    /// The board's moves for the table builder.
    pub fn shape(&self, names: Vec<String>) -> BoardShape {
        let cells: Vec<Cell> = (0..Self::CELLS).map(|i| Cell::new(i as u8)).collect();
        let mut rays: [Vec<Vec<RayNode>>; 2] = Default::default();
        rays[SliderClass::Straight as usize] = cells.iter().map(|&c| self.rook_rays(c)).collect();
        rays[SliderClass::Diagonal as usize] = cells.iter().map(|&c| self.bishop_rays(c)).collect();
        BoardShape {
            names,
            rays,
            knight: cells.iter().map(|&c| self.knight_targets(c)).collect(),
            picture: self.picture(),
        }
    }

    /// The board as drawn: a regular hexagon with side [`COLUMNS`] cut into
    /// six quadrilaterals of 4×4 cells that meet at the middle. Section 0's
    /// back rank is the bottom edge, column 1 on the left; its columns 1–4
    /// and 5–8 each fill the quadrilateral between the edge, the middle and
    /// the midpoints of the neighbouring edges, so that row 4 of one section
    /// runs along row 4 of the neighbour its columns lead into. The other
    /// sections are the same turned by 120°: the left neighbour clockwise.
    /// Each back rank's column 1 is dark, as a1 is in chess.
    pub fn picture(&self) -> Picture {
        let r = COLUMNS as f64;
        let h = r * 3f64.sqrt() / 2.0;
        let middle: Point = [0.0, 0.0];
        let bottom_left = [-r / 2.0, h];
        let bottom_right = [r / 2.0, h];
        let bottom_middle = [0.0, h];
        let left_middle = [-3.0 * r / 4.0, h / 2.0];
        let right_middle = [3.0 * r / 4.0, h / 2.0];
        // Corners at (column edge, row edge) = (0, 0), (4, 0), (4, 4), (0, 4).
        let halves = [
            [bottom_left, bottom_middle, middle, left_middle],
            [bottom_middle, bottom_right, right_middle, middle],
        ];
        let half_width = COLUMNS / 2;
        let turn = -2.0 * std::f64::consts::PI / SECTIONS as f64;
        let cells = (0..Self::CELLS)
            .map(|i| {
                let (section, x, y) = self.coords(Cell::new(i as u8));
                let quad = halves[((x - 1) / half_width) as usize];
                let column = ((x - 1) % half_width) as f64;
                let (u0, u1) = (
                    column / half_width as f64,
                    (column + 1.0) / half_width as f64,
                );
                let (v0, v1) = ((y - 1) as f64 / ROWS as f64, y as f64 / ROWS as f64);
                let outline = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)]
                    .into_iter()
                    .map(|(u, v)| rotate(bilinear(quad, u, v), middle, turn * section as f64))
                    .collect();
                CellShape::new(outline, dark_if_even(x + y), None)
            })
            .collect();
        Picture::new(cells, &LIGHT_AND_DARK, Vec::new(), true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether two outlines share a side (two corners in common).
    fn share_a_side(a: &[Point], b: &[Point]) -> bool {
        let close = |p: &Point, q: &Point| (p[0] - q[0]).abs() + (p[1] - q[1]).abs() < 1e-9;
        a.iter().filter(|p| b.iter().any(|q| close(p, q))).count() == 2
    }

    #[test]
    fn orthogonal_neighbours_share_a_side_in_the_picture() {
        for rule in [ColumnRule::Trichess, ColumnRule::Star] {
            let board = SectionBoard::new(rule);
            let picture = board.picture();
            for i in 0..SectionBoard::CELLS {
                let cell = Cell::new(i as u8);
                let (_, x, _) = board.coords(cell);
                for d in ORTHOGONAL {
                    for to in board.orthogonal_step(board.native(cell), d) {
                        let other = board.cell_of(to);
                        // On Star the middle columns 4 and 5 also lead into
                        // the section they only touch at the middle point.
                        let touches_only = rule == ColumnRule::Star
                            && (x == 4 || x == 5)
                            && to.section != board.coords(cell).0
                            && !share_a_side(
                                &picture.cells[i].outline,
                                &picture.cells[other.index()].outline,
                            );
                        assert!(
                            touches_only
                                || share_a_side(
                                    &picture.cells[i].outline,
                                    &picture.cells[other.index()].outline
                                ),
                            "{rule:?}: cell {i} and {} are apart",
                            other.index()
                        );
                    }
                }
            }
        }
    }
}
