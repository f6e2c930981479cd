//! The single-move legality test (`Position::is_legal`, used for the
//! table's move before any generation) must agree with the full generator:
//! on positions from random games of every game, each legal move is legal,
//! and the moves of the previous position and of the next player are
//! legal exactly when the generator lists them.

#[path = "data/random_games.rs"]
mod random_games;

use triskel::moves::Move;
use triskel::position::Position;
use triskel::variants::Variant;

/// Random games per game and rule mode.
const GAMES: u64 = 4;

/// The moves a table could hand to `pos` by mistake: the last position's
/// moves and the moves of the next player (a null move).
fn foreign_moves(pos: &Position, previous: &[Move]) -> Vec<Move> {
    let mut moves = previous.to_vec();
    let mut passed = pos.scratch_copy();
    if !passed.in_check() {
        let undo = passed.make_null();
        moves.extend(passed.legal_moves());
        passed.unmake_null(&undo);
    }
    moves.push(Move::NONE);
    moves.push(Move::PASS);
    moves
}

#[test]
fn single_move_legality_agrees_with_the_generator() {
    let mut checked = 0;
    for variant in Variant::ALL {
        for &mode in random_games::rule_modes(variant) {
            for seed in 0..GAMES {
                let mut previous = Vec::new();
                random_games::play_random_game(variant, mode, seed * 31 + 5, |pos, _| {
                    let legal = pos.legal_moves();
                    for &m in &legal {
                        assert!(pos.is_legal(m), "{variant}: {m:?} refused in {}", pos.fen());
                    }
                    for m in foreign_moves(pos, &previous) {
                        assert_eq!(
                            pos.is_legal(m),
                            legal.contains(&m),
                            "{variant}: {m:?} in {}",
                            pos.fen()
                        );
                        checked += 1;
                    }
                    previous = legal.to_vec();
                });
            }
        }
    }
    assert!(checked > 10_000, "only {checked} foreign moves checked");
}
