//! Differential test of the two move generators on positions from random
//! games: the engine and the reference generator (`tests/reference/`) must
//! agree on the perft counts of every position reached.
//!
//! `TRISKEL_RANDOM_GAMES` sets the games played per game id (default small
//! for CI); the depth is chosen per game to keep each check quick.

#[path = "data/random_games.rs"]
mod random_games;
mod reference;

use rayon::prelude::*;
use triskel::position::{AfterMate, Position};
use triskel::variants::Variant;

/// Games per game id in a normal test run (about half a minute on two
/// cores): 6 were too few to meet the rare positions that exposed a
/// generator bug (at 80 games) and a position-reader bug (at 200).
const DEFAULT_GAMES: u64 = 40;
/// Every how many plies a position is checked.
const CHECK_EVERY: usize = 7;

/// The perft depth checked for each game (kept small: the reference is slow).
fn depth_of(variant: Variant) -> u32 {
    match variant {
        Variant::Dreierschach | Variant::Pyramid | Variant::PyramidEp => 2,
        _ => 3,
    }
}

/// Positions from a random game of `variant` with seed `seed`: every
/// `CHECK_EVERY`-th and the last.
fn random_positions(variant: Variant, after_mate: AfterMate, seed: u64) -> Vec<String> {
    let mut positions = Vec::new();
    let mut ply = 0;
    random_games::play_random_game(variant, after_mate, seed, |pos, m| {
        if m.is_none() || (ply > 0 && ply % CHECK_EVERY == 0) {
            positions.push(pos.fen());
        }
        ply += 1;
    });
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
        for &mode in random_games::rule_modes(variant) {
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

/// Games per game id for the key test (cheap: no perft).
const KEY_GAMES: u64 = 300;

/// The key of every position reached in a random game equals the key of
/// its written form read back, and the written form reads back to itself:
/// the incremental key and the position string describe the same state.
#[test]
fn keys_of_random_positions_are_those_of_their_written_form() {
    let mut cases = Vec::new();
    for variant in Variant::ALL {
        for &mode in random_games::rule_modes(variant) {
            for seed in 0..KEY_GAMES {
                cases.push((variant, mode, seed * 104_729 + variant as u64));
            }
        }
    }
    let failures: Vec<String> = cases
        .par_iter()
        .filter_map(|&(variant, mode, seed)| {
            let mut failure = None;
            random_games::play_random_game(variant, mode, seed, |pos, _| {
                if failure.is_some() {
                    return;
                }
                let fen = pos.fen();
                failure = match Position::from_fen_with(variant, &fen, mode) {
                    Ok(read) if read.hash() == pos.hash() && read.fen() == fen => None,
                    Ok(read) => Some(format!(
                        "{variant} {} seed {seed}: key {:016X} but {fen} reads back with key {:016X} as {}",
                        mode.name(),
                        pos.hash(),
                        read.hash(),
                        read.fen()
                    )),
                    Err(e) => Some(format!("{variant} seed {seed}: {fen} is refused: {e}")),
                };
            });
            failure
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} games:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
