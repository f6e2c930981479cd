//! Training data for tuning the evaluation: fast self-play games of the
//! engine from a game's opening book, and of each game's quiet positions
//! the search's score per player with the points every player got at the
//! game's end (what Texel's method fits a logistic of the evaluation to).
//!
//! The data is text, one position per line, after a first line that names
//! the command that made it:
//!
//! ```text
//! # triskel datagen --variant chess --games 2 --nodes 5000 --seed 0 --random-moves 1 --openings openings/chess.tfen
//! <position>;<letter><score> ...;<points> ...
//! ```
//!
//! - `position`: the protocol's position format (which reads in every
//!   game, chess included);
//! - the scores: each player's score in centipawns from its own view, by
//!   its letter, as the mover's search saw the position (in two-player
//!   games the mover's score and its negation; in three-player games the
//!   search's `scores` line);
//! - the points: each player's points at the game's end, in turn order, as
//!   the game's rules (or the adjudication at the maximum length) gave them.
//!
//! Each game starts from a book opening and then a few random moves
//! (`random_moves` per player, drawn from the game's seed): the engine
//! searches a fixed number of nodes and plays alike from alike positions,
//! so without them every game from the same opening would be the same
//! game. Kept are positions after these moves where the mover is not in check,
//! the move played captures nothing, and the score is not a mate: the
//! quiet positions a static evaluation can be fitted to.
//!
//! Games are played in batches on all threads of the current rayon pool;
//! each game's players draw from its own seed, so the data is the same
//! whatever the number of threads.

use crate::game::Variant;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{finished_by_rule, format_points};
use crate::search::DECIDED_SCORE;
use crate::tournament::adjudication::Adjudication;
use crate::tournament::evaluation::MoveEvaluation;
use crate::tournament::game::{GameSetup, TimeControl, play_game};
use crate::tournament::openings::Book;
use crate::tournament::player::{PlayerConfig, SeededRng, mix_seed, random_move};
use rayon::prelude::*;
use std::time::Duration;

/// Separates a line's fields.
pub const FIELD_SEPARATOR: char = ';';

/// Games played in parallel before their lines are written, per thread:
/// enough to keep every thread busy, few enough that the memory stays small.
const GAMES_PER_THREAD_IN_A_BATCH: usize = 4;

/// Plies after the opening at which a self-play game is ended on the
/// game's own draw rule (Star: the points decide).
pub const MAX_PLIES: usize = 400;

/// What `triskel datagen` plays.
#[derive(Clone, Debug)]
pub struct DatagenRecipe {
    /// The game.
    pub variant: Variant,
    /// Games to play.
    pub games: usize,
    /// Nodes the engine searches per move.
    pub nodes: u64,
    /// Seed of the book's order and of the games.
    pub seed: u64,
    /// Random moves each player plays after the opening.
    pub random_moves: usize,
}

/// One position of the data.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position in the protocol's format.
    pub position: String,
    /// Each player's score from its own view, by letter, in turn order.
    pub scores: Vec<(char, i32)>,
    /// Each player's points at the game's end, in turn order.
    pub points: Vec<f64>,
}

impl Sample {
    /// The sample as a line of the data (without the line end).
    pub fn line(&self) -> String {
        let scores: Vec<String> = self
            .scores
            .iter()
            .map(|(letter, score)| format!("{letter}{score}"))
            .collect();
        let points: Vec<String> = self.points.iter().map(|&p| format_points(p)).collect();
        format!(
            "{}{FIELD_SEPARATOR}{}{FIELD_SEPARATOR}{}",
            self.position,
            scores.join(" "),
            points.join(" ")
        )
    }

