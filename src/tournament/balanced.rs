//! Making balanced opening books (`triskel book`): random walks from the
//! start position, kept only where the engine's own search scores every
//! player within a small margin of even.
//!
//! Walk `i` of a book is drawn from the book's seed and `i` alone, and each
//! is judged by a fresh single-threaded search to a fixed depth, so a book
//! is the same on any machine and with any number of threads. The book is
//! the first `count` kept walks in walk order, without repeated positions.

use super::player::mix_seed;
use super::schedule::random_opening;
use crate::game::Variant;
use crate::search::{self, Limits, Progress, Searcher};
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// Stream tag of the walks' seeds (kept apart from a match's seeds).
const WALK_STREAM: u64 = 4;

/// Transposition table of each judging search, in MB: a search to a
/// moderate depth fills no more.
const JUDGE_HASH_MB: usize = 8;

/// Walks judged at a time, between checks of whether enough were kept.
const BATCH: usize = 64;

/// Most walks tried per opening asked for before giving up.
const MAX_TRIES_PER_OPENING: usize = 200;

/// What a book is made of.
#[derive(Clone, Debug)]
pub struct BookRecipe {
    /// The game.
    pub variant: Variant,
    /// Openings wanted.
    pub count: usize,
    /// Random plies of each walk.
    pub plies: usize,
    /// Depth of the judging search.
    pub depth: u32,
    /// Largest score (centipawns) of any player that counts as balanced.
    pub margin: i32,
    /// Seed of the walks.
    pub seed: u64,
}

/// A made book.
#[derive(Clone, Debug)]
pub struct MadeBook {
    /// The kept openings: their plies from the start position, on the wire.
    pub openings: Vec<Vec<String>>,
    /// Walks judged to get them (up to the last one kept).
    pub tried: usize,
}

impl MadeBook {
    /// The book in the `tfen` format: a header saying how it was made, then
    /// `startpos moves ...` per opening.
    pub fn text(&self, recipe: &BookRecipe, command: &str) -> String {
        let mut text = format!(
            "# {} openings of {}: made by `{command}`\n\
             # {} random plies from the start position per opening; kept where a search to \
             depth {} scores every player within {} cp ({} of {} walks kept)\n",
            self.openings.len(),
            recipe.variant,
            recipe.plies,
            recipe.depth,
            recipe.margin,
            self.openings.len(),
            self.tried
        );
        for moves in &self.openings {
            text.push_str("startpos moves ");
            text.push_str(&moves.join(" "));
            text.push('\n');
        }
        text
    }
}

/// The scores a search to `depth` gives `pos`: the mover's search score,
/// and in three-player games each player's score at the end of the
/// principal variation as well. The mover's score is judged in every
/// game: where the line ends in a mate, the evaluation at its end says
/// nothing of it, and only the search score shows the win.
fn judged_scores(pos: &crate::position::Position, depth: u32) -> Vec<i32> {
    let mut searcher = Searcher::new(search::Options {
        hash_mb: JUDGE_HASH_MB,
        ..search::Options::default()
    });
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut last = None;
    let result = searcher.search(pos, &limits, &AtomicBool::new(false), &mut |progress| {
        if let Progress::Line(info) = progress
            && info.multipv == 1
        {
            last = Some(info.clone());
        }
    });
    match last {
        Some(info) => std::iter::once(info.score)
            .chain(info.scores.iter().map(|&(_, s)| s))
            .collect(),
        None => vec![result.score],
    }
}

