//! star (not built yet).

use super::Game;

/// Builds the game's tables.
pub fn build() -> Game {
    super::chess::build()
}
