//! Reference rules of `chess`: classical chess under the FIDE Laws.
//!
//! Reads `startpos`, standard FEN and the generic position format
//! (docs/position-format.md). The board is a plain 8×8 array; a move is
//! legal when, after playing it on a copy of the position, the mover's king
//! is not attacked.

use super::Options;
use super::fen;

/// White moves first; black second.
const WHITE: usize = 0;
const BLACK: usize = 1;

/// The start position, written in the generic format.
const START: &str =
    "bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8/8/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR w wKQbKQ - 0 1";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    color: usize,
    kind: Kind,
}

/// A square as (file, rank), both 0..8: `a1` is (0, 0), `h8` is (7, 7).
type Square = (i32, i32);

/// Castling right index: `K` is the h-rook side, `Q` the a-rook side.
const KING_SIDE: usize = 0;
const QUEEN_SIDE: usize = 1;

#[derive(Clone)]
struct Position {
    /// `board[file][rank]`.
    board: [[Option<Piece>; 8]; 8],
    to_move: usize,
    /// `castling[color][side]`: king and that rook have not moved.
    castling: [[bool; 2]; 2],
    /// The square a pawn skipped with a two-square advance on the last move.
    en_passant: Option<Square>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Move {
    from: Square,
    to: Square,
    promotion: Option<Kind>,
}

const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const PROMOTION_KINDS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

fn on_board(s: Square) -> bool {
    (0..8).contains(&s.0) && (0..8).contains(&s.1)
}

fn add(s: Square, d: (i32, i32)) -> Square {
    (s.0 + d.0, s.1 + d.1)
}

/// The rank a color's pawns move towards: +1 for White, -1 for Black.
fn pawn_forward(color: usize) -> i32 {
    if color == WHITE { 1 } else { -1 }
}

/// The back rank of a color (rank 1 or rank 8).
fn back_rank(color: usize) -> i32 {
    if color == WHITE { 0 } else { 7 }
}

/// The rook's home square for a castling side.
fn rook_home(color: usize, side: usize) -> Square {
    let file = if side == KING_SIDE { 7 } else { 0 };
    (file, back_rank(color))
}

fn king_home(color: usize) -> Square {
    (4, back_rank(color))
}

fn square_name(s: Square) -> String {
    format!("{}{}", (b'a' + s.0 as u8) as char, s.1 + 1)
}

fn parse_square(text: &str) -> Result<Square, String> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return Err(format!("bad square {text:?}"));
    }
    let file = bytes[0].to_ascii_lowercase() as i32 - b'a' as i32;
    let rank = bytes[1] as i32 - b'1' as i32;
    if !on_board((file, rank)) {
        return Err(format!("bad square {text:?}"));
    }
    Ok((file, rank))
}

fn kind_from_letter(letter: char) -> Option<Kind> {
    match letter.to_ascii_uppercase() {
        'K' => Some(Kind::King),
        'Q' => Some(Kind::Queen),
        'R' => Some(Kind::Rook),
        'B' => Some(Kind::Bishop),
        'N' => Some(Kind::Knight),
        'P' => Some(Kind::Pawn),
        _ => None,
    }
}

fn kind_letter(kind: Kind) -> char {
    match kind {
        Kind::King => 'k',
        Kind::Queen => 'q',
        Kind::Rook => 'r',
        Kind::Bishop => 'b',
        Kind::Knight => 'n',
        Kind::Pawn => 'p',
    }
}

fn move_name(m: &Move) -> String {
    let mut name = square_name(m.from) + &square_name(m.to);
    if let Some(kind) = m.promotion {
        name.push(kind_letter(kind));
    }
    name
}

impl Position {
    fn at(&self, s: Square) -> Option<Piece> {
        self.board[s.0 as usize][s.1 as usize]
    }

    fn set(&mut self, s: Square, piece: Option<Piece>) {
        self.board[s.0 as usize][s.1 as usize] = piece;
    }

    fn king_square(&self, color: usize) -> Option<Square> {
        all_squares().find(|&s| {
            self.at(s)
                == Some(Piece {
                    color,
                    kind: Kind::King,
                })
        })
    }
}

fn all_squares() -> impl Iterator<Item = Square> {
    (0..8).flat_map(|f| (0..8).map(move |r| (f, r)))
}

// ---------------------------------------------------------------------------
// Attacks

