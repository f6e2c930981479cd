//! `triskel match`: tiny matches of the baselines, their records and table,
//! and the errors of bad flags.

#[path = "data/command.rs"]
mod command;

use command::{FAILURE, USAGE_ERROR, stderr, stdout, triskel};
use std::collections::HashSet;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use triskel::position::{AfterMate, Position};
use triskel::protocol::setup::build_position;
use triskel::tournament::game::{ClockEvent, GameEnd, play_word};
use triskel::tournament::pgn::{Evaluation, PgnGame, read_games};
use triskel::tournament::record::{HEADER, Record};
use triskel::types::Player;
use triskel::variants::Variant;

/// Tolerance of sums of points.
const EPSILON: f64 = 1e-9;

/// A record file for one test, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        TempFile(
            std::env::temp_dir().join(format!("triskel-match-{}-{name}.txt", std::process::id())),
        )
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temp path")
    }

    fn records(&self) -> Vec<Record> {
        let text = std::fs::read_to_string(&self.0).expect("the record file exists");
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(HEADER));
        lines
            .filter(|l| !l.starts_with('#'))
            .map(|l| Record::parse(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The table's rows: name, games, seats, points.
fn table(out: &str) -> Vec<(String, usize, usize, f64)> {
    out.lines()
        .skip_while(|l| !l.starts_with("config "))
        .skip(1)
        .take_while(|l| !l.is_empty() && !l.starts_with("equal strength"))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            (
                words[0].to_string(),
                words[1].parse().expect("games"),
                words[2].parse().expect("seats"),
                words[3].parse().expect("points"),
            )
        })
        .collect()
}

/// The pairwise table's rows: first, second, games, wins, draws, losses,
/// score.
fn head_to_head(out: &str) -> Vec<(String, String, u64, u64, u64, u64, f64)> {
    out.lines()
        .skip_while(|l| !l.starts_with("head to head "))
        .skip(1)
        .take_while(|l| !l.is_empty() && !l.starts_with("sprt:"))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let number = |i: usize| words[i].parse::<u64>().expect("a count");
            assert_eq!(words[1], "vs", "{l}");
            (
                words[0].to_string(),
                words[2].to_string(),
                number(3),
                number(4),
                number(5),
                number(6),
                words[7].parse().expect("a score"),
            )
        })
        .collect()
}

/// `a`'s wins, draws and losses against `b` in `records` by the points
/// per seat each held (protocol.md, "Head to head"), and their games.
fn results_between(records: &[Record], a: &str, b: &str) -> (u64, u64, u64, u64) {
    let mut counts = (0, 0, 0, 0);
    for r in records {
        let per_seat = |name: &str| -> Option<f64> {
            let mine: Vec<f64> = r
                .seats
                .iter()
                .zip(&r.points)
                .filter(|((_, n), _)| n == name)
                .map(|(_, &p)| p)
                .collect();
            (!mine.is_empty()).then(|| mine.iter().sum::<f64>() / mine.len() as f64)
        };
        let (Some(mine), Some(theirs)) = (per_seat(a), per_seat(b)) else {
            continue;
        };
        counts.3 += 1;
        if (mine - theirs).abs() < EPSILON {
            counts.1 += 1;
        } else if mine > theirs {
            counts.0 += 1;
        } else {
            counts.2 += 1;
        }
    }
    counts
}

/// The live standings' lines of `out` for `games` games done: the
/// standings, then the comparison.
fn live_block(out: &str, done: usize, total: usize) -> (&str, &str) {
    let lines: Vec<&str> = out.lines().collect();
    let head = format!("live: {done} of {total} games: ");
    let at = lines
        .iter()
        .position(|l| l.starts_with(&head))
        .unwrap_or_else(|| panic!("no block after {done} games: {out}"));
    (lines[at], lines[at + 1])
}

/// A configuration's points, points per game and error bar in a live
/// standings line (`random 4.50 points, 0.450 ± 0.231 per game`).
fn live_points(line: &str, config: &str) -> (f64, f64, f64) {
    let key = format!(" {config} ");
    let rest = &line[line
        .find(&key)
        .unwrap_or_else(|| panic!("{config}: {line}"))
        + key.len()..];
    let words: Vec<&str> = rest.split_whitespace().collect();
    assert_eq!(
        (words[1], words[3], words[5]),
        ("points,", "±", "per"),
        "{line}"
    );
    let number = |w: &str| w.parse::<f64>().expect("a number");
    (number(words[0]), number(words[2]), number(words[4]))
}

/// Plays a match and returns its stdout and records, checking what every
/// match must satisfy.
fn play(name: &str, args: &[&str]) -> (String, Vec<Record>) {
    let (text, _, records) = play_with_warnings(name, args);
    (text, records)
}

/// [`play`], returning the match's standard error (its warnings) too.
fn play_with_warnings(name: &str, args: &[&str]) -> (String, String, Vec<Record>) {
    let file = TempFile::new(name);
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--record", file.path()]);
    let out = triskel(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let records = file.records();
    let progress = text.lines().filter(|l| l.starts_with("game ")).count();
    assert_eq!(progress, records.len(), "{text}");
    for r in &records {
        check_replay(r);
    }
    let rows = table(&text);
    let seats: usize = rows.iter().map(|r| r.2).sum();
    assert_eq!(seats, records.iter().map(|r| r.seats.len()).sum(), "{text}");
    for (config, games, _, points) in &rows {
        let played = records
            .iter()
            .filter(|r| r.seats.iter().any(|(_, name)| name == config))
            .count();
        assert_eq!(*games, played, "{config}: {text}");
        let total: f64 = records
            .iter()
            .flat_map(|r| r.seats.iter().zip(&r.points))
            .filter(|((_, name), _)| name == config)
            .map(|(_, p)| p)
            .sum();
        assert!((total - points).abs() < 0.01, "{config}: {text}");
    }
    for (a, b, games, wins, draws, losses, score) in head_to_head(&text) {
        assert_eq!(wins + draws + losses, games, "{a} vs {b}: {text}");
        let expected = results_between(&records, &a, &b);
        assert_eq!((wins, draws, losses, games), expected, "{a} vs {b}: {text}");
        let fraction = (wins as f64 + draws as f64 / 2.0) / games as f64;
        assert!((score - fraction).abs() < 0.001, "{a} vs {b}: {text}");
    }
    (text, stderr(&out), records)
}

/// Replays a record from its opening's position: the opening reaches its
/// position, every move is legal, and the end and points are the rules'.
fn check_replay(r: &Record) {
    let from = r.from.as_deref();
    let opening = build_position(r.variant, AfterMate::End, from, &r.opening)
        .unwrap_or_else(|e| panic!("game {}: opening: {e}", r.id));
    assert_eq!(opening.fen(), r.fen, "game {}", r.id);
    let mut end = opening.clone();
    for (ply, word) in r.moves.iter().enumerate() {
        play_word(&mut end, word, Position::parse_move)
            .unwrap_or_else(|e| panic!("game {} ply {}: {e}", r.id, ply + 1));
    }
    let sum: f64 = r.points.iter().sum();
    match r.end {
        GameEnd::Rules(reason) => {
            let outcome = end.outcome_with_claims().expect("the game is over");
            assert_eq!(outcome.reason, reason, "game {}", r.id);
            assert_eq!(&outcome.points[..r.points.len()], &r.points[..]);
        }
        GameEnd::MaxPlies => {
            assert!(end.outcome_with_claims().is_none(), "game {}", r.id);
            let draw: f64 = end
                .drawn(triskel::rules::EndReason::MoveRule)
                .points
                .iter()
                .sum();
            assert!((sum - draw).abs() < EPSILON, "game {}", r.id);
        }
        // An engine process that did not start forfeits before the first
        // move, whoever is to move.
        GameEnd::Disconnect(p) if r.moves.is_empty() => {
            assert_eq!(r.points[p.index()], 0.0, "game {}", r.id);
        }
        GameEnd::Timeout(p) | GameEnd::Illegal(p) | GameEnd::Disconnect(p) | GameEnd::Stall(p) => {
            assert_eq!(end.to_move(), p, "game {}", r.id);
            assert_eq!(r.points[p.index()], 0.0);
        }
        GameEnd::ResignAdjudicated(p) => {
            assert!(end.outcome_with_claims().is_none(), "game {}", r.id);
            assert_eq!(r.points[p.index()], 0.0);
        }
        GameEnd::DrawAdjudicated => {
            assert!(end.outcome_with_claims().is_none(), "game {}", r.id);
            let draw = end.drawn(triskel::rules::EndReason::MoveRule).points;
            assert_eq!(&draw[..r.points.len()], &r.points[..], "game {}", r.id);
        }
    }
    assert!(
        r.evals.is_empty() || r.evals.len() == r.moves.len(),
        "game {}",
        r.id
    );
}

#[test]
fn chess_random_against_greedy() {
    let (text, records) = play(
        "chess",
        &[
            "--players",
            "random",
            "greedy",
            "--games",
            "4",
            "--time",
            "2000",
            "--inc",
            "10",
        ],
    );
    assert_eq!(records.len(), 4);
    assert!(text.starts_with("match chess: random vs greedy"), "{text}");
    let rows = table(&text);
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!((rows[0].0.as_str(), rows[0].1, rows[0].2), ("random", 4, 4));
    assert_eq!((rows[1].0.as_str(), rows[1].1, rows[1].2), ("greedy", 4, 4));
    for r in &records {
        assert!((r.points.iter().sum::<f64>() - 1.0).abs() < EPSILON);
        assert_eq!(r.variant, Variant::Chess);
    }
    let seatings: HashSet<Vec<String>> = records
        .iter()
        .map(|r| r.seats.iter().map(|(_, n)| n.clone()).collect())
        .collect();
    assert_eq!(seatings.len(), 2, "both colours");
    assert_eq!(records[0].fen, records[1].fen, "a round shares its opening");
    assert_ne!(records[0].fen, records[2].fen, "each round its own opening");
    let ids: Vec<usize> = records.iter().map(|r| r.id).collect();
    assert_eq!(ids, [1, 2, 3, 4]);
}

#[test]
fn a_pairing_in_a_three_player_game_covers_every_seating() {
    let (text, records) = play(
        "dreierschach",
        &[
            "--variant",
            "dreierschach",
            "--players",
            "random",
            "greedy",
            "--games",
            "6",
            "--time",
            "2000",
            "--inc",
            "10",
            "--max-plies",
            "300",
        ],
    );
    let seatings: HashSet<Vec<String>> = records
        .iter()
        .map(|r| r.seats.iter().map(|(_, n)| n.clone()).collect())
        .collect();
    let expected: HashSet<Vec<String>> = [
        ["random", "random", "greedy"],
        ["random", "greedy", "random"],
        ["greedy", "random", "random"],
        ["greedy", "greedy", "random"],
        ["greedy", "random", "greedy"],
        ["random", "greedy", "greedy"],
    ]
    .iter()
    .map(|s| s.iter().map(|n| n.to_string()).collect())
    .collect();
    assert_eq!(seatings, expected);
    let rows = table(&text);
    assert_eq!((rows[0].1, rows[0].2), (6, 9), "{text}");
    assert_eq!((rows[1].1, rows[1].2), (6, 9), "{text}");
    let letters: Vec<char> = records[0].seats.iter().map(|s| s.0).collect();
    assert_eq!(letters, ['w', 'n', 'b']);
}

#[test]
fn three_configurations_sit_in_all_six_orders() {
    let (text, records) = play(
        "star",
        &[
            "--variant",
            "star",
            "--players",
            "random",
            "greedy",
            "engine:depth=1,hash=1",
            "--games",
            "6",
            "--concurrency",
            "2",
            "--max-plies",
            "200",
        ],
    );
    let orders: HashSet<Vec<String>> = records
        .iter()
        .map(|r| r.seats.iter().map(|(_, n)| n.clone()).collect())
        .collect();
    assert_eq!(orders.len(), 6);
    for r in &records {
        let configs: HashSet<&String> = r.seats.iter().map(|(_, n)| n).collect();
        assert_eq!(configs.len(), 3);
    }
    assert_eq!(table(&text).len(), 3);
}

#[test]
fn a_seed_replays_the_baselines() {
    let args = [
        "--variant",
        "trichess",
        "--players",
        "random",
        "greedy",
        "--games",
        "6",
        "--seed",
        "11",
        "--max-plies",
        "100",
    ];
    let (_, a) = play("seed-a", &args);
    let (_, b) = play("seed-b", &args);
    let games = |records: &[Record]| -> Vec<(Vec<String>, Vec<String>)> {
        records
            .iter()
            .map(|r| (r.opening.clone(), r.moves.clone()))
            .collect()
    };
    assert_eq!(games(&a), games(&b));
}

#[test]
fn self_play_names_are_numbered() {
    let (text, records) = play("self", &["--players", "random", "random", "--games", "2"]);
    assert!(
        text.contains("random#1") && text.contains("random#2"),
        "{text}"
    );
    assert_eq!(records[0].seats[0].1, "random#1");
}

#[test]
fn live_standings_come_every_n_games_in_game_order() {
    let (text, records) = play(
        "live",
        &[
            "--players",
            "random",
            "greedy",
            "--games",
            "8",
            "--concurrency",
            "2",
            "--ratinginterval",
            "2",
            "--max-plies",
            "150",
        ],
    );
    let lines: Vec<&str> = text.lines().collect();
    let heads: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("live: ") && l.contains(" games: "))
        .copied()
        .collect();
    assert_eq!(heads.len(), 4, "{text}");
    for done in [2, 4, 6, 8] {
        let (standings, comparison) = live_block(&text, done, 8);
        // After every game up to `done`, whatever order they finished in.
        let at = lines.iter().position(|l| *l == standings).unwrap();
        for id in 1..=done {
            let game = format!("game {id}/8 ");
            let line = lines.iter().position(|l| l.starts_with(&game)).unwrap();
            assert!(line < at, "game {id} after the block of {done}: {text}");
        }
        for config in ["random", "greedy"] {
            let points: f64 = records[..done]
                .iter()
                .flat_map(|r| r.seats.iter().zip(&r.points))
                .filter(|((_, name), _)| name == config)
                .map(|(_, p)| p)
                .sum();
            let (shown, per_game, bar) = live_points(standings, config);
            assert!((shown - points).abs() < 0.01, "{config}: {standings}");
            assert!(
                (per_game - points / done as f64).abs() < 0.001,
                "{standings}"
            );
            assert!(bar > 0.0 && bar < 1.0, "{standings}");
        }
        // The pairs of the first games, by random's points in both.
        let mut pairs = [0u64; 5];
        for pair in records[..done].chunks(2) {
            let half_points: f64 = pair
                .iter()
                .flat_map(|r| r.seats.iter().zip(&r.points))
                .filter(|((_, name), _)| name == "random")
                .map(|(_, p)| 2.0 * p)
                .sum();
            pairs[half_points as usize] += 1;
        }
        assert!(
            comparison.starts_with("live: random vs greedy: Elo "),
            "{comparison}"
        );
        let los = &comparison[comparison.find("LOS ").expect("a LOS") + 4..];
        let los: f64 = los[..los.find('%').expect("%")].parse().expect("a LOS");
        assert!((0.0..=100.0).contains(&los), "{comparison}");
        assert!(
            comparison.ends_with(&format!(", {} pairs {pairs:?}", done / 2)),
            "{comparison}"
        );
        assert!(!comparison.contains("± 0.0 "), "{comparison}");
    }
    let pairwise = head_to_head(&text);
    assert_eq!(pairwise.len(), 1, "{text}");
    assert_eq!(pairwise[0].2, 8, "{text}");
}

