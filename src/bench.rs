//! The benchmark (`triskel bench` and the protocol's `bench`): a fixed set
//! of perft counts and fixed-depth searches whose node total is a signature
//! of the engine's behaviour and whose speed measures the machine.
//!
//! Each game names its positions in its file (its `BENCH`).

use crate::game::Variant;
use crate::number;
use crate::perft;
use crate::position::AfterMate;
use crate::protocol::options::max_threads;
use crate::protocol::setup::{STARTPOS, build_position};
use crate::search::{Limits, MAX_DEPTH, Options as SearchOptions, Searcher, eval};
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

/// The benchmark, in the order it runs: every game's perft counts, then
/// every game's searches (each game's [`GameBench`](crate::game::GameBench),
/// in its file), with default depths chosen so that the whole run takes
/// some seconds. The search nodes are the search's signature: a change that
/// alters no search decision leaves them unchanged (every search starts
/// afresh, so the order does not change them).
pub fn bench_entries() -> Vec<BenchEntry> {
    let mut entries = Vec::new();
    for kind in [BenchKind::Perft, BenchKind::Search] {
        for variant in Variant::ALL {
            let bench = &variant.game().bench;
            let positions = match kind {
                BenchKind::Perft => bench.perft,
                BenchKind::Search => bench.search,
            };
            entries.extend(positions.iter().map(|p| BenchEntry {
                variant,
                name: p.name,
                position: p.position.unwrap_or(STARTPOS),
                kind,
                depth: p.depth,
            }));
        }
    }
    entries
}

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

/// Runs every entry of [`bench_entries`], passing one line per entry to
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
    let entries = bench_entries();
    for (i, e) in entries.iter().enumerate() {
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
            entries.len(),
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
        for e in bench_entries() {
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
