//! Differential test of the two move generators on positions from random
//! games: the engine and the reference generator (`tests/reference/`) must
//! agree on the perft counts of every position reached.
//!
//! `TRISKEL_RANDOM_GAMES` sets the games played per game id (default small
//! for CI); the depth is chosen per game to keep each check quick.

mod reference;

use rayon::prelude::*;
use triskel::position::{AfterMate, Position};
use triskel::variants::Variant;

/// Games per game id in a normal test run.
const DEFAULT_GAMES: u64 = 6;
/// Plies per random game at most.
const MAX_PLIES: usize = 120;
/// Every how many plies a position is checked.
const CHECK_EVERY: usize = 7;

/// A small deterministic generator (SplitMix64) so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The perft depth checked for each game (kept small: the reference is slow).
fn depth_of(variant: Variant) -> u32 {
    match variant {
        Variant::Dreierschach | Variant::Pyramid | Variant::PyramidEp => 2,
        _ => 3,
    }
}

/// Positions from a random game of `variant` with seed `seed`.
fn random_positions(variant: Variant, after_mate: AfterMate, seed: u64) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut pos = Position::start(variant);
    pos.set_after_mate(after_mate);
    let mut positions = Vec::new();
    for ply in 0..MAX_PLIES {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Prefer captures now and then, so that games reach sparse
        // positions, eliminations and promotions.
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
        pos.make(m);
        if ply % CHECK_EVERY == CHECK_EVERY - 1 {
            positions.push(pos.fen());
        }
    }
    positions.push(pos.fen());
    positions
}

#[test]
fn generators_agree_on_random_positions() {
    let games = std::env::var("TRISKEL_RANDOM_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(DEFAULT_GAMES);
    let mut cases = Vec::new();
    for variant in Variant::ALL {
        let modes: &[AfterMate] = if variant == Variant::Trichess {
            &[AfterMate::End, AfterMate::Obstacles, AfterMate::Inherit]
        } else {
            &[AfterMate::End]
        };
        for &mode in modes {
            for seed in 0..games {
                for fen in random_positions(variant, mode, seed * 7919 + variant as u64) {
                    cases.push((variant, mode, fen));
                }
            }
        }
    }
    let failures: Vec<String> = cases
        .par_iter()
        .filter_map(|(variant, mode, fen)| {
            let depth = depth_of(*variant);
            let mut pos = Position::from_fen_with(*variant, fen, *mode)
                .unwrap_or_else(|e| panic!("{variant}: own position {fen} rejected: {e}"));
            let engine = triskel::perft::perft(&mut pos, depth);
            let options = if *variant == Variant::Trichess {
                vec![("AfterMate".to_string(), mode.name().to_string())]
            } else {
                Vec::new()
            };
            match reference::perft(variant.id(), fen, &options, depth) {
                Ok(r) if r == engine => None,
                Ok(r) => Some(format!(
                    "{variant} {} depth {depth}: engine {engine}, reference {r}: {fen}",
                    mode.name()
                )),
                Err(e) => Some(format!("{variant}: reference rejects {fen}: {e}")),
            }
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} positions disagree:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
