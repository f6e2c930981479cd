//! One search thread: iterative deepening with aspiration windows and
//! MultiPV at the root, principal-variation search for the scalar
//! algorithms (paranoid, and BRS+ whose opponents' layer lives here too),
//! and the quiescence search of captures and promotions.
//!
//! Scores are seen from the *side* to move: the root player's side, or the
//! coalition of all other players. A move that hands the turn to the other
//! side negates the score (negamax); a move within the coalition does not.

use super::ordering::{Frame, MAX_PLY, MoveStack, Ordering};
use super::tt::{Bound, TtEntry};
use super::{
    Algorithm, CURRENT_MOVE_AFTER, DECIDED_SCORE, Info, Options, Progress, Shared, WIN_SCORE,
    outcome_value,
};
use super::{eval, see};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Position, Undo};
use crate::rules::{self, EndReason, Outcome};
use crate::types::{MAX_PLAYERS, Piece, PieceKind, Player};
use std::sync::LazyLock;
use std::sync::atomic::Ordering as AtomicOrdering;
use std::time::Duration;

/// Larger than any score.
pub(super) const INFINITE: i32 = WIN_SCORE + 1;
/// Least remaining depth for a null move.
const NULL_MOVE_DEPTH: i32 = 3;
/// Depth a null move is searched less by, plus one per this many plies.
const NULL_MOVE_REDUCTION: i32 = 2;
const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;
/// Deepest remaining depth at which reverse futility pruning trusts the
/// static evaluation.
const REVERSE_FUTILITY_DEPTH: i32 = 6;
/// Margin per ply of remaining depth by which the static evaluation must
/// exceed beta for reverse futility pruning.
const REVERSE_FUTILITY_MARGIN: i32 = 80;
/// Deepest remaining depth at which quiet moves are pruned by futility
/// and by their lateness.
const FUTILITY_DEPTH: i32 = 3;
/// How far above alpha a quiet move must be able to lift the static
/// evaluation to be searched: this much plus [`FUTILITY_MARGIN_PER_PLY`]
/// per ply of remaining depth.
const FUTILITY_MARGIN: i32 = 100;
const FUTILITY_MARGIN_PER_PLY: i32 = 100;
/// Quiet moves a node at remaining depth `d` searches before the rest are
/// pruned: this many plus `d²`.
const LATE_MOVE_PRUNING_BASE: usize = 3;
/// Least depth and move index at which a quiet move is searched less deep
/// at first (a late-move reduction).
const LMR_DEPTH: i32 = 3;
const LMR_INDEX: usize = 3;
/// Late-move reductions in two-sided positions grow with the logarithms
/// of the depth and of the move's index: `LMR_BASE + ln d · ln i /
/// LMR_DIVISOR` plies, one less in PV nodes.
const LMR_BASE: f64 = 0.75;
const LMR_DIVISOR: f64 = 2.25;
/// Depths and move indices the reduction table covers (larger ones use its
/// last row and column).
const LMR_TABLE_SIZE: usize = 64;
/// In three-player positions a late quiet move is reduced one ply, and one
/// more from this index on.
const LMR_SECOND_PLY_INDEX: usize = 8;
/// First aspiration window half-width.
const ASPIRATION: i32 = 30;
/// Depth from which aspiration windows are used.
const ASPIRATION_DEPTH: u32 = 4;
/// Extra margin of delta pruning in the quiescence search.
const DELTA_MARGIN: i32 = 200;
/// Quiescence plies in which check evasions are searched in full.
const QUIESCENCE_EVASIONS: u32 = 2;
/// Fraction (per mille) of the soft time after which no new depth starts.
const NEW_DEPTH_SHARE: u32 = 550;
/// Keys that keep the table's entries apart per algorithm and root player.
const ALGORITHM_SALT: [u64; 3] = [
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
];
const ROOT_SALT: [u64; MAX_PLAYERS] = [
    0x27D4_EB2F_1656_67C5,
    0x85EB_CA77_C2B2_AE63,
    0xFF51_AFD7_ED55_8CCD,
];

/// The late-move reductions of two-sided positions by depth and move
/// index, in plies.
static LMR_TABLE: LazyLock<[[u8; LMR_TABLE_SIZE]; LMR_TABLE_SIZE]> = LazyLock::new(|| {
    let mut table = [[0; LMR_TABLE_SIZE]; LMR_TABLE_SIZE];
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (index, reduction) in row.iter_mut().enumerate().skip(1) {
            let plies = LMR_BASE + (depth as f64).ln() * (index as f64).ln() / LMR_DIVISOR;
            *reduction = plies as u8;
        }
    }
    table
});

/// How many plies a late quiet move, number `index` of a node searched to
/// `depth`, is searched less deep at first: from the logarithmic table
/// when two sides are left (one less in PV nodes, and at least one ply of
/// search left), else one or two plies.
fn late_move_reduction(depth: i32, index: usize, pv_node: bool, two_sides: bool) -> i32 {
    if two_sides {
        let row = (depth as usize).min(LMR_TABLE_SIZE - 1);
        let column = index.min(LMR_TABLE_SIZE - 1);
        (i32::from(LMR_TABLE[row][column]) - i32::from(pv_node)).clamp(0, depth - 2)
    } else {
        1 + i32::from(index >= LMR_SECOND_PLY_INDEX)
    }
}

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    pub(super) score: i32,
    pub(super) pv: Vec<Move>,
}