/// Whether `by` attacks square `s`: some piece of `by` could capture on `s`
/// if an enemy piece stood there. Looked up from `s` outwards: every piece
/// move is reversible, so a piece attacks `s` exactly when `s` "sees" it
/// with the reversed move.
fn is_attacked(pos: &Position, s: Square, by: usize) -> bool {
    let has = |sq: Square, kinds: &[Kind]| {
        on_board(sq)
            && pos
                .at(sq)
                .is_some_and(|p| p.color == by && kinds.contains(&p.kind))
    };
    // A pawn captures one square diagonally forward.
    let f = pawn_forward(by);
    if has((s.0 - 1, s.1 - f), &[Kind::Pawn]) || has((s.0 + 1, s.1 - f), &[Kind::Pawn]) {
        return true;
    }
    if KNIGHT_JUMPS
        .iter()
        .any(|&d| has(add(s, d), &[Kind::Knight]))
    {
        return true;
    }
    if KING_STEPS.iter().any(|&d| has(add(s, d), &[Kind::King])) {
        return true;
    }
    let slider_sees = |directions: &[(i32, i32)], kinds: &[Kind]| {
        directions.iter().any(|&d| {
            let mut t = add(s, d);
            while on_board(t) && pos.at(t).is_none() {
                t = add(t, d);
            }
            has(t, kinds)
        })
    };
    slider_sees(&ROOK_DIRECTIONS, &[Kind::Rook, Kind::Queen])
        || slider_sees(&BISHOP_DIRECTIONS, &[Kind::Bishop, Kind::Queen])
}

fn in_check(pos: &Position, color: usize) -> bool {
    match pos.king_square(color) {
        Some(k) => is_attacked(pos, k, 1 - color),
        None => false,
    }
}

// ---------------------------------------------------------------------------
// Moves

/// Moves of a piece that slides any distance in `directions` over empty
/// squares, capturing an enemy piece on the first occupied square.
fn slide_moves(pos: &Position, from: Square, directions: &[(i32, i32)], out: &mut Vec<Move>) {
    let color = pos.at(from).unwrap().color;
    for &d in directions {
        let mut to = add(from, d);
        while on_board(to) {
            match pos.at(to) {
                None => out.push(Move {
                    from,
                    to,
                    promotion: None,
                }),
                Some(p) => {
                    if p.color != color {
                        out.push(Move {
                            from,
                            to,
                            promotion: None,
                        });
                    }
                    break;
                }
            }
            to = add(to, d);
        }
    }
}

/// Moves of a piece that steps or jumps to each of `offsets`.
fn step_moves(pos: &Position, from: Square, offsets: &[(i32, i32)], out: &mut Vec<Move>) {
    let color = pos.at(from).unwrap().color;
    for &d in offsets {
        let to = add(from, d);
        if on_board(to) && pos.at(to).is_none_or(|p| p.color != color) {
            out.push(Move {
                from,
                to,
                promotion: None,
            });
        }
    }
}

/// Adds a pawn move, as four moves when the pawn reaches the last rank.
fn push_pawn_move(from: Square, to: Square, color: usize, out: &mut Vec<Move>) {
    if to.1 == back_rank(1 - color) {
        for kind in PROMOTION_KINDS {
            out.push(Move {
                from,
                to,
                promotion: Some(kind),
            });
        }
    } else {
        out.push(Move {
            from,
            to,
            promotion: None,
        });
    }
}

/// Pawn moves: one square forward onto an empty square; two squares from
/// the starting rank over two empty squares; capture diagonally forward,
/// also en passant onto the square the enemy pawn just skipped.
fn pawn_moves(pos: &Position, from: Square, out: &mut Vec<Move>) {
    let color = pos.at(from).unwrap().color;
    let f = pawn_forward(color);
    let one = (from.0, from.1 + f);
    if on_board(one) && pos.at(one).is_none() {
        push_pawn_move(from, one, color, out);
        let start_rank = back_rank(color) + f;
        let two = (from.0, from.1 + 2 * f);
        if from.1 == start_rank && pos.at(two).is_none() {
            out.push(Move {
                from,
                to: two,
                promotion: None,
            });
        }
    }
    for df in [-1, 1] {
        let to = (from.0 + df, from.1 + f);
        if !on_board(to) {
            continue;
        }
        let enemy_there = pos.at(to).is_some_and(|p| p.color != color);
        if enemy_there || pos.en_passant == Some(to) {
            push_pawn_move(from, to, color, out);
        }
    }
}

