//! The benchmark (`triskel bench` and the protocol's `bench`): a fixed set
//! of perft counts and fixed-depth searches whose node total is a signature
//! of the engine's behaviour and whose speed measures the machine.
//!
//! Each playable game adds its positions as entries of [`BENCH_ENTRIES`].

use crate::number;
use crate::perft;
use crate::position::AfterMate;
use crate::protocol::options::max_threads;
use crate::protocol::setup::{STARTPOS, build_position};
use crate::search::{Limits, MAX_DEPTH, Options as SearchOptions, Searcher, eval};
use crate::variants::Variant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What a benchmark entry runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchKind {
    /// Count the move tree to the entry's depth.
    Perft,
    /// Search to the entry's depth (or the depth the user gives).
    Search,
}

impl BenchKind {
    /// The kind as written in the output.
    pub fn name(self) -> &'static str {
        match self {
            BenchKind::Perft => "perft",
            BenchKind::Search => "search",
        }
    }
}

/// One benchmark position.
#[derive(Clone, Copy, Debug)]
pub struct BenchEntry {
    /// The game.
    pub variant: Variant,
    /// A short name for the output.
    pub name: &'static str,
    /// `startpos` or a position string.
    pub position: &'static str,
    /// Perft or search.
    pub kind: BenchKind,
    /// Depth (plies).
    pub depth: u32,
}

/// Shorthand for a table entry.
const fn entry(
    variant: Variant,
    name: &'static str,
    position: &'static str,
    kind: BenchKind,
    depth: u32,
) -> BenchEntry {
    BenchEntry {
        variant,
        name,
        position,
        kind,
        depth,
    }
}

/// Kiwipete, the classic move generator test (chessprogramming.org).
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// A rook endgame with en-passant and check subtleties (perft "position 3").
pub const ROOK_ENDGAME: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
/// Promotions and castling rights (perft "position 4").
pub const PROMOTIONS: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
/// A quiet middlegame (perft "position 6").
pub const MIDDLEGAME: &str =
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
/// Dreierschach with every army developed and both castlings open (perft suite).
const DREIERSCHACH_MIDDLE: &str = "nRnP2bPbR/nBnP3bP1/nNnP4bP1/nKnP3bNbB2/1nPnQ4bPbPbK/1nPnB4bQ1bP1/1nP6bN1bP1/nRnP1nN6bBbPbR/nP10bP/11/1wN1wBwP5/wPwPwPwP1wPwPwPwP/wR2wKwQwBwNwR b wKQnKQbKQ - 0 1";
/// Hexenschach in phase A with a Rabe in reach (perft suite).
const HEXENSCHACH_MIDDLE: &str = "wKwBwRwP1/3wP1bP/wRwN1bN1bPbR/1wPwPwPwQbP2/1wPrP3bP1bK/rPrPrRwB1rN1bB/2rPbPrPbPbN/rB4rQ/rKrNrRrP1 b rKwKQbK - 0 1";
/// Pieces on every level of the pyramid (perft suite).
const PYRAMID_MIDDLE: &str = "bR1bB3bK1/bPbP3bPbPbP/8/8/8/8/wPwPwP2wPwPwP/wR5wK1/6/1bQ1bP2/3wB2/4bN1/2wP3/6/1bB1wN/4/2bR1/wR3/2/wQ1 w - - 0 1";
/// Trichess with pieces on the middle cells (perft suite).
const TRICHESS_MIDDLE: &str = "3wRwB3/8/wPwPwP2wPwPwP/6wK1/2rR1wN3/1rN1rQ4/rP4rPrPrP/4rK3/4bB3/2bN2bQ2/bPbP3bPbPbP/4bK3 w - - 0 1";
/// Star with pieces on the middle cells (perft suite).
const STAR_MIDDLE: &str =
    "3bRbB3/8/bPbPbP2bPbPbP/4bK3/3bN4/1gQ2gN3/5gPgPgP/gR3gK3/8/2rB2rN2/rPrP2rP1rPrP/4rK3 b - - 0 1";