/// An iteration completed by some thread: the search's result so far.
#[derive(Clone, Debug, Default)]
pub(super) struct Completed {
    /// Its depth (0: none yet).
    pub(super) depth: u32,
    /// The deepest ply it reached.
    pub(super) seldepth: usize,
    /// The root moves of its principal variations, best first.
    pub(super) lines: Vec<RootMove>,
    /// The iteration was stopped before it completed, after a root move
    /// had been searched in full and proved better than the best move of
    /// the iteration before (as Stockfish, the search then plays it).
    pub(super) partial: bool,
}

/// What the main thread reported last.
#[derive(Clone, Copy, Default)]
struct Reported {
    depth: u32,
    nodes: u64,
}

/// One search thread.
pub(crate) struct Worker<'a> {
    pub(super) shared: &'a Shared<'a>,
    pub(super) options: &'a Options,
    pub(super) pos: Position,
    pub(super) ordering: &'a mut Ordering,
    pub(super) root: Player,
    id: usize,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) pv: Vec<Vec<Move>>,
    pub(super) aborted: bool,
    /// The depth of the iteration under way.
    iteration: u32,
    /// The iteration was given up because another thread completed it.
    superseded: bool,
    /// The first root move of the iteration under way (the best of the
    /// iteration before).
    lead: Move,
    /// A root move proved better than `lead` in the iteration under way,
    /// with its score and line as searched then (the latest such move).
    proven: Option<RootMove>,
    /// The main thread's last report.
    reported: Reported,
    pub(super) stack: MoveStack,
    activity_cache: Vec<Option<(u64, [i32; MAX_PLAYERS])>>,
    /// The officers' reaches carried from position to position.
    pub(super) reaches: Box<eval::SearchReaches>,
    /// Piece-square sums per army of the current position, and of the
    /// positions above it on the path.
    psq: [i32; MAX_PLAYERS],
    psq_path: Vec<[i32; MAX_PLAYERS]>,
    /// The evaluation's tables of the game searched.
    tables: &'static eval::EvalTables,
}

/// Entries of each thread's cache of the evaluation's activity part: small
/// enough (128 KB) to stay in the processor's second-level cache, where a
/// 1 MB cache missed it on most lookups. A power of two: a key's slot is
/// its low bits.
const ACTIVITY_CACHE: usize = 1 << 12;
const _: () = assert!(ACTIVITY_CACHE.is_power_of_two());

/// A scalar node's best move so far, its value, and the window's bounds
/// as the search raises alpha.
pub(super) struct NodeBest {
    /// The best value so far.
    pub(super) value: i32,
    /// Its move.
    pub(super) m: Move,
    /// The window's lower bound.
    pub(super) alpha: i32,
    /// The window's upper bound.
    pub(super) beta: i32,
}

impl NodeBest {
    /// No move yet, in the window `(alpha, beta)`, starting from `value`.
    pub(super) fn new(value: i32, alpha: i32, beta: i32) -> NodeBest {
        NodeBest {
            value,
            m: Move::NONE,
            alpha,
            beta,
        }
    }

    /// The window as it stands.
    pub(super) fn window(&self) -> (i32, i32) {
        (self.alpha, self.beta)
    }
}

/// How a node's loop over its moves ended.
pub(super) enum MovesSearched {
    /// Every move it needed was searched.
    Done,
    /// The node has no legal move.
    NoMoves,
    /// The search was stopped.
    Aborted,
}

/// Which moves a frame holds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Generate {
    /// Every legal move.
    All,
    /// Captures and promotions.
    Tactical,
}

