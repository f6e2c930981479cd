//! Checks, on positions from random games of every game, the shortcuts the
//! best-reply search takes to choose the passive opponent's move: the
//! generator's two stages (captures and promotions, then the rest) together
//! give the standard moves, each in the full generation's order, and the
//! choice that skips pieces by their piece-square bound is the first move
//! by static order of all legal moves. Reaches carried over from earlier
//! positions, as the search carries them, change neither.

#[path = "data/random_games.rs"]
mod random_games;

use triskel::moves::{Move, MoveKind, MoveList};
use triskel::position::Position;
use triskel::search::eval::{EvalTables, ReachCache};
use triskel::search::ordering::{Ordering, StaticChoice};
use triskel::variants::Variant;

/// Random games per game and rule mode.
const GAMES: u64 = 40;

/// Every position of `GAMES` random games of every game and rule mode
/// that is still in play (has a legal move).
fn positions_in_play() -> Vec<Position> {
    let mut positions = Vec::new();
    for variant in Variant::ALL {
        for &mode in random_games::rule_modes(variant) {
            for seed in 0..GAMES {
                random_games::play_random_game(variant, mode, seed * 104_729 + 17, |pos, m| {
                    if m.is_some() {
                        positions.push(pos.clone());
                    }
                });
            }
        }
    }
    positions
}

/// The moves as numbers, in order (to compare sets of moves).
fn sorted(moves: &[Move]) -> Vec<u32> {
    let mut bits: Vec<u32> = moves.iter().map(|m| m.bits()).collect();
    bits.sort_unstable();
    bits
}

#[test]
fn the_two_stages_split_the_standard_moves() {
    for pos in positions_in_play() {
        let fen = pos.fen();
        let mut staged = MoveList::new();
        let mut tactical_count = None;
        pos.generate_standard_staged(&mut staged, |moves| {
            tactical_count = Some(moves.len());
            true
        });
        let tactical_count = tactical_count.expect("asked after the first stage");
        let (tactical, quiet) = staged.split_at(tactical_count);

        let mut alone = MoveList::new();
        pos.generate_tactical(&mut alone);
        assert_eq!(
            tactical,
            &alone[..],
            "{fen}: the first stage is the tactical generation"
        );
        for &m in tactical {
            assert!(
                Ordering::is_tactical(&pos, m),
                "{fen}: {m:?} in the first stage"
            );
        }
        for &m in quiet {
            assert!(
                !Ordering::is_tactical(&pos, m),
                "{fen}: {m:?} in the second stage"
            );
        }
        if pos.only_standard_moves() {
            let legal = pos.legal_moves();
            assert_eq!(
                sorted(&staged),
                sorted(&legal),
                "{fen}: both stages give the legal moves"
            );
            // Each stage in the order of the full generation: the first of
            // equal keys is then the same whether found in stages or not.
            let (legal_tactical, legal_quiet): (Vec<Move>, Vec<Move>) =
                legal.iter().partition(|&&m| Ordering::is_tactical(&pos, m));
            assert_eq!(tactical, &legal_tactical[..], "{fen}: tactical order");
            assert_eq!(quiet, &legal_quiet[..], "{fen}: quiet order");
        }
    }
}

#[test]
fn the_static_choice_is_the_first_legal_move_by_static_order() {
    for pos in positions_in_play() {
        // The first of the highest keys, in the order the moves are generated.
        let mut expected: Option<(i32, Move)> = None;
        for &m in pos.legal_moves().iter() {
            let key = Ordering::static_key(&pos, m);
            if expected.is_none_or(|(best, _)| key > best) {
                expected = Some((key, m));
            }
        }
        assert_eq!(
            StaticChoice::first_move(&pos),
            expected.map(|(_, m)| m),
            "{}",
            pos.fen()
        );
    }
}

#[test]
fn reaches_carried_from_position_to_position_change_no_move() {
    // One cache per player, brought up to date for its own officers in each
    // position where it moves, as the search keeps them.
    let mut caches: [ReachCache; 3] = Default::default();
    for pos in positions_in_play() {
        let mover = pos.to_move();
        let cache = &mut caches[mover.index()];
        cache.update(&pos, pos.pieces_of(mover));
        let known = cache.known(&pos);
        let fen = pos.fen();
        assert_eq!(
            StaticChoice::first_move_knowing(&pos, known),
            StaticChoice::first_move(&pos),
            "{fen}: the static choice"
        );
        let (mut fresh, mut carried) = (MoveList::new(), MoveList::new());
        pos.generate_tactical(&mut fresh);
        pos.generate_tactical_knowing(known, &mut carried);
        assert_eq!(carried, fresh, "{fen}: the captures and promotions");
        let (mut fresh, mut carried) = (MoveList::new(), MoveList::new());
        pos.generate_standard_staged(&mut fresh, |_| true);
        pos.generate_standard_staged_knowing(known, &mut carried, |_| true);
        assert_eq!(carried, fresh, "{fen}: both stages");
        let (mut fresh, mut carried) = (MoveList::new(), MoveList::new());
        pos.generate_moves_in_play(&mut fresh);
        pos.generate_moves_in_play_knowing(known, &mut carried);
        assert_eq!(carried, fresh, "{fen}: every move, the game's own included");
    }
}

#[test]
fn no_quiet_move_gains_more_than_its_bound() {
    for pos in positions_in_play() {
        let tables = EvalTables::of(pos.variant());
        for &m in pos.legal_moves().iter() {
            if Ordering::is_tactical(&pos, m)
                || matches!(m.kind(), MoveKind::Castle | MoveKind::Pass)
            {
                continue;
            }
            let piece = pos.piece_at(m.from()).expect("a piece moves");
            let gain = tables.piece_square(piece, m.to()) - tables.piece_square(piece, m.from());
            assert!(
                gain <= tables.quiet_gain_bound(piece, m.from()),
                "{}: {m:?} gains {gain}",
                pos.fen()
            );
        }
    }
}
