//! The `go` command: reading its parameters into search limits or a perft
//! depth, and writing the search's `info` and `bestmove` lines.

use crate::moves::Move;
use crate::number;
use crate::position::Position;
use crate::search::{Info, Limits, MAX_DEPTH, Progress, SearchResult, score_text};
use std::str::FromStr;
use std::time::Duration;

/// Deepest `go perft` (and `triskel perft`): deeper trees cannot be counted
/// in reasonable time, and their counts could overflow 64 bits in the
/// three-player games.
pub const MAX_PERFT_DEPTH: u32 = 10;

/// Largest time in milliseconds accepted for clocks, increments and
/// `movetime`: 100 days.
pub const MAX_TIME_MS: u64 = 100 * 24 * 60 * 60 * 1000;

/// Largest `movestogo`.
pub const MAX_MOVES_TO_GO: u32 = 1000;

/// What a `go` command asks for.
#[derive(Clone, Debug)]
pub enum GoCommand {
    /// Count the move tree to this depth, split by root move.
    Perft(u32),
    /// Search within `limits`; with `ponder`, first search without them
    /// until `ponderhit` (the limits then apply) or `stop`.
    Search {
        /// The limits of the search (after `ponderhit` when pondering).
        limits: Limits,
        /// `go ponder`: the position is the one after the move the engine
        /// expects its opponent to play.
        ponder: bool,
    },
}

/// Parameter words of `go` apart from the clocks.
const KEYWORDS: [&str; 9] = [
    "perft",
    "depth",
    "movetime",
    "nodes",
    "infinite",
    "movestogo",
    "searchmoves",
    "ponder",
    "mate",
];

/// Suffix of a player's remaining time (`wtime`).
pub const TIME_SUFFIX: &str = "time";
/// Suffix of a player's increment (`winc`).
pub const INCREMENT_SUFFIX: &str = "inc";

/// A player's clock parameter: whose, and whether time or increment.
fn clock_word(pos: &Position, word: &str) -> Option<(usize, bool)> {
    let game = pos.game();
    let mut chars = word.chars();
    let letter = chars.next()?;
    let rest = chars.as_str();
    let player = game.letters[..game.players]
        .iter()
        .position(|&l| l == letter)?;
    match rest {
        TIME_SUFFIX => Some((player, true)),
        INCREMENT_SUFFIX => Some((player, false)),
        _ => None,
    }
}

/// The clock words of the current game, e.g. `wtime btime winc binc`.
pub fn clock_words(pos: &Position) -> String {
    let game = pos.game();
    let letters = &game.letters[..game.players];
    let times = letters.iter().map(|l| format!("{l}{TIME_SUFFIX}"));
    let incs = letters.iter().map(|l| format!("{l}{INCREMENT_SUFFIX}"));
    times.chain(incs).collect::<Vec<_>>().join(" ")
}

/// Reads the parameters of `go` (the words after it) for `pos`.
pub fn parse_go(pos: &Position, words: &[&str]) -> Result<GoCommand, String> {
    if words.first() == Some(&"perft") {
        let depth = number(words, 1, "perft", 1..=MAX_PERFT_DEPTH)?;
        if let Some(extra) = words.get(2) {
            return Err(format!("go perft takes only a depth, not '{extra}'"));
        }
        return Ok(GoCommand::Perft(depth));
    }
    let mut limits = Limits::default();
    let mut ponder = false;
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        match word {
            "depth" => limits.depth = Some(number(words, i + 1, word, 1..=MAX_DEPTH)?),
            "nodes" => limits.nodes = Some(number(words, i + 1, word, 1..=u64::MAX)?),
            "movetime" => {
                limits.movetime = Some(millis(number(words, i + 1, word, 0..=MAX_TIME_MS)?))
            }
            "movestogo" => {
                limits.moves_to_go = Some(number(words, i + 1, word, 1..=MAX_MOVES_TO_GO)?)
            }
            "infinite" => {
                limits.infinite = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                let start = i + 1;
                let end = (start..words.len())
                    .find(|&j| is_keyword(pos, words[j]))
                    .unwrap_or(words.len());
                if start == end {
                    return Err("go searchmoves: no moves given".to_string());
                }
                limits.search_moves = words[start..end]
                    .iter()
                    .map(|text| {
                        pos.parse_move(text)
                            .map_err(|why| format!("go searchmoves: {why}"))
                    })
                    .collect::<Result<Vec<Move>, String>>()?;
                i = end;
                continue;
            }
            "ponder" => {
                ponder = true;
                i += 1;
                continue;
            }
            "mate" => limits.mate = Some(number(words, i + 1, word, 1..=MAX_DEPTH)?),
            "perft" => return Err("perft must come right after go: go perft <depth>".to_string()),
            _ => match clock_word(pos, word) {
                Some((player, true)) => {
                    // A clock may be negative when a GUI lets it run over; it counts as 0.
                    let ms = words.get(i + 1).and_then(|t| number::zero_if_negative(t));
                    match ms {
                        Some(ms) if ms <= MAX_TIME_MS => {
                            limits.time[player] = Some(millis(ms));
                        }
                        _ => {
                            return Err(format!(
                                "go {word}: expected milliseconds up to {MAX_TIME_MS}, got '{}'",
                                words.get(i + 1).unwrap_or(&"")
                            ));
                        }
                    }
                }
                Some((player, false)) => {
                    limits.increment[player] = millis(number(words, i + 1, word, 0..=MAX_TIME_MS)?);
                }
                None => {
                    return Err(format!(
                        "unknown go parameter '{word}' (parameters: depth nodes movetime movestogo mate infinite ponder searchmoves perft, clocks: {})",
                        clock_words(pos)
                    ));
                }
            },
        }
        i += 2;
    }
    Ok(GoCommand::Search { limits, ponder })
}

