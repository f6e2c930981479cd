//! Moves as text: `<from><to>[<promotion>]`, castling as the king's move,
//! `0000` for a pass.

pub mod san;

use crate::game::Variant;
use crate::game::outcome::EndReason;
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

    /// The legal move written as `text`, or why there is none: malformed
    /// text, the game's end, or which rule the move breaks.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let legal = self.legal_moves();
        if text == NULL_MOVE_TEXT {
            return legal
                .iter()
                .copied()
                .find(|m| m.is_pass())
                .ok_or(MoveError::PassNotLegal);
        }
        let lower = text.to_ascii_lowercase();
        if let Some(&m) = legal.iter().find(|&&m| self.move_text(m) == lower) {
            return Ok(m);
        }
        let text = text.to_string();
        let cells = self.split_two_cells(&lower).or_else(|| {
            let cut = lower.char_indices().last()?.0;
            let promotion = matches!(&lower[cut..], "q" | "r" | "b" | "n");
            self.split_two_cells(&lower[..cut]).filter(|_| promotion)
        });
        let Some((from, to)) = cells else {
            return Err(MoveError::Malformed {
                text,
                variant: self.variant(),
            });
        };
        if legal.is_empty() {
            let reason = self.outcome().map(|o| o.reason);
            return Err(MoveError::AfterTheEnd { text, reason });
        }
        let game = self.game();
        let mover = game.player_label(self.to_move());
        let name = |cell| game.geometry.name(cell).to_string();
        let Some(piece) = self.piece_at(from) else {
            return Err(MoveError::NoPiece {
                text,
                from: name(from),
                mover,
            });
        };
        let token = self.cell_token(from);
        if self.controller(piece) != Some(self.to_move()) {
            return Err(MoveError::NotTheMovers {
                text,
                token,
                from: name(from),
                mover,
            });
        }
        let texts = |keep: &dyn Fn(&Move) -> bool| -> Vec<String> {
            legal
                .iter()
                .filter(|m| keep(m))
                .map(|&m| self.move_text(m))
                .collect()
        };
        let between = texts(&|m| m.from() == from && m.to() == to);
        if !between.is_empty() {
            return Err(MoveError::WrittenOtherwise {
                text,
                from: name(from),
                to: name(to),
                legal: between,
            });
        }
        let legal = texts(&|m| m.from() == from);
        Err(if legal.is_empty() {
            MoveError::PieceCannotMove {
                text,
                token,
                from: name(from),
            }
        } else {
            MoveError::CannotGoThere {
                text,
                token,
                from: name(from),
                to: name(to),
                legal,
            }
        })
    }
}

/// Why a text is not a legal move of a position, with what a GUI needs to
/// show it: the text, the cells by name, the legal moves nearby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not `<from><to>[q|r|b|n]` with cells of the game (nor `0000`).
    Malformed {
        /// The text.
        text: String,
        /// The game.
        variant: Variant,
    },
    /// A pass (`0000`) where the player to move may not pass.
    PassNotLegal,
    /// The game is over: no move follows.
    AfterTheEnd {
        /// The text.
        text: String,
        /// How the game ended, where the rules say.
        reason: Option<EndReason>,
    },
    /// No piece stands on the move's first cell.
    NoPiece {
        /// The text.
        text: String,
        /// The first cell.
        from: String,
        /// The player to move, as `w (White)`.
        mover: String,
    },
    /// The piece on the first cell is not the mover's.
    NotTheMovers {
        /// The text.
        text: String,
        /// The piece, as `bP`.
        token: String,
        /// Its cell.
        from: String,
        /// The player to move.
        mover: String,
    },
    /// There are legal moves between the two cells, written otherwise
    /// (with or without a promotion's letter).
    WrittenOtherwise {
        /// The text.
        text: String,
        /// The first cell.
        from: String,
        /// The second cell.
        to: String,
        /// The legal moves between them.
        legal: Vec<String>,
    },
    /// The piece has no legal move.
    PieceCannotMove {
        /// The text.
        text: String,
        /// The piece.
        token: String,
        /// Its cell.
        from: String,
    },
    /// The piece cannot go to the second cell.
    CannotGoThere {
        /// The text.
        text: String,
        /// The piece.
        token: String,
        /// Its cell.
        from: String,
        /// The cell it cannot reach.
        to: String,
        /// The piece's legal moves.
        legal: Vec<String>,
    },
}

