//! Who sits where, and where each round starts.
//!
//! A round is every seating of the match's configurations once, all from
//! the same opening:
//!
//! - two-player games: both colours (2 games);
//! - three players, three configurations A, B, C: all 6 orders;
//! - three players, two configurations A, B: A,A,B and A,B,B in each of
//!   their 3 orders (6 games), so that each configuration holds every seat
//!   equally often and sits twice in half of the games.

use super::player::{SeededRng, random_move};
use crate::game::Variant;
use crate::position::Position;

/// Seatings in a round of a three-player game.
pub const THREE_PLAYER_ROUND: usize = 6;

/// Tries at a random opening that does not end the game before giving up
/// and starting from the start position.
const OPENING_TRIES: usize = 100;

/// The seatings of one round: for each game, the configuration (index into
/// the match's list) in each seat, in turn order.
pub fn seatings(players: usize, configs: usize) -> Result<Vec<Vec<usize>>, String> {
    match (players, configs) {
        (2, 2) => Ok(vec![vec![0, 1], vec![1, 0]]),
        (3, 3) => Ok(permutations(3)),
        (3, 2) => {
            let odd_one_out = |single: usize, other: usize| {
                (0..players).rev().map(move |seat| {
                    (0..players)
                        .map(|s| if s == seat { single } else { other })
                        .collect::<Vec<_>>()
                })
            };
            Ok(odd_one_out(1, 0).chain(odd_one_out(0, 1)).collect())
        }
        _ => Err(format!(
            "a game of {players} players takes {} configurations, not {configs}",
            if players == 2 { "2" } else { "2 or 3" }
        )),
    }
}

/// All orders of `0..n`, in lexicographic order.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for first in 0..n {
        for rest in permutations(n - 1) {
            let mut order = vec![first];
            order.extend(rest.into_iter().map(|x| if x >= first { x + 1 } else { x }));
            all.push(order);
        }
    }
    all
}

/// The start of the games of one round.
#[derive(Clone)]
pub struct Opening {
    /// The position the opening's plies start from, in the position format
    /// (`None`: the game's start position).
    pub from: Option<String>,
    /// The opening's plies (random ones, or a book's), on the wire.
    pub moves: Vec<String>,
    /// The position after them (with their history, for repetitions).
    pub position: Position,
}

/// `plies` random legal plies from the start position of `variant`, drawn
/// from `seed`, that leave the game going on; if no try does, fewer plies.
pub fn random_opening(variant: Variant, plies: usize, seed: u64) -> Opening {
    let mut rng = SeededRng::new(seed);
    for want in (0..=plies).rev() {
        for _ in 0..OPENING_TRIES {
            if let Some(opening) = try_opening(variant, want, &mut rng) {
                return opening;
            }
        }
    }
    Opening {
        from: None,
        moves: Vec::new(),
        position: Position::start(variant),
    }
}

/// One try at an opening of `plies` random plies.
fn try_opening(variant: Variant, plies: usize, rng: &mut SeededRng) -> Option<Opening> {
    let mut position = Position::start(variant);
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        if position.outcome_with_claims().is_some() {
            return None;
        }
        let m = random_move(&position, rng);
        moves.push(position.move_text(m));
        position.make(m);
    }
    (position.outcome_with_claims().is_none() && is_fair_start(&position)).then_some(Opening {
        from: None,
        moves,
        position,
    })
}

/// Whether a position is a fair start for a match: every player of the game
/// still in, and no king attacked. (Random plies can leave a Hexenschach
/// Rabe capturable in phase A, which has no check: such a game would be
/// decided before its players move.)
pub fn is_fair_start(position: &Position) -> bool {
    let in_game = position.state().in_game;
    if in_game.count() < position.game().players {
        return false;
    }
    in_game.iter().all(|player| {
        position.king_of(player).is_none_or(|king| {
            !position.is_attacked_by(king, position.state().active().without(player))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn three_configurations_get_all_six_orders() {
        let s = seatings(3, 3).unwrap();
        assert_eq!(s.len(), THREE_PLAYER_ROUND);
        assert_eq!(s.iter().collect::<HashSet<_>>().len(), THREE_PLAYER_ROUND);
    }

    #[test]
    fn a_pairing_of_two_in_a_three_player_game_is_balanced() {
        let s = seatings(3, 2).unwrap();
        assert_eq!(s.len(), THREE_PLAYER_ROUND);
        assert_eq!(s.iter().collect::<HashSet<_>>().len(), THREE_PLAYER_ROUND);
        for seat in 0..3 {
            let a = s.iter().filter(|g| g[seat] == 0).count();
            assert_eq!(a, THREE_PLAYER_ROUND / 2, "seat {seat}");
        }
        for config in 0..2 {
            let doubled = s
                .iter()
                .filter(|g| g.iter().filter(|&&c| c == config).count() == 2)
                .count();
            assert_eq!(doubled, THREE_PLAYER_ROUND / 2);
        }
    }

    #[test]
    fn two_players_swap_colours_and_other_counts_fail() {
        assert_eq!(seatings(2, 2).unwrap(), vec![vec![0, 1], vec![1, 0]]);
        assert!(seatings(2, 3).is_err());
        assert!(seatings(3, 1).is_err());
    }

    #[test]
    fn openings_are_reproducible_and_go_on() {
        for variant in Variant::ALL {
            let a = random_opening(variant, 6, 42);
            let b = random_opening(variant, 6, 42);
            assert_eq!(a.moves, b.moves, "{variant}");
            assert_eq!(a.moves.len(), 6, "{variant}");
            assert!(a.position.outcome().is_none(), "{variant}");
            assert_eq!(a.position.hash(), b.position.hash());
        }
    }

    #[test]
    fn an_opening_with_a_capturable_rabe_is_not_a_fair_start() {
        // Red's knight on f4 can take Black's Rabe on i5 (phase A has no check).
        let fen = "wKwBwRwP1/1wQ1wPbP1/wRwNwPwPwBbPbR/wPwPwP2bPbNbN/1wN3bBbPbQbK/\
                   rPrPrP1rPrN1bB/rRrBrP2bPbR/rBrQ1rP1bP/rKrNrRrP1 r rKQwKQbKQ - 2 3";
        let position = Position::from_fen(Variant::Hexenschach, fen).expect("valid");
        assert!(!is_fair_start(&position));
        assert!(is_fair_start(&Position::start(Variant::Hexenschach)));
    }

    #[test]
    fn openings_are_fair_starts() {
        for seed in 0..40 {
            let opening = random_opening(Variant::Hexenschach, 6, seed);
            assert_eq!(opening.moves.len(), 6, "seed {seed}");
            assert!(is_fair_start(&opening.position), "seed {seed}");
        }
    }
}
