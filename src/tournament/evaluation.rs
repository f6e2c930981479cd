//! What a player said of its moves: the score and depth of its search
//! (and in three-player games every player's score), read from the
//! built-in engine's search or from an engine's `info` lines, with the
//! time each move took; kept per move in the game's record and written as
//! the PGN's move comments.
//!
//! In a record (the `evals` field, protocol.md section 7) each move is one
//! word: `<ms>` for a move without a search, `<ms>:<score>/<depth>` with
//! one (`520:31/12`: 0.52 s, +31 centipawns at depth 12), and in
//! three-player games `<ms>:<score>/<depth>:<letter><score>,...` with each
//! player's score the search reported (`880:35/8:w35,n-10,b-25`). A score
//! is centipawns from the mover's view, or a mate as `M<plies>` (the mover
//! mates in that many plies) or `-M<plies>` (it is mated), as cutechess
//! writes them.

use super::pgn::Evaluation;
use crate::game::Variant;
use crate::number;
use crate::search::{DECIDED_SCORE, WIN_SCORE};
use std::time::Duration;

/// Separates the parts of a move's word in a record.
const PART_SEPARATOR: char = ':';
/// Separates a score from its depth.
const DEPTH_SEPARATOR: char = '/';
/// Separates the players' scores.
const SCORES_SEPARATOR: char = ',';
/// Marks a mate score.
const MATE_MARK: char = 'M';
/// The most plies to a mate a score can say (beyond, it would not be
/// decided: [`DECIDED_SCORE`]).
pub const MAX_MATE_PLIES: i32 = WIN_SCORE - DECIDED_SCORE;
/// The largest centipawn score that is not a mate.
pub const MAX_CENTIPAWNS: i32 = DECIDED_SCORE - 1;

/// A search's evaluation of the move it chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchScore {
    /// Score from the mover's view: centipawns, or beyond
    /// [`DECIDED_SCORE`] a mate (`WIN_SCORE - plies`, negative when the
    /// mover is mated), as the search scores.
    pub score: i32,
    /// Depth of the search, at least 1.
    pub depth: u32,
    /// Each player's score by its letter, in turn order, where the search
    /// reported them (three-player games: the `scores` of its line);
    /// empty otherwise.
    pub scores: Vec<(char, i32)>,
}

/// One move as it was played: the time it took and, if the mover searched,
/// its evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEvaluation {
    /// Time the move took.
    pub time: Duration,
    /// The mover's evaluation (`None` for the baselines and engines that
    /// report no score).
    pub search: Option<SearchScore>,
}

/// The score of an engine's `score mate <moves>`: mate in `moves` of the
/// mover's moves (negative: mated), as cutechess converts it (mate in 3
/// moves is 5 plies, mated in 3 is 6), kept within the decided scores.
pub fn mate_score(moves: i64) -> i32 {
    let plies = if moves > 0 {
        moves.saturating_mul(2) - 1
    } else {
        moves.saturating_mul(-2)
    };
    let plies = i32::try_from(plies).map_or(MAX_MATE_PLIES, |p| p.min(MAX_MATE_PLIES));
    if moves > 0 {
        WIN_SCORE - plies
    } else {
        plies - WIN_SCORE
    }
}

/// The score of an engine's `score cp <centipawns>`, kept below the mate
/// scores.
pub fn centipawn_score(centipawns: i64) -> i32 {
    let bound = i64::from(MAX_CENTIPAWNS);
    centipawns.clamp(-bound, bound) as i32
}

/// A score as a record writes it: `31`, `-120`, `M5`, `-M6`.
pub fn score_word(score: i32) -> String {
    if score.abs() >= DECIDED_SCORE {
        let sign = if score < 0 { "-" } else { "" };
        return format!("{sign}{MATE_MARK}{}", WIN_SCORE - score.abs());
    }
    score.to_string()
}

/// A score read back from [`score_word`].
pub fn parse_score_word(text: &str) -> Option<i32> {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if let Some(plies) = unsigned.strip_prefix(MATE_MARK) {
        let plies: i32 = number::whole_in(plies, &(0..=MAX_MATE_PLIES))?;
        let score = WIN_SCORE - plies;
        return Some(if negative { -score } else { score });
    }
    number::integer::<i32>(text).filter(|s| s.abs() <= MAX_CENTIPAWNS)
}

impl MoveEvaluation {
    /// The evaluation for the move's PGN comment (only the time without a
    /// search).
    pub fn comment(&self) -> Evaluation {
        Evaluation {
            score: self.search.as_ref().map_or(0, |s| s.score),
            depth: self.search.as_ref().map_or(0, |s| s.depth),
            time: self.time,
        }
    }

    /// The evaluation with its time in whole milliseconds, as a record
    /// keeps it.
    pub fn in_whole_ms(&self) -> MoveEvaluation {
        let ms = u64::try_from(self.time.as_millis()).unwrap_or(u64::MAX);
        MoveEvaluation {
            time: Duration::from_millis(ms),
            search: self.search.clone(),
        }
    }

