//! Reference rules of `pyramid` and `pyramid-ep` (Schachpyramide,
//! `../shared/rules/pyramid.md`): a 3-D board of four levels, 120 cells.
//!
//! Written from the rule book alone. A position is a plain array from cell
//! to piece; a move is made on a clone; a move is legal when, after it, the
//! mover's king is not attacked.

use super::{Options, fen};
use std::sync::OnceLock;

/// White moves first, then Black (pyramid.md, "Start position").
const WHITE: usize = 0;
const BLACK: usize = 1;
const PLAYER_LETTERS: [char; 2] = ['w', 'b'];

/// The start position, written from pyramid.md "Start position": classical
/// chess on level 1, levels 2-4 empty.
const START: &str = "bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8/8/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR\
/6/6/6/6/6/6/4/4/4/4/2/2 w wKQbKQ - 0 1";

/// Number of cells: 64 + 36 + 16 + 4.
const CELLS: usize = 120;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl Kind {
    fn from_letter(c: char) -> Option<Kind> {
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

    fn wire_letter(self) -> char {
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    color: usize,
    kind: Kind,
}

/// A cell as (level, file, rank), all counted from 0: level `l = 0..3`
/// (written 1..4), file `f = 0..7` (a..h), rank `r = 0..7` (1..8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    l: i32,
    f: i32,
    r: i32,
}

/// A step `(df, dr, dl)` as the rule book writes it.
type Step = (i32, i32, i32);

impl Cell {
    /// "The cell exists iff l <= f <= 7 - l and l <= r <= 7 - l."
    fn exists(self) -> bool {
        (0..=3).contains(&self.l)
            && self.l <= self.f
            && self.f <= 7 - self.l
            && self.l <= self.r
            && self.r <= 7 - self.l
    }

    fn plus(self, (df, dr, dl): Step) -> Cell {
        Cell {
            l: self.l + dl,
            f: self.f + df,
            r: self.r + dr,
        }
    }

    /// Index into the board array: levels one after another, each level
    /// rank by rank, file by file.
    fn index(self) -> usize {
        debug_assert!(self.exists());
        let offset = [0, 64, 100, 116][self.l as usize];
        let width = 8 - 2 * self.l;
        (offset + (self.r - self.l) * width + (self.f - self.l)) as usize
    }

    fn name(self) -> String {
        format!(
            "{}{}{}",
            self.l + 1,
            (b'a' + self.f as u8) as char,
            self.r + 1
        )
    }

    fn parse(text: &str) -> Option<Cell> {
        let chars: Vec<char> = text.to_ascii_lowercase().chars().collect();
        if chars.len() != 3 {
            return None;
        }
        let l = chars[0].to_digit(10)? as i32 - 1;
        let f = chars[1] as i32 - 'a' as i32;
        let r = chars[2].to_digit(10)? as i32 - 1;
        let cell = Cell { l, f, r };
        cell.exists().then_some(cell)
    }
}

/// Every cell of the pyramid, in index order.
fn all_cells() -> &'static [Cell] {
    static CELL_LIST: OnceLock<Vec<Cell>> = OnceLock::new();
    CELL_LIST.get_or_init(list_cells)
}

fn list_cells() -> Vec<Cell> {
    let mut cells = Vec::with_capacity(CELLS);
    for l in 0..4 {
        for r in 0..8 {
            for f in 0..8 {
                let cell = Cell { l, f, r };
                if cell.exists() {
                    cells.push(cell);
                }
            }
        }
    }
    cells
}

/// Rook (14): in-plane `(±1,0,0) (0,±1,0)`; vertical `(0,0,±1)`; staircase
/// `(±1,0,±1) (0,±1,±1)`.
fn rook_directions() -> &'static [Step] {
    static TABLE: OnceLock<Vec<Step>> = OnceLock::new();
    TABLE.get_or_init(rook_directions_list)
}

fn rook_directions_list() -> Vec<Step> {
    let mut dirs = Vec::new();
    for df in -1..=1 {
        for dr in -1..=1 {
            for dl in -1..=1 {
                // At most one of file and rank changes; something changes.
                let in_plane = i32::abs(df) + i32::abs(dr);
                if in_plane <= 1 && (in_plane, dl) != (0, 0) {
                    dirs.push((df, dr, dl));
                }
            }
        }
    }
    dirs
}

