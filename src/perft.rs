//! Perft: counting the leaf nodes of the legal move tree, the proof that the
//! move generator is right.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

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
    divide_until(pos, depth, threads, &AtomicBool::new(false)).unwrap_or_default()
}

/// [`divide`] that gives up (returning `None`) soon after `stop` is raised:
/// each root move's subtree checks the flag before it starts and at every
/// node near the root.
pub fn divide_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    let moves = pos.legal_moves();
    let count = |&m: &Move| {
        let mut child = pos.clone();
        child.make(m);
        let nodes = if depth <= 1 {
            Some(1)
        } else {
            perft_until(&mut child, depth - 1, stop)
        };
        nodes.map(|n| (m, n))
    };
    // In parallel, each root move's subtree is split once more by its
    // replies, so that the threads share out many small tasks of uneven size.
    let count_split = |&m: &Move| {
        let mut child = pos.clone();
        child.make(m);
        if depth <= 2 {
            return (!stop.load(Ordering::Relaxed)).then(|| (m, perft(&mut child, depth - 1)));
        }
        let replies = child.legal_moves();
        let nodes: Option<u64> = replies
            .par_iter()
            .map(|&r| {
                let mut grandchild = child.clone();
                grandchild.make(r);
                perft_until(&mut grandchild, depth - 2, stop)
            })
            .sum();
        nodes.map(|n| (m, n))
    };
    let lines: Option<Vec<(Move, u64)>> = if threads <= 1 || depth < 2 {
        moves.iter().map(count).collect()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| moves.par_iter().map(count_split).collect()),
            Err(_) => moves.iter().map(count).collect(),
        }
    };
    lines.filter(|_| !stop.load(Ordering::Relaxed))
}

/// Depth at and below which subtrees are counted without looking at the
/// stop flag: a node one ply above the bulk-counted leaves, at most a few
/// thousand moves (about 0.1 ms), so `stop` is heard within well under a
/// millisecond of work on each thread. One flag read per such node costs
/// nothing measurable beside its move generation.
const UNCHECKED_DEPTH: u32 = 1;

/// [`perft`] that gives up when `stop` is raised.
fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= UNCHECKED_DEPTH {
        return Some(perft(pos, depth));
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut nodes = 0;
    for &m in &moves {
        let undo = pos.make(m);
        let below = perft_until(pos, depth - 1, stop);
        pos.unmake(m, &undo);
        nodes += below?;
    }
    Some(nodes)
}

/// Perft on `threads` threads (see [`divide`]).
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    divide(pos, depth, threads).iter().map(|(_, n)| n).sum()
}
