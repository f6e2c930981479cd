//! Runs the engine's move generator over every perft suite in `perft/`.
//!
//! Counts above a node budget are skipped to keep CI fast; set
//! `TRISKEL_PERFT_BUDGET` (nodes) higher to run deeper entries.

use rayon::prelude::*;
use std::path::Path;
use triskel::perft::perft;
use triskel::position::{AfterMate, Position};
use triskel::variants::Variant;

/// Largest count run by default (every entry of the suites today).
const DEFAULT_BUDGET: u64 = 250_000_000;

/// One `depth=nodes` check of a suite line.
struct Check {
    variant: Variant,
    name: String,
    position: String,
    after_mate: AfterMate,
    depth: u32,
    nodes: u64,
}

fn read_suites() -> Vec<Check> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("perft");
    let mut checks = Vec::new();
    for variant in Variant::ALL {
        let file = dir.join(format!("{}.txt", variant.id()));
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("every game has a suite: {}: {e}", file.display()));
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            assert!(
                fields.len() >= 3,
                "{}: malformed line {line:?}",
                file.display()
            );
            let mut after_mate = AfterMate::End;
            for option in fields.get(3).map_or("", |o| o).split_whitespace() {
                match option.split_once('=') {
                    Some(("AfterMate", value)) => {
                        after_mate = AfterMate::from_name(value).expect("AfterMate value");
                    }
                    _ => panic!("{}: unknown option {option}", file.display()),
                }
            }
            for count in fields[2].split_whitespace() {
                let (depth, nodes) = count.split_once('=').expect("depth=nodes");
                checks.push(Check {
                    variant,
                    name: fields[0].to_string(),
                    position: fields[1].to_string(),
                    after_mate,
                    depth: depth.parse().expect("depth"),
                    nodes: nodes.parse().expect("nodes"),
                });
            }
        }
    }
    checks
}

#[test]
fn engine_matches_every_perft_suite() {
    let budget = std::env::var("TRISKEL_PERFT_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(DEFAULT_BUDGET);
    let checks: Vec<Check> = read_suites()
        .into_iter()
        .filter(|c| c.nodes <= budget)
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
            let mut pos = if c.position == "startpos" {
                Position::start(c.variant)
            } else {
                match Position::from_fen_with(c.variant, &c.position, c.after_mate) {
                    Ok(p) => p,
                    Err(e) => return Some(format!("{} {}: {e}", c.variant, c.name)),
                }
            };
            pos.set_after_mate(c.after_mate);
            let n = perft(&mut pos, c.depth);
            (n != c.nodes).then(|| {
                format!(
                    "{} {} depth {}: engine {n}, suite {}",
                    c.variant, c.name, c.depth, c.nodes
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
}
