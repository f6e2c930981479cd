//! The tactical suite: every position of `tests/data/tactics.txt` (format in
//! its header) is searched by the real engine through the protocol, with each
//! listed SearchAlgorithm at the listed depth, and the `bestmove` must be one
//! of the expected moves. One test per game, so the games run in parallel and
//! a failure names its game; each test reports every failing line at once.

#[path = "data/engine.rs"]
mod engine;

use engine::{Engine, is_error};
use std::time::Duration;

/// Longest a single search may take before it counts as a hang.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(30);

/// The games of the rule book (`UCI_Variant` ids).
const GAMES: [&str; 7] = [
    "chess",
    "dreierschach",
    "hexenschach",
    "pyramid",
    "pyramid-ep",
    "trichess",
    "star",
];

/// One line of the data file.
#[derive(Debug)]
struct Case {
    line: usize,
    game: String,
    name: String,
    position: String,
    /// (SearchAlgorithm or none, depth) for each search to run.
    runs: Vec<(Option<String>, u32)>,
    best: Vec<String>,
    /// The exact set of legal moves, if the line states it.
    legal: Option<Vec<String>>,
    /// Engine options set before the position.
    options: Vec<(String, String)>,
}

fn data_file() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tactics.txt");
    std::fs::read_to_string(path).expect("tests/data/tactics.txt")
}

/// Parses the data file; panics with the line number on a malformed line.
fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (i, text) in data_file().lines().enumerate() {
        let line = i + 1;
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = text.split('|').map(str::trim).collect();
        assert!(
            (6..=7).contains(&fields.len()),
            "tactics.txt:{line}: expected 6 or 7 fields, got {}",
            fields.len()
        );
        let depth: u32 = fields[3]
            .parse()
            .unwrap_or_else(|_| panic!("tactics.txt:{line}: bad depth {:?}", fields[3]));
        let runs = if fields[4] == "-" {
            vec![(None, depth)]
        } else {
            fields[4]
                .split_whitespace()
                .map(|word| {
                    let (algorithm, d) = match word.split_once(':') {
                        Some((a, d)) => (
                            a,
                            d.parse().unwrap_or_else(|_| {
                                panic!("tactics.txt:{line}: bad depth in {word}")
                            }),
                        ),
                        None => (word, depth),
                    };
                    assert!(
                        ["paranoid", "maxn", "brs"].contains(&algorithm),
                        "tactics.txt:{line}: unknown algorithm {algorithm}"
                    );
                    (Some(algorithm.to_string()), d)
                })
                .collect()
        };
        let mut legal = None;
        let mut options = Vec::new();
        for token in fields.get(6).map_or("", |f| f).split_whitespace() {
            let (key, value) = token
                .split_once('=')
                .unwrap_or_else(|| panic!("tactics.txt:{line}: extra {token:?} is not key=value"));
            if key == "legal" {
                legal = Some(value.split(',').map(str::to_string).collect());
            } else {
                options.push((key.to_string(), value.to_string()));
            }
        }
        let case = Case {
            line,
            game: fields[0].to_string(),
            name: fields[1].to_string(),
            position: fields[2].to_string(),
            runs,
            best: fields[5].split_whitespace().map(str::to_string).collect(),
            legal,
            options,
        };
        assert!(
            GAMES.contains(&case.game.as_str()),
            "tactics.txt:{line}: unknown game {}",
            case.game
        );
        assert!(
            !case.best.is_empty(),
            "tactics.txt:{line}: no expected move"
        );
        cases.push(case);
    }
    cases
}

/// Runs every search of `case`; returns one message per failure.
fn check(case: &Case) -> Vec<String> {
    let id = format!("{} {} (tactics.txt:{})", case.game, case.name, case.line);
    let mut failures = Vec::new();
    let mut e = Engine::start();
    let mut setup = vec![format!("setoption name UCI_Variant value {}", case.game)];
    setup.extend(
        case.options
            .iter()
            .map(|(k, v)| format!("setoption name {k} value {v}")),
    );
    setup.push(format!("position fen {}", case.position));
    for command in &setup {
        let lines = e.command(command);
        if let Some(error) = lines.iter().find(|l| is_error(l)) {
            return vec![format!("{id}: '{command}' was refused: {error}")];
        }
    }
    // The expected moves must be legal, and the legal moves as stated.
    let legal = e.legal_moves();
    for m in &case.best {
        if !legal.contains(m) {
            failures.push(format!("{id}: expected move {m} is not legal here"));
        }
    }
    if let Some(stated) = &case.legal {
        let mut got = legal.clone();
        let mut want = stated.clone();
        got.sort();
        want.sort();
        if got != want {
            failures.push(format!(
                "{id}: legal moves are {got:?}, the data file says {want:?}"
            ));
        }
    }
    for (algorithm, depth) in &case.runs {
        if let Some(a) = algorithm {
            e.command(&format!("setoption name SearchAlgorithm value {a}"));
        }
        e.command("ucinewgame");
        e.command(&format!("position fen {}", case.position));
        let (best, lines, time) = e.go(&format!("go depth {depth}"), SEARCH_TIMEOUT);
        let label = algorithm.as_deref().unwrap_or("default");
        println!(
            "{id}: {label} depth {depth}: bestmove {best} in {} ms",
            time.as_millis()
        );
        if !case.best.contains(&best) {
            let last_info = lines
                .iter()
                .rev()
                .find(|l| l.starts_with("info depth"))
                .map_or("", String::as_str);
            failures.push(format!(
                "{id}: {label} depth {depth} played {best:?}, expected one of {:?}\n    last info: {last_info}\n    last line: {}",
                case.best,
                lines.last().map_or("", String::as_str)
            ));
        }
    }
    failures
}

/// Runs every line of `game` and fails with all failures listed.
fn run_game(game: &str) {
    let failures: Vec<String> = cases()
        .iter()
        .filter(|c| c.game == game)
        .flat_map(check)
        .collect();
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The data file parses and covers, for every game, a mate in one, a mate in
/// two and a queen win, plus Star's duty to help and Hexenschach's Rabe
/// captures in both phases.
#[test]
fn data_file_covers_every_game() {
    let cases = cases();
    let has = |game: &str, prefix: &str| {
        cases
            .iter()
            .any(|c| c.game == game && c.name.starts_with(prefix))
    };
    for game in GAMES {
        for prefix in ["mate1-", "mate2-", "queen-"] {
            assert!(has(game, prefix), "no {prefix} line for {game}");
        }
    }
    assert!(has("star", "help-"), "no duty-to-help line for star");
    assert!(has("hexenschach", "rabe-a-"), "no phase-A Rabe line");
    assert!(has("hexenschach", "rabe-b-"), "no phase-B Rabe line");
    let mut names: Vec<(&str, &str)> = cases
        .iter()
        .map(|c| (c.game.as_str(), c.name.as_str()))
        .collect();
    names.sort();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "duplicate game/name pairs");
}

#[test]
fn tactics_chess() {
    run_game("chess");
}

#[test]
fn tactics_dreierschach() {
    run_game("dreierschach");
}

#[test]
fn tactics_hexenschach() {
    run_game("hexenschach");
}

#[test]
fn tactics_pyramid() {
    run_game("pyramid");
}

#[test]
fn tactics_pyramid_ep() {
    run_game("pyramid-ep");
}

#[test]
fn tactics_trichess() {
    run_game("trichess");
}

#[test]
fn tactics_star() {
    run_game("star");
}
