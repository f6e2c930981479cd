//! Boards and their tables.
//!
//! Each board module describes its cells and how pieces step across them
//! ([`BoardShape`]): slider rays as trees, knight leaps. [`Geometry::build`]
//! turns any shape into the tables the move generator reads, once, at start-up.
//! No table is typed by hand; everything follows from the coordinate rules.

pub mod hex;
pub mod lattice;
pub mod pyramid;
pub mod rays;
pub mod sections;
pub mod square;

use crate::bitboard::Bitboard;
use crate::types::{Cell, MAX_CELLS};
use ahash::AHashMap;
use rays::{RayNode, Segment};

/// The two families of slider directions: rook-like and bishop-like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliderClass {
    /// Rook directions (orthogonal; on the hex boards the 6 edge directions;
    /// on the pyramid also vertical and staircase).
    Straight = 0,
    /// Bishop directions (diagonal; on the hex boards the 6 vertex directions).
    Diagonal = 1,
}

impl SliderClass {
    /// Both classes.
    pub const BOTH: [SliderClass; 2] = [SliderClass::Straight, SliderClass::Diagonal];
}

/// A board as its module describes it, before the tables are built.
pub struct BoardShape {
    /// Cell names, by cell index.
    pub names: Vec<String>,
    /// For each slider class, for each cell, the rays leaving it (all directions).
    pub rays: [Vec<Vec<RayNode>>; 2],
    /// Knight targets of each cell.
    pub knight: Vec<Bitboard>,
}

/// Most diagonal steps a cell has under the passing rule (the hex boards' six).
const MAX_PASS_STEPS: usize = 6;

/// A one-cell diagonal step under the passing rule: its target and the two
/// cells it passes between.
#[derive(Clone, Copy, Default)]
struct PassStep {
    target: Bitboard,
    between: Bitboard,
}

/// The tables of one board, built once from its [`BoardShape`].
pub struct Geometry {
    names: Vec<String>,
    lookup: AHashMap<String, Cell>,
    longest_name: usize,
    cells: Bitboard,
    segments: [Vec<Segment>; 2],
    segment_ranges: [Vec<(u32, u32)>; 2],
    lines: [Vec<Bitboard>; 2],
    steps: [Vec<Bitboard>; 2],
    knight: Vec<Bitboard>,
    pass_steps: Option<Vec<[PassStep; MAX_PASS_STEPS]>>,
    between: [Vec<Bitboard>; 2],
    line_passes: [Vec<Bitboard>; 2],
    unique_paths: bool,
}

impl Geometry {
    /// Builds all tables of `shape`.
    pub fn build(shape: BoardShape) -> Geometry {
        let n = shape.names.len();
        assert!(n <= MAX_CELLS, "a board has at most {MAX_CELLS} cells");
        let cells = Bitboard::first_cells(n);
        let mut segments: [Vec<Segment>; 2] = Default::default();
        let mut segment_ranges: [Vec<(u32, u32)>; 2] = Default::default();
        let mut lines: [Vec<Bitboard>; 2] = Default::default();
        let mut steps: [Vec<Bitboard>; 2] = Default::default();
        let mut between: [Vec<Bitboard>; 2] = [vec![Bitboard::EMPTY; n * n], vec![Bitboard::EMPTY; n * n]];
        let mut line_passes: [Vec<Bitboard>; 2] = [vec![Bitboard::EMPTY; n * n], vec![Bitboard::EMPTY; n * n]];
        let mut has_passing = false;
        let mut unique_paths = true;
        let mut pass_steps = vec![[PassStep::default(); MAX_PASS_STEPS]; n];

        for class in SliderClass::BOTH {
            let c = class as usize;
            for (from, roots) in shape.rays[c].iter().enumerate() {
                let start = segments[c].len() as u32;
                rays::compile(roots, &mut segments[c]);
                segment_ranges[c].push((start, segments[c].len() as u32));

                let mut union = Bitboard::EMPTY;
                let mut seen = Bitboard::EMPTY;
                for root in roots {
                    root.visit_paths(&mut |node, before, passes| {
                        let key = from * n + node.cell.index();
                        if seen.has(node.cell) {
                            unique_paths = false;
                        }
                        seen = seen.with(node.cell);
                        union = union.with(node.cell);
                        between[c][key] |= before;
                        line_passes[c][key] |= passes;
                        has_passing |= passes.nonempty();
                    });
                }
                lines[c].push(union);
                let first_steps: Bitboard = roots.iter().map(|r| r.cell).collect();
                steps[c].push(first_steps);

                let mut k = 0;
                for root in roots {
                    if let Some((a, b)) = root.passes_between {
                        assert!(k < MAX_PASS_STEPS, "too many passing-rule steps from a cell");
                        pass_steps[from][k] = PassStep {
                            target: Bitboard::from_cell(root.cell),
                            between: Bitboard::from_cell(a).with(b),
                        };
                        k += 1;
                    }
                }
            }
        }
        let lookup = shape
            .names
            .iter()
            .enumerate()
            .map(|(i, name)| (name.to_ascii_lowercase(), Cell::new(i as u8)))
            .collect();
        let longest_name = shape.names.iter().map(String::len).max().unwrap_or(0);
        Geometry {
            names: shape.names,
            lookup,
            longest_name,
            cells,
            segments,
            segment_ranges,
            lines,
            steps,
            knight: shape.knight,
            pass_steps: has_passing.then_some(pass_steps),
            between,
            line_passes,
            unique_paths,
        }
    }

