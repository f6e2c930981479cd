//! What Trichess and Star share beyond the board (`sections.md`): pawns,
//! castling cells, the row order of positions and the start position.

use crate::bitboard::Bitboard;
use crate::game::{Castling, CastlingSide, DoubleStep, PawnTables, cell_set};
use crate::geometry::sections::{COLUMNS, ROWS, SECTIONS, SectionBoard};
use crate::types::{Army, Cell};

/// Row of a section's pawns at the start.
const PAWN_ROW: i32 = 2;
/// Column of the king at the start, of the rooks, and where they castle to.
const KING_COLUMN: i32 = 5;
const RIGHT_ROOK_COLUMN: i32 = 8;
const LEFT_ROOK_COLUMN: i32 = 1;
const SHORT_KING_TO: i32 = 7;
const SHORT_ROOK_TO: i32 = 6;
const LONG_KING_TO: i32 = 3;
const LONG_ROOK_TO: i32 = 4;

/// Pawn tables of each army: forward in its own section, backward (towards
/// the back rank) elsewhere; two steps from its own row 2; promotion on row 1
/// of another section; never on its own row 1.
pub fn pawn_tables(board: &SectionBoard) -> Vec<PawnTables> {
    (0..SECTIONS)
        .map(|army| {
            let back_row = |s: usize| cell_set((1..=COLUMNS).map(|x| board.cell(s, x, 1)));
            let promotion = (0..SECTIONS)
                .filter(|&s| s != army)
                .fold(Bitboard::EMPTY, |acc, s| acc | back_row(s));
            PawnTables::from_moves(
                SectionBoard::CELLS,
                |c| board.pawn_steps(army, c),
                |c| {
                    let (s, x, y) = board.coords(c);
                    if s != army || y != PAWN_ROW {
                        return Vec::new();
                    }
                    vec![DoubleStep::new(
                        board.cell(s, x, y + 1),
                        board.cell(s, x, y + 2),
                    )]
                },
                |c| board.pawn_captures(army, c),
                promotion,
                back_row(army),
            )
        })
        .collect()
}

/// Which cells between king and rook must not be attacked.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum CastlingSafety {
    /// Classical: the cells the king passes over and lands on.
    KingPath,
    /// Star: every cell between king and rook.
    AllBetween,
}

/// Both castlings of every army.
pub fn castlings(board: &SectionBoard, safety: CastlingSafety) -> Vec<Castling> {
    (0..SECTIONS)
        .flat_map(|s| {
            let at = |x: i32| board.cell(s, x, 1);
            let army = Army::new(s);
            let short_between = cell_set([at(6), at(7)]);
            let long_between = cell_set([at(2), at(3), at(4)]);
            let long_safe = match safety {
                CastlingSafety::KingPath => cell_set([at(LONG_KING_TO), at(LONG_ROOK_TO)]),
                CastlingSafety::AllBetween => long_between,
            };
            [
                Castling {
                    army,
                    side: CastlingSide::Right,
                    king_from: at(KING_COLUMN),
                    king_to: at(SHORT_KING_TO),
                    rook_from: at(RIGHT_ROOK_COLUMN),
                    rook_to: at(SHORT_ROOK_TO),
                    must_be_empty: short_between,
                    must_be_safe: short_between,
                },
                Castling {
                    army,
                    side: CastlingSide::Left,
                    king_from: at(KING_COLUMN),
                    king_to: at(LONG_KING_TO),
                    rook_from: at(LEFT_ROOK_COLUMN),
                    rook_to: at(LONG_ROOK_TO),
                    must_be_empty: long_between,
                    must_be_safe: long_safe,
                },
            ]
        })
        .collect()
}

/// Rows in position-string order: each section from row 4 to row 1, columns 1 to 8.
pub fn rows(board: &SectionBoard) -> Vec<Vec<Cell>> {
    (0..SECTIONS)
        .flat_map(|s| (1..=ROWS).rev().map(move |y| (s, y)))
        .map(|(s, y)| (1..=COLUMNS).map(|x| board.cell(s, x, y)).collect())
        .collect()
}

/// The start position for players with letters `letters` in turn order.
pub fn start_position(letters: &str) -> String {
    let letters: Vec<char> = letters.chars().collect();
    let rows: Vec<String> = letters
        .iter()
        .flat_map(|&a| {
            let pieces: String = "RNBQKBNR".chars().map(|k| format!("{a}{k}")).collect();
            let pawns: String = (0..COLUMNS).map(|_| format!("{a}P")).collect();
            ["8".to_string(), "8".to_string(), pawns, pieces]
        })
        .collect();
    let castling: String = letters.iter().map(|a| format!("{a}KQ")).collect();
    format!("{} {} {castling} - 0 1", rows.join("/"), letters[0])
}