    /// The move's word in a record (see the module's documentation); the
    /// time in whole milliseconds.
    pub fn word(&self) -> String {
        let mut word = self.time.as_millis().to_string();
        if let Some(search) = &self.search {
            word.push(PART_SEPARATOR);
            word.push_str(&score_word(search.score));
            word.push(DEPTH_SEPARATOR);
            word.push_str(&search.depth.to_string());
            if !search.scores.is_empty() {
                word.push(PART_SEPARATOR);
                let scores: Vec<String> = search
                    .scores
                    .iter()
                    .map(|&(letter, score)| format!("{letter}{}", score_word(score)))
                    .collect();
                word.push_str(&scores.join(&SCORES_SEPARATOR.to_string()));
            }
        }
        word
    }

    /// Reads a move's word of a record of `variant`.
    pub fn parse(word: &str, variant: Variant) -> Result<MoveEvaluation, String> {
        let bad = || format!("evals: '{word}' is not <ms>[:<score>/<depth>[:<scores>]]");
        let mut parts = word.split(PART_SEPARATOR);
        let ms: u64 = parts.next().and_then(number::whole).ok_or_else(bad)?;
        let time = Duration::from_millis(ms);
        let Some(search) = parts.next() else {
            return Ok(MoveEvaluation { time, search: None });
        };
        let (score, depth) = search.split_once(DEPTH_SEPARATOR).ok_or_else(bad)?;
        let score = parse_score_word(score).ok_or_else(bad)?;
        let depth = number::whole::<u32>(depth)
            .filter(|&d| d > 0)
            .ok_or_else(bad)?;
        let game = variant.game();
        let scores = match parts.next() {
            None => Vec::new(),
            Some(list) => list
                .split(SCORES_SEPARATOR)
                .map(|entry| {
                    let mut chars = entry.chars();
                    let letter = game.letters[game.player_index(chars.next()?)?];
                    Some((letter, parse_score_word(chars.as_str())?))
                })
                .collect::<Option<Vec<_>>>()
                .ok_or_else(bad)?,
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(MoveEvaluation {
            time,
            search: Some(SearchScore {
                score,
                depth,
                scores,
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_are_counted_in_plies_as_cutechess_counts_them() {
        assert_eq!(mate_score(3), WIN_SCORE - 5);
        assert_eq!(mate_score(-3), 6 - WIN_SCORE);
        assert_eq!(mate_score(1), WIN_SCORE - 1);
        assert_eq!(mate_score(0), -WIN_SCORE);
        assert_eq!(mate_score(i64::MAX), DECIDED_SCORE);
        assert_eq!(mate_score(i64::MIN), -DECIDED_SCORE);
        assert_eq!(centipawn_score(42), 42);
        assert_eq!(centipawn_score(1_000_000), MAX_CENTIPAWNS);
        assert_eq!(centipawn_score(i64::MIN), -MAX_CENTIPAWNS);
    }

    #[test]
    fn words_read_back() {
        let variant = Variant::Dreierschach;
        let cases = [
            MoveEvaluation {
                time: Duration::from_millis(3),
                search: None,
            },
            MoveEvaluation {
                time: Duration::from_millis(520),
                search: Some(SearchScore {
                    score: 31,
                    depth: 12,
                    scores: Vec::new(),
                }),
            },
            MoveEvaluation {
                time: Duration::ZERO,
                search: Some(SearchScore {
                    score: 6 - WIN_SCORE,
                    depth: 9,
                    scores: vec![('w', 35), ('n', -10), ('b', WIN_SCORE - 5)],
                }),
            },
        ];
        let words: Vec<String> = cases.iter().map(MoveEvaluation::word).collect();
        assert_eq!(words, ["3", "520:31/12", "0:-M6/9:w35,n-10,bM5"]);
        for (word, case) in words.iter().zip(&cases) {
            assert_eq!(MoveEvaluation::parse(word, variant).as_ref(), Ok(case));
        }
        for bad in [
            "",
            "x",
            "-3",
            "+3",
            "5:",
            "5:31",
            "5:31/0",
            "5:31/x",
            "5:+31/2",
            "5:31/2:",
            "5:31/2:x3",
            "5:31/2:w",
            "5:31/2:w3:4",
            "5:M1001/2",
            "5:29000/2",
        ] {
            assert!(MoveEvaluation::parse(bad, variant).is_err(), "{bad}");
        }
    }

    #[test]
    fn comments_show_the_search_or_only_the_time() {
        let timed = MoveEvaluation {
            time: Duration::from_millis(520),
            search: None,
        };
        assert_eq!(timed.comment().comment(), "0.52s");
        let searched = MoveEvaluation {
            search: Some(SearchScore {
                score: 42,
                depth: 7,
                scores: Vec::new(),
            }),
            ..timed
        };
        assert_eq!(searched.comment().comment(), "+0.42/7 0.52s");
    }
}
