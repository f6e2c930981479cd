//! Random games for the differential tests: games of random legal moves
//! (drawn from the engine's seeded generator, so that failures reproduce)
//! that prefer captures now and then so that they reach sparse positions,
//! eliminations and promotions.
//! Included by the tests with `#[path = "data/random_games.rs"] mod random_games;`.

use triskel::moves::Move;
use triskel::position::{AfterMate, Position};
use triskel::tournament::player::SeededRng;
use triskel::variants::Variant;

/// Plies per random game at most.
pub const MAX_PLIES: usize = 120;

/// The rule modes a game is played under: Trichess's three ways to go on
/// after a mate, the one mode of every other game.
pub fn rule_modes(variant: Variant) -> &'static [AfterMate] {
    if variant == Variant::Trichess {
        &[AfterMate::End, AfterMate::Obstacles, AfterMate::Inherit]
    } else {
        &[AfterMate::End]
    }
}

/// Plays a random game of `variant` under `after_mate` from seed `seed`,
/// calling `visit` with each position reached and the move about to be
/// played from it, and once more with the last position and no move.
pub fn play_random_game(
    variant: Variant,
    after_mate: AfterMate,
    seed: u64,
    mut visit: impl FnMut(&Position, Option<Move>),
) {
    let mut rng = SeededRng::new(seed);
    let mut pos = Position::start(variant);
    pos.set_after_mate(after_mate);
    for _ in 0..MAX_PLIES {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let captures: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| !m.is_pass() && pos.piece_at(m.to()).is_some())
            .collect();
        let m = if !captures.is_empty() && rng.below(3) > 0 {
            captures[rng.below(captures.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        visit(&pos, Some(m));
        pos.make(m);
    }
    visit(&pos, None);
}
