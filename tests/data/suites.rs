//! The perft suites of `perft/` read into checks, one per `depth=nodes`
//! count (format: perft/README.md). Shared, as plain text fields, by the
//! tests that include it with `#[path = "data/suites.rs"] mod suites;`: the
//! engine's and the reference generator's.

use std::path::Path;

/// One `depth=nodes` count of a suite line.
pub struct Check {
    /// Game id (the suite file's name).
    pub game: String,
    /// The line's name.
    pub name: String,
    /// `startpos` or a position string.
    pub position: String,
    /// Engine options of the line, as `(name, value)`.
    pub options: Vec<(String, String)>,
    /// Depth of the count.
    pub depth: u32,
    /// The expected count.
    pub nodes: u64,
}

/// Every count of every suite file, in file order.
pub fn read() -> Vec<Check> {
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
                .map_or("", |o| o)
                .split_whitespace()
                .map(|kv| {
                    let (k, v) = kv.split_once('=').expect("option=value");
                    (k.to_string(), v.to_string())
                })
                .collect();
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

/// The node budget from environment variable `var`, else `default`.
pub fn budget(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(default)
}