#[test]
fn live_standings_inside_a_pair_count_games_and_carry_the_sprt() {
    let args = |interval: &'static str| {
        vec![
            "--players",
            "random",
            "greedy",
            "--games",
            "6",
            "--max-plies",
            "150",
            "--ratinginterval",
            interval,
            // Hypotheses 5 Elo apart: no decision within 3 pairs.
            "--sprt",
        ]
    };
    let (text, records) = play("live-sprt", &args("3"));
    let (_, comparison) = live_block(&text, 3, 6);
    let (wins, draws, losses, games) = results_between(&records[..3], "random", "greedy");
    assert_eq!(games, 3);
    assert!(
        comparison.ends_with(&format!(", 3 games +{wins} ={draws} -{losses}")),
        "{comparison}: {text}"
    );
    let (_, comparison) = live_block(&text, 6, 6);
    assert!(comparison.contains(", 3 pairs ["), "{comparison}");
    // The SPRT's line comes in the blocks (rounds 1 and 3 complete by
    // games 3 and 6), and again after the table.
    let before_table: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("config "))
        .filter(|l| l.starts_with("sprt: "))
        .collect();
    assert_eq!(before_table.len(), 2, "{text}");
    assert!(before_table[0].starts_with("sprt: 1 pairs "), "{text}");
    assert!(before_table[1].starts_with("sprt: 3 pairs "), "{text}");
    // Without live standings, one SPRT line per pair and no block.
    let (text, _) = play("live-off", &args("0"));
    assert!(!text.contains("live: "), "{text}");
    let per_pair = text
        .lines()
        .take_while(|l| !l.starts_with("config "))
        .filter(|l| l.starts_with("sprt: "))
        .count();
    assert_eq!(per_pair, 3, "{text}");
    assert_eq!(head_to_head(&text)[0].2, 6, "{text}");
}

#[test]
fn three_player_live_standings_compare_with_the_fair_share() {
    let (text, records) = play(
        "live-three",
        &[
            "--variant",
            "dreierschach",
            "--players",
            "random",
            "greedy",
            "--games",
            "12",
            "--concurrency",
            "2",
            "--max-plies",
            "150",
            "--ratinginterval",
            "4",
        ],
    );
    let (standings, comparison) = live_block(&text, 4, 12);
    assert_eq!(
        comparison, "live: random vs its fair share: no round complete yet",
        "{text}"
    );
    let (points, per_game, bar) = live_points(standings, "greedy");
    assert!(points >= 0.0 && per_game >= 0.0 && bar > 0.0, "{standings}");
    let (_, comparison) = live_block(&text, 8, 12);
    assert!(
        comparison.starts_with("live: random vs its fair share: ")
            && comparison.ends_with(", 1 rounds"),
        "{comparison}"
    );
    // The first round's excess: random's points less half the round's.
    let round: &[Record] = &records[..6];
    let random: f64 = round
        .iter()
        .flat_map(|r| r.seats.iter().zip(&r.points))
        .filter(|((_, name), _)| name == "random")
        .map(|(_, p)| p)
        .sum();
    let all: f64 = round.iter().flat_map(|r| r.points.iter()).sum();
    let excess = format!("{:+.3} ± ", (random - all / 2.0) / 6.0);
    assert!(comparison.contains(&excess), "{excess}: {comparison}");
    let (_, comparison) = live_block(&text, 12, 12);
    assert!(comparison.ends_with(", 2 rounds"), "{comparison}");
    let pairwise = head_to_head(&text);
    assert_eq!(pairwise.len(), 1, "{text}");
    assert_eq!(
        (pairwise[0].0.as_str(), pairwise[0].2),
        ("random", 12),
        "{text}"
    );
}

