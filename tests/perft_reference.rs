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

use rayon::prelude::*;
use std::path::Path;

/// Default largest count confirmed in a normal test run.
const DEFAULT_BUDGET: u64 = 3_000_000;

/// One `depth=nodes` check of a suite line.
struct Check {
    game: String,
    name: String,
    position: String,
    options: Vec<(String, String)>,
    depth: u32,
    nodes: u64,
}

fn read_suites() -> Vec<Check> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("perft");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("perft/ directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut checks = Vec::new();
    for file in files {
        let game = file.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&file).expect("readable suite");
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
            let options: Vec<(String, String)> = fields
                .get(3)
                .map(|o| {
                    o.split_whitespace()
                        .map(|kv| {
                            let (k, v) = kv.split_once('=').expect("option=value");
                            (k.to_string(), v.to_string())
                        })
                        .collect()
                })
                .unwrap_or_default();
            for count in fields[2].split_whitespace() {
                let (depth, nodes) = count.split_once('=').expect("depth=nodes");
                checks.push(Check {
                    game: game.clone(),
                    name: fields[0].to_string(),
                    position: fields[1].to_string(),
                    options: options.clone(),
                    depth: depth.parse().expect("depth"),
                    nodes: nodes.parse().expect("nodes"),
                });
            }
        }
    }
    checks
}

#[test]
fn reference_confirms_perft_suites() {
    let budget = std::env::var("TRISKEL_REFERENCE_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(DEFAULT_BUDGET);
    let checks: Vec<Check> = read_suites()
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
