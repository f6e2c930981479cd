//! Slider rays as trees of cells, and their compiled form: monotonic segments.
//!
//! A ray from a cell in one direction is a sequence of cells, except where a
//! board makes it **fork** (the section boards split rays at the middle).
//! Each step may carry the two cells it **passes between** (Dreierschach's
//! passing rule). A ray is described as a [`RayNode`] tree and compiled into
//! the cheapest form that fits it: [`RayPair`]s (two opposite straight rays,
//! one obstruction difference), [`PassingLine`]s (rays under the passing
//! rule, two opposite ones at a time: a few bit gathers without a branch
//! per step), or else
//! [`Segment`]s: runs of cells whose indices grow (or shrink) along the ray,
//! so that the first blocker of a run is one bit scan away.

use crate::bitboard::Bitboard;
use crate::types::Cell;

/// One cell of a ray tree: the cell reached, the pair of cells the step into
/// it passes between (if the passing rule applies to it), and where the ray
/// continues (several children where it forks).
#[derive(Clone, Debug)]
pub struct RayNode {
    /// The cell this step reaches.
    pub cell: Cell,
    /// Both cells the step passes between; the step is blocked when both are occupied.
    pub passes_between: Option<(Cell, Cell)>,
    /// The continuations of the ray beyond this cell.
    pub children: Vec<RayNode>,
}

impl RayNode {
    /// A node without passing-rule data and without continuation.
    pub fn leaf(cell: Cell) -> RayNode {
        RayNode {
            cell,
            passes_between: None,
            children: Vec::new(),
        }
    }

    /// A straight chain of cells (no forks, no passing rule).
    pub fn chain(cells: &[Cell]) -> Option<RayNode> {
        let (&first, rest) = cells.split_first()?;
        let mut node = RayNode::leaf(first);
        node.children.extend(RayNode::chain(rest));
        Some(node)
    }

    /// Calls `visit(node, cells strictly before it, pass cells of every step up to it)`
    /// for every node of the tree, parents first.
    pub fn visit_paths(&self, visit: &mut impl FnMut(&RayNode, Bitboard, Bitboard)) {
        self.visit_from(Bitboard::EMPTY, Bitboard::EMPTY, visit);
    }

    fn visit_from(
        &self,
        before: Bitboard,
        passes: Bitboard,
        visit: &mut impl FnMut(&RayNode, Bitboard, Bitboard),
    ) {
        let passes = match self.passes_between {
            Some((a, b)) => passes.with(a).with(b),
            None => passes,
        };
        visit(self, before, passes);
        for child in &self.children {
            child.visit_from(before.with(self.cell), passes, visit);
        }
    }
}

/// A run of ray cells whose indices are monotonic along the ray.
///
/// Segments of one cell's rays are stored in pre-order: when a segment is
/// blocked, the walk jumps to `skip` (past its continuations), otherwise it
/// goes on with the next segment (its first continuation, or a sibling).
#[derive(Clone, Copy, Debug)]
pub struct Segment {
    /// The cells of the run.
    pub cells: Bitboard,
    /// Both cells the step into the run's first cell passes between (empty if none).
    pub passes_between: Bitboard,
    /// Index of the first segment after this one's continuations.
    pub skip: u32,
    /// Whether indices grow along the ray (else they shrink).
    pub ascending: bool,
}

impl Segment {
    /// The cells of this run a slider reaches when `occupied` is the board:
    /// up to and including the first occupied one. Returns them and whether
    /// the run was blocked (so its continuations are not reached).
    #[inline(always)]
    pub fn reach(&self, occupied: Bitboard) -> (Bitboard, bool) {
        let blockers = self.cells & occupied;
        if blockers.is_empty() {
            (self.cells, false)
        } else if self.ascending {
            (self.cells.up_to(blockers.first()), true)
        } else {
            (self.cells.from(blockers.last()), true)
        }
    }

    /// Whether the passing rule forbids entering this run: both passed cells occupied.
    #[inline(always)]
    pub fn pass_blocked(&self, occupied: Bitboard) -> bool {
        self.passes_between.nonempty() && (self.passes_between & occupied) == self.passes_between
    }
}