#[test]
fn bad_flags_fail_clearly() {
    let cases: [(&[&str], i32, &str); 27] = [
        (
            &["--variant", "go", "--players", "random", "greedy"],
            FAILURE,
            "--variant",
        ),
        (
            &[
                "--players",
                "random",
                "--engine",
                "cmd=x",
                "st=1",
                "tc=10+1",
            ],
            FAILURE,
            "st= with tc=",
        ),
        (&["--players", "random", "grumpy"], FAILURE, "grumpy"),
        (
            &["--players", "random", "engine:algorithm=fast"],
            FAILURE,
            "algorithm",
        ),
        (&["--players", "random", "engine:depth=0"], FAILURE, "depth"),
        (
            &["--players", "random", "greedy", "--games", "3"],
            FAILURE,
            "--games",
        ),
        (
            &["--players", "random", "greedy", "engine"],
            FAILURE,
            "--players",
        ),
        // Refused at once, before any memory grows with the count.
        (
            &[
                "--players",
                "random",
                "greedy",
                "--games",
                "18446744073709551614",
            ],
            FAILURE,
            "at most 1000000000",
        ),
        (
            &["--players", "random", "greedy", "--games", "+2"],
            USAGE_ERROR,
            "--games",
        ),
        (
            &["--players", "random", "greedy", "--time", "0"],
            USAGE_ERROR,
            "--time",
        ),
        (&["--players", "random"], FAILURE, "2 configurations, not 1"),
        (&["--games", "2"], FAILURE, "--players and --engine"),
        (&["--players", "random", "exec:"], FAILURE, "exec:PATH"),
        (
            &["--players", "random", "--engine", "name=x"],
            FAILURE,
            "cmd=PATH is missing",
        ),
        (
            &["--players", "random", "--engine", "cmd=x", "proto=xboard"],
            FAILURE,
            "proto=xboard",
        ),
        (
            &["--players", "random", "greedy", "--each", "st=1"],
            FAILURE,
            "--each",
        ),
        (
            &[
                "--players",
                "random",
                "greedy",
                "--openings",
                "order=random",
            ],
            FAILURE,
            "file= is missing",
        ),
        (
            &[
                "--players",
                "random",
                "greedy",
                "--openings",
                "file=/nonexistent/book.epd",
            ],
            FAILURE,
            "/nonexistent/book.epd",
        ),
        (
            &[
                "--players",
                "random",
                "greedy",
                "--openings",
                "file=b",
                "start=0",
            ],
            FAILURE,
            "start=0",
        ),
        (
            &[
                "--players",
                "random",
                "greedy",
                "--openings",
                "file=b",
                "--opening-plies",
                "2",
            ],
            USAGE_ERROR,
            "--opening-plies",
        ),
        (
            &[
                "--players",
                "random",
                "greedy",
                "--draw",
                "movenumber=1",
                "movecount=0",
                "score=5",
            ],
            FAILURE,
            "--draw: movecount=0: expected a whole number from 1 to 10000",
        ),
        (
            &[
                "--players",
                "random",
                "greedy",
                "--resign",
                "movecount=3",
                "twosided=maybe",
            ],
            FAILURE,
            "--resign: twosided=maybe",
        ),
        (
            &[
                "--players",
                "random",
                "greedy",
                "--resign",
                "movecount=99999999999999999999999",
                "score=400",
            ],
            FAILURE,
            "--resign: movecount=",
        ),
        (
            &["--players", "random", "greedy", "--maxmoves", "0"],
            USAGE_ERROR,
            "--maxmoves",
        ),
        (
            &["--players", "random", "greedy", "--ratinginterval=-1"],
            USAGE_ERROR,
            "--ratinginterval",
        ),
        (
            &[
                "--players",
                "random",
                "greedy",
                "--ratinginterval",
                "1000000001",
            ],
            USAGE_ERROR,
            "expected an integer from 0 to 1000000000",
        ),
        (
            &[
                "--players",
                "random",
                "greedy",
                "--ratinginterval",
                "99999999999999999999999",
            ],
            USAGE_ERROR,
            "--ratinginterval",
        ),
    ];
    for (args, code, mention) in cases {
        let mut all = vec!["match"];
        all.extend_from_slice(args);
        let out = triskel(&all);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(mention), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let out = triskel(&[
        "match",
        "--players",
        "random",
        "greedy",
        "--record",
        "/nonexistent-dir/records.txt",
    ]);
    assert_eq!(out.status.code(), Some(FAILURE));
    assert!(stderr(&out).contains("--record"), "{}", stderr(&out));
}

/// The engine's own binary as an engine in another process (`exec:PATH`),
/// as two builds would be compared.
fn this_binary() -> String {
    format!("exec:{}", env!("CARGO_BIN_EXE_triskel"))
}

#[test]
fn an_engine_process_plays_through_the_protocol_on_the_clock() {
    let exec = this_binary();
    let (text, records) = play(
        "exec-chess",
        &[
            "--players",
            "greedy",
            &exec,
            "--games",
            "2",
            "--time",
            "2000",
            "--inc",
            "20",
            "--max-plies",
            "40",
        ],
    );
    let rows = table(&text);
    assert_eq!(
        (rows[1].0.as_str(), rows[1].1),
        (exec.as_str(), 2),
        "{text}"
    );
    for r in &records {
        assert!(
            matches!(r.end, GameEnd::Rules(_) | GameEnd::MaxPlies),
            "the process answers every move legally in time: {text}"
        );
        assert!(r.moves.len() > 1, "{text}");
    }
}

#[test]
fn engine_processes_play_a_three_player_game() {
    let exec = this_binary();
    let (text, records) = play(
        "exec-dreierschach",
        &[
            "--variant",
            "dreierschach",
            "--players",
            &exec,
            &exec,
            "random",
            "--games",
            "6",
            "--time",
            "2000",
            "--inc",
            "20",
            "--max-plies",
            "12",
            "--concurrency",
            "2",
        ],
    );
    assert_eq!(table(&text).len(), 3, "{text}");
    for r in &records {
        assert!(
            matches!(r.end, GameEnd::Rules(_) | GameEnd::MaxPlies),
            "{text}"
        );
    }
}

#[test]
fn a_process_that_stops_answering_forfeits_and_the_match_goes_on() {
    // A shell engine that completes the handshake and exits at `go`.
    let script = TempFile::new("silent-engine.sh");
    write_script(
        &script,
        "#!/bin/sh\nwhile read line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; go*) exit 0;; esac; done\n",
    );
    let exec = format!("exec:{}", script.path());
    let out = triskel(&[
        "match",
        "--players",
        "random",
        &exec,
        "--games",
        "2",
        "--time",
        "1000",
        "--inc",
        "0",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = table(&stdout(&out));
    assert_eq!(rows[1].0, exec);
    assert_eq!(rows[1].3, 0.0, "{}", stdout(&out));
    assert!(
        stderr(&out).contains("disconnected (the engine exited before 'bestmove')"),
        "{}",
        stderr(&out)
    );
    // The report names the position in standard FEN, as chess tools read it.
    let report = stderr(&out);
    let fen = report
        .lines()
        .find_map(|l| l.split(") in ").nth(1))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(is_standard_fen(fen), "{report}");
    assert_eq!(crashes_and_stalls(&stdout(&out)), [0, 2]);
}

/// The `crash/stall` column of a match's table, row by row.
fn crashes_and_stalls(out: &str) -> Vec<usize> {
    out.lines()
        .skip_while(|l| !l.starts_with("config "))
        .skip(1)
        .take_while(|l| !l.is_empty() && !l.starts_with("equal strength"))
        .map(|l| {
            l.split_whitespace()
                .last()
                .and_then(|w| w.parse().ok())
                .expect("a count")
        })
        .collect()
}

#[test]
fn a_process_that_hangs_on_go_stalls_and_the_match_goes_on() {
    // A shell engine that completes the handshake and then never answers.
    let script = TempFile::new("hanging-engine.sh");
    write_script(
        &script,
        "#!/bin/sh\nwhile read line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; go*) sleep 30;; esac; done\n",
    );
    let record = TempFile::new("hanging-engine.records");
    let out = triskel(&[
        "match",
        "--players",
        "random",
        "--engine",
        &format!("cmd={}", script.path()),
        "name=hangs",
        "--games",
        "2",
        "--time",
        "300",
        "--inc",
        "0",
        "--record",
        record.path(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        crashes_and_stalls(&stdout(&out)),
        [0, 2],
        "{}",
        stdout(&out)
    );
    let ends: Vec<GameEnd> = record.records().iter().map(|r| r.end).collect();
    assert!(
        ends.iter().all(|e| matches!(e, GameEnd::Stall(_))),
        "{ends:?}"
    );
}

/// Writes the shell script `text` to `file` and makes it executable.
fn write_script(file: &TempFile, text: impl AsRef<str>) {
    std::fs::write(&file.0, text.as_ref()).expect("the script is written");
    let made_executable = Command::new("chmod")
        .args(["+x", file.path()])
        .status()
        .expect("chmod runs");
    assert!(made_executable.success());
}

/// A shell script at `file` that writes every line it is sent to `log`
/// and passes it to this engine: a UCI engine whose input can be read.
fn logging_engine(file: &TempFile, log: &TempFile) {
    write_script(
        file,
        format!(
            "#!/bin/sh\ntee -a '{}' | '{}'\n",
            log.path(),
            env!("CARGO_BIN_EXE_triskel")
        ),
    );
}

/// Whether `fen` is standard FEN: the board in the standard's letters only.
fn is_standard_fen(fen: &str) -> bool {
    let fields: Vec<&str> = fen.split(' ').collect();
    fields.len() == 6
        && fields[0].split('/').count() == 8
        && fields[0]
            .chars()
            .all(|c| "prnbqkPRNBQK12345678/".contains(c))
}

#[test]
fn a_uci_engine_gets_standard_uci_in_classical_chess() {
    let script = TempFile::new("logging-engine.sh");
    let log = TempFile::new("logging-engine.log");
    logging_engine(&script, &log);
    let engine = format!("cmd={}", script.path());
    let out = triskel(&[
        "match",
        "--players",
        "greedy",
        "--engine",
        &engine,
        "name=logged",
        "option.Hash=8",
        "--each",
        "option.Move Overhead=20",
        "--games",
        "2",
        "--time",
        "2000",
        "--inc",
        "20",
        "--max-plies",
        "30",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = table(&stdout(&out));
    assert_eq!(
        (rows[1].0.as_str(), rows[1].1),
        ("logged", 2),
        "{}",
        stdout(&out)
    );
    assert!(!stderr(&out).contains("forfeit"), "{}", stderr(&out));
    let sent = std::fs::read_to_string(&log.0).expect("the engine's input was logged");
    let lines: Vec<&str> = sent.lines().collect();
    assert!(!sent.contains("UCI_Variant"), "{sent}");
    for option in [
        "setoption name Hash value 8",
        "setoption name Move Overhead value 20",
    ] {
        assert_eq!(lines.iter().filter(|l| **l == option).count(), 2, "{sent}");
    }
    let positions: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("position "))
        .collect();
    assert!(!positions.is_empty(), "{sent}");
    for position in positions {
        let start = position.split(" moves ").next().unwrap_or_default();
        let fen = start.strip_prefix("fen ");
        assert!(
            start == "startpos" || fen.is_some_and(is_standard_fen),
            "{position}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("go wtime ") && l.contains(" btime ")),
        "{sent}"
    );
}

/// A shell script at `file` that runs this engine with its output passed
/// through the `sed` program `edit`: a real engine with one fault added.
fn edited_engine(file: &TempFile, edit: &str) {
    write_script(
        file,
        format!(
            "#!/bin/sh\n'{}' | sed -u '{edit}'\n",
            env!("CARGO_BIN_EXE_triskel")
        ),
    );
}

#[test]
fn unreadable_bytes_and_duplicated_answers_do_not_cost_an_engine_its_games() {
    // One engine writes a line that is not UTF-8 before every bestmove,
    // the other writes every bestmove twice.
    let garbage = TempFile::new("garbage-engine.sh");
    edited_engine(&garbage, "s/^bestmove/\\xff\\xfe not text\\n&/");
    let twice = TempFile::new("twice-engine.sh");
    edited_engine(&twice, "s/^bestmove.*/&\\n&/");
    let out = triskel(&[
        "match",
        "--engine",
        &format!("cmd={}", garbage.path()),
        "name=garbage",
        "--engine",
        &format!("cmd={}", twice.path()),
        "name=twice",
        "--each",
        "depth=2",
        "--games",
        "2",
        "--max-plies",
        "40",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(!err.contains("forfeit"), "{err}");
    assert!(err.contains("while not searching, ignored"), "{err}");
    let rows = table(&stdout(&out));
    assert_eq!(rows.len(), 2, "{}", stdout(&out));
}

#[test]
fn an_engine_plays_its_own_time_control_in_periods() {
    // Three moves in 0.4 s, again and again: without the time added for
    // each period the engine would lose on time within the game.
    let script = TempFile::new("period-engine.sh");
    let log = TempFile::new("period-engine.log");
    logging_engine(&script, &log);
    let out = triskel(&[
        "match",
        "--players",
        "random",
        "--engine",
        &format!("cmd={}", script.path()),
        "name=periods",
        "tc=3/0.4",
        "timemargin=50",
        "--games",
        "2",
        "--max-plies",
        "40",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("forfeit"), "{}", stderr(&out));
    let sent = std::fs::read_to_string(&log.0).expect("the engine's input was logged");
    let to_go: Vec<&str> = sent
        .lines()
        .filter(|l| l.starts_with("go "))
        .filter_map(|l| l.split(" movestogo ").nth(1))
        .collect();
    assert!(to_go.len() >= 6, "{sent}");
    assert!(to_go.windows(3).any(|w| w == ["3", "2", "1"]), "{to_go:?}");
    let rows = table(&stdout(&out));
    assert_eq!(rows[1].0, "periods");
}

/// A shell script at `file` that passes this engine's answers on, each
/// `bestmove` only after `delay` seconds: an engine too slow for its clock.
fn delayed_engine(file: &TempFile, delay: &str) {
    write_script(
        file,
        format!(
            "#!/bin/sh\n'{}' | while IFS= read -r line; do case \"$line\" in bestmove*) sleep {delay};; esac; echo \"$line\"; done\n",
            env!("CARGO_BIN_EXE_triskel")
        ),
    );
}

/// The seats (turn-order indices) that a configuration named `name` holds
/// in record `r`.
fn seats_of(r: &Record, name: &str) -> Vec<usize> {
    (0..r.seats.len())
        .filter(|&s| r.seats[s].1 == name)
        .collect()
}

/// The words of `r`'s moves with the seat that played each.
fn movers(r: &Record) -> Vec<(usize, String)> {
    let from = r.from.as_deref();
    let mut pos = build_position(r.variant, AfterMate::End, from, &r.opening).expect("opening");
    r.moves
        .iter()
        .map(|word| {
            let seat = pos.to_move().index();
            play_word(&mut pos, word, Position::parse_move).expect("a legal record");
            (seat, word.clone())
        })
        .collect()
}

#[test]
fn in_star_a_move_over_the_time_per_move_is_forfeited_and_the_game_goes_on() {
    let script = TempFile::new("slow-star.sh");
    delayed_engine(&script, "0.1");
    let engine = format!("cmd={}", script.path());
    let (_, records) = play(
        "star-forfeit",
        &[
            "--variant",
            "star",
            "--players",
            "random",
            "--engine",
            &engine,
            "name=slow",
            "st=0.02",
            "--games",
            "6",
            "--max-plies",
            "12",
        ],
    );
    assert_eq!(records.len(), 6);
    for r in &records {
        assert_eq!(
            r.end,
            GameEnd::MaxPlies,
            "game {}: the clocks end nothing",
            r.id
        );
        let slow = seats_of(r, "slow");
        for (seat, word) in movers(r) {
            let forfeited = word == ClockEvent::Forfeit.token();
            assert_eq!(forfeited, slow.contains(&seat), "game {}: {word}", r.id);
        }
    }
}

#[test]
fn in_star_a_player_out_of_time_is_frozen_and_the_others_play_on() {
    let script = TempFile::new("frozen-star.sh");
    delayed_engine(&script, "0.1");
    let engine = format!("cmd={}", script.path());
    let pgn = TempFile::new("frozen-star.pgn");
    let (_, records) = play(
        "star-freeze",
        &[
            "--variant",
            "star",
            "--players",
            "random",
            "--engine",
            &engine,
            "name=slow",
            "tc=0.35+0",
            "--games",
            "6",
            "--max-plies",
            "45",
            "--pgnout",
            pgn.path(),
        ],
    );
    for r in &records {
        assert_eq!(r.end, GameEnd::MaxPlies, "game {}", r.id);
        let slow = seats_of(r, "slow");
        let played = movers(r);
        let frozen: Vec<usize> = played
            .iter()
            .filter(|(_, w)| w == ClockEvent::Freeze.token())
            .map(|&(seat, _)| seat)
            .collect();
        assert_eq!(frozen.len(), slow.len(), "game {}: {played:?}", r.id);
        for (i, &(seat, ref word)) in played.iter().enumerate() {
            let after_freeze = played[..i]
                .iter()
                .any(|(s, w)| *s == seat && w == ClockEvent::Freeze.token());
            assert!(
                !after_freeze,
                "game {}: seat {seat} moved frozen: {word}",
                r.id
            );
        }
    }
    let text = std::fs::read_to_string(&pgn.0).expect("the PGN file");
    let games = read_games(&text).expect("PGN");
    assert_eq!(games.len(), 6);
    for (game, r) in games.iter().zip(&records) {
        let wire = game.replay().expect("the PGN replays");
        assert!(wire.ends_with(&r.moves), "game {}", r.id);
    }
}

#[test]
fn pgn_records_come_in_game_order_and_a_second_match_adds_to_the_file() {
    let pgn = TempFile::new("games.pgn");
    for variant in ["chess", "dreierschach"] {
        let out = triskel(&[
            "match",
            "--variant",
            variant,
            "--players",
            "random",
            "greedy",
            "--games",
            "6",
            "--concurrency",
            "3",
            "--max-plies",
            "60",
            "--pgnout",
            pgn.path(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let text = std::fs::read_to_string(&pgn.0).expect("the PGN file");
    let games = read_games(&text).expect("the PGN reads back");
    assert_eq!(games.len(), 12);
    for (i, game) in games.iter().enumerate() {
        let variant = if i < 6 { "chess" } else { "dreierschach" };
        assert!(
            game.tag("Event").is_some_and(|e| e.ends_with(variant)),
            "game {i}: {:?}",
            game.tag("Event")
        );
        let round = (i % 6) / if variant == "chess" { 2 } else { 6 } + 1;
        assert_eq!(
            game.tag("Round"),
            Some(round.to_string().as_str()),
            "game {i}"
        );
        if variant == "chess" {
            let white = if i % 2 == 0 { "random" } else { "greedy" };
            assert_eq!(game.tag("White"), Some(white), "game {i}: in game order");
        }
        game.replay()
            .unwrap_or_else(|why| panic!("game {i}: every move legal: {why}"));
    }
}

#[test]
fn an_sprt_ends_the_match_when_it_decides() {
    // The engine at depth 2 against random in chess: H1 (100 Elo) is accepted long before
    // the thousand scheduled games; in Trichess the first configuration
    // meets its fair share, and H0 is accepted.
    for (variant, expected) in [
        ("chess", "sprt: H1 accepted"),
        ("trichess", "sprt: H0 accepted"),
    ] {
        let players: &[&str] = if variant == "chess" {
            &["engine:depth=2", "random"]
        } else {
            &["random", "random"]
        };
        let mut args = vec![
            "match",
            "--variant",
            variant,
            "--players",
            players[0],
            players[1],
            "--games",
            "1200",
            "--max-plies",
            "150",
            "--sprt",
            "elo0=0",
            "elo1=100",
            "model=logistic",
        ];
        args.extend(["--concurrency", "2"]);
        let out = triskel(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.lines().any(|l| l == expected), "{variant}: {text}");
        let played = table(&text)[0].1;
        assert!(played < 600, "{variant}: {played} games");
        assert!(
            text.lines()
                .any(|l| l.starts_with("sprt: ") && l.contains("LLR")),
            "{text}"
        );
    }
    let out = triskel(&["match", "--players", "random", "greedy", "--sprt", "elo2=3"]);
    assert_eq!(out.status.code(), Some(FAILURE));
    assert!(
        stderr(&out).contains("unknown key 'elo2'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn ctrl_c_prints_the_table_of_the_finished_games_and_ends_every_engine() {
    // An engine that never hears `quit` (a filter drops it), in a match
    // interrupted by SIGINT while its games run.
    let script = TempFile::new("deaf-engine.sh");
    write_script(
        &script,
        format!(
            "#!/bin/sh\ngrep -v --line-buffered '^quit$' | '{}'\n",
            env!("CARGO_BIN_EXE_triskel")
        ),
    );
    let record = TempFile::new("interrupted.records");
    let child = Command::new(env!("CARGO_BIN_EXE_triskel"))
        .args([
            "match",
            "--players",
            "random",
            "--engine",
            &format!("cmd={}", script.path()),
            "name=deaf",
            "--games",
            "1000",
            "--time",
            "3000",
            "--inc",
            "0",
            "--record",
            record.path(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the match starts");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let out = child.wait_with_output().expect("the match ends");
    let (text, err) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted:"), "{err}");
    let rows = table(&text);
    assert_eq!(rows.len(), 2, "{text}");
    let finished = rows[0].1;
    assert!(finished < 1000, "{text}");
    assert_eq!(
        record.records().len(),
        finished,
        "every finished game recorded"
    );
    let left = Command::new("pgrep")
        .args(["-f", script.path()])
        .output()
        .expect("pgrep runs");
    assert!(
        left.stdout.is_empty(),
        "engines left running: {}",
        stdout(&left)
    );
}

#[test]
fn an_engine_that_does_not_start_forfeits_its_games_and_the_match_goes_on() {
    let out = triskel(&[
        "match",
        "--players",
        "random",
        "exec:/nonexistent/engine",
        "--games",
        "4",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "did not start: exec:/nonexistent/engine: cannot start '/nonexistent/engine'"
        ),
        "{}",
        stderr(&out)
    );
    let text = stdout(&out);
    assert_eq!(crashes_and_stalls(&text), [0, 4], "{text}");
    let rows = table(&text);
    assert_eq!((rows[0].1, rows[0].3), (4, 4.0), "{text}");
}

/// When a match is interrupted in the tests: while its first game waits
/// for an engine, well before the engine's 10 s to answer run out.
const INTERRUPT_AFTER: Duration = Duration::from_secs(1);
/// How soon an interrupted match must end: well below the 10 s an engine
/// is given to answer, so that waiting out an engine's silence shows.
const PROMPT_END: Duration = Duration::from_secs(3);

/// Runs `triskel match` with `args`, sends it SIGINT after
/// [`INTERRUPT_AFTER`], and returns its output and how long it took to
/// end after the signal.
fn interrupted_match(args: &[&str]) -> (Output, Duration) {
    let child = Command::new(env!("CARGO_BIN_EXE_triskel"))
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the match starts");
    std::thread::sleep(INTERRUPT_AFTER);
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let signalled = Instant::now();
    let out = child.wait_with_output().expect("the match ends");
    (out, signalled.elapsed())
}

/// A shell engine that answers `uci` with its name only, never `uciok`.
const MUTE_ENGINE: &str =
    "#!/bin/sh\nwhile read -r line; do case \"$line\" in uci) echo 'id name mute';; esac; done\n";

#[test]
fn a_match_interrupted_during_a_handshake_records_no_forfeit() {
    let script = TempFile::new("interrupted-mute-engine.sh");
    write_script(&script, MUTE_ENGINE);
    let record = TempFile::new("interrupted-handshake.records");
    let engine = format!("cmd={}", script.path());
    let (out, took) = interrupted_match(&[
        "--players",
        "random",
        "--engine",
        &engine,
        "name=mute",
        "--games",
        "2",
        "--record",
        record.path(),
    ]);
    let (text, err) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(took < PROMPT_END, "{took:?} after the signal");
    assert!(err.contains("interrupted: 0 of 2 games finished"), "{err}");
    assert!(!err.contains("forfeit"), "the game is abandoned: {err}");
    assert!(record.records().is_empty(), "{text}");
    assert_eq!(
        table(&text),
        [
            ("random".to_string(), 0, 0, 0.0),
            ("mute".to_string(), 0, 0, 0.0)
        ],
        "{text}"
    );
}

#[test]
fn ctrl_c_ends_the_match_at_once_while_an_engine_does_not_answer_isready() {
    // The engine answers the handshake's `isready` and no later one: the
    // match is interrupted while it waits for the `readyok` before the
    // engine's first `go`, which it would give 10 s.
    let script = TempFile::new("ready-once-engine.sh");
    write_script(
        &script,
        "#!/bin/sh\nready=yes\nwhile read -r line; do case \"$line\" in uci) echo uciok;; isready) [ $ready = yes ] && echo readyok; ready=no;; esac; done\n",
    );
    let record = TempFile::new("interrupted-isready.records");
    let engine = format!("cmd={}", script.path());
    let (out, took) = interrupted_match(&[
        "--players",
        "random",
        "--engine",
        &engine,
        "name=ready-once",
        "--games",
        "2",
        "--record",
        record.path(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(took < PROMPT_END, "{took:?} after the signal");
    assert!(err.contains("interrupted: 0 of 2 games finished"), "{err}");
    assert!(!err.contains("forfeit"), "the game is abandoned: {err}");
    assert!(record.records().is_empty(), "{}", stdout(&out));
}

/// Checks that the configuration `loser` forfeited every game of
/// `records` (two-player games) as `end` of its seat: 0 points for it, the
/// win for its opponent.
fn assert_forfeited(records: &[Record], loser: &str, end: fn(Player) -> GameEnd) {
    for r in records {
        let seat = seat_of(r, loser);
        assert_eq!(r.end, end(Player::new(seat)), "game {}", r.id);
        assert_eq!(r.points[seat], 0.0, "game {}", r.id);
        assert_eq!(r.points[1 - seat], 1.0, "game {}", r.id);
    }
}

/// The seat of the configuration `name` in `r`.
fn seat_of(r: &Record, name: &str) -> usize {
    r.seats
        .iter()
        .position(|(_, seated)| seated == name)
        .unwrap_or_else(|| panic!("game {}: {name} is seated", r.id))
}

/// The `timeouts`, `illegal` and `crash/stall` columns of a match's table,
/// row by row.
fn forfeits(out: &str) -> Vec<[usize; 3]> {
    out.lines()
        .skip_while(|l| !l.starts_with("config "))
        .skip(1)
        .take_while(|l| !l.is_empty() && !l.starts_with("equal strength"))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let count = |w: &str| w.parse().expect("a count");
            let last = words.len() - 1;
            [
                count(words[last - 2]),
                count(words[last - 1]),
                count(words[last]),
            ]
        })
        .collect()
}

#[test]
fn an_engine_that_never_completes_its_handshake_forfeits_every_game_and_the_match_goes_on() {
    // One engine names itself and never says `uciok`; the other says
    // `uciok` and never `readyok`. Both stay running and read their input:
    // each waits out the handshake's time (10 s), so the two matches play
    // at once, each its two games at once.
    let mute = TempFile::new("mute-engine.sh");
    write_script(&mute, MUTE_ENGINE);
    let unready = TempFile::new("unready-engine.sh");
    write_script(
        &unready,
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in uci) echo 'id name unready'; echo uciok;; esac; done\n",
    );
    std::thread::scope(|scope| {
        for (script, name, awaited) in [(&mute, "mute", "uciok"), (&unready, "unready", "readyok")]
        {
            scope.spawn(move || {
                let engine = format!("cmd={}", script.path());
                let named = format!("name={name}");
                let (text, err, records) = play_with_warnings(
                    &format!("handshake-{name}"),
                    &[
                        "--players",
                        "random",
                        "--engine",
                        &engine,
                        &named,
                        "--games",
                        "2",
                        "--concurrency",
                        "2",
                    ],
                );
                assert_eq!(records.len(), 2, "{text}");
                assert_forfeited(&records, name, GameEnd::Disconnect);
                assert!(records.iter().all(|r| r.moves.is_empty()), "{text}");
                let reason = format!(
                    "forfeit: did not start: {name}: '{}': no '{awaited}' in time",
                    script.path()
                );
                assert_eq!(err.matches(&reason).count(), 2, "{err}");
                assert_eq!(
                    table(&text),
                    [
                        ("random".to_string(), 2, 2, 2.0),
                        (name.to_string(), 2, 2, 0.0)
                    ],
                    "{text}"
                );
                assert_eq!(forfeits(&text), [[0, 0, 0], [0, 0, 2]], "{text}");
            });
        }
    });
}

/// How long the slow engine holds back each `bestmove` on the short clock,
/// in seconds: longer than its whole clock.
const LATE_DELAY: &str = "0.5";
/// The slow engine's whole clock on the short time control, `tc=` in
/// seconds.
const SHORT_CLOCK: &str = "0.3+0";
/// How long the slow engine holds back each `bestmove` on the long clock,
/// in seconds.
const STEADY_DELAY: &str = "0.05";

/// A shell script at `file` that runs this engine and holds each of its
/// `bestmove` lines back for `delay` seconds: an engine that answers
/// correctly, slowly.
fn slow_engine(file: &TempFile, delay: &str) {
    write_script(
        file,
        format!(
            "#!/bin/sh\n'{}' | while IFS= read -r line; do case \"$line\" in bestmove*) sleep {delay};; esac; printf '%s\\n' \"$line\"; done\n",
            env!("CARGO_BIN_EXE_triskel")
        ),
    );
}

/// Milliseconds of a delay in seconds.
fn millis(seconds: &str) -> u64 {
    (seconds.parse::<f64>().expect("seconds") * 1000.0) as u64
}

#[test]
fn a_slow_engine_loses_on_time_on_a_short_clock_and_nothing_on_a_long_one() {
    let late = TempFile::new("late-engine.sh");
    slow_engine(&late, LATE_DELAY);
    let engine = format!("cmd={}", late.path());
    let tc = format!("tc={SHORT_CLOCK}");
    let (text, records) = play(
        "late",
        &[
            "--players",
            "random",
            "--engine",
            &engine,
            "name=late",
            &tc,
            "--games",
            "2",
        ],
    );
    assert_eq!(records.len(), 2, "{text}");
    assert_forfeited(&records, "late", GameEnd::Timeout);
    for r in &records {
        // Its first move is too late, and not played: black, it lost
        // after random's first move; white, before any.
        let seat = seat_of(r, "late");
        assert_eq!(r.moves.len(), seat, "game {}: {text}", r.id);
        assert!(r.ms[seat] >= millis(LATE_DELAY), "game {}: {text}", r.id);
    }
    assert_eq!(forfeits(&text), [[0, 0, 0], [2, 0, 0]], "{text}");

    // The same delay, well within a clock that the engine is told of
    // (Move Overhead): no game lost on time.
    let steady = TempFile::new("steady-engine.sh");
    slow_engine(&steady, STEADY_DELAY);
    let engine = format!("cmd={}", steady.path());
    let (text, records) = play(
        "steady",
        &[
            "--players",
            "random",
            "--engine",
            &engine,
            "name=steady",
            "option.Move Overhead=100",
            "--time",
            "2000",
            "--inc",
            "50",
            "--max-plies",
            "20",
            "--games",
            "2",
        ],
    );
    assert_eq!(records.len(), 2, "{text}");
    for r in &records {
        assert!(
            matches!(r.end, GameEnd::Rules(_) | GameEnd::MaxPlies),
            "game {}: {text}",
            r.id
        );
        let seat = seat_of(r, "steady");
        assert!(r.points[seat] >= 0.5, "game {}: {text}", r.id);
        let delayed = (0..r.moves.len()).filter(|&ply| mover(r, ply) == seat);
        for ply in delayed {
            assert!(
                r.evals[ply].time.as_millis() >= u128::from(millis(STEADY_DELAY)),
                "game {} ply {ply}: every move held back",
                r.id
            );
        }
    }
    assert_eq!(forfeits(&text), [[0, 0, 0], [0, 0, 0]], "{text}");
}

/// The `go` at which the crashing engine's first process exits.
const CRASH_AT_GO: usize = 3;

#[test]
fn an_engine_that_crashes_mid_game_keeps_the_moves_before_and_plays_the_next_games() {
    // The first process passes its input to this engine until its third
    // `go`, and then exits (and with it the engine); the processes of the
    // later games are this engine itself.
    let script = TempFile::new("crashing-engine.sh");
    let started = TempFile::new("crashing-engine.started");
    let _ = std::fs::remove_file(&started.0);
    let bin = env!("CARGO_BIN_EXE_triskel");
    let marker = started.path();
    write_script(
        &script,
        format!(
            "#!/bin/sh\nif [ -e '{marker}' ]; then exec '{bin}'; fi\n: > '{marker}'\nn=0\nwhile IFS= read -r line; do\n  case \"$line\" in go*) n=$((n + 1)); [ \"$n\" -ge {CRASH_AT_GO} ] && exit 0;; esac\n  printf '%s\\n' \"$line\"\ndone | '{bin}'\n"
        ),
    );
    let engine = format!("cmd={}", script.path());
    let (text, err, records) = play_with_warnings(
        "crashing",
        &[
            "--players",
            "random",
            "--engine",
            &engine,
            "name=crashy",
            "--time",
            "2000",
            "--inc",
            "20",
            "--max-plies",
            "20",
            "--games",
            "4",
        ],
    );
    assert_eq!(records.len(), 4, "{text}");
    let (crashed, later) = records.split_first().expect("a first game");
    assert_forfeited(std::slice::from_ref(crashed), "crashy", GameEnd::Disconnect);
    // Black in the first game: random's moves and its first two, then
    // random's third.
    assert_eq!(seat_of(crashed, "crashy"), 1);
    assert_eq!(crashed.moves.len(), 2 * CRASH_AT_GO - 1, "{text}");
    assert!(
        err.contains("crashy disconnected (the engine exited before 'bestmove')"),
        "{err}"
    );
    for r in later {
        assert!(
            matches!(r.end, GameEnd::Rules(_) | GameEnd::MaxPlies),
            "game {}: restarted, the engine plays: {text}",
            r.id
        );
        assert!(!r.moves.is_empty(), "game {}: {text}", r.id);
    }
    assert_eq!(forfeits(&text), [[0, 0, 0], [0, 0, 1]], "{text}");
    assert_eq!(table(&text)[1].1, 4, "{text}");
}

#[test]
fn an_illegal_answer_forfeits_the_game_and_the_match_goes_on() {
    // A move from an empty square, and the other side's moves: this
    // engine's answers replaced, or a shell engine that always plays the
    // other side's king pawn (the match opens from the start position).
    let nowhere = TempFile::new("nowhere-engine.sh");
    edited_engine(&nowhere, "s/^bestmove .*/bestmove a1a1/");
    let wrong_side = TempFile::new("wrong-side-engine.sh");
    write_script(
        &wrong_side,
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; 'position startpos') move=e7e5;; position*) move=e2e4;; go*) echo \"bestmove $move\";; quit) exit 0;; esac; done\n",
    );
    let cases: [(&TempFile, &str, &[&str]); 2] = [
        (&nowhere, "nowhere", &["bestmove a1a1", "bestmove a1a1"]),
        (
            &wrong_side,
            "wrongside",
            &["bestmove e7e5", "bestmove e2e4"],
        ),
    ];
    for (script, name, answers) in cases {
        let engine = format!("cmd={}", script.path());
        let named = format!("name={name}");
        let (text, err, records) = play_with_warnings(
            name,
            &[
                "--players",
                "random",
                "--engine",
                &engine,
                &named,
                "--opening-plies",
                "0",
                "--games",
                "2",
            ],
        );
        assert_eq!(records.len(), 2, "{text}");
        assert_forfeited(&records, name, GameEnd::Illegal);
        for r in &records {
            assert_eq!(r.moves.len(), seat_of(r, name), "game {}: {text}", r.id);
        }
        // The answer, with the position, on standard error.
        let reported = format!("forfeit: {name} failed (");
        assert_eq!(err.matches(&reported).count(), answers.len(), "{err}");
        for answer in answers {
            assert!(err.contains(&format!("{reported}{answer}")), "{err}");
        }
        assert_eq!(forfeits(&text), [[0, 0, 0], [0, 2, 0]], "{text}");
    }
}

/// Characters of the line of no protocol the garbling engine writes
/// before each of its `bestmove`s.
const LONG_LINE: usize = 1_000_000;

#[test]
fn lines_of_no_protocol_before_a_bestmove_change_nothing() {
    // Before each of its answers the engine writes text of no command, an
    // `info` line of words that are no numbers, a word that only starts
    // like `bestmove`, and a line of a million characters: the games are
    // those of the engine without them, move for move and score for score.
    let garbling = TempFile::new("garbling-engine.sh");
    write_script(
        &garbling,
        format!(
            "#!/bin/sh\nlong=$(head -c {LONG_LINE} /dev/zero | tr '\\0' x)\n'{}' | while IFS= read -r line; do\n  case \"$line\" in bestmove*)\n    echo 'hello, this is no command at all'\n    echo 'info depth deep score cp ten pv'\n    echo 'bestmovee2e4 is no answer'\n    printf '%s\\n' \"$long\";;\n  esac\n  printf '%s\\n' \"$line\"\ndone\n",
            env!("CARGO_BIN_EXE_triskel")
        ),
    );
    let plain = format!("cmd={}", env!("CARGO_BIN_EXE_triskel"));
    let garbled = format!("cmd={}", garbling.path());
    let mut games = Vec::new();
    for (name, engine) in [("plain", &plain), ("garbling", &garbled)] {
        let named = format!("name={name}");
        let (text, err, records) = play_with_warnings(
            name,
            &[
                "--players",
                "random",
                "--engine",
                engine,
                &named,
                "depth=2",
                "--max-plies",
                "16",
                "--games",
                "2",
            ],
        );
        assert_eq!(records.len(), 2, "{text}");
        assert!(!err.contains("forfeit"), "{err}");
        for r in &records {
            assert!(
                matches!(r.end, GameEnd::Rules(_) | GameEnd::MaxPlies),
                "game {}: {text}",
                r.id
            );
            assert!(r.points[seat_of(r, name)] >= 0.5, "game {}: {text}", r.id);
        }
        assert_eq!(forfeits(&text), [[0, 0, 0], [0, 0, 0]], "{text}");
        let played: Vec<_> = records
            .iter()
            .map(|r| {
                let scores: Vec<_> = r.evals.iter().map(|e| e.search.clone()).collect();
                (r.moves.clone(), scores)
            })
            .collect();
        games.push(played);
    }
    assert_eq!(games[0], games[1]);
}

#[test]
fn more_games_at_once_than_cores_are_played_with_a_warning() {
    let out = triskel(&[
        "match",
        "--players",
        "random",
        "greedy",
        "--games",
        "2",
        "--concurrency",
        "256",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("warning: --concurrency 256 is above the"),
        "{}",
        stderr(&out)
    );
    let quiet = triskel(&["match", "--players", "random", "greedy", "--games", "2"]);
    assert!(!stderr(&quiet).contains("warning"), "{}", stderr(&quiet));
}

#[test]
fn a_book_opens_each_round_in_every_seating_in_the_order_asked() {
    let book = TempFile::new("book.tfen");
    let lines = [
        "# three openings",
        "startpos moves e2e4 e7e5",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        "fen rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1 moves e7e5",
    ];
    std::fs::write(&book.0, lines.join("\n")).expect("the book");
    let spec = format!("file={}", book.path());
    let (text, records) = play(
        "book-rounds",
        &[
            "--players",
            "random",
            "greedy",
            "--games",
            "8",
            "--max-plies",
            "20",
            "--openings",
            &spec,
            "start=2",
        ],
    );
    assert!(text.contains("3 book openings"), "{text}");
    assert_eq!(records.len(), 8);
    let started: Vec<(Option<&str>, Vec<&str>)> = records
        .iter()
        .map(|r| {
            (
                r.from.as_deref(),
                r.opening.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    let d4 = Some("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
    let c4 = Some("rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1");
    let expected = [
        (d4, vec![]),
        (c4, vec!["e7e5"]),
        (None, vec!["e2e4", "e7e5"]),
        (d4, vec![]),
    ];
    for (i, r) in records.iter().enumerate() {
        assert_eq!(started[i], expected[r.round - 1], "game {}", r.id);
    }
    let seats: HashSet<(usize, &str)> = records
        .iter()
        .map(|r| (r.round, r.seats[0].1.as_str()))
        .collect();
    assert_eq!(seats.len(), 8, "each opening with both colours");
}

#[test]
fn epd_and_pgn_books_play_in_chess_and_their_games_say_where_they_began() {
    use triskel::tournament::pgn::read_games;
    let epd = TempFile::new("book.epd");
    std::fs::write(
        &epd.0,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"ruy\";\n",
    )
    .expect("the book");
    let pgn = TempFile::new("book-games.pgn");
    let spec = format!("file={}", epd.path());
    let out = triskel(&[
        "match",
        "--players",
        "random",
        "greedy",
        "--games",
        "2",
        "--max-plies",
        "10",
        "--openings",
        &spec,
        "format=epd",
        "--pgnout",
        pgn.path(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&pgn.0).expect("the PGN");
    assert!(text.contains("[SetUp \"1\"]"), "{text}");
    let games = read_games(&text).expect("PGN");
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(
            game.start_fen.as_deref(),
            Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1")
        );
        game.replay()
            .expect("every move legal from the book's position");
    }
    // The games just written are a PGN book themselves, cut to 4 plies.
    let spec = format!("file={}", pgn.path());
    let (_, records) = play(
        "pgn-book",
        &[
            "--players",
            "random",
            "greedy",
            "--games",
            "4",
            "--max-plies",
            "10",
            "--openings",
            &spec,
            "format=pgn",
            "plies=4",
        ],
    );
    assert!(
        records
            .iter()
            .all(|r| r.opening.len() == 4 && r.from.is_some())
    );
}

#[test]
fn a_three_player_book_opens_all_six_orders_alike() {
    let book = TempFile::new("book3.tfen");
    std::fs::write(
        &book.0,
        "startpos moves e2e4 e11e9 k8j6\nstartpos moves b1c3\n",
    )
    .expect("the book");
    let spec = format!("file={}", book.path());
    let (_, records) = play(
        "book3",
        &[
            "--variant",
            "trichess",
            "--players",
            "random",
            "greedy",
            "--games",
            "12",
            "--max-plies",
            "12",
            "--openings",
            &spec,
        ],
    );
    for r in &records {
        let expected: &[&str] = if r.round == 1 {
            &["e2e4", "e11e9", "k8j6"]
        } else {
            &["b1c3"]
        };
        assert_eq!(r.opening, expected, "game {}", r.id);
    }
}

#[test]
fn a_made_book_is_balanced_text_that_a_match_opens_from() {
    let book = TempFile::new("made.tfen");
    let out = triskel(&[
        "book",
        "--variant",
        "star",
        "--count",
        "4",
        "--depth",
        "2",
        "--margin",
        "80",
        "--threads",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("# 4 openings of star: made by `triskel book --variant star"),
        "{text}"
    );
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("startpos moves "))
            .count(),
        4
    );
    std::fs::write(&book.0, &text).expect("the book");
    let spec = format!("file={}", book.path());
    let (_, records) = play(
        "made-book",
        &[
            "--variant",
            "star",
            "--players",
            "random",
            "greedy",
            "--games",
            "6",
            "--max-plies",
            "6",
            "--openings",
            &spec,
        ],
    );
    assert!(records.iter().all(|r| r.opening.len() == 12));
    let again = triskel(&[
        "book",
        "--variant",
        "star",
        "--count",
        "4",
        "--depth",
        "2",
        "--margin",
        "80",
    ]);
    assert_eq!(
        stdout(&again),
        text,
        "a book is the same with any number of threads"
    );
    for (args, word) in [
        (&["book", "--variant", "go"][..], "--variant"),
        (&["book", "--count", "0"][..], "--count"),
        (&["book", "--margin=-5"][..], "--margin"),
        (&["book", "--depth", "999999"][..], "--depth"),
    ] {
        let out = triskel(args);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(word), "{args:?}: {}", stderr(&out));
    }
}

/// Plays a match writing records and PGN, checked as [`play`] checks
/// it: the output, the records and the games read back from the PGN.
fn play_with_pgn(name: &str, args: &[&str]) -> (String, Vec<Record>, Vec<PgnGame>) {
    let pgn = TempFile::new(&format!("{name}.pgn"));
    let mut all = args.to_vec();
    all.extend_from_slice(&["--pgnout", pgn.path()]);
    let (text, records) = play(name, &all);
    let games = read_games(&std::fs::read_to_string(&pgn.0).expect("the PGN file"))
        .expect("the PGN reads back");
    assert_eq!(games.len(), records.len(), "{text}");
    (text, records, games)
}

/// The seat that plays the `ply`th move after the opening of `r`, in a
/// game where nobody leaves.
fn mover(r: &Record, ply: usize) -> usize {
    let start = Position::from_fen(r.variant, &r.fen).expect("the record's position");
    (start.to_move().index() + ply) % r.seats.len()
}

/// The evaluations of the moves after the opening in `game` (of `r`),
/// each with its mover's seat.
fn move_comments(r: &Record, game: &PgnGame) -> Vec<(usize, Evaluation)> {
    let opening = r.opening.len();
    for mv in &game.moves[..opening] {
        assert_eq!(mv.comment.as_deref(), Some("book"));
    }
    game.moves[opening..]
        .iter()
        .enumerate()
        .map(|(ply, mv)| {
            let comment = mv.comment.as_deref().expect("every move has a comment");
            let evaluation = Evaluation::from_comment(comment)
                .unwrap_or_else(|| panic!("'{comment}' is no evaluation"));
            (mover(r, ply), evaluation)
        })
        .collect()
}

#[test]
fn the_engine_at_a_fixed_depth_comments_its_moves_with_that_depth() {
    let engine = "engine:depth=3";
    let (text, records, games) = play_with_pgn(
        "depth-comments",
        &[
            "--players",
            engine,
            "random",
            "--games",
            "2",
            "--max-plies",
            "24",
        ],
    );
    for (r, game) in records.iter().zip(&games) {
        assert_eq!(r.evals.len(), r.moves.len(), "{text}");
        let comments = move_comments(r, game);
        assert_eq!(comments.len(), r.moves.len());
        for ((seat, evaluation), recorded) in comments.iter().zip(&r.evals) {
            if r.seats[*seat].1 == engine {
                assert_eq!(evaluation.depth, 3, "game {}", r.id);
                let search = recorded.search.as_ref().expect("the engine searched");
                assert_eq!((search.depth, search.score), (3, evaluation.score));
            } else {
                assert_eq!(evaluation.depth, 0, "random plays without a search");
                assert!(recorded.search.is_none());
            }
        }
    }
}

#[test]
fn an_engine_process_is_commented_with_its_last_info_line() {
    let cp = TempFile::new("cp-engine.sh");
    edited_engine(
        &cp,
        "s/^info .*/info depth 7 seldepth 9 multipv 1 score cp 42 nodes 100 pv/",
    );
    let mate = TempFile::new("mate-engine.sh");
    edited_engine(&mate, "s/^info .*/info depth 9 score mate 3 nodes 100 pv/");
    let (text, records, games) = play_with_pgn(
        "info-comments",
        &[
            "--engine",
            &format!("cmd={}", cp.path()),
            "name=cp",
            "--engine",
            &format!("cmd={}", mate.path()),
            "name=mate",
            "--each",
            "depth=1",
            "--games",
            "2",
            "--max-plies",
            "10",
        ],
    );
    let pgn_text: String = games.iter().map(PgnGame::write).collect();
    for (r, game) in records.iter().zip(&games) {
        for (seat, evaluation) in move_comments(r, game) {
            let text = Evaluation {
                time: std::time::Duration::ZERO,
                ..evaluation
            }
            .comment();
            let expected = if r.seats[seat].1 == "cp" {
                "+0.42/7 0s"
            } else {
                "+M5/9 0s"
            };
            assert_eq!(text, expected, "game {}: {text}", r.id);
        }
    }
    assert!(pgn_text.contains("{+0.42/7 "), "{pgn_text}");
    assert!(pgn_text.contains("{+M5/9 "), "{pgn_text}");
    assert!(!text.contains("adjudicat"), "{text}");
}

/// A shell script at `file`: this engine with every `info` line made `info`.
fn scoring_engine(file: &TempFile, info: &str) {
    edited_engine(file, &format!("s/^info .*/{info}/"));
}

#[test]
fn engines_that_see_a_level_game_are_adjudicated_a_draw() {
    let level = TempFile::new("level-engine.sh");
    scoring_engine(&level, "info depth 5 score cp 3 pv");
    let engine = format!("cmd={}", level.path());
    let (text, records, games) = play_with_pgn(
        "draw-adjudication",
        &[
            "--engine",
            &engine,
            "name=a",
            "--engine",
            &engine,
            "name=b",
            "--each",
            "depth=1",
            "--games",
            "2",
            "--max-plies",
            "200",
            "--draw",
            "movenumber=4",
            "movecount=2",
            "score=10",
        ],
    );
    for (r, game) in records.iter().zip(&games) {
        assert_eq!(r.end, GameEnd::DrawAdjudicated, "{text}");
        assert_eq!(r.points, [0.5, 0.5]);
        let all: Vec<&String> = r.opening.iter().chain(&r.moves).collect();
        let end = build_position(r.variant, AfterMate::End, None, &all).unwrap();
        assert!(end.round() > 4, "after full move 4: {}", end.fen());
        assert_eq!(game.tag("Termination"), Some("adjudication"));
        assert_eq!(game.termination.as_deref(), Some("Draw by adjudication"));
        assert_eq!(game.result, "1/2-1/2");
    }
    assert!(text.contains(": draw, w 0.5 b 0.5"), "{text}");
    // A baseline gives no scores: its games are never adjudicated.
    let (text, records) = play(
        "no-draw-adjudication",
        &[
            "--players",
            "random",
            "--engine",
            &engine,
            "depth=1",
            "--games",
            "2",
            "--max-plies",
            "30",
            "--draw",
            "movenumber=1",
            "movecount=1",
            "score=10",
        ],
    );
    assert!(
        records.iter().all(|r| r.end != GameEnd::DrawAdjudicated),
        "{text}"
    );
}

#[test]
fn an_engine_that_sees_itself_lost_is_adjudicated_lost() {
    let losing = TempFile::new("losing-engine.sh");
    scoring_engine(&losing, "info depth 5 score cp -700 pv");
    let winning = TempFile::new("winning-engine.sh");
    scoring_engine(&winning, "info depth 5 score cp 100 pv");
    let engines = [
        "--engine".to_string(),
        format!("cmd={}", losing.path()),
        "name=loser".to_string(),
        "--engine".to_string(),
        format!("cmd={}", winning.path()),
        "name=winner".to_string(),
        "--each".to_string(),
        "depth=1".to_string(),
        "--games".to_string(),
        "2".to_string(),
        "--max-plies".to_string(),
        "16".to_string(),
        "--resign".to_string(),
        "movecount=3".to_string(),
        "score=600".to_string(),
    ];
    let mut args: Vec<&str> = engines.iter().map(String::as_str).collect();
    let (text, records, games) = play_with_pgn("resign-adjudication", &args);
    for (r, game) in records.iter().zip(&games) {
        let GameEnd::ResignAdjudicated(loser) = r.end else {
            panic!("game {}: {:?}: {text}", r.id, r.end);
        };
        assert_eq!(r.seats[loser.index()].1, "loser", "{text}");
        assert_eq!(r.points[loser.index()], 0.0);
        // White moves first after the opening: its third move is ply 5,
        // Black's ply 6.
        assert_eq!(r.moves.len(), 5 + loser.index(), "{text}");
        let winner = ["White", "Black"][1 - loser.index()];
        assert_eq!(
            game.termination.as_deref(),
            Some(format!("{winner} wins by adjudication").as_str())
        );
        assert_eq!(game.tag("Termination"), Some("adjudication"));
    }
    // Two-sided, the winner's +1.00 does not agree: nobody resigns.
    args.push("twosided=true");
    let (text, records) = play("resign-two-sided", &args);
    for r in &records {
        assert!(
            !matches!(r.end, GameEnd::ResignAdjudicated(_)),
            "game {}: {text}",
            r.id
        );
    }
}

#[test]
fn three_players_resign_from_the_scores_and_the_others_share() {
    let losing = TempFile::new("losing-3p-engine.sh");
    scoring_engine(&losing, "info depth 5 score cp -700 pv");
    let even = TempFile::new("even-3p-engine.sh");
    scoring_engine(&even, "info depth 5 score cp 100 pv");
    let (text, records, games) = play_with_pgn(
        "resign-three-players",
        &[
            "--variant",
            "dreierschach",
            "--engine",
            &format!("cmd={}", losing.path()),
            "name=loser",
            "--engine",
            &format!("cmd={}", even.path()),
            "name=even",
            "--each",
            "depth=1",
            "--games",
            "6",
            "--max-plies",
            "30",
            "--resign",
            "movecount=2",
            "score=600",
        ],
    );
    let names = Variant::Dreierschach.game().player_names;
    for (r, game) in records.iter().zip(&games) {
        let GameEnd::ResignAdjudicated(loser) = r.end else {
            panic!("game {}: {:?}: {text}", r.id, r.end);
        };
        assert_eq!(r.seats[loser.index()].1, "loser", "{text}");
        let first_loser = r.seats.iter().position(|(_, n)| n == "loser").unwrap();
        assert_eq!(
            loser.index(),
            first_loser,
            "the first to move twice resigns"
        );
        assert_eq!(r.moves.len(), 3 + first_loser + 1, "{text}");
        for (seat, &points) in r.points.iter().enumerate() {
            let expected = if seat == loser.index() { 0.0 } else { 1.5 };
            assert_eq!(points, expected, "game {}", r.id);
        }
        assert_eq!(
            game.termination.as_deref(),
            Some(format!("{} loses by adjudication", names[loser.index()]).as_str())
        );
    }
}

#[test]
fn three_players_are_drawn_when_every_score_is_level() {
    let letters = Variant::Trichess.game().letters;
    let level = TempFile::new("level-3p-engine.sh");
    scoring_engine(
        &level,
        &format!(
            "info depth 4 score cp 2 scores {} cp 2 {} cp -1 {} cp -1 pv",
            letters[0], letters[1], letters[2]
        ),
    );
    let engine = format!("cmd={}", level.path());
    let (text, records) = play(
        "draw-three-players",
        &[
            "--variant",
            "trichess",
            "--engine",
            &engine,
            "name=a",
            "--engine",
            &engine,
            "name=b",
            "--each",
            "depth=1",
            "--games",
            "6",
            "--max-plies",
            "200",
            "--draw",
            "movenumber=4",
            "movecount=1",
            "score=5",
        ],
    );
    for r in &records {
        assert_eq!(r.end, GameEnd::DrawAdjudicated, "{text}");
        let search = r.evals[0].search.as_ref().expect("the engine's score");
        assert_eq!(search.scores.len(), 3);
    }
}

#[test]
fn maxmoves_counts_full_moves_and_the_smaller_limit_wins() {
    for (variant, maxmoves, max_plies, plies) in [
        ("chess", "5", "600", 10),
        ("chess", "50", "7", 7),
        ("dreierschach", "2", "600", 6),
    ] {
        let (text, records) = play(
            &format!("maxmoves-{variant}-{maxmoves}"),
            &[
                "--variant",
                variant,
                "--players",
                "random",
                "greedy",
                "--games",
                if variant == "chess" { "2" } else { "6" },
                "--maxmoves",
                maxmoves,
                "--max-plies",
                max_plies,
            ],
        );
        for r in &records {
            if r.end == GameEnd::MaxPlies {
                assert_eq!(r.moves.len(), plies, "{text}");
            } else {
                assert!(r.moves.len() <= plies, "{text}");
            }
        }
    }
}

/// The records' games: seats, opening, moves and points (what a replay of
/// the schedule must reproduce; times differ from run to run).
fn games_of(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .map(|r| {
            let seats: Vec<&str> = r.seats.iter().map(|(_, n)| n.as_str()).collect();
            format!("{} {seats:?} {} {:?} {:?}", r.id, r.fen, r.moves, r.points)
        })
        .collect()
}

#[test]
fn a_resumed_match_plays_the_games_an_unbroken_one_would() {
    let whole = TempFile::new("whole.records");
    let parts = TempFile::new("parts.records");
    let pgn = TempFile::new("parts.pgn");
    let base = [
        "match",
        "--variant",
        "trichess",
        "--players",
        "random",
        "greedy",
        "--games",
        "12",
        "--max-plies",
        "30",
        "--seed",
        "4",
    ];
    let run = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let out = triskel(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let unbroken = run(&["--record", whole.path()]);
    // The first 6 games, then the rest resumed from the records.
    let mut first = base.to_vec();
    first[7] = "6";
    first.extend_from_slice(&["--record", parts.path(), "--pgnout", pgn.path()]);
    assert!(triskel(&first).status.success());
    let resumed = run(&["--record", parts.path(), "--pgnout", pgn.path(), "--resume"]);
    assert!(
        resumed.contains("resuming after 6 finished games of 12"),
        "{resumed}"
    );
    assert_eq!(
        resumed.lines().filter(|l| l.starts_with("game ")).count(),
        6
    );
    assert_eq!(games_of(&parts.records()), games_of(&whole.records()));
    assert_eq!(
        table(&resumed),
        table(&unbroken),
        "the table counts every game"
    );
    let text = std::fs::read_to_string(&pgn.0).expect("the PGN");
    let games = triskel::tournament::pgn::read_games(&text).expect("the PGN reads");
    let rounds: Vec<&str> = games
        .iter()
        .map(|g| g.tag("Round").unwrap_or("?"))
        .collect();
    assert_eq!(
        rounds,
        ["1"; 6]
            .iter()
            .chain(&["2"; 6])
            .copied()
            .collect::<Vec<_>>()
    );
    // Resuming a finished match plays nothing and prints its table.
    let again = run(&["--record", parts.path(), "--resume"]);
    assert!(!again.lines().any(|l| l.starts_with("game ")), "{again}");
    assert_eq!(table(&again), table(&unbroken));
}

#[test]
fn only_the_same_match_resumes() {
    let records = TempFile::new("other.records");
    let out = triskel(&[
        "match",
        "--players",
        "random",
        "greedy",
        "--games",
        "2",
        "--record",
        records.path(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    for (extra, says) in [
        (&["--seed", "1"][..], "its last match is another one"),
        (
            &["--opening-plies", "3"][..],
            "its last match is another one",
        ),
        (&["--games", "1"][..], "--games 1"),
    ] {
        let mut args = vec![
            "match",
            "--players",
            "random",
            "greedy",
            "--record",
            records.path(),
            "--resume",
        ];
        args.extend_from_slice(extra);
        let out = triskel(&args);
        assert_eq!(out.status.code(), Some(FAILURE), "{extra:?}");
        assert!(stderr(&out).contains(says), "{extra:?}: {}", stderr(&out));
    }
    let edited = TempFile::new("edited.records");
    let text = std::fs::read_to_string(&records.0).expect("records");
    std::fs::write(
        &edited.0,
        text.replace("seats=w:random b:greedy", "seats=w:greedy b:random"),
    )
    .expect("written");
    let out = triskel(&[
        "match",
        "--players",
        "random",
        "greedy",
        "--record",
        edited.path(),
        "--resume",
    ]);
    assert_eq!(out.status.code(), Some(FAILURE));
    assert!(
        stderr(&out).contains("record 1 seats greedy, random"),
        "{}",
        stderr(&out)
    );
    let missing = triskel(&["match", "--players", "random", "greedy", "--resume"]);
    assert_eq!(missing.status.code(), Some(USAGE_ERROR));
    assert!(
        stderr(&missing).contains("--record"),
        "{}",
        stderr(&missing)
    );
    let empty = TempFile::new("never.records");
    let out = triskel(&[
        "match",
        "--players",
        "random",
        "greedy",
        "--record",
        empty.path(),
        "--resume",
    ]);
    assert_eq!(out.status.code(), Some(FAILURE));
    assert!(stderr(&out).contains("--resume"), "{}", stderr(&out));
}

#[test]
fn an_interrupted_match_resumes_where_its_records_end() {
    let record = TempFile::new("broken.records");
    let args = [
        "match",
        "--variant",
        "chess",
        "--players",
        "greedy",
        "engine:depth=2",
        "--games",
        // More than the 0.7 s before the interruption can finish (fast
        // games: 400 of them once took less).
        "100000",
        "--concurrency",
        "2",
        "--record",
        record.path(),
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_triskel"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the match starts");
    std::thread::sleep(std::time::Duration::from_millis(700));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    assert!(sent.expect("kill runs").success());
    let out = child.wait_with_output().expect("the match ends");
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let before = record.records().len();
    assert!(before < 100_000, "interrupted in time");
    // Two or three games more than were finished, a whole number of rounds.
    let games = (before + 2 + before % 2).to_string();
    let mut resumed = args.to_vec();
    resumed[7] = &games;
    resumed.push("--resume");
    let out = triskel(&resumed);
    assert!(out.status.success(), "{}", stderr(&out));
    let records = record.records();
    let ids: Vec<usize> = records.iter().map(|r| r.id).collect();
    assert_eq!(
        ids,
        (1..=ids.len()).collect::<Vec<_>>(),
        "every game once, in order"
    );
    assert_eq!(ids.len().to_string(), games);
}

#[test]
fn without_recover_a_lost_engine_ends_the_match() {
    let script = TempFile::new("dying-engine.sh");
    write_script(
        &script,
        "#!/bin/sh\nwhile read line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; go*) exit 0;; esac; done\n",
    );
    let exec = format!("exec:{}", script.path());
    let base = [
        "match",
        "--players",
        "random",
        &exec,
        "--games",
        "6",
        "--time",
        "1000",
    ];
    let mut stop = base.to_vec();
    stop.push("--no-recover");
    let out = triskel(&stop);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--no-recover: the match ends after game 1"),
        "{}",
        stderr(&out)
    );
    assert_eq!(table(&stdout(&out))[0].1, 1, "{}", stdout(&out));
    let mut go_on = base.to_vec();
    go_on.push("--recover");
    let out = triskel(&go_on);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(table(&stdout(&out))[0].1, 6, "{}", stdout(&out));
}

#[test]
fn the_shipped_books_are_what_their_recipes_make() {
    let books = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openings");
    for variant in Variant::ALL.iter().filter(|v| v.is_playable()) {
        let file = books.join(format!("{}.tfen", variant.id()));
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|why| panic!("{}: {why}", file.display()));
        let first = text.lines().next().expect("a header");
        let command = first
            .split('`')
            .nth(1)
            .unwrap_or_else(|| panic!("{variant}: the header names its command: {first}"));
        let openings: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert!(openings.len() >= 200, "{variant}: hundreds of openings");
        let mut args: Vec<&str> = command.split_whitespace().skip(1).collect();
        let count = args.iter().position(|&a| a == "--count").expect("--count");
        args[count + 1] = "3";
        let out = triskel(&args);
        assert!(out.status.success(), "{variant}: {}", stderr(&out));
        let remade: Vec<String> = stdout(&out)
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect();
        assert_eq!(
            remade,
            openings[..3],
            "{variant}: its first openings remade"
        );
        let spec = format!("file={}", file.display());
        let out = triskel(&[
            "match",
            "--variant",
            variant.id(),
            "--players",
            "random",
            "greedy",
            "--games",
            if variant.game().players == 2 {
                "2"
            } else {
                "6"
            },
            "--max-plies",
            "4",
            "--openings",
            &spec,
        ]);
        assert!(out.status.success(), "{variant}: {}", stderr(&out));
        assert!(stdout(&out).contains(&format!("{} book openings", openings.len())));
        assert!(
            stderr(&out).is_empty(),
            "{variant}: every opening plays: {}",
            stderr(&out)
        );
    }
}

#[test]
fn the_header_and_the_record_name_the_clocks_the_engines_play_with() {
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_triskel"));
    let pgn = TempFile::new("own-clocks.pgn");
    // Both engines on their own time control (not the match's 10+0.1).
    let out = triskel(&[
        "match",
        "--engine",
        &engine,
        "name=first",
        "--engine",
        &engine,
        "name=second",
        "--each",
        "tc=2+0.02",
        "--games",
        "2",
        "--max-plies",
        "6",
        "--pgnout",
        pgn.path(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let header = stdout(&out).lines().next().unwrap_or("").to_string();
    assert!(header.contains("; 2+0.02 s;"), "{header}");
    let games = std::fs::read_to_string(&pgn.0).expect("the PGN was written");
    assert_eq!(
        games.matches("[TimeControl \"2+0.02\"]").count(),
        2,
        "{games}"
    );

    // An engine's own clock beside the match's: each is named, the PGN tag
    // (one time control for the game) is left out.
    let pgn = TempFile::new("mixed-clocks.pgn");
    let out = triskel(&[
        "match",
        "--players",
        "random",
        "--engine",
        &engine,
        "name=own",
        "tc=2+0.02",
        "--games",
        "2",
        "--max-plies",
        "6",
        "--pgnout",
        pgn.path(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let header = stdout(&out).lines().next().unwrap_or("").to_string();
    assert!(
        header.contains("; random 10+0.1 s, own 2+0.02 s;"),
        "{header}"
    );
    let games = std::fs::read_to_string(&pgn.0).expect("the PGN was written");
    assert!(!games.contains("[TimeControl "), "{games}");
}
