//! Reference construction of the 96-cell boards of three sections
//! (`../shared/rules/sections.md`), shared by `trichess` and `star`.
//!
//! Everything is derived from the orthogonal step exactly as sections.md
//! says: diagonal steps are unions of two-step paths, knight leaps unions
//! of three-step paths, rook and bishop rays follow every branch. The
//! derived tables are built once by calling the rule functions.
//!
//! Every move starts with the native orientation (`o = +1`) in the section
//! where the piece stands: each piece's set of directions is symmetric, so
//! the orientation only matters along the way of one move (after a
//! crossing). Pawns are told their forward direction explicitly.

use super::fen::RawPosition;
use std::sync::OnceLock;

/// Cells on the board: three sections of 8 columns × 4 rows.
pub const CELLS: usize = 96;

/// Which column rule the board follows (sections.md, "Which neighbours a
/// column leads into").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// Columns 1..4 lead to L(s), 5..8 to R(s).
    Trichess,
    /// Columns 1..5 lead to L(s), 4..8 to R(s).
    Star,
}

/// A cell `(s, x, y)`: section 0..2, column 1..8 counted from the owner's
/// left, row 1..4 counted from the owner's back rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Section (= the owning player).
    pub s: usize,
    /// Column 1..8.
    pub x: i32,
    /// Row 1..4.
    pub y: i32,
}

impl Cell {
    /// Index into a board array: section by section, row by row.
    pub fn index(self) -> usize {
        self.s * 32 + (self.y as usize - 1) * 8 + (self.x as usize - 1)
    }

    /// The cell with this index.
    pub fn from_index(i: usize) -> Cell {
        Cell {
            s: i / 32,
            x: (i % 8) as i32 + 1,
            y: ((i % 32) / 8) as i32 + 1,
        }
    }
}

/// Every cell, in index order.
pub fn all_cells() -> impl Iterator<Item = Cell> {
    (0..CELLS).map(Cell::from_index)
}

/// Orientation: `+1` native, `-1` flipped.
pub type Orientation = i32;

/// A unit direction `(dx, dy)` as seen by the piece.
pub type Dir = (i32, i32);

/// The orthogonal unit directions.
pub const ORTHOGONAL: [Dir; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The diagonal directions `(dx, dy)`, `dx, dy ∈ {±1}`.
pub const DIAGONAL: [Dir; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// "The right neighbour of `s` is `R(s) = s+1 mod 3` (the next player)".
pub fn right(s: usize) -> usize {
    (s + 1) % 3
}

/// "the left neighbour `L(s) = s-1 mod 3`".
pub fn left(s: usize) -> usize {
    (s + 2) % 3
}

/// Piece kinds (letters K Q R B N P).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// King.
    King,
    /// Queen.
    Queen,
    /// Rook.
    Rook,
    /// Bishop.
    Bishop,
    /// Knight.
    Knight,
    /// Pawn.
    Pawn,
}

impl Kind {
    /// The kind of an uppercase piece letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c {
            'K' => Kind::King,
            'Q' => Kind::Queen,
            'R' => Kind::Rook,
            'B' => Kind::Bishop,
            'N' => Kind::Knight,
            'P' => Kind::Pawn,
            _ => return None,
        })
    }

    /// The lowercase letter used on the wire for promotions.
    pub fn wire_letter(self) -> char {
        match self {
            Kind::King => 'k',
            Kind::Queen => 'q',
            Kind::Rook => 'r',
            Kind::Bishop => 'b',
            Kind::Knight => 'n',
            Kind::Pawn => 'p',
        }
    }
}

/// "on row 1 of another section it must promote to Q, R, B or N".
pub const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

/// A piece: the army it belongs to (0..2, never changes) and its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The army (its section's player).
    pub army: usize,
    /// The kind.
    pub kind: Kind,
}

/// A board: one optional piece per cell.
pub type Squares = [Option<Piece>; CELLS];