/// Two unbranched rays from one cell, one running to lower indices and one
/// to higher: their reach is found in one step by the obstruction
/// difference (the span between the nearest blocker below and the nearest
/// blocker above).
#[derive(Clone, Copy, Debug)]
pub struct RayPair {
    /// Cells of the ray with indices below the start cell.
    pub lower: Bitboard,
    /// Cells of the ray with indices above the start cell.
    pub upper: Bitboard,
}

impl RayPair {
    /// The cells of both rays a slider reaches when `occupied` is the board.
    #[inline(always)]
    pub fn reach(&self, occupied: Bitboard) -> Bitboard {
        let below = (self.lower & occupied).0 | 1;
        let nearest_below = 1u128 << (127 - below.leading_zeros());
        let above = (self.upper & occupied).0;
        let span = above ^ above.wrapping_sub(nearest_below);
        Bitboard(span) & (self.lower | self.upper)
    }
}

/// The rays under the passing rule from one cell in two opposite
/// directions (or one ray alone), seen as one line: the cells in index order
/// with the start among them, and the two cells each step passes between.
/// Its reach is found without walking it: the occupancy of the cells and of
/// both sets of passed cells is gathered into line order
/// ([`Bitboard::gather`]), where the nearest piece and the nearest closed
/// step on either side of the start are a few bit operations away, and the
/// reached cells are scattered back ([`Bitboard::scatter`]) in one step.
#[derive(Clone, Copy, Debug)]
pub struct PassingLine {
    /// The cells of the line, the start among them.
    pub cells: Bitboard,
    /// For each step (step `j` joins the line's `j`-th and `j+1`-th cells
    /// in index order), one of the two cells it passes between ...
    pub first_passed: Bitboard,
    /// ... and the other.
    pub second_passed: Bitboard,
    /// The places among [`PassingLine::cells`] (bit `k`: the `k`-th
    /// cell) above the start ...
    above: u64,
    /// ... and below it.
    below: u64,
}

impl PassingLine {
    /// The cells of the line a slider on its start reaches when `occupied`
    /// is the board: on each side up to the first occupied cell (included)
    /// and short of the first step whose two passed cells are both occupied.
    #[inline(always)]
    pub fn reach(&self, occupied: Bitboard) -> Bitboard {
        Bitboard::scatter(self.reached(occupied).0, self.cells)
    }

    /// [`PassingLine::reach`], and the cells its reach depends on: the
    /// cells reached and the passed cells of every step up to the one that
    /// stopped the slider on either side. While none of those changes, the
    /// reach stays the same.
    #[inline(always)]
    pub fn reach_watched(&self, occupied: Bitboard) -> (Bitboard, Bitboard) {
        let (reached, looked_at) = self.reached(occupied);
        let reach = Bitboard::scatter(reached, self.cells);
        let passed = Bitboard::scatter(looked_at, self.first_passed)
            | Bitboard::scatter(looked_at, self.second_passed);
        (reach, reach | passed)
    }

    /// The places of the cells reached (bit `k`: the line's `k`-th cell),
    /// and the steps looked at on the way (bit `j`: step `j`). Bits beyond
    /// the line may be set; the scatters ignore them.
    #[inline(always)]
    fn reached(&self, occupied: Bitboard) -> (u64, u64) {
        let (above, below) = (self.above, self.below);
        let pieces = occupied.gather(self.cells) & (above | below);
        let closed = occupied.gather(self.first_passed) & occupied.gather(self.second_passed);
        // Upwards, a piece on cell k stops the slider on k, and a closed
        // step j (from cell j to j + 1) stops it on cell j: the slider
        // reaches up to the first stop.
        let up_stops = (pieces | closed) & !below;
        let through_first_up = up_stops ^ up_stops.wrapping_sub(1);
        // Downwards, a piece on cell k stops it on k, and a closed step j
        // (from cell j + 1 to j) stops it on cell j + 1. Cell 0 ends the line.
        let down_stops = (pieces & below) | (closed & below) << 1 | 1;
        let from_last_down = u64::MAX << (u64::BITS - 1 - down_stops.leading_zeros());
        let reached = (through_first_up & above) | (from_last_down & below);
        let looked_at =
            (through_first_up & !below) | ((from_last_down | from_last_down >> 1) & below);
        (reached, looked_at)
    }

