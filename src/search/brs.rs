//! The opponents' layer of best-reply search, improved (BRS+).
//!
//! After the root player moves, the other two move in turn. BRS+ treats
//! their two moves as one layer: either the first opponent searches all its
//! moves while the second answers with its first move by move ordering, or
//! the first plays its first ordered move and the second searches all its
//! moves. The layer's value is the best of all those lines for the
//! coalition. The turn order on the board stays real.

use super::alphabeta::{Generate, INFINITE, MovesSearched, NodeBest, Worker, table_cutoff};
use super::ordering::{Ordering, StaticChoice};
use crate::moves::Move;

/// Whether the second opponent searches all its moves or plays its first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reply {
    /// The second opponent plays its first move by move ordering.
    FirstOnly,
    /// The second opponent searches every move.
    All,
}

impl Worker<'_> {
    /// The opponents' layer at a position where the first opponent moves;
    /// the value is the coalition's (the side to move here).
    pub(super) fn best_reply_layer(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if let Some(value) = self.open_node(ply) {
            return value;
        }
        let pv_node = beta - alpha > 1;
        let key = self.key();
        let entry = self.shared.tt.probe(key);
        if !pv_node && let Some(score) = table_cutoff(entry, depth, ply, alpha, beta) {
            return score;
        }
        let tt_move = entry.map_or(Move::NONE, |e| e.best);
        let side = self.side();
        let mut best = NodeBest::new(-INFINITE, alpha, beta);
        let mut first_choice = Move::NONE;
        let searched = self.with_frame(Generate::All, tt_move, ply, |w, frame| {
            if frame.is_empty() {
                return MovesSearched::NoMoves;
            }
            first_choice = w
                .stack
                .moves(frame)
                .iter()
                .copied()
                .max_by_key(|&m| Ordering::static_key(&w.pos, m))
                .unwrap_or(Move::NONE);
            while let Some(m) = w.stack.pick(frame) {
                let undo = w.play(m);
                let (alpha, beta) = best.window();
                let value =
                    w.after_first_opponent(side, depth, ply + 1, alpha, beta, Reply::FirstOnly);
                w.take_back(m, &undo);
                if w.aborted {
                    return MovesSearched::Aborted;
                }
                if w.take_value(&mut best, ply, m, value, true) {
                    w.reward_refutation(m, ply, depth, &[]);
                    break;
                }
            }
            MovesSearched::Done
        });
        match searched {
            MovesSearched::NoMoves => return self.value_without_moves(ply),
            MovesSearched::Aborted => return 0,
            MovesSearched::Done => {}
        }
        if best.alpha < best.beta && first_choice != Move::NONE {
            let undo = self.play(first_choice);
            let (alpha, beta) = best.window();
            let value = self.after_first_opponent(side, depth, ply + 1, alpha, beta, Reply::All);
            self.take_back(first_choice, &undo);
            if self.aborted {
                return 0;
            }
            self.take_value(&mut best, ply, first_choice, value, true);
        }
        self.store_value(key, best.m, depth, ply, best.value, (alpha, beta));
        best.value
    }

    /// Continues the layer after the first opponent's move: the second
    /// opponent replies as `reply` says, then the root player's layer follows.
    /// Values are the coalition's (`side`).
    fn after_first_opponent(
        &mut self,
        side: i32,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        reply: Reply,
    ) -> i32 {
        self.pv[ply].clear();
        if self.side() != side {
            return self.child(side, depth - 1, ply, alpha, beta);
        }
        if self.visit(ply) {
            return 0;
        }
        if let Some(v) = self.early_end(ply) {
            return self.for_side(v);
        }
        if reply == Reply::FirstOnly {
            let known = self.reaches.of_mover(&self.pos);
            let Some(m) = StaticChoice::first_move_knowing(&self.pos, known) else {
                return self.value_without_moves(ply);
            };
            let undo = self.play(m);
            let value = self.child(side, depth - 1, ply + 1, alpha, beta);
            self.take_back(m, &undo);
            if self.aborted {
                return 0;
            }
            self.record_line(ply, m);
            return value;
        }
        let tt_move = self
            .shared
            .tt
            .probe(self.key())
            .map_or(Move::NONE, |e| e.best);
        let mut best = NodeBest::new(-INFINITE, alpha, beta);
        let searched = self.with_frame(Generate::All, tt_move, ply, |w, frame| {
            if frame.is_empty() {
                return MovesSearched::NoMoves;
            }
            while let Some(m) = w.stack.pick(frame) {
                let undo = w.play(m);
                let (alpha, beta) = best.window();
                let value = w.child(side, depth - 1, ply + 1, alpha, beta);
                w.take_back(m, &undo);
                if w.aborted {
                    return MovesSearched::Aborted;
                }
                if w.take_value(&mut best, ply, m, value, true) {
                    break;
                }
            }
            MovesSearched::Done
        });
        match searched {
            MovesSearched::NoMoves => self.value_without_moves(ply),
            MovesSearched::Aborted => 0,
            MovesSearched::Done => best.value,
        }
    }

    /// The principal variation at `ply`: `m`, then the line below.
    pub(super) fn record_line(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }
}