/// Whether `word` starts a new parameter of `go`.
fn is_keyword(pos: &Position, word: &str) -> bool {
    KEYWORDS.contains(&word) || clock_word(pos, word).is_some()
}

/// The number after parameter `name` (at `words[at]`), within `range`.
fn number<T>(
    words: &[&str],
    at: usize,
    name: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, String>
where
    T: FromStr + PartialOrd + std::fmt::Display,
{
    let Some(text) = words.get(at) else {
        return Err(format!("go {name}: missing value"));
    };
    match number::whole_in(text, &range) {
        Some(n) => Ok(n),
        None => Err(format!(
            "go {name}: expected an integer from {} to {}, got '{text}'",
            range.start(),
            range.end()
        )),
    }
}

fn millis(ms: u64) -> Duration {
    Duration::from_millis(ms)
}

/// The `info` line of a search's progress report.
pub fn progress_line(pos: &Position, progress: &Progress) -> String {
    match progress {
        Progress::Line(info) => info_line(pos, info),
        Progress::CurrentMove { depth, mv, number } => format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            pos.move_text(*mv)
        ),
    }
}

/// The `info` line of one completed search depth.
fn info_line(pos: &Position, info: &Info) -> String {
    let ms = info.time.as_millis();
    let nps = u128::from(info.nodes) * 1000 / ms.max(1);
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.score),
    );
    if !info.scores.is_empty() {
        line.push_str(" scores");
        for (letter, score) in &info.scores {
            line.push_str(&format!(" {letter} {}", score_text(*score)));
        }
    }
    line.push_str(&format!(
        " nodes {} nps {nps} hashfull {} time {ms}",
        info.nodes, info.hashfull
    ));
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for &m in &info.pv {
            line.push(' ');
            line.push_str(&pos.move_text(m));
        }
    }
    line
}

/// The `bestmove` line of a search's result.
pub fn bestmove_line(pos: &Position, result: &SearchResult) -> String {
    match result.ponder {
        Some(reply) => format!(
            "bestmove {} ponder {}",
            pos.move_text(result.best),
            pos.move_text(reply)
        ),
        None => format!("bestmove {}", pos.move_text(result.best)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;
    use crate::types::MAX_PLAYERS;

    fn go(text: &str) -> Result<GoCommand, String> {
        let pos = Position::start(Variant::Chess);
        let words: Vec<&str> = text.split_whitespace().collect();
        parse_go(&pos, &words)
    }

    fn limits(text: &str) -> Limits {
        match go(text) {
            Ok(GoCommand::Search { limits, .. }) => limits,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn reads_every_parameter() {
        let l = limits(
            "wtime 60000 btime 50000 winc 1000 binc 500 movestogo 20 depth 7 nodes 1000 movetime 300",
        );
        assert_eq!(l.time[0], Some(Duration::from_secs(60)));
        assert_eq!(l.time[1], Some(Duration::from_secs(50)));
        assert_eq!(l.increment, {
            let mut inc = [Duration::ZERO; MAX_PLAYERS];
            inc[0] = Duration::from_secs(1);
            inc[1] = Duration::from_millis(500);
            inc
        });
        assert_eq!(
            (l.moves_to_go, l.depth, l.nodes),
            (Some(20), Some(7), Some(1000))
        );
        assert_eq!(l.movetime, Some(Duration::from_millis(300)));
        assert!(!l.infinite);
        assert!(limits("infinite").infinite);
    }

    #[test]
    fn searchmoves_end_at_the_next_parameter() {
        let l = limits("searchmoves e2e4 d2d4 depth 3");
        assert_eq!(l.search_moves.len(), 2);
        assert_eq!(l.depth, Some(3));
    }

    #[test]
    fn negative_clock_counts_as_zero() {
        assert_eq!(limits("wtime -50 btime 1000").time[0], Some(Duration::ZERO));
    }

    #[test]
    fn perft_depth() {
        assert!(matches!(go("perft 3"), Ok(GoCommand::Perft(3))));
        for bad in [
            "perft",
            "perft 0",
            "perft -1",
            "perft 11",
            "perft x",
            "perft 3 depth 2",
            "depth 2 perft 3",
        ] {
            assert!(go(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ponder_keeps_the_limits_for_after_ponderhit() {
        match go("ponder wtime 1000 btime 2000 winc 10") {
            Ok(GoCommand::Search { limits, ponder }) => {
                assert!(ponder);
                assert_eq!(limits.time[0], Some(Duration::from_secs(1)));
                assert_eq!(limits.increment[0], Duration::from_millis(10));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            go("wtime 1000"),
            Ok(GoCommand::Search { ponder: false, .. })
        ));
    }

    #[test]
    fn mate_asks_for_a_number_of_moves() {
        assert_eq!(limits("mate 3").mate, Some(3));
        assert_eq!(limits("depth 5").mate, None);
    }

    #[test]
    fn absurd_values_are_refused() {
        let too_deep = format!("depth {}", MAX_DEPTH + 1);
        for bad in [
            "depth 99999999999",
            "depth 0",
            &too_deep,
            "depth",
            "movetime abc",
            "movetime -5",
            "movetime 99999999999999999",
            "nodes 0",
            "nodes -1",
            "winc -1",
            "movestogo 0",
            "ntime 100",
            "searchmoves",
            "searchmoves e2e5",
            "searchmoves zz",
            "mate 0",
            "mate",
            "bogus",
        ] {
            let err = go(bad).expect_err(bad);
            assert!(!err.is_empty());
        }
    }
}