    /// The start's place among the line's cells.
    pub fn start(&self) -> u32 {
        self.below.count_ones()
    }

    /// The line of a slider on `start` along `down` (a ray to lower
    /// indices) and `up` (one to higher indices), either of which may be
    /// missing, if it is one: the line's cells and each set of passed cells
    /// increase strictly along it (each ray's two passed cells may be taken
    /// either way round), and it fits 64 bits.
    fn join(start: Cell, down: Option<&RayPath>, up: Option<&RayPath>) -> Option<PassingLine> {
        let empty = RayPath::default();
        let (down, up) = (down.unwrap_or(&empty), up.unwrap_or(&empty));
        let mut cells: Vec<Cell> = down.cells.iter().rev().copied().collect();
        let start_place = cells.len();
        cells.push(start);
        cells.extend(&up.cells);
        let increasing = |seq: &[Cell]| seq.windows(2).all(|w| w[0] < w[1]);
        if cells.len() >= u64::BITS as usize || !increasing(&cells) {
            return None;
        }
        let sides = |path: &RayPath, swap: bool| -> (Vec<Cell>, Vec<Cell>) {
            path.passes
                .iter()
                .map(|&(a, b)| if swap { (b, a) } else { (a, b) })
                .unzip()
        };
        for (swap_down, swap_up) in [(false, false), (false, true), (true, false), (true, true)] {
            let (mut first, mut second) = sides(down, swap_down);
            first.reverse();
            second.reverse();
            let (up_first, up_second) = sides(up, swap_up);
            first.extend(up_first);
            second.extend(up_second);
            if increasing(&first) && increasing(&second) {
                return Some(PassingLine {
                    cells: cells.iter().copied().collect(),
                    first_passed: first.into_iter().collect(),
                    second_passed: second.into_iter().collect(),
                    above: u64::MAX << start_place << 1,
                    below: (1 << start_place) - 1,
                });
            }
        }
        None
    }
}

/// An unbranched ray every step of which obeys the passing rule: its cells
/// from the start outwards and the two cells each step passes between.
#[derive(Clone, Debug, Default)]
struct RayPath {
    cells: Vec<Cell>,
    passes: Vec<(Cell, Cell)>,
}

impl RayPath {
    /// The ray from `root`, if it is unbranched and every step obeys the passing rule.
    fn of(root: &RayNode) -> Option<RayPath> {
        let mut path = RayPath::default();
        let mut node = root;
        loop {
            path.cells.push(node.cell);
            path.passes.push(node.passes_between?);
            match node.children.as_slice() {
                [] => return Some(path),
                [only] => node = only,
                _ => return None,
            }
        }
    }
}

/// Where one cell's compiled rays of one class go.
pub struct Compiled<'a> {
    /// Pairs of opposite unbranched rays without passing-rule steps.
    pub pairs: &'a mut Vec<RayPair>,
    /// Unbranched rays whose every step obeys the passing rule, joined
    /// two by two into lines where they fit.
    pub passing: &'a mut Vec<PassingLine>,
    /// Everything else, as segments.
    pub segments: &'a mut Vec<Segment>,
}

