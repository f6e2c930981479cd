//! Move ordering: the table's move first, then captures by victim and
//! attacker, promotions, the killer moves of the ply, and quiet moves by
//! their history.

use super::eval::EvalTables;
use crate::bitboard::Bitboard;
use crate::moves::MoveSink;
use crate::moves::{Move, MoveKind};
use crate::position::KnownReaches;
use crate::position::Position;
use crate::types::{Cell, MAX_CELLS, MAX_PLAYERS, PieceKind};

/// Plies with killer slots.
pub const MAX_PLY: usize = 128;

/// Ordering keys, highest first.
const TT_MOVE: i32 = 2_000_000_000;
const CAPTURE: i32 = 1_000_000_000;
const PROMOTION: i32 = 900_000_000;
const KILLER: i32 = 800_000_000;
/// Every static key of a capture or promotion is above this, every quiet
/// move's below.
const TACTICAL_KEYS: i32 = PROMOTION / 2;
/// History values stay below this (they are halved when one reaches it).
const HISTORY_LIMIT: i32 = 1 << 24;

/// Per-thread ordering statistics.
pub struct Ordering {
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering {
            killers: vec![[Move::NONE; 2]; MAX_PLY + 1],
            history: vec![0; MAX_PLAYERS * MAX_CELLS * MAX_CELLS],
        }
    }
}

impl Ordering {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = Ordering::default();
    }

    fn history_slot(pos: &Position, m: Move) -> usize {
        pos.to_move().index() * MAX_CELLS * MAX_CELLS + m.cells_index()
    }

    /// Whether `m` takes a piece or promotes.
    #[inline(always)]
    pub fn is_tactical(pos: &Position, m: Move) -> bool {
        if m.is_plain() {
            pos.piece_at(m.to()).is_some()
        } else {
            m.promotes() || m.kind() == MoveKind::EnPassant
        }
    }

    /// The ordering key of a capture or promotion: most valuable victim
    /// first, least valuable attacker breaking ties.
    pub fn tactical_key(pos: &Position, m: Move) -> i32 {
        Self::tactical_key_in(EvalTables::of(pos.variant()), pos, m)
    }

    /// [`Ordering::tactical_key`] with the game's tables at hand.
    #[inline(always)]
    fn tactical_key_in(tables: &EvalTables, pos: &Position, m: Move) -> i32 {
        let values = &tables.values;
        let victim = match m.kind() {
            MoveKind::EnPassant => values[PieceKind::Pawn.index()],
            _ => pos.piece_at(m.to()).map_or(0, |p| values[p.kind().index()]),
        };
        let attacker = pos
            .piece_at(m.from())
            .map_or(0, |p| values[p.kind().index()]);
        let promotion = m.promotion_kind().map_or(0, |k| values[k.index()]);
        let base = if victim > 0 { CAPTURE } else { PROMOTION };
        base + 16 * (victim + promotion) - attacker / 16
    }

    /// The ordering key of the moves of `pos` at `ply`: `tt_move` first,
    /// then captures and promotions, killers, and quiet moves by history.
    /// What every move needs (killers, the mover's history, the tables) is
    /// looked up once.
    #[inline(always)]
    pub fn keyer<'a>(
        &'a self,
        pos: &'a Position,
        tt_move: Move,
        ply: usize,
    ) -> impl Fn(Move) -> i32 + 'a {
        let killers = self.killers[ply.min(MAX_PLY)];
        let start = pos.to_move().index() * MAX_CELLS * MAX_CELLS;
        let history = &self.history[start..start + MAX_CELLS * MAX_CELLS];
        let tables = EvalTables::of(pos.variant());
        move |m| {
            if m == tt_move {
                TT_MOVE
            } else if Self::is_tactical(pos, m) {
                Self::tactical_key_in(tables, pos, m)
            } else if m == killers[0] {
                KILLER + 1
            } else if m == killers[1] {
                KILLER
            } else {
                history[m.cells_index()]
            }
        }
    }

    /// An ordering key that depends on the position alone (not on what
    /// this thread has learnt): captures and promotions by value, then quiet
    /// moves by the gain of their piece-square value. Best-reply search
    /// picks the opponents' "first move by move ordering" with it, so every
    /// thread values a position alike.
    pub fn static_key(pos: &Position, m: Move) -> i32 {
        Self::static_key_in(EvalTables::of(pos.variant()), pos, m)
    }

    /// [`Ordering::static_key`] with the game's tables at hand.
    #[inline(always)]
    fn static_key_in(tables: &EvalTables, pos: &Position, m: Move) -> i32 {
        if Self::is_tactical(pos, m) {
            return Self::tactical_key_in(tables, pos, m);
        }
        match pos.piece_at(m.from()) {
            Some(piece) if !m.is_pass() => {
                tables.piece_square(piece, m.to()) - tables.piece_square(piece, m.from())
            }
            _ => 0,
        }
    }

    /// Records that quiet move `m` refuted a position at `ply` searched to `depth`.
    pub fn reward(&mut self, pos: &Position, m: Move, ply: usize, depth: i32, tried: &[Move]) {
        let slot = &mut self.killers[ply.min(MAX_PLY)];
        if slot[0] != m {
            slot[1] = slot[0];
            slot[0] = m;
        }
        let bonus = (depth * depth).min(400);
        let h = Self::history_slot(pos, m);
        self.history[h] += bonus;
        for &other in tried {
            if other != m && !Self::is_tactical(pos, other) {
                let o = Self::history_slot(pos, other);
                self.history[o] -= bonus;
            }
        }
        if self.history[h] > HISTORY_LIMIT {
            for v in &mut self.history {
                *v /= 2;
            }
        }
    }
}