/// Castling: king and rook unmoved (the right), the squares between them
/// empty, the king not in check and not passing over an attacked square.
/// (That it does not land in check is the ordinary legality test.)
fn castling_moves(pos: &Position, out: &mut Vec<Move>) {
    let color = pos.to_move;
    let king = king_home(color);
    for side in [KING_SIDE, QUEEN_SIDE] {
        if !pos.castling[color][side] {
            continue;
        }
        let rook = rook_home(color, side);
        let step = if side == KING_SIDE { 1 } else { -1 };
        let between_empty = ((king.0.min(rook.0) + 1)..king.0.max(rook.0))
            .all(|file| pos.at((file, king.1)).is_none());
        let passed = (king.0 + step, king.1);
        if between_empty
            && !is_attacked(pos, king, 1 - color)
            && !is_attacked(pos, passed, 1 - color)
        {
            out.push(Move {
                from: king,
                to: (king.0 + 2 * step, king.1),
                promotion: None,
            });
        }
    }
}

/// Every move the pieces allow, before the check test.
fn pseudo_legal_moves(pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    for from in all_squares() {
        let Some(piece) = pos.at(from) else { continue };
        if piece.color != pos.to_move {
            continue;
        }
        match piece.kind {
            Kind::King => step_moves(pos, from, &KING_STEPS, &mut out),
            Kind::Queen => {
                slide_moves(pos, from, &ROOK_DIRECTIONS, &mut out);
                slide_moves(pos, from, &BISHOP_DIRECTIONS, &mut out);
            }
            Kind::Rook => slide_moves(pos, from, &ROOK_DIRECTIONS, &mut out),
            Kind::Bishop => slide_moves(pos, from, &BISHOP_DIRECTIONS, &mut out),
            Kind::Knight => step_moves(pos, from, &KNIGHT_JUMPS, &mut out),
            Kind::Pawn => pawn_moves(pos, from, &mut out),
        }
    }
    castling_moves(pos, &mut out);
    out
}

/// The position after `m` (which must be pseudo-legal).
fn play(pos: &Position, m: &Move) -> Position {
    let mut next = pos.clone();
    let piece = pos.at(m.from).unwrap();
    let color = piece.color;
    // En passant: a pawn moving diagonally onto an empty square captures
    // the pawn that stands beside it.
    if piece.kind == Kind::Pawn && m.from.0 != m.to.0 && pos.at(m.to).is_none() {
        next.set((m.to.0, m.from.1), None);
    }
    // Castling: the king moves two squares; the rook jumps over it.
    if piece.kind == Kind::King && (m.to.0 - m.from.0).abs() == 2 {
        let side = if m.to.0 > m.from.0 {
            KING_SIDE
        } else {
            QUEEN_SIDE
        };
        let rook_from = rook_home(color, side);
        let rook_to = ((m.from.0 + m.to.0) / 2, m.from.1);
        next.set(rook_to, next.at(rook_from));
        next.set(rook_from, None);
    }
    next.set(m.from, None);
    next.set(
        m.to,
        Some(Piece {
            color,
            kind: m.promotion.unwrap_or(piece.kind),
        }),
    );
    // A two-square pawn advance leaves the skipped square for en passant.
    next.en_passant = if piece.kind == Kind::Pawn && (m.to.1 - m.from.1).abs() == 2 {
        Some((m.from.0, (m.from.1 + m.to.1) / 2))
    } else {
        None
    };
    // Castling rights end when the king or that rook moves or is captured.
    for c in [WHITE, BLACK] {
        for side in [KING_SIDE, QUEEN_SIDE] {
            let touched = |s: Square| s == king_home(c) || s == rook_home(c, side);
            if touched(m.from) || touched(m.to) {
                next.castling[c][side] = false;
            }
        }
    }
    next.to_move = 1 - color;
    next
}

/// The legal moves: pseudo-legal moves that leave the mover's king unattacked.
fn legal_moves(pos: &Position) -> Vec<Move> {
    pseudo_legal_moves(pos)
        .into_iter()
        .filter(|m| !in_check(&play(pos, m), pos.to_move))
        .collect()
}

impl super::Node for Position {
    type Move = Move;
    fn moves(&mut self) -> Vec<Move> {
        legal_moves(self)
    }
    fn play(&self, m: &Move) -> Position {
        play(self, m)
    }
    fn wire(m: &Move) -> String {
        move_name(m)
    }
}

/// Perft split by root move; see `super::divide`.
pub fn divide(position: &str, options: &Options, depth: u32) -> Result<Vec<(String, u64)>, String> {
    super::no_options("chess", options)?;
    super::split(parse_position(position)?, depth)
}