/// Bishop (12): in-plane `(±1,±1,0)`; spatial `(±1,±1,±1)`.
fn bishop_directions() -> &'static [Step] {
    static TABLE: OnceLock<Vec<Step>> = OnceLock::new();
    TABLE.get_or_init(bishop_directions_list)
}

fn bishop_directions_list() -> Vec<Step> {
    let mut dirs = Vec::new();
    for df in [-1, 1] {
        for dr in [-1, 1] {
            for dl in -1..=1 {
                dirs.push((df, dr, dl));
            }
        }
    }
    dirs
}

/// Queen: rook or bishop, all 26 neighbouring directions. King: one step
/// in any of them.
fn queen_directions() -> &'static [Step] {
    static TABLE: OnceLock<Vec<Step>> = OnceLock::new();
    TABLE.get_or_init(queen_directions_list)
}

fn queen_directions_list() -> Vec<Step> {
    let mut dirs = rook_directions().to_vec();
    dirs.extend(bishop_directions());
    dirs
}

/// Knight (32 leaps): in-plane `(±1,±2,0) (±2,±1,0)`; one level
/// `(±1,±2,±1) (±2,±1,±1)`; two levels `(±1,0,±2) (0,±1,±2)`.
fn knight_leaps() -> &'static [Step] {
    static TABLE: OnceLock<Vec<Step>> = OnceLock::new();
    TABLE.get_or_init(knight_leaps_list)
}

fn knight_leaps_list() -> Vec<Step> {
    let mut leaps = Vec::new();
    for a in [-1, 1] {
        for b in [-2, 2] {
            for dl in -1..=1 {
                leaps.push((a, b, dl));
                leaps.push((b, a, dl));
            }
            // Two levels (`b` = ±2) with one file or one rank (`a` = ±1).
            leaps.push((a, 0, b));
            leaps.push((0, a, b));
        }
    }
    leaps
}

/// Pawn forward direction: "d = +1 rank for White, -1 for Black".
fn forward(color: usize) -> i32 {
    if color == WHITE { 1 } else { -1 }
}

/// Pawn captures: `(±1,d,0)` and `(±1,d,±1)`.
fn pawn_capture_steps(color: usize) -> Vec<Step> {
    let d = forward(color);
    let mut steps = Vec::new();
    for df in [-1, 1] {
        for dl in -1..=1 {
            steps.push((df, d, dl));
        }
    }
    steps
}

/// A pawn's start cell: its own second rank on level 1.
fn is_pawn_start(color: usize, cell: Cell) -> bool {
    cell.l == 0 && cell.r == if color == WHITE { 1 } else { 6 }
}

/// Promotion: "on reaching the opponent's back rank on level 1 (White
/// 1a8..1h8, Black 1a1..1h1)".
fn is_promotion_cell(color: usize, cell: Cell) -> bool {
    cell.l == 0 && cell.r == if color == WHITE { 7 } else { 0 }
}

/// The first moves of a pawn from its start cell that cross a middle cell:
/// `(target step, middle step)`.
fn pawn_two_cell_first_moves(color: usize) -> [(Step, Step); 3] {
    let d = forward(color);
    [
        // `(0,2d,0)` two steps (the middle cell empty);
        ((0, 2 * d, 0), (0, d, 0)),
        // `(0,2d,+2)` two staircase steps (the middle cell `(0,d,+1)` empty);
        ((0, 2 * d, 2), (0, d, 1)),
        // `(0,2d,+1)` staircase up then forward (middle `(0,d,+1)` empty).
        ((0, 2 * d, 1), (0, d, 1)),
    ]
}

/// Castling on level 1, per color and side: (right index, king from, king
/// to, rook from, rook to, cells that must be empty, cells the king passes
/// over or lands on).
struct Castling {
    king_from: Cell,
    king_to: Cell,
    rook_from: Cell,
    rook_to: Cell,
    empty: Vec<Cell>,
    king_path: Vec<Cell>,
}