impl Board {
    /// Which neighbour sections column `x` of section `s` leads into.
    pub fn neighbours_of_column(self, s: usize, x: i32) -> Vec<usize> {
        match self {
            // trichess: columns 1..4 -> L(s), columns 5..8 -> R(s).
            Board::Trichess => {
                if x <= 4 {
                    vec![left(s)]
                } else {
                    vec![right(s)]
                }
            }
            // star: "columns 1..5 lead to L(s), columns 4..8 lead to R(s)".
            Board::Star => {
                let mut n = Vec::new();
                if x <= 5 {
                    n.push(left(s));
                }
                if x >= 4 {
                    n.push(right(s));
                }
                n
            }
        }
    }

    /// "A step in direction `(dx, dy)` from `(s, x, y)` with orientation `o`
    /// goes to `(x + o·dx, y + o·dy)` in section `s`: inside `1..8 × 1..4`:
    /// that cell, orientation unchanged; column outside `1..8` or row 0: no
    /// cell (board edge); row 5, i.e. leaving row 4 towards the middle: the
    /// step crosses to cell `(n, 9 - x, 4)` of each neighbour `n` that column
    /// `x` leads into, and the orientation flips."
    pub fn orthogonal_step(
        self,
        from: Cell,
        o: Orientation,
        (dx, dy): Dir,
    ) -> Vec<(Cell, Orientation)> {
        let x = from.x + o * dx;
        let y = from.y + o * dy;
        if (1..=8).contains(&x) && (1..=4).contains(&y) {
            return vec![(Cell { s: from.s, x, y }, o)];
        }
        if y == 5 {
            return self
                .neighbours_of_column(from.s, from.x)
                .into_iter()
                .map(|n| {
                    (
                        Cell {
                            s: n,
                            x: 9 - from.x,
                            y: 4,
                        },
                        -o,
                    )
                })
                .collect();
        }
        Vec::new()
    }

    /// Ends of a path of orthogonal steps from `from` with orientation `o`,
    /// following every branch.
    fn follow(self, from: Cell, o: Orientation, path: &[Dir]) -> Vec<(Cell, Orientation)> {
        let mut ends = vec![(from, o)];
        for &d in path {
            ends = ends
                .into_iter()
                .flat_map(|(c, o)| self.orthogonal_step(c, o, d))
                .collect();
        }
        ends
    }

    /// The orthogonal neighbours of a cell (all four directions).
    pub fn orthogonal_neighbours(self, from: Cell) -> Vec<Cell> {
        let mut cells = Vec::new();
        for d in ORTHOGONAL {
            for (c, _) in self.orthogonal_step(from, 1, d) {
                push_unique(&mut cells, c);
            }
        }
        cells
    }

    /// "Diagonal step `(dx, dy)`: the union of the cells reached by the
    /// two-step paths "`(0,dy)` then `(dx,0)`" and "`(dx,0)` then `(0,dy)`",
    /// each with its resulting orientation; the start cell and its
    /// orthogonal neighbours are never diagonal targets. The cells on the
    /// path do not need to be empty."
    pub fn diagonal_step(
        self,
        from: Cell,
        o: Orientation,
        (dx, dy): Dir,
    ) -> Vec<(Cell, Orientation)> {
        let excluded = self.orthogonal_neighbours(from);
        let mut ends = Vec::new();
        for path in [[(0, dy), (dx, 0)], [(dx, 0), (0, dy)]] {
            for end in self.follow(from, o, &path) {
                if end.0 != from && !excluded.contains(&end.0) {
                    push_unique(&mut ends, end);
                }
            }
        }
        ends
    }

    /// "King: one orthogonal or diagonal step."
    pub fn king_targets(self, from: Cell) -> Vec<Cell> {
        let mut cells = self.orthogonal_neighbours(from);
        for d in DIAGONAL {
            for (c, _) in self.diagonal_step(from, 1, d) {
                push_unique(&mut cells, c);
            }
        }
        cells
    }

