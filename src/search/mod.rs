//! The search: iterative deepening on several threads sharing one
//! transposition table (Lazy SMP), with three ways to play a game of three:
//!
//! - `paranoid`: the player to move at the root against a coalition of the
//!   others, as alpha-beta (with two players, ordinary alpha-beta / PVS);
//! - `maxn`: a score per player, each player maximising its own, with
//!   shallow pruning (the scores sum to zero);
//! - `brs`: best-reply search in its improved form (BRS+): at the
//!   opponents' layer only one opponent searches its moves, the other plays
//!   its first move by move ordering, and turn order stays real.
//!
//! With two players in the game all three are the same alpha-beta.

mod alphabeta;
mod brs;
pub mod eval;
mod maxn;
pub mod ordering;
pub mod see;
pub mod time;
pub mod tt;
pub mod weights;

use crate::moves::Move;
use crate::position::Position;
use crate::rules::Outcome;
use crate::types::{MAX_PLAYERS, Player};
use ordering::Ordering;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};
use tt::TranspositionTable;

/// Asks the processor to bring the memory of `value` into its caches while
/// other work goes on (the search's tables are met at random places, and a
/// miss in the processor's caches would stall the node that reads them).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is part of every x86-64 processor, and a prefetch
        // only hints the caches: it never faults and changes no memory.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Score of a game won at the root; wins nearer the root score higher.
pub const WIN_SCORE: i32 = 30_000;

/// Scores beyond this are game ends found by the search.
pub const DECIDED_SCORE: i32 = WIN_SCORE - 1_000;

/// Deepest iteration.
pub const MAX_DEPTH: u32 = 100;

/// How often (in nodes) a thread looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 512;

/// The search algorithms (engine option `SearchAlgorithm`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// The root player against the coalition of all others.
    Paranoid,
    /// Every player maximises its own score.
    MaxN,
    /// Best-reply search, improved (BRS+).
    BestReply,
}

impl Algorithm {
    /// The option values, as written.
    pub const VALUES: [(&'static str, Algorithm); 3] = [
        ("paranoid", Algorithm::Paranoid),
        ("maxn", Algorithm::MaxN),
        ("brs", Algorithm::BestReply),
    ];

    /// The algorithm written as `name` (any case).
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Self::VALUES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, a)| a)
    }

    /// The algorithm's option value.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Paranoid => "paranoid",
            Algorithm::MaxN => "maxn",
            Algorithm::BestReply => "brs",
        }
    }
}

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
    /// Stop once a mate in at most this many moves is found (counted as
    /// `score mate` counts them).
    pub mate: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Only these root moves.
    pub search_moves: Vec<Move>,
}

/// Settings of the search that persist between searches.
#[derive(Clone, Debug)]
pub struct Options {
    /// The algorithm for positions with three players.
    pub algorithm: Algorithm,
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Principal variations to report.
    pub multi_pv: usize,
    /// Time kept back per move for communication.
    pub move_overhead: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            algorithm: Algorithm::BestReply,
            threads: 1,
            hash_mb: 16,
            multi_pv: 1,
            move_overhead: Duration::from_millis(10),
        }
    }
}

/// Progress of a search after a completed depth (one per principal variation).
#[derive(Clone, Debug)]
pub struct Info {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which principal variation (1-based).
    pub multipv: usize,
    /// Nodes searched so far by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the table used by this search.
    pub hashfull: u32,
    /// Score from the view of the player to move at the root.
    pub score: i32,
    /// Each player's score (three-player games): letter and value.
    pub scores: Vec<(char, i32)>,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// What a running search tells its caller (from its main thread).
#[derive(Clone, Debug)]
pub enum Progress {
    /// The search's result so far (a completed iteration, or a move a
    /// stopped one proved better), one per principal variation.
    Line(Info),
    /// The root move the search turns to, once it has run for
    /// [`CURRENT_MOVE_AFTER`].
    CurrentMove {
        /// The depth being searched.
        depth: u32,
        /// The root move.
        mv: Move,
        /// Its place in the order of search (1-based, over all lines).
        number: usize,
    },
}

/// How long a search runs before it says which root move it is on (as
/// Stockfish's `currmove` lines, for a GUI's display of a long analysis).
pub const CURRENT_MOVE_AFTER: Duration = Duration::from_secs(3);

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`Move::NONE` when the game is over).
    pub best: Move,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Depth of the result: the deepest completed iteration, or the
    /// stopped one that proved its move better.
    pub depth: u32,
    /// Score from the root player's view.
    pub score: i32,
}

