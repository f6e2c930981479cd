//! The clock events of a match that change a position although no move is
//! made: in games whose [`ClockRule`] is [`ClockRule::ForfeitAndFreeze`]
//! (Star), a move forfeited on the time per move and a player frozen when
//! its time for the game is used up. The interface applies them, never the
//! search; they cannot be taken back.

use super::Position;
use super::Removed;
use crate::game::{ClockRule, EnPassantRule};
use crate::types::{MAX_PLAYERS, Player};

/// Why a clock event was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockEventError {
    /// The game's clocks end the game instead ([`ClockRule::LosesOnTime`]).
    LosesOnTime,
    /// The game is over: nobody is on turn.
    GameOver,
}

impl std::fmt::Display for ClockEventError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            ClockEventError::LosesOnTime => "in this game a player out of time loses",
            ClockEventError::GameOver => "the game is over",
        })
    }
}

impl Position {
    /// The player to move forfeits its move (its time per move ran out):
    /// the board stays and the next player is on turn. The turn counts as a
    /// move for the draw clock and the rounds, but not as a pass.
    pub fn forfeit_move(&mut self) -> Result<(), ClockEventError> {
        self.check_clock_event()?;
        self.end_turn_without_move();
        Ok(())
    }

    /// The player to move is frozen (its time for the game is used up): it
    /// is skipped in the turn order from now on, its pieces stay on the
    /// board, and the next player is on turn. When nobody is left to move,
    /// the game ends on points as when everyone passed.
    pub fn freeze_player_to_move(&mut self) -> Result<(), ClockEventError> {
        self.check_clock_event()?;
        self.state.frozen = self.state.frozen.with(self.to_move);
        self.rehash_state();
        self.end_turn_without_move();
        Ok(())
    }

    /// Refuses clock events where the game has none, or after its end.
    fn check_clock_event(&self) -> Result<(), ClockEventError> {
        if self.game.facts.clock_rule != ClockRule::ForfeitAndFreeze {
            return Err(ClockEventError::LosesOnTime);
        }
        if self.outcome().is_some() {
            return Err(ClockEventError::GameOver);
        }
        Ok(())
    }

    /// Hands the turn on as a move would, without moving: the mover's
    /// en-passant right lapses as after its move, the passes in a row end,
    /// the draw clock and the round go on, and the next player's turn starts.
    fn end_turn_without_move(&mut self) {
        let mover = self.to_move;
        self.history.push(self.hash);
        match self.game.en_passant {
            EnPassantRule::None => {}
            EnPassantRule::NextMoveOnly => {
                for p in 0..MAX_PLAYERS {
                    self.clear_en_passant(Player::new(p));
                }
            }
            EnPassantRule::UntilOwnerMovesAgain => self.clear_en_passant(mover),
        }
        if self.state.passes != 0 {
            self.state.passes = 0;
            self.rehash_state();
        }
        self.draw_clock = self.clock_after_a_move();
        let next = self.next_active_after(mover).unwrap_or(mover);
        self.set_to_move(next);
        let rules = self.rules();
        rules.at_turn_start(self, &mut Removed::new());
        if self.to_move.index() <= mover.index() {
            self.round = (self.round + 1).min(super::MAX_ROUND);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;
    use crate::rules::EndReason;

    #[test]
    fn a_forfeited_move_hands_the_turn_on_and_counts_for_the_draw_clock() {
        let mut pos = Position::start(Variant::Star);
        let board = pos.occupied();
        let clock = pos.clock_units();
        pos.forfeit_move().unwrap();
        assert_eq!(pos.to_move(), Player::new(1));
        assert_eq!(pos.occupied(), board);
        assert!(pos.clock_units() > clock);
        assert_eq!(pos.hash(), pos.compute_hash());
        let again = Position::from_fen(Variant::Star, &pos.fen()).unwrap();
        assert_eq!(again.fen(), pos.fen());
    }

    #[test]
    fn a_frozen_player_is_skipped_and_written_in_the_position() {
        let mut pos = Position::start(Variant::Star);
        pos.freeze_player_to_move().unwrap();
        assert!(pos.state().frozen.has(Player::new(0)));
        assert_eq!(pos.hash(), pos.compute_hash());
        let mv = pos.legal_moves()[0];
        pos.make(mv);
        let mv = pos.legal_moves()[0];
        pos.make(mv);
        assert_eq!(pos.to_move(), Player::new(1), "blue is skipped");
        assert!(pos.fen().contains("frozen=b"), "{}", pos.fen());
        let again = Position::from_fen(Variant::Star, &pos.fen()).unwrap();
        assert_eq!(again.hash(), pos.hash());
    }

    #[test]
    fn when_everyone_is_frozen_the_points_decide() {
        let mut pos = Position::start(Variant::Star);
        for _ in 0..3 {
            pos.freeze_player_to_move().unwrap();
        }
        let outcome = pos.outcome().expect("nobody moves");
        assert_eq!(outcome.reason, EndReason::Points);
        assert_eq!(pos.freeze_player_to_move(), Err(ClockEventError::GameOver));
    }

    #[test]
    fn other_games_lose_on_time() {
        let mut pos = Position::start(Variant::Trichess);
        assert_eq!(pos.forfeit_move(), Err(ClockEventError::LosesOnTime));
        assert_eq!(
            pos.freeze_player_to_move(),
            Err(ClockEventError::LosesOnTime)
        );
    }
}