    /// Reads a line of the data of `variant`.
    pub fn parse(line: &str, variant: Variant) -> Result<Sample, String> {
        let fields: Vec<&str> = line.split(FIELD_SEPARATOR).collect();
        let [position, scores, points] = fields[..] else {
            return Err(format!(
                "'{line}': expected three fields separated by '{FIELD_SEPARATOR}'"
            ));
        };
        Position::from_fen(variant, position).map_err(|why| format!("'{position}': {why:?}"))?;
        let scores = scores
            .split_whitespace()
            .map(|word| {
                let mut chars = word.chars();
                let letter = chars.next().ok_or("an empty score")?;
                let score = chars
                    .as_str()
                    .parse()
                    .map_err(|_| format!("score '{word}': expected a letter and centipawns"))?;
                Ok((letter, score))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let points = points
            .split_whitespace()
            .map(|word| {
                word.parse()
                    .map_err(|_| format!("points '{word}': expected a number"))
            })
            .collect::<Result<Vec<f64>, String>>()?;
        let players = variant.game().players;
        if scores.len() != players || points.len() != players {
            return Err(format!("'{line}': expected a score and points per player"));
        }
        Ok(Sample {
            position: position.to_string(),
            scores,
            points,
        })
    }
}

/// The part of a game's seed that draws its random moves (the seats'
/// parts are their indices, below it).
const RANDOM_MOVES_STREAM: u64 = u64::MAX;

/// Plays game `index` (from 0) of `recipe` from `book`'s opening and the
/// game's random moves, and returns its quiet positions.
pub fn play_for_data(
    recipe: &DatagenRecipe,
    book: &Book,
    index: usize,
) -> Result<Vec<Sample>, String> {
    let variant = recipe.variant;
    let opening = book.opening(index + 1, variant);
    let engine = PlayerConfig::parse(&format!("engine:nodes={}", recipe.nodes))?;
    let players = variant.game().players;
    let seeds = (0..players)
        .map(|seat| mix_seed(&[recipe.seed, index as u64, seat as u64]))
        .collect();
    let mut start = opening.position.clone();
    let mut rng = SeededRng::new(mix_seed(&[recipe.seed, index as u64, RANDOM_MOVES_STREAM]));
    for _ in 0..recipe.random_moves * players {
        if finished_by_rule(&start) {
            break;
        }
        let m = random_move(&start, &mut rng);
        if m == Move::NONE {
            break;
        }
        start.make(m);
    }
    let setup = GameSetup {
        start: &start,
        seats: vec![&engine; players],
        time_control: TimeControl::fischer(Duration::ZERO, Duration::ZERO),
        max_plies: MAX_PLIES,
        adjudication: Adjudication::default(),
        seeds,
    };
    let result = play_game(&setup)?;
    let mut pos = start.clone();
    let mut samples = Vec::new();
    for (word, evaluation) in result.moves.iter().zip(&result.evaluations) {
        let m = pos.parse_move(word).map_err(|e| e.to_string())?;
        let position = pos.fen();
        let in_check = pos.in_check();
        let mover_view = scores_per_player(&pos, evaluation);
        let captured = pos.make(m).captured();
        if let Some(scores) = mover_view
            && !in_check
            && captured.is_none()
        {
            samples.push(Sample {
                position,
                scores,
                points: result.points.clone(),
            });
        }
    }
    Ok(samples)
}

/// Every player's score from its own view, if the mover searched and saw
/// no mate: the search's per-player scores where it gave them, else (two
/// players) the mover's score and its negation.
fn scores_per_player(pos: &Position, evaluation: &MoveEvaluation) -> Option<Vec<(char, i32)>> {
    let search = evaluation.search.as_ref()?;
    let game = pos.game();
    let scores: Vec<(char, i32)> = if search.scores.len() == game.players {
        search.scores.clone()
    } else {
        (0..game.players)
            .map(|p| {
                let own = p == pos.to_move().index();
                let score = if own { search.score } else { -search.score };
                (game.letters[p], score)
            })
            .collect()
    };
    let decided =
        search.score.abs() >= DECIDED_SCORE || scores.iter().any(|(_, s)| s.abs() >= DECIDED_SCORE);
    (!decided).then_some(scores)
}

/// Plays every game of `recipe` from `book` in batches on the current
/// rayon pool and hands each game's samples to `write`, in game order;
/// `progress` hears of the games and positions done after each batch.
pub fn generate(
    recipe: &DatagenRecipe,
    book: &Book,
    write: &mut dyn FnMut(&[Sample]) -> Result<(), String>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(), String> {
    let batch = rayon::current_num_threads() * GAMES_PER_THREAD_IN_A_BATCH;
    let mut positions = 0;
    let mut first = 0;
    while first < recipe.games {
        let last = (first + batch).min(recipe.games);
        let games: Vec<Result<Vec<Sample>, String>> = (first..last)
            .into_par_iter()
            .map(|index| play_for_data(recipe, book, index))
            .collect();
        for samples in games {
            let samples = samples?;
            positions += samples.len();
            write(&samples)?;
        }
        first = last;
        progress(first, positions);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::openings::{BookFormat, BookOrder, BookSpec};

    /// The first openings of the shipped book of `variant`.
    fn book(variant: Variant) -> Book {
        Book::load(&shipped_spec(variant), variant, 0).expect("the shipped book reads")
    }

    /// The shipped book of `variant`, read in order.
    fn shipped_spec(variant: Variant) -> BookSpec {
        let path = format!(
            "{}/openings/{}.tfen",
            env!("CARGO_MANIFEST_DIR"),
            variant.id()
        );
        BookSpec {
            file: path.into(),
            format: BookFormat::Tfen,
            order: BookOrder::Sequential,
            start: 1,
            plies: None,
        }
    }

    #[test]
    fn games_from_one_opening_differ_by_their_random_moves() {
        let recipe = |random_moves| DatagenRecipe {
            variant: Variant::Chess,
            games: 2,
            nodes: 200,
            seed: 3,
            random_moves,
        };
        // A book of one opening: every game starts from it.
        let spec = shipped_spec(Variant::Chess);
        let text = std::fs::read_to_string(&spec.file).unwrap();
        let first = text.lines().find(|l| !l.starts_with('#')).unwrap();
        let one = Book::read(first, &spec, Variant::Chess).unwrap();
        assert_eq!(one.len(), 1);
        let first_positions = |random_moves| {
            let games: Vec<Vec<Sample>> = (0..2)
                .map(|index| play_for_data(&recipe(random_moves), &one, index).unwrap())
                .collect();
            games
                .iter()
                .map(|g| g[0].position.clone())
                .collect::<Vec<_>>()
        };
        let alike = first_positions(0);
        assert_eq!(alike[0], alike[1], "without random moves, the same game");
        let apart = first_positions(1);
        assert_ne!(apart[0], apart[1], "with them, two games");
    }

    #[test]
    fn a_line_reads_back_as_its_sample() {
        let sample = Sample {
            position: Position::start(Variant::Dreierschach).fen(),
            scores: vec![('w', 35), ('n', -10), ('b', -25)],
            points: vec![3.0, 1.0, 0.0],
        };
        let line = sample.line();
        assert!(line.ends_with(";w35 n-10 b-25;3 1 0"), "{line}");
        assert_eq!(Sample::parse(&line, Variant::Dreierschach), Ok(sample));
        assert!(Sample::parse("nonsense", Variant::Chess).is_err());
        assert!(Sample::parse(&line, Variant::Chess).is_err());
    }

    #[test]
    fn self_play_keeps_quiet_scored_positions_with_the_games_points() {
        for variant in [Variant::Chess, Variant::Trichess] {
            let recipe = DatagenRecipe {
                variant,
                games: 2,
                nodes: 300,
                seed: 1,
                random_moves: 1,
            };
            let book = book(variant);
            let mut lines = Vec::new();
            let mut done = Vec::new();
            generate(
                &recipe,
                &book,
                &mut |samples| {
                    lines.extend(samples.iter().map(Sample::line));
                    Ok(())
                },
                &mut |games, positions| done.push((games, positions)),
            )
            .unwrap();
            assert_eq!(done.last(), Some(&(2, lines.len())));
            assert!(!lines.is_empty(), "{variant}");
            let total = Position::start(variant).drawn(crate::rules::EndReason::MoveRule);
            let total: f64 = total.points.iter().sum();
            for line in &lines {
                let sample = Sample::parse(line, variant).unwrap();
                let pos = Position::from_fen(variant, &sample.position).unwrap();
                assert!(!pos.in_check(), "{line}");
                assert!(sample.scores.iter().all(|(_, s)| s.abs() < DECIDED_SCORE));
                let points: f64 = sample.points.iter().sum();
                assert!(points <= total + 1e-9, "{line}");
            }
            let again = play_for_data(&recipe, &book, 0).unwrap();
            assert_eq!(
                again.iter().map(Sample::line).collect::<Vec<_>>(),
                lines[..again.len()],
                "a game replays from its seed"
            );
        }
    }
}
