//! SAN against python-chess, and PGN of the games of `triskel match`.
//!
//! `data/san.txt` holds positions, moves and their SAN as python-chess
//! 1.11.2 writes them (FEN, UCI move and SAN, tab-separated), made by
//!
//! ```text
//! pip install chess==1.11.2
//! python3 scripts/san-reference.py > tests/data/san.txt
//! ```
//!
//! from seeded random games of the start position, Kiwipete and positions
//! rich in promotions, en passant and pieces of one kind that reach the
//! same cell. Every line's move must be written as python-chess writes it
//! and read back from that text.
//!
//! The PGN that python-chess should read is written by the test
//! `played_games_read_back` when `TRISKEL_PGN_SAMPLE` names a file:
//!
//! ```text
//! TRISKEL_PGN_SAMPLE=/tmp/sample.pgn cargo test --release --test pgn
//! python3 scripts/pgn-check.py /tmp/sample.pgn
//! ```

use std::sync::Mutex;
use std::time::Duration;
use triskel::position::Position;
use triskel::tournament::adjudication::Adjudication;
use triskel::tournament::game::TimeControl;
use triskel::tournament::pgn::{Evaluation, LINE_WIDTH, MatchTags, PgnGame, read_games};
use triskel::tournament::player::PlayerConfig;
use triskel::tournament::record::Record;
use triskel::tournament::{Finished, MatchSettings, run_match};
use triskel::variants::Variant;

/// The reference data: FEN, UCI move and SAN per line.
const SAN_REFERENCE: &str = include_str!("data/san.txt");
/// Fewest reference lines the data must have (it has a few thousand).
const MIN_REFERENCE_LINES: usize = 4000;
/// The environment variable naming a file for the sample games' PGN.
const SAMPLE_VARIABLE: &str = "TRISKEL_PGN_SAMPLE";
/// Games of the sample match of each game.
const SAMPLE_GAMES: usize = 12;
/// Plies after which a sample game is stopped.
const SAMPLE_MAX_PLIES: usize = 160;
/// The depth of the made-up evaluations of the sample moves.
const SAMPLE_DEPTH: u32 = 9;
/// Centipawns the made-up score changes by each ply.
const SAMPLE_SCORE_STEP: i32 = 13;
/// The made-up scores go round from minus this to plus this (centipawns).
const SAMPLE_SCORE_BOUND: i32 = 250;
/// Milliseconds the made-up time of a move grows by each ply.
const SAMPLE_MS_PER_PLY: u64 = 37;
/// Seed of the sample matches.
const SAMPLE_SEED: u64 = 11;
/// Random plies of the sample matches' openings.
const SAMPLE_OPENING_PLIES: usize = 4;
/// The sample matches' clocks.
const SAMPLE_CLOCKS: TimeControl =
    TimeControl::fischer(Duration::from_secs(10), Duration::from_millis(100));

#[test]
fn san_matches_python_chess() {
    let mut lines = 0;
    for line in SAN_REFERENCE.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [fen, uci, san] = fields[..] else {
            panic!("not FEN, UCI move and SAN: {line}");
        };
        let pos =
            Position::from_fen(Variant::Chess, fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
        let m = pos
            .parse_move(uci)
            .unwrap_or_else(|e| panic!("{fen} {uci}: {e}"));
        assert_eq!(pos.san(m), san, "{fen} {uci}");
        assert_eq!(pos.parse_san(san), Ok(m), "{fen} {san}");
        let bare = san.trim_end_matches(['+', '#']);
        assert_eq!(pos.parse_san(bare), Ok(m), "{fen} {bare}");
        lines += 1;
    }
    assert!(lines >= MIN_REFERENCE_LINES, "only {lines} reference lines");
}

/// The records of a small match of the baselines in `variant`.
fn sample_records(variant: Variant) -> Vec<Record> {
    let settings = MatchSettings {
        variant,
        players: ["random", "greedy"]
            .iter()
            .map(|s| PlayerConfig::parse(s).unwrap())
            .collect(),
        games: SAMPLE_GAMES,
        time_control: SAMPLE_CLOCKS,
        seed: SAMPLE_SEED,
        opening_plies: SAMPLE_OPENING_PLIES,
        book: None,
        max_plies: SAMPLE_MAX_PLIES,
        adjudication: Adjudication::default(),
        concurrency: 1,
        sprt: None,
        recover: true,
        resumed: Vec::new(),
        rating_interval: 0,
    };
    let records = Mutex::new(Vec::new());
    run_match(&settings, &|f: &Finished| {
        records.lock().unwrap().push(f.record.clone());
    })
    .unwrap();
    let mut records = records.into_inner().unwrap();
    records.sort_by_key(|r| r.id);
    records
}

/// The PGN of `record`, its played moves given made-up evaluations.
fn sample_game(record: &Record) -> PgnGame {
    let context = MatchTags {
        event: "triskel pgn test".into(),
        site: "here".into(),
        date: "2024.06.11".into(),
        time_control: Some(SAMPLE_CLOCKS),
    };
    let mut game = PgnGame::from_record(record, &context).unwrap();
    for (ply, mv) in game.moves.iter_mut().enumerate().skip(record.opening.len()) {
        let evaluation = Evaluation {
            score: (ply as i32 * SAMPLE_SCORE_STEP) % (2 * SAMPLE_SCORE_BOUND) - SAMPLE_SCORE_BOUND,
            depth: SAMPLE_DEPTH,
            time: Duration::from_millis(ply as u64 * SAMPLE_MS_PER_PLY),
        };
        mv.comment = Some(evaluation.comment());
    }
    game
}

#[test]
fn played_games_read_back() {
    let mut all = String::new();
    for variant in [Variant::Chess, Variant::Dreierschach, Variant::Star] {
        for record in sample_records(variant) {
            let game = sample_game(&record);
            let pgn = game.write();
            assert!(
                pgn.lines().all(|l| l.chars().count() <= LINE_WIDTH),
                "{pgn}"
            );
            let read = PgnGame::parse(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
            assert_eq!(read, game);
            let wire = read.replay().unwrap_or_else(|e| panic!("{e}\n{pgn}"));
            let recorded: Vec<String> = record
                .opening
                .iter()
                .chain(&record.moves)
                .cloned()
                .collect();
            assert_eq!(wire, recorded);
            if variant == Variant::Chess {
                all.push_str(&pgn);
            }
        }
    }
    assert_eq!(read_games(&all).unwrap().len(), SAMPLE_GAMES);
    if let Some(path) = std::env::var_os(SAMPLE_VARIABLE) {
        std::fs::write(&path, &all).unwrap();
    }
}