    /// "Knight: the union of the ends of all three-step paths `a, a, b` and
    /// `a, b, b` (`a`, `b` orthogonal unit directions, `a ⟂ b`, followed with
    /// orientation as above); the start cell and the king's targets are
    /// excluded."
    pub fn knight_targets(self, from: Cell) -> Vec<Cell> {
        let king = self.king_targets(from);
        let mut cells = Vec::new();
        for a in ORTHOGONAL {
            for b in ORTHOGONAL {
                let perpendicular = a.0 * b.0 + a.1 * b.1 == 0;
                if !perpendicular {
                    continue;
                }
                for path in [[a, a, b], [a, b, b]] {
                    for (c, _) in self.follow(from, 1, &path) {
                        if c != from && !king.contains(&c) {
                            push_unique(&mut cells, c);
                        }
                    }
                }
            }
        }
        cells
    }

    /// The derived tables of this board, built once.
    pub fn geometry(self) -> &'static Geometry {
        static TRICHESS: OnceLock<Geometry> = OnceLock::new();
        static STAR: OnceLock<Geometry> = OnceLock::new();
        match self {
            Board::Trichess => TRICHESS.get_or_init(|| Geometry::new(Board::Trichess)),
            Board::Star => STAR.get_or_init(|| Geometry::new(Board::Star)),
        }
    }
}

fn push_unique<T: PartialEq>(v: &mut Vec<T>, item: T) {
    if !v.contains(&item) {
        v.push(item);
    }
}

/// A position on the way along a ray: the cell and the orientation the
/// piece has there.
type Heading = (usize, Orientation);

/// The results of the rule functions above for every cell, orientation and
/// direction, so that move generation does not recompute them.
pub struct Geometry {
    /// `orthogonal[cell][o == -1][direction index in ORTHOGONAL]`.
    orthogonal: Vec<[[Vec<Heading>; 4]; 2]>,
    /// `diagonal[cell][o == -1][direction index in DIAGONAL]`.
    diagonal: Vec<[[Vec<Heading>; 4]; 2]>,
    king: Vec<Vec<usize>>,
    knight: Vec<Vec<usize>>,
}

impl Geometry {
    fn new(board: Board) -> Geometry {
        let headings = |steps: Vec<(Cell, Orientation)>| -> Vec<Heading> {
            steps.into_iter().map(|(c, o)| (c.index(), o)).collect()
        };
        let mut orthogonal = Vec::new();
        let mut diagonal = Vec::new();
        let mut king = Vec::new();
        let mut knight = Vec::new();
        for cell in all_cells() {
            let per_orientation =
                |step: &dyn Fn(Cell, Orientation, Dir) -> Vec<(Cell, Orientation)>,
                 dirs: [Dir; 4]| {
                    [1, -1].map(|o| dirs.map(|d| headings(step(cell, o, d))))
                };
            orthogonal.push(per_orientation(
                &|c, o, d| board.orthogonal_step(c, o, d),
                ORTHOGONAL,
            ));
            diagonal.push(per_orientation(
                &|c, o, d| board.diagonal_step(c, o, d),
                DIAGONAL,
            ));
            king.push(board.king_targets(cell).iter().map(|c| c.index()).collect());
            knight.push(
                board
                    .knight_targets(cell)
                    .iter()
                    .map(|c| c.index())
                    .collect(),
            );
        }
        Geometry {
            orthogonal,
            diagonal,
            king,
            knight,
        }
    }

    fn step(&self, (cell, o): Heading, d: Dir, diagonal: bool) -> &[Heading] {
        let oi = usize::from(o == -1);
        if diagonal {
            let di = DIAGONAL.iter().position(|&x| x == d).expect("diagonal");
            &self.diagonal[cell][oi][di]
        } else {
            let di = ORTHOGONAL.iter().position(|&x| x == d).expect("orthogonal");
            &self.orthogonal[cell][oi][di]
        }
    }