// ---------------------------------------------------------------------------
// Reading positions

fn parse_position(text: &str) -> Result<Position, String> {
    let text = text.trim();
    if text == "startpos" {
        return parse_generic(START);
    }
    let board = text.split_whitespace().next().unwrap_or("");
    // Every generic board holds the token `wK`; a standard FEN board never
    // contains the letter `w` (it is no piece letter there).
    if board.contains('w') {
        parse_generic(text)
    } else {
        parse_standard_fen(text)
    }
}

fn empty_position() -> Position {
    Position {
        board: [[None; 8]; 8],
        to_move: WHITE,
        castling: [[false; 2]; 2],
        en_passant: None,
    }
}

fn color_from_letter(letter: char) -> Result<usize, String> {
    match letter {
        'w' => Ok(WHITE),
        'b' => Ok(BLACK),
        other => Err(format!("chess: unknown player {other:?}")),
    }
}

/// The generic format of docs/position-format.md.
fn parse_generic(text: &str) -> Result<Position, String> {
    let raw = fen::split(text).map_err(|e| format!("chess: {e}"))?;
    if !raw.extra.is_empty() {
        return Err(format!("chess: unexpected optional fields {:?}", raw.extra));
    }
    let rows = raw.expanded_rows();
    if rows.len() != 8 {
        return Err(format!("chess: expected 8 rows, found {}", rows.len()));
    }
    let mut pos = empty_position();
    for (i, row) in rows.iter().enumerate() {
        if row.len() != 8 {
            return Err(format!(
                "chess: row {} has {} cells, expected 8",
                i + 1,
                row.len()
            ));
        }
        let rank = 7 - i as i32;
        for (file, cell) in row.iter().enumerate() {
            if let Some((army, letter)) = *cell {
                let color = color_from_letter(army)?;
                let kind = kind_from_letter(letter)
                    .ok_or_else(|| format!("chess: bad piece letter {letter:?}"))?;
                pos.set((file as i32, rank), Some(Piece { color, kind }));
            }
        }
    }
    pos.to_move = color_from_letter(raw.to_move)?;
    if raw.castling != "-" {
        let mut army = None;
        for c in raw.castling.chars() {
            match c {
                'w' | 'b' => army = Some(color_from_letter(c)?),
                'K' | 'Q' => {
                    let color = army
                        .ok_or_else(|| format!("chess: bad castling field {:?}", raw.castling))?;
                    let side = if c == 'K' { KING_SIDE } else { QUEEN_SIDE };
                    pos.castling[color][side] = true;
                }
                _ => return Err(format!("chess: bad castling field {:?}", raw.castling)),
            }
        }
    }
    if raw.en_passant != "-" {
        let entries: Vec<&str> = raw.en_passant.split(',').collect();
        if entries.len() != 1 || entries[0].len() != 5 || !entries[0].is_ascii() {
            return Err(format!("chess: bad en-passant field {:?}", raw.en_passant));
        }
        let entry = entries[0];
        let player = color_from_letter(entry.chars().next().unwrap())?;
        if player == pos.to_move {
            return Err(format!(
                "chess: en passant {entry:?} is not the last mover's"
            ));
        }
        let skipped = parse_square(&entry[1..3])?;
        let pawn = parse_square(&entry[3..5])?;
        if pawn != (skipped.0, skipped.1 + pawn_forward(player)) {
            return Err(format!("chess: en-passant entry {entry:?} is inconsistent"));
        }
        pos.en_passant = Some(skipped);
    }
    validate(&pos)?;
    Ok(pos)
}

