//! Boards and their tables.
//!
//! Each board module describes its cells and how pieces step across them
//! ([`BoardShape`]): slider rays as trees, knight leaps. [`Geometry::build`]
//! turns any shape into the tables the move generator reads, once, at start-up.
//! No table is typed by hand; everything follows from the coordinate rules.

pub mod hex;
pub mod lattice;
pub mod picture;
pub mod pyramid;
pub mod rays;
pub mod sections;
pub mod square;

use crate::bitboard::Bitboard;
use crate::types::{Cell, MAX_CELLS};
use ahash::AHashMap;
use picture::Picture;
use rays::{Compiled, PassingLine, RayNode, RayPair, Segment};

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
    /// How the board is drawn.
    pub picture: Picture,
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

/// What the generator reads about one cell, kept together in memory.
#[derive(Clone, Copy, Default)]
struct CellTable {
    lines: [Bitboard; 2],
    steps: [Bitboard; 2],
    knight: Bitboard,
    pairs: [(u32, u32); 2],
    passing: [(u32, u32); 2],
    segments: [(u32, u32); 2],
}

/// A table with one entry per possible cell, indexed without bounds checks
/// (a cell index is always below [`MAX_CELLS`]).
pub type PerCell<T> = Box<[T; MAX_CELLS]>;

/// A set per pair of cells, the first cell choosing the row: rows of a
/// fixed length, so that an entry is found by shifts rather than by a
/// multiplication by the board's size (the unused part of a row is never
/// read, so never brought into the caches).
type PairTable = Box<[[Bitboard; MAX_CELLS]; MAX_CELLS]>;

/// An empty [`PairTable`], built on the heap (256 KB).
fn pair_table() -> PairTable {
    vec![[Bitboard::EMPTY; MAX_CELLS]; MAX_CELLS]
        .into_boxed_slice()
        .try_into()
        .expect("MAX_CELLS rows")
}

/// A [`PerCell`] table filled from `f` for the first `n` cells and defaults beyond.
pub fn per_cell<T: Copy + Default>(n: usize, f: impl Fn(Cell) -> T) -> PerCell<T> {
    let mut table = Box::new([T::default(); MAX_CELLS]);
    for (i, slot) in table.iter_mut().enumerate().take(n) {
        *slot = f(Cell::new(i as u8));
    }
    table
}

/// The tables of one board, built once from its [`BoardShape`].
pub struct Geometry {
    names: Vec<String>,
    lookup: AHashMap<String, Cell>,
    longest_name: usize,
    cells: Bitboard,
    pairs: [Vec<RayPair>; 2],
    passing: [Vec<PassingLine>; 2],
    segments: [Vec<Segment>; 2],
    table: PerCell<CellTable>,
    pass_steps: Option<PerCell<[PassStep; MAX_PASS_STEPS]>>,
    between: [PairTable; 2],
    line_passes: [PairTable; 2],
    unique_paths: bool,
    picture: Picture,
}