    /// "Repeat one direction, following every branch at a crossing
    /// separately; each branch stops at the first occupied cell (capturing
    /// an enemy there) or at the edge." Returns every cell reached: the
    /// empty ones and the first occupied cell of each branch (the caller
    /// decides whether it may be captured).
    fn slide(&self, from: usize, dirs: [Dir; 4], diagonal: bool, board: &Squares) -> Vec<usize> {
        let mut reached = Vec::new();
        for d in dirs {
            let mut frontier: Vec<Heading> = self.step((from, 1), d, diagonal).to_vec();
            while !frontier.is_empty() {
                let mut next = Vec::new();
                for heading in frontier {
                    push_unique(&mut reached, heading.0);
                    if board[heading.0].is_none() {
                        for &h in self.step(heading, d, diagonal) {
                            push_unique(&mut next, h);
                        }
                    }
                }
                frontier = next;
            }
        }
        reached
    }

    /// The cells a rook on `from` reaches (see `slide`).
    pub fn rook_targets(&self, from: usize, board: &Squares) -> Vec<usize> {
        self.slide(from, ORTHOGONAL, false, board)
    }

    /// "Bishop: repeat one diagonal direction (in each branch's own
    /// orientation), following every branch; blocked as the rook."
    pub fn bishop_targets(&self, from: usize, board: &Squares) -> Vec<usize> {
        self.slide(from, DIAGONAL, true, board)
    }

    /// King targets (orthogonal or diagonal step).
    pub fn king_targets(&self, from: usize) -> &[usize] {
        &self.king[from]
    }

    /// Knight targets.
    pub fn knight_targets(&self, from: usize) -> &[usize] {
        &self.knight[from]
    }

    /// "Pawn: its forward direction is `(0,+1)` while it stands in its own
    /// section and `(0,-1)` (native) in any other section."
    pub fn pawn_forward(army: usize, from: usize) -> Dir {
        if Cell::from_index(from).s == army {
            (0, 1)
        } else {
            (0, -1)
        }
    }

    /// "one forward step (on `star`, a pawn on a middle cell may choose
    /// either neighbour)": the cells one forward step ahead.
    pub fn pawn_step_targets(&self, army: usize, from: usize) -> Vec<usize> {
        let d = Self::pawn_forward(army, from);
        self.step((from, 1), d, false).iter().map(|h| h.0).collect()
    }

    /// "from its own row 2: two forward steps": `(skipped cell, target)`.
    pub fn pawn_double_step(&self, army: usize, from: usize) -> Option<(usize, usize)> {
        let cell = Cell::from_index(from);
        if cell.s != army || cell.y != 2 {
            return None;
        }
        let skipped = *self.step((from, 1), (0, 1), false).first()?;
        let target = *self.step(skipped, (0, 1), false).first()?;
        Some((skipped.0, target.0))
    }

    /// "capture: a diagonal forward step `(±1, forward)`".
    pub fn pawn_capture_targets(&self, army: usize, from: usize) -> Vec<usize> {
        let (_, fy) = Self::pawn_forward(army, from);
        let mut cells = Vec::new();
        for dx in [1, -1] {
            for &(c, _) in self.step((from, 1), (dx, fy), true) {
                push_unique(&mut cells, c);
            }
        }
        cells
    }

    /// "on row 1 of another section it must promote".
    pub fn is_promotion_cell(army: usize, cell: usize) -> bool {
        let c = Cell::from_index(cell);
        c.s != army && c.y == 1
    }

    /// The cells a piece on `from` attacks ("'Attacked' uses exactly these
    /// moves (pawns by their capture steps)"): for sliders each branch up
    /// to and including its first occupied cell.
    pub fn attack_targets(&self, piece: Piece, from: usize, board: &Squares) -> Vec<usize> {
        match piece.kind {
            Kind::King => self.king_targets(from).to_vec(),
            Kind::Knight => self.knight_targets(from).to_vec(),
            Kind::Rook => self.rook_targets(from, board),
            Kind::Bishop => self.bishop_targets(from, board),
            Kind::Queen => {
                let mut cells = self.rook_targets(from, board);
                for c in self.bishop_targets(from, board) {
                    push_unique(&mut cells, c);
                }
                cells
            }
            Kind::Pawn => self.pawn_capture_targets(piece.army, from),
        }
    }
}

