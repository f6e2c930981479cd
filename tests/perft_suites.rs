//! Runs the engine's move generator over every perft suite in `perft/`.
//!
//! Counts above a node budget are skipped to keep CI fast; set
//! `TRISKEL_PERFT_BUDGET` (nodes) higher to run deeper entries.

#[path = "data/suites.rs"]
mod suites;

use rayon::prelude::*;
use triskel::perft::perft;
use triskel::position::{AfterMate, Position};
use triskel::variants::Variant;

/// Largest count run by default (every entry of the suites today).
const DEFAULT_BUDGET: u64 = 250_000_000;

/// A suite check with its game and options read for the engine.
struct Check {
    variant: Variant,
    after_mate: AfterMate,
    line: suites::Check,
}

/// Reads the suites; an unknown game or option fails the test.
fn read_checks() -> Vec<Check> {
    suites::read()
        .into_iter()
        .map(|line| {
            let variant = Variant::from_id(&line.game)
                .unwrap_or_else(|| panic!("perft/{}.txt: unknown game", line.game));
            let mut after_mate = AfterMate::End;
            for (name, value) in &line.options {
                match name.as_str() {
                    "AfterMate" => {
                        after_mate = AfterMate::from_name(value).expect("AfterMate value");
                    }
                    _ => panic!("perft/{}.txt: unknown option {name}", line.game),
                }
            }
            Check {
                variant,
                after_mate,
                line,
            }
        })
        .collect()
}

#[test]
fn engine_matches_every_perft_suite() {
    let budget = suites::budget("TRISKEL_PERFT_BUDGET", DEFAULT_BUDGET);
    let checks: Vec<Check> = read_checks()
        .into_iter()
        .filter(|c| c.line.nodes <= budget)
        .collect();
    for variant in Variant::ALL {
        assert!(
            checks.iter().any(|c| c.variant == variant),
            "no perft entries for {variant}"
        );
    }
    let failures: Vec<String> = checks
        .par_iter()
        .filter_map(|c| {
            let mut pos = if c.line.position == "startpos" {
                Position::start(c.variant)
            } else {
                match Position::from_fen_with(c.variant, &c.line.position, c.after_mate) {
                    Ok(p) => p,
                    Err(e) => return Some(format!("{} {}: {e}", c.variant, c.line.name)),
                }
            };
            pos.set_after_mate(c.after_mate);
            let n = perft(&mut pos, c.line.depth);
            (n != c.line.nodes).then(|| {
                format!(
                    "{} {} depth {}: engine {n}, suite {}",
                    c.variant, c.line.name, c.line.depth, c.line.nodes
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
}
