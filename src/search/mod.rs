//! The search: iterative deepening over a paranoid alpha-beta (the player to
//! move at the root against all others), with a material-and-mobility
//! evaluation. It reports progress through a callback and stops on a shared
//! flag, a node budget or a deadline.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::Outcome;
use crate::types::{MAX_PLAYERS, PieceKind, Player};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Score of a won game at the root; mates nearer the root score higher.
pub const WIN_SCORE: i32 = 30_000;

/// Scores beyond this are game ends found by the search.
pub const DECIDED_SCORE: i32 = WIN_SCORE - 1_000;

/// Deepest search (plies).
pub const MAX_DEPTH: u32 = 64;

/// How often (in nodes) the search looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// What limits a search; unset limits do not apply.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Search to this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Think exactly this long.
    pub movetime: Option<Duration>,
    /// Remaining time of each player, in turn order.
    pub time: [Option<Duration>; MAX_PLAYERS],
    /// Increment of each player.
    pub increment: [Duration; MAX_PLAYERS],
    /// Moves until the next time control.
    pub moves_to_go: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Only these root moves.
    pub search_moves: Vec<Move>,
}

/// Progress of a search after one completed depth.
#[derive(Clone, Debug)]
pub struct Info {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Score from the view of the player to move at the root.
    pub score: i32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`Move::NONE` when the game is over).
    pub best: Move,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
}

/// Converts a score to the protocol's form: `cp N` or `mate N` (in moves of the root player).
pub fn score_text(score: i32) -> String {
    if score.abs() >= DECIDED_SCORE {
        let plies = WIN_SCORE - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

/// Values of the pieces in centipawns for the simple evaluation.
const PIECE_VALUES: [i32; PieceKind::COUNT] = [100, 300, 320, 500, 900, 0];

/// Weight of one move of mobility.
const MOBILITY_WEIGHT: i32 = 2;

/// A search in progress.
struct Search<'a> {
    root: Player,
    limits: &'a Limits,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    nodes: u64,
    seldepth: u32,
    aborted: bool,
    pv: Vec<Vec<Move>>,
}

/// Searches `pos` within `limits` until done or `stop` is raised, calling
/// `report` after every completed depth.
pub fn search(
    pos: &Position,
    limits: &Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info),
) -> SearchResult {
    let start = Instant::now();
    let mut root_moves = pos.legal_moves();
    if !limits.search_moves.is_empty() {
        root_moves.retain(|m| limits.search_moves.contains(m));
    }
    let Some(&first) = root_moves.first() else {
        return SearchResult { best: Move::NONE, ponder: None };
    };
    let mut s = Search {
        root: pos.to_move(),
        limits,
        stop,
        deadline: time_budget(pos, limits).map(|t| start + t),
        nodes: 0,
        seldepth: 0,
        aborted: false,
        pv: vec![Vec::new(); MAX_DEPTH as usize + 2],
    };
    let mut best = first;
    let mut ponder = None;
    let mut work = pos.clone();
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    for depth in 1..=max_depth {
        let score = s.root_search(&mut work, &root_moves, depth);
        if s.aborted && depth > 1 {
            break;
        }
        if let Some(&m) = s.pv[0].first() {
            best = m;
            ponder = s.pv[0].get(1).copied();
            if let Some(i) = root_moves.iter().position(|&r| r == m) {
                root_moves[..=i].rotate_right(1);
            }
        }
        report(&Info {
            depth,
            seldepth: s.seldepth,
            nodes: s.nodes,
            time: start.elapsed(),
            score,
            pv: s.pv[0].clone(),
        });
        if s.aborted || score.abs() >= DECIDED_SCORE && limits.depth.is_none() && !limits.infinite {
            break;
        }
    }
    SearchResult { best, ponder }
}