/// The move with the highest [`Ordering::static_key`] of those pushed, the
/// first one pushed on ties: the "first move by move ordering" that an
/// opponent plays in best-reply search without searching its moves. As a
/// [`MoveSink`] it takes the moves straight from the generator, without
/// listing them, skips quiet moves once a capture or promotion is found,
/// and, once it knows there is none, the pieces whose quiet moves cannot
/// beat the best one found ([`StaticChoice::first_move`]).
pub struct StaticChoice<'a> {
    pos: &'a Position,
    tables: &'static EvalTables,
    best_key: i32,
    best: Option<Move>,
    /// The position is known to have no capture or promotion: a piece whose
    /// quiet moves cannot beat the best so far is skipped.
    quiet_only: bool,
}

impl<'a> StaticChoice<'a> {
    /// No move yet, in `pos`.
    fn new(pos: &'a Position) -> StaticChoice<'a> {
        StaticChoice {
            pos,
            tables: EvalTables::of(pos.variant()),
            best_key: i32::MIN,
            best: None,
            quiet_only: false,
        }
    }

    /// The first move of `pos` by [`Ordering::static_key`] (the first
    /// generated of equals), none without a legal move. The position must
    /// be in play.
    ///
    /// Every capture or promotion comes before every quiet move, so where
    /// the game adds no moves of its own the tactical moves are looked at
    /// first, and only without one the quiet moves, skipping the pieces
    /// that cannot gain more than the best quiet move found so far.
    pub fn first_move(pos: &'a Position) -> Option<Move> {
        Self::first_move_knowing(pos, KnownReaches::NONE)
    }

    /// [`StaticChoice::first_move`], taking the officers' reaches from
    /// `known` where it has them.
    pub fn first_move_knowing(pos: &'a Position, known: KnownReaches) -> Option<Move> {
        let mut choice = StaticChoice::new(pos);
        if pos.only_standard_moves() {
            pos.generate_standard_staged_knowing(known, &mut choice, |choice| {
                choice.quiet_only = choice.best.is_none();
                choice.quiet_only
            });
        } else {
            pos.generate_moves_in_play_knowing(known, &mut choice);
        }
        choice.best
    }

    /// Keeps `m` if it is the first move or beats the best so far, by
    /// selection rather than a branch: which move beats the best so far is
    /// as good as random.
    #[inline(always)]
    fn offer(&mut self, key: i32, m: Move) {
        let better = self.best.is_none() | (key > self.best_key);
        self.best_key = if better { key } else { self.best_key };
        self.best = if better { Some(m) } else { self.best };
    }
}

impl MoveSink for StaticChoice<'_> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.offer(Ordering::static_key_in(self.tables, self.pos, m), m);
    }

    #[inline(always)]
    fn skips(&self, from: Cell) -> bool {
        self.quiet_only
            && self.best.is_some()
            && self
                .pos
                .piece_at(from)
                .is_some_and(|piece| self.tables.quiet_gain_bound(piece, from) <= self.best_key)
    }

    /// Captures first (a capture and a quiet move never tie), then the
    /// quiet moves by their piece's gain, unless a capture has been found.
    #[inline(always)]
    fn push_targets(&mut self, from: Cell, targets: Bitboard) {
        let occupied = self.pos.occupied();
        (targets & occupied)
            .into_iter()
            .for_each(|to| self.push(Move::normal(from, to)));
        if self.best_key > TACTICAL_KEYS {
            return;
        }
        let Some(piece) = self.pos.piece_at(from) else {
            return;
        };
        let before = self.tables.piece_square(piece, from);
        (targets & !occupied).into_iter().for_each(|to| {
            let gain = self.tables.piece_square(piece, to) - before;
            self.offer(gain, Move::normal(from, to));
        });
    }
}

/// The moves of every node on the search path, one frame per node, in one
/// buffer that grows once and is reused (no fixed-size list is copied per node).
///
/// Each move's ordering key is packed with its place in the buffer into one
/// `u64` (`pack`), so that the best move left in a frame (the first one
/// on equal keys) is a plain maximum over the frame's packed keys.
#[derive(Default)]
pub struct MoveStack {
    moves: Vec<Move>,
    keys: Vec<u64>,
}

