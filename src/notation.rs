//! Moves as text: `<from><to>[<promotion>]`, castling as the king's move,
//! `0000` for a pass.

pub mod san;

use crate::moves::Move;
use crate::position::Position;

/// The wire text of a pass (and of "no move").
pub const NULL_MOVE_TEXT: &str = "0000";

impl Position {
    /// The move written on the wire, e.g. `e2e4`, `d7d8q`, `1e21e4`, `0000`.
    pub fn move_text(&self, m: Move) -> String {
        if m.is_pass() || m == Move::NONE {
            return NULL_MOVE_TEXT.to_string();
        }
        let g = &self.game().geometry;
        let mut text = format!("{}{}", g.name(m.from()), g.name(m.to()));
        if let Some(kind) = m.promotion_kind() {
            text.push(kind.letter().to_ascii_lowercase());
        }
        text
    }

    /// The legal move written as `text`, or why there is none.
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        let legal = self.legal_moves();
        if text == NULL_MOVE_TEXT {
            return legal
                .iter()
                .copied()
                .find(|m| m.is_pass())
                .ok_or_else(|| "0000 (pass) is not a legal move here".to_string());
        }
        let lower = text.to_ascii_lowercase();
        if let Some(&m) = legal.iter().find(|&&m| self.move_text(m) == lower) {
            return Ok(m);
        }
        let g = &self.game().geometry;
        let well_formed = (1..lower.len()).any(|i| {
            lower.is_char_boundary(i)
                && g.cell(&lower[..i]).is_some()
                && (i + 1..=lower.len()).any(|j| {
                    lower.is_char_boundary(j)
                        && g.cell(&lower[i..j]).is_some()
                        && matches!(&lower[j..], "" | "q" | "r" | "b" | "n")
                })
        });
        if well_formed {
            Err(format!("illegal move {text}"))
        } else {
            Err(format!(
                "malformed move {text} (expected <from><to>[q|r|b|n] with cells of {})",
                self.variant()
            ))
        }
    }
}