impl<'a> Worker<'a> {
    /// A thread searching `pos`; `id` 0 is the main thread.
    pub fn new(
        shared: &'a Shared<'a>,
        options: &'a Options,
        pos: &Position,
        ordering: &'a mut Ordering,
        id: usize,
    ) -> Worker<'a> {
        Worker {
            shared,
            options,
            pos: pos.clone(),
            ordering,
            root: pos.to_move(),
            id,
            nodes: 0,
            seldepth: 0,
            pv: vec![Vec::new(); MAX_PLY + 2],
            aborted: false,
            iteration: 0,
            superseded: false,
            lead: Move::NONE,
            proven: None,
            reported: Reported::default(),
            stack: MoveStack::default(),
            activity_cache: vec![None; ACTIVITY_CACHE],
            reaches: Box::default(),
            psq: eval::piece_squares(pos),
            psq_path: Vec::with_capacity(MAX_PLY + 2),
            tables: eval::EvalTables::of(pos.variant()),
        }
    }

    /// Plays `m`, keeping the piece-square sums up to date.
    pub(super) fn play(&mut self, m: Move) -> Undo {
        let t = self.tables;
        let before = self.psq;
        let mut after = before;
        match m.kind() {
            MoveKind::Pass => {}
            MoveKind::Castle => {
                let c = &self.pos.game().castlings[m.castle_index()];
                let a = c.army.index();
                let king = Piece::new(c.army, PieceKind::King);
                let rook = Piece::new(c.army, PieceKind::Rook);
                after[a] += t.piece_square(king, c.king_to) - t.piece_square(king, c.king_from)
                    + t.piece_square(rook, c.rook_to)
                    - t.piece_square(rook, c.rook_from);
            }
            _ => {
                if let Some(piece) = self.pos.piece_at(m.from()) {
                    let a = piece.army().index();
                    let placed = m
                        .promotion_kind()
                        .map_or(piece, |k| Piece::new(piece.army(), k));
                    after[a] += t.piece_square(placed, m.to()) - t.piece_square(piece, m.from());
                    let victim = if m.kind() == MoveKind::EnPassant {
                        m.aux_cell()
                    } else {
                        m.to()
                    };
                    if let Some(v) = self.pos.piece_at(victim) {
                        after[v.army().index()] -= t.piece_square(v, victim);
                    }
                }
            }
        }
        let undo = self.pos.make(m);
        if undo.had_events(&self.pos) {
            after = eval::piece_squares(&self.pos);
        }
        self.psq_path.push(before);
        self.psq = after;
        undo
    }

    /// Whether `m` puts a player in check (such moves are never pruned:
    /// a quiet mate must stay in reach of a shallow search).
    fn gives_check(&mut self, m: Move) -> bool {
        let undo = self.pos.make(m);
        let check = self.pos.in_check();
        self.pos.unmake(m, &undo);
        check
    }

    /// Takes back `m`.
    pub(super) fn take_back(&mut self, m: Move, undo: &Undo) {
        self.pos.unmake(m, undo);
        self.psq = self.psq_path.pop().unwrap_or(self.psq);
    }

    /// Generates the position's moves into a new frame, ordered with
    /// `tt_move` first. The position must not be over by rule (every node
    /// looks at its ends before it generates). The mover's officers' reaches
    /// come from those carried over ([`eval::SearchReaches::of_mover`]).
    fn frame(&mut self, generate: Generate, tt_move: Move, ply: usize) -> Frame {
        let pos = &self.pos;
        debug_assert!(!rules::finished_by_rule(pos));
        let known = self.reaches.of_mover(pos);
        self.stack.push(
            |sink| match generate {
                Generate::All => pos.generate_moves_in_play_knowing(known, sink),
                Generate::Tactical => pos.generate_tactical_knowing(known, sink),
            },
            self.ordering.keyer(pos, tt_move, ply),
        )
    }

    /// Runs `body` on a new frame of the moves `generate` asks for (the
    /// table's move first), and pops the frame when `body` returns, however
    /// it returns: no node leaves its frame on the move stack.
    pub(super) fn with_frame<T>(
        &mut self,
        generate: Generate,
        tt_move: Move,
        ply: usize,
        body: impl FnOnce(&mut Self, &mut Frame) -> T,
    ) -> T {
        let mut frame = self.frame(generate, tt_move, ply);
        let result = body(self, &mut frame);
        self.stack.pop(frame);
        result
    }

    /// The first steps of every node: clears its line, counts it (`Some(0)`
    /// when the search must stop), and ends it where the game is over
    /// (`Some` of its value for the side to move).
    pub(super) fn open_node(&mut self, ply: usize) -> Option<i32> {
        self.pv[ply].clear();
        if self.visit(ply) {
            return Some(0);
        }
        self.early_end(ply).map(|v| self.for_side(v))
    }

    /// Takes move `m`'s `value` into the node's `best`: a better value
    /// becomes the best, one above alpha raises it (and, if `record`,
    /// makes `m` the head of the node's line). Whether the node is refuted
    /// (alpha reached beta).
    pub(super) fn take_value(
        &mut self,
        best: &mut NodeBest,
        ply: usize,
        m: Move,
        value: i32,
        record: bool,
    ) -> bool {
        if value > best.value {
            best.value = value;
            best.m = m;
            if value > best.alpha {
                best.alpha = value;
                if record {
                    self.record_line(ply, m);
                }
            }
        }
        best.alpha >= best.beta
    }

    /// Whether max-n decides this position (three players in, option set).
    pub(super) fn uses_maxn(&self) -> bool {
        self.options.algorithm == Algorithm::MaxN && self.pos.state().in_game.count() > 2
    }

    /// Counts a node; every few nodes looks whether the search must end.
    /// The main thread does not stop before some thread has completed an
    /// iteration (its own first is depth 1, a few dozen nodes), so that a
    /// search always ends with a searched move.
    pub(super) fn visit(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes.is_multiple_of(super::CHECK_EVERY) {
            self.shared
                .nodes
                .fetch_add(super::CHECK_EVERY, AtomicOrdering::Relaxed);
            let completed = self.shared.completed.load(AtomicOrdering::Relaxed);
            if self.shared.must_stop() && (self.id > 0 || completed > 0) {
                self.aborted = true;
            } else if completed >= self.iteration {
                // Another thread has finished this depth: give it up.
                self.aborted = true;
                self.superseded = true;
            }
        }
        self.aborted
    }

    /// The table key of the current position for this search: positions are
    /// valued differently per algorithm, and with three players per root.
    pub(super) fn key(&self) -> u64 {
        let algorithm = if self.pos.state().in_game.count() > 2 {
            self.options.algorithm as usize
        } else {
            Algorithm::Paranoid as usize
        };
        let mut key = self.pos.hash() ^ ALGORITHM_SALT[algorithm];
        if self.pos.state().in_game.count() > 2 && algorithm != Algorithm::MaxN as usize {
            key ^= ROOT_SALT[self.root.index()];
        }
        key
    }

    /// Stores a scalar node's result: `best` found by `best_move`, a lower
    /// bound when it reached beta, exact when it raised alpha, else an upper
    /// bound (`window` is the node's `(alpha, beta)` on entry).
    pub(super) fn store_value(
        &self,
        key: u64,
        best_move: Move,
        depth: i32,
        ply: usize,
        best: i32,
        window: (i32, i32),
    ) {
        let (alpha, beta) = window;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = TtEntry {
            best: best_move,
            depth,
            bound,
            scores: [to_table(best, ply), 0, 0],
            eval: 0,
        };
        self.shared.tt.store(key, entry);
    }

    /// The value for the side to move of a position without legal moves
    /// (mate or stalemate, as the game scores it).
    pub(super) fn value_without_moves(&self, ply: usize) -> i32 {
        let outcome = self.pos.outcome_without_moves();
        self.for_side(self.outcome_for_root(&outcome, ply))
    }

    /// `+1` when the root player moves, `-1` when the coalition does.
    pub(super) fn side(&self) -> i32 {
        if self.pos.to_move() == self.root {
            1
        } else {
            -1
        }
    }

    /// The value of per-player `scores` for the root player: its score
    /// against the average of the others still in the game, short of a
    /// decided score.
    fn root_value(&self, scores: [i32; MAX_PLAYERS]) -> i32 {
        eval::against_others(&scores, self.root, self.pos.state().in_game)
            .clamp(-DECIDED_SCORE + 1, DECIDED_SCORE - 1)
    }

    /// The static value for the side to move, computed in full only when
    /// the cheap part is not already clearly outside `(alpha, beta)`.
    fn side_eval(&mut self, alpha: i32, beta: i32, full: bool) -> i32 {
        let fast_scores = eval::evaluate_fast_from(&self.pos, &self.psq);
        let fast = self.for_side(self.root_value(fast_scores));
        if !full || fast - eval::LAZY_MARGIN >= beta || fast + eval::LAZY_MARGIN <= alpha {
            return fast;
        }
        let activity = self.activity();
        let full = std::array::from_fn(|p| fast_scores[p] + activity[p]);
        self.for_side(self.root_value(full))
    }

    /// Whether the player to move has a piece besides king and pawns (null
    /// moves are unsafe in pawn endings: zugzwang).
    fn has_pieces_to_move(&self) -> bool {
        let own = self.pos.pieces_of(self.pos.to_move());
        (own & !(self.pos.kind(PieceKind::Pawn) | self.pos.kind(PieceKind::King))).nonempty()
    }

    /// The most one capture or promotion could gain here: the most valuable
    /// enemy piece, plus a queen's promotion if the mover has a pawn.
    fn best_possible_gain(&self) -> i32 {
        let values = &self.tables.values;
        let mover = self.pos.to_move();
        let enemies = self.pos.occupied() & !self.pos.pieces_of(mover);
        let best_victim = [
            PieceKind::Queen,
            PieceKind::Rook,
            PieceKind::Bishop,
            PieceKind::Knight,
            PieceKind::Pawn,
        ]
        .into_iter()
        .find(|&k| (self.pos.kind(k) & enemies).nonempty())
        .map_or(0, |k| {
            values[k.index()].max(values[PieceKind::Pawn.index()])
        });
        let promotion = if (self.pos.kind(PieceKind::Pawn) & self.pos.pieces_of(mover)).nonempty() {
            values[PieceKind::Queen.index()]
        } else {
            0
        };
        best_victim + promotion
    }

    /// The slot of the activity cache that holds the current position.
    fn activity_slot(&self) -> usize {
        self.pos.hash() as usize & (ACTIVITY_CACHE - 1)
    }

    /// Fetches the current position's activity slot while the node's
    /// other work goes on: the cache is larger than the processor's
    /// first-level cache, and its slots are met at random.
    #[inline(always)]
    fn prefetch_activity(&self) {
        super::prefetch(&self.activity_cache[self.activity_slot()]);
    }

    /// The activity part of the evaluation, through a small per-thread cache.
    fn activity(&mut self) -> [i32; MAX_PLAYERS] {
        let key = self.pos.hash();
        let slot = self.activity_slot();
        if let Some((k, v)) = self.activity_cache[slot]
            && k == key
        {
            return v;
        }
        let v = self.reaches.activity(&self.pos);
        self.activity_cache[slot] = Some((key, v));
        v
    }

    /// The value of an ended game at `ply` from the root player's view.
    pub(super) fn outcome_for_root(&self, outcome: &Outcome, ply: usize) -> i32 {
        outcome_value(outcome, &self.pos, self.root, ply)
    }

    /// Ends that need no move generation: the root player out, a game over
    /// by rule, a repetition or the move-count rules. Root player's view.
    pub(super) fn early_end(&self, ply: usize) -> Option<i32> {
        let pos = &self.pos;
        if !pos.state().in_game.has(self.root) {
            return Some(-(WIN_SCORE - ply as i32));
        }
        if rules::finished_by_rule(pos) {
            let outcome = pos
                .outcome()
                .unwrap_or_else(|| pos.drawn(EndReason::LastPlayer));
            return Some(self.outcome_for_root(&outcome, ply));
        }
        if pos.is_repetition(1) {
            return Some(self.outcome_for_root(&pos.drawn(EndReason::Repetition), ply));
        }
        pos.move_rule_outcome()
            .map(|o| self.outcome_for_root(&o, ply))
    }

    /// Iterative deepening over `root_moves` up to `max_depth`, publishing
    /// each completed depth (see [`Completed`]); the main thread reports
    /// what is published and stops at `soft` time.
    pub fn iterate(
        &mut self,
        root_moves: &MoveList,
        max_depth: u32,
        soft: Option<Duration>,
        report: &mut dyn FnMut(&Progress),
    ) {
        let mut moves: Vec<RootMove> = root_moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                pv: vec![mv],
            })
            .collect();
        let multi_pv = self.options.multi_pv.clamp(1, moves.len());
        let mut depth = self.shared.next_depth(self.id, max_depth);
        while depth <= max_depth {
            self.iteration = depth;
            self.lead = moves[0].mv;
            self.proven = None;
            for pv_index in 0..multi_pv {
                let previous = moves[pv_index].score;
                self.search_root(&mut moves[pv_index..], depth, previous, pv_index, report);
                if self.aborted {
                    break;
                }
            }
            if self.superseded && !self.shared.must_stop() {
                // Another thread completed this depth first: go deeper.
                self.aborted = false;
                self.superseded = false;
                self.report_latest(report);
                depth = self.shared.next_depth(self.id, max_depth);
                continue;
            }
            if self.aborted {
                // A part of an iteration is the result only where it
                // proved a move better than the last result's.
                if multi_pv == 1
                    && let Some(proven) = self.proven.take()
                {
                    self.publish_partial(depth, proven);
                }
                break;
            }
            moves[..multi_pv].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            self.shared
                .completed
                .fetch_max(depth, AtomicOrdering::Relaxed);
            self.publish(depth, &moves[..multi_pv]);
            self.report_latest(report);
            if depth == max_depth || self.found_mate_asked_for(moves[0].score) {
                // Whichever thread completes the last depth, or finds the
                // mate `go mate` asked for, ends the search.
                self.shared.abort.store(true, AtomicOrdering::Relaxed);
                break;
            }
            let elapsed = self.shared.start.elapsed();
            if self.id == 0 && soft.is_some_and(|s| elapsed >= s * NEW_DEPTH_SHARE / 1000) {
                self.shared.abort.store(true, AtomicOrdering::Relaxed);
                break;
            }
            if depth >= max_depth {
                break;
            }
            depth = self.shared.next_depth(self.id, max_depth);
        }
        // The nodes not yet added to the shared count, added.
        let unshared = self.nodes % super::CHECK_EVERY;
        self.shared
            .nodes
            .fetch_add(unshared, AtomicOrdering::Relaxed);
        self.nodes -= unshared;
    }

    /// Makes `lines`, just completed at `depth`, the search's result unless
    /// another thread has completed a deeper iteration.
    fn publish(&self, depth: u32, lines: &[RootMove]) {
        let mut latest = self.shared.latest();
        if depth > latest.depth || (depth == latest.depth && latest.partial) {
            *latest = Completed {
                depth,
                // The deepest ply any thread has reached, as reported before.
                seldepth: self.seldepth.max(latest.seldepth),
                lines: lines.to_vec(),
                partial: false,
            };
        }
    }

    /// Makes `proven`, the line of a move proved better than the first in
    /// the iteration at `depth`, stopped before it completed, the search's
    /// result, where that first move is the best move of the result so far
    /// (a completed iteration shallower than `depth`).
    fn publish_partial(&self, depth: u32, proven: RootMove) {
        let mut latest = self.shared.latest();
        let improves = depth > latest.depth
            && !latest.partial
            && latest
                .lines
                .first()
                .is_some_and(|best| best.mv == self.lead);
        if improves {
            *latest = Completed {
                depth,
                seldepth: self.seldepth.max(latest.seldepth),
                lines: vec![proven],
                partial: true,
            };
        }
    }

    /// The main thread's report of the deepest completed iteration, once
    /// per depth, whichever thread completed it.
    fn report_latest(&mut self, report: &mut dyn FnMut(&Progress)) {
        if self.id != 0 {
            return;
        }
        let latest = self.shared.latest().clone();
        if latest.depth > self.reported.depth {
            self.report(&latest, report);
        }
    }

    /// The main thread's last report, once all threads have stopped: the
    /// result the search ends with, again with the final node count and
    /// time, when the search went on after the last report (as Stockfish's
    /// last `info` line before `bestmove`).
    pub fn report_final(&mut self, report: &mut dyn FnMut(&Progress)) {
        if self.shared.nodes.load(AtomicOrdering::Relaxed) > self.reported.nodes {
            let latest = self.shared.latest().clone();
            self.report(&latest, report);
        }
    }

    /// Whether `score` is a mate for the root player within the moves of
    /// `go mate`.
    fn found_mate_asked_for(&self, score: i32) -> bool {
        self.shared.mate_limit.is_some_and(|limit| {
            super::mate_moves(score).is_some_and(|moves| moves > 0 && moves.unsigned_abs() <= limit)
        })
    }

    /// Reports the lines of `completed` with the node count and time so far.
    fn report(&mut self, completed: &Completed, report: &mut dyn FnMut(&Progress)) {
        let nodes =
            self.shared.nodes.load(AtomicOrdering::Relaxed) + self.nodes % super::CHECK_EVERY;
        let game = self.pos.game();
        for (i, line) in completed.lines.iter().enumerate() {
            let scores = if game.players > 2 {
                self.player_scores(&line.pv)
            } else {
                Vec::new()
            };
            report(&Progress::Line(Info {
                depth: completed.depth,
                seldepth: completed.seldepth as u32,
                multipv: i + 1,
                nodes,
                time: self.shared.start.elapsed(),
                hashfull: self.shared.tt.hashfull(),
                score: line.score,
                scores,
                pv: line.pv.clone(),
            }));
        }
        self.reported = Reported {
            depth: completed.depth,
            nodes,
        };
    }

    /// Each player's score at the end of `pv`: its evaluation against the
    /// average of the others, or the game's result where the line ends the
    /// game, scored as the search scores it (players out of the game are
    /// left out).
    fn player_scores(&self, pv: &[Move]) -> Vec<(char, i32)> {
        let mut pos = self.pos.scratch_copy();
        let mut ply = 0;
        for &m in pv {
            if !pos.legal_moves().contains(&m) {
                break;
            }
            pos.make(m);
            ply += 1;
        }
        let in_game = pos.state().in_game;
        let letter = |p: Player| pos.game().letters[p.index()];
        if let Some(outcome) = pos.outcome() {
            return in_game
                .iter()
                .map(|p| (letter(p), outcome_value(&outcome, &pos, p, ply)))
                .collect();
        }
        let scores = eval::evaluate(&pos);
        in_game
            .iter()
            .map(|p| (letter(p), eval::against_others(&scores, p, in_game)))
            .collect()
    }

    /// Searches the root moves at `depth` (the first of `moves` is the
    /// line being completed; MultiPV passes the rest). Aspiration windows
    /// around `previous`, widened on failure.
    /// `skipped` root moves come before `moves` (the lines MultiPV has
    /// completed at this depth).
    fn search_root(
        &mut self,
        moves: &mut [RootMove],
        depth: u32,
        previous: i32,
        skipped: usize,
        report: &mut dyn FnMut(&Progress),
    ) {
        let depth = depth as i32;
        if self.uses_maxn() {
            self.search_root_maxn(moves, depth, skipped, report);
            return;
        }
        let (mut alpha, mut beta) = (-INFINITE, INFINITE);
        let mut delta = ASPIRATION;
        if depth as u32 >= ASPIRATION_DEPTH && previous.abs() < DECIDED_SCORE {
            alpha = previous - delta;
            beta = previous + delta;
        }
        loop {
            let best = self.root_pass(moves, depth, (alpha, beta), skipped, report);
            if self.aborted {
                return;
            }
            if best <= alpha && alpha > -INFINITE {
                alpha = (alpha - delta).max(-INFINITE);
            } else if best >= beta && beta < INFINITE {
                beta = (beta + delta).min(INFINITE);
            } else {
                return;
            }
            delta *= 2;
        }
    }

    /// One pass over the root moves within `(alpha, beta)`; sorts the best first.
    fn root_pass(
        &mut self,
        moves: &mut [RootMove],
        depth: i32,
        (mut alpha, beta): (i32, i32),
        skipped: usize,
        report: &mut dyn FnMut(&Progress),
    ) -> i32 {
        let mut best = -INFINITE;
        let mut best_index = 0;
        // A move that raises alpha in a pass that searched the iteration's
        // best move so far first is better than it (MultiPV's later lines
        // aside).
        let standing = self.proven.as_ref().map_or(self.lead, |p| p.mv);
        let proves = skipped == 0 && moves.first().is_some_and(|rm| rm.mv == standing);
        for (i, root_move) in moves.iter_mut().enumerate() {
            let m = root_move.mv;
            self.announce(depth, m, skipped + i + 1, report);
            let undo = self.play(m);
            let value = if i == 0 {
                self.child(1, depth - 1, 1, alpha, beta)
            } else {
                let v = self.child(1, depth - 1, 1, alpha, alpha + 1);
                if v > alpha && v < beta {
                    self.child(1, depth - 1, 1, alpha, beta)
                } else {
                    v
                }
            };
            self.take_back(m, &undo);
            if self.aborted {
                break;
            }
            if value > best {
                best = value;
                best_index = i;
            }
            if value > alpha || i == 0 {
                root_move.score = value;
                let mut line = vec![m];
                line.extend_from_slice(&self.pv[1]);
                root_move.pv = line;
                // Only a value inside the window was searched with the
                // full window: a null-window fail-high is no proof.
                if i > 0 && value > alpha && value < beta && proves {
                    self.proven = Some(root_move.clone());
                }
                alpha = alpha.max(value);
            } else {
                root_move.score = -INFINITE;
            }
            if alpha >= beta {
                break;
            }
        }
        if !self.aborted || best > -INFINITE {
            moves[..=best_index].rotate_right(1);
        }
        best
    }

    /// Tells which root move the search turns to, once it has run long
    /// enough for a GUI to want to know.
    pub(super) fn announce(
        &self,
        depth: i32,
        mv: Move,
        number: usize,
        report: &mut dyn FnMut(&Progress),
    ) {
        if self.id == 0 && self.shared.start.elapsed() >= CURRENT_MOVE_AFTER {
            report(&Progress::CurrentMove {
                depth: depth as u32,
                mv,
                number,
            });
        }
    }

    /// The value of the position just reached, for the side that moved
    /// (`parent_side`): the side to move now keeps or negates it.
    pub(super) fn child(
        &mut self,
        parent_side: i32,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.side() == parent_side {
            self.node(depth, ply, alpha, beta)
        } else {
            -self.node(depth, ply, -beta, -alpha)
        }
    }

    /// A node: the opponents' layer of BRS+, or alpha-beta.
    fn node(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        if self.options.algorithm == Algorithm::BestReply
            && self.pos.to_move() != self.root
            && self.pos.state().in_game.count() > 2
            && self.pos.state().in_game.has(self.root)
            && depth > 0
        {
            return self.best_reply_layer(depth, ply, alpha, beta);
        }
        self.alphabeta(depth, ply, alpha, beta)
    }

    /// Converts a root-view value to the view of the side to move.
    pub(super) fn for_side(&self, root_value: i32) -> i32 {
        root_value * self.side()
    }

    /// Alpha-beta with principal-variation search, the table, check
    /// extension and late-move reductions.
    fn alphabeta(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        if depth <= 0 || ply >= MAX_PLY {
            // A leaf: the quiescence search visits (and counts) it.
            return self.quiesce(ply, alpha, beta, 0);
        }
        if let Some(value) = self.open_node(ply) {
            return value;
        }
        let pv_node = beta - alpha > 1;
        let key = self.key();
        let entry = self.shared.tt.probe(key);
        let tt_move = entry.map_or(Move::NONE, |e| e.best);
        if !pv_node && let Some(score) = table_cutoff(entry, depth, ply, alpha, beta) {
            return score;
        }
        let in_check = self.pos.in_check();
        let two_sides = self.pos.state().in_game.count() == 2;
        let mut static_eval = None;
        if !pv_node && !in_check && two_sides && depth <= REVERSE_FUTILITY_DEPTH {
            // Reverse futility: far enough above beta, a quiet position
            // keeps its lead over the few plies left.
            let eval = self.side_eval(alpha, beta, true);
            if eval - REVERSE_FUTILITY_MARGIN * depth >= beta && eval < DECIDED_SCORE {
                return eval;
            }
            static_eval = Some(eval);
        }
        // Futility and late-move pruning: in a quiet node near the leaves,
        // quiet moves that cannot lift the static evaluation to alpha, and
        // those late in the order, are not searched, unless they check.
        let prune_quiets = static_eval.filter(|_| depth <= FUTILITY_DEPTH).map(|eval| {
            let futile = eval + FUTILITY_MARGIN + FUTILITY_MARGIN_PER_PLY * depth <= alpha;
            let late = LATE_MOVE_PRUNING_BASE + (depth * depth) as usize;
            (futile, late)
        });
        if !pv_node
            && !in_check
            && depth >= NULL_MOVE_DEPTH
            && two_sides
            && self.has_pieces_to_move()
            && self.for_side(self.root_value(eval::evaluate_fast_from(&self.pos, &self.psq)))
                >= beta
        {
            // Null move: if passing the turn still holds beta, a real move will.
            let reduction = NULL_MOVE_REDUCTION + depth / NULL_MOVE_DEPTH_DIVISOR;
            let undo = self.pos.make_null();
            let value = -self.node(depth - 1 - reduction, ply + 1, -beta, -beta + 1);
            self.pos.unmake_null(&undo);
            if self.aborted {
                return 0;
            }
            if value >= beta && value < DECIDED_SCORE {
                return value;
            }
        }
        let depth = if in_check { depth + 1 } else { depth };
        let mut best = NodeBest::new(-INFINITE, alpha, beta);
        // The table's move first: when it refutes the position, no move
        // needs to be generated. The other moves are generated after it.
        let tt_move_first = tt_move != Move::NONE && self.pos.is_legal(tt_move);
        if tt_move_first {
            let value = self.search_move(tt_move, 0, depth, ply, best.window(), in_check);
            if self.aborted {
                return 0;
            }
            if self.take_value(&mut best, ply, tt_move, value, true) {
                self.reward_refutation(tt_move, ply, depth, &[]);
                self.store_value(key, best.m, depth, ply, best.value, (alpha, beta));
                return best.value;
            }
        }
        let searched = self.with_frame(Generate::All, tt_move, ply, |w, frame| {
            if frame.is_empty() {
                return MovesSearched::NoMoves;
            }
            if tt_move_first {
                // Handed out first here too: searched already.
                w.stack.pick(frame);
            }
            let mut index = usize::from(tt_move_first);
            let mut quiets = 0;
            while let Some(m) = w.stack.pick(frame) {
                if let Some((futile, late)) = prune_quiets
                    && index > 0
                    && best.value > -DECIDED_SCORE
                    && !Ordering::is_tactical(&w.pos, m)
                {
                    quiets += 1;
                    if (futile || quiets > late) && !w.gives_check(m) {
                        continue;
                    }
                }
                let value = w.search_move(m, index, depth, ply, best.window(), in_check);
                index += 1;
                if w.aborted {
                    return MovesSearched::Aborted;
                }
                if w.take_value(&mut best, ply, m, value, true) {
                    if !Ordering::is_tactical(&w.pos, m) {
                        let tried = w.stack.handed_out(frame);
                        w.ordering.reward(&w.pos, m, ply, depth, tried);
                    }
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
        self.store_value(key, best.m, depth, ply, best.value, (alpha, beta));
        best.value
    }

    /// Rewards `m`, which refuted its node at `depth` after the moves
    /// `tried` before it, in the move ordering's history (quiet moves only).
    pub(super) fn reward_refutation(&mut self, m: Move, ply: usize, depth: i32, tried: &[Move]) {
        if !Ordering::is_tactical(&self.pos, m) {
            self.ordering.reward(&self.pos, m, ply, depth, tried);
        }
    }

    /// The value of move number `index` of an alpha-beta node searched to
    /// `depth`: the first with the full window, the others with a null
    /// window first (reduced when quiet and late), searched again in full
    /// when they might raise alpha.
    fn search_move(
        &mut self,
        m: Move,
        index: usize,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        in_check: bool,
    ) -> i32 {
        let tactical = Ordering::is_tactical(&self.pos, m);
        let side = self.side();
        let two_sides = self.pos.state().in_game.count() == 2;
        let undo = self.play(m);
        let value = if index == 0 {
            self.child(side, depth - 1, ply + 1, alpha, beta)
        } else {
            let quiet_late = depth >= LMR_DEPTH
                && index >= LMR_INDEX
                && !tactical
                && !in_check
                && !self.pos.in_check();
            let reduction = if quiet_late {
                late_move_reduction(depth, index, beta - alpha > 1, two_sides)
            } else {
                0
            };
            let mut v = self.child(side, depth - 1 - reduction, ply + 1, alpha, alpha + 1);
            if v > alpha && (reduction > 0 || v < beta) {
                v = self.child(side, depth - 1, ply + 1, alpha, beta);
            }
            v
        };
        self.take_back(m, &undo);
        value
    }

    /// The quiescence search: stand pat on the evaluation, then captures
    /// and promotions (all moves when in check, for a few plies).
    pub(super) fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32, qply: u32) -> i32 {
        if let Some(value) = self.open_node(ply) {
            return value;
        }
        // The activity terms are judged where the main search ends; deeper
        // in the capture sequence material decides.
        let full_eval = qply == 0;
        if full_eval {
            self.prefetch_activity();
        }
        if ply >= MAX_PLY {
            return self.side_eval(alpha, beta, full_eval);
        }
        let in_check = qply < QUIESCENCE_EVASIONS && self.pos.in_check();
        let mut best = -INFINITE;
        // In check there is no standing pat: every evasion is searched.
        let mut stand = -INFINITE;
        if !in_check {
            stand = self.side_eval(alpha, beta, full_eval);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            if stand + self.best_possible_gain() + DELTA_MARGIN < alpha {
                return stand;
            }
        }
        let generate = if in_check {
            Generate::All
        } else {
            Generate::Tactical
        };
        let tables = self.tables;
        let values = &tables.values;
        let side = self.side();
        let mut best = NodeBest::new(best, alpha, beta);
        let searched = self.with_frame(generate, Move::NONE, ply, |w, frame| {
            if in_check && frame.is_empty() {
                return MovesSearched::NoMoves;
            }
            while let Some(m) = w.stack.pick(frame) {
                if !in_check {
                    let gain = w
                        .pos
                        .piece_at(m.to())
                        .map_or(values[0], |p| values[p.kind().index()])
                        + m.promotion_kind().map_or(0, |k| values[k.index()]);
                    if stand + gain + DELTA_MARGIN < best.alpha {
                        continue;
                    }
                    if m.promotion_kind().is_none() && see::loses_material(&w.pos, m) {
                        continue;
                    }
                }
                let undo = w.play(m);
                let (alpha, beta) = best.window();
                let value = if w.side() == side {
                    w.quiesce(ply + 1, alpha, beta, qply + 1)
                } else {
                    -w.quiesce(ply + 1, -beta, -alpha, qply + 1)
                };
                w.take_back(m, &undo);
                if w.aborted {
                    return MovesSearched::Aborted;
                }
                if w.take_value(&mut best, ply, m, value, false) {
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
}

/// The stored value of a scalar search node when the table entry decides
/// it: searched deep enough, and its bound on the right side of the window.
pub(super) fn table_cutoff(
    entry: Option<TtEntry>,
    depth: i32,
    ply: usize,
    alpha: i32,
    beta: i32,
) -> Option<i32> {
    let e = entry.filter(|e| e.depth >= depth)?;
    let score = from_table(e.scores[0], ply);
    let decides = match e.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    decides.then_some(score)
}

/// A score as stored in the table: decided scores relative to the node.
pub(super) fn to_table(score: i32, ply: usize) -> i32 {
    if score >= DECIDED_SCORE {
        score + ply as i32
    } else if score <= -DECIDED_SCORE {
        score - ply as i32
    } else {
        score
    }
}

/// A score read from the table at `ply`.
pub(super) fn from_table(score: i32, ply: usize) -> i32 {
    if score >= DECIDED_SCORE {
        score - ply as i32
    } else if score <= -DECIDED_SCORE {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_move_reductions_grow_with_depth_and_index_and_leave_a_ply() {
        for pv_node in [false, true] {
            for depth in LMR_DEPTH..80 {
                let mut last = 0;
                for index in LMR_INDEX..200 {
                    let r = late_move_reduction(depth, index, pv_node, true);
                    assert!(r >= last, "depth {depth}, index {index}: {r} after {last}");
                    assert!(depth - 1 - r >= 1, "depth {depth}, index {index}: {r}");
                    let deeper = late_move_reduction(depth + 1, index, pv_node, true);
                    assert!(deeper >= r, "depth {depth}, index {index}");
                    last = r;
                }
            }
        }
        // PV nodes are reduced a ply less, where there is a ply to give.
        assert_eq!(
            late_move_reduction(20, 30, true, true) + 1,
            late_move_reduction(20, 30, false, true)
        );
        // Three sides: one ply, two from LMR_SECOND_PLY_INDEX on.
        assert_eq!(late_move_reduction(10, LMR_INDEX, false, false), 1);
        assert_eq!(
            late_move_reduction(10, LMR_SECOND_PLY_INDEX, true, false),
            2
        );
    }
}
