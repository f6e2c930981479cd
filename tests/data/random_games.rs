//! Random games for the differential tests: a small deterministic random
//! generator, and games of random legal moves that prefer captures now and
//! then so that they reach sparse positions, eliminations and promotions.
//! Included by the tests with `#[path = "data/random_games.rs"] mod random_games;`.

use triskel::moves::Move;
use triskel::position::{AfterMate, Position};
use triskel::variants::Variant;

/// Plies per random game at most.
pub const MAX_PLIES: usize = 120;

/// A small deterministic generator (SplitMix64) so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

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
    let mut rng = Rng(seed);
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
