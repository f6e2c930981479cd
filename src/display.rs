//! Boards drawn as text for the protocol's `d` command.

use crate::position::Position;
use crate::types::Cell;
use crate::variants::Variant;
use std::fmt::Write;

impl Position {
    /// The board as text: every cell with its piece (`wK`, `nP`) or `.`,
    /// laid out as the game's board, with coordinates.
    pub fn board_text(&self) -> String {
        match self.variant() {
            Variant::Chess => self.square_board_text(),
            _ => self.rows_text(),
        }
    }

    /// The two-character token of `cell`: army letter and piece letter, or ` .`.
    pub fn cell_token(&self, cell: Cell) -> String {
        match self.piece_at(cell) {
            Some(p) => format!("{}{}", self.game().letters[p.army().index()], p.kind().letter()),
            None => " .".to_string(),
        }
    }

    fn square_board_text(&self) -> String {
        let game = self.game();
        let mut out = String::new();
        let border = "   +----+----+----+----+----+----+----+----+\n";
        out.push_str(border);
        for row in &game.rows {
            let rank = &game.geometry.name(row[0])[1..];
            let _ = write!(out, " {rank} |");
            for &cell in row {
                let _ = write!(out, " {} |", self.cell_token(cell));
            }
            out.push('\n');
            out.push_str(border);
        }
        out.push_str("     a    b    c    d    e    f    g    h\n");
        out
    }

    /// Fallback layout: the rows of the position format, one per line, each
    /// cell named.
    fn rows_text(&self) -> String {
        let game = self.game();
        let mut out = String::new();
        for row in &game.rows {
            for &cell in row {
                let _ = write!(out, "{}:{} ", game.geometry.name(cell), self.cell_token(cell).trim());
            }
            out.push('\n');
        }
        out
    }
}