/// Castling in a player's own section: "king `(s,5,1)`, rooks `(s,1,1)`
/// and `(s,8,1)`. Short: king to `(s,7,1)`, rook to `(s,6,1)`. Long: king
/// to `(s,3,1)`, rook to `(s,4,1)`." Side 0 is short (`K`, rook on column
/// 8), side 1 long (`Q`, rook on column 1).
#[derive(Clone, Debug)]
pub struct Castling {
    /// The king's home cell.
    pub king_from: usize,
    /// Where the king lands.
    pub king_to: usize,
    /// The rook's home cell.
    pub rook_from: usize,
    /// Where the rook lands.
    pub rook_to: usize,
    /// The cells between king and rook (must be empty).
    pub between: Vec<usize>,
    /// The cells the king passes over and lands on.
    pub king_path: Vec<usize>,
}

/// The castling geometry of army `s`, side 0 (short) or 1 (long).
pub fn castling_rule(s: usize, side: usize) -> Castling {
    let c = |x| Cell { s, x, y: 1 }.index();
    if side == 0 {
        Castling {
            king_from: c(5),
            king_to: c(7),
            rook_from: c(8),
            rook_to: c(6),
            between: vec![c(6), c(7)],
            king_path: vec![c(6), c(7)],
        }
    } else {
        Castling {
            king_from: c(5),
            king_to: c(3),
            rook_from: c(1),
            rook_to: c(4),
            between: vec![c(2), c(3), c(4)],
            king_path: vec![c(4), c(3)],
        }
    }
}

/// Reads the board field: 12 rows, "section 0 row 4..1, section 1 row
/// 4..1, section 2 row 4..1", each "column 1..8". `armies` are the army
/// letters in turn order. Rejects pawns on any row 1 (they never stand on
/// their own back rank and promote on another's).
pub fn parse_board(raw: &RawPosition, armies: [char; 3], game: &str) -> Result<Squares, String> {
    let rows = raw.expanded_rows();
    if rows.len() != 12 {
        return Err(format!("{game}: expected 12 rows, found {}", rows.len()));
    }
    let mut board: Squares = [None; CELLS];
    for (i, row) in rows.iter().enumerate() {
        if row.len() != 8 {
            return Err(format!(
                "{game}: row {} has {} cells, expected 8",
                i + 1,
                row.len()
            ));
        }
        let s = i / 4;
        let y = 4 - (i % 4) as i32;
        for (j, token) in row.iter().enumerate() {
            let Some((army, letter)) = *token else {
                continue;
            };
            let cell = Cell {
                s,
                x: j as i32 + 1,
                y,
            };
            let army = armies
                .iter()
                .position(|&a| a == army)
                .ok_or_else(|| format!("{game}: unknown army {army:?}"))?;
            let kind = Kind::from_letter(letter)
                .ok_or_else(|| format!("{game}: unknown piece {letter:?}"))?;
            if kind == Kind::Pawn && y == 1 {
                return Err(format!(
                    "{game}: pawn on row 1 of section {s}, column {}",
                    cell.x
                ));
            }
            board[cell.index()] = Some(Piece { army, kind });
        }
    }
    Ok(board)
}

