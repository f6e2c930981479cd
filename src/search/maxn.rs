//! Max-n: every player maximises its own score. Scores are utilities that
//! sum to zero over the players in the game, so a parent's player can
//! prune a child as soon as the child's mover has secured more than the
//! parent's player could still get there (shallow pruning).

use super::alphabeta::{Generate, MovesSearched, RootMove, Worker};
use super::ordering::MAX_PLY;
use super::tt::{Bound, TtEntry};
use super::{Progress, WIN_SCORE, eval};
use crate::moves::Move;
use crate::rules::{self, EndReason, Outcome};
use crate::types::{MAX_PLAYERS, Player};

/// A utility per player.
type Utilities = [i32; MAX_PLAYERS];

/// Largest evaluation utility, below every decided score.
const EVAL_LIMIT: i32 = WIN_SCORE / 4;
/// Quiescence plies of max-n.
const QUIESCENCE_PLIES: u32 = 3;
/// Captures tried per max-n quiescence node (most valuable victims first).
const QUIESCENCE_WIDTH: usize = 6;

impl Worker<'_> {
    /// Max-n at the root: each root move valued by the root player's utility.
    /// `skipped` root moves come before `moves` (see `search_root`).
    pub(super) fn search_root_maxn(
        &mut self,
        moves: &mut [RootMove],
        depth: i32,
        skipped: usize,
        report: &mut dyn FnMut(&Progress),
    ) {
        let mut best = -WIN_SCORE - 1;
        let mut best_index = 0;
        for (i, root_move) in moves.iter_mut().enumerate() {
            let m = root_move.mv;
            self.announce(depth, m, skipped + i + 1, report);
            let undo = self.play(m);
            let values = self.maxn(depth - 1, 1, None);
            self.take_back(m, &undo);
            if self.aborted {
                break;
            }
            let value = values[self.root.index()];
            root_move.score = value;
            let mut line = vec![m];
            line.extend_from_slice(&self.pv[1]);
            root_move.pv = line;
            if value > best {
                best = value;
                best_index = i;
            }
        }
        moves[..=best_index].rotate_right(1);
    }

    /// Utilities from the static evaluation: each player's score against
    /// the mean of the players in the game.
    /// The mean runs over every player of the game, those out included
    /// (they score nothing), so utilities keep one scale when a player
    /// leaves and a capture that ends phase A is valued like any other gain.
    fn utilities(&mut self) -> Utilities {
        let scores = eval::evaluate_with(&self.pos, &mut self.reaches.evaluated);
        let players = self.pos.game().players;
        let mean = scores[..players].iter().sum::<i32>() / players.max(1) as i32;
        let mut u = [0; MAX_PLAYERS];
        for (slot, score) in u.iter_mut().zip(scores).take(players) {
            *slot = (score - mean).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        balance(&mut u, players);
        u
    }

    /// Utilities of an ended game: each player's points against the mean.
    fn outcome_utilities(&self, outcome: &Outcome, ply: usize) -> Utilities {
        let players = self.pos.game().players;
        let best = super::outcome_scale(outcome);
        let mean = outcome.points.iter().take(players).sum::<f64>() / players as f64;
        let scale = f64::from(WIN_SCORE - ply as i32) / best;
        let mut u = [0; MAX_PLAYERS];
        for (p, slot) in u.iter_mut().enumerate().take(players) {
            *slot = ((outcome.points[p] - mean) * scale).round() as i32;
        }
        balance(&mut u, players);
        u
    }

    /// Utilities of an end that needs no move generation, if any.
    fn end_utilities(&self, ply: usize) -> Option<Utilities> {
        let pos = &self.pos;
        let outcome = if rules::finished_by_rule(pos) {
            pos.outcome()
                .unwrap_or_else(|| pos.drawn(EndReason::LastPlayer))
        } else if pos.is_repetition(1) {
            pos.drawn(EndReason::Repetition)
        } else {
            pos.draw_outcome()?
        };
        Some(self.outcome_utilities(&outcome, ply))
    }

    /// The max-n value of the current position. `parent` is the parent's
    /// mover and the utility it has secured so far (for shallow pruning).
    fn maxn(&mut self, depth: i32, ply: usize, parent: Option<(Player, i32)>) -> Utilities {
        if depth <= 0 || ply >= MAX_PLY {
            // A leaf: the quiescence search visits (and counts) it.
            return self.maxn_quiesce(ply, 0);
        }
        self.pv[ply].clear();
        if self.visit(ply) {
            return [0; MAX_PLAYERS];
        }
        if let Some(u) = self.end_utilities(ply) {
            return u;
        }
        let key = self.key();
        let entry = self.shared.tt.probe(key);
        if let Some(e) = entry
            && e.depth >= depth
            && e.bound == Bound::Exact
        {
            return e.scores;
        }
        let tt_move = entry.map_or(Move::NONE, |e| e.best);
        let mover = self.pos.to_move();
        let mut best: Option<Utilities> = None;
        let mut best_move = Move::NONE;
        let mut pruned = false;
        let searched = self.with_frame(Generate::All, tt_move, ply, |w, frame| {
            if frame.is_empty() {
                return MovesSearched::NoMoves;
            }
            while let Some(m) = w.stack.pick(frame) {
                let undo = w.play(m);
                let secured = best.map_or(-WIN_SCORE - 1, |b| b[mover.index()]);
                let values = w.maxn(depth - 1, ply + 1, Some((mover, secured)));
                w.take_back(m, &undo);
                if w.aborted {
                    return MovesSearched::Aborted;
                }
                if best.is_none_or(|b| values[mover.index()] > b[mover.index()]) {
                    best = Some(values);
                    best_move = m;
                    w.record_line(ply, m);
                }
                let mine = best.map_or(0, |b| b[mover.index()]);
                if let Some((p, secured)) = parent
                    && p != mover
                {
                    // Utilities sum to zero and none is below -WIN_SCORE, so
                    // the parent's player gets at most this much from here.
                    let ceiling = WIN_SCORE - mine;
                    if ceiling <= secured {
                        pruned = true;
                        w.reward_refutation(m, ply, depth, &[]);
                        break;
                    }
                }
            }
            MovesSearched::Done
        });
        match searched {
            MovesSearched::NoMoves => {
                let outcome = self.pos.outcome_without_moves();
                return self.outcome_utilities(&outcome, ply);
            }
            MovesSearched::Aborted => return [0; MAX_PLAYERS],
            MovesSearched::Done => {}
        }
        let best = best.unwrap_or([0; MAX_PLAYERS]);
        let bound = if pruned { Bound::Lower } else { Bound::Exact };
        self.shared.tt.store(
            key,
            TtEntry {
                best: best_move,
                depth,
                bound,
                scores: best,
                eval: 0,
            },
        );
        best
    }

    /// Max-n's quiescence: the mover may stand on the evaluation or take;
    /// a few plies of the most valuable captures.
    fn maxn_quiesce(&mut self, ply: usize, qply: u32) -> Utilities {
        self.pv[ply].clear();
        if self.visit(ply) {
            return [0; MAX_PLAYERS];
        }
        if let Some(u) = self.end_utilities(ply) {
            return u;
        }
        if self.pos.in_check() {
            // A mate ends the game: look whether the mover has a move at all.
            let mated =
                self.with_frame(Generate::All, Move::NONE, ply, |_, frame| frame.is_empty());
            if mated {
                let outcome = self.pos.outcome_without_moves();
                return self.outcome_utilities(&outcome, ply);
            }
        }
        let stand = self.utilities();
        if qply >= QUIESCENCE_PLIES || ply >= MAX_PLY {
            return stand;
        }
        let mover = self.pos.to_move();
        let mut best = stand;
        let aborted = self.with_frame(Generate::Tactical, Move::NONE, ply, |w, frame| {
            for _ in 0..QUIESCENCE_WIDTH {
                let Some(m) = w.stack.pick(frame) else {
                    break;
                };
                let undo = w.play(m);
                let values = w.maxn_quiesce(ply + 1, qply + 1);
                w.take_back(m, &undo);
                if w.aborted {
                    return true;
                }
                if values[mover.index()] > best[mover.index()] {
                    best = values;
                }
            }
            false
        });
        if aborted { [0; MAX_PLAYERS] } else { best }
    }
}

/// Makes the utilities of the game's `players` sum to exactly zero
/// (rounding and clamping can leave a remainder), taking it from the first.
fn balance(u: &mut Utilities, players: usize) {
    let sum: i32 = u[..players].iter().sum();
    if players > 0 {
        u[0] -= sum;
    }
}