/// "Ke1–g1 with Rh1–f1, Ke1–c1 with Ra1–d1 (Black likewise on rank 8)".
/// Side 0 is `K` (rook on h), side 1 is `Q` (rook on a).
fn castling_rule(color: usize, side: usize) -> Castling {
    let r = if color == WHITE { 0 } else { 7 };
    let c = |f| Cell { l: 0, f, r };
    if side == 0 {
        Castling {
            king_from: c(4),
            king_to: c(6),
            rook_from: c(7),
            rook_to: c(5),
            empty: vec![c(5), c(6)],
            king_path: vec![c(5), c(6)],
        }
    } else {
        Castling {
            king_from: c(4),
            king_to: c(2),
            rook_from: c(0),
            rook_to: c(3),
            // "on the queen's side b1 must be empty but may be attacked".
            empty: vec![c(1), c(2), c(3)],
            king_path: vec![c(3), c(2)],
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Special {
    None,
    /// A two-cell first move over this middle cell.
    TwoCell {
        middle: Cell,
    },
    /// En passant, removing the pawn on this cell.
    EnPassant {
        captured: Cell,
    },
    /// Castling; the rook moves as well.
    Castle {
        rook_from: Cell,
        rook_to: Cell,
    },
}

#[derive(Clone, Copy, Debug)]
struct Move {
    from: Cell,
    to: Cell,
    promotion: Option<Kind>,
    special: Special,
}

impl Move {
    fn wire(&self) -> String {
        let mut s = format!("{}{}", self.from.name(), self.to.name());
        if let Some(k) = self.promotion {
            s.push(k.wire_letter());
        }
        s
    }
}

#[derive(Clone)]
struct Position {
    board: [Option<Piece>; CELLS],
    to_move: usize,
    /// `castling[color][side]`, side 0 = `K`, 1 = `Q`.
    castling: [[bool; 2]; 2],
    /// The en-passant cell and the pawn that passed it (pyramid-ep only):
    /// usable by the player to move on this move only.
    en_passant: Option<(Cell, Cell)>,
    /// Whether the game is `pyramid-ep`.
    ep_rules: bool,
}

impl Position {
    fn at(&self, cell: Cell) -> Option<Piece> {
        self.board[cell.index()]
    }

    fn king(&self, color: usize) -> Cell {
        all_cells()
            .iter()
            .copied()
            .find(|&c| {
                self.at(c)
                    == Some(Piece {
                        color,
                        kind: Kind::King,
                    })
            })
            .expect("each side has a king")
    }

    /// "Attacked means: some piece of that player could move to the cell by
    /// the piece's capture rule if an enemy piece stood there."
    fn is_attacked(&self, target: Cell, by: usize) -> bool {
        all_cells().iter().copied().any(|from| match self.at(from) {
            Some(piece) if piece.color == by => self.attacks(piece, from, target),
            _ => false,
        })
    }

    /// Whether `piece` on `from` could capture on `target`.
    fn attacks(&self, piece: Piece, from: Cell, target: Cell) -> bool {
        let diff = (target.f - from.f, target.r - from.r, target.l - from.l);
        match piece.kind {
            Kind::Pawn => pawn_capture_steps(piece.color).contains(&diff),
            Kind::Knight => knight_leaps().contains(&diff),
            Kind::King => queen_directions().contains(&diff),
            Kind::Rook => self.slide_reaches(from, target, rook_directions()),
            Kind::Bishop => self.slide_reaches(from, target, bishop_directions()),
            Kind::Queen => self.slide_reaches(from, target, queen_directions()),
        }
    }

    /// Whether a slide from `from` in one of `dirs` reaches `target`: "any
    /// number of steps in one direction over empty cells; a slide ends at
    /// the first cell outside the board".
    fn slide_reaches(&self, from: Cell, target: Cell, dirs: &[Step]) -> bool {
        let diff = (target.f - from.f, target.r - from.r, target.l - from.l);
        dirs.iter().any(|&d| {
            // Only the direction pointing at the target can reach it.
            let k = [diff.0 * d.0, diff.1 * d.1, diff.2 * d.2]
                .into_iter()
                .max()
                .unwrap_or(0);
            if k <= 0 || diff != (k * d.0, k * d.1, k * d.2) {
                return false;
            }
            let mut cell = from.plus(d);
            while cell.exists() {
                if cell == target {
                    return true;
                }
                if self.at(cell).is_some() {
                    return false;
                }
                cell = cell.plus(d);
            }
            false
        })
    }

    fn in_check(&self, color: usize) -> bool {
        self.is_attacked(self.king(color), 1 - color)
    }

    /// A cell a piece of `color` may move to: empty, or an enemy that is not
    /// a king ("a move onto a cell holding a king is not a move").
    fn can_enter(&self, color: usize, cell: Cell) -> bool {
        match self.at(cell) {
            None => true,
            Some(p) => p.color != color && p.kind != Kind::King,
        }
    }

    fn slide_moves(&self, from: Cell, color: usize, dirs: &[Step], moves: &mut Vec<Move>) {
        for &d in dirs {
            let mut to = from.plus(d);
            while to.exists() {
                if self.can_enter(color, to) {
                    moves.push(simple(from, to));
                }
                if self.at(to).is_some() {
                    break;
                }
                to = to.plus(d);
            }
        }
    }

    fn leap_moves(&self, from: Cell, color: usize, leaps: &[Step], moves: &mut Vec<Move>) {
        for &d in leaps {
            let to = from.plus(d);
            if to.exists() && self.can_enter(color, to) {
                moves.push(simple(from, to));
            }
        }
    }

    /// A pawn move, expanded to the four promotions on the promotion rank.
    fn push_pawn_move(color: usize, from: Cell, to: Cell, special: Special, moves: &mut Vec<Move>) {
        if is_promotion_cell(color, to) {
            // "must promote to queen, rook, bishop or knight".
            for kind in [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight] {
                moves.push(Move {
                    from,
                    to,
                    promotion: Some(kind),
                    special,
                });
            }
        } else {
            moves.push(Move {
                from,
                to,
                promotion: None,
                special,
            });
        }
    }

    fn pawn_moves(&self, from: Cell, color: usize, moves: &mut Vec<Move>) {
        let d = forward(color);
        // Later moves: "(0,d,0), or one staircase step up or down (0,d,±1),
        // onto an empty cell". From the start cell these are the one-step
        // first moves `(0,d,0)` and `(0,d,+1)` (nothing lies below level 1).
        for step in [(0, d, 0), (0, d, 1), (0, d, -1)] {
            let to = from.plus(step);
            if to.exists() && self.at(to).is_none() {
                Self::push_pawn_move(color, from, to, Special::None, moves);
            }
        }
        // First move, two cells: target and middle cell empty.
        if is_pawn_start(color, from) {
            for (step, middle_step) in pawn_two_cell_first_moves(color) {
                let to = from.plus(step);
                let middle = from.plus(middle_step);
                if to.exists()
                    && middle.exists()
                    && self.at(to).is_none()
                    && self.at(middle).is_none()
                {
                    Self::push_pawn_move(color, from, to, Special::TwoCell { middle }, moves);
                }
            }
        }
        // Captures: `(±1,d,0)` and `(±1,d,±1)`.
        for step in pawn_capture_steps(color) {
            let to = from.plus(step);
            if !to.exists() {
                continue;
            }
            match self.at(to) {
                Some(p) if p.color != color && p.kind != Kind::King => {
                    Self::push_pawn_move(color, from, to, Special::None, moves);
                }
                None => {
                    // En passant: "an enemy pawn that could capture onto [the
                    // middle cell] may do so, removing the pawn that moved".
                    if let Some((middle, pawn)) = self.en_passant
                        && middle == to
                    {
                        Self::push_pawn_move(
                            color,
                            from,
                            to,
                            Special::EnPassant { captured: pawn },
                            moves,
                        );
                    }
                }
                _ => {}
            }
        }
    }

    /// "King and rook unmoved, the cells between empty, the king not in
    /// check and not passing over or landing on a cell attacked from any
    /// level."
    fn castling_moves(&self, color: usize, moves: &mut Vec<Move>) {
        for side in 0..2 {
            if !self.castling[color][side] {
                continue;
            }
            let rule = castling_rule(color, side);
            let enemy = 1 - color;
            if rule.empty.iter().all(|&c| self.at(c).is_none())
                && !self.is_attacked(rule.king_from, enemy)
                && rule.king_path.iter().all(|&c| !self.is_attacked(c, enemy))
            {
                moves.push(Move {
                    from: rule.king_from,
                    to: rule.king_to,
                    promotion: None,
                    special: Special::Castle {
                        rook_from: rule.rook_from,
                        rook_to: rule.rook_to,
                    },
                });
            }
        }
    }

    fn pseudo_legal_moves(&self) -> Vec<Move> {
        let color = self.to_move;
        let mut moves = Vec::new();
        for &from in all_cells() {
            let Some(piece) = self.at(from) else { continue };
            if piece.color != color {
                continue;
            }
            match piece.kind {
                Kind::King => self.leap_moves(from, color, queen_directions(), &mut moves),
                Kind::Queen => self.slide_moves(from, color, queen_directions(), &mut moves),
                Kind::Rook => self.slide_moves(from, color, rook_directions(), &mut moves),
                Kind::Bishop => self.slide_moves(from, color, bishop_directions(), &mut moves),
                Kind::Knight => self.leap_moves(from, color, knight_leaps(), &mut moves),
                Kind::Pawn => self.pawn_moves(from, color, &mut moves),
            }
        }
        self.castling_moves(color, &mut moves);
        moves
    }

    /// Legal moves: those after which the mover's king is not attacked.
    /// An empty list is mate or stalemate: the game is over.
    fn legal_moves(&self) -> Vec<Move> {
        self.pseudo_legal_moves()
            .into_iter()
            .filter(|m| !self.play(m).in_check(self.to_move))
            .collect()
    }

    fn play(&self, m: &Move) -> Position {
        let mut next = self.clone();
        let mut piece = next.board[m.from.index()].take().expect("a piece moves");
        if let Some(kind) = m.promotion {
            piece.kind = kind;
        }
        next.board[m.to.index()] = Some(piece);
        match m.special {
            Special::EnPassant { captured } => next.board[captured.index()] = None,
            Special::Castle { rook_from, rook_to } => {
                let rook = next.board[rook_from.index()].take();
                next.board[rook_to.index()] = rook;
            }
            _ => {}
        }
        // Castling rights: lost when the king or that rook leaves its home
        // cell or something arrives there (a capture of the rook).
        for color in [WHITE, BLACK] {
            for side in 0..2 {
                let rule = castling_rule(color, side);
                if [rule.king_from, rule.rook_from]
                    .iter()
                    .any(|&c| c == m.from || c == m.to)
                {
                    next.castling[color][side] = false;
                }
            }
        }
        // En passant (pyramid-ep only): "after a two-cell first move the
        // middle cell is the en-passant cell for the opponent's next move
        // only".
        next.en_passant = match m.special {
            Special::TwoCell { middle } if self.ep_rules => Some((middle, m.to)),
            _ => None,
        };
        next.to_move = 1 - self.to_move;
        next
    }
}

fn simple(from: Cell, to: Cell) -> Move {
    Move {
        from,
        to,
        promotion: None,
        special: Special::None,
    }
}

impl super::Node for Position {
    type Move = Move;
    fn moves(&mut self) -> Vec<Move> {
        self.legal_moves()
    }
    fn play(&self, m: &Move) -> Position {
        Position::play(self, m)
    }
    fn wire(m: &Move) -> String {
        m.wire()
    }
}

/// Reads a position string (docs/position-format.md): 20 rows, level 1
/// rank 8..1, level 2 rank 7..2, level 3 rank 6..3, level 4 rank 5..4,
/// each by file.
fn parse(text: &str, ep_rules: bool) -> Result<Position, String> {
    let text = if text.trim() == "startpos" {
        START
    } else {
        text
    };
    let raw = fen::split(text)?;
    let rows = raw.expanded_rows();
    if rows.len() != 20 {
        return Err(format!("pyramid: expected 20 rows, found {}", rows.len()));
    }
    let mut board = [None; CELLS];
    let mut row_index = 0;
    for l in 0..4 {
        for r in (l..=7 - l).rev() {
            let row = &rows[row_index];
            let width = (8 - 2 * l) as usize;
            if row.len() != width {
                return Err(format!(
                    "pyramid: row {} (level {}, rank {}) has {} cells, expected {width}",
                    row_index + 1,
                    l + 1,
                    r + 1,
                    row.len()
                ));
            }
            for (i, token) in row.iter().enumerate() {
                let cell = Cell {
                    l,
                    f: l + i as i32,
                    r,
                };
                if let Some((army, letter)) = *token {
                    let color = PLAYER_LETTERS
                        .iter()
                        .position(|&c| c == army)
                        .ok_or_else(|| format!("pyramid: unknown army {army:?}"))?;
                    let kind = Kind::from_letter(letter)
                        .ok_or_else(|| format!("pyramid: unknown piece {letter:?}"))?;
                    if kind == Kind::Pawn && cell.l == 0 && (cell.r == 0 || cell.r == 7) {
                        return Err(format!("pyramid: pawn on the back rank {}", cell.name()));
                    }
                    board[cell.index()] = Some(Piece { color, kind });
                }
            }
            row_index += 1;
        }
    }
    for color in [WHITE, BLACK] {
        let kings = board
            .iter()
            .filter(|p| {
                **p == Some(Piece {
                    color,
                    kind: Kind::King,
                })
            })
            .count();
        if kings != 1 {
            return Err(format!(
                "pyramid: {} has {kings} kings",
                PLAYER_LETTERS[color]
            ));
        }
    }
    let to_move = PLAYER_LETTERS
        .iter()
        .position(|&c| c == raw.to_move)
        .ok_or_else(|| format!("pyramid: bad player to move {:?}", raw.to_move))?;

    let mut castling = [[false; 2]; 2];
    if raw.castling != "-" {
        let chars: Vec<char> = raw.castling.chars().collect();
        let mut color = None;
        for c in chars {
            match c {
                'w' => color = Some(WHITE),
                'b' => color = Some(BLACK),
                'K' | 'Q' => {
                    let color =
                        color.ok_or_else(|| format!("pyramid: bad castling {:?}", raw.castling))?;
                    let side = if c == 'K' { 0 } else { 1 };
                    let rule = castling_rule(color, side);
                    let king = Piece {
                        color,
                        kind: Kind::King,
                    };
                    let rook = Piece {
                        color,
                        kind: Kind::Rook,
                    };
                    if board[rule.king_from.index()] != Some(king)
                        || board[rule.rook_from.index()] != Some(rook)
                    {
                        return Err(format!(
                            "pyramid: castling right {}{c} without king and rook at home",
                            PLAYER_LETTERS[color]
                        ));
                    }
                    castling[color][side] = true;
                }
                _ => return Err(format!("pyramid: bad castling {:?}", raw.castling)),
            }
        }
    }

    let mut en_passant = None;
    if raw.en_passant != "-" {
        if !ep_rules {
            return Err("pyramid: this game has no en passant".into());
        }
        let entry: Vec<char> = raw.en_passant.chars().collect();
        let bad = || format!("pyramid: bad en-passant field {:?}", raw.en_passant);
        if entry.len() != 7 {
            return Err(bad());
        }
        let mover = PLAYER_LETTERS
            .iter()
            .position(|&c| c == entry[0])
            .ok_or_else(bad)?;
        let middle = Cell::parse(&entry[1..4].iter().collect::<String>()).ok_or_else(bad)?;
        let pawn = Cell::parse(&entry[4..7].iter().collect::<String>()).ok_or_else(bad)?;
        // The entry must describe a two-cell first move just made by the
        // player not to move: its pawn on `pawn`, `middle` empty.
        let from = Cell {
            l: 0,
            f: pawn.f,
            r: if mover == WHITE { 1 } else { 6 },
        };
        let fits = pawn_two_cell_first_moves(mover)
            .iter()
            .any(|&(step, mid)| from.plus(step) == pawn && from.plus(mid) == middle);
        if mover == to_move
            || !fits
            || board[middle.index()].is_some()
            || board[pawn.index()]
                != Some(Piece {
                    color: mover,
                    kind: Kind::Pawn,
                })
        {
            return Err(bad());
        }
        en_passant = Some((middle, pawn));
    }
    Ok(Position {
        board,
        to_move,
        castling,
        en_passant,
        ep_rules,
    })
}

/// Perft split by root move; see `super::divide`. `en_passant` selects
/// `pyramid-ep`.
pub fn divide(
    position: &str,
    options: &Options,
    depth: u32,
    en_passant: bool,
) -> Result<Vec<(String, u64)>, String> {
    super::no_options("pyramid", options)?;
    super::split(parse(position, en_passant)?, depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(position: &str, depth: u32, ep: bool) -> u64 {
        divide(position, &[], depth, ep)
            .unwrap()
            .iter()
            .map(|(_, n)| n)
            .sum()
    }

    #[test]
    fn board_has_120_cells_in_four_levels() {
        let cells = all_cells();
        assert_eq!(cells.len(), 120);
        for (i, c) in cells.iter().enumerate() {
            assert_eq!(c.index(), i);
        }
        let per_level: Vec<usize> = (0..4)
            .map(|l| cells.iter().filter(|c| c.l == l).count())
            .collect();
        assert_eq!(per_level, vec![64, 36, 16, 4]);
        assert!(Cell::parse("4d5").is_some());
        assert!(Cell::parse("2a3").is_none());
        assert!(Cell::parse("3b4").is_none());
    }

    #[test]
    fn direction_counts() {
        assert_eq!(rook_directions().len(), 14);
        assert_eq!(bishop_directions().len(), 12);
        assert_eq!(queen_directions().len(), 26);
        assert_eq!(knight_leaps().len(), 32);
        let mut all = queen_directions().to_vec();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 26);
        let mut leaps = knight_leaps().to_vec();
        leaps.sort();
        leaps.dedup();
        assert_eq!(leaps.len(), 32);
        // A knight always changes colour: (f + r) parity flips.
        assert!(leaps.iter().all(|(f, r, _)| (f + r) % 2 != 0));
        // A bishop keeps the colour; a staircase rook step changes it.
        assert!(bishop_directions().iter().all(|(f, r, _)| (f + r) % 2 == 0));
    }

    #[test]
    fn staircase_rook_from_g1_stops_after_2g2() {
        // The seed's 1G1 > 2G2 > 3G3 leaves the pyramid after 2g2.
        let pos = parse(
            "7bK/8/8/8/8/8/8/wK5wR1/6/6/6/6/6/6/4/4/4/4/2/2 w - - 0 1",
            false,
        )
        .unwrap();
        let rook_moves: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.from.name() == "1g1")
            .map(|m| m.to.name())
            .collect();
        assert!(rook_moves.contains(&"2g2".to_string()));
        assert!(!rook_moves.iter().any(|n| n.starts_with('3')));
        // In-plane 13 (7 along the file + 6 along the rank), vertical none,
        // staircase (0,+1,+1) to 2g2 only.
        assert_eq!(rook_moves.len(), 7 + 6 + 1);
    }

    #[test]
    fn a_position_without_a_king_is_rejected() {
        assert!(
            parse(
                "8/8/8/8/8/8/8/wK5wR1/6/6/6/6/6/6/4/4/4/4/2/2 w - - 0 1",
                false
            )
            .is_err()
        );
    }

    #[test]
    fn pawn_first_moves() {
        // e-pawn: five kinds of first move; b-pawn four; a-pawn two.
        let pos = parse("startpos", true).unwrap();
        let count = |from: &str| {
            pos.legal_moves()
                .iter()
                .filter(|m| m.from.name() == from)
                .count()
        };
        assert_eq!(count("1e2"), 5);
        assert_eq!(count("1b2"), 4);
        assert_eq!(count("1a2"), 2);
    }

    #[test]
    fn start_position_depth_1_and_2() {
        assert_eq!(total("startpos", 1, false), 55);
        assert_eq!(total("startpos", 2, false), total("startpos", 2, true));
    }

    #[test]
    fn malformed_positions_are_errors() {
        let start = START.to_string();
        let bad = [
            start.replace("/2/2 w", "/2 w"),
            start.replace("/2/2 w", "/2/3 w"),
            start.replace(" w wKQbKQ", " r wKQbKQ"),
            start.replace("wRwNwBwQwKwBwNwR", "wRwNwBwQ1wBwNwR"),
            start.replace("wRwNwBwQwKwBwNwR", "wPwNwBwQwKwBwNwR"),
            start.replace(" - 0 1", " w1e31e4 0 1"),
        ];
        for text in &bad {
            assert!(divide(text, &[], 1, true).is_err(), "{text}");
        }
        // An en-passant entry is an error in `pyramid`, which has none.
        let after_e4 = "bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8/4wP3/8/wPwPwPwP1wPwPwP/wRwNwBwQwKwBwNwR\
/6/6/6/6/6/6/4/4/4/4/2/2 b wKQbKQ w1e31e4 0 1";
        assert_eq!(divide(after_e4, &[], 1, true).unwrap().len(), 55);
        assert!(divide(after_e4, &[], 1, false).is_err());
    }
}