    /// Number of cells.
    #[inline(always)]
    pub fn cell_count(&self) -> usize {
        self.names.len()
    }

    /// All cells of the board.
    #[inline(always)]
    pub fn cells(&self) -> Bitboard {
        self.cells
    }

    /// The name of `cell` (lowercase).
    pub fn name(&self, cell: Cell) -> &str {
        &self.names[cell.index()]
    }

    /// The cell called `name` (any case).
    pub fn cell(&self, name: &str) -> Option<Cell> {
        if name.len() > self.longest_name {
            return None;
        }
        self.lookup.get(&name.to_ascii_lowercase()).copied()
    }

    /// Length of the longest cell name.
    pub fn longest_name(&self) -> usize {
        self.longest_name
    }

    /// The cells a slider of `class` on `from` reaches when `occupied` is the
    /// board: along every ray and branch up to and including the first
    /// occupied cell, obeying the passing rule where the board has it.
    #[inline(always)]
    pub fn slider_reach(&self, class: SliderClass, from: Cell, occupied: Bitboard) -> Bitboard {
        let c = class as usize;
        let (start, end) = self.segment_ranges[c][from.index()];
        let segments = &self.segments[c];
        let mut reached = Bitboard::EMPTY;
        let mut i = start as usize;
        while i < end as usize {
            let segment = &segments[i];
            if segment.pass_blocked(occupied) {
                i = segment.skip as usize;
                continue;
            }
            let (cells, blocked) = segment.reach(occupied);
            reached |= cells;
            i = if blocked { segment.skip as usize } else { i + 1 };
        }
        reached
    }

    /// Every cell on the rays of `class` from `from` on an empty board.
    #[inline(always)]
    pub fn lines(&self, class: SliderClass, from: Cell) -> Bitboard {
        self.lines[class as usize][from.index()]
    }

    /// The first cell of every ray of `class` from `from`: one step.
    #[inline(always)]
    pub fn steps(&self, class: SliderClass, from: Cell) -> Bitboard {
        self.steps[class as usize][from.index()]
    }

    /// The knight's targets from `from`.
    #[inline(always)]
    pub fn knight(&self, from: Cell) -> Bitboard {
        self.knight[from.index()]
    }

    /// Whether some step of this board obeys the passing rule.
    #[inline(always)]
    pub fn has_passing_rule(&self) -> bool {
        self.pass_steps.is_some()
    }

    /// The diagonal one-step targets of `from` that the passing rule forbids
    /// when `occupied` is the board (both passed cells occupied). The relation
    /// is symmetric: a step is blocked in both directions alike.
    #[inline(always)]
    pub fn blocked_diagonal_steps(&self, from: Cell, occupied: Bitboard) -> Bitboard {
        let Some(table) = &self.pass_steps else {
            return Bitboard::EMPTY;
        };
        let mut blocked = Bitboard::EMPTY;
        for step in &table[from.index()] {
            if (step.between & occupied) == step.between {
                blocked |= step.target;
            }
        }
        blocked
    }

    /// The cells strictly between `from` and `to` on the ray of `class`
    /// joining them (empty if `to` is not on such a ray).
    #[inline(always)]
    pub fn between(&self, class: SliderClass, from: Cell, to: Cell) -> Bitboard {
        self.between[class as usize][from.index() * self.names.len() + to.index()]
    }

    /// The cells passed between by the steps of the ray of `class` from `from`
    /// to `to` (passing rule; empty on boards without it).
    #[inline(always)]
    pub fn line_passes(&self, class: SliderClass, from: Cell, to: Cell) -> Bitboard {
        self.line_passes[class as usize][from.index() * self.names.len() + to.index()]
    }

    /// Whether every ray cell is reached by one path only and no step obeys the
    /// passing rule. Then a piece blocks exactly the lines through its cell,
    /// and pins and checks can be answered from [`Geometry::between`] alone.
    #[inline(always)]
    pub fn exact_lines(&self) -> bool {
        self.unique_paths && self.pass_steps.is_none()
    }

    /// Whether every ray cell is reached from its start by one path only.
    #[inline(always)]
    pub fn unique_paths(&self) -> bool {
        self.unique_paths
    }
}
