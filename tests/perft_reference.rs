//! Confirms the perft suites in `perft/` with the reference generator.
//!
//! Every count up to a node budget is recomputed by the simple generator in
//! `tests/reference/`. The budget keeps CI fast; set
//! `TRISKEL_REFERENCE_BUDGET` (nodes) higher to confirm deeper counts, e.g.
//! `TRISKEL_REFERENCE_BUDGET=1000000000 cargo test --release --test perft_reference`.
//!
//! For debugging, `reference_divide` (ignored by default) prints a divide:
//! `REF_GAME=chess REF_POS=startpos REF_DEPTH=3 cargo test --release --test
//! perft_reference -- --ignored --nocapture reference_divide`.

mod reference;
#[path = "data/suites.rs"]
mod suites;

use rayon::prelude::*;
use suites::Check;

/// Default largest count confirmed in a normal test run.
const DEFAULT_BUDGET: u64 = 3_000_000;

#[test]
fn reference_confirms_perft_suites() {
    let budget = suites::budget("TRISKEL_REFERENCE_BUDGET", DEFAULT_BUDGET);
    let checks: Vec<Check> = suites::read()
        .into_iter()
        .filter(|c| c.nodes <= budget)
        .collect();
    assert!(!checks.is_empty(), "no perft suite entries found");
    let failures: Vec<String> = checks
        .par_iter()
        .filter_map(
            |c| match reference::perft(&c.game, &c.position, &c.options, c.depth) {
                Ok(n) if n == c.nodes => None,
                Ok(n) => Some(format!(
                    "{} {} depth {}: reference {n}, suite {}",
                    c.game, c.name, c.depth, c.nodes
                )),
                Err(e) => Some(format!("{} {} depth {}: {e}", c.game, c.name, c.depth)),
            },
        )
        .collect();
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
}

#[test]
#[ignore = "debugging aid: REF_GAME, REF_POS, REF_DEPTH, REF_OPTIONS"]
fn reference_divide() {
    let game = std::env::var("REF_GAME").unwrap_or_else(|_| "chess".into());
    let position = std::env::var("REF_POS").unwrap_or_else(|_| "startpos".into());
    let depth = std::env::var("REF_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(1);
    let options: Vec<(String, String)> = std::env::var("REF_OPTIONS")
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|kv| kv.split_once('=').map(|(k, v)| (k.into(), v.into())))
        .collect();
    let lines = reference::divide(&game, &position, &options, depth).expect("reference divide");
    let mut total = 0;
    for (mv, nodes) in &lines {
        println!("{mv}: {nodes}");
        total += nodes;
    }
    println!("\nNodes searched: {total}");
}