/// Makes the book of `recipe`, calling `progress(kept, tried)` after each
/// batch of walks. Fails when too few walks are balanced.
pub fn make_book(
    recipe: &BookRecipe,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<MadeBook, String> {
    let mut openings = Vec::with_capacity(recipe.count);
    let mut seen = HashSet::new();
    let mut tried = 0;
    let most = recipe.count.saturating_mul(MAX_TRIES_PER_OPENING);
    while openings.len() < recipe.count {
        if tried >= most {
            return Err(format!(
                "only {} of {tried} walks of {} plies were balanced within {} cp at depth {}: \
                 allow a larger margin or fewer plies",
                openings.len(),
                recipe.plies,
                recipe.margin,
                recipe.depth
            ));
        }
        let judged: Vec<_> = (tried..tried + BATCH)
            .into_par_iter()
            .map(|walk| {
                let index = walk;
                let seed = mix_seed(&[recipe.seed, WALK_STREAM, walk as u64]);
                let opening = random_opening(recipe.variant, recipe.plies, seed);
                let balanced = opening.moves.len() == recipe.plies
                    && judged_scores(&opening.position, recipe.depth)
                        .iter()
                        .all(|score| score.abs() <= recipe.margin);
                (index, opening, balanced)
            })
            .collect();
        tried += BATCH;
        for (index, opening, balanced) in judged {
            if balanced && openings.len() < recipe.count && seen.insert(opening.position.hash()) {
                openings.push(opening.moves);
                if openings.len() == recipe.count {
                    tried = index + 1;
                }
            }
        }
        progress(openings.len(), tried);
    }
    Ok(MadeBook { openings, tried })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::openings::{Book, BookFormat, BookOrder, BookSpec};

    fn recipe(margin: i32) -> BookRecipe {
        BookRecipe {
            variant: Variant::Chess,
            count: 5,
            plies: 4,
            depth: 3,
            margin,
            seed: 9,
        }
    }

    #[test]
    fn a_made_book_is_balanced_reproducible_and_readable() {
        let recipe = recipe(60);
        let book = make_book(&recipe, &mut |_, _| {}).unwrap();
        assert_eq!(book.openings.len(), 5);
        assert!(book.tried >= 5);
        let again = make_book(&recipe, &mut |_, _| {}).unwrap();
        assert_eq!(book.openings, again.openings);
        let text = book.text(&recipe, "triskel book");
        let spec = BookSpec {
            file: "made".into(),
            format: BookFormat::Tfen,
            order: BookOrder::Sequential,
            start: 1,
            plies: None,
        };
        let read = Book::read(&text, &spec, Variant::Chess).unwrap();
        assert_eq!(read.len(), 5);
        for round in 1..=5 {
            let opening = read.opening(round, Variant::Chess);
            assert_eq!(opening.moves, book.openings[round - 1]);
            let scores = judged_scores(&opening.position, recipe.depth);
            assert!(scores.iter().all(|s| s.abs() <= 60), "{scores:?}");
        }
    }

    #[test]
    fn a_margin_nothing_meets_fails_clearly() {
        let mut impossible = recipe(-1);
        impossible.count = 1;
        let err = make_book(&impossible, &mut |_, _| {}).unwrap_err();
        assert!(err.contains("only 0 of"), "{err}");
    }

    #[test]
    fn three_player_games_judge_the_movers_and_every_players_score() {
        let scores = judged_scores(&crate::position::Position::start(Variant::Trichess), 2);
        assert_eq!(scores.len(), 4);
    }

    #[test]
    fn a_mate_in_one_is_never_balanced() {
        // White mates Brown with j10f10 (an opening the old judge, which
        // read only the evaluation at the line's end, let into
        // `openings/dreierschach.tfen`). The mover's search score shows the
        // win, and so does each player's score, which is the game's result
        // where the line ends the game.
        let moves = "c1e4 h12j12 l7j7 b2b4 h13h8 m7k6 e4c5 h8h3 l9k8 a1j10 a5b4 l10k9";
        let mut pos = crate::position::Position::start(Variant::Dreierschach);
        for text in moves.split_whitespace() {
            let m = pos.parse_move(text).unwrap();
            pos.make(m);
        }
        let scores = judged_scores(&pos, 4);
        assert!(scores[1] > 10 * 100, "White's win: {scores:?}");
        assert!(scores[2..].iter().all(|&s| s < -10 * 100), "{scores:?}");
        assert!(scores[0] > 10 * 100, "the mover's win: {scores:?}");
    }
}