/// Compiles one cell's rays of one class (`roots`, from `start`): unbranched
/// rays without passing-rule steps are paired into [`RayPair`]s where one
/// runs below and one above `start`, unbranched rays that obey the passing
/// rule at every step become [`PassingLine`]s (two by two where they fit
/// together), all others [`Segment`]s.
pub fn compile(start: Cell, roots: &[RayNode], out: Compiled) {
    let Compiled {
        pairs,
        passing,
        segments,
    } = out;
    let mut lower = Vec::new();
    let mut upper = Vec::new();
    let mut rest = Vec::new();
    for root in roots {
        match straight_cells(root) {
            Some(cells) if runs_away(start, &cells, |a, b| a > b) => lower.push(root),
            Some(cells) if runs_away(start, &cells, |a, b| a < b) => upper.push(root),
            _ => rest.push(root),
        }
    }
    while !lower.is_empty() && !upper.is_empty() {
        let (l, u) = (lower.remove(0), upper.remove(0));
        pairs.push(RayPair {
            lower: straight_cells(l).into_iter().flatten().collect(),
            upper: straight_cells(u).into_iter().flatten().collect(),
        });
    }
    let mut downs = Vec::new();
    let mut ups = Vec::new();
    for root in lower.into_iter().chain(upper).chain(rest) {
        let path = RayPath::of(root);
        match path {
            Some(p) if PassingLine::join(start, Some(&p), None).is_some() => downs.push(p),
            Some(p) if PassingLine::join(start, None, Some(&p)).is_some() => ups.push(p),
            _ => compile_run(root, segments),
        }
    }
    for down in &downs {
        let paired = ups.iter().enumerate().find_map(|(i, up)| {
            PassingLine::join(start, Some(down), Some(up)).map(|line| (i, line))
        });
        match paired {
            Some((i, line)) => {
                ups.remove(i);
                passing.push(line);
            }
            None => passing.extend(PassingLine::join(start, Some(down), None)),
        }
    }
    for up in &ups {
        passing.extend(PassingLine::join(start, None, Some(up)));
    }
}

/// The cells of an unbranched ray without passing-rule steps.
fn straight_cells(root: &RayNode) -> Option<Vec<Cell>> {
    let mut cells = Vec::new();
    let mut node = root;
    loop {
        if node.passes_between.is_some() {
            return None;
        }
        cells.push(node.cell);
        match node.children.as_slice() {
            [] => return Some(cells),
            [only] => node = only,
            _ => return None,
        }
    }
}

/// Whether the ray from `start` through `cells` moves away from `start` in
/// index order at every step (`before(a, b)`: `a` comes before `b`), as the
/// obstruction difference needs.
fn runs_away(start: Cell, cells: &[Cell], before: impl Fn(Cell, Cell) -> bool) -> bool {
    std::iter::once(start)
        .chain(cells.iter().copied())
        .collect::<Vec<_>>()
        .windows(2)
        .all(|w| before(w[0], w[1]))
}

