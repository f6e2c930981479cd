//! Hexagonal cell geometry shared by the reference rules of Dreierschach
//! and Hexenschach: both rule books use pointy-top cells `(q, r)` with the
//! same straight, diagonal and knight vectors and the same cell names.

use super::fen::RawPosition;

/// A cell `(q, r)`: file `q` (`a`, `b`, ...) and rank `r` (`1`, `2`, ...), from 0.
pub type Cell = (i32, i32);

/// "Straight directions (to an edge-adjacent cell), in circular order:
/// (1,0) (1,1) (0,1) (-1,0) (-1,-1) (0,-1)".
pub const STRAIGHT: [Cell; 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

/// "Diagonal directions (to the nearest cell of the same colour) are the
/// sums of two circularly adjacent straight directions": `DIAGONAL[i] =
/// STRAIGHT[i] + STRAIGHT[i + 1]`.
pub const DIAGONAL: [Cell; 6] = [(2, 1), (1, 2), (-1, 1), (-2, -1), (-1, -2), (1, -1)];

/// The knight (Fledermaus) "jumps to the 12 cells reached by one straight
/// step followed by one diagonal step at an obtuse angle".
pub const KNIGHT: [Cell; 12] = [
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

/// `a + b`.
pub fn add(a: Cell, b: Cell) -> Cell {
    (a.0 + b.0, a.1 + b.1)
}

/// `k * v`.
pub fn times(k: i32, v: Cell) -> Cell {
    (k * v.0, k * v.1)
}

/// "A diagonal step from X by s1+s2 passes between the two cells X+s1 and
/// X+s2": the two cells a step along `DIAGONAL[i]` from `from` passes between.
pub fn passed_cells(from: Cell, i: usize) -> (Cell, Cell) {
    (add(from, STRAIGHT[i]), add(from, STRAIGHT[(i + 1) % 6]))
}

/// The `k >= 1` with `diff == k * dir`, if there is one.
pub fn steps_along(diff: Cell, dir: Cell) -> Option<i32> {
    let k = if dir.0 != 0 {
        diff.0 / dir.0
    } else {
        diff.1 / dir.1
    };
    (k >= 1 && times(k, dir) == diff).then_some(k)
}

/// The name of a cell: file letter then rank number (`(0,0)` is `a1`).
pub fn cell_name(c: Cell) -> String {
    format!("{}{}", (b'a' + c.0 as u8) as char, c.1 + 1)
}

/// Reads a cell name (case-insensitive) without checking that it exists.
pub fn parse_cell(text: &str) -> Option<Cell> {
    let mut chars = text.chars();
    let file = chars.next()?.to_ascii_lowercase();
    if !file.is_ascii_lowercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let rank: i32 = digits.parse().ok()?;
    if rank < 1 {
        return None;
    }
    Some((file as i32 - 'a' as i32, rank - 1))
}

/// A cell name of the rule book's tables (`"d1"`, `"m13"`), read at compile
/// time; the name must be a lowercase letter and a rank number.
pub const fn named(name: &str) -> Cell {
    let bytes = name.as_bytes();
    let mut rank = 0;
    let mut i = 1;
    while i < bytes.len() {
        rank = rank * 10 + (bytes[i] - b'0') as i32;
        i += 1;
    }
    ((bytes[0] - b'a') as i32, rank - 1)
}

/// Splits `text` into cell names (`a1b13` -> `a1`, `b13`) and reads them.
pub fn parse_cells(text: &str) -> Option<Vec<Cell>> {
    if !text.is_ascii() {
        return None;
    }
    let mut cells = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest[1..].chars().take_while(char::is_ascii_digit).count();
        let (name, tail) = rest.split_at(1 + digits);
        cells.push(parse_cell(name)?);
        rest = tail;
    }
    Some(cells)
}

/// The cells of a board of `size` × `size` coordinates in position-string
/// order: ranks from the top down, inside a rank by file.
pub fn rows(size: i32, exists: fn(Cell) -> bool) -> Vec<Vec<Cell>> {
    (0..size)
        .rev()
        .map(|r| {
            (0..size)
                .map(|q| (q, r))
                .filter(|&c| exists(c))
                .collect::<Vec<Cell>>()
        })
        .filter(|row| !row.is_empty())
        .collect()
}

/// The board of a position string: every piece with its cell, army letter
/// and piece letter. Checks the number of rows and of cells in each row.
pub fn read_board(
    raw: &RawPosition,
    size: i32,
    exists: fn(Cell) -> bool,
) -> Result<Vec<(Cell, char, char)>, String> {
    let layout = rows(size, exists);
    let written = raw.expanded_rows();
    if written.len() != layout.len() {
        return Err(format!(
            "expected {} rows, found {}",
            layout.len(),
            written.len()
        ));
    }
    let mut pieces = Vec::new();
    for (cells, row) in layout.iter().zip(&written) {
        if cells.len() != row.len() {
            return Err(format!(
                "rank {} has {} cells, found {}",
                cells[0].1 + 1,
                cells.len(),
                row.len()
            ));
        }
        for (&cell, token) in cells.iter().zip(row) {
            if let Some((army, kind)) = *token {
                pieces.push((cell, army, kind));
            }
        }
    }
    Ok(pieces)
}

/// Writes the board field of a position string; `piece` gives the army and
/// piece letter on a cell.
pub fn write_board(
    size: i32,
    exists: fn(Cell) -> bool,
    piece: impl Fn(Cell) -> Option<(char, char)>,
) -> String {
    let mut out = Vec::new();
    for row in rows(size, exists) {
        let mut text = String::new();
        let mut empty = 0;
        for cell in row {
            match piece(cell) {
                None => empty += 1,
                Some((army, kind)) => {
                    if empty > 0 {
                        text += &empty.to_string();
                        empty = 0;
                    }
                    text.push(army);
                    text.push(kind);
                }
            }
        }
        if empty > 0 {
            text += &empty.to_string();
        }
        out.push(text);
    }
    out.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonals_are_sums_of_adjacent_straight_directions() {
        for i in 0..6 {
            assert_eq!(DIAGONAL[i], add(STRAIGHT[i], STRAIGHT[(i + 1) % 6]));
        }
    }

    #[test]
    fn knight_is_straight_then_diagonal_at_an_obtuse_angle() {
        // The diagonals next to STRAIGHT[i] (30° away) are DIAGONAL[i] and
        // DIAGONAL[i - 1]; following a straight step by one of them turns
        // by 30°, so the angle between the two legs is 150°.
        let mut jumps: Vec<Cell> = (0..6)
            .flat_map(|i| {
                [
                    add(STRAIGHT[i], DIAGONAL[i]),
                    add(STRAIGHT[i], DIAGONAL[(i + 5) % 6]),
                ]
            })
            .collect();
        let mut listed = KNIGHT.to_vec();
        jumps.sort();
        listed.sort();
        assert_eq!(jumps, listed);
    }

    #[test]
    fn a_step_and_its_reverse_pass_between_the_same_cells() {
        let x = (4, 4);
        for (i, &d) in DIAGONAL.iter().enumerate() {
            let y = add(x, d);
            let reverse = (i + 3) % 6;
            assert_eq!(DIAGONAL[reverse], times(-1, d));
            let (a, b) = passed_cells(x, i);
            let (c, d) = passed_cells(y, reverse);
            assert!((a, b) == (d, c) || (a, b) == (c, d));
        }
    }

    #[test]
    fn cell_names_round_trip() {
        assert_eq!(cell_name((0, 0)), "a1");
        assert_eq!(cell_name((12, 12)), "m13");
        assert_eq!(parse_cell("M13"), Some((12, 12)));
        assert_eq!(named("m13"), (12, 12));
        assert_eq!(named("e10"), (4, 9));
        assert_eq!(parse_cells("g12f11"), Some(vec![(6, 11), (5, 10)]));
        assert_eq!(parse_cell("a0"), None);
        assert_eq!(steps_along((6, 3), (2, 1)), Some(3));
        assert_eq!(steps_along((6, 2), (2, 1)), None);
        assert_eq!(steps_along((-2, -1), (2, 1)), None);
    }
}
