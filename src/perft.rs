//! Perft: counting the leaf nodes of the legal move tree, the proof that the
//! move generator is right.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use rayon::prelude::*;

/// The number of leaf nodes `depth` moves below `pos` (bulk-counted: the
/// last ply counts moves without playing them).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            let mut nodes = 0;
            for &m in &moves {
                let undo = pos.make(m);
                nodes += perft(pos, depth - 1);
                pos.unmake(m, &undo);
            }
            nodes
        }
    }
}

/// Perft split by root move, the root moves searched on `threads` threads
/// (1 = on this thread). Returns each root move with its count, in
/// generation order.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let count = |&m: &Move| {
        let mut child = pos.clone();
        child.make(m);
        (m, if depth <= 1 { 1 } else { perft(&mut child, depth - 1) })
    };
    if threads <= 1 {
        return moves.iter().map(count).collect();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
        Err(_) => moves.iter().map(count).collect(),
    }
}

/// Perft on `threads` threads (see [`divide`]).
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    divide(pos, depth, threads).iter().map(|(_, n)| n).sum()
}