/// Standard FEN: `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`.
fn parse_standard_fen(text: &str) -> Result<Position, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 4 || fields.len() > 6 {
        return Err(format!(
            "chess: expected 4 to 6 FEN fields, found {}",
            fields.len()
        ));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 8 {
        return Err(format!("chess: expected 8 ranks, found {}", rows.len()));
    }
    let mut pos = empty_position();
    for (i, row) in rows.iter().enumerate() {
        let rank = 7 - i as i32;
        let mut file = 0;
        for c in row.chars() {
            if let Some(n) = c.to_digit(10) {
                if n == 0 {
                    return Err(format!("chess: bad rank {row:?}"));
                }
                file += n as i32;
            } else {
                let kind = kind_from_letter(c).ok_or_else(|| format!("chess: bad piece {c:?}"))?;
                if file >= 8 {
                    return Err(format!("chess: rank {row:?} is too long"));
                }
                let color = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                pos.set((file, rank), Some(Piece { color, kind }));
                file += 1;
            }
        }
        if file != 8 {
            return Err(format!("chess: rank {row:?} does not have 8 squares"));
        }
    }
    pos.to_move = color_from_letter(fields[1].chars().next().unwrap_or('?'))?;
    if fields[1].len() != 1 {
        return Err(format!("chess: bad side to move {:?}", fields[1]));
    }
    if fields[2] != "-" {
        for c in fields[2].chars() {
            let (color, side) = match c {
                'K' => (WHITE, KING_SIDE),
                'Q' => (WHITE, QUEEN_SIDE),
                'k' => (BLACK, KING_SIDE),
                'q' => (BLACK, QUEEN_SIDE),
                _ => return Err(format!("chess: bad castling field {:?}", fields[2])),
            };
            pos.castling[color][side] = true;
        }
    }
    if fields[3] != "-" {
        let skipped = parse_square(fields[3])?;
        let mover = 1 - pos.to_move;
        if skipped.1 != back_rank(mover) + 2 * pawn_forward(mover) {
            return Err(format!("chess: bad en-passant square {:?}", fields[3]));
        }
        pos.en_passant = Some(skipped);
    }
    for (i, field) in fields.iter().enumerate().skip(4) {
        if field.parse::<u32>().is_err() {
            return Err(format!("chess: bad FEN field {} {field:?}", i + 1));
        }
    }
    validate(&pos)?;
    Ok(pos)
}

/// Checks what a legal position needs: one king each, no pawn on the first
/// or last rank, castling rights only with king and rook at home, an
/// en-passant square only behind a pawn that just advanced two squares,
/// and the side not to move not in check.
fn validate(pos: &Position) -> Result<(), String> {
    for color in [WHITE, BLACK] {
        let kings = all_squares()
            .filter(|&s| {
                pos.at(s)
                    == Some(Piece {
                        color,
                        kind: Kind::King,
                    })
            })
            .count();
        if kings != 1 {
            return Err(format!("chess: player {color} has {kings} kings"));
        }
        for side in [KING_SIDE, QUEEN_SIDE] {
            let rook = Some(Piece {
                color,
                kind: Kind::Rook,
            });
            let king = Some(Piece {
                color,
                kind: Kind::King,
            });
            if pos.castling[color][side]
                && (pos.at(king_home(color)) != king || pos.at(rook_home(color, side)) != rook)
            {
                return Err("chess: castling right without king and rook at home".into());
            }
        }
    }
    if all_squares()
        .any(|s| (s.1 == 0 || s.1 == 7) && pos.at(s).is_some_and(|p| p.kind == Kind::Pawn))
    {
        return Err("chess: pawn on the first or last rank".into());
    }
    if let Some(skipped) = pos.en_passant {
        let mover = 1 - pos.to_move;
        let pawn = (skipped.0, skipped.1 + pawn_forward(mover));
        if pos.at(skipped).is_some()
            || pos.at(pawn)
                != Some(Piece {
                    color: mover,
                    kind: Kind::Pawn,
                })
        {
            return Err("chess: en-passant square without the pawn that skipped it".into());
        }
    }
    if in_check(pos, 1 - pos.to_move) {
        return Err("chess: the side not to move is in check".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(position: &str, depth: u32) -> u64 {
        divide(position, &[], depth)
            .unwrap()
            .iter()
            .map(|(_, n)| n)
            .sum()
    }

    #[test]
    fn start_position_in_both_formats() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(count("startpos", 3), 8902);
        assert_eq!(count(fen, 3), 8902);
    }

    #[test]
    fn en_passant_in_both_formats() {
        let fen = "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1";
        let generic = "8/8/1bK6/2bB5/2bPwP4/8/5wK2/8 b - wd3d4 0 1";
        assert_eq!(count(fen, 3), count(generic, 3));
        assert!(
            divide(fen, &[], 1)
                .unwrap()
                .iter()
                .any(|(m, _)| m == "c4d3")
        );
    }

    #[test]
    fn malformed_positions_are_errors() {
        assert!(divide("8/8/8 w - - 0 1", &[], 1).is_err());
        assert!(divide("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", &[], 1).is_err());
        assert!(divide("4k3/8/8/8/8/8/8/4K3 x - - 0 1", &[], 1).is_err());
    }
}
