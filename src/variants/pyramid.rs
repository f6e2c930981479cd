//! Schachpyramide (not built yet).

use super::Game;

/// Builds the game's tables.
pub fn build(_en_passant: bool) -> Game {
    super::chess::build()
}