impl Geometry {
    /// Builds all tables of `shape`.
    pub fn build(shape: BoardShape) -> Geometry {
        let n = shape.names.len();
        assert!(n <= MAX_CELLS, "a board has at most {MAX_CELLS} cells");
        assert_eq!(shape.picture.cells.len(), n, "one drawn shape per cell");
        let cells = Bitboard::first_cells(n);
        let mut segments: [Vec<Segment>; 2] = Default::default();
        let mut pairs: [Vec<RayPair>; 2] = Default::default();
        let mut passing: [Vec<PassingLine>; 2] = Default::default();
        let mut table = Box::new([CellTable::default(); MAX_CELLS]);
        let mut between = [pair_table(), pair_table()];
        let mut line_passes = [pair_table(), pair_table()];
        let mut has_passing = false;
        let mut unique_paths = true;
        let mut pass_steps = Box::new([[PassStep::default(); MAX_PASS_STEPS]; MAX_CELLS]);

        for class in SliderClass::BOTH {
            let c = class as usize;
            for (from, roots) in shape.rays[c].iter().enumerate() {
                let start = segments[c].len() as u32;
                let first_pair = pairs[c].len() as u32;
                let first_passing = passing[c].len() as u32;
                let cell = Cell::new(from as u8);
                let out = Compiled {
                    pairs: &mut pairs[c],
                    passing: &mut passing[c],
                    segments: &mut segments[c],
                };
                rays::compile(cell, roots, out);
                table[from].segments[c] = (start, segments[c].len() as u32);
                table[from].pairs[c] = (first_pair, pairs[c].len() as u32);
                table[from].passing[c] = (first_passing, passing[c].len() as u32);

                let mut union = Bitboard::EMPTY;
                let mut seen = Bitboard::EMPTY;
                for root in roots {
                    root.visit_paths(&mut |node, before, passes| {
                        let to = node.cell.index();
                        if seen.has(node.cell) {
                            unique_paths = false;
                        }
                        seen = seen.with(node.cell);
                        union = union.with(node.cell);
                        between[c][from][to] |= before;
                        line_passes[c][from][to] |= passes;
                        has_passing |= passes.nonempty();
                    });
                }
                table[from].lines[c] = union;
                table[from].steps[c] = roots.iter().map(|r| r.cell).collect();

                let mut k = 0;
                for root in roots {
                    if let Some((a, b)) = root.passes_between {
                        assert!(
                            k < MAX_PASS_STEPS,
                            "too many passing-rule steps from a cell"
                        );
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
        for (slot, &knight) in table.iter_mut().zip(&shape.knight) {
            slot.knight = knight;
        }
        Geometry {
            names: shape.names,
            lookup,
            longest_name,
            cells,
            pairs,
            passing,
            segments,
            table,
            pass_steps: has_passing.then_some(pass_steps),
            between,
            line_passes,
            unique_paths,
            picture: shape.picture,
        }
    }

    #[inline(always)]
    fn entry(&self, cell: Cell) -> &CellTable {
        &self.table[cell.slot()]
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

    /// How the board is drawn.
    pub fn picture(&self) -> &Picture {
        &self.picture
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
        self.slider_reach_in::<false>(class, from, occupied).0
    }

    /// [`Geometry::slider_reach`], and the cells it depends on when
    /// `occupied` is the board: the cells reached (the first piece on a ray
    /// included) and the cells the steps looked at pass between. While none
    /// of them fills or empties, the reach stays the same.
    #[inline(always)]
    pub fn slider_reach_watched(
        &self,
        class: SliderClass,
        from: Cell,
        occupied: Bitboard,
    ) -> (Bitboard, Bitboard) {
        self.slider_reach_in::<true>(class, from, occupied)
    }

    /// The reach, and (if `WATCHED`) the cells it depends on.
    #[inline(always)]
    fn slider_reach_in<const WATCHED: bool>(
        &self,
        class: SliderClass,
        from: Cell,
        occupied: Bitboard,
    ) -> (Bitboard, Bitboard) {
        let c = class as usize;
        let entry = self.entry(from);
        let (first_pair, end_pair) = entry.pairs[c];
        let mut reached = Bitboard::EMPTY;
        for pair in &self.pairs[c][first_pair as usize..end_pair as usize] {
            reached |= pair.reach(occupied);
        }
        // Outside passing-rule steps a reach depends on its own cells alone.
        let mut watched = reached;
        let passing = self.pass_steps.is_some();
        if passing {
            let (first_passing, end_passing) = entry.passing[c];
            for line in &self.passing[c][first_passing as usize..end_passing as usize] {
                if WATCHED {
                    let (cells, depends_on) = line.reach_watched(occupied);
                    reached |= cells;
                    watched |= depends_on;
                } else {
                    reached |= line.reach(occupied);
                }
            }
        }
        let (start, end) = entry.segments[c];
        let segments = &self.segments[c][start as usize..end as usize];
        let offset = start as usize;
        let mut i = 0;
        while let Some(segment) = segments.get(i) {
            if WATCHED {
                watched |= segment.passes_between;
            }
            if passing && segment.pass_blocked(occupied) {
                i = segment.skip as usize - offset;
                continue;
            }
            let (cells, blocked) = segment.reach(occupied);
            reached |= cells;
            if WATCHED {
                watched |= cells;
            }
            i = if blocked {
                segment.skip as usize - offset
            } else {
                i + 1
            };
        }
        (reached, watched)
    }

    /// Every cell on the rays of `class` from `from` on an empty board.
    #[inline(always)]
    pub fn lines(&self, class: SliderClass, from: Cell) -> Bitboard {
        self.entry(from).lines[class as usize]
    }

    /// The first cell of every ray of `class` from `from`: one step.
    #[inline(always)]
    pub fn steps(&self, class: SliderClass, from: Cell) -> Bitboard {
        self.entry(from).steps[class as usize]
    }

    /// The knight's targets from `from`.
    #[inline(always)]
    pub fn knight(&self, from: Cell) -> Bitboard {
        self.entry(from).knight
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
        for step in &table[from.slot()] {
            if (step.between & occupied) == step.between {
                blocked |= step.target;
            }
        }
        blocked
    }

    /// The two cells the diagonal step from `from` to the neighbouring `to`
    /// passes between (empty where the board has no passing rule or the
    /// cells are no such step).
    pub fn passed_cells(&self, from: Cell, to: Cell) -> Bitboard {
        let Some(table) = &self.pass_steps else {
            return Bitboard::EMPTY;
        };
        table[from.slot()]
            .iter()
            .find(|step| step.target.has(to))
            .map_or(Bitboard::EMPTY, |step| step.between)
    }

    /// The cells strictly between `from` and `to` on the ray of `class`
    /// joining them (empty if `to` is not on such a ray).
    #[inline(always)]
    pub fn between(&self, class: SliderClass, from: Cell, to: Cell) -> Bitboard {
        self.between[class as usize][from.slot()][to.slot()]
    }

    /// The cells passed between by the steps of the ray of `class` from `from`
    /// to `to` (passing rule; empty on boards without it).
    #[inline(always)]
    pub fn line_passes(&self, class: SliderClass, from: Cell, to: Cell) -> Bitboard {
        self.line_passes[class as usize][from.slot()][to.slot()]
    }

    /// Whether a slider of `class` on `from` reaches `to`, a cell of its
    /// lines, when `occupied` is the board. Only for boards with
    /// [`Geometry::unique_paths`]: nothing may stand between, and under the
    /// passing rule no step of the path may pass between two pieces (looked
    /// at step by step only when two of the passed cells are occupied).
    #[inline(always)]
    pub fn reaches(&self, class: SliderClass, from: Cell, to: Cell, occupied: Bitboard) -> bool {
        debug_assert!(self.unique_paths && self.lines(class, from).has(to));
        (self.between(class, from, to) & occupied).is_empty()
            && self.passing_allows(class, from, to, occupied)
    }

    /// Whether the passing rule lets a slider of `class` on `from` pass
    /// every step of its path to `to` (boards with unique paths; always
    /// true on boards without the rule).
    #[inline(always)]
    pub fn passing_allows(
        &self,
        class: SliderClass,
        from: Cell,
        to: Cell,
        occupied: Bitboard,
    ) -> bool {
        if self.pass_steps.is_none() {
            return true;
        }
        let passed = self.line_passes(class, from, to) & occupied;
        !passed.has_several() || self.slider_reach_out_of_line(class, from, occupied).has(to)
    }

    /// [`Geometry::slider_reach`] kept out of line, for the rare case of
    /// [`Geometry::passing_allows`] that must walk the rays (two occupied
    /// passed cells).
    #[cold]
    #[inline(never)]
    fn slider_reach_out_of_line(
        &self,
        class: SliderClass,
        from: Cell,
        occupied: Bitboard,
    ) -> Bitboard {
        self.slider_reach(class, from, occupied)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    /// Boards of a few densities, from a fixed generator.
    fn occupancies(geometry: &Geometry) -> Vec<Bitboard> {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        (0..6)
            .map(|density| {
                geometry
                    .cells()
                    .into_iter()
                    .filter(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        state % 6 < density
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn reaching_one_cell_agrees_with_the_whole_reach() {
        for v in Variant::ALL {
            let g = &v.game().geometry;
            if !g.unique_paths() {
                continue;
            }
            for occupied in occupancies(g) {
                for from in g.cells() {
                    for class in SliderClass::BOTH {
                        let reach = g.slider_reach(class, from, occupied);
                        for to in g.lines(class, from) {
                            assert_eq!(
                                g.reaches(class, from, to, occupied),
                                reach.has(to),
                                "{v}: {class:?} from {} to {}",
                                g.name(from),
                                g.name(to)
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_reach_changes_only_with_a_watched_cell() {
        for v in Variant::ALL {
            let g = &v.game().geometry;
            for occupied in occupancies(g) {
                for from in g.cells() {
                    for class in SliderClass::BOTH {
                        let (reach, watched) = g.slider_reach_watched(class, from, occupied);
                        assert_eq!(reach, g.slider_reach(class, from, occupied));
                        for other in g.cells() & !watched {
                            let toggled = occupied ^ Bitboard::from_cell(other);
                            assert_eq!(
                                g.slider_reach_watched(class, from, toggled),
                                (reach, watched),
                                "{v}: {class:?} from {} changes with {}",
                                g.name(from),
                                g.name(other)
                            );
                        }
                    }
                }
            }
        }
    }
}
