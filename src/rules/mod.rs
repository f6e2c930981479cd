//! The rules around move generation that differ between games: when the
//! king must be kept safe, automatic events after a move (eliminations), the
//! moves a game adds or forbids (passes, the duty to help), and game ends.
//! Each game's own rules live in its file under `variants/`; this module
//! dispatches to them.

use crate::movegen::MoveSink;
use crate::moves::MoveList;
use crate::position::Position;
use crate::types::{Cell, Piece, Player};
use crate::variants::Variant;
use arrayvec::ArrayVec;

/// Pieces taken off the board by automatic events after one move.
pub type Removed = ArrayVec<(Cell, Piece), 2>;

/// Whether the player to move must keep its king unattacked (not in
/// Hexenschach's phase A).
#[inline(always)]
pub fn king_safety(pos: &Position) -> bool {
    !(pos.variant() == Variant::Hexenschach && pos.state().in_game.count() == 3)
}

/// Whether kings may be captured like other pieces (Hexenschach's phase A).
#[inline(always)]
pub fn kings_capturable(pos: &Position) -> bool {
    !king_safety(pos)
}

/// Applies the events a move by `mover` triggers at once (e.g. a captured
/// Rabe hands its army over).
pub fn after_move(pos: &mut Position, mover: Player, captured: Option<(Cell, Piece)>, removed: &mut Removed) {
    let _ = (pos, mover, captured, removed);
}

/// Applies the events due when a player's turn comes (e.g. Hexenschach's
/// elimination of a player without a move), until a player can move or the
/// game is over.
pub fn at_turn_start(pos: &mut Position, removed: &mut Removed) {
    let _ = (pos, removed);
}

/// Whether the game is over by a rule that leaves the player to move without
/// moves although it has pieces that could move.
pub fn finished_by_rule(pos: &Position) -> bool {
    pos.state().in_game.count() <= 1
}

impl Position {
    /// Generates the legal moves of the position into `sink`: nothing when the
    /// game is over, the standard moves, and whatever the game adds.
    pub fn generate_moves<S: MoveSink>(&self, sink: &mut S) {
        if finished_by_rule(self) {
            return;
        }
        self.generate_standard(sink);
    }

    /// The legal moves as a list.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// The number of legal moves (counted without listing them where possible).
    pub fn count_moves(&self) -> u64 {
        let mut counter = crate::movegen::MoveCounter::default();
        self.generate_moves(&mut counter);
        counter.0
    }
}

/// Game-specific checks of a position read from text.
pub fn validate(pos: &Position) -> Result<(), crate::position::fen::PositionError> {
    let _ = pos;
    Ok(())
}