/// Reads the castling field (`-` or e.g. `wKQrKbQ`): `rights[army][side]`
/// with side 0 = `K` (short), 1 = `Q` (long). A right needs the army's king
/// and that rook on their home cells.
pub fn parse_castling(
    raw: &RawPosition,
    armies: [char; 3],
    board: &Squares,
    game: &str,
) -> Result<[[bool; 2]; 3], String> {
    let mut rights = [[false; 2]; 3];
    if raw.castling == "-" {
        return Ok(rights);
    }
    let bad = || format!("{game}: bad castling field {:?}", raw.castling);
    let mut army = None;
    for c in raw.castling.chars() {
        if let Some(a) = armies.iter().position(|&l| l == c) {
            army = Some(a);
            continue;
        }
        let side = match c {
            'K' => 0,
            'Q' => 1,
            _ => return Err(bad()),
        };
        let army = army.ok_or_else(bad)?;
        let rule = castling_rule(army, side);
        if board[rule.king_from]
            != Some(Piece {
                army,
                kind: Kind::King,
            })
            || board[rule.rook_from]
                != Some(Piece {
                    army,
                    kind: Kind::Rook,
                })
        {
            return Err(format!(
                "{game}: castling right {}{c} without king and rook on their home cells",
                armies[army]
            ));
        }
        rights[army][side] = true;
    }
    Ok(rights)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_indices_round_trip() {
        for (i, c) in all_cells().enumerate() {
            assert_eq!(c.index(), i);
        }
    }

    #[test]
    fn orthogonal_adjacency_is_symmetric() {
        for board in [Board::Trichess, Board::Star] {
            for a in all_cells() {
                for b in board.orthogonal_neighbours(a) {
                    assert!(
                        board.orthogonal_neighbours(b).contains(&a),
                        "{board:?}: {a:?} -> {b:?} but not back"
                    );
                }
            }
        }
    }

    #[test]
    fn king_and_knight_adjacency_is_symmetric() {
        for board in [Board::Trichess, Board::Star] {
            for a in all_cells() {
                for b in board.king_targets(a) {
                    assert!(
                        board.king_targets(b).contains(&a),
                        "{board:?} king {a:?} {b:?}"
                    );
                }
                for b in board.knight_targets(a) {
                    assert!(
                        board.knight_targets(b).contains(&a),
                        "{board:?} knight {a:?} {b:?}"
                    );
                }
            }
        }
    }

    fn middle_cells() -> Vec<Cell> {
        let mut cells = Vec::new();
        for s in 0..3 {
            for x in [4, 5] {
                cells.push(Cell { s, x, y: 4 });
            }
        }
        cells
    }

    #[test]
    fn trichess_middle_is_a_ring_of_six() {
        let board = Board::Trichess;
        for c in middle_cells() {
            let middle_neighbours: Vec<Cell> = board
                .orthogonal_neighbours(c)
                .into_iter()
                .filter(|n| n.y == 4 && (n.x == 4 || n.x == 5))
                .collect();
            assert_eq!(middle_neighbours.len(), 2, "{c:?}");
        }
    }

    #[test]
    fn star_middle_cells_each_join_three_others() {
        let board = Board::Star;
        for c in middle_cells() {
            let middle_neighbours: Vec<Cell> = board
                .orthogonal_neighbours(c)
                .into_iter()
                .filter(|n| n.y == 4 && (n.x == 4 || n.x == 5))
                .collect();
            assert_eq!(middle_neighbours.len(), 3, "{c:?}");
            // The step towards the middle goes straight into both neighbours.
            assert_eq!(board.orthogonal_step(c, 1, (0, 1)).len(), 2);
        }
    }

    #[test]
    fn star_pawn_on_a_middle_cell_has_four_captures() {
        let geo = Board::Star.geometry();
        for c in middle_cells() {
            assert_eq!(geo.pawn_capture_targets(c.s, c.index()).len(), 4, "{c:?}");
            assert_eq!(geo.pawn_step_targets(c.s, c.index()).len(), 2, "{c:?}");
        }
    }

    #[test]
    fn rays_terminate_and_stay_short() {
        let empty: Squares = [None; CELLS];
        for board in [Board::Trichess, Board::Star] {
            let geo = board.geometry();
            for c in 0..CELLS {
                assert!(geo.rook_targets(c, &empty).len() <= 3 * 7 + 8);
                assert!(!geo.bishop_targets(c, &empty).is_empty());
            }
        }
    }
}