/// An ordering key and a place in the buffer as one number ordered by key,
/// then by place, earlier first.
#[inline(always)]
fn pack(key: i32, place: usize) -> u64 {
    let ordered_key = (key as u32) ^ (1 << 31);
    (u64::from(ordered_key) << 32) | u64::from(!(place as u32))
}

/// The place in the buffer packed by [`pack`].
#[inline(always)]
fn place_of(packed: u64) -> usize {
    !(packed as u32) as usize
}

/// The key packed by [`pack`].
#[inline(always)]
fn key_of(packed: u64) -> i32 {
    ((packed >> 32) as u32 ^ (1 << 31)) as i32
}

/// One node's moves on the [`MoveStack`]: `start..end`, of which those
/// before `next` have been handed out.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    start: usize,
    end: usize,
    next: usize,
}

impl Frame {
    /// Number of moves.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the node has no move.
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// Collects generated moves onto the stack.
pub struct StackSink<'a>(&'a mut Vec<Move>);

impl MoveSink for StackSink<'_> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.0.push(m);
    }
}

impl MoveStack {
    /// Generates moves with `generate` into a new frame on top and keys
    /// them with `key`.
    pub fn push(
        &mut self,
        generate: impl FnOnce(&mut StackSink),
        key: impl Fn(Move) -> i32,
    ) -> Frame {
        let start = self.moves.len();
        generate(&mut StackSink(&mut self.moves));
        let end = self.moves.len();
        self.keys.truncate(start);
        self.keys.extend(
            self.moves[start..end]
                .iter()
                .enumerate()
                .map(|(i, &m)| pack(key(m), start + i)),
        );
        Frame {
            start,
            end,
            next: start,
        }
    }

    /// The best move of `frame` not handed out yet (the first of equals).
    pub fn pick(&mut self, frame: &mut Frame) -> Option<Move> {
        let next = frame.next;
        let left = self
            .keys
            .get(next..frame.end)
            .filter(|keys| !keys.is_empty())?;
        // A fold without branches (packed keys are unique and above zero),
        // which the compiler turns into vector maxima; `Iterator::max`
        // branches on every comparison, and which way is as good as random.
        let best = place_of(left.iter().fold(0, |best, &key| best.max(key)));
        self.moves.swap(next, best);
        let (leaving, arriving) = (key_of(self.keys[next]), key_of(self.keys[best]));
        self.keys[next] = pack(arriving, next);
        self.keys[best] = pack(leaving, best);
        frame.next += 1;
        Some(self.moves[next])
    }

    /// All moves of `frame`.
    pub fn moves(&self, frame: &Frame) -> &[Move] {
        &self.moves[frame.start..frame.end]
    }

    /// The moves of `frame` handed out so far, in order.
    pub fn handed_out(&self, frame: &Frame) -> &[Move] {
        &self.moves[frame.start..frame.next]
    }

    /// Removes `frame` (and anything above it).
    pub fn pop(&mut self, frame: Frame) {
        self.moves.truncate(frame.start);
        self.keys.truncate(frame.start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Cell;

    /// The selection the stack must reproduce: the first of the highest
    /// keys left, swapped to the front.
    fn selection_order(mut entries: Vec<(Move, i32)>) -> Vec<Move> {
        let mut order = Vec::new();
        for next in 0..entries.len() {
            let mut best = next;
            for i in next + 1..entries.len() {
                if entries[i].1 > entries[best].1 {
                    best = i;
                }
            }
            entries.swap(next, best);
            order.push(entries[next].0);
        }
        order
    }

    #[test]
    fn picks_the_first_of_the_highest_keys() {
        let mut state = 7u32;
        let mut stack = MoveStack::default();
        let below = stack.push(
            |sink| sink.push(Move::normal(Cell::new(1), Cell::new(2))),
            |_| 0,
        );
        // Frames of up to 96 moves: several rounds of the vector maxima.
        for round in 0..120 {
            let entries: Vec<(Move, i32)> = (0..(round % 97))
                .map(|i| {
                    state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    let key = [i32::MIN, -3, 0, 5, 5, i32::MAX][(state >> 16) as usize % 6];
                    (Move::normal(Cell::new(i as u8), Cell::new(100)), key)
                })
                .collect();
            let keys: Vec<(Move, i32)> = entries.clone();
            let mut frame = stack.push(
                |sink| entries.iter().for_each(|&(m, _)| sink.push(m)),
                |m| {
                    keys.iter()
                        .find(|&&(k, _)| k == m)
                        .map_or(0, |&(_, key)| key)
                },
            );
            let mut picked = Vec::new();
            while let Some(m) = stack.pick(&mut frame) {
                picked.push(m);
            }
            assert_eq!(picked, selection_order(entries), "round {round}");
            stack.pop(frame);
        }
        stack.pop(below);
    }
}