fn compile_run(start: &RayNode, out: &mut Vec<Segment>) {
    let slot = out.len();
    out.push(Segment {
        cells: Bitboard::EMPTY,
        passes_between: Bitboard::EMPTY,
        skip: 0,
        ascending: true,
    });
    let mut cells = Bitboard::from_cell(start.cell);
    let mut ascending = None;
    let mut last = start;
    while let [only] = last.children.as_slice() {
        let grows = only.cell > last.cell;
        if only.passes_between.is_some() || ascending.is_some_and(|a| a != grows) {
            break;
        }
        ascending = Some(grows);
        cells = cells.with(only.cell);
        last = only;
    }
    for child in &last.children {
        compile_run(child, out);
    }
    out[slot] = Segment {
        cells,
        passes_between: start
            .passes_between
            .map_or(Bitboard::EMPTY, |(a, b)| Bitboard::from_cell(a).with(b)),
        skip: out.len() as u32,
        ascending: ascending.unwrap_or(true),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(i: u8) -> Cell {
        Cell::new(i)
    }

    fn compiled(start: Cell, roots: &[RayNode]) -> (Vec<RayPair>, Vec<PassingLine>, Vec<Segment>) {
        let (mut pairs, mut passing, mut segments) = (Vec::new(), Vec::new(), Vec::new());
        let out = Compiled {
            pairs: &mut pairs,
            passing: &mut passing,
            segments: &mut segments,
        };
        compile(start, roots, out);
        (pairs, passing, segments)
    }

    /// A chain from `cells[0]` on whose every step passes between `passed`.
    fn passing_chain(cells: &[u8], passed: &[(u8, u8)]) -> RayNode {
        let (&first, rest) = cells.split_first().unwrap();
        RayNode {
            cell: c(first),
            passes_between: Some((c(passed[0].0), c(passed[0].1))),
            children: if rest.is_empty() {
                Vec::new()
            } else {
                vec![passing_chain(rest, &passed[1..])]
            },
        }
    }

    #[test]
    fn a_passing_line_stops_at_a_piece_and_before_a_closed_step() {
        let set = |cells: &[u8]| cells.iter().map(|&i| c(i)).collect::<Bitboard>();
        // Up: 20 -> 30 -> 40 -> 50, the steps passing between 14|16, 24|26, 34|36, 44|46.
        let up = passing_chain(&[20, 30, 40, 50], &[(14, 16), (24, 26), (34, 36), (44, 46)]);
        // Down: 8 -> 6 -> 4, passing between 9|1, 7|0, 5|3 (the second set is not monotonic).
        let down = passing_chain(&[8, 6, 4], &[(9, 1), (7, 0), (5, 3)]);
        // Down: 8 -> 6 -> 4, passing between 3|9, 2|7, 1|5 (each set monotonic
        // once the two cells are taken the other way round).
        let down_monotonic = passing_chain(&[8, 6, 4], &[(3, 9), (2, 7), (1, 5)]);
        let (_, passing, segments) = compiled(c(10), &[up, down, down_monotonic]);
        assert_eq!((passing.len(), segments.len()), (1, 3), "one ray is walked");
        let line = passing[0];
        assert_eq!(line.cells, set(&[4, 6, 8, 10, 20, 30, 40, 50]));
        assert_eq!(line.start(), 3);
        let ray_cells = line.cells.without(c(10));
        assert_eq!(line.reach(set(&[])), ray_cells);
        assert_eq!(
            line.reach(set(&[10])),
            ray_cells,
            "the start does not block"
        );
        let up_cells = set(&[20, 30, 40, 50]);
        let down_cells = set(&[4, 6, 8]);
        let reach_up = |occupied: &[u8]| line.reach(set(occupied)) & up_cells;
        let reach_down = |occupied: &[u8]| line.reach(set(occupied)) & down_cells;
        assert_eq!(reach_up(&[40]), set(&[20, 30, 40]));
        assert_eq!(reach_up(&[24, 26]), set(&[20]));
        assert_eq!(reach_up(&[14, 16]), set(&[]));
        assert_eq!(reach_up(&[24, 36, 44, 46]), set(&[20, 30, 40]));
        assert_eq!(reach_up(&[30, 44, 46]), set(&[20, 30]));
        assert_eq!(reach_down(&[6]), set(&[8, 6]));
        assert_eq!(reach_down(&[7, 2]), set(&[8]));
        assert_eq!(reach_down(&[9, 3]), set(&[]));
        assert_eq!(reach_down(&[7, 5, 1]), set(&[8, 6]));
        assert_eq!(reach_down(&[9, 2, 5]), set(&[8, 6, 4]));
        // Both sides at once: a piece below, a closed step above.
        assert_eq!(line.reach(set(&[6, 24, 26])), set(&[8, 6, 20]));
        // The cells watched: those of the steps taken and of the one that stopped.
        assert_eq!(
            line.reach_watched(set(&[24, 26, 7, 2])),
            (set(&[20, 8]), set(&[20, 14, 16, 24, 26, 8, 9, 3, 7, 2]))
        );
        assert_eq!(
            line.reach_watched(set(&[])).1,
            line.cells.without(c(10)) | line.first_passed | line.second_passed
        );
        // A ray alone is a line too.
        let lone = passing_chain(&[20, 30], &[(14, 16), (24, 26)]);
        let (_, alone, _) = compiled(c(10), &[lone]);
        assert_eq!(alone[0].reach(set(&[24, 26])), set(&[20]));
    }

    fn compile_all(roots: &[RayNode], out: &mut Vec<Segment>) {
        for root in roots {
            compile_run(root, out);
        }
    }

    fn walk(segments: &[Segment], occupied: Bitboard) -> Bitboard {
        let mut reached = Bitboard::EMPTY;
        let mut i = 0;
        while i < segments.len() {
            let s = &segments[i];
            if s.pass_blocked(occupied) {
                i = s.skip as usize;
                continue;
            }
            let (cells, blocked) = s.reach(occupied);
            reached |= cells;
            i = if blocked { s.skip as usize } else { i + 1 };
        }
        reached
    }

    #[test]
    fn a_straight_ray_is_one_segment() {
        let ray = RayNode::chain(&[c(1), c(2), c(3), c(4)]).unwrap();
        let mut segs = Vec::new();
        compile_all(&[ray], &mut segs);
        assert_eq!(segs.len(), 1);
        let occ = Bitboard::from_cell(c(3));
        assert_eq!(walk(&segs, occ), [c(1), c(2), c(3)].into_iter().collect());
    }

    #[test]
    fn a_turning_ray_splits_and_forks_are_followed() {
        // 10 -> 11 -> fork: (30 -> 29) and (40 -> 39)
        let mut root = RayNode::chain(&[c(10), c(11)]).unwrap();
        root.children[0].children = vec![
            RayNode::chain(&[c(30), c(29)]).unwrap(),
            RayNode::chain(&[c(40), c(39)]).unwrap(),
        ];
        let mut segs = Vec::new();
        compile_all(&[root], &mut segs);
        assert_eq!(segs.len(), 3);
        let all: Bitboard = [10, 11, 30, 29, 40, 39].into_iter().map(c).collect();
        assert_eq!(walk(&segs, Bitboard::EMPTY), all);
        let blocked_branch = Bitboard::from_cell(c(30));
        assert_eq!(walk(&segs, blocked_branch), all.without(c(29)));
        let blocked_trunk = Bitboard::from_cell(c(11));
        assert_eq!(
            walk(&segs, blocked_trunk),
            [c(10), c(11)].into_iter().collect()
        );
    }

    #[test]
    fn a_pair_of_rays_reaches_up_to_the_nearest_blockers() {
        // A line 1 2 3 [5] 6 7 8 through start cell 5.
        let down = RayNode::chain(&[c(3), c(2), c(1)]).unwrap();
        let up = RayNode::chain(&[c(6), c(7), c(8)]).unwrap();
        let (pairs, _, segs) = compiled(c(5), &[down, up]);
        assert_eq!((pairs.len(), segs.len()), (1, 0));
        // A ray above the start whose indices shrink is not paired.
        let turned = RayNode::chain(&[c(40), c(30), c(20)]).unwrap();
        let (p2, _, s2) = compiled(c(5), &[RayNode::chain(&[c(3)]).unwrap(), turned]);
        assert_eq!((p2.len(), s2.len()), (0, 2));
        let set = |cells: &[u8]| cells.iter().map(|&i| c(i)).collect::<Bitboard>();
        assert_eq!(pairs[0].reach(Bitboard::EMPTY), set(&[1, 2, 3, 6, 7, 8]));
        assert_eq!(pairs[0].reach(set(&[2, 7, 0, 9])), set(&[2, 3, 6, 7]));
        assert_eq!(pairs[0].reach(set(&[3, 6])), set(&[3, 6]));
    }

    #[test]
    fn passing_rule_stops_before_the_step() {
        let mut root = RayNode::leaf(c(5));
        root.children.push(RayNode {
            cell: c(9),
            passes_between: Some((c(7), c(8))),
            children: vec![RayNode::leaf(c(13))],
        });
        let mut segs = Vec::new();
        compile_all(&[root], &mut segs);
        let one_between = Bitboard::from_cell(c(7));
        assert_eq!(walk(&segs, one_between).count(), 3);
        let both_between = one_between.with(c(8));
        assert_eq!(walk(&segs, both_between), Bitboard::from_cell(c(5)));
    }
}
