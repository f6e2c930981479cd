//! The points where one game's rules differ from the common ones, as the
//! hooks of [`GameRules`]. Each game's file under `variants/` implements
//! only the hooks its rules change; the defaults are the common rules.
//! Make and unmake, the generator and the game's end call the hooks through
//! the position ([`Position::rules`]); none of them names a game.
//!
//! What is a fact rather than a procedure (draw shares, capture points,
//! optional position fields, ...) is data in the game's description
//! ([`Game`](crate::game::Game)), not a hook.

use super::Position;
use crate::game::outcome::Outcome;
use crate::moves::{MoveList, MoveSink};
use crate::types::{Cell, Piece, Player};
use arrayvec::ArrayVec;

/// Most pieces the automatic events after one move can take off the board.
pub const MAX_REMOVED: usize = 2;

/// Pieces taken off the board by automatic events after one move.
pub type Removed = ArrayVec<(Cell, Piece), MAX_REMOVED>;

/// A game's rules where they are procedure. Every method has the common
/// rule as its default.
pub trait GameRules: Sync {
    /// Whether the player to move must keep its king unattacked (not in
    /// Hexenschach's phase A, where kings are captured like other pieces).
    fn king_safety(&self, _pos: &Position) -> bool {
        true
    }

    /// Applies the events a move by `mover` that took `captured` triggers
    /// at once, before the turn passes on (a captured Rabe hands its army
    /// over), noting the pieces they take off the board in `removed`.
    fn after_move(
        &self,
        _pos: &mut Position,
        _mover: Player,
        _captured: Option<(Cell, Piece)>,
        _removed: &mut Removed,
    ) {
    }

    /// Applies the events due when a player's turn comes (a player without
    /// a move is out, a mate takes a player out and play goes on), until a
    /// player can move or the game is over.
    fn at_turn_start(&self, _pos: &mut Position, _removed: &mut Removed) {}

    /// Whether the game is over by a rule of its own that leaves the player
    /// to move without moves although it has pieces that could move (besides
    /// the common end when one player is left). Asked at every node: cheap.
    fn finished_by_rule(&self, _pos: &Position) -> bool {
        false
    }

    /// The end by a rule of the game's own, when
    /// [`GameRules::finished_by_rule`] says there is one.
    fn outcome_by_rule(&self, _pos: &Position) -> Option<Outcome> {
        None
    }

    /// Whether the moves in play are the standard moves alone. A game that
    /// adds moves (passes, extra captures) or forbids some (the duty to
    /// help) answers false; only then are [`GameRules::restricts_moves`]
    /// and [`GameRules::add_moves`] asked.
    fn only_standard_moves(&self) -> bool {
        true
    }

    /// Whether only some of the standard moves are legal here (Star's duty
    /// to help); [`GameRules::restrict_moves`] then picks them.
    fn restricts_moves(&self, _pos: &Position) -> bool {
        false
    }

    /// Keeps in `moves` (all the standard moves) the legal ones, where
    /// [`GameRules::restricts_moves`] says only some are.
    fn restrict_moves(&self, _pos: &Position, _moves: &mut MoveList) {}

    /// Pushes the moves the game adds to the standard ones (a pass, the
    /// capture of a Rabe); `any_standard` says whether there was any
    /// standard move.
    fn add_moves(&self, _pos: &Position, _any_standard: bool, _sink: &mut dyn MoveSink) {}

    /// Whether a position may show the king of the player who moved last
    /// attacked by the player to move (Hexenschach's phase B starts so, and
    /// in Trichess an elimination may uncover it).
    fn last_mover_may_be_attacked(&self, _pos: &Position) -> bool {
        false
    }

    /// The game's own checks of a position read from text: why it cannot
    /// occur, if it cannot.
    fn validate(&self, _pos: &Position) -> Result<(), String> {
        Ok(())
    }
}