/// How long to think under the clock: a share of the remaining time plus
/// most of the increment, never more than a third of what is left.
fn time_budget(pos: &Position, limits: &Limits) -> Option<Duration> {
    if limits.infinite {
        return None;
    }
    if let Some(t) = limits.movetime {
        return Some(t);
    }
    let me = pos.to_move().index();
    let left = limits.time[me]?;
    let moves = limits.moves_to_go.unwrap_or(30).clamp(1, 50);
    let share = left / moves + limits.increment[me] * 3 / 4;
    Some(share.min(left / 3))
}

impl Search<'_> {
    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            let out_of_time = self.deadline.is_some_and(|d| Instant::now() >= d);
            let out_of_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if out_of_time || out_of_nodes || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn root_search(&mut self, pos: &mut Position, moves: &MoveList, depth: u32) -> i32 {
        let mut alpha = -WIN_SCORE - 1;
        let beta = WIN_SCORE + 1;
        for &m in moves {
            let undo = pos.make(m);
            self.nodes += 1;
            let score = self.paranoid(pos, depth - 1, 1, alpha, beta);
            pos.unmake(m, &undo);
            if self.aborted && depth > 1 {
                break;
            }
            if score > alpha {
                alpha = score;
                let (head, tail) = self.pv.split_at_mut(1);
                head[0].clear();
                head[0].push(m);
                head[0].extend_from_slice(&tail[0]);
            }
        }
        alpha
    }

    /// Alpha-beta with the root player maximizing and every other player minimizing.
    fn paranoid(&mut self, pos: &mut Position, depth: u32, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply as u32);
        if self.should_stop() {
            return 0;
        }
        if let Some(outcome) = pos.draw_outcome() {
            return self.outcome_score(&outcome, ply);
        }
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            let outcome = pos.outcome().unwrap_or_else(|| pos.outcome_without_moves());
            return self.outcome_score(&outcome, ply);
        }
        if depth == 0 || ply >= MAX_DEPTH as usize {
            return self.evaluate(pos, moves.len());
        }
        let maximizing = pos.to_move() == self.root;
        let mut best = if maximizing { -WIN_SCORE - 1 } else { WIN_SCORE + 1 };
        for &m in &moves {
            let undo = pos.make(m);
            self.nodes += 1;
            let score = self.paranoid(pos, depth - 1, ply + 1, alpha, beta);
            pos.unmake(m, &undo);
            if self.aborted {
                return 0;
            }
            let improves = if maximizing { score > best } else { score < best };
            if improves {
                best = score;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                let line = &mut head[ply];
                line.clear();
                line.push(m);
                line.extend_from_slice(&tail[0]);
            }
            if maximizing {
                alpha = alpha.max(score);
            } else {
                beta = beta.min(score);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// A finished game scored from the root player's view: its share of the
    /// points against the average share, wins nearer the root higher.
    fn outcome_score(&self, outcome: &Outcome, ply: usize) -> i32 {
        let total: f64 = outcome.points.iter().sum();
        if total <= 0.0 {
            return 0;
        }
        let players = outcome.points.iter().filter(|&&p| p > 0.0).count().max(2) as f64;
        let mine = outcome.points[self.root.index()] / total;
        let fair = 1.0 / players;
        let relative = ((mine - fair) / (1.0 - fair)).clamp(-1.0, 1.0);
        (relative * f64::from(WIN_SCORE - ply as i32)).round() as i32
    }

    /// Material and mobility from the root player's view.
    fn evaluate(&self, pos: &Position, moves_of_mover: usize) -> i32 {
        let players = pos.state().in_game;
        let mut material = [0i32; MAX_PLAYERS];
        for p in players.iter() {
            let pieces = pos.pieces_of(p);
            for kind in PieceKind::ALL {
                material[p.index()] += PIECE_VALUES[kind.index()] * (pos.kind(kind) & pieces).count() as i32;
            }
        }
        let others = players.without(self.root);
        let others_material: i32 = others.iter().map(|p| material[p.index()]).sum();
        let mut score = material[self.root.index()] - others_material / others.count().max(1) as i32;
        let mobility = MOBILITY_WEIGHT * moves_of_mover as i32;
        score += if pos.to_move() == self.root { mobility } else { -mobility };
        score
    }
}
