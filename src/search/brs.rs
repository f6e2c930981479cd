//! The opponents' layer of best-reply search, improved (BRS+).
//!
//! After the root player moves, the other two move in turn. BRS+ treats
//! their two moves as one layer: either the first opponent searches all its
//! moves while the second answers with its first move by move ordering, or
//! the first plays its first ordered move and the second searches all its
//! moves. The layer's value is the best of all those lines for the
//! coalition. The turn order on the board stays real.

use super::alphabeta::{Generate, INFINITE, Worker, table_cutoff};
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
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv[ply].clear();
        if self.visit(ply) {
            return 0;
        }
        if let Some(v) = self.early_end(ply) {
            return self.for_side(v);
        }
        let pv_node = beta - alpha > 1;
        let key = self.key();
        let entry = self.shared.tt.probe(key);
        if !pv_node && let Some(score) = table_cutoff(entry, depth, ply, alpha, beta) {
            return score;
        }
        let tt_move = entry.map_or(Move::NONE, |e| e.best);
        let mut frame = self.frame(Generate::All, tt_move, ply);
        if frame.is_empty() {
            self.stack.pop(frame);
            return self.value_without_moves(ply);
        }
        let side = self.side();
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let first_choice = self
            .stack
            .moves(&frame)
            .iter()
            .copied()
            .max_by_key(|&m| Ordering::static_key(&self.pos, m))
            .unwrap_or(Move::NONE);
        while let Some(m) = self.stack.pick(&mut frame) {
            let undo = self.play(m);
            let value =
                self.after_first_opponent(side, depth, ply + 1, alpha, beta, Reply::FirstOnly);
            self.take_back(m, &undo);
            if self.aborted {
                self.stack.pop(frame);
                return 0;
            }
            if value > best {
                best = value;
                best_move = m;
                if value > alpha {
                    alpha = value;
                    self.record_line(ply, m);
                }
            }
            if alpha >= beta {
                if !Ordering::is_tactical(&self.pos, m) {
                    self.ordering.reward(&self.pos, m, ply, depth, &[]);
                }
                break;
            }
        }
        self.stack.pop(frame);
        if alpha < beta && first_choice != Move::NONE {
            let undo = self.play(first_choice);
            let value = self.after_first_opponent(side, depth, ply + 1, alpha, beta, Reply::All);
            self.take_back(first_choice, &undo);
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_move = first_choice;
                if value > alpha {
                    self.record_line(ply, first_choice);
                }
            }
        }
        self.store_value(key, best_move, depth, ply, best, (original_alpha, beta));
        best
    }

    /// Continues the layer after the first opponent's move: the second
    /// opponent replies as `reply` says, then the root player's layer follows.
    /// Values are the coalition's (`side`).
    fn after_first_opponent(
        &mut self,
        side: i32,
        depth: i32,
        ply: usize,
        mut alpha: i32,
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
        let mut frame = self.frame(Generate::All, tt_move, ply);
        if frame.is_empty() {
            self.stack.pop(frame);
            return self.value_without_moves(ply);
        }
        let mut best = -INFINITE;
        while let Some(m) = self.stack.pick(&mut frame) {
            let undo = self.play(m);
            let value = self.child(side, depth - 1, ply + 1, alpha, beta);
            self.take_back(m, &undo);
            if self.aborted {
                self.stack.pop(frame);
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    self.record_line(ply, m);
                }
            }
            if alpha >= beta {
                break;
            }
        }
        self.stack.pop(frame);
        best
    }

    /// The principal variation at `ply`: `m`, then the line below.
    pub(super) fn record_line(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }
}