/// Converts a score to the protocol's form: `cp N` or `mate N` (moves of the root player).
pub fn score_text(score: i32) -> String {
    match mate_moves(score) {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {score}"),
    }
}

/// The moves to the end of a decided game that `score` stands for, as
/// `score mate` shows them (negative when the player is mated), or none
/// for a score that decides nothing.
pub fn mate_moves(score: i32) -> Option<i32> {
    if score.abs() < DECIDED_SCORE {
        return None;
    }
    let moves = (WIN_SCORE - score.abs() + 1) / 2;
    Some(if score > 0 { moves } else { -moves })
}

/// The points a game's result is measured against: the most any player
/// got, and at least one point.
pub(crate) fn outcome_scale(outcome: &Outcome) -> f64 {
    outcome
        .points
        .iter()
        .copied()
        .fold(0.0_f64, f64::max)
        .max(1.0)
}

/// A finished game scored from `player`'s view: its points against the
/// average of the others, relative to the game's largest share; wins nearer
/// the root score higher.
pub fn outcome_value(outcome: &Outcome, pos: &Position, player: Player, ply: usize) -> i32 {
    let players = pos.game().players;
    let best = outcome_scale(outcome);
    let others: Vec<f64> = (0..players)
        .filter(|&p| p != player.index())
        .map(|p| outcome.points[p])
        .collect();
    let average = others.iter().sum::<f64>() / others.len().max(1) as f64;
    let relative = ((outcome.points[player.index()] - average) / best).clamp(-1.0, 1.0);
    let magnitude = f64::from(WIN_SCORE - ply as i32);
    (relative * magnitude).round() as i32
}

/// The engine's search state kept between searches: the table, the
/// ordering statistics of each thread, and the options.
pub struct Searcher {
    options: Options,
    tt: TranspositionTable,
    orderings: Vec<Ordering>,
}

impl Default for Searcher {
    fn default() -> Self {
        Self::new(Options::default())
    }
}

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub stop: &'a AtomicBool,
    pub abort: AtomicBool,
    /// The deepest iteration any thread has completed: a thread searching
    /// that depth or less gives its iteration up and goes deeper.
    pub completed: std::sync::atomic::AtomicU32,
    /// The depth each thread is searching (0: none).
    pub searching: Vec<std::sync::atomic::AtomicU32>,
    pub nodes: AtomicU64,
    pub node_limit: Option<u64>,
    /// `go mate`: a mate in at most this many moves ends the search.
    pub mate_limit: Option<u32>,
    pub deadline: Option<Instant>,
    pub start: Instant,
    /// The deepest iteration completed so far, by whichever thread (or a
    /// better move proved within the next one, once stopped): what the
    /// search reports and plays.
    latest: Mutex<alphabeta::Completed>,
}

impl Shared<'_> {
    /// The next depth for thread `id`: the shallowest depth beyond every
    /// completed one that no other thread is searching, so that the threads
    /// spread over consecutive depths (at most `limit`).
    pub fn next_depth(&self, id: usize, limit: u32) -> u32 {
        let mut depth = self.completed.load(AtomicOrdering::Relaxed) + 1;
        while depth < limit
            && self
                .searching
                .iter()
                .enumerate()
                .any(|(other, d)| other != id && d.load(AtomicOrdering::Relaxed) == depth)
        {
            depth += 1;
        }
        self.searching[id].store(depth, AtomicOrdering::Relaxed);
        depth
    }

    /// The search's result so far.
    fn latest(&self) -> MutexGuard<'_, alphabeta::Completed> {
        self.latest.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the search must end now.
    pub fn must_stop(&self) -> bool {
        self.abort.load(AtomicOrdering::Relaxed)
            || self.stop.load(AtomicOrdering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .node_limit
                .is_some_and(|n| self.nodes.load(AtomicOrdering::Relaxed) >= n)
    }
}