/// The benchmark, in the order it runs: for every game a perft count and
/// searches of its start and of a middle-game position, with default depths
/// chosen so that the whole run takes some seconds. The search nodes are
/// the search's signature: a change that alters no search decision leaves
/// them unchanged.
#[rustfmt::skip]
pub const BENCH_ENTRIES: &[BenchEntry] = &[
    entry(Variant::Chess,        "start",    STARTPOS,             BenchKind::Perft,  5),
    entry(Variant::Chess,        "kiwipete", KIWIPETE,             BenchKind::Perft,  4),
    entry(Variant::Dreierschach, "start",    STARTPOS,             BenchKind::Perft,  4),
    entry(Variant::Hexenschach,  "start",    STARTPOS,             BenchKind::Perft,  5),
    entry(Variant::Pyramid,      "start",    STARTPOS,             BenchKind::Perft,  4),
    entry(Variant::Trichess,     "start",    STARTPOS,             BenchKind::Perft,  5),
    entry(Variant::Star,         "start",    STARTPOS,             BenchKind::Perft,  5),
    entry(Variant::Chess,        "start",    STARTPOS,             BenchKind::Search, 8),
    entry(Variant::Chess,        "kiwipete", KIWIPETE,             BenchKind::Search, 6),
    entry(Variant::Chess,        "middle",   MIDDLEGAME,           BenchKind::Search, 6),
    entry(Variant::Dreierschach, "start",    STARTPOS,             BenchKind::Search, 4),
    entry(Variant::Dreierschach, "middle",   DREIERSCHACH_MIDDLE,  BenchKind::Search, 3),
    entry(Variant::Hexenschach,  "start",    STARTPOS,             BenchKind::Search, 3),
    entry(Variant::Hexenschach,  "middle",   HEXENSCHACH_MIDDLE,   BenchKind::Search, 3),
    entry(Variant::Pyramid,      "start",    STARTPOS,             BenchKind::Search, 6),
    entry(Variant::Pyramid,      "middle",   PYRAMID_MIDDLE,       BenchKind::Search, 5),
    entry(Variant::Trichess,     "start",    STARTPOS,             BenchKind::Search, 5),
    entry(Variant::Trichess,     "middle",   TRICHESS_MIDDLE,      BenchKind::Search, 5),
    entry(Variant::Star,         "start",    STARTPOS,             BenchKind::Search, 5),
    entry(Variant::Star,         "middle",   STAR_MIDDLE,          BenchKind::Search, 5),
];

/// How to run the benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchConfig {
    /// Depth of the searches instead of each entry's own (perft entries keep theirs).
    pub depth: Option<u32>,
    /// Threads for perft and the search.
    pub threads: usize,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            depth: None,
            threads: 1,
        }
    }
}

impl BenchConfig {
    /// Reads the words after the protocol's `bench`: `[depth <n>] [threads <n>]`.
    pub fn parse(words: &[&str]) -> Result<BenchConfig, String> {
        let mut config = BenchConfig::default();
        for pair in words.chunks(2) {
            let value = pair
                .get(1)
                .ok_or_else(|| format!("bench {}: missing value", pair[0]))?;
            match pair[0] {
                "depth" => {
                    config.depth = Some(number::whole(value).ok_or_else(|| depth_error(value))?);
                }
                "threads" => {
                    config.threads = number::whole(value).ok_or_else(|| threads_error(value))?;
                }
                other => {
                    return Err(format!(
                        "unknown bench parameter '{other}' (depth, threads)"
                    ));
                }
            }
        }
        config.check()?;
        Ok(config)
    }

    /// Refuses depths and thread counts out of range.
    pub fn check(&self) -> Result<(), String> {
        if let Some(depth) = self.depth
            && !(1..=MAX_DEPTH).contains(&depth)
        {
            return Err(depth_error(&depth.to_string()));
        }
        if !(1..=max_threads()).contains(&(self.threads as i64)) {
            return Err(threads_error(&self.threads.to_string()));
        }
        Ok(())
    }
}

fn depth_error(value: &str) -> String {
    format!("bench depth: expected an integer from 1 to {MAX_DEPTH}, got '{value}'")
}

fn threads_error(value: &str) -> String {
    format!(
        "bench threads: expected an integer from 1 to {}, got '{value}'",
        max_threads()
    )
}

/// The result of a benchmark run.
#[derive(Clone, Copy, Debug)]
pub struct BenchTotals {
    /// Nodes of all entries.
    pub nodes: u64,
    /// Time of all entries.
    pub elapsed: Duration,
    /// Nodes of the search entries (the search's signature).
    pub search_nodes: u64,
    /// Time of the search entries.
    pub search_elapsed: Duration,
}

impl BenchTotals {
    /// Nodes per second over the whole run.
    pub fn nodes_per_second(&self) -> u64 {
        per_second(self.nodes, self.elapsed)
    }