impl MoveError {
    /// What is wrong with the move, after its text: `is illegal: ...`,
    /// `comes after the end of the game (...)`.
    pub fn predicate(&self) -> String {
        match self {
            MoveError::Malformed { variant, .. } => {
                format!("is malformed (expected <from><to>[q|r|b|n] with cells of {variant})")
            }
            MoveError::PassNotLegal => "is illegal: the player to move may not pass".to_string(),
            MoveError::AfterTheEnd { reason, .. } => format!(
                "comes after the end of the game ({})",
                reason.map_or("no legal moves", EndReason::name)
            ),
            MoveError::NoPiece { from, mover, .. } => {
                format!("is illegal: there is no piece on {from} ({mover} to move)")
            }
            MoveError::NotTheMovers {
                token, from, mover, ..
            } => format!(
                "is illegal: the {token} on {from} does not belong to {mover}, who is to move"
            ),
            MoveError::WrittenOtherwise {
                from, to, legal, ..
            } => format!(
                "is illegal: the legal moves from {from} to {to} are {}",
                legal.join(" ")
            ),
            MoveError::PieceCannotMove { token, from, .. } => {
                format!("is illegal: the {token} on {from} has no legal move")
            }
            MoveError::CannotGoThere {
                token,
                from,
                to,
                legal,
                ..
            } => format!(
                "is illegal: the {token} on {from} cannot move to {to}; its legal moves are {}",
                legal.join(" ")
            ),
        }
    }

    /// The move's text.
    pub fn text(&self) -> &str {
        match self {
            MoveError::PassNotLegal => NULL_MOVE_TEXT,
            MoveError::Malformed { text, .. }
            | MoveError::AfterTheEnd { text, .. }
            | MoveError::NoPiece { text, .. }
            | MoveError::NotTheMovers { text, .. }
            | MoveError::WrittenOtherwise { text, .. }
            | MoveError::PieceCannotMove { text, .. }
            | MoveError::CannotGoThere { text, .. } => text,
        }
    }
}

impl std::fmt::Display for MoveError {
    /// `move <text> <predicate>`: `move e2e5 is illegal: ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "move {} {}", self.text(), self.predicate())
    }
}

impl std::error::Error for MoveError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess(moves: &[&str]) -> Position {
        let mut pos = Position::start(Variant::Chess);
        for text in moves {
            let m = pos.parse_move(text).expect("a legal move");
            pos.make(m);
        }
        pos
    }

    fn legal(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn each_refusal_says_which_rule_the_move_breaks() {
        let start = chess(&[]);
        assert!(matches!(
            start.parse_move("e2"),
            Err(MoveError::Malformed {
                variant: Variant::Chess,
                ..
            })
        ));
        assert_eq!(start.parse_move("0000"), Err(MoveError::PassNotLegal));
        assert!(matches!(
            start.parse_move("e3e4"),
            Err(MoveError::NoPiece { ref from, .. }) if from == "e3"
        ));
        assert!(matches!(
            start.parse_move("e7e5"),
            Err(MoveError::NotTheMovers { ref token, .. }) if token == "bP"
        ));
        assert!(matches!(
            start.parse_move("e2e5"),
            Err(MoveError::CannotGoThere { ref legal, .. }) if *legal == ["e2e3", "e2e4"]
        ));
        assert!(matches!(
            start.parse_move("e2e4q"),
            Err(MoveError::WrittenOtherwise { ref legal, .. }) if *legal == ["e2e4"]
        ));
        assert!(matches!(
            start.parse_move("a1a2"),
            Err(MoveError::PieceCannotMove { ref from, .. }) if from == "a1"
        ));
        let mated = chess(&["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(
            mated.parse_move("a2a3"),
            Err(MoveError::AfterTheEnd {
                text: "a2a3".into(),
                reason: Some(EndReason::Checkmate)
            })
        );
    }

    #[test]
    fn a_refusal_reads_as_before() {
        let start = chess(&[]);
        let error = start.parse_move("e2e5").unwrap_err();
        assert_eq!(
            error.to_string(),
            "move e2e5 is illegal: the wP on e2 cannot move to e5; its legal moves are e2e3 e2e4"
        );
        let promotion =
            Position::from_fen(Variant::Chess, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(
            promotion.parse_move("a7b8"),
            Err(MoveError::WrittenOtherwise {
                text: "a7b8".into(),
                from: "a7".into(),
                to: "b8".into(),
                legal: legal(&["a7b8q", "a7b8r", "a7b8b", "a7b8n"]),
            })
        );
    }
}