impl Searcher {
    /// A searcher with `options`.
    pub fn new(options: Options) -> Searcher {
        let threads = options.threads.max(1);
        Searcher {
            tt: TranspositionTable::new(options.hash_mb),
            orderings: (0..threads).map(|_| Ordering::default()).collect(),
            options,
        }
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes the options, with a new table if `hash_mb` changed. When
    /// the new table cannot be allocated the old one stays (with its size
    /// kept in the options) and the error says so.
    pub fn set_options(&mut self, mut options: Options) -> Result<(), String> {
        let mut result = Ok(());
        if options.hash_mb != self.options.hash_mb {
            match TranspositionTable::try_new(options.hash_mb) {
                Ok(tt) => self.replace_table(tt),
                Err(why) => {
                    result = Err(format!("{why}; keeping {} MB", self.options.hash_mb));
                    options.hash_mb = self.options.hash_mb;
                }
            }
        }
        self.orderings
            .resize_with(options.threads.max(1), Ordering::default);
        self.options = options;
        result
    }

    /// Searches from now on with `table`, allocated beforehand for a `Hash`
    /// of `hash_mb` (so that a refusal was known when the size was set).
    pub fn install_table(&mut self, table: TranspositionTable, hash_mb: usize) {
        self.replace_table(table);
        self.options.hash_mb = hash_mb;
    }

    /// Forgets everything learnt (a new game): an empty table in place of
    /// the old one, which is freed on another thread, and fresh statistics.
    pub fn clear(&mut self) {
        match self.tt.emptied() {
            Some(empty) => self.replace_table(empty),
            None => self.tt.clear(),
        }
        for o in &mut self.orderings {
            o.clear();
        }
    }

    /// Puts `table` in place of the current one, which is freed on a thread
    /// of its own: returning gigabytes of written memory to the system
    /// takes a while that no search should wait for.
    fn replace_table(&mut self, table: TranspositionTable) {
        let old = std::mem::replace(&mut self.tt, table);
        // Should no thread start, the closure and the table with it are
        // dropped here instead: the same work, only not in the background.
        let _ = std::thread::Builder::new()
            .name("free-table".into())
            .spawn(move || drop(old));
    }

    /// Searches `pos` within `limits` until done or `stop` is raised,
    /// calling `report` after each completed depth and, in long searches,
    /// with each root move searched.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let start = Instant::now();
        let mut root_moves = pos.legal_moves();
        if !limits.search_moves.is_empty() {
            root_moves.retain(|m| limits.search_moves.contains(m));
        }
        if root_moves.is_empty() {
            return SearchResult {
                best: Move::NONE,
                ponder: None,
                nodes: 0,
                depth: 0,
                score: 0,
            };
        }
        self.tt.new_search();
        let plan = time::plan(pos, limits, self.options.move_overhead);
        let shared = Shared {
            tt: &self.tt,
            stop,
            abort: AtomicBool::new(false),
            completed: std::sync::atomic::AtomicU32::new(0),
            // The main thread claims depth 1 before any helper starts: it
            // completes it whatever stops the search (see `Worker::visit`).
            searching: (0..self.options.threads.max(1))
                .map(|id| std::sync::atomic::AtomicU32::new(u32::from(id == 0)))
                .collect(),
            nodes: AtomicU64::new(0),
            node_limit: limits.nodes,
            mate_limit: limits.mate,
            deadline: plan.hard.map(|h| start + h),
            start,
            latest: Mutex::default(),
        };
        let threads = self.options.threads.max(1);
        self.orderings.resize_with(threads, Ordering::default);
        let options = self.options.clone();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let (main, helpers) = self
            .orderings
            .split_first_mut()
            .expect("at least one thread");
        let shared_ref = &shared;
        let root_ref = &root_moves;
        let options_ref = &options;
        std::thread::scope(|scope| {
            let helpers: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(i, ordering)| {
                    let child = pos.clone();
                    scope.spawn(move || {
                        let mut worker = alphabeta::Worker::new(
                            shared_ref,
                            options_ref,
                            &child,
                            ordering,
                            i + 1,
                        );
                        worker.iterate(root_ref, max_depth, None, &mut |_| {});
                    })
                })
                .collect();
            let mut worker = alphabeta::Worker::new(shared_ref, options_ref, pos, main, 0);
            worker.iterate(root_ref, max_depth, plan.soft, report);
            shared_ref.abort.store(true, AtomicOrdering::Relaxed);
            for helper in helpers {
                // A helper that failed has only made the search shallower.
                let _ = helper.join();
            }
            worker.report_final(report);
        });
        let nodes = shared.nodes.load(AtomicOrdering::Relaxed);
        let latest = shared
            .latest
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        match latest.lines.first() {
            Some(line) => SearchResult {
                best: line.mv,
                ponder: line.pv.get(1).copied(),
                nodes,
                depth: latest.depth,
                score: line.score,
            },
            None => SearchResult {
                best: root_moves[0],
                ponder: None,
                nodes,
                depth: 0,
                score: 0,
            },
        }
    }
}

/// Searches `pos` once with default options (a fresh table).
pub fn search(
    pos: &Position,
    limits: &Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Progress),
) -> SearchResult {
    Searcher::default().search(pos, limits, stop, report)
}