    /// The summary printed after the entries: totals, and the search part
    /// alone (perft counts far faster than the search visits nodes).
    pub fn summary_lines(&self) -> Vec<String> {
        vec![
            "===========================".to_string(),
            format!("Total time (ms): {}", self.elapsed.as_millis()),
            format!("Total nodes: {}", self.nodes),
            format!("Nodes/second: {}", self.nodes_per_second()),
            format!("Search nodes: {}", self.search_nodes),
            format!(
                "Search nodes/second: {}",
                per_second(self.search_nodes, self.search_elapsed)
            ),
        ]
    }
}

/// `nodes` per second over `elapsed` (at least one millisecond).
pub fn per_second(nodes: u64, elapsed: Duration) -> u64 {
    let ms = elapsed.as_millis().max(1);
    u64::try_from(u128::from(nodes) * 1000 / ms).unwrap_or(u64::MAX)
}

/// Runs every entry of [`BENCH_ENTRIES`], passing one line per entry to
/// `report`, and returns the totals ([`BenchTotals::summary_lines`]), or
/// `Ok(None)` if `stop` was raised before the end.
pub fn run(
    config: &BenchConfig,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&str),
) -> Result<Option<BenchTotals>, String> {
    config.check()?;
    // Tables are built at start-up, as in the engine, not in the timed entries.
    eval::build_all_tables();
    let mut totals = BenchTotals {
        nodes: 0,
        elapsed: Duration::ZERO,
        search_nodes: 0,
        search_elapsed: Duration::ZERO,
    };
    for (i, e) in BENCH_ENTRIES.iter().enumerate() {
        let pos = build_position::<&str>(e.variant, AfterMate::default(), Some(e.position), &[])
            .map_err(|why| format!("entry {} ({} {}): {why}", i + 1, e.variant, e.name))?;
        let depth = match e.kind {
            BenchKind::Perft => e.depth,
            BenchKind::Search => config.depth.unwrap_or(e.depth),
        };
        // Each search starts from a fresh table, made before the clock
        // starts: an engine allocates its table once (at start-up or when
        // `Hash` changes), not for each search, and allocating 16 MB takes
        // longer than some of these searches.
        let mut searcher = (e.kind == BenchKind::Search).then(|| {
            Searcher::new(SearchOptions {
                threads: config.threads,
                ..SearchOptions::default()
            })
        });
        let start = Instant::now();
        let nodes = match &mut searcher {
            None => perft::divide_until(&pos, depth, config.threads, stop)
                .map(|counts| counts.iter().map(|&(_, n)| n).sum()),
            Some(searcher) => {
                let limits = Limits {
                    depth: Some(depth),
                    ..Limits::default()
                };
                Some(searcher.search(&pos, &limits, stop, &mut |_| {}).nodes)
            }
        };
        let elapsed = start.elapsed();
        let Some(nodes) = nodes.filter(|_| !stop.load(Ordering::Relaxed)) else {
            return Ok(None);
        };
        totals.nodes += nodes;
        totals.elapsed += elapsed;
        if e.kind == BenchKind::Search {
            totals.search_nodes += nodes;
            totals.search_elapsed += elapsed;
        }
        report(&format!(
            "{}/{} {} {} {} depth {}: {nodes} nodes, {} ms",
            i + 1,
            BENCH_ENTRIES.len(),
            e.variant,
            e.kind.name(),
            e.name,
            depth,
            elapsed.as_millis()
        ));
    }
    Ok(Some(totals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_playable_and_well_formed() {
        for e in BENCH_ENTRIES {
            assert!(e.variant.is_playable(), "{} {}", e.variant, e.name);
            assert!(
                build_position::<&str>(e.variant, AfterMate::default(), Some(e.position), &[])
                    .is_ok(),
                "{} {}",
                e.variant,
                e.name
            );
            assert!((1..=MAX_DEPTH).contains(&e.depth));
        }
    }

    #[test]
    fn parses_parameters() {
        assert_eq!(
            BenchConfig::parse(&["depth", "3", "threads", "2"]),
            Ok(BenchConfig {
                depth: Some(3),
                threads: 2
            })
        );
        for bad in [
            &["depth"][..],
            &["depth", "0"],
            &["depth", "x"],
            &["threads", "100000"],
            &["speed", "1"],
        ] {
            assert!(BenchConfig::parse(bad).is_err(), "{bad:?}");
        }
    }
}
